#include "app-layer/http-mem.h"

#include "util/mem-peak.h"

static uint64_t g_cap, g_use;
static counter_id cnt_memuse, cnt_memcap;
static int counters_registered;
/* The worker this thread runs: whoever passed a ThreadCounters last here.
 * Buffers that do not know their worker are counted on it (a worker's
 * flows live and die on its own thread, end-of-run flush included). */
static _Thread_local ThreadCounters *tls_tc;

static ThreadCounters *worker_tc(ThreadCounters *tc)
{
	if (tc)
		tls_tc = tc;
	return tls_tc;
}

ThreadCounters *http_mem_thread_counters(void)
{
	return tls_tc;
}

void http_mem_set_cap(uint64_t cap)
{
	__atomic_store_n(&g_cap, cap, __ATOMIC_RELAXED);
}

uint64_t http_mem_cap(void)
{
	return __atomic_load_n(&g_cap, __ATOMIC_RELAXED);
}

void http_mem_register_counters(void)
{
	cnt_memuse = counter_register("http.memuse");
	cnt_memcap = counter_register("http.memcap");
	counters_registered = 1;
}

/* Optimistic add, undone when it overshoots: no lock, and the cap is never
 * passed by more than the allocations racing for it. */
int http_mem_reserve(ThreadCounters *tc, uint64_t size)
{
	uint64_t cap = __atomic_load_n(&g_cap, __ATOMIC_RELAXED);
	uint64_t now = __atomic_add_fetch(&g_use, size, __ATOMIC_RELAXED);

	tc = worker_tc(tc);
	if (cap && now > cap) {
		__atomic_sub_fetch(&g_use, size, __ATOMIC_RELAXED);
		if (tc && counters_registered)
			counter_inc(tc, cnt_memcap);
		return 0;
	}
	mem_peak_add(size);
	if (tc && counters_registered)
		counter_add(tc, cnt_memuse, size);
	return 1;
}

int http_mem_charge(ThreadCounters *tc, uint64_t size)
{
	uint64_t cap = __atomic_load_n(&g_cap, __ATOMIC_RELAXED);
	uint64_t now = __atomic_add_fetch(&g_use, size, __ATOMIC_RELAXED);

	tc = worker_tc(tc);
	mem_peak_add(size);
	if (tc && counters_registered) {
		counter_add(tc, cnt_memuse, size);
		if (cap && now > cap)
			counter_inc(tc, cnt_memcap);
	}
	return !(cap && now > cap);
}

/* The gauge is summed over workers, so a release may land on another
 * worker's slot than its reserve: the sum stays exact (modulo 2^64). */
void http_mem_release(ThreadCounters *tc, uint64_t size)
{
	tc = worker_tc(tc);
	__atomic_sub_fetch(&g_use, size, __ATOMIC_RELAXED);
	mem_peak_sub(size);
	if (tc && counters_registered)
		counter_sub(tc, cnt_memuse, size);
}

uint64_t http_mem_use(void)
{
	return __atomic_load_n(&g_use, __ATOMIC_RELAXED);
}

void http_mem_grow(uint64_t size)
{
	ThreadCounters *tc = tls_tc;

	__atomic_add_fetch(&g_use, size, __ATOMIC_RELAXED);
	mem_peak_add(size);
	if (tc && counters_registered)
		counter_add(tc, cnt_memuse, size);
}

/* A release on this thread's counters (worker_tc(NULL) is tls_tc). */
void http_mem_shrink(uint64_t size)
{
	http_mem_release(NULL, size);
}
