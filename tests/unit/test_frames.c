/* Frames (src/app-layer/frames.c) through the generic app layer: the
 * parsers mark them at the stream offsets of what they are handed, only
 * when frames are on; done-ness, lengths, names, keep-from and gc. */
#include "test.h"
#include "app-layer/app-layer.h"
#include "app-layer/frames.h"
#include "conf/conf.h"
#include "app-test-util.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>



typedef AppTestCtx Ctx;

static void ctx_init(Ctx *c, uint8_t proto, uint16_t dp, int frames)
{
	app_layer_config_load(&c->cfg);
	c->cfg.frames = frames;
	app_test_start(c, proto, "10.0.0.2", 40000, dp);
}

static void ctx_free(Ctx *c)
{
	app_test_free(c);
}

static int feed(Ctx *c, int dir, const uint8_t *p, size_t n, int flags)
{
	return app_layer_handle_data(c->at, &c->f, dir, p, (uint32_t)n, flags);
}

#define TS APP_DIR_TOSERVER
#define TC APP_DIR_TOCLIENT

/* www.example.com A, id 0x1111, RD; with its TCP length prefix */
static const uint8_t tcp_query[] = {
	0x00, 0x21,
	0x11, 0x11, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	3, 'w', 'w', 'w', 7, 'e', 'x', 'a', 'm', 'p', 'l', 'e', 3, 'c', 'o', 'm', 0,
	0x00, 0x01, 0x00, 0x01,
};

TEST(frames_dns_tcp_pdu_excludes_the_length_prefix)
{
	Ctx c;
	uint8_t two[2 * sizeof(tcp_query)];
	uint32_t n;
	const AppFrame *v;

	ctx_init(&c, IPPROTO_TCP, 53, 1);
	memcpy(two, tcp_query, sizeof(tcp_query));
	memcpy(two + sizeof(tcp_query), tcp_query, sizeof(tcp_query));
	/* the second message split across two calls: its frame is where it
	 * lies in the stream, not in the parser's buffer */
	CHECK_EQ(feed(&c, TS, two, sizeof(tcp_query) + 5, 0), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_DNS);
	v = app_frames_get(&c.f, TS, &n);
	CHECK_EQ(n, 1);
	CHECK_EQ(v[0].off, 2);
	CHECK_EQ(v[0].len, 0x21);
	CHECK_EQ(v[0].id, 1);
	CHECK_STREQ(app_frame_type_name(v[0].alproto, v[0].type), "pdu");
	CHECK(v[0].flags & APP_FRAME_TX);
	CHECK_EQ(v[0].tx_id, 0);
	CHECK(app_frame_done(&c.f, TS, &v[0]));
	CHECK_EQ(feed(&c, TS, two + sizeof(tcp_query) + 5, sizeof(tcp_query) - 5, 0), 0);
	v = app_frames_get(&c.f, TS, &n);
	CHECK_EQ(n, 2);
	CHECK_EQ(v[1].off, sizeof(tcp_query) + 2);
	CHECK_EQ(v[1].id, 2);
	CHECK_EQ(v[1].tx_id, 1);
	ctx_free(&c);
}

TEST(frames_off_makes_none)
{
	Ctx c;
	uint32_t n = 99;

	ctx_init(&c, IPPROTO_TCP, 53, 0);
	CHECK_EQ(feed(&c, TS, tcp_query, sizeof(tcp_query), 0), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_DNS);
	CHECK(!app_frames_on(&c.f));
	CHECK(app_frames_get(&c.f, TS, &n) == NULL);
	CHECK_EQ(n, 0);
	CHECK_EQ(app_frames_keep_from(&c.f, TS, APP_FRAME_INSPECTED), UINT64_MAX);
	ctx_free(&c);
}

/* DCE/RPC bind, 116 bytes (frag_length 0x74), then its header starts the
 * next call */
static void bind_pdu(uint8_t *b)
{
	memset(b, 0, 116);
	b[0] = 5; b[1] = 0; b[2] = 11; b[3] = 3;
	b[4] = 0x10;
	b[8] = 0x74;
	b[12] = 0x1b;
	b[16] = 0xd0; b[17] = 0x16; b[18] = 0xd0; b[19] = 0x16;
}

