/* SIP message parser (sip-parse.h). One pass over the head to find its end
 * and the lines, one copy of the message, spans into the copy. No
 * allocation but the copy (counted under app-layer.memcap, app-mem.h); hostile input costs at most one scan of
 * SIP_MAX_MSG bytes per message. */
#include "app-layer/sip-parse.h"
#include "app-layer/app-mem.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const event_names[SIP_EV_COUNT] = {
	[SIP_EV_INCOMPLETE_DATA] = "incomplete_data",
	[SIP_EV_INVALID_DATA] = "invalid_data",
};

const char *sip_event_name(int ev)
{
	return ev >= 0 && ev < SIP_EV_COUNT ? event_names[ev] : NULL;
}

int sip_event_by_name(const char *name)
{
	for (int i = 0; i < SIP_EV_COUNT; i++)
		if (strcasecmp(name, event_names[i]) == 0)
			return i;
	return -1;
}

/* RFC 3261 25.1 token characters (methods, header names). */
static int is_token(uint8_t c)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
		return 1;
	return c && strchr("-.!%*_+`'~", c) != NULL;
}

static int is_digit(uint8_t c)
{
	return c >= '0' && c <= '9';
}

/* "SIP/" 1*DIGIT "." 1*DIGIT at p[0, n): its length, or 0. */
static uint32_t version_len(const uint8_t *p, uint32_t n)
{
	uint32_t i = 4, d;

	if (n < 7 || memcmp(p, "SIP/", 4) != 0)
		return 0;
	for (d = i; i < n && is_digit(p[i]); i++)
		;
	if (i == d || i >= n || p[i] != '.')
		return 0;
	for (d = ++i; i < n && is_digit(p[i]); i++)
		;
	return i == d ? 0 : i;
}

/* The first line, p[0, n) without its line end, into m's spans (offsets
 * from the message start, which is p). 1 request, 0 response, -1 neither. */
static int start_line(const uint8_t *p, uint32_t n, SipMsg *m)
{
	uint32_t i = 0, v, u;

	v = version_len(p, n);
	if (v) {
		/* "SIP/2.0 200 OK": three digits, then the reason (may be empty) */
		if (v + 4 > n || p[v] != ' ' || !is_digit(p[v + 1]) || !is_digit(p[v + 2]) ||
		    !is_digit(p[v + 3]) || (v + 4 < n && p[v + 4] != ' '))
			return -1;
		if (m) {
			m->version = (SipSpan){ 0, v };
			m->code = (SipSpan){ v + 1, 3 };
			m->reason = v + 5 <= n ? (SipSpan){ v + 5, n - v - 5 } : (SipSpan){ n, 0 };
		}
		return 0;
	}
	while (i < n && is_token(p[i]))
		i++;
	if (i == 0 || i >= n || p[i] != ' ')
		return -1;
	u = ++i;
	while (i < n && p[i] != ' ')
		i++;
	if (i == u || i >= n)
		return -1;
	v = version_len(p + i + 1, n - i - 1);
	if (!v || i + 1 + v != n)
		return -1;
	if (m) {
		m->method = (SipSpan){ 0, u - 1 };
		m->uri = (SipSpan){ u, i - u };
		m->version = (SipSpan){ i + 1, v };
	}
	return 1;
}

int sip_probe_line(const uint8_t *buf, uint32_t len, int *request)
{
	const uint8_t *nl;
	uint32_t n;
	int r;

	if (!len)
		return -1;
	/* the cheap refusal first: every UDP flow's first datagram comes here */
	if (!is_token(buf[0]))
		return 0;
	nl = memchr(buf, '\n', len > 1024 ? 1024 : len);
	if (!nl)
		return len >= 1024 ? 0 : -1;
	n = (uint32_t)(nl - buf);
	if (n && buf[n - 1] == '\r')
		n--;
	r = start_line(buf, n, NULL);
	if (r < 0)
		return 0;
	*request = r;
	return 1;
}

/* 1: p[0, n) and want[0, wn) agree on their common length and p holds
 * all of want; 0: they differ; -1: p is a shorter prefix of want. */
static int prefix_cmp(const uint8_t *p, uint32_t n, const char *want, uint32_t wn)
{
	uint32_t k = n < wn ? n : wn;

	if (memcmp(p, want, k) != 0)
		return 0;
	return n >= wn ? 1 : -1;
}

/* The methods of RFC 3261 and its extensions (PRACK, SUBSCRIBE, ...), as
 * Suricata's SIP patterns name them. */
static const char *const methods[] = {
	"INVITE", "ACK", "BYE", "CANCEL", "OPTIONS", "REGISTER", "PRACK", "SUBSCRIBE",
	"NOTIFY", "PUBLISH", "INFO", "REFER", "MESSAGE", "UPDATE",
};

