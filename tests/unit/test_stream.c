/* TCP tracking and reassembly: sessions built from hand-made packets. Client ISN
 * 1000 (first data byte 1001), server ISN 5000 (first data byte 5001). */
#include "test.h"
#include "stream/stream.h"
#include "conf/conf.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>

#define TS 0   /* toserver */
#define TC 1   /* toclient */

struct ctx {
	StreamConfig cfg;
	ThreadCounters *tc;
	StreamThread *st;
	Flow f;
	Packet p;           /* the last packet sent */
	int rflags;
	Address cli, srv;   /* packet addresses (zero: none) */
};

static ThreadCounters *test_counters(void)
{
	static int done;

	if (!done) {
		stream_register_counters();
		counters_freeze();
		done = 1;
	}
	return thread_counters_new();
}

static uint64_t cval(struct ctx *c, const char *name)
{
	int id = counter_lookup(name);

	return id < 0 ? (uint64_t)-1 : counter_get(c->tc, (counter_id)id);
}

/* Config from an empty tree (Suricata's defaults), then the test's tweaks. */
static void ctx_init(struct ctx *c)
{
	memset(c, 0, sizeof(*c));
	stream_config_load(&c->cfg);
	c->tc = test_counters();
	c->f.proto = IPPROTO_TCP;
}

static void ctx_start(struct ctx *c)
{
	c->st = stream_thread_new(&c->cfg, c->tc);
}

static void ctx_done(struct ctx *c)
{
	stream_flow_free(c->st, &c->f);
	stream_thread_free(c->st);
	c->st = NULL;
}

static int sendp(struct ctx *c, int dir, uint8_t flags, uint32_t seq, uint32_t ack,
		 const char *data)
{
	Packet *p = &c->p;

	memset(p, 0, sizeof(*p));
	p->ip_version = 4;
	p->proto = IPPROTO_TCP;
	p->l4 = (const uint8_t *)"x";
	p->flags = PKT_HAS_FLOW | (dir ? PKT_TOCLIENT : PKT_TOSERVER);
	p->flow = &c->f;
	p->src = dir ? c->srv : c->cli;
	p->dst = dir ? c->cli : c->srv;
	p->tcp_flags = flags;
	p->tcp_seq = seq;
	p->tcp_ack = ack;
	p->tcp_win = 65535;
	p->tcp_wscale = 0xff;
	p->payload = (const uint8_t *)(data ? data : "");
	p->payload_len = data ? (uint16_t)strlen(data) : 0;
	c->rflags = stream_handle_packet(c->st, &c->f, p);
	return c->rflags;
}

static void handshake_at(struct ctx *c, uint32_t cisn, uint32_t sisn)
{
	sendp(c, TS, TH_SYN, cisn, 0, NULL);
	sendp(c, TC, TH_SYN | TH_ACK, sisn, cisn + 1, NULL);
	sendp(c, TS, TH_ACK, cisn + 1, sisn + 1, NULL);
}

static void handshake(struct ctx *c)
{
	handshake_at(c, 1000, 5000);
}

/* Ready bytes of dir from offset `from` (one contiguous run) as a string. */
static const char *ready(struct ctx *c, int dir, uint64_t from, uint64_t *base)
{
	static char out[4096];
	const uint8_t *d;
	uint32_t len;
	uint64_t b;

	out[0] = 0;
	if (!stream_get_data(&c->f, dir, from, &d, &len, &b))
		return out;
	if (len >= sizeof(out))
		len = sizeof(out) - 1;
	memcpy(out, d, len);
	out[len] = 0;
	if (base)
		*base = b;
	return out;
}

static int has_event(const Packet *p, int ev)
{
	for (int i = 0; i < p->stream_nevents; i++)
		if (p->stream_events[i] == ev)
			return 1;
	return 0;
}

/* ---- handshake and data ---- */

TEST(three_way_handshake_establishes_session)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	sendp(&c, TS, TH_SYN, 1000, 0, NULL);
	CHECK(c.rflags & STREAM_PKT_HAS_SESSION);
	CHECK(!(c.rflags & STREAM_PKT_ESTABLISHED));
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "syn_sent");
	sendp(&c, TC, TH_SYN | TH_ACK, 5000, 1001, NULL);
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "syn_recv");
	CHECK(!(c.rflags & STREAM_PKT_ESTABLISHED));
	sendp(&c, TS, TH_ACK, 1001, 5001, NULL);
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "established");
	CHECK(c.rflags & STREAM_PKT_ESTABLISHED);
	CHECK_EQ(cval(&c, "tcp.syn"), 1);
	CHECK_EQ(cval(&c, "tcp.synack"), 1);
	CHECK_EQ(cval(&c, "tcp.sessions"), 1);
	CHECK_EQ(cval(&c, "tcp.active_sessions"), 1);
	ctx_done(&c);
	CHECK_EQ(cval(&c, "tcp.active_sessions"), 0);
}

TEST(four_way_handshake_establishes_session)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	/* split handshake: the server answers the SYN with its own SYN, the
	 * client SYN/ACKs it, the server ACKs */
	sendp(&c, TS, TH_SYN, 1000, 0, NULL);
	sendp(&c, TC, TH_SYN, 5000, 0, NULL);
	CHECK(!(c.rflags & STREAM_PKT_INVALID));
	sendp(&c, TS, TH_SYN | TH_ACK, 1000, 5001, NULL);
	CHECK(!(c.rflags & STREAM_PKT_INVALID));
	CHECK(!(c.rflags & STREAM_PKT_ESTABLISHED));
	sendp(&c, TC, TH_ACK, 5001, 1001, NULL);
	CHECK(c.rflags & STREAM_PKT_ESTABLISHED);
	CHECK_EQ(stream_tcp_state(&c.f), TCP_ESTABLISHED);
	sendp(&c, TS, TH_ACK | TH_PSH, 1001, 5001, "EVIL");
	CHECK(c.rflags & STREAM_PKT_ADDED);
	sendp(&c, TC, TH_ACK, 5001, 1005, NULL);
	CHECK_STREQ(ready(&c, TS, 0, NULL), "EVIL");
	ctx_done(&c);
}

TEST(four_way_synack_with_wrong_syn_is_rejected_with_event)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	sendp(&c, TS, TH_SYN, 1000, 0, NULL);
	sendp(&c, TC, TH_SYN, 5000, 0, NULL);
	sendp(&c, TS, TH_SYN | TH_ACK, 1234, 5001, NULL);
	CHECK(c.rflags & STREAM_PKT_INVALID);
	CHECK(has_event(&c.p, SEV_4WHS_SYNACK_WITH_WRONG_SYN));
	CHECK_EQ(stream_tcp_state(&c.f), TCP_SYN_SENT);
	ctx_done(&c);
}

TEST(syn_with_new_isn_past_syn_queue_is_syn_flood)
{
	struct ctx c;

	ctx_init(&c);
	c.cfg.max_syn_queued = 2;
	ctx_start(&c);
	sendp(&c, TS, TH_SYN, 1000, 0, NULL);
	/* two replaced SYNs fit the queue; a resent SYN is no new one */
	sendp(&c, TS, TH_SYN, 2000, 0, NULL);
	sendp(&c, TS, TH_SYN, 2000, 0, NULL);
	sendp(&c, TS, TH_SYN, 3000, 0, NULL);
	CHECK(!has_event(&c.p, SEV_3WHS_SYN_FLOOD));
	sendp(&c, TS, TH_SYN, 4000, 0, NULL);
	CHECK(has_event(&c.p, SEV_3WHS_SYN_FLOOD));
	/* the newest SYN still leads the handshake */
	sendp(&c, TC, TH_SYN | TH_ACK, 5000, 4001, NULL);
	CHECK(!(c.rflags & STREAM_PKT_INVALID));
	sendp(&c, TS, TH_ACK, 4001, 5001, NULL);
	CHECK(c.rflags & STREAM_PKT_ESTABLISHED);
	ctx_done(&c);
}

TEST(synack_with_wrong_ack_is_rejected_with_event)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	sendp(&c, TS, TH_SYN, 1000, 0, NULL);
	sendp(&c, TC, TH_SYN | TH_ACK, 5000, 777, NULL);
	CHECK(c.rflags & STREAM_PKT_INVALID);
	CHECK(has_event(&c.p, SEV_3WHS_SYNACK_WITH_WRONG_ACK));
	CHECK_EQ(cval(&c, "stream.3whs_synack_with_wrong_ack"), 1);
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "syn_sent");
	ctx_done(&c);
}

TEST(ack_from_server_in_syn_recv_is_wrong_direction)
{
	struct ctx c;

	/* inline: the ACK in the wrong direction is refused */
	ctx_init(&c);
	c.cfg.inline_mode = 1;
	ctx_start(&c);
	sendp(&c, TS, TH_SYN, 1000, 0, NULL);
	sendp(&c, TC, TH_SYN | TH_ACK, 5000, 1001, NULL);
	sendp(&c, TC, TH_ACK, 5001, 1001, NULL);
	CHECK(has_event(&c.p, SEV_3WHS_ACK_IN_WRONG_DIR));
	CHECK(c.rflags & STREAM_PKT_INVALID);
	/* with data it looks like an injection */
	sendp(&c, TC, TH_ACK | TH_PSH, 5001, 1001, "220 hi\r\n");
	CHECK(has_event(&c.p, SEV_3WHS_ACK_DATA_INJECT));
	CHECK(c.rflags & STREAM_PKT_INVALID);
	ctx_done(&c);
}

/* IDS: the client's ACK came before the SYN/ACK (or was lost) and the
 * server goes on with data: the handshake is taken as done (Suricata,
 * suricata-verify issue-4220-01-ids). */
TEST(server_data_in_syn_recv_completes_missed_handshake_in_ids)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	sendp(&c, TS, TH_SYN, 1000, 0, NULL);
	sendp(&c, TS, TH_ACK, 1001, 5001, NULL);
	sendp(&c, TC, TH_SYN | TH_ACK, 5000, 1001, NULL);
	sendp(&c, TC, TH_ACK | TH_PSH, 5001, 1001, "220 hi\r\n");
	CHECK(!(c.rflags & STREAM_PKT_INVALID));
	CHECK(c.rflags & STREAM_PKT_ESTABLISHED);
	sendp(&c, TS, TH_ACK, 1001, 5009, NULL);
	CHECK_STREQ(ready(&c, TC, 0, NULL), "220 hi\r\n");
	/* a wrong seq is still refused */
	ctx_done(&c);
	ctx_init(&c);
	ctx_start(&c);
	sendp(&c, TS, TH_SYN, 1000, 0, NULL);
	sendp(&c, TC, TH_SYN | TH_ACK, 5000, 1001, NULL);
	sendp(&c, TC, TH_ACK, 5100, 1001, NULL);
	CHECK(has_event(&c.p, SEV_3WHS_ACK_IN_WRONG_DIR));
	ctx_done(&c);
}

