/* DCERPC: the PDU library (app-layer/dcerpc-parse.h) on PDUs built here
 * field by field from DCE 1.1 (C706 ch. 12), independently of the
 * parser; its registry entry through the generic app layer
 * (dcerpc-proto.c); the eve object (output/dcerpc-json.h); and the
 * keywords (detect/dcerpc-kw.c): parsing, rejects, and their matchers on
 * parsed transactions. */
#include "config.h"
#include "test.h"
#include "output/json-writer.h"

#include <stdlib.h>

#include <jansson.h>

#include "app-layer/app-layer.h"
#include "app-layer/dcerpc.h"
#include "detect/buffers.h"
#include "detect/dcerpc-kw.h"
#include "detect/detect-parse.h"
#include "output/dcerpc-json.h"
#include "app-test-util.h"

/* ---- PDU builders (little endian unless be) ---- */

static int be;

static void w16(uint8_t *p, unsigned v)
{
	if (be)
		p[0] = (uint8_t)(v >> 8), p[1] = (uint8_t)v;
	else
		p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8);
}

static void w32(uint8_t *p, uint32_t v)
{
	if (be) {
		w16(p, v >> 16);
		w16(p + 2, v & 0xffff);
	} else {
		w16(p, v & 0xffff);
		w16(p + 2, v >> 16);
	}
}

/* uuid text order -> wire (first three fields in the drep's order) */
static void wuuid(uint8_t *p, const char *s)
{
	uint8_t u[16];

	dcerpc_uuid_parse(s, u);
	if (be) {
		memcpy(p, u, 16);
		return;
	}
	p[0] = u[3], p[1] = u[2], p[2] = u[1], p[3] = u[0];
	p[4] = u[5], p[5] = u[4], p[6] = u[7], p[7] = u[6];
	memcpy(p + 8, u + 8, 8);
}

static size_t hdr(uint8_t *p, int ptype, int flags, size_t frag_len, uint32_t call_id)
{
	p[0] = 5;
	p[1] = 0;
	p[2] = (uint8_t)ptype;
	p[3] = (uint8_t)flags;
	p[4] = be ? 0x00 : 0x10;
	p[5] = p[6] = p[7] = 0;
	w16(p + 8, (unsigned)frag_len);
	w16(p + 10, 0);
	w32(p + 12, call_id);
	return 16;
}

#define IFACE_A "367abb81-9844-35f1-ad32-98f038001003"
#define IFACE_B "12345678-1234-abcd-ef00-0123456789ab"

/* bind offering contexts 0 (IFACE_A v2.0) and 1 (IFACE_B v1.3) */
static size_t bind_pdu(uint8_t *p, int ptype, uint32_t call_id)
{
	size_t n = 28;

	memset(p, 0, 200);
	p[24] = 2;
	for (int i = 0; i < 2; i++) {
		w16(p + n, (unsigned)i);
		p[n + 2] = 1;                /* one transfer syntax */
		wuuid(p + n + 4, i ? IFACE_B : IFACE_A);
		w16(p + n + 20, i ? 1 : 2);
		w16(p + n + 22, i ? 3 : 0);
		n += 24 + 20;
	}
	hdr(p, ptype, 3, n, call_id);
	return n;
}

/* bind_ack: results for the two contexts (r0, r1), a 4-byte sec addr */
static size_t bind_ack_pdu(uint8_t *p, uint32_t call_id, unsigned r0, unsigned r1)
{
	size_t n;

	memset(p, 0, 200);
	w16(p + 24, 4);
	memcpy(p + 26, "135", 4);
	n = 32;                          /* 26 + 4, aligned to 4 */
	p[n] = 2;
	n += 4;
	w16(p + n, r0);
	n += 24;
	w16(p + n, r1);
	n += 24;
	hdr(p, DCERPC_BIND_ACK, 3, n, call_id);
	return n;
}

static size_t request_pdu(uint8_t *p, int flags, uint32_t call_id, unsigned ctx, unsigned opnum,
			  const char *stub)
{
	size_t sl = strlen(stub);

	memset(p, 0, 24);
	w32(p + 16, (uint32_t)sl);
	w16(p + 20, ctx);
	w16(p + 22, opnum);
	memcpy(p + 24, stub, sl);
	hdr(p, DCERPC_REQUEST, flags, 24 + sl, call_id);
	return 24 + sl;
}

static size_t response_pdu(uint8_t *p, int flags, uint32_t call_id, const char *stub)
{
	size_t sl = strlen(stub);

	memset(p, 0, 24);
	w32(p + 16, (uint32_t)sl);
	memcpy(p + 24, stub, sl);
	hdr(p, DCERPC_RESPONSE, flags, 24 + sl, call_id);
	return 24 + sl;
}

