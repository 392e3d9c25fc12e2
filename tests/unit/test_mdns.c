/* mDNS: its registry entry on the DNS parser (mdns-proto.c), the eve
 * object (output/mdns-json.h) and the keyword buffers (detect/mdns-kw.c). */
#include "config.h"
#include "test.h"

#include <jansson.h>

#include "app-layer/app-layer.h"
#include "app-layer/mdns.h"
#include "detect/buffers.h"
#include "detect/detect-parse.h"
#include "output/mdns-json.h"
#include "app-test-util.h"

/* A response (QR, AA) with one PTR answer _x._tcp.local -> a._x._tcp.local
 * and one TXT additional "k=v", built by hand. */
static size_t response(uint8_t *b)
{
	static const uint8_t msg[] = {
		0x00, 0x00, 0x84, 0x00, 0, 0, 0, 1, 0, 0, 0, 1,
		/* answer: _x._tcp.local PTR a._x._tcp.local */
		2, '_', 'x', 4, '_', 't', 'c', 'p', 5, 'l', 'o', 'c', 'a', 'l', 0,
		0, 12, 0, 1, 0, 0, 0, 10, 0, 4, 1, 'a', 0xc0, 12,
		/* additional: a._x._tcp.local TXT "k=v" */
		0xc0, 37, 0, 16, 0, 1, 0, 0, 0, 10, 0, 4, 3, 'k', '=', 'v',
	};

	memcpy(b, msg, sizeof(msg));
	return sizeof(msg);
}

static int is(const uint8_t *d, uint32_t len, const char *want)
{
	return len == strlen(want) && memcmp(d, want, len) == 0;
}

TEST(mdns_response_to_the_group_is_mdns_by_qr)
{
	AppTestCtx c;
	uint8_t b[256];
	size_t n = response(b);
	void *tx;
	const struct dns_msg *m;
	const uint8_t *d;
	uint32_t len;
	int dir = -1;
	json_t *o;

	app_test_init(&c, 17, "224.0.0.251", 5353, 5353);
	/* the flow's first datagram is a response, sent "to the server" */
	CHECK_EQ(app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, b, (uint32_t)n, 0), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_MDNS);
	CHECK_STREQ(app_proto_name(ALPROTO_MDNS), "mdns");
	tx = app_layer_tx_get(&c.f, 0);
	m = mdns_tx_msg(tx, &dir);
	CHECK(m && m->qr && dir == APP_DIR_TOSERVER);
	CHECK(!dns_msg_has_event(m, DNS_EV_NOT_A_REQUEST));
	CHECK_EQ(mdns_buffer_get(detect_buffer(BUF_MDNS_ANSWERS_RRNAME), tx, APP_DIR_TOSERVER, 0, &d, &len), 0);
	CHECK(is(d, len, "_x._tcp.local"));
	CHECK_EQ(mdns_buffer_get(detect_buffer(BUF_MDNS_ANSWERS_RRNAME), tx, APP_DIR_TOCLIENT, 0, &d, &len), -1);
	/* response.rrname: owner, PTR target, then the additional's owner */
	CHECK_EQ(mdns_buffer_get(detect_buffer(BUF_MDNS_RESPONSE_RRNAME), tx, APP_DIR_TOSERVER, 1, &d, &len), 0);
	CHECK(is(d, len, "a._x._tcp.local"));
	CHECK_EQ(mdns_buffer_get(detect_buffer(BUF_MDNS_RESPONSE_RRNAME), tx, APP_DIR_TOSERVER, 2, &d, &len), 0);
	CHECK(is(d, len, "a._x._tcp.local"));
	CHECK_EQ(mdns_buffer_get(detect_buffer(BUF_MDNS_RESPONSE_RRNAME), tx, APP_DIR_TOSERVER, 3, &d, &len), -1);
	CHECK_EQ(mdns_buffer_get(detect_buffer(BUF_MDNS_QUERIES_RRNAME), tx, APP_DIR_TOSERVER, 0, &d, &len), -1);
	o = mdns_json_object(m);
	CHECK_STREQ(json_string_value(json_object_get(o, "type")), "response");
	CHECK_STREQ(json_string_value(json_array_get(json_object_get(o, "flags"), 0)), "aa");
	CHECK_STREQ(json_string_value(json_object_get(json_array_get(json_object_get(o, "answers"), 0), "ptr")),
		    "a._x._tcp.local");
	CHECK_STREQ(json_string_value(json_array_get(json_object_get(json_array_get(
			    json_object_get(o, "additionals"), 0), "txt"), 0)), "k=v");
	json_decref(o);
	app_layer_flow_free(&c.f);
	app_layer_thread_free(c.at);
}

TEST(mdns_only_on_its_port)
{
	AppTestCtx c;
	uint8_t b[256];
	size_t n = response(b);

	app_test_init(&c, 17, "10.0.0.2", 40000, 5354);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, b, (uint32_t)n, 0);
	CHECK(c.f.app_proto != ALPROTO_MDNS);
	app_layer_flow_free(&c.f);
	app_layer_thread_free(c.at);
}

TEST(mdns_rule_keywords_load)
{
	int l, f, s, r;

	r = test_load_rules(
		"alert mdns any any -> any any (mdns.queries.rrname; content:\"_apple\"; sid:1;)\n"
		"alert udp any any -> any any (mdns.answers.rrname; content:\"Mac\"; sid:2;)\n"
		"alert mdns any any -> any any (mdns.response.rrname; content:\"x\"; sid:3;)\n"
		"alert mdns any any -> any any (mdns.authorities.rrname; content:\"x\"; sid:4;)\n"
		"alert mdns any any -> any any (mdns.additionals.rrname; content:\"x\"; sid:5;)\n",
		&l, &f, &s);
	CHECK_EQ(r, 0);
	CHECK_EQ(l, 5);
	test_load_rules("alert dns any any -> any any (mdns.queries.rrname; content:\"x\"; sid:1;)\n",
			&l, &f, &s);
	CHECK_EQ(f, 1);
}
