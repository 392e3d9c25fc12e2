/* Shared by the files of src/output only. */
#ifndef OUTPUT_OUTPUT_PRIVATE_H
#define OUTPUT_OUTPUT_PRIVATE_H

#include "output/output.h"
#include "output/flow-writer.h"

#include <pthread.h>
#include <stdio.h>

/* An output's log file (file-out.c): records gathered whole in buf and
 * written with one write(2); failures counted, said once, retried. */
typedef struct OutputFile {
	int fd;                     /* -1: disabled (or a sink's output) */
	char *buf;                  /* whole records not written yet */
	size_t used;
	const char *path;           /* the configuration's: reopening, log lines */
	uint64_t write_errors;      /* write(2) calls that failed or wrote short */
	uint64_t lost;              /* records that could not be written */
	unsigned fail_streak;       /* failed writes since the last one that worked */
	int failing;                /* the failure was said; said again when it ends */
	int cut;                    /* the file ends inside a line: '\n' first */
	int regular;                /* a regular file: a cut write can be taken back */
	int reopen_failed;          /* SIGHUP's reopen failed: each flush tries again */
	pthread_mutex_t lock;
} OutputFile;

/* eve.json takes ~1,500 records a second of traffic, flows mostly: one
 * write(2) per 64 KiB of records */
#define OUTPUT_FILE_BUF (1u << 16)

/* file-out.c. open: nothing (fd -1) when fc is not enabled; 0, or -1 with
 * err set. The lock is the caller's to init (outputs_open inits them all
 * first) and close destroys it. */
int output_file_open(OutputFile *of, const OutputFileConfig *fc, char *err, size_t errlen);
void output_file_close(OutputFile *of);
/* SIGHUP: writes what is buffered, then opens the file again by name. */
int output_file_reopen(OutputFile *of);
/* run-as: the open file given to uid/gid (fchown), so that the dropped user
 * can open it again on SIGHUP. 0 (also when disabled), or -1 with errno. */
int output_file_chown(OutputFile *of, unsigned uid, unsigned gid);
void output_file_flush(OutputFile *of);
/* Writes prefix, line and '\n' as one record under the file's lock. */
void output_file_write_prefixed(OutputFile *of, const char *pre, size_t prelen,
				const char *line, size_t len);
/* A block of lines (stats.log's table) as one record, written now. */
void output_file_write_now(OutputFile *of, const char *text, size_t len);
void output_file_counters(OutputFile *of, uint64_t *write_errors, uint64_t *lost);

struct EveSink;

/* One eve-log output: a file (regular) or a sink (the other filetypes). */
typedef struct EveOutput {
	OutputFile file;
	struct EveSink *sink;
	uint64_t type_mask;         /* its types: bit = index in output.c's type table */
	const char *prefix;         /* cfg's prefix; "" for none */
	size_t prefix_len;
	uint64_t prev[4];           /* sink counters at the last stats record (deltas) */
	uint64_t file_prev[2];      /* the file's write_errors and lost, the same */
	/* Fields Suricata adds last to each record of this output: "host"
	 * (sensor-name, the same for all) and "pcap_filename" (per output). */
	char host_json[700];        /* ',"host":"NAME"' (NAME escaped), or "" */
	size_t host_len;
	int pcap_file;
} EveOutput;

struct Outputs {
	OutputConfig cfg;
	EveOutput eve[OUTPUT_EVE_MAX];
	unsigned neve;
	uint64_t eve_types;         /* the union of the outputs' type_mask */
	const char *(*pcap_name)(void *);   /* outputs_set_pcap_filename() */
	void *pcap_name_arg;
	/* With several outputs a record goes to all of them under this lock,
	 * so that every output has the records in one order (a redis list
	 * equals the eve.json written next to it, line for line). */
	pthread_mutex_t order_lock;
	OutputFile fast, stats;
	uint64_t file_prev[2][2];   /* fast's and stats.log's counters (deltas) */
	/* types looked up once: frame and anomaly are asked per packet */
	int eve_flow, eve_stats, eve_frame, eve_anomaly, eve_arp;
	unsigned eve_stream;        /* EVE_STREAM_* of any output that lists "stream" */
	int eve_netflow;            /* "netflow": written with the flow records */
	int eve_files;              /* "files" (or "fileinfo"): asked per packet */
	uint64_t *prev;             /* last stats snapshot, for eve deltas */
	size_t nprev;
	uint64_t pressure, prev_pressure, pressure_max;   /* memcap.pressure (stats.c) */
	uint64_t eve_unfit;         /* written records that did not fit (atomic) */
	/* flow records' writer thread during a run (outputs_run_start), or
	 * NULL: written by the thread that ends the flow */
	FlowWriter *flow_writer;
	struct PcapLog *pcap_log;   /* pcap-log.c: its files; NULL when off */
};

