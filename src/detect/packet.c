/* The per-packet driver: detect_packet() as a list of steps over a
 * DetectPkt on its stack (packet.h): the flow's view of the packet, the
 * raw stream, the payload prefilter (prefilter.h), the rules without a
 * fast pattern, the candidates' full inspection in rule order, then the
 * flow's transactions and frames. */
#include "detect/prefilter.h"
#include "detect/transform.h"
#include "app-layer/app-layer.h"
#include "stream/stream.h"
#include "output/alert.h"
#include "decode/decode.h"

#include <netinet/in.h>
#include <pcap/dlt.h>
#include <string.h>

static int proto_class(const Packet *p)
{
	switch (p->proto) {
	case IPPROTO_TCP: return PC_TCP;
	case IPPROTO_UDP: return PC_UDP;
	case IPPROTO_ICMP: case IPPROTO_ICMPV6: return PC_ICMP;
	}
	return PC_OTHER;
}

/* ---- header buffers ---- */

/* icmpv4.hdr covers the type's fixed fields, as Suricata sizes it: router
 * advertisements carry their address entries, timestamp and address-mask
 * messages their extra words; the rest is the 8-byte header. */
static uint32_t icmpv4_hdr_len(const Packet *p)
{
	uint32_t avail = (uint32_t)p->l4_hlen + p->payload_len, len = p->l4_hlen;

	switch (p->icmp_type) {
	case 9:
		len = 8 + (uint32_t)p->l4[4] * p->l4[5] * 4;
		break;
	case 13: case 14:
		len = 20;
		break;
	case 17: case 18:
		len = 12;
		break;
	}
	return len > avail ? avail : len;
}

/* The packet header buffers: the bytes of that header when the packet has
 * it; a rule inspecting a header the packet lacks does not match. */
static int hdr_buffer(const Packet *p, int buf, InspectBuffer *b)
{
	b->type = IBUF_PACKET;
	b->data = NULL;
	b->len = 0;
	switch (buf) {
	case BUF_IPV4_HDR:
		if (PKT_IS_IPV4(p) && p->l3) { b->data = p->l3; b->len = p->l3_hlen; }
		break;
	case BUF_IPV6_HDR:
		if (PKT_IS_IPV6(p) && p->l3) { b->data = p->l3; b->len = p->l3_hlen; }
		break;
	case BUF_TCP_HDR:
		if (PKT_IS_TCP(p)) { b->data = p->l4; b->len = p->l4_hlen; }
		break;
	case BUF_UDP_HDR:
		if (PKT_IS_UDP(p)) { b->data = p->l4; b->len = 8; }
		break;
	case BUF_ICMPV4_HDR:
		if (p->proto == IPPROTO_ICMP && p->l4) {
			b->data = p->l4;
			b->len = icmpv4_hdr_len(p);
		}
		break;
	case BUF_ICMPV6_HDR:
		if (p->proto == IPPROTO_ICMPV6 && p->l4) { b->data = p->l4; b->len = p->l4_hlen; }
		break;
	case BUF_ETHER_HDR:
		/* the frame's own Ethernet header as captured (destination,
		 * source, type: a VLAN tag's 0x8100 there), as Suricata 8's
		 * ether.hdr; a tunnel's inner packet and other links have none */
		if ((p->flags & PKT_HAS_ETH) && !(p->flags & PKT_PSEUDO) && p->datalink == DLT_EN10MB &&
		    p->caplen >= 14) {
			b->data = p->data;
			b->len = 14;
		}
		break;
	case BUF_IP_SRC:
	case BUF_IP_DST: {
		/* the address in network order, as Suricata 8's ip.src/ip.dst
		 * (what ipv4 and ip datasets look up) */
		const Address *a = buf == BUF_IP_SRC ? &p->src : &p->dst;

		if (a->family == AF_INET || a->family == AF_INET6) {
			b->data = a->a.u8;
			b->len = a->family == AF_INET ? 4 : 16;
		}
		break;
	}
	}
	return b->data != NULL;
}

static int inspect_headers(DetectThread *dt, const Signature *s, const Packet *p)
{
	for (int l = BUF_IPV4_HDR; l <= BUF_HDR_LAST; l++) {
		const TransformChain *c;
		InspectBuffer b;

		if (!s->lists[l].n)
			continue;
		if (!hdr_buffer(p, l, &b))
			return 0;
		/* a chain the rule gave the buffer (luaxform on ip.src) */
		if ((c = sig_list_chain(s, l)) &&
		    transform_apply(c, dt->xs, b.data, b.len, &b.data, &b.len) != 0)
			return 0;
		if (!inspect_buffer(dt, s, l, &b))
			return 0;
	}
	return 1;
}

