/* DNS: the parser (app-layer/dns-parse.h), TCP framing, transactions, the
 * eve v3 objects (output/dns-json.h) and the keyword helpers
 * (detect/dns-kw-match.h).
 *
 * Real messages are the payloads of suricata-verify pcaps (tests named in
 * each constant), and the eve checks are those tests' expectations, field
 * by field. */
#include "config.h"
#include "test.h"

#include <jansson.h>
#include <stdlib.h>

#include "app-layer/dns-parse.h"
#include "detect/dns-kw-match.h"
#include "output/dns-json.h"
#include "output/json-writer.h"

/* ---------------------------------------------------------------------
 * Payloads from suricata-verify pcaps (UDP payloads; TCP with the length) */

/* cond-log-dns-dig (dns-udp-eve-dig, dns-query-name): dig www.suricata-ids.org */
static const char DIG_REQ[] =
	"8d3201200001000000000001037777770c73757269636174612d696473036f726700"
	"000100010000291000000000000000";
static const char DIG_RESP[] =
	"8d3281a00001000300000000037777770c73757269636174612d696473036f726700"
	"00010001c00c0005000100000dd800120c73757269636174612d696473036f726700"
	"c03200010001000000f40004c0004e18c03200010001000000f40004c0004e19";
/* dns-udp-eve-txt */
static const char TXT_REQ[] =
	"6e530120000100000000000106676f6f676c6503636f6d00001000010000291000000000000000";
static const char TXT_RESP[] =
	"6e538180000100010000000106676f6f676c6503636f6d0000100001c00c00100001"
	"00000c91002423763d7370663120696e636c7564653a5f7370662e676f6f676c652e"
	"636f6d207e616c6c0000291000000000000000";
static const char TXT_A_RESP[] =
	"99cc8180000100010000000015746578747365637572652d736572766963652d6361"
	"0e7768697370657273797374656d73036f72670000010001c00c0001000100000005"
	"000422c5b2f0";
/* dns-sshfp */
static const char SSHFP_RESP[] =
	"0bcd8380000100020000000107616e6f6e637673066e6574627364036f726700002c"
	"0001c00c002c00010001518000160101198c34a92fc0b2ab1da52b688c2f191d2d96"
	"0c09c00c002c000100015180001603017a667d57b6d5f559f136fa95376050814529"
	"30ef00002904d0000000000000";
/* dns-udp-eve-log-srv */
static const char SRV_RESP[] =
	"eb5681800001000200000001045f736970045f7564700373697005766f6963650667"
	"6f6f676c6503636f6d0000210001c00c002100010000011300260014000113c40d73"
	"69702d616e79636173742d3205766f69636506676f6f676c6503636f6d00c00c0021"
	"0001000001130026000a000113c40d7369702d616e79636173742d3105766f696365"
	"06676f6f676c6503636f6d000000291000000000000000";
/* dns-corrupt-additionals: the same answer, its OPT rdlength 0x0102 */
static const char SRV_CORRUPT_ADD[] =
	"eb5681800001000200000001045f736970045f7564700373697005766f6963650667"
	"6f6f676c6503636f6d0000210001c00c002100010000011300260014000113c40d73"
	"69702d616e79636173742d3205766f69636506676f6f676c6503636f6d00c00c0021"
	"0001000001130026000a000113c40d7369702d616e79636173742d3105766f696365"
	"06676f6f676c6503636f6d000000291000000000000102";
/* dns-eve-v2-udp-nxdomain-soa (dns-udp-nxdomain-soa, dns-response-rrname-sticky-buffer) */
static const char NX_REQ[] =
	"82950120000100000000000103646e65046f697366036e65740000010001000029100000"
	"000000000c000a0008a4f5228c58c6180a";
static const char NX_RESP[] =
	"82958183000100000001000103646e65046f697366036e65740000010001c0100006"
	"0001000003830045066e732d31313009617773646e732d313303636f6d0011617773"
	"646e732d686f73746d617374657206616d617a6f6ec03b0000000100001c20000003"
	"8400127500000151800000290200000000000000";
/* dns-rcode: NX_REQ with rcode 3 edited into the query */
static const char RCODE_REQ[] =
	"82950123000100000000000103646e65046f697366036e65740000010001000029100000"
	"000000000c000a0008a4f5228c58c6180a";
/* dns-udp-null */
static const char NULL_RESP[] =
	"12b0840000010001000000000b76616161616b6172646c6906706972617465037365"
	"6100000a0001c00c000a00010000000000095641434b4403c5e901";
/* dns-forward-pointer: query 0's name points forward to query 1's */
static const char FWD_REQ[] =
	"8e0401000002000000000000c012000100010a636f64656d6f6e6b6579036e657400"
	"00010001";
static const char FWD_RESP[] =
	"8e04818000010001000000000a636f64656d6f6e6b6579036e65740000010001c00c"
	"000100010000012c0004983552ef";
/* dns-invalid-opcode */
static const char OPC_REQ[] = "00014900000100000000000008737572696361746102696f0000010001";
static const char OPC_RESP[] =
	"0001c800000100010000000008737572696361746102696f00000100010873757269"
	"6361746102696f00000100010000000000047f000001";
/* dns-udp-google.com-a-aaaa-mx (dns-udp-eve-log-aaaa-only, -mx-only, dns-response-mx) */
static const char GA_REQ[] =
	"1a2d0120000100000000000106676f6f676c6503636f6d00000100010000291000000000000000";
static const char GAAAA_REQ[] =
	"8d700120000100000000000106676f6f676c6503636f6d00001c00010000291000000000000000";
static const char GAAAA_RESP[] =
	"8d708180000100010000000106676f6f676c6503636f6d00001c0001c00c001c0001"
	"0000012b00102607f8b0400f0801000000000000200e0000290200000000000000";
static const char GMX_RESP[] =
	"56168180000100050000000106676f6f676c6503636f6d00000f0001c00c000f0001"
	"00000257000c000a056173706d78016cc00cc00c000f0001000002570009001404616c"
	"7431c02ac00c000f0001000002570009001e04616c7432c02ac00c000f0001000002"
	"570009002804616c7433c02ac00c000f0001000002570009003204616c7434c02a00"
	"00290200000000000000";
/* dns-answer-emptydata: an UPDATE with empty rdata (TCP, length included) */
static const char UPD_TCP[] =
	"00944fd228000001000000010001026164046e77726103636f6d0000060001056f74"
	"746572c00c00ff00ff0000000000000a323433313435333438300c7369672d61642d"
	"626c643031026164046e77726103636f6d0000fa00ff000000000036086773732d74"
	"73696700000067c61a92012c001c040404ffffffffff000000002369bff558c28824"
	"be2e1b6889f5c6354fd200000000";
/* dns-tcp-www-google-com: one query, one answer, each a TCP segment */
static const char GOOG_TCP_REQ[] =
	"00375f78012000010000000000010377777706676f6f676c6503636f6d0000010001"
	"000029100000000000000c000a00085a760730fb2b37d5";
static const char GOOG_TCP_RESP[] =
	"00eb5f7881800001000c000000010377777706676f6f676c6503636f6d0000010001"
	"c00c00010001000000080004d8c5f2f4c00c00010001000000080004d8c5f2e0c00c"
	"00010001000000080004d8c5f2eec00c00010001000000080004d8c5f2d2c00c0001"
	"0001000000080004d8c5f2e6c00c00010001000000080004d8c5f2dfc00c00010001"
	"000000080004d8c5f2f5c00c00010001000000080004d8c5f2e7c00c000100010000"
	"00080004d8c5f2fbc00c00010001000000080004d8c5f2edc00c0001000100000008"
	"0004d8c5f2d9c00c00010001000000080004d8c5f2d80000290200000000000000";
/* task-7018-ids-dns-keywords: three exchanges on one TCP flow, all id 0 */
static const char *const T7018[6] = {
	"001d00000100000100000000000008737572696361746102696f0000010001",
	"002d00008180000100010000000008737572696361746102696f0000010001c00c"
	"00010001000001ea000423d4002c",
	"001a000001000001000000000000046f697366036e65740000010001",
	"003a000081800001000200000000046f697366036e65740000010001c00c00010001"
	"000000cf0004c0004ebec00c00010001000000cf0004c0004ed1",
	"001e000001000001000000000000087375726963617461036f72670000010001",
	"003e000081800001000200000000087375726963617461036f72670000010001c00c"
	"000100010000025800040fc59421c00c00010001000002580004032182be",
};

/* ---------------------------------------------------------------------
 * Helpers */

struct bytes {
	uint8_t b[70000];
	size_t n;
};

static size_t unhex(const char *h, uint8_t *out)
{
	size_t n = 0;

	for (; h[0] && h[1]; h += 2) {
		unsigned v;

		sscanf(h, "%2x", &v);
		out[n++] = (uint8_t)v;
	}
	return n;
}

static struct bytes *hx(const char *h)
{
	static struct bytes slots[4];
	static int next;
	struct bytes *b = &slots[next++ & 3];

	b->n = unhex(h, b->b);
	return b;
}

static struct dns_msg *parse_hex(const char *h, enum dns_dir dir, int *rc)
{
	struct bytes *b = hx(h);
	struct dns_msg *m = NULL;
	int r = dns_msg_parse(b->b, b->n, dir, &m);

	if (rc)
		*rc = r;
	return m;
}

/* Compact, in insertion order: what eve writes. Caller frees. */
static char *dump(const json_t *j)
{
	return j ? json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY)
		 : NULL;
}

static json_t *eve(const char *h, enum dns_dir dir, uint64_t tx_id)
{
	struct dns_msg *m = parse_hex(h, dir, NULL);
	json_t *j = dns_json_message(m, dir, tx_id, NULL);

	dns_msg_free(m);
	return j;
}

/* A message writer for hand-made cases. */
struct w {
	uint8_t b[70000];
	size_t n;
};

static void w8(struct w *w, unsigned v)
{
	w->b[w->n++] = (uint8_t)v;
}

static void w16(struct w *w, unsigned v)
{
	w8(w, v >> 8);
	w8(w, v & 0xff);
}

static void w32(struct w *w, uint32_t v)
{
	w16(w, v >> 16);
	w16(w, v & 0xffff);
}

static void wraw(struct w *w, const void *p, size_t n)
{
	memcpy(w->b + w->n, p, n);
	w->n += n;
}

/* "a.b.c" as labels plus the root */
static void wname(struct w *w, const char *s)
{
	while (*s) {
		const char *dot = strchr(s, '.');
		size_t n = dot ? (size_t)(dot - s) : strlen(s);

		w8(w, (unsigned)n);
		wraw(w, s, n);
		s += n;
		if (*s == '.')
			s++;
	}
	w8(w, 0);
}

static void whdr(struct w *w, unsigned id, unsigned flags, unsigned qd, unsigned an,
		 unsigned ns, unsigned ar)
{
	w->n = 0;
	w16(w, id);
	w16(w, flags);
	w16(w, qd);
	w16(w, an);
	w16(w, ns);
	w16(w, ar);
}

/* rr header up to rdlength; returns the offset of rdlength to patch */
static size_t wrr(struct w *w, const char *name, unsigned type, uint32_t ttl)
{
	wname(w, name);
	w16(w, type);
	w16(w, 1);
	w32(w, ttl);
	w16(w, 0);
	return w->n - 2;
}

static void wrdlen(struct w *w, size_t at)
{
	size_t len = w->n - at - 2;

	w->b[at] = (uint8_t)(len >> 8);
	w->b[at + 1] = (uint8_t)len;
}

static struct dns_msg *parse_w(struct w *w, enum dns_dir dir, int *rc)
{
	struct dns_msg *m = NULL;
	int r = dns_msg_parse(w->b, w->n, dir, &m);

	if (rc)
		*rc = r;
	return m;
}

static bool name_is(const struct dns_name *n, const char *s)
{
	return n->s.len == strlen(s) && memcmp(n->s.ptr, s, n->s.len) == 0;
}

/* ---------------------------------------------------------------------
 * Parser: header, flags, events */

TEST(dns_header_and_flags_decoded)
{
	int rc;
	struct dns_msg *m = parse_hex(DIG_RESP, DNS_DIR_TOCLIENT, &rc);

	CHECK_EQ(rc, DNS_OK);
	CHECK(m->complete);
	CHECK_EQ(m->id, 36146);
	CHECK_EQ(m->flags, 0x81a0);
	CHECK(m->qr && m->rd && m->ra && m->ad);
	CHECK(!m->aa && !m->tc && !m->z && !m->cd);
	CHECK_EQ(m->opcode, 0);
	CHECK_EQ(m->rcode, 0);
	CHECK_EQ(m->nqueries, 1);
	CHECK(name_is(&m->queries[0].name, "www.suricata-ids.org"));
	CHECK_EQ(m->queries[0].rrtype, 1);
	CHECK_EQ(m->queries[0].rrclass, 1);
	CHECK_EQ(m->nrrs[DNS_SEC_ANSWER], 3);
	CHECK_EQ(m->events, 0);
	dns_msg_free(m);
}

TEST(dns_short_message_is_malformed)
{
	uint8_t b[11] = { 0 };

	for (size_t n = 0; n < sizeof(b); n++) {
		struct dns_msg *m = NULL;

		CHECK_EQ(dns_msg_parse(b, n, DNS_DIR_TOSERVER, &m), DNS_E_SHORT);
		CHECK(m != NULL);
		CHECK(dns_msg_has_event(m, DNS_EV_MALFORMED_DATA));
		dns_msg_free(m);
	}
}

TEST(dns_qr_direction_events)
{
	struct dns_msg *m = parse_hex(DIG_RESP, DNS_DIR_TOSERVER, NULL);

	CHECK(dns_msg_has_event(m, DNS_EV_NOT_A_REQUEST));
	CHECK(!dns_msg_has_event(m, DNS_EV_NOT_A_RESPONSE));
	dns_msg_free(m);
	m = parse_hex(DIG_REQ, DNS_DIR_TOCLIENT, NULL);
	CHECK(dns_msg_has_event(m, DNS_EV_NOT_A_RESPONSE));
	dns_msg_free(m);
	m = parse_hex(DIG_REQ, DNS_DIR_TOSERVER, NULL);
	CHECK_EQ(m->events, 0);
	dns_msg_free(m);
}

