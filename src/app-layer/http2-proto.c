/* HTTP/2's entry in the application-protocol registry: its configuration
 * (app-layer.protocols.http2.{enabled, max-streams, max-table-size,
 * max-reassembly-size}), recognition, the frame parser and the
 * transactions of http2.h.
 *
 * Recognition, as Suricata's: the client connection preface ("PRI *
 * HTTP/2.0") on any port, and a server's first frame being a SETTINGS on
 * stream 0; an HTTP/1 flow turns into HTTP/2 after a 101 to "Upgrade: h2c"
 * (http-upgrade.c).
 *
 * Memory: a non-DATA frame is buffered up to H2_MAX_FRAME bytes (a longer
 * one is a long_frame_data event and is skipped); DATA is never buffered,
 * a side keeps at most max-reassembly-size bytes of body and of headers
 * (reassembly_limit_reached); a flow keeps at most max-streams live
 * transactions (too_many_streams: the older ones are closed, logged and
 * freed). HPACK's dynamic table is bounded by max-table-size. */
#include "config.h"
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/frames.h"
#include "app-layer/http.h"
#include "app-layer/http2.h"
#include "app-layer/http2-decode.h"
#include "app-layer/doh2.h"
#include "conf/conf.h"
#include "util/log.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifdef HAVE_NGHTTP2
#include <nghttp2/nghttp2.h>
#endif

#define H2_KEY "app-layer.protocols.http2."
#define H2_MAX_FRAME 65536u
#define H2_MAX_HEADERS 1024u
#define H2_FLAG_END_STREAM 0x1
#define H2_FLAG_ACK 0x1
#define H2_FLAG_END_HEADERS 0x4
#define H2_FLAG_PADDED 0x8
#define H2_FLAG_PRIORITY 0x20

static const uint8_t preface[] = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
#define PREFACE_LEN 24u

static struct {
	int enabled;
	uint32_t max_streams;
	uint32_t max_table_size;
	uint32_t max_reassembly;
} h2_conf;

static void h2_config_defaults(AppLayerConfig *cfg)
{
	(void)cfg;
	h2_conf.enabled = 1;
	h2_conf.max_streams = 4096;
	h2_conf.max_table_size = 65536;
	h2_conf.max_reassembly = 102400;
}

static int h2_config_load(AppLayerConfig *cfg)
{
	int64_t n;
	uint64_t v;
	int rc = 0, r;

	(void)cfg;
	if (app_conf_enabled(H2_KEY "enabled", &h2_conf.enabled) < 0)
		rc = -1;
#ifndef HAVE_NGHTTP2
	/* the one line that says why http2 rules are skipped as disabled */
	if (h2_conf.enabled)
		log_warning("http2: built without libnghttp2 (configure): HTTP/2 is not parsed "
			    "and rules on it are skipped");
#endif
	r = app_conf_int_range(H2_KEY "max-streams", &n, UINT32_MAX);
	if (r < 0)
		rc = -1;
	else if (r > 0)
		h2_conf.max_streams = n ? (uint32_t)n : 1;
	r = app_conf_size_range(H2_KEY "max-table-size", &v, UINT32_MAX);
	if (r < 0)
		rc = -1;
	else if (r > 0)
		h2_conf.max_table_size = (uint32_t)v;
	r = app_conf_size_range(H2_KEY "max-reassembly-size", &v, UINT32_MAX);
	if (r < 0)
		rc = -1;
	else if (r > 0)
		h2_conf.max_reassembly = (uint32_t)v;
	return rc;
}

static int h2_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
#ifdef HAVE_NGHTTP2
	return h2_conf.enabled;
#else
	return 0;
#endif
}

static AppTxCounters ctr;

static void h2_register_counters(void)
{
	app_tx_counters_register(&ctr, "http2");
	files_register_counters();
}

/* ---------------- detection ---------------- */

static int h2_probe(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
		    uint32_t len)
{
	(void)cfg;
	(void)f;
	if (dir == APP_DIR_TOSERVER) {
		uint32_t n = len < PREFACE_LEN ? len : PREFACE_LEN;

		if (memcmp(buf, preface, n))
			return DET_NO;
		return n < PREFACE_LEN ? DET_MORE : DET_YES;
	}
	/* a server starts with its SETTINGS (stream 0, whole 6-byte
	 * settings), but Suricata names the flow from the client's preface
	 * only: the server's frames wait for it (MORE), so that they are
	 * parsed, and their transactions logged, once it came */
	if (len < 9)
		return len && buf[0] != 0 ? DET_NO : DET_MORE;
	{
		uint32_t flen = (uint32_t)buf[0] << 16 | (uint32_t)buf[1] << 8 | buf[2];

		if (buf[3] != H2_SETTINGS || (buf[4] & ~H2_FLAG_ACK) || buf[5] || buf[6] || buf[7] ||
		    buf[8] || flen % 6 || flen > 6 * H2_MAX_SETTINGS)
			return DET_NO;
	}
	return DET_MORE;
}

/* ---------------- state ---------------- */

