/* DNS (RFC 1035) messages for detection and logging, as Suricata 8 sees them.
 *
 * Three pure pieces, no globals, usable without the rest of the engine (the
 * fuzz harness links this file alone):
 *   - dns_msg_parse(): one message (a UDP payload, or one TCP frame without
 *     its 2-byte length) into a struct dns_msg with header, flags, queries and
 *     the three record sections, rdata decoded per type;
 *   - struct dns_tcp: a per-direction buffer that takes TCP stream bytes in any
 *     segmentation and hands out complete length-prefixed messages;
 *   - struct dns_txs: the transactions of a flow.
 *
 * Names are kept as Suricata keeps them: the label bytes joined with '.',
 * raw (a '.' or a NUL inside a label stays as it is), the root name as the
 * empty string. How they print in eve is dns-json's business.
 *
 * Ownership: dns_msg_parse() allocates the message, with its own copy of the
 * wire bytes (the packet or TCP frame may go away after the call);
 * dns_msg_free() frees it and everything it points to. dns_txs_add() takes
 * ownership of the message. */
#ifndef APP_LAYER_DNS_PARSE_H
#define APP_LAYER_DNS_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Same values as APP_DIR_TOSERVER / APP_DIR_TOCLIENT in app-layer.h. */
enum dns_dir {
	DNS_DIR_TOSERVER = 0,
	DNS_DIR_TOCLIENT = 1,
};

/* App-layer events. The first ten are Suricata 8's dns events (the names of
 * rules/dns-events.rules, app-layer-event:dns.<name>); the last two are ours
 * and say so in their names' comments. */
enum dns_event {
	DNS_EV_MALFORMED_DATA = 0,  /* a length or count runs past the message */
	DNS_EV_NOT_A_REQUEST,       /* QR set in a to_server message */
	DNS_EV_NOT_A_RESPONSE,      /* QR clear in a to_client message */
	DNS_EV_Z_FLAG_SET,          /* the reserved Z bit (0x0040) is set */
	DNS_EV_INVALID_OPCODE,      /* opcode not assigned by IANA (3, 7-15) */
	DNS_EV_NAME_TOO_LONG,       /* a name printed past DNS_NAME_MAX: truncated */
	DNS_EV_INFINITE_LOOP,       /* compression pointers past DNS_MAX_PTR_HOPS */
	DNS_EV_TOO_MANY_LABELS,     /* a name with more than DNS_MAX_LABELS labels */
	DNS_EV_INVALID_ADDITIONALS, /* the additional section does not parse */
	DNS_EV_INVALID_AUTHORITIES, /* the authority section does not parse */
	DNS_EV_TOO_MANY_TXS,        /* ours: open transactions over the flow's limit */
	DNS_EV_TOO_MUCH_DATA,       /* ours: decoded names over DNS_MSG_MEM_MAX */
	DNS_EV_MAX
};

/* "malformed_data", ...; NULL for a value out of range. */
const char *dns_event_name(enum dns_event ev);
/* The event named name (without the "dns." prefix), or -1. */
int dns_event_by_name(const char *name);

/* Suricata truncates a printed name at 1025 bytes (rrname_truncated). */
#define DNS_NAME_MAX 1025
/* Compression pointers followed for one name before it counts as a loop.
 * Forward pointers are legal (Suricata accepts them: suricata-verify
 * dns-forward-pointer), so the bound is a hop count, not a direction. */
#define DNS_MAX_PTR_HOPS 128
#define DNS_MAX_LABELS 255
/* Largest wire form RFC 1035 allows for a name (length octets included). */
#define DNS_NAME_WIRE_MAX 255
/* Cap on what one message may allocate once decompressed (names can expand a
 * 64 KiB message many times over through pointers). */
#define DNS_MSG_MEM_MAX (4u << 20)
/* Largest message: what a TCP length prefix can say. Longer input (no UDP
 * payload is) is malformed_data. */
#define DNS_MSG_WIRE_MAX 65535

struct dns_bytes {
	const uint8_t *ptr; /* not NUL-terminated; may hold any byte */
	uint32_t len;
};

