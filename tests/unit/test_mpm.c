/* MPM tests: named cases for every algorithm, and the property that ac, hs
 * and a naive matcher report identical (pattern id, end offset) multisets
 * on random and real (pcap) buffers. */
#include "test.h"

#include <stdlib.h>

#include "mpm/head.h"
#include "mpm/mpm.h"
#include "mpm/runs.h"

/* ---- collecting matches ---- */

struct pair {
	uint32_t id, end;
};

struct pairs {
	struct pair *v;
	size_t n, cap;
	size_t stop_after;   /* 0: never stop */
};

static int pairs_cb(void *arg, uint32_t id, uint32_t end)
{
	struct pairs *p = arg;

	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 64;
		p->v = realloc(p->v, p->cap * sizeof(*p->v));
		if (!p->v)
			abort();
	}
	p->v[p->n++] = (struct pair){ id, end };
	return p->stop_after && p->n >= p->stop_after;
}

static int cmp_pair(const void *x, const void *y)
{
	const struct pair *a = x, *b = y;

	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	if (a->end != b->end)
		return a->end < b->end ? -1 : 1;
	return 0;
}

static void pairs_sort(struct pairs *p)
{
	if (p->n)
		qsort(p->v, p->n, sizeof(*p->v), cmp_pair);
}

static void pairs_reset(struct pairs *p)
{
	p->n = 0;
	p->stop_after = 0;
}

static int pairs_equal(const struct pairs *a, const struct pairs *b)
{
	return a->n == b->n && (a->n == 0 || memcmp(a->v, b->v, a->n * sizeof(*a->v)) == 0);
}

/* ---- the algorithms under test ---- */

/* ac with the defaults; ac with only the root dense (every other state
 * takes the sparse path); ac with a few dense rows (the dense/sparse
 * boundary inside the automaton) and 32-bit rows; ac with the bigram
 * filter off, and forced on (as an ac-cuda context, with the GPU lists);
 * and hs when built. */
enum variant { V_AC, V_AC_SPARSE, V_AC_MIXED, V_AC_NOFILTER, V_AC_FILTER, V_HS, V_N };
static const char *variant_name[V_N] = { "ac", "ac-sparse", "ac-mixed32",
					 "ac-nofilter", "ac-filter", "hs" };

static MpmCtx *variant_new(enum variant v)
{
	if (v == V_HS)
		return mpm_have_hs() ? mpm_new(MPM_HS) : NULL;
	/* an ac-cuda context: the same automaton plus the GPU lists */
	if (v == V_AC_FILTER)
		return mpm_new(MPM_AC_CUDA);
	return mpm_new(MPM_AC);
}

/* V_N: the defaults */
static void variant_options(enum variant v)
{
	mpm_set_ac_dense_budget(AC_DENSE_BUDGET_DEFAULT);
	mpm_set_ac_filter(-1);
	mpm_set_ac_width(0);
	/* plain ac variants without the GPU lists: the output chains then
	 * get walked by the ac_next property walk */
	mpm_set_ac_gpu_lists(v == V_N);
	switch (v) {
	case V_AC_SPARSE:
		mpm_set_ac_dense_budget(0);
		mpm_set_ac_filter(1);
		break;
	case V_AC_MIXED:
		mpm_set_ac_dense_budget(8192);
		mpm_set_ac_width(4);
		mpm_set_ac_filter(1);
		break;
	case V_AC_NOFILTER:
		mpm_set_ac_filter(0);
		break;
	case V_AC_FILTER:
		mpm_set_ac_filter(1);
		break;
	default:
		break;
	}
}

static int variant_prepare(enum variant v, MpmCtx *ctx)
{
	char err[256];
	int r;

	variant_options(v);
	r = mpm_prepare(ctx, err, sizeof(err));
	variant_options(V_N);   /* the defaults */
	if (r < 0)
		printf("  %s: prepare failed: %s\n", variant_name[v], err);
	return r;
}

/* ---- pattern sets and the naive matcher ---- */

struct tpat {
	uint8_t b[64];
	uint16_t len;
	uint32_t id;
	int nocase;
};

static uint8_t fold(uint8_t c)
{
	return (c >= 'A' && c <= 'Z') ? (uint8_t)(c + 32) : c;
}

static int eq_bytes(const uint8_t *a, const uint8_t *b, size_t n, int nocase)
{
	for (size_t i = 0; i < n; i++) {
		if (nocase ? fold(a[i]) != fold(b[i]) : a[i] != b[i])
			return 0;
	}
	return 1;
}

/* Is q redundant given p (same id)? The API's collapse rule: identical, or
 * same caseless bytes where p is nocase. */
static int covered_by(const struct tpat *q, const struct tpat *p)
{
	if (p->id != q->id || p->len != q->len)
		return 0;
	if (p->nocase)
		return eq_bytes(p->b, q->b, p->len, 1);
	return !q->nocase && eq_bytes(p->b, q->b, p->len, 0);
}

static void naive_search(const struct tpat *pats, size_t n, const uint8_t *buf,
			 uint32_t len, struct pairs *out)
{
	for (size_t i = 0; i < n; i++) {
		int dup = 0;

		for (size_t j = 0; j < n && !dup; j++) {
			if (j == i)
				continue;
			/* keep the first of mutually covering patterns */
			if (covered_by(&pats[i], &pats[j]) &&
			    (!covered_by(&pats[j], &pats[i]) || j < i))
				dup = 1;
		}
		if (dup)
			continue;
		for (uint32_t end = pats[i].len; end <= len; end++)
			if (eq_bytes(buf + end - pats[i].len, pats[i].b, pats[i].len,
				     pats[i].nocase))
				pairs_cb(out, pats[i].id, end);
	}
}

static MpmCtx *build(enum variant v, const struct tpat *pats, size_t n)
{
	MpmCtx *ctx = variant_new(v);

	if (!ctx)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (mpm_add_pattern(ctx, pats[i].b, pats[i].len, pats[i].id,
				    pats[i].nocase) < 0) {
			mpm_free(ctx);
			return NULL;
		}
	if (variant_prepare(v, ctx) < 0) {
		mpm_free(ctx);
		return NULL;
	}
	return ctx;
}

static void run(const MpmCtx *ctx, const uint8_t *buf, uint32_t len, struct pairs *out)
{
	MpmScratch *s = mpm_scratch_new(ctx);

	pairs_reset(out);
	mpm_search(ctx, s, buf, len, pairs_cb, out);
	mpm_scratch_free(s);
}

/* Every variant (hs only when built) must report exactly `want`
 * (sorted). Returns 0 when they all do. */
static int all_agree(const struct tpat *pats, size_t n, const uint8_t *buf,
		     uint32_t len, const struct pair *want, size_t nwant)
{
	struct pairs got = { 0 };
	int bad = 0;

	for (int v = 0; v < V_N; v++) {
		if (v == V_HS && !mpm_have_hs())
			continue;
		MpmCtx *ctx = build(v, pats, n);

		if (!ctx) {
			printf("  %s: build failed\n", variant_name[v]);
			bad = 1;
			continue;
		}
		run(ctx, buf, len, &got);
		pairs_sort(&got);
		if (got.n != nwant || (nwant && memcmp(got.v, want, nwant * sizeof(*want)))) {
			printf("  %s: %zu matches, want %zu:", variant_name[v], got.n, nwant);
			for (size_t i = 0; i < got.n && i < 16; i++)
				printf(" (%u,%u)", got.v[i].id, got.v[i].end);
			printf("\n");
			bad = 1;
		}
		mpm_free(ctx);
	}
	free(got.v);
	return bad;
}

static struct tpat P(const char *s, uint32_t id, int nocase)
{
	struct tpat t = { .id = id, .nocase = nocase };

	t.len = (uint16_t)strlen(s);
	memcpy(t.b, s, t.len);
	return t;
}

#define BUF(s) (const uint8_t *)(s), (uint32_t)(sizeof(s) - 1)

/* ---- named cases ---- */

TEST(mpm_empty_pattern_rejected)
{
	for (int v = 0; v < V_N; v++) {
		MpmCtx *ctx = variant_new(v);

		if (!ctx)
			continue;
		CHECK_EQ(mpm_add_pattern(ctx, (const uint8_t *)"x", 0, 1, 0), -1);
		CHECK_EQ(mpm_add_pattern(ctx, NULL, 1, 1, 0), -1);
		CHECK_EQ(mpm_add_pattern(ctx, (const uint8_t *)"x", 1, 1, 0), 0);
		CHECK_EQ(variant_prepare(v, ctx), 0);
		/* read-only after prepare */
		CHECK_EQ(mpm_add_pattern(ctx, (const uint8_t *)"y", 1, 2, 0), -1);
		mpm_free(ctx);
	}
}

TEST(mpm_no_patterns_matches_nothing)
{
	static const struct pair none[1];

	CHECK_EQ(all_agree(NULL, 0, BUF("anything at all"), none, 0), 0);
}

