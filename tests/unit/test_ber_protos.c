/* LDAP, Kerberos 5 and SNMP: the BER cursor they share (util/ber.h), each
 * decoder (ldap.h, krb5.h, snmp.h) on messages built here with a small
 * TLV writer of its own, their registry entries through the generic app
 * layer (detection, framing split anywhere, transactions, events), their
 * eve objects and rules with their keywords. */
#include "config.h"
#include "test.h"

#include <stdlib.h>

#include <jansson.h>

#include "app-layer/app-layer.h"
#include "app-layer/krb5.h"
#include "app-layer/ldap.h"
#include "app-layer/snmp.h"
#include "output/krb5-json.h"
#include "output/ldap-json.h"
#include "output/snmp-json.h"
#include "util/ber.h"
#include "app-test-util.h"

/* One TLV: tag, a definite length (long form past 127), the value. Not
 * inlined: the callers' buffers are sized for what they build. */
__attribute__((noinline)) static size_t tlv(uint8_t *out, uint8_t tag, const void *v, size_t n)
{
	size_t o = 0;

	out[o++] = tag;
	if (n < 128) {
		out[o++] = (uint8_t)n;
	} else if (n > 0xffff) {
		out[o++] = 0x83;
		out[o++] = (uint8_t)(n >> 16);
		out[o++] = (uint8_t)(n >> 8);
		out[o++] = (uint8_t)n;
	} else {
		out[o++] = 0x82;
		out[o++] = (uint8_t)(n >> 8);
		out[o++] = (uint8_t)n;
	}
	memmove(out + o, v, n);
	return o + n;
}

static size_t tstr(uint8_t *out, uint8_t tag, const char *s)
{
	return tlv(out, tag, s, strlen(s));
}

static size_t tint(uint8_t *out, uint8_t tag, int v)
{
	uint8_t b = (uint8_t)v;

	return tlv(out, tag, &b, 1);
}

/* ---------------- the cursor ---------------- */

TEST(ber_cursor_peek_next_int_oid)
{
	static const uint8_t oid[] = { 0x2b, 6, 1, 2, 1, 1, 3, 0 };
	uint8_t buf[64];
	char s[64];
	BerElem e;
	BerCur c;
	uint32_t total;
	int64_t v;
	size_t n = tlv(buf, 0x30, "\x02\x02\xff\x7f\x01\x01\xff", 7);

	CHECK_EQ(ber_peek(buf, (uint32_t)n, &e, &total), 0);
	CHECK_EQ(total, 9);
	CHECK_EQ(ber_peek(buf, 5, &e, &total), 1);       /* content cut short */
	CHECK_EQ(ber_peek(buf, 1, &e, &total), -1);      /* header cut short */
	CHECK_EQ(ber_peek((const uint8_t *)"\x30\x80\x00\x00", 4, &e, &total), -2);
	/* a length of 45 bytes is no length: not BER, whatever follows */
	CHECK_EQ(ber_peek((const uint8_t *)"\x0c\xad\xf2\x87", 4, &e, &total), -2);
	ber_cur_init(&c, buf, (uint32_t)n);
	CHECK_EQ(ber_next(&c, &e), 0);
	CHECK_EQ(c.left, 0);
	ber_cur_into(&c, &e);
	CHECK_EQ(ber_next_tag(&c, 0, 1, &e), -1);         /* not a BOOLEAN next */
	CHECK_EQ(ber_next_tag(&c, 0, 2, &e), 0);
	CHECK_EQ(ber_int(&e, &v), 0);
	CHECK_EQ(v, -129);
	CHECK_EQ(ber_next(&c, &e), 0);
	CHECK_EQ(ber_next(&c, &e), -1);
	CHECK_EQ(ber_oid_str(oid, sizeof(oid), s, sizeof(s)), 17);
	CHECK_STREQ(s, "1.3.6.1.2.1.1.3.0");
	CHECK_EQ(ber_oid_str(oid, sizeof(oid), s, 8), -1);  /* no room */
	CHECK_EQ(ber_oid_str((const uint8_t *)"\x2b\x86", 2, s, sizeof(s)), -1);
}

