/* RDP: the connection-sequence parser (app-layer/rdp.h) on messages
 * built from [MS-RDPBCGR]'s layouts at every segmentation, the TLS
 * certificate serials, hostile input, the probe, and the eve object
 * (output/rdp-json.h). */
#include "config.h"
#include "test.h"

#include <jansson.h>
#include <stdlib.h>

#include "app-layer/rdp.h"
#include "output/rdp-json.h"

/* TPKT + X.224 CR: cookie and RDP_NEG_REQ (TLS | CredSSP) */
static const uint8_t CR[] = {
	3, 0, 0, 41, 36, 0xe0, 0, 0, 0, 0, 0,
	'C', 'o', 'o', 'k', 'i', 'e', ':', ' ', 'm', 's', 't', 's', 'h', 'a', 's', 'h', '=',
	'b', 'o', 'b', '\r', '\n',
	1, 0, 8, 0, 3, 0, 0, 0,
};
/* TPKT + X.224 CC: RDP_NEG_RSP, extended client data, CredSSP */
static const uint8_t CC[] = {
	3, 0, 0, 19, 14, 0xd0, 0, 0, 0x12, 0x34, 0,
	2, 1, 8, 0, 2, 0, 0, 0,
};

static size_t put16le(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	return 2;
}

/* A TPKT with an MCS Connect-Initial whose userData holds a client core
 * block (version 5, 1024x768, en-US, XP, "HOST", product id 1, errinfo
 * capability, dig id "42") and a network block (rdpdr, cliprdr). */
static size_t build_ci(uint8_t *out)
{
	uint8_t ud[512], *p;
	size_t n = 0, core, k;

	memcpy(ud, "\x00\x05\x00\x14\x7c\x00\x01\x81\x00\x00\x08\x00\x10\x00\x01\xc0\x00"
		   "Duca\x81\x00", 23);
	n = 23;
	core = n;
	p = ud + n;
	memset(p, 0, 4 + 206);
	put16le(p, 0xc001);
	put16le(p + 2, 4 + 206);
	p += 4;
	p[0] = 4; p[1] = 0; p[2] = 8; p[3] = 0;             /* version */
	put16le(p + 4, 1024);
	put16le(p + 6, 768);
	put16le(p + 8, 0xca01);
	p[12] = 0x09; p[13] = 0x04;                          /* en-US */
	put16le(p + 16, 2600);
	p[20] = 'H'; p[22] = 'O'; p[24] = 'S'; p[26] = 'T';
	p[52] = 4;                                           /* enhanced */
	p[60] = 12;
	put16le(p + 128, 0xca03);                            /* 16 bpp */
	put16le(p + 130, 1);
	put16le(p + 136, 0);                                 /* not a depth */
	put16le(p + 140, 0x0001);
	p[142] = '4'; p[144] = '2';
	n += 4 + 206;
	p = ud + n;
	memset(p, 0, 8 + 24);
	put16le(p, 0xc003);
	put16le(p + 2, 8 + 24);
	p[4] = 2;
	memcpy(p + 8, "rdpdr", 5);
	memcpy(p + 20, "cliprdr", 7);
	n += 8 + 24;
	(void)core;
	k = 0;
	out[k++] = 3; out[k++] = 0; k += 2;                  /* TPKT, length later */
	out[k++] = 2; out[k++] = 0xf0; out[k++] = 0x80;      /* X.224 DT */
	out[k++] = 0x7f; out[k++] = 0x65; out[k++] = 0x82;
	out[k++] = (uint8_t)((n + 4 + 15) >> 8); out[k++] = (uint8_t)(n + 4 + 15);
	memcpy(out + k, "\x04\x01\x01\x04\x01\x01\x01\x01\xff\x30\x00\x30\x00\x30\x00", 15);
	k += 15;
	out[k++] = 0x04; out[k++] = 0x82;
	out[k++] = (uint8_t)(n >> 8); out[k++] = (uint8_t)n;
	memcpy(out + k, ud, n);
	k += n;
	out[2] = (uint8_t)(k >> 8);
	out[3] = (uint8_t)k;
	return k;
}

