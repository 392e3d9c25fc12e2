/* ja3, ja3s and ja4 (see tls-ja.h). */
#include "config.h"

#include "app-layer/tls-ja.h"
#include "util/digest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

bool tls_is_grease(uint16_t v)
{
	/* RFC 8701: 0x0a0a, 0x1a1a, ... 0xfafa */
	return (v & 0x0f0f) == 0x0a0a && (v >> 8) == (v & 0xff);
}

typedef struct Out {
	char *p;
	size_t size, len;
	bool over;
} Out;

static void out_printf(Out *o, const char *fmt, unsigned v)
{
	if (o->over)
		return;
	int n = snprintf(o->p + o->len, o->size - o->len, fmt, v);
	if (n < 0 || (size_t)n >= o->size - o->len) {
		o->over = true;
		return;
	}
	o->len += (size_t)n;
}

static void out_char(Out *o, char c)
{
	if (o->over)
		return;
	if (o->len + 1 >= o->size) {
		o->over = true;
		return;
	}
	o->p[o->len++] = c;
	o->p[o->len] = '\0';
}

static void out_list16(Out *o, const uint16_t *v, unsigned n)
{
	bool first = true;

	for (unsigned i = 0; i < n; i++) {
		if (tls_is_grease(v[i]))
			continue;
		if (!first)
			out_char(o, '-');
		out_printf(o, "%u", v[i]);
		first = false;
	}
}

/* Both JA3 strings open with "version," and refuse the same hellos. */
static int ja3_open(Out *o, const TlsHello *h)
{
	if (!h || !h->present || h->sslv2 || o->size == 0)
		return -1;
	o->p[0] = '\0';
	out_printf(o, "%u", h->version);
	out_char(o, ',');
	return 0;
}

int tls_ja3_string(const TlsHello *h, char *buf, size_t size)
{
	Out o = { buf, size, 0, false };

	if (ja3_open(&o, h) < 0)
		return -1;
	out_list16(&o, h->ciphers, h->nciphers);
	out_char(&o, ',');
	out_list16(&o, h->exts, h->nexts);
	out_char(&o, ',');
	out_list16(&o, h->groups, h->ngroups);
	out_char(&o, ',');
	for (unsigned i = 0; i < h->npoint_formats; i++) {
		if (i)
			out_char(&o, '-');
		out_printf(&o, "%u", h->point_formats[i]);
	}
	return o.over ? -1 : (int)o.len;
}

int tls_ja3s_string(const TlsHello *h, char *buf, size_t size)
{
	Out o = { buf, size, 0, false };

	if (ja3_open(&o, h) < 0)
		return -1;
	out_printf(&o, "%u", h->ciphers[0]);
	out_char(&o, ',');
	out_list16(&o, h->exts, h->nexts);
	return o.over ? -1 : (int)o.len;
}

static void hex_lower(const unsigned char *p, size_t n, char *out)
{
	static const char d[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = d[p[i] >> 4];
		out[2 * i + 1] = d[p[i] & 15];
	}
	out[2 * n] = '\0';
}

void tls_ja_md5_hex(const char *s, size_t len, char *out)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	if (EVP_Digest(s, len, md, &n, digest_md5(), NULL) != 1 || n != 16) {
		out[0] = '\0';
		return;
	}
	hex_lower(md, n, out);
}

/* The first 12 hex digits of SHA-256(s), or twelve zeros for an empty
 * list, as JA4 writes them. */
static void ja4_hash12(const char *s, size_t len, char *out)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;
	char hex[2 * EVP_MAX_MD_SIZE + 1];

	if (len == 0 || EVP_Digest(s, len, md, &n, digest_sha256(), NULL) != 1 || n < 6) {
		memcpy(out, "000000000000", 13);
		return;
	}
	hex_lower(md, 6, hex);
	memcpy(out, hex, 13);
}

static int cmp_u16(const void *a, const void *b)
{
	uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b;
	return (x > y) - (x < y);
}

static const char *ja4_version(uint16_t v)
{
	switch (v) {
	case 0x0304:
		return "13";
	case 0x0303:
		return "12";
	case 0x0302:
		return "11";
	case 0x0301:
		return "10";
	case 0x0300:
		return "s3";
	case 0x0002:
		return "s2";
	case 0xfeff:
		return "d1";
	case 0xfefd:
		return "d2";
	case 0xfefc:
		return "d3";
	}
	return "00";
}

