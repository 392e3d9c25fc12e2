/* libFuzzer harness: DNP3 (link frames and their CRCs, transport
 * reassembly and its bound, the application decoder, transactions, the
 * eve object and the dnp3.data buffer), through the generic app layer on
 * one TCP flow to 20000, dnp3 enabled.
 *
 * Input: a first byte picking the mode, then chunks, each a control byte
 * then its bytes. Control bit 7 is the direction (set: to client); bit 6
 * set makes the chunk a gap of (bits 0-5 + 1) * 97 bytes; else bits 0-5 +
 * 1 is the chunk length. Mode (first byte odd): each chunk is a frame's
 * user data, its length the byte after the control byte (at most 250
 * used), wrapped here in a link header and block CRCs that hold, so
 * that the transport and application layers are reached (random bytes
 * almost never carry valid CRCs); even: the chunks are the stream's own
 * bytes. The whole input is also given to the application decoder as one
 * message each way.
 *
 * Built by `make fuzz` with the engine (qa/fuzz/fuzz.mk); seeds:
 * qa/fuzz/dnp3-seeds.py writes suricata-verify's DNP3 flows in this
 * format. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app-layer/app-layer.h"
#include "app-layer/dnp3.h"
#include "conf/conf.h"
#include "detect/buffers.h"
#include "output/dnp3-json.h"
#include "fuzz-common.h"

static AppLayerConfig cfg;
static AppLayerThread *at;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	conf_set("app-layer.protocols.dnp3.enabled", "yes");
	app_layer_config_load(&cfg);
	at = app_layer_thread_new(&cfg, NULL);
	return 0;
}

static unsigned check_tx(Dnp3Tx *tx)
{
	const DetectBuffer *b = detect_buffer(BUF_DNP3_DATA);
	json_t *o = dnp3_json_object(tx);
	unsigned sink = 0;
	const uint8_t *d;
	uint32_t len;
	char *txt;

	/* every string written must be valid UTF-8 for eve */
	if (!o || !(txt = json_dumps(o, JSON_COMPACT)))
		abort();
	sink += (unsigned)strlen(txt);
	free(txt);
	json_decref(o);
	if (b->get(b, tx, 0, 0, &d, &len) == 0 && len)
		sink += d[0] + d[len - 1];
	return sink;
}

/* n bytes of user data (at most 250) as one frame with good CRCs */
static size_t wrap(uint8_t *out, int dir, const uint8_t *ud, size_t n)
{
	size_t o = 0;
	uint16_t c;

	out[o++] = 0x05;
	out[o++] = 0x64;
	out[o++] = (uint8_t)(5 + n);
	out[o++] = dir == APP_DIR_TOSERVER ? 0xc4 : 0x44;
	out[o++] = 1;
	out[o++] = 0;
	out[o++] = 2;
	out[o++] = 0;
	c = dnp3_crc(out, 8);
	out[o++] = (uint8_t)c;
	out[o++] = (uint8_t)(c >> 8);
	for (size_t i = 0; i < n; i += DNP3_BLOCK) {
		size_t k = n - i < DNP3_BLOCK ? n - i : DNP3_BLOCK;

		memcpy(out + o, ud + i, k);
		c = dnp3_crc(ud + i, k);
		o += k;
		out[o++] = (uint8_t)c;
		out[o++] = (uint8_t)(c >> 8);
	}
	return o;
}

static void decode_whole(const uint8_t *data, size_t size, int is_request)
{
	Dnp3Tx tx = { 0 };

	tx.is_request = (uint8_t)is_request;
	tx.m.buf = malloc(size ? size : 1);
	if (!tx.m.buf)
		return;
	memcpy(tx.m.buf, data, size);
	tx.m.len = tx.m.cap = (uint32_t)size;
	dnp3_decode_app(&tx.m, is_request);
	check_tx(&tx);
	dnp3_msg_free(&tx.m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Flow f;
	size_t pos = 1;
	volatile unsigned sink = 0;
	unsigned all = APP_TX_LOGGED | APP_TX_DETECT_TS | APP_TX_DETECT_TC | APP_TX_FILE_LOGGED;
	int framed;

	if (!size || !at)
		return 0;
	framed = data[0] & 1;
	if (size <= DNP3_MAX_REASSEMBLY) {
		decode_whole(data + 1, size - 1, 1);
		decode_whole(data + 1, size - 1, 0);
	}
	memset(&f, 0, sizeof(f));
	f.proto = 6;
	f.sp = 40000;
	f.dp = 20000;
	while (pos < size) {
		uint8_t ctl = data[pos++];
		int dir = ctl & 0x80 ? APP_DIR_TOCLIENT : APP_DIR_TOSERVER;
		size_t n = (size_t)(ctl & 0x3f) + 1;
		uint8_t *chunk;
		size_t clen;

		if (ctl & 0x40) {
			app_layer_handle_data(at, &f, dir, NULL, (uint32_t)(n * 97), APP_GAP);
			continue;
		}
		if (framed) {
			/* the next byte is the user data's length */
			if (pos >= size)
				break;
			n = data[pos++];
		}
		if (n > size - pos)
			n = size - pos;
		if (framed && n > 250)
			n = 250;
		/* a private copy: ASan then flags any read past the chunk */
		chunk = malloc(DNP3_MAX_FRAME);
		if (!chunk)
			break;
		if (framed) {
			clen = n ? wrap(chunk, dir, data + pos, n) : 0;
		} else {
			memcpy(chunk, data + pos, n);
			clen = n;
		}
		if (clen)
			app_layer_handle_data(at, &f, dir, chunk, (uint32_t)clen, 0);
		free(chunk);
		pos += n;
		/* detection and logging are done with what is complete */
		for (uint64_t id = 0; f.alstate && f.app_proto == ALPROTO_DNP3 &&
				      id < app_layer_tx_count(&f); id++) {
			void *tx = app_layer_tx_get(&f, id);

			if (tx) {
				sink += check_tx(tx);
				app_layer_tx_set_flags(&f, tx, all);
			}
		}
		app_layer_tx_gc(&f, all);
	}
	app_layer_handle_data(at, &f, APP_DIR_TOSERVER, NULL, 0, APP_EOF);
	app_layer_handle_data(at, &f, APP_DIR_TOCLIENT, NULL, 0, APP_EOF);
	app_layer_flow_free(&f);
	(void)sink;
	return 0;
}
