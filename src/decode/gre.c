/* GRE: version 0 (RFC 1701/2784/2890: checksum, key, sequence, source routes)
 * and version 1 (PPTP enhanced GRE, RFC 2637, carrying PPP). */
#include "decode/decode-int.h"

#define GRE_HDR_LEN   4
#define GRE_F_CSUM    0x8000
#define GRE_F_ROUTE   0x4000
#define GRE_F_KEY     0x2000
#define GRE_F_SEQ     0x1000
#define GRE_F_SSR     0x0800
#define GRE_F_RECUR   0x0700
#define GRE_F_ACK     0x0080     /* version 1 only */
#define GRE_F_V0RES   0x00f8
#define GRE_F_V1RES   0x0078
#define GRE_VERSION   0x0007

#define GRE_PROTO_PPP 0x880b
#define GRE_PROTO_TEB 0x6558     /* transparent ethernet bridging */
#define GRE_PROTO_ERSPAN2 0x88be
#define GRE_PROTO_ERSPAN3 0x22eb
#define ERSPAN2_HDR_LEN 8

/* Source route entries (RFC 1701): family(2) offset(1) length(1) data,
 * ending with a NULL entry (family 0, length 0). Returns the bytes they take or
 * -1 when they run past the packet. */
static int gre_skip_sre(const uint8_t *b, uint32_t len)
{
	uint32_t off = 0;

	for (;;) {
		uint8_t slen;

		if (off + 4 > len)
			return -1;
		slen = b[off + 3];
		if (rd16(b + off) == 0 && slen == 0)
			return (int)(off + 4);
		off += 4 + slen;
		if (off > len)
			return -1;
	}
}

static int decode_gre_v0_hdr(DecodeThread *dt, Packet *p, uint16_t flags, const uint8_t *pkt,
			     uint32_t len, uint32_t *hlen)
{
	uint32_t h = GRE_HDR_LEN;

	if (flags & GRE_F_RECUR)
		return decode_invalid(dt, p, DEV_GRE_VERSION0_RECUR);
	if (flags & GRE_F_V0RES)
		return decode_invalid(dt, p, DEV_GRE_VERSION0_FLAGS);
	/* The checksum/offset word is present when either C or R is set. */
	if (flags & (GRE_F_CSUM | GRE_F_ROUTE))
		h += 4;
	if (flags & GRE_F_KEY)
		h += 4;
	if (flags & GRE_F_SEQ)
		h += 4;
	if (h > len)
		return decode_invalid(dt, p, DEV_GRE_VERSION0_HDR_TOO_BIG);
	if (flags & GRE_F_ROUTE) {
		int sre = gre_skip_sre(pkt + h, len - h);

		if (sre < 0)
			return decode_invalid(dt, p, DEV_GRE_VERSION0_MALFORMED_SRE_HDR);
		h += (uint32_t)sre;
	}
	*hlen = h;
	return 0;
}

static int decode_gre_v1_hdr(DecodeThread *dt, Packet *p, uint16_t flags, uint16_t proto,
			     uint32_t len, uint32_t *hlen)
{
	uint32_t h = GRE_HDR_LEN + 4; /* key: payload length + call id */

	if (flags & GRE_F_CSUM)
		return decode_invalid(dt, p, DEV_GRE_VERSION1_CHKSUM);
	if (flags & GRE_F_ROUTE)
		return decode_invalid(dt, p, DEV_GRE_VERSION1_ROUTE);
	if (flags & GRE_F_SSR)
		return decode_invalid(dt, p, DEV_GRE_VERSION1_SSR);
	if (flags & GRE_F_RECUR)
		return decode_invalid(dt, p, DEV_GRE_VERSION1_RECUR);
	if (flags & GRE_F_V1RES)
		return decode_invalid(dt, p, DEV_GRE_VERSION1_FLAGS);
	if (proto != GRE_PROTO_PPP)
		return decode_invalid(dt, p, DEV_GRE_VERSION1_WRONG_PROTOCOL);
	if (!(flags & GRE_F_KEY))
		return decode_invalid(dt, p, DEV_GRE_VERSION1_NO_KEY);
	if (flags & GRE_F_SEQ)
		h += 4;
	if (flags & GRE_F_ACK)
		h += 4;
	if (h > len)
		return decode_invalid(dt, p, DEV_GRE_VERSION1_HDR_TOO_BIG);
	*hlen = h;
	return 0;
}

