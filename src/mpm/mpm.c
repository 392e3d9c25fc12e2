/* MPM front end: the builder (pattern copy and de-duplication), algorithm
 * choice, and dispatch to ac (src/mpm/ac.c) or hs (src/mpm/hs.c). */
#include "config.h"

#define _GNU_SOURCE   /* qsort_r */

#include "mpm/mpm.h"
#include "mpm/head.h"
#include "mpm/hs.h"
#include "mpm/runs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct MpmCtx {
	enum mpm_algo algo;
	int prepared;
	/* builder: patterns reference their bytes in `bytes` */
	struct ac_pattern *pats;
	uint32_t npats, cap;
	uint8_t *bytes;
	size_t nbytes, bytes_cap;
	uint32_t max_id;
	uint32_t max_len;
	int sets_only;              /* serves mpm_prefilter (mpm_set_sets_only) */
	/* sets-only ac/hs: the bounded patterns (mpm_add_pattern_bounded),
	 * their bytes in `bytes` too, each with its bound; found apart, at
	 * the starts their bounds allow (mpm/head.h) */
	struct ac_pattern *hpats;
	uint32_t *hbound;
	uint32_t nhpats, hcap;
	MpmHead *head;
	/* sets-only hs: the run literals (mpm/runs.h), found apart */
	MpmRuns *runs;
	/* compiled */
	AcAutomaton *ac;
#ifdef HAVE_HYPERSCAN
	MpmHs *hs;
#endif
};

struct MpmScratch {
	enum mpm_algo algo;
	void *hs;       /* hs_scratch_t * */
};

/* GPU lists on by default: src/mpm/ac-cuda.c walks them, and takes
 * automata from plain ac contexts too. */
static struct ac_opts ac_opts = { AC_DENSE_BUDGET_DEFAULT, -1, 0, 1 };

/* ---- algorithm names ---- */

int mpm_have_hs(void)
{
#ifdef HAVE_HYPERSCAN
	return 1;
#else
	return 0;
#endif
}

int mpm_algo_parse(const char *name, enum mpm_algo *out)
{
	if (!name)
		return -1;
	if (strcmp(name, "ac") == 0) {
		*out = MPM_AC;
		return 0;
	}
	if (strcmp(name, "ac-cuda") == 0) {
		/* whether a GPU is there is for the ac-cuda code to say */
		*out = MPM_AC_CUDA;
		return 0;
	}
	if (strcmp(name, "hs") == 0) {
		if (!mpm_have_hs())
			return -1;
		*out = MPM_HS;
		return 0;
	}
	if (strcmp(name, "auto") == 0) {
		*out = mpm_have_hs() ? MPM_HS : MPM_AC;
		return 0;
	}
	return -1;
}

const char *mpm_algo_error(const char *name)
{
	if (name && strcmp(name, "hs") == 0 && !mpm_have_hs())
		return MPM_NO_HS_MSG;
	return "invalid mpm algo supplied in the yaml conf file (use ac, hs, auto or ac-cuda)";
}

const char *mpm_algo_name(enum mpm_algo algo)
{
	switch (algo) {
	case MPM_AC:
		return "ac";
	case MPM_HS:
		return "hs";
	case MPM_AC_CUDA:
		return "ac-cuda";
	}
	return "unknown";
}

void mpm_set_ac_dense_budget(size_t bytes)
{
	ac_opts.dense_budget = bytes;
}

void mpm_set_ac_filter(int mode)
{
	ac_opts.filter = mode < 0 ? -1 : mode > 0;
}

void mpm_set_ac_width(int width)
{
	ac_opts.width = width == 4 ? 4 : 0;
}

void mpm_set_ac_gpu_lists(int on)
{
	ac_opts.gpu_lists = on != 0;
}

/* ---- builder ---- */

void mpm_set_sets_only(MpmCtx *ctx)
{
	ctx->sets_only = 1;
}

MpmCtx *mpm_new(enum mpm_algo algo)
{
	MpmCtx *ctx;

	if (algo != MPM_AC && algo != MPM_HS && algo != MPM_AC_CUDA)
		return NULL;
	if (algo == MPM_HS && !mpm_have_hs())
		return NULL;
	ctx = calloc(1, sizeof(*ctx));
	if (ctx)
		ctx->algo = algo;
	return ctx;
}

/* Appends a pattern (its bytes copied into ctx->bytes) to the list *v of
 * *n, capacity *cap; with bv, its bound to that parallel list. */
