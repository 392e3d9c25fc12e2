/* DCE/RPC PDU parsing as a library, free of engine dependencies: the
 * connection-oriented protocol (version 5, over TCP, and inside SMB named
 * pipes) and the connectionless one (version 4, over UDP).
 *
 * A dcerpc_state holds one conversation: the contexts its binds offered
 * and their ack results, each direction's partial PDU, and the
 * transactions the PDUs make, Suricata's: a bind (or alter_context) and
 * its bind_ack make one, a request and its response (or fault) make one,
 * matched by call_id (CO) or by activity uuid and sequence number (CL).
 * Fragments of a request or response are reassembled by call_id into the
 * transaction's stub data, up to dcerpc_limits.max_stub bytes a side.
 *
 * Users: the dcerpc app-layer protocol (dcerpc-proto.c) on TCP and UDP
 * flows, and SMB for the bytes it reads and writes on a named pipe: it
 * owns one dcerpc_state per pipe (dcerpc_state_init with DCERPC_CO),
 * feeds each write with to_server 1 and each read with 0, and walks
 * dcerpc_tx_first()/->next for what came out (detection reads the same
 * struct dcerpc_tx through detect/dcerpc-kw.c's view).
 *
 * Nothing here allocates per byte: a PDU is parsed in place when it lies
 * in one chunk, and only a PDU split across chunks is copied (at most
 * 65535 bytes, the largest frag_length). */
#ifndef APP_LAYER_DCERPC_PARSE_H
#define APP_LAYER_DCERPC_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* PTYPE values (DCE 1.1 RPC, chapter 12; CL shares 0..10). */
enum dcerpc_ptype {
	DCERPC_REQUEST = 0, DCERPC_PING = 1, DCERPC_RESPONSE = 2, DCERPC_FAULT = 3,
	DCERPC_WORKING = 4, DCERPC_NOCALL = 5, DCERPC_REJECT = 6, DCERPC_ACK = 7,
	DCERPC_CL_CANCEL = 8, DCERPC_FACK = 9, DCERPC_CANCEL_ACK = 10, DCERPC_BIND = 11,
	DCERPC_BIND_ACK = 12, DCERPC_BIND_NAK = 13, DCERPC_ALTER_CONTEXT = 14,
	DCERPC_ALTER_CONTEXT_RESP = 15, DCERPC_AUTH3 = 16, DCERPC_SHUTDOWN = 17,
	DCERPC_CO_CANCEL = 18, DCERPC_ORPHANED = 19, DCERPC_RTS = 20,
	DCERPC_PTYPE_MAX
};
#define DCERPC_PTYPE_NONE 0xff      /* no PDU of that side yet */

/* CO pfc_flags */
#define DCERPC_PFC_FIRST_FRAG 0x01
#define DCERPC_PFC_LAST_FRAG  0x02
#define DCERPC_PFC_OBJECT_UUID 0x80
/* CL flags1 */
#define DCERPC_CL_LASTFRAG 0x02
#define DCERPC_CL_FRAG     0x04

#define DCERPC_CO_HDR_LEN 16
#define DCERPC_CL_HDR_LEN 80

/* Events (a bit each in dcerpc_tx.events; names in dcerpc_event_name). */
enum dcerpc_event {
	DCERPC_EV_MALFORMED_HEADER = 0, /* version, frag_length or auth_length out of range */
	DCERPC_EV_MALFORMED_PDU,        /* body shorter than its fields */
	DCERPC_EV_STUB_LIMIT,           /* reassembled stub data past max_stub: truncated */
	DCERPC_EV_TOO_MANY_TXS,         /* past max_txs open transactions */
	DCERPC_EV_UNKNOWN_PTYPE,        /* a PTYPE DCE does not define */
	DCERPC_EV_COUNT
};

/* "malformed_header", ...; NULL past the last. */
const char *dcerpc_event_name(int ev);
/* The event by name, or -1. */
int dcerpc_event_by_name(const char *name);

/* "REQUEST", "BINDACK", ... as Suricata's eve writes a PTYPE ("UNKNOWN"
 * past the table). */
const char *dcerpc_ptype_name(unsigned ptype);

/* One presentation context of a bind, with the bind_ack's answer. uuid in
 * the order the text form prints it (byte 0 is the first hex pair). */
struct dcerpc_iface {
	uint8_t uuid[16];
	uint16_t ver;               /* interface major version */
	uint16_t ver_minor;
	uint16_t ctxid;
	uint16_t ack_result;        /* 0 acceptance, 1 user rejection, 2 provider rejection */
	uint16_t ack_reason;        /* the bind_ack's reason (provider_reason) */
	uint8_t acked;              /* a bind_ack answered it */
};

struct dcerpc_buf {
	uint8_t *data;
	uint32_t len, cap;
};

