#include "runmode/runmode.h"
#include "runmode/pool.h"
#include "runmode/ring.h"
#include "output/output.h"
#include "output/alert.h"
#include "detect/engine.h"
#include "stats/counters.h"
#include "util/log.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Packets a worker collects before giving them back to the pool in one go. */
#define RETURN_BATCH 32

typedef struct Worker {
	Engine *e;
	unsigned id;
	ThreadCounters *tc;
	FlowTable *ft;
	DetectThread *dt;              /* NULL: detection disabled */
	PacketRing ring;               /* autofp: packets from RX */
	pthread_t thread;
	Packet *ret_head, *ret_tail;   /* batch going back to the pool */
	uint32_t ret_n;
} Worker;

typedef struct StatsThread {
	Engine *e;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int stop;
	struct timespec started;
} StatsThread;

int runmode_parse(const char *name, enum runmode *out)
{
	if (strcmp(name, "single") == 0)
		*out = RUNMODE_SINGLE;
	else if (strcmp(name, "autofp") == 0)
		*out = RUNMODE_AUTOFP;
	else
		return -1;
	return 0;
}

const char *runmode_name(enum runmode m)
{
	return m == RUNMODE_SINGLE ? "single" : "autofp";
}

void runmode_list(void)
{
	printf("------------------------------------- Runmodes -------------------------------------------\n");
	printf("| RunMode Type      | Custom Mode       | Description\n");
	printf("|-----------------------------------------------------------------------------------------\n");
	printf("| PCAP_FILE         | single            | Single threaded pcap file mode\n");
	printf("|                   ---------------------------------------------------------------------\n");
	printf("|                   | autofp            | Multi-threaded pcap file mode. Packets from each flow are\n");
	printf("|                   |                   | assigned to a consistent detection thread\n");
	printf("|-----------------------------------------------------------------------------------------\n");
}

static void on_flow_end(void *arg, Flow *f, enum flow_end_reason why)
{
	Worker *w = arg;

	output_flow_end(w->e->outputs, f, why);
	detect_flow_free(f);
}

static int worker_init(Worker *w, Engine *e, unsigned id, unsigned share)
{
	memset(w, 0, sizeof(*w));
	w->e = e;
	w->id = id;
	w->tc = thread_counters_new();
	if (!w->tc)
		return -1;
	w->ft = flow_table_new(&e->cfg.flow, share, w->tc, on_flow_end, w);
	if (!w->ft) {
		log_error("runmode: cannot create the flow table of worker %u", id);
		return -1;
	}
	if (e->detect) {
		w->dt = detect_thread_new(e->detect, w->tc);
		if (!w->dt) {
			log_error("runmode: cannot create the detect state of worker %u", id);
			return -1;
		}
	}
	return 0;
}

static void worker_fini(Worker *w)
{
	if (w->ft) {
		flow_table_free(w->ft);   /* flushes: every flow gets its record */
		w->ft = NULL;
	}
	if (w->dt) {
		detect_thread_free(w->dt);
		w->dt = NULL;
	}
}

static void worker_detect(Worker *w, Packet *p)
{
	const DetectAlert *alerts;
	uint32_t n = detect_packet(w->dt, p, &alerts);

	for (uint32_t i = 0; i < n; i++) {
		AlertInfo ai;

		detect_alert_info(w->e->detect, p, &alerts[i], &ai);
		output_alert(w->e->outputs, p, p->flow, &ai);
	}
	if (n && p->flow)
		p->flow->alerted = 1;
}

/* The per-packet work of a worker: flow, then (later issues) stream, app-layer
 * and detection. */
static void worker_process(Worker *w, Packet *p)
{
	if (!(p->flags & (PKT_INVALID | PKT_IS_FRAGMENT)) && p->ip_version)
		flow_handle_packet(w->ft, p);
	if (w->dt)
		worker_detect(w, p);
	flow_table_timeout(w->ft, &p->ts);
}

/* ---- single ---- */

static Packet *single_get(void *arg)
{
	return packet_pool_get(arg, 0);
}

static void single_put(void *arg, Packet *p)
{
	packet_pool_put_local(arg, p);
}

static int run_single(Engine *e, PacketPool *pool, ThreadCounters *rx_tc)
{
	Worker w;
	DecodeThread *dt;
	Packet *p;

	if (worker_init(&w, e, 0, 1) != 0)
		return -1;
	dt = decode_thread_new(&e->cfg.decode, rx_tc, single_get, single_put, pool);
	if (!dt) {
		worker_fini(&w);
		return -1;
	}
	while ((p = packet_pool_get(pool, 0)) != NULL) {
		if (!pcap_source_next(e->src, p)) {
			packet_pool_put_local(pool, p);
			break;
		}
		decode_packet(dt, p);
		worker_process(&w, p);
		while (p) {
			Packet *q = p->pseudo;

			if (q) {
				p->pseudo = NULL;
				worker_process(&w, q);
			}
			packet_pool_put_local(pool, p);
			p = q;
		}
	}
	worker_fini(&w);
	decode_thread_free(dt);
	return 0;
}

