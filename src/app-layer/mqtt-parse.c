/* MQTT stream parser (see mqtt-parse.h). Written from the MQTT 3.1.1
 * (OASIS 2014) and 5.0 (OASIS 2019) specifications and Suricata 8's
 * documented behaviour (eve mqtt, mqtt.* keywords, mqtt-events.rules). */
#include "app-layer/mqtt-parse.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* MQTT's remaining length is at most 4 bytes of 7 bits: 256 MiB - 1. */
#define MQTT_MAX_REMAINING 268435455u

static const char *const event_names[MQTT_EV_COUNT] = {
	[MQTT_EV_MISSING_CONNECT] = "missing_connect",
	[MQTT_EV_MISSING_PUBLISH] = "missing_publish",
	[MQTT_EV_MISSING_SUBSCRIBE] = "missing_subscribe",
	[MQTT_EV_MISSING_UNSUBSCRIBE] = "missing_unsubscribe",
	[MQTT_EV_DOUBLE_CONNECT] = "double_connect",
	[MQTT_EV_UNINTRODUCED_MESSAGE] = "unintroduced_message",
	[MQTT_EV_INVALID_QOS_LEVEL] = "invalid_qos_level",
	[MQTT_EV_MISSING_MSG_ID] = "missing_msg_id",
	[MQTT_EV_UNASSIGNED_MSG_TYPE] = "unassigned_msg_type",
	[MQTT_EV_TOO_MANY_TRANSACTIONS] = "too_many_transactions",
	[MQTT_EV_MALFORMED_TRAFFIC] = "malformed_traffic",
};

const char *mqtt_event_name(int ev)
{
	return ev >= 0 && ev < MQTT_EV_COUNT ? event_names[ev] : NULL;
}

int mqtt_event_by_name(const char *name)
{
	for (int i = 0; name && i < MQTT_EV_COUNT; i++)
		if (strcmp(name, event_names[i]) == 0)
			return i;
	return -1;
}

static const char *const type_names[MQTT_TYPE_COUNT] = {
	"UNASSIGNED", "CONNECT", "CONNACK", "PUBLISH", "PUBACK", "PUBREC", "PUBREL",
	"PUBCOMP", "SUBSCRIBE", "SUBACK", "UNSUBSCRIBE", "UNSUBACK", "PINGREQ",
	"PINGRESP", "DISCONNECT", "AUTH",
};

const char *mqtt_type_name(unsigned type)
{
	return type < MQTT_TYPE_COUNT ? type_names[type] : NULL;
}

int mqtt_type_by_name(const char *name)
{
	char *end;
	long v;

	if (!name || !*name)
		return -1;
	for (int i = 0; i < MQTT_TYPE_COUNT; i++)
		if (strcasecmp(name, type_names[i]) == 0)
			return i;
	v = strtol(name, &end, 10);
	if (*end || v < 0 || v > 15)
		return -1;
	return (int)v;
}

/* ---------------- decoding ---------------- */

/* A cursor over a message's body. */
typedef struct Rd {
	const uint8_t *p;
	uint32_t off, len;
	int bad;
} Rd;

static int rd_u8(Rd *r, uint8_t *v)
{
	if (r->bad || r->off + 1 > r->len)
		return r->bad = 1, -1;
	*v = r->p[r->off++];
	return 0;
}

static int rd_u16(Rd *r, uint16_t *v)
{
	if (r->bad || r->off + 2 > r->len)
		return r->bad = 1, -1;
	*v = (uint16_t)(r->p[r->off] << 8 | r->p[r->off + 1]);
	r->off += 2;
	return 0;
}

/* A length-prefixed string or binary (2-byte length). */
static int rd_str(Rd *r, MqttField *f)
{
	uint16_t n;

	if (rd_u16(r, &n) < 0 || r->off + n > r->len)
		return r->bad = 1, -1;
	f->off = r->off;
	f->len = n;
	f->set = 1;
	r->off += n;
	return 0;
}

/* A variable byte integer (at most 4 bytes); its byte count, 0 when more
 * bytes are needed, -1 when malformed. */
static int varint(const uint8_t *p, size_t len, uint32_t *v)
{
	uint32_t x = 0;

	for (int i = 0; i < 4; i++) {
		if ((size_t)i >= len)
			return 0;
		x |= (uint32_t)(p[i] & 0x7f) << (7 * i);
		if (!(p[i] & 0x80)) {
			*v = x;
			return i + 1;
		}
	}
	return -1;
}

