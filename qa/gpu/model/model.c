/* ac-cuda kernel cost model: a MODEL of the H200, not a measurement.
 *
 * Runs every kernel variant of cuda/ac-kernel.h on the CPU over real
 * payloads (the same scan functions the CUDA kernels run), checks that
 * each variant's (payload, pattern id) set equals ac_search's, and records
 * through the header's ACC_T_* hooks every step and load of every lane
 * (thread). Lanes are grouped into warps of 32 consecutive work items and
 * replayed in lockstep: at each warp step the step kind that most
 * unfinished lanes have next is issued, those lanes are active, the others
 * wait (divergence). Per warp step it counts distinct 32-byte sectors of
 * global memory (automaton, input, descriptors apart), shared-memory
 * wavefronts (bank conflicts: distinct words in one bank), atomics (one per
 * emitting lane, or one per warp step with warp-aggregated claims), output
 * bytes, and a dependent-latency chain. A simulated L1 (one SM's) splits
 * sectors into L1 hits and L2 traffic. The totals become times on the
 * resources in the table printed by --figures; the largest is the
 * predicted kernel time.
 *
 * usage: model [--ci] [--mb N] [--max-limit N] [--batch-mb N] PATTERNS.hex PAYLOADS.bin...
 *        model [--ci] [--mb N] --engine BATCH.acpg GROUP0.hex [GROUP1.hex...]
 *   PATTERNS.hex  one pattern per line, hex (qa/gpu/ac-proto/extract-patterns.py)
 *   PAYLOADS.bin  "ACPL" files (qa/gpu/ac-proto/extract-payloads.py)
 *   BATCH.acpg    engine-like descriptors and their groups (engine-batch.py)
 * Exit 1 when some variant's set differs from ac's, 2 on bad input.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpm/ac.h"

/* ---- per-lane traces (the hooks) ---- */

static void trace_step(int kind);
static void trace_ld(int cat, const void *p, uint32_t n);
static void trace_out(int aggregated);
static void trace_next(const struct ac_view *v, uint32_t st, uint8_t byte);

#define ACC_TRACE 1
#define ACC_T_STEP(kind) trace_step(kind)
#define ACC_T_LD(cat, ptr, n) trace_ld(cat, (const void *)(ptr), (uint32_t)(n))
#define ACC_T_NEXT(v, st, byte) trace_next(v, st, byte)
#define ACC_T_OUT(agg) trace_out(agg)
#define ACC_T_NOTE(what) trace_note(what)
static double notes[2];
static int walk_pending;  /* a walk starts: its first step pays the set-up */

static void trace_note(int what)
{
	notes[what]++;
	walk_pending |= what == 0;
}
#include "ac-kernel.h"

enum { CAT_CLS = 4, CAT_N = 5 };   /* + ACC_TC_*: cls[] reads, off the chain */

struct tacc {
	uint64_t addr;
	uint8_t cat, n;
};

struct tstep {
	uint32_t a0, na;
	uint8_t kind, out;
	uint8_t prev;   /* the lane's previous step kind (ACC_TS_N: none) */
	uint8_t start;  /* the first step of a walk */
};

struct lane {
	struct tstep *st;
	struct tacc *ac;
	uint32_t nst, cst, nac, cac;
};

static struct lane *cur;
static int tracing;

static void trace_step(int kind)
{
	struct lane *l = cur;

	if (!tracing)
		return;
	if (l->nst == l->cst) {
		l->cst = l->cst ? 2 * l->cst : 256;
		l->st = realloc(l->st, l->cst * sizeof(*l->st));
	}
	l->st[l->nst] = (struct tstep){ .a0 = l->nac, .na = 0, .kind = (uint8_t)kind,
					.prev = l->nst ? l->st[l->nst - 1].kind : ACC_TS_N,
					.start = kind == ACC_TS_WALK && walk_pending };
	l->nst++;
	if (kind == ACC_TS_WALK)
		walk_pending = 0;
}

/* Engine batches mix groups: the block has only the tables of its batch's
 * first payload's group in shared memory (accuda-cuda.cu); a filter-table
 * read inside another group's automaton block is a global load. */
static uintptr_t shm_lo, shm_hi;          /* the shared group's block */
static uintptr_t glob_lo[8], glob_hi[8];  /* every group's block */
static int nglob;

static void trace_ld(int cat, const void *p, uint32_t n)
{
	struct lane *l = cur;

	if (!tracing || !l->nst)
		return;
	if (cat == ACC_TC_FILT && nglob && !((uintptr_t)p >= shm_lo && (uintptr_t)p < shm_hi))
		for (int g = 0; g < nglob; g++)
			if ((uintptr_t)p >= glob_lo[g] && (uintptr_t)p < glob_hi[g])
				cat = ACC_TC_AUTO;
	if (l->nac == l->cac) {
		l->cac = l->cac ? 2 * l->cac : 1024;
		l->ac = realloc(l->ac, l->cac * sizeof(*l->ac));
	}
	l->ac[l->nac++] = (struct tacc){ .addr = (uint64_t)(uintptr_t)p, .cat = (uint8_t)cat,
					 .n = (uint8_t)n };
	l->st[l->nst - 1].na++;
}

static void trace_out(int how)
{
	if (tracing && cur->nst)
		cur->st[cur->nst - 1].out = (uint8_t)(1 + how);
}

/* The loads ac_next makes (src/mpm/ac.h's ac_step_class and
 * ac_first_onode), replayed: the engine's inline functions stay
 * untouched. Checked against ac_next itself. */
static void trace_next(const struct ac_view *v, uint32_t st, uint8_t byte)
{
	uint32_t s = st & AC_STATE_MASK, c = v->cls[byte];

	if (!tracing)
		return;
	trace_ld(CAT_CLS, &v->cls[byte], 1);
	while (s >= v->ndense) {
		uint32_t k = s - v->ndense, lo = v->child[k], hi = v->child[k + 1], hit = AC_NONE;

		trace_ld(ACC_TC_AUTO, &v->child[k], 8);
		if (c == 0) {
			s = 0;
			goto done;
		}
		if (hi - lo <= 4) {
			for (; lo < hi; lo++) {
				trace_ld(ACC_TC_AUTO, &v->scls[lo - v->ndense], 1);
				if (v->scls[lo - v->ndense] == c) {
					hit = lo;
					break;
				}
			}
		} else {
			while (lo < hi) {
				uint32_t mid = lo + (hi - lo) / 2, mc = v->scls[mid - v->ndense];

				trace_ld(ACC_TC_AUTO, &v->scls[mid - v->ndense], 1);
				if (mc == c) {
					hit = mid;
					break;
				}
				if (mc < c)
					lo = mid + 1;
				else
					hi = mid;
			}
		}
		if (hit != AC_NONE) {
			s = hit;
			goto done;
		}
		trace_ld(ACC_TC_AUTO, &v->fail[k], 4);
		s = v->fail[k];
	}
	trace_ld(ACC_TC_AUTO, v->width == 2 ? (const void *)&v->d16[((size_t)s << v->shift) + c]
					    : (const void *)&v->d32[((size_t)s << v->shift) + c],
		 v->width);
	s = ac_dense(v, s, c);
done:
	if (s >= v->matchlo)
		trace_ld(ACC_TC_AUTO, &v->mlink[s - v->matchlo], 4);
	if ((ac_next(v, st, byte) & AC_STATE_MASK) != s) {
		fprintf(stderr, "model: trace_next disagrees with ac_next\n");
		exit(3);
	}
}


