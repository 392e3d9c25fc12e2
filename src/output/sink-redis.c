/* The redis transport of the eve sinks (hiredis, synchronous, from the
 * writer thread): LPUSH/RPUSH to a list, PUBLISH to a channel, or XADD to a
 * stream ("eve" field, trimmed with MAXLEN ~ stream-maxlen), as Suricata 8's
 * redis modes. A batch is pipelined: every command appended, then every
 * reply read, so batch-size records cost one round trip. */
#include "config.h"
#include "output/sink.h"
#include "conf/conf.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static int redis_load(EveSinkConfig *sc, const char *prefix, const char *path_unused,
		      char *err, size_t errlen)
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

	(void)path_unused;

	snprintf(rp, sizeof(rp), "%s.redis", prefix);
	if (sink_conf_str(rp, "server", sc->server, sizeof(sc->server), "127.0.0.1", err, errlen) < 0 ||
	    sink_conf_str(rp, "key", sc->key, sizeof(sc->key), "suricata", err, errlen) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s.port", rp);
	r = conf_get_int(path, &port);
	if (r < 0 || port < 1 || port > 65535) {
		sink_conf_err(err, errlen, "%s: invalid port '%s' (1..65535)", path, conf_get(path));
		return -1;
	}
	sc->port = (uint16_t)port;
	{
		char m[32];

		if (sink_conf_str(rp, "mode", m, sizeof(m), "list", err, errlen) < 0)
			return -1;
		while (modes[mode] && strcasecmp(modes[mode], m) != 0)
			mode++;
		if (!modes[mode]) {
			sink_conf_err(err, errlen, "%s.mode: invalid mode '%s' (list, lpush, rpush, "
			     "channel, publish, xadd, stream)", rp, m);
			return -1;
		}
	}
	sc->redis_mode = mode_of[mode];
	snprintf(path, sizeof(path), "%s.pipelining.enabled", rp);
	if (conf_get_bool(path, &pipelining) < 0) {
		sink_conf_err(err, errlen, "%s: invalid boolean '%s'", path, conf_get(path));
		return -1;
	}
	snprintf(path, sizeof(path), "%s.pipelining.batch-size", rp);
	r = conf_get_int(path, &bs);
	if (r < 0 || bs < 1 || bs > 100000) {
		sink_conf_err(err, errlen, "%s: invalid batch size '%s' (1..100000)", path, conf_get(path));
		return -1;
	}
	sc->batch_size = pipelining ? (uint32_t)bs : 1;
	sc->stream_maxlen = 100000;
	snprintf(path, sizeof(path), "%s.stream-maxlen", rp);
	{
		int64_t ml = 100000;

		r = conf_get_int(path, &ml);
		if (r < 0 || ml < 0) {
			sink_conf_err(err, errlen, "%s: invalid length '%s'", path, conf_get(path));
			return -1;
		}
		sc->stream_maxlen = (uint64_t)ml;
	}
	snprintf(path, sizeof(path), "%s.stream-trim-exact", rp);
	if (conf_get_bool(path, &sc->stream_trim_exact) < 0) {
		sink_conf_err(err, errlen, "%s: invalid boolean '%s'", path, conf_get(path));
		return -1;
	}
	/* async: Suricata reads replies through libevent when set; here the
	 * writer thread already keeps the server's latency off the packet
	 * threads, so the key is accepted and changes nothing */
#ifndef HAVE_HIREDIS
	sink_conf_err(err, errlen, "%s.filetype: redis: this build has no redis support (configure "
	     "found no hiredis: install libhiredis-dev and build again)", prefix);
	return -1;
#else
	return 0;
#endif
}


static void redis_describe(const EveSinkConfig *sc, char *buf, size_t len)
{
	static const char *const modes[] = { "lpush", "rpush", "publish", "xadd" };

	snprintf(buf, len, "redis %s:%u (%s %s)", sc->server, (unsigned)sc->port,
		 modes[sc->redis_mode], sc->key);
}

