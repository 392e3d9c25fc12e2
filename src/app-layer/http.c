/* HTTP/1 on libhtp 0.5: the parser state of a flow, our per-transaction data
 * (bodies, raw headers, events, built inspection buffers), and the views of a
 * transaction that detection and eve need.
 *
 * libhtp numbers transactions by their index in conn->transactions and
 * leaves a NULL slot when one is destroyed, so tx ids are libhtp indexes.
 * Its own per-request cost is O(1) (0.5.42: htp_conn_remove_tx replaces
 * the slot by tx->index), but the slot array never shrinks: one pointer a
 * request the connection ever carried, ~1 MiB at 80,000 (capacity doubles),
 * outside http.memuse. The gc keeps a low-water mark per parser so that
 * no walk visits the dead slots. */
#include "config.h"
#include "app-layer/app-layer-int.h"
#include "app-layer/http.h"
#include "app-layer/http-mem.h"
#include "app-layer/http-multipart.h"
#include "app-layer/http-range.h"
#include "app-layer/http-upgrade.h"
#include "app-layer/http-chunk.h"
#include "app-layer/files.h"
#include "app-layer/frames.h"
#include "stream/stream.h"
#include "util/strnum.h"

#include <htp/htp.h>
#include <zlib.h>
#ifdef HAVE_BROTLI
#include <brotli/decode.h>
#endif
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define HTTP_TX_MAX_EVENTS 32
/* libhtp keeps every message of a connection: stop looking past this many,
 * as a flood of warnings is itself the anomaly (http.too_many_warnings). */
#define HTTP_MAX_MESSAGES 512
/* what a brotli decoder (Content-Encoding br) is charged in http.memuse:
 * its window, roughly */
#define HTTP_BROTLI_CHARGE (64u * 1024)

/* ---------------- events ---------------- */

enum http_event {
	EV_UNKNOWN_ERROR = 0,
	EV_GZIP_DECOMPRESSION_FAILED,
	EV_REQUEST_FIELD_MISSING_COLON,
	EV_RESPONSE_FIELD_MISSING_COLON,
	EV_INVALID_REQUEST_CHUNK_LEN,
	EV_INVALID_RESPONSE_CHUNK_LEN,
	EV_INVALID_TE_REQUEST,
	EV_INVALID_TE_RESPONSE,
	EV_INVALID_CL_REQUEST,
	EV_INVALID_CL_RESPONSE,
	EV_DUP_CL_REQUEST,
	EV_DUP_CL_RESPONSE,
	EV_100_CONTINUE_ALREADY_SEEN,
	EV_UNABLE_TO_MATCH_RESPONSE,
	EV_INVALID_SERVER_PORT_IN_REQUEST,
	EV_INVALID_AUTHORITY_PORT,
	EV_REQUEST_HEADER_INVALID,
	EV_RESPONSE_HEADER_INVALID,
	EV_MISSING_HOST_HEADER,
	EV_HOST_HEADER_AMBIGUOUS,
	EV_INVALID_REQUEST_FIELD_FOLDING,
	EV_INVALID_RESPONSE_FIELD_FOLDING,
	EV_REQUEST_FIELD_TOO_LONG,
	EV_RESPONSE_FIELD_TOO_LONG,
	EV_FILE_NAME_TOO_LONG,
	EV_REQUEST_LINE_INVALID,
	EV_REQUEST_BODY_UNEXPECTED,
	EV_REQUEST_SERVER_PORT_TCP_PORT_MISMATCH,
	EV_REQUEST_URI_HOST_INVALID,
	EV_REQUEST_HEADER_HOST_INVALID,
	EV_REQUEST_AUTH_UNRECOGNIZED,
	EV_REQUEST_HEADER_REPETITION,
	EV_RESPONSE_HEADER_REPETITION,
	EV_DOUBLE_ENCODED_URI,
	EV_URI_DELIM_NON_COMPLIANT,
	EV_METHOD_DELIM_NON_COMPLIANT,
	EV_REQUEST_LINE_LEADING_WHITESPACE,
	EV_TOO_MANY_ENCODING_LAYERS,
	EV_ABNORMAL_CE_HEADER,
	EV_RESPONSE_MULTIPART_BYTERANGES,
	EV_RESPONSE_ABNORMAL_TRANSFER_ENCODING,
	EV_RESPONSE_CHUNKED_OLD_PROTO,
	EV_RESPONSE_INVALID_PROTOCOL,
	EV_RESPONSE_INVALID_STATUS,
	EV_REQUEST_LINE_INCOMPLETE,
	EV_LZMA_MEMLIMIT_REACHED,
	EV_COMPRESSION_BOMB,
	EV_RANGE_INVALID,
	EV_REQUEST_CHUNK_EXTENSION,
	EV_REQUEST_LINE_MISSING_PROTOCOL,
	EV_REQUEST_TOO_MANY_HEADERS,
	EV_RESPONSE_TOO_MANY_HEADERS,
	EV_MULTIPART_GENERIC_ERROR,
	EV_MULTIPART_NO_FILEDATA,
	EV_MULTIPART_INVALID_HEADER,
	EV_TOO_MANY_WARNINGS,
	EV_FAILED_PROTOCOL_CHANGE,
	EV_MAX
};

/* Suricata's app-layer-event names for http (app-layer-event:http.NAME). */
static const char *const event_names[EV_MAX] = {
	[EV_UNKNOWN_ERROR] = "unknown_error",
	[EV_GZIP_DECOMPRESSION_FAILED] = "gzip_decompression_failed",
	[EV_REQUEST_FIELD_MISSING_COLON] = "request_field_missing_colon",
	[EV_RESPONSE_FIELD_MISSING_COLON] = "response_field_missing_colon",
	[EV_INVALID_REQUEST_CHUNK_LEN] = "invalid_request_chunk_len",
	[EV_INVALID_RESPONSE_CHUNK_LEN] = "invalid_response_chunk_len",
	[EV_INVALID_TE_REQUEST] = "invalid_transfer_encoding_value_in_request",
	[EV_INVALID_TE_RESPONSE] = "invalid_transfer_encoding_value_in_response",
	[EV_INVALID_CL_REQUEST] = "invalid_content_length_field_in_request",
	[EV_INVALID_CL_RESPONSE] = "invalid_content_length_field_in_response",
	[EV_DUP_CL_REQUEST] = "duplicate_content_length_field_in_request",
	[EV_DUP_CL_RESPONSE] = "duplicate_content_length_field_in_response",
	[EV_100_CONTINUE_ALREADY_SEEN] = "100_continue_already_seen",
	[EV_UNABLE_TO_MATCH_RESPONSE] = "unable_to_match_response_to_request",
	[EV_INVALID_SERVER_PORT_IN_REQUEST] = "invalid_server_port_in_request",
	[EV_INVALID_AUTHORITY_PORT] = "invalid_authority_port",
	[EV_REQUEST_HEADER_INVALID] = "request_header_invalid",
	[EV_RESPONSE_HEADER_INVALID] = "response_header_invalid",
	[EV_MISSING_HOST_HEADER] = "missing_host_header",
	[EV_HOST_HEADER_AMBIGUOUS] = "host_header_ambiguous",
	[EV_INVALID_REQUEST_FIELD_FOLDING] = "invalid_request_field_folding",
	[EV_INVALID_RESPONSE_FIELD_FOLDING] = "invalid_response_field_folding",
	[EV_REQUEST_FIELD_TOO_LONG] = "request_field_too_long",
	[EV_RESPONSE_FIELD_TOO_LONG] = "response_field_too_long",
	[EV_FILE_NAME_TOO_LONG] = "file_name_too_long",
	[EV_REQUEST_LINE_INVALID] = "request_line_invalid",
	[EV_REQUEST_BODY_UNEXPECTED] = "request_body_unexpected",
	[EV_REQUEST_SERVER_PORT_TCP_PORT_MISMATCH] = "request_server_port_tcp_port_mismatch",
	[EV_REQUEST_URI_HOST_INVALID] = "request_uri_host_invalid",
	[EV_REQUEST_HEADER_HOST_INVALID] = "request_header_host_invalid",
	[EV_REQUEST_AUTH_UNRECOGNIZED] = "request_auth_unrecognized",
	[EV_REQUEST_HEADER_REPETITION] = "request_header_repetition",
	[EV_RESPONSE_HEADER_REPETITION] = "response_header_repetition",
	[EV_DOUBLE_ENCODED_URI] = "double_encoded_uri",
	[EV_URI_DELIM_NON_COMPLIANT] = "uri_delim_non_compliant",
	[EV_METHOD_DELIM_NON_COMPLIANT] = "method_delim_non_compliant",
	[EV_REQUEST_LINE_LEADING_WHITESPACE] = "request_line_leading_whitespace",
	[EV_TOO_MANY_ENCODING_LAYERS] = "too_many_encoding_layers",
	[EV_ABNORMAL_CE_HEADER] = "abnormal_ce_header",
	[EV_RESPONSE_MULTIPART_BYTERANGES] = "response_multipart_byteranges",
	[EV_RESPONSE_ABNORMAL_TRANSFER_ENCODING] = "response_abnormal_transfer_encoding",
	[EV_RESPONSE_CHUNKED_OLD_PROTO] = "response_chunked_old_proto",
	[EV_RESPONSE_INVALID_PROTOCOL] = "response_invalid_protocol",
	[EV_RESPONSE_INVALID_STATUS] = "response_invalid_status",
	[EV_REQUEST_LINE_INCOMPLETE] = "request_line_incomplete",
	[EV_LZMA_MEMLIMIT_REACHED] = "lzma_memlimit_reached",
	[EV_COMPRESSION_BOMB] = "compression_bomb",
	[EV_RANGE_INVALID] = "range_invalid",
	[EV_REQUEST_CHUNK_EXTENSION] = "request_chunk_extension",
	[EV_REQUEST_LINE_MISSING_PROTOCOL] = "request_line_missing_protocol",
	[EV_REQUEST_TOO_MANY_HEADERS] = "request_too_many_headers",
	[EV_RESPONSE_TOO_MANY_HEADERS] = "response_too_many_headers",
	[EV_MULTIPART_GENERIC_ERROR] = "multipart_generic_error",
	[EV_MULTIPART_NO_FILEDATA] = "multipart_no_filedata",
	[EV_MULTIPART_INVALID_HEADER] = "multipart_invalid_header",
	[EV_TOO_MANY_WARNINGS] = "too_many_warnings",
	[EV_FAILED_PROTOCOL_CHANGE] = "failed_protocol_change",
};

/* libhtp reports anomalies as log messages; their text is its interface.
 * Longer prefixes come before the shorter ones they extend. */
static const struct {
	const char *prefix;
	uint8_t ev;
} htp_messages[] = {
	{ "GZip decompressor:", EV_GZIP_DECOMPRESSION_FAILED },
	{ "Request field invalid: colon missing", EV_REQUEST_FIELD_MISSING_COLON },
	{ "Response field invalid: missing colon", EV_RESPONSE_FIELD_MISSING_COLON },
	{ "Response field invalid: colon missing", EV_RESPONSE_FIELD_MISSING_COLON },
	{ "Request chunk encoding: Invalid chunk length", EV_INVALID_REQUEST_CHUNK_LEN },
	{ "Response chunk encoding: Invalid chunk length", EV_INVALID_RESPONSE_CHUNK_LEN },
	{ "Invalid T-E value in response", EV_INVALID_TE_RESPONSE },
	{ "Invalid C-L field in response", EV_INVALID_CL_RESPONSE },
	{ "Already seen 100-Continue", EV_100_CONTINUE_ALREADY_SEEN },
	{ "Unable to match response to request", EV_UNABLE_TO_MATCH_RESPONSE },
	{ "Invalid server port information in request", EV_INVALID_SERVER_PORT_IN_REQUEST },
	{ "Invalid authority port", EV_INVALID_AUTHORITY_PORT },
	{ "Request buffer over", EV_REQUEST_FIELD_TOO_LONG },
	{ "Response buffer over", EV_RESPONSE_FIELD_TOO_LONG },
	{ "C-T multipart/byteranges in responses not supported", EV_RESPONSE_MULTIPART_BYTERANGES },
	{ "Compression bomb:", EV_COMPRESSION_BOMB },
	{ "Request field invalid", EV_REQUEST_HEADER_INVALID },
	{ "Response field invalid", EV_RESPONSE_HEADER_INVALID },
	{ "Request header name is not a token", EV_REQUEST_HEADER_INVALID },
	{ "Response header name is not a token", EV_RESPONSE_HEADER_INVALID },
	{ "Invalid request field folding", EV_INVALID_REQUEST_FIELD_FOLDING },
	{ "Invalid response field folding", EV_INVALID_RESPONSE_FIELD_FOLDING },
	{ "Request server port=", EV_REQUEST_SERVER_PORT_TCP_PORT_MISMATCH },
	{ "Request line: URI contains non-compliant delimiter", EV_URI_DELIM_NON_COMPLIANT },
	{ "Request line: non-compliant delimiter between Method and URI",
	  EV_METHOD_DELIM_NON_COMPLIANT },
	{ "Request line: leading whitespace", EV_REQUEST_LINE_LEADING_WHITESPACE },
	{ "Too many response content encoding layers", EV_TOO_MANY_ENCODING_LAYERS },
	{ "C-E gzip has abnormal value", EV_ABNORMAL_CE_HEADER },
	{ "C-E deflate has abnormal value", EV_ABNORMAL_CE_HEADER },
	{ "C-E unknown setting", EV_ABNORMAL_CE_HEADER },
	{ "Excessive request header repetitions", EV_REQUEST_HEADER_REPETITION },
	{ "Excessive response header repetitions", EV_RESPONSE_HEADER_REPETITION },
	{ "Transfer-encoding has abnormal chunked value", EV_RESPONSE_ABNORMAL_TRANSFER_ENCODING },
	{ "Chunked transfer-encoding on HTTP/0.9 or HTTP/1.0", EV_RESPONSE_CHUNKED_OLD_PROTO },
	{ "Invalid response line: invalid protocol", EV_RESPONSE_INVALID_PROTOCOL },
	{ "Invalid response line: invalid response status", EV_RESPONSE_INVALID_STATUS },
	{ "Request line incomplete", EV_REQUEST_LINE_INCOMPLETE },
	{ "Unexpected request body", EV_REQUEST_BODY_UNEXPECTED },
	{ "LZMA decompressor: memory limit reached", EV_LZMA_MEMLIMIT_REACHED },
	{ "Ambiguous request C-L value", EV_DUP_CL_REQUEST },
	{ "Ambiguous response C-L value", EV_DUP_CL_RESPONSE },
	{ "Too many request headers", EV_REQUEST_TOO_MANY_HEADERS },
	{ "Too many response headers", EV_RESPONSE_TOO_MANY_HEADERS },
};

int http_event_lookup(const char *name)
{
	if (!name)
		return -1;
	if (strncmp(name, "http.", 5) == 0)
		name += 5;
	for (int i = 0; i < EV_MAX; i++)
		if (strcmp(event_names[i], name) == 0)
			return i;
	return -1;
}

