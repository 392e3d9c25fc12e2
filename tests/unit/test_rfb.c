/* RFB: the handshake parser (app-layer/rfb.h) at every segmentation and
 * in every interleaving of the two sides, its limits and events, the
 * probe, and the eve object (output/rfb-json.h). */
#include "config.h"
#include "test.h"

#include <jansson.h>
#include <stdlib.h>

#include "app-layer/rfb.h"
#include "output/rfb-json.h"

/* 3.8, VNC authentication, a shared screen 800x600 named "desk" */
static const uint8_t SV38[] = {
	'R', 'F', 'B', ' ', '0', '0', '3', '.', '0', '0', '8', '\n',
	1, 2,                                           /* one type: VNC */
	0x1d, 0x03, 0xc5, 0x7f, 0x2d, 0xff, 0xcc, 0x72, /* challenge */
	0xa5, 0xae, 0x3a, 0xd5, 0x59, 0xc9, 0xc3, 0xdb,
	0, 0, 0, 0,                                     /* result OK */
	0x03, 0x20, 0x02, 0x58,                         /* ServerInit 800x600 */
	32, 24, 0, 1, 0, 255, 0, 255, 0, 255, 16, 8, 0, 0, 0, 0,
	0, 0, 0, 4, 'd', 'e', 's', 'k',
	0, 0, 0x54, 0x46,                               /* framebuffer bytes */
};
static const uint8_t CL38[] = {
	'R', 'F', 'B', ' ', '0', '0', '3', '.', '0', '0', '8', '\n',
	2,                                              /* chosen: VNC */
	0x54, 0x7b, 0x7a, 0x6f, 0x36, 0xa1, 0x54, 0xdb, /* response */
	0x03, 0xa2, 0x57, 0x5c, 0x6f, 0x2a, 0x4e, 0xc5,
	1,                                              /* ClientInit: shared */
	0, 0, 0, 0, 32, 24,                             /* SetPixelFormat... */
};

static int nmsg[2];
static void count_msg(void *ctx, int dir, uint64_t off, uint32_t len)
{
	(void)ctx;
	(void)off;
	(void)len;
	nmsg[dir]++;
}

static void feed(RfbState *s, int dir, const uint8_t *p, size_t n, size_t step)
{
	for (size_t off = 0; off < n; off += step)
		rfb_parse(s, dir, p + off, (uint32_t)(n - off < step ? n - off : step));
}

TEST(rfb_handshake_38_any_segmentation)
{
	for (size_t step = 1; step <= sizeof(SV38); step++) {
		RfbState *s = rfb_state_new();

		nmsg[0] = nmsg[1] = 0;
		s->cb = count_msg;
		/* the server's version, then the client's side whole, then the rest */
		feed(s, RFB_TOCLIENT, SV38, 12, step);
		feed(s, RFB_TOSERVER, CL38, sizeof(CL38), step);
		CHECK(!s->done);
		feed(s, RFB_TOCLIENT, SV38 + 12, sizeof(SV38) - 12, step);
		CHECK(s->done);
		CHECK(rfb_side_done(s, RFB_TOSERVER) && rfb_side_done(s, RFB_TOCLIENT));
		CHECK_STREQ(s->info.server_version.minor, "008");
		CHECK_STREQ(s->info.client_version.major, "003");
		CHECK(s->info.has_sectype && s->info.sectype == 2);
		CHECK(s->info.has_challenge && s->info.challenge[15] == 0xdb);
		CHECK(s->info.has_response && s->info.response[0] == 0x54);
		CHECK(s->info.has_result && s->info.result == RFB_RESULT_OK);
		CHECK(s->info.has_client_init && s->info.shared == 1);
		CHECK(s->info.has_server_init);
		CHECK_EQ(s->info.width, 800);
		CHECK_EQ(s->info.height, 600);
		CHECK_EQ(s->info.pf.red_shift, 16);
		CHECK(s->info.name_len == 4 && memcmp(s->info.name, "desk", 4) == 0);
		/* version, types, challenge, result, ServerInit; version, choice,
		 * response, ClientInit: the framebuffer and the client's later
		 * messages are not messages of the handshake */
		CHECK_EQ(nmsg[RFB_TOCLIENT], 5);
		CHECK_EQ(nmsg[RFB_TOSERVER], 4);
		CHECK_EQ(s->events, 0);
		rfb_state_free(s);
	}
}

