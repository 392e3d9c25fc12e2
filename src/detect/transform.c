/* Sticky-buffer transforms and base64_decode / base64_data: parsing (the
 * keyword setups) and the per-thread application (detect/transform.h). */
#include "detect/detect-int.h"
#include "detect/inspect.h"
#include "util/base64.h"
#include "detect/transform.h"
#include "detect/transform-codec.h"
#include "detect/lua/lua-xform.h"
#include "detect/buffers.h"
#include "detect/pcre2-config.h"
#include "util/strnum.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- parse ---- */

static SigXform *sig_xf(Signature *s)
{
	if (!s->xf) {
		s->xf = calloc(1, sizeof(*s->xf));
		if (s->xf)
			memset(s->xf->inst_base, -1, sizeof(s->xf->inst_base));
	}
	return s->xf;
}

const TransformChain *sig_list_chain(const Signature *s, int l)
{
	if (!s->xf || l < 0 || l >= BUF_MAX)
		return NULL;
	return s->xf->chain[l];
}

int sig_list_base(const Signature *s, int l)
{
	if (l >= BUF_HTTP_XINST0 && l <= BUF_HTTP_XINST3 && s->xf)
		return s->xf->inst_base[l - BUF_HTTP_XINST0];
	return l;
}

static int inst_new(SigParseState *st, int base);

int sig_list_side_given(const Signature *s, int l)
{
	return s->xf && l >= 0 && l < BUF_MAX && s->xf->side[l];
}

int sig_list_side(const Signature *s, int l)
{
	if (s->xf && l >= 0 && l < BUF_MAX && s->xf->side[l])
		return s->xf->side[l] - 1;
	return detect_buffers[sig_list_base(s, l)].side;
}

/* "<sticky buffer>: to_server|to_client" in a => rule (Suricata 8): the
 * side of the transaction a buffer of both sides (http.connection, ...) is
 * read from. A buffer already used for the other side, or for the rule's
 * side, gets an instance list of its own. A one-sided buffer may only name
 * its own side. */
int sig_buffer_side(SigParseState *st, int side)
{
	Signature *s = st->s;
	int l = st->cur_buf, base, own;
	SigXform *xf;

	if (l < 0)
		return sig_error(st, "to_server/to_client needs a sticky buffer");
	base = sig_list_base(s, l);
	own = detect_buffers[base].side;
	if (own != DBUF_EVAL) {
		if (own != side)
			return sig_error(st, "%s is not a %s buffer", sig_buffer_name(base),
					 side == DBUF_TC ? "to_client" : "to_server");
		return 0;
	}
	if (!(xf = sig_xf(s)))
		return sig_error(st, "out of memory");
	if (xf->side[l] == side + 1)
		return 0;
	if (!xf->side[l] && !s->lists[l].n && !xf->chain[l]) {
		xf->side[l] = (int8_t)(side + 1);
		return 0;
	}
	for (int i = 0; i < SIG_XINST_MAX; i++) {
		int il = BUF_HTTP_XINST0 + i;

		if (xf->inst_base[i] == base && !xf->chain[il] && xf->side[il] == side + 1) {
			st->cur_buf = il;
			return 0;
		}
	}
	if ((l = inst_new(st, base)) < 0)
		return -1;
	xf->side[l] = (int8_t)(side + 1);
	st->cur_buf = l;
	return 0;
}

void transform_free_one(Transform *t)
{
	free(t->key);
	free(t->pattern);
	if (t->re)
		pcre2_code_free(t->re);
	lua_xform_free(t->lua);
	memset(t, 0, sizeof(*t));
}

static void chain_free(TransformChain *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->n; i++)
		transform_free_one(&c->t[i]);
	free(c);
}

void sig_xform_free(SigXform *xf)
{
	if (!xf)
		return;
	for (int l = 0; l < BUF_MAX; l++)
		chain_free(xf->chain[l]);
	free(xf);
}

