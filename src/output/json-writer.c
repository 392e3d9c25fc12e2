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

/* Tree mode: v joins the open container (steals the reference). */
static void tree_add(JsonWriter *w, const char *key, json_t *v)
{
	json_t *c = w->tree[w->depth];
	int r;

	/* after a failure nothing is added: the tree is dropped at the end,
	 * and a container that failed to join was freed */
	if (!v || w->failed) {
		json_decref(v);
		w->failed = 1;
		return;
	}
	r = key ? json_object_set_new_nocheck(c, key, v) : json_array_append_new(c, v);
	if (r)
		w->failed = 1;
}

static void open_container(JsonWriter *w, const char *key, char open, char close)
{
	if (w->tree_mode) {
		json_t *c = open == '{' ? json_object() : json_array();

		if (w->depth + 1 >= JW_MAX_DEPTH || !c) {
			json_decref(c);
			w->failed = 1;
			return;
		}
		json_incref(c);
		tree_add(w, key, c);   /* takes one reference, or drops it */
		if (w->failed) {
			json_decref(c);
			return;
		}
		w->tree[++w->depth] = c;
		json_decref(c);   /* the parent holds it */
		return;
	}
	if (jw_member_(w, key, 1) != 0)
		return;
	*w->p++ = open;
	if (w->depth + 1 >= JW_MAX_DEPTH) {
		w->failed = 1;
		return;
	}
	w->depth++;
	w->has_member &= ~(1u << w->depth);
	w->closer[w->depth] = close;
}

void jw_begin(JsonWriter *w, char *buf, size_t cap)
{
	w->buf = w->p = buf;
	w->end = buf + cap;
	w->has_member = 0;
	w->depth = 0;
	w->failed = 0;
	w->tree_mode = 0;
	w->closer[0] = '}';
	put_c(w, '{');
}

void jw_tree_begin(JsonWriter *w)
{
	w->buf = w->p = w->end = NULL;
	w->depth = 0;
	w->failed = 0;
	w->tree_mode = 1;
	w->tree[0] = json_object();
	if (!w->tree[0])
		w->failed = 1;
}

json_t *jw_tree_end(JsonWriter *w)
{
	json_t *root = w->tree[0];

	if (!w->tree_mode)
		return NULL;
	if (w->failed) {
		json_decref(root);
		return NULL;
	}
	return root;
}

void jw_object(JsonWriter *w, const char *key)
{
	open_container(w, key, '{', '}');
}

void jw_array(JsonWriter *w, const char *key)
{
	open_container(w, key, '[', ']');
}

void jw_close(JsonWriter *w)
{
	if (w->depth == 0) {
		w->failed = 1;
		return;
	}
	if (w->tree_mode) {
		w->depth--;
		return;
	}
	put_c(w, w->closer[w->depth]);
	w->depth--;
}

size_t jw_end(JsonWriter *w)
{
	while (w->depth > 0)
		jw_close(w);
	put_c(w, '}');
	return w->failed ? 0 : (size_t)(w->p - w->buf);
}

void jw_tree_str_(JsonWriter *w, const char *key, const char *s, size_t n)
{
	/* as the writer writes it: UTF-8, else the \\xNN form (json-dump.c) */
	tree_add(w, key, eve_json_bytes(s, n));
}

void jw_tree_int_(JsonWriter *w, const char *key, int64_t v)
{
	tree_add(w, key, json_integer((json_int_t)v));
}

void jw_tree_bool_(JsonWriter *w, const char *key, int v)
{
	tree_add(w, key, json_boolean(v));
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

	if (w->tree_mode) {
		json_t *v = json_stringn(s, n);   /* checked: NULL when not UTF-8 */

		if (!v)
			return -1;
		tree_add(w, key, v);
		return 0;
	}
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

	if (w->tree_mode) {
		tree_add(w, key, eve_json_bytes(p, n));
		return;
	}
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

	if (w->tree_mode) {
		tree_add(w, key, json_incref((json_t *)v));
		return 0;
	}
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

	if (w->tree_mode) {
		w->failed = 1;
		return NULL;
	}
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

	if (w->tree_mode) {
		/* a tree's string is a copy anyway: encoded, then copied in */
		if (!(s = malloc(JW_BASE64_LEN(len) + 1))) {
			w->failed = 1;
			return;
		}
		jw_tree_str_(w, key, s, jw_base64_encode(data, len, s));
		free(s);
		return;
	}
	if ((s = jw_ascii_room(w, key, JW_BASE64_LEN(len))))
		jw_base64_encode(data, len, s);
}