TEST(mpm_overlapping_patterns_all_reported)
{
	struct tpat p[] = { P("abcd", 1, 0), P("bcd", 2, 0), P("cd", 3, 0),
			    P("abc", 4, 0), P("bc", 5, 0), P("xabcdx", 6, 0) };
	struct pair want[] = { { 1, 5 }, { 2, 5 }, { 3, 5 }, { 4, 4 }, { 5, 4 } };

	CHECK_EQ(all_agree(p, 6, BUF("xabcdy"), want, 5), 0);
}

TEST(mpm_overlapping_occurrences_of_one_pattern)
{
	struct tpat p[] = { P("aa", 7, 0) };
	struct pair want[] = { { 7, 2 }, { 7, 3 }, { 7, 4 } };

	CHECK_EQ(all_agree(p, 1, BUF("aaaa"), want, 3), 0);
}

TEST(mpm_pattern_at_buffer_end_and_start)
{
	struct tpat p[] = { P("end", 1, 0), P("sta", 2, 0) };
	struct pair want[] = { { 1, 9 }, { 2, 3 } };

	CHECK_EQ(all_agree(p, 2, BUF("start end"), want, 2), 0);
}

TEST(mpm_pattern_longer_than_buffer_never_matches)
{
	struct tpat p[] = { P("abcdef", 1, 1) };
	static const struct pair none[1];

	CHECK_EQ(all_agree(p, 1, BUF("abcde"), none, 0), 0);
}

TEST(mpm_nocase_vs_exact)
{
	struct tpat p[] = { P("AbC", 1, 0), P("AbC", 2, 1), P("abc", 3, 0) };
	/* "abc ABC AbC": exact AbC only at 11; nocase at 3, 7, 11; abc at 3 */
	struct pair want[] = { { 1, 11 }, { 2, 3 }, { 2, 7 }, { 2, 11 }, { 3, 3 } };

	CHECK_EQ(all_agree(p, 3, BUF("abc ABC AbC"), want, 5), 0);
}

TEST(mpm_nocase_folds_ascii_letters_only)
{
	/* 0xc4 and 0xe4 (Latin-1 A/a umlaut) are different bytes, '@' is
	 * not '`' even though they differ by 32 like A-Z and a-z */
	struct tpat p[] = { P("\xc4", 1, 1), P("@", 2, 1), P("[", 3, 1) };
	struct pair want[] = { { 1, 1 }, { 2, 3 }, { 3, 5 } };

	CHECK_EQ(all_agree(p, 3, BUF("\xc4\xe4@`[{"), want, 3), 0);
}

TEST(mpm_same_pattern_two_ids)
{
	struct tpat p[] = { P("foo", 10, 0), P("foo", 20, 0), P("FOO", 30, 1) };
	struct pair want[] = { { 10, 4 }, { 20, 4 }, { 30, 4 }, { 30, 8 } };

	CHECK_EQ(all_agree(p, 3, BUF("xfoo FOO"), want, 4), 0);
}

TEST(mpm_duplicates_collapse)
{
	struct tpat p[] = { P("dup", 1, 0), P("dup", 1, 0), P("DUP", 2, 1),
			    P("dUp", 2, 1), P("Dup", 2, 0), P("dup", 3, 0) };
	struct pair want[] = { { 1, 3 }, { 2, 3 }, { 3, 3 } };

	CHECK_EQ(all_agree(p, 6, BUF("dup"), want, 3), 0);
	for (int v = 0; v < V_N; v++) {
		MpmCtx *ctx = build(v, p, 6);

		if (!ctx)
			continue;
		/* (dup,1) once, (DUP,2,nocase) covers dUp and Dup, (dup,3) */
		CHECK_EQ(mpm_pattern_count(ctx), 3);
		CHECK_EQ(mpm_max_pattern_id(ctx), 3);
		mpm_free(ctx);
	}
}

TEST(mpm_one_byte_pattern)
{
	struct tpat p[] = { P("a", 1, 0), P("B", 2, 1) };
	/* exact "a" skips the 'A' */
	struct pair want[] = { { 1, 1 }, { 1, 2 }, { 2, 3 }, { 2, 5 } };

	CHECK_EQ(all_agree(p, 2, BUF("aaBAb"), want, 4), 0);
}

TEST(mpm_64_byte_pattern)
{
	struct tpat p[2];
	uint8_t buf[200];

	memset(buf, 'x', sizeof(buf));
	p[0].len = 64;
	p[0].id = 5;
	p[0].nocase = 0;
	for (int i = 0; i < 64; i++)
		p[0].b[i] = (uint8_t)(i * 7 + 1);
	p[1] = p[0];
	p[1].id = 6;
	p[1].len = 63;     /* its prefix: ends one byte earlier */
	memcpy(buf + 20, p[0].b, 64);
	memcpy(buf + 136, p[0].b, 64);  /* ends exactly at the buffer end */
	struct pair want[] = { { 5, 84 }, { 5, 200 }, { 6, 83 }, { 6, 199 } };

	CHECK_EQ(all_agree(p, 2, buf, sizeof(buf), want, 4), 0);
}

TEST(mpm_binary_bytes_ff_00)
{
	struct tpat p[] = { { .b = { 0x00 }, .len = 1, .id = 1 },
			    { .b = { 0xff, 0x00, 0xff }, .len = 3, .id = 2 },
			    { .b = { 0x00, 0x00 }, .len = 2, .id = 3, .nocase = 1 },
			    { .b = { 0xff }, .len = 1, .id = 4, .nocase = 1 } };
	const uint8_t buf[] = { 0xff, 0x00, 0xff, 0x00, 0x00, 0x41 };
	struct pair want[] = { { 1, 2 }, { 1, 4 }, { 1, 5 }, { 2, 3 },
			       { 3, 5 }, { 4, 1 }, { 4, 3 } };

	CHECK_EQ(all_agree(p, 4, buf, sizeof(buf), want, 7), 0);
}

TEST(mpm_callback_nonzero_stops_search)
{
	struct tpat p[] = { P("a", 1, 0) };
	struct pairs got = { 0 };

	for (int v = 0; v < V_N; v++) {
		MpmCtx *ctx = build(v, p, 1);
		MpmScratch *s;

		if (!ctx)
			continue;
		s = mpm_scratch_new(ctx);
		CHECK(s != NULL);
		pairs_reset(&got);
		got.stop_after = 2;
		CHECK_EQ(mpm_search(ctx, s, BUF("aaaaaa"), pairs_cb, &got), 2);
		CHECK_EQ(got.n, 2);
		CHECK_EQ(got.v[1].end, 2);
		/* the scratch is reusable after a stopped search */
		pairs_reset(&got);
		CHECK_EQ(mpm_search(ctx, s, BUF("aaaaaa"), pairs_cb, &got), 6);
		mpm_scratch_free(s);
		mpm_free(ctx);
	}
	free(got.v);
}

/* A sets-only ac and hs context with the same patterns (ids 0..n-1), their
 * scratch and a match set each: the prefilter comparisons below. */
struct set_pair {
	MpmCtx *ac, *hs;
	MpmScratch *sa, *sh;
	MpmMatchSet *ma, *mh;
};

static void set_pair_free(struct set_pair *sp)
{
	mpm_scratch_free(sp->sa);
	mpm_scratch_free(sp->sh);
	mpm_free(sp->ac);
	mpm_free(sp->hs);
	mpm_matchset_free(sp->ma);
	mpm_matchset_free(sp->mh);
}

/* 0 with both built and prepared; -1 without Hyperscan (printed) or when
 * a step fails (a test failure). */
static int set_pair_build(struct set_pair *sp, const char *const *pats, const uint16_t *lens,
			  uint32_t n)
{
	char e[256];

	memset(sp, 0, sizeof(*sp));
	if (!mpm_have_hs()) {
		printf("  (no Hyperscan: skipped)\n");
		return -1;
	}
	sp->ac = mpm_new(MPM_AC);
	sp->hs = mpm_new(MPM_HS);
	mpm_set_sets_only(sp->ac);
	mpm_set_sets_only(sp->hs);
	for (uint32_t i = 0; i < n; i++)
		if (mpm_add_pattern(sp->ac, (const uint8_t *)pats[i], lens[i], i, 0) != 0 ||
		    mpm_add_pattern(sp->hs, (const uint8_t *)pats[i], lens[i], i, 0) != 0)
			goto fail;
	if (mpm_prepare(sp->ac, e, sizeof(e)) != 0 || mpm_prepare(sp->hs, e, sizeof(e)) != 0)
		goto fail;
	sp->sa = mpm_scratch_new(sp->ac);
	sp->sh = mpm_scratch_new(sp->hs);
	sp->ma = mpm_matchset_new(n);
	sp->mh = mpm_matchset_new(n);
	if (sp->sa && sp->sh && sp->ma && sp->mh)
		return 0;
fail:
	test_fail(__FILE__, __LINE__, "set_pair_build: a context did not build");
	set_pair_free(sp);
	return -1;
}

