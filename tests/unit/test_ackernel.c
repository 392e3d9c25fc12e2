/* The ac-cuda scan functions (cuda/ac-kernel.h), every kernel variant, run
 * directly on the CPU: for each batch, the SET of (payload, pattern id)
 * pairs a kernel reports must equal the set ac_search finds, and every
 * record must be a real occurrence (the pattern ends at `end`). That is the
 * output contract the host relies on; occurrences beyond the first may be
 * left out, duplicates are allowed.
 *
 * Random patterns and payloads, the edges (matches across windows and
 * 64-byte filter runs, the last payload of a batch, one-byte patterns,
 * zero runs, exact-case patterns, literals deeper than 255, gaps between
 * payloads), and, when ../shared (or $SURICATA_SHARED) is there, ET Open
 * contents over real capture bytes. */
#include "config.h"
#include "test.h"

#include <dirent.h>
#include <stdlib.h>

#include "cuda/ac-kernel.h"
#include "mpm/ac.h"

/* ---- deterministic randomness ---- */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
	return test_xorshift(&rng);
}

static uint8_t rnd_byte(void)
{
	static const char alpha[] = "abcABC\0\x01xyz";

	return (uint8_t)alpha[rnd() % 11];
}

/* ---- patterns ---- */

struct pats {
	struct ac_pattern *p;
	uint8_t *bytes;
	uint32_t n, nbytes, cap, bcap;
};

static void pats_add(struct pats *s, const uint8_t *b, uint16_t len, int nocase)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->p = realloc(s->p, s->cap * sizeof(*s->p));
	}
	while (s->nbytes + len > s->bcap) {
		s->bcap = s->bcap ? 2 * s->bcap : 4096;
		s->bytes = realloc(s->bytes, s->bcap);
	}
	memcpy(s->bytes + s->nbytes, b, len);
	/* ids from 1; every 7th pattern shares its id with the one before
	 * (one rule, two contents), as the MPM front end may hand them over */
	s->p[s->n] = (struct ac_pattern){ .id = s->n % 7 == 6 ? s->n : s->n + 1,
					  .off = s->nbytes, .len = len,
					  .nocase = (uint8_t)(nocase != 0) };
	s->nbytes += len;
	s->n++;
}

static void pats_free(struct pats *s)
{
	free(s->p);
	free(s->bytes);
	memset(s, 0, sizeof(*s));
}

static AcAutomaton *build(const struct pats *s, size_t dense_budget, int width)
{
	struct ac_opts o = AC_OPTS_DEFAULT;
	char err[256];
	AcAutomaton *a;

	o.dense_budget = dense_budget;
	o.width = width;
	o.gpu_lists = 1;
	a = ac_build_opts(s->p, s->n, s->bytes, &o, err, sizeof(err));
	if (!a)
		printf("  ac_build: %s\n", err);
	return a;
}

/* ---- a batch ---- */

#define MAXPAY 4096

struct batch {
	uint8_t *data;              /* 16-aligned, as cudaMalloc's */
	uint32_t nbytes, cap;
	struct acc_desc desc[MAXPAY];
	uint32_t npay;
};

static void batch_init(struct batch *b, uint32_t cap)
{
	memset(b, 0, sizeof(*b));
	b->cap = cap;
	b->data = aligned_alloc(64, (cap + 63) & ~63u);
}

/* A payload of len bytes, after `gap` bytes that belong to no payload. */
static uint8_t *batch_add(struct batch *b, uint32_t len, uint32_t gap, uint16_t group)
{
	if (b->npay == MAXPAY || b->nbytes + gap + len > b->cap)
		return NULL;
	for (uint32_t i = 0; i < gap; i++)
		b->data[b->nbytes + i] = rnd_byte();
	b->nbytes += gap;
	b->desc[b->npay++] = (struct acc_desc){ .off = b->nbytes, .len = (uint16_t)len,
						.group = group };
	b->nbytes += len;
	return b->data + b->nbytes - len;
}

/* ---- match sets ---- */

struct pairs {
	uint64_t *v;   /* payload << 32 | id */
	uint32_t n, cap;
};

static void pairs_add(struct pairs *s, uint32_t payload, uint32_t id)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
	}
	s->v[s->n++] = (uint64_t)payload << 32 | id;
}

