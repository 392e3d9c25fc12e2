/* The application layer: protocol detection on in-order stream bytes, then the
 * protocol's parser (HTTP/1 through libhtp 0.5; later DNS, TLS, ...). Each
 * protocol is one entry of the registry (app-layer/registry.c, ops in
 * app-layer-int.h); nothing outside src/app-layer names a protocol's parser
 * functions, only the generic calls below.
 *
 * This header is the boundary with the stream engine: it hands us each
 * direction's bytes in order, however it stores them, and tells us about gaps
 * and closed directions. Nothing here knows about TCP segments.
 *
 * Life cycle:
 *   start:   app_layer_config_load(), app_layer_register_counters() (before
 *            counters_freeze()), then one app_layer_thread_new() per worker;
 *   packets: app_layer_handle_data() per chunk of stream data; detection and
 *            output read transactions through the generic app_layer_tx_*()
 *            below (a protocol's own header, http.h, for its buffers and
 *            eve objects); app_layer_tx_gc() frees the transactions every
 *            user is done with;
 *   flow end: app_layer_flow_free() (from the flow table's end callback). */
#ifndef APP_LAYER_APP_LAYER_H
#define APP_LAYER_APP_LAYER_H

#include "flow/flow.h"
#include "stats/counters.h"

#include <stdint.h>

/* Flow->app_proto values: the index of the protocol's entry in the registry
 * (app-layer/registry.c). Suricata's eve "app_proto" names come from
 * app_proto_name(). UNKNOWN: not decided yet; FAILED: detection gave up
 * (eve prints "failed"). A new protocol gets its value here, before FAILED
 * (doc/adding-a-protocol.md). */
enum app_proto {
	ALPROTO_UNKNOWN = 0,
	ALPROTO_HTTP1 = 1,
	ALPROTO_TLS,
	ALPROTO_DNS,
	ALPROTO_SMTP,
	ALPROTO_SSH,
	ALPROTO_FTP,
	ALPROTO_FTPDATA,
	ALPROTO_DCERPC,
	ALPROTO_SMB,
	ALPROTO_MQTT,
	ALPROTO_SIP,
	ALPROTO_MDNS,
	ALPROTO_POP3,
	ALPROTO_IMAP,
	ALPROTO_LDAP,
	ALPROTO_KRB5,
	ALPROTO_SNMP,
	ALPROTO_PGSQL,
	ALPROTO_WEBSOCKET,
	ALPROTO_DHCP,
	ALPROTO_TFTP,
	ALPROTO_NTP,
	ALPROTO_DNP3,
	ALPROTO_RFB,
	ALPROTO_RDP,
	ALPROTO_TELNET,
	ALPROTO_HTTP2,
	ALPROTO_ENIP,
	ALPROTO_MODBUS,
	ALPROTO_IKE,
	ALPROTO_BITTORRENT_DHT,
	ALPROTO_NFS,
	ALPROTO_QUIC,
	ALPROTO_DOH2,
	ALPROTO_FAILED,
	ALPROTO_MAX
};

/* AppProtoOps.ipprotos bits */
#define APP_IPPROTO_TCP 0x01
#define APP_IPPROTO_UDP 0x02

/* Directions, as the stream engine knows them. */
#define APP_DIR_TOSERVER 0
#define APP_DIR_TOCLIENT 1

/* app_layer_handle_data() flags */
#define APP_EOF 0x01   /* this direction is closed (FIN/RST/flow end); may come with data */
#define APP_GAP 0x02   /* len bytes are missing here; data is NULL */
#define APP_MIDSTREAM 0x04 /* the session was picked up midstream: its first
                            * packet may have come from the server */
#define APP_ONESIDED 0x08  /* stream.async-oneside: only this side is seen, the
                            * other's answers never come */

/* app_layer_handle_data() result: on a midstream flow the first bytes of dir
 * are what the other side would send (a response going to the server): the
 * data was not consumed; the caller reverses the flow (flow_swap() and the
 * stream's, detection's per-direction state) and feeds the same bytes again
 * as the other direction, as Suricata's protocol detection does. Once per flow. */
#define APP_REVERSE 1

/* libhtp personalities by Suricata's names (libhtp.default-config.personality). */
enum http_personality {
	HTTP_PERS_MINIMAL = 0, HTTP_PERS_GENERIC, HTTP_PERS_IDS, HTTP_PERS_IIS_4_0,
	HTTP_PERS_IIS_5_0, HTTP_PERS_IIS_5_1, HTTP_PERS_IIS_6_0, HTTP_PERS_IIS_7_0,
	HTTP_PERS_IIS_7_5, HTTP_PERS_APACHE_2,
};

