/* SIP and SDP keywords, as Suricata 8 documents them (rules/sip-keywords,
 * rules/sdp-keywords): sticky buffers on a SIP message, read from its
 * transaction through the buffer registry (buffers.c). A request's
 * buffers (sip.method, sip.uri, sip.request_line) are the request side's,
 * a response's (sip.stat_code, sip.stat_msg, sip.response_line) the
 * response side's; sip.protocol, the headers and the SDP fields are the
 * message's on either side. A header may come several times, and in its
 * compact form ("t:" is "To:", RFC 3261 7.3.3): each one is an entry of
 * the buffer (suricata-verify sip-header-multi-value). SDP lines that may
 * repeat (b=, a=, t=, r=) and the media descriptions' fields are multi
 * buffers too, one entry per line. */
#include "detect/detect-int.h"
#include "detect/buffers.h"
#include "app-layer/sip.h"

static int kw_sip_sticky(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)arg;
	return sig_app_sticky(st, kw, ALPROTO_SIP, 1, "a sip, udp, tcp or ip");
}

static int give(const SipMsg *m, SipSpan s, const uint8_t **data, uint32_t *len)
{
	*data = sip_span_ptr(m, s);
	*len = s.len;
	return 0;
}

static const enum sip_hdr hdr_of[] = {
	[SIP_KW_FROM] = SIP_H_FROM,
	[SIP_KW_TO] = SIP_H_TO,
	[SIP_KW_VIA] = SIP_H_VIA,
	[SIP_KW_USER_AGENT] = SIP_H_USER_AGENT,
	[SIP_KW_CONTENT_TYPE] = SIP_H_CONTENT_TYPE,
	[SIP_KW_CONTENT_LENGTH] = SIP_H_CONTENT_LENGTH,
};

/* SDP buffers: the line type, and whether it is a media description's. */
static const struct {
	char type;
	uint8_t media;
} sdp_of[] = {
	[SDP_KW_ORIGIN] = { 'o', 0 },
	[SDP_KW_SESSION_NAME] = { 's', 0 },
	[SDP_KW_SESSION_INFO] = { 'i', 0 },
	[SDP_KW_URI] = { 'u', 0 },
	[SDP_KW_EMAIL] = { 'e', 0 },
	[SDP_KW_PHONE_NUMBER] = { 'p', 0 },
	[SDP_KW_CONNECTION_DATA] = { 'c', 0 },
	[SDP_KW_BANDWIDTH] = { 'b', 0 },
	[SDP_KW_TIME] = { 't', 0 },
	[SDP_KW_REPEAT_TIME] = { 'r', 0 },
	[SDP_KW_TIMEZONE] = { 'z', 0 },
	[SDP_KW_ENCRYPTION_KEY] = { 'k', 0 },
	[SDP_KW_ATTRIBUTE] = { 'a', 0 },
	[SDP_KW_MEDIA_MEDIA] = { 'm', 1 },
	[SDP_KW_MEDIA_SESSION_INFO] = { 'i', 1 },
	[SDP_KW_MEDIA_CONNECTION_DATA] = { 'c', 1 },
	[SDP_KW_MEDIA_ENCRYPTION_KEY] = { 'k', 1 },
};

/* Entry idx of a media description's field: the idx-th such line over
 * the descriptions in order. */
static const SdpLine *media_line(const SipMsg *m, char t, uint32_t idx)
{
	for (uint32_t j = 0; j < m->nsdp; j++)
		if (m->sdp[j].media >= 0 && m->sdp[j].type == t && idx-- == 0)
			return &m->sdp[j];
	return NULL;
}

