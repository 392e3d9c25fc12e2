/* HTTP's eve logger (its line is in tx-log.c): "http" and "fileinfo"
 * records, and the "http" object (and "files") of alerts on a transaction. The app layer
 * builds the objects (http.h); we add the record header and write. */
#include "output/http-log.h"
#include "output/output-private.h"
#include "app-layer/files.h"
#include "output/json-writer.h"

#include <string.h>
#include <strings.h>

/* Alerts on a transaction carry its "http" object and, as Suricata 8's
 * do, the transaction's files ("files"). */
static int alert_http_write(JsonWriter *w, const Flow *f, void *tx)
{
	FileContainer *fcs[2];
	JwMark m = jw_mark(w);

	(void)f;
	jw_object(w, "http");
	if (!http_tx_write(w, tx, 1)) {
		jw_close_nonempty(w, m);   /* nothing written: taken back */
		return -1;
	}
	jw_close(w);
	fcs[0] = http_tx_files(tx, APP_DIR_TOSERVER, 0);
	fcs[1] = http_tx_files(tx, APP_DIR_TOCLIENT, 0);
	output_files_write(w, fcs, 2);
	return 0;
}

/* The record header: flow addresses (client as source) with the packet's
 * time and capture position, and the transaction's id. */
static void tx_header_write(JsonWriter *w, const char *type, const Packet *p, const Flow *f,
			    uint64_t tx_id)
{
	eve_header_write(w, p ? &p->ts : &f->last, type, NULL, f);
	if (p && p->pcap_cnt)
		jw_int(w, "pcap_cnt", (int64_t)p->pcap_cnt);
	jw_int(w, "tx_id", (int64_t)tx_id);
}

struct http_line {
	const Packet *p;
	const Flow *f;
	HttpTx *tx;
	unsigned want;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct http_line *l = ctx;

	tx_header_write(w, "http", l->p, l->f, http_tx_log_id(l->tx));
	jw_object(w, "http");
	http_tx_write(w, l->tx, 1);
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
	struct http_line l = { p, f, tx, 0 };

	if (!o || !outputs_eve_enabled(o, "http") || !http_tx_loggable(tx))
		return;
	l.want = o->cfg.eve_http_headers;
	/* long headers take the heap, as large as libhtp's header limits let
	 * a transaction's record be */
	eve_write_built(o, "http", build_record, &l);
}

/* A fileinfo record of the transaction (the file logger, file-log.c,
 * adds the fileinfo object): the header, the http object as far as the
 * transaction got (none before it is loggable), app_proto. */
static int http_file_record_write(JsonWriter *w, const Outputs *o, const Packet *p,
				  const Flow *f, void *tx)
{
	JwMark m;

	(void)o;
	tx_header_write(w, "fileinfo", p, f, http_tx_log_id(tx));
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
	.alert_write = alert_http_write,
	.file_record_write = http_file_record_write,
	.log_events = log_http_events,
};
