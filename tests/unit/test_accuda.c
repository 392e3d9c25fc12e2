/* ac-cuda tests, through the host emulation of the device (no GPU needed):
 * the ring, batch cuts (size, deadline, flush), stream rotation, the
 * result records, the overflow and ring-full fallbacks, and the property
 * that ac-cuda reports exactly what ac reports, in the same order, for
 * every payload. */
#include "config.h"
#include "test.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "mpm/ac-cuda-ring.h"
#include "mpm/ac-cuda.h"
#include "mpm/mpm.h"

/* ---- matches as sequences ---- */

#define SEQ_MAX 65536

struct seq {
	uint32_t v[SEQ_MAX][2];
	uint32_t n;
	int overflow;
};

static int seq_cb(void *arg, uint32_t id, uint32_t end)
{
	struct seq *s = arg;

	if (s->n == SEQ_MAX) {
		s->overflow = 1;
		return 0;
	}
	s->v[s->n][0] = id;
	s->v[s->n][1] = end;
	s->n++;
	return 0;
}

static int id_cmp(const void *x, const void *y)
{
	const uint32_t *a = x, *b = y;

	return a[0] < b[0] ? -1 : a[0] > b[0];
}

/* Sorts by id and keeps one entry per id. */
static void seq_to_set(struct seq *s)
{
	uint32_t w = 0;

	qsort(s->v, s->n, sizeof(s->v[0]), id_cmp);
	for (uint32_t i = 0; i < s->n; i++)
		if (!w || s->v[w - 1][0] != s->v[i][0]) {
			s->v[w][0] = s->v[i][0];
			s->v[w][1] = 0;
			w++;
		}
	s->n = w;
}

/* The prefilter contract: the same SET of pattern ids as ac_search (a
 * device reports each once, at any of its ends; a CPU rescan every
 * occurrence). */
static int seq_equal(struct seq *a, struct seq *b)
{
	if (a->overflow || b->overflow)
		return 0;
	seq_to_set(a);
	seq_to_set(b);
	return a->n == b->n && memcmp(a->v, b->v, a->n * sizeof(a->v[0])) == 0;
}

/* ---- automata: random patterns over a small alphabet so they hit ---- */

static uint32_t rnd_state = 12345;

static uint32_t rnd(void)
{
	return test_lcg(&rnd_state);
}

static uint8_t rnd_byte(void)
{
	static const char alpha[] = "abcABC\0\x01xyz";

	return (uint8_t)alpha[rnd() % 11];
}

/* dense_budget 0: every state but the root takes ac's sparse path */
static MpmCtx *make_ctx(uint32_t npat, uint32_t maxlen, size_t dense_budget)
{
	MpmCtx *ctx = mpm_new(MPM_AC);
	char err[256];

	for (uint32_t i = 0; i < npat; i++) {
		uint8_t b[64];
		uint16_t len = 1 + rnd() % maxlen;

		for (uint16_t k = 0; k < len; k++)
			b[k] = rnd_byte();
		mpm_add_pattern(ctx, b, len, 1 + rnd() % (npat / 2 + 1), rnd() & 1);
	}
	mpm_set_ac_dense_budget(dense_budget);
	if (mpm_prepare(ctx, err, sizeof(err)) != 0) {
		printf("  prepare: %s\n", err);
		mpm_free(ctx);
		ctx = NULL;
	}
	mpm_set_ac_dense_budget(AC_DENSE_BUDGET_DEFAULT);
	return ctx;
}

static void fill(uint8_t *b, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		b[i] = rnd_byte();
}

static void small_cfg(CudaMpmConfig *c, uint64_t ring, uint64_t transfer, int streams)
{
	cuda_mpm_config_defaults(c);
	c->cudabuffer_buffer_size = ring;
	c->gpu_transfer_size = transfer;
	c->cuda_streams = streams;
	c->batching_timeout_us = 1000;
	c->data_buffer_size_max_limit = 1500;
}

/* ---- ring ---- */

TEST(ring_wraps_only_into_released_space)
{
	uint8_t mem[100];
	AcRing r;

	ac_ring_init(&r, mem, sizeof(mem));
	CHECK_EQ(ac_ring_fit(&r, 101), AC_RING_FULL);
	CHECK_EQ(ac_ring_fit(&r, 60), AC_RING_HERE);
	CHECK_EQ(ac_ring_take(&r, 60, AC_RING_HERE), 0);
	CHECK_EQ(ac_ring_fit(&r, 30), AC_RING_HERE);
	CHECK_EQ(ac_ring_take(&r, 30, AC_RING_HERE), 60);
	/* 10 left at the end, nothing freed at the start */
	CHECK_EQ(ac_ring_fit(&r, 20), AC_RING_FULL);
	ac_ring_free_to(&r, 60);           /* first batch released */
	CHECK_EQ(ac_ring_fit(&r, 20), AC_RING_WRAP);
	CHECK_EQ(ac_ring_take(&r, 20, AC_RING_WRAP), 0);
	CHECK_EQ(ac_ring_fit(&r, 40), AC_RING_HERE);   /* [20, 60) */
	CHECK_EQ(ac_ring_fit(&r, 41), AC_RING_FULL);
	ac_ring_free_to(&r, 0);            /* second batch released */
	CHECK_EQ(ac_ring_fit(&r, 80), AC_RING_HERE);
	ac_ring_free_all(&r);
	CHECK_EQ(ac_ring_fit(&r, 100), AC_RING_HERE);
}

/* A batch may end exactly where the oldest live one begins (head == tail,
 * not empty). Releasing nothing then must leave the ring full: taking it
 * for empty let the next batch overwrite two live ones (ac-cuda lost
 * matches with small rings). */
TEST(ring_exactly_full_stays_full)
{
	uint8_t mem[100];
	AcRing r;

	ac_ring_init(&r, mem, sizeof(mem));
	CHECK_EQ(ac_ring_take(&r, 50, AC_RING_HERE), 0);    /* A [0, 50) */
	CHECK_EQ(ac_ring_take(&r, 50, AC_RING_HERE), 50);   /* B [50, 100) */
	ac_ring_free_to(&r, 50);                            /* A released */
	CHECK_EQ(ac_ring_fit(&r, 50), AC_RING_WRAP);
	CHECK_EQ(ac_ring_take(&r, 50, AC_RING_WRAP), 0);    /* C [0, 50) */
	ac_ring_free_to(&r, 50);                            /* B still live */
	CHECK_EQ(ac_ring_used(&r), 100);
	CHECK_EQ(ac_ring_fit(&r, 1), AC_RING_FULL);
	CHECK_EQ(ac_ring_fit_batch(&r, 1, 1), AC_RING_FULL);
	ac_ring_free_to(&r, 0);                             /* B released */
	CHECK_EQ(ac_ring_used(&r), 50);
	CHECK_EQ(ac_ring_fit(&r, 50), AC_RING_HERE);
	CHECK_EQ(ac_ring_fit(&r, 51), AC_RING_FULL);
}

/* ac_ring_fit_batch: a new batch goes back to offset 0 as soon as the
 * bytes before the live data hold a whole batch, so that a lane's ring
 * keeps to its first (warm) bytes however large it is. */
TEST(ring_batch_restarts_at_zero_once_a_batch_fits_there)
{
	uint8_t mem[100];
	AcRing r;

	ac_ring_init(&r, mem, sizeof(mem));
	CHECK_EQ(ac_ring_fit_batch(&r, 10, 20), AC_RING_HERE);   /* empty */
	CHECK_EQ(ac_ring_take(&r, 30, AC_RING_HERE), 0);
	CHECK_EQ(ac_ring_take(&r, 30, AC_RING_HERE), 30);
	/* nothing released yet: [0, 60) live, only after it */
	CHECK_EQ(ac_ring_fit_batch(&r, 10, 20), AC_RING_HERE);
	ac_ring_free_to(&r, 30);           /* first batch released: [30, 60) */
	/* 30 bytes before the live data: a batch of up to 20 fits there */
	CHECK_EQ(ac_ring_fit_batch(&r, 10, 20), AC_RING_WRAP);
	CHECK_EQ(ac_ring_fit_batch(&r, 10, 30), AC_RING_WRAP);
	/* ... one of 31 does not: it goes on after the live data */
	CHECK_EQ(ac_ring_fit_batch(&r, 10, 31), AC_RING_HERE);
	/* the plain fit is unchanged */
	CHECK_EQ(ac_ring_fit(&r, 10), AC_RING_HERE);
	/* no room after head nor before tail: full either way */
	CHECK_EQ(ac_ring_fit_batch(&r, 50, 20), AC_RING_FULL);
	CHECK_EQ(ac_ring_take(&r, 10, AC_RING_WRAP), 0);
	/* wrapped ([30, 60) + [0, 10)): room only up to the tail */
	CHECK_EQ(ac_ring_fit_batch(&r, 20, 5), AC_RING_HERE);
	CHECK_EQ(ac_ring_fit_batch(&r, 21, 5), AC_RING_FULL);
	ac_ring_free_all(&r);
	CHECK_EQ(ac_ring_fit_batch(&r, 10, 1), AC_RING_HERE);
}

