/* Link layers: Ethernet, VLAN (802.1Q/802.1ad/QinQ), 802.1ah, VN-Tag, ARP,
 * PPPoE, PPP, Cisco HDLC, MPLS, Linux cooked (SLL, SLL2), BSD loopback
 * (NULL/LOOP), raw IP. */
#include "decode/decode-int.h"

#define ETH_HDR_LEN        14
#define VLAN_HDR_LEN       4
#define IEEE8021AH_HDR_LEN 18
#define VNTAG_HDR_LEN      6
#define SLL_HDR_LEN        16
#define CHDLC_HDR_LEN      4
#define SLL2_HDR_LEN       20
#define NULL_HDR_LEN       4
#define PPPOE_HDR_LEN      6
#define MPLS_ENTRY_LEN     4
#define ARP_HDR_LEN        8      /* the fixed part: types, sizes, opcode */
#define ARP_ETH_IPV4_LEN   28     /* and Ethernet and IPv4 addresses */

enum {
	ETHERTYPE_IPV4 = 0x0800,
	ETHERTYPE_ARP = 0x0806,
	ETHERTYPE_VLAN = 0x8100,
	ETHERTYPE_QINQ = 0x88a8,
	ETHERTYPE_QINQ_OLD = 0x9100,
	ETHERTYPE_IPV6 = 0x86dd,
	ETHERTYPE_PPPOE_DISC = 0x8863,
	ETHERTYPE_PPPOE_SESS = 0x8864,
	ETHERTYPE_MPLS_UC = 0x8847,
	ETHERTYPE_MPLS_MC = 0x8848,
	ETHERTYPE_8021AH = 0x88e7,
	ETHERTYPE_VNTAG = 0x8926,
	ETHERTYPE_NSH = 0x894f,
	ETHERTYPE_DCE = 0x8903,
};

#define DCE_HDR_LEN   2          /* Cisco FabricPath: FTAG and TTL, then Ethernet */
#define NSH_HDR_LEN   8          /* base header and service path header */

/* decode_ethertype() result for a type we do not know: the caller may want
 * to raise its own event (vlan.unknown_type). */
#define DECODE_UNKNOWN 1

/* Picks IPv4 or IPv6 from the version nibble; raw captures carry no type. */
static int decode_ip_by_version(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	if (len == 0)
		return decode_invalid(dt, p, DEV_IPRAW_INVALID_IP_VERSION);
	switch (pkt[0] >> 4) {
	case 4:
		return decode_ipv4(dt, p, pkt, len);
	case 6:
		return decode_ipv6(dt, p, pkt, len);
	default:
		return decode_invalid(dt, p, DEV_IPRAW_INVALID_IP_VERSION);
	}
}

int decode_raw(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	/* Reassembled datagrams are re-decoded as raw IP but are not captures. */
	if (!dt->in_pseudo)
		dc_inc(dt, dcnt.raw);
	return decode_ip_by_version(dt, p, pkt, len);
}

static int decode_vlan(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	static const counter_id *const level[3] = {
		&dcnt.vlan, &dcnt.vlan_qinq, &dcnt.vlan_qinqinq,
	};
	int r;

	if (len < VLAN_HDR_LEN)
		return decode_invalid(dt, p, DEV_VLAN_HEADER_TOO_SMALL);
	if (p->vlan_count >= 3)
		return decode_invalid(dt, p, DEV_VLAN_TOO_MANY_LAYERS);
	dc_inc(dt, *level[p->vlan_count]);
	p->vlan_id[p->vlan_count++] = rd16(pkt) & 0x0fff;
	if (dt->cfg.vlan_for_tracking)
		p->key_vlans = p->vlan_count;
	r = decode_ethertype(dt, p, rd16(pkt + 2), pkt + VLAN_HDR_LEN, len - VLAN_HDR_LEN);
	if (r == DECODE_UNKNOWN)
		return decode_invalid(dt, p, DEV_VLAN_UNKNOWN_TYPE);
	return r;
}

int decode_vlan_tunnel(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	return decode_vlan(dt, p, pkt, len) < 0 ? -1 : 0;
}

