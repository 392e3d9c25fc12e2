/* libFuzzer harness: DCERPC through the generic app layer, on a TCP
 * stream (connection-oriented PDUs split and joined anyhow) or on UDP
 * datagrams (connectionless), with the keyword matchers, the stub data
 * buffer, the eve object and tx gc; and the PDU library alone the way SMB
 * feeds it (named-pipe reads and writes).
 *
 * Input: a mode byte (bit 0 set: UDP; bit 1 set: the library directly,
 * without the app layer), then chunks, each a control byte then its bytes.
 * Control bit 7 is the direction (set: to client), bit 6 a gap (TCP; no
 * bytes follow), bits 0-5 + 1 the length, except 0x3f: the length is the
 * next two bytes (big endian) + 1. On UDP each chunk is one datagram. A
 * control byte 0xff closes both directions.
 *
 * Built by `make fuzz` with the engine (qa/fuzz/fuzz.mk); seeds:
 * qa/fuzz/dcerpc-seeds.py. */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app-layer/app-layer.h"
#include "app-layer/dcerpc.h"
#include "detect/buffers.h"
#include "detect/dcerpc-kw.h"
#include "detect/detect-parse.h"
#include "output/dcerpc-json.h"
#include "output/output-private.h"
#include "output/json-writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static AppLayerConfig cfg;
static AppLayerThread *at;
static Signature *sigs[3];
static const void *ctx[3];

static const void *first_ctx(Signature *s, int kw)
{
	for (int i = 0; s && i < s->lists[SM_LIST_MATCH].n; i++)
		if (s->lists[SM_LIST_MATCH].m[i].kw == kw)
			return s->lists[SM_LIST_MATCH].m[i].ctx;
	return NULL;
}

static void init(void)
{
	char err[256];

	if (at)
		return;
	app_layer_config_load(&cfg);
	at = app_layer_thread_new(&cfg, NULL);
	output_set_app_proto_namer(app_proto_name);
	sigs[0] = sig_parse("alert dcerpc any any -> any any (dcerpc.iface:"
			    "367abb81-9844-35f1-ad32-98f038001003,>1; sid:1;)", NULL, err, sizeof(err), NULL);
	sigs[1] = sig_parse("alert dcerpc any any -> any any (dcerpc.iface:"
			    "12345678-1234-abcd-ef00-0123456789ab,any_frag; sid:2;)", NULL, err, sizeof(err), NULL);
	sigs[2] = sig_parse("alert dcerpc any any -> any any (dcerpc.opnum:1,5-20,>100; sid:3;)",
			    NULL, err, sizeof(err), NULL);
	ctx[0] = first_ctx(sigs[0], KW_DCERPC_IFACE);
	ctx[1] = first_ctx(sigs[1], KW_DCERPC_IFACE);
	ctx[2] = first_ctx(sigs[2], KW_DCERPC_OPNUM);
	if (!ctx[0] || !ctx[1] || !ctx[2])
		abort();
}

static unsigned look(const struct dcerpc_tx *t, int udp)
{
	unsigned sink = 0;
	const uint8_t *d;
	uint32_t len;
	json_t *j;
	char *txt;

	sink += (unsigned)dcerpc_iface_match(t, ctx[0]) + (unsigned)dcerpc_iface_match(t, ctx[1]);
	sink += (unsigned)dcerpc_opnum_match(t, ctx[2]);
	for (int side = 0; side < 2; side++)
		if (dcerpc_tx_buffer_get(t, side, 0, &d, &len) == 0 && len)
			sink += d[0] + d[len - 1];
	j = dcerpc_json_object(t, udp);
	txt = j ? json_dumps(j, JSON_COMPACT) : NULL;
	/* every string we build must be valid UTF-8 for eve */
	if (!txt)
		abort();
	free(txt);
	json_decref(j);
	return sink;
}