static const struct {
	const char *name;
	uint8_t kind;
} prop_defs[43] = {
	[1] = { "payload_format_indicator", MQTT_PK_BYTE },
	[2] = { "message_expiry_interval", MQTT_PK_U32 },
	[3] = { "content_type", MQTT_PK_STRING },
	[8] = { "response_topic", MQTT_PK_STRING },
	[9] = { "correlation_data", MQTT_PK_BINARY },
	[11] = { "subscription_identifier", MQTT_PK_VARINT },
	[17] = { "session_expiry_interval", MQTT_PK_U32 },
	[18] = { "assigned_client_identifier", MQTT_PK_STRING },
	[19] = { "server_keep_alive", MQTT_PK_U16 },
	[21] = { "authentication_method", MQTT_PK_STRING },
	[22] = { "authentication_data", MQTT_PK_BINARY },
	[23] = { "request_problem_information", MQTT_PK_BYTE },
	[24] = { "will_delay_interval", MQTT_PK_U32 },
	[25] = { "request_response_information", MQTT_PK_BYTE },
	[26] = { "response_information", MQTT_PK_STRING },
	[28] = { "server_reference", MQTT_PK_STRING },
	[31] = { "reason_string", MQTT_PK_STRING },
	[33] = { "receive_maximum", MQTT_PK_U16 },
	[34] = { "topic_alias_maximum", MQTT_PK_U16 },
	[35] = { "topic_alias", MQTT_PK_U16 },
	[36] = { "maximum_qos", MQTT_PK_BYTE },
	[37] = { "retain_available", MQTT_PK_BYTE },
	[38] = { "user_property", MQTT_PK_PAIR },
	[39] = { "maximum_packet_size", MQTT_PK_U32 },
	[40] = { "wildcard_subscription_available", MQTT_PK_BYTE },
	[41] = { "subscription_identifier_available", MQTT_PK_BYTE },
	[42] = { "shared_subscription_available", MQTT_PK_BYTE },
};

/* One property at p[0, len): its length, or -1 when malformed (an unknown
 * identifier cannot be skipped: its value's size is not known). */
static int prop_next(const uint8_t *p, uint32_t len, MqttProp *pr)
{
	uint32_t id, n, o;
	int k = varint(p, len, &id);

	if (k <= 0 || id >= 43 || !prop_defs[id].name)
		return -1;
	o = (uint32_t)k;
	memset(pr, 0, sizeof(*pr));
	pr->id = (uint8_t)id;
	pr->kind = prop_defs[id].kind;
	pr->name = prop_defs[id].name;
	switch (pr->kind) {
	case MQTT_PK_BYTE:
		if (o + 1 > len)
			return -1;
		pr->num = p[o];
		return (int)(o + 1);
	case MQTT_PK_U16:
		if (o + 2 > len)
			return -1;
		pr->num = (uint32_t)p[o] << 8 | p[o + 1];
		return (int)(o + 2);
	case MQTT_PK_U32:
		if (o + 4 > len)
			return -1;
		pr->num = (uint32_t)p[o] << 24 | (uint32_t)p[o + 1] << 16 |
			  (uint32_t)p[o + 2] << 8 | p[o + 3];
		return (int)(o + 4);
	case MQTT_PK_VARINT:
		k = varint(p + o, len - o, &pr->num);
		return k <= 0 ? -1 : (int)(o + (uint32_t)k);
	case MQTT_PK_STRING:
	case MQTT_PK_BINARY:
	case MQTT_PK_PAIR:
		if (o + 2 > len)
			return -1;
		n = (uint32_t)p[o] << 8 | p[o + 1];
		if (o + 2 + n > len)
			return -1;
		pr->s = p + o + 2;
		pr->slen = n;
		o += 2 + n;
		if (pr->kind != MQTT_PK_PAIR)
			return (int)o;
		if (o + 2 > len)
			return -1;
		n = (uint32_t)p[o] << 8 | p[o + 1];
		if (o + 2 + n > len)
			return -1;
		pr->v = p + o + 2;
		pr->vlen = n;
		return (int)(o + 2 + n);
	}
	return -1;
}

