/* libFuzzer harness: FTP and ftp-data through the generic app layer: the
 * control-connection parser, transactions and their gc, PORT/EPRT/PASV/
 * EPSV and RETR/STOR expectations, the data flow they label ftp-data, the
 * keyword buffers and the eve members of alerts.
 *
 * Input: chunks, each a control byte then its bytes. Control bit 7 is the
 * direction (set: to client), bit 6 the flow (set: the data flow, whose
 * port is the last one the control flow announced), bit 5 a gap (no bytes
 * follow; bits 0-4 + 1 are its length), otherwise bits 0-4 + 1 the chunk
 * length. A control byte 0xff closes both flows' directions. Between
 * inputs the expectation table is emptied.
 *
 * Built by `make fuzz` with the engine (qa/fuzz/fuzz.mk); seeds:
 * qa/fuzz/ssh-ftp-seeds.py. */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app-layer/app-layer.h"
#include "app-layer/expect.h"
#include "app-layer/ftp.h"
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

static void mkflow(Flow *f, uint32_t src, uint16_t sp, uint32_t dst, uint16_t dp)
{
	memset(f, 0, sizeof(*f));
	f->proto = 6;
	f->ip_version = 4;
	f->src.family = f->dst.family = AF_INET;
	f->src.a.u32[0] = src;
	f->dst.a.u32[0] = dst;
	f->sp = sp;
	f->dp = dp;
	f->start.tv_sec = f->last.tv_sec = 1000;
}

/* the last data port the control flow's transactions name */
static uint16_t last_port(const Flow *f)
{
	uint16_t port = 0;

	/* the input may have made it another protocol */
	if (f->app_proto != ALPROTO_FTP)
		return 0;
	for (uint64_t id = 0; id < app_layer_tx_count(f); id++) {
		const FtpTx *t = app_layer_tx_get(f, id);

		if (t && t->dyn_port)
			port = t->dyn_port;
	}
	return port;
}

static unsigned walk(Flow *f)
{
	static const int bufs[] = { BUF_FTP_COMMAND, BUF_FTP_COMMAND_DATA, BUF_FTP_REPLY,
				    BUF_FTP_COMPLETION_CODE };
	unsigned sink = 0;

	for (uint64_t id = 0; id < app_layer_tx_count(f); id++) {
		void *tx = app_layer_tx_get(f, id);
		json_t *j;

		if (!tx)
			continue;
		sink += (unsigned)app_layer_tx_progress(f, tx, 0) + (unsigned)app_layer_tx_progress(f, tx, 1);
		if (f->app_proto == ALPROTO_FTP) {
			for (size_t b = 0; b < sizeof(bufs) / sizeof(bufs[0]); b++) {
				const DetectBuffer *db = detect_buffer(bufs[b]);
				const uint8_t *d;
				uint32_t len;

				for (uint32_t i = 0; i < 70 && ftp_buffer_get(db, tx, db->side & 1, i, &d, &len) == 0; i++)
					if (len)
						sink += d[0] + d[len - 1];
			}
		}
		for (int e = 0; e < FTP_EV_COUNT; e++)
			sink += (unsigned)app_layer_tx_has_event(f, tx, e);
		/* every alert member we write must be valid JSON (UTF-8); a NUL
		 * off the wire is written \u0000, which JSON allows */
		{
			static char line[1 << 20];
			JsonWriter w;
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
	return sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Flow ctl, dat;
	size_t pos = 0;
	int have_data = 0;
	unsigned nchunks = 0;
	volatile unsigned sink = 0;
	uint32_t cli = htonl(0x0a000001), srv = htonl(0x0a000002);

	init();
	mkflow(&ctl, cli, 40000, srv, 21);
	while (pos < size) {
		uint8_t c = data[pos++];
		int dir = c & 0x80 ? APP_DIR_TOCLIENT : APP_DIR_TOSERVER;
		Flow *f = &ctl;
		size_t n = (size_t)(c & 0x1f) + 1;

		if (c == 0xff) {
			for (int d = 0; d < 2; d++) {
				app_layer_handle_data(at, &ctl, d, NULL, 0, APP_EOF);
				if (have_data)
					app_layer_handle_data(at, &dat, d, NULL, 0, APP_EOF);
			}
			continue;
		}
		if (c & 0x40) {
			if (!have_data) {
				uint16_t p = last_port(&ctl);

				/* passive: client to server; active: back from 20 */
				if (p & 1)
					mkflow(&dat, srv, 20, cli, p);
				else
					mkflow(&dat, cli, 40001, srv, p);
				have_data = 1;
			}
			f = &dat;
		}
		if (c & 0x20) {
			app_layer_handle_data(at, f, dir, NULL, (uint32_t)n, APP_GAP);
			continue;
		}
		if (n > size - pos)
			n = size - pos;
		/* a private copy: ASan then flags any read past the chunk */
		uint8_t *chunk = malloc(n ? n : 1);

		if (!chunk)
			break;
		memcpy(chunk, data + pos, n);
		app_layer_handle_data(at, f, dir, chunk, (uint32_t)n, 0);
		free(chunk);
		pos += n;
		/* now and then: the buffers, json and gc mid-flow */
		if ((++nchunks & 15) == 0) {
			sink += walk(f);
			app_layer_tx_gc(f, APP_TX_LOGGED | APP_TX_DETECT_TS | APP_TX_DETECT_TC);
		}
	}
	sink += walk(&ctl);
	app_layer_flow_free(&ctl);
	if (have_data) {
		sink += walk(&dat);
		app_layer_flow_free(&dat);
	}
	expect_clear();
	(void)sink;
	return 0;
}
