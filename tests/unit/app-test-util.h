/* Helpers shared by the app-layer unit tests (test_http, test_smtp,
 * test_dns_proto, test_frames, test_ftp, test_ssh, test_dcerpc): the app
 * layer's counters registered once per process, an IPv4 flow from
 * 10.0.0.1 with an app-layer thread to feed it, and rules loaded from a
 * string to count what the keywords accept. */
#ifndef TESTS_UNIT_APP_TEST_UTIL_H
#define TESTS_UNIT_APP_TEST_UTIL_H

#include "app-layer/app-layer.h"
#include "detect/detect-parse.h"
#include "flow/flow.h"
#include "stats/counters.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

/* Counters are registered before the first thread's block exists and
 * frozen after; every test of the process shares the one thread block. */
static inline ThreadCounters *app_test_counters(void)
{
	static ThreadCounters *tc;
	static int done;

	if (!done) {
		app_layer_register_counters();
		counters_freeze();
		done = 1;
	}
	if (!tc)
		tc = thread_counters_new();
	return tc;
}

typedef struct AppTestCtx {
	AppLayerConfig cfg;
	AppLayerThread *at;
	Flow f;
} AppTestCtx;

/* With c->cfg as the caller set it: the thread, and the flow
 * 10.0.0.1:sp -> dst:dp of proto. */
static inline void app_test_start(AppTestCtx *c, uint8_t proto, const char *dst,
				  uint16_t sp, uint16_t dp)
{
	c->at = app_layer_thread_new(&c->cfg, app_test_counters());
	memset(&c->f, 0, sizeof(c->f));
	c->f.proto = proto;
	c->f.ip_version = 4;
	c->f.src.family = AF_INET;
	c->f.dst.family = AF_INET;
	inet_pton(AF_INET, "10.0.0.1", &c->f.src.a.u32[0]);
	inet_pton(AF_INET, dst, &c->f.dst.a.u32[0]);
	c->f.sp = sp;
	c->f.dp = dp;
}

/* The same with the app-layer configuration of the loaded yaml. */
static inline void app_test_init(AppTestCtx *c, uint8_t proto, const char *dst,
				 uint16_t sp, uint16_t dp)
{
	app_layer_config_load(&c->cfg);
	app_test_start(c, proto, dst, sp, dp);
}

/* Loads rules text into a table of its own and counts what loaded, failed
 * and was skipped (skipped may be NULL): the loader's answer, the table
 * freed. */
static inline int test_load_rules(const char *text, int *loaded, int *failed, int *skipped)
{
	SigTable *t = sig_table_new();
	RuleLoadConfig rc = { .quiet = 1 };
	char err[256];
	int r;

	if (!t)
		return -1;
	r = sig_load_string(t, text, "t.rules", &rc, err, sizeof(err));
	*loaded = t->loaded;
	*failed = t->failed;
	if (skipped)
		*skipped = t->skipped;
	sig_table_free(t);
	return r;
}

static inline void app_test_free(AppTestCtx *c)
{
	app_layer_flow_free(&c->f);
	app_layer_thread_free(c->at);
}

#endif
