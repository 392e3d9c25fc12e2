/* IKE (ike.h), BitTorrent DHT (bittorrent-dht.h, bencode.h) and NFS
 * (nfs.h): each decoder on messages built here, cut short at every length,
 * their registry entries through the generic app layer (detection,
 * transactions, events), their eve objects, and rules with their
 * keywords. */
#include "config.h"
#include "test.h"

#include <stdlib.h>

#include <jansson.h>

#include "app-layer/app-layer.h"
#include "app-layer/bencode.h"
#include "app-layer/bittorrent-dht.h"
#include "app-layer/ike.h"
#include "app-layer/nfs.h"
#include "output/bittorrent-dht-json.h"
#include "output/ike-json.h"
#include "output/nfs-json.h"
#include "app-test-util.h"

static void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v & 0xffff);
}

static size_t ike_hdr(uint8_t *b, int ver, uint8_t next, uint8_t exch, uint8_t flags)
{
	memset(b, 0, 28);
	memcpy(b, "\x11\x22\x33\x44\x55\x66\x77\x88", 8);
	b[16] = next;
	b[17] = (uint8_t)(ver << 4);
	b[18] = exch;
	b[19] = flags;
	return 28;
}

/* v1 main mode, first message: SA (one proposal, one transform: AES-CBC,
 * SHA, group 2, PSK, life 86400 s as a 4-byte TLV), KE, nonce, a vendor id */
static size_t ike_v1_msg(uint8_t *b)
{
	static const uint8_t attrs[] = {
		0x80, 0x01, 0x00, 0x07,  0x80, 0x02, 0x00, 0x02,  0x80, 0x04, 0x00, 0x02,
		0x80, 0x03, 0x00, 0x01,  0x80, 0x0b, 0x00, 0x01,
		0x00, 0x0c, 0x00, 0x04, 0x00, 0x01, 0x51, 0x80,
	};
	size_t o = ike_hdr(b, 1, 1, 2, 0), sa = o;
	size_t tl = 8 + sizeof(attrs), pl = 8 + tl, sl = 4 + 8 + pl;

	b[o] = 4;                                   /* SA, next KE */
	put16(b + o + 2, (unsigned)sl);
	put32(b + o + 4, 1);                        /* DOI IPsec */
	put32(b + o + 8, 1);
	o += 12;
	b[o] = 0;                                   /* proposal */
	put16(b + o + 2, (unsigned)pl);
	b[o + 4] = 1;
	b[o + 5] = 1;
	b[o + 6] = 0;
	b[o + 7] = 1;
	o += 8;
	b[o] = 0;                                   /* transform */
	put16(b + o + 2, (unsigned)tl);
	b[o + 4] = 1;
	b[o + 5] = 1;
	o += 8;
	memcpy(b + o, attrs, sizeof(attrs));
	o += sizeof(attrs);
	(void)sa;
	b[o] = 10;                                  /* KE, next nonce */
	put16(b + o + 2, 4 + 8);
	memcpy(b + o + 4, "KEKEKEKE", 8);
	o += 12;
	b[o] = 13;                                  /* nonce, next VID */
	put16(b + o + 2, 4 + 4);
	memcpy(b + o + 4, "\x01\x02\x03\x04", 4);
	o += 8;
	b[o] = 0;                                   /* VID */
	put16(b + o + 2, 4 + 4);
	memcpy(b + o + 4, "\xab\xcd\xef\x01", 4);
	o += 8;
	put32(b + 24, (uint32_t)o);
	return o;
}

/* v2 IKE_SA_INIT request: SA (ENCR 3DES, PRF SHA1, INTEG SHA1_96, DH 2) */
static size_t ike_v2_msg(uint8_t *b)
{
	size_t o = ike_hdr(b, 2, 33, 34, 0x08);
	static const uint8_t tr[4][2] = { { 1, 3 }, { 2, 2 }, { 3, 2 }, { 4, 2 } };
	size_t pl = 8 + 4 * 8;

	b[o] = 0;
	put16(b + o + 2, (unsigned)(4 + pl));
	o += 4;
	b[o] = 0;
	put16(b + o + 2, (unsigned)pl);
	b[o + 4] = 1;
	b[o + 5] = 1;                               /* IKE */
	b[o + 7] = 4;
	o += 8;
	for (int i = 0; i < 4; i++) {
		b[o] = i < 3 ? 3 : 0;
		put16(b + o + 2, 8);
		b[o + 4] = tr[i][0];
		put16(b + o + 6, tr[i][1]);
		o += 8;
	}
	put32(b + 24, (uint32_t)o);
	return o;
}

