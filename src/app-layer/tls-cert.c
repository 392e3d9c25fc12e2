/* X.509 fields for eve and the tls keywords (see tls-cert.h). */
#include "config.h"
#include "app-layer/app-mem.h"

#include "app-layer/tls-cert.h"
#include "app-layer/tls-parse.h"
#include "util/digest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/asn1.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

/* A DN longer than this is cut: it only feeds logs and content matches. */
#define DN_MAX 4096

typedef struct Sbuf {
	char *p;
	size_t len, cap;
	bool full;
} Sbuf;

static void sb_add(Sbuf *b, const char *s, size_t n)
{
	if (b->full)
		return;
	if (b->len + n + 1 > DN_MAX) {
		n = DN_MAX - 1 - b->len;
		b->full = true;
	}
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 128;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *np = app_mem_realloc(ALPROTO_TLS, b->p, cap);
		if (!np) {
			b->full = true;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void sb_str(Sbuf *b, const char *s)
{
	sb_add(b, s, strlen(s));
}

static void hex_colon(const uint8_t *p, size_t n, bool upper, char *out)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		if (i)
			out[o++] = ':';
		out[o++] = digits[p[i] >> 4];
		out[o++] = digits[p[i] & 15];
	}
	out[o] = '\0';
}

/* The serial as its DER content bytes: Suricata keeps the 00 that makes a
 * high-bit serial positive ("00:97:E6:..."), which OpenSSL's ASN1_INTEGER
 * value drops, so re-encode and skip the tag and length. */
static char *serial_string(const ASN1_INTEGER *ser)
{
	unsigned char *der = NULL;
	int dlen = ser ? i2d_ASN1_INTEGER(ser, &der) : -1;
	size_t off, clen;
	char *out;

	if (dlen < 2)
		return app_mem_strdup(ALPROTO_TLS, "");
	off = 2;
	clen = der[1];
	if (der[1] & 0x80) {
		size_t nb = der[1] & 0x7f;
		if (nb == 0 || nb > 4 || 2 + nb > (size_t)dlen) {
			OPENSSL_free(der);
			return app_mem_strdup(ALPROTO_TLS, "");
		}
		clen = 0;
		for (size_t i = 0; i < nb; i++)
			clen = clen << 8 | der[2 + i];
		off = 2 + nb;
	}
	if (off + clen > (size_t)dlen)
		clen = (size_t)dlen - off;
	out = app_mem_malloc(ALPROTO_TLS, clen * 3 + 1);
	if (out)
		hex_colon(der + off, clen, true, out);
	OPENSSL_free(der);
	return out;
}

static int64_t asn1_time_epoch(const ASN1_TIME *t)
{
	struct tm tm;

	memset(&tm, 0, sizeof(tm));
	if (!t || ASN1_TIME_to_tm(t, &tm) != 1)
		return 0;
	return (int64_t)timegm(&tm);
}

const char *tls_time_str(int64_t t, char *buf, size_t size)
{
	struct tm tm;
	time_t tt = (time_t)t;

	if (!gmtime_r(&tt, &tm) || strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm) == 0) {
		if (size)
			buf[0] = '\0';
	}
	return buf;
}

void tls_sha1_colon_hex(const uint8_t *data, size_t len, char *out)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	if (EVP_Digest(data, len, md, &mdlen, digest_sha1(), NULL) != 1 || mdlen != 20) {
		out[0] = '\0';
		return;
	}
	hex_colon(md, mdlen, false, out);
}

/* One DER element of [*p, end): its start, its whole length (header
 * included), and *p moved to its content (constructed) or past it. 0, or
 * -1 when it does not parse. */
struct der_elem {
	const unsigned char *start, *content;
	long total, len;
	int tag, cls;
	bool cons;   /* constructed */
};

