/* SIP messages (RFC 3261) and the SDP bodies (RFC 4566) they carry: the
 * parser of one message, free of flows and streams, for sip-proto.c, the
 * eve logger, detection, the unit tests and the fuzz harness.
 *
 * A message is parsed into one owned copy of its bytes (head and body) and
 * spans into it, so that detection and eve read them in place. Everything
 * is bounded: at most SIP_MAX_HEADERS header lines and SDP_MAX_LINES SDP
 * lines are kept (the rest is parsed over and flagged), a message is at
 * most SIP_MAX_MSG bytes. What Suricata 8 exposes: the request line
 * (method, uri, version) or the status line (version, code, reason), the
 * headers with their compact forms normalised (RFC 3261 7.3.3: "t" is
 * "To"), the body, and when the body is application/sdp its fields. */
#ifndef APP_LAYER_SIP_PARSE_H
#define APP_LAYER_SIP_PARSE_H

#include <stdint.h>

/* Bounds: a message, its header lines, its SDP lines. */
#define SIP_MAX_MSG (256u * 1024u)
#define SIP_MAX_HEADERS 64
#define SDP_MAX_LINES 128

/* The headers detection reads (sip.from, ...); others are SIP_H_OTHER. */
enum sip_hdr {
	SIP_H_OTHER = 0,
	SIP_H_FROM,
	SIP_H_TO,
	SIP_H_VIA,
	SIP_H_USER_AGENT,
	SIP_H_CONTENT_TYPE,
	SIP_H_CONTENT_LENGTH,
	SIP_H_COUNT
};

/* Events, Suricata 8's (app-layer-event:sip.<name>, rules/sip-events.rules). */
enum sip_event {
	SIP_EV_INCOMPLETE_DATA = 0,
	SIP_EV_INVALID_DATA,
	SIP_EV_COUNT
};

/* sip_msg_parse() results */
#define SIP_OK 0
#define SIP_MORE 1       /* incomplete: more bytes needed (TCP) */
#define SIP_INVALID (-1) /* not a SIP message */
#define SIP_NOMEM (-2)
#define SIP_TOOBIG (-3)  /* past SIP_MAX_MSG */

typedef struct SipSpan {
	uint32_t off, len;        /* into SipMsg.raw; len 0 with off 0: absent */
} SipSpan;

typedef struct SipHeader {
	uint8_t kind;             /* enum sip_hdr */
	SipSpan name, value;
} SipHeader;

/* One SDP line "<type>=<value>"; media: -1 at session level, else the
 * index of the m= description it belongs to. */
typedef struct SdpLine {
	char type;
	int16_t media;
	SipSpan value;
} SdpLine;

typedef struct SipMsg {
	uint8_t *raw;             /* the message's bytes, owned */
	uint32_t raw_len;
	uint8_t is_request;
	uint8_t headers_truncated; /* more header lines than SIP_MAX_HEADERS */
	SipSpan line;             /* request or status line, without CRLF */
	SipSpan method, uri;      /* requests */
	SipSpan version;          /* both: "SIP/2.0" */
	SipSpan code, reason;     /* responses */
	uint16_t nhdr;
	SipHeader hdr[SIP_MAX_HEADERS];
	uint32_t head_len;        /* start line and headers, blank line included */
	uint32_t line_end;        /* the start line with its line end */
	uint32_t headers_end;     /* the header lines, without the blank line */
	SipSpan body;
	/* SDP, when the body is application/sdp */
	uint8_t has_sdp;
	int16_t sdp_nmedia;
	uint16_t nsdp;
	SdpLine sdp[SDP_MAX_LINES];
} SipMsg;

/* One message at the start of buf[0, len). stream: 1 on TCP (a message
 * needs its blank line and Content-Length body bytes; SIP_MORE until then),
 * 0 on UDP (the datagram is the message: the body is what follows the
 * head). SIP_OK with *out (free with sip_msg_free) and *used (its bytes);
 * else no message. */
int sip_msg_parse(const uint8_t *buf, uint32_t len, int stream, SipMsg **out, uint32_t *used);
void sip_msg_free(SipMsg *m);

/* Whether buf starts like a SIP message's first line: 1 yes, 0 no, -1 not
 * enough bytes to say (no line end yet within the bytes given).
 * request: 1 for a request line ("INVITE sip:x SIP/2.0"), 0 for a status
 * line ("SIP/2.0 200 OK"), set when the answer is 1. */
int sip_probe_line(const uint8_t *buf, uint32_t len, int *request);

/* The same on a stream's first bytes, of which detection sees only a few
 * (24): a status line's "SIP/2.0 " start, or a SIP method and a space
 * before a "sip:", "sips:" or "tel:" URI. -1 while buf is a prefix of
 * one (never past 20 bytes). */
int sip_probe_prefix(const uint8_t *buf, uint32_t len, int *request);

/* The i-th header of kind k (from 0), or NULL. */
const SipHeader *sip_msg_header(const SipMsg *m, enum sip_hdr k, uint32_t i);

/* The i-th SDP line of type t in media description media (-1: session
 * level), or NULL. */
const SdpLine *sdp_line(const SipMsg *m, char t, int media, uint32_t i);

/* The bytes of a span. */
static inline const uint8_t *sip_span_ptr(const SipMsg *m, SipSpan s)
{
	return m->raw + s.off;
}

const char *sip_event_name(int ev);
int sip_event_by_name(const char *name);

#endif
