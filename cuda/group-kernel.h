/* Grouping a batch's records by payload ON THE DEVICE: one header compiled
 * by nvcc (the grouping kernels in accuda-cuda.cu) and by cc (the host
 * emulation, src/mpm/ac-cuda-emu.c, and tests/unit/test_ackernel.c), as
 * cuda/ac-kernel.h is.
 *
 * Why on the device: a worker wants, per payload, the SET of its pattern
 * ids (the caller's ids, each once) and the programs that passed. The
 * host's completer used to build that from the records: a counting sort
 * and a per-payload dedup, ~45 instructions per record, ~570 a packet of
 * bench-1x on one host thread (qa/gpu/RESULTS.md, issue 35). The device
 * does it in four grid-wide steps, and the host gets a finished table:
 *   1. clear    the pair table (a power of two >= 2 records) and counts;
 *   2. insert   record i claims its (payload, pattern) pair in the table
 *               (open addressing; a slot holds a record index, and equal
 *               keys are found by reading the records, which no step
 *               step changes): the first claim counts in its bucket, a
 *               repeat or a record that names no pattern is dropped; the
 *               verdict goes into the record's `end`, which nothing reads
 *               after the scan (the verify kernel reads payload and pat);
 *   3. scan     exclusive prefix sum of the bucket counts = pidx, and the
 *               counts become each bucket's write cursor;
 *   4. scatter  each kept record writes its caller id (or its program) at
 *               its bucket's cursor.
 * Buckets: payload p's ids are 2p, its passed programs 2p + 1, so payload
 * p's ids are ids[pidx[2p], pidx[2p + 1]) and its programs ids[pidx[2p + 1],
 * pidx[2p + 2]) (the layout ac-cuda.c's workers read). The order inside a
 * bucket is the order the cursors are taken in: any, on a device; record
 * order, serially. Detection wants the set.
 *
 * Steps 1, 2 and 4 are per element (grid-stride loops on the device, plain
 * loops on the host); step 3 is one block on the device and acg_scan_serial
 * on the host. A batch whose records overflowed (count > cap) is not
 * grouped: the host rescans it on the CPU.
 */
#ifndef CUDA_GROUP_KERNEL_H
#define CUDA_GROUP_KERNEL_H

#include <stdint.h>

#include "ac-kernel.h"
#include "verify-kernel.h"

/* A grouped id with this bit: the pattern occurs in the payload's stream
 * view starting in its context (records flagged ACC_CTX, kept apart from
 * the others: the pair table's key is the record's whole pat). The
 * workers' stream coverage reads it (src/detect/stream-cov.h: SCOV_CTX). */
#define ACG_CTX_START 0x80000000u

#define ACG_EMPTY 0xffffffffu
#define ACG_DROP 0xffffffffu
#define ACG_TABLE_MIN 64u

/* Where a grouped batch goes (host memory the caller owns; on the device,
 * the stream's own buffers, copied there after the kernels). */
struct acg_out {
	uint32_t *pidx;   /* 2 * npay + 1 */
	uint32_t *ids;    /* cap */
	uint32_t cap;     /* at most this many records are grouped */
};

/* The steps' scratch: the pair table and the bucket counts (cursors
 * after the scan). */
struct acg_work {
	uint32_t *table;  /* tslots, a power of two */
	uint32_t *cnt;    /* 2 * npay + 1 */
	uint32_t tslots;
};

/* Table slots for n records: a power of two >= 2n (load <= 1/2: a probe
 * run stays short), within the allocated tslots (>= 2 * cap). */
ACK_HD uint32_t acg_table_size(uint32_t n, uint32_t tslots)
{
	uint32_t s = ACG_TABLE_MIN;

	while (s < 2 * n && s < tslots)
		s *= 2;
	return s < tslots ? s : tslots;
}

/* Table slots to allocate for up to cap records. */
ACK_HD uint32_t acg_table_alloc(uint32_t cap)
{
	uint32_t s = ACG_TABLE_MIN;

	while (s < 2 * cap && s < (1u << 31))
		s *= 2;
	return s;
}

ACK_HD uint32_t acg_cas(uint32_t *p, uint32_t expect, uint32_t v)
{
#ifdef __CUDA_ARCH__
	return atomicCAS(p, expect, v);
#else
	/* the host runs the steps on one thread */
	uint32_t old = *p;

	if (old == expect)
		*p = v;
	return old;
#endif
}

