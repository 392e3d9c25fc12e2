/* Runmodes.
 *   single:  one thread reads, decodes, tracks flows and inspects (the reference).
 *   autofp:  one RX thread reads and decodes; N workers, each owning a flow table,
 *            take packets from bounded queues chosen by flow hash, so a flow's packets
 *            stay on one worker and in order. Full queues block the reader.
 *   workers: live sources only: one thread per capture handle (each a member of
 *            the kernel's fanout group, which keeps a flow on one socket) does
 *            everything from capture to logging, with its own packet pool.
 * Live sources give idle ticks: with no packet for IDLE_TICK_MS the capture
 * thread publishes what it holds and the flow tables time out on wall-clock
 * time, so flows end, flush and log on a quiet link. */
#ifndef RUNMODE_RUNMODE_H
#define RUNMODE_RUNMODE_H

#include "capture/capture.h"
#include "decode/decode.h"
#include "flow/flow.h"
#include "stream/stream.h"
#include "app-layer/app-layer.h"
#include "util/run-policy.h"

#include <signal.h>
#include <time.h>
#include <stdint.h>

struct Outputs;
struct DetectEngine;
struct Reloader;

enum runmode {
	RUNMODE_SINGLE = 0,
	RUNMODE_AUTOFP,
	RUNMODE_WORKERS,
};

/* How long a capture thread waits for a packet before its idle tick. */
#define IDLE_TICK_MS 100

/* Set by signal handlers, read by the capture loops (no locks, no calls). */
typedef struct RunControl {
	volatile sig_atomic_t stop;     /* SIGTERM, SIGINT: end the capture, flush all */
	volatile sig_atomic_t reopen;   /* SIGHUP: reopen the log files */
	volatile sig_atomic_t reload;   /* SIGUSR2: rule reload (runmode/reload.h) */
	void (*on_reopen)(void *arg);   /* run on the main thread */
	void (*on_tick)(void *arg);     /* live: about once a second, main thread */
	void (*on_started)(void *arg);  /* once the run's threads are all up
	                                 * (runmode_started), main thread */
	void *arg;
	struct timespec last_tick;      /* main thread only */
} RunControl;

typedef struct EngineConfig {
	enum runmode mode;
	unsigned workers;               /* autofp worker threads; workers: capture threads */
	uint32_t max_pending_packets;   /* packet pool size */
	DecodeConfig decode;
	FlowConfig flow;
	StreamConfig stream;            /* stream.*: TCP tracking and reassembly */
	AppLayerConfig app;             /* app-layer.*: HTTP */
	int stats_enabled;
	uint32_t stats_interval_s;
	RunPolicy policy;               /* IDS/IPS, resolved once at start */
} EngineConfig;

typedef struct Engine {
	EngineConfig cfg;
	struct Outputs *outputs;
	Capture **caps;                 /* one per capture thread, opened by main */
	unsigned ncaps;
	int live;                       /* wall-clock idle ticks */
	RunControl *ctl;                /* NULL: no signals handled */
	struct DetectEngine *detect;    /* NULL: detection disabled; the start-up
	                                 * engine (a reload's: reload_*) */
	struct Reloader *reload;        /* NULL: detection disabled */
	int repeat_runs;                /* the unix-socket runmode: one run per file,
	                                 * the reloader outlives each */
} Engine;

/* "single" / "autofp" / "workers" -> mode; -1 if unknown. */
int runmode_parse(const char *name, enum runmode *out);
const char *runmode_name(enum runmode m);
void runmode_list(void);           /* --list-runmodes */

/* Reads the whole source (a live one until ctl->stop). 0, or -1 on a setup
 * failure (logged). */
int runmode_run(Engine *e);

/* What the signal handlers asked for (SIGHUP, SIGUSR2), on the main thread
 * while no run holds it (the unix-socket runmode between files). */
void runmode_control_poll(Engine *e);
/* Main thread, once every thread of the run is started: ctl->on_started. */
void runmode_started(Engine *e);

#endif
