/* Engine set-up (setup.h): configuration, input, outputs, counters. */
#include "config.h"

#include "main/setup.h"
#include "main/logging.h"
#include "mpm/ac-cuda.h"
#include "app-layer/app-layer.h"
#include "app-layer/files.h"
#include "conf/conf.h"
#include "decode/decode.h"
#include "flow/flow.h"
#include "capture/reject.h"
#include "runmode/captures.h"
#include "runmode/unix-socket-runmode.h"
#include "runmode/verdict.h"
#include "stats/counters.h"
#include "stream/stream.h"
#include "util/cpu-affinity.h"
#include "util/exception-policy.h"
#include "util/log.h"

#include <math.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

int setup_config(Session *s)
{
	char err[1024];

	/* the environment's level already holds for the config's own errors */
	if (log_levels_set(&s->cli, 0) != 0)
		return -1;
	if (conf_load_file(cli_config_path(&s->cli), err, sizeof(err)) != 0) {
		log_error("%s", err);
		return -1;
	}
	for (int i = 0; i < s->cli.n_includes; i++)
		if (conf_load_file(s->cli.includes[i], err, sizeof(err)) != 0) {
			log_error("--include: %s", err);
			return -1;
		}
	if (cli_apply_sets(&s->cli, NULL) != 0)
		return -1;
	return log_levels_set(&s->cli, 1);
}

/* Above this many workers per CPU, autofp only adds queues and context
 * switches: a ratio that asks for more is capped, with a warning. */
#define AUTOFP_WORKERS_PER_CPU_MAX 4
#define AUTOFP_WORKERS_MAX 1024

/* threading.detect-thread-ratio: workers = CPUs x ratio, at least one.
 * Returns the count, or 0 when the ratio is not a finite number above 0
 * (logged: a run with a guessed thread count would not be what was asked). */
static unsigned autofp_workers(void)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	const char *ratio_s = NULL;
	double ratio = 1.0, want;
	long n, cap;
	int r = conf_get_scalar("threading.detect-thread-ratio", &ratio_s);

	if (r < 0)
		return 0;
	if (ncpu < 1)
		ncpu = 1;
	if (r > 0) {
		char *end;

		ratio = strtod(ratio_s, &end);
		if (end == ratio_s || *end || !isfinite(ratio) || ratio <= 0) {
			log_error("threading.detect-thread-ratio: '%s' is not a number above 0",
				  ratio_s);
			return 0;
		}
	}
	want = ncpu * ratio + 0.5;	/* finite, > 0: the cast below is defined once capped */
	cap = ncpu * AUTOFP_WORKERS_PER_CPU_MAX;
	if (cap > AUTOFP_WORKERS_MAX)
		cap = AUTOFP_WORKERS_MAX;
	if (want > (double)cap) {
		log_warning("threading.detect-thread-ratio: %s asks for %.0f workers on %ld CPU%s; "
			    "using %ld", ratio_s, want - 0.5, ncpu, ncpu == 1 ? "" : "s", cap);
		return (unsigned)cap;
	}
	n = (long)want;
	if (n < 1)
		n = 1;
	return (unsigned)n;
}

int mpm_algo_is_ac_cuda(void)
{
	const char *algo = conf_get("mpm-algo");

	return algo && !strcmp(algo, "ac-cuda");
}

/* runmode, worker threads and the packet pool. */
static int engine_threads_load(const Cli *cli, EngineConfig *cfg)
{
	int64_t mpp = MAX_PENDING_DEFAULT;
	const char *rm;

	if (conf_get_int("max-pending-packets", &mpp) < 0)
		return -1;
	if (mpp < 1 || mpp > 65535) {
		log_error("max-pending-packets: %lld is out of range 1..65535", (long long)mpp);
		return -1;
	}
	cfg->max_pending_packets = (uint32_t)mpp;

	rm = cli->runmode ? cli->runmode : conf_get("runmode");
	/* Suricata's defaults: workers for af-packet, autofp for pcap live
	 * and pcap-file */
	if (!rm)
		rm = cli->live_kind == CAPTURE_AF_PACKET || cli->live_kind == CAPTURE_NFQ ?
		     "workers" : "autofp";
	if (runmode_parse(rm, &cfg->mode) != 0) {
		log_error("runmode '%s' is not supported (use single, autofp or workers; "
			  "see --list-runmodes)", rm);
		return -1;
	}
	if (cfg->mode == RUNMODE_WORKERS && cli->live_kind < 0) {
		/* as Suricata: pcap-file has single and autofp only */
		log_error("runmode workers is not available for pcap-file (use single or "
			  "autofp; see --list-runmodes)");
		return -1;
	}
	{
		char err[256];

		if (cpu_affinity_load(err, sizeof(err)) != 0) {
			log_error("%s", err);
			return -1;
		}
	}
	/* the ratio is checked in every runmode: a bad value is a bad file */
	cfg->workers = autofp_workers();
	if (!cfg->workers)
		return -1;
	if (cfg->mode == RUNMODE_SINGLE)
		cfg->workers = 1;
	/* Each worker may hold packets; the reader needs a few more to make progress. */
	if (cfg->mode == RUNMODE_AUTOFP && cfg->max_pending_packets < 4 * cfg->workers)
		cfg->max_pending_packets = 4 * cfg->workers;
	return 0;
}

