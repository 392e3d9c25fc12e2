/* HTTP keywords, parsed now and inspected once the HTTP engine exists:
 * old-style content modifiers (content:"x"; http_uri;), sticky buffers
 * (http.uri; content:"x";), pkt_data and urilen. */
#include "detect/detect-int.h"
#include "detect/inspect.h"
#include "detect/buffers.h"
#include "app-layer/http.h"

#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>

int sig_set_alproto_http(SigParseState *st)
{
	Signature *s = st->s;

	if (s->proto != IPPROTO_TCP && s->proto != SIG_PROTO_IP)
		return sig_error(st, "http keywords need a tcp, ip or http rule");
	/* an http2 rule stays one: HTTP/2 transactions answer the http.*
	 * buffers (buffers.c, detect_tx_protos) */
	if (s->alproto < TX_CLASS_COUNT && detect_tx_protos[s->alproto].get_of &&
	    detect_tx_protos[s->alproto].rules_of == ALPROTO_HTTP1)
		return 0;
	s->alproto = ALPROTO_HTTP1;
	s->flags |= SIG_FLAG_APPLAYER;
	return 0;
}

/* Moves the last content of the payload list to `buf`: Suricata's modifier
 * semantics look for the previous content in the payload list only. */
int content_move_to_buffer(SigParseState *st, int buf, const char *kwname)
{
	Signature *s = st->s;
	SigMatchList *pl = &s->lists[BUF_PAYLOAD];
	DetectContent *cd;
	int idx;

	if (st->cur_buf >= 0)
		return sig_error(st, "\"%s\" seen with a sticky buffer still set; "
				 "reset it with pkt_data first", kwname);
	cd = sig_last_content_in(s, BUF_PAYLOAD, &idx);
	if (!cd)
		return sig_error(st, "\"%s\" needs a preceding content", kwname);
	if (cd->flags & CONTENT_RAWBYTES)
		return sig_error(st, "%s cannot be used with rawbytes", kwname);
	if (sig_set_alproto_http(st))
		return -1;
	memmove(&pl->m[idx], &pl->m[idx + 1], (pl->n - idx - 1) * sizeof(pl->m[0]));
	pl->n--;
	if (sm_append(st, buf, KW_CONTENT, cd) < 0)
		return -1;
	if (st->last_cd == cd)
		st->last_cd_list = buf;
	st->last_inspect_list = buf;
	return 0;
}

static int kw_http_modifier(SigParseState *st, const char *arg, const Keyword *kw)
{
	return content_move_to_buffer(st, kw->buf, kw->name);
}

static int kw_http_sticky(SigParseState *st, const char *arg, const Keyword *kw)
{
	if (sig_set_alproto_http(st))
		return -1;
	return sig_select_buffer(st, kw->buf);
}

static int kw_pkt_data(SigParseState *st, const char *arg, const Keyword *kw)
{
	st->cur_buf = -1;
	return 0;
}

/* urilen:[<>!]N[-M][,norm|raw] */
static int kw_urilen(SigParseState *st, const char *arg, const Keyword *kw)
{
	char buf[128], *parts[3];
	DetectUrilen *ul;
	int n;

	n = sig_split_arg(st, "urilen", arg, buf, sizeof(buf), parts, 3);
	if (n < 0)
		return -1;
	if (n > 2)
		return sig_error(st, "invalid urilen \"%s\"", arg);
	ul = calloc(1, sizeof(*ul));
	if (!ul)
		return sig_error(st, "out of memory");
	if (parse_uint_cmp(parts[0], 65535, &ul->u)) {
		free(ul);
		return sig_error(st, "invalid urilen \"%s\"", arg);
	}
	if (n == 2) {
		if (strcmp(parts[1], "raw") == 0) {
			ul->raw = 1;
		} else if (strcmp(parts[1], "norm") != 0) {
			free(ul);
			return sig_error(st, "invalid urilen option \"%s\"", parts[1]);
		}
	}
	if (sig_set_alproto_http(st)) {
		free(ul);
		return -1;
	}
	return sm_append(st, ul->raw ? BUF_HTTP_RAW_URI : BUF_HTTP_URI, KW_URILEN, ul) < 0 ? -1 : 0;
}

