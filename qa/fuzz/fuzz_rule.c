/* fuzz_rule: the rule parser and loader (detect-parse.c, keywords, rule-load.c),
 * the detection engine build (fast patterns, groups, MPM prepare), and the
 * keywords' match code with the fuzzed options.
 *
 * One input is rule text, one rule per line as in a .rules file (comments,
 * continuation lines and all). The loader parses it into a table with the
 * shipped classification.config and reference.config; when at least one rule
 * loads, the engine is built from the table and a few small captures from
 * tests/data (HTTP with a gzip body, content split across segments, UDP, IP
 * fragments) run through the whole pipeline with it (FUZZ_RULE_MATCH=0: build
 * only). The yaml gives the address and port variables, as in a real run. */
#include "fuzz-common.h"
#include "fuzz-engine.h"
#include "conf/conf.h"
#include "detect/detect-parse.h"
#include "detect/engine.h"
#include "stats/counters.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static DetectConfig dcfg;
static EngineConfig ecfg;
static int match = 1;
static char class_path[512], ref_path[512], cap_dir[512];

/* The captures the rules run over: copied into a folder of their own (the
 * engine reads a folder as one run, file by file). */
static void captures_setup(void)
{
	static const char *const caps[] = { "http-gzip.pcap", "split-content.pcap",
					    "ipv4-udp.pcap", "ipv4-frags.pcap" };
	char src[512], dst[600];

	fuzz_path(cap_dir, sizeof(cap_dir), fuzz_tmpdir(), "captures");
	if (mkdir(cap_dir, 0700) != 0) {
		perror(cap_dir);
		abort();
	}
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		FILE *f;
		uint8_t buf[65536];
		size_t n;

		snprintf(src, sizeof(src), "%s/tests/data/pcaps/%s", FUZZ_TOP_SRCDIR, caps[i]);
		f = fopen(src, "rb");
		if (!f) {
			perror(src);
			abort();
		}
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		if (fuzz_write_file(fuzz_path(dst, sizeof(dst), cap_dir, caps[i]), buf, n) != 0)
			abort();
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *m = getenv("FUZZ_RULE_MATCH");
	char err[512];

	(void)argc;
	(void)argv;
	fuzz_quiet();
	match = !(m && !strcmp(m, "0"));
	fuzz_engine_config(&ecfg, fuzz_tmpdir());
	captures_setup();
	if (detect_config_load(&dcfg, err, sizeof(err)) != 0) {
		fprintf(stderr, "fuzz_rule: %s\n", err);
		abort();
	}
	snprintf(class_path, sizeof(class_path), "%s/etc/classification.config", FUZZ_TOP_SRCDIR);
	snprintf(ref_path, sizeof(ref_path), "%s/etc/reference.config", FUZZ_TOP_SRCDIR);
	dcfg.stream_inline = ecfg.stream.inline_mode;
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
			if (match) {
				fuzz_engine_run(&ecfg, de, cap_dir, fuzz_tmpdir());
			} else {
				detect_register_counters();
				counters_freeze();
				detect_thread_free(detect_thread_new(de, thread_counters_new()));
				counters_destroy();
			}
			detect_engine_free(de);
		}
	}
	sig_table_free(t);
	free(text);
	return 0;
}