static int der_next(const unsigned char **p, const unsigned char *end, struct der_elem *e)
{
	long len;
	int tag, cls, r;

	if (*p >= end)
		return -1;
	e->start = *p;
	r = ASN1_get_object(p, &len, &tag, &cls, (long)(end - *p));
	if (r & 0x80)
		return -1;
	e->content = *p;
	e->len = len;
	e->tag = tag;
	e->cls = cls;
	e->cons = (r & V_ASN1_CONSTRUCTED) != 0;
	e->total = (long)(*p - e->start) + len;
	*p += len;           /* past the element; callers descend via content */
	return 0;
}

/* The subjectAltName's dNSNames of a DER Extensions sequence, walked with
 * the DER reader: libcrypto's d2i_X509_EXTENSIONS and X509V3_get_d2i built
 * every extension and every name as objects, a third of a certificate's
 * cost, to read a few strings. As they did, a malformed Extensions sequence
 * or subjectAltName, or two subjectAltName extensions, give no names. */
static void san_from_extensions(const unsigned char *p, long len, TlsCertInfo *ci)
{
	static const unsigned char san_oid[] = { 0x55, 0x1d, 0x11 };   /* 2.5.29.17 */
	const unsigned char *end = p + len, *names = NULL, *nend = NULL;
	struct der_elem seq, ext, e;

	if (der_next(&p, end, &seq) != 0 || seq.tag != V_ASN1_SEQUENCE || !seq.cons || p != end)
		return;
	p = seq.content;
	end = seq.content + seq.len;
	while (p < end) {
		const unsigned char *x, *xend;
		bool is_san;

		if (der_next(&p, end, &ext) != 0 || ext.tag != V_ASN1_SEQUENCE || !ext.cons)
			return;
		x = ext.content;
		xend = ext.content + ext.len;
		if (der_next(&x, xend, &e) != 0 || e.tag != V_ASN1_OBJECT || e.cons ||
		    e.cls != V_ASN1_UNIVERSAL)
			return;
		is_san = e.len == (long)sizeof(san_oid) && memcmp(e.content, san_oid, sizeof(san_oid)) == 0;
		if (der_next(&x, xend, &e) != 0)
			return;
		if (e.tag == V_ASN1_BOOLEAN && e.cls == V_ASN1_UNIVERSAL) {   /* critical */
			if (e.len != 1 || e.cons || der_next(&x, xend, &e) != 0)
				return;
		}
		if (e.tag != V_ASN1_OCTET_STRING || e.cls != V_ASN1_UNIVERSAL || e.cons || x != xend)
			return;
		if (is_san) {
			if (names)
				return;   /* twice: X509V3_get_d2i gives none */
			names = e.content;
			nend = e.content + e.len;
		}
	}
	if (!names)
		return;
	/* GeneralNames: SEQUENCE OF GeneralName; dNSName is [2] IA5String */
	if (der_next(&names, nend, &seq) != 0 || seq.tag != V_ASN1_SEQUENCE || !seq.cons)
		return;
	p = seq.content;
	end = seq.content + seq.len;
	for (const unsigned char *q = p; q < end;)   /* all of it parses, or none */
		if (der_next(&q, end, &e) != 0 || e.cls != V_ASN1_CONTEXT_SPECIFIC || e.tag > 8)
			return;
	while (p < end && ci->nsan < TLS_CERT_SAN_MAX) {
		char *v;

		der_next(&p, end, &e);
		if (e.tag != 2 || e.cons)
			continue;
		v = app_mem_malloc(ALPROTO_TLS, (size_t)e.len + 1);
		if (!v)
			break;
		memcpy(v, e.content, (size_t)e.len);
		v[e.len] = '\0';
		ci->san[ci->nsan++] = v;
	}
}

/* The attribute types of nearly every certificate's names, as their OID's
 * DER content, with OpenSSL's short names (OBJ_nid2sn; test_tls checks the
 * table against it): these skip the OID object and name lookup. */