TEST(ike_v1_decode_fields_and_cuts)
{
	uint8_t b[256];
	size_t n = ike_v1_msg(b);
	IkeMsg m;

	CHECK_EQ(ike_msg_decode(b, (uint32_t)n, &m), 0);
	CHECK_EQ(m.version_major, 1);
	CHECK_EQ(m.exchange_type, 2);
	CHECK_STREQ(m.init_hex, "1122334455667788");
	CHECK_STREQ(m.resp_hex, "0000000000000000");
	CHECK_EQ(m.ntransforms, 1);
	CHECK_EQ(m.transforms[0].nattr, 6);
	CHECK_EQ(m.transforms[0].attr[5].type, 12);
	CHECK_EQ(m.transforms[0].attr[5].value, 86400);
	CHECK_EQ(m.ke_len, 8);
	CHECK_EQ(m.nonce_len, 4);
	CHECK_EQ(m.nvendors, 1);
	CHECK_STREQ(m.vendors[0], "abcdef01");
	CHECK_EQ(m.npayloads, 4);
	CHECK_EQ(m.events, 0);
	ike_msg_free(&m);
	/* a header cut short is not IKE; a chain cut short is malformed (the
	 * length field still says the whole message, so the header refuses) */
	for (size_t cut = 0; cut < n; cut++)
		CHECK_EQ(ike_msg_decode(b, (uint32_t)cut, &m), -1);
	/* a payload length past the message: malformed, decoded */
	put16(b + 28 + 2, 0x400);
	CHECK_EQ(ike_msg_decode(b, (uint32_t)n, &m), 0);
	CHECK(m.events & (1u << IKE_EV_MALFORMED_DATA));
	ike_msg_free(&m);
}

TEST(ike_attr_names_and_lookup)
{
	CHECK_STREQ(ike_attr_name(1), "alg_enc");
	CHECK_STREQ(ike_attr_name(14), "sa_key_length");
	CHECK_STREQ(ike_attr_name(99), "unknown");
	CHECK_EQ(ike_attr_by_name("sa_life_duration"), 12);
	CHECK_EQ(ike_attr_by_name("nope"), -1);
	CHECK_STREQ(ike_attr_value_name(1, 7), "EncAesCbc");
	CHECK_STREQ(ike_attr_value_name(4, 2), "GroupAlternate1024BitModpGroup");
	CHECK_STREQ(ike_attr_value_name(12, 86400), "Unknown");
	CHECK_STREQ(ike_v2_payload_name(0), "NoNextPayload");
	CHECK_STREQ(ike_v2_payload_name(40), "Nonce");
}

TEST(ike_v2_weak_crypto_events)
{
	uint8_t b[256];
	size_t n = ike_v2_msg(b);
	IkeMsg m;

	CHECK_EQ(ike_msg_decode(b, (uint32_t)n, &m), 0);
	CHECK(m.events & (1u << IKE_EV_WEAK_CRYPTO_ENC));
	CHECK(m.events & (1u << IKE_EV_WEAK_CRYPTO_PRF));
	CHECK(m.events & (1u << IKE_EV_WEAK_CRYPTO_AUTH));
	CHECK(m.events & (1u << IKE_EV_WEAK_CRYPTO_DH));
	CHECK(!(m.events & (1u << IKE_EV_WEAK_CRYPTO_NO_DH)));
	CHECK_EQ(m.npayloads, 2);              /* SecurityAssociation, NoNextPayload */
	CHECK_EQ(m.alg[IKE2_TT_DH], 2);
	ike_msg_free(&m);
}

TEST(ike_udp_flow_transactions_and_eve)
{
	AppTestCtx c = { 0 };
	uint8_t b[256];
	size_t n = ike_v1_msg(b);
	IkeTx *tx;
	json_t *o, *v1;

	app_test_init(&c, 17, "10.0.0.2", 500, 500);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, b, (uint32_t)n, 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_IKE);
	/* the responder's answer: the same transform, chosen */
	b[8] = 0x99;
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, b, (uint32_t)n, 0);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, (const uint8_t *)"junk", 4, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 3);
	tx = app_layer_tx_get(&c.f, 1);
	CHECK(tx && tx->valid && tx->dir == 1);
	o = ike_json_object(tx, 0);
	CHECK_STREQ(json_string_value(json_object_get(o, "alg_enc")), "EncAesCbc");
	CHECK_EQ(json_integer_value(json_object_get(o, "alg_enc_raw")), 7);
	CHECK_STREQ(json_string_value(json_object_get(o, "resp_spi")), "9900000000000000");
	v1 = json_object_get(o, "ikev1");
	CHECK_STREQ(json_string_value(json_object_get(json_object_get(v1, "client"),
						      "nonce_payload")), "01020304");
	CHECK_EQ(json_integer_value(json_object_get(json_object_get(v1, "server"),
						    "key_exchange_payload_length")), 8);
	json_decref(o);
	/* Suricata names a v1 exchange type only with extended: yes */
	o = ike_json_object(tx, 0);
	CHECK(!json_object_get(o, "exchange_type_verbose"));
	json_decref(o);
	o = ike_json_object(tx, 1);
	CHECK_EQ(json_integer_value(json_object_get(o, "exchange_type")), 2);
	CHECK_STREQ(json_string_value(json_object_get(o, "exchange_type_verbose")),
		    "Identity Protection");
	json_decref(o);
	tx = app_layer_tx_get(&c.f, 2);
	CHECK(tx && !tx->valid);
	CHECK(app_layer_tx_has_event(&c.f, tx,
				     app_layer_event_lookup(ALPROTO_IKE, "malformed_data")));
	app_test_free(&c);
}