void mqtt_props_each(const uint8_t *p, uint32_t len,
		     void (*fn)(void *ctx, const MqttProp *pr), void *ctx)
{
	MqttProp pr;
	uint32_t o = 0;

	while (o < len) {
		int k = prop_next(p + o, len - o, &pr);

		if (k <= 0)
			return;
		fn(ctx, &pr);
		o += (uint32_t)k;
	}
}

/* A v5 property block: its length then the properties, each checked. */
static int rd_props(Rd *r, MqttField *f)
{
	uint32_t n, o;
	int k;
	MqttProp pr;

	if (r->bad)
		return -1;
	k = varint(r->p + r->off, r->len - r->off, &n);
	if (k <= 0 || n > r->len - r->off - (uint32_t)k)
		return r->bad = 1, -1;
	r->off += (uint32_t)k;
	f->off = r->off;
	f->len = n;
	f->set = 1;
	for (o = 0; o < n; o += (uint32_t)k) {
		k = prop_next(r->p + r->off + o, n - o, &pr);
		if (k <= 0)
			return r->bad = 1, -1;
	}
	r->off += n;
	return 0;
}

static int left(const Rd *r)
{
	return !r->bad && r->off < r->len;
}

/* The rest of the body: a list (SUBSCRIBE, UNSUBSCRIBE: checked here;
 * SUBACK, UNSUBACK: one byte each). */
static void rd_list(Rd *r, MqttMsg *m, int topics, int options)
{
	m->list.off = r->off;
	m->list.len = r->len - r->off;
	m->list.set = 1;
	m->list_count = 0;
	while (left(r)) {
		if (topics) {
			MqttField t;
			uint8_t o;

			if (rd_str(r, &t) < 0 || (options && rd_u8(r, &o) < 0))
				return;
		} else {
			r->off++;
		}
		m->list_count++;
	}
}

/* Decodes the body (type-specific part) into m. */
static int decode_body(MqttMsg *m, uint8_t version)
{
	Rd r = { m->raw, 0, m->raw_len, 0 };
	int v5 = version == 5;

	switch (m->type) {
	case MQTT_CONNECT:
		rd_str(&r, &m->proto_name);
		rd_u8(&r, &m->version);
		rd_u8(&r, &m->cflags);
		rd_u16(&r, &m->keepalive);
		if (r.bad)
			return -1;
		/* CONNECT carries its own version: its properties follow it */
		v5 = m->version == 5;
		if (v5)
			rd_props(&r, &m->props);
		rd_str(&r, &m->client_id);
		if (m->cflags & MQTT_CF_WILL) {
			if (v5)
				rd_props(&r, &m->will_props);
			rd_str(&r, &m->will_topic);
			rd_str(&r, &m->will_msg);
		}
		if (m->cflags & MQTT_CF_USERNAME)
			rd_str(&r, &m->username);
		if (m->cflags & MQTT_CF_PASSWORD)
			rd_str(&r, &m->password);
		break;
	case MQTT_CONNACK: {
		uint8_t fl = 0;

		rd_u8(&r, &fl);
		rd_u8(&r, &m->rc);
		m->session_present = fl & 1;
		m->has_rc = 1;
		if (v5 && left(&r))
			rd_props(&r, &m->props);
		break;
	}
	case MQTT_PUBLISH:
		rd_str(&r, &m->topic);
		if (m->qos > 0) {
			rd_u16(&r, &m->msg_id);
			m->has_msg_id = !r.bad;
		}
		if (v5)
			rd_props(&r, &m->props);
		if (r.bad)
			return -1;
		m->payload.off = r.off;
		m->payload.len = r.len - r.off;
		m->payload.set = 1;
		r.off = r.len;
		break;
	case MQTT_PUBACK:
	case MQTT_PUBREC:
	case MQTT_PUBREL:
	case MQTT_PUBCOMP:
		rd_u16(&r, &m->msg_id);
		m->has_msg_id = !r.bad;
		if (v5) {
			/* an absent reason code is 0x00, success (5.0 3.4.2.1) */
			m->has_rc = 1;
			if (left(&r))
				rd_u8(&r, &m->rc);
			if (left(&r))
				rd_props(&r, &m->props);
		}
		break;
	case MQTT_SUBSCRIBE:
	case MQTT_UNSUBSCRIBE:
		rd_u16(&r, &m->msg_id);
		m->has_msg_id = !r.bad;
		if (v5)
			rd_props(&r, &m->props);
		if (r.bad)
			return -1;
		rd_list(&r, m, 1, m->type == MQTT_SUBSCRIBE);
		break;
	case MQTT_SUBACK:
	case MQTT_UNSUBACK:
		rd_u16(&r, &m->msg_id);
		m->has_msg_id = !r.bad;
		if (v5)
			rd_props(&r, &m->props);
		if (r.bad)
			return -1;
		if (m->type == MQTT_SUBACK || v5)
			rd_list(&r, m, 0, 0);
		break;
	case MQTT_DISCONNECT:
	case MQTT_AUTH:
		/* Suricata 8 reads the reason code only with properties after
		 * it: a lone byte reads as 0 (suricata-verify mqtt-sub-rules:
		 * e0 01 04 logs reason_code 0) */
		if (v5) {
			m->has_rc = 1;
			if (r.len >= 2) {
				rd_u8(&r, &m->rc);
				rd_props(&r, &m->props);
			}
			r.off = r.len;
		}
		break;
	default:
		/* PINGREQ, PINGRESP, UNASSIGNED: nothing to read */
		break;
	}
	return r.bad ? -1 : 0;
}

