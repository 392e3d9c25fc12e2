/* WebSocket: the frame parser (app-layer/websocket.h) at every
 * segmentation, unmasking, reassembly of fragmented messages with control
 * frames between fragments, the payload limit, the eve object
 * (output/websocket-json.h) and the Upgrade table (http-upgrade.h). */
#include "config.h"
#include "test.h"

#include <jansson.h>
#include <zlib.h>
#include <stdlib.h>

#include "app-layer/app-layer.h"
#include "app-layer/http-upgrade.h"
#include "app-layer/websocket.h"
#include "output/websocket-json.h"

static const uint8_t KEY[4] = { 0x12, 0x34, 0x56, 0x78 };

/* a frame: first byte, payload (masked with KEY when mask) */
static size_t frame(uint8_t *out, uint8_t b0, int mask, const char *pl, size_t n)
{
	size_t o = 0;

	out[o++] = b0;
	if (n < 126) {
		out[o++] = (uint8_t)((mask ? 0x80 : 0) | n);
	} else {
		out[o++] = (uint8_t)((mask ? 0x80 : 0) | 126);
		out[o++] = (uint8_t)(n >> 8);
		out[o++] = (uint8_t)n;
	}
	if (mask) {
		memcpy(out + o, KEY, 4);
		o += 4;
	}
	for (size_t i = 0; i < n; i++)
		out[o + i] = (uint8_t)pl[i] ^ (mask ? KEY[i & 3] : 0);
	return o + n;
}

static WsTx *tx_at(WsConn *c, uint64_t id)
{
	return txl_op_get(&c->txs, id);
}

TEST(websocket_fragments_and_control_any_segmentation)
{
	uint8_t buf[512];
	size_t n = 0;

	/* "MALWARE " + ping + "DOWNLOAD", masked, then a server pong */
	n += frame(buf + n, 0x01, 1, "MALWARE ", 8);
	n += frame(buf + n, 0x89, 1, "hi", 2);
	n += frame(buf + n, 0x80, 1, "DOWNLOAD", 8);
	for (size_t step = 1; step <= n; step++) {
		WsConn c;
		WsTx *t;

		ws_conn_init(&c, 65535, 1024);
		for (size_t off = 0; off < n; off += step)
			ws_conn_feed(&c, APP_DIR_TOSERVER, buf + off,
				     (uint32_t)(n - off < step ? n - off : step));
		CHECK_EQ(c.txs.next_id, 3);
		t = tx_at(&c, 0);
		CHECK(t->opcode == WS_OP_TEXT && !(t->flags & WS_FLAG_FIN) && t->masked);
		CHECK_EQ(t->mask, 0x12345678);
		CHECK(t->plen == 8 && memcmp(t->payload, "MALWARE ", 8) == 0);
		t = tx_at(&c, 1);
		CHECK(t->opcode == WS_OP_PING && t->plen == 2 && memcmp(t->payload, "hi", 2) == 0);
		/* the message's last frame carries all of it */
		t = tx_at(&c, 2);
		CHECK(t->opcode == WS_OP_CONTINUATION && (t->flags & WS_FLAG_FIN));
		CHECK(t->plen == 16 && memcmp(t->payload, "MALWARE DOWNLOAD", 16) == 0);
		CHECK(t->base.flags & APP_TX_ONLY_TS);
		ws_conn_free(&c);
	}
}

TEST(websocket_payload_limit_and_long_length)
{
	static char big[300];
	uint8_t buf[400];
	WsConn c;
	size_t n;

	memset(big, 'a', sizeof(big));
	n = frame(buf, 0x82, 0, big, sizeof(big));
	ws_conn_init(&c, 100, 1024);
	ws_conn_feed(&c, APP_DIR_TOCLIENT, buf, (uint32_t)n);
	/* a 16-bit length; 100 bytes kept, the rest skipped, with the event */
	CHECK_EQ(c.txs.next_id, 1);
	CHECK_EQ(tx_at(&c, 0)->plen, 100);
	CHECK(tx_at(&c, 0)->base.events & (1u << WS_EV_SKIP_END_OF_PAYLOAD));
	CHECK(!tx_at(&c, 0)->masked);
	/* an empty frame at the end of the bytes is a frame at once */
	n = frame(buf, 0x8a, 0, "", 0);
	ws_conn_feed(&c, APP_DIR_TOCLIENT, buf, (uint32_t)n);
	CHECK_EQ(c.txs.next_id, 2);
	ws_conn_free(&c);
}