#define APP_MAX_DETECT_PORTS 64
#define APP_DNS_TCP 0
#define APP_DNS_UDP 1

typedef struct AppLayerConfig {
	/* app-layer.protocols.http.enabled: yes (1), detection-only (2), no (0) */
	int http_enabled;
	/* app-layer.protocols.http.detection-ports (port fallback when the content
	 * is inconclusive); default "80" plus common proxies: Suricata uses dp 80 */
	uint16_t http_ports[APP_MAX_DETECT_PORTS];
	unsigned http_nports;
	/* bytes seen in a direction without a decision before detection falls back
	 * to ports, then fails */
	uint32_t detect_max_bytes;

	/* app-layer.protocols.http.libhtp.default-config.* */
	enum http_personality personality;          /* personality: IDS */
	uint64_t request_body_limit;                /* request-body-limit: 100kb */
	uint64_t response_body_limit;               /* response-body-limit: 100kb */
	uint64_t request_body_minimal_inspect_size; /* 32kb */
	uint64_t request_body_inspect_window;       /* 4kb */
	uint64_t response_body_minimal_inspect_size;/* 40kb */
	uint64_t response_body_inspect_window;      /* 16kb */
	int response_body_decompress_layer_limit;   /* 2 */
	uint64_t decompression_time_limit_us;       /* libhtp default */
	int double_decode_path;                     /* no */
	int double_decode_query;                    /* no */
	int uri_include_all;                        /* no: uri is path+query only */
	int meta_field_limit;                       /* 18k: header line limit */
	int lzma_enabled;                           /* yes */
	uint64_t lzma_memlimit;                     /* 1mb */
	int compression_bomb_limit;                 /* 1mb */
	uint32_t max_tx;                            /* app-layer.protocols.http.max-tx: 512 */
	uint64_t http_memcap;                       /* app-layer.protocols.http.memcap: 64mb, 0 = unlimited */
	/* app-layer.protocols.http.byterange: the files reassembled out of
	 * 206 responses (http-range.h) */
	uint64_t byterange_memcap;                  /* memcap: 100mb, 0 = unlimited */
	uint32_t byterange_timeout;                 /* timeout: 60 (seconds) */
	/* app-layer.memcap: the parsers Suricata 8 gives no memcap of their
	 * own (TLS, SMTP, SMB, DCERPC, SSH; app-mem.h), together. 0 = unlimited */
	uint64_t memcap;

	/* app-layer.protocols.dns.{tcp,udp}: enabled, detection-ports.dp
	 * (index APP_DNS_TCP / APP_DNS_UDP; default yes, 53) */
	int dns_enabled[2];
	uint16_t dns_ports[2][APP_MAX_DETECT_PORTS];
	unsigned dns_nports[2];

	/* frames (frames.h) are made: some rule inspects them or eve logs
	 * them. Set by the caller after the rules and outputs are known. */
	int frames;
	/* ... and the "stream" frame of each TCP direction (frames.h) too:
	 * APP_STREAM_FRAME_USED when some rule inspects one;
	 * APP_STREAM_FRAME_ID_ONLY when only eve logs frames: Suricata then
	 * makes every frame type, so the stream frame takes a direction's
	 * first id (1) ahead of the protocol's (suricata-verify
	 * http-gap-simple-frames-ips), but nothing reads or logs it */
	int frames_stream;
} AppLayerConfig;
#define APP_STREAM_FRAME_USED    1
#define APP_STREAM_FRAME_ID_ONLY 2

/* Defaults, then the YAML keys above. 0, or -1 with an error line naming the key. */
int app_layer_config_load(AppLayerConfig *cfg);

/* app_layer.flow.http, app_layer.tx.http, app_layer.error.http.{gap,alloc,
 * parser,internal}, app_layer.flow.failed_tcp. Call before counters_freeze(). */
void app_layer_register_counters(void);

typedef struct AppLayerThread AppLayerThread;

/* Whether any protocol is enabled (a worker without: no app layer). */
int app_layer_enabled(const AppLayerConfig *cfg);
/* The protocols the yaml switched off (app-layer.protocols.X.enabled: no),
 * bit ALPROTO_X: their rules are skipped, as Suricata 8 skips them. */
uint64_t app_layer_protos_off(const AppLayerConfig *cfg);

/* One per worker; cfg must outlive it (read-only, shared). */
AppLayerThread *app_layer_thread_new(const AppLayerConfig *cfg, ThreadCounters *tc);
void app_layer_thread_free(AppLayerThread *at);

/* dir: APP_DIR_*. data: the next in-order bytes of that direction (NULL with
 * APP_GAP). Detects the protocol (content first, on any port; ports as a
 * fallback), sets f->app_proto, then runs the parser; transactions appear in
 * http.h. Returns 0, APP_REVERSE (above), or -1 when the data was not parsed
 * (parser error, app layer disabled, failed detection): that is counted,
 * never fatal. */