TEST(data_becomes_ready_only_when_acked)
{
	struct ctx c;
	uint64_t base = 99;

	ctx_init(&c);
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TS, TH_ACK | TH_PSH, 1001, 5001, "GET / HTTP/1.0\r\n");
	CHECK_EQ(stream_ready_offset(&c.f, TS), 0);
	CHECK_STREQ(ready(&c, TS, 0, NULL), "");
	/* server ACKs 10 of 16 bytes: only those are ready */
	sendp(&c, TC, TH_ACK, 5001, 1011, NULL);
	CHECK(c.rflags & STREAM_PKT_TS_READY);
	CHECK_EQ(stream_ready_offset(&c.f, TS), 10);
	CHECK_STREQ(ready(&c, TS, 0, &base), "GET / HTTP");
	CHECK_EQ(base, 0);
	sendp(&c, TC, TH_ACK | TH_PSH, 5001, 1017, "HTTP/1.0 200 OK\r\n");
	CHECK_STREQ(ready(&c, TS, 0, NULL), "GET / HTTP/1.0\r\n");
	CHECK_EQ(stream_ready_offset(&c.f, TC), 0);
	sendp(&c, TS, TH_ACK, 1017, 5018, NULL);
	CHECK(c.rflags & STREAM_PKT_TC_READY);
	CHECK_STREQ(ready(&c, TC, 0, NULL), "HTTP/1.0 200 OK\r\n");
	CHECK_STREQ(ready(&c, TS, 6, NULL), "HTTP/1.0\r\n");
	ctx_done(&c);
}

TEST(out_of_order_segments_are_reassembled_in_order)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TS, TH_ACK, 1011, 5001, "world");
	sendp(&c, TS, TH_ACK, 1006, 5001, "brave");
	sendp(&c, TS, TH_ACK, 1001, 5001, "hello");
	CHECK(!(c.rflags & STREAM_PKT_RETRANSMISSION));
	sendp(&c, TC, TH_ACK, 5001, 1016, NULL);
	CHECK_STREQ(ready(&c, TS, 0, NULL), "hellobraveworld");
	CHECK_EQ(cval(&c, "tcp.reassembly_gap"), 0);
	CHECK_EQ(cval(&c, "tcp.overlap"), 0);
	ctx_done(&c);
}

TEST(ack_arriving_before_its_data_still_readies_it)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TC, TH_ACK, 5001, 1006, NULL);
	sendp(&c, TS, TH_ACK, 1001, 5001, "hello");
	CHECK(c.rflags & STREAM_PKT_TS_READY);
	CHECK_STREQ(ready(&c, TS, 0, NULL), "hello");
	CHECK_EQ(cval(&c, "tcp.reassembly_gap"), 0);
	ctx_done(&c);
}

/* ---- retransmissions and overlaps ---- */

TEST(retransmission_with_same_data_is_flagged_not_diff)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TS, TH_ACK, 1001, 5001, "hello");
	CHECK(!(c.rflags & STREAM_PKT_RETRANSMISSION));
	sendp(&c, TS, TH_ACK, 1001, 5001, "hello");
	CHECK(c.rflags & STREAM_PKT_RETRANSMISSION);
	CHECK(has_event(&c.p, SEV_PKT_RETRANSMISSION));
	CHECK_EQ(cval(&c, "tcp.overlap"), 1);
	CHECK_EQ(cval(&c, "tcp.overlap_diff_data"), 0);
	CHECK_EQ(cval(&c, "stream.pkt_retransmission"), 1);
	ctx_done(&c);
}

/* Original "EFGH" at offsets 4..8 (out of order, after "ab" at 0..2), then a new
 * segment either starting earlier ("cdWXYZ" at 2..8) or at the same place
 * ("WXYZ" at 4..8). Returns the reassembled 8 bytes. */
static const char *overlap_case(struct ctx *c, enum stream_policy pol, int same_start)
{
	ctx_init(c);
	c->cfg.policy = pol;
	ctx_start(c);
	handshake(c);
	sendp(c, TS, TH_ACK, 1001, 5001, "ab");
	sendp(c, TS, TH_ACK, 1005, 5001, "EFGH");
	if (same_start) {
		sendp(c, TS, TH_ACK, 1005, 5001, "WXYZ");
		sendp(c, TS, TH_ACK, 1003, 5001, "cd");
	} else {
		sendp(c, TS, TH_ACK, 1003, 5001, "cdWXYZ");
	}
	sendp(c, TC, TH_ACK, 5001, 1009, NULL);
	return ready(c, TS, 0, NULL);
}

TEST(overlap_bsd_new_segment_starting_earlier_wins)
{
	struct ctx c;

	CHECK_STREQ(overlap_case(&c, STREAM_POLICY_BSD, 0), "abcdWXYZ");
	CHECK_EQ(cval(&c, "tcp.overlap"), 1);
	CHECK_EQ(cval(&c, "tcp.overlap_diff_data"), 1);
	CHECK_EQ(cval(&c, "stream.reassembly_overlap_different_data"), 1);
	ctx_done(&c);
}

TEST(overlap_bsd_same_start_keeps_original)
{
	struct ctx c;

	CHECK_STREQ(overlap_case(&c, STREAM_POLICY_BSD, 1), "abcdEFGH");
	CHECK_EQ(cval(&c, "tcp.overlap_diff_data"), 1);
	ctx_done(&c);
}

TEST(overlap_first_keeps_original_data)
{
	struct ctx c;

	CHECK_STREQ(overlap_case(&c, STREAM_POLICY_FIRST, 0), "abcdEFGH");
	ctx_done(&c);
	CHECK_STREQ(overlap_case(&c, STREAM_POLICY_FIRST, 1), "abcdEFGH");
	ctx_done(&c);
}

TEST(overlap_last_takes_new_data)
{
	struct ctx c;

	CHECK_STREQ(overlap_case(&c, STREAM_POLICY_LAST, 0), "abcdWXYZ");
	ctx_done(&c);
	CHECK_STREQ(overlap_case(&c, STREAM_POLICY_LAST, 1), "abcdWXYZ");
	CHECK_EQ(cval(&c, "tcp.overlap_diff_data"), 1);
	ctx_done(&c);
}

TEST(overlap_linux_same_start_longer_new_segment_wins)
{
	struct ctx c;

	for (int linux_pol = 0; linux_pol < 2; linux_pol++) {
		ctx_init(&c);
		c.cfg.policy = linux_pol ? STREAM_POLICY_LINUX : STREAM_POLICY_BSD;
		ctx_start(&c);
		handshake(&c);
		sendp(&c, TS, TH_ACK, 1005, 5001, "EFGH");     /* 4..8, hole before */
		sendp(&c, TS, TH_ACK, 1005, 5001, "WXYZQ");    /* same start, ends later */
		sendp(&c, TS, TH_ACK, 1001, 5001, "abcd");
		sendp(&c, TC, TH_ACK, 5001, 1010, NULL);
		CHECK_STREQ(ready(&c, TS, 0, NULL), linux_pol ? "abcdWXYZQ" : "abcdEFGHQ");
		ctx_done(&c);
	}
}

TEST(overlap_policy_is_read_from_config)
{
	StreamConfig cfg;
	char err[256];

	CHECK(conf_load_string("stream:\n  reassembly:\n    policy: last\n    depth: 2mb\n"
			       "  midstream: yes\n", "t", err, sizeof(err)) == 0);
	CHECK_EQ(stream_config_load(&cfg), 0);
	CHECK_EQ(cfg.policy, STREAM_POLICY_LAST);
	CHECK_EQ(cfg.reassembly_depth, 2u << 20);
	CHECK_EQ(cfg.midstream, 1);
	CHECK_EQ(cfg.memcap, 64u << 20);
	CHECK_EQ(cfg.checksum_validation, 1);
	conf_set("stream.reassembly.policy", "nonsense");
	CHECK_EQ(stream_config_load(&cfg), -1);
	conf_deinit();
}

TEST(ready_data_is_never_rewritten_by_retransmission)
{
	struct ctx c;

	ctx_init(&c);
	c.cfg.policy = STREAM_POLICY_LAST;
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TS, TH_ACK, 1001, 5001, "hello");
	sendp(&c, TC, TH_ACK, 5001, 1006, NULL);
	sendp(&c, TS, TH_ACK, 1001, 5001, "HELLO");
	CHECK(c.rflags & STREAM_PKT_RETRANSMISSION);
	CHECK(has_event(&c.p, SEV_PKT_SPURIOUS_RETRANSMISSION));
	CHECK(has_event(&c.p, SEV_REASSEMBLY_OVERLAP_DIFFERENT_DATA));
	CHECK_STREQ(ready(&c, TS, 0, NULL), "hello");
	CHECK_EQ(cval(&c, "tcp.overlap_diff_data"), 1);
	ctx_done(&c);
}

/* The split-pattern case from the issue: "EVIL" split over two segments, the
 * second arrives first, then is retransmitted with other bytes; the stream
 * shows the pattern once, with the bytes the policy chose. */
TEST(split_pattern_out_of_order_retransmitted_keeps_policy_bytes)
{
	struct ctx c;
	const char *s;

	ctx_init(&c);
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TS, TH_ACK, 1005, 5001, "IL!");   /* offsets 4..7 first */
	sendp(&c, TS, TH_ACK, 1005, 5001, "OK!");   /* same start: bsd keeps "IL!" */
	sendp(&c, TS, TH_ACK, 1001, 5001, "xxEV");
	sendp(&c, TC, TH_ACK, 5001, 1008, NULL);
	s = ready(&c, TS, 0, NULL);
	CHECK_STREQ(s, "xxEVIL!");
	CHECK(strstr(s, "EVIL") && !strstr(strstr(s, "EVIL") + 1, "EVIL"));
	ctx_done(&c);
}

/* ---- gaps ---- */

/* The flow's end skips a hole nobody ACKed: the data after it is inspected,
 * but it is no gap event or tcp.reassembly_gap (suricata-verify
 * tcp-rst-unacked-stream-03-gap); the direction still shows a gap. */
TEST(gap_at_flush_is_skipped_not_counted)
{
	struct ctx c;
	uint64_t base = 0;

	ctx_init(&c);
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TS, TH_ACK, 1001, 5001, "aaa");
	sendp(&c, TS, TH_ACK, 1007, 5001, "ccc");   /* 1004..1006 never seen */
	stream_flow_end(c.st, &c.f);
	CHECK_STREQ(ready(&c, TS, 0, &base), "aaa");
	CHECK_EQ(base, 0);
	CHECK_STREQ(ready(&c, TS, 3, &base), "ccc");
	CHECK_EQ(base, 6);
	CHECK_EQ(stream_ready_offset(&c.f, TS), 9);
	CHECK_EQ(cval(&c, "tcp.reassembly_gap"), 0);
	CHECK(stream_dir_flags(&c.f, TS) & STREAM_DIR_GAP);
	CHECK(stream_dir_flags(&c.f, TS) & STREAM_DIR_EOF);
	ctx_done(&c);
}

