#include "fuzz-engine.h"
#include "fuzz-common.h"
#include "app-layer/app-layer.h"
#include "app-layer/http-mem.h"
#include "capture/capture.h"
#include "conf/conf.h"
#include "decode/decode.h"
#include "detect/buffers.h"
#include "detect/engine.h"
#include "flow/flow.h"
#include "output/alert.h"
#include "output/output.h"
#include "runmode/captures.h"
#include "stats/counters.h"
#include "stream/stream.h"
#include "util/exception-policy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *what, const char *err)
{
	fprintf(stderr, "fuzz: %s: %s\n", what, err ? err : "");
	abort();
}

void fuzz_engine_config(EngineConfig *cfg, const char *out_dir)
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

	memset(cfg, 0, sizeof(*cfg));
	cfg->mode = RUNMODE_SINGLE;
	cfg->workers = 1;
	cfg->max_pending_packets = 64;
	if (decode_config_load(&cfg->decode) != 0 || flow_config_load(&cfg->flow) != 0 ||
	    stream_config_load(&cfg->stream) != 0 || app_layer_config_load(&cfg->app) != 0)
		die("config", "a subsystem rejected suricata.yaml");
	/* -k none */
	cfg->decode.checksum = CHECKSUM_NONE;
	cfg->stream.checksum_validation = 0;
	if (!cfg->app.http_enabled)
		cfg->stream.consumers &= ~(1u << STREAM_CONSUMER_APP);
	/* IDS, as main resolves it without --simulate-ips */
	if (run_policy_resolve(&cfg->policy, 0, cfg->stream.inline_mode,
			       cfg->stream.midstream) != 0)
		die("config", "exception policies rejected");
	cfg->stream.inline_mode = cfg->policy.stream_inline;
	ep_config_use(&cfg->policy.ep);
	/* no stats thread (interval 0 here only, the yaml cannot say it);
	 * the final stats record is still written */
	cfg->stats_enabled = 1;
	cfg->stats_interval_s = 0;
}

int fuzz_engine_run(const EngineConfig *cfg, struct DetectEngine *de, const char *capture,
		    const char *out_dir)
{
	Engine engine = { 0 };
	OutputConfig ocfg;
	char err[1024];
	int rc = -1;

	const CaptureOps *ops = capture_ops(CAPTURE_PCAP_FILE);
	CaptureConfig cc;
	Capture *cap = NULL;

	engine.cfg = *cfg;
	engine.detect = de;
	/* raw stream data is kept only for rules that inspect it (main.c) */
	if (!de || !detect_engine_uses_stream(de))
		engine.cfg.stream.consumers &= ~(1u << STREAM_CONSUMER_RAW);
	/* main()'s capture_setup for -r, one capture thread */
	memset(&cc, 0, sizeof(cc));
	cc.kind = CAPTURE_PCAP_FILE;
	cc.path = capture;
	if (capture_config_load(&cc, 1) != 0)
		die("capture config", capture);
	cc.threads = 1;
	/* Counters before the capture opens (main opens a file source first):
	 * the pcap source sizes its counter block when it opens, so on a
	 * second run it must see this run's registry, not the last one's. */
	engine_register_counters(ops, engine.cfg.policy.ips, 0);   /* no firewall mode here */
	cap = capture_open(ops, &cc, 0, err, sizeof(err));
	if (cap) {
		engine.caps = &cap;
		engine.ncaps = 1;
		output_set_app_proto_namer(app_proto_name);
		if (output_config_load(&ocfg, out_dir, err, sizeof(err)) != 0)
			die("output config", err);
		engine.outputs = outputs_open(&ocfg, err, sizeof(err));
		if (!engine.outputs)
			die("outputs", err);
		if (runmode_run(&engine) != 0)
			die("runmode", "setup failed");
		outputs_close(engine.outputs);
		capture_close(cap);
		rc = 0;
	}
	capture_config_free(&cc);
	counters_destroy();
	/* every flow was flushed and freed by the runmode: nothing may stay accounted */
	if (stream_memuse() || stream_reassembly_memuse() || http_mem_use()) {
		fprintf(stderr, "fuzz: memory still accounted after the run: "
			"tcp.memuse %llu, tcp.reassembly_memuse %llu, http.memuse %llu\n",
			(unsigned long long)stream_memuse(),
			(unsigned long long)stream_reassembly_memuse(),
			(unsigned long long)http_mem_use());
		abort();
	}
	fuzz_clear_dir(out_dir);
	return rc;
}

unsigned fuzz_tx_eve_object(json_t *o)
{
	unsigned n;
	char *txt;

	if (!o)
		return 0;
	/* every string written must be valid UTF-8 for eve */
	txt = json_dumps(o, JSON_COMPACT);
	if (!txt)
		abort();
	n = (unsigned)strlen(txt);
	free(txt);
	json_decref(o);
	return n;
}

unsigned fuzz_tx_buffers(const int *bufs, size_t n, unsigned alproto, void *tx)
{
	unsigned sink = 0;

	for (size_t i = 0; i < n; i++) {
		const DetectBuffer *b = detect_buffer(bufs[i]);

		if (b->alproto != alproto)
			continue;
		for (int side = 0; side < 2; side++) {
			const uint8_t *d;
			uint32_t len;

			for (uint32_t k = 0; k < 64 && b->get(b, tx, side, k, &d, &len) == 0; k++)
				if (len)
					sink += d[0] + d[len - 1];
		}
	}
	return sink;
}
