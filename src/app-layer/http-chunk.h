/* A shadow reader of a chunked HTTP/1 body's framing, beside libhtp: the
 * system's libhtp 0.5.42 skips chunk extensions ("4;name=value") without a
 * word, while Suricata 8 raises http.request_chunk_extension for them. It
 * reads only the size lines and skips the data, so it holds no bytes: a
 * few fields per direction, whatever the body's size or its segmentation. */
#ifndef APP_LAYER_HTTP_CHUNK_H
#define APP_LAYER_HTTP_CHUNK_H

#include <stddef.h>
#include <stdint.h>

typedef struct HttpChunkScan {
	uint64_t left;      /* data bytes of the current chunk still to skip */
	uint8_t state;      /* HTTP_CHUNK_* of http-chunk.c */
	uint8_t in_size;    /* hex digits seen on this size line */
	uint8_t after;      /* something other than hex digits followed them */
	uint8_t ext;        /* a ';' followed them: an extension */
} HttpChunkScan;

enum {
	HTTP_CHUNK_EXTENSION = 1,   /* a size line with an extension ended */
	HTTP_CHUNK_DONE = 2,        /* the last chunk's size line ended */
};

/* Starts reading a body at its first size line. */
void http_chunk_scan_init(HttpChunkScan *s);

/* Reads the next len bytes of the body; returns HTTP_CHUNK_* bits of what
 * ended in them. After DONE (or a size line that is no hex number, which
 * libhtp refuses) it reads nothing more. */
int http_chunk_scan(HttpChunkScan *s, const uint8_t *p, size_t len);

#endif