TEST(frames_dcerpc_pdu_hdr_data_at_stream_offsets)
{
	Ctx c;
	uint8_t b[232];
	uint32_t n;
	const AppFrame *v;

	ctx_init(&c, IPPROTO_TCP, 135, 1);
	bind_pdu(b);
	bind_pdu(b + 116);
	/* the second PDU's header split 10 + 6 */
	CHECK_EQ(feed(&c, TS, b, 126, 0), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_DCERPC);
	v = app_frames_get(&c.f, TS, &n);
	CHECK_EQ(n, 3);
	CHECK_STREQ(app_frame_type_name(v[0].alproto, v[0].type), "pdu");
	CHECK_EQ(v[0].off, 0);
	CHECK_EQ(v[0].len, 116);
	CHECK_STREQ(app_frame_type_name(v[1].alproto, v[1].type), "hdr");
	CHECK_EQ(v[1].len, 16);
	CHECK_STREQ(app_frame_type_name(v[2].alproto, v[2].type), "data");
	CHECK_EQ(v[2].off, 16);
	CHECK_EQ(v[2].len, 100);
	CHECK_EQ(feed(&c, TS, b + 126, 106, 0), 0);
	v = app_frames_get(&c.f, TS, &n);
	CHECK_EQ(n, 6);
	CHECK_EQ(v[3].off, 116);
	CHECK_EQ(v[3].len, 116);
	CHECK_EQ(v[5].off, 132);
	ctx_free(&c);
}

/* NBSS + SMB2 header (64 bytes) + 8 bytes of body */
TEST(frames_smb2_record_gives_nbss_and_smb2_triples)
{
	Ctx c;
	uint8_t b[4 + 72];
	uint32_t n;
	const AppFrame *v;
	static const char *const want[] = { "nbss.pdu", "nbss.hdr", "nbss.data",
					    "smb2.pdu", "smb2.hdr", "smb2.data" };

	ctx_init(&c, IPPROTO_TCP, 445, 1);
	memset(b, 0, sizeof(b));
	b[3] = 72;
	memcpy(b + 4, "\xfeSMB", 4);
	b[8] = 64;                  /* StructureSize */
	CHECK_EQ(feed(&c, TS, b, sizeof(b), 0), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_SMB);
	v = app_frames_get(&c.f, TS, &n);
	CHECK_EQ(n, 6);
	for (unsigned i = 0; i < 6 && i < n; i++)
		CHECK_STREQ(app_frame_type_name(v[i].alproto, v[i].type), want[i]);
	CHECK_EQ(v[0].len, 76);
	CHECK_EQ(v[2].off, 4);
	CHECK_EQ(v[3].off, 4);
	CHECK_EQ(v[4].len, 64);
	CHECK_EQ(v[5].off, 68);
	CHECK_EQ(v[5].len, 8);
	CHECK_EQ(app_frame_type_by_name(ALPROTO_SMB, "smb2.data"), v[5].type);
	CHECK_EQ(app_frame_type_by_name(ALPROTO_SMB, "smb4.data"), -1);
	ctx_free(&c);
}

/* HTTP/1: a request or response frame from its first byte to the end of
 * its body, at its stream offset, with its tx; lengths once complete. */
TEST(frames_http1_request_and_response_at_stream_offsets)
{
	static const char req[] = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n"
				  "POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc";
	static const char res[] = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi";
	const size_t r1 = 28, r2 = sizeof(req) - 1 - r1;
	Ctx c;
	uint32_t n;
	const AppFrame *v;

	ctx_init(&c, IPPROTO_TCP, 80, 1);
	/* the second request split after its request line: its frame opens
	 * in the first call, where its line began (libhtp 0.5 completes a
	 * request only once it has taken the next line whole) */
	CHECK_EQ(feed(&c, TS, (const uint8_t *)req, r1 + 20, 0), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_HTTP1);
	v = app_frames_get(&c.f, TS, &n);
	CHECK_EQ(n, 2);
	CHECK_STREQ(app_frame_type_name(v[0].alproto, v[0].type), "request");
	CHECK_EQ(v[0].off, 0);
	CHECK_EQ(v[0].len, (int64_t)r1);
	CHECK_EQ(v[0].id, 1);
	CHECK_EQ(v[0].tx_id, 0);
	CHECK_EQ(v[1].off, r1);
	CHECK_EQ(v[1].len, -1);
	CHECK(!app_frame_done(&c.f, TS, &v[1]));
	CHECK_EQ(feed(&c, TS, (const uint8_t *)req + r1 + 20, r2 - 20, 0), 0);
	v = app_frames_get(&c.f, TS, &n);
	CHECK_EQ(v[1].len, (int64_t)r2);
	CHECK_EQ(v[1].tx_id, 1);
	CHECK(app_frame_done(&c.f, TS, &v[1]));
	CHECK_EQ(feed(&c, TC, (const uint8_t *)res, sizeof(res) - 1, 0), 0);
	v = app_frames_get(&c.f, TC, &n);
	CHECK_EQ(n, 1);
	CHECK_STREQ(app_frame_type_name(v[0].alproto, v[0].type), "response");
	CHECK_EQ(v[0].off, 0);
	CHECK_EQ(v[0].len, (int64_t)(sizeof(res) - 1));
	CHECK_EQ(v[0].tx_id, 0);
	CHECK_EQ(app_frame_type_by_name(ALPROTO_HTTP1, "response"), 1);
	CHECK_EQ(app_frame_type_by_name(ALPROTO_HTTP1, "request_line"), -1);
	ctx_free(&c);
}

