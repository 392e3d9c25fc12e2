/* What happens once a rule matched a packet: post-match actions, pass,
 * the IPS drop verdict, thresholds and tags, then the packet's alert
 * queue, and at the end the queue in Suricata's order (AlertInfo for the
 * outputs). */
#include "detect/packet.h"
#include "output/alert.h"

#include <string.h>

static counter_id c_alert, c_overflow, c_suppressed;
/* counters_generation() of the registration, not a flag: a process that
 * runs the engine again after counters_destroy() (the fuzz harnesses)
 * must register again, or the ids are stale */
static unsigned counters_done;

void detect_register_counters(void)
{
	if (counters_done == counters_generation())
		return;
	c_alert = counter_register("detect.alert");
	c_overflow = counter_register("detect.alert_queue_overflow");
	c_suppressed = counter_register("detect.alerts_suppressed");
	detect_state_register_counters();
	lua_register_counters();
	counters_done = counters_generation();
}

/* What the match came from: the stream data or frame pk holds, the
 * transaction the thread's tx inspection is on. */
static DetectAlert alert_of(const DetectThread *dt, const DetectPkt *pk, const DetectSig *ds)
{
	return (DetectAlert){
		.s = ds->s,
		.num = (uint32_t)(ds - dt->de->sigs),
		.action = ds->action,
		.from_stream = (uint8_t)pk->in_stream,
		.has_tx = (uint8_t)dt->cur_has_tx,
		.tx_id = dt->cur_tx,
		.data = pk->data,
		.data_len = pk->data_len,
		.stream_end = pk->data_end,
		.frame_id = pk->frame,
		.frame_dir = (uint8_t)pk->frame_dir,
	};
}

static void queue_alert(DetectThread *dt, const DetectPkt *pk, const DetectSig *ds,
			int action, int by_rate_filter)
{
	DetectAlert *a;
	int guessed;

	if (dt->nalerts >= dt->de->cfg.alert_max) {
		counter_inc(dt->tc, c_overflow);
		return;
	}
	a = &dt->alerts[dt->nalerts++];
	*a = alert_of(dt, pk, ds);
	/* a packet or stream rule's match: the transaction Suricata 8 gives
	 * it, if any (frames name their own) */
	if (!a->has_tx && !pk->frame && pk->p->flow &&
	    tx_alert_guess(dt, pk->p, ds->s, &a->tx_id, &guessed)) {
		a->has_tx = 1;
		a->tx_guessed = (uint8_t)guessed;
	}
	a->action = (uint8_t)action;
	a->by_rate_filter = (uint8_t)by_rate_filter;
}

/* Suricata: the pass of an IP-only (or like ip-only: header and ports
 * only) or app-layer rule passes the whole flow
 * (both directions, every later packet, its stream and transactions):
 * nothing of it is inspected for alerts any more. The pass of a packet or
 * stream rule passes only the packet (the caller stops its rule walk). */
int detect_flow_passed(const Packet *p)
{
	const DetectFlowState *fs = p->flow ? p->flow->detect : NULL;

	return fs && fs->flow_pass;
}

int detect_flow_is_passed(const Flow *f)
{
	const DetectFlowState *fs = f ? f->detect : NULL;

	return fs && fs->flow_pass;
}

static void flow_set_pass(DetectThread *dt, const DetectSig *ds, Packet *p)
{
	DetectFlowState *fs;

	/* a packet an earlier rule dropped stays dropped and its flow is not
	 * passed: the first of drop and pass in rule order wins, as in
	 * Suricata (util-action-tests/13, 16), whichever stage (packet,
	 * stream, transaction) found it first here */
	if (dt->has_drop && dt->drop.num < (uint32_t)(ds - dt->de->sigs))
		return;
	dt->pkt_pass = 1;
	/* pass:packet / pass:flow say it; else the rule's type does */
	if (ds->s->fw.scope == FW_SCOPE_PACKET ||
	    (ds->s->fw.scope != FW_SCOPE_FLOW && !ds->iponly && !ds->like_iponly && !ds->is_tx &&
	     !(ds->s->flags & SIG_FLAG_APPLAYER)))
		return;
	if (!p->flow || !(fs = detect_flow_state(dt->de, p->flow, 1)))
		return;
	fs->flow_pass = 1;
	p->flow->rule_pass = 1;
}

/* Whether an IPS drop by ds drops the flow as well: Suricata's signature
 * properties (ip-only, like ip-only and app-layer rules act on the flow, packet rules on
 * the packet, stream and packet-and-stream rules on the flow when the match
 * was stateful: on the stream or a transaction). */
static int drop_applies_to_flow(const DetectThread *dt, const DetectPkt *pk,
				const DetectSig *ds)
{
	/* drop:flow / drop:packet (Suricata 8's action scopes) */
	if (!(ds->s->flags & SIG_FLAG_FIREWALL) && ds->s->fw.scope)
		return ds->s->fw.scope == FW_SCOPE_FLOW;
	switch (ds->sig_type) {
	case SIG_TYPE_PKT:
		return ds->like_iponly;
	case SIG_TYPE_PKT_STREAM:
	case SIG_TYPE_STREAM:
		/* the data of a session not yet established (a SYN's payload)
		 * is no stream match for Suricata (util-action-tests/04) */
		return (pk->in_stream && pk->established) || dt->cur_has_tx;
	default:
		return 1;
	}
}

