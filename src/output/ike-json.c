/* eve "ike" records and the ike member of alerts (see ike-json.h). */
#include "output/ike-json.h"

#include "app-layer/app-layer.h"
#include "output/output-private.h"
#include "output/json-writer.h"

#include <stdio.h>

static void hex(JsonWriter *w, const char *key, const uint8_t *p, size_t n)
{
	static const char hx[] = "0123456789abcdef";
	char *o = jw_ascii_room(w, key, 2 * n);

	if (!o)
		return;
	for (size_t i = 0; i < n; i++) {
		o[2 * i] = hx[p[i] >> 4];
		o[2 * i + 1] = hx[p[i] & 15];
	}
}

/* One transform's attributes as members: "alg_enc": "EncAesCbc",
 * "alg_enc_raw": 7; a long value's raw member is its hex. In the wire's
 * order, a repeated attribute repeated, as Suricata writes them. */
static void attrs(JsonWriter *w, const IkeTransform *t)
{
	for (unsigned i = 0; i < t->nattr; i++) {
		const IkeAttr *a = &t->attr[i];
		const char *name = ike_attr_name(a->type);
		char raw[48];

		snprintf(raw, sizeof(raw), "%s_raw", name);
		jw_str(w, name, a->numeric ? ike_attr_value_name(a->type, a->value) : "Unknown");
		if (a->numeric)
			jw_int(w, raw, a->value);
		else
			hex(w, raw, a->raw, a->len);
	}
}

static void side(JsonWriter *w, const IkeSide *s)
{
	if (s->ke) {
		hex(w, "key_exchange_payload", s->ke, s->ke_len);
		jw_int(w, "key_exchange_payload_length", s->ke_len);
	}
	if (s->nonce) {
		hex(w, "nonce_payload", s->nonce, s->nonce_len);
		jw_int(w, "nonce_payload_length", s->nonce_len);
	}
}

static void v1_object(JsonWriter *w, const IkeTx *tx)
{
	const IkeMsg *m = &tx->m;
	const IkeExchange *x = tx->x;

	jw_object(w, "ikev1");
	if (x->has_doi)
		jw_int(w, "doi", x->doi);
	jw_bool(w, "encrypted_payloads", m->encrypted);
	if (!m->encrypted) {
		jw_object(w, "client");
		side(w, &x->client);
		if (tx->dir == 0 && m->ntransforms) {
			jw_array(w, "proposals");
			for (unsigned i = 0; i < m->ntransforms; i++) {
				jw_object(w, NULL);
				attrs(w, &m->transforms[i]);
				jw_close(w);
			}
			jw_close(w);
		}
		jw_close(w);
		jw_object(w, "server");
		side(w, &x->server);
		jw_close(w);
		if (m->nvendors) {
			jw_array(w, "vendor_ids");
			for (unsigned i = 0; i < m->nvendors; i++)
				jw_str(w, NULL, m->vendors[i]);
			jw_close(w);
		}
	}
	jw_close(w);
}

static void v2_alg(JsonWriter *w, const char *key, const IkeExchange *x, int type)
{
	static const char *const none[] = { NULL, "ENCR_NULL", "PRF_NULL", "AUTH_NONE",
					    "G_NONE", "NoESN" };
	const char *n = NULL;
	char num[32];

	if (x->has_alg[type] && !(n = ike_v2_transform_name(type, x->alg[type]))) {
		snprintf(num, sizeof(num), "%u", x->alg[type]);
		n = num;
	}
	jw_str(w, key, n ? n : none[type]);
}

/* An IKEv1 exchange type's name as Suricata's "exchange_type_verbose"
 * (RFC 2408 4.1 and the Config Mode draft's Transaction); NULL where
 * Suricata names none, and then writes no member. */
static const char *ike_v1_exchange_name(uint8_t t)
{
	switch (t) {
	case 0: return "Unknown Exchange Type";
	case 1: return "Base";
	case 2: return "Identity Protection";
	case 3: return "Authentication Only";
	case 4: return "Aggressive";
	case 5: return "Informational";
	case 6: return "Transaction (Config Mode)";
	case 32: return "Quick Mode";
	case 33: return "New Group Mode";
	default: return NULL;
	}
}