const char *http_event_name(int id)
{
	return (id >= 0 && id < EV_MAX) ? event_names[id] : NULL;
}

/* ---------------- state ---------------- */

struct HttpCfg {
	htp_cfg_t *htp;
	int refs;                   /* the thread + every flow state using it */
	uint64_t body_limit[2];     /* request, response; 0 = unlimited */
	uint32_t min_inspect[2];    /* request, response body minimal inspect size */
	int uri_include_all;
	int double_decode_path, double_decode_query;
	uint32_t max_tx;            /* app-layer.protocols.http.max-tx; 0 = unlimited */
};

/* Request bodies are decoded here, not by libhtp: a body that says gzip but
 * is not (clear text) must reach detection as sent, as Suricata 8 does, and
 * libhtp 0.5 turns it into garbage. */
enum req_ce {
	CE_UNKNOWN = 0,     /* headers not looked at yet */
	CE_NONE,            /* identity, or not a compressed stream: as sent */
	CE_INFLATE,         /* gzip or zlib stream being inflated */
	CE_DONE,            /* stream ended or broke: nothing more to store */
};

typedef struct Body {
	uint8_t *buf;
	uint32_t len, cap;
	uint64_t total;             /* all body bytes seen (file size) */
	uint8_t truncated;          /* stopped storing at the body limit */
	/* where the stored bytes came from: runs of body bytes that are
	 * verbatim stream bytes (identity or dechunked, not decompressed) */
	HttpBodyPiece *pieces;
	uint32_t npieces, cappieces;
} Body;

typedef struct Bytes {
	uint8_t *p;
	uint32_t len, cap;
} Bytes;

/* Buffers we build from libhtp's fields, once the side's headers are done. */
enum derived {
	D_URI = 0, D_HOST, D_HEADER, D_NAMES, D_START, D_MULTI, D_MAX
};

typedef struct Derived {
	Bytes b;
	uint32_t *off;              /* D_MULTI: entry i is off[2i], len off[2i+1] */
	uint32_t off_bytes;         /* counted in http.memuse */
	uint32_t n;
	uint8_t built;
} Derived;

/* The headers detection reads by name (http.user_agent, http.host, ...),
 * found by one walk of a side's table: a libhtp lookup walks it with a
 * caseless compare per entry on every call, ~19 calls a transaction with
 * ET Open. HN_COOKIE is Cookie on requests, Set-Cookie on responses. */
enum hdr_name {
	HN_COOKIE, HN_USER_AGENT, HN_HOST, HN_ACCEPT, HN_ACCEPT_ENC, HN_ACCEPT_LANG,
	HN_CONNECTION, HN_REFERER, HN_CONTENT_TYPE, HN_CONTENT_LEN, HN_LOCATION, HN_SERVER,
	HN_MAX
};

typedef struct HdrIndex {
	size_t entries;             /* the table's size when built (trailers add) */
	uint8_t built;
	htp_header_t *h[HN_MAX];    /* the first header of each name, or NULL */
} HdrIndex;

struct HttpTx {
	htp_tx_t *htx;
	uint64_t id;
	unsigned flags;
	void *detect;
	uint32_t detect_bytes;      /* http_tx_detect_alloc's size, in http.memuse */
	Body body[2];
	Bytes raw_hdr[2];
	Derived d[2][D_MAX];
	HdrIndex hdr[2];
	uint8_t nev;
	uint8_t ev[HTTP_TX_MAX_EVENTS];
	uint8_t nev_logged;         /* eve anomaly: ev[0..nev_logged) written */
	uint8_t req_too_many;
	uint8_t superseded;         /* its parser was replaced (tunnel): done */
	uint8_t req_ce;             /* enum req_ce: request body decoding */
	z_stream *req_z;
	uint8_t res_br;             /* enum req_ce: response body "br" decoding */
#ifdef HAVE_BROTLI
	BrotliDecoderState *br;
#endif
	uint64_t log_id;            /* eve tx_id: index in its own parser */
	ThreadCounters *mem_tc;     /* whose http.memuse holds this tx's charge */
	/* files of each side (request uploads, response downloads), built
	 * from the stored body once the side is over (http_tx_files) */
	FileContainer files[2];
	uint64_t files_mem;         /* their charge in http.memuse */
	uint8_t files_built[2];
	/* a side whose body is one file (responses, POST without multipart,
	 * PUT) feeds it as the body comes (files_feed), past the body limit
	 * when file-store may keep it */
	uint8_t file_mode[2];       /* enum file_mode */
	uint8_t file_cut[2];        /* bytes were left out at the file's limit */
	uint8_t mp_gap;             /* multipart: the part the body ends in had a gap */
	File *file_open[2];         /* the file being fed (a whole body, or a part) */
	uint64_t file_fed[2];       /* body bytes given to the files, up to the limit */
	MultipartStream *mp;        /* POST multipart/form-data: its parts */
	uint8_t store_all[2];       /* filestore tx/flow scope: every file of the side */
	uint64_t gap[2];            /* bytes lost to a gap while the side was open */
	/* a 206 response's range of a file being reassembled (http-range.h):
	 * the next body byte's offset in that file */
	HttpRange *range;
	uint64_t range_off;
};

/* A flow has one libhtp parser, plus one more for each CONNECT tunnel whose
 * content is HTTP again: Suricata starts a new HTTP state there, so eve's
 * tx_id restarts at 0 while our ids go on (detection and logging walk them
 * in order). */
#define HTTP_MAX_PARSERS 4

struct HttpState;

typedef struct HttpParser {
	struct HttpState *hs;
	htp_connp_t *connp;
	htp_conn_t *conn;
	uint64_t base;              /* our id of this parser's first tx */
	/* gc's low-water mark: every slot of conn->transactions below it is
	 * destroyed (libhtp keeps the NULL slot: ids are indexes). Walks start
	 * here, so that they cost the live transactions, not every request a
	 * keep-alive connection ever carried. */
	size_t low;
} HttpParser;

typedef struct HttpState {
	htp_connp_t *connp;         /* the current parser (pars[npars - 1]) */
	htp_conn_t *conn;
	HttpParser pars[HTTP_MAX_PARSERS];
	uint8_t npars;
	uint8_t tunnel;             /* a CONNECT succeeded: the rest is the tunnel's */
	uint8_t connect_ok;         /* set by the response headers of that CONNECT */
	uint8_t req_after_09;       /* an HTTP/0.9 request ended the request side */
	size_t connect_off;         /* where its header block ended in the chunk */
	uint16_t upgrade_to;        /* a 101 to an Upgrade of http-upgrade.c: ALPROTO_* */
	Bytes upgrade_req;          /* its request, for the new protocol (http_upgrade_request) */
	Bytes upgrade_res;          /* the 101's header lines (http_upgrade_response) */
	Bytes tunnel_data[2];       /* tunnel bytes not yet claimed by app-layer.c */
	struct HttpCfg *cfg;
	AppLayerThread *at;         /* set during a parse call, for counters */
	Flow *f;
	size_t msg_offset;
	uint8_t dead[2];            /* libhtp gave up on this direction */
	uint8_t closed[2];
	uint8_t warned_too_many;
	Bytes pending[2];           /* unconsumed after HTP_STREAM_DATA_OTHER */
	/* the bytes being fed to libhtp, and their stream offset (UINT64_MAX:
	 * unknown), so that a body piece pointing into them is known verbatim */
	const uint8_t *in_ptr[2];
	uint32_t in_len[2];
	uint64_t in_off[2];
	/* the chunk libhtp is parsing now (feed), for hooks that look past
	 * the line libhtp has just read */
	const uint8_t *feed_ptr[2];
	size_t feed_len[2];
	/* the chunked request body being read for its extensions, and its
	 * tx (checked against libhtp's current one before each use) */
	HttpChunkScan chunk;
	HttpTx *chunk_tx;
	ThreadCounters *mem_tc;     /* whose http.memuse holds the state's charge */
	uint8_t store_flow[2];      /* filestore flow scope: files opened from now on */
	/* frames (frames.h), kept only while they are on: the stream offset
	 * just past what http_parse was handed, that of the bytes libhtp is
	 * being fed now (in_feed), and the request/response frame still open */
	uint64_t frame_edge[2];
	uint64_t feed_off[2];
	uint8_t in_feed[2];
	int64_t frame_id[2];
	uint64_t frame_at[2];
	/* the frame completed last: libhtp 0.5 completes a message only once
	 * it has read the next line, and starts the next one with that line
	 * already taken: the next start line corrects where both lie */
	int64_t done_id[2];
	uint64_t done_at[2], done_end[2];
} HttpState;

#define HTTP_MEM_STATE (sizeof(HttpState) + HTTP_MEM_LIBHTP_CONN)
#define HTTP_MEM_TX    (sizeof(HttpTx) + HTTP_MEM_LIBHTP_TX)

void http_set_detect_state_free(void (*fn)(void *state))
{
	app_layer_set_detect_state_free(fn);
}

static int bytes_append(Bytes *b, const void *p, size_t n)
{
	if (n == 0)
		return 0;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		uint8_t *nb;

		while (cap < b->len + n)
			cap *= 2;
		if (cap > UINT32_MAX)
			return -1;
		nb = realloc(b->p, cap);
		if (!nb)
			return -1;
		http_mem_grow(cap - b->cap);
		b->p = nb;
		b->cap = (uint32_t)cap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += (uint32_t)n;
	return 0;
}

static int bytes_append_bstr(Bytes *b, const bstr *s)
{
	return s ? bytes_append(b, bstr_ptr(s), bstr_len(s)) : 0;
}

static void bytes_free(Bytes *b)
{
	http_mem_shrink(b->cap);
	free(b->p);
	memset(b, 0, sizeof(*b));
}

static HttpParser *parser_of_tx(const htp_tx_t *htx)
{
	return htp_connp_get_user_data(htx->connp);
}

static HttpState *state_of_tx(const htp_tx_t *htx)
{
	HttpParser *hp = parser_of_tx(htx);

	return hp ? hp->hs : NULL;
}

static void tx_counted(HttpState *hs, counter_id id)
{
	if (hs->at && hs->at->tc && app_layer_counters_registered)
		counter_inc(hs->at->tc, id);
}

/* Our data for a libhtp tx, created on first sight (a response without a
 * request gets its tx from libhtp without a request_start). */
static HttpTx *tx_ud(htp_tx_t *htx)
{
	HttpTx *tx = htp_tx_get_user_data(htx);
	HttpParser *hp;
	HttpState *hs;

	if (tx)
		return tx;
	hp = parser_of_tx(htx);
	hs = hp ? hp->hs : NULL;
	tx = calloc(1, sizeof(*tx));
	if (!tx) {
		if (hs)
			tx_counted(hs, app_layer_counters.err_http_alloc);
		return NULL;
	}
	tx->mem_tc = hs && hs->at ? hs->at->tc : NULL;
	/* past the memcap this connection is parsed no further */
	if (!http_mem_charge(tx->mem_tc, HTTP_MEM_TX) && hs) {
		hs->dead[0] = hs->dead[1] = 1;
		app_layer_error_exception(hs->f, tx->mem_tc);
	}
	tx->htx = htx;
	for (int d = 0; d < 2; d++)
		tx->store_all[d] = hs ? hs->store_flow[d] : 0;
	tx->log_id = htx->index;
	tx->id = (hp ? hp->base : 0) + htx->index;
	htp_tx_set_user_data(htx, tx);
	if (hs)
		tx_counted(hs, app_layer_counters.tx_http);
	return tx;
}

static void tx_free(HttpTx *tx)
{
	if (!tx)
		return;
	http_mem_release(tx->mem_tc, HTTP_MEM_TX);
	if (tx->req_z) {
		inflateEnd(tx->req_z);
		free(tx->req_z);
	}
#ifdef HAVE_BROTLI
	if (tx->br) {
		BrotliDecoderDestroyInstance(tx->br);
		http_mem_shrink(HTTP_BROTLI_CHARGE);
	}
#endif
	for (int d = 0; d < 2; d++) {
		http_mem_shrink(tx->body[d].cap +
				(uint64_t)tx->body[d].cappieces * sizeof(HttpBodyPiece));
		free(tx->body[d].buf);
		free(tx->body[d].pieces);
		bytes_free(&tx->raw_hdr[d]);
		for (int i = 0; i < D_MAX; i++) {
			bytes_free(&tx->d[d][i].b);
			http_mem_shrink(tx->d[d][i].off_bytes);
			free(tx->d[d][i].off);
		}
	}
	http_mem_shrink(tx->detect_bytes + tx->files_mem + (tx->mp ? sizeof(*tx->mp) : 0));
	free(tx->mp);
	for (int d = 0; d < 2; d++)
		files_container_free(&tx->files[d]);
	http_range_release(tx->range);
	if (tx->detect)
		app_layer_detect_state_free(tx->detect);
	free(tx);
}

static void tx_event(HttpTx *tx, int ev)
{
	if (!tx || ev < 0 || ev >= EV_MAX)
		return;
	for (unsigned i = 0; i < tx->nev; i++)
		if (tx->ev[i] == ev)
			return;
	if (tx->nev < HTTP_TX_MAX_EVENTS)
		tx->ev[tx->nev++] = (uint8_t)ev;
}

/* ---------------- libhtp callbacks ---------------- */

/* Decodes %HH in place; returns how many were decoded. */
static size_t percent_decode(bstr *b)
{
	uint8_t *p = bstr_ptr(b);
	size_t n = bstr_len(b), o = 0, hits = 0;

	for (size_t i = 0; i < n; i++) {
		int hi, lo;

		if (p[i] == '%' && i + 2 < n &&
		    (hi = hex_digit(p[i + 1])) >= 0 && (lo = hex_digit(p[i + 2])) >= 0) {
			p[o++] = (uint8_t)(hi * 16 + lo);
			i += 2;
			hits++;
		} else {
			p[o++] = p[i];
		}
	}
	bstr_adjust_len(b, o);
	return hits;
}

/* Longest run of whitespace after an HTTP/0.9 request line that still
 * leaves it HTTP/0.9: Suricata 8 takes more than that, or anything not
 * whitespace, as the headers of a request line missing its protocol. */
#define HTTP09_MAX_JUNK 16

/* Whether the chunk being parsed goes on, past the request line libhtp
 * has just read, with something a header block could be. */
static int followed_by_more(const HttpState *hs, htp_tx_t *htx)
{
	const uint8_t *p = hs->feed_ptr[APP_DIR_TOSERVER];
	size_t len = hs->feed_len[APP_DIR_TOSERVER];
	size_t off;

	if (!p || htx->connp != hs->connp)
		return 0;
	off = htp_connp_req_data_consumed(hs->connp);
	if (off >= len)
		return 0;
	if (len - off > HTTP09_MAX_JUNK)
		return 1;
	for (; off < len; off++)
		if (!isspace(p[off]))
			return 1;
	return 0;
}

/* double-decode-path / double-decode-query: a second round of percent
 * decoding on the normalized uri (after the query's first one), flagged as http.double_encoded_uri when it
 * changes anything (Suricata's evasion check). */
