/* The engine's own messages (logging.h). */
#include "main/logging.h"
#include "conf/conf.h"
#include "util/log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <syslog.h>

static int format_by_name(const char *type);

/* -v's floor, raised over every output's level as Suricata does */
static int verbose_floor = LOG_LVL_NOTICE;

/* The first logging.outputs item named name (console, file, syslog). */
static ConfNode *output_node(const char *name)
{
	ConfNode *outs = conf_get_node("logging.outputs");

	for (ConfNode *n = outs ? outs->child : NULL; n; n = n->next) {
		ConfNode *o = conf_node_lookup(n, name);

		if (o)
			return o;
	}
	return NULL;
}

/* A level by name, or -1 logged naming key. */
static int level_of(const char *key, const char *v)
{
	int lvl = log_level_by_name(v);

	if (lvl < 0)
		log_error("%s: invalid level '%s' (error, warning, notice, info, perf, config or "
			  "debug)", key, v);
	return lvl;
}

/* The line format of one output: its format key, else (console and
 * syslog, as Suricata) default-log-format; SC_LOG_FORMAT overrides the
 * console's. 0, or -1 logged. */
static int line_format_conf(enum log_output out, ConfNode *o, const char *key)
{
	const char *fmt = o ? conf_node_get(o, "format") : NULL;

	if (!fmt && out != LOG_OUT_FILE)
		fmt = conf_get("logging.default-log-format");
	if (out == LOG_OUT_CONSOLE && getenv("SC_LOG_FORMAT") && *getenv("SC_LOG_FORMAT"))
		fmt = getenv("SC_LOG_FORMAT");
	if (fmt && !*fmt)
		fmt = NULL;
	if (log_set_line_format(out, fmt) != 0) {
		log_error("%s: the format is longer than %d characters", key, LOG_FORMAT_MAX);
		return -1;
	}
	return 0;
}

/* logging.outputs.syslog: facility, level, format, type. 0, or -1 logged. */
static int syslog_conf(int lvl)
{
	static const struct {
		const char *name;
		int value;
	} facilities[] = {
		{ "auth", LOG_AUTH }, { "authpriv", LOG_AUTHPRIV }, { "cron", LOG_CRON },
		{ "daemon", LOG_DAEMON }, { "ftp", LOG_FTP }, { "kern", LOG_KERN },
		{ "lpr", LOG_LPR }, { "mail", LOG_MAIL }, { "news", LOG_NEWS },
		{ "security", LOG_AUTH }, { "syslog", LOG_SYSLOG }, { "user", LOG_USER },
		{ "uucp", LOG_UUCP }, { "local0", LOG_LOCAL0 }, { "local1", LOG_LOCAL1 },
		{ "local2", LOG_LOCAL2 }, { "local3", LOG_LOCAL3 }, { "local4", LOG_LOCAL4 },
		{ "local5", LOG_LOCAL5 }, { "local6", LOG_LOCAL6 }, { "local7", LOG_LOCAL7 },
	};
	ConfNode *o = output_node("syslog");
	const char *en, *fac, *level;
	int facility = LOG_LOCAL0, fmt;

	if (!o)
		return 0;
	en = conf_node_get(o, "enabled");
	/* Suricata: an output is on unless it says otherwise */
	if (en && (!strcasecmp(en, "no") || !strcasecmp(en, "false") || !strcasecmp(en, "off") ||
		   !strcmp(en, "0"))) {
		log_set_syslog(0, LOG_LOCAL0, LOG_LVL_NOTICE, LOG_FMT_PLAIN);
		return 0;
	}
	fac = conf_node_get(o, "facility");
	if (fac) {
		size_t i = 0;

		while (i < sizeof(facilities) / sizeof(facilities[0]) &&
		       strcasecmp(facilities[i].name, fac))
			i++;
		if (i < sizeof(facilities) / sizeof(facilities[0]))
			facility = facilities[i].value;
		else
			log_warning("logging.outputs.syslog.facility: invalid syslog facility \"%s\", "
				    "now using \"local0\"", fac);
	}
	level = conf_node_get(o, "level");
	if (level && (lvl = level_of("logging.outputs.syslog.level", level)) < 0)
		return -1;
	if ((fmt = format_by_name(conf_node_get(o, "type"))) < 0)
		fmt = LOG_FMT_PLAIN;
	if (line_format_conf(LOG_OUT_SYSLOG, o, "logging.outputs.syslog.format") != 0)
		return -1;
	log_set_syslog(1, facility, (enum log_level)(lvl > verbose_floor ? lvl : verbose_floor),
		       (enum log_format)fmt);
	return 0;
}