static struct dcerpc_tx *nth(struct dcerpc_state *st, int n)
{
	struct dcerpc_tx *tx = dcerpc_tx_first(st);

	while (tx && n--)
		tx = tx->next;
	return tx;
}

/* ---- connection-oriented ---- */

TEST(dcerpc_uuid_text_round_trip_and_rejects)
{
	uint8_t u[16];
	char s[37];

	CHECK_EQ(dcerpc_uuid_parse(IFACE_A, u), 0);
	CHECK_EQ(u[0], 0x36);
	CHECK_EQ(u[15], 0x03);
	dcerpc_uuid_str(u, s);
	CHECK_STREQ(s, IFACE_A);
	CHECK_EQ(dcerpc_uuid_parse("367abb81-9844-35f1-ad32-98f03800100", u), -1);
	CHECK_EQ(dcerpc_uuid_parse("367abb81x9844-35f1-ad32-98f038001003", u), -1);
	CHECK_EQ(dcerpc_uuid_parse("367abb81-9844-35f1-ad32-98f0380010031", u), -1);
	CHECK_EQ(dcerpc_uuid_parse("367abb8g-9844-35f1-ad32-98f038001003", u), -1);
}

static void check_bind_call(int big)
{
	struct dcerpc_state st;
	uint8_t buf[4096];
	size_t n = 0;
	struct dcerpc_tx *b, *r;
	char s[37];

	be = big;
	dcerpc_state_init(&st, DCERPC_CO, NULL);
	n = bind_pdu(buf, DCERPC_BIND, 7);
	CHECK_EQ(dcerpc_feed(&st, 1, buf, n), 0);
	n = bind_ack_pdu(buf, 7, 0, 2);
	CHECK_EQ(dcerpc_feed(&st, 0, buf, n), 0);
	/* a request in two fragments, each split across calls */
	n = request_pdu(buf, DCERPC_PFC_FIRST_FRAG, 8, 0, 15, "ABCD");
	n += request_pdu(buf + n, DCERPC_PFC_LAST_FRAG, 8, 0, 15, "EFG");
	for (size_t i = 0; i < n; i += 5)
		CHECK_EQ(dcerpc_feed(&st, 1, buf + i, n - i < 5 ? n - i : 5), 0);
	n = response_pdu(buf, 3, 8, "xyz");
	CHECK_EQ(dcerpc_feed(&st, 0, buf, n), 0);
	b = nth(&st, 0);
	r = nth(&st, 1);
	CHECK(b && r && !r->next);
	CHECK_EQ(b->req_type, DCERPC_BIND);
	CHECK_EQ(b->resp_type, DCERPC_BIND_ACK);
	CHECK_EQ(b->call_id, 7);
	CHECK_EQ(b->nifaces, 2);
	dcerpc_uuid_str(b->ifaces[1].uuid, s);
	CHECK_STREQ(s, IFACE_B);
	CHECK_EQ(b->ifaces[0].ver, 2);
	CHECK_EQ(b->ifaces[1].ver_minor, 3);
	CHECK_EQ(b->ifaces[1].ack_result, 2);
	CHECK(dcerpc_tx_complete(b));
	CHECK_EQ(r->req_type, DCERPC_REQUEST);
	CHECK_EQ(r->opnum, 15);
	CHECK_EQ(r->frag_cnt[0], 2);
	CHECK_EQ(r->first_frag, 1);
	/* Suricata's stub: from offset 24 of a request, 16 of a response */
	CHECK_EQ(r->stub[0].len, 7);
	CHECK_EQ(memcmp(r->stub[0].data, "ABCDEFG", 7), 0);
	CHECK_EQ(r->stub[1].len, 8 + 3);
	CHECK_EQ(memcmp(r->stub[1].data + 8, "xyz", 3), 0);
	CHECK_EQ(r->has_iface, 1);
	dcerpc_uuid_str(r->iface.uuid, s);
	CHECK_STREQ(s, IFACE_A);
	CHECK_EQ(r->iface.ack_result, 0);
	CHECK_EQ(r->little_endian[0], !big);
	CHECK(dcerpc_tx_complete(r));
	CHECK_EQ(b->events | r->events | st.events, 0);
	dcerpc_state_free(&st);
	be = 0;
}

TEST(dcerpc_co_bind_ack_request_fragments_response_little_endian)
{
	check_bind_call(0);
}

TEST(dcerpc_co_bind_ack_request_fragments_response_big_endian)
{
	check_bind_call(1);
}