static int u64_cmp(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

static void pairs_unique(struct pairs *s)
{
	uint32_t w = 0;

	if (s->n)
		qsort(s->v, s->n, sizeof(*s->v), u64_cmp);
	for (uint32_t i = 0; i < s->n; i++)
		if (w == 0 || s->v[w - 1] != s->v[i])
			s->v[w++] = s->v[i];
	s->n = w;
}

/* A pair's id with this bit: a match that starts in a stream view's
 * context (the kernels' ACC_CTX records, group-kernel.h ACG_CTX_START). */
#define REF_CTX 0x80000000u

/* Where payload p's context ends (ac-kernel.h acc_ctx_end, written again):
 * the next descriptor lies inside it and ends where it ends. */
static uint32_t ref_ctx_end(const struct acc_desc *desc, uint32_t npay, uint32_t p)
{
	const struct acc_desc *d = &desc[p], *n = &desc[p + 1];

	if (p + 1 >= npay || n->off <= d->off || n->off >= d->off + d->len ||
	    n->off + n->len != d->off + d->len)
		return 0;
	return n->off - d->off;
}

struct ref_ctx {
	struct pairs *s;
	uint32_t payload;
	const AcAutomaton *a;
	const uint8_t *buf;
	uint32_t cb;
};

static int fold_eq(const uint8_t *a, const uint8_t *b, uint32_t n, int nocase);

static int ref_cb(void *arg, uint32_t id, uint32_t end)
{
	struct ref_ctx *c = arg;
	const struct ac_view *v = &c->a->v;

	/* the pattern of this id that ends here: where it starts */
	for (uint32_t i = 0; i < c->a->blk->npatterns; i++) {
		const struct ac_pattern *p = &v->pat[i];

		if (p->id != id || p->len > end ||
		    !fold_eq(c->buf + end - p->len, v->bytes + p->off, p->len, p->nocase))
			continue;
		pairs_add(c->s, c->payload, id | (end - p->len < c->cb ? REF_CTX : 0));
		return 0;
	}
	pairs_add(c->s, c->payload, id);
	return 0;
}

static int fold_eq(const uint8_t *a, const uint8_t *b, uint32_t n, int nocase)
{
	for (uint32_t i = 0; i < n; i++) {
		uint8_t x = a[i], y = b[i];

		if (nocase) {
			x = (x >= 'A' && x <= 'Z') ? x + 32 : x;
			y = (y >= 'A' && y <= 'Z') ? y + 32 : y;
		}
		if (x != y)
			return 0;
	}
	return 1;
}

/* ---- running a kernel variant on the CPU ---- */

struct run_opts {
	int kernel;
	uint32_t chunk;
	int shared_copy;   /* filter kernel: tables "in shared memory" for group 0 */
};

/* Runs every work item; fills `got` with the (payload, id) pairs, checks
 * each record is an occurrence. Returns the records written, or -1 when
 * one is not a real match. */
static long run_kernel(const struct batch *bt, AcAutomaton *const *autos, uint32_t ngroups,
		       const struct run_opts *ro, struct pairs *got)
{
	struct acc_group groups[4];
	uint32_t cap = 4 * bt->nbytes + 1024, count = 0;
	struct acc_rec *rec = malloc(cap * sizeof(*rec));
	static unsigned long long dslot[2048];
	static struct acc_rec srec[512];
	uint32_t stage_n = 0;
	struct acc_ftab sh, *shp = NULL;
	uint32_t *gp = NULL, *gq = NULL;
	uint8_t cls[256], gsid[256];
	long bad = 0;

	for (uint32_t g = 0; g < ngroups; g++) {
		groups[g].v = autos[g]->v;
		groups[g].maxlen = autos[g]->blk->maxlen;
	}
	struct acc_batch b = { .data = bt->data, .desc = bt->desc, .groups = groups,
			       .npay = bt->npay, .nbytes = bt->nbytes, .chunk = ro->chunk };
	struct acc_sink k = { .rec = rec, .count = &count, .cap = cap };

	if (ro->shared_copy) {
		/* what the CUDA kernel does: group 0's tables copied elsewhere */
		const struct ac_view *v = &autos[0]->v;
		uint32_t qw = v->gquadbits >= 5 ? 1u << (v->gquadbits - 5) : 1;

		gp = malloc(4096 * 4);
		gq = malloc(qw * 4);
		memcpy(gp, v->gpair, 4096 * 4);
		memcpy(gq, v->gquad, qw * 4);
		memcpy(cls, v->cls, 256);
		memcpy(gsid, v->gsid, 256);
		/* and a pair table per tile of 512 windows, 64 slots: crowded */
		sh = (struct acc_ftab){ .cls = cls, .gpair = gp, .gsid = gsid, .gquad = gq,
					.group = 0, .dedup = { dslot, ro->shared_copy > 1 ? 63 : 2047 },
					.stage = { srec, &stage_n, ro->shared_copy > 1 ? 7 : 512 } };
		shp = &sh;
	}
	uint32_t items = acc_items(&b, ro->kernel);

	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i <= items; i++) {
			if (i % 512 == 0 || i == items) {
				/* a tile's end: staged records out, table cleared */
				if (shp) {
					acc_stage_copy(&sh.stage, &k, count, 0, 1);
					count += stage_n < sh.stage.cap ? stage_n : sh.stage.cap;
				}
				stage_n = 0;
				memset(dslot, 0xff, sizeof(dslot));
			}
			if (i == items)
				break;
			if (shp && ro->kernel == ACC_KERNEL_FILTER)
				acc_scan_filter(&b, &k, i, shp);
			else
				acc_run_item(&b, &k, ro->kernel, i);
		}
		if (count <= cap)
			break;
		/* every occurrence (the reference kernel): again, with room */
		cap = count;
		rec = realloc(rec, cap * sizeof(*rec));
		k.rec = rec;
		k.cap = cap;
		count = 0;
	}
	if (count > cap) {
		printf("  record buffer too small: %u > %u\n", count, cap);
		bad = 1;
		count = cap;
	}
	for (uint32_t r = 0; r < count && !bad; r++) {
		const struct acc_desc *d = &bt->desc[rec[r].payload];
		const struct ac_view *v = &autos[d->group]->v;
		const struct ac_pattern *p = &v->pat[rec[r].pat & ~ACC_CTX];
		uint32_t cb = ref_ctx_end(bt->desc, bt->npay, rec[r].payload);

		if (rec[r].payload >= bt->npay || rec[r].end > d->len || rec[r].end < p->len ||
		    !fold_eq(bt->data + d->off + rec[r].end - p->len, v->bytes + p->off,
			     p->len, p->nocase) ||
		    !(rec[r].pat & ACC_CTX) != !(rec[r].end - p->len < cb)) {
			printf("  record %u (payload %u, pat %u, end %u) is no match\n", r,
			       rec[r].payload, rec[r].pat, rec[r].end);
			bad = 1;
			break;
		}
		pairs_add(got, rec[r].payload, p->id | (rec[r].pat & ACC_CTX ? REF_CTX : 0));
	}
	free(rec);
	free(gp);
	free(gq);
	return bad ? -1 : (long)count;
}