int sip_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		   const uint8_t **data, uint32_t *len)
{
	const SipMsg *m = sip_tx_msg(tx);
	int k = b->pbuf[side & 1];
	const SipHeader *h;
	const SdpLine *l;

	/* a transaction is one message, of one side */
	if (!m || sip_tx_dir(tx) != (side & 1))
		return -1;
	switch (k) {
	case SIP_KW_METHOD:
		return m->is_request && !idx ? give(m, m->method, data, len) : -1;
	case SIP_KW_URI:
		return m->is_request && !idx ? give(m, m->uri, data, len) : -1;
	case SIP_KW_REQUEST_LINE:
		return m->is_request && !idx ? give(m, m->line, data, len) : -1;
	case SIP_KW_STAT_CODE:
		return !m->is_request && !idx ? give(m, m->code, data, len) : -1;
	case SIP_KW_STAT_MSG:
		return !m->is_request && !idx ? give(m, m->reason, data, len) : -1;
	case SIP_KW_RESPONSE_LINE:
		return !m->is_request && !idx ? give(m, m->line, data, len) : -1;
	case SIP_KW_PROTOCOL:
		return !idx ? give(m, m->version, data, len) : -1;
	case SIP_KW_FROM:
	case SIP_KW_TO:
	case SIP_KW_VIA:
	case SIP_KW_USER_AGENT:
	case SIP_KW_CONTENT_TYPE:
	case SIP_KW_CONTENT_LENGTH:
		h = sip_msg_header(m, hdr_of[k], idx);
		return h ? give(m, h->value, data, len) : -1;
	}
	if (k < SDP_KW_ORIGIN || k > SDP_KW_MEDIA_ENCRYPTION_KEY || !m->has_sdp)
		return -1;
	l = sdp_of[k].media ? media_line(m, sdp_of[k].type, idx) :
			      sdp_line(m, sdp_of[k].type, -1, idx);
	return l ? give(m, l->value, data, len) : -1;
}

#define SIPB(n_, b_) { .name = n_, .id = KW_SIP_STICKY, .setup = kw_sip_sticky, \
	.flags = STICKY, .buf = b_, .desc = "sticky buffer" }

const Keyword sip_keywords[] = {
	SIPB("sip.method", BUF_SIP_METHOD),
	SIPB("sip.uri", BUF_SIP_URI),
	SIPB("sip.request_line", BUF_SIP_REQUEST_LINE),
	SIPB("sip.stat_code", BUF_SIP_STAT_CODE),
	SIPB("sip.stat_msg", BUF_SIP_STAT_MSG),
	SIPB("sip.response_line", BUF_SIP_RESPONSE_LINE),
	SIPB("sip.protocol", BUF_SIP_PROTOCOL),
	SIPB("sip.from", BUF_SIP_FROM),
	SIPB("sip.to", BUF_SIP_TO),
	SIPB("sip.via", BUF_SIP_VIA),
	SIPB("sip.user_agent", BUF_SIP_USER_AGENT),
	SIPB("sip.content_type", BUF_SIP_CONTENT_TYPE),
	SIPB("sip.content_length", BUF_SIP_CONTENT_LENGTH),
	SIPB("sdp.origin", BUF_SDP_ORIGIN),
	SIPB("sdp.session_name", BUF_SDP_SESSION_NAME),
	SIPB("sdp.session_info", BUF_SDP_SESSION_INFO),
	SIPB("sdp.uri", BUF_SDP_URI),
	SIPB("sdp.email", BUF_SDP_EMAIL),
	SIPB("sdp.phone_number", BUF_SDP_PHONE_NUMBER),
	SIPB("sdp.connection_data", BUF_SDP_CONNECTION_DATA),
	SIPB("sdp.bandwidth", BUF_SDP_BANDWIDTH),
	SIPB("sdp.time", BUF_SDP_TIME),
	SIPB("sdp.repeat_time", BUF_SDP_REPEAT_TIME),
	SIPB("sdp.timezone", BUF_SDP_TIMEZONE),
	SIPB("sdp.encryption_key", BUF_SDP_ENCRYPTION_KEY),
	SIPB("sdp.attribute", BUF_SDP_ATTRIBUTE),
	SIPB("sdp.media.media", BUF_SDP_MEDIA_MEDIA),
	SIPB("sdp.media.session_info", BUF_SDP_MEDIA_SESSION_INFO),
	SIPB("sdp.media.connection_data", BUF_SDP_MEDIA_CONNECTION_DATA),
	SIPB("sdp.media.encryption_key", BUF_SDP_MEDIA_ENCRYPTION_KEY),
	{ .name = NULL }
};
