#include "stats/counters.h"
#include "util/log.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNTERS_MAX 2048

static char *names[COUNTERS_MAX];
static size_t n_counters;
static int frozen;
static ThreadCounters *blocks;
static pthread_mutex_t blocks_lock = PTHREAD_MUTEX_INITIALIZER;
unsigned counters_gen = 1;

int counter_lookup(const char *name)
{
	for (size_t i = 0; i < n_counters; i++)
		if (strcmp(names[i], name) == 0)
			return (int)i;
	return -1;
}

counter_id counter_register(const char *name)
{
	int id = counter_lookup(name);

	if (id >= 0)
		return (counter_id)id;
	if (frozen || n_counters == COUNTERS_MAX) {
		/* A programming error: registration happens at start only. */
		log_error("counters: cannot register '%s' (%s)", name,
			  frozen ? "set is frozen" : "table full");
		abort();
	}
	names[n_counters] = strdup(name);
	if (!names[n_counters])
		abort();
	return (counter_id)n_counters++;
}

const char *counter_name(counter_id id)
{
	return id < n_counters ? names[id] : NULL;
}

size_t counters_count(void)
{
	return n_counters;
}

void counters_freeze(void)
{
	frozen = 1;
}

ThreadCounters *thread_counters_new(void)
{
	ThreadCounters *tc = calloc(1, sizeof(*tc));

	if (!tc)
		return NULL;
	tc->v = calloc(n_counters ? n_counters : 1, sizeof(uint64_t));
	if (!tc->v) {
		free(tc);
		return NULL;
	}
	pthread_mutex_lock(&blocks_lock);
	tc->next = blocks;
	blocks = tc;
	pthread_mutex_unlock(&blocks_lock);
	return tc;
}

void counters_snapshot(uint64_t *out)
{
	memset(out, 0, n_counters * sizeof(uint64_t));
	pthread_mutex_lock(&blocks_lock);
	for (ThreadCounters *tc = blocks; tc; tc = tc->next)
		for (size_t i = 0; i < n_counters; i++)
			out[i] += __atomic_load_n(&tc->v[i], __ATOMIC_RELAXED);
	pthread_mutex_unlock(&blocks_lock);
}

void thread_counters_set_name(ThreadCounters *tc, const char *name)
{
	if (!tc)
		return;
	pthread_mutex_lock(&blocks_lock);
	snprintf(tc->name, sizeof(tc->name), "%s", name);
	pthread_mutex_unlock(&blocks_lock);
}

/* Threads a per-thread snapshot names at most (blocks beyond: totals only). */
#define SNAPSHOT_THREADS_MAX 256

void counters_snapshot_threads(uint64_t *out,
			       void (*fn)(const char *name, const uint64_t *v, void *arg),
			       void *arg)
{
	const ThreadCounters *named[SNAPSHOT_THREADS_MAX];
	size_t n = 0;

	pthread_mutex_lock(&blocks_lock);
	for (const ThreadCounters *tc = blocks; tc && n < SNAPSHOT_THREADS_MAX; tc = tc->next)
		if (tc->name[0])
			named[n++] = tc;
	/* the list is newest first: walk it back, each name at its first block */
	for (size_t k = n; k-- > 0;) {
		int seen = 0;

		for (size_t j = n; j-- > k + 1;)
			if (!strcmp(named[j]->name, named[k]->name))
				seen = 1;
		if (seen)
			continue;
		memset(out, 0, n_counters * sizeof(uint64_t));
		for (size_t j = 0; j <= k; j++) {
			if (strcmp(named[j]->name, named[k]->name))
				continue;
			for (size_t i = 0; i < n_counters; i++)
				out[i] += __atomic_load_n(&named[j]->v[i], __ATOMIC_RELAXED);
		}
		fn(named[k]->name, out, arg);
	}
	pthread_mutex_unlock(&blocks_lock);
}

void thread_counters_retire(ThreadCounters *tc)
{
	if (!tc)
		return;
	pthread_mutex_lock(&blocks_lock);
	tc->retired = 1;
	pthread_mutex_unlock(&blocks_lock);
}

void counters_zero(void)
{
	pthread_mutex_lock(&blocks_lock);
	for (ThreadCounters **at = &blocks; *at;) {
		ThreadCounters *tc = *at;

		if (tc->retired) {
			*at = tc->next;
			free(tc->v);
			free(tc);
			continue;
		}
		for (size_t i = 0; i < n_counters; i++)
			__atomic_store_n(&tc->v[i], 0, __ATOMIC_RELAXED);
		at = &tc->next;
	}
	pthread_mutex_unlock(&blocks_lock);
}

void counters_destroy(void)
{
	pthread_mutex_lock(&blocks_lock);
	while (blocks) {
		ThreadCounters *next = blocks->next;
		free(blocks->v);
		free(blocks);
		blocks = next;
	}
	pthread_mutex_unlock(&blocks_lock);
	for (size_t i = 0; i < n_counters; i++)
		free(names[i]);
	n_counters = 0;
	frozen = 0;
	/* skip 0 on wrap: it means "never registered" to the subsystems */
	if (__atomic_add_fetch(&counters_gen, 1, __ATOMIC_RELAXED) == 0)
		__atomic_store_n(&counters_gen, 1, __ATOMIC_RELAXED);
}
