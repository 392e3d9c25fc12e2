/* Modbus/TCP (app-layer/modbus.h): the decoder on requests and responses
 * of the main functions, exceptions and malformed ones, the value written
 * at an address, the registry entry through the generic app layer
 * (detection, split ADUs, pairing by transaction id, unsolicited
 * responses, request flood), the eve object, and rules with the keyword. */
#include "config.h"
#include "test.h"

#include <stdlib.h>

#include <jansson.h>

#include "app-layer/app-layer.h"
#include "app-layer/modbus.h"
#include "conf/conf.h"
#include "output/modbus-json.h"
#include "app-test-util.h"

/* an ADU: transaction id, unit, then the PDU */
static size_t adu(uint8_t *out, uint16_t tid, uint8_t unit, const uint8_t *pdu, size_t n)
{
	out[0] = (uint8_t)(tid >> 8);
	out[1] = (uint8_t)tid;
	out[2] = out[3] = 0;
	out[4] = (uint8_t)((n + 1) >> 8);
	out[5] = (uint8_t)(n + 1);
	out[6] = unit;
	memcpy(out + 7, pdu, n);
	return 7 + n;
}

TEST(modbus_decode_reads_writes_exceptions)
{
	static const uint8_t rd[] = { 3, 0x00, 0x10, 0x00, 0x02 };
	static const uint8_t rd_resp[] = { 3, 4, 0x12, 0x34, 0x56, 0x78 };
	static const uint8_t wr16[] = { 16, 0x00, 0x64, 0x00, 0x02, 4, 0x00, 0x0a, 0x01, 0x02 };
	static const uint8_t wr15[] = { 15, 0x00, 0x08, 0x00, 0x0a, 2, 0x05, 0x02 };
	static const uint8_t coil_bad[] = { 5, 0x00, 0x01, 0x12, 0x34 };
	static const uint8_t exc[] = { 0x83, 0x02 };
	static const uint8_t exc_bad[] = { 0x83, 0x09 };
	static const uint8_t diag[] = { 8, 0x00, 0x04, 0x00, 0x00 };
	uint8_t b[300];
	ModbusMsg m;
	uint16_t v;
	size_t n = adu(b, 7, 1, rd, sizeof(rd));

	CHECK_EQ(modbus_msg_decode(b, (uint32_t)n, 0, &m), 0);
	CHECK_EQ(m.tid, 7);
	CHECK(m.has_read);
	CHECK_EQ(m.read_addr, 16);
	CHECK_EQ(m.read_qty, 2);
	CHECK_EQ(m.access, MODBUS_ACC_READ | MODBUS_ACC_HOLDING);
	CHECK_EQ(m.category, MODBUS_CAT_PUBLIC_ASSIGNED);
	CHECK_EQ(m.errors, 0);
	/* the length field must be the message's */
	for (size_t cut = 0; cut < n; cut++)
		CHECK_EQ(modbus_msg_decode(b, (uint32_t)cut, 0, &m), -1);

	n = adu(b, 7, 1, rd_resp, sizeof(rd_resp));
	CHECK_EQ(modbus_msg_decode(b, (uint32_t)n, 1, &m), 0);
	CHECK_EQ(m.data_len, 4);
	CHECK_EQ(m.errors, 0);
	b[7 + 1] = 5; /* a byte count past the data */
	CHECK_EQ(modbus_msg_decode(b, (uint32_t)n, 1, &m), 0);
	CHECK(m.errors & MODBUS_ERR_LENGTH);

	n = adu(b, 8, 1, wr16, sizeof(wr16));
	CHECK_EQ(modbus_msg_decode(b, (uint32_t)n, 0, &m), 0);
	CHECK_EQ(m.errors, 0);
	CHECK(modbus_write_value_at(&m, 100, &v) && v == 10);
	CHECK(modbus_write_value_at(&m, 101, &v) && v == 0x0102);
	CHECK(!modbus_write_value_at(&m, 102, &v));
	CHECK(!modbus_write_value_at(&m, 99, &v));

	n = adu(b, 9, 1, wr15, sizeof(wr15));
	CHECK_EQ(modbus_msg_decode(b, (uint32_t)n, 0, &m), 0);
	CHECK_EQ(m.errors, 0);
	CHECK(modbus_write_value_at(&m, 8, &v) && v == 1);
	CHECK(modbus_write_value_at(&m, 9, &v) && v == 0);
	CHECK(modbus_write_value_at(&m, 17, &v) && v == 1);
	CHECK(!modbus_write_value_at(&m, 18, &v));
	CHECK(modbus_write_value_at(&m, 16, &v) && v == 0);
	CHECK(modbus_write_value_at(&m, 10, &v) && v == 1);

	n = adu(b, 9, 1, coil_bad, sizeof(coil_bad));
	CHECK_EQ(modbus_msg_decode(b, (uint32_t)n, 0, &m), 0);
	CHECK(m.errors & MODBUS_ERR_VALUE);

	n = adu(b, 9, 1, exc, sizeof(exc));
	CHECK_EQ(modbus_msg_decode(b, (uint32_t)n, 1, &m), 0);
	CHECK_EQ(m.exception, 2);
	CHECK_EQ(m.errors, 0);
	n = adu(b, 9, 1, exc_bad, sizeof(exc_bad));
	CHECK_EQ(modbus_msg_decode(b, (uint32_t)n, 1, &m), 0);
	CHECK(m.errors & MODBUS_ERR_EXCEPTION);
	/* the exception bit in a request */
	CHECK_EQ(modbus_msg_decode(b, (uint32_t)n, 0, &m), 0);
	CHECK(m.errors & MODBUS_ERR_FUNCTION);

	n = adu(b, 9, 1, diag, sizeof(diag));
	CHECK_EQ(modbus_msg_decode(b, (uint32_t)n, 0, &m), 0);
	CHECK(m.has_sub);
	CHECK_EQ(m.sub, 4);
	CHECK_EQ(modbus_function_category(9), MODBUS_CAT_RESERVED);
	CHECK_EQ(modbus_function_category(66), MODBUS_CAT_USER_DEFINED);
	CHECK_EQ(modbus_function_category(30), MODBUS_CAT_PUBLIC_UNASSIGNED);
}