TEST(dns_z_flag_set_but_not_for_ad_cd)
{
	struct w w;
	struct dns_msg *m;

	/* issue 856 (dns-udp-z-flag-fp): AD and CD are not Z */
	whdr(&w, 1, 0x0130, 1, 0, 0, 0);
	wname(&w, "a.example");
	w16(&w, 1);
	w16(&w, 1);
	m = parse_w(&w, DNS_DIR_TOSERVER, NULL);
	CHECK(m->ad && m->cd && !m->z);
	CHECK(!dns_msg_has_event(m, DNS_EV_Z_FLAG_SET));
	dns_msg_free(m);
	w.b[3] |= 0x40;
	m = parse_w(&w, DNS_DIR_TOSERVER, NULL);
	CHECK(m->z);
	CHECK(dns_msg_has_event(m, DNS_EV_Z_FLAG_SET));
	dns_msg_free(m);
}

TEST(dns_invalid_opcode_event_suricata_verify)
{
	/* dns-invalid-opcode: opcode 9 in both directions, still parsed */
	int rc;
	struct dns_msg *m = parse_hex(OPC_REQ, DNS_DIR_TOSERVER, &rc);

	CHECK_EQ(rc, DNS_OK);
	CHECK_EQ(m->opcode, 9);
	CHECK(dns_msg_has_event(m, DNS_EV_INVALID_OPCODE));
	CHECK(name_is(&m->queries[0].name, "suricata.io"));
	dns_msg_free(m);
	m = parse_hex(OPC_RESP, DNS_DIR_TOCLIENT, &rc);
	CHECK_EQ(rc, DNS_OK);
	CHECK(dns_msg_has_event(m, DNS_EV_INVALID_OPCODE));
	CHECK_EQ(m->nrrs[DNS_SEC_ANSWER], 1);
	CHECK_EQ(m->rrs[DNS_SEC_ANSWER][0].kind, DNS_RD_A);
	dns_msg_free(m);
	/* assigned opcodes raise nothing */
	for (unsigned op = 0; op < 16; op++) {
		struct w w;

		whdr(&w, 1, op << 11, 0, 0, 0, 0);
		m = parse_w(&w, DNS_DIR_TOSERVER, NULL);
		CHECK_EQ(dns_msg_has_event(m, DNS_EV_INVALID_OPCODE),
			 op == 3 || op >= 7);
		dns_msg_free(m);
	}
}

TEST(dns_update_with_empty_rdata_is_not_malformed)
{
	/* dns-answer-emptydata: no malformed_data alert either way */
	struct bytes *b = hx(UPD_TCP);
	struct dns_msg *m = NULL;

	CHECK_EQ(dns_msg_parse(b->b + 2, b->n - 2, DNS_DIR_TOSERVER, &m), DNS_OK);
	CHECK(!dns_msg_has_event(m, DNS_EV_MALFORMED_DATA));
	CHECK_EQ(m->opcode, 5);
	CHECK_EQ(m->nrrs[DNS_SEC_AUTHORITY], 1);
	CHECK_EQ(m->rrs[DNS_SEC_AUTHORITY][0].raw.len, 0);
	CHECK_EQ(m->nrrs[DNS_SEC_ADDITIONAL], 1);
	CHECK_EQ(m->rrs[DNS_SEC_ADDITIONAL][0].rrtype, 250);
	dns_msg_free(m);
}

TEST(dns_event_names_round_trip)
{
	CHECK_STREQ(dns_event_name(DNS_EV_MALFORMED_DATA), "malformed_data");
	CHECK_STREQ(dns_event_name(DNS_EV_NOT_A_REQUEST), "not_a_request");
	CHECK_STREQ(dns_event_name(DNS_EV_NOT_A_RESPONSE), "not_a_response");
	CHECK_STREQ(dns_event_name(DNS_EV_Z_FLAG_SET), "z_flag_set");
	CHECK_STREQ(dns_event_name(DNS_EV_INVALID_OPCODE), "invalid_opcode");
	CHECK_STREQ(dns_event_name(DNS_EV_INVALID_ADDITIONALS), "invalid_additionals");
	CHECK_STREQ(dns_event_name(DNS_EV_INVALID_AUTHORITIES), "invalid_authorities");
	for (int i = 0; i < DNS_EV_MAX; i++)
		CHECK_EQ(dns_event_by_name(dns_event_name(i)), i);
	CHECK_EQ(dns_event_by_name("nope"), -1);
	CHECK(dns_event_name(DNS_EV_MAX) == NULL);
}

/* ---------------------------------------------------------------------
 * Names: compression, loops, length, labels, escaping */

TEST(dns_forward_pointer_accepted)
{
	/* dns-forward-pointer: query 0 points to query 1, later in the message */
	int rc;
	struct dns_msg *m = parse_hex(FWD_REQ, DNS_DIR_TOSERVER, &rc);

	CHECK_EQ(rc, DNS_OK);
	CHECK_EQ(m->events, 0);
	CHECK_EQ(m->nqueries, 2);
	CHECK(name_is(&m->queries[0].name, "codemonkey.net"));
	CHECK(name_is(&m->queries[1].name, "codemonkey.net"));
	dns_msg_free(m);
}

TEST(dns_pointer_to_itself_is_a_loop)
{
	struct w w;
	int rc;
	struct dns_msg *m;

	whdr(&w, 7, 0x0100, 2, 0, 0, 0);
	w16(&w, 0xC000 | 12); /* query 0: a pointer to itself */
	w16(&w, 1);
	w16(&w, 1);
	wname(&w, "after.loop");
	w16(&w, 1);
	w16(&w, 1);
	m = parse_w(&w, DNS_DIR_TOSERVER, &rc);
	CHECK_EQ(rc, DNS_OK);
	CHECK(dns_msg_has_event(m, DNS_EV_INFINITE_LOOP));
	CHECK(m->queries[0].name.flags & DNS_NAME_LOOP);
	CHECK_EQ(m->queries[0].name.s.len, 0);
	/* parsing went on past the pointer */
	CHECK_EQ(m->nqueries, 2);
	CHECK(name_is(&m->queries[1].name, "after.loop"));
	dns_msg_free(m);
}

TEST(dns_two_pointer_cycle_is_a_loop)
{
	struct w w;
	struct dns_msg *m;

	/* offset 12: "a" then a pointer to 17; offset 17: "b" then a pointer to 12 */
	whdr(&w, 7, 0x0100, 1, 0, 0, 0);
	w8(&w, 1);
	w8(&w, 'a');
	w16(&w, 0xC000 | 17);
	w8(&w, 0); /* filler so "b" is at 17 */
	w8(&w, 1);
	w8(&w, 'b');
	w16(&w, 0xC000 | 12);
	w16(&w, 1);
	w16(&w, 1);
	m = parse_w(&w, DNS_DIR_TOSERVER, NULL);
	CHECK(dns_msg_has_event(m, DNS_EV_INFINITE_LOOP) ||
	      dns_msg_has_event(m, DNS_EV_TOO_MANY_LABELS));
	CHECK(m->queries[0].name.s.len <= DNS_NAME_MAX);
	CHECK(m->queries[0].name.s.len >= 3);
	CHECK(memcmp(m->queries[0].name.s.ptr, "a.b", 3) == 0);
	dns_msg_free(m);
}

TEST(dns_pointer_past_end_is_malformed)
{
	struct w w;
	int rc;
	struct dns_msg *m;

	whdr(&w, 7, 0x0100, 1, 0, 0, 0);
	w16(&w, 0xC000 | 0x3fff);
	w16(&w, 1);
	w16(&w, 1);
	m = parse_w(&w, DNS_DIR_TOSERVER, &rc);
	CHECK_EQ(rc, DNS_E_MALFORMED);
	CHECK(dns_msg_has_event(m, DNS_EV_MALFORMED_DATA));
	CHECK_EQ(m->nqueries, 0);
	dns_msg_free(m);
}

TEST(dns_reserved_label_type_is_malformed)
{
	struct w w;
	int rc;

	for (unsigned t = 0x40; t <= 0x80; t += 0x40) {
		whdr(&w, 7, 0x0100, 1, 0, 0, 0);
		w8(&w, t | 1);
		w8(&w, 'x');
		w8(&w, 0);
		w16(&w, 1);
		w16(&w, 1);
		struct dns_msg *m = parse_w(&w, DNS_DIR_TOSERVER, &rc);

		CHECK_EQ(rc, DNS_E_MALFORMED);
		dns_msg_free(m);
	}
}

TEST(dns_name_over_1025_is_truncated_with_event)
{
	struct w w;
	char label[64];
	int rc;
	struct dns_msg *m;

	memset(label, 'x', 63);
	whdr(&w, 7, 0x0100, 1, 0, 0, 0);
	for (int i = 0; i < 20; i++) { /* 20 * 63 + 19 dots = 1279 printed */
		w8(&w, 63);
		wraw(&w, label, 63);
	}
	w8(&w, 0);
	w16(&w, 1);
	w16(&w, 1);
	m = parse_w(&w, DNS_DIR_TOSERVER, &rc);
	CHECK_EQ(rc, DNS_OK);
	CHECK(dns_msg_has_event(m, DNS_EV_NAME_TOO_LONG));
	CHECK(m->queries[0].name.flags & DNS_NAME_TRUNCATED);
	CHECK(m->queries[0].name.flags & DNS_NAME_OVER_255);
	CHECK_EQ(m->queries[0].name.s.len, DNS_NAME_MAX);
	CHECK_EQ(m->queries[0].rrtype, 1);

	json_t *j = dns_json_message(m, DNS_DIR_TOSERVER, 0, NULL);

	CHECK_EQ(jbool(j, "queries[0].rrname_truncated"), 1);
	CHECK_EQ(strlen(jstr(j, "queries[0].rrname")), DNS_NAME_MAX);
	json_decref(j);
	dns_msg_free(m);
}

TEST(dns_name_over_255_octets_flagged_without_event)
{
	struct w w;
	char label[64];
	struct dns_msg *m;

	/* 4 * 64 + 1 = 257 octets on the wire: over RFC 1035's 255, which
	 * Suricata does not police; the flag lets a caller who wants to */
	memset(label, 'y', 63);
	whdr(&w, 7, 0x0100, 1, 0, 0, 0);
	for (int i = 0; i < 4; i++) {
		w8(&w, 63);
		wraw(&w, label, 63);
	}
	w8(&w, 0);
	w16(&w, 1);
	w16(&w, 1);
	m = parse_w(&w, DNS_DIR_TOSERVER, NULL);
	CHECK_EQ(m->events, 0);
	CHECK(m->queries[0].name.flags & DNS_NAME_OVER_255);
	CHECK(!(m->queries[0].name.flags & DNS_NAME_TRUNCATED));
	CHECK_EQ(m->queries[0].name.s.len, 4 * 63 + 3);
	dns_msg_free(m);
	/* 3 * 64 + 62 + 1 = 255 exactly: fine */
	whdr(&w, 7, 0x0100, 1, 0, 0, 0);
	for (int i = 0; i < 3; i++) {
		w8(&w, 63);
		wraw(&w, label, 63);
	}
	w8(&w, 61);
	wraw(&w, label, 61);
	w8(&w, 0);
	w16(&w, 1);
	w16(&w, 1);
	m = parse_w(&w, DNS_DIR_TOSERVER, NULL);
	CHECK(!(m->queries[0].name.flags & DNS_NAME_OVER_255));
	dns_msg_free(m);
}

TEST(dns_too_many_labels_event)
{
	struct w w;
	int rc;
	struct dns_msg *m;

	whdr(&w, 7, 0x0100, 1, 0, 0, 0);
	for (int i = 0; i < 300; i++) {
		w8(&w, 1);
		w8(&w, 'a');
	}
	w8(&w, 0);
	w16(&w, 28);
	w16(&w, 1);
	m = parse_w(&w, DNS_DIR_TOSERVER, &rc);
	CHECK_EQ(rc, DNS_OK);
	CHECK(dns_msg_has_event(m, DNS_EV_TOO_MANY_LABELS));
	CHECK(m->queries[0].name.flags & DNS_NAME_MANY_LABELS);
	CHECK_EQ(m->queries[0].name.s.len, DNS_MAX_LABELS * 2 - 1);
	/* the wire form was still walked to its end */
	CHECK_EQ(m->queries[0].rrtype, 28);
	dns_msg_free(m);
}

TEST(dns_compression_amplification_is_bounded)
{
	/* every answer's name is a pointer to a 200-label name: the printed
	 * names add up to far more than the message; the arena cap stops it */
	struct w w;
	int rc;
	struct dns_msg *m;
	size_t target;

	whdr(&w, 7, 0x8180, 1, 6000, 0, 0);
	target = w.n;
	for (int i = 0; i < 200; i++) {
		w8(&w, 4);
		wraw(&w, "abcd", 4);
	}
	w8(&w, 0);
	w16(&w, 1);
	w16(&w, 1);
	for (int i = 0; i < 6000 && w.n + 12 < 65535; i++) {
		w16(&w, 0xC000 | (unsigned)target);
		w16(&w, 10);
		w16(&w, 1);
		w32(&w, 0);
		w16(&w, 0);
	}
	m = parse_w(&w, DNS_DIR_TOCLIENT, &rc);
	CHECK(m != NULL);
	CHECK(dns_msg_has_event(m, DNS_EV_TOO_MUCH_DATA));
	CHECK(m->nrrs[DNS_SEC_ANSWER] > 100);
	dns_msg_free(m);
}

TEST(dns_json_names_print_as_suricata)
{
	struct w w;
	struct dns_msg *m;
	json_t *j;
	char *s;

	/* valid UTF-8 kept (mdns: "John’s iMac"), a control byte kept raw (JSON
	 * escapes it), a '.' inside a label kept, the root is "" */
	whdr(&w, 1, 0x0100, 3, 0, 0, 0);
	w8(&w, 13);
	wraw(&w, "John\xe2\x80\x99s iMac", 13);
	w8(&w, 5);
	wraw(&w, "lo.\x01x", 5);
	w8(&w, 0);
	w16(&w, 1);
	w16(&w, 1);
	w8(&w, 3);
	wraw(&w, "a\xff\xc3", 3);
	w8(&w, 0);
	w16(&w, 1);
	w16(&w, 1);
	w8(&w, 0);
	w16(&w, 2);
	w16(&w, 1);
	m = parse_w(&w, DNS_DIR_TOSERVER, NULL);
	CHECK_EQ(m->nqueries, 3);
	j = dns_json_message(m, DNS_DIR_TOSERVER, 0, NULL);
	s = dump(jget(j, "queries"));
	CHECK_STREQ(s, "[{\"rrname\":\"John\xe2\x80\x99s iMac.lo.\\u0001x\",\"rrtype\":\"A\"},"
		       "{\"rrname\":\"a\\\\xff\\\\xc3\",\"rrtype\":\"A\"},"
		       "{\"rrname\":\"\",\"rrtype\":\"NS\"}]");
	free(s);
	json_decref(j);
	dns_msg_free(m);
}

