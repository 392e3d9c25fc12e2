// SPDX-License-Identifier: GPL-2.0-only
/*
 * kbench.c - the ENGINE's ac-cuda kernels alone, on the ET union automata.
 *
 *   kbench [-e] [-c YAML] -S RULES -r PCAP [-s MB,MB,..] [-n REPS] [-t SECS]
 *          [-M MAXLEN]
 *
 * What it runs is what the engine runs, not the qa/gpu/ac-proto prototype:
 *   - the rules are loaded and built by the engine (sig_load, then
 *     detect_engine_build as with mpm-algo ac-cuda), and the union automaton of each
 *     protocol class is built as src/detect/prefilter-gpu.c builds it: the
 *     toserver and toclient groups' literals in one MPM_AC_CUDA context,
 *     whose mpm_prepare calls ac_build with the GPU lists on;
 *   - the automata are uploaded in one block, each 256-byte aligned, as
 *     ac-cuda's upload_automata does, through the device interface of
 *     cuda/accuda-device.h: accuda_cuda_ops(), or with -e the host
 *     emulation accuda_emu_ops() (dry runs: the numbers then say nothing
 *     about a GPU);
 *   - batches are the TCP/UDP payloads of the capture (1 .. MAXLEN bytes,
 *     default 1500, cuda.mpm's data-buffer-size-max-limit), packed
 *     cyclically up to each batch size, each naming its protocol's union.
 * For every batch size and every kernel variant (enum acc_kernel, 0 ..
 * ACC_KERNEL_COUNT - 1) it times submit + wait REPS times (at most SECS
 * seconds per pair) after one warm-up, and prints the medians: the kernel
 * alone from the device's events (AcDevTimes.kernel_ns: the batch is
 * already on the device) and submit + wait on the wall clock (copy-in,
 * kernel, copy-out). The first run's records are checked against ac_search
 * on the CPU: the SET of (payload, pattern id) pairs must be equal, the
 * contract the workers rely on (the filter kernel reports a pair about
 * once, the others at every occurrence).
 * Then the verify kernel (cuda/verify-kernel.h): the rules' payload
 * programs, built as src/detect/prefilter-gpu.c builds them, on a second
 * device handle that has them loaded; for every batch size the filter
 * kernel with the verify kernel after it ("kernel=filter+verify"; its
 * kernel_ms against the filter line's is what verification costs), its
 * pass records checked against the host emulation's of the same batch
 * (the same set of (payload, program) pairs) on the first batch size.
 * Prints "KBENCH key=value ..." lines and "kbench: PASS" or "kbench: FAIL";
 * exit 0 on PASS, 1 on a mismatch, 2 on a setup or device error.
 */
#include <pcap/pcap.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "conf/conf.h"
#include "conf/cuda-mpm-conf.h"
#include "cuda/accuda-device.h"
#include "cuda/ac-kernel.h"
#include "detect/detect-parse.h"
#include "detect/engine.h"
#include "detect/engine-int.h"
#include "detect/prefilter-gpu.h"
#include "detect/verify-build.h"
#include "mpm/ac-cuda.h"
#include "mpm/mpm.h"

/* Every variant of enum acc_kernel (cuda/ac-kernel.h) up to
 * ACC_KERNEL_COUNT; the "kbench: PASS (N kernel variants)" line shows N. */

#define MAX_SIZES 8
#define MAX_REPS 64

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *kernel_name(int k)
{
	static char buf[16];

	if (k == ACC_KERNEL_PAYLOAD || k == ACC_KERNEL_CHUNK || k == ACC_KERNEL_FILTER)
		return ac_cuda_kernel_name(k);
	snprintf(buf, sizeof(buf), "kernel%d", k);
	return buf;
}

/* ---- payloads of a capture ---- */

struct payloads {
	uint8_t *data;
	size_t len, cap;
	uint32_t *off;
	uint16_t *plen;
	uint8_t *proto;         /* 6 or 17 */
	size_t n, ncap;
};

static const uint8_t *l4_payload(const uint8_t *p, uint32_t len, uint32_t *plen,
				 uint8_t *proto_out)
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
	*proto_out = proto;
	return *plen ? p + hl : NULL;
}