int sip_probe_prefix(const uint8_t *buf, uint32_t len, int *request)
{
	static const char *const schemes[] = { "sip:", "sips:", "tel:" };
	int r, more = 0;

	if (!len)
		return -1;
	r = prefix_cmp(buf, len, "SIP/2.0 ", 8);
	if (r) {
		*request = 0;
		return r;
	}
	for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
		uint32_t ml = (uint32_t)strlen(methods[i]);

		r = prefix_cmp(buf, len, methods[i], ml);
		if (r < 0) {
			more = 1;
			continue;
		}
		if (r == 0)
			continue;
		if (len == ml)
			return -1;
		if (buf[ml] != ' ')
			continue;
		/* the URI's scheme, any case (RFC 3261 19.1.1) */
		for (size_t j = 0; j < sizeof(schemes) / sizeof(schemes[0]); j++) {
			const char *u = (const char *)buf + ml + 1;
			uint32_t ul = len - ml - 1, sl = (uint32_t)strlen(schemes[j]);

			if (strncasecmp(u, schemes[j], ul < sl ? ul : sl) != 0)
				continue;
			if (ul < sl) {
				more = 1;
				continue;
			}
			*request = 1;
			return 1;
		}
	}
	return more ? -1 : 0;
}

/* RFC 3261 7.3.3 compact forms, and the full names, of the headers kept
 * by kind. */
static uint8_t header_kind(const uint8_t *n, uint32_t len)
{
	static const struct {
		const char *name;
		char compact;
		uint8_t kind;
	} names[] = {
		{ "from", 'f', SIP_H_FROM },
		{ "to", 't', SIP_H_TO },
		{ "via", 'v', SIP_H_VIA },
		{ "user-agent", 0, SIP_H_USER_AGENT },
		{ "content-type", 'c', SIP_H_CONTENT_TYPE },
		{ "content-length", 'l', SIP_H_CONTENT_LENGTH },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (len == 1 && names[i].compact && (n[0] | 0x20) == names[i].compact)
			return names[i].kind;
		if (len == strlen(names[i].name) && strncasecmp((const char *)n, names[i].name, len) == 0)
			return names[i].kind;
	}
	return SIP_H_OTHER;
}

/* The next line of p[*pos, end): its start and length without CR LF; *pos
 * past its LF. 0 when no LF is left. */
static int next_line(const uint8_t *p, uint32_t end, uint32_t *pos, uint32_t *ls, uint32_t *ln)
{
	const uint8_t *nl = memchr(p + *pos, '\n', end - *pos);
	uint32_t e;

	if (!nl)
		return 0;
	e = (uint32_t)(nl - p);
	*ls = *pos;
	*ln = e - *pos;
	if (*ln && p[e - 1] == '\r')
		(*ln)--;
	*pos = e + 1;
	return 1;
}

/* A header line p[s, s+n) ("Name: value", spaces around the colon). 0, or
 * -1 when it is not one. */
static int header_line(const uint8_t *p, uint32_t s, uint32_t n, SipMsg *m)
{
	uint32_t i = s, e = s + n, ns, vs;
	SipHeader *h;

	while (i < e && is_token(p[i]))
		i++;
	if (i == s)
		return -1;
	ns = i;
	while (i < e && (p[i] == ' ' || p[i] == '\t'))
		i++;
	if (i >= e || p[i] != ':')
		return -1;
	i++;
	while (i < e && (p[i] == ' ' || p[i] == '\t'))
		i++;
	vs = i;
	while (e > vs && (p[e - 1] == ' ' || p[e - 1] == '\t'))
		e--;
	if (m->nhdr >= SIP_MAX_HEADERS) {
		m->headers_truncated = 1;
		return 0;
	}
	h = &m->hdr[m->nhdr++];
	h->kind = header_kind(p + s, ns - s);
	h->name = (SipSpan){ s, ns - s };
	h->value = (SipSpan){ vs, e - vs };
	return 0;
}

const SipHeader *sip_msg_header(const SipMsg *m, enum sip_hdr k, uint32_t i)
{
	for (uint32_t j = 0; j < m->nhdr; j++)
		if (m->hdr[j].kind == k && i-- == 0)
			return &m->hdr[j];
	return NULL;
}

/* Content-Length's value: 1 with *v, 0 absent, -1 not a number. */
static int content_length(const SipMsg *m, const uint8_t *p, uint64_t *v)
{
	const SipHeader *h = sip_msg_header(m, SIP_H_CONTENT_LENGTH, 0);

	if (!h)
		return 0;
	if (!h->value.len || h->value.len > 10)
		return -1;
	*v = 0;
	for (uint32_t i = 0; i < h->value.len; i++) {
		uint8_t c = p[h->value.off + i];

		if (!is_digit(c))
			return -1;
		*v = *v * 10 + (uint64_t)(c - '0');
	}
	return 1;
}

static int is_sdp_body(const SipMsg *m, const uint8_t *p)
{
	const SipHeader *h = sip_msg_header(m, SIP_H_CONTENT_TYPE, 0);
	static const char sdp[] = "application/sdp";

	return h && h->value.len >= sizeof(sdp) - 1 &&
	       strncasecmp((const char *)p + h->value.off, sdp, sizeof(sdp) - 1) == 0;
}

