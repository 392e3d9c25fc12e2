/* QUIC: the Initial keys against RFC 9001 Appendix A and RFC 9369
 * Appendix A, header protection against RFC 9001 A.2, and the datagram
 * parser on Initials protected here (a ClientHello cut in two CRYPTO
 * frames sent out of order, a retransmission, a bad tag) and on a gQUIC
 * Q046 CHLO; the eve object of what it read. */
#include "config.h"
#include "test.h"

#include <stdlib.h>

#include <jansson.h>
#include <openssl/evp.h>

#include "app-layer/app-layer.h"
#include "app-layer/quic-crypto.h"
#include "app-layer/quic-parse.h"
#include "output/quic-json.h"

static void unhex(const char *h, uint8_t *out)
{
	for (size_t i = 0; h[2 * i]; i++) {
		unsigned v;
		sscanf(h + 2 * i, "%2x", &v);
		out[i] = (uint8_t)v;
	}
}

static int eqhex(const uint8_t *b, size_t n, const char *h)
{
	uint8_t x[64];

	unhex(h, x);
	return strlen(h) == 2 * n && memcmp(b, x, n) == 0;
}

static const uint8_t rfc_dcid[8] = { 0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51, 0x57, 0x08 };

TEST(quic_initial_keys_rfc9001_a1)
{
	QuicKeys k[2];

	CHECK_EQ(quic_initial_keys(QUIC_V1, rfc_dcid, 8, k), 0);
	CHECK(eqhex(k[0].key, 16, "1f369613dd76d5467730efcbe3b1a22d"));
	CHECK(eqhex(k[0].iv, 12, "fa044b2f42a3fd3b46fb255c"));
	CHECK(eqhex(k[0].hp, 16, "9f50449e04a0e810283a1e9933adedd2"));
	CHECK(eqhex(k[1].key, 16, "cf3a5331653c364c88f0f379b6067e37"));
	CHECK(eqhex(k[1].iv, 12, "0ac1493ca1905853b0bba03e"));
	CHECK(eqhex(k[1].hp, 16, "c206b8d9b9f0f37644430b490eeaa314"));
}

TEST(quic_initial_keys_rfc9369_a1_v2)
{
	QuicKeys k[2];

	CHECK_EQ(quic_initial_keys(QUIC_V2, rfc_dcid, 8, k), 0);
	CHECK(eqhex(k[0].key, 16, "8b1a0bc121284290a29e0971b5cd045d"));
	CHECK(eqhex(k[0].iv, 12, "91f73e2351d8fa91660e909f"));
	CHECK(eqhex(k[0].hp, 16, "45b95e15235d6f45a6b19cbcb0294ba9"));
	CHECK(eqhex(k[1].key, 16, "82db637861d55e1d011f19ea71d5d2a7"));
	CHECK(eqhex(k[1].iv, 12, "dd13c276499c0249d3310652"));
	CHECK(eqhex(k[1].hp, 16, "edf6d05c83121201b436e16877593c3a"));
}

TEST(quic_versions_without_keys)
{
	QuicKeys k[2];

	CHECK_EQ(quic_crypto_supported(0xff00001d), 0);   /* draft-29 */
	CHECK_EQ(quic_crypto_supported(0xff000017), 0);   /* draft-23 */
	CHECK_EQ(quic_crypto_supported(0xff000016), -1);  /* draft-22 */
	CHECK_EQ(quic_crypto_supported(0x51303436), -1);  /* Q046 */
	CHECK_EQ(quic_initial_keys(0x0a0a0a0a, rfc_dcid, 8, k), -1);
}

/* RFC 9001 A.2: the client Initial's protected header, its sample, and
 * the header once the protection is off (packet number 2, 4 bytes). */
TEST(quic_header_protection_rfc9001_a2)
{
	QuicKeys k[2];
	uint8_t pkt[22 + 16];

	CHECK_EQ(quic_initial_keys(QUIC_V1, rfc_dcid, 8, k), 0);
	unhex("c000000001088394c8f03e5157080000449e7b9aec34", pkt);
	unhex("d1b1c98dd7689fb8ec11d242b123dc9b", pkt + 22);
	CHECK_EQ(quic_unprotect_header(&k[0], pkt, sizeof(pkt), 18), 4);
	CHECK(eqhex(pkt, 22, "c300000001088394c8f03e5157080000449e00000002"));
	/* too short to sample */
	CHECK_EQ(quic_unprotect_header(&k[0], pkt, 30, 18), -1);
}

/* ---- Initials protected here ---- */