static void frame_line(htp_tx_t *htx, int dir, const bstr *line);

static int cb_request_line(htp_tx_t *htx)
{
	HttpState *hs = state_of_tx(htx);
	htp_uri_t *u = htx->parsed_uri;
	size_t hits = 0;

	if (!hs || !u)
		return HTP_OK;
	if (hs->cfg->double_decode_path && u->path)
		hits += percent_decode(u->path);
	/* Suricata 8 (libhtp-rs) percent-decodes the query of the normalized
	 * uri once; double-decode-query is the second round */
	if (u->query)
		percent_decode(u->query);
	if (hs->cfg->double_decode_query && u->query)
		hits += percent_decode(u->query);
	if (hits)
		tx_event(tx_ud(htx), EV_DOUBLE_ENCODED_URI);
	frame_line(htx, APP_DIR_TOSERVER, htx->request_line);
	if (htx->is_protocol_0_9 && followed_by_more(hs, htx)) {
		/* libhtp 0.5.42 ends the request at a line without a protocol;
		 * Suricata 8's parser takes it as a request line missing its
		 * protocol when more follows, and parses the headers */
		htx->is_protocol_0_9 = 0;
		tx_event(tx_ud(htx), EV_REQUEST_LINE_MISSING_PROTOCOL);
	}
	return HTP_OK;
}

/* The stream offset of the next byte libhtp will read in dir. Outside a
 * feed (the connection's close) libhtp has taken every byte it was handed. */
static uint64_t frame_pos(const HttpState *hs, htp_connp_t *connp, int dir)
{
	if (!hs->in_feed[dir])
		return hs->frame_edge[dir];
	return hs->feed_off[dir] + (dir == APP_DIR_TOSERVER ? htp_connp_req_data_consumed(connp) :
							      htp_connp_res_data_consumed(connp));
}

/* A request or response starts where libhtp reads its first byte, as
 * Suricata's frame does; its length is known when it completes. */
static void frame_open(htp_tx_t *htx, int dir)
{
	HttpState *hs = state_of_tx(htx);
	HttpTx *tx = htp_tx_get_user_data(htx);
	uint64_t at;
	int64_t id;

	if (!hs || !app_frames_on(hs->f))
		return;
	at = frame_pos(hs, htx->connp, dir);
	id = app_frame_new(hs->f, dir, at, -1,
			   dir == APP_DIR_TOSERVER ? HTTP_FRAME_REQUEST : HTTP_FRAME_RESPONSE);
	hs->frame_id[dir] = id > 0 ? id : 0;
	hs->frame_at[dir] = at;
	if (id > 0 && tx)
		app_frame_set_tx(hs->f, dir, id, tx->id);
}

/* At a start line (line: libhtp's copy, without its end of line): where
 * the line began, when that is before where the frame was opened. */
static void frame_line(htp_tx_t *htx, int dir, const bstr *line)
{
	HttpState *hs = state_of_tx(htx);
	const uint8_t *p;
	uint64_t pos, eol = 2, need;
	size_t c;

	if (!hs || !hs->frame_id[dir] || !line || !hs->in_feed[dir] || !app_frames_on(hs->f))
		return;
	c = dir == APP_DIR_TOSERVER ? htp_connp_req_data_consumed(htx->connp) :
				      htp_connp_res_data_consumed(htx->connp);
	p = hs->feed_ptr[dir];
	if (p && c >= 1 && p[c - 1] == '\n')
		eol = (c >= 2 && p[c - 2] == '\r') ? 2 : 1;
	pos = hs->feed_off[dir] + c;
	need = bstr_len(line) + eol;
	if (pos < need || pos - need >= hs->frame_at[dir])
		return;
	pos -= need;
	app_frame_set_start(hs->f, dir, hs->frame_id[dir], pos);
	hs->frame_at[dir] = pos;
	if (hs->done_id[dir] && pos >= hs->done_at[dir] && pos < hs->done_end[dir])
		app_frame_set_len(hs->f, dir, hs->done_id[dir], (int64_t)(pos - hs->done_at[dir]));
}

static void frame_close(htp_tx_t *htx, int dir)
{
	HttpState *hs = state_of_tx(htx);
	uint64_t end;

	if (!hs || !hs->frame_id[dir] || !app_frames_on(hs->f))
		return;
	end = frame_pos(hs, htx->connp, dir);
	if (end < hs->frame_at[dir])
		end = hs->frame_at[dir];
	app_frame_set_len(hs->f, dir, hs->frame_id[dir], (int64_t)(end - hs->frame_at[dir]));
	hs->done_id[dir] = hs->frame_id[dir];
	hs->done_at[dir] = hs->frame_at[dir];
	hs->done_end[dir] = end;
	hs->frame_id[dir] = 0;
}

static int cb_request_start(htp_tx_t *htx)
{
	if (!tx_ud(htx))
		return HTP_ERROR;
	frame_open(htx, APP_DIR_TOSERVER);
	return HTP_OK;
}

/* A message complete: its direction's raw stream is inspected on that
 * direction's next packet whatever the chunk size, as Suricata's request
 * and response complete callbacks trigger raw reassembly, so that the
 * stream rules see the message with its transaction (suricata-verify
 * eve-payload-07-http-gap: the bytes after a gap, up to the ACKed edge). */
static void trigger_raw(const htp_tx_t *htx, int dir)
{
	HttpState *hs = state_of_tx(htx);

	if (hs && hs->f)
		app_layer_trigger_raw(hs->f, dir);
}

/* HTTP/0.9 has no persistent connections: whatever the client sends after
 * such a request is not HTTP, and libhtp 0.5 would turn it into a parser
 * error; Suricata 8 ignores it. */
static int cb_request_complete(htp_tx_t *htx)
{
	HttpParser *hp = parser_of_tx(htx);

	if (htx->is_protocol_0_9 && hp && hp->hs && hp->connp == hp->hs->connp)
		hp->hs->req_after_09 = 1;
	frame_close(htx, APP_DIR_TOSERVER);
	trigger_raw(htx, APP_DIR_TOSERVER);
	return HTP_OK;
}

static int cb_response_start(htp_tx_t *htx)
{
	if (!tx_ud(htx))
		return HTP_ERROR;
	frame_open(htx, APP_DIR_TOCLIENT);
	return HTP_OK;
}

static int cb_response_complete(htp_tx_t *htx)
{
	frame_close(htx, APP_DIR_TOCLIENT);
	trigger_raw(htx, APP_DIR_TOCLIENT);
	return HTP_OK;
}

/* libhtp 0.5 fails the connection at a second "100 Continue" of one
 * transaction; Suricata 8's parser raises 100_continue_already_seen and
 * takes the next status line as usual (suricata-verify http-multiple100):
 * forget the first one before libhtp looks. */
static int cb_response_line(htp_tx_t *htx)
{
	HttpTx *tx = tx_ud(htx);

	if (!tx)
		return HTP_ERROR;
	frame_line(htx, APP_DIR_TOCLIENT, htx->response_line);
	if (htx->response_status_number == 100 && htx->seen_100continue) {
		tx_event(tx, EV_100_CONTINUE_ALREADY_SEEN);
		htx->seen_100continue = 0;
	}
	return HTP_OK;
}

static int append_header_data(htp_tx_data_t *d, int dir)
{
	HttpTx *tx = tx_ud(d->tx);

	if (!tx)
		return HTP_ERROR;
	if (d->data && bytes_append(&tx->raw_hdr[dir], d->data, d->len) < 0)
		return HTP_ERROR;
	return HTP_OK;
}

static int cb_request_header_data(htp_tx_data_t *d)
{
	return append_header_data(d, APP_DIR_TOSERVER);
}

static int cb_response_header_data(htp_tx_data_t *d)
{
	return append_header_data(d, APP_DIR_TOCLIENT);
}

/* libhtp 0.5 knows Basic and Digest only; Suricata 8 also Bearer
 * (http-auth-bearer). */
static int auth_is_bearer(htp_tx_t *htx)
{
	htp_header_t *h = htp_table_get_c(htx->request_headers, "authorization");

	return h && h->value && bstr_begins_with_c_nocase(h->value, "bearer");
}

/* Request anomalies libhtp reports as tx flags rather than messages, in
 * the order the events are raised. */
static const struct {
	uint64_t flag;
	int event;
} req_flag_events[] = {
	{ HTP_REQUEST_INVALID_T_E, EV_INVALID_TE_REQUEST },
	{ HTP_REQUEST_INVALID_C_L, EV_INVALID_CL_REQUEST },
	{ HTP_HOST_MISSING, EV_MISSING_HOST_HEADER },
	{ HTP_HOST_AMBIGUOUS, EV_HOST_HEADER_AMBIGUOUS },
	{ HTP_HOSTU_INVALID, EV_REQUEST_URI_HOST_INVALID },
	{ HTP_HOSTH_INVALID, EV_REQUEST_HEADER_HOST_INVALID },
};

/* libhtp 0.5.42 takes a request's Transfer-Encoding as chunked only when
 * it is exactly "chunked", and fails the connection's request side on
 * anything else ("gzip, chunked"): every later request is lost. Suricata
 * 8's parser takes the body as chunked when the value names chunked
 * anywhere (caseless), as servers do with the last coding; below
 * HTTP/1.1 that is still flagged (invalid T-E, smuggling), as there. */
static void request_te_chunked(htp_tx_t *htx)
{
	htp_header_t *te = htp_table_get_c(htx->request_headers, "transfer-encoding");

	if (htx->request_transfer_coding != HTP_CODING_INVALID || !te || !te->value ||
	    bstr_index_of_c_nocase(te->value, "chunked") < 0)
		return;
	htx->request_transfer_coding = HTP_CODING_CHUNKED;
	htx->flags &= ~(HTP_REQUEST_INVALID_T_E | HTP_REQUEST_INVALID);
	if (htx->request_protocol_number < HTP_PROTOCOL_1_1)
		htx->flags |= HTP_REQUEST_INVALID_T_E | HTP_REQUEST_SMUGGLING;
}

/* Reads the next bytes of a chunked request body for chunk extensions
 * (http-chunk.h); stops at the body's end. */
static void chunk_scan(HttpState *hs, const uint8_t *p, size_t len)
{
	int r = http_chunk_scan(&hs->chunk, p, len);

	if (r & HTTP_CHUNK_EXTENSION)
		tx_event(hs->chunk_tx, EV_REQUEST_CHUNK_EXTENSION);
	if (r & HTTP_CHUNK_DONE)
		hs->chunk_tx = NULL;
}

/* A chunked request's body starts right after its header block: in the
 * chunk libhtp is parsing, from where it stands now. */
static void chunk_scan_start(HttpState *hs, htp_tx_t *htx, HttpTx *tx)
{
	const uint8_t *p = hs->feed_ptr[APP_DIR_TOSERVER];
	size_t len = hs->feed_len[APP_DIR_TOSERVER], off;

	hs->chunk_tx = NULL;
	if (htx->request_transfer_coding != HTP_CODING_CHUNKED || htx->connp != hs->connp)
		return;
	http_chunk_scan_init(&hs->chunk);
	hs->chunk_tx = tx;
	off = p ? htp_connp_req_data_consumed(hs->connp) : len;
	if (off < len)
		chunk_scan(hs, p + off, len - off);
}

/* Before libhtp reads the next request bytes: those of a chunked body
 * still open, when its tx is still libhtp's current one. */
static void chunk_scan_next(HttpState *hs, const uint8_t *data, size_t len)
{
	htp_tx_t *in = htp_connp_get_in_tx(hs->connp);

	if (!data || !in || htp_tx_get_user_data(in) != hs->chunk_tx) {
		hs->chunk_tx = NULL;    /* a gap, or the body is over */
		return;
	}
	chunk_scan(hs, data, len);
}

static int cb_request_headers(htp_tx_t *htx)
{
	HttpTx *tx = tx_ud(htx);
	HttpState *hs;

	if (!tx)
		return HTP_ERROR;
	request_te_chunked(htx);
	hs = state_of_tx(htx);
	if (hs)
		chunk_scan_start(hs, htx, tx);
	for (size_t i = 0; i < sizeof(req_flag_events) / sizeof(req_flag_events[0]); i++)
		if (htx->flags & req_flag_events[i].flag)
			tx_event(tx, req_flag_events[i].event);
	if (htx->flags & HTP_HEADERS_TOO_MANY) {
		tx_event(tx, EV_REQUEST_TOO_MANY_HEADERS);
		tx->req_too_many = 1;
	}
	if (htx->request_auth_type == HTP_AUTH_UNRECOGNIZED && !auth_is_bearer(htx))
		tx_event(tx, EV_REQUEST_AUTH_UNRECOGNIZED);
	/* an HTTP/0.9-looking line with an unknown method and no protocol is
	 * not a request line at all */
	if (htx->is_protocol_0_9 && htx->request_method_number == HTP_M_UNKNOWN &&
	    (htx->request_protocol_number == HTP_PROTOCOL_INVALID ||
	     htx->request_protocol_number == HTP_PROTOCOL_UNKNOWN))
		tx_event(tx, EV_REQUEST_LINE_INVALID);
	return HTP_OK;
}

static int cb_response_headers(htp_tx_t *htx)
{
	HttpTx *tx = tx_ud(htx);

	if (!tx)
		return HTP_ERROR;
	/* libhtp 0.5 would go on parsing HTTP after a CONNECT in the same
	 * parser; Suricata 8 switches to the tunnel right after the 2xx headers
	 * and detects the protocol again (tx ids restart), so note where */
	if (htx->request_method_number == HTP_M_CONNECT && htx->response_status_number >= 200 &&
	    htx->response_status_number <= 299) {
		HttpState *hs = state_of_tx(htx);

		if (hs && htx->connp == hs->connp) {
			hs->connect_ok = 1;
			hs->connect_off = htp_connp_res_data_consumed(htx->connp);
		}
	}
	/* a 101 to a known Upgrade token: the flow becomes that protocol once
	 * libhtp ends the response (feed) */
	if (htx->response_status_number == 101) {
		HttpState *hs = state_of_tx(htx);
		htp_header_t *u = htp_table_get_c(htx->response_headers, "upgrade");

		if (hs && htx->connp == hs->connp && u && u->value)
			hs->upgrade_to = (uint16_t)http_upgrade_proto(bstr_ptr(u->value),
								      bstr_len(u->value));
		/* a flow changes protocol once: an upgrade after STARTTLS or a
		 * CONNECT is refused, and Suricata 8 says so on the tx */
		if (hs && hs->upgrade_to && !app_layer_proto_change_allowed(hs->f))
			tx_event(tx_ud(htx), EV_FAILED_PROTOCOL_CHANGE);
		if (hs && hs->upgrade_to && !hs->upgrade_req.len) {
			/* kept past the tx, which is logged and freed before the
			 * change: "METHOD URI\r\n" then "Name: value\r\n" lines */
			bytes_append_bstr(&hs->upgrade_req, htx->request_method);
			bytes_append(&hs->upgrade_req, " ", 1);
			bytes_append_bstr(&hs->upgrade_req, htx->request_uri);
			bytes_append(&hs->upgrade_req, "\r\n", 2);
			for (size_t i = 0; i < htp_table_size(htx->request_headers); i++) {
				htp_header_t *h = htp_table_get_index(htx->request_headers, i, NULL);

				if (!h)
					continue;
				bytes_append_bstr(&hs->upgrade_req, h->name);
				bytes_append(&hs->upgrade_req, ": ", 2);
				bytes_append_bstr(&hs->upgrade_req, h->value);
				bytes_append(&hs->upgrade_req, "\r\n", 2);
			}
			/* the 101's own headers: what the server agreed to
			 * (WebSocket's Sec-WebSocket-Extensions) */
			for (size_t i = 0; i < htp_table_size(htx->response_headers); i++) {
				htp_header_t *h = htp_table_get_index(htx->response_headers, i, NULL);

				if (!h)
					continue;
				bytes_append_bstr(&hs->upgrade_res, h->name);
				bytes_append(&hs->upgrade_res, ": ", 2);
				bytes_append_bstr(&hs->upgrade_res, h->value);
				bytes_append(&hs->upgrade_res, "\r\n", 2);
			}
		}
	}
	/* the flag is per tx: it is the response's only if the request lacked it */
	if (!tx->req_too_many && (htx->flags & HTP_HEADERS_TOO_MANY))
		tx_event(tx, EV_RESPONSE_TOO_MANY_HEADERS);
	return HTP_OK;
}

