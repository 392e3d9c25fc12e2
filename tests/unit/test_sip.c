/* SIP: the message parser (app-layer/sip-parse.h), its registry entry
 * through the generic app layer (sip-proto.c: detection, per-message
 * transactions on UDP and TCP), the eve object (output/sip-json.h) and the
 * keywords' buffers (detect/sip-kw.c). */
#include "config.h"
#include "test.h"

#include <stdlib.h>

#include <jansson.h>

#include "app-layer/app-layer.h"
#include "app-layer/sip.h"
#include "detect/buffers.h"
#include "detect/detect-parse.h"
#include "output/sip-json.h"
#include "app-test-util.h"

#define REQ_HEAD                                                                        \
	"INVITE sip:97239287044@voip.brujula.net SIP/2.0\r\n"                               \
	"v: SIP/2.0/UDP 192.168.1.2:5060;branch=z9hG4bK1\r\n"                             \
	"f: \"arik\" <sip:816666@voip.brujula.net>;tag=6433ef9\r\n"                       \
	"t: <sip:97239287044@voip.brujula.net>\r\n"                                       \
	"To : <sip:12345@voip.brujula.net>\r\n"                                           \
	"Call-ID: 105090259-446faf7a@192.168.1.2\r\n"                                     \
	"User-Agent: Nero SIPPS\r\n"                                                      \
	"c: application/sdp\r\n"

#define SDP_BODY                                                                        \
	"v=0\r\n"                                                                           \
	"o=SIPPS 105015165 105015162 IN IP4 192.168.1.2\r\n"                              \
	"s=SIP call\r\n"                                                                    \
	"c=IN IP4 192.168.1.2\r\n"                                                          \
	"b=AS:64\r\n"                                                                       \
	"t=0 0\r\n"                                                                         \
	"r=604800 3600 0 90000\r\n"                                                         \
	"a=sendrecv\r\n"                                                                    \
	"m=audio 30000 RTP/AVP 0 8\r\n"                                                     \
	"a=rtpmap:0 pcmu/8000\r\n"                                                          \
	"a=rtpmap:8 pcma/8000\r\n"                                                          \
	"m=video 30002 RTP/AVP 31\r\n"                                                      \
	"c=IN IP4 192.168.1.3\r\n"

static char *invite(size_t *len)
{
	static char buf[4096];
	int n = snprintf(buf, sizeof(buf), REQ_HEAD "l: %zu\r\n\r\n" SDP_BODY,
			 strlen(SDP_BODY));

	*len = (size_t)n;
	return buf;
}

static const char RESP[] = "SIP/2.0 401 Unauthorized\r\n"
			   "Call-ID: 5782@x\r\n"
			   "From: <sip:voi18063@sip.cybercity.dk>;tag=903df0a\r\n"
			   "Content-Length: 0\r\n\r\n";

static int span_is(const SipMsg *m, SipSpan s, const char *want)
{
	return s.len == strlen(want) && memcmp(sip_span_ptr(m, s), want, s.len) == 0;
}

TEST(sip_request_lines_headers_compact_forms_and_sdp)
{
	size_t n;
	char *p = invite(&n);
	SipMsg *m;
	uint32_t used;
	const SipHeader *h;
	const SdpLine *l;

	CHECK_EQ(sip_msg_parse((const uint8_t *)p, (uint32_t)n, 1, &m, &used), SIP_OK);
	CHECK_EQ(used, n);
	CHECK(m->is_request);
	CHECK(span_is(m, m->method, "INVITE"));
	CHECK(span_is(m, m->uri, "sip:97239287044@voip.brujula.net"));
	CHECK(span_is(m, m->version, "SIP/2.0"));
	CHECK(span_is(m, m->line, "INVITE sip:97239287044@voip.brujula.net SIP/2.0"));
	/* "t:" and "To :" are both To, in order */
	h = sip_msg_header(m, SIP_H_TO, 0);
	CHECK(h && span_is(m, h->value, "<sip:97239287044@voip.brujula.net>"));
	h = sip_msg_header(m, SIP_H_TO, 1);
	CHECK(h && span_is(m, h->value, "<sip:12345@voip.brujula.net>"));
	CHECK(!sip_msg_header(m, SIP_H_TO, 2));
	h = sip_msg_header(m, SIP_H_CONTENT_TYPE, 0);
	CHECK(h && span_is(m, h->value, "application/sdp"));
	CHECK(sip_msg_header(m, SIP_H_VIA, 0) && sip_msg_header(m, SIP_H_FROM, 0));
	CHECK(sip_msg_header(m, SIP_H_USER_AGENT, 0));
	CHECK_EQ(m->body.len, strlen(SDP_BODY));
	CHECK(m->has_sdp);
	CHECK_EQ(m->sdp_nmedia, 2);
	l = sdp_line(m, 'o', -1, 0);
	CHECK(l && span_is(m, l->value, "SIPPS 105015165 105015162 IN IP4 192.168.1.2"));
	/* session-level a= only; media ones belong to their description */
	CHECK(sdp_line(m, 'a', -1, 0) && !sdp_line(m, 'a', -1, 1));
	CHECK(sdp_line(m, 'a', 0, 1) && !sdp_line(m, 'a', 1, 0));
	l = sdp_line(m, 'c', 1, 0);
	CHECK(l && span_is(m, l->value, "IN IP4 192.168.1.3"));
	sip_msg_free(m);
}

