/* libFuzzer harness: DHCP, TFTP and NTP (their decoding, transactions,
 * eve objects and keyword buffers), through the generic app layer on one
 * UDP flow made from the input.
 *
 * Input: a first byte picking the flow (its value mod 4: DHCP 68 -> 67,
 * DHCP 67 -> 68, TFTP to 69, NTP 123 -> 123), then datagrams, each a
 * control byte (bit 7 set: to client), a big-endian 16-bit length and
 * its bytes (cut at the input's end). Lengths reach past DHCP's 240-byte
 * header, so options are reached.
 *
 * Built by `make fuzz` with the engine (qa/fuzz/fuzz.mk); seeds:
 * qa/fuzz/udp-seeds.py writes the shared captures' and suricata-verify's
 * DHCP, TFTP and NTP datagrams in this format. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app-layer/app-layer.h"
#include "app-layer/dhcp.h"
#include "app-layer/ntp.h"
#include "app-layer/tftp.h"
#include "detect/buffers.h"
#include "output/dhcp-json.h"
#include "output/ntp-json.h"
#include "output/tftp-json.h"
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

static const struct {
	uint16_t sp, dp;
} flows[] = { { 68, 67 }, { 67, 68 }, { 40000, 69 }, { 123, 123 } };

static unsigned dump(json_t *o)
{
	unsigned n = 0;
	char *txt;

	if (!o)
		return 0;
	/* every string written must be valid UTF-8 for eve */
	txt = json_dumps(o, JSON_COMPACT);
	if (!txt)
		abort();
	n = (unsigned)strlen(txt);
	free(txt);
	json_decref(o);
	return n;
}

static unsigned check_tx(const Flow *f, void *tx)
{
	unsigned sink = 0;

	switch (f->app_proto) {
	case ALPROTO_DHCP:
		sink += dump(dhcp_json_object(&((DhcpTx *)tx)->m, 0));
		sink += dump(dhcp_json_object(&((DhcpTx *)tx)->m, 1));
		break;
	case ALPROTO_TFTP:
		sink += dump(tftp_json_object(&((TftpTx *)tx)->r));
		break;
	case ALPROTO_NTP:
		if (((NtpTx *)tx)->valid) {
			const DetectBuffer *b = detect_buffer(BUF_NTP_REFERENCE_ID);
			const uint8_t *d;
			uint32_t len;

			sink += dump(ntp_json_object(&((NtpTx *)tx)->m));
			for (int side = 0; side < 2; side++)
				if (b->get(b, tx, side, 0, &d, &len) == 0 && len)
					sink += d[0] + d[len - 1];
		}
		break;
	}
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
	f.proto = 17;
	f.sp = flows[data[0] % 4].sp;
	f.dp = flows[data[0] % 4].dp;
	while (pos + 3 <= size) {
		uint8_t ctl = data[pos];
		int dir = ctl & 0x80 ? APP_DIR_TOCLIENT : APP_DIR_TOSERVER;
		size_t n = (size_t)data[pos + 1] << 8 | data[pos + 2];
		uint8_t *dgram;

		pos += 3;
		if (n > size - pos)
			n = size - pos;
		/* a private copy: ASan then flags any read past the datagram */
		dgram = malloc(n ? n : 1);
		if (!dgram)
			break;
		memcpy(dgram, data + pos, n);
		app_layer_handle_data(at, &f, dir, dgram, (uint32_t)n, 0);
		free(dgram);
		pos += n;
		/* detection and logging are done with what is complete */
		for (uint64_t id = 0; f.alstate && id < app_layer_tx_count(&f); id++) {
			void *tx = app_layer_tx_get(&f, id);

			if (tx && (f.app_proto == ALPROTO_DHCP || f.app_proto == ALPROTO_TFTP ||
				   f.app_proto == ALPROTO_NTP)) {
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
