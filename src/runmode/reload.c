/* Rule reload: the reload thread, the swap and the workers' pick-up
 * (reload.h). */
#include "runmode/reload.h"
#include "conf/conf.h"
#include "detect/prefilter-gpu.h"
#include "output/output.h"
#include "util/log.h"

#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct ReloadSlot {
	int used;                      /* a thread holds it (slot_lock) */
	ThreadCounters *tc;            /* NULL: the RX thread (no DetectThread) */
	detect_order_fn order_fn;
	void *order_arg;
	/* set by the reloader before it publishes; taken by the worker */
	DetectThread *_Atomic next;
	/* handed back by the worker before its acknowledgement */
	DetectThread *old;
	_Atomic uint64_t acked;        /* the generation the thread runs */
	int waited;                    /* the reloader waits for it (slot_lock) */
};

typedef struct EngineSet {
	SigTable *t;
	DetectEngine *de;
	struct DetectGpu *gpu;
	struct timeval at;             /* when its rules were loaded */
} EngineSet;

struct Reloader {
	struct ReloadGen pub;          /* first: reload_pending() */
	ReloadSetup setup;
	struct Outputs *outputs;
	/* cur: swapped under slot_lock (readers: join, pickup) */
	pthread_mutex_t slot_lock;
	EngineSet cur;
	ReloadSlot *slots;
	unsigned nslots;
	/* requests: under lock */
	pthread_mutex_t lock;
	pthread_cond_t cond;           /* a request, the stop, a reload done */
	pthread_t thread;
	int started, stop;
	uint64_t asked, done;          /* requests taken, reloads finished */
	int running;
	int last_ok;
	char last_msg[256];
	uint64_t reloads, reloads_failed;
	EngineSet pending_old;         /* a swap the stop cut short */
};

Reloader *reloader_new(const ReloadSetup *setup, SigTable *t, DetectEngine *de,
		       struct DetectGpu *gpu, struct Outputs *outputs, unsigned max_threads)
{
	Reloader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->slots = calloc(max_threads ? max_threads : 1, sizeof(*r->slots));
	if (!r->slots) {
		free(r);
		return NULL;
	}
	r->nslots = max_threads ? max_threads : 1;
	r->setup = *setup;
	r->outputs = outputs;
	r->cur.t = t;
	r->cur.de = de;
	r->cur.gpu = gpu;
	gettimeofday(&r->cur.at, NULL);
	atomic_init(&r->pub.gen, 1);
	pthread_mutex_init(&r->slot_lock, NULL);
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->cond, NULL);
	return r;
}

static void engine_set_free(EngineSet *s)
{
	/* the GPU first (it points into the engine's groups), the table last
	 * (the engine points into its rules) */
	detect_gpu_free(s->gpu);
	detect_engine_free(s->de);
	sig_table_free(s->t);
	memset(s, 0, sizeof(*s));
}

/* ---- workers ---- */

ReloadSlot *reload_join(Reloader *r, ThreadCounters *tc, detect_order_fn order_fn,
			void *order_arg, const DetectEngine **de, uint64_t *gen)
{
	ReloadSlot *s = NULL;

	pthread_mutex_lock(&r->slot_lock);
	for (unsigned i = 0; i < r->nslots; i++) {
		/* not one whose last DetectThread the reloader has yet to free */
		if (!r->slots[i].used && !r->slots[i].old && !r->slots[i].waited) {
			s = &r->slots[i];
			break;
		}
	}
	if (s) {
		memset(s, 0, sizeof(*s));
		s->used = 1;
		s->tc = tc;
		s->order_fn = order_fn;
		s->order_arg = order_arg;
		*gen = atomic_load(&r->pub.gen);
		atomic_store(&s->acked, *gen);
		if (de)
			*de = r->cur.de;
	}
	pthread_mutex_unlock(&r->slot_lock);
	return s;
}