/* ---- the H200 figures (see --figures for their sources) ---- */

static const double SMS = 132, CLOCK = 1.98e9;
static const double HBM_BPS = 4.3e12;     /* measured D2D here; datasheet 4.8e12 */
static const double L2_BPS = 5.5e12;      /* assumption, not verified: see --figures */
static const double L1_SECT_CLK = 4;      /* 128 B per clock per SM */
static const double SHM_WAVE_CLK = 1;     /* 32 banks x 4 B per clock per SM */
static const double ISSUE_CLK = 4;        /* warp instructions per clock per SM */
static const double ATOM_PS = 2.0e9;      /* assumption: same-address atomics per second */
static const double LAT_SHM = 30, LAT_L1 = 35, LAT_L2 = 270;   /* cycles, assumptions */
static const double L2_BYTES = 60e6;

/* Warp instructions per step: counted in the kernels' PTX by
 * ptx-count.py (ptx-steps.h; CI checks that it is current). A step's code
 * has branches; the warp runs each part that one of its active lanes
 * takes, so the parts are charged by what the lanes' traces show (see
 * step_instr). */
#include "ptx-steps.h"
static const char *const KIND[ACC_TS_N] = { "ac", "locate", "piece", "fvec", "fpos",
					    "walk", "emit", "run" };

/* ---- one SM's L1, sector granularity, 8-way LRU ---- */

struct l1 {
	uint64_t *tag;
	uint32_t sets, ways;
	uint64_t tick;
	uint64_t *age;
};

static void l1_init(struct l1 *c, uint32_t bytes)
{
	c->ways = 8;
	c->sets = bytes / 32 / c->ways;
	c->tag = calloc((size_t)c->sets * c->ways, 8);
	c->age = calloc((size_t)c->sets * c->ways, 8);
	c->tick = 0;
}

static int l1_access(struct l1 *c, uint64_t sector)
{
	uint32_t set = (uint32_t)((sector * 0x9e3779b97f4a7c15ull) >> 40) % c->sets;
	uint64_t *t = c->tag + (size_t)set * c->ways, *a = c->age + (size_t)set * c->ways;
	uint32_t lru = 0;

	c->tick++;
	for (uint32_t w = 0; w < c->ways; w++) {
		if (t[w] == sector + 1) {
			a[w] = c->tick;
			return 1;
		}
		if (a[w] < a[lru])
			lru = w;
	}
	t[lru] = sector + 1;
	a[lru] = c->tick;
	return 0;
}

/* ---- warp replay ---- */

struct stats {
	double wsteps[ACC_TS_N], lsteps[ACC_TS_N];
	double sectors[CAT_N], l1miss[CAT_N], shm_waves;
	double atomics, records, outbytes, chain, instr, kinstr[ACC_TS_N];
	double warps;
};

/* Warp scheduling: 0 issues the step kind that most unfinished lanes
 * have next (close to an ideal reconvergence, optimistic); 1 ("minpc")
 * the kind earliest in program order among them (a common SIMT heuristic:
 * the lanes furthest behind go first, the others wait). */
static int sched_minpc;
/* program order of the step kinds, earliest first */
static const int PC[ACC_TS_N] = {
	[ACC_TS_LOCATE] = 0, [ACC_TS_PIECE] = 1, [ACC_TS_AC] = 2, [ACC_TS_FVEC] = 3,
	[ACC_TS_FPOS] = 4, [ACC_TS_WALK] = 5, [ACC_TS_EMIT] = 6, [ACC_TS_RUN] = 7,
};

/* Instructions the warp issues for step kind k of its active lanes act[]:
 * the PTX count of each part of the step's code that some lane runs, as
 * its trace shows (which loads it made, what came before). */
static double step_instr(int k, int filter, struct lane *L, const int *act, int na,
			 const uint32_t *pos)
{
	int any_quad = 0, any_walk1 = 0, any_walk = 0, any_start = 0, any_dedup = 0;
	int any_run64 = 0, any_fvec = 0;
	uint32_t sparse = 0, probes = 0;

	for (int i = 0; i < na; i++) {
		const struct lane *ln = &L[act[i]];
		const struct tstep *t = &ln->st[pos[act[i]]];
		const struct tacc *x = ln->ac + t->a0;
		uint32_t sp = 0, pr = 0;

		switch (k) {
		case ACC_TS_FVEC:
			/* the first load of a run of 64 positions comes before the
			 * loop (acc_filter_run's prologue) */
			if (t->prev == ACC_TS_FVEC || t->prev == ACC_TS_FPOS)
				any_fvec = 1;
			else
				any_run64 = 1;
			break;
		case ACC_TS_FPOS:
			/* pair map, one-byte map, and the prefix hash when taken */
			any_quad |= t->na >= 3;
			break;
		case ACC_TS_WALK:
			/* a one-byte literal reads cls[] first, a walk step its
			 * input byte; acc_goto on a sparse state reads child[]
			 * (8 bytes), then one scls[] byte per probe */
			if (t->na && x[0].cat == ACC_TC_FILT) {
				any_walk1 = 1;
				break;
			}
			any_walk = 1;
			any_start |= t->start;
			if (t->na >= 3 && x[2].cat == ACC_TC_AUTO && x[2].n == 8)
				for (uint32_t a = 3; a < t->na && x[a].cat == ACC_TC_AUTO && x[a].n == 1; a++)
					sp++;
			break;
		case ACC_TS_EMIT:
			/* filter: the pair-table probes are 8-byte shared loads */
			for (uint32_t a = 0; a < t->na; a++)
				pr += x[a].cat == ACC_TC_FILT && x[a].n == 8;
			any_dedup |= pr > 0 || t->out;
			break;
		case ACC_TS_AC:
			/* ac_next: one child[] read per sparse state visited */
			for (uint32_t a = 0; a < t->na; a++)
				sp += x[a].cat == ACC_TC_AUTO && x[a].n == 8;
			break;
		}
		if (sp > sparse)
			sparse = sp;
		if (pr > probes)
			probes = pr;
	}
	switch (k) {
	case ACC_TS_FVEC:
		return any_fvec * PTX_FVEC + any_run64 * PTX_RUN64;
	case ACC_TS_FPOS:
		return PTX_FPOS + any_quad * PTX_FQUAD;
	case ACC_TS_WALK:
		return any_walk1 * PTX_WALK1 + any_walk * PTX_WALK + any_start * PTX_WSTART +
		       sparse * PTX_WSPARSE;
	case ACC_TS_RUN:
		return PTX_RUN;
	case ACC_TS_EMIT:
		if (!filter)
			return PTX_ACEMIT;
		return PTX_EMIT + any_dedup * PTX_STAGE + probes * PTX_PROBE;
	case ACC_TS_AC:
		return PTX_AC + sparse * PTX_ACSPARSE;
	case ACC_TS_LOCATE:
		return PTX_LOCATE;
	case ACC_TS_PIECE:
		return PTX_PIECE;
	}
	return 0;
}