static const struct {
	uint8_t len;
	unsigned char oid[9];
	const char *sn;
	const char *eve;        /* the name Suricata writes when not sn */
} dn_types[] = {
	{ 3, { 0x55, 0x04, 0x03 }, "CN", NULL },
	{ 3, { 0x55, 0x04, 0x06 }, "C", NULL },
	{ 3, { 0x55, 0x04, 0x07 }, "L", NULL },
	{ 3, { 0x55, 0x04, 0x08 }, "ST", NULL },
	{ 3, { 0x55, 0x04, 0x0a }, "O", NULL },
	{ 3, { 0x55, 0x04, 0x0b }, "OU", NULL },
	{ 3, { 0x55, 0x04, 0x05 }, "serialNumber", NULL },
	{ 3, { 0x55, 0x04, 0x09 }, "street", NULL },
	{ 3, { 0x55, 0x04, 0x11 }, "postalCode", NULL },
	{ 3, { 0x55, 0x04, 0x0f }, "businessCategory", NULL },
	{ 9, { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x01 }, "emailAddress", "Email" },
};

size_t tls_dn_type_count(void)
{
	return sizeof(dn_types) / sizeof(dn_types[0]);
}

const char *tls_dn_type(size_t i, const unsigned char **oid, size_t *len)
{
	*oid = dn_types[i].oid;
	*len = dn_types[i].len;
	return dn_types[i].sn;
}

/* An attribute value ASN1_STRING_to_UTF8 would return as it is: a
 * primitive UTF8String, PrintableString, T61String or IA5String of ASCII
 * bytes (the common case: a copy, no string object, no conversion). */
static bool dn_value_ascii(const struct der_elem *v)
{
	if (v->cls != V_ASN1_UNIVERSAL || v->cons ||
	    (v->tag != V_ASN1_UTF8STRING && v->tag != V_ASN1_PRINTABLESTRING &&
	     v->tag != V_ASN1_T61STRING && v->tag != V_ASN1_IA5STRING))
		return false;
	for (long i = 0; i < v->len; i++)
		if (v->content[i] & 0x80)
			return false;
	return true;
}

static const char *dn_type_name(const struct der_elem *oid)
{
	for (size_t i = 0; i < sizeof(dn_types) / sizeof(dn_types[0]); i++)
		if (oid->len == dn_types[i].len && memcmp(oid->content, dn_types[i].oid, dn_types[i].len) == 0)
			return dn_types[i].eve ? dn_types[i].eve : dn_types[i].sn;
	return NULL;
}

/* The name Suricata 8 (its x509 crate's OID registry) writes for an
 * attribute OpenSSL calls sn: the same, but emailAddress is "Email". */
static const char *dn_eve_name(const char *sn)
{
	for (size_t i = 0; sn && i < sizeof(dn_types) / sizeof(dn_types[0]); i++)
		if (dn_types[i].eve && strcmp(dn_types[i].sn, sn) == 0)
			return dn_types[i].eve;
	return sn;
}

/* Suricata (its x509 crate) writes each attribute as ShortName=value in
 * certificate order; an attribute without a short name shows its OID.
 *
 * A Name (SEQUENCE OF RDN, each a SET OF {type OID, value}) walked with
 * libcrypto's DER reader, each type and value decoded by its d2i
 * functions: d2i_X509_NAME would also build the name's canonical
 * re-encoding (lower-cased, re-serialised), two thirds of a certificate's
 * cost here, for comparisons nobody makes. NULL when the Name is malformed
 * (the certificate is then not decoded, as with d2i_X509_NAME). */