TEST(dns_json_bytes_rules)
{
	json_t *j;

	j = dns_json_bytes((const uint8_t *)"", 0);
	CHECK_STREQ(json_string_value(j), "");
	json_decref(j);
	/* overlong "/" and a lone surrogate are not UTF-8 */
	j = dns_json_bytes((const uint8_t *)"\xc0\xaf", 2);
	CHECK_STREQ(json_string_value(j), "\\xc0\\xaf");
	json_decref(j);
	j = dns_json_bytes((const uint8_t *)"\xed\xa0\x80", 3);
	CHECK_STREQ(json_string_value(j), "\\xed\\xa0\\x80");
	json_decref(j);
	j = dns_json_bytes((const uint8_t *)"\xf0\x9f\x98\x80", 4);
	CHECK_STREQ(json_string_value(j), "\xf0\x9f\x98\x80");
	json_decref(j);
	/* an embedded NUL survives */
	j = dns_json_bytes((const uint8_t *)"a\0b", 3);
	CHECK_EQ(json_string_length(j), 3);
	json_decref(j);
}

/* ---------------------------------------------------------------------
 * Truncation: every prefix of real messages */

static void check_all_prefixes(const char *h, enum dns_dir dir)
{
	struct bytes *b = hx(h);
	size_t n = b->n;
	/* a heap copy of each prefix, exactly sized, so ASan sees any overread */
	for (size_t cut = 0; cut < n; cut++) {
		uint8_t *p = malloc(cut ? cut : 1);
		struct dns_msg *m = NULL;
		int rc;

		memcpy(p, b->b, cut);
		rc = dns_msg_parse(p, cut, dir, &m);
		CHECK(m != NULL);
		if (cut < 12) {
			CHECK_EQ(rc, DNS_E_SHORT);
		} else if (rc == DNS_OK) {
			/* only the trailing sections may be cut and keep the message */
			CHECK(!m->complete);
			CHECK(dns_msg_has_event(m, DNS_EV_INVALID_AUTHORITIES) ||
			      dns_msg_has_event(m, DNS_EV_INVALID_ADDITIONALS));
		} else {
			CHECK_EQ(rc, DNS_E_MALFORMED);
			CHECK(dns_msg_has_event(m, DNS_EV_MALFORMED_DATA));
		}
		json_t *j = dns_json_message(m, dir, 0, NULL);
		char *s = dump(j);

		free(s);
		json_decref(j);
		dns_msg_free(m);
		free(p);
	}
	struct dns_msg *m = NULL;

	CHECK_EQ(dns_msg_parse(b->b, n, dir, &m), DNS_OK);
	CHECK(m->complete);
	dns_msg_free(m);
}

TEST(dns_truncated_at_every_byte_never_overreads)
{
	check_all_prefixes(DIG_REQ, DNS_DIR_TOSERVER);
	check_all_prefixes(DIG_RESP, DNS_DIR_TOCLIENT);
	check_all_prefixes(TXT_RESP, DNS_DIR_TOCLIENT);
	check_all_prefixes(SSHFP_RESP, DNS_DIR_TOCLIENT);
	check_all_prefixes(SRV_RESP, DNS_DIR_TOCLIENT);
	check_all_prefixes(NX_RESP, DNS_DIR_TOCLIENT);
	check_all_prefixes(NULL_RESP, DNS_DIR_TOCLIENT);
	check_all_prefixes(GMX_RESP, DNS_DIR_TOCLIENT);
	check_all_prefixes(GAAAA_RESP, DNS_DIR_TOCLIENT);
	check_all_prefixes(FWD_REQ, DNS_DIR_TOSERVER);
}

TEST(dns_corrupt_additionals_keeps_answers_suricata_verify)
{
	/* dns-corrupt-additionals: answers logged, invalid_additionals raised,
	 * the query SRV in the alert */
	int rc;
	struct dns_msg *m = parse_hex(SRV_CORRUPT_ADD, DNS_DIR_TOCLIENT, &rc);

	CHECK_EQ(rc, DNS_OK);
	CHECK(dns_msg_has_event(m, DNS_EV_INVALID_ADDITIONALS));
	CHECK(!dns_msg_has_event(m, DNS_EV_MALFORMED_DATA));
	CHECK_EQ(m->nrrs[DNS_SEC_ANSWER], 2);
	CHECK_EQ(m->nrrs[DNS_SEC_ADDITIONAL], 0);

	json_t *j = dns_json_message(m, DNS_DIR_TOCLIENT, 1, NULL);

	CHECK_STREQ(jstr(j, "answers[0].rrname"), "_sip._udp.sip.voice.google.com");
	CHECK_STREQ(jstr(j, "queries[0].rrtype"), "SRV");
	json_decref(j);
	dns_msg_free(m);
}

TEST(dns_bad_authority_is_invalid_authorities)
{
	struct w w;
	int rc;
	struct dns_msg *m;

	whdr(&w, 1, 0x8180, 1, 1, 1, 0);
	wname(&w, "a.b");
	w16(&w, 1);
	w16(&w, 1);
	size_t at = wrr(&w, "a.b", 1, 5);

	w32(&w, 0x01020304);
	wrdlen(&w, at);
	wrr(&w, "a.b", 2, 5); /* NS with rdlength 0: no name inside */
	m = parse_w(&w, DNS_DIR_TOCLIENT, &rc);
	CHECK_EQ(rc, DNS_OK);
	CHECK(dns_msg_has_event(m, DNS_EV_INVALID_AUTHORITIES));
	CHECK_EQ(m->nrrs[DNS_SEC_ANSWER], 1);
	CHECK_EQ(m->nrrs[DNS_SEC_AUTHORITY], 0);
	dns_msg_free(m);
}

TEST(dns_counts_larger_than_message_are_malformed)
{
	struct w w;
	int rc;
	struct dns_msg *m;

	whdr(&w, 1, 0x0100, 0xffff, 0xffff, 0xffff, 0xffff);
	wname(&w, "a");
	w16(&w, 1);
	w16(&w, 1);
	m = parse_w(&w, DNS_DIR_TOSERVER, &rc);
	CHECK_EQ(rc, DNS_E_MALFORMED);
	CHECK_EQ(m->nqueries, 1);
	CHECK_EQ(m->qdcount, 0xffff);
	dns_msg_free(m);
}

/* ---------------------------------------------------------------------
 * Every rdata type */

TEST(dns_rdata_a_aaaa)
{
	struct dns_msg *m = parse_hex(GAAAA_RESP, DNS_DIR_TOCLIENT, NULL);
	const struct dns_rr *rr = &m->rrs[DNS_SEC_ANSWER][0];

	CHECK_EQ(rr->kind, DNS_RD_AAAA);
	CHECK_EQ(rr->rd.addr[0], 0x26);
	CHECK_EQ(rr->ttl, 299);

	json_t *j = dns_json_message(m, DNS_DIR_TOCLIENT, 0, NULL);

	CHECK_STREQ(jstr(j, "answers[0].rdata"), "2607:f8b0:400f:0801:0000:0000:0000:200e");
	CHECK_STREQ(jstr(j, "answers[0].rrtype"), "AAAA");
	CHECK_STREQ(jstr(j, "grouped.AAAA[0]"), "2607:f8b0:400f:0801:0000:0000:0000:200e");
	json_decref(j);
	dns_msg_free(m);
}

TEST(dns_rdata_a_wrong_length_is_raw)
{
	struct w w;
	struct dns_msg *m;

	whdr(&w, 1, 0x8180, 0, 2, 0, 0);
	size_t at = wrr(&w, "x", 1, 1);

	wraw(&w, "\x01\x02\x03", 3);
	wrdlen(&w, at);
	at = wrr(&w, "x", 28, 1);
	wraw(&w, "abcd", 4);
	wrdlen(&w, at);
	m = parse_w(&w, DNS_DIR_TOCLIENT, NULL);
	CHECK_EQ(m->nrrs[DNS_SEC_ANSWER], 2);
	CHECK_EQ(m->rrs[DNS_SEC_ANSWER][0].kind, DNS_RD_RAW);
	CHECK_EQ(m->rrs[DNS_SEC_ANSWER][1].kind, DNS_RD_RAW);
	CHECK_EQ(m->events, 0);
	dns_msg_free(m);
}

TEST(dns_rdata_cname_ptr_ns_mx)
{
	struct w w;
	struct dns_msg *m;
	json_t *j;
	char *s;

	whdr(&w, 1, 0x8180, 1, 4, 0, 0);
	wname(&w, "example.org"); /* at 12 */
	w16(&w, 1);
	w16(&w, 1);
	size_t at = wrr(&w, "www.example.org", 5, 60);

	w8(&w, 3);
	wraw(&w, "web", 3);
	w16(&w, 0xC00C); /* web.example.org */
	wrdlen(&w, at);
	at = wrr(&w, "4.3.2.1.in-addr.arpa", 12, 60);
	wname(&w, "host.example.org");
	wrdlen(&w, at);
	at = wrr(&w, "example.org", 2, 60);
	wname(&w, "ns1.example.org");
	wrdlen(&w, at);
	at = wrr(&w, "example.org", 15, 60);
	w16(&w, 10);
	w8(&w, 4);
	wraw(&w, "mail", 4);
	w16(&w, 0xC00C);
	wrdlen(&w, at);
	m = parse_w(&w, DNS_DIR_TOCLIENT, NULL);
	CHECK(m->complete);
	CHECK_EQ(m->rrs[DNS_SEC_ANSWER][3].mx_pref, 10);
	j = dns_json_message(m, DNS_DIR_TOCLIENT, 0, NULL);
	s = dump(jget(j, "answers"));
	CHECK_STREQ(s, "[{\"rrname\":\"www.example.org\",\"rrtype\":\"CNAME\",\"ttl\":60,\"rdata\":\"web.example.org\"},"
		       "{\"rrname\":\"4.3.2.1.in-addr.arpa\",\"rrtype\":\"PTR\",\"ttl\":60,\"rdata\":\"host.example.org\"},"
		       "{\"rrname\":\"example.org\",\"rrtype\":\"NS\",\"ttl\":60,\"rdata\":\"ns1.example.org\"},"
		       "{\"rrname\":\"example.org\",\"rrtype\":\"MX\",\"ttl\":60,\"rdata\":\"mail.example.org\"}]");
	free(s);
	s = dump(jget(j, "grouped"));
	CHECK_STREQ(s, "{\"CNAME\":[\"web.example.org\"],\"PTR\":[\"host.example.org\"],"
		       "\"NS\":[\"ns1.example.org\"],\"MX\":[\"mail.example.org\"]}");
	free(s);
	json_decref(j);
	dns_msg_free(m);
}

TEST(dns_rdata_name_past_rdata_is_malformed)
{
	struct w w;
	int rc;
	struct dns_msg *m;

	whdr(&w, 1, 0x8180, 0, 1, 0, 0);
	size_t at = wrr(&w, "x", 5, 1);

	w8(&w, 3);
	wraw(&w, "abc", 3);
	w8(&w, 0);
	wrdlen(&w, at);
	w.b[at + 1] = 2; /* rdlength cuts the name */
	m = parse_w(&w, DNS_DIR_TOCLIENT, &rc);
	CHECK_EQ(rc, DNS_E_MALFORMED);
	dns_msg_free(m);
}

TEST(dns_rdata_mx_suricata_verify)
{
	/* dns-response-mx, dns-udp-eve-log-mx-only */
	json_t *j = eve(GMX_RESP, DNS_DIR_TOCLIENT, 5);

	CHECK_STREQ(jstr(j, "answers[0].rrtype"), "MX");
	CHECK_STREQ(jstr(j, "answers[0].rdata"), "aspmx.l.google.com");
	CHECK_STREQ(jstr(j, "answers[4].rdata"), "alt4.aspmx.l.google.com");
	CHECK_EQ(json_array_size(jget(j, "grouped.MX")), 5);
	json_decref(j);
}

TEST(dns_rdata_txt_suricata_verify)
{
	/* dns-udp-eve-txt, both responses */
	json_t *j = eve(TXT_RESP, DNS_DIR_TOCLIENT, 1);

	CHECK_STREQ(jstr(j, "answers[0].rdata"), "v=spf1 include:_spf.google.com ~all");
	CHECK_STREQ(jstr(j, "answers[0].rrname"), "google.com");
	CHECK_STREQ(jstr(j, "answers[0].rrtype"), "TXT");
	CHECK_EQ(jint(j, "answers[0].ttl"), 3217);
	CHECK_STREQ(jstr(j, "flags"), "8180");
	CHECK_STREQ(jstr(j, "grouped.TXT[0]"), "v=spf1 include:_spf.google.com ~all");
	CHECK_EQ(jint(j, "id"), 28243);
	CHECK_EQ(jbool(j, "qr"), 1);
	CHECK_EQ(jbool(j, "ra"), 1);
	CHECK_EQ(jbool(j, "rd"), 1);
	CHECK_STREQ(jstr(j, "rcode"), "NOERROR");
	CHECK_STREQ(jstr(j, "queries[0].rrname"), "google.com");
	CHECK_STREQ(jstr(j, "queries[0].rrtype"), "TXT");
	CHECK_STREQ(jstr(j, "type"), "response");
	CHECK_EQ(jint(j, "version"), 3);
	json_decref(j);

	j = eve(TXT_A_RESP, DNS_DIR_TOCLIENT, 1);
	CHECK_STREQ(jstr(j, "answers[0].rdata"), "34.197.178.240");
	CHECK_STREQ(jstr(j, "answers[0].rrname"), "textsecure-service-ca.whispersystems.org");
	CHECK_EQ(jint(j, "answers[0].ttl"), 5);
	CHECK_STREQ(jstr(j, "grouped.A[0]"), "34.197.178.240");
	CHECK_EQ(jint(j, "id"), 39372);
	json_decref(j);

	j = eve(TXT_REQ, DNS_DIR_TOSERVER, 0);
	CHECK_EQ(jint(j, "id"), 28243);
	CHECK_STREQ(jstr(j, "queries[0].rrtype"), "TXT");
	CHECK_EQ(jint(j, "tx_id"), 0);
	CHECK_STREQ(jstr(j, "type"), "request");
	json_decref(j);
}

