/* eve "krb5" records and the krb5 member of alerts (see krb5-json.h). */
#include "output/krb5-json.h"

#include "app-layer/app-layer.h"
#include "output/output-private.h"
#include "output/json-writer.h"

#include <stdio.h>
#include <string.h>

/* The components joined with '/' (krbtgt/REALM), or "<empty>". */
static void name_write(JsonWriter *w, const char *key, const Krb5Name *n)
{
	char buf[KRB5_MAX_COMPONENTS * (KRB5_MAX_NAME + 1)];
	size_t o = 0;

	if (!n->n) {
		jw_str(w, key, "<empty>");
		return;
	}
	for (int i = 0; i < n->n; i++) {
		if (i)
			buf[o++] = '/';
		memcpy(buf + o, n->comp[i], n->len[i]);
		o += n->len[i];
	}
	jw_bytes(w, key, buf, o);
}

static void etype_write(JsonWriter *w, const char *key, int64_t e)
{
	const char *name = krb5_etype_name(e);
	char num[32];

	if (e < 0 && e != -1)
		name = NULL;
	if (e == -1) {
		jw_str(w, key, "<none>");
		return;
	}
	if (!name) {
		snprintf(num, sizeof(num), "%lld", (long long)e);
		name = num;
	}
	jw_str(w, key, name);
}

static void name_or_num(JsonWriter *w, const char *key, const char *name, int64_t v)
{
	char num[48];

	if (!name) {
		snprintf(num, sizeof(num), "UNKNOWN_%lld", (long long)v);
		name = num;
	}
	jw_str(w, key, name);
}

void krb5_json_write(JsonWriter *w, const Krb5Msg *m)
{
	name_or_num(w, "msg_type", krb5_msg_name(m->msg_type), m->msg_type);
	if (m->msg_type == KRB5_ERROR) {
		if (m->failed_request >= 0)
			name_or_num(w, "failed_request", krb5_msg_name(m->failed_request),
				    m->failed_request);
		else
			jw_str(w, "failed_request", "UNKNOWN");
		name_or_num(w, "error_code", krb5_error_name(m->error_code), m->error_code);
	}
	name_write(w, "cname", &m->cname);
	if (m->realm)
		jw_bytes(w, "realm", m->realm, m->realm_len);
	else
		jw_str(w, "realm", "<empty>");
	name_write(w, "sname", &m->sname);
	etype_write(w, "encryption", m->etype);
	jw_bool(w, "weak_encryption", krb5_etype_weak(m->etype));
	if (m->ticket_etype != -1) {
		etype_write(w, "ticket_encryption", m->ticket_etype);
		jw_bool(w, "ticket_weak_encryption", krb5_etype_weak(m->ticket_etype));
	}
}

static void build_obj(JsonWriter *w, void *ctx)
{
	krb5_json_write(w, ctx);
}

json_t *krb5_json_object(const Krb5Msg *m)
{
	return jw_build_tree(build_obj, (void *)m);
}

static void log_krb5_events(Outputs *o, const Packet *p, const Flow *f, void *txp)
{
	AppTx *t = txp;

	if (!p)
		return;
	for (int e = 0; e < KRB5_EV_COUNT; e++) {
		if (!(t->events >> e & 1) || (t->events_logged >> e & 1))
			continue;
		t->events_logged |= 1u << e;
		output_anomaly_parser_event(o, p, f, "krb5", krb5_event_name(e), 0,
					    app_layer_tx_log_id(f, t));
	}
}

struct krb5_line {
	const Packet *p;
	const Flow *f;
	const Krb5Tx *tx;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct krb5_line *l = ctx;

	/* a reply or error goes from the server */
	eve_header_write_tx(w, "krb5", l->p, l->f, (l->tx->base.flags & APP_TX_ONLY_TC) != 0);
	jw_object(w, "krb5");
	krb5_json_write(w, &l->tx->m);
	jw_close(w);
}

static void log_krb5_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	struct krb5_line l = { p, f, tx };

	if (o && o->cfg.eve_anomaly.applayer && o->eve_anomaly)
		log_krb5_events(o, p, f, tx);
	if (!o || !l.tx->valid || !outputs_eve_enabled(o, "krb5"))
		return;
	eve_write_built(o, "krb5", build_record, &l);
}

static int alert_krb5_write(JsonWriter *w, const Flow *f, void *txp)
{
	const Krb5Tx *tx = txp;

	(void)f;
	if (!tx || !tx->valid)
		return -1;
	jw_object(w, "krb5");
	krb5_json_write(w, &tx->m);
	jw_close(w);
	return 0;
}

const EveTxLogger eve_krb5_logger = {
	.log_tx = log_krb5_tx,
	.alert_write = alert_krb5_write,
	.log_events = log_krb5_events,
};
