/* eve "dnp3" records and the dnp3 member of alerts (see dnp3-json.h). */
#include "output/dnp3-json.h"

#include "app-layer/app-layer.h"
#include "output/output-private.h"
#include "output/json-writer.h"

#include <stdio.h>

static void write_value(void *arg, const char *name, const Dnp3Value *v)
{
	JsonWriter *w = arg;

	switch (v->kind) {
	case 0:
		jw_int(w, name, (int64_t)v->u);
		break;
	case 1:
		jw_int(w, name, v->i);
		break;
	case 2: {
		/* as jansson writes a real: the shortest form that reads back */
		json_t *r = json_real(v->d);

		if (r) {
			jw_json(w, name, r);
			json_decref(r);
		}
		break;
	}
	default:
		jw_bytes(w, name, v->p, v->n);
	}
}

static void write_objects(JsonWriter *w, const Dnp3Msg *m)
{
	if (!m->nobjs)
		return;
	jw_array(w, "objects");
	for (uint32_t i = 0; i < m->nobjs; i++) {
		const Dnp3Object *o = &m->objs[i];
		const Dnp3ObjDef *d = dnp3_obj_def(o->group, o->variation);

		jw_object(w, NULL);
		jw_int(w, "group", o->group);
		jw_int(w, "variation", o->variation);
		jw_int(w, "qualifier", o->qualifier);
		jw_int(w, "prefix_code", o->prefix_code);
		jw_int(w, "range_code", o->range_code);
		jw_int(w, "start", o->start);
		jw_int(w, "stop", o->stop);
		jw_int(w, "count", o->count);
		if (o->npoints) {
			jw_array(w, "points");
			for (uint32_t k = 0; k < o->npoints; k++) {
				const Dnp3Point *pt = &m->points[o->first_point + k];

				jw_object(w, NULL);
				jw_int(w, "prefix", pt->prefix);
				jw_int(w, "index", pt->index);
				if (d && d->kind == DNP3_OBJ_FREE)
					jw_int(w, "size", pt->size);
				dnp3_point_fields(m, o, pt, write_value, w);
				jw_close(w);
			}
			jw_close(w);
		}
		jw_close(w);
	}
	jw_close(w);
}

void dnp3_json_write(JsonWriter *w, const Dnp3Tx *tx)
{
	const Dnp3Msg *m = &tx->m;

	if (tx->is_request)
		jw_str(w, "type", "request");
	else
		jw_str(w, "type", m->has_app && m->func == DNP3_FC_UNSOLICITED
					  ? "unsolicited_response" : "response");
	jw_object(w, "control");
	jw_bool(w, "dir", (m->link_ctrl & DNP3_LC_DIR) != 0);
	jw_bool(w, "pri", (m->link_ctrl & DNP3_LC_PRI) != 0);
	jw_bool(w, "fcb", (m->link_ctrl & DNP3_LC_FCB) != 0);
	jw_bool(w, "fcv", (m->link_ctrl & DNP3_LC_FCV) != 0);
	jw_int(w, "function_code", m->link_ctrl & 0xf);
	jw_close(w);
	jw_int(w, "src", m->src);
	jw_int(w, "dst", m->dst);
	if (m->has_app) {
		jw_object(w, "application");
		jw_object(w, "control");
		jw_bool(w, "fir", (m->app_ctrl & DNP3_AC_FIR) != 0);
		jw_bool(w, "fin", (m->app_ctrl & DNP3_AC_FIN) != 0);
		jw_bool(w, "con", (m->app_ctrl & DNP3_AC_CON) != 0);
		jw_bool(w, "uns", (m->app_ctrl & DNP3_AC_UNS) != 0);
		jw_int(w, "sequence", m->app_ctrl & 0xf);
		jw_close(w);
		jw_int(w, "function_code", m->func);
		write_objects(w, m);
		jw_bool(w, "complete", m->complete);
		jw_close(w);
	}
	if (!tx->is_request && m->has_app) {
		JwMark mk;

		jw_object(w, "iin");
		mk = jw_mark(w);
		jw_array(w, "indicators");
		/* high bit first: IIN1.7 device_restart ... IIN2.0 */
		for (int b = 15; b >= 0; b--)
			if (m->iin >> b & 1)
				jw_str(w, NULL, dnp3_iin_name((unsigned)b));
		jw_close_nonempty(w, mk);
		jw_close(w);
	}
}

static void build_obj(JsonWriter *w, void *ctx)
{
	dnp3_json_write(w, ctx);
}

json_t *dnp3_json_object(const Dnp3Tx *tx)
{
	return jw_build_tree(build_obj, (void *)tx);
}

static void log_dnp3_events(Outputs *o, const Packet *p, const Flow *f, void *txp)
{
	AppTx *t = txp;

	if (!p)
		return;
	for (int e = 0; e < DNP3_EV_COUNT; e++) {
		if (!(t->events >> e & 1) || (t->events_logged >> e & 1))
			continue;
		t->events_logged |= 1u << e;
		/* Suricata's DNP3 parser is C, its event table upper case */
		output_anomaly_parser_event(o, p, f, "dnp3", dnp3_event_name(e), 1,
					    app_layer_tx_log_id(f, t));
	}
}

struct dnp3_line {
	const Packet *p;
	const Flow *f;
	const Dnp3Tx *tx;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct dnp3_line *l = ctx;

	/* as Suricata: the flow's own direction, whichever way the message went */
	eve_header_write_tx(w, "dnp3", l->p, l->f, 0);
	jw_object(w, "dnp3");
	dnp3_json_write(w, l->tx);
	jw_close(w);
}

static void log_dnp3_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	struct dnp3_line l = { p, f, tx };

	if (o && o->cfg.eve_anomaly.applayer && o->eve_anomaly)
		log_dnp3_events(o, p, f, tx);
	if (!o || !outputs_eve_enabled(o, "dnp3"))
		return;
	eve_write_built(o, "dnp3", build_record, &l);
}

static int alert_dnp3_write(JsonWriter *w, const Flow *f, void *txp)
{
	const Dnp3Tx *tx = txp;

	(void)f;
	if (!tx)
		return -1;
	jw_object(w, "dnp3");
	jw_object(w, tx->is_request ? "request" : "response");
	dnp3_json_write(w, tx);
	jw_close(w);
	jw_close(w);
	return 0;
}

const EveTxLogger eve_dnp3_logger = {
	.log_tx = log_dnp3_tx,
	.alert_write = alert_dnp3_write,
	.log_events = log_dnp3_events,
};
