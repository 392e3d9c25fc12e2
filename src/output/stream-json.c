/* eve "stream_tcp" records: Suricata 8's experimental stream logger (eve-log
 * types: `- stream: {all, event-set, state-update, spurious-retransmission}`),
 * off unless listed. One record per TCP packet the options select (all:
 * every one; otherwise those that raised a stream event, changed the TCP
 * state or were spurious retransmissions; none selected: no record, as in
 * Suricata), written after the packet went through the stream engine:
 *   header, direction (with a flow),
 *   "stream_tcp": {
 *     "packet":  IP len/tos/ttl/ipid (IPv6: len/tc/hoplimit/flowlbl), tcpseq,
 *                tcpack, tcpwin, syn..fin, tcpres, tcpurgp, flags [...],
 *     "session": state, pstate (on a state change), flags {flags [...]},
 *                client {...}, server {...} (isn, next_seq, last_ack,
 *                next_win, base_seq, segs_right_edge, window, wscale,
 *                flags [...], seg_cnt),
 *     "events": [...] (with event_set), "reason": the drop reason }
 * The shape is Suricata 8.0's (its docs call it a debugging aid that may
 * change); the eve schema leaves stream_tcp open. Sequence numbers are
 * absolute, as there. */
#include "output/logger-int.h"
#include "output/output-private.h"
#include "output/json-writer.h"
#include "output/drop.h"
#include "stream/stream.h"

#include <netinet/in.h>

static int stream_event_on(const Packet *p, int ev)
{
	for (uint8_t i = 0; i < p->stream_nevents; i++)
		if (p->stream_events[i] == ev)
			return 1;
	return 0;
}

/* The EVE_STREAM_* triggers p meets. */
static unsigned packet_triggers(const Packet *p)
{
	unsigned t = 0;

	if (p->stream_nevents)
		t |= EVE_STREAM_EVENT_SET;
	if (p->stream_flags & STREAM_PKT_STATE_UPDATE)
		t |= EVE_STREAM_STATE_UPDATE;
	if (stream_event_on(p, SEV_PKT_SPURIOUS_RETRANSMISSION))
		t |= EVE_STREAM_SPURIOUS_RETRANSMISSION;
	return t;
}

static void write_ip(JsonWriter *w, const Packet *p)
{
	const uint8_t *h = p->l3;

	if (p->ip_version == 4) {
		jw_int(w, "len", p->l3_len);
		jw_int(w, "tos", p->tos);
		jw_int(w, "ttl", p->ttl);
		jw_int(w, "ipid", p->ip_id);
	} else if (p->ip_version == 6 && h) {
		/* the payload length and flow label as on the wire */
		jw_int(w, "len", (h[4] << 8) | h[5]);
		jw_int(w, "tc", p->tos);
		jw_int(w, "hoplimit", p->ttl);
		jw_int(w, "flowlbl", ((h[1] & 0x0f) << 16) | (h[2] << 8) | h[3]);
	}
}

static void write_packet(JsonWriter *w, const Packet *p, unsigned trig)
{
	const uint8_t fl = p->tcp_flags;

	jw_object(w, "packet");
	write_ip(w, p);
	jw_int(w, "tcpseq", p->tcp_seq);
	jw_int(w, "tcpack", p->tcp_ack);
	jw_int(w, "tcpwin", p->tcp_win);
	eve_tcp_flag_bools(w, fl);
	/* the 4 reserved bits after the data offset */
	jw_int(w, "tcpres", p->l4 ? p->l4[12] & 0x0f : 0);
	jw_int(w, "tcpurgp", p->tcp_urp);
	jw_array(w, "flags");
	if (p->stream_flags & STREAM_PKT_RETRANSMISSION)
		jw_str(w, NULL, "retransmission");
	if (trig & EVE_STREAM_SPURIOUS_RETRANSMISSION)
		jw_str(w, NULL, "spurious_retransmission");
	if (trig & EVE_STREAM_EVENT_SET)
		jw_str(w, NULL, "event_set");
	if (trig & EVE_STREAM_STATE_UPDATE)
		jw_str(w, NULL, "state_update");
	jw_close(w);
	jw_close(w);
}

