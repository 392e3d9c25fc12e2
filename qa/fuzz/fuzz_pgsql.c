/* libFuzzer harness: PostgreSQL (framing, startup/SSL/cancel messages, the
 * transactions, the eve object and pgsql.query), through the generic app
 * layer on one TCP flow to 5432 made from the input; and the same chunks
 * as WebSocket frames (websocket.h's parser, its eve object), which the
 * app layer reaches only after an HTTP/1 101.
 *
 * Input: chunks, each a control byte then its bytes. Control bit 7 is the
 * direction (set: to client); bit 6 set makes the chunk a gap of
 * (bits 0-5 + 1) * 97 bytes; else bits 0-5 + 1 is the chunk length. One
 * input covers segmentation, both directions, their interleaving, lost
 * segments and the hand-over to TLS after an accepted SSLRequest.
 *
 * Built by `make fuzz` with the engine (qa/fuzz/fuzz.mk). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app-layer/app-layer.h"
#include "app-layer/pgsql.h"
#include "app-layer/websocket.h"
#include "detect/buffers.h"
#include "output/pgsql-json.h"
#include "output/websocket-json.h"
#include "fuzz-common.h"

static AppLayerConfig cfg;
static AppLayerThread *at;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	app_layer_config_load(&cfg);
	at = app_layer_thread_new(&cfg, NULL);
	return 0;
}

static unsigned check_tx(void *tx)
{
	const DetectBuffer *b = detect_buffer(BUF_PGSQL_QUERY);
	json_t *o = pgsql_json_object(tx, 1);
	unsigned sink = 0;
	const uint8_t *d;
	uint32_t len;
	char *txt;

	if (o) {
		/* every string written must be valid UTF-8 for eve */
		txt = json_dumps(o, JSON_COMPACT);
		if (!txt)
			abort();
		sink += (unsigned)strlen(txt);
		free(txt);
		json_decref(o);
	}
	if (b->get(b, tx, 0, 0, &d, &len) == 0 && len)
		sink += d[0] + d[len - 1];
	return sink;
}

/* The chunks as WebSocket bytes: a small payload limit reaches the skip
 * and reassembly limits */
static unsigned websocket_pass(const uint8_t *data, size_t size)
{
	WsConn c;
	size_t pos = 0;
	unsigned sink = 0;

	ws_conn_init(&c, 512, 64);
	/* permessage-deflate (RSV1 frames are inflated): the first byte picks
	 * what a 101 would have agreed to */
	if (size) {
		WsDeflateParams dp = { 1, { data[0] & 1, (data[0] >> 1) & 1 },
				       { (uint8_t)(8 + ((data[0] >> 2) & 7)), 15 } };

		ws_conn_set_deflate(&c, &dp);
	}
	while (pos < size) {
		uint8_t ctl = data[pos++];
		int dir = ctl & 0x80 ? APP_DIR_TOCLIENT : APP_DIR_TOSERVER;
		size_t n = (size_t)(ctl & 0x3f) + 1;
		uint8_t *chunk;

		if (ctl & 0x40) {
			ws_conn_gap(&c, dir);
			continue;
		}
		if (n > size - pos)
			n = size - pos;
		chunk = malloc(n ? n : 1);
		if (!chunk)
			break;
		memcpy(chunk, data + pos, n);
		ws_conn_feed(&c, dir, chunk, (uint32_t)n);
		free(chunk);
		pos += n;
	}
	for (uint64_t id = txl_op_low(&c.txs); id < c.txs.next_id; id++) {
		WsTx *tx = txl_op_get(&c.txs, id);
		json_t *o = tx ? websocket_json_object(tx, WS_LOG_BASE64 | WS_LOG_PRINTABLE) : NULL;
		char *txt;

		if (!o)
			continue;
		txt = json_dumps(o, JSON_COMPACT);
		if (!txt)
			abort();
		sink += (unsigned)strlen(txt);
		free(txt);
		json_decref(o);
	}
	ws_conn_free(&c);
	return sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Flow f;
	size_t pos = 0;
	volatile unsigned sink = 0;
	unsigned all = APP_TX_LOGGED | APP_TX_DETECT_TS | APP_TX_DETECT_TC | APP_TX_FILE_LOGGED;

	if (!size || !at)
		return 0;
	memset(&f, 0, sizeof(f));
	f.proto = 6;
	f.sp = 40000;
	f.dp = 5432;
	while (pos < size) {
		uint8_t ctl = data[pos++];
		int dir = ctl & 0x80 ? APP_DIR_TOCLIENT : APP_DIR_TOSERVER;
		size_t n = (size_t)(ctl & 0x3f) + 1;
		uint8_t *chunk;

		if (ctl & 0x40) {
			app_layer_handle_data(at, &f, dir, NULL, (uint32_t)(n * 97), APP_GAP);
			continue;
		}
		if (n > size - pos)
			n = size - pos;
		/* a private copy: ASan then flags any read past the chunk */
		chunk = malloc(n ? n : 1);
		if (!chunk)
			break;
		memcpy(chunk, data + pos, n);
		app_layer_handle_data(at, &f, dir, chunk, (uint32_t)n, 0);
		free(chunk);
		pos += n;
		/* detection and logging are done with what is complete */
		for (uint64_t id = 0; f.alstate && id < app_layer_tx_count(&f); id++) {
			void *tx = app_layer_tx_get(&f, id);

			if (tx && f.app_proto == ALPROTO_PGSQL) {
				sink += check_tx(tx);
				app_layer_tx_set_flags(&f, tx, all);
			}
		}
		app_layer_tx_gc(&f, all);
	}
	app_layer_handle_data(at, &f, APP_DIR_TOSERVER, NULL, 0, APP_EOF);
	app_layer_handle_data(at, &f, APP_DIR_TOCLIENT, NULL, 0, APP_EOF);
	app_layer_flow_free(&f);
	sink += websocket_pass(data, size);
	(void)sink;
	return 0;
}
