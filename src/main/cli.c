/* The command line (cli.h): options, usage, and the commands that print
 * and exit. */
#include "config.h"

#include "main/cli.h"
#include "app-layer/app-layer.h"
#include "capture/capture.h"
#include "conf/conf.h"
#include "detect/detect-parse.h"
#include "runmode/runmode.h"
#include "util/log.h"
#ifdef HAVE_CUDA
#include "cuda/cuda-device.h"
#endif

#include <getopt.h>
#include <htp/htp.h>
#include <jansson.h>
#include <pcap/pcap.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#ifdef HAVE_HYPERSCAN
#include <hs.h>
#endif

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
	OPT_FIREWALL,
	OPT_FIREWALL_RULES_EXCLUSIVE,
	OPT_PCAP_FILE_CONTINUOUS,
	OPT_PCAP_FILE_DELETE,
	OPT_PCAP_FILE_RECURSIVE,
	OPT_NO_RANDOM,
	OPT_LIST_KEYWORDS,
	OPT_ENGINE_ANALYSIS,
	OPT_PCAP,
	OPT_AF_PACKET,
	OPT_PIDFILE,
	OPT_DATA_DIR,
	OPT_USER,
	OPT_GROUP,
	OPT_LIST_APP_LAYER_PROTOS,
	OPT_LIST_APP_LAYER_HOOKS,
	OPT_UNIX_SOCKET,
	OPT_INCLUDE,
};