/* Records that body bytes [b->len, b->len + n) are data[0, n): verbatim
 * stream bytes when data lies in what is being fed. Pieces merge while
 * contiguous in both; past HTTP_BODY_PIECES_MAX the last piece grows as
 * "unknown". */
static void body_piece(HttpState *hs, Body *b, int dir, const uint8_t *data, uint32_t n)
{
	const uint8_t *in = hs->in_ptr[dir];
	uint64_t soff = UINT64_MAX;
	HttpBodyPiece *last = b->npieces ? &b->pieces[b->npieces - 1] : NULL;

	if (in && hs->in_off[dir] != UINT64_MAX && data >= in &&
	    data + n <= in + hs->in_len[dir])
		soff = hs->in_off[dir] + (uint64_t)(data - in);
	if (last && ((soff == UINT64_MAX && last->stream_off == UINT64_MAX) ||
		     (soff != UINT64_MAX && last->stream_off != UINT64_MAX &&
		      last->stream_off + last->len == soff))) {
		last->len += n;
		return;
	}
	if (b->npieces == b->cappieces) {
		uint32_t cap = b->cappieces ? 2 * b->cappieces : 4;
		HttpBodyPiece *np;

		if (cap > HTTP_BODY_PIECES_MAX ||
		    !(np = realloc(b->pieces, cap * sizeof(*np)))) {
			/* out of pieces: the rest is of unknown origin */
			if (last) {
				last->stream_off = UINT64_MAX;
				last->len += n;
			}
			return;
		}
		http_mem_grow((uint64_t)(cap - b->cappieces) * sizeof(*np));
		b->pieces = np;
		b->cappieces = cap;
	}
	b->pieces[b->npieces++] = (HttpBodyPiece){ .body_off = b->len, .len = n,
						   .stream_off = soff };
}

static void files_feed(HttpState *hs, HttpTx *tx, int dir, const uint8_t *data, size_t len);
static void files_gap(HttpState *hs, HttpTx *tx, int dir, size_t len);

static int body_store(HttpState *hs, HttpTx *tx, int dir, const uint8_t *data, size_t len)
{
	Body *b = &tx->body[dir];
	uint64_t limit;
	size_t n;

	files_feed(hs, tx, dir, data, len);
	b->total += len;
	limit = hs->cfg->body_limit[dir];
	n = len;
	if (limit && b->len + n > limit) {
		n = b->len < limit ? (size_t)(limit - b->len) : 0;
		b->truncated = 1;
	}
	if (n == 0)
		return HTP_OK;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 1024;
		uint8_t *nb;

		while (cap < b->len + n)
			cap *= 2;
		if (limit && cap > limit)
			cap = (size_t)limit;
		nb = realloc(b->buf, cap);
		if (!nb) {
			tx_counted(hs, app_layer_counters.err_http_alloc);
			return HTP_OK;  /* keep parsing; the body stays short */
		}
		http_mem_grow(cap - b->cap);
		b->buf = nb;
		b->cap = (uint32_t)cap;
	}
	memcpy(b->buf + b->len, data, n);
	body_piece(hs, b, dir, data, (uint32_t)n);
	b->len += (uint32_t)n;
	return HTP_OK;
}

static int is_compressed_ce(const HttpTx *tx)
{
	htp_table_t *t = tx->htx->request_headers;
	htp_header_t *h = t ? htp_table_get_c(t, "Content-Encoding") : NULL;

	if (!h || !h->value)
		return 0;
	return bstr_cmp_c_nocase(h->value, "gzip") == 0 ||
	       bstr_cmp_c_nocase(h->value, "x-gzip") == 0 ||
	       bstr_cmp_c_nocase(h->value, "deflate") == 0 ||
	       bstr_cmp_c_nocase(h->value, "x-deflate") == 0;
}

/* What the first body bytes are, whatever the header claims: a gzip
 * member, a zlib stream, or neither (then the body is taken as sent). */
static int req_ce_start(HttpTx *tx, const uint8_t *p, size_t len)
{
	int wbits;

	if (!is_compressed_ce(tx) || len < 2)
		return CE_NONE;
	if (p[0] == 0x1f && p[1] == 0x8b)
		wbits = 15 + 16;
	else if ((p[0] & 0x0f) == 8 && (p[0] >> 4) <= 7 && ((p[0] << 8) | p[1]) % 31 == 0)
		wbits = 15;
	else
		return CE_NONE;
	tx->req_z = calloc(1, sizeof(*tx->req_z));
	if (!tx->req_z)
		return CE_NONE;
	if (inflateInit2(tx->req_z, wbits) != Z_OK) {
		free(tx->req_z);
		tx->req_z = NULL;
		return CE_NONE;
	}
	return CE_INFLATE;
}

static void req_inflate(HttpState *hs, HttpTx *tx, const uint8_t *p, size_t len)
{
	z_stream *z = tx->req_z;
	uint8_t out[4096];
	int r;

	z->next_in = (Bytef *)(uintptr_t)p;
	z->avail_in = (uInt)len;
	do {
		z->next_out = out;
		z->avail_out = sizeof(out);
		r = inflate(z, Z_NO_FLUSH);
		if (z->avail_out < sizeof(out))
			body_store(hs, tx, APP_DIR_TOSERVER, out, sizeof(out) - z->avail_out);
		if (r == Z_STREAM_END) {
			tx->req_ce = CE_DONE;
			return;
		}
		if (r != Z_OK && r != Z_BUF_ERROR) {
			tx_event(tx, EV_GZIP_DECOMPRESSION_FAILED);
			tx->req_ce = CE_DONE;
			return;
		}
		/* the stored body is full: inflating more would only burn time */
		if (tx->body[APP_DIR_TOSERVER].truncated) {
			tx->req_ce = CE_DONE;
			return;
		}
	} while (z->avail_in > 0 || z->avail_out == 0);
}

/* Content-Encoding "br" (RFC 7932), which libhtp 0.5 does not know and
 * passes as sent: Suricata 8's parser decodes it, so that file_data and
 * the file are the decoded body. Without libbrotlidec the body stays as
 * sent. */

static int response_is_br(const HttpTx *tx)
{
	htp_table_t *t = tx->htx->response_headers;
	htp_header_t *h = t ? htp_table_get_c(t, "Content-Encoding") : NULL;

	return h && h->value && bstr_cmp_c_nocase(h->value, "br") == 0;
}

#ifdef HAVE_BROTLI
static void res_brotli(HttpState *hs, HttpTx *tx, const uint8_t *p, size_t len)
{
	uint8_t out[4096];
	BrotliDecoderResult r;

	do {
		uint8_t *next_out = out;
		size_t avail_out = sizeof(out);

		r = BrotliDecoderDecompressStream(tx->br, &len, &p, &avail_out, &next_out, NULL);
		if (avail_out < sizeof(out))
			body_store(hs, tx, APP_DIR_TOCLIENT, out, sizeof(out) - avail_out);
		if (r == BROTLI_DECODER_RESULT_ERROR) {
			tx_event(tx, EV_GZIP_DECOMPRESSION_FAILED);
			tx->res_br = CE_DONE;
			return;
		}
		if (r == BROTLI_DECODER_RESULT_SUCCESS) {
			tx->res_br = CE_DONE;
			return;
		}
		/* the stored body is full: decoding more would only burn time */
		if (tx->body[APP_DIR_TOCLIENT].truncated && !tx->file_open[APP_DIR_TOCLIENT]) {
			tx->res_br = CE_DONE;
			return;
		}
	} while (len > 0 || r == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT);
}
#endif

/* A response body's bytes: decoded first when it says "br". 1: taken. */
static int res_body_decode(HttpState *hs, HttpTx *tx, const uint8_t *p, size_t len)
{
	if (tx->res_br == CE_UNKNOWN) {
		tx->res_br = CE_NONE;
#ifdef HAVE_BROTLI
		if (response_is_br(tx) && (tx->br = BrotliDecoderCreateInstance(NULL, NULL, NULL))) {
			http_mem_grow(HTTP_BROTLI_CHARGE);
			tx->res_br = CE_INFLATE;
		}
#else
		(void)response_is_br;
#endif
	}
	switch (tx->res_br) {
#ifdef HAVE_BROTLI
	case CE_INFLATE:
		res_brotli(hs, tx, p, len);
		return 1;
#endif
	case CE_DONE:
		return 1;
	default:
		return 0;
	}
}

static int body_append(htp_tx_data_t *d, int dir)
{
	HttpTx *tx = tx_ud(d->tx);
	HttpState *hs = state_of_tx(d->tx);

	if (!tx || !hs)
		return HTP_ERROR;
	if (!d->data && d->len) {
		/* a gap inside the body: the file has a hole of d->len */
		tx->gap[dir] += d->len;
		files_gap(hs, tx, dir, d->len);
		return HTP_OK;
	}
	if (!d->data || d->len == 0)
		return HTP_OK;
	if (dir == APP_DIR_TOCLIENT) {
		if (res_body_decode(hs, tx, d->data, d->len))
			return HTP_OK;
		return body_store(hs, tx, dir, d->data, d->len);
	}
	if (tx->req_ce == CE_UNKNOWN)
		tx->req_ce = (uint8_t)req_ce_start(tx, d->data, d->len);
	switch (tx->req_ce) {
	case CE_INFLATE:
		req_inflate(hs, tx, d->data, d->len);
		return HTP_OK;
	case CE_DONE:
		return HTP_OK;
	default:
		return body_store(hs, tx, dir, d->data, d->len);
	}
}

static int cb_request_body(htp_tx_data_t *d)
{
	return body_append(d, APP_DIR_TOSERVER);
}

static int cb_response_body(htp_tx_data_t *d)
{
	return body_append(d, APP_DIR_TOCLIENT);
}

/* ---------------- configuration ---------------- */

static const enum htp_server_personality_t pers_map[] = {
	[HTTP_PERS_MINIMAL] = HTP_SERVER_MINIMAL, [HTTP_PERS_GENERIC] = HTP_SERVER_GENERIC,
	[HTTP_PERS_IDS] = HTP_SERVER_IDS,         [HTTP_PERS_IIS_4_0] = HTP_SERVER_IIS_4_0,
	[HTTP_PERS_IIS_5_0] = HTP_SERVER_IIS_5_0, [HTTP_PERS_IIS_5_1] = HTP_SERVER_IIS_5_1,
	[HTTP_PERS_IIS_6_0] = HTP_SERVER_IIS_6_0, [HTTP_PERS_IIS_7_0] = HTP_SERVER_IIS_7_0,
	[HTTP_PERS_IIS_7_5] = HTP_SERVER_IIS_7_5, [HTTP_PERS_APACHE_2] = HTP_SERVER_APACHE_2,
};

/* HttpCfgs alive (one a worker, while its flows hold it) */
static unsigned live_cfgs;

struct HttpCfg *http_cfg_new(const AppLayerConfig *cfg)
{
	struct HttpCfg *hc = calloc(1, sizeof(*hc));
	htp_cfg_t *c;

	if (!hc)
		return NULL;
	c = htp_config_create();
	if (!c) {
		free(hc);
		return NULL;
	}
	hc->htp = c;
	__atomic_add_fetch(&live_cfgs, 1, __ATOMIC_ACQ_REL);
	hc->max_tx = cfg->max_tx;
	hc->refs = 1;
	hc->body_limit[0] = cfg->request_body_limit;
	hc->body_limit[1] = cfg->response_body_limit;
	hc->min_inspect[0] = cfg->request_body_minimal_inspect_size > UINT32_MAX ?
			     UINT32_MAX : (uint32_t)cfg->request_body_minimal_inspect_size;
	hc->min_inspect[1] = cfg->response_body_minimal_inspect_size > UINT32_MAX ?
			     UINT32_MAX : (uint32_t)cfg->response_body_minimal_inspect_size;
	hc->uri_include_all = cfg->uri_include_all;
	hc->double_decode_path = cfg->double_decode_path;
	hc->double_decode_query = cfg->double_decode_query;

	htp_config_set_server_personality(c, pers_map[cfg->personality]);
	/* The IDS personality lowercases the path; rules expect it as sent
	 * (Suricata overrides this the same way). */
	htp_config_set_convert_lowercase(c, HTP_DECODER_URL_PATH, 0);
	/* '+' stays '+' in the normalized uri, as in Suricata */
	htp_config_set_plusspace_decode(c, HTP_DECODER_URLENCODED, 0);
	htp_config_set_parse_request_cookies(c, 0);
	/* "GET /uri afterspace HTTP/1.1": the uri runs to the last space
	 * before the protocol, as Suricata sets its parser (servers take it
	 * so too); libhtp's default ends it at the first space */
	htp_config_set_allow_space_uri(c, 1);
	/* the authorization header's scheme: request_auth_unrecognized */
	htp_config_set_parse_request_auth(c, 1);
	htp_config_set_response_decompression(c, cfg->response_body_decompress_layer_limit > 0);
	htp_config_set_response_decompression_layer_limit(c,
		cfg->response_body_decompress_layer_limit);
	/* request bodies: see enum req_ce */
	htp_config_set_request_decompression(c, 0);
	htp_config_set_lzma_memlimit(c, (size_t)cfg->lzma_memlimit);
	htp_config_set_lzma_layers(c, cfg->lzma_enabled ? 1 : 0);
	htp_config_set_compression_bomb_limit(c, (size_t)cfg->compression_bomb_limit);
	htp_config_set_compression_time_limit(c, (size_t)cfg->decompression_time_limit_us);
	htp_config_set_field_limits(c, (size_t)cfg->meta_field_limit,
				    (size_t)cfg->meta_field_limit);

