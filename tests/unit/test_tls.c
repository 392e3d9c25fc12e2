/* TLS: the stream parser (app-layer/tls-parse.h), certificate fields
 * (tls-cert.h), ja3/ja3s/ja4 (tls-ja.h), the eve object (output/tls-json.h)
 * and the keyword helpers (detect/tls-kw-match.h).
 *
 * Fixtures under tests/data/tls are both directions of suricata-verify
 * captures (extract.py); expected values come from those tests' test.yaml
 * (Suricata's own output) and from tshark's ja3. */
#define _GNU_SOURCE /* memmem */
#include "config.h"
#include "test.h"

#include <stdlib.h>

#include <jansson.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "app-layer/app-mem.h"
#include "app-layer/tls-cert.h"
#include "app-layer/tls-ja.h"
#include "app-layer/tls-parse.h"
#include "detect/tls-kw-match.h"
#include "detect/detect-parse.h"
#include "output/tls-json.h"
#include "output/json-dump.h"

/* ---- fixtures ---- */

#define MAX_SEGS 256

typedef struct Stream {
	uint8_t *data;
	size_t len;
	size_t seg_end[MAX_SEGS]; /* the capture's own segment boundaries */
	unsigned nsegs;
} Stream;

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int load(const char *name, const char *dir, Stream *st)
{
	char rel[256];
	FILE *f;
	int c, hi = -1;

	memset(st, 0, sizeof(*st));
	snprintf(rel, sizeof(rel), "data/tls/%s.%s.hex", name, dir);
	f = fopen(test_data_path(rel), "r");
	if (!f)
		return -1;
	st->data = malloc(1 << 20);
	while ((c = fgetc(f)) != EOF) {
		if (c == '\n') {
			if (st->nsegs < MAX_SEGS)
				st->seg_end[st->nsegs++] = st->len;
			continue;
		}
		int v = hexval(c);
		if (v < 0)
			continue;
		if (hi < 0) {
			hi = v;
		} else {
			st->data[st->len++] = (uint8_t)(hi << 4 | v);
			hi = -1;
		}
	}
	fclose(f);
	return 0;
}

static void stream_free(Stream *st)
{
	free(st->data);
	st->data = NULL;
}

/* Client then server, each in its capture segments. */
static TlsState *parse_fixture(const char *name)
{
	Stream c, s;
	TlsState *ts;

	if (load(name, "c2s", &c) < 0)
		return NULL;
	if (load(name, "s2c", &s) < 0) {
		stream_free(&c);
		return NULL;
	}
	ts = tls_state_new();
	for (int d = 0; d < 2; d++) {
		Stream *st = d == 0 ? &c : &s;
		size_t from = 0;
		for (unsigned i = 0; i < st->nsegs; i++) {
			tls_parse(ts, d == 0 ? TLS_TOSERVER : TLS_TOCLIENT, st->data + from,
				  st->seg_end[i] - from);
			from = st->seg_end[i];
		}
	}
	stream_free(&c);
	stream_free(&s);
	return ts;
}

static int ja3_of(const TlsHello *h, bool server, char *str, size_t size, char *md5)
{
	int n = server ? tls_ja3s_string(h, str, size) : tls_ja3_string(h, str, size);
	if (n >= 0)
		tls_ja_md5_hex(str, (size_t)n, md5);
	return n;
}

static int leaf_info(const TlsState *s, int dir, unsigned i, TlsCertInfo *ci)
{
	uint32_t len;
	const uint8_t *der = tls_chain_cert(&s->certs[dir], i, &len);
	return der ? tls_cert_decode(der, len, ci) : -1;
}

/* ---- a ClientHello / ServerHello builder for synthetic cases ---- */

typedef struct Buf {
	uint8_t b[8192];
	size_t n;
} Buf;

static void put8(Buf *b, unsigned v)
{
	b->b[b->n++] = (uint8_t)v;
}
static void put16(Buf *b, unsigned v)
{
	put8(b, v >> 8);
	put8(b, v);
}
static void put24(Buf *b, unsigned v)
{
	put8(b, v >> 16);
	put16(b, v & 0xffff);
}
static void putn(Buf *b, const void *p, size_t n)
{
	if (n == 0)
		return;
	memcpy(b->b + b->n, p, n);
	b->n += n;
}
/* Writes a 16-bit length placeholder; returns its offset. */
static size_t len16_open(Buf *b)
{
	size_t at = b->n;
	put16(b, 0);
	return at;
}
static void len16_close(Buf *b, size_t at)
{
	size_t n = b->n - at - 2;
	b->b[at] = (uint8_t)(n >> 8);
	b->b[at + 1] = (uint8_t)n;
}

/* A record of type around body. */
static void record(Buf *out, unsigned type, const uint8_t *body, size_t n)
{
	put8(out, type);
	put16(out, 0x0303);
	put16(out, (unsigned)n);
	putn(out, body, n);
}

/* A handshake message. */
static void hs_msg(Buf *out, unsigned type, const uint8_t *body, size_t n)
{
	put8(out, type);
	put24(out, (unsigned)n);
	putn(out, body, n);
}

typedef struct HelloSpec {
	const uint16_t *ciphers;
	unsigned nciphers;
	const char *sni;
	const char *alpn;     /* one protocol */
	const uint16_t *exts_extra; /* empty extensions of these types */
	unsigned nextra;
	const uint16_t *groups;
	unsigned ngroups;
	const uint16_t *sigalgs;
	unsigned nsigalgs;
	const uint16_t *versions;
	unsigned nversions;
	uint8_t sid_len;
} HelloSpec;

static void client_hello_body(Buf *b, const HelloSpec *h)
{
	uint8_t rnd[32];

	memset(rnd, 0x11, sizeof(rnd));
	put16(b, 0x0303);
	putn(b, rnd, 32);
	put8(b, h->sid_len);
	for (unsigned i = 0; i < h->sid_len; i++)
		put8(b, 0x40 + i);
	put16(b, h->nciphers * 2);
	for (unsigned i = 0; i < h->nciphers; i++)
		put16(b, h->ciphers[i]);
	put8(b, 1);
	put8(b, 0);
	size_t ext = len16_open(b);
	if (h->sni) {
		size_t n = strlen(h->sni);
		put16(b, 0);
		put16(b, (unsigned)n + 5);
		put16(b, (unsigned)n + 3);
		put8(b, 0);
		put16(b, (unsigned)n);
		putn(b, h->sni, n);
	}
	for (unsigned i = 0; i < h->nextra; i++) {
		put16(b, h->exts_extra[i]);
		put16(b, 0);
	}
	if (h->ngroups) {
		put16(b, 10);
		put16(b, 2 + 2 * h->ngroups);
		put16(b, 2 * h->ngroups);
		for (unsigned i = 0; i < h->ngroups; i++)
			put16(b, h->groups[i]);
	}
	if (h->nsigalgs) {
		put16(b, 13);
		put16(b, 2 + 2 * h->nsigalgs);
		put16(b, 2 * h->nsigalgs);
		for (unsigned i = 0; i < h->nsigalgs; i++)
			put16(b, h->sigalgs[i]);
	}
	if (h->alpn) {
		size_t n = strlen(h->alpn);
		put16(b, 16);
		put16(b, (unsigned)n + 3);
		put16(b, (unsigned)n + 1);
		put8(b, (unsigned)n);
		putn(b, h->alpn, n);
	}
	if (h->nversions) {
		put16(b, 43);
		put16(b, 1 + 2 * h->nversions);
		put8(b, 2 * h->nversions);
		for (unsigned i = 0; i < h->nversions; i++)
			put16(b, h->versions[i]);
	}
	len16_close(b, ext);
}

/* ClientHello record for spec. */
static void client_hello_record(Buf *out, const HelloSpec *h)
{
	Buf body = { .n = 0 }, msg = { .n = 0 };

	client_hello_body(&body, h);
	hs_msg(&msg, 1, body.b, body.n);
	record(out, 22, msg.b, msg.n);
}

/* ServerHello record: TLS 1.2 layout, optional supported_versions. */
static void server_hello_record(Buf *out, unsigned cipher, uint16_t sv, uint8_t sid_len)
{
	Buf body = { .n = 0 }, msg = { .n = 0 };
	uint8_t rnd[32];

	memset(rnd, 0x22, sizeof(rnd));
	put16(&body, 0x0303);
	putn(&body, rnd, 32);
	put8(&body, sid_len);
	for (unsigned i = 0; i < sid_len; i++)
		put8(&body, 0x40 + i);
	put16(&body, cipher);
	put8(&body, 0);
	size_t ext = len16_open(&body);
	put16(&body, 0xff01);
	put16(&body, 1);
	put8(&body, 0);
	if (sv) {
		put16(&body, 43);
		put16(&body, 2);
		put16(&body, sv);
	}
	len16_close(&body, ext);
	hs_msg(&msg, 2, body.b, body.n);
	record(out, 22, msg.b, msg.n);
}

static const uint16_t basic_ciphers[] = { 0x1301, 0xc02f, 0x009c };

static TlsState *parse_buf(int dir, const Buf *b)
{
	TlsState *s = tls_state_new();
	tls_parse(s, dir, b->b, b->n);
	return s;
}

/* ==== real handshakes ==== */

TEST(tls_selks_handshake_matches_suricata)
{
	TlsState *s = parse_fixture("selks");
	char str[4096], md5[33], ja4[40], v[32];
	TlsCertInfo ci;

	CHECK(s);
	CHECK_EQ(s->nevents, 0);
	CHECK_STREQ(tls_version_name(tls_state_version(s), v, sizeof(v)), "TLS 1.2");
	CHECK(ja3_of(&s->client, false, str, sizeof(str), md5) > 0);
	/* tshark's ja3 of the same hello */
	CHECK_STREQ(md5, "308b0bd904abbef5e0034a1ff7a78920");
	CHECK_STREQ(str, "771,49195-49199-158-49162-49161-49171-49172-49159-49169-51-50-57-156-47-"
			 "53-10-5-4,65281-10-11-35-13172-16-30032-5-18-13,23-24-25,0");
	/* suricata-verify ja4-tls */
	CHECK_EQ(tls_ja4(&s->client, ja4), 0);
	CHECK_STREQ(ja4, "t12i1810s1_27d4652c4487_06a4338d0495");
	CHECK(ja3_of(&s->server, true, str, sizeof(str), md5) > 0);
	CHECK_STREQ(str, "771,49199,65281-11-35");
	CHECK_EQ(s->certs[TLS_TOCLIENT].n, 1);
	/* suricata-verify bug-7286-tls-metadata-01 */
	CHECK_EQ(leaf_info(s, TLS_TOCLIENT, 0, &ci), 0);
	CHECK_STREQ(ci.subject, "C=FR, ST=IDF, L=Paris, O=Stamus, CN=SELKS");
	CHECK_STREQ(ci.issuer, "C=FR, ST=IDF, L=Paris, O=Stamus, CN=SELKS");
	CHECK_STREQ(ci.serial, "00:97:E6:47:09:8E:EA:C9:B4");
	CHECK_STREQ(ci.fingerprint, "3a:0b:3b:23:15:2c:44:5c:27:ac:6a:0c:41:d6:fa:74:af:b4:09:5b");
	CHECK_STREQ(tls_time_str(ci.notbefore, v, sizeof(v)), "2015-02-12T18:07:27");
	CHECK_STREQ(tls_time_str(ci.notafter, v, sizeof(v)), "2025-02-09T18:07:27");
	CHECK_EQ(ci.nsan, 0);
	tls_cert_info_free(&ci);
	CHECK(s->state & TLS_STATE_CLIENT_HELLO);
	CHECK(s->state & TLS_STATE_SERVER_HELLO);
	CHECK(s->state & TLS_STATE_CLIENT_KEYX);
	CHECK(s->state & TLS_STATE_SERVER_KEYX);
	CHECK(s->flags & TLS_F_HANDSHAKE_DONE);
	CHECK(!(s->flags & TLS_F_SESSION_RESUMED));
	tls_state_free(s);
}

TEST(tls_glupteba_sslv2_hello_then_tls1_server)
{
	TlsState *s = parse_fixture("glupteba");
	TlsCertInfo ci;
	char v[32];

	CHECK(s);
	CHECK_EQ(s->nevents, 0);
	CHECK(s->client.present);
	CHECK(s->client.sslv2);
	CHECK(s->flags & TLS_F_SSLV2);
	/* suricata-verify tls-glupteba */
	CHECK_STREQ(tls_version_name(tls_state_version(s), v, sizeof(v)), "TLSv1");
	CHECK_EQ(leaf_info(s, TLS_TOCLIENT, 0, &ci), 0);
	CHECK_STREQ(ci.subject, "CN=xn--j1ahhq.xn--p1ai");
	CHECK_STREQ(ci.issuer, "C=US, O=Let's Encrypt, CN=R3");
	CHECK_STREQ(ci.serial, "03:DE:23:89:7E:97:FB:86:8E:7C:C5:53:09:FE:AE:D0:AE:20");
	CHECK_STREQ(ci.fingerprint, "e9:a0:69:50:ba:18:dc:ac:d3:a7:fe:58:22:4a:1f:42:5b:bc:96:b0");
	CHECK_STREQ(tls_time_str(ci.notbefore, v, sizeof(v)), "2022-12-01T06:47:31");
	CHECK_STREQ(tls_time_str(ci.notafter, v, sizeof(v)), "2023-03-01T06:47:30");
	CHECK_EQ(ci.nsan, 17);
	CHECK_STREQ(ci.san[0], "server1.xn--j1ahhq.xn--p1ai");
	CHECK_STREQ(ci.san[1], "server10.xn--j1ahhq.xn--p1ai");
	CHECK_STREQ(ci.san[16], "xn--j1ahhq.xn--p1ai");
	tls_cert_info_free(&ci);
	/* Suricata computes no ja3 for an SSLv2 hello */
	char str[64], md5[33];
	CHECK(ja3_of(&s->client, false, str, sizeof(str), md5) < 0);
	tls_state_free(s);
}

