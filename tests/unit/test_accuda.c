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
	struct job *jobs;
	uint32_t njobs;
	uint32_t submitted;   /* under mu */
	uint32_t next;        /* under mu */
	int done_submitting;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint32_t mismatches;  /* atomic */
	uint32_t checked;     /* atomic */
	uint32_t device_payloads;
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
		uint32_t len, n;
		int dev = ac_cuda_wait(r->ac, &j->t) == 0;

		if (dev)
			__atomic_fetch_add(&r->device_payloads, 1, __ATOMIC_RELAXED);
		const uint8_t *p = ac_cuda_payload(r->ac, &j->t, &len);
		if (len != j->len || memcmp(p, j->buf, len) != 0)
			__atomic_fetch_add(&r->mismatches, 1, __ATOMIC_RELAXED);
		n = ac_cuda_matches(r->ac, &j->t, seq_cb, g);
		/* from the device, never more reports than occurrences */
		if (dev && n > w->n)
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

static void *worker(void *arg)
{
	struct run *r = arg;

	for (;;) {
		pthread_mutex_lock(&r->mu);
		while (r->next == r->submitted && !r->done_submitting)
			pthread_cond_wait(&r->cv, &r->mu);
		if (r->next == r->submitted) {
			pthread_mutex_unlock(&r->mu);
			return NULL;
		}
		struct job *j = &r->jobs[r->next++];
		pthread_mutex_unlock(&r->mu);
		/* a slow worker now and then, so the RX thread fills the ring */
		if (rnd() % 64 == 0) {
			struct timespec ts = { 0, 200000 };
			nanosleep(&ts, NULL);
		}
		check_job(r, j);
	}
}

/* RX thread = this thread; 3 workers. Returns the stats. */
static int run_property(const CudaMpmConfig *cfg, const AcCudaOpts *opts,
			uint32_t njobs, uint32_t maxpay, AcCudaStats *st)
{
	struct run r = { 0 };
	const AcAutomaton *autos[2];
	pthread_t thr[3];
	uint8_t *data = malloc((size_t)njobs * maxpay);
	char err[512];
	int rc = -1;

	pthread_mutex_init(&r.mu, NULL);
	pthread_cond_init(&r.cv, NULL);
	r.ctx[0] = make_ctx(60, 6, AC_DENSE_BUDGET_DEFAULT);
	r.ctx[1] = make_ctx(40, 12, 0);
	r.jobs = calloc(njobs, sizeof(*r.jobs));
	if (!r.ctx[0] || !r.ctx[1] || !r.jobs || !data)
		goto out;
	autos[0] = mpm_ac_automaton(r.ctx[0]);
	autos[1] = mpm_ac_automaton(r.ctx[1]);
	r.ac = ac_cuda_new(cfg, opts, accuda_emu_ops(), autos, 2, err, sizeof(err));
	if (!r.ac) {
		printf("  ac_cuda_new: %s\n", err);
		goto out;
	}
	for (int i = 0; i < 3; i++)
		pthread_create(&thr[i], NULL, worker, &r);
	for (uint32_t i = 0; i < njobs; i++) {
		struct job *j = &r.jobs[i];

		j->buf = data + (size_t)i * maxpay;
		j->len = rnd() % (maxpay + 1);
		j->group = rnd() % 2;
		fill((uint8_t *)j->buf, j->len);
		j->via_cpu = ac_cuda_submit(r.ac, j->buf, j->len, j->group, j, &j->t) != 0;
		pthread_mutex_lock(&r.mu);
		/* bounded worker queues: a pcap reader blocks when they are
		 * full, but never inside ac_cuda_submit */
		while (r.submitted - r.next >= 48) {
			pthread_mutex_unlock(&r.mu);
			struct timespec ts = { 0, 50000 };
			nanosleep(&ts, NULL);
			pthread_mutex_lock(&r.mu);
		}
		r.submitted++;
		pthread_cond_signal(&r.cv);
		pthread_mutex_unlock(&r.mu);
	}
	ac_cuda_flush(r.ac);
	pthread_mutex_lock(&r.mu);
	r.done_submitting = 1;
	pthread_cond_broadcast(&r.cv);
	pthread_mutex_unlock(&r.mu);
	for (int i = 0; i < 3; i++)
		pthread_join(thr[i], NULL);
	ac_cuda_stats(r.ac, st);
	if (getenv("ACCUDA_TEST_VERBOSE"))
		printf("  batches %llu payloads %llu bytes %llu records %llu cut size/timeout/flush "
		       "%llu/%llu/%llu cpu: min %llu max %llu full %llu overflow %llu (%llu batches)\n",
		       (unsigned long long)st->batches, (unsigned long long)st->payloads,
		       (unsigned long long)st->bytes, (unsigned long long)st->records,
		       (unsigned long long)st->cut_size, (unsigned long long)st->cut_timeout,
		       (unsigned long long)st->cut_flush, (unsigned long long)st->cpu_below_min,
		       (unsigned long long)st->cpu_above_max, (unsigned long long)st->cpu_ring_full,
		       (unsigned long long)st->cpu_overflow, (unsigned long long)st->overflow_batches);
	if (r.mismatches)
		printf("  %u of %u payloads differ from ac\n", r.mismatches, r.checked);
	rc = r.mismatches == 0 && r.checked == njobs ? 0 : -1;
out:
	ac_cuda_free(r.ac);
	mpm_free(r.ctx[0]);
	mpm_free(r.ctx[1]);
	free(r.jobs);
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
	CHECK_EQ(run_property(&c, &o, 3000, 200, &st), 0);
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
	CHECK_EQ(run_property(&c, &o, 3000, 200, &st), 0);
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
	CHECK_EQ(run_property(&c, &o, 400, 1500, &st), 0);
	CHECK_EQ(st.overflow_batches, 0);
	CHECK(st.records > 1000);
}

