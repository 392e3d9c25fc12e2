/* eve "drop" records: the packets an IPS (--simulate-ips) drops, as
 * Suricata 8's drop logger writes them: the packet's header and direction,
 * a "drop" object with the IP and L4 header fields and the reason, and,
 * with `alerts: yes`, the "alert" object of the rule that dropped it.
 * `flows: start` (the default) logs one drop a flow direction once the flow
 * is dropped, plus every drop a rule decided; `flows: all` every drop. */
#include "output/drop.h"
#include "output/output-private.h"
#include "output/alert.h"

#include <netinet/in.h>

static uint16_t be16(const uint8_t *b)
{
	return (uint16_t)(b[0] << 8 | b[1]);
}

static uint32_t be32(const uint8_t *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static void set_int(json_t *o, const char *key, json_int_t v)
{
	json_object_set_new_nocheck(o, key, json_integer(v));
}

static json_t *drop_object(const Packet *p)
{
	json_t *d = json_object();
	const uint8_t *ip = p->l3, *th = p->l4;

	if (!d)
		return NULL;
	if (p->ip_version == 4 && ip) {
		set_int(d, "len", be16(ip + 2));
		set_int(d, "tos", ip[1]);
		set_int(d, "ttl", ip[8]);
		set_int(d, "ipid", be16(ip + 4));
	} else if (p->ip_version == 6 && ip) {
		set_int(d, "len", be16(ip + 4));
		set_int(d, "tc", (ip[0] & 0x0f) << 4 | ip[1] >> 4);
		set_int(d, "hoplimit", ip[7]);
		set_int(d, "flowlbl", (json_int_t)((ip[1] & 0x0fu) << 16 | (uint32_t)ip[2] << 8 | ip[3]));
	}
	if (PKT_IS_TCP(p) && p->l4_hlen >= 20) {
		uint8_t fl = th[13];

		set_int(d, "tcpseq", be32(th + 4));
		set_int(d, "tcpack", be32(th + 8));
		set_int(d, "tcpwin", be16(th + 14));
		json_object_set_new_nocheck(d, "syn", json_boolean(fl & TH_SYN));
		json_object_set_new_nocheck(d, "ack", json_boolean(fl & TH_ACK));
		json_object_set_new_nocheck(d, "psh", json_boolean(fl & TH_PSH));
		json_object_set_new_nocheck(d, "rst", json_boolean(fl & TH_RST));
		json_object_set_new_nocheck(d, "urg", json_boolean(fl & TH_URG));
		json_object_set_new_nocheck(d, "fin", json_boolean(fl & TH_FIN));
		set_int(d, "tcpres", th[12] & 0x0f);   /* the 4 bits after the data offset */
		set_int(d, "tcpurgp", be16(th + 18));
	} else if (PKT_IS_UDP(p) && p->l4_hlen >= 8) {
		set_int(d, "udplen", be16(th + 4));
	} else if ((p->proto == IPPROTO_ICMP || p->proto == IPPROTO_ICMPV6) && th) {
		set_int(d, "icmp_id", p->icmp_id);
		set_int(d, "icmp_seq", p->icmp_seq);
	}
	if (p->drop_reason)
		json_object_set_new_nocheck(d, "reason", json_string_nocheck(
			pkt_drop_reason_name((enum pkt_drop_reason)p->drop_reason)));
	return d;
}

void output_drop(Outputs *o, const Packet *p, Flow *f, const AlertInfo *rule)
{
	unsigned dir_bit = (p->flags & PKT_TOCLIENT) ? 2u : 1u;
	json_t *rec, *d;

	if (!o || !p->drop_reason || !outputs_eve_enabled(o, "drop"))
		return;
	/* flows: start: once the flow is dropped, one record a direction;
	 * a drop a rule decided is logged anyway */
	if (!o->cfg.eve_drop_flows_all && f && (f->ep_flags & FLOW_EP_DROP) && !rule &&
	    (f->drop_logged & dir_bit))
		return;
	rec = eve_header(&p->ts, "drop", p, f);
	if (!rec)
		return;
	json_object_set_new_nocheck(rec, "pkt_src", json_string_nocheck(output_pkt_src(p)));
	if (f)
		json_object_set_new_nocheck(rec, "direction", json_string_nocheck(
			(p->flags & PKT_TOCLIENT) ? "to_client" : "to_server"));
	if ((d = drop_object(p)))
		json_object_set_new_nocheck(rec, "drop", d);
	if (rule && o->cfg.eve_drop_alerts) {
		json_t *al = output_alert_object(o, rule);

		if (al)
			json_object_set_new_nocheck(rec, "alert", al);
	}
	if (f && (f->ep_flags & FLOW_EP_DROP))
		f->drop_logged |= (uint8_t)dir_bit;
	eve_write(o, rec);
}
