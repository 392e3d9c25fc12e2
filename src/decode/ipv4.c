/* IPv4: header, options, header checksum, fragments (to defrag). */
#include "decode/decode-int.h"
#include "decode/defrag.h"
#include "decode/ipv4.h"

#include <sys/socket.h>

#define IPV4_HDR_LEN 20
#define IPV4_MF      0x2000
#define IPV4_OFFMASK 0x1fff

enum {
	OPT_EOL = 0,
	OPT_NOP = 1,
	OPT_RR = 7,
	OPT_QS = 25,
	OPT_TS = 68,
	OPT_SEC = 130,
	OPT_LSRR = 131,
	OPT_ESEC = 133,
	OPT_CIPSO = 134,
	OPT_SID = 136,
	OPT_SSRR = 137,
	OPT_RTRALT = 148,
};

/* Route options: the pointer names the next 4-byte slot, starting at 4. */
static enum decode_event opt_check_route(const uint8_t *o, uint8_t olen)
{
	if (olen < 3)
		return DEV_IPV4_OPT_INVALID_LEN;
	if (o[2] < 4 || (o[2] % 4) != 0 || o[2] > olen + 1)
		return DEV_IPV4_OPT_MALFORMED;
	return DEV_NONE;
}

/* Timestamp: pointer starts at 5 and moves by the record size of its flag
 * (4 bytes of time, or 8 with an address). */
static enum decode_event opt_check_ts(const uint8_t *o, uint8_t olen)
{
	uint8_t flag, rec;

	if (olen < 5)
		return DEV_IPV4_OPT_INVALID_LEN;
	flag = o[3] & 0x0f;
	rec = (flag == 1 || flag == 3) ? 8 : 4;
	if (o[2] < 5 || o[2] > olen + 1 || ((o[2] - 5) % rec) != 0)
		return DEV_IPV4_OPT_MALFORMED;
	return DEV_NONE;
}

/* Returns the event that one option raises (DEV_NONE if fine) and its bit.
 * Lengths as Suricata 8 checks them (RFC 1108 security: 11 bytes exactly;
 * quick start: at least 8; stream id and router alert: 4). */
static enum decode_event opt_check(const uint8_t *o, uint8_t olen, uint16_t *bit)
{
	switch (o[0]) {
	case OPT_RR:
		*bit = IPV4_OPT_RR;
		return opt_check_route(o, olen);
	case OPT_LSRR:
		*bit = IPV4_OPT_LSRR;
		return opt_check_route(o, olen);
	case OPT_SSRR:
		*bit = IPV4_OPT_SSRR;
		return opt_check_route(o, olen);
	case OPT_TS:
		*bit = IPV4_OPT_TS;
		return opt_check_ts(o, olen);
	case OPT_QS:
		*bit = IPV4_OPT_QS;
		return olen >= 8 ? DEV_NONE : DEV_IPV4_OPT_INVALID_LEN;
	case OPT_SEC:
		*bit = IPV4_OPT_SEC;
		return olen == 11 ? DEV_NONE : DEV_IPV4_OPT_INVALID_LEN;
	case OPT_ESEC:
		*bit = IPV4_OPT_ESEC;
		return olen >= 3 ? DEV_NONE : DEV_IPV4_OPT_INVALID_LEN;
	case OPT_CIPSO:
		*bit = IPV4_OPT_CIPSO;
		return olen >= 10 ? DEV_NONE : DEV_IPV4_OPT_INVALID_LEN;
	case OPT_SID:
		*bit = IPV4_OPT_SID;
		return olen == 4 ? DEV_NONE : DEV_IPV4_OPT_INVALID_LEN;
	case OPT_RTRALT:
		*bit = IPV4_OPT_RTRALT;
		return olen == 4 ? DEV_NONE : DEV_IPV4_OPT_INVALID_LEN;
	default:
		/* Suricata reports unknown option types as opt_invalid and goes on. */
		*bit = 0;
		return DEV_IPV4_OPT_INVALID;
	}
}

/* Parses the options area as Suricata 8 does; -1 stops decoding (the
 * layout is broken: an option runs past the area). An option whose own
 * content is bad (a length its type does not allow, a bad pointer) makes
 * the packet invalid but the walk goes on, and it is not recorded; EOL and
 * NOP are recorded (ipopts:eol, ipopts:nop). Suricata wants the area padded
 * to 8 bytes and says so (opt_pad_required), then reads it anyway. */
