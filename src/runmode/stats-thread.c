/* The stats thread ("CS"): a stats record every stats.interval seconds
 * while the packet threads run, and the final one after they stopped. */
#include "runmode/stats-thread.h"
#include "runmode/runmode-int.h"
#include "output/output.h"
#include "output/lua-out.h"
#include "stats/counters.h"

#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

static uint64_t uptime_s(const StatsThread *st)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)(now.tv_sec - st->started.tv_sec);
}

static void stats_write(StatsThread *st)
{
	size_t n = counters_count();
	uint64_t *snap = calloc(n ? n : 1, sizeof(uint64_t));
	struct timeval now;

	if (!snap)
		return;
	counters_snapshot(snap);
	gettimeofday(&now, NULL);
	output_stats(st->e->outputs, snap, &now, uptime_s(st));
	free(snap);
}

static void *stats_main(void *arg)
{
	StatsThread *st = arg;
	struct timespec deadline;

	thread_name_set("CS", 0);

	pthread_mutex_lock(&st->lock);
	clock_gettime(CLOCK_REALTIME, &deadline);
	while (!st->stop) {
		deadline.tv_sec += st->e->cfg.stats_interval_s;
		while (!st->stop &&
		       pthread_cond_timedwait(&st->cond, &st->lock, &deadline) == 0)
			;
		if (st->stop)
			break;
		pthread_mutex_unlock(&st->lock);
		stats_write(st);
		pthread_mutex_lock(&st->lock);
	}
	pthread_mutex_unlock(&st->lock);
	return NULL;
}

void stats_thread_start(StatsThread *st, Engine *e)
{
	memset(st, 0, sizeof(*st));
	st->e = e;
	clock_gettime(CLOCK_MONOTONIC, &st->started);
	pthread_mutex_init(&st->lock, NULL);
	pthread_cond_init(&st->cond, NULL);
	/* Lua stats scripts live until the final record */
	if (e->cfg.stats_enabled)
		lua_output_hold();
	if (e->cfg.stats_enabled && e->cfg.stats_interval_s > 0 &&
	    pthread_create(&st->thread, NULL, stats_main, st) == 0)
		st->running = 1;
}

void stats_thread_stop(StatsThread *st)
{
	if (st->running) {
		pthread_mutex_lock(&st->lock);
		st->stop = 1;
		pthread_cond_signal(&st->cond);
		pthread_mutex_unlock(&st->lock);
		pthread_join(st->thread, NULL);
		st->running = 0;
	}
	if (st->e->cfg.stats_enabled) {
		stats_write(st);
		lua_output_release();
	}
	pthread_mutex_destroy(&st->lock);
	pthread_cond_destroy(&st->cond);
}