/* A new instance list for buffer base (no transforms yet). */
static int inst_new(SigParseState *st, int base)
{
	SigXform *xf = sig_xf(st->s);

	if (!xf)
		return sig_error(st, "out of memory");
	for (int i = 0; i < SIG_XINST_MAX; i++) {
		if (xf->inst_base[i] < 0) {
			xf->inst_base[i] = (int8_t)base;
			return BUF_HTTP_XINST0 + i;
		}
	}
	return sig_unsupported(st, "more than %d transformed instances of http buffers in a rule",
			       SIG_XINST_MAX);
}

/* Suricata: a sticky buffer keyword starts with the untransformed buffer;
 * transforms that follow apply to what comes after them. */
int sig_select_buffer(SigParseState *st, int buf)
{
	Signature *s = st->s;
	SigXform *xf = s->xf;
	int l;

	if (!xf || !xf->chain[buf]) {
		st->cur_buf = buf;
		return 0;
	}
	if (!s->lists[buf].n) {
		/* transforms nothing used: a fresh selection drops them */
		chain_free(xf->chain[buf]);
		xf->chain[buf] = NULL;
		st->cur_buf = buf;
		return 0;
	}
	for (int i = 0; i < SIG_XINST_MAX; i++) {
		if (xf->inst_base[i] == buf && !xf->chain[BUF_HTTP_XINST0 + i]) {
			st->cur_buf = BUF_HTTP_XINST0 + i;
			return 0;
		}
	}
	l = inst_new(st, buf);
	if (l < 0)
		return -1;
	st->cur_buf = l;
	return 0;
}

static int parse_xor(SigParseState *st, const char *arg, Transform *t)
{
	size_t n = strlen(arg);

	if (n == 0 || n % 2 || n > 510)
		return sig_error(st, "xor key must be an even number of hex digits");
	t->key = malloc(n / 2);
	if (!t->key)
		return sig_error(st, "out of memory");
	for (size_t i = 0; i < n; i += 2) {
		int a = hex_digit((unsigned char)arg[i]), b = hex_digit((unsigned char)arg[i + 1]);

		if (a < 0 || b < 0)
			return sig_error(st, "invalid xor key \"%s\"", arg);
		t->key[i / 2] = (uint8_t)(a << 4 | b);
	}
	t->keylen = (uint32_t)(n / 2);
	return 0;
}

static int parse_pcrexform(SigParseState *st, const char *arg, Transform *t)
{
	int errcode;
	PCRE2_SIZE erroff;
	uint32_t ncap = 0;
	pcre2_code *re;

	re = pcre2_compile((PCRE2_SPTR)arg, PCRE2_ZERO_TERMINATED, 0, &errcode, &erroff, NULL);
	if (!re)
		return sig_error(st, "pcrexform: invalid regex \"%s\" at offset %zu", arg,
				 (size_t)erroff);
	t->re = re;
	t->pattern = strdup(arg);
	if (!t->pattern)
		return sig_error(st, "out of memory");
	pcre2_pattern_info(re, PCRE2_INFO_CAPTURECOUNT, &ncap);
	/* the first capture is the new buffer */
	if (ncap < 1)
		return sig_error(st, "pcrexform needs a capture group");
	return 0;
}

/* from_base64[: bytes N][, offset N][, mode rfc4648|rfc2045|strict] */

/* "key value" options (from_base64, base64_decode): ends the key at its
 * first blank and returns the trimmed value ("" when there is none). */
static char *split_key_value(char *k)
{
	char *v = k;

	while (*v && !isspace((unsigned char)*v))
		v++;
	if (*v)
		*v++ = '\0';
	return str_trim(v);
}

