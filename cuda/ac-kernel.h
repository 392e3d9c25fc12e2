/* The ac-cuda scan functions: one header compiled by nvcc (the CUDA kernels
 * in accuda-cuda.cu) and by cc (the host emulation, src/mpm/ac-cuda-emu.c),
 * so CI runs the exact kernel logic on CPU threads without a GPU.
 *
 * The automaton is walked ONLY through the inline step functions of
 * src/mpm/ac.h (ac_next, ac_verify, the ac_view pointers): the ac layout
 * may change without touching this file.
 *
 * A batch is a contiguous run of payload bytes plus one descriptor per
 * payload. Each payload names its automaton (signature group); all automata
 * live in one device block and groups[] holds a view of each, built with the
 * block's device address.
 *
 * Matches are compact records (payload index, pattern index, end offset)
 * claimed through one atomic counter. A count above cap means records were
 * lost: the host rescans that batch on the CPU. The pattern index is the
 * automaton's (pat[]), the host maps it to the caller's id. Exact-case
 * patterns are verified here (ac_verify), so a record is a real match.
 * Records arrive in any order; the host sorts each payload's by (end,
 * pattern index): the MPM API's end-offset order. (Ties at one end offset
 * cannot follow ac's out[] order: a chunk reaches that offset in another
 * state than a whole-payload walk does.)
 */
#ifndef CUDA_AC_KERNEL_H
#define CUDA_AC_KERNEL_H

#include <stdint.h>

#include "mpm/ac.h"

#ifdef __CUDACC__
#define ACK_HD __host__ __device__ __forceinline__
#else
#define ACK_HD static inline
#endif

/* One payload of a batch: data[off, off + len). */
struct acc_desc {
	uint32_t off;
	uint16_t len;     /* cuda.mpm limits payloads to 65535 bytes */
	uint16_t group;   /* automaton to scan it with */
};

/* One match. */
struct acc_rec {
	uint32_t payload; /* index in the batch */
	uint32_t pat;     /* index into the automaton's pat[] */
	uint32_t end;     /* one past the last byte, relative to the payload */
};

/* An automaton as the kernel sees it. */
struct acc_group {
	struct ac_view v;
	uint32_t maxlen;  /* longest pattern */
	uint32_t pad;
};

struct acc_sink {
	struct acc_rec *rec;
	uint32_t *count;  /* may end above cap: overflow */
	uint32_t cap;
};

struct acc_batch {
	const uint8_t *data;
	const struct acc_desc *desc;
	const struct acc_group *groups;
	uint32_t npay;
	uint32_t nbytes;
	uint32_t chunk;   /* window size of the chunk kernel */
};

enum acc_kernel {
	ACC_KERNEL_PAYLOAD = 0, /* reference: one thread per payload */
	ACC_KERNEL_CHUNK,       /* one thread per `chunk` bytes of the batch */
};

ACK_HD uint32_t acc_atomic_inc(uint32_t *p)
{
#ifdef __CUDA_ARCH__
	return atomicAdd(p, 1u);
#else
	return __atomic_fetch_add(p, 1u, __ATOMIC_RELAXED);
#endif
}

/* Record the verified matches of tagged state st ending at `end` of
 * payload p whose first byte is at payload offset < start_lim (the chunk
 * kernel's ownership rule; UINT32_MAX keeps all). */
ACK_HD void acc_emit(const struct ac_view *v, const struct acc_sink *k,
		     uint32_t st, const uint8_t *buf, uint32_t p, uint32_t end,
		     uint32_t start_lim)
{
	uint32_t s = st & AC_STATE_MASK;
	uint32_t a = v->outoff[s], b = v->outoff[s + 1];

	for (; a < b; a++) {
		uint32_t pi = v->out[a];

		if (end - v->pat[pi].len >= start_lim)
			continue;
		if (!ac_verify(v, pi, buf, end))
			continue;
		uint32_t idx = acc_atomic_inc(k->count);

		if (idx < k->cap) {
			k->rec[idx].payload = p;
			k->rec[idx].pat = pi;
			k->rec[idx].end = end;
		}
	}
}

