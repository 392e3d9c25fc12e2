/* workers: live sources only; one thread per capture handle does all from
 * capture to logging, with its own packet pool; the main thread serves the
 * signals meanwhile. */
#include "runmode/runmode-int.h"
#include "util/log.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

typedef struct CaptureThread {
	Engine *e;
	unsigned id;
	pthread_t thread;
	int rc;
	_Atomic int done;
} CaptureThread;

static void *capture_thread_main(void *arg)
{
	CaptureThread *ct = arg;
	Engine *e = ct->e;
	PacketPool pool;
	ThreadCounters *tc;

	thread_name_set("W", ct->id + 1);
	ct->rc = -1;
	/* max-pending-packets is per thread, as in Suricata */
	if (packet_pool_init(&pool, e->cfg.max_pending_packets) != 0) {
		log_error("runmode workers: thread %u cannot allocate %u packets "
			  "(max-pending-packets)", ct->id, e->cfg.max_pending_packets);
		atomic_store(&ct->done, 1);
		return NULL;
	}
	tc = thread_counters_new();
	if (tc)
		ct->rc = capture_worker(e, e->caps[ct->id], &pool, tc, ct->id, e->ncaps, 0);
	thread_counters_retire(tc);
	packet_pool_destroy(&pool);
	atomic_store(&ct->done, 1);
	return NULL;
}

/* workers: a thread per capture handle; the main thread serves the signals. */
int run_workers(Engine *e)
{
	CaptureThread *ct = calloc(e->ncaps, sizeof(*ct));
	unsigned started = 0, left;
	int rc = 0;

	if (!ct)
		return -1;
	for (unsigned i = 0; i < e->ncaps; i++) {
		ct[i].e = e;
		ct[i].id = i;
		if (pthread_create(&ct[i].thread, NULL, capture_thread_main, &ct[i]) != 0) {
			log_error("runmode workers: cannot start capture thread %u", i);
			if (e->ctl)
				e->ctl->stop = 1;
			rc = -1;
			break;
		}
		started++;
	}
	if (!rc)
		runmode_started(e);
	do {
		struct timespec ts = { 0, IDLE_TICK_MS * 1000000L };

		left = 0;
		for (unsigned i = 0; i < started; i++)
			left += !atomic_load(&ct[i].done);
		runmode_control_poll(e);
		if (left)
			nanosleep(&ts, NULL);
	} while (left);
	for (unsigned i = 0; i < started; i++) {
		pthread_join(ct[i].thread, NULL);
		if (ct[i].rc != 0)
			rc = -1;
	}
	free(ct);
	return rc;
}