static int parse_from_base64(SigParseState *st, const char *arg, Transform *t)
{
	char buf[256], *parts[4];
	int n;

	t->mode = B64_RFC4648;
	if (!arg)
		return 0;
	n = sig_split_arg(st, "from_base64", arg, buf, sizeof(buf), parts, 4);
	if (n < 0)
		return -1;
	if (n > 3)
		return sig_error(st, "invalid from_base64 \"%s\"", arg);
	for (int i = 0; i < n; i++) {
		char *k = parts[i], *v = split_key_value(k);
		uint64_t u;

		if (!strcmp(k, "mode")) {
			if (!strcmp(v, "rfc4648"))
				t->mode = B64_RFC4648;
			else if (!strcmp(v, "rfc2045"))
				t->mode = B64_RFC2045;
			else if (!strcmp(v, "strict"))
				t->mode = B64_STRICT;
			else
				return sig_error(st, "invalid from_base64 mode \"%s\"", v);
		} else if (!strcmp(k, "bytes") || !strcmp(k, "offset")) {
			if (parse_u64(v, &u) || u > 65535)
				return sig_error(st, "invalid from_base64 %s \"%s\"", k, v);
			if (k[0] == 'b')
				t->bytes = (uint32_t)u;
			else
				t->offset = (uint32_t)u;
		} else {
			return sig_error(st, "invalid from_base64 option \"%s\"", k);
		}
	}
	return 0;
}

/* gunzip / zlib_deflate[: max-size N[kb|mb]] */
static int parse_inflate(SigParseState *st, const char *name, const char *arg, Transform *t)
{
	char buf[64], *k, *v, *unit;
	unsigned long long n;

	t->bytes = XFORM_INFLATE_DEFAULT;
	if (!arg)
		return 0;
	if (strlen(arg) >= sizeof(buf))
		return sig_error(st, "invalid %s \"%s\"", name, arg);
	strcpy(buf, arg);
	k = str_trim(buf);
	v = split_key_value(k);
	if (strcmp(k, "max-size") || !isdigit((unsigned char)*v))
		return sig_error(st, "invalid %s option \"%s\" (expected max-size N)", name, arg);
	n = strtoull(v, &unit, 10);
	if (!strcasecmp(unit, "kb") || !strcasecmp(unit, "kib"))
		n <<= 10;
	else if (!strcasecmp(unit, "mb") || !strcasecmp(unit, "mib"))
		n <<= 20;
	else if (*unit)
		return sig_error(st, "invalid %s max-size \"%s\"", name, v);
	if (n == 0 || n > XFORM_INFLATE_MAX)
		return sig_error(st, "%s max-size must be 1 to %u", name, XFORM_INFLATE_MAX);
	t->bytes = (uint32_t)n;
	return 0;
}

/* luaxform:<script>[, arg]... (detect/lua/lua-xform.c) */
static int parse_luaxform(SigParseState *st, const char *arg, Transform *t)
{
	char err[512];
	int rc = lua_xform_parse(arg, &t->lua, err, sizeof(err));

	if (rc == -2)
		return sig_unsupported(st, "%s", err);
	return rc ? sig_error(st, "%s", err) : 0;
}