TEST(tls13_draft22_version_sni_ja3)
{
	TlsState *s = parse_fixture("tls13d22");
	char str[4096], md5[33], v[32];

	CHECK(s);
	CHECK_STREQ(tls_version_name(tls_state_version(s), v, sizeof(v)), "TLS 1.3 draft-22");
	CHECK_STREQ(s->client.sni, "localhost");
	CHECK(ja3_of(&s->client, false, str, sizeof(str), md5) > 0);
	/* suricata-verify tls13-draft22: an empty point-format list ends in ',' */
	CHECK_STREQ(str, "771,4865-4867,0-43-13-10-40,23,");
	CHECK_STREQ(md5, "786468211b4d23f9b725987b0de9d090");
	/* the rest of the handshake is ciphertext: no certificate */
	CHECK_EQ(s->certs[TLS_TOCLIENT].n, 0);
	CHECK(s->dir[TLS_TOCLIENT].encrypted);
	tls_state_free(s);
}

TEST(tls13_draft19_server_hello_without_session_id)
{
	TlsState *s = parse_fixture("tls13d19");
	char str[4096], md5[33], v[32];

	CHECK(s);
	CHECK_EQ(s->nevents, 0);
	CHECK_STREQ(tls_version_name(tls_state_version(s), v, sizeof(v)), "TLS 1.3 draft-19");
	CHECK(ja3_of(&s->client, false, str, sizeof(str), md5) > 0);
	CHECK_STREQ(md5, "0e870cb29dd59424064948532781a7f6");
	CHECK_STREQ(str, "771,4866-255,0-11-10-35-13-22-23-43-45-40,29-23-25-24,0-1-2");
	CHECK_EQ(s->server.ciphers[0], 4866);
	tls_state_free(s);
}

TEST(tls_chain_of_three_certificates)
{
	TlsState *s = parse_fixture("chain");
	TlsCertInfo ci;
	char str[4096], md5[33];

	CHECK(s);
	CHECK_EQ(s->nevents, 0);
	CHECK_STREQ(s->client.sni, "example.com");
	CHECK(ja3_of(&s->client, false, str, sizeof(str), md5) > 0);
	CHECK_STREQ(md5, "1fe4c7a3544eb27afec2adfb3a3dbf60"); /* tshark */
	CHECK_EQ(s->certs[TLS_TOCLIENT].n, 3);
	CHECK_EQ(leaf_info(s, TLS_TOCLIENT, 1, &ci), 0);
	CHECK_STREQ(ci.subject, "C=US, O=DigiCert Inc, CN=DigiCert SHA2 Secure Server CA");
	CHECK_STREQ(ci.issuer, "C=US, O=DigiCert Inc, OU=www.digicert.com, CN=DigiCert Global Root CA");
	tls_cert_info_free(&ci);
	CHECK_EQ(leaf_info(s, TLS_TOCLIENT, 0, &ci), 0);
	CHECK_STREQ(ci.subject, "C=US, ST=California, L=Los Angeles, O=Internet Corporation for "
				"Assigned Names and Numbers, OU=Technology, CN=www.example.org");
	CHECK_EQ(ci.nsan, 8);
	tls_cert_info_free(&ci);
	tls_state_free(s);
}

/* ==== segmentation ==== */

/* Everything a parse yields that segmentation must not change. */
static void summary(const TlsState *s, char *out, size_t size)
{
	char j3[4096] = "", m3[33] = "", j4[40] = "", js[256] = "", ms[33] = "";
	ja3_of(&s->client, false, j3, sizeof(j3), m3);
	ja3_of(&s->server, true, js, sizeof(js), ms);
	if (tls_ja4(&s->client, j4) != 0)
		j4[0] = '\0';
	snprintf(out, size, "%s|%s|%s|%s|%x|%x|%u|%u|%u", m3, j4, ms, s->client.sni, s->flags,
		 s->state, s->certs[1].n, s->certs[1].n ? s->certs[1].len[0] : 0, s->nevents);
}

static void feed_split(TlsState *s, int dir, const Stream *st, size_t at)
{
	tls_parse(s, dir, st->data, at);
	tls_parse(s, dir, st->data + at, st->len - at);
}

TEST(tls_client_hello_split_at_every_byte)
{
	Stream c, sv;
	char want[8192], got[8192];

	CHECK_EQ(load("selks", "c2s", &c), 0);
	CHECK_EQ(load("selks", "s2c", &sv), 0);
	TlsState *ref = tls_state_new();
	tls_parse(ref, TLS_TOSERVER, c.data, c.len);
	tls_parse(ref, TLS_TOCLIENT, sv.data, sv.len);
	summary(ref, want, sizeof(want));
	tls_state_free(ref);
	for (size_t at = 0; at <= c.len; at++) {
		TlsState *s = tls_state_new();
		feed_split(s, TLS_TOSERVER, &c, at);
		tls_parse(s, TLS_TOCLIENT, sv.data, sv.len);
		summary(s, got, sizeof(got));
		tls_state_free(s);
		if (strcmp(want, got) != 0) {
			printf("  split at %zu\n", at);
			CHECK_STREQ(got, want);
		}
	}
	stream_free(&c);
	stream_free(&sv);
}

TEST(tls_server_flight_split_at_every_byte)
{
	Stream c, sv;
	char want[8192], got[8192];

	CHECK_EQ(load("chain", "c2s", &c), 0);
	CHECK_EQ(load("chain", "s2c", &sv), 0);
	TlsState *ref = tls_state_new();
	tls_parse(ref, TLS_TOSERVER, c.data, c.len);
	tls_parse(ref, TLS_TOCLIENT, sv.data, sv.len);
	summary(ref, want, sizeof(want));
	CHECK_EQ(ref->certs[1].n, 3);
	tls_state_free(ref);
	for (size_t at = 0; at <= sv.len; at += 1) {
		TlsState *s = tls_state_new();
		tls_parse(s, TLS_TOSERVER, c.data, c.len);
		feed_split(s, TLS_TOCLIENT, &sv, at);
		summary(s, got, sizeof(got));
		tls_state_free(s);
		if (strcmp(want, got) != 0) {
			printf("  split at %zu\n", at);
			CHECK_STREQ(got, want);
		}
	}
	stream_free(&c);
	stream_free(&sv);
}

TEST(tls_byte_at_a_time_equals_whole)
{
	static const char *const names[] = { "selks", "glupteba", "chain", "tls13d19", "tls13d22" };
	char want[8192], got[8192];

	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		Stream c, sv;
		CHECK_EQ(load(names[k], "c2s", &c), 0);
		CHECK_EQ(load(names[k], "s2c", &sv), 0);
		TlsState *a = tls_state_new(), *b = tls_state_new();
		tls_parse(a, TLS_TOSERVER, c.data, c.len);
		tls_parse(a, TLS_TOCLIENT, sv.data, sv.len);
		for (size_t i = 0; i < c.len; i++)
			tls_parse(b, TLS_TOSERVER, c.data + i, 1);
		for (size_t i = 0; i < sv.len; i++)
			tls_parse(b, TLS_TOCLIENT, sv.data + i, 1);
		summary(a, want, sizeof(want));
		summary(b, got, sizeof(got));
		tls_state_free(a);
		tls_state_free(b);
		stream_free(&c);
		stream_free(&sv);
		CHECK_STREQ(got, want);
	}
}

/* Re-frames a stream's handshake messages into records of at most n
 * payload bytes (RFC 5246 6.2.1 allows any split). */
static size_t reframe(const Stream *st, size_t n, uint8_t *out)
{
	size_t in = 0, o = 0;

	while (in + 5 <= st->len) {
		uint8_t type = st->data[in];
		size_t len = (size_t)st->data[in + 3] << 8 | st->data[in + 4];
		const uint8_t *p = st->data + in + 5;
		if (in + 5 + len > st->len)
			break;
		size_t step = type == 22 ? n : len;
		if (step == 0)
			step = 1;
		for (size_t k = 0; k < len || (len == 0 && k == 0); k += step) {
			size_t m = len - k < step ? len - k : step;
			out[o++] = type;
			out[o++] = st->data[in + 1];
			out[o++] = st->data[in + 2];
			out[o++] = (uint8_t)(m >> 8);
			out[o++] = (uint8_t)m;
			memcpy(out + o, p + k, m);
			o += m;
			if (len == 0)
				break;
		}
		in += 5 + len;
	}
	return o;
}

TEST(tls_handshake_split_across_records)
{
	Stream c, sv;
	char want[8192], got[8192];
	uint8_t *rc = malloc(1 << 20), *rs = malloc(1 << 20);

	CHECK_EQ(load("chain", "c2s", &c), 0);
	CHECK_EQ(load("chain", "s2c", &sv), 0);
	TlsState *ref = tls_state_new();
	tls_parse(ref, TLS_TOSERVER, c.data, c.len);
	tls_parse(ref, TLS_TOCLIENT, sv.data, sv.len);
	summary(ref, want, sizeof(want));
	tls_state_free(ref);
	static const size_t sizes[] = { 1, 2, 3, 4, 5, 7, 50, 333, 1000 };
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t nc = reframe(&c, sizes[k], rc), ns = reframe(&sv, sizes[k], rs);
		TlsState *s = tls_state_new();
		/* records of one byte: more than 255 in a call is itself an
		 * anomaly, so feed them a record's worth at a time */
		for (size_t i = 0; i < nc; i += 6)
			tls_parse(s, TLS_TOSERVER, rc + i, nc - i < 6 ? nc - i : 6);
		for (size_t i = 0; i < ns; i += 6)
			tls_parse(s, TLS_TOCLIENT, rs + i, ns - i < 6 ? ns - i : 6);
		summary(s, got, sizeof(got));
		tls_state_free(s);
		if (strcmp(got, want) != 0)
			printf("  records of %zu\n", sizes[k]);
		CHECK_STREQ(got, want);
	}
	free(rc);
	free(rs);
	stream_free(&c);
	stream_free(&sv);
}

TEST(tls_every_truncation_is_safe)
{
	static const char *const names[] = { "selks", "glupteba", "chain" };

	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		Stream c, sv;
		CHECK_EQ(load(names[k], "c2s", &c), 0);
		CHECK_EQ(load(names[k], "s2c", &sv), 0);
		for (size_t at = 0; at <= sv.len; at += 7) {
			/* an exact-size copy: ASan sees any read past the end */
			uint8_t *cp = malloc(at ? at : 1);
			memcpy(cp, sv.data, at);
			TlsState *s = tls_state_new();
			tls_parse(s, TLS_TOSERVER, c.data, c.len);
			tls_parse(s, TLS_TOCLIENT, cp, at);
			json_t *j = tls_json_object(s, 0xffffffffu);
			json_decref(j);
			tls_state_free(s);
			free(cp);
		}
		stream_free(&c);
		stream_free(&sv);
	}
}

/* ==== record layer anomalies ==== */

TEST(tls_not_tls_sets_invalid_tls_header)
{
	static const uint8_t http[] = "GET / HTTP/1.1\r\n";
	TlsState *s = tls_state_new();

	CHECK_EQ(tls_parse(s, TLS_TOSERVER, http, sizeof(http) - 1), -1);
	CHECK_EQ(s->events[TLS_EV_INVALID_TLS_HEADER], 1);
	/* the direction is given up: later bytes change nothing */
	CHECK_EQ(tls_parse(s, TLS_TOSERVER, http, 4), -1);
	CHECK_EQ(s->nevents, 1);
	tls_state_free(s);
}

TEST(tls_bad_record_type_after_good_record)
{
	Buf b = { .n = 0 };
	HelloSpec h = { .ciphers = basic_ciphers, .nciphers = 3 };
	TlsState *s;

	client_hello_record(&b, &h);
	put8(&b, 0x63);
	put16(&b, 0x0303);
	put16(&b, 1);
	put8(&b, 0);
	s = parse_buf(TLS_TOSERVER, &b);
	CHECK(s->client.present);
	CHECK_EQ(s->events[TLS_EV_INVALID_RECORD_TYPE], 1);
	CHECK(s->dir[TLS_TOSERVER].dead);
	tls_state_free(s);
}