DetectThread *reload_pickup(Reloader *r, ReloadSlot *s, DetectThread *cur, uint64_t *gen)
{
	uint64_t g = atomic_load_explicit(&r->pub.gen, memory_order_acquire);
	DetectThread *n = atomic_exchange_explicit(&s->next, NULL, memory_order_acquire);

	/* n NULL: the slot joined after the reloader prepared the others (it
	 * built its DetectThread for the new engine already) or is the RX
	 * thread */
	if (n) {
		s->old = cur;
		cur = n;
	}
	*gen = g;
	atomic_store_explicit(&s->acked, g, memory_order_release);
	return cur;
}

void reload_leave(Reloader *r, ReloadSlot *s, DetectThread **dt, uint64_t *gen)
{
	pthread_mutex_lock(&r->slot_lock);
	if (reload_pending(r, *gen)) {
		DetectThread *d = reload_pickup(r, s, dt ? *dt : NULL, gen);

		if (dt)
			*dt = d;
	}
	/* freed here: its engine lives while we hold the lock (a swap needs
	 * it), but not a moment after the slot is free */
	if (dt) {
		detect_thread_free(*dt);
		*dt = NULL;
	}
	s->used = 0;
	pthread_mutex_unlock(&r->slot_lock);
}

struct DetectGpu *reload_gpu(Reloader *r)
{
	struct DetectGpu *g;

	pthread_mutex_lock(&r->slot_lock);
	g = r->cur.gpu;
	pthread_mutex_unlock(&r->slot_lock);
	return g;
}

/* ---- the reload ---- */

static int build_tables(Reloader *r, EngineSet *next, const DetectConfig *dc, char *why,
			size_t len);

/* Loads and builds the next engine beside cur. 0, or -1 with why. */
static int build_next(Reloader *r, EngineSet *next, char *why, size_t len)
{
	const ReloadSetup *su = &r->setup;
	DetectConfig dc = su->dc;
	char err[1024] = "";
	int ok;

	memset(next, 0, sizeof(*next));
	/* the rules, vars and classification are read from the tree while
	 * the engine builds: nobody changes it meanwhile */
	conf_lock();
	if (su->reread && su->reread(su->reread_arg, err, sizeof(err)) != 0) {
		conf_unlock();
		snprintf(why, len, "%s", err);
		return -1;
	}
	if (su->reread)
		dc.threshold_file = conf_get("threshold-file");
	ok = build_tables(r, next, &dc, why, len);
	conf_unlock();
	return ok;
}

/* The rule table, the engine and its GPU automata. 0, or -1 with why. */
static int build_tables(Reloader *r, EngineSet *next, const DetectConfig *dc, char *why,
			size_t len)
{
	const ReloadSetup *su = &r->setup;
	RuleLoadConfig rc = { 0 };
	char err[1024] = "";

	rc.exclusive = su->rules_exclusive;
	rc.extra = su->rules_extra;
	rc.firewall = su->dc.firewall;
	rc.fw_exclusive = su->fw_exclusive;
	rc.init_errors_fatal = su->init_errors_fatal;
	rc.alproto_off = su->alproto_off;
	next->t = sig_load(&rc, err, sizeof(err));
	if (!next->t) {
		/* empty: a failed rule, said in the log (rule-load.c) */
		snprintf(why, len, "%s", err[0] ? err : "a rule failed to load");
		return -1;
	}
	gettimeofday(&next->at, NULL);
	if (next->t->files_failed) {
		snprintf(why, len, "%d rule file%s could not be read", next->t->files_failed,
			 next->t->files_failed == 1 ? "" : "s");
		return -1;
	}
	if (!next->t->loaded && next->t->failed) {
		snprintf(why, len, "no rule loaded, %d failed", next->t->failed);
		return -1;
	}
	/* An empty file (a rule update cut short, a truncating editor) would
	 * silently turn detection off: refused while rules run, as Suricata
	 * refuses a ruleset where no rule loads. Starting with none and
	 * reloading none stays allowed. */
	if (!next->t->loaded && r->cur.t && r->cur.t->loaded) {
		snprintf(why, len, "no rule loaded from %d rule file%s while %d rule%s run",
			 next->t->files_loaded, next->t->files_loaded == 1 ? "" : "s",
			 r->cur.t->loaded, r->cur.t->loaded == 1 ? "" : "s");
		return -1;
	}
	next->de = detect_engine_build_next(next->t, dc, r->cur.de, err, sizeof(err));
	if (!next->de) {
		snprintf(why, len, "%s", err);
		return -1;
	}
	if (!su->raw_kept && detect_engine_uses_stream(next->de) &&
	    !detect_engine_uses_stream(r->cur.de))
		log_warning("rule reload: the new rules inspect the stream, which this run does not "
			    "keep (it started without such rules, reading a file): they see packets "
			    "only until a restart");
	if (su->gpu_ops) {
		next->gpu = detect_gpu_new(next->de, &su->gpu_cfg,
					   su->gpu_opts_set ? &su->gpu_opts : NULL, su->gpu_ops, err,
					   sizeof(err));
		if (!next->gpu) {
			snprintf(why, len, "ac-cuda: %s", err);
			return -1;
		}
	}
	return 0;
}

