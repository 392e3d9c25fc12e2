/* Decoder entry point: counters, per-thread state, datalink dispatch, events. */
#include "decode/decode-int.h"
#include "decode/defrag.h"
#include "flow/flow.h"

#include <pcap/dlt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct decode_counters dcnt;

/* LINKTYPE_RAW as written in pcap files; libpcap usually maps it to DLT_RAW. */

void decode_register_counters(void)
{
	static const struct {
		counter_id *id;
		const char *name;
	} tab[] = {
		{ &dcnt.pkts, "decoder.pkts" },
		{ &dcnt.bytes, "decoder.bytes" },
		{ &dcnt.invalid, "decoder.invalid" },
		{ &dcnt.ipv4, "decoder.ipv4" },
		{ &dcnt.ipv6, "decoder.ipv6" },
		{ &dcnt.ethernet, "decoder.ethernet" },
		{ &dcnt.arp, "decoder.arp" },
		{ &dcnt.unknown_ethertype, "decoder.unknown_ethertype" },
		{ &dcnt.chdlc, "decoder.chdlc" },
		{ &dcnt.raw, "decoder.raw" },
		{ &dcnt.null, "decoder.null" },
		{ &dcnt.sll, "decoder.sll" },
		{ &dcnt.sll2, "decoder.sll2" },
		{ &dcnt.tcp, "decoder.tcp" },
		{ &dcnt.udp, "decoder.udp" },
		{ &dcnt.sctp, "decoder.sctp" },
		{ &dcnt.esp, "decoder.esp" },
		{ &dcnt.icmpv4, "decoder.icmpv4" },
		{ &dcnt.icmpv6, "decoder.icmpv6" },
		{ &dcnt.ppp, "decoder.ppp" },
		{ &dcnt.pppoe, "decoder.pppoe" },
		{ &dcnt.geneve, "decoder.geneve" },
		{ &dcnt.gre, "decoder.gre" },
		{ &dcnt.vlan, "decoder.vlan" },
		{ &dcnt.vlan_qinq, "decoder.vlan_qinq" },
		{ &dcnt.vlan_qinqinq, "decoder.vlan_qinqinq" },
		{ &dcnt.vxlan, "decoder.vxlan" },
		{ &dcnt.vntag, "decoder.vntag" },
		{ &dcnt.ieee8021ah, "decoder.ieee8021ah" },
		{ &dcnt.teredo, "decoder.teredo" },
		{ &dcnt.ipv4_in_ipv4, "decoder.ipv4_in_ipv4" },
		{ &dcnt.ipv6_in_ipv4, "decoder.ipv6_in_ipv4" },
		{ &dcnt.ipv4_in_ipv6, "decoder.ipv4_in_ipv6" },
		{ &dcnt.ipv6_in_ipv6, "decoder.ipv6_in_ipv6" },
		{ &dcnt.mpls, "decoder.mpls" },
		{ &dcnt.avg_pkt_size, "decoder.avg_pkt_size" },
		{ &dcnt.max_pkt_size, "decoder.max_pkt_size" },
		{ &dcnt.max_mac_addrs_src, "decoder.max_mac_addrs_src" },
		{ &dcnt.max_mac_addrs_dst, "decoder.max_mac_addrs_dst" },
		{ &dcnt.erspan, "decoder.erspan" },
		{ &dcnt.nsh, "decoder.nsh" },
		{ &dcnt.too_many_layers, "decoder.too_many_layers" },
		{ &dcnt.df_v4_fragments, "defrag.ipv4.fragments" },
		{ &dcnt.df_v4_reassembled, "defrag.ipv4.reassembled" },
		{ &dcnt.df_v4_timeouts, "defrag.ipv4.timeouts" },
		{ &dcnt.df_v6_fragments, "defrag.ipv6.fragments" },
		{ &dcnt.df_v6_reassembled, "defrag.ipv6.reassembled" },
		{ &dcnt.df_v6_timeouts, "defrag.ipv6.timeouts" },
		{ &dcnt.df_max_frags_reached, "defrag.max_frags_reached" },
		{ &dcnt.df_max_trackers_reached, "defrag.max_trackers_reached" },
		{ &dcnt.df_memuse, "defrag.memuse" },
		{ &dcnt.df_mgr_tracker_timeout, "defrag.mgr.tracker_timeout" },
		{ &dcnt.df_wrk_tracker_timeout, "defrag.wrk.tracker_timeout" },
		{ &dcnt.df_tracker_hard_reuse, "defrag.tracker_hard_reuse" },
		{ &dcnt.df_tracker_soft_reuse, "defrag.tracker_soft_reuse" },
	};
	char name[128];

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		*tab[i].id = counter_register(tab[i].name);
	for (int ev = 1; ev < DEV_MAX; ev++) {
		snprintf(name, sizeof(name), "decoder.event.%s", decode_event_name(ev));
		dcnt.event[ev] = counter_register(name);
	}
}

