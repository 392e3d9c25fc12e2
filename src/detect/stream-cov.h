/* GPU stream coverage (mpm-algo: ac-cuda): which match end offsets of a
 * TCP stream direction have their fast-pattern matches known already, from
 * the GPU scans of the packets that brought those bytes.
 *
 * The RX thread sends each TCP payload to the GPU a second time behind up
 * to L - 1 bytes of context (the end of the previous payload of that flow
 * direction, L = the longest stream fast pattern), scanned with the stream
 * groups' automaton. A worker that finds, after reassembly, the context and
 * payload stored in the stream exactly as they were scanned (at offsets
 * [so - t, so + len)) records an entry: every match ending in that packet's
 * bytes is one of the entry's pattern ids. A stream window then takes the
 * ids of the entries its end offsets fall in, and scans on the CPU only
 * the ends no entry covers (with L - 1 bytes before them). A window takes
 * an entry's ids only where they are exactly what a CPU scan of the
 * window finds in the entry's ends: the entry says which of its ids occur
 * only where they start in the context (SCOV_CTX), so a window that starts
 * at the packet's payload leaves those out (they begin before it, or lie in
 * the window before), and a window that starts in the middle of a packet,
 * or ends before the packet does, scans that packet's ends on the CPU. The
 * match set is then exactly a CPU scan's (bar context bytes the worker
 * could not check: their ids may stay), and the candidates too.
 *
 * Offsets here are exclusive match ends: a match of bytes [a, e) ends at e.
 * An entry covers the ends [e_lo, e_hi] and holds the pattern ids found in
 * bytes [b_lo, e_hi), which a later packet that rewrites any of them
 * invalidates. Memory per direction is bounded (SCOV_ENTRIES_MAX entries,
 * SCOV_IDS_MAX ids): past it the oldest entries go, and their ends are then
 * scanned on the CPU. Per flow, owned by the flow's detect state; no locks
 * (one worker owns a flow). */
#ifndef DETECT_STREAM_COV_H
#define DETECT_STREAM_COV_H

#include <stdint.h>

#define SCOV_ENTRIES_MAX 64
#define SCOV_IDS_MAX 8192

/* An entry's id with this bit set: an occurrence that starts in the
 * context, before the payload; without it, one wholly inside the payload.
 * An id may be there both ways. (cuda/group-kernel.h: ACG_CTX_START, the
 * device's flag.) */
#define SCOV_CTX 0x80000000u

typedef struct StreamCovEntry {
	uint64_t b_lo;            /* first byte the GPU scanned (context included) */
	uint64_t so;              /* the payload's first byte */
	uint64_t e_lo, e_hi;      /* covered match ends, inclusive */
	uint32_t id_off, nids;    /* ids[id_off, id_off + nids) */
} StreamCovEntry;

#define SCOV_TAIL_MAX 255

typedef struct StreamCov {
	StreamCovEntry *e;
	uint32_t n, cap;
	uint32_t *ids;
	uint32_t nids, ids_cap;
	/* the last bytes a verified packet showed, ending at stream offset
	 * tail_end: the stream may have released them since, but a copy of
	 * them (an HTTP body) may still be read, so a later packet's context
	 * is checked against these */
	uint64_t tail_end;
	uint32_t tail_len;
	uint8_t tail[SCOV_TAIL_MAX];
} StreamCov;

/* The ends a packet's GPU scan covers: payload at stream offset so, len
 * bytes, after t context bytes (so >= t), for patterns of at most maxlen
 * bytes. 0 when it covers none (*e_lo > *e_hi). */
int scov_span(uint64_t so, uint32_t len, uint32_t t, uint32_t maxlen, uint64_t *e_lo,
	      uint64_t *e_hi);

/* Allocates *c on first use: 0, or -1 when out of memory. */
int scov_ensure(StreamCov **c);
/* Adds an entry (allocating *c on first use): context from b_lo, payload
 * from so, ids flagged SCOV_CTX as above. -1 when out of memory (the ends
 * then stay uncovered: the CPU scans them). */
int scov_add(StreamCov **c, uint64_t b_lo, uint64_t so, uint64_t e_lo, uint64_t e_hi,
	     const uint32_t *ids, uint32_t nids);
/* Keeps the last bytes of b[0, n), which end at stream offset end (only
 * when end is not behind what is kept). */
void scov_save_tail(StreamCov *c, uint64_t end, const uint8_t *b, uint32_t n);
/* 1 when the saved tail holds stream bytes [off, off + n) and they equal b
 * (n == 0: 1). */
int scov_tail_equal(const StreamCov *c, uint64_t off, const uint8_t *b, uint32_t n);
/* Bytes [lo, hi) may have changed: drop every entry that scanned any, and
 * the saved tail when it holds any. */
void scov_invalidate(StreamCov *c, uint64_t lo, uint64_t hi);
/* Drops the entries whose ends all lie at or below `floor`. */
void scov_prune(StreamCov *c, uint64_t floor);
void scov_free(StreamCov *c);

/* Window [base, base + len) of contiguous stream bytes: ids_cb gets the ids
 * of each entry that covers some of its ends, with ctx_ok 1 when the ids
 * flagged SCOV_CTX belong to the window too, 0 when they must be left out;
 * cpu_cb(arg, from, to) each byte range [from, to) (inside the window) to
 * scan on the CPU for the ends no entry covers. Returns the bytes handed to
 * cpu_cb. scov_window takes every entry that covers an end, with all its
 * ids (ctx_ok 1): a superset of a CPU scan's ids, the fewest bytes on the
 * CPU (HTTP bodies, whose runs start inside packets). scov_window_exact
 * takes an entry only where its ids are exactly a CPU scan's (see the top):
 * the raw stream windows, whose candidates the CPU inspects in full. */
typedef void (*scov_ids_fn)(void *arg, const uint32_t *ids, uint32_t n, int ctx_ok);
typedef void (*scov_cpu_fn)(void *arg, uint64_t from, uint64_t to);
uint64_t scov_window(const StreamCov *c, uint64_t base, uint32_t len, uint32_t maxlen,
		     scov_ids_fn ids_cb, scov_cpu_fn cpu_cb, void *arg);
uint64_t scov_window_exact(const StreamCov *c, uint64_t base, uint32_t len, uint32_t maxlen,
			   scov_ids_fn ids_cb, scov_cpu_fn cpu_cb, void *arg);

#endif
