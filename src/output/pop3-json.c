/* eve "pop3" records and the pop3 member of alerts (see pop3-json.h). */
#include "output/pop3-json.h"

#include "app-layer/app-layer.h"
#include "app-layer/pop3.h"
#include "output/output-private.h"
#include "output/json-writer.h"

#include <string.h>

void pop3_json_write(JsonWriter *w, const Pop3Tx *t)
{
	if (t->has_request) {
		jw_object(w, "request");
		jw_bytes(w, "command", t->command, strlen(t->command));
		/* present when empty: suricata-verify pop3-02-bug-7709 matches
		 * "args": [] */
		jw_array(w, "args");
		for (uint32_t i = 0; i < t->nargs; i++)
			jw_bytes(w, NULL, t->args[i].p, t->args[i].len);
		jw_close(w);
		jw_close(w);
	}
	if (t->has_response) {
		jw_object(w, "response");
		jw_bool(w, "success", t->success);
		jw_str(w, "status", t->success ? "OK" : "ERR");
		jw_bytes(w, "header", t->header.p, t->header.len);
		if (t->ndata) {
			jw_array(w, "data");
			for (uint32_t i = 0; i < t->ndata; i++)
				jw_bytes(w, NULL, t->data[i].p, t->data[i].len);
			jw_close(w);
		}
		jw_close(w);
	}
}

static void build_obj(JsonWriter *w, void *ctx)
{
	pop3_json_write(w, ctx);
}

json_t *pop3_json_object(const Pop3Tx *t)
{
	return jw_build_tree(build_obj, (void *)t);
}

/* The parser's events not written yet, each once per transaction. */
static void log_pop3_events(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	Pop3Tx *t = tx;

	if (!p)
		return;
	for (int e = 0; e < POP3_EV_COUNT; e++) {
		if (!(t->events >> e & 1) || (t->events_logged >> e & 1))
			continue;
		t->events_logged |= 1u << e;
		output_anomaly_parser_event(o, p, f, "pop3", pop3_event_name(e), 0,
					    app_layer_tx_log_id(f, tx));
	}
}

struct pop3_line {
	const Packet *p;
	const Flow *f;
	const Pop3Tx *t;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct pop3_line *l = ctx;

	eve_header_write_tx(w, "pop3", l->p, l->f, 0);
	jw_object(w, "pop3");
	pop3_json_write(w, l->t);
	jw_close(w);
}

static void log_pop3_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	struct pop3_line l = { p, f, tx };

	if (!o || !tx)
		return;
	if (o->cfg.eve_anomaly.applayer && o->eve_anomaly)
		log_pop3_events(o, p, f, tx);
	if (!outputs_eve_enabled(o, "pop3"))
		return;
	eve_write_built(o, "pop3", build_record, &l);
}

static int alert_pop3_write(JsonWriter *w, const Flow *f, void *tx)
{
	(void)f;
	if (!tx)
		return -1;
	jw_object(w, "pop3");
	pop3_json_write(w, tx);
	jw_close(w);
	return 0;
}

const EveTxLogger eve_pop3_logger = {
	.log_tx = log_pop3_tx,
	.alert_write = alert_pop3_write,
	.log_events = log_pop3_events,
};
