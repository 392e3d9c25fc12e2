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
 * not fit, nests deeper than JW_MAX_DEPTH or holds a string that is not
 * UTF-8 makes jw_end() return 0 (jansson's dump refuses such a string too).
 *
 * The same calls can build a jansson tree instead (jw_tree_begin/_end), for
 * the records still assembled as trees (alerts merge a transaction's
 * members): so a part of a record is written once, as writer calls, and
 * serves both (the common header, eve_header()). */
#ifndef OUTPUT_JSON_WRITER_H
#define OUTPUT_JSON_WRITER_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

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

void jw_str(JsonWriter *w, const char *key, const char *s);
void jw_strn(JsonWriter *w, const char *key, const char *s, size_t n);
/* As jw_strn, but a string that is not UTF-8 writes nothing and returns
 * -1 (the writer stays usable): the caller writes another form of it. */
int jw_strn_try(JsonWriter *w, const char *key, const char *s, size_t n);
void jw_int(JsonWriter *w, const char *key, int64_t v);
void jw_bool(JsonWriter *w, const char *key, int v);

#endif
