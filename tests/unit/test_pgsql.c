/* PostgreSQL: the parser (app-layer/pgsql.h) at every segmentation, its
 * transactions as Suricata 8 forms them, the probes, hostile input, and
 * the eve object (output/pgsql-json.h). */
#include "config.h"
#include "test.h"

#include <jansson.h>
#include <stdlib.h>

#include "app-layer/pgsql.h"
#include "output/pgsql-json.h"

/* a message: type (0: untyped), body */
static size_t msg(uint8_t *out, uint8_t type, const void *body, uint32_t n)
{
	size_t o = 0;
	uint32_t len = n + 4;

	if (type)
		out[o++] = type;
	out[o++] = (uint8_t)(len >> 24);
	out[o++] = (uint8_t)(len >> 16);
	out[o++] = (uint8_t)(len >> 8);
	out[o++] = (uint8_t)len;
	memcpy(out + o, body, n);
	return o + n;
}

static void feed(PgsqlConn *c, int dir, const uint8_t *p, size_t n, size_t step)
{
	for (size_t off = 0; off < n; off += step) {
		size_t k = n - off < step ? n - off : step;

		pgsql_conn_feed(c, dir, p + off, (uint32_t)k);
	}
}

static PgsqlTx *tx_at(PgsqlConn *c, uint64_t id)
{
	return txl_op_get(&c->txs, id);
}

static const uint8_t SSLREQ[] = { 0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f };
static const char STARTUP[] = "\x00\x03\x00\x00user\0bob\0database\0db\0DateStyle\0ISO\0";
static const char ROW[] = "\x00\x02\x00\x00\x00\x03" "abc" "\xff\xff\xff\xff";  /* 2 columns: abc, NULL */

TEST(pgsql_session_any_segmentation)
{
	uint8_t cli[512], srv[512];
	size_t nc = 0, ns = 0;

	nc += msg(cli + nc, 0, STARTUP, sizeof(STARTUP));
	nc += msg(cli + nc, 'p', "secret", 7);
	nc += msg(cli + nc, 'Q', "select 1;", 10);
	nc += msg(cli + nc, 'X', "", 0);
	ns += msg(srv + ns, 'R', "\x00\x00\x00\x05" "ab\xdc" "d", 8);
	ns += msg(srv + ns, 'R', "\x00\x00\x00\x00", 4);
	ns += msg(srv + ns, 'S', "TimeZone\0UTC", 13);
	ns += msg(srv + ns, 'K', "\x00\x00\x01\x00\x00\x00\x00\x07", 8);
	ns += msg(srv + ns, 'Z', "I", 1);
	ns += msg(srv + ns, 'T', "\x00\x02rest", 6);
	ns += msg(srv + ns, 'D', ROW, sizeof(ROW) - 1);
	ns += msg(srv + ns, 'D', ROW, sizeof(ROW) - 1);
	ns += msg(srv + ns, 'C', "SELECT 2", 9);
	ns += msg(srv + ns, 'Z', "I", 1);
	for (size_t step = 1; step <= 64; step += step < 8 ? 1 : 7) {
		PgsqlConn c;
		PgsqlTx *t;

		pgsql_conn_init(&c, 1024);
		feed(&c, 0, SSLREQ, sizeof(SSLREQ), step);
		feed(&c, 1, (const uint8_t *)"N", 1, step);
		/* the client's turn after each answer, as on the wire: the
		 * startup, the password, then the query and Terminate */
		size_t su = 4 + sizeof(STARTUP);

		feed(&c, 0, cli, su, step);
		feed(&c, 1, srv, 13, step);
		feed(&c, 0, cli + su, 12, step);
		feed(&c, 1, srv + 13, 59 - 13, step);
		feed(&c, 0, cli + su + 12, nc - su - 12, step);
		feed(&c, 1, srv + 59, ns - 59, step);
		CHECK_EQ(c.txs.next_id, 5);
		t = tx_at(&c, 0);
		CHECK(t && t->req == PG_REQ_SSL && t->base.done[0] && t->base.done[1]);
		CHECK(t->nitems == 1 && t->items[0].type == PG_IT_SSL && t->items[0].num[0] == 0);
		t = tx_at(&c, 1);
		CHECK(t && t->req == PG_REQ_STARTUP && t->proto_major == 3 && t->base.done[1]);
		CHECK(t->nitems == 1 && t->items[0].num[0] == 5 && t->items[0].len == 4);
		t = tx_at(&c, 2);
		CHECK(t && t->req == PG_REQ_PASSWORD && t->rq_len == 6);
		CHECK_EQ(t->nitems, 3);
		t = tx_at(&c, 3);
		CHECK(t && t->req == PG_REQ_QUERY && t->rq_len == 9);
		/* rows counted: their value bytes (3 + 0 for the NULL) */
		CHECK_EQ(t->rows, 2);
		CHECK_EQ(t->data_size, 6);
		CHECK(t->base.done[1]);
		t = tx_at(&c, 4);
		CHECK(t && t->req == PG_REQ_TERMINATE && t->base.done[1]);
		pgsql_conn_free(&c);
	}
}

