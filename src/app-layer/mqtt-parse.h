/* MQTT 3.1, 3.1.1 and 5.0 stream parser: one MqttState per flow, fed each
 * direction's TCP stream bytes in any segmentation. Every control packet
 * (fixed header, variable header, payload; v5 properties) is decoded into
 * an MqttMsg, and messages are grouped into transactions the way Suricata
 * 8 groups them: a request and its reply in one transaction (CONNECT with
 * CONNACK, PUBLISH QoS 1 with PUBACK, QoS 2 with PUBREC/PUBREL/PUBCOMP,
 * SUBSCRIBE with SUBACK, UNSUBSCRIBE with UNSUBACK, matched by packet id);
 * everything else (PUBLISH QoS 0, PINGREQ, PINGRESP, DISCONNECT, AUTH, a
 * reply without its request) alone.
 *
 * A message whose remaining length is over max_msg_len is not buffered: it
 * becomes a "truncated" message (type and header flags, skipped length)
 * and its bytes are skipped, as Suricata's max-msg-length does.
 *
 * Pure: no logging, no globals, no config lookups. Memory: per direction
 * one reassembly buffer of at most max_msg_len + 5 bytes; per message one
 * copy of its body; about max_tx open transactions (past it each new one
 * closes the oldest open one, which raises too_many_transactions). */
#ifndef APP_LAYER_MQTT_PARSE_H
#define APP_LAYER_MQTT_PARSE_H

#include <stddef.h>
#include <stdint.h>

#define MQTT_TOSERVER 0
#define MQTT_TOCLIENT 1

/* Control packet types (the fixed header's high nibble). */
enum mqtt_type {
	MQTT_UNASSIGNED = 0, MQTT_CONNECT, MQTT_CONNACK, MQTT_PUBLISH, MQTT_PUBACK,
	MQTT_PUBREC, MQTT_PUBREL, MQTT_PUBCOMP, MQTT_SUBSCRIBE, MQTT_SUBACK,
	MQTT_UNSUBSCRIBE, MQTT_UNSUBACK, MQTT_PINGREQ, MQTT_PINGRESP, MQTT_DISCONNECT,
	MQTT_AUTH, MQTT_TYPE_COUNT
};

/* Events: Suricata 8's names (rules/mqtt-events.rules). */
enum mqtt_event {
	MQTT_EV_MISSING_CONNECT,
	MQTT_EV_MISSING_PUBLISH,
	MQTT_EV_MISSING_SUBSCRIBE,
	MQTT_EV_MISSING_UNSUBSCRIBE,
	MQTT_EV_DOUBLE_CONNECT,
	MQTT_EV_UNINTRODUCED_MESSAGE,
	MQTT_EV_INVALID_QOS_LEVEL,
	MQTT_EV_MISSING_MSG_ID,
	MQTT_EV_UNASSIGNED_MSG_TYPE,
	MQTT_EV_TOO_MANY_TRANSACTIONS,
	MQTT_EV_MALFORMED_TRAFFIC,
	MQTT_EV_COUNT
};

const char *mqtt_event_name(int ev);
int mqtt_event_by_name(const char *name);
/* "CONNECT", ... (upper case, Suricata's mqtt.type names); NULL past 15 */
const char *mqtt_type_name(unsigned type);
/* by name (any case) or number; -1 unknown */
int mqtt_type_by_name(const char *name);

/* A part of a message's body: raw[off, off + len) when set. */
typedef struct MqttField {
	uint32_t off, len;
	uint8_t set;
} MqttField;

/* Connect flags (MQTT 3.1.3 / 5.0 3.1.2.3). */
#define MQTT_CF_USERNAME      0x80
#define MQTT_CF_PASSWORD      0x40
#define MQTT_CF_WILL_RETAIN   0x20
#define MQTT_CF_WILL          0x04
#define MQTT_CF_CLEAN_SESSION 0x02

typedef struct MqttMsg {
	uint8_t type;               /* enum mqtt_type */
	uint8_t dup, qos, retain;   /* fixed header flags */
	uint8_t truncated;          /* over max-msg-length: nothing but the header */
	uint64_t skipped_length;    /* truncated: the whole message's length */
	uint8_t *raw;               /* the body (after the fixed header), owned */
	uint32_t raw_len;

	uint8_t has_msg_id, has_rc;
	uint16_t msg_id;
	uint8_t rc;                 /* reason / return code */
	MqttField props;            /* v5 properties (the block, without its length) */

	/* CONNECT */
	MqttField proto_name, client_id, will_props, will_topic, will_msg, username, password;
	uint8_t version, cflags;
	uint16_t keepalive;
	/* CONNACK */
	uint8_t session_present;
	/* PUBLISH */
	MqttField topic, payload;
	/* SUBSCRIBE (topic string + options byte each), UNSUBSCRIBE (strings),
	 * SUBACK, UNSUBACK (one code byte each): the list's bytes */
	MqttField list;
	uint32_t list_count;
} MqttMsg;

