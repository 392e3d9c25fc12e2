/* GPU stream coverage: see stream-cov.h. */
#include "detect/stream-cov.h"

#include <stdlib.h>
#include <string.h>

int scov_span(uint64_t so, uint32_t len, uint32_t t, uint32_t maxlen, uint64_t *e_lo,
	      uint64_t *e_hi)
{
	*e_hi = so + len;
	*e_lo = so + 1;
	/* a match of up to maxlen bytes ending at e starts at e - maxlen or
	 * later: the scan saw it when that is at or after its first byte, or
	 * when its context reaches back to the stream's first byte */
	if (so != t && so - t + maxlen > *e_lo)
		*e_lo = so - t + maxlen;
	return *e_lo <= *e_hi;
}

/* Keeps the entries for which drop() is false, in order, with their ids
 * moved down so that ids stay packed in entry order. */
static void compact(StreamCov *c, int (*drop)(const StreamCovEntry *, uint64_t, uint64_t),
		    uint64_t a, uint64_t b)
{
	uint32_t k = 0, at = 0;

	for (uint32_t i = 0; i < c->n; i++) {
		StreamCovEntry e = c->e[i];

		if (drop(&e, a, b))
			continue;
		if (e.nids && e.id_off != at)
			memmove(c->ids + at, c->ids + e.id_off, (size_t)e.nids * sizeof(*c->ids));
		e.id_off = at;
		at += e.nids;
		c->e[k++] = e;
	}
	c->n = k;
	c->nids = at;
}

/* The first entry is the oldest: it goes, with its ids. */
static void drop_oldest(StreamCov *c)
{
	uint32_t k;

	if (!c->n)
		return;
	k = c->e[0].nids;
	memmove(c->ids, c->ids + k, (size_t)(c->nids - k) * sizeof(*c->ids));
	memmove(c->e, c->e + 1, (size_t)(c->n - 1) * sizeof(*c->e));
	c->n--;
	c->nids -= k;
	for (uint32_t i = 0; i < c->n; i++)
		c->e[i].id_off -= k;
}