static void reference(const struct batch *bt, AcAutomaton *const *autos, struct pairs *want)
{
	for (uint32_t p = 0; p < bt->npay; p++) {
		struct ref_ctx c = { want, p, autos[bt->desc[p].group], bt->data + bt->desc[p].off,
				     ref_ctx_end(bt->desc, bt->npay, p) };

		ac_search(autos[bt->desc[p].group], bt->data + bt->desc[p].off,
			  bt->desc[p].len, ref_cb, &c);
	}
	pairs_unique(want);
}

static const struct run_opts variants[] = {
	{ ACC_KERNEL_PAYLOAD, 64, 0 },
	{ ACC_KERNEL_CHUNK, 64, 0 },
	{ ACC_KERNEL_CHUNK, 16, 0 },
	{ ACC_KERNEL_FILTER, 64, 0 },
	{ ACC_KERNEL_FILTER, 64, 1 },
	{ ACC_KERNEL_FILTER, 16, 0 },
	{ ACC_KERNEL_FILTER, 48, 1 },
	{ ACC_KERNEL_FILTER, 100, 0 },
	{ ACC_KERNEL_FILTER, 256, 1 },
	{ ACC_KERNEL_FILTER, 32, 2 },
	{ ACC_KERNEL_FILTER, 4096, 0 },
};

#define NVARIANTS (sizeof(variants) / sizeof(variants[0]))

/* Every variant's set equals ac's. Returns 0, or 1 with a message. */
static int all_equal(const struct batch *bt, AcAutomaton *const *autos, uint32_t ngroups,
		     const char *what, uint32_t *nref)
{
	struct pairs want = { 0 };

	reference(bt, autos, &want);
	if (nref)
		*nref = want.n;
	for (size_t i = 0; i < NVARIANTS; i++) {
		struct pairs got = { 0 };
		long nrec = run_kernel(bt, autos, ngroups, &variants[i], &got);

		pairs_unique(&got);
		if (nrec < 0 || got.n != want.n ||
		    (want.n && memcmp(got.v, want.v, want.n * sizeof(*want.v)) != 0)) {
			uint32_t miss = 0, extra = 0, a = 0, b = 0;

			while (a < want.n || b < got.n) {
				if (b == got.n || (a < want.n && want.v[a] < got.v[b])) {
					if (!miss++)
						printf("  first missing: payload %u id %u\n",
						       (uint32_t)(want.v[a] >> 32), (uint32_t)want.v[a]);
					a++;
				} else if (a == want.n || got.v[b] < want.v[a]) {
					extra++;
					b++;
				} else {
					a++;
					b++;
				}
			}
			printf("  %s: kernel %d chunk %u shared %d: %u pairs, ac %u "
			       "(missing %u, extra %u)\n", what, variants[i].kernel,
			       variants[i].chunk, variants[i].shared_copy, got.n, want.n,
			       miss, extra);
			free(got.v);
			free(want.v);
			return 1;
		}
		free(got.v);
	}
	free(want.v);
	return 0;
}

/* ---- tests ---- */

static void random_pats(struct pats *s, uint32_t n, uint32_t maxlen)
{
	for (uint32_t i = 0; i < n; i++) {
		uint8_t b[300];
		uint16_t len = (uint16_t)(1 + rnd() % maxlen);

		for (uint16_t k = 0; k < len; k++)
			b[k] = rnd_byte();
		pats_add(s, b, len, rnd() & 1);
	}
}

static void random_batch(struct batch *bt, uint32_t npay, uint32_t maxlen, int gaps,
			 uint32_t ngroups)
{
	for (uint32_t p = 0; p < npay; p++) {
		uint32_t len = 1 + rnd() % maxlen;
		uint8_t *d = batch_add(bt, len, gaps ? rnd() % 24 : 0,
				       (uint16_t)(ngroups > 1 ? rnd() % ngroups : 0));

		if (!d)
			break;
		for (uint32_t i = 0; i < len; i++)
			d[i] = rnd_byte();
	}
}

