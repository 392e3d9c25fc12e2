/* The BER walker (util/ber.h) and the asn1 keyword (detect/asn1-kw.c):
 * crafted BER for each check matching and not, offsets, truncated and
 * hostile input (the walker never reads past the buffer: ASan runs this),
 * the option parser, and the keyword through the engine on a packet. */
#include "test.h"

#include "util/ber.h"
#include "detect/asn1-kw.h"
#include "detect/detect-parse.h"
#include "detect/engine.h"
#include "detect/engine-int.h"
#include "detect-test-util.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#define S_(a) a, sizeof(a)

/* ---- the walker ---- */

typedef struct Seen {
	unsigned n;
	uint32_t tag[64];
	uint8_t depth[64], constructed[64];
	uint64_t len[64];
	uint32_t avail[64];
} Seen;

static int record(const BerElem *e, void *arg)
{
	Seen *s = arg;

	if (s->n < 64) {
		s->tag[s->n] = e->tag;
		s->depth[s->n] = e->depth;
		s->constructed[s->n] = e->constructed;
		s->len[s->n] = e->len;
		s->avail[s->n] = e->avail;
	}
	s->n++;
	return 0;
}

/* A heap copy of exactly len bytes, so ASan sees any read past it. */
static uint8_t *exact(const uint8_t *d, size_t len)
{
	uint8_t *p = malloc(len ? len : 1);

	if (p && len)   /* d may be NULL for an empty input */
		memcpy(p, d, len);
	return p;
}

static int walk(const uint8_t *d, size_t len, uint32_t max, Seen *s)
{
	uint8_t *p = exact(d, len);
	int rc;

	memset(s, 0, sizeof(*s));
	rc = ber_walk(p, (uint32_t)len, max, record, s);
	free(p);
	return rc;
}

TEST(ber_walks_nested_definite_elements_in_order)
{
	/* SEQUENCE { INTEGER 5, OCTET STRING "ab" }, then NULL */
	static const uint8_t d[] = { 0x30, 0x07, 0x02, 0x01, 0x05, 0x04, 0x02, 'a', 'b', 0x05, 0x00 };
	Seen s;

	CHECK_EQ(walk(d, sizeof(d), 30, &s), BER_END);
	CHECK_EQ(s.n, 4);
	CHECK_EQ(s.tag[0], 0x10);
	CHECK_EQ(s.constructed[0], 1);
	CHECK_EQ(s.len[0], 7);
	CHECK_EQ(s.tag[1], 2);
	CHECK_EQ(s.depth[1], 1);
	CHECK_EQ(s.tag[2], 4);
	CHECK_EQ(s.len[2], 2);
	CHECK_EQ(s.tag[3], 5);
	CHECK_EQ(s.depth[3], 0);
}

TEST(ber_long_form_length_and_high_tag)
{
	/* [APPLICATION 300] primitive (high-tag form), length 0x81 0x03 */
	static const uint8_t d[] = { 0x5f, 0x82, 0x2c, 0x81, 0x03, 1, 2, 3 };
	Seen s;

	CHECK_EQ(walk(d, sizeof(d), 30, &s), BER_END);
	CHECK_EQ(s.n, 1);
	CHECK_EQ(s.tag[0], 300);
	CHECK_EQ(s.len[0], 3);
	CHECK_EQ(s.avail[0], 3);
}

TEST(ber_indefinite_length_ends_at_eoc)
{
	/* SEQUENCE (indefinite) { INTEGER 1 } EOC, then INTEGER 2 */
	static const uint8_t d[] = { 0x30, 0x80, 0x02, 0x01, 0x01, 0x00, 0x00, 0x02, 0x01, 0x02 };
	Seen s;

	CHECK_EQ(walk(d, sizeof(d), 30, &s), BER_END);
	CHECK_EQ(s.n, 3);
	CHECK_EQ(s.depth[1], 1);
	CHECK_EQ(s.depth[2], 0);
}

TEST(ber_truncated_element_reported_with_what_is_there)
{
	/* OCTET STRING claiming 0x1000 bytes, 2 present */
	static const uint8_t d[] = { 0x04, 0x82, 0x10, 0x00, 'x', 'y' };
	Seen s;

	CHECK_EQ(walk(d, sizeof(d), 30, &s), BER_END);
	CHECK_EQ(s.n, 1);
	CHECK_EQ(s.len[0], 0x1000);
	CHECK_EQ(s.avail[0], 2);
}

