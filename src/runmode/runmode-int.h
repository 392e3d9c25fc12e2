/* What the runmode files share (runmode.h is the public side): the worker,
 * which does everything after decode for the flows it owns, and the loops
 * and threads of each runmode around it:
 *   worker.c        the per-packet work and the flow end of one worker
 *   capture-loop.c  one thread from capture to logging (single, workers)
 *   single.c        single: that loop on the main thread
 *   workers.c       workers: one such thread per capture handle
 *   autofp.c        autofp: the RX thread's dispatch to worker threads
 *   order.c         autofp: capture order for thresholds across workers
 *   stats-thread.c  the periodic stats record
 * Threads are named as Suricata names them (util/thread-name.h). */
#ifndef RUNMODE_RUNMODE_INT_H
#define RUNMODE_RUNMODE_INT_H

#include "runmode/runmode.h"
#include "runmode/pool.h"
#include "runmode/ring.h"
#include "runmode/reload.h"
#include "output/logger.h"
#include "detect/engine.h"
#include "stats/counters.h"

#include "util/thread-name.h"

#include <pthread.h>

/* Packets a worker collects before giving them back to the pool in one go. */
#define RETURN_BATCH 32

struct Worker;
struct DetectGpuFeed;
struct DetectGpuTicket;
/* What the runmode does with a packet the worker is done with (give it back
 * to its pool, mark it done in capture order). */
typedef void (*worker_done_fn)(struct Worker *w, Packet *p, void *arg);

/* window.c: ac-cuda's window of decoded packets; no feed: no window. */
/* worker_process in two halves (the ac-cuda window's burst runs the first
 * for several packets before their second): front, flow to the app layer;
 * back, detection to the timeouts. What back needs of front: */
typedef struct WorkerFront {
	Flow *f;                       /* the packet's flow, NULL: none */
	int skip;                      /* bypassed: only the timeouts */
} WorkerFront;

/* The burst (window.c): packets of a window that went through the first
 * half, waiting for their transaction buffers' batch; no two of one flow. */
#define WINDOW_BURST_MAX 64

typedef struct PacketWindow {
	struct DetectGpuFeed *feed;
	Packet **pkt;                  /* FIFO of cap entries from head */
	struct DetectGpuTicket *gt;    /* the ticket of pkt[i] */
	WorkerFront *fr;               /* pkt[i]'s first half, in a burst */
	uint32_t nburst;               /* the burst: the nburst oldest */
	uint32_t burst_hash[WINDOW_BURST_MAX];   /* their p->flow_hash */
	uint64_t burst_bits[4];        /* bit (hash & 255) of each: a quick no */
	uint32_t cap, head, n;
	uint32_t cut;                  /* the n oldest whose batches are cut */
	uint32_t size;                 /* packets per window */
	unsigned share;                /* threads sharing the ring */
	uint64_t processed;
	worker_done_fn done;
	void *done_arg;
} PacketWindow;

typedef struct Worker {
	Engine *e;
	unsigned id;
	ThreadCounters *tc;
	FlowTable *ft;
	DetectThread *dt;              /* NULL: detection disabled */
	ReloadSlot *rs;                /* rule reload: this worker's slot */
	uint64_t rgen;                 /* the engine generation dt is for */
	StreamThread *st;              /* TCP tracking and reassembly */
	AppLayerThread *at;            /* NULL: app layer disabled */
	OutputThread ot;               /* the logger list's per-thread side */
	PacketRing ring;               /* autofp: packets from RX */
	pthread_t thread;
	Packet *ret_head, *ret_tail;   /* batch going back to the pool */
	uint32_t ret_n;
	PacketWindow win;
} Worker;

/* Packets between two updates of the kernel counters, and between two looks
 * at the signal flags and the clock (a light link is seldom idle). */
#define HOUSEKEEPING_EVERY 4096
#define CONTROL_EVERY 64

/* worker.c. order_fn (may be NULL): autofp's capture-order wait for
 * thresholds (order.h). worker_fini() also undoes a failed worker_init(). */
int worker_init(Worker *w, Engine *e, unsigned id, unsigned share,
		detect_order_fn order_fn, void *order_arg);
void worker_fini(Worker *w);
void worker_process(Worker *w, Packet *p);
/* worker_process in two halves: front, flow to the app layer; back,
 * detection to the timeouts (see WorkerFront). */
void worker_front(Worker *w, Packet *p, WorkerFront *fr);
void worker_back(Worker *w, Packet *p, const WorkerFront *fr);
void worker_idle(Worker *w);
/* autofp: packets go back to the RX thread's pool in batches. */
void worker_release(Worker *w, PacketPool *pool, Packet *p);
void worker_give_back(Worker *w, PacketPool *pool);

/* window.c: the two hooks a runmode calls, and the window's life. After
 * decode, worker_accept(): the packet goes through the worker now, or
 * (ac-cuda) joins the window and goes through once its batch is back;
 * either way done(w, p, done_arg) follows, in arrival order. When the
 * input runs dry or ends, worker_drain(): every packet held goes through.
 * init: size packets per window, share: threads that share the GPU ring
 * (after worker_init; 0, or -1 with the error logged). */
int worker_window_init(Worker *w, uint32_t size, unsigned share, worker_done_fn done,
		       void *done_arg);
void worker_accept(Worker *w, Packet *p);
void worker_drain(Worker *w);
/* Drains, and frees the window (before worker_fini). */
void worker_window_fini(Worker *w);
/* window.c: worker_sync's slow path */
void worker_reload(Worker *w);

/* A rule reload published a new engine: take it up between two packets
 * (one load per packet when none is pending); the window goes through
 * first, with the engine its payloads were queued for. */
static inline void worker_sync(Worker *w)
{
	if (w->rs && reload_pending(w->e->reload, w->rgen))
		worker_reload(w);
}

/* capture-loop.c: the next packet of cap: one that is ready at once; when
 * none is, dry(arg) first (the thread publishes what it holds: autofp's
 * queue batches), then a wait of at most IDLE_TICK_MS. A file source is
 * never dry. */
int capture_get(Capture *cap, Packet *p, void (*dry)(void *), void *arg);
/* One thread from capture to logging: single (the main thread), and each
 * thread of workers (share: how many split the flow memcap). */
int capture_worker(Engine *e, Capture *cap, PacketPool *pool, ThreadCounters *rx_tc,
		   unsigned id, unsigned share, int main_thread);

int run_single(Engine *e, PacketPool *pool, ThreadCounters *rx_tc);   /* single.c */
int run_workers(Engine *e);                                           /* workers.c */
int run_autofp(Engine *e, PacketPool *pool, ThreadCounters *rx_tc);   /* autofp.c */

#endif
