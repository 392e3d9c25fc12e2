/* IP payload dispatch and the L4 decoders: TCP, UDP, SCTP, ESP, ICMPv4, ICMPv6;
 * IP-in-IP tunnels; Internet checksums. */
#include <string.h>
#include <netinet/in.h>
#include "decode/decode-int.h"

#define TCP_HDR_LEN    20
#define UDP_HDR_LEN    8
#define SCTP_HDR_LEN   12
#define ICMP_HDR_LEN   8
#define ESP_HDR_LEN    8

/* ---- checksums ---- */

uint32_t csum_add(uint32_t sum, const uint8_t *b, uint32_t len)
{
	/* RFC 1071: the one's complement sum may be taken over native-endian words and
	 * byte-swapped once at the end. Adding 32-bit halves of 64-bit loads into a
	 * 64-bit accumulator cannot overflow for any IP-sized buffer. */
	uint64_t s = 0, s1 = 0, s2 = 0, s3 = 0;
	uint16_t w16;

	/* Every payload byte passes through here: four independent accumulators
	 * let the adds of a 32-byte block run in parallel instead of queueing on
	 * one register. */
	while (len >= 32) {
		uint64_t w[4];

		memcpy(w, b, 32);
		s += (w[0] & 0xffffffffu) + (w[0] >> 32);
		s1 += (w[1] & 0xffffffffu) + (w[1] >> 32);
		s2 += (w[2] & 0xffffffffu) + (w[2] >> 32);
		s3 += (w[3] & 0xffffffffu) + (w[3] >> 32);
		b += 32;
		len -= 32;
	}
	s += s1 + s2 + s3;
	while (len >= 8) {
		uint64_t w;

		memcpy(&w, b, 8);
		s += (w & 0xffffffffu) + (w >> 32);
		b += 8;
		len -= 8;
	}
	while (len >= 2) {
		memcpy(&w16, b, 2);
		s += w16;
		b += 2;
		len -= 2;
	}
	if (len) {
		w16 = 0;
		memcpy(&w16, b, 1);   /* the odd byte is the high half of a network word */
		s += w16;
	}
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	s = ((s & 0xff) << 8) | (s >> 8);
#endif
	s += sum;
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (uint32_t)s;
}

uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

uint32_t csum_pseudo(const Packet *p, uint8_t proto, uint32_t l4len)
{
	uint32_t sum = 0;
	uint8_t tail[4];

	if (p->ip_version == 4) {
		/* The four address words added as they are: the caller only folds
		 * this, so any sum congruent mod 0xffff does, and two csum_add()
		 * calls for 4 bytes each cost as much as a short segment. */
		const uint8_t *a = p->src.a.u8, *b = p->dst.a.u8;

		sum = ((uint32_t)a[0] << 8 | a[1]) + ((uint32_t)a[2] << 8 | a[3]) +
		      ((uint32_t)b[0] << 8 | b[1]) + ((uint32_t)b[2] << 8 | b[3]);
		sum += proto;
		sum += l4len & 0xffff;
		return sum;
	}
	sum = csum_add(sum, p->src.a.u8, 16);
	sum = csum_add(sum, p->dst.a.u8, 16);
	tail[0] = (uint8_t)(l4len >> 24);
	tail[1] = (uint8_t)(l4len >> 16);
	tail[2] = (uint8_t)(l4len >> 8);
	tail[3] = (uint8_t)l4len;
	sum = csum_add(sum, tail, 4);
	sum += proto;
	return sum;
}

