/* Aho-Corasick automaton: build once, then a flat, pointer-free table.
 *
 * The compiled automaton is ONE contiguous block of memory that starts with
 * struct ac_layout; every array in it is found by a byte offset from the
 * start of the block. The block can be copied as-is to another address space
 * (a GPU, a file) and walked there with the same inline functions below,
 * which compile under cc and nvcc (AC_HD marks them __host__ __device__).
 *
 * The automaton runs on folded bytes (ASCII A-Z -> a-z). Bytes are first
 * mapped to an alphabet class (cls[256]): every folded byte that occurs in
 * some pattern has its own class, all other bytes share class 0, which no
 * goto edge uses. States are numbered in BFS order (root = 0), so:
 *   - the first `ndense` states have a full DFA row of `nclass` entries
 *     (the goto/fail closure is precomputed);
 *   - the other states are sparse: their children are the contiguous states
 *     child[s] .. child[s+1]-1 (sorted by class, the class of the edge into
 *     a state is scls[state]) and fail[s] is followed when none matches.
 *     fail[s] always has a smaller depth, hence a smaller index, so the walk
 *     ends at a dense state (the root at worst).
 * State values in the DFA rows and returned by ac_next() are "tagged":
 * AC_MATCH_FLAG is set when the state has matches, so the scan loop only
 * touches the match lists when it must.
 * Matches of state s: out[outoff[s] .. outoff[s+1]) are indexes into pat[],
 * all patterns whose folded bytes are a suffix of the state's string. A
 * pattern with nocase == 0 must still be verified byte-exact against the
 * buffer (ac_verify) before it is reported.
 */
#ifndef MPM_AC_H
#define MPM_AC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __CUDACC__
#define AC_HD __host__ __device__
#else
#define AC_HD
#endif

#define AC_MAGIC 0x31434141u     /* "AAC1" */
#define AC_MATCH_FLAG 0x80000000u
#define AC_STATE_MASK 0x7fffffffu

/* One pattern as the automaton reports it (also the builder's input). */
struct ac_pattern {
	uint32_t id;        /* caller's pattern id */
	uint32_t off;       /* offset of the original bytes in the bytes array */
	uint16_t len;       /* >= 1 */
	uint8_t nocase;     /* 1: caseless (ASCII), 0: exact bytes */
	uint8_t pad;
};

/* Header of the flat block. All off_* are byte offsets from the header. */
struct ac_layout {
	uint32_t magic;
	uint32_t nstates;
	uint32_t ndense;     /* states [0, ndense) have a dense row */
	uint32_t nclass;     /* alphabet classes, class 0 = "in no pattern" */
	uint32_t npatterns;
	uint32_t nout;       /* entries in out[] */
	uint32_t maxlen;     /* longest pattern */
	uint32_t pad;
	uint64_t size;       /* bytes of the whole block */
	uint64_t off_cls;    /* uint8_t  [256]                  byte -> class */
	uint64_t off_dense;  /* uint32_t [ndense * nclass]      tagged next state */
	uint64_t off_fail;   /* uint32_t [nstates]              fail state (untagged) */
	uint64_t off_child;  /* uint32_t [nstates + 1]          first child */
	uint64_t off_scls;   /* uint8_t  [nstates]              class into state */
	uint64_t off_outoff; /* uint32_t [nstates + 1]          match list start */
	uint64_t off_out;    /* uint32_t [nout]                 index into pat[] */
	uint64_t off_pat;    /* struct ac_pattern [npatterns] */
	uint64_t off_bytes;  /* uint8_t  []                     original pattern bytes */
};

/* Pointers into one block (host or device address), built once per scan. */
struct ac_view {
	const uint8_t *cls;
	const uint32_t *dense;
	const uint32_t *fail;
	const uint32_t *child;
	const uint8_t *scls;
	const uint32_t *outoff;
	const uint32_t *out;
	const struct ac_pattern *pat;
	const uint8_t *bytes;
	uint32_t ndense;
	uint32_t nclass;
};

/* `base` is the block's address in the space that will read it (e.g. the
 * device copy), `hdr` a readable copy of its header. */
