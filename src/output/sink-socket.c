/* Socket transports of the eve sinks: unix_dgram (a datagram per record),
 * unix_stream (records as newline-terminated lines) and syslog (RFC 3164
 * datagrams to /dev/log, as glibc's syslog(3) sends them, but from the
 * writer thread and with a result: syslog(3) cannot say that a message was
 * lost, and its openlog() identity is one per process where each eve-log
 * output has its own). The engine is the client: something else listens. */
#include "output/sink.h"
#include "output/sink-queue.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

/* a stalled reader must not hold the writer forever: the send fails, the
 * batch is counted, the writer reconnects */
#define SEND_TIMEOUT_S 2

typedef struct SockConn {
	int fd;
	int stream;     /* SOCK_STREAM (syslog: a daemon that listens so) */
} SockConn;

static int sock_connect(void **conn, const EveSinkConfig *cfg, int type, char *err,
			size_t errlen)
{
	struct sockaddr_un sa;
	struct timeval tv = { SEND_TIMEOUT_S, 0 };
	SockConn *c;
	int fd;

	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", cfg->path);
	fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int e = errno;  /* syslog_connect looks at it */

		snprintf(err, errlen, "cannot connect to %s: %s", cfg->path, strerror(e));
		close(fd);
		errno = e;
		return -1;
	}
	c = malloc(sizeof(*c));
	if (!c) {
		close(fd);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	c->fd = fd;
	c->stream = type == SOCK_STREAM;
	*conn = c;
	return 0;
}

static void sock_disconnect(void *conn)
{
	SockConn *c = conn;

	if (!c)
		return;
	close(c->fd);
	free(c);
}

/* Sends the whole iovec (a stream socket may take part of it). */
static int send_all(int fd, struct iovec *iov, int iovcnt)
{
	while (iovcnt > 0) {
		struct msghdr mh;
		ssize_t w;

		memset(&mh, 0, sizeof(mh));
		mh.msg_iov = iov;
		mh.msg_iovlen = (size_t)iovcnt;
		w = sendmsg(fd, &mh, MSG_NOSIGNAL);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		while (iovcnt > 0 && (size_t)w >= iov->iov_len) {
			w -= (ssize_t)iov->iov_len;
			iov++;
			iovcnt--;
		}
		if (iovcnt > 0) {
			iov->iov_base = (char *)iov->iov_base + w;
			iov->iov_len -= (size_t)w;
		}
	}
	return 0;
}

static int dgram_connect(void **conn, const EveSinkConfig *cfg, char *err, size_t errlen)
{
	return sock_connect(conn, cfg, SOCK_DGRAM, err, errlen);
}

static int stream_connect(void **conn, const EveSinkConfig *cfg, char *err, size_t errlen)
{
	return sock_connect(conn, cfg, SOCK_STREAM, err, errlen);
}

/* One datagram per record, with the newline a line-reading listener
 * expects (nc -lU, Suricata's own socket output). */
static int dgram_send(void *conn, const EveSinkConfig *cfg, const uint8_t *batch, size_t n,
		      size_t *delivered, size_t *rejected, char *err, size_t errlen)
{
	SockConn *c = conn;
	size_t pos = 0;

	*delivered = *rejected = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t len;
		const uint8_t *rec = sink_batch_next(batch, &pos, &len);
		struct iovec iov[2] = { { (void *)rec, len }, { (void *)"\n", 1 } };

		if (send_all(c->fd, iov, 2) < 0) {
			if (errno == EMSGSIZE) {
				/* over the socket's datagram limit: this one record
				 * cannot go, the connection is fine */
				snprintf(err, errlen, "record of %u bytes: %s", len,
					 strerror(errno));
				(*rejected)++;
				continue;
			}
			snprintf(err, errlen, "send to %s: %s", cfg->path, strerror(errno));
			return -1;
		}
		(*delivered)++;
	}
	return 0;
}

/* A batch is one sendmsg of up to 64 records and their newlines. */
static int stream_send(void *conn, const EveSinkConfig *cfg, const uint8_t *batch, size_t n,
		       size_t *delivered, size_t *rejected, char *err, size_t errlen)
{
	SockConn *c = conn;
	struct iovec iov[128];
	size_t pos = 0, i = 0;

	*delivered = *rejected = 0;
	while (i < n) {
		int cnt = 0;
		size_t first = i;

		for (; i < n && cnt + 2 <= 128; i++) {
			uint32_t len;
			const uint8_t *rec = sink_batch_next(batch, &pos, &len);

			iov[cnt].iov_base = (void *)rec;
			iov[cnt++].iov_len = len;
			iov[cnt].iov_base = (void *)"\n";
			iov[cnt++].iov_len = 1;
		}
		if (send_all(c->fd, iov, cnt) < 0) {
			snprintf(err, errlen, "send to %s: %s", cfg->path, strerror(errno));
			return -1;
		}
		*delivered += i - first;
	}
	return 0;
}

/* /dev/log is a datagram socket almost everywhere; where the daemon
 * listens on a stream socket, syslog(3) falls back to that, and so do we. */
static int syslog_connect(void **conn, const EveSinkConfig *cfg, char *err, size_t errlen)
{
	if (sock_connect(conn, cfg, SOCK_DGRAM, err, errlen) == 0)
		return 0;
	if (errno != EPROTOTYPE)
		return -1;
	return sock_connect(conn, cfg, SOCK_STREAM, err, errlen);
}