int decode_l4_csum_rewrite(Packet *p)
{
	uint8_t *l4;
	uint32_t len, at;
	uint16_t c;

	if (!p->l3 || !p->l4 || (p->flags & (PKT_IS_FRAGMENT | PKT_TUNNEL | PKT_PSEUDO)))
		return -1;
	if (p->proto != IPPROTO_TCP && p->proto != IPPROTO_UDP)
		return -1;
	/* the segment's bytes as the IP header counts them, all captured */
	if (p->l4 < p->l3 || (uint32_t)(p->l4 - p->l3) >= p->l3_len)
		return -1;
	len = p->l3_len - (uint32_t)(p->l4 - p->l3);
	if ((uint32_t)(p->l4 - p->data) + len > p->caplen)
		return -1;
	l4 = p->data + (p->l4 - p->data);
	at = p->proto == IPPROTO_TCP ? 16 : 6;
	if (len < at + 2)
		return -1;
	/* UDP over IPv4 may go without one: it stays without */
	if (p->proto == IPPROTO_UDP && p->ip_version == 4 && !l4[at] && !l4[at + 1])
		return 0;
	l4[at] = l4[at + 1] = 0;
	c = csum_fold(csum_add(csum_pseudo(p, p->proto, len), l4, len));
	if (p->proto == IPPROTO_UDP && !c)
		c = 0xffff;
	l4[at] = (uint8_t)(c >> 8);
	l4[at + 1] = (uint8_t)c;
	return 0;
}

/* Whole segment present (decoders only get here with the full IP payload). */
static int l4_csum_ok(const Packet *p, uint8_t proto, const uint8_t *seg, uint32_t len)
{
	return csum_fold(csum_add(csum_pseudo(p, proto, len), seg, len)) == 0;
}

/* ---- TCP ---- */

enum {
	TCPOPT_EOL = 0,
	TCPOPT_NOP = 1,
	TCPOPT_MSS = 2,
	TCPOPT_WS = 3,
	TCPOPT_SACKPERM = 4,
	TCPOPT_SACK = 5,
	TCPOPT_TS = 8,
};

/* One bit per option kind below 32, for the duplicate check. */
static void decode_tcp_options(DecodeThread *dt, Packet *p, const uint8_t *o, uint32_t len)
{
	uint32_t seen = 0;

	while (len > 0) {
		uint8_t kind = o[0], olen;
		int ok;

		if (kind == TCPOPT_EOL)
			break;
		if (kind == TCPOPT_NOP) {
			o++;
			len--;
			continue;
		}
		if (len < 2)
			break;
		olen = o[1];
		if (olen < 2 || olen > len) {
			decode_set_event(dt, p, DEV_TCP_OPT_INVALID_LEN);
			return;
		}
		switch (kind) {
		case TCPOPT_MSS:
			ok = olen == 4;
			break;
		case TCPOPT_WS:
			ok = olen == 3;
			break;
		case TCPOPT_SACKPERM:
			ok = olen == 2;
			break;
		case TCPOPT_SACK:
			/* Suricata accepts an empty SACK (no blocks) */
			ok = olen == 2 || (olen >= 10 && olen <= 34 && ((olen - 2) % 8) == 0);
			break;
		case TCPOPT_TS:
			ok = olen == 10;
			break;
		default:
			ok = 1;
			kind = 0xff; /* not tracked */
			break;
		}
		if (!ok) {
			decode_set_event(dt, p, DEV_TCP_OPT_INVALID_LEN);
		} else if (kind < 32 && (seen & (1u << kind))) {
			decode_set_event(dt, p, DEV_TCP_OPT_DUPLICATE);
		} else if (kind < 32) {
			seen |= 1u << kind;
			switch (kind) {
			case TCPOPT_MSS:
				p->tcp_mss = rd16(o + 2);
				break;
			case TCPOPT_WS:
				p->tcp_wscale = o[2];
				break;
			case TCPOPT_SACKPERM:
				p->tcp_sack_permitted = 1;
				break;
			case TCPOPT_TS:
				p->tcp_has_ts = 1;
				p->tcp_tsval = rd32(o + 2);
				p->tcp_tsecr = rd32(o + 6);
				break;
			}
		}
		o += olen;
		len -= olen;
	}
}