TEST(sip_response_and_stream_needs_whole_body)
{
	size_t n;
	char *p = invite(&n);
	SipMsg *m;
	uint32_t used;

	CHECK_EQ(sip_msg_parse((const uint8_t *)RESP, sizeof(RESP) - 1, 1, &m, &used), SIP_OK);
	CHECK(!m->is_request);
	CHECK(span_is(m, m->code, "401"));
	CHECK(span_is(m, m->reason, "Unauthorized"));
	CHECK(span_is(m, m->line, "SIP/2.0 401 Unauthorized"));
	CHECK(!m->has_sdp);
	/* the frames' extents: the line with its CRLF, the header lines
	 * without the blank line */
	CHECK_EQ(m->line_end, 26);
	CHECK_EQ(m->headers_end, sizeof(RESP) - 1 - 2);
	CHECK_EQ(m->head_len, sizeof(RESP) - 1);
	sip_msg_free(m);
	/* on a stream every cut short of the body is incomplete, never an error */
	for (size_t k = 0; k < n; k++)
		CHECK_EQ(sip_msg_parse((const uint8_t *)p, (uint32_t)k, 1, &m, &used), SIP_MORE);
	/* a datagram's body is what it holds */
	CHECK_EQ(sip_msg_parse((const uint8_t *)p, (uint32_t)n - 10, 0, &m, &used), SIP_OK);
	CHECK_EQ(m->body.len, strlen(SDP_BODY) - 10);
	sip_msg_free(m);
}

