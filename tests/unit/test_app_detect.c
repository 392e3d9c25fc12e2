/* Protocol detection per direction (Suricata 8's alproto_ts / alproto_tc):
 * each side is detected on its own first bytes, also after the other side
 * decided the flow's protocol; the flow keeps the first decision. */
#include "test.h"
#include "app-test-util.h"

#include <stdlib.h>

#define TS APP_DIR_TOSERVER
#define TC APP_DIR_TOCLIENT

/* suricata-verify dcerpc-request-http-response: a DCERPC request ... */
static const uint8_t dce_req[] = {
	0x05, 0x00, 0x00, 0x03, 0x10, 0x00, 0x00, 0x00, 0x18, 0x00, 0x00, 0x00,
	0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0b, 0x00, 0x09, 0x00, 0x45, 0x00,
};
/* ... answered by an HTTP response */
static const char http_resp[] = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
static const char http_req[] = "GET / HTTP/1.1\r\nHost: a\r\n\r\n";

static int feed(AppTestCtx *c, int dir, const void *buf, size_t len, int flags)
{
	return app_layer_handle_data(c->at, &c->f, dir, buf, (uint32_t)len, flags);
}

TEST(second_side_other_protocol_keeps_flow_protocol)
{
	AppTestCtx c;

	app_test_init(&c, IPPROTO_TCP, "10.0.0.2", 12345, 8080);
	feed(&c, TS, dce_req, sizeof(dce_req), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_DCERPC);
	CHECK_EQ(c.f.app_proto_ts, ALPROTO_DCERPC);
	CHECK_EQ(c.f.app_proto_tc, ALPROTO_UNKNOWN);
	feed(&c, TC, http_resp, sizeof(http_resp) - 1, 0);
	/* the parser had the request: the flow stays DCERPC */
	CHECK_EQ(c.f.app_proto, ALPROTO_DCERPC);
	CHECK_EQ(c.f.app_proto_tc, ALPROTO_HTTP1);
	app_test_free(&c);
}

TEST(tls_client_smtp_banner_on_465)
{
	/* suricata-verify smtp-tls-protodetect: the client starts TLS at once,
	 * the server answers with an SMTP banner */
	static const uint8_t hello[] = {
		0x16, 0x03, 0x01, 0x00, 0xab, 0x01, 0x00, 0x00, 0xa7, 0x03, 0x03, 0xc8,
		0x38, 0x79, 0x82, 0x2d, 0x2d, 0x37, 0xc1, 0xa2, 0x63, 0x5d, 0xdb, 0xe1,
		0x5f, 0xf0, 0x2e, 0xf9, 0x74, 0xe0, 0xb6, 0x61, 0x4d, 0x25, 0x1a, 0x6f,
	};
	static const char banner[] = "220 poczta.home-whs.pl ESMTP\r\n";
	AppTestCtx c;

	app_test_init(&c, IPPROTO_TCP, "10.0.0.2", 62353, 465);
	feed(&c, TS, hello, sizeof(hello), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_TLS);
	feed(&c, TC, banner, sizeof(banner) - 1, 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_TLS);
	CHECK_EQ(c.f.app_proto_ts, ALPROTO_TLS);
	CHECK_EQ(c.f.app_proto_tc, ALPROTO_SMTP);
	app_test_free(&c);
}

/* Each direction's detection is told once, to the first packet of that
 * direction from the one that finished it on (app-layer-protocol's
 * prefilter form, Suricata's PKT_PROTO_DETECT_TS/TC_DONE). */
TEST(detect_done_told_once_per_direction)
{
	AppTestCtx c;

	app_test_init(&c, IPPROTO_TCP, "10.0.0.2", 40000, 80);
	CHECK_EQ(app_layer_take_detect_done(&c.f, TS), 0);
	feed(&c, TS, http_req, sizeof(http_req) - 1, 0);
	CHECK_EQ(app_layer_take_detect_done(&c.f, TC), 0);
	CHECK_EQ(app_layer_take_detect_done(&c.f, TS), 1);
	CHECK_EQ(app_layer_take_detect_done(&c.f, TS), 0);
	feed(&c, TC, http_resp, sizeof(http_resp) - 1, 0);
	CHECK_EQ(app_layer_take_detect_done(&c.f, TC), 1);
	CHECK_EQ(app_layer_take_detect_done(&c.f, TC), 0);
	app_test_free(&c);
}

