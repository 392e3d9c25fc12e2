/* HTTP's eve logger (its line is in tx-log.c): "http" and "fileinfo"
 * records, and the "http" object (and "files") of alerts on a transaction. The app layer
 * builds the objects (http.h); we add the record header and write. */
#include "output/http-log.h"
#include "output/output-private.h"
#include "app-layer/files.h"
#include "app-layer/http-range.h"
#include "output/file-log.h"
#include "output/json-writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- the "http" object, from the parser's view of the transaction ---- */

/* A byte string as an eve string: as it is when it is UTF-8, else with
 * every byte outside printable ASCII written as \xhh (Suricata's form),
 * so that a record is never dropped for one odd byte. */
static void put_bytes(JsonWriter *w, const char *key, const uint8_t *p, size_t n)
{
	char stack[1024], *tmp = stack;
	size_t o = 0;

	if (jw_strn_try(w, key, (const char *)p, n) == 0)
		return;
	if (n > (sizeof(stack) - 1) / 4 && !(tmp = malloc(n * 4 + 1)))
		return;
	for (size_t i = 0; i < n; i++) {
		if (p[i] >= 0x20 && p[i] < 0x7f)
			tmp[o++] = (char)p[i];
		else
			o += (size_t)sprintf(tmp + o, "\\x%02x", p[i]);
	}
	jw_strn(w, key, tmp, o);
	if (tmp != stack)
		free(tmp);
}

static void put_opt(JsonWriter *w, const char *key, HttpBytes b)
{
	if (b.p)
		put_bytes(w, key, b.p, b.len);
}

int http_tx_write(JsonWriter *w, const HttpTx *tx, int extended)
{
	HttpTxView v;

	if (http_tx_view(tx, &v) != 0)
		return 0;
	put_opt(w, "hostname", v.hostname);
	/* only when the port is written in the uri or Host header */
	if (v.port > 0)
		jw_int(w, "http_port", v.port);
	put_opt(w, "url", v.uri);
	put_opt(w, "http_user_agent", v.user_agent);
	if (v.content_type.p) {
		/* the media type alone, without parameters */
		const uint8_t *ct = memchr(v.content_type.p, ';', v.content_type.len);

		put_bytes(w, "http_content_type", v.content_type.p,
			  ct ? (size_t)(ct - v.content_type.p) : v.content_type.len);
	}
	if (v.content_range.p) {
		/* Suricata 8: the header as sent, and its numbers when it
		 * parses ('*' ones left out) */
		HttpContentRange cr;

		jw_object(w, "content_range");
		put_bytes(w, "raw", v.content_range.p, v.content_range.len);
		if (http_content_range_parse(v.content_range.p, v.content_range.len, &cr) == 0) {
			if (cr.start >= 0)
				jw_int(w, "start", cr.start);
			if (cr.end >= 0)
				jw_int(w, "end", cr.end);
			if (cr.size >= 0)
				jw_int(w, "size", cr.size);
		}
		jw_close(w);
	}
	if (!extended)
		return 1;
	put_opt(w, "http_refer", v.referer);
	put_opt(w, "http_method", v.method);
	put_opt(w, "protocol", v.protocol);
	if (v.status > 0)
		jw_int(w, "status", v.status);
	else
		put_opt(w, "status_string", v.status_string);
	put_opt(w, "redirect", v.location);
	jw_int(w, "length", v.response_len > 0 ? v.response_len : 0);
	return 1;
}

int http_tx_headers_write(JsonWriter *w, const char *key, const HttpTx *tx, int dir)
{
	size_t n = http_tx_header_count(tx, dir);

	if (!n)
		return 0;
	jw_array(w, key);
	for (size_t i = 0; i < n; i++) {
		HttpBytes name, value;

		if (http_tx_header_at(tx, dir, i, &name, &value) != 0)
			continue;
		jw_object(w, NULL);
		put_bytes(w, "name", name.p, name.len);
		put_bytes(w, "value", value.p, value.len);
		jw_close(w);
	}
	jw_close(w);
	return 1;
}

