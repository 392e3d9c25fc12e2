#include "test.h"
#include "decode-test-util.h"
#include "decode/ipv4.h"
#include "conf/conf.h"

#include <sys/socket.h>

TEST(event_names_round_trip)
{
	CHECK_STREQ(decode_event_name(DEV_IPV4_TRUNC_PKT), "ipv4.trunc_pkt");
	CHECK_EQ(decode_event_lookup("ipv4.trunc_pkt"), DEV_IPV4_TRUNC_PKT);
	CHECK_EQ(decode_event_lookup("tcp.opt_duplicate"), DEV_TCP_OPT_DUPLICATE);
	CHECK_EQ(decode_event_lookup("stream.3whs_ack_in_wrong_dir"), -1);
	CHECK_EQ(decode_event_lookup(NULL), -1);
	CHECK(decode_event_name(DEV_NONE) == NULL);
	CHECK(decode_event_name(DEV_MAX) == NULL);
	for (int i = 1; i < DEV_MAX; i++)
		CHECK_EQ(decode_event_lookup(decode_event_name(i)), i);
}

TEST(counters_use_suricata_names)
{
	struct tenv e;

	tenv_init(&e, CHECKSUM_AUTO);
	CHECK(counter_lookup("decoder.pkts") >= 0);
	CHECK(counter_lookup("decoder.vlan_qinqinq") >= 0);
	CHECK(counter_lookup("decoder.event.ipv4.trunc_pkt") >= 0);
	CHECK(counter_lookup("defrag.max_trackers_reached") >= 0);
	CHECK(counter_lookup("defrag.memuse") >= 0);
	tenv_free(&e);
}

TEST(eth_ipv4_tcp_fields)
{
	struct tenv e;
	uint8_t f[128];
	uint32_t n = frame_eth_ipv4_tcp(f, "hello", 5);
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	p = tdecode(&e, DLT_EN10MB, f, n);
	CHECK_EQ(p->ip_version, 4);
	CHECK_EQ(p->src.family, AF_INET);
	CHECK_EQ(ntohl(p->src.a.u32[0]), 0x0a000001);
	CHECK_EQ(ntohl(p->dst.a.u32[0]), 0x0a000002);
	CHECK_EQ(p->proto, 6);
	CHECK(PKT_IS_TCP(p));
	CHECK_EQ(p->sp, 1234);
	CHECK_EQ(p->dp, 80);
	CHECK_EQ(p->tcp_flags, 0x02);
	CHECK_EQ(p->tcp_seq, 1000);
	CHECK_EQ(p->tcp_ack, 2000);
	CHECK_EQ(p->tcp_wscale, 0xff);
	CHECK_EQ(p->payload_len, 5);
	CHECK(memcmp(p->payload, "hello", 5) == 0);
	CHECK_EQ(p->nevents, 0);
	CHECK(!(p->flags & (PKT_INVALID | PKT_IPV4_CSUM_BAD | PKT_L4_CSUM_BAD)));
	CHECK(p->flow_hash != 0);
	CHECK_EQ(tcount(&e, "decoder.pkts"), 1);
	CHECK_EQ(tcount(&e, "decoder.bytes"), n);
	CHECK_EQ(tcount(&e, "decoder.ethernet"), 1);
	CHECK_EQ(tcount(&e, "decoder.ipv4"), 1);
	CHECK_EQ(tcount(&e, "decoder.tcp"), 1);
	CHECK_EQ(tcount(&e, "decoder.max_pkt_size"), n);
	CHECK_EQ(tcount(&e, "decoder.avg_pkt_size"), n);
	tenv_free(&e);
}

TEST(ethernet_padding_not_payload)
{
	struct tenv e;
	uint8_t f[128] = { 0 };
	uint32_t n = frame_eth_ipv4_tcp(f, NULL, 0);
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	p = tdecode(&e, DLT_EN10MB, f, 60); /* padded to the Ethernet minimum */
	CHECK(n < 60);
	CHECK_EQ(p->payload_len, 0);
	CHECK(!(p->flags & PKT_L4_CSUM_BAD));
	tenv_free(&e);
}

TEST(ethernet_too_small_sets_event)
{
	struct tenv e;
	uint8_t f[14] = { 0 };
	Packet *p;

	tenv_init(&e, CHECKSUM_AUTO);
	p = tdecode(&e, DLT_EN10MB, f, 10);
	CHECK(has_event(p, "ethernet.pkt_too_small"));
	CHECK(p->flags & PKT_INVALID);
	CHECK_EQ(tcount(&e, "decoder.invalid"), 1);
	CHECK_EQ(tcount(&e, "decoder.event.ethernet.pkt_too_small"), 1);
	tenv_free(&e);
}

TEST(unknown_ethertype_counted)
{
	struct tenv e;
	uint8_t f[60] = { 0 };
	Packet *p;

	tenv_init(&e, CHECKSUM_AUTO);
	b_eth(f, 0x88cc);
	p = tdecode(&e, DLT_EN10MB, f, 60);
	CHECK_EQ(p->ip_version, 0);
	CHECK_EQ(tcount(&e, "decoder.unknown_ethertype"), 1);
	tenv_free(&e);
}

TEST(arp_counted_only)
{
	struct tenv e;
	uint8_t f[42] = { 0 };
	Packet *p;

	tenv_init(&e, CHECKSUM_AUTO);
	b_eth(f, 0x0806);
	p = tdecode(&e, DLT_EN10MB, f, 42);
	CHECK(p->flags & PKT_ARP);
	CHECK_EQ(p->ip_version, 0);
	CHECK_EQ(tcount(&e, "decoder.arp"), 1);
	tenv_free(&e);
}

/* eth + an ARP request for 10.0.0.2 from 10.0.0.1; hw, op and the sizes
 * as given; len bytes of ARP */
static uint32_t frame_arp(uint8_t *f, uint16_t hw, uint8_t hsize, uint16_t op, uint32_t len)
{
	static const uint8_t addrs[20] = { 2, 0, 0, 0, 0, 1, 10, 0, 0, 1,
					   0, 0, 0, 0, 0, 0, 10, 0, 0, 2 };
	uint8_t *a = f + 14;

	memset(f, 0, 14 + 28);
	b_eth(f, 0x0806);
	put16(a, hw);
	put16(a + 2, 0x0800);
	a[4] = hsize;
	a[5] = 4;
	put16(a + 6, op);
	memcpy(a + 8, addrs, sizeof(addrs));
	return 14 + len;
}

/* Ethernet/IPv4 ARP is read for eve "arp" (p->l3 at its header); another
 * hardware type or opcode is unsupported (an event, still valid); sizes
 * that contradict the types, or a cut packet, are invalid */
TEST(arp_ethernet_ipv4_read_others_flagged)
{
	struct tenv e;
	uint8_t f[64];
	Packet *p;

	tenv_init(&e, CHECKSUM_AUTO);
	p = tdecode(&e, DLT_EN10MB, f, frame_arp(f, 1, 6, 1, 28));
	CHECK(p->l3 != NULL && p->l3[7] == 1);
	CHECK_EQ(p->nevents, 0);
	CHECK(!(p->flags & PKT_INVALID));
	p = tdecode(&e, DLT_EN10MB, f, frame_arp(f, 6, 6, 1, 28));
	CHECK(p->l3 == NULL);
	CHECK(has_event(p, "arp.unsupported_hardware"));
	CHECK(!(p->flags & PKT_INVALID));
	p = tdecode(&e, DLT_EN10MB, f, frame_arp(f, 1, 6, 3, 28));
	CHECK(p->l3 == NULL);
	CHECK(has_event(p, "arp.unsupported_opcode"));
	p = tdecode(&e, DLT_EN10MB, f, frame_arp(f, 1, 8, 1, 28));
	CHECK(has_event(p, "arp.invalid_hardware_size"));
	CHECK(p->flags & PKT_INVALID);
	p = tdecode(&e, DLT_EN10MB, f, frame_arp(f, 1, 6, 2, 20));
	CHECK(has_event(p, "arp.invalid_pkt"));
	CHECK(p->l3 == NULL);
	p = tdecode(&e, DLT_EN10MB, f, frame_arp(f, 1, 6, 2, 6));
	CHECK(has_event(p, "arp.pkt_too_small"));
	tenv_free(&e);
}