enum {
	DNS_NAME_TRUNCATED = 1 << 0,   /* printed form cut at DNS_NAME_MAX */
	DNS_NAME_LOOP = 1 << 1,        /* gave up after DNS_MAX_PTR_HOPS pointers */
	DNS_NAME_MANY_LABELS = 1 << 2, /* gave up after DNS_MAX_LABELS labels */
	DNS_NAME_OVER_255 = 1 << 3,    /* wire form over DNS_NAME_WIRE_MAX octets
	                                  (RFC 1035 limit; Suricata raises no event
	                                  for it, so neither do we) */
};

struct dns_name {
	struct dns_bytes s;
	uint8_t flags; /* DNS_NAME_* */
};

struct dns_query {
	struct dns_name name;
	uint16_t rrtype;
	uint16_t rrclass;
};

/* How an rr's rdata was decoded; which member of dns_rr.rd is set. */
enum dns_rdata_kind {
	DNS_RD_RAW = 0, /* NULL, unknown types, and known types of a bad length */
	DNS_RD_A,       /* rd.addr[0..3] */
	DNS_RD_AAAA,    /* rd.addr[0..15] */
	DNS_RD_NAME,    /* CNAME, PTR, NS, MX (exchange; preference in mx_pref) */
	DNS_RD_TXT,     /* rd.txt: one entry per character-string */
	DNS_RD_SOA,
	DNS_RD_SRV,
	DNS_RD_SSHFP,
	DNS_RD_OPT,     /* EDNS(0) options */
};

struct dns_soa {
	struct dns_name mname, rname;
	uint32_t serial, refresh, retry, expire, minimum;
};

struct dns_srv {
	uint16_t priority, weight, port;
	struct dns_name target;
};

struct dns_sshfp {
	uint8_t algo, type;
	struct dns_bytes fingerprint;
};

struct dns_opt {
	uint16_t code;
	struct dns_bytes data;
};

struct dns_rr {
	struct dns_name name;
	uint16_t rrtype;
	uint16_t rrclass;
	uint32_t ttl;
	enum dns_rdata_kind kind;
	uint16_t mx_pref;
	struct dns_bytes raw; /* the rdata as on the wire, always set */
	union {
		uint8_t addr[16];
		struct dns_name name;
		struct {
			const struct dns_bytes *v;
			uint32_t n;
		} txt;
		struct dns_soa soa;
		struct dns_srv srv;
		struct dns_sshfp sshfp;
		struct {
			const struct dns_opt *v;
			uint32_t n;
		} opt;
	} rd;
};

enum dns_section {
	DNS_SEC_ANSWER = 0,
	DNS_SEC_AUTHORITY,
	DNS_SEC_ADDITIONAL,
	DNS_SEC_MAX
};

/* Header flag bits, as in the 16-bit flags word. */
#define DNS_FLAG_QR 0x8000
#define DNS_FLAG_AA 0x0400
#define DNS_FLAG_TC 0x0200
#define DNS_FLAG_RD 0x0100
#define DNS_FLAG_RA 0x0080
#define DNS_FLAG_Z 0x0040
#define DNS_FLAG_AD 0x0020
#define DNS_FLAG_CD 0x0010

struct dns_msg {
	uint16_t id;
	uint16_t flags; /* the raw word; the fields below are decoded from it */
	bool qr, aa, tc, rd, ra, z, ad, cd;
	uint8_t opcode; /* 0-15 */
	uint8_t rcode;  /* 0-15 (the header's 4 bits; no EDNS extension) */
	/* counts as the header claims them */
	uint16_t qdcount, ancount, nscount, arcount;

	/* what parsed; fewer than the counts when the message is cut short */
	const struct dns_query *queries;
	uint32_t nqueries;
	const struct dns_rr *rrs[DNS_SEC_MAX];
	uint32_t nrrs[DNS_SEC_MAX];

	uint32_t events; /* 1u << enum dns_event */
	bool complete;   /* every section parsed as the counts say */

	void *mem;     /* private: the allocations above */
	uint8_t *wire; /* private: the copy of the message's bytes */
};

/* Parse return codes (0 or negative, per STYLE.md). */
#define DNS_OK 0
#define DNS_E_NOMEM (-1)
#define DNS_E_SHORT (-2)     /* under 12 bytes: no header */
#define DNS_E_MALFORMED (-3) /* header parsed, a later section did not */