#ifdef HAVE_HIREDIS
#include "output/sink-queue.h"

#include <hiredis/hiredis.h>
#include <inttypes.h>

/* a server that stops answering fails the batch after this, instead of
 * holding the writer (and the shutdown) forever */
#define REDIS_TIMEOUT_S 2

static int redis_connect(void **conn, const EveSinkConfig *cfg, char *err, size_t errlen)
{
	struct timeval tv = { REDIS_TIMEOUT_S, 0 };
	redisContext *c = redisConnectWithTimeout(cfg->server, cfg->port, tv);

	if (!c || c->err) {
		snprintf(err, errlen, "cannot connect to redis %s:%u: %s", cfg->server,
			 (unsigned)cfg->port, c ? c->errstr : "out of memory");
		if (c)
			redisFree(c);
		return -1;
	}
	redisSetTimeout(c, tv);
	*conn = c;
	return 0;
}

static void redis_disconnect(void *conn)
{
	if (conn)
		redisFree(conn);
}

static int append(redisContext *c, const EveSinkConfig *cfg, const uint8_t *rec, uint32_t len)
{
	static const char *const verb[] = { "LPUSH", "RPUSH", "PUBLISH" };
	const char *argv[8];
	size_t argl[8];
	char maxlen[24];
	int argc = 0;

	if (cfg->redis_mode != EVE_REDIS_XADD) {
		argv[argc] = verb[cfg->redis_mode];
		argl[argc++] = strlen(verb[cfg->redis_mode]);
		argv[argc] = cfg->key;
		argl[argc++] = strlen(cfg->key);
	} else {
		argv[argc] = "XADD";
		argl[argc++] = 4;
		argv[argc] = cfg->key;
		argl[argc++] = strlen(cfg->key);
		if (cfg->stream_maxlen) {
			argv[argc] = "MAXLEN";
			argl[argc++] = 6;
			argv[argc] = cfg->stream_trim_exact ? "=" : "~";
			argl[argc++] = 1;
			snprintf(maxlen, sizeof(maxlen), "%" PRIu64, cfg->stream_maxlen);
			argv[argc] = maxlen;
			argl[argc++] = strlen(maxlen);
		}
		argv[argc] = "*";
		argl[argc++] = 1;
		argv[argc] = "eve";
		argl[argc++] = 3;
	}
	argv[argc] = (const char *)rec;
	argl[argc++] = len;
	return redisAppendCommandArgv(c, argc, argv, argl);
}

static int redis_send(void *conn, const EveSinkConfig *cfg, const uint8_t *batch, size_t n,
		      size_t *delivered, size_t *rejected, char *err, size_t errlen)
{
	redisContext *c = conn;
	size_t pos = 0;

	*delivered = *rejected = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t len;
		const uint8_t *rec = sink_batch_next(batch, &pos, &len);

		if (append(c, cfg, rec, len) != REDIS_OK) {
			snprintf(err, errlen, "redis: %s", c->errstr);
			return -1;
		}
	}
	for (size_t i = 0; i < n; i++) {
		redisReply *r = NULL;

		if (redisGetReply(c, (void **)&r) != REDIS_OK || !r) {
			snprintf(err, errlen, "redis %s:%u: %s", cfg->server, (unsigned)cfg->port,
				 c->err ? c->errstr : "no reply");
			if (r)
				freeReplyObject(r);
			return -1;
		}
		if (r->type == REDIS_REPLY_ERROR) {
			snprintf(err, errlen, "%.*s", (int)r->len, r->str);
			(*rejected)++;
		} else {
			(*delivered)++;
		}
		freeReplyObject(r);
	}
	return 0;
}

const SinkTransport sink_redis = {
	.name = "redis", .load = redis_load, .describe = redis_describe,
	.connect = redis_connect, .send = redis_send, .disconnect = redis_disconnect,
};
#else
/* no hiredis: the keys are still checked, and load says what is missing */
const SinkTransport sink_redis = {
	.name = "redis", .load = redis_load, .describe = redis_describe,
};
#endif