/* 802.1ah (PBB): a 4-byte I-TAG then the customer's MAC header. */
static int decode_8021ah(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	dc_inc(dt, dcnt.ieee8021ah);
	if (len < IEEE8021AH_HDR_LEN)
		return decode_invalid(dt, p, DEV_IEEE8021AH_HEADER_TOO_SMALL);
	return decode_ethertype(dt, p, rd16(pkt + 16), pkt + IEEE8021AH_HDR_LEN,
				len - IEEE8021AH_HDR_LEN) < 0 ? -1 : 0;
}

/* Cisco VN-Tag: 4 bytes of tag then the next ethertype. */
static int decode_vntag(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	int r;

	dc_inc(dt, dcnt.vntag);
	if (len < VNTAG_HDR_LEN)
		return decode_invalid(dt, p, DEV_VNTAG_HEADER_TOO_SMALL);
	r = decode_ethertype(dt, p, rd16(pkt + 4), pkt + VNTAG_HDR_LEN, len - VNTAG_HDR_LEN);
	if (r == DECODE_UNKNOWN)
		return decode_invalid(dt, p, DEV_VNTAG_UNKNOWN_TYPE);
	return r;
}

/* ARP as Suricata 8 decodes it for its eve "arp" records: Ethernet
 * hardware and IPv4 addresses only. Another hardware or protocol type, or
 * an opcode other than request and reply, is valid ARP the decoder does
 * not support (an event, the packet stays valid); sizes that contradict
 * the types make it invalid. A packet whose addresses were read has p->l3
 * at the ARP header (the logger's). Bytes past the 28 (padding) are fine. */
static int decode_arp(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	uint16_t op;

	dc_inc(dt, dcnt.arp);
	p->flags |= PKT_ARP;
	if (len < ARP_HDR_LEN)
		return decode_invalid(dt, p, DEV_ARP_PKT_TOO_SMALL);
	if (rd16(pkt) != 1) {
		decode_set_event(dt, p, DEV_ARP_UNSUPPORTED_HARDWARE);
		return 0;
	}
	if (rd16(pkt + 2) != ETHERTYPE_IPV4) {
		decode_set_event(dt, p, DEV_ARP_UNSUPPORTED_PROTOCOL);
		return 0;
	}
	if (pkt[4] != 6)
		return decode_invalid(dt, p, DEV_ARP_INVALID_HARDWARE_SIZE);
	if (pkt[5] != 4)
		return decode_invalid(dt, p, DEV_ARP_INVALID_PROTOCOL_SIZE);
	if (len < ARP_ETH_IPV4_LEN)
		return decode_invalid(dt, p, DEV_ARP_INVALID_PKT);
	op = rd16(pkt + 6);
	if (op != 1 && op != 2) {
		decode_set_event(dt, p, DEV_ARP_UNSUPPORTED_OPCODE);
		return 0;
	}
	p->l3 = pkt;
	p->l3_hlen = ARP_ETH_IPV4_LEN;
	return 0;
}

/* PPP protocol numbers of control protocols: valid PPP, nothing to inspect. */
static int ppp_is_control(uint16_t proto)
{
	switch (proto) {
	case 0xc021: /* LCP */
	case 0xc023: /* PAP */
	case 0xc025: /* LQR */
	case 0xc223: /* CHAP */
	case 0xc227: /* EAP */
	case 0x8021: /* IPCP */
	case 0x8057: /* IPV6CP */
	case 0x80fd: /* CCP */
	case 0x80fb: /* compression on single link */
	case 0x8207: /* CDPCP */
	case 0x8281: /* MPLSCP */
	case 0x00fd: /* compressed datagram */
	case 0x00fb:
	case 0x003d: /* multilink */
		return 1;
	default:
		return 0;
	}
}

int decode_ppp_proto(DecodeThread *dt, Packet *p, uint16_t proto, const uint8_t *pkt,
		     uint32_t len)
{
	switch (proto) {
	case 0x0021: /* IPv4 */
		if (len < 20)
			return decode_invalid(dt, p, DEV_PPP_IP4_PKT_TOO_SMALL);
		if ((pkt[0] >> 4) != 4)
			return decode_invalid(dt, p, DEV_PPP_WRONG_TYPE);
		return decode_ipv4(dt, p, pkt, len);
	case 0x0057: /* IPv6 */
		if (len < 40)
			return decode_invalid(dt, p, DEV_PPP_IP6_PKT_TOO_SMALL);
		if ((pkt[0] >> 4) != 6)
			return decode_invalid(dt, p, DEV_PPP_WRONG_TYPE);
		return decode_ipv6(dt, p, pkt, len);
	case 0x002d: /* Van Jacobson compressed TCP/IP: not decoded */
	case 0x002f:
		if (len < 20)
			return decode_invalid(dt, p, DEV_PPP_VJU_PKT_TOO_SMALL);
		return 0;
	default:
		if (ppp_is_control(proto))
			return 0;
		return decode_invalid(dt, p, DEV_PPP_UNSUP_PROTO);
	}
}