/* A pipelined request split inside its request line: both frames still
 * meet where the first request ends. */
TEST(frames_http1_split_request_line_keeps_both_ends)
{
	static const char req[] = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n"
				  "GET /bb HTTP/1.1\r\nHost: x\r\n\r\n";
	const size_t r1 = 28;
	Ctx c;
	uint32_t n;
	const AppFrame *v;

	ctx_init(&c, IPPROTO_TCP, 80, 1);
	CHECK_EQ(feed(&c, TS, (const uint8_t *)req, r1 + 6, 0), 0);
	CHECK_EQ(feed(&c, TS, (const uint8_t *)req + r1 + 6, sizeof(req) - 1 - r1 - 6, 0), 0);
	v = app_frames_get(&c.f, TS, &n);
	CHECK_EQ(n, 2);
	CHECK_EQ(v[0].off, 0);
	CHECK_EQ(v[0].len, (int64_t)r1);
	CHECK_EQ(v[1].off, r1);
	CHECK_EQ(v[1].len, (int64_t)(sizeof(req) - 1 - r1));
	ctx_free(&c);
}

/* TLS: each record is a pdu, hdr and data frame; an alert's payload is an
 * alert frame too. A record whose header is split across two calls
 * still starts where its header began. */
TEST(frames_tls_records_pdu_hdr_data_alert)
{
	/* a handshake record of 4 bytes, then an alert record of 2 */
	static const uint8_t recs[] = { 0x16, 0x03, 0x01, 0x00, 0x04, 0x01, 0x00, 0x00, 0x00,
					0x15, 0x03, 0x01, 0x00, 0x02, 0x02, 0x28 };
	Ctx c;
	uint32_t n;
	const AppFrame *v;

	ctx_init(&c, IPPROTO_TCP, 443, 1);
	CHECK_EQ(feed(&c, TS, recs, 11, 0), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_TLS);
	CHECK_EQ(feed(&c, TS, recs + 11, sizeof(recs) - 11, 0), 0);
	v = app_frames_get(&c.f, TS, &n);
	CHECK_EQ(n, 7);
	CHECK_STREQ(app_frame_type_name(v[0].alproto, v[0].type), "pdu");
	CHECK_EQ(v[0].off, 0);
	CHECK_EQ(v[0].len, 9);
	CHECK_STREQ(app_frame_type_name(v[1].alproto, v[1].type), "hdr");
	CHECK_EQ(v[1].len, 5);
	CHECK_STREQ(app_frame_type_name(v[2].alproto, v[2].type), "data");
	CHECK_EQ(v[2].off, 5);
	CHECK_EQ(v[2].len, 4);
	CHECK_EQ(v[3].off, 9);
	CHECK_EQ(v[3].len, 7);
	CHECK_STREQ(app_frame_type_name(v[6].alproto, v[6].type), "alert");
	CHECK_EQ(v[6].off, 14);
	CHECK_EQ(v[6].len, 2);
	CHECK_EQ(app_frame_type_by_name(ALPROTO_TLS, "heartbeat"), 4);
	ctx_free(&c);
}

/* SSH: each binary packet before the encryption is a record.pdu,
 * record.hdr (its 6 bytes) and record.data frame, after the banner. */