TEST(ike_rules_with_its_keywords)
{
	int ok = 0, bad = 0;

	test_load_rules("alert ike any any -> any any (ike.init_spi; content:\"11\"; sid:1;)\n"
			"alert ike any any -> any any (ike.exchtype:2; sid:2;)\n"
			"alert ike any any -> any any (ike.chosen_sa_attribute:alg_hash=2; sid:3;)\n"
			"alert ike any any -> any any (ike.nonce_payload_length:<200; sid:4;)\n"
			"alert ikev2 any any -> any any (app-layer-event:ikev2.weak_crypto_dh; sid:5;)\n"
			"alert ike any any -> any any (ike.vendor; content:\"ab\"; sid:6;)\n"
			"alert ike any any -> any any (ike.chosen_sa_attribute:bogus=2; sid:7;)\n"
			"alert ike any any -> any any (ike.chosen_sa_attribute:alg_hash; sid:8;)\n"
			"alert ike any any -> any any (ike.exchtype:x; sid:9;)\n",
			&ok, &bad, NULL);
	CHECK_EQ(ok, 6);
	CHECK_EQ(bad, 3);
}

/* ---------------- bencode and the DHT ---------------- */

TEST(bencode_reader_bounds)
{
	const char *ok = "d1:ai-12e1:bl3:abcee";
	char deep[64];
	uint32_t off = 0;
	BencVal v, x;

	CHECK_EQ(benc_read((const uint8_t *)ok, (uint32_t)strlen(ok), &off, &v), 0);
	CHECK_EQ(v.type, BENC_DICT);
	CHECK_EQ(off, strlen(ok));
	CHECK_EQ(benc_dict_get(&v, "a", &x), 1);
	CHECK_EQ(x.i, -12);
	CHECK_EQ(benc_dict_get(&v, "zz", &x), 0);
	for (size_t cut = 0; cut < strlen(ok); cut++) {
		off = 0;
		CHECK_EQ(benc_read((const uint8_t *)ok, (uint32_t)cut, &off, &v), -1);
	}
	/* nesting past the bound, a string longer than the buffer, no digits */
	memset(deep, 'l', 40);
	memset(deep + 40, 'e', 20);
	off = 0;
	CHECK_EQ(benc_read((const uint8_t *)deep, 60, &off, &v), -1);
	off = 0;
	CHECK_EQ(benc_read((const uint8_t *)"9:ab", 4, &off, &v), -1);
	off = 0;
	CHECK_EQ(benc_read((const uint8_t *)"ie", 2, &off, &v), -1);
}

static const char dht_q[] = "d1:ad2:id20:abcdefghij01234567896:target20:mnopqrstuvwxyz123456e"
			    "1:q9:find_node1:t2:aa1:v4:LT011:y1:qe";

TEST(dht_decode_query_response_error)
{
	static const char r[] = "d1:rd2:id20:abcdefghij01234567895:nodes26:"
				"ABCDEFGHIJKLMNOPQRST\x0a\x00\x00\x01\x1a\xe1"
				"6:valuesl6:\xc0\xa8\x01\x02\x00\x50" "ee1:t2:aa1:y1:re";
	static const char e[] = "d1:eli201e23:A Generic Error Ocurrede1:t2:aa1:y1:ee";
	DhtMsg m;
	json_t *o;

	CHECK_EQ(dht_msg_decode((const uint8_t *)dht_q, sizeof(dht_q) - 1, &m), 0);
	CHECK_STREQ(m.request_type, "find_node");
	CHECK_EQ(m.a_target.len, 20);
	o = dht_json_object(&m);
	CHECK_STREQ(json_string_value(json_object_get(o, "transaction_id")), "6161");
	CHECK_STREQ(json_string_value(json_object_get(o, "client_version")), "4c543031");
	json_decref(o);
	dht_msg_free(&m);

	CHECK_EQ(dht_msg_decode((const uint8_t *)r, sizeof(r) - 1, &m), 0);
	CHECK_EQ(m.nnodes, 1);
	CHECK_EQ(m.nodes[0].port, 6881);
	CHECK_EQ(m.nvalues, 1);
	o = dht_json_object(&m);
	CHECK_STREQ(json_string_value(json_object_get(json_array_get(json_object_get(
			json_object_get(o, "response"), "nodes"), 0), "ip")), "10.0.0.1");
	CHECK_EQ(json_integer_value(json_object_get(json_array_get(json_object_get(
			json_object_get(o, "response"), "values"), 0), "port")), 80);
	json_decref(o);
	dht_msg_free(&m);

	CHECK_EQ(dht_msg_decode((const uint8_t *)e, sizeof(e) - 1, &m), 0);
	CHECK_EQ(m.err_num, 201);
	CHECK_STREQ(m.err_msg, "A Generic Error Ocurred");
	dht_msg_free(&m);

	for (size_t cut = 0; cut < sizeof(dht_q) - 1; cut++)
		CHECK_EQ(dht_msg_decode((const uint8_t *)dht_q, (uint32_t)cut, &m), -1);
	/* a query without its name: decoded, malformed */
	CHECK_EQ(dht_msg_decode((const uint8_t *)"d1:t2:aa1:y1:qe", 15, &m), 1);
	dht_msg_free(&m);
}

