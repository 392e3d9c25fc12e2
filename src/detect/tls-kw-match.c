/* TLS keyword buffers and matchers (see tls-kw-match.h). */
#include "config.h"

#include "detect/tls-kw-match.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "app-layer/tls-ja.h"

void tls_kw_info_init(TlsKwInfo *ki)
{
	memset(ki, 0, sizeof(*ki));
}

void tls_kw_info_free(TlsKwInfo *ki)
{
	free(ki->ja3);
	free(ki->ja3s);
	memset(ki, 0, sizeof(*ki));
}

static char *ja_string(const TlsHello *h, bool server, char *hash)
{
	/* ja3 of TLS_MAX_CIPHERS 5-digit values and the other lists */
	size_t cap = 6u * (TLS_MAX_CIPHERS + TLS_MAX_EXTS + TLS_MAX_GROUPS +
			   TLS_MAX_POINT_FORMATS) + 16;
	char *b = malloc(cap);
	int n;

	if (!b)
		return NULL;
	n = server ? tls_ja3s_string(h, b, cap) : tls_ja3_string(h, b, cap);
	if (n < 0) {
		free(b);
		return NULL;
	}
	tls_ja_md5_hex(b, (size_t)n, hash);
	return b;
}

/* The fingerprints, once the hellos are there: only when a buffer asks
 * for them (ET Open has no ja3/ja4 rule, and every TLS flow would pay for
 * the strings and digests). */
static void ja_fill(TlsKwInfo *ki, const TlsState *s)
{
	if (!ki->ja3_tried && s->client.present) {
		ki->ja3_tried = true;
		ki->ja3 = ja_string(&s->client, false, ki->ja3_hash);
		if (tls_ja4(&s->client, ki->ja4) != 0)
			ki->ja4[0] = '\0';
	}
	if (!ki->ja3s_tried && s->server.present) {
		ki->ja3s_tried = true;
		ki->ja3s = ja_string(&s->server, true, ki->ja3s_hash);
	}
}

void tls_kw_info_update(TlsKwInfo *ki, const TlsState *s)
{
	for (int d = 0; d < 2; d++)
		if (!ki->cert[d])
			ki->cert[d] = tls_leaf_info(s, d);
}

static bool str_buf(const char *p, const uint8_t **buf, uint32_t *len)
{
	if (!p || !*p)
		return false;
	*buf = (const uint8_t *)p;
	*len = (uint32_t)strlen(p);
	return true;
}

bool tls_kw_buffer(const TlsKwInfo *ki, const TlsState *s, enum tls_kw_buf which, int dir,
		   const uint8_t **buf, uint32_t *len)
{
	int d = dir == TLS_TOSERVER ? TLS_TOSERVER : TLS_TOCLIENT;
	const TlsCertInfo *ci = ki->cert[d];

	if (which == TLS_BUF_JA3_HASH || which == TLS_BUF_JA3_STRING || which == TLS_BUF_JA3S_HASH ||
	    which == TLS_BUF_JA3S_STRING || which == TLS_BUF_JA4_HASH)
		ja_fill((TlsKwInfo *)ki, s);   /* a cache of the flow's, filled on first use */

	switch (which) {
	case TLS_BUF_SNI:
		if (!s->client.present || !s->client.sni_len)
			return false;
		*buf = (const uint8_t *)s->client.sni;
		*len = s->client.sni_len;
		return true;
	case TLS_BUF_CERT_SUBJECT:
		if (!ci || !ci->subject_len)
			return false;
		*buf = (const uint8_t *)ci->subject;
		*len = ci->subject_len;
		return true;
	case TLS_BUF_CERT_ISSUER:
		if (!ci || !ci->issuer_len)
			return false;
		*buf = (const uint8_t *)ci->issuer;
		*len = ci->issuer_len;
		return true;
	case TLS_BUF_CERT_SERIAL:
		return ci && str_buf(ci->serial, buf, len);
	case TLS_BUF_CERT_FINGERPRINT:
		return ci && str_buf(ci->fingerprint, buf, len);
	case TLS_BUF_JA3_HASH:
		return ki->ja3 && str_buf(ki->ja3_hash, buf, len);
	case TLS_BUF_JA3_STRING:
		return str_buf(ki->ja3, buf, len);
	case TLS_BUF_JA3S_HASH:
		return ki->ja3s && str_buf(ki->ja3s_hash, buf, len);
	case TLS_BUF_JA3S_STRING:
		return str_buf(ki->ja3s, buf, len);
	case TLS_BUF_JA4_HASH:
		return str_buf(ki->ja4, buf, len);
	case TLS_BUF_RANDOM:
	case TLS_BUF_RANDOM_TIME:
	case TLS_BUF_RANDOM_BYTES: {
		const TlsHello *h = d == TLS_TOSERVER ? &s->client : &s->server;
		/* an SSLv2 hello has a challenge, not a random */
		if (!h->present || h->sslv2)
			return false;
		*buf = h->random + (which == TLS_BUF_RANDOM_BYTES ? 4 : 0);
		*len = which == TLS_BUF_RANDOM ? 32 : which == TLS_BUF_RANDOM_TIME ? 4 : 28;
		return true;
	}
	}
	return false;
}

