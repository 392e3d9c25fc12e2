/* Private to src/app-layer: what app-layer.c (detection, dispatch) and the
 * protocol parsers (http.c) share. Not for other subsystems. */
#ifndef APP_LAYER_APP_LAYER_INT_H
#define APP_LAYER_APP_LAYER_INT_H

#include "app-layer/app-layer.h"
#include "util/exception-policy.h"

/* Protocol detection's verdict on a direction's first bytes. A probe may
 * also answer DET_REVERSED: the protocol's, but sent the other way (a UDP
 * flow's first datagram is a DNS response): the app layer turns the flow
 * round when it still may, as Suricata's probes tell their caller. */
enum det_state { DET_NONE = 0, DET_MORE, DET_NO, DET_YES, DET_REVERSED };

/* One application protocol: what the app layer, detection, transaction
 * logging and outputs need of it. An entry of app_protos[] (registry.c),
 * indexed by its enum app_proto value. Optional members may be NULL. */
typedef struct AppProtoOps {
	const char *name;           /* eve app_proto, rule protocol, counter names */
	const char *alias;          /* another rule name ("http1"), or NULL */
	unsigned ipprotos;          /* APP_IPPROTO_* */

	/* configuration: defaults, then the YAML keys (0, or -1 with an error
	 * line naming the key); enabled: 0 no, 1 yes, 2 detection-only */
	void (*config_defaults)(AppLayerConfig *cfg);
	int (*config_load)(AppLayerConfig *cfg);
	int (*enabled)(const AppLayerConfig *cfg);
	/* app_layer.tx.<name>, app_layer.error.<name>.*, ...; before
	 * counters_freeze() (app_layer.flow.<name> is registered for it) */
	void (*register_counters)(void);

	/* per worker (the parser's read-only config); NULL: none */
	void *(*thread_new)(const AppLayerConfig *cfg);
	void (*thread_free)(void *ctx);

	/* detection on a direction's first bytes (the flow's ports for port
	 * fallbacks): DET_YES, DET_MORE (need more bytes), DET_NO, or
	 * DET_REVERSED (the other direction's message) */
	int (*probe)(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
		     uint32_t len);
	/* midstream: the same bytes as the other direction would send them
	 * (patterns only); NULL: the protocol is never reversed */
	int (*probe_reversed)(int dir, const uint8_t *buf, uint32_t len);

	/* parser state per flow, and the bytes of one direction (a gap with
	 * APP_GAP, the end with APP_EOF): 0, or -1 on a parser error */
	void *(*state_new)(AppLayerThread *at, Flow *f);
	void (*state_free)(void *state);
	int (*parse)(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
		     uint32_t len, int flags);
	/* 1: the bytes of a side detection said no to are not parsed once
	 * the other side named the protocol (app-layer.c undet_keep()) */
	uint8_t skip_undetected;

	/* tunnels (HTTP CONNECT): once started, the parser keeps each
	 * direction's bytes for tunnel_take() (caller frees); detection runs
	 * again on them and tunnel_restart() opens a fresh parser for this
	 * protocol inside (-1: past the limit). NULL: no tunnels.
	 * tunnel_take() also hands over, after app_layer_request_proto_change(),
	 * the bytes the parser got past the change (tunnel_started NULL then). */
	int (*tunnel_started)(void *state);
	uint8_t *(*tunnel_take)(void *state, int dir, uint32_t *len);
	int (*tunnel_restart)(AppLayerThread *at, Flow *f, void *state);
	/* after app_layer_request_proto_change() to this protocol: the new
	 * state may take what it needs of the old protocol's (from), still
	 * alive here (HTTP/2 after h2c takes the HTTP/1 request as its
	 * stream 1); NULL: nothing */
	void (*take_over)(AppLayerThread *at, Flow *f, void *state, unsigned from,
			  void *old_state);

	/* a flow another one announced (expect.h): the expectation's data,
	 * handed to the new state (which then owns it); NULL: the protocol is
	 * never expected */
	void (*expect_attach)(void *state, void *data, void (*data_free)(void *));

	/* 1 once the flow's payload is not to be inspected any more (SSH
	 * after NEWKEYS, TLS after application data: ciphertext); NULL:
	 * always inspected */
	int (*no_inspection)(const void *state);
	/* 1: the raw stream bytes of the direction not inspected yet when
	 * no_inspection turns on are inspected then, once (TLS: Suricata
	 * disables its raw reassembly with a last flush); 0: they are left
	 * (SSH) */
	int no_inspection_flush;
	/* 1 once the protocol gives the flow up for good (encryption-handling
	 * bypass, once encrypted): the flow is bypassed locally, no more
	 * stream, app layer or detection (flow_bypass_local); NULL: never */
	int (*bypass)(const void *state);

	/* transactions (app-layer.h says what callers may assume) */
	uint64_t (*tx_count)(const void *state);
	/* eve flow tx_cnt, when the protocol makes transactions Suricata does
	 * not (app_layer_tx_cnt()); NULL: tx_count */
	uint64_t (*tx_cnt)(const void *state);
	void *(*tx_get)(const void *state, uint64_t id);
	/* the gc's low-water mark: every id below it is freed (tx_count()
	 * when none is live); walks start there. NULL: 0 */
	uint64_t (*tx_low)(const void *state);
	uint64_t (*tx_id)(const void *tx);
	uint64_t (*tx_log_id)(const void *tx);
	int (*tx_progress)(const void *tx, int dir);
	int progress_complete;      /* tx_progress() of a side that is done; the
	                             * values run 0 (nothing yet) .. this, at
	                             * most 4 (detection packs both sides'
	                             * progress into a byte) */
	unsigned (*tx_flags)(const void *tx);
	void (*tx_set_flags)(void *tx, unsigned flags);
	void **(*tx_detect_slot)(void *tx);
	void (*tx_gc)(void *state, unsigned need);

	/* app-layer-event:<name>.<event>; NULL: no events */
	int (*event_lookup)(const char *event);
	int (*tx_has_event)(const void *tx, int id);

	/* frames (frames.h): the names of its frame types by type number,
	 * Suricata's ("nbss.pdu", "pdu"), NULL-terminated; NULL: no frames */
	const char *const *frame_names;

	/* rule hooks (app-layer.h, AppHook), ending with a NULL name; NULL:
	 * Suricata's generic request/response started and complete */
	const struct AppHook *hooks;
} AppProtoOps;