/* ---------------- LDAP ---------------- */

/* LDAPMessage { id, op } */
static size_t ldap_msg(uint8_t *out, int id, const uint8_t *op, size_t oplen)
{
	uint8_t *in = malloc(oplen + 8);
	size_t n;

	if (!in)
		return 0;
	n = tint(in, 0x02, id);
	memcpy(in + n, op, oplen);
	n = tlv(out, 0x30, in, n + oplen);
	free(in);
	return n;
}

static size_t ldap_add_request(uint8_t *out, int id)
{
	uint8_t a[512], vals[128], attr[256], list[512], op[1024];
	size_t n, k;

	n = tstr(vals, 0x04, "top");
	n += tstr(vals + n, 0x04, "domain");
	k = tstr(attr, 0x04, "objectClass");
	k += tlv(attr + k, 0x31, vals, n);
	n = tlv(list, 0x30, attr, k);
	k = tstr(a, 0x04, "dc=example,dc=com");
	k += tlv(a + k, 0x30, list, n);
	n = tlv(op, 0x68, a, k);                 /* [APPLICATION 8] */
	return ldap_msg(out, id, op, n);
}

/* an LDAPResult operation of tag (APPLICATION, constructed) */
static size_t ldap_result(uint8_t *out, int id, uint8_t tag, int code, const char *msg)
{
	uint8_t a[512], op[600];
	size_t k = tint(a, 0x0a, code);

	k += tstr(a + k, 0x04, "");
	k += tstr(a + k, 0x04, msg);
	return ldap_msg(out, id, op, tlv(op, tag, a, k));
}

TEST(ldap_decode_add_request_and_result)
{
	uint8_t buf[2048];
	LdapMsg m;
	BerCur c, vals;
	const uint8_t *t, *v;
	uint32_t tl, vl;
	size_t n = ldap_add_request(buf, 2);

	CHECK_EQ(ldap_msg_decode(buf, (uint32_t)n, &m), 0);
	CHECK_EQ(m.id, 2);
	CHECK_EQ(m.op, LDAP_OP_ADD_REQUEST);
	CHECK_EQ(m.dn.len, 17);
	CHECK(memcmp(ldap_at(&m, &m.dn), "dc=example,dc=com", 17) == 0);
	ldap_list_cursor(&m, &c);
	CHECK_EQ(ldap_attr_next(&c, &t, &tl, &vals), 0);
	CHECK(tl == 11 && memcmp(t, "objectClass", 11) == 0);
	CHECK_EQ(ldap_val_next(&vals, &v, &vl), 0);
	CHECK(vl == 3 && memcmp(v, "top", 3) == 0);
	CHECK_EQ(ldap_val_next(&vals, &v, &vl), 0);
	CHECK_EQ(ldap_val_next(&vals, &v, &vl), -1);
	CHECK_EQ(ldap_attr_next(&c, &t, &tl, &vals), -1);
	ldap_msg_free(&m);

	n = ldap_result(buf, 2, 0x65, 4, "too many");
	CHECK_EQ(ldap_msg_decode(buf, (uint32_t)n, &m), 0);
	CHECK_EQ(m.op, LDAP_OP_SEARCH_RESULT_DONE);
	CHECK(m.has_result);
	CHECK_EQ(m.result_code, 4);
	CHECK_STREQ(ldap_result_name(m.result_code), "size_limit_exceeded");
	ldap_msg_free(&m);
	/* cut anywhere: not a message */
	for (size_t cut = 0; cut < n; cut++)
		CHECK_EQ(ldap_msg_decode(buf, (uint32_t)cut, &m), -1);
	CHECK_EQ(ldap_op_by_name("search_request"), 3);
	CHECK_EQ(ldap_op_by_name("3"), 3);
	CHECK_EQ(ldap_op_by_name("17"), -1);
	CHECK_EQ(ldap_result_by_name("compare_true"), 6);
}

