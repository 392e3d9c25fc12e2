/* Capture order for thresholds in autofp (order.h). */
#include "runmode/order.h"
#include "util/log.h"

#include <sched.h>
#include <stdlib.h>
#include <time.h>

int order_init(OrderTrack *o, uint32_t inflight)
{
	uint64_t size = 64;

	while (size < 2ull * inflight + 64)
		size <<= 1;
	o->done = calloc(size, sizeof(*o->done));
	o->mask = size - 1;
	atomic_init(&o->watermark, 1);   /* order_seq is 1-based */
	o->next_seq = 1;
	o->span = size / 2;
	return o->done ? 0 : -1;
}

void order_done(OrderTrack *o, uint64_t seq)
{
	uint64_t w;

	if (!seq)
		return;
	atomic_store_explicit(&o->done[seq & o->mask], 1, memory_order_release);
	w = atomic_load(&o->watermark);
	while (atomic_load_explicit(&o->done[w & o->mask], memory_order_acquire)) {
		if (atomic_compare_exchange_weak(&o->watermark, &w, w + 1)) {
			atomic_store_explicit(&o->done[w & o->mask], 0, memory_order_relaxed);
			w = w + 1;
		}
	}
}

/* Waits until every packet dispatched before p is done. The RX thread
 * publishes all queues before it blocks, so the wait always ends; the 2 s
 * bound (no progress of the watermark for 2 s) is a safety valve that keeps a
 * future bug from hanging a run: it says so in the log, once. */
void order_wait(void *arg, const Packet *p)
{
	OrderTrack *o = arg;
	struct timespec t0, now;
	uint64_t last, cur;
	int spins = 0;

	if (!p->order_seq)
		return;
	last = atomic_load(&o->watermark);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while ((cur = atomic_load(&o->watermark)) < p->order_seq) {
		sched_yield();
		if (cur != last) {
			last = cur;
			clock_gettime(CLOCK_MONOTONIC, &t0);
			continue;
		}
		if (++spins % 1024)
			continue;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - t0.tv_sec >= 2) {
			if (!atomic_exchange(&o->valve_logged, 1))
				log_warning("autofp: threshold ordering gave up waiting for packet %llu "
					    "(watermark %llu); counts may differ from single",
					    (unsigned long long)p->order_seq,
					    (unsigned long long)cur);
			return;
		}
	}
}

uint64_t order_next(OrderTrack *o, void (*publish)(void *), void *arg)
{
	if (o->next_seq - atomic_load(&o->watermark) >= o->span) {
		publish(arg);
		while (o->next_seq - atomic_load(&o->watermark) >= o->span)
			sched_yield();
	}
	return o->next_seq++;
}

void order_free(OrderTrack *o)
{
	free(o->done);
	o->done = NULL;
}
