/* eve "drop" records: the packets an IPS (--simulate-ips) drops, as
 * Suricata 8's drop logger writes them: the packet's header and direction,
 * a "drop" object with the IP and L4 header fields and the reason, and,
 * with `alerts: yes`, the "alert" object of the rule that dropped it.
 * `flows: start` (the default) logs one drop a flow direction once the flow
 * is dropped, plus every drop a rule decided, and of a packet without a
 * flow every drop; `flows: all` every drop. */
#include "output/drop.h"
#include "output/output-private.h"
#include "output/alert.h"
#include "output/json-writer.h"

#include <netinet/in.h>

static uint16_t be16(const uint8_t *b)
{
	return (uint16_t)(b[0] << 8 | b[1]);
}

static uint32_t be32(const uint8_t *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

void eve_tcp_flag_bools(JsonWriter *w, uint8_t fl)
{
	jw_bool(w, "syn", fl & TH_SYN);
	jw_bool(w, "ack", fl & TH_ACK);
	jw_bool(w, "psh", fl & TH_PSH);
	jw_bool(w, "rst", fl & TH_RST);
	jw_bool(w, "urg", fl & TH_URG);
	jw_bool(w, "fin", fl & TH_FIN);
}

static void write_drop_object(JsonWriter *w, const Packet *p)
{
	const uint8_t *ip = p->l3, *th = p->l4;

	jw_object(w, "drop");
	if (p->ip_version == 4 && ip) {
		jw_int(w, "len", be16(ip + 2));
		jw_int(w, "tos", ip[1]);
		jw_int(w, "ttl", ip[8]);
		jw_int(w, "ipid", be16(ip + 4));
	} else if (p->ip_version == 6 && ip) {
		jw_int(w, "len", be16(ip + 4));
		jw_int(w, "tc", (ip[0] & 0x0f) << 4 | ip[1] >> 4);
		jw_int(w, "hoplimit", ip[7]);
		jw_int(w, "flowlbl", (int64_t)((ip[1] & 0x0fu) << 16 | (uint32_t)ip[2] << 8 | ip[3]));
	}
	if (PKT_IS_TCP(p) && p->l4_hlen >= 20) {
		uint8_t fl = th[13];

		jw_int(w, "tcpseq", be32(th + 4));
		jw_int(w, "tcpack", be32(th + 8));
		jw_int(w, "tcpwin", be16(th + 14));
		eve_tcp_flag_bools(w, fl);
		jw_int(w, "tcpres", th[12] & 0x0f);   /* the 4 bits after the data offset */
		jw_int(w, "tcpurgp", be16(th + 18));
	} else if (PKT_IS_UDP(p) && p->l4_hlen >= 8) {
		jw_int(w, "udplen", be16(th + 4));
	} else if ((p->proto == IPPROTO_ICMP || p->proto == IPPROTO_ICMPV6) && th) {
		jw_int(w, "icmp_id", p->icmp_id);
		jw_int(w, "icmp_seq", p->icmp_seq);
	}
	if (p->drop_reason)
		jw_str_opt(w, "reason", pkt_drop_reason_name((enum pkt_drop_reason)p->drop_reason));
	jw_close(w);
}

struct drop_line {
	const Outputs *o;
	const Packet *p;
	const Flow *f;
	const AlertInfo *rule;
	const AlertVerdict *v;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct drop_line *l = ctx;
	const Packet *p = l->p;

	eve_header_write(w, &p->ts, "drop", p, l->f);
	jw_str(w, "pkt_src", output_pkt_src(p));
	if (l->f)
		jw_str(w, "direction", (p->flags & PKT_TOCLIENT) ? "to_client" : "to_server");
	write_drop_object(w, p);
	if (l->rule && l->o->cfg.eve_drop_alerts)
		output_alert_write(w, l->o, l->rule);
	if (l->o->cfg.eve_drop_verdict)
		output_verdict_write(w, p, l->v, 1);
}

/* A drop the firewall's rules or default policies decided (firewall mode)
 * is logged as a rule's is: each packet it drops. */
static int fw_decided(uint8_t r)
{
	return r == PKT_DROP_DEFAULT_PACKET_POLICY || r == PKT_DROP_DEFAULT_APP_POLICY ||
	       r == PKT_DROP_PRE_FLOW_HOOK || r == PKT_DROP_PRE_STREAM_HOOK;
}

void output_drop(Outputs *o, const Packet *p, Flow *f, const AlertInfo *rule,
		 const AlertVerdict *v)
{
	unsigned dir_bit = (p->flags & PKT_TOCLIENT) ? 2u : 1u;
	struct drop_line l = { o, p, f, rule, v };

	if (!o || !p->drop_reason || !outputs_eve_enabled(o, "drop"))
		return;
	/* flows: start (Suricata 8's default), for a packet of a flow: a
	 * drop a rule decided, and once the flow is dropped one record a
	 * direction; nothing else (a packet dropped alone by a stream error
	 * or a drop-packet policy is counted, not logged) */
	if (!o->cfg.eve_drop_flows_all && f && !rule && !fw_decided(p->drop_reason) &&
	    (!(f->ep_flags & FLOW_EP_DROP) || (f->drop_logged & dir_bit)))
		return;
	if (f && (f->ep_flags & FLOW_EP_DROP))
		f->drop_logged |= (uint8_t)dir_bit;
	eve_write_built(o, "drop", build_record, &l);
}