uint32_t tls_kw_chain_len(const TlsState *s, int dir)
{
	return s->certs[dir == TLS_TOSERVER ? TLS_TOSERVER : TLS_TOCLIENT].n;
}

bool tls_kw_alpn(const TlsState *s, int dir, unsigned i, const uint8_t **buf, uint32_t *len)
{
	const TlsHello *h = dir == TLS_TOSERVER ? &s->client : &s->server;
	uint8_t n;
	const uint8_t *p = h->present ? tls_hello_alpn(h, i, &n) : NULL;

	if (!p)
		return false;
	*buf = p;
	*len = n;
	return true;
}

bool tls_kw_san(const TlsKwInfo *ki, int dir, unsigned i, const uint8_t **buf, uint32_t *len)
{
	int d = dir == TLS_TOSERVER ? TLS_TOSERVER : TLS_TOCLIENT;

	if (!ki->cert[d] || i >= ki->cert[d]->nsan)
		return false;
	*buf = (const uint8_t *)ki->cert[d]->san[i];
	*len = (uint32_t)strlen(ki->cert[d]->san[i]);
	return true;
}

bool tls_kw_cert(const TlsState *s, int dir, unsigned i, const uint8_t **buf, uint32_t *len)
{
	int d = dir == TLS_TOSERVER ? TLS_TOSERVER : TLS_TOCLIENT;
	const uint8_t *p = tls_chain_cert(&s->certs[d], i, len);

	if (!p)
		return false;
	*buf = p;
	return true;
}

/* ---- argument helpers ---- */

/* Copies arg without surrounding blanks and one pair of double quotes. */
static int arg_trim(const char *arg, char *out, size_t size)
{
	size_t a = 0, b;

	if (!arg)
		return -1;
	b = strlen(arg);
	while (a < b && isspace((unsigned char)arg[a]))
		a++;
	while (b > a && isspace((unsigned char)arg[b - 1]))
		b--;
	if (b - a >= 2 && arg[a] == '"' && arg[b - 1] == '"') {
		a++;
		b--;
	}
	if (b - a == 0 || b - a >= size)
		return -1;
	memcpy(out, arg + a, b - a);
	out[b - a] = '\0';
	return 0;
}

/* ---- tls.version ---- */

static bool v_is_13(uint16_t v)
{
	return v == TLS_V_13 || (v >> 8) == 0x7f || (v >> 8) == 0xfb;
}

