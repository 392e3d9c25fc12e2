/* A detection engine for unit tests: rules from a string, one thread. */
#ifndef TESTS_UNIT_DETECT_TEST_UTIL_H
#define TESTS_UNIT_DETECT_TEST_UTIL_H

#include "detect/detect-parse.h"
#include "detect/engine.h"
#include "stats/counters.h"

#include <stdio.h>
#include <string.h>

typedef struct Env {
	SigTable *t;
	DetectEngine *de;
	DetectThread *dt;
	ThreadCounters *tc;
} Env;

/* 0, or -1 with the loader's or builder's error on stderr. */
/* An engine built with the whole DetectConfig given (table sizes, memcaps). */
static inline int env_init_cfg(Env *e, const char *rules, const DetectConfig *cfg)
{
	RuleLoadConfig rc = { .quiet = 1 };
	DetectConfig dc = *cfg;
	char err[512] = "";

	memset(e, 0, sizeof(*e));
	detect_register_counters();
	e->t = sig_table_new();
	if (!e->t || sig_load_string(e->t, rules, "test.rules", &rc, err, sizeof(err)) != 0) {
		fprintf(stderr, "load: %s\n", err);
		return -1;
	}
	e->de = detect_engine_build(e->t, &dc, err, sizeof(err));
	if (!e->de) {
		fprintf(stderr, "build: %s\n", err);
		return -1;
	}
	e->tc = thread_counters_new();
	e->dt = detect_thread_new(e->de, e->tc);
	return e->dt ? 0 : -1;
}

static inline int env_init_max(Env *e, const char *rules, enum mpm_algo algo,
			       uint32_t alert_max)
{
	DetectConfig dc = { .algo = algo, .alert_max = alert_max };

	return env_init_cfg(e, rules, &dc);
}

static inline void env_free(Env *e)
{
	detect_thread_free(e->dt);
	detect_engine_free(e->de);
	sig_table_free(e->t);
}

#endif