static size_t client_hello(uint8_t *o)
{
	static const char sni[] = "example.org";
	size_t n = 0, sl = strlen(sni);

	o[n++] = 1;                     /* ClientHello; length below */
	n += 3;
	o[n++] = 3, o[n++] = 3;
	memset(o + n, 0x11, 32);
	n += 32;
	o[n++] = 0;                     /* session id */
	o[n++] = 0, o[n++] = 4;         /* two suites, GREASE first */
	o[n++] = 0x0a, o[n++] = 0x0a, o[n++] = 0x13, o[n++] = 0x01;
	o[n++] = 1, o[n++] = 0;         /* null compression */
	size_t elen_at = n;
	n += 2;
	/* server_name */
	o[n++] = 0, o[n++] = 0, o[n++] = 0, o[n++] = (uint8_t)(sl + 5);
	o[n++] = 0, o[n++] = (uint8_t)(sl + 3), o[n++] = 0, o[n++] = 0, o[n++] = (uint8_t)sl;
	memcpy(o + n, sni, sl);
	n += sl;
	/* alpn "h3" */
	o[n++] = 0, o[n++] = 16, o[n++] = 0, o[n++] = 5, o[n++] = 0, o[n++] = 3;
	o[n++] = 2, o[n++] = 'h', o[n++] = '3';
	/* supported_versions: 1.3 */
	o[n++] = 0, o[n++] = 43, o[n++] = 0, o[n++] = 3, o[n++] = 2, o[n++] = 3, o[n++] = 4;
	size_t el = n - elen_at - 2;
	o[elen_at] = (uint8_t)(el >> 8), o[elen_at + 1] = (uint8_t)el;
	size_t bl = n - 4;
	o[1] = (uint8_t)(bl >> 16), o[2] = (uint8_t)(bl >> 8), o[3] = (uint8_t)bl;
	return n;
}

/* An Initial of v1 with one CRYPTO frame (off, data), padded, protected
 * with k (packet number pn, 2 bytes); bad_tag flips a tag byte. */
static size_t initial(uint8_t *out, const QuicKeys *k, uint16_t pn, uint64_t off,
		      const uint8_t *data, size_t len, int bad_tag)
{
	uint8_t plain[1200];
	size_t pl = 0, n = 0;
	int outl = 0;

	plain[pl++] = 0x06;
	plain[pl++] = (uint8_t)(0x40 | off >> 8), plain[pl++] = (uint8_t)off;
	plain[pl++] = (uint8_t)(0x40 | len >> 8), plain[pl++] = (uint8_t)len;
	memcpy(plain + pl, data, len);
	pl += len;
	memset(plain + pl, 0, 40);      /* PADDING */
	pl += 40;
	out[n++] = 0xc1;                /* Initial, 2-byte packet number */
	out[n++] = 0, out[n++] = 0, out[n++] = 0, out[n++] = 1;
	out[n++] = 8;
	memcpy(out + n, rfc_dcid, 8);
	n += 8;
	out[n++] = 0;                   /* scid */
	out[n++] = 0;                   /* token */
	size_t plen = 2 + pl + 16;
	out[n++] = (uint8_t)(0x40 | plen >> 8), out[n++] = (uint8_t)plen;
	size_t pn_off = n;
	out[n++] = (uint8_t)(pn >> 8), out[n++] = (uint8_t)pn;
	uint8_t nonce[12];
	memcpy(nonce, k->iv, 12);
	nonce[10] ^= (uint8_t)(pn >> 8), nonce[11] ^= (uint8_t)pn;
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	EVP_EncryptInit_ex(c, EVP_aes_128_gcm(), NULL, k->key, nonce);
	EVP_EncryptUpdate(c, NULL, &outl, out, (int)n);
	EVP_EncryptUpdate(c, out + n, &outl, plain, (int)pl);
	EVP_EncryptFinal_ex(c, out + n + pl, &outl);
	EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, 16, out + n + pl);
	EVP_CIPHER_CTX_free(c);
	if (bad_tag)
		out[n + pl + 3] ^= 1;
	/* header protection */
	uint8_t mask[16];
	c = EVP_CIPHER_CTX_new();
	EVP_EncryptInit_ex(c, EVP_aes_128_ecb(), NULL, k->hp, NULL);
	EVP_CIPHER_CTX_set_padding(c, 0);
	EVP_EncryptUpdate(c, mask, &outl, out + pn_off + 4, 16);
	EVP_CIPHER_CTX_free(c);
	out[0] ^= mask[0] & 0x0f;
	out[pn_off] ^= mask[1], out[pn_off + 1] ^= mask[2];
	return n + pl + 16;
}

