/* Kernel-only timing of the ac-cuda kernels on a real device, to check the
 * cost model (qa/gpu/model) against a measurement: the same inputs as
 * model.c (ET fast patterns, bench-1x payloads of 1..max-limit bytes), one
 * device-resident batch per kernel, copied in once per repeat through the
 * device interface (cuda/accuda-device.h); the kernel time is the CUDA
 * events' (AcDevTimes.kernel_ns), the median of the repeats. The first
 * repeat's (payload, pattern id) set is checked against ac_search.
 *
 * usage: kbench [--emu] [--mb N] [--reps N] [--max-limit N] PATTERNS.hex PAYLOADS.bin
 *   --emu  the host emulation instead of the GPU (a smoke test: its times
 *          are CPU times, not a GPU's)
 * Exit 0: every kernel equal to ac (or no device: says so), 1: a kernel
 * differs or failed, 2: bad input.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/accuda-device.h"
#include "mpm/ac.h"

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	b = malloc(n + 1);
	if (b && fread(b, 1, n, f) != (size_t)n) {
		free(b);
		b = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return b;
}

static int u64_cmp(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

static uint32_t uniq(uint64_t *v, uint32_t n)
{
	uint32_t w = 0;

	qsort(v, n, sizeof(*v), u64_cmp);
	for (uint32_t i = 0; i < n; i++)
		if (!w || v[w - 1] != v[i])
			v[w++] = v[i];
	return w;
}

struct refc {
	uint64_t *v;
	uint32_t n, cap, p;
};

static int ref_cb(void *arg, uint32_t id, uint32_t end)
{
	struct refc *r = arg;

	(void)end;
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 4096;
		r->v = realloc(r->v, r->cap * sizeof(*r->v));
	}
	r->v[r->n++] = (uint64_t)r->p << 32 | id;
	return 0;
}

static int u64cmp_ns(const void *x, const void *y)
{
	return u64_cmp(x, y);
}

int main(int argc, char **argv)
{
	double mb = 50;
	int reps = 20, emu = 0, ai = 1;
	uint32_t max_limit = 1500;
	char err[512];

	for (; ai < argc && argv[ai][0] == '-'; ai++) {
		if (!strcmp(argv[ai], "--emu"))
			emu = 1;
		else if (!strcmp(argv[ai], "--mb") && ai + 1 < argc)
			mb = atof(argv[++ai]);
		else if (!strcmp(argv[ai], "--reps") && ai + 1 < argc)
			reps = atoi(argv[++ai]);
		else if (!strcmp(argv[ai], "--max-limit") && ai + 1 < argc)
			max_limit = (uint32_t)atoi(argv[++ai]);
		else
			break;
	}
	if (argc - ai != 2 || reps < 1) {
		fprintf(stderr, "usage: kbench [--emu] [--mb N] [--reps N] [--max-limit N] "
				"PATTERNS.hex PAYLOADS.bin\n");
		return 2;
	}
	/* patterns: hex lines, folded (every pattern caseless) */
	size_t tl, pl;
	uint8_t *t = slurp(argv[ai], &tl), *pb = slurp(argv[ai + 1], &pl);

	if (!t || !pb || pl < 8 || memcmp(pb, "ACPL", 4) != 0) {
		fprintf(stderr, "kbench: cannot read the inputs\n");
		return 2;
	}
	struct ac_pattern *pats = calloc(tl / 2 + 1, sizeof(*pats));
	uint8_t *bytes = malloc(tl / 2 + 1);
	uint32_t np = 0, nb = 0;

	for (size_t i = 0; i < tl;) {
		uint32_t start = nb;
		unsigned v;

		while (i + 1 < tl && t[i] != '\n' && sscanf((const char *)t + i, "%2x", &v) == 1) {
			bytes[nb++] = (uint8_t)v;
			i += 2;
		}
		while (i < tl && t[i] != '\n')
			i++;
		i++;
		if (nb > start && nb - start < 65536)
			pats[np] = (struct ac_pattern){ .id = np + 1, .off = start,
							.len = (uint16_t)(nb - start), .nocase = 1 }, np++;
		else
			nb = start;
	}
	struct ac_opts o = AC_OPTS_DEFAULT;

	o.gpu_lists = 1;
	AcAutomaton *a = ac_build_opts(pats, np, bytes, &o, err, sizeof(err));

	if (!a) {
		fprintf(stderr, "kbench: %s\n", err);
		return 2;
	}
	/* the batch */
	uint32_t cnt, cap = (uint32_t)(mb * 1e6), n = 0, npay = 0;

	memcpy(&cnt, pb + 4, 4);
	const uint32_t *lens = (const uint32_t *)(pb + 8);
	const uint8_t *body = pb + 8 + 4 * (size_t)cnt;
	size_t *offs = malloc(((size_t)cnt + 1) * sizeof(*offs));

	offs[0] = 0;
	for (uint32_t i = 0; i < cnt; i++)
		offs[i + 1] = offs[i] + lens[i];

	const AcDeviceOps *ops = emu ? accuda_emu_ops() : accuda_cuda_ops(err, sizeof(err));

	if (!ops || ops->device_count(err, sizeof(err)) < 1) {
		printf("kbench: no device (%s): nothing measured\n", ops ? err : "no CUDA build");
		return 0;
	}
	AcDev *dev = ops->open(0, err, sizeof(err));

	if (!dev) {
		printf("kbench: %s\n", err);
		return 1;
	}
	/* first the batch's size, then the pinned buffers, then the bytes */
	for (uint32_t i = 0, k = 0; n < cap && k < 4 * cnt; i = (i + 1) % cnt, k++) {
		uint32_t l = lens[i];

		if (l < 1 || l > max_limit || l > 65535)
			continue;
		if (n + l > cap)
			break;
		n += l;
		npay++;
	}
	if (!npay) {
		fprintf(stderr, "kbench: no payload of 1..%u bytes\n", max_limit);
		return 2;
	}
	uint8_t *data = ops->host_alloc(dev, (size_t)n + 64);
	struct acc_desc *desc = ops->host_alloc(dev, (size_t)npay * sizeof(*desc));

	if (!data || !desc) {
		fprintf(stderr, "kbench: out of pinned memory\n");
		return 2;
	}
	cap = n;
	n = 0;
	for (uint32_t i = 0, k = 0; k < npay; i = (i + 1) % cnt) {
		uint32_t l = lens[i];

		if (l < 1 || l > max_limit || l > 65535)
			continue;
		memcpy(data + n, body + offs[i], l);
		desc[k++] = (struct acc_desc){ .off = n, .len = (uint16_t)l, .group = 0 };
		n += l;
	}
	struct refc ref = { 0 };

	for (uint32_t p = 0; p < npay; p++) {
		ref.p = p;
		ac_search(a, data + desc[p].off, desc[p].len, ref_cb, &ref);
	}
	uint32_t nref = uniq(ref.v, ref.n);
	uint64_t off0 = 0;
	uint32_t maxlen = a->blk->maxlen;

	printf("kbench: %s, %u patterns, %u payloads, %u bytes, ac: %u occurrences, %u pairs\n",
	       ops->name, np, npay, n, ref.n, nref);
	if (ops->load(dev, a->blk, a->blk->size, &off0, &maxlen, 1, err, sizeof(err)) != 0) {
		printf("kbench: %s\n", err);
		return 1;
	}
	static const char *const names[] = { "payload", "chunk/64", "filter/64" };
	int bad = 0;

	printf("%-10s %10s %10s %10s %8s\n", "kernel", "records", "median us", "Gbit/s", "equal");
	for (int kern = 0; kern < ACC_KERNEL_COUNT; kern++) {
		AcDevStreamSize sz = { .data_bytes = (uint64_t)cap + 64, .max_payloads = npay,
				       .max_records = ref.n + 1024 };
		AcDevStream *st = ops->stream_new(dev, &sz, kern, 64, err, sizeof(err));
		uint64_t *ns = calloc(reps, sizeof(*ns));
		uint32_t count = 0;
		int eq = 0;

		if (!st) {
			printf("%-10s stream: %s\n", names[kern], err);
			bad = 1;
			continue;
		}
		for (int r = 0; r < reps; r++) {
			const struct acc_rec *rec;
			AcDevTimes tm = { 0 };

			if (ops->submit(st, data, n, desc, npay, err, sizeof(err)) != 0 ||
			    ops->wait(st, &rec, &count, &tm, err, sizeof(err)) != 0) {
				printf("%-10s %s\n", names[kern], err);
				bad = 1;
				break;
			}
			ns[r] = tm.kernel_ns;
			if (r == 0 && count <= sz.max_records) {
				uint64_t *got = malloc(((size_t)count + 1) * 8);

				for (uint32_t i = 0; i < count; i++)
					got[i] = (uint64_t)rec[i].payload << 32 | a->v.pat[rec[i].pat].id;
				uint32_t nu = uniq(got, count);

				eq = nu == nref && memcmp(got, ref.v, (size_t)nref * 8) == 0;
				free(got);
			}
		}
		qsort(ns, reps, sizeof(*ns), u64cmp_ns);
		double us = ns[reps / 2] / 1e3;

		printf("%-10s %10u %10.1f %10.1f %8s\n", names[kern], count, us,
		       us > 0 ? 8.0 * n / (us * 1e3) : 0, eq ? "yes" : "NO");
		bad |= !eq;
		free(ns);
		ops->stream_free(st);
	}
	if (ops->emulation)
		printf("kbench: EMULATION: these are CPU times, not a GPU's\n");
	ops->host_free(dev, data);
	ops->host_free(dev, desc);
	ops->close(dev);
	ac_free(a);
	return bad;
}