typedef struct H2Dir {
	uint8_t hdr[9];
	uint8_t hlen;               /* bytes of the frame header so far */
	uint8_t in_frame;           /* the header is complete: payload follows */
	uint8_t type, flags;
	uint32_t flen, sid;
	uint32_t got;               /* payload bytes consumed */
	uint8_t *buf;               /* a non-DATA payload (H2_MAX_FRAME at most) */
	uint32_t blen;
	uint8_t skip;               /* the payload is too long: skipped */
	int pad;                    /* DATA: pad length, -1 not read yet */
	uint32_t data_left;         /* DATA: data bytes still to come */
	/* a header block across CONTINUATIONs */
	uint8_t *hb;
	uint32_t hblen, hbcap;
	uint32_t hb_sid;
	uint8_t hb_open, hb_end_stream;
	uint32_t magic;             /* preface bytes seen (to-server) */
	uint8_t given_up;
#ifdef HAVE_NGHTTP2
	nghttp2_hd_inflater *inf;
#endif
} H2Dir;

typedef struct H2State {
	AppTxList txs;              /* first: txlist.h's ops read it */
	H2Dir d[2];
	AppLayerThread *at;
	int detect_only;
	/* during a parse call with frames on: the flow, and the stream offset
	 * of the chunk's first byte and the chunk itself */
	Flow *f;
	Flow *flow;                 /* of the parse call, always (DoH marks it) */
	uint64_t chunk_off;
	const uint8_t *chunk;
} H2State;

/* Suricata's HTTP/2 frame types: the frame, its 9-byte header, its payload */
enum { H2_FRAME_PDU, H2_FRAME_HDR, H2_FRAME_DATA };
static const char *const h2_frame_names[] = { "pdu", "hdr", "data", NULL };

static void side_free(Http2Side *s)
{
	for (uint32_t i = 0; i < s->nhdrs; i++)
		free(s->hdrs[i].name);
	free(s->hdrs);
	free(s->body);
	free(s->lines);
	free(s->names);
	free(s->cookie);
	free(s->line);
	free(s->host);
}

static void tx_free(AppTx *t)
{
	Http2Tx *tx = (Http2Tx *)t;

	side_free(&tx->side[0]);
	side_free(&tx->side[1]);
	files_container_free(&tx->files[0]);
	files_container_free(&tx->files[1]);
	http2_decoder_free(tx->dec[0]);
	http2_decoder_free(tx->dec[1]);
	free(tx);
}

#ifdef HAVE_NGHTTP2
static nghttp2_hd_inflater *inflater_new(void)
{
	nghttp2_hd_inflater *inf = NULL;

	if (nghttp2_hd_inflate_new(&inf) != 0)
		return NULL;
	/* a peer's encoder may use the table size its SETTINGS allowed: the
	 * configured bound accepts it without following each SETTINGS ack */
	nghttp2_hd_inflate_change_table_size(inf, h2_conf.max_table_size);
	return inf;
}
#endif

static void *h2_state_new(AppLayerThread *at, Flow *f)
{
	H2State *st = calloc(1, sizeof(*st));

	(void)f;
	if (!st) {
		app_tx_count(at, &ctr, APP_CTR_ALLOC, 1);
		return NULL;
	}
	txl_init(&st->txs, ALPROTO_HTTP2, tx_free);
	st->detect_only = h2_conf.enabled == 2;
	for (int d = 0; d < 2; d++)
		st->d[d].pad = -1;
	return st;
}

static void h2_state_free(void *state)
{
	H2State *st = state;

	if (!st)
		return;
	txl_free(&st->txs);
	for (int d = 0; d < 2; d++) {
		free(st->d[d].buf);
		free(st->d[d].hb);
#ifdef HAVE_NGHTTP2
		if (st->d[d].inf)
			nghttp2_hd_inflate_del(st->d[d].inf);
#endif
	}
	free(st);
}

static Http2Tx *tx_new(H2State *st, uint32_t sid)
{
	Http2Tx *tx = calloc(1, sizeof(*tx));

	if (!tx) {
		app_tx_count(st->at, &ctr, APP_CTR_ALLOC, 1);
		return NULL;
	}
	if (st->txs.live >= h2_conf.max_streams) {
		txl_close_all(&st->txs);
		tx->base.events |= 1u << H2_EV_TOO_MANY_STREAMS;
	}
	tx->stream_id = sid;
	for (int d = 0; d < 2; d++) {
		tx->side[d].error_code = -1;
		tx->side[d].priority = -1;
	}
	txl_add(&st->txs, &tx->base);
	app_tx_count(st->at, &ctr, APP_CTR_TX, 1);
	return tx;
}

/* A frame of stream 0: a transaction of its own, complete at once. */
static Http2Tx *tx_global(H2State *st)
{
	Http2Tx *tx = tx_new(st, 0);

	if (tx)
		tx->base.done[0] = tx->base.done[1] = 1;
	return tx;
}

/* The live transaction of stream sid, or a new one. */
static Http2Tx *tx_stream(H2State *st, uint32_t sid)
{
	for (AppTx *t = st->txs.head; t; t = t->next) {
		Http2Tx *tx = (Http2Tx *)t;

		if (tx->stream_id == sid && !(t->done[0] && t->done[1]))
			return tx;
	}
	return tx_new(st, sid);
}

