/* The chained hash table under the detect state that crosses flows
 * (thresholds, hostbits): keyed by addresses the traffic picks, so by the
 * attacker. Three defences, all here:
 *   - the key is hashed whole with SipHash-1-3 under a key drawn once per
 *     process: a sender cannot choose addresses (a /16, a /12) that share a
 *     bucket, as it could when the bucket was the address's first bits;
 *   - the table doubles its buckets when it holds more than two entries a
 *     bucket on average, so chains stay short however many sources come;
 *   - every byte (bucket array, entries) is charged to a memcap; an entry
 *     that does not fit is refused, and the caller counts it.
 * Expiry is the caller's (it knows what makes an entry dead): it walks the
 * chain it looks up and a few buckets more per call (state_hash_sweep), so
 * every entry is looked at once per (buckets / swept) calls, never all of
 * them in one call.
 *
 * Not locked: each table's owner holds its own lock around every call.
 * Entries embed a StateNode first and are allocated and freed by the owner;
 * the table never frees an entry. */
#ifndef DETECT_STATE_HASH_H
#define DETECT_STATE_HASH_H

#include <stddef.h>
#include <stdint.h>

typedef struct StateNode {
	struct StateNode *next;
	uint32_t hash;            /* kept: growing moves entries without rehashing */
} StateNode;

typedef struct StateHash {
	StateNode **b;
	uint32_t mask;            /* buckets - 1 (a power of two) */
	uint32_t n;               /* entries */
	uint32_t cursor;          /* the next bucket state_hash_sweep hands out */
	uint64_t memuse, memcap;  /* bucket array + charged entries */
	uint64_t reported;        /* memuse already added to the threads' counters */
} StateHash;

/* The process's hash key is drawn on first use (getrandom); tests may fix
 * it first so that bucket placement is reproducible. */
void state_hash_set_key(uint64_t k0, uint64_t k1);
/* SipHash-1-3 of len bytes under the process key. */
uint32_t state_hash_bytes(const void *data, size_t len);

/* Buckets: size rounded up to a power of two. -1 when the bucket array
 * alone is over memcap or there is no memory. */
int state_hash_init(StateHash *sh, uint32_t size, uint64_t memcap);
/* What the bucket array of size rows costs (for config checks). */
uint64_t state_hash_array_cost(uint32_t size);
/* Unlinks every entry, handing each to free_fn; the buckets stay. */
void state_hash_clear(StateHash *sh, void (*free_fn)(StateNode *));
/* state_hash_clear, then the bucket array goes too. */
void state_hash_destroy(StateHash *sh, void (*free_fn)(StateNode *));

static inline StateNode **state_hash_bucket(StateHash *sh, uint32_t hash)
{
	return &sh->b[hash & sh->mask];
}

/* Reserves bytes under memcap: 0, or -1 (nothing charged) when they do not
 * fit. state_hash_uncharge gives them back. */
int state_hash_charge(StateHash *sh, uint64_t bytes);
void state_hash_uncharge(StateHash *sh, uint64_t bytes);

/* Links a charged entry at the head of its bucket; may grow the table. */
void state_hash_link(StateHash *sh, StateNode *e, uint32_t hash);
/* Unlinks *pe (a pointer into a chain); the caller frees and uncharges. */
void state_hash_unlink(StateHash *sh, StateNode **pe);

/* The next bucket to check for expired entries (round robin). */
StateNode **state_hash_sweep(StateHash *sh);

/* memuse moved since the last call: the calling thread adds it to its
 * memuse counter, so the sum over threads is the table's memuse. */
int64_t state_hash_report(StateHash *sh);

#endif