TEST(websocket_eve_object)
{
	uint8_t buf[64];
	WsConn c;
	json_t *o;
	size_t n = frame(buf, 0x81, 1, "hey\x01", 4);

	ws_conn_init(&c, 65535, 1024);
	ws_conn_feed(&c, APP_DIR_TOSERVER, buf, (uint32_t)n);
	o = websocket_json_object(tx_at(&c, 0), WS_LOG_BASE64 | WS_LOG_PRINTABLE);
	CHECK(o);
	CHECK(json_is_true(json_object_get(o, "fin")));
	CHECK_EQ(json_integer_value(json_object_get(o, "mask")), 0x12345678);
	CHECK_STREQ(json_string_value(json_object_get(o, "opcode")), "text");
	CHECK_STREQ(json_string_value(json_object_get(o, "payload_base64")), "aGV5AQ==");
	CHECK_STREQ(json_string_value(json_object_get(o, "payload_printable")), "hey.");
	json_decref(o);
	o = websocket_json_object(tx_at(&c, 0), 0);
	CHECK(!json_object_get(o, "payload_base64"));
	json_decref(o);
	ws_conn_free(&c);
}

TEST(websocket_names_and_upgrade_tokens)
{
	CHECK_STREQ(ws_opcode_name(8), "connection_close");
	CHECK_EQ(ws_opcode_by_name("pong"), 10);
	CHECK_EQ(ws_opcode_by_name("nope"), -1);
	CHECK_EQ(http_upgrade_proto((const uint8_t *)"WebSocket", 9), ALPROTO_WEBSOCKET);
	CHECK_EQ(http_upgrade_proto((const uint8_t *)" websocket, h2c", 15), ALPROTO_WEBSOCKET);
	CHECK_EQ(http_upgrade_proto((const uint8_t *)"websockets", 10), ALPROTO_UNKNOWN);
}

/* permessage-deflate (RFC 7692): a sender's compressor, its sync flush's
 * 00 00 ff ff tail cut off as 7.2.1 says */
static size_t deflate_msg(z_stream *zs, const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
	size_t o;

	zs->next_in = (Bytef *)in;
	zs->avail_in = (uInt)n;
	zs->next_out = out;
	zs->avail_out = (uInt)cap;
	if (deflate(zs, Z_SYNC_FLUSH) != Z_OK)
		return 0;
	o = cap - zs->avail_out;
	return o >= 4 ? o - 4 : 0;
}

static void deflater(z_stream *zs, int wbits)
{
	memset(zs, 0, sizeof(*zs));
	deflateInit2(zs, 9, Z_DEFLATED, -wbits, 8, Z_DEFAULT_STRATEGY);
}

TEST(websocket_deflate_context_takeover_and_fragments)
{
	static const char msg[] = "GET /malware/payload.exe please, GET /malware/payload.exe";
	uint8_t z1[256], z2[256], buf[1024];
	z_stream zs;
	size_t n1, n2, n = 0;
	WsConn c;

	deflater(&zs, 15);
	n1 = deflate_msg(&zs, (const uint8_t *)msg, sizeof(msg) - 1, z1, sizeof(z1));
	/* the same again: with the window kept it is mostly a back-reference */
	n2 = deflate_msg(&zs, (const uint8_t *)msg, sizeof(msg) - 1, z2, sizeof(z2));
	deflateEnd(&zs);
	CHECK(n1 && n2 && n2 < n1);
	n += frame(buf + n, 0xc1, 1, (const char *)z1, n1);
	/* the second message in two fragments: RSV1 on the first only */
	n += frame(buf + n, 0x41, 1, (const char *)z2, 3);
	n += frame(buf + n, 0x80, 1, (const char *)z2 + 3, n2 - 3);
	for (size_t step = 1; step <= n; step += 7) {
		ws_conn_init(&c, 65535, 1024);
		for (size_t off = 0; off < n; off += step)
			ws_conn_feed(&c, APP_DIR_TOSERVER, buf + off,
				     (uint32_t)(n - off < step ? n - off : step));
		CHECK_EQ(c.txs.next_id, 3);
		CHECK(tx_at(&c, 0)->flags & WS_FLAG_COMP);
		CHECK_EQ(tx_at(&c, 0)->plen, sizeof(msg) - 1);
		CHECK(memcmp(tx_at(&c, 0)->payload, msg, sizeof(msg) - 1) == 0);
		/* a fragment keeps its own (compressed) bytes */
		CHECK_EQ(tx_at(&c, 1)->plen, 3);
		CHECK_EQ(tx_at(&c, 2)->plen, sizeof(msg) - 1);
		CHECK(memcmp(tx_at(&c, 2)->payload, msg, sizeof(msg) - 1) == 0);
		CHECK_EQ(c.ninflate_capped, 0);
		ws_conn_free(&c);
	}
}