TEST(dns_rdata_txt_several_strings_log_as_several_records)
{
	struct w w;
	struct dns_msg *m;
	json_t *j;
	char *s;

	whdr(&w, 1, 0x8180, 0, 1, 0, 0);
	size_t at = wrr(&w, "t.example", 16, 9);

	w8(&w, 3);
	wraw(&w, "one", 3);
	w8(&w, 0);
	w8(&w, 3);
	wraw(&w, "two", 3);
	wrdlen(&w, at);
	m = parse_w(&w, DNS_DIR_TOCLIENT, NULL);
	CHECK_EQ(m->rrs[DNS_SEC_ANSWER][0].kind, DNS_RD_TXT);
	CHECK_EQ(m->rrs[DNS_SEC_ANSWER][0].rd.txt.n, 3);
	j = dns_json_message(m, DNS_DIR_TOCLIENT, 0, NULL);
	s = dump(jget(j, "answers"));
	CHECK_STREQ(s, "[{\"rrname\":\"t.example\",\"rrtype\":\"TXT\",\"ttl\":9,\"rdata\":\"one\"},"
		       "{\"rrname\":\"t.example\",\"rrtype\":\"TXT\",\"ttl\":9,\"rdata\":\"\"},"
		       "{\"rrname\":\"t.example\",\"rrtype\":\"TXT\",\"ttl\":9,\"rdata\":\"two\"}]");
	free(s);
	s = dump(jget(j, "grouped"));
	CHECK_STREQ(s, "{\"TXT\":[\"one\",\"\",\"two\"]}");
	free(s);
	json_decref(j);
	dns_msg_free(m);

	/* a string running past the rdata */
	int rc;

	w.b[at + 1] = 3;
	w.n = at + 2 + 3;
	m = parse_w(&w, DNS_DIR_TOCLIENT, &rc);
	CHECK_EQ(rc, DNS_E_MALFORMED);
	dns_msg_free(m);
}

TEST(dns_rdata_soa_suricata_verify)
{
	/* dns-udp-nxdomain-soa, dns-eve-v2-udp-nxdomain-soa */
	json_t *j = eve(NX_RESP, DNS_DIR_TOCLIENT, 1);

	CHECK_STREQ(jstr(j, "rcode"), "NXDOMAIN");
	CHECK_STREQ(jstr(j, "authorities[0].rrname"), "oisf.net");
	CHECK_STREQ(jstr(j, "authorities[0].rrtype"), "SOA");
	CHECK_EQ(jint(j, "authorities[0].ttl"), 899);
	CHECK_STREQ(jstr(j, "authorities[0].soa.mname"), "ns-110.awsdns-13.com");
	CHECK_STREQ(jstr(j, "authorities[0].soa.rname"), "awsdns-hostmaster.amazon.com");
	CHECK_EQ(jint(j, "authorities[0].soa.serial"), 1);
	CHECK_EQ(jint(j, "authorities[0].soa.refresh"), 7200);
	CHECK_EQ(jint(j, "authorities[0].soa.retry"), 900);
	CHECK_EQ(jint(j, "authorities[0].soa.expire"), 1209600);
	CHECK_EQ(jint(j, "authorities[0].soa.minimum"), 86400);
	CHECK(jget(j, "answers") == NULL);
	CHECK(jget(j, "grouped") == NULL);
	CHECK_STREQ(jstr(j, "additionals[0].rrtype"), "OPT");
	CHECK_STREQ(jstr(j, "additionals[0].rrname"), "");
	json_decref(j);
}

TEST(dns_rdata_srv_suricata_verify)
{
	/* dns-udp-eve-log-srv */
	json_t *j = eve(SRV_RESP, DNS_DIR_TOCLIENT, 1);

	CHECK_STREQ(jstr(j, "queries[0].rrname"), "_sip._udp.sip.voice.google.com");
	CHECK_STREQ(jstr(j, "queries[0].rrtype"), "SRV");
	CHECK_STREQ(jstr(j, "rcode"), "NOERROR");
	CHECK_EQ(jint(j, "answers[0].srv.priority"), 20);
	CHECK_EQ(jint(j, "answers[0].srv.weight"), 1);
	CHECK_EQ(jint(j, "answers[0].srv.port"), 5060);
	CHECK_STREQ(jstr(j, "answers[0].srv.name"), "sip-anycast-2.voice.google.com");
	CHECK_EQ(jint(j, "answers[1].srv.priority"), 10);
	CHECK_EQ(jint(j, "answers[1].srv.weight"), 1);
	CHECK_EQ(jint(j, "answers[1].srv.port"), 5060);
	CHECK_STREQ(jstr(j, "answers[1].srv.name"), "sip-anycast-1.voice.google.com");
	CHECK_EQ(jint(j, "grouped.SRV[1].priority"), 10);
	json_decref(j);
}

TEST(dns_rdata_sshfp_suricata_verify)
{
	/* dns-sshfp */
	json_t *j = eve(SSHFP_RESP, DNS_DIR_TOCLIENT, 1);

	CHECK_STREQ(jstr(j, "answers[0].rrname"), "anoncvs.netbsd.org");
	CHECK_STREQ(jstr(j, "answers[0].rrtype"), "SSHFP");
	CHECK_EQ(jint(j, "answers[0].sshfp.algo"), 1);
	CHECK_EQ(jint(j, "answers[0].sshfp.type"), 1);
	CHECK_STREQ(jstr(j, "answers[0].sshfp.fingerprint"),
		    "19:8c:34:a9:2f:c0:b2:ab:1d:a5:2b:68:8c:2f:19:1d:2d:96:0c:09");
	CHECK_EQ(jint(j, "answers[1].sshfp.algo"), 3);
	CHECK_STREQ(jstr(j, "flags"), "8380");
	CHECK_EQ(jbool(j, "tc"), 1);
	CHECK_EQ(jint(j, "grouped.SSHFP[0].algo"), 1);
	json_decref(j);
}

TEST(dns_rdata_null_suricata_verify)
{
	/* dns-udp-null: "VACKD\u0003\\xc5\\xe9\u0001" */
	json_t *j = eve(NULL_RESP, DNS_DIR_TOCLIENT, 1);

	CHECK_STREQ(jstr(j, "queries[0].rrtype"), "NULL");
	CHECK_STREQ(jstr(j, "rcode"), "NOERROR");
	CHECK_STREQ(jstr(j, "answers[0].rdata"), "VACKD\x03\\xc5\\xe9\x01");

	char *s = dump(jget(j, "answers[0].rdata"));

	CHECK_STREQ(s, "\"VACKD\\u0003\\\\xc5\\\\xe9\\u0001\"");
	free(s);
	CHECK_STREQ(jstr(j, "grouped.NULL[0]"), "VACKD\x03\\xc5\\xe9\x01");
	json_decref(j);
}

TEST(dns_rdata_unknown_type_raw_numbered_not_grouped)
{
	struct w w;
	struct dns_msg *m;
	json_t *j;
	char *s;

	whdr(&w, 1, 0x8180, 1, 2, 0, 0);
	wname(&w, "h");
	w16(&w, 9999);
	w16(&w, 1);
	size_t at = wrr(&w, "h", 13, 3); /* HINFO: raw */

	wraw(&w, "\x03" "cpu\x02os", 7);
	wrdlen(&w, at);
	at = wrr(&w, "h", 9999, 3);
	wraw(&w, "zz", 2);
	wrdlen(&w, at);
	m = parse_w(&w, DNS_DIR_TOCLIENT, NULL);
	j = dns_json_message(m, DNS_DIR_TOCLIENT, 0, NULL);
	s = dump(j);
	CHECK_STREQ(s, "{\"version\":3,\"type\":\"response\",\"tx_id\":0,\"id\":1,\"flags\":\"8180\","
		       "\"qr\":true,\"rd\":true,\"ra\":true,\"opcode\":0,\"rcode\":\"NOERROR\","
		       "\"queries\":[{\"rrname\":\"h\",\"rrtype\":\"9999\"}],"
		       "\"answers\":[{\"rrname\":\"h\",\"rrtype\":\"HINFO\",\"ttl\":3,\"rdata\":\"\\u0003cpu\\u0002os\"},"
		       "{\"rrname\":\"h\",\"rrtype\":\"9999\",\"ttl\":3,\"rdata\":\"zz\"}]}");
	/* no "grouped": Suricata 8 groups the types it decodes (and NULL)
	 * only; its eve schema lists those and allows no other key */
	free(s);
	json_decref(j);
	dns_msg_free(m);
}

TEST(dns_rdata_opt_options)
{
	/* the nxdomain request's OPT carries a cookie (code 10, 8 bytes) */
	struct dns_msg *m = parse_hex(NX_REQ, DNS_DIR_TOSERVER, NULL);
	const struct dns_rr *rr = &m->rrs[DNS_SEC_ADDITIONAL][0];

	CHECK_EQ(rr->kind, DNS_RD_OPT);
	CHECK_EQ(rr->rd.opt.n, 1);
	CHECK_EQ(rr->rd.opt.v[0].code, 10);
	CHECK_EQ(rr->rd.opt.v[0].data.len, 8);

	json_t *j = dns_json_message(m, DNS_DIR_TOSERVER, 0, NULL);
	char *s = dump(jget(j, "additionals"));

	CHECK_STREQ(s, "[{\"rrname\":\"\",\"rrtype\":\"OPT\",\"ttl\":0,"
		       "\"opt\":[{\"code\":10,\"data\":\"a4f5228c58c6180a\"}]}]");
	free(s);
	json_decref(j);
	dns_msg_free(m);

	/* an option running past the rdata: invalid additionals */
	struct w w;

	whdr(&w, 1, 0x0100, 0, 0, 0, 1);
	size_t at = wrr(&w, "", 41, 0);

	w16(&w, 10);
	w16(&w, 9);
	wraw(&w, "abc", 3);
	wrdlen(&w, at);
	int rc;

	m = parse_w(&w, DNS_DIR_TOSERVER, &rc);
	CHECK_EQ(rc, DNS_OK);
	CHECK(dns_msg_has_event(m, DNS_EV_INVALID_ADDITIONALS));
	dns_msg_free(m);
}

TEST(dns_rrtype_and_rcode_names)
{
	char buf[16];

	CHECK_STREQ(dns_rrtype_format(51, buf, sizeof(buf)), "NSEC3PARAM");
	CHECK_STREQ(dns_rrtype_name(1), "A");
	CHECK_STREQ(dns_rrtype_name(28), "AAAA");
	CHECK_STREQ(dns_rrtype_name(44), "SSHFP");
	CHECK_STREQ(dns_rrtype_name(255), "ANY");
	CHECK(dns_rrtype_name(9999) == NULL);
	CHECK_STREQ(dns_rrtype_format(9999, buf, sizeof(buf)), "9999");
	CHECK_EQ(dns_rrtype_by_name("aaaa"), 28);
	CHECK_EQ(dns_rrtype_by_name("Mx"), 15);
	CHECK_EQ(dns_rrtype_by_name("bogus"), -1);
	CHECK_STREQ(dns_rcode_name(3), "NXDOMAIN");
	CHECK_STREQ(dns_rcode_format(12, buf, sizeof(buf)), "12");
	CHECK_EQ(dns_rcode_by_name("servfail"), 2);
	/* as snprintf, cut to fit */
	CHECK_STREQ(dns_rrtype_format(51, buf, 4), "NSE");
	CHECK_STREQ(dns_rrtype_format(65535, buf, 3), "65");
	CHECK_STREQ(dns_rcode_format(3, buf, 1), "");
}

/* The eve writer's form of types and rcodes (dns_*_text, no copy of a
 * mnemonic) is the mnemonic where there is one, else "%u", for every value;
 * and each mnemonic names its type back. */
TEST(dns_rrtype_and_rcode_text_every_value)
{
	char buf[DNS_NAME_BUF], want[DNS_NAME_BUF];
	unsigned named = 0;

	for (unsigned t = 0; t <= 65535; t++) {
		const char *name = dns_rrtype_name((uint16_t)t);
		size_t n = 99;
		const char *s = dns_rrtype_text((uint16_t)t, buf, &n);

		if (name) {
			named++;
			CHECK(s == name);
			CHECK_EQ(dns_rrtype_by_name(name), (int)t);
		} else {
			snprintf(want, sizeof(want), "%u", t);
			CHECK_STREQ(s, want);
		}
		CHECK_EQ(n, strlen(s));
		CHECK_STREQ(dns_rrtype_format((uint16_t)t, buf, sizeof(buf)), s);
	}
	CHECK_EQ(named, 61);
	static const char *const types[] = { "A", "NS", "CNAME", "SOA", "NULL", "PTR", "MX",
					     "TXT", "AAAA", "SRV", "OPT", "SSHFP", "RRSIG",
					     "NSEC3PARAM", "HTTPS", "ANY", "CAA" };
	static const unsigned numbers[] = { 1, 2, 5, 6, 10, 12, 15, 16, 28, 33, 41, 44, 46,
					    51, 65, 255, 257 };
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		size_t n;

		CHECK_STREQ(dns_rrtype_text((uint16_t)numbers[i], buf, &n), types[i]);
		CHECK_EQ(n, strlen(types[i]));
	}
	for (unsigned r = 0; r <= 255; r++) {
		const char *name = dns_rcode_name((uint8_t)r);
		size_t n = 99;
		const char *s = dns_rcode_text((uint8_t)r, buf, &n);

		CHECK_EQ(name != NULL, r <= 10);
		if (name) {
			CHECK(s == name);
			CHECK_EQ(dns_rcode_by_name(name), (int)r);
		} else {
			snprintf(want, sizeof(want), "%u", r);
			CHECK_STREQ(s, want);
		}
		CHECK_EQ(n, strlen(s));
	}
	{
		size_t n;

		CHECK_STREQ(dns_rcode_text(0, buf, &n), "NOERROR");
		CHECK_STREQ(dns_rcode_text(3, buf, &n), "NXDOMAIN");
		CHECK_STREQ(dns_rcode_text(10, buf, &n), "NOTZONE");
		CHECK_STREQ(dns_rcode_text(11, buf, &n), "11");
		CHECK_STREQ(dns_rcode_text(15, buf, &n), "15");
	}
}

/* ---------------------------------------------------------------------
 * Eve v3 records */

