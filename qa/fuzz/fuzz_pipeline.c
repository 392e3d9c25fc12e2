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
#include "app-layer/app-layer.h"
#include "app-layer/http-mem.h"
#include "capture/pcap-file.h"
#include "conf/conf.h"
#include "decode/decode.h"
#include "detect/detect-parse.h"
#include "detect/engine.h"
#include "flow/flow.h"
#include "output/http-log.h"
#include "output/output.h"
#include "runmode/runmode.h"
#include "stats/counters.h"
#include "stream/stream.h"
#include "util/log.h"

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

/* The conf tree and the typed config, as main()'s load_config and
 * engine_config_load with --runmode single -k none -l OUT. */
static void config_start(void)
{
	static const char *const sets[] = {
		"runmode=single",
		/* a small pool: one input is a small capture; 1024 x 64 KiB per
		 * input would make the allocator the bottleneck */
		"max-pending-packets=64",
		/* likewise the flow table: 10000 preallocated flows and 65536
		 * rows per input cost more than the capture itself */
		"flow.hash-size=1024",
		"flow.prealloc=16",
	};
	char err[1024], path[512];

	snprintf(path, sizeof(path), "%s/suricata.yaml", FUZZ_TOP_BUILDDIR);
	if (conf_load_file(path, err, sizeof(err)) != 0)
		die("config", err);
	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		if (conf_set_kv(sets[i]) != 0)
			die("--set", sets[i]);
	conf_set("default-log-dir", out_dir);

	memset(&ecfg, 0, sizeof(ecfg));
	ecfg.mode = RUNMODE_SINGLE;
	ecfg.workers = 1;
	ecfg.max_pending_packets = 64;
	if (decode_config_load(&ecfg.decode) != 0 || flow_config_load(&ecfg.flow) != 0 ||
	    stream_config_load(&ecfg.stream) != 0 || app_layer_config_load(&ecfg.app) != 0)
		die("config", "a subsystem rejected suricata.yaml");
	ecfg.decode.checksum = CHECKSUM_NONE;
	ecfg.stream.checksum_validation = 0;
	if (ecfg.stream.inline_mode < 0)
		ecfg.stream.inline_mode = 0;
	if (!ecfg.app.http_enabled)
		ecfg.stream.consumers &= ~(1u << STREAM_CONSUMER_APP);
	/* no stats thread (interval 0 here only, the yaml cannot say it);
	 * the final stats record is still written */
	ecfg.stats_enabled = 1;
	ecfg.stats_interval_s = 0;
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
	if (!detect_engine_uses_stream(de))
		ecfg.stream.consumers &= ~(1u << STREAM_CONSUMER_RAW);
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

/* main()'s register_counters() */
static void register_counters(void)
{
	decode_register_counters();
	flow_register_counters();
	stream_register_counters();
	app_layer_register_counters();
	detect_register_counters();
	counters_freeze();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Engine engine = { 0 };
	OutputConfig ocfg;
	char err[1024];

	if (full_reinit) {
		config_start();
		detect_start();
	}
	if (fuzz_write_file(in_path, data, size) != 0)
		die("write", in_path);
	engine.cfg = ecfg;
	engine.detect = de;
	engine.src = pcap_source_open(in_path, err, sizeof(err));
	if (engine.src) {
		register_counters();
		output_set_app_proto_namer(app_proto_name);
		output_http_register();
		if (output_config_load(&ocfg, out_dir, err, sizeof(err)) != 0)
			die("output config", err);
		engine.outputs = outputs_open(&ocfg, err, sizeof(err));
		if (!engine.outputs)
			die("outputs", err);
		if (runmode_run(&engine) != 0)
			die("runmode", "setup failed");
		outputs_close(engine.outputs);
		pcap_source_close(engine.src);
		counters_destroy();
	}
	/* every flow was flushed and freed by the runmode: nothing may stay accounted */
	if (stream_memuse() || stream_reassembly_memuse() || http_mem_use()) {
		fprintf(stderr, "fuzz_pipeline: memory still accounted after the run: "
			"tcp.memuse %llu, tcp.reassembly_memuse %llu, http.memuse %llu\n",
			(unsigned long long)stream_memuse(),
			(unsigned long long)stream_reassembly_memuse(),
			(unsigned long long)http_mem_use());
		abort();
	}
	fuzz_clear_dir(out_dir);
	if (full_reinit)
		engine_stop();
	return 0;
}