static void header_flags(MqttMsg *m, uint8_t b0)
{
	m->type = b0 >> 4;
	m->dup = (b0 >> 3) & 1;
	m->qos = (b0 >> 1) & 3;
	m->retain = b0 & 1;
}

int mqtt_decode(const uint8_t *buf, size_t len, uint8_t version, MqttMsg *m)
{
	uint32_t rem;
	int k;

	memset(m, 0, sizeof(*m));
	if (len < 2)
		return -1;
	k = varint(buf + 1, len - 1, &rem);
	if (k <= 0 || 1 + (size_t)k + rem > len)
		return -1;
	header_flags(m, buf[0]);
	m->raw = (uint8_t *)(buf + 1 + k);
	m->raw_len = rem;
	return decode_body(m, version);
}

int mqtt_probe(const uint8_t *data, size_t len)
{
	uint32_t rem;
	int k;

	if (len < 2)
		return -1;
	/* an unassigned type or QoS 3 is not MQTT, as Suricata's probe says */
	if ((data[0] >> 4) == MQTT_UNASSIGNED || ((data[0] >> 1) & 3) == 3)
		return 0;
	k = varint(data + 1, len - 1, &rem);
	if (k < 0)
		return 0;
	return k == 0 ? -1 : 1;
}

/* ---------------- transactions ---------------- */

static void msg_free(MqttMsg *m)
{
	free(m->raw);
	m->raw = NULL;
}

static void tx_free(MqttTx *tx, void (*free_detect)(void *))
{
	for (int i = 0; i < tx->nmsgs; i++)
		msg_free(&tx->msgs[i]);
	if (tx->detect && free_detect)
		free_detect(tx->detect);
	free(tx);
}

MqttState *mqtt_state_new(uint32_t max_msg_len, uint32_t max_tx)
{
	MqttState *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->max_msg_len = max_msg_len;
	s->max_tx = max_tx ? max_tx : 4096;
	return s;
}

void mqtt_state_free(MqttState *s, void (*free_detect)(void *))
{
	if (!s)
		return;
	for (uint32_t i = 0; i < s->ntx; i++)
		tx_free(s->txs[i], free_detect);
	free(s->txs);
	free(s->side[0].buf);
	free(s->side[1].buf);
	free(s);
}