int app_layer_handle_data(AppLayerThread *at, Flow *f, int dir, const uint8_t *data,
			  uint32_t len, int flags);

/* Per-transaction "done with it" flags; a transaction is freed by
 * app_layer_tx_gc() once complete in both directions and every flag in the
 * caller's mask is set. */
#define APP_TX_LOGGED        0x01  /* eve tx record written */
#define APP_TX_DETECT_TS     0x02  /* detection done toserver */
#define APP_TX_DETECT_TC     0x04  /* detection done toclient */
#define APP_TX_FILE_LOGGED   0x08  /* eve fileinfo written */
/* set by the parser: the transaction exists in one direction only (Suricata
 * 8's per-message DNS transactions); detection skips its other side */
#define APP_TX_ONLY_TS       0x10
#define APP_TX_ONLY_TC       0x20

/* Frees finished transactions of f whose flags include all of need. Cheap; call
 * after detect + output for each packet of an app-layer flow. */
void app_layer_tx_gc(Flow *f, unsigned need);

/* Whether detection should leave f's payload (packets and stream) alone
 * from now on: the protocol said so (SSH once encrypted, as Suricata's
 * encryption-handling track-only and bypass). Header, flow and
 * transaction rules still apply. */
int app_layer_flow_no_inspection(const Flow *f);
/* Whether, when f's payload inspection stops, the raw stream bytes not
 * inspected yet get one last inspection (AppProtoOps.no_inspection_flush). */
int app_layer_flow_no_inspection_flush(const Flow *f);
/* A parser's request that dir's raw stream be inspected at the next
 * chance, whatever the chunk size (Suricata's trigger-raw: TLS on each
 * complete record). */
void app_layer_trigger_raw(Flow *f, int dir);
/* Packet-level app-layer events (Suricata's, raised by protocol detection
 * on the packet whose data showed them; eve anomaly "layer": "proto_detect"):
 * bits of app_layer_take_packet_events(). */
#define APP_PEV_MISMATCH_BOTH_DIRECTIONS 0x01  /* the two sides named different protocols */
/* a protocol change (app_layer_request_proto_change) found another protocol
 * than the one it asked for; and that one was TLS (STARTTLS, AUTH TLS) */
#define APP_PEV_UNEXPECTED_PROTOCOL      0x02
#define APP_PEV_NO_TLS_AFTER_STARTTLS    0x04
/* The events f's data raised since the last call (then cleared); 0 without
 * app-layer state. */
unsigned app_layer_take_packet_events(Flow *f);
/* "APPLAYER_MISMATCH_PROTOCOL_BOTH_DIRECTIONS", ... for one APP_PEV_* bit, else NULL. */
const char *app_layer_packet_event_name(unsigned bit);

/* Whether dir's protocol detection finished since a packet of that
 * direction was last told (then cleared): Suricata flags the packet whose
 * data finished it, or the next one of that direction (PKT_APP_DETECT_DONE). */
int app_layer_take_detect_done(Flow *f, int dir);

/* 1 once f's protocol asks for the flow to be bypassed (AppProtoOps.bypass). */
int app_layer_flow_bypass(const Flow *f);

/* Frees f->alstate (any protocol); f->alstate is NULL afterwards. */
void app_layer_flow_free(Flow *f);

/* "http", "failed", "unknown" (eve app_proto names). */
const char *app_proto_name(uint16_t alproto);
/* ALPROTO_* by rule / config name ("http", "http1"; any case), or -1. */
int app_proto_by_name(const char *name);
/* Whether a rule of protocol sigproto applies to a flow showing flowproto
 * (flow_app_proto_shown()), as Suricata 8's AppProtoEquals: dns and http2
 * rules apply to doh2 flows, doh2 rules to dns and http2 flows; else the
 * same protocol. */
static inline int app_proto_equals(uint16_t sigproto, uint16_t flowproto)
{
	if (sigproto == flowproto)
		return 1;
	if (flowproto == ALPROTO_DOH2)
		return sigproto == ALPROTO_DNS || sigproto == ALPROTO_HTTP2;
	if (sigproto == ALPROTO_DOH2)
		return flowproto == ALPROTO_DNS || flowproto == ALPROTO_HTTP2;
	return 0;
}
/* The APP_IPPROTO_* a protocol runs on (0 for UNKNOWN/FAILED). */
unsigned app_proto_ipprotos(uint16_t alproto);

