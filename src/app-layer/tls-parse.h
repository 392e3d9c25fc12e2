/* TLS/SSL stream parser: one TlsState per flow, fed each direction's TCP
 * stream bytes in any segmentation. It reassembles records across segments
 * and handshake messages across records, decodes the hellos and the
 * certificate chains, tracks record-level state for ssl_state, and counts
 * anomalies under Suricata's tls event names (app-layer-event:tls.<name>).
 *
 * Pure: no logging, no globals, no config. Memory: a TlsState is one
 * allocation plus, per direction, a handshake reassembly buffer and the
 * certificate DER copies, each bounded (TLS_HS_MAX, TLS_CERTS_MAX_BYTES). */
#ifndef APP_LAYER_TLS_PARSE_H
#define APP_LAYER_TLS_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Directions, as the app-layer names them. */
#define TLS_TOSERVER 0
#define TLS_TOCLIENT 1

/* Wire version numbers. TLS 1.3 drafts are 0x7fNN (NN = draft) and
 * Facebook's fizz drafts 0xfbNN. */
#define TLS_V_SSL2 0x0002
#define TLS_V_SSL3 0x0300
#define TLS_V_10 0x0301
#define TLS_V_11 0x0302
#define TLS_V_12 0x0303
#define TLS_V_13 0x0304

/* Bounds. A hello carrying more than these keeps the first ones, counts
 * the rest (TlsHello.n*_total) and still parses; ja3 then covers what was
 * kept. */
#define TLS_MAX_CIPHERS 512
#define TLS_MAX_EXTS 64
#define TLS_MAX_GROUPS 64
#define TLS_MAX_POINT_FORMATS 16
#define TLS_MAX_SIGALGS 64
#define TLS_MAX_VERSIONS 16
#define TLS_MAX_COMPRESSION 16
#define TLS_SNI_MAX 255
#define TLS_CIPHERS_INLINE 4 /* a ServerHello's one suite, without a block */
#define TLS_ALPN_MAX 8      /* protocols kept per hello */
#define TLS_ALPN_BYTES 256  /* bytes kept for them */
/* One handshake message is reassembled up to this size; a larger one is
 * skipped (handshake_invalid_length) without losing the record sync. */
#define TLS_HS_MAX (256u * 1024u)
/* Per direction: at most this many certificates and DER bytes are kept. */
#define TLS_CERTS_MAX 16
#define TLS_CERTS_MAX_BYTES (256u * 1024u)
/* Records in one tls_parse() call before too_many_records_in_packet. */
#define TLS_MAX_RECORDS_PER_CALL 255

/* Events: the names are Suricata's (rules/tls-events.rules). */
enum tls_event {
	TLS_EV_INVALID_SSLV2_HEADER,
	TLS_EV_INVALID_TLS_HEADER,
	TLS_EV_INVALID_RECORD_VERSION,
	TLS_EV_INVALID_RECORD_TYPE,
	TLS_EV_INVALID_RECORD_LENGTH,
	TLS_EV_INVALID_HANDSHAKE_MESSAGE,
	TLS_EV_HEARTBEAT_MESSAGE,
	TLS_EV_INVALID_HEARTBEAT_MESSAGE,
	TLS_EV_OVERFLOW_HEARTBEAT_MESSAGE,
	TLS_EV_DATALEAK_HEARTBEAT_MISMATCH,
	TLS_EV_HANDSHAKE_INVALID_LENGTH,
	TLS_EV_MULTIPLE_SNI_EXTENSIONS,
	TLS_EV_INVALID_SNI_TYPE,
	TLS_EV_INVALID_SNI_LENGTH,
	TLS_EV_TOO_MANY_RECORDS_IN_PACKET,
	TLS_EV_INVALID_CERTIFICATE,
	TLS_EV_CERTIFICATE_INVALID_LENGTH,
	TLS_EV_CERTIFICATE_INVALID_DER,
	TLS_EV_ERROR_MESSAGE_ENCOUNTERED,
	TLS_EV_INVALID_SSL_RECORD,
	TLS_EV_COUNT
};

const char *tls_event_name(int ev);
/* The event's id, or -1 for an unknown name. */
int tls_event_by_name(const char *name);