TEST(ackernel_every_variant_equals_ac_on_random_data)
{
	static const size_t budgets[] = { 0, 4096, AC_DENSE_BUDGET_DEFAULT };
	uint32_t total = 0;

	for (int round = 0; round < 60; round++) {
		struct pats s = { 0 };
		struct batch bt;
		AcAutomaton *a;
		uint32_t nref = 0;
		char what[64];

		random_pats(&s, 1 + rnd() % 80, 1 + rnd() % 12);
		a = build(&s, budgets[round % 3], round % 4 == 3 ? 4 : 0);
		CHECK(a != NULL);
		batch_init(&bt, 64 * 1024);
		random_batch(&bt, 1 + rnd() % 200, 1 + rnd() % 700, round & 1, 1);
		snprintf(what, sizeof(what), "round %d", round);
		int bad = all_equal(&bt, &a, 1, what, &nref);

		ac_free(a);
		free(bt.data);
		pats_free(&s);
		CHECK(!bad);
		total += nref;
	}
	CHECK(total > 1000);
}

TEST(ackernel_two_groups_in_one_batch)
{
	struct pats s1 = { 0 }, s2 = { 0 };
	struct batch bt;
	AcAutomaton *a[2];

	random_pats(&s1, 40, 6);
	random_pats(&s2, 25, 9);
	a[0] = build(&s1, AC_DENSE_BUDGET_DEFAULT, 0);
	a[1] = build(&s2, 0, 0);
	CHECK(a[0] && a[1]);
	batch_init(&bt, 128 * 1024);
	random_batch(&bt, 300, 600, 1, 2);
	int bad = all_equal(&bt, a, 2, "two groups", NULL);

	ac_free(a[0]);
	ac_free(a[1]);
	free(bt.data);
	pats_free(&s1);
	pats_free(&s2);
	CHECK(!bad);
}

/* A TCP payload's two views share its bytes (ac-cuda.c rx_fill): the
 * stream view's descriptor covers context + payload with one automaton,
 * the packet view's, the next one, the payload alone with another. Every
 * variant's set must equal ac's over each descriptor's own bytes, whatever
 * window the outer descriptor's start or the inner one's falls in. */
TEST(ackernel_nested_views_share_bytes)
{
	struct pats s1 = { 0 }, s2 = { 0 };
	struct batch bt;
	AcAutomaton *a[2];

	random_pats(&s1, 40, 6);
	random_pats(&s2, 30, 9);
	a[0] = build(&s1, AC_DENSE_BUDGET_DEFAULT, 0);
	a[1] = build(&s2, 0, 0);
	CHECK(a[0] && a[1]);
	batch_init(&bt, 256 * 1024);
	for (uint32_t p = 0; p + 2 <= MAXPAY && p < 600; p += 2) {
		uint32_t ctx = rnd() % 3 ? rnd() % 40 : 0, len = 1 + rnd() % 500;
		uint8_t *d;

		if (p % 10 == 4) {
			/* now and then a payload with one view */
			if (!(d = batch_add(&bt, len, 0, 0)))
				break;
			for (uint32_t i = 0; i < len; i++)
				d[i] = rnd_byte();
			continue;
		}
		if (!(d = batch_add(&bt, ctx + len, rnd() % 4 ? 0 : rnd() % 24, 1)))
			break;
		for (uint32_t i = 0; i < ctx + len; i++)
			d[i] = rnd_byte();
		if (bt.npay == MAXPAY)
			break;
		uint32_t off = bt.desc[bt.npay - 1].off + ctx;

		bt.desc[bt.npay++] = (struct acc_desc){ .off = off, .len = (uint16_t)len,
							.group = 0 };
	}
	int bad = all_equal(&bt, a, 2, "nested views", NULL);

	ac_free(a[0]);
	ac_free(a[1]);
	free(bt.data);
	pats_free(&s1);
	pats_free(&s2);
	CHECK(!bad);
}

/* ---- grouping on the device (cuda/group-kernel.h) ---- */

#include "cuda/group-kernel.h"

/* The grouping steps make each payload's SET of caller ids and of passed
 * programs, each once, whatever order the records come in: two groups
 * (pattern ids that overlap between them), the reference kernel's records
 * (every occurrence: many repeats), shuffled across payloads, with pass
 * records (repeated too) and records that name no pattern or program
 * mixed in. Each payload's table must equal ac's set and the programs
 * added, nothing twice. */
