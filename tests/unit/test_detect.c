/* Detection engine: inspection semantics on hand-made packets. */
#include "test.h"

#include "detect/engine.h"
#include "detect/engine-int.h"
#include "detect/packet.h"
#include "detect/prefilter.h"
#include "detect/detect-parse.h"
#include "detect-test-util.h"
#include "stream/stream.h"
#include "conf/conf.h"
#include "output/alert.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

static int env_init(Env *e, const char *rules, enum mpm_algo algo)
{
	return env_init_max(e, rules, algo, 15);
}

static void mk_tcp(Packet *p, const char *payload, size_t len, uint8_t flags)
{
	test_tcp4(p, 0x0a000001, 0x0a000002, 80, payload, len);
	p->tcp_flags = flags;
}

/* Runs p and returns 1 when sid alerted. */
static int alerted(Env *e, Packet *p, uint32_t sid)
{
	const DetectAlert *a;
	uint32_t n = detect_packet(e->dt, p, &a);

	for (uint32_t i = 0; i < n; i++)
		if (a[i].s->sid == sid)
			return 1;
	return 0;
}

static int hit(const char *rule, const char *payload, size_t len)
{
	Env e;
	Packet p;
	int r;

	if (env_init(&e, rule, MPM_AC) != 0)
		return -1;
	mk_tcp(&p, payload, len, 0x18);
	r = alerted(&e, &p, 1);
	env_free(&e);
	return r;
}

#define S(x) x, sizeof(x) - 1

TEST(content_plain_matches_and_misses)
{
	CHECK_EQ(hit("alert tcp any any -> any any (content:\"evil\"; sid:1;)", S("xxevilxx")), 1);
	CHECK_EQ(hit("alert tcp any any -> any any (content:\"evil\"; sid:1;)", S("xxEVILxx")), 0);
	CHECK_EQ(hit("alert tcp any any -> any any (content:\"evil\"; nocase; sid:1;)", S("xxEVILxx")), 1);
}

/* The content search: a match starts inside [offset, depth), lies wholly
 * in the buffer, and a caseless pattern matches either case (a letter or a
 * non-letter first byte). */
TEST(content_search_keeps_bounds_and_case)
{
	const char *mid = "alert tcp any any -> any any (content:\"ab|01|cd\"; sid:1;)";
	const char *off = "alert tcp any any -> any any (content:\"ab|01|cd\"; offset:3; sid:1;)";
	const char *dep = "alert tcp any any -> any any (content:\"ab|01|cd\"; depth:6; sid:1;)";
	const char *ci = "alert tcp any any -> any any (content:\"AB-cd\"; nocase; sid:1;)";
	const char *letters = "alert tcp any any -> any any (content:\"Abcd\"; nocase; sid:1;)";

	CHECK_EQ(hit(mid, S("\001ab\001cd")), 1);     /* a partial match first */
	CHECK_EQ(hit(mid, S("xxab\001cd")), 1);        /* at the very end */
	CHECK_EQ(hit(mid, S("xxab\001c")), 0);         /* would run past the end */
	CHECK_EQ(hit(mid, S("b\001cd")), 0);           /* would start before the buffer */
	CHECK_EQ(hit(off, S("ab\001cdxab\001cd")), 1); /* the second, at 6 */
	CHECK_EQ(hit(off, S("ab\001cdxx")), 0);
	CHECK_EQ(hit(dep, S("xab\001cd")), 1);         /* ends at 6 */
	CHECK_EQ(hit(dep, S("xxab\001cd")), 0);        /* ends at 7 */
	CHECK_EQ(hit(ci, S("zzab-CDzz")), 1);
	CHECK_EQ(hit(ci, S("zzab_CDzz")), 0);
	CHECK_EQ(hit(letters, S("aBcAbCD")), 1);
	CHECK_EQ(hit(letters, S("aBcAbC")), 0);
}

TEST(content_offset_depth_are_absolute)
{
	const char *r = "alert tcp any any -> any any (content:\"ab\"; offset:2; depth:2; sid:1;)";

	CHECK_EQ(hit(r, S("xxabyy")), 1);
	CHECK_EQ(hit(r, S("xxxabyy")), 0);
	CHECK_EQ(hit(r, S("abxxyy")), 0);
}

TEST(content_chain_backtracks_to_later_occurrence)
{
	/* first "A" is followed by nothing useful; the second "A" has "B"
	 * within 2 bytes: only backtracking finds it */
	const char *r = "alert tcp any any -> any any (content:\"A\"; content:\"B\"; distance:0; "
			"within:2; sid:1;)";

	CHECK_EQ(hit(r, S("A....AxB")), 1);
	CHECK_EQ(hit(r, S("A....Ax.B")), 0);
}

/* Backtracking with the failure memo (inspect.c content_step): a later
 * occurrence of an earlier content still finds the match the first one
 * missed; with within (whose end moves with the previous match) a later
 * start is not a part of the earlier search, and the match is still found. */
TEST(content_backtracking_memo_keeps_matches)
{
	const char *r1 = "alert tcp any any -> any any (content:\"<\"; content:\"x\"; distance:0; "
			 "pcre:\"/^y/R\"; sid:1;)";
	const char *r2 = "alert tcp any any -> any any (content:\"<\"; content:\"x\"; distance:0; "
			 "within:2; pcre:\"/^y/R\"; sid:1;)";
	const char *r3 = "alert tcp any any -> any any (content:\"<\"; content:\"x\"; distance:0; "
			 "content:\"z\"; distance:0; within:1; sid:1;)";

	CHECK_EQ(hit(r1, S("< x < xy")), 1);
	CHECK_EQ(hit(r1, S("< x < x< x")), 0);
	/* '<'@0: its x@1 is not followed by y and no other x lies within 2;
	 * '<'@3 and x@4 then match */
	CHECK_EQ(hit(r2, S("<x <xy")), 1);
	CHECK_EQ(hit(r3, S("<x< x xz")), 1);
	CHECK_EQ(hit(r3, S("<x< x x z")), 0);
}

TEST(content_negated_fails_when_present)
{
	const char *r = "alert tcp any any -> any any (content:\"GET\"; content:!\"admin\"; sid:1;)";

	CHECK_EQ(hit(r, S("GET /index")), 1);
	CHECK_EQ(hit(r, S("GET /admin")), 0);
}

TEST(content_distance_negative_and_within)
{
	const char *r = "alert tcp any any -> any any (content:\"cd\"; content:\"bc\"; distance:-3; "
			"within:2; sid:1;)";

	CHECK_EQ(hit(r, S("abcd")), 1);
}

TEST(startswith_endswith)
{
	CHECK_EQ(hit("alert tcp any any -> any any (content:\"ab\"; startswith; sid:1;)", S("abc")), 1);
	CHECK_EQ(hit("alert tcp any any -> any any (content:\"ab\"; startswith; sid:1;)", S("cab")), 0);
	CHECK_EQ(hit("alert tcp any any -> any any (content:\"ab\"; endswith; sid:1;)", S("ab ab")), 1);
	CHECK_EQ(hit("alert tcp any any -> any any (content:\"ab\"; endswith; sid:1;)", S("abc")), 0);
}

