/* Reject replies (reject.h). */
#include "capture/reject.h"
#include "capture/capture.h"
#include "util/log.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define TH_FIN 0x01
#define TH_SYN 0x02
#define TH_RST 0x04
#define TH_ACK 0x10

/* Set once by reject_init(), read-only afterwards: sendto() on a raw
 * socket is safe from every worker. */
static int raw4 = -1, raw6 = -1;

int reject_init(void)
{
	int one = 1;

	if (raw4 < 0)
		raw4 = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	if (raw6 < 0) {
		raw6 = socket(AF_INET6, SOCK_RAW, IPPROTO_RAW);
		if (raw6 >= 0)
			setsockopt(raw6, IPPROTO_IPV6, IPV6_HDRINCL, &one, sizeof(one));
	}
	if (raw4 < 0) {
		log_warning("reject: cannot open a raw socket (%s): reject rules only drop, "
			    "except on af-packet", strerror(errno));
		return -1;
	}
	return 0;
}

void reject_fini(void)
{
	if (raw4 >= 0)
		close(raw4);
	if (raw6 >= 0)
		close(raw6);
	raw4 = raw6 = -1;
}

static uint32_t csum_add(uint32_t sum, const uint8_t *d, uint32_t len)
{
	for (uint32_t i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)d[i] << 8 | d[i + 1];
	if (len & 1)
		sum += (uint32_t)d[len - 1] << 8;
	return sum;
}

static uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static void put16(uint8_t *b, uint16_t v)
{
	b[0] = (uint8_t)(v >> 8);
	b[1] = (uint8_t)v;
}

static void put32(uint8_t *b, uint32_t v)
{
	put16(b, (uint16_t)(v >> 16));
	put16(b + 2, (uint16_t)v);
}

/* The IP header of the reply (addresses swapped towards the source);
 * l4len bytes follow it. Its length. */
static uint32_t ip_header(const Packet *p, int to_src, uint8_t proto, uint32_t l4len, uint8_t *b)
{
	const Address *s = to_src ? &p->dst : &p->src, *d = to_src ? &p->src : &p->dst;

	if (p->ip_version == 4) {
		memset(b, 0, 20);
		b[0] = 0x45;
		put16(b + 2, (uint16_t)(20 + l4len));
		b[8] = 64;
		b[9] = proto;
		memcpy(b + 12, s->a.u8, 4);
		memcpy(b + 16, d->a.u8, 4);
		put16(b + 10, csum_fold(csum_add(0, b, 20)));
		return 20;
	}
	memset(b, 0, 40);
	b[0] = 0x60;
	put16(b + 4, (uint16_t)l4len);
	b[6] = proto;
	b[7] = 64;
	memcpy(b + 8, s->a.u8, 16);
	memcpy(b + 24, d->a.u8, 16);
	return 40;
}

/* The transport checksum over the pseudo header of the IP header at b. */
static uint16_t l4_csum(const uint8_t *ip, uint32_t hl, uint8_t proto, const uint8_t *l4,
			uint32_t len)
{
	uint32_t sum = 0;

	if ((ip[0] >> 4) == 4)
		sum = csum_add(sum, ip + 12, 8);
	else
		sum = csum_add(sum, ip + 8, 32);
	(void)hl;
	sum += proto + len;
	return csum_fold(csum_add(sum, l4, len));
}

/* RFC 793 (reset generation): a packet with ACK gets seq = its ack; one
 * without gets seq 0 and an ack of everything it carried (SYN and FIN
 * count one). Towards the destination the RST continues the sender's
 * sequence. */
static uint32_t build_rst(const Packet *p, int to_src, uint8_t *b)
{
	uint32_t hl = ip_header(p, to_src, IPPROTO_TCP, 20, b);
	uint8_t *t = b + hl;
	uint32_t len = p->payload_len + !!(p->tcp_flags & TH_SYN) + !!(p->tcp_flags & TH_FIN);

	memset(t, 0, 20);
	if (to_src) {
		put16(t, p->dp);
		put16(t + 2, p->sp);
		if (p->tcp_flags & TH_ACK) {
			put32(t + 4, p->tcp_ack);
			put32(t + 8, p->tcp_seq + len);
			t[13] = TH_RST | TH_ACK;
		} else {
			put32(t + 8, p->tcp_seq + len);
			t[13] = TH_RST | TH_ACK;
		}
	} else {
		put16(t, p->sp);
		put16(t + 2, p->dp);
		put32(t + 4, p->tcp_seq + len);
		put32(t + 8, p->tcp_ack);
		t[13] = (p->tcp_flags & TH_ACK) ? TH_RST | TH_ACK : TH_RST;
	}
	t[12] = 5 << 4;
	put16(t + 16, l4_csum(b, hl, IPPROTO_TCP, t, 20));
	return hl + 20;
}

