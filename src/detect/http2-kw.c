/* HTTP/2 keywords, as Suricata 8 documents them (rules/http2-keywords):
 * the transaction properties http2.frametype, http2.errorcode (a name or
 * a number), http2.priority, http2.window, http2.size_update (number
 * comparisons) and http2.settings (a SETTINGS id, and optionally a
 * comparison of its value), each matched on the side the rule is
 * evaluated on; the sticky buffers http2.header_name and http2.header
 * (one entry per header: "name", "name: value"). And the http.* buffers
 * on HTTP/2 transactions, as Suricata 8 maps them (buffers.c's
 * detect_tx_protos line makes "http" rules read them here). */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "detect/buffers.h"
#include "app-layer/http.h"
#include "app-layer/http2.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NEEDS "an http2, tcp or ip"

static int kw_http2_sticky(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)arg;
	return sig_app_sticky(st, kw, ALPROTO_HTTP2, 0, NEEDS);
}

/* ---- buffers ---- */

static int give(const uint8_t *p, uint32_t n, const uint8_t **data, uint32_t *len)
{
	if (!p)
		return -1;
	*data = p;
	*len = n;
	return 0;
}

static int hdr(const Http2Side *s, const char *name, const uint8_t **data, uint32_t *len)
{
	uint32_t n = 0;
	const uint8_t *v = http2_header(s, name, &n);

	return give(v, n, data, len);
}

/* Entry idx of the side's headers (dynamic table size updates are none):
 * the name, or "name: value" (with_value). */
static int header_at(const Http2Side *s, uint32_t idx, int with_value, const uint8_t **data,
		     uint32_t *len)
{
	/* the line form is read from the side's header lines, which hold the
	 * headers in order, each ending with CRLF */
	const uint8_t *p = s->lines, *end = p ? p + s->lines_len : NULL;
	uint32_t k = 0;

	if (with_value && !p)
		return -1;

	for (uint32_t i = 0; i < s->nhdrs; i++) {
		const Http2Header *h = &s->hdrs[i];
		uint32_t ll = h->nlen + 2 + h->vlen;

		if (h->size_update >= 0)
			continue;
		if (k++ == idx) {
			if (!with_value)
				return give(h->name, h->nlen, data, len);
			return (size_t)(end - p) >= ll ? give(p, ll, data, len) : -1;
		}
		if (p && (size_t)(end - p) >= ll + 2)
			p += ll + 2;
	}
	return -1;
}