TEST(dns_json_eve_dig_suricata_verify)
{
	/* dns-udp-eve-dig, field by field */
	json_t *j = eve(DIG_REQ, DNS_DIR_TOSERVER, 0);

	CHECK_EQ(jint(j, "id"), 36146);
	CHECK_STREQ(jstr(j, "queries[0].rrname"), "www.suricata-ids.org");
	CHECK_STREQ(jstr(j, "queries[0].rrtype"), "A");
	CHECK_EQ(jint(j, "tx_id"), 0);
	CHECK_STREQ(jstr(j, "type"), "request");
	json_decref(j);

	j = eve(DIG_RESP, DNS_DIR_TOCLIENT, 1);
	CHECK_STREQ(jstr(j, "answers[0].rdata"), "suricata-ids.org");
	CHECK_STREQ(jstr(j, "answers[0].rrname"), "www.suricata-ids.org");
	CHECK_STREQ(jstr(j, "answers[0].rrtype"), "CNAME");
	CHECK_EQ(jint(j, "answers[0].ttl"), 3544);
	CHECK_STREQ(jstr(j, "answers[1].rdata"), "192.0.78.24");
	CHECK_STREQ(jstr(j, "answers[1].rrname"), "suricata-ids.org");
	CHECK_STREQ(jstr(j, "answers[1].rrtype"), "A");
	CHECK_EQ(jint(j, "answers[1].ttl"), 244);
	CHECK_STREQ(jstr(j, "answers[2].rdata"), "192.0.78.25");
	CHECK_STREQ(jstr(j, "flags"), "81a0");
	CHECK_STREQ(jstr(j, "grouped.A[0]"), "192.0.78.24");
	CHECK_STREQ(jstr(j, "grouped.A[1]"), "192.0.78.25");
	CHECK_STREQ(jstr(j, "grouped.CNAME[0]"), "suricata-ids.org");
	CHECK_EQ(jint(j, "id"), 36146);
	CHECK_EQ(jbool(j, "qr"), 1);
	CHECK_EQ(jbool(j, "ra"), 1);
	CHECK_EQ(jbool(j, "rd"), 1);
	CHECK_STREQ(jstr(j, "rcode"), "NOERROR");
	CHECK_STREQ(jstr(j, "queries[0].rrname"), "www.suricata-ids.org");
	CHECK_STREQ(jstr(j, "type"), "response");
	CHECK_EQ(jint(j, "version"), 3);
	json_decref(j);
}

TEST(dns_json_eve_dig_exact)
{
	json_t *j = eve(DIG_RESP, DNS_DIR_TOCLIENT, 1);
	char *s = dump(j);

	CHECK_STREQ(s, "{\"version\":3,\"type\":\"response\",\"tx_id\":1,\"id\":36146,\"flags\":\"81a0\","
		       "\"qr\":true,\"rd\":true,\"ra\":true,\"opcode\":0,\"rcode\":\"NOERROR\","
		       "\"queries\":[{\"rrname\":\"www.suricata-ids.org\",\"rrtype\":\"A\"}],"
		       "\"answers\":[{\"rrname\":\"www.suricata-ids.org\",\"rrtype\":\"CNAME\",\"ttl\":3544,\"rdata\":\"suricata-ids.org\"},"
		       "{\"rrname\":\"suricata-ids.org\",\"rrtype\":\"A\",\"ttl\":244,\"rdata\":\"192.0.78.24\"},"
		       "{\"rrname\":\"suricata-ids.org\",\"rrtype\":\"A\",\"ttl\":244,\"rdata\":\"192.0.78.25\"}],"
		       "\"grouped\":{\"CNAME\":[\"suricata-ids.org\"],\"A\":[\"192.0.78.24\",\"192.0.78.25\"]}}");
	free(s);
	json_decref(j);

	j = eve(DIG_REQ, DNS_DIR_TOSERVER, 0);
	s = dump(j);
	CHECK_STREQ(s, "{\"version\":3,\"type\":\"request\",\"tx_id\":0,\"id\":36146,\"flags\":\"120\","
		       "\"rd\":true,\"opcode\":0,\"rcode\":\"NOERROR\","
		       "\"queries\":[{\"rrname\":\"www.suricata-ids.org\",\"rrtype\":\"A\"}],"
		       "\"additionals\":[{\"rrname\":\"\",\"rrtype\":\"OPT\",\"ttl\":0}]}");
	free(s);
	json_decref(j);
}

TEST(dns_json_forward_pointer_suricata_verify)
{
	json_t *j = eve(FWD_REQ, DNS_DIR_TOSERVER, 0);

	CHECK_EQ(jint(j, "id"), 36356);
	CHECK_STREQ(jstr(j, "queries[0].rrname"), "codemonkey.net");
	CHECK_STREQ(jstr(j, "queries[0].rrtype"), "A");
	CHECK_STREQ(jstr(j, "queries[1].rrname"), "codemonkey.net");
	CHECK_STREQ(jstr(j, "queries[1].rrtype"), "A");
	CHECK_STREQ(jstr(j, "type"), "request");
	json_decref(j);
	j = eve(FWD_RESP, DNS_DIR_TOCLIENT, 1);
	CHECK_STREQ(jstr(j, "answers[0].rdata"), "152.53.82.239");
	CHECK_STREQ(jstr(j, "answers[0].rrname"), "codemonkey.net");
	CHECK_STREQ(jstr(j, "answers[0].rrtype"), "A");
	CHECK_EQ(jint(j, "answers[0].ttl"), 300);
	json_decref(j);
}

TEST(dns_json_invalid_opcode_suricata_verify)
{
	json_t *j = eve(OPC_REQ, DNS_DIR_TOSERVER, 0);

	CHECK_EQ(jint(j, "id"), 1);
	CHECK_EQ(jint(j, "opcode"), 9);
	CHECK_STREQ(jstr(j, "queries[0].rrname"), "suricata.io");
	CHECK_STREQ(jstr(j, "queries[0].rrtype"), "A");
	CHECK_EQ(jint(j, "tx_id"), 0);
	CHECK_STREQ(jstr(j, "type"), "request");
	json_decref(j);
}

TEST(dns_json_types_filter_aaaa_only)
{
	/* dns-udp-eve-log-aaaa-only: only the AAAA exchange is logged */
	struct dns_json_cfg cfg;
	struct dns_msg *m;
	json_t *j;

	dns_json_cfg_init(&cfg);
	CHECK_EQ(dns_json_cfg_add_type(&cfg, "aaaa"), 0);
	CHECK_EQ(dns_json_cfg_add_type(&cfg, "nope"), -1);
	m = parse_hex(GA_REQ, DNS_DIR_TOSERVER, NULL);
	CHECK(dns_json_message(m, DNS_DIR_TOSERVER, 0, &cfg) == NULL);
	dns_msg_free(m);
	m = parse_hex(GMX_RESP, DNS_DIR_TOCLIENT, NULL);
	CHECK(dns_json_message(m, DNS_DIR_TOCLIENT, 0, &cfg) == NULL);
	dns_msg_free(m);
	m = parse_hex(GAAAA_REQ, DNS_DIR_TOSERVER, NULL);
	j = dns_json_message(m, DNS_DIR_TOSERVER, 0, &cfg);
	CHECK_STREQ(jstr(j, "queries[0].rrtype"), "AAAA");
	json_decref(j);
	dns_msg_free(m);
	m = parse_hex(GAAAA_RESP, DNS_DIR_TOCLIENT, NULL);
	j = dns_json_message(m, DNS_DIR_TOCLIENT, 0, &cfg);
	CHECK_STREQ(jstr(j, "answers[0].rrtype"), "AAAA");
	CHECK_EQ(json_array_size(jget(j, "answers")), 1);
	json_decref(j);
	dns_msg_free(m);
}

TEST(dns_json_types_filter_drops_other_answers)
{
	/* types [a] on the dig answer: the CNAME goes, the two A stay */
	struct dns_json_cfg cfg;
	struct dns_msg *m = parse_hex(DIG_RESP, DNS_DIR_TOCLIENT, NULL);
	json_t *j;

	dns_json_cfg_init(&cfg);
	dns_json_cfg_add_type(&cfg, "A");
	j = dns_json_message(m, DNS_DIR_TOCLIENT, 0, &cfg);
	CHECK_EQ(json_array_size(jget(j, "answers")), 2);
	CHECK_STREQ(jstr(j, "answers[0].rrtype"), "A");
	CHECK(jget(j, "grouped.CNAME") == NULL);
	CHECK_EQ(json_array_size(jget(j, "grouped.A")), 2);
	json_decref(j);
	dns_msg_free(m);
}

TEST(dns_json_formats_and_directions)
{
	struct dns_json_cfg cfg;
	struct dns_msg *m = parse_hex(DIG_RESP, DNS_DIR_TOCLIENT, NULL);
	json_t *j;

	dns_json_cfg_init(&cfg);
	CHECK_EQ(dns_json_cfg_add_format(&cfg, "grouped"), 0);
	j = dns_json_message(m, DNS_DIR_TOCLIENT, 0, &cfg);
	CHECK(jget(j, "answers") == NULL);
	CHECK(jget(j, "grouped") != NULL);
	json_decref(j);

	dns_json_cfg_init(&cfg);
	CHECK_EQ(dns_json_cfg_add_format(&cfg, "detailed"), 0);
	CHECK_EQ(dns_json_cfg_add_format(&cfg, "fancy"), -1);
	j = dns_json_message(m, DNS_DIR_TOCLIENT, 0, &cfg);
	CHECK(jget(j, "answers") != NULL);
	CHECK(jget(j, "grouped") == NULL);
	json_decref(j);

	dns_json_cfg_init(&cfg);
	cfg.responses = false;
	CHECK(dns_json_message(m, DNS_DIR_TOCLIENT, 0, &cfg) == NULL);
	cfg.responses = true;
	cfg.requests = false;
	j = dns_json_message(m, DNS_DIR_TOCLIENT, 0, &cfg);
	CHECK(j != NULL);
	json_decref(j);
	dns_msg_free(m);
}

TEST(dns_json_rcode_and_flags_of_odd_messages)
{
	struct w w;
	struct dns_msg *m;
	json_t *j;

	whdr(&w, 0xffff, 0x87cc, 0, 0, 0, 0); /* qr aa tc rd ra z, rcode 12 */
	m = parse_w(&w, DNS_DIR_TOCLIENT, NULL);
	j = dns_json_message(m, DNS_DIR_TOCLIENT, 0, NULL);
	CHECK_STREQ(jstr(j, "flags"), "87cc");
	CHECK_STREQ(jstr(j, "rcode"), "12");
	CHECK_EQ(jbool(j, "aa"), 1);
	CHECK_EQ(jbool(j, "tc"), 1);
	CHECK_EQ(jbool(j, "rd"), 1);
	CHECK_EQ(jbool(j, "ra"), 1);
	CHECK_EQ(jbool(j, "z"), 1);
	CHECK(jget(j, "queries") == NULL);
	json_decref(j);
	dns_msg_free(m);

	/* a message too short for a header still makes a well-formed object */
	uint8_t b[3] = { 1, 2, 3 };

	dns_msg_parse(b, 3, DNS_DIR_TOSERVER, &m);
	j = dns_json_message(m, DNS_DIR_TOSERVER, 0, NULL);
	CHECK_STREQ(jstr(j, "type"), "request");
	json_decref(j);
	dns_msg_free(m);
}

/* ---------------------------------------------------------------------
 * TCP framing */

struct got {
	uint8_t b[8][512];
	uint32_t len[8];
	int n;
};

static void got_cb(void *arg, const uint8_t *msg, uint32_t len)
{
	struct got *g = arg;

	if (g->n < 8 && len <= 512) {
		memcpy(g->b[g->n], msg, len);
		g->len[g->n] = len;
	}
	g->n++;
}

TEST(dns_tcp_two_messages_at_every_split)
{
	struct bytes *a = hx(GOOG_TCP_REQ);
	struct bytes *b = hx(T7018[0]);
	uint8_t stream[1024];
	size_t n = 0;

	memcpy(stream, a->b, a->n);
	n += a->n;
	memcpy(stream + n, b->b, b->n);
	n += b->n;
	for (size_t s1 = 0; s1 <= n; s1++) {
		for (size_t s2 = s1; s2 <= n; s2 += 7) {
			struct dns_tcp t;
			struct got g = { 0 };

			dns_tcp_init(&t);
			CHECK_EQ(dns_tcp_feed(&t, stream, s1, got_cb, &g), 0);
			CHECK_EQ(dns_tcp_feed(&t, stream + s1, s2 - s1, got_cb, &g), 0);
			CHECK_EQ(dns_tcp_feed(&t, stream + s2, n - s2, got_cb, &g), 0);
			CHECK_EQ(g.n, 2);
			CHECK_EQ(g.len[0], a->n - 2);
			CHECK(memcmp(g.b[0], a->b + 2, a->n - 2) == 0);
			CHECK_EQ(g.len[1], b->n - 2);
			CHECK(memcmp(g.b[1], b->b + 2, b->n - 2) == 0);
			CHECK_EQ(dns_tcp_pending(&t), 0);
			CHECK_EQ(t.msgs, 2);
			dns_tcp_free(&t);
		}
	}
}

TEST(dns_tcp_byte_at_a_time)
{
	struct bytes *a = hx(GOOG_TCP_RESP);
	struct dns_tcp t;
	struct got g = { 0 };

	dns_tcp_init(&t);
	for (size_t i = 0; i < a->n; i++) {
		CHECK_EQ(g.n, 0);
		CHECK_EQ(dns_tcp_pending(&t), i);
		dns_tcp_feed(&t, a->b + i, 1, got_cb, &g);
	}
	CHECK_EQ(g.n, 1);
	CHECK_EQ(t.buffered, 1);

	struct dns_msg *m = NULL;

	CHECK_EQ(dns_msg_parse(g.b[0], g.len[0], DNS_DIR_TOCLIENT, &m), DNS_OK);
	CHECK_EQ(m->nrrs[DNS_SEC_ANSWER], 12);
	dns_msg_free(m);
	dns_tcp_free(&t);
}

TEST(dns_tcp_zero_length_and_reset)
{
	static const uint8_t z[] = { 0, 0, 0, 0, 0, 3, 'a' };
	struct dns_tcp t;
	struct got g = { 0 };

	dns_tcp_init(&t);
	dns_tcp_feed(&t, z, sizeof(z), got_cb, &g);
	CHECK_EQ(g.n, 2);
	CHECK_EQ(g.len[0], 0);
	CHECK_EQ(g.len[1], 0);
	CHECK_EQ(dns_tcp_pending(&t), 3);
	dns_tcp_reset(&t);
	CHECK_EQ(dns_tcp_pending(&t), 0);
	CHECK_EQ(t.resets, 1);
	dns_tcp_free(&t);
}

TEST(dns_tcp_max_message_buffered)
{
	/* a 65535-byte frame in three pieces, then a small one */
	static uint8_t big[2 + 65535 + 4];
	struct dns_tcp t;
	struct got g = { 0 };

	big[0] = 0xff;
	big[1] = 0xff;
	for (size_t i = 2; i < 2 + 65535; i++)
		big[i] = (uint8_t)i;
	big[65537] = 0;
	big[65538] = 2;
	big[65539] = 'x';
	big[65540] = 'y';
	dns_tcp_init(&t);
	dns_tcp_feed(&t, big, 1, got_cb, &g);
	dns_tcp_feed(&t, big + 1, 40000, got_cb, &g);
	CHECK_EQ(g.n, 0);
	CHECK_EQ(dns_tcp_pending(&t), 40001);
	dns_tcp_feed(&t, big + 40001, sizeof(big) - 40001 - 1, got_cb, &g);
	CHECK_EQ(g.n, 1);
	CHECK(t.cap <= 2 + 65535);
	CHECK_EQ(dns_tcp_pending(&t), 3);
	dns_tcp_feed(&t, big + sizeof(big) - 1, 1, got_cb, &g);
	CHECK_EQ(g.n, 2);
	CHECK_EQ(g.len[1], 2);
	CHECK(memcmp(g.b[1], "xy", 2) == 0);
	CHECK_EQ(dns_tcp_pending(&t), 0);
	dns_tcp_free(&t);
}