TEST(ldap_tcp_byte_at_a_time_request_responses_one_tx)
{
	AppTestCtx c = { 0 };
	uint8_t req[2048], rsp[2048];
	size_t nq = ldap_add_request(req, 7), nr;
	LdapTx *tx;
	json_t *o;

	app_test_init(&c, 6, "10.0.0.2", 40000, 389);
	for (size_t i = 0; i < nq; i++)
		app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, req + i, 1, 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_LDAP);
	CHECK_EQ(app_layer_tx_count(&c.f), 1);
	tx = app_layer_tx_get(&c.f, 0);
	CHECK(tx && tx->has_request);
	CHECK_EQ(app_layer_tx_progress(&c.f, tx, APP_DIR_TOCLIENT), 0);
	/* an answer to another id: a transaction of its own, with its event */
	nr = ldap_result(rsp, 99, 0x69, 0, "");
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, rsp, (uint32_t)nr, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 2);
	CHECK(app_layer_tx_has_event(&c.f, app_layer_tx_get(&c.f, 1),
				     app_layer_event_lookup(ALPROTO_LDAP, "request_not_found")));
	nr = ldap_result(rsp, 7, 0x69, 0, "");
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, rsp, (uint32_t)nr, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 2);
	CHECK_EQ(tx->nresponses, 1);
	CHECK_EQ(app_layer_tx_progress(&c.f, tx, APP_DIR_TOCLIENT), 2);
	o = ldap_json_object(tx);
	CHECK(o);
	CHECK_STREQ(json_string_value(json_object_get(json_object_get(o, "request"), "operation")),
		    "add_request");
	CHECK_STREQ(json_string_value(json_object_get(json_object_get(json_array_get(
			    json_object_get(o, "responses"), 0), "add_response"), "result_code")),
		    "success");
	json_decref(o);
	app_test_free(&c);
}

TEST(ldap_garbage_after_detection_is_invalid_data_and_max_tx_closes)
{
	AppTestCtx c = { 0 };
	uint8_t req[2048];
	size_t nq = ldap_add_request(req, 1);
	uint64_t n;

	app_test_init(&c, 6, "10.0.0.2", 40000, 389);
	/* far more live (unanswered) requests than max-tx: the old ones are
	 * closed, the transaction count goes on, nothing grows unbounded */
	for (int i = 0; i < 1100; i++)
		app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, req, (uint32_t)nq, 0);
	n = app_layer_tx_count(&c.f);
	CHECK_EQ(n, 1100);
	CHECK(app_layer_tx_has_event(&c.f, app_layer_tx_get(&c.f, 1024),
				     app_layer_event_lookup(ALPROTO_LDAP, "too_many_transactions")));
	CHECK_EQ(app_layer_tx_progress(&c.f, app_layer_tx_get(&c.f, 0), APP_DIR_TOCLIENT), 2);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, (const uint8_t *)"\x04garbage", 8, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 1101);
	CHECK(app_layer_tx_has_event(&c.f, app_layer_tx_get(&c.f, 1100),
				     app_layer_event_lookup(ALPROTO_LDAP, "invalid_data")));
	app_test_free(&c);
}

/* A search answered by entries without end: past 16 MiB kept on the flow
 * its transaction is closed (logged and freed as any other), and the later
 * entries, whose request is no longer waiting, are transactions of their
 * own: the flow's memory stays bounded. */
