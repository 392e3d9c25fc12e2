/* Aho-Corasick automaton: build once, then a flat, pointer-free table.
 *
 * The compiled automaton is ONE contiguous block of memory that starts with
 * struct ac_layout; every array in it is found by a byte offset from the
 * start of the block. The block can be copied as-is to another address space
 * (a GPU, a file) and walked there with the same inline functions below,
 * which compile under cc and nvcc (AC_HD marks them __host__ __device__).
 *
 * Literals. The patterns are grouped into literals: the distinct (bytes,
 * nocase) pairs. A literal lists the pattern ids that share it, so a string
 * used by 100 rules costs one literal and 100 ids, not 100 match entries in
 * every state that ends with it.
 *
 * Alphabet. The automaton runs on folded bytes (ASCII A-Z -> a-z). Bytes are
 * mapped to a class (cls[256]): every folded byte that occurs in some
 * literal has its own class, all other bytes share class 0, on no edge.
 *
 * States. Numbered so that the scan loop decides everything by comparing
 * the state number with three bounds:
 *   [0, nfilter)          the root, then the depth-1 states without matches:
 *                         the state there depends on the last byte only, so
 *                         the scan may skip ahead with the bigram filter;
 *   [nfilter, matchlo)    other dense states without matches;
 *   [matchlo, ndense)     dense states with matches;
 *   [ndense, nstates)     sparse states (deep, rarely visited), BFS order.
 * A dense state has a full DFA row (the goto/fail closure precomputed) of
 * 1 << shift entries (nclass rounded up to a power of two, so a row starts
 * at s << shift), each `width` bytes: 2 when nstates <= 65536, else 4.
 * A sparse state s has children child[s] .. child[s + 1] - 1 (contiguous,
 * sorted by the class of the edge into them, scls[]) and fail[s], followed
 * when no child matches; fail chains end in a dense state.
 * Arrays over sparse states are indexed by s - ndense.
 *
 * Matches. mlink[s - matchlo] is the first output node of state s (AC_NONE
 * for a sparse state without matches): the node of the nearest suffix of the
 * state's string that ends a literal. An output node lists the literals
 * ending there (lit[lo, lo + n)) and the next node down the suffix chain.
 * A literal with nocase == 0 must still be verified byte-exact against the
 * buffer (ac_verify_lit) before its ids are reported.
 *
 * GPU lists (for the ac-cuda code, built when asked: ac_build(), or an
 * ac-cuda context): outoff[s] .. outoff[s + 1] index out[], whose entries
 * index pat[], one (id, literal) pair each, in the order ac_search reports
 * them; ac_next() returns tagged states (AC_MATCH_FLAG when s has matches)
 * and ac_verify() checks a pat[] entry. Without them these pointers are NULL.
 *
 * GPU filter (built with the GPU lists; the CPU scan never reads it): what
 * the ac-cuda `filter` kernel needs to test each START position of a
 * literal with a few table loads and then walk the trie without fail
 * links from the candidates only:
 *   gdepth[s]   depth of state s (its string's length), 255 when >= 255:
 *               a dense row's entry t is a trie child of s (not a fail
 *               target) when gdepth[t] == gdepth[s] + 1;
 *   gpair[]     2 bits per folded pair (c0 | c1 << 8): AC_GP_LONG: a
 *               literal of 4 bytes or more starts with it (then test
 *               gquad), AC_GP_SHORT: a literal of 2 or 3 bytes does;
 *   gsid[256]   per RAW byte: 0, or 1..32 = the bit of the one-byte
 *               literals that match this byte (a kernel reports them at
 *               its first occurrence per payload piece only): one bit per
 *               folded byte, except that a raw byte an exact-case literal
 *               matches has its own; AC_GSID_ALWAYS past 32 bits;
 *   gquad[]     1 << gquadbits bits: hash (ac_gquad_hash) of the folded
 *               4-byte prefix of every literal of 4 bytes or more.
 * A literal starting at q therefore always passes the test at q: the maps
 * err only towards a candidate.
 *
 * Filter. bigram[] is a 65536-bit map over (previous byte, byte): set when
 * the folded pair starts a literal of two or more bytes, or when the byte is
 * a one-byte literal. Where the state has depth <= 1 and the pair is not
 * set, the next state has depth <= 1 again and no match ends there, so the
 * scan skips the byte without touching the DFA (most bytes of real traffic
 * leave the root at once).
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

#define AC_MAGIC 0x32434141u     /* "AAC2" */
#define AC_NONE 0xffffffffu
#define AC_MATCH_FLAG 0x80000000u
#define AC_STATE_MASK 0x7fffffffu