TEST(acked_hole_is_a_gap_event_on_the_acking_packet)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TS, TH_ACK, 1001, 5001, "aaa");
	sendp(&c, TS, TH_ACK, 1007, 5001, "ccc");
	sendp(&c, TC, TH_ACK, 5001, 1010, NULL);
	CHECK(has_event(&c.p, SEV_REASSEMBLY_SEQ_GAP));
	CHECK_EQ(stream_ready_offset(&c.f, TS), 9);
	CHECK_STREQ(ready(&c, TS, 2, NULL), "a");
	CHECK_STREQ(ready(&c, TS, 4, NULL), "ccc");
	ctx_done(&c);
}

/* Inline: a byte the sensor never forwarded (an urgent byte under
 * urgent.policy drop) that the receiver ACKs anyway is no hole to wait on:
 * the data after it is ready on its own packet, as Suricata's app layer
 * goes on past an ACKed gap at once (suricata-verify tcp-urgp-02-drop-ips) */
TEST(inline_acked_hole_does_not_hold_back_later_data)
{
	struct ctx c;

	ctx_init(&c);
	c.cfg.inline_mode = 1;
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TS, TH_ACK, 1001, 5001, "aaa");
	CHECK_EQ(stream_ready_offset(&c.f, TS), 3);
	/* offset 3 never seen; the server ACKs past it */
	sendp(&c, TC, TH_ACK, 5001, 1005, NULL);
	CHECK_EQ(stream_ready_offset(&c.f, TS), 3);
	sendp(&c, TS, TH_ACK, 1005, 5001, "ccc");
	CHECK(c.rflags & STREAM_PKT_TS_READY);
	CHECK_EQ(stream_ready_offset(&c.f, TS), 7);
	CHECK_STREQ(ready(&c, TS, 4, NULL), "ccc");
	CHECK_EQ(cval(&c, "tcp.reassembly_gap"), 1);
	ctx_done(&c);
}

/* eve's stream logger: a state change is flagged with the state before */
TEST(state_change_is_flagged_and_viewed)
{
	struct ctx c;
	StreamSessionView v;

	ctx_init(&c);
	ctx_start(&c);
	handshake(&c);
	CHECK(c.rflags & STREAM_PKT_STATE_UPDATE);
	CHECK_EQ(stream_session_view(&c.f, &v), 0);
	CHECK_EQ(v.state, TCP_ESTABLISHED);
	CHECK_EQ(v.pstate, TCP_SYN_RECV);
	CHECK_EQ(v.dir[TS].isn, 1000);
	sendp(&c, TS, TH_ACK, 1001, 5001, "aaa");
	CHECK(!(c.rflags & STREAM_PKT_STATE_UPDATE));
	CHECK_EQ(stream_session_view(&c.f, &v), 0);
	CHECK_EQ(v.dir[TS].next_seq, 1004);
	CHECK_EQ(v.dir[TS].seg_cnt, 1);
	ctx_done(&c);
}

/* Suricata's min_inspect_depth: set per direction by the app protocol,
 * it no longer holds once the session closed */
TEST(min_inspect_depth_holds_until_the_session_closes)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	CHECK_EQ(stream_min_inspect_depth(&c.f, TS), 0);
	handshake(&c);
	stream_set_min_inspect_depth(&c.f, TS, 32768);
	stream_set_min_inspect_depth(&c.f, TC, 40960);
	CHECK_EQ(stream_min_inspect_depth(&c.f, TS), 32768);
	CHECK_EQ(stream_min_inspect_depth(&c.f, TC), 40960);
	sendp(&c, TS, TH_RST | TH_ACK, 1001, 5001, NULL);
	CHECK_EQ(stream_min_inspect_depth(&c.f, TS), 0);
	ctx_done(&c);
}

/* ---- midstream, async ---- */

TEST(midstream_off_ignores_sessions_without_syn)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	sendp(&c, TS, TH_ACK, 1001, 5001, "hello");
	CHECK(!(c.rflags & STREAM_PKT_HAS_SESSION));
	CHECK(!(c.rflags & STREAM_PKT_ESTABLISHED));
	CHECK(c.f.stream == NULL);
	CHECK_EQ(cval(&c, "tcp.midstream_pickups"), 0);
	ctx_done(&c);
}

TEST(midstream_on_picks_up_established_session)
{
	struct ctx c;

	ctx_init(&c);
	c.cfg.midstream = 1;
	ctx_start(&c);
	sendp(&c, TS, TH_ACK, 1001, 5001, "hello");
	CHECK(c.rflags & STREAM_PKT_ESTABLISHED);
	CHECK(c.rflags & STREAM_PKT_MIDSTREAM);
	CHECK_EQ(cval(&c, "tcp.midstream_pickups"), 1);
	CHECK_STREQ(ready(&c, TS, 0, NULL), "");
	sendp(&c, TC, TH_ACK, 5001, 1006, "world");
	CHECK_STREQ(ready(&c, TS, 0, NULL), "hello");
	sendp(&c, TS, TH_ACK, 1006, 5006, NULL);
	CHECK_STREQ(ready(&c, TC, 0, NULL), "world");
	ctx_done(&c);
}

TEST(synack_pickup_of_a_server_only_capture)
{
	struct ctx c;

	ctx_init(&c);
	c.cfg.midstream = 1;
	ctx_start(&c);
	/* only the server is captured (suricata-verify
	 * stream-async-6063-srv-02): its SYN/ACK, its ACK, data, FIN */
	sendp(&c, TC, TH_SYN | TH_ACK, 5000, 1001, NULL);
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "syn_recv");
	sendp(&c, TC, TH_ACK, 5001, 1400, NULL);
	CHECK(!(c.rflags & STREAM_PKT_INVALID));
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "established");
	CHECK(c.f.state == FLOW_STATE_ESTABLISHED);
	sendp(&c, TC, TH_ACK, 5001, 1400, "HTTP/1.1 200 OK\r\n");
	sendp(&c, TC, TH_FIN | TH_ACK, 5018, 1400, NULL);
	/* the server's FIN: fin_wait1, as Suricata names it */
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "fin_wait1");
	/* the data no one ACKs is ready at the flow's end */
	stream_flow_end(c.st, &c.f);
	CHECK_STREQ(ready(&c, TC, 0, NULL), "HTTP/1.1 200 OK\r\n");
	ctx_done(&c);
}

TEST(fin_without_session_raises_event_when_midstream_off)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	sendp(&c, TS, TH_FIN | TH_ACK, 1001, 5001, NULL);
	CHECK(has_event(&c.p, SEV_FIN_BUT_NO_SESSION));
	sendp(&c, TS, TH_RST, 1001, 0, NULL);
	CHECK(has_event(&c.p, SEV_RST_BUT_NO_SESSION));
	CHECK(c.f.stream == NULL);
	ctx_done(&c);
}

TEST(async_oneside_client_only_data_is_ready_without_acks)
{
	struct ctx c;

	ctx_init(&c);
	c.cfg.async_oneside = 1;
	ctx_start(&c);
	sendp(&c, TS, TH_SYN, 1000, 0, NULL);
	sendp(&c, TS, TH_ACK, 1001, 5001, NULL);
	CHECK(c.rflags & STREAM_PKT_ESTABLISHED);
	sendp(&c, TS, TH_ACK | TH_PSH, 1001, 5001, "one-way");
	CHECK(c.rflags & STREAM_PKT_TS_READY);
	CHECK_STREQ(ready(&c, TS, 0, NULL), "one-way");
	ctx_done(&c);
}

TEST(async_oneside_off_rejects_client_ack_without_synack)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	sendp(&c, TS, TH_SYN, 1000, 0, NULL);
	sendp(&c, TS, TH_ACK, 1001, 5001, "one-way");
	CHECK(c.rflags & STREAM_PKT_INVALID);
	CHECK(!(c.rflags & STREAM_PKT_ESTABLISHED));
	stream_flow_end(c.st, &c.f);
	CHECK_STREQ(ready(&c, TS, 0, NULL), "");
	ctx_done(&c);
}

/* ---- closing ---- */

TEST(rst_closes_session_and_makes_unacked_data_ready)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TS, TH_ACK, 1001, 5001, "unacked");
	sendp(&c, TC, TH_RST, 5001, 0, NULL);
	CHECK(c.rflags & STREAM_PKT_CLOSED);
	CHECK(c.rflags & STREAM_PKT_TS_READY);
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "closed");
	CHECK_STREQ(ready(&c, TS, 0, NULL), "unacked");
	CHECK(stream_dir_flags(&c.f, TS) & STREAM_DIR_EOF);
	CHECK_EQ(cval(&c, "tcp.rst"), 1);
	CHECK(c.f.state == FLOW_STATE_CLOSED);
	/* a SYN on the closed session */
	sendp(&c, TS, TH_SYN, 1000, 0, NULL);
	CHECK(has_event(&c.p, SEV_SHUTDOWN_SYN_RESEND));
	ctx_done(&c);
}

TEST(flow_state_follows_the_session)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	/* the handshake leaves the flow new until its last ACK */
	sendp(&c, TS, TH_SYN, 1000, 0, NULL);
	sendp(&c, TC, TH_SYN | TH_ACK, 5000, 1001, NULL);
	CHECK(c.f.state == FLOW_STATE_NEW);
	sendp(&c, TS, TH_ACK, 1001, 5001, NULL);
	CHECK(c.f.state == FLOW_STATE_ESTABLISHED);
	/* FIN_WAIT1, FIN_WAIT2 (the server closed first) are established
	 * flows still */
	sendp(&c, TC, TH_FIN | TH_ACK, 5001, 1001, NULL);
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "fin_wait1");
	CHECK(c.f.state == FLOW_STATE_ESTABLISHED);
	sendp(&c, TS, TH_ACK, 1001, 5002, NULL);
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "fin_wait2");
	CHECK(c.f.state == FLOW_STATE_ESTABLISHED);
	/* the client's FIN: TIME_WAIT, a closed flow */
	sendp(&c, TS, TH_FIN | TH_ACK, 1001, 5002, NULL);
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "time_wait");
	CHECK(c.f.state == FLOW_STATE_CLOSED);
	sendp(&c, TC, TH_ACK, 5002, 1002, NULL);
	/* the flow's end counts the session by its last state */
	CHECK_EQ(cval(&c, "flow.end.tcp_state.closed"), 0);
	stream_flow_free(c.st, &c.f);
	CHECK_EQ(cval(&c, "flow.end.tcp_state.closed"), 1);
	CHECK_EQ(cval(&c, "flow.end.tcp_state.established"), 0);
	ctx_done(&c);
}

