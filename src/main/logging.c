/* The engine's own messages (logging.h). */
#include "main/logging.h"
#include "conf/conf.h"
#include "util/log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int log_levels_set(const Cli *cli, int have_config)
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
