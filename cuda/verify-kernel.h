/* Rule verification on the device: a rule's buffer program (its content
 * chain with nocase, offset, depth, distance, within, startswith,
 * endswith and negation, and isdataat) run over a payload after the
 * multi-pattern scan found the rule's fast pattern there. One header
 * compiled by nvcc (the verify kernel in accuda-cuda.cu) and by cc (the
 * host emulation, src/mpm/ac-cuda-emu.c, and the differential test), as
 * cuda/ac-kernel.h is.
 *
 * Semantics: acv_eval() is the CPU's inspect_buffer() (src/detect/
 * inspect.c) over the same list, step for step: the same first-occurrence
 * search, the same backtracking into the next occurrence when the next
 * element is relative, the same failure memo and the same recursion
 * limit, so that it decides exactly what the CPU would. The recursion of
 * the CPU's steps is a loop here over a stack of the content elements that
 * wait for the rest of the chain (a device thread has little stack).
 *
 * A list element the device does not evaluate (pcre, byte_*, a content
 * with a byte_extract variable, base64...) ends the program with ACV_REST:
 * the program then answers 1 where the CPU's walk would first reach that
 * element. Until then both walks are the same step for step, so a program
 * that answers 0 proves the CPU answers 0 (the rule is not inspected on
 * the CPU at all), and one that answers 1 leaves the rule to the CPU.
 * A program without ACV_REST is EXACT: its 1 is the CPU's 1 too, and the
 * CPU skips the list (a dsize condition only adds a test the CPU makes
 * anyway) (tests/unit/test-verify.c checks both on every ET
 * content rule, with mutations of this file's semantics that must fail).
 */
#ifndef CUDA_VERIFY_KERNEL_H
#define CUDA_VERIFY_KERNEL_H

#include <stdint.h>

#include "ac-kernel.h"

#define ACV_HD ACK_HD

/* The CPU's limits (src/detect/engine-int.h): a static check in
 * src/detect/prefilter-gpu.c keeps them equal. */
#define ACV_RECURSION_LIMIT 3000
#define ACV_MEMO_MAX 32
/* Elements of one program: longer lists end in ACV_REST. */
#define ACV_STEPS_MAX 24

enum acv_op {
	ACV_CONTENT = 1,
	ACV_ISDATAAT = 2,
	ACV_REST = 3,      /* the rest of the list is the CPU's: answer 1 */
};

/* Step flags (the parser's CONTENT_* and ISDATAAT_* meanings). */
#define ACV_NOCASE    (1u << 0)
#define ACV_NEGATED   (1u << 1)
#define ACV_OFFSET    (1u << 2)
#define ACV_DEPTH     (1u << 3)
#define ACV_DISTANCE  (1u << 4)
#define ACV_WITHIN    (1u << 5)
#define ACV_ENDSWITH  (1u << 6)
#define ACV_RELATIVE  (1u << 7)   /* isdataat relative */
#define ACV_REL_NEXT  (1u << 8)   /* the next element is relative to this one */

/* One list element, 24 bytes: a warp reads a program's steps as
 * consecutive words. */
struct acv_step {
	uint16_t op;
	uint16_t flags;
	uint16_t len;      /* content: pattern length */
	uint16_t pad;
	uint32_t pat;      /* content: offset into the pattern bytes */
	int32_t a;         /* content: offset or distance; isdataat: n */
	int32_t b;         /* content: depth (absolute end) or within */
	uint32_t pad2;
};

/* One rule's program. The rule's dsize, a packet keyword the CPU tests
 * beside the list, is a condition of the program too: the payload's
 * length must (dnot 0) or must not (dnot 1) lie in [dlo, dhi]; no dsize:
 * [0, 65535]. */
struct acv_prog {
	uint32_t step;     /* first step in the step array */
	uint16_t nsteps;
	uint8_t memo;      /* the CPU's failure memo applies (no variables) */
	uint8_t exact;     /* no ACV_REST */
	uint32_t rule;     /* the host's name for it (a rule number) */
	uint16_t dlo, dhi;
	uint8_t dnot;
	uint8_t pad[3];
};

/* The verify tables of one automaton (signature group): the programs of
 * pattern index k are prog_ids[pat_off[k], pat_off[k + 1]). */
