/* The transaction-logging policy: when a transaction's records are
 * written and when it may be freed (entry "tx" of the logger list). The
 * records themselves come from the protocol's logger (tx-log.c); any
 * protocol, through the app layer's generic transactions. */
#include "output/logger-int.h"
#include "output/lua-out.h"
#include "app-layer/app-layer.h"
#include "app-layer/files.h"

/* Suricata's anomaly logger runs on every packet for the transactions not
 * logged yet: events as they come, on the packet whose data raised them
 * (output_tx_events_on). */
static void tx_events(OutputThread *ot, const Packet *p, const Flow *f, uint64_t n)
{
	for (uint64_t id = f->tx_log_next; id < n; id++) {
		void *tx = app_layer_tx_get(f, id);

		if (tx && !(app_layer_tx_flags(f, tx) & APP_TX_LOGGED))
			output_tx_log_events(ot->o, p, f, tx);
	}
}

/* The eve records of each transaction (http, smb, ...) once: when complete
 * both ways, or at flow end (final) whatever its state; then frees what
 * everyone is done with. A transaction's files log apart, each as it is
 * over (output_tx_log_files), before the transaction's own record, as
 * Suricata's do. Without detection the detect flags are set here so gc can
 * work. */
static void tx_log(OutputThread *ot, const Packet *p, Flow *f, int final)
{
	uint64_t n = app_layer_tx_count(f);
	int complete = n > f->tx_log_next ? app_proto_progress_complete(f->app_proto) : 0;
	/* files do not wait for the transactions before theirs: with them on,
	 * the walk goes on past a transaction whose record waits */
	int files = n > f->tx_log_next && output_tx_files_on(ot->o, f);
	int blocked = 0;
	unsigned need = APP_TX_LOGGED | APP_TX_FILE_LOGGED;

	/* a passed flow is inspected no more: its transactions go once
	 * logged, or they would pile up for the flow's life (Suricata bug
	 * 8619, suricata-verify bug-8619: LDAP past max-tx) */
	if (ot->dt && !detect_flow_is_passed(f))
		need |= APP_TX_DETECT_TS | APP_TX_DETECT_TC;
	if (p && !final && n > f->tx_log_next && output_tx_events_on(ot->o, f))
		tx_events(ot, p, f, n);
	for (uint64_t id = f->tx_log_next; id < n; id++) {
		void *tx = app_layer_tx_get(f, id);
		unsigned fl = tx ? app_layer_tx_flags(f, tx) : 0;
		int done, files_done;

		if (!tx || (fl & (APP_TX_LOGGED | APP_TX_FILE_LOGGED)) ==
				   (APP_TX_LOGGED | APP_TX_FILE_LOGGED)) {
			if (id == f->tx_log_next)
				f->tx_log_next++;
			continue;
		}
		files_done = (fl & APP_TX_FILE_LOGGED) ||
			     output_tx_log_files(ot->o, p, f, tx, final);
		if (!(fl & APP_TX_LOGGED)) {
			if (blocked)
				continue;
			done = app_layer_tx_progress(f, tx, APP_DIR_TOSERVER) == complete &&
			       app_layer_tx_progress(f, tx, APP_DIR_TOCLIENT) == complete;
			if ((!done || (ot->dt && !files_tx_log_ready(f, tx))) && !final) {
				/* transactions log in order, as Suricata's do */
				if (!files)
					break;
				blocked = 1;
				continue;
			}
			output_tx_log(ot->o, p, f, tx);
			lua_output_tx(ot, p, f, tx);
			app_layer_tx_set_flags(f, tx, APP_TX_LOGGED);
		}
		/* a file still open, or waiting for a packet of its direction,
		 * keeps the transaction (the tx is over: it gets no new files) */
		if (!files_done)
			continue;
		app_layer_tx_set_flags(f, tx, APP_TX_FILE_LOGGED);
		if (id == f->tx_log_next)
			f->tx_log_next++;
	}
	app_layer_tx_gc(f, need);
}

static void tx_packet(OutputThread *ot, const OutputPacketCtx *pc)
{
	if (pc->f && pc->f->alstate)
		tx_log(ot, pc->p, pc->f, 0);
}

static void tx_flow_end(OutputThread *ot, Flow *f, Packet *last, enum flow_end_reason why)
{
	(void)why;
	/* a dropped flow gets no flow-end inspection in Suricata: what was
	 * not complete when it was dropped is never logged
	 * (threshold-config-rate-filter-drop-hostdst) */
	if (f->alstate && !(f->ep_flags & FLOW_EP_DROP))
		tx_log(ot, last, f, 1);
}

const OutputLogger output_logger_tx = { "tx", tx_packet, tx_flow_end };