/* eve.c: a flow record in two steps, for the writer thread: the view of f
 * at its end (any thread), then the record of a view. */
void flow_record_view(const Flow *f, enum flow_end_reason why, FlowRecordView *v);
/* Frees what flow_record_view() copied for the record (its flowvars). */
void flow_record_view_release(FlowRecordView *v);
void flow_record_write(Outputs *o, const FlowRecordView *v);

/* tls-store.c: outputs.N.tls-store's keys at prefix (0, or -1 with err),
 * and its folder made at open (0, or -1 with err). */
int tls_store_config_load(OutputConfig *cfg, const char *prefix, const char *log_dir,
			  char *err, size_t errlen);
int tls_store_open(const OutputConfig *cfg, char *err, size_t errlen);

/* pcap-log.c: outputs.N.pcap-log's keys at prefix (0, or -1 with err);
 * its shared state made at open (0, or -1 with err: lz4 asked without
 * liblz4) and closed, every file flushed, after the packet threads. */
int pcap_log_config_load(OutputConfig *cfg, const char *prefix, const char *log_dir,
			 char *err, size_t errlen);
int pcap_log_open(Outputs *o, char *err, size_t errlen);
void pcap_log_close(Outputs *o);

/* netflow.c: a flow's "netflow" records (one per direction that sent),
 * from its end view, as flow_record_write() writes its "flow" record. */
void netflow_records_write(Outputs *o, const FlowRecordView *v);

/* Writes len bytes and a newline under the file's lock. */
void output_file_write_line(OutputFile *of, const char *line, size_t len);

/* Writes one record made with the JSON writer, of that event_type (which
 * routes it among several eve-log outputs); len 0: it did not fit and is
 * counted, reported when the outputs close. Thread-safe. */
void eve_write_line(Outputs *o, const char *event_type, const char *line, size_t len);

struct JsonWriter;
/* Writes the record build() makes with the JSON writer (jw_begin and
 * jw_end are done here): into 16 KiB on the stack, and once more into 1 MiB
 * on the heap where that did not fit (long headers, a chain, a 64 KiB DNS
 * message); then eve_write_line(). */
void eve_write_built(Outputs *o, const char *event_type,
		     void (*build)(struct JsonWriter *w, void *ctx), void *ctx);
/* eve_write_built()'s first half: the record's bytes, at *line (stack, or
 * heap the caller frees when *line is not stack); 0 when it did not fit.
 * Tried in cap bytes of stack, then 1 MiB of heap, four times larger each
 * try up to max bytes (alerts: their stream payloads; the others
 * EVE_LINE_MAX). */
#define EVE_LINE_MAX ((size_t)1 << 20)
size_t eve_build(char *stack, size_t cap, size_t max, char **line,
		 void (*build)(struct JsonWriter *w, void *ctx), void *ctx);

/* For a type whose options are each output's own (EveTypeOptions: dns,
 * tls, smtp): fn is called once per group of the outputs that take type
 * and have the same options by same(), with the group (outs, bits of
 * o->eve) and those options; it builds its records with them and writes
 * them with eve_write_built_to(outs). */
void eve_each_option_group(Outputs *o, const char *type,
			   int (*same)(const EveTypeOptions *a, const EveTypeOptions *b),
			   void (*fn)(Outputs *o, uint32_t outs, const EveTypeOptions *opts,
				      void *ctx),
			   void *ctx);
/* eve_write_built(), to the outputs outs only. */
void eve_write_built_to(Outputs *o, uint32_t outs,
			void (*build)(struct JsonWriter *w, void *ctx), void *ctx);
/* The options of the first output that takes type (a record of another
 * type that carries type's members: smtp's fileinfo records); defaults
 * when none does. */
const EveTypeOptions *outputs_type_options(const Outputs *o, const char *type);

/* eve_header()'s fields, through the JSON writer. */
void eve_header_write(struct JsonWriter *w, const struct timeval *ts, const char *event_type,
		      const Packet *p, const Flow *f);
/* A one-way record of flow f (netflow): to_client names the flow's server
 * as source; an ICMP flow shows that side's own first type and code as
 * icmp_type/icmp_code, and no response_icmp_*, as Suricata's netflow. */
void eve_header_write_dir(struct JsonWriter *w, const struct timeval *ts,
			  const char *event_type, const Flow *f, int to_client);
/* A transaction's record: the flow's tuple (to_client: the server as
 * source); p, the packet it is logged on (NULL: none), gives the time,
 * in_iface, pcap_cnt and the ether object (oriented as the tuple). */
void eve_header_write_tx(struct JsonWriter *w, const char *event_type, const Packet *p,
			 const Flow *f, int to_client);
