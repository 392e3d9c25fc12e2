#include "test.h"
#include "flow/flow.h"
#include "util/mem-peak.h"
#include "conf/conf.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>

/* Counters are registered once per process; every test gets a fresh block. */
static ThreadCounters *test_counters(void)
{
	static int done;

	if (!done) {
		flow_register_counters();
		counters_freeze();
		done = 1;
	}
	return thread_counters_new();
}

static uint64_t cval(ThreadCounters *tc, const char *name)
{
	int id = counter_lookup(name);

	return id < 0 ? (uint64_t)-1 : counter_get(tc, (counter_id)id);
}

static void small_config(FlowConfig *cfg)
{
	/* defaults from an empty conf tree, then a small table */
	flow_config_load(cfg);
	cfg->hash_size = 64;
	cfg->prealloc = 4;
}

static void ip4(Address *a, const char *s)
{
	memset(a, 0, sizeof(*a));
	a->family = AF_INET;
	inet_pton(AF_INET, s, &a->a.u32[0]);
}

static void mkpkt(Packet *p, uint8_t proto, const char *src, uint16_t sp, const char *dst,
		  uint16_t dp, uint8_t flags, time_t sec)
{
	memset(p, 0, sizeof(*p));
	p->ip_version = 4;
	ip4(&p->src, src);
	ip4(&p->dst, dst);
	p->proto = proto;
	p->sp = sp;
	p->dp = dp;
	p->tcp_flags = flags;
	p->ts.tv_sec = sec;
	p->caplen = 60;
	p->l4 = (const uint8_t *)"x"; /* any non-NULL: L4 decoded */
}

/* end-callback recorder */
#define REC_MAX 64
struct rec {
	int n;
	uint64_t ids[REC_MAX];
	enum flow_end_reason why[REC_MAX];
	enum flow_state state[REC_MAX];
	uint64_t pkts[REC_MAX];
	uint8_t emergency[REC_MAX];
};

static void on_end(void *arg, Flow *f, enum flow_end_reason why)
{
	struct rec *r = arg;

	if (r->n < REC_MAX) {
		r->ids[r->n] = f->flow_id;
		r->why[r->n] = why;
		r->state[r->n] = f->state;
		r->pkts[r->n] = f->pkts_toserver + f->pkts_toclient;
		r->emergency[r->n] = f->emergency;
	}
	r->n++;
}

TEST(flow_hash_is_symmetric)
{
	Packet a, b;

	for (int i = 0; i < 200; i++) {
		char s[32], d[32];

		snprintf(s, sizeof(s), "10.%d.%d.1", i, i * 7 % 256);
		snprintf(d, sizeof(d), "192.168.%d.%d", i % 256, (i * 13) % 256);
		mkpkt(&a, IPPROTO_TCP, s, 1024 + i, d, 80, 0, 0);
		mkpkt(&b, IPPROTO_TCP, d, 80, s, 1024 + i, 0, 0);
		CHECK_EQ(flow_hash_packet(&a), flow_hash_packet(&b));
	}
	/* ports or protocol change the hash */
	mkpkt(&a, IPPROTO_TCP, "1.2.3.4", 1000, "5.6.7.8", 80, 0, 0);
	mkpkt(&b, IPPROTO_TCP, "1.2.3.4", 1001, "5.6.7.8", 80, 0, 0);
	CHECK(flow_hash_packet(&a) != flow_hash_packet(&b));
	mkpkt(&b, IPPROTO_UDP, "1.2.3.4", 1000, "5.6.7.8", 80, 0, 0);
	CHECK(flow_hash_packet(&a) != flow_hash_packet(&b));
}

TEST(flow_hash_spreads_over_buckets)
{
	/* 4096 client ports to one server: every one of 256 buckets gets used
	 * and none is more than 3x the mean. */
	int hist[256] = { 0 };
	Packet p;

	for (int i = 0; i < 4096; i++) {
		mkpkt(&p, IPPROTO_TCP, "10.0.0.1", (uint16_t)(20000 + i), "10.0.0.2", 443, 0, 0);
		hist[flow_hash_packet(&p) & 255]++;
	}
	for (int i = 0; i < 256; i++) {
		CHECK(hist[i] > 0);
		CHECK(hist[i] < 48);
	}
}

TEST(flow_both_directions_find_same_flow)
{
	ThreadCounters *tc = test_counters();
	FlowConfig cfg;
	FlowTable *ft;
	Packet a, b;
	Flow *f1, *f2;

	small_config(&cfg);
	ft = flow_table_new(&cfg, 1, tc, NULL, NULL);
	CHECK(ft != NULL);
	mkpkt(&a, IPPROTO_UDP, "10.0.0.1", 5353, "10.0.0.2", 53, 0, 100);
	mkpkt(&b, IPPROTO_UDP, "10.0.0.2", 53, "10.0.0.1", 5353, 0, 101);
	f1 = flow_handle_packet(ft, &a);
	CHECK(f1 != NULL);
	CHECK(a.flags & PKT_TOSERVER);
	CHECK(a.flags & PKT_HAS_FLOW);
	CHECK(a.flow == f1);
	CHECK_EQ(f1->state, FLOW_STATE_NEW);
	f2 = flow_handle_packet(ft, &b);
	CHECK(f2 == f1);
	CHECK(b.flags & PKT_TOCLIENT);
	CHECK(!(b.flags & PKT_TOSERVER));
	CHECK_EQ(f1->state, FLOW_STATE_ESTABLISHED);
	CHECK_EQ(f1->pkts_toserver, 1);
	CHECK_EQ(f1->pkts_toclient, 1);
	CHECK_EQ(f1->bytes_toserver, 60);
	CHECK_EQ(f1->sp, 5353);
	CHECK_EQ(f1->dp, 53);
	CHECK_EQ(f1->last.tv_sec, 101);
	CHECK_EQ(f1->start.tv_sec, 100);
	CHECK(f1->flow_id != 0);
	CHECK(f1->flow_id < (1ull << 51));
	CHECK_EQ(cval(tc, "flow.total"), 1);
	CHECK_EQ(cval(tc, "flow.udp"), 1);
	CHECK_EQ(cval(tc, "flow.active"), 1);
	flow_table_free(ft);
	CHECK_EQ(cval(tc, "flow.active"), 0);
	CHECK_EQ(cval(tc, "flow.end.state.established"), 1);
}

/* Flows for the protocols Suricata tracks only: an IGMP report is a lone
 * packet (suricata-verify bug-5162), an ESP or SCTP one has a flow. */
TEST(flow_only_for_tracked_ip_protocols)
{
	ThreadCounters *tc = test_counters();
	FlowConfig cfg;
	FlowTable *ft;
	Packet a;
	uint64_t before;

	small_config(&cfg);
	ft = flow_table_new(&cfg, 1, tc, NULL, NULL);
	CHECK(ft != NULL);
	before = cval(tc, "flow.total");
	mkpkt(&a, 2 /* IGMP */, "10.0.0.1", 0, "224.0.0.22", 0, 0, 100);
	CHECK(flow_handle_packet(ft, &a) == NULL);
	CHECK(!(a.flags & PKT_HAS_FLOW));
	CHECK_EQ(cval(tc, "flow.total"), before);
	mkpkt(&a, IPPROTO_ESP, "10.0.0.1", 0, "10.0.0.2", 0, 0, 100);
	CHECK(flow_handle_packet(ft, &a) != NULL);
	mkpkt(&a, IPPROTO_SCTP, "10.0.0.1", 1, "10.0.0.2", 2, 0, 100);
	CHECK(flow_handle_packet(ft, &a) != NULL);
	CHECK_EQ(cval(tc, "flow.total"), before + 2);
	flow_table_free(ft);
}