TEST(frames_ssh_records_after_the_banner)
{
	static const uint8_t in[] = { 'S', 'S', 'H', '-', '2', '.', '0', '-', 'x', '\r', '\n',
				      0, 0, 0, 12, 10, 21, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	Ctx c;
	uint32_t n;
	const AppFrame *v;

	ctx_init(&c, IPPROTO_TCP, 22, 1);
	/* the packet's header split across two calls */
	CHECK_EQ(feed(&c, TS, in, 14, 0), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_SSH);
	CHECK_EQ(feed(&c, TS, in + 14, sizeof(in) - 14, 0), 0);
	v = app_frames_get(&c.f, TS, &n);
	CHECK_EQ(n, 3);
	CHECK_STREQ(app_frame_type_name(v[0].alproto, v[0].type), "record.pdu");
	CHECK_EQ(v[0].off, 11);
	CHECK_EQ(v[0].len, 16);
	CHECK_STREQ(app_frame_type_name(v[1].alproto, v[1].type), "record.hdr");
	CHECK_EQ(v[1].len, 6);
	CHECK_STREQ(app_frame_type_name(v[2].alproto, v[2].type), "record.data");
	CHECK_EQ(v[2].off, 17);
	CHECK_EQ(v[2].len, 10);
	ctx_free(&c);
}

/* With eve frame logging alone the stream frame is made first, as
 * Suricata's (id 1), done with at once: it never holds stream bytes. */
TEST(frames_stream_frame_for_logging_only_takes_id_1)
{
	static const char req[] = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n";
	Ctx c;
	uint32_t n;
	const AppFrame *v;

	app_layer_config_load(&c.cfg);
	c.cfg.frames = 1;
	c.cfg.frames_stream = APP_STREAM_FRAME_ID_ONLY;
	app_test_start(&c, IPPROTO_TCP, "10.0.0.2", 40000, 80);
	CHECK_EQ(feed(&c, TS, (const uint8_t *)req, sizeof(req) - 1, 0), 0);
	v = app_frames_get(&c.f, TS, &n);
	CHECK_EQ(n, 2);
	CHECK_EQ(v[0].type, APP_FRAME_TYPE_STREAM);
	CHECK_EQ(v[0].id, 1);
	CHECK_EQ(v[0].flags & (APP_FRAME_INSPECTED | APP_FRAME_LOGGED),
		 APP_FRAME_INSPECTED | APP_FRAME_LOGGED);
	CHECK_STREQ(app_frame_type_name(v[1].alproto, v[1].type), "request");
	CHECK_EQ(v[1].id, 2);
	/* once the request frame is done with, nothing holds the stream */
	((AppFrame *)&v[1])->flags |= APP_FRAME_INSPECTED | APP_FRAME_LOGGED;
	CHECK_EQ(app_frames_keep_from(&c.f, TS, APP_FRAME_INSPECTED | APP_FRAME_LOGGED),
		 UINT64_MAX);
	ctx_free(&c);
}

TEST(frames_done_keep_from_and_gc)
{
	Ctx c;
	uint8_t b[4 + 72];
	uint32_t n;
	AppFrame *v;

	ctx_init(&c, IPPROTO_TCP, 445, 1);
	memset(b, 0, sizeof(b));
	b[3] = 72;
	memcpy(b + 4, "\xfeSMB", 4);
	b[8] = 64;
	/* only the NBSS header and 20 bytes: the record is not done */
	CHECK_EQ(feed(&c, TS, b, 24, 0), 0);
	v = app_frames_get(&c.f, TS, &n);
	CHECK_EQ(n, 3);
	CHECK(!app_frame_done(&c.f, TS, &v[0]));
	CHECK(app_frame_done(&c.f, TS, &v[1]));      /* the 4-byte header is */
	CHECK_EQ(app_frames_keep_from(&c.f, TS, APP_FRAME_INSPECTED), 0);
	v[1].flags |= APP_FRAME_INSPECTED;
	app_frames_gc(&c.f, TS, APP_FRAME_INSPECTED);
	v = app_frames_get(&c.f, TS, &n);
	CHECK_EQ(n, 2);                              /* nbss.hdr went */
	/* a gap covering the rest: done, its bytes missing */
	CHECK_EQ(feed(&c, TS, NULL, 52, APP_GAP), 0);
	v = app_frames_get(&c.f, TS, &n);
	CHECK(app_frame_done(&c.f, TS, &v[0]));
	CHECK_EQ(app_frame_length(&c.f, TS, &v[0]), 76);
	for (uint32_t i = 0; i < n; i++)
		v[i].flags |= APP_FRAME_INSPECTED;
	CHECK_EQ(app_frames_keep_from(&c.f, TS, APP_FRAME_INSPECTED), UINT64_MAX);
	/* logging still wants them */
	CHECK_EQ(app_frames_keep_from(&c.f, TS, APP_FRAME_INSPECTED | APP_FRAME_LOGGED), 0);
	app_frames_gc(&c.f, TS, APP_FRAME_INSPECTED);
	app_frames_get(&c.f, TS, &n);
	CHECK_EQ(n, 0);
	ctx_free(&c);
}
