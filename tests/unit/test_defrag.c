#include "test.h"
#include "decode-test-util.h"
#include "decode/defrag.h"
#include "conf/conf.h"
#include "util/mem-peak.h"

/* One IPv4 fragment (raw IP) of datagram id carrying data at byte offset off. */
static uint32_t frag4(uint8_t *f, uint16_t id, uint8_t proto, uint32_t off, int more,
		      const uint8_t *data, uint32_t len)
{
	b_ipv4(f, proto, (uint16_t)len, id, (uint16_t)((more ? 0x2000 : 0) | (off / 8)));
	memcpy(f + 20, data, len);
	return 20 + len;
}

static Packet *send4(struct tenv *e, uint16_t id, uint8_t proto, uint32_t off, int more,
		     const uint8_t *data, uint32_t len, long sec)
{
	uint8_t f[2048];
	uint32_t n = frag4(f, id, proto, off, more, data, len);

	return tdecode_ts(e, DLT_RAW, f, n, sec);
}

TEST(defrag_ipv4_out_of_order_reassembles)
{
	struct tenv e;
	uint8_t dgram[8 + 40], ip[20];
	Packet *p, *q;

	tenv_init(&e, CHECKSUM_ALL);
	/* a UDP datagram of 48 bytes, sent as 16+16+16 out of order */
	b_ipv4(ip, 17, 48, 77, 0);
	for (int i = 0; i < 40; i++)
		dgram[8 + i] = (uint8_t)('a' + i % 26);
	b_udp(ip, dgram, 5000, 53, dgram + 8, 40);

	p = send4(&e, 77, 17, 32, 0, dgram + 32, 16, 10);
	CHECK(p->flags & PKT_IS_FRAGMENT);
	CHECK(p->l4 == NULL);
	CHECK(p->pseudo == NULL);
	p = send4(&e, 77, 17, 0, 1, dgram, 16, 10);
	CHECK(p->pseudo == NULL);
	CHECK(p->l4 == NULL);
	CHECK_EQ(p->sp, 0);
	p = send4(&e, 77, 17, 16, 1, dgram + 16, 16, 11);
	q = p->pseudo;
	CHECK(q != NULL);
	CHECK_EQ(q->flags & (PKT_PSEUDO | PKT_REASSEMBLED), PKT_PSEUDO | PKT_REASSEMBLED);
	CHECK(!(q->flags & PKT_IS_FRAGMENT));
	CHECK_EQ(q->pcap_cnt, 0);
	CHECK_EQ(q->datalink, DLT_RAW);
	CHECK_EQ(q->ts.tv_sec, 11);
	CHECK_EQ(q->caplen, 68);
	CHECK(PKT_IS_UDP(q));
	CHECK_EQ(q->sp, 5000);
	CHECK_EQ(q->dp, 53);
	CHECK_EQ(q->payload_len, 40);
	CHECK(memcmp(q->payload, dgram + 8, 40) == 0);
	CHECK(!(q->flags & (PKT_L4_CSUM_BAD | PKT_IPV4_CSUM_BAD | PKT_INVALID)));
	CHECK_EQ(q->frag_off, 0);
	CHECK_EQ(tcount(&e, "defrag.ipv4.fragments"), 3);
	CHECK_EQ(tcount(&e, "defrag.ipv4.reassembled"), 1);
	/* the pseudo packet is decoded but is not a capture */
	CHECK_EQ(tcount(&e, "decoder.pkts"), 3);
	CHECK_EQ(tcount(&e, "decoder.ipv4"), 4);
	CHECK_EQ(tcount(&e, "decoder.udp"), 1);
	CHECK_EQ(tcount(&e, "decoder.raw"), 3);
	tenv_free(&e);
}

TEST(defrag_overlap_policy_bsd)
{
	struct tenv e;
	uint8_t a[16], b[16], c[8];
	Packet *p, *q;

	tenv_init(&e, CHECKSUM_ALL);
	memset(a, 'A', 16);
	memset(b, 'B', 16);
	memset(c, 'C', 8);
	/* B covers 8..23 first; A (0..15) starts before B so its bytes win on
	 * 8..15; C (16..23) starts after B so B's bytes stay. */
	p = send4(&e, 5, 253, 8, 1, b, 16, 1);
	CHECK_EQ(p->nevents, 0);
	p = send4(&e, 5, 253, 0, 1, a, 16, 1);
	CHECK(has_event(p, "ipv4.frag_overlap"));
	p = send4(&e, 5, 253, 16, 0, c, 8, 1);
	CHECK(has_event(p, "ipv4.frag_overlap"));
	CHECK_EQ(tcount(&e, "decoder.event.ipv4.frag_overlap"), 2);
	q = p->pseudo;
	CHECK(q != NULL);
	CHECK_EQ(q->payload_len, 24);
	CHECK(memcmp(q->payload, "AAAAAAAAAAAAAAAA", 16) == 0);
	CHECK(memcmp(q->payload + 16, "BBBBBBBB", 8) == 0);
	tenv_free(&e);
}