TEST(dht_udp_flow_any_port)
{
	AppTestCtx c = { 0 };
	DhtTx *tx;

	app_test_init(&c, 17, "10.0.0.2", 40000, 23456);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, (const uint8_t *)dht_q,
			      sizeof(dht_q) - 1, 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_BITTORRENT_DHT);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, (const uint8_t *)"d1:t2:aa1:y1:re",
			      15, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 2);
	tx = app_layer_tx_get(&c.f, 1);
	CHECK(tx && tx->dir == 1);
	CHECK(app_layer_tx_has_event(&c.f, tx,
				     app_layer_event_lookup(ALPROTO_BITTORRENT_DHT,
							    "malformed_packet")));
	app_test_free(&c);
}

/* ---------------- NFS ---------------- */

/* an NFSv3 call (AUTH_UNIX "host", uid 1000) of proc with a 8-byte handle
 * and, when name, a file name (and RENAME's target), record-marked when rm */
static size_t nfs3_call(uint8_t *b, uint32_t xid, uint32_t proc, const char *name,
			const char *to, int rm)
{
	size_t o = rm ? 4 : 0, s = o;
	static const uint32_t head[] = { 0, 2, NFS_PROGRAM, 3 };

	put32(b + o, xid);
	o += 4;
	for (int i = 0; i < 4; i++, o += 4)
		put32(b + o, head[i]);
	put32(b + o, proc);
	o += 4;
	put32(b + o, 1);                        /* AUTH_UNIX, 28-byte body */
	put32(b + o + 4, 28);
	put32(b + o + 8, 0);
	put32(b + o + 12, 4);
	memcpy(b + o + 16, "host", 4);
	put32(b + o + 20, 1000);
	put32(b + o + 24, 1000);
	put32(b + o + 28, 0);
	put32(b + o + 32, 0);
	o += 36;
	put32(b + o, 0);                        /* verifier */
	put32(b + o + 4, 0);
	o += 8;
	for (int k = 0; k < (to ? 2 : 1); k++) {
		const char *nm = k ? to : name;

		put32(b + o, 8);
		memcpy(b + o + 4, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
		o += 12;
		if (nm) {
			size_t n = strlen(nm);

			put32(b + o, (uint32_t)n);
			memset(b + o + 4, 0, (n + 3) & ~3u);
			memcpy(b + o + 4, nm, n);
			o += 4 + ((n + 3) & ~3u);
		}
	}
	if (rm)
		put32(b, 0x80000000u | (uint32_t)(o - s));
	return o;
}

static size_t nfs_reply(uint8_t *b, uint32_t xid, uint32_t status, int rm)
{
	size_t o = rm ? 4 : 0;

	put32(b + o, xid);
	put32(b + o + 4, 1);
	put32(b + o + 8, 0);                    /* accepted */
	put32(b + o + 12, 0);                   /* verifier */
	put32(b + o + 16, 0);
	put32(b + o + 20, 0);                   /* success */
	put32(b + o + 24, status);
	o += 28;
	if (rm)
		put32(b, 0x80000000u | (uint32_t)(o - 4));
	return o;
}

TEST(nfs_decode_call_reply_and_cuts)
{
	uint8_t b[256];
	size_t n = nfs3_call(b, 7, 14, "old", "new", 0);
	NfsCall c;
	NfsReply r;

	CHECK_EQ(nfs_rpc_decode(b, (uint32_t)n, &c, &r, NULL), 1);
	CHECK_EQ(c.xid, 7);
	CHECK_EQ(c.version, 3);
	CHECK_STREQ(nfs_proc_name(3, c.procedure), "RENAME");
	CHECK_STREQ(c.machine, "host");
	CHECK_EQ(c.uid, 1000);
	CHECK_EQ(c.fh_len, 8);
	CHECK(c.is_rename);
	CHECK_STREQ(c.name, "old");
	CHECK_STREQ(c.to, "new");
	/* cut inside the RPC header: not a whole call */
	for (size_t cut = 0; cut < 40; cut++)
		CHECK(nfs_rpc_decode(b, (uint32_t)cut, &c, &r, NULL) != 1 || !c.has_creds);
	/* cut in the arguments: the call, without its names */
	CHECK_EQ(nfs_rpc_decode(b, (uint32_t)(n - 2), &c, &r, NULL), 1);
	CHECK(!c.is_rename);
	n = nfs_reply(b, 7, 2, 0);
	CHECK_EQ(nfs_rpc_decode(b, (uint32_t)n, &c, &r, &c), 2);
	CHECK_EQ(r.xid, 7);
	CHECK_EQ(r.nfs_status, 2);
	CHECK_STREQ(nfs_status_name(3, r.nfs_status), "ERR_NOENT");
	CHECK_EQ(nfs_proc_by_name(0, "READDIRPLUS"), 17);
	CHECK_EQ(nfs_proc_by_name(2, "STATFS"), 17);
}

TEST(nfs_tcp_flow_pairs_by_xid)
{
	AppTestCtx c = { 0 };
	uint8_t b[1024];
	size_t n = nfs3_call(b, 1, 3, "a", NULL, 1), m;
	NfsTx *tx;
	json_t *o;

	m = n + nfs3_call(b + n, 2, 1, NULL, NULL, 1);
	app_test_init(&c, 6, "10.0.0.2", 900, 2049);
	/* two calls in one segment, cut in the middle of the second */
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, b, (uint32_t)(m - 10), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_NFS);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, b + m - 10, 10, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 2);
	/* the replies, the second first */
	n = nfs_reply(b, 2, 0, 1);
	n += nfs_reply(b + n, 1, 2, 1);
	n += nfs_reply(b + n, 99, 0, 1);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, b, (uint32_t)n, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 3);
	tx = app_layer_tx_get(&c.f, 0);
	CHECK(tx && tx->has_reply && tx->reply.nfs_status == 2);
	o = nfs_json_object(tx);
	CHECK_STREQ(json_string_value(json_object_get(json_object_get(o, "nfs"), "procedure")),
		    "LOOKUP");
	CHECK_STREQ(json_string_value(json_object_get(json_object_get(o, "nfs"), "filename")),
		    "a");
	CHECK_STREQ(json_string_value(json_object_get(json_object_get(o, "nfs"), "status")),
		    "ERR_NOENT");
	CHECK_STREQ(json_string_value(json_object_get(json_object_get(o, "rpc"), "auth_type")),
		    "UNIX");
	json_decref(o);
	tx = app_layer_tx_get(&c.f, 2);
	CHECK(tx && !tx->has_call);
	CHECK(app_layer_tx_has_event(&c.f, tx,
				     app_layer_event_lookup(ALPROTO_NFS, "unsolicited_reply")));
	app_test_free(&c);
}