/* A context that serves the prefilter (mpm_set_sets_only): hs reports a
 * pattern once per scan, and the prefilter's set is the one ac gives. */
TEST(mpm_sets_only_reports_each_pattern_once)
{
	static const char *const pats[] = { "a", "ab", "bab", "zz" };
	static const uint16_t lens[] = { 1, 2, 3, 2 };
	struct set_pair sp;

	if (set_pair_build(&sp, pats, lens, 4) != 0)
		return;
	/* "a" x3, "ab" x2, "bab" x1: each once */
	CHECK_EQ(mpm_search(sp.hs, sp.sh, BUF("ababa"), mpm_matchset_cb, sp.mh), 3);
	mpm_matchset_clear(sp.mh);
	mpm_prefilter(sp.ac, sp.sa, BUF("xxababazz"), sp.ma);
	mpm_prefilter(sp.hs, sp.sh, BUF("xxababazz"), sp.mh);
	CHECK_EQ(mpm_matchset_count(sp.ma), 4);
	CHECK_EQ(mpm_matchset_count(sp.mh), mpm_matchset_count(sp.ma));
	set_pair_free(&sp);
}

/* mpm_prefilter in its two parts (ac-cuda's stream windows): the unbounded
 * patterns alone, the bounded ones alone, and mpm_mark_bounded names the
 * latter; together they are mpm_prefilter. */
TEST(mpm_prefilter_parts_split_the_bounded_patterns)
{
	static const enum mpm_algo algos[] = { MPM_AC, MPM_HS };
	char e[256];

	for (size_t a = 0; a < sizeof(algos) / sizeof(algos[0]); a++) {
		MpmCtx *ctx;
		MpmScratch *s;
		MpmMatchSet *ms;
		uint8_t mark[4] = { 0 };

		if (algos[a] == MPM_HS && !mpm_have_hs())
			continue;
		ctx = mpm_new(algos[a]);
		ms = mpm_matchset_new(4);
		mpm_set_sets_only(ctx);
		/* id 0 bounded to the first 4 bytes, id 1 anywhere, id 2 bounded
		 * beyond the reach: anywhere too */
		CHECK_EQ(mpm_add_pattern_bounded(ctx, (const uint8_t *)"ab", 2, 0, 0, 4), 0);
		CHECK_EQ(mpm_add_pattern_bounded(ctx, (const uint8_t *)"cd", 2, 1, 0, 0), 0);
		CHECK_EQ(mpm_add_pattern_bounded(ctx, (const uint8_t *)"ef", 2, 2, 0,
						 MPM_HEAD_MAX + 1), 0);
		CHECK_EQ(mpm_prepare(ctx, e, sizeof(e)), 0);
		s = mpm_scratch_new(ctx);
		mpm_mark_bounded(ctx, mark, 3, 2);
		CHECK_EQ(mark[0], 2);
		CHECK_EQ(mark[1], 0);
		CHECK_EQ(mark[2], 0);
		mpm_prefilter_unbounded(ctx, s, BUF("abcdef"), ms);
		CHECK_EQ(mpm_matchset_count(ms), 2);
		CHECK(mpm_matchset_has(ms, 1) && mpm_matchset_has(ms, 2));
		mpm_matchset_clear(ms);
		mpm_prefilter_bounded(ctx, BUF("abcdef"), ms);
		CHECK_EQ(mpm_matchset_count(ms), 1);
		CHECK(mpm_matchset_has(ms, 0));
		mpm_matchset_clear(ms);
		/* past its bound, and a bounded scan finds no unbounded one */
		mpm_prefilter_bounded(ctx, BUF("xxxabcd"), ms);
		CHECK_EQ(mpm_matchset_count(ms), 0);
		mpm_scratch_free(s);
		mpm_matchset_free(ms);
		mpm_free(ctx);
	}
}

/* Bounded patterns (mpm_add_pattern_bounded) are reported where they end
 * within their own bound and not past it, for ac and hs alike; one that may
 * start more than MPM_HEAD_REACH bytes in, and an unbounded one, anywhere;
 * a context not sets-only ignores bounds. */
TEST(mpm_bounded_pattern_counts_in_the_head_only)
{
	static const enum mpm_algo algos[] = { MPM_AC, MPM_HS };
	char e[256];

	for (size_t a = 0; a < sizeof(algos) / sizeof(algos[0]); a++) {
		MpmCtx *ctx;
		MpmScratch *s;
		MpmMatchSet *ms;

		if (algos[a] == MPM_HS && !mpm_have_hs())
			continue;
		ctx = mpm_new(algos[a]);
		ms = mpm_matchset_new(8);
		mpm_set_sets_only(ctx);
		/* id 0 ends by byte 4, id 1 (nocase) by byte 10, id 2 anywhere;
		 * id 3 has a bound above MPM_HEAD_MAX, id 4 may start past
		 * MPM_HEAD_REACH: anywhere too; id 5, one byte, only at 0 */
		CHECK_EQ(mpm_add_pattern_bounded(ctx, (const uint8_t *)"\x01\x02", 2, 0, 0, 4), 0);
		CHECK_EQ(mpm_add_pattern_bounded(ctx, (const uint8_t *)"get", 3, 1, 1, 10), 0);
		CHECK_EQ(mpm_add_pattern_bounded(ctx, (const uint8_t *)"tail", 4, 2, 0, 0), 0);
		CHECK_EQ(mpm_add_pattern_bounded(ctx, (const uint8_t *)"far", 3, 3, 0,
						 MPM_HEAD_MAX + 1), 0);
		CHECK_EQ(mpm_add_pattern_bounded(ctx, (const uint8_t *)"reach", 5, 4, 0,
						 5 + MPM_HEAD_REACH + 1), 0);
		CHECK_EQ(mpm_add_pattern_bounded(ctx, (const uint8_t *)"#", 1, 5, 0, 1), 0);
		CHECK_EQ(mpm_prepare(ctx, e, sizeof(e)), 0);
		CHECK_EQ(mpm_pattern_count(ctx), 6);
		CHECK_EQ(mpm_max_pattern_id(ctx), 5);
		s = mpm_scratch_new(ctx);
		CHECK(s != NULL);
		/* \x01\x02 ends at 4, GET at 10: both at their bounds */
		mpm_prefilter(ctx, s, BUF("xx\x01\x02xxxGET tail"), ms);
		CHECK_EQ(mpm_matchset_count(ms), 3);
		CHECK(mpm_matchset_has(ms, 0) && mpm_matchset_has(ms, 1) && mpm_matchset_has(ms, 2));
		mpm_matchset_clear(ms);
		/* one byte later each is past its own bound */
		mpm_prefilter(ctx, s, BUF("xxx\x01\x02xxxGET tail"), ms);
		CHECK_EQ(mpm_matchset_count(ms), 1);
		CHECK(mpm_matchset_has(ms, 2));
		mpm_matchset_clear(ms);
		/* a buffer shorter than the bound; # at 0 only */
		mpm_prefilter(ctx, s, BUF("\x01\x02"), ms);
		CHECK_EQ(mpm_matchset_count(ms), 1);
		CHECK(mpm_matchset_has(ms, 0));
		mpm_matchset_clear(ms);
		mpm_prefilter(ctx, s, BUF("#x#"), ms);
		CHECK_EQ(mpm_matchset_count(ms), 1);
		CHECK(mpm_matchset_has(ms, 5));
		mpm_matchset_clear(ms);
		mpm_prefilter(ctx, s, BUF("x#"), ms);
		CHECK_EQ(mpm_matchset_count(ms), 0);
		/* the far and the far-reaching ones past 64 bytes */
		mpm_prefilter(ctx, s, BUF("................................................................"
					  "..far reach"), ms);
		CHECK_EQ(mpm_matchset_count(ms), 2);
		CHECK(mpm_matchset_has(ms, 3) && mpm_matchset_has(ms, 4));
		mpm_matchset_clear(ms);
		mpm_scratch_free(s);
		mpm_free(ctx);
		/* not sets-only: the bound is not kept */
		ctx = mpm_new(algos[a]);
		CHECK_EQ(mpm_add_pattern_bounded(ctx, (const uint8_t *)"ab", 2, 0, 0, 2), 0);
		CHECK_EQ(mpm_prepare(ctx, e, sizeof(e)), 0);
		s = mpm_scratch_new(ctx);
		mpm_prefilter(ctx, s, BUF("xxxxab"), ms);
		CHECK_EQ(mpm_matchset_count(ms), 1);
		mpm_matchset_clear(ms);
		mpm_scratch_free(s);
		mpm_free(ctx);
		mpm_matchset_free(ms);
	}
}

