/* The engine's counted memory as one total, and its peak: the sum of what
 * flow.memuse, tcp.memuse, tcp.reassembly_memuse, http.memuse and
 * defrag.memuse count, and the app-layer parsers under app-layer.memcap
 * (app-layer/app-mem.h), kept by the places that move those gauges.
 *
 * Stats records come once a second; a flood processed in a few seconds
 * peaks between two of them, and the end-of-run flush empties everything
 * before the last. The peak is what qa/bench/floods.sh compares with the
 * peak RSS; main.c logs it at exit. Relaxed atomics: one add per allocation,
 * never per packet. */
#ifndef UTIL_MEM_PEAK_H
#define UTIL_MEM_PEAK_H

#include <stddef.h>
#include <stdint.h>

/* What the C allocator holds for malloc(n): glibc keeps each block in a
 * chunk of n plus an 8-byte size header, rounded up to 16, at least 32
 * bytes (malloc_usable_size() + 8). Counting this rather than n keeps a
 * memuse honest when it counts many small blocks: 200k 34-byte blocks hold
 * 9.6 MB, not 6.8. Blocks served by mmap (128 KB and more by default) round
 * to pages instead, which this ignores: under 3% there. */
static inline uint64_t mem_block_size(size_t n)
{
	size_t c = (n + 8 + 15) & ~(size_t)15;

	return c < 32 ? 32 : c;
}

void mem_peak_add(uint64_t n);
void mem_peak_sub(uint64_t n);
uint64_t mem_peak_now(void);
uint64_t mem_peak_max(void);

#endif
