/* DNP3: the CRC, the application decoder (dnp3.h) on messages built here,
 * the registry entry through the generic app layer (link frames split
 * anywhere, transport reassembly, one transaction per message, confirms
 * left out, events), the eve object and the keywords' rules. */
#include "config.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app-layer/app-layer.h"
#include "app-layer/dnp3.h"
#include "conf/conf.h"
#include "output/dnp3-json.h"
#include "app-test-util.h"

/* A link frame: header with its CRC, then ud in blocks of 16, each with
 * its CRC. Not inlined: the callers' buffers are sized for it. */
__attribute__((noinline)) static size_t mkframe(uint8_t *out, uint8_t ctrl, const uint8_t *ud,
						size_t n)
{
	size_t o = 0;
	uint16_t c;

	out[o++] = 0x05;
	out[o++] = 0x64;
	out[o++] = (uint8_t)(5 + n);
	out[o++] = ctrl;
	out[o++] = 10;              /* dst */
	out[o++] = 0;
	out[o++] = 1;               /* src */
	out[o++] = 0;
	c = dnp3_crc(out, 8);
	out[o++] = (uint8_t)c;
	out[o++] = (uint8_t)(c >> 8);
	for (size_t i = 0; i < n; i += DNP3_BLOCK) {
		size_t b = n - i < DNP3_BLOCK ? n - i : DNP3_BLOCK;

		memcpy(out + o, ud + i, b);
		c = dnp3_crc(ud + i, b);
		o += b;
		out[o++] = (uint8_t)c;
		out[o++] = (uint8_t)(c >> 8);
	}
	return o;
}

/* One transport segment (FIR and FIN) around app bytes */
static size_t mkmsg(uint8_t *out, uint8_t ctrl, const uint8_t *app, size_t n)
{
	uint8_t ud[250];

	ud[0] = 0xc0;
	memcpy(ud + 1, app, n);
	return mkframe(out, ctrl, ud, n + 1);
}

static Dnp3Msg msg_of(const uint8_t *app, size_t n)
{
	Dnp3Msg m = { 0 };

	m.buf = malloc(n ? n : 1);
	memcpy(m.buf, app, n);
	m.len = m.cap = (uint32_t)n;
	return m;
}

TEST(dnp3_crc_of_a_real_header)
{
	/* a request's link header from suricata-verify dnp3-max-points */
	static const uint8_t h[] = { 0x05, 0x64, 0xff, 0x44, 0x04, 0x00, 0x03, 0x00, 0x43, 0x31 };
	uint8_t bad[10];

	CHECK_EQ(dnp3_crc(h, 8), 0x3143);
	CHECK(dnp3_crc_ok(h, 8));
	memcpy(bad, h, 10);
	bad[4] ^= 1;
	CHECK(!dnp3_crc_ok(bad, 8));
	CHECK_EQ(dnp3_frame_len(5), 10);
	CHECK_EQ(dnp3_frame_len(0xff), 292);
}

TEST(dnp3_decode_analog_response_and_eve)
{
	/* response, IIN device_restart; g30v1, range 0..1: flags + int32 */
	static const uint8_t app[] = { 0xc0, 0x81, 0x80, 0x00, 30, 1, 0x00, 0, 1,
				       0x01, 0xe8, 0x03, 0x00, 0x00, 0x01, 0xf4, 0x01, 0x00, 0x00 };
	Dnp3Tx tx = { 0 };
	json_t *o, *pts, *pt;

	tx.m = msg_of(app, sizeof(app));
	CHECK_EQ(dnp3_decode_app(&tx.m, 0), 0);
	CHECK(tx.m.complete);
	CHECK_EQ(tx.m.func, DNP3_FC_RESPONSE);
	CHECK_EQ(tx.m.iin, 0x8000);
	CHECK_EQ(tx.m.nobjs, 1);
	CHECK_EQ(tx.m.objs[0].count, 2);
	CHECK_EQ(tx.m.npoints, 2);
	CHECK_EQ(tx.m.points[1].index, 1);
	o = dnp3_json_object(&tx);
	CHECK_STREQ(json_string_value(json_object_get(o, "type")), "response");
	CHECK_STREQ(json_string_value(json_array_get(
			    json_object_get(json_object_get(o, "iin"), "indicators"), 0)),
		    "device_restart");
	pts = json_object_get(json_array_get(json_object_get(json_object_get(o, "application"),
							     "objects"), 0), "points");
	CHECK_EQ(json_array_size(pts), 2);
	pt = json_array_get(pts, 1);
	CHECK_EQ(json_integer_value(json_object_get(pt, "value")), 500);
	CHECK_EQ(json_integer_value(json_object_get(pt, "online")), 1);
	CHECK_EQ(json_integer_value(json_object_get(pt, "restart")), 0);
	CHECK_EQ(json_integer_value(json_object_get(pt, "index")), 1);
	json_decref(o);
	dnp3_msg_free(&tx.m);
}

