/* The unix socket beside a run and the unix-socket runmode
 * (unix-socket-runmode.h). */
#include "runmode/unix-socket-runmode.h"
#include "runmode/captures.h"
#include "runmode/reload.h"
#include "app-layer/files.h"
#include "capture/pcap-file.h"
#include "conf/conf.h"
#include "output/output.h"
#include "stats/counters.h"
#include "util/log.h"

#include <string.h>

int unix_socket_wanted(int forced, enum capture_kind kind)
{
	const char *en = conf_get("unix-command.enabled");

	if (forced)
		return 1;
	if (!en)
		return 0;
	if (!strcmp(en, "auto"))
		return capture_ops(kind)->live;
	return !strcmp(en, "yes") || !strcmp(en, "true") || !strcmp(en, "on") || !strcmp(en, "1");
}

int unix_socket_setup(const char *path, Engine *e, const CaptureConfig *cc, unsigned ncc,
		      PcapQueue *pq, UnixSocket **out)
{
	/* read by the socket's thread for the run: the names live in cc */
	static const char *ifaces[UNIX_SOCKET_IFACES_MAX];
	static const char *const modes[] = { "PCAP_FILE", "PCAP_DEV", "AF_PACKET_DEV" };
	UnixSocketConfig uc = { 0 };
	char err[512];

	uc.path = path ? path : conf_get("unix-command.filename");
	uc.runmode = runmode_name(e->cfg.mode);
	uc.capture_mode = modes[cc->kind];
	if (capture_ops(cc->kind)->live) {
		for (unsigned i = 0; i < ncc && i < UNIX_SOCKET_IFACES_MAX; i++)
			ifaces[uc.nifaces++] = cc[i].iface;
		uc.ifaces = ifaces;
	}
	uc.reload = e->reload;
	uc.ctl = e->ctl;
	if (pq) {
		/* the unix-socket runmode: no capture of its own */
		uc.capture_mode = "UNIX_SOCKET";
		uc.pcap = pq;
	}
	*out = unix_socket_new(&uc);
	if (!*out)
		return -1;
	if (unix_socket_listen(*out, err, sizeof(err)) != 0) {
		if (pq) {
			/* the runmode is the socket: nothing to run without it */
			log_error("%s", err);
			unix_socket_free(*out);
			*out = NULL;
			return -1;
		}
		log_warning("%s; running without the unix socket", err);
		unix_socket_free(*out);
		*out = NULL;
		return 0;
	}
	if (unix_socket_start(*out) != 0) {
		log_warning("unix-command: cannot start its thread; running without the unix socket");
		unix_socket_free(*out);
		*out = NULL;
		return 0;
	}
	log_info("unix socket: listening on %s", unix_socket_path(*out));
	return 0;
}

/* One file of the unix-socket runmode: a fresh pcap-file run with its logs
 * in the task's folder, with the loaded detection engine (its cross-flow
 * state and the counters reset first, as Suricata resets its engine state
 * between files). A file that cannot be opened or an output folder that
 * cannot be written is logged and the next task comes. */
static void unix_socket_file_run(Engine *e, CaptureConfig *cc, PcapQueue *q, PcapTask *t)
{
	OutputConfig ocfg;
	struct PcapSource *ps;
	char err[1024];
	int64_t mtime = 0;
	int r;

	log_notice("unix socket: starting run for '%s' (logs in %s)", t->filename, t->output_dir);
	if (t->tenant)
		log_info("unix socket: %s: tenant %d: multi-tenancy is not supported, the one "
			 "detection engine inspects it", t->filename, t->tenant);
	if (t->continuous)
		log_warning("unix socket: %s: continuous mode is not supported: the folder is read "
			    "once", t->filename);
	cc->path = t->filename;
	if (captures_open(e, cc, 1) != 0) {
		captures_close(e);
		pcap_queue_done(q, 0);
		return;
	}
	e->caps[0]->interrupt = pcap_queue_interrupt_flag(q);
	ps = capture_pcap_source(e->caps[0]);
	pcap_source_set_delete(ps, t->delete_when_done);
	conf_lock();
	r = output_config_load(&ocfg, t->output_dir, err, sizeof(err)) != 0 ||
	    files_config_load(t->output_dir, err, sizeof(err)) != 0;
	conf_unlock();
	ocfg.eve_alert.ips = e->cfg.policy.ips;
	if (!r && e->reload) {
		ReloadInfo ri;

		reloader_info(e->reload, &ri);
		ocfg.rules_at = ri.last_reload;
		ocfg.rules_loaded = ri.loaded;
		ocfg.rules_failed = ri.failed;
		ocfg.rules_skipped = ri.skipped;
	}
	if (r || !(e->outputs = outputs_open(&ocfg, err, sizeof(err)))) {
		log_error("unix socket: %s: %s", t->filename, err);
		captures_close(e);
		pcap_queue_done(q, 0);
		return;
	}
	outputs_set_pcap_filename(e->outputs, captures_pcap_filename, e->caps[0]);
	reloader_set_outputs(e->reload, e->outputs);
	counters_zero();
	reloader_reset_state(e->reload);
	if (runmode_run(e) == 0) {
		const PcapSourceStats *s = pcap_source_stats(ps);

		log_notice("unix socket: %s: read %llu files, %llu packets, %llu bytes%s",
			   t->filename, (unsigned long long)s->files,
			   (unsigned long long)s->packets, (unsigned long long)s->bytes,
			   *pcap_queue_interrupt_flag(q) ? " (interrupted)" : "");
	}
	mtime = pcap_source_last_mtime_ms(ps);
	/* no reload or signal writes to these outputs from here */
	reloader_set_outputs(e->reload, NULL);
	outputs_close(e->outputs);
	e->outputs = NULL;
	captures_close(e);
	pcap_queue_done(q, mtime);
}

void unix_socket_runmode(Engine *e, CaptureConfig *cc, PcapQueue *q)
{
	e->repeat_runs = 1;
	log_notice("unix-socket: waiting for pcap files (pcap-file over the socket)");
	while (!e->ctl->stop) {
		PcapTask *t = pcap_queue_take(q, &e->ctl->stop, 200);

		if (!t) {
			/* SIGHUP, SIGUSR2 while idle */
			runmode_control_poll(e);
			continue;
		}
		unix_socket_file_run(e, cc, q, t);
	}
}