/* The registry (registry.c): one line per protocol. NULL for UNKNOWN and
 * FAILED. */
extern const AppProtoOps *const app_protos[ALPROTO_MAX];

static inline const AppProtoOps *app_proto_ops(unsigned alproto)
{
	return alproto < ALPROTO_MAX ? app_protos[alproto] : NULL;
}

/* The protocols' entries, each in its own file. */
extern const AppProtoOps http_proto_ops;   /* http-proto.c */
extern const AppProtoOps tls_proto_ops;    /* tls-proto.c */
extern const AppProtoOps dns_proto_ops;    /* dns-proto.c */
extern const AppProtoOps smtp_proto_ops;   /* smtp-proto.c */
extern const AppProtoOps ssh_proto_ops;    /* ssh-proto.c */
extern const AppProtoOps ftp_proto_ops;    /* ftp-proto.c */
extern const AppProtoOps ftpdata_proto_ops; /* ftp-data-proto.c */
extern const AppProtoOps dcerpc_proto_ops; /* dcerpc-proto.c */
extern const AppProtoOps smb_proto_ops;    /* smb-proto.c */
extern const AppProtoOps mqtt_proto_ops;   /* mqtt-proto.c */
extern const AppProtoOps sip_proto_ops;    /* sip-proto.c */
extern const AppProtoOps mdns_proto_ops;   /* mdns-proto.c */
extern const AppProtoOps pop3_proto_ops;   /* pop3-proto.c */
extern const AppProtoOps imap_proto_ops;   /* imap-proto.c */
extern const AppProtoOps ldap_proto_ops;   /* ldap-proto.c */
extern const AppProtoOps krb5_proto_ops;   /* krb5-proto.c */
extern const AppProtoOps snmp_proto_ops;   /* snmp-proto.c */
extern const AppProtoOps pgsql_proto_ops;  /* pgsql-proto.c */
extern const AppProtoOps websocket_proto_ops; /* websocket-proto.c */
extern const AppProtoOps dhcp_proto_ops;   /* dhcp-proto.c */
extern const AppProtoOps tftp_proto_ops;   /* tftp-proto.c */
extern const AppProtoOps ntp_proto_ops;    /* ntp-proto.c */
extern const AppProtoOps dnp3_proto_ops;   /* dnp3-proto.c */
extern const AppProtoOps rfb_proto_ops;    /* rfb-proto.c */
extern const AppProtoOps rdp_proto_ops;    /* rdp-proto.c */
extern const AppProtoOps telnet_proto_ops; /* telnet-proto.c */
extern const AppProtoOps http2_proto_ops;  /* http2-proto.c */
extern const AppProtoOps doh2_proto_ops;   /* doh2-proto.c */
extern const AppProtoOps enip_proto_ops;   /* enip-proto.c */
extern const AppProtoOps modbus_proto_ops; /* modbus-proto.c */
extern const AppProtoOps ike_proto_ops;    /* ike-proto.c */
extern const AppProtoOps bittorrent_dht_proto_ops; /* bittorrent-dht-proto.c */
extern const AppProtoOps nfs_proto_ops;    /* nfs-proto.c */
extern const AppProtoOps quic_proto_ops;   /* quic-proto.c */

