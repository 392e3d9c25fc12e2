/* MQTT keywords, as Suricata 8 documents them (rules/mqtt-keywords): the
 * sticky buffers mqtt.connect.{clientid, username, password, willtopic,
 * willmessage, protocol_string}, mqtt.publish.{topic, message} and the
 * multi-buffers mqtt.subscribe.topic and mqtt.unsubscribe.topic, read from
 * the transaction's messages through the buffer registry; and the
 * transaction properties mqtt.type, mqtt.flags, mqtt.qos,
 * mqtt.reason_code (alias mqtt.connack.return_code), mqtt.protocol_version,
 * mqtt.connect.flags and mqtt.connack.session_present.
 *
 * A transaction holds a request and its reply: a property matches when
 * any of its messages has it (mqtt.type:CONNACK matches the CONNECT /
 * CONNACK pair, mqtt.qos:0 the SUBSCRIBE / SUBACK pair through its SUBACK),
 * as Suricata's walk over the transaction's messages does. */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "detect/buffers.h"
#include "app-layer/mqtt.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int kw_mqtt_sticky(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)arg;
	return sig_app_sticky(st, kw, ALPROTO_MQTT, 0, "an mqtt, tcp or ip");
}

/* The first message of the given type in the transaction, or NULL. */
static const MqttMsg *tx_msg(const MqttTx *tx, unsigned type)
{
	for (int i = 0; i < tx->nmsgs; i++)
		if (tx->msgs[i].type == type && !tx->msgs[i].truncated)
			return &tx->msgs[i];
	return NULL;
}

static int give(const MqttMsg *m, const MqttField *f, const uint8_t **data, uint32_t *len)
{
	if (!m || !f->set)
		return -1;
	*data = m->raw + f->off;
	*len = f->len;
	return 0;
}

int mqtt_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		    const uint8_t **data, uint32_t *len)
{
	const MqttTx *t = tx;
	const MqttMsg *m;
	int which = b->pbuf[side & 1];

	if (!t)
		return -1;
	if (which == MQTT_KW_BUF_SUB_TOPIC || which == MQTT_KW_BUF_UNSUB_TOPIC) {
		m = tx_msg(t, which == MQTT_KW_BUF_SUB_TOPIC ? MQTT_SUBSCRIBE : MQTT_UNSUBSCRIBE);
		return m ? mqtt_list_topic(m, idx, data, len, NULL) : -1;
	}
	if (idx)
		return -1;
	switch (which) {
	case MQTT_KW_BUF_CLIENTID:
		m = tx_msg(t, MQTT_CONNECT);
		return give(m, m ? &m->client_id : NULL, data, len);
	case MQTT_KW_BUF_USERNAME:
		m = tx_msg(t, MQTT_CONNECT);
		return give(m, m ? &m->username : NULL, data, len);
	case MQTT_KW_BUF_PASSWORD:
		m = tx_msg(t, MQTT_CONNECT);
		return give(m, m ? &m->password : NULL, data, len);
	case MQTT_KW_BUF_WILLTOPIC:
		m = tx_msg(t, MQTT_CONNECT);
		return give(m, m ? &m->will_topic : NULL, data, len);
	case MQTT_KW_BUF_WILLMESSAGE:
		m = tx_msg(t, MQTT_CONNECT);
		return give(m, m ? &m->will_msg : NULL, data, len);
	case MQTT_KW_BUF_PROTOCOL_STRING:
		m = tx_msg(t, MQTT_CONNECT);
		return give(m, m ? &m->proto_name : NULL, data, len);
	case MQTT_KW_BUF_PUB_TOPIC:
		m = tx_msg(t, MQTT_PUBLISH);
		return give(m, m ? &m->topic : NULL, data, len);
	case MQTT_KW_BUF_PUB_MESSAGE:
		m = tx_msg(t, MQTT_PUBLISH);
		return give(m, m ? &m->payload : NULL, data, len);
	}
	return -1;
}

/* ---- transaction properties ---- */

enum mqtt_prop_kw { MP_TYPE, MP_FLAGS, MP_QOS, MP_REASON, MP_VERSION, MP_CONNECT_FLAGS,
		    MP_SESSION_PRESENT };

