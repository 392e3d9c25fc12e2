/* The verify kernel's cost model: a MODEL of an H200, not a measurement.
 *
 * Input: what the engine's verify kernel saw, batch by batch, written by
 * the emulation (cuda.mpm.test-opts vdump=PATH): the rule programs, and
 * for each batch its payload bytes, descriptors and scan records. This
 * runs each record's programs with the very code the kernel compiles
 * (cuda/verify-kernel.h), counting its steps through the header's
 * ACV_T_STEP hooks, and lays the work out as two launches would (sms * 8
 * blocks of 256 threads, block b on SM b % SMs):
 *
 * - a warp per record (acv_kernel as it is): warp w takes record w; the
 *   steps run once for the warp (its lanes share the record, so its
 *   branches are uniform), a search's start positions in rounds of 32
 *   (acv_find_warp);
 * - a lane per record (the kernel before it): thread t takes record t, 32
 *   consecutive records a warp. A warp issues at least its longest lane's
 *   instructions (lockstep) and at most the sum over steps of its longest
 *   lane's count of that step (a diverged warp runs each path in turn).
 *
 * Instructions per step: the PTX of acv_kernel (vptx.py). Latency per
 * step: ASSUMED (below); a lane's chain is its steps' latencies, a warp's
 * its longest lane's. An SM's time is the larger of its warps' issue (4
 * schedulers, one instruction a cycle each) and its longest chain; the
 * kernel's, the slowest SM's, plus an ASSUMED launch cost.
 *
 *   vmodel [--weights "rec prog elem search pos cmp pass"] [-v] DUMP
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t lane_cnt[7];
/* warp-cooperative search (the --warp prediction): a find's start
 * positions taken 32 at a time, one coalesced load and a ballot each */
static uint32_t find_pos, warp_rounds;

static void vm_step(int kind)
{
	lane_cnt[kind]++;
	if (kind == 3 || kind == 0) {   /* ACV_TS_SEARCH, ACV_TS_REC: a new find */
		warp_rounds += (find_pos + 31) / 32;
		find_pos = 0;
	} else if (kind == 4) {         /* ACV_TS_POS */
		find_pos++;
	}
}
#define ACV_T_STEP(kind) vm_step(kind)
#include "verify-kernel.h"

/* H200 figures as model.c has them (model --figures); latencies ASSUMED:
 * shared 30, L1 35, L2 270 cycles. */
#define SMS 132
#define CLOCK_GHZ 1.98
#define ISSUE_PER_CYCLE 4.0
#define LAUNCH_US 5.0
#define BLOCKS_PER_SM 8      /* accuda-cuda.cu: sms * 8 blocks of 256 */
#define BLOCK_THREADS 256
#define BLOCK_WARPS (BLOCK_THREADS / 32)

static const char *const step_name[ACV_TS_N] = {
	"rec", "prog", "elem", "search", "pos", "cmp", "pass"
};
/* cycles each step waits for, at the least: a record's descriptor,
 * pattern table and program list (3 dependent L2 loads); a program's
 * header (L2); an element's step and a frame's bounds (L1); a start
 * position's and a compared byte's load (L1: the payload's lines are
 * shared by the warp's lanes of one payload); a pass record's atomic (L2) */
static const double step_lat[ACV_TS_N] = { 810, 270, 35, 35, 35, 35, 270 };
static double step_w[ACV_TS_N] = { 66, 83, 124, 97, 44, 14, 10 };  /* vptx.py, nvcc 13.0 */

struct part {
	uint64_t size;
	uint8_t *data;
};

static int read_part(FILE *f, struct part *p)
{
	if (fread(&p->size, sizeof(p->size), 1, f) != 1)
		return -1;
	p->data = malloc(p->size ? p->size : 1);
	if (!p->data || fread(p->data, 1, p->size, f) != p->size)
		return -1;
	return 0;
}

