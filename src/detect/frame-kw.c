/* frame:<proto>.<type> (Suricata 7/8): a sticky buffer holding the bytes of
 * an application-layer frame (app-layer/frames.h), and the pass that
 * inspects the frame rules on a flow's frames.
 *
 * Names, as Suricata resolves them: with an app-layer rule protocol the
 * whole name is first looked up in that protocol's table ("smb2.data" is
 * an SMB frame); otherwise, or failing that, the part before the first dot
 * names the protocol and the rest the type ("dns.pdu", "http1.request").
 * A frame the engine does not make skips the rule (counted as unsupported,
 * as a keyword we lack), never loads it half-working.
 *
 * Inspection (IDS): a frame rule sees each frame of its type once, when
 * all of the frame's bytes have gone by in its direction (or the direction
 * ended), on the next packet of that direction or at the flow's end. IPS
 * (inline), as Suricata's: an open frame is inspected again each time its
 * direction's data moved on, from 2500 bytes before where the last look
 * ended (a sliding window), so a rule may match it more than once; a
 * window without the frame's start fails contents anchored there (offset,
 * depth, startswith), one without its end endswith. The buffer is the
 * frame's bytes up to the first hole (a TCP gap): content never matches
 * across missing bytes. "<proto>.stream" is the stream frame of any TCP
 * protocol (frames.h). Frame rules are in no signature group: with none
 * loaded this pass never runs. */
#include "detect/packet.h"
#include "detect/detect-int.h"
#include "detect/transform.h"
#include "app-layer/frames.h"
#include "stream/stream.h"

#include <string.h>

static int kw_frame(SigParseState *st, const char *arg, const Keyword *kw)
{
	Signature *s = st->s;
	const char *dot;
	int ap = s->alproto, t = -1;

	(void)kw;
	if (s->has_frame)
		return sig_error(st, "frame: only one frame per rule");
	if (ap != ALPROTO_UNKNOWN)
		t = app_frame_type_by_name((uint16_t)ap, arg);
	if (t < 0 && (dot = strchr(arg, '.')) && dot > arg && dot - arg < 32) {
		char proto[32];
		int ap2;

		memcpy(proto, arg, (size_t)(dot - arg));
		proto[dot - arg] = 0;
		ap2 = app_proto_by_name(proto);
		if (ap2 > 0 && ap2 != ALPROTO_FAILED) {
			if (ap != ALPROTO_UNKNOWN && ap2 != ap)
				return sig_error(st, "frame %s is not of the rule's protocol %s", arg,
						 app_proto_name((uint16_t)ap));
			ap = ap2;
			t = app_frame_type_by_name((uint16_t)ap, dot + 1);
		}
	}
	if (t < 0)
		return sig_unsupported(st, "frame %s", arg);
	s->has_frame = 1;
	s->frame_alproto = (uint16_t)ap;
	s->frame_type = (uint8_t)t;
	st->cur_buf = BUF_FRAME;
	return 0;
}

/* "<proto>.<frame>;" alone, as Suricata 8 takes a frame's name for a
 * keyword (ssh.record.pdu, tls.pdu): frame:<name>. 1 when name is not a
 * frame of a known protocol (the caller reports an unknown keyword), else
 * what frame: gives (0, or -1 with the rule skipped or failed). */
int frame_keyword_shorthand(SigParseState *st, const char *name)
{
	const char *dot = strchr(name, '.');
	char proto[32];
	int ap;

	if (!dot || dot == name || dot - name >= (long)sizeof(proto))
		return 1;
	memcpy(proto, name, (size_t)(dot - name));
	proto[dot - name] = 0;
	ap = app_proto_by_name(proto);
	if (ap <= 0 || ap == ALPROTO_FAILED)
		return 1;
	return kw_frame(st, name, NULL);
}

const Keyword frame_keywords[] = {
	{ .name = "frame", .id = KW_FRAME, .setup = kw_frame, .flags = NEED | SQ, .buf = BUF_FRAME,
	  .desc = "sticky buffer: the bytes of an app-layer frame (<proto>.<type>)" },
	{ .name = NULL }
};

/* IPS: what of an open frame is inspected again with the next update, as
 * Suricata's sliding window (detect-engine-frame.c keeps 2500 bytes) */
#define FRAME_IPS_WINDOW 2500

/* Whether s's frame buffer can match a window of a frame that does not
 * hold the frame's start (at_start 0) or its end (at_end 0): a content
 * anchored at the start (offset, depth, startswith) needs the start, one
 * anchored at the end (endswith) the end. */
static int frame_window_fits(const Signature *s, int at_start, int at_end)
{
	const SigMatchList *ml = &s->lists[BUF_FRAME];

	if (at_start && at_end)
		return 1;
	for (int i = 0; i < ml->n; i++) {
		const DetectContent *cd;

		if (ml->m[i].kw != KW_CONTENT)
			continue;
		cd = ml->m[i].cd;
		if (!at_start && i == 0 && (cd->flags & (CONTENT_OFFSET | CONTENT_DEPTH | CONTENT_STARTSWITH)))
			return 0;
		if (!at_end && (cd->flags & CONTENT_ENDSWITH))
			return 0;
	}
	return 1;
}