/* PPP inside PPTP GRE: address/control may be present or compressed away. */
static int decode_gre_ppp(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	dc_inc(dt, dcnt.ppp);
	if (len >= 2 && pkt[0] == 0xff && pkt[1] == 0x03) {
		pkt += 2;
		len -= 2;
	}
	if (len == 0)
		return 0; /* an ack-only PPTP GRE packet carries no PPP frame */
	if (pkt[0] & 1)
		return decode_ppp_proto(dt, p, pkt[0], pkt + 1, len - 1);
	if (len < 2)
		return decode_invalid(dt, p, DEV_PPP_PKT_TOO_SMALL);
	return decode_ppp_proto(dt, p, rd16(pkt), pkt + 2, len - 2);
}

/* ERSPAN type I: no header of its own, the mirrored Ethernet frame follows GRE. */
static int decode_erspan1(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	dc_inc(dt, dcnt.erspan);
	return decode_ethernet(dt, p, pkt, len);
}

/* ERSPAN type II: 8 bytes (version 1, the mirrored port's vlan, session) then
 * the Ethernet frame. A vlan id counts as one of the packet's vlan layers. */
static int decode_erspan2(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	uint16_t vlan;

	dc_inc(dt, dcnt.erspan);
	if (len < ERSPAN2_HDR_LEN)
		return decode_invalid(dt, p, DEV_ERSPAN_HEADER_TOO_SMALL);
	if ((pkt[0] >> 4) != 1)
		return decode_invalid(dt, p, DEV_ERSPAN_UNSUPPORTED_VERSION);
	vlan = rd16(pkt) & 0x0fff;
	if (vlan) {
		if (p->vlan_count >= 2)
			return decode_invalid(dt, p, DEV_ERSPAN_TOO_MANY_VLAN_LAYERS);
		p->vlan_id[p->vlan_count++] = vlan;
		if (dt->cfg.vlan_for_tracking)
			p->key_vlans = p->vlan_count;
	}
	return decode_ethernet(dt, p, pkt + ERSPAN2_HDR_LEN, len - ERSPAN2_HDR_LEN);
}

int decode_gre(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	uint16_t flags, proto;
	uint32_t hlen = 0;
	int r;

	if (decode_layer_enter(dt, p) < 0)
		return -1;
	dc_inc(dt, dcnt.gre);
	if (len < GRE_HDR_LEN)
		return decode_invalid(dt, p, DEV_GRE_PKT_TOO_SMALL);
	flags = rd16(pkt);
	proto = rd16(pkt + 2);
	switch (flags & GRE_VERSION) {
	case 0:
		r = decode_gre_v0_hdr(dt, p, flags, pkt, len, &hlen);
		break;
	case 1:
		r = decode_gre_v1_hdr(dt, p, flags, proto, len, &hlen);
		break;
	default:
		return decode_invalid(dt, p, DEV_GRE_WRONG_VERSION);
	}
	if (r < 0)
		return r;
	pkt += hlen;
	len -= hlen;

	switch (proto) {
	case 0x0800:
		r = decode_tunnel(dt, p, decode_ipv4, PKT_SRC_GRE_TUNNEL, pkt, len);
		break;
	case 0x86dd:
		r = decode_tunnel(dt, p, decode_ipv6, PKT_SRC_GRE_TUNNEL, pkt, len);
		break;
	case GRE_PROTO_TEB:
		r = decode_tunnel(dt, p, decode_ethernet, PKT_SRC_GRE_TUNNEL, pkt, len);
		break;
	case GRE_PROTO_PPP:
		r = decode_tunnel(dt, p, decode_gre_ppp, PKT_SRC_GRE_TUNNEL, pkt, len);
		break;
	case GRE_PROTO_ERSPAN2:
		/* Suricata tells the types apart by the sequence flag: type II
		 * always carries one, type I never does. */
		r = decode_tunnel(dt, p, (flags & GRE_F_SEQ) ? decode_erspan2 : decode_erspan1,
				  PKT_SRC_GRE_TUNNEL, pkt, len);
		break;
	case 0x8847:
	case 0x8848:
	case 0x8100:
	case 0x88a8:
		p->flags |= PKT_TUNNEL;
		r = decode_ethertype(dt, p, proto, pkt, len);
		return r < 0 ? -1 : 0;
	case GRE_PROTO_ERSPAN3:
		/* Counted, not decoded. */
		dc_inc(dt, dcnt.erspan);
		return 0;
	default:
		return 0;
	}
	/* Suricata gives a GRE carrier no flow: only the packet it carries has one. */
	if (r == 1)
		p->flags |= PKT_NO_FLOW;
	return r < 0 ? -1 : 0;
}
