/* Sticky-buffer transforms, base64 decoding, bsize and the rule parser's
 * handling of transformed buffer instances. */
#include "test.h"

#include "detect/detect-parse.h"
#include "detect/engine.h"
#include "detect/transform.h"

#include <arpa/inet.h>
#include <zlib.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

static Signature *parse(const char *rule, char *err, size_t errlen, int *code)
{
	return sig_parse(rule, NULL, err, errlen, code);
}

/* Runs the transforms of list l of rule on in; the result as a C string. */
static const char *xform(const char *rule, int l, const char *in)
{
	static char out[512];
	char err[256] = "";
	Signature *s = parse(rule, err, sizeof(err), NULL);
	XformScratch *xs = xform_scratch_new();
	const uint8_t *o;
	uint32_t n;

	if (!s || !xs) {
		fprintf(stderr, "parse: %s\n", err);
		xform_scratch_free(xs);
		sig_free(s);
		return NULL;
	}
	if (transform_apply(sig_list_chain(s, l), xs, (const uint8_t *)in, (uint32_t)strlen(in),
			    &o, &n) != 0 || n >= sizeof(out)) {
		n = 0;
		o = (const uint8_t *)"";
	}
	memcpy(out, o, n);
	out[n] = '\0';
	xform_scratch_free(xs);
	sig_free(s);
	return out;
}

#define R(opts) "alert http any any -> any any (http.uri; " opts " content:\"x\"; sid:1;)"

TEST(transform_case_and_whitespace)
{
	CHECK_STREQ(xform(R("to_lowercase;"), BUF_HTTP_URI, "AbC/D"), "abc/d");
	CHECK_STREQ(xform(R("to_uppercase;"), BUF_HTTP_URI, "AbC/d"), "ABC/D");
	CHECK_STREQ(xform(R("strip_whitespace;"), BUF_HTTP_URI, " a b\t\r\nc "), "abc");
	/* a run keeps its first byte */
	CHECK_STREQ(xform(R("compress_whitespace;"), BUF_HTTP_URI, "a \t b\t\tc"), "a b\tc");
	CHECK_STREQ(xform(R("dotprefix;"), BUF_HTTP_URI, "example.com"), ".example.com");
}

TEST(transform_url_decode_and_chain_order)
{
	CHECK_STREQ(xform(R("url_decode;"), BUF_HTTP_URI, "/a%27b+c%2"), "/a'b c%2");
	CHECK_STREQ(xform(R("url_decode;"), BUF_HTTP_URI, "%zz%41"), "%zzA");
	/* chains run in rule order */
	CHECK_STREQ(xform(R("url_decode; to_uppercase;"), BUF_HTTP_URI, "%61b"), "AB");
	CHECK_STREQ(xform(R("to_uppercase; url_decode;"), BUF_HTTP_URI, "%6a"), "j");
}

TEST(transform_xor_pcrexform_headers)
{
	CHECK_STREQ(xform(R("xor:\"0101\";"), BUF_HTTP_URI, "`c`c"), "abab");
	CHECK_STREQ(xform(R("pcrexform:\"[a-z]+ (\\S+) HTTP\";"), BUF_HTTP_URI, "get /x.jpg HTTP/1.1"),
		    "/x.jpg");
	/* no match: the buffer stays */
	CHECK_STREQ(xform(R("pcrexform:\"z(q)\";"), BUF_HTTP_URI, "abc"), "abc");
	CHECK_STREQ(xform(R("header_lowercase;"), BUF_HTTP_URI, "Host: A\r\n:Path: B\r\n"),
		    "host: A\r\n:path: B\r\n");
	CHECK_STREQ(xform(R("strip_pseudo_headers;"), BUF_HTTP_URI, ":path: /\r\nA: b\r\n"),
		    "A: b\r\n");
}

TEST(transform_from_base64_options_and_modes)
{
	CHECK_STREQ(xform(R("from_base64: offset 6;"), BUF_HTTP_URI, "/?arg=dGhpc2lzYXRlc3QK"),
		    "thisisatest\n");
	/* a trailing partial group still yields its bytes */
	CHECK_STREQ(xform(R("from_base64: bytes 6, offset 6;"), BUF_HTTP_URI,
			  "/?arg=dGhpc2lzYXRlc3QK"), "this");
	CHECK_STREQ(xform(R("from_base64: offset 6, mode rfc2045;"), BUF_HTTP_URI,
			  "/?arg=Zm 9v Ym Fy"), "foobar");
	CHECK_STREQ(xform(R("from_base64: offset 6, mode rfc4648;"), BUF_HTTP_URI,
			  "/?arg=Zm 9v Ym Fy"), "f");
	/* strict fails: the buffer is left as it was */
	CHECK_STREQ(xform(R("from_base64: offset 6, mode strict;"), BUF_HTTP_URI,
			  "/?arg=Zm 9v"), "/?arg=Zm 9v");
	CHECK_STREQ(xform(R("from_base64: offset 60;"), BUF_HTTP_URI, "abcd"), "abcd");
}