TEST(defrag_id_reuse_after_reassembly_starts_fresh)
{
	struct tenv e;
	uint8_t d[16];
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	memset(d, 'x', 16);
	send4(&e, 9, 253, 0, 1, d, 16, 1);
	p = send4(&e, 9, 253, 16, 0, d, 16, 1);
	CHECK(p->pseudo != NULL);
	/* the tracker is gone: only the hash table is left */
	CHECK_EQ(tcount(&e, "defrag.memuse"), 65536 * sizeof(void *));
	/* a lone duplicate of the last fragment rebuilds nothing */
	p = send4(&e, 9, 253, 16, 0, d, 16, 1);
	CHECK(p->pseudo == NULL);
	CHECK_EQ(p->nevents, 0);
	p = send4(&e, 9, 253, 0, 1, d, 16, 2);
	CHECK(p->pseudo != NULL);
	CHECK_EQ(tcount(&e, "defrag.ipv4.reassembled"), 2);
	tenv_free(&e);
}

TEST(defrag_pkt_too_large)
{
	struct tenv e;
	uint8_t d[200] = { 0 };
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	p = send4(&e, 3, 253, 8189 * 8, 0, d, 200, 1);
	CHECK(p->flags & PKT_IS_FRAGMENT);
	CHECK(has_event(p, "ipv4.frag_pkt_too_large"));
	/* nothing was kept: only the hash table is held */
	CHECK_EQ(tcount(&e, "defrag.memuse"), 65536 * sizeof(void *));
	tenv_free(&e);
}

TEST(defrag_timeout_drops_stale_tracker)
{
	struct tenv e;
	uint8_t d[16] = { 0 };
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	send4(&e, 4, 253, 0, 1, d, 16, 100);
	/* 61 s later (timeout 60): the first half is gone */
	p = send4(&e, 4, 253, 16, 0, d, 16, 161);
	CHECK(p->pseudo == NULL);
	CHECK_EQ(tcount(&e, "defrag.ipv4.timeouts"), 1);
	CHECK_EQ(tcount(&e, "defrag.wrk.tracker_timeout"), 1);
	/* a fresh pair within the timeout still works */
	send4(&e, 6, 253, 0, 1, d, 16, 200);
	p = send4(&e, 6, 253, 16, 0, d, 16, 259);
	CHECK(p->pseudo != NULL);
	tenv_free(&e);
}

TEST(defrag_memcap)
{
	struct tenv e;
	DecodeConfig cfg = { 0 };
	uint8_t d[800] = { 0 };

	cfg.checksum = CHECKSUM_ALL;
	cfg.defrag.memcap = 2000;
	cfg.defrag.timeout_s = 60;
	cfg.defrag.max_frags = 65535;
	/* 16 buckets (128 bytes): the table counts against the memcap */
	cfg.defrag.trackers = 16;
	tenv_init_cfg(&e, &cfg);
	for (int i = 0; i < 10; i++)
		send4(&e, (uint16_t)(100 + i), 253, 0, 1, d, 800, 1);
	CHECK(tcount(&e, "defrag.memuse") <= 2000);
	CHECK(tcount(&e, "defrag.memuse") > 0);
	CHECK(tcount(&e, "defrag.tracker_hard_reuse") >= 8);
	tenv_free(&e);
}

/* memuse holds what the allocator holds: the bucket array from the start,
 * then each block at its chunk size (a multiple of 16, header included), and
 * it comes back to the table alone once the trackers are gone. */
TEST(defrag_memuse_counts_table_and_chunks)
{
	struct tenv e;
	DecodeConfig cfg = { 0 };
	uint8_t d[64] = { 0 };
	uint64_t table, m0, m1, m2;

	cfg.checksum = CHECKSUM_ALL;
	cfg.defrag.memcap = 1 << 20;
	cfg.defrag.timeout_s = 60;
	cfg.defrag.max_frags = 65535;
	cfg.defrag.trackers = 100;
	tenv_init_cfg(&e, &cfg);
	table = defrag_table_bytes(&cfg.defrag);
	CHECK_EQ(table, 128 * sizeof(void *));
	m0 = tcount(&e, "defrag.memuse");
	CHECK_EQ(m0, table);
	/* a first fragment: tracker, saved IP header, fragment */
	send4(&e, 1, 253, 0, 1, d, 8, 1);
	m1 = tcount(&e, "defrag.memuse");
	CHECK(m1 > m0 + 8 + 20 + 3 * 8);
	CHECK_EQ((m1 - m0) % 16, 0);
	/* one more 1-byte-payload fragment of the same datagram costs a whole
	 * chunk: at least 32 bytes, where its size alone would say 1 + header */
	send4(&e, 1, 253, 16, 1, d, 1, 1);
	m2 = tcount(&e, "defrag.memuse");
	CHECK(m2 - m1 >= 32);
	CHECK_EQ((m2 - m1) % 16, 0);
	/* past defrag.timeout the first tracker goes; a second datagram is
	 * rebuilt and its tracker freed at once: back to the table alone */
	send4(&e, 2, 253, 0, 1, d, 8, 100);
	CHECK_EQ(tcount(&e, "defrag.ipv4.timeouts"), 1);
	CHECK(send4(&e, 2, 253, 8, 0, d, 8, 100)->pseudo != NULL);
	CHECK_EQ(tcount(&e, "defrag.memuse"), m0);
	tenv_free(&e);
}

