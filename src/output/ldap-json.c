/* eve "ldap" records and the ldap member of alerts (see ldap-json.h). */
#include "output/ldap-json.h"

#include "app-layer/app-layer.h"
#include "output/output-private.h"
#include "output/json-writer.h"

static void sl(JsonWriter *w, const char *key, const LdapMsg *m, const LdapSlice *s)
{
	if (s->present)
		jw_bytes(w, key, ldap_at(m, s), s->len);
}

/* opaque bytes (SASL credentials) as lower-case hex, as Suricata writes them */
static void hex(JsonWriter *w, const char *key, const LdapMsg *m, const LdapSlice *s)
{
	static const char digits[] = "0123456789abcdef";
	const uint8_t *p = ldap_at(m, s);
	char *o;

	if (!s->present || !(o = jw_ascii_room(w, key, 2 * (size_t)s->len)))
		return;
	for (uint32_t i = 0; i < s->len; i++) {
		o[2 * i] = digits[p[i] >> 4];
		o[2 * i + 1] = digits[p[i] & 15];
	}
}

/* values of an attribute, as strings; nothing when there are none */
static void values(JsonWriter *w, const char *key, BerCur *vals)
{
	const uint8_t *v;
	uint32_t n;
	JwMark mk = jw_mark(w);

	jw_array(w, key);
	while (ldap_val_next(vals, &v, &n) == 0)
		jw_bytes(w, NULL, v, n);
	jw_close_nonempty(w, mk);
}

/* attributes [{<name_key>, values}] of an add request or a search entry */
static void attributes(JsonWriter *w, const LdapMsg *m, const char *name_key)
{
	BerCur c, vals;
	const uint8_t *t;
	uint32_t tl;
	JwMark mk = jw_mark(w);

	ldap_list_cursor(m, &c);
	jw_array(w, "attributes");
	while (ldap_attr_next(&c, &t, &tl, &vals) == 0) {
		jw_object(w, NULL);
		jw_bytes(w, name_key, t, tl);
		values(w, "values", &vals);
		jw_close(w);
	}
	jw_close_nonempty(w, mk);
}

static const char *mod_op_name(int64_t op)
{
	switch (op) {
	case 0:
		return "add";
	case 1:
		return "delete";
	case 2:
		return "replace";
	case 3:
		return "increment";
	}
	return "unknown";
}

static void changes(JsonWriter *w, const LdapMsg *m)
{
	BerCur c, vals;
	const uint8_t *t;
	uint32_t tl;
	int64_t op;
	JwMark mk = jw_mark(w);

	ldap_list_cursor(m, &c);
	jw_array(w, "changes");
	while (ldap_change_next(&c, &op, &t, &tl, &vals) == 0) {
		jw_object(w, NULL);
		jw_str(w, "operation", mod_op_name(op));
		jw_object(w, "modification");
		jw_bytes(w, "attribute_type", t, tl);
		values(w, "attribute_values", &vals);
		jw_close(w);
		jw_close(w);
	}
	jw_close_nonempty(w, mk);
}

static void result(JsonWriter *w, const LdapMsg *m)
{
	const char *rc = ldap_result_name(m->result_code);

	if (rc) {
		jw_str(w, "result_code", rc);
	} else {
		char num[32];

		snprintf(num, sizeof(num), "%lld", (long long)m->result_code);
		jw_str(w, "result_code", num);
	}
	sl(w, "matched_dn", m, &m->dn);
	sl(w, "message", m, &m->message);
}