TEST(flow_synack_first_reverses_direction)
{
	ThreadCounters *tc = test_counters();
	FlowConfig cfg;
	FlowTable *ft;
	Packet sa, ack;
	Flow *f;

	small_config(&cfg);
	ft = flow_table_new(&cfg, 1, tc, NULL, NULL);
	mkpkt(&sa, IPPROTO_TCP, "10.0.0.2", 80, "10.0.0.1", 40000, TH_SYN | TH_ACK, 10);
	f = flow_handle_packet(ft, &sa);
	CHECK(f != NULL);
	CHECK(sa.flags & PKT_TOCLIENT);
	CHECK_EQ(f->sp, 40000);
	CHECK_EQ(f->dp, 80);
	CHECK_EQ(f->src.a.u32[0], sa.dst.a.u32[0]);
	CHECK_EQ(f->pkts_toclient, 1);
	CHECK_EQ(f->tcp_flags_tc, TH_SYN | TH_ACK);
	mkpkt(&ack, IPPROTO_TCP, "10.0.0.1", 40000, "10.0.0.2", 80, TH_ACK, 10);
	CHECK(flow_handle_packet(ft, &ack) == f);
	CHECK(ack.flags & PKT_TOSERVER);
	/* a TCP flow's state is the stream engine's: the table alone leaves it */
	CHECK_EQ(f->state, FLOW_STATE_NEW);
	flow_table_free(ft);
}

/* eve netflow min_ttl/max_ttl: each side's own range, the first packet's
 * TTL to start with; a flow reversed by a SYN/ACK first keeps them with
 * their sides */
TEST(flow_ttl_range_per_direction)
{
	ThreadCounters *tc = test_counters();
	FlowConfig cfg;
	FlowTable *ft;
	Packet p;
	Flow *f;
	static const struct {
		int to_server;
		uint8_t ttl;
	} seq[] = { { 0, 120 }, { 1, 64 }, { 1, 61 }, { 0, 128 }, { 1, 63 }, { 0, 121 } };

	small_config(&cfg);
	ft = flow_table_new(&cfg, 1, tc, NULL, NULL);
	for (size_t i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
		if (seq[i].to_server)
			mkpkt(&p, IPPROTO_TCP, "10.0.0.1", 40000, "10.0.0.2", 80, TH_ACK, 10);
		else
			mkpkt(&p, IPPROTO_TCP, "10.0.0.2", 80, "10.0.0.1", 40000,
			      i ? TH_ACK : TH_SYN | TH_ACK, 10);
		p.ttl = seq[i].ttl;
		f = flow_handle_packet(ft, &p);
		CHECK(f != NULL);
	}
	CHECK_EQ(f->sp, 40000);
	CHECK_EQ(f->min_ttl[0], 61);
	CHECK_EQ(f->max_ttl[0], 64);
	CHECK_EQ(f->min_ttl[1], 120);
	CHECK_EQ(f->max_ttl[1], 128);
	flow_table_free(ft);
}

TEST(flow_syn_first_is_toserver)
{
	ThreadCounters *tc = test_counters();
	FlowConfig cfg;
	FlowTable *ft;
	Packet s;
	Flow *f;

	small_config(&cfg);
	ft = flow_table_new(&cfg, 1, tc, NULL, NULL);
	mkpkt(&s, IPPROTO_TCP, "10.0.0.1", 40000, "10.0.0.2", 80, TH_SYN, 10);
	f = flow_handle_packet(ft, &s);
	CHECK(s.flags & PKT_TOSERVER);
	CHECK_EQ(f->sp, 40000);
	CHECK_EQ(f->tcp_flags_ts, TH_SYN);
	flow_table_free(ft);
}

TEST(flow_timeout_by_packet_time_ends_and_recreates)
{
	ThreadCounters *tc = test_counters();
	FlowConfig cfg;
	FlowTable *ft;
	struct rec r = { 0 };
	Packet p;
	Flow *f;
	uint64_t id1;

	small_config(&cfg);
	ft = flow_table_new(&cfg, 1, tc, on_end, &r);
	mkpkt(&p, IPPROTO_UDP, "10.0.0.1", 1000, "10.0.0.2", 53, 0, 1000);
	f = flow_handle_packet(ft, &p);
	id1 = f->flow_id;
	CHECK_EQ(flow_timeout_of(ft, f), 30); /* udp new */
	/* exactly at last + timeout: not yet expired */
	mkpkt(&p, IPPROTO_UDP, "10.0.0.1", 1000, "10.0.0.2", 53, 0, 1030);
	CHECK(flow_handle_packet(ft, &p) == f);
	CHECK_EQ(r.n, 0);
	/* one microsecond past: the old flow ends, a new one starts */
	mkpkt(&p, IPPROTO_UDP, "10.0.0.1", 1000, "10.0.0.2", 53, 0, 1060);
	p.ts.tv_usec = 1;
	f = flow_handle_packet(ft, &p);
	CHECK(f != NULL);
	CHECK_EQ(r.n, 1);
	CHECK_EQ(r.ids[0], id1);
	CHECK_EQ(r.why[0], FLOW_END_TIMEOUT);
	CHECK_EQ(r.pkts[0], 2);
	CHECK(f->flow_id != id1);
	CHECK_EQ(f->pkts_toserver, 1);
	CHECK_EQ(f->start.tv_sec, 1060);
	CHECK_EQ(cval(tc, "flow.total"), 2);
	CHECK_EQ(cval(tc, "flow.mgr.flows_timeout"), 1);
	CHECK_EQ(cval(tc, "flow.end.state.new"), 1);
	CHECK_EQ(cval(tc, "flow.active"), 1);
	flow_table_free(ft);
}

TEST(flow_table_timeout_ends_only_due_flows)
{
	ThreadCounters *tc = test_counters();
	FlowConfig cfg;
	FlowTable *ft;
	struct rec r = { 0 };
	Packet p;
	struct timeval now = { 0, 0 };

	small_config(&cfg);
	ft = flow_table_new(&cfg, 1, tc, on_end, &r);
	/* established TCP flow (300 s, Suricata 8's built-in value) first,
	 * then a new UDP flow (30 s) */
	mkpkt(&p, IPPROTO_TCP, "10.0.0.1", 1000, "10.0.0.2", 80, TH_SYN, 100);
	flow_handle_packet(ft, &p);
	mkpkt(&p, IPPROTO_TCP, "10.0.0.2", 80, "10.0.0.1", 1000, TH_SYN | TH_ACK, 100);
	/* the stream engine owns a TCP flow's state: as it would set it */
	flow_handle_packet(ft, &p)->state = FLOW_STATE_ESTABLISHED;
	mkpkt(&p, IPPROTO_UDP, "10.0.0.3", 1000, "10.0.0.4", 53, 0, 101);
	flow_handle_packet(ft, &p);

	now.tv_sec = 131;
	flow_table_timeout(ft, &now);
	CHECK_EQ(r.n, 0);
	/* the UDP flow is due although it sits behind the younger-timeout TCP one */
	now.tv_sec = 132;
	flow_table_timeout(ft, &now);
	CHECK_EQ(r.n, 1);
	CHECK_EQ(r.why[0], FLOW_END_TIMEOUT);
	CHECK_EQ(r.state[0], FLOW_STATE_NEW);
	now.tv_sec = 400;
	flow_table_timeout(ft, &now);
	CHECK_EQ(r.n, 1);
	now.tv_sec = 401;
	flow_table_timeout(ft, &now);
	CHECK_EQ(r.n, 2);
	CHECK_EQ(r.state[1], FLOW_STATE_ESTABLISHED);
	CHECK_EQ(cval(tc, "flow.active"), 0);
	CHECK_EQ(cval(tc, "flow.mgr.flows_timeout"), 2);
	flow_table_free(ft);
	CHECK_EQ(r.n, 2);
}

TEST(flow_backwards_time_never_ends_early)
{
	ThreadCounters *tc = test_counters();
	FlowConfig cfg;
	FlowTable *ft;
	struct rec r = { 0 };
	Packet p;
	Flow *f;
	struct timeval now = { 50, 0 };

	small_config(&cfg);
	ft = flow_table_new(&cfg, 1, tc, on_end, &r);
	mkpkt(&p, IPPROTO_UDP, "10.0.0.1", 1000, "10.0.0.2", 53, 0, 100);
	f = flow_handle_packet(ft, &p);
	mkpkt(&p, IPPROTO_UDP, "10.0.0.1", 1000, "10.0.0.2", 53, 0, 90);
	CHECK(flow_handle_packet(ft, &p) == f);
	CHECK_EQ(f->last.tv_sec, 100);
	flow_table_timeout(ft, &now);
	CHECK_EQ(r.n, 0);
	flow_table_free(ft);
}