TEST(mpm_memory_and_counts_reported)
{
	struct tpat p[] = { P("alpha", 1, 0), P("beta", 2, 1), P("gamma", 9, 0) };

	for (int v = 0; v < V_N; v++) {
		MpmCtx *ctx = build(v, p, 3);

		if (!ctx)
			continue;
		CHECK(mpm_memory(ctx) > 0);
		CHECK_EQ(mpm_pattern_count(ctx), 3);
		CHECK_EQ(mpm_max_pattern_id(ctx), 9);
		CHECK_EQ(mpm_max_pattern_len(ctx), 5);
		mpm_free(ctx);
	}
}

TEST(mpm_algo_parse_names)
{
	enum mpm_algo a = MPM_AC_CUDA;

	CHECK_EQ(mpm_algo_parse("ac", &a), 0);
	CHECK_EQ(a, MPM_AC);
	CHECK_EQ(mpm_algo_parse("ac-cuda", &a), 0);
	CHECK_EQ(a, MPM_AC_CUDA);
	CHECK_EQ(mpm_algo_parse("auto", &a), 0);
	CHECK_EQ(a, mpm_have_hs() ? MPM_HS : MPM_AC);
	CHECK_EQ(mpm_algo_parse("hs", &a), mpm_have_hs() ? 0 : -1);
	if (!mpm_have_hs())
		CHECK_STREQ(mpm_algo_error("hs"), MPM_NO_HS_MSG);
	CHECK_EQ(mpm_algo_parse("bm", &a), -1);
	CHECK_EQ(mpm_algo_parse("AC", &a), -1);
	CHECK(strstr(mpm_algo_error("bm"), "invalid mpm algo") != NULL);
	CHECK_STREQ(mpm_algo_name(MPM_AC_CUDA), "ac-cuda");
	CHECK_STREQ(mpm_algo_name(MPM_HS), "hs");
}

TEST(mpm_ac_cuda_uses_the_ac_automaton)
{
	MpmCtx *ctx = mpm_new(MPM_AC_CUDA);
	char err[128];
	struct pairs got = { 0 };

	CHECK(ctx != NULL);
	CHECK_EQ(mpm_add_pattern(ctx, (const uint8_t *)"gpu", 3, 4, 1), 0);
	CHECK_EQ(mpm_prepare(ctx, err, sizeof(err)), 0);
	CHECK(mpm_ac_automaton(ctx) != NULL);
	run(ctx, BUF("a GPU"), &got);
	CHECK_EQ(got.n, 1);
	CHECK_EQ(got.v[0].id, 4);
	CHECK_EQ(got.v[0].end, 5);
	free(got.v);
	mpm_free(ctx);
}

/* The walk the GPU code does: one ac_next per byte (no filter), then the
 * state's matches: through the GPU lists when the block has them (as
 * cuda/ac-kernel.h does), else down the output chain. */
static void walk_view(const struct ac_view *view, const uint8_t *buf, uint32_t len,
		      struct pairs *got)
{
	uint32_t st = 0;

	for (uint32_t i = 0; i < len; i++) {
		st = ac_next(view, st, buf[i]);
		if (!(st & AC_MATCH_FLAG))
			continue;
		uint32_t s = st & AC_STATE_MASK;

		if (view->outoff) {
			for (uint32_t k = view->outoff[s]; k < view->outoff[s + 1]; k++)
				if (ac_verify(view, view->out[k], buf, i + 1))
					pairs_cb(got, view->pat[view->out[k]].id, i + 1);
			continue;
		}
		for (uint32_t o = ac_first_onode(view, s); o != AC_NONE;
		     o = view->onode[o].next) {
			const struct ac_onode *on = &view->onode[o];

			for (uint32_t li = on->lit; li < on->lit + on->nlit; li++) {
				if (!ac_verify_lit(view, li, buf, i + 1))
					continue;
				for (uint32_t k = view->lit[li].ids; k < view->lit[li + 1].ids; k++)
					pairs_cb(got, view->ids[k], i + 1);
			}
		}
	}
}

/* The flat block must work from any address: copy it, walk the copy with
 * the inline step functions the GPU kernel will use, compare. */
TEST(mpm_ac_block_is_relocatable)
{
	struct tpat p[] = { P("he", 1, 1), P("she", 2, 0), P("his", 3, 1),
			    P("hers", 4, 0), P("HERS", 5, 0) };
	const uint8_t buf[] = "ushers SHE HiS hers HERS";
	uint32_t len = sizeof(buf) - 1;
	struct pairs want = { 0 }, got = { 0 };

	for (int v = V_AC; v <= V_AC_FILTER; v++) {
		MpmCtx *ctx = build(v, p, 5);
		const AcAutomaton *a;
		struct ac_view view;

		CHECK(ctx != NULL);
		a = mpm_ac_automaton(ctx);
		CHECK(a != NULL);
		CHECK_EQ(a->blk->magic, AC_MAGIC);
		CHECK_EQ(a->blk->size, mpm_memory(ctx));
		if (v == V_AC_SPARSE)
			CHECK_EQ(a->blk->ndense, 1);
		else
			CHECK_EQ(a->blk->ndense, a->blk->nstates);
		/* GPU lists only in the ac-cuda context */
		CHECK_EQ(a->v.outoff != NULL, v == V_AC_FILTER);
		CHECK_EQ(a->blk->width, v == V_AC_MIXED ? 4 : 2);
		CHECK_EQ(a->blk->nclass, 6);   /* h e s i r, and class 0 */
		CHECK_EQ(a->blk->shift, 3);    /* rows of 8 entries */
		void *copy = malloc(a->blk->size);

		CHECK(copy != NULL);
		memcpy(copy, a->blk, a->blk->size);
		/* poison the original to be sure the copy is self-contained */
		memset(a->blk + 1, 0xa5, a->blk->size - sizeof(*a->blk));
		ac_view_init(&view, copy, (const struct ac_layout *)copy);
		pairs_reset(&got);
		walk_view(&view, buf, len, &got);
		pairs_sort(&got);
		pairs_reset(&want);
		naive_search(p, 5, buf, len, &want);
		pairs_sort(&want);
		CHECK_EQ(got.n, 9);
		CHECK(pairs_equal(&got, &want));
		free(copy);
		mpm_free(ctx);
	}
	free(want.v);
	free(got.v);
}

/* One literal under many ids is one literal with an id list: memory grows
 * by 4 bytes per id, not by a match entry per id in every state. */
TEST(mpm_ac_shared_literal_stored_once)
{
	MpmCtx *ctx = mpm_new(MPM_AC);
	struct pairs got = { 0 };
	char err[128];

	CHECK(ctx != NULL);
	mpm_set_ac_gpu_lists(0);
	for (uint32_t id = 0; id < 1000; id++) {
		CHECK_EQ(mpm_add_pattern(ctx, (const uint8_t *)"GET /index.html", 15, id, 1), 0);
		CHECK_EQ(mpm_add_pattern(ctx, (const uint8_t *)"index", 5, id, 0), 0);
	}
	CHECK_EQ(mpm_prepare(ctx, err, sizeof(err)), 0);
	mpm_set_ac_gpu_lists(1);
	const AcAutomaton *a = mpm_ac_automaton(ctx);

	CHECK_EQ(a->blk->nlit, 2);
	CHECK_EQ(a->blk->nids, 2000);
	CHECK_EQ(mpm_pattern_count(ctx), 2000);
	/* ids + header + 8 KiB filter + rows of <= 20 states x 16 x 2 bytes */
	CHECK(mpm_memory(ctx) < 2000 * 4 + 8192 + 2048);
	run(ctx, BUF("xx get /INDEX.html GET /index.html"), &got);
	CHECK_EQ(got.n, 3000);   /* nocase twice, exact "index" once */
	free(got.v);
	mpm_free(ctx);
}

/* Row width and filter choice: 16-bit rows up to 65536 states; a small set
 * of long printable strings gets the filter, a set with common one-byte
 * patterns does not. */
