/* DHCP, NTP and TFTP: each decoder on datagrams built here, their registry
 * entries through the generic app layer (detection on their ports, one
 * transaction a datagram, events), their eve objects and their rules. */
#include "config.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app-layer/app-layer.h"
#include "app-layer/dhcp.h"
#include "app-layer/tftp.h"
#include "app-layer/ntp.h"
#include "output/dhcp-json.h"
#include "output/tftp-json.h"
#include "output/ntp-json.h"
#include "app-test-util.h"

/* ---------------- DHCP ---------------- */

/* A BOOTP header (op, xid, ciaddr, yiaddr, chaddr), the cookie, then opts. */
static size_t dhcp_build(uint8_t *out, uint8_t op, const uint8_t *opts, size_t nopts)
{
	static const uint8_t mac[6] = { 0x00, 0x11, 0x32, 0x17, 0x49, 0xf0 };

	memset(out, 0, DHCP_MIN_LEN);
	out[0] = op;
	out[1] = 1;
	out[2] = 6;
	memcpy(out + 4, "\xef\x64\x57\x44", 4);          /* xid 4016330564 */
	memcpy(out + 12, "\x0a\x10\x01\x04", 4);         /* ciaddr */
	if (op == BOOTP_REPLY) {
		memcpy(out + 16, "\x0a\x10\x01\x04", 4); /* yiaddr */
		memcpy(out + 20, "\x0a\x10\x01\x01", 4); /* siaddr */
	}
	memcpy(out + 28, mac, 6);
	memcpy(out + DHCP_HDR_LEN, "\x63\x82\x53\x63", 4);
	memcpy(out + DHCP_MIN_LEN, opts, nopts);
	return DHCP_MIN_LEN + nopts;
}

static const uint8_t ack_opts[] = {
	53, 1, 5,                               /* ack */
	1, 4, 255, 255, 0, 0,                   /* subnet mask */
	3, 4, 10, 16, 1, 1,                     /* router */
	51, 4, 0, 0, 0x0e, 0x10,                /* lease 3600 */
	0,                                      /* pad */
	58, 4, 0, 0, 0x06, 0x91,                /* renewal 1681 */
	59, 4, 0, 0, 0x0b, 0xd7,                /* rebinding 3031 */
	6, 8, 10, 16, 1, 1, 8, 8, 8, 8,         /* dns servers */
	12, 5, 'n', 'a', 's', '1', 0,           /* hostname with its NUL */
	255,
};

TEST(dhcp_decode_ack_times_and_eve)
{
	uint8_t buf[512];
	size_t n = dhcp_build(buf, BOOTP_REPLY, ack_opts, sizeof(ack_opts));
	DhcpMsg m;
	json_t *o, *a;

	CHECK(dhcp_looks_like(buf, (uint32_t)n));
	CHECK_EQ(dhcp_msg_decode(buf, (uint32_t)n, &m), 0);
	CHECK_EQ(m.op, BOOTP_REPLY);
	CHECK_EQ(m.xid, 4016330564u);
	CHECK_EQ(m.type, DHCP_TYPE_ACK);
	CHECK(m.has_time[DHCP_TIME_LEASE] && m.time[DHCP_TIME_LEASE] == 3600);
	CHECK(m.has_time[DHCP_TIME_RENEWAL] && m.time[DHCP_TIME_RENEWAL] == 1681);
	CHECK(m.has_time[DHCP_TIME_REBINDING] && m.time[DHCP_TIME_REBINDING] == 3031);
	CHECK(!m.malformed && !m.truncated);

	o = dhcp_json_object(&m, 1);
	CHECK_STREQ(json_string_value(json_object_get(o, "type")), "reply");
	CHECK_EQ(json_integer_value(json_object_get(o, "id")), 4016330564ll);
	CHECK_STREQ(json_string_value(json_object_get(o, "client_mac")), "00:11:32:17:49:f0");
	CHECK_STREQ(json_string_value(json_object_get(o, "assigned_ip")), "10.16.1.4");
	CHECK_STREQ(json_string_value(json_object_get(o, "next_server_ip")), "10.16.1.1");
	CHECK_STREQ(json_string_value(json_object_get(o, "relay_ip")), "0.0.0.0");
	CHECK_STREQ(json_string_value(json_object_get(o, "dhcp_type")), "ack");
	CHECK_STREQ(json_string_value(json_object_get(o, "subnet_mask")), "255.255.0.0");
	CHECK_EQ(json_integer_value(json_object_get(o, "lease_time")), 3600);
	CHECK_EQ(json_integer_value(json_object_get(o, "renewal_time")), 1681);
	CHECK_EQ(json_integer_value(json_object_get(o, "rebinding_time")), 3031);
	a = json_object_get(o, "dns_servers");
	CHECK_EQ(json_array_size(a), 2);
	CHECK_STREQ(json_string_value(json_array_get(a, 1)), "8.8.8.8");
	CHECK_EQ(json_string_length(json_object_get(o, "hostname")), 5);
	json_decref(o);

	/* without extended: the header's four and the options kept either way */
	o = dhcp_json_object(&m, 0);
	CHECK(json_object_get(o, "assigned_ip"));
	CHECK(!json_object_get(o, "client_ip"));
	CHECK(!json_object_get(o, "lease_time"));
	CHECK(!json_object_get(o, "routers"));
	CHECK_STREQ(json_string_value(json_object_get(o, "dhcp_type")), "ack");
	json_decref(o);
	dhcp_msg_free(&m);
}

