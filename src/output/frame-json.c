/* Frames in eve (app-layer/frames.h): the "frame" object an alert on a
 * frame carries, and the `- frame` type's records (event_type "frame"), as
 * Suricata 8 writes them: type, id, direction, stream_offset (TCP),
 * length, complete, payload (base64), payload_printable, tx_id.
 *
 * The payload is the frame's bytes, read back from the stream, at most
 * FRAME_PAYLOAD_MAX of them; a hole in the stream is written in place as
 * "[N bytes missing]", as Suricata's stream payloads (suricata-verify
 * smb2-frames-gap-payload-logging). The printable form stops one byte
 * short of that size, as Suricata's (its buffer holds the final NUL). */
#include "output/output.h"
#include "output/output-private.h"
#include "output/json-writer.h"
#include "app-layer/frames.h"
#include "stream/stream.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define FRAME_PAYLOAD_MAX 4096

/* Writes the frame's bytes of [off, end) into buf (cap bytes); *complete
 * is cleared when a byte of the range is not there, past cap too: as
 * Suricata's, "complete" says the stream holds the whole frame, not that
 * the payload logged does. */
static uint32_t tcp_payload(const Flow *f, int d, uint64_t off, uint64_t end, uint8_t *buf,
			    uint32_t cap, int *complete)
{
	uint64_t from = off;
	uint32_t o = 0;

	while (from < end) {
		const uint8_t *data;
		uint32_t len, take;
		uint64_t base;

		if (!stream_get_data(f, d, from, &data, &len, &base)) {
			/* nothing more was kept (or came): the frame ends short */
			*complete = 0;
			break;
		}
		if (base > from) {
			uint64_t to = base < end ? base : end;
			char m[48];
			int n = snprintf(m, sizeof(m), "[%" PRIu64 " bytes missing]", to - from);

			*complete = 0;
			if (n > 0 && o < cap) {
				take = (uint32_t)n < cap - o ? (uint32_t)n : cap - o;
				memcpy(buf + o, m, take);
				o += take;
			}
			from = to;
			continue;
		}
		take = len;
		if (take > end - from)
			take = (uint32_t)(end - from);
		from += take;
		if (take > cap - o)
			take = cap - o;
		memcpy(buf + o, data, take);
		o += take;
		if (o == cap && !*complete)
			break;
	}
	return o;
}

void output_frame_write(JsonWriter *w, const Packet *p, const Flow *f, int dir,
			const AppFrame *fr)
{
	const char *name = app_frame_type_name(fr->alproto, fr->type);
	uint64_t len = app_frame_length(f, dir, fr);
	uint8_t buf[FRAME_PAYLOAD_MAX];
	uint32_t n = 0;
	int complete = fr->len >= 0;

	jw_str_opt(w, "type", name ? name : "unknown");
	jw_int(w, "id", fr->id);
	jw_ascii(w, "direction", dir ? "toclient" : "toserver", 8);
	if (f->proto == 6) {
		jw_int(w, "stream_offset", (int64_t)fr->off);
		n = tcp_payload(f, dir, fr->off, fr->off + len, buf, sizeof(buf), &complete);
	} else if (fr->pkt == f->pkts_toserver + f->pkts_toclient && fr->off <= p->payload_len) {
		/* UDP: the datagram being processed */
		n = p->payload_len - (uint32_t)fr->off;
		if (n > len)
			n = (uint32_t)len;
		if (n < len)
			complete = 0;
		if (n > sizeof(buf))
			n = sizeof(buf);
		memcpy(buf, p->payload + fr->off, n);
	} else {
		complete = 0;
	}
	jw_int(w, "length", (int64_t)len);
	jw_bool(w, "complete", complete);
	jw_base64(w, "payload", buf, n);
	output_write_printable(w, "payload_printable", buf, n < sizeof(buf) ? n : sizeof(buf) - 1);
	if (fr->flags & APP_FRAME_TX)
		jw_int(w, "tx_id", (int64_t)fr->tx_id);
}

int outputs_frames_enabled(const Outputs *o)
{
	return o && o->eve_frame;
}

struct frame_line {
	const Packet *p;
	const Flow *f;
	const AppFrame *fr;
	const char *app;
	int dir;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct frame_line *l = ctx;

	eve_header_write(w, &l->p->ts, "frame", l->p, l->f);
	jw_str_opt(w, "app_proto", l->app);
	jw_object(w, "frame");
	output_frame_write(w, l->p, l->f, l->dir, l->fr);
	jw_close(w);
}

void output_frames(Outputs *o, const Packet *p, Flow *f, int eof)
{
	int d = (p->flags & PKT_TOCLIENT) ? 1 : 0;
	struct frame_line l = { p, f, NULL, output_app_proto_name(f->app_proto), d };
	uint32_t n;
	AppFrame *v = app_frames_get(f, d, &n);

	for (uint32_t i = 0; i < n; i++) {
		AppFrame *fr = &v[i];

		if ((fr->flags & APP_FRAME_LOGGED) || (!eof && !app_frame_done(f, d, fr)))
			continue;
		fr->flags |= APP_FRAME_LOGGED;
		l.fr = fr;
		eve_write_built(o, "frame", build_record, &l);
	}
}
