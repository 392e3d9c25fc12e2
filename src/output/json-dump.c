/* eve records to text, byte for byte what jansson 2.14's
 * json_dumps(JSON_COMPACT | JSON_PRESERVE_ORDER) writes (the unit test
 * test_json_dump checks this on random trees and on real records).
 *
 * What jansson does, and so what we do:
 * - objects in iteration order (insertion order), "key":value, ',' between,
 *   no spaces; empty containers as {} and [];
 * - strings: '"' and '\\' escaped, control characters as \b \f \n \r \t or
 *   \u00XX with upper-case hex; '/', 0x7f and valid UTF-8 copied as they are;
 * - except for strings (values or keys) that are not valid UTF-8 (made with
 *   a *_nocheck call): jansson fails the whole dump on such a value (the
 *   record was lost) and leaves an invalid key's quote open (the line was
 *   not JSON). We write them as Suricata 8's JSON builder writes bytes that
 *   are not UTF-8 (jsonbuilder.rs, set_string_from_bytes: the string as it
 *   is when it is UTF-8, else each byte from 0x80 as the text "\xNN"), in
 *   the upper-case form eve_json_bytes() gives the tls, ssh and smtp
 *   records: every record is written and every line is valid UTF-8 JSON.
 * - integers as "%lld"; reals through jansson itself (its own %.17g-based
 *   formatting is not worth reimplementing for the few reals we write);
 * - no depth limit in jansson's dumper (JSON_PARSER_MAX_DEPTH is the parser's):
 *   we hand trees deeper than EVE_JSON_MAX_DEPTH back to the caller. */
#include "output/json-dump.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
	R_OK = 0,
	R_FAIL = -1,    /* jansson fails too */
	R_NOFIT = -2,   /* buffer too small or too deep: caller uses jansson */
	R_BADUTF8 = -3, /* in a string: fails a value, not a key */
};

/* Byte classes: a plain byte is copied as part of a run; C_U2..C_U4 are the
 * lead bytes of valid 2-, 3- and 4-byte sequences (the class is the length). */
enum { C_PLAIN = 0, C_ESC = 1, C_U2 = 2, C_U3 = 3, C_U4 = 4, C_BAD = 5 };

static const unsigned char byte_class[256] = {
	[0x00 ... 0x1f] = C_ESC,
	['"'] = C_ESC,
	['\\'] = C_ESC,
	[0x80 ... 0xc1] = C_BAD, /* continuation bytes, overlong C0/C1 */
	[0xc2 ... 0xdf] = C_U2,
	[0xe0 ... 0xef] = C_U3,
	[0xf0 ... 0xf4] = C_U4,
	[0xf5 ... 0xff] = C_BAD, /* beyond U+10FFFF */
};