TEST(ldap_flow_memory_bounded_by_closing)
{
	AppTestCtx c = { 0 };
	size_t big = 512 * 1024, n;
	uint8_t *val = calloc(1, big), *a = malloc(big + 64), *op = malloc(big + 128),
		*msg = malloc(big + 256), req[2048];
	void *tx0;

	CHECK(val && a && op && msg);
	memset(val, 'x', big);
	/* a search_result_entry ([APPLICATION 4]) whose object name carries
	 * the bulk, without attributes */
	n = tlv(a, 0x04, val, big);
	n += tlv(a + n, 0x30, "", 0);
	n = tlv(op, 0x64, a, n);
	n = ldap_msg(msg, 1, op, n);
	app_test_init(&c, 6, "10.0.0.2", 40000, 389);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, req, (uint32_t)ldap_add_request(req, 1),
			      0);
	tx0 = app_layer_tx_get(&c.f, 0);
	CHECK(tx0);
	for (int i = 0; i < 31; i++)
		app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, msg, (uint32_t)n, 0);
	/* 31 entries of 512 KiB: under 16 MiB, all in the one transaction */
	CHECK_EQ(app_layer_tx_count(&c.f), 1);
	CHECK_EQ(app_layer_tx_progress(&c.f, tx0, APP_DIR_TOCLIENT), 1);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, msg, (uint32_t)n, 0);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, msg, (uint32_t)n, 0);
	CHECK_EQ(app_layer_tx_progress(&c.f, tx0, APP_DIR_TOCLIENT), 2);
	/* nothing freed them here (no logging, no gc): each later entry closes
	 * what is live again and is a transaction of its own */
	CHECK_EQ(app_layer_tx_count(&c.f), 3);
	CHECK(app_layer_tx_has_event(&c.f, app_layer_tx_get(&c.f, 2),
				     app_layer_event_lookup(ALPROTO_LDAP, "request_not_found")));
	/* once freed, the flow keeps entries again */
	app_layer_tx_gc(&c.f, 0);
	CHECK(!app_layer_tx_get(&c.f, 0));
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, msg, (uint32_t)n, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 4);
	CHECK_EQ(app_layer_tx_progress(&c.f, app_layer_tx_get(&c.f, 3), APP_DIR_TOCLIENT), 2);
	app_test_free(&c);
	free(val);
	free(a);
	free(op);
	free(msg);
}

TEST(ldap_not_on_other_ports_nor_garbage)
{
	AppTestCtx c = { 0 };
	uint8_t req[2048];
	size_t nq = ldap_add_request(req, 1);

	app_test_init(&c, 6, "10.0.0.2", 40000, 8080);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, req, (uint32_t)nq, 0);
	CHECK(c.f.app_proto != ALPROTO_LDAP);
	app_test_free(&c);
	memset(&c, 0, sizeof(c));
	app_test_init(&c, 17, "10.0.0.2", 40000, 389);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, (const uint8_t *)"\x30\x03\x04\x01x", 5,
			      0);
	CHECK(c.f.app_proto != ALPROTO_LDAP);
	app_test_free(&c);
}

/* SASL-wrapped LDAP seen midstream (a capture of the shared data): bytes
 * that are no BER on the LDAP port, past detection's 24 held bytes, are
 * not LDAP, and nothing is held beyond them */
TEST(ldap_probe_no_more_past_the_held_bytes)
{
	AppTestCtx c = { 0 };
	uint8_t junk[300];

	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (uint8_t)(i * 7 + 1);
	junk[0] = 0x0c;
	junk[1] = 0xad;
	app_test_init(&c, 6, "10.0.0.2", 40000, 389);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, junk, 10, 0);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, junk + 10, sizeof(junk) - 10, 0);
	CHECK(c.f.app_proto != ALPROTO_LDAP);
	app_test_free(&c);
}