TEST(ackernel_grouping_is_exact_on_shuffled_records)
{
	struct pats s1 = { 0 }, s2 = { 0 };
	struct batch bt;
	AcAutomaton *a[2];
	struct acc_group groups[2];
	struct pairs want = { 0 }, wantp = { 0 }, got = { 0 }, gotp = { 0 };
	enum { NPROG = 50 };
	int bad = 0;

	random_pats(&s1, 30, 4);
	random_pats(&s2, 20, 3);
	a[0] = build(&s1, AC_DENSE_BUDGET_DEFAULT, 0);
	a[1] = build(&s2, 0, 0);
	CHECK(a[0] && a[1]);
	batch_init(&bt, 64 * 1024);
	random_batch(&bt, 150, 300, 1, 2);
	reference(&bt, a, &want);
	for (uint32_t g = 0; g < 2; g++)
		groups[g] = (struct acc_group){ .v = a[g]->v, .maxlen = a[g]->blk->maxlen,
						.npat = a[g]->blk->npatterns };

	struct acc_batch b = { .data = bt.data, .desc = bt.desc, .groups = groups,
			       .npay = bt.npay, .nbytes = bt.nbytes, .chunk = 64 };
	uint32_t cap = 8 * bt.nbytes + 4096, count = 0;
	struct acc_rec *rec = malloc(cap * sizeof(*rec));
	struct acc_sink k = { .rec = rec, .count = &count, .cap = cap };

	for (uint32_t p = 0; p < bt.npay; p++)
		acc_scan_payload(&b, &k, p);
	CHECK(count < cap - 4 * bt.npay);
	uint32_t nscan = count;
	struct pairs pi = { 0 }, wantm = { 0 };

	/* the multiset the table must hold: an id per distinct (payload,
	 * pattern index), so two patterns with one id give it twice */
	for (uint32_t r = 0; r < nscan; r++)
		pairs_add(&pi, rec[r].payload, rec[r].pat);
	pairs_unique(&pi);
	for (uint32_t r = 0; r < pi.n; r++) {
		uint32_t p = (uint32_t)(pi.v[r] >> 32);

		uint32_t pat = (uint32_t)pi.v[r];

		/* a context match's id is flagged */
		pairs_add(&wantm, p, groups[bt.desc[p].group].v.pat[pat & ~ACC_CTX].id |
					     (pat & ACC_CTX ? ACG_CTX_START : 0));
	}
	qsort(wantm.v, wantm.n, sizeof(*wantm.v), u64_cmp);

	/* pass records: ~1 in 3 payloads, each program 1-3 times, and the
	 * out of range ones (a program past NPROG, a pattern past npat) */
	for (uint32_t p = 0; p < bt.npay; p++) {
		if (p % 3)
			continue;
		uint32_t prog = rnd() % NPROG, times = 1 + rnd() % 3;

		for (uint32_t t = 0; t < times; t++)
			rec[count++] = (struct acc_rec){ .payload = p, .pat = ACV_PASS | prog };
		pairs_add(&wantp, p, prog);
		if (p % 9 == 0)
			rec[count++] = (struct acc_rec){ .payload = p, .pat = ACV_PASS | NPROG };
	}
	rec[count++] = (struct acc_rec){ .payload = 0, .pat = groups[bt.desc[0].group].npat };
	pairs_unique(&wantp);
	for (uint32_t i = count; i > 1; i--) {
		uint32_t j = rnd() % i;
		struct acc_rec x = rec[i - 1];

		rec[i - 1] = rec[j];
		rec[j] = x;
	}

	struct acg_work w = { .tslots = acg_table_alloc(cap) };
	struct acg_out o = { .cap = cap };

	w.table = malloc(w.tslots * sizeof(*w.table));
	w.cnt = malloc((2 * bt.npay + 1) * sizeof(*w.cnt));
	o.pidx = malloc((2 * bt.npay + 1) * sizeof(*o.pidx));
	o.ids = malloc(cap * sizeof(*o.ids));
	CHECK_EQ(acg_group_serial(&b, rec, count, NPROG, &w, &o), 0);
	for (uint32_t p = 0; p < bt.npay; p++) {
		for (uint32_t i = o.pidx[2 * p]; i < o.pidx[2 * p + 1]; i++)
			pairs_add(&got, p, o.ids[i]);
		for (uint32_t i = o.pidx[2 * p + 1]; i < o.pidx[2 * p + 2]; i++)
			pairs_add(&gotp, p, o.ids[i]);
	}
	qsort(got.v, got.n, sizeof(*got.v), u64_cmp);
	qsort(gotp.v, gotp.n, sizeof(*gotp.v), u64_cmp);
	bad = got.n != wantm.n || (got.n && memcmp(got.v, wantm.v, got.n * sizeof(*got.v)) != 0);
	if (bad)
		printf("  the table holds %u ids, %u distinct (payload, pattern) pairs\n",
		       got.n, wantm.n);
	CHECK(!bad);
	/* and as a set, ac's (pats_add gives two patterns one id at times) */
	pairs_unique(&got);
	CHECK(nscan > 4 * want.n);   /* the repeats were there */
	CHECK_EQ(got.n, want.n);
	CHECK(want.n == 0 || memcmp(got.v, want.v, want.n * sizeof(*want.v)) == 0);
	CHECK_EQ(gotp.n, wantp.n);
	CHECK(wantp.n == 0 || memcmp(gotp.v, wantp.v, wantp.n * sizeof(*wantp.v)) == 0);
	/* too many records for the output: not grouped (the host rescans) */
	o.cap = count - 1;
	CHECK_EQ(acg_group_serial(&b, rec, count, NPROG, &w, &o), -1);
	free(w.table);
	free(w.cnt);
	free(o.pidx);
	free(o.ids);
	free(rec);
	free(want.v);
	free(wantp.v);
	free(got.v);
	free(gotp.v);
	free(pi.v);
	free(wantm.v);
	free(bt.data);
	ac_free(a[0]);
	ac_free(a[1]);
	pats_free(&s1);
	pats_free(&s2);
}

/* The edges, each placed on purpose: matches across every window and
 * 64-position run, the last payload ending at the batch end (not a
 * multiple of 16), zero runs, one-byte and exact-case patterns. */
