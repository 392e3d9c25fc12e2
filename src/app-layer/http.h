/* HTTP/1 transactions (libhtp 0.5 underneath) for detection and logging.
 *
 * Transactions of a flow are numbered from 0 in request order (pipelined
 * requests get consecutive ids). A transaction exists once its request line
 * started (or, for a response without a request, once the response started).
 * Ids stay valid until app_layer_tx_gc() or app_layer_flow_free(); after gc
 * http_tx_get() returns NULL for freed ids.
 *
 * Buffers follow Suricata 8's "HTTP Keywords" documentation for what each
 * holds, byte for byte (see the comments on enum http_buffer). Pointers
 * returned by http_tx_buffer() stay valid until the next app_layer_handle_data()
 * on the flow or until the transaction is freed. */
#ifndef APP_LAYER_HTTP_H
#define APP_LAYER_HTTP_H

#include "app-layer/app-layer.h"
#include "flow/flow.h"

#include <stddef.h>
#include <stdint.h>

typedef struct HttpTx HttpTx;

/* Number of transactions ever started on f (the next tx id); 0 if f is not HTTP. */
uint64_t http_tx_count(const Flow *f);
/* The transaction with this id, or NULL (not started yet, or freed). */
HttpTx *http_tx_get(const Flow *f, uint64_t tx_id);
uint64_t http_tx_id(const HttpTx *tx);
/* The id eve prints (tx_id): as http_tx_id() until a CONNECT tunnel carries
 * HTTP again; that gets a new HTTP state whose ids restart at 0. */
uint64_t http_tx_log_id(const HttpTx *tx);

/* Progress per direction (dir: APP_DIR_*), in increasing order. A buffer of a
 * direction is available from the progress noted on it below. */
enum http_progress {
	HTTP_PROGRESS_NONE = 0,     /* nothing seen in this direction yet */
	HTTP_PROGRESS_LINE,         /* request/status line parsed */
	HTTP_PROGRESS_HEADERS,      /* headers complete */
	HTTP_PROGRESS_BODY,         /* body in progress */
	HTTP_PROGRESS_COMPLETE,     /* this direction of the tx is done */
};
int http_tx_progress(const HttpTx *tx, int dir);

/* Suricata 8's HTTP/1 frame types (frames.h; rules name them http1.request,
 * http1.response): a whole request or response, from its first byte (its
 * request or status line) to the end of its body, as the parser took it. */
enum http_frame_type {
	HTTP_FRAME_REQUEST = 0,
	HTTP_FRAME_RESPONSE,
};
extern const char *const http_frame_names[];

/* The transaction's "done" flags (APP_TX_* in app-layer.h). */
unsigned http_tx_flags(const HttpTx *tx);
void http_tx_set_flags(HttpTx *tx, unsigned flags);

/* One slot for detection's per-tx state, freed with the tx through the
 * function registered once at start (may be NULL: not freed). */
void **http_tx_detect_slot(HttpTx *tx);
/* The slot's state, zeroed, allocated on first call and counted in
 * http.memuse (it is per-transaction memory as much as libhtp's). */
void *http_tx_detect_alloc(HttpTx *tx, size_t size);
void http_set_detect_state_free(void (*fn)(void *state));

/* Inspection buffers. Request side ("ts") unless noted. Normalized: libhtp's
 * normalization under the configured personality. */
enum http_buffer {
	HTTP_BUF_METHOD = 0,    /* "GET" (LINE) */
	HTTP_BUF_URI,           /* normalized path?query, e.g. "/a b/c?x=1" (LINE) */
	HTTP_BUF_RAW_URI,       /* the uri as on the wire (LINE) */
	HTTP_BUF_PROTOCOL,      /* "HTTP/1.1" (request's; response's with dir toclient) */
	HTTP_BUF_REQUEST_LINE,  /* "GET /x HTTP/1.1", no CRLF (LINE) */
	HTTP_BUF_HEADER,        /* "Name: value\r\n" per header, no Cookie, trailing
	                           "\r\n" not included (HEADERS) */
	HTTP_BUF_RAW_HEADER,    /* header block as on the wire, up to and including
	                           the empty line that ends it (HEADERS) */
	HTTP_BUF_COOKIE,        /* Cookie value (req) / Set-Cookie value (resp) */
	HTTP_BUF_USER_AGENT,
	HTTP_BUF_HOST,          /* normalized hostname: lowercase, no port */
	HTTP_BUF_RAW_HOST,      /* Host header value as sent */
	HTTP_BUF_ACCEPT,
	HTTP_BUF_ACCEPT_ENC,
	HTTP_BUF_ACCEPT_LANG,
	HTTP_BUF_CONNECTION,
	HTTP_BUF_REFERER,
	HTTP_BUF_CONTENT_TYPE,  /* either side, by dir */
	HTTP_BUF_CONTENT_LEN,   /* either side, by dir */
	HTTP_BUF_HEADER_NAMES,  /* "\r\nName1\r\nName2\r\n\r\n" */
	HTTP_BUF_START,         /* line + "\r\n" + headers + "\r\n" as on the wire */
	HTTP_BUF_CLIENT_BODY,   /* request body, dechunked, up to request-body-limit */
	/* response side ("tc") */
	HTTP_BUF_STAT_CODE,     /* "200" */
	HTTP_BUF_STAT_MSG,      /* "OK" */
	HTTP_BUF_RESPONSE_LINE, /* "HTTP/1.1 200 OK", no CRLF */
	HTTP_BUF_SERVER_BODY,   /* file_data: dechunked, decompressed, up to
	                           response-body-limit */
	HTTP_BUF_LOCATION,
	HTTP_BUF_SERVER,
	/* multi-buffers: one entry per header line "Name: value" (http_tx_buffer_multi) */
	HTTP_BUF_REQUEST_HEADER,
	HTTP_BUF_RESPONSE_HEADER,
	HTTP_BUF_MAX
};