TEST(ldap_rules_with_its_keywords)
{
	int ok = 0, bad = 0;

	test_load_rules("alert tcp any any -> any any (ldap.responses.operation:search_result_done,-1; sid:1;)\n"
			"alert ldap any any -> any any (ldap.responses.result_code:size_limit_exceeded,all; sid:2;)\n"
			"alert ldap any any -> any any (ldap.responses.count:>2; sid:3;)\n"
			"alert ldap any any -> any any (ldap.request.dn; content:\"dc=\"; sid:4;)\n"
			"alert ldap any any -> any any (ldap.responses.attribute_type; content:\"cn\"; sid:5;)\n"
			"alert ldap any any -> any any (ldap.request.operation:no_such_op; sid:6;)\n"
			"alert ldap any any -> any any (ldap.responses.operation:bind_response,x; sid:7;)\n"
			"alert http any any -> any any (ldap.request.dn; content:\"x\"; sid:8;)\n"
			"alert ldap any any -> any any (app-layer-event:ldap.invalid_data; sid:9;)\n",
						&ok, &bad, NULL);
	CHECK_EQ(ok, 6);
	CHECK_EQ(bad, 3);
}

/* ---------------- Kerberos 5 ---------------- */

/* PrincipalName { name-type [0], name-string [1] SEQUENCE OF } */
static size_t principal(uint8_t *out, const char *a, const char *b)
{
	uint8_t s[256], seq[300], in[400], t[16];
	size_t n = tstr(s, 0x1b, a), k;

	if (b)
		n += tstr(s + n, 0x1b, b);
	k = tlv(seq, 0x30, s, n);
	n = tlv(in, 0xa0, t, tint(t, 0x02, 1));
	n += tlv(in + n, 0xa1, seq, k);
	return tlv(out, 0x30, in, n);
}

/* AS-REQ with cname, realm, sname in its body */
static size_t as_req(uint8_t *out)
{
	uint8_t body[1024], b[1024], tmp[512], req[1200], seq[1300];
	size_t n = 0, k;

	n += tlv(body + n, 0xa0, tmp, tlv(tmp, 0x03, "\x00\x40\x81\x00\x10", 5));
	n += tlv(body + n, 0xa1, tmp, principal(tmp, "alice", NULL));
	n += tlv(body + n, 0xa2, tmp, tstr(tmp, 0x1b, "EXAMPLE.ORG"));
	n += tlv(body + n, 0xa3, tmp, principal(tmp, "krbtgt", "EXAMPLE.ORG"));
	k = tlv(b, 0x30, body, n);
	n = tlv(req, 0xa1, tmp, tint(tmp, 0x02, 5));
	n += tlv(req + n, 0xa2, tmp, tint(tmp, 0x02, 10));
	n += tlv(req + n, 0xa4, b, k);
	k = tlv(seq, 0x30, req, n);
	return tlv(out, 0x6a, seq, k);           /* [APPLICATION 10] */
}

/* KRB-ERROR with error-code 25 and sname */
static size_t krb_error(uint8_t *out)
{
	uint8_t in[1024], tmp[512], seq[1100];
	size_t n = 0;

	n += tlv(in + n, 0xa0, tmp, tint(tmp, 0x02, 5));
	n += tlv(in + n, 0xa1, tmp, tint(tmp, 0x02, 30));
	n += tlv(in + n, 0xa4, tmp, tstr(tmp, 0x18, "20240101000000Z"));
	n += tlv(in + n, 0xa5, tmp, tint(tmp, 0x02, 1));
	n += tlv(in + n, 0xa6, tmp, tint(tmp, 0x02, 25));
	n += tlv(in + n, 0xa9, tmp, tstr(tmp, 0x1b, "EXAMPLE.ORG"));
	n += tlv(in + n, 0xaa, tmp, principal(tmp, "krbtgt", "EXAMPLE.ORG"));
	return tlv(out, 0x7e, seq, tlv(seq, 0x30, in, n));
}

