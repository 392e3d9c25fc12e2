/* Rule parser and loader: header forms, vars, every keyword (a good parse and
 * at least one rejection each), fast pattern choice, file loading with
 * continuation lines, the per-rule error line and the summary. */
#include "test.h"
#include "detect/detect-parse.h"
#include "detect/transform.h"
#include "conf/conf.h"

#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glob.h>
#include <fcntl.h>
#include <sys/stat.h>

/* Hides the array size from -Wformat-truncation in CHECK_STREQ's message. */
static __attribute__((noinline)) const char *opaque(const char *s)
{
	return s;
}

static DetectContext ctx;
static char err[512];
static int code;

static void setup(void)
{
	char e[256];

	conf_deinit();
	if (conf_load_file(test_data_path("data/rules/vars.yaml"), e, sizeof(e)))
		printf("  vars.yaml: %s\n", e);
	if (!ctx.classes &&
	    detect_load_classifications(&ctx, test_data_path("data/rules/classification.config"),
					e, sizeof(e)))
		printf("  classification: %s\n", e);
}

static Signature *P(const char *rule)
{
	setup();
	Signature *s = sig_parse(rule, &ctx, err, sizeof(err), &code);

	if (!s)
		printf("  unexpected parse error: %s\n  rule: %s\n", err, rule);
	return s;
}

/* Returns the error code (SIG_ERR_*) and leaves the reason in err; 0 if the
 * rule parsed. */
static int E(const char *rule)
{
	setup();
	Signature *s = sig_parse(rule, &ctx, err, sizeof(err), &code);

	if (s) {
		sig_free(s);
		return 0;
	}
	return code;
}

#define R(opts) "alert tcp any any -> any any (" opts ")"

static DetectContent *C(Signature *s, int list, int i)
{
	return s->lists[list].m[i].cd;
}

/* ---- header ---- */

TEST(header_actions_and_protocols)
{
	Signature *s = P("drop tcp any any -> any any (sid:1;)");

	CHECK(s);
	CHECK_EQ(s->action, ACT_DROP);
	CHECK_EQ(s->proto, IPPROTO_TCP);
	sig_free(s);
	s = P("reject udp any any -> any any (sid:1;)");
	CHECK(s);
	CHECK_EQ(s->action, ACT_REJECT);
	CHECK_EQ(s->proto, IPPROTO_UDP);
	sig_free(s);
	s = P("pass icmp any any -> any any (sid:1;)");
	CHECK(s);
	CHECK_EQ(s->proto, IPPROTO_ICMP);
	CHECK(s->icmp_any);
	sig_free(s);
	s = P("alert ip any any -> any any (sid:1;)");
	CHECK(s);
	CHECK_EQ(s->proto, 0);
	sig_free(s);
	s = P("alert http any any -> any any (sid:1;)");
	CHECK(s);
	CHECK_EQ(s->proto, IPPROTO_TCP);
	CHECK_EQ(s->alproto, ALPROTO_HTTP1);
	sig_free(s);
	CHECK_EQ(E("block tcp any any -> any any (sid:1;)"), SIG_ERR_PARSE);
	CHECK_EQ(E("alert template any any -> any any (sid:1;)"), SIG_ERR_UNSUPPORTED);
	CHECK_STREQ(opaque(err), "unsupported protocol template");
	s = P("alert dns any any -> any any (sid:1;)");
	CHECK(s);
	CHECK_EQ(s->proto, SIG_PROTO_IP);        /* dns runs on udp and tcp */
	CHECK_EQ(s->alproto, ALPROTO_DNS);
	sig_free(s);
	CHECK_EQ(E("alert foo any any -> any any (sid:1;)"), SIG_ERR_PARSE);
}

TEST(header_direction_and_structure)
{
	Signature *s = P("alert tcp any any <> any any (sid:1;)");

	CHECK(s);
	CHECK(s->flags & SIG_FLAG_BIDIR);
	sig_free(s);
	/* => (Suricata 8): a transaction's both sides, addresses as -> */
	s = P("alert tcp any any => any any (sid:1;)");
	CHECK(s);
	CHECK(s->flags & SIG_FLAG_TXBOTH);
	CHECK(!(s->flags & SIG_FLAG_BIDIR));
	sig_free(s);
	CHECK_EQ(E("alert tcp any any >> any any (sid:1;)"), SIG_ERR_PARSE);
	CHECK_EQ(E("alert tcp any any -> any (sid:1;)"), SIG_ERR_PARSE);
	CHECK_EQ(E("alert tcp any any -> any any (sid:1;"), SIG_ERR_PARSE);
	CHECK_EQ(E("alert tcp any any -> any any (sid:1)"), SIG_ERR_PARSE);
	CHECK_EQ(E("alert tcp any any -> any any (msg:\"x\";)"), SIG_ERR_PARSE);
	CHECK_STREQ(opaque(err), "signature has no sid");
}

TEST(header_addresses_cidr_ranges_lists_negation)
{
	Signature *s = P("alert ip [10.0.0.0/8,!10.1.0.0/16] any -> 1.2.3.4-1.2.3.10 any (sid:1;)");

	CHECK(s);
	CHECK(addrset_match_v4(&s->src, 0x0a000001));
	CHECK(!addrset_match_v4(&s->src, 0x0a010001));
	CHECK(!addrset_match_v4(&s->src, 0x0b000001));
	CHECK(addrset_match_v4(&s->dst, 0x01020305));
	CHECK(!addrset_match_v4(&s->dst, 0x0102030b));
	sig_free(s);
	s = P("alert ip 2001:db8::/32 any -> !1.1.1.1 any (sid:1;)");
	CHECK(s);
	uint8_t in6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
	uint8_t out6[16] = { 0x20, 0x01, 0x0d, 0xb9 };
	CHECK(addrset_match_v6(&s->src, in6));
	CHECK(!addrset_match_v6(&s->src, out6));
	CHECK(!addrset_match_v4(&s->src, 0x01010101));
	/* negation of one IPv4 address keeps all of IPv6 */
	CHECK(!addrset_match_v4(&s->dst, 0x01010101));
	CHECK(addrset_match_v4(&s->dst, 0x01010102));
	CHECK(addrset_match_v6(&s->dst, in6));
	/* the ends of the IPv4 space, either side of the hole */
	CHECK(addrset_match_v4(&s->dst, 0));
	CHECK(addrset_match_v4(&s->dst, 0x01010100));
	CHECK(addrset_match_v4(&s->dst, 0xffffffffu));
	sig_free(s);
	s = P("alert ip [0.0.0.0/0,!10.0.0.0/8,!192.168.1.0/24,!255.255.255.255] any -> any any (sid:1;)");
	CHECK(s);
	CHECK(addrset_match_v4(&s->src, 0));
	CHECK(addrset_match_v4(&s->src, 0x09ffffff));
	CHECK(!addrset_match_v4(&s->src, 0x0a000000));
	CHECK(!addrset_match_v4(&s->src, 0x0affffff));
	CHECK(addrset_match_v4(&s->src, 0x0b000000));
	CHECK(addrset_match_v4(&s->src, 0xc0a800ff));
	CHECK(!addrset_match_v4(&s->src, 0xc0a80180));
	CHECK(addrset_match_v4(&s->src, 0xc0a80200));
	CHECK(addrset_match_v4(&s->src, 0xfffffffeu));
	CHECK(!addrset_match_v4(&s->src, 0xffffffffu));
	sig_free(s);
	CHECK_EQ(E("alert ip 1.2.3.4/33 any -> any any (sid:1;)"), SIG_ERR_PARSE);
	CHECK_EQ(E("alert ip 1.2.3 any -> any any (sid:1;)"), SIG_ERR_PARSE);
	CHECK_EQ(E("alert ip !any any -> any any (sid:1;)"), SIG_ERR_PARSE);
	CHECK_EQ(E("alert ip [1.1.1.1,!1.1.1.1] any -> any any (sid:1;)"), SIG_ERR_PARSE);
	CHECK_EQ(E("alert ip [1.1.1.1 any -> any any (sid:1;)"), SIG_ERR_PARSE);
}

TEST(header_address_vars_nested_negated_recursive)
{
	Signature *s = P("alert ip $EXTERNAL_NET any -> $WEB any (sid:1;)");

	CHECK(s);
	CHECK(!addrset_match_v4(&s->src, 0xc0a80101));   /* 192.168.1.1 is HOME */
	CHECK(addrset_match_v4(&s->src, 0x08080808));
	CHECK(addrset_match_v4(&s->dst, 0xc0a80201));    /* 192.168.2.1 */
	CHECK(!addrset_match_v4(&s->dst, 0xc0a80101));   /* cut out of WEB */
	CHECK(!addrset_match_v4(&s->dst, 0x08080808));
	sig_free(s);
	s = P("alert ip $NESTED any -> !$HOME_NET any (sid:1;)");
	CHECK(s);
	CHECK(addrset_match_v4(&s->src, 0x01010101));
	CHECK(!addrset_match_v4(&s->src, 0x02020202));
	sig_free(s);
	CHECK_EQ(E("alert ip $NOPE any -> any any (sid:1;)"), SIG_ERR_PARSE);
	CHECK(strstr(err, "unknown address variable $NOPE"));
	CHECK_EQ(E("alert ip $LOOP_A any -> any any (sid:1;)"), SIG_ERR_PARSE);
	CHECK(strstr(err, "nested"));
	CHECK_EQ(E("alert ip $HTTP_PORTS any -> any any (sid:1;)"), SIG_ERR_PARSE);
	CHECK(strstr(err, "port group"));
}