/* ICMP(v6) port unreachable, carrying p's IP header and the first 8
 * bytes after it, as routers do. */
static uint32_t build_unreach(const Packet *p, int to_src, uint8_t *b, uint32_t size)
{
	uint32_t quote = p->l3_hlen + 8, hl, ilen;
	const uint8_t *l3 = p->l3;
	int v6 = p->ip_version == 6;
	uint8_t *ic;

	if (!l3 || l3 < p->data || (uint32_t)(l3 - p->data) + quote > p->caplen)
		quote = l3 && l3 >= p->data && (uint32_t)(l3 - p->data) < p->caplen ?
			p->caplen - (uint32_t)(l3 - p->data) : 0;
	/* IPv6 extension headers may make the quote long: it is cut to fit */
	if (size < 40 + 8 + 28)
		return 0;
	if (quote > size - 40 - 8)
		quote = size - 40 - 8;
	if (!quote)
		return 0;
	ilen = 8 + quote;
	hl = ip_header(p, to_src, v6 ? IPPROTO_ICMPV6 : IPPROTO_ICMP, ilen, b);
	ic = b + hl;
	memset(ic, 0, 8);
	ic[0] = v6 ? 1 : 3;   /* destination unreachable */
	ic[1] = v6 ? 4 : 3;   /* port unreachable */
	memcpy(ic + 8, l3, quote);
	if (v6)
		put16(ic + 2, l4_csum(b, hl, IPPROTO_ICMPV6, ic, ilen));
	else
		put16(ic + 2, csum_fold(csum_add(0, ic, ilen)));
	return hl + ilen;
}

uint32_t reject_build(const Packet *p, int to_src, uint8_t *buf, uint32_t size)
{
	if ((p->ip_version != 4 && p->ip_version != 6) || size < 60 ||
	    (p->flags & (PKT_INVALID | PKT_IS_FRAGMENT)) || p->recursion_level)
		return 0;
	if (p->proto == IPPROTO_TCP) {
		if (!p->l4 || (p->tcp_flags & TH_RST))
			return 0;
		return build_rst(p, to_src, buf);
	}
	/* no error about an error (RFC 1122) */
	if ((p->proto == IPPROTO_ICMP && (p->icmp_type == 3 || p->icmp_type == 11 ||
					  p->icmp_type == 12)) ||
	    (p->proto == IPPROTO_ICMPV6 && p->icmp_type < 128))
		return 0;
	return build_unreach(p, to_src, buf, size);
}

static int raw_send(const uint8_t *ip, uint32_t len)
{
	if ((ip[0] >> 4) == 4) {
		struct sockaddr_in sin = { .sin_family = AF_INET };

		memcpy(&sin.sin_addr, ip + 16, 4);
		return raw4 >= 0 && sendto(raw4, ip, len, 0, (struct sockaddr *)&sin,
					   sizeof(sin)) == (ssize_t)len ? 0 : -1;
	}
	{
		struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };

		memcpy(&sin6.sin6_addr, ip + 24, 16);
		return raw6 >= 0 && sendto(raw6, ip, len, 0, (struct sockaddr *)&sin6,
					   sizeof(sin6)) == (ssize_t)len ? 0 : -1;
	}
}

int reject_send(const Packet *p, enum reject_dir dir)
{
	uint8_t buf[256];
	int sent = 0;

	if (!p->cap)
		return 0;
	for (int to_src = 1; to_src >= 0; to_src--) {
		uint32_t len;
		int rc;

		if (!(dir & (to_src ? REJECT_TO_SRC : REJECT_TO_DST)))
			continue;
		if (!(len = reject_build(p, to_src, buf, sizeof(buf))))
			continue;
		rc = p->cap->ops->inject ? p->cap->ops->inject(p->cap, p, buf, len, to_src) :
		     raw_send(buf, len);
		sent += rc == 0;
	}
	return sent;
}