	htp_config_register_request_start(c, cb_request_start);
	htp_config_register_request_line(c, cb_request_line);
	htp_config_register_request_header_data(c, cb_request_header_data);
	htp_config_register_request_headers(c, cb_request_headers);
	htp_config_register_request_body_data(c, cb_request_body);
	htp_config_register_request_complete(c, cb_request_complete);
	htp_config_register_response_start(c, cb_response_start);
	htp_config_register_response_line(c, cb_response_line);
	htp_config_register_response_header_data(c, cb_response_header_data);
	htp_config_register_response_headers(c, cb_response_headers);
	htp_config_register_response_body_data(c, cb_response_body);
	htp_config_register_response_complete(c, cb_response_complete);
	return hc;
}

void http_cfg_put(struct HttpCfg *hc)
{
	if (!hc || --hc->refs > 0)
		return;
	htp_config_destroy(hc->htp);
	free(hc);
	/* the last config is gone, so is every HTTP flow (each holds its
	 * worker's): the ranges nobody completed go with them. One worker
	 * may end while another still reassembles; a reload makes the new
	 * configs before it puts the old ones. */
	if (__atomic_sub_fetch(&live_cfgs, 1, __ATOMIC_ACQ_REL) == 0)
		http_range_cleanup();
}

/* Opens the next libhtp parser of the flow and makes it current. */
static int parser_new(HttpState *hs, htp_time_t *ts)
{
	HttpParser *hp;
	uint64_t base = 0;

	if (hs->npars == HTTP_MAX_PARSERS)
		return -1;
	if (hs->npars) {
		hp = &hs->pars[hs->npars - 1];
		base = hp->base + htp_list_size(hp->conn->transactions);
	}
	hp = &hs->pars[hs->npars];
	hp->connp = htp_connp_create(hs->cfg->htp);
	if (!hp->connp)
		return -1;
	hp->hs = hs;
	hp->base = base;
	hp->conn = htp_connp_get_connection(hp->connp);
	htp_connp_set_user_data(hp->connp, hp);
	htp_connp_open(hp->connp, NULL, hs->f->sp, NULL, hs->f->dp, ts);
	hs->npars++;
	hs->connp = hp->connp;
	hs->conn = hp->conn;
	hs->msg_offset = 0;
	return 0;
}

void *http_state_new(AppLayerThread *at, Flow *f)
{
	HttpState *hs = calloc(1, sizeof(*hs));
	htp_time_t ts = f->start;

	if (!hs || !at->ctx[ALPROTO_HTTP1]) {
		free(hs);
		return NULL;
	}
	if (!http_mem_reserve(at->tc, HTTP_MEM_STATE)) {
		free(hs);
		return NULL;
	}
	hs->mem_tc = at->tc;
	hs->cfg = at->ctx[ALPROTO_HTTP1];
	hs->f = f;
	if (parser_new(hs, &ts) < 0) {
		http_mem_release(hs->mem_tc, HTTP_MEM_STATE);
		free(hs);
		return NULL;
	}
	hs->cfg->refs++;
	/* as Suricata's HTTP state does: the raw stream keeps the minimal
	 * inspect sizes behind its inspection */
	stream_set_min_inspect_depth(f, APP_DIR_TOSERVER, hs->cfg->min_inspect[0]);
	stream_set_min_inspect_depth(f, APP_DIR_TOCLIENT, hs->cfg->min_inspect[1]);
	return hs;
}

void http_state_free(void *state)
{
	HttpState *hs = state;

	if (!hs)
		return;
	for (unsigned p = 0; p < hs->npars; p++) {
		HttpParser *hp = &hs->pars[p];

		/* from the first slot, not the gc's mark: a superseded
		 * transaction libhtp would not destroy yet (its response still
		 * running into a 101's upgrade) stays below the mark, and may
		 * have got its data after the gc passed it */
		for (size_t i = 0; i < htp_list_size(hp->conn->transactions); i++) {
			htp_tx_t *htx = htp_list_get(hp->conn->transactions, i);

			if (htx) {
				tx_free(htp_tx_get_user_data(htx));
				htp_tx_set_user_data(htx, NULL);
			}
		}
		htp_connp_destroy_all(hp->connp);
	}
	for (int d = 0; d < 2; d++) {
		bytes_free(&hs->pending[d]);
		bytes_free(&hs->tunnel_data[d]);
	}
	bytes_free(&hs->upgrade_req);
	bytes_free(&hs->upgrade_res);
	http_cfg_put(hs->cfg);
	http_mem_release(hs->mem_tc, HTTP_MEM_STATE);
	free(hs);
}

/* ---------------- parsing ---------------- */

static int message_event(const htp_log_t *log)
{
	for (size_t i = 0; i < sizeof(htp_messages) / sizeof(htp_messages[0]); i++)
		if (strncmp(log->msg, htp_messages[i].prefix, strlen(htp_messages[i].prefix)) == 0)
			return htp_messages[i].ev;
	/* notices and below are libhtp chatter, not anomalies */
	return log->level <= HTP_LOG_WARNING ? EV_UNKNOWN_ERROR : -1;
}

/* The tx a connection-level message belongs to: the one in progress in the
 * direction being parsed, else the newest. */
static HttpTx *message_tx(HttpState *hs, const htp_log_t *log, int dir)
{
	htp_tx_t *htx = log->tx;
	size_t n;

	if (!htx)
		htx = dir == APP_DIR_TOSERVER ? htp_connp_get_in_tx(hs->connp) :
						htp_connp_get_out_tx(hs->connp);
	if (!htx) {
		n = htp_list_size(hs->conn->transactions);
		htx = n ? htp_list_get(hs->conn->transactions, n - 1) : NULL;
	}
	return htx ? tx_ud(htx) : NULL;
}

/* libhtp 0.5 says "C-E unknown setting" for Content-Encoding: identity,
 * which is no encoding at all (RFC 9110 8.4.1); Suricata 8's parser knows
 * it and raises nothing (its issue 7843, suricata-verify
 * http-encoding-identity). */
static int ce_is_identity(const HttpTx *tx)
{
	htp_header_t *h;

	if (!tx || !tx->htx)
		return 0;
	h = htp_table_get_c(tx->htx->response_headers, "content-encoding");
	if (!h)
		h = htp_table_get_c(tx->htx->request_headers, "content-encoding");
	/* nor for br (RFC 7932), which Suricata 8's parser decodes */
	return h && h->value && (bstr_cmp_c_nocase(h->value, "identity") == 0 ||
				 bstr_cmp_c_nocase(h->value, "br") == 0);
}

static void collect_events(HttpState *hs, int dir)
{
	size_t n = htp_list_size(hs->conn->messages);

	if (n > HTTP_MAX_MESSAGES) {
		if (!hs->warned_too_many) {
			tx_event(message_tx(hs, &(htp_log_t){ .msg = "" }, dir),
				 EV_TOO_MANY_WARNINGS);
			hs->warned_too_many = 1;
		}
		n = HTTP_MAX_MESSAGES;
	}
	for (; hs->msg_offset < n; hs->msg_offset++) {
		htp_log_t *log = htp_list_get(hs->conn->messages, hs->msg_offset);
		int ev;

		if (!log || !log->msg)
			continue;
		ev = message_event(log);
		if (ev == EV_ABNORMAL_CE_HEADER && ce_is_identity(message_tx(hs, log, dir)))
			continue;
		if (ev >= 0)
			tx_event(message_tx(hs, log, dir), ev);
	}
}

static void supersede(HttpParser *hp);

static int feed(HttpState *hs, int dir, const uint8_t *data, size_t len)
{
	htp_time_t ts = hs->f->last;
	size_t consumed;
	int r, was_tunnel = hs->tunnel;

	if (dir == APP_DIR_TOSERVER && hs->chunk_tx)
		chunk_scan_next(hs, data, len);
	hs->feed_ptr[dir] = data;
	hs->feed_len[dir] = len;
	/* what is fed is always the last of what the direction was handed
	 * (now, or held back from before) */
	hs->feed_off[dir] = hs->frame_edge[dir] - len;
	hs->in_feed[dir] = 1;
	r = dir == APP_DIR_TOSERVER ? htp_connp_req_data(hs->connp, &ts, data, len) :
				      htp_connp_res_data(hs->connp, &ts, data, len);
	hs->in_feed[dir] = 0;
	hs->feed_ptr[dir] = NULL;
	if (r == HTP_STREAM_DATA_OTHER && data) {
		/* libhtp needs the other direction first (CONNECT, 100-continue):
		 * keep the rest and offer it again after the other side moves */
		consumed = dir == APP_DIR_TOSERVER ? htp_connp_req_data_consumed(hs->connp) :
						     htp_connp_res_data_consumed(hs->connp);
		if (consumed < len &&
		    bytes_append(&hs->pending[dir], data + consumed, len - consumed) < 0)
			tx_counted(hs, app_layer_counters.err_http_alloc);
	}
	if (r == HTP_STREAM_TUNNEL && hs->upgrade_to && dir == APP_DIR_TOCLIENT) {
		/* libhtp ends HTTP at a 101: what follows is the new protocol's,
		 * handed over with the flow (tunnel_take), as Suricata 8's change */
		consumed = htp_connp_res_data_consumed(hs->connp);
		if (data && consumed < len &&
		    bytes_append(&hs->tunnel_data[dir], data + consumed, len - consumed) < 0)
			tx_counted(hs, app_layer_counters.err_http_alloc);
		supersede(&hs->pars[hs->npars - 1]);
		app_layer_request_proto_change(hs->f, hs->upgrade_to);
		hs->upgrade_to = 0;
		hs->dead[APP_DIR_TOSERVER] = hs->dead[APP_DIR_TOCLIENT] = 1;
	} else if (hs->connect_ok && !hs->tunnel) {
		hs->tunnel = 1;
		if (data && hs->connect_off < len &&
		    bytes_append(&hs->tunnel_data[dir], data + hs->connect_off,
				 len - hs->connect_off) < 0)
			tx_counted(hs, app_layer_counters.err_http_alloc);
	} else if (r == HTP_STREAM_TUNNEL && !hs->tunnel) {
		/* a CONNECT got its 2xx: what follows is the tunnel's, for
		 * app-layer.c to detect again (Suricata's protocol change) */
		consumed = dir == APP_DIR_TOSERVER ? htp_connp_req_data_consumed(hs->connp) :
						     htp_connp_res_data_consumed(hs->connp);
		hs->tunnel = 1;
		if (data && consumed < len &&
		    bytes_append(&hs->tunnel_data[dir], data + consumed, len - consumed) < 0)
			tx_counted(hs, app_layer_counters.err_http_alloc);
	}
	if (hs->tunnel && !was_tunnel)
		/* the CONNECT (and what came before it) is over once its
		 * tunnel opens, whatever the tunnel carries: logged now, as
		 * Suricata 8 logs it, before a protocol change frees it */
		supersede(&hs->pars[hs->npars - 1]);
	collect_events(hs, dir);
	if (r == HTP_STREAM_ERROR) {
		hs->dead[dir] = 1;
		tx_counted(hs, app_layer_counters.err_http_parser);
		app_layer_error_exception(hs->f, hs->at ? hs->at->tc : NULL);
		return -1;
	}
	return 0;
}

/* Whether the current parser holds max-tx live transactions: those from
 * the gc's mark on, requests not answered yet or not yet logged. Without
 * a bound, requests pipelined to a server that never answers are all live
 * and every packet's detection walk and gc visit them all (5,000 took
 * 1.9 s, 20,000 53 s). */
static int too_many_live(const HttpState *hs)
{
	const HttpParser *hp = &hs->pars[hs->npars - 1];

	return hs->cfg->max_tx &&
	       htp_list_size(hp->conn->transactions) - hp->low >= hs->cfg->max_tx;
}

/* Past max-tx the request side is parsed no further (a parser error:
 * app_layer.error.http.parser and the error policy), as libhtp's own
 * max_tx (0.5.46, which Suricata sets from this key) refuses the next
 * transaction. Checked per chunk, before libhtp sees it: libhtp 0.5.42
 * makes a new transaction again and again for a request whose start
 * callback fails (tried: 23 GB in seconds). Responses still complete the
 * live ones. */
static int refuse_requests(HttpState *hs)
{
	hs->dead[APP_DIR_TOSERVER] = 1;
	tx_counted(hs, app_layer_counters.err_http_parser);
	app_layer_error_exception(hs->f, hs->at ? hs->at->tc : NULL);
	return -1;
}

/* Retries what a direction left with DATA_OTHER. */
static void feed_pending(HttpState *hs, int dir)
{
	Bytes b = hs->pending[dir];

	if (!b.len || hs->dead[dir])
		return;
	memset(&hs->pending[dir], 0, sizeof(hs->pending[dir]));
	if (hs->tunnel) {
		/* held while the CONNECT was pending: the tunnel's first bytes */
		if (bytes_append(&hs->tunnel_data[dir], b.p, b.len) < 0)
			tx_counted(hs, app_layer_counters.err_http_alloc);
	} else {
		feed(hs, dir, b.p, b.len);
	}
	http_mem_shrink(b.cap);   /* taken out of hs->pending: its charge goes too */
	free(b.p);
}

static void close_dir(HttpState *hs, int dir)
{
	htp_time_t ts = hs->f->last;

	if (hs->closed[dir])
		return;
	hs->closed[dir] = 1;
	/* libhtp 0.5 closes the inbound side alone, or the whole connection */
	if (dir == APP_DIR_TOSERVER && !hs->closed[1])
		htp_connp_req_close(hs->connp, &ts);
	else
		htp_connp_close(hs->connp, &ts);
	collect_events(hs, dir);
}

/* Where a gap of len bytes on dir falls: the progress of the direction's
 * open transaction, or -1 when the gap cannot be handled inside a message
 * (nothing open, the side dead or tunnelled, bytes held back). libhtp
 * takes a gap of known size in a body; a gap in a start line is joined
 * (http_parse); anywhere else a start line or header would be lost, and
 * Suricata 8's parser stops there too. */
static int gap_progress(HttpState *hs, int dir, uint32_t len)
{
	htp_tx_t *htx;
	HttpTx *tx;

	if (!len || hs->dead[dir] || hs->tunnel || hs->pending[dir].len)
		return -1;
	htx = dir == APP_DIR_TOSERVER ? htp_connp_get_in_tx(hs->connp) :
					htp_connp_get_out_tx(hs->connp);
	tx = htx ? htp_tx_get_user_data(htx) : NULL;
	return tx ? (int)http_tx_progress(tx, dir) : -1;
}

