/* IPv6: fixed header and the extension header chain (hop-by-hop, routing,
 * destination options, fragment, AH, ESP, no-next-header). */
#include "decode/decode-int.h"
#include "decode/defrag.h"

#include <sys/socket.h>

#define IPV6_HDR_LEN 40

enum {
	NH_HOPOPTS = 0,
	NH_ROUTING = 43,
	NH_FRAGMENT = 44,
	NH_ESP = 50,
	NH_AH = 51,
	NH_NONE = 59,
	NH_DSTOPTS = 60,
};

/* Which extension headers were seen, for the duplicate checks. */
struct exthdr_seen {
	uint8_t hh, rh, fh, ah, eh;
	uint8_t dh;
};

/* Hop-by-hop and destination options: TLVs padded with Pad1/PadN. An option
 * running past the header is exthdr_invalid_optlen; a header holding only
 * padding is suspicious (used to hide data); unknown types are reported. */
static void decode_ipv6_opts(DecodeThread *dt, Packet *p, const uint8_t *o, uint32_t len,
			     int is_hop)
{
	int only_padding = 1;

	while (len > 0) {
		uint8_t type = o[0], olen;

		if (type == 0) { /* Pad1 */
			o++;
			len--;
			continue;
		}
		if (len < 2) {
			decode_set_event(dt, p, DEV_IPV6_EXTHDR_INVALID_OPTLEN);
			return;
		}
		olen = o[1];
		if ((uint32_t)olen + 2 > len) {
			decode_set_event(dt, p, DEV_IPV6_EXTHDR_INVALID_OPTLEN);
			return;
		}
		switch (type) {
		case 1: /* PadN */
			if (olen == 0)
				decode_set_event(dt, p, DEV_IPV6_ZERO_LEN_PADN);
			break;
		case 0x05: /* router alert */
		case 0xc2: /* jumbo payload */
		case 0xc9: /* home address */
		case 0x04: /* tunnel encapsulation limit */
		case 0x26: /* quick start */
		case 0x63: /* RPL */
		case 0x6d: /* MPL */
		case 0x1e: /* experimental */
		case 0x3e:
		case 0x5e:
		case 0x7e:
		case 0x9e:
		case 0xbe:
		case 0xde:
		case 0xfe:
			only_padding = 0;
			break;
		default:
			only_padding = 0;
			decode_set_event(dt, p, is_hop ? DEV_IPV6_HOPOPTS_UNKNOWN_OPT
						       : DEV_IPV6_DSTOPTS_UNKNOWN_OPT);
			break;
		}
		o += 2 + olen;
		len -= 2 + olen;
	}
	if (only_padding)
		decode_set_event(dt, p, is_hop ? DEV_IPV6_HOPOPTS_ONLY_PADDING
					       : DEV_IPV6_DSTOPTS_ONLY_PADDING);
}

/* Fragment header: hands the fragment to defrag. nh_off is where the next
 * header value naming this fragment header sits within the IPv6 packet. */
static int decode_ipv6_frag(DecodeThread *dt, Packet *p, const uint8_t *ip6, uint32_t off,
			    uint32_t nh_off, uint32_t total)
{
	const uint8_t *fh = ip6 + off;
	uint16_t offlg = rd16(fh + 2);
	uint32_t frag_payload = total - off - 8;

	if (fh[1] != 0 || (offlg & 0x0006) != 0)
		decode_set_event(dt, p, DEV_IPV6_FH_NON_ZERO_RESERVED_FIELD);
	if ((offlg & 0xfff8) == 0 && !(offlg & 1)) {
		/* Offset 0 and no more fragments: an atomic fragment (RFC 6946),
		 * processed as the whole datagram it is. */
		decode_set_event(dt, p, DEV_IPV6_EXTHDR_USELESS_FH);
		return 1;
	}
	if ((offlg & 1) && (frag_payload % 8) != 0)
		return decode_invalid(dt, p, DEV_IPV6_FRAG_INVALID_LENGTH);
	p->flags |= PKT_IS_FRAGMENT;
	p->ip_id = (uint16_t)rd32(fh + 4);
	defrag_ipv6(dt, p, ip6, off, nh_off, total);
	return 0;
}

