#define _GNU_SOURCE   /* pthread_setname_np */
/* Runmodes (runmode.h): the names, and one run: the packet pool, the stats
 * thread and the outputs around the chosen runmode's threads. The
 * runmodes themselves and the worker are in files of their own
 * (runmode-int.h lists them). */
#include "runmode/runmode-int.h"
#include "app-layer/expect.h"
#include "detect/prefilter-gpu.h"
#include "runmode/stats-thread.h"
#include "util/log.h"

#include <string.h>

int runmode_parse(const char *name, enum runmode *out)
{
	if (strcmp(name, "single") == 0)
		*out = RUNMODE_SINGLE;
	else if (strcmp(name, "autofp") == 0)
		*out = RUNMODE_AUTOFP;
	else if (strcmp(name, "workers") == 0)
		*out = RUNMODE_WORKERS;
	else
		return -1;
	return 0;
}

const char *runmode_name(enum runmode m)
{
	return m == RUNMODE_SINGLE ? "single" : m == RUNMODE_WORKERS ? "workers" : "autofp";
}

void runmode_list(void)
{
	printf("------------------------------------- Runmodes -------------------------------------------\n");
	printf("| RunMode Type      | Custom Mode       | Description\n");
	printf("|-----------------------------------------------------------------------------------------\n");
	printf("| PCAP_DEV          | single            | Single threaded pcap live mode\n");
	printf("|                   ---------------------------------------------------------------------\n");
	printf("|                   | autofp            | Multi-threaded pcap live mode. Packets from each flow are\n");
	printf("|                   |                   | assigned to a consistent detection thread\n");
	printf("|                   ---------------------------------------------------------------------\n");
	printf("|                   | workers           | Workers pcap live mode, each thread does all tasks from\n");
	printf("|                   |                   | acquisition to logging\n");
	printf("|-----------------------------------------------------------------------------------------\n");
	printf("| AF_PACKET_DEV     | single            | Single threaded af-packet mode\n");
	printf("|                   ---------------------------------------------------------------------\n");
	printf("|                   | workers           | Workers af-packet mode, each thread does all tasks from\n");
	printf("|                   |                   | acquisition to logging\n");
	printf("|                   ---------------------------------------------------------------------\n");
	printf("|                   | autofp            | Multi socket AF_PACKET mode. Packets from each flow are\n");
	printf("|                   |                   | assigned to a consistent detection thread\n");
	printf("|-----------------------------------------------------------------------------------------\n");
	printf("| NFQ               | autofp            | Multi-threaded NFQ IPS mode. Packets from each flow are\n");
	printf("|                   |                   | assigned to a consistent detection thread\n");
	printf("|                   ---------------------------------------------------------------------\n");
	printf("|                   | workers           | Multi queue NFQ IPS mode, each thread does all tasks from\n");
	printf("|                   |                   | acquisition to logging\n");
	printf("|-----------------------------------------------------------------------------------------\n");
	printf("| PCAP_FILE         | single            | Single threaded pcap file mode\n");
	printf("|                   ---------------------------------------------------------------------\n");
	printf("|                   | autofp            | Multi-threaded pcap file mode. Packets from each flow are\n");
	printf("|                   |                   | assigned to a consistent detection thread\n");
	printf("|-----------------------------------------------------------------------------------------\n");
}

void runmode_started(Engine *e)
{
	RunControl *c = e->ctl;

	if (c && c->on_started) {
		void (*started)(void *) = c->on_started;

		c->on_started = NULL;
		started(c->arg);
	}
}

/* Main thread: what the signal handlers asked for. SIGUSR2 queues a rule
 * reload on the reload thread (never built here: this may be a capture
 * thread). */
void runmode_control_poll(Engine *e)
{
	RunControl *c = e->ctl;

	if (!c)
		return;
	/* the unix socket's thread sets these too (reopen-log-files) */
	if (__atomic_load_n(&c->reopen, __ATOMIC_RELAXED)) {
		__atomic_store_n(&c->reopen, 0, __ATOMIC_RELAXED);
		if (c->on_reopen)
			c->on_reopen(c->arg);
	}
	if (c->reload) {
		char msg[256];

		c->reload = 0;
		if (!e->reload)
			log_notice("SIGUSR2: detection is disabled: no rules to reload");
		else if (reloader_request(e->reload, 0, msg, sizeof(msg)) > 0)
			log_notice("SIGUSR2: rule reload started");
		else
			log_notice("SIGUSR2: rule reload not started: %s", msg);
	}
	if (e->live && c->on_tick) {
		struct timespec now;

		clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
		if (now.tv_sec != c->last_tick.tv_sec) {
			c->last_tick = now;
			c->on_tick(c->arg);
		}
	}
}

int runmode_run(Engine *e)
{
	PacketPool pool;
	ThreadCounters *rx_tc;
	StatsThread st;
	int rc;

	/* workers: each capture thread has its own pool, this one stays empty */
	memset(&pool, 0, sizeof(pool));
	if (e->cfg.mode != RUNMODE_WORKERS &&
	    packet_pool_init(&pool, e->cfg.max_pending_packets) != 0) {
		log_error("runmode: cannot allocate %u packets (max-pending-packets)",
			  e->cfg.max_pending_packets);
		return -1;
	}
	rx_tc = thread_counters_new();
	if (!rx_tc) {
		packet_pool_destroy(&pool);
		return -1;
	}
	stats_thread_start(&st, e);
	outputs_run_start(e->outputs);
	if (e->cfg.mode == RUNMODE_SINGLE)
		rc = run_single(e, &pool, rx_tc);
	else if (e->cfg.mode == RUNMODE_WORKERS)
		rc = run_workers(e);
	else
		rc = run_autofp(e, &pool, rx_tc);
	/* the run's flows are gone: so are the data flows they announced
	 * (FTP's), whose data would otherwise outlive the counters they
	 * charge (the next pcap of the unix socket, a fuzz harness's next run) */
	expect_clear();
	/* ac-cuda: its last figures, now that every feed is closed */
	detect_gpu_update_counters(e->reload ? reload_gpu(e->reload) : detect_engine_gpu(e->detect));
	/* the flow records of the run, before its final stats record */
	outputs_run_stop(e->outputs);

	stats_thread_stop(&st);
	thread_counters_retire(rx_tc);
	packet_pool_destroy(&pool);
	return rc;
}