static void sim_warp(struct lane *L, int n, int filter, struct stats *S, struct l1 *c)
{
	uint32_t pos[32] = { 0 };

	for (;;) {
		int cnt[ACC_TS_N] = { 0 }, k = -1, act[32], na = 0;

		for (int l = 0; l < n; l++)
			if (pos[l] < L[l].nst)
				cnt[L[l].st[pos[l]].kind]++;
		for (int i = 0; i < ACC_TS_N; i++)
			if (cnt[i] && (k < 0 || (sched_minpc ? PC[i] < PC[k] : cnt[i] > cnt[k])))
				k = i;
		if (k < 0)
			break;
		for (int l = 0; l < n; l++)
			if (pos[l] < L[l].nst && L[l].st[pos[l]].kind == k)
				act[na++] = l;
		S->wsteps[k]++;
		S->lsteps[k] += na;

		double ins = step_instr(k, filter, L, act, na, pos);

		S->instr += ins;
		S->kinstr[k] += ins;

		/* loads: slot by slot (the i-th load of each active lane is one
		 * instruction for the warp) */
		uint32_t maxna = 0, nout = 0, ntype[3] = { 0 };
		double lat[32] = { 0 };

		for (int i = 0; i < na; i++) {
			const struct tstep *t = &L[act[i]].st[pos[act[i]]];

			if (t->na > maxna)
				maxna = t->na;
			nout += t->out != 0;
			if (t->out)
				ntype[t->out - 1]++;
		}
		for (uint32_t a = 0; a < maxna; a++) {
			uint64_t sec[64];
			uint32_t nsec[CAT_N] = { 0 }, words[32][8], nw[32] = { 0 };
			uint64_t seen[CAT_N][64];

			(void)sec;
			for (int i = 0; i < na; i++) {
				const struct lane *ln = &L[act[i]];
				const struct tstep *t = &ln->st[pos[act[i]]];

				if (a >= t->na)
					continue;
				const struct tacc *x = &ln->ac[t->a0 + a];

				if (x->cat == ACC_TC_FILT) {
					uint32_t w = (uint32_t)(x->addr >> 2), b = w & 31, dup = 0;

					for (uint32_t j = 0; j < nw[b]; j++)
						dup |= words[b][j] == w;
					if (!dup && nw[b] < 8)
						words[b][nw[b]++] = w;
					lat[i] += LAT_SHM;
					continue;
				}
				for (uint64_t s0 = x->addr >> 5; s0 <= (x->addr + x->n - 1) >> 5; s0++) {
					uint32_t dup = 0;

					for (uint32_t j = 0; j < nsec[x->cat]; j++)
						dup |= seen[x->cat][j] == s0;
					int hit = dup ? 1 : l1_access(c, s0);

					if (!dup && nsec[x->cat] < 64) {
						seen[x->cat][nsec[x->cat]++] = s0;
						S->sectors[x->cat]++;
						S->l1miss[x->cat] += !hit;
					}
					if (x->cat == ACC_TC_AUTO || x->cat == ACC_TC_DESC)
						lat[i] += hit ? LAT_L1 : LAT_L2;
				}
			}
			uint32_t waves = 0;

			for (int b = 0; b < 32; b++)
				if (nw[b] > waves)
					waves = nw[b];
			S->shm_waves += waves;
		}
		/* the dependent chain: walks and automaton steps wait on their
		 * loads; filter positions are independent (unrolled) */
		double m = 0;

		for (int i = 0; i < na; i++)
			if (lat[i] > m)
				m = lat[i];
		if (k == ACC_TS_FPOS || k == ACC_TS_FVEC)
			m = 4;
		S->chain += m + ins;
		if (nout) {
			/* out 1: a lane's own global atomic (payload, chunk); 2:
			 * warp-aggregated global; 3: warp-aggregated in the block's
			 * shared staging area (one global atomic per tile, below) */
			S->records += nout;
			S->atomics += ntype[0] + (ntype[1] ? 1 : 0);
			S->shm_waves += ntype[2] ? 1 : 0;
			S->outbytes += 12.0 * nout;
		}
		for (int i = 0; i < na; i++)
			pos[act[i]]++;
	}
	S->warps++;
}

/* ---- inputs ---- */

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b = NULL;
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

struct pset {
	struct ac_pattern *p;
	uint8_t *bytes;
	uint32_t n, nb;
};

static int load_patterns(const char *path, struct pset *ps)
{
	size_t len;
	uint8_t *t = slurp(path, &len);

	if (!t)
		return -1;
	ps->p = calloc(len / 2 + 1, sizeof(*ps->p));
	ps->bytes = malloc(len / 2 + 1);
	for (size_t i = 0; i < len;) {
		uint32_t start = ps->nb;

		while (i + 1 < len && t[i] != '\n') {
			unsigned v;

			if (sscanf((const char *)t + i, "%2x", &v) != 1)
				break;
			ps->bytes[ps->nb++] = (uint8_t)v;
			i += 2;
		}
		while (i < len && t[i] != '\n')
			i++;
		i++;
		if (ps->nb > start && ps->nb - start < 65536) {
			/* extract-patterns.py folds: every pattern is caseless */
			ps->p[ps->n] = (struct ac_pattern){ .id = ps->n + 1, .off = start,
							    .len = (uint16_t)(ps->nb - start),
							    .nocase = 1 };
			ps->n++;
		} else {
			ps->nb = start;
		}
	}
	free(t);
	return 0;
}

struct payloads {
	const uint8_t **p;
	uint32_t *len;
	uint32_t n;
};

static int load_payloads(const char *path, struct payloads *pl)
{
	size_t len;
	uint8_t *t = slurp(path, &len);
	uint32_t cnt;

	if (!t || len < 8 || memcmp(t, "ACPL", 4) != 0)
		return -1;
	memcpy(&cnt, t + 4, 4);
	if (8 + (size_t)cnt * 4 > len)
		return -1;
	pl->p = realloc(pl->p, (pl->n + cnt) * sizeof(*pl->p));
	pl->len = realloc(pl->len, (pl->n + cnt) * sizeof(*pl->len));
	size_t off = 8 + (size_t)cnt * 4;

	for (uint32_t i = 0; i < cnt; i++) {
		uint32_t l;

		memcpy(&l, t + 8 + 4 * i, 4);
		if (off + l > len)
			return -1;
		pl->p[pl->n] = t + off;
		pl->len[pl->n++] = l;
		off += l;
	}
	return 0;   /* t stays: the payloads point into it */
}

/* ---- sets ---- */

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

/* ---- variants ---- */

struct variant {
	const char *name;
	int kernel;
	uint32_t chunk;
	size_t dense;        /* dense budget of the automaton it walks */
	int warps_per_sm;    /* resident, from the ptxas report (see --figures) */
	uint32_t l1_bytes;   /* L1 left beside the shared memory in use */
	uint32_t block;      /* threads per block; filter: its tile, the pair table's life */
};

#define DEDUP_SLOTS ACC_DEDUP_SLOTS
#define STAGE_RECS ACC_STAGE_RECS