TEST(isdataat_relative_and_absolute)
{
	CHECK_EQ(hit("alert tcp any any -> any any (content:\"ab\"; isdataat:2,relative; sid:1;)",
		     S("abcd")), 1);
	CHECK_EQ(hit("alert tcp any any -> any any (content:\"ab\"; isdataat:3,relative; sid:1;)",
		     S("abcd")), 0);
	CHECK_EQ(hit("alert tcp any any -> any any (content:\"ab\"; isdataat:!10; sid:1;)",
		     S("abcd")), 1);
}

TEST(pcre_relative_starts_after_previous_match)
{
	const char *r = "alert tcp any any -> any any (content:\"key=\"; pcre:\"/^[0-9]+,/R\"; sid:1;)";

	CHECK_EQ(hit(r, S("x key=123,")), 1);
	CHECK_EQ(hit(r, S("x key=a123,")), 0);
	CHECK_EQ(hit("alert tcp any any -> any any (content:\"a\"; pcre:\"/HELLO/i\"; sid:1;)",
		     S("a hello")), 1);
}

/* pcre.match-limit (Suricata 8: 3500 steps): (a+)+b backtracks 2^18 times
 * over the a's before the "ab" further on matches; held to the limit the
 * pcre gives up (no alert, and no proof of absence for a negated one); /O
 * lifts the limit and the match is found. */
TEST(pcre_match_limit_gives_up_and_O_lifts_it)
{
	const char *pl = "X aaaaaaaaaaaaaaaaaa! ab";

	CHECK_EQ(hit("alert tcp any any -> any any (content:\"X\"; pcre:\"/(a+)+b/\"; sid:1;)",
		     pl, strlen(pl)), 0);
	CHECK_EQ(hit("alert tcp any any -> any any (content:\"X\"; pcre:\"/(a+)+b/O\"; sid:1;)",
		     pl, strlen(pl)), 1);
	CHECK_EQ(hit("alert tcp any any -> any any (content:\"X\"; pcre:!\"/(a+)+b/\"; sid:1;)",
		     pl, strlen(pl)), 0);
	CHECK_EQ(hit("alert tcp any any -> any any (content:\"X\"; pcre:!\"/(a+)+b/\"; sid:1;)",
		     S("X no match here")), 1);
}

TEST(byte_test_and_jump_and_extract)
{
	/* length byte 3, then skip 3 bytes, then "Z" */
	CHECK_EQ(hit("alert tcp any any -> any any (content:\"L\"; byte_jump:1,0,relative; "
		      "content:\"Z\"; within:1; sid:1;)", S("L\x03" "abcZ")), 1);
	CHECK_EQ(hit("alert tcp any any -> any any (content:\"L\"; byte_jump:1,0,relative; "
		      "content:\"Z\"; within:1; sid:1;)", S("L\x02" "abcZ")), 0);
	CHECK_EQ(hit("alert tcp any any -> any any (content:\"N\"; byte_test:2,>,255,0,relative; "
		      "sid:1;)", S("N\x01\x00")), 1);
	CHECK_EQ(hit("alert tcp any any -> any any (content:\"N\"; byte_test:2,>,256,0,relative; "
		      "sid:1;)", S("N\x01\x00")), 0);
	CHECK_EQ(hit("alert tcp any any -> any any (content:\"N\"; byte_test:3,=,123,0,relative,string,dec; "
		      "sid:1;)", S("N123")), 1);
	/* 0 bytes: the rule loads (as in Suricata) and never matches */
	CHECK_EQ(hit("alert tcp any any -> any any (content:\"N\"; byte_test:0,<=,30000,0,string,dec; "
		      "sid:1;)", S("N123")), 0);
	CHECK_EQ(hit("alert tcp any any -> any any (content:\"N\"; byte_test:0,!=,1,0; "
		      "sid:1;)", S("N123")), 0);
	CHECK_EQ(hit("alert tcp any any -> any any (content:\"V\"; byte_extract:1,0,len,relative; "
		      "content:\"E\"; distance:len; within:1; sid:1;)", S("V\x02" "xxE")), 1);
	CHECK_EQ(hit("alert tcp any any -> any any (content:\"V\"; byte_extract:1,0,len,relative; "
		      "content:\"E\"; distance:len; within:1; sid:1;)", S("V\x01" "xxE")), 0);
}

TEST(packet_keywords_dsize_flags_ttl)
{
	CHECK_EQ(hit("alert tcp any any -> any any (dsize:>3; sid:1;)", S("abcd")), 1);
	CHECK_EQ(hit("alert tcp any any -> any any (dsize:<3; sid:1;)", S("abcd")), 0);
	CHECK_EQ(hit("alert tcp any any -> any any (flags:PA; sid:1;)", S("x")), 1);
	CHECK_EQ(hit("alert tcp any any -> any any (flags:S; sid:1;)", S("x")), 0);
	CHECK_EQ(hit("alert tcp any any -> any any (ttl:64; sid:1;)", S("x")), 1);
	CHECK_EQ(hit("alert tcp any any -> any 81 (sid:1; content:\"x\";)", S("x")), 0);
	CHECK_EQ(hit("alert udp any any -> any any (sid:1;)", S("x")), 0);
}

TEST(flowbits_set_then_isset_in_same_packet_and_later)
{
	Env e;
	Packet p;
	Flow f;

	CHECK(env_init(&e,
		"alert tcp any any -> any any (content:\"b\"; flowbits:isset,seen; sid:2;)\n"
		"alert tcp any any -> any any (content:\"a\"; flowbits:set,seen; flowbits:noalert; sid:1;)\n",
		MPM_AC) == 0);
	memset(&f, 0, sizeof(f));
	mk_tcp(&p, S("b"), 0x18);
	p.flow = &f;
	p.flags |= PKT_HAS_FLOW | PKT_TOSERVER;
	CHECK_EQ(alerted(&e, &p, 2), 0);
	mk_tcp(&p, S("ab"), 0x18);
	p.flow = &f;
	p.flags |= PKT_HAS_FLOW | PKT_TOSERVER;
	/* the setter is ordered first, so isset sees it in the same packet */
	CHECK_EQ(alerted(&e, &p, 2), 1);
	CHECK_EQ(alerted(&e, &p, 1), 0);   /* noalert */
	detect_flow_free(&f);
	env_free(&e);
}

/* An alert's metadata.flowbits: the flow's bits once the packet's
 * detection is over, its own rule's set included, in id order. */
