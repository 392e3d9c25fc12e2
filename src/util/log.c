#include "util/log.h"

#include <stdio.h>
#include <pthread.h>

static enum log_level log_level = LOG_LVL_NOTICE;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const level_names[] = {
	[LOG_LVL_ERROR] = "Error",
	[LOG_LVL_WARNING] = "Warning",
	[LOG_LVL_NOTICE] = "Notice",
	[LOG_LVL_INFO] = "Info",
	[LOG_LVL_DEBUG] = "Debug",
};

void log_set_level(enum log_level lvl)
{
	log_level = lvl;
}

enum log_level log_get_level(void)
{
	return log_level;
}

void log_msg(enum log_level lvl, const char *fmt, ...)
{
	va_list ap;

	if (lvl > log_level)
		return;
	/* One lock so that lines of different threads never interleave. */
	pthread_mutex_lock(&log_lock);
	fprintf(stderr, "%s: ", level_names[lvl]);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	pthread_mutex_unlock(&log_lock);
}