TEST(sip_invalid_messages)
{
	SipMsg *m;
	uint32_t used;
	static const char *const bad[] = {
		"NOTIFY * HTTP/1.1\r\nHost: x\r\n\r\n",
		"INVITE sip:x SIP/2.0\r\nno colon here\r\n\r\n",
		"INVITE sip:x SIP/2.0\r\nContent-Length: 12x\r\n\r\n",
		"SIP/2.0 20 OK\r\n\r\n",
		"\x01\x02\x03\r\n\r\n",
		"INVITE  SIP/2.0\r\n\r\n",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_EQ(sip_msg_parse((const uint8_t *)bad[i], (uint32_t)strlen(bad[i]), 1, &m,
				       &used), SIP_INVALID);
	/* a head that never ends is cut at SIP_MAX_MSG */
	{
		size_t big = SIP_MAX_MSG + 64;
		char *b = malloc(big);

		memcpy(b, "INVITE sip:x SIP/2.0\r\n", 22);
		for (size_t k = 22; k + 5 < big; k += 5)
			memcpy(b + k, "X: y\n", 5);
		CHECK_EQ(sip_msg_parse((const uint8_t *)b, (uint32_t)big - 4, 1, &m, &used),
			 SIP_TOOBIG);
		free(b);
	}
	/* a Content-Length past the bound */
	{
		const char *s = "INVITE sip:x SIP/2.0\r\nContent-Length: 999999999\r\n\r\n";

		CHECK_EQ(sip_msg_parse((const uint8_t *)s, (uint32_t)strlen(s), 1, &m, &used),
			 SIP_TOOBIG);
	}
}

TEST(sip_probe_line_and_prefix)
{
	int req = -1;

	CHECK_EQ(sip_probe_line((const uint8_t *)"REGISTER sip:a SIP/2.0\r\n", 24, &req), 1);
	CHECK_EQ(req, 1);
	CHECK_EQ(sip_probe_line((const uint8_t *)"SIP/2.0 200 OK\r\n", 16, &req), 1);
	CHECK_EQ(req, 0);
	CHECK_EQ(sip_probe_line((const uint8_t *)"NOTIFY * HTTP/1.1\r\n", 19, &req), 0);
	CHECK_EQ(sip_probe_line((const uint8_t *)"hello\0\0\0", 8, &req), -1);
	CHECK_EQ(sip_probe_prefix((const uint8_t *)"INVITE sip:", 11, &req), 1);
	CHECK_EQ(req, 1);
	CHECK_EQ(sip_probe_prefix((const uint8_t *)"OPTIONS SIPS:", 13, &req), 1);
	CHECK_EQ(sip_probe_prefix((const uint8_t *)"OPTIONS * HTTP/1.1", 18, &req), 0);
	CHECK_EQ(sip_probe_prefix((const uint8_t *)"REGIS", 5, &req), -1);
	CHECK_EQ(sip_probe_prefix((const uint8_t *)"SIP/2.0 100", 11, &req), 1);
	CHECK_EQ(req, 0);
	CHECK_EQ(sip_probe_prefix((const uint8_t *)"GET / HTTP/1.1", 14, &req), 0);
}

TEST(sip_json_object_request_with_sdp)
{
	size_t n;
	char *p = invite(&n);
	SipMsg *m;
	uint32_t used;
	json_t *o, *sdp, *md;

	CHECK_EQ(sip_msg_parse((const uint8_t *)p, (uint32_t)n, 1, &m, &used), SIP_OK);
	o = sip_json_object(m);
	CHECK(o);
	CHECK_STREQ(json_string_value(json_object_get(o, "method")), "INVITE");
	CHECK_STREQ(json_string_value(json_object_get(o, "version")), "SIP/2.0");
	CHECK(!json_object_get(o, "code"));
	sdp = json_object_get(o, "sdp");
	CHECK(sdp);
	CHECK_EQ(json_integer_value(json_object_get(sdp, "version")), 0);
	CHECK_STREQ(json_string_value(json_object_get(sdp, "session_name")), "SIP call");
	CHECK_STREQ(json_string_value(json_array_get(json_object_get(sdp, "bandwidths"), 0)),
		    "AS:64");
	CHECK_STREQ(json_string_value(json_object_get(json_array_get(
			    json_object_get(sdp, "time_descriptions"), 0), "repeat_time")),
		    "604800 3600 0 90000");
	CHECK_EQ(json_array_size(json_object_get(sdp, "attributes")), 1);
	md = json_object_get(sdp, "media_descriptions");
	CHECK_EQ(json_array_size(md), 2);
	CHECK_STREQ(json_string_value(json_object_get(json_array_get(md, 0), "media")),
		    "audio 30000 RTP/AVP 0 8");
	CHECK_EQ(json_array_size(json_object_get(json_array_get(md, 0), "attributes")), 2);
	CHECK_STREQ(json_string_value(json_object_get(json_array_get(md, 1), "connection_data")),
		    "IN IP4 192.168.1.3");
	json_decref(o);
	sip_msg_free(m);
}

/* ---- through the app layer ---- */

TEST(sip_udp_any_port_one_tx_per_message)
{
	AppTestCtx c;
	size_t n;
	char *p = invite(&n);
	void *tx;
	const uint8_t *d;
	uint32_t len;

	app_test_init(&c, 17, "10.0.0.2", 5555, 5062);
	CHECK_EQ(app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, (const uint8_t *)p,
				       (uint32_t)n, 0), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_SIP);
	CHECK_EQ(app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, (const uint8_t *)RESP,
				       sizeof(RESP) - 1, 0), 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 2);
	tx = app_layer_tx_get(&c.f, 0);
	CHECK(tx && sip_tx_dir(tx) == APP_DIR_TOSERVER);
	CHECK(app_layer_tx_flags(&c.f, tx) & APP_TX_ONLY_TS);
	CHECK_EQ(app_layer_tx_progress(&c.f, tx, APP_DIR_TOCLIENT), 1);
	/* the request's buffers on its side only */
	CHECK_EQ(sip_buffer_get(detect_buffer(BUF_SIP_METHOD), tx, APP_DIR_TOSERVER, 0, &d, &len), 0);
	CHECK(len == 6 && memcmp(d, "INVITE", 6) == 0);
	CHECK_EQ(sip_buffer_get(detect_buffer(BUF_SIP_STAT_CODE), tx, APP_DIR_TOSERVER, 0, &d, &len), -1);
	CHECK_EQ(sip_buffer_get(detect_buffer(BUF_SIP_TO), tx, APP_DIR_TOSERVER, 1, &d, &len), 0);
	CHECK(len == 28 && memcmp(d, "<sip:12345@voip.brujula.net>", 28) == 0);
	CHECK_EQ(sip_buffer_get(detect_buffer(BUF_SIP_TO), tx, APP_DIR_TOCLIENT, 0, &d, &len), -1);
	CHECK_EQ(sip_buffer_get(detect_buffer(BUF_SDP_MEDIA_MEDIA), tx, APP_DIR_TOSERVER, 1, &d, &len), 0);
	CHECK(len == 22 && memcmp(d, "video 30002 RTP/AVP 31", 22) == 0);
	CHECK_EQ(sip_buffer_get(detect_buffer(BUF_SDP_ATTRIBUTE), tx, APP_DIR_TOSERVER, 1, &d, &len), -1);
	tx = app_layer_tx_get(&c.f, 1);
	CHECK(tx && sip_tx_dir(tx) == APP_DIR_TOCLIENT);
	CHECK_EQ(sip_buffer_get(detect_buffer(BUF_SIP_STAT_MSG), tx, APP_DIR_TOCLIENT, 0, &d, &len), 0);
	CHECK(len == 12 && memcmp(d, "Unauthorized", 12) == 0);
	/* a datagram that is no message: an error, its event on the last tx */
	CHECK_EQ(app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, (const uint8_t *)"SIP/2.0 x\r\n\r\n",
				       13, 0), -1);
	CHECK_EQ(app_layer_tx_count(&c.f), 2);
	CHECK(sip_tx_events(tx) & (1u << SIP_EV_INVALID_DATA));
	/* a request toward the client is invalid there too, as Suricata 8
	 * parses each direction (suricata-verify bug-5802's capture) */
	CHECK_EQ(app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT,
				       (const uint8_t *)"REGISTER sip:b SIP/2.0\r\n\r\n", 26, 0), -1);
	CHECK_EQ(app_layer_tx_count(&c.f), 2);
	CHECK_EQ(app_layer_event_lookup(ALPROTO_SIP, "invalid_data"), SIP_EV_INVALID_DATA);
	app_layer_flow_free(&c.f);
	app_layer_thread_free(c.at);
}