/* Suricata refuses to start when defrag.memcap cannot hold the hash table. */
TEST(defrag_config_memcap_below_table_is_refused)
{
	char err[256];
	DecodeConfig cfg;

	conf_deinit();
	CHECK_EQ(conf_load_string("defrag:\n  memcap: 1kb\n", "t.yaml", err, sizeof(err)), 0);
	CHECK_EQ(decode_config_load(&cfg), -1);
	conf_deinit();
	CHECK_EQ(conf_load_string("defrag:\n  memcap: 1kb\n  trackers: 16\n", "t.yaml", err,
				  sizeof(err)), 0);
	CHECK_EQ(decode_config_load(&cfg), 0);
	CHECK_EQ(cfg.defrag.memcap, 1024);
	CHECK_EQ(defrag_table_bytes(&cfg.defrag), 16 * sizeof(void *));
	conf_deinit();
}

TEST(defrag_max_trackers_and_frags)
{
	struct tenv e;
	DecodeConfig cfg = { 0 };
	uint8_t d[16] = { 0 };

	cfg.checksum = CHECKSUM_ALL;
	cfg.defrag.memcap = 1 << 20;
	cfg.defrag.timeout_s = 60;
	cfg.defrag.max_frags = 3;
	cfg.defrag.trackers = 2;
	tenv_init_cfg(&e, &cfg);
	send4(&e, 1, 253, 0, 1, d, 16, 1);
	send4(&e, 2, 253, 0, 1, d, 16, 1);
	send4(&e, 3, 253, 0, 1, d, 16, 1);
	CHECK_EQ(tcount(&e, "defrag.max_trackers_reached"), 1);
	CHECK(has_event(&e.p, "ipv4.frag_ignored"));
	send4(&e, 1, 253, 16, 1, d, 16, 1);
	CHECK_EQ(e.p.nevents, 0);
	send4(&e, 1, 253, 32, 1, d, 16, 1);
	CHECK_EQ(tcount(&e, "defrag.max_frags_reached"), 1);
	CHECK(has_event(&e.p, "ipv4.frag_ignored"));
	tenv_free(&e);
}

TEST(defrag_vlan_is_part_of_key)
{
	struct tenv e;
	uint8_t f[256], d[16] = { 0 };
	uint32_t n;
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	b_eth(f, 0x8100);
	put16(f + 14, 10);
	put16(f + 16, 0x0800);
	n = 18 + frag4(f + 18, 8, 253, 0, 1, d, 16);
	tdecode(&e, DLT_EN10MB, f, n);
	put16(f + 14, 11);
	n = 18 + frag4(f + 18, 8, 253, 16, 0, d, 16);
	p = tdecode(&e, DLT_EN10MB, f, n);
	CHECK(p->pseudo == NULL);
	put16(f + 14, 10);
	p = tdecode(&e, DLT_EN10MB, f, n);
	CHECK(p->pseudo != NULL);
	CHECK_EQ(p->pseudo->vlan_count, 1);
	CHECK_EQ(p->pseudo->vlan_id[0], 10);
	tenv_free(&e);
}

TEST(defrag_no_pseudo_packet_available)
{
	struct tenv e;
	uint8_t d[16] = { 0 };
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	e.exhausted = 1;
	send4(&e, 1, 253, 0, 1, d, 16, 1);
	p = send4(&e, 1, 253, 16, 0, d, 16, 1);
	CHECK(p->pseudo == NULL);
	CHECK(p->flags & PKT_IS_FRAGMENT);
	tenv_free(&e);
}