int http_parse(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
	       uint32_t len, int flags)
{
	HttpState *hs = state;
	int rc = 0, gp;

	if (!hs)
		return -1;
	hs->at = at;
	hs->f = f;
	if (app_frames_on(f))
		hs->frame_edge[dir] = app_frame_offset(f, dir) + len;
	gp = (flags & APP_GAP) ? gap_progress(hs, dir, len) : -1;
	if (gp == HTTP_PROGRESS_BODY) {
		/* libhtp 0.5.42 takes a gap as data NULL, len: inside a body
		 * it skips the bytes and the body callback sees the hole
		 * (files count it in their size, as Suricata's do), then
		 * parses on, as Suricata 8's HTTP parser, which accepts gaps
		 * in bodies, does (suricata-verify http-gap-simple,
		 * http-gap-whole-body) */
		tx_counted(hs, app_layer_counters.err_http_gap);
		rc = feed(hs, dir, NULL, len);
		feed_pending(hs, !dir);
	} else if (gp == HTTP_PROGRESS_NONE) {
		/* Suricata 8's parser takes a gap inside a request or status
		 * line as no data: the bytes on both sides of it join (an
		 * urgent byte dropped from "GET /malic", "X", "ious HTTP/1.1"
		 * leaves the uri "/malicious": suricata-verify
		 * tcp-urgp-02-drop-ips). libhtp 0.5 cannot be handed such a
		 * gap, so it is not handed one. A gap in the headers still
		 * stops the side (nothing says Suricata 8 joins those). */
		tx_counted(hs, app_layer_counters.err_http_gap);
	} else if (flags & APP_GAP) {
		/* a gap of unknown size, or one libhtp cannot be handed (a
		 * tunnel, bytes held for the other side): stop this side. A
		 * body in progress loses the rest: its file has a gap. */
		htp_tx_t *gtx = hs->dead[dir] ? NULL :
				dir == APP_DIR_TOSERVER ? htp_connp_get_in_tx(hs->connp) :
							  htp_connp_get_out_tx(hs->connp);
		HttpTx *gt = gtx ? htp_tx_get_user_data(gtx) : NULL;

		if (gt && http_tx_progress(gt, dir) == HTTP_PROGRESS_BODY)
			gt->gap[dir] += len ? len : 1;
		tx_counted(hs, app_layer_counters.err_http_gap);
		hs->dead[dir] = 1;
		rc = -1;
	} else if (hs->dead[dir]) {
		rc = -1;
	} else if (dir == APP_DIR_TOSERVER && hs->req_after_09) {
		rc = 0;
	} else if (hs->tunnel) {
		if (len && bytes_append(&hs->tunnel_data[dir], data, len) < 0)
			tx_counted(hs, app_layer_counters.err_http_alloc);
	} else if (dir == APP_DIR_TOSERVER && len && too_many_live(hs)) {
		rc = refuse_requests(hs);
	} else if (len) {
		if (hs->pending[dir].len) {
			if (bytes_append(&hs->pending[dir], data, len) < 0)
				tx_counted(hs, app_layer_counters.err_http_alloc);
			feed_pending(hs, dir);
		} else {
			uint64_t off1 = f->app_data_off1[dir];

			hs->in_ptr[dir] = data;
			hs->in_len[dir] = len;
			hs->in_off[dir] = off1 ? off1 - 1 : UINT64_MAX;
			rc = feed(hs, dir, data, len);
			hs->in_ptr[dir] = NULL;
		}
		feed_pending(hs, !dir);
	}
	if ((flags & APP_EOF) && !hs->tunnel)
		close_dir(hs, dir);
	hs->at = NULL;
	return rc;
}

int http_upgrade_request(const void *state, const uint8_t **p, uint32_t *len)
{
	const HttpState *hs = state;

	if (!hs || !hs->upgrade_req.len)
		return -1;
	*p = hs->upgrade_req.p;
	*len = hs->upgrade_req.len;
	return 0;
}

int http_upgrade_response(const void *state, const uint8_t **p, uint32_t *len)
{
	const HttpState *hs = state;

	if (!hs || !hs->upgrade_res.len)
		return -1;
	*p = hs->upgrade_res.p;
	*len = hs->upgrade_res.len;
	return 0;
}

int http_tunnel_started(void *state)
{
	HttpState *hs = state;

	return hs && hs->tunnel;
}

uint8_t *http_tunnel_take(void *state, int dir, uint32_t *len)
{
	HttpState *hs = state;
	uint8_t *p;

	*len = 0;
	if (!hs || !hs->tunnel_data[dir & 1].len)
		return NULL;
	p = hs->tunnel_data[dir & 1].p;
	*len = hs->tunnel_data[dir & 1].len;
	/* the caller owns the bytes now: they leave http.memuse */
	http_mem_shrink(hs->tunnel_data[dir & 1].cap);
	memset(&hs->tunnel_data[dir & 1], 0, sizeof(Bytes));
	return p;
}

/* The old parser's transactions are over: nothing more comes for them. */
static void supersede(HttpParser *hp)
{
	for (size_t i = hp->low; i < htp_list_size(hp->conn->transactions); i++) {
		htp_tx_t *htx = htp_list_get(hp->conn->transactions, i);
		HttpTx *tx = htx ? tx_ud(htx) : NULL;

		if (tx)
			tx->superseded = 1;
	}
}

int http_tunnel_restart(AppLayerThread *at, Flow *f, void *state)
{
	HttpState *hs = state;
	htp_time_t ts = f->last;

	if (!hs || hs->npars == HTTP_MAX_PARSERS)
		return -1;
	hs->at = at;
	hs->f = f;
	supersede(&hs->pars[hs->npars - 1]);
	if (parser_new(hs, &ts) < 0) {
		hs->at = NULL;
		return -1;
	}
	for (int d = 0; d < 2; d++) {
		bytes_free(&hs->pending[d]);
		bytes_free(&hs->tunnel_data[d]);
		hs->dead[d] = hs->closed[d] = 0;
	}
	hs->tunnel = hs->connect_ok = hs->req_after_09 = 0;
	hs->at = NULL;
	return 0;
}

/* Whether every user is done with htx: complete both ways (or its parser
 * was replaced) and every flag of need set. */
static int tx_done_with(htp_tx_t *htx, unsigned need)
{
	HttpTx *tx = htp_tx_get_user_data(htx);

	if (!(tx && tx->superseded) &&
	    (htx->request_progress != HTP_REQUEST_COMPLETE ||
	     htx->response_progress != HTP_RESPONSE_COMPLETE))
		return 0;
	return !tx || (tx->flags & need) == need;
}

/* Frees hp's finished transactions from its low-water mark on, and moves
 * the mark over the destroyed slots at its front. HTTP/1 transactions
 * finish in order (responses pair with requests in order; logging and
 * detection flag them in order), so the slots from the mark on are the
 * live ones and a call costs those: scanning from slot 0 made 80,000
 * keep-alive requests on one connection 14x the time of 20,000. One
 * that stays (a file of it still open) does not stop the ones after it. */
static void parser_gc(HttpParser *hp, unsigned need)
{
	size_t n = htp_list_size(hp->conn->transactions);

	for (size_t i = hp->low; i < n; i++) {
		htp_tx_t *htx = htp_list_get(hp->conn->transactions, i);

		if (htx) {
			if (!tx_done_with(htx, need))
				continue;
			tx_free(htp_tx_get_user_data(htx));
			htp_tx_set_user_data(htx, NULL);
			htp_tx_destroy(htx);
		}
		if (i == hp->low)
			hp->low++;
	}
}

void http_tx_gc(void *state, unsigned need)
{
	HttpState *hs = state;

	if (!hs)
		return;
	for (unsigned p = 0; p < hs->npars; p++)
		parser_gc(&hs->pars[p], need);
}

uint64_t http_state_tx_low(const void *state)
{
	const HttpState *hs = state;

	if (!hs)
		return 0;
	for (unsigned p = 0; p < hs->npars; p++) {
		const HttpParser *hp = &hs->pars[p];

		if (hp->low < htp_list_size(hp->conn->transactions))
			return hp->base + hp->low;
	}
	return http_state_tx_count(hs);
}

/* ---------------- transactions ---------------- */

static HttpState *flow_http(const Flow *f)
{
	const AppFlowState *fs;

	if (!f || f->app_proto != ALPROTO_HTTP1 || !f->alstate)
		return NULL;
	fs = f->alstate;
	return fs->proto;
}

uint64_t http_state_tx_count(const void *state)
{
	const HttpState *hs = state;
	const HttpParser *hp;

	if (!hs)
		return 0;
	hp = &hs->pars[hs->npars - 1];
	return hp->base + htp_list_size(hp->conn->transactions);
}

void *http_state_tx_get(const void *state, uint64_t tx_id)
{
	const HttpState *hs = state;
	htp_tx_t *htx;

	if (!hs)
		return NULL;
	for (unsigned p = hs->npars; p-- > 0;) {
		const HttpParser *hp = &hs->pars[p];

		if (tx_id < hp->base)
			continue;
		if (tx_id - hp->base >= htp_list_size(hp->conn->transactions))
			return NULL;
		/* freed, even where libhtp kept an unfinished tx of a replaced
		 * parser (htp_tx_destroy refuses those): not made anew */
		if (tx_id - hp->base < hp->low)
			return NULL;
		htx = htp_list_get(hp->conn->transactions, (size_t)(tx_id - hp->base));
		return htx ? tx_ud(htx) : NULL;
	}
	return NULL;
}

uint64_t http_tx_count(const Flow *f)
{
	return http_state_tx_count(flow_http(f));
}

HttpTx *http_tx_get(const Flow *f, uint64_t tx_id)
{
	return http_state_tx_get(flow_http(f), tx_id);
}

uint64_t http_tx_id(const HttpTx *tx)
{
	return tx->id;
}

uint64_t http_tx_log_id(const HttpTx *tx)
{
	return tx->log_id;
}

static int map_progress(int p)
{
	/* libhtp's request and response progress enums share their values,
	 * and name the part being parsed: HTP_REQUEST_LINE while the line's
	 * bytes come in, HTP_REQUEST_HEADERS once the line is done. Ours name
	 * what is complete. */
	switch (p) {
	case HTP_REQUEST_NOT_STARTED:
	case HTP_REQUEST_LINE:
		return HTTP_PROGRESS_NONE;
	case HTP_REQUEST_HEADERS:
		return HTTP_PROGRESS_LINE;
	case HTP_REQUEST_BODY:
	case HTP_REQUEST_TRAILER:
		return HTTP_PROGRESS_BODY;
	default:
		return HTTP_PROGRESS_COMPLETE;
	}
}

int http_tx_progress(const HttpTx *tx, int dir)
{
	if (!tx)
		return HTTP_PROGRESS_NONE;
	if (tx->superseded)
		return HTTP_PROGRESS_COMPLETE;
	return map_progress(dir == APP_DIR_TOSERVER ? (int)tx->htx->request_progress :
						      (int)tx->htx->response_progress);
}

unsigned http_tx_flags(const HttpTx *tx)
{
	return tx ? tx->flags : 0;
}

void http_tx_set_flags(HttpTx *tx, unsigned flags)
{
	if (tx)
		tx->flags |= flags;
}

void **http_tx_detect_slot(HttpTx *tx)
{
	return &tx->detect;
}

void *http_tx_detect_alloc(HttpTx *tx, size_t size)
{
	if (tx->detect)
		return tx->detect;
	tx->detect = calloc(1, size);
	if (tx->detect) {
		tx->detect_bytes = (uint32_t)size;
		http_mem_grow(size);
	}
	return tx->detect;
}

uint32_t http_tx_body_raw(const HttpTx *tx, int dir, const uint8_t **data, uint32_t *len,
			  const HttpBodyPiece **pieces)
{
	const Body *b;

	*data = NULL;
	*len = 0;
	*pieces = NULL;
	if (!tx)
		return 0;
	b = &tx->body[dir & 1];
	*data = b->buf;
	*len = b->len;
	*pieces = b->pieces;
	return b->npieces;
}

int http_tx_body_truncated(const HttpTx *tx, int dir)
{
	return tx ? tx->body[dir & 1].truncated : 0;
}

uint32_t http_tx_event_count(const HttpTx *tx)
{
	return tx ? tx->nev : 0;
}

int http_tx_event_get(const HttpTx *tx, uint32_t idx)
{
	return (tx && idx < tx->nev) ? tx->ev[idx] : -1;
}

uint8_t *http_tx_events_logged(HttpTx *tx)
{
	return &tx->nev_logged;
}

int http_tx_has_event(const HttpTx *tx, int id)
{
	for (uint32_t i = 0; tx && i < tx->nev; i++)
		if (tx->ev[i] == id)
			return 1;
	return 0;
}

/* ---------------- buffers ---------------- */

int http_buffer_direction(int buffer_id)
{
	switch (buffer_id) {
	case HTTP_BUF_STAT_CODE:
	case HTTP_BUF_STAT_MSG:
	case HTTP_BUF_RESPONSE_LINE:
	case HTTP_BUF_SERVER_BODY:
	case HTTP_BUF_LOCATION:
	case HTTP_BUF_SERVER:
	case HTTP_BUF_RESPONSE_HEADER:
		return APP_DIR_TOCLIENT;
	default:
		return APP_DIR_TOSERVER;
	}
}

static int ok_bstr(const bstr *b, const uint8_t **data, uint32_t *len)
{
	if (!b)
		return -1;
	*data = bstr_ptr(b);
	*len = (uint32_t)bstr_len(b);
	return 0;
}

static htp_table_t *headers_of(const HttpTx *tx, int dir)
{
	return dir == APP_DIR_TOSERVER ? tx->htx->request_headers : tx->htx->response_headers;
}

static const char *const hdr_names[2][HN_MAX] = {
	{ "Cookie", "User-Agent", "Host", "Accept", "Accept-Encoding", "Accept-Language",
	  "Connection", "Referer", "Content-Type", "Content-Length", "Location", "Server" },
	{ "Set-Cookie", "User-Agent", "Host", "Accept", "Accept-Encoding", "Accept-Language",
	  "Connection", "Referer", "Content-Type", "Content-Length", "Location", "Server" },
};

/* Side dir's index, (re)built when its table has other entries than when
 * it was built: as htp_table_get_c, the first header of a name, caseless.
 * A repeated header is folded into its first entry, which stays put. */
static const HdrIndex *hdr_index(HttpTx *tx, int dir)
{
	HdrIndex *x = &tx->hdr[dir];
	htp_table_t *t = headers_of(tx, dir);
	size_t n = t ? htp_table_size(t) : 0;
	size_t want[HN_MAX];

	if (x->built && x->entries == n)
		return x;
	memset(x->h, 0, sizeof(x->h));
	for (int k = 0; k < HN_MAX; k++)
		want[k] = strlen(hdr_names[dir][k]);
	for (size_t i = 0; i < n; i++) {
		htp_header_t *h = htp_table_get_index(t, i, NULL);
		size_t len = h && h->name ? bstr_len(h->name) : 0;

		for (int k = 0; k < HN_MAX; k++)
			if (len == want[k] && !x->h[k] &&
			    bstr_cmp_c_nocase(h->name, hdr_names[dir][k]) == 0) {
				x->h[k] = h;
				break;
			}
	}
	x->entries = n;
	x->built = 1;
	return x;
}

static int header_value(HttpTx *tx, int dir, enum hdr_name which, const uint8_t **data,
			uint32_t *len)
{
	const htp_header_t *h = hdr_index(tx, dir)->h[which];

	return h ? ok_bstr(h->value, data, len) : -1;
}

