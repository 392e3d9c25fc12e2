/* libFuzzer harness: POP3 through the generic app layer on a TCP flow to
 * port 110 (detection, the line parser, multi-line bodies, pipelining,
 * SASL continuations, the STLS hand-over to TLS, tx gc, the eve alert
 * members parsed back), and mDNS on a UDP flow to 5353 (the DNS parser
 * under mdns-proto.c, the mdns buffers and eve members).
 *
 * Input: chunks, each a control byte then its bytes. Control bit 7 is the
 * direction (set: to client), bit 6 the flow (set: the mDNS one, each
 * chunk a datagram of (bits 0-4 + 1) * 16 bytes), bit 5 a gap on the
 * POP3 flow (bits 0-4 + 1 bytes lost, none follow), otherwise bits 0-4 +
 * 1 bytes of the POP3 flow. Each input starts on new flows.
 *
 * Built by `make fuzz` with the engine (qa/fuzz/fuzz.mk); seeds: the POP3
 * flows of suricata-verify and the mDNS datagrams (qa/fuzz/sip-seeds.py
 * --pop3). */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app-layer/app-layer.h"
#include "app-layer/mdns.h"
#include "detect/buffers.h"
#include "output/output-private.h"
#include "output/json-writer.h"

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

static void mkflow(Flow *f, uint8_t proto, uint16_t port)
{
	memset(f, 0, sizeof(*f));
	f->proto = proto;
	f->ip_version = 4;
	f->src.family = f->dst.family = AF_INET;
	f->src.a.u32[0] = htonl(0x0a000001);
	f->dst.a.u32[0] = htonl(0x0a000002);
	f->sp = port == 5353 ? 5353 : 40000;
	f->dp = port;
	f->start.tv_sec = f->last.tv_sec = 1000;
}

static unsigned walk(Flow *f)
{
	unsigned sink = 0;

	if (f->app_proto != ALPROTO_POP3 && f->app_proto != ALPROTO_MDNS)
		return 0;
	for (uint64_t id = app_layer_tx_low(f); id < app_layer_tx_count(f); id++) {
		void *tx = app_layer_tx_get(f, id);
		static char line[1 << 20];
		JsonWriter w;
		json_t *j;
		size_t n;

		if (!tx)
			continue;
		if (f->app_proto == ALPROTO_MDNS)
			for (int b = BUF_MDNS_QUERIES_RRNAME; b <= BUF_MDNS_RESPONSE_RRNAME; b++)
				for (int side = 0; side < 2; side++) {
					const uint8_t *d;
					uint32_t len;

					for (uint32_t i = 0; i < 300 && mdns_buffer_get(detect_buffer(b), tx,
							side, i, &d, &len) == 0; i++)
						if (len)
							sink += d[0] + d[len - 1];
				}
		/* every alert member we write must be valid JSON */
		jw_begin(&w, line, sizeof(line));
		output_tx_alert_write(&w, f, id, NULL);
		if ((n = jw_end(&w)) != 0) {
			if (!(j = json_loadb(line, n, JSON_ALLOW_NUL, NULL)))
				abort();
			json_decref(j);
		}
		app_layer_tx_set_flags(f, tx, APP_TX_LOGGED | APP_TX_DETECT_TS | APP_TX_DETECT_TC);
	}
	app_layer_tx_gc(f, APP_TX_LOGGED | APP_TX_DETECT_TS | APP_TX_DETECT_TC);
	return sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Flow pop, md;
	size_t pos = 0;
	volatile unsigned sink = 0;

	init();
	mkflow(&pop, 6, 110);
	mkflow(&md, 17, 5353);
	while (pos < size) {
		uint8_t c = data[pos++];
		int dir = c & 0x80 ? APP_DIR_TOCLIENT : APP_DIR_TOSERVER;
		Flow *f = c & 0x40 ? &md : &pop;
		size_t n = (size_t)(c & 0x1f) + 1;
		uint8_t *chunk;

		if ((c & 0x20) && f == &pop) {
			app_layer_handle_data(at, f, dir, NULL, (uint32_t)n, APP_GAP);
			continue;
		}
		if (f == &md)
			n *= 16;
		if (n > size - pos)
			n = size - pos;
		/* a private copy: ASan then flags any read past the chunk */
		chunk = malloc(n ? n : 1);
		if (!chunk)
			break;
		memcpy(chunk, data + pos, n);
		/* the flow's packets: a protocol change waits for a later one */
		if (dir == APP_DIR_TOSERVER)
			f->pkts_toserver++;
		else
			f->pkts_toclient++;
		app_layer_handle_data(at, f, dir, chunk, (uint32_t)n, 0);
		free(chunk);
		pos += n;
		sink += walk(f);
	}
	app_layer_handle_data(at, &pop, APP_DIR_TOSERVER, NULL, 0, APP_EOF);
	app_layer_handle_data(at, &pop, APP_DIR_TOCLIENT, NULL, 0, APP_EOF);
	sink += walk(&pop) + walk(&md);
	app_layer_flow_free(&pop);
	app_layer_flow_free(&md);
	(void)sink;
	return 0;
}