int decode_ipv6(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	struct exthdr_seen seen = { 0 };
	uint32_t total, off, nh_off;
	uint8_t nh;

	if (decode_layer_enter(dt, p) < 0)
		return -1;
	dc_inc(dt, dcnt.ipv6);
	if (len < IPV6_HDR_LEN)
		return decode_invalid(dt, p, DEV_IPV6_PKT_TOO_SMALL);
	if ((pkt[0] >> 4) != 6)
		return decode_invalid(dt, p, DEV_IPV6_WRONG_IP_VERSION);
	total = IPV6_HDR_LEN + rd16(pkt + 4);
	if (len < total)
		return decode_invalid(dt, p, DEV_IPV6_TRUNC_PKT);

	p->ip_version = 6;
	p->l3 = pkt;
	p->l3_len = (uint16_t)(total > 0xffff ? 0xffff : total);
	p->tos = (uint8_t)(rd16(pkt) >> 4);
	p->ttl = pkt[7];
	p->ipopts = 0;
	p->ip_id = 0;
	p->frag_off = 0;
	p->l4 = NULL;
	p->l4_hlen = 0;
	p->sp = p->dp = 0;
	p->src.family = AF_INET6;
	p->dst.family = AF_INET6;
	memcpy(p->src.a.u8, pkt + 8, 16);
	memcpy(p->dst.a.u8, pkt + 24, 16);

	nh = pkt[6];
	nh_off = 6;
	off = IPV6_HDR_LEN;
	for (;;) {
		uint32_t hlen;
		int r;

		p->proto = nh;
		p->l3_hlen = (uint16_t)off;
		p->payload = pkt + off;
		p->payload_len = (uint16_t)(total - off);
		/* Suricata: past an extension header, fewer than 2 bytes left
		 * cannot hold the next header, whatever it is (a useless
		 * fragment header followed by an empty TCP header, say) */
		if (off > IPV6_HDR_LEN && nh != NH_NONE && total - off < 2)
			return decode_invalid(dt, p, DEV_IPV6_TRUNC_EXTHDR);
		switch (nh) {
		case NH_HOPOPTS:
		case NH_ROUTING:
		case NH_DSTOPTS:
		case NH_AH:
		case NH_FRAGMENT:
			break;
		case NH_NONE:
			if (total > off)
				decode_set_event(dt, p, DEV_IPV6_DATA_AFTER_NONE_HEADER);
			return 0;
		case NH_ESP:
			/* Encrypted from here on: count and stop. */
			dc_inc(dt, dcnt.esp);
			if (total - off < 8)
				decode_set_event(dt, p, DEV_ESP_PKT_TOO_SMALL);
			return 0;
		default:
			return decode_ip_payload(dt, p, nh, pkt + off, total - off);
		}

		if (total - off < 8)
			return decode_invalid(dt, p, DEV_IPV6_TRUNC_EXTHDR);
		if (nh == NH_FRAGMENT)
			hlen = 8;
		else if (nh == NH_AH)
			hlen = ((uint32_t)pkt[off + 1] + 2) * 4;
		else
			hlen = ((uint32_t)pkt[off + 1] + 1) * 8;
		if (hlen > total - off)
			return decode_invalid(dt, p, DEV_IPV6_TRUNC_EXTHDR);

		switch (nh) {
		case NH_HOPOPTS:
			/* Hop-by-hop must come first; a second one is a duplicate. */
			if (seen.hh++)
				decode_set_event(dt, p, DEV_IPV6_EXTHDR_DUPL_HH);
			decode_ipv6_opts(dt, p, pkt + off + 2, hlen - 2, 1);
			break;
		case NH_DSTOPTS:
			/* One before the routing header and one after are legal. */
			if (seen.dh++ >= (seen.rh ? 2 : 1))
				decode_set_event(dt, p, DEV_IPV6_EXTHDR_DUPL_DH);
			decode_ipv6_opts(dt, p, pkt + off + 2, hlen - 2, 0);
			break;
		case NH_ROUTING:
			if (seen.rh++)
				decode_set_event(dt, p, DEV_IPV6_EXTHDR_DUPL_RH);
			if (pkt[off + 2] == 0)
				decode_set_event(dt, p, DEV_IPV6_RH_TYPE_0);
			break;
		case NH_AH:
			if (seen.ah++)
				decode_set_event(dt, p, DEV_IPV6_EXTHDR_DUPL_AH);
			if (rd16(pkt + off + 2) != 0)
				decode_set_event(dt, p, DEV_IPV6_EXTHDR_AH_RES_NOT_NULL);
			break;
		case NH_FRAGMENT:
			if (seen.fh++)
				decode_set_event(dt, p, DEV_IPV6_EXTHDR_DUPL_FH);
			r = decode_ipv6_frag(dt, p, pkt, off, nh_off, total);
			if (r <= 0)
				return r;
			break;
		}
		nh_off = off;
		nh = pkt[off];
		off += hlen;
	}
}