TEST(dhcp_request_params_and_client_id)
{
	static const uint8_t opts[] = {
		53, 1, 3,
		61, 7, 1, 0x00, 0x11, 0x32, 0x17, 0x49, 0xf0,
		55, 5, 1, 3, 15, 6, 200,        /* 200: no name, left out */
		50, 4, 10, 16, 1, 4,
		255,
	};
	uint8_t buf[512];
	size_t n = dhcp_build(buf, BOOTP_REQUEST, opts, sizeof(opts));
	DhcpMsg m;
	json_t *o, *p;

	CHECK_EQ(dhcp_msg_decode(buf, (uint32_t)n, &m), 0);
	o = dhcp_json_object(&m, 1);
	CHECK_STREQ(json_string_value(json_object_get(o, "type")), "request");
	CHECK_STREQ(json_string_value(json_object_get(o, "dhcp_type")), "request");
	CHECK_STREQ(json_string_value(json_object_get(o, "client_id")), "00:11:32:17:49:f0");
	CHECK_STREQ(json_string_value(json_object_get(o, "requested_ip")), "10.16.1.4");
	CHECK(!json_object_get(o, "relay_ip"));
	p = json_object_get(o, "params");
	CHECK_EQ(json_array_size(p), 4);
	CHECK_STREQ(json_string_value(json_array_get(p, 2)), "domain");
	json_decref(o);
	dhcp_msg_free(&m);
}

TEST(dhcp_option_faults_and_short_datagrams)
{
	static const uint8_t cut[] = { 53, 1, 3, 12, 9, 'a' };         /* runs past the end */
	static const uint8_t bad[] = { 51, 2, 0, 1, 61, 1, 1, 255 };   /* short time, id */
	uint8_t buf[512];
	size_t n;
	DhcpMsg m;

	n = dhcp_build(buf, BOOTP_REQUEST, cut, sizeof(cut));
	CHECK_EQ(dhcp_msg_decode(buf, (uint32_t)n, &m), 0);
	CHECK(m.truncated && !m.malformed);
	CHECK_EQ(m.type, 3);
	dhcp_msg_free(&m);

	n = dhcp_build(buf, BOOTP_REQUEST, bad, sizeof(bad));
	CHECK_EQ(dhcp_msg_decode(buf, (uint32_t)n, &m), 0);
	CHECK(m.malformed && !m.truncated);
	CHECK(!m.has_time[DHCP_TIME_LEASE]);
	dhcp_msg_free(&m);

	for (size_t k = 0; k < DHCP_MIN_LEN; k++)
		CHECK_EQ(dhcp_msg_decode(buf, (uint32_t)k, &m), -1);
	buf[DHCP_HDR_LEN] = 0;                  /* no cookie: not DHCP */
	CHECK(!dhcp_looks_like(buf, (uint32_t)n));
}

