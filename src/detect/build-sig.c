/* Per rule properties, decided once at build (DetectSig, by rule order):
 * the alert action, ip-only, which buffers it reads (packet, stream,
 * transaction, frame, headers), its rule type as engine analysis names it,
 * and the metadata strings its alerts carry. */
#include "detect/build.h"

#include "output/alert.h"

#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static uint8_t alert_action(enum sig_action a)
{
	switch (a) {
	case ACT_PASS: return ALERT_ACTION_PASS;
	case ACT_DROP: return ALERT_ACTION_DROP;
	case ACT_ALERT: return ALERT_ACTION_ALERT;
	default: return ALERT_ACTION_REJECT;
	}
}

/* Suricata's ip-only: addresses and protocol only, no ports, no keywords
 * that inspect the packet. Evaluated on the first packet of each flow
 * direction (and on every packet that has no flow). */
static int is_iponly(const Signature *s, int ports_ok)
{
	if ((!ports_ok && (!s->sp.any || !s->dp.any)) || s->alproto != ALPROTO_UNKNOWN)
		return 0;
	for (int l = 0; l < SM_LIST_MAX; l++) {
		if (l == SM_LIST_POSTMATCH || l == SM_LIST_THRESHOLD)
			continue;
		if (s->lists[l].n)
			return 0;
	}
	for (int i = 0; i < s->lists[SM_LIST_POSTMATCH].n; i++)
		if (s->lists[SM_LIST_POSTMATCH].m[i].kw != KW_FLOWBITS)
			return 0;
	return !(s->flags & (SIG_FLAG_SAMEIP | SIG_FLAG_TOSERVER | SIG_FLAG_TOCLIENT));
}

static int build_meta(DetectSig *ds, const Signature *s)
{
	size_t total = 0;
	char *p;

	if (!s->nmeta)
		return 0;
	for (int i = 0; i < s->nmeta; i++)
		total += strlen(s->meta[i].key) + 1 + (s->meta[i].value ? strlen(s->meta[i].value) : 0) + 1;
	ds->meta_buf = malloc(total);
	ds->metadata = calloc(s->nmeta, sizeof(char *));
	if (!ds->meta_buf || !ds->metadata)
		return -1;
	p = ds->meta_buf;
	for (int i = 0; i < s->nmeta; i++) {
		int n = sprintf(p, "%s%s%s", s->meta[i].key, s->meta[i].value ? " " : "",
				s->meta[i].value ? s->meta[i].value : "");

		ds->metadata[i] = p;
		p += n + 1;
	}
	ds->nmeta = s->nmeta;
	return 0;
}

/* The rule's references as eve writes them (metadata.rule.reference): a
 * value that names its own scheme ("foobar://x") as it is, else the
 * type's prefix from reference.config and the value; a type the file does
 * not know (Suricata accepts it) gives the value alone. */
static const char *ref_prefix(const DetectContext *ctx, const SigReference *r)
{
	if (strstr(r->value, "://"))
		return "";
	for (int i = 0; i < ctx->nrefs; i++)
		if (ctx->ref_types[i] && ctx->ref_urls[i] &&
		    strcasecmp(ctx->ref_types[i], r->type) == 0)
			return ctx->ref_urls[i];
	return "";
}

static int build_refs(DetectSig *ds, const Signature *s, const DetectContext *ctx)
{
	size_t total = 0;
	char *p;

	if (!s->nrefs)
		return 0;
	for (int i = 0; i < s->nrefs; i++)
		total += strlen(ref_prefix(ctx, &s->refs[i])) + strlen(s->refs[i].value) + 1;
	ds->refs_buf = malloc(total);
	ds->refs = calloc(s->nrefs, sizeof(char *));
	if (!ds->refs_buf || !ds->refs)
		return -1;
	p = ds->refs_buf;
	for (int i = 0; i < s->nrefs; i++) {
		int n = sprintf(p, "%s%s", ref_prefix(ctx, &s->refs[i]), s->refs[i].value);

		ds->refs[i] = p;
		p += n + 1;
	}
	ds->nrefs = (unsigned)s->nrefs;
	return 0;
}

/* Protocol classes a rule may meet. */
unsigned sig_pc_mask(const Signature *s)
{
	switch (s->proto) {
	case SIG_PROTO_IP: return (1u << PC_MAX) - 1;
	case IPPROTO_TCP: return 1u << PC_TCP;
	case IPPROTO_UDP: return 1u << PC_UDP;
	case IPPROTO_ICMP: case IPPROTO_ICMPV6: return 1u << PC_ICMP;
	}
	return 1u << PC_OTHER;
}