/* ---- the property: ac-cuda == ac, on every path ---- */

struct job {
	AcCudaTicket t;
	const uint8_t *buf;   /* the test's copy, for the ac reference */
	uint32_t len;
	uint16_t group;
	int via_cpu;          /* submit said "use the CPU" */
};

struct run {
	AcCuda *ac;
	MpmCtx *ctx[2];
	uint64_t lane_ring;   /* each lane's ring bytes */
	uint32_t mismatches;  /* atomic */
	uint32_t checked;     /* atomic */
	uint32_t device_payloads; /* atomic */
	uint32_t lane_errors; /* atomic */
};

/* A packet thread: its own lane, and its share of the jobs. */
struct lane_run {
	struct run *r;
	struct job *jobs;
	uint32_t njobs;
	uint32_t seed;        /* its own random stream: window sizes, pauses */
	pthread_t th;
};

static void check_job(struct run *r, struct job *j)
{
	struct seq *w = calloc(1, sizeof(*w)), *g = calloc(1, sizeof(*g));
	const AcAutomaton *a = mpm_ac_automaton(r->ctx[j->group]);

	if (!w || !g)
		abort();
	ac_search(a, j->buf, j->len, seq_cb, w);
	if (j->via_cpu) {
		*g = *w; /* the pipeline would call ac itself */
	} else {
		uint32_t len, n, nids;
		int dev = ac_cuda_wait(r->ac, &j->t) == 0;
		const uint32_t *ids = ac_cuda_ids(r->ac, &j->t, 0, &nids);

		if (dev)
			__atomic_fetch_add(&r->device_payloads, 1, __ATOMIC_RELAXED);
		/* the id array is there exactly when the device's results are */
		if (dev != (ids != NULL))
			__atomic_fetch_add(&r->mismatches, 1, __ATOMIC_RELAXED);
		const uint8_t *p = ac_cuda_payload(r->ac, &j->t, &len);
		if (len != j->len || memcmp(p, j->buf, len) != 0)
			__atomic_fetch_add(&r->mismatches, 1, __ATOMIC_RELAXED);
		n = ac_cuda_matches(r->ac, &j->t, seq_cb, g);
		/* from the device, never more reports than occurrences, and the
		 * array holds what the callback gave */
		if (dev && (n > w->n || n != nids))
			__atomic_fetch_add(&r->mismatches, 1, __ATOMIC_RELAXED);
		if (ac_cuda_packet(r->ac, &j->t) != j)
			__atomic_fetch_add(&r->mismatches, 1, __ATOMIC_RELAXED);
		ac_cuda_release(r->ac, &j->t);
	}
	if (!seq_equal(w, g))
		__atomic_fetch_add(&r->mismatches, 1, __ATOMIC_RELAXED);
	free(w);
	free(g);
	__atomic_fetch_add(&r->checked, 1, __ATOMIC_RELAXED);
}

#define WINDOW_MAX 96

/* As a runmode's window does: submits a window of its packets, cuts it
 * (most of the time: otherwise the deadline, the next window or a wait
 * does), then inspects the window before it while the device works on
 * this one. The unreleased window behind and the one being filled are
 * what fills the ring. */