TEST(dhcp_udp_flow_one_tx_per_datagram_with_events)
{
	static const uint8_t cut[] = { 53, 1, 3, 12, 9, 'a' };
	AppTestCtx c = { 0 };
	uint8_t req[512], ack[512];
	size_t nr = dhcp_build(req, BOOTP_REQUEST, cut, sizeof(cut));
	size_t na = dhcp_build(ack, BOOTP_REPLY, ack_opts, sizeof(ack_opts));
	DhcpTx *tx;

	app_test_init(&c, 17, "10.16.1.1", 68, 67);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, req, (uint32_t)nr, 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_DHCP);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, ack, (uint32_t)na, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 2);
	tx = app_layer_tx_get(&c.f, 0);
	CHECK(tx && tx->m.op == BOOTP_REQUEST);
	CHECK(app_layer_tx_has_event(&c.f, tx,
				     app_layer_event_lookup(ALPROTO_DHCP, "truncated_options")));
	tx = app_layer_tx_get(&c.f, 1);
	CHECK(tx && tx->m.type == DHCP_TYPE_ACK);
	CHECK(!app_layer_tx_has_event(&c.f, tx,
				      app_layer_event_lookup(ALPROTO_DHCP, "truncated_options")));
	app_test_free(&c);
}

TEST(dhcp_rules_with_its_keywords)
{
	int ok = 0, bad = 0;

	test_load_rules("alert dhcp any any -> any any (dhcp.leasetime:<7200; sid:1;)\n"
			"alert dhcp any any -> any any (dhcp.rebinding_time:>3000; sid:2;)\n"
			"alert dhcp any any -> any any (dhcp.renewal_time:1000<>2000; sid:3;)\n"
			"alert dhcp any any -> any any (app-layer-event:dhcp.malformed_options; sid:4;)\n"
			"alert dhcp any any -> any any (dhcp.leasetime:x; sid:5;)\n"
			"alert dhcp any any -> any any (dhcp.renewal_time:>; sid:6;)\n",
			&ok, &bad, NULL);
	CHECK_EQ(ok, 4);
	CHECK_EQ(bad, 2);
}

/* ---------------- TFTP ---------------- */

TEST(tftp_decode_requests_and_eve)
{
	static const uint8_t rrq[] = "\x00\x01rfc1350.txt\x00octet\x00";
	static const uint8_t wrq[] = "\x00\x02zz.bin\x00netascii\x00";
	TftpReq r;
	json_t *o;

	CHECK_EQ(tftp_req_decode(rrq, sizeof(rrq) - 1, &r), 0);
	CHECK_EQ(r.opcode, TFTP_RRQ);
	CHECK_STREQ(r.file, "rfc1350.txt");
	CHECK_STREQ(r.mode, "octet");
	o = tftp_json_object(&r);
	CHECK_STREQ(json_string_value(json_object_get(o, "packet")), "read");
	CHECK_STREQ(json_string_value(json_object_get(o, "file")), "rfc1350.txt");
	CHECK_STREQ(json_string_value(json_object_get(o, "mode")), "octet");
	json_decref(o);
	tftp_req_free(&r);

	CHECK_EQ(tftp_req_decode(wrq, sizeof(wrq) - 1, &r), 0);
	CHECK_STREQ(tftp_packet_name(r.opcode), "write");
	tftp_req_free(&r);
	CHECK_STREQ(tftp_packet_name(TFTP_ERROR), "error");

	/* every cut before the mode's NUL is not a request */
	for (uint32_t k = 0; k < sizeof(rrq) - 1; k++)
		CHECK_EQ(tftp_req_decode(rrq, k, &r), -1);
	CHECK_EQ(tftp_req_decode((const uint8_t *)"\x01\x01a\x00b\x00", 6, &r), -1);
}

