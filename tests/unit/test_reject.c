/* Reject replies (capture/reject.h): the RST and ICMP unreachable built for
 * a packet, byte by byte, with valid checksums. Sending needs root and a
 * link: tests/live/ips.sh. */
#include "test.h"
#include "capture/reject.h"

#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

static uint16_t rd16(const uint8_t *b)
{
	return (uint16_t)(b[0] << 8 | b[1]);
}

static uint32_t rd32(const uint8_t *b)
{
	return (uint32_t)rd16(b) << 16 | rd16(b + 2);
}

/* The one's-complement sum of what a receiver checks: 0xffff when right. */
static uint16_t sum(uint32_t s, const uint8_t *d, uint32_t len)
{
	for (uint32_t i = 0; i + 1 < len; i += 2)
		s += rd16(d + i);
	if (len & 1)
		s += (uint32_t)d[len - 1] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

/* 10.0.0.1:40000 -> 10.0.0.2:80 over IPv4 */
static void v4_packet(Packet *p, uint8_t *data, uint8_t proto)
{
	memset(p, 0, sizeof(*p));
	memset(data, 0, 64);
	p->data = data;
	p->ip_version = 4;
	p->src.family = p->dst.family = AF_INET;
	memcpy(p->src.a.u8, "\x0a\x00\x00\x01", 4);
	memcpy(p->dst.a.u8, "\x0a\x00\x00\x02", 4);
	p->sp = 40000;
	p->dp = 80;
	p->proto = proto;
	data[0] = 0x45;
	data[3] = 28;
	data[9] = proto;
	memcpy(data + 12, p->src.a.u8, 4);
	memcpy(data + 16, p->dst.a.u8, 4);
	p->l3 = data;
	p->l3_hlen = 20;
	p->l4 = data + 20;
	p->caplen = 28;
}

TEST(rst_answers_a_syn_with_ack_of_its_seq)
{
	uint8_t data[64], out[256];
	Packet p;
	uint32_t len;

	v4_packet(&p, data, IPPROTO_TCP);
	p.tcp_flags = 0x02;
	p.tcp_seq = 1000;
	len = reject_build(&p, 1, out, sizeof(out));
	CHECK_EQ(len, 40);
	CHECK_EQ(out[0], 0x45);
	CHECK_EQ(out[9], IPPROTO_TCP);
	CHECK(!memcmp(out + 12, "\x0a\x00\x00\x02", 4));  /* from the destination */
	CHECK(!memcmp(out + 16, "\x0a\x00\x00\x01", 4));
	CHECK_EQ(sum(0, out, 20), 0xffff);
	CHECK_EQ(rd16(out + 20), 80);
	CHECK_EQ(rd16(out + 22), 40000);
	CHECK_EQ(rd32(out + 24), 0);         /* no ACK in the SYN: seq 0 */
	CHECK_EQ(rd32(out + 28), 1001);      /* the SYN counts one */
	CHECK_EQ(out[33], 0x14);             /* RST ACK */
	/* pseudo header: addresses, protocol, TCP length */
	CHECK_EQ(sum(sum(IPPROTO_TCP + 20, out + 12, 8), out + 20, 20), 0xffff);
}

TEST(rst_to_source_continues_its_ack_and_to_dest_its_seq)
{
	uint8_t data[64], out[256];
	Packet p;

	v4_packet(&p, data, IPPROTO_TCP);
	p.tcp_flags = 0x18;                  /* PSH ACK */
	p.tcp_seq = 5000;
	p.tcp_ack = 9000;
	p.payload_len = 10;
	CHECK_EQ(reject_build(&p, 1, out, sizeof(out)), 40);
	CHECK_EQ(rd32(out + 24), 9000);
	CHECK_EQ(rd32(out + 28), 5010);
	CHECK_EQ(reject_build(&p, 0, out, sizeof(out)), 40);
	CHECK(!memcmp(out + 12, "\x0a\x00\x00\x01", 4));  /* as the sender */
	CHECK_EQ(rd16(out + 20), 40000);
	CHECK_EQ(rd16(out + 22), 80);
	CHECK_EQ(rd32(out + 24), 5010);
	CHECK_EQ(rd32(out + 28), 9000);
	CHECK_EQ(sum(sum(IPPROTO_TCP + 20, out + 12, 8), out + 20, 20), 0xffff);
}

TEST(no_reply_to_a_rst)
{
	uint8_t data[64], out[256];
	Packet p;

	v4_packet(&p, data, IPPROTO_TCP);
	p.tcp_flags = 0x04;
	CHECK_EQ(reject_build(&p, 1, out, sizeof(out)), 0);
}

TEST(udp_gets_icmp_port_unreachable_quoting_it)
{
	uint8_t data[64], out[256];
	Packet p;
	uint32_t len;

	v4_packet(&p, data, IPPROTO_UDP);
	data[20] = 0x9c;                     /* the UDP header's first bytes */
	len = reject_build(&p, 1, out, sizeof(out));
	CHECK_EQ(len, 20 + 8 + 28);
	CHECK_EQ(out[9], IPPROTO_ICMP);
	CHECK_EQ(rd16(out + 2), len);
	CHECK_EQ(out[20], 3);
	CHECK_EQ(out[21], 3);
	CHECK(!memcmp(out + 28, data, 28));
	CHECK_EQ(sum(0, out + 20, len - 20), 0xffff);
}

TEST(no_error_about_an_icmp_error)
{
	uint8_t data[64], out[256];
	Packet p;

	v4_packet(&p, data, IPPROTO_ICMP);
	p.icmp_type = 3;
	CHECK_EQ(reject_build(&p, 1, out, sizeof(out)), 0);
	p.icmp_type = 8;                     /* an echo request gets one */
	CHECK(reject_build(&p, 1, out, sizeof(out)) > 0);
}

TEST(ipv6_rst)
{
	uint8_t data[64], out[256];
	Packet p;

	memset(&p, 0, sizeof(p));
	p.data = data;
	p.ip_version = 6;
	p.src.family = p.dst.family = AF_INET6;
	p.src.a.u8[15] = 1;
	p.dst.a.u8[15] = 2;
	p.sp = 1;
	p.dp = 2;
	p.proto = IPPROTO_TCP;
	p.l4 = data;
	p.tcp_flags = 0x02;
	CHECK_EQ(reject_build(&p, 1, out, sizeof(out)), 60);
	CHECK_EQ(out[0] >> 4, 6);
	CHECK_EQ(out[6], IPPROTO_TCP);
	CHECK_EQ(out[23], 2);                /* from the destination */
	CHECK_EQ(sum(sum(IPPROTO_TCP + 20, out + 8, 32), out + 40, 20), 0xffff);
}

TEST(long_ipv6_headers_are_quoted_cut_to_fit)
{
	uint8_t data[600], out[256];
	Packet p;
	uint32_t len;

	memset(&p, 0, sizeof(p));
	memset(data, 0, sizeof(data));
	p.data = data;
	p.caplen = 500;
	p.ip_version = 6;
	p.src.family = p.dst.family = AF_INET6;
	p.proto = IPPROTO_UDP;
	p.l3 = data;
	p.l3_hlen = 400;               /* extension headers */
	data[0] = 0x60;
	len = reject_build(&p, 1, out, sizeof(out));
	CHECK_EQ(len, 256);
	CHECK_EQ(out[40], 1);          /* ICMPv6 destination unreachable */
	CHECK_EQ(out[41], 4);          /* port unreachable */
	CHECK_EQ(rd16(out + 4), 256 - 40);
	CHECK_EQ(sum(sum(IPPROTO_ICMPV6 + 216, out + 8, 32), out + 40, 216), 0xffff);
}

/* Property: whatever the decoded fields say, the reply fits the buffer and
 * the bytes after it are untouched (the packet comes off the wire). */
TEST(reply_never_outgrows_its_buffer)
{
	static uint8_t data[2048];
	uint8_t out[256 + 16];
	uint32_t seed = 12345;

	for (int i = 0; i < 20000; i++) {
		Packet p;
		uint32_t len, off;

		memset(&p, 0, sizeof(p));
		seed = seed * 1103515245u + 12345u;
		p.data = data;
		p.caplen = seed % sizeof(data);
		off = p.caplen ? (seed >> 8) % p.caplen : 0;
		p.l3 = data + off;
		p.l3_hlen = (uint16_t)((seed >> 4) % 1200);
		p.ip_version = (seed & 1) ? 4 : 6;
		p.proto = (seed >> 3) & 1 ? IPPROTO_UDP : IPPROTO_ICMP;
		p.icmp_type = (uint8_t)(seed >> 16);
		memset(out, 0xa5, sizeof(out));
		len = reject_build(&p, (int)(seed >> 20) & 1, out, 256);
		CHECK(len <= 256);
		for (int k = 256; k < (int)sizeof(out); k++)
			CHECK_EQ(out[k], 0xa5);
	}
}