static void *lane_main(void *arg)
{
	struct lane_run *lr = arg;
	struct run *r = lr->r;
	char err[256];
	AcCudaLane *l = ac_cuda_lane_new(r->ac, r->lane_ring, err, sizeof(err));
	uint32_t prev_lo = 0, prev_hi = 0, i = 0;

	if (!l) {
		printf("  ac_cuda_lane_new: %s\n", err);
		__atomic_fetch_add(&r->lane_errors, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	while (i < lr->njobs) {
		uint32_t lo = i, hi = i + 1 + test_lcg(&lr->seed) % WINDOW_MAX;

		if (hi > lr->njobs)
			hi = lr->njobs;
		for (; i < hi; i++) {
			struct job *j = &lr->jobs[i];

			j->via_cpu = ac_cuda_submit(l, j->buf, j->len, j->group, j, &j->t) != 0;
		}
		if (test_lcg(&lr->seed) % 4)
			ac_cuda_flush(l);
		/* a slow thread now and then: deadlines cut open batches */
		if (test_lcg(&lr->seed) % 16 == 0) {
			struct timespec ts = { 0, 1200000 };
			nanosleep(&ts, NULL);
		}
		for (uint32_t k = prev_lo; k < prev_hi; k++)
			check_job(r, &lr->jobs[k]);
		prev_lo = lo;
		prev_hi = hi;
	}
	for (uint32_t k = prev_lo; k < prev_hi; k++)
		check_job(r, &lr->jobs[k]);
	ac_cuda_lane_free(l);
	return NULL;
}

/* nlanes packet threads, each with its own lane (ring: the config's
 * cudabuffer-buffer-size), submitting concurrently. Returns the stats. */
static int run_property(const CudaMpmConfig *cfg, const AcCudaOpts *opts, uint32_t nlanes,
			uint32_t njobs, uint32_t maxpay, AcCudaStats *st)
{
	struct run r = { 0 };
	struct lane_run lr[4];
	struct job *jobs = calloc(njobs, sizeof(*jobs));
	const AcAutomaton *autos[2];
	uint8_t *data = malloc((size_t)njobs * maxpay);
	char err[512];
	int rc = -1;

	if (nlanes < 1 || nlanes > 4)
		goto out;
	r.lane_ring = cfg->cudabuffer_buffer_size;
	r.ctx[0] = make_ctx(60, 6, AC_DENSE_BUDGET_DEFAULT);
	r.ctx[1] = make_ctx(40, 12, 0);
	if (!r.ctx[0] || !r.ctx[1] || !jobs || !data)
		goto out;
	autos[0] = mpm_ac_automaton(r.ctx[0]);
	autos[1] = mpm_ac_automaton(r.ctx[1]);
	r.ac = ac_cuda_new(cfg, opts, accuda_emu_ops(), autos, 2, err, sizeof(err));
	if (!r.ac) {
		printf("  ac_cuda_new: %s\n", err);
		goto out;
	}
	for (uint32_t i = 0; i < njobs; i++) {
		struct job *j = &jobs[i];

		j->buf = data + (size_t)i * maxpay;
		j->len = rnd() % (maxpay + 1);
		j->group = rnd() % 2;
		fill((uint8_t *)j->buf, j->len);
	}
	for (uint32_t k = 0; k < nlanes; k++) {
		uint32_t lo = (uint32_t)((uint64_t)njobs * k / nlanes);
		uint32_t hi = (uint32_t)((uint64_t)njobs * (k + 1) / nlanes);

		lr[k] = (struct lane_run){ .r = &r, .jobs = jobs + lo, .njobs = hi - lo,
					   .seed = 1000 + k };
		pthread_create(&lr[k].th, NULL, lane_main, &lr[k]);
	}
	for (uint32_t k = 0; k < nlanes; k++)
		pthread_join(lr[k].th, NULL);
	ac_cuda_stats(r.ac, st);
	if (getenv("ACCUDA_TEST_VERBOSE"))
		printf("  batches %llu payloads %llu bytes %llu records %llu cut "
		       "size/payloads/timeout/flush %llu/%llu/%llu/%llu wraps %llu cpu: min %llu "
		       "max %llu full %llu overflow %llu (%llu batches)\n",
		       (unsigned long long)st->batches, (unsigned long long)st->payloads,
		       (unsigned long long)st->bytes, (unsigned long long)st->records,
		       (unsigned long long)st->cut_size, (unsigned long long)st->cut_payloads,
		       (unsigned long long)st->cut_timeout, (unsigned long long)st->cut_flush,
		       (unsigned long long)st->ring_wraps, (unsigned long long)st->cpu_below_min,
		       (unsigned long long)st->cpu_above_max, (unsigned long long)st->cpu_ring_full,
		       (unsigned long long)st->cpu_overflow, (unsigned long long)st->overflow_batches);
	if (r.mismatches)
		printf("  %u of %u payloads differ from ac\n", r.mismatches, r.checked);
	rc = r.mismatches == 0 && r.lane_errors == 0 && r.checked == njobs ? 0 : -1;
out:
	ac_cuda_free(r.ac);
	mpm_free(r.ctx[0]);
	mpm_free(r.ctx[1]);
	free(jobs);
	free(data);
	return rc;
}

static void tiny_opts(AcCudaOpts *o, const CudaMpmConfig *c, int kernel, uint32_t records)
{
	ac_cuda_opts_defaults(o, c);
	o->kernel = kernel;
	o->chunk = 16;
	o->batch_payloads = 24;
	o->batch_records = records;
	o->batch_slots = 4;
}

TEST(accuda_reference_kernel_equals_ac_on_every_path)
{
	CudaMpmConfig c;
	AcCudaOpts o;
	AcCudaStats st;

	small_cfg(&c, 8192, 2048, 3);
	tiny_opts(&o, &c, ACC_KERNEL_PAYLOAD, 600);
	CHECK_EQ(run_property(&c, &o, 2, 3000, 200, &st), 0);
	CHECK_EQ(st.emulation, 1);
	CHECK(st.batches > 20);
	CHECK(st.cut_size > 0);
	/* the ring wrapped: more than a ring's worth went through it. How many
	 * times depends on how fast the dispatcher frees space (a loaded or
	 * sanitized run sends more payloads to the CPU as ring-full), so only
	 * that it wrapped is certain. */
	CHECK(st.ring_wraps > 0);
	CHECK(st.bytes > 8192);
	CHECK(st.cpu_ring_full > 0);
	CHECK(st.overflow_batches > 0);
	CHECK(st.cpu_overflow > 0);
	CHECK(st.cpu_below_min > 0);    /* empty payloads */
	CHECK(st.records > 0);
	CHECK(st.payloads + st.cpu_ring_full + st.cpu_below_min == 3000);
}

TEST(accuda_chunk_kernel_equals_ac_on_every_path)
{
	CudaMpmConfig c;
	AcCudaOpts o;
	AcCudaStats st;

	small_cfg(&c, 8192, 2048, 2);
	tiny_opts(&o, &c, ACC_KERNEL_CHUNK, 600);
	CHECK_EQ(run_property(&c, &o, 3, 3000, 200, &st), 0);
	CHECK(st.batches > 20);
	CHECK(st.cpu_ring_full > 0);
	CHECK(st.overflow_batches > 0);
	CHECK(st.batches > st.overflow_batches); /* device results used too */
}

TEST(accuda_chunk_kernel_long_payloads_one_stream)
{
	CudaMpmConfig c;
	AcCudaOpts o;
	AcCudaStats st;

	/* payloads much longer than the chunk: matches across window edges */
	small_cfg(&c, 65536, 16384, 1);
	tiny_opts(&o, &c, ACC_KERNEL_CHUNK, 1 << 16);
	o.chunk = 7;
	CHECK_EQ(run_property(&c, &o, 1, 400, 1500, &st), 0);
	CHECK_EQ(st.overflow_batches, 0);
	CHECK(st.records > 1000);
}

/* The runmodes' shape: two packet threads, each submitting into its own
 * lane at once, default batching; every payload's matches equal ac's. */
TEST(accuda_two_lanes_from_two_threads_equal_ac)
{
	CudaMpmConfig c;
	AcCudaStats st;

	small_cfg(&c, 1 << 20, 256 << 10, 2);
	CHECK_EQ(run_property(&c, NULL, 2, 2000, 1500, &st), 0);
	CHECK(st.payloads > 0);
	CHECK(st.gpu_batches > 0);
	CHECK_EQ(st.payloads + st.cpu_ring_full + st.cpu_below_min, 2000);
}

/* ---- batching ---- */

static int one_ctx(MpmCtx **ctx, const AcAutomaton **a)
{
	*ctx = mpm_new(MPM_AC);
	char err[256];

	mpm_add_pattern(*ctx, (const uint8_t *)"abc", 3, 7, 1);
	mpm_add_pattern(*ctx, (const uint8_t *)"Bc", 2, 9, 0);
	if (mpm_prepare(*ctx, err, sizeof(err)) != 0)
		return -1;
	*a = mpm_ac_automaton(*ctx);
	return 0;
}

static uint64_t mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* A lane of the config's ring size; NULL (and the reason printed) on failure. */
static AcCudaLane *test_lane(AcCuda *ac, uint64_t ring)
{
	char err[256];
	AcCudaLane *l = ac ? ac_cuda_lane_new(ac, ring, err, sizeof(err)) : NULL;

	if (ac && !l)
		printf("  ac_cuda_lane_new: %s\n", err);
	return l;
}

/* Without waiting (a wait on the open batch cuts it): polls until the
 * ticket's batch is done, up to limit_us. The time it took, or ~0 when it
 * never was. */
static uint64_t poll_ready(AcCuda *ac, const AcCudaTicket *t, uint64_t limit_us)
{
	uint64_t t0 = mono_us();

	while (!ac_cuda_ready(ac, t)) {
		struct timespec ms1 = { 0, 1000000 };

		if (mono_us() - t0 > limit_us)
			return UINT64_MAX;
		nanosleep(&ms1, NULL);
	}
	return mono_us() - t0;
}

TEST(accuda_lone_payload_is_cut_at_the_deadline)
{
	MpmCtx *ctx;
	const AcAutomaton *a;
	CudaMpmConfig c;
	AcCudaTicket t;
	AcCudaStats st;
	struct seq got = { .n = 0 };
	char err[256];

	CHECK_EQ(one_ctx(&ctx, &a), 0);
	small_cfg(&c, 1 << 20, 1 << 18, 2);
	c.batching_timeout_us = 30000;
	AcCuda *ac = ac_cuda_new(&c, NULL, accuda_emu_ops(), &a, 1, err, sizeof(err));
	CHECK(ac != NULL);
	AcCudaLane *l = test_lane(ac, c.cudabuffer_buffer_size);
	CHECK(l != NULL);
	uint64_t t0 = mono_us();
	CHECK_EQ(ac_cuda_submit(l, (const uint8_t *)"xxABCxaBc", 9, 0, NULL, &t), 0);
	/* its owner neither flushes nor waits: only the dispatcher cuts it */
	CHECK(poll_ready(ac, &t, 5000000) != UINT64_MAX);
	uint64_t waited = mono_us() - t0;
	CHECK_EQ(ac_cuda_wait(ac, &t), 0);
	ac_cuda_matches(ac, &t, seq_cb, &got);
	ac_cuda_release(ac, &t);
	ac_cuda_lane_free(l);
	ac_cuda_stats(ac, &st);
	ac_cuda_free(ac);
	mpm_free(ctx);
	CHECK(waited >= 29000);
	CHECK_EQ(st.cut_timeout, 1);
	CHECK_EQ(st.cut_flush, 0);
	CHECK_EQ(st.batches, 1);
	CHECK(st.wait_ns >= 29000000ull);
	/* "ABC" caseless at 5 and (as "aBc") at 9; "Bc" exact only at 9: the
	 * device gives each id once, at one of its ends */
	CHECK_EQ(got.n, 2);
	seq_to_set(&got);
	CHECK_EQ(got.v[0][0], 7);
	CHECK_EQ(got.v[1][0], 9);
}

/* An ac-cuda matcher with the GPU lists over n (literal, id, nocase)
 * patterns; NULL on failure. */
struct lit { const char *s; uint32_t id; int nocase; };

static MpmCtx *gpu_ctx(const struct lit *l, int n, const AcAutomaton **a)
{
	MpmCtx *ctx = mpm_new(MPM_AC_CUDA);
	char err[256];

	if (!ctx)
		return NULL;
	mpm_set_ac_gpu_lists(1);
	for (int i = 0; i < n; i++)
		mpm_add_pattern(ctx, (const uint8_t *)l[i].s, (uint16_t)strlen(l[i].s), l[i].id,
				l[i].nocase);
	if (mpm_prepare(ctx, err, sizeof(err)) != 0) {
		mpm_free(ctx);
		return NULL;
	}
	*a = mpm_ac_automaton(ctx);
	return ctx;
}

/* One record per (payload, pattern) from the device: a run of 1,400 "a"
 * holds "a" and "aa" at nearly every byte, which the chunk kernel reports
 * at every occurrence; the worker gets each once. */
TEST(accuda_matches_report_each_pattern_once_per_payload)
{
	static const struct lit pats[] = { { "a", 1, 1 }, { "aa", 2, 0 } };
	const AcAutomaton *a;
	MpmCtx *ctx = gpu_ctx(pats, 2, &a);
	CudaMpmConfig c;
	AcCudaTicket t;
	AcCudaStats st;
	struct seq got = { .n = 0 };
	static uint8_t buf[1400];
	char err[256];
	uint32_t n, nids = 0;

	memset(buf, 'a', sizeof(buf));
	CHECK(ctx != NULL);
	small_cfg(&c, 1 << 20, 1 << 18, 2);
	AcCudaOpts o;

	ac_cuda_opts_defaults(&o, &c);
	o.kernel = ACC_KERNEL_CHUNK;
	AcCuda *ac = ac_cuda_new(&c, &o, accuda_emu_ops(), &a, 1, err, sizeof(err));
	CHECK(ac != NULL);
	AcCudaLane *l = test_lane(ac, c.cudabuffer_buffer_size);
	CHECK(l != NULL);
	CHECK_EQ(ac_cuda_submit(l, buf, sizeof(buf), 0, NULL, &t), 0);
	ac_cuda_flush(l);
	CHECK_EQ(ac_cuda_wait(ac, &t), 0);
	n = ac_cuda_matches(ac, &t, seq_cb, &got);
	CHECK(ac_cuda_ids(ac, &t, 0, &nids) != NULL);
	ac_cuda_release(ac, &t);
	ac_cuda_lane_free(l);
	ac_cuda_stats(ac, &st);
	ac_cuda_free(ac);
	mpm_free(ctx);
	CHECK(st.records >= 2 * sizeof(buf) - 1);   /* the kernel's view */
	CHECK_EQ(n, 2);
	CHECK_EQ(nids, 2);
	seq_to_set(&got);
	CHECK_EQ(got.n, 2);
	CHECK_EQ(got.v[0][0], 1);
	CHECK_EQ(got.v[1][0], 2);
}

/* The emulation's wait(), then the records in a random order: a real
 * device's blocks finish in any order, so a payload's records may come
 * between other payloads' records of the same pattern. (The emulation's
 * records are plain memory of the stream, read by nothing else until its
 * next submit: the test may shuffle them.) */
static AcDeviceOps shuffled_ops;

static int shuffled_wait(AcDevStream *s, const struct acc_rec **rec, uint32_t *count,
			 AcDevTimes *t, char *err, size_t errlen)
{
	int rc = accuda_emu_ops()->wait(s, rec, count, t, err, errlen);
	struct acc_rec *r = (struct acc_rec *)*rec;

	for (uint32_t i = *count; rc == 0 && i > 1; i--) {
		uint32_t j = rnd() % i;
		struct acc_rec x = r[i - 1];

		r[i - 1] = r[j];
		r[j] = x;
	}
	return rc;
}

/* The host's grouping (a device without submit_grouped) keeps one id per
 * (payload, pattern) whatever order the records come in: 48 payloads of "a" runs (the chunk kernel reports "a" and "aa"
 * at nearly every byte), their records shuffled across payloads, so that
 * nearly every record's pattern was last seen for another payload. Each
 * payload's ids are exactly {1, 2}: none lost, none twice. */
TEST(accuda_grouping_is_exact_when_payloads_interleave)
{
	static const struct lit pats[] = { { "a", 1, 1 }, { "aa", 2, 0 } };
	enum { NP = 48 };
	const AcAutomaton *a;
	MpmCtx *ctx = gpu_ctx(pats, 2, &a);
	CudaMpmConfig c;
	AcCudaOpts o;
	AcCudaTicket t[NP];
	AcCudaStats st;
	static uint8_t buf[NP][300];
	char err[256];
	int bad = 0;

	CHECK(ctx != NULL);
	memset(buf, 'a', sizeof(buf));
	shuffled_ops = *accuda_emu_ops();
	shuffled_ops.wait = shuffled_wait;
	/* the host's grouping: the device's is test_ackernel's */
	shuffled_ops.submit_grouped = NULL;
	small_cfg(&c, 1 << 20, 1 << 18, 1);
	ac_cuda_opts_defaults(&o, &c);
	o.kernel = ACC_KERNEL_CHUNK;
	AcCuda *ac = ac_cuda_new(&c, &o, &shuffled_ops, &a, 1, err, sizeof(err));
	CHECK(ac != NULL);
	AcCudaLane *l = test_lane(ac, c.cudabuffer_buffer_size);
	CHECK(l != NULL);
	/* two batches: the second's stamps must not see the first's pairs */
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < NP; i++)
			CHECK_EQ(ac_cuda_submit(l, buf[i], 200 + i, 0, NULL, &t[i]), 0);
		ac_cuda_flush(l);
		for (int i = 0; i < NP; i++) {
			uint32_t nids = 0;
			const uint32_t *ids;

			CHECK_EQ(ac_cuda_wait(ac, &t[i]), 0);
			ids = ac_cuda_ids(ac, &t[i], 0, &nids);
			if (!ids || nids != 2 || ids[0] + ids[1] != 3 || ids[0] == ids[1])
				bad++;
			ac_cuda_release(ac, &t[i]);
		}
	}
	ac_cuda_lane_free(l);
	ac_cuda_stats(ac, &st);
	ac_cuda_free(ac);
	mpm_free(ctx);
	/* at least two: on a loaded machine the deadline may cut one more */
	CHECK(st.batches >= 2);
	CHECK(st.records >= 2ull * NP * 2 * 200);   /* the repeats were there */
	CHECK_EQ(bad, 0);
}