/* ---------------------------------------------------------------------
 * Transactions */

static struct dns_msg *tcp_msg(const char *h, enum dns_dir dir)
{
	struct bytes *b = hx(h);
	struct dns_msg *m = NULL;

	dns_msg_parse(b->b + 2, b->n - 2, dir, &m);
	return m;
}

TEST(dns_txs_per_message_task_7018)
{
	/* task-7018-ips-dns-keywords: query tx 0, answer tx 1, ... the third
	 * query (suricata.org) is tx 4 and its answer tx 5 */
	struct dns_txs s;
	struct dns_tx *tx;

	dns_txs_init(&s, DNS_TXS_PER_MESSAGE, 0);
	for (int i = 0; i < 6; i++) {
		enum dns_dir dir = i & 1 ? DNS_DIR_TOCLIENT : DNS_DIR_TOSERVER;

		CHECK_EQ(dns_txs_add(&s, tcp_msg(T7018[i], dir), dir, &tx), 0);
		CHECK_EQ(tx->tx_id, i);
		CHECK(dns_tx_complete(tx));
	}
	CHECK_EQ(dns_txs_count(&s), 6);
	tx = dns_txs_by_id(&s, 4);
	CHECK(tx && tx->request && !tx->response);

	json_t *j = dns_json_alert(tx, DNS_DIR_TOSERVER);

	CHECK_EQ(jint(j, "id"), 0);
	CHECK_EQ(jint(j, "opcode"), 0);
	CHECK_EQ(jint(j, "tx_id"), 4);
	CHECK_STREQ(jstr(j, "type"), "request");
	CHECK_STREQ(jstr(j, "queries[0].rrname"), "suricata.org");
	CHECK_STREQ(jstr(j, "queries[0].rrtype"), "A");
	json_decref(j);

	tx = dns_txs_by_id(&s, 5);
	j = dns_json_alert(tx, DNS_DIR_TOCLIENT);
	CHECK_STREQ(jstr(j, "flags"), "8180");
	CHECK_STREQ(jstr(j, "answers[0].rrname"), "suricata.org");
	CHECK_STREQ(jstr(j, "answers[0].rrtype"), "A");
	CHECK_STREQ(jstr(j, "type"), "response");
	CHECK_EQ(jint(j, "version"), 3);
	/* Suricata 8 writes the engine's transaction id on responses too */
	CHECK_EQ(jint(j, "tx_id"), 5);
	json_decref(j);

	/* task-7018-dns-ips-stream-rule: the first answer */
	tx = dns_txs_by_id(&s, 1);
	j = dns_json_alert(tx, DNS_DIR_TOCLIENT);
	CHECK_STREQ(jstr(j, "answers[0].rdata"), "35.212.0.44");
	CHECK_EQ(jint(j, "answers[0].ttl"), 490);
	CHECK_STREQ(jstr(j, "grouped.A[0]"), "35.212.0.44");
	json_decref(j);

	dns_txs_gc(&s, 2);
	CHECK_EQ(dns_txs_count(&s), 3);
	CHECK(dns_txs_by_id(&s, 2) == NULL);
	CHECK(dns_txs_by_id(&s, 3) != NULL);
	CHECK(dns_txs_get(&s, 0) == dns_txs_by_id(&s, 3));
	CHECK(dns_txs_get(&s, 3) == NULL);
	dns_txs_free(&s);
}

TEST(dns_txs_paired_by_id)
{
	struct dns_txs s;
	struct dns_tx *tx, *t0;

	dns_txs_init(&s, DNS_TXS_PAIRED, 0);
	dns_txs_add(&s, parse_hex(DIG_REQ, DNS_DIR_TOSERVER, NULL), DNS_DIR_TOSERVER, &t0);
	CHECK(dns_tx_done(t0, DNS_DIR_TOSERVER));
	CHECK(!dns_tx_done(t0, DNS_DIR_TOCLIENT));
	dns_txs_add(&s, parse_hex(TXT_REQ, DNS_DIR_TOSERVER, NULL), DNS_DIR_TOSERVER, &tx);
	CHECK_EQ(tx->tx_id, 1);
	CHECK_EQ(s.open, 2);
	/* answers out of order */
	dns_txs_add(&s, parse_hex(TXT_RESP, DNS_DIR_TOCLIENT, NULL), DNS_DIR_TOCLIENT, &tx);
	CHECK_EQ(tx->tx_id, 1);
	CHECK(tx->request && tx->response && dns_tx_complete(tx));
	dns_txs_add(&s, parse_hex(DIG_RESP, DNS_DIR_TOCLIENT, NULL), DNS_DIR_TOCLIENT, &tx);
	CHECK(tx == t0);
	CHECK(dns_tx_complete(t0));
	CHECK_EQ(s.open, 0);
	/* an answer nobody asked for (dns-udp-unsolicited-response) */
	dns_txs_add(&s, parse_hex(NX_RESP, DNS_DIR_TOCLIENT, NULL), DNS_DIR_TOCLIENT, &tx);
	CHECK_EQ(tx->tx_id, 2);
	CHECK(!tx->request && tx->response && dns_tx_complete(tx));
	CHECK_EQ(dns_txs_count(&s), 3);
	dns_txs_free(&s);
}

TEST(dns_txs_paired_same_id_twice)
{
	/* dns-udp-double-request-response: two queries, two answers */
	struct dns_txs s;
	struct dns_tx *a, *b, *tx;

	dns_txs_init(&s, DNS_TXS_PAIRED, 0);
	dns_txs_add(&s, parse_hex(DIG_REQ, DNS_DIR_TOSERVER, NULL), DNS_DIR_TOSERVER, &a);
	dns_txs_add(&s, parse_hex(DIG_REQ, DNS_DIR_TOSERVER, NULL), DNS_DIR_TOSERVER, &b);
	CHECK(a != b);
	dns_txs_add(&s, parse_hex(DIG_RESP, DNS_DIR_TOCLIENT, NULL), DNS_DIR_TOCLIENT, &tx);
	CHECK(tx == a);
	dns_txs_add(&s, parse_hex(DIG_RESP, DNS_DIR_TOCLIENT, NULL), DNS_DIR_TOCLIENT, &tx);
	CHECK(tx == b);
	dns_txs_free(&s);
}

TEST(dns_txs_open_limit_evicts_oldest_with_event)
{
	struct dns_txs s;
	struct dns_tx *tx;

	dns_txs_init(&s, DNS_TXS_PAIRED, 3);
	for (int i = 0; i < 3; i++) {
		dns_txs_add(&s, parse_hex(DIG_REQ, DNS_DIR_TOSERVER, NULL),
			    DNS_DIR_TOSERVER, &tx);
		CHECK_EQ(tx->events, 0);
	}
	CHECK_EQ(s.open, 3);
	dns_txs_add(&s, parse_hex(TXT_REQ, DNS_DIR_TOSERVER, NULL), DNS_DIR_TOSERVER, &tx);
	CHECK(tx->events & (1u << DNS_EV_TOO_MANY_TXS));
	CHECK_EQ(s.evicted, 1);
	CHECK_EQ(s.open, 3);
	tx = dns_txs_by_id(&s, 0);
	CHECK(tx->evicted && dns_tx_complete(tx) && !tx->response);
	/* the evicted one no longer takes an answer: tx 1 does */
	dns_txs_add(&s, parse_hex(DIG_RESP, DNS_DIR_TOCLIENT, NULL), DNS_DIR_TOCLIENT, &tx);
	CHECK_EQ(tx->tx_id, 1);
	/* gc frees only what is complete */
	dns_txs_gc(&s, 100);
	CHECK_EQ(dns_txs_count(&s), 2);
	dns_txs_close(&s);
	CHECK_EQ(s.open, 0);
	dns_txs_gc(&s, 100);
	CHECK_EQ(dns_txs_count(&s), 0);
	/* ids go on after gc */
	dns_txs_add(&s, parse_hex(DIG_REQ, DNS_DIR_TOSERVER, NULL), DNS_DIR_TOSERVER, &tx);
	CHECK_EQ(tx->tx_id, 4);
	dns_txs_free(&s);
}

/* ---------------------------------------------------------------------
 * Keyword helpers */

static int nbufs(const struct dns_tx *tx, enum dns_dir dir, enum dns_kw_buf b)
{
	const uint8_t *d;
	uint32_t l;
	int n = 0;

	while (dns_kw_buf_get(tx, dir, b, (uint32_t)n, &d, &l))
		n++;
	return n;
}

static bool has_buf(const struct dns_tx *tx, enum dns_dir dir, enum dns_kw_buf b,
		    const char *s)
{
	const uint8_t *d;
	uint32_t l;

	for (uint32_t i = 0; dns_kw_buf_get(tx, dir, b, i, &d, &l); i++)
		if (l == strlen(s) && memcmp(d, s, l) == 0)
			return true;
	return false;
}

TEST(dns_kw_buffer_names)
{
	CHECK_EQ(dns_kw_buf_by_name("dns.query"), DNS_KW_QUERY);
	CHECK_EQ(dns_kw_buf_by_name("dns_query"), DNS_KW_QUERY);
	CHECK_EQ(dns_kw_buf_by_name("dns.queries.rrname"), DNS_KW_QUERIES_RRNAME);
	CHECK_EQ(dns_kw_buf_by_name("dns.answers.rrname"), DNS_KW_ANSWERS_RRNAME);
	CHECK_EQ(dns_kw_buf_by_name("dns.authorities.rrname"), DNS_KW_AUTHORITIES_RRNAME);
	CHECK_EQ(dns_kw_buf_by_name("dns.additionals.rrname"), DNS_KW_ADDITIONALS_RRNAME);
	CHECK_EQ(dns_kw_buf_by_name("dns.response.rrname"), DNS_KW_RESPONSE_RRNAME);
	CHECK_EQ(dns_kw_buf_by_name("dns.rrname"), -1);
}

TEST(dns_kw_query_buffers_suricata_verify)
{
	/* dns-query-name: dns.queries.rrname "suricata" alerts both ways;
	 * dns.response.rrname "suricata-ids.org" (a CNAME's rdata) */
	struct dns_txs s;
	struct dns_tx *req, *resp;

	dns_txs_init(&s, DNS_TXS_PER_MESSAGE, 0);
	dns_txs_add(&s, parse_hex(DIG_REQ, DNS_DIR_TOSERVER, NULL), DNS_DIR_TOSERVER, &req);
	dns_txs_add(&s, parse_hex(DIG_RESP, DNS_DIR_TOCLIENT, NULL), DNS_DIR_TOCLIENT, &resp);
	CHECK(has_buf(req, DNS_DIR_TOSERVER, DNS_KW_QUERIES_RRNAME, "www.suricata-ids.org"));
	CHECK(has_buf(resp, DNS_DIR_TOCLIENT, DNS_KW_QUERIES_RRNAME, "www.suricata-ids.org"));
	CHECK(has_buf(req, DNS_DIR_TOSERVER, DNS_KW_QUERY, "www.suricata-ids.org"));
	CHECK_EQ(nbufs(resp, DNS_DIR_TOCLIENT, DNS_KW_QUERY), 0);
	CHECK_EQ(nbufs(req, DNS_DIR_TOSERVER, DNS_KW_RESPONSE_RRNAME), 0);
	/* the wrong direction of a per-message tx has no message */
	CHECK_EQ(nbufs(req, DNS_DIR_TOCLIENT, DNS_KW_QUERIES_RRNAME), 0);
	/* query, CNAME rrname + rdata, two A rrnames */
	CHECK_EQ(nbufs(resp, DNS_DIR_TOCLIENT, DNS_KW_RESPONSE_RRNAME), 5);
	CHECK(has_buf(resp, DNS_DIR_TOCLIENT, DNS_KW_RESPONSE_RRNAME, "suricata-ids.org"));
	CHECK_EQ(nbufs(resp, DNS_DIR_TOCLIENT, DNS_KW_ANSWERS_RRNAME), 3);
	dns_txs_free(&s);
}

TEST(dns_kw_response_rrname_rdata_names)
{
	struct dns_txs s;
	struct dns_tx *tx;

	dns_txs_init(&s, DNS_TXS_PER_MESSAGE, 0);
	/* dns-response-rrname-sticky-buffer: the query name and the SOA mname */
	dns_txs_add(&s, parse_hex(NX_RESP, DNS_DIR_TOCLIENT, NULL), DNS_DIR_TOCLIENT, &tx);
	CHECK(has_buf(tx, DNS_DIR_TOCLIENT, DNS_KW_RESPONSE_RRNAME, "dne.oisf.net"));
	CHECK(has_buf(tx, DNS_DIR_TOCLIENT, DNS_KW_RESPONSE_RRNAME, "ns-110.awsdns-13.com"));
	CHECK(has_buf(tx, DNS_DIR_TOCLIENT, DNS_KW_RESPONSE_RRNAME, "awsdns-hostmaster.amazon.com"));
	CHECK(has_buf(tx, DNS_DIR_TOCLIENT, DNS_KW_AUTHORITIES_RRNAME, "oisf.net"));
	CHECK(has_buf(tx, DNS_DIR_TOCLIENT, DNS_KW_ADDITIONALS_RRNAME, ""));
	/* dns-response-mx: only in the MX rdata */
	dns_txs_add(&s, parse_hex(GMX_RESP, DNS_DIR_TOCLIENT, NULL), DNS_DIR_TOCLIENT, &tx);
	CHECK(has_buf(tx, DNS_DIR_TOCLIENT, DNS_KW_RESPONSE_RRNAME, "aspmx.l.google.com"));
	CHECK(!has_buf(tx, DNS_DIR_TOCLIENT, DNS_KW_ANSWERS_RRNAME, "aspmx.l.google.com"));
	/* SRV target */
	dns_txs_add(&s, parse_hex(SRV_RESP, DNS_DIR_TOCLIENT, NULL), DNS_DIR_TOCLIENT, &tx);
	CHECK(has_buf(tx, DNS_DIR_TOCLIENT, DNS_KW_RESPONSE_RRNAME, "sip-anycast-1.voice.google.com"));
	dns_txs_free(&s);
}

