/* HTTP byte ranges: the Content-Range header, and the reassembly of one
 * file out of the 206 responses that carry its ranges.
 *
 * Suricata logs each 206 body as a file of its own and, once the ranges
 * of one resource (request host + file name) cover it from 0 to its full
 * size, one more file: the whole of it, on the transaction whose range
 * completed it (suricata-verify http-range-file). The ranges may come in
 * any order, over any number of transactions and flows, on any worker:
 * the files being reassembled live in one process-wide table behind a
 * mutex. Only 206 responses with a valid Content-Range reach it, so the
 * lock is off the ordinary packet path.
 *
 * Memory: a file being reassembled holds a buffer of its full size,
 * charged to app-layer.protocols.http.byterange.memcap (Suricata's key,
 * default 100mb); past it the ranges stay separate files. One not added
 * to for byterange.timeout seconds (default 60) of packet time is
 * dropped. */
#ifndef APP_LAYER_HTTP_RANGE_H
#define APP_LAYER_HTTP_RANGE_H

#include <stddef.h>
#include <stdint.h>

/* "bytes START-END/SIZE", "bytes START-END/ *", "bytes * /SIZE" (without
 * the spaces around '/'): -1 where the header has '*'. */
typedef struct HttpContentRange {
	int64_t start, end, size;
} HttpContentRange;

/* 0 with *cr filled, -1 when the value is not a Content-Range. */
int http_content_range_parse(const uint8_t *p, size_t len, HttpContentRange *cr);
/* Whether cr names a range of a file of known size: start <= end < size. */
int http_content_range_usable(const HttpContentRange *cr);

typedef struct HttpRange HttpRange;

/* byterange.memcap (0: unlimited) and byterange.timeout (seconds). */
void http_range_configure(uint64_t memcap, uint32_t timeout_s);
/* The file being reassembled for key (host + file name) and cr's size,
 * made when new; the caller holds it until http_range_release(). NULL:
 * no reassembly (cr not usable, another size under the same key, the
 * memcap). now_s: packet time, for the timeout. */
HttpRange *http_range_open(const uint8_t *key, size_t klen, const HttpContentRange *cr,
			   uint64_t now_s);
/* Bytes of the file at offset off (clipped to the file). */
void http_range_data(HttpRange *r, uint64_t off, const uint8_t *data, size_t len);
/* 1 once, for the first caller to find the file covered from 0 to its
 * size, with *data and *len the whole file (valid until this caller's
 * http_range_release()); 0 otherwise. */
int http_range_take_whole(HttpRange *r, const uint8_t **data, uint64_t *len);
void http_range_release(HttpRange *r);
/* Bytes held now (buffers and tables), for the tests. */
uint64_t http_range_memuse(void);
/* http.byterange.memuse (the table's bytes, summed over the threads that
 * changed it) and http.byterange.memcap (files refused at the memcap), as
 * Suricata 8's stats name them. */
void http_range_register_counters(void);
/* Drops every file (the end of the run, the tests). */
void http_range_cleanup(void);

#endif
