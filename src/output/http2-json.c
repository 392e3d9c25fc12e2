/* HTTP/2 transactions in eve: the "http" record and the alerts' "http". */
#include "output/http2-json.h"
#include "output/doh2-json.h"

#include "app-layer/app-layer.h"
#include "output/json-writer.h"
#include "output/output-private.h"

#include <stdlib.h>
#include <string.h>

/* a header's value as a string member, when the side has the header */
static void hdr_str(JsonWriter *w, const char *key, const Http2Side *s, const char *name)
{
	uint32_t n;
	const uint8_t *v = http2_header(s, name, &n);

	if (v)
		jw_bytes(w, key, v, n);
}

/* a header's value as a number member, when it is one */
static void hdr_num(JsonWriter *w, const char *key, const Http2Side *s, const char *name)
{
	uint32_t n;
	const uint8_t *v = http2_header(s, name, &n);
	int64_t x = 0;

	if (!v || !n || n > 18)
		return;
	for (uint32_t i = 0; i < n; i++) {
		if (v[i] < '0' || v[i] > '9')
			return;
		x = x * 10 + (v[i] - '0');
	}
	jw_int(w, key, x);
}

static void headers(JsonWriter *w, const char *key, const Http2Side *s)
{
	JwMark mk = jw_mark(w);

	jw_array(w, key);
	for (uint32_t i = 0; i < s->nhdrs; i++) {
		const Http2Header *h = &s->hdrs[i];

		jw_object(w, NULL);
		if (h->size_update >= 0) {
			jw_int(w, "table_size_update", h->size_update);
		} else {
			jw_bytes(w, "name", h->name, h->nlen);
			jw_bytes(w, "value", h->value, h->vlen);
		}
		jw_close(w);
	}
	jw_close_nonempty(w, mk);
}

static void side_object(JsonWriter *w, const char *key, const Http2Side *s, int request)
{
	JwMark mk = jw_mark(w);

	jw_object(w, key);
	if (s->nsettings) {
		jw_array(w, "settings");
		for (uint32_t i = 0; i < s->nsettings; i++) {
			const char *name = http2_settings_name(s->settings[i].id);

			jw_object(w, NULL);
			jw_str(w, "settings_id", name ? name : "UNKNOWN");
			jw_int(w, "settings_value", s->settings[i].value);
			jw_close(w);
		}
		jw_close(w);
	}
	if (s->error_code >= 0) {
		const char *e = http2_error_name((uint32_t)s->error_code);

		jw_str(w, "error_code", e ? e : "UNKNOWN");
	}
	if (request && s->priority >= 0)
		jw_int(w, "priority", s->priority);
	jw_close_nonempty(w, mk);
}

void http2_json_write(JsonWriter *w, const Http2Tx *tx)
{
	const Http2Side *rq = &tx->side[APP_DIR_TOSERVER], *rs = &tx->side[APP_DIR_TOCLIENT];
	uint32_t n;

	if (http2_header(rq, ":authority", &n))
		hdr_str(w, "hostname", rq, ":authority");
	else
		hdr_str(w, "hostname", rq, "host");
	hdr_str(w, "url", rq, ":path");
	hdr_str(w, "http_user_agent", rq, "user-agent");
	hdr_str(w, "http_content_type", rs, "content-type");
	hdr_str(w, "http_refer", rq, "referer");
	hdr_str(w, "http_method", rq, ":method");
	hdr_num(w, "status", rs, ":status");
	hdr_num(w, "length", rs, "content-length");
	jw_str(w, "version", "2");
	headers(w, "request_headers", rq);
	headers(w, "response_headers", rs);
	jw_object(w, "http2");
	jw_int(w, "stream_id", tx->stream_id);
	side_object(w, "request", rq, 1);
	side_object(w, "response", rs, 0);
	jw_close(w);
}

/* 1: the transaction has something eve shows beyond its stream id (a
 * stream-0 PING or WINDOW_UPDATE has not, and is not logged, as in
 * Suricata) */
static int has_content(const Http2Tx *tx)
{
	for (int d = 0; d < 2; d++) {
		const Http2Side *s = &tx->side[d];

		if (s->nhdrs || s->nsettings || s->error_code >= 0 || s->priority >= 0)
			return 1;
	}
	return 0;
}

static void build_obj(JsonWriter *w, void *ctx)
{
	http2_json_write(w, ctx);
}

json_t *http2_json_object(const Http2Tx *tx)
{
	return jw_build_tree(build_obj, (void *)tx);
}

/* The parser's events not written yet, as anomaly records. */
static void log_h2_events(Outputs *o, const Packet *p, const Flow *f, void *txp)
{
	AppTx *t = txp;

	if (!p)
		return;
	for (int e = 0; e < H2_EV_COUNT; e++) {
		if (!(t->events >> e & 1) || (t->events_logged >> e & 1))
			continue;
		t->events_logged |= 1u << e;
		output_anomaly_parser_event(o, p, f, "http2", http2_event_name(e), 0,
					    app_layer_tx_log_id(f, t));
	}
}

struct h2_line {
	const Packet *p;
	const Flow *f;
	const Http2Tx *tx;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct h2_line *l = ctx;

	eve_header_write_tx(w, "http", l->p, l->f, 0);
	jw_object(w, "http");
	http2_json_write(w, l->tx);
	jw_close(w);
}

static void log_h2_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	struct h2_line l = { p, f, tx };

	if (o && o->cfg.eve_anomaly.applayer && o->eve_anomaly)
		log_h2_events(o, p, f, tx);
	/* a DoH transaction is its own record type (doh2-json.c) */
	if (doh2_json_log(o, p, f, tx))
		return;
	/* Suricata 8 logs HTTP/2 under either type ("http2" is its own) */
	if (!o || (!outputs_eve_enabled(o, "http2") && !outputs_eve_enabled(o, "http")))
		return;
	if (!has_content(tx))
		return;
	eve_write_built(o, "http", build_record, &l);
}

static int alert_h2_write(JsonWriter *w, const Flow *f, void *txp)
{
	(void)f;
	if (!txp)
		return -1;
	jw_object(w, "http");
	http2_json_write(w, txp);
	jw_close(w);
	{
		Http2Tx *tx = txp;
		FileContainer *fcs[2] = { &tx->files[0], &tx->files[1] };

		output_files_write(w, fcs, 2);
	}
	return 0;
}

/* A file's fileinfo record: the http object, as Suricata 8's (its header
 * oriented the way the file went) */
static int h2_file_record_write(JsonWriter *w, const Outputs *o, const Packet *p,
				const Flow *f, void *tx, int dir)
{
	(void)o;
	eve_header_write_tx(w, "fileinfo", p, f, dir == APP_DIR_TOCLIENT);
	jw_object(w, "http");
	http2_json_write(w, tx);
	jw_close(w);
	jw_str(w, "app_proto", f->app_proto_shown == ALPROTO_DOH2 ? "doh2" : "http2");
	return 0;
}

const EveTxLogger eve_http2_logger = {
	.log_tx = log_h2_tx,
	.alert_write = alert_h2_write,
	.file_record_write = h2_file_record_write,
	.log_events = log_h2_events,
};