TEST(tls_bad_record_version)
{
	static const uint8_t rec[] = { 22, 0x05, 0x01, 0, 1, 0 };
	TlsState *s = tls_state_new();

	CHECK_EQ(tls_parse(s, TLS_TOSERVER, rec, sizeof(rec)), -1);
	CHECK_EQ(s->events[TLS_EV_INVALID_RECORD_VERSION], 1);
	tls_state_free(s);
}

TEST(tls_oversized_record_is_skipped_with_event)
{
	static uint8_t big[20000];
	static const uint8_t hdr[5] = { 23, 3, 3, sizeof(big) >> 8, sizeof(big) & 0xff };
	HelloSpec h = { .ciphers = basic_ciphers, .nciphers = 3, .sni = "after.example" };
	Buf ch = { .n = 0 };
	TlsState *s = tls_state_new();

	CHECK_EQ(tls_parse(s, TLS_TOSERVER, hdr, sizeof(hdr)), 0);
	CHECK_EQ(s->events[TLS_EV_INVALID_RECORD_LENGTH], 1);
	/* the length still frames it: the next record parses */
	CHECK_EQ(tls_parse(s, TLS_TOSERVER, big, sizeof(big)), 0);
	client_hello_record(&ch, &h);
	CHECK_EQ(tls_parse(s, TLS_TOSERVER, ch.b, ch.n), 0);
	CHECK_STREQ(s->client.sni, "after.example");
	tls_state_free(s);
}

TEST(tls_too_many_records_in_one_call)
{
	Buf b = { .n = 0 };
	TlsState *s = tls_state_new();

	for (int i = 0; i < 300; i++)
		record(&b, 23, (const uint8_t *)"x", 1);
	CHECK_EQ(tls_parse(s, TLS_TOSERVER, b.b, b.n), -1);
	CHECK_EQ(s->events[TLS_EV_TOO_MANY_RECORDS_IN_PACKET], 1);
	tls_state_free(s);
	/* the same records over several calls are fine */
	s = tls_state_new();
	for (size_t i = 0; i < b.n; i += 6 * 100)
		CHECK_EQ(tls_parse(s, TLS_TOSERVER, b.b + i, b.n - i < 600 ? b.n - i : 600), 0);
	CHECK_EQ(s->nevents, 0);
	CHECK(s->flags & TLS_F_APPDATA_TOSERVER);
	tls_state_free(s);
}

TEST(tls_ccs_alert_appdata_state)
{
	Buf b = { .n = 0 };
	static const uint8_t ccs = 1, fatal[2] = { 2, 40 };
	TlsState *s = tls_state_new();

	record(&b, 20, &ccs, 1);
	record(&b, 23, (const uint8_t *)"ciphertext", 10);
	tls_parse(s, TLS_TOSERVER, b.b, b.n);
	CHECK(s->flags & TLS_F_CCS_TOSERVER);
	CHECK(s->flags & TLS_F_APPDATA_TOSERVER);
	CHECK(!(s->flags & TLS_F_HANDSHAKE_DONE));
	b.n = 0;
	record(&b, 20, &ccs, 1);
	tls_parse(s, TLS_TOCLIENT, b.b, b.n);
	CHECK(s->flags & TLS_F_HANDSHAKE_DONE);
	tls_state_free(s);

	/* a clear fatal alert */
	s = tls_state_new();
	b.n = 0;
	record(&b, 21, fatal, 2);
	tls_parse(s, TLS_TOCLIENT, b.b, b.n);
	CHECK(s->flags & TLS_F_ALERT);
	CHECK_EQ(s->alert_level, 2);
	CHECK_EQ(s->alert_desc, 40);
	CHECK_EQ(s->events[TLS_EV_ERROR_MESSAGE_ENCOUNTERED], 1);
	tls_state_free(s);
}

/* Parses one record of type with text as its body; whether the flow's
 * ciphertext has started after it. */
static int record_then_started(TlsState *s, int dir, unsigned type, const char *text)
{
	Buf b = { .n = 0 };

	record(&b, type, (const uint8_t *)text, strlen(text));
	tls_parse(s, dir, b.b, b.n);
	return (s->flags & TLS_F_APPDATA_STARTED) != 0;
}

/* Application data ends the cleartext (TLS_F_APPDATA_STARTED: detection
 * stops inspecting the payload), but a 0-RTT client's data before the
 * ServerHello does not: the handshake is not over (RFC 8446, 2.3). */
TEST(tls_application_data_starts_the_ciphertext)
{
	static const uint16_t early[] = { 42 };
	Buf b = { .n = 0 };
	TlsState *s;
	HelloSpec plain = { .ciphers = basic_ciphers, .nciphers = 3, .sni = "a.example" };
	HelloSpec zero_rtt = plain;

	zero_rtt.exts_extra = early;
	zero_rtt.nextra = 1;

	/* an empty application data record carries no ciphertext yet */
	s = tls_state_new();
	client_hello_record(&b, &plain);
	tls_parse(s, TLS_TOSERVER, b.b, b.n);
	CHECK(!record_then_started(s, TLS_TOSERVER, 23, ""));
	CHECK(record_then_started(s, TLS_TOSERVER, 23, "ciphertext"));
	tls_state_free(s);

	/* 0-RTT: not before the ServerHello, then from the next record on */
	s = tls_state_new();
	b.n = 0;
	client_hello_record(&b, &zero_rtt);
	tls_parse(s, TLS_TOSERVER, b.b, b.n);
	CHECK(s->client.early_data);
	CHECK(!record_then_started(s, TLS_TOSERVER, 23, "early data"));
	b.n = 0;
	server_hello_record(&b, 0x1301, 0x0304, 0);
	tls_parse(s, TLS_TOCLIENT, b.b, b.n);
	CHECK(!(s->flags & TLS_F_APPDATA_STARTED));
	CHECK(record_then_started(s, TLS_TOSERVER, 23, "more early"));
	tls_state_free(s);

	/* the server's application data counts as well; an alert does not */
	s = tls_state_new();
	CHECK(!record_then_started(s, TLS_TOCLIENT, 21, "\x01\x00"));
	CHECK(record_then_started(s, TLS_TOCLIENT, 23, "ciphertext"));
	tls_state_free(s);
}

TEST(tls_heartbeat_overflow)
{
	Buf b = { .n = 0 };
	/* heartbleed: request type 1 claiming 16384 bytes in a 3-byte body */
	static const uint8_t hb[3] = { 1, 0x40, 0x00 };
	static const uint8_t ok[3 + 4 + 16] = { 1, 0, 4 };
	static const uint8_t bad_type[3 + 16] = { 9, 0, 0 };
	TlsState *s = tls_state_new();

	record(&b, 24, hb, sizeof(hb));
	record(&b, 24, ok, sizeof(ok));
	record(&b, 24, bad_type, sizeof(bad_type));
	tls_parse(s, TLS_TOSERVER, b.b, b.n);
	CHECK_EQ(s->events[TLS_EV_HEARTBEAT_MESSAGE], 3);
	CHECK_EQ(s->events[TLS_EV_OVERFLOW_HEARTBEAT_MESSAGE], 1);
	CHECK_EQ(s->events[TLS_EV_INVALID_HEARTBEAT_MESSAGE], 1);
	tls_state_free(s);
}

TEST(tls_zero_length_records_are_harmless)
{
	Buf b = { .n = 0 };
	HelloSpec h = { .ciphers = basic_ciphers, .nciphers = 3 };
	TlsState *s = tls_state_new();

	record(&b, 22, NULL, 0);
	record(&b, 23, NULL, 0);
	client_hello_record(&b, &h);
	CHECK_EQ(tls_parse(s, TLS_TOSERVER, b.b, b.n), 0);
	CHECK(s->client.present);
	tls_state_free(s);
}

/* ==== handshake anomalies ==== */

TEST(tls_truncated_client_hello_sets_handshake_invalid_length)
{
	Buf body = { .n = 0 }, msg = { .n = 0 }, rec = { .n = 0 };
	HelloSpec h = { .ciphers = basic_ciphers, .nciphers = 3, .sni = "x.example" };

	client_hello_body(&body, &h);
	/* the message claims only part of the hello: every field read must
	 * stop at the message's end */
	for (size_t cut = 0; cut < body.n; cut++) {
		msg.n = rec.n = 0;
		hs_msg(&msg, 1, body.b, cut);
		record(&rec, 22, msg.b, msg.n);
		TlsState *s = parse_buf(TLS_TOSERVER, &rec);
		if (cut < 2 + 32 + 1 + 2 + 6 + 2)
			CHECK(!s->client.present);
		CHECK(s->state & TLS_STATE_CLIENT_HELLO);
		tls_state_free(s);
	}
	msg.n = rec.n = 0;
	hs_msg(&msg, 1, body.b, 20);
	record(&rec, 22, msg.b, msg.n);
	TlsState *s = parse_buf(TLS_TOSERVER, &rec);
	CHECK_EQ(s->events[TLS_EV_HANDSHAKE_INVALID_LENGTH], 1);
	tls_state_free(s);
}

TEST(tls_sni_anomalies)
{
	Buf body = { .n = 0 }, msg = { .n = 0 }, rec = { .n = 0 };
	uint8_t rnd[32] = { 0 };
	TlsState *s;

	/* hello with: SNI of type 1, then a second SNI extension */
	put16(&body, 0x0303);
	putn(&body, rnd, 32);
	put8(&body, 0);
	put16(&body, 2);
	put16(&body, 0x002f);
	put8(&body, 1);
	put8(&body, 0);
	size_t ext = len16_open(&body);
	put16(&body, 0);
	put16(&body, 5 + 3);
	put16(&body, 3 + 3);
	put8(&body, 1);
	put16(&body, 3);
	putn(&body, "abc", 3);
	put16(&body, 0);
	put16(&body, 5 + 3);
	put16(&body, 3 + 3);
	put8(&body, 0);
	put16(&body, 3);
	putn(&body, "abc", 3);
	len16_close(&body, ext);
	hs_msg(&msg, 1, body.b, body.n);
	record(&rec, 22, msg.b, msg.n);
	s = parse_buf(TLS_TOSERVER, &rec);
	CHECK_EQ(s->events[TLS_EV_INVALID_SNI_TYPE], 1);
	CHECK_EQ(s->events[TLS_EV_MULTIPLE_SNI_EXTENSIONS], 1);
	CHECK(s->client.present);
	CHECK_EQ(s->client.sni_len, 0);
	tls_state_free(s);

	/* a name longer than its list */
	body.n = msg.n = rec.n = 0;
	put16(&body, 0x0303);
	putn(&body, rnd, 32);
	put8(&body, 0);
	put16(&body, 2);
	put16(&body, 0x002f);
	put8(&body, 1);
	put8(&body, 0);
	ext = len16_open(&body);
	put16(&body, 0);
	put16(&body, 5 + 3);
	put16(&body, 3 + 3);
	put8(&body, 0);
	put16(&body, 200);
	putn(&body, "abc", 3);
	len16_close(&body, ext);
	hs_msg(&msg, 1, body.b, body.n);
	record(&rec, 22, msg.b, msg.n);
	s = parse_buf(TLS_TOSERVER, &rec);
	CHECK_EQ(s->events[TLS_EV_INVALID_SNI_LENGTH], 1);
	tls_state_free(s);
}

TEST(tls_extension_overrunning_hello)
{
	Buf body = { .n = 0 }, msg = { .n = 0 }, rec = { .n = 0 };
	uint8_t rnd[32] = { 0 };

	put16(&body, 0x0303);
	putn(&body, rnd, 32);
	put8(&body, 0);
	put16(&body, 2);
	put16(&body, 0x002f);
	put8(&body, 1);
	put8(&body, 0);
	put16(&body, 8);
	put16(&body, 10);
	put16(&body, 60000); /* far past the message */
	put16(&body, 0);
	put16(&body, 0);
	hs_msg(&msg, 1, body.b, body.n);
	record(&rec, 22, msg.b, msg.n);
	TlsState *s = parse_buf(TLS_TOSERVER, &rec);
	CHECK_EQ(s->events[TLS_EV_HANDSHAKE_INVALID_LENGTH], 1);
	tls_state_free(s);
}

TEST(tls_unknown_handshake_type_is_state_unknown)
{
	Buf msg = { .n = 0 }, rec = { .n = 0 };

	hs_msg(&msg, 99, (const uint8_t *)"zz", 2);
	record(&rec, 22, msg.b, msg.n);
	TlsState *s = parse_buf(TLS_TOCLIENT, &rec);
	CHECK_EQ(s->events[TLS_EV_INVALID_HANDSHAKE_MESSAGE], 1);
	CHECK(s->cur_state & TLS_STATE_UNKNOWN);
	tls_state_free(s);
}

TEST(tls_hello_in_wrong_direction)
{
	Buf b = { .n = 0 };
	HelloSpec h = { .ciphers = basic_ciphers, .nciphers = 3 };

	client_hello_record(&b, &h);
	TlsState *s = parse_buf(TLS_TOCLIENT, &b);
	CHECK(!s->client.present);
	CHECK_EQ(s->events[TLS_EV_INVALID_HANDSHAKE_MESSAGE], 1);
	tls_state_free(s);
}

