/* autofp: one RX thread (RX#01) reads and decodes; N worker threads, each
 * owning a flow table, take packets from bounded queues chosen by flow
 * hash, so a flow's packets stay on one worker and in order. Full queues
 * block the reader. The main thread serves the signals meanwhile. With
 * ac-cuda each worker queues its own packets' payloads to the GPU in
 * windows (window.c): the RX thread copies nothing for the GPU. */
#include "runmode/runmode-int.h"
#include "runmode/order.h"
#include "util/log.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct AutofpCtx {
	Engine *e;
	PacketPool *pool;
	ThreadCounters *rx_tc;
	Worker *workers;
	unsigned n;
	OrderTrack order;
	pthread_t rx;
	int rc;
	_Atomic int rx_done;
} AutofpCtx;


typedef struct WorkerArg {
	AutofpCtx *ctx;
	Worker *w;
} WorkerArg;

/* A packet is done: in capture order for the thresholds, back to the RX
 * thread's pool in batches. */
static void autofp_done(Worker *w, Packet *p, void *arg)
{
	AutofpCtx *ctx = arg;
	Packet *root;

	order_done(&ctx->order, p->order_seq);
	if (capture_verdict(p, w->e->cfg.policy.ips, &root))
		worker_release(w, ctx->pool, p);
	if (root)
		worker_release(w, ctx->pool, root);
}

static void *worker_main(void *arg)
{
	WorkerArg *wa = arg;
	Worker *w = wa->w;
	PacketPool *pool = wa->ctx->pool;

	thread_name_set("W", w->id + 1);
	for (;;) {
		Packet *p = packet_ring_try_pop(&w->ring);

		if (!p) {
			/* Before sleeping, hand back what we hold: the reader may be
			 * waiting for exactly these packets. */
			worker_drain(w);
			worker_give_back(w, pool);
			if (wa->ctx->e->live) {
				int closed;

				p = packet_ring_pop_timed(&w->ring, IDLE_TICK_MS, &closed);
				if (!p && closed)
					break;
				if (!p) {
					worker_idle(w);
					continue;
				}
			} else {
				p = packet_ring_pop(&w->ring);
				if (!p)
					break;
			}
		}
		worker_accept(w, p);
	}
	worker_drain(w);
	worker_give_back(w, pool);
	/* Flush here, on the owning thread: flow records of this worker's flows. */
	worker_window_fini(w);
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

	p->order_seq = order_next(&ctx->order, autofp_flush_all, ctx);
	/* About to block on a full queue: publish every queue first, or a worker
	 * waiting in capture order for a packet we still hold would never see it. */
	if (packet_ring_full(&w->ring))
		autofp_flush_all(ctx);
	packet_ring_push(&w->ring, p);
}

/* RX#01: read, decode, dispatch by flow hash, until the input ends. */
static void *rx_main(void *arg)
{
	AutofpCtx *ctx = arg;
	Engine *e = ctx->e;
	PacketPool *pool = ctx->pool;
	DecodeThread *dt = decode_thread_new(&e->cfg.decode, ctx->rx_tc, autofp_get, autofp_put,
					     pool);

	thread_name_set("RX", 1);
	if (!dt) {
		ctx->rc = -1;
		atomic_store(&ctx->rx_done, 1);
		return NULL;
	}
	for (uint64_t n = 0;;) {
		Packet *p = packet_pool_get(pool, 1);
		int r = capture_get(e->caps[0], p, autofp_flush_all, ctx);

		if (r != CAPTURE_PACKET) {
			packet_pool_put_local(pool, p);
			if (r == CAPTURE_END)
				break;
			/* idle: the workers tick their own flow tables */
			capture_update_counters(e->caps[0], ctx->rx_tc);
			continue;
		}
		if (++n % HOUSEKEEPING_EVERY == 0)
			capture_update_counters(e->caps[0], ctx->rx_tc);
		decode_packet(dt, p);
		capture_verdict_link(p);
		/* Pseudo packets (a reassembled datagram, a tunnel's inner packet)
		 * travel on their own: each belongs to the worker of its own flow. */
		while (p) {
			Packet *q = p->pseudo;

			p->pseudo = NULL;
			autofp_dispatch(ctx, p);
			p = q;
		}
	}
	capture_update_counters(e->caps[0], ctx->rx_tc);
	decode_thread_free(dt);
	atomic_store(&ctx->rx_done, 1);
	return NULL;
}

