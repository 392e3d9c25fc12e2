#define _GNU_SOURCE /* memmem */
/* eve_json_dump() writes what json_dumps(JSON_COMPACT | JSON_PRESERVE_ORDER)
 * writes: on random trees (property), on hand-picked corners, and on every
 * record the engine writes for a few e2e captures. */
#include "test.h"
#include "output/json-dump.h"
#include "output/json-writer.h"

#include <jansson.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FLAGS (JSON_COMPACT | JSON_PRESERVE_ORDER)

static uint64_t rng_state;

static uint64_t rnd(void)
{
	return test_rand64(&rng_state);
}

static unsigned rnd_below(unsigned n)
{
	return (unsigned)(rnd() % n);
}

static size_t put_utf8(unsigned char *b, uint32_t cp)
{
	if (cp < 0x80) {
		b[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		b[0] = (unsigned char)(0xc0 | cp >> 6);
		b[1] = (unsigned char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		b[0] = (unsigned char)(0xe0 | cp >> 12);
		b[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		b[2] = (unsigned char)(0x80 | (cp & 0x3f));
		return 3;
	}
	b[0] = (unsigned char)(0xf0 | cp >> 18);
	b[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
	b[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
	b[3] = (unsigned char)(0x80 | (cp & 0x3f));
	return 4;
}

/* A valid code point >= 0x80, often at a boundary of the encoding. */
static uint32_t rnd_code_point(void)
{
	static const uint32_t edges[] = {
		0x80, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xfffd, 0xffff,
		0x10000, 0x10ffff, 0xa0, 0x2028, 0xfeff,
	};
	uint32_t cp;

	switch (rnd_below(4)) {
	case 0:
		return edges[rnd_below(sizeof(edges) / sizeof(edges[0]))];
	case 1:
		return 0x80 + rnd_below(0x800 - 0x80);
	case 2:
		do
			cp = 0x800 + rnd_below(0x10000 - 0x800);
		while (cp >= 0xd800 && cp <= 0xdfff);
		return cp;
	default:
		return 0x10000 + rnd_below(0x110000 - 0x10000);
	}
}

/* Byte sequences jansson's UTF-8 check refuses. */
static size_t put_invalid(unsigned char *b)
{
	static const char *const bad[] = {
		"\x80", "\xbf", "\xc0\x80", "\xc1\xbf", "\xc2", "\xc3\x28",
		"\xe0\x80\x80", "\xe0\x9f\xbf", "\xed\xa0\x80", "\xed\xbf\xbf",
		"\xe2\x82", "\xf0\x80\x80\x80", "\xf0\x8f\xbf\xbf", "\xf4\x90\x80\x80",
		"\xf5\x80\x80\x80", "\xf8", "\xfe", "\xff", "\xf0\x9f\x98",
	};
	const char *s = bad[rnd_below(sizeof(bad) / sizeof(bad[0]))];

	memcpy(b, s, strlen(s));
	return strlen(s);
}

/* Random bytes of every class the escaper tells apart; invalid UTF-8 with
 * probability bad_pct percent per string. Returns the length. */
static size_t rnd_bytes(unsigned char *b, size_t cap, unsigned bad_pct)
{
	size_t n = 0, want = rnd_below(4) == 0 ? 0 : rnd_below(24);
	int bad = rnd_below(100) < bad_pct;
	size_t bad_at = bad ? rnd_below((unsigned)want + 1) : (size_t)-1;

	while (n + 8 < cap) {
		if (n >= bad_at) {
			n += put_invalid(b + n);
			bad_at = (size_t)-1;
		}
		if (n >= want)
			break;
		switch (rnd_below(10)) {
		case 0:
			b[n++] = (unsigned char)rnd_below(0x20); /* NUL too */
			break;
		case 1:
			b[n++] = "\"\\/\x7f"[rnd_below(4)];
			break;
		case 2:
		case 3:
			n += put_utf8(b + n, rnd_code_point());
			break;
		default:
			b[n++] = (unsigned char)(0x20 + rnd_below(0x5f));
			break;
		}
	}
	return n;
}

static json_int_t rnd_int(void)
{
	static const json_int_t edges[] = {
		0, 1, -1, 9, 10, -10, 99, 100, INT64_MAX, INT64_MIN,
		INT64_MAX - 1, INT64_MIN + 1, 4294967295LL, -4294967296LL,
		1000000000000000000LL, -999999999999999999LL,
	};

	switch (rnd_below(3)) {
	case 0:
		return edges[rnd_below(sizeof(edges) / sizeof(edges[0]))];
	case 1:
		return (json_int_t)rnd_below(100000) - 50000;
	default:
		return (json_int_t)rnd();
	}
}

static double rnd_real(void)
{
	static const double edges[] = {
		0.0, -0.0, 1.0, -1.5, 0.1, 1e-300, 1e300, 123456789.125,
		3.141592653589793, 1e17, 1e16, 5e-324,
	};

	if (rnd_below(2))
		return edges[rnd_below(sizeof(edges) / sizeof(edges[0]))];
	return ((double)(int64_t)rnd() / 1e6) * (rnd_below(2) ? 1e-9 : 1.0);
}

static json_t *rnd_tree(int depth, unsigned bad_pct);

static json_t *rnd_scalar(unsigned bad_pct)
{
	unsigned char b[128];
	size_t n;

	switch (rnd_below(7)) {
	case 0:
	case 1:
	case 2:
		n = rnd_bytes(b, sizeof(b), bad_pct);
		return json_stringn_nocheck((const char *)b, n);
	case 3:
		return json_integer(rnd_int());
	case 4:
		return json_real(rnd_real());
	case 5:
		return json_boolean(rnd_below(2));
	default:
		return json_null();
	}
}

static json_t *rnd_container(int depth, unsigned bad_pct)
{
	unsigned n = rnd_below(5) == 0 ? 0 : rnd_below(7);
	json_t *c = rnd_below(2) ? json_object() : json_array();

	for (unsigned i = 0; i < n; i++) {
		json_t *v = rnd_tree(depth + 1, bad_pct);

		if (json_is_array(c)) {
			json_array_append_new(c, v);
		} else {
			unsigned char k[128];
			size_t kn = rnd_bytes(k, sizeof(k), bad_pct);

			json_object_setn_new_nocheck(c, (const char *)k, kn, v);
		}
	}
	return c;
}

static json_t *rnd_tree(int depth, unsigned bad_pct)
{
	if (depth < 6 && rnd_below(3) == 0)
		return rnd_container(depth, bad_pct);
	return rnd_scalar(bad_pct);
}

/* v with every string (value or key) that is not UTF-8 in the \\xNN
 * form (eve_json_bytes): what our dumper writes for v is what jansson
 * writes for this copy. A new reference. */
static json_t *as_eve_writes(const json_t *v)
{
	if (json_is_string(v))
		return eve_json_bytes(json_string_value(v), json_string_length(v));
	if (json_is_array(v)) {
		json_t *a = json_array();

		for (size_t i = 0; i < json_array_size(v); i++)
			json_array_append_new(a, as_eve_writes(json_array_get(v, i)));
		return a;
	}
	if (json_is_object(v)) {
		json_t *o = json_object();

		for (void *it = json_object_iter((json_t *)v); it;
		     it = json_object_iter_next((json_t *)v, it)) {
			json_t *k = eve_json_bytes(json_object_iter_key(it),
						   json_object_iter_key_len(it));

			json_object_setn_new_nocheck(o, json_string_value(k), json_string_length(k),
						     as_eve_writes(json_object_iter_value(it)));
			json_decref(k);
		}
		return o;
	}
	return json_deep_copy(v);
}

/* json_dumps() of the tree with its invalid strings as eve writes them:
 * NULL where jansson fails even so (not a container). */
static char *dumps_as_eve(const json_t *v)
{
	json_t *c = as_eve_writes(v);
	char *s = json_dumps(c, FLAGS);

	json_decref(c);
	return s;
}

/* Valid UTF-8 JSON that jansson's parser takes. */
static int parses(const char *buf, size_t n)
{
	json_error_t e;
	json_t *j = json_loadb(buf, n, JSON_ALLOW_NUL, &e);

	if (!j && strstr(e.text, "NUL byte in object key")) {
		/* valid JSON that jansson's parser does not take: \u0000 in a
		 * key; the same text with \u0001 there */
		char *c = malloc(n);
		char *q;

		memcpy(c, buf, n);
		for (q = c; (q = memmem(q, (size_t)(c + n - q), "\\u0000", 6)); q += 6)
			q[5] = '1';
		j = json_loadb(c, n, JSON_ALLOW_NUL, &e);
		free(c);
	}
	if (!j)
		fprintf(stderr, "  not JSON (%s): %.*s\n", e.text, (int)(n > 300 ? 300 : n), buf);
	json_decref(j);
	return j != NULL;
}

/* What json_dumps() writes: NULL where it fails. Its output never holds a
 * NUL byte (NULs in strings are escaped), so strlen() is its length. */
static int same_as_jansson(const json_t *v, char *buf, size_t cap, size_t *out_n)
{
	char *want = dumps_as_eve(v);
	size_t n = eve_json_dump(v, buf, cap);
	int ok;

	if (out_n)
		*out_n = n;
	if (!want)
		return n == 0;
	ok = n == strlen(want) && memcmp(buf, want, n) == 0;
	if (!ok)
		fprintf(stderr, "  want: %s\n  got (%zu): %.*s\n", want, n,
			n == EVE_JSON_NOFIT ? 0 : (int)n, buf);
	free(want);
	return ok;
}

TEST(json_dump_random_trees_equal_jansson)
{
	static char buf[1 << 16];
	unsigned failed_both = 0, written = 0;

	rng_state = 0x9e3779b97f4a7c15ULL;
	for (int i = 0; i < 20000; i++) {
		/* a third of the trees may hold invalid UTF-8 somewhere */
		json_t *t = rnd_container(0, i % 3 == 0 ? 5 : 0);
		char *plain = json_dumps(t, FLAGS);
		size_t n;

		CHECK(same_as_jansson(t, buf, sizeof(buf), &n));
		CHECK(n != EVE_JSON_NOFIT && n != 0);
		/* every line is JSON, whatever the bytes (jansson lost these) */
		CHECK(parses(buf, n));
		if (!plain)
			failed_both++;
		else
			written++;
		free(plain);
		json_decref(t);
	}
	/* both sides are exercised */
	CHECK(failed_both > 200);
	CHECK(written > 15000);
}

TEST(json_dump_too_small_buffer_says_nofit)
{
	static char buf[1 << 14];

	rng_state = 12345;
	for (int i = 0, done = 0; done < 60 && i < 10000; i++) {
		json_t *t = rnd_container(0, 0);
		size_t len = eve_json_dump(t, buf, sizeof(buf));
		char want[1 << 14];

		CHECK(len > 0 && len != EVE_JSON_NOFIT);
		memcpy(want, buf, len);
		for (size_t cap = 0; cap < len; cap++) {
			/* nothing is written past cap */
			memset(buf, 0x5a, len + 1);
			CHECK(eve_json_dump(t, buf, cap) == EVE_JSON_NOFIT);
			for (size_t j = cap; j <= len; j++)
				CHECK(buf[j] == 0x5a);
		}
		CHECK(eve_json_dump(t, buf, len) == len);
		CHECK(memcmp(buf, want, len) == 0);
		done += len > 20;
		json_decref(t);
	}
}

static json_t *obj1(const char *k, size_t kn, json_t *v)
{
	json_t *o = json_object();

	json_object_setn_new_nocheck(o, k, kn, v);
	return o;
}

TEST(json_dump_escapes_as_jansson)
{
	char buf[256];
	size_t n;
	/* every byte < 0x20, quote, backslash, slash, DEL, and UTF-8 */
	json_t *o = obj1("k", 1,
			 json_stringn_nocheck("\x00\x01\x08\x09\x0a\x0b\x0c\x0d\x1f\"\\/\x7f"
					      "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",
					      22));

	CHECK(same_as_jansson(o, buf, sizeof(buf), &n));
	CHECK(n == strlen("{\"k\":\"\\u0000\\u0001\\b\\t\\n\\u000B\\f\\r\\u001F\\\"\\\\/\x7f"
			  "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"}"));
	CHECK(memcmp(buf, "{\"k\":\"\\u0000\\u0001\\b\\t\\n\\u000B\\f\\r\\u001F\\\"\\\\/\x7f"
		      "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"}", n) == 0);
	json_decref(o);
}

/* Each special byte at each place of a string longer than the 8-byte plain
 * fast path, and its neighbours: the same output as jansson. */
TEST(json_dump_special_byte_at_every_place_as_jansson)
{
	/* the word-at-a-time scan's edges too: 0x1f/0x20, 0x21/0x22, 0x5b/0x5c/0x5d,
	 * 0x7f/0x80, 0x01 (a borrow through the zero tests) */
	static const char *const specials[] = { "\x00", "\x1f", "\"", "\\", "/", "\x7f", "\x20",
						"\x21", "\x5b", "\x5d", "\x01", "\x80", "\xff",
						"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80" };
	static const size_t totals[] = { 7, 8, 9, 16, 24, 33 };
	char buf[256], str[40];

	for (size_t t = 0; t < sizeof(totals) / sizeof(totals[0]); t++)
		for (size_t k = 0; k < sizeof(specials) / sizeof(specials[0]); k++) {
			size_t sl = strlen(specials[k]) ? strlen(specials[k]) : 1, total = totals[t];

			for (size_t at = 0; at + sl <= total; at++) {
				size_t n;
				json_t *o;

				memset(str, 'a', total);
				memcpy(str + at, specials[k], sl);
				o = obj1("k", 1, json_stringn_nocheck(str, total));
				CHECK(same_as_jansson(o, buf, sizeof(buf), &n));
				json_decref(o);
			}
		}
}

TEST(json_dump_integers_and_literals)
{
	char buf[256];
	size_t n;
	json_t *a = json_array();
	const char *want = "[-9223372036854775808,9223372036854775807,0,-1,"
			   "true,false,null,\"\",{},[],1.5]";

	json_array_append_new(a, json_integer(INT64_MIN));
	json_array_append_new(a, json_integer(INT64_MAX));
	json_array_append_new(a, json_integer(0));
	json_array_append_new(a, json_integer(-1));
	json_array_append_new(a, json_true());
	json_array_append_new(a, json_false());
	json_array_append_new(a, json_null());
	json_array_append_new(a, json_string(""));
	json_array_append_new(a, json_object());
	json_array_append_new(a, json_array());
	json_array_append_new(a, json_real(1.5));
	CHECK(same_as_jansson(a, buf, sizeof(buf), &n));
	CHECK(n == strlen(want) && memcmp(buf, want, n) == 0);
	json_decref(a);
}

/* jansson fails the record on an invalid string value (eve_write() lost
 * it) and leaves an invalid key's quote open (the line was no JSON): both
 * are written in Suricata's \\xNN form for bytes that are not UTF-8. */
TEST(json_dump_invalid_utf8_value_written_escaped)
{
	char buf[256];
	size_t n;
	json_t *o = obj1("a", 1, json_string("ok"));
	const char *want = "{\"a\":\"ok\",\"b\":\"x\\\\xED\\\\xA0\\\\x80\"}";

	json_object_set_new(o, "b", json_stringn_nocheck("x\xed\xa0\x80", 4));
	CHECK(json_dumps(o, FLAGS) == NULL);
	n = eve_json_dump(o, buf, sizeof(buf));
	CHECK(n == strlen(want) && memcmp(buf, want, n) == 0);
	json_decref(o);
}

TEST(json_dump_invalid_utf8_key_written_escaped)
{
	char buf[256];
	size_t n;
	json_t *o = obj1("a\nb\xff", 4, json_integer(1));
	const char *want = "{\"a\\nb\\\\xFF\":1}";

	n = eve_json_dump(o, buf, sizeof(buf));
	CHECK(n == strlen(want) && memcmp(buf, want, n) == 0);
	CHECK(parses(buf, n));
	json_decref(o);
}

TEST(json_dump_root_must_be_container)
{
	char buf[64];
	json_t *s = json_string("x");

	CHECK(json_dumps(s, FLAGS) == NULL);
	CHECK(eve_json_dump(s, buf, sizeof(buf)) == 0);
	CHECK(eve_json_dump(NULL, buf, sizeof(buf)) == 0);
	json_decref(s);
}

static json_t *nest(int levels)
{
	json_t *v = json_integer(7);

	for (int i = 0; i < levels; i++)
		v = obj1("n", 1, v);
	return v;
}

/* Deeper than our cap goes back to the caller, who uses jansson (which has
 * no depth limit when dumping); up to the cap we format it ourselves. */
TEST(json_dump_deep_tree_goes_to_jansson)
{
	static char buf[8192];
	size_t n;
	json_t *ok = nest(EVE_JSON_MAX_DEPTH);
	json_t *deep = nest(EVE_JSON_MAX_DEPTH + 1);
	char *s = json_dumps(deep, FLAGS);

	CHECK(same_as_jansson(ok, buf, sizeof(buf), &n));
	CHECK(n > 0 && n != EVE_JSON_NOFIT);
	CHECK(eve_json_dump(deep, buf, sizeof(buf)) == EVE_JSON_NOFIT);
	CHECK(s != NULL);
	free(s);
	json_decref(ok);
	json_decref(deep);
}

/* The engine binary and its yaml, next to this test program in the build
 * tree (tests/unit/test_json_dump -> src/suricata). */
static int build_path(char *out, size_t len, const char *rel)
{
	char exe[2048];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return -1;
	exe[n] = '\0';
	for (int i = 0; i < 3; i++) {
		slash = strrchr(exe, '/');
		if (!slash)
			return -1;
		*slash = '\0';
	}
	snprintf(out, len, "%s/%s", exe, rel);
	return access(out, R_OK) == 0 ? 0 : -1;
}

struct rec_stats {
	int lines, alert, flow, http, fileinfo, anomaly, stats;
};

/* Every line of dir/eve.json, parsed and dumped again, by us and by jansson:
 * all three byte-identical. */
static int check_eve_file(const char *path, struct rec_stats *st)
{
	FILE *f = fopen(path, "r");
	static char line[1 << 20], buf[1 << 20];
	int bad = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line), n;
		json_t *o;

		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		o = json_loads(line, JSON_ALLOW_NUL, NULL);
		if (!o) {
			bad++;
			continue;
		}
		st->lines++;
		if (!same_as_jansson(o, buf, sizeof(buf), &n) || n != len ||
		    memcmp(buf, line, len) != 0)
			bad++;
		const char *t = json_string_value(json_object_get(o, "event_type"));
		if (t) {
			st->alert += !strcmp(t, "alert");
			st->flow += !strcmp(t, "flow");
			st->http += !strcmp(t, "http");
			st->fileinfo += !strcmp(t, "fileinfo");
			st->anomaly += !strcmp(t, "anomaly");
			st->stats += !strcmp(t, "stats");
		}
		json_decref(o);
	}
	fclose(f);
	return bad;
}

TEST(json_dump_engine_records_equal_jansson)
{
	static const struct {
		const char *pcap, *args;
	} runs[] = {
		{ "data/pcaps/sample.pcap", "-S %s/../rules/http-events.rules" },
		{ "data/pcaps/ipv4-tcp.pcap", "-S %s/e2e/tag-session/test.rules" },
		{ "data/pcaps/ipv4-icmp.pcap", "-S %s/e2e/detect-icmp/test.rules" },
		{ "data/pcaps/malformed.pcap",
		  "--disable-detection --set outputs.1.eve-log.types.2.anomaly.types.decode=yes "
		  "--set outputs.1.eve-log.types.2.anomaly.packethdr=yes" },
		{ "data/pcaps/multi-flow.pcap", "--disable-detection" },
		{ "data/pcaps/ipv6-tcp.pcap", "-S %s/e2e/tag-session/test.rules" },
		{ "data/pcaps/qinq.pcap", "--disable-detection" },
	};
	char bin[4096], yaml[4096], dir[64], args[2048], cmd[16384], eve[128];
	char tests_dir[1024];
	struct rec_stats st = { 0 };

	CHECK(build_path(bin, sizeof(bin), "src/suricata") == 0);
	CHECK(build_path(yaml, sizeof(yaml), "suricata.yaml") == 0);
	snprintf(tests_dir, sizeof(tests_dir), "%s", test_data_path(""));
	tests_dir[strlen(tests_dir) - 1] = '\0'; /* the trailing '/' */
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		snprintf(dir, sizeof(dir), "/tmp/test_json_dump.XXXXXX");
		CHECK(mkdtemp(dir) != NULL);
		snprintf(args, sizeof(args), runs[i].args, tests_dir);
		snprintf(cmd, sizeof(cmd),
			 "'%s' -c '%s' --runmode single -l '%s' -r '%s/%s' %s >/dev/null 2>&1",
			 bin, yaml, dir, tests_dir, runs[i].pcap, args);
		int rc = system(cmd);
		snprintf(eve, sizeof(eve), "%s/eve.json", dir);
		int bad = check_eve_file(eve, &st);
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			fprintf(stderr, "cannot remove %s\n", dir);
		CHECK_EQ(rc, 0);
		CHECK_EQ(bad, 0);
	}
	/* every kind of record we write was looked at */
	printf("  %d records: %d alert, %d flow, %d http, %d fileinfo, %d anomaly, %d stats\n",
	       st.lines, st.alert, st.flow, st.http, st.fileinfo, st.anomaly, st.stats);
	CHECK(st.lines > 100);
	CHECK(st.alert > 0);
	CHECK(st.flow > 0);
	CHECK(st.http > 0);
	CHECK(st.fileinfo > 0);
	CHECK(st.anomaly > 0);
	CHECK(st.stats > 0);
}

/* ---- the JSON writer (json-writer.h) writes the same bytes ---- */

/* The tree with its keys made plain ("k0", "k1", ...: the writer's keys are
 * literals), reals made integers and nulls false (the writer writes
 * neither); order kept. */
static json_t *writer_shaped(const json_t *v, unsigned *next_key)
{
	if (json_is_object(v)) {
		json_t *c = json_object();
		const char *k;
		json_t *m;

		json_object_foreach((json_t *)v, k, m) {
			char key[16];

			snprintf(key, sizeof(key), "k%u", (*next_key)++);
			json_object_set_new(c, key, writer_shaped(m, next_key));
		}
		return c;
	}
	if (json_is_array(v)) {
		json_t *c = json_array();

		for (size_t i = 0; i < json_array_size(v); i++)
			json_array_append_new(c, writer_shaped(json_array_get(v, i), next_key));
		return c;
	}
	if (json_is_real(v))
		return json_integer((json_int_t)json_real_value(v));
	if (json_is_null(v))
		return json_false();
	return json_incref((json_t *)v);
}

/* Writes v (a member named key, or an element when key is NULL). */
static void write_tree(JsonWriter *w, const char *key, const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: {
		const char *k;
		json_t *m;

		jw_object(w, key);
		json_object_foreach((json_t *)v, k, m)
			write_tree(w, k, m);
		jw_close(w);
		break;
	}
	case JSON_ARRAY:
		jw_array(w, key);
		for (size_t i = 0; i < json_array_size(v); i++)
			write_tree(w, NULL, json_array_get(v, i));
		jw_close(w);
		break;
	case JSON_STRING:
		jw_strn(w, key, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		jw_int(w, key, json_integer_value(v));
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		jw_bool(w, key, json_is_true(v));
		break;
	default:   /* real, null: writer_shaped() leaves none */
		break;
	}
}

TEST(json_writer_random_records_equal_jansson)
{
	static char buf[1 << 16];
	unsigned failed_both = 0, written = 0;

	rng_state = 0x5851f42d4c957f2dULL;
	for (int i = 0; i < 20000; i++) {
		json_t *raw = rnd_container(0, i % 3 == 0 ? 5 : 0), *t, *root;
		unsigned next_key = 0;
		const char *k;
		json_t *m;
		JsonWriter w;
		char *want;
		size_t n;

		/* a record is an object: wrap arrays */
		root = json_is_object(raw) ? json_incref(raw) : json_pack("{sO}", "a", raw);
		t = writer_shaped(root, &next_key);
		json_decref(root);
		json_decref(raw);
		jw_begin(&w, buf, sizeof(buf));
		json_object_foreach(t, k, m)
			write_tree(&w, k, m);
		n = jw_end(&w);
		want = dumps_as_eve(t);
		CHECK(want != NULL);
		CHECK(n == strlen(want) && memcmp(buf, want, n) == 0);
		if (n != strlen(want) || memcmp(buf, want, n))
			fprintf(stderr, "  want: %s\n  got (%zu): %.*s\n", want, n, (int)n, buf);
		CHECK(parses(buf, n));
		{
			/* the same tree where jansson itself failed (a string
			 * value that is not UTF-8): written all the same */
			char *plain = json_dumps(t, FLAGS);

			if (!plain)
				failed_both++;
			else
				written++;
			free(plain);
		}
		free(want);
		json_decref(t);
	}
	CHECK(failed_both > 200);
	CHECK(written > 10000);
}

TEST(json_writer_too_small_or_too_deep_fails)
{
	char buf[64];
	JsonWriter w;

	jw_begin(&w, buf, sizeof(buf));
	jw_str(&w, "a", "0123456789012345678901234567890123456789012345678901234567890");
	CHECK_EQ(jw_end(&w), 0);

	jw_begin(&w, buf, sizeof(buf));
	for (int i = 0; i < JW_MAX_DEPTH; i++)
		jw_array(&w, i ? NULL : "a");
	CHECK_EQ(jw_end(&w), 0);

	/* exactly full fits */
	jw_begin(&w, buf, 9);
	jw_int(&w, "a", 123);
	CHECK_EQ(jw_end(&w), 9);
	CHECK(memcmp(buf, "{\"a\":123}", 9) == 0);
	jw_begin(&w, buf, 8);
	jw_int(&w, "a", 123);
	CHECK_EQ(jw_end(&w), 0);
}

/* jw_ascii writes what jw_str writes for our own strings; integers at the
 * limits; a bool that exactly fills the buffer. */
TEST(json_writer_ascii_ints_bools)
{
	char buf[256], buf2[256];
	JsonWriter w;
	size_t n, n2;

	jw_begin(&w, buf, sizeof(buf));
	jw_ascii(&w, "timestamp", "2023-11-14T22:13:20.000000+0000", 31);
	jw_ascii(&w, "src_ip", "10.0.0.1", 8);
	jw_int(&w, "min", INT64_MIN);
	jw_int(&w, "max", INT64_MAX);
	jw_int(&w, "zero", 0);
	jw_int(&w, "n", -7);
	jw_int(&w, "p", 100);
	jw_bool(&w, "t", 1);
	jw_bool(&w, "f", 0);
	n = jw_end(&w);
	jw_begin(&w, buf2, sizeof(buf2));
	jw_str(&w, "timestamp", "2023-11-14T22:13:20.000000+0000");
	jw_str(&w, "src_ip", "10.0.0.1");
	n2 = jw_end(&w);
	CHECK(n2 > 2 && n > n2);
	CHECK(memcmp(buf, buf2, n2 - 1) == 0);
	buf[n] = 0;
	CHECK_STREQ(buf + n2 - 1, ",\"min\":-9223372036854775808,\"max\":9223372036854775807,"
			       "\"zero\":0,\"n\":-7,\"p\":100,\"t\":true,\"f\":false}");

	jw_begin(&w, buf, 10);
	jw_bool(&w, "a", 1);
	CHECK_EQ(jw_end(&w), 10);
	jw_begin(&w, buf, 9);
	jw_bool(&w, "a", 1);
	CHECK_EQ(jw_end(&w), 0);
	jw_begin(&w, buf, 10);
	jw_int(&w, "a", -123);
	CHECK_EQ(jw_end(&w), 10);
	jw_begin(&w, buf, 9);
	jw_int(&w, "a", -123);
	CHECK_EQ(jw_end(&w), 0);
}

/* jw_bytes writes what eve_json_bytes() gives. */
TEST(json_writer_bytes_as_eve_json_bytes)
{
	static const char *const cases[] = { "caf\xc3\xa9", "a\xe9" "b\xff", "plain", "q\"\\\x01" };
	char buf[256], want[256];
	JsonWriter w;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *o = json_object();
		size_t n, wn;

		json_object_set_new(o, "k", eve_json_bytes(cases[i], strlen(cases[i])));
		wn = eve_json_dump(o, want, sizeof(want));
		jw_begin(&w, buf, sizeof(buf));
		jw_bytes(&w, "k", cases[i], strlen(cases[i]));
		n = jw_end(&w);
		CHECK(wn > 0 && n == wn && memcmp(buf, want, n) == 0);
		json_decref(o);
	}
}

/* Bytes off the wire (tls, smtp, ssh, ftp records): valid UTF-8 as is,
 * otherwise each byte from 0x80 as "\xNN", upper case; a NUL is kept. */
TEST(eve_json_bytes_escapes_invalid_utf8)
{
	json_t *j = eve_json_bytes("caf\xc3\xa9", 5);

	CHECK(j && strcmp(json_string_value(j), "caf\xc3\xa9") == 0);
	json_decref(j);
	j = eve_json_bytes("a\xe9" "b\xff", 4);
	CHECK(j && strcmp(json_string_value(j), "a\\xE9b\\xFF") == 0);
	json_decref(j);
	j = eve_json_bytes("x\0\xc0", 3);
	CHECK(j && json_string_length(j) == 6 && memcmp(json_string_value(j), "x\0\\xC0", 6) == 0);
	json_decref(j);
}

/* A container found empty is taken back whole (the trees left an empty
 * array out); one with members closes as jw_close() would. */
TEST(json_writer_close_nonempty_takes_back_an_empty_member)
{
	char buf[128];
	JsonWriter w;
	JwMark m;
	size_t n;

	jw_begin(&w, buf, sizeof(buf));
	jw_int(&w, "a", 1);
	m = jw_mark(&w);
	jw_array(&w, "empty");
	CHECK_EQ(jw_close_nonempty(&w, m), 0);
	m = jw_mark(&w);
	jw_array(&w, "full");
	jw_int(&w, NULL, 2);
	CHECK_EQ(jw_close_nonempty(&w, m), 1);
	jw_int(&w, "b", 3);
	n = jw_end(&w);
	CHECK(n == 24 && memcmp(buf, "{\"a\":1,\"full\":[2],\"b\":3}", n) == 0);
	/* the first member of the record, taken back: no stray comma */
	jw_begin(&w, buf, sizeof(buf));
	m = jw_mark(&w);
	jw_object(&w, "o");
	jw_close_nonempty(&w, m);
	jw_int(&w, "b", 3);
	n = jw_end(&w);
	CHECK(n == 7 && memcmp(buf, "{\"b\":3}", n) == 0);
}

/* jw_array_esc escapes its key as jansson escapes keys. */
TEST(json_writer_escaped_key)
{
	char buf[128];
	JsonWriter w;
	json_t *t;
	size_t n;

	jw_begin(&w, buf, sizeof(buf));
	jw_array_esc(&w, "k\"\\x", 4);
	jw_str(&w, NULL, "v");
	jw_close(&w);
	n = jw_end(&w);
	CHECK(n == 16 && memcmp(buf, "{\"k\\\"\\\\x\":[\"v\"]}", n) == 0);
	t = json_loadb(buf, n, 0, NULL);
	CHECK(t && json_is_array(json_object_get(t, "k\"\\x")));
	json_decref(t);
}

/* jw_json: a tree (or a scalar) as a member, the bytes json_dumps() writes
 * for the record that holds it (invalid UTF-8 in the \\xNN form); a record
 * too small for it fails without saying so. */
TEST(json_writer_json_value_as_json_dumps)
{
	static char buf[1 << 16];
	unsigned refused = 0, written = 0;

	rng_state = 0x2545f4914f6cdd1dULL;
	for (int i = 0; i < 5000; i++) {
		json_t *v = rnd_container(0, i % 3 == 0 ? 5 : 0), *rec;
		JsonWriter w;
		char *want;
		size_t n;
		int r;

		rec = json_pack("{sisO}", "a", 1, "k", v);
		want = json_dumps(rec, FLAGS);
		if (!want)
			refused++;   /* jansson refuses it: written \\xNN all the same */
		free(want);
		want = dumps_as_eve(rec);
		jw_begin(&w, buf, sizeof(buf));
		jw_int(&w, "a", 1);
		r = jw_json(&w, "k", v);
		n = jw_end(&w);
		{
			CHECK(r == 0 && n == strlen(want) && memcmp(buf, want, n) == 0);
			written++;
			/* one byte short: no room, not a refusal */
			jw_begin(&w, buf, n - 1);
			jw_int(&w, "a", 1);
			CHECK_EQ(jw_json(&w, "k", v), 0);
			CHECK_EQ(jw_end(&w), 0);
		}
		free(want);
		json_decref(rec);
		json_decref(v);
	}
	CHECK(refused > 50);
	CHECK(written > 2000);
	{
		json_t *s[] = { json_real(0.5), json_null(), json_string("q\"x"), json_integer(-3) };
		const char *want = "{\"r\":0.5,\"n\":null,\"s\":\"q\\\"x\",\"i\":-3}";
		JsonWriter w;
		size_t n;

		jw_begin(&w, buf, sizeof(buf));
		jw_json(&w, "r", s[0]);
		jw_json(&w, "n", s[1]);
		jw_json(&w, "s", s[2]);
		jw_json(&w, "i", s[3]);
		n = jw_end(&w);
		CHECK(n == strlen(want) && memcmp(buf, want, n) == 0);
		for (int i = 0; i < 4; i++)
			json_decref(s[i]);
	}
}

/* jw_base64: RFC 4648's vectors. */
TEST(json_writer_base64_and_room)
{
	static const char *const in[] = { "", "f", "fo", "foo", "foob", "fooba", "foobar" };
	static const char *const out[] = { "", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=",
					   "Zm9vYmFy" };
	char buf[64], want[64];
	JsonWriter w;

	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		size_t n;

		snprintf(want, sizeof(want), "{\"p\":\"%s\"}", out[i]);
		jw_begin(&w, buf, sizeof(buf));
		jw_base64(&w, "p", (const uint8_t *)in[i], strlen(in[i]));
		n = jw_end(&w);
		CHECK(n == strlen(want) && memcmp(buf, want, n) == 0);
		CHECK_EQ(JW_BASE64_LEN(strlen(in[i])), strlen(out[i]));
	}
	jw_begin(&w, buf, 12);
	jw_base64(&w, "p", (const uint8_t *)"foobar", 6);   /* {"p":"Zm9vYmFy"}: 16 */
	CHECK_EQ(jw_end(&w), 0);
}

/* The writer on random bytes (test.h's PRNG): whatever a string holds
 * (NUL, controls, bytes >= 0x80, cut or overlong UTF-8 sequences), the
 * record is written, parses as JSON (jansson's loader refuses input that
 * is not UTF-8) and gives back the string: as it was when it is UTF-8,
 * else in Suricata's \\xNN form (eve_json_bytes). */
TEST(json_writer_random_bytes_always_valid_utf8_json)
{
	static char buf[1 << 14];
	uint64_t st = 0x243f6a8885a308d3ULL;
	unsigned escaped = 0;

	for (int i = 0; i < 20000; i++) {
		unsigned char s[64];
		size_t len = test_rand32(&st) % sizeof(s), n;
		json_t *back, *want;
		JsonWriter w;

		for (size_t k = 0; k < len; k++) {
			uint32_t r = test_rand32(&st);
			/* mostly text, with every kind of hostile byte */
			s[k] = (unsigned char)(r % 4 == 0 ? r >> 8 : r % 4 == 1 ? 0x80 | (r >> 8 & 0x7f) :
					       0x20 + (r >> 8) % 95);
		}
		want = eve_json_bytes(s, len);
		back = json_stringn((const char *)s, len);
		if (!back)
			escaped++;
		json_decref(back);
		jw_begin(&w, buf, sizeof(buf));
		jw_strn(&w, "s", (const char *)s, len);
		jw_int(&w, "n", (int64_t)len);
		n = jw_end(&w);
		CHECK(n > 0);
		back = json_loadb(buf, n, JSON_ALLOW_NUL, NULL);
		CHECK(back != NULL);
		CHECK(json_equal(json_object_get(back, "s"), want));
		json_decref(back);
		json_decref(want);
	}
	CHECK(escaped > 10000);
}