TEST(dns_kw_uint_syntax)
{
	struct dns_uint_match m;

	CHECK_EQ(dns_kw_opcode_parse("4", &m), 0);
	CHECK(dns_uint_match(&m, 4) && !dns_uint_match(&m, 5));
	CHECK_EQ(dns_kw_opcode_parse("!0", &m), 0);
	CHECK(!dns_uint_match(&m, 0) && dns_uint_match(&m, 9));
	/* "between 7 and 15, exclusively" */
	CHECK_EQ(dns_kw_opcode_parse("7-15", &m), 0);
	CHECK(!dns_uint_match(&m, 7) && dns_uint_match(&m, 8) &&
	      dns_uint_match(&m, 14) && !dns_uint_match(&m, 15));
	CHECK_EQ(dns_kw_opcode_parse("!7-15", &m), 0);
	CHECK(dns_uint_match(&m, 7) && !dns_uint_match(&m, 8));
	CHECK_EQ(dns_kw_opcode_parse("3<>6", &m), 0);
	CHECK(dns_uint_match(&m, 4) && !dns_uint_match(&m, 6));
	CHECK_EQ(dns_kw_opcode_parse(">3", &m), 0);
	CHECK(dns_uint_match(&m, 4) && !dns_uint_match(&m, 3));
	CHECK_EQ(dns_kw_opcode_parse(">=3", &m), 0);
	CHECK(dns_uint_match(&m, 3));
	CHECK_EQ(dns_kw_opcode_parse(" <3 ", &m), 0);
	CHECK(dns_uint_match(&m, 2) && !dns_uint_match(&m, 3));
	CHECK_EQ(dns_kw_opcode_parse("<=3", &m), 0);
	CHECK(dns_uint_match(&m, 3) && !dns_uint_match(&m, 4));
	CHECK_EQ(dns_kw_opcode_parse("256", &m), -1);
	CHECK_EQ(dns_kw_opcode_parse("", &m), -1);
	CHECK_EQ(dns_kw_opcode_parse("4x", &m), -1);
	CHECK_EQ(dns_kw_opcode_parse("9-3", &m), -1);
	CHECK_EQ(dns_kw_opcode_parse("QUERY", &m), -1);
	CHECK_EQ(dns_kw_rcode_parse("NXDOMAIN", &m), 0);
	CHECK(dns_uint_match(&m, 3));
	CHECK_EQ(dns_kw_rcode_parse("!noerror", &m), 0);
	CHECK(!dns_uint_match(&m, 0) && dns_uint_match(&m, 3));
	CHECK_EQ(dns_kw_rrtype_parse("65535", &m), 0);
	CHECK_EQ(dns_kw_rrtype_parse("65536", &m), -1);
	CHECK_EQ(dns_kw_rrtype_parse("AAAA", &m), 0);
	CHECK_EQ(m.a, 28);
}

TEST(dns_kw_rcode_rrtype_opcode_suricata_verify)
{
	/* dns-rcode: rcode:3 and rcode:!2 to_client; rcode:3 to_server (the
	 * query was edited to carry rcode 3) */
	struct dns_txs s;
	struct dns_tx *req, *resp;
	struct dns_uint_match m3, not2, t1, tnot2, op9;

	dns_kw_rcode_parse("3", &m3);
	dns_kw_rcode_parse("!2", &not2);
	dns_txs_init(&s, DNS_TXS_PER_MESSAGE, 0);
	dns_txs_add(&s, parse_hex(RCODE_REQ, DNS_DIR_TOSERVER, NULL), DNS_DIR_TOSERVER, &req);
	dns_txs_add(&s, parse_hex(NX_RESP, DNS_DIR_TOCLIENT, NULL), DNS_DIR_TOCLIENT, &resp);
	CHECK(dns_kw_rcode_match(resp, DNS_DIR_TOCLIENT, &m3));
	CHECK(dns_kw_rcode_match(resp, DNS_DIR_TOCLIENT, &not2));
	CHECK(dns_kw_rcode_match(req, DNS_DIR_TOSERVER, &m3));
	CHECK(!dns_kw_rcode_match(req, DNS_DIR_TOCLIENT, &m3));
	/* dns-rrtype: rrtype:1 both ways, rrtype:!2 */
	dns_kw_rrtype_parse("1", &t1);
	dns_kw_rrtype_parse("!2", &tnot2);
	CHECK(dns_kw_rrtype_match(req, DNS_DIR_TOSERVER, &t1));
	CHECK(dns_kw_rrtype_match(resp, DNS_DIR_TOCLIENT, &t1));
	CHECK(dns_kw_rrtype_match(resp, DNS_DIR_TOCLIENT, &tnot2));
	CHECK(!dns_kw_rrtype_match(resp, DNS_DIR_TOCLIENT, &(struct dns_uint_match){ DNS_UINT_EQ, 28, 0 }));
	/* opcode */
	dns_kw_opcode_parse("9", &op9);
	CHECK(!dns_kw_opcode_match(req, DNS_DIR_TOSERVER, &op9));
	dns_txs_add(&s, parse_hex(OPC_REQ, DNS_DIR_TOSERVER, NULL), DNS_DIR_TOSERVER, &req);
	CHECK(dns_kw_opcode_match(req, DNS_DIR_TOSERVER, &op9));
	dns_txs_free(&s);
}

TEST(dns_message_outlives_its_input)
{
	/* the packet or TCP frame goes away; the transaction stays */
	struct bytes *b = hx(TXT_RESP);
	uint8_t *pkt = malloc(b->n);
	struct dns_msg *m = NULL;

	memcpy(pkt, b->b, b->n);
	CHECK_EQ(dns_msg_parse(pkt, b->n, DNS_DIR_TOCLIENT, &m), DNS_OK);
	memset(pkt, 0xee, b->n);
	free(pkt);

	json_t *j = dns_json_message(m, DNS_DIR_TOCLIENT, 1, NULL);

	CHECK_STREQ(jstr(j, "answers[0].rdata"), "v=spf1 include:_spf.google.com ~all");
	CHECK_STREQ(jstr(j, "additionals[0].rrtype"), "OPT");
	json_decref(j);
	dns_msg_free(m);
}

TEST(dns_over_65535_bytes_is_malformed)
{
	static uint8_t big[65536];
	struct dns_msg *m = NULL;

	big[5] = 1; /* qdcount 1 */
	CHECK_EQ(dns_msg_parse(big, sizeof(big), DNS_DIR_TOSERVER, &m), DNS_E_MALFORMED);
	CHECK(dns_msg_has_event(m, DNS_EV_MALFORMED_DATA));
	dns_msg_free(m);
	CHECK_EQ(dns_msg_parse(big, sizeof(big) - 1, DNS_DIR_TOSERVER, &m), DNS_OK);
	CHECK_EQ(m->nqueries, 1);
	dns_msg_free(m);
}

TEST(dns_z_bit_suricata_verify)
{
	/* dns/v2/dns-z-bit: the query's Z bit raises z_flag_set (sid 2240006)
	 * and the alert's dns object says z: true */
	static const char zq[] =
		"0001014000010000000000000377777706676f6f676c6503636f6d0000010001";
	static const char za[] =
		"0001818000010001000000000377777706676f6f676c6503636f6d0000010001"
		"c00c000100010000003a00048efb2044";
	struct dns_txs s;
	struct dns_tx *tx;
	json_t *j;

	dns_txs_init(&s, DNS_TXS_PER_MESSAGE, 0);
	dns_txs_add(&s, parse_hex(zq, DNS_DIR_TOSERVER, NULL), DNS_DIR_TOSERVER, &tx);
	CHECK(dns_tx_events(tx, DNS_DIR_TOSERVER) & (1u << DNS_EV_Z_FLAG_SET));
	j = dns_json_alert(tx, DNS_DIR_TOSERVER);
	CHECK_EQ(jbool(j, "z"), 1);
	CHECK_STREQ(jstr(j, "type"), "request");
	json_decref(j);
	dns_txs_add(&s, parse_hex(za, DNS_DIR_TOCLIENT, NULL), DNS_DIR_TOCLIENT, &tx);
	CHECK_EQ(dns_tx_events(tx, DNS_DIR_TOCLIENT), 0);
	j = dns_json_alert(tx, DNS_DIR_TOCLIENT);
	CHECK_STREQ(jstr(j, "answers[0].rdata"), "142.251.32.68");
	CHECK_STREQ(jstr(j, "answers[0].rrname"), "www.google.com");
	CHECK_EQ(jint(j, "answers[0].ttl"), 58);
	CHECK_STREQ(jstr(j, "flags"), "8180");
	CHECK_STREQ(jstr(j, "grouped.A[0]"), "142.251.32.68");
	CHECK_EQ(jint(j, "id"), 1);
	CHECK(jget(j, "z") == NULL);
	json_decref(j);
	dns_txs_free(&s);
}

TEST(dns_eve_objects_fit_the_schema_shape)
{
	/* the eve schema's dns object has additionalProperties false and
	 * minItems 1: no ad/cd keys, no empty arrays (the whole corpus is
	 * checked against the schema by hand with tests/e2e/eve-validate.py) */
	static const char *const all[] = { DIG_REQ, DIG_RESP, TXT_RESP, SSHFP_RESP,
					   SRV_RESP, NX_RESP, NULL_RESP, GMX_RESP };
	static const char *const allowed[] = {
		"version", "type", "tx_id", "id", "flags", "qr", "aa", "tc", "rd",
		"ra", "z", "opcode", "rcode", "queries", "answers", "grouped",
		"authorities", "additionals",
	};

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		json_t *j = eve(all[i], i ? DNS_DIR_TOCLIENT : DNS_DIR_TOSERVER, 0);
		const char *key;
		json_t *v;

		json_object_foreach(j, key, v) {
			bool ok = false;

			for (size_t k = 0; k < sizeof(allowed) / sizeof(allowed[0]); k++)
				ok |= strcmp(key, allowed[k]) == 0;
			CHECK(ok);
			if (json_is_array(v))
				CHECK(json_array_size(v) > 0);
		}
		json_decref(j);
	}
}

struct flow_ctx {
	struct dns_txs txs;
	enum dns_dir dir;
};

static void flow_cb(void *arg, const uint8_t *msg, uint32_t len)
{
	struct flow_ctx *f = arg;
	struct dns_msg *m = NULL;

	if (dns_msg_parse(msg, len, f->dir, &m) != DNS_E_NOMEM)
		dns_txs_add(&f->txs, m, f->dir, NULL);
}

/* Feeds stream[from, to) to t in pseudo-random pieces of 0-39 bytes. */
static void feed_random(struct dns_tcp *t, const uint8_t *stream, size_t from,
			size_t to, uint32_t *seed, struct flow_ctx *f)
{
	while (from < to) {
		*seed = *seed * 1103515245u + 12345u;
		size_t k = (*seed >> 16) % 40;

		if (k > to - from)
			k = to - from;
		dns_tcp_feed(t, stream + from, k, flow_cb, f);
		from += k;
	}
}

TEST(dns_tcp_task_7018_any_segmentation_same_transactions)
{
	/* the three exchanges, each direction's stream cut at pseudo-random
	 * points (pieces straddle messages); always the same three paired
	 * transactions */
	uint8_t cli[256], srv[256];
	size_t ends[6], ncli = 0, nsrv = 0;
	uint32_t seed = 12345;

	for (int i = 0; i < 6; i++) {
		struct bytes *b = hx(T7018[i]);

		if (i & 1) {
			memcpy(srv + nsrv, b->b, b->n);
			nsrv += b->n;
			ends[i] = nsrv;
		} else {
			memcpy(cli + ncli, b->b, b->n);
			ncli += b->n;
			ends[i] = ncli;
		}
	}
	for (int round = 0; round < 300; round++) {
		struct flow_ctx f;
		struct dns_tcp tc, ts;
		size_t oc = 0, os = 0;

		dns_txs_init(&f.txs, DNS_TXS_PAIRED, 0);
		dns_tcp_init(&tc);
		dns_tcp_init(&ts);
		for (int i = 0; i < 6; i += 2) {
			/* the question, and on its heels a random part of the next
			 * one, then the answer */
			size_t qend = ends[i] + (i + 2 < 6 ? seed % 5 : 0);

			f.dir = DNS_DIR_TOSERVER;
			feed_random(&tc, cli, oc, qend, &seed, &f);
			oc = qend;
			f.dir = DNS_DIR_TOCLIENT;
			feed_random(&ts, srv, os, ends[i + 1], &seed, &f);
			os = ends[i + 1];
		}
		CHECK_EQ(tc.msgs, 3);
		CHECK_EQ(ts.msgs, 3);
		CHECK_EQ(dns_tcp_pending(&tc) + dns_tcp_pending(&ts), 0);
		/* every id is 0: pairing takes the oldest open one */
		CHECK_EQ(dns_txs_count(&f.txs), 3);
		for (uint32_t i = 0; i < 3; i++) {
			static const char *const names[] = { "suricata.io", "oisf.net",
							     "suricata.org" };
			struct dns_tx *tx = dns_txs_get(&f.txs, i);

			CHECK(tx->request && tx->response && dns_tx_complete(tx));
			CHECK(name_is(&tx->request->queries[0].name, names[i]));
			CHECK(name_is(&tx->response->queries[0].name, names[i]));
		}
		dns_tcp_free(&tc);
		dns_tcp_free(&ts);
		dns_txs_free(&f.txs);
	}
}

TEST(dns_mutated_real_messages_stay_in_bounds)
{
	/* a deterministic little fuzzer for the unit suite: flip, cut and
	 * splice bytes of real messages; parse, log and index every one */
	static const char *const seeds[] = { DIG_RESP, SSHFP_RESP, SRV_RESP, NX_RESP,
					     NULL_RESP, GMX_RESP, FWD_REQ, TXT_RESP };
	uint32_t seed = 99;

	for (int it = 0; it < 20000; it++) {
		struct bytes *b = hx(seeds[it % 8]);
		uint8_t *p;
		size_t n = b->n;

		for (int k = 0; k < 4; k++) {
			seed = seed * 1103515245u + 12345u;
			uint32_t r = seed >> 8;

			switch (r & 3) {
			case 0:
				b->b[(r >> 2) % n] ^= (uint8_t)(1u << ((r >> 20) & 7));
				break;
			case 1:
				b->b[(r >> 2) % n] = (uint8_t)(0xC0 | ((r >> 12) & 1));
				break;
			case 2:
				n = 12 + (r >> 2) % (n - 11);
				break;
			default:
				b->b[(r >> 2) % n] = (uint8_t)(r >> 24);
				break;
			}
		}
		p = malloc(n);
		memcpy(p, b->b, n);

		struct dns_txs s;
		struct dns_tx *tx;
		enum dns_dir dir = it & 1 ? DNS_DIR_TOCLIENT : DNS_DIR_TOSERVER;
		struct dns_msg *m = NULL;

		dns_txs_init(&s, DNS_TXS_PER_MESSAGE, 0);
		if (dns_msg_parse(p, n, dir, &m) != DNS_E_NOMEM &&
		    dns_txs_add(&s, m, dir, &tx) == 0) {
			json_t *j = dns_json_alert(tx, dir);
			char *str = dump(j);

			CHECK(str != NULL); /* always valid UTF-8 */
			free(str);
			json_decref(j);

			const uint8_t *d;
			uint32_t l;

			for (int kb = 0; kb < DNS_KW_BUF_MAX; kb++)
				for (uint32_t i = 0; dns_kw_buf_get(tx, dir, kb, i, &d, &l); i++)
					CHECK(l <= DNS_NAME_MAX);
		}
		dns_txs_free(&s);
		free(p);
	}
}