/* ---- custom: [...]: headers by Suricata's eve names ---- */

/* Suricata's table of the headers an http record may add through
 * `custom`: the eve member and the header, a request's (REQ) or a
 * response's. The yaml names one by its header name or its member name,
 * in any case (Accept-Encoding, accept_encoding). */
#define REQ APP_DIR_TOSERVER
#define RSP APP_DIR_TOCLIENT
static const struct {
	const char *key, *header;
	int dir;
} custom_fields[] = {
	{ "accept", "accept", REQ },
	{ "accept_charset", "accept-charset", REQ },
	{ "accept_encoding", "accept-encoding", REQ },
	{ "accept_language", "accept-language", REQ },
	{ "accept_datetime", "accept-datetime", REQ },
	{ "authorization", "authorization", REQ },
	{ "cache_control", "cache-control", REQ },
	{ "cookie", "cookie", REQ },
	{ "from", "from", REQ },
	{ "max_forwards", "max-forwards", REQ },
	{ "origin", "origin", REQ },
	{ "pragma", "pragma", REQ },
	{ "proxy_authorization", "proxy-authorization", REQ },
	{ "range", "range", REQ },
	{ "te", "te", REQ },
	{ "via", "via", REQ },
	{ "x_requested_with", "x-requested-with", REQ },
	{ "dnt", "dnt", REQ },
	{ "x_forwarded_proto", "x-forwarded-proto", REQ },
	{ "x_authenticated_user", "x-authenticated-user", REQ },
	{ "x_flash_version", "x-flash-version", REQ },
	{ "true_client_ip", "true-client-ip", REQ },
	{ "org_src_ip", "org-src-ip", REQ },
	{ "x_bluecoat_via", "x-bluecoat-via", REQ },
	{ "accept_range", "accept-range", RSP },
	{ "age", "age", RSP },
	{ "allow", "allow", RSP },
	{ "connection", "connection", RSP },
	{ "content_encoding", "content-encoding", RSP },
	{ "content_language", "content-language", RSP },
	{ "content_length", "content-length", RSP },
	{ "content_location", "content-location", RSP },
	{ "content_md5", "content-md5", RSP },
	{ "content_type", "content-type", RSP },
	{ "date", "date", RSP },
	{ "etag", "etag", RSP },
	{ "expires", "expires", RSP },
	{ "last_modified", "last-modified", RSP },
	{ "link", "link", RSP },
	{ "location", "location", RSP },
	{ "proxy_authenticate", "proxy-authenticate", RSP },
	{ "refresh", "refresh", RSP },
	{ "retry_after", "retry-after", RSP },
	{ "server", "server", RSP },
	{ "set_cookie", "set-cookie", RSP },
	{ "trailer", "trailer", RSP },
	{ "transfer_encoding", "transfer-encoding", RSP },
	{ "upgrade", "upgrade", RSP },
	{ "vary", "vary", RSP },
	{ "warning", "warning", RSP },
	{ "www_authenticate", "www-authenticate", RSP },
};
#undef REQ
#undef RSP

int http_custom_field(const char *name)
{
	for (size_t i = 0; i < sizeof(custom_fields) / sizeof(custom_fields[0]); i++)
		if (!strcasecmp(name, custom_fields[i].header) ||
		    !strcasecmp(name, custom_fields[i].key))
			return (int)i;
	return -1;
}

/* The first header of that name on its side, as libhtp keeps it (a
 * repeated header's values joined). */
static void custom_write(JsonWriter *w, const HttpTx *tx, uint64_t fields)
{
	for (size_t i = 0; i < sizeof(custom_fields) / sizeof(custom_fields[0]); i++) {
		size_t hlen = strlen(custom_fields[i].header);
		int dir = custom_fields[i].dir;
		size_t n;

		if (!(fields & (1ull << i)))
			continue;
		n = http_tx_header_count(tx, dir);
		for (size_t j = 0; j < n; j++) {
			HttpBytes name, value;

			if (http_tx_header_at(tx, dir, j, &name, &value) != 0 ||
			    name.len != hlen ||
			    strncasecmp((const char *)name.p, custom_fields[i].header, hlen))
				continue;
			put_bytes(w, custom_fields[i].key, value.p, value.len);
			break;
		}
	}
}