TEST(accuda_default_opts_equal_ac)
{
	CudaMpmConfig c;
	AcCudaStats st;

	small_cfg(&c, 1 << 20, 256 << 10, 2);
	CHECK_EQ(run_property(&c, NULL, 2000, 1500, &st), 0);
	CHECK(st.payloads > 0);
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
	uint64_t t0 = mono_us();
	CHECK_EQ(ac_cuda_submit(ac, (const uint8_t *)"xxABCxaBc", 9, 0, NULL, &t), 0);
	CHECK_EQ(ac_cuda_wait(ac, &t), 0);
	uint64_t waited = mono_us() - t0;
	ac_cuda_matches(ac, &t, seq_cb, &got);
	ac_cuda_release(ac, &t);
	ac_cuda_stats(ac, &st);
	ac_cuda_free(ac);
	mpm_free(ctx);
	CHECK(waited >= 29000);
	CHECK(waited < 500000);
	CHECK_EQ(st.cut_timeout, 1);
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
	uint32_t n;

	memset(buf, 'a', sizeof(buf));
	CHECK(ctx != NULL);
	small_cfg(&c, 1 << 20, 1 << 18, 2);
	AcCudaOpts o;

	ac_cuda_opts_defaults(&o, &c);
	o.kernel = ACC_KERNEL_CHUNK;
	AcCuda *ac = ac_cuda_new(&c, &o, accuda_emu_ops(), &a, 1, err, sizeof(err));
	CHECK(ac != NULL);
	CHECK_EQ(ac_cuda_submit(ac, buf, sizeof(buf), 0, NULL, &t), 0);
	ac_cuda_flush(ac);
	CHECK_EQ(ac_cuda_wait(ac, &t), 0);
	n = ac_cuda_matches(ac, &t, seq_cb, &got);
	ac_cuda_release(ac, &t);
	ac_cuda_stats(ac, &st);
	ac_cuda_free(ac);
	mpm_free(ctx);
	CHECK(st.records >= 2 * sizeof(buf) - 1);   /* the kernel's view */
	CHECK_EQ(n, 2);
	seq_to_set(&got);
	CHECK_EQ(got.n, 2);
	CHECK_EQ(got.v[0][0], 1);
	CHECK_EQ(got.v[1][0], 2);
}

