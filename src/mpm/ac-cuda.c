/* ac-cuda host side: lanes, batches, dispatcher, completion, results.
 * See ac-cuda.h for the threads and the API; ac-cuda-ring.h for the ring.
 *
 * Each packet thread that feeds the GPU owns a LANE: its own page-locked
 * ring and batch slots, so producers never share a lock or a cache line on
 * the submit path. A batch lives in a slot of its lane (slots[seq % nslots])
 * from the owner's first payload until its last ticket is released:
 *   OPEN       the owner appends; its 64-bit word packs CLOSED, bytes
 *              and payload count, so the dispatcher can close it at the
 *              deadline with one CAS while the owner appends with
 *              another: no lock per packet.
 *   CLOSED     by the owner (its window is complete, size) or the
 *              dispatcher (deadline, shutdown);
 *   submitted  copy-in, kernel, copy-out on one of the streams (shared by
 *              all lanes, in the order the dispatcher finds closed batches);
 *   done       records grouped by payload; waiters woken once;
 *   free       refs (one per ticket, counted by the owner and settled at
 *              its cut, + one for the pipeline) reached 0 and the owner
 *              reclaimed the slot and its ring bytes, in order.
 */
#include "config.h"
#include "mpm/ac-cuda.h"

#include <errno.h>
#include <sched.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpm/ac-cuda-ring.h"
#include "util/log.h"
#include "util/thread-name.h"

#define W_CLOSED (1ull << 63)
#define W_NPAY(w) ((uint32_t)((w) & W_NPAY_MAX))
#define W_BYTES(w) ((uint32_t)(((w) >> 32) & 0x1fffffffull))
#define W_CUT(w) ((int)(((w) >> 29) & 7))   /* who closed it: enum cut_reason */
#define W_BYTES_MAX 0x1fffffffull
#define W_NPAY_MAX 0x1fffffffull
#define W_MAKE(npay, bytes) ((uint64_t)(npay) | ((uint64_t)(bytes) << 32))

enum slot_state { SLOT_FREE = 0, SLOT_OPEN, SLOT_DONE };
enum slot_result { RES_DEVICE = 0, RES_CPU_OVERFLOW, RES_CPU_ERROR };
enum cut_reason { CUT_SIZE = 0, CUT_TIMEOUT, CUT_FLUSH, CUT_PAYLOADS };

struct slot {
	uint64_t seq;
	uint64_t data_start;     /* ring offset of the batch's first byte */
	uint64_t word;           /* atomic: W_CLOSED | bytes | npay */
	uint64_t t_open_ns;      /* oldest payload's arrival */
	int state;               /* owner-owned except SLOT_DONE (completion) */
	int done;                /* atomic, set once under mu */
	int result;
	uint32_t refs;           /* atomic: tickets + the pipeline, REFS_OPEN while open */
	uint32_t max_records;    /* the lane's: more records is an overflow */
	uint8_t *ring_mem;       /* the lane's ring */
	struct acc_desc *desc;   /* host_alloc: read by the copy-in */
	void **pkt;
	uint32_t *ids;           /* pattern ids by payload, each once */
	uint32_t *pidx;          /* payload i: ids, then programs passed (group_records) */
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

static inline uint8_t *sl_data(const struct slot *sl)
{
	return sl->ring_mem + sl->data_start;
}

struct AcCudaLane {
	AcCuda *ac;
	uint16_t id;             /* ac->lanes[id]; tickets carry it */
	uint8_t *ring_mem;
	AcRing ring;
	struct slot *slots;
	uint32_t nslots;
	uint64_t batch_bytes;    /* min(gpu-transfer-size, ring / 4) */
	uint32_t batch_payloads; /* descriptors per batch */

	/* owner thread only */
	uint64_t rx_seq;         /* the open batch, or the next to open */
	int rx_open;
	uint64_t rx_oldest;      /* oldest slot not yet reclaimed */
	uint32_t rx_tickets;     /* tickets of the open batch, settled at its cut */
	uint64_t rx_peak;        /* most ring bytes in use, folded into the stats at a cut */

	uint64_t opened;         /* atomic: batches opened so far */
	uint64_t disp_next;      /* dispatcher, under ac->mu: next to submit */
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
	uint32_t nvprog;         /* programs of ac_cuda_load_verify (seen[] after nseen) */
	AcDevStream **streams;
	int nstreams;
	uint64_t batch_bytes;    /* gpu-transfer-size: a stream's device buffers */

