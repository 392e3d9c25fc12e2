/* WebSocket: the frame parser (app-layer/websocket.h) at every
 * segmentation, unmasking, reassembly of fragmented messages with control
 * frames between fragments, the payload limit, the eve object
 * (output/websocket-json.h) and the Upgrade table (http-upgrade.h). */
#include "config.h"
#include "test.h"

#include <jansson.h>
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