/* Parse len bytes of buf, seen in direction dir (for not_a_request /
 * not_a_response). *out gets a message on every return but DNS_E_NOMEM: on
 * DNS_E_SHORT it has only events (malformed_data); on DNS_E_MALFORMED it has
 * the header and whatever parsed before the fault, with malformed_data set.
 * A fault in the authority or additional section is not malformed: the
 * message keeps what parsed and carries invalid_authorities or
 * invalid_additionals, as Suricata does (suricata-verify
 * dns-corrupt-additionals), and the return is DNS_OK. Never reads outside
 * buf[0..len). */
int dns_msg_parse(const uint8_t *buf, size_t len, enum dns_dir dir,
		  struct dns_msg **out);
void dns_msg_free(struct dns_msg *m);

static inline bool dns_msg_has_event(const struct dns_msg *m, enum dns_event ev)
{
	return (m->events >> ev) & 1u;
}

/* "A", "AAAA", ...; NULL for a type without a mnemonic (Suricata prints those
 * as the decimal number; dns_rrtype_format() does). */
const char *dns_rrtype_name(uint16_t rrtype);
/* The type named name (case-insensitive), or -1. */
int dns_rrtype_by_name(const char *name);
/* Room for any mnemonic or number dns_*_format() writes. */
#define DNS_NAME_BUF 16
/* Writes the mnemonic or the decimal number into buf (DNS_NAME_BUF bytes
 * hold any); returns buf. */
const char *dns_rrtype_format(uint16_t rrtype, char *buf, size_t size);
/* The same text without a copy, for the eve writer: the mnemonic itself, or
 * the number written into buf (DNS_NAME_BUF bytes); NUL-terminated, its
 * length in *len. */
const char *dns_rrtype_text(uint16_t rrtype, char *buf, size_t *len);
/* "NOERROR", "NXDOMAIN", ...; NULL for 11-15. */
const char *dns_rcode_name(uint8_t rcode);
int dns_rcode_by_name(const char *name);
const char *dns_rcode_format(uint8_t rcode, char *buf, size_t size);
const char *dns_rcode_text(uint8_t rcode, char *buf, size_t *len);

/* --- TCP framing -------------------------------------------------------
 * One per direction of a TCP flow. dns_tcp_feed() takes the next in-order
 * stream bytes and calls cb once per complete message (the bytes after the
 * 2-byte length; they live until cb returns). Whole messages inside one
 * segment are handed out without copying; only a message split across
 * segments is buffered, at most 2 + 65535 bytes. A zero length prefix yields
 * a zero-length message (the parser then reports malformed_data), so it is
 * counted, not hidden. After a stream gap call dns_tcp_reset(): the bytes
 * buffered no longer belong to the next ones. */
typedef void (*dns_tcp_msg_cb)(void *arg, const uint8_t *msg, uint32_t len);

struct dns_tcp {
	uint8_t *buf; /* the partial message: length prefix included */
	uint32_t len;
	uint32_t cap;
	uint64_t msgs;      /* messages handed out */
	uint64_t buffered;  /* of those, messages that were reassembled */
	uint64_t resets;    /* dns_tcp_reset() calls that dropped bytes */
	/* during a message callback: the bytes of this dns_tcp_feed() call
	 * up to the end of the message (where the message lies in the stream,
	 * for frames) */
	uint32_t consumed;
};

void dns_tcp_init(struct dns_tcp *t);
/* 0, or DNS_E_NOMEM (the bytes from data on are dropped and the buffer
 * reset; the caller should treat it as a gap). */
int dns_tcp_feed(struct dns_tcp *t, const uint8_t *data, size_t len,
		 dns_tcp_msg_cb cb, void *arg);
/* Bytes waiting for the rest of their message. */
static inline uint32_t dns_tcp_pending(const struct dns_tcp *t)
{
	return t->len;
}
void dns_tcp_reset(struct dns_tcp *t);
void dns_tcp_free(struct dns_tcp *t);