struct acv_table {
	const uint32_t *pat_off;   /* npat + 1; NULL: nothing to verify */
	const uint32_t *prog_ids;
	uint32_t npat;
	uint32_t pad;
};

/* The block as the host builds it and the device receives it: byte
 * offsets from its start. Group g's table: gtab[g] (offsets of its pat_off
 * and prog_ids, 0 when it has none). */
struct acv_gtab {
	uint64_t pat_off;
	uint64_t prog_ids;
	uint32_t npat;
	uint32_t pad;
};

struct acv_layout {
	uint64_t off_prog;     /* struct acv_prog [nprog] */
	uint64_t off_step;     /* struct acv_step [] */
	uint64_t off_bytes;    /* pattern bytes */
	uint64_t off_gtab;     /* struct acv_gtab [ngroups] */
	uint32_t nprog;
	uint32_t ngroups;
};

/* All verify tables: one block, like the automata. */
struct acv_block {
	const struct acv_prog *prog;
	const struct acv_step *step;
	const uint8_t *bytes;
	const struct acv_table *tab;   /* by automaton group */
	uint32_t ngroups;
	uint32_t nprog;
};

/* The cost model's hooks (qa/gpu/model/vmodel.c replays the lanes of each
 * warp with them, as qa/gpu/model/model.c does the scan's ACC_T_*): empty
 * everywhere else. */
enum acv_tstep {
	ACV_TS_REC = 0,   /* a scan record: its descriptor and pattern's table */
	ACV_TS_PROG,      /* a program: dsize test, memo set-up */
	ACV_TS_ELEM,      /* an element entered (bounds, isdataat) */
	ACV_TS_SEARCH,    /* a frame's search set up (recursion count, find call) */
	ACV_TS_POS,       /* one start position of acv_find (first byte compared) */
	ACV_TS_CMP,       /* one more byte of a candidate position compared */
	ACV_TS_PASS,      /* a pass record (atomic, write) */
	ACV_TS_N
};
#ifndef ACV_T_STEP
#define ACV_T_STEP(kind) do { } while (0)
#endif

/* A pass record's pattern field: ACV_PASS | program index. */
#define ACV_PASS 0x80000000u

ACV_HD uint8_t acv_lc(uint8_t c)
{
	return (c >= 'A' && c <= 'Z') ? (uint8_t)(c + 32) : c;
}

/* First occurrence of pat in buf[from, to) with the whole pattern inside,
 * or -1 (inspect.c find()). */
ACV_HD int64_t acv_find(const uint8_t *buf, uint32_t from, uint32_t to, const uint8_t *pat,
			uint32_t plen, int nocase)
{
	if (plen == 0)
		return (int64_t)from;
	if (to < from + plen)
		return -1;
	for (uint32_t i = from; i + plen <= to; i++) {
		uint32_t k = 0;

		ACV_T_STEP(ACV_TS_POS);
		if (nocase) {
			while (k < plen && acv_lc(buf[i + k]) == acv_lc(pat[k])) {
				ACV_T_STEP(ACV_TS_CMP);
				k++;
			}
		} else {
			while (k < plen && buf[i + k] == pat[k]) {
				ACV_T_STEP(ACV_TS_CMP);
				k++;
			}
		}
		if (k == plen)
			return (int64_t)i;
	}
	return -1;
}

/* On the device a whole warp verifies one record (acv_kernel): its 32
 * lanes run the same program over the same payload, so every branch of
 * acv_eval is uniform, and only the search is split: lane l tries the
 * start positions from + l, from + l + 32, ..., and the lowest lane of a
 * round's ballot is the first occurrence, as acv_find's. A payload is then
 * read 32 consecutive bytes at a time (one coalesced load, not 32
 * dependent ones), and a long search no longer holds 31 idle lanes: the
 * cost model (qa/gpu/model/vmodel.c) put a lane per record at a p99 of
 * ~1 ms per batch on bench-1x, 11% of its lanes busy, and a warp per
 * record at ~42 us. The host (emulation, tests) runs acv_find itself. */