/* -k decides for the stream engine too: Suricata's -k none also stops the
 * TCP tracker from rejecting packets with bad checksums. */
static void checksum_apply(const char *k, EngineConfig *cfg)
{
	if (!k)
		return;
	if (!strcmp(k, "all")) {
		cfg->decode.checksum = CHECKSUM_ALL;
		cfg->stream.checksum_validation = 1;
	} else if (!strcmp(k, "none")) {
		cfg->decode.checksum = CHECKSUM_NONE;
		cfg->stream.checksum_validation = 0;
	} else {
		cfg->decode.checksum = CHECKSUM_AUTO;
	}
}

/* cuda.mpm: the GPU matcher arrives later, but its section is checked now
 * so that a typo is reported on the first run, not the first GPU run; with
 * mpm-algo ac-cuda its ranges too, so that -T finds what the device open
 * would refuse. Loaded once: the GPU set-up and rule reloads use it. */
static int cuda_config_load(CudaMpmConfig *cc)
{
	char err[512];

	if (cuda_mpm_config_load(cc, err, sizeof(err)) != 0 ||
	    (mpm_algo_is_ac_cuda() && ac_cuda_config_check(cc, err, sizeof(err)) != 0)) {
		log_error("%s", err);
		return -1;
	}
	return 0;
}

int setup_engine_config(Session *s)
{
	const Cli *cli = &s->cli;
	EngineConfig *cfg = &s->engine.cfg;
	int enabled = 1;
	int64_t interval = 8;

	memset(cfg, 0, sizeof(*cfg));
	if (engine_threads_load(cli, cfg) != 0 || decode_config_load(&cfg->decode) != 0)
		return -1;
	if (flow_config_load(&cfg->flow) != 0)
		return -1;
	if (stream_config_load(&cfg->stream) != 0 || app_layer_config_load(&cfg->app) != 0)
		return -1;
	checksum_apply(cli->checksum, cfg);
	if (!cfg->app.http_enabled)
		cfg->stream.consumers &= ~(1u << STREAM_CONSUMER_APP);
	/* once stream.inline and stream.midstream are known (both shape the
	 * policy); Suricata 8 stops on an invalid exception policy */
	if (run_policy_resolve(&cfg->policy, cli->simulate_ips ||
			       (cli->live_kind >= 0 &&
				capture_ips_wanted((enum capture_kind)cli->live_kind,
						   cli->live_devs, cli->n_live_devs)),
			       cfg->stream.inline_mode,
			       cfg->stream.midstream) != 0)
		return -1;
	/* the one resolution, in the stream engine's config and the packet
	 * path's exception-policy table */
	cfg->stream.inline_mode = cfg->policy.stream_inline;
	ep_config_use(&cfg->policy.ep);

	if (conf_get_bool("stats.enabled", &enabled) < 0 ||
	    conf_get_int("stats.interval", &interval) < 0)
		return -1;
	cfg->stats_enabled = enabled;
	cfg->stats_interval_s = interval > 0 ? (uint32_t)interval : 0;
	if (security_config_load(&s->security) != 0)
		return -1;
	return cuda_config_load(&s->cuda);
}

/* --engine-analysis: loads the rules as a run would, writes what the
 * engine made of each (rules.json, patterns.json, and the text reports
 * engine-analysis.rules-fast-pattern / .rules ask for, both on when the
 * section is absent, as in Suricata's default yaml) and exits. */