static int append_pattern(MpmCtx *ctx, struct ac_pattern **v, uint32_t **bv, uint32_t *n,
			  uint32_t *cap, const uint8_t *pat, uint16_t len, uint32_t id, int nocase,
			  uint32_t bound)
{
	if (*n == *cap) {
		uint32_t ncap = *cap ? *cap * 2 : 64;
		struct ac_pattern *np;

		if (ncap < *cap)
			return -1;
		np = realloc(*v, sizeof(*np) * ncap);
		if (!np)
			return -1;
		*v = np;
		if (bv) {
			uint32_t *nbv = realloc(*bv, sizeof(*nbv) * ncap);

			if (!nbv)
				return -1;
			*bv = nbv;
		}
		*cap = ncap;
	}
	if (ctx->nbytes + len > ctx->bytes_cap) {
		size_t ncap = ctx->bytes_cap ? ctx->bytes_cap * 2 : 1024;
		uint8_t *nb;

		while (ncap < ctx->nbytes + len)
			ncap *= 2;
		/* offsets are uint32_t in the flat tables */
		if (ncap > UINT32_MAX) {
			ncap = UINT32_MAX;
			if (ctx->nbytes + len > ncap)
				return -1;
		}
		nb = realloc(ctx->bytes, ncap);
		if (!nb)
			return -1;
		ctx->bytes = nb;
		ctx->bytes_cap = ncap;
	}
	memcpy(ctx->bytes + ctx->nbytes, pat, len);
	if (bv)
		(*bv)[*n] = bound;
	(*v)[(*n)++] = (struct ac_pattern){
		.id = id,
		.off = (uint32_t)ctx->nbytes,
		.len = len,
		.nocase = nocase ? 1 : 0,
	};
	ctx->nbytes += len;
	if (id > ctx->max_id)
		ctx->max_id = id;
	if (len > ctx->max_len)
		ctx->max_len = len;
	return 0;
}

int mpm_add_pattern(MpmCtx *ctx, const uint8_t *pat, uint16_t len, uint32_t id,
		    int nocase)
{
	if (!ctx || ctx->prepared || !pat || len == 0)
		return -1;
	return append_pattern(ctx, &ctx->pats, NULL, &ctx->npats, &ctx->cap, pat, len, id,
			      nocase, 0);
}

int mpm_add_pattern_bounded(MpmCtx *ctx, const uint8_t *pat, uint16_t len, uint32_t id,
			    int nocase, uint32_t bound)
{
	if (!ctx || ctx->prepared || !ctx->sets_only || ctx->algo == MPM_AC_CUDA || bound == 0 ||
	    bound > MPM_HEAD_MAX || bound < len)
		return mpm_add_pattern(ctx, pat, len, id, nocase);
	/* one that may start far into the head is probed at every start
	 * before it: the matcher finds it cheaper */
	if (bound - len > MPM_HEAD_REACH)
		return mpm_add_pattern(ctx, pat, len, id, nocase);
	if (!pat || len == 0)
		return -1;
	return append_pattern(ctx, &ctx->hpats, &ctx->hbound, &ctx->nhpats, &ctx->hcap, pat, len,
			      id, nocase, bound);
}

/* Order for de-duplication: (id, len, folded bytes), nocase first, then
 * the exact bytes. Within a run of equal (id, len, folded bytes) a nocase
 * pattern covers everything after it. */
static int cmp_dedup(const void *x, const void *y, void *arg)
{
	const MpmCtx *ctx = arg;
	const struct ac_pattern *a = x, *b = y;
	const uint8_t *pa = ctx->bytes + a->off, *pb = ctx->bytes + b->off;

	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	if (a->len != b->len)
		return (int)a->len - (int)b->len;
	for (uint32_t i = 0; i < a->len; i++) {
		int d = (int)mpm_fold(pa[i]) - (int)mpm_fold(pb[i]);

		if (d)
			return d;
	}
	if (a->nocase != b->nocase)
		return (int)b->nocase - (int)a->nocase;
	return memcmp(pa, pb, a->len);
}

static int same_folded(const MpmCtx *ctx, const struct ac_pattern *a,
		       const struct ac_pattern *b)
{
	if (a->id != b->id || a->len != b->len)
		return 0;
	for (uint32_t i = 0; i < a->len; i++)
		if (mpm_fold(ctx->bytes[a->off + i]) != mpm_fold(ctx->bytes[b->off + i]))
			return 0;
	return 1;
}

/* Drops a pattern that another one of the same id already matches
 * everywhere: an identical one, or any same-folded one after a nocase. */