int decode_tcp(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	uint32_t hlen;

	dc_inc(dt, dcnt.tcp);
	if (len < TCP_HDR_LEN)
		return decode_invalid(dt, p, DEV_TCP_PKT_TOO_SMALL);
	hlen = (uint32_t)(pkt[12] >> 4) * 4;
	/* Suricata computes the option length as (hlen - 20) in 8 bits: a data
	 * offset under 5 wraps and is reported as invalid_optlen. */
	if (hlen < TCP_HDR_LEN)
		return decode_invalid(dt, p, DEV_TCP_INVALID_OPTLEN);
	if (hlen > len)
		return decode_invalid(dt, p, DEV_TCP_HLEN_TOO_SMALL);

	p->l4 = pkt;
	p->l4_hlen = (uint16_t)hlen;
	p->sp = rd16(pkt);
	p->dp = rd16(pkt + 2);
	p->tcp_seq = rd32(pkt + 4);
	p->tcp_ack = rd32(pkt + 8);
	p->tcp_flags = pkt[13];
	p->tcp_win = rd16(pkt + 14);
	p->tcp_urp = rd16(pkt + 18);
	p->tcp_wscale = 0xff;
	p->tcp_mss = 0;
	p->tcp_sack_permitted = 0;
	p->tcp_has_ts = 0;
	p->tcp_tsval = p->tcp_tsecr = 0;
	p->payload = pkt + hlen;
	p->payload_len = (uint16_t)(len - hlen);
	if (hlen > TCP_HDR_LEN)
		decode_tcp_options(dt, p, pkt + TCP_HDR_LEN, hlen - TCP_HDR_LEN);
	if (decode_csum_enabled(dt) && !l4_csum_ok(p, 6, pkt, len))
		p->flags |= PKT_L4_CSUM_BAD;
	return 0;
}

/* ---- UDP ---- */

int decode_udp(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	uint16_t ulen;

	dc_inc(dt, dcnt.udp);
	if (len < UDP_HDR_LEN)
		return decode_invalid(dt, p, DEV_UDP_HLEN_TOO_SMALL);
	ulen = rd16(pkt + 4);
	if (len < ulen)
		return decode_invalid(dt, p, DEV_UDP_PKT_TOO_SMALL);
	if (ulen < UDP_HDR_LEN)
		return decode_invalid(dt, p, DEV_UDP_LEN_INVALID);
	if (len != ulen)
		return decode_invalid(dt, p, DEV_UDP_HLEN_INVALID);

	p->l4 = pkt;
	p->l4_hlen = UDP_HDR_LEN;
	p->sp = rd16(pkt);
	p->dp = rd16(pkt + 2);
	p->payload = pkt + UDP_HDR_LEN;
	p->payload_len = ulen - UDP_HDR_LEN;
	/* A zero UDP checksum over IPv4 means "not computed" (RFC 768). */
	if (decode_csum_enabled(dt) && !(p->ip_version == 4 && rd16(pkt + 6) == 0) &&
	    !l4_csum_ok(p, 17, pkt, ulen))
		p->flags |= PKT_L4_CSUM_BAD;
	decode_udp_tunnel(dt, p, p->payload, p->payload_len);
	return 0;
}

/* ---- SCTP, ESP: ports / presence only ---- */

int decode_sctp(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	dc_inc(dt, dcnt.sctp);
	if (len < SCTP_HDR_LEN)
		return decode_invalid(dt, p, DEV_SCTP_PKT_TOO_SMALL);
	p->l4 = pkt;
	p->l4_hlen = SCTP_HDR_LEN;
	p->sp = rd16(pkt);
	p->dp = rd16(pkt + 2);
	p->payload = pkt + SCTP_HDR_LEN;
	p->payload_len = (uint16_t)(len - SCTP_HDR_LEN);
	return 0;
}

static int decode_esp(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	dc_inc(dt, dcnt.esp);
	if (len < ESP_HDR_LEN)
		return decode_invalid(dt, p, DEV_ESP_PKT_TOO_SMALL);
	return 0;
}

/* ---- ICMPv4 ---- */

/* Highest valid code per known type; -1 for a type Suricata does not know. */
static int icmpv4_max_code(uint8_t type)
{
	switch (type) {
	case 0: case 4: case 8: case 13: case 14: case 15: case 16: case 17: case 18:
		return 0;
	case 3:
		return 15;
	case 5:
		return 3;
	case 11:
		return 1;
	case 12:
		return 2;
	default:
		return -1;
	}
}

static int icmpv4_is_error(uint8_t type)
{
	return type == 3 || type == 4 || type == 5 || type == 11 || type == 12;
}

/* The IP header an error quotes: checked for sanity only; the packet keeps
 * describing the ICMP message itself. */