TEST(alert_info_lists_the_flowbits_set)
{
	Env e;
	Packet p;
	Flow f;
	const DetectAlert *a;
	AlertInfo ai;
	uint32_t n;

	CHECK(env_init(&e,
		"alert tcp any any -> any any (content:\"a\"; flowbits:set,one; flowbits:set,two; "
		"flowbits:unset,three; sid:1;)\n"
		"alert tcp any any -> any any (content:\"z\"; flowbits:isset,three; sid:2;)\n",
		MPM_AC) == 0);
	memset(&f, 0, sizeof(f));
	mk_tcp(&p, S("a"), 0x18);
	p.flow = &f;
	p.flags |= PKT_HAS_FLOW | PKT_TOSERVER;
	n = detect_packet(e.dt, &p, &a);
	CHECK_EQ(n, 1);
	detect_alert_info(e.de, &p, &a[0], &ai);
	CHECK_EQ(ai.n_flowbits, 2);
	CHECK_STREQ(ai.flowbits[0], "one");
	CHECK_STREQ(ai.flowbits[1], "two");
	detect_flow_free(&f);
	env_free(&e);
}

TEST(threshold_limit_alerts_once_per_window)
{
	Env e;
	Packet p;
	int n = 0;

	CHECK(env_init(&e, "alert tcp any any -> any any (content:\"x\"; threshold:type limit, "
			   "track by_src, count 1, seconds 60; sid:1;)", MPM_AC) == 0);
	for (int i = 0; i < 5; i++) {
		mk_tcp(&p, S("x"), 0x18);
		p.ts.tv_sec = 1000 + i;
		n += alerted(&e, &p, 1);
	}
	CHECK_EQ(n, 1);
	mk_tcp(&p, S("x"), 0x18);
	p.ts.tv_sec = 1100;
	CHECK_EQ(alerted(&e, &p, 1), 1);
	env_free(&e);
}

TEST(threshold_type_threshold_every_nth)
{
	Env e;
	Packet p;
	int n = 0;

	CHECK(env_init(&e, "alert tcp any any -> any any (content:\"x\"; threshold:type threshold, "
			   "track by_dst, count 3, seconds 60; sid:1;)", MPM_AC) == 0);
	for (int i = 0; i < 7; i++) {
		mk_tcp(&p, S("x"), 0x18);
		p.ts.tv_sec = 1000;
		n += alerted(&e, &p, 1);
	}
	CHECK_EQ(n, 2);
	env_free(&e);
}

TEST(pass_rule_stops_alerts)
{
	Env e;
	Packet p;

	CHECK(env_init(&e, "alert tcp any any -> any any (content:\"x\"; sid:1;)\n"
			   "pass tcp any any -> any any (content:\"x\"; sid:2;)\n", MPM_AC) == 0);
	mk_tcp(&p, S("x"), 0x18);
	CHECK_EQ(alerted(&e, &p, 1), 0);
	env_free(&e);
}

TEST(packet_rule_pass_passes_only_its_packet)
{
	Env e;
	Packet p;
	Flow f;

	CHECK(env_init(&e, "pass tcp any any -> any 80 (content:\"ok\"; sid:2;)\n"
			   "alert tcp any any -> any any (content:\"x\"; sid:1;)\n", MPM_AC) == 0);
	memset(&f, 0, sizeof(f));
	f.proto = IPPROTO_TCP;
	mk_tcp(&p, S("ok x"), 0x18);
	p.flow = &f;
	p.flags |= PKT_HAS_FLOW | PKT_TOSERVER;
	CHECK_EQ(alerted(&e, &p, 1), 0);
	/* the next packet of the flow is inspected again */
	mk_tcp(&p, S("x"), 0x18);
	p.flow = &f;
	p.flags |= PKT_HAS_FLOW | PKT_TOSERVER;
	CHECK_EQ(alerted(&e, &p, 1), 1);
	detect_flow_free(&f);
	env_free(&e);
}

TEST(iponly_pass_passes_the_whole_flow)
{
	Env e;
	Packet p;
	Flow f;

	/* IP-only: the pass matches only packets from 10.0.0.3 */
	CHECK(env_init(&e, "pass ip 10.0.0.3 any -> any any (sid:2;)\n"
			   "alert tcp any any -> any any (content:\"x\"; sid:1;)\n", MPM_AC) == 0);
	memset(&f, 0, sizeof(f));
	f.proto = IPPROTO_TCP;
	mk_tcp(&p, S("x"), 0x18);
	p.src.a.u32[0] = htonl(0x0a000003);
	p.flow = &f;
	p.flags |= PKT_HAS_FLOW | PKT_TOSERVER;
	CHECK_EQ(alerted(&e, &p, 1), 0);
	/* later packets of the flow, either way, are passed too */
	mk_tcp(&p, S("x"), 0x18);
	p.flow = &f;
	p.src.a.u32[0] = htonl(0x0a000002);
	p.dst.a.u32[0] = htonl(0x0a000003);
	p.sp = 80;
	p.dp = 40000;
	p.flags |= PKT_HAS_FLOW | PKT_TOCLIENT;
	CHECK_EQ(alerted(&e, &p, 1), 0);
	detect_flow_free(&f);
	/* another flow is not */
	memset(&f, 0, sizeof(f));
	f.proto = IPPROTO_TCP;
	mk_tcp(&p, S("x"), 0x18);
	p.flow = &f;
	p.flags |= PKT_HAS_FLOW | PKT_TOSERVER;
	CHECK_EQ(alerted(&e, &p, 1), 1);
	detect_flow_free(&f);
	env_free(&e);
}

TEST(icmpv6_mtu_only_in_packet_too_big)
{
	Env e;
	Packet p;
	uint8_t ptb[8] = { 2, 0, 0, 0, 0, 0, 0x04, 0x00 };   /* MTU 1024 */

	CHECK(env_init(&e, "alert ipv6 any any -> any any (icmpv6.mtu:<1280; sid:1;)\n"
			   "alert ipv6 any any -> any any (icmpv6.mtu:1024; sid:2;)\n"
			   "alert ipv6 any any -> any any (icmpv6.mtu:>1024; sid:3;)\n", MPM_AC) == 0);
	memset(&p, 0, sizeof(p));
	p.ip_version = 6;
	p.proto = IPPROTO_ICMPV6;
	p.src.family = p.dst.family = AF_INET6;
	p.l4 = ptb;
	p.l4_hlen = 8;
	p.icmp_type = 2;
	CHECK_EQ(alerted(&e, &p, 1), 1);
	CHECK_EQ(alerted(&e, &p, 2), 1);
	CHECK_EQ(alerted(&e, &p, 3), 0);
	/* an echo request carries no MTU, whatever its bytes 4..7 say */
	ptb[0] = 128;
	p.icmp_type = 128;
	CHECK_EQ(alerted(&e, &p, 1), 0);
	/* nor does a Packet Too Big with a nonzero code */
	ptb[0] = 2;
	p.icmp_type = 2;
	p.icmp_code = 1;
	CHECK_EQ(alerted(&e, &p, 1), 0);
	env_free(&e);
}

TEST(alert_max_caps_alerts_per_packet)
{
	Env e;
	Packet p;
	const DetectAlert *a;
	char rules[4096] = "";

	for (int i = 1; i <= 20; i++)
		snprintf(rules + strlen(rules), sizeof(rules) - strlen(rules),
			 "alert tcp any any -> any any (content:\"x\"; sid:%d;)\n", i);
	CHECK(env_init(&e, rules, MPM_AC) == 0);
	mk_tcp(&p, S("x"), 0x18);
	CHECK_EQ(detect_packet(e.dt, &p, &a), 15);
	CHECK_EQ(a[0].s->sid, 1);
	env_free(&e);
}

