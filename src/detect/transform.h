/* Transforms on sticky buffers (Suricata's to_lowercase, url_decode,
 * from_base64, pcrexform, ...) and base64_decode / base64_data.
 *
 * A transform chain belongs to one list of a signature: the buffer is
 * transformed once, then the list's keywords (and the MPM, when the rule's
 * fast pattern lives there) see the result. As in Suricata, transforms apply
 * to the keywords that follow them: content placed on a buffer before a
 * transform inspects the raw buffer, so a rule may hold a second instance of
 * the same buffer (BUF_HTTP_XINST*) with its own chain. */
#ifndef DETECT_TRANSFORM_H
#define DETECT_TRANSFORM_H

#include "detect/detect-parse.h"

#include <stdint.h>

enum transform_kind {
	TR_NONE = 0,
	TR_DOTPREFIX,
	TR_STRIP_WHITESPACE,
	TR_COMPRESS_WHITESPACE,
	TR_TO_LOWERCASE,
	TR_TO_UPPERCASE,
	TR_URL_DECODE,
	TR_XOR,
	TR_HEADER_LOWERCASE,
	TR_STRIP_PSEUDO_HEADERS,
	TR_PCREXFORM,
	TR_FROM_BASE64,
	TR_TO_MD5,
	TR_TO_SHA1,
	TR_TO_SHA256,
	TR_GUNZIP,
	TR_ZLIB_DEFLATE,
	TR_DOMAIN,
	TR_TLD,
	TR_LUAXFORM,
};

/* Base64 alphabets' error handling, as Suricata's from_base64 modes:
 * rfc4648 stops at the first byte outside the alphabet, rfc2045 skips
 * such bytes, strict fails on them. */
enum b64_mode { B64_RFC4648 = 0, B64_RFC2045, B64_STRICT };

typedef struct Transform {
	int kind;                 /* enum transform_kind */
	uint32_t offset, bytes;   /* from_base64: where to start, how much (0: all);
				   * gunzip, zlib_deflate: bytes is max-size */
	int mode;                 /* from_base64: enum b64_mode */
	uint8_t *key;             /* xor key */
	uint32_t keylen;
	void *re;                 /* pcrexform: pcre2_code * */
	char *pattern;            /* pcrexform: as written (chain equality) */
	struct LuaXformDef *lua;  /* luaxform (detect/lua/lua-xform.h) */
} Transform;

#define TRANSFORM_CHAIN_MAX 16
typedef struct TransformChain {
	int n;
	Transform t[TRANSFORM_CHAIN_MAX];
} TransformChain;

#define SIG_XINST_MAX (BUF_HTTP_XINST3 - BUF_HTTP_XINST0 + 1)

typedef struct SigXform {
	TransformChain *chain[BUF_MAX];      /* per list; NULL: the raw buffer */
	int8_t inst_base[SIG_XINST_MAX];     /* buffer of BUF_HTTP_XINST0 + i, -1 unused */
	/* a => rule's "<buffer>: to_server|to_client" on a buffer of both
	 * sides: 1 + its DBUF_TS/DBUF_TC; 0 the buffer's own */
	int8_t side[BUF_MAX];
} SigXform;

/* base64_decode:[bytes N][, offset N][, relative] */
typedef struct DetectBase64 {
	uint32_t bytes, offset;
	int relative;
} DetectBase64;

/* Per-thread output buffers. They grow to the largest buffer seen (rarely,
 * then never again) so that transforms do not allocate per packet. */
typedef struct XformScratch {
	uint8_t *buf[2];
	uint32_t cap[2];
	uint8_t *b64;             /* base64_decode output (base64_data) */
	uint32_t b64_cap, b64_len;
	int in_b64;               /* inspecting base64_data: no nested decode */
	void *md;                 /* pcre2_match_data * */
	struct XformCodec *codec; /* transform-codec.c's, made on first use */
	struct LuaXformThread *lua; /* luaxform's Lua states, made on first use */
} XformScratch;

XformScratch *xform_scratch_new(void);
void xform_scratch_free(XformScratch *xs);

/* Runs chain c over in[0, len). *out points at in (empty chain) or into xs.
 * Returns 0, or -1 when a buffer could not grow (the caller does not match). */
int transform_apply(const TransformChain *c, XformScratch *xs, const uint8_t *in, uint32_t len,
		    const uint8_t **out, uint32_t *outlen);
int transform_chain_equal(const TransformChain *a, const TransformChain *b);

/* The chain of list l of s, or NULL. */
const TransformChain *sig_list_chain(const Signature *s, int l);
/* The buffer list l stands for: l itself, or the base of an instance list. */
int sig_list_base(const Signature *s, int l);
/* The side list l reads (DBUF_TS, DBUF_TC or DBUF_EVAL): its buffer's, or
 * the one a => rule gave it. */
int sig_list_side(const Signature *s, int l);
/* 1 when a => rule gave list l its side */
int sig_list_side_given(const Signature *s, int l);

/* Decodes base64 per mode into out (room for len * 3 / 4 + 3 bytes).
 * Returns the number of bytes written, or -1 (strict mode, bad input). */
int64_t base64_decode_mode(const uint8_t *in, uint32_t len, uint8_t *out, int mode);

/* base64_decode at the current position prev of buffer data: decodes into
 * xs->b64. Returns 1 when some bytes were decoded. */
int base64_decode_step(XformScratch *xs, const DetectBase64 *bd, const uint8_t *data,
		       uint32_t len, uint32_t prev);

void transform_free_one(Transform *t);

#endif