#ifdef __CUDA_ARCH__
__device__ __forceinline__ int64_t acv_find_warp(const uint8_t *buf, uint32_t from, uint32_t to,
						 const uint8_t *pat, uint32_t plen, int nocase)
{
	const uint32_t lane = threadIdx.x & 31u;

	if (plen == 0)
		return (int64_t)from;
	if (to < from + plen)
		return -1;
	for (uint32_t base = from; base + plen <= to; base += 32) {
		uint32_t i = base + lane, k = 0, m;

		if (i + plen <= to) {
			if (nocase) {
				while (k < plen && acv_lc(buf[i + k]) == acv_lc(pat[k]))
					k++;
			} else {
				while (k < plen && buf[i + k] == pat[k])
					k++;
			}
		}
		m = __ballot_sync(0xffffffffu, i + plen <= to && k == plen);
		if (m)
			return (int64_t)(base + (uint32_t)__ffs(m) - 1u);
	}
	return -1;
}
#define ACV_FIND acv_find_warp
#define ACV_LANE0 ((threadIdx.x & 31u) == 0)
#else
#define ACV_FIND acv_find
#define ACV_LANE0 1
#endif

/* A content element waiting for the rest of the chain. */
struct acv_frame {
	int64_t start, end;
	uint32_t start0;
	uint16_t idx;
	uint8_t memo;
};

struct acv_state {
	uint32_t recursion;
	uint32_t fail_from[ACV_MEMO_MAX];
};

/* Where a content element searches, as inspect_content_step. 0: nothing
 * to search. */
ACV_HD int acv_bounds(const struct acv_step *st, uint32_t len, uint32_t prev, int64_t *start,
		      int64_t *end)
{
	*start = 0;
	*end = len;
	if (st->flags & (ACV_DISTANCE | ACV_WITHIN)) {
		int64_t dist = (st->flags & ACV_DISTANCE) ? st->a : 0;

		*start = (int64_t)prev + dist;
		if (*start < 0)
			*start = 0;
		if ((st->flags & ACV_WITHIN) && (int64_t)prev + dist + st->b < *end)
			*end = (int64_t)prev + dist + st->b;
	} else {
		if (st->flags & ACV_OFFSET)
			*start = st->a;
		if ((st->flags & ACV_DEPTH) && st->b < *end)
			*end = st->b;
	}
	if (st->flags & ACV_ENDSWITH) {
		int64_t e = (int64_t)len - st->len;

		if (e > *start)
			*start = e;
	}
	return !(*start > *end || *end <= 0);
}

/* The program over buf[0, len): 1 or 0 as described above. */
ACV_HD int acv_eval(const struct acv_block *vb, const struct acv_prog *pg, const uint8_t *buf,
		    uint32_t len)
{
	struct acv_frame fr[ACV_STEPS_MAX];
	struct acv_state s;
	int nfr = 0;
	uint32_t idx = 0, prev = 0;
	const struct acv_step *steps = vb->step + pg->step;

	ACV_T_STEP(ACV_TS_PROG);
	if (len == 0 || (len >= pg->dlo && len <= pg->dhi) == pg->dnot)
		return 0;
	s.recursion = 0;
	for (int i = 0; i < ACV_MEMO_MAX; i++)
		s.fail_from[i] = 0xffffffffu;
	for (;;) {
		/* enter element idx at prev; r: its answer, when it has one */
		int r = -1;
		const struct acv_step *st = &steps[idx];
		struct acv_frame *f;

		ACV_T_STEP(ACV_TS_ELEM);
		if (idx >= pg->nsteps || st->op == ACV_REST)
			return 1;   /* a 1 answers every waiting element */
		if (st->op == ACV_ISDATAAT) {
			int ok = (st->flags & ACV_RELATIVE) ? (int64_t)prev + st->a <= (int64_t)len
							    : (int64_t)st->a < (int64_t)len;

			if (st->flags & ACV_NEGATED)
				ok = !ok;
			if (ok) {
				idx++;
				continue;
			}
			r = 0;
		} else {
			f = &fr[nfr];
			if (!acv_bounds(st, len, prev, &f->start, &f->end)) {
				if (st->flags & ACV_NEGATED) {
					idx++;
					continue;
				}
				r = 0;
			} else {
				f->idx = (uint16_t)idx;
				f->start0 = (uint32_t)f->start;
				f->memo = idx < ACV_MEMO_MAX && pg->memo &&
					  !(st->flags & (ACV_WITHIN | ACV_NEGATED));
				if (f->memo && f->start0 >= s.fail_from[idx])
					r = 0;
				else
					nfr++;  /* searched below */
			}
		}
		/* r == -1: the top frame searches; r == 0: the answer of the
		 * element above the top frame, which then searches on or
		 * answers 0 itself. Leaves with idx/prev: the element to enter. */
		for (;;) {
			int64_t pos;

			if (r == 0) {
				if (nfr == 0)
					return 0;
				f = &fr[nfr - 1];
				st = &steps[f->idx];
				/* its try at the last occurrence failed */
				if (!(st->flags & ACV_REL_NEXT)) {
					if (f->memo && f->start0 < s.fail_from[f->idx])
						s.fail_from[f->idx] = f->start0;
					nfr--;
					continue;
				}
				/* resume: the next occurrence, from start set below */
			}
			f = &fr[nfr - 1];
			st = &steps[f->idx];
			ACV_T_STEP(ACV_TS_SEARCH);
			if (++s.recursion > ACV_RECURSION_LIMIT) {
				nfr--;
				r = 0;
				continue;
			}
			pos = ACV_FIND(buf, (uint32_t)f->start, (uint32_t)f->end, vb->bytes + st->pat,
				       st->len, st->flags & ACV_NOCASE);
			if (pos >= 0 && (st->flags & ACV_ENDSWITH) && pos + st->len != len)
				pos = -1;
			if (st->flags & ACV_NEGATED) {
				nfr--;
				if (pos >= 0) {
					r = 0;
					continue;
				}
				/* the rest of the chain at the same prev */
				idx = f->idx + 1u;
				break;
			}
			if (pos < 0) {
				if (f->memo && f->start0 < s.fail_from[f->idx])
					s.fail_from[f->idx] = f->start0;
				nfr--;
				r = 0;
				continue;
			}
			/* try the rest after this occurrence; a 0 comes back here */
			f->start = pos + 1;
			idx = f->idx + 1u;
			prev = (uint32_t)(pos + st->len);
			break;
		}
	}
}

