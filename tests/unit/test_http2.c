/* HTTP/2 (src/app-layer/http2-*.c): detection on the client preface,
 * frames cut anywhere, HPACK through libnghttp2, stream and stream-0
 * transactions, events, the eve object, and the keywords' loading. */
#include "config.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app-layer/app-layer.h"
#include "app-layer/http2.h"
#include "app-layer/http2-decode.h"

#include <zlib.h>
#include "output/http2-json.h"
#include "app-test-util.h"

static const uint8_t preface[] = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/* a frame header then its payload at p; returns the bytes written */
static size_t frame(uint8_t *p, uint32_t len, uint8_t type, uint8_t flags, uint32_t sid,
		    const void *payload)
{
	p[0] = (uint8_t)(len >> 16);
	p[1] = (uint8_t)(len >> 8);
	p[2] = (uint8_t)len;
	p[3] = type;
	p[4] = flags;
	p[5] = (uint8_t)(sid >> 24);
	p[6] = (uint8_t)(sid >> 16);
	p[7] = (uint8_t)(sid >> 8);
	p[8] = (uint8_t)sid;
	if (len && payload)
		memcpy(p + 9, payload, len);
	return 9 + len;
}

/* the client's preface, a SETTINGS (ENABLE_PUSH 0), and a GET / of
 * example.com on stream 1 (HPACK: static :method GET, :path /, :scheme
 * http, :authority literal with indexing) */
static size_t client(uint8_t *p)
{
	static const uint8_t settings[] = { 0, 2, 0, 0, 0, 0 };
	static const uint8_t hdrs[] = { 0x82, 0x84, 0x86, 0x41, 11, 'e', 'x', 'a', 'm', 'p',
					'l', 'e', '.', 'c', 'o', 'm' };
	size_t n = 24;

	memcpy(p, preface, 24);
	n += frame(p + n, sizeof(settings), H2_SETTINGS, 0, 0, settings);
	n += frame(p + n, sizeof(hdrs), H2_HEADERS, 0x05, 1, hdrs);
	return n;
}

TEST(http2_prior_knowledge_byte_at_a_time_stream_and_settings_txs)
{
	AppTestCtx c = { 0 };
	uint8_t req[256], rsp[256];
	size_t nq = client(req), nr = 0;
	Http2Tx *tx;
	json_t *o;

	app_test_init(&c, 6, "10.0.0.2", 40000, 8080);
	for (size_t i = 0; i < nq; i++)
		app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, req + i, 1, 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_HTTP2);
	/* the SETTINGS is a transaction of its own, the stream another */
	CHECK_EQ(app_layer_tx_count(&c.f), 2);
	tx = app_layer_tx_get(&c.f, 0);
	CHECK(tx && tx->stream_id == 0 && tx->side[0].nsettings == 1);
	CHECK_EQ(tx->side[0].settings[0].id, 2);
	tx = app_layer_tx_get(&c.f, 1);
	CHECK(tx && tx->stream_id == 1 && tx->side[0].nhdrs == 4);
	CHECK_EQ(app_layer_tx_progress(&c.f, tx, APP_DIR_TOSERVER), 4);
	CHECK_EQ(app_layer_tx_progress(&c.f, tx, APP_DIR_TOCLIENT), 0);
	/* :status 200, then a DATA with END_STREAM */
	nr += frame(rsp + nr, 1, H2_HEADERS, 0x04, 1, "\x88");
	nr += frame(rsp + nr, 5, H2_DATA, 0x01, 1, "hello");
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, rsp, (uint32_t)nr, 0);
	CHECK_EQ(app_layer_tx_progress(&c.f, tx, APP_DIR_TOCLIENT), 4);
	CHECK(tx->side[1].body_len == 5 && memcmp(tx->side[1].body, "hello", 5) == 0);
	o = http2_json_object(tx);
	CHECK(o);
	CHECK_STREQ(json_string_value(json_object_get(o, "hostname")), "example.com");
	CHECK_STREQ(json_string_value(json_object_get(o, "url")), "/");
	CHECK_STREQ(json_string_value(json_object_get(o, "http_method")), "GET");
	CHECK_EQ(json_integer_value(json_object_get(o, "status")), 200);
	CHECK_EQ(json_integer_value(json_object_get(json_object_get(o, "http2"), "stream_id")), 1);
	json_decref(o);
	app_test_free(&c);
}

