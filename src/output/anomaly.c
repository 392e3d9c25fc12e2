/* eve "anomaly" records, in Suricata 8's shape:
 *   header (.. proto, pkt_src), [tx_id], "anomaly": {type, event} for packet
 *   events ("decode": decoder.*, defrag.*; "stream": stream.*), or
 *   {app_proto, type "applayer", event, layer} for app-layer ones, then with
 *   packethdr the frame's first 32 bytes as "packet" + "packet_info".
 * One record per event, in the order the packet raised them. */
#include "output/output-private.h"
#include "decode/events.h"
#include "stream/stream.h"
#include "app-layer/app-layer.h"

#include <stdio.h>
#include <string.h>

/* Suricata logs this much of the frame with packethdr: enough for the
 * link and IP headers. */
#define ANOMALY_PKTHDR_LEN 32

static json_t *anomaly_record(const Packet *p, const Flow *f, int has_tx, uint64_t tx_id)
{
	json_t *rec = eve_header(&p->ts, "anomaly", p, f);

	if (!rec)
		return NULL;
	json_object_set_new(rec, "pkt_src", json_string(output_pkt_src(p)));
	if (has_tx)
		json_object_set_new(rec, "tx_id", json_integer((json_int_t)tx_id));
	return rec;
}

static void write_packet_event(Outputs *o, const Packet *p, const char *type, const char *event)
{
	json_t *rec = anomaly_record(p, p->flow, 0, 0), *an;

	if (!rec)
		return;
	an = json_object();
	if (an) {
		json_object_set_new(an, "type", json_string(type));
		json_object_set_new(an, "event", json_string(event));
		json_object_set_new(rec, "anomaly", an);
	}
	if (o->cfg.eve_anomaly.packethdr)
		output_packet_json(rec, p, ANOMALY_PKTHDR_LEN);
	eve_write(o, rec);
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

void output_anomaly(Outputs *o, const Packet *p)
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
		write_packet_event(o, p, "decode", name);
	}
	for (uint8_t i = 0; nc->stream && i < p->stream_nevents && i < PKT_STREAM_EVENTS_MAX; i++) {
		const char *n = stream_event_name(p->stream_events[i]);

		snprintf(name, sizeof(name), "stream.%s", n ? n : "unknown");
		write_packet_event(o, p, "stream", name);
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
	json_t *rec, *an;

	if (!o || !p || !o->cfg.eve_anomaly.applayer || !outputs_eve_enabled(o, "anomaly"))
		return;
	rec = anomaly_record(p, f, has_tx, tx_id);
	if (!rec)
		return;
	an = json_object();
	if (an) {
		json_object_set_new(an, "app_proto", json_string(app_proto ? app_proto : "unknown"));
		json_object_set_new(an, "type", json_string("applayer"));
		json_object_set_new(an, "event", json_string(event));
		json_object_set_new(an, "layer", json_string(layer));
		json_object_set_new(rec, "anomaly", an);
	}
	eve_write(o, rec);
}