static int read_payloads(const char *path, uint32_t maxlen, struct payloads *pl)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *pc = pcap_open_offline(path, errbuf);
	struct pcap_pkthdr *h;
	const uint8_t *pkt;

	if (!pc) {
		fprintf(stderr, "kbench: %s: %s\n", path, errbuf);
		return -1;
	}
	int dlt = pcap_datalink(pc);

	while (pcap_next_ex(pc, &h, &pkt) == 1) {
		uint32_t len = h->caplen, off = 0, n = 0;
		uint8_t proto = 0;

		if (dlt == DLT_EN10MB) {
			uint16_t et;

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
		const uint8_t *p = l4_payload(pkt + off, len - off, &n, &proto);

		if (!p || n > maxlen)
			continue;
		if (pl->len + n > pl->cap) {
			pl->cap = (pl->cap + n) * 2;
			pl->data = realloc(pl->data, pl->cap);
		}
		if (pl->n == pl->ncap) {
			pl->ncap = pl->ncap ? pl->ncap * 2 : 4096;
			pl->off = realloc(pl->off, pl->ncap * sizeof(*pl->off));
			pl->plen = realloc(pl->plen, pl->ncap * sizeof(*pl->plen));
			pl->proto = realloc(pl->proto, pl->ncap);
		}
		if (!pl->data || !pl->off || !pl->plen || !pl->proto) {
			pcap_close(pc);
			return -1;
		}
		memcpy(pl->data + pl->len, p, n);
		pl->off[pl->n] = (uint32_t)pl->len;
		pl->plen[pl->n] = (uint16_t)n;
		pl->proto[pl->n++] = proto;
		pl->len += n;
	}
	pcap_close(pc);
	return pl->n ? 0 : -1;
}

/* ---- the union automata, as detect/prefilter-gpu.c builds them ---- */

static MpmCtx *build_union(const DetectEngine *de, int pc, char *err, size_t errlen)
{
	const SigGroup *ts = &de->groups[pc][0], *tc = &de->groups[pc][1];
	MpmCtx *u;

	if (!ts->mpm && !tc->mpm)
		return NULL;
	u = mpm_new(MPM_AC_CUDA);
	if (!u || (ts->mpm && detect_gpu_union_add(u, detect_group_ac(ts), 0) != 0) ||
	    (tc->mpm && detect_gpu_union_add(u, detect_group_ac(tc), ts->mpm ? ts->npids : 0) != 0) ||
	    mpm_prepare(u, err, errlen) != 0) {
		if (!err[0])
			snprintf(err, errlen, "union automaton of class %d: out of memory", pc);
		mpm_free(u);
		return NULL;
	}
	return u;
}

/* ---- match records: an order-free multiset digest ---- */

struct digest {
	uint64_t n, sum, xr;
};

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

static void digest_add(struct digest *d, uint32_t payload, uint32_t id, uint32_t end)
{
	uint64_t h = mix(((uint64_t)payload << 32 | id) ^ mix((uint64_t)end + 0x9e3779b97f4a7c15ull));

	d->n++;
	d->sum += h;
	d->xr ^= mix(h);
}

/* (payload, id) pairs, collected, then sorted and made unique: the set. */
struct pairs {
	uint64_t *v;
	size_t n, cap;
};

static void pairs_add(struct pairs *p, uint32_t payload, uint32_t id)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 1 << 16;
		uint64_t *v = realloc(p->v, cap * sizeof(*v));

		if (!v) {
			fprintf(stderr, "kbench: out of memory\n");
			exit(2);
		}
		p->v = v;
		p->cap = cap;
	}
	p->v[p->n++] = (uint64_t)payload << 32 | id;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Digests the set and empties p. */
static void pairs_digest(struct pairs *p, struct digest *d)
{
	if (p->n)
		qsort(p->v, p->n, sizeof(*p->v), u64_cmp);
	for (size_t i = 0; i < p->n; i++)
		if (i == 0 || p->v[i] != p->v[i - 1])
			digest_add(d, (uint32_t)(p->v[i] >> 32), (uint32_t)p->v[i], 0);
	p->n = 0;
}

struct cpu_ctx {
	struct pairs *p;
	uint32_t payload;
};

static int cpu_cb(void *arg, uint32_t id, uint32_t end)
{
	struct cpu_ctx *c = arg;

	(void)end;
	pairs_add(c->p, c->payload, id);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n ? v[n / 2] : 0;
}

/* ---- the verify kernel ---- */

/* A device handle with the automata and the rule programs loaded. */
struct vdev {
	const AcDeviceOps *ops;
	AcDev *dev;
};