static void event(H2State *st, Http2Tx *tx, int e)
{
	if (!tx)
		tx = tx_global(st);
	if (tx)
		tx->base.events |= 1u << e;
}

/* ---------------- files ---------------- */

FileContainer *http2_files_of_tx(void *txp, int dir, int final)
{
	Http2Tx *tx = txp;

	(void)final;
	return &tx->files[dir & 1];
}

void http2_files_store(const Flow *f, void *txp, unsigned dirs, int flow_scope, uint32_t sid)
{
	Http2Tx *tx = txp;

	(void)f;
	(void)flow_scope;
	/* a packet rule (no transaction) may carry filestore too */
	if (!tx)
		return;
	for (int d = 0; d < 2; d++) {
		if (!(dirs & (1u << d)))
			continue;
		tx->store[d] = 1;
		for (const File *fl = files_first(&tx->files[d]); fl; fl = file_next(fl))
			file_mark_store((File *)fl, sid);
	}
}

static void file_out(void *file, const uint8_t *p, uint32_t n)
{
	file_append(file, p, n);
}

/* A side's DATA into its file: decoded when the side named a
 * Content-Encoding Suricata 8 decodes (http2-decode.h). */
static void file_data(H2State *st, Http2Tx *tx, int dir, const uint8_t *p, uint32_t n)
{
	if (!tx->file[dir]) {
		uint32_t nl = 0;
		const uint8_t *name = http2_header(&tx->side[APP_DIR_TOSERVER], ":path", &nl);

		tx->files[dir].tc = st->at ? st->at->tc : NULL;
		tx->file[dir] = files_open(&tx->files[dir], name ? name : (const uint8_t *)"",
					   nl, tx->base.id, tx->store[dir] ? FILE_OPEN_STORE : 0);
		if (!tx->file[dir])
			return;
	}
	if (!tx->dec_tried[dir]) {
		uint32_t cl = 0;
		const uint8_t *ce = http2_header(&tx->side[dir], "content-encoding", &cl);

		tx->dec_tried[dir] = 1;
		tx->dec[dir] = http2_decoder_new(ce, cl);
	}
	if (tx->dec[dir])
		http2_decode(tx->dec[dir], p, n, file_out, tx->file[dir]);
	else
		file_append(tx->file[dir], p, n);
}

static void file_end(Http2Tx *tx, int dir, int how)
{
	if (tx->file[dir]) {
		file_close(tx->file[dir], how);
		tx->file[dir] = NULL;
	}
}

/* ---------------- headers ---------------- */

static void add_header(H2State *st, Http2Tx *tx, int dir, const uint8_t *n, size_t nl,
		       const uint8_t *v, size_t vl, int64_t size_update)
{
	Http2Side *s = &tx->side[dir];
	Http2Header *h;

	if (s->nhdrs >= H2_MAX_HEADERS || s->hdr_bytes + nl + vl > h2_conf.max_reassembly) {
		event(st, tx, H2_EV_REASSEMBLY_LIMIT_REACHED);
		return;
	}
	if (s->nhdrs == s->cap) {
		uint32_t cap = s->cap ? s->cap * 2 : 8;
		Http2Header *nh = realloc(s->hdrs, cap * sizeof(*nh));

		if (!nh)
			return;
		s->hdrs = nh;
		s->cap = cap;
	}
	h = &s->hdrs[s->nhdrs];
	h->name = malloc(nl + vl + 1);
	if (!h->name)
		return;
	if (nl)
		memcpy(h->name, n, nl);
	h->value = h->name + nl;
	if (vl)
		memcpy(h->value, v, vl);
	h->name[nl + vl] = '\0';
	h->nlen = (uint32_t)nl;
	h->vlen = (uint32_t)vl;
	h->size_update = size_update;
	s->nhdrs++;
	s->hdr_bytes += (uint32_t)(nl + vl);
	txl_charge(&st->txs, &tx->base, (uint32_t)(nl + vl));
}

/* Appends n bytes to a growing buffer */
static int cat(uint8_t **b, uint32_t *len, uint32_t *cap, const void *p, uint32_t n)
{
	if (!n)
		return 0;
	if (*len + n > *cap) {
		uint32_t c = *cap ? *cap : 64;
		uint8_t *nb;

		while (c < *len + n)
			c *= 2;
		if (!(nb = realloc(*b, c)))
			return -1;
		*b = nb;
		*cap = c;
	}
	memcpy(*b + *len, p, n);
	*len += n;
	return 0;
}

static int is_pseudo(const Http2Header *h)
{
	return h->nlen && h->name[0] == ':';
}

/* The http.* buffers of a side whose headers are complete: Suricata 8's
 * forms for HTTP/2 (http.header: "name: value\r\n" per header, pseudo
 * headers included; http.header_names: "\r\n" between and around). */
