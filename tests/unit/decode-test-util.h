/* Helpers shared by test_decode.c and test_defrag.c: a decode thread with a
 * tiny packet pool, and builders for crafted frames (with their own checksum
 * code, independent of the decoder's). */
#ifndef TESTS_UNIT_DECODE_TEST_UTIL_H
#define TESTS_UNIT_DECODE_TEST_UTIL_H

#include "decode/decode.h"
#include "decode/events.h"
#include "stats/counters.h"

#include <arpa/inet.h>
#include <pcap/dlt.h>
#include <stdlib.h>
#include <string.h>

#define TPOOL 8

struct tenv {
	DecodeThread *dt;
	ThreadCounters *tc;
	Packet pool[TPOOL];
	int used;
	int exhausted;      /* tests: the pool has nothing to give */
	Packet p;
};

static inline Packet *tenv_get(void *arg)
{
	struct tenv *e = arg;

	if (e->exhausted || e->used >= TPOOL)
		return NULL;
	packet_reset(&e->pool[e->used]);
	return &e->pool[e->used++];
}

static inline void tenv_put(void *arg, Packet *p)
{
	(void)arg;
	(void)p;
}

static inline void tenv_init_cfg(struct tenv *e, const DecodeConfig *cfg)
{
	static int registered;

	memset(e, 0, sizeof(*e));
	if (!registered) {
		decode_register_counters();
		registered = 1;
	}
	e->tc = thread_counters_new();
	for (int i = 0; i < TPOOL; i++)
		e->pool[i].data = malloc(PACKET_DATA_MAX);
	e->p.data = malloc(PACKET_DATA_MAX);
	e->dt = decode_thread_new(cfg, e->tc, tenv_get, tenv_put, e);
}

static inline void tenv_init(struct tenv *e, enum checksum_mode cs)
{
	DecodeConfig cfg = { 0 };

	cfg.checksum = cs;
	cfg.defrag.memcap = 32u << 20;
	cfg.defrag.timeout_s = 60;
	cfg.defrag.max_frags = 65535;
	cfg.defrag.trackers = 65535;
	cfg.defrag_enabled = 1;
	cfg.vlan_for_tracking = 1;
	tenv_init_cfg(e, &cfg);
}

static inline void tenv_free(struct tenv *e)
{
	decode_thread_free(e->dt);
	for (int i = 0; i < TPOOL; i++)
		free(e->pool[i].data);
	free(e->p.data);
}

/* Decodes len bytes of b as datalink dlt into e->p; returns it. */
static inline Packet *tdecode_ts(struct tenv *e, int dlt, const uint8_t *b, uint32_t len, long sec)
{
	e->used = 0;        /* pseudo packets of the previous frame are done with */
	packet_reset(&e->p);
	memcpy(e->p.data, b, len);
	e->p.caplen = e->p.wirelen = len;
	e->p.datalink = dlt;
	e->p.ts.tv_sec = sec;
	e->p.pcap_cnt = 1;
	decode_packet(e->dt, &e->p);
	return &e->p;
}

static inline Packet *tdecode(struct tenv *e, int dlt, const uint8_t *b, uint32_t len)
{
	return tdecode_ts(e, dlt, b, len, 1000);
}

/* The last packet of p's pseudo chain: an IP-in-IP tunnel's inner packet. */
static inline Packet *tinner(Packet *p)
{
	while (p->pseudo)
		p = p->pseudo;
	return p;
}

static inline uint64_t tcount(struct tenv *e, const char *name)
{
	int id = counter_lookup(name);

	return id < 0 ? (uint64_t)-1 : counter_get(e->tc, (counter_id)id);
}

static inline int has_event(const Packet *p, const char *name)
{
	int id = decode_event_lookup(name);

	for (int i = 0; i < p->nevents; i++)
		if (p->events[i] == id)
			return 1;
	return 0;
}

/* ---- builders ---- */

static inline void put16(uint8_t *b, uint16_t v)
{
	b[0] = (uint8_t)(v >> 8);
	b[1] = (uint8_t)v;
}

static inline void put32(uint8_t *b, uint32_t v)
{
	put16(b, (uint16_t)(v >> 16));
	put16(b + 2, (uint16_t)v);
}