static QuicTx *last_tx(QuicState *s)
{
	return (QuicTx *)s->txs.tail;
}

TEST(quic_hello_in_two_initials_out_of_order)
{
	QuicKeys k[2];
	uint8_t ch[256], pkt[1400];
	size_t chl = client_hello(ch), cut = 20;
	QuicState *s = quic_state_new();

	CHECK(s);
	CHECK_EQ(quic_initial_keys(QUIC_V1, rfc_dcid, 8, k), 0);
	/* the hello's end first: a transaction without it */
	size_t n = initial(pkt, &k[0], 0, cut, ch + cut, chl - cut, 0);
	CHECK(quic_probe(pkt, n));
	CHECK_EQ(quic_parse_datagram(s, 0, pkt, n), 1);
	CHECK(!last_tx(s)->sni && last_tx(s)->version == QUIC_V1 && last_tx(s)->client);
	/* its start: the hello is whole */
	n = initial(pkt, &k[0], 1, 0, ch, cut, 0);
	CHECK_EQ(quic_parse_datagram(s, 0, pkt, n), 1);
	QuicTx *tx = last_tx(s);
	CHECK_STREQ(tx->sni, "example.org");
	CHECK_EQ(tx->nexts, 3);
	CHECK_EQ(tx->exts[1].type, 16);
	CHECK_EQ(tx->exts[1].nvals, 1);
	CHECK(tx->vals[tx->exts[1].first_val].len == 2 &&
	      memcmp(tx->vbuf + tx->vals[tx->exts[1].first_val].off, "h3", 2) == 0);
	/* ja3 leaves GREASE out; ja4 says q(uic), 1.3, a domain, h3 */
	CHECK_STREQ(tx->ja3, "771,4865,0-16-43,,");
	CHECK(strncmp(tx->ja4, "q13d0103h3_", 11) == 0);
	CHECK_EQ(tx->base.events, 0);

	json_t *o = quic_json_object(tx);
	CHECK(o);
	CHECK_STREQ(json_string_value(json_object_get(o, "version")), "1");
	CHECK_STREQ(json_string_value(json_object_get(o, "sni")), "example.org");
	json_t *e1 = json_array_get(json_object_get(o, "extensions"), 1);
	CHECK_STREQ(json_string_value(json_object_get(e1, "name")), "alpn");
	CHECK_STREQ(json_string_value(json_array_get(json_object_get(e1, "values"), 0)), "h3");
	CHECK(json_object_get(o, "ja3") && !json_object_get(o, "ja3s"));
	json_decref(o);

	/* a retransmission once the hello is read: the rest is encrypted, as
	 * Suricata has it, no transaction */
	n = initial(pkt, &k[0], 2, 0, ch, chl, 0);
	CHECK_EQ(quic_parse_datagram(s, 0, pkt, n), 0);
	quic_state_free(s);
}

TEST(quic_bad_tag_is_failed_decrypt)
{
	QuicKeys k[2];
	uint8_t ch[256], pkt[1400];
	size_t chl = client_hello(ch);
	QuicState *s = quic_state_new();

	CHECK_EQ(quic_initial_keys(QUIC_V1, rfc_dcid, 8, k), 0);
	size_t n = initial(pkt, &k[0], 0, 0, ch, chl, 1);
	CHECK_EQ(quic_parse_datagram(s, 0, pkt, n), -1);
	CHECK(last_tx(s));
	CHECK(last_tx(s)->base.events & (1u << QUIC_EV_FAILED_DECRYPT));
	CHECK(!last_tx(s)->sni);
	CHECK_EQ(quic_event_by_name("failed_decrypt"), QUIC_EV_FAILED_DECRYPT);
	CHECK_EQ(quic_event_by_name("nope"), -1);
	quic_state_free(s);
}

