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

void log_msg(enum log_level lvl, const char *fmt, ...)
{
	va_list ap;
	int to_console = lvl <= log_level;
	int to_file = log_fd >= 0 && lvl <= LOG_LVL_INFO;

	if (!to_console && !to_file)
		return;
	/* One lock so that lines of different threads never interleave. */
	pthread_mutex_lock(&log_lock);
	if (to_console) {
		/* Suricata's console sends Error lines to stderr and every other
		 * level to stdout; scripts (suricata-verify's among them) grep
		 * notices and warnings from stdout. Flushed per line so that a
		 * redirected stdout keeps its order against stderr and survives
		 * an abort. */
		FILE *out = lvl == LOG_LVL_ERROR ? stderr : stdout;

		fprintf(out, "%s: ", level_names[lvl]);
		va_start(ap, fmt);
		vfprintf(out, fmt, ap);
		va_end(ap);
		fputc('\n', out);
		if (out == stdout)
			fflush(stdout);
	}
	if (to_file && log_fd >= 0) {
		struct timeval tv;
		struct tm tm;
		char ts[32], line[4096];
		int n, k;

		gettimeofday(&tv, NULL);
		localtime_r(&tv.tv_sec, &tm);
		strftime(ts, sizeof(ts), "%d/%m/%Y -- %H:%M:%S", &tm);
		n = snprintf(line, sizeof(line), "[%s] - <%s> -- ", ts, level_names[lvl]);
		va_start(ap, fmt);
		k = vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
		va_end(ap);
		/* a longer message is cut to the buffer: the line stays one line */
		if (k < 0)
			k = 0;
		if ((size_t)(n + k) > sizeof(line) - 2)
			k = (int)sizeof(line) - 2 - n;
		line[n + k] = '\n';
		file_put_line(line, (size_t)(n + k + 1));
	}
	pthread_mutex_unlock(&log_lock);
}
