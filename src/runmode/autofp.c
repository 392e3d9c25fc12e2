/* autofp: one RX thread (the main one) reads and decodes; N worker threads,
 * each owning a flow table, take packets from bounded queues chosen by flow
 * hash, so a flow's packets stay on one worker and in order. Full queues
 * block the reader. With ac-cuda the RX thread also submits each payload
 * to the GPU before dispatch (gpu_*). */
#include "runmode/runmode-int.h"
#include "runmode/order.h"
#include "detect/prefilter-gpu.h"
#include "util/log.h"

#include <stdlib.h>

typedef struct AutofpCtx {
	Engine *e;
	PacketPool *pool;
	Worker *workers;
	unsigned n;
	OrderTrack order;
	/* ac-cuda: the GPU prefilter and one ticket per pool packet */
	DetectGpu *gpu;
	DetectGpuTicket *gpu_tickets;
	uint64_t gpu_rx_n;
	/* rule reload: the RX thread follows the engine generations too, to
	 * queue each payload for the automata of the engine in use */
	ReloadSlot *gpu_rs;
	uint64_t gpu_gen;
	int gpu_on;                 /* set before the workers start: gpu changes */
} AutofpCtx;


typedef struct WorkerArg {
	AutofpCtx *ctx;
	Worker *w;
} WorkerArg;

/* ---- ac-cuda (mpm-algo: ac-cuda; detect/prefilter-gpu.h) ----
 * The RX thread copies each packet's payload into the GPU ring right after
 * decode, before dispatch; the ticket lives at the packet's pool index. The
 * worker waits for the packet's batch (one wake-up per batch) before
 * detection, which takes the payload matches from the ticket where `ac`
 * would scan, and releases the ticket after. Packets left to the CPU
 * (below min, above max, ring full) have no ticket: the worker scans. */
#define GPU_STATS_EVERY 4096

static DetectGpuTicket *gpu_ticket(AutofpCtx *ctx, const Packet *p)
{
	/* not ctx->gpu: the RX thread changes it on a reload, workers call this */
	if (!ctx->gpu_on || p < ctx->pool->packets || p >= ctx->pool->packets + ctx->pool->n)
		return NULL;
	return &ctx->gpu_tickets[p - ctx->pool->packets];
}

static int gpu_start(AutofpCtx *ctx)
{
	Engine *e = ctx->e;

	if (e->reload) {
		/* the engine in use now (a reload may have replaced the start-up
		 * one already): it lives while we hold the slot */
		const DetectEngine *de = NULL;

		ctx->gpu_rs = reload_join(e->reload, NULL, NULL, NULL, &de, &ctx->gpu_gen);
		if (!ctx->gpu_rs)
			return -1;
		ctx->gpu = detect_engine_gpu(de);
		if (!ctx->gpu) {
			reload_leave(e->reload, ctx->gpu_rs, NULL, &ctx->gpu_gen);
			ctx->gpu_rs = NULL;
		}
	} else {
		ctx->gpu = e->detect ? detect_engine_gpu(e->detect) : NULL;
	}
	if (!ctx->gpu)
		return 0;
	ctx->gpu_on = 1;
	ctx->gpu_tickets = calloc(ctx->pool->n, sizeof(*ctx->gpu_tickets));
	detect_gpu_set_pool(ctx->gpu, ctx->pool->n);
	return ctx->gpu_tickets ? 0 : -1;
}

/* RX thread, between two packets: a reload swapped engines. The open batch
 * of the old automata is cut (its packets must not wait for a deadline),
 * the next payloads go to the new engine's; the reloader frees the old
 * ones once their tickets are all released. */
static void gpu_rx_sync(AutofpCtx *ctx)
{
	DetectGpu *old = ctx->gpu;

	if (!ctx->gpu_rs || !reload_pending(ctx->e->reload, ctx->gpu_gen))
		return;
	detect_gpu_flush(old);
	ctx->gpu = reload_gpu(ctx->e->reload);
	detect_gpu_set_pool(ctx->gpu, ctx->pool->n);
	/* the acknowledgement last: the old automata are ours until then */
	reload_pickup(ctx->e->reload, ctx->gpu_rs, NULL, &ctx->gpu_gen);
}

/* RX thread, after decode, before dispatch. */
static void gpu_rx_submit(AutofpCtx *ctx, Packet *p)
{
	DetectGpuTicket *gt = gpu_ticket(ctx, p);

	if (!gt)
		return;
	gpu_rx_sync(ctx);
	detect_gpu_rx_resumed(ctx->gpu);
	detect_gpu_submit(ctx->gpu, p, gt);
	if (++ctx->gpu_rx_n % GPU_STATS_EVERY == 0)
		detect_gpu_update_counters(ctx->gpu);
}

/* RX thread, end of input: no packet may wait for batching-timeout. */
static void gpu_rx_end(AutofpCtx *ctx)
{
	if (ctx->gpu)
		detect_gpu_flush(ctx->gpu);
}