/* ac_cuda_submit_ctx: the payload scanned alone (view 0) and behind its
 * context (view 1) in one copy; a pattern across the context's edge is
 * seen by view 1 only, flagged as starting in the context, each view's ids
 * equal ac_search's on its bytes. A
 * lane whose ring is far smaller than a 64 KiB payload in both views
 * still takes one (its batch has a floor), and what no descriptor can
 * hold (the old synchronous scan's buffers) is left to the CPU. */
TEST(accuda_context_view_equals_ac_across_its_edge)
{
	static const struct lit pats[] = {
		{ "EDGEPATTERN", 1, 0 }, { "tail", 2, 1 }, { "nowhere", 3, 1 },
	};
	static const char ctxb[] = "xxxxEDGEPAT";
	const AcAutomaton *a;
	MpmCtx *ctx = gpu_ctx(pats, 3, &a);
	CudaMpmConfig c;
	AcCudaTicket t;
	AcCudaStats st;
	static uint8_t buf[150000], both[65535];
	struct seq want0 = { .n = 0 }, want1 = { .n = 0 }, got0 = { .n = 0 }, got1 = { .n = 0 };
	const uint32_t len = 65000, clen = sizeof(ctxb) - 1;
	uint32_t n0 = 0, n1 = 0, vlen = 0;
	char err[256];

	CHECK(ctx != NULL);
	memset(buf, 'x', sizeof(buf));
	memcpy(buf, "TERN", 4);
	memcpy(buf + len - 4, "TAIL", 4);
	memcpy(both, ctxb, clen);
	memcpy(both + clen, buf, len);
	small_cfg(&c, 1 << 20, 1 << 18, 2);
	c.data_buffer_size_max_limit = CUDA_MPM_DATA_BUFFER_SIZE_MAX;
	AcCuda *ac = ac_cuda_new(&c, NULL, accuda_emu_ops(), &a, 1, err, sizeof(err));
	CHECK(ac != NULL);
	AcCudaLane *l = test_lane(ac, 4096);
	CHECK(l != NULL);
	CHECK_EQ(ac_cuda_submit(l, buf, sizeof(buf), 0, NULL, &t), AC_CUDA_CPU_ABOVE_MAX);
	CHECK_EQ(ac_cuda_submit_ctx(l, buf, 600, buf, len, 0, 0, NULL, &t),
		 AC_CUDA_CPU_ABOVE_MAX);       /* 600 + 65000 > a view's 65535 */
	CHECK_EQ(ac_cuda_submit_ctx(l, (const uint8_t *)ctxb, clen, buf, len, 0, 0, NULL, &t),
		 AC_CUDA_QUEUED);
	CHECK_EQ(t.views, 2);
	ac_cuda_flush(l);
	CHECK_EQ(ac_cuda_wait(ac, &t), 0);
	const uint8_t *v1 = ac_cuda_payload_ctx(ac, &t, &vlen);
	CHECK(v1 != NULL);
	CHECK_EQ(vlen, clen + len);
	CHECK(memcmp(v1, both, vlen) == 0);
	CHECK(ac_cuda_ids(ac, &t, 0, &n0) != NULL);
	CHECK(ac_cuda_ids(ac, &t, 1, &n1) != NULL);
	CHECK_EQ(ac_cuda_matches(ac, &t, seq_cb, &got0), n0);
	CHECK_EQ(ac_cuda_matches_ctx(ac, &t, seq_cb, &got1), n1);
	ac_cuda_release(ac, &t);
	ac_cuda_lane_free(l);
	ac_cuda_stats(ac, &st);
	ac_cuda_free(ac);
	ac_search(a, buf, len, seq_cb, &want0);
	ac_search(a, both, clen + len, seq_cb, &want1);
	mpm_free(ctx);
	CHECK_EQ(n0, 1);                  /* "tail" */
	CHECK_EQ(n1, 2);                  /* "EDGEPATTERN" and "tail" */
	/* the device flags the one that starts in the context
	 * (group-kernel.h ACG_CTX_START), and only that one */
	for (uint32_t i = 0; i < got1.n; i++) {
		CHECK_EQ(!!(got1.v[i][0] & ACG_CTX_START), (got1.v[i][0] & ~ACG_CTX_START) == 1);
		got1.v[i][0] &= ~ACG_CTX_START;
	}
	CHECK(seq_equal(&want0, &got0));
	CHECK(seq_equal(&want1, &got1));
	CHECK_EQ(st.cpu_above_max, 2);
	CHECK_EQ(st.payloads, 2);         /* descriptors: one per view */
}

/* The deadline is on CLOCK_MONOTONIC; a condvar on the default clock
 * (CLOCK_REALTIME) saw it as long past and the dispatcher spun until the
 * cut: ~10,000 wake-ups for one 150 ms batch on a 2-core box. */