/* fuzz_pipeline found it (main fixed it meanwhile in idle_us): pcapng
 * timestamps are 64-bit microseconds, so seconds reach ~1.8e13 and
 * (now - last) * 1e6 overflowed int64: a flow was never due after a huge
 * jump forward, and due at once after one backward. */
TEST(flow_huge_time_jumps_keep_timeout_order)
{
	ThreadCounters *tc = test_counters();
	FlowConfig cfg;
	FlowTable *ft;
	struct rec r = { 0 };
	Packet p;
	Flow *f;
	struct timeval now = { 5, 0 };
	const time_t far = (time_t)10000000000000LL; /* 1e13 s: 1e19 us > INT64_MAX */

	small_config(&cfg);
	ft = flow_table_new(&cfg, 1, tc, on_end, &r);
	mkpkt(&p, IPPROTO_UDP, "10.0.0.1", 1000, "10.0.0.2", 53, 0, far);
	f = flow_handle_packet(ft, &p);
	CHECK(f != NULL);
	/* far back in time: never due */
	flow_table_timeout(ft, &now);
	CHECK_EQ(r.n, 0);
	flow_table_free(ft);
	CHECK_EQ(r.n, 1);
	CHECK_EQ(r.why[0], FLOW_END_SHUTDOWN);

	memset(&r, 0, sizeof(r));
	ft = flow_table_new(&cfg, 1, tc, on_end, &r);
	mkpkt(&p, IPPROTO_UDP, "10.0.0.1", 1000, "10.0.0.2", 53, 0, 1000);
	f = flow_handle_packet(ft, &p);
	CHECK(f != NULL);
	/* far forward: due, by the packet and by the timeout walk */
	mkpkt(&p, IPPROTO_UDP, "10.0.0.1", 1000, "10.0.0.2", 53, 0, 1000 + far);
	f = flow_handle_packet(ft, &p);
	CHECK_EQ(r.n, 1);
	CHECK_EQ(r.why[0], FLOW_END_TIMEOUT);
	now.tv_sec = 1000 + 2 * far;
	flow_table_timeout(ft, &now);
	CHECK_EQ(r.n, 2);
	CHECK_EQ(r.why[1], FLOW_END_TIMEOUT);
	flow_table_free(ft);
}

TEST(flow_flush_ends_every_flow_with_shutdown)
{
	ThreadCounters *tc = test_counters();
	FlowConfig cfg;
	FlowTable *ft;
	struct rec r = { 0 };
	Packet p;

	small_config(&cfg);
	ft = flow_table_new(&cfg, 1, tc, on_end, &r);
	for (int i = 0; i < 10; i++) {
		mkpkt(&p, IPPROTO_TCP, "10.0.0.1", (uint16_t)(1000 + i), "10.0.0.2", 80, TH_SYN, 5);
		CHECK(flow_handle_packet(ft, &p) != NULL);
	}
	CHECK_EQ(cval(tc, "flow.active"), 10);
	flow_table_flush(ft);
	CHECK_EQ(r.n, 10);
	for (int i = 0; i < 10; i++)
		CHECK_EQ(r.why[i], FLOW_END_SHUTDOWN);
	CHECK_EQ(cval(tc, "flow.active"), 0);
	CHECK_EQ(cval(tc, "flow.end.state.new"), 10);
	CHECK_EQ(cval(tc, "flow.mgr.flows_timeout"), 0);
	flow_table_free(ft);
	CHECK_EQ(r.n, 10);
}

TEST(flow_vlan_ids_separate_flows)
{
	ThreadCounters *tc = test_counters();
	FlowConfig cfg;
	FlowTable *ft;
	Packet a, b, c;
	Flow *fa, *fb;

	small_config(&cfg);
	ft = flow_table_new(&cfg, 1, tc, NULL, NULL);
	mkpkt(&a, IPPROTO_UDP, "10.0.0.1", 1000, "10.0.0.2", 53, 0, 5);
	a.vlan_count = a.key_vlans = 1;
	a.vlan_id[0] = 10;
	mkpkt(&b, IPPROTO_UDP, "10.0.0.1", 1000, "10.0.0.2", 53, 0, 5);
	b.vlan_count = b.key_vlans = 1;
	b.vlan_id[0] = 20;
	CHECK(flow_hash_packet(&a) != flow_hash_packet(&b));
	fa = flow_handle_packet(ft, &a);
	fb = flow_handle_packet(ft, &b);
	CHECK(fa != NULL && fb != NULL && fa != fb);
	CHECK(fa->flow_id != fb->flow_id);
	/* the reply on vlan 10 finds the vlan 10 flow */
	mkpkt(&c, IPPROTO_UDP, "10.0.0.2", 53, "10.0.0.1", 1000, 0, 6);
	c.vlan_count = c.key_vlans = 1;
	c.vlan_id[0] = 10;
	CHECK(flow_handle_packet(ft, &c) == fa);
	CHECK_EQ(cval(tc, "flow.total"), 2);
	flow_table_free(ft);
}

/* Suricata keys ICMP on type: a request and its reply share a flow, requests
 * going opposite ways do not; a tunnel's inner packet never shares a flow
 * with the same tuple outside the tunnel (flow_level). */
TEST(flow_icmp_type_and_tunnel_level_separate_flows)
{
	ThreadCounters *tc = test_counters();
	FlowConfig cfg;
	FlowTable *ft;
	Packet a, b, c, d;
	Flow *fa;

	small_config(&cfg);
	ft = flow_table_new(&cfg, 1, tc, NULL, NULL);
	mkpkt(&a, IPPROTO_ICMP, "10.0.0.1", 0, "10.0.0.2", 0, 0, 5);
	a.icmp_type = 8;
	mkpkt(&b, IPPROTO_ICMP, "10.0.0.2", 0, "10.0.0.1", 0, 0, 5);
	b.icmp_type = 0;
	mkpkt(&c, IPPROTO_ICMP, "10.0.0.2", 0, "10.0.0.1", 0, 0, 5);
	c.icmp_type = 8;
	fa = flow_handle_packet(ft, &a);
	CHECK(fa != NULL);
	CHECK(flow_handle_packet(ft, &b) == fa);
	CHECK(b.flags & PKT_TOCLIENT);
	CHECK(flow_handle_packet(ft, &c) != fa);
	mkpkt(&d, IPPROTO_ICMP, "10.0.0.1", 0, "10.0.0.2", 0, 0, 5);
	d.icmp_type = 8;
	d.flow_level = 1;
	CHECK(flow_hash_packet(&d) != flow_hash_packet(&a));
	CHECK(flow_handle_packet(ft, &d) != fa);
	CHECK_EQ(cval(tc, "flow.total"), 3);
	/* GRE carriers get no flow */
	mkpkt(&d, 47, "10.0.0.1", 0, "10.0.0.2", 0, 0, 5);
	d.flags |= PKT_NO_FLOW;
	CHECK(flow_handle_packet(ft, &d) == NULL);
	flow_table_free(ft);
}

