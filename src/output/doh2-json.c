/* DoH transactions in eve (Suricata 8's "doh2" records): an HTTP/2
 * transaction of a doh2 flow whose request or response carries a DNS
 * message is one record of type doh2 with its "http" object (as HTTP/2's)
 * and a "dns" object with the dns record's version 3 members (see
 * doh2_json_dns_write()). */
#include "output/doh2-json.h"

#include "app-layer/app-layer.h"
#include "app-layer/dns-parse.h"
#include "app-layer/doh2.h"
#include "output/dns-json.h"
#include "output/http2-json.h"
#include "output/json-writer.h"
#include "output/output-private.h"

struct doh2_line {
	const Packet *p;
	const Flow *f;
	const Http2Tx *tx;
	const struct dns_msg *req, *resp;
};

void doh2_json_dns_write(JsonWriter *w, const struct dns_msg *req, const struct dns_msg *resp,
			 uint64_t tx_id)
{
	/* one version-3 "dns" object (the schema's: version required, "query"
	 * and "answer" are v2's): the response, which repeats the queries and
	 * adds the answers, else the request */
	jw_object(w, "dns");
	if (resp)
		dns_json_write(w, resp, DNS_DIR_TOCLIENT, tx_id, NULL);
	else
		dns_json_write(w, req, DNS_DIR_TOSERVER, tx_id, NULL);
	jw_close(w);
}

static void build_record(JsonWriter *w, void *ctx)
{
	const struct doh2_line *l = ctx;

	eve_header_write_tx(w, "doh2", l->p, l->f, 0);
	jw_object(w, "http");
	http2_json_write(w, l->tx);
	jw_close(w);
	doh2_json_dns_write(w, l->req, l->resp, app_layer_tx_log_id(l->f, (void *)l->tx));
}

int doh2_json_log(Outputs *o, const Packet *p, const Flow *f, const Http2Tx *tx)
{
	struct doh2_line l = { p, f, tx, NULL, NULL };
	struct dns_msg *req, *resp;

	if (!o || !f || f->app_proto_shown != ALPROTO_DOH2 || !outputs_eve_enabled(o, "doh2"))
		return 0;
	if (!doh2_tx_msgs(tx, &req, &resp))
		return 0;
	l.req = req;
	l.resp = resp;
	eve_write_built(o, "doh2", build_record, &l);
	dns_msg_free(req);
	dns_msg_free(resp);
	return 1;
}