TEST(rst_with_older_timestamp_is_refused)
{
	struct ctx c;
	static const struct {
		int dir;
		uint8_t fl;
		uint32_t seq, ack, ts;
	} seq[] = {
		{ TS, TH_SYN, 1000, 0, 100 },
		{ TC, TH_SYN | TH_ACK, 5000, 1001, 900 },
		{ TS, TH_ACK, 1001, 5001, 101 },
		{ TC, TH_ACK, 5001, 1001, 901 },
		/* the server's RST with tsval 0 (suricata-verify
		 * output-eve-anomaly-05): Suricata validates a RST's
		 * timestamp too, and refuses this one */
		{ TC, TH_RST | TH_ACK, 5001, 1001, 0 },
	};

	ctx_init(&c);
	ctx_start(&c);
	for (size_t i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
		Packet *p = &c.p;

		memset(p, 0, sizeof(*p));
		p->proto = IPPROTO_TCP;
		p->l4 = (const uint8_t *)"x";
		p->flags = seq[i].dir ? PKT_TOCLIENT : PKT_TOSERVER;
		p->tcp_flags = seq[i].fl;
		p->tcp_seq = seq[i].seq;
		p->tcp_ack = seq[i].ack;
		p->tcp_win = 65535;
		p->tcp_wscale = 0xff;
		p->tcp_has_ts = 1;
		p->tcp_tsval = seq[i].ts;
		p->payload = (const uint8_t *)"";
		stream_handle_packet(c.st, &c.f, p);
	}
	CHECK(c.p.stream_flags & STREAM_PKT_INVALID);
	CHECK(has_event(&c.p, SEV_PKT_INVALID_TIMESTAMP));
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "established");
	CHECK(c.f.state == FLOW_STATE_ESTABLISHED);
	ctx_done(&c);
}

/* A packet with timestamps (tsval, tsecr) from dir. */
static int sendts(struct ctx *c, int dir, uint8_t flags, uint32_t seq, uint32_t ack,
		  uint32_t tsval, uint32_t tsecr)
{
	Packet *p = &c->p;

	memset(p, 0, sizeof(*p));
	p->ip_version = 4;
	p->proto = IPPROTO_TCP;
	p->l4 = (const uint8_t *)"x";
	p->flags = PKT_HAS_FLOW | (dir ? PKT_TOCLIENT : PKT_TOSERVER);
	p->flow = &c->f;
	p->tcp_flags = flags;
	p->tcp_seq = seq;
	p->tcp_ack = ack;
	p->tcp_win = 65535;
	p->tcp_wscale = 0xff;
	p->tcp_has_ts = 1;
	p->tcp_tsval = tsval;
	p->tcp_tsecr = tsecr;
	p->payload = (const uint8_t *)"";
	c->rflags = stream_handle_packet(c->st, &c->f, p);
	return c->rflags;
}

/* Before the SYN/ACK the server must echo a timestamp of the client's SYNs
 * (suricata-verify bug-3286-02): a RST or FIN echoing another is refused
 * with pkt_invalid_timestamp and the session goes on. */
TEST(syn_sent_answer_with_a_foreign_ts_echo_is_refused)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	sendts(&c, TS, TH_SYN, 1000, 0, 700, 0);
	sendts(&c, TS, TH_SYN, 1000, 0, 705, 0);        /* retransmitted */
	sendts(&c, TC, TH_RST | TH_ACK, 0, 1001, 100, 100);
	CHECK(c.rflags & STREAM_PKT_INVALID);
	CHECK(has_event(&c.p, SEV_PKT_INVALID_TIMESTAMP));
	sendts(&c, TC, TH_FIN | TH_ACK, 0, 1001, 100, 100);
	CHECK(has_event(&c.p, SEV_PKT_INVALID_TIMESTAMP));
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "syn_sent");
	CHECK_EQ(cval(&c, "stream.pkt_invalid_timestamp"), 2);
	/* a SYN/ACK echoing either SYN's timestamp is the answer */
	sendts(&c, TC, TH_SYN | TH_ACK, 5000, 1001, 900, 700);
	CHECK(!(c.rflags & STREAM_PKT_INVALID));
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "syn_recv");
	ctx_done(&c);

	/* a client without timestamps: any echo is foreign */
	ctx_init(&c);
	ctx_start(&c);
	sendp(&c, TS, TH_SYN, 1000, 0, NULL);
	sendts(&c, TC, TH_RST | TH_ACK, 0, 1001, 100, 100);
	CHECK(has_event(&c.p, SEV_PKT_INVALID_TIMESTAMP));
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "syn_sent");
	sendts(&c, TC, TH_RST | TH_ACK, 0, 1001, 100, 0);
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "closed");
	ctx_done(&c);
}

/* The client's RST before any answer ends the session only as a reset of
 * its SYN: seq the ISN, ACKing it, window 0 (suricata-verify bug-3286-02). */
TEST(syn_sent_client_rst_closes_only_as_a_syn_reset)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	sendp(&c, TS, TH_SYN, 1000, 0, NULL);
	sendp(&c, TS, TH_RST, 1001, 0, NULL);
	CHECK(!(c.rflags & STREAM_PKT_INVALID));
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "syn_sent");
	memset(&c.p, 0, sizeof(c.p));   /* window 0 */
	c.p.ip_version = 4;
	c.p.proto = IPPROTO_TCP;
	c.p.l4 = (const uint8_t *)"x";
	c.p.flags = PKT_HAS_FLOW | PKT_TOSERVER;
	c.p.flow = &c.f;
	c.p.tcp_flags = TH_RST | TH_ACK;
	c.p.tcp_seq = 1000;
	c.p.tcp_ack = 1001;
	c.p.tcp_wscale = 0xff;
	c.p.payload = (const uint8_t *)"";
	stream_handle_packet(c.st, &c.f, &c.p);
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "closed");
	ctx_done(&c);
}

/* A RST whose sender then goes on talking was injected by someone else
 * (suricata-verify security-4710-01): suspected_rst_inject, and the
 * session is back in the state the RST found, its data tracked. */
TEST(rst_sender_talking_again_reopens_the_session)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TS, TH_RST | TH_ACK, 1001, 5001, NULL);
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "closed");
	/* the receiver of the RST: nothing changes */
	sendp(&c, TC, TH_ACK, 5001, 1001, NULL);
	CHECK(c.rflags & STREAM_PKT_INVALID);
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "closed");
	sendp(&c, TS, TH_ACK | TH_PSH, 1001, 5001, "GET /");
	CHECK(has_event(&c.p, SEV_SUSPECTED_RST_INJECT));
	CHECK(!(c.rflags & STREAM_PKT_INVALID));
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "established");
	CHECK(!(stream_dir_flags(&c.f, TS) & STREAM_DIR_EOF));
	sendp(&c, TC, TH_ACK, 5001, 1006, NULL);
	CHECK_STREQ(ready(&c, TS, 0, NULL), "GET /");
	CHECK_EQ(cval(&c, "stream.suspected_rst_inject"), 1);
	ctx_done(&c);
}

/* At a RST the unACKed data in order is ready, not what follows a hole past
 * the last ACK (suricata-verify tcp-rst-unacked-stream-10); the flow's end
 * takes that too, for raw inspection (tcp-rst-unacked-stream-03-gap). */
TEST(rst_flush_stops_at_an_unacked_hole)
{
	struct ctx c;
	uint64_t base = 0;

	ctx_init(&c);
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TC, TH_ACK, 5001, 1001, "aaa");
	sendp(&c, TC, TH_ACK, 5004, 1001, "bbb");
	sendp(&c, TC, TH_ACK, 5010, 1001, "ddd");   /* 5007..5009 never seen */
	sendp(&c, TS, TH_ACK, 1001, 5004, NULL);
	sendp(&c, TS, TH_RST, 1001, 0, NULL);
	CHECK_EQ(stream_ready_offset(&c.f, TC), 6);
	CHECK_STREQ(ready(&c, TC, 0, NULL), "aaabbb");
	CHECK(stream_dir_flags(&c.f, TC) & STREAM_DIR_EOF);
	stream_flow_end(c.st, &c.f);
	CHECK_STREQ(ready(&c, TC, 6, &base), "ddd");
	CHECK_EQ(base, 9);
	ctx_done(&c);
}

/* Inline, an overlap with other bytes leaves with the bytes kept: the
 * packet's payload is rewritten to them (suricata-verify
 * eve-payload-03-tcp-exact-overlap-ips). IDS leaves packets alone. */
static int send_own(struct ctx *c, int dir, uint32_t seq, uint32_t ack, uint8_t *buf,
		    uint16_t len)
{
	Packet *p = &c->p;

	memset(p, 0, sizeof(*p));
	p->ip_version = 4;
	p->proto = IPPROTO_TCP;
	p->l4 = (const uint8_t *)"x";
	p->flags = PKT_HAS_FLOW | (dir ? PKT_TOCLIENT : PKT_TOSERVER);
	p->flow = &c->f;
	p->tcp_flags = TH_ACK;
	p->tcp_seq = seq;
	p->tcp_ack = ack;
	p->tcp_win = 65535;
	p->tcp_wscale = 0xff;
	p->data = buf;
	p->caplen = len;
	p->payload = buf;
	p->payload_len = len;
	c->rflags = stream_handle_packet(c->st, &c->f, p);
	return c->rflags;
}

TEST(inline_overlap_rewrites_the_packet_to_the_kept_bytes)
{
	struct ctx c;
	uint8_t good[] = "GOOD", evil[] = "EVIL", evil2[] = "EVIL";

	ctx_init(&c);
	c.cfg.inline_mode = 1;
	ctx_start(&c);
	handshake(&c);
	send_own(&c, TS, 1001, 5001, good, 4);
	send_own(&c, TS, 1001, 5001, evil, 4);
	CHECK(c.rflags & STREAM_PKT_OVERLAP_DIFF);
	CHECK(memcmp(evil, "GOOD", 4) == 0);
	CHECK_STREQ(ready(&c, TS, 0, NULL), "GOOD");
	ctx_done(&c);

	ctx_init(&c);
	ctx_start(&c);
	handshake(&c);
	send_own(&c, TS, 1001, 5001, good, 4);
	send_own(&c, TS, 1001, 5001, evil2, 4);
	CHECK(c.rflags & STREAM_PKT_OVERLAP_DIFF);
	CHECK(memcmp(evil2, "EVIL", 4) == 0);
	ctx_done(&c);
}

TEST(ack_number_without_ack_flag_is_a_broken_ack)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	/* a SYN carrying an acknowledgment number: flagged, still tracked */
	sendp(&c, TS, TH_SYN, 1000, 777, NULL);
	CHECK(has_event(&c.p, SEV_PKT_BROKEN_ACK));
	CHECK(!(c.rflags & STREAM_PKT_INVALID));
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "syn_sent");
	CHECK_EQ(cval(&c, "stream.pkt_broken_ack"), 1);
	/* the usual handshake raises nothing */
	sendp(&c, TC, TH_SYN | TH_ACK, 5000, 1001, NULL);
	sendp(&c, TS, TH_ACK, 1001, 5001, NULL);
	CHECK_EQ(cval(&c, "stream.pkt_broken_ack"), 1);
	ctx_done(&c);
}

