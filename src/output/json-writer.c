/* The eve JSON writer (json-writer.h). */
#include "output/json-writer.h"
#include "output/json-dump.h"

#include <stdlib.h>
#include <string.h>

static inline void put_c(JsonWriter *w, char c)
{
	if (w->p == w->end) {
		w->failed = 1;
		return;
	}
	*w->p++ = c;
}

/* The container's bracket, the member's key (if any) written */
static void open_raw(JsonWriter *w, char open, char close)
{
	if (w->p == w->end) {
		jw_fail_(w);
		return;
	}
	*w->p++ = open;
	if (w->depth + 1 >= JW_MAX_DEPTH) {
		w->failed = 1;
		return;
	}
	w->depth++;
	w->has_member &= ~(1u << w->depth);
	w->closer[w->depth] = close;
}

static void open_container(JsonWriter *w, const char *key, char open, char close)
{
	if (jw_member_(w, key, 1) != 0)
		return;
	open_raw(w, open, close);
}

void jw_begin(JsonWriter *w, char *buf, size_t cap)
{
	w->buf = w->p = buf;
	w->end = buf + cap;
	w->has_member = 0;
	w->depth = 0;
	w->failed = 0;
	w->closer[0] = '}';
	put_c(w, '{');
}

void jw_object(JsonWriter *w, const char *key)
{
	open_container(w, key, '{', '}');
}

void jw_array(JsonWriter *w, const char *key)
{
	open_container(w, key, '[', ']');
}

void jw_array_esc(JsonWriter *w, const char *key, size_t klen)
{
	if (jw_member_(w, NULL, 0) != 0)
		return;
	if (eve_json_put_string(&w->p, w->end, key, klen) != 0 || w->p == w->end) {
		jw_fail_(w);
		return;
	}
	*w->p++ = ':';
	open_raw(w, '[', ']');
}

void jw_close(JsonWriter *w)
{
	if (w->depth == 0) {
		w->failed = 1;
		return;
	}
	put_c(w, w->closer[w->depth]);
	w->depth--;
}

int jw_close_nonempty(JsonWriter *w, JwMark m)
{
	int empty = !(w->has_member & (1u << w->depth));

	if (w->failed || !empty || w->depth != m.depth + 1) {
		jw_close(w);
		return !empty;
	}
	w->p = m.p;
	w->has_member = m.has_member;
	w->depth = m.depth;
	return 0;
}

size_t jw_end(JsonWriter *w)
{
	while (w->depth > 0)
		jw_close(w);
	put_c(w, '}');
	return w->failed ? 0 : (size_t)(w->p - w->buf);
}

/* Two digits a step, from the end: a division by 100 a pair instead of by
 * 10 a digit, and no temporary copy. */
void jw_put_int_(JsonWriter *w, int64_t sv)
{
	static const char pairs[201] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	/* through unsigned, so that INT64_MIN negates without overflow */
	uint64_t v = sv < 0 ? 0ULL - (uint64_t)sv : (uint64_t)sv;
	unsigned n = sv < 0 ? 2 : 1;
	char *q;

	for (uint64_t t = v; t >= 10; t /= 10)
		n++;
	if ((size_t)(w->end - w->p) < n) {
		jw_fail_(w);
		return;
	}
	if (sv < 0)
		*w->p = '-';
	q = w->p + n;
	while (v >= 100) {
		unsigned d = (unsigned)(v % 100) * 2;

		v /= 100;
		*--q = pairs[d + 1];
		*--q = pairs[d];
	}
	if (v >= 10) {
		*--q = pairs[v * 2 + 1];
		*--q = pairs[v * 2];
	} else {
		*--q = (char)('0' + v);
	}
	w->p += n;
}