/* the buffer is the (raw or normalized) uri itself */
static int urilen_step(DetectThread *dt, const Signature *s, const SigMatchList *ml, int idx,
		       const InspectBuffer *b, uint32_t prev)
{
	if (!detect_uint_match(&((const DetectUrilen *)ml->m[idx].ctx)->u, b->len))
		return 0;
	return inspect_next(dt, s, ml, idx + 1, b, prev);
}

/* bsize: the size of the sticky buffer (after its transforms), compared as
 * Suricata's integer keywords; it does not move the inspection position. */
static int kw_bsize(SigParseState *st, const char *arg, const Keyword *kw)
{
	if (st->cur_buf < 0)
		return sig_error(st, "bsize needs a sticky buffer");
	return sm_append_uint(st, st->cur_buf, KW_BSIZE, "bsize", arg, UINT32_MAX);
}

static int bsize_step(DetectThread *dt, const Signature *s, const SigMatchList *ml, int idx,
		      const InspectBuffer *b, uint32_t prev)
{
	if (!detect_uint_match(ml->m[idx].ctx, b->len))
		return 0;
	return inspect_next(dt, s, ml, idx + 1, b, prev);
}

/* The HTTP entries of the buffer registry (buffers.c) read the transaction
 * through the app layer's HTTP buffers; a multi-buffer entry per header. */
int http_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		    const uint8_t **data, uint32_t *len)
{
	int hb = b->pbuf[side & 1];

	if (b->multi)
		return http_tx_buffer_multi(tx, hb, idx, data, len);
	if (idx)
		return -1;
	return http_tx_buffer_dir(tx, hb, side, data, len);
}

#define HTTP_MOD(n_, b_) { .name = n_, .id = KW_HTTP_MODIFIER, .setup = kw_http_modifier, \
	.flags = MOD, .buf = b_, .desc = "content modifier" }
#define HTTP_STICKY(n_, b_) { .name = n_, .id = KW_HTTP_STICKY, .setup = kw_http_sticky, \
	.flags = STICKY, .buf = b_, .desc = "sticky buffer" }

/* The keywords of this family: keywords.c gathers the tables (one line
 * per family). */