/* Addresses written in place of the record's source or destination (xff's
 * overwrite mode, output/xff.h); NULL: the record's own. */
typedef struct EveAddrOverride {
	const char *src, *dst;
} EveAddrOverride;
void eve_header_write_ov(struct JsonWriter *w, const struct timeval *ts, const char *event_type,
			 const Packet *p, const Flow *f, const EveAddrOverride *ov);
void eve_header_write_tx_ov(struct JsonWriter *w, const char *event_type, const Packet *p,
			    const Flow *f, int to_client, const EveAddrOverride *ov);
/* eve-log "ethernet": ether objects in packet and transaction records; set
 * once by outputs_open, before any thread writes (flow records read the
 * output's own setting). */
void eve_set_ethernet(int enabled);

/* The "alert" member of an alert record (alert.c), for the drop records;
 * _object: the object as a tree, for tests. */
struct AlertInfo;
struct AlertVerdict;
void output_alert_write(struct JsonWriter *w, const Outputs *o, const struct AlertInfo *a);
/* The "verdict" object of an alert or drop record: v's action ("alert",
 * "pass", "drop"), and for a reject its target and kind (tcp-reset for TCP,
 * icmp-prohib otherwise). An unset action is "drop" when p was dropped in
 * IPS mode, else "alert". */
void output_verdict_write(struct JsonWriter *w, const Packet *p, const struct AlertVerdict *v,
			  int ips);

json_t *output_alert_object(const Outputs *o, const struct AlertInfo *a);

/* sink-config.c: the keys of a network filetype tp (NULL: a regular file)
 * under prefix (an outputs.N.eve-log); path is filename joined to the log
 * folder. */
int eve_sink_config_load(EveSinkConfig *sc, const struct SinkTransport *tp,
			 const char *prefix, const char *path, char *err, size_t errlen);

/* The name of eve output i's counters in the stats record: its filetype,
 * with _2, _3 ... for the second and later outputs of that filetype. */
void output_sink_stats_name(const Outputs *o, unsigned i, char *buf, size_t len);

/* anomaly.c: one parser event of a transaction as an anomaly record
 * (type applayer, layer proto_parser), its name as Suricata 8 writes it:
 * upper case (upper) for the protocols whose parser is C there, with an
 * event table of upper-case names (http, tls, smtp), as it is for those
 * whose parser is Rust (ssh, dns, smb, ...). */
void output_anomaly_parser_event(Outputs *o, const Packet *p, const Flow *f,
				 const char *app_proto, const char *event, int upper,
				 uint64_t tx_id);


/* alert.c: Suricata's printable form (printable ASCII, CR and LF kept,
 * any other byte '.') as a string member. */
void output_write_printable(struct JsonWriter *w, const char *key, const uint8_t *data,
			    size_t len);

/* frame-json.c: the members of the "frame" object of frame fr of direction
 * dir of f, as an alert on it and the frame record carry it. */
struct AppFrame;
void output_frame_write(struct JsonWriter *w, const Packet *p, const Flow *f, int dir,
			const struct AppFrame *fr);

/* eve.c's formatting helpers, for the alert writers (alert.c). */
void output_format_addr(const Address *a, uint8_t ip_version, char *buf, size_t len);
/* Protocol keyword ("TCP", "IPv6-ICMP"), or NULL when the number has none. */
const char *output_proto_keyword(uint8_t proto);
/* The app-layer namer's name for app_proto, or NULL. */
const char *output_app_proto_name(uint16_t app_proto);

/* An application protocol's eve logger: one entry per protocol in
 * tx-log.c's table, the functions in the protocol's own file (http-log.c). */
typedef struct EveTxLogger {
	/* the records of one transaction, once (output_tx_log) */
	void (*log_tx)(Outputs *o, const Packet *p, const Flow *f, void *tx);
	/* the members an alert on the tx gets ("http": {...}, "files": [..]),
	 * written into the alert record w; -1 when the tx has none. Called
	 * again when the record is retried in a larger buffer: reads only */
	int (*alert_write)(struct JsonWriter *w, const Flow *f, void *tx);
	/* optional, in alert_write's place: the same with the alert type's
	 * options, for a protocol whose alert members depend on them (HTTP's
	 * http-body and http-body-printable) */
	int (*alert_write_opts)(struct JsonWriter *w, const Flow *f, void *tx,
				const struct OutputAlertConfig *ac);
	/* optional, for a protocol that carries files (files_of_tx): the
	 * fileinfo record of tx on packet p (NULL: at the flow's end), its
	 * header and the protocol's members, app_proto included, written
	 * into w's open record; the file logger (file-log.c) adds "fileinfo"
	 * and decides when. dir: the file's (APP_DIR_*): Suricata 8 writes
	 * the header's addresses the way the file went (a download's source
	 * is the server). -1: no record (nothing written) */
	int (*file_record_write)(struct JsonWriter *w, const Outputs *o, const Packet *p,
				 const Flow *f, void *tx, int dir);
	/* optional: the tx's parser events not written yet, as anomaly
	 * records of packet p (output_tx_log_events) */
	void (*log_events)(Outputs *o, const Packet *p, const Flow *f, void *tx);
} EveTxLogger;