TEST(http2_rst_goaway_window_and_long_frame)
{
	AppTestCtx c = { 0 };
	uint8_t req[256], big[9];
	size_t n = client(req);
	Http2Tx *tx;
	json_t *o;

	app_test_init(&c, 6, "10.0.0.2", 40000, 8080);
	n += frame(req + n, 4, H2_RST_STREAM, 0, 1, "\x00\x00\x00\x08");   /* CANCEL */
	n += frame(req + n, 4, H2_WINDOW_UPDATE, 0, 0, "\x00\x01\x00\x00");
	n += frame(req + n, 8, H2_GOAWAY, 0, 0, "\x00\x00\x00\x01\x00\x00\x00\x00");
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, req, (uint32_t)n, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 4);
	tx = app_layer_tx_get(&c.f, 1);
	CHECK(tx && tx->side[0].error_code == 8);
	/* a reset stream is over both ways */
	CHECK_EQ(app_layer_tx_progress(&c.f, tx, APP_DIR_TOCLIENT), 4);
	tx = app_layer_tx_get(&c.f, 2);
	CHECK(tx && tx->side[0].nwindows == 1 && tx->side[0].windows[0] == 65536);
	tx = app_layer_tx_get(&c.f, 3);
	o = http2_json_object(tx);
	CHECK_STREQ(json_string_value(json_object_get(json_object_get(json_object_get(o, "http2"),
							"request"), "error_code")), "NOERROR");
	json_decref(o);
	/* a DATA frame of 1 MiB is not buffered, but is an event */
	frame(big, 1u << 20, H2_DATA, 0, 3, NULL);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, big, 9, 0);
	tx = app_layer_tx_get(&c.f, 4);
	CHECK(tx && tx->stream_id == 3);
	CHECK(app_layer_tx_has_event(&c.f, tx, app_layer_event_lookup(ALPROTO_HTTP2,
								      "long_frame_data")));
	app_test_free(&c);
}

TEST(http2_bad_hpack_is_invalid_header_and_parsing_goes_on)
{
	AppTestCtx c = { 0 };
	uint8_t req[256];
	size_t n = client(req);

	app_test_init(&c, 6, "10.0.0.2", 40000, 8080);
	/* index 127 + 0x3f...: past the tables */
	n += frame(req + n, 3, H2_HEADERS, 0x05, 3, "\xff\xff\x7f");
	n += frame(req + n, 0, H2_PING, 0, 0, NULL);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, req, (uint32_t)n, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 4);
	CHECK(app_layer_tx_has_event(&c.f, app_layer_tx_get(&c.f, 2),
				     app_layer_event_lookup(ALPROTO_HTTP2, "invalid_header")));
	app_test_free(&c);
}

/* Suricata 8 skips an empty SETTINGS before it looks for a transaction:
 * the ACKs of both sides (and an empty one on a stream) add none, while a
 * PING or a WINDOW_UPDATE of stream 0 is one each */
TEST(http2_empty_settings_makes_no_transaction)
{
	AppTestCtx c = { 0 };
	uint8_t req[256], rsp[64];
	size_t n = client(req), nr = 0;

	app_test_init(&c, 6, "10.0.0.2", 40000, 8080);
	n += frame(req + n, 0, H2_SETTINGS, 0x01, 0, NULL);
	n += frame(req + n, 0, H2_SETTINGS, 0, 5, NULL);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, req, (uint32_t)n, 0);
	/* the client's SETTINGS and stream 1 */
	CHECK_EQ(app_layer_tx_count(&c.f), 2);
	nr += frame(rsp + nr, 0, H2_SETTINGS, 0x01, 0, NULL);
	nr += frame(rsp + nr, 4, H2_WINDOW_UPDATE, 0, 0, "\x00\x01\x00\x00");
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, rsp, (uint32_t)nr, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 3);
	CHECK(((Http2Tx *)app_layer_tx_get(&c.f, 2))->side[1].nwindows == 1);
	app_test_free(&c);
}

