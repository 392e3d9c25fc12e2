/* One-line diagnostics on the console, in Suricata's spirit (Error lines on
 * stderr, the other levels on stdout):
 *   "Error: <subsystem>: message"   (log_error)
 * Never called on the packet path. */
#ifndef UTIL_LOG_H
#define UTIL_LOG_H

#include <stdarg.h>
#include <stdint.h>

/* Suricata's levels, in its order: -v is info, -vv perf, -vvv config,
 * -vvvv debug. */
enum log_level {
	LOG_LVL_ERROR = 0,
	LOG_LVL_WARNING,
	LOG_LVL_NOTICE,
	LOG_LVL_INFO,
	LOG_LVL_PERF,
	LOG_LVL_CONFIG,
	LOG_LVL_DEBUG,
	LOG_LVL_MAX
};

/* Messages above this level are not printed; -v raises it. Default: NOTICE. */
void log_set_level(enum log_level lvl);
enum log_level log_get_level(void);
/* A level by Suricata's name ("error", "warning", "notice", "info", "perf",
 * "config", "debug"; any case); -1 when it is none of them. */
int log_level_by_name(const char *name);

/* How a line is written: Suricata's plain text, or one JSON object a line
 * (logging.outputs.*.type: json), {"timestamp", "log_level", "event_type":
 * "engine", "engine": {"thread_name", "message"}}, which jq and the eve
 * tools read like an eve record. */
enum log_format {
	LOG_FMT_PLAIN = 0,
	LOG_FMT_JSON,
};

/* The console's format (default plain). */
void log_set_console_format(enum log_format fmt);
/* suricata.log's level (default INFO) and format (default plain); set
 * before log_open_file, kept over a reopen. */
void log_set_file_style(enum log_level lvl, enum log_format fmt);

/* Also writes every message up to the file's level, timestamped, into path
 * (suricata.log). 0, or -1 with errno. */
int log_open_file(const char *path);
void log_close_file(void);
/* Lines suricata.log could not take (a full disk): the first failure is
 * said once on stderr; the exit code counts them (main.c). */
uint64_t log_file_lost(void);
/* run-as: the open log file given to uid/gid (fchown), so that the
 * dropped user can open it again on SIGHUP. 0 (also with no file), or -1
 * with errno. */
int log_chown_file(unsigned uid, unsigned gid);

void log_msg(enum log_level lvl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define log_error(...)   log_msg(LOG_LVL_ERROR, __VA_ARGS__)
#define log_warning(...) log_msg(LOG_LVL_WARNING, __VA_ARGS__)
#define log_notice(...)  log_msg(LOG_LVL_NOTICE, __VA_ARGS__)
#define log_info(...)    log_msg(LOG_LVL_INFO, __VA_ARGS__)
#define log_debug(...)   log_msg(LOG_LVL_DEBUG, __VA_ARGS__)

#endif
