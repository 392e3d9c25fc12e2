/* Outputs: eve.json (the JSON writer), fast.log and stats.log in the log
 * folder, read from Suricata's `outputs:` list and the top-level `stats:`
 * section.
 *
 * Life cycle: output_config_load() at start (conf tree -> OutputConfig), then
 * outputs_open() opens the files; writers are thread-safe (one mutex per file,
 * lines formatted outside the lock); outputs_close() flushes and frees. */
#ifndef OUTPUT_OUTPUT_H
#define OUTPUT_OUTPUT_H

#include "decode/packet.h"
#include "flow/flow.h"
#include "output/dns-json.h"
#include "output/xff.h"

#include <jansson.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>

#define OUTPUT_EVE_TYPES_MAX 64
#define OUTPUT_TYPE_NAME_MAX 32

typedef struct OutputFileConfig {
	int enabled;
	int append;                 /* "append", default yes as in Suricata */
	char path[PATH_MAX];        /* filename, joined to log_dir when relative */
} OutputFileConfig;

/* eve-log types: - alert: {...} options, Suricata's names and defaults. */
typedef struct OutputAlertConfig {
	int payload;                /* payload: base64 "payload" */
	int payload_printable;      /* payload-printable: "payload_printable" */
	int payload_length;         /* payload-length: "payload_length" */
	uint32_t payload_buffer_size; /* payload-buffer-size, default 4kb (stream data) */
	int packet;                 /* packet: base64 frame + "packet_info" */
	int flow;                   /* metadata (default yes): the "flow" object */
	int app_layer;              /* metadata: app-layer objects ("http", ...) */
	int rule_metadata;          /* metadata: the rule's metadata keyword */
	int rule_reference;         /* metadata.rule.reference (no): "references" */
	int rule_raw;               /* metadata.rule.raw (no): "rule", the rule's text */
	int http_body;              /* http-body (no): http.http_*_body, base64 */
	int http_body_printable;    /* http-body-printable (no): http.http_*_body_printable */
	int tagged_packets;         /* tagged-packets */
	XffConfig xff;              /* xff (output/xff.h) */
	int verdict;                /* verdict: the packet's final verdict */
	/* not a yaml option: the run policy's IPS mode (util/run-policy.h), set
	 * by the caller; a drop rule's alert says "blocked" and fast.log [Drop] */
	int ips;
} OutputAlertConfig;

/* eve-log types: - anomaly: {types: {decode, stream, applayer}, packethdr}.
 * Suricata's defaults: applayer only, no packet header. */
typedef struct OutputAnomalyConfig {
	int decode;                 /* decoder events of the packet */
	int stream;                 /* TCP stream events */
	int applayer;               /* app-layer (protocol detection, parser) events */
	int packethdr;              /* "packet": the frame's first 32 bytes */
} OutputAnomalyConfig;

/* eve-log redis.mode: lpush (alias list, the default), rpush, publish
 * (alias channel), xadd (alias stream). */
enum eve_redis_mode {
	EVE_REDIS_LPUSH = 0,
	EVE_REDIS_RPUSH,
	EVE_REDIS_PUBLISH,
	EVE_REDIS_XADD,
};

struct SinkTransport;

/* The destination of an eve-log output other than a regular file: its
 * filetype's transport (output/sink.h's registry) and the keys it reads. */
typedef struct EveSinkConfig {
	const struct SinkTransport *transport;  /* NULL: a regular file */
	char path[108];             /* unix_*: filename (sun_path); syslog: /dev/log */
	char identity[64];          /* syslog identity (default "suricata") */
	int facility;               /* syslog facility, LOG_LOCAL5 by default */
	int level;                  /* syslog level, LOG_INFO by default */
	char server[256];           /* redis.server (127.0.0.1) */
	uint16_t port;              /* redis.port (6379) */
	int redis_mode;             /* enum eve_redis_mode */
	char key[256];              /* redis.key (suricata): list, channel or stream */
	uint32_t batch_size;        /* records a send takes at most: redis.pipelining
				     * batch-size (10; 1 without); 0: the writer's */
	uint64_t stream_maxlen;     /* redis.stream-maxlen (100000), 0: no trimming */
	int stream_trim_exact;      /* redis.stream-trim-exact (no: MAXLEN ~) */
	uint64_t queue_size;        /* queue-size: bytes between engine and writer */
	uint32_t close_timeout_ms;  /* shutdown drains the queue this long at most */
} EveSinkConfig;