/* The short escapes of control characters; the rest are \u00XX. */
static const char short_escape[0x20] = {
	['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't',
};

static const char hex_upper[] = "0123456789ABCDEF";

struct out {
	char *p;
	char *end;
};

static inline int put(struct out *o, const void *src, size_t n)
{
	if ((size_t)(o->end - o->p) < n)
		return R_NOFIT;
	memcpy(o->p, src, n);
	o->p += n;
	return R_OK;
}

static inline int put_c(struct out *o, char c)
{
	if (o->p == o->end)
		return R_NOFIT;
	*o->p++ = c;
	return R_OK;
}

/* The sequence at s, whose lead byte says n bytes, is well-formed UTF-8:
 * complete, continuation bytes only, no overlong form, no surrogate
 * (U+D800..DFFF), nothing above U+10FFFF: the same rules as jansson's
 * utf8_check_full(), written as the ranges of the second byte. */
static inline int utf8_ok(const unsigned char *s, size_t left, unsigned n)
{
	unsigned char lo = 0x80, hi = 0xbf;

	if (left < n)
		return 0;
	switch (s[0]) {
	case 0xe0:
		lo = 0xa0;
		break;
	case 0xed:
		hi = 0x9f;
		break;
	case 0xf0:
		lo = 0x90;
		break;
	case 0xf4:
		hi = 0x8f;
		break;
	}
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (unsigned i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return 1;
}

static int put_escape(struct out *o, unsigned char c)
{
	char e[6] = { '\\' };

	if (c == '"' || c == '\\') {
		e[1] = (char)c;
		return put(o, e, 2);
	}
	if (short_escape[c]) {
		e[1] = short_escape[c];
		return put(o, e, 2);
	}
	e[1] = 'u';
	e[2] = '0';
	e[3] = '0';
	e[4] = hex_upper[c >> 4];
	e[5] = hex_upper[c & 0xf];
	return put(o, e, 6);
}

/* 1 when none of the 8 bytes of x needs more than a copy: no control
 * character, quote, backslash or non-ASCII byte. The "has a byte less
 * than n" and "has a zero byte" word tests are exact for n <= 128. */
static inline int word_plain(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	const uint64_t q = x ^ (ones * '"'), bs = x ^ (ones * '\\');
	const uint64_t ctl = (x - ones * 0x20) & ~x;
	const uint64_t zq = (q - ones) & ~q, zbs = (bs - ones) & ~bs;

	return !((ctl | zq | zbs | x) & high);
}

/* A string that is not UTF-8, in the "\\xNN" form (see the top): what
 * JSON escapes is escaped as in any string; each byte from 0x80 is the
 * six characters \\xNN of the JSON text. */
static int dump_string_x(struct out *o, const unsigned char *s, size_t len)
{
	if (put_c(o, '"'))
		return R_NOFIT;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = s[i];
		char e[6] = { '\\', '\\', 'x', hex_upper[c >> 4], hex_upper[c & 0xf] };
		int r;

		if (c >= 0x80)
			r = put(o, e, 5);
		else if (byte_class[c] == C_ESC)
			r = put_escape(o, c);
		else
			r = put_c(o, (char)c);
		if (r)
			return R_NOFIT;
	}
	return put_c(o, '"');
}

/* Runs of bytes that need no escape go out with one memcpy; a run is
 * written only when an escape or the end follows it, as in jansson. Not
 * UTF-8: R_BADUTF8, o->p wherever it got (the caller starts again). */
static int dump_string_utf8(struct out *o, const char *str, size_t len)
{
	/* an empty value may come as (NULL, 0): NULL + 0 is undefined in C
	 * (an empty string is valid UTF-8: dump_string_x never sees it) */
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	const unsigned char *end = s + len, *run = s;

	if (put_c(o, '"'))
		return R_NOFIT;
	while (s < end) {
		unsigned c;
		uint64_t w;

		/* most text is plain ASCII: a word at a time past it */
		while (end - s >= 8 && (memcpy(&w, s, 8), word_plain(w)))
			s += 8;
		if (s == end)
			break;
		c = byte_class[*s];

		if (c == C_PLAIN) {
			s++;
			continue;
		}
		if (c == C_BAD)
			return R_BADUTF8;
		if (c != C_ESC) {
			if (!utf8_ok(s, (size_t)(end - s), c))
				return R_BADUTF8;
			s += c;
			continue;
		}
		if (put(o, run, (size_t)(s - run)) || put_escape(o, *s))
			return R_NOFIT;
		run = ++s;
	}
	if (put(o, run, (size_t)(s - run)) || put_c(o, '"'))
		return R_NOFIT;
	return R_OK;
}

/* A string, valid UTF-8 or written in the \\xNN form. */
static int dump_string(struct out *o, const char *str, size_t len)
{
	char *start = o->p;
	int r = dump_string_utf8(o, str, len);

	if (r != R_BADUTF8)
		return r;
	o->p = start;
	return dump_string_x(o, (const unsigned char *)str, len);
}

static int dump_integer(struct out *o, json_int_t v)
{
	char tmp[24];
	char *q = tmp + sizeof(tmp);
	/* through unsigned, so that INT64_MIN negates without overflow */
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

	do {
		*--q = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--q = '-';
	return put(o, q, (size_t)(tmp + sizeof(tmp) - q));
}

static int dump_real(struct out *o, const json_t *v)
{
	char tmp[100];
	size_t n = json_dumpb(v, tmp, sizeof(tmp),
			      JSON_ENCODE_ANY | JSON_COMPACT | JSON_PRESERVE_ORDER);

	if (n == 0)
		return R_FAIL;
	if (n > sizeof(tmp))
		return R_NOFIT;
	return put(o, tmp, n);
}

static int dump_value(struct out *o, const json_t *v, int depth);

static int dump_object(struct out *o, const json_t *v, int depth)
{
	void *it = json_object_iter((json_t *)v);
	int r;

	if (put_c(o, '{'))
		return R_NOFIT;
	while (it) {
		r = dump_string(o, json_object_iter_key(it), json_object_iter_key_len(it));
		if (r)
			return r;
		if (put_c(o, ':'))
			return R_NOFIT;
		r = dump_value(o, json_object_iter_value(it), depth + 1);
		if (r)
			return r;
		it = json_object_iter_next((json_t *)v, it);
		if (it && put_c(o, ','))
			return R_NOFIT;
	}
	return put_c(o, '}');
}

static int dump_array(struct out *o, const json_t *v, int depth)
{
	size_t n = json_array_size(v);
	int r;

	if (put_c(o, '['))
		return R_NOFIT;
	for (size_t i = 0; i < n; i++) {
		if (i && put_c(o, ','))
			return R_NOFIT;
		r = dump_value(o, json_array_get(v, i), depth + 1);
		if (r)
			return r;
	}
	return put_c(o, ']');
}

static int dump_value(struct out *o, const json_t *v, int depth)
{
	if (!v)
		return R_FAIL;
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		if (depth >= EVE_JSON_MAX_DEPTH)
			return R_NOFIT;
		return dump_object(o, v, depth);
	case JSON_ARRAY:
		if (depth >= EVE_JSON_MAX_DEPTH)
			return R_NOFIT;
		return dump_array(o, v, depth);
	case JSON_STRING:
		return dump_string(o, json_string_value(v), json_string_length(v));
	case JSON_INTEGER:
		return dump_integer(o, json_integer_value(v));
	case JSON_REAL:
		return dump_real(o, v);
	case JSON_TRUE:
		return put(o, "true", 4);
	case JSON_FALSE:
		return put(o, "false", 5);
	case JSON_NULL:
		return put(o, "null", 4);
	}
	return R_FAIL;
}

size_t eve_json_dump(const json_t *v, char *buf, size_t cap)
{
	struct out o = { buf, buf + cap };

	/* json_dumps() without JSON_ENCODE_ANY takes only these as a root */
	if (!json_is_object(v) && !json_is_array(v))
		return 0;
	switch (dump_value(&o, v, 0)) {
	case R_OK:
		return (size_t)(o.p - buf);
	case R_NOFIT:
		return EVE_JSON_NOFIT;
	default:
		return 0;
	}
}

int eve_json_put_string(char **pp, char *end, const char *s, size_t len)
{
	struct out o = { *pp, end };
	int r = dump_string(&o, s, len);

	*pp = o.p;
	return r == R_OK ? 0 : -1;
}

int eve_json_put_utf8(char **pp, char *end, const char *s, size_t len)
{
	struct out o = { *pp, end };
	int r = dump_string_utf8(&o, s, len);

	*pp = o.p;
	return r == R_OK ? 0 : r == R_BADUTF8 ? -2 : -1;
}

size_t eve_x_escape(const void *data, size_t n, char *out, unsigned flags)
{
	const char *hex = flags & EVE_X_UPPER ? "0123456789ABCDEF" : "0123456789abcdef";
	const unsigned char *p = data;
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		if (p[i] < 0x80 && (!(flags & EVE_X_PRINTABLE) || (p[i] >= 0x20 && p[i] < 0x7f))) {
			out[o++] = (char)p[i];
		} else {
			out[o++] = '\\';
			out[o++] = 'x';
			out[o++] = hex[p[i] >> 4];
			out[o++] = hex[p[i] & 15];
		}
	}
	return o;
}

json_t *eve_json_bytes(const void *data, size_t n)
{
	json_t *j = json_stringn((const char *)data, n);
	char *tmp;

	if (j)
		return j;
	tmp = malloc(n * 4 + 1);
	if (!tmp)
		return json_string("");
	j = json_stringn(tmp, eve_x_escape(data, n, tmp, EVE_X_UPPER));
	free(tmp);
	return j ? j : json_string("");
}
