/* Engine set-up: the steps main() takes between the command line and the
 * run, each on the one Session that holds what start-up made. Every step
 * returns 0 or -1 with the reason logged (one line, naming the key or the
 * file), so that main() reads as a sequence and stops at the first
 * failure; whatever a failed step left is freed by session_end(). */
#ifndef MAIN_SETUP_H
#define MAIN_SETUP_H

#include "main/cli.h"
#include "main/daemon.h"
#include "main/security.h"
#include "capture/capture.h"
#include "conf/cuda-mpm-conf.h"
#include "detect/detect-parse.h"
#include "detect/engine.h"
#include "detect/prefilter-gpu.h"
#include "output/output.h"
#include "runmode/pcap-queue.h"
#include "runmode/reload.h"
#include "runmode/runmode.h"
#include "runmode/unix-socket.h"

/* max-pending-packets when the key is left out (as in Suricata 8's yaml,
 * where it is commented out): Suricata's 1024, with every mpm-algo. ac-cuda
 * batches per packet thread, a window of a quarter of the pool's share
 * at a time (runmode/window.c), so the pool need not hold a GPU batch's
 * worth of packets and the caches stay warm (doc/gpu.md). */
#define MAX_PENDING_DEFAULT 1024

/* mpm-algo is ac-cuda (setup.c). */
int mpm_algo_is_ac_cuda(void);

typedef struct Session {
	Cli cli;
	Engine engine;             /* cfg.policy: the run policy, resolved once */
	SigTable *sigs;            /* the rules, until the reloader owns them */
	DetectGpu *gpu;            /* ac-cuda's automata, idem */
	CudaMpmConfig cuda;        /* cuda.mpm, loaded and validated once */
	/* one per interface (a file, or one interface, in [0] alone) */
	CaptureConfig capcfg[CLI_LIVE_DEVS_MAX];
	unsigned ncapcfg;
	OutputConfig ocfg;
	RunAs run_as;
	ReloadSetup reload_setup;
	RunHooks hooks;            /* what SIGHUP and the tick act on */
	SecurityConfig security;   /* security.*, loaded once */
	UnixSocket *usock;
	PcapQueue *pcap_queue;     /* the unix-socket runmode's input */
	int usock_mode;            /* --unix-socket alone: the unix-socket runmode */
	const char *log_dir;
	char log_file[4096];       /* suricata.log, "" when there is none */
	const char *pidfile;
	int pidfile_owned;         /* we wrote it: we remove it */
	int ready_fd;              /* -D: the pipe to the waiting parent, or -1 */
} Session;

/* The yaml (-c) with --set over it, and the console level from it. */
int setup_config(Session *s);
/* The typed engine configuration from the tree: runmode and threads, the
 * subsystems' sections, the run policy, cuda.mpm. */
int setup_engine_config(Session *s);
/* --engine-analysis and -T: the engine is built and checked, nothing runs.
 * Return the exit code. */
int setup_engine_analysis(Session *s);
int setup_test_mode(Session *s);
/* The input (-r, a live capture or the unix-socket runmode), the capture
 * section, run-as's names and the log folder; nothing is opened yet. */
int setup_input(Session *s, const char *prog);
/* Captures, rules and detection engine, GPU, counters, outputs, the rule
 * reloader and the signal hooks (signals installed: s->engine.ctl set). */
int setup_engine(Session *s);

/* setup-detect.c: rules, detection engine, ac-cuda, reloader. */
int setup_detect(Session *s);
/* Suricata 8's firewall mode is on (--firewall, a firewall rule file or
 * firewall.enabled). */
int setup_firewall_enabled(const Cli *cli);
int setup_gpu(Session *s, int open_device);
int setup_reloader(Session *s);
/* detect-engine.rule-reload (default true). 0, or -1 logged. */
int rule_reload_enabled(int *out);

#endif