TEST(flow_tcp_close_and_reuse)
{
	ThreadCounters *tc = test_counters();
	FlowConfig cfg;
	FlowTable *ft;
	struct rec r = { 0 };
	Packet p;
	Flow *f, *g;

	small_config(&cfg);
	ft = flow_table_new(&cfg, 1, tc, on_end, &r);
	mkpkt(&p, IPPROTO_TCP, "10.0.0.1", 1000, "10.0.0.2", 80, TH_SYN, 5);
	f = flow_handle_packet(ft, &p);
	mkpkt(&p, IPPROTO_TCP, "10.0.0.2", 80, "10.0.0.1", 1000, TH_SYN | TH_ACK, 5);
	flow_handle_packet(ft, &p);
	mkpkt(&p, IPPROTO_TCP, "10.0.0.1", 1000, "10.0.0.2", 80, TH_FIN | TH_ACK, 6);
	flow_handle_packet(ft, &p);
	/* the stream engine owns a TCP flow's state (both sides seen is not
	 * enough, as in Suricata 8): set it as stream_handle_packet would */
	CHECK_EQ(f->state, FLOW_STATE_NEW);
	mkpkt(&p, IPPROTO_TCP, "10.0.0.2", 80, "10.0.0.1", 1000, TH_FIN | TH_ACK, 6);
	flow_handle_packet(ft, &p);
	CHECK_EQ(f->state, FLOW_STATE_NEW);
	f->state = FLOW_STATE_CLOSED;
	CHECK_EQ(flow_timeout_of(ft, f), 10);
	/* a new SYN on the closed tuple: a new flow */
	mkpkt(&p, IPPROTO_TCP, "10.0.0.1", 1000, "10.0.0.2", 80, TH_SYN, 7);
	g = flow_handle_packet(ft, &p);
	CHECK(g != NULL);
	CHECK_EQ(r.n, 1);
	CHECK_EQ(r.state[0], FLOW_STATE_CLOSED);
	CHECK_EQ(g->state, FLOW_STATE_NEW);
	CHECK_EQ(g->pkts_toserver, 1);
	CHECK_EQ(cval(tc, "flow.tcp_reuse"), 1);
	CHECK_EQ(cval(tc, "flow.tcp"), 2);
	CHECK_EQ(cval(tc, "flow.end.state.closed"), 1);
	/* RST closes too */
	flow_table_free(ft);
}

/* A table whose flow.memcap holds the table and exactly nflows flows,
 * with emergency-recovery `recovery` %. */
static FlowTable *table_for_flows(FlowConfig *cfg, ThreadCounters *tc, unsigned recovery,
				  unsigned nflows, struct rec *r)
{
	FlowTable *ft;
	uint64_t base;

	small_config(cfg);
	cfg->prealloc = 0;
	cfg->hash_size = 16;
	cfg->emergency_recovery = recovery;
	ft = flow_table_new(cfg, 1, tc, NULL, NULL);
	if (!ft)
		return NULL;
	base = cval(tc, "flow.memuse");
	flow_table_free(ft);
	cfg->memcap = base + nflows * mem_block_size(sizeof(Flow));
	return flow_table_new(cfg, 1, tc, on_end, r);
}

TEST(flow_memcap_forces_emergency_and_eviction)
{
	ThreadCounters *tc = test_counters();
	FlowConfig cfg;
	FlowTable *ft;
	struct rec r = { 0 };
	Packet p;
	uint64_t base;

	/* room for the table and exactly 10 flows */
	ft = table_for_flows(&cfg, tc, 50, 10, &r);
	CHECK(ft != NULL);
	base = cfg.memcap - 10 * mem_block_size(sizeof(Flow));
	for (int i = 0; i < 10; i++) {
		mkpkt(&p, IPPROTO_UDP, "10.0.0.1", (uint16_t)(1000 + i), "10.0.0.2", 53, 0, 100 + i);
		CHECK(flow_handle_packet(ft, &p) != NULL);
	}
	CHECK_EQ(r.n, 0);
	CHECK_EQ(cval(tc, "flow.memuse"), cfg.memcap);
	CHECK_EQ(cval(tc, "flow.emerg_mode_entered"), 0);
	/* the 11th: emergency; evict the oldest until memuse < memcap*50%:
	 * memuse = base + n*mem_block_size(sizeof(Flow)) < base/2 + 5*mem_block_size(sizeof(Flow)) ... */
	mkpkt(&p, IPPROTO_UDP, "10.0.0.1", 2000, "10.0.0.2", 53, 0, 110);
	CHECK(flow_handle_packet(ft, &p) != NULL);
	CHECK_EQ(cval(tc, "flow.emerg_mode_entered"), 1);
	CHECK_EQ(cval(tc, "flow.emerg_mode_over"), 1);
	/* exactly as many as bring memuse under the recovery target */
	{
		uint64_t target = cfg.memcap / 100 * 50 + cfg.memcap % 100 * 50 / 100;
		int k = 0;

		while (base + (10 - k) * mem_block_size(sizeof(Flow)) >= target)
			k++;
		CHECK(k >= 5);
		CHECK_EQ(r.n, k);
	}
	/* evicted under emergency mode: eve flow.emergency, as Suricata */
	for (int i = 0; i < r.n; i++) {
		CHECK_EQ(r.why[i], FLOW_END_FORCED);
		CHECK_EQ(r.emergency[i], 1);
	}
	CHECK_EQ(cval(tc, "flow.get_used"), r.n);
	/* every candidate looked at was taken: none busy, none refused */
	CHECK_EQ(cval(tc, "flow.get_used_eval"), r.n);
	CHECK_EQ(cval(tc, "flow.get_used_eval_busy"), 0);
	CHECK_EQ(cval(tc, "flow.get_used_eval_reject"), 0);
	CHECK_EQ(cval(tc, "flow.get_used_failed"), 0);
	CHECK_EQ(cval(tc, "flow.active"), 11 - r.n);
	CHECK(cval(tc, "flow.memuse") <= cfg.memcap);
	CHECK_EQ(cval(tc, "flow.memcap"), 0);
	/* the oldest went first, the newest stayed */
	mkpkt(&p, IPPROTO_UDP, "10.0.0.1", 1009, "10.0.0.2", 53, 0, 110);
	CHECK_EQ(flow_handle_packet(ft, &p)->start.tv_sec, 109);
	flow_table_free(ft);
}

/* The ac-cuda window holds a flow between a packet's two halves
 * (runmode/window.c): an eviction under memcap passes it over, and a
 * timeout waits until it is unpinned. */
TEST(flow_pinned_survives_eviction_and_timeout)
{
	ThreadCounters *tc = test_counters();
	FlowConfig cfg;
	FlowTable *ft;
	struct rec r = { 0 };
	Packet p;
	Flow *head = NULL;
	uint64_t head_id;
	struct timeval later = { 100000, 0 };

	ft = table_for_flows(&cfg, tc, 50, 10, &r);
	CHECK(ft != NULL);
	for (int i = 0; i < 10; i++) {
		Flow *f;

		mkpkt(&p, IPPROTO_UDP, "10.0.0.1", (uint16_t)(1000 + i), "10.0.0.2", 53, 0, 100 + i);
		f = flow_handle_packet(ft, &p);
		CHECK(f != NULL);
		if (!head)
			head = f;
	}
	/* the least recently used flow, the first eviction's choice */
	head->pinned = 1;
	head_id = head->flow_id;
	/* the 11th flow: emergency; the others go, oldest first */
	mkpkt(&p, IPPROTO_UDP, "10.0.0.1", 2000, "10.0.0.2", 53, 0, 110);
	CHECK(flow_handle_packet(ft, &p) != NULL);
	CHECK_EQ(cval(tc, "flow.emerg_mode_entered"), 1);
	CHECK(r.n >= 5);
	for (int i = 0; i < r.n; i++)
		CHECK(r.ids[i] != head_id);
	/* far past every timeout: all flows but the pinned one end */
	flow_table_timeout(ft, &later);
	CHECK_EQ(cval(tc, "flow.active"), 1);
	for (int i = 0; i < r.n; i++)
		CHECK(r.ids[i] != head_id);
	/* unpinned: it ends at the next look */
	head->pinned = 0;
	later.tv_sec++;
	flow_table_timeout(ft, &later);
	CHECK_EQ(cval(tc, "flow.active"), 0);
	CHECK_EQ(r.ids[r.n - 1], head_id);
	flow_table_free(ft);
}

TEST(flow_emergency_uses_emergency_timeouts_first)
{
	ThreadCounters *tc = test_counters();
	FlowConfig cfg;
	FlowTable *ft;
	struct rec r = { 0 };
	Packet p;

	ft = table_for_flows(&cfg, tc, 0, 4, &r);
	CHECK(ft != NULL);
	/* two old flows (idle 15 s > udp emergency-new 10 s), two young ones */
	for (int i = 0; i < 4; i++) {
		mkpkt(&p, IPPROTO_UDP, "10.0.0.1", (uint16_t)(1000 + i), "10.0.0.2", 53, 0,
		      i < 2 ? 100 : 114);
		CHECK(flow_handle_packet(ft, &p) != NULL);
	}
	mkpkt(&p, IPPROTO_UDP, "10.0.0.1", 2000, "10.0.0.2", 53, 0, 115);
	CHECK(flow_handle_packet(ft, &p) != NULL);
	CHECK_EQ(cval(tc, "flow.emerg_mode_entered"), 1);
	CHECK_EQ(r.n, 2);
	CHECK_EQ(r.why[0], FLOW_END_TIMEOUT);
	CHECK_EQ(r.why[1], FLOW_END_TIMEOUT);
	CHECK_EQ(cval(tc, "flow.get_used"), 0);
	CHECK_EQ(cval(tc, "flow.emerg_mode_over"), 1);
	flow_table_free(ft);
}