/* ---- one rule ---- */

int detect_inspect_sig(DetectThread *dt, const DetectPkt *pk, const DetectSig *ds,
		       const InspectBuffer *sb)
{
	const Signature *s = ds->s;
	Packet *p = pk->p;
	InspectBuffer b = { p->payload, p->payload_len, IBUF_PACKET };

	if (ds->iponly && !pk->iponly_ok)
		return 0;
	/* tcp-stream rules inspect only the reassembled stream */
	if ((s->flags & SIG_FLAG_TCP_STREAM) && !sb)
		return 0;
	if (ds->need_alproto &&
	    (!p->flow || !app_proto_equals(ds->s->alproto, flow_app_proto_shown(p->flow))))
		return 0;
	if (ds->has_payload && pk->no_payload)
		return 0;
	if (ds->has_payload) {
		/* A packet whose data went into the stream is inspected there;
		 * its payload alone by the packet rules, and by the stream rules
		 * that are packet rules too when the stream did not match on
		 * this packet (Suricata's fallback) */
		if (sb)
			b = *sb;
		else if (!ds->pkt_ok || (pk->streamed && !ds->pkt_streamed_ok) ||
			 (ds->stream_ok && dt->stream_hit[ds - dt->de->sigs] == dt->pkt_seq))
			return 0;
	}
	if (!inspect_header(ds, p))
		return 0;
	if (!inspect_match_list(dt, s, p))
		return 0;
	if (ds->has_hdr && !inspect_headers(dt, s, p))
		return 0;
	/* the device ran the whole payload list on this very payload and it
	 * held (prefilter.c gpu_packet_ids); a rule with replace needs the
	 * CPU's walk for where its contents matched */
	dt->nrepl = 0;
	if (ds->has_payload && !(sb == NULL && ds->gpu_verify == 2 && !s->nrepl &&
				 dt->vpass[ds - dt->de->sigs] == dt->pkt_seq)) {
		if (!inspect_buffer(dt, s, BUF_PAYLOAD, &b))
			return 0;
	}
	return 1;
}

int detect_inspect_sig_fw(DetectThread *dt, const DetectPkt *pk, const DetectSig *ds)
{
	const Signature *s = ds->s;
	Packet *p = pk->p;
	InspectBuffer b = { p->payload, p->payload_len, IBUF_PACKET };

	if (!inspect_header(ds, p) || !inspect_match_list(dt, s, p))
		return 0;
	if (ds->has_hdr && !inspect_headers(dt, s, p))
		return 0;
	dt->nrepl = 0;
	return !ds->has_payload || inspect_buffer(dt, s, BUF_PAYLOAD, &b);
}

/* replace (IPS): rule s matched the packet's own payload; its replace
 * bytes take the places inspect_content_step noted, and the packet leaves
 * with its L4 checksum made anew. A packet whose checksum cannot be
 * rewritten (a fragment, a tunnel's inner packet, a cut capture) keeps
 * its bytes; in IDS mode nothing is written, as in Suricata 8. */
static void replace_apply(DetectThread *dt, Packet *p)
{
	uint8_t *pl;
	int n = dt->nrepl;

	dt->nrepl = 0;
	if (!n || !dt->de->cfg.ips || !p->payload || p->payload < p->data ||
	    decode_l4_csum_rewrite(p) != 0)
		return;
	pl = p->data + (p->payload - p->data);
	for (int i = 0; i < n; i++) {
		const struct DetectReplaceAt *ra = &dt->repl[i];

		if ((uint64_t)ra->off + ra->r->len <= p->payload_len)
			memcpy(pl + ra->off, ra->r->bytes, ra->r->len);
	}
	decode_l4_csum_rewrite(p);
	p->flags |= PKT_MODIFIED;
}

/* Turns p around (addresses, ports, direction flags): stream data and
 * transactions of the other direction are inspected as if p went their way. */
void detect_pkt_swap(Packet *p)
{
	Address a = p->src;
	uint16_t port = p->sp;

	p->src = p->dst;
	p->dst = a;
	p->sp = p->dp;
	p->dp = port;
	if (p->flags & (PKT_TOSERVER | PKT_TOCLIENT))
		p->flags ^= PKT_TOSERVER | PKT_TOCLIENT;
}