TEST(ber_truncated_and_reserved_headers_are_malformed)
{
	static const uint8_t cut_len[] = { 0x04, 0x84, 0x00, 0x01 };  /* 4 length bytes, 2 there */
	static const uint8_t no_len[] = { 0x04 };
	static const uint8_t cut_tag[] = { 0x1f, 0x81 };              /* high tag never ends */
	static const uint8_t reserved[] = { 0x04, 0xff, 0x00 };
	static const uint8_t prim_indef[] = { 0x04, 0x80, 0x00, 0x00 };
	Seen s;

	CHECK_EQ(walk(cut_len, sizeof(cut_len), 30, &s), BER_MALFORMED);
	CHECK_EQ(walk(no_len, sizeof(no_len), 30, &s), BER_MALFORMED);
	CHECK_EQ(walk(cut_tag, sizeof(cut_tag), 30, &s), BER_MALFORMED);
	CHECK_EQ(walk(reserved, sizeof(reserved), 30, &s), BER_MALFORMED);
	CHECK_EQ(walk(prim_indef, sizeof(prim_indef), 30, &s), BER_MALFORMED);
	CHECK_EQ(s.n, 0);
	CHECK_EQ(walk(NULL, 0, 30, &s), BER_END);
}

TEST(ber_hostile_nesting_and_counts_are_bounded)
{
	uint8_t deep[200], many[400];
	Seen s;

	/* 100 nested indefinite SEQUENCEs: stops at BER_MAX_DEPTH */
	for (int i = 0; i < 100; i++) {
		deep[2 * i] = 0x30;
		deep[2 * i + 1] = 0x80;
	}
	CHECK_EQ(walk(deep, sizeof(deep), 1000, &s), BER_LIMIT);
	CHECK_EQ(s.n, BER_MAX_DEPTH + 1);
	/* 200 NULLs: max_elems of them */
	for (int i = 0; i < 200; i++) {
		many[2 * i] = 0x05;
		many[2 * i + 1] = 0x00;
	}
	CHECK_EQ(walk(many, sizeof(many), 30, &s), BER_LIMIT);
	CHECK_EQ(s.n, 30);
	/* a length past 64 bits saturates */
	{
		static const uint8_t huge[] = { 0x04, 0x89, 1, 2, 3, 4, 5, 6, 7, 8, 9 };

		CHECK_EQ(walk(huge, sizeof(huge), 30, &s), BER_END);
		CHECK(s.len[0] == UINT64_MAX);
		CHECK_EQ(s.avail[0], 0);
	}
}

TEST(ber_walker_never_reads_past_random_buffers)
{
	/* every prefix of pseudo-random bytes: ASan/valgrind catch an overread */
	uint32_t x = 12345;
	uint8_t buf[256];
	Seen s;

	for (int round = 0; round < 200; round++) {
		for (size_t i = 0; i < sizeof(buf); i++) {
			x = x * 1103515245u + 12345u;
			buf[i] = (uint8_t)(x >> 16);
			/* plenty of constructed and long-form headers */
			if (i % 3 == 0)
				buf[i] |= 0x20;
		}
		for (size_t len = 0; len <= 64; len++) {
			int rc = walk(buf, len, 30, &s);

			CHECK(rc == BER_END || rc == BER_MALFORMED || rc == BER_LIMIT);
			CHECK(s.n <= 30);
		}
	}
}

/* ---- the checks ---- */

static int m(const char *opts, const uint8_t *d, size_t len, uint32_t prev)
{
	static DetectContext ctx;
	char rule[512], err[256];
	int code, r = -1;
	Signature *sg;

	snprintf(rule, sizeof(rule), "alert tcp any any -> any any (asn1:%s; sid:1;)", opts);
	sg = sig_parse(rule, &ctx, err, sizeof(err), &code);
	if (!sg) {
		printf("  parse error: %s\n", err);
		return -1;
	}
	for (int i = 0; i < sg->lists[BUF_PAYLOAD].n; i++)
		if (sg->lists[BUF_PAYLOAD].m[i].kw == KW_ASN1) {
			uint8_t *p = exact(d, len);

			r = asn1_match(sg->lists[BUF_PAYLOAD].m[i].ctx, p, (uint32_t)len, prev);
			free(p);
		}
	sig_free(sg);
	return r;
}