/* Frees a transaction's detect slot with the function detection registered
 * (app_layer_set_detect_state_free); for the parsers' tx free paths. */
void app_layer_detect_state_free(void *state);
/* The same for a protocol under app-layer.memcap (app-mem.h): its
 * detect slots were counted when app_layer_tx_detect_alloc() made them. */
void app_layer_detect_state_free_proto(unsigned alproto, void *state);

/* Config helpers for the protocols' config_load: "100kb", "18k" sizes (1
 * found, 0 absent, -1 invalid, logged), booleans, and port lists ("80",
 * "[80, 8080]", "8000:8010", a YAML sequence) into ports[max] (-1 invalid,
 * logged). */
int app_conf_size(const char *key, uint64_t *out);
/* An integer or a size in 0..max (1 found, 0 absent, -1 invalid or out of
 * range: one error line naming the key and the value). */
int app_conf_int_range(const char *key, int64_t *out, int64_t max);
int app_conf_size_range(const char *key, uint64_t *out, uint64_t max);
int app_conf_bool(const char *key, int *out);
int app_conf_ports(const char *key, uint16_t *ports, unsigned max, unsigned *n);
/* A boolean that may also be the word (any case), which gives word_value;
 * *out is kept when the key is absent. 0, or -1 on an invalid value (logged). */
int app_conf_bool_or(const char *key, const char *word, int word_value, int *out);
/* A protocol's "enabled": yes (1), no (0), detection-only (2), as above. */
int app_conf_enabled(const char *key, int *out);
/* <prefix>enabled as above and <prefix>detection-ports.dp into ports (at
 * most APP_MAX_DETECT_PORTS); both are read, -1 when either is invalid. */
int app_conf_enabled_ports(const char *prefix, int *enabled, uint16_t *ports, unsigned *nports);

/* Counter ids, registered once by app_layer_register_counters(). */
typedef struct AppLayerCounters {
	counter_id flow[ALPROTO_MAX]; /* app_layer.flow.<proto>[_tcp] */
	counter_id flow_udp[ALPROTO_MAX]; /* app_layer.flow.<proto>[_udp] */
	counter_id flow_failed_tcp; /* app_layer.flow.failed_tcp */
	counter_id flow_failed_udp; /* app_layer.flow.failed_udp */
	counter_id tx_http;         /* app_layer.tx.http */
	counter_id err_http_gap;    /* app_layer.error.http.gap */
	counter_id err_http_alloc;  /* app_layer.error.http.alloc */
	counter_id err_http_parser; /* app_layer.error.http.parser */
	counter_id err_http_internal;
	counter_id err_http_exc;    /* app_layer.error.http.exception_policy */
	/* app_layer.error.<proto>[_tcp|_udp].exception_policy.<policy>, by
	 * transport (1: UDP), protocol and policy; 0 where none is
	 * registered (app-layer.error-policy: ignore) */
	counter_id err_exc[2][ALPROTO_MAX][EP_POLICY_COUNT];
} AppLayerCounters;

extern AppLayerCounters app_layer_counters;
extern int app_layer_counters_registered;

/* A parser error or memcap stops f's parsing: app-layer.error-policy is
 * applied to f (flow_exception) and counted, engine-wide and in f's
 * protocol's app_layer.error.<proto>.exception_policy.<policy>. */
void app_layer_error_exception(Flow *f, ThreadCounters *tc);

struct AppLayerThread {
	const AppLayerConfig *cfg;
	ThreadCounters *tc;
	/* per protocol: its thread_new() context (HTTP: the libhtp config,
	 * refcounted by the flows using it) */
	void *ctx[ALPROTO_MAX];
};

