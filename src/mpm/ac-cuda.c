/* ac-cuda host side: batches, dispatcher, completion, results.
 * See ac-cuda.h for the threads and the API; ac-cuda-ring.h for the ring.
 *
 * A batch lives in a slot (slots[seq % nslots]) from the RX thread's first
 * payload until its last ticket is released:
 *   OPEN       the RX thread appends; its 64-bit word packs CLOSED, bytes
 *              and payload count, so the dispatcher can close it at the
 *              deadline with one CAS while the RX thread appends with
 *              another: no lock per packet.
 *   CLOSED     by the RX thread (size) or the dispatcher (deadline, flush);
 *   submitted  copy-in, kernel, copy-out on one of the streams;
 *   done       records grouped by payload; waiters woken once;
 *   free       refs (one per payload + one for the pipeline) reached 0 and
 *              the RX thread reclaimed the slot and its ring bytes, in order.
 */
#include "config.h"
#include "mpm/ac-cuda.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpm/ac-cuda-ring.h"
#include "util/log.h"

#define W_CLOSED (1ull << 63)
#define W_NPAY(w) ((uint32_t)((w) & W_NPAY_MAX))
#define W_BYTES(w) ((uint32_t)(((w) >> 32) & 0x1fffffffull))
#define W_CUT(w) ((int)(((w) >> 29) & 7))   /* who closed it: enum cut_reason */
#define W_BYTES_MAX 0x1fffffffull
#define W_NPAY_MAX 0x1fffffffull
#define W_MAKE(npay, bytes) ((uint64_t)(npay) | ((uint64_t)(bytes) << 32))

enum slot_state { SLOT_FREE = 0, SLOT_OPEN, SLOT_DONE };
enum slot_result { RES_DEVICE = 0, RES_CPU_OVERFLOW, RES_CPU_ERROR };
enum cut_reason { CUT_SIZE = 0, CUT_TIMEOUT, CUT_FLUSH, CUT_PAYLOADS, CUT_POOL, CUT_POOL_DRY };

struct slot {
	uint64_t seq;
	uint64_t data_start;     /* ring offset of the batch's first byte */
	uint64_t word;           /* atomic: W_CLOSED | bytes | npay */
	uint64_t t_open_ns;      /* oldest payload's arrival */
	uint32_t npkt;           /* RX only: submits in it (a submit may be 2 views) */
	int state;               /* RX-owned except SLOT_DONE (completion) */
	int done;                /* atomic, set once under mu */
	int result;
	uint32_t refs;           /* atomic */
	struct acc_desc *desc;   /* host_alloc: read by the copy-in */
	void **pkt;
	uint32_t *ids;           /* pattern ids by payload, each once */
	uint32_t *pidx;          /* payload i: rec[pidx[i], pidx[i + 1]) */
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

struct inflight {
	struct slot *sl;
	int stream;
	uint64_t t_submit_ns;
};

struct AcCuda {
	CudaMpmConfig cfg;
	AcCudaOpts opts;
	const AcDeviceOps *ops;
	AcDev *dev;
	const AcAutomaton *const *autos;
	uint32_t nautos;
	uint32_t *seen;          /* completer: per pattern index, see group_records */
	uint32_t nseen, seen_stamp;
	AcDevStream **streams;
	int nstreams;
	uint8_t *ring_mem;
	AcRing ring;
	struct slot *slots;
	uint32_t nslots;
	uint64_t batch_bytes;    /* min(gpu-transfer-size, ring size) */

	/* RX thread only */
	uint64_t rx_seq;         /* the open batch, or the next to open */
	int rx_open;
	uint64_t rx_oldest;      /* oldest slot not yet reclaimed */
	uint32_t pool_cut;       /* payloads per batch at most (0: no pool cut) */

	/* shared, under mu */
	pthread_mutex_t mu;
	pthread_cond_t disp_cv;  /* a batch opened/closed, a stream freed, stop */
	pthread_cond_t comp_cv;  /* a batch submitted, stop */
	uint64_t opened;         /* atomic: batches opened so far */
	struct inflight *fifo;   /* nstreams entries */
	int fifo_head, fifo_n;
	uint64_t nsubmitted;
	int stop, disp_done;
	pthread_t disp, comp;
	int threads;

	/* the RX thread blocked vs. workers waiting for the open batch: each
	 * side publishes itself, then looks at the other (seq_cst), so at
	 * least one of them sees both and cuts */
	int rx_blocked;          /* atomic: 0, or 1 + enum cut_reason */
	uint32_t open_waiters;   /* atomic: workers waiting for an open batch */