/* file-log.c: the files of tx not logged yet that are over, through l's
 * file_record_write (output_tx_log_files); 1 when none is left waiting. */
int eve_files_log(Outputs *o, const EveTxLogger *l, const Packet *p, const Flow *f, void *tx,
		  int final);
/* file-log.c: the "files" array of an alert on a transaction, the files of
 * the n containers; nothing when they hold none. */
struct FileContainer;
void output_files_write(struct JsonWriter *w, struct FileContainer *const fcs[], int n);

extern const EveTxLogger eve_http_logger;   /* http-log.c */
extern const EveTxLogger eve_tls_logger;    /* tls-json.c */
extern const EveTxLogger eve_dns_logger;    /* dns-log.c */
extern const EveTxLogger eve_smtp_logger;   /* smtp-json.c */
extern const EveTxLogger eve_ssh_logger;    /* ssh-json.c */
extern const EveTxLogger eve_mqtt_logger;   /* mqtt-json.c */
extern const EveTxLogger eve_ftp_logger;    /* ftp-json.c */
extern const EveTxLogger eve_ftpdata_logger; /* ftp-json.c */
extern const EveTxLogger eve_dcerpc_logger; /* dcerpc-json.c */
extern const EveTxLogger eve_smb_logger;    /* smb-json.c */
extern const EveTxLogger eve_sip_logger;    /* sip-json.c */
extern const EveTxLogger eve_mdns_logger;   /* mdns-json.c */
extern const EveTxLogger eve_pop3_logger;   /* pop3-json.c */
extern const EveTxLogger eve_ldap_logger;   /* ldap-json.c */
extern const EveTxLogger eve_krb5_logger;   /* krb5-json.c */
extern const EveTxLogger eve_snmp_logger;   /* snmp-json.c */
extern const EveTxLogger eve_pgsql_logger;  /* pgsql-json.c */
extern const EveTxLogger eve_websocket_logger; /* websocket-json.c */
extern const EveTxLogger eve_dhcp_logger;   /* dhcp-json.c */
extern const EveTxLogger eve_tftp_logger;   /* tftp-json.c */
extern const EveTxLogger eve_ntp_logger;    /* ntp-json.c */
extern const EveTxLogger eve_dnp3_logger;   /* dnp3-json.c */
extern const EveTxLogger eve_rfb_logger;    /* rfb-json.c */
extern const EveTxLogger eve_rdp_logger;    /* rdp-json.c */
extern const EveTxLogger eve_http2_logger;  /* http2-json.c */
extern const EveTxLogger eve_enip_logger;   /* enip-json.c */
extern const EveTxLogger eve_modbus_logger; /* modbus-json.c */
extern const EveTxLogger eve_ike_logger;    /* ike-json.c */
extern const EveTxLogger eve_bittorrent_dht_logger; /* bittorrent-dht-json.c */
extern const EveTxLogger eve_nfs_logger;    /* nfs-json.c */
extern const EveTxLogger eve_quic_logger;   /* quic-json.c */
/* dns-log.c: the `- dns:` options under prefix (NULL: the defaults). */
int eve_dns_config_load(struct dns_json_cfg *c, const char *prefix, char *err, size_t errlen);

/* The app-layer members of an alert on transaction tx_id of f, by f's
 * protocol's logger, written into the alert record w (alert.c); ac: the
 * alert type's options. */
void output_tx_alert_write(struct JsonWriter *w, const Flow *f, uint64_t tx_id,
			   const struct OutputAlertConfig *ac);
/* metadata's "flowvars"/"pktvars": [{"name": "value"}, ...], non-printable
 * bytes as '.', as Suricata prints them; nothing when n is 0 */
struct AlertVar;
void output_vars_write(struct JsonWriter *w, const char *key, const struct AlertVar *v,
		       unsigned n);

/* alert.c: "packet" (base64 of the frame, its first max bytes when max is
 * not 0) and "packet_info" {linktype, linktype_name}. */
void output_packet_write(struct JsonWriter *w, const Packet *p, uint32_t max);
/* Suricata's "pkt_src" of a packet: "wire/pcap", "defrag". */
const char *output_pkt_src(const Packet *p);

#endif