/* ---- transactions, whatever the protocol ----
 *
 * Detection, transaction logging and outputs walk a flow's transactions
 * through these, never through a protocol's own header. A transaction is an
 * opaque pointer owned by the flow's parser. Ids are numbered from 0 in the
 * order transactions start; a tx exists from its first bytes until
 * app_layer_tx_gc() / app_layer_flow_free() (app_layer_tx_get() returns NULL
 * for freed ids). Each call is cheap: one table lookup by f->app_proto. */

/* Whether f's protocol has a parser state holding transactions now. Inline
 * for the flows without one (most: undecided or failed detection), which
 * every packet of the flow asks. */
int app_layer_flow_has_txs(const Flow *f);
static inline int app_layer_has_txs(const Flow *f)
{
	if (!f || !f->alstate || f->app_proto == ALPROTO_UNKNOWN || f->app_proto >= ALPROTO_FAILED)
		return 0;
	return app_layer_flow_has_txs(f);
}
/* The next tx id (transactions ever started); 0 without transactions. */
uint64_t app_layer_tx_count(const Flow *f);
/* The transactions eve's flow record counts (tx_cnt): Suricata's own
 * count, which may leave out transactions ours keep only internally (SMB's
 * silent requests); app_layer_tx_count() for most protocols. */
uint64_t app_layer_tx_cnt(const Flow *f);
/* The transaction with this id, or NULL (not started yet, or freed). */
void *app_layer_tx_get(const Flow *f, uint64_t id);
/* The gc's low-water mark: every id below it is freed, so a walk over the
 * live transactions starts there (app_layer_tx_count() when none is live;
 * 0 without transactions; a protocol that keeps no mark: the first id of
 * its parser). */
uint64_t app_layer_tx_low(const Flow *f);
uint64_t app_layer_tx_id(const Flow *f, const void *tx);
/* The id eve prints (tx_id); may differ from app_layer_tx_id() (HTTP
 * CONNECT tunnels restart their numbering). */
uint64_t app_layer_tx_log_id(const Flow *f, const void *tx);
/* Progress of a side (APP_DIR_*), protocol-defined and increasing; the side
 * is done when it reaches app_proto_progress_complete(). */
int app_layer_tx_progress(const Flow *f, const void *tx, int dir);
int app_proto_progress_complete(uint16_t alproto);

/* ---- rule hooks (Suricata 8: "tls:client_hello_done", firewall rules) ----
 * The states of a protocol's transaction a rule may be hooked to, per side,
 * in the order a transaction passes them: Suricata's name, the side
 * (APP_DIR_*) and the progress (app_layer_tx_progress) from which the
 * transaction has reached it. Several names may share a progress where our
 * parser does not tell Suricata's states apart: they are then reached
 * together, still evaluated one after the other. */
typedef struct AppHook {
	const char *name;
	uint8_t dir;
	uint8_t progress;           /* APP_HOOK_COMPLETE: the side's progress_complete */
	const char *alias;          /* another name of the same hook (a later
	                             * Suricata's), or NULL */
} AppHook;
#define APP_HOOK_COMPLETE 0xffu
/* alproto's table (its AppProtoOps.hooks, else Suricata's generic four:
 * request_started, request_complete, response_started,
 * response_complete), in order; *n: its length. NULL for no protocol. */
const AppHook *app_proto_hooks(uint16_t alproto, int *n);
/* The index of the hook called name in alproto's table, or -1. */
int app_hook_find(uint16_t alproto, const char *name);
/* The progress at which hook h (of alproto's table) is reached. */
int app_hook_progress(uint16_t alproto, const AppHook *h);
/* The transaction's "done" flags (APP_TX_*); set_flags ORs them in. */
unsigned app_layer_tx_flags(const Flow *f, const void *tx);
void app_layer_tx_set_flags(const Flow *f, void *tx, unsigned flags);
/* One slot for detection's per-tx state, freed with the tx through the
 * function registered once at start (NULL: not freed). */
void **app_layer_tx_detect_slot(const Flow *f, void *tx);
/* The slot's state, zeroed, allocated on first call (HTTP counts it in
 * http.memuse); NULL when out of memory. */
void *app_layer_tx_detect_alloc(const Flow *f, void *tx, size_t size);
void app_layer_set_detect_state_free(void (*fn)(void *state));

/* ---- app-layer events: "<proto>.<name>" ---- */

/* Event id (>= 0) of alproto by name without the "<proto>." prefix, or -1
 * (also for a protocol without events). */
int app_layer_event_lookup(uint16_t alproto, const char *name);
/* Whether alproto's parser raises events at all. */
int app_proto_has_events(uint16_t alproto);
/* Whether the parser raised event id on tx (of f's protocol). */
int app_layer_tx_has_event(const Flow *f, const void *tx, int id);

#endif