const Keyword http_keywords[] = {
	HTTP_MOD("http_uri", BUF_HTTP_URI),
	HTTP_MOD("http_raw_uri", BUF_HTTP_RAW_URI),
	HTTP_MOD("http_method", BUF_HTTP_METHOD),
	HTTP_MOD("http_header", BUF_HTTP_HEADER),
	HTTP_MOD("http_raw_header", BUF_HTTP_RAW_HEADER),
	HTTP_MOD("http_cookie", BUF_HTTP_COOKIE),
	HTTP_MOD("http_user_agent", BUF_HTTP_USER_AGENT),
	HTTP_MOD("http_host", BUF_HTTP_HOST),
	HTTP_MOD("http_raw_host", BUF_HTTP_RAW_HOST),
	HTTP_MOD("http_client_body", BUF_HTTP_CLIENT_BODY),
	HTTP_MOD("http_server_body", BUF_HTTP_SERVER_BODY),
	HTTP_MOD("http_stat_code", BUF_HTTP_STAT_CODE),
	HTTP_MOD("http_stat_msg", BUF_HTTP_STAT_MSG),
	HTTP_STICKY("http_request_line", BUF_HTTP_REQUEST_LINE),
	HTTP_STICKY("http_response_line", BUF_HTTP_RESPONSE_LINE),
	HTTP_STICKY("http_header_names", BUF_HTTP_HEADER_NAMES),
	HTTP_STICKY("http_content_type", BUF_HTTP_CONTENT_TYPE),
	HTTP_STICKY("http_content_len", BUF_HTTP_CONTENT_LEN),
	HTTP_STICKY("http_accept", BUF_HTTP_ACCEPT),
	HTTP_STICKY("http_accept_enc", BUF_HTTP_ACCEPT_ENC),
	HTTP_STICKY("http_accept_lang", BUF_HTTP_ACCEPT_LANG),
	HTTP_STICKY("http_connection", BUF_HTTP_CONNECTION),
	HTTP_STICKY("http_referer", BUF_HTTP_REFERER),
	HTTP_STICKY("http_protocol", BUF_HTTP_PROTOCOL),
	HTTP_STICKY("http_start", BUF_HTTP_START),
	HTTP_STICKY("http.uri", BUF_HTTP_URI),
	HTTP_STICKY("http.uri.raw", BUF_HTTP_RAW_URI),
	HTTP_STICKY("http.method", BUF_HTTP_METHOD),
	HTTP_STICKY("http.header", BUF_HTTP_HEADER),
	HTTP_STICKY("http.header.raw", BUF_HTTP_RAW_HEADER),
	HTTP_STICKY("http.cookie", BUF_HTTP_COOKIE),
	HTTP_STICKY("http.user_agent", BUF_HTTP_USER_AGENT),
	HTTP_STICKY("http.host", BUF_HTTP_HOST),
	HTTP_STICKY("http.host.raw", BUF_HTTP_RAW_HOST),
	HTTP_STICKY("http.request_body", BUF_HTTP_CLIENT_BODY),
	HTTP_STICKY("http.response_body", BUF_HTTP_SERVER_BODY),
	HTTP_STICKY("http.stat_code", BUF_HTTP_STAT_CODE),
	HTTP_STICKY("http.stat_msg", BUF_HTTP_STAT_MSG),
	HTTP_STICKY("http.request_line", BUF_HTTP_REQUEST_LINE),
	HTTP_STICKY("http.response_line", BUF_HTTP_RESPONSE_LINE),
	HTTP_STICKY("http.header_names", BUF_HTTP_HEADER_NAMES),
	HTTP_STICKY("http.content_type", BUF_HTTP_CONTENT_TYPE),
	HTTP_STICKY("http.content_len", BUF_HTTP_CONTENT_LEN),
	HTTP_STICKY("http.accept", BUF_HTTP_ACCEPT),
	HTTP_STICKY("http.accept_enc", BUF_HTTP_ACCEPT_ENC),
	HTTP_STICKY("http.accept_lang", BUF_HTTP_ACCEPT_LANG),
	HTTP_STICKY("http.connection", BUF_HTTP_CONNECTION),
	HTTP_STICKY("http.referer", BUF_HTTP_REFERER),
	HTTP_STICKY("http.protocol", BUF_HTTP_PROTOCOL),
	HTTP_STICKY("http.start", BUF_HTTP_START),
	HTTP_STICKY("http.location", BUF_HTTP_LOCATION),
	HTTP_STICKY("http.server", BUF_HTTP_SERVER),
	HTTP_STICKY("http.request_header", BUF_HTTP_REQUEST_HEADER),
	HTTP_STICKY("http.response_header", BUF_HTTP_RESPONSE_HEADER),
	{ .name = "pkt_data", .id = KW_PKT_DATA, .setup = kw_pkt_data, .flags = NA,
	  .buf = BUF_PAYLOAD, .desc = "back to the packet payload" },
	{ .name = "urilen", .id = KW_URILEN, .setup = kw_urilen, .flags = NEED | SQ, .buf = -1,
	  .desc = "http uri length", .step = urilen_step },
	{ .name = "http.uri.len", .id = KW_URILEN, .setup = kw_urilen, .flags = NEED | SQ, .buf = -1,
	  .desc = "http uri length", .step = urilen_step },
	{ .name = "bsize", .id = KW_BSIZE, .setup = kw_bsize, .flags = NEED | SQ, .buf = -1,
	  .desc = "size of the sticky buffer", .step = bsize_step },
	{ .name = NULL }
};