static int kw_transform(SigParseState *st, const char *arg, const Keyword *kw)
{
	Signature *s = st->s;
	Transform t = { .kind = kw->buf };
	TransformChain *c;
	SigXform *xf;
	int l = st->cur_buf, rc = 0;

	if (l < 0)
		return sig_error(st, "transforms must directly follow stickybuffers");
	/* a frame's bytes take a chain right after frame: (from_base64 of
	 * an smtp.command_line: suricata-verify from_base64-04), and so do
	 * the packet header buffers (Suricata 8: luaxform on ip.src, a CIDR
	 * from the address's bytes); after a keyword of theirs a transform
	 * would need a second instance, which only http buffers have */
	if (l == BUF_PAYLOAD || (l >= BUF_IPV4_HDR && s->lists[l].n) ||
	    (l >= BUF_IPV4_HDR && l > BUF_HDR_LAST && l != BUF_FRAME))
		return sig_unsupported(st, "transform %s on %s", kw->name, sig_buffer_name(l));
	if (t.kind == TR_XOR)
		rc = parse_xor(st, arg, &t);
	else if (t.kind == TR_PCREXFORM)
		rc = parse_pcrexform(st, arg, &t);
	else if (t.kind == TR_FROM_BASE64)
		rc = parse_from_base64(st, arg, &t);
	else if (t.kind == TR_GUNZIP || t.kind == TR_ZLIB_DEFLATE)
		rc = parse_inflate(st, kw->name, arg, &t);
	else if ((t.kind == TR_DOMAIN || t.kind == TR_TLD) && !xform_psl_available())
		rc = sig_unsupported(st, "transform %s (built without libpsl, or no Public Suffix "
				     "List)", kw->name);
	else if (t.kind == TR_LUAXFORM)
		rc = parse_luaxform(st, arg, &t);
	else if (arg)
		rc = sig_error(st, "%s takes no value", kw->name);
	if (rc)
		goto fail;
	xf = sig_xf(s);
	if (!xf) {
		rc = sig_error(st, "out of memory");
		goto fail;
	}
	if (s->lists[l].n) {
		/* keywords before the transform keep inspecting the buffer as it
		 * was: the transformed one is a new instance */
		l = inst_new(st, sig_list_base(s, l));
		if (l < 0) {
			rc = -1;
			goto fail;
		}
		st->cur_buf = l;
	}
	c = xf->chain[l];
	if (!c && !(c = xf->chain[l] = calloc(1, sizeof(*c)))) {
		rc = sig_error(st, "out of memory");
		goto fail;
	}
	if (c->n == TRANSFORM_CHAIN_MAX) {
		rc = sig_error(st, "too many transforms on one buffer");
		goto fail;
	}
	c->t[c->n++] = t;
	return 0;
fail:
	transform_free_one(&t);
	return rc;
}

/* base64_decode[:bytes N, offset N, relative] */
static int kw_base64_decode(SigParseState *st, const char *arg, const Keyword *kw)
{
	char buf[128], *parts[4];
	DetectBase64 *bd;
	int n = 0, list = sig_cur_list(st);

	if (list == SM_LIST_BASE64_DATA)
		return sig_error(st, "base64_decode cannot inspect base64_data");
	bd = calloc(1, sizeof(*bd));
	if (!bd)
		return sig_error(st, "out of memory");
	if (arg) {
		if (strlen(arg) >= sizeof(buf))
			goto bad;
		strcpy(buf, arg);
		n = split_commas(buf, parts, 4);
		if (n > 3)
			goto bad;
	}
	for (int i = 0; i < n; i++) {
		char *k = parts[i], *v = split_key_value(k);
		uint64_t u;

		if (!strcmp(k, "relative") && !*v) {
			bd->relative = 1;
		} else if (!strcmp(k, "bytes") || !strcmp(k, "offset")) {
			if (parse_u64(v, &u) || u > 65535)
				goto bad;
			if (k[0] == 'b')
				bd->bytes = (uint32_t)u;
			else
				bd->offset = (uint32_t)u;
		} else {
			goto bad;
		}
	}
	/* relative to a content that a modifier (http_uri, ...) moved into
	 * its buffer: decode in that buffer, as Suricata does (it takes the
	 * list of the last content or pcre), as byte_* and isdataat do */
	if (bd->relative && st->cur_buf < 0 && st->last_inspect_list >= 0)
		list = st->last_inspect_list;
	if (sm_append(st, list, KW_BASE64_DECODE, bd) < 0)
		return -1;
	st->last_inspect_list = list;
	return 0;
bad:
	free(bd);
	return sig_error(st, "invalid base64_decode \"%s\"", arg ? arg : "");
}

