/* A bounded queue of eve records between the threads that produce them and
 * the one writer thread of a network sink (sink.c).
 *
 * One preallocated byte ring: each record is a 4-byte length and its bytes.
 * A push copies the record in under the lock (no allocation) or, when the
 * ring has no room, refuses it and counts it: a slow or dead sink costs the
 * packet threads one memcpy, never a wait. The writer pops records in
 * batches into a buffer of its own, so the lock is held for copies only. */
#ifndef OUTPUT_SINK_QUEUE_H
#define OUTPUT_SINK_QUEUE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/* The largest record a queue takes: the writer's batch buffer holds at
 * least one. Bigger records are refused (counted as dropped). */
#define SINK_RECORD_MAX (1u << 20)

typedef struct SinkQueue {
	uint8_t *ring;
	size_t cap;                 /* bytes */
	size_t head;                /* next byte to pop */
	size_t used;                /* bytes queued (headers included) */
	uint64_t records;           /* records queued */
	uint64_t dropped;           /* pushes refused: ring full or record too big */
	int closing;                /* sink_queue_close(): the writer should finish */
	pthread_mutex_t lock;
	pthread_cond_t cond;        /* a record arrived, or closing */
} SinkQueue;

/* cap bytes of ring (at least 64 KiB). 0, or -1 when out of memory. */
int sink_queue_init(SinkQueue *q, size_t cap);
void sink_queue_destroy(SinkQueue *q);

/* Queues one record made of a then b (either may be empty). 0, or -1 when
 * it does not fit (counted in q->dropped). Wakes the writer. */
int sink_queue_push(SinkQueue *q, const void *a, size_t alen, const void *b, size_t blen);

/* Moves up to max records, whole, into out (outcap >= SINK_RECORD_MAX + 4)
 * as [u32 length][bytes]...; waits up to timeout_ms for the first one when
 * the queue is empty (returns early when it is closed). Returns the number
 * of records moved. */
size_t sink_queue_pop(SinkQueue *q, uint8_t *out, size_t outcap, size_t max, int timeout_ms);

/* Walks records popped into buf: *pos starts at 0; each call gives the next
 * record's bytes and length. */
static inline const uint8_t *sink_batch_next(const uint8_t *buf, size_t *pos, uint32_t *len)
{
	const uint8_t *p = buf + *pos;
	uint32_t n = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
		     (uint32_t)p[3] << 24;

	*len = n;
	*pos += 4 + (size_t)n;
	return p + 4;
}

/* Marks the queue closed and wakes the writer; pushes still queue (the
 * writer drains what it can within its bound). */
void sink_queue_close(SinkQueue *q);
/* Sleeps up to ms, returning early when the queue is closed. 1 if closed. */
int sink_queue_wait_closed(SinkQueue *q, int ms);

/* Snapshot of the counts under the lock. */
void sink_queue_stats(SinkQueue *q, uint64_t *records, size_t *bytes, uint64_t *dropped);

#endif
