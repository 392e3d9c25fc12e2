/* libFuzzer harness: SIP through the generic app layer on a TCP and a UDP
 * flow: detection, the message parser (start lines, headers and their
 * compact forms, Content-Length bodies, SDP), transactions and their gc,
 * the keyword buffers and the eve members of alerts; and the parser alone
 * on the whole input, as a stream and as a datagram.
 *
 * Input: chunks, each a control byte then its bytes. Control bit 7 is the
 * direction (set: to client), bit 6 the flow (set: the UDP one, where each
 * chunk is a datagram), bit 5 a gap on the TCP flow (no bytes follow;
 * bits 0-4 + 1 are its length), otherwise bits 0-4 + 1 are the chunk
 * length, times 16 with the UDP bit (datagrams are larger). A control
 * byte 0xff closes the TCP flow's directions.
 *
 * Built by `make fuzz` with the engine (qa/fuzz/fuzz.mk); seeds: the SIP
 * captures of suricata-verify, as chunks (qa/fuzz/sip-seeds.py). */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app-layer/app-layer.h"
#include "app-layer/sip.h"
#include "detect/buffers.h"
#include "output/output-private.h"
#include "output/json-writer.h"
#include "output/sip-json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static AppLayerConfig cfg;
static AppLayerThread *at;

static void init(void)
{
	if (at)
		return;
	app_layer_config_load(&cfg);
	at = app_layer_thread_new(&cfg, NULL);
	output_set_app_proto_namer(app_proto_name);
}

static void mkflow(Flow *f, uint8_t proto)
{
	memset(f, 0, sizeof(*f));
	f->proto = proto;
	f->ip_version = 4;
	f->src.family = f->dst.family = AF_INET;
	f->src.a.u32[0] = htonl(0x0a000001);
	f->dst.a.u32[0] = htonl(0x0a000002);
	f->sp = 40000;
	f->dp = 5060;
	f->start.tv_sec = f->last.tv_sec = 1000;
}

static unsigned walk(Flow *f)
{
	unsigned sink = 0;

	if (f->app_proto != ALPROTO_SIP)
		return 0;
	for (uint64_t id = app_layer_tx_low(f); id < app_layer_tx_count(f); id++) {
		void *tx = app_layer_tx_get(f, id);

		if (!tx)
			continue;
		for (int b = BUF_SIP_METHOD; b <= BUF_SDP_MEDIA_ENCRYPTION_KEY; b++) {
			const DetectBuffer *db = detect_buffer(b);
			const uint8_t *d;
			uint32_t len;

			for (int side = 0; side < 2; side++)
				for (uint32_t i = 0; i < 200 && sip_buffer_get(db, tx, side, i, &d, &len) == 0; i++)
					if (len)
						sink += d[0] + d[len - 1];
		}
		for (int e = 0; e < SIP_EV_COUNT; e++)
			sink += (unsigned)app_layer_tx_has_event(f, tx, e);
		/* every alert member we write must be valid JSON */
		{
			static char line[1 << 20];
			JsonWriter w;
			json_t *j;
			size_t n;

			jw_begin(&w, line, sizeof(line));
			output_tx_alert_write(&w, f, id, NULL);
			if ((n = jw_end(&w)) != 0) {
				if (!(j = json_loadb(line, n, JSON_ALLOW_NUL, NULL)))
					abort();
				json_decref(j);
			}
		}
		app_layer_tx_set_flags(f, tx, APP_TX_LOGGED | APP_TX_DETECT_TS | APP_TX_DETECT_TC);
	}
	app_layer_tx_gc(f, APP_TX_LOGGED | APP_TX_DETECT_TS | APP_TX_DETECT_TC);
	return sink;
}

/* the parser alone, every message of the input in both modes */
static unsigned whole(const uint8_t *data, size_t size)
{
	unsigned sink = 0;

	for (int stream = 0; stream < 2; stream++) {
		size_t off = 0;

		while (off < size) {
			SipMsg *m;
			uint32_t used;

			if (sip_msg_parse(data + off, (uint32_t)(size - off), stream, &m, &used) != SIP_OK)
				break;
			json_decref(sip_json_object(m));
			sink += m->nhdr + m->nsdp;
			sip_msg_free(m);
			off += used ? used : 1;
		}
	}
	return sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Flow tcp, udp;
	size_t pos = 0;
	volatile unsigned sink = 0;
	int req;

	init();
	mkflow(&tcp, 6);
	mkflow(&udp, 17);
	sink += (unsigned)sip_probe_line(data, (uint32_t)size, &req);
	sink += (unsigned)sip_probe_prefix(data, (uint32_t)size, &req);
	sink += whole(data, size);
	while (pos < size) {
		uint8_t c = data[pos++];
		int dir = c & 0x80 ? APP_DIR_TOCLIENT : APP_DIR_TOSERVER;
		Flow *f = c & 0x40 ? &udp : &tcp;
		size_t n = (size_t)(c & 0x1f) + 1;
		uint8_t *chunk;

		if (c == 0xff) {
			app_layer_handle_data(at, &tcp, APP_DIR_TOSERVER, NULL, 0, APP_EOF);
			app_layer_handle_data(at, &tcp, APP_DIR_TOCLIENT, NULL, 0, APP_EOF);
			continue;
		}
		if ((c & 0x20) && f == &tcp) {
			app_layer_handle_data(at, f, dir, NULL, (uint32_t)n, APP_GAP);
			continue;
		}
		if (f == &udp)
			n *= 16;
		if (n > size - pos)
			n = size - pos;
		/* a private copy: ASan then flags any read past the chunk */
		chunk = malloc(n ? n : 1);
		if (!chunk)
			break;
		memcpy(chunk, data + pos, n);
		if (app_layer_handle_data(at, f, dir, chunk, (uint32_t)n, 0) == APP_REVERSE)
			app_layer_handle_data(at, f, !dir, chunk, (uint32_t)n, 0);
		free(chunk);
		pos += n;
		sink += walk(f);
	}
	sink += walk(&tcp) + walk(&udp);
	app_layer_flow_free(&tcp);
	app_layer_flow_free(&udp);
	(void)sink;
	return 0;
}