TEST(flow_memcap_too_small_counts_memcap)
{
	ThreadCounters *tc = test_counters();
	FlowConfig cfg;
	FlowTable *ft;
	Packet p;
	uint64_t base;

	small_config(&cfg);
	cfg.prealloc = 0;
	cfg.hash_size = 16;
	/* no recovery target can be met: the table stays in emergency mode,
	 * whatever sizeof(Flow) against the table's own memory */
	cfg.emergency_recovery = 100;
	ft = flow_table_new(&cfg, 1, tc, NULL, NULL);
	base = cval(tc, "flow.memuse");
	flow_table_free(ft);
	cfg.memcap = base + mem_block_size(sizeof(Flow)) / 2;
	ft = flow_table_new(&cfg, 1, tc, NULL, NULL);
	CHECK(ft != NULL);
	mkpkt(&p, IPPROTO_UDP, "10.0.0.1", 1000, "10.0.0.2", 53, 0, 100);
	CHECK(flow_handle_packet(ft, &p) == NULL);
	CHECK(!(p.flags & PKT_HAS_FLOW));
	CHECK_EQ(cval(tc, "flow.memcap"), 1);
	/* no flow to reuse: the reuse failed */
	CHECK_EQ(cval(tc, "flow.get_used_failed"), 1);
	CHECK_EQ(cval(tc, "flow.get_used_eval"), 0);
	CHECK_EQ(cval(tc, "flow.emerg_mode_entered"), 1);
	CHECK(flow_handle_packet(ft, &p) == NULL);
	CHECK_EQ(cval(tc, "flow.memcap"), 2);
	CHECK_EQ(cval(tc, "flow.emerg_mode_entered"), 1);
	flow_table_free(ft);
}

TEST(flow_prealloc_fills_spare_and_memuse)
{
	ThreadCounters *tc = test_counters();
	FlowConfig cfg;
	FlowTable *ft;
	Packet p;

	small_config(&cfg);
	cfg.prealloc = 8;
	ft = flow_table_new(&cfg, 2, tc, NULL, NULL);
	CHECK_EQ(cval(tc, "flow.spare"), 4);
	mkpkt(&p, IPPROTO_ICMP, "10.0.0.1", 0, "10.0.0.2", 0, 0, 100);
	CHECK(flow_handle_packet(ft, &p) != NULL);
	CHECK_EQ(cval(tc, "flow.spare"), 3);
	CHECK_EQ(cval(tc, "flow.icmpv4"), 1);
	flow_table_free(ft);
}

TEST(flow_packets_without_flow_are_left_alone)
{
	ThreadCounters *tc = test_counters();
	FlowConfig cfg;
	FlowTable *ft;
	Packet p;

	small_config(&cfg);
	ft = flow_table_new(&cfg, 1, tc, NULL, NULL);
	mkpkt(&p, IPPROTO_UDP, "10.0.0.1", 1000, "10.0.0.2", 53, 0, 100);
	p.flags |= PKT_INVALID;
	CHECK(flow_handle_packet(ft, &p) == NULL);
	mkpkt(&p, IPPROTO_UDP, "10.0.0.1", 1000, "10.0.0.2", 53, 0, 100);
	p.flags |= PKT_IS_FRAGMENT;
	CHECK(flow_handle_packet(ft, &p) == NULL);
	mkpkt(&p, IPPROTO_UDP, "10.0.0.1", 1000, "10.0.0.2", 53, 0, 100);
	p.ip_version = 0;
	CHECK(flow_handle_packet(ft, &p) == NULL);
	CHECK_EQ(p.flags, 0);
	CHECK_EQ(cval(tc, "flow.total"), 0);
	flow_table_free(ft);
}

TEST(flow_ipv6_flow_and_counter)
{
	ThreadCounters *tc = test_counters();
	FlowConfig cfg;
	FlowTable *ft;
	Packet a, b;
	Flow *f;

	small_config(&cfg);
	ft = flow_table_new(&cfg, 1, tc, NULL, NULL);
	memset(&a, 0, sizeof(a));
	a.ip_version = 6;
	a.proto = IPPROTO_ICMPV6;
	a.src.family = a.dst.family = AF_INET6;
	inet_pton(AF_INET6, "2001:db8::1", a.src.a.u8);
	inet_pton(AF_INET6, "2001:db8::2", a.dst.a.u8);
	b = a;
	b.src = a.dst;
	b.dst = a.src;
	f = flow_handle_packet(ft, &a);
	CHECK(f != NULL);
	CHECK(flow_handle_packet(ft, &b) == f);
	CHECK_EQ(cval(tc, "flow.icmpv6"), 1);
	CHECK_EQ(f->state, FLOW_STATE_ESTABLISHED);
	flow_table_free(ft);
}

TEST(flow_id_depends_on_tuple_and_start_only)
{
	ThreadCounters *tc = test_counters();
	FlowConfig cfg;
	FlowTable *t1, *t2;
	Packet p, q;
	uint64_t id;

	small_config(&cfg);
	t1 = flow_table_new(&cfg, 1, tc, NULL, NULL);
	t2 = flow_table_new(&cfg, 1, tc, NULL, NULL);
	mkpkt(&q, IPPROTO_UDP, "10.9.9.9", 1, "10.9.9.8", 2, 0, 50);
	flow_handle_packet(t2, &q); /* a different flow first in t2 */
	mkpkt(&p, IPPROTO_UDP, "10.0.0.1", 1000, "10.0.0.2", 53, 0, 100);
	id = flow_handle_packet(t1, &p)->flow_id;
	mkpkt(&p, IPPROTO_UDP, "10.0.0.1", 1000, "10.0.0.2", 53, 0, 100);
	CHECK_EQ(flow_handle_packet(t2, &p)->flow_id, id);
	flow_table_free(t1);
	flow_table_free(t2);
}

TEST(flow_names)
{
	CHECK_STREQ(flow_state_name(FLOW_STATE_NEW), "new");
	CHECK_STREQ(flow_state_name(FLOW_STATE_ESTABLISHED), "established");
	CHECK_STREQ(flow_state_name(FLOW_STATE_CLOSED), "closed");
	CHECK_STREQ(flow_end_reason_name(FLOW_END_TIMEOUT), "timeout");
	CHECK_STREQ(flow_end_reason_name(FLOW_END_FORCED), "forced");
	CHECK_STREQ(flow_end_reason_name(FLOW_END_SHUTDOWN), "shutdown");
}