static const struct variant variants[] = {
	{ "payload", ACC_KERNEL_PAYLOAD, 0, AC_DENSE_BUDGET_DEFAULT, 64, 224 << 10, 256 },
	{ "chunk/64", ACC_KERNEL_CHUNK, 64, AC_DENSE_BUDGET_DEFAULT, 64, 224 << 10, 256 },
	{ "filter/64", ACC_KERNEL_FILTER, 64, AC_DENSE_BUDGET_DEFAULT, 32, 53 << 10, ACC_FILTER_TILE },
	{ "filter/128", ACC_KERNEL_FILTER, 128, AC_DENSE_BUDGET_DEFAULT, 32, 53 << 10, ACC_FILTER_TILE },
	{ "filter/256", ACC_KERNEL_FILTER, 256, AC_DENSE_BUDGET_DEFAULT, 32, 53 << 10, ACC_FILTER_TILE },
	{ "filter/64+d16M", ACC_KERNEL_FILTER, 64, 16u << 20, 32, 53 << 10, ACC_FILTER_TILE },
};

#define NVAR (sizeof(variants) / sizeof(variants[0]))

static void figures(void)
{
	puts("H200 figures the model uses (a model, not a measurement):\n"
	     "  132 SMs, 60 MB L2              /work/.library/device/KINDS.md (PyTorch on an H200 here, 2026-10-28)\n"
	     "  1.98 GHz SM clock              KINDS.md: 1980 MHz read under load (nvidia-smi); boost, not base\n"
	     "  HBM 4.3 TB/s                   KINDS.md: D2D copy measured here (read+write); datasheet 4.8 TB/s (H200.md)\n"
	     "  4 warp instructions/clk/SM     Hopper SM: 4 sub-partitions, 1 warp instruction each per clock\n"
	     "  shared: 32 banks x 4 B/clk/SM  HOPPER.md (32 banks of 4 bytes); conflicts = distinct words per bank\n"
	     "  L1: 128 B/clk/SM (4 sectors)   ~33 TB/s aggregate, consistent with 132 x 1.98 GHz x 128 B\n"
	     "  L2 5.5 TB/s                    ASSUMPTION, not verified: the order of public H100 measurements (e.g.\n"
	     "                                 chipsandcheese.com, 'Nvidia's H100: Funny L2, and Tons of Bandwidth',\n"
	     "                                 2023, H100 PCIe); this session did not read the figure. Not binding here\n"
	     "  latency: shared 30, L1 35,     ASSUMPTION, not verified (the order of public Hopper microbenchmarks);\n"
	     "  L2 270 cycles                  to be measured on the device\n"
	     "  2.0 G atomics/s on one counter ASSUMPTION (about one same-address atomic per L2 clock)\n"
	     "  resident warps/SM              from nvcc 13 -Xptxas -v, sm_90: payload 27 regs, chunk 31 regs (64 warps);\n"
	     "                                 filter 64 regs, 100.5 KB shared/block at 512 threads (2 blocks: 32 warps)\n"
	     "  instructions per step          counted in the PTX (nvcc " PTX_NVCC ", sm_90) by ptx-count.py,\n"
	     "                                 ptx-steps.h; static counts, each part of a step charged when a\n"
	     "                                 lane's trace shows it (model.c step_instr). PTX, not SASS");
	printf("  PTX instructions per step: fvec %.0f, fpos %.0f (+%.1f prefix hash), run64 %.0f, walk %.0f\n"
	       "    (+%.0f set-up, +%.0f per sparse probe), one-byte literal %.0f, run %.0f, emit %.1f\n"
	       "    (+%.0f record, +%.1f per pair-table probe), piece %.0f, locate %.0f; chunk: ac %.0f\n"
	       "    (+%.1f per sparse state), emit %.1f\n",
	       PTX_FVEC, PTX_FPOS, PTX_FQUAD, PTX_RUN64, PTX_WALK, PTX_WSTART, PTX_WSPARSE,
	       PTX_WALK1, PTX_RUN, PTX_EMIT, PTX_STAGE, PTX_PROBE, PTX_PIECE, PTX_LOCATE, PTX_AC,
	       PTX_ACSPARSE, PTX_ACEMIT);
}

/* ---- engine-like batches (--engine) ----
 *
 * The batches the engine makes (engine-batch.py: each TCP payload twice,
 * its packet view with the TCP class union and its stream view behind up
 * to 255 context bytes with the stream automaton; UDP payloads with the
 * UDP union; payloads up to 64 KiB), cut as the engine cuts them: a
 * worker's window of N payloads (the per-worker design) or B bytes (the
 * single-RX design). Each batch is one launch of the filter kernel as
 * accuda-cuda.cu makes it: min(tiles, 2 per SM) blocks of 512 windows,
 * the tables of the first payload's group in shared memory, the others'
 * read from global memory. Its time is the largest of: each resource over
 * the SMs the launch uses, the longest chain of one warp slot (a block
 * runs its tiles one after another), plus the blocks' copy of the tables
 * into shared memory. Launch and copy figures beside it are assumptions. */

static const double LAUNCH_US = 5.0;      /* ASSUMPTION: launch + record + sync per batch */
static const double PCIE_BPS = 50e9;      /* ASSUMPTION: pinned Gen5 x16, a scale figure */

struct engine_in {
	uint32_t n;
	uint32_t *len;
	uint16_t *group, *view;
	const uint8_t **p;
};

static int load_acpg(const char *path, struct engine_in *e)
{
	size_t len;
	uint8_t *t = slurp(path, &len);

	if (!t || len < 8 || memcmp(t, "ACPG", 4) != 0)
		return -1;
	memcpy(&e->n, t + 4, 4);
	if (8 + (size_t)e->n * 8 > len)
		return -1;
	e->len = malloc(e->n * sizeof(*e->len));
	e->group = malloc(e->n * sizeof(*e->group));
	e->view = malloc(e->n * sizeof(*e->view));
	e->p = malloc(e->n * sizeof(*e->p));
	size_t off = 8 + (size_t)e->n * 8;

	for (uint32_t i = 0; i < e->n; i++) {
		memcpy(&e->len[i], t + 8 + 8 * i, 4);
		memcpy(&e->group[i], t + 12 + 8 * i, 2);
		memcpy(&e->view[i], t + 14 + 8 * i, 2);
		if (off + e->len[i] > len || e->len[i] > 65535)
			return -1;
		e->p[i] = t + off;
		off += e->len[i];
	}
	return 0;
}

struct shape {
	const char *name;
	uint32_t payloads;   /* cut at this many payloads (0: by bytes) */
	double bytes;        /* cut at this many bytes (0: by payloads) */
};

/* One launch of the filter kernel over descriptors [d0, d1). */
struct launch {
	struct stats S;
	double max_slot_chain, tab_bytes;
	uint32_t blocks, nb, np, pairs_ok;
};

