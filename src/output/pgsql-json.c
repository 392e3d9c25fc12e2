/* eve "pgsql" records and the pgsql member of alerts (see pgsql-json.h). */
#include "output/pgsql-json.h"

#include "app-layer/app-layer.h"
#include "output/output-private.h"
#include "output/json-writer.h"
#include "output/json-dump.h"

#include <stdlib.h>

#include <stdio.h>
#include <string.h>

/* Bytes off the wire as Suricata's Rust side writes them: UTF-8 as it
 * is, else each byte from 0x80 as "\\xnn" in lower case. */
static void pg_bytes(JsonWriter *w, const char *key, const uint8_t *p, uint32_t n)
{
	char small[256];
	char *buf;
	size_t len;

	if (jw_strn_try(w, key, (const char *)p, n) == 0)
		return;
	buf = (size_t)n * 4 <= sizeof(small) ? small : malloc((size_t)n * 4);
	if (!buf) {
		jw_bytes(w, key, p, n);
		return;
	}
	len = eve_x_escape(p, n, buf, 0);
	jw_strn(w, key, buf, len);
	if (buf != small)
		free(buf);
}

static uint32_t cstr(const uint8_t *p, uint32_t n)
{
	const uint8_t *z;

	/* an empty field may come without a pointer: memchr's is never NULL */
	if (!n)
		return 0;
	z = memchr(p, 0, n);

	return z ? (uint32_t)(z - p) : n;
}

/* one {name: value} of a parameter list; name by Suricata's table, else as
 * it came */
