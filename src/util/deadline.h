/* An absolute CLOCK_MONOTONIC deadline for pthread_cond_timedwait() on a
 * condition whose attributes chose that clock (the sink queue, the flow
 * writer, the ordering watermark). Header-only: no state. */
#ifndef UTIL_DEADLINE_H
#define UTIL_DEADLINE_H

#include <time.h>

/* *ts = now + ms milliseconds, normalised. */
static inline void deadline_in(struct timespec *ts, long ms)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (ms % 1000) * 1000000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

#endif
