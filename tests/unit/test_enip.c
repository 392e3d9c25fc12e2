/* EtherNet/IP and CIP (app-layer/enip.h): the PDU decoder on a real
 * ListIdentity exchange (suricata-verify enip-alert) and on CIP messages
 * built here, every truncation of them, the registry entry through the
 * generic app layer (detection, a PDU split anywhere, request/response
 * pairing, events), the eve object, and rules with the keywords. */
#include "config.h"
#include "test.h"

#include <stdlib.h>

#include <jansson.h>

#include "app-layer/app-layer.h"
#include "app-layer/enip.h"
#include "conf/conf.h"
#include "output/enip-json.h"
#include "app-test-util.h"

static size_t unhex(const char *h, uint8_t *out)
{
	size_t n = 0;

	for (; h[0] && h[1]; h += 2)
		out[n++] = (uint8_t)strtoul((char[]){ h[0], h[1], 0 }, NULL, 16);
	return n;
}

static const char li_req[] = "63000000000000000000000000000000c1debed100000000";
static const char li_resp[] =
	"63003300000000000000000000000000c1debed10000000001000c002d0001000002af120a0101a4"
	"000000000000000001000c003a00040330008e4d52000b313735362d454e42542f4103";

/* SendRRData carrying a Multiple Service Packet (class 2, instance 1)
 * with a Get Attribute List (class 1, instance 1, attributes 5 and 7)
 * and a Get Attribute Single (class 0xf5, instance 1, attribute 3) */
static const char msp_req[] =
	"6f003000" "01020304" "00000000" "0000000000000000" "00000000"
	"00000000" "0a00" "0200" "00000000" "b2002000"
	"0a02200224010200" "0600" "1200"
	"030220012401" "0200" "0500" "0700"
	"0e0320f524013003";
/* its response: success, two embedded responses, the second an error
 * with one extended status word */
static const char msp_resp[] =
	"6f002600" "01020304" "00000000" "0000000000000000" "00000000"
	"00000000" "0a00" "0200" "00000000" "b2001600"
	"8a000000" "0200" "0600" "0c00" "830000000000" "8e0005013412";

TEST(enip_decode_list_identity)
{
	uint8_t b[256];
	size_t n = unhex(li_resp, b);
	EnipPdu p;
	EnipTx tx = { 0 };
	json_t *o, *id;

	CHECK_EQ(enip_pdu_decode(b, (uint32_t)n, 1, &p), 0);
	CHECK_EQ(p.command, ENIP_CMD_LIST_IDENTITY);
	CHECK_EQ(p.length, 51);
	CHECK(p.has_identity);
	CHECK_EQ(p.id.protocol_version, 1);
	CHECK_EQ(p.id.vendor_id, 1);
	CHECK_EQ(p.id.device_type, 12);
	CHECK_EQ(p.id.product_code, 58);
	CHECK_EQ(p.id.rev_major, 4);
	CHECK_EQ(p.id.rev_minor, 3);
	CHECK_EQ(p.id.status, 0x30);
	CHECK_EQ(p.id.serial, 0x524d8e);
	CHECK_STREQ(p.id.name, "1756-ENBT/A");
	CHECK_EQ(p.id.state, 3);

	tx.has[1] = 1;
	tx.pdu[1] = p;
	o = enip_json_object(&tx);
	id = json_object_get(json_object_get(o, "response"), "identity");
	CHECK_STREQ(json_string_value(json_object_get(json_object_get(o, "response"), "status")),
		    "success");
	CHECK_STREQ(json_string_value(json_object_get(id, "revision")), "4.3");
	CHECK_STREQ(json_string_value(json_object_get(id, "vendor_id")),
		    "Rockwell Automation/Allen-Bradley");
	CHECK_STREQ(json_string_value(json_object_get(id, "device_type")),
		    "Communications Adapter");
	CHECK_EQ(json_integer_value(json_object_get(id, "serial")), 0x524d8e);
	CHECK(json_object_get(o, "request") == NULL);
	json_decref(o);

	/* a cut anywhere: the header's length no longer fits, never a read
	 * past the bytes */
	for (size_t cut = 0; cut < n; cut++)
		CHECK_EQ(enip_pdu_decode(b, (uint32_t)cut, 1, &p), -1);
}

