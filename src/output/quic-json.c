/* eve "quic" records and the quic member of alerts (see quic-json.h). */
#include "output/quic-json.h"

#include "app-layer/app-layer.h"
#include "output/output-private.h"
#include "output/json-writer.h"

void quic_json_write(JsonWriter *w, const QuicTx *tx)
{
	char vb[12];

	if (tx->version)
		jw_str(w, "version", quic_version_string(tx->version, vb));
	if (tx->sni)
		jw_bytes(w, "sni", tx->sni, tx->sni_len);
	if (tx->ua)
		jw_bytes(w, "ua", tx->ua, tx->ua_len);
	if (tx->cyu) {
		jw_array(w, "cyu");
		jw_object(w, NULL);
		jw_str(w, "hash", tx->cyu_hash);
		jw_bytes(w, "string", tx->cyu, tx->cyu_len);
		jw_close(w);
		jw_close(w);
	}
	if (tx->ja3) {
		/* the client's hello gives ja3, the server's ja3s */
		jw_object(w, tx->client ? "ja3" : "ja3s");
		jw_str(w, "hash", tx->ja3_hash);
		jw_strn(w, "string", tx->ja3, tx->ja3_len);
		jw_close(w);
	}
	if (tx->ja4[0] && tx->client)
		jw_str(w, "ja4", tx->ja4);
	if (tx->nexts) {
		jw_array(w, "extensions");
		for (unsigned i = 0; i < tx->nexts; i++) {
			const QuicExt *e = &tx->exts[i];
			const char *name = quic_tls_ext_name(e->type);

			jw_object(w, NULL);
			if (name)
				jw_str(w, "name", name);
			jw_int(w, "type", e->type);
			if (e->nvals) {
				jw_array(w, "values");
				for (unsigned v = 0; v < e->nvals; v++) {
					const QuicVal *qv = &tx->vals[e->first_val + v];
					jw_bytes(w, NULL, tx->vbuf + qv->off, qv->len);
				}
				jw_close(w);
			}
			jw_close(w);
		}
		jw_close(w);
	}
}

static void build_obj(JsonWriter *w, void *ctx)
{
	quic_json_write(w, ctx);
}

json_t *quic_json_object(const QuicTx *tx)
{
	return jw_build_tree(build_obj, (void *)tx);
}

static void log_quic_events(Outputs *o, const Packet *p, const Flow *f, void *txp)
{
	AppTx *t = txp;

	if (!p)
		return;
	for (int e = 0; e < QUIC_EV_COUNT; e++) {
		if (!(t->events >> e & 1) || (t->events_logged >> e & 1))
			continue;
		t->events_logged |= 1u << e;
		output_anomaly_parser_event(o, p, f, "quic", quic_event_name(e), 0,
					    app_layer_tx_log_id(f, t));
	}
}

struct quic_line {
	const Packet *p;
	const Flow *f;
	const QuicTx *tx;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct quic_line *l = ctx;

	eve_header_write_tx(w, "quic", l->p, l->f, !l->tx->client);
	jw_object(w, "quic");
	quic_json_write(w, l->tx);
	jw_close(w);
}

static void log_quic_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	struct quic_line l = { p, f, tx };

	if (o && o->cfg.eve_anomaly.applayer && o->eve_anomaly)
		log_quic_events(o, p, f, tx);
	if (!o || !outputs_eve_enabled(o, "quic"))
		return;
	eve_write_built(o, "quic", build_record, &l);
}

static int alert_quic_write(JsonWriter *w, const Flow *f, void *txp)
{
	(void)f;
	if (!txp)
		return -1;
	jw_object(w, "quic");
	quic_json_write(w, txp);
	jw_close(w);
	return 0;
}

const EveTxLogger eve_quic_logger = {
	.log_tx = log_quic_tx,
	.alert_write = alert_quic_write,
	.log_events = log_quic_events,
};