static int kw_base64_data(SigParseState *st, const char *arg, const Keyword *kw)
{
	Signature *s = st->s;

	for (int l = 0; l < BUF_MAX; l++)
		for (int i = 0; i < s->lists[l].n; i++)
			if (s->lists[l].m[i].kw == KW_BASE64_DECODE) {
				st->cur_buf = SM_LIST_BASE64_DATA;
				return 0;
			}
	return sig_error(st, "base64_data needs a preceding base64_decode");
}

/* ---- apply ---- */

XformScratch *xform_scratch_new(void)
{
	XformScratch *xs = calloc(1, sizeof(*xs));

	if (!xs)
		return NULL;
	xs->md = pcre2_match_data_create(32, NULL);
	if (!xs->md) {
		free(xs);
		return NULL;
	}
	return xs;
}

void xform_scratch_free(XformScratch *xs)
{
	if (!xs)
		return;
	free(xs->buf[0]);
	free(xs->buf[1]);
	free(xs->b64);
	xform_codec_free(xs->codec);
	lua_xform_thread_free(xs->lua);
	pcre2_match_data_free(xs->md);
	free(xs);
}

static int grow(uint8_t **buf, uint32_t *cap, uint64_t need)
{
	uint64_t n;
	uint8_t *p;

	if (*cap >= need)
		return 0;
	if (need > UINT32_MAX / 2)
		return -1;
	n = need < 4096 ? 4096 : need + need / 2;
	p = realloc(*buf, n);
	if (!p)
		return -1;
	*buf = p;
	*cap = (uint32_t)n;
	return 0;
}

/* A trailing group of 2 or 3 characters still yields its whole bytes
 * (Suricata decodes "dGhpc2" to "this"). Padding ends the data. */
int64_t base64_decode_mode(const uint8_t *in, uint32_t len, uint8_t *out, int mode)
{
	uint32_t acc = 0;
	int nb = 0;
	int64_t n = 0;

	for (uint32_t i = 0; i < len; i++) {
		int v;

		if (in[i] == '=')
			break;
		v = base64_char_value(in[i]);
		if (v < 0) {
			if (mode == B64_RFC2045)
				continue;
			if (mode == B64_STRICT)
				return -1;
			break;
		}
		acc = acc << 6 | (uint32_t)v;
		if (++nb == 4) {
			out[n++] = (uint8_t)(acc >> 16);
			out[n++] = (uint8_t)(acc >> 8);
			out[n++] = (uint8_t)acc;
			nb = 0;
			acc = 0;
		}
	}
	if (nb == 2) {
		out[n++] = (uint8_t)(acc >> 4);
	} else if (nb == 3) {
		out[n++] = (uint8_t)(acc >> 10);
		out[n++] = (uint8_t)(acc >> 2);
	}
	return n;
}

