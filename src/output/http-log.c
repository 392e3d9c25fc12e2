/* eve "http" and "fileinfo" records, and the alert hook for the "http"
 * object. The app layer builds the objects (http.h); we add the record
 * header and write. */
#include "output/http-log.h"
#include "output/alert.h"
#include "output/output-private.h"

#include <string.h>
#include <strings.h>

static json_t *alert_http_extra(const Flow *f, uint64_t tx_id, void *user)
{
	HttpTx *tx;
	json_t *h, *rec;

	(void)user;
	if (!f || f->app_proto != ALPROTO_HTTP1)
		return NULL;
	tx = http_tx_get(f, tx_id);
	if (!tx)
		return NULL;
	h = http_tx_json(tx, 1);
	if (!h)
		return NULL;
	rec = json_object();
	json_object_set_new(rec, "http", h);
	return rec;
}

void output_http_register(void)
{
	output_alert_set_extra(alert_http_extra, NULL);
}

int output_http_wanted(const Outputs *o)
{
	return o && (outputs_eve_enabled(o, "http") || outputs_eve_enabled(o, "files") ||
		     outputs_eve_enabled(o, "fileinfo"));
}

/* The record header: flow addresses (client as source) with the packet's
 * time and capture position. */
static json_t *tx_header(const char *type, const Packet *p, const Flow *f, uint64_t tx_id)
{
	const struct timeval *ts = p ? &p->ts : &f->last;
	json_t *rec = eve_header(ts, type, NULL, f);

	if (!rec)
		return NULL;
	if (p && p->pcap_cnt)
		json_object_set_new(rec, "pcap_cnt", json_integer((json_int_t)p->pcap_cnt));
	json_object_set_new(rec, "tx_id", json_integer((json_int_t)tx_id));
	return rec;
}

/* dump-all-headers: every header of the chosen sides, as libhtp kept them */
static void add_headers(const Outputs *o, const HttpTx *tx, json_t *h)
{
	unsigned want = o->cfg.eve_http_headers;
	json_t *a;

	if ((want & OUTPUT_HTTP_HDR_REQUEST) &&
	    (a = http_tx_headers_json(tx, APP_DIR_TOSERVER)))
		json_object_set_new(h, "request_headers", a);
	if ((want & OUTPUT_HTTP_HDR_RESPONSE) &&
	    (a = http_tx_headers_json(tx, APP_DIR_TOCLIENT)))
		json_object_set_new(h, "response_headers", a);
}

void output_http_tx(Outputs *o, const Packet *p, const Flow *f, HttpTx *tx)
{
	json_t *rec, *h;

	if (!o || !outputs_eve_enabled(o, "http"))
		return;
	h = http_tx_json(tx, 1);
	if (!h)
		return;
	rec = tx_header("http", p, f, http_tx_log_id(tx));
	if (!rec) {
		json_decref(h);
		return;
	}
	add_headers(o, tx, h);
	json_object_set_new(rec, "http", h);
	eve_write(o, rec);
}

/* Suricata names a response file after Content-Disposition's filename= when
 * the server sends one, else after the uri path. */
static void disposition_name(HttpTx *tx, json_t *fi)
{
	static const char hdr[] = "content-disposition:";
	const uint8_t *d;
	uint32_t len;

	for (uint32_t i = 0; http_tx_buffer_multi(tx, HTTP_BUF_RESPONSE_HEADER, i, &d, &len) == 0; i++) {
		const char *v, *end = (const char *)d + len;
		char name[256];
		size_t n = 0;

		if (len < sizeof(hdr) - 1 || strncasecmp((const char *)d, hdr, sizeof(hdr) - 1))
			continue;
		for (v = (const char *)d; v + 9 <= end; v++)
			if (!strncasecmp(v, "filename=", 9))
				break;
		if (v + 9 > end)
			return;
		v += 9;
		if (v < end && *v == '"')
			v++;
		while (v < end && *v != '"' && *v != ';' && *v != '\r' && *v != '\n' &&
		       n < sizeof(name) - 1)
			name[n++] = *v++;
		name[n] = 0;
		if (n)
			json_object_set_new(fi, "filename", json_string(name));
		return;
	}
}

int output_http_files(Outputs *o, const Packet *p, const Flow *f, HttpTx *tx)
{
	int n = 0;

	if (!o || !(outputs_eve_enabled(o, "files") || outputs_eve_enabled(o, "fileinfo")))
		return 0;
	for (int dir = APP_DIR_TOSERVER; dir <= APP_DIR_TOCLIENT; dir++) {
		json_t *fi = http_tx_fileinfo_json(tx, dir);
		json_t *rec, *h;

		if (!fi)
			continue;
		if (dir == APP_DIR_TOCLIENT)
			disposition_name(tx, fi);
		rec = tx_header("fileinfo", p, f, http_tx_log_id(tx));
		if (!rec) {
			json_decref(fi);
			continue;
		}
		h = http_tx_json(tx, 1);
		if (h)
			json_object_set_new(rec, "http", h);
		json_object_set_new(rec, "app_proto", json_string("http"));
		json_object_set_new(rec, "fileinfo", fi);
		eve_write(o, rec);
		n++;
	}
	return n;
}
