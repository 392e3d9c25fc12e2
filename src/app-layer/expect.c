/* Expectations (see expect.h). */
#include "app-layer/expect.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct Expect {
	Address a, b;               /* the announcing flow's addresses */
	uint16_t dport;
	uint16_t alproto;
	uint8_t used;
	time_t expires;
	uint64_t seq;               /* insertion order, for dropping the oldest */
	void *data;
	void (*data_free)(void *);
	uint64_t parent_id;         /* the announcing flow's flow_id */
} Expect;

/* The process-wide table: the announcing flow and its data flow can be
 * handled by different workers, so it is shared, under one lock. n is
 * read without the lock first so that the common case (no FTP transfer
 * pending) costs one atomic load per new flow. */
static struct {
	pthread_mutex_t lock;
	Expect e[EXPECT_MAX];
	atomic_uint n;
	uint64_t seq;
} tbl = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* app_layer.expectations (Suricata's one counter, the schema's integer):
 * expectations added; what became of them is counted here, for
 * expect_stats() */
static counter_id c_added;
static int counters_on;
static atomic_uint_fast64_t n_matched, n_expired, n_dropped;

enum { C_ADDED, C_MATCHED, C_EXPIRED, C_DROPPED };

void expect_register_counters(void)
{
	c_added = counter_register("app_layer.expectations");
	counters_on = 1;
}

static void count(ThreadCounters *tc, int what)
{
	switch (what) {
	case C_ADDED:
		if (tc && counters_on)
			counter_inc(tc, c_added);
		break;
	case C_MATCHED:
		atomic_fetch_add(&n_matched, 1);
		break;
	case C_EXPIRED:
		atomic_fetch_add(&n_expired, 1);
		break;
	default:
		atomic_fetch_add(&n_dropped, 1);
	}
}

void expect_stats(uint64_t *matched, uint64_t *expired, uint64_t *dropped)
{
	*matched = atomic_load(&n_matched);
	*expired = atomic_load(&n_expired);
	*dropped = atomic_load(&n_dropped);
}

static int addr_eq(const Address *x, const Address *y)
{
	return x->family == y->family && memcmp(x->a.u8, y->a.u8, 16) == 0;
}

static void entry_free(Expect *e)
{
	if (e->data && e->data_free)
		e->data_free(e->data);
	memset(e, 0, sizeof(*e));
	atomic_fetch_sub(&tbl.n, 1);
}

/* Under the lock: frees what expired by now, counting it. */
static void expire(ThreadCounters *tc, time_t now)
{
	for (unsigned i = 0; i < EXPECT_MAX; i++) {
		if (tbl.e[i].used && tbl.e[i].expires < now) {
			entry_free(&tbl.e[i]);
			count(tc, C_EXPIRED);
		}
	}
}

int expect_add(ThreadCounters *tc, const Flow *f, uint16_t dport, uint16_t alproto, void *data,
	       void (*data_free)(void *), const struct timeval *now)
{
	Expect *slot = NULL, *oldest = NULL;

	if (!f || !dport) {
		if (data && data_free)
			data_free(data);
		return -1;
	}
	pthread_mutex_lock(&tbl.lock);
	if (atomic_load(&tbl.n))
		expire(tc, now->tv_sec);
	for (unsigned i = 0; i < EXPECT_MAX; i++) {
		Expect *e = &tbl.e[i];

		if (!e->used) {
			if (!slot)
				slot = e;
			continue;
		}
		/* the same announcement again (a second RETR on one PASV
		 * port): the newer one replaces it */
		if (e->dport == dport && e->alproto == alproto &&
		    ((addr_eq(&e->a, &f->src) && addr_eq(&e->b, &f->dst)) ||
		     (addr_eq(&e->a, &f->dst) && addr_eq(&e->b, &f->src)))) {
			entry_free(e);
			slot = e;
			break;
		}
		if (!oldest || e->seq < oldest->seq)
			oldest = e;
	}
	if (!slot) {
		entry_free(oldest);
		count(tc, C_DROPPED);
		slot = oldest;
	}
	slot->used = 1;
	slot->a = f->src;
	slot->b = f->dst;
	slot->dport = dport;
	slot->alproto = alproto;
	slot->expires = now->tv_sec + EXPECT_LIFETIME;
	slot->seq = ++tbl.seq;
	slot->data = data;
	slot->data_free = data_free;
	slot->parent_id = f->flow_id;
	atomic_fetch_add(&tbl.n, 1);
	pthread_mutex_unlock(&tbl.lock);
	count(tc, C_ADDED);
	return 0;
}

int expect_take(ThreadCounters *tc, Flow *f, uint16_t *alproto, void **data,
		void (**data_free)(void *))
{
	int hit = 0;

	if (!f || f->proto != 6 || atomic_load(&tbl.n) == 0)
		return 0;
	pthread_mutex_lock(&tbl.lock);
	expire(tc, f->start.tv_sec);
	for (unsigned i = 0; i < EXPECT_MAX; i++) {
		Expect *e = &tbl.e[i];

		if (!e->used || e->dport != f->dp)
			continue;
		if (!((addr_eq(&e->a, &f->src) && addr_eq(&e->b, &f->dst)) ||
		      (addr_eq(&e->a, &f->dst) && addr_eq(&e->b, &f->src))))
			continue;
		*alproto = e->alproto;
		*data = e->data;
		*data_free = e->data_free;
		f->parent_id = e->parent_id;
		e->data = NULL;
		entry_free(e);
		hit = 1;
		break;
	}
	pthread_mutex_unlock(&tbl.lock);
	if (hit)
		count(tc, C_MATCHED);
	return hit;
}

unsigned expect_count(void)
{
	return atomic_load(&tbl.n);
}

void expect_clear(void)
{
	pthread_mutex_lock(&tbl.lock);
	for (unsigned i = 0; i < EXPECT_MAX; i++)
		if (tbl.e[i].used)
			entry_free(&tbl.e[i]);
	pthread_mutex_unlock(&tbl.lock);
}
