/* libFuzzer harness: IKE, BitTorrent DHT and NFS (their decoding,
 * transactions, eve objects and IKE's keyword buffers), through the
 * generic app layer on one flow made from the input.
 *
 * Input: a first byte picking the flow (its value mod 5: IKE to UDP 500,
 * IKE to UDP 4500 behind the non-ESP marker, DHT to UDP 6881, NFS to UDP
 * 2049, NFS to TCP 2049), then chunks, each a control byte (bit 7 set: to
 * client), a 16-bit big-endian length (mod 4096) and its bytes. A chunk is
 * one call, as the worker makes it: a datagram, or stream bytes on TCP.
 *
 * Built by `make fuzz` with the engine (qa/fuzz/fuzz.mk); seeds:
 * qa/fuzz/misc-seeds.py writes suricata-verify's IKE flows and the shared
 * DHT captures in this format. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app-layer/app-layer.h"
#include "app-layer/bittorrent-dht.h"
#include "app-layer/ike.h"
#include "app-layer/nfs.h"
#include "detect/buffers.h"
#include "output/bittorrent-dht-json.h"
#include "output/ike-json.h"
#include "output/nfs-json.h"
#include "fuzz-common.h"
#include "fuzz-engine.h"

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

static const struct {
	uint8_t proto;
	uint16_t dp;
} flows[] = { { 17, 500 }, { 17, 4500 }, { 17, 6881 }, { 17, 2049 }, { 6, 2049 } };

static const int bufs[] = {
	BUF_IKE_INIT_SPI, BUF_IKE_RESP_SPI, BUF_IKE_VENDOR, BUF_IKE_KE, BUF_IKE_NONCE,
};

static unsigned check_tx(const Flow *f, void *tx)
{
	json_t *o = NULL;
	unsigned sink = 0;

	switch (f->app_proto) {
	case ALPROTO_IKE:
		if (((IkeTx *)tx)->valid)
			o = ike_json_object(tx, 1);
		break;
	case ALPROTO_BITTORRENT_DHT:
		if (((DhtTx *)tx)->valid)
			o = dht_json_object(&((DhtTx *)tx)->m);
		break;
	case ALPROTO_NFS:
		o = nfs_json_object(tx);
		break;
	}
	sink += fuzz_tx_eve_object(o);
	sink += fuzz_tx_buffers(bufs, sizeof(bufs) / sizeof(bufs[0]), f->app_proto, tx);
	return sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Flow f;
	size_t pos = 1;
	volatile unsigned sink = 0;
	unsigned all = APP_TX_LOGGED | APP_TX_DETECT_TS | APP_TX_DETECT_TC | APP_TX_FILE_LOGGED;

	if (!size || !at)
		return 0;
	memset(&f, 0, sizeof(f));
	f.proto = flows[data[0] % 5].proto;
	f.sp = 40000;
	f.dp = flows[data[0] % 5].dp;
	while (pos + 3 <= size) {
		int dir = data[pos] & 0x80 ? APP_DIR_TOCLIENT : APP_DIR_TOSERVER;
		size_t n = (size_t)((data[pos + 1] << 8 | data[pos + 2]) & 0x0fff);
		uint8_t *chunk;

		pos += 3;
		if (n > size - pos)
			n = size - pos;
		/* a private copy: ASan then flags any read past the datagram */
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

			if (tx && (f.app_proto == ALPROTO_IKE || f.app_proto == ALPROTO_NFS ||
				   f.app_proto == ALPROTO_BITTORRENT_DHT)) {
				sink += check_tx(&f, tx);
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