int jw_strn_try(JsonWriter *w, const char *key, const char *s, size_t n)
{
	char *p0 = w->p;
	uint32_t had = w->has_member;
	int r;

	if (jw_member_(w, key, 0) != 0)
		return 0;
	r = eve_json_put_utf8(&w->p, w->end, s, n);
	if (r == -2) {
		/* take the member back: as if never begun */
		w->p = p0;
		w->has_member = had;
		return -1;
	}
	if (r)
		w->failed = 1;
	return 0;
}

void jw_bytes(JsonWriter *w, const char *key, const void *p, size_t n)
{
	char stack[1024], *tmp;

	if (jw_strn_try(w, key, p, n) == 0)
		return;
	tmp = n <= sizeof(stack) / 4 ? stack : malloc(n * 4);
	if (!tmp) {
		jw_ascii(w, key, "", 0);   /* as eve_json_bytes: "" */
		return;
	}
	jw_strn(w, key, tmp, eve_x_escape(p, n, tmp, EVE_X_UPPER));
	if (tmp != stack)
		free(tmp);
}

int jw_json(JsonWriter *w, const char *key, const json_t *v)
{
	size_t room, n;

	if (!v) {
		jw_fail_(w);
		return 0;
	}
	if (jw_member_(w, key, 0) != 0)
		return 0;
	room = (size_t)(w->end - w->p);
	n = json_is_object(v) || json_is_array(v) ? eve_json_dump(v, w->p, room) : EVE_JSON_NOFIT;
	/* a scalar, or a tree eve_json_dump() hands back (no room, or deeper
	 * than it goes): jansson itself, which says what it needed */
	if (n == EVE_JSON_NOFIT)
		n = json_dumpb(v, w->p, room, JSON_ENCODE_ANY | JSON_COMPACT | JSON_PRESERVE_ORDER);
	if (n == 0) {
		jw_fail_(w);
		return -1;
	}
	if (n > room) {
		jw_fail_(w);
		return 0;
	}
	w->p += n;
	return 0;
}

char *jw_ascii_room(JsonWriter *w, const char *key, size_t n)
{
	char *s;

	if (jw_member_(w, key, n + 2) != 0)
		return NULL;
	*w->p++ = '"';
	s = w->p;
	w->p += n;
	*w->p++ = '"';
	return s;
}

static const char b64_alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t jw_base64_encode(const uint8_t *in, size_t len, char *out)
{
	size_t o = 0, i = 0;

	for (; i + 2 < len; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];

		out[o++] = b64_alphabet[v >> 18];
		out[o++] = b64_alphabet[(v >> 12) & 63];
		out[o++] = b64_alphabet[(v >> 6) & 63];
		out[o++] = b64_alphabet[v & 63];
	}
	if (i < len) {
		uint32_t v = (uint32_t)in[i] << 16;

		if (i + 1 < len)
			v |= (uint32_t)in[i + 1] << 8;
		out[o++] = b64_alphabet[v >> 18];
		out[o++] = b64_alphabet[(v >> 12) & 63];
		out[o++] = i + 1 < len ? b64_alphabet[(v >> 6) & 63] : '=';
		out[o++] = '=';
	}
	return o;
}

void jw_base64(JsonWriter *w, const char *key, const uint8_t *data, size_t len)
{
	char *s;

	if ((s = jw_ascii_room(w, key, JW_BASE64_LEN(len))))
		jw_base64_encode(data, len, s);
}

json_t *jw_build_tree(void (*build)(JsonWriter *w, void *ctx), void *ctx)
{
	JsonWriter w;
	json_t *t = NULL;

	for (size_t cap = 1u << 14; cap <= (64u << 20) && !t; cap *= 16) {
		char *buf = malloc(cap);
		size_t n;

		if (!buf)
			return NULL;
		jw_begin(&w, buf, cap);
		build(&w, ctx);
		n = jw_end(&w);
		if (n)
			t = json_loadb(buf, n, JSON_ALLOW_NUL, NULL);
		free(buf);
		if (n)
			break;
	}
	return t;
}