static void feed(RdpState *s, int dir, const uint8_t *p, size_t n, size_t step)
{
	for (size_t off = 0; off < n; off += step)
		rdp_parse(s, dir, p + off, (uint32_t)(n - off < step ? n - off : step));
}

static const RdpTx *tx_at(RdpState *s, uint64_t id)
{
	return txl_op_get(s, id);
}

TEST(rdp_connection_sequence_any_segmentation)
{
	uint8_t ci[1024];
	size_t nci = build_ci(ci);

	for (size_t step = 1; step <= nci; step += step < 16 ? 1 : 37) {
		RdpState *s = rdp_state_new();
		const RdpTx *t;

		feed(s, RDP_TOSERVER, CR, sizeof(CR), step);
		feed(s, RDP_TOCLIENT, CC, sizeof(CC), step);
		feed(s, RDP_TOSERVER, ci, nci, step);
		CHECK_EQ(s->txs.next_id, 3);
		t = tx_at(s, 0);
		CHECK(t->item == RDP_INITIAL_REQUEST && t->cookie && strcmp(t->cookie, "bob") == 0);
		CHECK(t->has_neg_req && t->req_protocols == 3);
		t = tx_at(s, 1);
		CHECK(t->item == RDP_INITIAL_RESPONSE && t->neg_kind == 1);
		CHECK(t->rsp_value == RDP_PROTO_HYBRID && t->rsp_flags == 1);
		t = tx_at(s, 2);
		CHECK(t->item == RDP_CONNECT_REQUEST && t->has_core);
		CHECK_EQ(t->core.width, 1024);
		CHECK_STREQ(t->core.name, "HOST");
		CHECK_STREQ(t->core.dig_id, "42");
		CHECK_EQ(rdp_color_depth(&t->core), 16);
		CHECK_EQ(t->nchannels, 2);
		CHECK_STREQ(t->channels[1], "cliprdr");
		CHECK(t->base.done[0] && t->base.done[1]);
		rdp_state_free(s);
	}
}

TEST(rdp_tls_certificate_serials_then_bypass)
{
	/* a handshake record: ServerHello (empty body) then a Certificate of
	 * two minimal certificates, serials 0x00ff01 and 0x05 */
	static const uint8_t rec[] = {
		0x16, 3, 3, 0, 35,
		2, 0, 0, 0,
		11, 0, 0, 27, 0, 0, 24,
		0, 0, 11, 0x30, 9, 0x30, 7, 0xa0, 0, 2, 3, 0x00, 0xff, 0x01,
		0, 0, 7, 0x30, 5, 0x30, 3, 2, 1, 5,
	};
	RdpState *s = rdp_state_new();
	const RdpTx *t;

	rdp_parse(s, RDP_TOSERVER, CR, sizeof(CR));
	rdp_parse(s, RDP_TOCLIENT, CC, sizeof(CC));
	/* the client's ClientHello: TLS from here, skipped */
	rdp_parse(s, RDP_TOSERVER, (const uint8_t *)"\x16\x03\x01\x00\x01\x01", 6);
	CHECK(s->tls);
	feed(s, RDP_TOCLIENT, rec, sizeof(rec), 3);
	CHECK_EQ(s->txs.next_id, 3);
	t = tx_at(s, 2);
	CHECK(t->item == RDP_TLS_HANDSHAKE);
	CHECK_EQ(t->nserials, 2);
	CHECK_STREQ(t->serials[0], "ff01");
	CHECK_STREQ(t->serials[1], "5");
	CHECK(s->bypass);
	CHECK_EQ(rdp_parse(s, RDP_TOCLIENT, (const uint8_t *)"junk", 4), 0);
	rdp_state_free(s);
}