static int vdev_open(struct vdev *v, const AcDeviceOps *ops, const uint8_t *blk, uint64_t total,
		     const uint64_t *offs, const uint32_t *mlen, uint32_t nautos, const void *vblk,
		     size_t vsize, const struct acv_layout *lay, char *err, size_t errlen)
{
	v->ops = ops;
	v->dev = ops->load_verify ? ops->open(0, err, errlen) : NULL;
	if (!v->dev)
		return -1;
	if (ops->load(v->dev, blk, total, offs, mlen, nautos, err, errlen) != 0 ||
	    ops->load_verify(v->dev, vblk, vsize, lay, err, errlen) != 0) {
		ops->close(v->dev);
		v->dev = NULL;
		return -1;
	}
	return 0;
}

/* One filter + verify run of the batch: 0 with the pass set digested into
 * *d (and the match and pass record counts), or -1 with err. */
static int verify_run(const struct vdev *v, AcDevStream *s, const uint8_t *data,
		      uint32_t nbytes, const struct acc_desc *desc, uint32_t npay, uint32_t cap,
		      struct pairs *set, struct digest *d, uint32_t *nrec, uint32_t *npass,
		      AcDevTimes *tm, char *err, size_t errlen)
{
	const struct acc_rec *rec;
	uint32_t count = 0;

	if (v->ops->submit(s, data, nbytes, desc, npay, err, errlen) != 0 ||
	    v->ops->wait(s, &rec, &count, tm, err, errlen) != 0)
		return -1;
	if (count > cap) {
		snprintf(err, errlen, "record buffer overflow (%u > %u)", count, cap);
		return -1;
	}
	*nrec = count;
	*npass = 0;
	for (uint32_t i = 0; d && i < count; i++)
		if (rec[i].pat & ACV_PASS) {
			pairs_add(set, rec[i].payload, rec[i].pat & ~ACV_PASS);
			(*npass)++;
		}
	if (d)
		pairs_digest(set, d);
	return 0;
}

/* The filter kernel with verification on v, timed, its passes checked
 * against ref (the emulation; NULL: none). Returns 0, 1 (passes differ)
 * or 2 (device error). */
static int bench_verify(const struct vdev *v, const struct vdev *ref, const uint8_t *data,
			uint32_t nbytes, const struct acc_desc *desc, uint32_t npay, size_t occ,
			int reps, double tmax, double mb)
{
	uint32_t cap = (uint32_t)(4 * occ + 65536), nrec = 0, npass = 0, rrec, rpass;
	AcDevStreamSize sz = { nbytes ? nbytes : 1, npay ? npay : 1, cap };
	struct pairs set = { 0 };
	struct digest got = { 0 }, want = { 0 };
	double kern[MAX_REPS], start;
	char err[512] = "";
	int runs = 0, eq = 1, rc = 0;
	AcDevStream *s = v->ops->stream_new(v->dev, &sz, ACC_KERNEL_FILTER, 64, err, sizeof(err));
	AcDevStream *rs = ref ? ref->ops->stream_new(ref->dev, &sz, ACC_KERNEL_FILTER, 64, err,
						     sizeof(err)) : NULL;
	AcDevTimes tm;

	if (!s || (ref && !rs) ||
	    verify_run(v, s, data, nbytes, desc, npay, cap, &set, &got, &nrec, &npass, &tm, err,
		       sizeof(err)) != 0 ||
	    (rs && verify_run(ref, rs, data, nbytes, desc, npay, cap, &set, &want, &rrec, &rpass,
			      &tm, err, sizeof(err)) != 0)) {
		printf("KBENCH kernel=filter+verify batch_mb=%g error=\"%s\"\n", mb, err);
		rc = 2;
		goto out;
	}
	if (rs)
		eq = got.n == want.n && got.sum == want.sum && got.xr == want.xr;
	for (start = now(); runs < reps && now() - start <= tmax; runs++) {
		if (verify_run(v, s, data, nbytes, desc, npay, cap, &set, NULL, &nrec, &npass, &tm,
			       err, sizeof(err)) != 0) {
			printf("KBENCH kernel=filter+verify batch_mb=%g error=\"%s\"\n", mb, err);
			rc = 2;
			goto out;
		}
		kern[runs] = tm.kernel_ns / 1e9;
	}
	double km = runs ? median(kern, runs) : 0;

	printf("KBENCH kernel=filter+verify batch_mb=%g payloads=%u bytes=%u records=%u "
	       "passes=%llu runs=%d kernel_ms=%.3f kernel_gbps=%.2f equal=%s\n", mb, npay, nbytes,
	       nrec, (unsigned long long)got.n, runs, km * 1e3,
	       km > 0 ? nbytes * 8 / km / 1e9 : 0, !rs ? "n/a" : eq ? "yes" : "NO");
	rc = eq ? 0 : 1;
out:
	if (s)
		v->ops->stream_free(s);
	if (rs)
		ref->ops->stream_free(rs);
	free(set.v);
	return rc;
}

