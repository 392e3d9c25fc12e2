/* suricata: command line, start-up, run, shutdown. */
#include "config.h"

#include "capture/capture.h"
#include "capture/pcap-file.h"
#include "conf/conf.h"
#include "conf/cuda-mpm-conf.h"
#include "decode/decode.h"
#include "detect/detect-parse.h"
#include "detect/engine.h"
#include "detect/prefilter-gpu.h"
#include "app-layer/app-layer.h"
#include "app-layer/files.h"
#include "output/alert.h"
#include "stream/stream.h"
#include "flow/flow.h"
#include "output/output.h"
#include "runmode/runmode.h"
#include "runmode/reload.h"
#include "runmode/unix-socket.h"
#include "runmode/pcap-queue.h"
#include "runmode/verdict.h"
#include "stats/counters.h"
#include "util/exception-policy.h"
#include "util/log.h"
#include "util/mem-peak.h"
#ifdef HAVE_CUDA
#include "cuda/cuda-device.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <math.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <htp/htp.h>
#include <jansson.h>
#include <pcap/pcap.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <yaml.h>
#ifdef HAVE_HYPERSCAN
#include <hs.h>
#endif

#define SURICATA_VERSION "8.0.0"
#define ENGINE_SUFFIX "suricata-gpu"

enum {
	OPT_RUNMODE = 256,
	OPT_SET,
	OPT_BUILD_INFO,
	OPT_DUMP_CONFIG,
	OPT_LIST_RUNMODES,
	OPT_LIST_CUDA_CARDS,
	OPT_DISABLE_DETECTION,
	OPT_INIT_ERRORS_FATAL,
	OPT_SIMULATE_IPS,
	OPT_PCAP_FILE_CONTINUOUS,
	OPT_NO_RANDOM,
	OPT_LIST_KEYWORDS,
	OPT_ENGINE_ANALYSIS,
	OPT_PCAP,
	OPT_AF_PACKET,
	OPT_PIDFILE,
	OPT_USER,
	OPT_GROUP,
	OPT_LIST_APP_LAYER_PROTOS,
	OPT_UNIX_SOCKET,
};

typedef struct Cli {
	const char *conf_file;
	const char *pcap_path;
	/* live capture: -i dev (the best method: AF_PACKET), --pcap[=dev],
	 * --af-packet[=dev]; live_kind -1 when none was asked */
	int live_kind;
	const char *live_dev;          /* NULL: from the yaml section */
	const char *bpf_file;          /* -F */
	char *bpf;                     /* trailing words, or -F's content; owned */
	int daemon;                    /* -D */
	const char *pidfile;           /* --pidfile (or yaml pid-file with -D) */
	const char *user, *group;      /* --user, --group (or yaml run-as) */
	const char *rules_exclusive;   /* -S */
	const char *rules_extra;       /* -s */
	const char *log_dir;
	const char *checksum;          /* -k */
	const char *runmode;
	const char **sets;
	int n_sets;
	int verbose;
	int test_mode;                 /* -T */
	int engine_analysis;           /* --engine-analysis */
	int dump_config;
	int disable_detection;
	int init_errors_fatal;
	int simulate_ips;
	int unix_socket;               /* --unix-socket[=file] */
	const char *unix_socket_file;  /* NULL: unix-command.filename or the default */
} Cli;

static void usage(FILE *out, const char *prog)
{
	fprintf(out,
		"%s\n"
		"USAGE: %s [OPTIONS] [BPF FILTER]\n\n"
		"\t-c <path>                            : path to configuration file\n"
		"\t-T                                   : test configuration file (use with -c)\n"
		"\t-r <path>                            : run in pcap file/offline mode (file or folder)\n"
		"\t-i <dev>                             : run in live mode on dev (AF_PACKET, the best method here)\n"
		"\t--pcap[=<dev>]                       : run in pcap live mode (libpcap)\n"
		"\t--af-packet[=<dev>]                  : run in af-packet mode\n"
		"\t-F <bpf filter file>                 : bpf filter file\n"
		"\t-D                                   : run as daemon\n"
		"\t--pidfile <file>                     : write pid to this file\n"
		"\t--user <user>                        : run suricata as this user after init\n"
		"\t--group <group>                      : run suricata as this group after init\n"
		"\t-s <path>                            : path to signature file loaded in addition to suricata.yaml settings\n"
		"\t-S <path>                            : path to signature file loaded exclusively\n"
		"\t-l <dir>                             : default log directory (must exist)\n"
		"\t-k [all|none|auto]                   : force checksum check (all), disable it (none) or auto\n"
		"\t-v                                   : be more verbose (use multiple times)\n"
		"\t-V                                   : display Suricata version\n"
		"\t-h                                   : this help\n"
		"\t--runmode <single|autofp|workers>    : runmode (see --list-runmodes)\n"
		"\t--set name=value                     : set a configuration value (repeatable)\n"
		"\t--build-info                         : display build information\n"
		"\t--dump-config                        : show the running configuration\n"
		"\t--list-runmodes                      : list supported runmodes\n"
		"\t--list-cuda-cards                    : list CUDA cards on the system\n"
		"\t--disable-detection                  : disable detection engine\n"
		"\t--init-errors-fatal                  : enable fatal failure on signature init error\n"
		"\t--list-keywords[=all|csv|<kword>]    : list keywords implemented by the engine\n"
		"\t--list-app-layer-protos              : list supported app layer protocols\n"
		"\t--engine-analysis                    : print reports on analysis of different sections in the engine and exit\n"
		"\t--simulate-ips                       : simulate IPS mode when running in a non-IPS mode\n"
		"\t--unix-socket[=<file>]               : use unix socket to control suricata work\n",
		"This is Suricata version " SURICATA_VERSION " (" ENGINE_SUFFIX ")", prog);
}

static void print_version(void)
{
	printf("This is Suricata version %s (%s)\n", SURICATA_VERSION, ENGINE_SUFFIX);
}