TEST(dcerpc_co_several_pdus_in_one_chunk_and_lost_request)
{
	struct dcerpc_state st;
	uint8_t buf[4096];
	size_t n;

	dcerpc_state_init(&st, DCERPC_CO, NULL);
	n = request_pdu(buf, 3, 1, 0, 4, "a");
	n += request_pdu(buf + n, 3, 2, 0, 5, "bb");
	n += request_pdu(buf + n, 3, 3, 9, 6, "ccc");
	CHECK_EQ(dcerpc_feed(&st, 1, buf, n), 0);
	CHECK_EQ(st.ntx, 3);
	CHECK_EQ(nth(&st, 2)->opnum, 6);
	CHECK_EQ(nth(&st, 2)->has_iface, 0);   /* ctx 9 never bound */
	/* responses out of order; one for a call never seen */
	n = response_pdu(buf, 3, 2, "r2");
	n += response_pdu(buf + n, 3, 42, "r42");
	CHECK_EQ(dcerpc_feed(&st, 0, buf, n), 0);
	CHECK(dcerpc_tx_complete(nth(&st, 1)));
	CHECK(!dcerpc_tx_complete(nth(&st, 0)));
	CHECK_EQ(nth(&st, 3)->req_type, DCERPC_PTYPE_NONE);
	CHECK_EQ(nth(&st, 3)->call_id, 42);
	dcerpc_state_free(&st);
}

static int keep_open(const struct dcerpc_tx *tx, void *arg)
{
	(void)arg;
	return !dcerpc_tx_complete(tx);
}

/* dcerpc_tx_by_id resumes from its last find: ids asked in any order, and
 * after a gc freed the one it found last, still give the live tx or NULL
 * (under ASan and valgrind: never the freed one). */
TEST(dcerpc_tx_by_id_in_any_order_and_after_gc)
{
	struct dcerpc_state st;
	uint8_t buf[4096];
	size_t n = 0;
	unsigned wrong = 0;

	dcerpc_state_init(&st, DCERPC_CO, NULL);
	for (uint32_t call = 1; call <= 6; call++)
		n += request_pdu(buf + n, 3, call, 0, 4, "a");
	CHECK_EQ(dcerpc_feed(&st, 1, buf, n), 0);
	CHECK_EQ(st.ntx, 6);
	for (int i = 0; i < 6; i++)
		wrong += dcerpc_tx_by_id(&st, nth(&st, i)->id) != nth(&st, i);
	for (int i = 6; i-- > 0;)
		wrong += dcerpc_tx_by_id(&st, nth(&st, i)->id) != nth(&st, i);
	CHECK_EQ(wrong, 0);
	CHECK(dcerpc_tx_by_id(&st, st.next_id) == NULL);
	n = 0;
	for (uint32_t call = 1; call <= 3; call++)
		n += response_pdu(buf + n, 3, call, "r");
	CHECK_EQ(dcerpc_feed(&st, 0, buf, n), 0);
	CHECK(dcerpc_tx_by_id(&st, 2) == nth(&st, 2));
	dcerpc_tx_gc(&st, keep_open, NULL);
	CHECK_EQ(st.ntx, 3);
	CHECK(dcerpc_tx_by_id(&st, 2) == NULL);
	CHECK(dcerpc_tx_by_id(&st, 3) == nth(&st, 0));
	CHECK(dcerpc_tx_by_id(&st, 5) == nth(&st, 2));
	dcerpc_state_free(&st);
}

TEST(dcerpc_co_malformed_header_stops_the_direction_with_event)
{
	struct dcerpc_state st;
	uint8_t buf[256];
	size_t n;

	dcerpc_state_init(&st, DCERPC_CO, NULL);
	n = request_pdu(buf, 3, 1, 0, 4, "a");
	CHECK_EQ(dcerpc_feed(&st, 1, buf, n), 0);
	/* frag_length below the header's own 16 bytes */
	hdr(buf, DCERPC_REQUEST, 3, 8, 2);
	CHECK_EQ(dcerpc_feed(&st, 1, buf, 16), -1);
	CHECK(nth(&st, 0)->events & (1u << DCERPC_EV_MALFORMED_HEADER));
	n = request_pdu(buf, 3, 3, 0, 4, "a");
	CHECK_EQ(dcerpc_feed(&st, 1, buf, n), -1);
	CHECK_EQ(st.ntx, 1);
	/* the other direction still parses */
	n = response_pdu(buf, 3, 1, "r");
	CHECK_EQ(dcerpc_feed(&st, 0, buf, n), 0);
	CHECK(dcerpc_tx_complete(nth(&st, 0)));
	dcerpc_state_free(&st);

	/* a version other than 5, and auth_length past the PDU */
	dcerpc_state_init(&st, DCERPC_CO, NULL);
	n = request_pdu(buf, 3, 1, 0, 4, "a");
	buf[0] = 4;
	CHECK_EQ(dcerpc_feed(&st, 1, buf, n), -1);
	CHECK(st.events & (1u << DCERPC_EV_MALFORMED_HEADER));
	n = request_pdu(buf, 3, 1, 0, 4, "a");
	w16(buf + 10, 200);
	CHECK_EQ(dcerpc_feed(&st, 0, buf, n), -1);
	dcerpc_state_free(&st);
}

