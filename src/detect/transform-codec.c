/* The transforms that change a buffer into another kind of data, not a
 * rewritten copy of it: to_md5, to_sha1 and to_sha256 (its raw digest),
 * gunzip and zlib_deflate (its decompressed bytes, at most max-size of
 * them) and domain and tld (its registrable domain and its public suffix,
 * from the Public Suffix List through libpsl). transform.c calls these from
 * its step(); their scratch (an inflate stream, a digest context) lives in
 * the thread's XformScratch and is made on first use, so the packet path
 * allocates nothing after warm-up. */
#include "config.h"
#include "detect/transform.h"
#include "detect/transform-codec.h"
#include "util/digest.h"

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#ifdef HAVE_LIBPSL
#include <libpsl.h>
#endif

struct XformCodec {
	z_stream z[2];          /* [0] gzip, [1] zlib: inflate streams */
	int z_ready[2];
	EVP_MD_CTX *md;
};

void xform_codec_free(XformCodec *c)
{
	if (!c)
		return;
	for (int i = 0; i < 2; i++)
		if (c->z_ready[i])
			inflateEnd(&c->z[i]);
	EVP_MD_CTX_free(c->md);
	free(c);
}

static XformCodec *codec(XformCodec **slot)
{
	if (!*slot)
		*slot = calloc(1, sizeof(**slot));
	return *slot;
}

uint32_t xform_digest(XformCodec **slot, int kind, const uint8_t *in, uint32_t len, uint8_t *out,
		      int *ok)
{
	XformCodec *c = codec(slot);
	const EVP_MD *md = kind == TR_TO_MD5 ? digest_md5() :
			   kind == TR_TO_SHA1 ? digest_sha1() : digest_sha256();
	unsigned int n = 0;

	*ok = 0;
	if (!c || (!c->md && !(c->md = EVP_MD_CTX_new())))
		return 0;
	if (EVP_DigestInit_ex(c->md, md, NULL) != 1 || EVP_DigestUpdate(c->md, in, len) != 1 ||
	    EVP_DigestFinal_ex(c->md, out, &n) != 1)
		return 0;
	*ok = 1;
	return n;
}

/* Decompressed bytes, at most max: what inflate gave before the end of the
 * stream, an error, or the limit (a truncated or corrupt input still yields
 * what came before the damage). */
uint32_t xform_inflate(XformCodec **slot, int gzip, const uint8_t *in, uint32_t len, uint8_t *out,
		       uint32_t max, int *ok)
{
	XformCodec *c = codec(slot);
	z_stream *z;
	int i = gzip ? 0 : 1, rc;

	*ok = 0;
	if (!c)
		return 0;
	z = &c->z[i];
	if (!c->z_ready[i]) {
		memset(z, 0, sizeof(*z));
		if (inflateInit2(z, gzip ? 16 + MAX_WBITS : MAX_WBITS) != Z_OK)
			return 0;
		c->z_ready[i] = 1;
	} else if (inflateReset(z) != Z_OK) {
		return 0;
	}
	z->next_in = (Bytef *)in;
	z->avail_in = len;
	z->next_out = out;
	z->avail_out = max;
	rc = inflate(z, Z_SYNC_FLUSH);
	*ok = 1;
	(void)rc;
	return max - z->avail_out;
}

#ifdef HAVE_LIBPSL
static const psl_ctx_t *psl;
static pthread_once_t psl_once = PTHREAD_ONCE_INIT;

/* The system's list (Debian's publicsuffix package, kept current by its
 * updates), else the one built into libpsl. */
static void psl_init(void)
{
	psl = psl_latest(NULL);
	if (!psl)
		psl = psl_builtin();
}
#endif

int xform_psl_available(void)
{
#ifdef HAVE_LIBPSL
	pthread_once(&psl_once, psl_init);
	return psl != NULL;
#else
	return 0;
#endif
}

/* A name that is not a domain (too long, a NUL in it, no suffix known)
 * gives an empty buffer: nothing of it is a domain or a suffix. */
uint32_t xform_psl(int tld, const uint8_t *in, uint32_t len, uint8_t *out)
{
#ifdef HAVE_LIBPSL
	char name[256];
	const char *r;
	size_t n;

	pthread_once(&psl_once, psl_init);
	if (!psl || len == 0 || len >= sizeof(name) || memchr(in, 0, len))
		return 0;
	/* libpsl compares lowercase names */
	for (uint32_t i = 0; i < len; i++)
		name[i] = (char)tolower(in[i]);
	name[len] = 0;
	r = tld ? psl_unregistrable_domain(psl, name) : psl_registrable_domain(psl, name);
	if (!r)
		return 0;
	/* r points into name: the part of the input it names */
	n = strlen(r);
	memcpy(out, in + (r - name), n);
	return (uint32_t)n;
#else
	(void)tld;
	(void)in;
	(void)len;
	(void)out;
	return 0;
#endif
}
