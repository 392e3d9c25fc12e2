/* libFuzzer harness: HTTP/2 through the generic app layer on a TCP flow to
 * port 80 (detection on the client preface, or HTTP/1 and a 101 to
 * "Upgrade: h2c"; frames of every type cut anywhere, HPACK through
 * libnghttp2, CONTINUATIONs, padding, long frames, gaps, tx gc), every
 * http.* and http2.* buffer of each transaction, and the eve alert member
 * parsed back as JSON; DoH requests' and answers' DNS messages (doh2) and
 * their eve dns object.
 *
 * Input: chunks, each a control byte then its bytes. Control bit 7 is the
 * direction (set: to client), bit 6 a gap (bits 0-5 + 1 bytes lost, none
 * follow), otherwise bits 0-5 + 1 bytes of the flow. Each input starts on
 * a new flow.
 *
 * Built by `make fuzz` with the engine (qa/fuzz/fuzz.mk); seeds: any
 * HTTP/2 flow in this format (qa/fuzz/RESULTS.md says what ran). */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app-layer/app-layer.h"
#include "app-layer/dns-parse.h"
#include "app-layer/doh2.h"
#include "detect/buffers.h"
#include "output/output-private.h"
#include "output/json-writer.h"
#include "output/doh2-json.h"

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

static void mkflow(Flow *f)
{
	memset(f, 0, sizeof(*f));
	f->proto = 6;
	f->ip_version = 4;
	f->src.family = f->dst.family = AF_INET;
	f->src.a.u32[0] = htonl(0x0a000001);
	f->dst.a.u32[0] = htonl(0x0a000002);
	f->sp = 40000;
	f->dp = 80;
	f->start.tv_sec = f->last.tv_sec = 1000;
}

static unsigned walk(Flow *f)
{
	unsigned sink = 0;

	if (f->app_proto != ALPROTO_HTTP2)
		return 0;
	for (uint64_t id = app_layer_tx_low(f); id < app_layer_tx_count(f); id++) {
		void *tx = app_layer_tx_get(f, id);
		static char line[1 << 20];
		JsonWriter w;
		json_t *j;
		size_t n;

		if (!tx)
			continue;
		for (int b = 1; b < BUF_MAX; b++) {
			const DetectBuffer *db = detect_buffer(b);

			if (db->alproto != ALPROTO_HTTP1 && db->alproto != ALPROTO_HTTP2)
				continue;
			for (int side = 0; side < 2; side++) {
				const uint8_t *d;
				uint32_t len;

				for (uint32_t i = 0; i < 2000 && http2_buffer_get(db, tx, side, i, &d,
										 &len) == 0; i++)
					if (len)
						sink += d[0] + d[len - 1];
			}
		}
		/* a DoH request or answer: its messages and the doh2 dns object */
		{
			struct dns_msg *q, *a;

			if (doh2_tx_msgs(tx, &q, &a)) {
				jw_begin(&w, line, sizeof(line));
				doh2_json_dns_write(&w, q, a, id);
				if ((n = jw_end(&w)) != 0) {
					if (!(j = json_loadb(line, n, JSON_ALLOW_NUL, NULL)))
						abort();
					json_decref(j);
				}
				dns_msg_free(q);
				dns_msg_free(a);
			}
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
	Flow f;
	size_t pos = 0;
	volatile unsigned sink = 0;

	init();
	mkflow(&f);
	while (pos < size) {
		uint8_t c = data[pos++];
		int dir = c & 0x80 ? APP_DIR_TOCLIENT : APP_DIR_TOSERVER;
		size_t n = (size_t)(c & 0x3f) + 1;
		uint8_t *chunk;

		if (c & 0x40) {
			app_layer_handle_data(at, &f, dir, NULL, (uint32_t)n, APP_GAP);
			continue;
		}
		if (n > size - pos)
			n = size - pos;
		/* a private copy: ASan then flags any read past the chunk */
		chunk = malloc(n ? n : 1);
		if (!chunk)
			break;
		memcpy(chunk, data + pos, n);
		/* the flow's packets: a protocol change waits for a later one */
		if (dir == APP_DIR_TOSERVER)
			f.pkts_toserver++;
		else
			f.pkts_toclient++;
		app_layer_handle_data(at, &f, dir, chunk, (uint32_t)n, 0);
		free(chunk);
		pos += n;
		sink += walk(&f);
	}
	app_layer_handle_data(at, &f, APP_DIR_TOSERVER, NULL, 0, APP_EOF);
	app_layer_handle_data(at, &f, APP_DIR_TOCLIENT, NULL, 0, APP_EOF);
	sink += walk(&f);
	app_layer_flow_free(&f);
	(void)sink;
	return 0;
}
