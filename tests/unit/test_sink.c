/* eve-log sinks: the bounded queue, the filetype keys, several eve-log
 * outputs with their own types, and a unix_dgram sink delivering (and
 * counting what it cannot). */
#define _GNU_SOURCE
#include "config.h"
#include "test.h"
#include "output-test-util.h"
#include "output/output.h"
#include "output/sink.h"
#include "output/sink-queue.h"
#include "conf/conf.h"

#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

static size_t pop_all(SinkQueue *q, uint8_t *buf, char out[][64], size_t max)
{
	size_t n = sink_queue_pop(q, buf, SINK_RECORD_MAX + 4, max, 0), pos = 0;

	for (size_t i = 0; i < n; i++) {
		uint32_t len;
		const uint8_t *r = sink_batch_next(buf, &pos, &len);

		snprintf(out[i], 64, "%.*s", (int)len, (const char *)r);
	}
	return n;
}

TEST(sink_queue_keeps_order_and_joins_the_two_parts)
{
	SinkQueue q;
	uint8_t *buf = malloc(SINK_RECORD_MAX + 4);
	char got[8][64];

	CHECK(buf);
	CHECK_EQ(sink_queue_init(&q, 1), 0);
	CHECK_EQ(q.cap, 64u << 10);     /* raised to the minimum */
	CHECK_EQ(sink_queue_push(&q, "@cee: ", 6, "{\"a\":1}", 7), 0);
	CHECK_EQ(sink_queue_push(&q, NULL, 0, "{\"b\":2}", 7), 0);
	CHECK_EQ(sink_queue_push(&q, NULL, 0, "{\"c\":3}", 7), 0);
	CHECK_EQ(q.records, 3);
	/* max limits a pop; the rest stays, in order */
	CHECK_EQ(pop_all(&q, buf, got, 2), 2);
	CHECK_STREQ(got[0], "@cee: {\"a\":1}");
	CHECK_STREQ(got[1], "{\"b\":2}");
	CHECK_EQ(pop_all(&q, buf, got, 8), 1);
	CHECK_STREQ(got[0], "{\"c\":3}");
	CHECK_EQ(pop_all(&q, buf, got, 8), 0);
	CHECK_EQ(q.used, 0);
	sink_queue_destroy(&q);
	free(buf);
}

/* Records that straddle the end of the ring come back whole; a full ring
 * refuses (and counts) instead of waiting; room comes back after a pop. */
TEST(sink_queue_wraps_and_counts_what_does_not_fit)
{
	SinkQueue q;
	uint8_t *buf = malloc(SINK_RECORD_MAX + 4);
	char rec[1000], got[1][64];
	size_t pushed = 0, pos;
	uint32_t len;

	CHECK(buf);
	CHECK_EQ(sink_queue_init(&q, 64u << 10), 0);
	for (int round = 0; round < 300; round++) {
		memset(rec, 'a' + round % 26, sizeof(rec));
		snprintf(rec, 16, "%06d", round);
		rec[6] = '|';
		CHECK_EQ(sink_queue_push(&q, NULL, 0, rec, sizeof(rec)), 0);
		pushed++;
		if (q.records > 40) {
			/* keep the ring ~2/3 full so that the tail wraps many times */
			CHECK_EQ(sink_queue_pop(&q, buf, SINK_RECORD_MAX + 4, 1, 0), 1);
			pos = 0;
			const uint8_t *r = sink_batch_next(buf, &pos, &len);
			int want = (int)(pushed - q.records - 1);
			char num[8];

			CHECK_EQ(len, sizeof(rec));
			snprintf(num, sizeof(num), "%06d", want);
			CHECK(memcmp(r, num, 6) == 0);
			CHECK_EQ(r[999], 'a' + want % 26);
		}
	}
	/* fill it up: the push that does not fit fails and is counted */
	while (sink_queue_push(&q, NULL, 0, rec, sizeof(rec)) == 0)
		;
	CHECK_EQ(q.dropped, 1);
	CHECK(q.used + sizeof(rec) + 4 > q.cap);
	CHECK_EQ(pop_all(&q, buf, got, 1), 1);
	CHECK_EQ(sink_queue_push(&q, NULL, 0, rec, sizeof(rec)), 0);
	/* a record over SINK_RECORD_MAX never fits, whatever the room */
	{
		SinkQueue big;
		char *huge = calloc(1, SINK_RECORD_MAX + 1);

		CHECK(huge);
		CHECK_EQ(sink_queue_init(&big, 4u << 20), 0);
		CHECK_EQ(sink_queue_push(&big, NULL, 0, huge, SINK_RECORD_MAX + 1), -1);
		CHECK_EQ(big.dropped, 1);
		CHECK_EQ(sink_queue_push(&big, NULL, 0, huge, SINK_RECORD_MAX), 0);
		sink_queue_destroy(&big);
		free(huge);
	}
	sink_queue_destroy(&q);
	free(buf);
}