/* Each joined worker's DetectThread for the new engine, then the swap:
 * one store of the generation. Under slot_lock, so that no worker joins or
 * leaves meanwhile. 0, or -1 (nothing published). */
static int publish(Reloader *r, EngineSet *next, EngineSet *old, uint64_t *gen)
{
	unsigned i;

	pthread_mutex_lock(&r->slot_lock);
	for (i = 0; i < r->nslots; i++) {
		ReloadSlot *s = &r->slots[i];
		DetectThread *dt;

		s->waited = s->used;
		if (!s->used || !s->tc)
			continue;
		dt = detect_thread_new(next->de, s->tc);
		if (!dt)
			break;
		if (s->order_fn)
			detect_thread_set_order(dt, s->order_fn, s->order_arg);
		atomic_store_explicit(&s->next, dt, memory_order_relaxed);
	}
	if (i < r->nslots) {
		for (unsigned k = 0; k < r->nslots; k++) {
			detect_thread_free(atomic_exchange(&r->slots[k].next, NULL));
			r->slots[k].waited = 0;
		}
		pthread_mutex_unlock(&r->slot_lock);
		return -1;
	}
	detect_engine_adopt(next->de, r->cur.de);
	*old = r->cur;
	r->cur = *next;
	*gen = atomic_load(&r->pub.gen) + 1;
	atomic_store_explicit(&r->pub.gen, *gen, memory_order_release);
	pthread_mutex_unlock(&r->slot_lock);
	return 0;
}

/* Until every thread that ran the old engine runs the new one (or left),
 * and the old GPU's tickets are all released. 0, or -1 when the run
 * stops first (what is left is freed by reloader_free). */
static int wait_moved_on(Reloader *r, uint64_t gen, struct DetectGpu *old_gpu)
{
	for (;;) {
		int left = 0;
		struct timespec ts = { 0, 1000000 };

		pthread_mutex_lock(&r->slot_lock);
		for (unsigned i = 0; i < r->nslots; i++) {
			ReloadSlot *s = &r->slots[i];

			if (s->waited && s->used &&
			    atomic_load_explicit(&s->acked, memory_order_acquire) != gen)
				left++;
		}
		pthread_mutex_unlock(&r->slot_lock);
		if (!left && (!old_gpu || !detect_gpu_outstanding(old_gpu)))
			return 0;
		pthread_mutex_lock(&r->lock);
		if (r->stop) {
			pthread_mutex_unlock(&r->lock);
			return -1;
		}
		pthread_mutex_unlock(&r->lock);
		nanosleep(&ts, NULL);
	}
}

/* The old DetectThreads the workers handed back. Every waited slot acked
 * (or left after its last pick-up), so each `old` is final. */