/* Builds eth + n vlan tags + IPv4/UDP. */
static uint32_t frame_vlan(uint8_t *f, int ntags, uint16_t outer_type)
{
	uint32_t n = b_eth(f, ntags ? outer_type : 0x0800);
	uint8_t *ip;

	for (int i = 0; i < ntags; i++) {
		put16(f + n, (uint16_t)(100 + i));
		put16(f + n + 2, i + 1 < ntags ? 0x8100 : 0x0800);
		n += 4;
	}
	ip = f + n;
	b_ipv4(ip, 17, 8 + 4, 7, 0);
	return n + 20 + b_udp(ip, ip + 20, 53, 5353, "abcd", 4);
}

/* vlan.use-for-tracking: false: the ids are decoded and logged, but flows
 * and defrag do not key on them */
TEST(vlan_not_used_for_tracking)
{
	struct tenv e;
	DecodeConfig cfg = { 0 };
	uint8_t f[128];
	uint32_t n = frame_vlan(f, 2, 0x88a8);
	Packet *p;

	conf_deinit();
	CHECK_EQ(conf_set("vlan.use-for-tracking", "false"), 0);
	CHECK_EQ(decode_config_load(&cfg), 0);
	CHECK_EQ(cfg.vlan_for_tracking, 0);
	conf_deinit();
	tenv_init_cfg(&e, &cfg);
	p = tdecode(&e, DLT_EN10MB, f, n);
	CHECK_EQ(p->vlan_count, 2);
	CHECK_EQ(p->key_vlans, 0);
	tenv_free(&e);
	tenv_init(&e, CHECKSUM_ALL);
	p = tdecode(&e, DLT_EN10MB, f, n);
	CHECK_EQ(p->key_vlans, 2);
	tenv_free(&e);
}

TEST(vlan_qinq_two_ids)
{
	struct tenv e;
	uint8_t f[128];
	uint32_t n = frame_vlan(f, 2, 0x88a8);
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	p = tdecode(&e, DLT_EN10MB, f, n);
	CHECK_EQ(p->vlan_count, 2);
	CHECK_EQ(p->vlan_id[0], 100);
	CHECK_EQ(p->vlan_id[1], 101);
	CHECK(PKT_IS_UDP(p));
	CHECK_EQ(p->sp, 53);
	CHECK_EQ(tcount(&e, "decoder.vlan"), 1);
	CHECK_EQ(tcount(&e, "decoder.vlan_qinq"), 1);
	CHECK_EQ(tcount(&e, "decoder.udp"), 1);
	tenv_free(&e);
}

TEST(vlan_three_ids_then_too_many_layers)
{
	struct tenv e;
	uint8_t f[128];
	uint32_t n = frame_vlan(f, 3, 0x8100);
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	p = tdecode(&e, DLT_EN10MB, f, n);
	CHECK_EQ(p->vlan_count, 3);
	CHECK_EQ(p->vlan_id[2], 102);
	CHECK_EQ(tcount(&e, "decoder.vlan_qinqinq"), 1);
	CHECK(PKT_IS_UDP(p));
	n = frame_vlan(f, 4, 0x8100);
	p = tdecode(&e, DLT_EN10MB, f, n);
	CHECK(has_event(p, "vlan.too_many_layers"));
	CHECK(p->flags & PKT_INVALID);
	tenv_free(&e);
}

TEST(vlan_truncated_header_sets_event)
{
	struct tenv e;
	uint8_t f[16] = { 0 };
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	b_eth(f, 0x8100);
	p = tdecode(&e, DLT_EN10MB, f, 16);
	CHECK(has_event(p, "vlan.header_too_small"));
	tenv_free(&e);
}

TEST(null_loopback_both_byte_orders)
{
	struct tenv e;
	uint8_t f[128];
	uint8_t *ip = f + 4;
	uint32_t n;
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	b_ipv4(ip, 17, 12, 1, 0);
	n = 4 + 20 + b_udp(ip, ip + 20, 1, 2, "abcd", 4);
	memcpy(f, "\x02\x00\x00\x00", 4); /* little-endian writer */
	p = tdecode(&e, DLT_NULL, f, n);
	CHECK_EQ(p->ip_version, 4);
	CHECK(PKT_IS_UDP(p));
	memcpy(f, "\x00\x00\x00\x02", 4); /* network order (DLT_LOOP) */
	p = tdecode(&e, DLT_LOOP, f, n);
	CHECK_EQ(p->ip_version, 4);
	CHECK_EQ(tcount(&e, "decoder.null"), 2);

	/* IPv6 as AF_INET6 = 30 (Darwin) */
	b_ipv6(f + 4, 59, 0);
	memcpy(f, "\x1e\x00\x00\x00", 4);
	p = tdecode(&e, DLT_NULL, f, 44);
	CHECK_EQ(p->ip_version, 6);

	memcpy(f, "\x07\x00\x00\x00", 4);
	p = tdecode(&e, DLT_NULL, f, 44);
	CHECK(has_event(p, "ltnull.unsupported_type"));
	p = tdecode(&e, DLT_NULL, f, 3);
	CHECK(has_event(p, "ltnull.pkt_too_small"));
	tenv_free(&e);
}

TEST(raw_ipv4_and_ipv6_and_bad_version)
{
	struct tenv e;
	uint8_t f[128] = { 0 };
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	b_ipv4(f, 17, 12, 1, 0);
	b_udp(f, f + 20, 1, 2, "abcd", 4);
	p = tdecode(&e, DLT_RAW, f, 32);
	CHECK_EQ(p->ip_version, 4);
	p = tdecode(&e, 101, f, 32);
	CHECK_EQ(p->ip_version, 4);
	p = tdecode(&e, DLT_IPV4, f, 32);
	CHECK_EQ(p->ip_version, 4);
	CHECK_EQ(tcount(&e, "decoder.raw"), 3);
	b_ipv6(f, 59, 0);
	p = tdecode(&e, DLT_IPV6, f, 40);
	CHECK_EQ(p->ip_version, 6);
	f[0] = 0x50;
	p = tdecode(&e, DLT_RAW, f, 40);
	CHECK(has_event(p, "ipraw.invalid_ip_version"));
	CHECK(decode_datalink_supported(DLT_LINUX_SLL2));
	CHECK(!decode_datalink_supported(105));
	tenv_free(&e);
}

TEST(sll_and_sll2_decode_ipv4)
{
	struct tenv e;
	uint8_t f[128] = { 0 };
	uint8_t *ip;
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	put16(f + 14, 0x0800);
	ip = f + 16;
	b_ipv4(ip, 17, 12, 1, 0);
	b_udp(ip, ip + 20, 1, 2, "abcd", 4);
	p = tdecode(&e, DLT_LINUX_SLL, f, 16 + 32);
	CHECK(PKT_IS_UDP(p));
	CHECK_EQ(tcount(&e, "decoder.sll"), 1);
	p = tdecode(&e, DLT_LINUX_SLL, f, 10);
	CHECK(has_event(p, "sll.pkt_too_small"));

	memset(f, 0, sizeof(f));
	put16(f, 0x0800);
	ip = f + 20;
	b_ipv4(ip, 17, 12, 1, 0);
	b_udp(ip, ip + 20, 1, 2, "abcd", 4);
	p = tdecode(&e, DLT_LINUX_SLL2, f, 20 + 32);
	CHECK(PKT_IS_UDP(p));
	CHECK_EQ(tcount(&e, "decoder.sll2"), 1);
	p = tdecode(&e, DLT_LINUX_SLL2, f, 19);
	CHECK(has_event(p, "sll2.pkt_too_small"));
	tenv_free(&e);
}

TEST(ipv4_bad_ihl_sets_event)
{
	struct tenv e;
	uint8_t f[128];
	uint32_t n = frame_eth_ipv4_tcp(f, NULL, 0);
	Packet *p;

	tenv_init(&e, CHECKSUM_AUTO);
	f[14] = 0x44;
	p = tdecode(&e, DLT_EN10MB, f, n);
	CHECK(has_event(p, "ipv4.hlen_too_small"));
	CHECK(p->flags & PKT_INVALID);
	CHECK_EQ(p->ip_version, 0);
	tenv_free(&e);
}