TEST(dcerpc_co_short_body_and_stub_limit_events)
{
	struct dcerpc_state st;
	struct dcerpc_limits lim = { .max_stub = 10, .max_txs = 2 };
	uint8_t buf[256];
	size_t n;

	dcerpc_state_init(&st, DCERPC_CO, &lim);
	/* a request PDU of 20 bytes: no room for ctx id and opnum */
	hdr(buf, DCERPC_REQUEST, 3, 20, 1);
	CHECK_EQ(dcerpc_feed(&st, 1, buf, 20), 0);
	CHECK(nth(&st, 0)->events & (1u << DCERPC_EV_MALFORMED_PDU));
	n = request_pdu(buf, DCERPC_PFC_FIRST_FRAG, 2, 0, 4, "0123456");
	n += request_pdu(buf + n, DCERPC_PFC_LAST_FRAG, 2, 0, 4, "789abc");
	CHECK_EQ(dcerpc_feed(&st, 1, buf, n), 0);
	CHECK_EQ(nth(&st, 1)->stub[0].len, 10);
	CHECK(nth(&st, 1)->events & (1u << DCERPC_EV_STUB_LIMIT));
	/* a third open call closes the oldest (max_txs 2) */
	n = request_pdu(buf, 3, 3, 0, 4, "x");
	CHECK_EQ(dcerpc_feed(&st, 1, buf, n), 0);
	CHECK(dcerpc_tx_complete(nth(&st, 0)));
	CHECK(nth(&st, 2)->events & (1u << DCERPC_EV_TOO_MANY_TXS));
	CHECK_STREQ(dcerpc_event_name(DCERPC_EV_STUB_LIMIT), "stub_limit");
	CHECK_EQ(dcerpc_event_by_name("MALFORMED_HEADER"), DCERPC_EV_MALFORMED_HEADER);
	CHECK_EQ(dcerpc_event_by_name("nope"), -1);
	dcerpc_state_free(&st);
}

TEST(dcerpc_probe_co_and_cl)
{
	uint8_t buf[128];
	int req = -1;
	size_t n = request_pdu(buf, 3, 1, 0, 4, "a");

	CHECK_EQ(dcerpc_probe_co(buf, n, &req), 1);
	CHECK_EQ(req, 1);
	CHECK_EQ(dcerpc_probe_co(buf, 3, NULL), -1);
	/* SOCKS5's greeting and its CONNECT (Suricata 4.1 took them) */
	CHECK_EQ(dcerpc_probe_co((const uint8_t *)"\x05\x01\x00", 3, NULL), 0);
	CHECK_EQ(dcerpc_probe_co((const uint8_t *)"\x05\x00", 2, NULL), -1);
	buf[2] = 7;                      /* a CL-only PTYPE */
	CHECK_EQ(dcerpc_probe_co(buf, n, NULL), 0);
	buf[2] = DCERPC_BIND_ACK;
	CHECK_EQ(dcerpc_probe_co(buf, n, &req), 1);
	CHECK_EQ(req, 0);
	buf[4] = 0x30;                   /* drep bits no sender sets */
	CHECK_EQ(dcerpc_probe_co(buf, n, NULL), 0);
	/* CL: version 4, fragment 0, sane drep; WireGuard's data message
	 * (type 4, then a random receiver index) is not */
	memset(buf, 0, 80);
	buf[0] = 4;
	buf[4] = 0x10;
	CHECK_EQ(dcerpc_probe_cl(buf, 80, &req), 1);
	CHECK_EQ(req, 1);
	CHECK_EQ(dcerpc_probe_cl(buf, 79, NULL), 0);
	buf[76] = 1;
	CHECK_EQ(dcerpc_probe_cl(buf, 80, NULL), 0);
	buf[76] = 0;
	buf[4] = 0xbe;
	CHECK_EQ(dcerpc_probe_cl(buf, 80, NULL), 0);
}

/* a CL datagram: activity uuid act, seq, opnum, body */
static size_t cl_pdu(uint8_t *p, int ptype, int flags, const char *act, uint32_t seq,
		     unsigned opnum, const char *body)
{
	size_t bl = strlen(body);

	memset(p, 0, 80);
	p[0] = 4;
	p[1] = (uint8_t)ptype;
	p[2] = (uint8_t)flags;
	p[4] = be ? 0 : 0x10;
	wuuid(p + 24, IFACE_B);
	w32(p + 60, 1);
	{
		/* the activity is printed as little endian whatever the drep
		 * (Suricata 8): write it so */
		int keep = be;

		be = 0;
		wuuid(p + 40, act);
		be = keep;
	}
	w32(p + 64, seq);
	w16(p + 68, opnum);
	w16(p + 74, (unsigned)bl);
	memcpy(p + 80, body, bl);
	return 80 + bl;
}

