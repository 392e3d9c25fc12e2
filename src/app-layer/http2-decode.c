/* HTTP/2 content decoding for files (http2-decode.h). */
#include "config.h"
#include "app-layer/http2-decode.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>
#ifdef HAVE_BROTLI
#include <brotli/decode.h>
#endif

enum { DEC_ZLIB = 1, DEC_BROTLI };

struct Http2Decoder {
	int kind;
	int dead;                   /* corrupt or over the limit: no more */
	uint64_t total;             /* decoded bytes so far */
	z_stream z;
	/* the first input bytes, for a restart as raw deflate when the
	 * zlib header check fails on them (DATA may come a byte a time) */
	uint8_t head[2];
	uint8_t headn;
	uint8_t raw;                /* restarted as raw deflate */
#ifdef HAVE_BROTLI
	BrotliDecoderState *br;
#endif
};

/* The last token of a coding list ("gzip", "x, br"), blanks trimmed. */
static void last_token(const uint8_t *ce, uint32_t len, const uint8_t **t, uint32_t *tl)
{
	uint32_t e = len, s;

	while (e && (ce[e - 1] == ' ' || ce[e - 1] == '\t'))
		e--;
	s = e;
	while (s && ce[s - 1] != ',')
		s--;
	while (s < e && (ce[s] == ' ' || ce[s] == '\t'))
		s++;
	*t = ce + s;
	*tl = e - s;
}

static int tok_is(const uint8_t *t, uint32_t tl, const char *name)
{
	return tl == strlen(name) && strncasecmp((const char *)t, name, tl) == 0;
}

Http2Decoder *http2_decoder_new(const uint8_t *ce, uint32_t len)
{
	const uint8_t *t;
	uint32_t tl;
	Http2Decoder *d;

	if (!ce || !len)
		return NULL;
	last_token(ce, len, &t, &tl);
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	if (tok_is(t, tl, "gzip") || tok_is(t, tl, "x-gzip") || tok_is(t, tl, "deflate")) {
		/* 32 + 15: zlib or gzip by their header; raw deflate is tried
		 * below when a "deflate" body has no zlib header */
		if (inflateInit2(&d->z, 32 + 15) != Z_OK) {
			free(d);
			return NULL;
		}
		d->kind = DEC_ZLIB;
		return d;
	}
#ifdef HAVE_BROTLI
	if (tok_is(t, tl, "br") && (d->br = BrotliDecoderCreateInstance(NULL, NULL, NULL))) {
		d->kind = DEC_BROTLI;
		return d;
	}
#endif
	free(d);
	return NULL;
}

void http2_decoder_free(Http2Decoder *d)
{
	if (!d)
		return;
	if (d->kind == DEC_ZLIB)
		inflateEnd(&d->z);
#ifdef HAVE_BROTLI
	if (d->kind == DEC_BROTLI)
		BrotliDecoderDestroyInstance(d->br);
#endif
	free(d);
}

/* Hands out a decoded piece, within the side's limit. */
static void emit(Http2Decoder *d, const uint8_t *p, size_t n,
		 void (*out)(void *, const uint8_t *, uint32_t), void *ctx)
{
	if (d->total + n > HTTP2_DECODE_MAX) {
		n = (size_t)(HTTP2_DECODE_MAX - d->total);
		d->dead = 1;
	}
	d->total += n;
	if (n)
		out(ctx, p, (uint32_t)n);
}

static void decode_zlib(Http2Decoder *d, const uint8_t *p, uint32_t n,
			void (*out)(void *, const uint8_t *, uint32_t), void *ctx)
{
	uint8_t buf[8192];
	uint32_t prev = d->headn;

	for (uint32_t i = 0; i < n && d->headn < sizeof(d->head) && !d->raw; i++)
		d->head[d->headn++] = p[i];
	d->z.next_in = (Bytef *)p;
	d->z.avail_in = n;
	while (!d->dead && d->z.avail_in) {
		int r;

		d->z.next_out = buf;
		d->z.avail_out = sizeof(buf);
		r = inflate(&d->z, Z_NO_FLUSH);
		if (r == Z_DATA_ERROR && !d->raw && d->z.total_out == 0 && d->z.total_in <= 2) {
			/* "deflate" sent raw, without the zlib header, as
			 * some servers do: start again as raw deflate, with
			 * the bytes earlier chunks gave, then this one */
			d->raw = 1;
			inflateEnd(&d->z);
			memset(&d->z, 0, sizeof(d->z));
			if (inflateInit2(&d->z, -15) != Z_OK) {
				d->kind = 0;
				d->dead = 1;
				return;
			}
			if (prev)
				decode_zlib(d, d->head, prev, out, ctx);
			decode_zlib(d, p, n, out, ctx);
			return;
		}
		emit(d, buf, sizeof(buf) - d->z.avail_out, out, ctx);
		if (r == Z_STREAM_END || (r != Z_OK && r != Z_BUF_ERROR))
			d->dead = 1;
		else if (r == Z_BUF_ERROR && d->z.avail_out)
			break;
	}
}

#ifdef HAVE_BROTLI
static void decode_brotli(Http2Decoder *d, const uint8_t *p, uint32_t n,
			  void (*out)(void *, const uint8_t *, uint32_t), void *ctx)
{
	uint8_t buf[8192];
	size_t avail_in = n;
	const uint8_t *next_in = p;

	while (!d->dead) {
		size_t avail_out = sizeof(buf);
		uint8_t *next_out = buf;
		BrotliDecoderResult r = BrotliDecoderDecompressStream(d->br, &avail_in, &next_in,
								      &avail_out, &next_out, NULL);

		emit(d, buf, sizeof(buf) - avail_out, out, ctx);
		if (r == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT)
			continue;
		if (r != BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT)
			d->dead = 1;    /* the end, or an error */
		break;
	}
}
#endif

void http2_decode(Http2Decoder *d, const uint8_t *p, uint32_t n,
		  void (*out)(void *ctx, const uint8_t *p, uint32_t n), void *ctx)
{
	if (!d || d->dead || !n)
		return;
	if (d->kind == DEC_ZLIB)
		decode_zlib(d, p, n, out, ctx);
#ifdef HAVE_BROTLI
	else if (d->kind == DEC_BROTLI)
		decode_brotli(d, p, n, out, ctx);
#endif
}
