/* The command line: what the user asked for, parsed once into a Cli that the
 * start-up steps read. The commands that only print (-h, -V, --build-info,
 * --list-*) run inside cli_parse, before any configuration is loaded, as in
 * Suricata: they work without a suricata.yaml. */
#ifndef MAIN_CLI_H
#define MAIN_CLI_H

#include <stdio.h>

#define SURICATA_VERSION "8.0.7"
#define ENGINE_SUFFIX "suricata-gpu"

/* Interfaces one run captures on at most (-i a -i b ...). */
#define CLI_LIVE_DEVS_MAX 16

typedef struct Cli {
	const char *conf_file;
	const char *pcap_path;
	/* live capture: -i dev (the best method: AF_PACKET), --pcap[=dev],
	 * --af-packet[=dev], -q queue[:last] (nfq), each repeatable with the
	 * same kind for several interfaces; live_kind -1 when none was asked */
	int live_kind;
	const char *live_devs[CLI_LIVE_DEVS_MAX];
	unsigned n_live_devs;          /* 0: every interface of the yaml section */
	const char *bpf_file;          /* -F */
	char *bpf;                     /* trailing words, or -F's content; owned */
	int daemon;                    /* -D */
	const char *data_dir;          /* --data-dir: datasets' save/state files */
	const char *pidfile;           /* --pidfile (or yaml pid-file with -D) */
	const char *user, *group;      /* --user, --group (or yaml run-as) */
	const char *rules_exclusive;   /* -S */
	const char *rules_extra;       /* -s */
	int firewall;                  /* --firewall (or firewall.enabled) */
	const char *fw_rules_exclusive; /* --firewall-rules-exclusive: implies --firewall */
	const char *log_dir;
	const char *checksum;          /* -k */
	const char *runmode;
	const char **sets;
	int n_sets;
	/* --include files: loaded over the main file in their order, as if
	 * they were included at its end (Suricata 8), before the --set values */
	const char **includes;
	int n_includes;
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

/* Parses argv into cli (zeroed by the caller). Returns -1 to go on with the
 * run, or the exit code of a command that is done (-V, --build-info, ...)
 * or of a bad option (logged). */
int cli_parse(int argc, char **argv, Cli *cli);
void cli_usage(FILE *out, const char *prog);
void cli_free(Cli *cli);

/* -c, or the built-in path. */
const char *cli_config_path(const Cli *cli);
/* The --set values over the loaded tree, in command-line order. keys NULL:
 * all of them (start-up; a failure is logged and returns -1); else only
 * those under one of the NULL-ended keys (a rule reload re-applies them
 * over the re-read file, so that the command line keeps winning). */
int cli_apply_sets(const Cli *cli, const char *const *keys);

#endif