static void icmpv4_check_embedded(DecodeThread *dt, Packet *p, const uint8_t *b, uint32_t len)
{
	if (len < 20) {
		decode_set_event(dt, p, DEV_ICMPV4_IPV4_TRUNC_PKT);
		return;
	}
	if ((b[0] >> 4) != 4)
		decode_set_event(dt, p, DEV_ICMPV4_IPV4_UNKNOWN_VER);
}

int decode_icmpv4(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	int max;

	dc_inc(dt, dcnt.icmpv4);
	if (len < ICMP_HDR_LEN)
		return decode_invalid(dt, p, DEV_ICMPV4_PKT_TOO_SMALL);
	p->l4 = pkt;
	p->l4_hlen = ICMP_HDR_LEN;
	p->icmp_type = pkt[0];
	p->icmp_code = pkt[1];
	p->icmp_id = p->icmp_seq = 0;
	p->payload = pkt + ICMP_HDR_LEN;
	p->payload_len = (uint16_t)(len - ICMP_HDR_LEN);

	max = icmpv4_max_code(pkt[0]);
	if (max < 0)
		decode_set_event(dt, p, DEV_ICMPV4_UNKNOWN_TYPE);
	else if (pkt[1] > max)
		decode_set_event(dt, p, DEV_ICMPV4_UNKNOWN_CODE);
	if (max >= 0 && !icmpv4_is_error(pkt[0])) {
		p->icmp_id = rd16(pkt + 4);
		p->icmp_seq = rd16(pkt + 6);
	}
	/* Suricata decodes the quoted header only of errors with a known code */
	if (icmpv4_is_error(pkt[0]) && pkt[1] <= max)
		icmpv4_check_embedded(dt, p, pkt + ICMP_HDR_LEN, len - ICMP_HDR_LEN);
	if (decode_csum_enabled(dt) && csum_fold(csum_add(0, pkt, len)) != 0)
		p->flags |= PKT_L4_CSUM_BAD;
	return 0;
}

/* ---- ICMPv6 ---- */

static int icmpv6_max_code(uint8_t type)
{
	switch (type) {
	case 1:
		return 7;
	case 3:
		return 1;
	case 4:
		return 3;
	case 138: /* router renumbering */
		return 255;
	case 139: case 140: /* node information */
		return 2;
	default:
		return 0;
	}
}

int decode_icmpv6(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	uint8_t type, code;

	dc_inc(dt, dcnt.icmpv6);
	if (len < ICMP_HDR_LEN)
		return decode_invalid(dt, p, DEV_ICMPV6_PKT_TOO_SMALL);
	type = pkt[0];
	code = pkt[1];
	p->l4 = pkt;
	p->l4_hlen = ICMP_HDR_LEN;
	p->icmp_type = type;
	p->icmp_code = code;
	p->icmp_id = p->icmp_seq = 0;
	p->payload = pkt + ICMP_HDR_LEN;
	p->payload_len = (uint16_t)(len - ICMP_HDR_LEN);

	if (type >= 1 && type <= 4) {
		/* errors quote the offending IPv6 header */
		if (len < ICMP_HDR_LEN + 40)
			decode_set_event(dt, p, DEV_ICMPV6_IPV6_TRUNC_PKT);
		else if ((pkt[ICMP_HDR_LEN] >> 4) != 6)
			decode_set_event(dt, p, DEV_ICMPV6_IPV6_UNKNOWN_VERSION);
	} else if (type == 100 || type == 101 || type == 200 || type == 201) {
		decode_set_event(dt, p, DEV_ICMPV6_EXPERIMENTATION_TYPE);
	} else if (type == 0 || type == 127 || type == 255) {
		decode_set_event(dt, p, DEV_ICMPV6_UNKNOWN_TYPE);
	} else if (type < 128 || type > 161) {
		decode_set_event(dt, p, DEV_ICMPV6_UNASSIGNED_TYPE);
	}
	if (((type >= 1 && type <= 4) || type >= 128) && type <= 161 &&
	    code > icmpv6_max_code(type))
		decode_set_event(dt, p, DEV_ICMPV6_UNKNOWN_CODE);
	if (type == 128 || type == 129) {
		p->icmp_id = rd16(pkt + 4);
		p->icmp_seq = rd16(pkt + 6);
	}
	/* MLD must stay on the link (RFC 2710/3810): hop limit 1. */
	if ((type == 130 || type == 131 || type == 132 || type == 143) && p->ttl != 1)
		decode_set_event(dt, p, DEV_ICMPV6_MLD_MESSAGE_WITH_INVALID_HL);
	if (decode_csum_enabled(dt) && !l4_csum_ok(p, 58, pkt, len))
		p->flags |= PKT_L4_CSUM_BAD;
	return 0;
}