static void side_buffers(Http2Side *s, int dir)
{
	uint32_t cap = 0, ncap = 0, ccap = 0, lcap = 0;
	const uint8_t *a, *b;
	uint32_t al = 0, bl = 0;

	free(s->lines);
	free(s->names);
	free(s->cookie);
	free(s->line);
	free(s->host);
	s->lines = s->names = s->cookie = s->line = s->host = NULL;
	s->lines_len = s->names_len = s->cookie_len = s->line_len = s->host_len = 0;
	cat(&s->names, &s->names_len, &ncap, "\r\n", 2);
	for (uint32_t i = 0; i < s->nhdrs; i++) {
		const Http2Header *h = &s->hdrs[i];

		if (h->size_update >= 0)
			continue;
		cat(&s->lines, &s->lines_len, &cap, h->name, h->nlen);
		cat(&s->lines, &s->lines_len, &cap, ": ", 2);
		cat(&s->lines, &s->lines_len, &cap, h->value, h->vlen);
		cat(&s->lines, &s->lines_len, &cap, "\r\n", 2);
		cat(&s->names, &s->names_len, &ncap, h->name, h->nlen);
		cat(&s->names, &s->names_len, &ncap, "\r\n", 2);
		if (h->nlen == 6 && !strncasecmp((const char *)h->name, "cookie", 6)) {
			if (s->cookie_len)
				cat(&s->cookie, &s->cookie_len, &ccap, "; ", 2);
			cat(&s->cookie, &s->cookie_len, &ccap, h->value, h->vlen);
		}
	}
	cat(&s->names, &s->names_len, &ncap, "\r\n", 2);
	(void)is_pseudo;
	if (dir == APP_DIR_TOSERVER) {
		a = http2_header(s, ":method", &al);
		b = http2_header(s, ":path", &bl);
		if (a || b) {
			cat(&s->line, &s->line_len, &lcap, a ? a : (const uint8_t *)"", al);
			cat(&s->line, &s->line_len, &lcap, " ", 1);
			cat(&s->line, &s->line_len, &lcap, b ? b : (const uint8_t *)"", bl);
			cat(&s->line, &s->line_len, &lcap, " HTTP/2", 7);
		}
		a = http2_header(s, ":authority", &al);
		if (!a)
			a = http2_header(s, "host", &al);
		if (a) {
			const uint8_t *at = memchr(a, '@', al);
			uint32_t hcap = 0, hl;

			if (at) {
				al -= (uint32_t)(at + 1 - a);
				a = at + 1;
			}
			hl = al;
			/* the port goes, as HTTP/1's normalised host (not in an IPv6 literal) */
			for (uint32_t i = al; i > 0; i--) {
				if (a[i - 1] == ']')
					break;
				if (a[i - 1] == ':') {
					hl = i - 1;
					break;
				}
			}
			cat(&s->host, &s->host_len, &hcap, a, hl);
			for (uint32_t i = 0; i < s->host_len; i++)
				s->host[i] = (uint8_t)tolower(s->host[i]);
		}
	} else {
		a = http2_header(s, ":status", &al);
		if (a) {
			cat(&s->line, &s->line_len, &lcap, "HTTP/2 ", 7);
			cat(&s->line, &s->line_len, &lcap, a, al);
			cat(&s->line, &s->line_len, &lcap, "\r\n", 2);
		}
	}
	s->headers_done = 1;
}

/* Checks Suricata makes on a request's pseudo headers. */
static void request_checks(H2State *st, Http2Tx *tx)
{
	const Http2Side *s = &tx->side[APP_DIR_TOSERVER];
	uint32_t al, hl;
	const uint8_t *a = http2_header(s, ":authority", &al);
	const uint8_t *h = http2_header(s, "host", &hl);

	if (a && memchr(a, '@', al))
		event(st, tx, H2_EV_USERINFO_IN_URI);
	if (a && h && (al != hl || strncasecmp((const char *)a, (const char *)h, al)))
		event(st, tx, H2_EV_AUTHORITY_HOST_MISMATCH);
}

/* Leading dynamic table size updates of a block (RFC 7541 6.3): kept as
 * eve shows them; the inflater applies them too. Returns how many bytes
 * they took. */
static uint32_t size_updates(H2State *st, Http2Tx *tx, int dir, const uint8_t *p, uint32_t n)
{
	uint32_t i = 0;

	while (i < n && (p[i] & 0xe0) == 0x20) {
		uint64_t v = p[i] & 0x1f;
		uint32_t shift = 0;

		i++;
		if (v == 0x1f) {
			for (;;) {
				if (i >= n || shift > 28) {
					event(st, tx, H2_EV_HEADER_INTEGER_OVERFLOW);
					return n;
				}
				v += (uint64_t)(p[i] & 0x7f) << shift;
				shift += 7;
				if (!(p[i++] & 0x80))
					break;
			}
		}
		add_header(st, tx, dir, NULL, 0, NULL, 0, (int64_t)v);
		tx->side[dir].frame_types |= 0;
	}
	return i;
}