TEST(sink_queue_pop_waits_then_close_wakes_it)
{
	SinkQueue q;
	uint8_t *buf = malloc(SINK_RECORD_MAX + 4);
	struct timeval a, b;
	long ms;

	CHECK(buf);
	CHECK_EQ(sink_queue_init(&q, 0), 0);
	gettimeofday(&a, NULL);
	CHECK_EQ(sink_queue_pop(&q, buf, SINK_RECORD_MAX + 4, 8, 50), 0);
	gettimeofday(&b, NULL);
	ms = (b.tv_sec - a.tv_sec) * 1000 + (b.tv_usec - a.tv_usec) / 1000;
	CHECK(ms >= 45);
	sink_queue_close(&q);
	gettimeofday(&a, NULL);
	CHECK_EQ(sink_queue_pop(&q, buf, SINK_RECORD_MAX + 4, 8, 5000), 0);
	CHECK_EQ(sink_queue_wait_closed(&q, 5000), 1);
	gettimeofday(&b, NULL);
	ms = (b.tv_sec - a.tv_sec) * 1000 + (b.tv_usec - a.tv_usec) / 1000;
	CHECK(ms < 1000);
	sink_queue_destroy(&q);
	free(buf);
}

struct prod { SinkQueue *q; int id; int n; int ok; };

static void *producer(void *arg)
{
	struct prod *p = arg;
	char rec[32];

	for (int i = 0; i < p->n; i++) {
		int len = snprintf(rec, sizeof(rec), "%d:%d", p->id, i);

		if (sink_queue_push(p->q, NULL, 0, rec, (size_t)len) == 0)
			p->ok++;
	}
	return NULL;
}

/* Four producers against one slow consumer on a small ring: every record is
 * either popped or counted as dropped, and each producer's records come out
 * in the order it pushed them. */
TEST(sink_queue_threads_lose_nothing_uncounted)
{
	SinkQueue q;
	uint8_t *buf = malloc(SINK_RECORD_MAX + 4);
	struct prod p[4];
	pthread_t t[4];
	int last[4] = { -1, -1, -1, -1 }, popped = 0, ordered = 1, pushed_ok = 0;

	CHECK(buf);
	CHECK_EQ(sink_queue_init(&q, 64u << 10), 0);
	for (int i = 0; i < 4; i++) {
		p[i] = (struct prod){ &q, i, 20000, 0 };
		pthread_create(&t[i], NULL, producer, &p[i]);
	}
	for (;;) {
		size_t n = sink_queue_pop(&q, buf, SINK_RECORD_MAX + 4, 64, 20), pos = 0;

		for (size_t k = 0; k < n; k++) {
			uint32_t len;
			const char *r = (const char *)sink_batch_next(buf, &pos, &len);
			char txt[32];
			int id, seq;

			snprintf(txt, sizeof(txt), "%.*s", (int)len, r);
			if (sscanf(txt, "%d:%d", &id, &seq) != 2 || id < 0 || id > 3) {
				if (ordered)
					printf("  bad record '%s'\n", txt);
				ordered = 0;
				continue;
			}
			if (seq <= last[id]) {
				if (ordered)
					printf("  %d:%d after %d:%d\n", id, seq, id, last[id]);
				ordered = 0;
			}
			last[id] = seq;
			popped++;
		}
		if (!n) {
			int done = 1;

			for (int i = 0; i < 4; i++)
				if (pthread_tryjoin_np(t[i], NULL) != 0 && p[i].n >= 0)
					done = 0;
				else
					p[i].n = -1;    /* joined */
			if (done && !q.records)
				break;
		}
	}
	for (int i = 0; i < 4; i++)
		pushed_ok += p[i].ok;
	CHECK(ordered);
	CHECK_EQ(popped, pushed_ok);
	CHECK_EQ((uint64_t)pushed_ok + q.dropped, 80000);
	sink_queue_destroy(&q);
	free(buf);
}