static int is_ws(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* The room step() needs for t's output from len bytes. */
static uint64_t step_room(const Transform *t, uint32_t len)
{
	switch (t->kind) {
	case TR_TO_MD5:
	case TR_TO_SHA1:
	case TR_TO_SHA256:
		return 64;
	case TR_GUNZIP:
	case TR_ZLIB_DEFLATE:
		return (uint64_t)t->bytes + 1;
	default:
		return (uint64_t)len + 1;
	}
}

/* One transform: in -> out (room: step_room). Returns the output length;
 * *same set when the buffer stays as it was (no copy made). */
static uint32_t step(const Transform *t, XformScratch *xs, const uint8_t *in, uint32_t len,
		     uint8_t *out, int *same)
{
	uint32_t n = 0;

	*same = 0;
	switch (t->kind) {
	case TR_DOTPREFIX:
		out[0] = '.';
		memcpy(out + 1, in, len);
		return len + 1;
	case TR_STRIP_WHITESPACE:
		for (uint32_t i = 0; i < len; i++)
			if (!is_ws(in[i]))
				out[n++] = in[i];
		return n;
	case TR_COMPRESS_WHITESPACE:
		/* a run keeps its first whitespace byte, as Suricata */
		for (uint32_t i = 0; i < len; i++)
			if (!is_ws(in[i]) || n == 0 || !is_ws(out[n - 1]))
				out[n++] = in[i];
		return n;
	case TR_TO_LOWERCASE:
		for (uint32_t i = 0; i < len; i++)
			out[i] = (uint8_t)tolower(in[i]);
		return len;
	case TR_TO_UPPERCASE:
		for (uint32_t i = 0; i < len; i++)
			out[i] = (uint8_t)toupper(in[i]);
		return len;
	case TR_URL_DECODE:
		for (uint32_t i = 0; i < len; i++) {
			int a, b;

			if (in[i] == '%' && i + 2 < len && (a = hex_digit(in[i + 1])) >= 0 &&
			    (b = hex_digit(in[i + 2])) >= 0) {
				out[n++] = (uint8_t)(a << 4 | b);
				i += 2;
			} else if (in[i] == '+') {
				out[n++] = ' ';
			} else {
				out[n++] = in[i];
			}
		}
		return n;
	case TR_XOR:
		for (uint32_t i = 0; i < len; i++)
			out[i] = in[i] ^ t->key[i % t->keylen];
		return len;
	case TR_HEADER_LOWERCASE: {
		int in_name = 1;

		for (uint32_t i = 0; i < len; i++) {
			uint8_t c = in[i];

			if (c == '\n')
				in_name = 1;
			else if (c == ':' && in_name && i > 0 && in[i - 1] != '\n')
				in_name = 0;
			out[i] = in_name ? (uint8_t)tolower(c) : c;
		}
		return len;
	}
	case TR_STRIP_PSEUDO_HEADERS:
		/* drops "name: value" lines whose name starts with ':' */
		for (uint32_t i = 0; i < len;) {
			const uint8_t *nl = memchr(in + i, '\n', len - i);
			uint32_t e = nl ? (uint32_t)(nl - in) + 1 : len;

			if (in[i] != ':') {
				memcpy(out + n, in + i, e - i);
				n += e - i;
			}
			i = e;
		}
		return n;
	case TR_PCREXFORM: {
		PCRE2_SIZE *ov;
		int rc = pcre2_match(t->re, in, len, 0, 0, xs->md, NULL);

		if (rc < 2) {
			*same = 1;
			return len;
		}
		ov = pcre2_get_ovector_pointer(xs->md);
		if (ov[2] == PCRE2_UNSET || ov[3] < ov[2]) {
			*same = 1;
			return len;
		}
		memcpy(out, in + ov[2], ov[3] - ov[2]);
		return (uint32_t)(ov[3] - ov[2]);
	}
	case TR_FROM_BASE64: {
		uint32_t dl;
		int64_t r;

		/* nothing to decode leaves the buffer as it was (Suricata) */
		if (t->offset && t->offset >= len) {
			*same = 1;
			return len;
		}
		dl = len - t->offset;
		if (t->bytes && t->bytes < dl)
			dl = t->bytes;
		r = base64_decode_mode(in + t->offset, dl, out, t->mode);
		if (r <= 0) {
			*same = 1;
			return len;
		}
		return (uint32_t)r;
	}
	case TR_TO_MD5:
	case TR_TO_SHA1:
	case TR_TO_SHA256: {
		int ok;

		n = xform_digest(&xs->codec, t->kind, in, len, out, &ok);
		*same = !ok;
		return ok ? n : len;
	}
	case TR_GUNZIP:
	case TR_ZLIB_DEFLATE: {
		int ok;

		n = xform_inflate(&xs->codec, t->kind == TR_GUNZIP, in, len, out, t->bytes, &ok);
		*same = !ok;
		return ok ? n : len;
	}
	case TR_DOMAIN:
	case TR_TLD:
		return xform_psl(t->kind == TR_TLD, in, len, out);
	}
	*same = 1;
	return len;
}

int transform_apply(const TransformChain *c, XformScratch *xs, const uint8_t *in, uint32_t len,
		    const uint8_t **out, uint32_t *outlen)
{
	const uint8_t *cur = in;
	uint32_t cur_len = len;
	int w = 0;

	if (c && c->n && !xs)
		return -1;
	for (int i = 0; c && i < c->n; i++) {
		int same;
		uint32_t n;

		/* the output slot must not be the current input */
		if (cur == xs->buf[w])
			w ^= 1;
		if (c->t[i].kind == TR_LUAXFORM) {
			const uint8_t *r;

			/* its output's size is the script's: copied once known */
			if (lua_xform_run(&xs->lua, c->t[i].lua, cur, cur_len, &r, &n) != 0)
				continue;
			if (grow(&xs->buf[w], &xs->cap[w], (uint64_t)n + 1))
				return -1;
			memcpy(xs->buf[w], r, n);
			cur = xs->buf[w];
			cur_len = n;
			continue;
		}
		if (grow(&xs->buf[w], &xs->cap[w], step_room(&c->t[i], cur_len)))
			return -1;
		n = step(&c->t[i], xs, cur, cur_len, xs->buf[w], &same);
		if (same)
			continue;
		cur = xs->buf[w];
		cur_len = n;
	}
	*out = cur;
	*outlen = cur_len;
	return 0;
}

static int transform_equal(const Transform *a, const Transform *b)
{
	if (a->kind != b->kind || a->offset != b->offset || a->bytes != b->bytes ||
	    a->mode != b->mode || a->keylen != b->keylen)
		return 0;
	if (a->keylen && memcmp(a->key, b->key, a->keylen))
		return 0;
	if (!a->pattern != !b->pattern || !lua_xform_equal(a->lua, b->lua))
		return 0;
	return !a->pattern || strcmp(a->pattern, b->pattern) == 0;
}

int transform_chain_equal(const TransformChain *a, const TransformChain *b)
{
	int na = a ? a->n : 0, nb = b ? b->n : 0;

	if (na != nb)
		return 0;
	for (int i = 0; i < na; i++)
		if (!transform_equal(&a->t[i], &b->t[i]))
			return 0;
	return 1;
}

/* Suricata: relative starts at the last match, then offset; bytes caps the
 * length (0: to the end). */
int base64_decode_step(XformScratch *xs, const DetectBase64 *bd, const uint8_t *data,
		       uint32_t len, uint32_t prev)
{
	uint32_t start = bd->relative ? prev : 0, n;
	int64_t r;

	xs->b64_len = 0;
	if (start > len || (uint64_t)start + bd->offset >= len)
		return 0;
	start += bd->offset;
	n = len - start;
	if (bd->bytes && bd->bytes < n)
		n = bd->bytes;
	if (grow(&xs->b64, &xs->b64_cap, (uint64_t)n + 4))
		return 0;
	r = base64_decode_mode(data + start, n, xs->b64, B64_RFC4648);
	if (r <= 0)
		return 0;
	xs->b64_len = (uint32_t)r;
	return 1;
}

/* The keywords of this family: keywords.c gathers the tables (one line
 * per family). */
const Keyword transform_keywords[] = {
	{ .name = "dotprefix", .id = KW_TRANSFORM, .setup = kw_transform, .flags = NA,
	  .buf = TR_DOTPREFIX, .desc = "transform: prepend a dot" },
	{ .name = "strip_whitespace", .id = KW_TRANSFORM, .setup = kw_transform, .flags = NA,
	  .buf = TR_STRIP_WHITESPACE, .desc = "transform: remove whitespace" },
	{ .name = "compress_whitespace", .id = KW_TRANSFORM, .setup = kw_transform, .flags = NA,
	  .buf = TR_COMPRESS_WHITESPACE, .desc = "transform: one whitespace per run" },
	{ .name = "to_lowercase", .id = KW_TRANSFORM, .setup = kw_transform, .flags = NA,
	  .buf = TR_TO_LOWERCASE, .desc = "transform: lowercase" },
	{ .name = "to_uppercase", .id = KW_TRANSFORM, .setup = kw_transform, .flags = NA,
	  .buf = TR_TO_UPPERCASE, .desc = "transform: uppercase" },
	{ .name = "url_decode", .id = KW_TRANSFORM, .setup = kw_transform, .flags = NA,
	  .buf = TR_URL_DECODE, .desc = "transform: decode %XX and +" },
	{ .name = "xor", .id = KW_TRANSFORM, .setup = kw_transform, .flags = NEED | SQ,
	  .buf = TR_XOR, .desc = "transform: xor with a hex key" },
	{ .name = "header_lowercase", .id = KW_TRANSFORM, .setup = kw_transform, .flags = NA,
	  .buf = TR_HEADER_LOWERCASE, .desc = "transform: lowercase header names" },
	{ .name = "strip_pseudo_headers", .id = KW_TRANSFORM, .setup = kw_transform, .flags = NA,
	  .buf = TR_STRIP_PSEUDO_HEADERS, .desc = "transform: drop :pseudo headers" },
	{ .name = "pcrexform", .id = KW_TRANSFORM, .setup = kw_transform, .flags = NEED | SQ,
	  .buf = TR_PCREXFORM, .desc = "transform: the regex's first capture" },
	{ .name = "from_base64", .id = KW_TRANSFORM, .setup = kw_transform, .flags = SQ,
	  .buf = TR_FROM_BASE64, .desc = "transform: base64 decode" },
	{ .name = "to_md5", .id = KW_TRANSFORM, .setup = kw_transform, .flags = NA,
	  .buf = TR_TO_MD5, .desc = "transform: the MD5 digest of the buffer" },
	{ .name = "to_sha1", .id = KW_TRANSFORM, .setup = kw_transform, .flags = NA,
	  .buf = TR_TO_SHA1, .desc = "transform: the SHA-1 digest of the buffer" },
	{ .name = "to_sha256", .id = KW_TRANSFORM, .setup = kw_transform, .flags = NA,
	  .buf = TR_TO_SHA256, .desc = "transform: the SHA-256 digest of the buffer" },
	{ .name = "gunzip", .id = KW_TRANSFORM, .setup = kw_transform, .flags = 0,
	  .buf = TR_GUNZIP, .desc = "transform: gzip decompression (max-size N, default 1024)" },
	{ .name = "zlib_deflate", .id = KW_TRANSFORM, .setup = kw_transform, .flags = 0,
	  .buf = TR_ZLIB_DEFLATE,
	  .desc = "transform: zlib decompression (max-size N, default 1024)" },
	{ .name = "domain", .id = KW_TRANSFORM, .setup = kw_transform, .flags = NA,
	  .buf = TR_DOMAIN, .desc = "transform: the registrable domain (Public Suffix List)" },
	{ .name = "tld", .id = KW_TRANSFORM, .setup = kw_transform, .flags = NA,
	  .buf = TR_TLD, .desc = "transform: the public suffix (Public Suffix List)" },
	{ .name = "luaxform", .id = KW_TRANSFORM, .setup = kw_transform, .flags = NEED | SQ,
	  .buf = TR_LUAXFORM, .desc = "transform: a Lua script's transform(input, args)" },
	{ .name = "base64_decode", .id = KW_BASE64_DECODE, .setup = kw_base64_decode, .flags = SQ,
	  .buf = -1, .desc = "decode base64 data for base64_data", .step = inspect_base64_step },
	{ .name = "base64_data", .id = KW_BASE64_DATA, .setup = kw_base64_data, .flags = NA,
	  .buf = -1, .desc = "the data base64_decode decoded" },
	{ .name = NULL }
};
