/* The eve "http" object of an HTTP/2 transaction, as Suricata 8 writes it
 * (schema: eve-schema.json "http"): the fields HTTP/1 records have that
 * the headers give (hostname, url, http_method, status, ...), "version":
 * "2", request_headers and response_headers (a dynamic table size update
 * as {"table_size_update": n}), and the "http2" object: stream_id, and per
 * side its settings, error_code and priority. */
#ifndef OUTPUT_HTTP2_JSON_H
#define OUTPUT_HTTP2_JSON_H

#include "app-layer/http2.h"

#include <jansson.h>

struct JsonWriter;
void http2_json_write(struct JsonWriter *w, const Http2Tx *tx);
/* The same as a tree, for tests; the caller owns it. */
json_t *http2_json_object(const Http2Tx *tx);

#endif