/* After the workers joined: every ticket was released. */
static void gpu_stop(AutofpCtx *ctx)
{
	if (ctx->gpu)
		detect_gpu_update_counters(ctx->gpu);
	if (ctx->gpu_rs) {
		reload_leave(ctx->e->reload, ctx->gpu_rs, NULL, &ctx->gpu_gen);
		ctx->gpu_rs = NULL;
	}
	free(ctx->gpu_tickets);
	ctx->gpu_tickets = NULL;
}

static void worker_process_gpu(AutofpCtx *ctx, Worker *w, Packet *p)
{
	DetectGpuTicket *gt = w->dt ? gpu_ticket(ctx, p) : NULL;

	worker_sync(w);
	if (gt)
		detect_gpu_begin(w->dt, gt);
	worker_process(w, p);
	if (gt)
		detect_gpu_end(w->dt, gt);
}
/* ---- end of ac-cuda ---- */

static void *worker_main(void *arg)
{
	WorkerArg *wa = arg;
	Worker *w = wa->w;
	PacketPool *pool = wa->ctx->pool;

	runmode_name_thread("W", w->id + 1);
	for (;;) {
		Packet *p = packet_ring_try_pop(&w->ring);

		if (!p) {
			/* Before sleeping, hand back what we hold: the reader may be
			 * waiting for exactly these packets. */
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
		worker_process_gpu(wa->ctx, w, p);
		order_done(&wa->ctx->order, p->order_seq);
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
	/* ac-cuda: the reader is about to wait; workers waiting for the open
	 * batch get it cut (now or when they start waiting) */
	if (ctx->gpu)
		detect_gpu_rx_blocking(ctx->gpu, 0);
}

/* A live source has nothing ready: the workers get what the reader holds.
 * The open GPU batch is left to the dispatcher's batching-timeout deadline,
 * which cuts it on a quiet link too; cutting here would cut a batch per
 * ring block handed over by the kernel, far too small for the GPU. */
static void autofp_publish(void *arg)
{
	AutofpCtx *ctx = arg;

	for (unsigned i = 0; i < ctx->n; i++)
		packet_ring_flush(&ctx->workers[i].ring);
}

/* The pool ran dry: the same, counted as its own cut reason so that a
 * pool too small for the GPU's batches shows (mpm.cuda.cut.pool_dry). */
static void autofp_pool_dry(void *arg)
{
	AutofpCtx *ctx = arg;

	for (unsigned i = 0; i < ctx->n; i++)
		packet_ring_flush(&ctx->workers[i].ring);
	if (ctx->gpu)
		detect_gpu_rx_blocking(ctx->gpu, 1);
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

int run_autofp(Engine *e, PacketPool *pool, ThreadCounters *rx_tc)
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
	if (!ctx.workers || !args || !dt || order_init(&ctx.order, qsize) != 0 ||
	    gpu_start(&ctx) != 0)
		goto out;
	for (unsigned i = 0; i < ctx.n; i++) {
		if (worker_init(&ctx.workers[i], e, i, ctx.n, order_wait, &ctx.order) != 0 ||
		    packet_ring_init(&ctx.workers[i].ring, qsize) != 0)
			goto stop;
		args[i].ctx = &ctx;
		args[i].w = &ctx.workers[i];
		if (pthread_create(&ctx.workers[i].thread, NULL, worker_main, &args[i]) != 0) {
			log_error("runmode: cannot start worker thread %u", i);
			goto stop;
		}
		started++;
	}
	pool->before_wait = autofp_pool_dry;
	pool->before_wait_arg = &ctx;
	for (uint64_t n = 0;;) {
		Packet *p = packet_pool_get(pool, 1);
		int r = capture_get(e->caps[0], p, autofp_publish, &ctx);

		if (r != CAPTURE_PACKET) {
			packet_pool_put_local(pool, p);
			if (r == CAPTURE_END)
				break;
			/* idle: the workers tick their own flow tables */
			gpu_rx_sync(&ctx);
			capture_update_counters(e->caps[0], rx_tc);
			runmode_control_poll(e);
			continue;
		}
		if (++n % HOUSEKEEPING_EVERY == 0)
			capture_update_counters(e->caps[0], rx_tc);
		if (n % CONTROL_EVERY == 0)
			runmode_control_poll(e);
		decode_packet(dt, p);
		/* Pseudo packets (a reassembled datagram, a tunnel's inner packet)
		 * travel on their own: each belongs to the worker of its own flow. */
		while (p) {
			Packet *q = p->pseudo;

			p->pseudo = NULL;
			gpu_rx_submit(&ctx, p);
			autofp_dispatch(&ctx, p);
			p = q;
		}
	}
	capture_update_counters(e->caps[0], rx_tc);
	rc = 0;
stop:
	/* no reload from here on: the RX thread and the workers leave (the
	 * unix-socket runmode's reloader serves the next files too) */
	if (!e->repeat_runs)
		reloader_stop(e->reload);
	gpu_rx_end(&ctx);
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
	gpu_stop(&ctx);
	free(args);
	free(ctx.workers);
	order_free(&ctx.order);
	return rc;
}
