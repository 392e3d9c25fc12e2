/* Engine set-up, detection (setup.h): the rules, the detection engine,
 * ac-cuda's device and automata, the rule reloader. */
#include "main/setup.h"
#include "app-layer/app-layer.h"
#include "conf/conf.h"
#include "datasets/dataset.h"
#include "datasets/iprep.h"
#include "mpm/ac-cuda.h"
#include "util/log.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static void rules_report(const SigTable *t)
{
	/* at the default level: the totals and one line per skip reason (each
	 * skipped rule is an info line, -v) */
	log_notice("rules: %d loaded, %d failed, %d skipped (%d files, %d unreadable)",
		   t->loaded, t->failed, t->skipped, t->files_loaded, t->files_failed);
	/* Suricata 8's own line, in its words (suricata.log, -v): what scripts
	 * grep for */
	log_info("detect: %d rule files processed. %d rules successfully loaded, %d rules "
		 "failed, %d rules skipped", t->files_loaded, t->loaded, t->failed, t->skipped);
	/* a reason "requires: missing ..." is summed up as its keyword: the
	 * info lines carry Suricata's text once per rule, and scripts count
	 * them (suricata-verify ja4-rules-requires) */
	for (int i = 0; i < t->nreasons && i < 20; i++) {
		const char *r = t->reasons[i].reason, *c = strstr(r, ": ");
		int n = c && strncmp(r, "requires", 8) == 0 ? (int)(c - r) : (int)strlen(r);
		log_notice("rules skipped: %.*s x%d", n, r, t->reasons[i].count);
	}
}

/* Suricata 8's firewall mode: --firewall, --firewall-rules-exclusive or
 * firewall.enabled. */
int setup_firewall_enabled(const Cli *cli)
{
	int on = 0;

	if (cli->firewall)
		return 1;
	return conf_get_bool("firewall.enabled", &on) == 1 && on;
}

/* Loads the rules and builds the detection engine. -1 also when, with -T
 * or --init-errors-fatal, a rule failed. */