static void decode_block(H2State *st, int dir, Http2Tx *tx, const uint8_t *p, uint32_t n)
{
#ifdef HAVE_NGHTTP2
	H2Dir *d = &st->d[dir];

	size_updates(st, tx, dir, p, n);
	if (!d->inf && !(d->inf = inflater_new()))
		return;
	for (;;) {
		nghttp2_nv nv;
		int fl = 0;
		ssize_t r = nghttp2_hd_inflate_hd2(d->inf, &nv, &fl, p, n, 1);

		if (r < 0) {
			/* the table is lost with the inflater: later blocks may
			 * not decode either, as in Suricata */
			event(st, tx, H2_EV_INVALID_HEADER);
			nghttp2_hd_inflate_del(d->inf);
			d->inf = NULL;
			return;
		}
		/* an empty block comes with p NULL: no offset on it */
		if (r > 0) {
			p += r;
			n -= (uint32_t)r;
		}
		if (fl & NGHTTP2_HD_INFLATE_EMIT)
			add_header(st, tx, dir, nv.name, nv.namelen, nv.value, nv.valuelen, -1);
		if (fl & NGHTTP2_HD_INFLATE_FINAL) {
			nghttp2_hd_inflate_end_headers(d->inf);
			break;
		}
		if (r == 0 && !(fl & NGHTTP2_HD_INFLATE_EMIT))
			break;
	}
#else
	(void)st; (void)dir; (void)tx; (void)p; (void)n;
#endif
}

/* The end of a header block: decode it into its stream's transaction. */
static void block_end(H2State *st, int dir)
{
	H2Dir *d = &st->d[dir];
	Http2Tx *tx = tx_stream(st, d->hb_sid);

	d->hb_open = 0;
	if (!tx) {
		d->hblen = 0;
		return;
	}
	decode_block(st, dir, tx, d->hb, d->hblen);
	d->hblen = 0;
	side_buffers(&tx->side[dir], dir);
	tx->base.some[dir] = 1;
	if (dir == APP_DIR_TOSERVER) {
		request_checks(st, tx);
		if (doh2_is_request(&tx->side[dir]))
			doh2_flow_mark(st->flow);
	}
	if (d->hb_end_stream) {
		/* trailers end a side whose DATA was a file */
		file_end(tx, dir, FILE_CLOSE_OK);
		tx->base.done[dir] = 1;
	}
	/* a response's end ends the request side too (an aborted upload) */
	if (dir == APP_DIR_TOCLIENT && tx->base.done[1]) {
		file_end(tx, APP_DIR_TOSERVER, FILE_CLOSE_TRUNCATED);
		tx->base.done[0] = 1;
	}
}

static void block_add(H2State *st, int dir, const uint8_t *p, uint32_t n)
{
	H2Dir *d = &st->d[dir];

	if (d->hblen + n > h2_conf.max_reassembly) {
		event(st, NULL, H2_EV_REASSEMBLY_LIMIT_REACHED);
		return;
	}
	cat(&d->hb, &d->hblen, &d->hbcap, p, n);
}

/* ---------------- frames ---------------- */

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void on_data(H2State *st, int dir, const uint8_t *p, uint32_t n)
{
	H2Dir *d = &st->d[dir];
	Http2Tx *tx;
	Http2Side *s;
	uint32_t keep;

	if (!d->sid || !(tx = tx_stream(st, d->sid)))
		return;
	file_data(st, tx, dir, p, n);
	s = &tx->side[dir];
	s->body_seen += n;
	keep = s->body_len < h2_conf.max_reassembly ? h2_conf.max_reassembly - s->body_len : 0;
	if (keep > n)
		keep = n;
	if (keep) {
		uint32_t cap = s->body_len;

		/* the buffer grows by what comes: cap is its length */
		uint8_t *nb = realloc(s->body, (size_t)cap + keep);

		if (nb) {
			memcpy(nb + s->body_len, p, keep);
			s->body = nb;
			s->body_len += keep;
			txl_charge(&st->txs, &tx->base, keep);
		}
	}
}

/* A DATA frame's header: its stream, its end. */
static void data_begin(H2State *st, int dir)
{
	H2Dir *d = &st->d[dir];
	Http2Tx *tx;

	if (!d->sid) {
		event(st, NULL, H2_EV_INVALID_FRAME_DATA);
		return;
	}
	if ((tx = tx_stream(st, d->sid))) {
		tx->side[dir].frame_types |= 1u << H2_DATA;
		tx->base.some[dir] = 1;
	}
}

static void data_end(H2State *st, int dir)
{
	H2Dir *d = &st->d[dir];
	Http2Tx *tx;

	if (!d->sid || !(d->flags & H2_FLAG_END_STREAM) || !(tx = tx_stream(st, d->sid)))
		return;
	file_end(tx, dir, FILE_CLOSE_OK);
	tx->base.done[dir] = 1;
	if (dir == APP_DIR_TOCLIENT) {
		file_end(tx, APP_DIR_TOSERVER, FILE_CLOSE_TRUNCATED);
		tx->base.done[0] = 1;
	}
}