int tls_kw_version_parse(const char *arg, TlsVersionKw *out)
{
	char a[32];

	if (arg_trim(arg, a, sizeof(a)) < 0)
		return -1;
	memset(out, 0, sizeof(*out));
	if (strcmp(a, "1.0") == 0)
		out->version = TLS_V_10;
	else if (strcmp(a, "1.1") == 0)
		out->version = TLS_V_11;
	else if (strcmp(a, "1.2") == 0)
		out->version = TLS_V_12;
	else if (strcmp(a, "1.3") == 0)
		out->version = TLS_V_13;
	else if (a[0] == '0' && (a[1] == 'x' || a[1] == 'X') && a[2]) {
		char *end;
		unsigned long v = strtoul(a + 2, &end, 16);
		if (*end || v > 0xffff)
			return -1;
		out->version = (uint16_t)v;
		out->raw = true;
	} else
		return -1;
	return 0;
}

static uint16_t dir_version(const TlsState *s, int dir)
{
	if (dir == TLS_TOCLIENT)
		return tls_state_version(s);
	return s->client.present ? s->client.version : s->dir[TLS_TOSERVER].version;
}

bool tls_kw_version_match(const TlsVersionKw *kw, const TlsState *s, int dir)
{
	uint16_t v = dir_version(s, dir);

	if (!v)
		return false;
	if (kw->raw)
		return v == kw->version;
	if (v_is_13(v))
		v = TLS_V_13;
	return v == kw->version;
}

/* ---- ssl_version, ssl_state: lists of names ---- */

struct flag_name {
	const char *name;
	uint32_t bit;
};

/* "a,!b" (sep ",") or "a|!b" (sep "|"): each name's bit into *set, those
 * negated with '!' into *neg as well. 0, or -1 for an unknown name or an
 * empty list. */
static int flag_list_parse(const char *arg, const char *sep, const struct flag_name *names,
			   size_t nnames, bool nocase, uint32_t *set, uint32_t *neg)
{
	char a[128];
	char *save = NULL;

	*set = *neg = 0;
	if (arg_trim(arg, a, sizeof(a)) < 0)
		return -1;
	for (char *tok = strtok_r(a, sep, &save); tok; tok = strtok_r(NULL, sep, &save)) {
		bool not = false;
		uint32_t bit = 0;
		while (isspace((unsigned char)*tok))
			tok++;
		if (*tok == '!') {
			not = true;
			tok++;
		}
		size_t n = strlen(tok);
		while (n && isspace((unsigned char)tok[n - 1]))
			tok[--n] = '\0';
		for (size_t i = 0; i < nnames; i++)
			if ((nocase ? strcasecmp(tok, names[i].name) : strcmp(tok, names[i].name)) == 0)
				bit = names[i].bit;
		if (!bit)
			return -1;
		*set |= bit;
		if (not)
			*neg |= bit;
	}
	return *set ? 0 : -1;
}

static const struct flag_name sslv_names[] = {
	{ "sslv2", TLS_SSLV_SSL2 },   { "sslv3", TLS_SSLV_SSL3 },   { "tls1.0", TLS_SSLV_TLS10 },
	{ "tls1.1", TLS_SSLV_TLS11 }, { "tls1.2", TLS_SSLV_TLS12 }, { "tls1.3", TLS_SSLV_TLS13 },
};

int tls_kw_ssl_version_parse(const char *arg, TlsSslVersionKw *out)
{
	uint32_t set, neg;

	memset(out, 0, sizeof(*out));
	if (flag_list_parse(arg, ",", sslv_names, sizeof(sslv_names) / sizeof(sslv_names[0]), true,
			    &set, &neg) != 0)
		return -1;
	out->want = (uint8_t)(set & ~neg);
	out->reject = (uint8_t)neg;
	return 0;
}