/* Directions (bit 0 toserver, bit 1 toclient) a rule may meet. */
unsigned sig_dir_mask(const Signature *s)
{
	unsigned m = 3;

	for (int i = 0; i < s->lists[SM_LIST_MATCH].n; i++) {
		const SigMatch *sm = &s->lists[SM_LIST_MATCH].m[i];

		if (sm->kw != KW_FLOW)
			continue;
		if (((DetectFlow *)sm->ctx)->flags & FLOW_TOSERVER)
			m &= 1;
		if (((DetectFlow *)sm->ctx)->flags & FLOW_TOCLIENT)
			m &= 2;
	}
	return m;
}

/* Keywords about one packet's own headers (and dsize, its payload size):
 * Suricata 8 marks a rule using one as a packet rule (its
 * SIG_FLAG_REQUIRE_PACKET), so `flags:S; content:"GET"` inspects a TCP Fast
 * Open SYN's own payload, which the stream would only show later. */
static int kw_is_packet_header(int kw)
{
	switch (kw) {
	case KW_DSIZE:
	case KW_TTL: case KW_TOS: case KW_ID: case KW_IPOPTS: case KW_FRAGBITS:
	case KW_FRAGOFFSET:
	case KW_FLAGS: case KW_SEQ: case KW_ACK: case KW_WINDOW: case KW_TCP_MSS: case KW_TCP_WSCALE:
	case KW_ITYPE: case KW_ICODE: case KW_ICMP_ID: case KW_ICMP_SEQ:
		return 1;
	}
	return 0;
}

/* Which of a TCP packet's payload and its reassembled stream a rule
 * inspects, decided once here as Suricata decides it (its need_packet and
 * need_stream flags):
 * - tcp-pkt, flow:no_stream, dsize and the packet header keywords
 *   (kw_is_packet_header) ask for the packet; tcp-stream and
 *   flow:only_stream for the stream alone (no fallback to the packet);
 * - a rule with replace inspects packets alone (it rewrites the packet);
 * - any other rule with payload keywords that may see TCP is a stream rule,
 *   and a packet rule too when one of its payload contents is anchored
 *   (depth, offset, startswith) or it has stream_size: an anchor means the
 *   start of a message, which may well start a packet in mid-stream.
 * Such a rule inspects the stream first and, when that does not match on
 * this packet, the packet's own payload (detect_packet). */
static void sig_stream_setup(DetectEngine *de, DetectSig *ds)
{
	const Signature *s = ds->s;
	uint32_t fl = 0;
	int need_packet = 0, need_stream = 0, stream_only = 0, anchored = 0, tcp;

	for (int i = 0; i < s->lists[SM_LIST_MATCH].n; i++) {
		const SigMatch *sm = &s->lists[SM_LIST_MATCH].m[i];

		if (sm->kw == KW_FLOW)
			fl |= ((const DetectFlow *)sm->ctx)->flags;
		else if (kw_is_packet_header(sm->kw))
			need_packet = 1;
		else if (sm->kw == KW_STREAM_SIZE)
			anchored = 1;
	}
	for (int i = 0; i < s->lists[BUF_PAYLOAD].n; i++) {
		const SigMatch *sm = &s->lists[BUF_PAYLOAD].m[i];

		if (sm->kw == KW_CONTENT && (sm->cd->flags & (CONTENT_DEPTH | CONTENT_OFFSET)))
			anchored = 1;
	}
	/* replace rewrites the packet that carries the match: its rule is a
	 * packet rule (a stream window's bytes belong to no one packet) */
	if ((s->flags & SIG_FLAG_TCP_PKT) || (fl & FLOW_NO_STREAM) || s->nrepl)
		need_packet = 1;
	if ((s->flags & SIG_FLAG_TCP_STREAM) || (fl & FLOW_ONLY_STREAM))
		need_stream = stream_only = 1;
	tcp = s->proto == IPPROTO_TCP || s->proto == SIG_PROTO_IP;
	if (tcp && ds->has_payload && !need_packet && !need_stream) {
		need_stream = 1;
		need_packet = anchored;
	}
	ds->pkt_ok = !stream_only;
	ds->stream_ok = !ds->is_tx && ds->has_payload && tcp && need_stream;
	ds->pkt_streamed_ok = ds->pkt_ok && (!ds->stream_ok || need_packet);
	if (ds->iponly)
		ds->sig_type = SIG_TYPE_IPONLY;
	else if (ds->is_tx)
		ds->sig_type = SIG_TYPE_APP_TX;
	else if (ds->has_payload && ds->stream_ok)
		ds->sig_type = ds->pkt_streamed_ok ? SIG_TYPE_PKT_STREAM : SIG_TYPE_STREAM;
	else if (!ds->has_payload && (ds->need_alproto || (s->flags & SIG_FLAG_APPLAYER)))
		ds->sig_type = SIG_TYPE_APPLAYER;
	else
		ds->sig_type = SIG_TYPE_PKT;
	ds->need_packet = (uint8_t)need_packet;
	ds->need_stream = (uint8_t)need_stream;
	/* a TCP transaction rule's payload content reads the raw stream
	 * (tx-inspect.c: tx_payload_match), which must then be kept */
	if (ds->stream_ok || (ds->is_tx && ds->has_payload && tcp))
		de->uses_stream = 1;
}