TEST(ipv4_header_events)
{
	struct tenv e;
	uint8_t f[128];
	uint32_t n;
	Packet *p;

	tenv_init(&e, CHECKSUM_AUTO);
	n = frame_eth_ipv4_tcp(f, NULL, 0);
	p = tdecode(&e, DLT_EN10MB, f, 14 + 19);
	CHECK(has_event(p, "ipv4.pkt_too_small"));
	f[14] = 0x65;
	p = tdecode(&e, DLT_EN10MB, f, n);
	CHECK(has_event(p, "ipv4.wrong_ip_version"));
	f[14] = 0x45;
	put16(f + 16, 10);
	p = tdecode(&e, DLT_EN10MB, f, n);
	CHECK(has_event(p, "ipv4.iplen_smaller_than_hlen"));
	put16(f + 16, 100);
	p = tdecode(&e, DLT_EN10MB, f, n);
	CHECK(has_event(p, "ipv4.trunc_pkt"));
	CHECK_EQ(tcount(&e, "decoder.event.ipv4.trunc_pkt"), 1);
	tenv_free(&e);
}

/* IPv4 with options (padded to 4) + UDP. */
static uint32_t frame_ipv4_opts(uint8_t *f, const uint8_t *opts, uint32_t olen)
{
	uint32_t hl = 20 + olen;

	b_ipv4(f, 17, 8, 1, 0);
	f[0] = (uint8_t)(0x40 | (hl / 4));
	put16(f + 2, (uint16_t)(hl + 8));
	memcpy(f + 20, opts, olen);
	put16(f + 10, 0);
	put16(f + 10, t_fold(t_sum(0, f, hl)));
	memcpy(f + hl, "\x00\x01\x00\x02\x00\x08\x00\x00", 8);
	return hl + 8;
}

TEST(ipv4_options_parsed_into_bits)
{
	struct tenv e;
	uint8_t f[128];
	/* RR (len 7, ptr 4) + router alert + NOP + EOL */
	static const uint8_t o1[] = { 7, 7, 4, 0, 0, 0, 0, 148, 4, 0, 0, 1, 0 };
	uint8_t o[16] = { 0 };
	uint32_t n;
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	memcpy(o, o1, sizeof(o1));
	n = frame_ipv4_opts(f, o, 16);
	p = tdecode(&e, DLT_RAW, f, n);
	/* NOP and EOL are recorded too (ipopts:nop, ipopts:eol) */
	CHECK_EQ(p->ipopts, IPV4_OPT_RR | IPV4_OPT_RTRALT | IPV4_OPT_NOP | IPV4_OPT_EOL);
	CHECK_EQ(p->nevents, 0);
	CHECK(PKT_IS_UDP(p));
	CHECK(!(p->flags & PKT_IPV4_CSUM_BAD));
	tenv_free(&e);
}

TEST(ipv4_option_events)
{
	struct tenv e;
	uint8_t f[128];
	uint8_t o[8];
	uint32_t n;
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	/* option length past the header */
	memcpy(o, "\x44\x10\x05\x00\x00\x00\x00\x00", 8);
	n = frame_ipv4_opts(f, o, 8);
	p = tdecode(&e, DLT_RAW, f, n);
	CHECK(has_event(p, "ipv4.opt_invalid_len"));
	CHECK(p->flags & PKT_INVALID);
	/* timestamp with a pointer inside its own header */
	memcpy(o, "\x44\x08\x02\x00\x00\x00\x00\x00", 8);
	n = frame_ipv4_opts(f, o, 8);
	p = tdecode(&e, DLT_RAW, f, n);
	CHECK(has_event(p, "ipv4.opt_malformed"));
	/* two router alerts */
	memcpy(o, "\x94\x04\x00\x00\x94\x04\x00\x00", 8);
	n = frame_ipv4_opts(f, o, 8);
	p = tdecode(&e, DLT_RAW, f, n);
	CHECK(has_event(p, "ipv4.opt_duplicate"));
	CHECK(!(p->flags & PKT_INVALID));
	/* unknown option type */
	memcpy(o, "\x55\x04\x00\x00\x00\x00\x00\x00", 8);
	n = frame_ipv4_opts(f, o, 8);
	p = tdecode(&e, DLT_RAW, f, n);
	CHECK(has_event(p, "ipv4.opt_invalid"));
	/* an option type byte with no room for its length */
	memcpy(o, "\x01\x01\x01\x94", 4);
	n = frame_ipv4_opts(f, o, 4);
	p = tdecode(&e, DLT_RAW, f, n);
	CHECK(has_event(p, "ipv4.opt_eol_required"));
	tenv_free(&e);
}

static int count_event(const Packet *p, const char *name)
{
	int n = 0;

	for (int i = 0; i < p->nevents; i++)
		n += decode_event_lookup(name) == (int)p->events[i];
	return n;
}

/* suricata-verify bug-7414: a security option of length 2 (RFC 1108 wants
 * 11) is bad but the walk goes on, to an option whose length runs past the
 * area, which ends it: opt_invalid_len twice, once per option, and 12
 * bytes of options are not padded to 8 */
TEST(ipv4_bad_option_content_walk_goes_on)
{
	struct tenv e;
	uint8_t f[128];
	static const uint8_t o[12] = { 0x82, 0x02, 0xf1, 0x35, 0, 0, 0xde, 0xad, 0xbe, 0xef,
				       0xaa, 0x00 };
	uint32_t n;
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	n = frame_ipv4_opts(f, o, 12);
	p = tdecode(&e, DLT_RAW, f, n);
	CHECK_EQ(count_event(p, "ipv4.opt_invalid_len"), 2);
	CHECK_EQ(count_event(p, "ipv4.opt_pad_required"), 1);
	CHECK_EQ(p->nevents, 3);
	CHECK(p->flags & PKT_INVALID);
	CHECK_EQ(p->ipopts & IPV4_OPT_SEC, 0);
	CHECK_EQ(tcount(&e, "decoder.event.ipv4.opt_invalid_len"), 2);
	tenv_free(&e);
}

/* a well-formed security option (11 bytes) is recorded; options of 8
 * bytes need no padding event */
TEST(ipv4_security_option_of_11_bytes)
{
	struct tenv e;
	uint8_t f[128];
	static const uint8_t o[16] = { 0x82, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0 };
	uint32_t n;
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	n = frame_ipv4_opts(f, o, 16);
	p = tdecode(&e, DLT_RAW, f, n);
	CHECK_EQ(p->ipopts, IPV4_OPT_SEC | IPV4_OPT_NOP | IPV4_OPT_EOL);
	CHECK_EQ(p->nevents, 0);
	CHECK(!(p->flags & PKT_INVALID));
	tenv_free(&e);
}

TEST(ipv4_bad_header_checksum_flagged_unless_none)
{
	struct tenv e;
	uint8_t f[128];
	uint32_t n = frame_eth_ipv4_tcp(f, NULL, 0);
	Packet *p;

	f[14 + 10] ^= 0xff;
	tenv_init(&e, CHECKSUM_AUTO);
	p = tdecode(&e, DLT_EN10MB, f, n);
	CHECK(p->flags & PKT_IPV4_CSUM_BAD);
	CHECK(!(p->flags & PKT_INVALID)); /* Suricata flags, never drops */
	CHECK(PKT_IS_TCP(p));
	tenv_free(&e);
	tenv_init(&e, CHECKSUM_NONE);
	p = tdecode(&e, DLT_EN10MB, f, n);
	CHECK(!(p->flags & PKT_IPV4_CSUM_BAD));
	tenv_free(&e);
}

TEST(tcp_bad_checksum_flagged_only_when_validating)
{
	struct tenv e;
	uint8_t f[128];
	uint32_t n = frame_eth_ipv4_tcp(f, "data", 4);
	Packet *p;

	f[n - 1] ^= 0x55;
	tenv_init(&e, CHECKSUM_ALL);
	p = tdecode(&e, DLT_EN10MB, f, n);
	CHECK(p->flags & PKT_L4_CSUM_BAD);
	CHECK(!(p->flags & PKT_IPV4_CSUM_BAD));
	tenv_free(&e);
	tenv_init(&e, CHECKSUM_NONE);
	p = tdecode(&e, DLT_EN10MB, f, n);
	CHECK(!(p->flags & PKT_L4_CSUM_BAD));
	tenv_free(&e);
}