#define ACT "dddc324e-03d8-af4e-86ee-7650df599e40"

TEST(dcerpc_cl_request_response_by_activity_and_seqnum)
{
	struct dcerpc_state st;
	uint8_t buf[256];
	size_t n;
	char s[37];
	json_t *o;

	for (int big = 0; big < 2; big++) {
		be = big;
		dcerpc_state_init(&st, DCERPC_CL, NULL);
		n = cl_pdu(buf, DCERPC_REQUEST, DCERPC_CL_FRAG, ACT, 2, 7, "abc");
		CHECK_EQ(dcerpc_feed(&st, 1, buf, n), 0);
		CHECK(!nth(&st, 0)->req_done);
		n = cl_pdu(buf, DCERPC_REQUEST, DCERPC_CL_FRAG | DCERPC_CL_LASTFRAG, ACT, 2, 7, "de");
		buf[76] = big ? 0 : 1, buf[77] = big ? 1 : 0;
		CHECK_EQ(dcerpc_feed(&st, 1, buf, n), 0);
		n = cl_pdu(buf, DCERPC_REQUEST, 0, ACT, 3, 8, "");
		CHECK_EQ(dcerpc_feed(&st, 1, buf, n), 0);
		/* the response comes the same way (a broadcast's do) */
		n = cl_pdu(buf, DCERPC_RESPONSE, 0, ACT, 2, 7, "zz");
		CHECK_EQ(dcerpc_feed(&st, 1, buf, n), 0);
		CHECK_EQ(st.ntx, 2);
		CHECK(dcerpc_tx_complete(nth(&st, 0)));
		CHECK_EQ(nth(&st, 0)->frag_cnt[0], 2);
		CHECK_EQ(nth(&st, 0)->stub[0].len, 5);
		CHECK_EQ(nth(&st, 0)->stub[1].len, 2);
		CHECK_EQ(nth(&st, 0)->opnum, 7);
		CHECK_EQ(nth(&st, 1)->seqnum, 3);
		dcerpc_uuid_str(nth(&st, 0)->activity, s);
		CHECK_STREQ(s, ACT);
		dcerpc_uuid_str(nth(&st, 0)->iface.uuid, s);
		CHECK_STREQ(s, IFACE_B);
		o = dcerpc_json_object(nth(&st, 0), 1);
		CHECK_STREQ(json_string_value(json_object_get(o, "activityuuid")), ACT);
		CHECK_STREQ(json_string_value(json_object_get(o, "rpc_version")), "4.0");
		CHECK_EQ(json_integer_value(json_object_get(o, "seqnum")), 2);
		CHECK_EQ(json_integer_value(json_object_get(json_object_get(o, "req"), "frag_cnt")), 2);
		CHECK(!json_object_get(o, "call_id"));
		json_decref(o);
		/* too short for the header: an event, not a transaction */
		CHECK_EQ(dcerpc_feed(&st, 1, buf, 40), -1);
		CHECK_EQ(st.ntx, 2);
		dcerpc_state_free(&st);
	}
	be = 0;
}