int setup_engine_analysis(Session *s)
{
	static const struct {
		const char *key;
		unsigned bit;
	} keys[] = {
		{ "engine-analysis.rules-fast-pattern", ANALYSIS_FAST_PATTERN },
		{ "engine-analysis.rules", ANALYSIS_RULES },
	};
	char err[1024];
	unsigned reports = 0;

	if (log_dir_check(&s->cli, &s->log_dir) != 0 || setup_detect(s) != 0)
		return 1;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		int on = 1;

		if (conf_get_bool(keys[i].key, &on) < 0)
			return 1;
		if (on)
			reports |= keys[i].bit;
	}
	if (detect_engine_analysis_write(s->engine.detect, s->log_dir, reports, err,
					 sizeof(err)) != 0) {
		log_error("%s", err);
		return 1;
	}
	log_notice("Engine analysis: %u rules written to %s/rules.json",
		   detect_engine_sig_count(s->engine.detect), s->log_dir);
	return 0;
}

/* -T reads what a run reads but starts nothing that does: the keys are
 * looked at so that conf_report_unused does not call them unused. */
/* The files module's eve options, looked at without its loader, which
 * would create the file-store folders: -T must not, and the unix-socket
 * runmode loads them for each file's run, after the start's report. */
static void touch_files_eve_keys(void)
{
	ConfNode *outs = conf_get_node("outputs");

	for (ConfNode *o = outs ? outs->child : NULL; o; o = o->next) {
		ConfNode *types = conf_node_lookup(o, "eve-log.types");

		for (ConfNode *t = types ? types->child : NULL; t; t = t->next) {
			(void)conf_node_lookup(t, "files.force-magic");
			(void)conf_node_lookup(t, "files.force-hash");
		}
	}
}

static int test_mode_touch_keys(void)
{
	int reload;
	char lf[4096];

	if (rule_reload_enabled(&reload) != 0)
		return -1;
	(void)log_file_conf(".", lf, sizeof(lf));
	touch_files_eve_keys();
	conf_mark_used("default-log-dir");
	conf_mark_used("unix-command.enabled");
	conf_mark_used("unix-command.filename");
	return 0;
}

int setup_test_mode(Session *s)
{
	char err[1024];

	/* Suricata opens suricata.log before the rules load, -T included: a
	 * rule's load error is in it (suricata-verify's -T cases read it).
	 * Only with -l: a bare -T writes no file of its own. */
	if (s->cli.log_dir && log_dir_check(&s->cli, &s->log_dir) == 0)
		log_file_start(s->log_dir, s->log_file, sizeof(s->log_file));
	if (!s->cli.disable_detection && setup_detect(s) != 0)
		return 1;
	if (setup_gpu(s, 0) != 0)
		return 1;
	/* the outputs section is checked too (nothing is opened) */
	output_set_app_proto_namer(app_proto_name);
	output_set_flowvar_source(detect_flowvars_get);
	if (output_config_load(&s->ocfg, s->cli.log_dir ? s->cli.log_dir : ".", err,
			       sizeof(err)) != 0) {
		log_error("%s", err);
		return 1;
	}
	if (test_mode_touch_keys() != 0)
		return 1;
	conf_report_unused(1);
	printf("Configuration provided was successfully loaded. Exiting.\n");
	return 0;
}

/* One interface's (or the file's) settings: the command line's over its
 * yaml entry. */
static int capture_setup_one(const Cli *cli, EngineConfig *ec, CaptureConfig *cc,
			     const char *iface)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	memset(cc, 0, sizeof(*cc));
	cc->kind = cli->live_kind >= 0 ? (enum capture_kind)cli->live_kind : CAPTURE_PCAP_FILE;
	cc->path = cli->pcap_path;
	if (iface)
		snprintf(cc->iface, sizeof(cc->iface), "%s", iface);
	if (cli->bpf && !(cc->bpf = strdup(cli->bpf)))
		return -1;
	if (capture_config_load(cc, ncpu > 0 ? (unsigned)ncpu : 1) != 0)
		return -1;
	if (ec->mode != RUNMODE_WORKERS) {
		if (cc->threads > 1)
			log_info("%s: runmode %s reads with one capture thread (threads: %u "
				 "applies to runmode workers)", cc->iface, runmode_name(ec->mode),
				 cc->threads);
		cc->threads = 1;
	} else {
		ec->workers += cc->threads;
	}
	if (!cli->checksum && cc->checksum >= 0) {
		ec->decode.checksum = (enum checksum_mode)cc->checksum;
		if (cc->checksum == CHECKSUM_NONE)
			ec->stream.checksum_validation = 0;
	}
	return 0;
}