#define OUTPUT_EVE_MAX 8

/* - stream: options (stream-json.c) */
#define EVE_STREAM_EVENT_SET               0x1u  /* event-set */
#define EVE_STREAM_STATE_UPDATE            0x2u  /* state-update */
#define EVE_STREAM_SPURIOUS_RETRANSMISSION 0x4u  /* spurious-retransmission */
#define EVE_STREAM_ALL                     0x8u  /* all: every TCP packet */

/* The options of the types that decide which records an output takes and
 * what they hold: each eve-log output has its own, as in Suricata 8 (one
 * file takes only the A records of dns, another all of them). */
typedef struct EveTypeOptions {
	/* - dns: requests, responses, formats, types, version */
	struct dns_json_cfg dns;
	/* - tls: extended / custom (TLS_LOG_* of tls-json.h), session-resumption
	 * (log resumed sessions, which have no certificate) */
	uint32_t tls_fields;
	int tls_resumption;
	uint32_t smtp_fields;       /* - smtp: options: SMTP_LOG_* (output/smtp-json.h) */
	/* - stream: which TCP packets get a stream_tcp record (EVE_STREAM_*;
	 * 0: none, as Suricata with no option set) */
	unsigned stream;
} EveTypeOptions;

/* One `- eve-log:` output: its destination, its prefix and its types. */
typedef struct EveOutputConfig {
	OutputFileConfig file;      /* enabled, append, filename (joined to log_dir) */
	EveSinkConfig sink;         /* filetype and what it needs */
	char prefix[64];            /* prefix: written before each record */
	int pcap_file;              /* pcap-file (no): pcap_filename in each record
				     * when reading files (Suricata 8) */
	unsigned ntypes;
	char types[OUTPUT_EVE_TYPES_MAX][OUTPUT_TYPE_NAME_MAX];
	EveTypeOptions opts;        /* the options of its types (defaults if unset) */
} EveOutputConfig;

#define OUTPUT_HTTP_HDR_REQUEST  0x1
#define OUTPUT_HTTP_HDR_RESPONSE 0x2

/* outputs.N.pcap-log (pcap-log.c): the packets written back as pcap
 * files, as Suricata 8's pcap-log. */
enum { PCAP_LOG_NORMAL = 0, PCAP_LOG_MULTI };
enum { PCAP_LOG_ALL = 0, PCAP_LOG_ALERTS, PCAP_LOG_TAG };
typedef struct PcapLogConfig {
	int enabled;
	int mode;                   /* PCAP_LOG_NORMAL | PCAP_LOG_MULTI */
	int conditional;            /* PCAP_LOG_ALL | _ALERTS | _TAG */
	int ts_usec;                /* ts-format: usec (the names' time as sec.usec) */
	int use_stream_depth;       /* no TCP data past stream.reassembly.depth */
	int honor_pass_rules;       /* no packet of a flow a pass rule passed */
	int lz4;                    /* compression: lz4 */
	int lz4_level, lz4_checksum;
	uint64_t limit;             /* bytes a file holds before the next one */
	uint32_t max_files;         /* 0: every file kept; else a ring of that many */
	/* conditional: alerts: a flow's packets held until it alerts (ours):
	 * held-per-flow bytes a flow (1mb), held-memcap all flows (64mb) */
	uint64_t held_per_flow, held_memcap;
	char dir[PATH_MAX];         /* dir, or the log folder */
	char filename[256];         /* filename (multi: with %n %i %t) */
} PcapLogConfig;