/* Step 1, element i of max(tsize, nk). */
ACK_HD void acg_clear(const struct acg_work *w, uint32_t tsize, uint32_t nk, uint32_t i)
{
	if (i < tsize)
		w->table[i] = ACG_EMPTY;
	if (i < nk)
		w->cnt[i] = 0;
}

/* 1 when record i is the first of its (payload, pattern) pair to claim it. */
ACK_HD int acg_first(const struct acg_work *w, uint32_t tsize, const struct acc_rec *rec,
		     uint32_t i)
{
	uint32_t p = rec[i].payload, pat = rec[i].pat;
	uint32_t h = (p * 0x9e3779b1u) ^ (pat * 0x85ebca6bu);

	h ^= h >> 15;
	for (uint32_t k = 0; k < tsize; k++) {
		uint32_t at = (h + k) & (tsize - 1);
		uint32_t old = acg_cas(&w->table[at], ACG_EMPTY, i);

		if (old == ACG_EMPTY)
			return 1;
		if (rec[old].payload == p && rec[old].pat == pat)
			return 0;
	}
	return 1;   /* unreachable: the table holds 2n slots */
}

/* Step 2, record i of n: nprog is the verify block's program count (0:
 * no verification). A record whose payload, pattern or program is out of
 * range is dropped, as the host's grouping did. rec[i].end becomes the
 * record's bucket (ACG_DROP: not kept). */
ACK_HD void acg_insert(const struct acc_batch *b, struct acc_rec *rec, uint32_t nprog,
		       const struct acg_work *w, uint32_t tsize, uint32_t i)
{
	const struct acc_rec r = rec[i];
	uint32_t pass = r.pat >> 31, v = r.pat & ~(ACV_PASS | ACC_CTX), bucket = ACG_DROP;

	if (r.payload < b->npay &&
	    v < (pass ? nprog : b->groups[b->desc[r.payload].group].npat) &&
	    acg_first(w, tsize, rec, i)) {
		bucket = 2 * r.payload + pass;
		acc_atomic_inc(&w->cnt[bucket]);
	}
	rec[i].end = bucket;
}

/* Step 3 on one thread: pidx[k] = sum of cnt[0, k), and cnt[k] = pidx[k]. */
ACK_HD void acg_scan_serial(const struct acg_work *w, const struct acg_out *o, uint32_t nk)
{
	uint32_t sum = 0;

	for (uint32_t k = 0; k < nk; k++) {
		uint32_t c = w->cnt[k];

		o->pidx[k] = sum;
		w->cnt[k] = sum;
		sum += c;
	}
	o->pidx[nk] = sum;
}

/* Step 4, record i: the caller's id of a pattern, the program index of a
 * pass record. */
ACK_HD void acg_scatter(const struct acc_batch *b, const struct acc_rec *rec,
			const struct acg_work *w, uint32_t *ids, uint32_t i)
{
	uint32_t k = rec[i].end, v;

	if (k == ACG_DROP)
		return;
	v = rec[i].pat & ~(ACV_PASS | ACC_CTX);
	ids[acc_atomic_inc(&w->cnt[k])] =
		(k & 1) ? v : b->groups[b->desc[rec[i].payload].group].v.pat[v].id |
				      (rec[i].pat & ACC_CTX ? ACG_CTX_START : 0);
}

/* All four steps on one thread (the emulation, tests): 0, or -1 when the
 * batch is not grouped (its records overflowed the sink or the output). */
ACK_HD int acg_group_serial(const struct acc_batch *b, struct acc_rec *rec, uint32_t n,
			    uint32_t nprog, const struct acg_work *w, const struct acg_out *o)
{
	uint32_t nk = 2 * b->npay, tsize = acg_table_size(n, w->tslots);

	if (n > o->cap || 2 * n > w->tslots)
		return -1;
	for (uint32_t i = 0; i < (tsize > nk ? tsize : nk); i++)
		acg_clear(w, tsize, nk, i);
	for (uint32_t i = 0; i < n; i++)
		acg_insert(b, rec, nprog, w, tsize, i);
	acg_scan_serial(w, o, nk);
	for (uint32_t i = 0; i < n; i++)
		acg_scatter(b, rec, w, o->ids, i);
	return 0;
}

#endif
