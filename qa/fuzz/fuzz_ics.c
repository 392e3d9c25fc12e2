/* libFuzzer harness: the industrial protocols, EtherNet/IP/CIP (TCP and
 * UDP) and Modbus/TCP (their PDU framing, decoding, request/response
 * pairing, frames, eve objects and keyword buffers), through the generic
 * app layer on one flow made from the input.
 *
 * Input: fuzz_ber's format. A first byte picking the flow (its value mod
 * 3: EtherNet/IP over TCP to 44818, over UDP to 44818, Modbus over TCP to
 * 502), then chunks, each a control byte then its bytes: bit 7 the
 * direction (set: to client); bit 6 set makes the chunk a gap of (bits
 * 0-5 + 1) * 97 bytes on TCP; else bits 0-5 + 1 is the chunk length (on
 * UDP, one datagram).
 *
 * Built by `make fuzz` with the engine (qa/fuzz/fuzz.mk); seeds:
 * qa/fuzz/ics-seeds.py writes suricata-verify's and the shared captures'
 * EtherNet/IP and Modbus flows in this format. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app-layer/app-layer.h"
#include "app-layer/enip.h"
#include "app-layer/modbus.h"
#include "conf/conf.h"
#include "detect/buffers.h"
#include "output/enip-json.h"
#include "output/modbus-json.h"
#include "fuzz-common.h"
#include "fuzz-engine.h"

static AppLayerConfig cfg;
static AppLayerThread *at;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	/* both are off in Suricata's default yaml */
	conf_set("app-layer.protocols.enip.enabled", "yes");
	conf_set("app-layer.protocols.modbus.enabled", "yes");
	app_layer_config_load(&cfg);
	at = app_layer_thread_new(&cfg, NULL);
	return 0;
}

static const struct {
	uint8_t proto;
	uint16_t dp;
} flows[] = { { 6, 44818 }, { 17, 44818 }, { 6, 502 } };

static const int bufs[] = { BUF_ENIP_PRODUCT_NAME, BUF_ENIP_SERVICE_NAME };

static unsigned check_tx(const Flow *f, void *tx)
{
	json_t *o = NULL;
	unsigned sink = 0;

	if (f->app_proto == ALPROTO_ENIP)
		o = enip_json_object(tx);
	else if (f->app_proto == ALPROTO_MODBUS)
		o = modbus_json_object(tx);
	sink += fuzz_tx_eve_object(o);
	sink += fuzz_tx_buffers(bufs, sizeof(bufs) / sizeof(bufs[0]), f->app_proto, tx);
	return sink;
}

static int ours(const Flow *f)
{
	return f->app_proto == ALPROTO_ENIP || f->app_proto == ALPROTO_MODBUS;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Flow f;
	size_t pos = 1;
	uint64_t seen = 0;
	volatile unsigned sink = 0;
	unsigned all = APP_TX_LOGGED | APP_TX_DETECT_TS | APP_TX_DETECT_TC | APP_TX_FILE_LOGGED;

	if (!size || !at)
		return 0;
	memset(&f, 0, sizeof(f));
	f.proto = flows[data[0] % 3].proto;
	f.sp = 40000;
	f.dp = flows[data[0] % 3].dp;
	while (pos < size) {
		uint8_t ctl = data[pos++];
		int dir = ctl & 0x80 ? APP_DIR_TOCLIENT : APP_DIR_TOSERVER;
		size_t n = (size_t)(ctl & 0x3f) + 1;
		uint8_t *chunk;

		if (ctl & 0x40) {
			if (f.proto == 6)
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
		/* each new transaction is written and read once (a request
		 * waiting for its response is again at the end: writing every
		 * live one per chunk made the run quadratic); detection and
		 * logging are then done with it */
		for (; f.alstate && seen < app_layer_tx_count(&f); seen++) {
			void *tx = app_layer_tx_get(&f, seen);

			if (tx && ours(&f)) {
				sink += check_tx(&f, tx);
				app_layer_tx_set_flags(&f, tx, all);
			}
		}
		app_layer_tx_gc(&f, all);
	}
	app_layer_handle_data(at, &f, APP_DIR_TOSERVER, NULL, 0, APP_EOF);
	app_layer_handle_data(at, &f, APP_DIR_TOCLIENT, NULL, 0, APP_EOF);
	for (uint64_t id = 0; f.alstate && id < app_layer_tx_count(&f); id++) {
		void *tx = app_layer_tx_get(&f, id);

		if (tx && ours(&f))
			sink += check_tx(&f, tx);
	}
	app_layer_flow_free(&f);
	(void)sink;
	return 0;
}
