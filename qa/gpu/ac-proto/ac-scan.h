/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ac-scan.h - the Aho-Corasick scan step shared by the CUDA kernels and the
 * host emulation.  One header, compiled by nvcc (device + host) and by cc, so
 * CI proves the exact kernel logic on CPU threads without a GPU.
 *
 * The DFA is a full 256-column table over folded bytes: the upper-case
 * columns are copies of the lower-case ones, so the scan does no folding.
 * An entry is the next state, with AC_MATCH_BIT set when that state has
 * outputs, so the hot loop touches the output lists only on a match.
 * States are numbered in BFS order: the low ids are the shallow, hot states,
 * which lets a kernel keep rows [0, nhot) in shared memory.
 */
#ifndef AC_SCAN_H
#define AC_SCAN_H

#include <stdint.h>
#include <stddef.h>

#ifdef __CUDACC__
#define AC_HD __host__ __device__ __forceinline__
#else
#define AC_HD static inline
#endif

#define AC_MATCH_BIT	0x80000000u
#define AC_STATE_MASK	0x7fffffffu
#define AC_ALPHA	256

/* One match: payload index in the batch, pattern id, end offset (one past
 * the last byte of the match, relative to the payload's first byte). */
struct ac_rec {
	uint32_t payload;
	uint32_t pattern;
	uint32_t end;
};

/* Read-only automaton, device- or host-resident. */
struct ac_tables {
	const uint32_t *delta;		/* nstates * 256 */
	const uint32_t *out_start;	/* nstates + 1 (CSR) */
	const uint32_t *out_ids;	/* pattern ids */
	const uint16_t *pat_len;	/* per pattern */
	const uint8_t *depth;		/* per state; patterns are < 256 bytes */
	const uint32_t *hot;		/* copy of rows [0, nhot), or NULL */
	uint32_t nhot;
	uint32_t nstates;
};

/* Where matches go: records claimed through one atomic counter.  A count
 * above cap means records were lost: the caller re-runs the batch on CPU. */
struct ac_sink {
	struct ac_rec *rec;
	uint32_t *count;
	uint32_t cap;
};

/* Batch layout: payload p is data[off[p] .. off[p+1]). */
struct ac_batch {
	const uint8_t *data;
	const uint32_t *off;		/* npayloads + 1 */
	const uint32_t *chunk_base;	/* npayloads + 1: first chunk of each */
	uint32_t npayloads;
	uint32_t nchunks;
	uint32_t chunk;			/* bytes per chunk */
	uint32_t overlap;		/* longest pattern - 1 */
};

#ifdef __CUDA_ARCH__
#define AC_LDG(p)	__ldg(p)
#else
#define AC_LDG(p)	(*(p))
#endif

AC_HD uint32_t ac_atomic_inc(uint32_t *p)
{
#ifdef __CUDA_ARCH__
	return atomicAdd(p, 1u);
#else
	return __atomic_fetch_add(p, 1u, __ATOMIC_RELAXED);
#endif
}

AC_HD uint32_t ac_next(const struct ac_tables *t, uint32_t s, uint8_t c)
{
	size_t i = (size_t)s * AC_ALPHA + c;

	if (s < t->nhot)
		return t->hot[i];
	return AC_LDG(t->delta + i);
}

/*
 * Emit the outputs of state s for a match ending at byte index i.  Only
 * outputs that start before lim_start are ours (the next chunk owns the
 * others); lim_start = UINT32_MAX keeps all.
 */
AC_HD void ac_emit(const struct ac_tables *t, const struct ac_sink *k,
		   uint32_t s, uint32_t payload, uint32_t i,
		   uint32_t lim_start)
{
	uint32_t a = AC_LDG(t->out_start + s), b = AC_LDG(t->out_start + s + 1);

	for (; a < b; a++) {
		uint32_t pat = AC_LDG(t->out_ids + a);
		uint32_t len = AC_LDG(t->pat_len + pat);
		uint32_t idx;

		if (i + 1 - len >= lim_start)
			continue;
		idx = ac_atomic_inc(k->count);
		if (idx < k->cap) {
			k->rec[idx].payload = payload;
			k->rec[idx].pattern = pat;
			k->rec[idx].end = i + 1;
		}
	}
}