/* The buffers the rule reads. `alert http` rules without http buffers are
 * packet rules on HTTP flows; the others are evaluated on transactions. */
static void sig_buffers(DetectSig *ds, const Signature *s)
{
	ds->has_payload = s->lists[BUF_PAYLOAD].n > 0;
	for (int l = 1; l < BUF_IPV4_HDR; l++)
		if (s->lists[l].n)
			ds->is_tx = 1;
	for (int l = BUF_IPV4_HDR; l <= BUF_HDR_LAST; l++)
		if (s->lists[l].n)
			ds->has_hdr = 1;
	ds->has_frame = s->has_frame;
	if (app_event_sig_has(s) || ((s->flags & SIG_FLAG_TX_MATCH) && !ds->has_payload) ||
	    sig_has_tx_match(s))
		ds->is_tx = 1;
	ds->need_alproto = s->alproto != ALPROTO_UNKNOWN && !ds->is_tx;
}

int build_sig_setup(DetectEngine *de, DetectSig *ds)
{
	const Signature *s = ds->s;

	ds->action = alert_action(s->action);
	ds->iponly = is_iponly(s, 0);
	/* Suricata's "like ip-only": an ip-only rule but for its ports. It is
	 * inspected per packet, and its pass or drop acts on the flow as an
	 * ip-only one's (bug-5464-verdict-04) */
	ds->like_iponly = !ds->iponly && is_iponly(s, 1);
	sig_buffers(ds, s);
	sig_stream_setup(de, ds);
	if (ds->is_tx) {
		ds->hidx = de->ntx[tx_class(s->alproto)]++;
		de->ntx_rules++;
		tx_sig_setup(ds);
		if (ds->ev_early)
			de->ev_early[tx_class(s->alproto)] = 1;
	}
	ds->port_check = !s->sp.any || !s->dp.any;
	ds->is_icmp_any = s->icmp_any;
	if (s->lists[SM_LIST_THRESHOLD].n)
		ds->thr = s->lists[SM_LIST_THRESHOLD].m[0].ctx;
	if (s->classtype) {
		const ClassType *ct = detect_find_class(&de->t->ctx, s->classtype);

		ds->class_desc = ct ? ct->desc : NULL;
	}
	if (build_meta(ds, s) != 0 || build_refs(ds, s, &de->t->ctx) != 0)
		return -1;
	if (ds->iponly)
		de->have_iponly = 1;
	if (!de->tags && tag_sig_has_tag(s) && !(de->tags = tag_table_new()))
		return -1;
	return 0;
}

int build_frame_index(DetectEngine *de)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < de->nsigs; i++)
		if (de->sigs[i].has_frame)
			de->nframe++;
	if (!de->nframe)
		return 0;
	if (!(de->frame_sigs = malloc(de->nframe * sizeof(*de->frame_sigs))))
		return -1;
	for (uint32_t i = 0; i < de->nsigs; i++)
		if (de->sigs[i].has_frame)
			de->frame_sigs[k++] = i;
	return 0;
}

void build_sigs_free(DetectEngine *de)
{
	free(de->frame_sigs);
	for (uint32_t i = 0; i < de->nsigs + de->nfw; i++) {
		free(de->sigs[i].metadata);
		free(de->sigs[i].meta_buf);
		free(de->sigs[i].refs);
		free(de->sigs[i].refs_buf);
	}
}