/* DLT_PPP: optional HDLC address/control (ff 03), then the protocol. */
int decode_ppp(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	if (decode_layer_enter(dt, p) < 0)
		return -1;
	dc_inc(dt, dcnt.ppp);
	if (len >= 2 && pkt[0] == 0xff && pkt[1] == 0x03) {
		pkt += 2;
		len -= 2;
	}
	if (len < 2)
		return decode_invalid(dt, p, DEV_PPP_PKT_TOO_SMALL);
	/* Protocol-field compression: an odd first byte is a 1-byte protocol. */
	if (pkt[0] & 1)
		return decode_ppp_proto(dt, p, pkt[0], pkt + 1, len - 1);
	return decode_ppp_proto(dt, p, rd16(pkt), pkt + 2, len - 2);
}

static int decode_pppoe_session(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	uint16_t plen;

	dc_inc(dt, dcnt.pppoe);
	if (len < PPPOE_HDR_LEN + 2)
		return decode_invalid(dt, p, DEV_PPPOE_PKT_TOO_SMALL);
	if (pkt[1] != 0) /* session data always has code 0 */
		return decode_invalid(dt, p, DEV_PPPOE_WRONG_CODE);
	plen = rd16(pkt + 4);
	if (plen < 2)
		return decode_invalid(dt, p, DEV_PPPOE_PKT_TOO_SMALL);
	/* The PPPoE length bounds the PPP frame: Ethernet may pad after it. */
	if (plen < len - PPPOE_HDR_LEN)
		len = PPPOE_HDR_LEN + plen;
	dc_inc(dt, dcnt.ppp);
	pkt += PPPOE_HDR_LEN;
	len -= PPPOE_HDR_LEN;
	if (pkt[0] & 1)
		return decode_ppp_proto(dt, p, pkt[0], pkt + 1, len - 1);
	return decode_ppp_proto(dt, p, rd16(pkt), pkt + 2, len - 2);
}

static int decode_pppoe_discovery(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	uint32_t tlen, off;

	dc_inc(dt, dcnt.pppoe);
	if (len < PPPOE_HDR_LEN)
		return decode_invalid(dt, p, DEV_PPPOE_PKT_TOO_SMALL);
	switch (pkt[1]) {
	case 0x09: /* PADI */
	case 0x07: /* PADO */
	case 0x19: /* PADR */
	case 0x65: /* PADS */
	case 0xa7: /* PADT */
		break;
	default:
		return decode_invalid(dt, p, DEV_PPPOE_WRONG_CODE);
	}
	tlen = rd16(pkt + 4);
	if (tlen > len - PPPOE_HDR_LEN)
		tlen = len - PPPOE_HDR_LEN;
	/* Tags are type(2) length(2) value; one running past the payload is malformed. */
	for (off = 0; off + 4 <= tlen;) {
		uint16_t vlen = rd16(pkt + PPPOE_HDR_LEN + off + 2);

		if (off + 4 + vlen > tlen) {
			decode_set_event(dt, p, DEV_PPPOE_MALFORMED_TAGS);
			break;
		}
		off += 4 + vlen;
	}
	return 0;
}