typedef struct DetectMqtt {
	int kind;                   /* enum mqtt_prop_kw */
	DetectUint u;               /* type, qos, reason code, version */
	uint8_t set, clear;         /* flags: bits that must be set / clear */
} DetectMqtt;

/* "a,!b": the named bits into set and clear; -1 on an unknown name. */
static int parse_flag_list(const char *arg, const char *const *names, const uint8_t *bits,
			   int n, DetectMqtt *d)
{
	char buf[256], *parts[16];
	int k;

	if (!arg || strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	k = split_commas(buf, parts, 16);
	if (k <= 0)
		return -1;
	for (int i = 0; i < k; i++) {
		char *p = str_trim(parts[i]);
		int neg = 0, found = 0;

		if (*p == '!') {
			neg = 1;
			p = str_trim(p + 1);
		}
		for (int j = 0; j < n; j++) {
			if (strcasecmp(p, names[j]) == 0) {
				if (neg)
					d->clear |= bits[j];
				else
					d->set |= bits[j];
				found = 1;
			}
		}
		if (!found)
			return -1;
	}
	return (d->set & d->clear) ? -1 : 0;
}

static int64_t type_by_name(const char *name)
{
	return mqtt_type_by_name(name);
}

static const char *const hdr_flag_names[] = { "dup", "retain" };
static const uint8_t hdr_flag_bits[] = { 0x08, 0x01 };
static const char *const conn_flag_names[] = { "username", "password", "will", "will_retain",
					       "clean_session" };
static const uint8_t conn_flag_bits[] = { MQTT_CF_USERNAME, MQTT_CF_PASSWORD, MQTT_CF_WILL,
					  MQTT_CF_WILL_RETAIN, MQTT_CF_CLEAN_SESSION };

static int kw_mqtt_prop(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectMqtt *d;
	char *v;
	int bad = 0;

	if (sig_set_alproto_for(st, kw->name, ALPROTO_MQTT, 0, "an mqtt, tcp or ip"))
		return -1;
	v = str_trim_dup(arg ? arg : "", 1);
	d = calloc(1, sizeof(*d));
	if (!v || !d) {
		free(v);
		free(d);
		return sig_error(st, "out of memory");
	}
	d->kind = kw->buf;
	switch (d->kind) {
	case MP_TYPE:
		bad = parse_uint_enum(v, 255, type_by_name, &d->u) != 0;
		break;
	case MP_QOS:
		bad = parse_uint_cmp(v, 2, &d->u) != 0;
		break;
	case MP_REASON:
	case MP_VERSION:
		bad = parse_uint_cmp(v, 255, &d->u) != 0;
		break;
	case MP_FLAGS:
		bad = parse_flag_list(v, hdr_flag_names, hdr_flag_bits, 2, d) < 0;
		break;
	case MP_CONNECT_FLAGS:
		bad = parse_flag_list(v, conn_flag_names, conn_flag_bits, 5, d) < 0;
		break;
	case MP_SESSION_PRESENT:
		d->u.mode = UM_EQ;
		if (strcasecmp(v, "yes") == 0 || strcasecmp(v, "true") == 0)
			d->u.a = 1;
		else if (strcasecmp(v, "no") == 0 || strcasecmp(v, "false") == 0)
			d->u.a = 0;
		else
			bad = 1;
		break;
	}
	if (bad) {
		sig_error(st, "invalid %s \"%s\"", kw->name, v);
		free(v);
		free(d);
		return -1;
	}
	free(v);
	st->s->flags |= SIG_FLAG_TX_MATCH;
	return sm_append(st, SM_LIST_MATCH, KW_MQTT_PROP, d) < 0 ? -1 : 0;
}

static int flags_ok(const DetectMqtt *d, uint8_t have)
{
	return (have & d->set) == d->set && !(have & d->clear);
}

/* The codes a message carries: CONNACK's return code, a v5 reason code,
 * SUBACK's and UNSUBACK's list. */
static int reason_match(const DetectMqtt *d, const MqttMsg *m)
{
	uint8_t c;

	if (m->truncated)
		return 0;
	if (m->has_rc && detect_uint_match(&d->u, m->rc))
		return 1;
	for (uint32_t i = 0; mqtt_list_code(m, i, &c) == 0; i++)
		if (detect_uint_match(&d->u, c))
			return 1;
	return 0;
}

static int msg_match(const DetectMqtt *d, const MqttMsg *m)
{
	uint8_t hdr = (uint8_t)(m->dup << 3 | m->retain);

	switch (d->kind) {
	case MP_TYPE:
		return detect_uint_match(&d->u, m->type);
	case MP_QOS:
		return detect_uint_match(&d->u, m->qos);
	case MP_FLAGS:
		return flags_ok(d, hdr);
	case MP_REASON:
		return reason_match(d, m);
	case MP_CONNECT_FLAGS:
		return m->type == MQTT_CONNECT && !m->truncated && flags_ok(d, m->cflags);
	case MP_SESSION_PRESENT:
		return m->type == MQTT_CONNACK && !m->truncated &&
		       detect_uint_match(&d->u, m->session_present);
	}
	return 0;
}

static int match_mqtt(const DetectTx *tc, const SigMatch *m, Packet *p)
{
	const DetectMqtt *d = m->ctx;
	const MqttTx *t = tc->tx;

	if (!p->flow || p->flow->app_proto != ALPROTO_MQTT || !t)
		return 0;
	if (d->kind == MP_VERSION)
		return t->version && detect_uint_match(&d->u, t->version);
	for (int i = 0; i < t->nmsgs; i++)
		if (msg_match(d, &t->msgs[i]))
			return 1;
	return 0;
}

#define MQTTB(n_, b_) { .name = n_, .id = KW_MQTT_STICKY, .setup = kw_mqtt_sticky, \
	.flags = STICKY, .buf = b_, .desc = "sticky buffer" }