/* IPv6 fragment: 40-byte header + optional dst-opts + fragment header + data. */
static uint32_t frag6(uint8_t *f, uint32_t id, int with_dstopts, uint32_t off, int more,
		      const uint8_t *data, uint32_t len)
{
	uint32_t n = 40;

	memset(f, 0, 64);
	if (with_dstopts) {
		f[n] = 44;
		f[n + 1] = 0;
		f[n + 2] = 0x1e;
		f[n + 3] = 4;
		n += 8;
	}
	f[n] = 17;
	put16(f + n + 2, (uint16_t)(off | (more ? 1 : 0)));
	put32(f + n + 4, id);
	n += 8;
	memcpy(f + n, data, len);
	b_ipv6(f, with_dstopts ? 60 : 44, (uint16_t)(n - 40 + len));
	return n + len;
}

TEST(defrag_ipv6_reassembles_with_unfragmentable_part)
{
	struct tenv e;
	uint8_t f[256], hdr[48], dgram[8 + 24];
	Packet *p, *q;

	tenv_init(&e, CHECKSUM_ALL);
	/* checksum computed over the final datagram's pseudo header */
	b_ipv6(hdr, 17, 32);
	memset(dgram + 8, 'z', 24);
	b_udp(hdr, dgram, 4000, 4001, dgram + 8, 24);

	p = tdecode(&e, DLT_RAW, f, frag6(f, 0xabcdef, 1, 16, 0, dgram + 16, 16));
	CHECK(p->flags & PKT_IS_FRAGMENT);
	CHECK(p->pseudo == NULL);
	p = tdecode(&e, DLT_RAW, f, frag6(f, 0xabcdef, 1, 0, 1, dgram, 16));
	q = p->pseudo;
	CHECK(q != NULL);
	CHECK_EQ(q->ip_version, 6);
	CHECK(PKT_IS_UDP(q));
	CHECK_EQ(q->sp, 4000);
	CHECK_EQ(q->payload_len, 24);
	CHECK_EQ(q->l3_hlen, 48);
	CHECK(!(q->flags & (PKT_L4_CSUM_BAD | PKT_INVALID)));
	CHECK_EQ(tcount(&e, "defrag.ipv6.fragments"), 2);
	CHECK_EQ(tcount(&e, "defrag.ipv6.reassembled"), 1);
	tenv_free(&e);
}

TEST(defrag_ipv6_fragment_header_events)
{
	struct tenv e;
	uint8_t f[256], d[20] = { 0 };
	Packet *p;

	tenv_init(&e, CHECKSUM_ALL);
	/* offset 0 and no more fragments: a useless fragment header, decoded through */
	memset(d, 0, 8);
	put16(d + 4, 8);
	p = tdecode(&e, DLT_RAW, f, frag6(f, 1, 0, 0, 0, d, 8));
	CHECK(has_event(p, "ipv6.exthdr_useless_fh"));
	CHECK(!(p->flags & PKT_IS_FRAGMENT));
	CHECK(PKT_IS_UDP(p));
	/* a non-last fragment whose length is not a multiple of 8 */
	p = tdecode(&e, DLT_RAW, f, frag6(f, 2, 0, 0, 1, d, 12));
	CHECK(has_event(p, "ipv6.frag_invalid_length"));
	/* too large */
	p = tdecode(&e, DLT_RAW, f, frag6(f, 3, 0, 65528, 0, d, 16));
	CHECK(has_event(p, "ipv6.frag_pkt_too_large"));
	tenv_free(&e);
}

/* Suricata logs a rebuilt datagram behind the first fragment's link header
 * (here Ethernet + 802.1Q), in that fragment's datalink. */
TEST(defrag_keeps_first_fragments_link_header)
{
	struct tenv e;
	uint8_t dgram[32], ip[20], f[256];
	uint32_t n;
	Packet *q;

	tenv_init(&e, CHECKSUM_ALL);
	b_ipv4(ip, 17, 32, 9, 0);
	memset(dgram + 8, 'z', 24);
	b_udp(ip, dgram, 5000, 53, dgram + 8, 24);
	b_eth(f, 0x8100);
	put16(f + 14, 6);
	put16(f + 16, 0x0800);
	n = 18 + frag4(f + 18, 9, 17, 0, 1, dgram, 16);
	CHECK(tdecode(&e, DLT_EN10MB, f, n)->pseudo == NULL);
	f[5] = 0x55; /* the last fragment's own link header differs */
	n = 18 + frag4(f + 18, 9, 17, 16, 0, dgram + 16, 16);
	q = tdecode(&e, DLT_EN10MB, f, n)->pseudo;
	CHECK(q != NULL);
	CHECK_EQ(q->datalink, DLT_EN10MB);
	CHECK_EQ(q->caplen, 18 + 20 + 32);
	CHECK_EQ(q->data[5], 5);
	CHECK_EQ(q->data[12], 0x81);
	CHECK(q->l3 == q->data + 18);
	CHECK(PKT_IS_UDP(q));
	CHECK_EQ(q->dp, 53);
	CHECK_EQ(tcount(&e, "decoder.ethernet"), 2);
	tenv_free(&e);
}