static uint8_t sslv_bit(uint16_t v)
{
	switch (v) {
	case TLS_V_SSL2:
		return TLS_SSLV_SSL2;
	case TLS_V_SSL3:
		return TLS_SSLV_SSL3;
	case TLS_V_10:
		return TLS_SSLV_TLS10;
	case TLS_V_11:
		return TLS_SSLV_TLS11;
	case TLS_V_12:
		return TLS_SSLV_TLS12;
	}
	return v_is_13(v) ? TLS_SSLV_TLS13 : 0;
}

bool tls_kw_ssl_version_match(const TlsSslVersionKw *kw, const TlsState *s, int dir)
{
	uint16_t v = dir_version(s, dir);
	uint8_t bit;

	/* an SSLv2 record carries a 3.x hello version: SSLv2 is the record */
	if (dir == TLS_TOSERVER && s->client.present && s->client.sslv2 &&
	    s->client.version == TLS_V_SSL2)
		v = TLS_V_SSL2;
	bit = sslv_bit(v);
	if (!bit)
		return false;
	if (kw->reject & bit)
		return false;
	return kw->want ? (kw->want & bit) != 0 : true;
}

/* ---- ssl_state ---- */

static const struct flag_name state_names[] = {
	{ "client_hello", TLS_STATE_CLIENT_HELLO }, { "server_hello", TLS_STATE_SERVER_HELLO },
	{ "client_keyx", TLS_STATE_CLIENT_KEYX },   { "server_keyx", TLS_STATE_SERVER_KEYX },
	{ "unknown", TLS_STATE_UNKNOWN },
};

int tls_kw_ssl_state_parse(const char *arg, TlsSslStateKw *out)
{
	memset(out, 0, sizeof(*out));
	return flag_list_parse(arg, "|", state_names, sizeof(state_names) / sizeof(state_names[0]),
			       false, &out->flags, &out->neg);
}

bool tls_kw_ssl_state_match(const TlsSslStateKw *kw, uint32_t state)
{
	/* per term: plain bits must be set, negated ones clear; OR over the
	 * terms, i.e. some listed bit differs from its negation mask */
	return ((state & kw->flags) ^ kw->neg) != 0;
}

/* ---- certificate dates ---- */

static int parse_date(const char *s, int64_t *out)
{
	int y = 0, mo = 1, d = 1, h = 0, mi = 0, se = 0;
	size_t n = strlen(s);
	struct tm tm;
	char tail;

	if (n == 0)
		return -1;
	/* epoch seconds: all digits, longer than a year */
	if (n > 4 && strspn(s, "0123456789") == n) {
		*out = strtoll(s, NULL, 10);
		return 0;
	}
	int k = sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%c", &y, &mo, &d, &h, &mi, &se, &tail);
	/* the number of fields must match the text's shape exactly */
	static const size_t lens[] = { 0, 4, 7, 10, 13, 16, 19 };
	if (k < 1 || k > 6 || lens[k] != n)
		return -1;
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60)
		return -1;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = se;
	*out = (int64_t)timegm(&tm);
	return 0;
}

int tls_kw_date_parse(const char *arg, TlsDateKw *out)
{
	char a[96];
	char *r;

	if (arg_trim(arg, a, sizeof(a)) < 0)
		return -1;
	memset(out, 0, sizeof(*out));
	if ((r = strstr(a, "<>")) != NULL) {
		*r = '\0';
		out->mode = TLS_DATE_RANGE;
		if (parse_date(a, &out->t1) < 0 || parse_date(r + 2, &out->t2) < 0 ||
		    out->t1 > out->t2)
			return -1;
		return 0;
	}
	const char *p = a;
	if (*p == '<' || *p == '>') {
		out->mode = *p == '<' ? TLS_DATE_LT : TLS_DATE_GT;
		p++;
		while (isspace((unsigned char)*p))
			p++;
	} else {
		out->mode = TLS_DATE_EQ;
	}
	return parse_date(p, &out->t1);
}

