/* eve "snmp" records and the snmp member of alerts (see snmp-json.h). */
#include "output/snmp-json.h"

#include "app-layer/app-layer.h"
#include "output/output-private.h"
#include "output/json-writer.h"

#include <stdio.h>

void snmp_json_write(JsonWriter *w, const SnmpMsg *m)
{
	jw_int(w, "version", m->version);
	if (m->pdu_type >= 0)
		jw_str(w, "pdu_type", snmp_pdu_name(m->pdu_type));
	if (m->nvars) {
		jw_array(w, "vars");
		for (uint32_t i = 0; i < m->nvars; i++)
			jw_str(w, NULL, m->vars[i]);
		jw_close(w);
	}
	if (m->community)
		jw_bytes(w, "community", m->community, m->community_len);
	if (m->usm)
		jw_bytes(w, "usm", m->usm, m->usm_len);
	if (m->has_trap) {
		const char *t = snmp_trap_name(m->trap_type);
		char num[32];

		if (!t) {
			snprintf(num, sizeof(num), "%lld", (long long)m->trap_type);
			t = num;
		}
		jw_str(w, "trap_type", t);
		jw_str(w, "trap_oid", m->trap_oid);
		jw_str(w, "trap_address", m->trap_address);
	}
}

static void build_obj(JsonWriter *w, void *ctx)
{
	snmp_json_write(w, ctx);
}

json_t *snmp_json_object(const SnmpMsg *m)
{
	return jw_build_tree(build_obj, (void *)m);
}

static void log_snmp_events(Outputs *o, const Packet *p, const Flow *f, void *txp)
{
	AppTx *t = txp;

	if (!p)
		return;
	for (int e = 0; e < SNMP_EV_COUNT; e++) {
		if (!(t->events >> e & 1) || (t->events_logged >> e & 1))
			continue;
		t->events_logged |= 1u << e;
		output_anomaly_parser_event(o, p, f, "snmp", snmp_event_name(e), 0,
					    app_layer_tx_log_id(f, t));
	}
}

struct snmp_line {
	const Packet *p;
	const Flow *f;
	const SnmpTx *tx;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct snmp_line *l = ctx;

	/* as Suricata: the message's own direction */
	eve_header_write_tx(w, "snmp", l->p, l->f, (l->tx->base.flags & APP_TX_ONLY_TC) != 0);
	jw_object(w, "snmp");
	snmp_json_write(w, &l->tx->m);
	jw_close(w);
}

static void log_snmp_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	struct snmp_line l = { p, f, tx };

	if (o && o->cfg.eve_anomaly.applayer && o->eve_anomaly)
		log_snmp_events(o, p, f, tx);
	if (!o || !l.tx->valid || !outputs_eve_enabled(o, "snmp"))
		return;
	eve_write_built(o, "snmp", build_record, &l);
}

static int alert_snmp_write(JsonWriter *w, const Flow *f, void *txp)
{
	const SnmpTx *tx = txp;

	(void)f;
	if (!tx || !tx->valid)
		return -1;
	jw_object(w, "snmp");
	snmp_json_write(w, &tx->m);
	jw_close(w);
	return 0;
}

const EveTxLogger eve_snmp_logger = {
	.log_tx = log_snmp_tx,
	.alert_write = alert_snmp_write,
	.log_events = log_snmp_events,
};
