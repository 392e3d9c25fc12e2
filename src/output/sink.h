/* eve-log network sinks: filetype syslog, unix_dgram, unix_stream, redis.
 *
 * A sink is a bounded queue (sink-queue.h) and one writer thread of its
 * own. eve_write_line() hands the formatted record to sink_push(), which copies
 * it into the queue or, when the queue is full, counts it as dropped: the
 * packet threads never wait on the network. The writer connects, sends in
 * batches, and on a failure disconnects and reconnects with a backoff
 * (100 ms doubling to 5 s); what it cannot deliver it counts as failed.
 * While it is disconnected records wait in the queue (oldest kept, newest
 * dropped when it fills), so a short outage loses nothing.
 *
 * A transport (sink-socket.c, sink-redis.c) is one SinkTransport: its
 * filetype name, the keys it reads, how logs name it, and connect / send /
 * disconnect; the writer loop here and the eve-log config know none of them
 * but through the registry, sink_transports[] in sink.c. A new filetype is
 * its file plus one line there (see doc/adding-a-protocol.md). */
#ifndef OUTPUT_SINK_H
#define OUTPUT_SINK_H

#include "output/output.h"

#include <stddef.h>
#include <stdint.h>

typedef struct EveSink EveSink;

/* What a sink has done so far; read by the stats writer. */
typedef struct EveSinkCounters {
	uint64_t written;     /* records delivered (redis: the server said OK) */
	uint64_t dropped;     /* refused: the queue was full (or record > 1 MiB) */
	uint64_t failed;      /* taken from the queue but not delivered: the
			       * connection failed under them, the server answered
			       * an error, or shutdown came before they could go */
	uint64_t reconnects;  /* connections made after the first */
	uint64_t queued;      /* records waiting now */
	uint64_t queued_bytes;
} EveSinkCounters;

/* One transport: conn is the sink's connection state (transport-owned). */
typedef struct SinkTransport {
	const char *name;       /* its eve-log filetype value */
	/* Reads its keys under prefix (an outputs.N.eve-log) into sc, whose
	 * queue-size and close-timeout are read already; path is the eve-log
	 * filename joined to the log folder. 0, or -1 with the key in err. */
	int (*load)(EveSinkConfig *sc, const char *prefix, const char *path, char *err,
		    size_t errlen);
	/* How logs name the sink: "redis 127.0.0.1:6379 (list suricata)" */
	void (*describe)(const EveSinkConfig *sc, char *buf, size_t len);
	/* NULL in a build without the library the transport needs: load says so */
	/* 0 when connected; -1 with a reason in err (not logged by the transport) */
	int (*connect)(void **conn, const EveSinkConfig *cfg, char *err, size_t errlen);
	/* Sends the n records of batch (sink_batch_next); sets *delivered and
	 * *rejected (the server refused them, the connection is fine). Returns
	 * 0, or -1 when the connection failed: the rest of the batch is lost
	 * and the writer reconnects. */
	int (*send)(void *conn, const EveSinkConfig *cfg, const uint8_t *batch, size_t n,
		    size_t *delivered, size_t *rejected, char *err, size_t errlen);
	void (*disconnect)(void *conn);
} SinkTransport;

extern const SinkTransport sink_unix_dgram, sink_unix_stream, sink_syslog, sink_redis;

/* The transport of an eve-log filetype value; NULL when none is called so.
 * sink_transport_names: "syslog, unix_dgram, ..." for error messages. */
const SinkTransport *sink_transport_find(const char *filetype);
void sink_transport_names(char *buf, size_t len);

/* sink-config.c, for the transports' load: prefix.key as a string (def when
 * absent or empty), or -1 with the key in err; and err as printf. */
int sink_conf_str(const char *prefix, const char *key, char *dst, size_t dstlen,
		  const char *def, char *err, size_t errlen);
void sink_conf_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Starts a sink for cfg (filetype other than regular); name is how logs and
 * counters call it. NULL with err set when it cannot be set up (out of
 * memory, no redis support in this build). Connecting is the writer's job:
 * a server down at start is a sink that queues and retries. */
EveSink *sink_open(const EveSinkConfig *cfg, const char *name, char *err, size_t errlen);
/* Thread-safe, never blocks on the network: 0, or -1 when dropped. */
int sink_push(EveSink *s, const char *prefix, size_t prefix_len, const char *line,
	      size_t len);
void sink_counters(EveSink *s, EveSinkCounters *c);
const char *sink_name(const EveSink *s);
/* Starts stopping the writer and returns: what sink_close() does first, so
 * that several sinks drain at the same time rather than one after another. */
void sink_stop(EveSink *s, int timeout_ms);
/* Stops the writer: it sends what is queued for at most timeout_ms (plus
 * the send in flight, 2 s at most), and gives up at once when it cannot
 * connect; the rest is counted as failed and one line says what was not
 * delivered. Frees the sink. */
void sink_close(EveSink *s, int timeout_ms);

#endif