TEST(both_sides_agree)
{
	AppTestCtx c;

	app_test_init(&c, IPPROTO_TCP, "10.0.0.2", 40000, 80);
	feed(&c, TS, http_req, sizeof(http_req) - 1, 0);
	feed(&c, TC, http_resp, sizeof(http_resp) - 1, 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_HTTP1);
	CHECK_EQ(c.f.app_proto_ts, ALPROTO_HTTP1);
	CHECK_EQ(c.f.app_proto_tc, ALPROTO_HTTP1);
	app_test_free(&c);
}

/* a response side that names nothing: "failed" (Suricata: detected in one
 * direction only), and its bytes still reach the flow's parser */
TEST(unrecognised_second_side_is_failed)
{
	static const char junk[] = "xyzzy plugh this is not any protocol at all\r\n";
	AppTestCtx c;

	app_test_init(&c, IPPROTO_TCP, "10.0.0.2", 40000, 80);
	feed(&c, TS, http_req, sizeof(http_req) - 1, 0);
	feed(&c, TC, junk, sizeof(junk) - 1, 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_HTTP1);
	CHECK_EQ(c.f.app_proto_tc, ALPROTO_FAILED);
	app_test_free(&c);
}

/* a first side that said no before the other named the protocol */
TEST(first_side_no_then_other_decides)
{
	static const char junk[] = "xyzzy plugh this is not any protocol at all\r\n";
	AppTestCtx c;

	app_test_init(&c, IPPROTO_TCP, "10.0.0.2", 40000, 8080);
	feed(&c, TC, junk, sizeof(junk) - 1, 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_UNKNOWN);
	CHECK_EQ(c.f.app_proto_tc, ALPROTO_UNKNOWN);
	feed(&c, TS, http_req, sizeof(http_req) - 1, 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_HTTP1);
	CHECK_EQ(c.f.app_proto_ts, ALPROTO_HTTP1);
	CHECK_EQ(c.f.app_proto_tc, ALPROTO_FAILED);
	app_test_free(&c);
}

/* a few bytes, then the end: not enough to say no, the side stays unknown;
 * bytes split across calls are detected together */
TEST(short_side_stays_unknown_split_side_detects)
{
	AppTestCtx c;

	app_test_init(&c, IPPROTO_TCP, "10.0.0.2", 40000, 80);
	feed(&c, TS, http_req, sizeof(http_req) - 1, 0);
	feed(&c, TC, "\r\n", 2, 0);
	CHECK_EQ(c.f.app_proto_tc, ALPROTO_UNKNOWN);
	feed(&c, TC, NULL, 0, APP_EOF);
	CHECK_EQ(c.f.app_proto_tc, ALPROTO_UNKNOWN);
	app_test_free(&c);

	app_test_init(&c, IPPROTO_TCP, "10.0.0.2", 40000, 8080);
	feed(&c, TS, dce_req, sizeof(dce_req), 0);
	feed(&c, TC, "HTT", 3, 0);
	CHECK_EQ(c.f.app_proto_tc, ALPROTO_UNKNOWN);
	feed(&c, TC, http_resp + 3, sizeof(http_resp) - 4, 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_DCERPC);
	CHECK_EQ(c.f.app_proto_tc, ALPROTO_HTTP1);
	app_test_free(&c);
}

/* a gap before the side decided: unknown, not failed (Suricata) */
TEST(gap_leaves_side_unknown)
{
	AppTestCtx c;

	app_test_init(&c, IPPROTO_TCP, "10.0.0.2", 40000, 80);
	feed(&c, TS, http_req, sizeof(http_req) - 1, 0);
	feed(&c, TC, NULL, 100, APP_GAP);
	feed(&c, TC, http_resp, sizeof(http_resp) - 1, 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_HTTP1);
	CHECK_EQ(c.f.app_proto_tc, ALPROTO_UNKNOWN);
	app_test_free(&c);
}

/* UDP: a first datagram that names nothing is "failed", the answer that
 * names DNS decides the flow */
TEST(udp_failed_first_datagram_then_dns)
{
	static const uint8_t junk[] = { 0xde, 0xad, 0xbe, 0xef, 0x00 };
	static const uint8_t answer[] = {
		0x12, 0x34, 0x81, 0x80, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x01, 'a', 0x00, 0x00, 0x01, 0x00, 0x01,
	};
	AppTestCtx c;

	app_test_init(&c, IPPROTO_UDP, "10.0.0.2", 40000, 53);
	feed(&c, TS, junk, sizeof(junk), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_FAILED);
	CHECK_EQ(c.f.app_proto_ts, ALPROTO_FAILED);
	feed(&c, TC, answer, sizeof(answer), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_DNS);
	CHECK_EQ(c.f.app_proto_tc, ALPROTO_DNS);
	CHECK_EQ(c.f.app_proto_ts, ALPROTO_FAILED);
	app_test_free(&c);
}