static int http_on_h2(const DetectBuffer *b, Http2Tx *tx, int side, uint32_t idx,
		      const uint8_t **data, uint32_t *len)
{
	const Http2Side *rq = &tx->side[APP_DIR_TOSERVER], *rs = &tx->side[APP_DIR_TOCLIENT];
	const Http2Side *s = &tx->side[side & 1];
	int hb = b->pbuf[side & 1];

	if (b->multi) {
		if (hb == HTTP_BUF_REQUEST_HEADER)
			return header_at(rq, idx, 1, data, len);
		if (hb == HTTP_BUF_RESPONSE_HEADER)
			return header_at(rs, idx, 1, data, len);
		return -1;
	}
	if (idx)
		return -1;
	switch (hb) {
	case HTTP_BUF_METHOD:
		return hdr(rq, ":method", data, len);
	case HTTP_BUF_URI:
	case HTTP_BUF_RAW_URI:
		return hdr(rq, ":path", data, len);
	case HTTP_BUF_PROTOCOL:
		/* every HTTP/2 transaction is "HTTP/2", stream 0's too (Suricata 8:
		 * suricata-verify http2-keywords2 sid 35) */
		return give((const uint8_t *)"HTTP/2", 6, data, len);
	case HTTP_BUF_REQUEST_LINE:
		return give(rq->line, rq->line_len, data, len);
	case HTTP_BUF_RESPONSE_LINE:
		return give(rs->line, rs->line_len, data, len);
	case HTTP_BUF_HEADER:
	case HTTP_BUF_RAW_HEADER:
		return give(s->lines, s->lines_len, data, len);
	case HTTP_BUF_HEADER_NAMES:
		return s->headers_done ? give(s->names, s->names_len, data, len) : -1;
	case HTTP_BUF_COOKIE:
		return give(s->cookie, s->cookie_len, data, len);
	case HTTP_BUF_USER_AGENT:
		return hdr(rq, "user-agent", data, len);
	case HTTP_BUF_HOST:
		return give(rq->host, rq->host_len, data, len);
	case HTTP_BUF_RAW_HOST:
		if (hdr(rq, ":authority", data, len) == 0)
			return 0;
		return hdr(rq, "host", data, len);
	case HTTP_BUF_ACCEPT:
		return hdr(rq, "accept", data, len);
	case HTTP_BUF_ACCEPT_ENC:
		return hdr(rq, "accept-encoding", data, len);
	case HTTP_BUF_ACCEPT_LANG:
		return hdr(rq, "accept-language", data, len);
	case HTTP_BUF_CONNECTION:
		return hdr(s, "connection", data, len);
	case HTTP_BUF_REFERER:
		return hdr(rq, "referer", data, len);
	case HTTP_BUF_CONTENT_TYPE:
		return hdr(s, "content-type", data, len);
	case HTTP_BUF_CONTENT_LEN:
		return hdr(s, "content-length", data, len);
	case HTTP_BUF_CLIENT_BODY:
		return rq->body_len ? give(rq->body, rq->body_len, data, len) : -1;
	case HTTP_BUF_SERVER_BODY:
		return rs->body_len ? give(rs->body, rs->body_len, data, len) : -1;
	case HTTP_BUF_STAT_CODE:
		return hdr(rs, ":status", data, len);
	case HTTP_BUF_STAT_MSG:
		/* HTTP/2 has no reason phrase: present and empty, on every
		 * transaction (Suricata 8: http2-keywords2 sids 38, 39) */
		return give((const uint8_t *)"", 0, data, len);
	case HTTP_BUF_LOCATION:
		return hdr(rs, "location", data, len);
	case HTTP_BUF_SERVER:
		return hdr(rs, "server", data, len);
	default:
		return -1;
	}
}

int http2_buffer_get(const DetectBuffer *b, void *txp, int side, uint32_t idx,
		     const uint8_t **data, uint32_t *len)
{
	Http2Tx *tx = txp;
	const Http2Side *s = &tx->side[side & 1];

	if (b->alproto != ALPROTO_HTTP2)
		return http_on_h2(b, tx, side, idx, data, len);
	switch (b->pbuf[side & 1]) {
	case H2_KW_BUF_HEADER_NAME:
		return header_at(s, idx, 0, data, len);
	case H2_KW_BUF_HEADER:
		return header_at(s, idx, 1, data, len);
	}
	return -1;
}

/* ---- properties ---- */

enum h2_kind { HK_FRAMETYPE, HK_ERRORCODE, HK_PRIORITY, HK_WINDOW, HK_SIZE_UPDATE,
	       HK_SETTINGS };

typedef struct DetectHttp2 {
	int kind;
	int has_value;              /* settings: a comparison follows the id */
	int64_t id;                 /* frame type, error code, settings id */
	DetectUint u;
} DetectHttp2;

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int parse_settings(char *s, DetectHttp2 *d)
{
	char *p = s;

	while (*p && (isalnum((unsigned char)*p) || *p == '_'))
		p++;
	if (p == s)
		return -1;
	{
		char c = *p;

		*p = '\0';
		d->id = http2_settings_by_name(s);
		if (d->id < 0) {
			char *end;
			long v = strtol(s, &end, 10);

			if (*end || v < 0 || v > 65535)
				return -1;
			d->id = v;
		}
		*p = c;
	}
	p = trim(p);
	if (!*p)
		return 0;
	/* "=4096" is an equality, as Suricata reads it */
	if (p[0] == '=' && p[1] != '=')
		p++;
	d->has_value = 1;
	return parse_uint_cmp(p, UINT32_MAX, &d->u);
}

