/* The bounded record queue of a network sink: see sink-queue.h. */
#include "output/sink-queue.h"
#include "util/deadline.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int sink_queue_init(SinkQueue *q, size_t cap)
{
	memset(q, 0, sizeof(*q));
	if (cap < (64u << 10))
		cap = 64u << 10;
	q->ring = malloc(cap);
	if (!q->ring)
		return -1;
	q->cap = cap;
	pthread_mutex_init(&q->lock, NULL);
	/* timed waits on the monotonic clock: a clock step must not stretch them */
	{
		pthread_condattr_t ca;

		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&q->cond, &ca);
		pthread_condattr_destroy(&ca);
	}
	return 0;
}

void sink_queue_destroy(SinkQueue *q)
{
	if (!q->ring)
		return;
	free(q->ring);
	q->ring = NULL;
	pthread_mutex_destroy(&q->lock);
	pthread_cond_destroy(&q->cond);
}

/* Copies n bytes in at ring offset off, wrapping. */
static void ring_put(SinkQueue *q, size_t off, const void *src, size_t n)
{
	size_t first = q->cap - off;

	if (n <= first) {
		memcpy(q->ring + off, src, n);
	} else {
		memcpy(q->ring + off, src, first);
		memcpy(q->ring, (const uint8_t *)src + first, n - first);
	}
}

static void ring_get(const SinkQueue *q, size_t off, void *dst, size_t n)
{
	size_t first = q->cap - off;

	if (n <= first) {
		memcpy(dst, q->ring + off, n);
	} else {
		memcpy(dst, q->ring + off, first);
		memcpy((uint8_t *)dst + first, q->ring, n - first);
	}
}

int sink_queue_push(SinkQueue *q, const void *a, size_t alen, const void *b, size_t blen)
{
	size_t len = alen + blen, tail;
	uint8_t hdr[4];

	hdr[0] = (uint8_t)len;
	hdr[1] = (uint8_t)(len >> 8);
	hdr[2] = (uint8_t)(len >> 16);
	hdr[3] = (uint8_t)(len >> 24);
	pthread_mutex_lock(&q->lock);
	if (len > SINK_RECORD_MAX || q->cap - q->used < len + 4) {
		q->dropped++;
		pthread_mutex_unlock(&q->lock);
		return -1;
	}
	tail = (q->head + q->used) % q->cap;
	ring_put(q, tail, hdr, 4);
	tail = (tail + 4) % q->cap;
	if (alen)
		ring_put(q, tail, a, alen);
	tail = (tail + alen) % q->cap;
	if (blen)
		ring_put(q, tail, b, blen);
	q->used += len + 4;
	q->records++;
	/* one writer: wake it only on the empty -> non-empty edge, which is when
	 * it may be waiting; otherwise it will find the record on its next pop */
	if (q->records == 1)
		pthread_cond_signal(&q->cond);
	pthread_mutex_unlock(&q->lock);
	return 0;
}

size_t sink_queue_pop(SinkQueue *q, uint8_t *out, size_t outcap, size_t max, int timeout_ms)
{
	size_t n = 0, pos = 0;
	struct timespec dl;

	pthread_mutex_lock(&q->lock);
	if (!q->records && !q->closing && timeout_ms > 0) {
		deadline_in(&dl, timeout_ms);
		while (!q->records && !q->closing)
			if (pthread_cond_timedwait(&q->cond, &q->lock, &dl) == ETIMEDOUT)
				break;
	}
	while (n < max && q->records) {
		uint8_t hdr[4];
		uint32_t len;

		ring_get(q, q->head, hdr, 4);
		len = (uint32_t)hdr[0] | (uint32_t)hdr[1] << 8 | (uint32_t)hdr[2] << 16 |
		      (uint32_t)hdr[3] << 24;
		if (pos + 4 + len > outcap)
			break;
		memcpy(out + pos, hdr, 4);
		ring_get(q, (q->head + 4) % q->cap, out + pos + 4, len);
		pos += 4 + len;
		q->head = (q->head + 4 + len) % q->cap;
		q->used -= 4 + len;
		q->records--;
		n++;
	}
	if (!q->used)
		q->head = 0;    /* keeps records contiguous while the queue keeps up */
	pthread_mutex_unlock(&q->lock);
	return n;
}

void sink_queue_close(SinkQueue *q)
{
	pthread_mutex_lock(&q->lock);
	q->closing = 1;
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

int sink_queue_wait_closed(SinkQueue *q, int ms)
{
	struct timespec dl;
	int closed;

	deadline_in(&dl, ms);
	pthread_mutex_lock(&q->lock);
	while (!q->closing)
		if (pthread_cond_timedwait(&q->cond, &q->lock, &dl) == ETIMEDOUT)
			break;
	closed = q->closing;
	pthread_mutex_unlock(&q->lock);
	return closed;
}

void sink_queue_stats(SinkQueue *q, uint64_t *records, size_t *bytes, uint64_t *dropped)
{
	pthread_mutex_lock(&q->lock);
	if (records)
		*records = q->records;
	if (bytes)
		*bytes = q->used;
	if (dropped)
		*dropped = q->dropped;
	pthread_mutex_unlock(&q->lock);
}