TEST(tcp_options_parsed)
{
	struct tenv e;
	uint8_t f[128];
	static const uint8_t opts[] = {
		2, 4, 0x05, 0xb4,           /* MSS 1460 */
		1, 3, 3, 7,                 /* NOP, WS 7 */
		4, 2, 1, 1,                 /* SACK permitted, NOP NOP */
		8, 10, 0, 0, 0, 1, 0, 0, 0, 2, /* TS 1 2 */
		1, 1,
	};
	uint8_t *ip = f;
	uint32_t n;
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	b_ipv4(ip, 6, 20 + sizeof(opts), 1, 0);
	n = 20 + b_tcp(ip, ip + 20, 1, 2, 0x02, opts, sizeof(opts), NULL, 0);
	p = tdecode(&e, DLT_RAW, f, n);
	CHECK_EQ(p->tcp_mss, 1460);
	CHECK_EQ(p->tcp_wscale, 7);
	CHECK_EQ(p->tcp_sack_permitted, 1);
	CHECK_EQ(p->tcp_has_ts, 1);
	CHECK_EQ(p->tcp_tsval, 1);
	CHECK_EQ(p->tcp_tsecr, 2);
	CHECK_EQ(p->l4_hlen, 20 + sizeof(opts));
	CHECK_EQ(p->nevents, 0);
	CHECK(!(p->flags & PKT_L4_CSUM_BAD));
	tenv_free(&e);
}

TEST(tcp_option_events)
{
	struct tenv e;
	uint8_t f[128];
	static const uint8_t dup[] = { 2, 4, 1, 0, 2, 4, 1, 0 };
	static const uint8_t badlen[] = { 3, 4, 1, 0, 0, 0, 0, 0 };
	static const uint8_t overrun[] = { 1, 1, 8, 10, 0, 0, 0, 0 };
	static const uint8_t empty_sack[] = { 1, 1, 5, 2 };
	static const uint8_t odd_sack[] = { 1, 1, 5, 3, 0, 1, 1, 1 };
	uint32_t n;
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	b_ipv4(f, 6, 28, 1, 0);
	n = 20 + b_tcp(f, f + 20, 1, 2, 0x02, dup, 8, NULL, 0);
	p = tdecode(&e, DLT_RAW, f, n);
	CHECK(has_event(p, "tcp.opt_duplicate"));
	CHECK_EQ(p->tcp_mss, 256);
	n = 20 + b_tcp(f, f + 20, 1, 2, 0x02, badlen, 8, NULL, 0);
	p = tdecode(&e, DLT_RAW, f, n);
	CHECK(has_event(p, "tcp.opt_invalid_len"));
	CHECK_EQ(p->tcp_wscale, 0xff);
	n = 20 + b_tcp(f, f + 20, 1, 2, 0x02, overrun, 8, NULL, 0);
	p = tdecode(&e, DLT_RAW, f, n);
	CHECK(has_event(p, "tcp.opt_invalid_len"));
	/* an empty SACK (kind 5, length 2) is valid for Suricata; 3 is not */
	b_ipv4(f, 6, 24, 1, 0);
	n = 20 + b_tcp(f, f + 20, 1, 2, 0x10, empty_sack, 4, NULL, 0);
	p = tdecode(&e, DLT_RAW, f, n);
	CHECK_EQ(p->l4_hlen, 24);
	CHECK_EQ(p->nevents, 0);
	b_ipv4(f, 6, 28, 1, 0);
	n = 20 + b_tcp(f, f + 20, 1, 2, 0x10, odd_sack, 8, NULL, 0);
	p = tdecode(&e, DLT_RAW, f, n);
	CHECK(has_event(p, "tcp.opt_invalid_len"));
	tenv_free(&e);
}

TEST(tcp_header_events)
{
	struct tenv e;
	uint8_t f[128];
	uint32_t n;
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	b_ipv4(f, 6, 10, 1, 0);
	p = tdecode(&e, DLT_RAW, f, 30);
	CHECK(has_event(p, "tcp.pkt_too_small"));
	b_ipv4(f, 6, 20, 1, 0);
	n = 20 + b_tcp(f, f + 20, 1, 2, 0x02, NULL, 0, NULL, 0);
	f[32] = 0x30; /* data offset 3 */
	p = tdecode(&e, DLT_RAW, f, n);
	CHECK(has_event(p, "tcp.invalid_optlen"));
	f[32] = 0xf0; /* data offset 15 in a 20-byte segment */
	p = tdecode(&e, DLT_RAW, f, n);
	CHECK(has_event(p, "tcp.hlen_too_small"));
	CHECK(p->flags & PKT_INVALID);
	CHECK(p->l4 == NULL);
	tenv_free(&e);
}

TEST(udp_events_and_zero_checksum)
{
	struct tenv e;
	uint8_t f[128];
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	b_ipv4(f, 17, 12, 1, 0);
	b_udp(f, f + 20, 1, 2, "abcd", 4);
	put16(f + 26, 0);
	p = tdecode(&e, DLT_RAW, f, 32);
	CHECK(!(p->flags & PKT_L4_CSUM_BAD));
	CHECK_EQ(p->payload_len, 4);
	put16(f + 26, 1);
	p = tdecode(&e, DLT_RAW, f, 32);
	CHECK(p->flags & PKT_L4_CSUM_BAD);

	put16(f + 24, 20);
	p = tdecode(&e, DLT_RAW, f, 32);
	CHECK(has_event(p, "udp.pkt_too_small"));
	put16(f + 24, 4);
	p = tdecode(&e, DLT_RAW, f, 32);
	CHECK(has_event(p, "udp.len_invalid"));
	put16(f + 24, 10);
	p = tdecode(&e, DLT_RAW, f, 32);
	CHECK(has_event(p, "udp.hlen_invalid"));
	b_ipv4(f, 17, 4, 1, 0);
	p = tdecode(&e, DLT_RAW, f, 24);
	CHECK(has_event(p, "udp.hlen_too_small"));
	tenv_free(&e);
}

static uint32_t frame_icmp(uint8_t *f, uint8_t type, uint8_t code, const uint8_t *body,
			   uint32_t blen)
{
	uint8_t *ic = f + 20;

	b_ipv4(f, 1, (uint16_t)(8 + blen), 1, 0);
	memset(ic, 0, 8);
	ic[0] = type;
	ic[1] = code;
	put16(ic + 4, 0x1234);
	put16(ic + 6, 7);
	if (blen)
		memcpy(ic + 8, body, blen);
	put16(ic + 2, t_fold(t_sum(0, ic, 8 + blen)));
	return 28 + blen;
}

TEST(icmpv4_echo_and_events)
{
	struct tenv e;
	uint8_t f[128], inner[28];
	uint32_t n;
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	n = frame_icmp(f, 8, 0, NULL, 0);
	p = tdecode(&e, DLT_RAW, f, n);
	CHECK_EQ(p->icmp_type, 8);
	CHECK_EQ(p->icmp_id, 0x1234);
	CHECK_EQ(p->icmp_seq, 7);
	CHECK_EQ(p->nevents, 0);
	CHECK(!(p->flags & PKT_L4_CSUM_BAD));
	n = frame_icmp(f, 8, 3, NULL, 0);
	p = tdecode(&e, DLT_RAW, f, n);
	CHECK(has_event(p, "icmpv4.unknown_code"));
	n = frame_icmp(f, 77, 0, NULL, 0);
	p = tdecode(&e, DLT_RAW, f, n);
	CHECK(has_event(p, "icmpv4.unknown_type"));
	/* unreachable quoting a truncated header, then a non-IPv4 one */
	n = frame_icmp(f, 3, 1, (const uint8_t *)"abcd", 4);
	p = tdecode(&e, DLT_RAW, f, n);
	CHECK(has_event(p, "icmpv4.ipv4_trunc_pkt"));
	b_ipv4(inner, 17, 8, 9, 0);
	inner[0] = 0x65;
	n = frame_icmp(f, 3, 1, inner, 28);
	p = tdecode(&e, DLT_RAW, f, n);
	CHECK(has_event(p, "icmpv4.ipv4_unknown_ver"));
	/* the packet still describes the outer addresses */
	CHECK_EQ(ntohl(p->src.a.u32[0]), 0x0a000001);
	b_ipv4(f, 1, 4, 1, 0);
	p = tdecode(&e, DLT_RAW, f, 24);
	CHECK(has_event(p, "icmpv4.pkt_too_small"));
	tenv_free(&e);
}