static int kw_http2_match(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectHttp2 *d = calloc(1, sizeof(*d));
	char buf[256], *s;
	int bad = 0;

	if (!d)
		return sig_error(st, "out of memory");
	snprintf(buf, sizeof(buf), "%s", arg ? arg : "");
	s = trim(buf);
	d->kind = kw->buf;
	switch (d->kind) {
	case HK_FRAMETYPE:
		d->id = http2_frame_type_by_name(s);
		if (d->id < 0) {
			char *end;
			long v = strtol(s, &end, 10);

			bad = !*s || *end || v < 0 || v > 255;
			d->id = v;
		}
		break;
	case HK_ERRORCODE:
		d->id = http2_error_by_name(s);
		if (d->id < 0) {
			char *end;
			unsigned long long v = strtoull(s, &end, 10);

			bad = !*s || *end || v > UINT32_MAX;
			d->id = (int64_t)v;
		}
		break;
	case HK_SETTINGS:
		bad = parse_settings(s, d) < 0;
		break;
	default:
		bad = parse_uint_cmp(s, d->kind == HK_PRIORITY ? 255 : UINT32_MAX, &d->u) < 0;
	}
	if (bad) {
		free(d);
		return sig_error(st, "invalid %s \"%s\"", kw->name, arg ? arg : "");
	}
	if (sig_set_alproto_for(st, kw->name, ALPROTO_HTTP2, 0, NEEDS)) {
		free(d);
		return -1;
	}
	st->s->flags |= SIG_FLAG_TX_MATCH;
	return sm_append(st, SM_LIST_MATCH, KW_HTTP2_MATCH, d) < 0 ? -1 : 0;
}

static int match_http2(const DetectTx *tc, const SigMatch *sm, Packet *p)
{
	const DetectHttp2 *d = sm->ctx;
	const Http2Tx *tx = tc->tx;
	const Http2Side *s;

	if (!tx || !p->flow || p->flow->app_proto != ALPROTO_HTTP2)
		return 0;
	s = &tx->side[tc->side & 1];
	switch (d->kind) {
	case HK_FRAMETYPE:
		return d->id < 16 && (s->frame_types >> d->id & 1);
	case HK_ERRORCODE:
		return s->error_code >= 0 && s->error_code == d->id;
	case HK_PRIORITY:
		return s->priority >= 0 && detect_uint_match(&d->u, (uint64_t)s->priority);
	case HK_WINDOW:
		for (uint32_t i = 0; i < s->nwindows; i++)
			if (detect_uint_match(&d->u, s->windows[i]))
				return 1;
		return 0;
	case HK_SIZE_UPDATE:
		for (uint32_t i = 0; i < s->nhdrs; i++)
			if (s->hdrs[i].size_update >= 0 &&
			    detect_uint_match(&d->u, (uint64_t)s->hdrs[i].size_update))
				return 1;
		return 0;
	case HK_SETTINGS:
		for (uint32_t i = 0; i < s->nsettings; i++)
			if (s->settings[i].id == d->id &&
			    (!d->has_value || detect_uint_match(&d->u, s->settings[i].value)))
				return 1;
		return 0;
	}
	return 0;
}

#define H2B(n_, b_) { .name = n_, .id = KW_HTTP2_STICKY, .setup = kw_http2_sticky, \
	.flags = STICKY, .buf = b_, .desc = "sticky buffer" }
#define H2M(n_, k_, d_) { .name = n_, .id = KW_HTTP2_MATCH, .setup = kw_http2_match, \
	.flags = NEED | SQ | KWF_TX, .buf = k_, .desc = d_, .tx_match = match_http2 }

const Keyword http2_keywords[] = {
	H2B("http2.header_name", BUF_HTTP2_HEADER_NAME),
	H2B("http2.header", BUF_HTTP2_HEADER),
	H2M("http2.frametype", HK_FRAMETYPE, "http2 frame type (name or number)"),
	H2M("http2.errorcode", HK_ERRORCODE, "http2 RST_STREAM or GOAWAY error code"),
	H2M("http2.priority", HK_PRIORITY, "http2 PRIORITY or HEADERS priority"),
	H2M("http2.window", HK_WINDOW, "http2 WINDOW_UPDATE increment"),
	H2M("http2.size_update", HK_SIZE_UPDATE, "http2 dynamic table size update"),
	H2M("http2.settings", HK_SETTINGS, "http2 SETTINGS id [comparison of its value]"),
	{ .name = NULL }
};