/* flow:established as Suricata 8 sees it. TCP: the stream session's state
 * as it stood before this packet (the flow engine reads it before the stream
 * engine runs), so the packet that completes the 3-way handshake or picks a
 * session up midstream is not yet established; a TCP flow the stream has no
 * session for (midstream pickup off and no handshake, no room for one) never
 * is, whatever both sides sent: an ACK+PSH answered by a RST is not a
 * session. Other protocols: once both sides have sent. */
static int flow_established(const Packet *p)
{
	const Flow *f = p->flow;

	if (f->proto != IPPROTO_TCP)
		return f->pkts_toserver && f->pkts_toclient;
	return (p->stream_flags & STREAM_PKT_ESTABLISHED) &&
	       (p->stream_flags & STREAM_PKT_WAS_ESTABLISHED);
}

void detect_stream_hit_next(DetectThread *dt)
{
	if (++dt->pkt_seq == 0) {
		memset(dt->stream_hit, 0, (dt->de->nsigs + dt->de->nfw) * sizeof(*dt->stream_hit));
		memset(dt->vpass, 0, (dt->de->nsigs + dt->de->nfw) * sizeof(*dt->vpass));
		dt->pkt_seq = 1;
	}
}

/* ---- the steps of detect_packet ---- */

/* Sets up pk for p and the thread for a new packet. 0: nothing to inspect
 * (no rules, or the flow was passed). */
static int pkt_begin(DetectThread *dt, DetectPkt *pk, Packet *p, const DetectAlert **alerts)
{
	dt->nalerts = 0;
	*alerts = dt->alerts;
	dt->pkt_tagged = 0;
	dt->has_drop = 0;
	dt->pkt_pass = 0;
	dt->pass_num = UINT32_MAX;
	dt->pkt_reject = 0;
	dt->fw_ran = dt->fw_drop = dt->fw_drop_flow = 0;
	dt->fw_reason = 0;
	/* firewall mode: a flow TD passed still meets the firewall (Suricata
	 * 8: pass rules do not affect firewall rules) */
	if (!detect_engine_firewall(dt->de) &&
	    (!dt->de->nsigs || detect_flow_passed(p)))
		return 0;
	memset(pk, 0, sizeof(*pk));
	pk->p = p;
	pk->pc = proto_class(p);
	pk->dir = (p->flags & PKT_TOCLIENT) ? 1 : 0;
	pk->g = pkt_group(dt->de, pk->pc, pk->dir, p);
	pk->iponly_ok = 1;
	pk->src = prefilter_select(dt, p);
	pk->gpu = dt->gpu_src;
	dt->pkt = pk;
	detect_stream_hit_next(dt);
	return 1;
}

/* SSH after NEWKEYS, TLS after its first application data: ciphertext,
 * not inspected (Suricata's no-inspection-payload). As in Suricata a
 * packet is inspected as its flow stood before its own data was parsed:
 * the one whose data ended the cleartext still is (TLS: with the rest of
 * its direction's raw stream, at once, as Suricata's last raw flush), the
 * packets after it are not. */
static void pkt_no_inspection(DetectPkt *pk)
{
	Flow *f = pk->p->flow;

	if (!f || !f->alstate || !app_layer_flow_no_inspection(f))
		return;
	pk->no_payload = !pk->fs || pk->fs->payload_off;
	if (pk->fs && !pk->fs->payload_off) {
		pk->fs->payload_off = 1;
		pk->raw_flush = app_layer_flow_no_inspection_flush(f);
	}
}

/* The flow's view of the packet: its detect state, ip-only done,
 * flow:established, whether its payload went into the stream. */
static void pkt_flow(DetectThread *dt, DetectPkt *pk)
{
	const DetectEngine *de = dt->de;
	Packet *p = pk->p;

	if (p->flow) {
		/* UDP flows with transactions (DNS) need it for those too */
		if (p->flow->proto == IPPROTO_TCP || de->have_iponly ||
		    (de->ntx_rules && app_layer_has_txs(p->flow)))
			pk->fs = detect_flow_state(de, p->flow, 1);
		if (pk->fs && (pk->fs->iponly_done & (1u << pk->dir)))
			pk->iponly_ok = 0;
		pk->established = flow_established(p);
	}
	/* retransmissions too: their bytes were inspected as stream data */
	pk->streamed = p->flow && de->uses_stream && p->payload_len &&
		       (p->stream_flags & STREAM_PKT_ADDED) &&
		       !(p->stream_flags & (STREAM_PKT_INVALID | STREAM_PKT_DEPTH_REACHED)) &&
		       !(p->tcp_flags & TH_RST);
	pkt_no_inspection(pk);
}

/* IDS: the stream data of p's direction that became ready, first, so that
 * a rule that matched there skips the packet's payload (ac-cuda: after
 * the body ids are taken, as the stream is pruned). Inline mode inspects
 * the packet's window in the rule walk instead. */