/* af-packet copy-mode: each interface with a copy-iface is paired with the
 * entry of that interface, which must list it back (as Suricata asks); the
 * first of the two reads both (capture/af-packet.c), with its thread count. */
static int copy_pairs(Session *s)
{
	EngineConfig *ec = &s->engine.cfg;

	for (unsigned i = 0; i < s->ncapcfg; i++) {
		CaptureConfig *a = &s->capcfg[i], *b = NULL;

		if (a->kind != CAPTURE_AF_PACKET || a->copy_mode == COPY_NONE || a->paired)
			continue;
		for (unsigned j = 0; j < s->ncapcfg && !b; j++)
			if (j != i && !strcmp(s->capcfg[j].iface, a->copy_iface))
				b = &s->capcfg[j];
		if (!b) {
			log_error("af-packet: %s: copy-iface %s is not captured (capture both: "
				  "an entry for each, each naming the other as copy-iface)",
				  a->iface, a->copy_iface);
			return -1;
		}
		if (strcmp(b->copy_iface, a->iface) || b->copy_mode != a->copy_mode) {
			log_error("af-packet: %s: copy-iface %s must have copy-mode %s and "
				  "copy-iface %s", a->iface, b->iface,
				  a->copy_mode == COPY_IPS ? "ips" : "tap", a->iface);
			return -1;
		}
		if (ec->mode == RUNMODE_WORKERS)
			ec->workers -= b->threads;
		if (b->threads != a->threads)
			log_info("af-packet: %s: read by the %u thread%s of %s (copy-mode pair; its "
				 "threads: %u is not used)", b->iface, a->threads,
				 a->threads == 1 ? "" : "s", a->iface, b->threads);
		b->threads = a->threads;
		b->paired = 1;
		a->peer = b;
	}
	return 0;
}

/* -q N, or -q A:B (a queue each, as Suricata), repeatable: the queue
 * numbers as the interface names of the nfq source. */
static int nfq_queue_names(const Cli *cli, char (*names)[64], unsigned *n)
{
	unsigned k = 0;

	for (unsigned i = 0; i < cli->n_live_devs; i++) {
		const char *d = cli->live_devs[i];
		char *end;
		unsigned long a = strtoul(d, &end, 10), b = a;

		if (end != d && *end == ':')
			b = strtoul(end + 1, &end, 10);
		if (end == d || *end || a > 65535 || b > 65535 || b < a) {
			log_error("-q: '%s' is not a queue number or range (0..65535, A:B)", d);
			return -1;
		}
		for (unsigned long q = a; q <= b; q++) {
			if (k == CLI_LIVE_DEVS_MAX) {
				log_error("-q: more than %d queues", CLI_LIVE_DEVS_MAX);
				return -1;
			}
			snprintf(names[k++], 64, "%lu", q);
		}
	}
	*n = k;
	return 0;
}

/* Whether one of the first n interfaces uses fanout group id. */
static int cluster_id_taken(const CaptureConfig *cc, unsigned n, uint16_t id)
{
	for (unsigned i = 0; i < n; i++)
		if (cc[i].cluster_id == id)
			return 1;
	return 0;
}

/* The sources' settings and how many capture handles the runmode wants:
 * one in single and autofp (autofp has one RX thread), each interface's
 * threads in workers. The interfaces: the command line's, else with
 * --af-packet or --pcap alone every one of the yaml section (as Suricata),
 * each with its own capture threads: several need runmode workers (single
 * and autofp read one capture handle). -k wins over checksum-checks. */
