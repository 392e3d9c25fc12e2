/* HTTP keywords, parsed now and inspected once the HTTP engine exists:
 * old-style content modifiers (content:"x"; http_uri;), sticky buffers
 * (http.uri; content:"x";), pkt_data and urilen. */
#include "detect/detect-int.h"
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

	if (strlen(arg) >= sizeof(buf))
		return sig_error(st, "invalid urilen \"%s\"", arg);
	strcpy(buf, arg);
	n = split_commas(buf, parts, 3);
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

/* bsize: the size of the sticky buffer (after its transforms), compared as
 * Suricata's integer keywords; it does not move the inspection position. */
static int kw_bsize(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectUint *u;

	if (st->cur_buf < 0)
		return sig_error(st, "bsize needs a sticky buffer");
	u = calloc(1, sizeof(*u));
	if (!u)
		return sig_error(st, "out of memory");
	if (parse_uint_cmp(arg, UINT32_MAX, u)) {
		free(u);
		return sig_error(st, "invalid bsize \"%s\"", arg);
	}
	return sm_append(st, st->cur_buf, KW_BSIZE, u) < 0 ? -1 : 0;
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

/* The keywords of this family: keywords.c gathers the tables (one line
 * per family). */
const Keyword http_keywords[] = {
	{ "http_uri", KW_HTTP_MODIFIER, kw_http_modifier, MOD, BUF_HTTP_URI, "content modifier", NULL, NULL },
	{ "http_raw_uri", KW_HTTP_MODIFIER, kw_http_modifier, MOD, BUF_HTTP_RAW_URI, "content modifier", NULL, NULL },
	{ "http_method", KW_HTTP_MODIFIER, kw_http_modifier, MOD, BUF_HTTP_METHOD, "content modifier", NULL, NULL },
	{ "http_header", KW_HTTP_MODIFIER, kw_http_modifier, MOD, BUF_HTTP_HEADER, "content modifier", NULL, NULL },
	{ "http_raw_header", KW_HTTP_MODIFIER, kw_http_modifier, MOD, BUF_HTTP_RAW_HEADER, "content modifier", NULL, NULL },
	{ "http_cookie", KW_HTTP_MODIFIER, kw_http_modifier, MOD, BUF_HTTP_COOKIE, "content modifier", NULL, NULL },
	{ "http_user_agent", KW_HTTP_MODIFIER, kw_http_modifier, MOD, BUF_HTTP_USER_AGENT, "content modifier", NULL, NULL },
	{ "http_host", KW_HTTP_MODIFIER, kw_http_modifier, MOD, BUF_HTTP_HOST, "content modifier", NULL, NULL },
	{ "http_raw_host", KW_HTTP_MODIFIER, kw_http_modifier, MOD, BUF_HTTP_RAW_HOST, "content modifier", NULL, NULL },
	{ "http_client_body", KW_HTTP_MODIFIER, kw_http_modifier, MOD, BUF_HTTP_CLIENT_BODY, "content modifier", NULL, NULL },
	{ "http_server_body", KW_HTTP_MODIFIER, kw_http_modifier, MOD, BUF_HTTP_SERVER_BODY, "content modifier", NULL, NULL },
	{ "http_stat_code", KW_HTTP_MODIFIER, kw_http_modifier, MOD, BUF_HTTP_STAT_CODE, "content modifier", NULL, NULL },
	{ "http_stat_msg", KW_HTTP_MODIFIER, kw_http_modifier, MOD, BUF_HTTP_STAT_MSG, "content modifier", NULL, NULL },
	{ "http_request_line", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_REQUEST_LINE, "sticky buffer", NULL, NULL },
	{ "http_response_line", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_RESPONSE_LINE, "sticky buffer", NULL, NULL },
	{ "http_header_names", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_HEADER_NAMES, "sticky buffer", NULL, NULL },
	{ "http_content_type", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_CONTENT_TYPE, "sticky buffer", NULL, NULL },
	{ "http_content_len", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_CONTENT_LEN, "sticky buffer", NULL, NULL },
	{ "http_accept", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_ACCEPT, "sticky buffer", NULL, NULL },
	{ "http_accept_enc", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_ACCEPT_ENC, "sticky buffer", NULL, NULL },
	{ "http_accept_lang", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_ACCEPT_LANG, "sticky buffer", NULL, NULL },
	{ "http_connection", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_CONNECTION, "sticky buffer", NULL, NULL },
	{ "http_referer", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_REFERER, "sticky buffer", NULL, NULL },
	{ "http_protocol", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_PROTOCOL, "sticky buffer", NULL, NULL },
	{ "http_start", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_START, "sticky buffer", NULL, NULL },
	{ "http.uri", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_URI, "sticky buffer", NULL, NULL },
	{ "http.uri.raw", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_RAW_URI, "sticky buffer", NULL, NULL },
	{ "http.method", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_METHOD, "sticky buffer", NULL, NULL },
	{ "http.header", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_HEADER, "sticky buffer", NULL, NULL },
	{ "http.header.raw", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_RAW_HEADER, "sticky buffer", NULL, NULL },
	{ "http.cookie", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_COOKIE, "sticky buffer", NULL, NULL },
	{ "http.user_agent", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_USER_AGENT, "sticky buffer", NULL, NULL },
	{ "http.host", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_HOST, "sticky buffer", NULL, NULL },
	{ "http.host.raw", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_RAW_HOST, "sticky buffer", NULL, NULL },
	{ "http.request_body", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_CLIENT_BODY, "sticky buffer", NULL, NULL },
	{ "http.response_body", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_SERVER_BODY, "sticky buffer", NULL, NULL },
	{ "http.stat_code", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_STAT_CODE, "sticky buffer", NULL, NULL },
	{ "http.stat_msg", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_STAT_MSG, "sticky buffer", NULL, NULL },
	{ "http.request_line", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_REQUEST_LINE, "sticky buffer", NULL, NULL },
	{ "http.response_line", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_RESPONSE_LINE, "sticky buffer", NULL, NULL },
	{ "http.header_names", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_HEADER_NAMES, "sticky buffer", NULL, NULL },
	{ "http.content_type", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_CONTENT_TYPE, "sticky buffer", NULL, NULL },
	{ "http.content_len", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_CONTENT_LEN, "sticky buffer", NULL, NULL },
	{ "http.accept", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_ACCEPT, "sticky buffer", NULL, NULL },
	{ "http.accept_enc", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_ACCEPT_ENC, "sticky buffer", NULL, NULL },
	{ "http.accept_lang", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_ACCEPT_LANG, "sticky buffer", NULL, NULL },
	{ "http.connection", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_CONNECTION, "sticky buffer", NULL, NULL },
	{ "http.referer", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_REFERER, "sticky buffer", NULL, NULL },
	{ "http.protocol", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_PROTOCOL, "sticky buffer", NULL, NULL },
	{ "http.start", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_START, "sticky buffer", NULL, NULL },
	{ "http.location", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_LOCATION, "sticky buffer", NULL, NULL },
	{ "http.server", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_SERVER, "sticky buffer", NULL, NULL },
	{ "http.request_header", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_REQUEST_HEADER, "sticky buffer", NULL, NULL },
	{ "http.response_header", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_RESPONSE_HEADER, "sticky buffer", NULL, NULL },
	{ "pkt_data", KW_PKT_DATA, kw_pkt_data, NA, BUF_PAYLOAD, "back to the packet payload", NULL, NULL },
	{ "urilen", KW_URILEN, kw_urilen, NEED | SQ, -1, "http uri length", NULL, NULL },
	{ "http.uri.len", KW_URILEN, kw_urilen, NEED | SQ, -1, "http uri length", NULL, NULL },
	{ "bsize", KW_BSIZE, kw_bsize, NEED | SQ, -1, "size of the sticky buffer", NULL, NULL },
	{ .name = NULL }
};