/* One pattern as the builder takes it (from the MPM front end). */
struct ac_pattern {
	uint32_t id;        /* caller's pattern id */
	uint32_t off;       /* offset of the original bytes in the bytes array */
	uint16_t len;       /* >= 1 */
	uint8_t nocase;     /* 1: caseless (ASCII), 0: exact bytes */
	uint8_t pad;
};

/* The folding a nocase pattern compares under (ASCII letters only), for
 * every matcher and the front end alike. */
static inline uint8_t mpm_fold(uint8_t b)
{
	return (b >= 'A' && b <= 'Z') ? (uint8_t)(b + 32) : b;
}

/* One literal in the block: its bytes (original case) and its ids. */
struct ac_lit {
	uint32_t off;       /* into bytes[] */
	uint32_t ids;       /* ids[ids .. next literal's ids) */
	uint16_t len;
	uint8_t nocase;
	uint8_t pad;
};

/* An output node: literals [lit, lit + nlit) end here; `next` is the next
 * node down the suffix chain or AC_NONE. */
struct ac_onode {
	uint32_t lit;
	uint32_t nlit;
	uint32_t next;
};

#define AC_F_FILTER 1u    /* the bigram filter is worth using */

#define AC_GP_LONG 1u     /* gpair: a literal of >= 4 bytes starts here */
#define AC_GP_SHORT 2u    /* gpair: a literal of 2 or 3 bytes starts here */
#define AC_GSID_ALWAYS 0xffu

/* Header of the flat block. All off_* are byte offsets from the header. */
struct ac_layout {
	uint32_t magic;
	uint32_t nstates;
	uint32_t ndense;     /* states [0, ndense) have a dense row */
	uint32_t nclass;     /* alphabet classes, class 0 = "in no literal" */
	uint32_t shift;      /* a dense row has 1 << shift entries */
	uint32_t width;      /* bytes of a dense entry: 2 or 4 */
	uint32_t nfilter;    /* see the state numbering above */
	uint32_t matchlo;
	uint32_t nlit;       /* literals; lit[nlit] is a sentinel */
	uint32_t nids;
	uint32_t nonode;
	uint32_t npatterns;  /* (id, literal) pairs = nids */
	uint32_t maxlen;     /* longest literal */
	uint32_t flags;      /* AC_F_* */
	uint32_t nout;       /* entries in out[] (GPU lists), 0 without them */
	uint32_t pad;
	uint64_t size;       /* bytes of the whole block */
	uint64_t off_cls;    /* uint8_t  [256]                  byte -> class */
	uint64_t off_bigram; /* uint8_t  [8192]                 filter bitmap */
	uint64_t off_dense;  /* uint16_t/uint32_t [ndense << shift] next state */
	uint64_t off_fail;   /* uint32_t [nstates - ndense]     fail state */
	uint64_t off_child;  /* uint32_t [nstates - ndense + 1] first child */
	uint64_t off_scls;   /* uint8_t  [nstates - ndense]     class into state */
	uint64_t off_mlink;  /* uint32_t [nstates - matchlo]    first output node */
	uint64_t off_onode;  /* struct ac_onode [nonode] */
	uint64_t off_lit;    /* struct ac_lit [nlit + 1] */
	uint64_t off_ids;    /* uint32_t [nids]                 pattern ids */
	uint64_t off_bytes;  /* uint8_t  []                     literal bytes */
	uint64_t off_outoff; /* uint32_t [nstates + 1]   GPU lists, or 0 */
	uint64_t off_out;    /* uint32_t [nout]                 index into pat[] */
	uint64_t off_pat;    /* struct ac_pattern [nids]        off into bytes[] */
	/* GPU filter (built with the GPU lists), or all 0 */
	uint64_t off_gdepth; /* uint8_t  [nstates]              state depth */
	uint64_t off_gpair;  /* uint32_t [4096]                 2 bits per pair */
	uint64_t off_gsid;   /* uint8_t  [256]                  one-byte literal bits */
	uint64_t off_gquad;  /* uint32_t [max(1, 2^gquadbits / 32)] prefix hashes */
	uint32_t gquadbits;  /* 0: no literal of 4 bytes or more */
	uint32_t gpad;
};