TEST(enip_decode_multiple_service_packet)
{
	uint8_t b[256];
	size_t n = unhex(msp_req, b);
	EnipPdu p;

	CHECK_EQ(enip_pdu_decode(b, (uint32_t)n, 0, &p), 0);
	CHECK_EQ(p.command, ENIP_CMD_SEND_RR_DATA);
	CHECK_EQ(p.session, 0x04030201);
	CHECK_EQ(p.ncip, 3);
	CHECK_EQ(p.cip[0].service, 0x0a);
	CHECK_EQ(p.cip[0].nseg, 2);
	CHECK_EQ(p.cip[0].seg[0].type, ENIP_SEG_CLASS);
	CHECK_EQ(p.cip[0].seg[0].value, 2);
	CHECK_EQ(p.cip[1].service, 0x03);
	CHECK(p.cip[1].embedded);
	CHECK_EQ(p.cip[1].nattr, 2);
	CHECK_EQ(p.cip[1].attr[1], 7);
	CHECK_EQ(p.cip[2].service, 0x0e);
	CHECK_EQ(p.cip[2].nseg, 3);
	CHECK_EQ(p.cip[2].seg[0].value, 0xf5);
	CHECK_EQ(p.cip[2].seg[2].type, ENIP_SEG_ATTRIBUTE);
	CHECK_EQ(p.cip[2].seg[2].value, 3);
	for (size_t cut = 0; cut < n; cut++)
		CHECK_EQ(enip_pdu_decode(b, (uint32_t)cut, 0, &p), -1);

	n = unhex(msp_resp, b);
	CHECK_EQ(enip_pdu_decode(b, (uint32_t)n, 1, &p), 0);
	CHECK_EQ(p.ncip, 3);
	CHECK_EQ(p.cip[0].service, 0x8a);
	CHECK_EQ(p.cip[2].status, 5);
	CHECK(p.cip[2].has_ext);
	CHECK_EQ(p.cip[2].ext_status, 0x1234);

	/* an offset pointing back into the offsets table is not a service */
	n = unhex(msp_req, b);
	b[48] = 0x02;
	CHECK_EQ(enip_pdu_decode(b, (uint32_t)n, 0, &p), -1);
}

static void enip_on(void)
{
	conf_set("app-layer.protocols.enip.enabled", "yes");
}

TEST(enip_tcp_flow_pairs_split_pdus)
{
	AppTestCtx c = { 0 };
	uint8_t q[256], r[256];
	size_t nq = unhex(msp_req, q), nr = unhex(msp_resp, r);
	EnipTx *tx;
	json_t *o;

	enip_on();
	app_test_init(&c, 6, "10.0.0.2", 40000, 44818);
	/* the request a byte at a time: detection waits for a header */
	for (size_t i = 0; i < nq; i++)
		app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, q + i, 1, 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_ENIP);
	CHECK_EQ(app_layer_tx_count(&c.f), 1);
	/* the response, then a second request still waiting */
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, r, (uint32_t)nr, 0);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, q, (uint32_t)nq, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 2);
	tx = app_layer_tx_get(&c.f, 0);
	CHECK(tx && tx->has[0] && tx->has[1]);
	CHECK_EQ(tx->pdu[1].cip[0].service, 0x8a);
	o = enip_json_object(tx);
	CHECK_STREQ(json_string_value(json_object_get(json_object_get(json_object_get(o,
		"request"), "cip"), "service")), "Multiple Service Packet");
	CHECK_STREQ(json_string_value(json_object_get(json_object_get(json_object_get(o,
		"request"), "cip"), "class_name")), "Message Router");
	json_decref(o);
	tx = app_layer_tx_get(&c.f, 1);
	CHECK(tx && tx->has[0] && !tx->has[1]);
	app_test_free(&c);
}

TEST(enip_udp_and_events)
{
	AppTestCtx c = { 0 };
	uint8_t b[256];
	size_t n = unhex(li_req, b);
	void *tx;

	enip_on();
	app_test_init(&c, 17, "10.0.0.2", 40000, 44818);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, b, (uint32_t)n, 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_ENIP);
	/* a response whose identity item runs past its data */
	n = unhex(li_resp, b);
	b[28] = 0x40;
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, b, (uint32_t)n, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 1);
	tx = app_layer_tx_get(&c.f, 0);
	CHECK(app_layer_tx_has_event(&c.f, tx,
				     app_layer_event_lookup(ALPROTO_ENIP, "invalid_pdu")));
	app_test_free(&c);

	/* not a known command: not EtherNet/IP */
	app_test_init(&c, 17, "10.0.0.2", 40000, 44818);
	n = unhex(li_req, b);
	b[0] = 0x99;
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, b, (uint32_t)n, 0);
	CHECK(c.f.app_proto != ALPROTO_ENIP);
	app_test_free(&c);
}

TEST(enip_rules_with_its_keywords)
{
	int ok = 0, bad = 0;

	enip_on();
	test_load_rules("alert enip any any -> any any (enip_command:list_identity; sid:1;)\n"
			"alert ip any any -> any any (enip_command:112; sid:2;)\n"
			"alert enip any any -> any any (cip_service:16,246,6; sid:3;)\n"
			"alert enip any any -> any any (enip.status:invalid_cmd; sid:4;)\n"
			"alert enip any any -> any any (enip.revision:>0x400; sid:5;)\n"
			"alert enip any any -> any any (enip.product_name; content:\"ENBT\"; sid:6;)\n"
			"alert enip any any -> any any (enip.cip_class:1; enip.cip_attribute:5; sid:7;)\n"
			"alert enip any any -> any any (enip_command:nosuch; sid:8;)\n"
			"alert enip any any -> any any (cip_service:1,2,3,4; sid:9;)\n"
			"alert enip any any -> any any (enip.state:256; sid:10;)\n"
			"alert http any any -> any any (enip.command:99; sid:11;)\n",
			&ok, &bad, NULL);
	CHECK_EQ(ok, 7);
	CHECK_EQ(bad, 4);
}