static void dedup(MpmCtx *ctx)
{
	uint32_t w = 0;

	if (ctx->npats > 1)
		qsort_r(ctx->pats, ctx->npats, sizeof(struct ac_pattern), cmp_dedup, ctx);
	for (uint32_t i = 0; i < ctx->npats; i++) {
		const struct ac_pattern *p = &ctx->pats[i];

		if (w > 0) {
			const struct ac_pattern *q = &ctx->pats[w - 1];

			if (same_folded(ctx, q, p) &&
			    (q->nocase || (!p->nocase &&
			     memcmp(ctx->bytes + q->off, ctx->bytes + p->off, p->len) == 0)))
				continue;
		}
		ctx->pats[w++] = *p;
	}
	/* every id and length survives, so max_id and max_len stay */
	ctx->npats = w;
}

/* Moves a sets-only hs context's run literals (up to MPM_RUNS_MAX) out of
 * its patterns into ctx->runs. 0, or -1 for no memory. */
static int split_runs(MpmCtx *ctx)
{
	struct ac_pattern runs[MPM_RUNS_MAX];
	uint32_t nruns = 0, w = 0;

	for (uint32_t i = 0; i < ctx->npats; i++) {
		if (nruns < MPM_RUNS_MAX && mpm_run_literal(&ctx->pats[i], ctx->bytes))
			runs[nruns++] = ctx->pats[i];
		else
			ctx->pats[w++] = ctx->pats[i];
	}
	if (!nruns)
		return 0;
	ctx->npats = w;
	ctx->runs = mpm_runs_build(runs, nruns, ctx->bytes);
	return ctx->runs ? 0 : -1;
}

int mpm_prepare(MpmCtx *ctx, char *err, size_t errlen)
{
	char dummy[8];

	if (!err || !errlen) {
		err = dummy;
		errlen = sizeof(dummy);
	}
	err[0] = '\0';
	if (!ctx) {
		snprintf(err, errlen, "mpm: no context");
		return -1;
	}
	if (ctx->prepared) {
		snprintf(err, errlen, "mpm: already prepared");
		return -1;
	}
	if (ctx->nhpats) {
		ctx->head = mpm_head_build(ctx->hpats, ctx->hbound, ctx->nhpats, ctx->bytes);
		if (!ctx->head) {
			snprintf(err, errlen, "mpm: no memory for the bounded patterns");
			return -1;
		}
		/* the head holds its own copy: the builder's lists are done */
		free(ctx->hpats);
		free(ctx->hbound);
		ctx->hpats = NULL;
		ctx->hbound = NULL;
		ctx->nhpats = ctx->hcap = 0;
	}
	dedup(ctx);
	if (ctx->algo == MPM_HS && ctx->sets_only && split_runs(ctx) != 0) {
		snprintf(err, errlen, "mpm: no memory for the run literals");
		return -1;
	}
	switch (ctx->algo) {
	case MPM_AC:
	case MPM_AC_CUDA:
	{
		/* the ac-cuda code walks the GPU lists */
		struct ac_opts o = ac_opts;

		o.gpu_lists = o.gpu_lists || ctx->algo == MPM_AC_CUDA;
		ctx->ac = ac_build_opts(ctx->pats, ctx->npats, ctx->bytes, &o,
					err, errlen);
	}
		if (!ctx->ac)
			return -1;
		break;
	case MPM_HS:
#ifdef HAVE_HYPERSCAN
		ctx->hs = mpm_hs_build(ctx->pats, ctx->npats, ctx->bytes, ctx->sets_only, err,
				       errlen);
		if (!ctx->hs)
			return -1;
		break;
#else
		snprintf(err, errlen, "%s", MPM_NO_HS_MSG);
		return -1;
#endif
	}
	ctx->prepared = 1;
	return 0;
}

void mpm_free(MpmCtx *ctx)
{
	if (!ctx)
		return;
	mpm_head_free(ctx->head);
	mpm_runs_free(ctx->runs);
	ac_free(ctx->ac);
#ifdef HAVE_HYPERSCAN
	mpm_hs_free(ctx->hs);
#endif
	free(ctx->pats);
	free(ctx->hpats);
	free(ctx->hbound);
	free(ctx->bytes);
	free(ctx);
}

/* ---- scan ---- */

MpmScratch *mpm_scratch_new(const MpmCtx *ctx)
{
	MpmScratch *s;

	if (!ctx || !ctx->prepared)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->algo = ctx->algo;
#ifdef HAVE_HYPERSCAN
	if (ctx->algo == MPM_HS && mpm_hs_scratch_new(ctx->hs, &s->hs) < 0) {
		free(s);
		return NULL;
	}
#endif
	return s;
}