/* The operation's own object, named after it. */
static void op_object(JsonWriter *w, const LdapMsg *m)
{
	const char *name = ldap_op_name(m->op);
	BerCur c;
	const uint8_t *v;
	uint32_t n;
	JwMark mk;

	switch (m->op) {
	case LDAP_OP_UNBIND_REQUEST:
	case LDAP_OP_SEARCH_RESULT_REFERENCE:
		return;
	}
	jw_object(w, name);
	switch (m->op) {
	case LDAP_OP_BIND_REQUEST:
		jw_int(w, "version", m->num[0]);
		sl(w, "name", m, &m->dn);
		if (m->flag) {
			jw_object(w, "sasl");
			sl(w, "mechanism", m, &m->name);
			hex(w, "credentials", m, &m->value);
			jw_close(w);
		}
		break;
	case LDAP_OP_SEARCH_REQUEST:
		sl(w, "base_object", m, &m->dn);
		jw_int(w, "scope", m->num[0]);
		jw_int(w, "deref_alias", m->num[1]);
		jw_int(w, "size_limit", m->num[2]);
		jw_int(w, "time_limit", m->num[3]);
		jw_bool(w, "types_only", m->flag);
		ldap_list_cursor(m, &c);
		mk = jw_mark(w);
		jw_array(w, "attributes");
		while (ldap_val_next(&c, &v, &n) == 0)
			jw_bytes(w, NULL, v, n);
		jw_close_nonempty(w, mk);
		break;
	case LDAP_OP_SEARCH_RESULT_ENTRY:
		sl(w, "base_object", m, &m->dn);
		attributes(w, m, "type");
		break;
	case LDAP_OP_MODIFY_REQUEST:
		sl(w, "object", m, &m->dn);
		changes(w, m);
		break;
	case LDAP_OP_ADD_REQUEST:
		sl(w, "entry", m, &m->dn);
		attributes(w, m, "name");
		break;
	case LDAP_OP_DEL_REQUEST:
		sl(w, "dn", m, &m->dn);
		break;
	case LDAP_OP_MOD_DN_REQUEST:
		sl(w, "entry", m, &m->dn);
		sl(w, "new_rdn", m, &m->name);
		jw_bool(w, "delete_old_rdn", m->flag);
		sl(w, "new_superior", m, &m->value);
		break;
	case LDAP_OP_COMPARE_REQUEST:
		sl(w, "entry", m, &m->dn);
		jw_object(w, "attribute_value_assertion");
		sl(w, "description", m, &m->name);
		sl(w, "value", m, &m->value);
		jw_close(w);
		break;
	case LDAP_OP_ABANDON_REQUEST:
		jw_int(w, "message_id", m->num[0]);
		break;
	case LDAP_OP_EXTENDED_REQUEST:
	case LDAP_OP_INTERMEDIATE_RESPONSE:
		sl(w, "name", m, &m->name);
		sl(w, "value", m, &m->value);
		break;
	case LDAP_OP_BIND_RESPONSE:
		result(w, m);
		hex(w, "server_sasl_creds", m, &m->value);
		break;
	case LDAP_OP_EXTENDED_RESPONSE:
		result(w, m);
		sl(w, "name", m, &m->name);
		sl(w, "value", m, &m->value);
		break;
	default:
		if (m->has_result)
			result(w, m);
	}
	jw_close(w);
}

/* with_id: a response names its message id only when its transaction has
 * no request (which names it), as Suricata's */
static void msg_write(JsonWriter *w, const LdapMsg *m, int with_id)
{
	if (with_id)
		jw_int(w, "message_id", m->id);
	jw_str(w, "operation", ldap_op_name(m->op));
	op_object(w, m);
}

void ldap_json_write(JsonWriter *w, const LdapTx *tx)
{
	if (tx->has_request) {
		jw_object(w, "request");
		msg_write(w, &tx->request, 1);
		jw_close(w);
	}
	if (tx->nresponses) {
		jw_array(w, "responses");
		for (uint32_t i = 0; i < tx->nresponses; i++) {
			jw_object(w, NULL);
			msg_write(w, &tx->responses[i], !tx->has_request);
			jw_close(w);
		}
		jw_close(w);
	}
}

static void build_obj(JsonWriter *w, void *ctx)
{
	ldap_json_write(w, ctx);
}

json_t *ldap_json_object(const LdapTx *tx)
{
	return jw_build_tree(build_obj, (void *)tx);
}

/* The parser's events not written yet, as anomaly records. */
static void log_ldap_events(Outputs *o, const Packet *p, const Flow *f, void *txp)
{
	AppTx *t = txp;

	if (!p)
		return;
	for (int e = 0; e < LDAP_EV_COUNT; e++) {
		if (!(t->events >> e & 1) || (t->events_logged >> e & 1))
			continue;
		t->events_logged |= 1u << e;
		output_anomaly_parser_event(o, p, f, "ldap", ldap_event_name(e), 0,
					    app_layer_tx_log_id(f, t));
	}
}

struct ldap_line {
	const Packet *p;
	const Flow *f;
	const LdapTx *tx;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct ldap_line *l = ctx;

	eve_header_write_tx(w, "ldap", l->p, l->f, 0);
	jw_object(w, "ldap");
	ldap_json_write(w, l->tx);
	jw_close(w);
}

static void log_ldap_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	struct ldap_line l = { p, f, tx };

	if (o && o->cfg.eve_anomaly.applayer && o->eve_anomaly)
		log_ldap_events(o, p, f, tx);
	if (!o || !outputs_eve_enabled(o, "ldap"))
		return;
	if (!l.tx->has_request && !l.tx->nresponses)
		return;
	eve_write_built(o, "ldap", build_record, &l);
}

static int alert_ldap_write(JsonWriter *w, const Flow *f, void *txp)
{
	const LdapTx *tx = txp;

	(void)f;
	if (!tx || (!tx->has_request && !tx->nresponses))
		return -1;
	jw_object(w, "ldap");
	ldap_json_write(w, tx);
	jw_close(w);
	return 0;
}

const EveTxLogger eve_ldap_logger = {
	.log_tx = log_ldap_tx,
	.alert_write = alert_ldap_write,
	.log_events = log_ldap_events,
};
