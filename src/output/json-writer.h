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
 * The same calls can build a jansson tree instead (jw_tree_begin/_end), for
 * the records still assembled as trees (drop, anomaly, frame): so a part of
 * a record is written once, as writer calls, and serves both (the common
 * header, eve_header(); an alert's "alert" object). The other way round,
 * jw_json() writes a part that is still a tree into a written record. */
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
	json_t *tree[JW_MAX_DEPTH];   /* tree mode: the open containers */
	uint8_t depth;
	uint8_t failed;
	uint8_t tree_mode;
} JsonWriter;

void jw_begin(JsonWriter *w, char *buf, size_t cap);
/* Closes every open container; the record's length, or 0 (see above). */
size_t jw_end(JsonWriter *w);

/* Tree mode: the calls build a jansson object; _end returns it (a new
 * reference, NULL when out of memory or misused). */
void jw_tree_begin(JsonWriter *w);
json_t *jw_tree_end(JsonWriter *w);

void jw_object(JsonWriter *w, const char *key);
void jw_array(JsonWriter *w, const char *key);
void jw_close(JsonWriter *w);

/* As jw_strn, but a string that is not UTF-8 writes nothing and returns
 * -1 (the writer stays usable): the caller writes another form of it. */
int jw_strn_try(JsonWriter *w, const char *key, const char *s, size_t n);

/* Bytes off the wire in eve_json_bytes()' form (json-dump.h): valid UTF-8
 * as it is, else every byte from 0x80 as the text "\\xNN". */
void jw_bytes(JsonWriter *w, const char *key, const void *p, size_t n);

/* A jansson value as member key, the bytes json_dumps() writes for it: for
 * the parts of a record that other code still builds as trees (an alert's
 * app-layer objects). Tree mode adds a reference. -1 where jansson's dump
 * refuses the value (a string in it is not UTF-8): the record fails, as
 * json_dumps() fails the record that holds it; else 0. */
int jw_json(JsonWriter *w, const char *key, const json_t *v);

/* Room for a string member of exactly n bytes that JSON keeps as they are
 * (base64, text the caller escaped), filled by the caller at the pointer
 * returned: formatted in place rather than into a temporary and copied.
 * NULL when it does not fit (the record fails). The writer's buffer only:
 * in tree mode there is none, NULL and the tree fails. */
char *jw_ascii_room(JsonWriter *w, const char *key, size_t n);

/* Standard base64 with padding of len bytes at out, which holds
 * JW_BASE64_LEN(len) bytes (no terminator is written). */
#define JW_BASE64_LEN(len) (4 * (((size_t)(len) + 2) / 3))
size_t jw_base64_encode(const uint8_t *in, size_t len, char *out);
/* A string member: base64 of data, encoded in place. */
void jw_base64(JsonWriter *w, const char *key, const uint8_t *data, size_t len);

/* ---- the member calls, inline ----
 * A record is tens of members; out of line each paid a strlen and a
 * memcpy call for its key, a literal whose length the compiler knows at
 * the call site. Inline, "key": is a few stores. The tree mode goes out of
 * line (jw_tree_*_). */

void jw_tree_str_(JsonWriter *w, const char *key, const char *s, size_t n);
void jw_tree_int_(JsonWriter *w, const char *key, int64_t v);
void jw_tree_bool_(JsonWriter *w, const char *key, int v);
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
	if (w->tree_mode) {
		jw_tree_str_(w, key, s, n);
		return;
	}
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
	if (w->tree_mode) {
		jw_tree_str_(w, key, s, n);
		return;
	}
	if (jw_member_(w, key, n + 2) == 0) {
		*w->p++ = '"';
		memcpy(w->p, s, n);
		w->p += n;
		*w->p++ = '"';
	}
}

static inline void jw_int(JsonWriter *w, const char *key, int64_t v)
{
	if (w->tree_mode) {
		jw_tree_int_(w, key, v);
		return;
	}
	if (jw_member_(w, key, 0) == 0)
		jw_put_int_(w, v);
}

static inline void jw_bool(JsonWriter *w, const char *key, int v)
{
	if (w->tree_mode) {
		jw_tree_bool_(w, key, v);
		return;
	}
	if (jw_member_(w, key, v ? 4 : 5) != 0)
		return;
	memcpy(w->p, v ? "true" : "false", v ? 4 : 5);
	w->p += v ? 4 : 5;
}

#endif