TEST(mpm_ac_geometry_and_filter_choice)
{
	MpmCtx *ctx = mpm_new(MPM_AC);
	char err[128];

	CHECK_EQ(mpm_add_pattern(ctx, (const uint8_t *)"malware.exe", 11, 1, 1), 0);
	CHECK_EQ(mpm_add_pattern(ctx, (const uint8_t *)"|evil|", 6, 2, 0), 0);
	CHECK_EQ(mpm_prepare(ctx, err, sizeof(err)), 0);
	CHECK_EQ(mpm_ac_automaton(ctx)->blk->width, 2);
	CHECK(mpm_ac_automaton(ctx)->blk->flags & AC_F_FILTER);
	mpm_free(ctx);

	ctx = mpm_new(MPM_AC);
	for (uint32_t c = 'a'; c <= 'z'; c++) {
		uint8_t b = (uint8_t)c;

		CHECK_EQ(mpm_add_pattern(ctx, &b, 1, c, 1), 0);
	}
	CHECK_EQ(mpm_prepare(ctx, err, sizeof(err)), 0);
	CHECK(!(mpm_ac_automaton(ctx)->blk->flags & AC_F_FILTER));
	mpm_free(ctx);

	/* 72000 states need 32-bit rows */
	ctx = mpm_new(MPM_AC);
	for (uint32_t i = 0; i < 8000; i++) {
		uint8_t b[10];

		for (int k = 0; k < 10; k++)
			b[k] = (uint8_t)((i * 2654435761u) >> (k * 3));
		b[0] = (uint8_t)i;
		b[1] = (uint8_t)(i >> 8);
		CHECK_EQ(mpm_add_pattern(ctx, b, 10, i, 0), 0);
	}
	CHECK_EQ(mpm_prepare(ctx, err, sizeof(err)), 0);
	CHECK(mpm_ac_automaton(ctx)->blk->nstates > 65536);
	CHECK_EQ(mpm_ac_automaton(ctx)->blk->width, 4);
	mpm_free(ctx);
}

/* The automaton a fixed set builds, pinned: its state numbering bounds,
 * literal and output node counts and a hash of the whole block. A change
 * to how ac.c builds must leave these as they are unless it means to
 * change the automaton (then say so, and update them). The set has
 * shared prefixes and suffixes, both cases, a one-byte literal, a literal
 * under two ids, and a dense budget that leaves sparse states. */
TEST(mpm_ac_fixed_set_builds_the_same_automaton)
{
	static const char text[] = "hesheHishersHEushersahers";
	static const struct ac_pattern pats[] = {
		{ .id = 0, .off = 0, .len = 2 },              /* he */
		{ .id = 1, .off = 2, .len = 3 },              /* she */
		{ .id = 2, .off = 5, .len = 3, .nocase = 1 }, /* His */
		{ .id = 3, .off = 8, .len = 4, .nocase = 1 }, /* hers */
		{ .id = 4, .off = 12, .len = 2, .nocase = 1 },/* HE */
		{ .id = 5, .off = 14, .len = 6 },             /* ushers */
		{ .id = 6, .off = 20, .len = 1, .nocase = 1 },/* a */
		{ .id = 7, .off = 21, .len = 4, .nocase = 1 },/* hers again */
		{ .id = 8, .off = 0, .len = 1 },              /* h */
	};
	struct ac_opts o = AC_OPTS_DEFAULT;
	uint64_t hash = 14695981039346656037ull;
	char err[128];

	o.dense_budget = 160;
	o.gpu_lists = 1;
	AcAutomaton *a = ac_build_opts(pats, 9, (const uint8_t *)text, &o, err, sizeof(err));

	CHECK(a != NULL);
	const struct ac_layout *h = a->blk;

	CHECK_EQ(h->nstates, 17);
	CHECK_EQ(h->ndense, 10);
	CHECK_EQ(h->nclass, 8);
	CHECK_EQ(h->width, 2);
	CHECK_EQ(h->nfilter, 3);
	CHECK_EQ(h->matchlo, 6);
	CHECK_EQ(h->nlit, 8);
	CHECK_EQ(h->nids, 9);
	CHECK_EQ(h->nonode, 7);
	CHECK_EQ(h->nout, 18);
	CHECK_EQ(h->flags, AC_F_FILTER);
	CHECK_EQ(h->size, 26264);
	for (size_t i = 0; i < h->size; i++)
		hash = (hash ^ ((const uint8_t *)h)[i]) * 1099511628211ull;
	CHECK_EQ(hash, 0x30c0519686df4346ull);
	ac_free(a);
}

TEST(mpm_matchset_reports_each_id_once)
{
	struct tpat p[] = { P("a", 3, 0), P("ab", 70, 0), P("b", 3, 0) };
	MpmMatchSet *ms = mpm_matchset_new(100);

	CHECK(ms != NULL);
	CHECK_EQ(mpm_matchset_add(ms, 101), -1);
	for (int v = 0; v < V_N; v++) {
		MpmCtx *ctx = build(v, p, 3);
		MpmScratch *s;

		if (!ctx)
			continue;
		s = mpm_scratch_new(ctx);
		CHECK_EQ(mpm_search(ctx, s, BUF("ababab"), mpm_matchset_cb, ms), 9);
		CHECK_EQ(mpm_matchset_count(ms), 2);
		CHECK(mpm_matchset_has(ms, 3));
		CHECK(mpm_matchset_has(ms, 70));
		CHECK(!mpm_matchset_has(ms, 4));
		CHECK_EQ(mpm_matchset_ids(ms)[0], 3);
		mpm_matchset_clear(ms);
		CHECK_EQ(mpm_matchset_count(ms), 0);
		CHECK(!mpm_matchset_has(ms, 3));
		CHECK(!mpm_matchset_has(ms, 70));
		/* pairs from elsewhere (the GPU) go in the same way */
		CHECK_EQ(mpm_matchset_add(ms, 64), 1);
		CHECK_EQ(mpm_matchset_add(ms, 64), 0);
		CHECK_EQ(mpm_matchset_add(ms, 63), 1);
		CHECK_EQ(mpm_matchset_count(ms), 2);
		mpm_matchset_clear(ms);
		mpm_scratch_free(s);
		mpm_free(ctx);
	}
	mpm_matchset_free(ms);
}

/* The prefilter wants ids, not occurrences: a pattern matching at every
 * byte of a run of zeros is reported once by ac, and an exact-case pattern
 * that fails to verify at one end offset is still found at a later one. */
static int count_cb(void *arg, uint32_t id, uint32_t end)
{
	(void)id;
	(void)end;
	(*(uint32_t *)arg)++;
	return 0;
}

TEST(mpm_prefilter_skips_repeats_keeps_every_id)
{
	static uint8_t zeros[1000];
	struct tpat p[] = { { .b = { 0, 0, 0, 0, 0 }, .len = 5, .id = 1 }, P("Ab", 2, 0),
			    P("ab", 3, 1) };
	const uint8_t mixed[] = "ab ab AB Ab";
	MpmMatchSet *ms = mpm_matchset_new(10);
	uint32_t calls = 0;

	CHECK(ms != NULL);
	for (int v = 0; v < V_N; v++) {
		MpmCtx *ctx = build(v, p, 3);
		MpmScratch *s;

		if (!ctx)
			continue;
		s = mpm_scratch_new(ctx);
		CHECK_EQ(mpm_search(ctx, s, zeros, sizeof(zeros), mpm_matchset_cb, ms), 996);
		mpm_matchset_clear(ms);
		mpm_prefilter(ctx, s, zeros, sizeof(zeros), ms);
		CHECK_EQ(mpm_matchset_count(ms), 1);
		CHECK(mpm_matchset_has(ms, 1));
		mpm_matchset_clear(ms);
		/* "Ab" (exact) shares its state with the nocase "ab", which
		 * matches at every pair; it verifies only at the last one */
		mpm_prefilter(ctx, s, mixed, sizeof(mixed) - 1, ms);
		CHECK_EQ(mpm_matchset_count(ms), 2);
		CHECK(mpm_matchset_has(ms, 2));
		CHECK(mpm_matchset_has(ms, 3));
		mpm_matchset_clear(ms);
		if (v != V_HS) {
			const AcAutomaton *a = mpm_ac_automaton(ctx);

			calls = 0;
			ac_search_once(a, zeros, sizeof(zeros), count_cb, &calls);
			CHECK_EQ(calls, 1);
		}
		mpm_scratch_free(s);
		mpm_free(ctx);
	}
	mpm_matchset_free(ms);
}

/* ---- property: ac == hs == naive ---- */

static uint64_t rng_state;

static uint32_t rnd(void)
{
	return test_rand32(&rng_state);
}

static const char *const alphabets[] = {
	"ab", "aAbB", "abcABC\x00\xff", "xyzXYZ01 \r\n",
};

static uint8_t rnd_byte(int alpha)
{
	if (alpha == 4)
		return (uint8_t)rnd();
	const char *a = alphabets[alpha];
	size_t n = alpha == 2 ? 8 : strlen(a);

	return (uint8_t)a[rnd() % n];
}

/* Short lengths dominate so that random patterns do match. */
static uint16_t rnd_len(void)
{
	uint32_t r = rnd() % 100;

	if (r < 60)
		return (uint16_t)(1 + rnd() % 4);
	if (r < 90)
		return (uint16_t)(1 + rnd() % 12);
	return (uint16_t)(1 + rnd() % 64);
}