/* Pointers into one block (host or device address), built once per scan. */
struct ac_view {
	const uint8_t *cls;
	const uint8_t *bigram;
	const uint16_t *d16;     /* the dense rows, as 16- */
	const uint32_t *d32;     /* or 32-bit entries (by width) */
	const uint32_t *fail;
	const uint32_t *child;
	const uint8_t *scls;
	const uint32_t *mlink;
	const struct ac_onode *onode;
	const struct ac_lit *lit;
	const uint32_t *ids;
	const uint8_t *bytes;
	const uint32_t *outoff;  /* GPU lists: NULL when not built */
	const uint32_t *out;
	const struct ac_pattern *pat;
	uint32_t ndense;
	uint32_t shift;
	uint32_t width;
	uint32_t nfilter;
	uint32_t matchlo;
	uint32_t flags;
	/* GPU filter: NULL when not built (after the CPU scan's fields) */
	const uint8_t *gdepth;
	const uint32_t *gpair;
	const uint8_t *gsid;
	const uint32_t *gquad;
	uint32_t gquadbits;
	uint32_t maxlen;
};

/* `base` is the block's address in the space that will read it (e.g. the
 * device copy), `hdr` a readable copy of its header. */
static inline AC_HD void ac_view_init(struct ac_view *v, const void *base,
				      const struct ac_layout *hdr)
{
	const uint8_t *b = (const uint8_t *)base;

	v->cls = b + hdr->off_cls;
	v->bigram = b + hdr->off_bigram;
	v->d16 = (const uint16_t *)(b + hdr->off_dense);
	v->d32 = (const uint32_t *)(b + hdr->off_dense);
	v->fail = (const uint32_t *)(b + hdr->off_fail);
	v->child = (const uint32_t *)(b + hdr->off_child);
	v->scls = b + hdr->off_scls;
	v->mlink = (const uint32_t *)(b + hdr->off_mlink);
	v->onode = (const struct ac_onode *)(b + hdr->off_onode);
	v->lit = (const struct ac_lit *)(b + hdr->off_lit);
	v->ids = (const uint32_t *)(b + hdr->off_ids);
	v->bytes = b + hdr->off_bytes;
	v->outoff = hdr->off_outoff ? (const uint32_t *)(b + hdr->off_outoff) : 0;
	v->out = hdr->off_outoff ? (const uint32_t *)(b + hdr->off_out) : 0;
	v->pat = hdr->off_outoff ? (const struct ac_pattern *)(b + hdr->off_pat) : 0;
	v->ndense = hdr->ndense;
	v->shift = hdr->shift;
	v->width = hdr->width;
	v->nfilter = hdr->nfilter;
	v->matchlo = hdr->matchlo;
	v->flags = hdr->flags;
	v->gdepth = hdr->off_gdepth ? b + hdr->off_gdepth : 0;
	v->gpair = hdr->off_gdepth ? (const uint32_t *)(b + hdr->off_gpair) : 0;
	v->gsid = hdr->off_gdepth ? b + hdr->off_gsid : 0;
	v->gquad = hdr->off_gdepth ? (const uint32_t *)(b + hdr->off_gquad) : 0;
	v->gquadbits = hdr->gquadbits;
	v->maxlen = hdr->maxlen;
}

/* GPU filter: the gquad bit of a folded 4-byte prefix w (first byte in the
 * low bits). Multiplicative hashing keeps the top bits, which mix them all. */
