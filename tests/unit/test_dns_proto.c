/* DNS's registry entry (src/app-layer/dns-proto.c) through the generic app
 * layer: detection on the detection-ports, UDP datagrams and TCP framing,
 * per-message transactions, events, configuration. */
#include "test.h"
#include "app-layer/app-layer.h"
#include "app-layer/dns-parse.h"
#include "conf/conf.h"
#include "app-test-util.h"
#include "flow/flow.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>



typedef AppTestCtx Ctx;

static void ctx_init(Ctx *c, uint8_t proto, uint16_t sp, uint16_t dp)
{
	app_test_init(c, proto, "10.0.0.53", sp, dp);
}

static void ctx_free(Ctx *c)
{
	app_test_free(c);
}

static int feed(Ctx *c, int dir, const uint8_t *p, size_t n)
{
	return app_layer_handle_data(c->at, &c->f, dir, p, (uint32_t)n, 0);
}

#define TS APP_DIR_TOSERVER
#define TC APP_DIR_TOCLIENT

/* www.example.com A, id 0x1111, RD */
static const uint8_t query[] = {
	0x11, 0x11, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	3, 'w', 'w', 'w', 7, 'e', 'x', 'a', 'm', 'p', 'l', 'e', 3, 'c', 'o', 'm', 0,
	0x00, 0x01, 0x00, 0x01,
};

/* its answer: 93.184.216.34, ttl 300 */
static const uint8_t answer[] = {
	0x11, 0x11, 0x81, 0x80, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
	3, 'w', 'w', 'w', 7, 'e', 'x', 'a', 'm', 'p', 'l', 'e', 3, 'c', 'o', 'm', 0,
	0x00, 0x01, 0x00, 0x01,
	0xc0, 0x0c, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x01, 0x2c, 0x00, 0x04, 93, 184, 216, 34,
};

TEST(dns_udp_query_on_53_is_dns_with_one_way_tx)
{
	Ctx c;
	void *tx;

	ctx_init(&c, IPPROTO_UDP, 40000, 53);
	CHECK_EQ(feed(&c, TS, query, sizeof(query)), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_DNS);
	CHECK_STREQ(app_proto_name(c.f.app_proto), "dns");
	CHECK_EQ(app_layer_tx_count(&c.f), 1);
	tx = app_layer_tx_get(&c.f, 0);
	CHECK(tx != NULL);
	/* a message is complete on arrival, both ways */
	CHECK_EQ(app_layer_tx_progress(&c.f, tx, TS), app_proto_progress_complete(ALPROTO_DNS));
	CHECK_EQ(app_layer_tx_progress(&c.f, tx, TC), app_proto_progress_complete(ALPROTO_DNS));
	/* Suricata 8's per-message transactions exist in one direction */
	CHECK(app_layer_tx_flags(&c.f, tx) & APP_TX_ONLY_TS);
	CHECK(app_layer_tx_flags(&c.f, tx) & APP_TX_DETECT_TC);
	CHECK_EQ(feed(&c, TC, answer, sizeof(answer)), 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 2);
	tx = app_layer_tx_get(&c.f, 1);
	CHECK(tx != NULL);
	CHECK(app_layer_tx_flags(&c.f, tx) & APP_TX_ONLY_TC);
	CHECK_EQ(((struct dns_tx *)tx)->response->nrrs[DNS_SEC_ANSWER], 1);
	ctx_free(&c);
}

TEST(dns_udp_off_the_detection_ports_is_not_dns)
{
	Ctx c;

	ctx_init(&c, IPPROTO_UDP, 40000, 5300);
	feed(&c, TS, query, sizeof(query));
	feed(&c, TC, answer, sizeof(answer));
	CHECK_EQ(c.f.app_proto, ALPROTO_FAILED);
	ctx_free(&c);
}