static int is_cookie_header(const bstr *name, int dir)
{
	return bstr_cmp_c_nocase(name, dir == APP_DIR_TOSERVER ? "Cookie" : "Set-Cookie") == 0;
}

/* "Name: value\r\n" per header, the cookie header left to http.cookie; no
 * extra CRLF at the end (Suricata decided that one breaks existing rules). */
static int build_header(HttpTx *tx, int dir, Bytes *b)
{
	htp_table_t *t = headers_of(tx, dir);

	for (size_t i = 0; t && i < htp_table_size(t); i++) {
		htp_header_t *h = htp_table_get_index(t, i, NULL);

		if (!h || is_cookie_header(h->name, dir))
			continue;
		if (bytes_append_bstr(b, h->name) || bytes_append(b, ": ", 2) ||
		    bytes_append_bstr(b, h->value) || bytes_append(b, "\r\n", 2))
			return -1;
	}
	return 0;
}

/* "\r\nName1\r\nName2\r\n\r\n" */
static int build_names(HttpTx *tx, int dir, Bytes *b)
{
	htp_table_t *t = headers_of(tx, dir);

	if (bytes_append(b, "\r\n", 2))
		return -1;
	for (size_t i = 0; t && i < htp_table_size(t); i++) {
		htp_header_t *h = htp_table_get_index(t, i, NULL);

		if (h && (bytes_append_bstr(b, h->name) || bytes_append(b, "\r\n", 2)))
			return -1;
	}
	return bytes_append(b, "\r\n", 2);
}

/* line "\r\n", every header "Name: value\r\n" (cookies included), "\r\n" */
static int build_start(HttpTx *tx, int dir, Bytes *b)
{
	htp_table_t *t = headers_of(tx, dir);
	const bstr *line = dir == APP_DIR_TOSERVER ? tx->htx->request_line : tx->htx->response_line;

	if (!line || bytes_append_bstr(b, line) || bytes_append(b, "\r\n", 2))
		return -1;
	for (size_t i = 0; t && i < htp_table_size(t); i++) {
		htp_header_t *h = htp_table_get_index(t, i, NULL);

		if (h && (bytes_append_bstr(b, h->name) || bytes_append(b, ": ", 2) ||
			  bytes_append_bstr(b, h->value) || bytes_append(b, "\r\n", 2)))
			return -1;
	}
	return bytes_append(b, "\r\n", 2);
}

/* path[?query][#fragment] of the normalized uri; with uri-include-all the
 * scheme://user:pass@host:port part too (Suricata's uri-include-all). */
static int build_uri(HttpTx *tx, Bytes *b, int include_all)
{
	const htp_uri_t *u = tx->htx->parsed_uri;

	if (!u)
		return -1;
	if (include_all) {
		if (u->scheme && (bytes_append_bstr(b, u->scheme) || bytes_append(b, "://", 3)))
			return -1;
		if (u->username || u->password) {
			if (bytes_append_bstr(b, u->username))
				return -1;
			if (u->password && (bytes_append(b, ":", 1) ||
					    bytes_append_bstr(b, u->password)))
				return -1;
			if (bytes_append(b, "@", 1))
				return -1;
		}
		if (bytes_append_bstr(b, u->hostname))
			return -1;
		if (u->port && (bytes_append(b, ":", 1) || bytes_append_bstr(b, u->port)))
			return -1;
	}
	if (bytes_append_bstr(b, u->path))
		return -1;
	if (u->query && (bytes_append(b, "?", 1) || bytes_append_bstr(b, u->query)))
		return -1;
	if (u->fragment && (bytes_append(b, "#", 1) || bytes_append_bstr(b, u->fragment)))
		return -1;
	return (u->path || u->query || u->fragment || include_all) ? 0 : -1;
}

static int build_host(HttpTx *tx, Bytes *b)
{
	if (!tx->htx->request_hostname)
		return -1;
	if (bytes_append_bstr(b, tx->htx->request_hostname))
		return -1;
	for (uint32_t i = 0; i < b->len; i++)
		b->p[i] = (uint8_t)tolower(b->p[i]);
	return 0;
}

/* entries "Name: value" for http.request_header / http.response_header */
static int build_multi(HttpTx *tx, int dir, Derived *d)
{
	htp_table_t *t = headers_of(tx, dir);
	size_t n = t ? htp_table_size(t) : 0;

	d->off = calloc(n ? n * 2 : 1, sizeof(uint32_t));
	if (!d->off)
		return -1;
	d->off_bytes = (uint32_t)((n ? n * 2 : 1) * sizeof(uint32_t));
	http_mem_grow(d->off_bytes);
	for (size_t i = 0; i < n; i++) {
		htp_header_t *h = htp_table_get_index(t, i, NULL);
		uint32_t start = d->b.len;

		if (!h)
			continue;
		if (bytes_append_bstr(&d->b, h->name) || bytes_append(&d->b, ": ", 2) ||
		    bytes_append_bstr(&d->b, h->value))
			return -1;
		d->off[2 * d->n] = start;
		d->off[2 * d->n + 1] = d->b.len - start;
		d->n++;
	}
	return 0;
}

/* Builds a derived buffer once its source is final. 0 with the buffer, -1. */
static int derived(HttpTx *tx, int dir, enum derived which, Derived **out)
{
	Derived *d = &tx->d[dir][which];
	HttpState *hs = state_of_tx(tx->htx);
	int rc;

	if (d->built) {
		*out = d;
		return d->built == 1 ? 0 : -1;
	}
	switch (which) {
	case D_URI:
		rc = build_uri(tx, &d->b, hs ? hs->cfg->uri_include_all : 0);
		break;
	case D_HOST:
		rc = build_host(tx, &d->b);
		break;
	case D_HEADER:
		rc = build_header(tx, dir, &d->b);
		break;
	case D_NAMES:
		rc = build_names(tx, dir, &d->b);
		break;
	case D_START:
		rc = build_start(tx, dir, &d->b);
		break;
	default:
		rc = build_multi(tx, dir, d);
		break;
	}
	d->built = rc == 0 ? 1 : 2;
	*out = d;
	return rc;
}

/* Which progress a buffer needs before its content is final. */
static int needed_progress(int id)
{
	switch (id) {
	case HTTP_BUF_METHOD:
	case HTTP_BUF_URI:
	case HTTP_BUF_RAW_URI:
	case HTTP_BUF_PROTOCOL:
	case HTTP_BUF_REQUEST_LINE:
	case HTTP_BUF_STAT_CODE:
	case HTTP_BUF_STAT_MSG:
	case HTTP_BUF_RESPONSE_LINE:
		return HTTP_PROGRESS_LINE;
	case HTTP_BUF_CLIENT_BODY:
	case HTTP_BUF_SERVER_BODY:
		return HTTP_PROGRESS_HEADERS;
	default:
		/* libhtp sets HEADERS progress only after the header block */
		return HTTP_PROGRESS_BODY;
	}
}

static int two_sided(int id)
{
	switch (id) {
	case HTTP_BUF_PROTOCOL:
	case HTTP_BUF_HEADER:
	case HTTP_BUF_RAW_HEADER:
	case HTTP_BUF_COOKIE:
	case HTTP_BUF_CONTENT_TYPE:
	case HTTP_BUF_CONTENT_LEN:
	case HTTP_BUF_CONNECTION:   /* Suricata 8: request's or response's */
	case HTTP_BUF_HEADER_NAMES:
	case HTTP_BUF_START:
		return 1;
	default:
		return 0;
	}
}

/* libhtp moves progress to BODY (or COMPLETE) once the header block is in;
 * HEADERS means "inside the header block". */
static int side_ready(const HttpTx *tx, int dir, int need)
{
	int p = http_tx_progress(tx, dir);

	if (need == HTTP_PROGRESS_LINE)
		return p >= HTTP_PROGRESS_LINE;
	if (need == HTTP_PROGRESS_HEADERS)
		return p >= HTTP_PROGRESS_BODY;
	return p >= HTTP_PROGRESS_BODY;
}

static int derived_data(HttpTx *tx, int dir, enum derived which, const uint8_t **data,
			uint32_t *len)
{
	Derived *d;

	if (derived(tx, dir, which, &d) < 0)
		return -1;
	*data = d->b.p ? d->b.p : (const uint8_t *)"";
	*len = d->b.len;
	return 0;
}

static int raw_host(HttpTx *tx, const uint8_t **data, uint32_t *len)
{
	const htp_uri_t *u = tx->htx->parsed_uri_raw;

	/* the uri's host wins over the Host header (proxy requests) */
	if (u && u->hostname)
		return ok_bstr(u->hostname, data, len);
	return header_value(tx, APP_DIR_TOSERVER, HN_HOST, data, len);
}

static int body_data(HttpTx *tx, int dir, const uint8_t **data, uint32_t *len)
{
	Body *b = &tx->body[dir];

	if (!b->len)
		return -1;
	*data = b->buf;
	*len = b->len;
	return 0;
}

/* Buffers that are one header's value, and which header: index + 1 so that the
 * zero of every other buffer means "not a header value". */
static const uint8_t hdr_value_buf[HTTP_BUF_MAX] = {
	[HTTP_BUF_COOKIE] = HN_COOKIE + 1,
	[HTTP_BUF_USER_AGENT] = HN_USER_AGENT + 1,
	[HTTP_BUF_ACCEPT] = HN_ACCEPT + 1,
	[HTTP_BUF_ACCEPT_ENC] = HN_ACCEPT_ENC + 1,
	[HTTP_BUF_ACCEPT_LANG] = HN_ACCEPT_LANG + 1,
	[HTTP_BUF_CONNECTION] = HN_CONNECTION + 1,
	[HTTP_BUF_REFERER] = HN_REFERER + 1,
	[HTTP_BUF_CONTENT_TYPE] = HN_CONTENT_TYPE + 1,
	[HTTP_BUF_CONTENT_LEN] = HN_CONTENT_LEN + 1,
	[HTTP_BUF_LOCATION] = HN_LOCATION + 1,
	[HTTP_BUF_SERVER] = HN_SERVER + 1,
};

int http_tx_buffer_dir(HttpTx *tx, int id, int dir, const uint8_t **data, uint32_t *len)
{
	htp_tx_t *h;

	if (!tx || !data || !len || id < 0 || id >= HTTP_BUF_MAX)
		return -1;
	if (!two_sided(id))
		dir = http_buffer_direction(id);
	dir &= 1;
	if (!side_ready(tx, dir, needed_progress(id)))
		return -1;
	if (hdr_value_buf[id])
		return header_value(tx, dir, (enum hdr_name)(hdr_value_buf[id] - 1), data, len);
	h = tx->htx;
	switch (id) {
	case HTTP_BUF_METHOD:
		return ok_bstr(h->request_method, data, len);
	case HTTP_BUF_URI:
		return derived_data(tx, dir, D_URI, data, len);
	case HTTP_BUF_RAW_URI:
		return ok_bstr(h->request_uri, data, len);
	case HTTP_BUF_PROTOCOL:
		return ok_bstr(dir ? h->response_protocol : h->request_protocol, data, len);
	case HTTP_BUF_REQUEST_LINE:
		return ok_bstr(h->request_line, data, len);
	case HTTP_BUF_HEADER:
		return derived_data(tx, dir, D_HEADER, data, len);
	case HTTP_BUF_RAW_HEADER:
		if (!tx->raw_hdr[dir].len)
			return -1;
		*data = tx->raw_hdr[dir].p;
		*len = tx->raw_hdr[dir].len;
		return 0;
	case HTTP_BUF_HOST:
		return derived_data(tx, dir, D_HOST, data, len);
	case HTTP_BUF_RAW_HOST:
		return raw_host(tx, data, len);
	case HTTP_BUF_HEADER_NAMES:
		return derived_data(tx, dir, D_NAMES, data, len);
	case HTTP_BUF_START:
		return derived_data(tx, dir, D_START, data, len);
	case HTTP_BUF_CLIENT_BODY:
	case HTTP_BUF_SERVER_BODY:
		return body_data(tx, dir, data, len);
	case HTTP_BUF_STAT_CODE:
		return ok_bstr(h->response_status, data, len);
	case HTTP_BUF_STAT_MSG:
		return ok_bstr(h->response_message, data, len);
	case HTTP_BUF_RESPONSE_LINE:
		return ok_bstr(h->response_line, data, len);
	default:
		return -1;  /* multi-buffers: http_tx_buffer_multi() */
	}
}

int http_tx_buffer(HttpTx *tx, int buffer_id, const uint8_t **data, uint32_t *len)
{
	return http_tx_buffer_dir(tx, buffer_id, APP_DIR_TOSERVER, data, len);
}

int http_tx_buffer_multi(HttpTx *tx, int buffer_id, uint32_t idx, const uint8_t **data,
			 uint32_t *len)
{
	int dir;
	Derived *d;

	if (!tx || !data || !len)
		return -1;
	if (buffer_id == HTTP_BUF_REQUEST_HEADER)
		dir = APP_DIR_TOSERVER;
	else if (buffer_id == HTTP_BUF_RESPONSE_HEADER)
		dir = APP_DIR_TOCLIENT;
	else
		return -1;
	if (!side_ready(tx, dir, HTTP_PROGRESS_BODY))
		return -1;
	if (derived(tx, dir, D_MULTI, &d) < 0 || idx >= d->n)
		return -1;
	*data = d->b.p + d->off[2 * idx];
	*len = d->off[2 * idx + 1];
	return 0;
}

/* ---------------- what eve shows ---------------- */

static HttpBytes bytes_of(const bstr *b)
{
	HttpBytes v = { NULL, 0 };

	if (b) {
		v.p = bstr_ptr(b);
		v.len = bstr_len(b);
	}
	return v;
}

static HttpBytes eve_header_value(htp_table_t *t, const char *name)
{
	htp_header_t *h = t ? htp_table_get_c(t, name) : NULL;

	return bytes_of(h ? h->value : NULL);
}

int http_tx_loggable(const HttpTx *tx)
{
	return tx && tx->htx && (tx->htx->request_line || tx->htx->response_line);
}

int http_tx_view(const HttpTx *tx, HttpTxView *v)
{
	const htp_tx_t *h;

	if (!http_tx_loggable(tx))
		return -1;
	h = tx->htx;
	v->hostname = bytes_of(h->request_hostname);
	v->uri = bytes_of(h->request_uri);
	v->user_agent = eve_header_value(h->request_headers, "User-Agent");
	v->content_type = eve_header_value(h->response_headers, "Content-Type");
	v->referer = eve_header_value(h->request_headers, "Referer");
	v->method = bytes_of(h->request_method);
	v->protocol = bytes_of(h->request_protocol);
	v->status_string = bytes_of(h->response_status);
	v->location = eve_header_value(h->response_headers, "Location");
	v->content_range = eve_header_value(h->response_headers, "Content-Range");
	v->port = h->request_port_number;
	v->status = h->response_status_number;
	v->response_len = h->response_message_len;
	return 0;
}

size_t http_tx_header_count(const HttpTx *tx, int dir)
{
	htp_table_t *t = tx && tx->htx ? headers_of(tx, dir & 1) : NULL;

	return t ? htp_table_size(t) : 0;
}