/* packet-alert-max: a value Suricata 8 cannot use (0, negative, too
 * large, not a number) starts with a warning and the default 15. */
TEST(alert_max_config_bad_value_is_the_default)
{
	static const struct { const char *yaml; uint32_t want; } cases[] = {
		{ "packet-alert-max: 0\n", 15 },
		{ "packet-alert-max: -3\n", 15 },
		{ "packet-alert-max: 70000\n", 15 },
		{ "packet-alert-max: lots\n", 15 },
		{ "packet-alert-max: 20\n", 20 },
		{ "max-pending-packets: 10\n", 15 },
	};
	char err[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		DetectConfig dc;

		conf_deinit();
		CHECK_EQ(conf_load_string(cases[i].yaml, "t.yaml", err, sizeof(err)), 0);
		CHECK_EQ(detect_config_load(&dc, err, sizeof(err)), 0);
		CHECK_EQ(dc.alert_max, cases[i].want);
	}
	conf_deinit();
}

TEST(ac_and_hs_agree_on_candidates)
{
	Env a, h;
	Packet p;
	const char *rules =
		"alert tcp any any -> any any (content:\"abc\"; sid:1;)\n"
		"alert tcp any any -> any any (content:\"ABC\"; nocase; content:\"z\"; sid:2;)\n"
		"alert tcp any any -> any any (content:\"q\"; fast_pattern; content:\"abc\"; sid:3;)\n";

	if (!mpm_have_hs())
		return;
	CHECK(env_init(&a, rules, MPM_AC) == 0);
	CHECK(env_init(&h, rules, MPM_HS) == 0);
	mk_tcp(&p, S("xxAbcz abc q"), 0x18);
	for (uint32_t sid = 1; sid <= 3; sid++)
		CHECK_EQ(alerted(&a, &p, sid), alerted(&h, &p, sid));
	CHECK_EQ(alerted(&a, &p, 3), 1);
	env_free(&a);
	env_free(&h);
}

/* Fast patterns with a depth are scanned in the buffer's head alone
 * (mpm_add_pattern_bounded): a match that ends at its depth is still found,
 * a pattern shared with a rule without depth is still found anywhere for
 * that rule, a chopped fast pattern keeps its content's bound, and a depth
 * past the head's limit is scanned everywhere; for ac and hs alike. */
TEST(bounded_fast_patterns_keep_their_matches)
{
	static const enum mpm_algo algos[] = { MPM_AC, MPM_HS };
	const char *rules =
		"alert tcp any any -> any any (content:\"|01 02|\"; depth:4; sid:1;)\n"
		"alert tcp any any -> any any (content:\"GET\"; offset:3; depth:3; content:\"x\"; sid:2;)\n"
		"alert tcp any any -> any any (content:\"|01 02|\"; content:\"z\"; sid:3;)\n"
		"alert tcp any any -> any any (content:\"abcdefgh\"; fast_pattern:4,4; depth:8; sid:4;)\n"
		"alert tcp any any -> any any (content:\"far\"; depth:200; sid:5;)\n";
	char far[200];

	memset(far, '.', sizeof(far));
	memcpy(far + sizeof(far) - 3, "far", 3);
	for (size_t k = 0; k < sizeof(algos) / sizeof(algos[0]); k++) {
		Env e;
		Packet p;

		if (algos[k] == MPM_HS && !mpm_have_hs())
			continue;
		CHECK(env_init(&e, rules, algos[k]) == 0);
		/* |01 02| ends at its depth 4, GET at its 6: found; a byte
		 * later: past them */
		mk_tcp(&p, S("xx\x01\x02\x00GET x"), 0x18);
		CHECK_EQ(alerted(&e, &p, 1), 1);
		mk_tcp(&p, S("\x00\x00\x00\x01\x02\x00GET x"), 0x18);
		CHECK_EQ(alerted(&e, &p, 1), 0);
		mk_tcp(&p, S("xx\x01GETx"), 0x18);
		CHECK_EQ(alerted(&e, &p, 2), 1);
		mk_tcp(&p, S("xx\x01 GETx"), 0x18);
		CHECK_EQ(alerted(&e, &p, 2), 0);
		/* |01 02| far from the start: sid 3 (no depth) alerts, sid 1 not */
		mk_tcp(&p, S("..............................................................."
			     "...........\x01\x02 z"), 0x18);
		CHECK_EQ(alerted(&e, &p, 3), 1);
		mk_tcp(&p, S("..............................................................."
			     "...........\x01\x02 z"), 0x18);
		CHECK_EQ(alerted(&e, &p, 1), 0);
		mk_tcp(&p, S("abcdefgh"), 0x18);
		CHECK_EQ(alerted(&e, &p, 4), 1);
		mk_tcp(&p, S("xabcdefgh"), 0x18);
		CHECK_EQ(alerted(&e, &p, 4), 0);
		mk_tcp(&p, far, sizeof(far), 0x18);
		CHECK_EQ(alerted(&e, &p, 5), 1);
		env_free(&e);
	}
}

TEST(iponly_rule_alerts_once_per_flow_direction)
{
	Env e;
	Packet p;
	Flow f;
	int n = 0;

	CHECK(env_init(&e, "alert ip any any -> any any (sid:1;)", MPM_AC) == 0);
	memset(&f, 0, sizeof(f));
	f.proto = IPPROTO_TCP;
	for (int i = 0; i < 6; i++) {
		mk_tcp(&p, S("x"), 0x18);
		p.flow = &f;
		p.flags |= PKT_HAS_FLOW | ((i & 1) ? PKT_TOCLIENT : PKT_TOSERVER);
		n += alerted(&e, &p, 1);
	}
	CHECK_EQ(n, 2);
	/* without a flow, every packet is inspected */
	mk_tcp(&p, S("x"), 0x18);
	CHECK_EQ(alerted(&e, &p, 1), 1);
	CHECK_EQ(alerted(&e, &p, 1), 1);
	detect_flow_free(&f);
	env_free(&e);
}

TEST(port_hull_prefilter_keeps_matching_port_rules)
{
	CHECK_EQ(hit("alert tcp any any -> any [79:81] (content:\"x\"; sid:1;)", S("x")), 1);
	CHECK_EQ(hit("alert tcp any any -> any [81:90] (content:\"x\"; sid:1;)", S("x")), 0);
	CHECK_EQ(hit("alert tcp any any <> any 40000 (content:\"x\"; sid:1;)", S("x")), 1);
}

TEST(tcp_stream_rules_do_not_match_packets)
{
	CHECK_EQ(hit("alert tcp-stream any any -> any any (content:\"x\"; sid:1;)", S("x")), 0);
	CHECK_EQ(hit("alert tcp-pkt any any -> any any (content:\"x\"; sid:1;)", S("x")), 1);
}