static void random_patterns(struct tpat *pats, size_t n, int alpha,
			    const uint8_t *src, uint32_t srclen)
{
	for (size_t i = 0; i < n; i++) {
		struct tpat *t = &pats[i];
		uint32_t r = rnd() % 100;

		t->nocase = rnd() & 1;
		t->id = rnd() % (uint32_t)(n * 2 + 1);
		if (i > 0 && r < 8) {
			/* same bytes, another id or an exact duplicate */
			*t = pats[rnd() % i];
			if (r < 4)
				t->id = rnd() % (uint32_t)(n * 2 + 1);
			continue;
		}
		t->len = rnd_len();
		if (src && srclen >= t->len && r < 60) {
			/* a piece of the data, some letters case-flipped */
			memcpy(t->b, src + rnd() % (srclen - t->len + 1), t->len);
			for (int k = 0; k < t->len; k++)
				if ((rnd() % 8) == 0 && (fold(t->b[k]) >= 'a' && fold(t->b[k]) <= 'z'))
					t->b[k] ^= 0x20;
		} else {
			for (int k = 0; k < t->len; k++)
				t->b[k] = rnd_byte(alpha);
		}
	}
}

/* mpm_prefilter must give exactly the ids of want (sorted pairs), each once. */
static int prefilter_ids_equal(const MpmCtx *ctx, MpmScratch *scr, const uint8_t *buf,
			       uint32_t len, const struct pairs *want)
{
	uint32_t max = 0, nwant = 0;
	MpmMatchSet *ms;
	int ok;

	for (size_t k = 0; k < want->n; k++) {
		if (want->v[k].id > max)
			max = want->v[k].id;
		nwant += k == 0 || want->v[k].id != want->v[k - 1].id;
	}
	ms = mpm_matchset_new(mpm_max_pattern_id(ctx) > max ? mpm_max_pattern_id(ctx) : max);
	if (!ms)
		abort();
	mpm_prefilter(ctx, scr, buf, len, ms);
	ok = mpm_matchset_count(ms) == nwant;
	for (size_t k = 0; k < want->n && ok; k++)
		ok = mpm_matchset_has(ms, want->v[k].id);
	mpm_matchset_free(ms);
	return ok;
}

/* Compares every variant with the naive matcher on each buffer. */
static int check_round(const struct tpat *pats, size_t n, const uint8_t *const *bufs,
		       const uint32_t *lens, int nbufs, const char *what, int round,
		       size_t *total)
{
	MpmCtx *ctx[V_N] = { 0 };
	MpmScratch *scr[V_N] = { 0 };
	struct pairs want = { 0 }, got = { 0 };
	int bad = 0;

	for (int v = 0; v < V_N; v++) {
		if (v == V_HS && !mpm_have_hs())
			continue;
		ctx[v] = build(v, pats, n);
		if (!ctx[v]) {
			printf("  %s round %d: %s build failed\n", what, round, variant_name[v]);
			bad = 1;
			goto out;
		}
		scr[v] = mpm_scratch_new(ctx[v]);
	}
	for (int b = 0; b < nbufs && !bad; b++) {
		pairs_reset(&want);
		naive_search(pats, n, bufs[b], lens[b], &want);
		pairs_sort(&want);
		*total += want.n;
		for (int v = 0; v < V_N && !bad; v++) {
			if (!ctx[v])
				continue;
			pairs_reset(&got);
			uint32_t r = mpm_search(ctx[v], scr[v], bufs[b], lens[b], pairs_cb, &got);

			/* the API promises increasing end offsets (ac scans long
			 * buffers in two lanes and must keep that order) */
			for (size_t k = 1; k < got.n && !bad; k++)
				if (got.v[k].end < got.v[k - 1].end) {
					printf("  %s round %d buf %d: %s reported end %u after %u\n",
					       what, round, b, variant_name[v], got.v[k].end,
					       got.v[k - 1].end);
					bad = 1;
				}
			pairs_sort(&got);
			if (r != got.n || !pairs_equal(&got, &want)) {
				printf("  %s round %d buf %d (len %u, %zu patterns): %s gave %zu"
				       " (returned %u), naive %zu\n", what, round, b, lens[b], n,
				       variant_name[v], got.n, r, want.n);
				bad = 1;
			}
			if (!bad && !prefilter_ids_equal(ctx[v], scr[v], bufs[b], lens[b], &want)) {
				printf("  %s round %d buf %d: %s mpm_prefilter ids differ\n",
				       what, round, b, variant_name[v]);
				bad = 1;
			}
			if (v == V_HS)
				continue;
			/* the step functions shared with the GPU code */
			pairs_reset(&got);
			walk_view(&mpm_ac_automaton(ctx[v])->v, bufs[b], lens[b], &got);
			pairs_sort(&got);
			if (!pairs_equal(&got, &want)) {
				printf("  %s round %d buf %d: %s ac_next walk gave %zu, naive %zu\n",
				       what, round, b, variant_name[v], got.n, want.n);
				bad = 1;
			}
		}
	}
out:
	for (int v = 0; v < V_N; v++) {
		mpm_scratch_free(scr[v]);
		mpm_free(ctx[v]);
	}
	free(want.v);
	free(got.v);
	return bad;
}

TEST(mpm_property_random_buffers_ac_hs_naive_agree)
{
	static struct tpat pats[300];
	static uint8_t bufmem[3][4096];
	const uint8_t *bufs[3] = { bufmem[0], bufmem[1], bufmem[2] };
	uint32_t lens[3];
	size_t total = 0;

	rng_state = 0x9e3779b97f4a7c15ull;
	for (int round = 0; round < 200; round++) {
		int alpha = round % 5;
		size_t n = 1 + rnd() % 300;

		for (int b = 0; b < 3; b++) {
			lens[b] = b == 2 ? rnd() % 16 : rnd() % 4097;
			for (uint32_t i = 0; i < lens[b]; i++)
				bufmem[b][i] = rnd_byte(alpha);
		}
		random_patterns(pats, n, alpha, bufmem[0], lens[0]);
		CHECK_EQ(check_round(pats, n, bufs, lens, 3, "random", round, &total), 0);
	}
	/* the test is worthless if nothing matched */
	CHECK(total > 100000);
}

/* The 3-byte skip filter (ac.c ac_skip3): few literals over a wide
 * alphabet, so the scan really skips; only >= 3-byte literals in odd rounds
 * (no short-literal map), some 1-/2-byte ones in even rounds; occurrences
 * planted at both ends of short buffers, whose lengths cross the 8-position
 * rounds and the tail where the third byte is past the end. */
TEST(mpm_property_skip_filter_ac_naive_agree)
{
	static struct tpat pats[40];
	static uint8_t bufmem[4][700];
	const uint8_t *bufs[4] = { bufmem[0], bufmem[1], bufmem[2], bufmem[3] };
	uint32_t lens[4];
	size_t total = 0;

	rng_state = 0x6a09e667f3bcc908ull;
	for (int round = 0; round < 300; round++) {
		int alpha = (round & 2) ? 4 : 3;
		size_t n = 1 + rnd() % 40;

		for (int b = 0; b < 4; b++) {
			lens[b] = b < 2 ? rnd() % 40 : rnd() % 700;
			for (uint32_t i = 0; i < lens[b]; i++)
				bufmem[b][i] = rnd_byte(alpha);
		}
		for (size_t i = 0; i < n; i++) {
			struct tpat *t = &pats[i];
			int shortok = !(round & 1) && rnd() % 8 == 0;

			t->id = (uint32_t)i;
			t->nocase = rnd() & 1;
			t->len = (uint16_t)(shortok ? 1 + rnd() % 2 : 3 + rnd() % 6);
			if (lens[2] >= t->len && rnd() % 2) {
				memcpy(t->b, bufmem[2] + rnd() % (lens[2] - t->len + 1), t->len);
				for (int k = 0; k < t->len; k++)
					if (rnd() % 4 == 0)
						t->b[k] ^= 0x20;   /* nocase only for letters */
			} else {
				for (int k = 0; k < t->len; k++)
					t->b[k] = (uint8_t)rnd();
			}
		}
		/* a literal ending exactly at the end, one starting at 0 */
		for (int b = 0; b < 4; b++) {
			const struct tpat *t = &pats[rnd() % n];

			if (lens[b] >= t->len && rnd() % 2)
				memcpy(bufmem[b] + lens[b] - t->len, t->b, t->len);
			t = &pats[rnd() % n];
			if (lens[b] >= t->len && rnd() % 2)
				memcpy(bufmem[b], t->b, t->len);
		}
		CHECK_EQ(check_round(pats, n, bufs, lens, 4, "skip", round, &total), 0);
	}
	CHECK(total > 2000);
}

/* The host-only filter maps are built when the filter is on, each only
 * for the literal lengths it serves: quad for 4 bytes and more, tri for
 * exactly 3, short2 for 1 and 2. */
