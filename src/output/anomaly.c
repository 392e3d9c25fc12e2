/* eve "anomaly" records, in Suricata 8's shape:
 *   header (.. proto, pkt_src), [tx_id], "anomaly": {type, event} for packet
 *   events ("decode": decoder.*, defrag.*; "stream": stream.*), or
 *   {app_proto, type "applayer", event, layer} for app-layer ones, then with
 *   packethdr the frame's first 32 bytes as "packet" + "packet_info".
 * One record per event, in the order the packet raised them. */
#include "output/output-private.h"
#include "output/json-writer.h"
#include "output/alert.h"
#include "decode/events.h"
#include "stream/stream.h"
#include "app-layer/app-layer.h"

#include <stdio.h>
#include <string.h>

/* Suricata logs this much of the frame with packethdr: enough for the
 * link and IP headers. */
#define ANOMALY_PKTHDR_LEN 32

/* One anomaly record: the common part, then the "anomaly" object's
 * members; packethdr: the frame's first bytes last. */
struct anomaly_line {
	const Packet *p;
	const Flow *f;
	int has_tx;
	uint64_t tx_id;
	const char *app_proto;      /* NULL: a packet event */
	const char *type, *event, *layer;
	int packethdr;
	const EveFlowMeta *meta;    /* NULL: no "metadata" */
};

/* eve metadata (yes): the flow's flowbits and flowvars, as on alerts */
static void write_metadata(JsonWriter *w, const EveFlowMeta *m)
{
	if (!m || (!m->n_flowbits && !m->n_flowvars))
		return;
	jw_object(w, "metadata");
	if (m->n_flowbits) {
		jw_array(w, "flowbits");
		for (unsigned i = 0; i < m->n_flowbits; i++)
			jw_str(w, NULL, m->flowbits[i]);
		jw_close(w);
	}
	output_vars_write(w, "flowvars", m->flowvars, m->n_flowvars);
	jw_close(w);
}

static void build_record(JsonWriter *w, void *ctx)
{
	const struct anomaly_line *l = ctx;

	eve_header_write(w, &l->p->ts, "anomaly", l->p, l->f);
	jw_str(w, "pkt_src", output_pkt_src(l->p));
	write_metadata(w, l->meta);
	if (l->has_tx)
		jw_int(w, "tx_id", (int64_t)l->tx_id);
	jw_object(w, "anomaly");
	if (l->app_proto)
		jw_str_opt(w, "app_proto", l->app_proto);
	jw_str_opt(w, "type", l->type);
	jw_str_opt(w, "event", l->event);
	jw_str_opt(w, "layer", l->layer);
	jw_close(w);
	if (l->packethdr)
		output_packet_write(w, l->p, ANOMALY_PKTHDR_LEN);
}

static void write_packet_event(Outputs *o, const Packet *p, const char *type, const char *event,
			       const EveFlowMeta *meta)
{
	struct anomaly_line l = { .p = p, .f = p->flow, .type = type, .event = event,
				  .packethdr = o->cfg.eve_anomaly.packethdr,
				  .meta = o->cfg.eve_metadata ? meta : NULL };

	eve_write_built(o, "anomaly", build_record, &l);
}

/* Suricata names decoder events "decoder.<layer>.<event>", except the
 * fragment reassembly ones, which belong to defrag. */
static void decode_event_full_name(uint16_t id, char *buf, size_t len)
{
	const char *n = decode_event_name(id);

	if (!n) {
		snprintf(buf, len, "decoder.unknown");
		return;
	}
	if (strstr(n, ".frag_"))
		snprintf(buf, len, "defrag.%s", n);
	else
		snprintf(buf, len, "decoder.%s", n);
}

void output_anomaly(Outputs *o, const Packet *p, const EveFlowMeta *meta)
{
	const OutputAnomalyConfig *nc;
	char name[96];

	if (!o || !p || (!p->nevents && !p->stream_nevents && !p->app_events))
		return;
	/* protocol detection's, on the packet whose data raised them */
	for (unsigned bit = 1; p->app_events && bit < 0x100; bit <<= 1) {
		const char *n = (p->app_events & bit) ? app_layer_packet_event_name(bit) : NULL;

		if (n && p->flow)
			output_anomaly_applayer(o, p, p->flow, app_proto_name(p->flow->app_proto), n,
						"proto_detect", 0, 0);
	}
	nc = &o->cfg.eve_anomaly;
	if ((!nc->decode && !nc->stream) || !outputs_eve_enabled(o, "anomaly"))
		return;
	for (uint8_t i = 0; nc->decode && i < p->nevents && i < PKT_EVENTS_MAX; i++) {
		decode_event_full_name(p->events[i], name, sizeof(name));
		write_packet_event(o, p, "decode", name, meta);
	}
	for (uint8_t i = 0; nc->stream && i < p->stream_nevents && i < PKT_STREAM_EVENTS_MAX; i++) {
		const char *n = stream_event_name(p->stream_events[i]);

		snprintf(name, sizeof(name), "stream.%s", n ? n : "unknown");
		write_packet_event(o, p, "stream", name, meta);
	}
}

void output_anomaly_parser_event(Outputs *o, const Packet *p, const Flow *f,
				 const char *app_proto, const char *event, int upper,
				 uint64_t tx_id)
{
	char name[64];
	size_t i;

	if (!event)
		return;
	for (i = 0; event[i] && i + 1 < sizeof(name); i++)
		name[i] = (char)(upper && event[i] >= 'a' && event[i] <= 'z' ? event[i] - 32 :
				 event[i]);
	name[i] = '\0';
	output_anomaly_applayer(o, p, f, app_proto, name, "proto_parser", 1, tx_id);
}

void output_anomaly_applayer(Outputs *o, const Packet *p, const Flow *f, const char *app_proto,
			     const char *event, const char *layer, int has_tx, uint64_t tx_id)
{
	struct anomaly_line l = { p, f, has_tx, tx_id, app_proto ? app_proto : "unknown",
				  "applayer", event, layer, 0, NULL };

	if (!o || !p || !o->cfg.eve_anomaly.applayer || !outputs_eve_enabled(o, "anomaly"))
		return;
	eve_write_built(o, "anomaly", build_record, &l);
}
