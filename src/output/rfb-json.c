/* eve "rfb" records and the rfb member of alerts (see rfb-json.h). */
#include "output/rfb-json.h"

#include "app-layer/app-layer.h"
#include "output/output-private.h"
#include "output/json-writer.h"

#include <stdio.h>
#include <stdlib.h>

static void version_write(JsonWriter *w, const char *key, const RfbVersion *v)
{
	if (!v->set)
		return;
	jw_object(w, key);
	jw_str(w, "major", v->major);
	jw_str(w, "minor", v->minor);
	jw_close(w);
}

static void hex_write(JsonWriter *w, const char *key, const uint8_t *p, size_t n)
{
	char hex[2 * 16 + 1];

	for (size_t i = 0; i < n && i < 16; i++)
		snprintf(hex + 2 * i, 3, "%02x", p[i]);
	hex[2 * (n < 16 ? n : 16)] = 0;
	jw_str(w, key, hex);
}

/* The desktop name: UTF-8 as it is, else each byte from 0x80 as "\\xnn"
 * in lower case, Suricata 8's form for this field (its Rust logger's),
 * not the upper case of jw_bytes(). */
static void name_write(JsonWriter *w, const uint8_t *p, uint32_t n)
{
	char stack[256], *out;
	size_t k = 0;

	if (!p || !n) {
		jw_str(w, "name", "");
		return;
	}
	if (jw_strn_try(w, "name", (const char *)p, n) == 0)
		return;
	out = (size_t)n * 4 <= sizeof(stack) ? stack : malloc((size_t)n * 4);
	if (!out)
		return;
	for (uint32_t i = 0; i < n; i++) {
		if (p[i] < 0x80)
			out[k++] = (char)p[i];
		else
			k += (size_t)snprintf(out + k, 5, "\\x%02x", p[i]);
	}
	jw_strn(w, "name", out, k);
	if (out != stack)
		free(out);
}

void rfb_json_write(JsonWriter *w, const RfbInfo *r)
{
	version_write(w, "server_protocol_version", &r->server_version);
	version_write(w, "client_protocol_version", &r->client_version);

	/* Suricata 8 opens it even when the handshake stopped before it */
	jw_object(w, "authentication");
	if (r->has_sectype)
		jw_int(w, "security_type", r->sectype);
	if (r->has_sectype && r->sectype == 2) {
		jw_object(w, "vnc");
		if (r->has_challenge)
			hex_write(w, "challenge", r->challenge, 16);
		if (r->has_response)
			hex_write(w, "response", r->response, 16);
		jw_close(w);
	}
	if (r->has_result) {
		const char *n = rfb_result_name(r->result);
		char buf[32];

		if (!n) {
			snprintf(buf, sizeof(buf), "UNKNOWN (%u)", r->result);
			n = buf;
		}
		jw_str(w, "security_result", n);
	}
	jw_close(w);

	if (r->has_client_init)
		jw_bool(w, "screen_shared", r->shared != 0);
	if (r->has_server_init) {
		const RfbPixelFormat *pf = &r->pf;

		jw_object(w, "framebuffer");
		jw_int(w, "width", r->width);
		jw_int(w, "height", r->height);
		name_write(w, r->name, r->name_len);
		jw_object(w, "pixel_format");
		jw_int(w, "bits_per_pixel", pf->bits_per_pixel);
		jw_int(w, "depth", pf->depth);
		jw_bool(w, "big_endian", pf->big_endian != 0);
		jw_bool(w, "true_color", pf->true_color != 0);
		jw_int(w, "red_max", pf->red_max);
		jw_int(w, "green_max", pf->green_max);
		jw_int(w, "blue_max", pf->blue_max);
		jw_int(w, "red_shift", pf->red_shift);
		jw_int(w, "green_shift", pf->green_shift);
		jw_int(w, "blue_shift", pf->blue_shift);
		jw_close(w);
		jw_close(w);
	}
}

static void build_obj(JsonWriter *w, void *ctx)
{
	rfb_json_write(w, ctx);
}

json_t *rfb_json_object(const RfbInfo *r)
{
	return jw_build_tree(build_obj, (void *)r);
}

/* The parser's events not written yet, each once per flow: on the packet
 * that raised them, the rest when the transaction logs. */
static void log_rfb_events(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	const RfbState *s = rfb_tx_state(tx);
	uint32_t *done = rfb_tx_events_logged(tx);

	if (!s || !p)
		return;
	for (int e = 0; e < RFB_EV_COUNT; e++) {
		if (!(s->events >> e & 1) || (*done >> e & 1))
			continue;
		*done |= 1u << e;
		output_anomaly_parser_event(o, p, f, "rfb", rfb_event_name(e), 0,
					    app_layer_tx_log_id(f, tx));
	}
}

struct rfb_line {
	const Packet *p;
	const Flow *f;
	const RfbState *s;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct rfb_line *l = ctx;

	eve_header_write_tx(w, "rfb", l->p, l->f, 0);
	jw_object(w, "rfb");
	rfb_json_write(w, &l->s->info);
	jw_close(w);
}

/* One record per flow, when the handshake is over or the flow ended,
 * once a version was read. */
static void log_rfb_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	struct rfb_line l = { p, f, rfb_tx_state(tx) };

	if (o && l.s && o->cfg.eve_anomaly.applayer && o->eve_anomaly)
		log_rfb_events(o, p, f, tx);
	if (!o || !l.s || !outputs_eve_enabled(o, "rfb"))
		return;
	if (!l.s->info.server_version.set && !l.s->info.client_version.set)
		return;
	eve_write_built(o, "rfb", build_record, &l);
}

static int alert_rfb_write(JsonWriter *w, const Flow *f, void *tx)
{
	const RfbState *s = rfb_tx_state(tx);

	(void)f;
	if (!s || (!s->info.server_version.set && !s->info.client_version.set))
		return -1;
	jw_object(w, "rfb");
	rfb_json_write(w, &s->info);
	jw_close(w);
	return 0;
}

const EveTxLogger eve_rfb_logger = {
	.log_tx = log_rfb_tx,
	.alert_write = alert_rfb_write,
	.log_events = log_rfb_events,
};