TEST(flow_config_defaults_and_keys)
{
	static const char yaml[] =
		"flow:\n  memcap: 64mb\n  hash-size: 1024\n"
		"  prealloc: 10\n  emergency-recovery: 40\n"
		"flow-timeouts:\n  tcp:\n    new: 7\n    emergency-established: 9\n"
		"  udp:\n    established: 11\n";
	FlowConfig cfg;
	char err[256];
	int rc;

	conf_deinit();
	CHECK_EQ(flow_config_load(&cfg), 0);
	CHECK_EQ(cfg.memcap, 128ull << 20);
	CHECK_EQ(cfg.hash_size, 65536);
	CHECK_EQ(cfg.prealloc, 10000);
	CHECK_EQ(cfg.emergency_recovery, 30);
	/* Suricata 8's built-in values, not its shipped yaml's */
	CHECK_EQ(cfg.timeouts[FLOW_PROTO_TCP].established_s, 300);
	CHECK_EQ(cfg.timeouts[FLOW_PROTO_TCP].closed_s, 10);
	CHECK_EQ(cfg.timeouts[FLOW_PROTO_TCP].emerg_closed_s, 5);
	CHECK_EQ(cfg.timeouts[FLOW_PROTO_UDP].new_s, 30);
	CHECK_EQ(cfg.timeouts[FLOW_PROTO_ICMP].emerg_established_s, 100);
	CHECK_EQ(cfg.timeouts[FLOW_PROTO_DEFAULT].closed_s, 0);

	rc = conf_load_string(yaml, "test", err, sizeof(err));
	CHECK_EQ(rc, 0);
	CHECK_EQ(flow_config_load(&cfg), 0);
	CHECK_EQ(cfg.memcap, 64ull << 20);
	CHECK_EQ(cfg.hash_size, 1024);
	CHECK_EQ(cfg.prealloc, 10);
	CHECK_EQ(cfg.emergency_recovery, 40);
	CHECK_EQ(cfg.timeouts[FLOW_PROTO_TCP].new_s, 7);
	CHECK_EQ(cfg.timeouts[FLOW_PROTO_TCP].emerg_established_s, 9);
	CHECK_EQ(cfg.timeouts[FLOW_PROTO_TCP].established_s, 300);
	CHECK_EQ(cfg.timeouts[FLOW_PROTO_UDP].established_s, 11);

	CHECK_EQ(conf_set("flow-timeouts.udp.new", "abc"), 0);
	CHECK_EQ(flow_config_load(&cfg), -1);
	CHECK_EQ(conf_set("flow-timeouts.udp.new", "-5"), 0);
	CHECK_EQ(flow_config_load(&cfg), -1);
	CHECK_EQ(conf_set("flow-timeouts.udp.new", "5"), 0);
	CHECK_EQ(conf_set("flow.emergency-recovery", "101"), 0);
	CHECK_EQ(flow_config_load(&cfg), -1);
	conf_deinit();
}

/* Issue #17: a pcapng whose timestamps jump from 1,000 s to 1e13 s made
 * (now - last) * 1000000 overflow int64 (UB; in practice it wrapped negative,
 * so the flow never timed out). The idle time saturates instead. */
TEST(flow_timeout_after_huge_time_jump_is_due)
{
	ThreadCounters *tc = test_counters();
	FlowConfig cfg;
	FlowTable *ft;
	struct rec r = { 0 };
	Packet p;
	Flow *f, *g;
	struct timeval now = { (time_t)10000000000000LL + 1000, 0 };

	small_config(&cfg);
	ft = flow_table_new(&cfg, 1, tc, on_end, &r);
	mkpkt(&p, IPPROTO_UDP, "10.0.0.1", 1000, "10.0.0.2", 53, 0, 1000);
	f = flow_handle_packet(ft, &p);
	CHECK(f != NULL);
	flow_table_timeout(ft, &now);
	CHECK_EQ(r.n, 1);
	CHECK_EQ(r.why[0], FLOW_END_TIMEOUT);
	/* the same tuple after the jump: a new flow, the old one is due */
	mkpkt(&p, IPPROTO_UDP, "10.0.0.1", 1001, "10.0.0.2", 53, 0, 1000);
	f = flow_handle_packet(ft, &p);
	mkpkt(&p, IPPROTO_UDP, "10.0.0.1", 1001, "10.0.0.2", 53, 0, (time_t)20000000000000LL);
	g = flow_handle_packet(ft, &p);
	CHECK(g != NULL);
	CHECK_EQ(r.n, 2);
	CHECK_EQ(r.why[1], FLOW_END_TIMEOUT);
	/* and back again (time going backwards by 2e13 s) ends nothing early */
	now.tv_sec = 1000;
	flow_table_timeout(ft, &now);
	CHECK_EQ(r.n, 2);
	(void)f;
	flow_table_free(ft);
}

/* ---- ICMPv4 errors joined to the flow they quote ---- */

/* A quote: IPv4 header (ihl words) src -> dst, proto, then l4 bytes of an L4
 * header whose first four bytes are the ports. Returns its length. */
static uint32_t mkquote(uint8_t *b, uint8_t ihl, uint8_t proto, const char *src, uint16_t sp,
			const char *dst, uint16_t dp, uint32_t l4)
{
	uint32_t hl = (uint32_t)ihl * 4;

	memset(b, 0, hl + l4);
	b[0] = (uint8_t)(0x40 | ihl);
	b[9] = proto;
	inet_pton(AF_INET, src, b + 12);
	inet_pton(AF_INET, dst, b + 16);
	if (l4 >= 4) {
		b[hl] = (uint8_t)(sp >> 8);
		b[hl + 1] = (uint8_t)sp;
		b[hl + 2] = (uint8_t)(dp >> 8);
		b[hl + 3] = (uint8_t)dp;
	}
	return hl + l4;
}

/* An ICMPv4 error packet src -> dst of type/code carrying quote b. */
static void mkicmp(Packet *p, const char *src, const char *dst, uint8_t type, uint8_t code,
		   const uint8_t *b, uint32_t len, time_t sec)
{
	mkpkt(p, IPPROTO_ICMP, src, 0, dst, 0, 0, sec);
	p->icmp_type = type;
	p->icmp_code = code;
	p->payload = b;
	p->payload_len = (uint16_t)len;
	p->caplen = 14 + 20 + 8 + len;
}

TEST(icmp_quote_parse_udp_tcp_and_truncated)
{
	uint8_t b[128];
	FlowIcmpQuote q;
	uint32_t n;

	/* UDP: the 8-byte header is enough */
	n = mkquote(b, 5, IPPROTO_UDP, "10.0.0.2", 53, "10.0.0.1", 40000, 8);
	CHECK_EQ(flow_icmp_quote_parse(b, n, &q), 1);
	CHECK_EQ(q.proto, IPPROTO_UDP);
	CHECK_EQ(q.sp, 53);
	CHECK_EQ(q.dp, 40000);
	CHECK_EQ(q.src.family, AF_INET);
	CHECK_EQ(ntohl(q.src.a.u32[0]), 0x0a000002u);
	CHECK_EQ(ntohl(q.dst.a.u32[0]), 0x0a000001u);
	/* ... one byte short of it is not */
	CHECK_EQ(flow_icmp_quote_parse(b, n - 1, &q), 0);
	/* TCP needs the whole 20-byte header, as Suricata: RFC 792's 8 bytes hold
	 * the ports but are not taken for a flow */
	n = mkquote(b, 5, IPPROTO_TCP, "10.0.0.1", 1234, "10.0.0.2", 80, 20);
	CHECK_EQ(flow_icmp_quote_parse(b, n, &q), 1);
	CHECK_EQ(q.proto, IPPROTO_TCP);
	CHECK_EQ(q.sp, 1234);
	CHECK_EQ(q.dp, 80);
	CHECK_EQ(flow_icmp_quote_parse(b, 20 + 8, &q), 0);
	CHECK_EQ(flow_icmp_quote_parse(b, 20 + 19, &q), 0);
	/* IP options: the ports follow the quoted header's own length */
	n = mkquote(b, 6, IPPROTO_UDP, "10.0.0.1", 7, "10.0.0.2", 9, 8);
	CHECK_EQ(flow_icmp_quote_parse(b, n, &q), 1);
	CHECK_EQ(q.sp, 7);
	CHECK_EQ(q.dp, 9);
	CHECK_EQ(flow_icmp_quote_parse(b, 24 + 7, &q), 0);
	/* truncated IP header, wrong version, bad IHL, other protocols */
	CHECK_EQ(flow_icmp_quote_parse(b, 19, &q), 0);
	CHECK_EQ(flow_icmp_quote_parse(b, 0, &q), 0);
	n = mkquote(b, 5, IPPROTO_UDP, "10.0.0.1", 7, "10.0.0.2", 9, 8);
	b[0] = 0x65;
	CHECK_EQ(flow_icmp_quote_parse(b, n, &q), 0);
	b[0] = 0x44;
	CHECK_EQ(flow_icmp_quote_parse(b, n, &q), 0);
	b[0] = 0x4f; /* 60-byte header in a 28-byte quote */
	CHECK_EQ(flow_icmp_quote_parse(b, n, &q), 0);
	n = mkquote(b, 5, IPPROTO_ICMP, "10.0.0.1", 0, "10.0.0.2", 0, 8);
	CHECK_EQ(flow_icmp_quote_parse(b, n, &q), 0);
}