int http_tx_header_at(const HttpTx *tx, int dir, size_t i, HttpBytes *name, HttpBytes *value)
{
	htp_header_t *h = htp_table_get_index(headers_of(tx, dir & 1), i, NULL);

	if (!h || !h->name || !h->value)
		return -1;
	*name = bytes_of(h->name);
	*value = bytes_of(h->value);
	return 0;
}

/* ---------------- files ---------------- */

static const htp_header_t *side_header(const HttpTx *tx, int dir, const char *name)
{
	htp_table_t *t = dir == APP_DIR_TOSERVER ? tx->htx->request_headers :
						   tx->htx->response_headers;

	return t ? htp_table_get_c(t, name) : NULL;
}

/* Suricata names an HTTP file after the normalized uri path when nothing
 * better is known. */
static void uri_name(const HttpTx *tx, const uint8_t **n, size_t *len)
{
	const htp_tx_t *h = tx->htx;
	const bstr *b = h->parsed_uri && h->parsed_uri->path ? h->parsed_uri->path : h->request_uri;

	*n = b ? bstr_ptr(b) : (const uint8_t *)"";
	*len = b ? bstr_len(b) : 0;
}

static void file_add(HttpTx *tx, int dir, const uint8_t *name, size_t nlen, const uint8_t *data,
		     size_t len, int gap, int how)
{
	File *f;

	tx->files[dir].tc = tx->mem_tc;
	f = files_open(&tx->files[dir], name, nlen, tx->log_id,
			     tx->store_all[dir] ? FILE_OPEN_STORE : 0);

	if (!f)
		return;
	file_append(f, data, len);
	if (gap)
		file_gap(f, 0);   /* see files_build */
	file_close(f, how);
}

enum file_mode { FM_UNKNOWN = 0, FM_NONE, FM_WHOLE, FM_MULTIPART };

/* The files' heap in http.memuse, brought up to date. */
static void files_charge(HttpTx *tx)
{
	uint64_t now = files_memuse(&tx->files[0]) + files_memuse(&tx->files[1]);

	if (now > tx->files_mem)
		http_mem_grow(now - tx->files_mem);
	else
		http_mem_shrink(tx->files_mem - now);
	tx->files_mem = now;
}

/* What a side's body is, file-wise (Suricata: POST bodies are multipart
 * parts with a filename, or one file; PUT bodies one file; responses one
 * file; other requests' bodies are not files). */
static int side_file_mode(const HttpTx *tx, int dir)
{
	const htp_header_t *ct;
	const uint8_t *bd;
	size_t blen;
	int m;

	if (dir == APP_DIR_TOCLIENT)
		return FM_WHOLE;
	m = tx->htx->request_method_number;
	if (m == HTP_M_PUT)
		return FM_WHOLE;
	if (m != HTP_M_POST)
		return FM_NONE;
	ct = side_header(tx, APP_DIR_TOSERVER, "Content-Type");
	if (ct && ct->value &&
	    multipart_boundary(bstr_ptr(ct->value), bstr_len(ct->value), &bd, &blen) == 0)
		return FM_MULTIPART;
	return FM_WHOLE;
}

/* A response is named by its first Content-Disposition line with a
 * filename= (the header lines as the response-header buffer has them: a
 * broken or folded line libhtp files elsewhere still counts, as in
 * Suricata), else by the uri path. */
static void side_file_name(HttpTx *tx, int dir, const uint8_t **n, size_t *nl)
{
	static const char hdr[] = "content-disposition:";
	const uint8_t *d;
	uint32_t len;

	for (uint32_t i = 0; dir == APP_DIR_TOCLIENT &&
	     http_tx_buffer_multi(tx, HTTP_BUF_RESPONSE_HEADER, i, &d, &len) == 0; i++) {
		if (len < sizeof(hdr) - 1 || strncasecmp((const char *)d, hdr, sizeof(hdr) - 1))
			continue;
		if (disposition_filename(d + sizeof(hdr) - 1, len - (sizeof(hdr) - 1), n, nl) == 0 &&
		    *nl)
			return;
		break;
	}
	uri_name(tx, n, nl);
}

/* How much of a whole-body file is kept: the body limit, as Suricata's
 * libhtp limits cut files; file-store's stream-depth instead when the
 * file may be stored (Suricata lifts the body limit for a transaction
 * flagged for storing; our filestore rules are evaluated once the
 * transaction is over, so every file is kept that far while file-store
 * and filestore rules, or force-filestore, are on). 0: unlimited. */
static uint64_t file_limit(const HttpState *hs, const HttpTx *tx, int dir)
{
	const FilesConfig *fc = files_config();

	if (fc->store_enabled && ((fc->need & FILE_NEED_STORE) || tx->store_all[dir]))
		return fc->stream_depth;
	return hs->cfg->body_limit[dir];
}

/* multipart parts (http-multipart.h) as files of the request side */
static int mp_part(void *arg, const uint8_t *hdr, size_t hlen)
{
	HttpTx *tx = arg;
	const uint8_t *n;
	size_t nl;

	if (multipart_headers_filename(hdr, hlen, &n, &nl) != 0)
		return 0;   /* a form field, not a file */
	tx->files[0].tc = tx->mem_tc;
	tx->file_open[0] = files_open(&tx->files[0], n, nl, tx->log_id,
				      tx->store_all[0] ? FILE_OPEN_STORE : 0);
	files_charge(tx);
	return tx->file_open[0] ? 1 : 0;
}

static void mp_data(void *arg, const uint8_t *d, size_t len)
{
	HttpTx *tx = arg;

	file_append(tx->file_open[0], d, len);
}

/* A part whose closing delimiter came is whole, whatever follows; one the
 * body ended in was cut short. */
static void mp_end(void *arg, int complete)
{
	HttpTx *tx = arg;
	File *f = tx->file_open[0];

	if (!f)
		return;
	if (!complete && tx->mp_gap)
		file_gap(f, 0);
	file_close(f, complete ? FILE_CLOSE_OK : FILE_CLOSE_TRUNCATED);
	tx->file_open[0] = NULL;
	files_charge(tx);
}

static const MultipartOps mp_ops = { mp_part, mp_data, mp_end };

/* A 206 response: its body is also a range of the file its Content-Range
 * names, reassembled with the other ranges of that host and file name (as
 * Suricata keys them); a Content-Range that is not one raises
 * range_invalid. Without a Host nothing is reassembled, as in Suricata. */
static void range_start(HttpState *hs, HttpTx *tx, const uint8_t *name, size_t nlen)
{
	const htp_header_t *h = side_header(tx, APP_DIR_TOCLIENT, "Content-Range");
	const bstr *host = tx->htx->request_hostname;
	HttpContentRange cr;
	uint8_t key[1024];
	size_t hl;

	if (!h || !h->value)
		return;
	if (http_content_range_parse(bstr_ptr(h->value), bstr_len(h->value), &cr) != 0 ||
	    !http_content_range_usable(&cr)) {
		tx_event(tx, EV_RANGE_INVALID);
		return;
	}
	if (!host || !bstr_len(host) || bstr_len(host) + nlen > sizeof(key))
		return;
	hl = bstr_len(host);
	memcpy(key, bstr_ptr(host), hl);
	memcpy(key + hl, name, nlen);
	tx->range = http_range_open(key, hl + nlen, &cr, (uint64_t)hs->f->last.tv_sec);
	tx->range_off = (uint64_t)cr.start;
}

/* The side's file mode, decided at its first body bytes, and what goes
 * with it: the whole-body file opened, or the multipart parser. */
static void files_start(HttpState *hs, HttpTx *tx, int dir)
{
	const htp_header_t *ct;
	const uint8_t *n, *bd;
	size_t nl, blen;

	tx->file_mode[dir] = (uint8_t)side_file_mode(tx, dir);
	if (tx->file_mode[dir] == FM_MULTIPART) {
		ct = side_header(tx, APP_DIR_TOSERVER, "Content-Type");
		tx->mp = malloc(sizeof(*tx->mp));
		if (!tx->mp || multipart_boundary(bstr_ptr(ct->value), bstr_len(ct->value), &bd,
						  &blen) != 0 ||
		    multipart_init(tx->mp, bd, blen) != 0) {
			/* a boundary past RFC 2046's 70 bytes: no parts */
			if (!tx->mp)
				tx_counted(hs, app_layer_counters.err_http_alloc);
			free(tx->mp);
			tx->mp = NULL;
			tx->file_mode[dir] = FM_NONE;
			return;
		}
		http_mem_grow(sizeof(*tx->mp));
		return;
	}
	if (tx->file_mode[dir] != FM_WHOLE)
		return;
	side_file_name(tx, dir, &n, &nl);
	if (dir == APP_DIR_TOCLIENT && tx->htx->response_status_number == 206)
		range_start(hs, tx, n, nl);
	tx->files[dir].tc = tx->mem_tc;
	tx->file_open[dir] = files_open(&tx->files[dir], n, nl, tx->log_id,
					tx->store_all[dir] ? FILE_OPEN_STORE : 0);
	if (!tx->file_open[dir])
		tx_counted(hs, app_layer_counters.err_http_alloc);
	files_charge(tx);
}

/* Body bytes to the side's files as they come, up to file_limit(). */
static void files_feed(HttpState *hs, HttpTx *tx, int dir, const uint8_t *data, size_t len)
{
	uint64_t limit;

	if (tx->file_mode[dir] == FM_UNKNOWN)
		files_start(hs, tx, dir);
	if (tx->file_mode[dir] == FM_NONE || tx->file_cut[dir] || tx->files_built[dir])
		return;
	limit = file_limit(hs, tx, dir);
	if (limit && tx->file_fed[dir] + len > limit) {
		len = tx->file_fed[dir] < limit ? (size_t)(limit - tx->file_fed[dir]) : 0;
		tx->file_cut[dir] = 1;
	}
	tx->file_fed[dir] += len;
	if (tx->file_mode[dir] == FM_MULTIPART)
		multipart_feed(tx->mp, data, len, &mp_ops, tx);
	else if (tx->file_open[dir])
		file_append(tx->file_open[dir], data, len);
	if (tx->range && dir == APP_DIR_TOCLIENT) {
		http_range_data(tx->range, tx->range_off, data, len);
		tx->range_off += len;
	}
}

/* len body bytes of the side are missing: a whole-body file counts them
 * in its size and has gaps; a multipart part in progress is cut there
 * (its delimiter cannot be found across a hole). */
static void files_gap(HttpState *hs, HttpTx *tx, int dir, size_t len)
{
	if (tx->file_mode[dir] == FM_UNKNOWN)
		files_start(hs, tx, dir);
	if (tx->file_mode[dir] == FM_NONE || tx->file_cut[dir] || tx->files_built[dir])
		return;
	/* the hole counts in the file's size, not against its limit: only
	 * bytes seen do, as Suricata counts the body it keeps
	 * (suricata-verify bug-4953: 100kb seen plus the gaps) */
	if (tx->file_mode[dir] == FM_WHOLE && tx->file_open[dir])
		file_gap(tx->file_open[dir], len);
	if (tx->range && dir == APP_DIR_TOCLIENT)
		tx->range_off += len;
	files_charge(tx);
}

/* The range's tx is over: when its bytes made the file whole, the whole
 * file is one more file of this transaction (Suricata logs it there). */
static void range_finish(HttpTx *tx, int dir, const uint8_t *name, size_t nlen)
{
	const uint8_t *data;
	uint64_t len;
	File *f;

	if (!tx->range || dir != APP_DIR_TOCLIENT)
		return;
	if (http_range_take_whole(tx->range, &data, &len)) {
		f = files_open(&tx->files[dir], name, nlen, tx->log_id,
			       tx->store_all[dir] ? FILE_OPEN_STORE : 0);
		if (f) {
			file_append(f, data, (size_t)len);
			file_close(f, FILE_CLOSE_OK);
		}
	}
	http_range_release(tx->range);
	tx->range = NULL;
}

/* The side's files are over once the side is (or at the end, final):
 * what was fed (dechunked, decompressed, up to file_limit(): Suricata's
 * libhtp limits cut files short too, and a file cut short is TRUNCATED)
 * is closed. */
static void files_build(HttpTx *tx, int dir, int final)
{
	int complete = http_tx_progress(tx, dir) == HTTP_PROGRESS_COMPLETE;
	const uint8_t *n;
	size_t nl;

	if (tx->files_built[dir] || (!complete && !final) || !tx->htx)
		return;
	tx->files_built[dir] = 1;
	if (tx->file_mode[dir] == FM_MULTIPART) {
		/* parts closed at their delimiters; the one the body ends in
		 * is cut short */
		tx->mp_gap = tx->gap[dir] != 0;
		if (tx->mp)
			multipart_finish(tx->mp, &mp_ops, tx);
	} else if (tx->file_open[dir]) {
		/* the whole-body file fed as the body came; named now, when
		 * every header line is in (as Suricata logs it) */
		File *f = tx->file_open[dir];

		side_file_name(tx, dir, &n, &nl);
		file_set_name(f, n, nl);

		/* a gap libhtp was handed is in the size already; one that
		 * stopped the side counts what was seen, gaps set */
		if (tx->gap[dir])
			file_gap(f, 0);
		file_close(f, complete && !tx->file_cut[dir] && !tx->gap[dir] && !tx->superseded ?
				      FILE_CLOSE_OK : FILE_CLOSE_TRUNCATED);
		tx->file_open[dir] = NULL;
		range_finish(tx, dir, n, nl);
	} else if (tx->file_mode[dir] == FM_UNKNOWN && tx->gap[dir] &&
		   side_file_mode(tx, dir) == FM_WHOLE) {
		/* the body was lost before its first byte */
		side_file_name(tx, dir, &n, &nl);
		file_add(tx, dir, n, nl, NULL, 0, 1, FILE_CLOSE_TRUNCATED);
	}
	files_charge(tx);
}

FileContainer *http_tx_files(HttpTx *tx, int dir, int final)
{
	if (!tx)
		return NULL;
	dir &= 1;
	files_build(tx, dir, final);
	return &tx->files[dir];
}

void http_tx_files_store(const Flow *f, HttpTx *tx, unsigned dirs, int flow_scope, uint32_t sid)
{
	HttpState *hs = flow_http(f);

	for (int d = 0; d < 2; d++) {
		if (!(dirs & (1u << d)))
			continue;
		if (tx) {
			tx->store_all[d] = 1;
			for (File *fl = tx->files[d].head; fl; fl = (File *)file_next(fl))
				file_mark_store(fl, sid);
		}
		/* transactions after this one: those already started too (a
		 * pipelined request), not earlier ones still open (Suricata's
		 * flow scope reaches the files opened from now on) */
		if (flow_scope && hs) {
			hs->store_flow[d] = 1;
			for (uint64_t id = tx ? tx->id + 1 : 0; id < http_state_tx_count(hs); id++) {
				HttpTx *t = http_state_tx_get(hs, id);

				if (t && !t->files_built[d])
					t->store_all[d] = 1;
			}
		}
	}
}