TEST(base64_decode_step_relative_offset_bytes)
{
	XformScratch *xs = xform_scratch_new();
	const char *d = "API=Zm9vYmFy";
	DetectBase64 bd = { .relative = 1 };

	CHECK(xs != NULL);
	CHECK(base64_decode_step(xs, &bd, (const uint8_t *)d, (uint32_t)strlen(d), 4));
	CHECK_EQ(xs->b64_len, 6);
	CHECK(memcmp(xs->b64, "foobar", 6) == 0);
	bd = (DetectBase64){ .bytes = 4, .offset = 4 };
	CHECK(base64_decode_step(xs, &bd, (const uint8_t *)d, (uint32_t)strlen(d), 0));
	CHECK_EQ(xs->b64_len, 3);
	bd = (DetectBase64){ .offset = 40 };
	CHECK(!base64_decode_step(xs, &bd, (const uint8_t *)d, (uint32_t)strlen(d), 0));
	xform_scratch_free(xs);
}

TEST(transform_after_content_makes_a_second_instance)
{
	char err[256];
	Signature *s = parse("alert http any any -> any any (http.uri; content:\"/?arg=\"; "
			     "from_base64: offset 6; content:\"this\"; sid:1;)", err, sizeof(err), NULL);

	CHECK(s != NULL);
	CHECK_EQ(s->lists[BUF_HTTP_URI].n, 1);
	CHECK(sig_list_chain(s, BUF_HTTP_URI) == NULL);
	CHECK_EQ(s->lists[BUF_HTTP_XINST0].n, 1);
	CHECK_EQ(sig_list_base(s, BUF_HTTP_XINST0), BUF_HTTP_URI);
	CHECK(sig_list_chain(s, BUF_HTTP_XINST0) != NULL);
	sig_free(s);
	/* a sticky buffer selected again starts untransformed */
	s = parse("alert http any any -> any any (http.uri; to_lowercase; content:\"a\"; "
		  "http.method; content:\"GET\"; http.uri; content:\"B\"; sid:1;)", err, sizeof(err), NULL);
	CHECK(s != NULL);
	CHECK(sig_list_chain(s, BUF_HTTP_URI) != NULL);
	CHECK_EQ(s->lists[BUF_HTTP_XINST0].n, 1);
	CHECK(sig_list_chain(s, BUF_HTTP_XINST0) == NULL);
	sig_free(s);
}

TEST(transform_needs_a_sticky_buffer)
{
	char err[256];
	int code;
	Signature *s = parse("alert http any any -> any any (content:\"a\"; to_lowercase; sid:1;)",
			     err, sizeof(err), &code);

	CHECK(s == NULL);
	CHECK(strstr(err, "sticky") != NULL);
	s = parse("alert http any any -> any any (http.uri; xor:\"0g\"; content:\"a\"; sid:1;)",
		  err, sizeof(err), &code);
	CHECK(s == NULL);
	CHECK_EQ(code, SIG_ERR_PARSE);
}

TEST(bsize_parses_suricata_forms)
{
	char err[256];
	const char *ok[] = { "bsize:10;", "bsize:<10;", "bsize:>=3;", "bsize:10<>100;",
			     "bsize:!5;", "bsize:5-9;", NULL };

	for (int i = 0; ok[i]; i++) {
		char rule[256];
		Signature *s;

		snprintf(rule, sizeof(rule), "alert http any any -> any any (http.uri; %s sid:1;)", ok[i]);
		s = parse(rule, err, sizeof(err), NULL);
		CHECK(s != NULL);
		CHECK_EQ(s->lists[BUF_HTTP_URI].n, 1);
		CHECK_EQ(s->lists[BUF_HTTP_URI].m[0].kw, KW_BSIZE);
		sig_free(s);
	}
	CHECK(parse("alert http any any -> any any (bsize:10; sid:1;)", err, sizeof(err), NULL) == NULL);
	CHECK(parse("alert http any any -> any any (http.uri; bsize:x; sid:1;)", err, sizeof(err),
		    NULL) == NULL);
}