/* Reference kernel body: thread = payload, scanned whole from the root,
 * as ac_search does. */
ACK_HD void acc_scan_payload(const struct acc_batch *b, const struct acc_sink *k,
			     uint32_t p)
{
	struct acc_desc d = b->desc[p];
	const struct ac_view *v = &b->groups[d.group].v;
	const uint8_t *buf = b->data + d.off;
	uint32_t st = 0;

	for (uint32_t i = 0; i < d.len; i++) {
		st = ac_next(v, st, buf[i]);
		if (st & AC_MATCH_FLAG)
			acc_emit(v, k, st, buf, p, i + 1, UINT32_MAX);
	}
}

/* Last payload whose first byte is at batch offset <= pos. */
ACK_HD uint32_t acc_locate(const struct acc_batch *b, uint32_t pos)
{
	uint32_t lo = 0, hi = b->npay;

	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (b->desc[mid].off <= pos)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The piece [cs, ce) of payload p (payload offsets): scan from the root at
 * cs with no overlap before it, and own the matches that START in
 * [cs, ce). Past ce keep walking only while a match could still start
 * inside: at most maxlen - 1 bytes, and never once the walk is back at the
 * root (no partial match is pending then). */
ACK_HD void acc_scan_piece(const struct acc_group *g, const struct acc_sink *k,
			   const uint8_t *buf, uint32_t p, uint32_t len,
			   uint32_t cs, uint32_t ce)
{
	const struct ac_view *v = &g->v;
	uint32_t st = 0, i = cs;
	uint32_t lim = ce + g->maxlen - 1;

	if (lim > len)
		lim = len;
	for (; i < ce; i++) {
		st = ac_next(v, st, buf[i]);
		if (st & AC_MATCH_FLAG)
			acc_emit(v, k, st, buf, p, i + 1, ce);
	}
	for (; i < lim && (st & AC_STATE_MASK) != 0; i++) {
		st = ac_next(v, st, buf[i]);
		if (st & AC_MATCH_FLAG)
			acc_emit(v, k, st, buf, p, i + 1, ce);
	}
}

/* Fast kernel body: thread = window w of `chunk` batch bytes; a window may
 * cover the tail of one payload and the heads of the next ones. Every
 * thread does about the same work whatever the payload sizes, and one long
 * payload no longer serialises a whole batch on one thread. */
ACK_HD void acc_scan_window(const struct acc_batch *b, const struct acc_sink *k,
			    uint32_t w)
{
	uint32_t ws = w * b->chunk, we = ws + b->chunk;

	if (ws >= b->nbytes)
		return;
	if (we > b->nbytes)
		we = b->nbytes;
	for (uint32_t p = acc_locate(b, ws); p < b->npay; p++) {
		struct acc_desc d = b->desc[p];

		if (d.off >= we)
			break;
		uint32_t cs = ws > d.off ? ws - d.off : 0;
		uint32_t ce = we - d.off < d.len ? we - d.off : d.len;

		if (cs < ce)
			acc_scan_piece(&b->groups[d.group], k, b->data + d.off, p,
				       d.len, cs, ce);
	}
}

/* Work items of a batch for a kernel: payloads or windows. */
ACK_HD uint32_t acc_items(const struct acc_batch *b, int kernel)
{
	if (kernel == ACC_KERNEL_CHUNK)
		return (b->nbytes + b->chunk - 1) / b->chunk;
	return b->npay;
}

ACK_HD void acc_run_item(const struct acc_batch *b, const struct acc_sink *k,
			 int kernel, uint32_t item)
{
	if (kernel == ACC_KERNEL_CHUNK)
		acc_scan_window(b, k, item);
	else
		acc_scan_payload(b, k, item);
}

#endif