TEST(header_ports_ranges_lists_negation_vars)
{
	Signature *s = P("alert tcp any [1:10,!5,20] -> any $HIGH (sid:1;)");

	CHECK(s);
	CHECK(portset_match(&s->sp, 1));
	CHECK(!portset_match(&s->sp, 5));
	CHECK(portset_match(&s->sp, 20));
	CHECK(!portset_match(&s->sp, 11));
	CHECK(portset_match(&s->dp, 1024));
	CHECK(portset_match(&s->dp, 65535));
	CHECK(!portset_match(&s->dp, 1023));
	sig_free(s);
	s = P("alert tcp any :1023 -> any $FILE_DATA_PORTS (sid:1;)");
	CHECK(s);
	CHECK(portset_match(&s->sp, 0));
	CHECK(!portset_match(&s->sp, 1024));
	CHECK(portset_match(&s->dp, 8080));
	CHECK(portset_match(&s->dp, 143));
	CHECK(!portset_match(&s->dp, 81));
	sig_free(s);
	s = P("alert tcp any $SHELLCODE_PORTS -> any !80 (sid:1;)");
	CHECK(s);
	CHECK(!portset_match(&s->sp, 80));
	CHECK(portset_match(&s->sp, 81));
	sig_free(s);
	CHECK_EQ(E("alert tcp any 70000 -> any any (sid:1;)"), SIG_ERR_PARSE);
	CHECK_EQ(E("alert tcp any 10:5 -> any any (sid:1;)"), SIG_ERR_PARSE);
	CHECK_EQ(E("alert tcp any !any -> any any (sid:1;)"), SIG_ERR_PARSE);
	CHECK_EQ(E("alert tcp any $HOME_NET -> any any (sid:1;)"), SIG_ERR_PARSE);
}

/* ---- meta ---- */

TEST(meta_keywords_parse)
{
	Signature *s = P(R("msg:\"a \\\"q\\\" \\; b\"; sid:7; rev:3; gid:2; classtype:trojan-activity; "
			   "reference:url,example.com/x; reference:cve,2020-1; "
			   "metadata:created_at 2020_01_01, tag Foo; target:dest_ip; noalert;"));

	CHECK(s);
	CHECK_STREQ(s->msg, "a \"q\" ; b");
	CHECK_EQ(s->sid, 7);
	CHECK_EQ(s->rev, 3);
	CHECK_EQ(s->gid, 2);
	CHECK_STREQ(s->classtype, "trojan-activity");
	CHECK_EQ(s->priority, 1);
	CHECK_EQ(s->nrefs, 2);
	CHECK_STREQ(s->refs[0].type, "url");
	CHECK_STREQ(s->refs[0].value, "example.com/x");
	CHECK_EQ(s->nmeta, 2);
	CHECK_STREQ(s->meta[1].key, "tag");
	CHECK_STREQ(s->meta[1].value, "Foo");
	CHECK(s->flags & SIG_FLAG_TARGET_DST);
	CHECK(s->flags & SIG_FLAG_NOALERT);
	sig_free(s);
	s = P(R("classtype:misc-activity; priority:2; sid:1;"));
	CHECK(s);
	CHECK_EQ(s->priority, 2);
	CHECK(!(s->flags & SIG_FLAG_ALERT));
	sig_free(s);
	/* alert: a pass rule that alerts too ("alert then pass") */
	s = P("pass tcp any any -> any any (content:\"a\"; alert; sid:1;)");
	CHECK(s);
	CHECK(s->flags & SIG_FLAG_ALERT);
	CHECK(!(s->flags & SIG_FLAG_NOALERT));
	sig_free(s);
}