TEST(rst_out_of_window_is_ignored)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TC, TH_RST, 5001 + 10000000, 0, NULL);
	CHECK(c.rflags & STREAM_PKT_INVALID);
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "established");
	ctx_done(&c);
}

/* Suricata names the closing states from the server's side: the client's
 * FIN is CLOSE_WAIT, the server's FIN_WAIT1 (suricata-verify bug-2646-01
 * ends in last_ack: the client's FIN, then the server's, never ACKed). */
TEST(fin_exchange_client_first_goes_through_close_wait_and_last_ack)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TS, TH_FIN | TH_ACK, 1001, 5001, "bye");
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "close_wait");
	sendp(&c, TC, TH_ACK, 5001, 1005, NULL);
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "close_wait");
	CHECK_STREQ(ready(&c, TS, 0, NULL), "bye");
	/* the app layer's EOF waits for the close, as Suricata's */
	CHECK(!(stream_dir_flags(&c.f, TS) & STREAM_DIR_EOF));
	sendp(&c, TC, TH_FIN | TH_ACK, 5001, 1005, NULL);
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "last_ack");
	CHECK(c.rflags & STREAM_PKT_ESTABLISHED);
	CHECK(c.f.state == FLOW_STATE_CLOSED);
	CHECK(!(stream_dir_flags(&c.f, TS) & STREAM_DIR_EOF));
	sendp(&c, TS, TH_ACK, 1005, 5002, NULL);
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "closed");
	CHECK(c.rflags & STREAM_PKT_CLOSED);
	CHECK(stream_dir_flags(&c.f, TS) & STREAM_DIR_EOF);
	CHECK(stream_dir_flags(&c.f, TC) & STREAM_DIR_EOF);
	ctx_done(&c);
}

TEST(fin_exchange_server_first_walks_fin_wait_states)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TC, TH_FIN | TH_ACK, 5001, 1001, NULL);
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "fin_wait1");
	sendp(&c, TS, TH_ACK, 1001, 5002, NULL);
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "fin_wait2");
	sendp(&c, TS, TH_FIN | TH_ACK, 1001, 5002, NULL);
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "time_wait");
	sendp(&c, TC, TH_ACK, 5002, 1002, NULL);
	CHECK_STREQ(tcp_state_name(stream_tcp_state(&c.f)), "closed");
	ctx_done(&c);
}

/* ---- depth, memcaps, checksums, windows, timestamps ---- */

TEST(depth_reached_stops_storing_and_raises_event_once)
{
	struct ctx c;

	ctx_init(&c);
	c.cfg.reassembly_depth = 10;
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TS, TH_ACK, 1001, 5001, "01234567");
	CHECK(!(c.rflags & STREAM_PKT_DEPTH_REACHED));
	sendp(&c, TS, TH_ACK, 1009, 5001, "89abcdef");
	CHECK(c.rflags & STREAM_PKT_DEPTH_REACHED);
	CHECK(has_event(&c.p, SEV_REASSEMBLY_DEPTH_REACHED));
	CHECK(!(c.rflags & STREAM_PKT_RETRANSMISSION));
	sendp(&c, TS, TH_ACK, 1017, 5001, "more");
	CHECK(!has_event(&c.p, SEV_REASSEMBLY_DEPTH_REACHED));
	sendp(&c, TC, TH_ACK, 5001, 1021, NULL);
	CHECK_STREQ(ready(&c, TS, 0, NULL), "0123456789");
	CHECK_EQ(stream_ready_offset(&c.f, TS), 10);
	CHECK_EQ(cval(&c, "tcp.stream_depth_reached"), 1);
	CHECK_EQ(cval(&c, "stream.reassembly_depth_reached"), 1);
	CHECK_EQ(cval(&c, "tcp.reassembly_gap"), 0);
	CHECK(stream_dir_flags(&c.f, TS) & STREAM_DIR_DEPTH_REACHED);
	ctx_done(&c);
}

/* An app protocol's stream-depth (pgsql's 0: all of it) replaces the
 * configured depth for its flow only, from the next bytes on. */
TEST(app_depth_overrides_the_configured_one)
{
	struct ctx c;

	ctx_init(&c);
	c.cfg.reassembly_depth = 10;
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TS, TH_ACK, 1001, 5001, "01234567");
	stream_set_depth(&c.f, 0);
	sendp(&c, TS, TH_ACK, 1009, 5001, "89abcdef");
	CHECK(!(c.rflags & STREAM_PKT_DEPTH_REACHED));
	sendp(&c, TC, TH_ACK, 5001, 1017, NULL);
	CHECK_STREQ(ready(&c, TS, 0, NULL), "0123456789abcdef");
	/* a depth of its own, smaller than the configured one */
	stream_set_depth(&c.f, 20);
	sendp(&c, TS, TH_ACK, 1017, 5001, "ghijklmn");
	CHECK(c.rflags & STREAM_PKT_DEPTH_REACHED);
	CHECK_EQ(cval(&c, "tcp.stream_depth_reached"), 1);
	ctx_done(&c);
}

TEST(session_memcap_refuses_new_sessions_and_counts)
{
	struct ctx c;
	Flow f2, f3;
	uint64_t one;

	ctx_init(&c);
	ctx_start(&c);
	sendp(&c, TS, TH_SYN, 1000, 0, NULL);
	one = stream_memuse();
	CHECK(one > 0);
	ctx_done(&c);

	ctx_init(&c);
	c.cfg.memcap = one + one / 2;   /* room for one session */
	ctx_start(&c);
	sendp(&c, TS, TH_SYN, 1000, 0, NULL);
	CHECK(c.f.stream != NULL);
	memset(&f2, 0, sizeof(f2));
	f2.proto = IPPROTO_TCP;
	c.p.flow = &f2;
	c.p.tcp_seq = 2000;
	stream_handle_packet(c.st, &f2, &c.p);
	CHECK(f2.stream == NULL);
	CHECK(!(c.p.stream_flags & STREAM_PKT_HAS_SESSION));
	CHECK_EQ(cval(&c, "tcp.ssn_memcap_drop"), 1);
	CHECK(stream_memuse() <= c.cfg.memcap);
	/* freeing the first makes room again (from the thread's cache) */
	stream_flow_free(c.st, &c.f);
	memset(&f3, 0, sizeof(f3));
	f3.proto = IPPROTO_TCP;
	stream_handle_packet(c.st, &f3, &c.p);
	CHECK(f3.stream != NULL);
	stream_flow_free(c.st, &f3);
	ctx_done(&c);
	CHECK_EQ(stream_memuse(), 0);
}

TEST(reassembly_memcap_refuses_segments_and_counts)
{
	struct ctx c;

	ctx_init(&c);
	c.cfg.reassembly_memcap = 1;
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TS, TH_ACK, 1001, 5001, "hello");
	CHECK_EQ(cval(&c, "tcp.segment_memcap_drop"), 1);
	CHECK(has_event(&c.p, SEV_REASSEMBLY_INSERT_MEMCAP));
	CHECK_EQ(stream_reassembly_memuse(), 0);
	ctx_done(&c);
}

TEST(bad_checksum_packet_is_not_tracked)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	handshake(&c);
	c.p.flags |= PKT_L4_CSUM_BAD;
	memset(&c.p, 0, sizeof(c.p));
	c.p.proto = IPPROTO_TCP;
	c.p.l4 = (const uint8_t *)"x";
	c.p.flags = PKT_TOSERVER | PKT_L4_CSUM_BAD;
	c.p.tcp_flags = TH_ACK;
	c.p.tcp_seq = 1001;
	c.p.tcp_ack = 5001;
	c.p.payload = (const uint8_t *)"evil";
	c.p.payload_len = 4;
	stream_handle_packet(c.st, &c.f, &c.p);
	CHECK(c.p.stream_flags & STREAM_PKT_INVALID);
	/* kept out of the stream, but still a packet of an established flow
	 * (Suricata's flow:established holds for it) */
	CHECK(!(c.p.stream_flags & STREAM_PKT_ADDED));
	CHECK(c.p.stream_flags & STREAM_PKT_ESTABLISHED);
	CHECK_EQ(cval(&c, "tcp.invalid_checksum"), 1);
	sendp(&c, TS, TH_ACK, 1001, 5001, "good");
	CHECK(!(c.rflags & STREAM_PKT_RETRANSMISSION));
	CHECK(c.rflags & STREAM_PKT_ADDED);
	sendp(&c, TC, TH_ACK, 5001, 1005, NULL);
	CHECK_STREQ(ready(&c, TS, 0, NULL), "good");
	ctx_done(&c);
}

TEST(syn_data_is_added_to_the_stream)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	/* data on a SYN is stream data (TCP Fast Open, as Suricata): it is
	 * inspected in the stream, from offset 0 */
	sendp(&c, TS, TH_SYN, 1000, 0, "AAAA");
	CHECK(c.rflags & STREAM_PKT_HAS_SESSION);
	CHECK(c.rflags & STREAM_PKT_ADDED);
	stream_flow_end(c.st, &c.f);
	CHECK_STREQ(ready(&c, TS, 0, NULL), "AAAA");
	ctx_done(&c);
}

/* Inline window of the last packet sent, as a string. */
static const char *window(struct ctx *c, int dir, uint32_t chunk, uint64_t *base)
{
	static char out[256];
	uint32_t n;

	n = stream_inline_window(&c->f, dir, &c->p, chunk, (uint8_t *)out,
				 sizeof(out) - 1, base);
	out[n] = 0;
	return out;
}

TEST(inline_window_holds_unacked_data_with_the_packet)
{
	struct ctx c;
	uint64_t base = 99;

	ctx_init(&c);
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TS, TH_ACK | TH_PSH, 1001, 5001, "AAAA");
	sendp(&c, TS, TH_ACK | TH_PSH, 1005, 5001, "BBBB");
	/* nothing is ACKed yet: IDS would see nothing, inline sees both */
	CHECK_STREQ(ready(&c, TS, 0, NULL), "");
	CHECK_STREQ(window(&c, TS, 2560, &base), "AAAABBBB");
	CHECK_EQ(base, 0);
	/* a small chunk keeps the newest bytes, the packet's own included */
	CHECK_STREQ(window(&c, TS, 6, &base), "AABBBB");
	CHECK_EQ(base, 2);
	/* ACKed data is part of the window too */
	sendp(&c, TC, TH_ACK, 5001, 1005, NULL);
	sendp(&c, TS, TH_ACK | TH_PSH, 1009, 5001, "CC");
	CHECK_STREQ(window(&c, TS, 2560, &base), "AAAABBBBCC");
	ctx_done(&c);
}