TEST(krb5_decode_as_req_and_error)
{
	uint8_t buf[2048];
	Krb5Msg m;
	json_t *o;
	size_t n = as_req(buf);

	CHECK_EQ(krb5_msg_decode(buf, (uint32_t)n, &m), 0);
	CHECK_EQ(m.msg_type, KRB5_AS_REQ);
	CHECK_EQ(m.cname.n, 1);
	CHECK_STREQ(m.cname.comp[0], "alice");
	CHECK_STREQ(m.realm, "EXAMPLE.ORG");
	CHECK_EQ(m.sname.n, 2);
	o = krb5_json_object(&m);
	CHECK_STREQ(json_string_value(json_object_get(o, "msg_type")), "KRB_AS_REQ");
	CHECK_STREQ(json_string_value(json_object_get(o, "sname")), "krbtgt/EXAMPLE.ORG");
	CHECK_STREQ(json_string_value(json_object_get(o, "encryption")), "<none>");
	CHECK(json_is_false(json_object_get(o, "weak_encryption")));
	json_decref(o);
	krb5_msg_free(&m);
	n = krb_error(buf);
	CHECK_EQ(krb5_msg_decode(buf, (uint32_t)n, &m), 0);
	CHECK_EQ(m.error_code, 25);
	CHECK_STREQ(krb5_error_name(m.error_code), "KDC_ERR_PREAUTH_REQUIRED");
	CHECK(!m.realm);                           /* eve's realm is the client's */
	krb5_msg_free(&m);
	for (size_t cut = 0; cut < n; cut++)
		CHECK_EQ(krb5_msg_decode(buf, (uint32_t)cut, &m), -1);
	CHECK(krb5_etype_weak(23) && !krb5_etype_weak(18));
	CHECK_STREQ(krb5_etype_name(18), "aes256-cts-hmac-sha1-96");
	CHECK_EQ(krb5_msg_by_name("TGS_REQ"), 12);
}

TEST(krb5_tcp_records_split_and_joined_error_names_request)
{
	AppTestCtx c = { 0 };
	uint8_t buf[4096];
	size_t n = 0, m;
	Krb5Tx *tx;

	m = as_req(buf + 4);
	buf[0] = buf[1] = 0;
	buf[2] = (uint8_t)(m >> 8);
	buf[3] = (uint8_t)m;
	n = 4 + m;
	/* two records, given in three pieces cutting through both */
	memcpy(buf + n, buf, n);
	app_test_init(&c, 6, "10.0.0.2", 50000, 88);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, buf, 7, 0);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, buf + 7, (uint32_t)n, 0);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, buf + 7 + n, (uint32_t)n - 7, 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_KRB5);
	CHECK_EQ(app_layer_tx_count(&c.f), 2);
	m = krb_error(buf + 4);
	buf[2] = (uint8_t)(m >> 8);
	buf[3] = (uint8_t)m;
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, buf, (uint32_t)(4 + m), 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 3);
	tx = app_layer_tx_get(&c.f, 2);
	CHECK(tx && tx->valid);
	CHECK_EQ(tx->m.failed_request, KRB5_AS_REQ);
	CHECK(app_layer_tx_flags(&c.f, tx) & APP_TX_ONLY_TC);
	/* a record mark with the reserved bit: malformed, the side given up */
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, (const uint8_t *)"\x80\0\0\x10", 4, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 4);
	CHECK(app_layer_tx_has_event(&c.f, app_layer_tx_get(&c.f, 3),
				     app_layer_event_lookup(ALPROTO_KRB5, "malformed_data")));
	app_test_free(&c);
}

TEST(krb5_rules_with_its_keywords)
{
	int ok = 0, bad = 0;

	test_load_rules("alert krb5 any any -> any any (krb5_msg_type:10; sid:1;)\n"
			"alert krb5 any any -> any any (krb5_msg_type:!AS_REQ; sid:2;)\n"
			"alert krb5 any any -> any any (krb5_err_code:25; sid:3;)\n"
			"alert krb5 any any -> any any (krb5.sname; content:\"krbtgt\"; sid:4;)\n"
			"alert krb5 any any -> any any (krb5_cname; content:\"a\"; sid:5;)\n"
			"alert krb5 any any -> any any (krb5.weak_encryption; sid:6;)\n"
			"alert krb5 any any -> any any (krb5.ticket_encryption:weak; sid:7;)\n"
			"alert krb5 any any -> any any (krb5.ticket_encryption:rc4-hmac,!des-cbc-crc; sid:8;)\n"
			"alert krb5 any any -> any any (krb5_msg_type:NOPE; sid:9;)\n"
			"alert krb5 any any -> any any (krb5.ticket_encryption:bogus-etype; sid:10;)\n",
						&ok, &bad, NULL);
	CHECK_EQ(ok, 8);
	CHECK_EQ(bad, 2);
}