void mpm_scratch_free(MpmScratch *s)
{
	if (!s)
		return;
#ifdef HAVE_HYPERSCAN
	mpm_hs_scratch_free(s->hs);
#endif
	free(s);
}

static uint32_t part_search(const MpmCtx *ctx, MpmScratch *s, const uint8_t *buf,
			    uint32_t len, mpm_match_fn cb, void *arg)
{
	if (!ctx->prepared || len == 0)
		return 0;
	switch (ctx->algo) {
	case MPM_AC:
	case MPM_AC_CUDA:
		return ac_search(ctx->ac, buf, len, cb, arg);
	case MPM_HS:
	{
		uint32_t n = ctx->runs ? mpm_runs_scan(ctx->runs, buf, len, cb, arg) : 0;

#ifdef HAVE_HYPERSCAN
		if (ctx->npats)
			n += mpm_hs_search(ctx->hs, s ? s->hs : NULL, buf, len, cb, arg);
#endif
		return n;
	}
	}
	return 0;
}

uint32_t mpm_search(const MpmCtx *ctx, MpmScratch *s, const uint8_t *buf,
		    uint32_t len, mpm_match_fn cb, void *arg)
{
	uint32_t n = part_search(ctx, s, buf, len, cb, arg);

	if (ctx->head && ctx->prepared)
		n += mpm_head_scan(ctx->head, buf, len, cb, arg);
	return n;
}

static void part_prefilter(const MpmCtx *ctx, MpmScratch *s, const uint8_t *buf, uint32_t len,
			   MpmMatchSet *ms)
{
	/* all of a context's patterns may be bounded: no pass for nothing */
	if (!ctx->prepared || len == 0 || (ctx->npats == 0 && !ctx->runs))
		return;
	switch (ctx->algo) {
	case MPM_AC:
	case MPM_AC_CUDA:
		ac_search_once(ctx->ac, buf, len, mpm_matchset_cb, ms);
		return;
	case MPM_HS:
		part_search(ctx, s, buf, len, mpm_matchset_cb, ms);
		return;
	}
}

void mpm_prefilter(const MpmCtx *ctx, MpmScratch *s, const uint8_t *buf, uint32_t len,
		   MpmMatchSet *ms)
{
	part_prefilter(ctx, s, buf, len, ms);
	if (ctx->head && ctx->prepared)
		mpm_head_scan(ctx->head, buf, len, mpm_matchset_cb, ms);
}

void mpm_prefilter_unbounded(const MpmCtx *ctx, MpmScratch *s, const uint8_t *buf,
			     uint32_t len, MpmMatchSet *ms)
{
	part_prefilter(ctx, s, buf, len, ms);
}

void mpm_prefilter_bounded(const MpmCtx *ctx, const uint8_t *buf, uint32_t len, MpmMatchSet *ms)
{
	if (ctx->head && ctx->prepared)
		mpm_head_scan(ctx->head, buf, len, mpm_matchset_cb, ms);
}

void mpm_mark_bounded(const MpmCtx *ctx, uint8_t *mark, uint32_t n, uint8_t bit)
{
	if (ctx && ctx->prepared)
		mpm_head_mark(ctx->head, mark, n, bit);
}

enum mpm_algo mpm_ctx_algo(const MpmCtx *ctx)
{
	return ctx->algo;
}

static size_t mpm_memory_part(const MpmCtx *ctx)
{
	size_t runs = mpm_runs_memory(ctx->runs);

	if (ctx->ac)
		return ctx->ac->blk->size;
#ifdef HAVE_HYPERSCAN
	if (ctx->hs)
		return runs + mpm_hs_memory(ctx->hs);
#endif
	return runs;
}

size_t mpm_memory(const MpmCtx *ctx)
{
	return mpm_memory_part(ctx) + mpm_head_memory(ctx->head);
}

uint32_t mpm_pattern_count(const MpmCtx *ctx)
{
	return ctx->npats + (ctx->runs ? mpm_runs_count(ctx->runs) : 0) +
	       mpm_head_count(ctx->head);
}

uint32_t mpm_max_pattern_id(const MpmCtx *ctx)
{
	return ctx->max_id;
}

uint32_t mpm_max_pattern_len(const MpmCtx *ctx)
{
	return ctx->max_len;
}

const AcAutomaton *mpm_ac_automaton(const MpmCtx *ctx)
{
	return ctx ? ctx->ac : NULL;
}
