/* The eve-log keys every network filetype has: queue-size and
 * close-timeout (ours: the writer thread's bounds); then the transport reads
 * its own (sink.h: SinkTransport.load), with Suricata 8's names and defaults
 * (its eve-log.yaml). */
#include "config.h"
#include "output/output-private.h"
#include "output/sink.h"
#include "conf/conf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define SINK_QUEUE_DEFAULT (8ull << 20)
#define SINK_CLOSE_TIMEOUT_DEFAULT_MS 2000u

void sink_conf_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

int sink_conf_str(const char *prefix, const char *key, char *dst, size_t dstlen,
		  const char *def, char *err, size_t errlen)
{
	char path[400];
	const char *v = NULL;

	snprintf(path, sizeof(path), "%s.%s", prefix, key);
	if (conf_get_scalar(path, &v) < 0) {
		sink_conf_err(err, errlen, "%s: expected a value", path);
		return -1;
	}
	if (!v || !v[0])
		v = def;
	if (strlen(v) >= dstlen) {
		sink_conf_err(err, errlen, "%s: value too long (at most %zu characters)", path, dstlen - 1);
		return -1;
	}
	snprintf(dst, dstlen, "%s", v);
	return 0;
}

int eve_sink_config_load(EveSinkConfig *sc, const struct SinkTransport *tp,
			 const char *prefix, const char *path, char *err, size_t errlen)
{
	char key[400];
	uint64_t qs = SINK_QUEUE_DEFAULT;
	int64_t ct = SINK_CLOSE_TIMEOUT_DEFAULT_MS / 1000;
	int r;

	memset(sc, 0, sizeof(*sc));
	sc->transport = tp;
	if (!tp)
		return 0;
	snprintf(key, sizeof(key), "%s.queue-size", prefix);
	r = conf_get_size(key, &qs);
	if (r < 0 || qs < (64u << 10) || qs > (4ull << 30)) {
		sink_conf_err(err, errlen, "%s: invalid size '%s' (64kb..4gb)", key, conf_get(key));
		return -1;
	}
	sc->queue_size = qs;
	snprintf(key, sizeof(key), "%s.close-timeout", prefix);
	r = conf_get_int(key, &ct);
	if (r < 0 || ct < 0 || ct > 3600) {
		sink_conf_err(err, errlen, "%s: invalid timeout '%s' (seconds, 0..3600)", key,
			      conf_get(key));
		return -1;
	}
	sc->close_timeout_ms = (uint32_t)ct * 1000u;
	return tp->load(sc, prefix, path, err, errlen);
}