TEST(nfs_rules_with_its_keywords)
{
	int ok = 0, bad = 0;

	test_load_rules("alert nfs any any -> any any (nfs_procedure:17; sid:1;)\n"
			"alert nfs any any -> any any (nfs_procedure:STATFS; sid:2;)\n"
			"alert nfs any any -> any any (nfs.version:3; sid:3;)\n"
			"alert nfs any any -> any any (nfs_version:>2; sid:4;)\n"
			"alert nfs any any -> any any (nfs_procedure:NOPE; sid:5;)\n",
			&ok, &bad, NULL);
	CHECK_EQ(ok, 4);
	CHECK_EQ(bad, 1);
}

/* an NFSv4 COMPOUND call (AUTH_NULL), record-marked: SEQUENCE, PUTFH (an
 * 8-byte handle), then WRITE of data at offset when data, else GETATTR */
static size_t nfs4_compound(uint8_t *b, uint32_t xid, const char *data, uint64_t offset)
{
	size_t o = 4;
	static const uint32_t head[] = { 0, 2, NFS_PROGRAM, 4, 1, 0, 0, 0, 0 };

	put32(b + o, xid);
	o += 4;
	for (int i = 0; i < 9; i++, o += 4)
		put32(b + o, head[i]);  /* ..., COMPOUND, cred and verifier NULL */
	put32(b + o, 0);                /* tag */
	put32(b + o + 4, 1);            /* minorversion */
	put32(b + o + 8, 3);            /* three operations */
	o += 12;
	put32(b + o, 53);               /* SEQUENCE */
	memset(b + o + 4, 0, 32);
	o += 36;
	put32(b + o, 22);               /* PUTFH */
	put32(b + o + 4, 8);
	memcpy(b + o + 8, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
	o += 16;
	if (data) {
		size_t n = strlen(data);

		put32(b + o, 38);       /* WRITE: stateid, offset, stable, data */
		memset(b + o + 4, 0, 16);
		put32(b + o + 20, (uint32_t)(offset >> 32));
		put32(b + o + 24, (uint32_t)offset);
		put32(b + o + 28, 2);
		put32(b + o + 32, (uint32_t)n);
		memset(b + o + 36, 0, (n + 3) & ~3u);
		memcpy(b + o + 36, data, n);
		o += 36 + ((n + 3) & ~3u);
	} else {
		put32(b + o, 9);        /* GETATTR, one bitmap word */
		put32(b + o + 4, 1);
		put32(b + o + 8, 0x10);
		o += 12;
	}
	put32(b, 0x80000000u | (uint32_t)(o - 4));
	return o;
}

TEST(nfs4_compound_write_decode)
{
	uint8_t b[256];
	size_t n = nfs4_compound(b, 5, "hello", 0);
	NfsCall c;
	NfsReply r;

	CHECK_EQ(nfs_rpc_decode(b + 4, (uint32_t)n - 4, &c, &r, NULL), 1);
	CHECK_EQ(c.version, 4);
	CHECK_STREQ(nfs_proc_name(4, c.procedure), "WRITE");
	CHECK(c.is_write);
	CHECK_EQ(c.w_len, 5);
	CHECK(memcmp(c.w_data, "hello", 5) == 0);
	CHECK_EQ(c.fh_len, 8);
	/* cut inside the WRITE's data: no write */
	CHECK_EQ(nfs_rpc_decode(b + 4, (uint32_t)n - 8, &c, &r, NULL), 1);
	CHECK(!c.is_write);
	n = nfs4_compound(b, 6, NULL, 0);
	CHECK_EQ(nfs_rpc_decode(b + 4, (uint32_t)n - 4, &c, &r, NULL), 1);
	CHECK_EQ(c.procedure, 1);
	CHECK_EQ(c.v4_main, 0);
	CHECK_EQ(nfs_proc_by_name(4, "SEQUENCE"), 53);
	CHECK_EQ(nfs_proc_by_name(0, "EXCHANGE_ID"), 42);
}

TEST(nfs4_writes_make_one_file_tx)
{
	AppTestCtx c = { 0 };
	uint8_t b[1024];
	size_t n;
	NfsTx *tx;
	const File *f;
	json_t *o;

	app_test_init(&c, 6, "10.0.0.2", 900, 2049);
	/* a GETATTR compound: no transaction, its reply expected */
	n = nfs4_compound(b, 1, NULL, 0);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, b, (uint32_t)n, 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_NFS);
	n = nfs_reply(b, 1, 0, 1);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, b, (uint32_t)n, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 0);
	/* two WRITEs to the handle, the second overlapping the first */
	n = nfs4_compound(b, 2, "hello", 0);
	n += nfs4_compound(b + n, 3, "lo world", 3);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, b, (uint32_t)n, 0);
	n = nfs_reply(b, 2, 0, 1);
	n += nfs_reply(b + n, 3, 0, 1);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, b, (uint32_t)n, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 1);
	tx = app_layer_tx_get(&c.f, 0);
	CHECK(tx && tx->file_tx && tx->chunks == 2 && tx->has_reply);
	CHECK(!tx->base.done[1]);
	CHECK(!app_layer_tx_has_event(&c.f, tx,
				      app_layer_event_lookup(ALPROTO_NFS, "unsolicited_reply")));
	/* the flow's end closes the file: the transaction completes */
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, NULL, 0, APP_EOF);
	CHECK(tx->base.done[1]);
	f = files_first(&tx->files[APP_DIR_TOSERVER]);
	CHECK(f && file_size(f) == 11 && file_state(f) == FILE_STATE_CLOSED);
	o = nfs_json_object(tx);
	CHECK_STREQ(json_string_value(json_object_get(json_object_get(o, "nfs"), "procedure")),
		    "WRITE");
	CHECK(json_is_true(json_object_get(json_object_get(o, "nfs"), "file_tx")));
	CHECK_STREQ(json_string_value(json_object_get(json_object_get(o, "rpc"), "auth_type")),
		    "NULL");
	json_decref(o);
	app_test_free(&c);
}