static void param_object(JsonWriter *w, const uint8_t *name, uint32_t nl, const uint8_t *val,
			 uint32_t vl)
{
	const char *known = pgsql_param_name(name, nl);
	char key[128];

	jw_object(w, NULL);
	if (known) {
		pg_bytes(w, known, val, vl);
	} else {
		/* a key off the wire: bounded, and only characters a key may
		 * hold unescaped (the writer does not escape keys) */
		size_t k = nl < sizeof(key) - 1 ? nl : sizeof(key) - 1;

		for (size_t i = 0; i < k; i++) {
			uint8_t c = name[i];

			key[i] = (char)((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
						(c >= '0' && c <= '9') || c == '_' || c == '-' ||
						c == '.'
					? c
					: '_');
		}
		key[k] = 0;
		pg_bytes(w, key, val, vl);
	}
	jw_close(w);
}

static void startup(JsonWriter *w, const PgsqlTx *tx)
{
	char ver[16];
	const uint8_t *p = tx->rq;
	uint32_t n = tx->rq_len, i = 0;
	int opened = 0;

	snprintf(ver, sizeof(ver), "%u.%u", tx->proto_major, tx->proto_minor);
	jw_str(w, "protocol_version", ver);
	jw_object(w, "startup_parameters");
	/* user first, then the others in their order */
	while (i < n && p[i]) {
		uint32_t nl = cstr(p + i, n - i), vo = i + nl + 1, vl;

		if (vo > n)
			break;
		vl = cstr(p + vo, n - vo);
		if (nl == 4 && memcmp(p + i, "user", 4) == 0)
			pg_bytes(w, "user", p + vo, vl);
		i = vo + vl + 1;
	}
	i = 0;
	while (i < n && p[i]) {
		uint32_t nl = cstr(p + i, n - i), vo = i + nl + 1, vl;

		if (vo > n)
			break;
		vl = cstr(p + vo, n - vo);
		if (!(nl == 4 && memcmp(p + i, "user", 4) == 0)) {
			if (!opened) {
				jw_array(w, "optional_parameters");
				opened = 1;
			}
			param_object(w, p + i, nl, p + vo, vl);
		}
		i = vo + vl + 1;
	}
	if (opened)
		jw_close(w);
	jw_close(w);
}

static void request(JsonWriter *w, const PgsqlTx *tx, int passwords)
{
	JwMark mk = jw_mark(w);

	jw_object(w, "request");
	switch (tx->req) {
	case PG_REQ_SSL:
		jw_str(w, "message", "SSL Request");
		break;
	case PG_REQ_GSSENC:
		jw_str(w, "message", "GSSENC Request");
		break;
	case PG_REQ_STARTUP:
		startup(w, tx);
		break;
	case PG_REQ_PASSWORD:
		if (passwords)
			pg_bytes(w, "password", tx->rq, tx->rq_len);
		else
			jw_bool(w, "password_redacted", 1);
		break;
	case PG_REQ_SASL_INITIAL:
		pg_bytes(w, "sasl_authentication_mechanism", tx->rq, tx->rq_mech_len);
		if (tx->rq_len > tx->rq_mech_len)
			pg_bytes(w, "sasl_param", tx->rq + tx->rq_mech_len + 1,
				 tx->rq_len - tx->rq_mech_len - 1);
		break;
	case PG_REQ_SASL_RESPONSE:
		pg_bytes(w, "sasl_response", tx->rq, tx->rq_len);
		break;
	case PG_REQ_QUERY:
		pg_bytes(w, "simple_query", tx->rq, tx->rq_len);
		break;
	case PG_REQ_TERMINATE:
		jw_str(w, "message", "termination_message");
		break;
	case PG_REQ_CANCEL:
		jw_str(w, "message", "cancel_request");
		jw_int(w, "process_id", tx->pid);
		jw_int(w, "secret_key", tx->key);
		break;
	}
	if (tx->copy_in_msgs) {
		jw_object(w, "copy_data_in");
		jw_int(w, "msg_count", (int64_t)tx->copy_in_msgs);
		jw_int(w, "data_size", (int64_t)tx->copy_in_size);
		jw_close(w);
	}
	jw_close_nonempty(w, mk);
}

static const char *auth_name(uint32_t code)
{
	switch (code) {
	case 0:
		return "authentication_ok";
	case 2:
		return "authentication_kerb5";
	case 3:
		return "authentication_cleartext_password";
	case 5:
		return "authentication_md5_password";
	case 7:
		return "authentication_gss";
	case 8:
		return "authentication_gss_continue";
	case 9:
		return "authentication_sspi";
	case 10:
		return "authentication_sasl";
	case 11:
		return "authentication_sasl_continue";
	case 12:
		return "authentication_sasl_final";
	}
	return NULL;
}

static void auth(JsonWriter *w, const PgsqlItem *it)
{
	const char *name = auth_name(it->num[0]);

	/* only the MD5 salt and the SASL outcome carry their bytes; the other
	 * requests are named (the schema's members: a SASL mechanism list or
	 * challenge has none of its own) */
	switch (it->num[0]) {
	case 5:
		pg_bytes(w, "authentication_md5_password", it->data, it->len);
		return;
	case 12:
		pg_bytes(w, "authentication_sasl_final", it->data, it->len);
		return;
	}
	if (name)
		jw_str(w, "message", name);
}

static void error_fields(JsonWriter *w, const PgsqlItem *it)
{
	uint32_t i = 0;

	while (i < it->len && it->data[i]) {
		uint8_t t = it->data[i++];
		uint32_t l = cstr(it->data + i, it->len - i);
		const char *key = pgsql_error_field_name(t);

		if (key)
			pg_bytes(w, key, it->data + i, l);
		i += l + 1;
	}
}

static void response(JsonWriter *w, const PgsqlTx *tx)
{
	JwMark mk = jw_mark(w);
	int in_params = 0;

	jw_object(w, "response");
	for (uint32_t k = 0; k < tx->nitems; k++) {
		const PgsqlItem *it = &tx->items[k];

		if (it->type == PG_IT_PARAM) {
			uint32_t nl = cstr(it->data, it->len), vo = nl + 1;

			if (!in_params) {
				jw_array(w, "parameter_status");
				in_params = 1;
			}
			if (vo <= it->len)
				param_object(w, it->data, nl, it->data + vo,
					     cstr(it->data + vo, it->len - vo));
			continue;
		}
		if (in_params) {
			jw_close(w);
			in_params = 0;
		}
		switch (it->type) {
		case PG_IT_SSL:
			jw_bool(w, "ssl_accepted", it->num[0] != 0);
			break;
		case PG_IT_AUTH:
			auth(w, it);
			break;
		case PG_IT_KEYDATA:
			jw_int(w, "process_id", it->num[0]);
			jw_int(w, "secret_key", it->num[1]);
			break;
		case PG_IT_COMMAND:
			pg_bytes(w, "command_completed", it->data, cstr(it->data, it->len));
			break;
		case PG_IT_ROWDESC:
			jw_int(w, "field_count", it->num[0]);
			break;
		case PG_IT_ERROR:
		case PG_IT_NOTICE:
			error_fields(w, it);
			break;
		case PG_IT_COPY_IN:
		case PG_IT_COPY_OUT:
			jw_object(w, it->type == PG_IT_COPY_IN ? "copy_in_response"
							       : "copy_out_response");
			jw_int(w, "columns", it->num[0]);
			jw_close(w);
			break;
		case PG_IT_NOTIFY: {
			uint32_t cl = it->len > 4 ? cstr(it->data + 4, it->len - 4) : 0;
			uint32_t po = 4 + cl + 1;

			jw_int(w, "process_id", it->num[0]);
			if (it->len > 4)
				pg_bytes(w, "channel_name", it->data + 4, cl);
			if (po < it->len)
				pg_bytes(w, "payload", it->data + po, cstr(it->data + po, it->len - po));
			break;
		}
		}
	}
	if (in_params)
		jw_close(w);
	if (tx->rows) {
		jw_int(w, "data_rows", (int64_t)tx->rows);
		jw_int(w, "data_size", (int64_t)tx->data_size);
	}
	if (tx->copy_out_rows) {
		jw_object(w, "copy_data_out");
		jw_int(w, "row_count", (int64_t)tx->copy_out_rows);
		jw_int(w, "data_size", (int64_t)tx->copy_out_size);
		jw_close(w);
	}
	jw_close_nonempty(w, mk);
}

void pgsql_json_write(JsonWriter *w, const PgsqlTx *tx, int passwords)
{
	/* Suricata numbers a flow's pgsql transactions from 1 */
	jw_int(w, "tx_id", (int64_t)tx->base.id + 1);
	request(w, tx, passwords);
	response(w, tx);
}

struct pg_obj {
	const PgsqlTx *tx;
	int passwords;
};

static void build_obj(JsonWriter *w, void *ctx)
{
	const struct pg_obj *o = ctx;

	pgsql_json_write(w, o->tx, o->passwords);
}

json_t *pgsql_json_object(const PgsqlTx *tx, int passwords)
{
	struct pg_obj o = { tx, passwords };

	return jw_build_tree(build_obj, &o);
}

/* The parser's events not written yet, as anomaly records. */
static void log_pgsql_events(Outputs *o, const Packet *p, const Flow *f, void *txp)
{
	AppTx *t = txp;

	if (!p)
		return;
	for (int e = 0; e < PG_EV_COUNT; e++) {
		if (!(t->events >> e & 1) || (t->events_logged >> e & 1))
			continue;
		t->events_logged |= 1u << e;
		output_anomaly_parser_event(o, p, f, "pgsql", pgsql_event_name(e), 0,
					    app_layer_tx_log_id(f, t));
	}
}

/* a transaction with nothing to show is not written (Suricata 8 writes no
 * empty request: suricata-verify pgsql-pwd-output-disabled, bug 7647) */
static int worth(const PgsqlTx *tx)
{
	return tx->req != PG_REQ_NONE || tx->nitems || tx->rows ||
	       tx->copy_out_rows || tx->copy_in_msgs;
}

struct pg_line {
	const Packet *p;
	const Flow *f;
	const PgsqlTx *tx;
	int passwords;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct pg_line *l = ctx;

	eve_header_write_tx(w, "pgsql", l->p, l->f, 0);
	jw_object(w, "pgsql");
	pgsql_json_write(w, l->tx, l->passwords);
	jw_close(w);
}

static void log_pgsql_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	struct pg_line l = { p, f, tx, 0 };

	if (o && o->cfg.eve_anomaly.applayer && o->eve_anomaly)
		log_pgsql_events(o, p, f, tx);
	if (!o || !outputs_eve_enabled(o, "pgsql") || !worth(l.tx))
		return;
	l.passwords = o->cfg.eve_pgsql_passwords;
	eve_write_built(o, "pgsql", build_record, &l);
}

static int alert_pgsql_write(JsonWriter *w, const Flow *f, void *txp)
{
	const PgsqlTx *tx = txp;

	(void)f;
	if (!tx || !worth(tx))
		return -1;
	jw_object(w, "pgsql");
	pgsql_json_write(w, tx, 0);
	jw_close(w);
	return 0;
}

const EveTxLogger eve_pgsql_logger = {
	.log_tx = log_pgsql_tx,
	.alert_write = alert_pgsql_write,
	.log_events = log_pgsql_events,
};