/* The body's SDP lines, as far as they parse: "<letter>=<value>", the
 * first being v=. Lines past SDP_MAX_LINES are left out. */
static void sdp_parse(SipMsg *m)
{
	const uint8_t *p = m->raw;
	uint32_t pos = m->body.off, end = m->body.off + m->body.len, ls, ln;
	int media = -1;

	while (pos < end && m->nsdp < SDP_MAX_LINES) {
		if (!next_line(p, end, &pos, &ls, &ln)) {
			/* the last line may come without its line end */
			ls = pos;
			ln = end - pos;
			if (ln && p[ls + ln - 1] == '\r')
				ln--;
			pos = end;
		}
		if (ln == 0)
			continue;
		if (ln < 2 || p[ls] < 'a' || p[ls] > 'z' || p[ls + 1] != '=')
			break;
		if (m->nsdp == 0 && p[ls] != 'v')
			break;
		if (p[ls] == 'm') {
			if (media >= INT16_MAX - 1)
				break;
			media++;
		}
		m->sdp[m->nsdp++] = (SdpLine){ (char)p[ls], (int16_t)media, { ls + 2, ln - 2 } };
	}
	m->has_sdp = m->nsdp > 0;
	m->sdp_nmedia = (int16_t)(media + 1);
}

const SdpLine *sdp_line(const SipMsg *m, char t, int media, uint32_t i)
{
	for (uint32_t j = 0; j < m->nsdp; j++)
		if (m->sdp[j].type == t && m->sdp[j].media == media && i-- == 0)
			return &m->sdp[j];
	return NULL;
}

void sip_msg_free(SipMsg *m)
{
	if (!m)
		return;
	app_mem_free(ALPROTO_SIP, m->raw);
	app_mem_free(ALPROTO_SIP, m);
}

int sip_msg_parse(const uint8_t *buf, uint32_t len, int stream, SipMsg **out, uint32_t *used)
{
	SipMsg hm, *m;
	uint32_t pos = 0, ls, ln, head_end = 0, total;
	uint64_t cl = 0;
	int r, have_cl, bad_header = 0;

	*out = NULL;
	*used = 0;
	memset(&hm, 0, sizeof(hm));
	if (!next_line(buf, len, &pos, &ls, &ln))
		return len >= SIP_MAX_MSG ? SIP_TOOBIG : (is_token(len ? buf[0] : 'A') ? SIP_MORE :
									  SIP_INVALID);
	r = start_line(buf, ln, &hm);
	if (r < 0)
		return SIP_INVALID;
	hm.is_request = (uint8_t)r;
	hm.line = (SipSpan){ 0, ln };
	hm.line_end = pos;
	/* the headers, up to the blank line */
	for (;;) {
		if (pos > SIP_MAX_MSG)
			return SIP_TOOBIG;
		if (!next_line(buf, len, &pos, &ls, &ln))
			return len >= SIP_MAX_MSG ? SIP_TOOBIG : SIP_MORE;
		if (ln == 0) {
			head_end = pos;
			hm.headers_end = ls;
			break;
		}
		/* a folded line (RFC 3261 7.3.1) continues the previous value */
		if ((buf[ls] == ' ' || buf[ls] == '\t') && hm.nhdr) {
			SipHeader *h = &hm.hdr[hm.nhdr - 1];

			h->value.len = ls + ln - h->value.off;
			continue;
		}
		if (header_line(buf, ls, ln, &hm) < 0)
			bad_header = 1;
	}
	if (bad_header)
		return SIP_INVALID;
	have_cl = content_length(&hm, buf, &cl);
	if (have_cl < 0)
		return SIP_INVALID;
	if (stream) {
		if (cl > SIP_MAX_MSG || head_end + cl > SIP_MAX_MSG)
			return SIP_TOOBIG;
		if (head_end + cl > len)
			return SIP_MORE;
		total = head_end + (uint32_t)cl;
	} else {
		/* a datagram is one message: its body is the rest, or less
		 * when Content-Length says so */
		total = len;
		if (have_cl && cl < len - head_end)
			total = head_end + (uint32_t)cl;
	}
	m = app_mem_malloc(ALPROTO_SIP, sizeof(*m));
	if (!m)
		return SIP_NOMEM;
	*m = hm;
	m->raw = app_mem_malloc(ALPROTO_SIP, total ? total : 1);
	if (!m->raw) {
		app_mem_free(ALPROTO_SIP, m);
		return SIP_NOMEM;
	}
	memcpy(m->raw, buf, total);
	m->raw_len = total;
	m->head_len = head_end;
	m->body = (SipSpan){ head_end, total - head_end };
	if (m->body.len && is_sdp_body(m, m->raw))
		sdp_parse(m);
	*out = m;
	*used = total;
	return SIP_OK;
}
