/* A JSON writer for eve records: fields go straight into a caller's buffer
 * in the order they are written, with no tree to build, serialise and free
 * (for a flow record jansson's tree cost ten times the text). The bytes are
 * those eve_json_dump() writes for the same fields added to a jansson
 * object in the same order: strings escaped as jansson escapes them.
 *
 *   JsonWriter w;
 *   char line[4096];
 *   jw_begin(&w, line, sizeof(line));      // the record's '{'
 *   jw_str(&w, "event_type", "flow");
 *   jw_object(&w, "flow"); jw_int(&w, "age", 3); jw_close(&w);
 *   n = jw_end(&w);                         // 0: did not fit, or bad UTF-8
 *
 * A NULL key writes an array element. Nothing allocates; a record that does
 * not fit or nests deeper than JW_MAX_DEPTH makes jw_end() return 0. A
 * string that is not UTF-8 is written in Suricata 8's form for such bytes,
 * each byte from 0x80 as the text "\\xNN" (json-dump.c): every record is
 * written, and valid UTF-8.
 *
 * Every eve record is written with these calls and leaves through one
 * path (eve_write_built(), output.c), so that what a record's part looks
 * like is decided once: the header, an alert's "alert" object, a
 * protocol's object as its own record and as an alert's member. jansson
 * stays where a tree is needed: jw_json() writes one into a record (the
 * stats record's counters, nested on their dots), and jw_build_tree()
 * reads a written part back as a tree for the tests. */
#ifndef OUTPUT_JSON_WRITER_H
#define OUTPUT_JSON_WRITER_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "output/json-dump.h"

#define JW_MAX_DEPTH 16

typedef struct JsonWriter {
	char *buf, *p, *end;
	uint32_t has_member;   /* bit d: the container at depth d has one */
	char closer[JW_MAX_DEPTH];
	uint8_t depth;
	uint8_t failed;
} JsonWriter;

void jw_begin(JsonWriter *w, char *buf, size_t cap);
/* Closes every open container; the record's length, or 0 (see above). */
size_t jw_end(JsonWriter *w);

void jw_object(JsonWriter *w, const char *key);
void jw_array(JsonWriter *w, const char *key);
void jw_close(JsonWriter *w);
/* jw_array() with a key that is not one of our literals (a rule's metadata
 * key): escaped as a string is. */
void jw_array_esc(JsonWriter *w, const char *key, size_t klen);

/* As jw_strn, but a string that is not UTF-8 writes nothing and returns
 * -1 (the writer stays usable): the caller writes another form of it. */
int jw_strn_try(JsonWriter *w, const char *key, const char *s, size_t n);

/* Bytes off the wire in eve_json_bytes()' form (json-dump.h): valid UTF-8
 * as it is, else every byte from 0x80 as the text "\\xNN". */
void jw_bytes(JsonWriter *w, const char *key, const void *p, size_t n);

/* A jansson value as member key, the bytes json_dumps() writes for it: for
 * the part of a record that needs a tree (the stats counters). -1 where
 * jansson's dump
 * refuses the value (a string in it is not UTF-8): the record fails, as
 * json_dumps() fails the record that holds it; else 0. */
int jw_json(JsonWriter *w, const char *key, const json_t *v);

/* Room for a string member of exactly n bytes that JSON keeps as they are
 * (base64, text the caller escaped), filled by the caller at the pointer
 * returned: formatted in place rather than into a temporary and copied.
 * NULL when it does not fit (the record fails). */
char *jw_ascii_room(JsonWriter *w, const char *key, size_t n);

/* Standard base64 with padding of len bytes at out, which holds
 * JW_BASE64_LEN(len) bytes (no terminator is written). */
#define JW_BASE64_LEN(len) (4 * (((size_t)(len) + 2) / 3))
size_t jw_base64_encode(const uint8_t *in, size_t len, char *out);
/* A string member: base64 of data, encoded in place. */
void jw_base64(JsonWriter *w, const char *key, const uint8_t *data, size_t len);