static void print_build_info(void)
{
	char cuda_rt[32] = "", cuda_drv[32] = "";

	print_version();
	printf("Features: PCAP_SET_BUFF HAVE_PCAP HAVE_LIBJANSSON HAVE_HTP HAVE_PCRE2 HAVE_JA3 HAVE_JA4 MAGIC");
#ifdef HAVE_HYPERSCAN
	printf(" HAVE_HYPERSCAN HYPERSCAN");
#endif
#ifdef HAVE_CUDA
	printf(" HAVE_CUDA CUDA");
#endif
#ifdef HAVE_HIREDIS
	printf(" HAVE_LIBHIREDIS");
#endif
	printf("\n");
	printf("64-bits, %s-endian architecture\n",
	       __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? "Little" : "Big");
#ifdef __VERSION__
	printf("GCC version %s, C version %ld\n", __VERSION__, (long)__STDC_VERSION__);
#endif
	printf("compiled with LibHTP v%s\n", htp_get_version());
	printf("libpcap: %s\n", pcap_lib_version());
	printf("jansson: %s\n", JANSSON_VERSION);
	printf("libyaml: %s\n", yaml_get_version_string());
	printf("\nSuricata Configuration:\n");
	printf("  %-40s yes\n", "libpcap support:");
	printf("  %-40s yes\n", "libjansson support:");
	printf("  %-40s yes\n", "libhtp support:");
	printf("  %-40s yes\n", "PCRE2 support:");
	printf("  %-40s yes\n", "AF_PACKET support:");
	printf("  %-40s no\n", "NFQueue support:");
#ifdef HAVE_HIREDIS
	printf("  %-40s yes\n", "hiredis support:");
#else
	printf("  %-40s no\n", "hiredis support:");
#endif
#ifdef HAVE_HYPERSCAN
	printf("  %-40s yes (%s)\n", "Hyperscan support:", hs_version());
#else
	printf("  %-40s no\n", "Hyperscan support:");
#endif
#ifdef HAVE_CUDA
	cuda_versions(cuda_rt, sizeof(cuda_rt), cuda_drv, sizeof(cuda_drv));
	printf("  %-40s yes (toolkit %s, runtime %s, driver %s)\n", "CUDA support:",
	       CUDA_TOOLKIT_VERSION, cuda_rt, cuda_drv);
#else
	(void)cuda_rt;
	(void)cuda_drv;
	printf("  %-40s no\n", "CUDA support:");
#endif
#ifdef HAVE_SANITIZERS
	printf("  %-40s yes\n", "ASan/UBSan:");
#else
	printf("  %-40s no\n", "ASan/UBSan:");
#endif
	/* Suricata's install paths block; suricata-update reads the -- lines */
	printf("\nGeneric build parameters:\n");
	printf("  %-40s %s\n", "Installation prefix:", BUILD_PREFIX);
	printf("  %-40s %s/suricata/\n", "Configuration directory:", BUILD_SYSCONFDIR);
	printf("  %-40s %s\n", "Log directory:", BUILD_LOGDIR);
	printf("\n  %-40s %s\n", "--prefix", BUILD_PREFIX);
	printf("  %-40s %s\n", "--sysconfdir", BUILD_SYSCONFDIR);
	printf("  %-40s %s\n", "--localstatedir", BUILD_LOCALSTATEDIR);
	printf("  %-40s %s\n", "--datarootdir", BUILD_DATAROOTDIR);
}

static int list_cuda_cards(void)
{
#ifdef HAVE_CUDA
	char err[512];

	if (cuda_list_cards(stdout, err, sizeof(err)) != 0) {
		log_error("--list-cuda-cards: %s", err);
		return 1;
	}
	return 0;
#else
	log_error("--list-cuda-cards: this build has no CUDA support; rebuild with "
		  "./configure --enable-cuda (needs the CUDA toolkit)");
	return 1;
#endif
}

static int add_set(Cli *cli, const char *kv)
{
	const char **n = realloc(cli->sets, (cli->n_sets + 1) * sizeof(*n));

	if (!n)
		return -1;
	cli->sets = n;
	cli->sets[cli->n_sets++] = kv;
	return 0;
}