/* The block's view at base (the host copy, or the device's address with
 * the host reading the layout): tabs[ngroups] is filled in. */
static inline void acv_block_init(struct acv_block *vb, const uint8_t *base,
				  const struct acv_layout *lay, const struct acv_gtab *gtab,
				  struct acv_table *tabs)
{
	vb->prog = (const struct acv_prog *)(base + lay->off_prog);
	vb->step = (const struct acv_step *)(base + lay->off_step);
	vb->bytes = base + lay->off_bytes;
	vb->ngroups = lay->ngroups;
	vb->nprog = lay->nprog;
	for (uint32_t g = 0; g < lay->ngroups; g++) {
		tabs[g].npat = gtab[g].npat;
		tabs[g].pat_off = gtab[g].pat_off ? (const uint32_t *)(base + gtab[g].pat_off) : 0;
		tabs[g].prog_ids = gtab[g].prog_ids ? (const uint32_t *)(base + gtab[g].prog_ids) : 0;
	}
}

/* One match record of the scan: every program of its pattern runs over its
 * payload, and each that holds adds a pass record (payload, ACV_PASS |
 * program; on the device the warp's first lane writes it). A pass record beyond the sink's cap counts as overflow, as a
 * match record does: the host then rescans the batch on the CPU. */
ACV_HD void acv_verify_rec(const struct acc_batch *b, const struct acv_block *vb,
			   const struct acc_rec *r, const struct acc_sink *k)
{
	const struct acc_desc *d = &b->desc[r->payload];
	const struct acv_table *t;

	ACV_T_STEP(ACV_TS_REC);
	if (d->group >= vb->ngroups || (r->pat & ACV_PASS))
		return;
	t = &vb->tab[d->group];
	if (!t->pat_off || r->pat >= t->npat)
		return;
	for (uint32_t i = t->pat_off[r->pat]; i < t->pat_off[r->pat + 1]; i++) {
		uint32_t pi = t->prog_ids[i], slot;

		if (!acv_eval(vb, &vb->prog[pi], b->data + d->off, d->len))
			continue;
		ACV_T_STEP(ACV_TS_PASS);
		if (!ACV_LANE0)
			continue;
		slot = acc_atomic_inc(k->count);
		if (slot < k->cap) {
			k->rec[slot].payload = r->payload;
			k->rec[slot].pat = ACV_PASS | pi;
			k->rec[slot].end = 0;
		}
	}
}

#endif