#define MQTTP(n_, k_, d_) { .name = n_, .id = KW_MQTT_PROP, .setup = kw_mqtt_prop, \
	.flags = NEED | SQ | KWF_TX, .buf = k_, .desc = d_, .tx_match = match_mqtt }

const Keyword mqtt_keywords[] = {
	MQTTB("mqtt.connect.clientid", BUF_MQTT_CONNECT_CLIENTID),
	MQTTB("mqtt.connect.username", BUF_MQTT_CONNECT_USERNAME),
	MQTTB("mqtt.connect.password", BUF_MQTT_CONNECT_PASSWORD),
	MQTTB("mqtt.connect.willtopic", BUF_MQTT_CONNECT_WILLTOPIC),
	MQTTB("mqtt.connect.willmessage", BUF_MQTT_CONNECT_WILLMESSAGE),
	MQTTB("mqtt.connect.protocol_string", BUF_MQTT_CONNECT_PROTOCOL_STRING),
	MQTTB("mqtt.publish.topic", BUF_MQTT_PUBLISH_TOPIC),
	MQTTB("mqtt.publish.message", BUF_MQTT_PUBLISH_MESSAGE),
	MQTTB("mqtt.subscribe.topic", BUF_MQTT_SUBSCRIBE_TOPIC),
	MQTTB("mqtt.unsubscribe.topic", BUF_MQTT_UNSUBSCRIBE_TOPIC),
	MQTTP("mqtt.type", MP_TYPE, "MQTT control packet type of a message of the transaction"),
	MQTTP("mqtt.flags", MP_FLAGS, "MQTT fixed header flags (dup, retain, !negated)"),
	MQTTP("mqtt.qos", MP_QOS, "MQTT QoS of a message of the transaction"),
	MQTTP("mqtt.reason_code", MP_REASON, "MQTT reason or return code"),
	MQTTP("mqtt.connack.return_code", MP_REASON, "MQTT reason or return code"),
	MQTTP("mqtt.protocol_version", MP_VERSION, "MQTT protocol version"),
	MQTTP("mqtt.connect.flags", MP_CONNECT_FLAGS, "MQTT CONNECT flags"),
	MQTTP("mqtt.connack.session_present", MP_SESSION_PRESENT,
	      "MQTT CONNACK session present flag"),
	{ .name = NULL }
};