/* an NFSv3 READ call of the 8-byte handle fh at off, record-marked */
static size_t nfs3_read_call(uint8_t *b, uint32_t xid, const uint8_t *fh, uint64_t off)
{
	size_t o = nfs3_call(b, xid, 6, NULL, NULL, 1);

	memcpy(b + o - 8, fh, 8);
	put32(b + o, (uint32_t)(off >> 32));
	put32(b + o + 4, (uint32_t)off);
	put32(b + o + 8, 4096);
	o += 12;
	put32(b, 0x80000000u | (uint32_t)(o - 4));
	return o;
}

/* a reply (status 0) with more results after the status, record-marked */
static size_t nfs_reply_with(uint8_t *b, uint32_t xid, const uint8_t *res, size_t n)
{
	size_t o = nfs_reply(b, xid, 0, 1);

	memcpy(b + o, res, n);
	o += n;
	put32(b, 0x80000000u | (uint32_t)(o - 4));
	return o;
}

/* READ3resok: no attributes, count, eof, the data */
static size_t read3_res(uint8_t *r, const char *data, int eof)
{
	size_t n = strlen(data);

	put32(r, 0);
	put32(r + 4, (uint32_t)n);
	put32(r + 8, (uint32_t)eof);
	put32(r + 12, (uint32_t)n);
	memset(r + 16, 0, (n + 3) & ~3u);
	memcpy(r + 16, data, n);
	return 16 + ((n + 3) & ~3u);
}

