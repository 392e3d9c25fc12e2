/* Counters: registered by name once at start, incremented per thread without
 * locks, merged (summed) across threads when stats are written.
 *
 * Names are Suricata's dotted stats names ("decoder.pkts", "flow.tcp",
 * "decoder.event.ipv4.trunc_pkt"); the eve "stats" record nests on the dots.
 *
 * Life cycle:
 *   1. start: every subsystem calls counter_register() (single-threaded);
 *   2. counters_freeze() fixes the set;
 *   3. each thread owns a ThreadCounters from thread_counters_new();
 *   4. the packet path uses counter_inc()/counter_add()/counter_set() on its own block;
 *   5. the stats writer calls counters_snapshot() which sums every live block;
 *   6. counters_destroy() at the end frees it all and starts a new generation,
 *      so a process may run the engine again from step 1 (the fuzz harnesses
 *      do, thousands of times). A subsystem that registers only once per run
 *      keeps the generation it registered in, not a plain "done" flag: ids of
 *      an old generation are stale. */
#ifndef STATS_COUNTERS_H
#define STATS_COUNTERS_H

#include <stdint.h>
#include <stddef.h>

typedef uint16_t counter_id;

typedef struct ThreadCounters {
	uint64_t *v;                  /* one slot per registered counter */
	struct ThreadCounters *next;  /* registry list, for snapshots */
	int retired;                  /* its thread is done with it */
	char name[32];                /* its thread's, as Suricata names threads
	                               * ("W#01-eth0", "RX#01"); "": none */
} ThreadCounters;

/* Registering the same name twice returns the same id. Returns the id. */
counter_id counter_register(const char *name);
/* Id of a registered counter, or -1. */
int counter_lookup(const char *name);
const char *counter_name(counter_id id);
size_t counters_count(void);
void counters_freeze(void);

ThreadCounters *thread_counters_new(void);
/* The owning thread will not count in tc again (end of a run): its values
 * still count in snapshots until counters_zero(), which frees it, as it
 * would hold nothing after; else counters_destroy() does. */
void thread_counters_retire(ThreadCounters *tc);

/* Sums every thread's block into out[counters_count()]. Safe while threads run:
 * each slot has a single writer, read with relaxed atomics. */
void counters_snapshot(uint64_t *out);

/* Names tc after its thread (stats.threads: yes); a thread's blocks share
 * its name and are summed as one. */
void thread_counters_set_name(ThreadCounters *tc, const char *name);
/* stats.threads: per named thread, in the order the threads made their
 * first block, the sum of its blocks in out[counters_count()], then
 * fn(name, out, arg). Unnamed blocks (the stats and GPU threads, the
 * capture file's) count in the totals only. */
void counters_snapshot_threads(uint64_t *out,
			       void (*fn)(const char *name, const uint64_t *v, void *arg),
			       void *arg);

/* Every block back to 0, the set kept (the unix-socket runmode between two
 * files: each file's stats count that file alone); retired blocks are freed,
 * so that one run's threads do not leave memory behind for every file. No
 * thread may count meanwhile. */
void counters_zero(void);

/* Frees every ThreadCounters and the registry (end of run, threads joined),
 * and moves to the next generation. */
void counters_destroy(void);

/* The registry's generation: 1 at start, +1 per counters_destroy(). Never 0,
 * so a subsystem's "registered in generation" variable starts as "never". */
extern unsigned counters_gen;
static inline unsigned counters_generation(void)
{
	return __atomic_load_n(&counters_gen, __ATOMIC_RELAXED);
}

/* Single writer per slot: a relaxed load/store pair keeps the add a plain
 * instruction on x86 while staying race-free for the snapshot reader. */
static inline void counter_add(ThreadCounters *tc, counter_id id, uint64_t n)
{
	__atomic_store_n(&tc->v[id], __atomic_load_n(&tc->v[id], __ATOMIC_RELAXED) + n,
			 __ATOMIC_RELAXED);
}

static inline void counter_inc(ThreadCounters *tc, counter_id id)
{
	counter_add(tc, id, 1);
}

static inline void counter_sub(ThreadCounters *tc, counter_id id, uint64_t n)
{
	__atomic_store_n(&tc->v[id], __atomic_load_n(&tc->v[id], __ATOMIC_RELAXED) - n,
			 __ATOMIC_RELAXED);
}

static inline void counter_set(ThreadCounters *tc, counter_id id, uint64_t n)
{
	__atomic_store_n(&tc->v[id], n, __ATOMIC_RELAXED);
}

static inline uint64_t counter_get(const ThreadCounters *tc, counter_id id)
{
	return __atomic_load_n(&tc->v[id], __ATOMIC_RELAXED);
}

#endif