TEST(tftp_udp_flow_to_port_69)
{
	static const uint8_t rrq[] = "\x00\x01" "boot.img\x00octet\x00";
	AppTestCtx c = { 0 }, d = { 0 };
	TftpTx *tx;

	app_test_init(&c, 17, "10.0.0.2", 40000, 69);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, rrq, sizeof(rrq) - 1, 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_TFTP);
	CHECK_EQ(app_layer_tx_count(&c.f), 1);
	tx = app_layer_tx_get(&c.f, 0);
	CHECK(tx && tx->r.opcode == TFTP_RRQ);
	CHECK_STREQ(tx->r.file, "boot.img");
	/* the server's error back on this flow makes no transaction */
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT,
			      (const uint8_t *)"\x00\x05\x00\x01no\x00", 7, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 1);
	app_test_free(&c);

	/* a datagram to 69 that is not TFTP's is left alone */
	app_test_init(&d, 17, "10.0.0.2", 40000, 69);
	app_layer_handle_data(d.at, &d.f, APP_DIR_TOSERVER, (const uint8_t *)"GET / HTTP", 10, 0);
	CHECK(d.f.app_proto != ALPROTO_TFTP);
	app_test_free(&d);
}

/* ---------------- NTP ---------------- */

/* a 48-byte header: LI 0, version, mode, stratum, reference id */
static void ntp_build(uint8_t *out, unsigned version, unsigned mode, uint8_t stratum,
		      const char *ref)
{
	memset(out, 0, NTP_HDR_LEN);
	out[0] = (uint8_t)(version << 3 | mode);
	out[1] = stratum;
	memcpy(out + 12, ref, 4);
}

TEST(ntp_decode_and_eve)
{
	uint8_t buf[NTP_HDR_LEN];
	NtpMsg m;
	json_t *o;

	ntp_build(buf, 4, 4, 2, "LOCL");
	CHECK_EQ(ntp_msg_decode(buf, sizeof(buf), &m), 0);
	CHECK_EQ(m.version, 4);
	CHECK_EQ(m.mode, 4);
	CHECK_EQ(m.stratum, 2);
	o = ntp_json_object(&m);
	CHECK_EQ(json_integer_value(json_object_get(o, "mode")), 4);
	CHECK_STREQ(json_string_value(json_object_get(o, "reference_id")), "4c:4f:43:4c");
	json_decref(o);
	CHECK_EQ(ntp_msg_decode(buf, NTP_HDR_LEN - 1, &m), -1);
	ntp_build(buf, 2, 3, 0, "\0\0\0\0");
	CHECK_EQ(ntp_msg_decode(buf, sizeof(buf), &m), -2);
	CHECK_EQ(ntp_mode_by_name("client"), 3);
	CHECK_EQ(ntp_mode_by_name("nope"), -1);
}

TEST(ntp_udp_flow_and_malformed_event)
{
	AppTestCtx c = { 0 };
	uint8_t req[NTP_HDR_LEN];
	NtpTx *tx;

	ntp_build(req, 3, 3, 0, "\0\0\0\0");
	app_test_init(&c, 17, "10.0.0.2", 123, 123);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, req, sizeof(req), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_NTP);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, (const uint8_t *)"\x24\x02", 2, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 2);
	tx = app_layer_tx_get(&c.f, 0);
	CHECK(tx && tx->valid && tx->m.version == 3);
	tx = app_layer_tx_get(&c.f, 1);
	CHECK(tx && !tx->valid);
	CHECK(app_layer_tx_has_event(&c.f, tx,
				     app_layer_event_lookup(ALPROTO_NTP, "malformed_data")));
	app_test_free(&c);
}

TEST(ntp_rules_with_its_keywords)
{
	int ok = 0, bad = 0;

	test_load_rules("alert ntp any any -> any any (ntp.version:4; sid:1;)\n"
			"alert ntp any any -> any any (ntp.mode:!server; sid:2;)\n"
			"alert ntp any any -> any any (ntp.stratum:>=2; sid:3;)\n"
			"alert ntp any any -> any any (ntp.reference_id; content:\"LOCL\"; sid:4;)\n"
			"alert ntp any any -> any any (ntp.mode:sideways; sid:5;)\n"
			"alert ntp any any -> any any (ntp.version:256; sid:6;)\n",
			&ok, &bad, NULL);
	CHECK_EQ(ok, 4);
	CHECK_EQ(bad, 2);
}