static int decode_ipv4_options(DecodeThread *dt, Packet *p, const uint8_t *o, uint32_t len)
{
	if (len % 8)
		decode_set_event(dt, p, DEV_IPV4_OPT_PAD_REQUIRED);
	while (len > 0) {
		uint16_t bit = 0;
		enum decode_event ev;
		uint8_t olen;

		if (o[0] == OPT_EOL) {
			p->ipopts |= IPV4_OPT_EOL;
			break;
		}
		if (o[0] == OPT_NOP) {
			p->ipopts |= IPV4_OPT_NOP;
			o++;
			len--;
			continue;
		}
		if (len < 2) {
			decode_set_event(dt, p, DEV_IPV4_OPT_EOL_REQUIRED);
			return -1;
		}
		olen = o[1];
		if (olen < 2 || olen > len)
			return decode_invalid(dt, p, DEV_IPV4_OPT_INVALID_LEN);
		ev = opt_check(o, olen, &bit);
		if (bit && (p->ipopts & bit)) {
			decode_set_event(dt, p, DEV_IPV4_OPT_DUPLICATE);
		} else if (ev == DEV_IPV4_OPT_INVALID_LEN || ev == DEV_IPV4_OPT_MALFORMED) {
			decode_invalid(dt, p, ev);
		} else {
			if (ev != DEV_NONE)
				decode_set_event(dt, p, ev);
			p->ipopts |= bit;
		}
		o += olen;
		len -= olen;
	}
	return 0;
}

int decode_ipv4(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len)
{
	uint16_t hlen, iplen;

	if (decode_layer_enter(dt, p) < 0)
		return -1;
	dc_inc(dt, dcnt.ipv4);
	if (len < IPV4_HDR_LEN)
		return decode_invalid(dt, p, DEV_IPV4_PKT_TOO_SMALL);
	if ((pkt[0] >> 4) != 4)
		return decode_invalid(dt, p, DEV_IPV4_WRONG_IP_VERSION);
	hlen = (pkt[0] & 0x0f) * 4;
	if (hlen < IPV4_HDR_LEN)
		return decode_invalid(dt, p, DEV_IPV4_HLEN_TOO_SMALL);
	iplen = rd16(pkt + 2);
	if (iplen < hlen)
		return decode_invalid(dt, p, DEV_IPV4_IPLEN_SMALLER_THAN_HLEN);
	if (len < iplen)
		return decode_invalid(dt, p, DEV_IPV4_TRUNC_PKT);

	/* A tunnel's inner header replaces the outer one: start from a clean slate. */
	p->ip_version = 4;
	p->l3 = pkt;
	p->l3_hlen = hlen;
	p->l3_len = iplen;
	p->tos = pkt[1];
	p->ip_id = rd16(pkt + 4);
	p->frag_off = rd16(pkt + 6);
	p->ttl = pkt[8];
	p->proto = pkt[9];
	p->ipopts = 0;
	p->l4 = NULL;
	p->l4_hlen = 0;
	p->sp = p->dp = 0;
	memset(&p->src, 0, sizeof(p->src));
	memset(&p->dst, 0, sizeof(p->dst));
	p->src.family = AF_INET;
	p->dst.family = AF_INET;
	memcpy(&p->src.a.u32[0], pkt + 12, 4);
	memcpy(&p->dst.a.u32[0], pkt + 16, 4);
	p->payload = pkt + hlen;
	p->payload_len = iplen - hlen;

	if (hlen > IPV4_HDR_LEN &&
	    decode_ipv4_options(dt, p, pkt + IPV4_HDR_LEN, hlen - IPV4_HDR_LEN) < 0)
		return -1;

	if (decode_csum_enabled(dt) && csum_fold(csum_add(0, pkt, hlen)) != 0)
		p->flags |= PKT_IPV4_CSUM_BAD;

	if (p->frag_off & (IPV4_MF | IPV4_OFFMASK)) {
		p->flags |= PKT_IS_FRAGMENT;
		defrag_ipv4(dt, p, pkt, hlen, iplen);
		return 0;
	}
	/* Bytes past the IP total length are link padding, not payload. */
	return decode_ip_payload(dt, p, p->proto, pkt + hlen, iplen - hlen);
}