void cli_usage(FILE *out, const char *prog)
{
	fprintf(out,
		"%s\n"
		"USAGE: %s [OPTIONS] [BPF FILTER]\n\n"
		"\t-c <path>                            : path to configuration file\n"
		"\t--include <path>                     : additional configuration file (repeatable)\n"
		"\t-T                                   : test configuration file (use with -c)\n"
		"\t-r <path>                            : run in pcap file/offline mode (file or folder)\n"
		"\t--pcap-file-continuous               : when running in pcap mode with a directory, continue checking directory for pcaps until interrupted\n"
		"\t--pcap-file-delete                   : when running in replay mode (-r with directory or file), will delete pcap files that have been processed when done\n"
		"\t--pcap-file-recursive                : will descend into subdirectories when running in replay mode (-r)\n"
		"\t-i <dev>                             : run in live mode on dev (AF_PACKET, the best method here)\n"
		"\t--pcap[=<dev>]                       : run in pcap live mode (libpcap)\n"
		"\t-q <qid[:qid]>                       : run in inline nfqueue mode (a range: one queue each)\n"
		"\t--af-packet[=<dev>]                  : run in af-packet mode\n"
		"\t                                       (no dev: every interface of the\n"
		"\t                                       yaml section; -i repeats)\n"
		"\t-F <bpf filter file>                 : bpf filter file\n"
		"\t-D                                   : run as daemon\n"
		"\t--pidfile <file>                     : write pid to this file\n"
		"\t--data-dir <dir>                     : folder of the datasets' save and state files\n"
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
		"\t--list-app-layer-hooks               : list supported app layer hooks for use in rules\n"
		"\t--engine-analysis                    : print reports on analysis of different sections in the engine and exit\n"
		"\t--simulate-ips                       : simulate IPS mode when running in a non-IPS mode\n"
		"\t--unix-socket[=<file>]               : use unix socket to control suricata work\n"
		"\n  Firewall:\n"
		"\t--firewall                           : enable firewall mode\n"
		"\t--firewall-rules-exclusive=<path>    : path to firewall rule file loaded exclusively\n",
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
	printf("Features: PCAP_SET_BUFF AF_PACKET HAVE_PACKET_FANOUT HAVE_PCAP HAVE_LIBJANSSON HAVE_HTP "
	       "HAVE_PCRE2 HAVE_JA3 HAVE_JA4");
	/* the optional libraries (configure.ac): what a rule or an output
	 * that needs one may count on */
#ifdef HAVE_LIBMAGIC
	printf(" MAGIC HAVE_LIBMAGIC");
#endif
#ifdef HAVE_HYPERSCAN
	printf(" HAVE_HYPERSCAN HYPERSCAN");
#endif
#ifdef HAVE_CUDA
	printf(" HAVE_CUDA CUDA");
#endif
#ifdef HAVE_HIREDIS
	printf(" HAVE_LIBHIREDIS");
#endif
	/* Suricata names its Lua support so; suricata-verify's requires read it */
	if (lua_kw_version())
		printf(" HAVE_LUA");
#ifdef HAVE_NFQUEUE
	printf(" NFQ HAVE_NFQUEUE");
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
#ifdef HAVE_NFQUEUE
	printf("  %-40s yes\n", "NFQueue support:");
#else
	printf("  %-40s no\n", "NFQueue support:");
#endif
#ifdef HAVE_HIREDIS
	printf("  %-40s yes\n", "hiredis support:");
#else
	printf("  %-40s no\n", "hiredis support:");
#endif
#ifdef HAVE_LZ4
	printf("  %-40s yes\n", "liblz4 support:");
#else
	printf("  %-40s no\n", "liblz4 support:");
#endif
#ifdef HAVE_GEOIP
	printf("  %-40s yes\n", "GeoIP2 support:");
#else
	printf("  %-40s no\n", "GeoIP2 support:");
#endif
	if (lua_kw_version())
		printf("  %-40s yes (%s)\n", "Lua support:", lua_kw_version());
	else
		printf("  %-40s no\n", "Lua support:");
#ifdef HAVE_LIBMAGIC
	printf("  %-40s yes\n", "libmagic support:");
#else
	printf("  %-40s no\n", "libmagic support:");
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

/* --list-app-layer-protos: the registry's protocols, as Suricata lists them */
static void list_app_layer_protos(void)
{
	printf("=========Supported App Layer Protocols=========\n");
	for (unsigned a = ALPROTO_UNKNOWN + 1; a < ALPROTO_FAILED; a++)
		if (strcmp(app_proto_name((uint16_t)a), "unknown") != 0)
			printf("%s\n", app_proto_name((uint16_t)a));
}

/* Suricata's four names every protocol answers to (app_hook_find) */
static int hook_is_builtin(const char *n)
{
	return !strcmp(n, "request_started") || !strcmp(n, "request_complete") ||
	       !strcmp(n, "response_started") || !strcmp(n, "response_complete");
}

/* --list-app-layer-hooks: per protocol, each side framed by the generic
 * names (started ... complete) with the protocol's own states between, in
 * the order a transaction passes them, as Suricata 8 prints them; HTTP/1
 * is "http1" there, the name a firewall rule gives it. */
static void list_app_layer_hooks(void)
{
	static const struct { uint8_t dir; const char *first, *last; } sides[] = {
		{ APP_DIR_TOSERVER, "request_started", "request_complete" },
		{ APP_DIR_TOCLIENT, "response_started", "response_complete" },
	};

	printf("=========Supported App Layer Hooks=========\n");
	for (unsigned a = ALPROTO_UNKNOWN + 1; a < ALPROTO_FAILED; a++) {
		const char *name = app_proto_name((uint16_t)a);
		const AppHook *h;
		int n;

		if (strcmp(name, "unknown") == 0)
			continue;
		if (strcmp(name, "http") == 0)
			name = "http1";
		h = app_proto_hooks((uint16_t)a, &n);
		for (unsigned d = 0; d < 2; d++) {
			printf("%s:%s\n", name, sides[d].first);
			for (int i = 0; i < n; i++)
				if (h[i].dir == sides[d].dir && !hook_is_builtin(h[i].name))
					printf("%s:%s\n", name, h[i].name);
			printf("%s:%s\n", name, sides[d].last);
		}
	}
}

/* --include: in command-line order, after the main file (setup_config) */
static int add_include(Cli *cli, const char *path)
{
	const char **n = realloc(cli->includes, (cli->n_includes + 1) * sizeof(*n));

	if (!n)
		return -1;
	cli->includes = n;
	cli->includes[cli->n_includes++] = path;
	return 0;
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

int cli_parse(int argc, char **argv, Cli *cli)
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
		{ "firewall", no_argument, NULL, OPT_FIREWALL },
		{ "firewall-rules-exclusive", required_argument, NULL, OPT_FIREWALL_RULES_EXCLUSIVE },
		{ "pcap-file-continuous", no_argument, NULL, OPT_PCAP_FILE_CONTINUOUS },
		{ "pcap-file-delete", no_argument, NULL, OPT_PCAP_FILE_DELETE },
		{ "pcap-file-recursive", no_argument, NULL, OPT_PCAP_FILE_RECURSIVE },
		{ "no-random", no_argument, NULL, OPT_NO_RANDOM },
		{ "list-keywords", optional_argument, NULL, OPT_LIST_KEYWORDS },
		{ "engine-analysis", no_argument, NULL, OPT_ENGINE_ANALYSIS },
		{ "pcap", optional_argument, NULL, OPT_PCAP },
		{ "af-packet", optional_argument, NULL, OPT_AF_PACKET },
		{ "pidfile", required_argument, NULL, OPT_PIDFILE },
		{ "data-dir", required_argument, NULL, OPT_DATA_DIR },
		{ "user", required_argument, NULL, OPT_USER },
		{ "group", required_argument, NULL, OPT_GROUP },
		{ "list-app-layer-protos", no_argument, NULL, OPT_LIST_APP_LAYER_PROTOS },
		{ "list-app-layer-hooks", no_argument, NULL, OPT_LIST_APP_LAYER_HOOKS },
		{ "unix-socket", optional_argument, NULL, OPT_UNIX_SOCKET },
		{ "include", required_argument, NULL, OPT_INCLUDE },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	cli->live_kind = -1;
	/* no argument at all: the usage, as Suricata 8 prints it for a run
	 * with no run mode, rather than a complaint about a yaml the user
	 * never named */
	if (argc <= 1) {
		cli_usage(stdout, argv[0]);
		return 1;
	}
	while ((c = getopt_long(argc, argv, "c:r:i:q:F:DS:s:l:k:vTVh", longopts, NULL)) != -1) {
		switch (c) {
		case 'c': cli->conf_file = optarg; break;
		case 'r':
			/* -r takes one path (a file or a folder), as in Suricata 8,
			 * which refuses a second run mode rather than read one of
			 * two captures silently */
			if (cli->pcap_path) {
				log_error("more than one run mode has been specified: -r %s and -r %s "
					  "(-r takes one file or folder)", cli->pcap_path, optarg);
				return 1;
			}
			cli->pcap_path = optarg;
			break;
		case 'i':
		case 'q':
		case OPT_PCAP:
		case OPT_AF_PACKET:
		{
			int kind = c == OPT_PCAP ? CAPTURE_PCAP_LIVE :
				   c == 'q' ? CAPTURE_NFQ : CAPTURE_AF_PACKET;

			/* one source kind per run; a repeated option adds an
			 * interface (each gets its own capture threads) */
			if (cli->live_kind >= 0 && cli->live_kind != kind) {
				log_error("-i/--af-packet, --pcap and -q exclude each other");
				return 1;
			}
			cli->live_kind = kind;
			if (!optarg || !*optarg)
				break;
			if (strlen(optarg) >= 64) {
				log_error("interface name '%s' is too long", optarg);
				return 1;
			}
			if (cli->n_live_devs == CLI_LIVE_DEVS_MAX) {
				log_error("more than %d interfaces", CLI_LIVE_DEVS_MAX);
				return 1;
			}
			cli->live_devs[cli->n_live_devs++] = optarg;
			break;
		}
		case 'F': cli->bpf_file = optarg; break;
		case 'D': cli->daemon = 1; break;
		case OPT_PIDFILE: cli->pidfile = optarg; break;
		case OPT_DATA_DIR: cli->data_dir = optarg; break;
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
			cli_usage(stdout, argv[0]);
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
			list_app_layer_protos();
			return 0;
		case OPT_LIST_APP_LAYER_HOOKS:
			list_app_layer_hooks();
			return 0;
		case OPT_INIT_ERRORS_FATAL: cli->init_errors_fatal = 1; break;
		case OPT_UNIX_SOCKET:
			cli->unix_socket = 1;
			cli->unix_socket_file = optarg && *optarg ? optarg : NULL;
			break;
		case OPT_SIMULATE_IPS: cli->simulate_ips = 1; break;
		case OPT_FIREWALL: cli->firewall = 1; break;
		case OPT_FIREWALL_RULES_EXCLUSIVE:
			cli->firewall = 1;
			cli->fw_rules_exclusive = optarg;
			break;
		case OPT_LIST_KEYWORDS:
			return keywords_list_as(stdout, optarg);
		case OPT_INCLUDE:
			if (add_include(cli, optarg) != 0)
				return 1;
			break;
		case OPT_NO_RANDOM:
			/* Suricata's switch for reproducible runs: we use no randomness. */
			break;
		/* as in Suricata, the yaml's pcap-file keys, set over the file's
		 * (capture/capture.c reads them) */
		case OPT_PCAP_FILE_CONTINUOUS:
		case OPT_PCAP_FILE_DELETE:
		case OPT_PCAP_FILE_RECURSIVE:
			if (add_set(cli, c == OPT_PCAP_FILE_CONTINUOUS ? "pcap-file.continuous=true" :
					 c == OPT_PCAP_FILE_DELETE ? "pcap-file.delete-when-done=true" :
					 "pcap-file.recursive=true") != 0)
				return 1;
			break;
		default:
			cli_usage(stderr, argv[0]);
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

void cli_free(Cli *cli)
{
	free(cli->sets);
	free(cli->includes);
	free(cli->bpf);
	cli->sets = NULL;
	cli->includes = NULL;
	cli->bpf = NULL;
}

const char *cli_config_path(const Cli *cli)
{
	return cli->conf_file ? cli->conf_file : CONFIG_DIR "suricata.yaml";
}

/* kv ("a.b=v", "a.b.c=v") names key or a key below it. */
static int set_is_under(const char *kv, const char *key)
{
	size_t l = strlen(key);

	return !strncmp(kv, key, l) && (kv[l] == '=' || kv[l] == '.' || kv[l] == ' ');
}

static int set_wanted(const char *kv, const char *const *keys)
{
	if (!keys)
		return 1;
	for (int k = 0; keys[k]; k++)
		if (set_is_under(kv, keys[k]))
			return 1;
	return 0;
}

int cli_apply_sets(const Cli *cli, const char *const *keys)
{
	for (int i = 0; i < cli->n_sets; i++) {
		if (!set_wanted(cli->sets[i], keys))
			continue;
		/* at a reload the start-up already accepted each of them */
		if (conf_set_kv(cli->sets[i]) != 0 && !keys) {
			log_error("--set: cannot set '%s'", cli->sets[i]);
			return -1;
		}
	}
	return 0;
}