TEST(dcerpc_json_bind_and_request_records)
{
	struct dcerpc_state st;
	uint8_t buf[1024];
	size_t n;
	json_t *o, *a;

	dcerpc_state_init(&st, DCERPC_CO, NULL);
	n = bind_pdu(buf, DCERPC_BIND, 27);
	dcerpc_feed(&st, 1, buf, n);
	n = bind_ack_pdu(buf, 27, 2, 0);
	dcerpc_feed(&st, 0, buf, n);
	n = request_pdu(buf, 3, 28, 1, 4, "0123456789");
	dcerpc_feed(&st, 1, buf, n);
	o = dcerpc_json_object(nth(&st, 0), 0);
	CHECK_STREQ(json_string_value(json_object_get(o, "request")), "BIND");
	CHECK_STREQ(json_string_value(json_object_get(o, "response")), "BINDACK");
	CHECK_EQ(json_integer_value(json_object_get(o, "call_id")), 27);
	CHECK_STREQ(json_string_value(json_object_get(o, "rpc_version")), "5.0");
	a = json_object_get(o, "interfaces");
	CHECK_EQ(json_array_size(a), 2);
	CHECK_STREQ(json_string_value(json_object_get(json_array_get(a, 0), "uuid")), IFACE_A);
	CHECK_STREQ(json_string_value(json_object_get(json_array_get(a, 0), "version")), "2.0");
	CHECK_EQ(json_integer_value(json_object_get(json_array_get(a, 0), "ack_result")), 2);
	CHECK_STREQ(json_string_value(json_object_get(json_array_get(a, 1), "version")), "1.3");
	json_decref(o);
	/* the request before its response: UNREPLIED; the interface of its
	 * context */
	o = dcerpc_json_object(nth(&st, 1), 0);
	CHECK_STREQ(json_string_value(json_object_get(o, "request")), "REQUEST");
	CHECK_STREQ(json_string_value(json_object_get(o, "response")), "UNREPLIED");
	CHECK_EQ(json_integer_value(json_object_get(json_object_get(o, "req"), "opnum")), 4);
	CHECK_EQ(json_integer_value(json_object_get(json_object_get(o, "req"), "stub_data_size")), 10);
	a = json_object_get(o, "interfaces");
	CHECK_EQ(json_array_size(a), 1);
	CHECK_STREQ(json_string_value(json_object_get(json_array_get(a, 0), "uuid")), IFACE_B);
	CHECK(!json_object_get(o, "res"));
	json_decref(o);
	dcerpc_state_free(&st);
}

/* The dcerpc object of an smb record: an interface a bind_ack answered
 * has ack_result and ack_reason (Suricata 8's smb logger), one nothing
 * answered has neither; a dcerpc record keeps ack_result alone. */
TEST(dcerpc_smb_interfaces_ack_result_and_reason)
{
	struct dcerpc_state st;
	uint8_t buf[1024];
	char line[2048];
	JsonWriter w;
	size_t n;
	json_t *o;

	dcerpc_state_init(&st, DCERPC_CO, NULL);
	n = bind_pdu(buf, DCERPC_BIND, 27);
	dcerpc_feed(&st, 1, buf, n);
	n = bind_ack_pdu(buf, 27, 2, 0);
	w16(buf + 36 + 2, 1);            /* the first result's reason */
	dcerpc_feed(&st, 0, buf, n);
	CHECK_EQ(nth(&st, 0)->ifaces[0].ack_reason, 1);
	jw_begin(&w, line, sizeof(line));
	dcerpc_smb_json_write(&w, nth(&st, 0));
	line[jw_end(&w)] = '\0';
	CHECK(strstr(line, "\"version\":\"2.0\",\"ack_result\":2,\"ack_reason\":1}") != NULL);
	CHECK(strstr(line, "\"version\":\"1.3\",\"ack_result\":0,\"ack_reason\":0}") != NULL);
	o = dcerpc_json_object(nth(&st, 0), 0);
	CHECK(json_object_get(json_array_get(json_object_get(o, "interfaces"), 0),
			      "ack_reason") == NULL);
	json_decref(o);
	dcerpc_state_free(&st);

	/* a bind nobody acknowledged */
	dcerpc_state_init(&st, DCERPC_CO, NULL);
	n = bind_pdu(buf, DCERPC_BIND, 28);
	dcerpc_feed(&st, 1, buf, n);
	jw_begin(&w, line, sizeof(line));
	dcerpc_smb_json_write(&w, nth(&st, 0));
	line[jw_end(&w)] = '\0';
	CHECK(strstr(line, "\"interfaces\":[{") != NULL);
	CHECK(strstr(line, "ack_") == NULL);
	dcerpc_state_free(&st);
}

/* ---- keywords ---- */

static Signature *parse(const char *rule)
{
	char err[256];

	return sig_parse(rule, NULL, err, sizeof(err), NULL);
}

static const void *first_ctx(Signature *s, int kw)
{
	for (int i = 0; i < s->lists[SM_LIST_MATCH].n; i++)
		if (s->lists[SM_LIST_MATCH].m[i].kw == kw)
			return s->lists[SM_LIST_MATCH].m[i].ctx;
	return NULL;
}

static int iface_hits(const char *opt, const struct dcerpc_tx *tx)
{
	char rule[256];
	Signature *s;
	int r;

	snprintf(rule, sizeof(rule), "alert tcp any any -> any any (dcerpc.iface:%s; sid:1;)", opt);
	s = parse(rule);
	if (!s)
		return -1;
	r = dcerpc_iface_match(tx, first_ctx(s, KW_DCERPC_IFACE));
	sig_free(s);
	return r;
}

static int opnum_hits(const char *opt, const struct dcerpc_tx *tx)
{
	char rule[256];
	Signature *s;
	int r;

	snprintf(rule, sizeof(rule), "alert dcerpc any any -> any any (dce_opnum:%s; sid:1;)", opt);
	s = parse(rule);
	if (!s)
		return -1;
	r = dcerpc_opnum_match(tx, first_ctx(s, KW_DCERPC_OPNUM));
	sig_free(s);
	return r;
}