TEST(sip_udp_other_datagrams_not_sip)
{
	AppTestCtx c;

	app_test_init(&c, 17, "10.0.0.2", 5060, 5060);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, (const uint8_t *)"hello\0\0\0", 8, 0);
	CHECK(c.f.app_proto != ALPROTO_SIP);
	app_layer_flow_free(&c.f);
	app_layer_thread_free(c.at);
	app_test_init(&c, 17, "239.255.255.250", 5060, 1900);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER,
			      (const uint8_t *)"NOTIFY * HTTP/1.1\r\nHOST: x\r\n\r\n", 30, 0);
	CHECK(c.f.app_proto != ALPROTO_SIP);
	app_layer_flow_free(&c.f);
	app_layer_thread_free(c.at);
}

TEST(sip_tcp_messages_any_segmentation)
{
	size_t n, all;
	char *p = invite(&n);
	char buf[8192];

	/* two requests back to back, fed in pieces of every size */
	memcpy(buf, p, n);
	memcpy(buf + n, p, n);
	all = 2 * n;
	for (size_t step = 1; step <= all; step = step < 16 ? step + 1 : step * 3) {
		AppTestCtx c;

		app_test_init(&c, 6, "10.0.0.2", 40000, 5060);
		for (size_t off = 0; off < all; off += step) {
			size_t k = all - off < step ? all - off : step;

			CHECK_EQ(app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER,
						       (const uint8_t *)buf + off, (uint32_t)k, 0), 0);
		}
		CHECK_EQ(c.f.app_proto, ALPROTO_SIP);
		CHECK_EQ(app_layer_tx_count(&c.f), 2);
		CHECK(sip_tx_msg(app_layer_tx_get(&c.f, 1))->has_sdp);
		app_layer_flow_free(&c.f);
		app_layer_thread_free(c.at);
	}
}

TEST(sip_rule_keywords_load_and_reject)
{
	int l, f, s, r;

	r = test_load_rules(
		"alert sip any any -> any any (sip.method; content:\"INVITE\"; sid:1;)\n"
		"alert sip any any -> any any (flow:to_client; sip.stat_code; content:\"200\"; sid:2;)\n"
		"alert udp any any -> any any (sip.to; content:\"sip:\"; sid:3;)\n"
		"alert tcp any any -> any any (sip.content_length; content:\"0\"; sid:4;)\n"
		"alert sip any any -> any any (sdp.origin; content:\"IN IP4\"; sid:5;)\n"
		"alert sip any any -> any any (sdp.media.media; content:\"audio\"; sid:6;)\n"
		"alert sip any any -> any any (app-layer-event:sip.incomplete_data; sid:7;)\n",
		&l, &f, &s);
	CHECK_EQ(r, 0);
	CHECK_EQ(l, 7);
	CHECK_EQ(f, 0);
	/* a sip buffer on another protocol fails; an unknown event name is
	 * skipped, as Suricata 8 does outside --strict-rules */
	test_load_rules("alert http any any -> any any (sip.method; content:\"x\"; sid:1;)\n"
			"alert sip any any -> any any (app-layer-event:sip.bogus; sid:2;)\n",
			&l, &f, &s);
	CHECK_EQ(l, 0);
	CHECK_EQ(f, 1);
	CHECK_EQ(s, 1);
}