TEST(ipv6_ext_chain_to_tcp)
{
	struct tenv e;
	uint8_t f[256] = { 0 };
	uint8_t *x = f + 40;
	uint32_t n;
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	/* hop-by-hop (router alert) -> routing type 2 -> dst opts (PadN) -> TCP */
	x[0] = 43; x[1] = 0; x[2] = 5; x[3] = 2; x[4] = 0; x[5] = 0; x[6] = 0; x[7] = 0;
	x[8] = 60; x[9] = 0; x[10] = 2; x[11] = 0;
	x[16] = 6; x[17] = 0; x[18] = 0x1e; x[19] = 4;
	b_ipv6(f, 0, 24 + 20);
	n = 40 + 24 + b_tcp(f, f + 64, 1, 443, 0x02, NULL, 0, NULL, 0);
	p = tdecode(&e, DLT_RAW, f, n);
	CHECK_EQ(p->ip_version, 6);
	CHECK(PKT_IS_TCP(p));
	CHECK_EQ(p->dp, 443);
	CHECK_EQ(p->l3_hlen, 64);
	CHECK_EQ(p->src.family, AF_INET6);
	CHECK_EQ(p->src.a.u8[15], 1);
	CHECK_EQ(p->nevents, 0);
	CHECK(!(p->flags & PKT_L4_CSUM_BAD));
	CHECK_EQ(tcount(&e, "decoder.ipv6"), 1);
	tenv_free(&e);
}

TEST(ipv6_exthdr_events)
{
	struct tenv e;
	uint8_t f[256] = { 0 };
	uint8_t *x = f + 40;
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	/* hop-by-hop of only padding, twice, then none with data after */
	b_ipv6(f, 0, 24);
	x[0] = 0; x[1] = 0; x[2] = 1; x[3] = 4;
	x[8] = 59; x[9] = 0; x[10] = 1; x[11] = 0;
	p = tdecode(&e, DLT_RAW, f, 64);
	CHECK(has_event(p, "ipv6.hopopts_only_padding"));
	CHECK(has_event(p, "ipv6.exthdr_dupl_hh"));
	CHECK(has_event(p, "ipv6.zero_len_padn"));
	CHECK(has_event(p, "ipv6.data_after_none_header"));
	/* routing type 0 */
	memset(x, 0, 32);
	b_ipv6(f, 43, 8);
	x[0] = 59; x[1] = 0; x[2] = 0;
	p = tdecode(&e, DLT_RAW, f, 48);
	CHECK(has_event(p, "ipv6.rh_type_0"));
	/* extension header longer than the packet */
	x[1] = 4;
	p = tdecode(&e, DLT_RAW, f, 48);
	CHECK(has_event(p, "ipv6.trunc_exthdr"));
	/* payload length past the capture */
	b_ipv6(f, 59, 100);
	p = tdecode(&e, DLT_RAW, f, 48);
	CHECK(has_event(p, "ipv6.trunc_pkt"));
	p = tdecode(&e, DLT_RAW, f, 30);
	CHECK(has_event(p, "ipv6.pkt_too_small"));
	/* unknown next header */
	b_ipv6(f, 200, 0);
	p = tdecode(&e, DLT_RAW, f, 40);
	CHECK(has_event(p, "ipv6.unknown_next_header"));
	tenv_free(&e);
}

TEST(ipv6_useless_fh_then_nothing_is_trunc_exthdr)
{
	struct tenv e;
	uint8_t f[64] = { 0 };
	uint8_t *x = f + 40;
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	/* atomic fragment naming TCP, and no byte of TCP after it */
	b_ipv6(f, 44, 8);
	x[0] = 6;
	p = tdecode(&e, DLT_RAW, f, 48);
	CHECK(has_event(p, "ipv6.exthdr_useless_fh"));
	CHECK(has_event(p, "ipv6.trunc_exthdr"));
	CHECK(!has_event(p, "tcp.pkt_too_small"));
	/* one byte is not enough either */
	b_ipv6(f, 44, 9);
	x[0] = 58;
	p = tdecode(&e, DLT_RAW, f, 49);
	CHECK(has_event(p, "ipv6.trunc_exthdr"));
	CHECK(!has_event(p, "icmpv6.pkt_too_small"));
	/* no-next-header right after is fine */
	b_ipv6(f, 44, 8);
	x[0] = 59;
	p = tdecode(&e, DLT_RAW, f, 48);
	CHECK(!has_event(p, "ipv6.trunc_exthdr"));
	tenv_free(&e);
}

TEST(icmpv6_echo_and_mld_hop_limit)
{
	struct tenv e;
	uint8_t f[128] = { 0 };
	uint8_t *ic = f + 40;
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	b_ipv6(f, 58, 8);
	ic[0] = 128;
	put16(ic + 4, 9);
	put16(ic + 6, 3);
	put16(ic + 2, t_l4sum(f, 58, ic, 8));
	p = tdecode(&e, DLT_RAW, f, 48);
	CHECK_EQ(p->icmp_type, 128);
	CHECK_EQ(p->icmp_id, 9);
	CHECK_EQ(p->icmp_seq, 3);
	CHECK(!(p->flags & PKT_L4_CSUM_BAD));
	CHECK_EQ(p->nevents, 0);
	CHECK_EQ(tcount(&e, "decoder.icmpv6"), 1);
	ic[0] = 130; /* MLD query with hop limit 64 */
	p = tdecode(&e, DLT_RAW, f, 48);
	CHECK(has_event(p, "icmpv6.mld_message_with_invalid_hl"));
	CHECK(p->flags & PKT_L4_CSUM_BAD);
	ic[0] = 1; /* unreachable quoting nothing */
	p = tdecode(&e, DLT_RAW, f, 48);
	CHECK(has_event(p, "icmpv6.ipv6_trunc_pkt"));
	ic[0] = 100;
	p = tdecode(&e, DLT_RAW, f, 48);
	CHECK(has_event(p, "icmpv6.experimentation_type"));
	tenv_free(&e);
}

/* IPv4/GRE(+key)/IPv4/UDP */
TEST(gre_ipv4_inner_tuple)
{
	struct tenv e;
	uint8_t f[256];
	uint8_t *outer = f + 14, *gre = outer + 20, *inner = gre + 8;
	uint32_t n;
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	b_eth(f, 0x0800);
	b_ipv4(inner, 17, 12, 5, 0);
	put32(inner + 12, 0xc0a80001);
	put32(inner + 16, 0xc0a80002);
	put16(inner + 10, 0);
	put16(inner + 10, t_fold(t_sum(0, inner, 20)));
	b_udp(inner, inner + 20, 1111, 2222, "abcd", 4);
	put16(gre, 0x2000);
	put16(gre + 2, 0x0800);
	put32(gre + 4, 42);
	b_ipv4(outer, 47, 8 + 32, 1, 0);
	n = 14 + 20 + 8 + 32;
	p = tdecode(&e, DLT_EN10MB, f, n);
	/* Suricata's model: the GRE carrier gets no flow; the inner packet is a
	 * pseudo packet of its own, one level deeper, in DLT_RAW. */
	CHECK(p->flags & PKT_NO_FLOW);
	CHECK_EQ(p->proto, 47);
	CHECK(p->flags & PKT_HAS_ETH);
	p = tinner(p);
	CHECK(p->flags & PKT_TUNNEL);
	CHECK_EQ(p->recursion_level, 1);
	CHECK_EQ(p->datalink, DLT_RAW);
	CHECK_EQ(p->pkt_src, PKT_SRC_GRE_TUNNEL);
	CHECK_EQ(p->root.proto, 47);
	CHECK_EQ(p->caplen, 32);
	CHECK_EQ(ntohl(p->src.a.u32[0]), 0xc0a80001);
	CHECK_EQ(ntohl(p->dst.a.u32[0]), 0xc0a80002);
	CHECK(PKT_IS_UDP(p));
	CHECK_EQ(p->sp, 1111);
	CHECK_EQ(p->dp, 2222);
	CHECK_EQ(tcount(&e, "decoder.gre"), 1);
	CHECK_EQ(tcount(&e, "decoder.ipv4"), 2);
	CHECK(!(p->flags & PKT_INVALID));

	put16(gre, 0x0002); /* version 2 */
	p = tdecode(&e, DLT_EN10MB, f, n);
	CHECK(has_event(p, "gre.wrong_version"));
	put16(gre, 0x0100); /* recursion control */
	p = tdecode(&e, DLT_EN10MB, f, n);
	CHECK(has_event(p, "gre.version0_recur"));
	put16(gre, 0xb000); /* C, K, S: header 16 > what is there */
	b_ipv4(outer, 47, 10, 1, 0);
	p = tdecode(&e, DLT_EN10MB, f, 14 + 20 + 10);
	CHECK(has_event(p, "gre.version0_hdr_too_big"));
	tenv_free(&e);
}

