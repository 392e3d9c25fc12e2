/* suricata: the sequence from the command line to the exit code.
 *
 *   parse the command line (main/cli.c: -h, -V, --build-info and the
 *   --list-* commands print and exit there)
 *   -> load the config (yaml, --set) and the typed engine config, with
 *      the run policy (IDS/IPS) resolved once (main/setup.c)
 *   -> -T, --engine-analysis and --dump-config stop here
 *   -> the input, then the process: pid file, -D, suricata.log, signals
 *      (main/daemon.c)
 *   -> the engine: captures, rules, GPU, counters, outputs, reloader
 *      (main/setup.c, main/setup-detect.c)
 *   -> the unix socket, then privileges go (run-as)
 *   -> run (runmode/), report, tear down.
 * Each step logs its own failure; main() only turns it into the exit code
 * (1, or 3 when records were lost) and frees what the steps made. */
#include "main/cli.h"
#include "main/daemon.h"
#include "main/logging.h"
#include "main/setup.h"
#include "capture/pcap-file.h"
#include "conf/conf.h"
#include "datasets/dataset.h"
#include "datasets/iprep.h"
#include "datasets/geoip.h"
#include "runmode/captures.h"
#include "runmode/unix-socket-runmode.h"
#include "stats/counters.h"
#include "stream/stream.h"
#include "util/log.h"
#include "util/mem-peak.h"

#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The pid file, -D's fork, suricata.log and the signals: before any thread
 * or device exists, since fork() copies only the caller. */
static int process_start(Session *s)
{
	const Cli *cli = &s->cli;

	s->pidfile = cli->pidfile ? cli->pidfile : cli->daemon ? conf_get("pid-file") : NULL;
	if (s->pidfile && pidfile_take(s->pidfile, 1) != 0)
		return -1;
	if (cli->daemon && (s->ready_fd = daemonize()) < 0)
		return -1;
	if (s->pidfile) {
		if (pidfile_take(s->pidfile, 0) != 0) {
			s->pidfile = NULL;
			return -1;
		}
		s->pidfile_owned = 1;
	}
	log_file_start(s->log_dir, s->log_file, sizeof(s->log_file));
	/* from here a SIGTERM (during a long rule load too) ends the run
	 * cleanly: the capture loop sees the flag at once, the pid file goes */
	s->engine.ctl = signals_install();
	return 0;
}

/* The unix socket, made while the privileges last (its directory may be
 * root's), then the files handed over and the privileges dropped. */
static int privileges_drop(Session *s)
{
	if (unix_socket_wanted(s->cli.unix_socket, s->capcfg[0].kind) &&
	    (unix_socket_setup(s->cli.unix_socket_file, &s->engine, s->capcfg, s->ncapcfg,
			       s->pcap_queue, &s->usock) != 0 ||
	     (s->usock_mode && !s->usock)))
		return -1;
	run_as_give_files(&s->run_as, s->engine.outputs, s->log_dir, s->log_file);
	return run_as_apply(&s->run_as);
}

/* Resident memory now (/proc/self/statm), 0 when unknown: with the peak RSS
 * it tells what the packet phase added over the loaded engine. */
static uint64_t rss_bytes(void)
{
	unsigned long long size = 0, res = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (!f)
		return 0;
	if (fscanf(f, "%llu %llu", &size, &res) != 2)
		res = 0;
	fclose(f);
	return (uint64_t)res * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* Start-up is over: what was not read is named, -D's parent may exit. */
static void announce_ready(Session *s)
{
	const EngineConfig *ec = &s->engine.cfg;

	/* everything a run reads has been read: name the rest */
	conf_report_unused(0);
	log_info("runmode %s, %u worker%s, max-pending-packets %u", runmode_name(ec->mode),
		 ec->workers, ec->workers == 1 ? "" : "s", ec->max_pending_packets);
	daemon_ready(&s->ready_fd);
#ifdef __GLIBC__
	/* Rule loading frees most of what it allocated; give those pages back
	 * so that RSS is the loaded engine's, not the loader's high-water mark */
	malloc_trim(0);
#endif
	log_info("memuse: RSS %llu bytes at the start of packet processing",
		 (unsigned long long)rss_bytes());
}

static double elapsed(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) + (b->tv_nsec - a->tv_nsec) / 1e9;
}

static void stats_add(CaptureStats *sum, const CaptureStats *cs)
{
	sum->packets += cs->packets;
	sum->bytes += cs->bytes;
	sum->kernel_packets += cs->kernel_packets;
	sum->kernel_drops += cs->kernel_drops;
	sum->kernel_ifdrops += cs->kernel_ifdrops;
}

/* What the capture read, in one line a source (each error was warned): a
 * live interface's handles are its threads, in e->caps in capcfg's order. */
