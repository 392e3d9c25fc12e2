/* The engine's counted memory as one total, and its peak: the sum of what
 * flow.memuse, tcp.memuse, tcp.reassembly_memuse, http.memuse and
 * defrag.memuse count, kept by the places that move those gauges.
 *
 * Stats records come once a second; a flood processed in a few seconds
 * peaks between two of them, and the end-of-run flush empties everything
 * before the last. The peak is what qa/bench/floods.sh compares with the
 * peak RSS; main.c logs it at exit. Relaxed atomics: one add per allocation,
 * never per packet. */
#ifndef UTIL_MEM_PEAK_H
#define UTIL_MEM_PEAK_H

#include <stdint.h>

void mem_peak_add(uint64_t n);
void mem_peak_sub(uint64_t n);
uint64_t mem_peak_now(void);
uint64_t mem_peak_max(void);

#endif