/* ---- configuration ---- */

static int load(OutputConfig *cfg, const char *yaml, char *err, size_t errlen)
{
	if (load_yaml(yaml) < 0)
		return -2;
	return output_config_load(cfg, "/var/log/x", err, errlen);
}

#ifdef HAVE_HIREDIS
TEST(sink_config_redis_defaults_are_suricatas)
{
	static OutputConfig cfg;
	char err[256] = "";
	const EveSinkConfig *sc = &cfg.eve[0].sink;

	CHECK_EQ(load(&cfg, "outputs:\n  - eve-log:\n      enabled: yes\n      filetype: redis\n"
		      "      types: [alert]\n", err, sizeof(err)), 0);
	CHECK_EQ(cfg.neve, 1);
	CHECK(sc->transport == &sink_redis);
	CHECK_STREQ(sc->server, "127.0.0.1");
	CHECK_EQ(sc->port, 6379);
	CHECK_EQ(sc->redis_mode, EVE_REDIS_LPUSH);
	CHECK_STREQ(sc->key, "suricata");
	CHECK_EQ(sc->batch_size, 1);            /* no pipelining */
	CHECK_EQ(sc->stream_maxlen, 100000);
	CHECK(!sc->stream_trim_exact);
	CHECK_EQ(sc->queue_size, 8u << 20);
	CHECK_EQ(sc->close_timeout_ms, 2000);
	conf_deinit();
}

