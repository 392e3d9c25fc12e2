/* fuzz_rule: the rule parser and loader (detect-parse.c, keywords, rule-load.c)
 * and the detection engine build (fast patterns, groups, MPM prepare).
 *
 * One input is rule text, one rule per line as in a .rules file (comments,
 * continuation lines and all). The loader parses it into a table with the
 * shipped classification.config and reference.config; when at least one rule
 * loads, the engine is built from the table and freed again. The yaml gives
 * the address and port variables, as in a real run. */
#include "fuzz-common.h"
#include "conf/conf.h"
#include "detect/detect-parse.h"
#include "detect/engine.h"
#include "stats/counters.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static DetectConfig dcfg;
static char class_path[512], ref_path[512];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char err[512], path[512];

	(void)argc;
	(void)argv;
	fuzz_quiet();
	snprintf(path, sizeof(path), "%s/suricata.yaml", FUZZ_TOP_BUILDDIR);
	if (conf_load_file(path, err, sizeof(err)) != 0) {
		fprintf(stderr, "fuzz_rule: %s\n", err);
		abort();
	}
	if (detect_config_load(&dcfg, err, sizeof(err)) != 0) {
		fprintf(stderr, "fuzz_rule: %s\n", err);
		abort();
	}
	snprintf(class_path, sizeof(class_path), "%s/etc/classification.config", FUZZ_TOP_SRCDIR);
	snprintf(ref_path, sizeof(ref_path), "%s/etc/reference.config", FUZZ_TOP_SRCDIR);
	detect_register_counters();
	counters_freeze();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	RuleLoadConfig rc = { .quiet = 1 };
	SigTable *t = sig_table_new();
	char *text = fuzz_strndup(data, size);
	char err[1024];

	if (!t)
		abort();
	/* as sig_load does before the rule files: classtypes and references are checked */
	if (detect_load_classifications(&t->ctx, class_path, err, sizeof(err)) != 0 ||
	    detect_load_references(&t->ctx, ref_path, err, sizeof(err)) != 0) {
		fprintf(stderr, "fuzz_rule: %s\n", err);
		abort();
	}
	sig_load_string(t, text, "fuzz.rules", &rc, err, sizeof(err));
	if (t->nsigs > 0) {
		DetectEngine *de = detect_engine_build(t, &dcfg, err, sizeof(err));

		if (de) {
			DetectThread *dt = detect_thread_new(de, thread_counters_new());

			detect_thread_free(dt);
			detect_engine_free(de);
		}
	}
	sig_table_free(t);
	free(text);
	/* thread_counters_new above adds a block per input: drop them all, keep
	 * the registry as the engine's start-up left it */
	counters_destroy();
	detect_register_counters();
	counters_freeze();
	return 0;
}