TEST(byte_jump_zero_bytes_clamps_negative_post_offset)
{
	/* jump 0 bytes then back 10: Suricata lands on the buffer start */
	CHECK_EQ(hit("alert tcp any any -> any any (content:\"MARK\"; byte_jump:0,0,relative,"
		      "post_offset -10; pcre:\"/^ab/R\"; sid:1;)", S("abcMARK")), 1);
	CHECK_EQ(hit("alert tcp any any -> any any (content:\"MARK\"; byte_jump:0,0,relative,"
		      "post_offset -4; pcre:\"/^MARK/R\"; sid:1;)", S("abcMARK")), 1);
}

TEST(hostbits_set_on_src_seen_as_dst_later)
{
	Env e;
	Packet p;

	CHECK(env_init(&e,
		"alert tcp any any -> any any (content:\"login\"; hostbits:set,seen,src; sid:1;)\n"
		"alert tcp any any -> any any (content:\"reply\"; hostbits:isset,seen,dst; sid:2;)\n",
		MPM_AC) == 0);
	mk_tcp(&p, S("reply"), 0x18);
	CHECK_EQ(alerted(&e, &p, 2), 0);
	mk_tcp(&p, S("login"), 0x18);
	CHECK_EQ(alerted(&e, &p, 1), 1);
	/* the reverse packet: the client is now the destination */
	mk_tcp(&p, S("reply"), 0x18);
	{
		Address t = p.src;

		p.src = p.dst;
		p.dst = t;
	}
	CHECK_EQ(alerted(&e, &p, 2), 1);
	env_free(&e);
}

static void port_groups_check(int extra_dp, enum mpm_algo algo)
{
	static const char *ports[] = {
		"80", "443", "[80,443]", "!80", "[1024:]", "[:1023]", "53", "25", "[8000:8100]",
		"8080", "[445,139]", "1521", "[6660:6669]", "21", "22", "23", "110", "143",
		"[3306,1433]", "3389", "5060", "![1:1024]", "[81:442]", "4444", "31337", "any",
	};
	static const uint16_t probe[] = { 0, 1, 21, 25, 53, 79, 80, 81, 139, 442, 443, 444, 1023,
					  1024, 1025, 3389, 4444, 5050, 6665, 8050, 8080, 31337,
					  40000, 65535 };
	const int np = (int)(sizeof(ports) / sizeof(ports[0]));
	char *rules = calloc(1, 64 * 1024);
	size_t off = 0;
	int sid = 1, checked = 0;
	Env e;

	CHECK(rules != NULL);
	/* dp rules, sp rules, and bidirectional ones */
	for (int i = 0; i < np; i++) {
		off += (size_t)sprintf(rules + off, "alert tcp any any -> any %s (content:\"x\"; sid:%d;)\n",
				       ports[i], sid++);
		off += (size_t)sprintf(rules + off, "alert tcp any %s -> any any (content:\"x\"; sid:%d;)\n",
				       ports[i], sid++);
		off += (size_t)sprintf(rules + off, "alert tcp any %s <> any 40000 (content:\"x\"; sid:%d;)\n",
				       ports[i], sid++);
	}
	/* more rules naming dp: the toclient groups split on dp too */
	for (int i = 0; i < extra_dp; i++)
		off += (size_t)sprintf(rules + off, "alert tcp any any -> any %d (content:\"x\"; sid:%d;)\n",
				       5000 + 10 * i, sid++);
	CHECK(env_init_max(&e, rules, algo, 1000) == 0);
	for (int dir = 0; dir < 2; dir++)
		for (size_t a = 0; a < sizeof(probe) / sizeof(probe[0]); a++)
			for (size_t b = 0; b < sizeof(probe) / sizeof(probe[0]); b += 3) {
				const DetectAlert *al;
				Packet p;
				uint32_t n;
				uint8_t got[256] = { 0 };

				mk_tcp(&p, S("x"), 0x18);
				p.flags |= dir ? PKT_TOCLIENT : PKT_TOSERVER;
				p.sp = dir ? probe[a] : probe[b];
				p.dp = dir ? probe[b] : probe[a];
				n = detect_packet(e.dt, &p, &al);
				for (uint32_t k = 0; k < n; k++)
					got[al[k].s->sid] = 1;
				for (int i = 0; i < e.t->nsigs; i++) {
					const Signature *s = e.t->sigs[i];
					int want = (portset_match(&s->sp, p.sp) && portset_match(&s->dp, p.dp)) ||
						   ((s->flags & SIG_FLAG_BIDIR) && portset_match(&s->sp, p.dp) &&
						    portset_match(&s->dp, p.sp));

					CHECK_EQ(got[s->sid], want);
					checked++;
				}
			}
	CHECK(checked > 1000);
	env_free(&e);
	free(rules);
}

/* Port groups: more distinct port sets than PG_MAX_GROUPS (so some are
 * merged), ranges, negations, lists, <>; every rule must still alert
 * exactly where its ports match, toserver and toclient, split on dp or sp,
 * with ac (port groups) as with hs (none). */
TEST(port_groups_keep_every_rule_its_ports_match)
{
	port_groups_check(0, MPM_AC);
	port_groups_check(40, MPM_AC);
	/* hs builds no port groups: the same answers */
	if (mpm_have_hs())
		port_groups_check(40, MPM_HS);
}

/* The port groups a fixed rule set builds, pinned (build-portgroups.c):
 * eleven single-port rule sets and a range, more than PG_MAX_GROUPS, so
 * the busy services (53, 80, 443) and the ports with no port-specific rule
 * keep a group each, the biggest sets fill the rest and the others share
 * the last group; the toclient rules name dp as well, so toclient splits
 * on dp too. UDP with next to nothing port-specific is not split. */