TEST(pgsql_eve_object)
{
	uint8_t buf[256];
	size_t n = 0;
	PgsqlConn c;
	json_t *o;

	pgsql_conn_init(&c, 1024);
	n = msg(buf, 0, STARTUP, sizeof(STARTUP));
	pgsql_conn_feed(&c, 0, buf, (uint32_t)n);
	n = msg(buf, 'R', "\x00\x00\x00\x05" "ab\xdc" "d", 8);
	pgsql_conn_feed(&c, 1, buf, (uint32_t)n);
	n = msg(buf, 'p', "secret", 7);
	pgsql_conn_feed(&c, 0, buf, (uint32_t)n);
	n = msg(buf, 'E', "SFATAL\0C28000\0Mno\0", 19);
	pgsql_conn_feed(&c, 1, buf, (uint32_t)n);

	o = pgsql_json_object(tx_at(&c, 0), 0);
	CHECK(o);
	CHECK_EQ(json_integer_value(json_object_get(o, "tx_id")), 1);
	CHECK_STREQ(json_string_value(json_object_get(json_object_get(o, "request"),
						      "protocol_version")), "3.0");
	{
		json_t *sp = json_object_get(json_object_get(o, "request"), "startup_parameters");
		json_t *opt = json_object_get(sp, "optional_parameters");

		CHECK_STREQ(json_string_value(json_object_get(sp, "user")), "bob");
		CHECK_EQ(json_array_size(opt), 2);
		CHECK_STREQ(json_string_value(json_object_get(json_array_get(opt, 1), "date_style")),
			    "ISO");
	}
	/* not UTF-8: each byte from 0x80 as \xnn, lower case, as Suricata's */
	CHECK_STREQ(json_string_value(json_object_get(json_object_get(o, "response"),
						      "authentication_md5_password")),
		    "ab\\xdcd");
	json_decref(o);

	o = pgsql_json_object(tx_at(&c, 1), 0);
	CHECK(json_is_true(json_object_get(json_object_get(o, "request"), "password_redacted")));
	CHECK(!json_object_get(json_object_get(o, "request"), "password"));
	CHECK_STREQ(json_string_value(json_object_get(json_object_get(o, "response"), "code")),
		    "28000");
	/* a FATAL error ends the exchange */
	CHECK(tx_at(&c, 1)->base.done[1]);
	json_decref(o);
	o = pgsql_json_object(tx_at(&c, 1), 1);
	CHECK_STREQ(json_string_value(json_object_get(json_object_get(o, "request"), "password")),
		    "secret");
	json_decref(o);
	pgsql_conn_free(&c);
}

TEST(pgsql_ssl_accepted_holds_the_tls_bytes)
{
	PgsqlConn c;

	pgsql_conn_init(&c, 1024);
	pgsql_conn_feed(&c, 0, SSLREQ, sizeof(SSLREQ));
	pgsql_conn_feed(&c, 1, (const uint8_t *)"S\x16\x03\x01", 4);
	CHECK(c.to_tls);
	CHECK_EQ(c.held_len[1], 3);
	CHECK(memcmp(c.held[1], "\x16\x03\x01", 3) == 0);
	pgsql_conn_feed(&c, 0, (const uint8_t *)"\x16\x03\x01\x00", 4);
	CHECK_EQ(c.held_len[0], 4);
	pgsql_conn_free(&c);
}

