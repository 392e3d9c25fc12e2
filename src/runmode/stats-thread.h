/* The stats thread (stats-thread.c). */
#ifndef RUNMODE_STATS_THREAD_H
#define RUNMODE_STATS_THREAD_H

#include "runmode/runmode.h"

#include <pthread.h>
#include <time.h>

typedef struct StatsThread {
	Engine *e;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int stop;
	int running;               /* the thread was started */
	struct timespec started;
} StatsThread;

/* Before the packet threads: uptime counts from here; the thread runs
 * when stats are enabled with an interval (no thread: only the final
 * record). */
void stats_thread_start(StatsThread *st, Engine *e);
/* After the packet threads (and the flow records): the thread stops, then
 * the final record, when stats are enabled, with every counter complete. */
void stats_thread_stop(StatsThread *st);

#endif