static void report_input(const Session *s)
{
	const Engine *e = &s->engine;
	struct PcapSource *ps = capture_pcap_source(e->caps[0]);
	unsigned first = 0;

	if (ps) {
		const PcapSourceStats *st = pcap_source_stats(ps);

		log_notice("pcap-file: read %llu files, %llu packets, %llu bytes",
			   (unsigned long long)st->files, (unsigned long long)st->packets,
			   (unsigned long long)st->bytes);
		/* what was not read whole, in one line (each case was warned) */
		if (st->errors)
			log_warning("pcap-file: %llu capture error%s: input not read whole "
				    "(see the warnings above; counted in capture.errors)",
				    (unsigned long long)st->errors, st->errors == 1 ? "" : "s");
		return;
	}
	for (unsigned i = 0; i < s->ncapcfg && first < e->ncaps; i++) {
		CaptureStats cs, sum = { 0 };

		for (unsigned t = 0; t < s->capcfg[i].threads && first < e->ncaps; t++) {
			capture_stats(e->caps[first++], &cs);
			stats_add(&sum, &cs);
		}
		log_notice("%s: %s: %llu packets, %llu bytes; kernel: %llu packets, %llu "
			   "drops, %llu interface drops", e->caps[0]->ops->name, s->capcfg[i].iface,
			   (unsigned long long)sum.packets, (unsigned long long)sum.bytes,
			   (unsigned long long)sum.kernel_packets,
			   (unsigned long long)sum.kernel_drops,
			   (unsigned long long)sum.kernel_ifdrops);
	}
}

/* The packet phase alone, start-up and teardown excluded: what a benchmark
 * divides by. */
static void report_run(const Session *s, double secs, double cpu)
{
	const Engine *e = &s->engine;
	CaptureStats cs, sum = { 0 };

	for (unsigned i = 0; i < e->ncaps; i++) {
		capture_stats(e->caps[i], &cs);
		stats_add(&sum, &cs);
	}
	if (secs < 1e-6)
		secs = 1e-6;
	report_input(s);
	log_info("runmode %s: packets processed in %.3f s (cpu %.3f s): %.0f packets/s, %.1f Mbit/s",
		 runmode_name(e->cfg.mode), secs, cpu, sum.packets / secs,
		 sum.bytes * 8 / secs / 1e6);
	/* stats records come once a second and miss a short flood's peak */
	log_info("memuse: peak %llu bytes (flow, tcp, tcp.reassembly, http and "
		 "defrag memuse together)", (unsigned long long)mem_peak_max());
}

static int run_packets(Session *s)
{
	struct timespec t0, t1, c0, c1;

	if (s->usock_mode) {
		unix_socket_runmode(&s->engine, &s->capcfg[0], s->pcap_queue);
		return 0;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	if (runmode_run(&s->engine) != 0)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	report_run(s, elapsed(&t0, &t1), elapsed(&c0, &c1));
	return 0;
}

/* Everything after the command line. The exit code. */
static int run(Session *s, const char *prog)
{
	if (setup_config(s) != 0)
		return 1;
	if (s->cli.dump_config) {
		conf_dump(stdout);
		return 0;
	}
	if (setup_engine_config(s) != 0)
		return 1;
	if (s->cli.engine_analysis)
		return setup_engine_analysis(s);
	if (s->cli.test_mode)
		return setup_test_mode(s);
	if (setup_input(s, prog) != 0 || process_start(s) != 0 || setup_engine(s) != 0 ||
	    privileges_drop(s) != 0)
		return 1;
	announce_ready(s);
	return run_packets(s);
}

/* Frees what start-up made, in the order the threads need; the exit code
 * becomes 3 when records were lost. */
static int session_end(Session *s, int rc)
{
	Engine *e = &s->engine;

	unix_socket_free(s->usock);
	/* after the socket's thread: it answers from the queue */
	pcap_queue_free(s->pcap_queue);
	/* no reload writes to the outputs after this */
	reloader_stop(e->reload);
	if (e->outputs)
		outputs_close(e->outputs);
	captures_close(e);
	for (unsigned i = 0; i < s->ncapcfg; i++)
		capture_config_free(&s->capcfg[i]);
	if (e->reload) {
		reloader_free(e->reload);
		e->detect = NULL;
	}
	detect_gpu_free(s->gpu);
	detect_engine_free(e->detect);
	sig_table_free(s->sigs);
	/* Suricata writes the sets with save/state files at exit, not under -T */
	if (!s->cli.test_mode)
		datasets_save();
	datasets_free();
	iprep_free();
	geoip_free();
	stream_config_free(&e->cfg.stream);
	counters_destroy();
	conf_deinit();
	if (s->pidfile_owned && unlink(s->pidfile) != 0)
		log_warning("pid file %s: cannot remove: %s", s->pidfile, strerror(errno));
	/* records lost to failed writes: the last line says how many, and the
	 * exit code (3) says that the logs are not whole */
	if (output_lost_total() || log_file_lost()) {
		log_error("output: %llu records and %llu suricata.log lines could not be "
			  "written (exit 3)", (unsigned long long)output_lost_total(),
			  (unsigned long long)log_file_lost());
		if (rc == 0)
			rc = 3;
	}
	log_close_file();
	cli_free(&s->cli);
	/* -D: a start-up failure closes the pipe: the parent exits 1 */
	if (s->ready_fd >= 0)
		close(s->ready_fd);
	return rc;
}

int main(int argc, char **argv)
{
	Session s = { .ready_fd = -1 };
	int rc;

	rc = cli_parse(argc, argv, &s.cli);
	if (rc < 0)
		rc = run(&s, argv[0]);
	return session_end(&s, rc);
}