TEST(inline_window_of_a_packet_filling_a_hole_reaches_both_sides)
{
	struct ctx c;
	uint64_t base;

	ctx_init(&c);
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TS, TH_ACK | TH_PSH, 1001, 5001, "AAAA");
	sendp(&c, TS, TH_ACK | TH_PSH, 1009, 5001, "CCCC");
	/* the packet starts a run: the window starts with it */
	CHECK_STREQ(window(&c, TS, 2560, &base), "CCCC");
	CHECK_EQ(base, 8);
	sendp(&c, TS, TH_ACK | TH_PSH, 1005, 5001, "BBBB");
	CHECK_STREQ(window(&c, TS, 2560, &base), "AAAABBBBCCCC");
	/* trimmed around the packet: the room is shared before and after */
	CHECK_STREQ(window(&c, TS, 8, &base), "AABBBBCC");
	CHECK_EQ(base, 2);
	/* an odd room is halved down, as Suricata does */
	CHECK_STREQ(window(&c, TS, 7, &base), "ABBBBC");
	CHECK_EQ(base, 3);
	ctx_done(&c);
}

static const char *logged(struct ctx *c, int dir, uint64_t upto, uint32_t cap)
{
	static char out[256];
	uint32_t n = stream_log_data(&c->f, dir, upto, (uint8_t *)out, cap);

	out[n] = 0;
	return out;
}

TEST(alert_log_data_marks_holes_like_suricata)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TS, TH_ACK, 1005, 5001, "GOOD");
	sendp(&c, TS, TH_ACK, 1013, 5001, "DATA");
	/* unACKed, with a leading hole and one in the middle */
	CHECK_STREQ(logged(&c, TS, 16, 200), "[4 bytes missing]GOOD[4 bytes missing]DATA");
	/* up to the inspected offset only, and cut at the buffer size */
	CHECK_STREQ(logged(&c, TS, 8, 200), "[4 bytes missing]GOOD");
	CHECK_STREQ(logged(&c, TS, 16, 19), "[4 bytes missing]GO");
	/* ACKed past the holes: still the same bytes and holes */
	sendp(&c, TC, TH_ACK, 5001, 1017, NULL);
	CHECK_STREQ(logged(&c, TS, 16, 200), "[4 bytes missing]GOOD[4 bytes missing]DATA");
	/* released bytes are gone, not missing */
	stream_release(&c.f, TS, STREAM_CONSUMER_APP, 10);
	stream_release(&c.f, TS, STREAM_CONSUMER_RAW, 10);
	CHECK_STREQ(logged(&c, TS, 16, 200), "[2 bytes missing]DATA");
	ctx_done(&c);
}

TEST(checksum_validation_off_tracks_bad_checksum_packets)
{
	struct ctx c;

	ctx_init(&c);
	c.cfg.checksum_validation = 0;
	ctx_start(&c);
	handshake(&c);
	c.p.flags |= PKT_L4_CSUM_BAD;
	sendp(&c, TS, TH_ACK, 1001, 5001, "data");
	CHECK_EQ(cval(&c, "tcp.invalid_checksum"), 0);
	CHECK(c.rflags & STREAM_PKT_ESTABLISHED);
	ctx_done(&c);
}

TEST(data_beyond_receive_window_is_rejected)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TS, TH_ACK, 1001 + 70000, 5001, "far");
	CHECK(c.rflags & STREAM_PKT_INVALID);
	CHECK(has_event(&c.p, SEV_EST_PACKET_OUT_OF_WINDOW));
	stream_flow_end(c.st, &c.f);
	CHECK_EQ(stream_ready_offset(&c.f, TS), 0);
	ctx_done(&c);
}

TEST(older_timestamp_is_rejected_as_invalid)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	/* build the handshake with timestamps by hand */
	{
		static const struct {
			int dir;
			uint8_t fl;
			uint32_t seq, ack, ts;
			const char *d;
		} seq[] = {
			{ TS, TH_SYN, 1000, 0, 100, NULL },
			{ TC, TH_SYN | TH_ACK, 5000, 1001, 900, NULL },
			{ TS, TH_ACK, 1001, 5001, 101, NULL },
			{ TS, TH_ACK, 1001, 5001, 102, "new" },
			{ TS, TH_ACK, 1004, 5001, 50, "old" },
		};
		for (size_t i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
			Packet *p = &c.p;

			memset(p, 0, sizeof(*p));
			p->proto = IPPROTO_TCP;
			p->l4 = (const uint8_t *)"x";
			p->flags = seq[i].dir ? PKT_TOCLIENT : PKT_TOSERVER;
			p->tcp_flags = seq[i].fl;
			p->tcp_seq = seq[i].seq;
			p->tcp_ack = seq[i].ack;
			p->tcp_win = 65535;
			p->tcp_wscale = 0xff;
			p->tcp_has_ts = 1;
			p->tcp_tsval = seq[i].ts;
			p->payload = (const uint8_t *)(seq[i].d ? seq[i].d : "");
			p->payload_len = seq[i].d ? 3 : 0;
			stream_handle_packet(c.st, &c.f, p);
		}
	}
	CHECK(c.p.stream_flags & STREAM_PKT_INVALID);
	CHECK(has_event(&c.p, SEV_PKT_INVALID_TIMESTAMP));
	stream_flow_end(c.st, &c.f);
	CHECK_STREQ(ready(&c, TS, 0, NULL), "new");
	ctx_done(&c);
}

/* ---- sequence wrap, consumers ---- */

TEST(sequence_wraps_around_2_pow_32)
{
	struct ctx c;
	const uint32_t cisn = 0xfffffff5u; /* first data byte 0xfffffff6 */

	ctx_init(&c);
	ctx_start(&c);
	handshake_at(&c, cisn, 5000);
	/* 10 bytes before the wrap, 10 after; the second arrives first */
	sendp(&c, TS, TH_ACK, cisn + 1 + 10, 5001, "KLMNOPQRST");
	sendp(&c, TS, TH_ACK, cisn + 1, 5001, "ABCDEFGHIJ");
	CHECK(!(c.rflags & STREAM_PKT_INVALID));
	sendp(&c, TC, TH_ACK, 5001, cisn + 1 + 20, NULL);
	CHECK_EQ(stream_ready_offset(&c.f, TS), 20);
	CHECK_STREQ(ready(&c, TS, 0, NULL), "ABCDEFGHIJKLMNOPQRST");
	sendp(&c, TS, TH_ACK, cisn + 1 + 15, 5001, "PQRST"); /* retransmission past wrap */
	CHECK(c.rflags & STREAM_PKT_RETRANSMISSION);
	CHECK_EQ(cval(&c, "tcp.reassembly_gap"), 0);
	ctx_done(&c);
}

TEST(release_by_all_consumers_slides_and_frees_buffer)
{
	struct ctx c;
	uint64_t base = 0;
	uint64_t before;

	ctx_init(&c);
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TS, TH_ACK, 1001, 5001, "0123456789");
	sendp(&c, TC, TH_ACK, 5001, 1011, NULL);
	before = stream_reassembly_memuse();
	stream_release(&c.f, TS, STREAM_CONSUMER_APP, 6);
	CHECK_STREQ(ready(&c, TS, 0, &base), "0123456789"); /* raw still needs it */
	stream_release(&c.f, TS, STREAM_CONSUMER_RAW, 4);
	CHECK_STREQ(ready(&c, TS, 0, &base), "456789");
	CHECK_EQ(base, 4);
	stream_release(&c.f, TS, STREAM_CONSUMER_RAW, UINT64_MAX);
	CHECK_STREQ(ready(&c, TS, 0, &base), "6789");
	stream_release(&c.f, TS, STREAM_CONSUMER_APP, 10);
	CHECK_STREQ(ready(&c, TS, 0, NULL), "");
	/* the buffer went back to the thread's pool: memuse unchanged, not leaked */
	CHECK_EQ(stream_reassembly_memuse(), before);
	/* later data is kept only for the consumer that still reads */
	sendp(&c, TS, TH_ACK, 1011, 5001, "abc");
	sendp(&c, TC, TH_ACK, 5001, 1014, NULL);
	CHECK_STREQ(ready(&c, TS, 0, &base), "abc");
	CHECK_EQ(base, 10);
	ctx_done(&c);
}

TEST(disabled_consumer_does_not_hold_data)
{
	struct ctx c;

	ctx_init(&c);
	c.cfg.consumers = 1u << STREAM_CONSUMER_APP;
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TS, TH_ACK, 1001, 5001, "0123456789");
	sendp(&c, TC, TH_ACK, 5001, 1011, NULL);
	stream_release(&c.f, TS, STREAM_CONSUMER_APP, 10);
	CHECK_STREQ(ready(&c, TS, 0, NULL), "");
	ctx_done(&c);
}

TEST(large_payload_spans_several_segments)
{
	struct ctx c;
	static char big[6001];
	uint64_t base;

	for (int i = 0; i < 6000; i++)
		big[i] = (char)('a' + i % 26);
	big[6000] = 0;
	ctx_init(&c);
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TS, TH_ACK, 1001 + 6000, 5001, "tail");
	sendp(&c, TS, TH_ACK, 1001, 5001, big);
	sendp(&c, TC, TH_ACK, 5001, 1001 + 6004, NULL);
	CHECK_EQ(stream_ready_offset(&c.f, TS), 6004);
	{
		const uint8_t *d;
		uint32_t len;

		CHECK(stream_get_data(&c.f, TS, 0, &d, &len, &base));
		CHECK_EQ(len, 6004);
		CHECK(memcmp(d, big, 6000) == 0);
		CHECK(memcmp(d + 6000, "tail", 4) == 0);
	}
	ctx_done(&c);
}

TEST(event_names_match_suricata)
{
	CHECK_STREQ(stream_event_name(SEV_PKT_RETRANSMISSION), "pkt_retransmission");
	CHECK_STREQ(stream_event_name(SEV_3WHS_ACK_IN_WRONG_DIR), "3whs_ack_in_wrong_dir");
	CHECK_EQ(stream_event_lookup("reassembly_seq_gap"), SEV_REASSEMBLY_SEQ_GAP);
	CHECK_EQ(stream_event_lookup("stream.wrong_thread"), SEV_WRONG_THREAD);
	CHECK_EQ(stream_event_lookup("no_such_event"), -1);
	CHECK(stream_event_name(SEV_NONE) == NULL);
	for (int ev = SEV_NONE + 1; ev < SEV_MAX; ev++)
		CHECK(stream_event_name(ev) != NULL);
	test_counters();
	CHECK(counter_lookup("stream.reassembly_overlap_different_data") >= 0);
}

/* The memory check the issue asks for: 100k half-open and 100k open sessions
 * stay under the default memcaps. Prints the numbers. */