bool tls_kw_date_match(const TlsDateKw *kw, int64_t t)
{
	switch (kw->mode) {
	case TLS_DATE_EQ:
		return t == kw->t1;
	case TLS_DATE_LT:
		return t < kw->t1;
	case TLS_DATE_GT:
		return t > kw->t1;
	case TLS_DATE_RANGE:
		return t >= kw->t1 && t <= kw->t2;
	}
	return false;
}

static const TlsCertInfo *leaf(const TlsKwInfo *ki, int dir)
{
	int d = dir == TLS_TOSERVER ? TLS_TOSERVER : TLS_TOCLIENT;
	return ki->cert[d];
}

bool tls_kw_notbefore_match(const TlsDateKw *kw, const TlsKwInfo *ki, int dir)
{
	const TlsCertInfo *ci = leaf(ki, dir);
	return ci && tls_kw_date_match(kw, ci->notbefore);
}

bool tls_kw_notafter_match(const TlsDateKw *kw, const TlsKwInfo *ki, int dir)
{
	const TlsCertInfo *ci = leaf(ki, dir);
	return ci && tls_kw_date_match(kw, ci->notafter);
}

bool tls_kw_cert_expired(const TlsKwInfo *ki, int dir, int64_t now)
{
	const TlsCertInfo *ci = leaf(ki, dir);
	return ci && tls_cert_expired(ci, now);
}

bool tls_kw_cert_valid(const TlsKwInfo *ki, int dir, int64_t now)
{
	const TlsCertInfo *ci = leaf(ki, dir);
	return ci && tls_cert_valid(ci, now);
}

/* ---- legacy content-like keywords ---- */

int tls_kw_legacy_parse(const char *arg, TlsLegacyKw *out)
{
	const char *p = arg;
	size_t n, o = 0;

	memset(out, 0, sizeof(*out));
	if (!p)
		return -1;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '!') {
		out->neg = true;
		p++;
		while (isspace((unsigned char)*p))
			p++;
	}
	n = strlen(p);
	while (n && isspace((unsigned char)p[n - 1]))
		n--;
	if (n >= 2 && p[0] == '"' && p[n - 1] == '"') {
		p++;
		n -= 2;
	}
	if (n == 0)
		return -1;
	out->text = malloc(n + 1);
	if (!out->text)
		return -1;
	for (size_t i = 0; i < n; i++) {
		/* \" and \\ stand for themselves, as in content */
		if (p[i] == '\\' && i + 1 < n && (p[i + 1] == '"' || p[i + 1] == '\\'))
			i++;
		out->text[o++] = p[i];
	}
	out->text[o] = '\0';
	return 0;
}

void tls_kw_legacy_free(TlsLegacyKw *kw)
{
	free(kw->text);
	kw->text = NULL;
}

bool tls_kw_legacy_match(const TlsLegacyKw *kw, const TlsKwInfo *ki, enum tls_kw_buf which)
{
	const TlsCertInfo *ci = leaf(ki, TLS_TOCLIENT);
	const char *field = NULL;
	size_t flen = 0, tlen;
	bool found = false;

	if (!ci || !kw->text)
		return false;
	switch (which) {
	case TLS_BUF_CERT_SUBJECT:
		field = ci->subject;
		flen = ci->subject_len;
		break;
	case TLS_BUF_CERT_ISSUER:
		field = ci->issuer;
		flen = ci->issuer_len;
		break;
	case TLS_BUF_CERT_FINGERPRINT:
		field = ci->fingerprint;
		flen = strlen(ci->fingerprint);
		break;
	default:
		return false;
	}
	if (!field)
		return false;
	tlen = strlen(kw->text);
	/* names may hold a NUL: search the counted bytes */
	for (size_t i = 0; !found && tlen <= flen && i + tlen <= flen; i++) {
		if (which == TLS_BUF_CERT_FINGERPRINT)
			found = strncasecmp(field + i, kw->text, tlen) == 0;
		else
			found = memcmp(field + i, kw->text, tlen) == 0;
	}
	return kw->neg ? !found : found;
}
