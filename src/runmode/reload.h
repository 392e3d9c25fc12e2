/* Rule reload (SIGUSR2, the unix socket's reload-rules and
 * ruleset-reload-nonblocking), as Suricata 8 does it: a thread of its own
 * loads the rule files and builds a complete new detection engine (the
 * ac-cuda automata included) beside the running one while packets flow;
 * then each worker picks the new engine up at a packet boundary, and the
 * old one is freed once every worker has moved on.
 *
 * The packet path pays one relaxed-acquire load per packet
 * (reload_pending): the generation the reloader publishes, against the
 * worker's own. No lock on it: the reloader prepares each worker's new
 * DetectThread before it publishes, the worker swaps it in and hands the
 * old one back through its slot, the reloader frees it after the worker's
 * acknowledgement. A worker that stops (end of input) leaves under the
 * slot lock, after a last pick-up, so that nobody waits for it.
 *
 * A reload that fails (a rule file that cannot be read, no rule loaded
 * while some failed or while the running engine has rules, --init-errors-fatal with a failed rule, the engine
 * or the GPU automata that cannot be built) keeps the running engine and
 * says so in one log line. */
#ifndef RUNMODE_RELOAD_H
#define RUNMODE_RELOAD_H

#include "conf/cuda-mpm-conf.h"
#include "detect/detect-parse.h"
#include "detect/engine.h"
#include "mpm/ac-cuda.h"
#include "stats/counters.h"

#include <stdatomic.h>
#include <stdint.h>
#include <sys/time.h>

struct Outputs;
struct DetectGpu;

/* What a reload needs to build an engine as start-up did (main/setup-detect.c). */
typedef struct ReloadSetup {
	int enabled;                   /* detect-engine.rule-reload (default true) */
	const char *rules_exclusive;   /* -S */
	const char *rules_extra;       /* -s */
	const char *fw_exclusive;      /* --firewall-rules-exclusive */
	int init_errors_fatal;
	uint64_t alproto_off;          /* RuleLoadConfig.alproto_off */
	DetectConfig dc;               /* as start-up resolved it */
	/* ac-cuda: the device and its settings (NULL ops: not ac-cuda) */
	const AcDeviceOps *gpu_ops;
	CudaMpmConfig gpu_cfg;
	AcCudaOpts gpu_opts;
	int gpu_opts_set;
	int raw_kept;                  /* the stream engine keeps raw data for stream rules */
	/* Before each reload's load, under conf_lock(): re-reads the yaml's
	 * detection keys (main/setup-detect.c: conf_reload_keys, then the command line's
	 * --set over them), as Suricata 8 re-reads its yaml on a reload; the
	 * new engine takes threshold-file from there too. NULL: the tree as
	 * it is. 0, or -1 with one line in err (the reload fails). */
	int (*reread)(void *arg, char *err, size_t errlen);
	void *reread_arg;
} ReloadSetup;

typedef struct Reloader Reloader;

/* Takes the running engine (t, de, gpu: now the reloader's to free; gpu
 * may be NULL). NULL on no memory. */
Reloader *reloader_new(const ReloadSetup *setup, SigTable *t, DetectEngine *de,
		       struct DetectGpu *gpu, struct Outputs *outputs, unsigned max_threads);
/* Starts the reload thread. 0 or -1. */
int reloader_start(Reloader *r);
/* No more reloads: the thread ends (a swap under way stops waiting for the
 * workers; its old engine is freed by reloader_free). Joins and leaves
 * after it are trivial. Idempotent. */
void reloader_stop(Reloader *r);
/* The outputs a reload tells of its rules (stats.detect.engines); NULL:
 * none (the unix-socket runmode between two files). */
void reloader_set_outputs(Reloader *r, struct Outputs *outputs);
/* The running engine forgets its cross-flow state (between two files of
 * the unix-socket runmode, no worker running). */
void reloader_reset_state(Reloader *r);
/* fn with the running engine, which no swap replaces meanwhile (the unix
 * socket's hostbit commands). */
void reloader_with_engine(Reloader *r, void (*fn)(void *arg, DetectEngine *de), void *arg);
/* Stops, then frees the engines left: call once every thread has left. */
void reloader_free(Reloader *r);

/* Asks for a reload. wait: returns when it is done (1: swapped in, 0:
 * failed: msg says why); else at once (1: queued, -1: one is already
 * running or queued, said in msg). */
int reloader_request(Reloader *r, int wait, char *msg, size_t msglen);

/* ---- workers ---- */
typedef struct ReloadSlot ReloadSlot;

/* A worker (or the ac-cuda RX thread, with tc NULL) joins: the engine it
 * must build its DetectThread for now, and its generation. order_fn: set
 * on every DetectThread the reloader makes for it. NULL slot: no room. */
ReloadSlot *reload_join(Reloader *r, ThreadCounters *tc, detect_order_fn order_fn,
			void *order_arg, const DetectEngine **de, uint64_t *gen);
/* The published generation differs from the worker's: pick up. */
static inline int reload_pending(const Reloader *r, uint64_t gen);
/* Swaps in the new DetectThread (returns it; cur goes back to the
 * reloader) and updates *gen. The RX thread passes cur NULL and gets NULL. */
DetectThread *reload_pickup(Reloader *r, ReloadSlot *s, DetectThread *cur, uint64_t *gen);
/* Leaves: a last pick-up (so that the reloader waits for nobody), then
 * the slot is free. *dt (NULL for the RX thread) is freed here, under the
 * lock that keeps its engine alive, and set to NULL: once the slot is free
 * a reload may free that engine. */
void reload_leave(Reloader *r, ReloadSlot *s, DetectThread **dt, uint64_t *gen);
/* The engine's GPU of generation gen (the RX thread, after a pick-up). */
struct DetectGpu *reload_gpu(Reloader *r);

/* ---- the unix socket's answers ---- */
typedef struct ReloadInfo {
	struct timeval last_reload;    /* the running rules' load time */
	int loaded, failed, skipped;
	uint64_t reloads, reloads_failed;
	uint64_t generation;
	int running;                   /* a reload is under way */
} ReloadInfo;
void reloader_info(Reloader *r, ReloadInfo *out);
/* Calls fn for each rule of the running engine that failed to load. */
void reloader_failed_rules(Reloader *r, void (*fn)(void *arg, const FailedRule *fr),
			   void *arg);

/* The published generation: the first member of struct Reloader (reload.c),
 * so that the per-packet test is inline. */
struct ReloadGen { _Atomic uint64_t gen; };
static inline int reload_pending(const Reloader *r, uint64_t gen)
{
	return atomic_load_explicit(&((const struct ReloadGen *)(const void *)r)->gen,
				    memory_order_acquire) != gen;
}

#endif
