/* The "pop3" object of eve records, as Suricata 8 writes it (schema:
 * eve-schema.json "pop3"): request {command, args[]} and response
 * {success, status "OK"/"ERR", header, data[] (a multi-line body's
 * lines)}, each when the transaction has it. */
#ifndef OUTPUT_POP3_JSON_H
#define OUTPUT_POP3_JSON_H

#include <jansson.h>

#include "app-layer/pop3-parse.h"

struct JsonWriter;
void pop3_json_write(struct JsonWriter *w, const Pop3Tx *t);
/* The same as a tree, for tests and fuzzers; the caller owns it. */
json_t *pop3_json_object(const Pop3Tx *t);

#endif
