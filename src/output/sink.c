/* A network sink's writer thread: see sink.h. */
#include "config.h"
#include "output/sink.h"
#include "output/sink-queue.h"
#include "util/log.h"

#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BACKOFF_FIRST_MS 100
#define BACKOFF_MAX_MS 5000
/* sockets: records per send call; a batch holds at least one whole record */
#define SOCKET_BATCH 64
#define BATCH_BUF (SINK_RECORD_MAX + 4 + (256u << 10))

struct EveSink {
	EveSinkConfig cfg;
	char name[192];
	const SinkTransport *tp;
	SinkQueue q;
	uint8_t *batch;             /* the writer's copy of what it sends */
	pthread_t thread;
	int started;
	/* written by the writer, read by the stats thread */
	uint64_t written, failed, reconnects;
	uint64_t deadline_ns;       /* set by sink_close before it closes the queue */
	unsigned told_rejected;     /* the writer's: server errors are logged once */
	int stopping;               /* sink_stop() was called (the closing thread's) */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void add(uint64_t *c, uint64_t n)
{
	__atomic_add_fetch(c, n, __ATOMIC_RELAXED);
}

/* The eve-log filetypes other than a file, in the order error messages
 * name them: one line per transport. */
static const SinkTransport *const sink_transports[] = {
	&sink_syslog, &sink_unix_dgram, &sink_unix_stream, &sink_redis,
};

#define NTRANSPORTS (sizeof(sink_transports) / sizeof(sink_transports[0]))

const SinkTransport *sink_transport_find(const char *filetype)
{
	for (size_t i = 0; i < NTRANSPORTS; i++)
		if (strcmp(sink_transports[i]->name, filetype) == 0)
			return sink_transports[i];
	return NULL;
}

void sink_transport_names(char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (size_t i = 0; i < NTRANSPORTS && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "",
				       sink_transports[i]->name);
}

static int closing(EveSink *s)
{
	int c;

	pthread_mutex_lock(&s->q.lock);
	c = s->q.closing;
	pthread_mutex_unlock(&s->q.lock);
	return c;
}

/* Connects, or after a failure waits the backoff (cut short by close).
 * Returns 1 connected, 0 not yet, -1 give up (closing and unreachable). */
static int writer_connect(EveSink *s, void **conn, int *ever, int *backoff, int *down_logged)
{
	char err[256] = "";

	if (s->tp->connect(conn, &s->cfg, err, sizeof(err)) == 0) {
		if (*ever)
			add(&s->reconnects, 1);
		if (*down_logged)
			log_notice("eve-log %s: connected again", s->name);
		*ever = 1;
		*down_logged = 0;
		*backoff = BACKOFF_FIRST_MS;
		return 1;
	}
	/* one line per outage, not one per attempt */
	if (!*down_logged) {
		log_warning("eve-log %s: %s; records wait in the queue while it retries",
			    s->name, err);
		*down_logged = 1;
	}
	if (closing(s))
		return -1;      /* shutdown: nothing to wait for */
	sink_queue_wait_closed(&s->q, *backoff);
	*backoff = *backoff * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : *backoff * 2;
	return 0;
}

static void *writer_main(void *arg)
{
	EveSink *s = arg;
	void *conn = NULL;
	int connected = 0, ever = 0, backoff = BACKOFF_FIRST_MS, down_logged = 0;
	/* redis: the pipelining batch (1 without); sockets: what one pop gives */
	size_t max = s->cfg.batch_size ? s->cfg.batch_size : SOCKET_BATCH;
	sigset_t all;

	/* signals are the main thread's business; a write to a peer that went
	 * away gives EPIPE here instead of killing the process (hiredis writes
	 * with write(2), which cannot say MSG_NOSIGNAL) */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (;;) {
		size_t n, delivered = 0, rejected = 0;
		char err[256] = "";

		if (!connected) {
			int r = writer_connect(s, &conn, &ever, &backoff, &down_logged);

			if (r < 0)
				break;
			if (r == 0)
				continue;
			connected = 1;
		}
		if (closing(s) && now_ns() >= s->deadline_ns)
			break;
		n = sink_queue_pop(&s->q, s->batch, BATCH_BUF, max, 200);
		if (!n) {
			if (closing(s))
				break;  /* closed and drained */
			continue;
		}
		if (s->tp->send(conn, &s->cfg, s->batch, n, &delivered, &rejected, err,
				sizeof(err)) < 0) {
			add(&s->written, delivered);
			add(&s->failed, n - delivered);
			log_warning("eve-log %s: %s; %zu record(s) of the batch lost, reconnecting",
				    s->name, err, n - delivered);
			s->tp->disconnect(conn);
			conn = NULL;
			connected = 0;
			down_logged = 1;
			continue;
		}
		add(&s->written, delivered);
		if (rejected) {
			add(&s->failed, rejected);
			if (!s->told_rejected++)
				log_warning("eve-log %s: the server refused records: %s (counted "
					    "as failed; said once)", s->name, err);
		}
	}
	if (conn)
		s->tp->disconnect(conn);
	return NULL;
}

EveSink *sink_open(const EveSinkConfig *cfg, const char *name, char *err, size_t errlen)
{
	EveSink *s;

	if (!cfg->transport || !cfg->transport->connect) {
		snprintf(err, errlen, "eve-log %s: this build cannot write there (redis needs "
			 "hiredis: install libhiredis-dev and build again)", name);
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s || !(s->batch = malloc(BATCH_BUF)) || sink_queue_init(&s->q, cfg->queue_size) < 0) {
		if (s)
			free(s->batch);
		free(s);
		snprintf(err, errlen, "eve-log %s: out of memory for its queue", name);
		return NULL;
	}
	s->cfg = *cfg;
	s->tp = cfg->transport;
	snprintf(s->name, sizeof(s->name), "%s", name);
	if (pthread_create(&s->thread, NULL, writer_main, s) != 0) {
		sink_queue_destroy(&s->q);
		free(s->batch);
		free(s);
		snprintf(err, errlen, "eve-log %s: cannot start its writer thread", name);
		return NULL;
	}
	s->started = 1;
	return s;
}

int sink_push(EveSink *s, const char *prefix, size_t prefix_len, const char *line, size_t len)
{
	return sink_queue_push(&s->q, prefix, prefix_len, line, len);
}

void sink_counters(EveSink *s, EveSinkCounters *c)
{
	uint64_t recs, dropped;
	size_t bytes;

	sink_queue_stats(&s->q, &recs, &bytes, &dropped);
	c->written = __atomic_load_n(&s->written, __ATOMIC_RELAXED);
	c->failed = __atomic_load_n(&s->failed, __ATOMIC_RELAXED);
	c->reconnects = __atomic_load_n(&s->reconnects, __ATOMIC_RELAXED);
	c->dropped = dropped;
	c->queued = recs;
	c->queued_bytes = bytes;
}

const char *sink_name(const EveSink *s)
{
	return s->name;
}

void sink_stop(EveSink *s, int timeout_ms)
{
	if (!s || !s->started || s->stopping)
		return;
	s->stopping = 1;
	/* a fixed bound: a reader that takes a little after each reconnect
	 * would otherwise hold the shutdown forever */
	s->deadline_ns = now_ns() + (uint64_t)timeout_ms * 1000000ull;
	sink_queue_close(&s->q);    /* the lock orders deadline_ns before it */
}

void sink_close(EveSink *s, int timeout_ms)
{
	EveSinkCounters c;

	if (!s)
		return;
	if (s->started) {
		sink_stop(s, timeout_ms);
		pthread_join(s->thread, NULL);
	}
	sink_counters(s, &c);
	/* what the writer could not send before the bound is lost: counted */
	add(&s->failed, c.queued);
	c.failed += c.queued;
	if (c.dropped || c.failed)
		log_warning("eve-log %s: %" PRIu64 " records written, %" PRIu64 " dropped "
			    "(queue full), %" PRIu64 " failed (%" PRIu64 " still queued at "
			    "shutdown)", s->name, c.written, c.dropped, c.failed, c.queued);
	else
		log_info("eve-log %s: %" PRIu64 " records written", s->name, c.written);
	sink_queue_destroy(&s->q);
	free(s->batch);
	free(s);
}