TEST(quic_hostile_headers)
{
	uint8_t pkt[64];
	QuicState *s = quic_state_new();

	/* a long header cut short, a DCID length past 20, a length past the
	 * datagram: error_on_header, no read past the bytes */
	memset(pkt, 0, sizeof(pkt));
	pkt[0] = 0xc0, pkt[4] = 1;
	CHECK_EQ(quic_parse_datagram(s, 0, pkt, 5), -1);
	CHECK(last_tx(s)->base.events & (1u << QUIC_EV_ERROR_ON_HEADER));
	pkt[5] = 21;
	CHECK_EQ(quic_parse_datagram(s, 0, pkt, sizeof(pkt)), -1);
	pkt[5] = 0, pkt[6] = 0, pkt[7] = 0, pkt[8] = 0x7f, pkt[9] = 0xff;
	CHECK_EQ(quic_parse_datagram(s, 0, pkt, 10), -1);
	/* RTP on a QUIC flow's 5-tuple (0x90, then no version we know):
	 * nothing, no event; and not QUIC to the probe */
	static const uint8_t rtp[] = { 0x90, 0x65, 0x64, 0x44, 0x64, 0xcd, 0xf6, 0xac,
				       0x0e, 0xa5, 0x35, 0x82, 0xbe, 0xde, 0x00, 0x01 };
	uint64_t before = s->txs.next_id;
	CHECK_EQ(quic_parse_datagram(s, 0, rtp, sizeof(rtp)), 0);
	CHECK_EQ(s->txs.next_id, before);
	CHECK(!quic_probe(rtp, sizeof(rtp)));
	/* a client forcing version negotiation (a reserved version) is QUIC */
	memset(pkt, 0, sizeof(pkt));
	pkt[0] = 0xc0, pkt[1] = 0x1a, pkt[2] = 0x2a, pkt[3] = 0x3a, pkt[4] = 0x4a, pkt[5] = 8;
	CHECK(quic_probe(pkt, sizeof(pkt)));
	CHECK_EQ(quic_parse_datagram(s, 0, pkt, sizeof(pkt)), 0);
	/* a short header: nothing */
	pkt[0] = 0x40;
	CHECK_EQ(quic_parse_datagram(s, 0, pkt, sizeof(pkt)), 0);
	CHECK(!quic_probe(pkt, sizeof(pkt)));
	quic_state_free(s);
}

/* A Q046 packet with a clear CHLO: SNI, VER, UAID. */
TEST(quic_gquic_q046_chlo)
{
	uint8_t p[256];
	size_t n = 0;
	static const char *const tags[] = { "SNI", "VER", "UAID" };
	static const char *const vals[] = { "www.example.com", "Q046", "test-agent/1" };

	p[n++] = 0xc3;
	memcpy(p + n, "Q046", 4);
	n += 4;
	p[n++] = 0x50;                  /* DCID 8, no SCID */
	memset(p + n, 0xab, 8);
	n += 8;
	p[n++] = 0, p[n++] = 0, p[n++] = 0, p[n++] = 1;
	memset(p + n, 0, 12);           /* message hash */
	n += 12;
	size_t fr = n;
	p[n++] = 0xa0, p[n++] = 1;      /* STREAM, stream 1, with a length */
	n += 2;
	size_t msg = n;
	memcpy(p + n, "CHLO", 4);
	n += 4;
	p[n++] = 3, p[n++] = 0, p[n++] = 0, p[n++] = 0;
	uint32_t end = 0;
	for (int i = 0; i < 3; i++) {
		memset(p + n, 0, 4);
		memcpy(p + n, tags[i], strlen(tags[i]));
		end += (uint32_t)strlen(vals[i]);
		p[n + 4] = (uint8_t)end, p[n + 5] = 0, p[n + 6] = 0, p[n + 7] = 0;
		n += 8;
	}
	for (int i = 0; i < 3; i++) {
		memcpy(p + n, vals[i], strlen(vals[i]));
		n += strlen(vals[i]);
	}
	p[fr + 2] = (uint8_t)((n - msg) >> 8), p[fr + 3] = (uint8_t)(n - msg);

	QuicState *s = quic_state_new();
	CHECK(quic_probe(p, n));
	CHECK_EQ(quic_parse_datagram(s, 0, p, n), 1);
	QuicTx *tx = last_tx(s);
	CHECK_STREQ(tx->sni, "www.example.com");
	CHECK_STREQ(tx->ua, "test-agent/1");
	CHECK_STREQ(tx->cyu, "46,SNI-VER-UAID");
	CHECK_STREQ(tx->cyu_hash, "1d045f1b9d824b2d6fbd1f3bbd36f968"); /* md5 of the string */
	CHECK(memcmp(tx->version_wire, "Q046", 4) == 0);
	char vb[12];
	CHECK_STREQ(quic_version_string(tx->version, vb), "Q046");
	CHECK_STREQ(quic_version_string(QUIC_V2, vb), "6b3343cf");
	CHECK_STREQ(quic_version_string(0x51303530, vb), "51303530");
	CHECK_STREQ(quic_version_string(0x51303339, vb), "Q039");
	/* cut anywhere: never a read past the datagram */
	for (size_t cut = 0; cut < n; cut++)
		quic_parse_datagram(s, 0, p, cut);
	quic_state_free(s);
}