static struct launch run_launch(const struct engine_in *e, uint32_t d0, uint32_t d1,
				AcAutomaton *const *ga, AcAutomaton *const *cpu, int ng,
				uint8_t *data, struct acc_desc *desc, struct refc *ref)
{
	struct launch R = { 0 };
	uint32_t nb = 0, np = 0;

	for (uint32_t i = d0; i < d1; i++) {
		memcpy(data + nb, e->p[i], e->len[i]);
		desc[np++] = (struct acc_desc){ .off = nb, .len = (uint16_t)e->len[i],
						.group = e->group[i] };
		nb += e->len[i];
	}
	R.nb = nb;
	R.np = np;
	/* the reference set: ac_search with each payload's group */
	ref->n = 0;
	for (uint32_t p = 0; p < np; p++) {
		ref->p = p;
		ac_search(cpu[desc[p].group], data + desc[p].off, desc[p].len, ref_cb, ref);
	}
	uint32_t nref = uniq(ref->v, ref->n);

	struct acc_group grp[8];

	for (int g = 0; g < ng; g++)
		grp[g] = (struct acc_group){ .v = ga[g]->v, .maxlen = ga[g]->blk->maxlen };
	struct acc_batch b = { .data = data, .desc = desc, .groups = grp, .npay = np,
			       .nbytes = nb, .chunk = 64 };
	uint32_t rcap = 4 * nb + 1024, count = 0;
	struct acc_rec *rec = malloc((size_t)rcap * sizeof(*rec));
	struct acc_sink k = { .rec = rec, .count = &count, .cap = rcap };
	uint32_t sg = desc[0].group;
	const AcAutomaton *a = ga[sg];
	static unsigned long long dslot[DEDUP_SLOTS];
	static struct acc_rec srec[STAGE_RECS];
	uint32_t stage_n = 0;
	struct acc_ftab sh = { .cls = a->v.cls, .gpair = a->v.gpair, .gsid = a->v.gsid,
			       .gquad = a->v.gquad, .group = sg,
			       .dedup = { dslot, DEDUP_SLOTS - 1 },
			       .stage = { srec, &stage_n, STAGE_RECS } };
	uint32_t qw = a->v.gquadbits >= 5 ? 1u << (a->v.gquadbits - 5) : 1;
	uint32_t items = acc_items(&b, ACC_KERNEL_FILTER);
	uint32_t tiles = (items + ACC_FILTER_TILE - 1) / ACC_FILTER_TILE;
	uint32_t grid = (uint32_t)SMS * 2;
	uint32_t blocks = tiles < grid ? tiles : grid;
	uint32_t wpb = ACC_FILTER_TILE / 32;
	double *slot = calloc((size_t)blocks * wpb, sizeof(double));
	struct lane L[32] = { 0 };
	struct l1 c;

	shm_lo = (uintptr_t)a->blk;
	shm_hi = shm_lo + a->blk->size;
	nglob = ng;
	for (int g = 0; g < ng; g++) {
		glob_lo[g] = (uintptr_t)ga[g]->blk;
		glob_hi[g] = glob_lo[g] + ga[g]->blk->size;
	}
	l1_init(&c, 53 << 10);
	tracing = 1;
	for (uint32_t w0 = 0; w0 < items; w0 += 32) {
		int n = items - w0 < 32 ? (int)(items - w0) : 32;
		uint32_t tile = w0 / ACC_FILTER_TILE;

		if (w0 % ACC_FILTER_TILE == 0) {
			if (stage_n) {
				acc_stage_copy(&sh.stage, &k, count, 0, 1);
				count += stage_n < STAGE_RECS ? stage_n : STAGE_RECS;
				R.S.atomics++;
			}
			stage_n = 0;
			memset(dslot, 0xff, sizeof(dslot));
		}
		for (int l = 0; l < n; l++) {
			cur = &L[l];
			L[l].nst = L[l].nac = 0;
			acc_scan_filter(&b, &k, w0 + l, &sh);
		}
		double ch0 = R.S.chain;

		sim_warp(L, n, 1, &R.S, &c);
		/* block tile % blocks runs this tile, its warp slot w0 / 32 % wpb */
		slot[(size_t)(tile % blocks) * wpb + (w0 / 32) % wpb] += R.S.chain - ch0;
	}
	tracing = 0;
	if (stage_n) {
		acc_stage_copy(&sh.stage, &k, count, 0, 1);
		count += stage_n < STAGE_RECS ? stage_n : STAGE_RECS;
		R.S.atomics++;
	}
	for (uint32_t i = 0; i < blocks * wpb; i++)
		if (slot[i] > R.max_slot_chain)
			R.max_slot_chain = slot[i];
	R.blocks = blocks;
	R.tab_bytes = (4096 + qw + 128) * 4.0;
	/* the set */
	uint64_t *got = malloc(((size_t)count + 1) * sizeof(*got));
	uint32_t ngot = 0;

	for (uint32_t r = 0; count <= rcap && r < count; r++)
		got[ngot++] = (uint64_t)rec[r].payload << 32 |
			      ga[desc[rec[r].payload].group]->v.pat[rec[r].pat].id;
	uint32_t nu = uniq(got, ngot);

	R.pairs_ok = count <= rcap && nu == nref && memcmp(got, ref->v, (size_t)nref * 8) == 0;
	free(got);
	free(rec);
	free(slot);
	free(c.tag);
	free(c.age);
	for (int l = 0; l < 32; l++) {
		free(L[l].st);
		free(L[l].ac);
	}
	nglob = 0;
	return R;
}

/* Modelled device time of one launch, in seconds, and its parts. */
static double launch_time(const struct launch *R, double *t_kernel, double *t_tab,
			  double *t_thru, const char **bound)
{
	const struct stats *S = &R->S;
	double sms = R->blocks < SMS ? R->blocks : SMS;
	double gsect = 0, l2b = 0;

	for (int i = 0; i < CAT_N; i++) {
		if (i == ACC_TC_FILT)
			continue;
		gsect += S->sectors[i];
		l2b += 32 * S->l1miss[i];
	}
	double t_issue = S->instr / (ISSUE_CLK * sms * CLOCK);
	double t_shm = S->shm_waves / (SHM_WAVE_CLK * sms * CLOCK);
	double t_l1 = gsect / (L1_SECT_CLK * sms * CLOCK);
	double t_l2 = (l2b + R->blocks * R->tab_bytes) / L2_BPS;
	double t_hbm = (R->nb + R->np * 8.0 + S->outbytes) / HBM_BPS;
	double t_atom = S->atomics / ATOM_PS;
	double resident = R->blocks * (ACC_FILTER_TILE / 32.0);
	double t_lat = S->chain / ((resident < 32 * SMS ? resident : 32 * SMS) * CLOCK);
	double t_slot = R->max_slot_chain / CLOCK;
	double t = t_issue;

	*bound = "issue";
#define MAXB(x, name) do { if ((x) > t) { t = (x); *bound = name; } } while (0)
	MAXB(t_shm, "shared");
	MAXB(t_l1, "L1");
	MAXB(t_l2, "L2");
	MAXB(t_hbm, "HBM");
	MAXB(t_atom, "atomics");
	MAXB(t_lat, "latency");
	*t_thru = t;
	MAXB(t_slot, "one warp");
#undef MAXB
	/* each block first copies the tables: dependent global loads, one
	 * per 512 words per thread, at L2 latency (an upper bound) */
	*t_tab = R->tab_bytes / 4 / ACC_FILTER_TILE * LAT_L2 / CLOCK;
	*t_kernel = t;
	return t + *t_tab;
}