TEST(hundred_thousand_sessions_stay_under_memcaps)
{
	enum { N = 100000 };
	struct ctx c;
	Flow *flows = calloc(2 * N, sizeof(Flow));
	uint64_t mem, rmem;

	CHECK(flows != NULL);
	ctx_init(&c);
	ctx_start(&c);
	for (int i = 0; i < 2 * N; i++) {
		Flow *f = &flows[i];
		Packet *p = &c.p;

		f->proto = IPPROTO_TCP;
		memset(p, 0, sizeof(*p));
		p->proto = IPPROTO_TCP;
		p->l4 = (const uint8_t *)"x";
		p->tcp_win = 65535;
		p->tcp_wscale = 0xff;
		p->flags = PKT_TOSERVER;
		p->tcp_flags = TH_SYN;
		p->tcp_seq = 1000;
		stream_handle_packet(c.st, f, p);
		if (i < N)
			continue;       /* half-open: SYN only */
		p->flags = PKT_TOCLIENT;
		p->tcp_flags = TH_SYN | TH_ACK;
		p->tcp_seq = 5000;
		p->tcp_ack = 1001;
		stream_handle_packet(c.st, f, p);
		p->flags = PKT_TOSERVER;
		p->tcp_flags = TH_ACK;
		p->tcp_seq = 1001;
		p->tcp_ack = 5001;
		p->payload = (const uint8_t *)"GET / HTTP/1.1\r\n";
		p->payload_len = 16;
		stream_handle_packet(c.st, f, p);   /* unacked: a segment */
		p->flags = PKT_TOCLIENT;
		p->tcp_seq = 5001;
		p->tcp_ack = 1017;
		p->payload = (const uint8_t *)"HTTP/1.1 200";
		p->payload_len = 12;
		stream_handle_packet(c.st, f, p);   /* readies toserver: a buffer */
	}
	mem = stream_memuse();
	rmem = stream_reassembly_memuse();
	printf("  100k half-open + 100k open: stream memuse %llu (cap %llu), "
	       "reassembly memuse %llu (cap %llu), drops ssn %llu seg %llu\n",
	       (unsigned long long)mem, (unsigned long long)c.cfg.memcap,
	       (unsigned long long)rmem, (unsigned long long)c.cfg.reassembly_memcap,
	       (unsigned long long)cval(&c, "tcp.ssn_memcap_drop"),
	       (unsigned long long)cval(&c, "tcp.segment_memcap_drop"));
	CHECK(mem <= c.cfg.memcap);
	CHECK(rmem <= c.cfg.reassembly_memcap);
	CHECK_EQ(cval(&c, "tcp.ssn_memcap_drop"), 0);
	CHECK_EQ(cval(&c, "tcp.segment_memcap_drop"), 0);
	CHECK_EQ(cval(&c, "tcp.sessions"), 2 * N);
	for (int i = 0; i < 2 * N; i++)
		stream_flow_free(c.st, &flows[i]);
	free(flows);
	ctx_done(&c);
	CHECK_EQ(stream_memuse(), 0);
	CHECK_EQ(stream_reassembly_memuse(), 0);
}

/* stream.inline: Suricata inspects what it would forward, without waiting
 * for the receiver's ACK. */
TEST(inline_mode_data_is_ready_without_ack)
{
	struct ctx c;

	ctx_init(&c);
	c.cfg.inline_mode = 1;
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TS, TH_ACK | TH_PSH, 1001, 5001, "GET / HTTP/1.0\r\n");
	CHECK(c.rflags & STREAM_PKT_TS_READY);
	CHECK_EQ(stream_ready_offset(&c.f, TS), 16);
	CHECK_STREQ(ready(&c, TS, 0, NULL), "GET / HTTP/1.0\r\n");
	ctx_done(&c);
}

/* Inline, an out-of-order segment waits for the hole before it: skipping the
 * hole as a gap would lose the bytes that fill it (a pattern split across
 * both would never be seen). */
TEST(inline_mode_waits_for_holes)
{
	struct ctx c;

	ctx_init(&c);
	c.cfg.inline_mode = 1;
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TS, TH_ACK | TH_PSH, 1014, 5001, "TERNXYZ:tail\n");
	CHECK(!(c.rflags & STREAM_PKT_TS_READY));
	CHECK_EQ(stream_ready_offset(&c.f, TS), 0);
	CHECK(!(stream_dir_flags(&c.f, TS) & STREAM_DIR_GAP));
	sendp(&c, TS, TH_ACK | TH_PSH, 1001, 5001, "head:SPLITPAT");
	CHECK(c.rflags & STREAM_PKT_TS_READY);
	CHECK_EQ(stream_ready_offset(&c.f, TS), 26);
	CHECK_STREQ(ready(&c, TS, 0, NULL), "head:SPLITPATTERNXYZ:tail\n");
	CHECK(!(stream_dir_flags(&c.f, TS) & STREAM_DIR_GAP));
	ctx_done(&c);
}

/* stream.inline absent or "auto" is left for the caller to resolve. */
TEST(inline_mode_auto_is_unresolved)
{
	struct ctx c;

	ctx_init(&c);
	CHECK_EQ(c.cfg.inline_mode, -1);
}

/* stream_size measures next seq - ISN per side: SYN and FIN count one. */
TEST(side_size_counts_syn_data_fin)
{
	struct ctx c;
	uint32_t v = 99;

	ctx_init(&c);
	ctx_start(&c);
	CHECK_EQ(stream_side_size(&c.f, 0, &v), 0);
	sendp(&c, TS, TH_SYN, 1000, 0, NULL);
	CHECK_EQ(stream_side_size(&c.f, 0, &v), 1);
	CHECK_EQ(v, 1);
	CHECK_EQ(stream_side_size(&c.f, 1, &v), 1);
	CHECK_EQ(v, 0);
	sendp(&c, TC, TH_SYN | TH_ACK, 5000, 1001, NULL);
	sendp(&c, TS, TH_ACK, 1001, 5001, NULL);
	sendp(&c, TS, TH_ACK | TH_PSH, 1001, 5001, "hello");
	sendp(&c, TC, TH_ACK | TH_PSH, 5001, 1006, "hi");
	sendp(&c, TS, TH_ACK | TH_FIN, 1006, 5003, NULL);
	stream_side_size(&c.f, 0, &v);
	CHECK_EQ(v, 7);
	stream_side_size(&c.f, 1, &v);
	CHECK_EQ(v, 3);
	ctx_done(&c);
}

/* A hole the receiver never ACKed, flushed at the end, is skipped without a
 * gap event or tcp.reassembly_gap (Suricata: only an ACKed hole is a gap). */
TEST(rst_flush_of_unacked_hole_is_no_gap_event)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TC, TH_ACK | TH_PSH, 5001, 1001, "Please ");
	sendp(&c, TC, TH_ACK | TH_PSH, 5012, 1001, "Me ");
	sendp(&c, TS, TH_ACK | TH_RST, 1001, 5008, NULL);
	CHECK(c.rflags & STREAM_PKT_CLOSED);
	CHECK(!has_event(&c.p, SEV_REASSEMBLY_SEQ_GAP));
	CHECK_EQ(cval(&c, "tcp.reassembly_gap"), 0);
	/* the RST stops at the hole; the flow's end skips it */
	CHECK_EQ(stream_ready_offset(&c.f, TC), 7);
	stream_flow_end(c.st, &c.f);
	CHECK_EQ(cval(&c, "tcp.reassembly_gap"), 0);
	CHECK_EQ(stream_ready_offset(&c.f, TC), 14);
	CHECK(stream_dir_flags(&c.f, TC) & STREAM_DIR_GAP);
	ctx_done(&c);
}

/* TCP Fast Open: the SYN's data is the stream's first bytes, a SYN/ACK that
 * acknowledges it is valid, and it is ready on the server's next ACK. */
TEST(fast_open_syn_data_is_kept_and_acked)
{
	struct ctx c;

	ctx_init(&c);
	ctx_start(&c);
	sendp(&c, TS, TH_SYN, 1000, 0, "GET /");
	sendp(&c, TC, TH_SYN | TH_ACK, 5000, 1006, NULL);
	CHECK(!(c.rflags & STREAM_PKT_INVALID));
	CHECK_EQ(cval(&c, "stream.3whs_synack_with_wrong_ack"), 0);
	sendp(&c, TS, TH_ACK, 1006, 5001, NULL);
	CHECK_EQ(stream_tcp_state(&c.f), TCP_ESTABLISHED);
	CHECK_EQ(stream_ready_offset(&c.f, TS), 0);
	sendp(&c, TC, TH_ACK | TH_PSH, 5001, 1006, "200");
	CHECK_EQ(stream_ready_offset(&c.f, TS), 5);
	CHECK_STREQ(ready(&c, TS, 0, NULL), "GET /");
	/* acking past the SYN's data is still wrong */
	ctx_done(&c);
	ctx_init(&c);
	ctx_start(&c);
	sendp(&c, TS, TH_SYN, 1000, 0, "GET /");
	sendp(&c, TC, TH_SYN | TH_ACK, 5000, 1007, NULL);
	CHECK(c.rflags & STREAM_PKT_INVALID);
	ctx_done(&c);
}

/* ---- overlap policies and host-os-policy ---- */

static Address addr(const char *s)
{
	Address a;

	memset(&a, 0, sizeof(a));
	if (inet_pton(AF_INET, s, a.a.u8) == 1)
		a.family = AF_INET;
	else if (inet_pton(AF_INET6, s, a.a.u8) == 1)
		a.family = AF_INET6;
	return a;
}

/* Original 'O' bytes at offsets [os, oe), then new 'N' bytes at [ns, ne), both
 * after a hole; everything ACKed. Returns the byte the stream keeps at the
 * first overlapped offset. */
static char overlap_winner(enum stream_policy pol, int os, int oe, int ns, int ne)
{
	struct ctx c;
	char o[16] = { 0 }, n[16] = { 0 };
	const char *r;
	uint64_t base = 0;
	int at = ns > os ? ns : os;
	char out;

	memset(o, 'O', (size_t)(oe - os));
	memset(n, 'N', (size_t)(ne - ns));
	ctx_init(&c);
	c.cfg.policy = pol;
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TS, TH_ACK, 1001 + (uint32_t)os, 5001, o);
	sendp(&c, TS, TH_ACK, 1001 + (uint32_t)ns, 5001, n);
	sendp(&c, TC, TH_ACK, 5001, 1001 + 16, NULL);
	r = ready(&c, TS, 0, &base);
	out = (uint64_t)at >= base && (uint64_t)at - base < strlen(r) ? r[at - base] : '?';
	ctx_done(&c);
	return out;
}

/* Suricata's overlap table. Original at [4, 8); the new segment:
 *   A same start and end, B same start ends later, C same start ends earlier,
 *   D starts before ends inside, E starts before same end, F starts before
 *   and covers, G starts inside ends later, H inside, I starts inside same end.
 * Each string says, per case, whether the new data wins. */