TEST(nfs3_read_replies_make_a_named_file_to_the_client)
{
	static const uint8_t obj[8] = { 0xaa, 0xbb, 0xcc, 0xdd, 1, 2, 3, 4 };
	AppTestCtx c = { 0 };
	uint8_t b[1024], res[128];
	size_t n;
	NfsTx *tx;
	const File *f;
	json_t *o, *nfs;

	app_test_init(&c, 6, "10.0.0.2", 900, 2049);
	/* LOOKUP "secret.txt" in the directory: the reply's handle is obj */
	n = nfs3_call(b, 1, 3, "secret.txt", NULL, 1);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, b, (uint32_t)n, 0);
	put32(res, 8);
	memcpy(res + 4, obj, 8);
	n = nfs_reply_with(b, 1, res, 12);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, b, (uint32_t)n, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 1);
	/* two READs in flight, answered out of order; the last says eof */
	n = nfs3_read_call(b, 2, obj, 0);
	n += nfs3_read_call(b + n, 3, obj, 5);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, b, (uint32_t)n, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 2);
	tx = app_layer_tx_get(&c.f, 1);
	CHECK(tx && tx->file_tx && tx->file_dir == APP_DIR_TOCLIENT && !tx->base.done[1]);
	n = nfs_reply_with(b, 2, res, read3_res(res, "hello", 0));
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, b, (uint32_t)n, 0);
	CHECK(!tx->base.done[1]);
	n = nfs_reply_with(b, 3, res, read3_res(res, " world", 1));
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, b, (uint32_t)n, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 2);
	CHECK(tx->base.done[1] && tx->has_reply && tx->chunks == 2);
	CHECK(!app_layer_tx_has_event(&c.f, tx,
				      app_layer_event_lookup(ALPROTO_NFS, "unsolicited_reply")));
	CHECK(!files_first(&tx->files[APP_DIR_TOSERVER]));
	f = files_first(&tx->files[APP_DIR_TOCLIENT]);
	CHECK(f && file_size(f) == 11 && file_state(f) == FILE_STATE_CLOSED);
	o = nfs_json_object(tx);
	nfs = json_object_get(o, "nfs");
	CHECK_STREQ(json_string_value(json_object_get(nfs, "procedure")), "READ");
	CHECK_STREQ(json_string_value(json_object_get(nfs, "filename")), "secret.txt");
	CHECK(json_is_true(json_object_get(json_object_get(nfs, "read"), "last")));
	CHECK(json_is_true(json_object_get(json_object_get(nfs, "read"), "first")));
	CHECK_EQ(json_integer_value(json_object_get(json_object_get(nfs, "read"), "chunks")), 2);
	CHECK(!json_object_get(nfs, "write"));
	/* a READ call makes no transaction of its own; the credentials stay */
	CHECK_STREQ(json_string_value(json_object_get(json_object_get(o, "rpc"), "auth_type")),
		    "UNIX");
	json_decref(o);
	app_test_free(&c);
}

TEST(nfs4_compound_read_reply_decode)
{
	uint8_t b[256];
	size_t o = 0;
	NfsCall call;
	NfsReply r;

	memset(&call, 0, sizeof(call));
	call.version = 4;
	call.procedure = NFS4_OP_READ;
	call.is_read = 1;
	/* xid, reply, accepted, verifier, success; COMPOUND4res: status, tag,
	 * SEQUENCE (ok, 36 bytes), PUTFH (ok), READ (ok, eof, "abc") */
	put32(b, 9);
	put32(b + 4, 1);
	memset(b + 8, 0, 16);
	o = 24;
	put32(b + o, 0);
	put32(b + o + 4, 0);
	put32(b + o + 8, 3);
	o += 12;
	put32(b + o, 53);
	put32(b + o + 4, 0);
	memset(b + o + 8, 0, 36);
	o += 44;
	put32(b + o, 22);
	put32(b + o + 4, 0);
	o += 8;
	put32(b + o, 25);
	put32(b + o + 4, 0);
	put32(b + o + 8, 1);
	put32(b + o + 12, 3);
	memcpy(b + o + 16, "abc\0", 4);
	o += 20;
	CHECK_EQ(nfs_rpc_decode(b, (uint32_t)o, &call, &r, &call), 2);
	CHECK(r.has_read && r.r_eof && r.r_len == 3 && memcmp(r.r_data, "abc", 3) == 0);
	/* cut anywhere before the data: no chunk, never past the message */
	for (size_t cut = 0; cut < o - 4; cut++)
		if (nfs_rpc_decode(b, (uint32_t)cut, &call, &r, &call) == 2 && r.has_read)
			CHECK(r.r_data + r.r_len <= b + cut);
}