TEST(sink_config_redis_modes_and_pipelining)
{
	static OutputConfig cfg;
	char err[256] = "";
	static const struct { const char *mode; int want; } modes[] = {
		{ "list", EVE_REDIS_LPUSH }, { "lpush", EVE_REDIS_LPUSH },
		{ "rpush", EVE_REDIS_RPUSH }, { "channel", EVE_REDIS_PUBLISH },
		{ "publish", EVE_REDIS_PUBLISH }, { "xadd", EVE_REDIS_XADD },
		{ "stream", EVE_REDIS_XADD },
	};
	char yaml[512];

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		snprintf(yaml, sizeof(yaml), "outputs:\n  - eve-log:\n      enabled: yes\n"
			 "      filetype: redis\n      redis:\n        mode: %s\n", modes[i].mode);
		CHECK_EQ(load(&cfg, yaml, err, sizeof(err)), 0);
		CHECK_EQ(cfg.eve[0].sink.redis_mode, modes[i].want);
	}
	CHECK_EQ(load(&cfg, "outputs:\n  - eve-log:\n      enabled: yes\n      filetype: redis\n"
		      "      redis:\n        server: 10.1.2.3\n        port: 6380\n        key: ids\n"
		      "        stream-maxlen: 0\n        stream-trim-exact: yes\n"
		      "        pipelining:\n          enabled: yes\n          batch-size: 50\n"
		      "      queue-size: 1mb\n      close-timeout: 0\n", err, sizeof(err)), 0);
	CHECK_STREQ(cfg.eve[0].sink.server, "10.1.2.3");
	CHECK_EQ(cfg.eve[0].sink.port, 6380);
	CHECK_STREQ(cfg.eve[0].sink.key, "ids");
	CHECK_EQ(cfg.eve[0].sink.batch_size, 50);
	CHECK_EQ(cfg.eve[0].sink.stream_maxlen, 0);
	CHECK(cfg.eve[0].sink.stream_trim_exact);
	CHECK_EQ(cfg.eve[0].sink.queue_size, 1u << 20);
	CHECK_EQ(cfg.eve[0].sink.close_timeout_ms, 0);
	/* pipelining off: batch-size given but one command a round trip */
	CHECK_EQ(load(&cfg, "outputs:\n  - eve-log:\n      enabled: yes\n      filetype: redis\n"
		      "      redis:\n        pipelining:\n          enabled: no\n"
		      "          batch-size: 50\n", err, sizeof(err)), 0);
	CHECK_EQ(cfg.eve[0].sink.batch_size, 1);
	conf_deinit();
}
#else
/* A build without hiredis refuses filetype redis with the reason. */
TEST(sink_config_redis_without_hiredis_says_so)
{
	static OutputConfig cfg;
	char err[256] = "";

	CHECK_EQ(load(&cfg, "outputs:\n  - eve-log:\n      enabled: yes\n      filetype: redis\n",
		      err, sizeof(err)), -1);
	CHECK(strstr(err, "no redis support") != NULL);
	CHECK(strstr(err, "libhiredis-dev") != NULL);
	conf_deinit();
}
#endif

TEST(sink_config_syslog_and_sockets)
{
	static OutputConfig cfg;
	char err[256] = "";

	CHECK_EQ(load(&cfg, "outputs:\n  - eve-log:\n      enabled: yes\n      filetype: syslog\n",
		      err, sizeof(err)), 0);
	CHECK_STREQ(cfg.eve[0].sink.identity, "suricata");
	CHECK_EQ(cfg.eve[0].sink.facility, LOG_LOCAL5);
	CHECK_EQ(cfg.eve[0].sink.level, LOG_INFO);
	CHECK_STREQ(cfg.eve[0].sink.path, "/dev/log");
	CHECK_EQ(load(&cfg, "outputs:\n  - eve-log:\n      enabled: yes\n      filetype: syslog\n"
		      "      identity: ids\n      facility: daemon\n      level: Warning\n"
		      "      prefix: \"@cee: \"\n", err, sizeof(err)), 0);
	CHECK_STREQ(cfg.eve[0].sink.identity, "ids");
	CHECK_EQ(cfg.eve[0].sink.facility, LOG_DAEMON);
	CHECK_EQ(cfg.eve[0].sink.level, LOG_WARNING);
	CHECK_STREQ(cfg.eve[0].prefix, "@cee: ");
	/* a socket's filename is joined to the log folder like a file's */
	CHECK_EQ(load(&cfg, "outputs:\n  - eve-log:\n      enabled: yes\n"
		      "      filetype: unix_stream\n      filename: eve.sock\n", err, sizeof(err)), 0);
	CHECK(cfg.eve[0].sink.transport == &sink_unix_stream);
	CHECK_STREQ(cfg.eve[0].sink.path, "/var/log/x/eve.sock");
	CHECK_EQ(load(&cfg, "outputs:\n  - eve-log:\n      enabled: yes\n"
		      "      filetype: unix_dgram\n      filename: /run/eve.sock\n", err,
		      sizeof(err)), 0);
	CHECK(cfg.eve[0].sink.transport == &sink_unix_dgram);
	CHECK_STREQ(cfg.eve[0].sink.path, "/run/eve.sock");
	conf_deinit();
}