/* Parses argv. Returns -1 to continue, or an exit code. */
static int parse_cli(int argc, char **argv, Cli *cli)
{
	static const struct option longopts[] = {
		{ "runmode", required_argument, NULL, OPT_RUNMODE },
		{ "set", required_argument, NULL, OPT_SET },
		{ "build-info", no_argument, NULL, OPT_BUILD_INFO },
		{ "dump-config", no_argument, NULL, OPT_DUMP_CONFIG },
		{ "list-runmodes", no_argument, NULL, OPT_LIST_RUNMODES },
		{ "list-cuda-cards", no_argument, NULL, OPT_LIST_CUDA_CARDS },
		{ "disable-detection", no_argument, NULL, OPT_DISABLE_DETECTION },
		{ "init-errors-fatal", no_argument, NULL, OPT_INIT_ERRORS_FATAL },
		{ "simulate-ips", no_argument, NULL, OPT_SIMULATE_IPS },
		{ "pcap-file-continuous", no_argument, NULL, OPT_PCAP_FILE_CONTINUOUS },
		{ "no-random", no_argument, NULL, OPT_NO_RANDOM },
		{ "list-keywords", optional_argument, NULL, OPT_LIST_KEYWORDS },
		{ "engine-analysis", no_argument, NULL, OPT_ENGINE_ANALYSIS },
		{ "pcap", optional_argument, NULL, OPT_PCAP },
		{ "af-packet", optional_argument, NULL, OPT_AF_PACKET },
		{ "pidfile", required_argument, NULL, OPT_PIDFILE },
		{ "user", required_argument, NULL, OPT_USER },
		{ "group", required_argument, NULL, OPT_GROUP },
		{ "list-app-layer-protos", no_argument, NULL, OPT_LIST_APP_LAYER_PROTOS },
		{ "unix-socket", optional_argument, NULL, OPT_UNIX_SOCKET },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	cli->live_kind = -1;
	while ((c = getopt_long(argc, argv, "c:r:i:F:DS:s:l:k:vTVh", longopts, NULL)) != -1) {
		switch (c) {
		case 'c': cli->conf_file = optarg; break;
		case 'r': cli->pcap_path = optarg; break;
		case 'i':
		case OPT_PCAP:
		case OPT_AF_PACKET:
			if (cli->live_kind >= 0) {
				/* one source per run (several interfaces: a later task) */
				log_error("only one live capture option may be given");
				return 1;
			}
			cli->live_kind = c == OPT_PCAP ? CAPTURE_PCAP_LIVE : CAPTURE_AF_PACKET;
			cli->live_dev = optarg && *optarg ? optarg : NULL;
			if (c == 'i' && strlen(optarg) >= 64) {
				log_error("-i: interface name '%s' is too long", optarg);
				return 1;
			}
			break;
		case 'F': cli->bpf_file = optarg; break;
		case 'D': cli->daemon = 1; break;
		case OPT_PIDFILE: cli->pidfile = optarg; break;
		case OPT_USER: cli->user = optarg; break;
		case OPT_GROUP: cli->group = optarg; break;
		case 'S': cli->rules_exclusive = optarg; break;
		case 's': cli->rules_extra = optarg; break;
		case 'l': cli->log_dir = optarg; break;
		case 'v': cli->verbose++; break;
		case 'T': cli->test_mode = 1; break;
		case 'k':
			if (strcmp(optarg, "all") && strcmp(optarg, "none") && strcmp(optarg, "auto")) {
				log_error("-k: '%s' is not one of all, none, auto", optarg);
				return 1;
			}
			cli->checksum = optarg;
			break;
		case 'V':
			print_version();
			return 0;
		case 'h':
			usage(stdout, argv[0]);
			return 0;
		case OPT_RUNMODE: cli->runmode = optarg; break;
		case OPT_SET:
			if (!strchr(optarg, '=')) {
				log_error("--set: '%s' is not of the form name=value", optarg);
				return 1;
			}
			if (add_set(cli, optarg) != 0)
				return 1;
			break;
		case OPT_BUILD_INFO:
			print_build_info();
			return 0;
		case OPT_DUMP_CONFIG: cli->dump_config = 1; break;
		case OPT_LIST_RUNMODES:
			runmode_list();
			return 0;
		case OPT_LIST_CUDA_CARDS:
			return list_cuda_cards();
		case OPT_DISABLE_DETECTION: cli->disable_detection = 1; break;
		case OPT_ENGINE_ANALYSIS: cli->engine_analysis = 1; break;
		case OPT_LIST_APP_LAYER_PROTOS:
			/* the registry's protocols, as Suricata lists them */
			printf("=========Supported App Layer Protocols=========\n");
			for (unsigned a = ALPROTO_UNKNOWN + 1; a < ALPROTO_FAILED; a++)
				if (strcmp(app_proto_name((uint16_t)a), "unknown") != 0)
					printf("%s\n", app_proto_name((uint16_t)a));
			return 0;
		case OPT_INIT_ERRORS_FATAL: cli->init_errors_fatal = 1; break;
		case OPT_UNIX_SOCKET:
			cli->unix_socket = 1;
			cli->unix_socket_file = optarg && *optarg ? optarg : NULL;
			break;
		case OPT_SIMULATE_IPS: cli->simulate_ips = 1; break;
		case OPT_LIST_KEYWORDS:
			return keywords_list_as(stdout, optarg);
		case OPT_NO_RANDOM:
			/* Suricata's switch for reproducible runs: we use no randomness. */
			break;
		case OPT_PCAP_FILE_CONTINUOUS:
			log_error("--pcap-file-continuous is not supported");
			return 1;
		default:
			usage(stderr, argv[0]);
			return 1;
		}
	}
	if (cli->pcap_path && cli->live_kind >= 0) {
		log_error("-r and a live capture option (-i, --pcap, --af-packet) exclude each other");
		return 1;
	}
	if (optind < argc && cli->bpf_file) {
		log_error("a bpf filter on the command line and -F %s: use one", cli->bpf_file);
		return 1;
	}
	if (optind < argc || cli->bpf_file) {
		char err[512];

		cli->bpf = cli->bpf_file ? capture_bpf_from_file(cli->bpf_file, err, sizeof(err)) :
			   capture_bpf_from_args(argc - optind, argv + optind, err, sizeof(err));
		if (!cli->bpf) {
			log_error("%s", err);
			return 1;
		}
	}
	return -1;
}

static int load_config(const Cli *cli)
{
	char err[1024];
	const char *path = cli->conf_file ? cli->conf_file : CONFIG_DIR "suricata.yaml";

	if (conf_load_file(path, err, sizeof(err)) != 0) {
		log_error("%s", err);
		return -1;
	}
	for (int i = 0; i < cli->n_sets; i++) {
		if (conf_set_kv(cli->sets[i]) != 0) {
			log_error("--set: cannot set '%s'", cli->sets[i]);
			return -1;
		}
	}
	return 0;
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

/* max-pending-packets when the key is left out (as in Suricata 8's yaml,
 * where it is commented out): Suricata's 1024, but 65000 for ac-cuda, the
 * original feature's recommended value. Every payload queued for the GPU
 * holds its pool packet until its batch is inspected, so the pool bounds
 * the batches: 1024 packets made ~80-payload batches, far too small for a
 * GPU (doc/gpu.md). */
#define MAX_PENDING_DEFAULT 1024
#define MAX_PENDING_DEFAULT_AC_CUDA 65000
/* Below this, ac-cuda batches stay small (gpu_setup warns). */
#define MAX_PENDING_AC_CUDA_MIN 8192

static int mpm_algo_is_ac_cuda(void)
{
	const char *algo = conf_get("mpm-algo");

	return algo && !strcmp(algo, "ac-cuda");
}

/* Typed engine configuration from the tree; errors are logged with their key. */
static int engine_config_load(const Cli *cli, EngineConfig *cfg)
{
	int64_t mpp = mpm_algo_is_ac_cuda() ? MAX_PENDING_DEFAULT_AC_CUDA : MAX_PENDING_DEFAULT;
	const char *rm;
	CudaMpmConfig cuda;
	char err[512];
	int enabled = 1;
	int64_t interval = 8;

	memset(cfg, 0, sizeof(*cfg));
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
		rm = cli->live_kind == CAPTURE_AF_PACKET ? "workers" : "autofp";
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
	/* the ratio is checked in every runmode: a bad value is a bad file */
	cfg->workers = autofp_workers();
	if (!cfg->workers)
		return -1;
	if (cfg->mode == RUNMODE_SINGLE)
		cfg->workers = 1;
	/* Each worker may hold packets; the reader needs a few more to make progress. */
	if (cfg->mode == RUNMODE_AUTOFP && cfg->max_pending_packets < 4 * cfg->workers)
		cfg->max_pending_packets = 4 * cfg->workers;

	if (decode_config_load(&cfg->decode) != 0)
		return -1;
	if (cli->checksum) {
		if (!strcmp(cli->checksum, "all"))
			cfg->decode.checksum = CHECKSUM_ALL;
		else if (!strcmp(cli->checksum, "none"))
			cfg->decode.checksum = CHECKSUM_NONE;
		else
			cfg->decode.checksum = CHECKSUM_AUTO;
	}
	if (flow_config_load(&cfg->flow) != 0)
		return -1;
	if (stream_config_load(&cfg->stream) != 0 || app_layer_config_load(&cfg->app) != 0)
		return -1;
	/* stream.inline: auto means inline in IPS mode, as Suricata; the one
	 * resolution serves the stream engine and detection (detect_setup) */
	if (cfg->stream.inline_mode < 0)
		cfg->stream.inline_mode = cli->simulate_ips;
	/* IPS (--simulate-ips): drop rules block, as eve's action and fast.log's
	 * [Drop] say */
	output_alert_set_ips_mode(cli->simulate_ips);
	/* -k decides for the stream engine too: Suricata's -k none also stops
	 * the TCP tracker from rejecting packets with bad checksums */
	if (cli->checksum && !strcmp(cli->checksum, "none"))
		cfg->stream.checksum_validation = 0;
	else if (cli->checksum && !strcmp(cli->checksum, "all"))
		cfg->stream.checksum_validation = 1;
	if (!cfg->app.http_enabled)
		cfg->stream.consumers &= ~(1u << STREAM_CONSUMER_APP);
	/* after stream.midstream and the IPS mode are known: both shape the
	 * effective policies; Suricata 8 stops on an invalid one */
	if (ep_config_load(cli->simulate_ips, cfg->stream.midstream) != 0)
		return -1;

	if (conf_get_bool("stats.enabled", &enabled) < 0 ||
	    conf_get_int("stats.interval", &interval) < 0)
		return -1;
	cfg->stats_enabled = enabled;
	cfg->stats_interval_s = interval > 0 ? (uint32_t)interval : 0;

	/* The GPU matcher arrives later, but its section is checked now so that a
	 * typo is reported on the first run, not the first GPU run. */
	if (cuda_mpm_config_load(&cuda, err, sizeof(err)) != 0) {
		log_error("%s", err);
		return -1;
	}
	return 0;
}

/* eve-log pcap-file: the file the reader is in (Suricata's is its
 * reader's current file too, when the record is written). */
static const char *pcap_filename_of(void *arg)
{
	struct PcapSource *ps = capture_pcap_source((const Capture *)arg);

	return ps ? pcap_source_current(ps) : NULL;
}

static int check_log_dir(const Cli *cli, const char **out)
{
	const char *dir = cli->log_dir ? cli->log_dir : conf_get("default-log-dir");
	struct stat st;

	/* -l overrides it, as in Suricata: not an ignored setting */
	conf_mark_used("default-log-dir");
	if (!dir)
		dir = "/var/log/suricata/";
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		if (cli->log_dir)
			log_error("the logging directory \"%s\" supplied at the command line (-l %s) "
				  "doesn't exist; create it or choose another", dir, dir);
		else
			log_error("the logging directory \"%s\" (default-log-dir) doesn't exist; "
				  "create it or use -l", dir);
		return -1;
	}
	*out = dir;
	return 0;
}

/* suricata.log's path, for SIGHUP */
static char log_file_path[4096];

/* logging.outputs.file: Suricata keeps a suricata.log in the log folder.
 * Returns 1 with its path when enabled, 0 when not. */
static int log_file_conf(const char *log_dir, char *path, size_t pathlen)
{
	ConfNode *outs = conf_get_node("logging.outputs");

	for (ConfNode *n = outs ? outs->child : NULL; n; n = n->next) {
		ConfNode *f = conf_node_lookup(n, "file");
		const char *name, *en;

		if (!f)
			continue;
		en = conf_node_get(f, "enabled");
		if (!en || !(!strcmp(en, "yes") || !strcmp(en, "true") || !strcmp(en, "on")))
			return 0;
		name = conf_node_get(f, "filename");
		if (!name)
			name = "suricata.log";
		if (name[0] == '/')
			snprintf(path, pathlen, "%s", name);
		else
			snprintf(path, pathlen, "%s/%s", log_dir, name);
		return 1;
	}
	return 0;
}

static void open_log_file(const char *log_dir)
{
	char path[4096];

	if (!log_file_conf(log_dir, path, sizeof(path)))
		return;
	if (log_open_file(path) != 0)
		log_warning("logging: cannot open %s: %s", path, strerror(errno));
	else
		snprintf(log_file_path, sizeof(log_file_path), "%s", path);
}

/* Loads the rules and builds the detection engine. Returns 0, or -1 when
 * start-up must stop (logged): a fatal load error, or with -T /
 * --init-errors-fatal a rule that failed. */
static int detect_setup(const Cli *cli, int stream_inline, SigTable **tp, DetectEngine **dep)
{
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
	dc.stream_inline = stream_inline;
	dc.ips = cli->simulate_ips;
	rc.exclusive = cli->rules_exclusive;
	rc.extra = cli->rules_extra;
	if (cli->rules_exclusive) {
		/* -S overrides them, as in Suricata: not ignored settings */
		conf_mark_used("rule-files");
		conf_mark_used("default-rule-path");
	}
	rc.init_errors_fatal = cli->init_errors_fatal;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	t = sig_load(&rc, err, sizeof(err));
	if (!t) {
		log_error("%s", err);
		return -1;
	}
	*tp = t;
	/* at the default level: the totals and one line per skip reason (each
	 * skipped rule is an info line, -v) */
	log_notice("rules: %d loaded, %d failed, %d skipped (%d files, %d unreadable)",
		   t->loaded, t->failed, t->skipped, t->files_loaded, t->files_failed);
	for (int i = 0; i < t->nreasons && i < 20; i++)
		log_notice("rules skipped: %s x%d", t->reasons[i].reason, t->reasons[i].count);
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
	*dep = de;
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

/* ---- mpm-algo: ac-cuda ----
 * The rules of use (runmode autofp only, as in the original feature), the
 * device (or the host EMULATION, only when cuda.mpm.emulation says so: a
 * test switch), then the union automata on it. open_device 0 (-T): the
 * cheap checks only. 0 (also when ac-cuda is not chosen), or -1 logged. */
static int gpu_setup(Engine *engine, int open_device, DetectGpu **out, ReloadSetup *rs)
{
	const char *algo = conf_get("mpm-algo");
	const AcDeviceOps *ops;
	CudaMpmConfig cc;
	AcCudaOpts opts;
	char err[1024] = "";
	int emu = 0, over;

	*out = NULL;
	if (!engine->detect || !algo || strcmp(algo, "ac-cuda") != 0)
		return 0;
	if (engine->cfg.mode != RUNMODE_AUTOFP) {
		log_error("mpm-algo ac-cuda needs runmode autofp (the capture thread fills the "
			  "GPU ring, the workers take the results): use --runmode autofp, or "
			  "mpm-algo ac");
		return -1;
	}
	if (cuda_mpm_config_load(&cc, err, sizeof(err)) != 0 ||
	    (over = detect_gpu_test_switches(&cc, &emu, &opts, err, sizeof(err))) < 0) {
		log_error("%s", err);
		return -1;
	}
	if (emu) {
		log_warning("ac-cuda: cuda.mpm.emulation is set: the GPU is EMULATED on the host "
			    "(a test switch, not for production)");
		ops = accuda_emu_ops();
	} else if (!(ops = accuda_cuda_ops(err, sizeof(err)))) {
		log_error("%s", err);
		return -1;
	}
	if (ops->device_count(err, sizeof(err)) < 0) {
		log_error("mpm-algo ac-cuda: %s", err);
		return -1;
	}
	if (over)
		log_warning("ac-cuda: cuda.mpm.test-opts overrides the batch tuning (tests only)");
	if (conf_get("max-pending-packets") &&
	    engine->cfg.max_pending_packets < MAX_PENDING_AC_CUDA_MIN)
		log_warning("ac-cuda: max-pending-packets %u is small for the GPU: a batch is cut "
			    "at %u payloads (pool / (cuda-streams + 2)); use %d or more, or leave "
			    "the key out (ac-cuda default %d)", engine->cfg.max_pending_packets,
			    engine->cfg.max_pending_packets / (unsigned)(cc.cuda_streams + 2),
			    MAX_PENDING_AC_CUDA_MIN, MAX_PENDING_DEFAULT_AC_CUDA);
	if (!open_device)
		return 0;
	if (rs) {
		/* a rule reload builds the next engine's automata the same way */
		rs->gpu_ops = ops;
		rs->gpu_cfg = cc;
		rs->gpu_opts = opts;
		rs->gpu_opts_set = over;
	}
	*out = detect_gpu_new(engine->detect, &cc, over ? &opts : NULL, ops, err, sizeof(err));
	if (!*out) {
		log_error("mpm-algo ac-cuda: %s", err);
		return -1;
	}
	return 0;
}

static void register_counters(const CaptureOps *ops)
{
	capture_register_counters(ops);
	decode_register_counters();
	flow_register_counters();
	stream_register_counters();
	app_layer_register_counters();
	detect_register_counters();
	ep_register_counters();
	verdict_register_counters(ep_ips());
	counters_freeze();
}

/* --engine-analysis: loads the rules as a run would, writes what the
 * engine made of each (rules.json in the log folder) and exits. */
static int engine_analysis(const Cli *cli, Engine *engine, SigTable **sigs)
{
	const char *log_dir;
	char path[4096], err[1024];

	if (check_log_dir(cli, &log_dir) != 0 ||
	    detect_setup(cli, engine->cfg.stream.inline_mode, sigs, &engine->detect) != 0)
		return 1;
	snprintf(path, sizeof(path), "%s/rules.json", log_dir);
	if (detect_engine_analysis_write(engine->detect, path, err, sizeof(err)) != 0) {
		log_error("%s", err);
		return 1;
	}
	log_notice("Engine analysis: %u rules written to %s",
		   detect_engine_sig_count(engine->detect), path);
	return 0;
}


/* ---- live capture, daemon, signals ---- */

/* The source's settings and how many capture handles the runmode wants:
 * one in single and autofp (autofp has one RX thread), the section's
 * threads in workers. -k wins over the section's checksum-checks. */
static int capture_setup(const Cli *cli, EngineConfig *ec, CaptureConfig *cc)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	memset(cc, 0, sizeof(*cc));
	cc->kind = cli->live_kind >= 0 ? (enum capture_kind)cli->live_kind : CAPTURE_PCAP_FILE;
	cc->path = cli->pcap_path;
	if (cli->live_dev)
		snprintf(cc->iface, sizeof(cc->iface), "%s", cli->live_dev);
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
		ec->workers = cc->threads;
	}
	if (!cli->checksum && cc->checksum >= 0) {
		ec->decode.checksum = (enum checksum_mode)cc->checksum;
		if (cc->checksum == CHECKSUM_NONE)
			ec->stream.checksum_validation = 0;
	}
	return 0;
}

