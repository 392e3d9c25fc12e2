/* Community ID v1: seed (2 bytes), source and destination address, the
 * protocol, a zero byte and, for protocols with ports, the two ports, all
 * in network order, with the endpoints ordered so that both directions of
 * a flow hash alike. ICMP has no ports: a type with a counterpart (echo
 * request and reply, ...) takes its type and the counterpart's as ports
 * and is ordered as a two-way flow; any other type takes (type, code) and
 * keeps its direction. SHA-1 and base64 from libcrypto. */
#include "output/community-id.h"

#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

/* the counterpart of an ICMP type, or -1 */
static int icmp_counterpart(uint8_t proto, uint8_t type)
{
	static const uint8_t v4[][2] = { { 8, 0 }, { 13, 14 }, { 15, 16 }, { 10, 9 }, { 17, 18 } };
	static const uint8_t v6[][2] = {
		{ 128, 129 }, { 133, 134 }, { 135, 136 }, { 130, 131 }, { 144, 145 },
	};
	const uint8_t (*t)[2] = proto == IPPROTO_ICMP ? v4 : v6;
	size_t n = proto == IPPROTO_ICMP ? sizeof(v4) / sizeof(v4[0]) : sizeof(v6) / sizeof(v6[0]);

	for (size_t i = 0; i < n; i++) {
		if (t[i][0] == type)
			return t[i][1];
		if (t[i][1] == type)
			return t[i][0];
	}
	return -1;
}

int community_id(uint16_t seed, const Address *src, const Address *dst, uint8_t proto,
		 uint16_t sp, uint16_t dp, char out[COMMUNITY_ID_LEN])
{
	uint8_t buf[2 + 16 + 16 + 2 + 4], dig[SHA_DIGEST_LENGTH];
	const uint8_t *a = src->a.u8, *b = dst->a.u8;
	size_t alen, n = 0;
	int ordered = 1, ports = 0;

	if (src->family == AF_INET)
		alen = 4;
	else if (src->family == AF_INET6)
		alen = 16;
	else
		return -1;
	switch (proto) {
	case IPPROTO_TCP: case IPPROTO_UDP: case 132:
		ports = 1;
		break;
	case IPPROTO_ICMP: case IPPROTO_ICMPV6: {
		int c = icmp_counterpart(proto, (uint8_t)sp);

		ports = 1;
		if (c >= 0)
			dp = (uint16_t)c;
		else
			ordered = 0;
		break;
	}
	}
	if (ordered) {
		int cmp = memcmp(a, b, alen);

		if (cmp > 0 || (cmp == 0 && sp > dp)) {
			const uint8_t *t = a;
			uint16_t tp = sp;

			a = b;
			b = t;
			sp = dp;
			dp = tp;
		}
	}
	buf[n++] = (uint8_t)(seed >> 8);
	buf[n++] = (uint8_t)seed;
	memcpy(buf + n, a, alen);
	n += alen;
	memcpy(buf + n, b, alen);
	n += alen;
	buf[n++] = proto;
	buf[n++] = 0;
	if (ports) {
		buf[n++] = (uint8_t)(sp >> 8);
		buf[n++] = (uint8_t)sp;
		buf[n++] = (uint8_t)(dp >> 8);
		buf[n++] = (uint8_t)dp;
	}
	SHA1(buf, n, dig);
	out[0] = '1';
	out[1] = ':';
	EVP_EncodeBlock((unsigned char *)out + 2, dig, SHA_DIGEST_LENGTH);
	return 0;
}