TEST(pgsql_extended_query_and_async_make_no_tx)
{
	uint8_t buf[256];
	size_t n = 0;
	PgsqlConn c;

	pgsql_conn_init(&c, 1024);
	n = msg(buf, 'Q', "LISTEN x;", 10);
	pgsql_conn_feed(&c, 0, buf, (uint32_t)n);
	n = msg(buf, 'C', "LISTEN", 7);
	n += msg(buf + n, 'Z', "I", 1);
	n += msg(buf + n, 'A', "\x00\x00\x00\x01x\0hi", 9);
	pgsql_conn_feed(&c, 1, buf, (uint32_t)n);
	n = msg(buf, 'P', "\0select 1\0\0\0", 13);
	n += msg(buf + n, 'S', "", 0);
	pgsql_conn_feed(&c, 0, buf, (uint32_t)n);
	n = msg(buf, '1', "", 0);
	n += msg(buf + n, 'Z', "I", 1);
	pgsql_conn_feed(&c, 1, buf, (uint32_t)n);
	CHECK_EQ(c.txs.next_id, 1);
	pgsql_conn_free(&c);
}

TEST(pgsql_hostile_input_is_bounded)
{
	uint8_t buf[64];
	PgsqlConn c;
	size_t n;

	/* a length below 4: the direction is given up, with its event */
	pgsql_conn_init(&c, 2);
	n = msg(buf, 0, STARTUP, sizeof(STARTUP));
	pgsql_conn_feed(&c, 0, buf, (uint32_t)n);
	CHECK_EQ(pgsql_conn_feed(&c, 0, (const uint8_t *)"Q\x00\x00\x00\x01", 5), -1);
	CHECK(tx_at(&c, 0)->base.events & (1u << PG_EV_INVALID_LENGTH));
	pgsql_conn_free(&c);

	/* past max-tx the older transactions are closed, with the event */
	pgsql_conn_init(&c, 2);
	n = msg(buf, 0, STARTUP, sizeof(STARTUP));
	pgsql_conn_feed(&c, 0, buf, (uint32_t)n);
	for (int i = 0; i < 3; i++) {
		n = msg(buf, 'Q', "x", 2);
		pgsql_conn_feed(&c, 0, buf, (uint32_t)n);
	}
	CHECK(tx_at(&c, 2)->base.events & (1u << PG_EV_TOO_MANY_TRANSACTIONS));
	CHECK(tx_at(&c, 0)->base.done[1]);
	/* an unknown server message type */
	n = msg(buf, '~', "", 0);
	pgsql_conn_feed(&c, 1, buf, (uint32_t)n);
	CHECK(c.nerr >= 1);
	pgsql_conn_free(&c);

	/* a big data row cut across calls is counted, not kept whole */
	pgsql_conn_init(&c, 8);
	n = msg(buf, 'Q', "x", 2);
	pgsql_conn_feed(&c, 0, buf, (uint32_t)n);
	{
		uint32_t vl = 3u << 20, len = 4 + 2 + 4 + vl;
		uint8_t hdr[11] = { 'D', (uint8_t)(len >> 24), (uint8_t)(len >> 16),
				    (uint8_t)(len >> 8), (uint8_t)len, 0, 1,
				    (uint8_t)(vl >> 24), (uint8_t)(vl >> 16), (uint8_t)(vl >> 8),
				    (uint8_t)vl };
		uint8_t *chunk = calloc(1, 65536);

		CHECK(chunk);
		pgsql_conn_feed(&c, 1, hdr, sizeof(hdr));
		for (uint32_t left = vl; left;) {
			uint32_t k = left < 65536 ? left : 65536;

			pgsql_conn_feed(&c, 1, chunk, k);
			left -= k;
		}
		free(chunk);
		CHECK(c.fr[1].cap <= 65536);
		CHECK_EQ(tx_at(&c, 0)->rows, 1);
		CHECK_EQ(tx_at(&c, 0)->data_size, vl);
	}
	pgsql_conn_free(&c);
}

TEST(pgsql_probes)
{
	CHECK_EQ(pgsql_probe_ts(SSLREQ, sizeof(SSLREQ)), 1);
	CHECK_EQ(pgsql_probe_ts(SSLREQ, 4), 0);
	CHECK_EQ(pgsql_probe_ts((const uint8_t *)"GET / HTTP/1.1\r\n", 16), -1);
	CHECK_EQ(pgsql_probe_ts((const uint8_t *)"\x00\x00\x00\x10\x00\x02\x00\x00", 8), -1);
	CHECK_EQ(pgsql_probe_tc((const uint8_t *)"R\x00\x00\x00\x08\x00\x00\x00\x00", 9), 1);
	/* suricata-verify pgsql-bug-6080-probe-test-01: ':' is no reply */
	CHECK_EQ(pgsql_probe_tc((const uint8_t *)":", 1), -1);
}
