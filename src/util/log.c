#include "util/log.h"

#include <stdio.h>
#include <strings.h>
#include <pthread.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static enum log_level log_level = LOG_LVL_NOTICE;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *log_file;

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
	FILE *f = fopen(path, "a");

	if (!f)
		return -1;
	pthread_mutex_lock(&log_lock);
	if (log_file)
		fclose(log_file);
	log_file = f;
	pthread_mutex_unlock(&log_lock);
	return 0;
}

int log_chown_file(unsigned uid, unsigned gid)
{
	int rc = 0;

	pthread_mutex_lock(&log_lock);
	if (log_file)
		rc = fchown(fileno(log_file), (uid_t)uid, (gid_t)gid);
	pthread_mutex_unlock(&log_lock);
	return rc;
}

void log_close_file(void)
{
	pthread_mutex_lock(&log_lock);
	if (log_file)
		fclose(log_file);
	log_file = NULL;
	pthread_mutex_unlock(&log_lock);
}

void log_msg(enum log_level lvl, const char *fmt, ...)
{
	va_list ap;
	int to_console = lvl <= log_level;
	int to_file = log_file && lvl <= LOG_LVL_INFO;

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
	if (to_file && log_file) {
		struct timeval tv;
		struct tm tm;
		char ts[32];

		gettimeofday(&tv, NULL);
		localtime_r(&tv.tv_sec, &tm);
		strftime(ts, sizeof(ts), "%d/%m/%Y -- %H:%M:%S", &tm);
		fprintf(log_file, "[%s] - <%s> -- ", ts, level_names[lvl]);
		va_start(ap, fmt);
		vfprintf(log_file, fmt, ap);
		va_end(ap);
		fputc('\n', log_file);
	}
	pthread_mutex_unlock(&log_lock);
}
