/* fuzz_http: the HTTP parser hooks (app-layer/http.c over libhtp): protocol
 * detection, request and response parsing per direction, gaps and EOF, and
 * every transaction accessor detection and eve logging use.
 *
 * One input is a list of chunks, each fed to the flow in its direction:
 *     [1 byte: bit 0 direction (0 to server, 1 to client), bit 1 gap,
 *              bit 2 EOF, bit 3 run tx gc after it]
 *     [2 bytes big-endian length][length bytes of data (none for a gap)]
 * A flow to port 80 from 10.0.0.1:40000; each input gets a fresh flow, the
 * app-layer thread lives for the process. After each chunk every
 * transaction's buffers, body, events and eve objects are read, as the
 * detect and output code would. */
#include "fuzz-common.h"
#include "app-layer/app-layer.h"
#include "app-layer/http.h"
#include "app-layer/files.h"
#include "app-layer/frames.h"
#include "output/file-log.h"
#include "output/http-log.h"
#include "conf/conf.h"
#include "stats/counters.h"

#include <arpa/inet.h>
#include <jansson.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static AppLayerConfig cfg;
static AppLayerThread *at;
static volatile uint32_t sink; /* keeps the buffer reads from being optimised out */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char err[512];
	char path[512];

	(void)argc;
	(void)argv;
	fuzz_quiet();
	/* the shipped yaml: its libhtp section (personality, body limits,
	 * decompression) is what users run */
	snprintf(path, sizeof(path), "%s/suricata.yaml", FUZZ_TOP_BUILDDIR);
	if (conf_load_file(path, err, sizeof(err)) != 0) {
		fprintf(stderr, "fuzz_http: %s\n", err);
		abort();
	}
	if (app_layer_config_load(&cfg) != 0)
		abort();
	/* frames on (a frame rule): the request/response frames' offsets,
	 * lengths and start-line corrections run on every input */
	cfg.frames = 1;
	cfg.frames_stream = APP_STREAM_FRAME_USED;
	app_layer_register_counters();
	counters_freeze();
	at = app_layer_thread_new(&cfg, thread_counters_new());
	if (!at)
		abort();
	return 0;
}

static void touch(const uint8_t *d, uint32_t len)
{
	if (len)
		sink += d[0] + d[len - 1] + len;
}

static void json_touch(json_t *j)
{
	if (j) {
		char *s = json_dumps(j, JSON_COMPACT);

		if (s)
			sink += (uint32_t)strlen(s);
		free(s);
		json_decref(j);
	}
}

static void walk_txs(Flow *f)
{
	uint64_t n = http_tx_count(f);

	for (uint64_t id = 0; id < n; id++) {
		HttpTx *tx = http_tx_get(f, id);
		const HttpBodyPiece *pieces;
		const uint8_t *d;
		uint32_t len;

		if (!tx)
			continue;
		sink += (uint32_t)http_tx_id(tx) + (uint32_t)http_tx_log_id(tx);
		for (int dir = 0; dir < 2; dir++) {
			sink += (uint32_t)http_tx_progress(tx, dir);
			for (int b = 0; b < HTTP_BUF_MAX; b++) {
				if (b == HTTP_BUF_REQUEST_HEADER || b == HTTP_BUF_RESPONSE_HEADER) {
					for (uint32_t i = 0; i < 64 &&
					     http_tx_buffer_multi(tx, b, i, &d, &len) == 0; i++)
						touch(d, len);
					continue;
				}
				if (http_tx_buffer_dir(tx, b, dir, &d, &len) == 0)
					touch(d, len);
			}
			if (http_tx_body_raw(tx, dir, &d, &len, &pieces) > 0)
				touch(d, len);
			sink += (uint32_t)http_tx_body_truncated(tx, dir);
			json_touch(http_tx_headers_json(tx, dir));
			{
				/* the files of the side, as fileinfo would log them */
				FileContainer *fc = http_tx_files(tx, dir, 0);

				json_touch(fc ? files_json(&fc, 1) : NULL);
			}
		}
		for (uint32_t i = 0; i < http_tx_event_count(tx); i++) {
			const char *name = http_event_name(http_tx_event_get(tx, i));

			if (name)
				sink += (uint32_t)strlen(name);
		}
		json_touch(http_tx_json(tx, 0));
		json_touch(http_tx_json(tx, 1));
	}
}

/* The frames as detection and the frame logger read them; with gc, the
 * done ones are taken as inspected and logged and dropped. */
static void walk_frames(Flow *f, int gc)
{
	for (int d = 0; d < 2; d++) {
		uint32_t n;
		AppFrame *v = app_frames_get(f, d, &n);

		for (uint32_t i = 0; i < n; i++) {
			uint64_t len = app_frame_length(f, d, &v[i]);

			/* an HTTP frame's known end lies within what went by
			 * (gaps count): the parser never reads past it */
			if (v[i].alproto == ALPROTO_HTTP1 && v[i].type != APP_FRAME_TYPE_STREAM &&
			    v[i].len >= 0 &&
			    v[i].off + len > app_frames_edge(f, d))
				abort();
			sink += (uint32_t)len + (uint32_t)v[i].off;
			if (gc && app_frame_done(f, d, &v[i]))
				v[i].flags |= APP_FRAME_INSPECTED | APP_FRAME_LOGGED;
		}
		if (gc)
			app_frames_gc(f, d, APP_FRAME_INSPECTED | APP_FRAME_LOGGED);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Flow f;
	size_t off = 0;

	memset(&f, 0, sizeof(f));
	f.proto = IPPROTO_TCP;
	f.ip_version = 4;
	f.src.family = f.dst.family = AF_INET;
	f.src.a.u32[0] = htonl(0x0a000001);
	f.dst.a.u32[0] = htonl(0x0a000002);
	f.sp = 40000;
	f.dp = 80;
	f.start.tv_sec = f.last.tv_sec = 1700000000;

	while (off + 3 <= size) {
		uint8_t ctl = data[off];
		uint32_t len = (uint32_t)data[off + 1] << 8 | data[off + 2];
		int dir = ctl & 1 ? APP_DIR_TOCLIENT : APP_DIR_TOSERVER;
		int flags = (ctl & 4) ? APP_EOF : 0;

		off += 3;
		if (ctl & 2) {
			app_layer_handle_data(at, &f, dir, NULL, len, flags | APP_GAP);
		} else {
			if (len > size - off)
				len = (uint32_t)(size - off);
			app_layer_handle_data(at, &f, dir, data + off, len, flags);
			off += len;
		}
		walk_txs(&f);
		walk_frames(&f, (ctl & 8) != 0);
		if (ctl & 8) {
			/* as the runmode does once detect and logging are done with a tx */
			for (uint64_t id = 0; id < http_tx_count(&f); id++) {
				HttpTx *tx = http_tx_get(&f, id);

				if (tx)
					http_tx_set_flags(tx, http_tx_flags(tx) | APP_TX_LOGGED |
							  APP_TX_DETECT_TS | APP_TX_DETECT_TC |
							  APP_TX_FILE_LOGGED);
			}
			app_layer_tx_gc(&f, APP_TX_LOGGED);
		}
	}
	/* the flow ends: both sides close, as at a timeout or the end of the capture */
	app_layer_handle_data(at, &f, APP_DIR_TOSERVER, NULL, 0, APP_EOF);
	app_layer_handle_data(at, &f, APP_DIR_TOCLIENT, NULL, 0, APP_EOF);
	walk_txs(&f);
	app_layer_flow_free(&f);
	return 0;
}
