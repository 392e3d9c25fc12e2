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

/* One line, '\n' included, in fmt; its length (never over len - 1). */
static size_t format_line(char *line, size_t len, enum log_format fmt, enum log_level lvl,
			  const char *msg)
{
	int n;

	if (fmt == LOG_FMT_JSON) {
		char ts[64], thread[16] = "";

		json_time(ts, sizeof(ts));
		if (pthread_getname_np(pthread_self(), thread, sizeof(thread)) != 0)
			thread[0] = '\0';
		n = snprintf(line, len, "{\"timestamp\":\"%s\",\"log_level\":\"%s\","
			     "\"event_type\":\"engine\",\"engine\":{\"thread_name\":\"%s\","
			     "\"message\":\"", ts, level_names[lvl], thread);
		/* a message too long for the line is cut inside the string (never
		 * inside an escape), so that the line stays one JSON object */
		if (n < 0 || (size_t)n + 5 >= len)
			n = 0;
		else
			n += (int)json_escape(line + n, len - (size_t)n - 4, msg);
		memcpy(line + n, "\"}}\n", 4);
		return (size_t)n + 4;
	}
	{
		struct timeval tv;
		struct tm tm;
		char ts[32];
		size_t k = strlen(msg);

		gettimeofday(&tv, NULL);
		localtime_r(&tv.tv_sec, &tm);
		strftime(ts, sizeof(ts), "%d/%m/%Y -- %H:%M:%S", &tm);
		n = snprintf(line, len, "[%s] - <%s> -- ", ts, level_names[lvl]);
		if (n < 0)
			n = 0;
		/* a longer message is cut to the buffer: the line stays one line */
		if ((size_t)n + k > len - 2)
			k = len - 2 - (size_t)n;
		memcpy(line + n, msg, k);
		line[(size_t)n + k] = '\n';
		return (size_t)n + k + 1;
	}
}

void log_msg(enum log_level lvl, const char *fmt, ...)
{
	va_list ap;
	int to_console = lvl <= log_level;
	int to_file = log_fd >= 0 && lvl <= file_level;
	char msg[4096];

	if (!to_console && !to_file)
		return;
	va_start(ap, fmt);
	if (vsnprintf(msg, sizeof(msg), fmt, ap) < 0)
		msg[0] = '\0';
	va_end(ap);
	/* One lock so that lines of different threads never interleave. */
	pthread_mutex_lock(&log_lock);
	if (to_console) {
		/* Suricata's console sends Error lines to stderr and every other
		 * level to stdout; scripts (suricata-verify's among them) grep
		 * notices and warnings from stdout. Flushed per line so that a
		 * redirected stdout keeps its order against stderr and survives
		 * an abort. */
		FILE *out = lvl == LOG_LVL_ERROR ? stderr : stdout;

		if (console_format == LOG_FMT_JSON) {
			char line[3 * 4096 + 256];
			size_t n = format_line(line, sizeof(line), LOG_FMT_JSON, lvl, msg);

			fwrite(line, 1, n, out);
		} else {
			fprintf(out, "%s: %s\n", level_names[lvl], msg);
		}
		if (out == stdout)
			fflush(stdout);
	}
	if (to_file && log_fd >= 0) {
		char line[3 * 4096 + 256];
		size_t n = format_line(line, sizeof(line), file_format, lvl, msg);

		file_put_line(line, n);
	}
	pthread_mutex_unlock(&log_lock);
}
