/* ac-cuda payload ring: see ac-cuda-ring.h. */
#include "mpm/ac-cuda-ring.h"

void ac_ring_init(AcRing *r, uint8_t *base, uint64_t size)
{
	r->base = base;
	r->size = size;
	r->head = r->tail = 0;
	r->empty = 1;
}

enum ac_ring_fit ac_ring_fit(const AcRing *r, uint64_t len)
{
	if (len > r->size)
		return AC_RING_FULL;
	if (r->empty)
		return r->head + len <= r->size ? AC_RING_HERE : AC_RING_WRAP;
	if (r->head > r->tail) {
		/* live data is [tail, head): room after head, then before tail */
		if (r->head + len <= r->size)
			return AC_RING_HERE;
		return len <= r->tail ? AC_RING_WRAP : AC_RING_FULL;
	}
	/* wrapped (or exactly full): live data is [tail, size) + [0, head) */
	return r->head + len <= r->tail ? AC_RING_HERE : AC_RING_FULL;
}

enum ac_ring_fit ac_ring_fit_batch(const AcRing *r, uint64_t len, uint64_t batch)
{
	enum ac_ring_fit fit = ac_ring_fit(r, len);

	if (fit == AC_RING_HERE && !r->empty && r->head > r->tail && r->tail >= batch)
		return AC_RING_WRAP;
	return fit;
}

uint64_t ac_ring_take(AcRing *r, uint64_t len, enum ac_ring_fit how)
{
	uint64_t at;

	if (how == AC_RING_WRAP) {
		/* an empty ring restarts at 0: tail follows */
		if (r->empty)
			r->tail = 0;
		r->head = 0;
	}
	at = r->head;
	r->head += len;
	r->empty = 0;
	return at;
}

/* pos is the start of a live batch, so the ring is not empty even when pos
 * == head: that is a ring exactly full (the newest batch ended where the
 * oldest begins). Taking it for empty let the next batch overwrite both. */
void ac_ring_free_to(AcRing *r, uint64_t pos)
{
	r->tail = pos;
}

void ac_ring_free_all(AcRing *r)
{
	r->head = r->tail = 0;
	r->empty = 1;
}

uint64_t ac_ring_used(const AcRing *r)
{
	if (r->empty)
		return 0;
	if (r->head > r->tail)
		return r->head - r->tail;
	return r->size - r->tail + r->head;
}