TEST(icmp_quote_only_from_valid_unreachables)
{
	uint8_t b[64];
	uint32_t n = mkquote(b, 5, IPPROTO_UDP, "10.0.0.2", 53, "10.0.0.1", 40000, 8);
	FlowIcmpQuote q;
	Packet p;

	mkicmp(&p, "10.0.0.1", "10.0.0.2", 3, 3, b, n, 1);
	CHECK_EQ(flow_icmp_quote(&p, &q), 1);
	/* an unknown code (Suricata decodes no quote past 15) */
	mkicmp(&p, "10.0.0.1", "10.0.0.2", 3, 16, b, n, 1);
	CHECK_EQ(flow_icmp_quote(&p, &q), 0);
	/* time exceeded and the other errors: no quote lookup */
	mkicmp(&p, "10.0.0.1", "10.0.0.2", 11, 0, b, n, 1);
	CHECK_EQ(flow_icmp_quote(&p, &q), 0);
	mkicmp(&p, "10.0.0.1", "10.0.0.2", 3, 3, b, n, 1);
	p.flags |= PKT_INVALID;
	CHECK_EQ(flow_icmp_quote(&p, &q), 0);
	mkicmp(&p, "10.0.0.1", "10.0.0.2", 3, 3, b, n, 1);
	p.proto = IPPROTO_ICMPV6;
	CHECK_EQ(flow_icmp_quote(&p, &q), 0);
	CHECK(flow_icmpv4_is_error(3) && flow_icmpv4_is_error(4) && flow_icmpv4_is_error(5) &&
	      flow_icmpv4_is_error(11) && flow_icmpv4_is_error(12));
	CHECK(!flow_icmpv4_is_error(0) && !flow_icmpv4_is_error(8) && !flow_icmpv4_is_error(13));
}

TEST(icmp_unreachable_joins_the_udp_flow_it_quotes)
{
	ThreadCounters *tc = test_counters();
	struct rec r = { 0 };
	uint8_t b[64];
	FlowConfig cfg;
	FlowTable *ft;
	Packet p;
	Flow *f, *g;
	uint32_t n;

	small_config(&cfg);
	ft = flow_table_new(&cfg, 1, tc, on_end, &r);
	/* a DNS query, then its answer */
	mkpkt(&p, IPPROTO_UDP, "10.0.0.1", 40000, "10.0.0.2", 53, 0, 10);
	f = flow_handle_packet(ft, &p);
	CHECK(f != NULL);
	mkpkt(&p, IPPROTO_UDP, "10.0.0.2", 53, "10.0.0.1", 40000, 0, 10);
	CHECK(flow_handle_packet(ft, &p) == f);
	/* the client's port unreachable for the answer: same hash (same
	 * autofp worker), same flow, to_server (its outer source is the client) */
	n = mkquote(b, 5, IPPROTO_UDP, "10.0.0.2", 53, "10.0.0.1", 40000, 8);
	mkicmp(&p, "10.0.0.1", "10.0.0.2", 3, 3, b, n, 11);
	CHECK_EQ(flow_hash_packet(&p), f->hash);
	g = flow_handle_packet(ft, &p);
	CHECK(g == f);
	CHECK(p.flow == f);
	CHECK(p.flags & PKT_TOSERVER);
	CHECK(!(p.flags & PKT_TOCLIENT));
	CHECK_EQ(f->pkts_toserver, 2);
	CHECK_EQ(f->pkts_toclient, 1);
	CHECK_EQ(f->bytes_toserver, 60 + p.caplen);
	CHECK_EQ(f->last.tv_sec, 11);
	/* the ICMP fields of the flow record stay the UDP flow's */
	CHECK_EQ(f->icmp_seen, 0);
	/* a router's unreachable for the query (quote in the flow's own
	 * direction), sent to the client: to_client */
	n = mkquote(b, 5, IPPROTO_UDP, "10.0.0.1", 40000, "10.0.0.2", 53, 8);
	mkicmp(&p, "192.168.1.1", "10.0.0.1", 3, 1, b, n, 12);
	CHECK(flow_handle_packet(ft, &p) == f);
	CHECK(p.flags & PKT_TOCLIENT);
	CHECK_EQ(f->pkts_toclient, 2);
	CHECK_EQ(f->state, FLOW_STATE_ESTABLISHED);
	CHECK_EQ(cval(tc, "flow.total"), 1);
	CHECK_EQ(cval(tc, "flow.icmpv4"), 0);
	flow_table_free(ft);
}

TEST(icmp_errors_never_create_flows)
{
	ThreadCounters *tc = test_counters();
	uint8_t b[64];
	FlowConfig cfg;
	FlowTable *ft;
	Packet p;
	uint32_t n;

	small_config(&cfg);
	ft = flow_table_new(&cfg, 1, tc, NULL, NULL);
	/* an unreachable quoting a flow that does not exist */
	n = mkquote(b, 5, IPPROTO_UDP, "10.0.0.2", 53, "10.0.0.1", 40000, 8);
	mkicmp(&p, "10.0.0.1", "10.0.0.2", 3, 3, b, n, 10);
	CHECK(flow_handle_packet(ft, &p) == NULL);
	CHECK(!(p.flags & PKT_HAS_FLOW));
	/* a time exceeded quoting nothing usable, a truncated unreachable */
	mkicmp(&p, "10.0.0.9", "10.0.0.1", 11, 0, b, n, 10);
	CHECK(flow_handle_packet(ft, &p) == NULL);
	mkicmp(&p, "10.0.0.9", "10.0.0.1", 3, 3, b, 20 + 4, 10);
	CHECK(flow_handle_packet(ft, &p) == NULL);
	CHECK_EQ(cval(tc, "flow.total"), 0);
	CHECK_EQ(cval(tc, "flow.memcap"), 0);
	/* an echo request still gets its ICMP flow */
	mkpkt(&p, IPPROTO_ICMP, "10.0.0.1", 0, "10.0.0.2", 0, 0, 10);
	p.icmp_type = 8;
	CHECK(flow_handle_packet(ft, &p) != NULL);
	CHECK_EQ(cval(tc, "flow.icmpv4"), 1);
	flow_table_free(ft);
}

TEST(icmp_unreachable_tcp_flow_and_truncated_quote)
{
	ThreadCounters *tc = test_counters();
	uint8_t b[64];
	FlowConfig cfg;
	FlowTable *ft;
	Packet p;
	Flow *f;
	uint32_t n;

	small_config(&cfg);
	ft = flow_table_new(&cfg, 1, tc, NULL, NULL);
	mkpkt(&p, IPPROTO_TCP, "10.0.0.1", 1234, "10.0.0.2", 80, TH_SYN, 10);
	f = flow_handle_packet(ft, &p);
	CHECK(f != NULL);
	/* a router's host unreachable for the SYN, with the whole TCP header */
	n = mkquote(b, 5, IPPROTO_TCP, "10.0.0.1", 1234, "10.0.0.2", 80, 20);
	mkicmp(&p, "192.168.1.1", "10.0.0.1", 3, 1, b, n, 10);
	CHECK(flow_handle_packet(ft, &p) == f);
	CHECK(p.flags & PKT_TOCLIENT);
	CHECK_EQ(f->pkts_toclient, 1);
	/* TCP's packets, not the error, make a TCP flow established */
	CHECK_EQ(f->state, FLOW_STATE_NEW);
	/* only RFC 792's 8 bytes of it: no flow (and none created) */
	mkicmp(&p, "192.168.1.1", "10.0.0.1", 3, 1, b, 28, 10);
	CHECK(flow_handle_packet(ft, &p) == NULL);
	/* a flow past its timeout is ended, not joined */
	mkicmp(&p, "192.168.1.1", "10.0.0.1", 3, 1, b, n, 10 + 1000);
	CHECK(flow_handle_packet(ft, &p) == NULL);
	CHECK_EQ(cval(tc, "flow.total"), 1);
	flow_table_free(ft);
}