static int engine_main(const char *acpg, double sample_mb, char **pfiles, int ng)
{
	struct engine_in e = { 0 };
	AcAutomaton *ga[8] = { 0 }, *cpu[8] = { 0 };
	char err[256];

	if (ng < 1 || ng > 8) {
		fprintf(stderr, "model: --engine needs 1 to 8 group pattern files\n");
		return 2;
	}
	if (load_acpg(acpg, &e) < 0 || !e.n) {
		fprintf(stderr, "model: cannot read %s (engine-batch.py writes it)\n", acpg);
		return 2;
	}
	for (int g = 0; g < ng; g++) {
		struct pset ps = { 0 };
		struct ac_opts go = AC_OPTS_DEFAULT, co = AC_OPTS_DEFAULT;

		if (load_patterns(pfiles[g], &ps) < 0 || !ps.n) {
			fprintf(stderr, "model: cannot read patterns from %s\n", pfiles[g]);
			return 2;
		}
		go.gpu_lists = 1;
		ga[g] = ac_build_opts(ps.p, ps.n, ps.bytes, &go, err, sizeof(err));
		cpu[g] = ac_build_opts(ps.p, ps.n, ps.bytes, &co, err, sizeof(err));
		if (!ga[g] || !cpu[g]) {
			fprintf(stderr, "model: %s\n", err);
			return 2;
		}
		printf("model: group %d: %u patterns, block %.1f MB\n", g, ps.n, ga[g]->blk->size / 1e6);
	}
	/* the sample: the first sample_mb of descriptors, in capture order */
	uint32_t nd = 0, big = 0, views[2] = { 0 };
	double bytes = 0;

	for (; nd < e.n && bytes + e.len[nd] <= sample_mb * 1e6; nd++) {
		if (e.group[nd] >= ng) {
			fprintf(stderr, "model: descriptor %u names group %u\n", nd, e.group[nd]);
			return 2;
		}
		bytes += e.len[nd];
		big += e.len[nd] > 1500;
		views[e.view[nd] ? 1 : 0]++;
	}
	printf("model: engine sample: %u payloads (%u packet views, %u stream views, %u over 1500 "
	       "bytes), %.1f MB\n", nd, views[0], views[1], big, bytes / 1e6);

	static const struct shape shapes[] = {
		/* one worker's window, alone in its launch */
		{ "window 100 payloads", 100, 0 },
		{ "window 1000 payloads", 1000, 0 },
		/* 14 workers' windows in one launch (a dispatcher merging) */
		{ "14 x 100 payloads", 1400, 0 },
		{ "14 x 1000 payloads", 14000, 0 },
		/* the single-RX design's batches (issue 34: p50 12.6 MB) */
		{ "12.6 MB (one RX thread)", 0, 12.6e6 },
	};
	uint8_t *data = aligned_alloc(64, ((size_t)bytes + 4096 + 63) & ~(size_t)63);
	struct acc_desc *desc = malloc((size_t)(nd + 1) * sizeof(*desc));
	struct refc ref = { 0 };
	int bad = 0;

	printf("\n%-24s %7s %8s %8s %7s %7s %8s %9s %7s %7s %8s %8s  %s\n", "batch", "batches",
	       "pay/bat", "KB/bat", "blocks", "instr", "thru", "kernel", "tables", "+launch", "Gbit/s",
	       "Gbit/s", "bound");
	printf("%-24s %7s %8s %8s %7s %7s %8s %9s %7s %7s %8s %8s\n", "", "", "", "", "/batch", "/B",
	       "us", "us/batch", "us", "+copy us", "kernel", "device");
	for (size_t si = 0; si < sizeof(shapes) / sizeof(shapes[0]); si++) {
		const struct shape *sp = &shapes[si];
		double tk = 0, ttab = 0, tdev = 0, tb = 0, tp = 0, blk = 0, instr = 0, tthru = 0;
		uint32_t nbat = 0, nbound[8] = { 0 };
		const char *bnames[8] = { 0 };

		for (uint32_t d0 = 0; d0 < nd;) {
			uint32_t d1 = d0;
			double bb = 0;

			while (d1 < nd && (sp->payloads ? d1 - d0 < sp->payloads
							 : bb + e.len[d1] <= sp->bytes || d1 == d0))
				bb += e.len[d1++];
			/* the sample's last batch, cut short by its end: left out
			 * when a full one was modelled */
			if (d1 == nd && nbat && (sp->payloads ? d1 - d0 < sp->payloads
							      : bb < 0.9 * sp->bytes))
				break;
			struct launch R = run_launch(&e, d0, d1, ga, cpu, ng, data, desc, &ref);
			double k, t, th;
			const char *bn;
			double dev = launch_time(&R, &k, &t, &th, &bn);

			if (!R.pairs_ok) {
				printf("model: FAIL: batch %u of '%s': the set differs from ac_search's\n",
				       nbat, sp->name);
				bad = 1;
			}
			/* device time of the batch: launch, H2D of bytes and
			 * descriptors, kernel, D2H of the records */
			dev += LAUNCH_US * 1e-6 + (R.nb + R.np * 8.0) / PCIE_BPS +
			       12.0 * R.S.records / PCIE_BPS;
			tk += k;
			tthru += th;
			ttab += t;
			tdev += dev;
			tb += R.nb;
			tp += R.np;
			blk += R.blocks;
			instr += R.S.instr;
			for (int j = 0; j < 8; j++)
				if (!bnames[j] || !strcmp(bnames[j], bn)) {
					bnames[j] = bn;
					nbound[j]++;
					break;
				}
			nbat++;
			d0 = d1;
		}
		int jb = 0;

		for (int j = 1; j < 8; j++)
			if (nbound[j] > nbound[jb])
				jb = j;
		printf("%-24s %7u %8.0f %8.0f %7.1f %7.2f %8.1f %9.1f %7.1f %7.1f %8.0f %8.0f  %s\n",
		       sp->name, nbat, tp / nbat, tb / nbat / 1024, blk / nbat, instr / tb,
		       tthru / nbat * 1e6,
		       tk / nbat * 1e6, ttab / nbat * 1e6, (tdev - tk - ttab) / nbat * 1e6,
		       8 * tb / tk / 1e9, 8 * tb / tdev / 1e9, bnames[jb]);
	}
	printf("\nthru: the largest resource time over the SMs the launch uses (issue, shared, L1, L2,\n"
	       "HBM, atomics, latency over its resident warps); kernel: that, or one warp slot's\n"
	       "dependent chain (its tiles one after another) when longer; tables: each block's copy\n"
	       "of its group's filter tables into shared memory (dependent loads at L2 latency, an upper\n"
	       "bound); +launch +copy: %.0f us per launch and PCIe at %.0f GB/s each way (ASSUMPTIONS);\n"
	       "device Gbit/s: bytes over the sum of all of it, one batch at a time on one stream.\n"
	       "PREDICTED by a model of the H200 (model --figures), not measured.\n",
	       LAUNCH_US, PCIE_BPS / 1e9);
	for (int g = 0; g < ng; g++) {
		ac_free(ga[g]);
		ac_free(cpu[g]);
	}
	if (bad)
		printf("model: FAIL: some batch's (payload, id) set differs from ac_search's\n");
	return bad;
}