TEST(mpm_ac_skip_filter_tables)
{
	struct tpat lng[2] = { P("needle", 1, 1), P("haystack", 2, 0) };
	struct tpat sht[3] = { P("needle", 1, 1), P("ab", 2, 0), P("z", 3, 1) };
	struct tpat three[2] = { P("abc", 1, 1), P("xyz", 2, 0) };
	MpmCtx *c;
	const AcAutomaton *a;

	c = build(V_AC_FILTER, lng, 2);
	CHECK(c != NULL);
	a = mpm_ac_automaton(c);
	CHECK(a->pair8 != NULL);
	CHECK(a->quad != NULL);
	CHECK(a->tri == NULL);
	CHECK(a->short2 == NULL);
	mpm_free(c);
	c = build(V_AC_FILTER, sht, 3);
	CHECK(c != NULL);
	a = mpm_ac_automaton(c);
	CHECK(a->quad != NULL && a->short2 != NULL && a->tri == NULL);
	mpm_free(c);
	c = build(V_AC_FILTER, three, 2);
	CHECK(c != NULL);
	a = mpm_ac_automaton(c);
	CHECK(a->tri != NULL && a->quad == NULL && a->short2 == NULL);
	mpm_free(c);
	c = build(V_AC_NOFILTER, lng, 2);
	CHECK(c != NULL);
	a = mpm_ac_automaton(c);
	CHECK(a->pair8 == NULL && a->quad == NULL && a->tri == NULL);
	mpm_free(c);
}

/* Near the end of a buffer a 4-byte prefix does not fit: a 3-byte literal
 * there is still found, and a longer one is never looked for past the end
 * (the scan reads nothing beyond len: run under ASan in CI). */
TEST(mpm_ac_prefix_filter_buffer_end)
{
	struct tpat p[] = { P("abc", 1, 0), P("abcdefgh", 2, 0), P("zz", 3, 0) };
	static const char *const bufs[] = { "abc", "xabc", "0123456789abc", "0123456789abcdefgh",
					    "0123456789abcdefg", "zz", "0123456789abzz" };
	struct pairs got = { 0 };
	MpmCtx *ctx = build(V_AC_FILTER, p, 3);

	CHECK(ctx != NULL);
	for (size_t b = 0; ctx && b < sizeof(bufs) / sizeof(bufs[0]); b++) {
		uint32_t len = (uint32_t)strlen(bufs[b]);
		uint8_t *heap = malloc(len);   /* exact size: ASan sees an overread */
		struct pairs want = { 0 };

		memcpy(heap, bufs[b], len);
		naive_search(p, 3, heap, len, &want);
		pairs_sort(&want);
		run(ctx, heap, len, &got);
		pairs_sort(&got);
		CHECK(pairs_equal(&got, &want));
		CHECK(want.n > 0);
		free(want.v);
		free(heap);
	}
	free(got.v);
	mpm_free(ctx);
}

static uint8_t *read_file(const char *path, size_t max, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b;

	if (!f)
		return NULL;
	b = malloc(max);
	if (b)
		*len = fread(b, 1, max, f);
	fclose(f);
	return b;
}

static uint8_t *read_pcap(const char *name, size_t max, size_t *len)
{
	static const char *const dirs[] = {
		"../shared/data/pcaps",
#ifdef SURICATA_TOP_SRCDIR
		SURICATA_TOP_SRCDIR "/../shared/data/pcaps",
#endif
		"/work/shared/data/pcaps",
	};
	char path[1024];
	const char *env = getenv("MPM_PCAP_DIR");

	if (env) {
		snprintf(path, sizeof(path), "%s/%s", env, name);
		return read_file(path, max, len);
	}
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dirs[i], name);
		uint8_t *b = read_file(path, max, len);

		if (b)
			return b;
	}
	return NULL;
}

TEST(mpm_property_pcap_bytes_ac_hs_naive_agree)
{
	static const char *const files[] = { "ndpi/WebattackSQLinj.pcap",
					     "ndpi/1kxun.pcap" };
	static struct tpat pats[300];
	size_t total = 0;

	rng_state = 0x2545f4914f6cdd1dull;
	for (size_t f = 0; f < 2; f++) {
		size_t len = 0;
		uint8_t *data = read_pcap(files[f], 256 * 1024, &len);

		if (!data || len < 8192) {
			printf("  SKIP: %s not found (../shared absent?)\n", files[f]);
			free(data);
			return;
		}
		for (int round = 0; round < 20; round++) {
			const uint8_t *bufs[4];
			uint32_t lens[4];
			size_t n = 1 + rnd() % 300;

			for (int b = 0; b < 4; b++) {
				lens[b] = rnd() % 4097;
				bufs[b] = data + rnd() % (len - lens[b] + 1);
			}
			/* patterns cut from anywhere in the file: real protocol
			 * strings, some of which occur in the buffers */
			random_patterns(pats, n, 4, data, (uint32_t)len);
			if (check_round(pats, n, bufs, lens, 4, files[f], round, &total)) {
				free(data);
				CHECK(!"pcap round disagreed");
			}
		}
		free(data);
	}
	CHECK(total > 1000);
}

/* ---- run literals (mpm/runs.h) ---- */

static struct ac_pattern run_pat(uint8_t *bytes, size_t *nb, uint8_t byte, uint16_t len,
				 uint32_t id, int nocase)
{
	struct ac_pattern p = { .id = id, .off = (uint32_t)*nb, .len = len,
				.nocase = (uint8_t)nocase };

	memset(bytes + *nb, byte, len);
	*nb += len;
	return p;
}

/* The ids (and first ends) a naive search finds for run literals. */
static void naive_runs(const struct ac_pattern *pats, size_t n, const uint8_t *bytes,
		       const uint8_t *buf, uint32_t len, struct pairs *out)
{
	for (size_t k = 0; k < n; k++) {
		struct tpat t = { .len = pats[k].len, .id = pats[k].id, .nocase = pats[k].nocase };

		memcpy(t.b, bytes + pats[k].off, t.len);
		for (uint32_t e = t.len; e <= len; e++)
			if (eq_bytes(buf + e - t.len, t.b, t.len, t.nocase)) {
				pairs_cb(out, t.id, e);
				break;
			}
	}
}

/* Which literals are run literals: one byte repeated, MPM_RUN_MIN_LEN or
 * more of it, folded when nocase. */
TEST(mpm_run_literal_is_one_byte_repeated)
{
	uint8_t bytes[64] = "aaaaAaaaaAaaab\0\0\0\0\0";
	struct ac_pattern mixed = { .off = 4, .len = 5 },
			  tail = { .off = 9, .len = 5 }, zeros = { .off = 14, .len = 5 },
			  short_zeros = { .off = 14, .len = MPM_RUN_MIN_LEN - 1 };

	CHECK_EQ(MPM_RUN_MIN_LEN <= 5, 1);
	CHECK_EQ(mpm_run_literal(&zeros, bytes), 1);
	CHECK_EQ(mpm_run_literal(&short_zeros, bytes), 0);
	CHECK_EQ(mpm_run_literal(&mixed, bytes), 0);    /* "Aaaaa" exact */
	mixed.nocase = 1;
	CHECK_EQ(mpm_run_literal(&mixed, bytes), 1);    /* "Aaaaa" nocase */
	tail.nocase = 1;
	CHECK_EQ(mpm_run_literal(&tail, bytes), 0);     /* "Aaaab" */
}

/* The finder: a run long enough anywhere (start, middle, end), each
 * literal once at the end of its first occurrence, nocase letters across
 * cases, exact ones not, a run one byte short never. */
TEST(mpm_runs_finder_named_cases)
{
	uint8_t bytes[128];
	size_t nb = 0;
	struct ac_pattern pats[4];
	MpmRuns *r;
	struct pairs got = { 0 };

	pats[0] = run_pat(bytes, &nb, 0x00, 5, 10, 0);
	pats[1] = run_pat(bytes, &nb, 'a', 6, 11, 1);
	pats[2] = run_pat(bytes, &nb, 'Z', 5, 12, 0);
	pats[3] = run_pat(bytes, &nb, 0x00, 9, 13, 0);
	r = mpm_runs_build(pats, 4, bytes);
	CHECK(r != NULL);
	CHECK_EQ(mpm_runs_count(r), 4);
	/* five zeros at the start, again later: once, at 5 */
	CHECK_EQ(mpm_runs_scan(r, BUF("\0\0\0\0\0xyz\0\0\0\0\0\0"), pairs_cb, &got), 1);
	CHECK_EQ(got.n, 1);
	CHECK_EQ(got.v[0].id, 10);
	CHECK_EQ(got.v[0].end, 5);
	/* four zeros, "zzzzz" for exact "ZZZZZ": nothing */
	pairs_reset(&got);
	CHECK_EQ(mpm_runs_scan(r, BUF("ab\0\0\0\0cdzzzzzq"), pairs_cb, &got), 0);
	/* "aAaAaA" for nocase "aaaaaa", "ZZZZZ" at the very end */
	pairs_reset(&got);
	CHECK_EQ(mpm_runs_scan(r, BUF("..aAaAaA....ZZZZZ"), pairs_cb, &got), 2);
	pairs_sort(&got);
	CHECK_EQ(got.v[0].id, 11);
	CHECK_EQ(got.v[0].end, 8);
	CHECK_EQ(got.v[1].id, 12);
	CHECK_EQ(got.v[1].end, 17);
	/* nine zeros: both zero literals, at their own ends */
	pairs_reset(&got);
	CHECK_EQ(mpm_runs_scan(r, BUF("x\0\0\0\0\0\0\0\0\0"), pairs_cb, &got), 2);
	pairs_sort(&got);
	CHECK_EQ(got.v[0].id, 10);
	CHECK_EQ(got.v[0].end, 6);
	CHECK_EQ(got.v[1].id, 13);
	CHECK_EQ(got.v[1].end, 10);
	/* shorter than the shortest literal */
	pairs_reset(&got);
	CHECK_EQ(mpm_runs_scan(r, BUF("\0\0\0\0"), pairs_cb, &got), 0);
	free(got.v);
	mpm_runs_free(r);
}