TEST(dns_udp_source_port_53_is_probed_too)
{
	Ctx c;

	/* Suricata's probing parsers look at dp, then sp */
	ctx_init(&c, IPPROTO_UDP, 53, 5300);
	CHECK_EQ(feed(&c, TS, query, sizeof(query)), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_DNS);
	ctx_free(&c);
}

/* A response on a UDP flow's first datagram is DNS sent the other way:
 * the app layer asks for the flow to be turned round (app_layer_feed_udp
 * does it, as Suricata swaps flow and packet), then parses it as the
 * response it is; the query that follows is the client's. */
TEST(dns_udp_response_first_reverses_the_flow_and_is_dns)
{
	Ctx c;

	ctx_init(&c, IPPROTO_UDP, 53, 40000);
	CHECK_EQ(feed(&c, TS, answer, sizeof(answer)), APP_REVERSE);
	CHECK_EQ(c.f.app_proto, ALPROTO_UNKNOWN);
	flow_reverse(&c.f, NULL);
	CHECK_EQ(c.f.sp, 40000);
	CHECK_EQ(c.f.dp, 53);
	CHECK_EQ(feed(&c, TC, answer, sizeof(answer)), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_DNS);
	CHECK_EQ(feed(&c, TS, query, sizeof(query)), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_DNS);
	CHECK_EQ(app_layer_tx_count(&c.f), 2);
	ctx_free(&c);

	/* off the detection ports a response first is nothing: failed (5354:
	 * 5353 is mDNS's, which takes a response sent either way) */
	ctx_init(&c, IPPROTO_UDP, 5354, 40000);
	feed(&c, TS, answer, sizeof(answer));
	CHECK_EQ(c.f.app_proto, ALPROTO_FAILED);
	ctx_free(&c);
}

/* Suricata 8 labels a datagram flow "failed" when its first datagram names
 * no protocol; the other side's first datagram may still name one, and a
 * later datagram of the first side changes nothing. */
TEST(udp_first_datagram_unknown_is_failed_and_the_other_side_may_still_detect)
{
	static const uint8_t junk[] = "not a protocol we know";
	Ctx c;

	ctx_init(&c, IPPROTO_UDP, 40000, 53);
	CHECK_EQ(feed(&c, TS, junk, sizeof(junk)), -1);
	CHECK_EQ(c.f.app_proto, ALPROTO_FAILED);
	CHECK_EQ(feed(&c, TS, query, sizeof(query)), -1);   /* that side is done */
	CHECK_EQ(c.f.app_proto, ALPROTO_FAILED);
	CHECK_EQ(feed(&c, TC, answer, sizeof(answer)), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_DNS);
	CHECK_EQ(app_layer_tx_count(&c.f), 1);
	ctx_free(&c);

	/* a lone datagram nobody answers (suricata-verify dns/v2/bug-1158) */
	ctx_init(&c, IPPROTO_UDP, 137, 137);
	feed(&c, TS, junk, sizeof(junk));
	CHECK_EQ(c.f.app_proto, ALPROTO_FAILED);
	ctx_free(&c);
}

TEST(dns_udp_counts_past_the_message_are_not_dns)
{
	uint8_t q[sizeof(query)];
	Ctx c;

	/* 207 additional records announced in a 33-byte message (the probe's
	 * two bytes per record) */
	memcpy(q, query, sizeof(q));
	q[11] = 0xcf;
	ctx_init(&c, IPPROTO_UDP, 40000, 53);
	feed(&c, TS, q, sizeof(q));
	CHECK(c.f.app_proto != ALPROTO_DNS);
	ctx_free(&c);
}

TEST(dns_udp_unassigned_opcode_is_dns_with_its_event)
{
	uint8_t q[sizeof(query)];
	Ctx c;
	void *tx;

	memcpy(q, query, sizeof(q));
	q[2] = 0x49; /* opcode 9, RD */
	ctx_init(&c, IPPROTO_UDP, 40000, 53);
	CHECK_EQ(feed(&c, TS, q, sizeof(q)), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_DNS);
	tx = app_layer_tx_get(&c.f, 0);
	CHECK(tx != NULL);
	CHECK(app_layer_tx_has_event(&c.f, tx, app_layer_event_lookup(ALPROTO_DNS, "invalid_opcode")));
	CHECK(!app_layer_tx_has_event(&c.f, tx, app_layer_event_lookup(ALPROTO_DNS, "z_flag_set")));
	ctx_free(&c);
}