TEST(dcerpc_iface_and_opnum_match_parsed_calls)
{
	struct dcerpc_state st;
	uint8_t buf[1024];
	size_t n;
	struct dcerpc_tx *a, *b, *mid;
	const uint8_t *d;
	uint32_t len;

	dcerpc_state_init(&st, DCERPC_CO, NULL);
	n = bind_pdu(buf, DCERPC_BIND, 1);
	dcerpc_feed(&st, 1, buf, n);
	n = bind_ack_pdu(buf, 1, 0, 2);
	dcerpc_feed(&st, 0, buf, n);
	n = request_pdu(buf, 3, 2, 0, 15, "stub");
	dcerpc_feed(&st, 1, buf, n);
	n = request_pdu(buf, 3, 3, 1, 89, "x");
	dcerpc_feed(&st, 1, buf, n);
	/* a call picked up after its first fragment */
	n = request_pdu(buf, DCERPC_PFC_LAST_FRAG, 4, 0, 15, "y");
	dcerpc_feed(&st, 1, buf, n);
	a = nth(&st, 1);
	b = nth(&st, 2);
	mid = nth(&st, 3);
	CHECK_EQ(iface_hits(IFACE_A, a), 1);
	CHECK_EQ(iface_hits(IFACE_A ",=2", a), 1);
	CHECK_EQ(iface_hits(IFACE_A ",>1", a), 1);
	CHECK_EQ(iface_hits(IFACE_A ",<2", a), 0);
	CHECK_EQ(iface_hits(IFACE_A ",!2", a), 0);
	CHECK_EQ(iface_hits(IFACE_A ",!3,any_frag", a), 1);
	CHECK_EQ(iface_hits(IFACE_B, a), 0);
	/* context 1 was rejected (ack_result 2): never a match */
	CHECK_EQ(iface_hits(IFACE_B, b), 0);
	CHECK_EQ(iface_hits(IFACE_A, mid), 0);
	CHECK_EQ(iface_hits(IFACE_A ",any_frag", mid), 1);
	/* the bind itself is no call */
	CHECK_EQ(iface_hits(IFACE_A ",any_frag", nth(&st, 0)), 0);
	CHECK_EQ(opnum_hits("15", a), 1);
	CHECK_EQ(opnum_hits("12,24,62,61", a), 0);
	CHECK_EQ(opnum_hits("1,10-20", a), 1);
	CHECK_EQ(opnum_hits("15-15", a), 1);
	CHECK_EQ(opnum_hits("16-20", a), 0);
	CHECK_EQ(opnum_hits(">80", b), 1);
	CHECK_EQ(opnum_hits("<89", b), 0);
	CHECK_EQ(opnum_hits("=89", b), 1);
	CHECK_EQ(opnum_hits("0", nth(&st, 0)), 0);
	CHECK_EQ(dcerpc_tx_buffer_get(a, APP_DIR_TOSERVER, 0, &d, &len), 0);
	CHECK_EQ(len, 4);
	CHECK_EQ(memcmp(d, "stub", 4), 0);
	CHECK_EQ(dcerpc_tx_buffer_get(a, APP_DIR_TOCLIENT, 0, &d, &len), -1);
	CHECK_EQ(dcerpc_tx_buffer_get(a, APP_DIR_TOSERVER, 1, &d, &len), -1);
	CHECK_STREQ(detect_buffer(BUF_DCERPC_STUB_DATA)->name, "dcerpc.stub_data");
	dcerpc_state_free(&st);
}

TEST(dcerpc_keywords_reject_bad_values)
{
	static const char *const bad[] = {
		"alert tcp any any -> any any (dcerpc.iface:367abb81-9844-35f1-ad32; sid:1;)",
		"alert tcp any any -> any any (dcerpc.iface:" IFACE_A ",>70000; sid:1;)",
		"alert tcp any any -> any any (dcerpc.iface:" IFACE_A ",any_frag,=1; sid:1;)",
		"alert tcp any any -> any any (dcerpc.iface:" IFACE_A ",bogus; sid:1;)",
		"alert tcp any any -> any any (dcerpc.opnum:; sid:1;)",
		"alert tcp any any -> any any (dcerpc.opnum:5-2; sid:1;)",
		"alert tcp any any -> any any (dcerpc.opnum:65536; sid:1;)",
		"alert tcp any any -> any any (dcerpc.opnum:1,,2; sid:1;)",
		"alert http any any -> any any (dcerpc.opnum:1; sid:1;)",
		"alert icmp any any -> any any (dce_stub_data; content:\"a\"; sid:1;)",
		NULL
	};
	Signature *s;

	for (int i = 0; bad[i]; i++) {
		s = parse(bad[i]);
		if (s) {
			test_fail(__FILE__, __LINE__, bad[i]);
			sig_free(s);
			return;
		}
	}
	s = parse("alert dcerpc any any -> any any (dce_stub_data; content:\"a\"; "
		  "dce_iface:" IFACE_A ",any_frag; dce_opnum:1-3,7; sid:1;)");
	CHECK(s);
	CHECK_EQ(s->alproto, ALPROTO_DCERPC);
	sig_free(s);
	s = parse("alert udp any any -> any any (dcerpc.opnum:0; sid:1;)");
	CHECK(s);
	CHECK_EQ(s->alproto, ALPROTO_DCERPC);
	sig_free(s);
}

