#define _GNU_SOURCE /* pthread_getname_np: the thread_name of JSON lines */
#include "util/log.h"
#include "util/file-append.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <strings.h>
#include <pthread.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <syslog.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

static enum log_level log_level = LOG_LVL_NOTICE;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
/* suricata.log: each line one write(2) of a line we hold, so that a full
 * disk loses whole lines, never half of one (the next glued to it) */
static int log_fd = -1;
static int log_cut;                 /* the file ends inside a line */
static int log_failing;             /* a failed write was said (stderr) */
static uint64_t log_lost;           /* lines not written */
static enum log_level file_level = LOG_LVL_INFO;
static enum log_format file_format = LOG_FMT_PLAIN;
static enum log_format console_format = LOG_FMT_PLAIN;
static int syslog_on;
static enum log_level syslog_level = LOG_LVL_NOTICE;
static enum log_format syslog_format = LOG_FMT_PLAIN;
/* the plain line formats set by the config ("" : the output's default) */
static char line_formats[LOG_OUT_COUNT][LOG_FORMAT_MAX + 1];
static pcre2_code *out_filter;
static pcre2_match_data *out_filter_md;

static const char *const level_names[] = {
	[LOG_LVL_ERROR] = "Error",
	[LOG_LVL_WARNING] = "Warning",
	[LOG_LVL_NOTICE] = "Notice",
	[LOG_LVL_INFO] = "Info",
	[LOG_LVL_PERF] = "Perf",
	[LOG_LVL_CONFIG] = "Config",
	[LOG_LVL_DEBUG] = "Debug",
};

int log_level_by_name(const char *name)
{
	for (int i = 0; name && i < LOG_LVL_MAX; i++)
		if (strcasecmp(name, level_names[i]) == 0)
			return i;
	return -1;
}

void log_set_level(enum log_level lvl)
{
	log_level = lvl;
}

enum log_level log_get_level(void)
{
	return log_level;
}

void log_set_console_format(enum log_format fmt)
{
	console_format = fmt;
}

void log_set_file_style(enum log_level lvl, enum log_format fmt)
{
	file_level = lvl;
	file_format = fmt;
}

int log_set_line_format(enum log_output out, const char *fmt)
{
	if (fmt && strlen(fmt) > LOG_FORMAT_MAX)
		return -1;
	snprintf(line_formats[out], sizeof(line_formats[out]), "%s", fmt ? fmt : "");
	return 0;
}

const char *log_line_format(enum log_output out)
{
	if (line_formats[out][0])
		return line_formats[out];
	if (out == LOG_OUT_FILE)
		return "[%i - %m] %z %d: %S: %M";
	if (log_level >= LOG_LVL_DEBUG)
		return "%d: %S: %M [%n:%f:%l]";
	if (log_level >= LOG_LVL_CONFIG)
		return "[%i] %d: %S: %M";
	return "%d: %S: %M";
}

void log_set_syslog(int enabled, int facility, enum log_level lvl, enum log_format fmt)
{
	if (enabled && !syslog_on)
		openlog("suricata", LOG_NDELAY | LOG_PID, facility);
	else if (!enabled && syslog_on)
		closelog();
	syslog_on = enabled;
	syslog_level = lvl;
	syslog_format = fmt;
}