static void write_dir(JsonWriter *w, const char *key, const StreamDirView *d)
{
	jw_object(w, key);
	jw_int(w, "isn", d->isn);
	jw_int(w, "next_seq", d->next_seq);
	jw_int(w, "last_ack", d->last_ack);
	jw_int(w, "next_win", d->next_win);
	jw_int(w, "base_seq", d->base_seq);
	jw_int(w, "segs_right_edge", d->segs_right_edge);
	jw_int(w, "window", d->window);
	jw_int(w, "wscale", d->wscale);
	jw_array(w, "flags");
	if (d->has_gap)
		jw_str(w, NULL, "has_gap");
	if (d->depth_reached)
		jw_str(w, NULL, "depth_reached");
	if (d->timestamp)
		jw_str(w, NULL, "timestamp");
	jw_close(w);
	jw_int(w, "seg_cnt", d->seg_cnt);
	jw_close(w);
}

static void write_session(JsonWriter *w, const Packet *p)
{
	StreamSessionView v;

	jw_object(w, "session");
	if (p->flow && stream_session_view(p->flow, &v) == 0) {
		jw_str(w, "state", tcp_state_name(v.state));
		if (p->stream_flags & STREAM_PKT_STATE_UPDATE)
			jw_str(w, "pstate", tcp_state_name(v.pstate));
		/* an object holding the array, as Suricata 8 writes it */
		jw_object(w, "flags");
		jw_array(w, "flags");
		if (v.midstream)
			jw_str(w, NULL, "midstream");
		if (v.timestamps)
			jw_str(w, NULL, "timestamp");
		if (v.wscale)
			jw_str(w, NULL, "server_wscale");
		if (v.closed_by_rst)
			jw_str(w, NULL, "closed_by_rst");
		if (v.fourwhs)
			jw_str(w, NULL, "4whs");
		jw_close(w);
		jw_close(w);
		write_dir(w, "client", &v.dir[0]);
		write_dir(w, "server", &v.dir[1]);
	}
	jw_close(w);
}

typedef struct StreamRecord {
	const Packet *p;
	unsigned trig;
} StreamRecord;

static void build_record(JsonWriter *w, void *ctx)
{
	const StreamRecord *r = ctx;
	const Packet *p = r->p;

	eve_header_write(w, &p->ts, "stream_tcp", p, p->flow);
	if (p->flow)
		jw_str(w, "direction", (p->flags & PKT_TOCLIENT) ? "to_client" : "to_server");
	jw_object(w, "stream_tcp");
	write_packet(w, p, r->trig);
	write_session(w, p);
	if (r->trig & EVE_STREAM_EVENT_SET) {
		char name[96];

		jw_array(w, "events");
		for (uint8_t i = 0; i < p->stream_nevents; i++) {
			const char *n = stream_event_name(p->stream_events[i]);

			if (!n)
				continue;
			snprintf(name, sizeof(name), "stream.%s", n);
			jw_str(w, NULL, name);
		}
		jw_close(w);
	}
	if (p->drop_reason)
		jw_str(w, "reason", pkt_drop_reason_name((enum pkt_drop_reason)p->drop_reason));
	jw_close(w);
}

static int same_triggers(const EveTypeOptions *a, const EveTypeOptions *b)
{
	return a->stream == b->stream;
}

/* The outputs of one trigger set: the record when p meets it. */
static void write_group(Outputs *o, uint32_t outs, const EveTypeOptions *opts, void *ctx)
{
	const StreamRecord *r = ctx;

	if ((opts->stream & EVE_STREAM_ALL) || (r->trig & opts->stream))
		eve_write_built_to(o, outs, build_record, (void *)r);
}

static void stream_packet(OutputThread *ot, const OutputPacketCtx *pc)
{
	const Packet *p = pc->p;
	StreamRecord r;

	/* the union of the outputs' triggers: most packets leave here */
	if (!ot->o || !ot->o->eve_stream || p->proto != IPPROTO_TCP || !PKT_IS_TCP(p))
		return;
	r.p = p;
	r.trig = packet_triggers(p);
	if (!(ot->o->eve_stream & EVE_STREAM_ALL) && !(r.trig & ot->o->eve_stream))
		return;
	eve_each_option_group(ot->o, "stream", same_triggers, write_group, &r);
}

const OutputLogger output_logger_stream = { "stream", stream_packet, NULL };