/* ---- through the app layer ---- */


TEST(dcerpc_detected_on_any_port_tcp_and_udp)
{
	AppLayerConfig cfg;
	AppLayerThread *at;
	Flow f;
	uint8_t buf[1024];
	size_t n;
	void *tx;

	app_layer_config_load(&cfg);
	at = app_layer_thread_new(&cfg, app_test_counters());
	memset(&f, 0, sizeof(f));
	f.proto = 6;
	f.sp = 40000;
	f.dp = 49302;
	n = bind_pdu(buf, DCERPC_BIND, 1);
	/* the first bytes alone are not enough to decide */
	CHECK_EQ(app_layer_handle_data(at, &f, APP_DIR_TOSERVER, buf, 10, 0), 0);
	CHECK_EQ(f.app_proto, ALPROTO_UNKNOWN);
	CHECK_EQ(app_layer_handle_data(at, &f, APP_DIR_TOSERVER, buf + 10, (uint32_t)(n - 10), 0), 0);
	CHECK_EQ(f.app_proto, ALPROTO_DCERPC);
	CHECK_EQ(app_layer_tx_count(&f), 1);
	tx = app_layer_tx_get(&f, 0);
	CHECK(tx);
	CHECK_EQ(app_layer_tx_progress(&f, tx, APP_DIR_TOSERVER), 1);
	CHECK_EQ(app_layer_tx_progress(&f, tx, APP_DIR_TOCLIENT), 0);
	n = bind_ack_pdu(buf, 1, 0, 0);
	app_layer_handle_data(at, &f, APP_DIR_TOCLIENT, buf, (uint32_t)n, 0);
	CHECK_EQ(app_layer_tx_progress(&f, tx, APP_DIR_TOCLIENT), 1);
	/* a request the server never answers: done at the server's EOF */
	n = request_pdu(buf, 3, 2, 0, 1, "q");
	app_layer_handle_data(at, &f, APP_DIR_TOSERVER, buf, (uint32_t)n, 0);
	tx = app_layer_tx_get(&f, 1);
	CHECK(tx);
	CHECK_EQ(app_layer_tx_progress(&f, tx, APP_DIR_TOCLIENT), 0);
	app_layer_handle_data(at, &f, APP_DIR_TOCLIENT, NULL, 0, APP_EOF);
	CHECK_EQ(app_layer_tx_progress(&f, tx, APP_DIR_TOCLIENT), 1);
	CHECK_EQ(app_layer_event_lookup(ALPROTO_DCERPC, "malformed_header"), DCERPC_EV_MALFORMED_HEADER);
	CHECK_STREQ(app_proto_name(ALPROTO_DCERPC), "dcerpc");
	CHECK_EQ(app_proto_by_name("DCERPC"), ALPROTO_DCERPC);
	app_layer_flow_free(&f);

	/* SOCKS5 on TCP is not DCERPC */
	memset(&f, 0, sizeof(f));
	f.proto = 6;
	f.sp = 40001;
	f.dp = 1080;
	app_layer_handle_data(at, &f, APP_DIR_TOSERVER, (const uint8_t *)"\x05\x01\x00", 3, 0);
	CHECK(f.app_proto != ALPROTO_DCERPC);
	app_layer_flow_free(&f);

	/* UDP, to an odd port */
	memset(&f, 0, sizeof(f));
	f.proto = 17;
	f.sp = 1566;
	f.dp = 34964;
	n = cl_pdu(buf, DCERPC_REQUEST, 0, ACT, 0, 3, "");
	CHECK_EQ(app_layer_handle_data(at, &f, APP_DIR_TOSERVER, buf, (uint32_t)n, 0), 0);
	CHECK_EQ(f.app_proto, ALPROTO_DCERPC);
	CHECK_EQ(app_layer_tx_count(&f), 1);
	app_layer_flow_free(&f);
	app_layer_thread_free(at);
}
