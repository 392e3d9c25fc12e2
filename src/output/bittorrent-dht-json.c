/* eve "bittorrent_dht" records and the member of alerts (see
 * bittorrent-dht-json.h). */
#include "output/bittorrent-dht-json.h"

#include "app-layer/app-layer.h"
#include "output/output-private.h"
#include "output/json-writer.h"

#include <arpa/inet.h>
#include <stdio.h>

static void hex(JsonWriter *w, const char *key, const DhtBytes *b)
{
	static const char hx[] = "0123456789abcdef";
	char *o;

	if (!b->set || !(o = jw_ascii_room(w, key, 2u * b->len)))
		return;
	for (unsigned i = 0; i < b->len; i++) {
		o[2 * i] = hx[b->b[i] >> 4];
		o[2 * i + 1] = hx[b->b[i] & 15];
	}
}

static void peers(JsonWriter *w, const char *key, const DhtNode *n, unsigned cnt, int with_id)
{
	char ip[INET6_ADDRSTRLEN];

	if (!cnt)
		return;
	jw_array(w, key);
	for (unsigned i = 0; i < cnt; i++) {
		jw_object(w, NULL);
		if (with_id) {
			DhtBytes id = { .len = 20, .set = 1 };

			memcpy(id.b, n[i].id, 20);
			hex(w, "id", &id);
		}
		inet_ntop(n[i].v6 ? AF_INET6 : AF_INET, n[i].ip, ip, sizeof(ip));
		jw_str(w, "ip", ip);
		jw_int(w, "port", n[i].port);
		jw_close(w);
	}
	jw_close(w);
}

void dht_json_write(JsonWriter *w, const DhtMsg *m)
{
	hex(w, "transaction_id", &m->tid);
	hex(w, "client_version", &m->version);
	if (m->request_type[0])
		jw_bytes(w, "request_type", m->request_type, strlen(m->request_type));
	if (m->has_error) {
		jw_object(w, "error");
		jw_int(w, "num", m->err_num);
		jw_bytes(w, "msg", m->err_msg, m->err_len);
		jw_close(w);
	}
	if (m->has_request) {
		jw_object(w, "request");
		hex(w, "id", &m->a_id);
		hex(w, "target", &m->a_target);
		hex(w, "info_hash", &m->a_info_hash);
		hex(w, "token", &m->a_token);
		if (m->has_implied_port)
			jw_int(w, "implied_port", m->implied_port);
		if (m->has_port)
			jw_int(w, "port", m->port);
		jw_close(w);
	}
	if (m->has_response) {
		jw_object(w, "response");
		hex(w, "id", &m->r_id);
		peers(w, "nodes", m->nodes, m->nnodes, 1);
		peers(w, "nodes6", m->nodes6, m->nnodes6, 1);
		peers(w, "values", m->values, m->nvalues, 0);
		hex(w, "token", &m->r_token);
		jw_close(w);
	}
}

static void build_obj(JsonWriter *w, void *ctx)
{
	dht_json_write(w, ctx);
}

json_t *dht_json_object(const DhtMsg *m)
{
	return jw_build_tree(build_obj, (void *)m);
}

static void log_dht_events(Outputs *o, const Packet *p, const Flow *f, void *txp)
{
	AppTx *t = txp;

	if (!p)
		return;
	for (int e = 0; e < DHT_EV_COUNT; e++) {
		if (!(t->events >> e & 1) || (t->events_logged >> e & 1))
			continue;
		t->events_logged |= 1u << e;
		output_anomaly_parser_event(o, p, f, "bittorrent-dht", dht_event_name(e), 0,
					    app_layer_tx_log_id(f, t));
	}
}

struct dht_line {
	const Packet *p;
	const Flow *f;
	const DhtTx *tx;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct dht_line *l = ctx;

	eve_header_write_tx(w, "bittorrent_dht", l->p, l->f, l->tx->dir == 1);
	jw_object(w, "bittorrent_dht");
	dht_json_write(w, &l->tx->m);
	jw_close(w);
}

static void log_dht_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	struct dht_line l = { p, f, tx };

	if (o && o->cfg.eve_anomaly.applayer && o->eve_anomaly)
		log_dht_events(o, p, f, tx);
	if (!o || !l.tx->valid || !outputs_eve_enabled(o, "bittorrent-dht"))
		return;
	eve_write_built(o, "bittorrent_dht", build_record, &l);
}

static int alert_dht_write(JsonWriter *w, const Flow *f, void *txp)
{
	const DhtTx *tx = txp;

	(void)f;
	if (!tx || !tx->valid)
		return -1;
	jw_object(w, "bittorrent_dht");
	dht_json_write(w, &tx->m);
	jw_close(w);
	return 0;
}

const EveTxLogger eve_bittorrent_dht_logger = {
	.log_tx = log_dht_tx,
	.alert_write = alert_dht_write,
	.log_events = log_dht_events,
};