TEST(gre_v1_pptp_ppp_ipv4)
{
	struct tenv e;
	uint8_t f[256];
	uint8_t *outer = f, *gre = f + 20, *ppp = gre + 12, *inner = ppp + 4;
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	b_ipv4(inner, 17, 12, 5, 0);
	b_udp(inner, inner + 20, 1, 2, "abcd", 4);
	put16(gre, 0x3001); /* K, S, version 1 */
	put16(gre + 2, 0x880b);
	put16(gre + 4, 36);
	put16(gre + 6, 9);
	put32(gre + 8, 1);
	ppp[0] = 0xff; ppp[1] = 0x03; put16(ppp + 2, 0x0021);
	b_ipv4(outer, 47, 12 + 4 + 32, 1, 0);
	p = tinner(tdecode(&e, DLT_RAW, f, 20 + 12 + 4 + 32));
	CHECK(PKT_IS_UDP(p));
	CHECK(p->flags & PKT_TUNNEL);
	CHECK_EQ(tcount(&e, "decoder.ppp"), 1);
	put16(gre + 2, 0x0800);
	p = tdecode(&e, DLT_RAW, f, 20 + 12 + 4 + 32);
	CHECK(has_event(p, "gre.version1_wrong_protocol"));
	put16(gre, 0x1001);
	put16(gre + 2, 0x880b);
	p = tdecode(&e, DLT_RAW, f, 20 + 12 + 4 + 32);
	CHECK(has_event(p, "gre.version1_no_key"));
	tenv_free(&e);
}

TEST(ip_in_ip_tunnels_reach_innermost)
{
	struct tenv e;
	uint8_t f[256] = { 0 };
	uint8_t *in6, *in4;
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	/* 6in4: IPv4(41) / IPv6 / UDP */
	in6 = f + 20;
	b_ipv6(in6, 17, 12);
	b_udp(in6, in6 + 40, 7, 8, "abcd", 4);
	b_ipv4(f, 41, 52, 1, 0);
	p = tdecode(&e, DLT_RAW, f, 72);
	/* Suricata's model: the outer packet keeps its layers (and gets its own
	 * flow); the inner packet follows as a pseudo packet. */
	CHECK_EQ(p->ip_version, 4);
	CHECK_EQ(p->proto, 41);
	CHECK(p->pseudo != NULL);
	CHECK(p->pseudo->flags & PKT_PSEUDO);
	CHECK_EQ(p->pseudo->pcap_cnt, p->pcap_cnt);
	p = tinner(p);
	CHECK_EQ(p->ip_version, 6);
	CHECK(p->flags & PKT_TUNNEL);
	CHECK(PKT_IS_UDP(p));
	CHECK(!(p->flags & PKT_L4_CSUM_BAD));
	CHECK_EQ(tcount(&e, "decoder.ipv6_in_ipv4"), 1);

	/* 4in6: IPv6(4) / IPv4 / UDP */
	in4 = f + 40;
	b_ipv4(in4, 17, 12, 1, 0);
	b_udp(in4, in4 + 20, 9, 10, "abcd", 4);
	b_ipv6(f, 4, 32);
	p = tinner(tdecode(&e, DLT_RAW, f, 72));
	CHECK_EQ(p->ip_version, 4);
	CHECK_EQ(p->sp, 9);
	CHECK(p->flags & PKT_TUNNEL);
	CHECK_EQ(tcount(&e, "decoder.ipv4_in_ipv6"), 1);
	in4[0] = 0x65;
	p = tinner(tdecode(&e, DLT_RAW, f, 72));
	CHECK(has_event(p, "ipv6.ipv4_in_ipv6_wrong_version"));

	/* 4in4 */
	b_ipv4(f + 20, 17, 12, 1, 0);
	b_udp(f + 20, f + 40, 11, 12, "abcd", 4);
	b_ipv4(f, 4, 32, 1, 0);
	p = tinner(tdecode(&e, DLT_RAW, f, 52));
	CHECK_EQ(p->sp, 11);
	CHECK_EQ(tcount(&e, "decoder.ipv4_in_ipv4"), 1);

	/* 6in6 */
	b_ipv6(f + 40, 17, 12);
	b_udp(f + 40, f + 80, 13, 14, "abcd", 4);
	b_ipv6(f, 41, 52);
	p = tinner(tdecode(&e, DLT_RAW, f, 92));
	CHECK_EQ(p->sp, 13);
	CHECK_EQ(tcount(&e, "decoder.ipv6_in_ipv6"), 1);
	tenv_free(&e);
}

TEST(pppoe_session_ipv4_and_discovery)
{
	struct tenv e;
	uint8_t f[256] = { 0 };
	uint8_t *pp = f + 14, *ip = pp + 8;
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	b_eth(f, 0x8864);
	pp[0] = 0x11;
	put16(pp + 2, 1);
	put16(pp + 4, 2 + 32);
	put16(pp + 6, 0x0021);
	b_ipv4(ip, 17, 12, 1, 0);
	b_udp(ip, ip + 20, 1, 2, "abcd", 4);
	p = tdecode(&e, DLT_EN10MB, f, 14 + 8 + 32 + 6);
	CHECK(PKT_IS_UDP(p));
	CHECK_EQ(tcount(&e, "decoder.pppoe"), 1);
	CHECK_EQ(tcount(&e, "decoder.ppp"), 1);
	pp[1] = 0x09;
	p = tdecode(&e, DLT_EN10MB, f, 14 + 8 + 32);
	CHECK(has_event(p, "pppoe.wrong_code"));
	pp[1] = 0;
	put16(pp + 6, 0x4242);
	p = tdecode(&e, DLT_EN10MB, f, 14 + 8 + 32);
	CHECK(has_event(p, "ppp.unsup_proto"));
	p = tdecode(&e, DLT_EN10MB, f, 14 + 5);
	CHECK(has_event(p, "pppoe.pkt_too_small"));

	b_eth(f, 0x8863);
	pp[1] = 0x09; /* PADI with a tag running past the end */
	put16(pp + 4, 6);
	put16(pp + 6, 0x0101);
	put16(pp + 8, 40);
	p = tdecode(&e, DLT_EN10MB, f, 14 + 12);
	CHECK(has_event(p, "pppoe.malformed_tags"));
	CHECK_EQ(p->ip_version, 0);
	tenv_free(&e);
}

TEST(mpls_stack_guesses_ip)
{
	struct tenv e;
	uint8_t f[256] = { 0 };
	uint8_t *m = f + 14, *ip = m + 8;
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	b_eth(f, 0x8847);
	put32(m, (100u << 12) | 64);
	put32(m + 4, (200u << 12) | 0x100 | 64);
	b_ipv4(ip, 17, 12, 1, 0);
	b_udp(ip, ip + 20, 1, 2, "abcd", 4);
	p = tdecode(&e, DLT_EN10MB, f, 14 + 8 + 32);
	CHECK(PKT_IS_UDP(p));
	CHECK_EQ(tcount(&e, "decoder.mpls"), 1);
	put32(m + 4, (3u << 12) | 0x100 | 64);
	p = tdecode(&e, DLT_EN10MB, f, 14 + 8 + 32);
	CHECK(has_event(p, "mpls.bad_label_implicit_null"));
	put32(m + 4, (200u << 12) | 0x100 | 64);
	ip[0] = 0x95;
	p = tdecode(&e, DLT_EN10MB, f, 14 + 8 + 32);
	CHECK(has_event(p, "mpls.unknown_payload_type"));
	p = tdecode(&e, DLT_EN10MB, f, 14 + 6);
	CHECK(has_event(p, "mpls.header_too_small"));
	tenv_free(&e);
}

TEST(deep_nesting_stops_at_layer_limit)
{
	struct tenv e;
	uint8_t f[2048];
	uint32_t n = 0;
	Packet *p;

	tenv_init(&e, CHECKSUM_NONE);
	/* 30 nested IPv4-in-IPv4 headers */
	for (int i = 0; i < 30; i++)
		n += b_ipv4(f + n, 4, (uint16_t)((30 - i - 1) * 20), 1, 0);
	p = tinner(tdecode(&e, DLT_RAW, f, n));
	CHECK(p->flags & PKT_INVALID);
	CHECK_EQ(tcount(&e, "decoder.too_many_layers"), 1);
	tenv_free(&e);
}