/* Main thread: the signals, until RX#01 is done with the input. */
static void autofp_serve(AutofpCtx *ctx)
{
	while (!atomic_load(&ctx->rx_done)) {
		struct timespec ts = { 0, 10 * 1000000L };   /* 10 ms: the exit is prompt */

		runmode_control_poll(ctx->e);
		nanosleep(&ts, NULL);
	}
	pthread_join(ctx->rx, NULL);
}

static int autofp_start_workers(AutofpCtx *ctx, WorkerArg *args, uint32_t qsize,
				unsigned *started)
{
	Engine *e = ctx->e;
	/* ac-cuda: two windows per worker in a quarter... of the pool: the
	 * rest is for the queues and the reader */
	uint32_t win = ctx->pool->n / (4 * ctx->n);

	for (unsigned i = 0; i < ctx->n; i++) {
		Worker *w = &ctx->workers[i];

		char name[16];

		if (worker_init(w, e, i, ctx->n, order_wait, &ctx->order) != 0 ||
		    worker_window_init(w, win, ctx->n, autofp_done, ctx) != 0 ||
		    packet_ring_init(&w->ring, qsize) != 0)
			return -1;
		/* stats.threads: Suricata's autofp names, RX#01 and W#01.. */
		snprintf(name, sizeof(name), "W#%02u", i + 1);
		thread_counters_set_name(w->tc, name);
		args[i].ctx = ctx;
		args[i].w = w;
		if (pthread_create(&w->thread, NULL, worker_main, &args[i]) != 0) {
			log_error("runmode: cannot start worker thread %u", i);
			return -1;
		}
		(*started)++;
	}
	return 0;
}

int run_autofp(Engine *e, PacketPool *pool, ThreadCounters *rx_tc)
{
	AutofpCtx ctx = { .e = e, .pool = pool, .rx_tc = rx_tc, .n = e->cfg.workers };
	WorkerArg *args;

	thread_counters_set_name(rx_tc, "RX#01");
	unsigned started = 0;
	int rc = -1;
	/* Each queue may hold the whole pool: the pool, not the queue, bounds memory. */
	uint32_t qsize = e->cfg.max_pending_packets;

	ctx.workers = calloc(ctx.n, sizeof(Worker));
	args = calloc(ctx.n, sizeof(WorkerArg));
	if (!ctx.workers || !args || order_init(&ctx.order, qsize) != 0)
		goto out;
	if (autofp_start_workers(&ctx, args, qsize, &started) != 0)
		goto stop;
	pool->before_wait = autofp_flush_all;
	pool->before_wait_arg = &ctx;
	if (pthread_create(&ctx.rx, NULL, rx_main, &ctx) != 0) {
		log_error("runmode: cannot start the capture thread");
		goto stop;
	}
	runmode_started(e);
	autofp_serve(&ctx);
	rc = ctx.rc;
stop:
	/* no reload from here on: the RX thread and the workers leave (the
	 * unix-socket runmode's reloader serves the next files too) */
	if (!e->repeat_runs)
		reloader_stop(e->reload);
	pool->before_wait = NULL;
	for (unsigned i = 0; i < ctx.n; i++)
		if (ctx.workers[i].ring.slots)
			packet_ring_close(&ctx.workers[i].ring);
	for (unsigned i = 0; i < started; i++)
		pthread_join(ctx.workers[i].thread, NULL);
	for (unsigned i = 0; i < ctx.n; i++) {
		worker_window_fini(&ctx.workers[i]);
		worker_fini(&ctx.workers[i]);
		packet_ring_destroy(&ctx.workers[i].ring);
	}
out:
	free(args);
	free(ctx.workers);
	order_free(&ctx.order);
	return rc;
}