/* Suricata 8 joins ICMPv4 unreachables only: an ICMPv6 error keeps the
 * ICMPv6 flow of its own. */
TEST(icmpv6_error_keeps_its_own_flow)
{
	ThreadCounters *tc = test_counters();
	FlowConfig cfg;
	FlowTable *ft;
	Packet p;

	small_config(&cfg);
	ft = flow_table_new(&cfg, 1, tc, NULL, NULL);
	mkpkt(&p, IPPROTO_ICMPV6, "10.0.0.1", 0, "10.0.0.2", 0, 0, 10);
	p.icmp_type = 1;
	p.icmp_code = 4;
	CHECK(flow_handle_packet(ft, &p) != NULL);
	CHECK_EQ(cval(tc, "flow.icmpv6"), 1);
	flow_table_free(ft);
}

static void set_macs(Packet *p, uint8_t src, uint8_t dst)
{
	memset(p->eth_src, 0, 6);
	memset(p->eth_dst, 0, 6);
	p->eth_src[5] = src;
	p->eth_dst[5] = dst;
	p->flags |= PKT_HAS_ETH;
}

/* eve flow records list every MAC a side used (Suricata's MAC set): the
 * client's side gets the toserver senders and the toclient receivers, each
 * once, in first-seen order, at most FLOW_MACS_MAX; a swap swaps the sides */
TEST(flow_keeps_every_mac_per_side)
{
	ThreadCounters *tc = test_counters();
	FlowConfig cfg;
	FlowTable *ft;
	Packet p;
	Flow *f;

	small_config(&cfg);
	ft = flow_table_new(&cfg, 1, tc, NULL, NULL);
	mkpkt(&p, IPPROTO_UDP, "10.0.0.1", 1000, "10.0.0.2", 53, 0, 100);
	set_macs(&p, 0x13, 0x14);
	f = flow_handle_packet(ft, &p);
	CHECK(f != NULL);
	mkpkt(&p, IPPROTO_UDP, "10.0.0.2", 53, "10.0.0.1", 1000, 0, 100);
	set_macs(&p, 0x12, 0x11);
	CHECK(flow_handle_packet(ft, &p) == f);
	mkpkt(&p, IPPROTO_UDP, "10.0.0.1", 1000, "10.0.0.2", 53, 0, 100);
	set_macs(&p, 0x13, 0x14);    /* seen already: no new entry */
	CHECK(flow_handle_packet(ft, &p) == f);
	CHECK_EQ(f->n_macs[0], 2);
	CHECK_EQ(f->n_macs[1], 2);
	CHECK_EQ(f->macs[0][0][5], 0x13);
	CHECK_EQ(f->macs[0][1][5], 0x11);
	CHECK_EQ(f->macs[1][0][5], 0x14);
	CHECK_EQ(f->macs[1][1][5], 0x12);
	for (int i = 0; i < 2 * FLOW_MACS_MAX; i++) {
		mkpkt(&p, IPPROTO_UDP, "10.0.0.1", 1000, "10.0.0.2", 53, 0, 100);
		set_macs(&p, (uint8_t)(0x40 + i), 0x14);
		CHECK(flow_handle_packet(ft, &p) == f);
	}
	CHECK_EQ(f->n_macs[0], FLOW_MACS_MAX);
	CHECK_EQ(f->n_macs[1], 2);
	flow_swap(f, NULL);
	CHECK_EQ(f->n_macs[0], 2);
	CHECK_EQ(f->macs[0][0][5], 0x14);
	CHECK_EQ(f->n_macs[1], FLOW_MACS_MAX);
	CHECK_EQ(f->macs[1][0][5], 0x13);
	flow_table_free(ft);
}

/* vlan.use-for-tracking: false (decode leaves key_vlans 0): the two
 * directions of a flow on different vlans are one flow, which logs the
 * vlan of its first packet */
TEST(flow_vlans_not_tracked_one_flow)
{
	ThreadCounters *tc = test_counters();
	FlowConfig cfg;
	FlowTable *ft;
	Packet a, b;
	Flow *fa;

	small_config(&cfg);
	ft = flow_table_new(&cfg, 1, tc, NULL, NULL);
	mkpkt(&a, IPPROTO_UDP, "10.0.0.1", 1000, "10.0.0.2", 53, 0, 5);
	a.vlan_count = 1;
	a.vlan_id[0] = 10;
	mkpkt(&b, IPPROTO_UDP, "10.0.0.2", 53, "10.0.0.1", 1000, 0, 5);
	b.vlan_count = 1;
	b.vlan_id[0] = 20;
	CHECK_EQ(flow_hash_packet(&a), flow_hash_packet(&b));
	fa = flow_handle_packet(ft, &a);
	CHECK(fa != NULL);
	CHECK(flow_handle_packet(ft, &b) == fa);
	CHECK_EQ(fa->vlan_count, 1);
	CHECK_EQ(fa->vlan_id[0], 10);
	CHECK_EQ(cval(tc, "flow.total"), 1);
	flow_table_free(ft);
}

/* Suricata 8's flow.mgr / flow.wrk / flow.recycler counters: the timeout
 * walk is the manager (its evictions of flows with state "need work", which
 * the worker then does: injected), a flow found timed out at lookup is the
 * worker's eviction, and every ended flow is recycled */
TEST(flow_mgr_wrk_recycler_counters)
{
	ThreadCounters *tc = test_counters();
	FlowConfig cfg;
	FlowTable *ft;
	struct rec r = { 0 };
	Packet p;
	Flow *f;
	struct timeval now = { 131, 0 };
	int dummy;

	small_config(&cfg);
	ft = flow_table_new(&cfg, 1, tc, on_end, &r);
	CHECK_EQ(cval(tc, "flow.mgr.rows_per_sec"), 64);
	CHECK_EQ(cval(tc, "flow.mgr.rows_maxlen"), 0);
	/* a UDP flow with app-layer state, and one without */
	mkpkt(&p, IPPROTO_UDP, "10.0.0.1", 1000, "10.0.0.2", 53, 0, 100);
	f = flow_handle_packet(ft, &p);
	f->alstate = &dummy;
	mkpkt(&p, IPPROTO_UDP, "10.0.0.3", 1000, "10.0.0.4", 53, 0, 120);
	flow_handle_packet(ft, &p);
	CHECK(cval(tc, "flow.mgr.rows_maxlen") >= 1);
	flow_table_timeout(ft, &now);
	CHECK_EQ(r.n, 1);
	CHECK_EQ(cval(tc, "flow.mgr.full_hash_pass"), 1);
	CHECK_EQ(cval(tc, "flow.mgr.flows_checked"), 2);
	CHECK_EQ(cval(tc, "flow.mgr.flows_notimeout"), 1);
	CHECK_EQ(cval(tc, "flow.mgr.flows_evicted"), 1);
	CHECK_EQ(cval(tc, "flow.mgr.flows_evicted_needs_work"), 1);
	CHECK_EQ(cval(tc, "flow.wrk.flows_injected"), 1);
	CHECK_EQ(cval(tc, "flow.wrk.flows_injected_max"), 1);
	CHECK_EQ(cval(tc, "flow.recycler.recycled"), 1);
	CHECK_EQ(cval(tc, "flow.wrk.flows_evicted"), 0);
	/* the second flow's next packet finds it timed out: the worker's */
	mkpkt(&p, IPPROTO_UDP, "10.0.0.3", 1000, "10.0.0.4", 53, 0, 300);
	CHECK(flow_handle_packet(ft, &p) != NULL);
	CHECK_EQ(r.n, 2);
	CHECK_EQ(cval(tc, "flow.wrk.flows_evicted"), 1);
	CHECK_EQ(cval(tc, "flow.wrk.flows_evicted_needs_work"), 0);
	CHECK_EQ(cval(tc, "flow.mgr.flows_evicted"), 1);
	CHECK_EQ(cval(tc, "flow.mgr.flows_timeout"), 2);
	CHECK_EQ(cval(tc, "flow.recycler.recycled"), 2);
	flow_table_free(ft);
	CHECK_EQ(cval(tc, "flow.recycler.recycled"), 3);
	CHECK_EQ(cval(tc, "flow.recycler.queue_max"), 0);
}