/* f->alstate: detection state, then the protocol's parser state. */
typedef struct AppFlowState {
	uint8_t det[2];             /* enum det_state per direction */
	uint8_t eof[2];
	uint8_t held_len[2];
	uint8_t held[2][24];        /* bytes kept while content detection needs more */
	uint32_t seen[2];           /* bytes seen before a decision */
	/* TCP: the bytes of a side detection said no to while the other side
	 * may still name the protocol, for its parser then (undet_keep()) */
	uint8_t *undet[2];
	uint32_t undet_len[2];
	uint32_t undet_lost[2];     /* past APP_UNDET_MAX: a gap after them */
	uint8_t tunnel;             /* enum tunnel_state (app-layer.c) */
	uint8_t reversed;           /* APP_REVERSE was asked (once per flow) */
	uint16_t change_to;         /* app_layer_request_proto_change() pending */
	/* a change is being made: its new parser's first bytes are parsed
	 * (Suricata's FLOW_CHANGE_PROTO, cleared once detection ended) */
	uint8_t changing;
	uint64_t change_pkt;        /* ... asked on this packet of the flow */
	uint64_t tx_base;           /* tx ids of earlier parsers of the flow (a change) */
	uint8_t expect_tried;       /* the expectations were asked (expect.h) */
	uint8_t mem_stopped;        /* app-layer.memcap stopped its parser (app-mem.h) */
	/* per direction, bit 1 << APP_DIR_*: dir_done, the direction's own
	 * detection result (Flow.app_proto_ts/tc) is final; dir_gap, its
	 * detection ended on a gap (the result stays unknown, as in Suricata) */
	uint8_t dir_done;
	uint8_t dir_gap;
	/* packet-level events (APP_PEV_*) raised since the runmode last took
	 * them (app_layer_take_packet_events), and the ones ever raised */
	uint8_t pkt_events, pkt_events_raised;
	/* per direction, bit 1 << APP_DIR_*: its protocol detection (or a
	 * protocol change) finished and no packet of that direction has
	 * been told yet (app_layer_take_detect_done) */
	uint8_t detect_done;
	uint8_t frames_on;          /* AppLayerConfig.frames when the flow began
	                             * (APP_FRAMES_ON), frames_stream (..._STREAM) */
	struct AppFrames *frames;   /* frames.c: NULL until the first frame */
	void *proto;                /* the parser state of f->app_proto's entry */
} AppFlowState;

/* frames.c, for app-layer.c: the parser was handed len bytes of dir (or a
 * gap of len, or the end with APP_EOF): the next data starts len further.
 * UDP: frames_datagram() before each datagram's parse. */
#define APP_FRAMES_ON     1
#define APP_FRAMES_STREAM 2
#define APP_FRAMES_STREAM_ID_ONLY 4  /* the stream frame only holds its id */
void frames_advance(Flow *f, AppFlowState *fs, int dir, uint32_t len, int flags);
/* ... and before that parse: opens the stream frame at a direction's first
 * bytes (APP_FRAMES_STREAM). */
void frames_begin(Flow *f, AppFlowState *fs, int dir, uint32_t len, int flags);
void frames_datagram(Flow *f, AppFlowState *fs, int dir);
void frames_free(AppFlowState *fs);

/* From a parser's parse(): the flow continues as protocol alproto from the
 * bytes after the ones just parsed (SMTP's STARTTLS: TLS; an HTTP CONNECT
 * could use it too). The change happens on the flow's first app-layer data
 * of a later packet, so that detection and logging of this packet still see
 * the old parser's transactions (as Suricata's protocol change); then the
 * old parser goes, the bytes it held past the change (its tunnel_take())
 * go to the new one, f->app_proto becomes alproto and f->app_proto_orig
 * the old protocol, and transaction ids go on from the old parser's count. */
void app_layer_request_proto_change(Flow *f, unsigned alproto);
/* Whether a change asked now would be made: not while one is pending or
 * being made, up to the end of the new parser's first parse (Suricata 8
 * refuses a change during another: HTTP/1 found after STARTTLS upgrading
 * to h2c in its first bytes), nor while a CONNECT tunnel is detected. A
 * later change is made, as Suricata's. */
int app_layer_proto_change_allowed(const Flow *f);

/* ---- http.c (the libhtp parser; its ops entry is in http-proto.c) ---- */
struct HttpCfg *http_cfg_new(const AppLayerConfig *cfg);
void http_cfg_put(struct HttpCfg *hc);
void *http_state_new(AppLayerThread *at, Flow *f);
void http_state_free(void *state);
/* Feeds one direction's bytes (or a gap / eof). 0, or -1 on a parser error. */
int http_parse(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
	       uint32_t len, int flags);
void http_tx_gc(void *state, unsigned need);
/* CONNECT tunnels: once libhtp switched to tunnel mode, http_parse() keeps
 * each direction's bytes for http_tunnel_take() (caller frees) instead of
 * parsing them; http_tunnel_restart() opens a new parser for tunnelled HTTP
 * (0, or -1 past the limit of nested tunnels). */
int http_tunnel_started(void *state);
/* The request of a 101 to an Upgrade the flow switched on (http-upgrade.h):
 * "METHOD URI\r\n" then its "Name: value\r\n" header lines; -1: none. */
int http_upgrade_request(const void *state, const uint8_t **p, uint32_t *len);
/* ... and the 101's own "Name: value\r\n" header lines; -1: none. */
int http_upgrade_response(const void *state, const uint8_t **p, uint32_t *len);
uint8_t *http_tunnel_take(void *state, int dir, uint32_t *len);
int http_tunnel_restart(AppLayerThread *at, Flow *f, void *state);
/* The transactions of an HttpState (http_tx_count/get by state). */
uint64_t http_state_tx_count(const void *state);
void *http_state_tx_get(const void *state, uint64_t id);
uint64_t http_state_tx_low(const void *state);

#endif