/* Writes a name of 20 labels of 63 'z' (1279 printed bytes) */
static void wlongname(struct w *w)
{
	char label[63];

	memset(label, 'z', sizeof(label));
	for (int i = 0; i < 20; i++) {
		w8(w, 63);
		wraw(w, label, 63);
	}
	w8(w, 0);
}

TEST(dns_json_truncated_flags_in_authorities)
{
	/* the eve schema's *_truncated keys: authorities rrname and rdata,
	 * soa mname */
	struct w w;
	struct dns_msg *m;
	json_t *j;
	size_t long_at, at;

	whdr(&w, 1, 0x8183, 0, 0, 2, 0);
	long_at = w.n;
	wlongname(&w);
	w16(&w, 2); /* NS */
	w16(&w, 1);
	w32(&w, 1);
	at = w.n;
	w16(&w, 0);
	w16(&w, 0xC000 | (unsigned)long_at);
	wrdlen(&w, at);
	at = wrr(&w, "zone", 6, 1);
	w16(&w, 0xC000 | (unsigned)long_at);
	wname(&w, "r.zone");
	for (int i = 0; i < 5; i++)
		w32(&w, (uint32_t)i);
	wrdlen(&w, at);
	m = parse_w(&w, DNS_DIR_TOCLIENT, NULL);
	CHECK(m->complete);
	CHECK(dns_msg_has_event(m, DNS_EV_NAME_TOO_LONG));
	j = dns_json_message(m, DNS_DIR_TOCLIENT, 0, NULL);
	CHECK_EQ(jbool(j, "authorities[0].rrname_truncated"), 1);
	CHECK_EQ(jbool(j, "authorities[0].rdata_truncated"), 1);
	CHECK_EQ(strlen(jstr(j, "authorities[0].rdata")), DNS_NAME_MAX);
	CHECK(jget(j, "authorities[1].rrname_truncated") == NULL);
	CHECK_EQ(jbool(j, "authorities[1].soa.mname_truncated"), 1);
	CHECK_STREQ(jstr(j, "authorities[1].soa.rname"), "r.zone");
	CHECK_EQ(jint(j, "authorities[1].soa.minimum"), 4);
	json_decref(j);
	dns_msg_free(m);
}

TEST(dns_rdata_short_fixed_parts_are_malformed)
{
	/* MX under 3 bytes, SRV under 7, SSHFP under 2, SOA without its 20 */
	static const struct {
		unsigned type, len;
	} cases[] = { { 15, 2 }, { 33, 6 }, { 44, 1 }, { 6, 2 + 19 } };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct w w;
		int rc;

		whdr(&w, 1, 0x8180, 0, 1, 0, 0);
		size_t at = wrr(&w, "x", cases[i].type, 1);

		if (cases[i].type == 6) {
			w8(&w, 0);
			w8(&w, 0);
			for (unsigned k = 0; k < 19; k++)
				w8(&w, 0);
		} else {
			for (unsigned k = 0; k < cases[i].len; k++)
				w8(&w, 0);
		}
		wrdlen(&w, at);
		struct dns_msg *m = parse_w(&w, DNS_DIR_TOCLIENT, &rc);

		CHECK_EQ(rc, DNS_E_MALFORMED);
		dns_msg_free(m);
	}
}

TEST(dns_json_alert_falls_back_to_the_other_direction)
{
	/* an alert on the to_client side of a request-only tx logs the
	 * request (paired mode, before the answer) */
	struct dns_txs s;
	struct dns_tx *tx;
	json_t *j;

	dns_txs_init(&s, DNS_TXS_PAIRED, 0);
	dns_txs_add(&s, parse_hex(DIG_REQ, DNS_DIR_TOSERVER, NULL), DNS_DIR_TOSERVER, &tx);
	j = dns_json_alert(tx, DNS_DIR_TOCLIENT);
	CHECK_STREQ(jstr(j, "type"), "request");
	json_decref(j);
	dns_txs_free(&s);
	struct dns_tx empty = { 0 };

	CHECK(dns_json_alert(&empty, DNS_DIR_TOSERVER) == NULL);
}

/* Grouped answers of interleaved types: one array per type in the order of
 * its first answer, each holding that type's answers in order; and the
 * written record (dns_json_write, eve records) holds the same bytes as the
 * tree (dns_json_message, alerts). */
TEST(dns_grouped_interleaved_types_and_written_equals_tree)
{
	struct w w;
	struct dns_msg *m;
	json_t *j, *root;
	char *s, *want, line[4096];
	JsonWriter jw;
	size_t at, n;

	whdr(&w, 7, 0x8180, 1, 5, 0, 0);
	wname(&w, "example.org"); /* at 12 */
	w16(&w, 1);
	w16(&w, 1);
	at = wrr(&w, "example.org", 1, 60);
	wraw(&w, "\x01\x02\x03\x04", 4);
	wrdlen(&w, at);
	at = wrr(&w, "example.org", 5, 60);
	wname(&w, "a.example");
	wrdlen(&w, at);
	at = wrr(&w, "example.org", 1, 60);
	wraw(&w, "\x05\x06\x07\x08", 4);
	wrdlen(&w, at);
	at = wrr(&w, "example.org", 16, 60);
	wraw(&w, "\x03one\x03two", 8);
	wrdlen(&w, at);
	at = wrr(&w, "example.org", 5, 60);
	wname(&w, "b.example");
	wrdlen(&w, at);
	m = parse_w(&w, DNS_DIR_TOCLIENT, NULL);
	CHECK(m->complete);
	j = dns_json_message(m, DNS_DIR_TOCLIENT, 0, NULL);
	s = dump(jget(j, "grouped"));
	CHECK_STREQ(s, "{\"A\":[\"1.2.3.4\",\"5.6.7.8\"],\"CNAME\":[\"a.example\",\"b.example\"],"
		       "\"TXT\":[\"one\",\"two\"]}");
	free(s);

	root = json_object();
	json_object_set_new(root, "dns", j);
	want = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
	jw_begin(&jw, line, sizeof(line));
	jw_object(&jw, "dns");
	dns_json_write(&jw, m, DNS_DIR_TOCLIENT, 0, NULL);
	n = jw_end(&jw);
	CHECK(want && n == strlen(want) && memcmp(line, want, n) == 0);
	free(want);
	json_decref(root);
	dns_msg_free(m);
}

/* Version 2 records (Suricata 7's format, still written by Suricata 8 on
 * `version: 2`): a "query" record per query, an "answer" record per
 * response with the first query's name and type, and "grouped": {} when no
 * answer groups (here a DNSKEY, type 48, logged in answers only). */
TEST(dns_v2_query_and_answer_records)
{
	struct w w;
	struct dns_msg *m;
	char line[4096];
	JsonWriter jw;
	size_t at, n;

	whdr(&w, 0x1234, 0x0140, 1, 0, 0, 0);   /* rd, z */
	wname(&w, "example.org");
	w16(&w, 48);
	w16(&w, 1);
	m = parse_w(&w, DNS_DIR_TOSERVER, NULL);
	jw_begin(&jw, line, sizeof(line));
	CHECK(dns_json_v2_query(&jw, m, 0, 6, NULL));
	n = jw_end(&jw);
	line[n] = 0;
	CHECK_STREQ(line, "{\"version\":2,\"type\":\"query\",\"id\":4660,\"rrname\":\"example.org\","
			  "\"rrtype\":\"DNSKEY\",\"tx_id\":6,\"z\":true,\"opcode\":0}");
	jw_begin(&jw, line, sizeof(line));
	CHECK(!dns_json_v2_query(&jw, m, 1, 6, NULL));   /* no second query */
	dns_msg_free(m);

	whdr(&w, 0x1234, 0x8180, 1, 1, 0, 0);
	wname(&w, "example.org"); /* at 12 */
	w16(&w, 48);
	w16(&w, 1);
	at = wrr(&w, "example.org", 48, 300);
	wraw(&w, "\x01\x01\x03\x08\xaa", 5);
	wrdlen(&w, at);
	m = parse_w(&w, DNS_DIR_TOCLIENT, NULL);
	jw_begin(&jw, line, sizeof(line));
	dns_json_v2_answer(&jw, m, NULL);
	n = jw_end(&jw);
	line[n] = 0;
	CHECK_STREQ(line, "{\"version\":2,\"type\":\"answer\",\"id\":4660,\"flags\":\"8180\",\"qr\":true,"
			  "\"rd\":true,\"ra\":true,\"opcode\":0,\"rrname\":\"example.org\",\"rrtype\":\"DNSKEY\","
			  "\"rcode\":\"NOERROR\",\"answers\":[{\"rrname\":\"example.org\",\"rrtype\":\"DNSKEY\","
			  "\"ttl\":300,\"rdata\":\"\\u0001\\u0001\\u0003\\b\\\\xaa\"}],\"grouped\":{}}");
	dns_msg_free(m);
}

/* Random bytes, biased to what needs escaping: high bytes (not UTF-8, the
 * \xnn form), '"', '\\', control characters, and some valid UTF-8. */
static void wjunk(struct w *w, uint32_t *seed, size_t n)
{
	static const uint8_t picks[] = { '"', '\\', 0, 1, '\b', '\t', '\n', 0x0c, '\r', 0x1f,
					 0x7f, '/', 'a', 'Z', 0x80, 0xc3, 0xa9, 0xff, 0xed };

	for (size_t i = 0; i < n; i++) {
		uint32_t r = test_lcg(seed);

		w8(w, r & 1 ? picks[(r >> 1) % sizeof(picks)] : (r >> 4) & 0xff);
	}
}

/* Random messages: the written record (eve) and the tree (alerts, escaped
 * by jansson) hold the same bytes, and the fields we format ourselves read
 * as printf prints them: flags "%x", rcode and types by name or "%u", A
 * and AAAA addresses. */
TEST(dns_written_equals_tree_random_messages)
{
	static const unsigned types[] = { 1, 28, 10, 16, 5, 9999, 48, 65535, 255, 12 };
	static char line[1 << 17];
	uint32_t seed = 2024;

	for (int iter = 0; iter < 400; iter++) {
		struct w w;
		unsigned nan = 1 + test_lcg(&seed) % 5, flags = 0x8000 | (test_lcg(&seed) & 0x7fff);
		uint32_t qtype = types[test_lcg(&seed) % 10];
		uint8_t addr[4][4];
		unsigned naddr = 0;
		struct dns_msg *m;
		json_t *j, *root;
		char *want, buf[64];
		JsonWriter jw;
		size_t n;

		flags &= ~0x7800u;   /* opcode 0: a response that parses */
		whdr(&w, test_lcg(&seed) & 0xffff, flags, 1, nan, 0, 0);
		wname(&w, "example.org");
		w16(&w, qtype);
		w16(&w, 1);
		for (unsigned a = 0; a < nan; a++) {
			unsigned t = types[test_lcg(&seed) % 10];
			size_t at = wrr(&w, "example.org", t, test_lcg(&seed));

			if (t == 1 && naddr < 4) {
				for (int k = 0; k < 4; k++)
					addr[naddr][k] = (uint8_t)test_lcg(&seed);
				/* the edges of each byte's width */
				if (iter % 4 == 0)
					memset(addr[naddr], iter % 8 ? 0 : 255, 4);
				wraw(&w, addr[naddr++], 4);
			} else if (t == 1) {
				wraw(&w, "\x0a\x00\x00\x01", 4);
			} else if (t == 28) {
				wjunk(&w, &seed, 16);
			} else if (t == 16) {
				size_t len = test_lcg(&seed) % 60;

				w8(&w, (unsigned)len);
				wjunk(&w, &seed, len);
			} else if (t == 5 || t == 12) {
				wname(&w, "a.example");
			} else {
				wjunk(&w, &seed, test_lcg(&seed) % (iter % 10 ? 80 : 2000));
			}
			wrdlen(&w, at);
		}
		m = parse_w(&w, DNS_DIR_TOCLIENT, NULL);
		CHECK(m && m->complete);
		if (!m)
			continue;
		j = dns_json_message(m, DNS_DIR_TOCLIENT, 0, NULL);
		snprintf(buf, sizeof(buf), "%x", flags);
		CHECK_STREQ(jstr(j, "flags"), buf);
		if (!dns_rcode_name(flags & 15)) {
			snprintf(buf, sizeof(buf), "%u", flags & 15);
			CHECK_STREQ(jstr(j, "rcode"), buf);
		}
		if (!dns_rrtype_name((uint16_t)qtype)) {
			snprintf(buf, sizeof(buf), "%u", qtype);
			CHECK_STREQ(jstr(j, "queries[0].rrtype"), buf);
		}
		for (unsigned k = 0, a = 0; a < naddr; k++) {
			json_t *ans = json_array_get(json_object_get(j, "answers"), k);

			CHECK(ans != NULL);
			if (!ans)
				break;
			if (strcmp(json_string_value(json_object_get(ans, "rrtype")), "A"))
				continue;
			snprintf(buf, sizeof(buf), "%u.%u.%u.%u", addr[a][0], addr[a][1], addr[a][2],
				 addr[a][3]);
			CHECK_STREQ(json_string_value(json_object_get(ans, "rdata")), buf);
			a++;
		}
		root = json_object();
		json_object_set_new(root, "dns", j);
		want = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
		jw_begin(&jw, line, sizeof(line));
		jw_object(&jw, "dns");
		dns_json_write(&jw, m, DNS_DIR_TOCLIENT, 0, NULL);
		n = jw_end(&jw);
		CHECK(want && n == strlen(want) && memcmp(line, want, n) == 0);
		free(want);
		json_decref(root);
		dns_msg_free(m);
	}
}