static inline uint32_t t_sum(uint32_t s, const uint8_t *b, uint32_t n)
{
	for (uint32_t i = 0; i + 1 < n; i += 2)
		s += (uint32_t)(b[i] << 8 | b[i + 1]);
	if (n & 1)
		s += (uint32_t)b[n - 1] << 8;
	return s;
}

static inline uint16_t t_fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

/* Ethernet header with the given ethertype; returns 14. */
static inline uint32_t b_eth(uint8_t *b, uint16_t type)
{
	static const uint8_t macs[12] = { 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 6 };

	memcpy(b, macs, 12);
	put16(b + 12, type);
	return 14;
}

/* IPv4 header (20 bytes) 10.0.0.1 -> 10.0.0.2 with a correct checksum. */
static inline uint32_t b_ipv4(uint8_t *b, uint8_t proto, uint16_t payload_len, uint16_t id,
		       uint16_t frag)
{
	memset(b, 0, 20);
	b[0] = 0x45;
	put16(b + 2, (uint16_t)(20 + payload_len));
	put16(b + 4, id);
	put16(b + 6, frag);
	b[8] = 64;
	b[9] = proto;
	put32(b + 12, 0x0a000001);
	put32(b + 16, 0x0a000002);
	put16(b + 10, t_fold(t_sum(0, b, 20)));
	return 20;
}

/* IPv6 header 2001:db8::1 -> 2001:db8::2. */
static inline uint32_t b_ipv6(uint8_t *b, uint8_t nh, uint16_t payload_len)
{
	memset(b, 0, 40);
	b[0] = 0x60;
	put16(b + 4, payload_len);
	b[6] = nh;
	b[7] = 64;
	put32(b + 8, 0x20010db8);
	b[23] = 1;
	put32(b + 24, 0x20010db8);
	b[39] = 2;
	return 40;
}

/* L4 checksum over ip (v4 or v6 header at ip) and the segment at l4. */
static inline uint16_t t_l4sum(const uint8_t *ip, uint8_t proto, const uint8_t *l4, uint32_t len)
{
	uint32_t s = 0;
	uint8_t t[4];

	if ((ip[0] >> 4) == 4) {
		s = t_sum(s, ip + 12, 8);
	} else {
		s = t_sum(s, ip + 8, 32);
	}
	put32(t, len);
	s = t_sum(s, t, 4);
	s += proto;
	s = t_sum(s, l4, len);
	return t_fold(s);
}

/* TCP header (20 + optlen bytes) followed by payload; checksum filled from ip. */
static inline uint32_t b_tcp(uint8_t *ip, uint8_t *b, uint16_t sp, uint16_t dp, uint8_t flags,
		      const uint8_t *opts, uint32_t optlen, const void *payload, uint32_t plen)
{
	uint32_t hlen = 20 + optlen;

	memset(b, 0, 20);
	put16(b, sp);
	put16(b + 2, dp);
	put32(b + 4, 1000);
	put32(b + 8, 2000);
	b[12] = (uint8_t)((hlen / 4) << 4);
	b[13] = flags;
	put16(b + 14, 65535);
	if (optlen)
		memcpy(b + 20, opts, optlen);
	if (plen)
		memcpy(b + hlen, payload, plen);
	put16(b + 16, t_l4sum(ip, 6, b, hlen + plen));
	return hlen + plen;
}

static inline uint32_t b_udp(uint8_t *ip, uint8_t *b, uint16_t sp, uint16_t dp, const void *payload,
		      uint32_t plen)
{
	put16(b, sp);
	put16(b + 2, dp);
	put16(b + 4, (uint16_t)(8 + plen));
	put16(b + 6, 0);
	if (plen)
		memcpy(b + 8, payload, plen);
	put16(b + 6, t_l4sum(ip, 17, b, 8 + plen));
	return 8 + plen;
}

/* Ethernet + IPv4 + TCP frame with payload; returns its length. */
static inline uint32_t frame_eth_ipv4_tcp(uint8_t *f, const void *payload, uint32_t plen)
{
	uint32_t n = b_eth(f, 0x0800);
	uint8_t *ip = f + n;

	b_ipv4(ip, 6, (uint16_t)(20 + plen), 1, 0);
	return n + 20 + b_tcp(ip, ip + 20, 1234, 80, 0x02, NULL, 0, payload, plen);
}

#endif