#define MQTT_TX_MAX_MSGS 4

typedef struct MqttTx {
	uint64_t id;
	MqttMsg msgs[MQTT_TX_MAX_MSGS];
	uint8_t nmsgs;
	uint8_t complete;
	uint8_t toserver, toclient; /* a message of that direction is in it */
	uint8_t version;            /* the flow's protocol version when it began */
	int64_t pkt_id;             /* waiting for a reply with it; -1 none */
	uint32_t events;            /* bit per enum mqtt_event */
	uint32_t events_logged;     /* eve anomaly: written */
	unsigned app_flags;         /* APP_TX_* */
	void *detect;
} MqttTx;

typedef struct MqttSide {
	uint8_t *buf;               /* an incomplete message */
	uint32_t len, cap;
	uint64_t skip;              /* bytes of a truncated message still to skip */
	uint8_t dead;               /* malformed: the rest is ignored */
} MqttSide;

/* Reports each message's place (frames): start is relative to the data of
 * the current mqtt_parse() call (negative: it began in an earlier call),
 * total its whole length, hdr_len its fixed header's. */
typedef void (*mqtt_msg_cb)(void *ctx, int dir, int64_t start, uint64_t total,
			    uint32_t hdr_len, uint64_t tx_id);

typedef struct MqttState {
	MqttSide side[2];
	uint8_t version;            /* from CONNECT: 3, 4, 5; 0 unknown */
	uint8_t connected;          /* a CONNACK answered a CONNECT */
	uint32_t max_msg_len;       /* 0: no limit (bounded by MQTT's 256 MiB) */
	uint32_t max_tx;
	MqttTx **txs;               /* live transactions, oldest first */
	uint32_t ntx, txcap;
	uint64_t next_id;           /* the next transaction's id */
	uint64_t low;               /* every id below it is freed */
	uint32_t state_events;      /* events without a transaction */
	mqtt_msg_cb cb;
	void *cb_ctx;
} MqttState;

MqttState *mqtt_state_new(uint32_t max_msg_len, uint32_t max_tx);
/* free_detect: frees a transaction's detect slot (may be NULL) */
void mqtt_state_free(MqttState *s, void (*free_detect)(void *));

/* Feeds len stream bytes of direction dir. Returns the number of new
 * transactions, or -1 once that side is malformed (an event says so; the
 * rest of it is ignored). */
int mqtt_parse(MqttState *s, int dir, const uint8_t *data, size_t len);
/* A gap in dir: what was buffered cannot be finished; parsing goes on at
 * the next bytes only if they start a message (which cannot be known):
 * the side stops, as Suricata's MQTT parser (no gap support). */
void mqtt_gap(MqttState *s, int dir);

MqttTx *mqtt_tx_by_id(const MqttState *s, uint64_t id);
/* Frees the oldest transactions for which done(tx) is true, in order. */
void mqtt_tx_gc(MqttState *s, int (*done)(const MqttTx *, void *), void *arg,
		void (*free_detect)(void *));

/* Decodes one whole message (fixed header included) of the given protocol
 * version into m (m->raw points into buf, not owned). 0, or -1 when it is
 * malformed. For tests and the fuzzer. */
int mqtt_decode(const uint8_t *buf, size_t len, uint8_t version, MqttMsg *m);

/* Detection: 1 when the bytes start with a plausible fixed header, 0 when
 * they cannot, -1 too short to tell. */
int mqtt_probe(const uint8_t *data, size_t len);

/* ---- reading a message's lists and properties ---- */

/* The i-th topic of a SUBSCRIBE (with its options byte) or UNSUBSCRIBE,
 * or the i-th code of a SUBACK / UNSUBACK (in *code). 0, -1 past the end. */
int mqtt_list_topic(const MqttMsg *m, uint32_t i, const uint8_t **p, uint32_t *n, uint8_t *opt);
int mqtt_list_code(const MqttMsg *m, uint32_t i, uint8_t *code);

/* Property value kinds */
enum mqtt_prop_kind { MQTT_PK_BYTE, MQTT_PK_U16, MQTT_PK_U32, MQTT_PK_VARINT,
		      MQTT_PK_STRING, MQTT_PK_BINARY, MQTT_PK_PAIR };

typedef struct MqttProp {
	uint8_t id;
	uint8_t kind;               /* enum mqtt_prop_kind */
	const char *name;           /* Suricata's eve name ("receive_maximum") */
	uint32_t num;               /* numeric kinds */
	const uint8_t *s, *v;       /* string/binary (s), pair key (s) and value (v) */
	uint32_t slen, vlen;
} MqttProp;

/* Walks a property block: calls fn for each; stops at a malformed one. */
void mqtt_props_each(const uint8_t *p, uint32_t len,
		     void (*fn)(void *ctx, const MqttProp *pr), void *ctx);

#endif