/* ssl_state bits (Suricata's ssl_state keyword). */
#define TLS_STATE_CLIENT_HELLO 0x01u
#define TLS_STATE_SERVER_HELLO 0x02u
#define TLS_STATE_CLIENT_KEYX 0x04u
#define TLS_STATE_SERVER_KEYX 0x08u
#define TLS_STATE_UNKNOWN 0x10u

/* TlsState.flags: what the flow has shown so far. */
#define TLS_F_CLIENT_HELLO 0x0001u
#define TLS_F_SERVER_HELLO 0x0002u
#define TLS_F_CLIENT_KEYX 0x0004u
#define TLS_F_SERVER_KEYX 0x0008u
#define TLS_F_CERT_SERVER 0x0010u  /* server Certificate message parsed */
#define TLS_F_CERT_CLIENT 0x0020u
#define TLS_F_CCS_TOSERVER 0x0040u
#define TLS_F_CCS_TOCLIENT 0x0080u
#define TLS_F_APPDATA_TOSERVER 0x0100u
#define TLS_F_APPDATA_TOCLIENT 0x0200u
#define TLS_F_ALERT 0x0400u
#define TLS_F_SSLV2 0x0800u        /* an SSLv2 record was seen */
#define TLS_F_SESSION_RESUMED 0x1000u
#define TLS_F_HRR 0x2000u          /* the server sent a HelloRetryRequest */
/* Both sides encrypt from here on (both ChangeCipherSpecs, or a TLS 1.3
 * ServerHello): the handshake shows nothing more, the tls record can go
 * out. */
#define TLS_F_HANDSHAKE_DONE 0x4000u
#define TLS_F_CERT_REQUEST 0x8000u
/* Application data has come (either way; a 0-RTT client's only once the
 * ServerHello is in): the handshake is over, the rest is ciphertext.
 * Suricata stops inspecting the flow's payload here unless
 * encryption-handling is full. */
#define TLS_F_APPDATA_STARTED 0x10000u

/* A decoded ClientHello or ServerHello. Lists keep wire order and GREASE
 * values (ja3/ja4 drop GREASE themselves). For a ServerHello, ciphers[0]
 * is the chosen suite and versions[0] the supported_versions choice.
 * ciphers and sni are sized to the hello (TLS_MAX_CIPHERS and TLS_SNI_MAX
 * bound them): held at their largest they were half of every TLS flow's
 * state. sni is "" without a server_name; both are the parser's. */
typedef struct TlsHello {
	bool present;
	bool sslv2;              /* an SSLv2 CLIENT-HELLO */
	uint16_t version;        /* legacy_version */
	uint8_t random[32];
	uint8_t session_id_len;
	uint8_t session_id[32];
	uint16_t nciphers, nciphers_total;
	uint16_t *ciphers;       /* ciphers_inline, or the parser's block */
	uint16_t ciphers_inline[TLS_CIPHERS_INLINE];
	uint8_t ncompression;
	uint8_t compression[TLS_MAX_COMPRESSION];
	uint16_t nexts, nexts_total;
	uint16_t exts[TLS_MAX_EXTS];
	uint16_t ngroups;
	uint16_t groups[TLS_MAX_GROUPS];
	uint16_t npoint_formats;
	uint8_t point_formats[TLS_MAX_POINT_FORMATS];
	uint16_t nsigalgs;
	uint16_t sigalgs[TLS_MAX_SIGALGS];
	uint16_t nversions;
	uint16_t versions[TLS_MAX_VERSIONS];
	bool has_sni;            /* a server_name extension was present */
	bool early_data;         /* an early_data extension was present */
	uint16_t sni_len;
	char *sni;               /* NUL-terminated; raw bytes, may hold NULs */
	uint8_t nalpn;
	uint16_t alpn_off[TLS_ALPN_MAX];
	uint8_t alpn_len[TLS_ALPN_MAX];
	uint8_t alpn_buf[TLS_ALPN_BYTES];
} TlsHello;

/* One direction's certificate chain, in Certificate message order (the
 * leaf first): DER blobs in one buffer. */
typedef struct TlsCertChain {
	uint16_t n;
	uint32_t off[TLS_CERTS_MAX];
	uint32_t len[TLS_CERTS_MAX];
	uint8_t *buf;
	uint32_t used, cap;
} TlsCertChain;