TEST(websocket_deflate_no_context_takeover_and_window)
{
	static const char msg[] = "abcabcabcabc hello hello hello";
	uint8_t z[256], buf[1024];
	WsDeflateParams p;
	z_stream zs;
	size_t zn, n = 0;
	WsConn c;
	const char *v = " x-webkit-deflate-frame, permessage-deflate; client_max_window_bits=9;"
			" server_no_context_takeover ;server_max_window_bits=\"10\"";

	CHECK_EQ(ws_deflate_params_parse(v, strlen(v), &p), 1);
	CHECK(p.agreed && p.no_takeover[APP_DIR_TOCLIENT] && !p.no_takeover[APP_DIR_TOSERVER]);
	CHECK_EQ(p.wbits[APP_DIR_TOSERVER], 9);
	CHECK_EQ(p.wbits[APP_DIR_TOCLIENT], 10);
	CHECK_EQ(ws_deflate_params_parse("x-webkit-deflate-frame", 22, &p), 0);
	CHECK_EQ(p.wbits[0], 15);
	/* the server starts each message afresh: each is inflated alone, even
	 * after one that was not deflate data at all */
	v = "permessage-deflate; server_no_context_takeover; server_max_window_bits=10";
	CHECK_EQ(ws_deflate_params_parse(v, strlen(v), &p), 1);
	n += frame(buf + n, 0xc2, 0, "\xff\xfe garbage", 10);
	for (int i = 0; i < 2; i++) {
		deflater(&zs, 10);
		zn = deflate_msg(&zs, (const uint8_t *)msg, sizeof(msg) - 1, z, sizeof(z));
		deflateEnd(&zs);
		n += frame(buf + n, 0xc2, 0, (const char *)z, zn);
	}
	ws_conn_init(&c, 65535, 1024);
	ws_conn_set_deflate(&c, &p);
	ws_conn_feed(&c, APP_DIR_TOCLIENT, buf, (uint32_t)n);
	CHECK_EQ(c.txs.next_id, 3);
	/* nothing came out: the bytes as sent, as Suricata 8 leaves them */
	CHECK_EQ(tx_at(&c, 0)->plen, 10);
	for (int i = 1; i < 3; i++) {
		CHECK_EQ(tx_at(&c, i)->plen, sizeof(msg) - 1);
		CHECK(memcmp(tx_at(&c, i)->payload, msg, sizeof(msg) - 1) == 0);
	}
	ws_conn_free(&c);
}

TEST(websocket_deflate_bomb_is_capped_and_counted)
{
	static uint8_t zeros[1 << 20];
	uint8_t z[8192], buf[9000];
	z_stream zs;
	size_t zn, n = 0;
	WsConn c;

	deflater(&zs, 15);
	zn = deflate_msg(&zs, zeros, sizeof(zeros), z, sizeof(z));
	CHECK(zn > 0 && zn < 4000);
	n += frame(buf + n, 0xc2, 0, (const char *)z, zn);
	/* the next message from a fresh compressor still reads */
	deflateEnd(&zs);
	deflater(&zs, 15);
	zn = deflate_msg(&zs, (const uint8_t *)"after", 5, z, sizeof(z));
	deflateEnd(&zs);
	n += frame(buf + n, 0xc1, 0, (const char *)z, zn);
	ws_conn_init(&c, 1000, 1024);
	ws_conn_feed(&c, APP_DIR_TOCLIENT, buf, (uint32_t)n);
	CHECK_EQ(c.txs.next_id, 2);
	CHECK_EQ(tx_at(&c, 0)->plen, 1000);
	CHECK_EQ(tx_at(&c, 0)->payload[999], 0);
	CHECK_EQ(c.ninflate_capped, 1);
	CHECK_EQ(tx_at(&c, 1)->plen, 5);
	CHECK(memcmp(tx_at(&c, 1)->payload, "after", 5) == 0);
	ws_conn_free(&c);
}