static unsigned walk(Flow *f)
{
	unsigned sink = 0;

	for (uint64_t id = 0; id < app_layer_tx_count(f); id++) {
		void *tx = app_layer_tx_get(f, id);
		if (!tx)
			continue;
		sink += (unsigned)app_layer_tx_progress(f, tx, 0) + (unsigned)app_layer_tx_progress(f, tx, 1);
		if (f->app_proto != ALPROTO_DCERPC)
			continue;
		sink += look(dcerpc_flow_tx(tx), f->proto == 17);
		for (int e = 0; e < DCERPC_EV_COUNT; e++)
			sink += (unsigned)app_layer_tx_has_event(f, tx, e);
		{
			static char line[1 << 20];
			JsonWriter w;

			jw_begin(&w, line, sizeof(line));
			output_tx_alert_write(&w, f, id, NULL);
			sink += (unsigned)jw_end(&w);
		}
		app_layer_tx_set_flags(f, tx, APP_TX_LOGGED | APP_TX_DETECT_TS | APP_TX_DETECT_TC);
	}
	return sink;
}

static int keep_none(const struct dcerpc_tx *t, void *arg)
{
	(void)arg;
	return !dcerpc_tx_complete(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Flow f;
	struct dcerpc_state lib;
	struct dcerpc_limits lim = { .max_stub = 4096, .max_txs = 16 };
	size_t pos = 1;
	unsigned nchunks = 0;
	volatile unsigned sink = 0;
	int udp, direct;

	if (size < 1)
		return 0;
	init();
	udp = data[0] & 1;
	direct = (data[0] & 2) != 0;
	memset(&f, 0, sizeof(f));
	f.proto = udp ? 17 : 6;
	f.ip_version = 4;
	f.src.family = f.dst.family = AF_INET;
	f.src.a.u32[0] = htonl(0x0a000001);
	f.dst.a.u32[0] = htonl(0x0a000002);
	f.sp = 40000;
	f.dp = 135;
	f.start.tv_sec = f.last.tv_sec = 1000;
	dcerpc_state_init(&lib, udp ? DCERPC_CL : DCERPC_CO, &lim);
	while (pos < size) {
		uint8_t c = data[pos++];
		int dir = c & 0x80 ? APP_DIR_TOCLIENT : APP_DIR_TOSERVER;
		size_t n = (size_t)(c & 0x3f) + 1;

		if (c == 0xff) {
			for (int d = 0; d < 2 && !direct; d++)
				app_layer_handle_data(at, &f, d, NULL, 0, APP_EOF);
			continue;
		}
		if ((c & 0x3f) == 0x3f) {
			if (size - pos < 2)
				break;
			n = ((size_t)data[pos] << 8 | data[pos + 1]) + 1;
			pos += 2;
		}
		if (c & 0x40) {
			if (direct)
				dcerpc_gap(&lib, dir == APP_DIR_TOSERVER);
			else
				app_layer_handle_data(at, &f, dir, NULL, (uint32_t)n, APP_GAP);
			continue;
		}
		if (n > size - pos)
			n = size - pos;
		/* a private copy: ASan then flags any read past the chunk */
		uint8_t *chunk = malloc(n ? n : 1);

		if (!chunk)
			break;
		memcpy(chunk, data + pos, n);
		if (direct)
			dcerpc_feed(&lib, dir == APP_DIR_TOSERVER, chunk, n);
		else
			app_layer_handle_data(at, &f, dir, chunk, (uint32_t)n, 0);
		free(chunk);
		pos += n;
		if ((++nchunks & 15) == 0) {
			if (direct) {
				for (const struct dcerpc_tx *t = dcerpc_tx_first(&lib); t; t = t->next)
					sink += look(t, udp);
				dcerpc_tx_gc(&lib, keep_none, NULL);
			} else {
				sink += walk(&f);
				app_layer_tx_gc(&f, APP_TX_LOGGED | APP_TX_DETECT_TS | APP_TX_DETECT_TC);
			}
		}
	}
	for (const struct dcerpc_tx *t = dcerpc_tx_first(&lib); t; t = t->next)
		sink += look(t, udp);
	dcerpc_state_free(&lib);
	sink += walk(&f);
	app_layer_flow_free(&f);
	(void)sink;
	return 0;
}