static bool is_alnum(uint8_t c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static unsigned min99(unsigned n)
{
	return n > 99 ? 99 : n;
}

static const char hexd[] = "0123456789abcdef";

/* v as four lowercase hex digits at list[l]; returns the new length */
static size_t put_hex4(char *list, size_t l, uint16_t v)
{
	for (int k = 12; k >= 0; k -= 4)
		list[l++] = hexd[(v >> k) & 15];
	return l;
}

/* Sorts v[0, n) in place and writes it as "xxxx,xxxx,..."; returns the length. */
static size_t sorted_hex_list(char *list, uint16_t *v, unsigned n)
{
	size_t l = 0;

	qsort(v, n, sizeof(v[0]), cmp_u16);
	for (unsigned i = 0; i < n; i++) {
		if (i)
			list[l++] = ',';
		l = put_hex4(list, l, v[i]);
	}
	return l;
}

int tls_ja4(const TlsHello *h, char *out)
{
	return tls_ja4_proto(h, 't', out);
}

int tls_ja4_proto(const TlsHello *h, char proto, char *out)
{
	/* lists are small and bounded: TLS_MAX_CIPHERS entries of "xxxx," */
	uint16_t sorted[TLS_MAX_CIPHERS];
	char list[TLS_MAX_CIPHERS * 5 + TLS_MAX_SIGALGS * 5 + 2];
	char b[13], c[13];
	unsigned n, next = 0, ns;
	uint16_t ver = 0;
	size_t l;

	if (!h || !h->present || h->sslv2)
		return -1;
	/* the highest supported_versions entry, else the hello's version */
	for (unsigned i = 0; i < h->nversions; i++)
		if (!tls_is_grease(h->versions[i]) && h->versions[i] > ver)
			ver = h->versions[i];
	if (!ver)
		ver = h->version;

	/* b: the ciphers, sorted */
	n = 0;
	for (unsigned i = 0; i < h->nciphers; i++)
		if (!tls_is_grease(h->ciphers[i]))
			sorted[n++] = h->ciphers[i];
	unsigned nciph = n;
	l = sorted_hex_list(list, sorted, n);
	ja4_hash12(list, l, b);

	/* c: the extensions but SNI and ALPN, sorted, then '_' and the
	 * signature algorithms in the hello's order */
	ns = 0;
	for (unsigned i = 0; i < h->nexts; i++) {
		uint16_t e = h->exts[i];
		if (tls_is_grease(e))
			continue;
		next++;
		if (e == 0x0000 || e == 0x0010)
			continue;
		sorted[ns++] = e;
	}
	l = sorted_hex_list(list, sorted, ns);
	/* Suricata writes the '_' also when the hello has no signature
	 * algorithms (a TLS 1.0 hello: "0005,...,ff01_" is what it hashes);
	 * only a hello with neither keeps the all-zero hash. */
	bool first = true;
	for (unsigned i = 0; i < h->nsigalgs; i++) {
		uint16_t v = h->sigalgs[i];
		if (tls_is_grease(v))
			continue;
		list[l++] = first ? '_' : ',';
		first = false;
		l = put_hex4(list, l, v);
	}
	if (first && l)
		list[l++] = '_';
	ja4_hash12(list, l, c);

	/* a: the ALPN's first and last characters; hex digits stand in
	 * when either is not alphanumeric */
	char alpn[3] = "00";
	uint8_t alen = 0;
	const uint8_t *ap = tls_hello_alpn(h, 0, &alen);
	if (ap && alen > 0) {
		uint8_t f = ap[0], la = ap[alen - 1];
		if (is_alnum(f) && is_alnum(la)) {
			alpn[0] = (char)f;
			alpn[1] = (char)la;
		} else {
			alpn[0] = hexd[f >> 4];
			alpn[1] = hexd[la & 15];
		}
	}
	snprintf(out, TLS_JA4_LEN + 1, "%c%s%c%02u%02u%s_%s_%s", proto, ja4_version(ver),
		 h->has_sni ? 'd' : 'i', min99(nciph), min99(next), alpn, b, c);
	return 0;
}
