#include "runmode/ring.h"

#include <stdlib.h>
#include <time.h>

int packet_ring_init(PacketRing *r, uint32_t size)
{
	uint32_t n = 2;

	while (n < size)
		n <<= 1;
	r->slots = calloc(n, sizeof(*r->slots));
	if (!r->slots)
		return -1;
	r->mask = n - 1;
	r->head = r->tail = r->tail_local = 0;
	r->closed = 0;
	r->consumer_waiting = r->producer_waiting = 0;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->cond, NULL);
	return 0;
}

void packet_ring_destroy(PacketRing *r)
{
	if (!r->slots)
		return;
	free(r->slots);
	r->slots = NULL;
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->cond);
}

/* The sleeping side sets its flag and re-checks under the lock; the other side
 * publishes, then (seq_cst) reads the flag and signals under the lock. One of
 * the two always sees the other, so no wake-up is lost. The timed wait is a
 * safety net only. */
static void ring_sleep(PacketRing *r, int *flag, int (*ready)(PacketRing *))
{
	struct timespec ts;

	pthread_mutex_lock(&r->lock);
	__atomic_store_n(flag, 1, __ATOMIC_SEQ_CST);
	if (!ready(r)) {
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 10 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&r->cond, &r->lock, &ts);
	}
	__atomic_store_n(flag, 0, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&r->lock);
}

static void ring_wake(PacketRing *r, int *flag)
{
	if (__atomic_load_n(flag, __ATOMIC_SEQ_CST)) {
		pthread_mutex_lock(&r->lock);
		pthread_cond_broadcast(&r->cond);
		pthread_mutex_unlock(&r->lock);
	}
}

static int ring_has_room(PacketRing *r)
{
	return r->tail_local - __atomic_load_n(&r->head, __ATOMIC_SEQ_CST) <= r->mask;
}

static int ring_has_data(PacketRing *r)
{
	return __atomic_load_n(&r->tail, __ATOMIC_SEQ_CST) !=
		       __atomic_load_n(&r->head, __ATOMIC_RELAXED) ||
	       __atomic_load_n(&r->closed, __ATOMIC_SEQ_CST);
}

int packet_ring_full(PacketRing *r)
{
	return !ring_has_room(r);
}

void packet_ring_flush(PacketRing *r)
{
	if (__atomic_load_n(&r->tail, __ATOMIC_RELAXED) == r->tail_local)
		return;
	__atomic_store_n(&r->tail, r->tail_local, __ATOMIC_SEQ_CST);
	ring_wake(r, &r->consumer_waiting);
}

void packet_ring_push(PacketRing *r, Packet *p)
{
	int spins = 0;

	while (!ring_has_room(r)) {
		/* The consumer may be waiting for what we have not published. */
		packet_ring_flush(r);
		if (++spins < 64)
			continue;
		ring_sleep(r, &r->producer_waiting, ring_has_room);
	}
	r->slots[r->tail_local & r->mask] = p;
	r->tail_local++;
	if (r->tail_local - __atomic_load_n(&r->tail, __ATOMIC_RELAXED) >= PACKET_RING_BATCH)
		packet_ring_flush(r);
}

void packet_ring_close(PacketRing *r)
{
	packet_ring_flush(r);
	__atomic_store_n(&r->closed, 1, __ATOMIC_SEQ_CST);
	pthread_mutex_lock(&r->lock);
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
}

Packet *packet_ring_try_pop(PacketRing *r)
{
	uint32_t head = __atomic_load_n(&r->head, __ATOMIC_RELAXED);
	Packet *p;

	if (head == __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE))
		return NULL;
	p = r->slots[head & r->mask];
	__atomic_store_n(&r->head, head + 1, __ATOMIC_SEQ_CST);
	ring_wake(r, &r->producer_waiting);
	return p;
}

Packet *packet_ring_pop(PacketRing *r)
{
	int spins = 0;

	for (;;) {
		Packet *p = packet_ring_try_pop(r);

		if (p)
			return p;
		if (__atomic_load_n(&r->closed, __ATOMIC_SEQ_CST)) {
			/* closed is set after the last push: one more look */
			return packet_ring_try_pop(r);
		}
		if (++spins < 64)
			continue;
		ring_sleep(r, &r->consumer_waiting, ring_has_data);
	}
}

Packet *packet_ring_pop_timed(PacketRing *r, int timeout_ms, int *closed)
{
	struct timespec t0, now;
	int spins = 0;

	*closed = 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		Packet *p = packet_ring_try_pop(r);

		if (p)
			return p;
		if (__atomic_load_n(&r->closed, __ATOMIC_SEQ_CST)) {
			p = packet_ring_try_pop(r);
			*closed = !p;
			return p;
		}
		if (++spins < 64)
			continue;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000 >=
		    timeout_ms)
			return NULL;
		/* at most 10 ms at a time (ring_sleep's safety net) */
		ring_sleep(r, &r->consumer_waiting, ring_has_data);
	}
}