static inline AC_HD uint32_t ac_gquad_hash(uint32_t w, uint32_t bits)
{
	return bits ? (w * 0x9e3779b1u) >> (32 - bits) : 0;
}

/* GPU filter: the 2-bit gpair code of the folded pair (c0, c1). */
static inline AC_HD uint32_t ac_gpair_code(const uint32_t *gpair, uint32_t c0, uint32_t c1)
{
	uint32_t i = c0 | c1 << 8;

	return (gpair[i >> 4] >> ((i & 15) * 2)) & 3u;
}

/* Dense row entry (state s < ndense, class c). */
static inline AC_HD uint32_t ac_dense(const struct ac_view *v, uint32_t s,
				      uint32_t c)
{
	size_t i = ((size_t)s << v->shift) + c;

	return v->width == 2 ? v->d16[i] : v->d32[i];
}

/* Transition from any state on class c. */
static inline AC_HD uint32_t ac_step_class(const struct ac_view *v, uint32_t s,
					   uint32_t c)
{
	while (s >= v->ndense) {
		uint32_t k = s - v->ndense;
		uint32_t lo = v->child[k], hi = v->child[k + 1];

		/* class 0 is on no edge: every fail chain ends at the root */
		if (c == 0)
			return 0;
		/* children are sorted by class; deep states have one or two */
		if (hi - lo <= 4) {
			for (; lo < hi; lo++)
				if (v->scls[lo - v->ndense] == c)
					return lo;
		} else {
			while (lo < hi) {
				uint32_t mid = lo + (hi - lo) / 2;
				uint32_t mc = v->scls[mid - v->ndense];

				if (mc == c)
					return mid;
				if (mc < c)
					lo = mid + 1;
				else
					hi = mid;
			}
		}
		s = v->fail[k];
	}
	return ac_dense(v, s, c);
}

/* Next (untagged) state from state s on input byte `byte`. */
static inline AC_HD uint32_t ac_step(const struct ac_view *v, uint32_t s,
				     uint8_t byte)
{
	return ac_step_class(v, s, v->cls[byte]);
}

/* First output node of state s, AC_NONE when no literal ends in s. */
static inline AC_HD uint32_t ac_first_onode(const struct ac_view *v, uint32_t s)
{
	return s < v->matchlo ? AC_NONE : v->mlink[s - v->matchlo];
}

/* Next tagged state from tagged state `st` on `byte`: AC_MATCH_FLAG is set
 * when some literal ends in the new state. The root is 0. */
static inline AC_HD uint32_t ac_next(const struct ac_view *v, uint32_t st,
				     uint8_t byte)
{
	uint32_t s = ac_step(v, st & AC_STATE_MASK, byte);

	return s | (ac_first_onode(v, s) != AC_NONE ? AC_MATCH_FLAG : 0);
}

/* Do the len bytes of buf that end at `end` equal bytes[off, off + len)?
 * Only exact-case patterns need the byte compare (the folded form matched). */