TEST(tls_oversized_handshake_message_keeps_sync)
{
	/* a Certificate claiming more than TLS_HS_MAX, sent in full */
	size_t body = TLS_HS_MAX + 100, total = 4 + body;
	uint8_t *msg = calloc(1, total);
	Buf tail = { .n = 0 };
	TlsState *s = tls_state_new();

	msg[0] = 11;
	msg[1] = (uint8_t)(body >> 16);
	msg[2] = (uint8_t)(body >> 8);
	msg[3] = (uint8_t)body;
	for (size_t off = 0; off < total; off += 16000) {
		Buf r = { .n = 0 };
		size_t n = total - off < 16000 ? total - off : 16000;
		put8(&r, 22);
		put16(&r, 0x0303);
		put16(&r, (unsigned)n);
		tls_parse(s, TLS_TOCLIENT, r.b, r.n);
		tls_parse(s, TLS_TOCLIENT, msg + off, n);
	}
	CHECK_EQ(s->events[TLS_EV_HANDSHAKE_INVALID_LENGTH], 1);
	server_hello_record(&tail, 0xc02f, 0, 0);
	CHECK_EQ(tls_parse(s, TLS_TOCLIENT, tail.b, tail.n), 0);
	CHECK(s->server.present);
	free(msg);
	tls_state_free(s);
}

/* A Certificate message with the given entries (each DER or junk). */
static void cert_record(Buf *out, const uint8_t *const *certs, const uint32_t *lens, unsigned n,
			int total_delta)
{
	Buf body = { .n = 0 }, msg = { .n = 0 };
	uint32_t total = 0;

	for (unsigned i = 0; i < n; i++)
		total += 3 + lens[i];
	put24(&body, (unsigned)((int)total + total_delta));
	for (unsigned i = 0; i < n; i++) {
		put24(&body, lens[i]);
		putn(&body, certs[i], lens[i]);
	}
	hs_msg(&msg, 11, body.b, body.n);
	record(out, 22, msg.b, msg.n);
}

TEST(tls_certificate_anomalies)
{
	static const uint8_t junk[] = { 0x04, 0x01, 0x02 }, seq[] = { 0x30, 0x00 };
	const uint8_t *certs[3] = { junk, seq, seq };
	uint32_t lens[3] = { sizeof(junk), sizeof(seq), 0 };
	Buf b = { .n = 0 };

	cert_record(&b, certs, lens, 3, 0);
	TlsState *s = parse_buf(TLS_TOCLIENT, &b);
	CHECK_EQ(s->events[TLS_EV_CERTIFICATE_INVALID_DER], 1);
	/* the empty entry, and the SEQUENCE with no TBSCertificate in it */
	CHECK_EQ(s->events[TLS_EV_INVALID_CERTIFICATE], 2);
	/* kept: the one that looks like DER; libcrypto then rejects it */
	CHECK_EQ(s->certs[TLS_TOCLIENT].n, 1);
	TlsCertInfo ci;
	CHECK_EQ(leaf_info(s, TLS_TOCLIENT, 0, &ci), -1);
	/* the eve object simply has no certificate fields */
	json_t *j = tls_json_object(s, TLS_LOG_EXTENDED);
	CHECK(!json_object_get(j, "subject"));
	json_decref(j);
	tls_state_free(s);

	/* the list length overruns the message */
	b.n = 0;
	cert_record(&b, certs + 1, lens + 1, 1, 10);
	s = parse_buf(TLS_TOCLIENT, &b);
	CHECK_EQ(s->events[TLS_EV_CERTIFICATE_INVALID_LENGTH], 1);
	CHECK_EQ(s->certs[TLS_TOCLIENT].n, 0);
	tls_state_free(s);
}

/* The DER frame of a certificate, as Suricata's X.509 decoder judges it
 * (suricata-verify bug-1450-03, -05): length octets that run past the
 * bytes are a cut length; a TBSCertificate declared longer than the
 * certificate that holds it is not a certificate; a sound frame is
 * neither. */