TEST(rdp_hostile_input)
{
	RdpState *s = rdp_state_new();
	uint8_t many[RDP_MAX_TX * 2 * sizeof(CR)];

	CHECK_EQ(rdp_parse(s, RDP_TOSERVER, (const uint8_t *)"GET / HTTP/1.0\r\n", 16), -1);
	CHECK(s->side[0].dead);
	CHECK_EQ(s->txs.next_id, 0);
	rdp_state_free(s);

	/* a flood of requests stops at the live transaction limit */
	s = rdp_state_new();
	for (size_t i = 0; i < RDP_MAX_TX * 2; i++)
		memcpy(many + i * sizeof(CR), CR, sizeof(CR));
	CHECK_EQ(rdp_parse(s, RDP_TOSERVER, many, sizeof(many)), -1);
	CHECK_EQ(s->txs.live, RDP_MAX_TX);
	rdp_state_free(s);

	/* a TPKT too short for X.224, a truncated Connect-Initial */
	s = rdp_state_new();
	CHECK_EQ(rdp_parse(s, RDP_TOSERVER, (const uint8_t *)"\x03\x00\x00\x05\x00", 5), -1);
	rdp_state_free(s);
	s = rdp_state_new();
	CHECK_EQ(rdp_parse(s, RDP_TOSERVER,
			   (const uint8_t *)"\x03\x00\x00\x0c\x02\xf0\x80\x7f\x65\x82\xff\xff", 12), 0);
	CHECK_EQ(s->txs.next_id, 0);
	rdp_state_free(s);
}

TEST(rdp_probe_and_names)
{
	CHECK_EQ(rdp_probe(RDP_TOSERVER, CR, sizeof(CR)), 1);
	CHECK_EQ(rdp_probe(RDP_TOCLIENT, CR, sizeof(CR)), 0);
	CHECK_EQ(rdp_probe(RDP_TOCLIENT, CC, sizeof(CC)), 1);
	CHECK_EQ(rdp_probe(RDP_TOSERVER, CR, 3), -1);
	CHECK_EQ(rdp_probe(RDP_TOSERVER, (const uint8_t *)"\x16\x03\x01", 3), 0);
	CHECK_STREQ(rdp_build_name(2600), "Windows XP");
	CHECK_STREQ(rdp_lcid_name(0x409), "en-US");
	CHECK_STREQ(rdp_lcid_name(0x7777), "default");
}

TEST(rdp_eve_objects)
{
	uint8_t ci[1024];
	size_t nci = build_ci(ci);
	RdpState *s = rdp_state_new();
	json_t *o, *c;

	rdp_parse(s, RDP_TOSERVER, CR, sizeof(CR));
	rdp_parse(s, RDP_TOCLIENT, CC, sizeof(CC));
	rdp_parse(s, RDP_TOSERVER, ci, nci);
	o = rdp_json_object(tx_at(s, 0));
	CHECK_STREQ(json_string_value(json_object_get(o, "event_type")), "initial_request");
	CHECK_STREQ(json_string_value(json_object_get(o, "cookie")), "bob");
	CHECK(json_object_get(o, "flags") == NULL);
	json_decref(o);
	o = rdp_json_object(tx_at(s, 1));
	CHECK_STREQ(json_string_value(json_object_get(o, "protocol")), "hybrid");
	CHECK_STREQ(json_string_value(json_array_get(json_object_get(o, "server_supports"), 0)),
		    "extended_client_data");
	json_decref(o);
	o = rdp_json_object(tx_at(s, 2));
	CHECK_EQ(json_integer_value(json_object_get(o, "tx_id")), 2);
	c = json_object_get(o, "client");
	CHECK_STREQ(json_string_value(json_object_get(c, "version")), "v5");
	CHECK_STREQ(json_string_value(json_object_get(c, "build")), "Windows XP");
	CHECK_STREQ(json_string_value(json_object_get(c, "keyboard_layout")), "en-US");
	CHECK_STREQ(json_string_value(json_object_get(c, "keyboard_type")), "enhanced");
	CHECK_EQ(json_integer_value(json_object_get(c, "color_depth")), 16);
	CHECK_EQ(json_integer_value(json_object_get(c, "function_keys")), 12);
	CHECK_STREQ(json_string_value(json_array_get(json_object_get(c, "capabilities"), 0)),
		    "support_errinfo_pdf");
	CHECK_STREQ(json_string_value(json_array_get(json_object_get(o, "channels"), 0)), "rdpdr");
	json_decref(o);
	rdp_state_free(s);
}