TEST(packet_reset_keeps_buffer)
{
	Packet p;
	uint8_t buf[4];

	memset(&p, 0xaa, sizeof(p));
	p.data = buf;
	p.pool = buf;
	packet_reset(&p);
	CHECK(p.data == buf);
	CHECK(p.pool == buf);
	CHECK_EQ(p.flags, 0);
	CHECK_EQ(p.nevents, 0);
	CHECK(p.pseudo == NULL);
	CHECK_EQ(p.tcp_wscale, 0xff);
}

/* Every prefix of some valid frames must decode without reading past caplen
 * (run under ASan) and without crashing. */
TEST(truncations_never_crash)
{
	struct tenv e;
	uint8_t f[256], t[256];
	uint32_t lens[4];
	int dlts[4] = { DLT_EN10MB, DLT_EN10MB, DLT_RAW, DLT_RAW };
	uint8_t frames[4][256];

	tenv_init(&e, CHECKSUM_ALL);
	lens[0] = frame_eth_ipv4_tcp(frames[0], "GET / HTTP/1.0\r\n", 16);
	lens[1] = frame_vlan(frames[1], 2, 0x8100);
	memset(frames[2], 0, 256);
	{
		uint8_t *x = frames[2] + 40;

		x[0] = 44; x[1] = 0; x[2] = 1; x[3] = 4;
		x[8] = 17; x[10] = 0; x[11] = 1; put32(x + 12, 77);
		b_ipv6(frames[2], 0, 16 + 12);
		b_udp(frames[2], x + 16, 1, 2, "abcd", 4);
		lens[2] = 40 + 28;
	}
	lens[3] = frame_icmp(frames[3], 3, 1, frames[0] + 14, 28);
	for (int k = 0; k < 4; k++) {
		for (uint32_t len = 0; len <= lens[k]; len++) {
			memcpy(f, frames[k], lens[k]);
			/* copy into an exact-size heap buffer so ASan sees overreads */
			uint8_t *exact = malloc(len ? len : 1);

			memcpy(exact, f, len);
			packet_reset(&e.p);
			uint8_t *save = e.p.data;
			e.p.data = exact;
			e.p.caplen = e.p.wirelen = len;
			e.p.datalink = dlts[k];
			decode_packet(e.dt, &e.p);
			e.p.data = save;
			free(exact);
		}
	}
	(void)t;
	CHECK(tcount(&e, "decoder.pkts") > 100);
	tenv_free(&e);
}

/* Every capture in the shared corpus decodes with no sanitizer report.
 * DECODE_PCAP_DIR overrides the folder; skipped when it is absent. */
#include <dirent.h>
#include <pcap/pcap.h>

