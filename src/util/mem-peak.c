#include "util/mem-peak.h"

static uint64_t g_now, g_max;

void mem_peak_add(uint64_t n)
{
	uint64_t now = __atomic_add_fetch(&g_now, n, __ATOMIC_RELAXED);
	uint64_t max = __atomic_load_n(&g_max, __ATOMIC_RELAXED);

	while (now > max &&
	       !__atomic_compare_exchange_n(&g_max, &max, now, 1, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED))
		;
}

void mem_peak_sub(uint64_t n)
{
	__atomic_sub_fetch(&g_now, n, __ATOMIC_RELAXED);
}

uint64_t mem_peak_now(void)
{
	return __atomic_load_n(&g_now, __ATOMIC_RELAXED);
}

uint64_t mem_peak_max(void)
{
	return __atomic_load_n(&g_max, __ATOMIC_RELAXED);
}