TEST(ackernel_edges_windows_batch_end_short_zero_case)
{
	static const struct { const char *s; uint16_t len; int nocase; } lits[] = {
		{ "\0\0", 2, 1 }, { "\0\0\0", 3, 1 }, { "\0\0\0\0\0", 5, 1 },
		{ "\0\0\0\0\0\0\0\0", 8, 1 }, { "a", 1, 1 }, { "Z", 1, 0 }, { "\xff", 1, 0 },
		{ "GET ", 4, 0 }, { "get /index", 10, 1 }, { "HTTP/1.1", 8, 0 },
		{ "Host:", 5, 1 }, { "xY", 2, 0 }, { "abc", 3, 0 }, { "ABCD", 4, 0 },
		/* one-byte literals of both kinds on one letter */
		{ "Q", 1, 0 }, { "q", 1, 1 }, { "k", 1, 0 }, { "K", 1, 1 },
		{ "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", 72, 1 },
	};
	struct pats s = { 0 };
	struct batch bt;
	AcAutomaton *a;

	for (size_t i = 0; i < sizeof(lits) / sizeof(lits[0]); i++)
		pats_add(&s, (const uint8_t *)lits[i].s, lits[i].len, lits[i].nocase);
	a = build(&s, AC_DENSE_BUDGET_DEFAULT, 0);
	CHECK(a != NULL);
	batch_init(&bt, 64 * 1024);
	for (int p = 0; p < 120; p++) {
		uint32_t len = 1 + rnd() % 400;
		uint8_t *d = batch_add(&bt, len, 0, 0);

		CHECK(d != NULL);
		for (uint32_t i = 0; i < len; i++)
			d[i] = "xyz ./"[rnd() % 6];
		/* one letter of q, Q, k or K, sometimes */
		if (p % 3 == 0)
			d[rnd() % len] = "qQkK"[rnd() % 4];
		/* a literal placed at a random spot, often across a 16/64 edge */
		size_t li = rnd() % (sizeof(lits) / sizeof(lits[0]));
		uint32_t at = rnd() % len;
		const char *src = lits[li].s;

		for (uint32_t i = 0; i < lits[li].len && at + i < len; i++) {
			uint8_t c = (uint8_t)src[i];

			/* caseless literals in the wrong case, sometimes */
			if (lits[li].nocase && (rnd() & 1) && c >= 'a' && c <= 'z')
				c -= 32;
			d[at + i] = c;
		}
		/* exact-case literals in the wrong case must not match */
		if (p % 9 == 0 && len > 4)
			memcpy(d + len - 4, "get ", 4);
		if (p % 11 == 0 && len > 20)
			memset(d + len / 2, 0, 9);
	}
	/* the last payload: ends at the batch end with a match on its last byte */
	uint8_t *d = batch_add(&bt, 37, 0, 0);

	CHECK(d != NULL);
	memset(d, '.', 37);
	memcpy(d + 29, "HTTP/1.1", 8);
	CHECK(bt.nbytes % 16 != 0);
	int bad = all_equal(&bt, &a, 1, "edges", NULL);

	ac_free(a);
	free(bt.data);
	pats_free(&s);
	CHECK(!bad);
}

/* More one-byte literal bytes than the 32 bits a thread keeps (the rest
 * are walked at every occurrence), and a literal of 300 bytes: deeper than
 * the saturated 8-bit depth, across several windows. */
TEST(ackernel_many_one_byte_literals_and_deep_literal)
{
	struct pats s = { 0 };
	struct batch bt;
	AcAutomaton *a;
	uint8_t deep[300];

	for (int c = 0; c < 40; c++) {
		uint8_t b = (uint8_t)(0x80 + c);

		pats_add(&s, &b, 1, 0);
	}
	for (int i = 0; i < 300; i++)
		deep[i] = (uint8_t)('a' + i % 7);
	pats_add(&s, deep, 300, 1);
	pats_add(&s, deep + 250, 50, 1);
	pats_add(&s, deep, 256, 0);
	a = build(&s, AC_DENSE_BUDGET_DEFAULT, 0);
	CHECK(a != NULL);
	batch_init(&bt, 64 * 1024);
	for (int p = 0; p < 40; p++) {
		uint32_t len = 200 + rnd() % 800;
		uint8_t *d = batch_add(&bt, len, 0, 0);

		CHECK(d != NULL);
		for (uint32_t i = 0; i < len; i++)
			d[i] = (uint8_t)(rnd() % 3 ? 'a' + rnd() % 7 : 0x80 + rnd() % 64);
		if (p % 3 == 0 && len > 310) {
			uint32_t at = rnd() % (len - 300);

			memcpy(d + at, deep, 300);
		}
	}
	int bad = all_equal(&bt, &a, 1, "deep", NULL);

	ac_free(a);
	free(bt.data);
	pats_free(&s);
	CHECK(!bad);
}

/* ---- real data: ET Open contents over capture bytes ---- */

static const char *shared_dir(void)
{
	static char buf[1024];
	const char *env = getenv("SURICATA_SHARED");
	const char *cands[] = { env, SURICATA_TOP_SRCDIR "/../shared", "/work/shared" };

	for (size_t i = 0; i < sizeof(cands) / sizeof(cands[0]); i++) {
		if (!cands[i])
			continue;
		snprintf(buf, sizeof(buf), "%s/data/rules/et-open-4.0", cands[i]);
		DIR *d = opendir(buf);

		if (d) {
			closedir(d);
			snprintf(buf, sizeof(buf), "%s", cands[i]);
			return buf;
		}
	}
	return NULL;
}

/* content:"..." values (with |hex| and \ escapes) of a rules file, and
 * whether a nocase follows before the next content. */
