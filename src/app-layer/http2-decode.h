/* HTTP/2 DATA under a Content-Encoding (gzip, deflate, br): Suricata 8
 * gives a stream's file its decoded bytes, as HTTP/1's libhtp does for
 * bodies (suricata-verify http2-bugfixes). One decoder per transaction
 * side, made at the first encoded DATA; output goes out in pieces of a
 * fixed stack buffer, and stops at HTTP2_DECODE_MAX bytes a side (a
 * compression bomb ends there). */
#ifndef APP_LAYER_HTTP2_DECODE_H
#define APP_LAYER_HTTP2_DECODE_H

#include <stddef.h>
#include <stdint.h>

#define HTTP2_DECODE_MAX (64u << 20)

typedef struct Http2Decoder Http2Decoder;

/* A decoder for a Content-Encoding value (the last coding named counts,
 * no case), or NULL: identity, unknown, or no memory (the bytes then go
 * out as sent). */
Http2Decoder *http2_decoder_new(const uint8_t *ce, uint32_t len);
void http2_decoder_free(Http2Decoder *d);

/* Decodes n bytes, calling out(ctx, piece, len) for each decoded piece.
 * A corrupt stream stops the decoding: the rest is dropped, as Suricata
 * does. */
void http2_decode(Http2Decoder *d, const uint8_t *p, uint32_t n,
		  void (*out)(void *ctx, const uint8_t *p, uint32_t n), void *ctx);

#endif