static uint64_t decode_pcap_file(struct tenv *e, const char *path)
{
	char err[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *d;
	uint64_t n = 0;
	pcap_t *pc = pcap_open_offline(path, err);
	int dlt;

	if (!pc)
		return 0;
	dlt = pcap_datalink(pc);
	if (!decode_datalink_supported(dlt)) {
		pcap_close(pc);
		return 0;
	}
	while (pcap_next_ex(pc, &h, &d) == 1) {
		uint32_t len = h->caplen > PACKET_DATA_MAX ? PACKET_DATA_MAX : h->caplen;
		/* exact-size copy so ASan sees any read past caplen */
		uint8_t *exact = malloc(len ? len : 1);
		uint8_t *save;

		memcpy(exact, d, len);
		packet_reset(&e->p);
		save = e->p.data;
		e->p.data = exact;
		e->p.caplen = len;
		e->p.wirelen = h->len;
		e->p.datalink = dlt;
		e->p.ts = h->ts;
		decode_packet(e->dt, &e->p);
		/* pseudo packets return to the (test) pool */
		e->used = 0;
		e->p.data = save;
		free(exact);
		n++;
	}
	pcap_close(pc);
	return n;
}

static uint64_t decode_pcap_dir(struct tenv *e, const char *dir)
{
	DIR *dh = opendir(dir);
	struct dirent *de;
	uint64_t n = 0;
	char path[4096];

	if (!dh)
		return 0;
	while ((de = readdir(dh))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (strstr(de->d_name, ".pcap"))
			n += decode_pcap_file(e, path);
		else
			n += decode_pcap_dir(e, path);
	}
	closedir(dh);
	return n;
}

TEST(shared_captures_decode_cleanly)
{
	struct tenv e;
	const char *dir = getenv("DECODE_PCAP_DIR");
	uint64_t n;

	if (!dir)
		dir = "/work/shared/data/pcaps";
	tenv_init(&e, CHECKSUM_AUTO);
	n = decode_pcap_dir(&e, dir);
	if (n == 0) {
		printf("  (no captures under %s: skipped)\n", dir);
		tenv_free(&e);
		return;
	}
	CHECK_EQ(tcount(&e, "decoder.pkts"), n);
	CHECK(tcount(&e, "decoder.ipv4") > 0);
	CHECK(tcount(&e, "decoder.ipv6") > 0);
	CHECK(tcount(&e, "decoder.tcp") > 0);
	tenv_free(&e);
}

static void tenv_init_tunnels(struct tenv *e)
{
	DecodeConfig cfg = { 0 };

	cfg.checksum = CHECKSUM_ALL;
	cfg.defrag.memcap = 32u << 20;
	cfg.defrag.timeout_s = 60;
	cfg.defrag.max_frags = 65535;
	cfg.defrag.trackers = 65535;
	cfg.vxlan.enabled = 1;
	cfg.vxlan.nports = 1;
	cfg.vxlan.ports[0] = 4789;
	cfg.geneve.enabled = 1;
	cfg.geneve.nports = 1;
	cfg.geneve.ports[0] = 6081;
	cfg.recursion_for_tracking = 1;
	tenv_init_cfg(e, &cfg);
}

/* Eth / IPv4 / UDP to port dp carrying hdr (hlen bytes) + inner Eth / IPv4 /
 * UDP 5000->53 "abcd". Returns the frame length. */
static uint32_t b_udp_encap(uint8_t *f, uint16_t dp, const uint8_t *hdr, uint32_t hlen)
{
	uint8_t *ip = f + 14, *udp = ip + 20, *in = udp + 8 + hlen;
	uint8_t *iip = in + 14;
	uint32_t inner;

	b_eth(f, 0x0800);
	memcpy(udp + 8, hdr, hlen);
	b_eth(in, 0x0800);
	b_ipv4(iip, 17, 12, 7, 0);
	put32(iip + 12, 0xc0a80001);
	put32(iip + 16, 0xc0a80002);
	put16(iip + 10, 0);
	put16(iip + 10, t_fold(t_sum(0, iip, 20)));
	b_udp(iip, iip + 20, 5000, 53, "abcd", 4);
	inner = 14 + 20 + 12;
	b_ipv4(ip, 17, (uint16_t)(8 + hlen + inner), 1, 0);
	b_udp(ip, udp, 40000, dp, udp + 8, hlen + inner);
	return 14 + 20 + 8 + hlen + inner;
}

TEST(vxlan_inner_packet_is_raw_ip_with_root_tuple)
{
	static const uint8_t vx[8] = { 0x08, 0, 0, 0, 0, 0, 0x7b, 0 };
	struct tenv e;
	uint8_t f[256];
	uint32_t n;
	Packet *p, *q;

	tenv_init_tunnels(&e);
	n = b_udp_encap(f, 4789, vx, 8);
	p = tdecode(&e, DLT_EN10MB, f, n);
	CHECK(PKT_IS_UDP(p));
	CHECK_EQ(p->dp, 4789);
	CHECK(!(p->flags & PKT_NO_FLOW)); /* the carrier keeps its UDP flow */
	q = p->pseudo;
	CHECK(q != NULL);
	CHECK_EQ(q->datalink, DLT_RAW);
	CHECK_EQ(q->caplen, 20 + 12);     /* inner Ethernet skipped */
	CHECK_EQ(q->recursion_level, 1);
	CHECK_EQ(q->flow_level, 1);
	CHECK_EQ(q->pkt_src, PKT_SRC_VXLAN);
	CHECK_EQ(q->root.dp, 4789);
	CHECK_EQ(q->root.sp, 40000);
	CHECK_EQ(q->dp, 53);
	CHECK_EQ(ntohl(q->src.a.u32[0]), 0xc0a80001);
	CHECK_EQ(tcount(&e, "decoder.vxlan"), 1);
	/* another port: plain UDP */
	n = b_udp_encap(f, 4790, vx, 8);
	p = tdecode(&e, DLT_EN10MB, f, n);
	CHECK(p->pseudo == NULL);
	CHECK_EQ(tcount(&e, "decoder.vxlan"), 1);
	tenv_free(&e);
}

TEST(geneve_inner_packet_keeps_ethernet)
{
	/* version 0, one 8-byte option (class 0x0102 type 1 len 1), bridged */
	static const uint8_t gv[16] = { 0x02, 0, 0x65, 0x58, 0, 0, 0x2a, 0,
					0x01, 0x02, 0x01, 0x01, 0xde, 0xad, 0xbe, 0xef };
	struct tenv e;
	uint8_t f[256], h[16];
	uint32_t n;
	Packet *q;

	tenv_init_tunnels(&e);
	n = b_udp_encap(f, 6081, gv, 16);
	q = tdecode(&e, DLT_EN10MB, f, n)->pseudo;
	CHECK(q != NULL);
	CHECK_EQ(q->caplen, 14 + 20 + 12);
	CHECK_EQ(q->pkt_src, PKT_SRC_GENEVE);
	CHECK(PKT_IS_UDP(q));
	CHECK_EQ(tcount(&e, "decoder.geneve"), 1);
	/* an option running past the option area: not Geneve */
	memcpy(h, gv, 16);
	h[11] = 0x02;
	n = b_udp_encap(f, 6081, h, 16);
	CHECK(tdecode(&e, DLT_EN10MB, f, n)->pseudo == NULL);
	/* unknown protocol type */
	memcpy(h, gv, 16);
	h[2] = 0x12;
	n = b_udp_encap(f, 6081, h, 16);
	CHECK(has_event(tdecode(&e, DLT_EN10MB, f, n), "geneve.unknown_payload_type"));
	tenv_free(&e);
}

/* Eth / NSH (MD type 1, 24 bytes) / IPv4 / UDP, and Eth / DCE / Eth / IPv6 */
TEST(nsh_and_dce_reach_ip)
{
	struct tenv e;
	uint8_t f[256] = { 0 };
	uint8_t *nsh = f + 14, *ip = nsh + 24;
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	b_eth(f, 0x894f);
	put16(nsh, 6);          /* version 0, length 6 words */
	nsh[2] = 1;             /* MD type 1 */
	nsh[3] = 1;             /* next: IPv4 */
	b_ipv4(ip, 17, 12, 1, 0);
	b_udp(ip, ip + 20, 1, 2, "abcd", 4);
	p = tdecode(&e, DLT_EN10MB, f, 14 + 24 + 32);
	CHECK(PKT_IS_UDP(p));
	CHECK_EQ(tcount(&e, "decoder.nsh"), 1);
	put16(nsh, 5);          /* MD type 1 must be 24 bytes */
	p = tdecode(&e, DLT_EN10MB, f, 14 + 24 + 32);
	CHECK(has_event(p, "nsh.bad_header_length"));
	put16(nsh, 6);
	nsh[3] = 0x42;
	p = tdecode(&e, DLT_EN10MB, f, 14 + 24 + 32);
	CHECK(has_event(p, "nsh.unknown_payload"));
	nsh[0] = 0x40;          /* version 1 */
	p = tdecode(&e, DLT_EN10MB, f, 14 + 24 + 32);
	CHECK(has_event(p, "nsh.unsupported_version"));

	memset(f, 0, sizeof(f));
	b_eth(f, 0x8903);
	b_eth(f + 16, 0x86dd);
	b_ipv6(f + 30, 59, 0);
	p = tdecode(&e, DLT_EN10MB, f, 70);
	CHECK_EQ(p->ip_version, 6);
	CHECK_EQ(tcount(&e, "decoder.ipv6"), 1);
	p = tdecode(&e, DLT_EN10MB, f, 20);
	CHECK(has_event(p, "dce.pkt_too_small"));
	tenv_free(&e);
}

/* GRE / ERSPAN type I (no S flag: Ethernet follows) and type II (S flag,
 * 8-byte header with a vlan id). */
TEST(erspan_type1_and_type2)
{
	struct tenv e;
	uint8_t f[256] = { 0 };
	uint8_t *ip = f + 14, *gre = ip + 20, *x;
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	b_eth(f, 0x0800);
	put16(gre, 0x0000);
	put16(gre + 2, 0x88be);
	x = gre + 4;
	b_eth(x, 0x0800);
	b_ipv4(x + 14, 17, 12, 1, 0);
	b_udp(x + 14, x + 34, 1, 2, "abcd", 4);
	b_ipv4(ip, 47, 4 + 14 + 32, 1, 0);
	p = tdecode(&e, DLT_EN10MB, f, 14 + 20 + 4 + 14 + 32);
	CHECK(p->flags & PKT_NO_FLOW);
	CHECK(PKT_IS_UDP(tinner(p)));
	CHECK_EQ(tcount(&e, "decoder.erspan"), 1);

	put16(gre, 0x1000);     /* S: sequence number follows, type II */
	x = gre + 8;
	put16(x, 0x1000 | 99);  /* version 1, vlan 99 */
	b_eth(x + 8, 0x0800);
	b_ipv4(x + 22, 17, 12, 1, 0);
	b_udp(x + 22, x + 42, 1, 2, "abcd", 4);
	b_ipv4(ip, 47, 8 + 8 + 14 + 32, 1, 0);
	p = tinner(tdecode(&e, DLT_EN10MB, f, 14 + 20 + 8 + 8 + 14 + 32));
	CHECK(PKT_IS_UDP(p));
	CHECK_EQ(p->vlan_count, 1);
	CHECK_EQ(p->vlan_id[0], 99);
	put16(x, 0x2000);       /* version 2 */
	p = tinner(tdecode(&e, DLT_EN10MB, f, 14 + 20 + 8 + 8 + 14 + 32));
	CHECK(has_event(p, "erspan.unsupported_version"));
	tenv_free(&e);
}

TEST(ethernet_addresses_are_kept)
{
	struct tenv e;
	uint8_t f[128];
	uint32_t n;
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	n = frame_eth_ipv4_tcp(f, "x", 1);
	p = tdecode(&e, DLT_EN10MB, f, n);
	CHECK(p->flags & PKT_HAS_ETH);
	CHECK_EQ(p->eth_dst[5], 5);
	CHECK_EQ(p->eth_src[5], 6);
	tenv_free(&e);
}

TEST(decoder_config_ports_and_recursion)
{
	static const char yaml[] =
		"vars:\n"
		"  port-groups:\n"
		"    VXLAN_PORTS: \"[8472, 4789]\"\n"
		"decoder:\n"
		"  vxlan:\n"
		"    ports: $VXLAN_PORTS\n"
		"  geneve:\n"
		"    enabled: false\n"
		"    ports: [6081, 7000]\n"
		"  recursion-level:\n"
		"    use-for-tracking: false\n";
	DecodeConfig cfg;
	char err[256];

	CHECK_EQ(conf_load_string(yaml, "test", err, sizeof(err)), 0);
	CHECK_EQ(decode_config_load(&cfg), 0);
	CHECK(cfg.vxlan.enabled);
	CHECK_EQ(cfg.vxlan.nports, 2);
	CHECK_EQ(cfg.vxlan.ports[0], 8472);
	CHECK_EQ(cfg.vxlan.ports[1], 4789);
	CHECK(!cfg.geneve.enabled);
	CHECK_EQ(cfg.geneve.nports, 2);
	CHECK_EQ(cfg.geneve.ports[1], 7000);
	CHECK(!cfg.recursion_for_tracking);
	conf_deinit();
	CHECK_EQ(decode_config_load(&cfg), 0);
	CHECK(cfg.vxlan.enabled && cfg.geneve.enabled && cfg.recursion_for_tracking);
	CHECK_EQ(cfg.vxlan.ports[0], 4789);
	CHECK_EQ(cfg.geneve.ports[0], 6081);
	CHECK_EQ(conf_set("decoder.vxlan.ports", "1,2,3,4,5"), 0);
	CHECK_EQ(decode_config_load(&cfg), -1);
	conf_deinit();
}