	/* shared, under mu */
	pthread_mutex_t mu;
	pthread_cond_t disp_cv;  /* a batch opened/closed, a stream freed, stop */
	pthread_cond_t comp_cv;  /* a batch submitted, stop */
	AcCudaLane *lanes[AC_CUDA_LANES_MAX];
	uint32_t nlanes;         /* lanes[0, nlanes) may be set */
	struct inflight *fifo;   /* nstreams entries */
	int fifo_head, fifo_n;
	uint64_t nsubmitted;
	int stop, disp_done;
	int disp_idle;           /* atomic: the dispatcher sleeps without a deadline */
	pthread_t disp, comp;
	int threads;

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

/* A stream's device buffers: the batch, descriptors, records, and the
 * grouping's scratch and output (cuda/group-kernel.h). */
static uint64_t stream_dev_bytes(uint64_t data, uint32_t npay, uint32_t nrec)
{
	return data + (uint64_t)npay * sizeof(struct acc_desc) +
	       (uint64_t)nrec * sizeof(struct acc_rec) +
	       (uint64_t)acg_table_alloc(nrec) * 4 + (uint64_t)nrec * 4 +
	       2 * (2 * (uint64_t)npay + 1) * 4 + 256;
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

/* For a device without submit_grouped (the records come back to the host;
 * cuda/group-kernel.h is the device's form of the same table):
 * groups a batch's records by payload (a counting sort) and keeps one
 * record per (payload, pattern): detection wants the set of patterns a
 * buffer holds, and a kernel may report a pattern at every occurrence (ET
 * Open's zero runs and one-byte patterns: dozens per payload), which would
 * cost every worker a walk over the repeats. The verify kernel's pass
 * records (ACV_PASS | program) are kept apart, each program once: payload
 * p's ids are ids[pidx[2p], pidx[2p + 1]), its passed programs
 * ids[pidx[2p + 1], pidx[2p + 2]). A pattern's records flagged ACC_CTX
 * are kept apart, as on the device (group-kernel.h: ACG_CTX_START).
 * Completer thread only: seen[] holds, per pattern index and kind of
 * start (then per program), the stamp of the last run. */
static void group_records(AcCuda *ac, struct slot *sl, uint32_t npay, const struct acc_rec *in,
			  uint32_t n)
{
	uint32_t *idx = sl->pidx, w = 0, nk = 2 * npay;

	memset(idx, 0, (size_t)(nk + 1) * sizeof(*idx));
	for (uint32_t i = 0; i < n; i++)
		idx[2 * in[i].payload + !!(in[i].pat & ACV_PASS) + 1]++;
	for (uint32_t k = 0; k < nk; k++)
		idx[k + 1] += idx[k];
	/* scatter with idx[k] as the cursor, then shift back */
	for (uint32_t i = 0; i < n; i++)
		sl->ids[idx[2 * in[i].payload + !!(in[i].pat & ACV_PASS)]++] = in[i].pat;
	for (uint32_t k = nk; k > 0; k--)
		idx[k] = idx[k - 1];
	idx[0] = 0;
	/* compact in place: the write cursor never passes the read one */
	for (uint32_t k = 0; k < nk; k++) {
		uint32_t lo = idx[k], hi = idx[k + 1];
		int pass = k & 1;
		const struct ac_pattern *pat_of = ac->autos[sl->desc[k / 2].group]->v.pat;
		uint32_t lim = pass ? ac->nvprog : ac->nseen / 2;

		if (++ac->seen_stamp == 0) {
			memset(ac->seen, 0, (size_t)(ac->nseen + ac->nvprog) * sizeof(*ac->seen));
			ac->seen_stamp = 1;
		}
		idx[k] = w;
		for (uint32_t i = lo; i < hi; i++) {
			uint32_t raw = sl->ids[i] & ~ACV_PASS, c = pass ? 0 : raw & ACC_CTX;
			uint32_t v = raw & ~c, at = pass ? ac->nseen + v : 2 * v + (c ? 1 : 0);

			if (v >= lim || ac->seen[at] == ac->seen_stamp)
				continue;
			ac->seen[at] = ac->seen_stamp;
			/* the caller's id (or program): workers read a plain array */
			sl->ids[w++] = pass ? v : pat_of[v].id | (c ? ACG_CTX_START : 0);
		}
	}
	idx[nk] = w;
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
	default: c = &ac->st.cut_flush; break;
	}
	stat_add(c, 1);
}

/* A device that groups the records itself (submit_grouped) writes the
 * slot's table directly, and the completer has nothing left to do. */
static int submit_one(AcCuda *ac, AcDevStream *st, struct slot *sl, uint64_t w,
		      char *err, size_t errlen)
{
	if (ac->ops->submit_grouped) {
		struct acg_out out = { .pidx = sl->pidx, .ids = sl->ids, .cap = sl->max_records };

		return ac->ops->submit_grouped(st, sl_data(sl), W_BYTES(w), sl->desc, W_NPAY(w),
					       &out, err, errlen);
	}
	return ac->ops->submit(st, sl_data(sl), W_BYTES(w), sl->desc, W_NPAY(w), err, errlen);
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
	if (submit_one(ac, ac->streams[si], sl, w, err, sizeof(err)) != 0) {
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

/* With mu held: the next batch of lane l to submit, closing it first at its
 * deadline (or at shutdown). NULL when there is none, or the lane's oldest
 * unsubmitted batch is still open: *deadline then says until when. */
static struct slot *lane_next(AcCuda *ac, AcCudaLane *l, uint64_t now, uint64_t *deadline)
{
	struct slot *sl;
	uint64_t w, due;

	if (l->disp_next >= __atomic_load_n(&l->opened, __ATOMIC_ACQUIRE))
		return NULL;
	sl = &l->slots[l->disp_next % l->nslots];
	w = __atomic_load_n(&sl->word, __ATOMIC_ACQUIRE);
	if (w & W_CLOSED)
		return sl;
	due = sl->t_open_ns + ac->cfg.batching_timeout_us * 1000ull;
	if (ac->stop)
		close_word(sl, CUT_FLUSH);
	else if (now >= due)
		close_word(sl, CUT_TIMEOUT);
	else {
		if (due < *deadline)
			*deadline = due;
		return NULL;
	}
	return sl;
}

/* With mu held: a lane has opened a batch the dispatcher has not looked at. */
static int lanes_opened_unseen(AcCuda *ac)
{
	for (uint32_t i = 0; i < ac->nlanes; i++) {
		AcCudaLane *l = ac->lanes[i];

		if (l && l->disp_next < __atomic_load_n(&l->opened, __ATOMIC_SEQ_CST))
			return 1;
	}
	return 0;
}

/* Submits closed batches lane by lane, in each lane's order; sleeps until
 * a batch is closed or opened (the owners signal), or the earliest open
 * batch's batching-timeout deadline. */
static void *dispatcher(void *arg)
{
	AcCuda *ac = arg;

	thread_name_set("ACC-DISP", 0);
	pthread_mutex_lock(&ac->mu);
	for (;;) {
		uint64_t deadline = UINT64_MAX, now = now_ns();
		int live = 0, sent = 0;

		for (uint32_t i = 0; i < ac->nlanes; i++) {
			AcCudaLane *l = ac->lanes[i];
			struct slot *sl;

			if (!l)
				continue;
			live++;
			if (!(sl = lane_next(ac, l, now, &deadline)))
				continue;
			/* counted before the lock drops: the owner frees its
			 * lane only once every opened batch is past here */
			l->disp_next++;
			submit_batch(ac, sl);
			sent = 1;
			break;    /* mu was dropped: the lane table may have changed */
		}
		if (sent)
			continue;
		if (ac->stop && !live)
			break;
		if (deadline != UINT64_MAX) {
			struct timespec ts = { .tv_sec = deadline / 1000000000ull,
					       .tv_nsec = deadline % 1000000000ull };

			pthread_cond_timedwait(&ac->disp_cv, &ac->mu, &ts);
		} else {
			/* no deadline to keep: an owner that opens a batch must
			 * wake us (rx_open); seq_cst against its `opened` store,
			 * and a last look before sleeping */
			__atomic_store_n(&ac->disp_idle, 1, __ATOMIC_SEQ_CST);
			if (!lanes_opened_unseen(ac))
				pthread_cond_wait(&ac->disp_cv, &ac->mu);
			__atomic_store_n(&ac->disp_idle, 0, __ATOMIC_SEQ_CST);
		}
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
	} else if (count > sl->max_records) {
		/* records were lost: rescan so that no match is */
		sl->result = RES_CPU_OVERFLOW;
		stat_add(&ac->st.overflow_batches, 1);
		stat_add(&ac->st.cpu_overflow, npay);
	} else {
		sl->result = RES_DEVICE;
		stat_add(&ac->st.gpu_batches, 1);
		if (!ac->ops->submit_grouped)
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

	thread_name_set("ACC-DONE", 0);
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

/* ---------- a lane's owner ---------- */

static void wake_dispatcher(AcCuda *ac)
{
	pthread_mutex_lock(&ac->mu);
	pthread_cond_signal(&ac->disp_cv);
	pthread_mutex_unlock(&ac->mu);
}

/* An open batch holds REFS_OPEN references instead of one per ticket, so
 * that an append costs no atomic add on the slot: the owner settles the
 * count once, at the cut (rx_cut). No ticket can be released before: a
 * worker releases a ticket after its batch is done, a done batch was closed,
 * and every close reaches the owner's rx_cut before the owner reclaims the
 * slot (rx_reclaim looks only below rx_seq) or frees the lane. */
#define REFS_OPEN (1u << 30)

/* The owner closes its open batch (its window is complete, size, wrap) and
 * tells the dispatcher: one lock per batch, not per packet. */
static void rx_cut(AcCudaLane *l, int reason)
{
	struct slot *sl;

	if (!l->rx_open)
		return;
	sl = &l->slots[l->rx_seq % l->nslots];
	close_word(sl, reason);
	__atomic_fetch_sub(&sl->refs, REFS_OPEN - l->rx_tickets, __ATOMIC_ACQ_REL);
	/* the engine-wide peak is a line other lanes and the completer write:
	 * touched once per batch, not per append */
	stat_max(&l->ac->st.ring_peak_bytes, l->rx_peak);
	l->rx_open = 0;
	l->rx_seq++;
	wake_dispatcher(l->ac);
}

/* Gives back, in order, the slots and ring bytes whose batches are done
 * and fully released. */
static void rx_reclaim(AcCudaLane *l)
{
	uint64_t live_end = l->rx_seq + (l->rx_open ? 1 : 0);

	while (l->rx_oldest < l->rx_seq) {
		struct slot *sl = &l->slots[l->rx_oldest % l->nslots];

		if (!__atomic_load_n(&sl->done, __ATOMIC_ACQUIRE) ||
		    __atomic_load_n(&sl->refs, __ATOMIC_ACQUIRE) != 0)
			break;
		sl->state = SLOT_FREE;
		l->rx_oldest++;
	}
	if (l->rx_oldest == live_end)
		ac_ring_free_all(&l->ring);
	else
		ac_ring_free_to(&l->ring, l->slots[l->rx_oldest % l->nslots].data_start);
}

static void rx_ring_peak(AcCudaLane *l)
{
	uint64_t used = ac_ring_used(&l->ring);

	if (used > l->rx_peak)
		l->rx_peak = used;
}

/* What one submit puts into the ring: a payload, and optionally a second
 * view of it behind ctxlen bytes of context for another automaton. The
 * views share the payload's bytes: the ring holds the context and the
 * payload once, the stream view's descriptor covers both and the packet
 * view's, the next one, its tail (the kernels' windows start at the outer
 * descriptor that covers them, ac-kernel.h acc_window_first). */
struct rx_sub {
	const uint8_t *ctx, *buf;
	uint32_t ctxlen, len;
	uint16_t group, ctx_group;
	uint32_t nviews;          /* 1 or 2 */
	void *pkt;
};

static uint32_t rx_bytes(const struct rx_sub *u)
{
	return u->nviews == 2 ? u->len + u->ctxlen : u->len;
}

/* Descriptors, in offset order: a payload's own view, or its stream view
 * (context + payload) then its packet view (the payload, the same bytes). */
static void rx_fill(struct slot *sl, uint32_t npay, uint32_t bytes, const struct rx_sub *u)
{
	uint8_t *dst = sl_data(sl) + bytes;
	uint32_t c = u->nviews == 2 ? u->ctxlen : 0;

	if (c)
		memcpy(dst, u->ctx, c);
	memcpy(dst + c, u->buf, u->len);
	if (u->nviews == 2) {
		sl->desc[npay] = (struct acc_desc){ .off = bytes, .len = (uint16_t)(c + u->len),
						    .group = u->ctx_group };
		sl->pkt[npay] = u->pkt;
		npay++;
	}
	sl->desc[npay] = (struct acc_desc){ .off = bytes + c, .len = (uint16_t)u->len,
					    .group = u->group };
	sl->pkt[npay] = u->pkt;
}

/* The descriptor of a ticket's view (0: the payload, 1: behind its
 * context): rx_fill puts the stream view first. */
static uint32_t view_desc(const AcCudaTicket *t, int view)
{
	return t->views == 2 ? t->index + 1 - (uint32_t)view : t->index;
}

static AcCudaTicket lane_ticket(const AcCudaLane *l, uint32_t index, uint32_t views)
{
	return (AcCudaTicket){ .batch = l->rx_seq, .index = index, .views = views,
			       .lane = l->id };
}

static int rx_open(AcCudaLane *l, const struct rx_sub *u, AcCudaTicket *out)
{
	uint32_t need = rx_bytes(u);
	enum ac_ring_fit fit;
	struct slot *sl;

	if (l->rx_seq - l->rx_oldest >= l->nslots)
		return AC_CUDA_CPU_RING_FULL;
	fit = ac_ring_fit_batch(&l->ring, need, l->batch_bytes);
	if (fit == AC_RING_FULL)
		return AC_CUDA_CPU_RING_FULL;
	if (fit == AC_RING_WRAP)
		stat_add(&l->ac->st.ring_wraps, 1);
	sl = &l->slots[l->rx_seq % l->nslots];
	sl->seq = l->rx_seq;
	sl->data_start = ac_ring_take(&l->ring, need, fit);
	rx_ring_peak(l);
	rx_fill(sl, 0, 0, u);
	sl->t_open_ns = now_ns();
	sl->state = SLOT_OPEN;
	sl->done = 0;
	sl->result = RES_DEVICE;
	/* the pipeline's reference, and the open batch's (rx_cut settles it) */
	__atomic_store_n(&sl->refs, 1 + REFS_OPEN, __ATOMIC_RELAXED);
	l->rx_tickets = 1;
	__atomic_store_n(&sl->word, W_MAKE(u->nviews, need), __ATOMIC_RELEASE);
	l->rx_open = 1;
	*out = lane_ticket(l, 0, u->nviews);
	/* publish: the dispatcher starts this batch's deadline. A dispatcher
	 * asleep on a deadline finds it at the next wake-up (a cut, or that
	 * deadline, which is earlier); only one asleep without any must be
	 * woken: a wake-up per batch would cost more than the batch's
	 * bookkeeping (futex round trips on both threads). */
	__atomic_store_n(&l->opened, l->rx_seq + 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&l->ac->disp_idle, __ATOMIC_SEQ_CST))
		wake_dispatcher(l->ac);
	return AC_CUDA_QUEUED;
}

/* 1: appended; 0: the batch is closed or full, open a new one. */
static int rx_append(AcCudaLane *l, const struct rx_sub *u, AcCudaTicket *out)
{
	struct slot *sl = &l->slots[l->rx_seq % l->nslots];
	uint64_t w = __atomic_load_n(&sl->word, __ATOMIC_ACQUIRE);
	uint32_t npay = W_NPAY(w), bytes = W_BYTES(w), need = rx_bytes(u);

	if (w & W_CLOSED) {
		rx_cut(l, CUT_TIMEOUT); /* already closed: just move on */
		return 0;
	}
	if (npay + u->nviews > l->batch_payloads) {
		rx_cut(l, CUT_PAYLOADS);
		return 0;
	}
	if (bytes + (uint64_t)need > l->batch_bytes) {
		rx_cut(l, CUT_SIZE);
		return 0;
	}
	if (ac_ring_fit(&l->ring, need) != AC_RING_HERE) {
		rx_reclaim(l);
		if (ac_ring_fit(&l->ring, need) != AC_RING_HERE) {
			/* a batch is contiguous: wrap or wait for room in a new one */
			rx_cut(l, CUT_SIZE);
			return 0;
		}
	}
	rx_fill(sl, npay, bytes, u);
	if (!__atomic_compare_exchange_n(&sl->word, &w, W_MAKE(npay + u->nviews, bytes + need), 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		/* the dispatcher cut it at its deadline a moment ago */
		rx_cut(l, CUT_TIMEOUT);
		return 0;
	}
	l->rx_tickets++;
	ac_ring_take(&l->ring, need, AC_RING_HERE);
	rx_ring_peak(l);
	*out = lane_ticket(l, npay, u->nviews);
	return 1;
}

static int rx_submit(AcCudaLane *l, const struct rx_sub *u, AcCudaTicket *out)
{
	AcCuda *ac = l->ac;
	int rc;

	if (u->len == 0 || u->len < ac->cfg.data_buffer_size_min_limit) {
		stat_add(&ac->st.cpu_below_min, 1);
		return AC_CUDA_CPU_BELOW_MIN;
	}
	if (u->len > ac->cfg.data_buffer_size_max_limit ||
	    rx_bytes(u) > l->batch_bytes ||
	    u->len + u->ctxlen > CUDA_MPM_DATA_BUFFER_SIZE_MAX ||
	    u->nviews > l->batch_payloads) {
		stat_add(&ac->st.cpu_above_max, 1);
		return AC_CUDA_CPU_ABOVE_MAX;
	}
	if (u->group >= ac->nautos || (u->nviews == 2 && u->ctx_group >= ac->nautos))
		return AC_CUDA_CPU_BAD_GROUP;
	if (l->rx_open && rx_append(l, u, out))
		return AC_CUDA_QUEUED;
	rx_reclaim(l);
	rc = rx_open(l, u, out);
	if (rc != AC_CUDA_QUEUED)
		stat_add(&ac->st.cpu_ring_full, 1);
	return rc;
}

int ac_cuda_submit(AcCudaLane *l, const uint8_t *buf, uint32_t len, uint16_t group,
		   void *pkt, AcCudaTicket *out)
{
	struct rx_sub u = { .buf = buf, .len = len, .group = group, .nviews = 1, .pkt = pkt };

	return rx_submit(l, &u, out);
}

int ac_cuda_submit_ctx(AcCudaLane *l, const uint8_t *ctx, uint32_t ctxlen, const uint8_t *buf,
		       uint32_t len, uint16_t group, uint16_t ctx_group, void *pkt,
		       AcCudaTicket *out)
{
	struct rx_sub u = { .ctx = ctx, .ctxlen = ctxlen, .buf = buf, .len = len,
			    .group = group, .ctx_group = ctx_group, .nviews = 2, .pkt = pkt };

	return rx_submit(l, &u, out);
}

void ac_cuda_flush(AcCudaLane *l)
{
	rx_cut(l, CUT_FLUSH);
}

/* ---------- tickets ---------- */

static struct slot *ticket_slot(const AcCuda *ac, const AcCudaTicket *t)
{
	const AcCudaLane *l = ac->lanes[t->lane];

	return &l->slots[t->batch % l->nslots];
}

int ac_cuda_wait(AcCuda *ac, const AcCudaTicket *t)
{
	struct slot *sl = ticket_slot(ac, t);

	if (!__atomic_load_n(&sl->done, __ATOMIC_ACQUIRE)) {
		AcCudaLane *l = ac->lanes[t->lane];

		/* only the lane's owner waits for its tickets: waiting for its
		 * own open batch means it wants it now */
		if (l->rx_open && t->batch == l->rx_seq)
			rx_cut(l, CUT_FLUSH);
		pthread_mutex_lock(&sl->mu);
		while (!__atomic_load_n(&sl->done, __ATOMIC_ACQUIRE))
			pthread_cond_wait(&sl->cv, &sl->mu);
		pthread_mutex_unlock(&sl->mu);
	}
	return sl->result == RES_DEVICE ? 0 : 1;
}

int ac_cuda_ready(const AcCuda *ac, const AcCudaTicket *t)
{
	return __atomic_load_n(&ticket_slot(ac, t)->done, __ATOMIC_ACQUIRE);
}

const uint8_t *ac_cuda_payload(const AcCuda *ac, const AcCudaTicket *t, uint32_t *len)
{
	const struct slot *sl = ticket_slot(ac, t);
	const struct acc_desc *d = &sl->desc[view_desc(t, 0)];

	*len = d->len;
	return sl_data(sl) + d->off;
}

const uint8_t *ac_cuda_payload_ctx(const AcCuda *ac, const AcCudaTicket *t, uint32_t *len)
{
	const struct slot *sl = ticket_slot(ac, t);
	const struct acc_desc *d;

	if (t->views < 2) {
		*len = 0;
		return NULL;
	}
	d = &sl->desc[view_desc(t, 1)];
	*len = d->len;
	return sl_data(sl) + d->off;
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
	const uint8_t *buf = sl_data(sl) + d->off;
	uint32_t n = 0;

	if (sl->result != RES_DEVICE)
		return ac_search(a, buf, d->len, cb, arg);
	for (uint32_t i = sl->pidx[2 * idx]; i < sl->pidx[2 * idx + 1]; i++) {
		n++;
		if (cb(arg, sl->ids[i], 0))
			break;
	}
	return n;
}

const uint32_t *ac_cuda_ids(const AcCuda *ac, const AcCudaTicket *t, int view, uint32_t *n)
{
	const struct slot *sl = ticket_slot(ac, t);
	uint32_t idx = view_desc(t, view);

	*n = 0;
	if (sl->result != RES_DEVICE || (uint32_t)view >= t->views)
		return NULL;
	*n = sl->pidx[2 * idx + 1] - sl->pidx[2 * idx];
	return sl->ids + sl->pidx[2 * idx];
}

uint32_t ac_cuda_matches(AcCuda *ac, const AcCudaTicket *t, ac_match_fn cb, void *arg)
{
	return view_matches(ac, t, view_desc(t, 0), cb, arg);
}

uint32_t ac_cuda_matches_ctx(AcCuda *ac, const AcCudaTicket *t, ac_match_fn cb, void *arg)
{
	if (t->views < 2)
		return 0;
	return view_matches(ac, t, view_desc(t, 1), cb, arg);
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
		if (2 * autos[g]->blk->npatterns > ac->nseen)
			ac->nseen = 2 * autos[g]->blk->npatterns;
	ac->seen = calloc(ac->nseen ? ac->nseen : 1, sizeof(*ac->seen));
	if (!ac->seen) {
		free(ac);
		snprintf(err, errlen, "ac-cuda: out of memory");
		return NULL;
	}
	ac->nstreams = cfg->cuda_streams;
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
			 "%llu p90 %llu max %llu; cuts: size %llu payloads %llu timeout %llu "
			 "flush %llu; ring peak %llu bytes",
			 (unsigned long long)s->batches,
			 (unsigned long long)ac_cuda_hist_quantile(s->hist_payloads, 0.5),
			 (unsigned long long)ac_cuda_hist_quantile(s->hist_payloads, 0.9),
			 (unsigned long long)s->batch_payloads_max,
			 (unsigned long long)ac_cuda_hist_quantile(s->hist_bytes, 0.5),
			 (unsigned long long)ac_cuda_hist_quantile(s->hist_bytes, 0.9),
			 (unsigned long long)s->batch_bytes_max,
			 (unsigned long long)s->cut_size, (unsigned long long)s->cut_payloads,
			 (unsigned long long)s->cut_timeout, (unsigned long long)s->cut_flush,
			 (unsigned long long)s->ring_peak_bytes);
	if (bad)
		log_warning("ac-cuda: %llu of %llu batches failed on the device (%llu errors, "
			    "%llu overflows) and were rescanned on the CPU",
			    (unsigned long long)bad, (unsigned long long)s->batches,
			    (unsigned long long)s->error_batches,
			    (unsigned long long)s->overflow_batches);
}

int ac_cuda_load_verify(AcCuda *ac, const void *blk, size_t size, const struct acv_layout *lay,
			char *err, size_t errlen)
{
	uint32_t *seen;

	if (!ac->ops->load_verify || ac->opts.no_verify)
		return 0;
	seen = calloc((size_t)ac->nseen + lay->nprog + 1, sizeof(*seen));
	if (!seen) {
		snprintf(err, errlen, "ac-cuda: out of memory for the rule programs");
		return -1;
	}
	if (ac->ops->load_verify(ac->dev, blk, size, lay, err, errlen) != 0) {
		free(seen);
		return -1;
	}
	/* no batch yet: the completer does not read seen[] now */
	free(ac->seen);
	ac->seen = seen;
	ac->seen_stamp = 0;
	ac->nvprog = lay->nprog;
	return 1;
}

const uint32_t *ac_cuda_passed(const AcCuda *ac, const AcCudaTicket *t, int view, uint32_t *n)
{
	const struct slot *sl = ticket_slot(ac, t);
	uint32_t idx = view_desc(t, view);

	*n = 0;
	if (sl->result != RES_DEVICE || (uint32_t)view >= t->views || !ac->nvprog)
		return NULL;
	*n = sl->pidx[2 * idx + 2] - sl->pidx[2 * idx + 1];
	return sl->ids + sl->pidx[2 * idx + 1];
}

void ac_cuda_free(AcCuda *ac)
{
	if (!ac)
		return;
	if (ac->threads) {
		/* lanes their owners left behind (a failed start-up) */
		for (uint32_t i = 0; i < ac->nlanes; i++)
			if (ac->lanes[i])
				ac_cuda_lane_free(ac->lanes[i]);
		pthread_mutex_lock(&ac->mu);
		ac->stop = 1;
		pthread_cond_signal(&ac->disp_cv);
		pthread_mutex_unlock(&ac->mu);
		pthread_join(ac->disp, NULL);
		pthread_join(ac->comp, NULL);
		log_summary(ac);
	}
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

/* ---------- lanes ---------- */

/* A lane never holds a batch the device streams could not take, and holds
 * about four of them in its ring: the window being filled, the one on the
 * device, the one being inspected, and slack for a wrap. */
#define LANE_BATCHES_IN_RING 4
/* The least a lane's batch must hold: one TCP payload of 64 KiB in both
 * views, behind its context. */
#define LANE_SLOTS 16
#define LANE_BATCH_MIN (2u * CUDA_MPM_DATA_BUFFER_SIZE_MAX + 256u)

static void lane_free_slots(AcCudaLane *l)
{
	AcCuda *ac = l->ac;

	for (uint32_t i = 0; l->slots && i < l->nslots; i++) {
		struct slot *sl = &l->slots[i];

		if (sl->desc)
			ac->ops->host_free(ac->dev, sl->desc);
		free(sl->pkt);
		free(sl->ids);
		free(sl->pidx);
		pthread_mutex_destroy(&sl->mu);
		pthread_cond_destroy(&sl->cv);
	}
	free(l->slots);
}

static int lane_alloc_slots(AcCudaLane *l, uint32_t max_records)
{
	AcCuda *ac = l->ac;

	l->slots = calloc(l->nslots, sizeof(*l->slots));
	if (!l->slots)
		return -1;
	for (uint32_t i = 0; i < l->nslots; i++) {
		struct slot *sl = &l->slots[i];

		pthread_mutex_init(&sl->mu, NULL);
		pthread_cond_init(&sl->cv, NULL);
		sl->done = 1;
		sl->ring_mem = l->ring_mem;
		sl->max_records = max_records;
		sl->desc = ac->ops->host_alloc(ac->dev,
			(size_t)l->batch_payloads * sizeof(*sl->desc));
		sl->pkt = calloc(l->batch_payloads, sizeof(*sl->pkt));
		sl->ids = malloc((size_t)max_records * sizeof(*sl->ids) + 1);
		sl->pidx = calloc(2 * (size_t)l->batch_payloads + 1, sizeof(*sl->pidx));
		if (!sl->desc || !sl->pkt || !sl->ids || !sl->pidx)
			return -1;
	}
	return 0;
}

static int lane_register(AcCuda *ac, AcCudaLane *l)
{
	int rc = -1;

	pthread_mutex_lock(&ac->mu);
	for (uint32_t i = 0; i < AC_CUDA_LANES_MAX; i++) {
		if (ac->lanes[i])
			continue;
		l->id = (uint16_t)i;
		ac->lanes[i] = l;
		if (i >= ac->nlanes)
			ac->nlanes = i + 1;
		rc = 0;
		break;
	}
	pthread_mutex_unlock(&ac->mu);
	return rc;
}

AcCudaLane *ac_cuda_lane_new(AcCuda *ac, uint64_t ring_bytes, char *err, size_t errlen)
{
	AcCudaLane *l = calloc(1, sizeof(*l));
	uint64_t bb;

	if (!l) {
		snprintf(err, errlen, "ac-cuda: out of memory");
		return NULL;
	}
	l->ac = ac;
	bb = ring_bytes / LANE_BATCHES_IN_RING;
	if (bb < LANE_BATCH_MIN)
		bb = LANE_BATCH_MIN;
	if (bb > ac->batch_bytes)
		bb = ac->batch_bytes;
	if (ring_bytes < bb)
		ring_bytes = bb;
	l->batch_bytes = bb;
	/* the device streams are sized for gpu-transfer-size: a lane's batch
	 * takes its share of their descriptors and records */
	l->batch_payloads = (uint32_t)(ac->opts.batch_payloads * bb / ac->batch_bytes);
	if (l->batch_payloads < 64)
		l->batch_payloads = 64 > ac->opts.batch_payloads ? ac->opts.batch_payloads : 64;
	uint64_t rec = (uint64_t)ac->opts.batch_records * bb / ac->batch_bytes;

	if (rec < 1024)
		rec = 1024 > ac->opts.batch_records ? ac->opts.batch_records : 1024;
	/* a window's batches: open, on the device, being inspected, and
	 * the cuts a long window makes */
	l->nslots = ac->opts.batch_slots < LANE_SLOTS ? ac->opts.batch_slots : LANE_SLOTS;
	l->ring_mem = ac->ops->host_alloc(ac->dev, ring_bytes);
	if (!l->ring_mem) {
		snprintf(err, errlen,
			 "ac-cuda: cannot allocate %llu bytes of page-locked memory for a lane "
			 "(cuda.mpm.cudabuffer-buffer-size): lower it or raise the memlock limit",
			 (unsigned long long)ring_bytes);
		free(l);
		return NULL;
	}
	ac_ring_init(&l->ring, l->ring_mem, ring_bytes);
	if (lane_alloc_slots(l, (uint32_t)rec) != 0 || lane_register(ac, l) != 0) {
		snprintf(err, errlen, "ac-cuda: out of memory for a lane (or more than %d lanes)",
			 AC_CUDA_LANES_MAX);
		lane_free_slots(l);
		ac->ops->host_free(ac->dev, l->ring_mem);
		free(l);
		return NULL;
	}
	return l;
}

void ac_cuda_lane_free(AcCudaLane *l)
{
	AcCuda *ac;

	if (!l)
		return;
	ac = l->ac;
	/* every ticket was released: what is left is in the pipeline */
	rx_cut(l, CUT_FLUSH);
	for (uint64_t q = l->rx_oldest; q < l->rx_seq; q++) {
		struct slot *sl = &l->slots[q % l->nslots];

		pthread_mutex_lock(&sl->mu);
		while (!__atomic_load_n(&sl->done, __ATOMIC_ACQUIRE))
			pthread_cond_wait(&sl->cv, &sl->mu);
		pthread_mutex_unlock(&sl->mu);
		/* the completer drops the pipeline's reference just after */
		while (__atomic_load_n(&sl->refs, __ATOMIC_ACQUIRE) != 0)
			sched_yield();
	}
	pthread_mutex_lock(&ac->mu);
	ac->lanes[l->id] = NULL;
	pthread_mutex_unlock(&ac->mu);
	lane_free_slots(l);
	ac->ops->host_free(ac->dev, l->ring_mem);
	free(l);
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