static void modbus_on(void)
{
	conf_set("app-layer.protocols.modbus.enabled", "yes");
	conf_set("app-layer.protocols.modbus.request-flood", "3");
}

TEST(modbus_tcp_flow_pairs_by_transaction_id)
{
	static const uint8_t rd[] = { 3, 0x00, 0x10, 0x00, 0x01 };
	static const uint8_t rd_resp[] = { 3, 2, 0x12, 0x34 };
	static const uint8_t exc[] = { 0x83, 0x02 };
	AppTestCtx c = { 0 };
	uint8_t q[64], r[128];
	size_t nq, nr;
	ModbusTx *tx;
	json_t *o;

	modbus_on();
	app_test_init(&c, 6, "10.0.0.2", 40000, 502);
	/* two requests, ids 1 and 2, the first a byte at a time */
	nq = adu(q, 1, 5, rd, sizeof(rd));
	for (size_t i = 0; i < nq; i++)
		app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, q + i, 1, 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_MODBUS);
	nq = adu(q, 2, 5, rd, sizeof(rd));
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, q, (uint32_t)nq, 0);
	/* answered out of order, in one segment: 2 (an exception), then 1 */
	nr = adu(r, 2, 5, exc, sizeof(exc));
	nr += adu(r + nr, 1, 5, rd_resp, sizeof(rd_resp));
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, r, (uint32_t)nr, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 2);
	tx = app_layer_tx_get(&c.f, 0);
	CHECK(tx && tx->has[1] && tx->msg[1].function == 3);
	CHECK_EQ(tx->base.events, 0);
	tx = app_layer_tx_get(&c.f, 1);
	CHECK(tx && tx->has[1] && tx->msg[1].function == 0x83);
	o = modbus_json_object(tx);
	CHECK_EQ(json_integer_value(json_object_get(o, "id")), 1);
	CHECK_STREQ(json_string_value(json_object_get(json_object_get(json_object_get(o,
		"response"), "exception"), "code")), "IllegalDataAddr");
	CHECK_STREQ(json_string_value(json_object_get(json_object_get(o, "request"),
		"access_type")), "READ | HOLDING");
	json_decref(o);

	/* a response nobody asked for */
	nr = adu(r, 9, 5, rd_resp, sizeof(rd_resp));
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, r, (uint32_t)nr, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 3);
	tx = app_layer_tx_get(&c.f, 2);
	CHECK(app_layer_tx_has_event(&c.f, tx,
				     app_layer_event_lookup(ALPROTO_MODBUS, "unsolicited_response")));

	/* past request-flood (3) unanswered requests */
	for (uint16_t t = 10; t < 14; t++) {
		nq = adu(q, t, 5, rd, sizeof(rd));
		app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, q, (uint32_t)nq, 0);
	}
	tx = app_layer_tx_get(&c.f, 6);
	CHECK(tx && app_layer_tx_has_event(&c.f, tx,
					   app_layer_event_lookup(ALPROTO_MODBUS, "flooded")));
	/* a length no Modbus message has: the direction is given up */
	memcpy(q, "\x00\x01\x00\x00\x10\x00\x01\x03", 8);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, q, 8, 0);
	tx = app_layer_tx_get(&c.f, app_layer_tx_count(&c.f) - 1);
	CHECK(tx && app_layer_tx_has_event(&c.f, tx,
					   app_layer_event_lookup(ALPROTO_MODBUS, "invalid_length")));
	app_test_free(&c);

	/* not Modbus: a protocol id */
	app_test_init(&c, 6, "10.0.0.2", 40000, 502);
	nq = adu(q, 1, 5, rd, sizeof(rd));
	q[3] = 1;
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, q, (uint32_t)nq, 0);
	CHECK(c.f.app_proto != ALPROTO_MODBUS);
	app_test_free(&c);
}

TEST(modbus_rules_with_its_keyword)
{
	int ok = 0, bad = 0;

	modbus_on();
	test_load_rules("alert modbus any any -> any any (modbus: function 21; sid:1;)\n"
			"alert modbus any any -> any any (modbus: function 8, subfunction 4; sid:2;)\n"
			"alert modbus any any -> any any (modbus: function !reserved; sid:3;)\n"
			"alert modbus any any -> any any (modbus: access read discretes, address <100; sid:4;)\n"
			"alert modbus any any -> any any (modbus: access write holding, address 500, value >200; sid:5;)\n"
			"alert modbus any any -> any any (modbus: unit 10<>20, function 3; sid:6;)\n"
			"alert tcp any any -> any any (modbus: access write coils; sid:7;)\n"
			"alert modbus any any -> any any (modbus: access write discretes; sid:8;)\n"
			"alert modbus any any -> any any (modbus: access read, address 1, value 2; sid:9;)\n"
			"alert modbus any any -> any any (modbus: access write holding, address 1<>9, value 2; sid:10;)\n"
			"alert modbus any any -> any any (modbus: function 0; sid:11;)\n"
			"alert modbus any any -> any any (modbus: function nosuch; sid:12;)\n"
			"alert udp any any -> any any (modbus: function 3; sid:13;)\n",
			&ok, &bad, NULL);
	CHECK_EQ(ok, 7);
	CHECK_EQ(bad, 6);
}