struct batch_cost {
	uint64_t id;           /* the emulation's batch number */
	uint64_t dev_pass;     /* the pass records the emulation wrote ('P') */
	int have_dev;
	uint32_t nrec, npay, nbytes;
	uint64_t progs, pass;
	uint64_t cnt[ACV_TS_N];
	uint64_t rounds;       /* warp-cooperative find rounds */
	double us_warp;        /* predicted: a warp per record */
	double lane_instr;     /* sum over lanes */
	double warp_lo, warp_hi;  /* sum over warps, lockstep and diverged */
	double us_lo, us_hi;   /* predicted kernel time */
	int bound_chain;       /* the slowest SM was latency-bound */
};

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void model_batch(const struct acv_block *vb, const struct acc_batch *b,
			const struct acc_rec *rec, uint32_t n, struct batch_cost *c)
{
	static double sm_lo[SMS], sm_hi[SMS], sm_chain[SMS], sm_wissue[SMS], sm_wchain[SMS];
	uint32_t sink_n = 0;
	struct acc_rec *out = malloc(sizeof(*out) * 1024);
	struct acc_sink k = { .rec = out, .count = &sink_n, .cap = 0 };

	memset(sm_lo, 0, sizeof(sm_lo));
	memset(sm_hi, 0, sizeof(sm_hi));
	memset(sm_chain, 0, sizeof(sm_chain));
	memset(sm_wissue, 0, sizeof(sm_wissue));
	memset(sm_wchain, 0, sizeof(sm_wchain));
	c->nrec = n;
	for (uint32_t w0 = 0; w0 < n; w0 += 32) {
		double lo = 0, chain = 0, hi = 0, kmax[ACV_TS_N] = { 0 };
		uint32_t blk = w0 / BLOCK_THREADS;
		uint32_t sm = blk % SMS;

		for (uint32_t i = w0; i < n && i < w0 + 32; i++) {
			double instr = 0, lat = 0;

			memset(lane_cnt, 0, sizeof(lane_cnt));
			find_pos = warp_rounds = 0;
			acv_verify_rec(b, vb, &rec[i], &k);
			warp_rounds += (find_pos + 31) / 32;
			find_pos = 0;
			c->rounds += warp_rounds;
			{
				/* a warp per record: the same steps, run once by the
				 * warp (uniform control flow), but a find's positions
				 * in rounds of 32 (plus a ballot's few instructions) */
				double wi = 0, wl = 0;

				for (int s = 0; s < ACV_TS_N; s++) {
					uint32_t n_s = lane_cnt[s];

					if (s == ACV_TS_POS)
						n_s = warp_rounds;
					wi += step_w[s] * n_s;
					wl += step_lat[s] * n_s;
				}
				/* warp i of the grid takes record i: its SM */
				uint32_t wsm = (i / BLOCK_WARPS) % SMS;

				sm_wissue[wsm] += wi;
				if (wl > sm_wchain[wsm])
					sm_wchain[wsm] = wl;
			}
			for (int s = 0; s < ACV_TS_N; s++) {
				instr += step_w[s] * lane_cnt[s];
				lat += step_lat[s] * lane_cnt[s];
				if (lane_cnt[s] > kmax[s])
					kmax[s] = lane_cnt[s];
				c->cnt[s] += lane_cnt[s];
			}
			c->lane_instr += instr;
			if (instr > lo)
				lo = instr;
			if (lat > chain)
				chain = lat;
		}
		for (int s = 0; s < ACV_TS_N; s++)
			hi += step_w[s] * kmax[s];
		c->warp_lo += lo;
		c->warp_hi += hi;
		sm_lo[sm] += lo;
		sm_hi[sm] += hi;
		if (chain > sm_chain[sm])
			sm_chain[sm] = chain;
	}
	c->progs = c->cnt[ACV_TS_PROG];
	c->pass = sink_n;
	{
		double worst_lo = 0, worst_hi = 0;

		for (int s = 0; s < SMS; s++) {
			double tlo = sm_lo[s] / ISSUE_PER_CYCLE, thi = sm_hi[s] / ISSUE_PER_CYCLE;

			if (sm_chain[s] > tlo)
				tlo = sm_chain[s];
			if (sm_chain[s] > thi)
				thi = sm_chain[s];
			if (tlo > worst_lo) {
				worst_lo = tlo;
				c->bound_chain = sm_chain[s] >= sm_lo[s] / ISSUE_PER_CYCLE;
			}
			if (thi > worst_hi)
				worst_hi = thi;
		}
		double worst_w = 0;

		for (int s = 0; s < SMS; s++) {
			double t = sm_wissue[s] / ISSUE_PER_CYCLE;

			if (sm_wchain[s] > t)
				t = sm_wchain[s];
			if (t > worst_w)
				worst_w = t;
		}
		c->us_warp = LAUNCH_US + worst_w / (CLOCK_GHZ * 1000.0);
		c->us_lo = LAUNCH_US + worst_lo / (CLOCK_GHZ * 1000.0);
		c->us_hi = LAUNCH_US + worst_hi / (CLOCK_GHZ * 1000.0);
	}
	free(out);
}