struct dcerpc_tx {
	uint64_t id;                /* from 0, in the order transactions start */
	uint32_t call_id;           /* CO */
	uint8_t req_type, resp_type;/* PTYPE of each side, DCERPC_PTYPE_NONE before */
	uint8_t req_done, resp_done;/* the side's last fragment came */
	uint8_t first_frag;         /* the request began with a first fragment
	                             * (dcerpc.iface without any_frag needs it) */
	uint8_t little_endian[2];   /* drep of the side's last PDU ([0] request side) */
	uint16_t opnum;
	uint16_t ctxid;             /* the request's presentation context */
	uint32_t frag_cnt[2];       /* PDUs of each side */
	struct dcerpc_buf stub[2];  /* stub data, fragments joined */
	/* a bind or alter_context: the contexts it offered and their acks */
	struct dcerpc_iface *ifaces;
	uint16_t nifaces;
	/* a request: the context it named, as bound when it came (CO: from
	 * the bind and its ack; CL: the header's interface, taken as
	 * accepted); has_iface 0 when the context was never bound */
	struct dcerpc_iface iface;
	uint8_t has_iface;
	/* CL: the header's activity and sequence number */
	uint8_t activity[16];
	uint32_t seqnum;
	uint8_t rpc_vers, rpc_vers_minor; /* of its last PDU (eve rpc_version) */
	uint32_t events;            /* 1u << enum dcerpc_event */
	/* for the owner (the app layer's tx flags and detect slot, ...) */
	unsigned app_flags;
	void *detect;
	struct dcerpc_tx *next;
};

struct dcerpc_limits {
	uint32_t max_stub;          /* stub bytes kept per side of a tx */
	uint32_t max_txs;           /* open transactions; past it the oldest
	                             * is closed (event too_many_txs) */
};
#define DCERPC_DEFAULT_MAX_STUB (1024u * 1024u)
#define DCERPC_DEFAULT_MAX_TXS 1024u

enum dcerpc_kind { DCERPC_CO = 0, DCERPC_CL = 1 };

struct dcerpc_side {
	struct dcerpc_buf pdu;      /* a PDU split across chunks */
	uint8_t dead;               /* unparseable: bytes are skipped */
};

struct dcerpc_state {
	enum dcerpc_kind kind;
	struct dcerpc_limits lim;
	uint8_t rpc_vers, rpc_vers_minor; /* of the last PDU (eve rpc_version) */
	uint8_t seen_hdr;
	struct dcerpc_side side[2]; /* [0] to server, [1] to client */
	/* the contexts bound on the connection (accepted or not), by ctxid */
	struct dcerpc_iface *ctx;
	uint32_t nctx, ctx_cap;
	struct dcerpc_tx *head, *tail;
	struct dcerpc_tx *hint;     /* dcerpc_tx_by_id's last find (NULL after a gc) */
	uint32_t ntx;
	uint64_t next_id;
	uint32_t events;            /* events with no transaction to carry them */
	uint64_t stub_bytes;        /* memory held in stub buffers */
	/* CO over TCP, for frames: told of each PDU once its header is read,
	 * with its offset from the start of the dcerpc_feed() data (negative:
	 * it began in an earlier call); NULL: not told */
	void (*pdu_seen)(void *arg, int to_server, int64_t rel, uint32_t frag_len);
	void *pdu_arg;
};

void dcerpc_state_init(struct dcerpc_state *st, enum dcerpc_kind kind,
		       const struct dcerpc_limits *lim);
void dcerpc_state_free(struct dcerpc_state *st);

/* Feeds bytes of one direction (to_server 1: client to server). CO: any
 * piece of the stream, PDUs may span calls or share one; CL: one whole
 * datagram per call. Returns 0, -1 once the direction cannot be parsed
 * any more (malformed header: its bytes are ignored from then on), -2 out
 * of memory. New and updated transactions are on the list. */
int dcerpc_feed(struct dcerpc_state *st, int to_server, const uint8_t *data, size_t len);

/* A gap in a direction: the partial PDU is dropped, and parsing stops
 * there (no resynchronisation on a byte stream without markers). */
void dcerpc_gap(struct dcerpc_state *st, int to_server);

/* The open transactions, oldest first (->next), and by id. Detection and
 * logging ask for ids in rising order on each packet: by id resumes from
 * its last find, so such a walk costs the list once, not once per id. */
struct dcerpc_tx *dcerpc_tx_first(const struct dcerpc_state *st);
struct dcerpc_tx *dcerpc_tx_by_id(struct dcerpc_state *st, uint64_t id);
/* Whether both sides are done (or the tx can have no response). */
int dcerpc_tx_complete(const struct dcerpc_tx *tx);
/* Frees the oldest transactions while keep(tx, arg) says 0 (in order:
 * stops at the first one kept). */
void dcerpc_tx_gc(struct dcerpc_state *st, int (*keep)(const struct dcerpc_tx *, void *),
		  void *arg);

/* The bound context a request names (its ctxid), or NULL. */
const struct dcerpc_iface *dcerpc_ctx_find(const struct dcerpc_state *st, uint16_t ctxid);

/* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" into out[37]. */
void dcerpc_uuid_str(const uint8_t uuid[16], char out[37]);
/* The text form into uuid[16]: 0, or -1 when not a uuid. */
int dcerpc_uuid_parse(const char *s, uint8_t uuid[16]);

/* Detection's probes on a direction's first bytes: 1 DCE/RPC, 0 not, -1
 * need more (CO only). CO: version 5.0, a PTYPE that goes that way,
 * drep and frag_length sane. CL: version 4, a known PTYPE, fragment 0,
 * drep sane (the header's 80 bytes). *request gets whether the PDU is
 * one a client sends. */
int dcerpc_probe_co(const uint8_t *buf, size_t len, int *request);
int dcerpc_probe_cl(const uint8_t *buf, size_t len, int *request);

#endif