static void free_handed_back(Reloader *r)
{
	pthread_mutex_lock(&r->slot_lock);
	for (unsigned i = 0; i < r->nslots; i++) {
		detect_thread_free(r->slots[i].old);
		r->slots[i].old = NULL;
		r->slots[i].waited = 0;
	}
	pthread_mutex_unlock(&r->slot_lock);
}

static int reload_once(Reloader *r, char *msg, size_t len)
{
	EngineSet next, old;
	uint64_t gen;
	char why[1024];
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (build_next(r, &next, why, sizeof(why)) != 0) {
		engine_set_free(&next);
		log_error("rule reload failed, the running rules are kept: %s", why);
		snprintf(msg, len, "%.200s", why);
		return 0;
	}
	if (publish(r, &next, &old, &gen) != 0) {
		engine_set_free(&next);
		log_error("rule reload failed, the running rules are kept: out of memory "
			  "for the workers' detection state");
		snprintf(msg, len, "out of memory");
		return 0;
	}
	pthread_mutex_lock(&r->lock);
	if (r->outputs)
		outputs_set_rules(r->outputs, &r->cur.at, r->cur.t->loaded, r->cur.t->failed,
				  r->cur.t->skipped);
	pthread_mutex_unlock(&r->lock);
	if (wait_moved_on(r, gen, old.gpu) != 0) {
		r->pending_old = old;
		snprintf(msg, len, "done");
		return 1;
	}
	free_handed_back(r);
	if (old.gpu) {
		uint64_t drained = detect_gpu_drained(old.gpu);

		detect_gpu_retire_counters(old.gpu);
		if (drained)
			log_info("rule reload: %llu packets queued for the old engine's GPU automata "
				 "were inspected by the new engine on the CPU",
				 (unsigned long long)drained);
	}
	engine_set_free(&old);
#ifdef __GLIBC__
	/* The old engine's pages go back to the system: it was built in
	 * another thread's arena (start-up's, or this thread's last time),
	 * whose free chunks the next build would not reuse, so each reload
	 * would leave RSS a step higher (as start-up trims after the load) */
	malloc_trim(0);
#endif
	clock_gettime(CLOCK_MONOTONIC, &t1);
	log_notice("rule reload: %d rules loaded, %d failed, %d skipped; the new engine "
		   "(generation %llu) runs on every thread after %.3f s",
		   r->cur.t->loaded, r->cur.t->failed, r->cur.t->skipped,
		   (unsigned long long)gen,
		   (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	snprintf(msg, len, "done");
	return 1;
}

static void *reloader_main(void *arg)
{
	Reloader *r = arg;

	pthread_mutex_lock(&r->lock);
	for (;;) {
		char msg[256];
		int ok;

		while (!r->stop && r->asked == r->done)
			pthread_cond_wait(&r->cond, &r->lock);
		if (r->stop)
			break;
		r->running = 1;
		pthread_mutex_unlock(&r->lock);
		ok = reload_once(r, msg, sizeof(msg));
		pthread_mutex_lock(&r->lock);
		r->running = 0;
		r->last_ok = ok;
		snprintf(r->last_msg, sizeof(r->last_msg), "%s", msg);
		if (ok)
			r->reloads++;
		else
			r->reloads_failed++;
		/* a request made while this one ran asked for one more round
		 * (reloader_request): the files may have changed after the load */
		r->done++;
		pthread_cond_broadcast(&r->cond);
	}
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

int reloader_start(Reloader *r)
{
	if (pthread_create(&r->thread, NULL, reloader_main, r) != 0) {
		log_error("rule reload: cannot start its thread: %s", strerror(errno));
		return -1;
	}
	r->started = 1;
	return 0;
}

int reloader_request(Reloader *r, int wait, char *msg, size_t msglen)
{
	uint64_t ticket;
	int ok;

	pthread_mutex_lock(&r->lock);
	if (r->stop) {
		pthread_mutex_unlock(&r->lock);
		snprintf(msg, msglen, "shutting down");
		return wait ? 0 : -1;
	}
	pthread_mutex_unlock(&r->lock);
	if (!r->setup.enabled) {
		snprintf(msg, msglen, "rule reload is disabled (detect-engine.rule-reload: false)");
		return wait ? 0 : -1;
	}
	pthread_mutex_lock(&r->lock);
	if (!wait && (r->running || r->asked != r->done)) {
		pthread_mutex_unlock(&r->lock);
		snprintf(msg, msglen, "Reload already in progress");
		return -1;
	}
	/* one reload serves every request made before it started */
	if (r->asked == r->done || r->running)
		r->asked++;
	ticket = r->asked;
	pthread_cond_broadcast(&r->cond);
	if (!wait) {
		pthread_mutex_unlock(&r->lock);
		snprintf(msg, msglen, "done");
		return 1;
	}
	while (r->done < ticket && !r->stop)
		pthread_cond_wait(&r->cond, &r->lock);
	ok = r->done >= ticket ? r->last_ok : 0;
	snprintf(msg, msglen, "%s", r->done >= ticket ? r->last_msg : "shutting down");
	pthread_mutex_unlock(&r->lock);
	return ok;
}

void reloader_info(Reloader *r, ReloadInfo *out)
{
	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&r->slot_lock);
	out->last_reload = r->cur.at;
	out->loaded = r->cur.t ? r->cur.t->loaded : 0;
	out->failed = r->cur.t ? r->cur.t->failed : 0;
	out->skipped = r->cur.t ? r->cur.t->skipped : 0;
	out->generation = atomic_load(&r->pub.gen);
	pthread_mutex_unlock(&r->slot_lock);
	pthread_mutex_lock(&r->lock);
	out->reloads = r->reloads;
	out->reloads_failed = r->reloads_failed;
	out->running = r->running || r->asked != r->done;
	pthread_mutex_unlock(&r->lock);
}

void reloader_failed_rules(Reloader *r, void (*fn)(void *arg, const FailedRule *fr), void *arg)
{
	/* cur changes only on the reload thread; the table lives until the
	 * next swap, which waits for no lock holder: hold slot_lock meanwhile */
	pthread_mutex_lock(&r->slot_lock);
	for (int i = 0; r->cur.t && i < r->cur.t->nfailed_rules; i++)
		fn(arg, &r->cur.t->failed_rules[i]);
	pthread_mutex_unlock(&r->slot_lock);
}

void reloader_set_outputs(Reloader *r, struct Outputs *outputs)
{
	if (!r)
		return;
	pthread_mutex_lock(&r->lock);
	r->outputs = outputs;
	pthread_mutex_unlock(&r->lock);
}

void reloader_reset_state(Reloader *r)
{
	if (!r)
		return;
	/* a swap adopts cur's state under this lock */
	pthread_mutex_lock(&r->slot_lock);
	detect_engine_reset_state(r->cur.de);
	pthread_mutex_unlock(&r->slot_lock);
}

void reloader_with_engine(Reloader *r, void (*fn)(void *arg, DetectEngine *de), void *arg)
{
	if (!r)
		return;
	/* a swap hands cur's state on under this lock: the engine stays */
	pthread_mutex_lock(&r->slot_lock);
	fn(arg, r->cur.de);
	pthread_mutex_unlock(&r->slot_lock);
}

void reloader_stop(Reloader *r)
{
	if (!r || !r->started)
		return;
	pthread_mutex_lock(&r->lock);
	r->stop = 1;
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
	pthread_join(r->thread, NULL);
	r->started = 0;
}

void reloader_free(Reloader *r)
{
	if (!r)
		return;
	reloader_stop(r);
	/* every worker left: what they handed back, a swap the stop cut short */
	free_handed_back(r);
	for (unsigned i = 0; i < r->nslots; i++)
		detect_thread_free(atomic_exchange(&r->slots[i].next, NULL));
	engine_set_free(&r->pending_old);
	engine_set_free(&r->cur);
	pthread_mutex_destroy(&r->slot_lock);
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->cond);
	free(r->slots);
	free(r);
}
