/* HTTP byte ranges (http-range.h): the Content-Range parser and the table
 * of files being reassembled out of 206 responses. */
#include "app-layer/http-range.h"
#include "app-layer/http-mem.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---------------- Content-Range ---------------- */

static int digits(const uint8_t **p, const uint8_t *end, int64_t *out)
{
	int64_t v = 0;
	const uint8_t *s = *p;

	while (*p < end && **p >= '0' && **p <= '9') {
		if (v > (INT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (**p - '0');
		(*p)++;
	}
	if (*p == s)
		return -1;
	*out = v;
	return 0;
}

/* RFC 9110 14.4: a unit, then "first-last/complete" or "* /complete",
 * complete being '*' when unknown. The unit is not checked: Suricata
 * reads any token there. */
int http_content_range_parse(const uint8_t *p, size_t len, HttpContentRange *cr)
{
	const uint8_t *end = p + len;

	cr->start = cr->end = cr->size = -1;
	while (p < end && *p == ' ')
		p++;
	while (p < end && *p != ' ')
		p++;
	while (p < end && *p == ' ')
		p++;
	if (p < end && *p == '*') {
		p++;
		if (p >= end || *p++ != '/')
			return -1;
		return digits(&p, end, &cr->size);
	}
	if (digits(&p, end, &cr->start) < 0 || p >= end || *p++ != '-' ||
	    digits(&p, end, &cr->end) < 0 || p >= end || *p++ != '/')
		return -1;
	if (p < end && *p == '*') {
		cr->size = -1;
		return 0;
	}
	return digits(&p, end, &cr->size);
}

int http_content_range_usable(const HttpContentRange *cr)
{
	return cr->start >= 0 && cr->end >= cr->start && cr->size > cr->end;
}

/* ---------------- reassembly ---------------- */

/* A file's covered bytes: sorted, disjoint [lo, hi) intervals. Past
 * RANGE_MAX_SPANS holes at once the file is given up (error). */
#define RANGE_MAX_SPANS 256

typedef struct Span {
	uint64_t lo, hi;
} Span;

struct HttpRange {
	struct HttpRange *next;
	uint8_t *key;
	size_t klen;
	uint64_t size;          /* the file's, from Content-Range */
	uint8_t *buf;           /* size bytes */
	Span *spans;
	uint32_t nspans, capspans;
	uint32_t users;         /* transactions holding it */
	uint64_t last_s;        /* packet time of the last use */
	uint8_t taken;          /* the whole file went to a transaction */
	uint8_t error;
};

static pthread_mutex_t range_lock = PTHREAD_MUTEX_INITIALIZER;
static HttpRange *range_head;
static uint64_t range_memcap = 100ull << 20;   /* Suricata's default */
static uint32_t range_timeout = 60;
static uint64_t range_mem;

static counter_id c_memuse, c_memcap;
static unsigned range_counters_gen;   /* registered in; 0: never */

void http_range_register_counters(void)
{
	c_memuse = counter_register("http.byterange.memuse");
	c_memcap = counter_register("http.byterange.memcap");
	range_counters_gen = counters_generation();
}

/* The table's memuse moved by d, on the counters of the thread that moved
 * it: the threads' sum is the table's memuse. Under range_lock. */
static void range_mem_add(int64_t d)
{
	ThreadCounters *tc = http_mem_thread_counters();

	range_mem += (uint64_t)d;
	if (!tc || range_counters_gen != counters_generation())
		return;
	if (d >= 0)
		counter_add(tc, c_memuse, (uint64_t)d);
	else
		counter_sub(tc, c_memuse, (uint64_t)-d);
}

static void range_memcap_hit(void)
{
	ThreadCounters *tc = http_mem_thread_counters();

	if (tc && range_counters_gen == counters_generation())
		counter_inc(tc, c_memcap);
}

void http_range_configure(uint64_t memcap, uint32_t timeout_s)
{
	pthread_mutex_lock(&range_lock);
	range_memcap = memcap;
	range_timeout = timeout_s;
	pthread_mutex_unlock(&range_lock);
}

static uint64_t range_cost(const HttpRange *r)
{
	return sizeof(*r) + r->klen + r->size + (uint64_t)r->capspans * sizeof(Span);
}

static void range_free(HttpRange *r)
{
	range_mem_add(-(int64_t)range_cost(r));
	free(r->key);
	free(r->buf);
	free(r->spans);
	free(r);
}

/* Under the lock: unlinks and frees the files nobody holds that are done
 * with (taken, given up) or idle past the timeout. */
static void range_expire(uint64_t now_s)
{
	for (HttpRange **pp = &range_head; *pp;) {
		HttpRange *r = *pp;

		if (r->users == 0 && (r->taken || r->error || r->last_s + range_timeout < now_s)) {
			*pp = r->next;
			range_free(r);
		} else {
			pp = &r->next;
		}
	}
}

HttpRange *http_range_open(const uint8_t *key, size_t klen, const HttpContentRange *cr,
			   uint64_t now_s)
{
	HttpRange *r;
	uint64_t cost;

	if (!http_content_range_usable(cr) || klen == 0)
		return NULL;
	pthread_mutex_lock(&range_lock);
	range_expire(now_s);
	for (r = range_head; r; r = r->next)
		if (r->klen == klen && memcmp(r->key, key, klen) == 0 && !r->taken && !r->error)
			break;
	if (r) {
		/* another size under one name: another file, not reassembled */
		if (r->size != (uint64_t)cr->size)
			r = NULL;
		else {
			r->users++;
			r->last_s = now_s;
		}
		pthread_mutex_unlock(&range_lock);
		return r;
	}
	cost = sizeof(*r) + klen + (uint64_t)cr->size;
	if (range_memcap && range_mem + cost > range_memcap) {
		range_memcap_hit();
		pthread_mutex_unlock(&range_lock);
		return NULL;
	}
	if ((uint64_t)cr->size > SIZE_MAX || !(r = calloc(1, sizeof(*r)))) {
		pthread_mutex_unlock(&range_lock);
		return NULL;
	}
	r->key = malloc(klen);
	r->buf = malloc((size_t)cr->size);
	if (!r->key || !r->buf) {
		free(r->key);
		free(r->buf);
		free(r);
		pthread_mutex_unlock(&range_lock);
		return NULL;
	}
	memcpy(r->key, key, klen);
	r->klen = klen;
	r->size = (uint64_t)cr->size;
	r->users = 1;
	r->last_s = now_s;
	r->next = range_head;
	range_head = r;
	range_mem_add((int64_t)range_cost(r));
	pthread_mutex_unlock(&range_lock);
	return r;
}

/* Under the lock: [lo, hi) is covered. */
static void span_add(HttpRange *r, uint64_t lo, uint64_t hi)
{
	uint32_t i = 0, j;

	while (i < r->nspans && r->spans[i].hi < lo)
		i++;
	/* spans i..j-1 touch [lo, hi): merged into one */
	for (j = i; j < r->nspans && r->spans[j].lo <= hi; j++) {
		if (r->spans[j].lo < lo)
			lo = r->spans[j].lo;
		if (r->spans[j].hi > hi)
			hi = r->spans[j].hi;
	}
	if (j > i) {
		r->spans[i] = (Span){ lo, hi };
		memmove(&r->spans[i + 1], &r->spans[j], (r->nspans - j) * sizeof(Span));
		r->nspans -= j - i - 1;
		return;
	}
	if (r->nspans == r->capspans) {
		uint32_t cap = r->capspans ? 2 * r->capspans : 8;
		Span *ns;

		if (cap > RANGE_MAX_SPANS || !(ns = realloc(r->spans, cap * sizeof(Span)))) {
			r->error = 1;
			return;
		}
		range_mem_add((int64_t)(cap - r->capspans) * (int64_t)sizeof(Span));
		r->spans = ns;
		r->capspans = cap;
	}
	memmove(&r->spans[i + 1], &r->spans[i], (r->nspans - i) * sizeof(Span));
	r->spans[i] = (Span){ lo, hi };
	r->nspans++;
}

void http_range_data(HttpRange *r, uint64_t off, const uint8_t *data, size_t len)
{
	if (!r || !len || off >= r->size)
		return;
	if (len > r->size - off)
		len = (size_t)(r->size - off);
	pthread_mutex_lock(&range_lock);
	if (!r->taken && !r->error) {
		memcpy(r->buf + off, data, len);
		span_add(r, off, off + len);
	}
	pthread_mutex_unlock(&range_lock);
}

int http_range_take_whole(HttpRange *r, const uint8_t **data, uint64_t *len)
{
	int whole;

	if (!r)
		return 0;
	pthread_mutex_lock(&range_lock);
	whole = !r->taken && !r->error && r->nspans == 1 && r->spans[0].lo == 0 &&
		r->spans[0].hi == r->size;
	if (whole) {
		/* no one writes to a taken file: the bytes stay as they are
		 * while this caller holds it */
		r->taken = 1;
		*data = r->buf;
		*len = r->size;
	}
	pthread_mutex_unlock(&range_lock);
	return whole;
}

void http_range_release(HttpRange *r)
{
	if (!r)
		return;
	pthread_mutex_lock(&range_lock);
	if (r->users)
		r->users--;
	if (r->users == 0 && (r->taken || r->error)) {
		for (HttpRange **pp = &range_head; *pp; pp = &(*pp)->next)
			if (*pp == r) {
				*pp = r->next;
				range_free(r);
				break;
			}
	}
	pthread_mutex_unlock(&range_lock);
}

uint64_t http_range_memuse(void)
{
	uint64_t m;

	pthread_mutex_lock(&range_lock);
	m = range_mem;
	pthread_mutex_unlock(&range_lock);
	return m;
}

void http_range_cleanup(void)
{
	pthread_mutex_lock(&range_lock);
	/* one still held (a flow not freed yet) is given up and goes with
	 * its last release */
	for (HttpRange *r = range_head; r; r = r->next)
		r->error = 1;
	range_expire(0);
	pthread_mutex_unlock(&range_lock);
}