DecodeThread *decode_thread_new(const DecodeConfig *cfg, ThreadCounters *tc,
				packet_get_fn get_packet, packet_put_fn put_packet, void *pool_arg)
{
	DecodeThread *dt = calloc(1, sizeof(*dt));

	if (!dt)
		return NULL;
	dt->cfg = *cfg;
	dt->tc = tc;
	dt->get_packet = get_packet;
	dt->put_packet = put_packet;
	dt->pool_arg = pool_arg;
	dt->defrag = defrag_new(&dt->cfg.defrag, dt);
	if (!dt->defrag) {
		free(dt);
		return NULL;
	}
	return dt;
}

void decode_thread_free(DecodeThread *dt)
{
	if (!dt)
		return;
	defrag_free(dt->defrag);
	free(dt);
}

int decode_datalink_supported(int datalink)
{
	switch (datalink) {
	case DLT_EN10MB:
	case DLT_LINUX_SLL:
	case DLT_LINUX_SLL2:
	case DLT_NULL:
	case DLT_LOOP:
	case 12: /* DLT_RAW on most systems */
	case 14: /* DLT_RAW on some BSDs */
	case LINKTYPE_RAW_FILE:
	case DLT_IPV4:
	case DLT_IPV6:
	case DLT_PPP:
	case DLT_C_HDLC:
		return 1;
	default:
		return 0;
	}
}

void decode_set_event(DecodeThread *dt, Packet *p, enum decode_event ev)
{
	dc_inc(dt, dcnt.event[ev]);
	/* an event raised twice is kept twice, as Suricata 8 keeps it: each
	 * gets its anomaly record (two bad IPv4 options: two opt_invalid_len) */
	if (p->nevents < PKT_EVENTS_MAX)
		p->events[p->nevents++] = (uint16_t)ev;
}

int decode_invalid(DecodeThread *dt, Packet *p, enum decode_event ev)
{
	decode_set_event(dt, p, ev);
	p->flags |= PKT_INVALID;
	return -1;
}

int decode_layer_enter(DecodeThread *dt, Packet *p)
{
	if (++dt->layers <= DECODE_MAX_LAYERS)
		return 0;
	/* Counted once per packet: the first refusal ends decoding. */
	if (!(p->flags & PKT_INVALID))
		dc_inc(dt, dcnt.too_many_layers);
	p->flags |= PKT_INVALID;
	return -1;
}

/* Link layer dispatch on the capture's datalink type. */
static void decode_link(DecodeThread *dt, Packet *p)
{
	const uint8_t *pkt = p->data;
	uint32_t len = p->caplen;

	switch (p->datalink) {
	case DLT_EN10MB:
		decode_ethernet(dt, p, pkt, len);
		break;
	case DLT_LINUX_SLL:
		decode_sll(dt, p, pkt, len);
		break;
	case DLT_LINUX_SLL2:
		decode_sll2(dt, p, pkt, len);
		break;
	case DLT_NULL:
	case DLT_LOOP:
		decode_null(dt, p, pkt, len);
		break;
	case 12:
	case 14:
	case LINKTYPE_RAW_FILE:
	case DLT_IPV4:
	case DLT_IPV6:
		decode_raw(dt, p, pkt, len);
		break;
	case DLT_PPP:
		decode_ppp(dt, p, pkt, len);
		break;
	case DLT_C_HDLC:
		decode_chdlc(dt, p, pkt, len);
		break;
	default:
		/* A link type we do not decode (802.11, radiotap, ...): the packet is
		 * counted (decoder.pkts, decoder.invalid) and goes no further. */
		p->flags |= PKT_INVALID;
		break;
	}
}