/* A whole non-DATA frame (payload p, n bytes). */
static void on_frame(H2State *st, int dir, const uint8_t *p, uint32_t n)
{
	H2Dir *d = &st->d[dir];
	Http2Tx *tx = NULL;
	Http2Side *s;
	uint32_t pad = 0;

	if (d->hb_open && d->type != H2_CONTINUATION) {
		/* a block must go on with CONTINUATIONs of its stream */
		event(st, NULL, H2_EV_INVALID_FRAME_HEADER);
		block_end(st, dir);
	}
	switch (d->type) {
	case H2_HEADERS:
	case H2_PUSH_PROMISE:
		if (!d->sid) {
			event(st, NULL, H2_EV_INVALID_FRAME_HEADER);
			return;
		}
		if (d->flags & H2_FLAG_PADDED) {
			if (!n || (pad = p[0]) + 1 > n) {
				event(st, NULL, H2_EV_INVALID_FRAME_LENGTH);
				return;
			}
			p++;
			n -= pad + 1;
		}
		tx = tx_stream(st, d->sid);
		if (!tx)
			return;
		s = &tx->side[dir];
		s->frame_types |= 1u << d->type;
		if (d->type == H2_HEADERS && (d->flags & H2_FLAG_PRIORITY)) {
			if (n < 5) {
				event(st, tx, H2_EV_INVALID_FRAME_LENGTH);
				return;
			}
			s->priority = p[4];
			p += 5;
			n -= 5;
		} else if (d->type == H2_PUSH_PROMISE) {
			if (n < 4) {
				event(st, tx, H2_EV_INVALID_FRAME_LENGTH);
				return;
			}
			p += 4;
			n -= 4;
		}
		d->hb_sid = d->sid;
		d->hb_open = 1;
		d->hb_end_stream = d->type == H2_HEADERS && (d->flags & H2_FLAG_END_STREAM);
		d->hblen = 0;
		block_add(st, dir, p, n);
		if (d->flags & H2_FLAG_END_HEADERS)
			block_end(st, dir);
		return;
	case H2_CONTINUATION:
		if (!d->hb_open || d->sid != d->hb_sid) {
			event(st, NULL, H2_EV_INVALID_FRAME_HEADER);
			return;
		}
		if ((tx = tx_stream(st, d->sid)))
			tx->side[dir].frame_types |= 1u << H2_CONTINUATION;
		block_add(st, dir, p, n);
		if (d->flags & H2_FLAG_END_HEADERS)
			block_end(st, dir);
		return;
	default:
		break;
	}
	/* an empty SETTINGS (an ACK, or one that changes nothing) says
	 * nothing to log or inspect: Suricata 8 makes no transaction of it,
	 * on any stream (http2-keywords2: 6 transactions, not 8) */
	if (d->type == H2_SETTINGS && !n)
		return;
	tx = d->sid ? tx_stream(st, d->sid) : tx_global(st);
	if (!tx)
		return;
	s = &tx->side[dir];
	if (d->type < H2_FRAME_TYPES)
		s->frame_types |= 1u << d->type;
	switch (d->type) {
	case H2_PRIORITY:
		if (n != 5) {
			event(st, tx, H2_EV_INVALID_FRAME_LENGTH);
			return;
		}
		s->priority = p[4];
		break;
	case H2_RST_STREAM:
		if (n != 4) {
			event(st, tx, H2_EV_INVALID_FRAME_LENGTH);
			return;
		}
		s->error_code = be32(p);
		file_end(tx, 0, FILE_CLOSE_TRUNCATED);
		file_end(tx, 1, FILE_CLOSE_TRUNCATED);
		tx->base.done[0] = tx->base.done[1] = 1;
		break;
	case H2_SETTINGS:
		if (n % 6) {
			event(st, tx, H2_EV_INVALID_FRAME_LENGTH);
			return;
		}
		for (uint32_t i = 0; i + 6 <= n && s->nsettings < H2_MAX_SETTINGS; i += 6) {
			s->settings[s->nsettings].id = (uint16_t)(p[i] << 8 | p[i + 1]);
			s->settings[s->nsettings++].value = be32(p + i + 2);
		}
		break;
	case H2_GOAWAY:
		if (n < 8) {
			event(st, tx, H2_EV_INVALID_FRAME_LENGTH);
			return;
		}
		s->error_code = be32(p + 4);
		break;
	case H2_WINDOW_UPDATE:
		if (n != 4) {
			event(st, tx, H2_EV_INVALID_FRAME_LENGTH);
			return;
		}
		if (s->nwindows < H2_MAX_WINDOWS)
			s->windows[s->nwindows++] = be32(p) & 0x7fffffffu;
		break;
	default:
		break;
	}
}

/* The frame header is complete: check it and get ready for its payload. */
static void frame_begin(H2State *st, int dir, const uint8_t *after_hdr)
{
	H2Dir *d = &st->d[dir];

	d->flen = (uint32_t)d->hdr[0] << 16 | (uint32_t)d->hdr[1] << 8 | d->hdr[2];
	d->type = d->hdr[3];
	d->flags = d->hdr[4];
	d->sid = be32(d->hdr + 5) & 0x7fffffffu;
	d->got = 0;
	d->blen = 0;
	d->skip = 0;
	d->pad = -1;
	d->in_frame = 1;
	if (st->f) {
		uint64_t off = st->chunk_off + (uint64_t)(after_hdr - st->chunk) - 9;

		app_frame_new(st->f, dir, off, 9 + (int64_t)d->flen, H2_FRAME_PDU);
		app_frame_new(st->f, dir, off, 9, H2_FRAME_HDR);
		if (d->flen)
			app_frame_new(st->f, dir, off + 9, d->flen, H2_FRAME_DATA);
	}
	if (d->flen > H2_MAX_FRAME)
		event(st, d->sid ? tx_stream(st, d->sid) : NULL, H2_EV_LONG_FRAME_DATA);
	if (d->type == H2_DATA) {
		data_begin(st, dir);
		d->data_left = d->flen;
		if (d->flags & H2_FLAG_PADDED)
			d->data_left = 0; /* known once the pad length is read */
		else
			d->pad = 0;
		return;
	}
	if (d->flen > H2_MAX_FRAME) {
		d->skip = 1;
		return;
	}
	if (!d->buf && !(d->buf = malloc(H2_MAX_FRAME))) {
		d->skip = 1;
		app_tx_count(st->at, &ctr, APP_CTR_ALLOC, 1);
	}
}

