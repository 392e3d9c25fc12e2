/* A fast serialiser for eve records built with jansson: the same bytes as
 * json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER), written straight into a
 * caller's buffer, without allocation and without jansson's per-fragment
 * callback, per-character UTF-8 decoding and snprintf for integers. */
#ifndef OUTPUT_JSON_DUMP_H
#define OUTPUT_JSON_DUMP_H

#include <jansson.h>
#include <stddef.h>

/* Returned when the record did not fit in cap bytes, or nests deeper than
 * EVE_JSON_MAX_DEPTH: the caller formats it with json_dumps() instead. */
#define EVE_JSON_NOFIT ((size_t)-1)

/* Containers deeper than this go to jansson (records nest a handful of
 * levels; the cap only bounds our recursion, and keeps a cyclic tree from
 * overflowing the stack: jansson then reports the cycle). */
#define EVE_JSON_MAX_DEPTH 128

/* Formats the object or array v into buf (no NUL terminator). Returns the
 * number of bytes written (1..cap); 0 where json_dumps() fails too (a root
 * that is not an object or an array); EVE_JSON_NOFIT as above (buf then
 * holds garbage). A string (value or key) that is not valid UTF-8 is
 * written in the "\\xNN" form (json-dump.c), where jansson would fail. */
size_t eve_json_dump(const json_t *v, char *buf, size_t cap);

/* Writes s (len bytes) as a JSON string, quotes included, at *pp, escaped
 * as above, and advances *pp. Returns 0; -1 when it does not fit before end.
 * _utf8: -2 when s is not valid UTF-8 (nothing usable written: the JSON
 * writer's jw_strn_try(), whose callers have a form of their own). */
int eve_json_put_string(char **pp, char *end, const char *s, size_t len);
int eve_json_put_utf8(char **pp, char *end, const char *s, size_t len);

/* Bytes off the wire as a jansson string: valid UTF-8 as it is; otherwise
 * every byte from 0x80 becomes the text "\xNN" (upper-case hex), so that a
 * hostile value still gives a valid record and no field is dropped (the
 * tls, smtp, ssh and ftp records; dns and http have their own forms, as
 * Suricata writes them). "" when out of memory. */
json_t *eve_json_bytes(const void *p, size_t n);

/* The "\\xNN" form of bytes at out (room for 4 * n): bytes from 0x80 (and,
 * with EVE_X_PRINTABLE, every byte outside printable ASCII) as backslash,
 * 'x' and two hex digits (EVE_X_UPPER: upper case). Returns the length.
 * The forms eve's records use for bytes that are not UTF-8. */
#define EVE_X_UPPER 1
#define EVE_X_PRINTABLE 2
size_t eve_x_escape(const void *p, size_t n, char *out, unsigned flags);

#endif
