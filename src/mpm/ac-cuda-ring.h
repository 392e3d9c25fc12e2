/* The ac-cuda payload ring: a circular byte buffer in page-locked memory
 * into which a packet thread copies payloads (one ring per lane). A batch is one contiguous run
 * of it (one copy-in), so a payload that does not fit before the end of the
 * buffer starts the next batch at offset 0 and the tail is left unused
 * until the ring wraps again.
 *
 * Single owner: only the lane's packet thread calls these functions. Space comes back
 * when the oldest live batch is released (ac_ring_free_to), in order.
 */
#ifndef MPM_AC_CUDA_RING_H
#define MPM_AC_CUDA_RING_H

#include <stdint.h>

typedef struct AcRing {
	uint8_t *base;
	uint64_t size;
	uint64_t head;   /* next write */
	uint64_t tail;   /* first live byte */
	int empty;       /* head == tail means empty (not full) */
} AcRing;

enum ac_ring_fit {
	AC_RING_HERE = 0, /* fits at head, contiguous with what is before */
	AC_RING_WRAP,     /* fits only at offset 0: a new batch must start */
	AC_RING_FULL,     /* no room: the payload goes to the CPU matcher */
};

void ac_ring_init(AcRing *r, uint8_t *base, uint64_t size);
/* Where len bytes would go. Does not change the ring. */
enum ac_ring_fit ac_ring_fit(const AcRing *r, uint64_t len);
/* Where a new batch of up to `batch` bytes, starting with len, goes: as
 * ac_ring_fit, but back at offset 0 as soon as the bytes before the live
 * data hold a whole batch. The ring then keeps to its first bytes, which
 * stay warm in the cache, and touches no more pages than its live
 * batches need, however large it is. */
enum ac_ring_fit ac_ring_fit_batch(const AcRing *r, uint64_t len, uint64_t batch);
/* Takes len bytes at head (after AC_RING_HERE) or at 0 (after
 * AC_RING_WRAP); returns the offset of the first byte. */
uint64_t ac_ring_take(AcRing *r, uint64_t len, enum ac_ring_fit how);
/* The oldest live data now starts at pos (the next live batch's start;
 * something is still live: ac_ring_free_all when nothing is). */
void ac_ring_free_to(AcRing *r, uint64_t pos);
/* Nothing is live any more. */
void ac_ring_free_all(AcRing *r);
/* Bytes not available to ac_ring_take at head: live data, plus the unused
 * tail left behind by a wrap. */
uint64_t ac_ring_used(const AcRing *r);

#endif