static int capture_setup(Session *s)
{
	const Cli *cli = &s->cli;
	EngineConfig *ec = &s->engine.cfg;
	char names[CLI_LIVE_DEVS_MAX][64];
	unsigned n = cli->n_live_devs;

	if (cli->live_kind == CAPTURE_NFQ) {
		if (nfq_queue_names(cli, names, &n) != 0)
			return -1;
	} else {
		for (unsigned i = 0; i < n; i++)
			snprintf(names[i], sizeof(names[i]), "%s", cli->live_devs[i]);
	}
	if (!n && cli->live_kind >= 0)
		n = capture_section_ifaces((enum capture_kind)cli->live_kind, names,
					   CLI_LIVE_DEVS_MAX);
	if (n > 1 && ec->mode != RUNMODE_WORKERS) {
		if (cli->runmode || conf_get("runmode")) {
			log_error("%u interfaces: runmode %s reads one capture handle (use "
				  "runmode workers: each interface gets its own threads)", n,
				  runmode_name(ec->mode));
			return -1;
		}
		/* pcap live defaults to autofp; several interfaces want workers */
		log_info("%u interfaces: runmode workers", n);
		ec->mode = RUNMODE_WORKERS;
	}
	if (ec->mode == RUNMODE_WORKERS)
		ec->workers = 0;
	s->ncapcfg = 0;
	do {
		if (capture_setup_one(cli, ec, &s->capcfg[s->ncapcfg], n ? names[s->ncapcfg] : NULL) != 0)
			return -1;
		s->ncapcfg++;
	} while (s->ncapcfg < n);
	if (copy_pairs(s) != 0)
		return -1;
	/* nfq: autofp's workers finish packets out of queue order */
	for (unsigned i = 0; i < s->ncapcfg; i++)
		s->capcfg[i].any_order = ec->mode == RUNMODE_AUTOFP && ec->workers > 1;
	/* a fanout group holds one interface's sockets only: an interface that
	 * shares an earlier one's cluster-id (the default 99) takes a free one */
	for (unsigned i = 1; i < s->ncapcfg; i++) {
		CaptureConfig *cc = &s->capcfg[i];
		uint16_t want = cc->cluster_id;

		while (cluster_id_taken(s->capcfg, i, cc->cluster_id))
			cc->cluster_id++;
		if (cc->kind == CAPTURE_AF_PACKET && cc->cluster_id != want)
			log_info("af-packet: %s: cluster-id %u is taken by another interface: "
				 "using %u", cc->iface, want, cc->cluster_id);
	}
	return 0;
}

/* A sensor that lives on: a live capture, or one with the unix socket. */
static int sensor_lives_on(const Session *s)
{
	return capture_ops(s->capcfg[0].kind)->live ||
	       unix_socket_wanted(s->cli.unix_socket, s->capcfg[0].kind);
}

int setup_input(Session *s, const char *prog)
{
	const Cli *cli = &s->cli;

	/* --unix-socket alone: the unix-socket runmode (pcap files sent over
	 * the socket) */
	s->usock_mode = !cli->pcap_path && cli->live_kind < 0 && cli->unix_socket;
	if (s->usock_mode && !(s->pcap_queue = pcap_queue_new()))
		return -1;
	if (!cli->pcap_path && cli->live_kind < 0 && !s->usock_mode) {
		log_error("no input: use -r FILE|DIR, -i DEV, --pcap[=DEV], --af-packet[=DEV] or -q QUEUE");
		cli_usage(stderr, prog);
		return -1;
	}
	if (capture_setup(s) != 0 ||
	    run_as_lookup(cli->user ? cli->user : conf_get("run-as.user"),
			  cli->group ? cli->group : conf_get("run-as.group"), &s->run_as) != 0)
		return -1;
	if (log_dir_check(cli, &s->log_dir) != 0)
		return -1;
#ifdef __GLIBC__
	/* A sensor that may reload its rules: blocks of 256 KB and more in
	 * mappings of their own, always. glibc raises its threshold to the size
	 * of any mapping freed (up to 32 MB), after which each engine's big
	 * tables (automata, GPU buffers) would land in the heap, and a reload's
	 * next engine, built while the old one lives, above the holes the one
	 * before left: peak RSS a step higher per reload (tests/live/reload.sh
	 * measures it). Set before the rules load. */
	if (!cli->disable_detection && sensor_lives_on(s))
		mallopt(M_MMAP_THRESHOLD, 256 << 10);
#endif
	return 0;
}

/* The outputs section; the unix-socket runmode opens each file's outputs
 * in its folder, but the section is checked now, so that a bad one fails
 * at start. */