TEST(rfb_33_failure_and_none_37)
{
	static const uint8_t sv33[] = { 'R', 'F', 'B', ' ', '0', '0', '3', '.', '0', '0', '3',
					'\n', 0, 0, 0, 0, 0, 0, 0, 3, 'b', 'a', 'd' };
	static const uint8_t cl33[] = { 'R', 'F', 'B', ' ', '0', '0', '3', '.', '0', '0', '3',
					'\n' };
	static const uint8_t sv37[] = { 'R', 'F', 'B', ' ', '0', '0', '3', '.', '0', '0', '7',
					'\n', 1, 1, 0, 10, 0, 20, 8, 8, 0, 1, 0, 7, 0, 7, 0, 3,
					0, 3, 6, 0, 0, 0, 0, 0, 0, 0, 0 };
	static const uint8_t cl37[] = { 'R', 'F', 'B', ' ', '0', '0', '3', '.', '0', '0', '7',
					'\n', 1, 0 };
	RfbState *s = rfb_state_new();

	/* 3.3, the server refuses: type 0 and a reason; the handshake ends */
	rfb_parse(s, RFB_TOCLIENT, sv33, 12);
	rfb_parse(s, RFB_TOSERVER, cl33, sizeof(cl33));
	rfb_parse(s, RFB_TOCLIENT, sv33 + 12, sizeof(sv33) - 12);
	CHECK(s->done);
	CHECK(!s->info.has_sectype && !s->info.has_server_init);
	rfb_state_free(s);

	/* 3.7 with None: no SecurityResult, ServerInit after ClientInit */
	s = rfb_state_new();
	rfb_parse(s, RFB_TOCLIENT, sv37, sizeof(sv37));
	CHECK(!s->done);                        /* waits on the client's version */
	rfb_parse(s, RFB_TOSERVER, cl37, sizeof(cl37));
	CHECK(s->done && s->info.has_server_init && !s->info.has_result);
	CHECK(s->info.sectype == 1 && s->info.width == 10 && s->info.name_len == 0);
	rfb_state_free(s);
}

TEST(rfb_hostile_input_is_bounded_and_counted)
{
	static const uint8_t bad[] = "RFB 003.0x8\n";
	static const uint8_t sv[] = { 'R', 'F', 'B', ' ', '0', '0', '3', '.', '0', '0', '8',
				      '\n', 1, 30 };
	static const uint8_t cl[] = { 'R', 'F', 'B', ' ', '0', '0', '3', '.', '0', '0', '8',
				      '\n', 30 };
	static const uint8_t huge[] = { 0, 0, 0, 0, 1, 0, 1, 0, 32, 24, 0, 1, 0, 255, 0, 255,
					0, 255, 16, 8, 0, 0, 0, 0, 0x7f, 0xff, 0xff, 0xff };
	RfbState *s = rfb_state_new();

	CHECK_EQ(rfb_parse(s, RFB_TOCLIENT, bad, 12), -1);
	CHECK(s->done && (s->events & 1u << RFB_EV_MALFORMED_MESSAGE));
	rfb_state_free(s);

	/* a type the parser does not implement ends it, with its event */
	s = rfb_state_new();
	rfb_parse(s, RFB_TOCLIENT, sv, sizeof(sv));
	rfb_parse(s, RFB_TOSERVER, cl, sizeof(cl));
	CHECK(s->done && (s->events & 1u << RFB_EV_UNIMPLEMENTED_SECURITY_TYPE));
	rfb_state_free(s);

	/* a desktop name over the limit is malformed, never buffered */
	s = rfb_state_new();
	rfb_parse(s, RFB_TOCLIENT, SV38, 12);
	rfb_parse(s, RFB_TOSERVER, (const uint8_t *)"RFB 003.008\n\001\001", 14);
	rfb_parse(s, RFB_TOCLIENT, (const uint8_t *)"\001\001", 2);
	CHECK(!s->done);
	CHECK_EQ(rfb_parse(s, RFB_TOCLIENT, huge, sizeof(huge)), -1);
	CHECK(s->events & 1u << RFB_EV_MALFORMED_MESSAGE);
	CHECK(s->side[1].buf == NULL);
	rfb_state_free(s);

	CHECK_EQ(rfb_event_by_name("confused_state"), RFB_EV_CONFUSED_STATE);
	CHECK_EQ(rfb_event_by_name("nope"), -1);
}

TEST(rfb_probe_answers)
{
	CHECK_EQ(rfb_probe((const uint8_t *)"RFB 003.008\n", 12), 1);
	CHECK_EQ(rfb_probe((const uint8_t *)"RF", 2), -1);
	CHECK_EQ(rfb_probe((const uint8_t *)"RFB 0x", 6), 0);
	CHECK_EQ(rfb_probe((const uint8_t *)"SSH-2.0", 7), 0);
}

TEST(rfb_eve_object)
{
	RfbState *s = rfb_state_new();
	json_t *o, *a, *fb;

	rfb_parse(s, RFB_TOCLIENT, SV38, 12);
	rfb_parse(s, RFB_TOSERVER, CL38, sizeof(CL38));
	rfb_parse(s, RFB_TOCLIENT, SV38 + 12, sizeof(SV38) - 12);
	o = rfb_json_object(&s->info);
	CHECK(o != NULL);
	CHECK_STREQ(json_string_value(json_object_get(json_object_get(o,
			"server_protocol_version"), "minor")), "008");
	a = json_object_get(o, "authentication");
	CHECK_EQ(json_integer_value(json_object_get(a, "security_type")), 2);
	CHECK_STREQ(json_string_value(json_object_get(json_object_get(a, "vnc"), "challenge")),
		    "1d03c57f2dffcc72a5ae3ad559c9c3db");
	CHECK_STREQ(json_string_value(json_object_get(a, "security_result")), "OK");
	CHECK(json_is_true(json_object_get(o, "screen_shared")));
	fb = json_object_get(o, "framebuffer");
	CHECK_EQ(json_integer_value(json_object_get(fb, "width")), 800);
	CHECK_STREQ(json_string_value(json_object_get(fb, "name")), "desk");
	CHECK(json_is_false(json_object_get(json_object_get(fb, "pixel_format"), "big_endian")));
	json_decref(o);
	rfb_state_free(s);
}