int log_set_output_filter(const char *regex, char *err, size_t errlen)
{
	pcre2_code *re = NULL;
	pcre2_match_data *md = NULL;

	if (regex && *regex) {
		int code;
		PCRE2_SIZE at;

		re = pcre2_compile((PCRE2_SPTR)regex, PCRE2_ZERO_TERMINATED, 0, &code, &at, NULL);
		if (!re) {
			PCRE2_UCHAR why[128];

			pcre2_get_error_message(code, why, sizeof(why));
			snprintf(err, errlen, "invalid regular expression at offset %zu: %s",
				 (size_t)at, (const char *)why);
			return -1;
		}
		md = pcre2_match_data_create_from_pattern(re, NULL);
		if (!md) {
			pcre2_code_free(re);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	pthread_mutex_lock(&log_lock);
	if (out_filter) {
		pcre2_match_data_free(out_filter_md);
		pcre2_code_free(out_filter);
	}
	out_filter = re;
	out_filter_md = md;
	pthread_mutex_unlock(&log_lock);
	return 0;
}

int log_open_file(const char *path)
{
	int cut, fd = file_append_open(path, 1, &cut);

	if (fd < 0)
		return -1;
	pthread_mutex_lock(&log_lock);
	if (log_fd >= 0)
		close(log_fd);
	log_fd = fd;
	log_cut = cut;
	pthread_mutex_unlock(&log_lock);
	return 0;
}

int log_chown_file(unsigned uid, unsigned gid)
{
	int rc = 0;

	pthread_mutex_lock(&log_lock);
	if (log_fd >= 0)
		rc = fchown(log_fd, (uid_t)uid, (gid_t)gid);
	pthread_mutex_unlock(&log_lock);
	return rc;
}

void log_close_file(void)
{
	pthread_mutex_lock(&log_lock);
	if (log_fd >= 0)
		close(log_fd);
	log_fd = -1;
	pthread_mutex_unlock(&log_lock);
}

uint64_t log_file_lost(void)
{
	uint64_t n;

	pthread_mutex_lock(&log_lock);
	n = log_lost;
	pthread_mutex_unlock(&log_lock);
	return n;
}

/* One line (ending with '\n') to suricata.log, whole or not at all; the
 * first failure of an outage said on stderr, where it can be read. */
static void file_put_line(char *line, size_t len)
{
	ssize_t n;

	if (log_cut) {
		/* a line a killed run cut, or a short write we could not take
		 * back: ended first */
		if (write(log_fd, "\n", 1) == 1)
			log_cut = 0;
	}
	do
		n = log_cut ? -1 : write(log_fd, line, len);
	while (n < 0 && errno == EINTR);
	if (n == (ssize_t)len) {
		log_failing = 0;
		return;
	}
	if (n > 0) {
		off_t end = lseek(log_fd, 0, SEEK_CUR);

		if (end < n || ftruncate(log_fd, end - n) != 0)
			log_cut = 1;
	}
	log_lost++;
	if (!log_failing) {
		log_failing = 1;
		fprintf(stderr, "Error: log: cannot write suricata.log: %s; its lines are lost "
			"until it can (said once)\n", n < 0 ? strerror(errno) : "short write");
	}
}

/* A timestamp in eve's form, 2026-12-06T15:49:51.123456+0000. */
static void json_time(char *out, size_t len)
{
	struct timeval tv;
	struct tm tm;
	char day[32], zone[8];

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(day, sizeof(day), "%Y-%m-%dT%H:%M:%S", &tm);
	strftime(zone, sizeof(zone), "%z", &tm);
	snprintf(out, len, "%s.%06ld%s", day, (long)tv.tv_usec, zone);
}

/* s as a JSON string body into out (cut, never mid-escape, at len - 1). */
static size_t json_escape(char *out, size_t len, const char *s)
{
	size_t o = 0;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[8];
		size_t k;

		if (c == '"' || c == '\\')
			k = (size_t)snprintf(esc, sizeof(esc), "\\%c", c);
		else if (c == '\n')
			k = (size_t)snprintf(esc, sizeof(esc), "\\n");
		else if (c == '\t')
			k = (size_t)snprintf(esc, sizeof(esc), "\\t");
		else if (c < 0x20 || c == 0x7f)
			k = (size_t)snprintf(esc, sizeof(esc), "\\u%04x", c);
		else {
			esc[0] = (char)c;
			k = 1;
		}
		if (o + k >= len)
			break;
		memcpy(out + o, esc, k);
		o += k;
	}
	out[o] = '\0';
	return o;
}

static const char level_letters[LOG_LVL_MAX] = {
	[LOG_LVL_ERROR] = 'E', [LOG_LVL_WARNING] = 'W', [LOG_LVL_NOTICE] = 'i',
	[LOG_LVL_INFO] = 'i',  [LOG_LVL_PERF] = 'i',    [LOG_LVL_CONFIG] = 'i',
	[LOG_LVL_DEBUG] = 'd',
};

/* appends s (n bytes) to out at *o, cut at len - 1 */
static void put(char *out, size_t len, size_t *o, const char *s, size_t n)
{
	if (*o + n > len - 1)
		n = len - 1 - *o;
	memcpy(out + *o, s, n);
	*o += n;
}

size_t log_render(char *out, size_t len, const char *fmt, const LogRecord *r)
{
	size_t o = 0;
	int said_msg = 0;

	if (len == 0)
		return 0;
	for (const char *p = fmt; *p; p++) {
		char tmp[64];
		const char *s = tmp;
		struct tm tm;
		time_t t = (time_t)r->sec;
		int n = -1;

		if (*p != '%' || !p[1]) {
			put(out, len, &o, p, 1);
			continue;
		}
		switch (*++p) {
		case 't':
			localtime_r(&t, &tm);
			n = snprintf(tmp, sizeof(tmp), "%d/%d/%04d -- %02d:%02d:%02d", tm.tm_mday,
				     tm.tm_mon + 1, tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
			break;
		case 'z':
			localtime_r(&t, &tm);
			n = (int)strftime(tmp, sizeof(tmp), "%Y-%m-%d %H:%M:%S", &tm);
			break;
		case 'p':
			n = snprintf(tmp, sizeof(tmp), "%ld", (long)getpid());
			break;
		case 'i':
			n = snprintf(tmp, sizeof(tmp), "%lu", r->tid);
			break;
		case 'm':
		case 'T':
			s = r->thread ? r->thread : "";
			break;
		case 'd':
			s = level_names[r->level];
			break;
		case 'D':
			tmp[0] = level_letters[r->level];
			n = 1;
			break;
		case 'S':
			s = r->subsystem ? r->subsystem : "suricata";
			break;
		case 'M':
			s = r->message;
			said_msg = 1;
			break;
		case 'f':
			s = r->file ? r->file : "";
			break;
		case 'l':
			n = snprintf(tmp, sizeof(tmp), "%d", r->line);
			break;
		case 'n':
			s = r->func ? r->func : "";
			break;
		case '%':
			s = "%";
			break;
		default:
			/* not a code: both characters, as written */
			put(out, len, &o, p - 1, 2);
			continue;
		}
		put(out, len, &o, s, n >= 0 ? (size_t)n : strlen(s));
	}
	/* Suricata adds the message to a format that leaves it out */
	if (!said_msg)
		put(out, len, &o, r->message, strlen(r->message));
	out[o] = '\0';
	return o;
}

/* One JSON line, '\n' included: Suricata's {"timestamp", "log_level",
 * "event_type": "engine", "engine": {"message", "thread_name", "module"}};
 * its length (never over len - 1). */
static size_t json_line(char *line, size_t len, const LogRecord *r)
{
	char ts[64];
	int n;
	size_t o;

	json_time(ts, sizeof(ts));
	n = snprintf(line, len, "{\"timestamp\":\"%s\",\"log_level\":\"%s\","
		     "\"event_type\":\"engine\",\"engine\":{\"thread_name\":\"%s\","
		     "\"module\":\"%s\",\"message\":\"", ts, level_names[r->level],
		     r->thread ? r->thread : "", r->subsystem ? r->subsystem : "suricata");
	/* a message too long for the line is cut inside the string (never
	 * inside an escape), so that the line stays one JSON object */
	if (n < 0 || (size_t)n + 5 >= len)
		o = 0;
	else
		o = (size_t)n + json_escape(line + n, len - (size_t)n - 4, r->message);
	memcpy(line + o, "\"}}\n", 4);
	return o + 4;
}

/* One line of an output, '\n' included, or 0 when the output filter
 * drops it. */
static size_t output_line(char *line, size_t len, enum log_output out, enum log_format type,
			  const LogRecord *r)
{
	size_t n;

	if (type == LOG_FMT_JSON)
		n = json_line(line, len, r);
	else {
		n = log_render(line, len - 1, log_line_format(out), r);
		line[n++] = '\n';
	}
	if (out_filter && pcre2_match(out_filter, (PCRE2_SPTR)line, n - 1, 0, 0, out_filter_md,
				      NULL) < 0)
		return 0;
	return n;
}

/* "name: rest" with name in [a-z0-9_-] (a letter first): the message names
 * its subsystem (log.h); *len gets the name's length. */
static int leading_subsystem(const char *msg, size_t *len)
{
	size_t i = 0;

	if (!(msg[0] >= 'a' && msg[0] <= 'z'))
		return 0;
	while ((msg[i] >= 'a' && msg[i] <= 'z') || (msg[i] >= '0' && msg[i] <= '9') ||
	       msg[i] == '-' || msg[i] == '_')
		i++;
	if (i > 31 || msg[i] != ':' || msg[i + 1] != ' ' || !msg[i + 2])
		return 0;
	*len = i;
	return 1;
}

/* The subsystem of a source file: its folder below src/, "suricata" for
 * main, and the file's own name in util/ (log.h). */
static void file_subsystem(const char *file, char *out, size_t len)
{
	const char *base, *dir, *end;
	size_t n;

	snprintf(out, len, "suricata");
	if (!file)
		return;
	base = strrchr(file, '/');
	if (!base)
		return;
	end = base++;
	dir = end;
	while (dir > file && dir[-1] != '/')
		dir--;
	n = (size_t)(end - dir);
	if ((n == 4 && !strncmp(dir, "main", 4)) || (n == 3 && !strncmp(dir, "src", 3)))
		return;
	if (n == 4 && !strncmp(dir, "util", 4)) {
		const char *dot = strrchr(base, '.');

		n = dot ? (size_t)(dot - base) : strlen(base);
		dir = base;
	}
	if (n >= len)
		n = len - 1;
	memcpy(out, dir, n);
	out[n] = '\0';
}

/* The thread's name as Suricata gives it: the main thread is
 * "Suricata-Main" (ours keeps the process name for ps and pidof). */
static void thread_name(char *buf, size_t len, unsigned long tid)
{
	if (tid == (unsigned long)getpid()) {
		snprintf(buf, len, "Suricata-Main");
		return;
	}
	if (pthread_getname_np(pthread_self(), buf, len) != 0)
		buf[0] = '\0';
}

static void log_vmsg(enum log_level lvl, const char *file, int line, const char *func,
		     const char *fmt, va_list ap)
{
	int to_console = lvl <= log_level;
	int to_file = log_fd >= 0 && lvl <= file_level;
	int to_syslog = syslog_on && lvl <= syslog_level;
	char msg[4096], sub[32], thread[16], text[3 * 4096 + 512];
	struct timeval tv;
	LogRecord r;
	size_t k, n;

	if (!to_console && !to_file && !to_syslog)
		return;
	if (vsnprintf(msg, sizeof(msg), fmt, ap) < 0)
		msg[0] = '\0';
	gettimeofday(&tv, NULL);
	r.level = lvl;
	r.message = msg;
	if (leading_subsystem(msg, &k)) {
		memcpy(sub, msg, k);
		sub[k] = '\0';
		r.message = msg + k + 2;
	} else {
		file_subsystem(file, sub, sizeof(sub));
	}
	r.subsystem = sub;
	r.file = file;
	r.line = line;
	r.func = func;
	r.tid = (unsigned long)syscall(SYS_gettid);
	thread_name(thread, sizeof(thread), r.tid);
	r.thread = thread;
	r.sec = (long)tv.tv_sec;
	r.usec = (long)tv.tv_usec;
	/* One lock so that lines of different threads never interleave. */
	pthread_mutex_lock(&log_lock);
	if (to_console && (n = output_line(text, sizeof(text), LOG_OUT_CONSOLE, console_format,
					   &r)) > 0) {
		/* Suricata's console sends Error lines to stderr and every other
		 * level to stdout; scripts (suricata-verify's among them) grep
		 * notices and warnings from stdout. Flushed per line so that a
		 * redirected stdout keeps its order against stderr and survives
		 * an abort. */
		FILE *out = lvl == LOG_LVL_ERROR ? stderr : stdout;

		fwrite(text, 1, n, out);
		if (out == stdout)
			fflush(stdout);
	}
	if (to_file && log_fd >= 0 &&
	    (n = output_line(text, sizeof(text), LOG_OUT_FILE, file_format, &r)) > 0)
		file_put_line(text, n);
	if (to_syslog && (n = output_line(text, sizeof(text), LOG_OUT_SYSLOG, syslog_format,
					  &r)) > 0) {
		static const int prio[LOG_LVL_MAX] = {
			[LOG_LVL_ERROR] = LOG_ERR,     [LOG_LVL_WARNING] = LOG_WARNING,
			[LOG_LVL_NOTICE] = LOG_NOTICE, [LOG_LVL_INFO] = LOG_INFO,
			[LOG_LVL_PERF] = LOG_DEBUG,    [LOG_LVL_CONFIG] = LOG_DEBUG,
			[LOG_LVL_DEBUG] = LOG_DEBUG,
		};

		text[n - 1] = '\0';
		syslog(prio[lvl], "%s", text);
	}
	pthread_mutex_unlock(&log_lock);
}

void log_msg_at(enum log_level lvl, const char *file, int line, const char *func,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vmsg(lvl, file, line, func, fmt, ap);
	va_end(ap);
}

void log_msg(enum log_level lvl, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vmsg(lvl, NULL, 0, NULL, fmt, ap);
	va_end(ap);
}
