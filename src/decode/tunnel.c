/* UDP encapsulations: VXLAN (RFC 7348) and Geneve (RFC 8926), on the ports of
 * decoder.vxlan / decoder.geneve. As in Suricata, the inner Ethernet header is
 * looked into and skipped: the tunnel packet starts at the inner IP (or VLAN)
 * header, so its datalink is DLT_RAW. */
#include "decode/decode-int.h"

#define VXLAN_HDR_LEN   8
#define GENEVE_HDR_LEN  8
#define ETH_HDR_LEN     14

#define GENEVE_PROTO_BRIDGE 0x6558

static int port_listed(const UdpTunnelConfig *t, uint16_t port)
{
	if (!t->enabled)
		return 0;
	for (unsigned i = 0; i < t->nports; i++)
		if (t->ports[i] == port)
			return 1;
	return 0;
}

/* The payload after an inner Ethernet header of type eth_type: IP or VLAN go
 * on as a tunnel packet, ARP is taken and left, anything else is an event. */
static int tunnel_ethertype(DecodeThread *dt, Packet *p, uint16_t eth_type, uint8_t src,
			    const uint8_t *pkt, uint32_t len, enum decode_event unknown)
{
	switch (eth_type) {
	case 0x0806: /* ARP */
		return 1;
	case 0x0800:
		decode_tunnel(dt, p, decode_ipv4, src, pkt, len);
		return 1;
	case 0x86dd:
		decode_tunnel(dt, p, decode_ipv6, src, pkt, len);
		return 1;
	case 0x8100:
	case 0x88a8:
		decode_tunnel(dt, p, decode_vlan_tunnel, src, pkt, len);
		return 1;
	default:
		decode_set_event(dt, p, unknown);
		return 1;
	}
}

/* 1 when the payload is VXLAN, 0 when it is not (left to the app layer). */
static int decode_vxlan(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	/* Suricata wants the I flag and room for an inner Ethernet header. */
	if (len < VXLAN_HDR_LEN + ETH_HDR_LEN || !(pkt[0] & 0x08))
		return 0;
	dc_inc(dt, dcnt.vxlan);
	return tunnel_ethertype(dt, p, rd16(pkt + VXLAN_HDR_LEN + 12), PKT_SRC_VXLAN,
				pkt + VXLAN_HDR_LEN + ETH_HDR_LEN,
				len - VXLAN_HDR_LEN - ETH_HDR_LEN, DEV_VXLAN_UNKNOWN_PAYLOAD_TYPE);
}

/* Geneve options are TLVs (class 2, type 1, length 1 in 4-byte words past the
 * 4-byte option header); they must fill the option area exactly. */
static int geneve_options_ok(const uint8_t *o, uint32_t len)
{
	uint32_t off = 0;

	while (off < len) {
		if (len - off < 4)
			return 0;
		off += 4 + (uint32_t)(o[off + 3] & 0x1f) * 4;
	}
	return off == len;
}

static int decode_geneve(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	uint32_t hlen;
	uint16_t proto, inner;

	if (len < GENEVE_HDR_LEN || (pkt[0] >> 6) != 0)
		return 0;
	hlen = GENEVE_HDR_LEN + (uint32_t)(pkt[0] & 0x3f) * 4;
	if (len < hlen || !geneve_options_ok(pkt + GENEVE_HDR_LEN, hlen - GENEVE_HDR_LEN))
		return 0;
	dc_inc(dt, dcnt.geneve);
	proto = rd16(pkt + 2);
	pkt += hlen;
	len -= hlen;
	switch (proto) {
	case GENEVE_PROTO_BRIDGE:
		if (len < ETH_HDR_LEN) {
			decode_set_event(dt, p, DEV_GENEVE_UNKNOWN_PAYLOAD_TYPE);
			return 1;
		}
		/* Unlike VXLAN, the inner packet keeps its Ethernet header (flow
		 * byte counts show it); ARP is left alone. */
		inner = rd16(pkt + 12);
		if (inner == 0x0800 || inner == 0x86dd || inner == 0x8100 || inner == 0x88a8)
			decode_tunnel(dt, p, decode_ethernet, PKT_SRC_GENEVE, pkt, len);
		else if (inner != 0x0806)
			decode_set_event(dt, p, DEV_GENEVE_UNKNOWN_PAYLOAD_TYPE);
		return 1;
	case 0x0800:
	case 0x86dd:
		return tunnel_ethertype(dt, p, proto, PKT_SRC_GENEVE, pkt, len,
					DEV_GENEVE_UNKNOWN_PAYLOAD_TYPE);
	default:
		decode_set_event(dt, p, DEV_GENEVE_UNKNOWN_PAYLOAD_TYPE);
		return 1;
	}
}

int decode_udp_tunnel(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	/* Suricata tries Geneve first, then VXLAN, both on the destination port. */
	if (port_listed(&dt->cfg.geneve, p->dp) && decode_geneve(dt, p, pkt, len))
		return 1;
	if (port_listed(&dt->cfg.vxlan, p->dp) && decode_vxlan(dt, p, pkt, len))
		return 1;
	return 0;
}