TEST(http2_preface_is_not_http1_on_port_80)
{
	AppTestCtx c = { 0 };
	uint8_t req[256];
	size_t n = client(req);

	app_test_init(&c, 6, "10.0.0.2", 40000, 80);
	/* cut inside the preface: undecided until it is whole */
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, req, 5, 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_UNKNOWN);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, req + 5, (uint32_t)n - 5, 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_HTTP2);
	app_test_free(&c);
}

TEST(http2_rules_with_its_keywords)
{
	int ok = 0, bad = 0;

	test_load_rules("alert http2 any any -> any any (http2.frametype:GOAWAY; sid:1;)\n"
			"alert http2 any any -> any any (http2.errorcode:NO_ERROR; sid:2;)\n"
			"alert http2 any any -> any any (http2.settings:SETTINGS_ENABLE_PUSH=0; sid:3;)\n"
			"alert http2 any any -> any any (http2.priority:>100; sid:4;)\n"
			"alert http2 any any -> any any (http.uri; content:\"/\"; sid:5;)\n"
			"alert tcp any any -> any any (http2.header; content:\"a: b\"; sid:6;)\n"
			"alert http2 any any -> any any (http2.frametype:NOPE; sid:7;)\n"
			"alert http1 any any -> any any (http2.window:1; sid:8;)\n",
			&ok, &bad, NULL);
	CHECK_EQ(ok, 6);
	CHECK_EQ(bad, 2);
}

/* ---- Content-Encoding decoding of a side's file (http2-decode.h) ---- */

typedef struct {
	uint8_t b[4096];
	size_t n;
} Sink;

static void sink_out(void *ctx, const uint8_t *p, uint32_t n)
{
	Sink *s = ctx;

	if (s->n + n <= sizeof(s->b))
		memcpy(s->b + s->n, p, n);
	s->n += n;
}

/* gzip (windowBits 31) or zlib (15) or raw deflate (-15) of text */
static size_t squeeze(const char *text, int wbits, uint8_t *out, size_t cap)
{
	z_stream z;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 6, Z_DEFLATED, wbits, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return 0;
	z.next_in = (Bytef *)text;
	z.avail_in = (uInt)strlen(text);
	z.next_out = out;
	z.avail_out = (uInt)cap;
	deflate(&z, Z_FINISH);
	deflateEnd(&z);
	return cap - z.avail_out;
}

TEST(http2_decoder_gzip_and_deflate_in_pieces)
{
	const char *text = "hello hello hello hello, an HTTP/2 body decoded for its file";
	static const struct {
		const char *ce;
		int wbits;
	} cases[] = { { "gzip", 31 }, { "identity, GZIP ", 31 }, { "deflate", 15 }, { "deflate", -15 } };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t z[512];
		size_t zn = squeeze(text, cases[i].wbits, z, sizeof(z));
		Http2Decoder *d = http2_decoder_new((const uint8_t *)cases[i].ce,
						    (uint32_t)strlen(cases[i].ce));
		Sink s = { .n = 0 };

		CHECK(zn > 0);
		CHECK(d != NULL);
		/* one byte at a time, as DATA frames may cut it */
		for (size_t k = 0; k < zn; k++)
			http2_decode(d, z + k, 1, sink_out, &s);
		CHECK_EQ(s.n, strlen(text));
		CHECK(memcmp(s.b, text, s.n) == 0);
		http2_decoder_free(d);
	}
	CHECK(http2_decoder_new((const uint8_t *)"identity", 8) == NULL);
	CHECK(http2_decoder_new(NULL, 0) == NULL);
}

TEST(http2_decoder_stops_on_corrupt_data)
{
	Http2Decoder *d = http2_decoder_new((const uint8_t *)"gzip", 4);
	Sink s = { .n = 0 };
	static const uint8_t junk[] = "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xff\xff\xff\xff";

	CHECK(d != NULL);
	http2_decode(d, junk, sizeof(junk), sink_out, &s);
	http2_decode(d, junk, sizeof(junk), sink_out, &s);
	CHECK(s.n < 64);
	http2_decoder_free(d);
}