static RunControl run_ctl;

static void on_stop_signal(int sig)
{
	(void)sig;
	run_ctl.stop = 1;
}

static void on_hup(int sig)
{
	(void)sig;
	run_ctl.reopen = 1;
}

static void on_usr2(int sig)
{
	(void)sig;
	run_ctl.reload = 1;
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_hup;
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_usr2;
	sigaction(SIGUSR2, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

/* SIGHUP, on the main thread: log rotation moved the files away. */
static void reopen_logs(void *arg)
{
	Outputs *o = arg;
	int failed = 0;

	if (log_file_path[0] && log_open_file(log_file_path) != 0) {
		log_error("logging: cannot reopen %s: %s; still writing to the file it was",
			  log_file_path, strerror(errno));
		failed = 1;
	}
	if (o && outputs_reopen(o) != 0)
		failed = 1;
	/* each failure was said with its file and reason: no claim of success */
	if (!failed)
		log_notice("SIGHUP: log files reopened");
}

static void flush_outputs(void *arg)
{
	outputs_flush(arg);
}

/* -D: the parent stays until the child says it runs (a byte on the pipe)
 * or fails (the pipe closes), so that start-up errors reach the caller's
 * exit status. The working directory is kept: relative paths given on the
 * command line (-l, -S, the files reopened on SIGHUP) stay valid. Returns
 * the write end of the pipe in the child; the parent exits here. */
static int daemonize(void)
{
	int fds[2];
	pid_t pid;

	if (pipe(fds) != 0) {
		log_error("-D: pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		log_error("-D: fork: %s", strerror(errno));
		return -1;
	}
	if (pid > 0) {
		char b;

		close(fds[1]);
		_exit(read(fds[0], &b, 1) == 1 ? 0 : 1);
	}
	close(fds[0]);
	setsid();
	{
		int fd = open("/dev/null", O_RDWR);

		if (fd >= 0) {
			dup2(fd, STDIN_FILENO);
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
			if (fd > STDERR_FILENO)
				close(fd);
		}
	}
	return fds[1];
}

static void daemon_ready(int *fd)
{
	if (*fd < 0)
		return;
	if (write(*fd, "1", 1) != 1) {
		/* the parent is gone: nothing to tell */
	}
	close(*fd);
	*fd = -1;
}

/* --pidfile: refused when it names a running process; a stale one (its pid
 * gone) is replaced. check_only: the look before -D forks (so that the
 * refusal reaches the terminal); then the write, with the daemon's pid.
 * 0, or -1 logged. */
static int pidfile_take(const char *path, int check_only)
{
	FILE *f = fopen(path, "r");
	char buf[32];
	int fd;

	if (f) {
		long pid = 0;

		if (fgets(buf, sizeof(buf), f))
			pid = strtol(buf, NULL, 10);
		fclose(f);
		if (pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM)) {
			log_error("pid file %s: pid %ld is running; is another instance running? "
				  "(remove the file if it is stale)", path, pid);
			return -1;
		}
		if (check_only)
			return 0;
		log_info("pid file %s: stale (pid %ld is gone), replaced", path, pid);
	}
	if (check_only)
		return 0;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		log_error("pid file %s: %s", path, strerror(errno));
		return -1;
	}
	snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if (write(fd, buf, strlen(buf)) != (ssize_t)strlen(buf)) {
		log_error("pid file %s: %s", path, strerror(errno));
		close(fd);
		unlink(path);
		return -1;
	}
	close(fd);
	return 0;
}

/* --user / --group: looked up before anything is opened, applied once the
 * capture is open (raw sockets need the privileges, reading does not). */
typedef struct RunAs {
	int set;
	uid_t uid;
	gid_t gid;
	const char *user;
} RunAs;

static int run_as_lookup(const Cli *cli, RunAs *ra)
{
	const char *user = cli->user ? cli->user : conf_get("run-as.user");
	const char *group = cli->group ? cli->group : conf_get("run-as.group");

	memset(ra, 0, sizeof(*ra));
	if (!user && !group)
		return 0;
	ra->set = 1;
	ra->uid = getuid();
	ra->gid = getgid();
	if (user) {
		struct passwd *pw = getpwnam(user);

		if (!pw) {
			log_error("--user: no such user '%s'", user);
			return -1;
		}
		ra->uid = pw->pw_uid;
		ra->gid = pw->pw_gid;
		ra->user = user;
	}
	if (group) {
		struct group *gr = getgrnam(group);

		if (!gr) {
			log_error("--group: no such group '%s'", group);
			return -1;
		}
		ra->gid = gr->gr_gid;
	}
	return 0;
}

static int run_as_apply(const RunAs *ra)
{
	if (!ra->set)
		return 0;
	if ((ra->user ? initgroups(ra->user, ra->gid) : setgroups(0, NULL)) != 0 ||
	    setgid(ra->gid) != 0 || setuid(ra->uid) != 0) {
		log_error("cannot drop privileges to uid %u gid %u: %s", (unsigned)ra->uid,
			  (unsigned)ra->gid, strerror(errno));
		return -1;
	}
	log_info("running as uid %u gid %u", (unsigned)ra->uid, (unsigned)ra->gid);
	return 0;
}

/* uid/gid may write into dir (owner, group or other bits; gid's user's
 * other groups are looked up too). */
static int dir_writable_by(const char *dir, const RunAs *ra)
{
	struct stat st;
	gid_t groups[64];
	int ng = 64;

	if (stat(dir, &st) != 0)
		return 1;     /* nothing useful to say */
	if (ra->uid == 0 || (st.st_mode & S_IWOTH))
		return 1;
	if (st.st_uid == ra->uid)
		return (st.st_mode & S_IWUSR) != 0;
	if (!(st.st_mode & S_IWGRP))
		return 0;
	if (st.st_gid == ra->gid)
		return 1;
	if (ra->user && getgrouplist(ra->user, ra->gid, groups, &ng) >= 0)
		for (int i = 0; i < ng; i++)
			if (groups[i] == st.st_gid)
				return 1;
	return 0;
}

/* Before the drop: what the engine wrote as root becomes run-as's, as
 * Suricata gives its log files to run-as's user: suricata.log, the output
 * files (SIGHUP opens them again by name) and the file-store folders
 * (workers create files in them). The log folder itself stays the
 * operator's: a folder the user cannot write is said once, because log
 * rotation that moves the files away needs it. A failure here is a
 * warning: the run works until the first SIGHUP or stored file. */
static void run_as_give_files(const RunAs *ra, Outputs *o, const char *log_dir)
{
	char err[1024];

	if (!ra->set || geteuid() != 0)
		return;
	if (log_file_path[0] && log_chown_file(ra->uid, ra->gid) != 0)
		log_warning("run-as: cannot give %s to uid %u gid %u: %s", log_file_path,
			    (unsigned)ra->uid, (unsigned)ra->gid, strerror(errno));
	if (o && outputs_chown(o, ra->uid, ra->gid, err, sizeof(err)) != 0)
		log_warning("run-as: output: %s", err);
	if (files_store_chown(ra->uid, ra->gid, err, sizeof(err)) != 0)
		log_warning("run-as: %s", err);
	if (!dir_writable_by(log_dir, ra))
		log_warning("run-as: uid %u gid %u cannot create files in the log folder %s: after "
			    "log rotation moves a file away, SIGHUP cannot make it again (give the "
			    "folder to the user or its group)", (unsigned)ra->uid, (unsigned)ra->gid,
			    log_dir);
}

static void captures_close(Engine *e)
{
	for (unsigned i = 0; i < e->ncaps; i++)
		capture_close(e->caps[i]);
	free(e->caps);
	e->caps = NULL;
	e->ncaps = 0;
}

/* One handle per capture thread. 0, or -1 logged. */
static int captures_open(Engine *e, const CaptureConfig *cc)
{
	const CaptureOps *ops = capture_ops(cc->kind);
	char err[1024];

	e->caps = calloc(cc->threads, sizeof(*e->caps));
	if (!e->caps)
		return -1;
	e->live = ops->live;
	for (unsigned i = 0; i < cc->threads; i++) {
		e->caps[i] = capture_open(ops, cc, i, err, sizeof(err));
		if (!e->caps[i]) {
			log_error("%s", err);
			return -1;
		}
		e->caps[i]->stop = &run_ctl.stop;
		e->ncaps++;
	}
	if (ops->live)
		log_notice("%s: capturing on %s with %u thread%s%s%s", ops->name, cc->iface,
			   cc->threads, cc->threads == 1 ? "" : "s", cc->bpf ? ", bpf filter: " : "",
			   cc->bpf ? cc->bpf : "");
	return 0;
}

/* detect-engine.rule-reload (default true). Suricata's older yaml had
 * detect-engine as a list of one-key maps: "detect-engine.N.rule-reload"
 * is read too. 0, or -1 logged. */
static int rule_reload_enabled(int *out)
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

/* unix-command.enabled (yes, no, auto: as Suricata, on except when reading
 * files) or --unix-socket. */
static int unix_socket_wanted(const Cli *cli, const CaptureConfig *cc)
{
	const char *en = conf_get("unix-command.enabled");

	if (cli->unix_socket)
		return 1;
	if (!en)
		return 0;
	if (!strcmp(en, "auto"))
		return capture_ops(cc->kind)->live;
	return !strcmp(en, "yes") || !strcmp(en, "true") || !strcmp(en, "on") || !strcmp(en, "1");
}

/* The command socket beside the runmode. A socket that cannot be made is
 * a warning, as in Suricata: the sensor runs without it. 0, or -1 (no
 * memory). */
static int unix_socket_setup(const Cli *cli, Engine *e, const CaptureConfig *cc, PcapQueue *pq,
			     UnixSocket **out)
{
	static const char *ifaces[1];
	static const char *const modes[] = { "PCAP_FILE", "PCAP_DEV", "AF_PACKET_DEV" };
	UnixSocketConfig uc = { 0 };
	char err[512];

	uc.path = cli->unix_socket_file ? cli->unix_socket_file : conf_get("unix-command.filename");
	uc.runmode = runmode_name(e->cfg.mode);
	uc.capture_mode = modes[cc->kind];
	if (capture_ops(cc->kind)->live) {
		ifaces[0] = cc->iface;
		uc.ifaces = ifaces;
		uc.nifaces = 1;
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
	const char *path = cli->conf_file ? cli->conf_file : CONFIG_DIR "suricata.yaml";

	if (conf_reload_keys(path, reload_keys, err, errlen) != 0)
		return -1;
	for (int i = 0; i < cli->n_sets; i++) {
		for (int k = 0; reload_keys[k]; k++) {
			size_t l = strlen(reload_keys[k]);

			if (!strncmp(cli->sets[i], reload_keys[k], l) &&
			    (cli->sets[i][l] == '=' || cli->sets[i][l] == '.' ||
			     cli->sets[i][l] == ' ')) {
				(void)conf_set_kv(cli->sets[i]);
				break;
			}
		}
	}
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
	if (captures_open(e, cc) != 0) {
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
	outputs_set_pcap_filename(e->outputs, pcap_filename_of, e->caps[0]);
	reloader_set_outputs(e->reload, e->outputs);
	run_ctl.arg = e->outputs;
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
	run_ctl.arg = NULL;
	outputs_close(e->outputs);
	e->outputs = NULL;
	captures_close(e);
	pcap_queue_done(q, mtime);
}

/* --unix-socket without -r or a live capture: Suricata's unix-socket
 * runmode. The engine waits; each pcap-file task is run in turn until
 * SIGTERM or the shutdown command. */
static void unix_socket_runmode(Engine *e, CaptureConfig *cc, PcapQueue *q)
{
	e->repeat_runs = 1;
	log_notice("unix socket runmode: waiting for pcap files (pcap-file over the socket)");
	while (!run_ctl.stop) {
		PcapTask *t = pcap_queue_take(q, &run_ctl.stop, 200);

		if (!t) {
			/* SIGHUP, SIGUSR2 while idle */
			runmode_control_poll(e);
			continue;
		}
		unix_socket_file_run(e, cc, q, t);
	}
}

/* The console level as Suricata sets it: logging.default-log-level (once
 * the config is loaded), which SC_LOG_LEVEL overrides; -v (info), -vv
 * (perf), -vvv (config), -vvvv (debug) raise it, never lower it. */
static int log_levels_set(const Cli *cli, int have_config)
{
	const char *env = getenv("SC_LOG_LEVEL"), *yl = have_config ? conf_get("logging.default-log-level") : NULL;
	int lvl = LOG_LVL_NOTICE;

	if (yl && *yl) {
		if ((lvl = log_level_by_name(yl)) < 0) {
			log_error("logging.default-log-level: invalid level '%s' (error, warning, notice, "
				  "info, perf, config or debug)", yl);
			return -1;
		}
	}
	if (env && *env) {
		if ((lvl = log_level_by_name(env)) < 0) {
			log_error("SC_LOG_LEVEL: invalid level '%s' (error, warning, notice, info, perf, "
				  "config or debug)", env);
			return -1;
		}
	}
	if (cli->verbose && LOG_LVL_NOTICE + cli->verbose > lvl)
		lvl = LOG_LVL_NOTICE + (cli->verbose > 4 ? 4 : cli->verbose);
	log_set_level((enum log_level)lvl);
	return 0;
}

int main(int argc, char **argv)
{
	Cli cli = { 0 };
	Engine engine = { 0 };
	SigTable *sigs = NULL;
	DetectGpu *gpu = NULL;
	OutputConfig ocfg;
	CaptureConfig capcfg = { 0 };
	RunAs run_as;
	ReloadSetup reload_setup = { 0 };
	UnixSocket *usock = NULL;
	PcapQueue *pcap_queue = NULL;
	int usock_mode;
	const char *log_dir;
	const char *pidfile = NULL;
	int pidfile_owned = 0, ready_fd = -1;
	char err[1024];
	int rc;

	rc = parse_cli(argc, argv, &cli);
	if (rc >= 0)
		goto out;
	rc = 1;
	/* the environment's level already holds for the config's own errors */
	if (log_levels_set(&cli, 0) != 0)
		goto out;
	if (load_config(&cli) != 0)
		goto out;
	if (log_levels_set(&cli, 1) != 0)
		goto out;
	if (cli.dump_config) {
		conf_dump(stdout);
		rc = 0;
		goto out;
	}
	if (engine_config_load(&cli, &engine.cfg) != 0)
		goto out;
	if (cli.engine_analysis) {
		rc = engine_analysis(&cli, &engine, &sigs);
		goto out;
	}
	if (cli.test_mode) {
		if (!cli.disable_detection &&
		    detect_setup(&cli, engine.cfg.stream.inline_mode, &sigs, &engine.detect) != 0)
			goto out;
		if (gpu_setup(&engine, 0, &gpu, NULL) != 0)
			goto out;
		/* the outputs section is checked too (nothing is opened) */
		output_set_app_proto_namer(app_proto_name);
		if (output_config_load(&ocfg, cli.log_dir ? cli.log_dir : ".", err,
				       sizeof(err)) != 0) {
			log_error("%s", err);
			goto out;
		}
		{
			/* a run reads these and -T starts nothing that does */
			int reload;
			char lf[4096];

			if (rule_reload_enabled(&reload) != 0)
				goto out;
			(void)log_file_conf(".", lf, sizeof(lf));
			/* the files module's eve options: its loader would create
			 * the file-store folders, which -T must not */
			for (ConfNode *o = conf_get_node("outputs") ? conf_get_node("outputs")->child : NULL;
			     o; o = o->next) {
				ConfNode *types = conf_node_lookup(o, "eve-log.types");

				for (ConfNode *t = types ? types->child : NULL; t; t = t->next) {
					(void)conf_node_lookup(t, "files.force-magic");
					(void)conf_node_lookup(t, "files.force-hash");
				}
			}
			conf_mark_used("default-log-dir");
			conf_mark_used("unix-command.enabled");
			conf_mark_used("unix-command.filename");
		}
		conf_report_unused(1);
		printf("Configuration provided was successfully loaded. Exiting.\n");
		rc = 0;
		goto out;
	}
	/* --unix-socket alone: the unix-socket runmode (pcap files sent over
	 * the socket) */
	usock_mode = !cli.pcap_path && cli.live_kind < 0 && cli.unix_socket;
	if (usock_mode && !(pcap_queue = pcap_queue_new()))
		goto out;
	if (!cli.pcap_path && cli.live_kind < 0 && !usock_mode) {
		log_error("no input: use -r FILE|DIR, -i DEV, --pcap[=DEV] or --af-packet[=DEV]");
		usage(stderr, argv[0]);
		goto out;
	}
	if (capture_setup(&cli, &engine.cfg, &capcfg) != 0 || run_as_lookup(&cli, &run_as) != 0)
		goto out;
	if (check_log_dir(&cli, &log_dir) != 0)
		goto out;
#ifdef __GLIBC__
	/* A sensor that may reload its rules: blocks of 256 KB and more in
	 * mappings of their own, always. glibc raises its threshold to the size
	 * of any mapping freed (up to 32 MB), after which each engine's big
	 * tables (automata, GPU buffers) would land in the heap, and a reload's
	 * next engine, built while the old one lives, above the holes the one
	 * before left: peak RSS a step higher per reload (tests/live/reload.sh
	 * measures it). Set before the rules load. */
	if (!cli.disable_detection && (capture_ops(capcfg.kind)->live || unix_socket_wanted(&cli, &capcfg)))
		mallopt(M_MMAP_THRESHOLD, 256 << 10);
#endif
	pidfile = cli.pidfile ? cli.pidfile : cli.daemon ? conf_get("pid-file") : NULL;
	if (pidfile && pidfile_take(pidfile, 1) != 0)
		goto out;
	/* before any thread or device exists: fork() copies only the caller */
	if (cli.daemon && (ready_fd = daemonize()) < 0)
		goto out;
	if (pidfile) {
		if (pidfile_take(pidfile, 0) != 0) {
			pidfile = NULL;
			goto out;
		}
		pidfile_owned = 1;
	}
	open_log_file(log_dir);
	/* from here a SIGTERM (during a long rule load too) ends the run
	 * cleanly: the capture loop sees the flag at once, the pid file goes */
	install_signals();

	/* a file is checked before the rules load (a typo fails at once); a
	 * live capture opens once the engine is ready, so that its ring does
	 * not fill while the rules load */
	if (!usock_mode && !capture_ops(capcfg.kind)->live && captures_open(&engine, &capcfg) != 0)
		goto out;
	if (!cli.disable_detection &&
	    detect_setup(&cli, engine.cfg.stream.inline_mode, &sigs, &engine.detect) != 0)
		goto out;
	/* Raw stream data is kept only for rules that inspect it; a live sensor
	 * that may reload its rules keeps it (the next rules may want it) */
	if (engine.detect && rule_reload_enabled(&reload_setup.enabled) != 0)
		goto out;
	reload_setup.raw_kept = engine.detect && reload_setup.enabled &&
				(capture_ops(capcfg.kind)->live || unix_socket_wanted(&cli, &capcfg));
	if (!engine.detect ||
	    (!detect_engine_uses_stream(engine.detect) && !reload_setup.raw_kept))
		engine.cfg.stream.consumers &= ~(1u << STREAM_CONSUMER_RAW);
	if (gpu_setup(&engine, 1, &gpu, &reload_setup) != 0)
		goto out;
	if (gpu)
		detect_gpu_register_counters();
	register_counters(capture_ops(capcfg.kind));
	output_set_app_proto_namer(app_proto_name);
	/* the unix-socket runmode opens each file's outputs in its folder; the
	 * section is checked now, so that a bad one fails at start */
	if (output_config_load(&ocfg, log_dir, err, sizeof(err)) != 0 ||
	    (!usock_mode && files_config_load(log_dir, err, sizeof(err)) != 0)) {
		log_error("%s", err);
		goto out;
	}
	if (sigs) {
		/* stats.detect.engines */
		gettimeofday(&ocfg.rules_at, NULL);
		ocfg.rules_loaded = sigs->loaded;
		ocfg.rules_failed = sigs->failed;
		ocfg.rules_skipped = sigs->skipped;
	}
	engine.outputs = usock_mode ? NULL : outputs_open(&ocfg, err, sizeof(err));
	if (!engine.outputs && !usock_mode) {
		log_error("%s", err);
		goto out;
	}
	/* parsers mark frames only for a frame rule or the eve frame logger
	 * (a rule reload does not turn them on later) */
	engine.cfg.app.frames = detect_engine_uses_frames(engine.detect) ||
				outputs_frames_enabled(engine.outputs);
	engine.cfg.app.frames_stream = detect_engine_uses_stream_frames(engine.detect);
	if (!capture_ops(capcfg.kind)->live && engine.ncaps && capture_pcap_source(engine.caps[0]))
		outputs_set_pcap_filename(engine.outputs, pcap_filename_of, engine.caps[0]);
	if (capture_ops(capcfg.kind)->live && captures_open(&engine, &capcfg) != 0)
		goto out;
	if (engine.detect) {
		/* the running engine is the reloader's from here (it frees it) */
		reload_setup.rules_exclusive = cli.rules_exclusive;
		reload_setup.rules_extra = cli.rules_extra;
		reload_setup.init_errors_fatal = cli.init_errors_fatal;
		reload_setup.dc = *detect_engine_config(engine.detect);
		reload_setup.reread = reread_yaml;
		reload_setup.reread_arg = &cli;
		engine.reload = reloader_new(&reload_setup, sigs, engine.detect, gpu, engine.outputs,
					     engine.cfg.workers + 2);
		if (!engine.reload || reloader_start(engine.reload) != 0)
			goto out;
		sigs = NULL;
		gpu = NULL;
	}
	run_ctl.on_reopen = reopen_logs;
	run_ctl.on_tick = flush_outputs;
	run_ctl.arg = engine.outputs;
	engine.ctl = &run_ctl;
	/* before privileges go: the socket's directory may be root's */
	if (unix_socket_wanted(&cli, &capcfg) &&
	    (unix_socket_setup(&cli, &engine, &capcfg, pcap_queue, &usock) != 0 ||
	     (usock_mode && !usock)))
		goto out;
	run_as_give_files(&run_as, engine.outputs, log_dir);
	if (run_as_apply(&run_as) != 0)
		goto out;
	/* everything a run reads has been read: name the rest */
	conf_report_unused(0);
	log_info("runmode %s, %u worker%s, max-pending-packets %u",
		 runmode_name(engine.cfg.mode), engine.cfg.workers,
		 engine.cfg.workers == 1 ? "" : "s", engine.cfg.max_pending_packets);
	daemon_ready(&ready_fd);

	struct timespec t0, t1, c0, c1;

#ifdef __GLIBC__
	/* Rule loading frees most of what it allocated; give those pages back
	 * so that RSS is the loaded engine's, not the loader's high-water mark */
	malloc_trim(0);
#endif
	log_info("memuse: RSS %llu bytes at the start of packet processing",
		 (unsigned long long)rss_bytes());
	if (usock_mode) {
		unix_socket_runmode(&engine, &capcfg, pcap_queue);
		rc = 0;
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	if (runmode_run(&engine) != 0)
		goto out;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	{
		CaptureStats cs, sum = { 0 };
		/* the packet phase alone, start-up and teardown excluded: what a
		 * benchmark divides by */
		double secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
		struct PcapSource *ps = capture_pcap_source(engine.caps[0]);

		for (unsigned i = 0; i < engine.ncaps; i++) {
			capture_stats(engine.caps[i], &cs);
			sum.packets += cs.packets;
			sum.bytes += cs.bytes;
			sum.kernel_packets += cs.kernel_packets;
			sum.kernel_drops += cs.kernel_drops;
			sum.kernel_ifdrops += cs.kernel_ifdrops;
		}
		if (secs < 1e-6)
			secs = 1e-6;
		if (ps) {
			const PcapSourceStats *s = pcap_source_stats(ps);

			log_notice("pcap-file: read %llu files, %llu packets, %llu bytes",
				   (unsigned long long)s->files, (unsigned long long)s->packets,
				   (unsigned long long)s->bytes);
			/* what was not read whole, in one line (each case was warned) */
			if (s->errors)
				log_warning("pcap-file: %llu capture error%s: input not read whole "
					    "(see the warnings above; counted in capture.errors)",
					    (unsigned long long)s->errors, s->errors == 1 ? "" : "s");
		} else {
			log_notice("%s: %s: %llu packets, %llu bytes; kernel: %llu packets, %llu "
				   "drops, %llu interface drops", engine.caps[0]->ops->name,
				   capcfg.iface, (unsigned long long)sum.packets,
				   (unsigned long long)sum.bytes,
				   (unsigned long long)sum.kernel_packets,
				   (unsigned long long)sum.kernel_drops,
				   (unsigned long long)sum.kernel_ifdrops);
		}
		log_info("runmode %s: packets processed in %.3f s (cpu %.3f s): %.0f packets/s, %.1f Mbit/s",
			 runmode_name(engine.cfg.mode), secs,
			 (c1.tv_sec - c0.tv_sec) + (c1.tv_nsec - c0.tv_nsec) / 1e9,
			 sum.packets / secs, sum.bytes * 8 / secs / 1e6);
		/* stats records come once a second and miss a short flood's peak */
		log_info("memuse: peak %llu bytes (flow, tcp, tcp.reassembly, http and "
			 "defrag memuse together)", (unsigned long long)mem_peak_max());
	}
	rc = 0;
out:
	unix_socket_free(usock);
	/* after the socket's thread: it answers from the queue */
	pcap_queue_free(pcap_queue);
	/* no reload writes to the outputs after this */
	reloader_stop(engine.reload);
	if (engine.outputs)
		outputs_close(engine.outputs);
	captures_close(&engine);
	capture_config_free(&capcfg);
	if (engine.reload) {
		reloader_free(engine.reload);
		engine.detect = NULL;
	}
	detect_gpu_free(gpu);
	detect_engine_free(engine.detect);
	sig_table_free(sigs);
	stream_config_free(&engine.cfg.stream);
	counters_destroy();
	conf_deinit();
	if (pidfile_owned && unlink(pidfile) != 0)
		log_warning("pid file %s: cannot remove: %s", pidfile, strerror(errno));
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
	free(cli.sets);
	free(cli.bpf);
	/* -D: a start-up failure closes the pipe: the parent exits 1 */
	if (ready_fd >= 0)
		close(ready_fd);
	return rc;
}
