/* eve "sip" records and the sip member of alerts (see sip-json.h). */
#include "output/sip-json.h"

#include "app-layer/app-layer.h"
#include "app-layer/sip.h"
#include "output/output-private.h"
#include "output/json-writer.h"

static void span(JsonWriter *w, const char *key, const SipMsg *m, SipSpan s)
{
	jw_bytes(w, key, sip_span_ptr(m, s), s.len);
}

/* The first line of type t in media (-1: session level) as member key. */
static void sdp_one(JsonWriter *w, const char *key, const SipMsg *m, char t, int media)
{
	const SdpLine *l = sdp_line(m, t, media, 0);

	if (l)
		span(w, key, m, l->value);
}

/* Every line of type t in media as the array key (left out when none). */
static void sdp_all(JsonWriter *w, const char *key, const SipMsg *m, char t, int media)
{
	const SdpLine *l = sdp_line(m, t, media, 0);

	if (!l)
		return;
	jw_array(w, key);
	for (uint32_t i = 0; (l = sdp_line(m, t, media, i)); i++)
		span(w, NULL, m, l->value);
	jw_close(w);
}

static int64_t sdp_version(const SipMsg *m)
{
	const SdpLine *l = sdp_line(m, 'v', -1, 0);
	const uint8_t *p;
	int64_t v = 0;

	if (!l)
		return 0;
	p = sip_span_ptr(m, l->value);
	for (uint32_t i = 0; i < l->value.len && i < 9 && p[i] >= '0' && p[i] <= '9'; i++)
		v = v * 10 + (p[i] - '0');
	return v;
}

/* Suricata 8's sdp object: the session's fields, its time descriptions (a
 * t= with the r= after it), its media descriptions. */
static void sdp_write(JsonWriter *w, const SipMsg *m)
{
	jw_object(w, "sdp");
	jw_int(w, "version", sdp_version(m));
	sdp_one(w, "origin", m, 'o', -1);
	sdp_one(w, "session_name", m, 's', -1);
	sdp_one(w, "session_info", m, 'i', -1);
	sdp_one(w, "uri", m, 'u', -1);
	sdp_one(w, "email", m, 'e', -1);
	sdp_one(w, "phone_number", m, 'p', -1);
	sdp_one(w, "connection_data", m, 'c', -1);
	sdp_all(w, "bandwidths", m, 'b', -1);
	if (sdp_line(m, 't', -1, 0)) {
		jw_array(w, "time_descriptions");
		for (uint32_t j = 0; j < m->nsdp; j++) {
			const SdpLine *l = &m->sdp[j];

			if (l->media != -1 || l->type != 't')
				continue;
			jw_object(w, NULL);
			span(w, "time", m, l->value);
			if (j + 1 < m->nsdp && m->sdp[j + 1].type == 'r' && m->sdp[j + 1].media == -1)
				span(w, "repeat_time", m, m->sdp[j + 1].value);
			jw_close(w);
		}
		jw_close(w);
	}
	sdp_one(w, "timezone", m, 'z', -1);
	sdp_one(w, "encryption_key", m, 'k', -1);
	sdp_all(w, "attributes", m, 'a', -1);
	if (m->sdp_nmedia > 0) {
		jw_array(w, "media_descriptions");
		for (int i = 0; i < m->sdp_nmedia; i++) {
			jw_object(w, NULL);
			sdp_one(w, "media", m, 'm', i);
			sdp_one(w, "media_info", m, 'i', i);
			sdp_all(w, "bandwidths", m, 'b', i);
			sdp_one(w, "connection_data", m, 'c', i);
			sdp_all(w, "attributes", m, 'a', i);
			sdp_one(w, "encryption_key", m, 'k', i);
			jw_close(w);
		}
		jw_close(w);
	}
	jw_close(w);
}

void sip_json_write(JsonWriter *w, const SipMsg *m)
{
	if (m->is_request) {
		span(w, "method", m, m->method);
		span(w, "uri", m, m->uri);
		span(w, "version", m, m->version);
		span(w, "request_line", m, m->line);
	} else {
		span(w, "version", m, m->version);
		span(w, "code", m, m->code);
		span(w, "reason", m, m->reason);
		span(w, "response_line", m, m->line);
	}
	if (m->has_sdp)
		sdp_write(w, m);
}

static void build_sip_obj(JsonWriter *w, void *ctx)
{
	sip_json_write(w, ctx);
}

json_t *sip_json_object(const SipMsg *m)
{
	return jw_build_tree(build_sip_obj, (void *)m);
}

/* The parser's events not written yet, each once per transaction, with
 * Suricata 8's (Rust) lower-case names. */
static void log_sip_events(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	uint32_t ev = sip_tx_events(tx), *done = sip_tx_events_logged(tx);

	if (!p)
		return;
	for (int e = 0; e < SIP_EV_COUNT; e++) {
		if (!(ev >> e & 1) || (*done >> e & 1))
			continue;
		*done |= 1u << e;
		output_anomaly_parser_event(o, p, f, "sip", sip_event_name(e), 0,
					    app_layer_tx_log_id(f, tx));
	}
}

struct sip_line {
	const Packet *p;
	const Flow *f;
	const SipMsg *m;
	int to_client;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct sip_line *l = ctx;

	eve_header_write_tx(w, "sip", l->p, l->f, l->to_client);
	jw_object(w, "sip");
	sip_json_write(w, l->m);
	jw_close(w);
}

/* One record per message; a response's names the server as source, the
 * way it went. */
static void log_sip_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	struct sip_line l = { p, f, sip_tx_msg(tx), 0 };

	if (!o || !l.m)
		return;
	if (o->cfg.eve_anomaly.applayer && o->eve_anomaly)
		log_sip_events(o, p, f, tx);
	if (!outputs_eve_enabled(o, "sip"))
		return;
	l.to_client = sip_tx_dir(tx) == APP_DIR_TOCLIENT;
	eve_write_built(o, "sip", build_record, &l);
}

static int alert_sip_write(JsonWriter *w, const Flow *f, void *tx)
{
	const SipMsg *m = sip_tx_msg(tx);

	(void)f;
	if (!m)
		return -1;
	jw_object(w, "sip");
	sip_json_write(w, m);
	jw_close(w);
	return 0;
}

const EveTxLogger eve_sip_logger = {
	.log_tx = log_sip_tx,
	.alert_write = alert_sip_write,
	.log_events = log_sip_events,
};