	AcCudaStats st;          /* atomics */
	uint32_t errors_logged;  /* atomic: device failures logged one by one */
};

/* Device failures are logged one by one up to here, then only counted (a
 * dead GPU fails every batch); ac_cuda_free sums them up in one line. */
#define ERRORS_LOGGED_MAX 5

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void stat_add(uint64_t *c, uint64_t n)
{
	__atomic_fetch_add(c, n, __ATOMIC_RELAXED);
}

/* RX-only counters: single writer, plain add, race-free for readers */
static void stat_rx_inc(uint64_t *c)
{
	__atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
}

static void stat_max(uint64_t *c, uint64_t v)
{
	uint64_t old = __atomic_load_n(c, __ATOMIC_RELAXED);

	while (v > old &&
	       !__atomic_compare_exchange_n(c, &old, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static unsigned hist_bucket(uint64_t v)
{
	unsigned e;

	if (v < 8)
		return (unsigned)v;
	e = 63 - (unsigned)__builtin_clzll(v);
	v = (e - 2) * 8 + ((v >> (e - 3)) & 7);
	return v < AC_CUDA_HIST_BUCKETS ? (unsigned)v : AC_CUDA_HIST_BUCKETS - 1;
}

static uint64_t hist_lower(unsigned b)
{
	if (b < 8)
		return b;
	return (8ull + b % 8) << (b / 8 + 2 - 3);
}

uint64_t ac_cuda_hist_quantile(const uint64_t *hist, double q)
{
	uint64_t n = 0, acc = 0, want;

	for (unsigned b = 0; b < AC_CUDA_HIST_BUCKETS; b++)
		n += hist[b];
	if (n == 0)
		return 0;
	want = (uint64_t)(q * (double)n);
	if (want >= n)
		want = n - 1;
	for (unsigned b = 0; b < AC_CUDA_HIST_BUCKETS; b++) {
		acc += hist[b];
		if (acc > want)
			return hist_lower(b);
	}
	return 0;
}

/* Logs a device failure while few have been. */
static void log_batch_error(AcCuda *ac, uint64_t seq, const char *err)
{
	uint32_t n = __atomic_fetch_add(&ac->errors_logged, 1, __ATOMIC_RELAXED);

	if (n < ERRORS_LOGGED_MAX)
		log_error("ac-cuda: batch %llu: %s; its payloads are rescanned on the CPU%s",
			  (unsigned long long)seq, err,
			  n + 1 == ERRORS_LOGGED_MAX ? " (further failures are only counted)" : "");
}

const char *ac_cuda_kernel_name(int kernel)
{
	switch (kernel) {
	case ACC_KERNEL_CHUNK: return "chunk";
	case ACC_KERNEL_FILTER: return "filter";
	default: return "payload";
	}
}

void ac_cuda_opts_defaults(AcCudaOpts *o, const CudaMpmConfig *cfg)
{
	uint64_t t = cfg->gpu_transfer_size;
	uint64_t pay = t / 64, rec = t / 8;

	memset(o, 0, sizeof(*o));
	/* the filter kernel (qa/gpu/RESULTS.md: its cost model) reports each
	 * (payload, pattern) about once, which the workers' set contract
	 * allows; chunk and payload remain for comparison and as references */
	o->kernel = ACC_KERNEL_FILTER;
	o->chunk = 64;
	/* 64 B per payload on average before the descriptor table cuts */
	o->batch_payloads = pay < 64 ? 64 : pay > (1u << 22) ? (1u << 22) : (uint32_t)pay;
	/* qa/gpu/RESULTS.md: ET fast patterns give ~330 matches/KB at 50 MB,
	 * i.e. one per 3 bytes; 1 per 8 keeps memory sane, overflow rescans */
	o->batch_records = rec < 1024 ? 1024 : rec > (1u << 28) ? (1u << 28) : (uint32_t)rec;
	/* batches stay alive until their last packet is inspected: enough
	 * slots that the ring, not the slot table, is what fills up */
	uint64_t slots = 2 * (cfg->cudabuffer_buffer_size / (t ? t : 1));

	if (slots < 4 * (uint64_t)cfg->cuda_streams + 4)
		slots = 4 * (uint64_t)cfg->cuda_streams + 4;
	o->batch_slots = slots > 64 ? 64 : (uint32_t)slots;
}

/* ---------- sizing ---------- */

static uint64_t stream_dev_bytes(uint64_t data, uint32_t npay, uint32_t nrec)
{
	return data + (uint64_t)npay * sizeof(struct acc_desc) +
	       (uint64_t)nrec * sizeof(struct acc_rec) + 256;
}

static void fmt_size(uint64_t b, char *buf, size_t len)
{
	if (b >= (1ull << 20) && b % (1ull << 20) == 0)
		snprintf(buf, len, "%llumb", (unsigned long long)(b >> 20));
	else
		snprintf(buf, len, "%llukb", (unsigned long long)(b >> 10));
}

/* Device memory check. With derived opts, the buffers scale with
 * gpu-transfer-size, so the error can say the largest value that fits. */
static int check_device_mem(AcCuda *ac, uint64_t automata, int derived,
			    char *err, size_t errlen)
{
	uint64_t avail = ac->ops->mem_free(ac->dev);
	int n = ac->nstreams;
	uint64_t need = automata + n * stream_dev_bytes(ac->batch_bytes,
		ac->opts.batch_payloads, ac->opts.batch_records);
	uint64_t lo = 0, hi = ac->cfg.gpu_transfer_size;
	char have[32], fit[32];

	if (need <= avail)
		return 0;
	while (derived && hi - lo > 1024) {
		uint64_t mid = lo + (hi - lo) / 2;
		CudaMpmConfig c = ac->cfg;
		AcCudaOpts o;

		c.gpu_transfer_size = mid;
		ac_cuda_opts_defaults(&o, &c);
		if (automata + n * stream_dev_bytes(mid, o.batch_payloads, o.batch_records) <= avail)
			lo = mid;
		else
			hi = mid;
	}
	fmt_size(ac->cfg.gpu_transfer_size, have, sizeof(have));
	fmt_size(lo & ~1023ull, fit, sizeof(fit));
	snprintf(err, errlen,
		 "cuda.mpm.gpu-transfer-size %s needs %llu MiB on CUDA device %d "
		 "(%d streams, automata, results) but only %llu MiB are free: "
		 "the largest gpu-transfer-size that fits is %s",
		 have, (unsigned long long)(need >> 20), ac->cfg.device_id, n,
		 (unsigned long long)(avail >> 20), derived && lo >= 1024 ? fit : "none");
	return -1;
}

static int check_device_id(const AcDeviceOps *ops, int id, char *err, size_t errlen)
{
	int n = ops->device_count(err, errlen);
	size_t off;

	if (n < 0)
		return -1;
	if (id >= 0 && id < n)
		return 0;
	off = snprintf(err, errlen, "cuda.mpm.device-id %d is out of range: %d device%s:",
		       id, n, n == 1 ? "" : "s");
	for (int i = 0; i < n && off < errlen; i++) {
		char d[300];

		ops->device_describe(i, d, sizeof(d));
		off += snprintf(err + off, errlen - off, "%s %s", i ? ";" : "", d);
	}
	return -1;
}

/* ---------- results ---------- */

/* Groups a batch's records by payload (a counting sort) and keeps one
 * record per (payload, pattern): detection wants the set of patterns a
 * buffer holds, and a kernel may report a pattern at every occurrence (ET
 * Open's zero runs and one-byte patterns: dozens per payload), which would
 * cost every worker a walk over the repeats. Completer thread only: seen[]
 * holds, per pattern index, the stamp of the last payload that had it. */
static void group_records(AcCuda *ac, struct slot *sl, uint32_t npay, const struct acc_rec *in,
			  uint32_t n)
{
	uint32_t *idx = sl->pidx, w = 0;

	memset(idx, 0, (size_t)(npay + 1) * sizeof(*idx));
	for (uint32_t i = 0; i < n; i++)
		idx[in[i].payload + 1]++;
	for (uint32_t p = 0; p < npay; p++)
		idx[p + 1] += idx[p];
	/* scatter pattern indexes with idx[p] as the cursor, then shift back */
	for (uint32_t i = 0; i < n; i++)
		sl->ids[idx[in[i].payload]++] = in[i].pat;
	for (uint32_t p = npay; p > 0; p--)
		idx[p] = idx[p - 1];
	idx[0] = 0;
	/* compact in place: the write cursor never passes the read one */
	for (uint32_t p = 0; p < npay; p++) {
		uint32_t lo = idx[p], hi = idx[p + 1];
		const struct ac_pattern *pat_of = ac->autos[sl->desc[p].group]->v.pat;

		if (++ac->seen_stamp == 0) {
			memset(ac->seen, 0, (size_t)ac->nseen * sizeof(*ac->seen));
			ac->seen_stamp = 1;
		}
		idx[p] = w;
		for (uint32_t i = lo; i < hi; i++) {
			uint32_t pat = sl->ids[i];

			if (pat >= ac->nseen || ac->seen[pat] == ac->seen_stamp)
				continue;
			ac->seen[pat] = ac->seen_stamp;
			/* the caller's id: workers read a plain array */
			sl->ids[w++] = pat_of[pat].id;
		}
	}
	idx[npay] = w;
}

/* ---------- dispatcher ---------- */

static void close_word(struct slot *sl, int reason)
{
	uint64_t w = __atomic_load_n(&sl->word, __ATOMIC_ACQUIRE);

	while (!(w & W_CLOSED)) {
		if (__atomic_compare_exchange_n(&sl->word, &w,
						w | W_CLOSED | ((uint64_t)reason << 29), 0,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			return;
	}
}

static void cut_stat(AcCuda *ac, int cut)
{
	uint64_t *c;

	switch (cut) {
	case CUT_SIZE: c = &ac->st.cut_size; break;
	case CUT_TIMEOUT: c = &ac->st.cut_timeout; break;
	case CUT_PAYLOADS: c = &ac->st.cut_payloads; break;
	case CUT_POOL: c = &ac->st.cut_pool; break;
	case CUT_POOL_DRY: c = &ac->st.cut_pool_dry; break;
	default: c = &ac->st.cut_flush; break;
	}
	stat_add(c, 1);
}

/* Called with mu held; drops it around the device call. */
static void submit_batch(AcCuda *ac, struct slot *sl)
{
	uint64_t w = __atomic_load_n(&sl->word, __ATOMIC_ACQUIRE);
	int si;
	char err[256];

	while (ac->fifo_n == ac->nstreams)
		pthread_cond_wait(&ac->disp_cv, &ac->mu);
	si = (int)(ac->nsubmitted++ % ac->nstreams);
	pthread_mutex_unlock(&ac->mu);

	struct inflight f = { .sl = sl, .stream = si, .t_submit_ns = now_ns() };

	cut_stat(ac, W_CUT(w));
	stat_add(&ac->st.wait_ns, f.t_submit_ns - sl->t_open_ns);
	if (ac->ops->submit(ac->streams[si], ac->ring_mem + sl->data_start, W_BYTES(w),
			    sl->desc, W_NPAY(w), err, sizeof(err)) != 0) {
		log_batch_error(ac, sl->seq, err);
		f.stream = -1;
	}
	pthread_mutex_lock(&ac->mu);
	ac->fifo[(ac->fifo_head + ac->fifo_n) % ac->nstreams] = f;
	ac->fifo_n++;
	pthread_cond_signal(&ac->comp_cv);
}

/* The dispatcher's deadlines come from now_ns() (CLOCK_MONOTONIC), so its
 * condition variable must time out on that clock: with the default
 * (CLOCK_REALTIME) a monotonic deadline lies decades in the past, every
 * timed wait returns at once, and the dispatcher spins for the life of
 * every open batch. Monotonic also ignores wall-clock steps (NTP). */
static int init_disp_cv(pthread_cond_t *cv)
{
	pthread_condattr_t at;
	int rc;

	if (pthread_condattr_init(&at) != 0)
		return -1;
	rc = pthread_condattr_setclock(&at, CLOCK_MONOTONIC);
	if (rc == 0)
		rc = pthread_cond_init(cv, &at);
	pthread_condattr_destroy(&at);
	return rc == 0 ? 0 : -1;
}

static void *dispatcher(void *arg)
{
	AcCuda *ac = arg;
	uint64_t next = 0;

	pthread_mutex_lock(&ac->mu);
	for (;;) {
		if (next < __atomic_load_n(&ac->opened, __ATOMIC_ACQUIRE)) {
			struct slot *sl = &ac->slots[next % ac->nslots];
			uint64_t w = __atomic_load_n(&sl->word, __ATOMIC_ACQUIRE);

			if (!(w & W_CLOSED)) {
				uint64_t deadline = sl->t_open_ns +
					ac->cfg.batching_timeout_us * 1000ull;

				if (ac->stop) {
					close_word(sl, CUT_FLUSH);
				} else if (now_ns() >= deadline) {
					close_word(sl, CUT_TIMEOUT);
				} else {
					/* a deadline, not a sleep: a size cut or a
					 * flush wakes us earlier */
					struct timespec ts = {
						.tv_sec = deadline / 1000000000ull,
						.tv_nsec = deadline % 1000000000ull };
					pthread_cond_timedwait(&ac->disp_cv, &ac->mu, &ts);
					stat_add(&ac->st.disp_wakeups, 1);
				}
				continue;
			}
			submit_batch(ac, sl);
			next++;
			continue;
		}
		if (ac->stop)
			break;
		pthread_cond_wait(&ac->disp_cv, &ac->mu);
		stat_add(&ac->st.disp_wakeups, 1);
	}
	ac->disp_done = 1;
	pthread_cond_signal(&ac->comp_cv);
	pthread_mutex_unlock(&ac->mu);
	return NULL;
}

/* ---------- completion ---------- */

static void finish_batch(AcCuda *ac, const struct inflight *f)
{
	struct slot *sl = f->sl;
	uint64_t w = __atomic_load_n(&sl->word, __ATOMIC_ACQUIRE);
	uint32_t npay = W_NPAY(w), count = 0;
	const struct acc_rec *rec = NULL;
	AcDevTimes t = { 0 };
	char err[256];
	int rc = -1;

	if (f->stream >= 0) {
		rc = ac->ops->wait(ac->streams[f->stream], &rec, &count, &t, err, sizeof(err));
		if (rc != 0)
			log_batch_error(ac, sl->seq, err);
	}
	if (rc != 0) {
		sl->result = RES_CPU_ERROR;
		stat_add(&ac->st.error_batches, 1);
		if (rc == ACC_DEV_WATCHDOG)
			stat_add(&ac->st.watchdog, 1);
		stat_add(&ac->st.cpu_device_error, npay);
	} else if (count > ac->opts.batch_records) {
		/* records were lost: rescan so that no match is */
		sl->result = RES_CPU_OVERFLOW;
		stat_add(&ac->st.overflow_batches, 1);
		stat_add(&ac->st.cpu_overflow, npay);
	} else {
		sl->result = RES_DEVICE;
		stat_add(&ac->st.gpu_batches, 1);
		group_records(ac, sl, npay, rec, count);
	}
	/* the completer is the only writer of these */
	stat_add(&ac->st.hist_bytes[hist_bucket(W_BYTES(w))], 1);
	stat_add(&ac->st.hist_payloads[hist_bucket(npay)], 1);
	stat_max(&ac->st.batch_bytes_max, W_BYTES(w));
	stat_max(&ac->st.batch_payloads_max, npay);
	stat_add(&ac->st.batches, 1);
	stat_add(&ac->st.bytes, W_BYTES(w));
	stat_add(&ac->st.payloads, npay);
	stat_add(&ac->st.records, count);
	stat_add(&ac->st.h2d_ns, t.h2d_ns);
	stat_add(&ac->st.kernel_ns, t.kernel_ns);
	stat_add(&ac->st.d2h_ns, t.d2h_ns);

	pthread_mutex_lock(&sl->mu);
	__atomic_store_n(&sl->done, 1, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&sl->cv);
	pthread_mutex_unlock(&sl->mu);
	/* the pipeline's reference */
	__atomic_fetch_sub(&sl->refs, 1, __ATOMIC_ACQ_REL);
}

static void *completer(void *arg)
{
	AcCuda *ac = arg;

	pthread_mutex_lock(&ac->mu);
	for (;;) {
		if (ac->fifo_n == 0) {
			if (ac->disp_done)
				break;
			pthread_cond_wait(&ac->comp_cv, &ac->mu);
			continue;
		}
		struct inflight f = ac->fifo[ac->fifo_head];

		pthread_mutex_unlock(&ac->mu);
		finish_batch(ac, &f);
		pthread_mutex_lock(&ac->mu);
		ac->fifo_head = (ac->fifo_head + 1) % ac->nstreams;
		ac->fifo_n--;
		pthread_cond_signal(&ac->disp_cv);
	}
	pthread_mutex_unlock(&ac->mu);
	return NULL;
}

/* ---------- RX side ---------- */

static void wake_dispatcher(AcCuda *ac)
{
	pthread_mutex_lock(&ac->mu);
	pthread_cond_signal(&ac->disp_cv);
	pthread_mutex_unlock(&ac->mu);
}

/* The RX thread closes its open batch (size, wrap) and tells the dispatcher:
 * one lock per batch, not per packet. */
static void rx_cut(AcCuda *ac, int reason)
{
	if (!ac->rx_open)
		return;
	close_word(&ac->slots[ac->rx_seq % ac->nslots], reason);
	ac->rx_open = 0;
	ac->rx_seq++;
	wake_dispatcher(ac);
}

/* Gives back, in order, the slots and ring bytes whose batches are done
 * and fully released. */
static void rx_reclaim(AcCuda *ac)
{
	uint64_t live_end = ac->rx_seq + (ac->rx_open ? 1 : 0);

	while (ac->rx_oldest < ac->rx_seq) {
		struct slot *sl = &ac->slots[ac->rx_oldest % ac->nslots];

		if (!__atomic_load_n(&sl->done, __ATOMIC_ACQUIRE) ||
		    __atomic_load_n(&sl->refs, __ATOMIC_ACQUIRE) != 0)
			break;
		sl->state = SLOT_FREE;
		ac->rx_oldest++;
	}
	if (ac->rx_oldest == live_end)
		ac_ring_free_all(&ac->ring);
	else
		ac_ring_free_to(&ac->ring, ac->slots[ac->rx_oldest % ac->nslots].data_start);
}

static void rx_ring_peak(AcCuda *ac)
{
	uint64_t used = ac_ring_used(&ac->ring);

	if (used > ac->st.ring_peak_bytes)
		__atomic_store_n(&ac->st.ring_peak_bytes, used, __ATOMIC_RELAXED);
}

/* What one submit puts into the ring: a payload, and optionally a second
 * copy of it behind ctxlen bytes of context for another automaton. The
 * views do not share bytes: the kernels map each batch byte to exactly one
 * descriptor, in increasing offset order. */
struct rx_sub {
	const uint8_t *ctx, *buf;
	uint32_t ctxlen, len;
	uint16_t group, ctx_group;
	uint32_t nviews;          /* 1 or 2 */
	void *pkt;
};

static uint32_t rx_bytes(const struct rx_sub *u)
{
	return u->nviews == 2 ? 2 * u->len + u->ctxlen : u->len;
}

static void rx_fill(AcCuda *ac, struct slot *sl, uint32_t npay, uint32_t bytes,
		    const struct rx_sub *u)
{
	uint8_t *dst = ac->ring_mem + sl->data_start + bytes;

	memcpy(dst, u->buf, u->len);
	sl->desc[npay] = (struct acc_desc){ .off = bytes, .len = (uint16_t)u->len,
					    .group = u->group };
	sl->pkt[npay] = u->pkt;
	if (u->nviews == 2) {
		if (u->ctxlen)
			memcpy(dst + u->len, u->ctx, u->ctxlen);
		memcpy(dst + u->len + u->ctxlen, u->buf, u->len);
		sl->desc[npay + 1] = (struct acc_desc){ .off = bytes + u->len,
			.len = (uint16_t)(u->ctxlen + u->len), .group = u->ctx_group };
		sl->pkt[npay + 1] = u->pkt;
	}
}

static int rx_open(AcCuda *ac, const struct rx_sub *u, AcCudaTicket *out)
{
	uint32_t need = rx_bytes(u);
	enum ac_ring_fit fit;
	struct slot *sl;

	if (ac->rx_seq - ac->rx_oldest >= ac->nslots)
		return AC_CUDA_CPU_RING_FULL;
	fit = ac_ring_fit(&ac->ring, need);
	if (fit == AC_RING_FULL)
		return AC_CUDA_CPU_RING_FULL;
	if (fit == AC_RING_WRAP)
		stat_rx_inc(&ac->st.ring_wraps);
	sl = &ac->slots[ac->rx_seq % ac->nslots];
	sl->seq = ac->rx_seq;
	sl->data_start = ac_ring_take(&ac->ring, need, fit);
	rx_ring_peak(ac);
	rx_fill(ac, sl, 0, 0, u);
	sl->npkt = 1;
	sl->t_open_ns = now_ns();
	sl->state = SLOT_OPEN;
	sl->done = 0;
	sl->result = RES_DEVICE;
	__atomic_store_n(&sl->refs, 2, __ATOMIC_RELAXED);
	__atomic_store_n(&sl->word, W_MAKE(u->nviews, need), __ATOMIC_RELEASE);
	ac->rx_open = 1;
	*out = (AcCudaTicket){ .batch = ac->rx_seq, .index = 0, .views = u->nviews };
	/* publish: the dispatcher starts this batch's deadline */
	__atomic_store_n(&ac->opened, ac->rx_seq + 1, __ATOMIC_RELEASE);
	wake_dispatcher(ac);
	return AC_CUDA_QUEUED;
}

/* 1: appended; 0: the batch is closed or full, open a new one. */
static int rx_append(AcCuda *ac, const struct rx_sub *u, AcCudaTicket *out)
{
	struct slot *sl = &ac->slots[ac->rx_seq % ac->nslots];
	uint64_t w = __atomic_load_n(&sl->word, __ATOMIC_ACQUIRE);
	uint32_t npay = W_NPAY(w), bytes = W_BYTES(w), need = rx_bytes(u);

	if (w & W_CLOSED) {
		rx_cut(ac, CUT_TIMEOUT); /* already closed: just move on */
		return 0;
	}
	if (npay + u->nviews > ac->opts.batch_payloads) {
		rx_cut(ac, CUT_PAYLOADS);
		return 0;
	}
	if (bytes + (uint64_t)need > ac->batch_bytes) {
		rx_cut(ac, CUT_SIZE);
		return 0;
	}
	if (ac->pool_cut && sl->npkt >= ac->pool_cut) {
		rx_cut(ac, CUT_POOL);
		return 0;
	}
	if (ac_ring_fit(&ac->ring, need) != AC_RING_HERE) {
		rx_reclaim(ac);
		if (ac_ring_fit(&ac->ring, need) != AC_RING_HERE) {
			/* a batch is contiguous: wrap or wait for room in a new one */
			rx_cut(ac, CUT_SIZE);
			return 0;
		}
	}
	rx_fill(ac, sl, npay, bytes, u);
	__atomic_fetch_add(&sl->refs, 1, __ATOMIC_ACQ_REL);
	if (!__atomic_compare_exchange_n(&sl->word, &w, W_MAKE(npay + u->nviews, bytes + need), 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		/* the dispatcher cut it at its deadline a moment ago */
		__atomic_fetch_sub(&sl->refs, 1, __ATOMIC_ACQ_REL);
		rx_cut(ac, CUT_TIMEOUT);
		return 0;
	}
	ac_ring_take(&ac->ring, need, AC_RING_HERE);
	rx_ring_peak(ac);
	sl->npkt++;
	*out = (AcCudaTicket){ .batch = ac->rx_seq, .index = npay, .views = u->nviews };
	return 1;
}

static int rx_submit(AcCuda *ac, const struct rx_sub *u, AcCudaTicket *out)
{
	int rc;

	if (u->len == 0 || u->len < ac->cfg.data_buffer_size_min_limit) {
		stat_rx_inc(&ac->st.cpu_below_min);
		return AC_CUDA_CPU_BELOW_MIN;
	}
	if (u->len > ac->cfg.data_buffer_size_max_limit ||
	    rx_bytes(u) > ac->batch_bytes ||
	    u->len + u->ctxlen > CUDA_MPM_DATA_BUFFER_SIZE_MAX) {
		stat_rx_inc(&ac->st.cpu_above_max);
		return AC_CUDA_CPU_ABOVE_MAX;
	}
	if (u->group >= ac->nautos || (u->nviews == 2 && u->ctx_group >= ac->nautos))
		return AC_CUDA_CPU_BAD_GROUP;
	if (u->nviews > ac->opts.batch_payloads) {
		stat_rx_inc(&ac->st.cpu_above_max);
		return AC_CUDA_CPU_ABOVE_MAX;
	}
	if (ac->rx_open && rx_append(ac, u, out))
		return AC_CUDA_QUEUED;
	rx_reclaim(ac);
	rc = rx_open(ac, u, out);
	if (rc != AC_CUDA_QUEUED)
		stat_rx_inc(&ac->st.cpu_ring_full);
	return rc;
}

int ac_cuda_submit(AcCuda *ac, const uint8_t *buf, uint32_t len, uint16_t group,
		   void *pkt, AcCudaTicket *out)
{
	struct rx_sub u = { .buf = buf, .len = len, .group = group, .nviews = 1, .pkt = pkt };

	return rx_submit(ac, &u, out);
}

int ac_cuda_submit_ctx(AcCuda *ac, const uint8_t *ctx, uint32_t ctxlen, const uint8_t *buf,
		       uint32_t len, uint16_t group, uint16_t ctx_group, void *pkt,
		       AcCudaTicket *out)
{
	struct rx_sub u = { .ctx = ctx, .ctxlen = ctxlen, .buf = buf, .len = len,
			    .group = group, .ctx_group = ctx_group, .nviews = 2, .pkt = pkt };

	return rx_submit(ac, &u, out);
}

void ac_cuda_flush(AcCuda *ac)
{
	rx_cut(ac, CUT_FLUSH);
}

void ac_cuda_rx_blocking(AcCuda *ac, int pool_dry)
{
	int why = pool_dry ? CUT_POOL_DRY : CUT_FLUSH;

	__atomic_store_n(&ac->rx_blocked, 1 + why, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&ac->open_waiters, __ATOMIC_SEQ_CST))
		rx_cut(ac, why);
}

void ac_cuda_rx_resumed(AcCuda *ac)
{
	if (ac->rx_blocked)
		__atomic_store_n(&ac->rx_blocked, 0, __ATOMIC_SEQ_CST);
}

void ac_cuda_set_pool(AcCuda *ac, uint32_t packets)
{
	ac->pool_cut = packets ? packets / (uint32_t)(ac->nstreams + 2) : 0;
	if (packets && ac->pool_cut == 0)
		ac->pool_cut = 1;
	if (ac->pool_cut)
		log_info("ac-cuda: packet pool of %u: batches cut at %u payloads", packets,
			 ac->pool_cut);
}

/* ---------- workers ---------- */

static struct slot *ticket_slot(const AcCuda *ac, const AcCudaTicket *t)
{
	return &ac->slots[t->batch % ac->nslots];
}

int ac_cuda_wait(AcCuda *ac, const AcCudaTicket *t)
{
	struct slot *sl = ticket_slot(ac, t);

	if (!__atomic_load_n(&sl->done, __ATOMIC_ACQUIRE)) {
		int open = !(__atomic_load_n(&sl->word, __ATOMIC_ACQUIRE) & W_CLOSED);

		if (open) {
			/* see ac_cuda_rx_blocking: an RX thread that blocks will
			 * not cut this batch, so the waiter does */
			__atomic_fetch_add(&ac->open_waiters, 1, __ATOMIC_SEQ_CST);
			int why = __atomic_load_n(&ac->rx_blocked, __ATOMIC_SEQ_CST);

			if (why) {
				close_word(sl, why - 1);
				wake_dispatcher(ac);
			}
		}
		pthread_mutex_lock(&sl->mu);
		while (!__atomic_load_n(&sl->done, __ATOMIC_ACQUIRE))
			pthread_cond_wait(&sl->cv, &sl->mu);
		pthread_mutex_unlock(&sl->mu);
		if (open)
			__atomic_fetch_sub(&ac->open_waiters, 1, __ATOMIC_SEQ_CST);
	}
	return sl->result == RES_DEVICE ? 0 : 1;
}

const uint8_t *ac_cuda_payload(const AcCuda *ac, const AcCudaTicket *t, uint32_t *len)
{
	const struct slot *sl = ticket_slot(ac, t);
	const struct acc_desc *d = &sl->desc[t->index];

	*len = d->len;
	return ac->ring_mem + sl->data_start + d->off;
}

const uint8_t *ac_cuda_payload_ctx(const AcCuda *ac, const AcCudaTicket *t, uint32_t *len)
{
	const struct slot *sl = ticket_slot(ac, t);
	const struct acc_desc *d;

	if (t->views < 2) {
		*len = 0;
		return NULL;
	}
	d = &sl->desc[t->index + 1];
	*len = d->len;
	return ac->ring_mem + sl->data_start + d->off;
}

void *ac_cuda_packet(const AcCuda *ac, const AcCudaTicket *t)
{
	return ticket_slot(ac, t)->pkt[t->index];
}

static uint32_t view_matches(AcCuda *ac, const AcCudaTicket *t, uint32_t idx,
			     ac_match_fn cb, void *arg)
{
	const struct slot *sl = ticket_slot(ac, t);
	const struct acc_desc *d = &sl->desc[idx];
	const AcAutomaton *a = ac->autos[d->group];
	const uint8_t *buf = ac->ring_mem + sl->data_start + d->off;
	uint32_t n = 0;

	if (sl->result != RES_DEVICE)
		return ac_search(a, buf, d->len, cb, arg);
	for (uint32_t i = sl->pidx[idx]; i < sl->pidx[idx + 1]; i++) {
		n++;
		if (cb(arg, sl->ids[i], 0))
			break;
	}
	return n;
}

const uint32_t *ac_cuda_ids(const AcCuda *ac, const AcCudaTicket *t, int view, uint32_t *n)
{
	const struct slot *sl = ticket_slot(ac, t);
	uint32_t idx = t->index + (uint32_t)view;

	*n = 0;
	if (sl->result != RES_DEVICE || (uint32_t)view >= t->views)
		return NULL;
	*n = sl->pidx[idx + 1] - sl->pidx[idx];
	return sl->ids + sl->pidx[idx];
}

uint32_t ac_cuda_matches(AcCuda *ac, const AcCudaTicket *t, ac_match_fn cb, void *arg)
{
	return view_matches(ac, t, t->index, cb, arg);
}

uint32_t ac_cuda_matches_ctx(AcCuda *ac, const AcCudaTicket *t, ac_match_fn cb, void *arg)
{
	if (t->views < 2)
		return 0;
	return view_matches(ac, t, t->index + 1, cb, arg);
}

void ac_cuda_release(AcCuda *ac, const AcCudaTicket *t)
{
	__atomic_fetch_sub(&ticket_slot(ac, t)->refs, 1, __ATOMIC_ACQ_REL);
}

void ac_cuda_stats(const AcCuda *ac, AcCudaStats *out)
{
	const uint64_t *in = (const uint64_t *)&ac->st.batches;
	uint64_t *o = &out->batches;
	size_t n = (sizeof(*out) - offsetof(AcCudaStats, batches)) / sizeof(uint64_t);

	out->emulation = ac->st.emulation;
	for (size_t i = 0; i < n; i++)
		o[i] = __atomic_load_n(&in[i], __ATOMIC_RELAXED);
}

/* ---------- life cycle ---------- */

static int upload_automata(AcCuda *ac, uint64_t *total, char *err, size_t errlen)
{
	uint32_t n = ac->nautos;
	uint64_t *offs = calloc(n, sizeof(*offs));
	uint32_t *maxlen = calloc(n, sizeof(*maxlen));
	uint64_t size = 0;
	uint8_t *blk = NULL;
	int rc = -1;

	if (!offs || !maxlen)
		goto out;
	for (uint32_t g = 0; g < n; g++) {
		offs[g] = size;
		size += (ac->autos[g]->blk->size + 255) & ~255ull;
		maxlen[g] = ac->autos[g]->blk->maxlen;
	}
	blk = calloc(1, size ? size : 1);
	if (!blk)
		goto out;
	for (uint32_t g = 0; g < n; g++)
		memcpy(blk + offs[g], ac->autos[g]->blk, ac->autos[g]->blk->size);
	*total = size;
	rc = ac->ops->load(ac->dev, blk, size, offs, maxlen, n, err, errlen);
out:
	if (rc != 0 && !blk)
		snprintf(err, errlen, "ac-cuda: out of memory for the automata");
	free(blk);
	free(offs);
	free(maxlen);
	return rc;
}

static int alloc_slots(AcCuda *ac)
{
	ac->slots = calloc(ac->nslots, sizeof(*ac->slots));
	if (!ac->slots)
		return -1;
	for (uint32_t i = 0; i < ac->nslots; i++) {
		struct slot *sl = &ac->slots[i];

		pthread_mutex_init(&sl->mu, NULL);
		pthread_cond_init(&sl->cv, NULL);
		sl->done = 1;
		sl->desc = ac->ops->host_alloc(ac->dev,
			(size_t)ac->opts.batch_payloads * sizeof(*sl->desc));
		sl->pkt = calloc(ac->opts.batch_payloads, sizeof(*sl->pkt));
		sl->ids = malloc((size_t)ac->opts.batch_records * sizeof(*sl->ids) + 1);
		sl->pidx = calloc((size_t)ac->opts.batch_payloads + 1, sizeof(*sl->pidx));
		if (!sl->desc || !sl->pkt || !sl->ids || !sl->pidx)
			return -1;
	}
	return 0;
}

int ac_cuda_config_check(const CudaMpmConfig *c, char *err, size_t errlen)
{
	if (c->cuda_streams < 1 || c->cuda_streams > CUDA_MPM_CUDA_STREAMS_MAX) {
		snprintf(err, errlen, "cuda.mpm.cuda-streams %d: use 1..%d", c->cuda_streams,
			 CUDA_MPM_CUDA_STREAMS_MAX);
		return -1;
	}
	if (c->gpu_transfer_size < 1024 || c->gpu_transfer_size > W_BYTES_MAX) {
		snprintf(err, errlen, "cuda.mpm.gpu-transfer-size %llu: use 1kb..511mb",
			 (unsigned long long)c->gpu_transfer_size);
		return -1;
	}
	if (c->cudabuffer_buffer_size < c->gpu_transfer_size) {
		snprintf(err, errlen,
			 "cuda.mpm.cudabuffer-buffer-size (%llu) is smaller than gpu-transfer-size "
			 "(%llu): the ring must hold at least one batch",
			 (unsigned long long)c->cudabuffer_buffer_size,
			 (unsigned long long)c->gpu_transfer_size);
		return -1;
	}
	if (c->data_buffer_size_max_limit > CUDA_MPM_DATA_BUFFER_SIZE_MAX ||
	    c->data_buffer_size_min_limit > c->data_buffer_size_max_limit) {
		snprintf(err, errlen,
			 "cuda.mpm.data-buffer-size-min-limit %llu / max-limit %llu: need "
			 "min <= max <= %d",
			 (unsigned long long)c->data_buffer_size_min_limit,
			 (unsigned long long)c->data_buffer_size_max_limit,
			 CUDA_MPM_DATA_BUFFER_SIZE_MAX);
		return -1;
	}
	return 0;
}

AcCuda *ac_cuda_new(const CudaMpmConfig *cfg, const AcCudaOpts *opts,
		    const AcDeviceOps *ops, const AcAutomaton *const *autos,
		    uint32_t nautos, char *err, size_t errlen)
{
	AcCuda *ac;
	uint64_t automata = 0;
	char e2[512];

	if (!ops) {
		snprintf(err, errlen, "ac-cuda: no device implementation");
		return NULL;
	}
	/* start-up checked it already (ac_cuda_config_check); callers that
	 * build a config themselves (tests, tools) are checked here */
	if (ac_cuda_config_check(cfg, err, errlen) != 0)
		return NULL;
	if (nautos == 0 || nautos > 65536) {
		snprintf(err, errlen, "ac-cuda: %u automata (need 1..65536)", nautos);
		return NULL;
	}
	for (uint32_t g = 0; g < nautos; g++) {
		/* the kernels walk ac's optional GPU match lists (ac.h) */
		if (!autos[g] || !autos[g]->v.outoff || !autos[g]->v.out || !autos[g]->v.pat) {
			snprintf(err, errlen, "ac-cuda: automaton %u was built without ac's GPU "
				 "match lists (mpm_set_ac_gpu_lists(1) before mpm_prepare)", g);
			return NULL;
		}
	}
	if (check_device_id(ops, cfg->device_id, err, errlen) != 0)
		return NULL;
	ac = calloc(1, sizeof(*ac));
	if (!ac) {
		snprintf(err, errlen, "ac-cuda: out of memory");
		return NULL;
	}
	ac->cfg = *cfg;
	if (opts)
		ac->opts = *opts;
	else
		ac_cuda_opts_defaults(&ac->opts, cfg);
	if (ac->opts.chunk == 0)
		ac->opts.chunk = 64;
	if (ac->opts.batch_slots < 2)
		ac->opts.batch_slots = 2;
	if (ac->opts.batch_payloads > W_NPAY_MAX)
		ac->opts.batch_payloads = (uint32_t)W_NPAY_MAX;
	ac->ops = ops;
	ac->autos = autos;
	ac->nautos = nautos;
	for (uint32_t g = 0; g < nautos; g++)
		if (autos[g]->blk->npatterns > ac->nseen)
			ac->nseen = autos[g]->blk->npatterns;
	ac->seen = calloc(ac->nseen ? ac->nseen : 1, sizeof(*ac->seen));
	if (!ac->seen) {
		free(ac);
		snprintf(err, errlen, "ac-cuda: out of memory");
		return NULL;
	}
	ac->nstreams = cfg->cuda_streams;
	ac->nslots = ac->opts.batch_slots;
	ac->batch_bytes = cfg->gpu_transfer_size;
	ac->st.emulation = ops->emulation;
	pthread_mutex_init(&ac->mu, NULL);
	if (init_disp_cv(&ac->disp_cv) != 0) {
		snprintf(err, errlen, "ac-cuda: cannot create the dispatcher's condition variable");
		pthread_mutex_destroy(&ac->mu);
		free(ac->seen);
		free(ac);
		return NULL;
	}
	pthread_cond_init(&ac->comp_cv, NULL);

	ac->dev = ops->open(cfg->device_id, err, errlen);
	if (!ac->dev)
		goto fail;
	if (upload_automata(ac, &automata, err, errlen) != 0)
		goto fail;
	if (check_device_mem(ac, automata, opts == NULL, err, errlen) != 0)
		goto fail;
	ac->streams = calloc(ac->nstreams, sizeof(*ac->streams));
	ac->fifo = calloc(ac->nstreams, sizeof(*ac->fifo));
	if (!ac->streams || !ac->fifo)
		goto oom;
	AcDevStreamSize sz = { .data_bytes = ac->batch_bytes,
			       .max_payloads = ac->opts.batch_payloads,
			       .max_records = ac->opts.batch_records };
	for (int i = 0; i < ac->nstreams; i++) {
		ac->streams[i] = ops->stream_new(ac->dev, &sz, ac->opts.kernel, ac->opts.chunk,
						 e2, sizeof(e2));
		if (!ac->streams[i]) {
			snprintf(err, errlen, "ac-cuda: stream %d: %s", i, e2);
			goto fail;
		}
	}
	ac->ring_mem = ops->host_alloc(ac->dev, cfg->cudabuffer_buffer_size);
	if (!ac->ring_mem) {
		snprintf(err, errlen,
			 "ac-cuda: cannot allocate %llu bytes of page-locked memory for "
			 "cuda.mpm.cudabuffer-buffer-size: lower it or raise the memlock limit",
			 (unsigned long long)cfg->cudabuffer_buffer_size);
		goto fail;
	}
	ac_ring_init(&ac->ring, ac->ring_mem, cfg->cudabuffer_buffer_size);
	if (alloc_slots(ac) != 0)
		goto oom;
	if (pthread_create(&ac->disp, NULL, dispatcher, ac) != 0)
		goto oom;
	if (pthread_create(&ac->comp, NULL, completer, ac) != 0) {
		pthread_mutex_lock(&ac->mu);
		ac->stop = 1;
		pthread_cond_signal(&ac->disp_cv);
		pthread_mutex_unlock(&ac->mu);
		pthread_join(ac->disp, NULL);
		goto oom;
	}
	ac->threads = 1;
	log_info("ac-cuda: device %d via %s, %s kernel, %d streams, %u automata",
		 cfg->device_id, ops->name, ac_cuda_kernel_name(ac->opts.kernel),
		 ac->nstreams, nautos);
	return ac;
oom:
	snprintf(err, errlen, "ac-cuda: out of memory");
fail:
	ac_cuda_free(ac);
	return NULL;
}

/* At shutdown: the batch sizes and cuts (info), and one warning when any
 * batch fell back to the CPU: the alerts are right all the same, so this
 * line and the counters are what shows a failing device. */
static void log_summary(AcCuda *ac)
{
	const AcCudaStats *s = &ac->st;
	uint64_t bad = s->error_batches + s->overflow_batches;

	if (s->batches)
		log_info("ac-cuda: %llu batches: payloads p50 %llu p90 %llu max %llu; bytes p50 "
			 "%llu p90 %llu max %llu; cuts: size %llu payloads %llu pool %llu timeout "
			 "%llu flush %llu pool_dry %llu; ring peak %llu bytes",
			 (unsigned long long)s->batches,
			 (unsigned long long)ac_cuda_hist_quantile(s->hist_payloads, 0.5),
			 (unsigned long long)ac_cuda_hist_quantile(s->hist_payloads, 0.9),
			 (unsigned long long)s->batch_payloads_max,
			 (unsigned long long)ac_cuda_hist_quantile(s->hist_bytes, 0.5),
			 (unsigned long long)ac_cuda_hist_quantile(s->hist_bytes, 0.9),
			 (unsigned long long)s->batch_bytes_max,
			 (unsigned long long)s->cut_size, (unsigned long long)s->cut_payloads,
			 (unsigned long long)s->cut_pool, (unsigned long long)s->cut_timeout,
			 (unsigned long long)s->cut_flush, (unsigned long long)s->cut_pool_dry,
			 (unsigned long long)s->ring_peak_bytes);
	if (bad)
		log_warning("ac-cuda: %llu of %llu batches failed on the device (%llu errors, "
			    "%llu overflows) and were rescanned on the CPU",
			    (unsigned long long)bad, (unsigned long long)s->batches,
			    (unsigned long long)s->error_batches,
			    (unsigned long long)s->overflow_batches);
}

void ac_cuda_free(AcCuda *ac)
{
	if (!ac)
		return;
	if (ac->threads) {
		rx_cut(ac, CUT_FLUSH);
		pthread_mutex_lock(&ac->mu);
		ac->stop = 1;
		pthread_cond_signal(&ac->disp_cv);
		pthread_mutex_unlock(&ac->mu);
		pthread_join(ac->disp, NULL);
		pthread_join(ac->comp, NULL);
		log_summary(ac);
	}
	for (uint32_t i = 0; ac->slots && i < ac->nslots; i++) {
		struct slot *sl = &ac->slots[i];

		if (sl->desc)
			ac->ops->host_free(ac->dev, sl->desc);
		free(sl->pkt);
		free(sl->ids);
		free(sl->pidx);
		pthread_mutex_destroy(&sl->mu);
		pthread_cond_destroy(&sl->cv);
	}
	free(ac->slots);
	if (ac->ring_mem)
		ac->ops->host_free(ac->dev, ac->ring_mem);
	for (int i = 0; ac->streams && i < ac->nstreams; i++)
		if (ac->streams[i])
			ac->ops->stream_free(ac->streams[i]);
	free(ac->streams);
	free(ac->fifo);
	free(ac->seen);
	if (ac->dev)
		ac->ops->close(ac->dev);
	pthread_mutex_destroy(&ac->mu);
	pthread_cond_destroy(&ac->disp_cv);
	pthread_cond_destroy(&ac->comp_cv);
	free(ac);
}

/* ---------- a worker's own stream: buffers the pipeline cannot batch ---------- */

#define SYNC_PIECE 65535u        /* a descriptor's length is 16 bits */

struct AcCudaSync {
	AcCuda *ac;
	AcDevStream *st;
	uint8_t *data;           /* host_alloc: the copy-in reads it */
	struct acc_desc *desc;
	uint32_t cap, maxdesc, overlap;
	uint32_t *seen, stamp;   /* per pattern index, as the completer's */
};

AcCudaSync *ac_cuda_sync_new(AcCuda *ac, uint32_t max_bytes, char *err, size_t errlen)
{
	AcCudaSync *s = calloc(1, sizeof(*s));
	uint32_t maxlen = 1;

	if (!s) {
		snprintf(err, errlen, "ac-cuda: out of memory");
		return NULL;
	}
	for (uint32_t g = 0; g < ac->nautos; g++)
		if (ac->autos[g]->blk->maxlen > maxlen)
			maxlen = ac->autos[g]->blk->maxlen;
	s->ac = ac;
	s->overlap = maxlen - 1;
	s->cap = max_bytes;
	/* pieces of SYNC_PIECE bytes overlapping by the longest pattern - 1 */
	s->maxdesc = max_bytes / (SYNC_PIECE - s->overlap) + 2;
	s->data = ac->ops->host_alloc(ac->dev, (size_t)max_bytes + (size_t)s->maxdesc * s->overlap);
	s->desc = ac->ops->host_alloc(ac->dev, (size_t)s->maxdesc * sizeof(*s->desc));
	s->seen = calloc(ac->nseen ? ac->nseen : 1, sizeof(*s->seen));
	if (s->data && s->desc && s->seen) {
		AcDevStreamSize sz = { .data_bytes = (uint64_t)max_bytes + (uint64_t)s->maxdesc * s->overlap,
				       .max_payloads = s->maxdesc,
				       /* the filter kernel reports ~1 record per 20 B */
				       .max_records = max_bytes / 4 + 1024 };

		s->st = ac->ops->stream_new(ac->dev, &sz, ac->opts.kernel, ac->opts.chunk, err, errlen);
	} else {
		snprintf(err, errlen, "ac-cuda: out of memory for a worker stream");
	}
	if (!s->st) {
		ac_cuda_sync_free(s);
		return NULL;
	}
	return s;
}

void ac_cuda_sync_free(AcCudaSync *s)
{
	if (!s)
		return;
	if (s->st)
		s->ac->ops->stream_free(s->st);
	if (s->data)
		s->ac->ops->host_free(s->ac->dev, s->data);
	if (s->desc)
		s->ac->ops->host_free(s->ac->dev, s->desc);
	free(s->seen);
	free(s);
}

int ac_cuda_sync_scan(AcCudaSync *s, const uint8_t *buf, uint32_t len, uint16_t group,
		      ac_match_fn cb, void *arg)
{
	AcCuda *ac = s->ac;
	const struct ac_pattern *pat_of;
	const struct acc_rec *rec;
	uint32_t nd = 0, nb = 0, count = 0;
	AcDevTimes t = { 0 };
	char err[256];

	if (!len || len > s->cap || group >= ac->nautos)
		return -1;
	/* pieces that overlap by maxlen - 1: every match lies in one */
	for (uint32_t at = 0; at < len; ) {
		uint32_t n = len - at > SYNC_PIECE ? SYNC_PIECE : len - at;

		memcpy(s->data + nb, buf + at, n);
		s->desc[nd++] = (struct acc_desc){ .off = nb, .len = (uint16_t)n, .group = group };
		nb += n;
		if (at + n == len)
			break;
		at += n - s->overlap;
	}
	if (ac->ops->submit(s->st, s->data, nb, s->desc, nd, err, sizeof(err)) != 0 ||
	    ac->ops->wait(s->st, &rec, &count, &t, err, sizeof(err)) != 0) {
		stat_add(&ac->st.sync_errors, 1);
		return -1;
	}
	if (count > s->cap / 4 + 1024) {
		stat_add(&ac->st.sync_errors, 1);
		return -1;
	}
	stat_add(&ac->st.sync_scans, 1);
	stat_add(&ac->st.sync_bytes, len);
	stat_add(&ac->st.kernel_ns, t.kernel_ns);
	pat_of = ac->autos[group]->v.pat;
	if (++s->stamp == 0) {
		memset(s->seen, 0, (size_t)ac->nseen * sizeof(*s->seen));
		s->stamp = 1;
	}
	for (uint32_t i = 0; i < count; i++) {
		uint32_t p = rec[i].pat;

		if (p >= ac->nseen || s->seen[p] == s->stamp)
			continue;
		s->seen[p] = s->stamp;
		if (cb(arg, pat_of[p].id, 0))
			break;
	}
	return 0;
}

#ifndef HAVE_CUDA
const AcDeviceOps *accuda_cuda_ops(char *err, size_t errlen)
{
	snprintf(err, errlen,
		 "mpm-algo ac-cuda: this build has no CUDA support: rebuild with "
		 "./configure --enable-cuda (CUDA toolkit needed), or use mpm-algo ac");
	return NULL;
}
#endif
