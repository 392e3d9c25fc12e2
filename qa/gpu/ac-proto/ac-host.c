// SPDX-License-Identifier: GPL-2.0-only
/*
 * ac-host.c - host emulation check for the AC prototype (CI, no GPU).
 *
 * Runs the scan functions of ac-scan.h - the very code the CUDA kernels
 * run - on CPU threads with the kernels' work decomposition (thread per
 * payload; thread per chunk with overlap; thread per chunk with depth-
 * bounded extension and a "shared memory" copy of the hot rows), and
 * checks each match set against the CPU reference trie walk, which in
 * turn is checked against a brute-force scan on a sample.
 *
 * usage: ac-host PATTERNS.hex [PAYLOADS.bin | --synthetic] [MBYTES]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ac-dfa.h"

enum variant { VAR_A, VAR_B, VAR_C };

struct emu {
	const struct ac_tables *t;
	const struct ac_sink *k;
	const struct ac_batch *b;
	enum variant v;
	uint32_t nwork, stride, first;
};

static void *emu_thread(void *arg)
{
	const struct emu *e = arg;
	uint32_t w;

	/* grid-stride over the kernel's thread ids */
	for (w = e->first; w < e->nwork; w += e->stride) {
		if (e->v == VAR_A)
			ac_work_payload(e->t, e->k, e->b, w);
		else if (e->v == VAR_B)
			ac_work_chunk_overlap(e->t, e->k, e->b, w);
		else
			ac_work_chunk_ext(e->t, e->k, e->b, w);
	}
	return NULL;
}

static int nthreads = 4;

/* Run one variant emulated; compare against ref; return 0 if equal. */
static int run_variant(const char *name, enum variant v,
		       const struct ac_dfa *d, struct ac_hbatch *hb,
		       uint32_t chunk, uint32_t nhot,
		       const uint64_t *ref, size_t nref)
{
	struct ac_tables t = ac_dfa_tables(d);
	struct ac_batch b;
	struct ac_sink k;
	uint32_t count = 0, *hot = NULL;
	struct emu e[64];
	pthread_t th[64];
	uint64_t *keys;
	char what[128];
	int i, rc;

	ac_batch_set_chunk(hb, chunk);
	b = ac_batch_view(hb, d->maxlen - 1);
	if (nhot > d->nstates)
		nhot = d->nstates;
	if (nhot) {
		/* emulate the kernel's shared-memory copy of the hot rows */
		hot = malloc((size_t)nhot * AC_ALPHA * sizeof(uint32_t));
		memcpy(hot, d->delta, (size_t)nhot * AC_ALPHA * sizeof(uint32_t));
		t.hot = hot;
		t.nhot = nhot;
	}
	k.cap = (uint32_t)(nref + 1024);
	k.rec = calloc(k.cap, sizeof(struct ac_rec));
	k.count = &count;
	for (i = 0; i < nthreads; i++) {
		e[i] = (struct emu){ &t, &k, &b, v,
				     v == VAR_A ? b.npayloads : b.nchunks,
				     (uint32_t)nthreads, (uint32_t)i };
		pthread_create(&th[i], NULL, emu_thread, &e[i]);
	}
	for (i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	snprintf(what, sizeof(what), "%s chunk %u hot %u", name, chunk, nhot);
	if (count > k.cap) {
		fprintf(stderr, "%s: record overflow (%u)\n", what, count);
		rc = -1;
	} else {
		keys = ac_recs_to_keys(k.rec, count, hb->off);
		rc = ac_keys_compare(what, ref, nref, keys, count);
		free(keys);
	}
	printf("  %-28s %10u matches  %s\n", what, count, rc ? "MISMATCH" : "equal");
	free(k.rec);
	free(hot);
	return rc;
}

static int check_batch(const char *label, const struct ac_dfa *d,
		       struct ac_hbatch *hb, const uint64_t *ref, size_t nref)
{
	static const uint32_t chunks[] = { 16, 64, 256, 1024 };
	int bad = 0;
	unsigned i;

	printf("%s: %u payloads, %zu bytes, %zu matches (%.1f per KB)\n",
	       label, hb->n, hb->bytes, nref, nref * 1024.0 / hb->bytes);
	bad |= run_variant("a thread/payload", VAR_A, d, hb, 256, 0, ref, nref);
	for (i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		bad |= run_variant("b chunk+overlap", VAR_B, d, hb, chunks[i], 0,
				   ref, nref);
		bad |= run_variant("c chunk+ext", VAR_C, d, hb, chunks[i], 0,
				   ref, nref);
		bad |= run_variant("c chunk+ext+hot", VAR_C, d, hb, chunks[i],
				   chunks[i] == 64 ? 200 : 3, ref, nref);
	}
	return bad;
}

int main(int argc, char **argv)
{
	struct ac_patterns p;
	struct ac_payloads pl;
	struct ac_hbatch hb;
	struct ac_dfa d;
	size_t nref, nnaive, mbytes = 8;
	uint64_t *ref, *naive;
	int bad = 0, synthetic;
	const char *env = getenv("AC_HOST_THREADS");

	if (argc < 3) {
		fprintf(stderr, "usage: %s PATTERNS.hex PAYLOADS.bin|--synthetic [MBYTES]\n",
			argv[0]);
		return 2;
	}
	if (env)
		nthreads = atoi(env) > 0 && atoi(env) <= 64 ? atoi(env) : 4;
	if (argc > 3)
		mbytes = strtoul(argv[3], NULL, 10);
	if (ac_patterns_load(&p, argv[1]) || ac_dfa_build(&d, &p))
		return 2;
	printf("patterns %u (longest %u), states %u, output entries %u, table %.1f MB\n",
	       p.n, p.maxlen, d.nstates, d.nout,
	       d.nstates * 1024.0 / (1 << 20));
	synthetic = !strcmp(argv[2], "--synthetic");
	if (synthetic)
		ac_payloads_synthetic(&pl, &p, mbytes << 20, 12345);
	else if (ac_payloads_load(&pl, argv[2]))
		return 2;

	/* 1. the reference itself against brute force, on a sample */
	if (ac_batch_pack(&hb, &pl, 96 << 10, 64))
		return 2;
	ref = ac_ref_scan(&d, &hb, &nref);
	naive = ac_naive_scan(&p, &hb, &nnaive);
	if (ac_keys_compare("reference vs brute force", naive, nnaive, ref, nref))
		bad = 1;
	else
		printf("reference == brute force on %zu bytes (%zu matches)\n",
		       hb.bytes, nref);
	bad |= check_batch("sample", &d, &hb, ref, nref);
	free(ref);
	free(naive);
	ac_batch_free(&hb);

	/* 2. the emulated kernels against the reference, on a big batch */
	if (ac_batch_pack(&hb, &pl, mbytes << 20, 64))
		return 2;
	ref = ac_ref_scan(&d, &hb, &nref);
	bad |= check_batch("batch", &d, &hb, ref, nref);
	free(ref);
	ac_batch_free(&hb);

	ac_payloads_free(&pl);
	ac_dfa_free(&d);
	ac_patterns_free(&p);
	printf("check-host: %s\n", bad ? "FAILED" : "OK (all variants equal the CPU reference)");
	return bad;
}
