/* eve "http" records for HTTP transactions (their files' fileinfo records
 * go through the file logger, file-log.c), and the "http" object of alerts
 * on a transaction: HTTP's eve logger, reached through output_tx_log() and
 * the alert writer (tx-log.c). A no-op when eve does not list the type.
 * Thread-safe. */
#ifndef OUTPUT_HTTP_LOG_H
#define OUTPUT_HTTP_LOG_H

#include "output/output.h"
#include "app-layer/http.h"

/* An eve "http" record for tx; p (may be NULL) gives the time and pcap_cnt,
 * addresses follow the flow (client as source), as Suricata logs them. */
void output_http_tx(Outputs *o, const Packet *p, const Flow *f, HttpTx *tx);

/* The "http" object of eve records (alert, http, fileinfo): hostname, url,
 * http_user_agent, http_content_type, and with extended http_refer,
 * http_method, protocol, status, redirect, length; http_port when the uri
 * or Host header gives one. Members into the object w has open; 0
 * (nothing written) when the tx has no request or response line yet. */
struct JsonWriter;
int http_tx_write(struct JsonWriter *w, const HttpTx *tx, int extended);
/* eve "request_headers" / "response_headers" (dump-all-headers): array
 * member key of {"name", "value"} in the order libhtp keeps them. dir:
 * APP_DIR_*. 0 (nothing written) when that side has no headers yet. */
int http_tx_headers_write(struct JsonWriter *w, const char *key, const HttpTx *tx, int dir);
/* custom: [...]: the index of the header field a yaml entry names (its
 * header name or its eve member name, any case; below 64), -1: none. */
int http_custom_field(const char *name);
/* The same as trees (NULL where nothing is written), for the tests and
 * fuzzers; the caller owns them. */
json_t *http_tx_json(const HttpTx *tx, int extended);
json_t *http_tx_headers_json(const HttpTx *tx, int dir);

#endif