/* Direction of a buffer: APP_DIR_TOSERVER or APP_DIR_TOCLIENT. For the
 * buffers that exist on both sides (PROTOCOL, HEADER, RAW_HEADER, COOKIE,
 * CONTENT_TYPE, CONTENT_LEN, HEADER_NAMES, START) this is the request side;
 * use http_tx_buffer_dir() for the response side. */
int http_buffer_direction(int buffer_id);

/* Request-side buffer (or the only side). 0 with data and len set (len may be 0
 * for a present empty header), -1 if absent or not available yet. */
int http_tx_buffer(HttpTx *tx, int buffer_id, const uint8_t **data, uint32_t *len);
/* Same, choosing the side for two-sided buffers (ignored for the others). */
int http_tx_buffer_dir(HttpTx *tx, int buffer_id, int dir, const uint8_t **data,
		       uint32_t *len);
/* Entry idx (from 0) of a multi-buffer; -1 past the last one. */
int http_tx_buffer_multi(HttpTx *tx, int buffer_id, uint32_t idx, const uint8_t **data,
			 uint32_t *len);

/* A run of a side's stored body and where it came from: stream bytes at
 * stream_off (in the flow direction of that side) taken as they were, or
 * UINT64_MAX: not verbatim stream bytes (decompressed, or copied before
 * the app layer knew their offset). */
typedef struct HttpBodyPiece {
	uint32_t body_off, len;
	uint64_t stream_off;
} HttpBodyPiece;

#define HTTP_BODY_PIECES_MAX 64

/* A side's stored body as it is now (whatever the progress) and its
 * pieces, which cover it in order. Returns the number of pieces. */
uint32_t http_tx_body_raw(const HttpTx *tx, int dir, const uint8_t **data, uint32_t *len,
			  const HttpBodyPiece **pieces);

/* Whether the stored body of a side ended because of the body limit. */
int http_tx_body_truncated(const HttpTx *tx, int dir);

/* ---- app-layer events: "http.<name>" ---- */

/* Event id (>= 0) by name without the "http." prefix, or -1. */
int http_event_lookup(const char *name);
const char *http_event_name(int id);
/* Events raised on this transaction, in order, each at most once. */
uint32_t http_tx_event_count(const HttpTx *tx);
int http_tx_event_get(const HttpTx *tx, uint32_t idx);
int http_tx_has_event(const HttpTx *tx, int id);
/* The eve anomaly logger's count of tx's events (in their order) written. */
uint8_t *http_tx_events_logged(HttpTx *tx);

/* ---- what eve shows (output/http-log.c writes the "http" object) ---- */

/* A byte string of the transaction as libhtp holds it; p NULL: absent. */
typedef struct HttpBytes {
	const uint8_t *p;
	size_t len;
} HttpBytes;

/* The fields of eve's "http" object, as libhtp parsed them. Valid until
 * the next app_layer_handle_data() on the flow. */
typedef struct HttpTxView {
	HttpBytes hostname, uri, method, protocol;
	HttpBytes user_agent, referer;          /* request headers */
	HttpBytes content_type, location;       /* response headers */
	HttpBytes content_range;
	HttpBytes status_string;                /* the status line's, as it is */
	int port;              /* > 0 when written in the uri or Host header */
	int status;            /* > 0 when the status number parsed */
	int64_t response_len;
} HttpTxView;

/* Whether the tx has an http object yet (a request or a response line). */
int http_tx_loggable(const HttpTx *tx);
/* 0 with *v filled when http_tx_loggable(), else -1. */
int http_tx_view(const HttpTx *tx, HttpTxView *v);
/* The headers of side dir (APP_DIR_*) in the order libhtp keeps them
 * (repeated headers folded into one, as libhtp does): the count, then
 * entry i's name and value (-1 for one without both). */
size_t http_tx_header_count(const HttpTx *tx, int dir);
int http_tx_header_at(const HttpTx *tx, int dir, size_t i, HttpBytes *name, HttpBytes *value);

/* ---- files (app-layer/files.h) ---- */

/* The files of a side (dir APP_DIR_TOCLIENT: downloads, named by
 * Content-Disposition's filename= or the uri path; TOSERVER: POST
 * multipart parts with a filename, else a POST or PUT body, named by the
 * uri path). Built once the side is over, or now with final (the flow
 * ended: files still open are TRUNCATED). Never NULL for a tx. */
struct FileContainer;
struct FileContainer *http_tx_files(HttpTx *tx, int dir, int final);
/* filestore: every file of tx on the sides in dirs (bit 1 << APP_DIR_*),
 * those already built marked with sid; flow_scope: every later
 * transaction's files on those sides too. tx may be NULL (flow only). */
void http_tx_files_store(const Flow *f, HttpTx *tx, unsigned dirs, int flow_scope, uint32_t sid);

#endif
