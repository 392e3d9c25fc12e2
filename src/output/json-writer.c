/* The eve JSON writer (json-writer.h). */
#include "output/json-writer.h"
#include "output/json-dump.h"

#include <string.h>

static inline void put(JsonWriter *w, const char *s, size_t n)
{
	if ((size_t)(w->end - w->p) < n) {
		w->failed = 1;
		w->p = w->end;
		return;
	}
	memcpy(w->p, s, n);
	w->p += n;
}

static inline void put_c(JsonWriter *w, char c)
{
	if (w->p == w->end) {
		w->failed = 1;
		return;
	}
	*w->p++ = c;
}

/* The separator before a member, then "key": (a member of an object) or
 * nothing (an array element). Keys are our literals: plain ASCII. */
static void member(JsonWriter *w, const char *key)
{
	uint32_t bit = 1u << w->depth;

	if (w->has_member & bit)
		put_c(w, ',');
	w->has_member |= bit;
	if (key) {
		put_c(w, '"');
		put(w, key, strlen(key));
		put(w, "\":", 2);
	}
}

static void open_container(JsonWriter *w, const char *key, char open, char close)
{
	member(w, key);
	put_c(w, open);
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

void jw_close(JsonWriter *w)
{
	if (w->depth == 0) {
		w->failed = 1;
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

void jw_strn(JsonWriter *w, const char *key, const char *s, size_t n)
{
	member(w, key);
	if (w->failed)
		return;
	if (eve_json_put_string(&w->p, w->end, s, n))
		w->failed = 1;
}

void jw_str(JsonWriter *w, const char *key, const char *s)
{
	jw_strn(w, key, s, strlen(s));
}

void jw_int(JsonWriter *w, const char *key, int64_t v)
{
	char tmp[24];
	char *q = tmp + sizeof(tmp);
	/* through unsigned, so that INT64_MIN negates without overflow */
	uint64_t u = v < 0 ? 0ULL - (uint64_t)v : (uint64_t)v;

	member(w, key);
	do {
		*--q = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--q = '-';
	put(w, q, (size_t)(tmp + sizeof(tmp) - q));
}

void jw_bool(JsonWriter *w, const char *key, int v)
{
	member(w, key);
	if (v)
		put(w, "true", 4);
	else
		put(w, "false", 5);
}