static int decode_mpls(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	uint32_t entry, label;

	dc_inc(dt, dcnt.mpls);
	do {
		if (len < MPLS_ENTRY_LEN)
			return decode_invalid(dt, p, DEV_MPLS_HEADER_TOO_SMALL);
		entry = rd32(pkt);
		pkt += MPLS_ENTRY_LEN;
		len -= MPLS_ENTRY_LEN;
	} while (!(entry & 0x100));

	label = entry >> 12;
	if (len == 0)
		return decode_invalid(dt, p, DEV_MPLS_PKT_TOO_SMALL);
	/* Reserved labels (RFC 3032) say what follows, or that it is bogus here. */
	switch (label) {
	case 0: /* IPv4 explicit null */
		return decode_ipv4(dt, p, pkt, len);
	case 2: /* IPv6 explicit null */
		return decode_ipv6(dt, p, pkt, len);
	case 1:
		return decode_invalid(dt, p, DEV_MPLS_BAD_LABEL_ROUTER_ALERT);
	case 3:
		return decode_invalid(dt, p, DEV_MPLS_BAD_LABEL_IMPLICIT_NULL);
	default:
		if (label < 16)
			return decode_invalid(dt, p, DEV_MPLS_BAD_LABEL_RESERVED);
		break;
	}
	/* No payload type on the wire: guess from the first nibble. */
	switch (pkt[0] >> 4) {
	case 4:
		return decode_ipv4(dt, p, pkt, len);
	case 6:
		return decode_ipv6(dt, p, pkt, len);
	case 0: /* Ethernet pseudowire with a 4-byte control word */
		if (len < 4 + ETH_HDR_LEN)
			return decode_invalid(dt, p, DEV_MPLS_PKT_TOO_SMALL);
		return decode_ethernet(dt, p, pkt + 4, len - 4);
	default:
		return decode_invalid(dt, p, DEV_MPLS_UNKNOWN_PAYLOAD_TYPE);
	}
}

int decode_ethertype(DecodeThread *dt, Packet *p, uint16_t type, const uint8_t *pkt,
		     uint32_t len)
{
	if (decode_layer_enter(dt, p) < 0)
		return -1;
	switch (type) {
	case ETHERTYPE_IPV4:
		return decode_ipv4(dt, p, pkt, len);
	case ETHERTYPE_IPV6:
		return decode_ipv6(dt, p, pkt, len);
	case ETHERTYPE_VLAN:
	case ETHERTYPE_QINQ:
	case ETHERTYPE_QINQ_OLD:
		return decode_vlan(dt, p, pkt, len);
	case ETHERTYPE_ARP:
		return decode_arp(dt, p, pkt, len);
	case ETHERTYPE_PPPOE_SESS:
		return decode_pppoe_session(dt, p, pkt, len);
	case ETHERTYPE_PPPOE_DISC:
		return decode_pppoe_discovery(dt, p, pkt, len);
	case ETHERTYPE_MPLS_UC:
	case ETHERTYPE_MPLS_MC:
		return decode_mpls(dt, p, pkt, len);
	case ETHERTYPE_8021AH:
		return decode_8021ah(dt, p, pkt, len);
	case ETHERTYPE_VNTAG:
		return decode_vntag(dt, p, pkt, len);
	case ETHERTYPE_NSH:
		return decode_nsh(dt, p, pkt, len);
	case ETHERTYPE_DCE:
		if (len < DCE_HDR_LEN + ETH_HDR_LEN)
			return decode_invalid(dt, p, DEV_DCE_PKT_TOO_SMALL);
		return decode_ethernet(dt, p, pkt + DCE_HDR_LEN, len - DCE_HDR_LEN);
	default:
		dc_inc(dt, dcnt.unknown_ethertype);
		decode_set_event(dt, p, DEV_ETHERNET_UNKNOWN_ETHERTYPE);
		return DECODE_UNKNOWN;
	}
}

/* Network Service Header (RFC 8300): MD type 1 carries a fixed 16-byte
 * context, type 2 variable TLVs; the length field (4-byte words) covers it all. */
int decode_nsh(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	uint32_t hlen;
	uint8_t md_type, next;

	dc_inc(dt, dcnt.nsh);
	if (len < NSH_HDR_LEN)
		return decode_invalid(dt, p, DEV_NSH_HEADER_TOO_SMALL);
	if ((pkt[0] >> 6) != 0)
		return decode_invalid(dt, p, DEV_NSH_UNSUPPORTED_VERSION);
	md_type = pkt[2] & 0x0f;
	if (md_type == 0 || md_type == 0x0f)
		return decode_invalid(dt, p, DEV_NSH_RESERVED_TYPE);
	hlen = (uint32_t)(rd16(pkt) & 0x3f) * 4;
	if (hlen < NSH_HDR_LEN || hlen > len || (md_type == 1 && hlen != 24))
		return decode_invalid(dt, p, DEV_NSH_BAD_HEADER_LENGTH);
	if (md_type != 1 && md_type != 2)
		return decode_invalid(dt, p, DEV_NSH_UNSUPPORTED_TYPE);
	if (decode_layer_enter(dt, p) < 0)
		return -1;
	next = pkt[3];
	pkt += hlen;
	len -= hlen;
	switch (next) {
	case 1:
		return decode_ipv4(dt, p, pkt, len);
	case 2:
		return decode_ipv6(dt, p, pkt, len);
	case 3:
		return decode_ethernet(dt, p, pkt, len);
	case 4:
		return decode_nsh(dt, p, pkt, len);
	case 5:
		return decode_mpls(dt, p, pkt, len);
	default:
		return decode_invalid(dt, p, DEV_NSH_UNKNOWN_PAYLOAD);
	}
}

