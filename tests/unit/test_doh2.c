/* DoH (src/app-layer/doh2-proto.c): which HTTP/2 requests are DNS
 * queries, the DNS messages of a transaction (GET's base64url parameter,
 * POST and response bodies), and the protocol equivalences of rules. */
#include "config.h"
#include "test.h"

#include <string.h>

#include "app-layer/app-layer.h"
#include "app-layer/dns-parse.h"
#include "app-layer/doh2.h"

/* a side holding headers "name", "value", ...; NULL-terminated */
static void side_set(Http2Side *s, Http2Header *h, const char *const *nv)
{
	uint32_t n = 0;

	memset(s, 0, sizeof(*s));
	for (; nv[2 * n]; n++) {
		h[n].name = (uint8_t *)nv[2 * n];
		h[n].nlen = (uint32_t)strlen(nv[2 * n]);
		h[n].value = (uint8_t *)nv[2 * n + 1];
		h[n].vlen = (uint32_t)strlen(nv[2 * n + 1]);
		h[n].size_update = -1;
	}
	s->hdrs = h;
	s->nhdrs = s->cap = n;
	s->headers_done = 1;
}

/* example.com A, id 0x1234, rd */
static const uint8_t query[] = { 0x12, 0x34, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 7, 'e', 'x', 'a',
				 'm', 'p', 'l', 'e', 3, 'c', 'o', 'm', 0, 0, 1, 0, 1 };
/* its answer: 93.184.216.34 */
static const uint8_t answer[] = { 0x12, 0x34, 0x81, 0x80, 0, 1, 0, 1, 0, 0, 0, 0, 7, 'e',
				  'x', 'a', 'm', 'p', 'l', 'e', 3, 'c', 'o', 'm', 0, 0, 1, 0,
				  1, 0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 1, 0x2c, 0, 4, 93, 184,
				  216, 34 };

TEST(doh2_get_with_dns_parameter_and_its_answer)
{
	static const char *const req[] = { ":method", "GET", ":path",
		"/dns-query?ct&dns=EjQBAAABAAAAAAAAB2V4YW1wbGUDY29tAAABAAE", NULL };
	static const char *const rsp[] = { ":status", "200", "content-type",
					   "application/dns-message", NULL };
	Http2Header hq[4], hr[4];
	Http2Tx tx;
	struct dns_msg *q, *a;

	memset(&tx, 0, sizeof(tx));
	side_set(&tx.side[0], hq, req);
	side_set(&tx.side[1], hr, rsp);
	tx.side[1].body = (uint8_t *)answer;
	tx.side[1].body_len = sizeof(answer);
	CHECK(doh2_is_request(&tx.side[0]));
	CHECK(doh2_tx_msgs(&tx, &q, &a));
	CHECK(q != NULL && a != NULL);
	CHECK_EQ(q->id, 0x1234);
	CHECK_EQ(q->nqueries, 1);
	CHECK_EQ(q->queries[0].name.s.len, 11);
	CHECK(!memcmp(q->queries[0].name.s.ptr, "example.com", 11));
	CHECK(a->qr);
	CHECK_EQ(a->nrrs[DNS_SEC_ANSWER], 1);
	dns_msg_free(q);
	dns_msg_free(a);
}

TEST(doh2_post_by_content_type_only)
{
	static const char *const post[] = { ":method", "POST", ":path", "/dns-query",
		"content-type", "Application/DNS-Message; x=1", NULL };
	static const char *const text[] = { ":method", "POST", ":path", "/dns-query",
					    "content-type", "text/plain", NULL };
	Http2Header h[4];
	Http2Tx tx;
	struct dns_msg *q, *a;

	memset(&tx, 0, sizeof(tx));
	side_set(&tx.side[0], h, post);
	tx.side[0].body = (uint8_t *)query;
	tx.side[0].body_len = sizeof(query);
	CHECK(doh2_is_request(&tx.side[0]));
	CHECK(doh2_tx_msgs(&tx, &q, &a));
	CHECK(q != NULL && a == NULL);
	CHECK_EQ(q->queries[0].rrtype, 1);
	dns_msg_free(q);
	side_set(&tx.side[0], h, text);
	CHECK(!doh2_is_request(&tx.side[0]));
	CHECK(!doh2_tx_msgs(&tx, &q, &a));
}

TEST(doh2_not_a_query_and_hostile_parameters)
{
	static const char *const plain[] = { ":method", "GET", ":path", "/index?xdns=AAAA", NULL };
	static const char *const nodns[] = { ":method", "GET", ":path", "/dns=AAAA", NULL };
	static const char *const bad[] = { ":method", "GET", ":path", "/q?dns=!!!!", NULL };
	static const char *const shortq[] = { ":method", "GET", ":path", "/q?dns=AAAB", NULL };
	Http2Header h[4];
	Http2Tx tx;
	struct dns_msg *q, *a;

	memset(&tx, 0, sizeof(tx));
	side_set(&tx.side[0], h, plain);
	CHECK(!doh2_is_request(&tx.side[0]));
	side_set(&tx.side[0], h, nodns);
	CHECK(!doh2_is_request(&tx.side[0]));
	side_set(&tx.side[0], h, bad);
	CHECK(doh2_is_request(&tx.side[0]));
	CHECK(!doh2_tx_msgs(&tx, &q, &a));
	side_set(&tx.side[0], h, shortq);
	CHECK(!doh2_tx_msgs(&tx, &q, &a));
}

TEST(doh2_protocol_equivalences)
{
	CHECK(app_proto_equals(ALPROTO_DNS, ALPROTO_DOH2));
	CHECK(app_proto_equals(ALPROTO_HTTP2, ALPROTO_DOH2));
	CHECK(app_proto_equals(ALPROTO_DOH2, ALPROTO_DOH2));
	CHECK(app_proto_equals(ALPROTO_DOH2, ALPROTO_DNS));
	CHECK(!app_proto_equals(ALPROTO_TLS, ALPROTO_DOH2));
	CHECK(!app_proto_equals(ALPROTO_DNS, ALPROTO_HTTP2));
	CHECK(!app_proto_equals(ALPROTO_HTTP1, ALPROTO_DOH2));
	CHECK_EQ(app_proto_by_name("doh2"), ALPROTO_DOH2);
	CHECK_STREQ(app_proto_name(ALPROTO_DOH2), "doh2");
}