/* Random buffers made of runs (zeros, letters in both cases, a few other
 * bytes) against random run literals: the finder gives what a naive
 * search gives, ids and first ends. The sampling and its skips past
 * measured runs are what this checks (an exact run inside a longer nocase
 * one, runs of other bytes right after). */
TEST(mpm_property_runs_finder_naive_agree)
{
	static const uint8_t run_bytes[] = { 0x00, 'a', 'A', 'b', 'B', '0', 0xff, '$' };
	uint8_t bytes[MPM_RUNS_MAX * 16], buf[600];
	struct pairs want = { 0 }, got = { 0 };
	size_t total = 0;

	rng_state = 0x5eed0f4e1e5ull;
	for (int round = 0; round < 400; round++) {
		struct ac_pattern pats[MPM_RUNS_MAX];
		size_t n = 1 + rnd() % 12, nb = 0;
		uint32_t len = 0, want_len = rnd() % sizeof(buf);
		MpmRuns *r;

		for (size_t k = 0; k < n; k++)
			pats[k] = run_pat(bytes, &nb, run_bytes[rnd() % sizeof(run_bytes)],
					  (uint16_t)(MPM_RUN_MIN_LEN + rnd() % 10), (uint32_t)k,
					  (int)(rnd() & 1));
		r = mpm_runs_build(pats, (uint32_t)n, bytes);
		CHECK(r != NULL);
		while (len < want_len) {
			uint32_t run = 1 + rnd() % 14;
			uint8_t b = run_bytes[rnd() % sizeof(run_bytes)];

			for (uint32_t k = 0; k < run && len < want_len; k++)
				buf[len++] = (rnd() % 9) ? b : (uint8_t)(b ^ 0x20);
		}
		pairs_reset(&want);
		pairs_reset(&got);
		naive_runs(pats, n, bytes, buf, len, &want);
		CHECK_EQ(mpm_runs_scan(r, buf, len, pairs_cb, &got), (uint32_t)want.n);
		pairs_sort(&want);
		pairs_sort(&got);
		if (!pairs_equal(&got, &want)) {
			printf("  round %d (len %u, %zu literals): finder %zu, naive %zu\n", round,
			       len, n, got.n, want.n);
			CHECK(!"finder and naive disagree");
		}
		total += want.n;
		mpm_runs_free(r);
	}
	CHECK(total > 500);
	free(want.v);
	free(got.v);
}

/* A sets-only hs context takes its run literals apart: its prefilter set
 * is still ac's, with a run literal among ordinary ones. */
TEST(mpm_hs_sets_only_run_literals_as_ac)
{
	static const char *const pats[] = { "abc", "\0\0\0\0\0", "xxxxxxxx", "q" };
	static const uint16_t lens[] = { 3, 5, 8, 1 };
	static const struct { const char *b; uint32_t len; uint32_t n; } bufs[] = {
		{ "abc\0\0\0\0\0", 8, 2 }, { "\0\0\0\0xxxxxxx", 11, 0 },
		{ "XXXXXXXXxxxxxxxxq", 17, 2 }, { "", 0, 0 },
	};
	struct set_pair sp;
	struct pairs got = { 0 };

	if (set_pair_build(&sp, pats, lens, 4) != 0)
		return;
	CHECK_EQ(mpm_pattern_count(sp.hs), 4);
	for (int b = 0; b < 4; b++) {
		mpm_matchset_clear(sp.ma);
		mpm_matchset_clear(sp.mh);
		mpm_prefilter(sp.ac, sp.sa, (const uint8_t *)bufs[b].b, bufs[b].len, sp.ma);
		mpm_prefilter(sp.hs, sp.sh, (const uint8_t *)bufs[b].b, bufs[b].len, sp.mh);
		CHECK_EQ(mpm_matchset_count(sp.ma), bufs[b].n);
		CHECK_EQ(mpm_matchset_count(sp.mh), bufs[b].n);
		for (uint32_t i = 0; i < 4; i++)
			CHECK_EQ(mpm_matchset_has(sp.mh, i), mpm_matchset_has(sp.ma, i));
	}
	/* mpm_search reports the run literal once, where it first ends */
	CHECK_EQ(mpm_search(sp.hs, sp.sh, BUF("\0\0\0\0\0\0\0q"), pairs_cb, &got), 2);
	pairs_sort(&got);
	CHECK_EQ(got.v[0].id, 1);
	CHECK_EQ(got.v[0].end, 5);
	CHECK_EQ(got.v[1].id, 3);
	free(got.v);
	set_pair_free(&sp);
}

/* The head finder against a naive search: random bounded patterns (many
 * sharing their first two bytes, nocase and exact, one byte long, bounds
 * from their length to MPM_HEAD_MAX) on random buffers, every (id, end)
 * where a pattern ends within its bound; exact duplicates once. */
TEST(mpm_property_head_finder_naive_agree)
{
	struct tpat pats[96];
	uint32_t bound[96];
	struct pairs want = { 0 }, got = { 0 };
	uint8_t bytes[96 * 64], buf[80];
	size_t total = 0;

	rng_state = 0x4ead5ca11ull;
	for (int round = 0; round < 500; round++) {
		struct ac_pattern ap[96];
		size_t n = 1 + rnd() % 96, nb = 0;
		int alpha = (int)(rnd() % 3);
		uint32_t len = rnd() % sizeof(buf);
		MpmHead *h;

		for (size_t k = 0; k < n; k++) {
			struct tpat *t = &pats[k];

			if (k > 0 && rnd() % 8 == 0) {
				/* a duplicate, or the same bytes under another bound */
				*t = pats[rnd() % k];
				bound[k] = rnd() % 2 ? bound[k - 1] : t->len + rnd() % 9;
				if (bound[k] < t->len)
					bound[k] = t->len;
			} else {
				t->len = (uint16_t)(1 + (rnd() % 4 ? rnd() % 4 : rnd() % 20));
				t->nocase = rnd() & 1;
				t->id = rnd() % 64;
				for (int i = 0; i < t->len; i++)
					t->b[i] = rnd_byte(alpha);
				bound[k] = t->len + (rnd() % 4 ? rnd() % 3 : rnd() % (MPM_HEAD_MAX - t->len + 1));
			}
			memcpy(bytes + nb, t->b, t->len);
			ap[k] = (struct ac_pattern){ .id = t->id, .off = (uint32_t)nb, .len = t->len,
						     .nocase = (uint8_t)t->nocase };
			nb += t->len;
		}
		for (uint32_t i = 0; i < len; i++)
			buf[i] = rnd_byte(alpha);
		h = mpm_head_build(ap, bound, (uint32_t)n, bytes);
		CHECK(h != NULL);
		pairs_reset(&want);
		pairs_reset(&got);
		for (size_t k = 0; k < n; k++) {
			int dup = 0;

			for (size_t j = 0; j < k && !dup; j++)
				dup = pats[j].id == pats[k].id && pats[j].len == pats[k].len &&
				      pats[j].nocase == pats[k].nocase && bound[j] == bound[k] &&
				      !memcmp(pats[j].b, pats[k].b, pats[k].len);
			if (dup)
				continue;
			for (uint32_t end = pats[k].len; end <= len && end <= bound[k]; end++)
				if (eq_bytes(buf + end - pats[k].len, pats[k].b, pats[k].len,
					     pats[k].nocase))
					pairs_cb(&want, pats[k].id, end);
		}
		CHECK_EQ(mpm_head_scan(h, buf, len, pairs_cb, &got), (uint32_t)want.n);
		pairs_sort(&want);
		pairs_sort(&got);
		if (!pairs_equal(&got, &want)) {
			printf("  round %d (len %u, %zu patterns): head %zu, naive %zu\n", round, len,
			       n, got.n, want.n);
			CHECK(!"head finder and naive disagree");
		}
		total += want.n;
		mpm_head_free(h);
	}
	CHECK(total > 1000);
	free(want.v);
	free(got.v);
}