/* ---------------- SNMP ---------------- */

static size_t snmp_v2c_get(uint8_t *out, const char *community)
{
	static const uint8_t oid[] = { 0x2b, 6, 1, 2, 1, 1, 1, 0 };
	uint8_t vb[64], vbl[80], pdu[128], p[160], msg[256];
	size_t n, k;

	n = tlv(vb, 0x06, oid, sizeof(oid));
	n += tlv(vb + n, 0x05, "", 0);
	k = tlv(vbl, 0x30, vb, n);
	n = tint(pdu, 0x02, 1);
	n += tint(pdu + n, 0x02, 0);
	n += tint(pdu + n, 0x02, 0);
	n += tlv(pdu + n, 0x30, vbl, k);
	k = tlv(p, 0xa0, pdu, n);                /* GetRequest */
	n = tint(msg, 0x02, 1);                  /* v2c */
	n += tstr(msg + n, 0x04, community);
	memcpy(msg + n, p, k);
	return tlv(out, 0x30, msg, n + k);
}

TEST(snmp_decode_v2c_get_and_udp_flow)
{
	AppTestCtx c = { 0 };
	uint8_t buf[512];
	SnmpMsg m;
	SnmpTx *tx;
	json_t *o;
	size_t n = snmp_v2c_get(buf, "public");

	CHECK_EQ(snmp_msg_decode(buf, (uint32_t)n, &m), 0);
	CHECK_EQ(m.version, 2);
	CHECK_EQ(m.pdu_type, SNMP_PDU_GET_REQUEST);
	CHECK_STREQ(m.community, "public");
	CHECK_EQ(m.nvars, 1);
	CHECK_STREQ(m.vars[0], "1.3.6.1.2.1.1.1.0");
	o = snmp_json_object(&m);
	CHECK_EQ(json_integer_value(json_object_get(o, "version")), 2);
	CHECK_STREQ(json_string_value(json_object_get(o, "pdu_type")), "get_request");
	json_decref(o);
	snmp_msg_free(&m);
	for (size_t cut = 0; cut < n; cut++)
		CHECK_EQ(snmp_msg_decode(buf, (uint32_t)cut, &m), -1);

	app_test_init(&c, 17, "10.0.0.2", 40000, 161);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, buf, (uint32_t)n, 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_SNMP);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, (const uint8_t *)"\x30\x00", 2, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 2);
	tx = app_layer_tx_get(&c.f, 1);
	CHECK(tx && !tx->valid);
	CHECK(app_layer_tx_has_event(&c.f, tx,
				     app_layer_event_lookup(ALPROTO_SNMP, "malformed_data")));
	app_test_free(&c);
}

TEST(snmp_rules_with_its_keywords)
{
	int ok = 0, bad = 0;

	test_load_rules("alert snmp any any -> any any (snmp.version:<3; sid:1;)\n"
			"alert snmp any any -> any any (snmp.pdu_type:2; sid:2;)\n"
			"alert snmp any any -> any any (snmp.community; content:\"public\"; sid:3;)\n"
			"alert snmp any any -> any any (snmp.usm; content:\"admin\"; sid:4;)\n"
			"alert snmp any any -> any any (snmp.version:x; sid:5;)\n"
			"alert snmp any any -> any any (snmp.pdu_type:>; sid:6;)\n",
						&ok, &bad, NULL);
	CHECK_EQ(ok, 4);
	CHECK_EQ(bad, 2);
}