/* IPS: the first drop or reject rule to match decides the packet's verdict
 * (noalert rules too, as Suricata's drop log shows them). */
static uint8_t reject_target(enum sig_action a)
{
	switch (a) {
	case ACT_REJECT: case ACT_REJECTSRC: return ALERT_REJECT_TO_CLIENT;
	case ACT_REJECTDST: return ALERT_REJECT_TO_SERVER;
	case ACT_REJECTBOTH: return ALERT_REJECT_BOTH;
	default: return ALERT_REJECT_NONE;
	}
}

static void note_drop(DetectThread *dt, const DetectPkt *pk, const DetectSig *ds, int action,
		      int by_rate_filter)
{
	if (action != ALERT_ACTION_DROP && action != ALERT_ACTION_REJECT)
		return;
	/* a rate_filter's reject answers the sender, as a plain reject */
	if (!dt->pkt_reject && action == ALERT_ACTION_REJECT)
		dt->pkt_reject = ds->action == ALERT_ACTION_REJECT ? reject_target(ds->s->action)
								   : ALERT_REJECT_TO_CLIENT;
	if (!dt->de->cfg.ips || dt->has_drop || dt->pass_num < (uint32_t)(ds - dt->de->sigs))
		return;
	dt->has_drop = 1;
	dt->drop_flow = (uint8_t)drop_applies_to_flow(dt, pk, ds);
	dt->drop = alert_of(dt, pk, ds);
	dt->drop.action = (uint8_t)action;
	dt->drop.by_rate_filter = (uint8_t)by_rate_filter;
}

const DetectAlert *detect_packet_drop(const DetectThread *dt, int *flow)
{
	if (flow)
		*flow = dt->has_drop ? dt->drop_flow : 0;
	return dt->has_drop ? &dt->drop : NULL;
}

void detect_packet_verdict(const DetectThread *dt, int *pass, uint8_t *reject)
{
	*pass = dt->pkt_pass;
	*reject = dt->pkt_reject;
}

void detect_sig_matched_pkt(DetectThread *dt, const DetectPkt *pk, const DetectSig *ds,
			    Packet *p)
{
	DetectEngine *de = (DetectEngine *)dt->de;
	ThrResult thr;
	int alert, action = ds->action;

	/* the pass may have come from this very packet's inspection: its
	 * stream data and transactions are passed too */
	if (detect_flow_passed(p))
		return;
	detect_vars_commit(dt, ds->s, p);
	postmatch_apply(dt, ds->s, p);
	if (ds->action == ALERT_ACTION_PASS && (uint32_t)(ds - de->sigs) < dt->pass_num)
		dt->pass_num = (uint32_t)(ds - de->sigs);
	if ((ds->s->flags & SIG_FLAG_NOALERT) ||
	    (ds->action == ALERT_ACTION_PASS && !(ds->s->flags & SIG_FLAG_ALERT))) {
		note_drop(dt, pk, ds, action, 0);
		if (ds->action == ALERT_ACTION_PASS)
			flow_set_pass(dt, ds, p);
		return;
	}
	/* thresholds first: a rate_filter changes what the rule does, and a
	 * match a threshold holds back may not act either */
	alert = threshold_check(de, ds, p, &thr, dt->order_fn, dt->order_arg, dt->tc);
	if (thr.new_action >= 0)
		action = thr.new_action;
	if (!alert && !thr.act)
		return;
	note_drop(dt, pk, ds, action, thr.new_action >= 0);
	if (action == ALERT_ACTION_PASS) {
		flow_set_pass(dt, ds, p);
		/* the alert keyword: the pass rule's match is logged as an
		 * alert (allowed) before the flow or packet is passed */
		if (!(ds->s->flags & SIG_FLAG_ALERT) || !alert)
			return;
		action = ALERT_ACTION_ALERT;
	}
	if (!alert) {
		if (thr.suppressed)
			counter_inc(dt->tc, c_suppressed);
		return;
	}
	tag_apply(dt, ds->s, p);
	queue_alert(dt, pk, ds, action, thr.new_action >= 0);
}

void detect_fw_matched(DetectThread *dt, const DetectPkt *pk, const DetectSig *ds, Packet *p,
		       int drop)
{
	detect_vars_commit(dt, ds->s, p);
	postmatch_apply(dt, ds->s, p);
	/* a secondary pass (accept:flow,pass:flow): TD skips the packet or
	 * the flow; the firewall still sees it */
	if (!drop && ds->s->fw.td_pass) {
		DetectFlowState *fs;

		dt->pkt_pass = 1;
		if (ds->s->fw.td_pass == FW_SCOPE_FLOW && p->flow &&
		    (fs = detect_flow_state(dt->de, p->flow, 1))) {
			fs->flow_pass = 1;
			p->flow->rule_pass = 1;
		}
	}
	/* Suricata 8: a firewall rule alerts only with the alert action, and
	 * that alert goes through the rule's threshold, suppress and
	 * rate_filter like any other: they hold back the alert, never the
	 * verdict, which the firewall's table has already taken */
	if (ds->s->flags & SIG_FLAG_ALERT) {
		ThrResult thr;

		if (!threshold_check((DetectEngine *)dt->de, ds, p, &thr, dt->order_fn, dt->order_arg, dt->tc)) {
			if (thr.suppressed)
				counter_inc(dt->tc, c_suppressed);
			return;
		}
		queue_alert(dt, pk, ds, drop ? ALERT_ACTION_DROP : ALERT_ACTION_ALERT, 0);
	}
}