/* bsize on a packet header buffer, through the engine */
static int tcp_hdr_alerts(const char *rules, uint32_t sid)
{
	RuleLoadConfig rc = { .quiet = 1 };
	DetectConfig dc = { .algo = MPM_AC, .alert_max = 15 };
	char err[512] = "";
	SigTable *t = sig_table_new();
	DetectEngine *de;
	DetectThread *dt;
	ThreadCounters *tc;
	static uint8_t l4[20];
	const DetectAlert *a;
	Packet p;
	uint32_t n;
	int hit = 0;

	detect_register_counters();
	if (sig_load_string(t, rules, "t.rules", &rc, err, sizeof(err)) != 0)
		return -1;
	de = detect_engine_build(t, &dc, err, sizeof(err));
	if (!de)
		return -1;
	tc = thread_counters_new();
	dt = detect_thread_new(de, tc);
	memset(&p, 0, sizeof(p));
	p.ip_version = 4;
	p.proto = IPPROTO_TCP;
	p.src.family = p.dst.family = AF_INET;
	p.src.a.u32[0] = htonl(0x0a000001);
	p.dst.a.u32[0] = htonl(0x0a000002);
	p.sp = 40000;
	p.dp = 80;
	p.l4 = l4;
	p.l4_hlen = 20;
	p.tcp_flags = 0x02;
	p.pcap_cnt = 1;
	n = detect_packet(dt, &p, &a);
	for (uint32_t i = 0; i < n; i++)
		if (a[i].s->sid == sid)
			hit = 1;
	detect_thread_free(dt);
	detect_engine_free(de);
	sig_table_free(t);
	return hit;
}

TEST(bsize_compares_the_buffer_length)
{
	CHECK_EQ(tcp_hdr_alerts("alert tcp any any -> any any (tcp.hdr; bsize:20; sid:1;)", 1), 1);
	CHECK_EQ(tcp_hdr_alerts("alert tcp any any -> any any (tcp.hdr; bsize:>20; sid:1;)", 1), 0);
	CHECK_EQ(tcp_hdr_alerts("alert tcp any any -> any any (tcp.hdr; bsize:19<>21; sid:1;)", 1), 1);
	CHECK_EQ(tcp_hdr_alerts("alert tcp any any -> any any (tcp.hdr; bsize:!20; sid:1;)", 1), 0);
}

/* As xform(), for binary input and output: the output's length, or -1. */
static int xform_n(const char *rule, int l, const uint8_t *in, uint32_t len, uint8_t *out,
		   uint32_t cap)
{
	char err[256] = "";
	Signature *s = parse(rule, err, sizeof(err), NULL);
	XformScratch *xs = xform_scratch_new();
	const uint8_t *o;
	uint32_t n;
	int r = -1;

	if (s && xs && transform_apply(sig_list_chain(s, l), xs, in, len, &o, &n) == 0 &&
	    n <= cap) {
		memcpy(out, o, n);
		r = (int)n;
	} else if (!s) {
		fprintf(stderr, "parse: %s\n", err);
	}
	xform_scratch_free(xs);
	sig_free(s);
	return r;
}