int setup_detect(Session *s)
{
	const Cli *cli = &s->cli;
	const RunPolicy *rp = &s->engine.cfg.policy;
	RuleLoadConfig rc = { 0 };
	DetectConfig dc;
	SigTable *t;
	DetectEngine *de;
	char err[1024] = "";
	struct timespec t0, t1;

	if (detect_config_load(&dc, err, sizeof(err)) != 0) {
		log_error("%s", err);
		return -1;
	}
	/* a bad variable is a bad file, not thousands of bad rules */
	if (rule_vars_check(cli_config_path(cli), err, sizeof(err)) != 0) {
		log_error("%s", err);
		return -1;
	}
	dc.stream_inline = rp->stream_inline;
	dc.ips = rp->ips;
	rc.exclusive = cli->rules_exclusive;
	rc.extra = cli->rules_extra;
	rc.firewall = setup_firewall_enabled(cli);
	rc.fw_exclusive = cli->fw_rules_exclusive;
	dc.firewall = rc.firewall;
	if (dc.firewall && fw_policies_load(&dc.fw_pol, err, sizeof(err)) != 0) {
		log_error("%s", err);
		return -1;
	}
	if (cli->rules_exclusive) {
		/* -S overrides them, as in Suricata: not ignored settings */
		conf_mark_used("rule-files");
		conf_mark_used("default-rule-path");
	}
	rc.init_errors_fatal = cli->init_errors_fatal;
	/* the yaml's sets exist before the rules that name them */
	if (datasets_init(cli->data_dir, err, sizeof(err)) != 0 ||
	    iprep_init(err, sizeof(err)) != 0) {
		log_error("%s", err);
		return -1;
	}
	rc.alproto_off = app_layer_protos_off(&s->engine.cfg.app);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	t = sig_load(&rc, err, sizeof(err));
	if (!t) {
		/* empty: a failed rule, said already (rule-load.c) */
		if (err[0])
			log_error("%s", err);
		return -1;
	}
	s->sigs = t;
	rules_report(t);
	if (t->failed && cli->init_errors_fatal) {
		log_error("%d rule%s failed to load", t->failed, t->failed == 1 ? "" : "s");
		return -1;
	}
	/* -T builds the engine too, as Suricata: what a run would build is tested,
	 * and its time is the start-up time of a run */
	de = detect_engine_build(t, &dc, err, sizeof(err));
	if (!de) {
		log_error("%s", err);
		return -1;
	}
	s->engine.detect = de;
	{
		SigKinds k;

		detect_engine_sig_kinds(de, &k);
		log_info("detect: %u signatures processed. %u are IP-only rules, %u are inspecting "
			 "packet payload, %u inspect application layer, %u are decoder event only",
			 k.total, k.iponly, k.payload, k.applayer, k.deonly);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	log_info("detect: %u rules inspected, mpm-algo %s, engine ready in %.3f s",
		 detect_engine_sig_count(de), mpm_algo_name(dc.algo),
		 (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	if (t->failed && cli->test_mode) {
		log_error("%d rule%s failed to load", t->failed, t->failed == 1 ? "" : "s");
		return -1;
	}
	return 0;
}

/* The device: the host EMULATION only when cuda.mpm.emulation says so (a
 * test switch), else CUDA. NULL logged. */
static const AcDeviceOps *gpu_device(int emu)
{
	const AcDeviceOps *ops;
	char err[1024] = "";

	if (emu) {
		log_warning("ac-cuda: cuda.mpm.emulation is set: the GPU is EMULATED on the host "
			    "(a test switch, not for production)");
		ops = accuda_emu_ops();
	} else if (!(ops = accuda_cuda_ops(err, sizeof(err)))) {
		log_error("%s", err);
		return NULL;
	}
	if (ops->device_count(err, sizeof(err)) < 0) {
		log_error("mpm-algo ac-cuda: %s", err);
		return NULL;
	}
	return ops;
}

/* ---- mpm-algo: ac-cuda ----
 * The device, then the union automata on it (every runmode: each packet
 * thread feeds the GPU its own windows). open_device 0 (-T): the cheap
 * checks only. 0 (also when ac-cuda is not chosen), or -1 logged. */
int setup_gpu(Session *s, int open_device)
{
	Engine *engine = &s->engine;
	const CudaMpmConfig *cc = &s->cuda;
	const AcDeviceOps *ops;
	AcCudaOpts opts;
	char err[1024] = "";
	int emu = 0, over;

	s->gpu = NULL;
	if (!engine->detect || !mpm_algo_is_ac_cuda())
		return 0;
	if ((over = detect_gpu_test_switches(cc, &emu, &opts, err, sizeof(err))) < 0) {
		log_error("%s", err);
		return -1;
	}
	if (!(ops = gpu_device(emu)))
		return -1;
	if (over)
		log_warning("ac-cuda: cuda.mpm.test-opts overrides the batch tuning (tests only)");
	if (!open_device)
		return 0;
	/* a rule reload builds the next engine's automata the same way */
	s->reload_setup.gpu_ops = ops;
	s->reload_setup.gpu_cfg = *cc;
	s->reload_setup.gpu_opts = opts;
	s->reload_setup.gpu_opts_set = over;
	s->gpu = detect_gpu_new(engine->detect, cc, over ? &opts : NULL, ops, err, sizeof(err));
	if (!s->gpu) {
		log_error("mpm-algo ac-cuda: %s", err);
		return -1;
	}
	return 0;
}

/* detect-engine.rule-reload (default true). Suricata's older yaml had
 * detect-engine as a list of one-key maps: "detect-engine.N.rule-reload"
 * is read too. */
int rule_reload_enabled(int *out)
{
	ConfNode *n = conf_get_node("detect-engine");
	int r;

	*out = 1;
	r = conf_get_bool("detect-engine.rule-reload", out);
	if (r != 0)
		return r < 0 ? -1 : 0;
	for (ConfNode *c = n ? n->child : NULL; c; c = c->next) {
		char path[64];

		snprintf(path, sizeof(path), "detect-engine.%s.rule-reload", c->name);
		if ((r = conf_get_bool(path, out)) != 0)
			return r < 0 ? -1 : 0;
	}
	return 0;
}

/* The yaml keys a rule reload re-reads, as Suricata 8 re-reads them from
 * its configuration file on SIGUSR2 and reload-rules. */
static const char *const reload_keys[] = {
	"rule-files", "default-rule-path", "vars", "classification-file",
	"reference-config-file", "threshold-file", NULL,
};

/* ReloadSetup.reread: the file's detection keys, then the command line's
 * --set of those keys over them (the command line keeps winning, as at
 * start). Under conf_lock(). */
static int reread_yaml(void *arg, char *err, size_t errlen)
{
	const Cli *cli = arg;

	if (conf_reload_keys(cli_config_path(cli), reload_keys, err, errlen) != 0)
		return -1;
	(void)cli_apply_sets(cli, reload_keys);
	return 0;
}

/* The running engine is the reloader's from here (it frees it). */
int setup_reloader(Session *s)
{
	Engine *e = &s->engine;
	ReloadSetup *rs = &s->reload_setup;

	rs->rules_exclusive = s->cli.rules_exclusive;
	rs->rules_extra = s->cli.rules_extra;
	rs->fw_exclusive = s->cli.fw_rules_exclusive;
	rs->init_errors_fatal = s->cli.init_errors_fatal;
	rs->alproto_off = app_layer_protos_off(&s->engine.cfg.app);
	rs->dc = *detect_engine_config(e->detect);
	rs->reread = reread_yaml;
	rs->reread_arg = &s->cli;
	e->reload = reloader_new(rs, s->sigs, e->detect, s->gpu, e->outputs, e->cfg.workers + 2);
	if (!e->reload || reloader_start(e->reload) != 0)
		return -1;
	s->sigs = NULL;
	s->gpu = NULL;
	return 0;
}