typedef struct OutputConfig {
	OutputFileConfig fast;      /* outputs.N.fast */
	/* outputs.N.eve-log, in the order of the outputs list. The options of
	 * dns, tls and smtp are each output's own (EveTypeOptions); those of the
	 * other types (eve_alert, eve_anomaly, ...) and ethernet/community-id
	 * below are one set for all: those of the first eve-log that gives them. */
	EveOutputConfig eve[OUTPUT_EVE_MAX];
	unsigned neve;
	uint64_t eve_type_opts;     /* types whose options are loaded (bit: type index) */
	int eve_stats_totals;       /* eve-log types: - stats: {totals, threads, deltas} */
	int eve_stats_threads;
	int eve_stats_deltas;
	int eve_stats_null_values;  /* null-values (default yes): no = zero counters left out */
	OutputAlertConfig eve_alert; /* eve-log types: - alert: options */
	OutputAnomalyConfig eve_anomaly; /* eve-log types: - anomaly: options */
	int eve_ethernet;           /* eve-log.ethernet: "ether" objects, default no */
	int eve_metadata;           /* eve-log.metadata (yes): alerts' metadata.flowbits */
	int eve_community_id;       /* eve-log.community-id (no), community-id-seed (0) */
	uint16_t eve_community_seed;
	char sensor_name[128];      /* sensor-name (none): each record's "host" */
	/* eve-log types: - http: dump-all-headers (both|request|response) */
	unsigned eve_http_headers;  /* OUTPUT_HTTP_HDR_* */
	int eve_http_extended;      /* - http: extended (no, as Suricata 8) */
	uint64_t eve_http_custom;   /* - http: custom: bit i, http_custom_field() i */
	XffConfig eve_http_xff;     /* - http: xff (output/xff.h) */
	uint64_t eve_mqtt_string_limit; /* - mqtt: string-log-limit (1kb; 0 none) */
	int eve_pgsql_passwords;    /* - pgsql: passwords (no): the password in clear */
	unsigned eve_websocket_payload; /* - websocket: payload-base64, payload-printable (no) */
	int eve_dhcp_extended;      /* - dhcp: extended (no: only acks, few fields) */
	int eve_ike_extended;       /* - ike: extended (no): exchange_type_verbose */
	/* eve-log types: - drop: alerts (no), flows (start: one record a flow
	 * direction; all: every dropped packet) */
	int eve_drop_alerts;
	int eve_drop_flows_all;
	int eve_drop_verdict;           /* drop: verdict: yes */
	OutputFileConfig stats;     /* outputs.N.stats (stats.log) */
	int tls_store_enabled;      /* outputs.N.tls-store (tls-store.c) */
	char tls_store_dir[PATH_MAX]; /* its certs-log-dir, joined to the log folder */
	PcapLogConfig pcap_log;     /* outputs.N.pcap-log (pcap-log.c) */
	int stats_totals;
	int stats_threads;
	int stats_enabled;          /* top-level stats.enabled, default yes */
	uint32_t stats_interval;    /* top-level stats.interval (s), default 8 */
	/* memcaps behind Suricata's memcap.pressure, in OUTPUT_MEMCAP_* order:
	 * flow.memcap, stream.memcap, stream.reassembly.memcap */
	uint64_t memcaps[3];
	/* stats.detect.engines: the rule set the engine runs (filled by the
	 * caller after loading it; rules_at 0: no detection, no entry) */
	struct timeval rules_at;
	int rules_loaded, rules_failed, rules_skipped;
} OutputConfig;

/* Reads the conf tree. Returns 0, or -1 with one line in err naming the key. */
int output_config_load(OutputConfig *cfg, const char *log_dir, char *err, size_t errlen);

typedef struct Outputs Outputs;

/* Opens every enabled file (append or truncate as configured). NULL with err
 * set when a file cannot be opened. */