/* --- Transactions ------------------------------------------------------
 * Two models:
 *   DNS_TXS_PER_MESSAGE: every message is its own transaction, complete in
 *     both directions at once. This is what Suricata 8 does: in
 *     suricata-verify task-7018-ips-dns-keywords a TCP flow's query is tx 0
 *     and its answer tx 1, and dns-udp-unsolicited-response logs each answer
 *     on its own.
 *   DNS_TXS_PAIRED: a response joins the oldest open transaction whose
 *     request has the same id; a response nobody asked for gets its own
 *     transaction. A request's transaction is complete to_server at once and
 *     to_client when its response comes (or dns_txs_close()).
 * At most max_open transactions wait for a response; one more evicts the
 * oldest waiting one (it completes without a response), counts it in
 * evicted, and sets DNS_EV_TOO_MANY_TXS on the new transaction. */
enum dns_txs_mode {
	DNS_TXS_PER_MESSAGE = 0,
	DNS_TXS_PAIRED,
};

#define DNS_TXS_DEFAULT_MAX_OPEN 256

struct dns_tx {
	uint64_t tx_id; /* from 0, in creation order, per flow */
	struct dns_msg *request;  /* to_server message, or NULL */
	struct dns_msg *response; /* to_client message, or NULL */
	uint32_t events;          /* DNS_EV_TOO_MANY_TXS; the messages hold theirs */
	bool done[2];             /* per enum dns_dir: nothing more will arrive */
	bool evicted;             /* closed by the limit, not by a response */
	/* the app layer's (dns-proto.c): APP_TX_* flags and detection's slot;
	 * zero here, freed by their owner before the tx goes */
	unsigned app_flags;
	void *detect;
};

struct dns_txs {
	enum dns_txs_mode mode;
	uint32_t max_open;
	struct dns_tx **v; /* live transactions, oldest first */
	uint32_t n, cap;
	uint32_t open;     /* of v, those waiting for a response */
	uint64_t next_id;
	uint64_t evicted;  /* counter: transactions closed by the limit */
};

/* max_open 0 means DNS_TXS_DEFAULT_MAX_OPEN. */
void dns_txs_init(struct dns_txs *s, enum dns_txs_mode mode, uint32_t max_open);
/* Files m (taken over, even on error) as seen in direction dir. *tx (if not
 * NULL) gets the transaction it went to. 0 or DNS_E_NOMEM. */
int dns_txs_add(struct dns_txs *s, struct dns_msg *m, enum dns_dir dir,
		struct dns_tx **tx);
/* Number of live transactions; dns_txs_get(s, i) for i below it, oldest first. */
static inline uint32_t dns_txs_count(const struct dns_txs *s)
{
	return s->n;
}
static inline struct dns_tx *dns_txs_get(const struct dns_txs *s, uint32_t i)
{
	return i < s->n ? s->v[i] : NULL;
}
/* The live transaction with this tx_id, or NULL. */
struct dns_tx *dns_txs_by_id(const struct dns_txs *s, uint64_t tx_id);
static inline bool dns_tx_done(const struct dns_tx *tx, enum dns_dir dir)
{
	return tx->done[dir];
}
static inline bool dns_tx_complete(const struct dns_tx *tx)
{
	return tx->done[0] && tx->done[1];
}
/* The message of direction dir, or NULL. */
static inline const struct dns_msg *dns_tx_msg(const struct dns_tx *tx,
					       enum dns_dir dir)
{
	return dir == DNS_DIR_TOSERVER ? tx->request : tx->response;
}
/* Every event of the transaction in direction dir: its message's and the
 * transaction's own (DNS_EV_TOO_MANY_TXS), as 1u << enum dns_event. */
static inline uint32_t dns_tx_events(const struct dns_tx *tx, enum dns_dir dir)
{
	const struct dns_msg *m = dns_tx_msg(tx, dir);

	return tx->events | (m ? m->events : 0);
}
/* End of flow: every open transaction completes without a response. */
void dns_txs_close(struct dns_txs *s);
/* Frees every complete transaction with tx_id <= upto (logged and inspected). */
void dns_txs_gc(struct dns_txs *s, uint64_t upto);
void dns_txs_free(struct dns_txs *s);

#endif
