/* mpm-bench: build time, table memory and scan rate of the MPM algorithms.
 * Not a test: numbers for qa/bench/RESULTS.md.
 *
 *   mpm-bench [-n patterns] [-m minlen] [-M maxlen] [-p] [-b dense-budget-kb]
 *             [-c chunk] [-s scan-mb] [-f file] [-r pcap] [-P patfile]
 *             [-k subset] [-R repeat] [-F filter] [-G] [algo...]
 *
 * -P reads the patterns from a file instead, one a line: "<nocase 0|1> <hex
 * bytes>" (e.g. extracted from a ruleset's content keywords).
 * Patterns are random (seed fixed), -p draws them from printable ASCII
 * (closer to rule contents) instead of all 256 byte values; half are
 * nocase. The scan input is random bytes of the same alphabet, or the raw
 * bytes of -f FILE, cut into -c byte buffers (packet-sized by default), or
 * the TCP/UDP payloads of the packets of -r PCAP, one buffer per packet
 * (what the engine's packet MPM sees), scanned -R times.
 * -k N keeps a random subset of N of the -P patterns (seed fixed), the
 * size of one signature group's automaton. -F sets ac's bigram filter:
 * -1 decide per automaton (default), 0 off, 1 on. -G also builds ac's GPU
 * lists (memory; the scan does not use them). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pcap/pcap.h>

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

/* ---- -r: L4 payloads of a capture ---- */

struct payloads {
	uint8_t *data;
	size_t len, cap;
	uint32_t *off, *plen;
	size_t n, ncap;
};

static const uint8_t *l4_payload(const uint8_t *p, uint32_t len, uint32_t *plen)
{
	uint8_t proto;
	uint32_t hl;

	if (len < 1)
		return NULL;
	if ((p[0] >> 4) == 4 && len >= 20) {
		uint32_t tot = (uint32_t)p[2] << 8 | p[3];

		hl = (p[0] & 15u) * 4;
		if (hl < 20 || tot < hl || tot > len || ((p[6] & 0x1f) | p[7]))
			return NULL;
		proto = p[9];
		len = tot;
	} else if ((p[0] >> 4) == 6 && len >= 40) {
		uint32_t pl = (uint32_t)p[4] << 8 | p[5];

		if (40 + pl > len)
			return NULL;
		proto = p[6];
		hl = 40;
		len = 40 + pl;
	} else {
		return NULL;
	}
	p += hl;
	len -= hl;
	if (proto == 6 && len >= 20 && (p[12] >> 4) * 4u >= 20 && (p[12] >> 4) * 4u <= len)
		hl = (p[12] >> 4) * 4u;
	else if (proto == 17 && len >= 8)
		hl = 8;
	else
		return NULL;
	*plen = len - hl;
	return *plen ? p + hl : NULL;
}

static int read_pcap_payloads(const char *path, struct payloads *pl)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *pc = pcap_open_offline(path, errbuf);
	struct pcap_pkthdr *h;
	const uint8_t *pkt;

	if (!pc) {
		fprintf(stderr, "%s: %s\n", path, errbuf);
		return -1;
	}
	int dlt = pcap_datalink(pc);

	while (pcap_next_ex(pc, &h, &pkt) == 1) {
		uint32_t len = h->caplen, off = 0, n = 0;
		uint16_t et = 0;

		if (dlt == DLT_EN10MB) {
			if (len < 14)
				continue;
			et = (uint16_t)(pkt[12] << 8 | pkt[13]);
			off = 14;
			while ((et == 0x8100 || et == 0x88a8) && len >= off + 4) {
				et = (uint16_t)(pkt[off + 2] << 8 | pkt[off + 3]);
				off += 4;
			}
			if (et != 0x0800 && et != 0x86dd)
				continue;
		} else if (dlt == DLT_LINUX_SLL) {
			off = 16;
		} else if (dlt != DLT_RAW && dlt != 101) {
			continue;
		}
		if (off >= len)
			continue;
		const uint8_t *p = l4_payload(pkt + off, len - off, &n);

		if (!p)
			continue;
		if (pl->len + n > pl->cap) {
			pl->cap = (pl->cap + n) * 2;
			pl->data = realloc(pl->data, pl->cap);
		}
		if (pl->n == pl->ncap) {
			pl->ncap = pl->ncap ? pl->ncap * 2 : 4096;
			pl->off = realloc(pl->off, pl->ncap * sizeof(uint32_t));
			pl->plen = realloc(pl->plen, pl->ncap * sizeof(uint32_t));
		}
		if (!pl->data || !pl->off || !pl->plen)
			return -1;
		memcpy(pl->data + pl->len, p, n);
		pl->off[pl->n] = (uint32_t)pl->len;
		pl->plen[pl->n++] = n;
		pl->len += n;
	}
	pcap_close(pc);
	return pl->n ? 0 : -1;
}