TEST(asn1_oversize_length_matches_above_n_only)
{
	/* SEQUENCE of 0x0400 bytes claimed (truncated), with an INTEGER inside */
	static const uint8_t d[] = { 0x30, 0x82, 0x04, 0x00, 0x02, 0x01, 0x07 };

	CHECK_EQ(m("oversize_length 1023", S_(d), 0), 1);
	CHECK_EQ(m("oversize_length 1024", S_(d), 0), 0);
	/* the inner element is judged too */
	{
		static const uint8_t in[] = { 0x30, 0x06, 0x04, 0x82, 0x01, 0x00, 'a', 'b' };

		CHECK_EQ(m("oversize_length 200", S_(in), 0), 1);
		CHECK_EQ(m("oversize_length 256", S_(in), 0), 0);
	}
}

TEST(asn1_bitstring_overflow)
{
	static const uint8_t bad[] = { 0x03, 0x02, 0x08, 0xff };   /* 8 unused bits */
	static const uint8_t ok[] = { 0x03, 0x02, 0x07, 0x80 };
	/* the same octets under a context tag are not a BIT STRING */
	static const uint8_t ctx[] = { 0x83, 0x02, 0x08, 0xff };
	static const uint8_t nested[] = { 0x30, 0x04, 0x03, 0x02, 0x09, 0x00 };

	CHECK_EQ(m("bitstring_overflow", S_(bad), 0), 1);
	CHECK_EQ(m("bitstring_overflow", S_(ok), 0), 0);
	CHECK_EQ(m("bitstring_overflow", S_(ctx), 0), 0);
	CHECK_EQ(m("bitstring_overflow", S_(nested), 0), 1);
	CHECK_EQ(m("double_overflow", S_(bad), 0), 0);
}

TEST(asn1_double_overflow)
{
	uint8_t d[4 + 300];

	/* REAL, 300 bytes, decimal form (top bits 00) */
	d[0] = 0x09;
	d[1] = 0x82;
	d[2] = 0x01;
	d[3] = 0x2c;
	memset(d + 4, '1', 300);
	d[4] = 0x03;
	CHECK_EQ(m("double_overflow", d, sizeof(d), 0), 1);
	/* binary form (top bit 1): not the decimal overflow */
	d[4] = 0x80;
	CHECK_EQ(m("double_overflow", d, sizeof(d), 0), 0);
	/* decimal but 256 bytes: not over */
	d[4] = 0x03;
	d[3] = 0x00;
	CHECK_EQ(m("double_overflow", d, 4 + 256, 0), 0);
	d[3] = 0x01;
	CHECK_EQ(m("double_overflow", d, 4 + 257, 0), 1);
}

TEST(asn1_checks_are_ored)
{
	static const uint8_t bad[] = { 0x03, 0x02, 0x08, 0xff };

	CHECK_EQ(m("double_overflow, bitstring_overflow, oversize_length 2048", S_(bad), 0), 1);
	CHECK_EQ(m("double_overflow, oversize_length 2048", S_(bad), 0), 0);
}

TEST(asn1_offsets)
{
	/* junk, then a bad BIT STRING at 3 */
	static const uint8_t d[] = { 'x', 'y', 'z', 0x03, 0x02, 0x08, 0xff };

	CHECK_EQ(m("bitstring_overflow, absolute_offset 3", S_(d), 0), 1);
	CHECK_EQ(m("bitstring_overflow, absolute_offset 3", S_(d), 6), 1);
	CHECK_EQ(m("bitstring_overflow, absolute_offset 4", S_(d), 0), 0);
	/* relative: from prev, may step back */
	CHECK_EQ(m("bitstring_overflow, relative_offset 1", S_(d), 2), 1);
	CHECK_EQ(m("bitstring_overflow, relative_offset -1", S_(d), 4), 1);
	CHECK_EQ(m("bitstring_overflow, relative_offset -5", S_(d), 4), 0);
	/* no offset: where the previous match ended */
	CHECK_EQ(m("bitstring_overflow", S_(d), 3), 1);
	CHECK_EQ(m("bitstring_overflow", S_(d), 0), 0);
	/* past the end */
	CHECK_EQ(m("bitstring_overflow, absolute_offset 7", S_(d), 0), 0);
	CHECK_EQ(m("oversize_length 0, absolute_offset 65535", S_(d), 0), 0);
}