static char *dn_from_der(const struct der_elem *name, uint32_t *len)
{
	const unsigned char *p = name->content, *end = name->content + name->len;
	Sbuf b = { 0 };
	bool first = true;

	if (name->tag != V_ASN1_SEQUENCE || name->cls != V_ASN1_UNIVERSAL)
		return NULL;
	sb_add(&b, "", 0);
	while (p < end) {
		struct der_elem rdn, atv;
		const unsigned char *s, *send;
		bool first_in_set = true;

		if (der_next(&p, end, &rdn) != 0 || rdn.tag != V_ASN1_SET)
			goto bad;
		s = rdn.content;
		send = rdn.content + rdn.len;
		while (s < send) {
			struct der_elem oid_e, val_e;
			const unsigned char *a, *aend, *q;
			ASN1_OBJECT *obj;
			ASN1_STRING *val;
			unsigned char *utf8 = NULL;
			const char *key = NULL;
			char oid[128];
			int nid, ulen;

			if (der_next(&s, send, &atv) != 0 || atv.tag != V_ASN1_SEQUENCE)
				goto bad;
			a = atv.content;
			aend = atv.content + atv.len;
			if (der_next(&a, aend, &oid_e) != 0 || oid_e.tag != V_ASN1_OBJECT ||
			    der_next(&a, aend, &val_e) != 0 || a != aend)
				goto bad;
			const char *sn = oid_e.cons ? NULL : dn_type_name(&oid_e);

			if (sn && dn_value_ascii(&val_e)) {
				if (!first)
					sb_str(&b, first_in_set ? ", " : " + ");
				first = first_in_set = false;
				sb_str(&b, sn);
				sb_add(&b, "=", 1);
				sb_add(&b, (const char *)val_e.content, (size_t)val_e.len);
				continue;
			}
			q = oid_e.start;
			obj = d2i_ASN1_OBJECT(NULL, &q, oid_e.total);
			q = val_e.start;
			val = obj ? d2i_ASN1_PRINTABLE(NULL, &q, val_e.total) : NULL;
			if (!val) {
				ASN1_OBJECT_free(obj);
				goto bad;
			}
			nid = OBJ_obj2nid(obj);
			if (nid != NID_undef)
				key = dn_eve_name(OBJ_nid2sn(nid));
			if (!key) {
				OBJ_obj2txt(oid, sizeof(oid), obj, 1);
				key = oid;
			}
			if (!first)
				sb_str(&b, first_in_set ? ", " : " + ");
			first = first_in_set = false;
			sb_str(&b, key);
			sb_str(&b, "=");
			ulen = ASN1_STRING_to_UTF8(&utf8, val);
			if (ulen >= 0) {
				sb_add(&b, (const char *)utf8, (size_t)ulen);
				OPENSSL_free(utf8);
			} else {
				/* not convertible (a UTF8String that is not UTF-8,
				 * an odd-length BMPString): the value's bytes as they
				 * came, which eve writes in the \xNN form, rather
				 * than an empty value that hides what the peer sent */
				sb_add(&b, (const char *)val_e.content, (size_t)val_e.len);
			}
			ASN1_STRING_free(val);
			ASN1_OBJECT_free(obj);
		}
	}
	*len = (uint32_t)b.len;
	return b.p;
bad:
	app_mem_free(ALPROTO_TLS, b.p);
	return NULL;
}

/* Walks the TBSCertificate with libcrypto's DER reader and decodes the
 * fields logged and matched (names, serial, validity, subjectAltName) with
 * its own d2i functions. d2i_X509 would also decode the public key, which
 * OpenSSL 3 does through its provider decoders: most of a certificate's
 * cost, for a field nobody reads here. */