static int count_cb(void *arg, uint32_t id, uint32_t end)
{
	(*(uint64_t *)arg)++;
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: mpm-bench [-n patterns] [-m minlen] [-M maxlen] [-p]"
		" [-b dense-budget-kb] [-c chunk] [-s scan-mb] [-f file] [-r pcap]"
		" [-P patfile] [-k subset] [-R repeat] [-F -1|0|1] [-G] [ac|hs|ac-cuda...]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	uint32_t npat = 20000, minlen = 1, maxlen = 64, chunk = 1500;
	size_t scan_mb = 64, budget = AC_DENSE_BUDGET_DEFAULT;
	int printable = 0, opt, filter = -1, gpu_lists = 0;
	const char *file = NULL, *patfile = NULL, *pcapfile = NULL;
	uint32_t subset = 0, repeat = 1;
	struct payloads pl = { 0 };

	while ((opt = getopt(argc, argv, "n:m:M:pb:c:s:f:P:r:k:R:F:Gh")) != -1) {
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
		case 'r': pcapfile = optarg; break;
		case 'k': subset = (uint32_t)strtoul(optarg, NULL, 10); break;
		case 'G': gpu_lists = 1; break;
		case 'F': filter = atoi(optarg); break;
		case 'R': repeat = (uint32_t)strtoul(optarg, NULL, 10); break;
		default: usage();
		}
	}
	if (minlen < 1 || maxlen < minlen || maxlen > 65535 || chunk == 0)
		usage();

	/* the scan input */
	size_t dlen = scan_mb << 20;
	uint8_t *data = NULL;

	if (pcapfile) {
		if (read_pcap_payloads(pcapfile, &pl) < 0) {
			fprintf(stderr, "%s: no payloads\n", pcapfile);
			return 1;
		}
		data = pl.data;
		dlen = pl.len;
	} else if (file) {
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

	/* -k: a random subset (partial Fisher-Yates over the read patterns) */
	if (subset && subset < npat) {
		for (uint32_t i = 0; i < subset; i++) {
			uint32_t j = i + rnd() % (npat - i), t16;

			for (uint32_t k = 0; k < maxlen; k++) {
				uint8_t x = pbytes[(size_t)i * maxlen + k];

				pbytes[(size_t)i * maxlen + k] = pbytes[(size_t)j * maxlen + k];
				pbytes[(size_t)j * maxlen + k] = x;
			}
			t16 = plen[i]; plen[i] = plen[j]; plen[j] = (uint16_t)t16;
			t16 = pnocase[i]; pnocase[i] = pnocase[j]; pnocase[j] = (uint8_t)t16;
		}
		npat = subset;
	}
	if (repeat == 0)
		repeat = 1;

	const char *defaults[] = { "ac", "hs" };
	const char **algos = (const char **)argv + optind;
	int nalgo = argc - optind;

	if (nalgo == 0) {
		algos = defaults;
		nalgo = mpm_have_hs() ? 2 : 1;
	}
	mpm_set_ac_dense_budget(budget);
	mpm_set_ac_filter(filter);
	mpm_set_ac_gpu_lists(gpu_lists);
	if (patfile)
		printf("%u patterns from %s", npat, patfile);
	else
		printf("%u patterns of %u-%u bytes (%s)", npat, minlen, maxlen,
		       printable ? "printable" : "any byte");
	if (pcapfile)
		printf(", scan %zu payload bytes in %zu packets from %s, %u times\n",
		       dlen, pl.n, pcapfile, repeat);
	else
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

		for (uint32_t r = 0; r < repeat; r++) {
			if (pcapfile) {
				for (size_t k = 0; k < pl.n; k++)
					mpm_search(ctx, s, data + pl.off[k], pl.plen[k],
						   count_cb, &matches);
				continue;
			}
			for (size_t off = 0; off < dlen; off += chunk) {
				uint32_t n = dlen - off < chunk ? (uint32_t)(dlen - off) : chunk;

				mpm_search(ctx, s, data + off, n, count_cb, &matches);
			}
		}
		double t2 = now();
		const AcAutomaton *ac = mpm_ac_automaton(ctx);

		printf("%-8s build %7.3f s  memory %9.1f KiB  %u distinct", algos[a], t1 - t0,
		       mpm_memory(ctx) / 1024.0, mpm_pattern_count(ctx));
		if (ac)
			printf("\n         states %u, dense %u, classes %u, %u-bit rows,"
			       " %u literals, filter %s", ac->blk->nstates,
			       ac->blk->ndense, ac->blk->nclass, ac->blk->width * 8,
			       ac->blk->nlit, ac->blk->flags & AC_F_FILTER ? "on" : "off");
		printf("\n         scan %7.3f s  %6.2f Gbit/s  %llu matches\n", t2 - t1,
		       (double)dlen * repeat * 8.0 / (t2 - t1) / 1e9,
		       (unsigned long long)matches / repeat);
		mpm_scratch_free(s);
		mpm_free(ctx);
	}
	free(data);
	free(pl.off);
	free(pl.plen);
	free(pbytes);
	free(plen);
	free(pnocase);
	return 0;
}