/* ---- IP payload dispatch, IP-in-IP ---- */

/* IP-in-IP, 6in4, 4in6 and 6in6: the outer packet keeps its own flow (proto 4
 * or 41, no ports) and the inner packet has its own (decode_tunnel()). */
static int decode_tunnel_inner(DecodeThread *dt, Packet *p, int version, const uint8_t *pkt,
			       uint32_t len)
{
	uint8_t src = p->ip_version == 6 ? PKT_SRC_IPV6_TUNNEL : PKT_SRC_IPV4_TUNNEL;
	int r = decode_tunnel(dt, p, version == 4 ? decode_ipv4 : decode_ipv6, src, pkt, len);

	return r < 0 ? -1 : 0;
}

static int decode_tunnel_ip(DecodeThread *dt, Packet *p, uint8_t proto, const uint8_t *pkt,
			    uint32_t len)
{
	int outer6 = p->ip_version == 6;

	if (proto == 4) {
		if (outer6) {
			dc_inc(dt, dcnt.ipv4_in_ipv6);
			if (len < 20)
				return decode_invalid(dt, p, DEV_IPV6_IPV4_IN_IPV6_TOO_SMALL);
			if ((pkt[0] >> 4) != 4)
				return decode_invalid(dt, p, DEV_IPV6_IPV4_IN_IPV6_WRONG_VERSION);
		} else {
			dc_inc(dt, dcnt.ipv4_in_ipv4);
		}
		return decode_tunnel_inner(dt, p, 4, pkt, len);
	}
	if (outer6) {
		dc_inc(dt, dcnt.ipv6_in_ipv6);
		if (len < 40)
			return decode_invalid(dt, p, DEV_IPV6_IPV6_IN_IPV6_TOO_SMALL);
		if ((pkt[0] >> 4) != 6)
			return decode_invalid(dt, p, DEV_IPV6_IPV6_IN_IPV6_WRONG_VERSION);
	} else {
		dc_inc(dt, dcnt.ipv6_in_ipv4);
	}
	return decode_tunnel_inner(dt, p, 6, pkt, len);
}

int decode_ip_payload(DecodeThread *dt, Packet *p, uint8_t proto, const uint8_t *pkt,
		      uint32_t len)
{
	p->payload = pkt;
	p->payload_len = (uint16_t)len;
	switch (proto) {
	case 6:
		return decode_tcp(dt, p, pkt, len);
	case 17:
		return decode_udp(dt, p, pkt, len);
	case 132:
		return decode_sctp(dt, p, pkt, len);
	case 1:
		if (p->ip_version == 6) {
			decode_set_event(dt, p, DEV_IPV6_ICMPV4);
			return 0;
		}
		return decode_icmpv4(dt, p, pkt, len);
	case 58:
		if (p->ip_version == 4) {
			decode_set_event(dt, p, DEV_IPV4_ICMPV6);
			return 0;
		}
		return decode_icmpv6(dt, p, pkt, len);
	case 4:
	case 41:
		return decode_tunnel_ip(dt, p, proto, pkt, len);
	case 47:
		return decode_gre(dt, p, pkt, len);
	case 50:
		return decode_esp(dt, p, pkt, len);
	default:
		/* Suricata names every IPv6 next header it does not decode, except
		 * mobility (135), HIP (139) and shim6 (140) which it skips. */
		if (p->ip_version == 6 && proto != 135 && proto != 139 && proto != 140)
			decode_set_event(dt, p, DEV_IPV6_UNKNOWN_NEXT_HEADER);
		return 0;
	}
}
