/* mpm-bench: build time, table memory and scan rate of the MPM algorithms.
 * Not a test: numbers for qa/bench/RESULTS.md.
 *
 *   mpm-bench [-n patterns] [-m minlen] [-M maxlen] [-p] [-b dense-budget-kb]
 *             [-c chunk] [-s scan-mb] [-f file] [-P patfile] [algo...]
 *
 * -P reads the patterns from a file instead, one a line: "<nocase 0|1> <hex
 * bytes>" (e.g. extracted from a ruleset's content keywords).
 * Patterns are random (seed fixed), -p draws them from printable ASCII
 * (closer to rule contents) instead of all 256 byte values; half are
 * nocase. The scan input is random bytes of the same alphabet, or the raw
 * bytes of -f FILE, cut into -c byte buffers (packet-sized by default). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mpm/mpm.h"

static uint64_t rng = 0x243f6a8885a308d3ull;

static uint32_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (uint32_t)((rng * 2685821657736338717ull) >> 32);
}

static uint8_t rnd_byte(int printable)
{
	return printable ? (uint8_t)(32 + rnd() % 95) : (uint8_t)rnd();
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int count_cb(void *arg, uint32_t id, uint32_t end)
{
	(*(uint64_t *)arg)++;
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: mpm-bench [-n patterns] [-m minlen] [-M maxlen] [-p]"
		" [-b dense-budget-kb] [-c chunk] [-s scan-mb] [-f file] [-P patfile]"
		" [ac|hs|ac-cuda...]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	uint32_t npat = 20000, minlen = 1, maxlen = 64, chunk = 1500;
	size_t scan_mb = 64, budget = AC_DENSE_BUDGET_DEFAULT;
	int printable = 0, opt;
	const char *file = NULL, *patfile = NULL;

	while ((opt = getopt(argc, argv, "n:m:M:pb:c:s:f:P:h")) != -1) {
		switch (opt) {
		case 'n': npat = (uint32_t)strtoul(optarg, NULL, 10); break;
		case 'm': minlen = (uint32_t)strtoul(optarg, NULL, 10); break;
		case 'M': maxlen = (uint32_t)strtoul(optarg, NULL, 10); break;
		case 'p': printable = 1; break;
		case 'b': budget = strtoull(optarg, NULL, 10) << 10; break;
		case 'c': chunk = (uint32_t)strtoul(optarg, NULL, 10); break;
		case 's': scan_mb = strtoull(optarg, NULL, 10); break;
		case 'f': file = optarg; break;
		case 'P': patfile = optarg; break;
		default: usage();
		}
	}
	if (minlen < 1 || maxlen < minlen || maxlen > 65535 || chunk == 0)
		usage();

	/* the scan input */
	size_t dlen = scan_mb << 20;
	uint8_t *data = NULL;

	if (file) {
		FILE *f = fopen(file, "rb");

		if (!f) {
			perror(file);
			return 1;
		}
		data = malloc(dlen);
		dlen = data ? fread(data, 1, dlen, f) : 0;
		fclose(f);
	} else {
		data = malloc(dlen);
		for (size_t i = 0; data && i < dlen; i++)
			data[i] = rnd_byte(printable);
	}
	if (!data || dlen == 0) {
		fprintf(stderr, "no scan data\n");
		return 1;
	}

	/* the patterns, identical for every algorithm */
	FILE *pf = NULL;

	if (patfile) {
		char line[140000];

		pf = fopen(patfile, "r");
		if (!pf) {
			perror(patfile);
			return 1;
		}
		npat = 0;
		maxlen = 1;
		while (fgets(line, sizeof(line), pf)) {
			size_t l = strcspn(line + 2, "\r\n") / 2;

			npat++;
			if (l > maxlen)
				maxlen = (uint32_t)l;
		}
		rewind(pf);
	}
	uint8_t *pbytes = malloc((size_t)npat * maxlen);
	uint16_t *plen = malloc(sizeof(uint16_t) * (npat ? npat : 1));
	uint8_t *pnocase = malloc(npat ? npat : 1);

	if (!pbytes || !plen || !pnocase)
		return 1;
	for (uint32_t i = 0; pf && i < npat; i++) {
		char line[140000];
		uint8_t *b = pbytes + (size_t)i * maxlen;
		unsigned x;

		plen[i] = 0;
		if (!fgets(line, sizeof(line), pf))
			break;
		pnocase[i] = line[0] == '1';
		for (const char *h = line + 2; sscanf(h, "%2x", &x) == 1 && plen[i] < maxlen; h += 2)
			b[plen[i]++] = (uint8_t)x;
		if (plen[i] == 0)
			plen[i] = 1;   /* a malformed line: keep the count stable */
	}
	if (pf)
		fclose(pf);
	for (uint32_t i = 0; !patfile && i < npat; i++) {
		plen[i] = (uint16_t)(minlen + rnd() % (maxlen - minlen + 1));
		pnocase[i] = rnd() & 1;
		for (uint32_t k = 0; k < plen[i]; k++)
			pbytes[(size_t)i * maxlen + k] = rnd_byte(printable);
	}

	const char *defaults[] = { "ac", "hs" };
	const char **algos = (const char **)argv + optind;
	int nalgo = argc - optind;

	if (nalgo == 0) {
		algos = defaults;
		nalgo = mpm_have_hs() ? 2 : 1;
	}
	mpm_set_ac_dense_budget(budget);
	if (patfile)
		printf("%u patterns from %s", npat, patfile);
	else
		printf("%u patterns of %u-%u bytes (%s)", npat, minlen, maxlen,
		       printable ? "printable" : "any byte");
	printf(", scan %zu bytes in %u-byte buffers%s%s\n", dlen, chunk,
	       file ? " from " : "", file ? file : "");
	for (int a = 0; a < nalgo; a++) {
		enum mpm_algo algo;
		char err[256];

		if (mpm_algo_parse(algos[a], &algo) < 0) {
			fprintf(stderr, "%s\n", mpm_algo_error(algos[a]));
			continue;
		}
		double t0 = now();
		MpmCtx *ctx = mpm_new(algo);

		for (uint32_t i = 0; ctx && i < npat; i++)
			mpm_add_pattern(ctx, pbytes + (size_t)i * maxlen, plen[i], i, pnocase[i]);
		if (!ctx || mpm_prepare(ctx, err, sizeof(err)) < 0) {
			fprintf(stderr, "%s: prepare failed: %s\n", algos[a], ctx ? err : "no memory");
			mpm_free(ctx);
			continue;
		}
		double t1 = now();
		MpmScratch *s = mpm_scratch_new(ctx);
		uint64_t matches = 0;

		for (size_t off = 0; off < dlen; off += chunk) {
			uint32_t n = dlen - off < chunk ? (uint32_t)(dlen - off) : chunk;

			mpm_search(ctx, s, data + off, n, count_cb, &matches);
		}
		double t2 = now();
		const AcAutomaton *ac = mpm_ac_automaton(ctx);

		printf("%-8s build %7.3f s  memory %9.1f KiB  %u distinct", algos[a], t1 - t0,
		       mpm_memory(ctx) / 1024.0, mpm_pattern_count(ctx));
		if (ac)
			printf("  (states %u, dense %u, classes %u)", ac->blk->nstates,
			       ac->blk->ndense, ac->blk->nclass);
		printf("\n         scan %7.3f s  %6.2f Gbit/s  %llu matches\n", t2 - t1,
		       dlen * 8.0 / (t2 - t1) / 1e9, (unsigned long long)matches);
		mpm_scratch_free(s);
		mpm_free(ctx);
	}
	free(data);
	free(pbytes);
	free(plen);
	free(pnocase);
	return 0;
}