TEST(port_groups_fixed_set_split_pinned)
{
	static const int ports[] = { 21, 22, 23, 25, 53, 80, 110, 143, 443, 445, 8080 };
	char rules[4096];
	size_t off = 0;
	int sid = 1;
	Env e;

	for (size_t i = 0; i < sizeof(ports) / sizeof(ports[0]); i++)
		off += (size_t)sprintf(rules + off, "alert tcp any any -> any %d (content:\"p%d\"; "
				       "sid:%d;)\n", ports[i], ports[i], sid++);
	/* the range has two rules: the biggest set besides the kept ones */
	for (int k = 0; k < 2; k++)
		off += (size_t)sprintf(rules + off, "alert tcp any any -> any 1000:2000 "
				       "(content:\"range%d\"; sid:%d;)\n", k, sid++);
	off += (size_t)sprintf(rules + off,
			       "alert tcp any any -> any any (content:\"any1\"; sid:%d;)\n"
			       "alert tcp any any -> any any (content:\"any2\"; sid:%d;)\n"
			       "alert udp any any -> any 53 (content:\"u53\"; sid:%d;)\n",
			       sid, sid + 1, sid + 2);
	sid += 3;
	for (int k = 0; k < 8; k++)
		off += (size_t)sprintf(rules + off, "alert udp any any -> any any (content:\"u%d\"; "
				       "sid:%d;)\n", k, sid++);
	CHECK_EQ(env_init(&e, rules, MPM_AC), 0);
	for (int d = 0; d < 2; d++) {
		const PortGroups *pg = &e.de->pg[PC_TCP][d];
		uint32_t merged = 0;

		CHECK_EQ(pg->side, 0);
		CHECK_EQ(pg->ng, PG_MAX_GROUPS);
		CHECK(pg->map != NULL);
		/* no port-specific rule: the two `any` rules only */
		CHECK_EQ(pg->g[pg->map[9999]].npids, 2);
		CHECK_EQ(pg->g[pg->map[0]].npids, 2);
		CHECK_EQ(pg->map[9999], pg->map[0]);
		/* the services keep their own group */
		CHECK_EQ(pg->g[pg->map[53]].npids, 3);
		CHECK_EQ(pg->g[pg->map[80]].npids, 3);
		CHECK_EQ(pg->g[pg->map[443]].npids, 3);
		CHECK(pg->map[53] != pg->map[80] && pg->map[80] != pg->map[443]);
		/* the range is the biggest set: kept, over its whole range */
		CHECK_EQ(pg->g[pg->map[1000]].npids, 4);
		CHECK(pg->map[1000] != pg->ng - 1);
		CHECK_EQ(pg->map[1000], pg->map[2000]);
		CHECK_EQ(pg->map[2001], pg->map[9999]);
		/* 13 distinct sets in 8 groups: six single-port sets merged */
		for (size_t i = 0; i < sizeof(ports) / sizeof(ports[0]); i++)
			merged += pg->map[ports[i]] == pg->ng - 1;
		CHECK_EQ(merged, 6);
		CHECK_EQ(pg->g[pg->ng - 1].npids, 2 + 6);
	}
	/* one port-specific UDP rule against eight `any` ones: no split */
	for (int d = 0; d < 2; d++) {
		CHECK_EQ(e.de->pg[PC_UDP][d].ng, 1);
		CHECK(e.de->pg[PC_UDP][d].map == NULL);
		CHECK_EQ(e.de->pg[PC_UDP][d].g[0].npids, 9);
	}
	env_free(&e);
}

/* A packet whose payload went into the stream is prefiltered with the
 * patterns of the rules that still inspect packets (dsize, no_stream,
 * tcp-pkt) only; the others must not match it, and without a session
 * every rule sees the packet. */
TEST(streamed_packet_meets_only_packet_rules)
{
	Env e;
	Packet p;
	Flow f;

	CHECK(env_init(&e,
		       "alert tcp any any -> any any (content:\"abc\"; dsize:>0; sid:1;)\n"
		       "alert tcp any any -> any any (content:\"abc\"; flow:no_stream; sid:2;)\n"
		       "alert tcp-pkt any any -> any any (content:\"abc\"; sid:3;)\n"
		       "alert tcp any any -> any any (content:\"abc\"; sid:4;)\n"
		       "alert tcp any any -> any any (content:\"zzz\"; dsize:>0; sid:5;)\n",
		       MPM_AC) == 0);
	memset(&f, 0, sizeof(f));
	f.proto = IPPROTO_TCP;
	mk_tcp(&p, S("xxabcxx"), 0x18);
	p.flow = &f;
	p.flags |= PKT_HAS_FLOW | PKT_TOSERVER;
	p.stream_flags = STREAM_PKT_HAS_SESSION | STREAM_PKT_ESTABLISHED | STREAM_PKT_ADDED;
	CHECK_EQ(alerted(&e, &p, 1), 1);
	CHECK_EQ(alerted(&e, &p, 2), 1);
	CHECK_EQ(alerted(&e, &p, 3), 1);
	CHECK_EQ(alerted(&e, &p, 4), 0);
	CHECK_EQ(alerted(&e, &p, 5), 0);
	p.stream_flags = 0;
	CHECK_EQ(alerted(&e, &p, 4), 1);
	CHECK_EQ(alerted(&e, &p, 1), 1);
	detect_flow_free(&f);
	env_free(&e);
}

/* The precheck of always-inspected rules is a necessary condition: every
 * packet a rule matches (header and keywords) passes it, both halves
 * (precheck_pass, then precheck_header as pkt_always runs them). And it
 * does prune: the SYN-only rule is not worth inspecting on an ACK. */
