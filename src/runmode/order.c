/* Capture order for thresholds in autofp (order.h). */
#include "runmode/order.h"
#include "util/deadline.h"
#include "util/log.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

int order_init(OrderTrack *o, uint32_t inflight)
{
	pthread_condattr_t ca;
	uint64_t size = 64;
	int rc;

	while (size < 2ull * inflight + 64)
		size <<= 1;
	o->done = calloc(size, sizeof(*o->done));
	o->mask = size - 1;
	atomic_init(&o->watermark, 1);   /* order_seq is 1-based */
	o->next_seq = 1;
	o->span = size / 2;
	o->valve_ms = 2000;
	atomic_init(&o->sleepers, 0);
	atomic_init(&o->valve_trips, 0);
	atomic_init(&o->sleeps, 0);
	if (pthread_mutex_init(&o->lock, NULL) != 0)
		return -1;
	o->inited = 1;
	if (pthread_condattr_init(&ca) != 0)
		return -1;
	/* the valve measures time without progress, not the wall clock */
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	rc = pthread_cond_init(&o->moved, &ca);
	pthread_condattr_destroy(&ca);
	if (rc != 0)
		return -1;
	o->inited = 2;
	return o->done ? 0 : -1;
}

void order_done(OrderTrack *o, uint64_t seq)
{
	uint64_t w;
	int moved = 0;

	if (!seq)
		return;
	atomic_store_explicit(&o->done[seq & o->mask], 1, memory_order_release);
	w = atomic_load(&o->watermark);
	while (atomic_load_explicit(&o->done[w & o->mask], memory_order_acquire)) {
		if (atomic_compare_exchange_weak(&o->watermark, &w, w + 1)) {
			atomic_store_explicit(&o->done[w & o->mask], 0, memory_order_relaxed);
			w = w + 1;
			moved = 1;
		}
	}
	if (moved && atomic_load(&o->sleepers)) {
		pthread_mutex_lock(&o->lock);
		pthread_cond_broadcast(&o->moved);
		pthread_mutex_unlock(&o->lock);
	}
}

/* Sleeps until the watermark reaches target; 1 then. With valve, 0 after
 * valve_ms without progress. No wake-up is lost: a sleeper counts itself
 * before it reads the watermark under the lock, and order_done() advances
 * the watermark before it reads the count and signals under the lock
 * (all sequentially consistent). */
static int order_sleep(OrderTrack *o, uint64_t target, int valve)
{
	struct timespec deadline;
	uint64_t last = atomic_load(&o->watermark), cur;
	int reached = 1;

	atomic_fetch_add(&o->sleepers, 1);
	atomic_fetch_add_explicit(&o->sleeps, 1, memory_order_relaxed);
	pthread_mutex_lock(&o->lock);
	deadline_in(&deadline, o->valve_ms);
	while ((cur = atomic_load(&o->watermark)) < target) {
		int rc;

		if (cur != last) {
			last = cur;
			deadline_in(&deadline, o->valve_ms);
		}
		if (!valve) {
			pthread_cond_wait(&o->moved, &o->lock);
			continue;
		}
		rc = pthread_cond_timedwait(&o->moved, &o->lock, &deadline);
		if (rc == ETIMEDOUT && atomic_load(&o->watermark) == last) {
			reached = 0;
			break;
		}
	}
	pthread_mutex_unlock(&o->lock);
	atomic_fetch_sub(&o->sleepers, 1);
	return reached;
}

void order_wait(void *arg, const Packet *p)
{
	OrderTrack *o = arg;

	if (!p->order_seq || atomic_load(&o->watermark) >= p->order_seq)
		return;
	if (order_sleep(o, p->order_seq, 1))
		return;
	if (atomic_fetch_add(&o->valve_trips, 1) == 0)
		log_warning("autofp: threshold ordering gave up waiting for packet %llu "
			    "(watermark %llu); counts may differ from single",
			    (unsigned long long)p->order_seq,
			    (unsigned long long)atomic_load(&o->watermark));
}

uint64_t order_next(OrderTrack *o, void (*publish)(void *), void *arg)
{
	if (o->next_seq - atomic_load(&o->watermark) >= o->span) {
		publish(arg);
		order_sleep(o, o->next_seq - o->span + 1, 0);
	}
	return o->next_seq++;
}

void order_free(OrderTrack *o)
{
	uint64_t trips = atomic_load(&o->valve_trips);

	if (trips > 1)
		log_warning("autofp: threshold ordering gave up %llu times in all",
			    (unsigned long long)trips);
	if (o->inited > 1)
		pthread_cond_destroy(&o->moved);
	if (o->inited > 0)
		pthread_mutex_destroy(&o->lock);
	o->inited = 0;
	free(o->done);
	o->done = NULL;
}
