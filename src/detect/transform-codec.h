/* Digest, decompression and Public Suffix List transforms (to_md5, to_sha1,
 * to_sha256, gunzip, zlib_deflate, domain, tld): transform-codec.c. */
#ifndef DETECT_TRANSFORM_CODEC_H
#define DETECT_TRANSFORM_CODEC_H

#include <stdint.h>

typedef struct XformCodec XformCodec;

void xform_codec_free(XformCodec *c);
/* kind TR_TO_MD5/SHA1/SHA256: the digest of in into out (room for 64);
 * *ok 0 when it could not be computed (no memory). */
uint32_t xform_digest(XformCodec **slot, int kind, const uint8_t *in, uint32_t len, uint8_t *out,
		      int *ok);
/* gzip 1: a gzip member, 0: a zlib stream; at most max bytes into out. */
uint32_t xform_inflate(XformCodec **slot, int gzip, const uint8_t *in, uint32_t len, uint8_t *out,
		       uint32_t max, int *ok);
/* tld 0: the registrable domain of the name in[0, len), 1: its public
 * suffix; into out (room for len), 0 bytes when there is none. */
uint32_t xform_psl(int tld, const uint8_t *in, uint32_t len, uint8_t *out);
/* Whether the domain and tld transforms work in this build (libpsl and a
 * list). */
int xform_psl_available(void);

/* gunzip / zlib_deflate: the default and the largest max-size (8.0's). */
#define XFORM_INFLATE_DEFAULT 1024u
#define XFORM_INFLATE_MAX (16u << 20)

#endif