TEST(dnp3_decode_packed_unknown_and_cut)
{
	/* g1v1 packed, range 0..9 (2 octets): point 9 on */
	static const uint8_t packed[] = { 0xc0, 0x81, 0, 0, 1, 1, 0x00, 0, 9, 0x00, 0x02 };
	static const uint8_t unknown[] = { 0xc0, 0x81, 0, 0, 99, 1, 0x07, 1, 0xaa };
	/* a read of class 0 names no values: no points, complete */
	static const uint8_t read[] = { 0xc0, 0x01, 60, 1, 0x06, 30, 1, 0x00, 0, 200 };
	Dnp3Msg m = msg_of(packed, sizeof(packed));
	uint32_t ev;

	CHECK_EQ(dnp3_decode_app(&m, 0), 0);
	CHECK_EQ(m.npoints, 10);
	CHECK_EQ(m.points[9].off, 10);
	CHECK_EQ(m.points[9].bit, 1);
	dnp3_msg_free(&m);

	m = msg_of(unknown, sizeof(unknown));
	CHECK_EQ(dnp3_decode_app(&m, 0), 1u << DNP3_EV_UNKNOWN_OBJECT);
	CHECK(!m.complete);
	CHECK_EQ(m.nobjs, 1);
	dnp3_msg_free(&m);

	m = msg_of(read, sizeof(read));
	CHECK_EQ(dnp3_decode_app(&m, 1), 0);
	CHECK(m.complete);
	CHECK_EQ(m.nobjs, 2);
	CHECK_EQ(m.objs[1].count, 201);
	CHECK_EQ(m.npoints, 0);
	dnp3_msg_free(&m);

	/* every cut of the packed response: no read past the end */
	for (size_t cut = 0; cut < sizeof(packed); cut++) {
		m = msg_of(packed, cut);
		ev = dnp3_decode_app(&m, 0);
		CHECK(cut >= 4 || ev == 1u << DNP3_EV_LEN_TOO_SMALL);
		CHECK(cut < 4 || ev == 0);
		CHECK(!m.complete || cut < 7 || cut == sizeof(packed));
		dnp3_msg_free(&m);
	}
}

static void enable_dnp3(AppTestCtx *c)
{
	CHECK_EQ(conf_set("app-layer.protocols.dnp3.enabled", "yes"), 0);
	app_test_init(c, 6, "10.0.0.2", 40000, 20000);
}

