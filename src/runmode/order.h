/* autofp's capture order for thresholds (order.c).
 *
 * Thresholds count matches across flows, and so across workers; a worker
 * about to count one waits until every packet dispatched before its own is
 * done, so that autofp counts in capture order, as single does. The RX
 * thread numbers the packets (order_seq, 1-based) as it dispatches them;
 * each worker marks its packets done; the watermark is the first number not
 * done yet. */
#ifndef RUNMODE_ORDER_H
#define RUNMODE_ORDER_H

#include "decode/packet.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

/* Dispatch-order watermark: the first order_seq not yet processed by any
 * worker. Thresholds count across flows (and so across workers); a worker
 * about to count one waits for the watermark to reach its packet so that
 * autofp counts in capture order, as single does. done[] holds the packets
 * finished ahead of the watermark; the reader keeps that span under `span`. */
typedef struct OrderTrack {
	_Atomic uint64_t watermark;
	_Atomic uint8_t *done;
	uint64_t mask;
	uint64_t next_seq;          /* RX thread only */
	uint64_t span;              /* most sequence numbers pending at once */
	/* A thread that must wait sleeps on `moved`, which order_done()
	 * signals when the watermark advances and someone sleeps. */
	_Atomic unsigned sleepers;
	pthread_mutex_t lock;
	pthread_cond_t moved;
	uint32_t valve_ms;          /* order_wait gives up after this long
				     * without progress (2 s; tests shorten it) */
	_Atomic uint64_t valve_trips; /* how often it gave up */
	_Atomic uint64_t sleeps;    /* waits that slept (not ready at once) */
	int inited;                 /* 1: lock, 2: and moved (order_free) */
} OrderTrack;

/* o zeroed first; inflight: the most packets in the queues at once.
 * order_free() also undoes a failed order_init(). */
int order_init(OrderTrack *o, uint32_t inflight);
void order_free(OrderTrack *o);
/* A worker finished packet seq (0: a packet without one). */
void order_done(OrderTrack *o, uint64_t seq);
/* detect_order_fn (detect/engine.h): waits until every packet dispatched
 * before p is done. arg: the OrderTrack. The RX thread publishes all
 * queues before it blocks, so the wait always ends; valve_ms without any
 * progress of the watermark is a safety valve that keeps a future bug from
 * hanging a run: it is counted (valve_trips) and logged once. */
void order_wait(void *arg, const Packet *p);
/* RX thread: the number of the next packet. done[] holds one flag per
 * number modulo its size, so the numbers between the watermark and the
 * newest one must fit in it; a fast worker may otherwise run thousands of
 * packets ahead of a slow one and alias flags. The reader is held back
 * instead (rare: one worker must lag by half the table), publish(arg)
 * first so that the workers have every packet it holds; the oldest packet
 * never waits for anything, so this ends. */
uint64_t order_next(OrderTrack *o, void (*publish)(void *), void *arg);

#endif
