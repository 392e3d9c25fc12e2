/* A streaming MIME (RFC 2045-2049) message decoder for the bodies SMTP
 * carries after DATA/BDAT: it takes the message one line at a time (CRLF
 * stripped, SMTP dot-stuffing already undone) and keeps what Suricata 8's
 * eve "email" object and the email.* keywords show: the top-level headers,
 * the attachment names, the URLs in text parts, and the body's MD5.
 *
 * Bounded by app-layer.protocols.smtp.mime (MimeConfig): decode-mime (parse
 * the structure at all), decode-base64, decode-quoted-printable,
 * header-value-depth (bytes kept per header value), extract-urls with its
 * schemes, body-md5. The part bodies are decoded as they stream by: nothing
 * of a body is kept except one pending line of text for URL search and up
 * to 3 bytes of a base64 quantum.
 *
 * Attachments are not stored here: each attachment's decoded bytes go to
 * mime_attachment_data() (mime-decode.c) and from there to the file sink
 * the owner set (SMTP: the files module). */
#ifndef APP_LAYER_MIME_DECODE_H
#define APP_LAYER_MIME_DECODE_H

#include <stddef.h>
#include <stdint.h>

#define MIME_MAX_SCHEMES 8
#define MIME_MAX_DEPTH 16           /* nested multiparts followed */
#define MIME_MAX_HEADERS 64         /* top-level headers kept */
#define MIME_MAX_URLS 64
#define MIME_MAX_ATTACHMENTS 64
#define MIME_MAX_LINE 998           /* RFC 5322 2.1.1: longer is an event */
#define MIME_MAX_BOUNDARY 70        /* RFC 2046 5.1.1 */

typedef struct MimeConfig {
	int decode_mime;            /* yes */
	int decode_base64;          /* yes */
	int decode_qp;              /* yes */
	uint32_t header_value_depth;/* 2000; 0: whole values */
	int extract_urls;           /* yes */
	char schemes[MIME_MAX_SCHEMES][16]; /* "http://" ... */
	unsigned nschemes;          /* default: http only */
	int log_url_scheme;         /* no: "example.com/x", as Suricata logs them */
	int body_md5;               /* no */
} MimeConfig;

void mime_config_defaults(MimeConfig *c);

/* MIME events (Suricata's smtp.mime_* names), bits of MimeMsg.events. */
enum mime_event {
	MIME_EV_PARSE_FAILED = 0,
	MIME_EV_MALFORMED_MSG,
	MIME_EV_INVALID_BASE64,
	MIME_EV_INVALID_QP,
	MIME_EV_LONG_LINE,
	MIME_EV_LONG_ENC_LINE,
	MIME_EV_LONG_HEADER_NAME,
	MIME_EV_LONG_HEADER_VALUE,
	MIME_EV_LONG_BOUNDARY,
	MIME_EV_LONG_FILENAME,
	MIME_EV_COUNT
};

typedef struct MimeHeader {
	char *name;                 /* lower case */
	uint8_t *value;             /* unfolded, leading blanks trimmed, NUL-terminated */
	uint32_t len;
} MimeHeader;

/* One string of a list (urls, attachment names), NUL-terminated. */
typedef struct MimeStr {
	uint8_t *s;
	uint32_t len;
} MimeStr;

typedef struct MimeMsg MimeMsg;

/* A new message (cfg must outlive it); NULL when out of memory. */
MimeMsg *mime_msg_new(const MimeConfig *cfg);
void mime_msg_free(MimeMsg *m);

/* The next line of the message, without its CRLF. partial: the line goes on
 * in the next call (a line longer than the SMTP parser holds). */
void mime_feed_line(MimeMsg *m, const uint8_t *line, uint32_t len, int partial);
/* Whether a piece of the line to come (mime_feed_line(partial)) decodes
 * now as well as at its end: in a base64 body, whose pieces decode to the
 * same bytes however the line is cut. The SMTP parser hands such a line's
 * bytes on as they come, as Suricata's does: a file cut there (the
 * stream depth) holds them too. */
int mime_takes_pieces(const MimeMsg *m);
/* The message ended (end of DATA, last BDAT chunk, or the flow). */
void mime_finish(MimeMsg *m);

/* What the eve email object and the keywords read. */
unsigned mime_header_count(const MimeMsg *m);
const MimeHeader *mime_header_at(const MimeMsg *m, unsigned i);
/* The first top-level header called name (lower case), or NULL. */
const MimeHeader *mime_header(const MimeMsg *m, const char *name);
unsigned mime_url_count(const MimeMsg *m);
const MimeStr *mime_url_at(const MimeMsg *m, unsigned i);
unsigned mime_attachment_count(const MimeMsg *m);
const MimeStr *mime_attachment_at(const MimeMsg *m, unsigned i);
/* The body's MD5 (lines after the top-level headers, each with its CRLF)
 * when body-md5 is on and the message ended: 1 and the 16 bytes, else 0. */
int mime_body_md5(const MimeMsg *m, uint8_t out[16]);
/* The same as 32 lower-case hex digits, or NULL. */
const char *mime_body_md5_hex(const MimeMsg *m);
/* MIME_EV_* bits raised so far. */
uint32_t mime_events(const MimeMsg *m);
/* Whether the message's own header block ended. */
int mime_headers_done(const MimeMsg *m);
/* Whether the message ended (mime_finish). */
int mime_done(const MimeMsg *m);
/* URL flags for eve (has_ipv4_url, has_ipv6_url, has_exe_url). */
unsigned mime_url_flags(const MimeMsg *m);
#define MIME_URL_IPV4 0x1
#define MIME_URL_IPV6 0x2
#define MIME_URL_EXE 0x4

/* Event names ("mime_invalid_base64"), by id; NULL out of range. */
const char *mime_event_name(int id);

/* Decoders, exposed for tests: base64 of in[len] (whitespace skipped) into
 * out (at least len*3/4+3 bytes); carry[4]/ncarry hold an unfinished
 * quantum across calls. Returns the bytes written, -1 on a bad character. */
int mime_b64_decode(const uint8_t *in, uint32_t len, uint8_t *out, uint8_t carry[4],
		    unsigned *ncarry);
/* quoted-printable of one line: writes at most len bytes; *soft set when the
 * line ends with '=' (no line break follows). Returns the bytes written, or
 * -1-(written) when an '=' was not followed by two hex digits (kept as is). */
int mime_qp_decode(const uint8_t *in, uint32_t len, uint8_t *out, int *soft);

/* Where the attachments' decoded bytes go (SMTP hands them to the files
 * module): open when an attachment's first bytes come (or its part ends
 * empty), with its name as the attachment list has it; data in order;
 * close when its part ended (its closing boundary, the next part, or the
 * message's end: the caller knows which end that was). open may return
 * NULL: that attachment's bytes go nowhere. The CRLF before a boundary is
 * the boundary's (RFC 2046 5.1.1), not the file's. */
typedef struct MimeFileSink {
	void *(*open)(void *arg, const uint8_t *name, uint32_t len);
	void (*data)(void *arg, void *file, const uint8_t *d, uint32_t len);
	void (*close)(void *arg, void *file);
} MimeFileSink;
/* Before the first line; sink and arg outlive the message. */
void mime_set_file_sink(MimeMsg *m, const MimeFileSink *sink, void *arg);

/* The seam: an attachment's decoded bytes, in order (idx: its index in the
 * attachment list; last: the part ended), to the file sink. */
void mime_attachment_data(MimeMsg *m, unsigned idx, const uint8_t *data, uint32_t len,
			  int last);

#endif