static void frame_end(H2State *st, int dir)
{
	H2Dir *d = &st->d[dir];

	d->in_frame = 0;
	d->hlen = 0;
	if (d->type == H2_DATA)
		data_end(st, dir);
	else if (!d->skip)
		on_frame(st, dir, d->buf, d->blen);
}

/* Payload bytes of the current frame; returns how many were taken. */
static uint32_t frame_payload(H2State *st, int dir, const uint8_t *p, uint32_t n)
{
	H2Dir *d = &st->d[dir];
	uint32_t take = d->flen - d->got;

	if (take > n)
		take = n;
	if (d->type == H2_DATA) {
		uint32_t i = 0;

		if (d->pad < 0 && take) {
			d->pad = p[0];
			i = 1;
			if ((uint32_t)d->pad + 1 > d->flen) {
				event(st, NULL, H2_EV_INVALID_FRAME_LENGTH);
				d->data_left = 0;
			} else {
				d->data_left = d->flen - 1 - (uint32_t)d->pad;
			}
		}
		if (i < take && d->data_left) {
			uint32_t dn = take - i < d->data_left ? take - i : d->data_left;

			on_data(st, dir, p + i, dn);
			d->data_left -= dn;
		}
	} else if (!d->skip) {
		memcpy(d->buf + d->blen, p, take);
		d->blen += take;
	}
	d->got += take;
	if (d->got == d->flen)
		frame_end(st, dir);
	return take;
}

static void h2_feed(H2State *st, int dir, const uint8_t *p, uint32_t n)
{
	H2Dir *d = &st->d[dir];

	if (dir == APP_DIR_TOSERVER && d->magic < PREFACE_LEN) {
		uint32_t k = PREFACE_LEN - d->magic < n ? PREFACE_LEN - d->magic : n;

		if (memcmp(p, preface + d->magic, k)) {
			/* no preface (a flow picked up midstream): frames it is */
			if (d->magic)
				event(st, NULL, H2_EV_INVALID_CLIENT_MAGIC);
			d->magic = PREFACE_LEN;
		} else {
			d->magic += k;
			p += k;
			n -= k;
		}
	}
	while (n) {
		if (!d->in_frame) {
			uint32_t k = 9u - d->hlen < n ? 9u - d->hlen : n;

			memcpy(d->hdr + d->hlen, p, k);
			d->hlen += (uint8_t)k;
			p += k;
			n -= k;
			if (d->hlen < 9)
				return;
			frame_begin(st, dir, p);
			if (!d->flen) {
				frame_end(st, dir);
				continue;
			}
		}
		{
			uint32_t k = frame_payload(st, dir, p, n);

			p += k;
			n -= k;
		}
	}
}

static int h2_parse(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
		    uint32_t len, int flags)
{
	H2State *st = state;

	if (!st || st->detect_only || dir < 0 || dir > 1)
		return 0;
	st->at = at;
	st->flow = f;
	st->f = NULL;
	if (data && app_frames_on(f)) {
		st->f = f;
		st->chunk_off = app_frame_offset(f, dir);
		st->chunk = data;
	}
	if (flags & APP_GAP) {
		/* frames cannot be found again after a gap */
		if (!st->d[dir].given_up)
			app_tx_count(at, &ctr, APP_CTR_GAP, 1);
		st->d[dir].given_up = 1;
		return 0;
	}
	if (!st->d[dir].given_up && data && len)
		h2_feed(st, dir, data, len);
	if (flags & APP_EOF) {
		/* the side is over: its streams are */
		for (AppTx *t = st->txs.head; t; t = t->next) {
			file_end((Http2Tx *)t, dir, FILE_CLOSE_TRUNCATED);
			t->done[dir] = 1;
		}
	}
	return 0;
}

/* ---------------- h2c upgrade ---------------- */

static int b64url(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '-' || c == '+')
		return 62;
	if (c == '_' || c == '/')
		return 63;
	return -1;
}

/* The HTTP2-Settings header of an h2c upgrade (RFC 7540 3.2.1: a SETTINGS
 * payload in base64url): a stream-0 transaction of the client's, as the
 * SETTINGS frame it stands for. */