/* Per-direction reassembly state (private to the parser). */
typedef struct TlsDir {
	uint8_t hdr[5];
	uint8_t hdr_len;
	uint8_t rec_type;
	uint16_t rec_version;
	uint32_t rec_left;       /* payload bytes of the current record still due */
	bool in_record;
	bool sslv2_rec;          /* the current record is SSLv2 */
	bool v2_stream;          /* the direction opened with an SSLv2 record */
	bool started;            /* bytes were seen in this direction */
	bool encrypted;          /* handshake records are ciphertext from here */
	bool dead;               /* lost sync: the rest of the stream is ignored */
	uint8_t *hs;             /* handshake message reassembly */
	uint32_t hs_len, hs_cap;
	uint32_t hs_need;        /* 4 + body length, once the header is known */
	uint32_t hs_skip;        /* bytes of an oversized message still to drop */
	uint8_t *v2;             /* SSLv2 record body */
	uint32_t v2_len, v2_need;
	uint8_t small[3];        /* first bytes of an alert or heartbeat record */
	uint8_t small_len;
	uint16_t version;        /* hello (else record) version: ssl_version */
	uint64_t records;
	uint64_t bytes;
} TlsDir;

typedef struct TlsState {
	TlsDir dir[2];
	TlsHello client, server;
	TlsCertChain certs[2];   /* [TLS_TOCLIENT] the server's, [TLS_TOSERVER] the client's */
	uint32_t flags;          /* TLS_F_* */
	uint32_t state;          /* TLS_STATE_* seen so far */
	uint32_t cur_state;      /* TLS_STATE_* set by the last tls_parse() call */
	uint8_t alert_level, alert_desc; /* last cleartext alert */
	uint32_t events[TLS_EV_COUNT];
	uint32_t nevents;        /* total raised */
	uint32_t new_events;     /* raised by the last tls_parse() call */
	/* the decoded leaf certificate of each chain, once (tls_leaf_info) */
	struct TlsCertInfo *leaf[2];
	uint8_t leaf_tried[2];
	/* frames (app-layer/frames.h), when the caller wants them: called at
	 * each record header, with the record's offset counted from the
	 * first byte of the data tls_parse() is handed now (negative when
	 * its header began in an earlier call), its header and payload
	 * lengths, its content type (0: SSLv2) */
	void (*on_record)(void *arg, int dir, int64_t at, uint32_t hlen, uint32_t len,
			  uint8_t type);
	void *on_record_arg;
} TlsState;

TlsState *tls_state_new(void);
void tls_state_free(TlsState *s);

/* Feeds len stream bytes of direction dir (TLS_TOSERVER/TLS_TOCLIENT).
 * Returns 0, or -1 once that direction lost sync (the bytes are ignored;
 * an event says why). Never reads outside data[0..len). */
int tls_parse(TlsState *s, int dir, const uint8_t *data, size_t len);

/* Decodes one whole handshake message (type, 24-bit length, body) outside
 * the record layer, as QUIC's CRYPTO frames carry them: a ClientHello
 * (dir TLS_TOSERVER) into s->client, a ServerHello (TLS_TOCLIENT) into
 * s->server, replacing what was there. 0, or -1 when it is neither or does
 * not decode (an event says why). */
int tls_hello_message(TlsState *s, int dir, const uint8_t *msg, size_t len);

/* Protocol detection on a direction's first bytes: 1 TLS or SSLv2 hello
 * (or TLS record) start, 0 not TLS, -1 too short to tell. */
int tls_probe(const uint8_t *data, size_t len);

/* The version Suricata logs: the server's choice (supported_versions,
 * then ServerHello version), else the client's; 0 when undetermined. */
uint16_t tls_state_version(const TlsState *s);
/* The client's highest offered version (supported_versions, else hello). */
uint16_t tls_hello_max_version(const TlsHello *h);
/* Suricata's eve name of a version: "TLS 1.2", "TLSv1", "SSLv3",
 * "TLS 1.3 draft-18", "TLS 1.3 draft-<16", "TLS 1.3 draft-26-fb",
 * "UNDETERMINED". buf needs 32 bytes; returns buf. */
const char *tls_version_name(uint16_t v, char *buf, size_t size);

/* ALPN protocol i of a hello (not NUL-terminated). */
const uint8_t *tls_hello_alpn(const TlsHello *h, unsigned i, uint8_t *len);
/* Certificate i of a chain (DER), or NULL. */
const uint8_t *tls_chain_cert(const TlsCertChain *c, unsigned i, uint32_t *len);

#endif