/* ---- autofp ---- */

static void worker_give_back(Worker *w, PacketPool *pool)
{
	if (!w->ret_n)
		return;
	packet_pool_return(pool, w->ret_head, w->ret_tail, w->ret_n);
	w->ret_head = w->ret_tail = NULL;
	w->ret_n = 0;
}

static void worker_release(Worker *w, PacketPool *pool, Packet *p)
{
	p->pseudo = NULL;
	p->next = w->ret_head;
	w->ret_head = p;
	if (!w->ret_tail)
		w->ret_tail = p;
	if (++w->ret_n == RETURN_BATCH)
		worker_give_back(w, pool);
}

/* Capture-order watermark: the first pcap_cnt not yet processed by any
 * worker. Thresholds count across flows (and so across workers); a worker
 * about to count one waits for the watermark to reach its packet so that
 * autofp counts in capture order, as single does. done[] holds the packets
 * finished ahead of the watermark; the pool bounds how far ahead that is. */
typedef struct OrderTrack {
	_Atomic uint64_t watermark;
	_Atomic uint8_t *done;
	uint64_t mask;
} OrderTrack;

typedef struct AutofpCtx {
	Engine *e;
	PacketPool *pool;
	Worker *workers;
	unsigned n;
	OrderTrack order;
} AutofpCtx;

static int order_init(OrderTrack *o, uint32_t inflight)
{
	uint64_t size = 64;

	while (size < 2ull * inflight + 64)
		size <<= 1;
	o->done = calloc(size, sizeof(*o->done));
	o->mask = size - 1;
	atomic_init(&o->watermark, 1);   /* pcap_cnt is 1-based */
	return o->done ? 0 : -1;
}

static void order_done(OrderTrack *o, uint64_t cnt)
{
	uint64_t w;

	if (!cnt)
		return;          /* pseudo packets have no capture position */
	atomic_store_explicit(&o->done[cnt & o->mask], 1, memory_order_release);
	w = atomic_load(&o->watermark);
	while (atomic_load_explicit(&o->done[w & o->mask], memory_order_acquire)) {
		if (atomic_compare_exchange_weak(&o->watermark, &w, w + 1))
			atomic_store_explicit(&o->done[w & o->mask], 0, memory_order_relaxed),
			w = w + 1;
	}
}

static void order_wait(void *arg, const Packet *p)
{
	OrderTrack *o = arg;

	if (!p->pcap_cnt)
		return;
	while (atomic_load(&o->watermark) < p->pcap_cnt)
		sched_yield();
}

typedef struct WorkerArg {
	AutofpCtx *ctx;
	Worker *w;
} WorkerArg;

static void *worker_main(void *arg)
{
	WorkerArg *wa = arg;
	Worker *w = wa->w;
	PacketPool *pool = wa->ctx->pool;

	for (;;) {
		Packet *p = packet_ring_try_pop(&w->ring);

		if (!p) {
			/* Before sleeping, hand back what we hold: the reader may be
			 * waiting for exactly these packets. */
			worker_give_back(w, pool);
			p = packet_ring_pop(&w->ring);
			if (!p)
				break;
		}
		worker_process(w, p);
		order_done(&wa->ctx->order, p->pcap_cnt);
		worker_release(w, pool, p);
	}
	worker_give_back(w, pool);
	/* Flush here, on the owning thread: flow records of this worker's flows. */
	worker_fini(w);
	return NULL;
}

static Packet *autofp_get(void *arg)
{
	return packet_pool_get(arg, 1);
}

static void autofp_put(void *arg, Packet *p)
{
	packet_pool_put_local(arg, p);
}

static void autofp_flush_all(void *arg)
{
	AutofpCtx *ctx = arg;

	for (unsigned i = 0; i < ctx->n; i++)
		packet_ring_flush(&ctx->workers[i].ring);
}

static void autofp_dispatch(AutofpCtx *ctx, Packet *p)
{
	Worker *w = &ctx->workers[p->flow_hash % ctx->n];

	packet_ring_push(&w->ring, p);
}