/* "<PRI>Mmm dd hh:mm:ss identity[pid]: record", the local syslog wire
 * format (RFC 3164 without the host name, which the daemon adds). */
static int syslog_send(void *conn, const EveSinkConfig *cfg, const uint8_t *batch, size_t n,
		       size_t *delivered, size_t *rejected, char *err, size_t errlen)
{
	SockConn *c = conn;
	size_t pos = 0;
	char hdr[160], stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	int hl;

	*delivered = *rejected = 0;
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%b %e %H:%M:%S", &tm);
	hl = snprintf(hdr, sizeof(hdr), "<%d>%s %s[%d]: ", cfg->facility | cfg->level, stamp,
		      cfg->identity, (int)getpid());
	if (hl < 0 || (size_t)hl >= sizeof(hdr))
		hl = (int)strlen(hdr);
	for (size_t i = 0; i < n; i++) {
		uint32_t len;
		const uint8_t *rec = sink_batch_next(batch, &pos, &len);
		/* on a stream socket a NUL ends each message, as syslog(3) does */
		struct iovec iov[3] = { { hdr, (size_t)hl }, { (void *)rec, len },
					{ (void *)"", 1 } };

		if (send_all(c->fd, iov, c->stream ? 3 : 2) < 0) {
			snprintf(err, errlen, "send to %s: %s", cfg->path, strerror(errno));
			return -1;
		}
		(*delivered)++;
	}
	return 0;
}

typedef struct NamedValue {
	const char *name;
	int value;
} NamedValue;

static const NamedValue facilities[] = {
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
static const NamedValue levels[] = {
	{ "emergency", LOG_EMERG }, { "emerg", LOG_EMERG }, { "alert", LOG_ALERT },
	{ "critical", LOG_CRIT }, { "crit", LOG_CRIT }, { "error", LOG_ERR },
	{ "err", LOG_ERR }, { "warning", LOG_WARNING }, { "warn", LOG_WARNING },
	{ "notice", LOG_NOTICE }, { "info", LOG_INFO }, { "debug", LOG_DEBUG },
};

/* The value named name (any case) in t, or -1 with "prefix.key: unknown
 * syslog <key> 'name' (hint)" in err. */
static int named_value(const NamedValue *t, size_t n, const char *name, const char *prefix,
		       const char *key, const char *hint, int *out, char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++)
		if (strcasecmp(t[i].name, name) == 0) {
			*out = t[i].value;
			return 0;
		}
	sink_conf_err(err, errlen, "%s.%s: unknown syslog %s '%s' (%s)", prefix, key, key, name,
		      hint);
	return -1;
}

static int syslog_load(EveSinkConfig *sc, const char *prefix, const char *path_unused,
		       char *err, size_t errlen)
{
	char fac[32], lvl[32];

	(void)path_unused;

	if (sink_conf_str(prefix, "identity", sc->identity, sizeof(sc->identity), "suricata", err,
		    errlen) < 0 ||
	    sink_conf_str(prefix, "facility", fac, sizeof(fac), "local5", err, errlen) < 0 ||
	    sink_conf_str(prefix, "level", lvl, sizeof(lvl), "Info", err, errlen) < 0)
		return -1;
	if (named_value(facilities, sizeof(facilities) / sizeof(facilities[0]), fac, prefix,
			"facility", "local0..local7, daemon, user, ...", &sc->facility, err,
			errlen) < 0 ||
	    named_value(levels, sizeof(levels) / sizeof(levels[0]), lvl, prefix, "level",
			"Emergency, Alert, Critical, Error, Warning, Notice, Info, Debug",
			&sc->level, err, errlen) < 0)
		return -1;
	/* glibc's syslog(3) socket */
	snprintf(sc->path, sizeof(sc->path), "/dev/log");
	return 0;
}

/* unix_dgram, unix_stream: the eve-log filename is the socket to send to */
static int sock_load(EveSinkConfig *sc, const char *prefix, const char *path, char *err,
		     size_t errlen)
{
	if (strlen(path) >= sizeof(sc->path)) {
		sink_conf_err(err, errlen, "%s.filename: socket path too long (at most %zu "
			      "characters): %s", prefix, sizeof(sc->path) - 1, path);
		return -1;
	}
	snprintf(sc->path, sizeof(sc->path), "%s", path);
	return 0;
}

static void sock_describe(const EveSinkConfig *sc, char *buf, size_t len)
{
	snprintf(buf, len, "%s %s", sc->transport->name, sc->path);
}

static void syslog_describe(const EveSinkConfig *sc, char *buf, size_t len)
{
	snprintf(buf, len, "syslog (%s)", sc->identity);
}

const SinkTransport sink_unix_dgram = {
	.name = "unix_dgram", .load = sock_load, .describe = sock_describe,
	.connect = dgram_connect, .send = dgram_send,
	.disconnect = sock_disconnect,
};
const SinkTransport sink_unix_stream = {
	.name = "unix_stream", .load = sock_load, .describe = sock_describe,
	.connect = stream_connect, .send = stream_send,
	.disconnect = sock_disconnect,
};
const SinkTransport sink_syslog = {
	.name = "syslog", .load = syslog_load, .describe = syslog_describe,
	.connect = syslog_connect, .send = syslog_send,
	.disconnect = sock_disconnect,
};