TEST(nfs3_read_file_ends_truncated_at_a_gap)
{
	static const uint8_t obj[8] = { 9, 9, 9, 9, 1, 2, 3, 4 };
	AppTestCtx c = { 0 };
	uint8_t b[512], res[64];
	size_t n;
	NfsTx *tx;
	const File *f;

	app_test_init(&c, 6, "10.0.0.2", 900, 2049);
	n = nfs3_read_call(b, 2, obj, 0);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, b, (uint32_t)n, 0);
	n = nfs_reply_with(b, 2, res, read3_res(res, "part", 0));
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, b, (uint32_t)n, 0);
	tx = app_layer_tx_get(&c.f, 0);
	CHECK(tx && tx->file_tx && !tx->base.done[1]);
	/* the server's bytes lost: its records are, and with them the file */
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, NULL, 100, APP_GAP);
	CHECK(tx->base.done[1]);
	f = files_first(&tx->files[APP_DIR_TOCLIENT]);
	CHECK(f && file_size(f) == 104 && file_state(f) == FILE_STATE_TRUNCATED);
	app_test_free(&c);
}

TEST(nfs4_open_getfh_names_the_written_file)
{
	static const uint8_t fh[8] = { 0x77, 0x77, 0x77, 0x77, 1, 2, 3, 4 };
	AppTestCtx c = { 0 };
	uint8_t b[1024];
	size_t o, n;
	NfsTx *tx;
	static const uint32_t head[] = { 0, 2, NFS_PROGRAM, 4, 1, 0, 0, 0, 0 };

	app_test_init(&c, 6, "10.0.0.2", 900, 2049);
	/* SEQUENCE, PUTFH (the directory), OPEN "doc.txt" (NOCREATE,
	 * CLAIM_NULL), GETFH */
	o = 4;
	put32(b + o, 11);
	o += 4;
	for (int i = 0; i < 9; i++, o += 4)
		put32(b + o, head[i]);
	put32(b + o, 0);
	put32(b + o + 4, 1);
	put32(b + o + 8, 4);
	o += 12;
	put32(b + o, 53);
	memset(b + o + 4, 0, 32);
	o += 36;
	put32(b + o, 22);
	put32(b + o + 4, 8);
	memcpy(b + o + 8, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
	o += 16;
	put32(b + o, 18);               /* OPEN: seqid, access, deny */
	memset(b + o + 4, 0, 12);
	memset(b + o + 16, 0, 8);       /* owner: clientid, "ab" */
	put32(b + o + 24, 2);
	memcpy(b + o + 28, "ab\0\0", 4);
	put32(b + o + 32, 0);           /* OPEN4_NOCREATE */
	put32(b + o + 36, 0);           /* CLAIM_NULL */
	put32(b + o + 40, 7);
	memcpy(b + o + 44, "doc.txt\0", 8);
	o += 52;
	put32(b + o, 10);               /* GETFH */
	o += 4;
	put32(b, 0x80000000u | (uint32_t)(o - 4));
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, b, (uint32_t)o, 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_NFS);
	CHECK_EQ(app_layer_tx_count(&c.f), 0);
	/* the reply: ok; tag; SEQUENCE, PUTFH, OPEN (no delegation), GETFH */
	o = nfs_reply(b, 11, 0, 1);
	put32(b + o, 0);
	put32(b + o + 4, 4);
	o += 8;
	put32(b + o, 53);
	put32(b + o + 4, 0);
	memset(b + o + 8, 0, 36);
	o += 44;
	put32(b + o, 22);
	put32(b + o + 4, 0);
	o += 8;
	put32(b + o, 18);
	put32(b + o + 4, 0);
	memset(b + o + 8, 0, 40);       /* stateid, change_info, rflags */
	put32(b + o + 48, 0);           /* attrset: an empty bitmap */
	put32(b + o + 52, 0);           /* OPEN_DELEGATE_NONE */
	o += 56;
	put32(b + o, 10);
	put32(b + o + 4, 0);
	put32(b + o + 8, 8);
	memcpy(b + o + 12, fh, 8);
	o += 20;
	put32(b, 0x80000000u | (uint32_t)(o - 4));
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, b, (uint32_t)o, 0);
	/* a WRITE to the opened handle: its file has the OPEN's name */
	n = nfs4_compound(b, 12, "data", 0);
	memcpy(b + 4 + 40 + 12 + 36 + 8, fh, 8);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, b, (uint32_t)n, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 1);
	tx = app_layer_tx_get(&c.f, 0);
	CHECK(tx && tx->file_tx && tx->call.has_name);
	CHECK_STREQ(tx->call.name, "doc.txt");
	app_test_free(&c);
}