static inline AC_HD void ac_view_init(struct ac_view *v, const void *base,
				      const struct ac_layout *hdr)
{
	const uint8_t *b = (const uint8_t *)base;

	v->cls = b + hdr->off_cls;
	v->dense = (const uint32_t *)(b + hdr->off_dense);
	v->fail = (const uint32_t *)(b + hdr->off_fail);
	v->child = (const uint32_t *)(b + hdr->off_child);
	v->scls = b + hdr->off_scls;
	v->outoff = (const uint32_t *)(b + hdr->off_outoff);
	v->out = (const uint32_t *)(b + hdr->off_out);
	v->pat = (const struct ac_pattern *)(b + hdr->off_pat);
	v->bytes = b + hdr->off_bytes;
	v->ndense = hdr->ndense;
	v->nclass = hdr->nclass;
}

/* Sparse-state transition, outside the hot dense path. */
static inline AC_HD uint32_t ac_next_sparse(const struct ac_view *v,
					    uint32_t s, uint32_t c)
{
	for (;;) {
		if (s < v->ndense)
			return v->dense[(size_t)s * v->nclass + c];
		uint32_t lo = v->child[s], hi = v->child[s + 1];

		/* children are sorted by class; deep states have one or two */
		if (hi - lo <= 4) {
			for (; lo < hi; lo++)
				if (v->scls[lo] == c)
					goto found;
		} else {
			while (lo < hi) {
				uint32_t mid = lo + (hi - lo) / 2;
				uint32_t mc = v->scls[mid];

				if (mc == c) {
					lo = mid;
					goto found;
				}
				if (mc < c)
					lo = mid + 1;
				else
					hi = mid;
			}
		}
		s = v->fail[s];
		continue;
found:
		return lo | (v->outoff[lo + 1] != v->outoff[lo] ? AC_MATCH_FLAG : 0);
	}
}

/* Next tagged state from tagged state `st` on input byte `byte`. */
static inline AC_HD uint32_t ac_next(const struct ac_view *v, uint32_t st,
				     uint8_t byte)
{
	uint32_t c = v->cls[byte];
	uint32_t s = st & AC_STATE_MASK;

	if (s < v->ndense)
		return v->dense[(size_t)s * v->nclass + c];
	/* class 0 is on no edge: every fail chain ends at the root */
	if (c == 0)
		return 0;
	return ac_next_sparse(v, s, c);
}

/* Does pattern `pi`, whose folded form ends at `end`, really match?
 * Only exact-case patterns need the byte compare. */
static inline AC_HD int ac_verify(const struct ac_view *v, uint32_t pi,
				  const uint8_t *buf, uint32_t end)
{
	const struct ac_pattern *p = &v->pat[pi];

	if (p->nocase)
		return 1;
	const uint8_t *a = buf + end - p->len, *b = v->bytes + p->off;
	for (uint32_t i = 0; i < p->len; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

/* Host-side handle: the block plus a view of it. */
typedef struct AcAutomaton {
	struct ac_layout *blk;   /* the flat block; blk->size bytes */
	struct ac_view v;
} AcAutomaton;

/* Build from `n` patterns (len >= 1, already de-duplicated by the caller)
 * whose bytes are in `bytes`. States beyond `dense_budget` bytes of dense
 * rows are sparse (at least the root is dense). Returns NULL with a message
 * in err on failure. */
AcAutomaton *ac_build(const struct ac_pattern *pats, uint32_t n,
		      const uint8_t *bytes, size_t dense_budget,
		      char *err, size_t errlen);
void ac_free(AcAutomaton *a);

/* Calls cb(arg, pattern id, end offset) for each match, in end-offset order;
 * stops when cb returns nonzero. Returns the number of matches reported. */
typedef int (*ac_match_fn)(void *arg, uint32_t pattern_id, uint32_t end_offset);
uint32_t ac_search(const AcAutomaton *a, const uint8_t *buf, uint32_t len,
		   ac_match_fn cb, void *arg);

/* Default dense budget (bytes of DFA rows). Rows beyond what the caches
 * hold cost more than the fail walks they save: on 20k random patterns a
 * 16 MiB budget scanned 10x slower than 1 MiB (qa/bench/mpm-bench). A GPU
 * build may pass a larger one to ac_build. */
#define AC_DENSE_BUDGET_DEFAULT (1u << 20)

#endif