static void rule_contents(const char *path, struct pats *s, uint32_t max)
{
	FILE *f = fopen(path, "r");
	char line[65536];

	if (!f)
		return;
	while (s->n < max && fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		for (char *c = strstr(line, "content:\""); c && s->n < max;
		     c = strstr(c, "content:\"")) {
			uint8_t b[512];
			uint32_t n = 0;
			int hex = 0, ok = 1;

			c += 9;
			while (*c && (*c != '"' || hex) && n < sizeof(b)) {
				if (hex) {
					if (*c == '|') {
						hex = 0;
						c++;
					} else if (*c == ' ') {
						c++;
					} else {
						unsigned v;

						if (sscanf(c, "%2x", &v) != 1) {
							ok = 0;
							break;
						}
						b[n++] = (uint8_t)v;
						c += 2;
					}
				} else if (*c == '|') {
					hex = 1;
					c++;
				} else if (*c == '\\' && c[1]) {
					b[n++] = (uint8_t)c[1];
					c += 2;
				} else {
					b[n++] = (uint8_t)*c++;
				}
			}
			if (!ok || !n || *c != '"')
				continue;
			char *next = strstr(c, "content:\""), *nc = strstr(c, "nocase;");
			int nocase = nc && (!next || nc < next);

			pats_add(s, b, (uint16_t)n, nocase);
		}
	}
	fclose(f);
}

TEST(ackernel_et_open_contents_over_capture_bytes_equal_ac)
{
	const char *sh = shared_dir();
	static const char *const rules[] = { "emerging-web_client.rules", "emerging-malware.rules",
					     "emerging-info.rules", "emerging-exploit.rules" };
	static const char *const caps[] = { "ndpi/1kxun.pcap", "ndpi/WebattackSQLinj.pcap",
					    "ndpi/gnutella.pcap", "ndpi/bot.pcap" };
	struct pats s = { 0 };
	char path[1200];
	uint32_t total = 0;

	if (!sh) {
		printf("  SKIP: ../shared (or $SURICATA_SHARED) not found\n");
		return;
	}
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		snprintf(path, sizeof(path), "%s/data/rules/et-open-4.0/%s", sh, rules[i]);
		rule_contents(path, &s, 4000 * (uint32_t)(i + 1));
	}
	/* the zero runs and one-byte contents ET's fast patterns come down to */
	pats_add(&s, (const uint8_t *)"\0\0\0\0", 4, 1);
	pats_add(&s, (const uint8_t *)"\0\0", 2, 1);
	pats_add(&s, (const uint8_t *)"e", 1, 1);
	pats_add(&s, (const uint8_t *)"1", 1, 1);
	CHECK(s.n > 1000);
	AcAutomaton *a = build(&s, AC_DENSE_BUDGET_DEFAULT, 0);

	CHECK(a != NULL);
	for (size_t c = 0; c < sizeof(caps) / sizeof(caps[0]); c++) {
		FILE *f;
		struct batch bt;
		uint8_t *raw = malloc(1 << 20);
		size_t len;
		uint32_t nref = 0;

		snprintf(path, sizeof(path), "%s/data/pcaps/%s", sh, caps[c]);
		f = fopen(path, "rb");
		len = f ? fread(raw, 1, 1 << 20, f) : 0;
		if (f)
			fclose(f);
		if (len < 4096) {
			printf("  SKIP: %s\n", path);
			free(raw);
			continue;
		}
		/* payload-sized slices of the capture, back to back */
		batch_init(&bt, 256 * 1024);
		for (size_t at = 0; at + 1500 < len;) {
			uint32_t l = 1 + rnd() % 1460;
			uint8_t *d = batch_add(&bt, l, 0, 0);

			if (!d)
				break;
			memcpy(d, raw + at, l);
			at += l;
		}
		int bad = all_equal(&bt, &a, 1, caps[c], &nref);

		free(bt.data);
		free(raw);
		total += nref;
		if (bad) {
			ac_free(a);
			pats_free(&s);
			CHECK(!bad);
		}
	}
	ac_free(a);
	pats_free(&s);
	CHECK(total > 100);
}

/* ---- through the device interface: the emulation, and a GPU when one is
 * visible (the CUDA kernels themselves, with their shared memory, pair
 * table and record staging) ---- */

#include "cuda/accuda-device.h"

/* One batch through ops: load, stream, submit, wait; the set must equal
 * ac's. Returns 0, 1 on a difference, -1 when the ops cannot run here. */