MqttTx *mqtt_tx_by_id(const MqttState *s, uint64_t id)
{
	uint32_t lo = 0, hi = s->ntx;

	/* ids grow along the list: binary search */
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (s->txs[mid]->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->ntx && s->txs[lo]->id == id ? s->txs[lo] : NULL;
}

void mqtt_tx_gc(MqttState *s, int (*done)(const MqttTx *, void *), void *arg,
		void (*free_detect)(void *))
{
	uint32_t n = 0;

	while (n < s->ntx && done(s->txs[n], arg))
		n++;
	if (!n)
		return;
	s->low = s->txs[n - 1]->id + 1;
	for (uint32_t i = 0; i < n; i++)
		tx_free(s->txs[i], free_detect);
	memmove(s->txs, s->txs + n, (s->ntx - n) * sizeof(*s->txs));
	s->ntx -= n;
}

static MqttTx *tx_new(MqttState *s, int dir)
{
	MqttTx *tx;

	if (s->ntx == s->txcap) {
		uint32_t cap = s->txcap ? s->txcap * 2 : 8;
		MqttTx **n = realloc(s->txs, cap * sizeof(*n));

		if (!n)
			return NULL;
		s->txs = n;
		s->txcap = cap;
	}
	tx = calloc(1, sizeof(*tx));
	if (!tx)
		return NULL;
	tx->id = s->next_id++;
	tx->pkt_id = -1;
	tx->version = s->version;
	if (dir == MQTT_TOCLIENT)
		tx->toclient = 1;
	else
		tx->toserver = 1;
	/* past max-tx the oldest open one is given up: completed (logged and
	 * freed in turn) with too_many_transactions on it, as Suricata 8 does;
	 * one per new transaction keeps the live ones near the limit */
	if (s->ntx > s->max_tx) {
		for (uint32_t i = 0; i < s->ntx; i++) {
			if (!s->txs[i]->complete) {
				s->txs[i]->complete = 1;
				s->txs[i]->events |= 1u << MQTT_EV_TOO_MANY_TRANSACTIONS;
				break;
			}
		}
	}
	s->txs[s->ntx++] = tx;
	return tx;
}

/* The oldest open transaction waiting for a reply with this packet id. */
static MqttTx *tx_waiting(MqttState *s, int64_t pkt_id)
{
	for (uint32_t i = 0; i < s->ntx; i++)
		if (!s->txs[i]->complete && s->txs[i]->pkt_id == pkt_id)
			return s->txs[i];
	return NULL;
}

static void tx_add_msg(MqttTx *tx, MqttMsg *m, int dir)
{
	if (tx->nmsgs < MQTT_TX_MAX_MSGS)
		tx->msgs[tx->nmsgs++] = *m;
	else
		msg_free(m);
	m->raw = NULL;
	if (dir == MQTT_TOCLIENT)
		tx->toclient = 1;
	else
		tx->toserver = 1;
}

#define EV(e) (1u << (e))
#define CONNECT_PKT_ID ((int64_t)1 << 32) /* not a 16-bit packet id */

/* A new transaction holding m alone. */
static MqttTx *tx_alone(MqttState *s, MqttMsg *m, int dir, uint32_t events, int complete)
{
	MqttTx *tx = tx_new(s, dir);

	if (!tx) {
		msg_free(m);
		return NULL;
	}
	tx_add_msg(tx, m, dir);
	tx->events |= events;
	tx->complete = (uint8_t)complete;
	return tx;
}

/* Files message m into the transactions, the way Suricata 8 pairs them. */
static MqttTx *handle_msg(MqttState *s, MqttMsg *m, int dir)
{
	uint32_t unintro = s->connected ? 0 : EV(MQTT_EV_UNINTRODUCED_MESSAGE);
	MqttTx *tx;
	int64_t id = m->has_msg_id ? m->msg_id : -2;

	if (m->truncated)
		return tx_alone(s, m, dir, 0, 1);
	switch (m->type) {
	case MQTT_CONNECT:
		s->version = m->version;
		tx = tx_alone(s, m, dir, s->connected ? EV(MQTT_EV_DOUBLE_CONNECT) : 0, 0);
		if (tx)
			tx->pkt_id = CONNECT_PKT_ID;
		return tx;
	case MQTT_CONNACK:
		tx = tx_waiting(s, CONNECT_PKT_ID);
		if (!tx)
			return tx_alone(s, m, dir, EV(MQTT_EV_MISSING_CONNECT), 1);
		tx_add_msg(tx, m, dir);
		tx->complete = 1;
		tx->pkt_id = -1;
		s->connected = 1;
		return tx;
	case MQTT_PUBLISH:
	case MQTT_SUBSCRIBE:
	case MQTT_UNSUBSCRIBE: {
		/* QoS 0: no reply to wait for; SUBSCRIBE and UNSUBSCRIBE must
		 * have QoS 1 (3.8.1), PUBLISH up to 2 */
		unsigned maxq = m->type == MQTT_PUBLISH ? 2 : 1;
		uint8_t qos = m->qos;

		if (qos == 0)
			return tx_alone(s, m, dir, unintro, 1);
		if (qos > maxq)
			return tx_alone(s, m, dir, unintro | EV(MQTT_EV_INVALID_QOS_LEVEL), 0);
		if (!m->has_msg_id)
			return tx_alone(s, m, dir, unintro | EV(MQTT_EV_MISSING_MSG_ID), 0);
		tx = tx_alone(s, m, dir, unintro, 0);
		if (tx)
			tx->pkt_id = id;
		return tx;
	}
	case MQTT_PUBREC:
	case MQTT_PUBREL:
	case MQTT_PUBACK:
	case MQTT_PUBCOMP:
		tx = tx_waiting(s, id);
		if (!tx)
			return tx_alone(s, m, dir, unintro | EV(MQTT_EV_MISSING_PUBLISH), 1);
		/* QoS 2: PUBREC and PUBREL go on, PUBCOMP ends it */
		if (m->type == MQTT_PUBACK || m->type == MQTT_PUBCOMP) {
			tx->complete = 1;
			tx->pkt_id = -1;
		}
		tx_add_msg(tx, m, dir);
		return tx;
	case MQTT_SUBACK:
	case MQTT_UNSUBACK:
		tx = tx_waiting(s, id);
		if (!tx)
			return tx_alone(s, m, dir,
					unintro | EV(m->type == MQTT_SUBACK ?
							     MQTT_EV_MISSING_SUBSCRIBE :
							     MQTT_EV_MISSING_UNSUBSCRIBE), 1);
		tx_add_msg(tx, m, dir);
		tx->complete = 1;
		tx->pkt_id = -1;
		return tx;
	case MQTT_UNASSIGNED:
		return tx_alone(s, m, dir, EV(MQTT_EV_UNASSIGNED_MSG_TYPE), 1);
	default:
		/* PINGREQ, PINGRESP, DISCONNECT, AUTH */
		return tx_alone(s, m, dir, unintro, 1);
	}
}

/* A transaction for an event without a message (malformed traffic). */
static void event_tx(MqttState *s, int dir, int ev)
{
	MqttTx *tx = tx_new(s, dir);

	if (!tx) {
		s->state_events |= EV(ev);
		return;
	}
	tx->events |= EV(ev);
	tx->complete = 1;
}

/* ---------------- the stream ---------------- */

static int side_reserve(MqttSide *sd, uint32_t need)
{
	uint8_t *n;
	uint32_t cap;

	if (need <= sd->cap)
		return 0;
	cap = sd->cap ? sd->cap : 256;
	while (cap < need)
		cap = cap > UINT32_MAX / 2 ? need : cap * 2;
	n = realloc(sd->buf, cap);
	if (!n)
		return -1;
	sd->buf = n;
	sd->cap = cap;
	return 0;
}

/* One message at p[0, n). Returns the bytes it used (a truncated message:
 * those present, the rest goes to side->skip), 0 when more are needed,
 * -1 malformed. *tx_id gets the transaction's id. */
static int64_t one_msg(MqttState *s, int dir, const uint8_t *p, size_t n, int64_t start)
{
	MqttSide *sd = &s->side[dir];
	MqttMsg m;
	MqttTx *tx;
	uint32_t rem;
	uint64_t total;
	int k;

	if (n < 2)
		return 0;
	k = varint(p + 1, n - 1, &rem);
	if (k < 0)
		return -1;
	if (k == 0)
		return 0;
	total = 1 + (uint64_t)k + rem;
	memset(&m, 0, sizeof(m));
	header_flags(&m, p[0]);
	if (s->max_msg_len && rem > s->max_msg_len) {
		uint64_t have = total < n ? total : n;

		m.truncated = 1;
		m.skipped_length = total;
		sd->skip = total - have;
		tx = handle_msg(s, &m, dir);
		if (s->cb)
			s->cb(s->cb_ctx, dir, start, total, 1 + (uint32_t)k, tx ? tx->id : UINT64_MAX);
		return (int64_t)have;
	}
	if (total > n)
		return 0;
	m.raw_len = rem;
	if (rem) {
		m.raw = malloc(rem);
		if (!m.raw)
			return -1;
		memcpy(m.raw, p + 1 + k, rem);
	}
	if (decode_body(&m, s->version) < 0) {
		msg_free(&m);
		return -1;
	}
	tx = handle_msg(s, &m, dir);
	if (s->cb)
		s->cb(s->cb_ctx, dir, start, total, 1 + (uint32_t)k, tx ? tx->id : UINT64_MAX);
	return (int64_t)total;
}

/* How many more bytes the buffered start of a message needs, at least. */
static uint32_t want_more(const MqttState *s, const MqttSide *sd)
{
	uint32_t rem;
	int k;

	if (sd->len < 2)
		return 2 - sd->len;
	k = varint(sd->buf + 1, sd->len - 1, &rem);
	if (k == 0)
		return 1;
	if (k < 0)
		return 0;
	if (s->max_msg_len && rem > s->max_msg_len)
		return 0;   /* truncated: the header is enough */
	return (uint32_t)(1 + k + rem) - sd->len;
}

static void malformed(MqttState *s, int dir)
{
	MqttSide *sd = &s->side[dir];

	sd->dead = 1;
	sd->len = 0;
	event_tx(s, dir, MQTT_EV_MALFORMED_TRAFFIC);
}

int mqtt_parse(MqttState *s, int dir, const uint8_t *data, size_t len)
{
	MqttSide *sd;
	size_t pos = 0;
	uint64_t before;

	if (!s || dir < 0 || dir > 1)
		return -1;
	sd = &s->side[dir];
	if (sd->dead)
		return -1;
	before = s->next_id;
	while (pos < len) {
		int64_t r;

		if (sd->skip) {
			size_t n = len - pos < sd->skip ? len - pos : (size_t)sd->skip;

			sd->skip -= n;
			pos += n;
			continue;
		}
		if (sd->len == 0) {
			r = one_msg(s, dir, data + pos, len - pos, (int64_t)pos);
			if (r < 0) {
				malformed(s, dir);
				return -1;
			}
			if (r > 0) {
				pos += (size_t)r;
				continue;
			}
			/* incomplete: keep it (bounded: a message over
			 * max-msg-length is never buffered whole) */
			if (side_reserve(sd, (uint32_t)(len - pos)) < 0) {
				malformed(s, dir);
				return -1;
			}
			memcpy(sd->buf, data + pos, len - pos);
			sd->len = (uint32_t)(len - pos);
			pos = len;
			break;
		}
		/* a message begun earlier: take what it still needs */
		{
			uint32_t want = want_more(s, sd);
			size_t take;

			if (want == 0)
				want = 1;
			take = len - pos < want ? len - pos : want;
			if (side_reserve(sd, sd->len + (uint32_t)take) < 0) {
				malformed(s, dir);
				return -1;
			}
			memcpy(sd->buf + sd->len, data + pos, take);
			sd->len += (uint32_t)take;
			pos += take;
			r = one_msg(s, dir, sd->buf, sd->len, (int64_t)pos - sd->len);
			if (r < 0) {
				malformed(s, dir);
				return -1;
			}
			if (r > 0) {
				/* a truncated message may leave body bytes here:
				 * they count against its skip */
				uint32_t extra = sd->len - (uint32_t)r;

				sd->len = 0;
				if (extra)
					pos -= extra;
			}
		}
	}
	return (int)(s->next_id - before);
}

void mqtt_gap(MqttState *s, int dir)
{
	if (!s || dir < 0 || dir > 1)
		return;
	s->side[dir].dead = 1;
	s->side[dir].len = 0;
	s->side[dir].skip = 0;
}

/* ---------------- lists ---------------- */

int mqtt_list_topic(const MqttMsg *m, uint32_t i, const uint8_t **p, uint32_t *n, uint8_t *opt)
{
	Rd r;
	int options = m->type == MQTT_SUBSCRIBE;

	if (!m->list.set || i >= m->list_count ||
	    (m->type != MQTT_SUBSCRIBE && m->type != MQTT_UNSUBSCRIBE))
		return -1;
	r = (Rd){ m->raw, m->list.off, m->list.off + m->list.len, 0 };
	for (uint32_t k = 0;; k++) {
		MqttField t;
		uint8_t o = 0;

		if (rd_str(&r, &t) < 0 || (options && rd_u8(&r, &o) < 0))
			return -1;
		if (k == i) {
			*p = m->raw + t.off;
			*n = t.len;
			if (opt)
				*opt = o;
			return 0;
		}
	}
}

int mqtt_list_code(const MqttMsg *m, uint32_t i, uint8_t *code)
{
	if (!m->list.set || i >= m->list_count ||
	    (m->type != MQTT_SUBACK && m->type != MQTT_UNSUBACK))
		return -1;
	*code = m->raw[m->list.off + i];
	return 0;
}