/*
 * Scan buf[from, to) from the root; report matches whose last byte is at an
 * index >= emit_from.  Variant (a) scans a whole payload (from = emit_from =
 * 0); variant (b) starts `overlap` bytes before its chunk so that a match
 * crossing the chunk start is seen whole, and owns matches ending inside it.
 */
AC_HD void ac_scan_span(const struct ac_tables *t, const struct ac_sink *k,
			const uint8_t *buf, uint32_t payload, uint32_t from,
			uint32_t emit_from, uint32_t to)
{
	uint32_t s = 0, i;

	for (i = from; i < to; i++) {
		uint32_t e = ac_next(t, s, AC_LDG(buf + i));

		s = e & AC_STATE_MASK;
		if ((e & AC_MATCH_BIT) && i >= emit_from)
			ac_emit(t, k, s, payload, i, UINT32_MAX);
	}
}

/*
 * Variant (c) ownership: scan [cs, ce) from the root with no overlap and
 * own the matches that START in [cs, ce).  Past ce, keep going only while
 * the current state's string still starts before ce (depth says how far
 * back it reaches): typically a few bytes instead of longest-1.
 */
AC_HD void ac_scan_chunk_ext(const struct ac_tables *t,
			     const struct ac_sink *k, const uint8_t *buf,
			     uint32_t payload, uint32_t cs, uint32_t ce,
			     uint32_t len)
{
	uint32_t s = 0, i;

	for (i = cs; i < ce; i++) {
		uint32_t e = ac_next(t, s, AC_LDG(buf + i));

		s = e & AC_STATE_MASK;
		if (e & AC_MATCH_BIT)
			ac_emit(t, k, s, payload, i, UINT32_MAX);
	}
	for (; i < len; i++) {
		uint32_t e;

		/* state string starts at i - depth: nothing left for us */
		if (i - AC_LDG(t->depth + s) >= ce)
			break;
		e = ac_next(t, s, AC_LDG(buf + i));
		s = e & AC_STATE_MASK;
		if (e & AC_MATCH_BIT)
			ac_emit(t, k, s, payload, i, ce);
	}
}

/* Map a global chunk number to (payload, chunk start, chunk end). */
AC_HD uint32_t ac_chunk_locate(const struct ac_batch *b, uint32_t c,
			       uint32_t *cs, uint32_t *ce)
{
	uint32_t lo = 0, hi = b->npayloads, p, len;

	/* last p with chunk_base[p] <= c */
	while (hi - lo > 1) {
		uint32_t mid = (lo + hi) / 2;

		if (AC_LDG(b->chunk_base + mid) <= c)
			lo = mid;
		else
			hi = mid;
	}
	p = lo;
	len = AC_LDG(b->off + p + 1) - AC_LDG(b->off + p);
	*cs = (c - AC_LDG(b->chunk_base + p)) * b->chunk;
	*ce = *cs + b->chunk < len ? *cs + b->chunk : len;
	return p;
}

/* Work item of one thread, variant (a): thread = payload. */
AC_HD void ac_work_payload(const struct ac_tables *t, const struct ac_sink *k,
			   const struct ac_batch *b, uint32_t p)
{
	uint32_t o = AC_LDG(b->off + p);
	uint32_t len = AC_LDG(b->off + p + 1) - o;

	ac_scan_span(t, k, b->data + o, p, 0, 0, len);
}

/* Variant (b): thread = chunk, overlap by longest pattern - 1. */
AC_HD void ac_work_chunk_overlap(const struct ac_tables *t,
				 const struct ac_sink *k,
				 const struct ac_batch *b, uint32_t c)
{
	uint32_t cs, ce, p = ac_chunk_locate(b, c, &cs, &ce);
	uint32_t from = cs > b->overlap ? cs - b->overlap : 0;

	ac_scan_span(t, k, b->data + AC_LDG(b->off + p), p, from, cs, ce);
}

/* Variant (c): thread = chunk, no overlap, depth-bounded extension. */
AC_HD void ac_work_chunk_ext(const struct ac_tables *t,
			     const struct ac_sink *k,
			     const struct ac_batch *b, uint32_t c)
{
	uint32_t cs, ce, p = ac_chunk_locate(b, c, &cs, &ce);
	uint32_t o = AC_LDG(b->off + p);

	ac_scan_chunk_ext(t, k, b->data + o, p, cs, ce,
			  AC_LDG(b->off + p + 1) - o);
}

#endif /* AC_SCAN_H */