Outputs *outputs_open(const OutputConfig *cfg, char *err, size_t errlen);
void outputs_close(Outputs *o);
/* Records that every output file of this process could not write (a full
 * disk, a file size limit), over all the runs: the exit code says when it
 * is not 0 (3, doc/user-guide.md). */
uint64_t output_lost_total(void);

/* Around a run's packet threads (runmode_run): the flow records are
 * written by a thread of their own from start to stop (flow-writer.h),
 * except where a record names the capture file being read when it is
 * written (pcap_filename: only the packet threads know which is theirs).
 * stop writes what is queued; the packet threads must have ended. */
void outputs_run_start(Outputs *o);
void outputs_run_stop(Outputs *o);
/* The capture file being read, for eve-log's pcap-file option: fn(arg)
 * returns its name, or NULL when no file is read (live capture). Set once,
 * before the packets. */
void outputs_set_pcap_filename(Outputs *o, const char *(*fn)(void *), void *arg);
/* SIGHUP: each open file is closed and opened again by name, appending (log
 * rotation). Writers wait on the file's lock meanwhile. 0, or -1 when a file
 * could not be opened again (logged; its lines are lost until the next try). */
int outputs_reopen(Outputs *o);
/* run-as: each open file given to uid/gid before privileges go, as
 * Suricata gives its log files to run-as's user, so that SIGHUP can open
 * them again. 0, or -1 with one line (file, reason) in err. */
int outputs_chown(Outputs *o, unsigned uid, unsigned gid, char *err, size_t errlen);
/* Live runs, once a second: what the files buffer goes to disk, so that a
 * record is readable soon after its event on a quiet link. */
void outputs_flush(Outputs *o);
/* A rule reload: stats.detect.engines from now on (thread-safe). */
void outputs_set_rules(Outputs *o, const struct timeval *at, int loaded, int failed,
		       int skipped);

/* eve-log enabled and lists this type ("alert", "flow", "stats", ...). */
int outputs_eve_enabled(const Outputs *o, const char *type);

/* Writes one JSON object as one line to eve.json; thread-safe. Steals the
 * reference (the object is freed, written or not). For a record held as a
 * tree (the tests): the records of src/output are written with the JSON
 * writer (eve_write_built, output-private.h). */
void eve_write(Outputs *o, json_t *obj);

/* Whether eve records of a flow carry its community_id, and the seed: set
 * once by outputs_open, before any thread writes, read-only afterwards. */
void eve_set_community_id(int enabled, uint16_t seed);
/* Suricata's common fields in Suricata's order: timestamp, flow_id (if f),
 * in_iface (live: p's, else f's), pcap_cnt (if p and p->pcap_cnt), event_type, vlan (if any), src_ip,
 * src_port, dest_ip, dest_port (TCP/UDP/SCTP only), proto. Addresses come
 * from p when given, else from the flow key (client as src). As a tree,
 * for the tests: the records write it with eve_header_write(). */
json_t *eve_header(const struct timeval *ts, const char *event_type, const Packet *p,
		   const Flow *f);

/* Names app_proto ids for flow records; set by the app layer. NULL: omitted. */
typedef const char *(*app_proto_name_fn)(uint16_t app_proto);
void output_set_app_proto_namer(app_proto_name_fn fn);
/* The detection engine's flowvars of a flow (pcre captures), for the flow
 * record's metadata: fills at most max, returns the count. */
struct AlertVar;
typedef unsigned (*flowvar_source_fn)(const Flow *f, struct AlertVar *out, unsigned max);
void output_set_flowvar_source(flowvar_source_fn fn);

/* The eve records of one application-layer transaction of f (tx from
 * app_layer_tx_get()), by f's protocol's logger (tx-log.c): "http" and
 * "fileinfo" for HTTP. p (may be NULL) gives the time and pcap_cnt;
 * addresses follow the flow (client as source), as Suricata logs them.
 * Each is a no-op when eve does not list the type. Thread-safe. */