TEST(sink_config_bad_values_name_the_key)
{
	static OutputConfig cfg;
	static const struct { const char *yaml, *key; } bad[] = {
		{ "filetype: kafka\n", "outputs.0.eve-log.filetype" },
		{ "filetype: redis\n      redis:\n        mode: queue\n", "outputs.0.eve-log.redis.mode" },
		{ "filetype: redis\n      redis:\n        port: 70000\n", "outputs.0.eve-log.redis.port" },
		{ "filetype: redis\n      redis:\n        pipelining:\n          enabled: yes\n"
		  "          batch-size: 0\n", "outputs.0.eve-log.redis.pipelining.batch-size" },
		{ "filetype: syslog\n      facility: local9\n", "outputs.0.eve-log.facility" },
		{ "filetype: syslog\n      level: loud\n", "outputs.0.eve-log.level" },
		{ "filetype: unix_dgram\n      queue-size: 1kb\n", "outputs.0.eve-log.queue-size" },
		{ "filename: e.json\n  - eve-log:\n      enabled: yes\n      filename: e.json\n",
		  "outputs.1.eve-log.filename: /var/log/x/e.json is the file of an earlier" },
		{ "filetype: unix_dgram\n      filename: /tmp/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.sock\n",
		  "outputs.0.eve-log.filename" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char yaml[512], err[256] = "";

		snprintf(yaml, sizeof(yaml), "outputs:\n  - eve-log:\n      enabled: yes\n      %s",
			 bad[i].yaml);
		CHECK_EQ(load(&cfg, yaml, err, sizeof(err)), -1);
		if (!strstr(err, bad[i].key)) {
			printf("  case %zu: '%s' does not name %s\n", i, err, bad[i].key);
			CHECK(0);
		}
	}
	conf_deinit();
}

/* Several eve-log outputs, each with its own types; type options come from
 * the first output that lists the type. */
TEST(sink_config_several_eve_outputs)
{
	static OutputConfig cfg;
	char err[256] = "";

	CHECK_EQ(load(&cfg, "outputs:\n"
		      "  - eve-log:\n      enabled: yes\n      filename: alerts.json\n"
		      "      types:\n        - alert:\n            payload: yes\n"
		      "  - eve-log:\n      enabled: no\n      filename: off.json\n"
		      "  - eve-log:\n      enabled: yes\n      filename: dns.json\n"
		      "      types: [dns]\n"
		      "  - eve-log:\n      enabled: yes\n      filetype: unix_stream\n"
		      "      filename: all.sock\n"
		      "      types:\n        - alert:\n            payload: no\n        - dns\n"
		      "        - flow\n", err, sizeof(err)), 0);
	CHECK_EQ(cfg.neve, 3);
	CHECK_STREQ(cfg.eve[0].file.path, "/var/log/x/alerts.json");
	CHECK_EQ(cfg.eve[0].ntypes, 1);
	CHECK_STREQ(cfg.eve[1].file.path, "/var/log/x/dns.json");
	CHECK_STREQ(cfg.eve[1].types[0], "dns");
	CHECK(cfg.eve[2].sink.transport == &sink_unix_stream);
	CHECK_STREQ(cfg.eve[2].sink.path, "/var/log/x/all.sock");
	CHECK_EQ(cfg.eve[2].ntypes, 3);
	CHECK(cfg.eve_alert.payload);   /* the first output's alert options */
	conf_deinit();
}

static json_t *rec(const char *type, int n)
{
	return json_pack("{s:s,s:i}", "event_type", type, "n", n);
}

/* Records go to the outputs that list their type, and only there; a
 * fileinfo record goes where "files" is listed, a tagged "packet" where
 * "alert" is; a prefix is written first. */
TEST(sink_eve_outputs_route_by_type)
{
	char *dir = mkdtemp(strdup("/tmp/test_sink.XXXXXX"));
	char yaml[1024], path[512], *a, *d;
	Outputs *o;

	CHECK(dir);
	snprintf(yaml, sizeof(yaml), "outputs:\n"
		 "  - eve-log:\n      enabled: yes\n      filename: a.json\n"
		 "      types: [alert, files]\n"
		 "  - eve-log:\n      enabled: yes\n      filename: d.json\n      prefix: \"@cee: \"\n"
		 "      types: [dns, alert]\n");
	o = open_in(dir, yaml);
	CHECK(o);
	CHECK(outputs_eve_enabled(o, "alert"));
	CHECK(outputs_eve_enabled(o, "dns"));
	CHECK(!outputs_eve_enabled(o, "flow"));
	eve_write(o, rec("alert", 1));
	eve_write(o, rec("dns", 2));
	eve_write(o, rec("fileinfo", 3));
	eve_write(o, rec("flow", 4));   /* listed nowhere: written nowhere */
	eve_write(o, rec("packet", 5)); /* a tagged packet: where alert is */
	outputs_close(o);
	path_in(path, sizeof(path), dir, "a.json");
	a = slurp(path);
	path_in(path, sizeof(path), dir, "d.json");
	d = slurp(path);
	CHECK(a && d);
	CHECK_STREQ(a, "{\"event_type\":\"alert\",\"n\":1}\n{\"event_type\":\"fileinfo\",\"n\":3}\n"
		    "{\"event_type\":\"packet\",\"n\":5}\n");
	CHECK_STREQ(d, "@cee: {\"event_type\":\"alert\",\"n\":1}\n"
		    "@cee: {\"event_type\":\"dns\",\"n\":2}\n"
		    "@cee: {\"event_type\":\"packet\",\"n\":5}\n");
	free(a);
	free(d);
	rm_tree(dir);
	free(dir);
	conf_deinit();
}

static int dgram_listen(const char *path)
{
	struct sockaddr_un sa;
	int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	struct timeval tv = { 2, 0 };

	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	unlink(path);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return fd;
}

/* A unix_dgram output: one datagram per record, newline-terminated, in
 * order; the writer thread does the sending, close delivers what is left. */
TEST(sink_unix_dgram_delivers_in_order)
{
	char *dir = mkdtemp(strdup("/tmp/test_sink.XXXXXX"));
	char yaml[1024], sock[256], buf[256];
	Outputs *o;
	int fd;

	CHECK(dir);
	snprintf(sock, sizeof(sock), "%s/eve.sock", dir);
	fd = dgram_listen(sock);
	CHECK(fd >= 0);
	snprintf(yaml, sizeof(yaml), "outputs:\n  - eve-log:\n      enabled: yes\n"
		 "      filetype: unix_dgram\n      filename: eve.sock\n      types: [alert]\n");
	o = open_in(dir, yaml);
	CHECK(o);
	for (int i = 0; i < 5; i++)
		eve_write(o, rec("alert", i));
	outputs_close(o);
	for (int i = 0; i < 5; i++) {
		char want[64];
		ssize_t n = recv(fd, buf, sizeof(buf) - 1, 0);

		CHECK(n > 0);
		buf[n] = '\0';
		snprintf(want, sizeof(want), "{\"event_type\":\"alert\",\"n\":%d}\n", i);
		CHECK_STREQ(buf, want);
	}
	close(fd);
	rm_tree(dir);
	free(dir);
	conf_deinit();
}

/* Nobody listening: pushes never block, and every record ends up counted
 * as dropped (queue full) or failed (still queued when close gave up). */
TEST(sink_down_counts_every_record)
{
	EveSinkConfig sc;
	EveSinkCounters c;
	EveSink *s;
	char err[256] = "", line[600];
	struct timeval a, b;
	long ms;
	int n = 0;

	memset(&sc, 0, sizeof(sc));
	sc.transport = &sink_unix_stream;
	snprintf(sc.path, sizeof(sc.path), "/tmp/test_sink.nobody.%d.sock", (int)getpid());
	sc.queue_size = 64u << 10;
	sc.batch_size = 1;
	s = sink_open(&sc, "test", err, sizeof(err));
	CHECK(s);
	memset(line, 'x', sizeof(line));
	gettimeofday(&a, NULL);
	for (int i = 0; i < 1000; i++, n++)
		sink_push(s, NULL, 0, line, sizeof(line));
	gettimeofday(&b, NULL);
	ms = (b.tv_sec - a.tv_sec) * 1000 + (b.tv_usec - a.tv_usec) / 1000;
	CHECK(ms < 500);        /* 1000 pushes: memcpy, no waiting */
	sink_counters(s, &c);
	CHECK_EQ(c.written, 0);
	CHECK(c.dropped > 0);
	CHECK_EQ(c.dropped + c.queued, (uint64_t)n);
	gettimeofday(&a, NULL);
	sink_close(s, 3000);    /* cannot connect: gives up at once */
	gettimeofday(&b, NULL);
	ms = (b.tv_sec - a.tv_sec) * 1000 + (b.tv_usec - a.tv_usec) / 1000;
	CHECK(ms < 1500);
}

/* The writer counts a record once its send returned, which may be just
 * after the listener has it: wait for the count. */
static void wait_written(EveSink *s, uint64_t n, EveSinkCounters *c)
{
	for (int i = 0; i < 200; i++) {
		sink_counters(s, c);
		if (c->written >= n)
			return;
		usleep(10000);
	}
}

static int recv_n(int fd, int n, char last[256])
{
	int got = 0;

	while (got < n) {
		ssize_t r = recv(fd, last, 255, 0);

		if (r <= 0)
			break;      /* SO_RCVTIMEO: 2 s */
		last[r] = '\0';
		got++;
	}
	return got;
}

/* The listener is not there at first: records wait in the queue and arrive
 * once it is (nothing lost, no reconnect counted: it is the first
 * connection). It goes away: the record sent into the void is failed, the
 * writer reconnects when a listener is back, and counts it. */
TEST(sink_waits_for_the_listener_and_reconnects)
{
	char *dir = mkdtemp(strdup("/tmp/test_sink.XXXXXX"));
	EveSinkConfig sc;
	EveSinkCounters c;
	EveSink *s;
	char err[256] = "", path[128], last[256];
	int fd;

	CHECK(dir);
	memset(&sc, 0, sizeof(sc));
	sc.transport = &sink_unix_dgram;
	snprintf(path, sizeof(path), "%s/l.sock", dir);
	snprintf(sc.path, sizeof(sc.path), "%s", path);
	sc.queue_size = 1u << 20;
	s = sink_open(&sc, "test", err, sizeof(err));
	CHECK(s);
	sink_push(s, NULL, 0, "r1", 2);
	sink_push(s, NULL, 0, "r2", 2);
	sink_push(s, NULL, 0, "r3", 2);
	usleep(150000);
	fd = dgram_listen(path);
	CHECK(fd >= 0);
	CHECK_EQ(recv_n(fd, 3, last), 3);
	CHECK_STREQ(last, "r3\n");
	wait_written(s, 3, &c);
	CHECK_EQ(c.written, 3);
	CHECK_EQ(c.failed, 0);
	CHECK_EQ(c.reconnects, 0);
	/* the listener goes: the next send finds no peer */
	close(fd);
	unlink(path);
	sink_push(s, NULL, 0, "r4", 2);
	for (int i = 0; i < 100; i++) {
		sink_counters(s, &c);
		if (c.failed)
			break;
		usleep(20000);
	}
	CHECK_EQ(c.failed, 1);
	fd = dgram_listen(path);
	CHECK(fd >= 0);
	sink_push(s, NULL, 0, "r5", 2);
	CHECK_EQ(recv_n(fd, 1, last), 1);
	CHECK_STREQ(last, "r5\n");
	wait_written(s, 4, &c);
	CHECK_EQ(c.written, 4);
	CHECK_EQ(c.reconnects, 1);
	sink_close(s, 1000);
	close(fd);
	rm_tree(dir);
	free(dir);
}