static void pkt_stream(DetectThread *dt, DetectPkt *pk)
{
	const DetectEngine *de = dt->de;
	Packet *p = pk->p;

	if (pk->src->stream_added && pk->fs && (p->stream_flags & STREAM_PKT_ADDED) &&
	    !de->cfg.stream_inline)
		pk->src->stream_added(dt, pk);
	/* TCP packets only: an ICMP error joined to a TCP flow (flow.h) is
	 * inspected as itself, not as the flow's stream */
	pk->ids_stream = p->proto == IPPROTO_TCP && pk->fs && p->flow->stream &&
			 de->uses_stream && !de->cfg.stream_inline && !pk->no_payload;
	if (pk->fs)
		pk->fs->raw_tx[pk->dir] = pk->fs->raw_off[pk->dir];
	if (!pk->ids_stream)
		return;
	if (pk->src->tx_harvest)
		pk->src->tx_harvest(dt, pk);
	detect_stream_inspect(dt, pk, pk->raw_flush);
}

/* The payload's candidates: the group's patterns found in it, from the
 * packet's source. Inline, the window holds the payload: one CPU pass
 * with the whole group serves the packet rules and the stream rules. */
static void pkt_prefilter(DetectThread *dt, DetectPkt *pk)
{
	const Packet *p = pk->p;
	const SigGroup *mg;
	const uint8_t *data = p->payload;
	uint32_t len = p->payload_len;

	if (pk->streamed && dt->de->cfg.stream_inline && p->flow->stream) {
		detect_inline_window(dt, pk);
		mg = pk->g;
		data = pk->win.data;
		len = pk->win.len;
	} else {
		mg = prefilter_packet_group(dt->de, pk);
	}
	if (pk->no_payload || !len || !mg->mpm || !dt->scratch_g[mg->sidx])
		return;
	if (pk->has_win)
		prefilter_cpu_payload(dt, pk, mg, data, len);
	else
		pk->src->packet_ids(dt, pk, mg, data, len);
}

/* The group's rules without a fast pattern that p's bits allow: gate 0,
 * then the gates of the flags the packet has. A rule whose addresses (or
 * port list) the bits cannot judge has its header tested here, by
 * inspect_header itself: a rule inspected on every packet is mostly one
 * for other hosts ($EXTERNAL_NET -> $HOME_NET seen the other way, a list
 * of a malware's servers), and the test costs the same here as in the
 * inspection it spares, less the candidate's mark, sort and walk. */
static void pkt_always(DetectThread *dt, const DetectPkt *pk)
{
	const DetectSig *sigs = dt->de->sigs;
	const SigGroup *g = pk->g;
	const Packet *p = pk->p;
	uint32_t have = precheck_packet_bits(p);

	for (uint32_t gates = always_gates_walked(p); gates; gates &= gates - 1) {
		uint32_t gate = (uint32_t)__builtin_ctz(gates);

		for (uint32_t i = g->always_at[gate]; i < g->always_at[gate + 1]; i++) {
			const SigPrecheck *c = &g->always[i];

			if ((c->iponly && !pk->iponly_ok) || !precheck_pass(c, have, p))
				continue;
			if (!precheck_header(c, &sigs[c->num], p))
				continue;
			cand_mark(&dt->cand, c->num);
		}
	}
}

/* Inline: a stream rule sees the window, in rule order with the packet
 * rules (flowbits); with no match there a packet rule too tries the
 * payload alone (its anchors are the packet's). 1: matched. */
static int inspect_inline(DetectThread *dt, DetectPkt *pk, const DetectSig *ds)
{
	int m;

	pk->in_stream = 1;
	m = detect_inspect_sig(dt, pk, ds, &pk->win);
	if (m) {
		pk->data = pk->win.data;
		pk->data_len = pk->win.len;
		pk->data_end = pk->win_end;
		detect_sig_matched_pkt(dt, pk, ds, pk->p);
		pk->data = NULL;
		pk->data_len = 0;
		pk->data_end = 0;
	}
	pk->in_stream = 0;
	if (!m && ds->pkt_streamed_ok && (m = detect_inspect_sig(dt, pk, ds, NULL))) {
		detect_sig_matched_pkt(dt, pk, ds, pk->p);
		if (ds->s->nrepl)
			replace_apply(dt, pk->p);
	}
	return m;
}

/* The candidates in rule order; a pass rule's match ends the walk (no
 * further rule may alert on this packet). */