static void hex(const uint8_t *b, int n, char *out)
{
	for (int i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	out[2 * (n > 0 ? n : 0)] = 0;
}

/* The digest replaces the buffer, even one shorter than the digest. */
TEST(transform_digests)
{
	uint8_t out[64];
	char h[129];
	int n;

	n = xform_n(R("to_md5;"), BUF_HTTP_URI, (const uint8_t *)"abc", 3, out, sizeof(out));
	CHECK_EQ(n, 16);
	hex(out, n, h);
	CHECK_STREQ(h, "900150983cd24fb0d6963f7d28e17f72");
	n = xform_n(R("to_sha1;"), BUF_HTTP_URI, (const uint8_t *)"abc", 3, out, sizeof(out));
	CHECK_EQ(n, 20);
	hex(out, n, h);
	CHECK_STREQ(h, "a9993e364706816aba3e25717850c26c9cd0d89d");
	n = xform_n(R("to_lowercase; to_sha256;"), BUF_HTTP_URI, (const uint8_t *)"ABC", 3, out,
		    sizeof(out));
	CHECK_EQ(n, 32);
	hex(out, n, h);
	CHECK_STREQ(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

/* gunzip takes a gzip member, zlib_deflate a zlib stream; max-size caps the
 * output (default 1024); a damaged input yields what came before. */
TEST(transform_gunzip_and_zlib_deflate)
{
	static const char text[] = "This is compressed then base64-encoded\n";
	uint8_t big[4096], gz[256], zl[256], out[2048];
	uLongf zn = sizeof(zl);
	z_stream z;
	uint32_t gn;
	int n;

	memset(&z, 0, sizeof(z));
	CHECK_EQ(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (Bytef *)text;
	z.avail_in = sizeof(text) - 1;
	z.next_out = gz;
	z.avail_out = sizeof(gz);
	CHECK_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
	gn = (uint32_t)(sizeof(gz) - z.avail_out);
	deflateEnd(&z);
	CHECK_EQ(compress(zl, &zn, (const Bytef *)text, sizeof(text) - 1), Z_OK);

	n = xform_n(R("gunzip;"), BUF_HTTP_URI, gz, gn, out, sizeof(out));
	CHECK_EQ(n, (int)sizeof(text) - 1);
	CHECK(memcmp(out, text, sizeof(text) - 1) == 0);
	n = xform_n(R("gunzip: max-size 8;"), BUF_HTTP_URI, gz, gn, out, sizeof(out));
	CHECK_EQ(n, 8);
	CHECK(memcmp(out, "This is ", 8) == 0);
	n = xform_n(R("zlib_deflate;"), BUF_HTTP_URI, zl, (uint32_t)zn, out, sizeof(out));
	CHECK_EQ(n, (int)sizeof(text) - 1);
	/* the other format is no data of this one */
	CHECK_EQ(xform_n(R("zlib_deflate;"), BUF_HTTP_URI, gz, gn, out, sizeof(out)), 0);
	/* cut in the middle: the bytes before the cut */
	n = xform_n(R("gunzip;"), BUF_HTTP_URI, gz, gn / 2, out, sizeof(out));
	CHECK(n > 0 && n < (int)sizeof(text) - 1);
	CHECK(memcmp(out, text, (size_t)n) == 0);
	/* the default cap: 1024 of 4096 */
	memset(big, 'a', sizeof(big));
	zn = sizeof(zl);
	CHECK_EQ(compress(zl, &zn, big, sizeof(big)), Z_OK);
	CHECK_EQ(xform_n(R("zlib_deflate;"), BUF_HTTP_URI, zl, (uint32_t)zn, out, sizeof(out)),
		 1024);
	CHECK_EQ(xform_n(R("zlib_deflate: max-size 2kb;"), BUF_HTTP_URI, zl, (uint32_t)zn, out,
			 sizeof(out)), 2048);
}

TEST(transform_inflate_options)
{
	char err[256];

	CHECK(parse(R("gunzip: max-size 0;"), err, sizeof(err), NULL) == NULL);
	CHECK(strstr(err, "max-size") != NULL);
	CHECK(parse(R("gunzip: size 8;"), err, sizeof(err), NULL) == NULL);
	CHECK(parse(R("zlib_deflate: max-size 17mb;"), err, sizeof(err), NULL) == NULL);
	CHECK(parse(R("zlib_deflate: max-size 8x;"), err, sizeof(err), NULL) == NULL);
}

/* domain: the registrable domain; tld: the public suffix (libpsl). */
TEST(transform_domain_and_tld)
{
	char err[256];
	Signature *s = parse(R("domain;"), err, sizeof(err), NULL);

	if (!s) {
		/* a build without libpsl skips such rules with a reason */
		CHECK(strstr(err, "libpsl") != NULL);
		return;
	}
	sig_free(s);
	CHECK_STREQ(xform(R("domain;"), BUF_HTTP_URI, "www.bbc.co.uk"), "bbc.co.uk");
	CHECK_STREQ(xform(R("tld;"), BUF_HTTP_URI, "www.bbc.co.uk"), "co.uk");
	CHECK_STREQ(xform(R("domain;"), BUF_HTTP_URI, "suricata.io"), "suricata.io");
	CHECK_STREQ(xform(R("tld;"), BUF_HTTP_URI, "suricata.io"), "io");
	/* the input's own bytes, case and all */
	CHECK_STREQ(xform(R("domain;"), BUF_HTTP_URI, "Mail.Example.COM"), "Example.COM");
	/* no registrable part of a bare suffix */
	CHECK_STREQ(xform(R("domain;"), BUF_HTTP_URI, "co.uk"), "");
}