TEST(asn1_malformed_input_does_not_match_after_the_break)
{
	/* a good INTEGER, then a reserved length, then a bad BIT STRING:
	 * decoding stops at the break */
	static const uint8_t d[] = { 0x02, 0x01, 0x00, 0x04, 0xff, 0x03, 0x02, 0x08, 0xff };

	CHECK_EQ(m("bitstring_overflow", S_(d), 0), 0);
	CHECK_EQ(m("bitstring_overflow, absolute_offset 5", S_(d), 0), 1);
}

/* ---- the option parser ---- */

static int parse_err(const char *opts, char *err, size_t errlen)
{
	DetectContext ctx = { 0 };
	char rule[512];
	int code;
	Signature *sg;

	snprintf(rule, sizeof(rule), "alert tcp any any -> any any (asn1:%s; sid:1;)", opts);
	sg = sig_parse(rule, &ctx, err, errlen, &code);
	if (sg) {
		sig_free(sg);
		return 0;
	}
	return code;
}

TEST(asn1_option_errors)
{
	char err[256];

	CHECK_EQ(parse_err("bitstring_overflow,double_overflow,oversize_length 1,relative_offset -65535",
			   err, sizeof(err)), 0);
	CHECK_EQ(parse_err("  oversize_length   10000 , absolute_offset 0", err, sizeof(err)), 0);
	CHECK(parse_err("absolute_offset 0", err, sizeof(err)) != 0);
	CHECK(strstr(err, "no check"));
	CHECK(parse_err("oversize_length", err, sizeof(err)) != 0);
	CHECK(strstr(err, "oversize_length"));
	CHECK(parse_err("oversize_length x", err, sizeof(err)) != 0);
	CHECK(parse_err("oversize_length 4294967296", err, sizeof(err)) != 0);
	CHECK(parse_err("bitstring_overflow, absolute_offset -1", err, sizeof(err)) != 0);
	CHECK(parse_err("bitstring_overflow, absolute_offset 65536", err, sizeof(err)) != 0);
	CHECK(parse_err("bitstring_overflow, relative_offset -65536", err, sizeof(err)) != 0);
	CHECK(parse_err("bitstring_overflow, absolute_offset 1, relative_offset 1", err,
			sizeof(err)) != 0);
	CHECK(parse_err("bitstring_overflowx", err, sizeof(err)) != 0);
	CHECK(strstr(err, "unknown option"));
	CHECK(parse_err("bitstring_overflow 3", err, sizeof(err)) != 0);
}

/* ---- through the engine ---- */

static void mk_tcp(Packet *p, const uint8_t *payload, size_t len)
{
	test_tcp4(p, 0x0a000001, 0x0a000002, 88, payload, len);
}

static int hit(const char *rule, const uint8_t *payload, size_t len)
{
	Env e;
	Packet p;
	const DetectAlert *a;
	int r = 0;

	if (env_init_max(&e, rule, MPM_AC, 15) != 0)
		return -1;
	mk_tcp(&p, payload, len);
	for (uint32_t i = 0, n = detect_packet(e.dt, &p, &a); i < n; i++)
		if (a[i].s->sid == 1)
			r = 1;
	env_free(&e);
	return r;
}

TEST(asn1_after_content_in_a_rule)
{
	/* the Kerberos principal-name rule's shape: content "|01 A1|", then
	 * decode from the A1 (relative_offset -1) */
	static const char rule[] = "alert tcp any any -> any any (content:\"|01 A1|\"; "
				   "asn1:oversize_length 1024,relative_offset -1; sid:1;)";
	static const uint8_t big[] = { 'j', 0x00, 0x01, 0xa1, 0x82, 0x08, 0x00, 0x30, 0x00 };
	static const uint8_t small[] = { 'j', 0x00, 0x01, 0xa1, 0x82, 0x00, 0x10, 0x30, 0x00 };

	CHECK_EQ(hit(rule, S_(big)), 1);
	CHECK_EQ(hit(rule, S_(small)), 0);
}
