/* eve "arp" records (Suricata 8's ARP logger, off unless eve-log lists
 * "- arp"): one per ARP packet the decoder read, Ethernet and IPv4 only
 * (decode/link.c leaves p->l3 at the header then):
 *   header (no tuple: ARP has no IP header), pkt_src,
 *   "arp": {hw_type, proto_type, opcode, src_mac, src_ip, dest_mac, dest_ip}
 * src is the sender, dest the target, as ARP names them. */
#include "output/logger-int.h"
#include "output/output-private.h"
#include "output/json-writer.h"

#include <arpa/inet.h>
#include <stdio.h>

static void write_mac(JsonWriter *w, const char *key, const uint8_t *m)
{
	char buf[18];

	snprintf(buf, sizeof(buf), "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3],
		 m[4], m[5]);
	jw_ascii(w, key, buf, 17);
}

static void write_ip(JsonWriter *w, const char *key, const uint8_t *a)
{
	char buf[INET_ADDRSTRLEN];

	inet_ntop(AF_INET, a, buf, sizeof(buf));
	jw_str(w, key, buf);
}

static void build_record(JsonWriter *w, void *ctx)
{
	const Packet *p = ctx;
	const uint8_t *a = p->l3;

	eve_header_write(w, &p->ts, "arp", p, NULL);
	jw_str(w, "pkt_src", output_pkt_src(p));
	jw_object(w, "arp");
	/* the decoder let Ethernet, IPv4, request and reply through only */
	jw_str(w, "hw_type", "ethernet");
	jw_str(w, "proto_type", "ipv4");
	jw_str(w, "opcode", a[7] == 1 ? "request" : "reply");
	write_mac(w, "src_mac", a + 8);
	write_ip(w, "src_ip", a + 14);
	write_mac(w, "dest_mac", a + 18);
	write_ip(w, "dest_ip", a + 24);
	jw_close(w);
}

static void arp_packet(OutputThread *ot, const OutputPacketCtx *pc)
{
	const Packet *p = pc->p;

	if (!ot->o->eve_arp || !(p->flags & PKT_ARP) || !p->l3)
		return;
	eve_write_built(ot->o, "arp", build_record, (void *)p);
}

const OutputLogger output_logger_arp = { "arp", arp_packet, NULL };