TEST(accuda_dispatcher_sleeps_until_the_deadline)
{
	MpmCtx *ctx;
	const AcAutomaton *a;
	CudaMpmConfig c;
	AcCudaTicket t;
	AcCudaStats st;
	char err[256];

	CHECK_EQ(one_ctx(&ctx, &a), 0);
	small_cfg(&c, 1 << 20, 1 << 18, 2);
	c.batching_timeout_us = 150000;
	AcCuda *ac = ac_cuda_new(&c, NULL, accuda_emu_ops(), &a, 1, err, sizeof(err));
	CHECK(ac != NULL);
	AcCudaLane *l = test_lane(ac, c.cudabuffer_buffer_size);
	CHECK(l != NULL);
	uint64_t t0 = mono_us();
	CHECK_EQ(ac_cuda_submit(l, (const uint8_t *)"abc", 3, 0, NULL, &t), 0);
	CHECK(poll_ready(ac, &t, 5000000) != UINT64_MAX);
	uint64_t waited = mono_us() - t0;
	CHECK_EQ(ac_cuda_wait(ac, &t), 0);
	ac_cuda_release(ac, &t);
	ac_cuda_lane_free(l);
	ac_cuda_stats(ac, &st);
	ac_cuda_free(ac);
	mpm_free(ctx);
	CHECK(waited >= 149000);
	CHECK_EQ(st.cut_timeout, 1);
	if (st.disp_wakeups > 5)
		printf("  dispatcher woke %llu times for one deadline\n",
		       (unsigned long long)st.disp_wakeups);
	CHECK(st.disp_wakeups <= 5);
}

/* A lane's batch holds at most a quarter of its ring (here less than
 * gpu-transfer-size): a 1 MiB ring cuts at 256 KiB, counted as cut.size,
 * and the batch size histogram says so. */
TEST(accuda_lane_batch_is_a_quarter_of_its_ring)
{
	MpmCtx *ctx;
	const AcAutomaton *a;
	CudaMpmConfig c;
	static AcCudaTicket t[600];
	AcCudaStats st;
	uint8_t buf[1000];
	char err[256];

	memset(buf, 'x', sizeof(buf));
	memcpy(buf, "abc", 3);
	CHECK_EQ(one_ctx(&ctx, &a), 0);
	small_cfg(&c, 1 << 20, 1 << 19, 2);
	c.batching_timeout_us = 10000000;
	AcCuda *ac = ac_cuda_new(&c, NULL, accuda_emu_ops(), &a, 1, err, sizeof(err));
	CHECK(ac != NULL);
	AcCudaLane *l = test_lane(ac, 1 << 20);
	CHECK(l != NULL);
	/* 262 payloads of 1,000 bytes fit in 262,144: 262 + 262 + 76 */
	for (int i = 0; i < 600; i++)
		CHECK_EQ(ac_cuda_submit(l, buf, sizeof(buf), 0, NULL, &t[i]), 0);
	ac_cuda_flush(l);
	for (int i = 0; i < 600; i++) {
		CHECK_EQ(ac_cuda_wait(ac, &t[i]), 0);
		ac_cuda_release(ac, &t[i]);
	}
	ac_cuda_lane_free(l);
	ac_cuda_stats(ac, &st);
	ac_cuda_free(ac);
	mpm_free(ctx);
	CHECK_EQ(st.batches, 3);
	CHECK_EQ(st.cut_size, 2);
	CHECK_EQ(st.cut_flush, 1);
	CHECK_EQ(st.cut_payloads, 0);
	CHECK_EQ(st.batch_payloads_max, 262);
	CHECK_EQ(st.batch_bytes_max, 262000);
	CHECK_EQ(ac_cuda_hist_quantile(st.hist_payloads, 0.5), 256);   /* 262's bucket */
	CHECK(ac_cuda_hist_quantile(st.hist_bytes, 0.5) <= 262000);
	CHECK(ac_cuda_hist_quantile(st.hist_bytes, 0.5) >= 262000 - 262000 / 8);
	CHECK_EQ(st.ring_peak_bytes, 600000);
	CHECK_EQ(st.gpu_batches, 3);
}

TEST(accuda_hist_quantile_is_within_an_eighth)
{
	uint64_t h[AC_CUDA_HIST_BUCKETS] = { 0 };

	CHECK_EQ(ac_cuda_hist_quantile(h, 0.5), 0);
	/* through the engine's own bucketing: one batch each of 1..1000 bytes */
	for (uint64_t v = 1; v <= 1000; v++) {
		unsigned e = 63 - (unsigned)__builtin_clzll(v);
		unsigned b = v < 8 ? (unsigned)v : (e - 2) * 8 + ((v >> (e - 3)) & 7);

		h[b]++;
	}
	uint64_t p50 = ac_cuda_hist_quantile(h, 0.5);

	CHECK(p50 <= 501 && p50 >= 501 - 501 / 8);
	CHECK(ac_cuda_hist_quantile(h, 1.0) <= 1000);
	CHECK(ac_cuda_hist_quantile(h, 1.0) >= 1000 - 1000 / 8);
}

/* The emulation's fault switch (test-opts fail=N): with every batch
 * failing, half in submit and half in wait, every payload is rescanned on
 * the CPU with ac's matches, and the counters say that no batch used the
 * device. */
TEST(accuda_failed_batches_fall_back_and_are_counted)
{
	MpmCtx *ctx;
	const AcAutomaton *a;
	CudaMpmConfig c;
	AcCudaTicket t[8];
	AcCudaStats st;
	char err[256];
	int cpu = 0;
	uint32_t n = 0, nids = 1;

	CHECK_EQ(one_ctx(&ctx, &a), 0);
	small_cfg(&c, 1 << 20, 1 << 18, 2);
	c.batching_timeout_us = 10000000;
	AcCuda *ac = ac_cuda_new(&c, NULL, accuda_emu_ops(), &a, 1, err, sizeof(err));
	CHECK(ac != NULL);
	AcCudaLane *l = test_lane(ac, c.cudabuffer_buffer_size);
	CHECK(l != NULL);
	accuda_emu_set_fail(1);
	for (int i = 0; i < 8; i++) {
		CHECK_EQ(ac_cuda_submit(l, (const uint8_t *)"xxABCxaBc", 9, 0, NULL, &t[i]), 0);
		ac_cuda_flush(l);     /* one payload per batch */
	}
	for (int i = 0; i < 8; i++) {
		struct seq got = { .n = 0 };

		cpu += ac_cuda_wait(ac, &t[i]);
		/* no device ids: the caller takes the CPU rescan */
		if (ac_cuda_ids(ac, &t[i], 0, &nids) != NULL || nids != 0)
			cpu -= 100;
		n += ac_cuda_matches(ac, &t[i], seq_cb, &got);
		ac_cuda_release(ac, &t[i]);
	}
	ac_cuda_lane_free(l);
	ac_cuda_stats(ac, &st);
	ac_cuda_free(ac);
	accuda_emu_set_fail(0);
	mpm_free(ctx);
	CHECK_EQ(cpu, 8);
	CHECK_EQ(n, 8 * 3);
	CHECK_EQ(st.batches, 8);
	CHECK_EQ(st.error_batches, 8);
	CHECK_EQ(st.cpu_device_error, 8);
	CHECK_EQ(st.gpu_batches, 0);
}

/* The watchdog (emulation test-opt hang=N): every 2nd batch never
 * completes; wait() gives it up after 50 ms, its payload is rescanned on
 * the CPU with ac's matches, and it is counted as a watchdog error apart
 * from the batches that completed. The test ending is the "no hang". */
TEST(accuda_hung_batches_are_abandoned_by_the_watchdog)
{
	MpmCtx *ctx;
	const AcAutomaton *a;
	CudaMpmConfig c;
	AcCudaTicket t[8];
	AcCudaStats st;
	char err[256];
	int cpu = 0, same = 0;
	static struct seq ref, got;
	static const uint8_t pay[] = "xxABCxaBc";

	CHECK_EQ(one_ctx(&ctx, &a), 0);
	ac_search(a, pay, 9, seq_cb, &ref);
	small_cfg(&c, 1 << 20, 1 << 18, 2);
	c.batching_timeout_us = 10000000;
	AcCuda *ac = ac_cuda_new(&c, NULL, accuda_emu_ops(), &a, 1, err, sizeof(err));
	CHECK(ac != NULL);
	AcCudaLane *l = test_lane(ac, c.cudabuffer_buffer_size);
	CHECK(l != NULL);
	accuda_emu_set_hang(2, 50);
	for (int i = 0; i < 8; i++) {
		CHECK_EQ(ac_cuda_submit(l, (const uint8_t *)"xxABCxaBc", 9, 0, NULL, &t[i]), 0);
		ac_cuda_flush(l);     /* one payload per batch */
	}
	for (int i = 0; i < 8; i++) {
		got.n = 0;
		cpu += ac_cuda_wait(ac, &t[i]) != 0;
		ac_cuda_matches(ac, &t[i], seq_cb, &got);
		same += seq_equal(&ref, &got);
		ac_cuda_release(ac, &t[i]);
	}
	ac_cuda_lane_free(l);
	ac_cuda_stats(ac, &st);
	ac_cuda_free(ac);
	accuda_emu_set_hang(0, 0);
	mpm_free(ctx);
	CHECK_EQ(cpu, 4);
	CHECK_EQ(same, 8);      /* ac's pattern set, from the device or the CPU */
	CHECK_EQ(st.batches, 8);
	CHECK_EQ(st.watchdog, 4);
	CHECK_EQ(st.error_batches, 4);
	CHECK_EQ(st.gpu_batches, 4);
}

