/* The redis transport of the eve sinks (hiredis, synchronous, from the
 * writer thread): LPUSH/RPUSH to a list, PUBLISH to a channel, or XADD to a
 * stream ("eve" field, trimmed with MAXLEN ~ stream-maxlen), as Suricata 8's
 * redis modes. A batch is pipelined: every command appended, then every
 * reply read, so batch-size records cost one round trip. */
#include "config.h"

#ifdef HAVE_HIREDIS
#include "output/sink.h"
#include "output/sink-queue.h"

#include <hiredis/hiredis.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

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
	.name = "redis", .connect = redis_connect, .send = redis_send,
	.disconnect = redis_disconnect,
};
#endif