int tls_cert_decode(const uint8_t *der, size_t len, TlsCertInfo *out)
{
	const unsigned char *p = der, *end, *q;
	struct der_elem cert, tbs, e, issuer, subject, validity;
	ASN1_INTEGER *serial = NULL;
	ASN1_TIME *nb = NULL, *na = NULL;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (!der || len == 0 || len > (size_t)INT32_MAX)
		return -1;
	end = der + len;
	if (der_next(&p, end, &cert) != 0 || cert.tag != V_ASN1_SEQUENCE)
		return -1;
	p = cert.content;
	end = cert.content + cert.len;
	if (der_next(&p, end, &tbs) != 0 || tbs.tag != V_ASN1_SEQUENCE)
		return -1;
	p = tbs.content;
	end = tbs.content + tbs.len;
	if (der_next(&p, end, &e) != 0)
		return -1;
	if (e.cls == V_ASN1_CONTEXT_SPECIFIC && e.tag == 0 && der_next(&p, end, &e) != 0)
		return -1;   /* [0] version: skipped */
	q = e.start;
	if (e.tag != V_ASN1_INTEGER || !(serial = d2i_ASN1_INTEGER(NULL, &q, e.total)))
		goto out;
	if (der_next(&p, end, &e) != 0 ||                       /* signature algorithm */
	    der_next(&p, end, &issuer) != 0 || der_next(&p, end, &validity) != 0 ||
	    der_next(&p, end, &subject) != 0 || der_next(&p, end, &e) != 0)   /* public key */
		goto out;
	out->issuer = dn_from_der(&issuer, &out->issuer_len);
	out->subject = dn_from_der(&subject, &out->subject_len);
	q = validity.content;
	nb = d2i_ASN1_TIME(NULL, &q, validity.len);
	if (nb)
		na = d2i_ASN1_TIME(NULL, &q, validity.content + validity.len - q);
	if (!out->issuer || !out->subject || !nb || !na)
		goto out;
	/* issuerUniqueID [1], subjectUniqueID [2], extensions [3] */
	while (der_next(&p, end, &e) == 0) {
		struct der_elem seq;
		const unsigned char *c = e.content;

		if (e.cls != V_ASN1_CONTEXT_SPECIFIC || e.tag != 3)
			continue;
		if (der_next(&c, e.content + e.len, &seq) == 0 && seq.tag == V_ASN1_SEQUENCE)
			san_from_extensions(seq.start, seq.total, out);
		break;
	}
	out->serial = serial_string(serial);
	out->notbefore = asn1_time_epoch(nb);
	out->notafter = asn1_time_epoch(na);
	/* the fingerprint covers the certificate's bytes as sent, not a
	 * re-encoding */
	tls_sha1_colon_hex(der, len, out->fingerprint);
	rc = out->subject && out->issuer && out->serial ? 0 : -1;
out:
	ASN1_INTEGER_free(serial);
	ASN1_TIME_free(nb);
	ASN1_TIME_free(na);
	if (rc != 0)
		tls_cert_info_free(out);
	return rc;
}

const TlsCertInfo *tls_leaf_info(const TlsState *cs, int dir)
{
	/* a cache: filled once, the state's owner thread only */
	TlsState *s = (TlsState *)cs;
	const uint8_t *der;
	uint32_t len;
	int d = dir == TLS_TOSERVER ? TLS_TOSERVER : TLS_TOCLIENT;

	if (s->leaf_tried[d])
		return s->leaf[d];
	der = tls_chain_cert(&s->certs[d], 0, &len);
	if (!der)
		return NULL;
	s->leaf_tried[d] = 1;
	s->leaf[d] = app_mem_malloc(ALPROTO_TLS, sizeof(*s->leaf[d]));
	if (s->leaf[d] && tls_cert_decode(der, len, s->leaf[d]) != 0) {
		app_mem_free(ALPROTO_TLS, s->leaf[d]);
		s->leaf[d] = NULL;
	}
	return s->leaf[d];
}

void tls_cert_info_free(TlsCertInfo *ci)
{
	if (!ci)
		return;
	app_mem_free(ALPROTO_TLS, ci->subject);
	app_mem_free(ALPROTO_TLS, ci->issuer);
	app_mem_free(ALPROTO_TLS, ci->serial);
	for (uint32_t i = 0; i < ci->nsan; i++)
		app_mem_free(ALPROTO_TLS, ci->san[i]);
	memset(ci, 0, sizeof(*ci));
}

bool tls_cert_expired(const TlsCertInfo *ci, int64_t now)
{
	return ci->notafter < now;
}

bool tls_cert_valid(const TlsCertInfo *ci, int64_t now)
{
	return ci->notbefore <= now && now <= ci->notafter;
}
