/* The eve-log keys of the network filetypes, with Suricata 8's names and
 * defaults (its eve-log.yaml): identity/facility/level for syslog, the
 * redis: map for redis, filename as the socket for unix_dgram/unix_stream.
 * queue-size and close-timeout are ours: the writer thread's bounds. */
#include "config.h"
#include "output/output-private.h"
#include "conf/conf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <syslog.h>

#define SINK_QUEUE_DEFAULT (8ull << 20)
#define SINK_CLOSE_TIMEOUT_DEFAULT_MS 2000u

static void serr(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void serr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static const struct { const char *name; int value; } facilities[] = {
	{ "kern", LOG_KERN }, { "user", LOG_USER }, { "mail", LOG_MAIL },
	{ "daemon", LOG_DAEMON }, { "auth", LOG_AUTH }, { "syslog", LOG_SYSLOG },
	{ "lpr", LOG_LPR }, { "news", LOG_NEWS }, { "uucp", LOG_UUCP },
	{ "cron", LOG_CRON }, { "authpriv", LOG_AUTHPRIV }, { "ftp", LOG_FTP },
	{ "local0", LOG_LOCAL0 }, { "local1", LOG_LOCAL1 }, { "local2", LOG_LOCAL2 },
	{ "local3", LOG_LOCAL3 }, { "local4", LOG_LOCAL4 }, { "local5", LOG_LOCAL5 },
	{ "local6", LOG_LOCAL6 }, { "local7", LOG_LOCAL7 },
};

/* Suricata documents Emergency, Alert, Critical, Error, Warning, Notice,
 * Info, Debug; syslog's short names are taken too. Any case. */
static const struct { const char *name; int value; } levels[] = {
	{ "emergency", LOG_EMERG }, { "emerg", LOG_EMERG }, { "alert", LOG_ALERT },
	{ "critical", LOG_CRIT }, { "crit", LOG_CRIT }, { "error", LOG_ERR },
	{ "err", LOG_ERR }, { "warning", LOG_WARNING }, { "warn", LOG_WARNING },
	{ "notice", LOG_NOTICE }, { "info", LOG_INFO }, { "debug", LOG_DEBUG },
};

static int get_str(const char *prefix, const char *key, char *dst, size_t dstlen,
		   const char *def, char *err, size_t errlen)
{
	char path[400];
	const char *v = NULL;

	snprintf(path, sizeof(path), "%s.%s", prefix, key);
	if (conf_get_scalar(path, &v) < 0) {
		serr(err, errlen, "%s: expected a value", path);
		return -1;
	}
	if (!v || !v[0])
		v = def;
	if (strlen(v) >= dstlen) {
		serr(err, errlen, "%s: value too long (at most %zu characters)", path, dstlen - 1);
		return -1;
	}
	snprintf(dst, dstlen, "%s", v);
	return 0;
}

static int load_syslog(EveSinkConfig *sc, const char *prefix, char *err, size_t errlen)
{
	char path[400], fac[32], lvl[32];
	size_t i;

	if (get_str(prefix, "identity", sc->identity, sizeof(sc->identity), "suricata", err,
		    errlen) < 0 ||
	    get_str(prefix, "facility", fac, sizeof(fac), "local5", err, errlen) < 0 ||
	    get_str(prefix, "level", lvl, sizeof(lvl), "Info", err, errlen) < 0)
		return -1;
	for (i = 0; i < sizeof(facilities) / sizeof(facilities[0]); i++)
		if (strcasecmp(facilities[i].name, fac) == 0)
			break;
	if (i == sizeof(facilities) / sizeof(facilities[0])) {
		snprintf(path, sizeof(path), "%s.facility", prefix);
		serr(err, errlen, "%s: unknown syslog facility '%s' (local0..local7, daemon, "
		     "user, ...)", path, fac);
		return -1;
	}
	sc->facility = facilities[i].value;
	for (i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
		if (strcasecmp(levels[i].name, lvl) == 0)
			break;
	if (i == sizeof(levels) / sizeof(levels[0])) {
		snprintf(path, sizeof(path), "%s.level", prefix);
		serr(err, errlen, "%s: unknown syslog level '%s' (Emergency, Alert, Critical, "
		     "Error, Warning, Notice, Info, Debug)", path, lvl);
		return -1;
	}
	sc->level = levels[i].value;
	/* glibc's syslog(3) socket */
	snprintf(sc->path, sizeof(sc->path), "/dev/log");
	return 0;
}

static int load_redis(EveSinkConfig *sc, const char *prefix, char *err, size_t errlen)
{
	static const char *const modes[] = {
		"list", "lpush", "rpush", "channel", "publish", "xadd", "stream", NULL,
	};
	static const int mode_of[] = {
		EVE_REDIS_LPUSH, EVE_REDIS_LPUSH, EVE_REDIS_RPUSH, EVE_REDIS_PUBLISH,
		EVE_REDIS_PUBLISH, EVE_REDIS_XADD, EVE_REDIS_XADD,
	};
	char rp[320], path[400];
	int64_t port = 6379, bs = 10;
	int mode = 0, pipelining = 0, r;

	snprintf(rp, sizeof(rp), "%s.redis", prefix);
	if (get_str(rp, "server", sc->server, sizeof(sc->server), "127.0.0.1", err, errlen) < 0 ||
	    get_str(rp, "key", sc->key, sizeof(sc->key), "suricata", err, errlen) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s.port", rp);
	r = conf_get_int(path, &port);
	if (r < 0 || port < 1 || port > 65535) {
		serr(err, errlen, "%s: invalid port '%s' (1..65535)", path, conf_get(path));
		return -1;
	}
	sc->port = (uint16_t)port;
	{
		char m[32];

		if (get_str(rp, "mode", m, sizeof(m), "list", err, errlen) < 0)
			return -1;
		while (modes[mode] && strcasecmp(modes[mode], m) != 0)
			mode++;
		if (!modes[mode]) {
			serr(err, errlen, "%s.mode: invalid mode '%s' (list, lpush, rpush, "
			     "channel, publish, xadd, stream)", rp, m);
			return -1;
		}
	}
	sc->redis_mode = mode_of[mode];
	snprintf(path, sizeof(path), "%s.pipelining.enabled", rp);
	if (conf_get_bool(path, &pipelining) < 0) {
		serr(err, errlen, "%s: invalid boolean '%s'", path, conf_get(path));
		return -1;
	}
	snprintf(path, sizeof(path), "%s.pipelining.batch-size", rp);
	r = conf_get_int(path, &bs);
	if (r < 0 || bs < 1 || bs > 100000) {
		serr(err, errlen, "%s: invalid batch size '%s' (1..100000)", path, conf_get(path));
		return -1;
	}
	sc->batch_size = pipelining ? (uint32_t)bs : 1;
	sc->stream_maxlen = 100000;
	snprintf(path, sizeof(path), "%s.stream-maxlen", rp);
	{
		int64_t ml = 100000;

		r = conf_get_int(path, &ml);
		if (r < 0 || ml < 0) {
			serr(err, errlen, "%s: invalid length '%s'", path, conf_get(path));
			return -1;
		}
		sc->stream_maxlen = (uint64_t)ml;
	}
	snprintf(path, sizeof(path), "%s.stream-trim-exact", rp);
	if (conf_get_bool(path, &sc->stream_trim_exact) < 0) {
		serr(err, errlen, "%s: invalid boolean '%s'", path, conf_get(path));
		return -1;
	}
	/* async: Suricata reads replies through libevent when set; here the
	 * writer thread already keeps the server's latency off the packet
	 * threads, so the key is accepted and changes nothing */
#ifndef HAVE_HIREDIS
	serr(err, errlen, "%s.filetype: redis: this build has no redis support (configure "
	     "found no hiredis: install libhiredis-dev and build again)", prefix);
	return -1;
#else
	return 0;
#endif
}

int eve_sink_config_load(EveSinkConfig *sc, int filetype, const char *prefix,
			 const char *sock_path, char *err, size_t errlen)
{
	char path[400];
	uint64_t qs = SINK_QUEUE_DEFAULT;
	int64_t ct = SINK_CLOSE_TIMEOUT_DEFAULT_MS / 1000;
	int r;

	memset(sc, 0, sizeof(*sc));
	sc->filetype = filetype;
	sc->batch_size = 1;
	if (filetype == EVE_FILETYPE_REGULAR)
		return 0;
	snprintf(path, sizeof(path), "%s.queue-size", prefix);
	r = conf_get_size(path, &qs);
	if (r < 0 || qs < (64u << 10) || qs > (4ull << 30)) {
		serr(err, errlen, "%s: invalid size '%s' (64kb..4gb)", path, conf_get(path));
		return -1;
	}
	sc->queue_size = qs;
	snprintf(path, sizeof(path), "%s.close-timeout", prefix);
	r = conf_get_int(path, &ct);
	if (r < 0 || ct < 0 || ct > 3600) {
		serr(err, errlen, "%s: invalid timeout '%s' (seconds, 0..3600)", path,
		     conf_get(path));
		return -1;
	}
	sc->close_timeout_ms = (uint32_t)ct * 1000u;
	switch (filetype) {
	case EVE_FILETYPE_SYSLOG:
		return load_syslog(sc, prefix, err, errlen);
	case EVE_FILETYPE_REDIS:
		return load_redis(sc, prefix, err, errlen);
	default:
		if (strlen(sock_path) >= sizeof(sc->path)) {
			serr(err, errlen, "%s.filename: socket path too long (at most %zu "
			     "characters): %s", prefix, sizeof(sc->path) - 1, sock_path);
			return -1;
		}
		snprintf(sc->path, sizeof(sc->path), "%s", sock_path);
		return 0;
	}
}