void ike_json_write(JsonWriter *w, const IkeTx *tx, int extended)
{
	const IkeMsg *m = &tx->m;
	char num[8];

	jw_int(w, "version_major", m->version_major);
	jw_int(w, "version_minor", m->version_minor);
	hex(w, "init_spi", m->init_spi, 8);
	hex(w, "resp_spi", m->resp_spi, 8);
	jw_int(w, "message_id", m->message_id);
	jw_int(w, "exchange_type", m->exchange_type);
	if (extended && m->version_major == 1) {
		const char *xn = ike_v1_exchange_name(m->exchange_type);

		if (xn)
			jw_str(w, "exchange_type_verbose", xn);
	}
	if (m->version_major == 1) {
		/* the transform the server chose, as far as the exchange went */
		if (tx->x->has_chosen)
			attrs(w, &tx->x->chosen);
		if (tx->dir == 1 && m->ntransforms > 1) {
			jw_array(w, "server_proposals");
			for (unsigned i = 0; i < m->ntransforms; i++) {
				jw_object(w, NULL);
				attrs(w, &m->transforms[i]);
				jw_close(w);
			}
			jw_close(w);
		}
	} else {
		if (m->flags & 0x08) {
			jw_str(w, "role", "initiator");
		} else {
			jw_str(w, "role", "responder");
			v2_alg(w, "alg_enc", tx->x, IKE2_TT_ENCR);
			v2_alg(w, "alg_auth", tx->x, IKE2_TT_INTEG);
			v2_alg(w, "alg_prf", tx->x, IKE2_TT_PRF);
			v2_alg(w, "alg_dh", tx->x, IKE2_TT_DH);
			v2_alg(w, "alg_esn", tx->x, IKE2_TT_ESN);
		}
	}
	jw_array(w, "payload");
	for (unsigned i = 0; i < m->npayloads; i++) {
		const char *n = m->version_major == 1 ? ike_v1_payload_name(m->payloads[i])
						      : ike_v2_payload_name(m->payloads[i]);

		if (!n && m->version_major == 1)
			continue;
		if (!n) {
			snprintf(num, sizeof(num), "%u", m->payloads[i]);
			n = num;
		}
		jw_str(w, NULL, n);
	}
	jw_close(w);
	if (m->version_major == 1) {
		v1_object(w, tx);
	} else {
		jw_object(w, "ikev2");
		jw_int(w, "errors", m->errors);
		if (m->nnotify) {
			jw_array(w, "notify");
			for (unsigned i = 0; i < m->nnotify; i++) {
				const char *n = ike_v2_notify_name(m->notify[i]);

				if (!n) {
					snprintf(num, sizeof(num), "%u", m->notify[i]);
					n = num;
				}
				jw_str(w, NULL, n);
			}
			jw_close(w);
		}
		jw_close(w);
	}
}

struct ike_obj {
	const IkeTx *tx;
	int extended;
};

static void build_obj(JsonWriter *w, void *ctx)
{
	const struct ike_obj *c = ctx;

	ike_json_write(w, c->tx, c->extended);
}

json_t *ike_json_object(const IkeTx *tx, int extended)
{
	struct ike_obj c = { tx, extended };

	return jw_build_tree(build_obj, &c);
}

static void log_ike_events(Outputs *o, const Packet *p, const Flow *f, void *txp)
{
	AppTx *t = txp;

	if (!p)
		return;
	for (int e = 0; e < IKE_EV_COUNT; e++) {
		if (!(t->events >> e & 1) || (t->events_logged >> e & 1))
			continue;
		t->events_logged |= 1u << e;
		output_anomaly_parser_event(o, p, f, "ike", ike_event_name(e), 0,
					    app_layer_tx_log_id(f, t));
	}
}

struct ike_line {
	const Packet *p;
	const Flow *f;
	const IkeTx *tx;
	int extended;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct ike_line *l = ctx;

	/* as Suricata: the message's own direction */
	eve_header_write_tx(w, "ike", l->p, l->f, l->tx->dir == 1);
	jw_object(w, "ike");
	ike_json_write(w, l->tx, l->extended);
	jw_close(w);
}

static void log_ike_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	struct ike_line l = { p, f, tx, o ? o->cfg.eve_ike_extended : 0 };

	if (o && o->cfg.eve_anomaly.applayer && o->eve_anomaly)
		log_ike_events(o, p, f, tx);
	if (!o || !l.tx->valid || !outputs_eve_enabled(o, "ike"))
		return;
	eve_write_built(o, "ike", build_record, &l);
}

static int alert_ike_write(JsonWriter *w, const Flow *f, void *txp)
{
	const IkeTx *tx = txp;

	(void)f;
	if (!tx || !tx->valid)
		return -1;
	/* alerts carry the default object, as Suricata's alert metadata */
	jw_object(w, "ike");
	ike_json_write(w, tx, 0);
	jw_close(w);
	return 0;
}

const EveTxLogger eve_ike_logger = {
	.log_tx = log_ike_tx,
	.alert_write = alert_ike_write,
	.log_events = log_ike_events,
};