/* The frame rules of fr's type against the window b of it. */
static void frame_rules(DetectThread *dt, Packet *p, const AppFrame *fr, int d,
			const InspectBuffer *b, int at_start, int at_end)
{
	const DetectEngine *de = dt->de;
	const Flow *f = p->flow;

	dt->pkt->frame = fr->id;
	dt->pkt->frame_dir = d;
	dt->cur_has_tx = (fr->flags & APP_FRAME_TX) != 0;
	dt->cur_tx = fr->tx_id;
	for (uint32_t k = 0; k < de->nframe; k++) {
		const DetectSig *ds = &de->sigs[de->frame_sigs[k]];
		const Signature *s = ds->s;
		const TransformChain *c;
		InspectBuffer tb;

		if (s->frame_alproto != fr->alproto || s->frame_type != fr->type)
			continue;
		if (s->alproto != ALPROTO_UNKNOWN && s->alproto != f->app_proto)
			continue;
		if (!frame_window_fits(s, at_start, at_end))
			continue;
		if (!inspect_header(ds, p) || !inspect_match_list(dt, s, p))
			continue;
		tb = *b;
		if ((c = sig_list_chain(s, BUF_FRAME)) &&
		    transform_apply(c, dt->xs, b->data, b->len, &tb.data, &tb.len) != 0)
			continue;
		if (!inspect_buffer(dt, s, BUF_FRAME, &tb))
			continue;
		detect_sig_matched(dt, ds, p);
	}
	dt->pkt->frame = 0;
	dt->cur_has_tx = 0;
	dt->cur_tx = 0;
}

/* UDP: the datagram being processed, and no other. */
static void frame_udp(DetectThread *dt, Packet *p, AppFrame *fr)
{
	const Flow *f = p->flow;
	uint64_t flen = app_frame_length(f, 0, fr);
	InspectBuffer b;
	uint32_t len;

	fr->flags |= APP_FRAME_INSPECTED;
	if (fr->pkt != f->pkts_toserver + f->pkts_toclient || fr->off > p->payload_len)
		return;
	len = p->payload_len - (uint32_t)fr->off;
	b.type = IBUF_PACKET;
	b.data = p->payload + fr->off;
	b.len = flen < len ? (uint32_t)flen : len;
	frame_rules(dt, p, fr, (p->flags & PKT_TOCLIENT) ? 1 : 0, &b, 1, 1);
}

/* TCP: fr's bytes from where inspection stands (its start, or in IPS the
 * sliding window's) to what went by, up to the first hole (content never
 * matches across missing bytes). done: the frame is whole (or its
 * direction ended): this is its last inspection. */
static void frame_tcp(DetectThread *dt, Packet *p, AppFrame *fr, int d, int done, int ips)
{
	const Flow *f = p->flow;
	uint64_t edge = app_frames_edge(f, d);
	uint64_t end = fr->len >= 0 ? fr->off + (uint64_t)fr->len : edge;
	uint64_t start = fr->off + fr->progress, base, progress;
	const uint8_t *data;
	uint32_t len;
	InspectBuffer b;

	if (done)
		fr->flags |= APP_FRAME_INSPECTED;
	if (end > edge)
		end = edge;
	if (start >= end || !stream_get_data(f, d, start, &data, &len, &base) || base >= end)
		return;
	if (base > start) {
		/* released already (a frame longer than the stream keeps) */
		start = base;
	} else {
		data += start - base;
		len -= (uint32_t)(start - base);
	}
	if (len > end - start)
		len = (uint32_t)(end - start);
	b.type = IBUF_PACKET;
	b.data = data;
	b.len = len;
	frame_rules(dt, p, fr, d, &b, start == fr->off,
		    fr->len >= 0 && start + len == fr->off + (uint64_t)fr->len);
	progress = start + len - fr->off;
	if (!done && ips)
		progress = progress > FRAME_IPS_WINDOW ? progress - FRAME_IPS_WINDOW : 0;
	if (progress > fr->progress)
		fr->progress = progress;
}

void detect_frames_inspect(DetectThread *dt, Packet *p, int eof)
{
	Flow *f = p->flow;
	int d = (p->flags & PKT_TOCLIENT) ? 1 : 0;
	int ips = dt->de->cfg.stream_inline;
	uint32_t n;
	AppFrame *v = app_frames_get(f, d, &n);

	/* IPS: every frame still open again each time its direction moved
	 * on (Suricata: packets with an app-layer update), so a rule can
	 * match an open frame more than once; IDS: each frame once, whole */
	if (ips && f->proto == 6 && !eof && !app_frames_updated(f, d))
		return;
	for (uint32_t i = 0; i < n; i++) {
		AppFrame *fr = &v[i];
		int done;

		if (fr->flags & APP_FRAME_INSPECTED)
			continue;
		if (f->proto == 17) {
			frame_udp(dt, p, fr);
			continue;
		}
		done = eof || app_frame_done(f, d, fr);
		if (done || ips)
			frame_tcp(dt, p, fr, d, done, ips);
	}
}
