/* HTTP/2 (RFC 9113) as Suricata 8 parses it: the parser's view, for
 * detection (detect/http2-kw.c, and the http.* buffers on HTTP/2
 * transactions) and eve (output/http2-json.c).
 *
 * Transactions are Suricata's: one per stream, and one per frame of
 * stream 0 (SETTINGS, PING, GOAWAY, a connection WINDOW_UPDATE), whose
 * effect is the connection's; an empty SETTINGS (its ACK) makes none. Header blocks (HEADERS or PUSH_PROMISE with
 * their CONTINUATIONs) are decoded with libnghttp2's HPACK inflater, one
 * per direction; each header keeps a copy of its name and value. */
#ifndef APP_LAYER_HTTP2_H
#define APP_LAYER_HTTP2_H

#include "app-layer/files.h"
#include "app-layer/txlist.h"

#include <stdint.h>

enum http2_frame_type {
	H2_DATA = 0, H2_HEADERS, H2_PRIORITY, H2_RST_STREAM, H2_SETTINGS, H2_PUSH_PROMISE,
	H2_PING, H2_GOAWAY, H2_WINDOW_UPDATE, H2_CONTINUATION, H2_FRAME_TYPES
};

/* Suricata 8's app-layer-event names (rules/http2-events.rules), by id */
enum http2_event {
	H2_EV_INVALID_FRAME_HEADER, H2_EV_INVALID_CLIENT_MAGIC, H2_EV_INVALID_FRAME_DATA,
	H2_EV_INVALID_HEADER, H2_EV_INVALID_FRAME_LENGTH, H2_EV_EXTRA_HEADER_DATA,
	H2_EV_LONG_FRAME_DATA, H2_EV_STREAM_ID_REUSE, H2_EV_INVALID_HTTP1_SETTINGS,
	H2_EV_FAILED_DECOMPRESSION, H2_EV_INVALID_RANGE, H2_EV_HEADER_INTEGER_OVERFLOW,
	H2_EV_TOO_MANY_STREAMS, H2_EV_AUTHORITY_HOST_MISMATCH, H2_EV_USERINFO_IN_URI,
	H2_EV_REASSEMBLY_LIMIT_REACHED, H2_EV_COUNT
};
const char *http2_event_name(int e);
int http2_event_by_name(const char *name);

/* Frame type names as the keywords and eve write them ("RSTSTREAM"), and
 * back (also "RST_STREAM"), -1 when unknown. */
const char *http2_frame_type_name(unsigned t);
int http2_frame_type_by_name(const char *s);
/* Error code names: eve's ("PROTOCOLERROR"); by name takes both forms. */
const char *http2_error_name(uint32_t code);
int64_t http2_error_by_name(const char *s);
/* SETTINGS ids: eve's ("SETTINGSMAXCONCURRENTSTREAMS"), and the keyword's
 * ("SETTINGS_MAX_CONCURRENT_STREAMS") back. */
const char *http2_settings_name(uint16_t id);
int http2_settings_by_name(const char *s);

typedef struct Http2Header {
	uint8_t *name, *value;      /* one allocation: name then value */
	uint32_t nlen, vlen;
	int64_t size_update;        /* >= 0: a dynamic table size update, no name */
} Http2Header;

typedef struct Http2Setting {
	uint16_t id;
	uint32_t value;
} Http2Setting;

#define H2_MAX_SETTINGS 16
#define H2_MAX_WINDOWS 16

/* What one side of a transaction carried. */
typedef struct Http2Side {
	Http2Header *hdrs;
	uint32_t nhdrs, cap;
	uint32_t hdr_bytes;
	Http2Setting settings[H2_MAX_SETTINGS];
	uint32_t nsettings;
	uint32_t windows[H2_MAX_WINDOWS];
	uint32_t nwindows;
	int64_t error_code;         /* RST_STREAM or GOAWAY; -1 none */
	int32_t priority;           /* PRIORITY or HEADERS weight; -1 none */
	uint16_t frame_types;       /* bit t: a frame of type t */
	uint8_t *body;              /* DATA, kept up to the reassembly limit */
	uint32_t body_len;
	uint64_t body_seen;
	/* the http.* buffers, made once the headers are complete */
	uint8_t *lines;             /* "name: value\r\n"... */
	uint32_t lines_len;
	uint8_t *names;             /* "\r\nname\r\nname\r\n\r\n" */
	uint32_t names_len;
	uint8_t *cookie;            /* the cookie headers joined with "; " */
	uint32_t cookie_len;
	uint8_t *line;              /* request line "GET / HTTP/2", response "HTTP/2 200\r\n" */
	uint32_t line_len;
	uint8_t *host;              /* normalised host: lower case, no userinfo, no port */
	uint32_t host_len;
	uint8_t headers_done;
} Http2Side;

typedef struct Http2Tx {
	AppTx base;                 /* first: txlist.h */
	uint32_t stream_id;
	Http2Side side[2];          /* APP_DIR_TOSERVER, APP_DIR_TOCLIENT */
	/* a side's DATA is a file named by the request's :path (Suricata 8's
	 * fileinfo on HTTP/2), opened at its first DATA, closed at its end */
	FileContainer files[2];
	File *file[2];              /* the side's open file, or NULL */
	uint8_t store[2];           /* filestore asked for the tx's files */
	/* the side's Content-Encoding decoder for its file (http2-decode.h),
	 * looked for once, at its first DATA */
	struct Http2Decoder *dec[2];
	uint8_t dec_tried[2];
} Http2Tx;

/* files-proto.c: the files of a transaction's side, and filestore on them */
FileContainer *http2_files_of_tx(void *tx, int dir, int final);
void http2_files_store(const Flow *f, void *tx, unsigned dirs, int flow_scope, uint32_t sid);

/* The first header named name (lower case, NUL-terminated) of side, or
 * NULL; *len its value's length. */
const uint8_t *http2_header(const Http2Side *s, const char *name, uint32_t *len);

#endif
