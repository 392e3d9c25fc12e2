/* The cross-flow state's hash table (state-hash.h says why it is built so). */
#include "detect/state-hash.h"
#include "util/mem-peak.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

/* Average chain length at which the table doubles. */
#define STATE_HASH_LOAD 2u
/* Growth stops here: 2^26 rows are half a gigabyte of bucket array. */
#define STATE_HASH_MAX_ROWS (1u << 26)

static uint64_t key[2];
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

/* getrandom, else /dev/urandom, else what differs between two starts:
 * the key need not be strong, only unknown to the sender. */
static void key_draw(void)
{
	uint64_t k[2] = { 0, 0 };
	ssize_t got = getrandom(k, sizeof(k), GRND_NONBLOCK);

	if (got != (ssize_t)sizeof(k)) {
		int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

		got = fd >= 0 ? read(fd, k, sizeof(k)) : -1;
		if (fd >= 0)
			close(fd);
	}
	if (got != (ssize_t)sizeof(k)) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		k[0] ^= (uint64_t)ts.tv_nsec << 32 ^ (uint64_t)ts.tv_sec ^ (uint64_t)getpid();
		k[1] ^= (uint64_t)(uintptr_t)&ts * 0x9e3779b97f4a7c15ull ^ (uint64_t)clock();
	}
	key[0] = k[0];
	key[1] = k[1];
}

void state_hash_set_key(uint64_t k0, uint64_t k1)
{
	pthread_once(&key_once, key_draw);
	key[0] = k0;
	key[1] = k1;
}

/* ---- SipHash-1-3 (Aumasson and Bernstein), written from the paper ---- */

static inline uint64_t rotl64(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

static inline void sip_round(uint64_t v[4])
{
	v[0] += v[1];
	v[1] = rotl64(v[1], 13) ^ v[0];
	v[0] = rotl64(v[0], 32);
	v[2] += v[3];
	v[3] = rotl64(v[3], 16) ^ v[2];
	v[0] += v[3];
	v[3] = rotl64(v[3], 21) ^ v[0];
	v[2] += v[1];
	v[1] = rotl64(v[1], 17) ^ v[2];
	v[2] = rotl64(v[2], 32);
}

static inline void sip_absorb(uint64_t v[4], uint64_t m)
{
	v[3] ^= m;
	sip_round(v);
	v[0] ^= m;
}

uint32_t state_hash_bytes(const void *data, size_t len)
{
	const uint8_t *p = data;
	uint64_t v[4], m, last;
	size_t i;

	pthread_once(&key_once, key_draw);
	v[0] = key[0] ^ 0x736f6d6570736575ull;
	v[1] = key[1] ^ 0x646f72616e646f6dull;
	v[2] = key[0] ^ 0x6c7967656e657261ull;
	v[3] = key[1] ^ 0x7465646279746573ull;
	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&m, p + i, 8);
		sip_absorb(v, m);
	}
	last = (uint64_t)len << 56;
	for (size_t k = 0; i + k < len; k++)
		last |= (uint64_t)p[i + k] << (8 * k);
	sip_absorb(v, last);
	v[2] ^= 0xff;
	for (int r = 0; r < 3; r++)
		sip_round(v);
	m = v[0] ^ v[1] ^ v[2] ^ v[3];
	return (uint32_t)(m ^ (m >> 32));
}

/* ---- the table ---- */

static uint32_t round_pow2(uint32_t v)
{
	uint32_t r = 1;

	while (r < v && r < STATE_HASH_MAX_ROWS)
		r <<= 1;
	return r;
}

uint64_t state_hash_array_cost(uint32_t size)
{
	return mem_block_size((size_t)round_pow2(size ? size : 1) * sizeof(StateNode *));
}

int state_hash_init(StateHash *sh, uint32_t size, uint64_t memcap)
{
	uint32_t rows = round_pow2(size ? size : 1);

	memset(sh, 0, sizeof(*sh));
	sh->memcap = memcap;
	sh->memuse = state_hash_array_cost(rows);
	if (sh->memuse > memcap)
		return -1;
	sh->b = calloc(rows, sizeof(*sh->b));
	if (!sh->b)
		return -1;
	sh->mask = rows - 1;
	mem_peak_add(sh->memuse);
	return 0;
}

void state_hash_clear(StateHash *sh, void (*free_fn)(StateNode *))
{
	if (!sh->b)
		return;
	for (uint32_t i = 0; i <= sh->mask; i++) {
		StateNode *e = sh->b[i], *n;

		for (; e; e = n) {
			n = e->next;
			free_fn(e);
		}
		sh->b[i] = NULL;
	}
	sh->n = 0;
}

void state_hash_destroy(StateHash *sh, void (*free_fn)(StateNode *))
{
	if (!sh->b)
		return;
	state_hash_clear(sh, free_fn);
	mem_peak_sub(state_hash_array_cost(sh->mask + 1));
	free(sh->b);
	sh->b = NULL;
}

int state_hash_charge(StateHash *sh, uint64_t bytes)
{
	if (sh->memuse + bytes > sh->memcap)
		return -1;
	sh->memuse += bytes;
	mem_peak_add(bytes);
	return 0;
}

void state_hash_uncharge(StateHash *sh, uint64_t bytes)
{
	sh->memuse -= bytes;
	mem_peak_sub(bytes);
}

/* Doubles the rows when the new array fits the memcap (else chains grow:
 * the memcap then bounds the entries, and so the chains, too). One pass
 * over the entries per doubling: amortised, each entry moves O(1) times. */
static void grow(StateHash *sh)
{
	uint32_t rows = (sh->mask + 1) * 2, mask = rows - 1;
	uint64_t old_cost = state_hash_array_cost(sh->mask + 1);
	uint64_t new_cost = state_hash_array_cost(rows);
	StateNode **nb;

	if (rows > STATE_HASH_MAX_ROWS || sh->memuse - old_cost + new_cost > sh->memcap)
		return;
	nb = calloc(rows, sizeof(*nb));
	if (!nb)
		return;
	for (uint32_t i = 0; i <= sh->mask; i++) {
		StateNode *e = sh->b[i], *n;

		for (; e; e = n) {
			n = e->next;
			e->next = nb[e->hash & mask];
			nb[e->hash & mask] = e;
		}
	}
	free(sh->b);
	sh->b = nb;
	sh->mask = mask;
	sh->memuse = sh->memuse - old_cost + new_cost;
	mem_peak_add(new_cost);
	mem_peak_sub(old_cost);
	/* the sweep goes on from the same row: it covers the new rows as it
	 * wraps, and no entry waits more than one lap */
	sh->cursor &= mask;
}

void state_hash_link(StateHash *sh, StateNode *e, uint32_t hash)
{
	StateNode **b = state_hash_bucket(sh, hash);

	e->hash = hash;
	e->next = *b;
	*b = e;
	sh->n++;
	if (sh->n > STATE_HASH_LOAD * (sh->mask + 1))
		grow(sh);
}

void state_hash_unlink(StateHash *sh, StateNode **pe)
{
	*pe = (*pe)->next;
	sh->n--;
}

StateNode **state_hash_sweep(StateHash *sh)
{
	StateNode **b = &sh->b[sh->cursor & sh->mask];

	sh->cursor = (sh->cursor + 1) & sh->mask;
	return b;
}

int64_t state_hash_report(StateHash *sh)
{
	int64_t d = (int64_t)(sh->memuse - sh->reported);

	sh->reported = sh->memuse;
	return d;
}