/* The lane's owner waiting for a ticket of its own open batch wants it
 * now: the wait cuts it (cut.flush), long before batching-timeout. A wait
 * for an older, closed batch leaves the open one alone. */
TEST(accuda_wait_on_the_open_batch_cuts_it)
{
	MpmCtx *ctx;
	const AcAutomaton *a;
	CudaMpmConfig c;
	AcCudaTicket t1, t2;
	AcCudaStats st;
	char err[256];

	CHECK_EQ(one_ctx(&ctx, &a), 0);
	small_cfg(&c, 1 << 20, 1 << 18, 2);
	c.batching_timeout_us = 10000000; /* 10 s: never the deadline here */
	AcCuda *ac = ac_cuda_new(&c, NULL, accuda_emu_ops(), &a, 1, err, sizeof(err));
	CHECK(ac != NULL);
	AcCudaLane *l = test_lane(ac, c.cudabuffer_buffer_size);
	CHECK(l != NULL);
	uint64_t t0 = mono_us();
	CHECK_EQ(ac_cuda_submit(l, (const uint8_t *)"abc", 3, 0, NULL, &t1), 0);
	CHECK_EQ(ac_cuda_ready(ac, &t1), 0);
	CHECK_EQ(ac_cuda_wait(ac, &t1), 0);
	CHECK_EQ(ac_cuda_ready(ac, &t1), 1);
	/* t1's batch is closed; t2 opens the next one */
	CHECK_EQ(ac_cuda_submit(l, (const uint8_t *)"abc", 3, 0, NULL, &t2), 0);
	CHECK(t2.batch != t1.batch);
	CHECK_EQ(ac_cuda_wait(ac, &t1), 0);
	struct timespec ms20 = { 0, 20000000 };
	nanosleep(&ms20, NULL);
	CHECK_EQ(ac_cuda_ready(ac, &t2), 0);
	ac_cuda_stats(ac, &st);
	CHECK_EQ(st.batches, 1);
	CHECK_EQ(ac_cuda_wait(ac, &t2), 0);
	ac_cuda_release(ac, &t1);
	ac_cuda_release(ac, &t2);
	ac_cuda_lane_free(l);
	ac_cuda_stats(ac, &st);
	ac_cuda_free(ac);
	mpm_free(ctx);
	CHECK(mono_us() - t0 < 5000000);
	CHECK_EQ(st.batches, 2);
	CHECK_EQ(st.cut_flush, 2);
	CHECK_EQ(st.cut_timeout, 0);
}

/* ac_cuda_lane_free cuts the open batch and returns only once the lane's
 * batches have left the pipeline (the ring they are read from is freed
 * next): their figures are all counted when it returns. Its lane id is
 * then free for the next lane; two live lanes never share one. */
TEST(accuda_lane_free_waits_for_its_batches)
{
	MpmCtx *ctx;
	const AcAutomaton *a;
	CudaMpmConfig c;
	AcCudaOpts o;
	static AcCudaTicket t[200];
	AcCudaTicket ta, tb;
	AcCudaStats st;
	static uint8_t buf[1000];
	char err[256];

	fill(buf, sizeof(buf));
	CHECK_EQ(one_ctx(&ctx, &a), 0);
	small_cfg(&c, 1 << 20, 1 << 18, 2);
	c.batching_timeout_us = 10000000;
	ac_cuda_opts_defaults(&o, &c);
	o.kernel = ACC_KERNEL_PAYLOAD;    /* the slowest: a batch takes a while */
	AcCuda *ac = ac_cuda_new(&c, &o, accuda_emu_ops(), &a, 1, err, sizeof(err));
	CHECK(ac != NULL);
	AcCudaLane *l = test_lane(ac, c.cudabuffer_buffer_size);
	CHECK(l != NULL);
	for (int i = 0; i < 200; i++)
		CHECK_EQ(ac_cuda_submit(l, buf, sizeof(buf), 0, NULL, &t[i]), 0);
	/* released unread (a drained window): only the pipeline holds it */
	for (int i = 0; i < 200; i++)
		ac_cuda_release(ac, &t[i]);
	ac_cuda_lane_free(l);
	ac_cuda_stats(ac, &st);
	CHECK_EQ(st.batches, 1);
	CHECK_EQ(st.payloads, 200);
	CHECK_EQ(st.cut_flush, 1);
	/* the freed lane's id goes to the next lane */
	AcCudaLane *la = test_lane(ac, c.cudabuffer_buffer_size);
	AcCudaLane *lb = test_lane(ac, c.cudabuffer_buffer_size);
	CHECK(la != NULL && lb != NULL);
	CHECK_EQ(ac_cuda_submit(la, buf, 10, 0, NULL, &ta), 0);
	CHECK_EQ(ac_cuda_submit(lb, buf, 10, 0, NULL, &tb), 0);
	CHECK_EQ(ta.lane, t[0].lane);
	CHECK(ta.lane != tb.lane);
	ac_cuda_release(ac, &ta);
	ac_cuda_release(ac, &tb);
	ac_cuda_lane_free(la);
	/* lb is left to ac_cuda_free (a failed start-up's lanes) */
	ac_cuda_free(ac);
	mpm_free(ctx);
}

TEST(accuda_flush_cuts_without_waiting_for_the_deadline)
{
	MpmCtx *ctx;
	const AcAutomaton *a;
	CudaMpmConfig c;
	AcCudaTicket t;
	AcCudaStats st;
	char err[256];

	CHECK_EQ(one_ctx(&ctx, &a), 0);
	small_cfg(&c, 1 << 20, 1 << 18, 2);
	c.batching_timeout_us = 10000000; /* 10 s */
	AcCuda *ac = ac_cuda_new(&c, NULL, accuda_emu_ops(), &a, 1, err, sizeof(err));
	CHECK(ac != NULL);
	AcCudaLane *l = test_lane(ac, c.cudabuffer_buffer_size);
	CHECK(l != NULL);
	CHECK_EQ(ac_cuda_submit(l, (const uint8_t *)"abc", 3, 0, NULL, &t), 0);
	ac_cuda_flush(l);
	/* done without a wait (which would cut it itself) */
	CHECK(poll_ready(ac, &t, 5000000) != UINT64_MAX);
	CHECK_EQ(ac_cuda_wait(ac, &t), 0);
	ac_cuda_release(ac, &t);
	ac_cuda_lane_free(l);
	ac_cuda_stats(ac, &st);
	ac_cuda_free(ac);
	mpm_free(ctx);
	CHECK_EQ(st.cut_flush, 1);
	CHECK_EQ(st.cut_timeout, 0);
}

TEST(accuda_size_limits_send_payloads_to_the_cpu)
{
	MpmCtx *ctx;
	const AcAutomaton *a;
	CudaMpmConfig c;
	AcCudaTicket t;
	AcCudaStats st;
	uint8_t buf[200] = { 0 };
	char err[256];

	CHECK_EQ(one_ctx(&ctx, &a), 0);
	small_cfg(&c, 1 << 20, 1 << 18, 1);
	c.data_buffer_size_min_limit = 10;
	c.data_buffer_size_max_limit = 100;
	AcCuda *ac = ac_cuda_new(&c, NULL, accuda_emu_ops(), &a, 1, err, sizeof(err));
	CHECK(ac != NULL);
	AcCudaLane *l = test_lane(ac, c.cudabuffer_buffer_size);
	CHECK(l != NULL);
	CHECK_EQ(ac_cuda_submit(l, buf, 9, 0, NULL, &t), AC_CUDA_CPU_BELOW_MIN);
	CHECK_EQ(ac_cuda_submit(l, buf, 101, 0, NULL, &t), AC_CUDA_CPU_ABOVE_MAX);
	CHECK_EQ(ac_cuda_submit(l, buf, 10, 1, NULL, &t), AC_CUDA_CPU_BAD_GROUP);
	CHECK_EQ(ac_cuda_submit(l, buf, 10, 0, NULL, &t), AC_CUDA_QUEUED);
	ac_cuda_flush(l);
	ac_cuda_wait(ac, &t);
	ac_cuda_release(ac, &t);
	CHECK_EQ(ac_cuda_submit(l, buf, 100, 0, NULL, &t), AC_CUDA_QUEUED);
	ac_cuda_flush(l);
	ac_cuda_wait(ac, &t);
	ac_cuda_release(ac, &t);
	ac_cuda_lane_free(l);
	ac_cuda_stats(ac, &st);
	ac_cuda_free(ac);
	mpm_free(ctx);
	CHECK_EQ(st.cpu_below_min, 1);
	CHECK_EQ(st.cpu_above_max, 1);
	CHECK_EQ(st.payloads, 2);
	CHECK_EQ(st.bytes, 110);
}