/* The tree forms, for the tests and fuzzers. */
struct tx_obj {
	const HttpTx *tx;
	int arg;
	int none;
};

static void build_tx_obj(JsonWriter *w, void *ctx)
{
	struct tx_obj *c = ctx;

	c->none = !http_tx_write(w, c->tx, c->arg);
}

json_t *http_tx_json(const HttpTx *tx, int extended)
{
	struct tx_obj c = { tx, extended, 0 };
	json_t *o = jw_build_tree(build_tx_obj, &c);

	if (c.none) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static void build_headers_obj(JsonWriter *w, void *ctx)
{
	struct tx_obj *c = ctx;

	c->none = !http_tx_headers_write(w, "h", c->tx, c->arg);
}

json_t *http_tx_headers_json(const HttpTx *tx, int dir)
{
	struct tx_obj c = { tx, dir, 0 };
	json_t *root = jw_build_tree(build_headers_obj, &c), *a;

	/* the written object holds the array as its member */
	a = root && !c.none ? json_incref(json_object_get(root, "h")) : NULL;
	json_decref(root);
	return a;
}

/* ---- HTTP's eve logger ---- */

/* Alerts on a transaction carry its "http" object and, as Suricata 8's
 * do, the transaction's files ("files"). */
/* The alert's http-body options: each side's body as kept for inspection
 * (dechunked, decompressed, up to its body limit), as Suricata 8 logs the
 * body buffered for detection: base64 first, then printable, request
 * before response, a side without body data omitted. */
static void alert_http_bodies(JsonWriter *w, const HttpTx *tx, const OutputAlertConfig *ac)
{
	static const char *const b64_keys[2] = { "http_request_body", "http_response_body" };
	static const char *const txt_keys[2] = { "http_request_body_printable",
						 "http_response_body_printable" };
	const HttpBodyPiece *pieces;
	const uint8_t *data;
	uint32_t len;

	for (int pass = 0; pass < 2; pass++) {
		if (!(pass ? ac->http_body_printable : ac->http_body))
			continue;
		for (int dir = 0; dir < 2; dir++) {
			(void)http_tx_body_raw(tx, dir, &data, &len, &pieces);
			if (!len)
				continue;
			if (pass)
				output_write_printable(w, txt_keys[dir], data, len);
			else
				jw_base64(w, b64_keys[dir], data, len);
		}
	}
}

static int alert_http_write_opts(JsonWriter *w, const Flow *f, void *tx,
				 const OutputAlertConfig *ac)
{
	FileContainer *fcs[2];
	JwMark m = jw_mark(w);

	(void)f;
	jw_object(w, "http");
	if (!http_tx_write(w, tx, 1)) {
		jw_close_nonempty(w, m);   /* nothing written: taken back */
		return -1;
	}
	if (ac)
		alert_http_bodies(w, tx, ac);
	jw_close(w);
	fcs[0] = http_tx_files(tx, APP_DIR_TOSERVER, 0);
	fcs[1] = http_tx_files(tx, APP_DIR_TOCLIENT, 0);
	output_files_write(w, fcs, 2);
	return 0;
}

/* The record header: flow addresses (client as source; to_client: the
 * server) with the packet's time and capture position, and the
 * transaction's id. */
static void tx_header_write(JsonWriter *w, const char *type, const Packet *p, const Flow *f,
			    uint64_t tx_id, int to_client)
{
	eve_header_write_tx(w, type, p, f, to_client);
	jw_int(w, "tx_id", (int64_t)tx_id);
}

struct http_line {
	const Packet *p;
	const Flow *f;
	HttpTx *tx;
	unsigned want;
	int extended;
	const XffConfig *xff;
	uint64_t custom;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct http_line *l = ctx;
	char xff[XFF_ADDR_MAX];
	int has_xff = l->xff->enabled && xff_lookup_tx(l->xff, l->tx, xff, sizeof(xff));
	/* overwrite: the request's source, the client, is the one it names */
	EveAddrOverride ov = { has_xff && l->xff->overwrite ? xff : NULL, NULL };

	eve_header_write_tx_ov(w, "http", l->p, l->f, 0, &ov);
	jw_int(w, "tx_id", (int64_t)http_tx_log_id(l->tx));
	jw_object(w, "http");
	http_tx_write(w, l->tx, l->extended);
	if (has_xff && !l->xff->overwrite)
		jw_ascii(w, "xff", xff, strlen(xff));
	if (l->custom)
		custom_write(w, l->tx, l->custom);
	if (l->want & OUTPUT_HTTP_HDR_REQUEST)
		http_tx_headers_write(w, "request_headers", l->tx, APP_DIR_TOSERVER);
	if (l->want & OUTPUT_HTTP_HDR_RESPONSE)
		http_tx_headers_write(w, "response_headers", l->tx, APP_DIR_TOCLIENT);
}

/* The "http" record, written straight into its line (the header as
 * tx_header_write() writes it, then the http object and, with
 * dump-all-headers, the headers of the chosen sides as libhtp kept them). */
void output_http_tx(Outputs *o, const Packet *p, const Flow *f, HttpTx *tx)
{
	struct http_line l = { p, f, tx, 0, 0, NULL, 0 };

	if (!o || !outputs_eve_enabled(o, "http") || !http_tx_loggable(tx))
		return;
	l.xff = &o->cfg.eve_http_xff;
	l.want = o->cfg.eve_http_headers;
	/* only the http record follows `extended`: Suricata 8's alerts and
	 * fileinfo records always carry the extended fields */
	l.extended = o->cfg.eve_http_extended;
	l.custom = o->cfg.eve_http_custom;
	/* long headers take the heap, as large as libhtp's header limits let
	 * a transaction's record be */
	eve_write_built(o, "http", build_record, &l);
}

/* A fileinfo record of the transaction (the file logger, file-log.c,
 * adds the fileinfo object): the header, the http object as far as the
 * transaction got (none before it is loggable), app_proto. */
static int http_file_record_write(JsonWriter *w, const Outputs *o, const Packet *p,
				  const Flow *f, void *tx, int dir)
{
	JwMark m;

	(void)o;
	tx_header_write(w, "fileinfo", p, f, http_tx_log_id(tx), dir == APP_DIR_TOCLIENT);
	m = jw_mark(w);
	jw_object(w, "http");
	if (http_tx_write(w, tx, 1))
		jw_close(w);
	else
		jw_close_nonempty(w, m);
	jw_ascii(w, "app_proto", "http", 4);
	return 0;
}

/* The parser's (libhtp's) events of tx not written yet, in the order
 * raised (each kind is on a tx once), with Suricata 8's upper-case names:
 * on the packet that raised them, the rest when the transaction logs. */
static void log_http_events(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	uint8_t *done = http_tx_events_logged(tx);
	uint32_t n = http_tx_event_count(tx);

	if (!p)
		return;
	for (; *done < n; (*done)++)
		output_anomaly_parser_event(o, p, f, "http",
					    http_event_name(http_tx_event_get(tx, *done)), 1,
					    http_tx_log_id(tx));
}

static void log_http_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	if (o && o->cfg.eve_anomaly.applayer && o->eve_anomaly)
		log_http_events(o, p, f, tx);
	output_http_tx(o, p, f, tx);
}

const EveTxLogger eve_http_logger = {
	.log_tx = log_http_tx,
	.alert_write_opts = alert_http_write_opts,
	.file_record_write = http_file_record_write,
	.log_events = log_http_events,
};