static void decode_finish(DecodeThread *dt, Packet *p)
{
	if (p->flags & PKT_INVALID)
		dc_inc(dt, dcnt.invalid);
	if (p->ip_version)
		p->flow_hash = flow_hash_packet(p);
}

void decode_packet(DecodeThread *dt, Packet *p)
{
	uint64_t pkts, bytes;

	if (p->caplen > PACKET_DATA_MAX)
		p->caplen = PACKET_DATA_MAX;
	dc_inc(dt, dcnt.pkts);
	counter_add(dt->tc, dcnt.bytes, p->caplen);
	if (p->caplen > counter_get(dt->tc, dcnt.max_pkt_size))
		counter_set(dt->tc, dcnt.max_pkt_size, p->caplen);
	pkts = counter_get(dt->tc, dcnt.pkts);
	bytes = counter_get(dt->tc, dcnt.bytes);
	counter_set(dt->tc, dcnt.avg_pkt_size, bytes / pkts);

	dt->layers = 0;
	dt->in_pseudo = 0;
	decode_link(dt, p);
	decode_finish(dt, p);
}

static void tunnel_root(Packet *q, const Packet *p)
{
	if (p->recursion_level) {
		q->root = p->root;
		return;
	}
	q->root.src = p->src;
	q->root.dst = p->dst;
	q->root.sp = p->sp;
	q->root.dp = p->dp;
	q->root.proto = p->proto;
	q->root.ip_version = p->ip_version;
	q->root.pcap_cnt = p->pcap_cnt;
}

int decode_tunnel(DecodeThread *dt, Packet *p, decode_layer_fn fn, uint8_t pkt_src,
		  const uint8_t *pkt, uint32_t len)
{
	Packet *q;

	if (p->pseudo || !dt->get_packet || len > PACKET_DATA_MAX || p->recursion_level == 0xff ||
	    (q = dt->get_packet(dt->pool_arg)) == NULL) {
		/* p becomes the inner packet: it takes the flow the inner one would have. */
		p->flags = (p->flags | PKT_TUNNEL) & ~PKT_NO_FLOW;
		return fn(dt, p, pkt, len) < 0 ? -1 : 0;
	}
	packet_reset(q);
	memcpy(q->data, pkt, len);
	q->caplen = q->wirelen = len;
	q->ts = p->ts;
	q->pcap_cnt = p->pcap_cnt;
	q->in_iface = p->in_iface;
	q->datalink = DLT_RAW;
	q->flags = PKT_PSEUDO | PKT_TUNNEL;
	q->pkt_src = pkt_src;
	q->recursion_level = (uint8_t)(p->recursion_level + 1);
	q->flow_level = dt->cfg.recursion_for_tracking ? q->recursion_level : 0;
	tunnel_root(q, p);
	/* Suricata's inner packets keep the carrier's vlan ids. */
	memcpy(q->vlan_id, p->vlan_id, sizeof(q->vlan_id));
	q->vlan_count = p->vlan_count;
	q->key_vlans = p->key_vlans;
	/* The inner packet continues the outer packet's layer count: the layer
	 * limit bounds nesting across pseudo packets too. */
	fn(dt, q, q->data, len);
	decode_finish(dt, q);
	p->pseudo = q;
	return 1;
}

void decode_pseudo(DecodeThread *dt, Packet *q, uint32_t ip_off)
{
	int saved_layers = dt->layers, saved_pseudo = dt->in_pseudo;

	dt->layers = 0;
	dt->in_pseudo = 1;
	decode_raw(dt, q, q->data + ip_off, q->caplen - ip_off);
	decode_finish(dt, q);
	dt->layers = saved_layers;
	dt->in_pseudo = saved_pseudo;
}
