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
 * Inspection: a frame rule sees each frame of its type once, when all of
 * the frame's bytes have gone by in its direction (or the direction
 * ended), on the next packet of that direction or at the flow's end. The
 * buffer is the frame's bytes up to the first hole (a TCP gap): content
 * never matches across missing bytes. Frame rules are in no signature
 * group: with none loaded this pass never runs. */
#include "detect/engine-int.h"
#include "detect/detect-int.h"
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

const Keyword frame_keywords[] = {
	{ "frame", KW_FRAME, kw_frame, NEED | SQ, BUF_FRAME,
	  "sticky buffer: the bytes of an app-layer frame (<proto>.<type>)", NULL, NULL },
	{ .name = NULL }
};

/* The bytes a rule inspects of fr (see the top): 0 when none are there. */
static int frame_buffer(const Packet *p, int d, const AppFrame *fr, InspectBuffer *b)
{
	const Flow *f = p->flow;
	uint64_t flen = app_frame_length(f, d, fr), base;
	const uint8_t *data;
	uint32_t len;

	b->type = IBUF_PACKET;
	if (f->proto == 17) {
		/* the datagram being processed, and no other */
		if (fr->pkt != f->pkts_toserver + f->pkts_toclient || fr->off > p->payload_len)
			return 0;
		len = p->payload_len - (uint32_t)fr->off;
		b->data = p->payload + fr->off;
		b->len = flen < len ? (uint32_t)flen : len;
		return 1;
	}
	if (!stream_get_data(f, d, fr->off, &data, &len, &base) || base != fr->off)
		return 0;
	b->data = data;
	b->len = flen < len ? (uint32_t)flen : len;
	return 1;
}

void detect_frames_inspect(DetectThread *dt, Packet *p, int eof)
{
	const DetectEngine *de = dt->de;
	Flow *f = p->flow;
	int d = (p->flags & PKT_TOCLIENT) ? 1 : 0;
	uint32_t n;
	AppFrame *v = app_frames_get(f, d, &n);

	for (uint32_t i = 0; i < n; i++) {
		AppFrame *fr = &v[i];
		InspectBuffer b;
		int have;

		if ((fr->flags & APP_FRAME_INSPECTED) || (!eof && !app_frame_done(f, d, fr)))
			continue;
		fr->flags |= APP_FRAME_INSPECTED;
		have = frame_buffer(p, d, fr, &b);
		dt->cur_frame = fr->id;
		dt->cur_frame_dir = d;
		dt->cur_has_tx = (fr->flags & APP_FRAME_TX) != 0;
		dt->cur_tx = fr->tx_id;
		for (uint32_t k = 0; have && k < de->nframe; k++) {
			const DetectSig *ds = &de->sigs[de->frame_sigs[k]];
			const Signature *s = ds->s;

			if (s->frame_alproto != fr->alproto || s->frame_type != fr->type)
				continue;
			if (s->alproto != ALPROTO_UNKNOWN && s->alproto != f->app_proto)
				continue;
			if (!inspect_header(ds, p) || !inspect_match_list(dt, s, p) ||
			    !inspect_buffer(dt, s, BUF_FRAME, &b))
				continue;
			detect_sig_matched(dt, ds, p);
		}
		dt->cur_frame = 0;
		dt->cur_has_tx = 0;
		dt->cur_tx = 0;
	}
}