void output_tx_log(Outputs *o, const Packet *p, const Flow *f, void *tx);
/* Files log apart from their transaction's record, as Suricata 8's do:
 * each once it is over (closed, or cut by the stream depth), on a packet
 * of its direction, whatever the tx's progress; file-store finishes it
 * first, then its fileinfo record (file-log.c). output_tx_files_on():
 * f's protocol carries files and eve "files" or file-store wants them (no
 * per-packet file work otherwise; checked once a packet).
 * output_tx_log_files(): tx's files that can log now; 1 when none is left
 * waiting (always, without output_tx_files_on), 0 to be asked again on a
 * later packet. final: the flow ends (every file logs, the open ones
 * TRUNCATED). */
int output_tx_files_on(const Outputs *o, const Flow *f);
int output_tx_log_files(Outputs *o, const Packet *p, const Flow *f, void *tx, int final);
/* Suricata's anomaly logger runs on every packet for each transaction not
 * yet logged: an event raised while parsing is written on the packet whose
 * data raised it, with that packet's addresses (suricata-verify
 * smtp-errors: the server's invalid reply, ACKed by the client, has the
 * client as source). output_tx_events_on(): whether f's protocol writes
 * its events so and eve logs app-layer anomalies (checked once a packet);
 * output_tx_log_events(): the new events of tx. */
int output_tx_events_on(const Outputs *o, const Flow *f);
void output_tx_log_events(Outputs *o, const Packet *p, const Flow *f, void *tx);

/* The outputs' counters (pcap_log.written when the yaml enables
 * pcap-log), with the engine's at start. */
void pcap_log_register_counters(void);
/* Flow end: an eve "flow" record when enabled. Safe as a flow_end_fn body. */
void output_flow_end(Outputs *o, const Flow *f, enum flow_end_reason why);

/* Stats: an eve "stats" record (when eve has "stats") and a stats.log table
 * (when enabled). snapshot has counters_count() values (counters_snapshot()).
 * Call from one thread (the stats thread, or the main thread at the end): it
 * keeps the previous snapshot for eve "deltas". */
void output_stats(Outputs *o, const uint64_t *snapshot, const struct timeval *ts,
		  uint64_t uptime_s);

/* eve "anomaly" records of one packet: its decoder and stream events, as
 * the anomaly type's options select. Thread-safe; cheap when the packet has
 * no events or anomaly logging is off. meta (may be NULL): the flow's
 * variables for the records' "metadata" (eve metadata: yes). */
struct EveFlowMeta;
void output_anomaly(Outputs *o, const Packet *p, const struct EveFlowMeta *meta);
/* 1 when p raised an event that output_anomaly() may log. */
static inline int output_anomaly_pending(const Packet *p)
{
	return p && (p->nevents || p->stream_nevents || p->app_events);
}

/* eve `- frame` (frame-json.c): whether it is on; and the records of the
 * frames of p's direction of f that are complete (every one at eof), each
 * once (APP_FRAME_LOGGED). Thread-safe. */
int outputs_frames_enabled(const Outputs *o);
void output_frames(Outputs *o, const Packet *p, Flow *f, int eof);

/* One app-layer anomaly: type "applayer", app_proto, event, layer
 * ("proto_detect" for protocol detection, "proto_parser" for a parser's
 * transaction events; tx_id logged when has_tx). */
void output_anomaly_applayer(Outputs *o, const Packet *p, const Flow *f, const char *app_proto,
			     const char *event, const char *layer, int has_tx, uint64_t tx_id);

/* Writes one line to fast.log (a newline is added when missing); thread-safe.
 * No-op when fast.log is disabled. */
void fast_write_line(Outputs *o, const char *line);
int outputs_fast_enabled(const Outputs *o);

/* "2026-11-29T23:10:01.123456+0000", local time with its UTC offset. */
void eve_format_ts(const struct timeval *tv, char *buf, size_t len);

#endif