int main(int argc, char **argv)
{
	const char *path = NULL;
	int verbose = 0;
	FILE *f;
	char magic[6];
	struct acv_block vb = { 0 };
	struct acv_table *tabs = NULL;
	struct part lay = { 0 }, blk = { 0 };
	struct batch_cost *cost = NULL;
	uint32_t nb = 0, capb = 0, mismatch = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--weights") && i + 1 < argc) {
			if (sscanf(argv[++i], "%lf %lf %lf %lf %lf %lf %lf", &step_w[0], &step_w[1],
				   &step_w[2], &step_w[3], &step_w[4], &step_w[5], &step_w[6]) != 7) {
				fprintf(stderr, "vmodel: --weights wants 7 numbers\n");
				return 2;
			}
		} else if (!strcmp(argv[i], "-v")) {
			verbose = 1;
		} else {
			path = argv[i];
		}
	}
	if (!path) {
		fprintf(stderr, "usage: vmodel [--weights \"rec prog elem search pos cmp pass\"] [-v] DUMP\n");
		return 2;
	}
	f = fopen(path, "rb");
	if (!f || fread(magic, 1, 6, f) != 6 || memcmp(magic, "ACVD1\n", 6)) {
		fprintf(stderr, "vmodel: %s: not a vdump file\n", path);
		return 1;
	}
	for (;;) {
		int tag = fgetc(f);

		if (tag == EOF)
			break;
		if (tag == 'B') {
			const struct acv_layout *l;

			if (read_part(f, &lay) || read_part(f, &blk) || lay.size != sizeof(*l))
				goto corrupt;
			l = (const struct acv_layout *)lay.data;
			tabs = calloc(l->ngroups ? l->ngroups : 1, sizeof(*tabs));
			acv_block_init(&vb, blk.data, l,
				       (const struct acv_gtab *)(blk.data + l->off_gtab), tabs);
			vb.tab = tabs;
		} else if (tag == 'T') {
			struct part data, desc, rec, id;
			struct acc_batch b;

			if (read_part(f, &data) || read_part(f, &desc) || read_part(f, &rec) ||
			    read_part(f, &id) || id.size != 8 || !tabs)
				goto corrupt;
			if (nb == capb) {
				capb = capb ? 2 * capb : 256;
				cost = realloc(cost, capb * sizeof(*cost));
			}
			memset(&cost[nb], 0, sizeof(cost[nb]));
			b = (struct acc_batch){ .data = data.data,
						.desc = (const struct acc_desc *)desc.data,
						.npay = (uint32_t)(desc.size / sizeof(struct acc_desc)),
						.nbytes = (uint32_t)data.size };
			memcpy(&cost[nb].id, id.data, 8);
			free(id.data);
			cost[nb].npay = b.npay;
			cost[nb].nbytes = b.nbytes;
			model_batch(&vb, &b, (const struct acc_rec *)rec.data,
				    (uint32_t)(rec.size / sizeof(struct acc_rec)), &cost[nb]);
			nb++;
			free(data.data);
			free(desc.data);
			free(rec.data);
		} else if (tag == 'P') {
			/* the device's pass records of an earlier 'T' */
			struct part id, n;
			uint64_t want;

			if (read_part(f, &id) || read_part(f, &n) || id.size != 8 || n.size != 8)
				goto corrupt;
			memcpy(&want, id.data, 8);
			for (uint32_t i = nb; i > 0; i--) {
				if (cost[i - 1].id == want) {
					memcpy(&cost[i - 1].dev_pass, n.data, 8);
					cost[i - 1].have_dev = 1;
					break;
				}
			}
			free(id.data);
			free(n.data);
		} else {
			goto corrupt;
		}
	}
	fclose(f);
	if (!nb) {
		fprintf(stderr, "vmodel: %s: no batch\n", path);
		return 1;
	}
	{
		double *lo = malloc(nb * sizeof(double)), *hi = malloc(nb * sizeof(double));
		double *wp = malloc(nb * sizeof(double)), sum_w = 0;
		uint64_t rounds = 0;
		double sum_lo = 0, sum_hi = 0, lane = 0, wlo = 0, whi = 0;
		uint64_t recs = 0, progs = 0, pass = 0, pays = 0, bytes = 0, cnt[ACV_TS_N] = { 0 };
		uint32_t chain_bound = 0;

		for (uint32_t i = 0; i < nb; i++) {
			lo[i] = cost[i].us_lo;
			wp[i] = cost[i].us_warp;
			sum_w += wp[i];
			rounds += cost[i].rounds;
			hi[i] = cost[i].us_hi;
			sum_lo += lo[i];
			sum_hi += hi[i];
			recs += cost[i].nrec;
			progs += cost[i].progs;
			pass += cost[i].pass;
			pays += cost[i].npay;
			bytes += cost[i].nbytes;
			lane += cost[i].lane_instr;
			wlo += cost[i].warp_lo;
			whi += cost[i].warp_hi;
			chain_bound += cost[i].bound_chain;
			for (int s = 0; s < ACV_TS_N; s++)
				cnt[s] += cost[i].cnt[s];
			if (verbose)
				printf("batch %u: %u payloads %u bytes %u records %llu programs "
				       "%llu passed: %.1f-%.1f us\n", i, cost[i].npay, cost[i].nbytes,
				       cost[i].nrec, (unsigned long long)cost[i].progs,
				       (unsigned long long)cost[i].pass, lo[i], hi[i]);
		}
		/* the replay must be what the device (emulation) did */
		for (uint32_t i = 0; i < nb; i++) {
			if (!cost[i].have_dev) {
				fprintf(stderr, "vmodel: batch %llu: no pass count in the dump\n",
					(unsigned long long)cost[i].id);
				mismatch++;
			} else if (cost[i].dev_pass != cost[i].pass) {
				fprintf(stderr, "vmodel: batch %llu: %llu pass records replayed, "
					"the device wrote %llu\n", (unsigned long long)cost[i].id,
					(unsigned long long)cost[i].pass,
					(unsigned long long)cost[i].dev_pass);
				mismatch++;
			}
		}
		qsort(lo, nb, sizeof(double), cmp_dbl);
		qsort(hi, nb, sizeof(double), cmp_dbl);
		qsort(wp, nb, sizeof(double), cmp_dbl);
		printf("weights (PTX instructions per step):");
		for (int s = 0; s < ACV_TS_N; s++)
			printf(" %s %.0f", step_name[s], step_w[s]);
		printf("\nsteps per record:");
		for (int s = 0; s < ACV_TS_N; s++)
			printf(" %s %.2f", step_name[s], recs ? (double)cnt[s] / recs : 0);
		printf("\nbatches %u, payloads %llu, bytes %llu, scan records %llu (%.1f per batch), "
		       "programs %llu (%.2f per record), passed %llu (%.1f%%)\n", nb,
		       (unsigned long long)pays, (unsigned long long)bytes,
		       (unsigned long long)recs, (double)recs / nb, (unsigned long long)progs,
		       recs ? (double)progs / recs : 0, (unsigned long long)pass,
		       progs ? 100.0 * pass / progs : 0);
		printf("instructions per record: lane %.0f, warp lockstep %.0f, warp diverged %.0f "
		       "(SIMT efficiency %.0f%%-%.0f%%)\n", recs ? lane / recs : 0,
		       recs ? wlo * 32 / recs : 0, recs ? whi * 32 / recs : 0,
		       wlo ? 100.0 * lane / (wlo * 32) : 0, whi ? 100.0 * lane / (whi * 32) : 0);
		printf("predicted verify kernel per batch (us, incl. %.0f us launch):\n"
		       "  a lane per record: mean %.1f-%.1f, p50 %.1f-%.1f, p99 %.1f-%.1f, "
		       "max %.1f-%.1f; latency-bound in %u of %u batches\n", LAUNCH_US,
		       sum_lo / nb, sum_hi / nb,
		       lo[nb / 2], hi[nb / 2], lo[(uint32_t)(nb * 0.99)], hi[(uint32_t)(nb * 0.99)],
		       lo[nb - 1], hi[nb - 1], chain_bound, nb);
		printf("  a warp per record (acv_kernel; %.2f search rounds of 32 positions "
		       "per record): mean %.1f, p50 %.1f, p99 %.1f, max %.1f\n",
		       recs ? (double)rounds / recs : 0, sum_w / nb, wp[nb / 2],
		       wp[(uint32_t)(nb * 0.99)], wp[nb - 1]);
		printf("replay: %u of %u batches give the device's pass records\n", nb - mismatch, nb);
		free(lo);
		free(hi);
		free(wp);
	}
	return mismatch ? 1 : 0;
corrupt:
	fprintf(stderr, "vmodel: %s: truncated or corrupt\n", path);
	return 1;
}