static int grow(void **p, uint32_t *cap, uint32_t want, uint32_t max, uint32_t first,
		size_t elem)
{
	uint32_t n = *cap ? *cap : first;
	void *q;

	while (n < want)
		n *= 2;
	if (n > max)
		n = max;
	if (n < want)
		return -1;
	if (n == *cap)
		return 0;
	q = realloc(*p, (size_t)n * elem);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

int scov_ensure(StreamCov **cp)
{
	if (!*cp)
		*cp = calloc(1, sizeof(**cp));
	return *cp ? 0 : -1;
}

int scov_add(StreamCov **cp, uint64_t b_lo, uint64_t so, uint64_t e_lo, uint64_t e_hi,
	     const uint32_t *ids, uint32_t nids)
{
	StreamCov *c;

	if (nids > SCOV_IDS_MAX || scov_ensure(cp) != 0)
		return -1;
	c = *cp;
	while (c->n == SCOV_ENTRIES_MAX || c->nids + nids > SCOV_IDS_MAX)
		drop_oldest(c);
	if (grow((void **)&c->e, &c->cap, c->n + 1, SCOV_ENTRIES_MAX, 4, sizeof(*c->e)) ||
	    grow((void **)&c->ids, &c->ids_cap, c->nids + nids, SCOV_IDS_MAX, 64,
		 sizeof(*c->ids)))
		return -1;
	if (nids)
		memcpy(c->ids + c->nids, ids, (size_t)nids * sizeof(*ids));
	c->e[c->n++] = (StreamCovEntry){ .b_lo = b_lo, .so = so, .e_lo = e_lo, .e_hi = e_hi,
					 .id_off = c->nids, .nids = nids };
	c->nids += nids;
	return 0;
}

void scov_save_tail(StreamCov *c, uint64_t end, const uint8_t *b, uint32_t n)
{
	if (!c || end < c->tail_end)
		return;
	if (n > SCOV_TAIL_MAX) {
		b += n - SCOV_TAIL_MAX;
		n = SCOV_TAIL_MAX;
	}
	memcpy(c->tail, b, n);
	c->tail_len = n;
	c->tail_end = end;
}

int scov_tail_equal(const StreamCov *c, uint64_t off, const uint8_t *b, uint32_t n)
{
	if (!n)
		return 1;
	if (!c || off + n > c->tail_end || off < c->tail_end - c->tail_len)
		return 0;
	return !memcmp(c->tail + (off - (c->tail_end - c->tail_len)), b, n);
}

static int drop_overlap(const StreamCovEntry *e, uint64_t lo, uint64_t hi)
{
	return e->b_lo < hi && e->e_hi > lo;
}

void scov_invalidate(StreamCov *c, uint64_t lo, uint64_t hi)
{
	if (!c || lo >= hi)
		return;
	if (c->n)
		compact(c, drop_overlap, lo, hi);
	/* the saved tail vouches for bytes that may be other bytes now */
	if (c->tail_len && lo < c->tail_end && hi > c->tail_end - c->tail_len)
		c->tail_len = 0;
}

static int drop_below(const StreamCovEntry *e, uint64_t floor, uint64_t unused)
{
	(void)unused;
	return e->e_hi <= floor;
}

void scov_prune(StreamCov *c, uint64_t floor)
{
	if (c && c->n)
		compact(c, drop_below, floor, 0);
}

void scov_free(StreamCov *c)
{
	if (!c)
		return;
	free(c->e);
	free(c->ids);
	free(c);
}

/* How a window [base, hi] of ends uses entry e: not at all (its ends go to
 * the CPU), with all its ids, or without those flagged SCOV_CTX. */
enum { SCOV_USE_NONE, SCOV_USE_ALL, SCOV_USE_PAYLOAD };

static int entry_use(const StreamCovEntry *e, uint64_t base, uint64_t hi)
{
	/* the entry knows its ids, not where each occurrence ends: a window
	 * that ends inside its payload, or starts inside it, could take ids
	 * that lie outside; the CPU scans those ends, exactly */
	if (e->e_hi > hi || base > e->so)
		return SCOV_USE_NONE;
	/* the whole scan lies in the window: every occurrence does */
	if (base <= e->b_lo)
		return SCOV_USE_ALL;
	/* the window starts at the payload: an occurrence that starts in the
	 * context is not in it, one wholly in the payload is */
	if (base == e->so)
		return SCOV_USE_PAYLOAD;
	/* it starts inside the context: a context occurrence may start before
	 * it or not */
	return SCOV_USE_NONE;
}

static uint64_t window(const StreamCov *c, uint64_t base, uint32_t len, uint32_t maxlen,
		       int exact, scov_ids_fn ids_cb, scov_cpu_fn cpu_cb, void *arg)
{
	uint32_t idx[SCOV_ENTRIES_MAX], m = 0;
	uint64_t lo = base + 1, hi = base + len, at = lo, cpu = 0;
	uint64_t run_from = 0, run_to = 0;
	int have_run = 0;

	if (!len)
		return 0;
	/* the entries that cover some end of the window, by e_lo */
	for (uint32_t i = 0; c && i < c->n; i++) {
		const StreamCovEntry *e = &c->e[i];
		uint32_t j;
		int use;

		if (e->e_lo > hi || e->e_hi < lo)
			continue;
		use = exact ? entry_use(e, base, hi) : SCOV_USE_ALL;
		if (use == SCOV_USE_NONE)
			continue;
		ids_cb(arg, c->ids + e->id_off, e->nids, use == SCOV_USE_ALL);
		for (j = m++; j > 0 && c->e[idx[j - 1]].e_lo > e->e_lo; j--)
			idx[j] = idx[j - 1];
		idx[j] = i;
	}
	/* sweep the ends [lo, hi]; each gap [at, u) becomes bytes
	 * [max(base, at - maxlen), u - 1), merged with the previous range when
	 * they touch, so no byte is scanned twice */
	for (uint32_t k = 0; k <= m && at <= hi; k++) {
		uint64_t next = k < m ? c->e[idx[k]].e_lo : hi + 1;

		if (next > at) {
			uint64_t u = next > hi + 1 ? hi + 1 : next;
			uint64_t from = at - base > maxlen ? at - maxlen : base, to = u - 1;

			if (have_run && from <= run_to) {
				run_to = to;
			} else {
				if (have_run) {
					cpu_cb(arg, run_from, run_to);
					cpu += run_to - run_from;
				}
				run_from = from;
				run_to = to;
				have_run = 1;
			}
		}
		if (k < m && c->e[idx[k]].e_hi + 1 > at)
			at = c->e[idx[k]].e_hi + 1;
	}
	if (have_run) {
		cpu_cb(arg, run_from, run_to);
		cpu += run_to - run_from;
	}
	return cpu;
}

uint64_t scov_window(const StreamCov *c, uint64_t base, uint32_t len, uint32_t maxlen,
		     scov_ids_fn ids_cb, scov_cpu_fn cpu_cb, void *arg)
{
	return window(c, base, len, maxlen, 0, ids_cb, cpu_cb, arg);
}

uint64_t scov_window_exact(const StreamCov *c, uint64_t base, uint32_t len, uint32_t maxlen,
			   scov_ids_fn ids_cb, scov_cpu_fn cpu_cb, void *arg)
{
	return window(c, base, len, maxlen, 1, ids_cb, cpu_cb, arg);
}