TEST(meta_keywords_errors)
{
	CHECK_EQ(E(R("sid:0;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("sid:abc;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("sid:1; sid:2;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("rev:x; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("gid:-1; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("classtype:nope; sid:1;")), SIG_ERR_PARSE);
	CHECK_STREQ(opaque(err), "unknown classtype \"nope\"");
	CHECK_EQ(E(R("priority:0; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("reference:nocomma; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("target:both; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("noalert:1; sid:1;")), SIG_ERR_PARSE);
	/* luaxform is a transform: it needs a sticky buffer before it */
	CHECK_EQ(E(R("luaxform:x.lua; sid:1;")), SIG_ERR_PARSE);
	CHECK_STREQ(opaque(err), "transforms must directly follow stickybuffers");
	CHECK_EQ(E(R("alert:1; sid:1;")), SIG_ERR_PARSE);
	/* Suricata's other families and transforms are skipped too; a name
	 * Suricata does not know either is an error, as there (-T fails) */
	CHECK_EQ(E(R("sctp.hdr; content:\"a\"; sid:1;")), SIG_ERR_UNSUPPORTED);
	CHECK_EQ(E(R("http.uri; subslice:1; content:\"a\"; sid:1;")), SIG_ERR_UNSUPPORTED);
	CHECK_EQ(E(R("contnet:\"a\"; sid:1;")), SIG_ERR_PARSE);
	CHECK_STREQ(opaque(err), "unknown rule keyword 'contnet'");
}

/* ---- content ---- */

TEST(content_hex_escapes_negation)
{
	Signature *s = P(R("content:\"a|3A 0d0a|b\\\"\\;\\\\\\:\"; content:!\"neg\"; sid:1;"));

	CHECK(s);
	CHECK_EQ(s->lists[BUF_PAYLOAD].n, 2);
	DetectContent *cd = C(s, BUF_PAYLOAD, 0);
	CHECK_EQ(cd->len, 9);
	CHECK(memcmp(cd->pat, "a:\r\nb\";\\:", 9) == 0);
	CHECK(C(s, BUF_PAYLOAD, 1)->flags & CONTENT_NEGATED);
	sig_free(s);
	CHECK_EQ(E(R("content:\"|3A|\"; content:\"|4|\"; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("content:\"|3A\"; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("content:\"|zz|\"; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("content:\"a\\nb\"; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("content:noquotes; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("content:\"\"; sid:1;")), SIG_ERR_PARSE);
}

TEST(content_modifiers_parse)
{
	Signature *s = P(R("content:\"abc\"; nocase; offset:2; depth:5; "
			   "content:\"de\"; distance:-1; within:4; "
			   "content:\"st\"; startswith; content:\"en\"; endswith; rawbytes; sid:1;"));

	CHECK(s);
	DetectContent *a = C(s, BUF_PAYLOAD, 0), *b = C(s, BUF_PAYLOAD, 1);
	CHECK(a->flags & CONTENT_NOCASE);
	CHECK_EQ(a->offset, 2);
	CHECK_EQ(a->depth, 7);           /* absolute: offset + depth */
	CHECK_EQ(b->distance, -1);
	CHECK_EQ(b->within, 4);
	CHECK(s->lists[BUF_PAYLOAD].m[0].relative_next);
	CHECK(C(s, BUF_PAYLOAD, 2)->flags & CONTENT_STARTSWITH);
	CHECK_EQ(C(s, BUF_PAYLOAD, 2)->depth, 2);
	CHECK(C(s, BUF_PAYLOAD, 3)->flags & CONTENT_ENDSWITH);
	CHECK(C(s, BUF_PAYLOAD, 3)->flags & CONTENT_RAWBYTES);
	sig_free(s);
	/* depth before offset gives the same absolute end */
	s = P(R("content:\"abc\"; depth:5; offset:2; sid:1;"));
	CHECK(s);
	CHECK_EQ(C(s, BUF_PAYLOAD, 0)->depth, 7);
	sig_free(s);
}

TEST(content_modifiers_errors)
{
	CHECK_EQ(E(R("content:\"abcdef\"; depth:3; sid:1;")), SIG_ERR_PARSE);
	CHECK(strstr(err, "depth 3 is smaller than the content length 6"));
	CHECK_EQ(E(R("content:\"abcdef\"; within:3; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("content:\"a\"; offset:1; distance:2; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("content:\"a\"; within:2; depth:4; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("content:\"a\"; offset:1; offset:2; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("content:\"a\"; nocase; nocase; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("nocase; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("depth:4; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("content:\"a\"; startswith; offset:1; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("content:\"a\"; depth:x; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("content:\"a\"; http_uri; rawbytes; sid:1;")), SIG_ERR_PARSE);
}

TEST(isdataat_and_dsize)
{
	Signature *s = P(R("content:\"a\"; isdataat:!10,relative; dsize:>5; sid:1;"));

	CHECK(s);
	CHECK_EQ(s->lists[BUF_PAYLOAD].n, 2);
	DetectIsdataat *id = s->lists[BUF_PAYLOAD].m[1].ctx;
	CHECK_EQ(id->dataat, 10);
	CHECK(id->flags & ISDATAAT_NEGATED);
	CHECK(id->flags & ISDATAAT_RELATIVE);
	CHECK(s->lists[BUF_PAYLOAD].m[0].relative_next);
	DetectUint *u = s->lists[SM_LIST_MATCH].m[0].ctx;
	CHECK_EQ(u->mode, UM_GT);
	CHECK_EQ(u->a, 5);
	sig_free(s);
	s = P(R("dsize:10<>20; sid:1;"));
	CHECK(s);
	u = s->lists[SM_LIST_MATCH].m[0].ctx;
	CHECK_EQ(u->mode, UM_RANGE);
	CHECK_EQ(u->b, 20);
	sig_free(s);
	CHECK_EQ(E(R("isdataat:abc; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("isdataat:5,sideways; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("dsize:70000; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("dsize:5; dsize:6; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("dsize:20<>10; sid:1;")), SIG_ERR_PARSE);
}

/* vlan.id's index, as Suricata 8's multi-integers: N from the outermost,
 * -N from the innermost, "any" (also the default) or "all". */
TEST(vlan_id_index_forms)
{
	static const struct { const char *arg; int layer; } ok[] = {
		{ "200", VLAN_LAYER_ANY }, { "200,any", VLAN_LAYER_ANY }, { "<30, all", VLAN_LAYER_ALL },
		{ "200,1", 1 }, { "200,-1", -1 },
	};
	char rule[128];

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		snprintf(rule, sizeof(rule), "alert ip any any -> any any (vlan.id:%s; sid:1;)", ok[i].arg);
		Signature *s = P(rule);

		CHECK(s);
		if (!s)
			continue;
		CHECK_EQ(s->lists[SM_LIST_MATCH].m[0].kw, KW_VLAN_ID);
		const DetectVlanId *v = s->lists[SM_LIST_MATCH].m[0].ctx;

		CHECK_EQ(v->layer, ok[i].layer);
		sig_free(s);
	}
	CHECK_EQ(E(R("vlan.id:200,some; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("vlan.id:4096; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("vlan.id:200,3; sid:1;")), SIG_ERR_PARSE);
}

static int64_t colour_by_name(const char *name)
{
	return !strcmp(name, "red") ? 1 : !strcmp(name, "blue") ? 7 : -1;
}

/* An enumerated integer: "[!]name" is (in)equality with its value, anything
 * else the integer syntax; an unknown name or a value over max is refused. */
TEST(enumerated_integers_take_names_and_negation)
{
	DetectUint u;

	CHECK_EQ(parse_uint_enum("red", 255, colour_by_name, &u), 0);
	CHECK_EQ(u.mode, UM_EQ);
	CHECK_EQ(u.a, 1);
	CHECK_EQ(parse_uint_enum(" ! blue ", 255, colour_by_name, &u), 0);
	CHECK_EQ(u.mode, UM_NE);
	CHECK_EQ(u.a, 7);
	CHECK_EQ(parse_uint_enum(">=3", 255, colour_by_name, &u), 0);
	CHECK_EQ(u.mode, UM_GTE);
	CHECK_EQ(parse_uint_enum("!3", 255, colour_by_name, &u), 0);
	CHECK_EQ(u.mode, UM_NE);
	CHECK(parse_uint_enum("green", 255, colour_by_name, &u) < 0);
	CHECK(parse_uint_enum("!", 255, colour_by_name, &u) < 0);
	CHECK(parse_uint_enum("blue", 5, colour_by_name, &u) < 0);
	CHECK(parse_uint_enum("!!red", 255, colour_by_name, &u) < 0);
	/* the keywords that take names: mqtt.type, websocket.opcode, ldap */
	CHECK_EQ(E("alert mqtt any any -> any any (mqtt.type:!PUBLISH; sid:1;)"), 0);
	CHECK_EQ(E("alert websocket any any -> any any (websocket.opcode:!ping; sid:1;)"), 0);
	CHECK_EQ(E("alert ldap any any -> any any (ldap.request.operation:!bind_request; sid:1;)"), 0);
	CHECK_EQ(E("alert ldap any any -> any any (ldap.responses.result_code:!success,all; sid:1;)"), 0);
	CHECK_EQ(E("alert ldap any any -> any any (ldap.responses.operation:>4,-1; sid:1;)"), 0);
	CHECK_EQ(E("alert mqtt any any -> any any (mqtt.type:!NOSUCH; sid:1;)"), SIG_ERR_PARSE);
}

/* Suricata 8's integers take a unit suffix, any case: kb/kib, mb/mib, gb/gib
 * (powers of 1024), in every comparison form; the max still applies. */
TEST(integer_values_take_units)
{
	static const struct { const char *arg; enum uint_mode mode; uint64_t a, b; } ok[] = {
		{ "1kb", UM_EQ, 1024, 0 },
		{ ">2KiB", UM_GT, 2048, 0 },
		{ "<=3mb", UM_LTE, 3u << 20, 0 },
		{ "!1MiB", UM_NE, 1u << 20, 0 },
		{ "1kb-2kb", UM_RANGE, 1024, 2048 },
		{ "1Gb<>2gib", UM_RANGE, 1ull << 30, 2ull << 30 },
		{ "&0xc0=0x80", UM_BAND_EQ, 0xc0, 0x80 },
		{ "0x1b", UM_EQ, 0x1b, 0 },
	};
	char rule[160];

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		snprintf(rule, sizeof(rule), "alert http any any -> any any (http.uri; bsize:%s; sid:1;)",
			 ok[i].arg);
		Signature *s = P(rule);

		CHECK(s);
		if (!s)
			continue;
		const DetectUint *u = NULL;

		for (int l = 0; l < SM_LIST_MAX && !u; l++)
			for (int m = 0; m < s->lists[l].n; m++)
				if (s->lists[l].m[m].kw == KW_BSIZE)
					u = s->lists[l].m[m].ctx;
		CHECK(u != NULL);
		if (u) {
			CHECK_EQ(u->mode, ok[i].mode);
			CHECK_EQ(u->a, ok[i].a);
			CHECK_EQ(u->b, ok[i].b);
		}
		sig_free(s);
	}
	CHECK_EQ(E(R("dsize:1kb; sid:1;")), 0);
	CHECK_EQ(E(R("dsize:64kb; sid:1;")), SIG_ERR_PARSE);   /* 65536 > u16 */
	CHECK_EQ(E(R("dsize:1tb; sid:1;")), SIG_ERR_PARSE);    /* no such unit */
	CHECK_EQ(E(R("dsize:kb; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("dsize:1 k b; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E("alert http any any -> any any (http.uri; bsize:17179869184gb; sid:1;)"),
		 SIG_ERR_PARSE);                                 /* 2^64 overflows */
}

/* engine-event:<full name>: decoder.* as decode-event, stream.* as
 * stream-event; anything else is an unknown event (the rule is skipped) */
TEST(engine_event_keyword_parse)
{
	Signature *s = P(R("engine-event:decoder.ipv4.hlen_too_small; sid:1;"));

	CHECK(s);
	CHECK_EQ(s->lists[SM_LIST_MATCH].m[0].kw, KW_DECODE_EVENT);
	sig_free(s);
	s = P(R("engine-event:stream.fin_but_no_session; sid:1;"));
	CHECK(s);
	CHECK_EQ(s->lists[SM_LIST_MATCH].m[0].kw, KW_STREAM_EVENT);
	sig_free(s);
	CHECK_EQ(E(R("engine-event:ipv4.hlen_too_small; sid:1;")), SIG_ERR_UNSUPPORTED);
	CHECK_EQ(E(R("engine-event:stream.nope; sid:1;")), SIG_ERR_UNSUPPORTED);
	CHECK_EQ(E(R("engine-event; sid:1;")), SIG_ERR_PARSE);
}

/* rpc:<program>[, <version>|*[, <procedure>|*]] (pkt-kw.c): a packet match;
 * the program must be a number, the rest a number or '*' */
TEST(rpc_keyword_parse)
{
	static const char *const good[] = { "rpc:100003,*,*;", "rpc:100000, 2, 3;",
					    "rpc:100005;", "rpc:100003,4;", "rpc:\"100003,*,1\";" };
	static const char *const bad[] = { "rpc:*;", "rpc:abc;", "rpc:1,2,3,4;", "rpc:1,x;",
					   "rpc:1,2,-3;", "rpc:4294967296;", "rpc;" };
	char r[128];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		snprintf(r, sizeof(r), "alert udp any any -> any any (%s sid:1;)", good[i]);
		Signature *s = P(r);

		CHECK(s);
		CHECK_EQ(s->lists[SM_LIST_MATCH].n, 1);
		CHECK_EQ(s->lists[SM_LIST_MATCH].m[0].kw, KW_RPC);
		sig_free(s);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(r, sizeof(r), "alert udp any any -> any any (%s sid:1;)", bad[i]);
		CHECK_EQ(E(r), SIG_ERR_PARSE);
	}
}

/* ---- fast pattern ---- */

TEST(fast_pattern_explicit_only_chop)
{
	Signature *s = P(R("content:\"longest-one\"; content:\"fp\"; fast_pattern; sid:1;"));

	CHECK(s);
	CHECK_EQ(s->fp_list, BUF_PAYLOAD);
	CHECK_EQ(s->fp_idx, 1);
	sig_free(s);
	s = P(R("content:\"abcdef\"; fast_pattern:2,3; sid:1;"));
	CHECK(s);
	CHECK(C(s, BUF_PAYLOAD, 0)->flags & CONTENT_FP_CHOP);
	CHECK_EQ(C(s, BUF_PAYLOAD, 0)->fp_chop_offset, 2);
	CHECK_EQ(C(s, BUF_PAYLOAD, 0)->fp_chop_len, 3);
	sig_free(s);
	s = P(R("content:\"abc\"; fast_pattern:only; sid:1;"));
	CHECK(s);
	CHECK(C(s, BUF_PAYLOAD, 0)->flags & CONTENT_FP_ONLY);
	sig_free(s);
	CHECK_EQ(E(R("content:\"abc\"; fast_pattern:2,3; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("content:\"a\"; fast_pattern; content:\"b\"; fast_pattern; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("content:!\"a\"; fast_pattern:only; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("content:\"a\"; fast_pattern:only; depth:3; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("content:!\"a\"; depth:3; fast_pattern; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("content:\"a\"; fast_pattern:bogus; sid:1;")), SIG_ERR_PARSE);
}

TEST(fast_pattern_auto_priority_length_negation)
{
	/* http_uri (priority 2) beats a longer payload content (3) */
	Signature *s = P(R("content:\"a-much-longer-payload\"; content:\"/x\"; http_uri; sid:1;"));

	CHECK(s);
	CHECK_EQ(s->fp_list, BUF_HTTP_URI);
	sig_free(s);
	/* http_method ranks below payload */
	s = P(R("content:\"GET\"; http_method; content:\"ab\"; sid:1;"));
	CHECK(s);
	CHECK_EQ(s->fp_list, BUF_PAYLOAD);
	sig_free(s);
	/* longest wins, ties go to the first, negated ignored */
	s = P(R("content:\"abc\"; content:!\"negated-long\"; content:\"xyz\"; content:\"ab\"; sid:1;"));
	CHECK(s);
	CHECK_EQ(s->fp_list, BUF_PAYLOAD);
	CHECK_EQ(s->fp_idx, 0);
	sig_free(s);
	/* only negated: negated is used */
	s = P(R("content:!\"x\"; content:!\"yy\"; sid:1;"));
	CHECK(s);
	CHECK_EQ(s->fp_idx, 1);
	sig_free(s);
	s = P(R("dsize:1; sid:1;"));
	CHECK(s);
	CHECK_EQ(s->fp_list, -1);
	sig_free(s);
}

/* ---- pcre ---- */

TEST(pcre_flags_and_buffers)
{
	Signature *s = P(R("content:\"a\"; pcre:\"/^b[0-9]+/Ri\"; pcre:!\"/q/U\"; sid:1;"));

	CHECK(s);
	CHECK_EQ(s->lists[BUF_PAYLOAD].n, 2);
	DetectPcre *pd = s->lists[BUF_PAYLOAD].m[1].pd;
	CHECK(pd->flags & PCRE_RELATIVE);
	CHECK(pd->flags & PCRE_CASELESS);
	CHECK(pd->code != NULL);
	CHECK(s->lists[BUF_PAYLOAD].m[0].relative_next);
	CHECK_EQ(s->lists[BUF_HTTP_URI].n, 1);
	CHECK(s->lists[BUF_HTTP_URI].m[0].pd->flags & PCRE_NEGATED);
	CHECK_EQ(s->alproto, ALPROTO_HTTP1);
	sig_free(s);
	const char *map = "UIHDMCSYPQVW";
	const int bufs[] = { BUF_HTTP_URI, BUF_HTTP_RAW_URI, BUF_HTTP_HEADER, BUF_HTTP_RAW_HEADER,
			     BUF_HTTP_METHOD, BUF_HTTP_COOKIE, BUF_HTTP_STAT_CODE,
			     BUF_HTTP_STAT_MSG, BUF_HTTP_CLIENT_BODY, BUF_FILE_DATA,
			     BUF_HTTP_USER_AGENT, BUF_HTTP_HOST };
	for (int i = 0; map[i]; i++) {
		char rule[128];

		snprintf(rule, sizeof(rule), R("pcre:\"/x/%c\"; sid:1;"), map[i]);
		s = P(rule);
		CHECK(s);
		CHECK_EQ(s->lists[bufs[i]].n, 1);
		sig_free(s);
	}
	s = P(R("pcre:\"/a/smxAEGO\"; sid:1;"));
	CHECK(s);
	sig_free(s);
	CHECK_EQ(E(R("pcre:\"/(unclosed/\"; sid:1;")), SIG_ERR_PARSE);
	CHECK(strstr(err, "pcre compile failed"));
	CHECK_EQ(E(R("pcre:\"/a/z\"; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("pcre:\"/a/UH\"; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("pcre:\"abc\"; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("http.uri; pcre:\"/a/H\"; sid:1;")), SIG_ERR_PARSE);
}

/* ---- byte keywords ---- */

TEST(byte_keywords_parse)
{
	Signature *s = P(R("content:\"a\"; byte_extract:2,0,len,relative,little; "
			   "byte_test:4,!>,len,0,relative,string,hex; "
			   "byte_jump:2,1,relative,multiplier 2,post_offset -1,align,from_beginning; "
			   "byte_math:bytes 2, offset 0, oper +, rvalue len, result sum, relative; "
			   "content:\"b\"; distance:len; sid:1;"));

	CHECK(s);
	CHECK_EQ(s->nvars, 2);
	CHECK_STREQ(s->vars[0], "len");
	SigMatchList *l = &s->lists[BUF_PAYLOAD];
	CHECK_EQ(l->n, 6);
	DetectByte *be = l->m[1].ctx, *bt = l->m[2].ctx, *bj = l->m[3].ctx, *bm = l->m[4].ctx;
	CHECK_EQ(be->nbytes, 2);
	CHECK(be->flags & BYTE_LITTLE);
	CHECK_EQ(be->var_idx, 0);
	CHECK_STREQ(bt->op, ">");
	CHECK(bt->flags & BYTE_NEGATED);
	CHECK(bt->flags & BYTE_VALUE_VAR);
	CHECK_EQ(bt->base, BASE_HEX);
	CHECK_EQ(bj->multiplier, 2);
	CHECK_EQ(bj->post_offset, -1);
	CHECK(bj->flags & BYTE_FROM_BEGIN);
	CHECK_STREQ(bm->op, "+");
	CHECK_EQ(bm->var_idx, 1);
	CHECK(l->m[5].cd->flags & CONTENT_DISTANCE_VAR);
	sig_free(s);
}

TEST(byte_keywords_errors)
{
	CHECK_EQ(E(R("byte_test:9,=,1,0; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("byte_test:4,~,1,0; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("byte_test:4,=,1; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("byte_test:4,=,nosuchvar,0; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("byte_test:4,=,1,0,big,little; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("byte_jump:4,0,from_beginning,from_end; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("byte_jump:4,0,wobble; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("byte_extract:2,0,5bad; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("byte_extract:2,0,v,align 3; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("byte_math:bytes 2, offset 0, oper %, rvalue 1, result r; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("byte_math:bytes 2, offset 0, oper +, rvalue 1; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("byte_math:bytes 2, offset 0, oper /, rvalue 0, result r; sid:1;")), SIG_ERR_PARSE);
}

/* ---- flow, flowbits, flowint, threshold ---- */

TEST(flow_keyword)
{
	Signature *s = P(R("flow:established,to_server,only_stream; sid:1;"));

	CHECK(s);
	DetectFlow *f = s->lists[SM_LIST_MATCH].m[0].ctx;
	CHECK_EQ(f->flags, FLOW_ESTABLISHED | FLOW_TOSERVER | FLOW_ONLY_STREAM);
	CHECK(s->flags & SIG_FLAG_TOSERVER);
	sig_free(s);
	s = P(R("flow:from_server,not_established,no_stream; sid:1;"));
	CHECK(s);
	CHECK(s->flags & SIG_FLAG_TOCLIENT);
	sig_free(s);
	s = P(R("flow:stateless; sid:1;"));
	CHECK(s);
	sig_free(s);
	CHECK_EQ(E(R("flow:to_server,to_client; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("flow:established,not_established; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("flow:only_stream,no_stream; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("flow:sideways; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("flow:to_server; flow:established; sid:1;")), SIG_ERR_PARSE);
	/* a response buffer cannot be seen to_server */
	CHECK_EQ(E(R("flow:to_server; content:\"200\"; http_stat_code; sid:1;")), SIG_ERR_PARSE);
}

TEST(flowbits_keyword)
{
	Signature *s = P(R("flowbits:isset,a|b; flowbits:set,c&d; flowbits:noalert; sid:1;"));

	CHECK(s);
	DetectFlowbits *fb = s->lists[SM_LIST_MATCH].m[0].ctx;
	CHECK_EQ(fb->cmd, FB_ISSET);
	CHECK(fb->or_group);
	CHECK_EQ(fb->n, 2);
	CHECK_STREQ(fb->names[1], "b");
	fb = s->lists[SM_LIST_POSTMATCH].m[0].ctx;
	CHECK_EQ(fb->cmd, FB_SET);
	CHECK_EQ(fb->n, 2);
	CHECK(s->flags & SIG_FLAG_NOALERT);
	sig_free(s);
	s = P(R("flowbits:isnotset,x; flowbits:unset,x; flowbits:toggle,y; sid:1;"));
	CHECK(s);
	CHECK_EQ(s->lists[SM_LIST_POSTMATCH].n, 2);
	sig_free(s);
	CHECK_EQ(E(R("flowbits:set; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("flowbits:flip,x; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("flowbits:set,a|b; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("flowbits:isset,a|b&c; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("flowbits:noalert,x; sid:1;")), SIG_ERR_PARSE);
}

TEST(flowint_keyword)
{
	Signature *s = P(R("flowint:cnt,+,1; flowint:cnt,>=,other; flowint:cnt,isset; sid:1;"));

	CHECK(s);
	DetectFlowint *fi = s->lists[SM_LIST_POSTMATCH].m[0].ctx;
	CHECK_EQ(fi->op, FI_ADD);
	CHECK_EQ(fi->value, 1);
	fi = s->lists[SM_LIST_MATCH].m[0].ctx;
	CHECK_EQ(fi->op, FI_GE);
	CHECK_STREQ(fi->value_var, "other");
	sig_free(s);
	CHECK_EQ(E(R("flowint:cnt,%,1; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("flowint:cnt,+; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("flowint:cnt,isset,1; sid:1;")), SIG_ERR_PARSE);
}

TEST(threshold_and_detection_filter)
{
	Signature *s = P(R("threshold: type both, track by_src, count 10, seconds 60; sid:1;"));

	CHECK(s);
	DetectThreshold *t = s->lists[SM_LIST_THRESHOLD].m[0].ctx;
	CHECK_EQ(t->type, THR_BOTH);
	CHECK_EQ(t->track, TRACK_SRC);
	CHECK_EQ(t->count, 10);
	CHECK_EQ(t->seconds, 60);
	sig_free(s);
	s = P(R("detection_filter:track by_dst, count 5, seconds 2; sid:1;"));
	CHECK(s);
	t = s->lists[SM_LIST_THRESHOLD].m[0].ctx;
	CHECK_EQ(t->type, THR_DETECTION_FILTER);
	CHECK_EQ(t->track, TRACK_DST);
	sig_free(s);
	CHECK_EQ(E(R("threshold: type limit, track by_src, count 1; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("threshold: type often, track by_src, count 1, seconds 1; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("threshold: type limit, track by_foo, count 1, seconds 1; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("detection_filter:type limit, track by_src, count 1, seconds 1; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("threshold: type limit, track by_src, count 1, seconds 1; "
		     "detection_filter:track by_src, count 1, seconds 1; sid:1;")), SIG_ERR_PARSE);
}

/* ---- ip / tcp / icmp ---- */

TEST(ip_keywords)
{
	Signature *s = P(R("ttl:<10; tos:!0x10; id:31337; ipopts:lsrr; fragbits:+M; "
			   "fragoffset:>0; ip_proto:!udp; sameip; sid:1;"));

	CHECK(s);
	SigMatchList *l = &s->lists[SM_LIST_MATCH];
	CHECK_EQ(l->n, 7);
	CHECK_EQ(((DetectUint *)l->m[0].ctx)->mode, UM_LT);
	CHECK_EQ(((DetectUint *)l->m[1].ctx)->a, 0x10);
	CHECK_EQ(((DetectUint *)l->m[1].ctx)->mode, UM_NE);
	CHECK_EQ(((DetectUint *)l->m[2].ctx)->a, 31337);
	CHECK_EQ(((DetectUint *)l->m[3].ctx)->a, 131);
	CHECK_EQ(((DetectFragbits *)l->m[4].ctx)->bits, 0x2000);
	CHECK_EQ(((DetectFragbits *)l->m[4].ctx)->modifier, FLAGS_MOD_PLUS);
	CHECK_EQ(((DetectIpProto *)l->m[6].ctx)->proto, 17);
	CHECK(s->flags & SIG_FLAG_SAMEIP);
	sig_free(s);
	s = P(R("ttl:10-20; sid:1;"));
	CHECK(s);
	CHECK_EQ(((DetectUint *)s->lists[SM_LIST_MATCH].m[0].ctx)->mode, UM_RANGE);
	sig_free(s);
	CHECK_EQ(E(R("ttl:300; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("tos:zz; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("id:70000; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("ipopts:bogus; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("fragbits:X; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("fragoffset:9000; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("ip_proto:nosuchproto; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("sameip:1; sid:1;")), SIG_ERR_PARSE);
}

TEST(tcp_keywords)
{
	Signature *s = P(R("flags:SA,12; seq:100; ack:0; window:!1024; sid:1;"));

	CHECK(s);
	SigMatchList *l = &s->lists[SM_LIST_MATCH];
	DetectTcpFlags *f = l->m[0].ctx;
	CHECK_EQ(f->flags, 0x12);
	CHECK_EQ(f->mask, 0xc0);
	CHECK_EQ(f->modifier, 0);
	CHECK_EQ(((DetectUint *)l->m[1].ctx)->a, 100);
	CHECK_EQ(((DetectUint *)l->m[3].ctx)->mode, UM_NE);
	sig_free(s);
	s = P(R("flags:!R; sid:1;"));
	CHECK(s);
	CHECK_EQ(((DetectTcpFlags *)s->lists[SM_LIST_MATCH].m[0].ctx)->modifier, FLAGS_MOD_NOT);
	sig_free(s);
	s = P(R("flags:S*; sid:1;"));
	CHECK(s);
	sig_free(s);
	CHECK_EQ(E(R("flags:SQ; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("flags:+*S; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("flags:0S; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("seq:-1; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("ack:x; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("window:70000; sid:1;")), SIG_ERR_PARSE);
}

TEST(icmp_keywords)
{
	Signature *s = P("alert icmp any any -> any any (itype:8; icode:>0; icmp_id:5; icmp_seq:7; sid:1;)");

	CHECK(s);
	SigMatchList *l = &s->lists[SM_LIST_MATCH];
	CHECK_EQ(l->n, 4);
	CHECK_EQ(((DetectUint *)l->m[0].ctx)->a, 8);
	CHECK_EQ(((DetectUint *)l->m[1].ctx)->mode, UM_GT);
	CHECK_EQ(((DetectUint *)l->m[3].ctx)->a, 7);
	sig_free(s);
	CHECK_EQ(E(R("itype:256; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("icode:x; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("icmp_id:<5; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("icmp_seq:65536; sid:1;")), SIG_ERR_PARSE);
}

TEST(icmpv6_mtu_is_a_u32_comparison)
{
	Signature *s = P("alert ipv6 any any -> any any (icmpv6.mtu:1000-1400; sid:1;)");

	CHECK(s);
	CHECK_EQ(s->lists[SM_LIST_MATCH].n, 1);
	CHECK_EQ(((DetectUint *)s->lists[SM_LIST_MATCH].m[0].ctx)->mode, UM_RANGE);
	sig_free(s);
	CHECK_EQ(E("alert ipv6 any any -> any any (icmpv6.mtu:4294967296; sid:1;)"), SIG_ERR_PARSE);
	CHECK_EQ(E("alert ipv6 any any -> any any (icmpv6.mtu:x; sid:1;)"), SIG_ERR_PARSE);
}

/* ---- http ---- */

TEST(http_modifiers_move_content)
{
	Signature *s = P(R("content:\"GET\"; http_method; content:\"/a\"; http_uri; "
			   "content:\"b\"; distance:0; http_uri; content:\"pay\"; sid:1;"));

	CHECK(s);
	CHECK_EQ(s->alproto, ALPROTO_HTTP1);
	CHECK_EQ(s->lists[BUF_HTTP_METHOD].n, 1);
	CHECK_EQ(s->lists[BUF_HTTP_URI].n, 2);
	CHECK_EQ(s->lists[BUF_PAYLOAD].n, 1);
	/* relative chains are per buffer */
	CHECK(s->lists[BUF_HTTP_URI].m[0].relative_next);
	sig_free(s);
	s = P(R("uricontent:\"/x.php\"; nocase; sid:1;"));
	CHECK(s);
	CHECK_EQ(s->lists[BUF_HTTP_URI].n, 1);
	CHECK(C(s, BUF_HTTP_URI, 0)->flags & CONTENT_NOCASE);
	sig_free(s);
	CHECK_EQ(E(R("http_uri; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("http.uri; content:\"a\"; http_header; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E("alert udp any any -> any any (content:\"a\"; http_uri; sid:1;)"), SIG_ERR_PARSE);
	CHECK_EQ(E(R("content:\"a\"; http_uri:x; sid:1;")), SIG_ERR_PARSE);
}

TEST(http_sticky_buffers_and_pkt_data)
{
	Signature *s = P(R("http.uri; content:\"/a\"; pcre:\"/b/R\"; http.header; content:\"H\"; "
			   "file_data; content:\"body\"; pkt_data; content:\"raw\"; "
			   "http_header_names; content:\"Host\"; urilen:>10; sid:1;"));

	CHECK(s);
	CHECK_EQ(s->lists[BUF_HTTP_URI].n, 3);   /* content, pcre, urilen */
	CHECK_EQ(s->lists[BUF_HTTP_HEADER].n, 1);
	CHECK_EQ(s->lists[BUF_FILE_DATA].n, 1);
	CHECK_EQ(s->lists[BUF_PAYLOAD].n, 1);
	CHECK_EQ(s->lists[BUF_HTTP_HEADER_NAMES].n, 1);
	sig_free(s);
	s = P(R("urilen:5<>10,raw; sid:1;"));
	CHECK(s);
	CHECK_EQ(s->lists[BUF_HTTP_RAW_URI].n, 1);
	sig_free(s);
	CHECK_EQ(E(R("urilen:5,cooked; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("http.uri:x; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E("alert icmp any any -> any any (http.uri; content:\"a\"; sid:1;)"), SIG_ERR_PARSE);
}

/* ---- option syntax ---- */

TEST(option_escaped_semicolon_and_case)
{
	Signature *s = P(R("MSG:\"a\\;b\"; content:\"x\\;y\"; Sid:5;"));

	CHECK(s);
	CHECK_STREQ(s->msg, "a;b");
	CHECK_EQ(C(s, BUF_PAYLOAD, 0)->len, 3);
	CHECK_EQ(s->sid, 5);
	sig_free(s);
	CHECK_EQ(E(R("msg:\"x\"; sid:1")), SIG_ERR_PARSE);
}

TEST(requires_checks_version_feature_keyword_first)
{
	Signature *s;

	/* this engine is 8.0.7 */
	s = P(R("requires: version >= 8; sid:1;"));
	CHECK(s);
	sig_free(s);
	s = P(R("content:\"a\"; requires: version >= 7.0.3 < 8 | >= 8.0, feature ja4; sid:1;"));
	CHECK(s);
	sig_free(s);
	CHECK_EQ(E(R("requires: version >= 8.0.8; sid:1;")), SIG_ERR_UNSUPPORTED);
	CHECK_EQ(E(R("requires: version < 8; sid:1;")), SIG_ERR_UNSUPPORTED);
	CHECK_EQ(E(R("requires: keyword http.uri, keyword no.such.kw; sid:1;")),
		 SIG_ERR_UNSUPPORTED);
	/* an unknown requirement skips the rule (Suricata 8) */
	CHECK_EQ(E(R("requires: foo bar; sid:1;")), SIG_ERR_UNSUPPORTED);
	/* checked before the other options: a later engine's keyword does
	 * not make the rule fail */
	CHECK_EQ(E(R("future.kw; requires: version >= 9; sid:1;")), SIG_ERR_UNSUPPORTED);
	CHECK_EQ(E(R("future.kw; requires: version >= 8; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("requires: version >= x; sid:1;")), SIG_ERR_PARSE);
}

/* ---- loading ---- */

static RuleLoadConfig quiet_cfg(void)
{
	static char cls[1024];   /* test_data_path() reuses one buffer */
	RuleLoadConfig c = { 0 };

	snprintf(cls, sizeof(cls), "%s", test_data_path("data/rules/classification.config"));
	c.quiet = 1;
	c.classification_file = cls;
	return c;
}

TEST(load_files_comments_continuation_missing_file)
{
	RuleLoadConfig cfg = quiet_cfg();
	char dir[1024];
	SigTable *t;

	setup();
	snprintf(dir, sizeof(dir), "%s", test_data_path("data/rules"));
	cfg.rule_path = dir;
	t = sig_load(&cfg, err, sizeof(err));   /* rule-files from vars.yaml */
	CHECK(t);
	CHECK_EQ(t->loaded, 3);
	CHECK_EQ(t->failed, 0);
	CHECK_EQ(t->files_loaded, 1);
	CHECK_EQ(t->files_failed, 1);          /* missing.rules: reported, not fatal */
	CHECK_EQ(t->sigs[1]->sid, 2);
	CHECK_EQ(t->sigs[1]->line, 5);         /* first line of the continued rule */
	CHECK_STREQ(t->sigs[1]->msg, "two, continued");
	CHECK_EQ(C(t->sigs[1], BUF_PAYLOAD, 0)->depth, 2);
	sig_table_free(t);
}

TEST(load_duplicate_sid_higher_rev_replaces)
{
	RuleLoadConfig cfg = quiet_cfg();
	char path[] = "/tmp/test-dup-rev-XXXXXX";
	int fd = mkstemp(path);
	static const char rules[] =
		"alert tcp any any -> any any (msg:\"one\"; sid:7; rev:1;)\n"
		"alert tcp any any -> any any (msg:\"two\"; sid:7; rev:2;)\n"
		"alert tcp any any -> any any (msg:\"old\"; sid:7; rev:1;)\n";
	SigTable *t;

	CHECK(fd >= 0);
	CHECK_EQ(write(fd, rules, sizeof(rules) - 1), (long)(sizeof(rules) - 1));
	close(fd);
	setup();
	cfg.exclusive = path;
	t = sig_load(&cfg, err, sizeof(err));
	unlink(path);
	CHECK(t);
	/* rev 2 took rev 1's place; a lower rev after it is a duplicate */
	CHECK_EQ(t->loaded, 1);
	CHECK_EQ(t->nsigs, 1);
	CHECK_EQ(t->failed, 1);
	CHECK_EQ(t->sigs[0]->rev, 2);
	CHECK_STREQ(t->sigs[0]->msg, "two");
	CHECK_EQ(t->sigs[0]->line, 2);
	sig_table_free(t);
}

TEST(load_exclusive_and_extra)
{
	RuleLoadConfig cfg = quiet_cfg();
	char good[1024], mixed[1024];
	SigTable *t;

	setup();
	snprintf(good, sizeof(good), "%s", test_data_path("data/rules/good.rules"));
	snprintf(mixed, sizeof(mixed), "%s", test_data_path("data/rules/mixed.rules"));
	cfg.exclusive = mixed;
	cfg.extra = good;                      /* ignored with -S */
	t = sig_load(&cfg, err, sizeof(err));
	CHECK(t);
	CHECK_EQ(t->files_loaded, 1);
	CHECK_EQ(t->loaded, 2);
	sig_table_free(t);
	cfg.exclusive = NULL;
	cfg.rule_path = NULL;
	const char *files[] = { mixed };
	cfg.files = files;
	cfg.nfiles = 1;
	t = sig_load(&cfg, err, sizeof(err));
	CHECK(t);
	CHECK_EQ(t->files_loaded, 2);
	CHECK_EQ(t->loaded, 5);
	sig_table_free(t);
	cfg.files = NULL;
	cfg.nfiles = 0;
	cfg.exclusive = "/nonexistent/x.rules";
	t = sig_load(&cfg, err, sizeof(err));
	CHECK(!t);
	CHECK(strstr(err, "cannot read rule file"));
}

TEST(load_counts_failed_skipped_duplicate_and_summary)
{
	RuleLoadConfig cfg = quiet_cfg();
	char mixed[1024], *buf = NULL;
	size_t len = 0;
	FILE *f;
	SigTable *t;

	setup();
	snprintf(mixed, sizeof(mixed), "%s", test_data_path("data/rules/mixed.rules"));
	cfg.exclusive = mixed;
	t = sig_load(&cfg, err, sizeof(err));
	CHECK(t);
	CHECK_EQ(t->loaded, 2);
	CHECK_EQ(t->failed, 3);                /* bad depth, duplicate, no sid */
	CHECK_EQ(t->skipped, 3);               /* template, sctp.hdr, nntp */
	f = open_memstream(&buf, &len);
	sig_load_summary_print(t, f);
	fclose(f);
	CHECK(strstr(buf, "2 rules loaded, 3 failed, 3 skipped\n"));
	CHECK(strstr(buf, "skipped: unsupported keyword sctp.hdr \xc3\x97" "1\n"));
	CHECK(strstr(buf, "skipped: unsupported protocol template \xc3\x97" "1\n"));
	free(buf);
	sig_table_free(t);
}

TEST(error_line_format_and_fatal_mode)
{
	RuleLoadConfig cfg = quiet_cfg();
	char mixed[1024], want[1200];
	SigTable *t;

	sig_format_error(want, sizeof(want), "a.rules", 3, "depth 3 is smaller", 12);
	CHECK_STREQ(opaque(want), "a.rules:3: depth 3 is smaller (sid 12)");
	sig_format_error(want, sizeof(want), "a.rules", 6, "signature has no sid", -1);
	CHECK_STREQ(opaque(want), "a.rules:6: signature has no sid");

	setup();
	snprintf(mixed, sizeof(mixed), "%s", test_data_path("data/rules/mixed.rules"));
	cfg.exclusive = mixed;
	cfg.init_errors_fatal = 1;
	t = sig_load(&cfg, err, sizeof(err));
	CHECK(!t);
	/* the first problem is line 2: an unsupported protocol */
	snprintf(want, sizeof(want), "%s:2: unsupported protocol template (sid 11)", mixed);
	CHECK_STREQ(opaque(err), opaque(want));

	t = sig_table_new();
	RuleLoadConfig c2 = quiet_cfg();
	c2.init_errors_fatal = 1;
	CHECK_EQ(sig_load_string(t, "alert tcp any any -> any any (content:\"abcd\"; depth:2; sid:9;)\n",
				 "x.rules", &c2, err, sizeof(err)), -1);
	CHECK_STREQ(opaque(err), "x.rules:1: depth 2 is smaller than the content length 4 (sid 9)");
	sig_table_free(t);
}

TEST(classification_and_reference_files)
{
	DetectContext c = { 0 };
	char e[256];

	CHECK_EQ(detect_load_classifications(&c, test_data_path("data/rules/classification.config"),
					     e, sizeof(e)), 0);
	CHECK_EQ(c.nclasses, 3);
	CHECK_EQ(detect_find_class(&c, "misc-activity")->priority, 3);
	CHECK(!detect_find_class(&c, "nope"));
	CHECK_EQ(detect_load_references(&c, test_data_path("data/rules/reference.config"),
					e, sizeof(e)), 0);
	CHECK_EQ(c.nrefs, 2);
	CHECK_STREQ(c.ref_types[1], "cve");
	CHECK_EQ(detect_load_classifications(&c, test_data_path("data/rules/good.rules"),
					     e, sizeof(e)), -1);
	CHECK(strstr(e, ":2: invalid classification line"));
	CHECK_EQ(detect_load_classifications(&c, "/nonexistent", e, sizeof(e)), -1);
	detect_context_free(&c);
}

TEST(list_keywords_names_supported_ones)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	keywords_list(f);
	fclose(f);
	CHECK(strstr(buf, "content:\n"));
	CHECK(strstr(buf, "byte_math:\n"));
	CHECK(strstr(buf, "http.uri:\n"));
	CHECK(strstr(buf, "tls.sni:\n"));
	CHECK(strstr(buf, "ssh.software:\n"));
	CHECK(strstr(buf, "ftp.command:\n"));
	CHECK(strstr(buf, "krb5_cname:\n"));
	CHECK(strstr(buf, "luaxform:\n"));
	free(buf);
}

/* The whole ET Open 4.0 set: every active rule is loaded, failed or skipped
 * with a reason, and nothing crashes. Skipped where the data is absent. */
TEST(et_open_rules_all_accounted)
{
	const char *dirs[] = { "../../shared/data/rules/et-open-4.0", "/work/shared/data/rules/et-open-4.0" };
	char pat[1200], cls[1200], e[256];
	glob_t g = { 0 };
	int found = 0;

	for (size_t i = 0; i < 2 && !found; i++) {
		const char *d = dirs[i][0] == '/' ? dirs[i] : test_data_path(dirs[i]);

		snprintf(pat, sizeof(pat), "%s/emerging-*.rules", d);
		snprintf(cls, sizeof(cls), "%s/classification.config", d);
		if (glob(pat, 0, NULL, &g) == 0 && g.gl_pathc > 0)
			found = 1;
		else
			globfree(&g);
	}
	if (!found) {
		printf("  (ET Open rules not present: skipped)\n");
		return;
	}
	conf_deinit();
	CHECK_EQ(conf_load_file(test_data_path("data/rules/et-vars.yaml"), e, sizeof(e)), 0);
	RuleLoadConfig cfg = { 0 };
	cfg.quiet = 1;
	cfg.files = (const char *const *)g.gl_pathv;
	cfg.nfiles = (int)g.gl_pathc;
	cfg.classification_file = cls;
	SigTable *t = sig_load(&cfg, err, sizeof(err));
	globfree(&g);
	conf_deinit();
	CHECK(t);
	sig_load_summary_print(t, stdout);
	printf("  load time %.3f s\n", t->load_seconds);
	CHECK_EQ(t->loaded + t->failed + t->skipped, 18220);
	CHECK(t->loaded > 16000);
	/* at most 9 skipped (5 file rules on protocols without files, 4
	 * asn1): the 29 "alert smb" rules load since SMB is a protocol */
	CHECK(t->skipped <= 9);
	/* the five Suricata 8 itself rejects (four unknown classtypes and a
	 * double threshold), no more: suricata-update's -T step passes with
	 * those disabled */
	CHECK_EQ(t->failed, 5);
	/* asn1 (4 rules) and the smtp file_data rules (5) load (issue #14) */
	for (int i = 0; i < t->nreasons; i++) {
		CHECK(!strstr(t->reasons[i].reason, "asn1"));
		CHECK(!strstr(t->reasons[i].reason, "file keywords"));
	}
	sig_table_free(t);
}

/* ---- stream keywords ---- */

TEST(stream_size_and_stream_event_parse)
{
	Signature *s = P(R("stream_size:server,<,1111; stream-event:stream.pkt_retransmission; "
			   "sid:1;"));

	CHECK(s);
	CHECK_EQ(s->lists[SM_LIST_MATCH].n, 2);
	CHECK_EQ(s->lists[SM_LIST_MATCH].m[0].kw, KW_STREAM_SIZE);
	DetectStreamSize *ss = s->lists[SM_LIST_MATCH].m[0].ctx;
	CHECK_EQ(ss->u.mode, UM_LT);
	CHECK_EQ(ss->u.a, 1111);
	CHECK_EQ(s->lists[SM_LIST_MATCH].m[1].kw, KW_STREAM_EVENT);
	sig_free(s);
	s = P(R("stream_size: either , != , 0; stream-event:reassembly_seq_gap; sid:1;"));
	CHECK(s);
	ss = s->lists[SM_LIST_MATCH].m[0].ctx;
	CHECK_EQ(ss->u.mode, UM_NE);
	sig_free(s);
	CHECK_EQ(E(R("stream_size:server,<>,5; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("stream_size:nobody,<,5; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("stream_size:server,<; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("stream_size:client,>,5000000000; sid:1;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("stream-event:no_such_event; sid:1;")), SIG_ERR_UNSUPPORTED);
}

/* Issue #17: the rule file was handled as a C string, so a NUL byte hid
 * every rule after it (25 of 50 lost). The rule with the NUL is a bad rule
 * at its line; the rest load. */
TEST(load_rule_file_with_nul_byte_keeps_later_rules)
{
	RuleLoadConfig cfg = quiet_cfg();
	char path[] = "/tmp/nul-rules-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;
	SigTable *t;

	CHECK(fd >= 0);
	f = fdopen(fd, "w");
	CHECK(f);
	for (int i = 1; i <= 50; i++) {
		if (i == 26)
			fprintf(f, "alert udp any any -> any any (msg:\"r%d\"; con%ctent:\"x\"; sid:%d;)\n",
				i, 0, i);
		else
			fprintf(f, "alert udp any any -> any any (msg:\"r%d\"; content:\"x\"; sid:%d;)\n",
				i, i);
	}
	{
		static const char c[] = "# a comment with a NUL \0 is still a comment\n";

		fwrite(c, 1, sizeof(c) - 1, f);
	}
	fclose(f);
	setup();
	cfg.exclusive = path;
	t = sig_load(&cfg, err, sizeof(err));
	unlink(path);
	CHECK(t);
	CHECK_EQ(t->loaded, 49);
	CHECK_EQ(t->failed, 1);
	CHECK_EQ(t->sigs[t->nsigs - 1]->sid, 50);
	CHECK_EQ(t->sigs[t->nsigs - 1]->line, 50);
	sig_table_free(t);

	/* --init-errors-fatal: the NUL line is the error */
	strcpy(path, "/tmp/nul-rules-XXXXXX");
	fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK(write(fd, "alert udp any any -> any any (sid:1;)\n\0alert udp any any -> any any (sid:2;)\n",
		    77) == 77);
	close(fd);
	cfg.init_errors_fatal = 1;
	t = sig_load(&cfg, err, sizeof(err));
	unlink(path);
	CHECK(!t);
	CHECK(strstr(err, ":2: rule contains a NUL byte (sid 2)"));
}

/* Issue #17: -S on a folder sized a malloc from ftell() (LONG_MAX). */
TEST(load_exclusive_folder_is_a_clear_error)
{
	RuleLoadConfig cfg = quiet_cfg();
	SigTable *t;

	setup();
	cfg.exclusive = "/tmp";
	t = sig_load(&cfg, err, sizeof(err));
	CHECK(!t);
	CHECK(strcmp(err, "/tmp: cannot read rule file: Is a directory") == 0);
	/* /dev/null: a readable file with no rules, 0 loaded (a warning in a run) */
	cfg.exclusive = "/dev/null";
	t = sig_load(&cfg, err, sizeof(err));
	CHECK(t);
	CHECK_EQ(t->loaded, 0);
	CHECK_EQ(t->files_loaded, 1);
	sig_table_free(t);
}

/* Issue 43: -S /dev/zero grew to 2.5 GB, -S FIFO blocked forever: only
 * regular files (and /dev/null) up to 1 GiB are read, refused in one line */
TEST(load_exclusive_fifo_device_and_huge_file_are_refused)
{
	RuleLoadConfig cfg = quiet_cfg();
	char path[128], want[256];
	SigTable *t;
	int fd;

	setup();
	cfg.exclusive = "/dev/zero";
	t = sig_load(&cfg, err, sizeof(err));
	CHECK(!t);
	CHECK_STREQ(err, "/dev/zero: cannot read rule file: not a regular file (a character device)");
	/* a FIFO with no writer: refused at once, not waited on */
	snprintf(path, sizeof(path), "/tmp/test-rules-fifo-%d", (int)getpid());
	unlink(path);
	CHECK(mkfifo(path, 0600) == 0);
	cfg.exclusive = path;
	t = sig_load(&cfg, err, sizeof(err));
	CHECK(!t);
	snprintf(want, sizeof(want), "%s: cannot read rule file: not a regular file (a FIFO)", path);
	CHECK_STREQ(err, want);
	unlink(path);
	/* over 1 GiB (sparse: no disk used) */
	snprintf(path, sizeof(path), "/tmp/test-rules-big-%d", (int)getpid());
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0);
	CHECK(ftruncate(fd, ((off_t)1 << 30) + 1) == 0);
	close(fd);
	t = sig_load(&cfg, err, sizeof(err));
	CHECK(!t);
	snprintf(want, sizeof(want), "%s: cannot read rule file: larger than 1 GiB (1073741825 bytes)",
		 path);
	CHECK_STREQ(err, want);
	unlink(path);
}

/* frame:<proto>.<type>: the rule's protocol's own name first, else the
 * protocol before the first dot; frames we do not make skip the rule */
TEST(frame_keyword_names_and_buffer)
{
	Signature *s = P("alert smb any any -> any any (frame:smb2.data; content:\"wnwk\"; sid:1;)");

	CHECK(s != NULL);
	if (s) {
		CHECK(s->has_frame);
		CHECK_EQ(s->frame_alproto, ALPROTO_SMB);
		CHECK_EQ(s->lists[BUF_FRAME].n, 1);
		CHECK_EQ(s->lists[BUF_PAYLOAD].n, 0);
		sig_free(s);
	}
	s = P("alert tcp any any -> any any (frame:dns.pdu; content:\"|01 20|\"; offset:2; sid:2;)");
	CHECK(s != NULL);
	if (s) {
		CHECK_EQ(s->frame_alproto, ALPROTO_DNS);
		CHECK_EQ(s->alproto, ALPROTO_UNKNOWN);
		sig_free(s);
	}
	/* HTTP/1 has frames since Suricata 8: request and response only */
	s = P("alert http any any -> any any (frame:http1.request; content:\"a\"; sid:3;)");
	CHECK(s != NULL);
	if (s)
		sig_free(s);
	CHECK_EQ(E("alert http any any -> any any (frame:http1.request_line; content:\"a\"; sid:6;)"),
		 SIG_ERR_UNSUPPORTED);
	CHECK_EQ(E("alert tcp any any -> any any (frame:nosuch.pdu; content:\"a\"; sid:4;)"),
		 SIG_ERR_UNSUPPORTED);
	CHECK_EQ(E("alert dns any any -> any any (frame:smb.pdu; content:\"a\"; sid:5;)"),
		 SIG_ERR_PARSE);
	CHECK_EQ(E("alert smb any any -> any any (frame:smb2.hdr; frame:smb2.data; sid:6;)"),
		 SIG_ERR_PARSE);
}

/* Start-up's variable check (rule_vars_check): every variable of both
 * sections parsed once; the first bad one named with its value. */
TEST(vars_check_names_the_bad_variable)
{
	char e[512];
	static const char good[] = "vars:\n  address-groups:\n    HOME_NET: \"[10.0.0.0/8]\"\n"
				   "    EXTERNAL_NET: \"!$HOME_NET\"\n  port-groups:\n"
				   "    HTTP_PORTS: \"[80,8080]\"\n";

	conf_deinit();
	CHECK_EQ(conf_load_string(good, "good.yaml", e, sizeof(e)), 0);
	CHECK_EQ(rule_vars_check("good.yaml", e, sizeof(e)), 0);
	conf_deinit();
	CHECK_EQ(conf_load_string("vars:\n  address-groups:\n    HOME_NET: \"[10.0.0.0/8\"\n",
				  "a.yaml", e, sizeof(e)), 0);
	CHECK_EQ(rule_vars_check("a.yaml", e, sizeof(e)), -1);
	CHECK(strstr(e, "a.yaml: failed to parse address var \"HOME_NET\" with value "
			"\"[10.0.0.0/8\"") != NULL);
	conf_deinit();
	CHECK_EQ(conf_load_string("vars:\n  port-groups:\n    HTTP_PORTS: \"8O\"\n", "p.yaml", e,
				  sizeof(e)), 0);
	CHECK_EQ(rule_vars_check("p.yaml", e, sizeof(e)), -1);
	CHECK(strstr(e, "failed to parse port var \"HTTP_PORTS\" with value \"8O\"") != NULL);
	conf_deinit();
	CHECK_EQ(conf_load_string("vars:\n  address-groups:\n    HOME_NET: [10.0.0.0/8]\n",
				  "l.yaml", e, sizeof(e)), 0);
	CHECK_EQ(rule_vars_check("l.yaml", e, sizeof(e)), -1);
	CHECK(strstr(e, "probably has a sequence") != NULL);
	conf_deinit();
	setup();
}

/* ---- Suricata 8 grammar that 4.x-era parsing refused (issue 38) ---- */

/* numbers are decimal or 0x, never octal: sid:09901001 is 9901001 */
TEST(numbers_decimal_with_leading_zero_or_hex)
{
	Signature *s = P(R("sid:09901001;"));

	CHECK(s);
	if (s)
		CHECK_EQ(s->sid, 9901001u);
	sig_free(s);
	s = P(R("content:\"a\"; offset:010; sid:0x10;"));
	CHECK(s);
	if (s) {
		CHECK_EQ(s->sid, 16u);
		CHECK_EQ(C(s, BUF_PAYLOAD, 0)->offset, 10);
	}
	sig_free(s);
	CHECK_EQ(E(R("sid:09z;")), SIG_ERR_PARSE);
}

/* Suricata 8's integer forms: =N, !=N, &mask=value, &mask!=value */
TEST(integer_keyword_forms_eq_ne_bitmask)
{
	Signature *s = P("alert icmp any any -> any any (itype:!=0; icode:=3; ttl:&0xc0=0x40; sid:1;)");
	const DetectUint *u;

	CHECK(s);
	if (!s)
		return;
	CHECK_EQ(s->lists[SM_LIST_MATCH].n, 3);
	u = s->lists[SM_LIST_MATCH].m[0].ctx;
	CHECK_EQ(u->mode, UM_NE);
	CHECK_EQ(u->a, 0u);
	u = s->lists[SM_LIST_MATCH].m[1].ctx;
	CHECK_EQ(u->mode, UM_EQ);
	CHECK_EQ(u->a, 3u);
	u = s->lists[SM_LIST_MATCH].m[2].ctx;
	CHECK_EQ(u->mode, UM_BAND_EQ);
	CHECK_EQ(u->a, 0xc0u);
	CHECK_EQ(u->b, 0x40u);
	sig_free(s);
	CHECK_EQ(E("alert icmp any any -> any any (itype:&0xc0; sid:1;)"), SIG_ERR_PARSE);
	CHECK_EQ(E("alert icmp any any -> any any (itype:!=300; sid:1;)"), SIG_ERR_PARSE);
	CHECK_EQ(E("alert ftp any any -> any any (ftp.dynamic_port:=21; sid:1;)"), 0);
}

/* byte_test/byte_jump: an offset past any buffer loads (and never
 * matches); nbytes may be a byte_extract variable */
TEST(byte_far_offset_and_variable_nbytes)
{
	Signature *s = P(R("byte_test:1,=,1,214748364; sid:1;"));

	CHECK(s);
	sig_free(s);
	s = P(R("byte_extract:1,0,v; byte_jump:v,0; byte_test:v,=,1,0,relative; sid:2;"));
	CHECK(s);
	if (s) {
		const DetectByte *b = s->lists[BUF_PAYLOAD].m[1].ctx;

		CHECK(b->flags & BYTE_NBYTES_VAR);
	}
	sig_free(s);
	CHECK_EQ(E(R("byte_jump:w,0; sid:3;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("byte_test:1,=,1,3000000000; sid:4;")), SIG_ERR_PARSE);
}

/* startswith on a negated content: "does not start with" */
TEST(startswith_on_negated_content)
{
	Signature *s = P(R("content:!\"x\"; startswith; sid:1;"));

	CHECK(s);
	if (s) {
		CHECK(C(s, BUF_PAYLOAD, 0)->flags & CONTENT_NEGATED);
		CHECK(C(s, BUF_PAYLOAD, 0)->flags & CONTENT_STARTSWITH);
	}
	sig_free(s);
}

/* pcre captures kept as variables: named groups and the list after ',' */
TEST(pcre_captures_and_var_keywords)
{
	Signature *s = P(R("pcre:\"/^(.*)\\/(\\d+)/V, flow:key,pkt:value\"; sid:1;"));

	CHECK(s);
	if (s) {
		const DetectPcre *pd = s->lists[BUF_HTTP_USER_AGENT].m[0].ctx;

		CHECK_EQ(pd->ncaps, 2);
		CHECK_EQ(pd->caps[0].group, 1);
		CHECK_EQ(pd->caps[0].flow, 1);
		CHECK_STREQ(pd->caps[0].name, "key");
		CHECK_EQ(pd->caps[1].group, 2);
		CHECK_EQ(pd->caps[1].flow, 0);
	}
	sig_free(s);
	s = P(R("pcre:\"/(?P<flow_x>a)(?P<pkt_y>b)/\"; flowvar:x,\"a\"; pktvar:y,\"b\"; sid:2;"));
	CHECK(s);
	if (s) {
		CHECK_EQ(s->lists[BUF_PAYLOAD].m[0].pd->ncaps, 2);
		CHECK_EQ(s->lists[SM_LIST_MATCH].n, 2);
	}
	sig_free(s);
	CHECK_EQ(E(R("pcre:\"/a/,\"; sid:3;")), 0);
	CHECK_EQ(E(R("pcre:\"/(a)/, host:x\"; sid:4;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("flowvar:x; sid:5;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("pktvar:x,!\"a\"; sid:6;")), SIG_ERR_PARSE);
}

/* hostbits with track, hostbits:noalert, xbits (track required) */
TEST(hostbits_track_and_xbits)
{
	Signature *s = P(R("hostbits:set,foo,track ip_dst; hostbits:noalert; sid:1;"));

	CHECK(s);
	if (s) {
		const DetectFlowbits *fb = s->lists[SM_LIST_POSTMATCH].m[0].ctx;

		CHECK_EQ(fb->host_dir, HOSTBITS_DST);
		CHECK(s->flags & SIG_FLAG_NOALERT);
	}
	sig_free(s);
	s = P(R("xbits:isset,foo,track ip_pair,expire 60; sid:2;"));
	CHECK(s);
	if (s) {
		const DetectFlowbits *fb = s->lists[SM_LIST_MATCH].m[0].ctx;

		CHECK_EQ(s->lists[SM_LIST_MATCH].m[0].kw, KW_HOSTBITS);
		CHECK_EQ(fb->host_dir, HOSTBITS_PAIR);
	}
	sig_free(s);
	CHECK_EQ(E(R("xbits:set,foo; sid:3;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("xbits:set,foo,track ip_any; sid:4;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("xbits:set,foo,track tx; sid:5;")), SIG_ERR_UNSUPPORTED);
}

/* config action and keyword, bypass, replace */
TEST(config_bypass_replace)
{
	Signature *s = P("config dns any any -> any any (dns.query; content:\"x\"; "
			 "config: logging disable, type tx, scope tx; sid:1;)");

	CHECK(s);
	if (s) {
		CHECK_EQ(s->action, ACT_CONFIG);
		CHECK(s->flags & SIG_FLAG_NOALERT);
	}
	sig_free(s);
	CHECK_EQ(E(R("config: logging enable, type tx, scope tx; sid:2;")), SIG_ERR_PARSE);
	s = P(R("content:\"x\"; bypass; sid:3;"));
	CHECK(s);
	if (s)
		CHECK_EQ(s->lists[SM_LIST_POSTMATCH].m[0].kw, KW_BYPASS);
	sig_free(s);
	s = P(R("content:\"abc\"; replace:\"d|65|f\"; sid:4;"));
	CHECK(s);
	if (s) {
		CHECK_EQ(s->nrepl, 1);
		CHECK_EQ(s->repl[0].len, 3);
		CHECK(!memcmp(s->repl[0].bytes, "def", 3));
	}
	sig_free(s);
	CHECK_EQ(E(R("content:\"abc\"; replace:\"de\"; sid:5;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("content:!\"abc\"; replace:\"def\"; sid:6;")), SIG_ERR_PARSE);
	CHECK_EQ(E("alert http any any -> any any (http.uri; content:\"abc\"; replace:\"def\"; sid:7;)"),
		 SIG_ERR_PARSE);
}

/* absent heads its sticky buffer's list; alone unless or_else; never the
 * fast pattern (the rule must match without the buffer) */
TEST(absent_keyword)
{
	Signature *s = P("alert http any any -> any any (http.referer; absent; sid:1;)");

	CHECK(s);
	if (s)
		CHECK(sig_list_absent(s, BUF_HTTP_REFERER));
	sig_free(s);
	s = P("alert http any any -> any any (http.user_agent; absent: or_else; content:\"foo\"; sid:2;)");
	CHECK(s);
	if (s) {
		CHECK(sig_list_absent(s, BUF_HTTP_USER_AGENT));
		CHECK_EQ(s->fp_list, -1);
	}
	sig_free(s);
	CHECK_EQ(E("alert http any any -> any any (http.referer; absent; content:\"x\"; sid:3;)"),
		 SIG_ERR_PARSE);
	CHECK_EQ(E("alert http any any -> any any (http.referer; content:\"x\"; absent; sid:4;)"),
		 SIG_ERR_PARSE);
	CHECK_EQ(E(R("absent; sid:5;")), SIG_ERR_PARSE);
	CHECK_EQ(E("alert http any any -> any any (http.referer; absent: maybe; sid:6;)"),
		 SIG_ERR_PARSE);
}

/* => rules name the side of a two-sided sticky buffer */
TEST(txboth_buffer_side)
{
	Signature *s = P("alert http any any => any any (http.connection: to_client; content:\"a\"; "
			 "http.connection: to_server; content:\"b\"; sid:1;)");

	CHECK(s);
	if (s) {
		int n = 0;

		for (int l = 0; l < BUF_MAX; l++)
			if (s->lists[l].n) {
				CHECK(sig_list_side_given(s, l));
				n++;
			}
		CHECK_EQ(n, 2);
		CHECK_EQ(s->fp_list, -1);
	}
	sig_free(s);
	CHECK_EQ(E("alert http any any -> any any (http.connection: to_client; content:\"a\"; sid:2;)"),
		 SIG_ERR_PARSE);
	CHECK_EQ(E("alert http any any => any any (http.uri: to_client; content:\"a\"; sid:3;)"),
		 SIG_ERR_PARSE);
	CHECK_EQ(E("alert http any any => any any (http.uri: to_server; content:\"a\"; sid:4;)"), 0);
}

/* a frame's name alone is frame:<name>; other dotted names stay unknown */
TEST(frame_name_as_keyword)
{
	Signature *s = P("alert dns any any -> any any (dns.pdu; content:\"|01|\"; sid:1;)");

	CHECK(s);
	if (s) {
		CHECK(s->has_frame);
		CHECK_EQ(s->lists[BUF_FRAME].n, 1);
	}
	sig_free(s);
	CHECK_EQ(E("alert ssh any any -> any any (ssh.record.nosuch; content:\"x\"; sid:2;)"),
		 SIG_ERR_UNSUPPORTED);
	CHECK_EQ(E(R("nosuchproto.pdu; content:\"x\"; sid:3;")), SIG_ERR_PARSE);
}

/* entropy and flow.age (Suricata 8) */
double entropy_of(const uint8_t *d, uint32_t len);

TEST(entropy_and_flow_age)
{
	Signature *s = P(R("content:\"a\"; entropy: bytes 4, offset 1, value >=2.5; flow.age:>10; sid:1;"));

	CHECK(s);
	if (s) {
		CHECK_EQ(s->lists[BUF_PAYLOAD].n, 2);
		CHECK_EQ(s->lists[BUF_PAYLOAD].m[1].kw, KW_ENTROPY);
		CHECK_EQ(s->lists[SM_LIST_MATCH].m[0].kw, KW_FLOW_AGE);
	}
	sig_free(s);
	CHECK_EQ(E(R("entropy: value 2-6; sid:2;")), 0);
	CHECK_EQ(E(R("entropy: value !2-6; sid:3;")), 0);
	CHECK_EQ(E(R("entropy: bytes 4; sid:4;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("entropy: value >x; sid:5;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("entropy: value 6-2; sid:6;")), SIG_ERR_PARSE);
	CHECK_EQ(E(R("flow.age:abc; sid:7;")), SIG_ERR_PARSE);
	CHECK(entropy_of((const uint8_t *)"aaaa", 4) == 0.0);
	CHECK(entropy_of((const uint8_t *)"AABB", 4) == 1.0);
	CHECK(entropy_of((const uint8_t *)"abcdefgh", 8) == 3.0);
	CHECK(entropy_of(NULL, 0) == 0.0);
}

/* config logging disable for a tx is a postmatch step; a protocol hook
 * (Suricata 8's tcp:pre_flow) skips the rule */
TEST(config_logging_and_hooks)
{
	Signature *s = P("config dns any any -> any any (dns.query; content:\"x\"; "
			 "config: logging disable, type tx, scope tx; sid:1;)");

	CHECK(s);
	if (s) {
		CHECK_EQ(s->lists[SM_LIST_POSTMATCH].n, 1);
		CHECK_EQ(s->lists[SM_LIST_POSTMATCH].m[0].kw, KW_CONFIG);
	}
	sig_free(s);
	/* Suricata 8's hooks load (the firewall's; a TD rule keeps its
	 * inspection), an unknown one fails */
	CHECK_EQ(E("config tcp:pre_flow any any <> any 666 (config: tracking disable, type flow, "
		   "scope packet; sid:2;)"), 0);
	CHECK_EQ(E("alert tcp:no_such_hook any any -> any any (sid:3;)"), SIG_ERR_PARSE);
}
