/* eve "enip" records and the enip member of alerts (see enip-json.h). */
#include "output/enip-json.h"

#include "app-layer/app-layer.h"
#include "output/output-private.h"
#include "output/json-writer.h"

#include <stdio.h>

/* a name from a table, else the number */
static void name_or_num(JsonWriter *w, const char *key, const char *name, unsigned v)
{
	char num[16];

	if (!name) {
		snprintf(num, sizeof(num), "%u", v);
		name = num;
	}
	jw_str(w, key, name);
}

static void write_path(JsonWriter *w, const EnipCip *c)
{
	if (!c->nseg)
		return;
	jw_array(w, "path");
	for (unsigned i = 0; i < c->nseg; i++) {
		jw_object(w, NULL);
		jw_str(w, "segment_type", enip_seg_name(c->seg[i].type));
		jw_int(w, "value", c->seg[i].value);
		jw_close(w);
	}
	jw_close(w);
}

static const EnipCip *cip_class_of(const EnipCip *c, uint32_t *cls)
{
	for (unsigned i = 0; i < c->nseg; i++)
		if (c->seg[i].type == ENIP_SEG_CLASS) {
			*cls = c->seg[i].value;
			return c;
		}
	return NULL;
}

static void write_request_cip(JsonWriter *w, const EnipCip *c)
{
	uint32_t cls;

	name_or_num(w, "service", cip_service_name(c->service), c->service);
	/* a class outside the table has no name to write */
	if (cip_class_of(c, &cls) && cip_class_name(cls))
		jw_str(w, "class_name", cip_class_name(cls));
	write_path(w, c);
}

static void write_response_cip(JsonWriter *w, const EnipCip *c)
{
	char ext[8];

	name_or_num(w, "service", cip_service_name(c->service), c->service & 0x7f);
	name_or_num(w, "status", cip_status_name(c->status), c->status);
	if (c->has_ext) {
		snprintf(ext, sizeof(ext), "0x%04x", c->ext_status);
		jw_str(w, "status_extended", ext);
	}
}

static void write_cip(JsonWriter *w, const EnipPdu *p, int resp)
{
	unsigned first_emb = 1;

	if (!p->ncip)
		return;
	jw_object(w, "cip");
	if (resp)
		write_response_cip(w, &p->cip[0]);
	else
		write_request_cip(w, &p->cip[0]);
	for (unsigned i = 1; i < p->ncip; i++) {
		if (!p->cip[i].embedded)
			continue;
		if (first_emb) {
			jw_array(w, "multiple");
			first_emb = 0;
		}
		jw_object(w, NULL);
		if (resp)
			write_response_cip(w, &p->cip[i]);
		else
			write_request_cip(w, &p->cip[i]);
		jw_close(w);
	}
	if (!first_emb)
		jw_close(w);
	jw_close(w);
}

static void write_pdu(JsonWriter *w, const EnipPdu *p, int resp)
{
	name_or_num(w, "command", enip_cmd_name(p->command), p->command);
	name_or_num(w, "status", enip_status_name(p->status), p->status);
	if (p->has_register) {
		jw_object(w, "register_session");
		jw_int(w, "protocol_version", p->reg_version);
		jw_int(w, "options", p->reg_options);
		jw_close(w);
	}
	write_cip(w, p, resp);
	if (resp && p->has_identity) {
		const EnipIdentity *id = &p->id;
		char rev[8];

		jw_object(w, "identity");
		jw_int(w, "protocol_version", id->protocol_version);
		snprintf(rev, sizeof(rev), "%u.%u", id->rev_major, id->rev_minor);
		jw_str(w, "revision", rev);
		name_or_num(w, "vendor_id", enip_vendor_name(id->vendor_id), id->vendor_id);
		name_or_num(w, "device_type", enip_device_type_name(id->device_type),
			    id->device_type);
		jw_int(w, "product_code", id->product_code);
		jw_int(w, "status", id->status);
		jw_int(w, "serial", id->serial);
		jw_bytes(w, "product_name", id->name, id->name_len);
		jw_int(w, "state", id->state);
		jw_close(w);
	}
	if (resp && p->has_service) {
		jw_object(w, "list_services");
		jw_int(w, "protocol_version", p->svc_version);
		jw_int(w, "capabilities", p->capabilities);
		jw_bytes(w, "service_name", p->service_name, p->service_name_len);
		jw_close(w);
	}
}

void enip_json_write(JsonWriter *w, const EnipTx *tx)
{
	if (tx->has[APP_DIR_TOSERVER]) {
		jw_object(w, "request");
		write_pdu(w, &tx->pdu[APP_DIR_TOSERVER], 0);
		jw_close(w);
	}
	if (tx->has[APP_DIR_TOCLIENT]) {
		jw_object(w, "response");
		write_pdu(w, &tx->pdu[APP_DIR_TOCLIENT], 1);
		jw_close(w);
	}
}

static void build_obj(JsonWriter *w, void *ctx)
{
	enip_json_write(w, ctx);
}

json_t *enip_json_object(const EnipTx *tx)
{
	return jw_build_tree(build_obj, (void *)tx);
}

static void log_enip_events(Outputs *o, const Packet *p, const Flow *f, void *txp)
{
	AppTx *t = txp;

	if (!p)
		return;
	for (int e = 0; e < ENIP_EV_COUNT; e++) {
		if (!(t->events >> e & 1) || (t->events_logged >> e & 1))
			continue;
		t->events_logged |= 1u << e;
		output_anomaly_parser_event(o, p, f, "enip", enip_event_name(e), 0,
					    app_layer_tx_log_id(f, t));
	}
}

struct enip_line {
	const Packet *p;
	const Flow *f;
	const EnipTx *tx;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct enip_line *l = ctx;

	eve_header_write_tx(w, "enip", l->p, l->f, 0);
	jw_object(w, "enip");
	enip_json_write(w, l->tx);
	jw_close(w);
}

static void log_enip_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	struct enip_line l = { p, f, tx };

	if (o && o->cfg.eve_anomaly.applayer && o->eve_anomaly)
		log_enip_events(o, p, f, tx);
	if (!o || !outputs_eve_enabled(o, "enip"))
		return;
	eve_write_built(o, "enip", build_record, &l);
}

static int alert_enip_write(JsonWriter *w, const Flow *f, void *txp)
{
	const EnipTx *tx = txp;

	(void)f;
	if (!tx)
		return -1;
	jw_object(w, "enip");
	enip_json_write(w, tx);
	jw_close(w);
	return 0;
}

const EveTxLogger eve_enip_logger = {
	.log_tx = log_enip_tx,
	.alert_write = alert_enip_write,
	.log_events = log_enip_events,
};