TEST(always_precheck_never_skips_a_match)
{
	static const char rules[] =
		"alert tcp any any -> any 22 (flags:S,12; sid:1;)\n"
		"alert tcp any any -> any any (flags:SA; sid:2;)\n"
		"alert tcp any any -> any any (flags:+A; sid:3;)\n"
		"alert tcp any any -> any any (flags:*RSF; sid:4;)\n"
		"alert tcp any any -> any any (flags:!S; sid:5;)\n"
		"alert tcp any any -> any any (flags:A,CE; dsize:0; sid:6;)\n"
		"alert tcp any any -> any any (dsize:>0; sid:7;)\n"
		"alert tcp any any -> any any (dsize:<5; sid:8;)\n"
		"alert tcp any any -> any any (dsize:!0; sid:9;)\n"
		"alert tcp any any -> any any (flow:to_server; sid:10;)\n"
		"alert tcp any any -> any any (flow:to_client,established; sid:11;)\n"
		"alert tcp any 1024: -> any [80,443,8000:8080] (sid:12;)\n"
		"alert tcp any any <> any 443 (flags:S; sid:13;)\n"
		"alert tcp any any -> any !80 (sid:14;)\n"
		"alert ip any any -> any any (ip_proto:6; sid:15;)\n"
		"alert tcp any any <> any 179 (flow:established; flags:RSF*; sid:16;)\n"
		"alert tcp 10.0.0.2 any <> 10.0.0.1 [22,80] (sid:17;)\n"
		"alert tcp any any -> [10.0.0.7,10.0.0.9] any (sid:18;)\n"
		"alert tcp !10.0.0.0/8 any -> 10.0.0.2 any (sid:19;)\n"
		"alert tcp 10.0.0.1 any -> any [22,443] (flags:!R; sid:20;)\n"
		"alert tcp any [1024:8000,!1900] <> any !443 (flags:+A; sid:21;)\n";
	static const uint16_t ports[] = { 22, 80, 179, 443, 1023, 8080, 50000 };
	const int nports = (int)(sizeof(ports) / sizeof(ports[0]));
	static Flow fl;
	Env e;
	Packet p;
	DetectPkt pk = { .p = &p };
	uint32_t checked = 0, matched = 0, pruned = 0;

	CHECK_EQ(env_init(&e, rules, MPM_AC), 0);
	/* the keywords read the packet's context, as detect_packet sets it */
	e.dt->pkt = &pk;
	for (unsigned flags = 0; flags < 256; flags++)
		for (int pl = 0; pl < 2; pl++)
			for (int dir = 0; dir < 3; dir++)
				for (int pi = 0; pi < nports * nports * 2; pi++) {
					mk_tcp(&p, "abcdef", pl ? 6 : 0, (uint8_t)flags);
					p.dp = ports[pi % nports];
					p.sp = ports[pi / nports % nports];
					if (pi >= nports * nports) {
						Address a = p.src;

						p.src = p.dst;
						p.dst = a;
					}
					if (dir) {
						p.flow = &fl;
						p.flags |= dir == 1 ? PKT_TOSERVER : PKT_TOCLIENT;
					}
					for (uint32_t i = 0; i < e.de->nsigs; i++) {
						const DetectSig *ds = &e.de->sigs[i];
						SigPrecheck c;
						int pass, match;

						inspect_precheck_build(ds->s, &c);
						pass = precheck_pass(&c, precheck_packet_bits(&p), &p) &&
						       precheck_header(&c, ds, &p);
						pk.established = dir == 2;
						match = inspect_header(ds, &p) &&
							inspect_match_list(e.dt, ds->s, &p);
						checked++;
						matched += match;
						pruned += !pass;
						if (match && !pass) {
							printf("  sid %u flags %02x payload %d dir %d dp %u: "
							       "matches but the precheck skips it\n",
							       ds->s->sid, flags, pl, dir, p.dp);
							CHECK(0);
							goto out;
						}
					}
				}
	/* both sides of the property were exercised */
	CHECK(matched > 1000);
	CHECK(pruned > checked / 3);
	{
		/* flags:S,12 to port 22 on an ACK to port 22: skipped */
		SigPrecheck c;

		mk_tcp(&p, "", 0, 0x10);
		p.dp = 22;
		inspect_precheck_build(e.de->sigs[0].s, &c);
		CHECK_EQ(e.de->sigs[0].s->sid, 1);
		CHECK_EQ(precheck_pass(&c, precheck_packet_bits(&p), &p), 0);
		p.tcp_flags = 0x02;
		CHECK_EQ(precheck_pass(&c, precheck_packet_bits(&p), &p), 1);
		p.dp = 23;
		CHECK_EQ(precheck_pass(&c, precheck_packet_bits(&p), &p), 0);
	}
	{
		/* <> port 179 (ET's BGP reset rule): a RST between two other
		 * ports is skipped on its ports alone, one from port 179 passes
		 * with the sides swapped */
		const DetectSig *ds = &e.de->sigs[15];
		SigPrecheck c;

		CHECK_EQ(ds->s->sid, 16);
		inspect_precheck_build(ds->s, &c);
		CHECK_EQ(c.hdr, 0);
		mk_tcp(&p, "", 0, 0x14);
		p.sp = 40000;
		p.dp = 80;
		CHECK_EQ(precheck_pass(&c, precheck_packet_bits(&p), &p), 0);
		p.sp = 179;
		CHECK_EQ(precheck_pass(&c, precheck_packet_bits(&p), &p), 1);
		p.sp = 40000;
		p.dp = 179;
		CHECK_EQ(precheck_pass(&c, precheck_packet_bits(&p), &p), 1);
	}
	{
		/* addresses: the hulls pass, the header test does not */
		const DetectSig *ds = &e.de->sigs[17];
		SigPrecheck c;

		CHECK_EQ(ds->s->sid, 18);
		inspect_precheck_build(ds->s, &c);
		CHECK_EQ(c.hdr, 1);
		mk_tcp(&p, "", 0, 0x10);
		CHECK_EQ(precheck_pass(&c, precheck_packet_bits(&p), &p), 1);
		CHECK_EQ(precheck_header(&c, ds, &p), 0);
		p.dst.a.u32[0] = htonl(0x0a000009);
		CHECK_EQ(precheck_header(&c, ds, &p), 1);
	}
	{
		/* [22,443] to port 80: inside the hull, outside the list */
		const DetectSig *ds = &e.de->sigs[19];
		SigPrecheck c;

		CHECK_EQ(ds->s->sid, 20);
		inspect_precheck_build(ds->s, &c);
		mk_tcp(&p, "", 0, 0x10);
		CHECK_EQ(precheck_pass(&c, precheck_packet_bits(&p), &p), 1);
		CHECK_EQ(precheck_header(&c, ds, &p), 0);
		p.dp = 443;
		CHECK_EQ(precheck_header(&c, ds, &p), 1);
	}
out:
	env_free(&e);
}

/* The gates of a group's always list: a packet walks gate 0 and the gates
 * of its TCP flags (always_gates_walked, as detect_packet). Every rule the precheck passes lies in
 * a walked gate, every rule is in exactly one gate, and the flags:S rules
 * are not walked on an ACK. */
TEST(always_gates_hold_every_rule_a_packet_can_pass)
{
	static const char rules[] =
		"alert tcp any any -> any any (flags:S; sid:1;)\n"
		"alert tcp any any -> any any (flags:S,12; sid:2;)\n"
		"alert tcp any any -> any any (flags:SA; sid:3;)\n"
		"alert tcp any any -> any any (flags:+A; sid:4;)\n"
		"alert tcp any any -> any any (flags:*RSF; sid:5;)\n"
		"alert tcp any any -> any any (flags:!S; sid:6;)\n"
		"alert tcp any any -> any any (flags:FPU; sid:7;)\n"
		"alert tcp any any -> any any (flags:+CE; sid:8;)\n"
		"alert tcp any any -> any any (flags:R+; sid:9;)\n"
		"alert tcp any any -> any any (dsize:>0; sid:10;)\n"
		"alert tcp any any -> any any (flags:0; sid:11;)\n";
	Env e;
	Packet p;
	uint32_t groups = 0, skipped_on_ack = 0;

	CHECK_EQ(env_init(&e, rules, MPM_AC), 0);
	for (int d = 0; d < 2; d++)
		for (uint32_t k = 0; k < e.de->pg[PC_TCP][d].ng; k++) {
			const SigGroup *g = &e.de->pg[PC_TCP][d].g[k];

			if (!g->nalways)
				continue;
			groups++;
			CHECK_EQ(g->always_at[0], 0);
			CHECK_EQ(g->always_at[ALWAYS_GATES], g->nalways);
			for (uint32_t gate = 0; gate < ALWAYS_GATES; gate++)
				for (uint32_t i = g->always_at[gate]; i < g->always_at[gate + 1]; i++)
					CHECK_EQ(always_gate_of(&g->always[i]), gate);
			for (unsigned flags = 0; flags < 256; flags++) {
				uint32_t walked;

				mk_tcp(&p, "abc", 3, (uint8_t)flags);
				walked = always_gates_walked(&p);
				for (uint32_t gate = 0; gate < ALWAYS_GATES; gate++)
					for (uint32_t i = g->always_at[gate]; i < g->always_at[gate + 1]; i++) {
						const SigPrecheck *c = &g->always[i];

						if (precheck_pass(c, precheck_packet_bits(&p), &p))
							CHECK(walked & (1u << gate));
						if (flags == 0x10 && !(walked & (1u << gate)))
							skipped_on_ack++;
					}
			}
		}
	CHECK(groups > 0);
	/* sids 1, 2, 3, 7, 8 and 9 need a flag an ACK lacks (5 needs any
	 * one of three: no gate) */
	CHECK_EQ(skipped_on_ack, 6 * groups);
	env_free(&e);
}