/* The object build() writes, read back as a jansson tree: for the tests and
 * fuzzers that look into a record's parts. The bytes are the record's own
 * (one path writes every record); NULL when it did not fit in 64 MiB. */
json_t *jw_build_tree(void (*build)(JsonWriter *w, void *ctx), void *ctx);

/* ---- the member calls, inline ----
 * A record is tens of members; out of line each paid a strlen and a
 * memcpy call for its key, a literal whose length the compiler knows at
 * the call site. Inline, "key": is a few stores. */

/* v's digits (and sign), or the record fails where they do not fit */
void jw_put_int_(JsonWriter *w, int64_t v);

static inline void jw_fail_(JsonWriter *w)
{
	w->failed = 1;
	w->p = w->end;
}

/* The separator, then "key": (a member of an object) or nothing (an array
 * element), with room for `more` bytes after it, else the record fails.
 * Keys are our literals: plain ASCII. 0 when the member may be written. */
static inline int jw_member_(JsonWriter *w, const char *key, size_t more)
{
	size_t kl = key ? __builtin_strlen(key) : 0;
	uint32_t bit = 1u << w->depth;

	if ((size_t)(w->end - w->p) < kl + 4 + more) {
		jw_fail_(w);
		return -1;
	}
	if (w->has_member & bit)
		*w->p++ = ',';
	w->has_member |= bit;
	if (key) {
		*w->p++ = '"';
		memcpy(w->p, key, kl);
		w->p += kl;
		*w->p++ = '"';
		*w->p++ = ':';
	}
	return 0;
}

static inline void jw_strn(JsonWriter *w, const char *key, const char *s, size_t n)
{
	if (jw_member_(w, key, 0) == 0 && eve_json_put_string(&w->p, w->end, s, n))
		w->failed = 1;
}

static inline void jw_str(JsonWriter *w, const char *key, const char *s)
{
	jw_strn(w, key, s, strlen(s));
}

/* A string that JSON writes as it is: printable ASCII without '"' or '\\'.
 * For the strings we format ourselves (timestamps, addresses, names from
 * our tables), never for bytes off the wire: nothing checks them. */
static inline void jw_ascii(JsonWriter *w, const char *key, const char *s, size_t n)
{
	if (jw_member_(w, key, n + 2) == 0) {
		*w->p++ = '"';
		memcpy(w->p, s, n);
		w->p += n;
		*w->p++ = '"';
	}
}

/* A place in the record to come back to: a member begun and then found
 * empty (an array with no element) is taken back whole, as the trees left
 * out an empty container. Nothing to undo after a failure: it sticks. */
typedef struct JwMark {
	char *p;
	uint32_t has_member;
	uint8_t depth;
} JwMark;

static inline JwMark jw_mark(const JsonWriter *w)
{
	JwMark m = { w->p, w->has_member, w->depth };

	return m;
}

/* Closes the open container; one with no member is taken back to m (the
 * mark taken before it was opened). 1 when it was kept. */
int jw_close_nonempty(JsonWriter *w, JwMark m);

/* A string member only where s is not NULL and is UTF-8, as jansson's
 * checked json_string() left out a member it could not make: for names
 * from tables and text we format, where no other form is wanted. */
static inline void jw_str_opt(JsonWriter *w, const char *key, const char *s)
{
	if (s)
		(void)jw_strn_try(w, key, s, strlen(s));
}

static inline void jw_int(JsonWriter *w, const char *key, int64_t v)
{
	if (jw_member_(w, key, 0) == 0)
		jw_put_int_(w, v);
}

static inline void jw_bool(JsonWriter *w, const char *key, int v)
{
	if (jw_member_(w, key, v ? 4 : 5) != 0)
		return;
	memcpy(w->p, v ? "true" : "false", v ? 4 : 5);
	w->p += v ? 4 : 5;
}

#endif