TEST(accuda_full_ring_falls_back_then_recovers)
{
	MpmCtx *ctx;
	const AcAutomaton *a;
	CudaMpmConfig c;
	AcCudaTicket t[64];
	AcCudaStats st;
	uint8_t buf[1000];
	char err[256];
	int n = 0, rc = 0;

	memset(buf, 'a', sizeof(buf));
	CHECK_EQ(one_ctx(&ctx, &a), 0);
	small_cfg(&c, 4096, 2048, 2);
	AcCuda *ac = ac_cuda_new(&c, NULL, accuda_emu_ops(), &a, 1, err, sizeof(err));
	CHECK(ac != NULL);
	AcCudaLane *l = test_lane(ac, 4096);
	CHECK(l != NULL);
	/* nobody releases: 1000-byte payloads fill the lane's 4 KiB ring
	 * (batches of two: gpu-transfer-size 2 KiB) */
	while (n < 64 && (rc = ac_cuda_submit(l, buf, 1000, 0, NULL, &t[n])) == 0)
		n++;
	CHECK_EQ(rc, AC_CUDA_CPU_RING_FULL);
	CHECK(n >= 3 && n <= 4);
	for (int i = 0; i < n; i++) {
		ac_cuda_wait(ac, &t[i]);
		ac_cuda_release(ac, &t[i]);
	}
	/* space is back: the ring wraps */
	CHECK_EQ(ac_cuda_submit(l, buf, 1000, 0, NULL, &t[0]), 0);
	ac_cuda_flush(l);
	ac_cuda_wait(ac, &t[0]);
	struct seq got = { .n = 0 };
	ac_cuda_matches(ac, &t[0], seq_cb, &got);
	ac_cuda_release(ac, &t[0]);
	ac_cuda_lane_free(l);
	ac_cuda_stats(ac, &st);
	ac_cuda_free(ac);
	mpm_free(ctx);
	CHECK_EQ(st.cpu_ring_full, 1);
	CHECK_EQ(got.n, 0); /* "aaaa..." has no "abc" */
}

/* ---- start-up errors ---- */

TEST(accuda_device_id_out_of_range_lists_devices)
{
	MpmCtx *ctx;
	const AcAutomaton *a;
	CudaMpmConfig c;
	char err[512] = "";

	CHECK_EQ(one_ctx(&ctx, &a), 0);
	small_cfg(&c, 1 << 20, 1 << 18, 1);
	c.device_id = 3;
	CHECK(ac_cuda_new(&c, NULL, accuda_emu_ops(), &a, 1, err, sizeof(err)) == NULL);
	mpm_free(ctx);
	CHECK(strstr(err, "device-id 3 is out of range") != NULL);
	CHECK(strstr(err, "0: ac-cuda host emulation") != NULL);
}

TEST(accuda_short_device_memory_names_largest_transfer_size)
{
	MpmCtx *ctx;
	const AcAutomaton *a;
	CudaMpmConfig c;
	char err[512] = "";

	CHECK_EQ(one_ctx(&ctx, &a), 0);
	cuda_mpm_config_defaults(&c);     /* 50mb, 2 streams */
	accuda_emu_set_mem(64ull << 20);  /* a 64 MiB "card" */
	AcCuda *ac = ac_cuda_new(&c, NULL, accuda_emu_ops(), &a, 1, err, sizeof(err));
	accuda_emu_set_mem(0);
	mpm_free(ctx);
	CHECK(ac == NULL);
	CHECK(strstr(err, "gpu-transfer-size 50mb") != NULL);
	CHECK(strstr(err, "the largest gpu-transfer-size that fits is ") != NULL);
	/* 64 MiB / 2 streams / (1 + 8/64 + 12/8 + 4/8 + 16/64 + the pair
	 * table's 4 bytes per slot, a power of two >= 2 per record: 8/8 at
	 * 7 MB) per byte: about 7 MiB (the last three: grouping on the device) */
	const char *v = strstr(err, "fits is ") + 8;
	long kb = strtol(v, NULL, 10) * (strstr(v, "mb") ? 1024 : 1);
	CHECK(kb > 6600 && kb < 7800);
}

TEST(accuda_cuda_ops_explain_a_build_without_cuda)
{
	char err[512] = "";
	const AcDeviceOps *ops = accuda_cuda_ops(err, sizeof(err));

#ifdef HAVE_CUDA
	/* with CUDA built, no GPU here: the device count must fail clearly */
	CHECK(ops != NULL);
	if (ops->device_count(err, sizeof(err)) < 0)
		CHECK(strstr(err, "no CUDA driver or device") != NULL);
#else
	CHECK(ops == NULL);
	CHECK(strstr(err, "--enable-cuda") != NULL);
#endif
}

TEST(accuda_bad_config_is_refused)
{
	MpmCtx *ctx;
	const AcAutomaton *a;
	CudaMpmConfig c;
	char err[512] = "";

	CHECK_EQ(one_ctx(&ctx, &a), 0);
	small_cfg(&c, 1024, 2048, 1);
	CHECK(ac_cuda_new(&c, NULL, accuda_emu_ops(), &a, 1, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "cudabuffer-buffer-size") != NULL);
	small_cfg(&c, 1 << 20, 1 << 18, 0);
	CHECK(ac_cuda_new(&c, NULL, accuda_emu_ops(), &a, 1, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "cuda-streams") != NULL);
	mpm_free(ctx);
}

/* ---- the detect engine's GPU prefilter (detect/prefilter-gpu.c) ---- */

#include "conf/conf.h"
#include "detect/detect-parse.h"
#include "detect/engine-int.h"
#include "detect/prefilter-gpu.h"

#include <arpa/inet.h>
#include <netinet/in.h>

static const char gpu_rules[] =
	"alert tcp any any -> any any (flow:to_server; content:\"abc\"; sid:1;)\n"
	"alert tcp any any -> any any (flow:to_client; content:\"ABC\"; nocase; sid:2;)\n"
	"alert tcp any any -> any any (content:\"xyz\"; sid:3;)\n"
	"alert tcp any any -> any any (flow:to_client; content:\"ABC\"; sid:4;)\n"
	"alert udp any any -> any any (content:\"qq\"; sid:5;)\n"
	"alert tcp any any -> any any (flow:to_server; content:\"bc\"; sid:6;)\n"
	"alert tcp any any -> any 80 (flow:to_server; content:\"zA\"; sid:7;)\n";

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The prefilter's match set after detect_packet, sorted, into out. */
static uint32_t matchset_sorted(DetectThread *dt, uint32_t *out, uint32_t max)
{
	uint32_t n = mpm_matchset_count(dt->ms);

	if (n > max)
		n = max;
	memcpy(out, mpm_matchset_ids(dt->ms), n * sizeof(*out));
	qsort(out, n, sizeof(*out), u32_cmp);
	return n;
}

#define GPU_NPKT 96
#define GPU_NTHR 2
#define GPU_WINDOW 16

/* One packet thread of the prefilter test: its feed, its detect threads
 * (dg takes the GPU's matches, dc2 is the CPU reference), its packets. */
struct gpu_thr {
	DetectGpu *g;
	DetectThread *dg, *dc2;
	Packet *pk;
	DetectGpuTicket *gt;
	int first, step;      /* its packets: first, first + step, ... */
	int bad;              /* packets that differed; -1: no feed */
	pthread_t th;
};

/* Packet i's match set with its ticket (what detect_packet took from it:
 * the id array, or on a CPU rescan the match set) against the CPU's. */
static int gpu_packet_differs(struct gpu_thr *w, int i)
{
	DetectThread *dg = w->dg, *dc2 = w->dc2;
	Packet *p = &w->pk[i];
	DetectGpuTicket *gt = &w->gt[i];
	const DetectAlert *a;
	uint32_t x[64], y[64], nx, ny;

	detect_gpu_begin(dg, gt);
	detect_packet(dg, p, &a);
	mpm_matchset_clear(dg->ms);
	if (gt->g) {
		int pc = p->proto == IPPROTO_UDP ? PC_UDP : PC_TCP;
		int dir = (p->flags & PKT_TOCLIENT) ? 1 : 0;
		uint32_t n, lo, hi;
		const uint32_t *ids = detect_gpu_packet_ids(gt, pc, dir, &n, &lo, &hi);

		if (ids) {
			for (uint32_t k = 0; k < n; k++)
				if (ids[k] >= lo && ids[k] < hi)
					mpm_matchset_add(dg->ms, ids[k] - lo);
		} else {
			detect_gpu_prefilter(gt, pc, dir, dg->ms);
		}
	} else {
		detect_packet(dc2, p, &a);
		mpm_matchset_clear(dg->ms);
		for (uint32_t k = 0; k < mpm_matchset_count(dc2->ms); k++)
			mpm_matchset_add(dg->ms, mpm_matchset_ids(dc2->ms)[k]);
	}
	nx = matchset_sorted(dg, x, 64);
	detect_gpu_end(dg, gt);
	detect_packet(dc2, p, &a);
	ny = matchset_sorted(dc2, y, 64);
	return nx != ny || memcmp(x, y, nx * sizeof(*x)) != 0;
}