TEST(tls_certificate_der_frame_events)
{
	/* 30 05 | 30 84 ff ff ff: the inner length's 4 octets are cut at 3 */
	static const uint8_t cut_hdr[] = { 0x30, 0x05, 0x30, 0x84, 0xff, 0xff, 0xff, 0xfa, 0x04 };
	/* 30 06 | 30 84 ff ff ff fa: 4 GB of TBSCertificate in 0 bytes */
	static const uint8_t too_long[] = { 0x30, 0x06, 0x30, 0x84, 0xff, 0xff, 0xff, 0xfa, 0x04 };
	/* the outer length runs past the entry */
	static const uint8_t outer_cut[] = { 0x30, 0x10, 0x30, 0x00 };
	static const uint8_t sound[] = { 0x30, 0x04, 0x30, 0x02, 0x02, 0x00 };
	static const struct {
		const uint8_t *der;
		uint32_t len;
		int event;      /* -1: none */
	} cases[] = {
		{ cut_hdr, sizeof(cut_hdr), TLS_EV_CERTIFICATE_INVALID_LENGTH },
		{ too_long, sizeof(too_long), TLS_EV_INVALID_CERTIFICATE },
		{ outer_cut, sizeof(outer_cut), TLS_EV_CERTIFICATE_INVALID_LENGTH },
		{ sound, sizeof(sound), -1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const uint8_t *certs[1] = { cases[i].der };
		uint32_t lens[1] = { cases[i].len };
		Buf b = { .n = 0 };
		TlsState *s;

		cert_record(&b, certs, lens, 1, 0);
		s = parse_buf(TLS_TOCLIENT, &b);
		CHECK_EQ(s->events[TLS_EV_CERTIFICATE_INVALID_LENGTH] +
			 s->events[TLS_EV_INVALID_CERTIFICATE] +
			 s->events[TLS_EV_CERTIFICATE_INVALID_DER], cases[i].event < 0 ? 0 : 1);
		if (cases[i].event >= 0)
			CHECK_EQ(s->events[cases[i].event], 1);
		tls_state_free(s);
	}
}

/* A handshake message of a type no TLS version has is an
 * invalid_handshake_message, not an invalid length, however long it says
 * it is (bug-1450: type 0x84, length 0xffffff), and it ends the record. */
TEST(tls_unknown_handshake_type_is_invalid_message)
{
	static const uint8_t msg[] = { 0x84, 0xff, 0xff, 0xff, 0x41, 0x41, 0x41, 0x41 };
	Buf b = { .n = 0 };
	TlsState *s;

	record(&b, 22, msg, sizeof(msg));
	s = parse_buf(TLS_TOCLIENT, &b);
	CHECK_EQ(s->events[TLS_EV_INVALID_HANDSHAKE_MESSAGE], 1);
	CHECK_EQ(s->events[TLS_EV_HANDSHAKE_INVALID_LENGTH], 0);
	tls_state_free(s);
}

TEST(tls_client_certificate_goes_to_the_client_chain)
{
	Stream sv;
	TlsState *ref = parse_fixture("selks");
	Buf b = { .n = 0 };
	uint32_t len;

	CHECK(ref);
	const uint8_t *der = tls_chain_cert(&ref->certs[TLS_TOCLIENT], 0, &len);
	CHECK(der);
	const uint8_t *certs[1] = { der };
	cert_record(&b, certs, &len, 1, 0);
	TlsState *s = parse_buf(TLS_TOSERVER, &b);
	CHECK_EQ(s->certs[TLS_TOSERVER].n, 1);
	CHECK(s->flags & TLS_F_CERT_CLIENT);
	json_t *j = tls_json_object(s, TLS_LOG_CLIENT);
	CHECK_STREQ(json_string_value(json_object_get(json_object_get(j, "client"), "subject")),
		    "C=FR, ST=IDF, L=Paris, O=Stamus, CN=SELKS");
	json_decref(j);
	tls_state_free(s);
	tls_state_free(ref);
	(void)sv;
}

/* ==== hellos and versions ==== */

TEST(tls13_server_hello_encrypts_the_rest)
{
	static const uint16_t v13[] = { 0x0304, 0x0303 };
	HelloSpec h = { .ciphers = basic_ciphers, .nciphers = 3, .versions = v13, .nversions = 2 };
	Buf c = { .n = 0 }, sv = { .n = 0 };
	char v[32];
	TlsState *s = tls_state_new();

	client_hello_record(&c, &h);
	server_hello_record(&sv, 0x1301, 0x0304, 0);
	/* a "handshake" record after it is ciphertext: not a message */
	Buf junk = { .n = 0 };
	hs_msg(&junk, 99, (const uint8_t *)"x", 1);
	record(&sv, 22, junk.b, junk.n);
	tls_parse(s, TLS_TOSERVER, c.b, c.n);
	tls_parse(s, TLS_TOCLIENT, sv.b, sv.n);
	CHECK_STREQ(tls_version_name(tls_state_version(s), v, sizeof(v)), "TLS 1.3");
	CHECK_EQ(s->nevents, 0);
	CHECK_EQ(tls_hello_max_version(&s->client), 0x0304);
	CHECK(s->flags & TLS_F_HANDSHAKE_DONE);
	tls_state_free(s);
}

/* suricata-verify tls13-draft14: before draft 16 the ServerHello said 0x0304
 * in its version field, with the draft layout (no session id, no
 * compression); Suricata logs it as "TLS 1.3 draft-<16" */
TEST(tls13_pre_draft16_server_hello)
{
	static const uint16_t v13[] = { 0x7f0e };
	HelloSpec h = { .ciphers = basic_ciphers, .nciphers = 3, .versions = v13, .nversions = 1 };
	Buf c = { .n = 0 }, body = { .n = 0 }, msg = { .n = 0 }, sv = { .n = 0 };
	uint8_t rnd[32];
	char v[32];
	TlsState *s = tls_state_new();

	memset(rnd, 0x33, sizeof(rnd));
	put16(&body, 0x0304);
	putn(&body, rnd, 32);
	put16(&body, 0x1301);
	size_t ext = len16_open(&body);
	put16(&body, 0xff01);
	put16(&body, 1);
	put8(&body, 0);
	len16_close(&body, ext);
	hs_msg(&msg, 2, body.b, body.n);
	record(&sv, 22, msg.b, msg.n);
	client_hello_record(&c, &h);
	tls_parse(s, TLS_TOSERVER, c.b, c.n);
	tls_parse(s, TLS_TOCLIENT, sv.b, sv.n);
	CHECK_EQ(s->nevents, 0);
	CHECK(s->server.present);
	CHECK_EQ(s->server.ciphers[0], 0x1301);
	CHECK_STREQ(tls_version_name(tls_state_version(s), v, sizeof(v)), "TLS 1.3 draft-<16");
	tls_state_free(s);
}

TEST(tls_hello_retry_request_allows_second_client_hello)
{
	static const uint16_t v13[] = { 0x0304 };
	HelloSpec h = { .ciphers = basic_ciphers, .nciphers = 3, .versions = v13, .nversions = 1 };
	Buf c = { .n = 0 }, sv = { .n = 0 };
	Buf body = { .n = 0 }, msg = { .n = 0 };
	static const uint8_t hrr[32] = {
		0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a, 0x61, 0x11, 0xbe, 0x1d, 0x8c,
		0x02, 0x1e, 0x65, 0xb8, 0x91, 0xc2, 0xa2, 0x11, 0x16, 0x7a, 0xbb,
		0x8c, 0x5e, 0x07, 0x9e, 0x09, 0xe2, 0xc8, 0xa8, 0x33, 0x9c,
	};
	TlsState *s = tls_state_new();

	put16(&body, 0x0303);
	putn(&body, hrr, 32);
	put8(&body, 0);
	put16(&body, 0x1301);
	put8(&body, 0);
	put16(&body, 6);
	put16(&body, 43);
	put16(&body, 2);
	put16(&body, 0x0304);
	hs_msg(&msg, 2, body.b, body.n);
	record(&sv, 22, msg.b, msg.n);
	client_hello_record(&c, &h);
	tls_parse(s, TLS_TOSERVER, c.b, c.n);
	tls_parse(s, TLS_TOCLIENT, sv.b, sv.n);
	CHECK(s->flags & TLS_F_HRR);
	CHECK(!s->dir[TLS_TOSERVER].encrypted);
	CHECK(!(s->flags & TLS_F_HANDSHAKE_DONE));
	/* the second hello and the real ServerHello still parse */
	tls_parse(s, TLS_TOSERVER, c.b, c.n);
	Buf sh = { .n = 0 };
	server_hello_record(&sh, 0x1301, 0x0304, 0);
	tls_parse(s, TLS_TOCLIENT, sh.b, sh.n);
	CHECK(s->dir[TLS_TOCLIENT].encrypted);
	CHECK_EQ(s->nevents, 0);
	tls_state_free(s);
}

TEST(tls_session_resumed_when_ids_match)
{
	HelloSpec h = { .ciphers = basic_ciphers, .nciphers = 3, .sid_len = 32 };
	Buf c = { .n = 0 }, sv = { .n = 0 };
	TlsState *s = tls_state_new();

	client_hello_record(&c, &h);
	server_hello_record(&sv, 0xc02f, 0, 32);
	tls_parse(s, TLS_TOSERVER, c.b, c.n);
	tls_parse(s, TLS_TOCLIENT, sv.b, sv.n);
	CHECK(s->flags & TLS_F_SESSION_RESUMED);
	json_t *j = tls_json_object(s, TLS_LOG_BASIC);
	char *txt = json_dumps(j, JSON_COMPACT);
	CHECK_STREQ(txt, "{\"session_resumed\":true}");
	free(txt);
	json_decref(j);
	tls_state_free(s);

	/* a new id from the server: a full handshake */
	s = tls_state_new();
	sv.n = 0;
	server_hello_record(&sv, 0xc02f, 0, 16);
	tls_parse(s, TLS_TOSERVER, c.b, c.n);
	tls_parse(s, TLS_TOCLIENT, sv.b, sv.n);
	CHECK(!(s->flags & TLS_F_SESSION_RESUMED));
	tls_state_free(s);
}

TEST(tls_version_names_as_suricata_logs_them)
{
	static const struct {
		uint16_t v;
		const char *name;
	} cases[] = {
		{ 0, "UNDETERMINED" },       { 0x0002, "SSLv2" },
		{ 0x0300, "SSLv3" },         { 0x0301, "TLSv1" },
		{ 0x0302, "TLS 1.1" },       { 0x0303, "TLS 1.2" },
		{ 0x0304, "TLS 1.3" },       { 0x7f0e, "TLS 1.3 draft-<16" },
		{ 0x7f12, "TLS 1.3 draft-18" }, { 0xfb1a, "TLS 1.3 draft-26-fb" },
	};
	char buf[32];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK_STREQ(tls_version_name(cases[i].v, buf, sizeof(buf)), cases[i].name);
}

TEST(tls_probe_detects_tls_and_sslv2)
{
	static const uint8_t tls[] = { 0x16, 0x03, 0x01, 0x00, 0x10 };
	static const uint8_t v2[] = { 0x80, 0x57, 0x01, 0x03, 0x01 };
	static const uint8_t http[] = "GET /";

	CHECK_EQ(tls_probe(tls, sizeof(tls)), 1);
	CHECK_EQ(tls_probe(tls, 2), -1);
	CHECK_EQ(tls_probe(v2, sizeof(v2)), 1);
	CHECK_EQ(tls_probe(v2, 3), -1);
	CHECK_EQ(tls_probe(http, 5), 0);
	CHECK_EQ(tls_probe(NULL, 0), -1);
}

TEST(tls_event_names_round_trip)
{
	for (int i = 0; i < TLS_EV_COUNT; i++) {
		CHECK(tls_event_name(i));
		CHECK_EQ(tls_event_by_name(tls_event_name(i)), i);
	}
	CHECK_EQ(tls_event_by_name("invalid_record_type"), TLS_EV_INVALID_RECORD_TYPE);
	CHECK_EQ(tls_event_by_name("too_many_records_in_packet"), TLS_EV_TOO_MANY_RECORDS_IN_PACKET);
	CHECK_EQ(tls_event_by_name("nope"), -1);
	CHECK(!tls_event_name(TLS_EV_COUNT));
}

/* ==== ja3 / ja4 ==== */

TEST(ja3_and_ja4_ignore_grease)
{
	static const uint16_t ciphers[] = { 0x0a0a, 0x1301, 0x1302, 0xc02b };
	static const uint16_t groups[] = { 0x2a2a, 29, 23 };
	static const uint16_t extra[] = { 0x3a3a, 23, 65281 };
	static const uint16_t sig[] = { 0x0403, 0x0804 };
	static const uint16_t vers[] = { 0x5a5a, 0x0304, 0x0303 };
	HelloSpec h = { .ciphers = ciphers, .nciphers = 4, .sni = "a.example", .alpn = "h2",
			.exts_extra = extra, .nextra = 3, .groups = groups, .ngroups = 3,
			.sigalgs = sig, .nsigalgs = 2, .versions = vers, .nversions = 3 };
	Buf b = { .n = 0 };
	char str[1024], md5[33], ja4[40];

	client_hello_record(&b, &h);
	TlsState *s = parse_buf(TLS_TOSERVER, &b);
	CHECK(ja3_of(&s->client, false, str, sizeof(str), md5) > 0);
	CHECK_STREQ(str, "771,4865-4866-49195,0-23-65281-10-13-16-43,29-23,");
	CHECK_EQ(tls_ja4(&s->client, ja4), 0);
	/* 3 ciphers, 7 extensions (GREASE out), ALPN h2, version from 43 */
	CHECK_EQ(memcmp(ja4, "t13d0307h2_", 11), 0);
	/* b: sha256("1301,1302,c02b") */
	unsigned char md[32];
	unsigned int mdn;
	char hex[65];
	EVP_Digest("1301,1302,c02b", 14, md, &mdn, EVP_sha256(), NULL);
	for (int i = 0; i < 6; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
	CHECK_EQ(memcmp(ja4 + 11, hex, 12), 0);
	/* c: sorted extensions without SNI and ALPN, then the sig algs */
	EVP_Digest("000a,000d,0017,002b,ff01_0403,0804", 34, md, &mdn, EVP_sha256(), NULL);
	for (int i = 0; i < 6; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
	CHECK_EQ(memcmp(ja4 + 24, hex, 12), 0);
	CHECK_EQ(strlen(ja4), 36);
	tls_state_free(s);
}

TEST(ja4_alpn_and_sni_variants)
{
	HelloSpec h = { .ciphers = basic_ciphers, .nciphers = 3 };
	Buf b = { .n = 0 };
	char ja4[40];

	/* no SNI, no ALPN, no extensions left: zeros for c */
	client_hello_record(&b, &h);
	TlsState *s = parse_buf(TLS_TOSERVER, &b);
	CHECK_EQ(tls_ja4(&s->client, ja4), 0);
	CHECK_EQ(memcmp(ja4, "t12i030000_", 11), 0);
	CHECK_STREQ(ja4 + 24, "000000000000");
	tls_state_free(s);

	/* a non-alphanumeric ALPN: the first and last hex digits */
	h.alpn = "\xab-\xcd";
	h.sni = "x";
	b.n = 0;
	client_hello_record(&b, &h);
	s = parse_buf(TLS_TOSERVER, &b);
	CHECK_EQ(tls_ja4(&s->client, ja4), 0);
	CHECK_EQ(memcmp(ja4, "t12d0302ad_", 11), 0);
	tls_state_free(s);

	/* no ciphers: b is zeros */
	h.nciphers = 0;
	b.n = 0;
	client_hello_record(&b, &h);
	s = parse_buf(TLS_TOSERVER, &b);
	CHECK_EQ(tls_ja4(&s->client, ja4), 0);
	CHECK_EQ(memcmp(ja4 + 11, "000000000000_", 13), 0);
	tls_state_free(s);
}

/* A hello with extensions but no signature_algorithms (TLS 1.0 clients):
 * Suricata hashes the sorted extensions with the '_' still written
 * (suricata-verify bug-5713-02-ja4). */
TEST(ja4_without_sigalgs_keeps_the_separator)
{
	static const uint16_t extra[] = { 0x0005, 0x0023, 0x0017, 0xff01 };
	static const uint16_t groups[] = { 29 };
	HelloSpec h = { .ciphers = basic_ciphers, .nciphers = 3, .exts_extra = extra,
			.nextra = 4, .groups = groups, .ngroups = 1 };
	Buf b = { .n = 0 };
	char ja4[40], hex[13];
	unsigned char md[32];
	unsigned int mdn;

	client_hello_record(&b, &h);
	TlsState *s = parse_buf(TLS_TOSERVER, &b);
	CHECK_EQ(tls_ja4(&s->client, ja4), 0);
	CHECK_EQ(memcmp(ja4, "t12i030500_", 11), 0);
	EVP_Digest("0005,000a,0017,0023,ff01_", 25, md, &mdn, EVP_sha256(), NULL);
	for (int i = 0; i < 6; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
	CHECK_STREQ(ja4 + 24, hex);
	tls_state_free(s);
}

TEST(ja3_md5_of_documented_example)
{
	char md5[33];

	/* the ja3 README's example string and hash */
	const char *s = "769,47-53-5-10-49161-49162-49171-49172-50-56-19-4,0-10-11,23-24-25,0";
	tls_ja_md5_hex(s, strlen(s), md5);
	CHECK_STREQ(md5, "ada70206e40642a3e4461f35503241d5");
	CHECK(tls_is_grease(0x0a0a));
	CHECK(tls_is_grease(0xfafa));
	CHECK(!tls_is_grease(0x0a1a));
	CHECK(!tls_is_grease(0x1301));
}

/* ==== eve json ==== */

TEST(tls_json_extended_selks)
{
	TlsState *s = parse_fixture("selks");
	char *txt;

	CHECK(s);
	json_t *j = tls_json_object(s, TLS_LOG_EXTENDED);
	txt = json_dumps(j, JSON_COMPACT);
	CHECK_STREQ(txt,
		    "{\"subject\":\"C=FR, ST=IDF, L=Paris, O=Stamus, CN=SELKS\","
		    "\"issuerdn\":\"C=FR, ST=IDF, L=Paris, O=Stamus, CN=SELKS\","
		    "\"serial\":\"00:97:E6:47:09:8E:EA:C9:B4\","
		    "\"fingerprint\":\"3a:0b:3b:23:15:2c:44:5c:27:ac:6a:0c:41:d6:fa:74:af:b4:09:5b\","
		    "\"version\":\"TLS 1.2\","
		    "\"notbefore\":\"2015-02-12T18:07:27\",\"notafter\":\"2025-02-09T18:07:27\","
		    "\"ja3\":{\"hash\":\"308b0bd904abbef5e0034a1ff7a78920\",\"string\":\"771,49195-49199-"
		    "158-49162-49161-49171-49172-49159-49169-51-50-57-156-47-53-10-5-4,65281-10-11-35-"
		    "13172-16-30032-5-18-13,23-24-25,0\"},"
		    "\"ja3s\":{\"hash\":\"ccc514751b175866924439bdbb5bba34\",\"string\":\"771,49199,"
		    "65281-11-35\"},"
		    "\"ja4\":\"t12i1810s1_27d4652c4487_06a4338d0495\","
		    "\"client_alpns\":[\"spdy/3.1\",\"http/1.1\"]}");
	free(txt);
	json_decref(j);
	tls_state_free(s);
}

TEST(tls_json_basic_and_client_version)
{
	HelloSpec h = { .ciphers = basic_ciphers, .nciphers = 3, .sni = "only.client" };
	Buf b = { .n = 0 };
	char *txt;

	client_hello_record(&b, &h);
	TlsState *s = parse_buf(TLS_TOSERVER, &b);
	json_t *j = tls_json_object(s, TLS_LOG_BASIC);
	txt = json_dumps(j, JSON_COMPACT);
	CHECK_STREQ(txt, "{}");
	free(txt);
	json_decref(j);
	j = tls_json_object(s, TLS_LOG_SNI | TLS_LOG_VERSION);
	txt = json_dumps(j, JSON_COMPACT);
	/* no ServerHello: Suricata 8.0.3 logs the client hello's version */
	CHECK_STREQ(txt, "{\"sni\":\"only.client\",\"version\":\"TLS 1.2\"}");
	free(txt);
	json_decref(j);
	tls_state_free(s);
}

TEST(tls_json_chain_and_certificate_base64)
{
	TlsState *s = parse_fixture("chain");
	uint32_t len;

	CHECK(s);
	json_t *j = tls_json_object(s, TLS_LOG_CERTIFICATE | TLS_LOG_CHAIN);
	json_t *chain = json_object_get(j, "chain");
	CHECK_EQ(json_array_size(chain), 3);
	const char *b64 = json_string_value(json_array_get(chain, 2));
	CHECK(b64);
	unsigned char *der = malloc(strlen(b64));
	int n = EVP_DecodeBlock(der, (const unsigned char *)b64, (int)strlen(b64));
	const uint8_t *want = tls_chain_cert(&s->certs[TLS_TOCLIENT], 2, &len);
	/* DecodeBlock counts the '=' padding as zero bytes */
	CHECK(n >= (int)len && n <= (int)len + 2);
	CHECK_EQ(memcmp(der, want, len), 0);
	free(der);
	CHECK_STREQ(json_string_value(json_object_get(j, "certificate")),
		    json_string_value(json_array_get(chain, 0)));
	json_decref(j);
	tls_state_free(s);
}

TEST(tls_json_handshake_objects_and_san)
{
	TlsState *s = parse_fixture("glupteba");
	char *txt;

	CHECK(s);
	json_t *j = tls_json_object(s, TLS_LOG_SERVER_HANDSHAKE | TLS_LOG_SUBJECTALTNAME);
	txt = json_dumps(json_object_get(j, "server_handshake"), JSON_COMPACT);
	CHECK_STREQ(txt, "{\"version\":\"TLSv1\",\"cipher\":57,\"exts\":[65281]}");
	free(txt);
	CHECK_EQ(json_array_size(json_object_get(j, "subjectaltname")), 17);
	json_decref(j);
	tls_state_free(s);

	s = parse_fixture("tls13d22");
	j = tls_json_object(s, TLS_LOG_CLIENT_HANDSHAKE);
	json_t *ch = json_object_get(j, "client_handshake");
	CHECK_STREQ(json_string_value(json_object_get(ch, "version")), "TLS 1.2");
	CHECK_EQ(json_array_size(json_object_get(ch, "ciphers")), 2);
	CHECK_EQ(json_integer_value(json_array_get(json_object_get(ch, "exts"), 1)), 43);
	json_decref(j);
	tls_state_free(s);
}

TEST(tls_json_invalid_utf8_sni_is_escaped)
{
	HelloSpec h = { .ciphers = basic_ciphers, .nciphers = 3, .sni = "a\xff" "b" };
	Buf b = { .n = 0 };

	client_hello_record(&b, &h);
	TlsState *s = parse_buf(TLS_TOSERVER, &b);
	json_t *j = tls_json_object(s, TLS_LOG_SNI);
	CHECK_STREQ(json_string_value(json_object_get(j, "sni")), "a\\xFFb");
	json_decref(j);
	tls_state_free(s);
}

TEST(tls_log_custom_field_names)
{
	static const char *const good[] = { "subject", "issuer", "not_before", "ja4", "chain",
					    "client_handshake" };
	static const char *const bad[] = { "subject", "issuerdn" };
	uint32_t f = 0;
	const char *which;

	CHECK_EQ(tls_log_custom_fields(good, 6, &f, &which), 0);
	CHECK_EQ(f, TLS_LOG_SUBJECT | TLS_LOG_ISSUER | TLS_LOG_NOTBEFORE | TLS_LOG_JA4 |
			    TLS_LOG_CHAIN | TLS_LOG_CLIENT_HANDSHAKE);
	CHECK_EQ(tls_log_custom_fields(bad, 2, &f, &which), -1);
	CHECK_STREQ(which, "issuerdn");
	CHECK_EQ(tls_log_field("session_resumed"), TLS_LOG_SESSION_RESUMED);
}

/* ==== keywords ==== */

TEST(tls_kw_buffers_selks)
{
	TlsState *s = parse_fixture("selks");
	TlsKwInfo ki;
	const uint8_t *b;
	uint32_t n;

	CHECK(s);
	tls_kw_info_init(&ki);
	tls_kw_info_update(&ki, s);
	tls_kw_info_update(&ki, s); /* idempotent */
	CHECK(tls_kw_buffer(&ki, s, TLS_BUF_CERT_SUBJECT, TLS_TOCLIENT, &b, &n));
	CHECK_EQ(n, strlen("C=FR, ST=IDF, L=Paris, O=Stamus, CN=SELKS"));
	CHECK(tls_kw_buffer(&ki, s, TLS_BUF_CERT_SERIAL, TLS_TOCLIENT, &b, &n));
	CHECK_EQ(memcmp(b, "00:97:E6", 8), 0);
	CHECK(tls_kw_buffer(&ki, s, TLS_BUF_JA3_HASH, TLS_TOSERVER, &b, &n));
	CHECK_EQ(n, 32);
	CHECK_EQ(memcmp(b, "308b0bd904abbef5e0034a1ff7a78920", 32), 0);
	CHECK(tls_kw_buffer(&ki, s, TLS_BUF_JA4_HASH, TLS_TOSERVER, &b, &n));
	CHECK_EQ(memcmp(b, "t12i1810s1_27d4652c4487_06a4338d0495", 36), 0);
	CHECK(tls_kw_buffer(&ki, s, TLS_BUF_JA3S_STRING, TLS_TOCLIENT, &b, &n));
	CHECK_EQ(memcmp(b, "771,49199,65281-11-35", n), 0);
	/* no SNI in this hello, no client certificate */
	CHECK(!tls_kw_buffer(&ki, s, TLS_BUF_SNI, TLS_TOSERVER, &b, &n));
	CHECK(!tls_kw_buffer(&ki, s, TLS_BUF_CERT_SUBJECT, TLS_TOSERVER, &b, &n));
	CHECK(tls_kw_cert(s, TLS_TOCLIENT, 0, &b, &n));
	CHECK_EQ(b[0], 0x30);
	CHECK(!tls_kw_cert(s, TLS_TOCLIENT, 1, &b, &n));
	tls_kw_info_free(&ki);
	tls_state_free(s);
}

TEST(tls_kw_sni_and_certs_multi_buffer)
{
	TlsState *s = parse_fixture("chain");
	TlsKwInfo ki;
	const uint8_t *b;
	uint32_t n;
	unsigned count = 0;

	CHECK(s);
	tls_kw_info_init(&ki);
	tls_kw_info_update(&ki, s);
	CHECK(tls_kw_buffer(&ki, s, TLS_BUF_SNI, TLS_TOSERVER, &b, &n));
	CHECK_EQ(n, 11);
	CHECK_EQ(memcmp(b, "example.com", 11), 0);
	while (tls_kw_cert(s, TLS_TOCLIENT, count, &b, &n))
		count++;
	CHECK_EQ(count, 3);
	tls_kw_info_free(&ki);
	tls_state_free(s);
}

TEST(tls_kw_tls_version)
{
	TlsVersionKw kw;
	TlsState *s = parse_fixture("tls13d22");

	CHECK(s);
	CHECK_EQ(tls_kw_version_parse("1.3", &kw), 0);
	CHECK(tls_kw_version_match(&kw, s, TLS_TOCLIENT)); /* a draft is 1.3 */
	CHECK_EQ(tls_kw_version_parse("0x7f16", &kw), 0);
	CHECK(kw.raw);
	CHECK(tls_kw_version_match(&kw, s, TLS_TOCLIENT));
	CHECK_EQ(tls_kw_version_parse("0x7f12", &kw), 0);
	CHECK(!tls_kw_version_match(&kw, s, TLS_TOCLIENT));
	CHECK_EQ(tls_kw_version_parse("1.2", &kw), 0);
	CHECK(!tls_kw_version_match(&kw, s, TLS_TOCLIENT));
	CHECK(tls_kw_version_match(&kw, s, TLS_TOSERVER)); /* the client's hello */
	CHECK_EQ(tls_kw_version_parse("1.4", &kw), -1);
	CHECK_EQ(tls_kw_version_parse("0xzz", &kw), -1);
	CHECK_EQ(tls_kw_version_parse("", &kw), -1);
	tls_state_free(s);
}

TEST(tls_kw_ssl_version_lists)
{
	TlsSslVersionKw kw;
	TlsState *s = parse_fixture("selks");

	CHECK(s);
	CHECK_EQ(tls_kw_ssl_version_parse("tls1.2", &kw), 0);
	CHECK(tls_kw_ssl_version_match(&kw, s, TLS_TOCLIENT));
	CHECK_EQ(tls_kw_ssl_version_parse("sslv3,tls1.0,!tls1.3", &kw), 0);
	CHECK_EQ(kw.want, TLS_SSLV_SSL3 | TLS_SSLV_TLS10);
	CHECK_EQ(kw.reject, TLS_SSLV_TLS13);
	CHECK(!tls_kw_ssl_version_match(&kw, s, TLS_TOCLIENT));
	CHECK_EQ(tls_kw_ssl_version_parse("!tls1.3", &kw), 0);
	CHECK(tls_kw_ssl_version_match(&kw, s, TLS_TOCLIENT));
	CHECK_EQ(tls_kw_ssl_version_parse("!tls1.2", &kw), 0);
	CHECK(!tls_kw_ssl_version_match(&kw, s, TLS_TOCLIENT));
	CHECK_EQ(tls_kw_ssl_version_parse("tls1.2, tls1.3", &kw), 0);
	CHECK_EQ(tls_kw_ssl_version_parse("tls9", &kw), -1);
	CHECK_EQ(tls_kw_ssl_version_parse(",", &kw), -1);
	tls_state_free(s);

	s = parse_fixture("glupteba");
	CHECK_EQ(tls_kw_ssl_version_parse("tls1.0", &kw), 0);
	CHECK(tls_kw_ssl_version_match(&kw, s, TLS_TOCLIENT));
	tls_state_free(s);
}

TEST(tls_kw_ssl_state_terms)
{
	TlsSslStateKw kw;
	HelloSpec h = { .ciphers = basic_ciphers, .nciphers = 3 };
	Buf b = { .n = 0 };

	CHECK_EQ(tls_kw_ssl_state_parse("client_hello", &kw), 0);
	CHECK(tls_kw_ssl_state_match(&kw, TLS_STATE_CLIENT_HELLO));
	CHECK(!tls_kw_ssl_state_match(&kw, TLS_STATE_SERVER_HELLO));
	CHECK_EQ(tls_kw_ssl_state_parse("client_hello|server_hello", &kw), 0);
	CHECK(tls_kw_ssl_state_match(&kw, TLS_STATE_SERVER_HELLO));
	CHECK(!tls_kw_ssl_state_match(&kw, TLS_STATE_CLIENT_KEYX));
	CHECK_EQ(tls_kw_ssl_state_parse("!client_hello", &kw), 0);
	CHECK(!tls_kw_ssl_state_match(&kw, TLS_STATE_CLIENT_HELLO));
	CHECK(tls_kw_ssl_state_match(&kw, TLS_STATE_SERVER_HELLO));
	CHECK_EQ(tls_kw_ssl_state_parse("client_keyx|!server_hello", &kw), 0);
	CHECK(tls_kw_ssl_state_match(&kw, 0));
	CHECK(!tls_kw_ssl_state_match(&kw, TLS_STATE_SERVER_HELLO));
	CHECK(tls_kw_ssl_state_match(&kw, TLS_STATE_SERVER_HELLO | TLS_STATE_CLIENT_KEYX));
	CHECK_EQ(tls_kw_ssl_state_parse("server_keyx | unknown", &kw), 0);
	CHECK_EQ(kw.flags, TLS_STATE_SERVER_KEYX | TLS_STATE_UNKNOWN);
	CHECK_EQ(tls_kw_ssl_state_parse("client_helo", &kw), -1);
	CHECK_EQ(tls_kw_ssl_state_parse("", &kw), -1);

	/* cur_state is the last call's: the next packet starts empty */
	client_hello_record(&b, &h);
	TlsState *s = parse_buf(TLS_TOSERVER, &b);
	CHECK_EQ(s->cur_state, TLS_STATE_CLIENT_HELLO);
	tls_parse(s, TLS_TOSERVER, (const uint8_t *)"\x17\x03\x03\x00\x01x", 6);
	CHECK_EQ(s->cur_state, 0);
	CHECK_EQ(s->state, TLS_STATE_CLIENT_HELLO);
	tls_state_free(s);
}

TEST(tls_kw_cert_dates)
{
	TlsDateKw kw;
	TlsState *s = parse_fixture("selks");
	TlsKwInfo ki;

	CHECK(s);
	tls_kw_info_init(&ki);
	tls_kw_info_update(&ki, s);
	/* notbefore 2015-02-12T18:07:27, notafter 2025-02-09T18:07:27 */
	CHECK_EQ(tls_kw_date_parse("1998-05-01<>2016-05-01", &kw), 0);
	CHECK(tls_kw_notbefore_match(&kw, &ki, TLS_TOCLIENT));
	CHECK(!tls_kw_notafter_match(&kw, &ki, TLS_TOCLIENT));
	CHECK_EQ(tls_kw_date_parse(">2015", &kw), 0);
	CHECK(tls_kw_notafter_match(&kw, &ki, TLS_TOCLIENT));
	CHECK(tls_kw_notbefore_match(&kw, &ki, TLS_TOCLIENT));
	CHECK_EQ(tls_kw_date_parse("<2015-02-12T18", &kw), 0);
	CHECK(!tls_kw_notbefore_match(&kw, &ki, TLS_TOCLIENT));
	CHECK_EQ(tls_kw_date_parse("2015-02-12T18:07:27", &kw), 0);
	CHECK(tls_kw_notbefore_match(&kw, &ki, TLS_TOCLIENT));
	CHECK_EQ(tls_kw_date_parse("1423764447", &kw), 0); /* the same, as epoch */
	CHECK(tls_kw_notbefore_match(&kw, &ki, TLS_TOCLIENT));
	CHECK_EQ(tls_kw_date_parse("2015-02", &kw), 0);
	CHECK(!tls_kw_notbefore_match(&kw, &ki, TLS_TOCLIENT));
	/* no client certificate: nothing matches toward the server */
	CHECK_EQ(tls_kw_date_parse(">1990", &kw), 0);
	CHECK(!tls_kw_notbefore_match(&kw, &ki, TLS_TOSERVER));
	CHECK_EQ(tls_kw_date_parse("2016<>2015", &kw), -1);
	CHECK_EQ(tls_kw_date_parse("2015-13", &kw), -1);
	CHECK_EQ(tls_kw_date_parse("2015-1-1", &kw), -1);
	CHECK_EQ(tls_kw_date_parse("yesterday", &kw), -1);
	CHECK_EQ(tls_kw_date_parse(">", &kw), -1);

	int64_t y2020 = 1577836800, y2026 = 1767225600;
	CHECK(tls_kw_cert_valid(&ki, TLS_TOCLIENT, y2020));
	CHECK(!tls_kw_cert_expired(&ki, TLS_TOCLIENT, y2020));
	CHECK(tls_kw_cert_expired(&ki, TLS_TOCLIENT, y2026));
	CHECK(!tls_kw_cert_valid(&ki, TLS_TOCLIENT, y2026));
	CHECK(!tls_kw_cert_valid(&ki, TLS_TOCLIENT, 0)); /* before notbefore */
	CHECK(!tls_kw_cert_expired(&ki, TLS_TOSERVER, y2026));
	tls_kw_info_free(&ki);
	tls_state_free(s);
}

TEST(tls_kw_legacy_subject_issuer_fingerprint)
{
	TlsState *s = parse_fixture("glupteba");
	TlsKwInfo ki;
	TlsLegacyKw kw;

	CHECK(s);
	tls_kw_info_init(&ki);
	tls_kw_info_update(&ki, s);
	CHECK_EQ(tls_kw_legacy_parse("\"CN=xn--j1ahhq\"", &kw), 0);
	CHECK(tls_kw_legacy_match(&kw, &ki, TLS_BUF_CERT_SUBJECT));
	CHECK(!tls_kw_legacy_match(&kw, &ki, TLS_BUF_CERT_ISSUER));
	tls_kw_legacy_free(&kw);
	CHECK_EQ(tls_kw_legacy_parse("!\"CN=Google-Internet-Authority\"", &kw), 0);
	CHECK(kw.neg);
	CHECK(tls_kw_legacy_match(&kw, &ki, TLS_BUF_CERT_ISSUER));
	tls_kw_legacy_free(&kw);
	CHECK_EQ(tls_kw_legacy_parse("\"O=Let's Encrypt\"", &kw), 0);
	CHECK(tls_kw_legacy_match(&kw, &ki, TLS_BUF_CERT_ISSUER));
	tls_kw_legacy_free(&kw);
	/* the fingerprint compares without case (tls-fingerprint-alert),
	 * the names with it */
	CHECK_EQ(tls_kw_legacy_parse("\"E9:A0:69:50:BA\"", &kw), 0);
	CHECK(tls_kw_legacy_match(&kw, &ki, TLS_BUF_CERT_FINGERPRINT));
	tls_kw_legacy_free(&kw);
	CHECK_EQ(tls_kw_legacy_parse("\"E9:A0:69:50:BB\"", &kw), 0);
	CHECK(!tls_kw_legacy_match(&kw, &ki, TLS_BUF_CERT_FINGERPRINT));
	tls_kw_legacy_free(&kw);
	CHECK_EQ(tls_kw_legacy_parse("\"cn=xn--j1ahhq\"", &kw), 0);
	CHECK(!tls_kw_legacy_match(&kw, &ki, TLS_BUF_CERT_SUBJECT));
	tls_kw_legacy_free(&kw);
	CHECK_EQ(tls_kw_legacy_parse(
			 "\"e9:a0:69:50:ba:18:dc:ac:d3:a7:fe:58:22:4a:1f:42:5b:bc:96:b0\"", &kw),
		 0);
	CHECK(tls_kw_legacy_match(&kw, &ki, TLS_BUF_CERT_FINGERPRINT));
	tls_kw_legacy_free(&kw);
	CHECK_EQ(tls_kw_legacy_parse("\"\"", &kw), -1);
	tls_kw_info_free(&ki);
	tls_state_free(s);

	/* no certificate: a negated legacy keyword does not match either */
	TlsState *e = tls_state_new();
	tls_kw_info_init(&ki);
	tls_kw_info_update(&ki, e);
	CHECK_EQ(tls_kw_legacy_parse("!\"x\"", &kw), 0);
	CHECK(!tls_kw_legacy_match(&kw, &ki, TLS_BUF_CERT_SUBJECT));
	tls_kw_legacy_free(&kw);
	tls_kw_info_free(&ki);
	tls_state_free(e);
}

TEST(tls_cert_decode_rejects_junk)
{
	static const uint8_t junk[] = { 0x30, 0x82, 0x10, 0x00, 0x01 };
	TlsCertInfo ci;
	char fp[64];

	CHECK_EQ(tls_cert_decode(junk, sizeof(junk), &ci), -1);
	CHECK_EQ(tls_cert_decode(NULL, 0, &ci), -1);
	tls_cert_info_free(&ci);
	/* SHA-1 of "abc" (FIPS 180-2 example) */
	tls_sha1_colon_hex((const uint8_t *)"abc", 3, fp);
	CHECK_STREQ(fp, "a9:99:3e:36:47:06:81:6a:ba:3e:25:71:78:50:c2:6c:9c:d0:d8:9d");
}

TEST(tls_subject_keeps_an_embedded_nul)
{
	/* suricata-verify tls-subject-zero: "Corporat|00|on" */
	static const char want[] = "C=US, ST=WA, L=Redmond, O=Microsoft Corporat\0on, "
				   "OU=Microsoft Corporation, CN=go.microsoft.com";
	TlsState *s = parse_fixture("subjzero");
	TlsKwInfo ki;
	TlsLegacyKw kw;
	const uint8_t *b;
	uint32_t n;

	CHECK(s);
	tls_kw_info_init(&ki);
	tls_kw_info_update(&ki, s);
	CHECK(tls_kw_buffer(&ki, s, TLS_BUF_CERT_SUBJECT, TLS_TOCLIENT, &b, &n));
	CHECK_EQ(n, sizeof(want) - 1);
	CHECK_EQ(memcmp(b, want, n), 0);
	/* text after the NUL is still searchable */
	CHECK_EQ(tls_kw_legacy_parse("\"CN=go.microsoft.com\"", &kw), 0);
	CHECK(tls_kw_legacy_match(&kw, &ki, TLS_BUF_CERT_SUBJECT));
	tls_kw_legacy_free(&kw);
	json_t *j = tls_json_object(s, TLS_LOG_SUBJECT);
	CHECK_EQ(json_string_length(json_object_get(j, "subject")), sizeof(want) - 1);
	json_decref(j);
	tls_kw_info_free(&ki);
	tls_state_free(s);
}

TEST(tls_kw_random_buffers)
{
	/* suricata-verify tls-random's rules */
	static const uint8_t crand[32] = { 0x94, 0x2d, 0x1f, 0xef, 0x57, 0x5d, 0x77, 0x02,
					   0x07, 0xc2, 0x9d, 0xbe, 0x24, 0x01, 0xcc, 0xf0,
					   0x5d, 0xcd, 0xe1, 0xd2, 0xa5, 0x86, 0x9c, 0x4a,
					   0x3e, 0xee, 0x38, 0xdb, 0x55, 0x1a, 0xd9, 0xbc };
	static const uint8_t stime[4] = { 0x54, 0xf9, 0xfc, 0x15 };
	static const uint8_t sbytes_head[4] = { 0x77, 0xe4, 0x33, 0xd3 };
	TlsState *s = parse_fixture("random");
	TlsKwInfo ki;
	const uint8_t *b;
	uint32_t n;

	CHECK(s);
	tls_kw_info_init(&ki);
	CHECK(tls_kw_buffer(&ki, s, TLS_BUF_RANDOM, TLS_TOSERVER, &b, &n));
	CHECK_EQ(n, 32);
	CHECK_EQ(memcmp(b, crand, 32), 0);
	CHECK(tls_kw_buffer(&ki, s, TLS_BUF_RANDOM_BYTES, TLS_TOSERVER, &b, &n));
	CHECK_EQ(n, 28);
	CHECK_EQ(memcmp(b, crand + 4, 28), 0);
	CHECK(tls_kw_buffer(&ki, s, TLS_BUF_RANDOM_TIME, TLS_TOCLIENT, &b, &n));
	CHECK_EQ(n, 4);
	CHECK_EQ(memcmp(b, stime, 4), 0);
	CHECK(tls_kw_buffer(&ki, s, TLS_BUF_RANDOM_BYTES, TLS_TOCLIENT, &b, &n));
	CHECK_EQ(memcmp(b, sbytes_head, 4), 0);
	tls_kw_info_free(&ki);
	tls_state_free(s);
}

TEST(tls_kw_alpn_san_chain_len)
{
	TlsState *s = parse_fixture("selks");
	TlsKwInfo ki;
	const uint8_t *b;
	uint32_t n;

	CHECK(s);
	CHECK(tls_kw_alpn(s, TLS_TOSERVER, 0, &b, &n));
	CHECK_EQ(n, 8);
	CHECK_EQ(memcmp(b, "spdy/3.1", 8), 0);
	CHECK(tls_kw_alpn(s, TLS_TOSERVER, 1, &b, &n));
	CHECK_EQ(memcmp(b, "http/1.1", 8), 0);
	CHECK(!tls_kw_alpn(s, TLS_TOSERVER, 2, &b, &n));
	CHECK(!tls_kw_alpn(s, TLS_TOCLIENT, 0, &b, &n));
	CHECK_EQ(tls_kw_chain_len(s, TLS_TOCLIENT), 1);
	CHECK_EQ(tls_kw_chain_len(s, TLS_TOSERVER), 0);
	tls_state_free(s);

	s = parse_fixture("glupteba");
	tls_kw_info_init(&ki);
	tls_kw_info_update(&ki, s);
	CHECK(tls_kw_san(&ki, TLS_TOCLIENT, 16, &b, &n));
	CHECK_EQ(n, strlen("xn--j1ahhq.xn--p1ai"));
	CHECK(!tls_kw_san(&ki, TLS_TOCLIENT, 17, &b, &n));
	/* SSLv2 hello: no random buffer */
	CHECK(!tls_kw_buffer(&ki, s, TLS_BUF_RANDOM, TLS_TOSERVER, &b, &n));
	tls_kw_info_free(&ki);
	tls_state_free(s);

	s = parse_fixture("chain");
	CHECK_EQ(tls_kw_chain_len(s, TLS_TOCLIENT), 3);
	tls_state_free(s);
}

TEST(tls13_chrome_with_grease)
{
	/* ndpi chrome.pcap: GREASE in ciphers, extensions, groups and
	 * supported_versions. ja3/ja3s from tshark; ja4 from an independent
	 * script over tshark's fields (JA4.md's rules) */
	TlsState *s = parse_fixture("chrome13");
	char str[4096], md5[33], ja4[40], v[32];

	CHECK(s);
	CHECK_EQ(s->nevents, 0);
	CHECK_STREQ(tls_version_name(tls_state_version(s), v, sizeof(v)), "TLS 1.3");
	CHECK_STREQ(s->client.sni, "www.iit.cnr.it");
	CHECK(ja3_of(&s->client, false, str, sizeof(str), md5) > 0);
	CHECK_STREQ(md5, "aa50c12a5dfa717d9d6ab34e97de79d5");
	CHECK(ja3_of(&s->server, true, str, sizeof(str), md5) > 0);
	CHECK_STREQ(str, "771,4866,43-51");
	CHECK_STREQ(md5, "15af977ce25de452b96affa2addb1036");
	CHECK_EQ(tls_ja4(&s->client, ja4), 0);
	CHECK_STREQ(ja4, "t13d1516h2_8daaf6152771_e5627efa2ab1");
	/* the certificate is encrypted in TLS 1.3 */
	CHECK_EQ(s->certs[TLS_TOCLIENT].n, 0);
	CHECK(s->flags & TLS_F_APPDATA_TOCLIENT);
	tls_state_free(s);
}

/* xorshift: reproducible segmentations */
static uint32_t rnd_next(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

TEST(tls_random_interleaved_segmentation_property)
{
	static const char *const names[] = { "selks", "glupteba", "chain", "tls13d19",
					     "tls13d22", "chrome13", "subjzero" };
	char want[8192], got[8192];
	uint32_t seed = 0x9e3779b9u;

	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		Stream c, sv;
		CHECK_EQ(load(names[k], "c2s", &c), 0);
		CHECK_EQ(load(names[k], "s2c", &sv), 0);
		TlsState *ref = parse_fixture(names[k]);
		summary(ref, want, sizeof(want));
		tls_state_free(ref);
		for (int round = 0; round < 40; round++) {
			TlsState *s = tls_state_new();
			size_t pc = 0, ps = 0;
			/* the client's hello goes first, as on the wire */
			size_t first = c.nsegs ? c.seg_end[0] : c.len;
			tls_parse(s, TLS_TOSERVER, c.data, first);
			pc = first;
			while (pc < c.len || ps < sv.len) {
				uint32_t r = rnd_next(&seed);
				size_t n = 1 + r % (r & 0x100 ? 3 : 700);
				if ((r & 1) && pc < c.len) {
					n = n < c.len - pc ? n : c.len - pc;
					tls_parse(s, TLS_TOSERVER, c.data + pc, n);
					pc += n;
				} else if (ps < sv.len) {
					n = n < sv.len - ps ? n : sv.len - ps;
					tls_parse(s, TLS_TOCLIENT, sv.data + ps, n);
					ps += n;
				}
			}
			summary(s, got, sizeof(got));
			tls_state_free(s);
			if (strcmp(got, want) != 0)
				printf("  %s round %d\n", names[k], round);
			CHECK_STREQ(got, want);
		}
		stream_free(&c);
		stream_free(&sv);
	}
}

/* A certificate made here, its subject with a multi-valued RDN, an
 * attribute without a short name and a BMPString; the DN walk (not
 * d2i_X509_NAME) must print them as Suricata: ", " between RDNs, " + "
 * inside one, the OID where there is no short name, values as UTF-8. A
 * Name with a broken attribute leaves the certificate undecoded. */
/* A self-signed certificate (serial, name as subject and issuer, an hour's
 * validity) with the given subjectAltName extensions (openssl's config
 * form, "DNS:a, IP:...", each its own extension), as DER; takes n. */
static unsigned char *sign_cert(X509_NAME *n, long serial, const char *const *sans, int nsans,
				int *len)
{
	X509 *x = X509_new();
	EVP_PKEY *k = EVP_EC_gen("P-256");
	unsigned char *der = NULL;

	ASN1_INTEGER_set(X509_get_serialNumber(x), serial);
	X509_set_subject_name(x, n);
	X509_set_issuer_name(x, n);
	X509_gmtime_adj(X509_getm_notBefore(x), 0);
	X509_gmtime_adj(X509_getm_notAfter(x), 3600);
	X509_set_pubkey(x, k);
	for (int i = 0; i < nsans; i++) {
		X509_EXTENSION *e = X509V3_EXT_conf_nid(NULL, NULL, NID_subject_alt_name, sans[i]);

		X509_add_ext(x, e, -1);
		X509_EXTENSION_free(e);
	}
	X509_sign(x, k, EVP_sha256());
	*len = i2d_X509(x, &der);
	X509_NAME_free(n);
	X509_free(x);
	EVP_PKEY_free(k);
	return der;
}

static unsigned char *make_cert(int *len)
{
	X509_NAME *n = X509_NAME_new();
	static const unsigned char bmp[] = { 0x00, 'h', 0x00, 0xe9, 0x00, 'l' };   /* "hél" */

	X509_NAME_add_entry_by_txt(n, "C", MBSTRING_ASC, (const unsigned char *)"US", -1, -1, 0);
	X509_NAME_add_entry_by_txt(n, "O", MBSTRING_ASC, (const unsigned char *)"Example", -1, -1, 0);
	/* set -1: joins the previous entry's RDN */
	X509_NAME_add_entry_by_txt(n, "OU", MBSTRING_ASC, (const unsigned char *)"Unit", -1, -1, -1);
	X509_NAME_add_entry_by_txt(n, "1.2.3.4", MBSTRING_ASC, (const unsigned char *)"odd", -1, -1, 0);
	X509_NAME_add_entry_by_txt(n, "CN", MBSTRING_BMP, bmp, sizeof(bmp), -1, 0);
	return sign_cert(n, 0x1234, NULL, 0, len);
}

TEST(tls_cert_dn_multi_valued_rdn_oid_and_bmp)
{
	int len;
	unsigned char *der = make_cert(&len);
	TlsCertInfo ci;
	/* DER sorts a SET OF by encoding: the shorter OU=Unit comes first */
	const char *want = "C=US, OU=Unit + O=Example, 1.2.3.4=odd, CN=h\xc3\xa9l";
	unsigned char *oid;

	CHECK(der && len > 0);
	CHECK_EQ(tls_cert_decode(der, (size_t)len, &ci), 0);
	CHECK_STREQ(ci.subject, want);
	CHECK_EQ(ci.subject_len, strlen(want));
	CHECK_STREQ(ci.issuer, want);
	CHECK_STREQ(ci.serial, "12:34");
	tls_cert_info_free(&ci);

	/* the 1.2.3.4 attribute's OID tag (06 03 2a 03 04) made a BOOLEAN */
	oid = memmem(der, (size_t)len, "\x06\x03\x2a\x03\x04", 5);
	CHECK(oid != NULL);
	if (oid) {
		*oid = 0x01;
		CHECK(tls_cert_decode(der, (size_t)len, &ci) != 0);
	}
	OPENSSL_free(der);
}

/* The DN walk's table of attribute types names each as OpenSSL does. */
TEST(tls_dn_type_table_matches_openssl)
{
	for (size_t i = 0; i < tls_dn_type_count(); i++) {
		const unsigned char *oid;
		size_t len;
		const char *sn = tls_dn_type(i, &oid, &len);
		unsigned char der[16] = { 0x06, (unsigned char)len };
		const unsigned char *q = der;
		ASN1_OBJECT *obj;

		memcpy(der + 2, oid, len);
		obj = d2i_ASN1_OBJECT(NULL, &q, (long)len + 2);
		CHECK(obj != NULL);
		if (obj)
			CHECK_STREQ(OBJ_nid2sn(OBJ_obj2nid(obj)), sn);
		ASN1_OBJECT_free(obj);
	}
}

static unsigned char *make_cert_san(int *len, const char *const *sans, int nsans)
{
	X509_NAME *n = X509_NAME_new();

	X509_NAME_add_entry_by_txt(n, "CN", MBSTRING_ASC, (const unsigned char *)"san.test", -1, -1, 0);
	return sign_cert(n, 7, sans, nsans, len);
}

/* The subjectAltName walk: its dNSNames in order, the other name types
 * skipped; a second subjectAltName extension, or a malformed one, gives
 * none (as X509V3_get_d2i did). */
TEST(tls_cert_san_walk)
{
	const char *one[] = { "DNS:a.example, IP:10.0.0.1, email:x@example.org, DNS:b.example, "
			      "URI:http://u.example/" };
	const char *two[] = { "DNS:a.example", "DNS:b.example" };
	TlsCertInfo ci;
	int len;
	unsigned char *der = make_cert_san(&len, one, 1), *p;

	CHECK(der && len > 0);
	CHECK_EQ(tls_cert_decode(der, (size_t)len, &ci), 0);
	CHECK_EQ(ci.nsan, 2);
	if (ci.nsan == 2) {
		CHECK_STREQ(ci.san[0], "a.example");
		CHECK_STREQ(ci.san[1], "b.example");
	}
	CHECK_STREQ(ci.subject, "CN=san.test");
	tls_cert_info_free(&ci);
	/* the IP name's [7] made [9], a tag GeneralName does not have */
	p = memmem(der, (size_t)len, "\x87\x04\x0a\x00\x00\x01", 6);
	CHECK(p != NULL);
	if (p) {
		*p = 0x89;
		CHECK_EQ(tls_cert_decode(der, (size_t)len, &ci), 0);
		CHECK_EQ(ci.nsan, 0);
		tls_cert_info_free(&ci);
	}
	OPENSSL_free(der);

	der = make_cert_san(&len, two, 2);
	CHECK(der && len > 0);
	CHECK_EQ(tls_cert_decode(der, (size_t)len, &ci), 0);
	CHECK_EQ(ci.nsan, 0);
	tls_cert_info_free(&ci);
	OPENSSL_free(der);
}

/* A certificate whose subject has a CN of value bytes, as the given
 * string type; DER into *der (OPENSSL_free), its length returned. */
static int cert_with_cn(int type, const unsigned char *cn, int cnlen, unsigned char **der)
{
	EVP_PKEY *k = EVP_EC_gen("P-256");
	X509 *x = X509_new();
	X509_NAME *n = X509_get_subject_name(x);
	int len = -1;

	if (!k || !x)
		goto out;
	X509_set_version(x, 2);
	ASN1_INTEGER_set(X509_get_serialNumber(x), 7);
	X509_gmtime_adj(X509_getm_notBefore(x), 0);
	X509_gmtime_adj(X509_getm_notAfter(x), 3600);
	/* a type given as V_ASN1_*, not MBSTRING_*: the bytes go in as they
	 * are, unchecked, as a hostile peer sends them */
	X509_NAME_add_entry_by_NID(n, NID_commonName, type, (unsigned char *)cn, cnlen, -1, 0);
	X509_set_issuer_name(x, n);
	X509_set_pubkey(x, k);
	if (X509_sign(x, k, EVP_sha256()) > 0)
		len = i2d_X509(x, der);
out:
	X509_free(x);
	EVP_PKEY_free(k);
	return len;
}

/* A CN that is not UTF-8 (a UTF8String holding Latin-1 "caf\xe9", a NUL
 * in the middle) was logged "CN=" (ASN1_STRING_to_UTF8 refuses it): its
 * bytes are kept, and eve writes them in the \xNN form, NUL as \u0000. */
TEST(tls_cert_cn_not_utf8_is_kept_and_escaped)
{
	unsigned char *der = NULL;
	int len = cert_with_cn(V_ASN1_UTF8STRING, (const unsigned char *)"caf\xe9\0x", 6, &der);
	TlsCertInfo ci;
	json_t *j;

	CHECK(len > 0);
	memset(&ci, 0, sizeof(ci));
	CHECK_EQ(tls_cert_decode(der, (size_t)len, &ci), 0);
	OPENSSL_free(der);
	CHECK_EQ(ci.subject_len, 9);
	CHECK(memcmp(ci.subject, "CN=caf\xe9\0x", 9) == 0);
	j = eve_json_bytes(ci.subject, ci.subject_len);
	CHECK(j && json_string_length(j) == 12 &&
	      memcmp(json_string_value(j), "CN=caf\\xE9\0x", 12) == 0);
	json_decref(j);
	tls_cert_info_free(&ci);
}

/* issue 43: a hello holds what it carries. The suites and the server name
 * are sized to the hello (they were 1 KB and 256 bytes of every hello, a
 * quarter of a TLS flow's memory); TLS_MAX_CIPHERS still bounds what is
 * kept, and all of it is given back. */
TEST(tls_hello_lists_sized_to_the_hello)
{
	static uint16_t many[600];
	Buf b = { .n = 0 };
	HelloSpec h = { .ciphers = basic_ciphers, .nciphers = 3, .sni = "sized.example" };
	TlsState *s;

	CHECK(sizeof(TlsState) < 2560);
	client_hello_record(&b, &h);
	s = parse_buf(TLS_TOSERVER, &b);
	CHECK_EQ(s->client.nciphers, 3);
	CHECK_EQ(s->client.ciphers[2], 0x009c);
	CHECK_STREQ(s->client.sni, "sized.example");
	CHECK_STREQ(s->server.sni, "");
	for (unsigned i = 0; i < 600; i++)
		many[i] = (uint16_t)(0x0100 + i);
	h.ciphers = many;
	h.nciphers = 600;
	h.sni = "second.example";
	b.n = 0;
	client_hello_record(&b, &h);
	tls_state_free(s);
	s = tls_state_new();
	CHECK_EQ(tls_parse(s, TLS_TOSERVER, b.b, b.n), 0);
	CHECK_EQ(s->client.nciphers, TLS_MAX_CIPHERS);
	CHECK_EQ(s->client.nciphers_total, 600);
	CHECK_EQ(s->client.ciphers[TLS_MAX_CIPHERS - 1], 0x0100 + TLS_MAX_CIPHERS - 1);
	CHECK_STREQ(s->client.sni, "second.example");
	tls_state_free(s);
	CHECK_EQ(app_mem_use(ALPROTO_TLS), 0);
}

/* Suricata 8 names the PKCS#9 emailAddress attribute "Email" in subject
 * and issuerdn (OpenSSL: emailAddress), in the ASCII fast path and in the
 * libcrypto path of a non-ASCII value alike. */
TEST(tls_dn_email_address_is_email)
{
	static const unsigned char utf8[] = { 'x', 0xc3, 0xa9 };   /* "xé" */
	X509_NAME *n = X509_NAME_new();
	TlsCertInfo ci;
	unsigned char *der;
	int len;

	X509_NAME_add_entry_by_txt(n, "CN", MBSTRING_ASC, (const unsigned char *)"a", -1, -1, 0);
	X509_NAME_add_entry_by_txt(n, "emailAddress", MBSTRING_ASC,
				   (const unsigned char *)"x@y.z", -1, -1, 0);
	/* a plain ASN.1 type (not MBSTRING_*) is taken as it is: a UTF8String */
	X509_NAME_add_entry_by_txt(n, "emailAddress", V_ASN1_UTF8STRING, utf8, sizeof(utf8), -1, 0);
	der = sign_cert(n, 7, NULL, 0, &len);
	CHECK(der != NULL);
	CHECK_EQ(tls_cert_decode(der, (size_t)len, &ci), 0);
	CHECK_STREQ(ci.subject, "CN=a, Email=x@y.z, Email=x\xc3\xa9");
	tls_cert_info_free(&ci);
	OPENSSL_free(der);
}

/* tls.store: a postmatch keyword with no argument that makes the rule a
 * TLS one (the output side is e2e tls-store). */
TEST(tls_store_keyword_and_flags)
{
	char err[256];
	Signature *s = sig_parse("alert tls any any -> any any (tls.cert_subject; "
				 "content:\"x\"; tls.store; sid:1;)", NULL, err, sizeof(err), NULL);

	CHECK(s != NULL);
	if (s) {
		CHECK_EQ(s->alproto, ALPROTO_TLS);
		CHECK_EQ(s->lists[SM_LIST_POSTMATCH].n, 1);
		CHECK_EQ(s->lists[SM_LIST_POSTMATCH].m[0].kw, KW_TLS_STORE);
		sig_free(s);
	}
	CHECK(sig_parse("alert tls any any -> any any (tls.store:now; sid:2;)", NULL, err,
			sizeof(err), NULL) == NULL);
}