/* Candidates spread over many bitmap words: a pass rule stops the walk,
 * and what it left unwalked must not leak into the next packet. */
TEST(pass_stops_walk_and_leaves_no_candidates_behind)
{
	static char rules[200 * 96];
	char pay[64];
	size_t off = 0;
	Env e;
	Packet p;
	const DetectAlert *a;
	uint32_t n;

	off += (size_t)snprintf(rules + off, sizeof(rules) - off,
				"pass tcp any any -> any any (content:\"PASSME\"; sid:1;)\n");
	for (int i = 0; i < 190; i++)
		off += (size_t)snprintf(rules + off, sizeof(rules) - off,
					"alert tcp any any -> any any (content:\"K%03dX\"; sid:%d;)\n",
					i, 100 + i);
	CHECK_EQ(env_init(&e, rules, MPM_AC), 0);
	CHECK(e.de->nsigs > 128);   /* more than two bitmap words */
	snprintf(pay, sizeof(pay), "K000X PASSME K100X K189X");
	mk_tcp(&p, pay, strlen(pay), 0x18);
	CHECK_EQ(detect_packet(e.dt, &p, &a), 0);
	snprintf(pay, sizeof(pay), "K150X");
	mk_tcp(&p, pay, strlen(pay), 0x18);
	p.pcap_cnt = 2;
	n = detect_packet(e.dt, &p, &a);
	CHECK_EQ(n, 1);
	if (n == 1)
		CHECK_EQ(a[0].s->sid, 250);
	snprintf(pay, sizeof(pay), "K000X K100X K189X");
	mk_tcp(&p, pay, strlen(pay), 0x18);
	p.pcap_cnt = 3;
	CHECK_EQ(detect_packet(e.dt, &p, &a), 3);
	env_free(&e);
}

/* Transaction rules are numbered within their protocol's class (the bits a
 * transaction's detection state holds): dcerpc and smb rules share one
 * class, as a dcerpc rule inspects the calls SMB carries; the numbers of
 * each class run from 0 in rule order. */
TEST(tx_rules_numbered_per_protocol_class)
{
	static const char rules[] =
		"alert http any any -> any any (http.uri; content:\"/a\"; sid:1;)\n"
		"alert dns any any -> any any (dns.query; content:\"ex\"; sid:2;)\n"
		"alert http any any -> any any (http.method; content:\"GET\"; sid:3;)\n"
		"alert dcerpc any any -> any any (dcerpc.stub_data; content:\"x\"; sid:4;)\n"
		"alert smb any any -> any any (smb.named_pipe; content:\"lsarpc\"; sid:5;)\n"
		"alert tls any any -> any any (tls.sni; content:\"e.com\"; sid:6;)\n"
		"alert dns any any -> any any (dns.query; content:\"q\"; sid:7;)\n"
		"alert tcp any any -> any any (content:\"pkt\"; sid:8;)\n";
	static const uint32_t want_hidx[] = { 0, 0, 1, 0, 1, 0, 1 };
	Env e;

	CHECK_EQ(env_init(&e, rules, MPM_AC), 0);
	CHECK_EQ(e.de->ntx_rules, 7);
	CHECK_EQ(e.de->ntx[ALPROTO_HTTP1], 2);
	CHECK_EQ(e.de->ntx[ALPROTO_DNS], 2);
	CHECK_EQ(e.de->ntx[ALPROTO_DCERPC], 2);
	CHECK_EQ(e.de->ntx[ALPROTO_SMB], 0);
	CHECK_EQ(e.de->ntx[ALPROTO_TLS], 1);
	CHECK_EQ(tx_class(ALPROTO_SMB), ALPROTO_DCERPC);
	CHECK_EQ(tx_class(ALPROTO_MAX + 3), ALPROTO_UNKNOWN);
	for (uint32_t i = 0; i < e.de->nsigs; i++) {
		const DetectSig *ds = &e.de->sigs[i];
		uint32_t sid = ds->s->sid;

		CHECK_EQ(ds->is_tx, sid != 8);
		if (sid >= 1 && sid <= 7)
			CHECK_EQ(ds->hidx, want_hidx[sid - 1]);
	}
	env_free(&e);
}

/* flow:established on a TCP session is the stream's state before the
 * packet (STREAM_PKT_WAS_ESTABLISHED): the packet that establishes the
 * session (the handshake's last ACK, a midstream pickup) does not meet
 * it, the next ones do, whatever detection saw before. */
TEST(established_is_the_streams_state_before_the_packet)
{
	Env e;
	Packet p;
	Flow f;

	CHECK_EQ(env_init(&e, "alert tcp any any -> any any (flow:established; sid:1;)\n"
			  "alert tcp any any -> any any (flow:not_established; sid:2;)\n",
			  MPM_AC), 0);
	memset(&f, 0, sizeof(f));
	f.proto = IPPROTO_TCP;
	mk_tcp(&p, S(""), 0x10);
	p.flow = &f;
	p.flags |= PKT_HAS_FLOW | PKT_TOSERVER;
	p.stream_flags = STREAM_PKT_HAS_SESSION | STREAM_PKT_ESTABLISHED;
	CHECK_EQ(alerted(&e, &p, 1), 0);
	CHECK_EQ(alerted(&e, &p, 2), 1);
	p.stream_flags |= STREAM_PKT_WAS_ESTABLISHED;
	CHECK_EQ(alerted(&e, &p, 1), 1);
	CHECK_EQ(alerted(&e, &p, 2), 0);
	/* a session not yet established: neither before nor after */
	p.stream_flags = STREAM_PKT_HAS_SESSION;
	CHECK_EQ(alerted(&e, &p, 1), 0);
	detect_flow_free(&f);
	/* the first packet detection sees of an established session (a
	 * rule reload from no rules, a packet left out): the stream says */
	memset(&f, 0, sizeof(f));
	f.proto = IPPROTO_TCP;
	p.stream_flags = STREAM_PKT_HAS_SESSION | STREAM_PKT_ESTABLISHED |
			 STREAM_PKT_WAS_ESTABLISHED;
	CHECK_EQ(alerted(&e, &p, 1), 1);
	detect_flow_free(&f);
	env_free(&e);
}

/* Without ac-cuda every packet's ids come from the CPU matcher, and the
 * per-packet context does not outlive the call. */
TEST(cpu_engine_prefilters_on_the_cpu_and_drops_the_context)
{
	Env e;
	Packet p;

	CHECK_EQ(env_init(&e, "alert tcp any any -> any any (content:\"abc\"; sid:1;)\n",
			  MPM_AC), 0);
	mk_tcp(&p, S("xabcx"), 0x18);
	CHECK(prefilter_select(e.dt, &p) == &prefilter_cpu);
	CHECK_EQ(alerted(&e, &p, 1), 1);
	CHECK(e.dt->pkt == NULL);
	env_free(&e);
}
