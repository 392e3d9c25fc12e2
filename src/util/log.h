/* The engine's own messages, as Suricata 8 writes them: each output (the
 * console, suricata.log, syslog) has a level, a type (plain or json) and,
 * plain, a line format of Suricata's % codes (log_render). The console
 * sends Error lines to stderr and the other levels to stdout.
 *
 * A message's subsystem (%S, json "module") is its first word when the
 * message starts with "name: " (lowercase letters, digits, '-', '_'):
 * log_error("flow: ...") is subsystem "flow", message "..."; a message
 * without one takes its source folder's name (src/detect/x.c: "detect";
 * src/main*: "suricata", as Suricata's main module; src/util/x.c: "x").
 * Never called on the packet path. */
#ifndef UTIL_LOG_H
#define UTIL_LOG_H

#include <stdarg.h>
#include <stddef.h>
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

/* The outputs a line format belongs to. */
enum log_output {
	LOG_OUT_CONSOLE = 0,
	LOG_OUT_FILE,
	LOG_OUT_SYSLOG,
	LOG_OUT_COUNT
};

/* The plain line format of an output (logging.outputs.X.format, or
 * default-log-format for the console and syslog); NULL: its default.
 * Defaults, as Suricata 8: suricata.log "[%i - %m] %z %d: %S: %M"; the
 * console by level: "%d: %S: %M" up to perf, "[%i] %d: %S: %M" at config,
 * "%d: %S: %M [%n:%f:%l]" at debug (the full level name, as Suricata's
 * development builds print it, that suricata-verify's expectations grep:
 * "Warning: <subsystem>: ..."). -1 when longer than LOG_FORMAT_MAX. */
#define LOG_FORMAT_MAX 256
int log_set_line_format(enum log_output out, const char *fmt);
/* The format the output uses now (its own, or its default). */
const char *log_line_format(enum log_output out);

/* logging.outputs.syslog: enabled with its facility (LOG_LOCAL5, ...),
 * level and type; openlog() is called here. */
void log_set_syslog(int enabled, int facility, enum log_level lvl, enum log_format fmt);

/* logging.default-output-filter: only lines (as rendered) matching this
 * regular expression are written, on every output; NULL or "" clears it.
 * 0, or -1 with the reason in err. */
int log_set_output_filter(const char *regex, char *err, size_t errlen);

/* One message as log_render sees it. */
typedef struct LogRecord {
	enum log_level level;
	const char *subsystem;   /* %S */
	const char *message;     /* %M */
	const char *file;        /* %f, or NULL */
	int line;                /* %l */
	const char *func;        /* %n, or NULL */
	const char *thread;      /* %m and %T */
	unsigned long tid;       /* %i */
	long sec, usec;          /* when it was said (wall clock) */
} LogRecord;

/* r in Suricata's format codes: %t time (7/12/2026 -- 11:38:13), %z time
 * (2026-12-07 11:38:13), %p pid, %i thread id, %m and %T thread name, %d
 * level (Notice), %D its letter (E, W, i, d), %S subsystem, %M message, %f
 * file, %l line, %n function, %% a '%'; other characters as they are. A
 * format without %M gets it at its end. The line ('\n' not included) is
 * cut to len - 1; its length is returned. */
size_t log_render(char *out, size_t len, const char *fmt, const LogRecord *r);

void log_msg_at(enum log_level lvl, const char *file, int line, const char *func,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The same, said from nowhere in particular (Lua scripts): the subsystem
 * is the message's first word, or "suricata". */
void log_msg(enum log_level lvl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define log_error(...)   log_msg_at(LOG_LVL_ERROR, __FILE__, __LINE__, __func__, __VA_ARGS__)
#define log_warning(...) log_msg_at(LOG_LVL_WARNING, __FILE__, __LINE__, __func__, __VA_ARGS__)
#define log_notice(...)  log_msg_at(LOG_LVL_NOTICE, __FILE__, __LINE__, __func__, __VA_ARGS__)
#define log_info(...)    log_msg_at(LOG_LVL_INFO, __FILE__, __LINE__, __func__, __VA_ARGS__)
#define log_debug(...)   log_msg_at(LOG_LVL_DEBUG, __FILE__, __LINE__, __func__, __VA_ARGS__)

#endif