int decode_ethernet(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	dc_inc(dt, dcnt.ethernet);
	if (len < ETH_HDR_LEN)
		return decode_invalid(dt, p, DEV_ETHERNET_PKT_TOO_SMALL);
	/* eve's "ether" object names the outermost Ethernet header. */
	if (!(p->flags & PKT_HAS_ETH)) {
		memcpy(p->eth_dst, pkt, 6);
		memcpy(p->eth_src, pkt + 6, 6);
		p->eth_type = rd16(pkt + 12);
		p->flags |= PKT_HAS_ETH;
	}
	return decode_ethertype(dt, p, rd16(pkt + 12), pkt + ETH_HDR_LEN, len - ETH_HDR_LEN) < 0
		       ? -1 : 0;
}

/* Cisco HDLC (DLT_C_HDLC, 104): address (0x0f unicast, 0x8f broadcast),
 * control, then an EtherType; Suricata reads the type whatever the address. */
int decode_chdlc(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	dc_inc(dt, dcnt.chdlc);
	if (len < CHDLC_HDR_LEN)
		return decode_invalid(dt, p, DEV_CHDLC_PKT_TOO_SMALL);
	return decode_ethertype(dt, p, rd16(pkt + 2), pkt + CHDLC_HDR_LEN, len - CHDLC_HDR_LEN) < 0
		       ? -1 : 0;
}

int decode_sll(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	dc_inc(dt, dcnt.sll);
	if (len < SLL_HDR_LEN)
		return decode_invalid(dt, p, DEV_SLL_PKT_TOO_SMALL);
	return decode_ethertype(dt, p, rd16(pkt + 14), pkt + SLL_HDR_LEN, len - SLL_HDR_LEN) < 0
		       ? -1 : 0;
}

int decode_sll2(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	dc_inc(dt, dcnt.sll2);
	if (len < SLL2_HDR_LEN)
		return decode_invalid(dt, p, DEV_SLL2_PKT_TOO_SMALL);
	return decode_ethertype(dt, p, rd16(pkt), pkt + SLL2_HDR_LEN, len - SLL2_HDR_LEN) < 0
		       ? -1 : 0;
}

/* BSD AF_ values seen in loopback headers: AF_INET is 2 everywhere, AF_INET6
 * differs by OS (24 NetBSD/OpenBSD, 28 FreeBSD, 30 Darwin). */
static int null_af_kind(uint32_t af)
{
	switch (af) {
	case 2:
		return 4;
	case 24:
	case 28:
	case 30:
		return 6;
	default:
		return 0;
	}
}

int decode_null(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	uint32_t be, le;
	int kind;

	dc_inc(dt, dcnt.null);
	if (len < NULL_HDR_LEN)
		return decode_invalid(dt, p, DEV_LTNULL_PKT_TOO_SMALL);
	/* DLT_NULL is in the writer's byte order, DLT_LOOP in network order:
	 * accept either reading. */
	be = rd32(pkt);
	le = (uint32_t)pkt[0] | ((uint32_t)pkt[1] << 8) | ((uint32_t)pkt[2] << 16) |
	     ((uint32_t)pkt[3] << 24);
	kind = null_af_kind(be);
	if (!kind)
		kind = null_af_kind(le);
	pkt += NULL_HDR_LEN;
	len -= NULL_HDR_LEN;
	if (decode_layer_enter(dt, p) < 0)
		return -1;
	switch (kind) {
	case 4:
		return decode_ipv4(dt, p, pkt, len);
	case 6:
		return decode_ipv6(dt, p, pkt, len);
	default:
		return decode_invalid(dt, p, DEV_LTNULL_UNSUPPORTED_TYPE);
	}
}
