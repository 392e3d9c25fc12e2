/* eve "websocket" records and the websocket member of alerts (see
 * websocket-json.h). */
#include "output/websocket-json.h"

#include "app-layer/app-layer.h"
#include "output/output-private.h"
#include "output/json-writer.h"

#include <stdio.h>

void websocket_json_write(JsonWriter *w, const WsTx *tx, unsigned payload)
{
	const char *op = ws_opcode_name(tx->opcode);

	jw_bool(w, "fin", (tx->flags & WS_FLAG_FIN) != 0);
	if (tx->masked)
		jw_int(w, "mask", tx->mask);
	if (op) {
		jw_str(w, "opcode", op);
	} else {
		char s[24];

		snprintf(s, sizeof(s), "unknown-%u", tx->opcode);
		jw_str(w, "opcode", s);
	}
	if (payload & WS_LOG_BASE64)
		jw_base64(w, "payload_base64", tx->payload, tx->plen);
	if (payload & WS_LOG_PRINTABLE)
		output_write_printable(w, "payload_printable", tx->payload, tx->plen);
}

struct ws_obj {
	const WsTx *tx;
	unsigned payload;
};

static void build_obj(JsonWriter *w, void *ctx)
{
	const struct ws_obj *o = ctx;

	websocket_json_write(w, o->tx, o->payload);
}

json_t *websocket_json_object(const WsTx *tx, unsigned payload)
{
	struct ws_obj o = { tx, payload };

	return jw_build_tree(build_obj, &o);
}

/* The parser's events not written yet, as anomaly records. */
static void log_ws_events(Outputs *o, const Packet *p, const Flow *f, void *txp)
{
	AppTx *t = txp;

	if (!p)
		return;
	for (int e = 0; e < WS_EV_COUNT; e++) {
		if (!(t->events >> e & 1) || (t->events_logged >> e & 1))
			continue;
		t->events_logged |= 1u << e;
		output_anomaly_parser_event(o, p, f, "websocket", ws_event_name(e), 0,
					    app_layer_tx_log_id(f, t));
	}
}

struct ws_line {
	const Packet *p;
	const Flow *f;
	const WsTx *tx;
	unsigned payload;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct ws_line *l = ctx;

	eve_header_write_tx(w, "websocket", l->p, l->f, 0);
	jw_object(w, "websocket");
	websocket_json_write(w, l->tx, l->payload);
	jw_close(w);
}

static void log_ws_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	struct ws_line l = { p, f, tx, 0 };

	if (o && o->cfg.eve_anomaly.applayer && o->eve_anomaly)
		log_ws_events(o, p, f, tx);
	if (!o || !outputs_eve_enabled(o, "websocket"))
		return;
	l.payload = o->cfg.eve_websocket_payload;
	eve_write_built(o, "websocket", build_record, &l);
}

static int alert_ws_write(JsonWriter *w, const Flow *f, void *txp)
{
	const WsTx *tx = txp;

	(void)f;
	if (!tx)
		return -1;
	jw_object(w, "websocket");
	websocket_json_write(w, tx, 0);
	jw_close(w);
	return 0;
}

const EveTxLogger eve_websocket_logger = {
	.log_tx = log_ws_tx,
	.alert_write = alert_ws_write,
	.log_events = log_ws_events,
};