TEST(dnp3_flow_messages_split_anywhere)
{
	static const uint8_t req[] = { 0xc1, 0x01, 60, 2, 0x06 };
	static const uint8_t rsp[] = { 0xc1, 0x81, 0x00, 0x00 };
	static const uint8_t confirm[] = { 0xc1, 0x00 };
	uint8_t q[64], r[64], k[64];
	size_t nq = mkmsg(q, 0xc4, req, sizeof(req));
	size_t nr = mkmsg(r, 0x44, rsp, sizeof(rsp));
	size_t nk = mkmsg(k, 0xc4, confirm, sizeof(confirm));

	for (size_t cut = 1; cut < nq; cut++) {
		AppTestCtx c = { 0 };
		Dnp3Tx *tx;

		enable_dnp3(&c);
		app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, q, (uint32_t)cut, 0);
		app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, q + cut, (uint32_t)(nq - cut), 0);
		CHECK_EQ(c.f.app_proto, ALPROTO_DNP3);
		app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, k, (uint32_t)nk, 0);
		app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, r, (uint32_t)nr, 0);
		CHECK_EQ(app_layer_tx_count(&c.f), 2);
		tx = app_layer_tx_get(&c.f, 0);
		CHECK(tx && tx->is_request && tx->m.func == 1 && tx->m.nobjs == 1);
		CHECK(tx && tx->m.src == 1 && tx->m.dst == 10);
		tx = app_layer_tx_get(&c.f, 1);
		CHECK(tx && !tx->is_request && tx->m.func == DNP3_FC_RESPONSE);
		/* a frame with a bad header CRC: an event on the last message */
		r[8] ^= 0xff;
		app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, r, (uint32_t)nr, 0);
		r[8] ^= 0xff;
		CHECK_EQ(app_layer_tx_count(&c.f), 2);
		CHECK(app_layer_tx_has_event(&c.f, tx,
					     app_layer_event_lookup(ALPROTO_DNP3, "bad_link_crc")));
		app_test_free(&c);
	}
}

TEST(dnp3_flow_reassembly_and_its_bound)
{
	AppTestCtx c = { 0 };
	uint8_t ud[250], fr[300];
	size_t n;
	Dnp3Tx *tx;

	enable_dnp3(&c);
	/* a write of g50v1 (time) in two segments */
	ud[0] = 0x40;               /* FIR, seq 0 */
	memcpy(ud + 1, "\xc0\x02\x32\x01\x07\x01", 6);
	n = mkframe(fr, 0xc4, ud, 7);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, fr, (uint32_t)n, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 0);
	ud[0] = 0x81;               /* FIN, seq 1 */
	memcpy(ud + 1, "\x01\x02\x03\x04\x05\x06", 6);
	n = mkframe(fr, 0xc4, ud, 7);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, fr, (uint32_t)n, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 1);
	tx = app_layer_tx_get(&c.f, 0);
	CHECK(tx && tx->m.len == 12 && tx->m.complete && tx->m.npoints == 1);

	/* 65 full segments: past 63 * 255 bytes, given up with an event */
	for (int i = 0; i < 65; i++) {
		ud[0] = (uint8_t)((i == 0 ? 0x40 : 0) | (i & 0x3f));
		memset(ud + 1, 0x41, 249);
		if (i == 0)
			memcpy(ud + 1, "\xc0\x01", 2);
		n = mkframe(fr, 0xc4, ud, 250);
		app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, fr, (uint32_t)n, 0);
	}
	CHECK_EQ(app_layer_tx_count(&c.f), 2);
	tx = app_layer_tx_get(&c.f, 1);
	CHECK(tx && !tx->m.complete && tx->m.func == 1);
	CHECK(app_layer_tx_has_event(&c.f, tx,
				     app_layer_event_lookup(ALPROTO_DNP3, "too_long_reassembly")));

	/* the same bound on the responses */
	for (int i = 0; i < 65; i++) {
		ud[0] = (uint8_t)((i == 0 ? 0x40 : 0) | (i & 0x3f));
		memset(ud + 1, 0x42, 249);
		if (i == 0)
			memcpy(ud + 1, "\xc0\x81\x00\x00", 4);
		n = mkframe(fr, 0x44, ud, 250);
		app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, fr, (uint32_t)n, 0);
	}
	CHECK_EQ(app_layer_tx_count(&c.f), 3);
	tx = app_layer_tx_get(&c.f, 2);
	CHECK(tx && !tx->is_request && !tx->m.complete && tx->m.func == DNP3_FC_RESPONSE);
	CHECK(app_layer_tx_has_event(&c.f, tx,
				     app_layer_event_lookup(ALPROTO_DNP3, "too_long_reassembly")));
	app_test_free(&c);
}