static void usage(void)
{
	fprintf(stderr, "usage: kbench [-e] [-c YAML] -S RULES -r PCAP [-s MB,MB,..] [-n REPS] "
		"[-t SECS] [-M MAXLEN]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *yaml = NULL, *rules = NULL, *pcap = NULL, *sizes_s = "1,16,50";
	double sizes[MAX_SIZES], tmax = 3.0;
	int emu = 0, reps = 10, nsizes = 0, bad = 0, opt;
	uint32_t maxlen = 1500;
	char err[1024] = "";

	while ((opt = getopt(argc, argv, "ec:S:r:s:n:t:M:")) != -1) {
		switch (opt) {
		case 'e': emu = 1; break;
		case 'c': yaml = optarg; break;
		case 'S': rules = optarg; break;
		case 'r': pcap = optarg; break;
		case 's': sizes_s = optarg; break;
		case 'n': reps = atoi(optarg); break;
		case 't': tmax = atof(optarg); break;
		case 'M': maxlen = (uint32_t)atoi(optarg); break;
		default: usage();
		}
	}
	if (!rules || !pcap || reps < 1 || maxlen < 1 || maxlen > 65535)
		usage();
	if (reps > MAX_REPS)
		reps = MAX_REPS;
	for (const char *s = sizes_s; s && *s && nsizes < MAX_SIZES; ) {
		sizes[nsizes] = atof(s);
		if (sizes[nsizes] <= 0 || sizes[nsizes] > 400)
			usage();
		nsizes++;
		s = strchr(s, ',');
		s = s ? s + 1 : NULL;
	}

	/* ---- device ---- */
	const AcDeviceOps *ops = emu ? accuda_emu_ops() : accuda_cuda_ops(err, sizeof(err));

	if (!ops) {
		printf("kbench: FAIL: %s\n", err);
		return 2;
	}
	if (emu)
		accuda_emu_set_threads((int)sysconf(_SC_NPROCESSORS_ONLN));
	if (ops->device_count(err, sizeof(err)) < 1) {
		printf("kbench: FAIL: %s\n", err);
		return 2;
	}
	AcDev *dev = ops->open(0, err, sizeof(err));

	if (!dev) {
		printf("kbench: FAIL: %s\n", err);
		return 2;
	}
	{
		char desc[256];

		ops->device_describe(0, desc, sizeof(desc));
		printf("kbench: device %s (ops %s%s)\n", desc, ops->name,
		       ops->emulation ? ": host EMULATION, not a GPU" : "");
	}

	/* ---- rules, engine, union automata ---- */
	double t0 = now();
	RuleLoadConfig rc = { 0 };
	DetectConfig dc;
	SigTable *t;
	DetectEngine *de;

	if (yaml && conf_load_file(yaml, err, sizeof(err)) != 0) {
		printf("kbench: FAIL: %s\n", err);
		return 2;
	}
	if (detect_config_load(&dc, err, sizeof(err)) != 0) {
		printf("kbench: FAIL: %s\n", err);
		return 2;
	}
	/* as with mpm-algo ac-cuda: class-wide groups, no port split */
	dc.algo = MPM_AC_CUDA;
	rc.exclusive = rules;
	rc.quiet = 1;
	t = sig_load(&rc, err, sizeof(err));
	if (!t || !(de = detect_engine_build(t, &dc, err, sizeof(err)))) {
		printf("kbench: FAIL: rules: %s\n", err);
		return 2;
	}
	MpmCtx *uni[PC_MAX] = { 0 };
	const AcAutomaton *autos[PC_MAX] = { 0 };
	int group_of[PC_MAX];
	uint32_t nautos = 0;

	for (int pc = 0; pc < PC_MAX; pc++) {
		group_of[pc] = -1;
		err[0] = 0;
		uni[pc] = build_union(de, pc, err, sizeof(err));
		if (!uni[pc] && err[0]) {
			printf("kbench: FAIL: %s\n", err);
			return 2;
		}
		if (uni[pc]) {
			group_of[pc] = (int)nautos;
			autos[nautos++] = mpm_ac_automaton(uni[pc]);
			printf("kbench: union automaton class %d: %u patterns, %u states, %zu KB\n",
			       pc, mpm_pattern_count(uni[pc]), autos[nautos - 1]->blk->nstates,
			       (size_t)(autos[nautos - 1]->blk->size >> 10));
		}
	}
	if (group_of[PC_TCP] < 0 && group_of[PC_UDP] < 0) {
		printf("kbench: FAIL: the rules have no tcp or udp payload fast pattern\n");
		return 2;
	}
	printf("kbench: %d rules loaded, engine and unions built in %.2f s\n", t->loaded,
	       now() - t0);

	/* one block, 256-byte aligned pieces, as ac-cuda uploads it */
	uint64_t offs[PC_MAX], total = 0;
	uint32_t mlen[PC_MAX];

	for (uint32_t g = 0; g < nautos; g++) {
		offs[g] = total;
		total += (autos[g]->blk->size + 255) & ~255ull;
		mlen[g] = autos[g]->blk->maxlen;
	}
	uint8_t *blk = calloc(1, total);

	if (!blk)
		return 2;
	for (uint32_t g = 0; g < nautos; g++)
		memcpy(blk + offs[g], autos[g]->blk, autos[g]->blk->size);
	if (ops->load(dev, blk, total, offs, mlen, nautos, err, sizeof(err)) != 0) {
		printf("kbench: FAIL: %s\n", err);
		return 2;
	}
	/* the rule programs, on a second handle (and the emulation's, the
	 * reference of the device's passes) */
	struct vdev vd = { 0 }, vref = { 0 };
	{
		VerifyBuild *vbld = verify_build_new();
		int32_t *prog_of = malloc((de->nsigs + 1) * sizeof(*prog_of));
		struct acv_layout lay;
		void *vblk = NULL;
		size_t vsize = 0;

		for (uint32_t i = 0; prog_of && i < de->nsigs; i++)
			prog_of[i] = -2;
		for (int pc = 0; vbld && prog_of && pc < PC_MAX; pc++)
			if (group_of[pc] >= 0 &&
			    detect_gpu_verify_union(de, pc, autos[group_of[pc]], (uint32_t)group_of[pc],
						    vbld, prog_of) != 0)
				break;
		if (!vbld || !prog_of || verify_build_finish(vbld, nautos, &vblk, &vsize, &lay) != 0 ||
		    vdev_open(&vd, ops, blk, total, offs, mlen, nautos, vblk, vsize, &lay, err,
			      sizeof(err)) != 0 ||
		    (!ops->emulation &&
		     vdev_open(&vref, accuda_emu_ops(), blk, total, offs, mlen, nautos, vblk, vsize,
			       &lay, err, sizeof(err)) != 0)) {
			printf("kbench: FAIL: rule programs: %s\n", err[0] ? err : "out of memory");
			return 2;
		}
		printf("kbench: %u rule programs, %zu KB\n", lay.nprog, vsize >> 10);
		free(vblk);
		free(prog_of);
		verify_build_free(vbld);
	}
	free(blk);

	/* ---- payloads ---- */
	struct payloads pl = { 0 };

	if (read_payloads(pcap, maxlen, &pl) != 0) {
		printf("kbench: FAIL: no TCP/UDP payloads in %s\n", pcap);
		return 2;
	}
	printf("kbench: %zu payloads of 1..%u bytes, %zu bytes, from %s\n", pl.n, maxlen,
	       pl.len, pcap);

	/* ---- per batch size ---- */
	for (int si = 0; si < nsizes; si++) {
		uint64_t want = (uint64_t)(sizes[si] * 1048576.0);
		uint32_t npay = 0, nbytes = 0, cap_pay = (uint32_t)(want / 32 + 16);
		uint8_t *data = ops->host_alloc(dev, want + 65536);
		struct acc_desc *desc = ops->host_alloc(dev, cap_pay * sizeof(*desc));
		struct digest ref = { 0 };
		struct pairs set = { 0 };

		if (!data || !desc) {
			printf("kbench: FAIL: pinned host memory for a %.3g MB batch\n", sizes[si]);
			return 2;
		}
		/* cyclic over the payloads whose class has a union */
		for (size_t i = 0; npay < cap_pay; i = (i + 1) % pl.n) {
			int pc = pl.proto[i] == 6 ? PC_TCP : PC_UDP;
			uint32_t n = pl.plen[i];

			if (group_of[pc] < 0)
				continue;
			if (nbytes + n > want)
				break;
			memcpy(data + nbytes, pl.data + pl.off[i], n);
			desc[npay].off = nbytes;
			desc[npay].len = (uint16_t)n;
			desc[npay].group = (uint16_t)group_of[pc];
			npay++;
			nbytes += n;
		}
		/* CPU reference: ac_search on the same automata */
		double c0 = now();

		for (uint32_t p = 0; p < npay; p++) {
			struct cpu_ctx cc = { &set, p };

			ac_search(autos[desc[p].group], data + desc[p].off, desc[p].len, cpu_cb, &cc);
		}
		double cpu_s = now() - c0;
		size_t occ = set.n;   /* every occurrence: the record buffer's size */

		pairs_digest(&set, &ref);
		for (int k = 0; k < ACC_KERNEL_COUNT; k++) {
			AcDevStreamSize sz = { nbytes ? nbytes : 1, npay ? npay : 1,
					       (uint32_t)(occ + 1024) };
			AcDevStream *s = ops->stream_new(dev, &sz, k, 64, err, sizeof(err));
			double kern[MAX_REPS], wall[MAX_REPS];
			int runs = 0, eq = -1;
			uint32_t count = 0;

			if (!s) {
				printf("KBENCH kernel=%s batch_mb=%g error=\"%s\"\n", kernel_name(k),
				       sizes[si], err);
				bad |= 2;
				continue;
			}
			double start = now();

			for (int r = -1; r < reps; r++) {
				const struct acc_rec *rec;
				AcDevTimes tm = { 0 };
				double w0 = now();

				if (ops->submit(s, data, nbytes, desc, npay, err, sizeof(err)) != 0 ||
				    ops->wait(s, &rec, &count, &tm, err, sizeof(err)) != 0) {
					printf("KBENCH kernel=%s batch_mb=%g error=\"%s\"\n",
					       kernel_name(k), sizes[si], err);
					bad |= 2;
					break;
				}
				double w = now() - w0;

				if (r < 0) {   /* the warm-up run is the one checked */
					struct digest got = { 0 };
					const struct ac_view *v;

					for (uint32_t i = 0; i < count && i < sz.max_records; i++) {
						v = &autos[desc[rec[i].payload].group]->v;
						pairs_add(&set, rec[i].payload, v->pat[rec[i].pat].id);
					}
					pairs_digest(&set, &got);
					eq = count <= sz.max_records && got.n == ref.n &&
					     got.sum == ref.sum && got.xr == ref.xr;
					continue;
				}
				kern[runs] = tm.kernel_ns / 1e9;
				wall[runs] = w;
				runs++;
				if (now() - start > tmax)
					break;
			}
			ops->stream_free(s);
			if (runs == 0)
				continue;
			double km = median(kern, runs), wm = median(wall, runs);

			printf("KBENCH kernel=%s batch_mb=%g payloads=%u bytes=%u records=%u "
			       "cpu_pairs=%llu runs=%d kernel_ms=%.3f kernel_gbps=%.2f "
			       "wall_ms=%.3f wall_gbps=%.2f cpu_gbps=%.2f equal=%s\n",
			       kernel_name(k), sizes[si], npay, nbytes, count,
			       (unsigned long long)ref.n, runs, km * 1e3,
			       km > 0 ? nbytes * 8 / km / 1e9 : 0, wm * 1e3,
			       wm > 0 ? nbytes * 8 / wm / 1e9 : 0,
			       cpu_s > 0 ? nbytes * 8 / cpu_s / 1e9 : 0, eq ? "yes" : "NO");
			if (!eq)
				bad |= 1;
		}
		/* the passes against the emulation's on the first size: the same
		 * code for every size, and the emulation is slow on big ones */
		bad |= bench_verify(&vd, vref.dev && si == 0 ? &vref : NULL, data, nbytes, desc, npay,
				    occ, reps, tmax, sizes[si]);
		ops->host_free(dev, data);
		ops->host_free(dev, desc);
		free(set.v);
	}
	for (int pc = 0; pc < PC_MAX; pc++)
		mpm_free(uni[pc]);
	ops->close(dev);
	ops->close(vd.dev);
	if (vref.dev)
		vref.ops->close(vref.dev);
	detect_engine_free(de);
	sig_table_free(t);
	conf_deinit();
	free(pl.data);
	free(pl.off);
	free(pl.plen);
	free(pl.proto);
	printf("kbench: %s (%d kernel variants%s)\n", bad ? "FAIL" : "PASS", ACC_KERNEL_COUNT,
	       bad & 2 ? ", device errors" : bad ? ", records differ from ac_search" : "");
	return bad & 2 ? 2 : bad;
}