/* The transaction and frame inspectors' way in: the context of the
 * detect_packet() or detect_flow_flush() call they run in. */
void detect_sig_matched(DetectThread *dt, const DetectSig *ds, Packet *p)
{
	detect_sig_matched_pkt(dt, dt->pkt, ds, p);
}

/* Suricata orders a packet's alerts by rule (internal order), a
 * transaction's before a later one's; the queue holds them in the order
 * the passes found them (stream, packet, transactions). */
static void alerts_sort(DetectAlert *a, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++) {
		DetectAlert x = a[i];
		uint32_t j = i;

		for (; j > 0 && (a[j - 1].num > x.num ||
				 (a[j - 1].num == x.num && a[j - 1].has_tx && x.has_tx &&
				  a[j - 1].tx_id > x.tx_id)); j--)
			a[j] = a[j - 1];
		a[j] = x;
	}
}

/* Suricata finalizes a packet's alerts in rule order and stops at a pass:
 * a rule after the pass that matched in an earlier stage here (a packet
 * drop rule before an app-layer pass found on the transaction) neither
 * alerts nor drops. The firewall's alerts (past nsigs) stay. */
static void alerts_cut_at_pass(DetectThread *dt)
{
	uint32_t n = 0, pass = dt->pass_num;

	if (pass == UINT32_MAX)
		return;
	if (dt->has_drop && dt->drop.num > pass) {
		dt->has_drop = 0;
		dt->drop_flow = 0;
	}
	for (uint32_t i = 0; i < dt->nalerts; i++)
		if (dt->alerts[i].num <= pass || dt->alerts[i].num >= dt->de->nsigs)
			dt->alerts[n++] = dt->alerts[i];
	dt->nalerts = n;
}

uint32_t detect_alerts_done(DetectThread *dt)
{
	alerts_cut_at_pass(dt);
	if (dt->nalerts) {
		alerts_sort(dt->alerts, dt->nalerts);
		counter_add(dt->tc, c_alert, dt->nalerts);
	}
	return dt->nalerts;
}

void detect_alert_pktvars(const DetectThread *dt, AlertInfo *ai)
{
	ai->n_pktvars = detect_pktvars_get(dt, ai->pktvars, ALERT_VARS_MAX);
}

void detect_alert_info(const DetectEngine *de, const Packet *p, const DetectAlert *a,
		       AlertInfo *ai)
{
	const Signature *s = a->s;
	const DetectSig *ds = a->num < de->nsigs + de->nfw ? &de->sigs[a->num] : NULL;

	memset(ai, 0, sizeof(*ai));
	ai->action = a->action;
	ai->gid = s->gid;
	ai->sid = s->sid;
	ai->rev = s->rev;
	ai->msg = s->msg;
	ai->rule_text = s->raw;
	if (s->flags & SIG_FLAG_TARGET_SRC)
		ai->target = ALERT_TARGET_SRC;
	else if (s->flags & SIG_FLAG_TARGET_DST)
		ai->target = ALERT_TARGET_DST;
	ai->class_name = s->classtype;
	ai->priority = s->priority;
	ai->from_stream = a->from_stream;
	ai->payload = p->payload;
	ai->payload_len = p->payload_len;
	if (a->data) {
		ai->payload = a->data;
		ai->payload_len = a->data_len;
		ai->stream_end = a->stream_end;
	}
	ai->has_tx = a->has_tx;
	ai->tx_guessed = a->tx_guessed;
	ai->tx_id = a->tx_id;
	ai->frame_id = a->frame_id;
	ai->frame_dir = a->frame_dir;
	if (a->has_tx && !a->from_stream && !a->frame_id && p->proto == 6)
		/* a transaction's side is inspected on a packet of its own
		 * direction here: that side's data (Suricata inspects it on
		 * the packet acknowledging it and logs the data acknowledged) */
		ai->tx_stream = 1 + ((p->flags & PKT_TOCLIENT) ? 1 : 0);
	if (ds) {
		ai->class_desc = ds->class_desc;
		ai->metadata = ds->metadata;
		ai->n_metadata = ds->nmeta;
		ai->references = ds->refs;
		ai->n_references = ds->nrefs;
	}
	/* after the packet's detection: the bits its own rules set count */
	ai->n_flowbits = flowbits_set_names(de, p->flow, ai->flowbits, ALERT_FLOWBITS_MAX);
	ai->n_flowvars = detect_flowvars_get(p->flow, ai->flowvars, ALERT_VARS_MAX);
}