static int device_round(const AcDeviceOps *ops, const struct batch *bt, AcAutomaton *a,
			int kernel, uint32_t chunk, const struct pairs *want)
{
	char err[256];
	int rc = -1;

	if (ops->device_count(err, sizeof(err)) < 1)
		return -1;
	AcDev *dev = ops->open(0, err, sizeof(err));

	if (!dev)
		return -1;
	uint64_t off = 0;
	uint32_t maxlen = a->blk->maxlen;
	AcDevStreamSize sz = { .data_bytes = bt->nbytes + 64, .max_payloads = bt->npay + 1,
			       .max_records = 8 * bt->nbytes + 1024 };
	AcDevStream *st = NULL;
	uint8_t *data = ops->host_alloc(dev, bt->nbytes + 64);
	struct acc_desc *desc = ops->host_alloc(dev, (bt->npay + 1) * sizeof(*desc));
	const struct acc_rec *rec;
	uint32_t count;

	if (!data || !desc)
		goto out;
	memcpy(data, bt->data, bt->nbytes);
	memcpy(desc, bt->desc, bt->npay * sizeof(*desc));
	if (ops->load(dev, a->blk, a->blk->size, &off, &maxlen, 1, err, sizeof(err)) != 0)
		goto fail;
	st = ops->stream_new(dev, &sz, kernel, chunk, err, sizeof(err));
	if (!st || ops->submit(st, data, bt->nbytes, desc, bt->npay, err, sizeof(err)) != 0 ||
	    ops->wait(st, &rec, &count, NULL, err, sizeof(err)) != 0)
		goto fail;
	rc = 1;
	if (count > sz.max_records) {
		printf("  %s: %u records > %u\n", ops->name, count, sz.max_records);
		goto out;
	}
	{
		struct pairs got = { 0 };
		int bad = 0;

		for (uint32_t r = 0; r < count; r++) {
			const struct acc_desc *d = &bt->desc[rec[r].payload];
			const struct ac_pattern *p = &a->v.pat[rec[r].pat & ~ACC_CTX];

			if (rec[r].payload >= bt->npay || rec[r].end > d->len || rec[r].end < p->len ||
			    !fold_eq(bt->data + d->off + rec[r].end - p->len, a->v.bytes + p->off,
				     p->len, p->nocase))
				bad = 1;
			else
				pairs_add(&got, rec[r].payload,
					  p->id | (rec[r].pat & ACC_CTX ? REF_CTX : 0));
		}
		pairs_unique(&got);
		if (!bad && got.n == want->n &&
		    (!want->n || memcmp(got.v, want->v, want->n * sizeof(*want->v)) == 0))
			rc = 0;
		else
			printf("  %s kernel %d chunk %u: %u pairs (ac %u)%s\n", ops->name, kernel,
			       chunk, got.n, want->n, bad ? ", a record is no match" : "");
		free(got.v);
	}
	if (rc == 0 && ops->submit_grouped) {
		/* again, grouped on the device: the table is ac's set */
		struct acg_out o = { .cap = sz.max_records };
		struct pairs got = { 0 };

		o.pidx = malloc((2 * bt->npay + 1) * sizeof(*o.pidx));
		o.ids = malloc(o.cap * sizeof(*o.ids));
		if (ops->submit_grouped(st, data, bt->nbytes, desc, bt->npay, &o, err,
					sizeof(err)) != 0 ||
		    ops->wait(st, &rec, &count, NULL, err, sizeof(err)) != 0 || count > o.cap) {
			printf("  %s grouped: %s\n", ops->name, count > o.cap ? "overflow" : err);
			rc = 1;
		} else {
			for (uint32_t p = 0; p < bt->npay; p++)
				for (uint32_t i = o.pidx[2 * p]; i < o.pidx[2 * p + 2]; i++)
					pairs_add(&got, p, o.ids[i]);
			pairs_unique(&got);
			if (got.n != want->n ||
			    (want->n && memcmp(got.v, want->v, want->n * sizeof(*want->v)) != 0)) {
				printf("  %s kernel %d grouped: %u pairs (ac %u)\n", ops->name,
				       kernel, got.n, want->n);
				rc = 1;
			}
		}
		free(got.v);
		free(o.pidx);
		free(o.ids);
	}
	goto out;
fail:
	printf("  %s: %s\n", ops->name, err);
	rc = 1;
out:
	if (st)
		ops->stream_free(st);
	if (data)
		ops->host_free(dev, data);
	if (desc)
		ops->host_free(dev, desc);
	ops->close(dev);
	return rc;
}

TEST(ackernel_every_kernel_through_the_device_interface)
{
	char err[256];
	const AcDeviceOps *cuda = accuda_cuda_ops(err, sizeof(err));
	const AcDeviceOps *all[2] = { accuda_emu_ops(), cuda };
	static const int kernels[] = { ACC_KERNEL_PAYLOAD, ACC_KERNEL_CHUNK, ACC_KERNEL_FILTER };
	struct pats s = { 0 };
	struct batch bt;
	struct pairs want = { 0 };
	int gpu_ran = 0;

	random_pats(&s, 60, 8);
	pats_add(&s, (const uint8_t *)"\0\0\0", 3, 1);
	pats_add(&s, (const uint8_t *)"a", 1, 1);
	AcAutomaton *a = build(&s, AC_DENSE_BUDGET_DEFAULT, 0);

	CHECK(a != NULL);
	batch_init(&bt, 512 * 1024);
	random_batch(&bt, MAXPAY, 300, 0, 1);
	reference(&bt, &a, &want);
	for (int o = 0; o < 2; o++) {
		if (!all[o])
			continue;
		for (size_t ki = 0; ki < sizeof(kernels) / sizeof(kernels[0]); ki++) {
			int rc = device_round(all[o], &bt, a, kernels[ki], 64, &want);

			if (rc < 0) {
				printf("  SKIP: %s: no device here\n", all[o]->name);
				break;
			}
			gpu_ran |= !all[o]->emulation;
			CHECK(rc == 0);
		}
	}
	if (!gpu_ran)
		printf("  (no GPU: the CUDA kernels were not run, only the emulation)\n");
	free(want.v);
	free(bt.data);
	ac_free(a);
	pats_free(&s);
}