static void upgrade_settings(H2State *st, const uint8_t *v, uint32_t n)
{
	uint8_t out[6 * H2_MAX_SETTINGS];
	uint32_t o = 0, acc = 0, bits = 0;
	Http2Tx *tx = tx_global(st);

	if (!tx)
		return;
	tx->side[APP_DIR_TOSERVER].frame_types |= 1u << H2_SETTINGS;
	for (uint32_t i = 0; i < n && v[i] != '='; i++) {
		int c = b64url(v[i]);

		if (c < 0) {
			event(st, tx, H2_EV_INVALID_HTTP1_SETTINGS);
			return;
		}
		acc = acc << 6 | (uint32_t)c;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (o < sizeof(out))
				out[o++] = (uint8_t)(acc >> bits);
		}
	}
	if (o % 6) {
		event(st, tx, H2_EV_INVALID_HTTP1_SETTINGS);
		return;
	}
	for (uint32_t i = 0; i + 6 <= o; i += 6) {
		Http2Side *s = &tx->side[APP_DIR_TOSERVER];

		s->settings[s->nsettings].id = (uint16_t)(out[i] << 8 | out[i + 1]);
		s->settings[s->nsettings++].value = be32(out + i + 2);
	}
}

/* After h2c, the HTTP/1 request that asked for it is stream 1's (RFC 7540
 * 3.2), as Suricata logs it: :method, :path, then its headers, Host as
 * :authority. */
static void h2_take_over(AppLayerThread *at, Flow *f, void *state, unsigned from,
			 void *old_state)
{
	H2State *st = state;
	const uint8_t *p, *end, *eol, *sp;
	uint32_t n;
	Http2Tx *tx;

	(void)f;
	if (!st || from != ALPROTO_HTTP1 || http_upgrade_request(old_state, &p, &n) < 0)
		return;
	st->at = at;
	if (!(tx = tx_new(st, 1)))
		return;
	end = p + n;
	eol = memchr(p, '\r', n);
	if (!eol)
		return;
	sp = memchr(p, ' ', (size_t)(eol - p));
	if (sp) {
		add_header(st, tx, APP_DIR_TOSERVER, (const uint8_t *)":method", 7, p,
			   (size_t)(sp - p), -1);
		add_header(st, tx, APP_DIR_TOSERVER, (const uint8_t *)":path", 5, sp + 1,
			   (size_t)(eol - sp - 1), -1);
	}
	for (p = eol + 2; p < end; p = eol + 2) {
		const uint8_t *c;
		uint8_t name[64];
		size_t nl, vl;

		if (!(eol = memchr(p, '\r', (size_t)(end - p))))
			break;
		c = memchr(p, ':', (size_t)(eol - p));
		if (!c || (nl = (size_t)(c - p)) == 0 || nl >= sizeof(name))
			continue;
		/* names as sent: HTTP/2's lower-case lookups (user-agent) miss
		 * "User-Agent" here, as in Suricata (http2-keywords2 sid 20) */
		memcpy(name, p, nl);
		c += 2;
		vl = c <= eol ? (size_t)(eol - c) : 0;
		if (nl == 14 && !strncasecmp((const char *)name, "http2-settings", 14))
			upgrade_settings(st, c, (uint32_t)vl);
		else if (nl == 4 && !strncasecmp((const char *)name, "host", 4))
			add_header(st, tx, APP_DIR_TOSERVER, (const uint8_t *)":authority", 10, c,
				   vl, -1);
		else
			add_header(st, tx, APP_DIR_TOSERVER, name, nl, c, vl, -1);
	}
	side_buffers(&tx->side[APP_DIR_TOSERVER], APP_DIR_TOSERVER);
	tx->base.some[APP_DIR_TOSERVER] = 1;
	tx->base.done[APP_DIR_TOSERVER] = 1;
}

static int h2_event_lookup(const char *name)
{
	return http2_event_by_name(name);
}

static int h2_tx_has_event(const void *tx, int id)
{
	return id >= 0 && id < H2_EV_COUNT && (((const AppTx *)tx)->events >> id & 1);
}

/* HTTP/1's progress values (http.h), so that the http.* buffers, whose
 * entries name them, read HTTP/2 transactions at the same points */
static int h2_tx_progress(const void *txp, int dir)
{
	const Http2Tx *tx = txp;

	if (tx->base.done[dir & 1])
		return HTTP_PROGRESS_COMPLETE;
	if (tx->side[dir & 1].headers_done)
		return HTTP_PROGRESS_HEADERS;
	return tx->base.some[dir & 1] ? HTTP_PROGRESS_LINE : HTTP_PROGRESS_NONE;
}

const AppProtoOps http2_proto_ops = {
	.name = "http2",
	.ipprotos = APP_IPPROTO_TCP,
	.config_defaults = h2_config_defaults,
	.config_load = h2_config_load,
	.enabled = h2_enabled,
	.register_counters = h2_register_counters,
	.probe = h2_probe,
	.state_new = h2_state_new,
	.state_free = h2_state_free,
	.parse = h2_parse,
	.take_over = h2_take_over,
	.frame_names = h2_frame_names,
	.tx_count = txl_op_count,
	.tx_get = txl_op_get,
	.tx_low = txl_op_low,
	.tx_id = txl_op_id,
	.tx_log_id = txl_op_id,
	.tx_progress = h2_tx_progress,
	.progress_complete = HTTP_PROGRESS_COMPLETE,
	.tx_flags = txl_op_flags,
	.tx_set_flags = txl_op_set_flags,
	.tx_detect_slot = txl_op_detect_slot,
	.tx_gc = txl_op_gc,
	.event_lookup = h2_event_lookup,
	.tx_has_event = h2_tx_has_event,
};