int main(int argc, char **argv)
{
	double sample_mb = 8, batch_mb = 50, iscale = 1;
	uint32_t max_limit = 1500;
	int ci = 0, ai = 1, verbose = 0;
	const char *engine = NULL;

	for (; ai < argc && argv[ai][0] == '-'; ai++) {
		if (!strcmp(argv[ai], "--ci"))
			ci = 1, sample_mb = 1;
		else if (!strcmp(argv[ai], "--mb") && ai + 1 < argc)
			sample_mb = atof(argv[++ai]);
		else if (!strcmp(argv[ai], "--batch-mb") && ai + 1 < argc)
			batch_mb = atof(argv[++ai]);
		else if (!strcmp(argv[ai], "--sched") && ai + 1 < argc)
			sched_minpc = !strcmp(argv[++ai], "minpc");
		else if (!strcmp(argv[ai], "--instr-scale") && ai + 1 < argc)
			iscale = atof(argv[++ai]);
		else if (!strcmp(argv[ai], "--max-limit") && ai + 1 < argc)
			max_limit = (uint32_t)atoi(argv[++ai]);
		else if (!strcmp(argv[ai], "-v"))
			verbose = 1;
		else if (!strcmp(argv[ai], "--engine") && ai + 1 < argc)
			engine = argv[++ai];
		else if (!strcmp(argv[ai], "--figures")) {
			figures();
			return 0;
		} else {
			fprintf(stderr, "model: unknown option %s\n", argv[ai]);
			return 2;
		}
	}
	(void)ci;
	if (engine)
		return engine_main(engine, sample_mb, argv + ai, argc - ai);
	if (argc - ai < 2) {
		fprintf(stderr, "usage: model [--ci] [--mb N] [--batch-mb N] [--max-limit N] [--instr-scale X] [--sched majority|minpc] [-v] "
				"PATTERNS.hex PAYLOADS.bin...\n       model [--ci] [--mb N] --engine BATCH.acpg GROUP.hex...\n       model --figures\n");
		return 2;
	}
	struct pset ps = { 0 };
	struct payloads pl = { 0 };

	if (load_patterns(argv[ai], &ps) < 0 || ps.n == 0) {
		fprintf(stderr, "model: cannot read patterns from %s\n", argv[ai]);
		return 2;
	}
	for (int i = ai + 1; i < argc; i++)
		if (load_payloads(argv[i], &pl) < 0) {
			fprintf(stderr, "model: cannot read payloads from %s\n", argv[i]);
			return 2;
		}

	/* the batch: payloads the engine would send (1..max-limit bytes),
	 * back to back in capture order, cyclically up to the sample size */
	uint32_t cap = (uint32_t)(sample_mb * 1e6), nb = 0, np = 0, maxp = cap / 1 + 1;
	uint8_t *data = aligned_alloc(64, ((size_t)cap + 4096 + 63) & ~(size_t)63);
	struct acc_desc *desc = malloc((size_t)maxp * sizeof(*desc));
	uint32_t eligible = 0;

	for (uint32_t i = 0; i < pl.n; i++)
		eligible += pl.len[i] >= 1 && pl.len[i] <= max_limit && pl.len[i] <= 65535;
	if (!eligible) {
		fprintf(stderr, "model: no payload of 1..%u bytes\n", max_limit);
		return 2;
	}
	for (uint32_t i = 0; nb < cap; i = (i + 1) % pl.n) {
		uint32_t l = pl.len[i];

		if (l < 1 || l > max_limit || l > 65535)
			continue;
		if (nb + l > cap)
			break;
		memcpy(data + nb, pl.p[i], l);
		desc[np++] = (struct acc_desc){ .off = nb, .len = (uint16_t)l, .group = 0 };
		nb += l;
	}
	printf("model: %u patterns, %u payloads (%u bytes, max-limit %u) in the sample batch\n",
	       ps.n, np, nb, max_limit);

	/* the reference: ac_search per payload, with the CPU's default build */
	char err[256];
	struct ac_opts o = AC_OPTS_DEFAULT;
	AcAutomaton *cpu = ac_build_opts(ps.p, ps.n, ps.bytes, &o, err, sizeof(err));
	struct refc ref = { 0 };

	if (!cpu) {
		fprintf(stderr, "model: %s\n", err);
		return 2;
	}
	for (uint32_t p = 0; p < np; p++) {
		ref.p = p;
		ac_search(cpu, data + desc[p].off, desc[p].len, ref_cb, &ref);
	}
	uint32_t nref_occ = ref.n, nref = uniq(ref.v, ref.n);

	printf("model: ac_search: %u occurrences (%.0f per KB), %u (payload, id) pairs\n",
	       nref_occ, nref_occ / (nb / 1024.0), nref);

	int disagree = 0;
	AcAutomaton *built[NVAR] = { 0 };

	printf("\n%-16s %6s %6s %6s %6s %7s %7s %7s %6s %7s %6s %8s  %s\n", "variant", "auto", "input",
	       "filt", "L2", "atom", "rec", "steps", "active", "dup", "equal", "Gbit/s", "bound");
	printf("%-16s %6s %6s %6s %6s %7s %7s %7s %6s %7s %6s %8s\n", "", "sec/B", "sec/B",
	       "wav/B", "B/B", "/KB", "/KB", "/B", "lanes", "rec/pr", "", "(model)");
	for (size_t vi = 0; vi < NVAR; vi++) {
		const struct variant *V = &variants[vi];
		AcAutomaton *a = NULL;

		for (size_t j = 0; j < vi; j++)
			if (built[j] && variants[j].dense == V->dense)
				a = built[j];
		if (!a) {
			struct ac_opts go = AC_OPTS_DEFAULT;

			go.dense_budget = V->dense;
			go.gpu_lists = 1;
			a = ac_build_opts(ps.p, ps.n, ps.bytes, &go, err, sizeof(err));
			if (!a) {
				fprintf(stderr, "model: %s\n", err);
				return 2;
			}
			built[vi] = a;
		}
		struct acc_group grp = { .v = a->v, .maxlen = a->blk->maxlen };
		struct acc_batch b = { .data = data, .desc = desc, .groups = &grp, .npay = np,
				       .nbytes = nb, .chunk = V->chunk ? V->chunk : 64 };
		uint32_t rcap = 4 * nb + 1024, count = 0;
		struct acc_rec *rec = malloc((size_t)rcap * sizeof(*rec));
		struct acc_sink k = { .rec = rec, .count = &count, .cap = rcap };
		uint32_t qw = a->v.gquadbits >= 5 ? 1u << (a->v.gquadbits - 5) : 1;
		static unsigned long long dslot[DEDUP_SLOTS];
		static struct acc_rec srec[STAGE_RECS];
		uint32_t stage_n = 0;
		struct acc_ftab sh = { .cls = a->v.cls, .gpair = a->v.gpair, .gsid = a->v.gsid,
				       .gquad = a->v.gquad, .group = 0,
				       .dedup = { dslot, DEDUP_SLOTS - 1 },
				       .stage = { srec, &stage_n, STAGE_RECS } };
		struct stats S = { 0 };
		struct l1 c;
		struct lane L[32] = { 0 };
		uint32_t items = acc_items(&b, V->kernel);

		/* the shared-memory copies only change where the tables are;
		 * the model reads them in place and counts them as shared */
		l1_init(&c, V->l1_bytes);
		notes[0] = notes[1] = 0;
		tracing = 1;
		for (uint32_t w0 = 0; w0 < items; w0 += 32) {
			int n = items - w0 < 32 ? (int)(items - w0) : 32;

			/* a new tile: the block flushes its staged records (one
			 * global atomic) and clears its pair table */
			if (w0 % V->block == 0) {
				if (stage_n) {
					uint32_t nst = stage_n < STAGE_RECS ? stage_n : STAGE_RECS;

					acc_stage_copy(&sh.stage, &k, count, 0, 1);
					count += nst;
					S.atomics++;
				}
				stage_n = 0;
				memset(dslot, 0xff, sizeof(dslot));
			}
			for (int l = 0; l < n; l++) {
				cur = &L[l];
				L[l].nst = L[l].nac = 0;
				if (V->kernel == ACC_KERNEL_FILTER)
					acc_scan_filter(&b, &k, w0 + l, &sh);
				else
					acc_run_item(&b, &k, V->kernel, w0 + l);
			}
			sim_warp(L, n, V->kernel == ACC_KERNEL_FILTER, &S, &c);
		}
		tracing = 0;
		if (stage_n) {
			acc_stage_copy(&sh.stage, &k, count, 0, 1);
			count += stage_n < STAGE_RECS ? stage_n : STAGE_RECS;
			S.atomics++;
		}
		for (int l = 0; l < 32; l++) {
			free(L[l].st);
			free(L[l].ac);
		}
		/* the set */
		int eq = count <= rcap;
		uint64_t *got = malloc(((size_t)count + 1) * sizeof(*got));
		uint32_t ng = 0;

		for (uint32_t r = 0; eq && r < count; r++)
			got[ng++] = (uint64_t)rec[r].payload << 32 | a->v.pat[rec[r].pat].id;
		uint32_t nu = eq ? uniq(got, ng) : 0;

		eq = eq && nu == nref && memcmp(got, ref.v, (size_t)nref * 8) == 0;
		if (!eq)
			disagree = 1;
		free(got);
		free(rec);
		free(c.tag);
		free(c.age);

		/* times on each resource, for a batch of batch_mb */
		double B = nb, scale = batch_mb * 1e6 / B;
		double gsect = 0, l2b = 0, steps = 0, lanes = 0, ws = 0;

		for (int i = 0; i < CAT_N; i++) {
			if (i == ACC_TC_FILT)
				continue;
			gsect += S.sectors[i];
			l2b += 32 * S.l1miss[i];
		}
		for (int i = 0; i < ACC_TS_N; i++) {
			lanes += S.lsteps[i];
			ws += S.wsteps[i];
		}
		steps = S.lsteps[ACC_TS_AC] + S.lsteps[ACC_TS_WALK];
		double shm_tab = V->kernel == ACC_KERNEL_FILTER ? (4096 + qw + 129) * 4.0 : 0;
		double blocks = SMS * (V->warps_per_sm * 32.0 / V->block);
		double t_issue = iscale * S.instr * scale / (ISSUE_CLK * SMS * CLOCK);
		double t_shm = S.shm_waves * scale / (SHM_WAVE_CLK * SMS * CLOCK);
		double t_l1 = gsect * scale / (L1_SECT_CLK * SMS * CLOCK);
		double t_l2 = (l2b * scale + blocks * shm_tab) / L2_BPS;
		double t_hbm = (B + np * 8.0 + S.outbytes) * scale / HBM_BPS;
		double t_atom = S.atomics * scale / ATOM_PS;
		double t_lat = (S.chain + (iscale - 1) * S.instr) * scale /
			       (V->warps_per_sm * SMS * CLOCK);
		double t = t_issue;
		const char *bound = "issue";

#define MAXT(x, name) do { if ((x) > t) { t = (x); bound = name; } } while (0)
		MAXT(t_shm, "shared");
		MAXT(t_l1, "L1");
		MAXT(t_l2, "L2");
		MAXT(t_hbm, "HBM");
		MAXT(t_atom, "atomics");
		MAXT(t_lat, "latency");
		double gbps = 8 * batch_mb * 1e6 / t / 1e9;

		printf("%-16s %6.3f %6.3f %6.3f %6.2f %7.1f %7.1f %7.3f %5.0f%% %7.2f %6s %8.0f  %s\n",
		       V->name, S.sectors[ACC_TC_AUTO] / B + S.sectors[CAT_N - 1] / B,
		       S.sectors[ACC_TC_INPUT] / B, S.shm_waves / B, l2b / B,
		       S.atomics / (B / 1024), S.records / (B / 1024), steps / B,
		       100.0 * lanes / (32.0 * ws), nu ? S.records / nu : 0, eq ? "yes" : "NO",
		       gbps, bound);
		if (verbose) {
			printf("    times (us per %.0f MB): issue %.1f shared %.1f L1 %.1f L2 %.1f HBM %.1f "
			       "atomics %.1f latency %.1f; automaton block %.1f MB%s\n", batch_mb,
			       t_issue * 1e6, t_shm * 1e6, t_l1 * 1e6, t_l2 * 1e6, t_hbm * 1e6,
			       t_atom * 1e6, t_lat * 1e6, a->blk->size / 1e6,
			       a->blk->size > L2_BYTES ? " (larger than L2!)" : "");
			printf("    warp steps/B:");
			for (int i = 0; i < ACC_TS_N; i++)
				if (S.wsteps[i])
					printf(" %s %.4f (%.0f%% lanes)", KIND[i], S.wsteps[i] / B,
					       100.0 * S.lsteps[i] / (32.0 * S.wsteps[i]));
			printf("\n    instructions/B (PTX counts):");
			for (int i = 0; i < ACC_TS_N; i++)
				if (S.kinstr[i])
					printf(" %s %.2f", KIND[i], S.kinstr[i] / B);
			printf(" (total %.2f)", S.instr / B);
			printf("\n    walks started: %.1f%% of positions, starts skipped in runs: %.1f%%\n",
			       100 * notes[0] / B, 100 * notes[1] / B);
			printf("    desc sec/B %.4f, L1 hit %.0f%%, records %.0f for %u pairs\n",
			       S.sectors[ACC_TC_DESC] / B,
			       100.0 * (1 - (l2b / 32) / (gsect ? gsect : 1)), S.records, nu);
		}
	}
	printf("\nsec/B: distinct 32-byte sectors per input byte (automaton incl. cls, input);"
	       " wav/B: shared-memory wavefronts (filter tables);\nL2 B/B: L2 bytes per input byte"
	       " after a simulated %s L1; atom, rec: atomics and records per KB; steps: automaton"
	       " or walk steps per byte;\nactive lanes: mean over warp steps; dup: records per"
	       " (payload, id) pair; equal: the set equals ac_search's.\n"
	       "Gbit/s: PREDICTED by a model of the H200 (model --figures), not measured.\n",
	       "8-way");
	for (size_t j = 0; j < NVAR; j++)
		ac_free(built[j]);
	ac_free(cpu);
	if (disagree)
		printf("model: FAIL: some variant's (payload, id) set differs from ac_search's\n");
	return disagree ? 1 : 0;
}