TEST(overlap_policies_follow_suricata_per_os)
{
	static const int cases[9][2] = {
		{ 4, 8 }, { 4, 10 }, { 4, 6 }, { 2, 6 }, { 2, 8 },
		{ 2, 10 }, { 6, 10 }, { 5, 7 }, { 6, 8 },
	};
	static const struct {
		enum stream_policy pol;
		const char *wins;   /* A..I */
	} t[] = {
		{ STREAM_POLICY_BSD, "NNNYYYNNN" },
		{ STREAM_POLICY_WINDOWS, "NNNYYYNNN" },
		{ STREAM_POLICY_WINDOWS2K3, "NNNYYYNNN" },
		{ STREAM_POLICY_MACOS, "NNNYYYNNN" },
		{ STREAM_POLICY_HPUX10, "NNNYYYNNN" },
		{ STREAM_POLICY_IRIX, "NNNYYYNNN" },
		{ STREAM_POLICY_LINUX, "NYNYYYNNN" },
		{ STREAM_POLICY_OLD_LINUX, "YYNYYYNNN" },
		{ STREAM_POLICY_SOLARIS, "YYNNYYYNN" },
		{ STREAM_POLICY_HPUX11, "YYNNYYYNN" },
		{ STREAM_POLICY_FIRST, "NNNNNNNNN" },
		{ STREAM_POLICY_VISTA, "NNNNNNNNN" },
		{ STREAM_POLICY_LAST, "YYYYYYYYY" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		for (int k = 0; k < 9; k++) {
			char got = overlap_winner(t[i].pol, 4, 8, cases[k][0], cases[k][1]);
			char want = t[i].wins[k] == 'Y' ? 'N' : 'O';

			if (got != want) {
				char m[96];

				snprintf(m, sizeof(m), "policy %d case %c: got %c, want %c",
					 (int)t[i].pol, 'A' + k, got, want);
				test_fail(__FILE__, __LINE__, m);
				return;
			}
		}
	}
}

static const char host_os_yaml[] =
	"stream:\n  reassembly:\n    policy: last\n"
	"host-os-policy:\n"
	"  windows: [0.0.0.0/0]\n"
	"  bsd: []\n"
	"  old-linux: [2.2.2.2]\n"
	"  solaris: [10.0.0.0/8, 10.1.0.0/16]\n"
	"  old-solaris: [10.1.0.0/16]\n"
	"  linux: [\"2001:db8::/32\"]\n"
	"  vista: 192.168.1.1\n";

TEST(host_os_policy_most_specific_prefix_wins)
{
	StreamConfig cfg;
	char err[256];
	Address a;

	CHECK(conf_load_string(host_os_yaml, "t", err, sizeof(err)) == 0);
	CHECK_EQ(stream_config_load(&cfg), 0);
	CHECK(cfg.hosts != NULL);
	a = addr("2.2.2.2");
	CHECK_EQ(stream_host_policy(&cfg, &a), STREAM_POLICY_OLD_LINUX);
	a = addr("2.2.2.3");
	CHECK_EQ(stream_host_policy(&cfg, &a), STREAM_POLICY_WINDOWS);
	a = addr("10.9.9.9");
	CHECK_EQ(stream_host_policy(&cfg, &a), STREAM_POLICY_SOLARIS);
	/* equal prefixes: the one read last (old-solaris is solaris on streams) */
	a = addr("10.1.2.3");
	CHECK_EQ(stream_host_policy(&cfg, &a), STREAM_POLICY_SOLARIS);
	a = addr("192.168.1.1");
	CHECK_EQ(stream_host_policy(&cfg, &a), STREAM_POLICY_VISTA);
	a = addr("2001:db8::1");
	CHECK_EQ(stream_host_policy(&cfg, &a), STREAM_POLICY_LINUX);
	/* not listed: stream.reassembly.policy */
	a = addr("2001:db9::1");
	CHECK_EQ(stream_host_policy(&cfg, &a), STREAM_POLICY_LAST);
	memset(&a, 0, sizeof(a));
	CHECK_EQ(stream_host_policy(&cfg, &a), STREAM_POLICY_LAST);
	stream_config_free(&cfg);
	CHECK(cfg.hosts == NULL);
	conf_deinit();
}

TEST(host_os_policy_rejects_bad_entries)
{
	StreamConfig cfg;
	char err[256];

	CHECK(conf_load_string("host-os-policy:\n  plan9: [1.2.3.4]\n", "t", err,
			       sizeof(err)) == 0);
	CHECK_EQ(stream_config_load(&cfg), -1);
	CHECK(cfg.hosts == NULL);
	conf_deinit();
	CHECK(conf_load_string("host-os-policy:\n  linux: [1.2.3.4/33]\n", "t", err,
			       sizeof(err)) == 0);
	CHECK_EQ(stream_config_load(&cfg), -1);
	conf_deinit();
	CHECK(conf_load_string("host-os-policy:\n  linux: [not-an-ip]\n", "t", err,
			       sizeof(err)) == 0);
	CHECK_EQ(stream_config_load(&cfg), -1);
	conf_deinit();
	/* stream.reassembly.policy takes the OS names too */
	conf_set("stream.reassembly.policy", "old-linux");
	CHECK_EQ(stream_config_load(&cfg), 0);
	CHECK_EQ(cfg.policy, STREAM_POLICY_OLD_LINUX);
	stream_config_free(&cfg);
	conf_deinit();
}

/* The verify case: same bytes range sent twice, different data. The
 * receiver's policy decides: old-linux (the server, 2.2.2.2) takes the new
 * data, the client side (windows) keeps the original. */
TEST(host_os_policy_applies_to_the_receiving_host)
{
	struct ctx c;
	char err[256];

	CHECK(conf_load_string("host-os-policy:\n  windows: [0.0.0.0/0]\n"
			       "  old-linux: [2.2.2.2]\n", "t", err, sizeof(err)) == 0);
	ctx_init(&c);
	c.cli = addr("1.1.1.1");
	c.srv = addr("2.2.2.2");
	ctx_start(&c);
	handshake(&c);
	sendp(&c, TS, TH_ACK, 1001, 5001, "GOOD");
	sendp(&c, TS, TH_ACK, 1001, 5001, "EVIL");
	sendp(&c, TC, TH_ACK, 5001, 1005, "good");
	sendp(&c, TC, TH_ACK, 5001, 1005, "evil");
	sendp(&c, TS, TH_ACK, 1005, 5005, NULL);
	CHECK_STREQ(ready(&c, TS, 0, NULL), "EVIL");
	CHECK_STREQ(ready(&c, TC, 0, NULL), "good");
	ctx_done(&c);
	stream_config_free(&c.cfg);
	conf_deinit();
}

/* ---- stream.reassembly.urgent ---- */

/* The client sends "GET /mal", then "X" as urgent data (pointer 1: the
 * byte before it, the segment's last, is the urgent one), then "icious";
 * the server ACKs it all. */
static void urgent_case(struct ctx *c, enum stream_urgent pol)
{
	ctx_init(c);
	c->cfg.urgent = pol;
	ctx_start(c);
	handshake(c);
	sendp(c, TS, TH_ACK | TH_PSH, 1001, 5001, "GET /mal");
	{
		Packet *p = &c->p;

		memset(p, 0, sizeof(*p));
		p->ip_version = 4;
		p->proto = IPPROTO_TCP;
		p->l4 = (const uint8_t *)"x";
		p->flags = PKT_HAS_FLOW | PKT_TOSERVER;
		p->flow = &c->f;
		p->tcp_flags = TH_ACK | TH_PSH | TH_URG;
		p->tcp_seq = 1009;
		p->tcp_ack = 5001;
		p->tcp_win = 65535;
		p->tcp_wscale = 0xff;
		p->tcp_urp = 1;
		p->payload = (const uint8_t *)"X";
		p->payload_len = 1;
		c->rflags = stream_handle_packet(c->st, &c->f, p);
	}
	sendp(c, TS, TH_ACK | TH_PSH, 1010, 5001, "icious");
	sendp(c, TC, TH_ACK, 5001, 1016, NULL);
}

TEST(urgent_inline_keeps_the_urgent_byte)
{
	struct ctx c;

	urgent_case(&c, STREAM_URGENT_INLINE);
	CHECK_STREQ(ready(&c, TS, 0, NULL), "GET /malXicious");
	ctx_done(&c);
}

TEST(urgent_oob_takes_the_byte_out_and_closes_up)
{
	struct ctx c;
	uint64_t oob = 0;

	ctx_init(&c);
	oob = cval(&c, "tcp.urgent_oob_data");
	urgent_case(&c, STREAM_URGENT_OOB);
	CHECK_STREQ(ready(&c, TS, 0, NULL), "GET /malicious");
	CHECK_EQ(stream_ready_offset(&c.f, TS), 14);
	CHECK_EQ(cval(&c, "tcp.urgent_oob_data"), oob + 1);
	CHECK(!(stream_dir_flags(&c.f, TS) & STREAM_DIR_GAP));
	ctx_done(&c);
}

TEST(urgent_gap_leaves_a_one_byte_hole)
{
	struct ctx c;
	uint64_t base = 0;

	urgent_case(&c, STREAM_URGENT_GAP);
	CHECK_STREQ(ready(&c, TS, 0, NULL), "GET /mal");
	CHECK_STREQ(ready(&c, TS, 8, &base), "icious");
	CHECK_EQ(base, 9);
	CHECK(stream_dir_flags(&c.f, TS) & STREAM_DIR_GAP);
	ctx_done(&c);
}

TEST(urgent_drop_drops_the_packet_and_its_data)
{
	struct ctx c;

	urgent_case(&c, STREAM_URGENT_DROP);
	/* the last packet was the server's ACK; the urgent one was dropped */
	CHECK_STREQ(ready(&c, TS, 0, NULL), "GET /mal");
	CHECK(stream_dir_flags(&c.f, TS) & STREAM_DIR_GAP);
	ctx_done(&c);
}

TEST(urgent_policy_is_read_from_config)
{
	StreamConfig cfg;
	char err[256];

	CHECK(conf_load_string("stream:\n  reassembly:\n    urgent:\n      policy: oob\n"
			       "      oob-limit-policy: gap\n", "t", err, sizeof(err)) == 0);
	CHECK_EQ(stream_config_load(&cfg), 0);
	CHECK_EQ(cfg.urgent, STREAM_URGENT_OOB);
	CHECK_EQ(cfg.urgent_oob_limit, STREAM_URGENT_GAP);
	stream_config_free(&cfg);
	/* oob is no limit policy */
	conf_set("stream.reassembly.urgent.oob-limit-policy", "oob");
	CHECK(stream_config_load(&cfg) < 0);
	stream_config_free(&cfg);
	conf_set("stream.reassembly.urgent.policy", "sideways");
	CHECK(stream_config_load(&cfg) < 0);
	stream_config_free(&cfg);
	conf_deinit();
}