static inline AC_HD int ac_verify_bytes(const struct ac_view *v, uint32_t off, uint32_t len,
					int nocase, const uint8_t *buf, uint32_t end)
{
	if (nocase)
		return 1;
	const uint8_t *a = buf + end - len, *b = v->bytes + off;
	for (uint32_t i = 0; i < len; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

/* Does literal `li`, whose folded form ends at `end`, really match? */
static inline AC_HD int ac_verify_lit(const struct ac_view *v, uint32_t li,
				      const uint8_t *buf, uint32_t end)
{
	const struct ac_lit *l = &v->lit[li];

	return ac_verify_bytes(v, l->off, l->len, l->nocase, buf, end);
}

/* GPU lists: does pat[pi], whose folded form ends at `end`, really match? */
static inline AC_HD int ac_verify(const struct ac_view *v, uint32_t pi,
				  const uint8_t *buf, uint32_t end)
{
	const struct ac_pattern *p = &v->pat[pi];

	return ac_verify_bytes(v, p->off, p->len, p->nocase, buf, end);
}

/* The walk of all matches ending at `end` in state s:
 *   for (o = ac_first_onode(v, s); o != AC_NONE; o = v->onode[o].next)
 *     for (li = onode[o].lit; li < onode[o].lit + onode[o].nlit; li++)
 *       if (ac_verify_lit(v, li, buf, end))
 *         for (k = lit[li].ids; k < lit[li + 1].ids; k++) report ids[k]
 */

/* Host-side handle: the block plus a view of it.
 *
 * Host-only skip filter (not in the block: the GPU walk never skips), built
 * when the block's filter is on. A position p is a candidate (a literal may
 * start at p - 1) when its pair (buf[p-1], buf[p]) is in pair8[] and then
 * either the 4-byte prefix hash of buf[p-1..p+2] is in quad[] (literals of
 * 4 bytes or more), or the 3-byte hash of buf[p-1..p+1] in tri[] (literals
 * of exactly 3 bytes), or, for the 1- and 2-byte literals, the pair is in
 * short2[] (same encoding as the block's bigram map). Four bytes rather
 * than three: on ET Open a third of the filter's stops were a literal's
 * 3-byte prefix whose 4th byte then matched nothing. The bytes are folded
 * coarsely (| 0x20 on every byte) before hashing: that merges every pair
 * mpm_fold merges, so the filter only ever errs towards a candidate. */
typedef struct AcAutomaton {
	struct ac_layout *blk;   /* the flat block; blk->size bytes */
	struct ac_view v;
	uint8_t *pair8;          /* the block's bigram map, a byte per pair;
				  * NULL: no skip filter of this kind */
	uint8_t *quad;           /* 1 << quadbits bits, or NULL: no 4+-byte literal */
	uint8_t *tri;            /* 1 << tribits bits, or NULL: no 3-byte literal */
	uint8_t *short2;         /* 65536 bits, or NULL: no 1-/2-byte literals */
	uint32_t quadbits, tribits;
} AcAutomaton;

/* Build options. */
struct ac_opts {
	size_t dense_budget;  /* bytes of dense rows (at least the root's) */
	int filter;           /* -1: decide from the literals, 0: off, 1: on */
	int width;            /* 0: smallest that fits, 4: force 32-bit rows */
	int gpu_lists;        /* 1: build outoff/out/pat for the ac-cuda code */
};

#define AC_OPTS_DEFAULT { AC_DENSE_BUDGET_DEFAULT, -1, 0, 0 }

/* Build from `n` patterns (len >= 1, already de-duplicated by the caller)
 * whose bytes are in `bytes`. `opts` NULL means AC_OPTS_DEFAULT. Returns
 * NULL with a message in err on failure. */
AcAutomaton *ac_build_opts(const struct ac_pattern *pats, uint32_t n,
			   const uint8_t *bytes, const struct ac_opts *opts,
			   char *err, size_t errlen);
/* The same with the GPU lists, and the default filter and width. */
AcAutomaton *ac_build(const struct ac_pattern *pats, uint32_t n,
		      const uint8_t *bytes, size_t dense_budget,
		      char *err, size_t errlen);
void ac_free(AcAutomaton *a);

/* Calls cb(arg, pattern id, end offset) for each match, in end-offset order;
 * stops when cb returns nonzero. Returns the number of matches reported. */
typedef int (*ac_match_fn)(void *arg, uint32_t pattern_id, uint32_t end_offset);
uint32_t ac_search(const AcAutomaton *a, const uint8_t *buf, uint32_t len,
		   ac_match_fn cb, void *arg);
/* ac_search for callers that want ids, not occurrences: every id that
 * occurs in buf is reported at least once (at its first end offset among
 * others), but repeats may be left out. */
uint32_t ac_search_once(const AcAutomaton *a, const uint8_t *buf, uint32_t len,
			ac_match_fn cb, void *arg);

/* Default dense budget (bytes of DFA rows). Rows beyond what the caches
 * hold cost more than the fail walks they save; see qa/bench/MPM.md. A GPU
 * build may pass a larger one to ac_build. */
#define AC_DENSE_BUDGET_DEFAULT (1u << 20)

#endif