/* A worker's own stream: the set of ids of ac_search on buffers longer
 * than a descriptor (65535 bytes), with a pattern across the piece edge. */
TEST(accuda_sync_scan_equals_ac_across_piece_edges)
{
	static const struct lit pats[] = {
		{ "EDGEPATTERN", 1, 0 }, { "tail", 2, 1 }, { "nowhere", 3, 1 },
	};
	const AcAutomaton *a;
	MpmCtx *ctx = gpu_ctx(pats, 3, &a);
	CudaMpmConfig c;
	static uint8_t buf[150000];
	struct seq want = { .n = 0 }, got = { .n = 0 };
	AcCudaStats st;
	char err[256];

	CHECK(ctx != NULL);
	memset(buf, 'x', sizeof(buf));
	/* across the first piece's end (65535) and at the buffer's end */
	memcpy(buf + 65535 - 5, "EDGEPATTERN", 11);
	memcpy(buf + sizeof(buf) - 4, "TAIL", 4);
	small_cfg(&c, 1 << 20, 1 << 18, 2);
	AcCuda *ac = ac_cuda_new(&c, NULL, accuda_emu_ops(), &a, 1, err, sizeof(err));
	CHECK(ac != NULL);
	AcCudaSync *s = ac_cuda_sync_new(ac, 1 << 20, err, sizeof(err));
	CHECK(s != NULL);
	CHECK_EQ(ac_cuda_sync_scan(s, buf, sizeof(buf), 0, seq_cb, &got), 0);
	CHECK(ac_cuda_sync_scan(s, buf, 0, 0, seq_cb, &got) < 0);
	ac_cuda_sync_free(s);
	ac_cuda_stats(ac, &st);
	ac_cuda_free(ac);
	ac_search(a, buf, sizeof(buf), seq_cb, &want);
	mpm_free(ctx);
	CHECK_EQ(got.n, 2);
	CHECK(seq_equal(&want, &got));
	CHECK_EQ(st.sync_scans, 1);
	CHECK_EQ(st.sync_bytes, sizeof(buf));
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
	uint64_t t0 = mono_us();
	CHECK_EQ(ac_cuda_submit(ac, (const uint8_t *)"abc", 3, 0, NULL, &t), 0);
	CHECK_EQ(ac_cuda_wait(ac, &t), 0);
	uint64_t waited = mono_us() - t0;
	ac_cuda_release(ac, &t);
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

/* A pool of 16 packets with 2 streams: batches of 16 / (2 + 2) = 4
 * payloads, so that several fit in the pool; counted as cut.pool, and the
 * batch size histogram says 4. */
TEST(accuda_pool_share_cuts_batches)
{
	MpmCtx *ctx;
	const AcAutomaton *a;
	CudaMpmConfig c;
	AcCudaTicket t[10];
	AcCudaStats st;
	char err[256];

	CHECK_EQ(one_ctx(&ctx, &a), 0);
	small_cfg(&c, 1 << 20, 1 << 18, 2);
	c.batching_timeout_us = 10000000;
	AcCuda *ac = ac_cuda_new(&c, NULL, accuda_emu_ops(), &a, 1, err, sizeof(err));
	CHECK(ac != NULL);
	ac_cuda_set_pool(ac, 16);
	for (int i = 0; i < 10; i++)
		CHECK_EQ(ac_cuda_submit(ac, (const uint8_t *)"xabcx", 5, 0, NULL, &t[i]), 0);
	ac_cuda_flush(ac);
	for (int i = 0; i < 10; i++) {
		CHECK_EQ(ac_cuda_wait(ac, &t[i]), 0);
		ac_cuda_release(ac, &t[i]);
	}
	ac_cuda_stats(ac, &st);
	ac_cuda_free(ac);
	mpm_free(ctx);
	CHECK_EQ(st.batches, 3);
	CHECK_EQ(st.cut_pool, 2);
	CHECK_EQ(st.cut_flush, 1);
	CHECK_EQ(st.batch_payloads_max, 4);
	CHECK_EQ(ac_cuda_hist_quantile(st.hist_payloads, 0.5), 4);
	CHECK_EQ(ac_cuda_hist_quantile(st.hist_bytes, 0.5), 20);
	CHECK_EQ(st.ring_peak_bytes, 50);
	CHECK_EQ(st.gpu_batches, 3);
}

TEST(accuda_hist_quantile_is_within_an_eighth)
{
	uint64_t h[AC_CUDA_HIST_BUCKETS] = { 0 };
	AcCudaStats st;

	CHECK_EQ(ac_cuda_hist_quantile(h, 0.5), 0);
	/* through the engine's own bucketing: one batch each of 1..1000 bytes */
	(void)st;
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
	uint32_t n = 0;

	CHECK_EQ(one_ctx(&ctx, &a), 0);
	small_cfg(&c, 1 << 20, 1 << 18, 2);
	c.batching_timeout_us = 10000000;
	AcCuda *ac = ac_cuda_new(&c, NULL, accuda_emu_ops(), &a, 1, err, sizeof(err));
	CHECK(ac != NULL);
	accuda_emu_set_fail(1);
	for (int i = 0; i < 8; i++) {
		CHECK_EQ(ac_cuda_submit(ac, (const uint8_t *)"xxABCxaBc", 9, 0, NULL, &t[i]), 0);
		ac_cuda_flush(ac);     /* one payload per batch */
	}
	for (int i = 0; i < 8; i++) {
		struct seq got = { .n = 0 };

		cpu += ac_cuda_wait(ac, &t[i]);
		n += ac_cuda_matches(ac, &t[i], seq_cb, &got);
		ac_cuda_release(ac, &t[i]);
	}
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
	accuda_emu_set_hang(2, 50);
	for (int i = 0; i < 8; i++) {
		CHECK_EQ(ac_cuda_submit(ac, (const uint8_t *)"xxABCxaBc", 9, 0, NULL, &t[i]), 0);
		ac_cuda_flush(ac);     /* one payload per batch */
	}
	for (int i = 0; i < 8; i++) {
		got.n = 0;
		cpu += ac_cuda_wait(ac, &t[i]) != 0;
		ac_cuda_matches(ac, &t[i], seq_cb, &got);
		same += seq_equal(&ref, &got);
		ac_cuda_release(ac, &t[i]);
	}
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

/* The RX thread blocking (pool dry) does not cut the open batch by
 * itself: the workers may still be busy with earlier batches. A worker
 * that then waits for the open batch cuts it (cut.pool_dry), whichever
 * side comes first. */
struct open_waiter {
	AcCuda *ac;
	AcCudaTicket t;
	int rc;
};

static void *open_waiter_main(void *arg)
{
	struct open_waiter *w = arg;

	w->rc = ac_cuda_wait(w->ac, &w->t);
	return NULL;
}

TEST(accuda_blocked_reader_leaves_the_batch_to_its_waiters)
{
	MpmCtx *ctx;
	const AcAutomaton *a;
	CudaMpmConfig c;
	AcCudaTicket t;
	AcCudaStats st;
	struct open_waiter w = { 0 };
	pthread_t th;
	char err[256];

	CHECK_EQ(one_ctx(&ctx, &a), 0);
	small_cfg(&c, 1 << 20, 1 << 18, 2);
	c.batching_timeout_us = 10000000; /* 10 s: never the deadline here */
	AcCuda *ac = ac_cuda_new(&c, NULL, accuda_emu_ops(), &a, 1, err, sizeof(err));
	CHECK(ac != NULL);
	uint64_t t0 = mono_us();
	/* reader blocks first, the worker comes later */
	CHECK_EQ(ac_cuda_submit(ac, (const uint8_t *)"abc", 3, 0, NULL, &t), 0);
	ac_cuda_rx_blocking(ac, 1);
	struct timespec ms20 = { 0, 20000000 };
	nanosleep(&ms20, NULL);
	ac_cuda_stats(ac, &st);
	CHECK_EQ(st.batches, 0);
	CHECK_EQ(ac_cuda_wait(ac, &t), 0);
	ac_cuda_release(ac, &t);
	ac_cuda_rx_resumed(ac);
	/* the worker waits first, then the reader blocks */
	CHECK_EQ(ac_cuda_submit(ac, (const uint8_t *)"abc", 3, 0, NULL, &w.t), 0);
	w.ac = ac;
	CHECK_EQ(pthread_create(&th, NULL, open_waiter_main, &w), 0);
	nanosleep(&ms20, NULL);
	ac_cuda_rx_blocking(ac, 1);
	pthread_join(th, NULL);
	ac_cuda_release(ac, &w.t);
	ac_cuda_stats(ac, &st);
	ac_cuda_free(ac);
	mpm_free(ctx);
	CHECK(mono_us() - t0 < 2000000);
	CHECK_EQ(w.rc, 0);
	CHECK_EQ(st.batches, 2);
	CHECK_EQ(st.cut_pool_dry, 2);
	CHECK_EQ(st.cut_timeout, 0);
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
	uint64_t t0 = mono_us();
	CHECK_EQ(ac_cuda_submit(ac, (const uint8_t *)"abc", 3, 0, NULL, &t), 0);
	ac_cuda_flush(ac);
	CHECK_EQ(ac_cuda_wait(ac, &t), 0);
	CHECK(mono_us() - t0 < 2000000);
	ac_cuda_release(ac, &t);
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
	CHECK_EQ(ac_cuda_submit(ac, buf, 9, 0, NULL, &t), AC_CUDA_CPU_BELOW_MIN);
	CHECK_EQ(ac_cuda_submit(ac, buf, 101, 0, NULL, &t), AC_CUDA_CPU_ABOVE_MAX);
	CHECK_EQ(ac_cuda_submit(ac, buf, 10, 1, NULL, &t), AC_CUDA_CPU_BAD_GROUP);
	CHECK_EQ(ac_cuda_submit(ac, buf, 10, 0, NULL, &t), AC_CUDA_QUEUED);
	ac_cuda_flush(ac);
	ac_cuda_wait(ac, &t);
	ac_cuda_release(ac, &t);
	CHECK_EQ(ac_cuda_submit(ac, buf, 100, 0, NULL, &t), AC_CUDA_QUEUED);
	ac_cuda_flush(ac);
	ac_cuda_wait(ac, &t);
	ac_cuda_release(ac, &t);
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
	/* nobody releases: 1000-byte payloads fill the 4 KiB ring */
	while (n < 64 && (rc = ac_cuda_submit(ac, buf, 1000, 0, NULL, &t[n])) == 0)
		n++;
	CHECK_EQ(rc, AC_CUDA_CPU_RING_FULL);
	CHECK(n >= 3 && n <= 4);
	for (int i = 0; i < n; i++) {
		ac_cuda_wait(ac, &t[i]);
		ac_cuda_release(ac, &t[i]);
	}
	/* space is back: the ring wraps */
	CHECK_EQ(ac_cuda_submit(ac, buf, 1000, 0, NULL, &t[0]), 0);
	ac_cuda_flush(ac);
	ac_cuda_wait(ac, &t[0]);
	struct seq got = { .n = 0 };
	ac_cuda_matches(ac, &t[0], seq_cb, &got);
	ac_cuda_release(ac, &t[0]);
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
	/* 64 MiB / 2 streams / (1 + 8/64 + 12/8) per byte: about 12 MiB */
	const char *v = strstr(err, "fits is ") + 8;
	long kb = strtol(v, NULL, 10) * (strstr(v, "mb") ? 1024 : 1);
	CHECK(kb > 11000 && kb < 13000);
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

/* Every packet's prefilter match set with the ticket equals the CPU one
 * (same group, same ids), in both directions and for tcp and udp; returns
 * the number of packets that differed, -1 on a setup failure. */
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
	DetectThread *dg = NULL, *dc2 = NULL;
	ThreadCounters *tc;
	DetectGpu *g = NULL;
	char err[512] = "";
	int emu = 0, bad = -1;
	uint32_t seed = 7;

	detect_register_counters();
	tc = thread_counters_new();
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
	dg = detect_thread_new(de, tc);
	dc2 = detect_thread_new(de, tc);
	if (!g || !dg || !dc2 || detect_engine_gpu(de) != g)
		goto out;
	bad = 0;
	for (int i = 0; i < GPU_NPKT; i++) {
		Packet *p = &pk[i];
		uint16_t len = 1 + (uint16_t)((seed = seed * 1103515245u + 12345u) >> 16) % 150;

		for (uint16_t k = 0; k < len; k++)
			bufs[i][k] = (uint8_t)alpha[((seed = seed * 1103515245u + 12345u) >> 16) %
						     (sizeof(alpha) - 1)];
		memset(p, 0, sizeof(*p));
		p->ip_version = 4;
		p->proto = (i % 5 == 4) ? IPPROTO_UDP : IPPROTO_TCP;
		p->sp = (i & 1) ? 80 : 40000;
		p->dp = (i & 1) ? 40000 : 80;
		p->flags = (i & 1) ? PKT_TOCLIENT : PKT_TOSERVER;
		p->payload = bufs[i];
		p->payload_len = len;
		detect_gpu_submit(g, p, &gt[i]);
	}
	detect_gpu_flush(g);
	for (int i = 0; i < GPU_NPKT; i++) {
		const DetectAlert *a;
		uint32_t x[64], y[64], nx, ny;

		detect_gpu_begin(dg, &gt[i]);
		detect_packet(dg, &pk[i], &a);
		/* what detect_packet took from the ticket: the id array, or on a
		 * CPU rescan the match set */
		mpm_matchset_clear(dg->ms);
		if (gt[i].g) {
			int pc = pk[i].proto == IPPROTO_UDP ? PC_UDP : PC_TCP;
			int dir = (pk[i].flags & PKT_TOCLIENT) ? 1 : 0;
			uint32_t n, lo, hi;
			const uint32_t *ids = detect_gpu_packet_ids(&gt[i], pc, dir, &n, &lo, &hi);

			if (ids) {
				for (uint32_t k = 0; k < n; k++)
					if (ids[k] >= lo && ids[k] < hi)
						mpm_matchset_add(dg->ms, ids[k] - lo);
			} else {
				detect_gpu_prefilter(&gt[i], pc, dir, dg->ms);
			}
		} else {
			detect_packet(dc2, &pk[i], &a);
			mpm_matchset_clear(dg->ms);
			for (uint32_t k = 0; k < mpm_matchset_count(dc2->ms); k++)
				mpm_matchset_add(dg->ms, mpm_matchset_ids(dc2->ms)[k]);
		}
		nx = matchset_sorted(dg, x, 64);
		detect_gpu_end(dg, &gt[i]);
		detect_packet(dc2, &pk[i], &a);
		ny = matchset_sorted(dc2, y, 64);
		if (nx != ny || memcmp(x, y, nx * sizeof(*x)))
			bad++;
	}
	detect_gpu_stats(g, st);
out:
	if (bad < 0)
		fprintf(stderr, "gpu prefilter setup: %s\n", err);
	detect_thread_free(dg);
	detect_thread_free(dc2);
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
	CHECK(st.cut_size > 0);
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
