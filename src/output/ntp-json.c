/* eve "ntp" records and the ntp member of alerts (see ntp-json.h). */
#include "output/ntp-json.h"

#include "app-layer/app-layer.h"
#include "output/output-private.h"
#include "output/json-writer.h"

#include <stdio.h>

void ntp_json_write(JsonWriter *w, const NtpMsg *m)
{
	char ref[12];

	snprintf(ref, sizeof(ref), "%02x:%02x:%02x:%02x", m->ref_id[0], m->ref_id[1],
		 m->ref_id[2], m->ref_id[3]);
	jw_int(w, "version", m->version);
	jw_int(w, "mode", m->mode);
	jw_int(w, "stratum", m->stratum);
	jw_str(w, "reference_id", ref);
}

static void build_obj(JsonWriter *w, void *ctx)
{
	ntp_json_write(w, ctx);
}

json_t *ntp_json_object(const NtpMsg *m)
{
	return jw_build_tree(build_obj, (void *)m);
}

static void log_ntp_events(Outputs *o, const Packet *p, const Flow *f, void *txp)
{
	AppTx *t = txp;

	if (!p)
		return;
	for (int e = 0; e < NTP_EV_COUNT; e++) {
		if (!(t->events >> e & 1) || (t->events_logged >> e & 1))
			continue;
		t->events_logged |= 1u << e;
		output_anomaly_parser_event(o, p, f, "ntp", ntp_event_name(e), 0,
					    app_layer_tx_log_id(f, t));
	}
}

struct ntp_line {
	const Packet *p;
	const Flow *f;
	const NtpTx *tx;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct ntp_line *l = ctx;

	/* the message's own direction */
	eve_header_write_tx(w, "ntp", l->p, l->f, (l->tx->base.flags & APP_TX_ONLY_TC) != 0);
	jw_object(w, "ntp");
	ntp_json_write(w, &l->tx->m);
	jw_close(w);
}

static void log_ntp_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	struct ntp_line l = { p, f, tx };

	if (o && o->cfg.eve_anomaly.applayer && o->eve_anomaly)
		log_ntp_events(o, p, f, tx);
	if (!o || !l.tx->valid || !outputs_eve_enabled(o, "ntp"))
		return;
	eve_write_built(o, "ntp", build_record, &l);
}

static int alert_ntp_write(JsonWriter *w, const Flow *f, void *txp)
{
	const NtpTx *tx = txp;

	(void)f;
	if (!tx || !tx->valid)
		return -1;
	jw_object(w, "ntp");
	ntp_json_write(w, &tx->m);
	jw_close(w);
	return 0;
}

const EveTxLogger eve_ntp_logger = {
	.log_tx = log_ntp_tx,
	.alert_write = alert_ntp_write,
	.log_events = log_ntp_events,
};