/* Past 32 requests without a response, each further request is flooded;
 * a response takes one back. */
TEST(dnp3_flow_flood)
{
	static const uint8_t req[] = { 0xc0, 0x01, 60, 1, 0x06 };
	static const uint8_t rsp[] = { 0xc0, 0x81, 0x00, 0x00 };
	AppTestCtx c = { 0 };
	uint8_t q[64], r[64];
	size_t nq = mkmsg(q, 0xc4, req, sizeof(req));
	size_t nr = mkmsg(r, 0x44, rsp, sizeof(rsp));
	int ev;

	enable_dnp3(&c);
	ev = app_layer_event_lookup(ALPROTO_DNP3, "flooded");
	for (int i = 0; i < 34; i++)
		app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, q, (uint32_t)nq, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 34);
	CHECK(!app_layer_tx_has_event(&c.f, app_layer_tx_get(&c.f, 31), ev));
	CHECK(app_layer_tx_has_event(&c.f, app_layer_tx_get(&c.f, 32), ev));
	CHECK(app_layer_tx_has_event(&c.f, app_layer_tx_get(&c.f, 33), ev));
	/* two answered: 32 unanswered, the next request is the 33rd again */
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, r, (uint32_t)nr, 0);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, r, (uint32_t)nr, 0);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, q, (uint32_t)nq, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 37);
	CHECK(app_layer_tx_has_event(&c.f, app_layer_tx_get(&c.f, 36), ev));
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, r, (uint32_t)nr, 0);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, r, (uint32_t)nr, 0);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, q, (uint32_t)nq, 0);
	CHECK(!app_layer_tx_has_event(&c.f, app_layer_tx_get(&c.f, 39), ev));
	app_test_free(&c);
}

/* A segment of its transport header only (fuzz_dnp3's first find: an
 * empty append) is a message too short for its header. */
TEST(dnp3_flow_empty_segment)
{
	AppTestCtx c = { 0 };
	static const uint8_t th[] = { 0xc0 };
	uint8_t fr[32];
	size_t n = mkframe(fr, 0xc4, th, 1);
	Dnp3Tx *tx;

	enable_dnp3(&c);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, fr, (uint32_t)n, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 1);
	tx = app_layer_tx_get(&c.f, 0);
	CHECK(tx && !tx->m.has_app && !tx->m.buf);
	CHECK(app_layer_tx_has_event(&c.f, tx,
				     app_layer_event_lookup(ALPROTO_DNP3, "len_too_small")));
	app_test_free(&c);
}

TEST(dnp3_rules_with_its_keywords)
{
	int ok = 0, bad = 0;

	test_load_rules("alert dnp3 any any -> any any (dnp3_func:read; sid:1;)\n"
			"alert dnp3 any any -> any any (dnp3.func:129; sid:2;)\n"
			"alert dnp3 any any -> any any (dnp3_ind:device_restart,need_time; sid:3;)\n"
			"alert dnp3 any any -> any any (dnp3_obj:30,1; sid:4;)\n"
			"alert dnp3 any any -> any any (dnp3_data; content:\"|3c 01|\"; sid:5;)\n"
			"alert dnp3 any any -> any any (dnp3.data; content:\"|3c 01|\"; sid:6;)\n"
			"alert dnp3 any any -> any any (app-layer-event:dnp3.flooded; sid:7;)\n"
			"alert dnp3 any any -> any any (dnp3_func:nosuch; sid:8;)\n"
			"alert dnp3 any any -> any any (dnp3_ind:nosuch; sid:9;)\n"
			"alert dnp3 any any -> any any (dnp3_obj:30; sid:10;)\n"
			"alert dnp3 any any -> any any (dnp3_obj:300,1; sid:11;)\n",
			&ok, &bad, NULL);
	CHECK_EQ(ok, 7);
	CHECK_EQ(bad, 4);
}
