/* fuzz_pipeline: the whole per-packet path, as `suricata -r capture.pcap
 * --runmode single -k none` runs it: pcap-file capture, decode, defrag, flow
 * table and timeouts, TCP tracking and reassembly, the app layer (HTTP via
 * libhtp), detection with a fixed rule set (qa/fuzz/pipeline.rules: an ET Open
 * subset, plus the engine's event rules in rules/), and every output (eve.json,
 * fast.log, stats) into a scratch folder that is emptied after each input.
 *
 * One input is one capture file image (pcap or pcapng). The process is never
 * restarted: per input the engine is started and stopped the way main() does
 * it, counters registered and destroyed, outputs opened and closed, the packet
 * pool, flow tables and stream / app-layer / detect thread state made and
 * freed, and the memory gauges checked back at zero (a leak of accounted
 * memory aborts). The configuration and the detection engine are built once
 * (they are read-only after start-up); FUZZ_PIPELINE_REINIT=1 rebuilds them
 * per input too, which checks that a full start-up / shutdown leaks nothing.
 *
 * -k none (checksums ignored), as Suricata's own fuzz targets: a mutated
 * payload with a stale checksum would otherwise stop at the decoder. */
#include "fuzz-common.h"
#include "fuzz-engine.h"
#include "conf/conf.h"
#include "detect/detect-parse.h"
#include "detect/engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int full_reinit;
static char in_path[512], out_dir[512], rules_dir[512], extra_rules[512];
static EngineConfig ecfg;
static SigTable *sigs;
static DetectEngine *de;

static void die(const char *what, const char *err)
{
	fprintf(stderr, "fuzz_pipeline: %s: %s\n", what, err ? err : "");
	abort();
}

static void config_start(void)
{
	fuzz_engine_config(&ecfg, out_dir);
}

/* main()'s detect_setup with -S-less loading: our event rules plus the ET subset. */
static void detect_start(void)
{
	static const char *const files[] = { "decoder-events.rules", "stream-events.rules",
					     "http-events.rules" };
	RuleLoadConfig rc = { 0 };
	DetectConfig dc;
	char err[1024] = "";

	if (detect_config_load(&dc, err, sizeof(err)) != 0)
		die("detect config", err);
	dc.stream_inline = ecfg.stream.inline_mode;
	rc.quiet = 1;
	rc.files = files;
	rc.nfiles = 3;
	rc.rule_path = rules_dir;
	rc.extra = extra_rules;
	sigs = sig_load(&rc, err, sizeof(err));
	if (!sigs)
		die("rules", err);
	if (sigs->loaded < 50)
		die("rules", "fewer than 50 rules loaded: is qa/fuzz/pipeline.rules there?");
	de = detect_engine_build(sigs, &dc, err, sizeof(err));
	if (!de)
		die("detect build", err);
}

static void engine_stop(void)
{
	detect_engine_free(de);
	de = NULL;
	sig_table_free(sigs);
	sigs = NULL;
	stream_config_free(&ecfg.stream);
	conf_deinit();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *r = getenv("FUZZ_PIPELINE_REINIT");
	const char *tmp;

	(void)argc;
	(void)argv;
	fuzz_quiet();
	full_reinit = r && *r && strcmp(r, "0");
	tmp = fuzz_tmpdir();
	fuzz_path(in_path, sizeof(in_path), tmp, "input.pcap");
	snprintf(out_dir, sizeof(out_dir), "%s", tmp);
	snprintf(rules_dir, sizeof(rules_dir), "%s/rules", FUZZ_TOP_SRCDIR);
	snprintf(extra_rules, sizeof(extra_rules), "%s/qa/fuzz/pipeline.rules", FUZZ_TOP_SRCDIR);
	if (!full_reinit) {
		config_start();
		detect_start();
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (full_reinit) {
		config_start();
		detect_start();
	}
	/* the capture goes through a file, as pcap-file reads it: libpcap's
	 * file reader, folder handling and error paths included */
	if (fuzz_write_file(in_path, data, size) != 0)
		die("write", in_path);
	fuzz_engine_run(&ecfg, de, in_path, out_dir);
	if (full_reinit)
		engine_stop();
	return 0;
}