static int run_autofp(Engine *e, PacketPool *pool, ThreadCounters *rx_tc)
{
	AutofpCtx ctx = { .e = e, .pool = pool, .n = e->cfg.workers };
	WorkerArg *args;
	DecodeThread *dt;
	unsigned started = 0;
	int rc = -1;
	/* Each queue may hold the whole pool: the pool, not the queue, bounds memory. */
	uint32_t qsize = e->cfg.max_pending_packets;

	ctx.workers = calloc(ctx.n, sizeof(Worker));
	args = calloc(ctx.n, sizeof(WorkerArg));
	dt = decode_thread_new(&e->cfg.decode, rx_tc, autofp_get, autofp_put, pool);
	if (!ctx.workers || !args || !dt || order_init(&ctx.order, qsize) != 0)
		goto out;
	for (unsigned i = 0; i < ctx.n; i++) {
		if (worker_init(&ctx.workers[i], e, i, ctx.n) != 0 ||
		    packet_ring_init(&ctx.workers[i].ring, qsize) != 0)
			goto stop;
		args[i].ctx = &ctx;
		args[i].w = &ctx.workers[i];
		if (ctx.workers[i].dt)
			detect_thread_set_order(ctx.workers[i].dt, order_wait, &ctx.order);
		if (pthread_create(&ctx.workers[i].thread, NULL, worker_main, &args[i]) != 0) {
			log_error("runmode: cannot start worker thread %u", i);
			goto stop;
		}
		started++;
	}
	pool->before_wait = autofp_flush_all;
	pool->before_wait_arg = &ctx;
	for (;;) {
		Packet *p = packet_pool_get(pool, 1);

		if (!pcap_source_next(e->src, p)) {
			packet_pool_put_local(pool, p);
			break;
		}
		decode_packet(dt, p);
		/* Pseudo packets (a reassembled datagram, a tunnel's inner packet)
		 * travel on their own: each belongs to the worker of its own flow. */
		while (p) {
			Packet *q = p->pseudo;

			p->pseudo = NULL;
			autofp_dispatch(&ctx, p);
			p = q;
		}
	}
	rc = 0;
stop:
	pool->before_wait = NULL;
	for (unsigned i = 0; i < ctx.n; i++)
		if (ctx.workers[i].ring.slots)
			packet_ring_close(&ctx.workers[i].ring);
	for (unsigned i = 0; i < started; i++)
		pthread_join(ctx.workers[i].thread, NULL);
	for (unsigned i = 0; i < ctx.n; i++) {
		worker_fini(&ctx.workers[i]);
		packet_ring_destroy(&ctx.workers[i].ring);
	}
out:
	if (dt)
		decode_thread_free(dt);
	free(args);
	free(ctx.workers);
	free(ctx.order.done);
	return rc;
}

/* ---- stats ---- */

static uint64_t uptime_s(const StatsThread *st)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)(now.tv_sec - st->started.tv_sec);
}

static void stats_write(StatsThread *st)
{
	size_t n = counters_count();
	uint64_t *snap = calloc(n ? n : 1, sizeof(uint64_t));
	struct timeval now;

	if (!snap)
		return;
	counters_snapshot(snap);
	gettimeofday(&now, NULL);
	output_stats(st->e->outputs, snap, &now, uptime_s(st));
	free(snap);
}

static void *stats_main(void *arg)
{
	StatsThread *st = arg;
	struct timespec deadline;

	pthread_mutex_lock(&st->lock);
	clock_gettime(CLOCK_REALTIME, &deadline);
	while (!st->stop) {
		deadline.tv_sec += st->e->cfg.stats_interval_s;
		while (!st->stop &&
		       pthread_cond_timedwait(&st->cond, &st->lock, &deadline) == 0)
			;
		if (st->stop)
			break;
		pthread_mutex_unlock(&st->lock);
		stats_write(st);
		pthread_mutex_lock(&st->lock);
	}
	pthread_mutex_unlock(&st->lock);
	return NULL;
}

int runmode_run(Engine *e)
{
	PacketPool pool;
	ThreadCounters *rx_tc;
	StatsThread st = { .e = e };
	int stats_thread = 0;
	int rc;

	if (packet_pool_init(&pool, e->cfg.max_pending_packets) != 0) {
		log_error("runmode: cannot allocate %u packets (max-pending-packets)",
			  e->cfg.max_pending_packets);
		return -1;
	}
	rx_tc = thread_counters_new();
	if (!rx_tc) {
		packet_pool_destroy(&pool);
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &st.started);
	pthread_mutex_init(&st.lock, NULL);
	pthread_cond_init(&st.cond, NULL);
	if (e->cfg.stats_enabled && e->cfg.stats_interval_s > 0 &&
	    pthread_create(&st.thread, NULL, stats_main, &st) == 0)
		stats_thread = 1;

	if (e->cfg.mode == RUNMODE_SINGLE)
		rc = run_single(e, &pool, rx_tc);
	else
		rc = run_autofp(e, &pool, rx_tc);

	if (stats_thread) {
		pthread_mutex_lock(&st.lock);
		st.stop = 1;
		pthread_cond_signal(&st.cond);
		pthread_mutex_unlock(&st.lock);
		pthread_join(st.thread, NULL);
	}
	/* The final record: every thread has stopped, the counters are complete. */
	if (e->cfg.stats_enabled)
		stats_write(&st);
	pthread_mutex_destroy(&st.lock);
	pthread_cond_destroy(&st.cond);
	packet_pool_destroy(&pool);
	return rc;
}