int log_levels_set(const Cli *cli, int have_config)
{
	const char *env = getenv("SC_LOG_LEVEL"), *yl = have_config ? conf_get("logging.default-log-level") : NULL;
	int lvl = LOG_LVL_NOTICE, global;
	ConfNode *console = have_config ? output_node("console") : NULL;
	const char *cl = console ? conf_node_get(console, "level") : NULL;

	if (yl && *yl && (lvl = level_of("logging.default-log-level", yl)) < 0)
		return -1;
	global = lvl;
	if (cl && *cl && (lvl = level_of("logging.outputs.console.level", cl)) < 0)
		return -1;
	if (env && *env && (lvl = level_of("SC_LOG_LEVEL", env)) < 0)
		return -1;
	verbose_floor = LOG_LVL_NOTICE + (cli->verbose > 4 ? 4 : cli->verbose);
	if (cli->verbose && verbose_floor > lvl)
		lvl = verbose_floor;
	if (!cli->verbose)
		verbose_floor = LOG_LVL_ERROR;
	log_set_level((enum log_level)lvl);
	if (!have_config)
		return 0;
	if (line_format_conf(LOG_OUT_CONSOLE, console, "logging.outputs.console.format") != 0)
		return -1;
	{
		const char *filter = getenv("SC_LOG_OP_FILTER");
		char err[256];

		if (!filter)
			filter = conf_get("logging.default-output-filter");
		if (log_set_output_filter(filter, err, sizeof(err)) != 0) {
			log_error("logging.default-output-filter: %s", err);
			return -1;
		}
	}
	return syslog_conf(global);
}

int log_dir_check(const Cli *cli, const char **out)
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
	/* and, as Suricata's -l, it becomes default-log-dir for whatever reads
	 * the setting later (Lua's config.log_path()) */
	if (cli->log_dir && conf_set("default-log-dir", cli->log_dir) != 0)
		return -1;
	conf_mark_used("default-log-dir");
	*out = dir;
	return 0;
}

/* type: json or regular (Suricata's plain text; its default); -1 otherwise. */
static int format_by_name(const char *type)
{
	if (!type || !strcmp(type, "regular") || !strcmp(type, "plain"))
		return LOG_FMT_PLAIN;
	if (!strcmp(type, "json"))
		return LOG_FMT_JSON;
	return -1;
}

/* logging.outputs.N.console.type. */
static void console_conf(ConfNode *outs)
{
	for (ConfNode *n = outs ? outs->child : NULL; n; n = n->next) {
		ConfNode *c = conf_node_lookup(n, "console");
		const char *type;
		int fmt;

		if (!c)
			continue;
		type = conf_node_get(c, "type");
		if ((fmt = format_by_name(type)) < 0)
			log_warning("logging.outputs.console.type: '%s' is neither regular nor json; "
				    "regular used", type);
		else
			log_set_console_format((enum log_format)fmt);
		return;
	}
}

int log_file_conf(const char *log_dir, char *path, size_t pathlen)
{
	ConfNode *outs = conf_get_node("logging.outputs");

	console_conf(outs);
	for (ConfNode *n = outs ? outs->child : NULL; n; n = n->next) {
		ConfNode *f = conf_node_lookup(n, "file");
		const char *name, *en, *level, *type;
		int lvl = LOG_LVL_INFO, fmt;

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
		level = conf_node_get(f, "level");
		if (level && (lvl = log_level_by_name(level)) < 0) {
			log_warning("logging.outputs.file.level: invalid level '%s'; info used", level);
			lvl = LOG_LVL_INFO;
		}
		if (lvl < verbose_floor)
			lvl = verbose_floor;
		if (line_format_conf(LOG_OUT_FILE, f, "logging.outputs.file.format") != 0)
			log_set_line_format(LOG_OUT_FILE, NULL);
		type = conf_node_get(f, "type");
		if ((fmt = format_by_name(type)) < 0) {
			log_warning("logging.outputs.file.type: '%s' is neither regular nor json; "
				    "regular used", type);
			fmt = LOG_FMT_PLAIN;
		}
		log_set_file_style((enum log_level)lvl, (enum log_format)fmt);
		return 1;
	}
	return 0;
}

void log_file_start(const char *log_dir, char *path, size_t pathlen)
{
	char want[4096];

	path[0] = '\0';
	if (!log_file_conf(log_dir, want, sizeof(want)))
		return;
	if (log_open_file(want) != 0)
		log_warning("logging: cannot open %s: %s", want, strerror(errno));
	else
		snprintf(path, pathlen, "%s", want);
}