static int outputs_setup(Session *s)
{
	Engine *e = &s->engine;
	char err[1024];

	output_set_app_proto_namer(app_proto_name);
	output_set_flowvar_source(detect_flowvars_get);
	if (output_config_load(&s->ocfg, s->log_dir, err, sizeof(err)) != 0 ||
	    (!s->usock_mode && files_config_load(s->log_dir, err, sizeof(err)) != 0)) {
		log_error("%s", err);
		return -1;
	}
	s->ocfg.eve_alert.ips = e->cfg.policy.ips;
	if (s->sigs) {
		/* stats.detect.engines */
		gettimeofday(&s->ocfg.rules_at, NULL);
		s->ocfg.rules_loaded = s->sigs->loaded;
		s->ocfg.rules_failed = s->sigs->failed;
		s->ocfg.rules_skipped = s->sigs->skipped;
	}
	if (s->usock_mode) {
		touch_files_eve_keys();
		return 0;
	}
	e->outputs = outputs_open(&s->ocfg, err, sizeof(err));
	if (!e->outputs) {
		log_error("%s", err);
		return -1;
	}
	return 0;
}

/* detect.inspect.*: always with ac-cuda (what its rule verification
 * spares the CPU), else when detect.inspect-counters asks (hs's figures
 * to compare with). 0, or -1 with one line. */
static int inspect_counters_wanted(int gpu)
{
	int on = 0;

	if (conf_get("detect.inspect-counters") && conf_get_bool("detect.inspect-counters", &on) < 0) {
		log_error("detect.inspect-counters: expected yes or no");
		return -1;
	}
	if (gpu || on)
		detect_inspect_counters_register();
	return 0;
}

int setup_engine(Session *s)
{
	Engine *e = &s->engine;
	const CaptureOps *ops = capture_ops(s->capcfg[0].kind);

	/* a file is checked before the rules load (a typo fails at once); a
	 * live capture opens once the engine is ready, so that its ring does
	 * not fill while the rules load */
	if (!s->usock_mode && !ops->live && captures_open(e, s->capcfg, s->ncapcfg) != 0)
		return -1;
	if (!s->cli.disable_detection && setup_detect(s) != 0)
		return -1;
	/* Raw stream data is kept only for rules that inspect it; a live sensor
	 * that may reload its rules keeps it (the next rules may want it) */
	if (e->detect && rule_reload_enabled(&s->reload_setup.enabled) != 0)
		return -1;
	s->reload_setup.raw_kept = e->detect && s->reload_setup.enabled && sensor_lives_on(s);
	if (!e->detect || (!detect_engine_uses_stream(e->detect) && !s->reload_setup.raw_kept))
		e->cfg.stream.consumers &= ~(1u << STREAM_CONSUMER_RAW);
	if (setup_gpu(s, 1) != 0)
		return -1;
	if (s->gpu)
		detect_gpu_register_counters();
	if (e->detect && inspect_counters_wanted(s->gpu != NULL) != 0)
		return -1;
	engine_register_counters(ops, e->cfg.policy.ips,
				 e->cfg.policy.ips && setup_firewall_enabled(&s->cli));
	if (outputs_setup(s) != 0)
		return -1;
	/* parsers mark frames only for a frame rule or the eve frame logger
	 * (a rule reload does not turn them on later) */
	e->cfg.app.frames = detect_engine_uses_frames(e->detect) ||
			    outputs_frames_enabled(e->outputs);
	e->cfg.app.frames_stream = detect_engine_uses_stream_frames(e->detect) ? APP_STREAM_FRAME_USED :
				   outputs_frames_enabled(e->outputs) ? APP_STREAM_FRAME_ID_ONLY :
									0;
	if (!ops->live && e->ncaps && capture_pcap_source(e->caps[0]))
		outputs_set_pcap_filename(e->outputs, captures_pcap_filename, e->caps[0]);
	if (ops->live && captures_open(e, s->capcfg, s->ncapcfg) != 0)
		return -1;
	/* reject rules answer on the wire for live sources (capture/reject.h) */
	if (ops->live)
		(void)reject_init();
	if (e->detect && setup_reloader(s) != 0)
		return -1;
	s->hooks.engine = e;
	s->hooks.log_file = s->log_file;
	/* the unix-socket runmode starts threads for each file it is sent:
	 * it could not run its second file with RLIMIT_NPROC 0 */
	if (s->security.limit_noproc && s->usock_mode)
		log_info("security.limit-noproc: not applied in the unix-socket runmode "
			 "(each file's run starts threads)");
	else
		s->hooks.security = &s->security;
	run_hooks_set(e->ctl, &s->hooks);
	return 0;
}