TEST(dns_tcp_message_split_across_segments)
{
	uint8_t s[2 + sizeof(query)];
	Ctx c;

	s[0] = 0;
	s[1] = sizeof(query);
	memcpy(s + 2, query, sizeof(query));
	ctx_init(&c, IPPROTO_TCP, 40000, 53);
	/* the length alone: detection needs the header too */
	CHECK_EQ(feed(&c, TS, s, 2), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_UNKNOWN);
	CHECK_EQ(feed(&c, TS, s + 2, 10), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_UNKNOWN);
	/* the header complete: DNS, the message still partial */
	CHECK_EQ(feed(&c, TS, s + 12, 2), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_DNS);
	CHECK_EQ(app_layer_tx_count(&c.f), 0);
	CHECK_EQ(feed(&c, TS, s + 14, sizeof(s) - 14), 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 1);
	ctx_free(&c);
}

TEST(dns_tcp_gap_drops_the_partial_message)
{
	uint8_t s[2 + sizeof(query)];
	Ctx c;

	s[0] = 0;
	s[1] = sizeof(query);
	memcpy(s + 2, query, sizeof(query));
	ctx_init(&c, IPPROTO_TCP, 40000, 53);
	feed(&c, TS, s, 20);
	CHECK_EQ(c.f.app_proto, ALPROTO_DNS);
	app_layer_handle_data(c.at, &c.f, TS, NULL, 5, APP_GAP);
	/* a whole message after the gap parses on its own */
	feed(&c, TS, s, sizeof(s));
	CHECK_EQ(app_layer_tx_count(&c.f), 1);
	ctx_free(&c);
}

TEST(dns_config_top_level_detection_ports_win)
{
	AppLayerConfig cfg;

	CHECK_EQ(conf_set("app-layer.protocols.dns.udp.detection-ports.dp", "53"), 0);
	CHECK_EQ(conf_set("app-layer.protocols.dns.detection-ports.dp", "5353"), 0);
	CHECK_EQ(app_layer_config_load(&cfg), 0);
	CHECK_EQ(cfg.dns_nports[APP_DNS_UDP], 1);
	CHECK_EQ(cfg.dns_ports[APP_DNS_UDP][0], 5353);
	CHECK_EQ(cfg.dns_ports[APP_DNS_TCP][0], 5353);
	conf_deinit();
	CHECK_EQ(conf_set("app-layer.protocols.dns.tcp.enabled", "no"), 0);
	CHECK_EQ(conf_set("app-layer.protocols.dns.udp.detection-ports.dp", "[53, 5300]"), 0);
	CHECK_EQ(app_layer_config_load(&cfg), 0);
	CHECK_EQ(cfg.dns_enabled[APP_DNS_TCP], 0);
	CHECK_EQ(cfg.dns_enabled[APP_DNS_UDP], 1);
	CHECK_EQ(cfg.dns_nports[APP_DNS_UDP], 2);
	CHECK_EQ(cfg.dns_ports[APP_DNS_UDP][1], 5300);
	conf_deinit();
}

TEST(dns_rule_protocol_and_events)
{
	CHECK_EQ(app_proto_by_name("dns"), ALPROTO_DNS);
	CHECK_EQ(app_proto_ipprotos(ALPROTO_DNS), APP_IPPROTO_TCP | APP_IPPROTO_UDP);
	CHECK(app_proto_has_events(ALPROTO_DNS));
	CHECK(app_layer_event_lookup(ALPROTO_DNS, "malformed_data") >= 0);
	CHECK_EQ(app_layer_event_lookup(ALPROTO_DNS, "no_such_event"), -1);
}