static void pkt_inspect(DetectThread *dt, DetectPkt *pk)
{
	const DetectEngine *de = dt->de;
	CandSet *cs = &dt->cand;
	CandWalk it = { 0 };
	uint32_t num;

	if (!cs->nwords)
		return;
	cand_sort(cs);
	while (cand_next(cs, &it, &num)) {
		const DetectSig *ds = &de->sigs[num];

		dt->ninspect[INSPECT_PACKET]++;
		if (pk->has_win && ds->stream_ok) {
			if (!inspect_inline(dt, pk, ds))
				continue;
		} else {
			if (!detect_inspect_sig(dt, pk, ds, NULL))
				continue;
			detect_sig_matched_pkt(dt, pk, ds, pk->p);
			if (ds->s->nrepl)
				replace_apply(dt, pk->p);
		}
		if (ds->action == ALERT_ACTION_PASS)
			break;
	}
	cand_end(cs, &it);
}

/* After the packet's own rules: its flow's transactions and frames. */
static void pkt_flow_after(DetectThread *dt, DetectPkt *pk)
{
	const DetectEngine *de = dt->de;
	Packet *p = pk->p;
	DetectFlowState *fs = pk->fs;

	if (fs)
		fs->iponly_done |= (uint8_t)(1u << pk->dir);
	/* else taken before the stream pass */
	if (pk->src->tx_harvest && fs && !pk->ids_stream)
		pk->src->tx_harvest(dt, pk);
	if (fs && p->flow->stream && de->uses_stream && de->cfg.stream_inline)
		detect_inline_release(dt, p);
	if (fs && app_layer_has_txs(p->flow))
		tx_inspect_flow(dt, p, fs, 0);
	if (de->nframe && p->flow)
		detect_frames_inspect(dt, p, 0);
}

uint32_t detect_packet(DetectThread *dt, Packet *p, const DetectAlert **alerts)
{
	DetectPkt pk;

	if (!pkt_begin(dt, &pk, p, alerts))
		return 0;
	pkt_flow(dt, &pk);
	/* the firewall first: TD sees only what it accepted */
	if (detect_engine_firewall(dt->de) &&
	    (!fw_packet(dt, &pk) || !dt->de->nsigs || dt->pkt_pass || detect_flow_passed(p))) {
		dt->pkt = NULL;
		return detect_alerts_done(dt);
	}
	pkt_stream(dt, &pk);
	pkt_prefilter(dt, &pk);
	pkt_always(dt, &pk);
	pkt_inspect(dt, &pk);
	pkt_flow_after(dt, &pk);
	dt->pkt_tagged = tag_handle_packet(dt, p);
	dt->pkt = NULL;
	detect_inspect_counters_flush(dt);
	return detect_alerts_done(dt);
}

uint32_t detect_flow_flush(DetectThread *dt, Packet *p, const DetectAlert **alerts)
{
	const DetectEngine *de = dt->de;
	DetectPkt pk = { .p = p, .dir = (p->flags & PKT_TOCLIENT) ? 1 : 0 };
	uint32_t n;

	dt->nalerts = 0;
	*alerts = dt->alerts;
	dt->has_drop = 0;
	dt->pkt_pass = 0;
	dt->pass_num = UINT32_MAX;
	dt->pkt_reject = 0;
	if (!de->nsigs || !p->flow || detect_flow_passed(p))
		return 0;
	if (!(pk.fs = detect_flow_state(de, p->flow, 1)))
		return 0;
	pk.src = prefilter_select(dt, p);
	pk.gpu = dt->gpu_src;
	pk.established = flow_established(p);
	/* ciphertext the protocol gave up (SSH, TLS): its stream bytes not
	 * inspected yet stay so, as Suricata's raw reassembly stops there */
	pk.no_payload = p->flow->alstate && app_layer_flow_no_inspection(p->flow);
	dt->pkt = &pk;
	detect_stream_hit_next(dt);
	if (pk.src->tx_harvest)
		pk.src->tx_harvest(dt, &pk);
	pk.fs->raw_tx[pk.dir] = pk.fs->raw_off[pk.dir];
	/* inline: every byte was inspected with the packet that brought it */
	if (p->flow->stream && de->uses_stream && !de->cfg.stream_inline && !pk.no_payload)
		detect_stream_inspect(dt, &pk, 1);
	if (app_layer_has_txs(p->flow))
		tx_inspect_flow(dt, p, pk.fs, 1);
	if (de->nframe)
		detect_frames_inspect(dt, p, 1);
	n = detect_alerts_done(dt);
	dt->pkt = NULL;
	detect_inspect_counters_flush(dt);
	return n;
}