/* As a runmode's window: submit GPU_WINDOW packets after "decode", cut
 * the window, then inspect the window before it. */
static void *gpu_thr_main(void *arg)
{
	struct gpu_thr *w = arg;
	char err[256];
	DetectGpuFeed *f = detect_gpu_feed_new(w->g, GPU_NTHR, err, sizeof(err));
	int prev = -1;

	if (!f) {
		fprintf(stderr, "gpu feed: %s\n", err);
		w->bad = -1;
		return NULL;
	}
	if (detect_gpu_feed_gpu(f) != w->g)
		w->bad++;
	for (int lo = w->first; lo < GPU_NPKT; lo += GPU_WINDOW * w->step) {
		int hi = lo + GPU_WINDOW * w->step;

		for (int i = lo; i < hi && i < GPU_NPKT; i += w->step)
			detect_gpu_submit(f, &w->pk[i], &w->gt[i]);
		detect_gpu_flush(f);
		for (int i = prev; prev >= 0 && i < lo; i += w->step)
			w->bad += gpu_packet_differs(w, i);
		prev = lo;
	}
	for (int i = prev; prev >= 0 && i < GPU_NPKT; i += w->step)
		w->bad += gpu_packet_differs(w, i);
	detect_gpu_feed_free(f);
	return NULL;
}

/* Every packet's prefilter match set with the ticket equals the CPU one
 * (same group, same ids), in both directions and for tcp and udp, with
 * GPU_NTHR threads each feeding its own lane at once; returns the number
 * of packets that differed, -1 on a setup failure. */
static int gpu_prefilter_run(const char *test_opts, AcCudaStats *st)
{
	static uint8_t bufs[GPU_NPKT][160];
	static Packet pk[GPU_NPKT];
	static DetectGpuTicket gt[GPU_NPKT];
	static const char alpha[] = "abcxyzABCqQ";
	RuleLoadConfig rc = { .quiet = 1 };
	DetectConfig dc = { .algo = MPM_AC_CUDA, .alert_max = 15 };
	CudaMpmConfig cfg;
	AcCudaOpts opts;
	SigTable *t = sig_table_new();
	DetectEngine *de = NULL;
	struct gpu_thr w[GPU_NTHR];
	DetectGpu *g = NULL;
	char err[512] = "";
	int emu = 0, bad = -1, ok = 1;
	uint32_t seed = 7;

	memset(w, 0, sizeof(w));
	detect_register_counters();
	if (!t || sig_load_string(t, gpu_rules, "gpu.rules", &rc, err, sizeof(err)) != 0)
		goto out;
	de = detect_engine_build(t, &dc, err, sizeof(err));
	if (!de)
		goto out;
	cuda_mpm_config_defaults(&cfg);
	cfg.gpu_transfer_size = 1024;
	cfg.cudabuffer_buffer_size = 4096;
	conf_set("cuda.mpm.test-opts", test_opts);
	if (detect_gpu_test_switches(&cfg, &emu, &opts, err, sizeof(err)) < 0)
		goto out;
	g = detect_gpu_new(de, &cfg, &opts, accuda_emu_ops(), err, sizeof(err));
	if (!g || detect_engine_gpu(de) != g)
		goto out;
	for (int k = 0; k < GPU_NTHR; k++) {
		ThreadCounters *tc = thread_counters_new();

		w[k] = (struct gpu_thr){ .g = g, .pk = pk, .gt = gt, .first = k, .step = GPU_NTHR };
		w[k].dg = detect_thread_new(de, tc);
		w[k].dc2 = detect_thread_new(de, tc);
		if (!w[k].dg || !w[k].dc2)
			ok = 0;
	}
	if (!ok)
		goto out;
	for (int i = 0; i < GPU_NPKT; i++) {
		Packet *p = &pk[i];
		uint16_t len = 1 + (uint16_t)((seed = seed * 1103515245u + 12345u) >> 16) % 150;

		for (uint16_t k = 0; k < len; k++)
			bufs[i][k] = (uint8_t)alpha[((seed = seed * 1103515245u + 12345u) >> 16) %
						     (sizeof(alpha) - 1)];
		memset(p, 0, sizeof(*p));
		p->ip_version = 4;
		p->proto = (i % 5 == 4) ? IPPROTO_UDP : IPPROTO_TCP;
		/* both directions within each thread's share */
		p->sp = ((i >> 1) & 1) ? 80 : 40000;
		p->dp = ((i >> 1) & 1) ? 40000 : 80;
		p->flags = ((i >> 1) & 1) ? PKT_TOCLIENT : PKT_TOSERVER;
		p->payload = bufs[i];
		p->payload_len = len;
	}
	for (int k = 0; k < GPU_NTHR; k++)
		pthread_create(&w[k].th, NULL, gpu_thr_main, &w[k]);
	bad = 0;
	for (int k = 0; k < GPU_NTHR; k++) {
		pthread_join(w[k].th, NULL);
		if (w[k].bad < 0 || bad < 0)
			bad = -1;
		else
			bad += w[k].bad;
	}
	detect_gpu_stats(g, st);
out:
	if (bad < 0)
		fprintf(stderr, "gpu prefilter setup: %s\n", err);
	for (int k = 0; k < GPU_NTHR; k++) {
		detect_thread_free(w[k].dg);
		detect_thread_free(w[k].dc2);
	}
	detect_gpu_free(g);
	detect_engine_free(de);
	sig_table_free(t);
	conf_deinit();
	return bad;
}

TEST(gpu_prefilter_match_sets_equal_ac_both_directions)
{
	AcCudaStats st;

	CHECK_EQ(gpu_prefilter_run("payloads=8", &st), 0);
	CHECK(st.payloads > 0);
	CHECK(st.cut_size + st.cut_payloads > 0);
	CHECK(st.cut_flush > 0);          /* the windows */
	CHECK_EQ(st.cpu_overflow, 0);
}

TEST(gpu_prefilter_overflow_and_ring_full_still_equal_ac)
{
	AcCudaStats st;

	CHECK_EQ(gpu_prefilter_run("records=2,payloads=4,slots=3", &st), 0);
	CHECK(st.cpu_overflow > 0);
	CHECK(st.cpu_ring_full > 0);
}

/* Through the engine's prefilter: hung batches (test-opts hang=3,
 * watchdog-ms=20) change no packet's match set, and are counted. */
TEST(gpu_prefilter_hung_batches_still_equal_ac)
{
	AcCudaStats st;

	CHECK_EQ(gpu_prefilter_run("payloads=8,hang=3,watchdog-ms=20", &st), 0);
	CHECK(st.watchdog > 0);
	CHECK_EQ(st.watchdog, st.error_batches);
	CHECK(st.gpu_batches > 0);
	accuda_emu_set_hang(0, 0);   /* the switch outlives the run */
}

TEST(gpu_test_opts_reject_garbage)
{
	CudaMpmConfig cfg;
	AcCudaOpts o;
	char err[256] = "";
	int emu = 1;

	cuda_mpm_config_defaults(&cfg);
	conf_set("cuda.mpm.test-opts", "records=x");
	CHECK(detect_gpu_test_switches(&cfg, &emu, &o, err, sizeof(err)) < 0);
	CHECK(strstr(err, "test-opts") != NULL);
	CHECK_EQ(emu, 0);   /* never on unless asked */
	conf_set("cuda.mpm.test-opts", "fail=x");
	CHECK(detect_gpu_test_switches(&cfg, &emu, &o, err, sizeof(err)) < 0);
	conf_set("cuda.mpm.test-opts", "hang=x");
	CHECK(detect_gpu_test_switches(&cfg, &emu, &o, err, sizeof(err)) < 0);
	conf_set("cuda.mpm.test-opts", "hang=2,watchdog-ms=");
	CHECK(detect_gpu_test_switches(&cfg, &emu, &o, err, sizeof(err)) < 0);
	conf_set("cuda.mpm.test-opts", "kernel=payload,records=5");
	conf_set("cuda.mpm.emulation", "yes");
	CHECK_EQ(detect_gpu_test_switches(&cfg, &emu, &o, err, sizeof(err)), 1);
	CHECK_EQ(emu, 1);
	CHECK_EQ(o.batch_records, 5);
	CHECK_EQ(o.kernel, ACC_KERNEL_PAYLOAD);
	conf_deinit();
}
