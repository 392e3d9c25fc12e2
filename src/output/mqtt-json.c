/* eve "mqtt" records and the mqtt member of alerts (see mqtt-json.h). */
#include "output/mqtt-json.h"

#include "app-layer/app-layer.h"
#include "app-layer/mqtt.h"
#include "output/output-private.h"
#include "output/json-writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A string under a budget: whole while it fits, else its first
 * bytes and how many were left out (Suricata's string-log-limit form). */
static void lstr(JsonWriter *w, const char *key, const uint8_t *p, uint32_t n, uint64_t *budget)
{
	char tail[64];
	uint8_t *tmp;
	size_t keep, tl;

	if (n <= *budget) {
		jw_bytes(w, key, p, n);
		if (*budget != UINT64_MAX)
			*budget -= n;
		return;
	}
	keep = (size_t)*budget;
	*budget = 0;
	tl = (size_t)snprintf(tail, sizeof(tail), "[truncated %zu additional bytes]", n - keep);
	tmp = malloc(keep + tl);
	if (!tmp) {
		jw_bytes(w, key, p, keep);
		return;
	}
	memcpy(tmp, p, keep);
	memcpy(tmp + keep, tail, tl);
	jw_bytes(w, key, tmp, keep + tl);
	free(tmp);
}

/* A field of the message, when it was there; whole, or under its own
 * budget of limit bytes (limit UINT64_MAX: whole). */
static void fstr(JsonWriter *w, const char *key, const MqttMsg *m, const MqttField *f,
		 uint64_t limit)
{
	if (f->set)
		lstr(w, key, m->raw + f->off, f->len, &limit);
}

static void prop_write(void *ctx, const MqttProp *pr)
{
	JsonWriter *w = ctx;

	switch (pr->kind) {
	case MQTT_PK_STRING:
	case MQTT_PK_BINARY:
		jw_bytes(w, pr->name, pr->s, pr->slen);
		break;
	case MQTT_PK_PAIR: {
		/* a user property is its own key: the key's bytes as a string */
		char key[256];
		size_t n = pr->slen < sizeof(key) - 1 ? pr->slen : sizeof(key) - 1;
		size_t j = 0;

		/* keys are our literals in the writer (plain ASCII): keep
		 * printable ASCII only */
		for (size_t i = 0; i < n; i++)
			if (pr->s[i] >= 0x20 && pr->s[i] < 0x7f && pr->s[i] != '"' && pr->s[i] != '\\')
				key[j++] = (char)pr->s[i];
		key[j] = 0;
		jw_bytes(w, key, pr->v, pr->vlen);
		break;
	}
	default:
		jw_int(w, pr->name, pr->num);
		break;
	}
}

static void props(JsonWriter *w, const char *key, const MqttMsg *m, const MqttField *f)
{
	JwMark mk;

	if (!f->set || !m->raw)
		return;
	mk = jw_mark(w);
	jw_object(w, key);
	mqtt_props_each(m->raw + f->off, f->len, prop_write, w);
	jw_close_nonempty(w, mk);
}

static const char *const obj_names[MQTT_TYPE_COUNT] = {
	"unassigned", "connect", "connack", "publish", "puback", "pubrec", "pubrel",
	"pubcomp", "subscribe", "suback", "unsubscribe", "unsuback", "pingreq",
	"pingresp", "disconnect", "auth",
};

static void msg_write(JsonWriter *w, const MqttMsg *m, uint64_t limit)
{
	const uint64_t whole = UINT64_MAX;
	uint64_t budget = limit;

	/* type 0 has no member in Suricata's record (nor in the eve schema):
	 * its transaction logs an empty object, its event says the rest */
	if (m->type == MQTT_UNASSIGNED)
		return;
	jw_object(w, obj_names[m->type & 15]);
	jw_int(w, "qos", m->qos);
	jw_bool(w, "retain", m->retain);
	jw_bool(w, "dup", m->dup);
	if (m->truncated) {
		jw_bool(w, "truncated", 1);
		jw_int(w, "skipped_length", (int64_t)m->skipped_length);
		jw_close(w);
		return;
	}
	switch (m->type) {
	case MQTT_CONNECT:
		fstr(w, "protocol_string", m, &m->proto_name, whole);
		jw_int(w, "protocol_version", m->version);
		jw_object(w, "flags");
		jw_bool(w, "username", m->cflags & MQTT_CF_USERNAME);
		jw_bool(w, "password", m->cflags & MQTT_CF_PASSWORD);
		jw_bool(w, "will_retain", m->cflags & MQTT_CF_WILL_RETAIN);
		jw_bool(w, "will", m->cflags & MQTT_CF_WILL);
		jw_bool(w, "clean_session", m->cflags & MQTT_CF_CLEAN_SESSION);
		jw_close(w);
		fstr(w, "client_id", m, &m->client_id, whole);
		fstr(w, "username", m, &m->username, whole);
		fstr(w, "password", m, &m->password, whole);
		if (m->will_topic.set) {
			jw_object(w, "will");
			fstr(w, "topic", m, &m->will_topic, whole);
			fstr(w, "message", m, &m->will_msg, whole);
			props(w, "properties", m, &m->will_props);
			jw_close(w);
		}
		break;
	case MQTT_CONNACK:
		jw_bool(w, "session_present", m->session_present);
		jw_int(w, "return_code", m->rc);
		break;
	case MQTT_PUBLISH:
		fstr(w, "topic", m, &m->topic, whole);
		if (m->has_msg_id)
			jw_int(w, "message_id", m->msg_id);
		fstr(w, "message", m, &m->payload, limit);
		break;
	case MQTT_PUBACK:
	case MQTT_PUBREC:
	case MQTT_PUBREL:
	case MQTT_PUBCOMP:
		if (m->has_msg_id)
			jw_int(w, "message_id", m->msg_id);
		if (m->has_rc)
			jw_int(w, "reason_code", m->rc);
		break;
	case MQTT_SUBSCRIBE:
	case MQTT_UNSUBSCRIBE:
		if (m->has_msg_id)
			jw_int(w, "message_id", m->msg_id);
		jw_array(w, "topics");
		for (uint32_t i = 0; i < m->list_count; i++) {
			const uint8_t *p;
			uint32_t n;
			uint8_t opt;

			if (mqtt_list_topic(m, i, &p, &n, &opt) < 0)
				break;
			if (m->type == MQTT_SUBSCRIBE) {
				jw_object(w, NULL);
				lstr(w, "topic", p, n, &budget);
				jw_int(w, "qos", opt & 3);
				jw_close(w);
			} else {
				lstr(w, NULL, p, n, &budget);
			}
		}
		jw_close(w);
		break;
	case MQTT_SUBACK:
	case MQTT_UNSUBACK:
		if (m->has_msg_id)
			jw_int(w, "message_id", m->msg_id);
		if (m->list.set) {
			jw_array(w, m->type == MQTT_SUBACK ? "qos_granted" : "reason_codes");
			for (uint32_t i = 0; i < m->list_count; i++) {
				uint8_t c;

				if (mqtt_list_code(m, i, &c) == 0)
					jw_int(w, NULL, c);
			}
			jw_close(w);
		}
		break;
	case MQTT_DISCONNECT:
	case MQTT_AUTH:
		if (m->has_rc)
			jw_int(w, "reason_code", m->rc);
		break;
	default:
		break;
	}
	props(w, "properties", m, &m->props);
	jw_close(w);
}

void mqtt_json_write(JsonWriter *w, const MqttTx *tx, uint64_t limit)
{
	/* what string-log-limit bounds, as Suricata 8 does: a PUBLISH
	 * message on its own (suricata-verify mqtt-limit-log-1: its topic
	 * takes nothing from it), and the topics of a SUBSCRIBE or
	 * UNSUBSCRIBE together (mqtt-limit-log-3: the second topic is cut
	 * where the first left off); the other strings are bounded by
	 * max-msg-length already */
	for (int i = 0; i < tx->nmsgs; i++)
		msg_write(w, &tx->msgs[i], limit ? limit : UINT64_MAX);
}

struct mqtt_obj {
	const MqttTx *tx;
	uint64_t limit;
};

static void build_mqtt_obj(JsonWriter *w, void *ctx)
{
	const struct mqtt_obj *c = ctx;

	mqtt_json_write(w, c->tx, c->limit);
}

json_t *mqtt_json_object(const MqttTx *tx, uint64_t limit)
{
	struct mqtt_obj c = { tx, limit };

	return jw_build_tree(build_mqtt_obj, &c);
}

/* The transaction's events, each once, as anomaly records. */
static void log_mqtt_events(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	MqttTx *t = tx;

	if (!t || !p)
		return;
	for (int e = 0; e < MQTT_EV_COUNT; e++) {
		if (!(t->events >> e & 1) || (t->events_logged >> e & 1))
			continue;
		t->events_logged |= 1u << e;
		output_anomaly_parser_event(o, p, f, "mqtt", mqtt_event_name(e), 0,
					    app_layer_tx_log_id(f, tx));
	}
}

struct mqtt_line {
	const Packet *p;
	const Flow *f;
	const MqttTx *tx;
	uint64_t limit;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct mqtt_line *l = ctx;

	eve_header_write_tx(w, "mqtt", l->p, l->f, 0);
	jw_object(w, "mqtt");
	mqtt_json_write(w, l->tx, l->limit);
	jw_close(w);
}

static void log_mqtt_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	struct mqtt_line l = { p, f, tx, 0 };

	if (o && tx && o->cfg.eve_anomaly.applayer && o->eve_anomaly)
		log_mqtt_events(o, p, f, tx);
	if (!o || !tx || !outputs_eve_enabled(o, "mqtt"))
		return;
	l.limit = o->cfg.eve_mqtt_string_limit;
	eve_write_built(o, "mqtt", build_record, &l);
}

static int alert_mqtt_write(JsonWriter *w, const Flow *f, void *tx)
{
	(void)f;
	if (!tx)
		return -1;
	jw_object(w, "mqtt");
	mqtt_json_write(w, tx, MQTT_LOG_LIMIT_DEFAULT);
	jw_close(w);
	return 0;
}

const EveTxLogger eve_mqtt_logger = {
	.log_tx = log_mqtt_tx,
	.alert_write = alert_mqtt_write,
	.log_events = log_mqtt_events,
};
