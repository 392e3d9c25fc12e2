/* Suricata 8's firewall mode: the firewall rules' tables and their
 * evaluation on a packet, before the threat-detection (TD) rules.
 *
 * The rules come from their own files (firewall.rule-files, or
 * --firewall-rules-exclusive), take accept or drop with an explicit scope
 * and name their hook in the protocol field. They are evaluated in file
 * order, per hook, and the first rule that matches decides the hook:
 *   accept:hook    the hook is passed: on to the next table
 *   accept:packet  the packet is accepted (no further firewall table)
 *   accept:flow    the packet and the rest of its flow are accepted
 *   accept:tx      (app hooks) the transaction's remaining hooks of that
 *                  side are accepted
 *   drop:packet / drop:flow
 * A hook no rule decided takes its default policy: drop:packet for the
 * packet filter (all, flow_start), accept:hook for pre_flow and pre_stream,
 * drop:flow for every app-layer hook, unless firewall.policies sets
 * another (fw-policy.c). Each app-layer hook is evaluated once
 * per transaction side, when the transaction's progress reaches it, in the
 * order of the protocol's hook table (app-layer.h, AppHook).
 *
 * Only what the firewall accepts goes on to TD (detect_packet). The verdict
 * is the thread's until the next packet (detect_packet_fw_drop). */
#include "detect/packet.h"
#include "app-layer/app-layer.h"
#include "detect/fw-policy.h"

#include <stdlib.h>

/* the verdict of one table */
enum fw_verdict { FWV_NONE = 0, FWV_HOOK, FWV_PACKET, FWV_FLOW, FWV_TX, FWV_DROP_PACKET,
		  FWV_DROP_FLOW };

static enum fw_verdict verdict_of(const Signature *s)
{
	if (s->fw.action == FW_ACT_DROP)
		return s->fw.scope == FW_SCOPE_FLOW ? FWV_DROP_FLOW : FWV_DROP_PACKET;
	switch (s->fw.scope) {
	case FW_SCOPE_PACKET: return FWV_PACKET;
	case FW_SCOPE_FLOW: return FWV_FLOW;
	case FW_SCOPE_TX: return FWV_TX;
	default: return FWV_HOOK;
	}
}

/* The verdict of a hook no rule decided: its firewall.policies setting
 * (fw-policy.h), else the built-in one. */
static enum fw_verdict policy_verdict(const FwPolicy *p, enum fw_verdict builtin)
{
	Signature s;

	if (!p->action)
		return builtin;
	s.fw.action = p->action;
	s.fw.scope = p->scope;
	return verdict_of(&s);
}

int fw_tables_build(DetectEngine *de)
{
	uint32_t n = de->nfw ? de->nfw : 1;

	de->fw_pkt = calloc(n, sizeof(*de->fw_pkt));
	de->fw_pre = calloc(n, sizeof(*de->fw_pre));
	de->fw_app = calloc(n, sizeof(*de->fw_app));
	if (!de->fw_pkt || !de->fw_pre || !de->fw_app)
		return -1;
	for (uint32_t i = de->nsigs; i < de->nsigs + de->nfw; i++) {
		const DetectSig *ds = &de->sigs[i];
		const Signature *s = ds->s;

		if (s->fw.app)
			de->fw_app[de->nfw_app++] = ds;
		else if (s->fw.hook <= FW_HOOK_PRE_STREAM)
			de->fw_pre[de->nfw_pre++] = ds;
		else
			de->fw_pkt[de->nfw_pkt++] = ds;
	}
	return 0;
}

void fw_tables_free(DetectEngine *de)
{
	free(de->fw_pkt);
	free(de->fw_pre);
	free(de->fw_app);
	de->fw_pkt = de->fw_pre = de->fw_app = NULL;
}

/* The first packet of its direction in the flow (Suricata's flow_start:
 * "the first packet in both the directions"); no flow: every packet. */
/* accept:flow: the firewall takes no more interest in the flow */
static void accept_flow(DetectFlowState *fs, Flow *f)
{
	fs->fw_flow = 1;
	if (!f->rule_pass)
		f->rule_pass = FLOW_FW_ACCEPT;
}

static int flow_start(const Packet *p)
{
	const Flow *f = p->flow;

	if (!f)
		return 1;
	return (p->flags & PKT_TOCLIENT) ? f->pkts_toclient <= 1 : f->pkts_toserver <= 1;
}

/* A packet table (pre or filter): the first rule that matches decides. */
static enum fw_verdict eval_packet_table(DetectThread *dt, DetectPkt *pk,
					 const DetectSig *const *tab, uint32_t n, int pre,
					 const DetectSig **by)
{
	Packet *p = pk->p;
	int start = -1;

	for (uint32_t i = 0; i < n; i++) {
		const DetectSig *ds = tab[i];
		enum fw_verdict v;

		if (!pre && ds->s->fw.hook == FW_HOOK_FLOW_START) {
			if (start < 0)
				start = flow_start(p);
			if (!start)
				continue;
		}
		if (!detect_inspect_sig_fw(dt, pk, ds))
			continue;
		v = verdict_of(ds->s);
		detect_fw_matched(dt, pk, ds, p, v >= FWV_DROP_PACKET);
		*by = ds;
		return v;
	}
	return FWV_NONE;
}

/* Hook h of the flow's protocol, on transaction tx's side d: the first
 * rule that matches decides. A "<state" rule of a later hook of that
 * side accepts h on its header alone (Suricata's auto-accept). */
static enum fw_verdict eval_app_hook(DetectThread *dt, DetectPkt *pk, void *tx, uint64_t txid,
				     int h, int d)
{
	const DetectEngine *de = dt->de;
	Packet *p = pk->p;
	uint16_t alproto = p->flow->app_proto;
	int nh;
	const AppHook *hooks = app_proto_hooks(alproto, &nh);

	for (uint32_t i = 0; i < de->nfw_app; i++) {
		const DetectSig *ds = de->fw_app[i];
		const Signature *s = ds->s;
		enum fw_verdict v;
		int m;

		if (s->alproto != alproto)
			continue;
		if (s->fw.hook != h) {
			if (!(s->fw.lte && s->fw.hook > h && s->fw.hook < nh &&
			      hooks[s->fw.hook].dir == d && inspect_header(ds, p)))
				continue;
			return FWV_HOOK;
		}
		m = tx_sig_match_fw(dt, pk->fs, ds, p, tx, d);
		if (!m)
			continue;
		v = verdict_of(s);
		dt->cur_has_tx = 1;
		dt->cur_tx = txid;
		detect_fw_matched(dt, pk, ds, p, v >= FWV_DROP_PACKET);
		dt->cur_has_tx = 0;
		return v;
	}
	return FWV_NONE;
}

/* The app-layer tables of side d: each transaction's hooks of that side,
 * in order, as far as its progress has reached. fw_hook[d] is one past
 * the last hook evaluated: a hook the transaction has moved beyond is
 * evaluated once and left behind, whatever its verdict (an accept:packet
 * there accepted its packet: the next packet goes on from the hook after
 * it), while the hook of the transaction's current state is evaluated
 * again on each packet as long as the transaction stays there (Suricata's
 * per-packet inspection of a transaction in progress). */
static enum fw_verdict eval_app(DetectThread *dt, DetectPkt *pk, int d)
{
	Packet *p = pk->p;
	Flow *f = p->flow;
	DetectFlowState *fs = pk->fs;
	uint16_t alproto = f->app_proto;
	int nh, complete = app_proto_progress_complete(alproto);
	const AppHook *hooks = app_proto_hooks(alproto, &nh);
	uint64_t low = app_layer_tx_low(f), count = app_layer_tx_count(f);

	if (!hooks)
		return FWV_HOOK;
	if (fs->fw_tx[d] < low) {
		fs->fw_tx[d] = low;
		fs->fw_hook[d] = 0;
		fs->fw_tx_acc[d] = 0;
	}
	while (fs->fw_tx[d] < count) {
		uint64_t id = fs->fw_tx[d];
		void *tx = app_layer_tx_get(f, id);
		int prog, cur = -1, last = -1, k;

		if (!tx) {
			fs->fw_tx[d]++;
			fs->fw_hook[d] = 0;
			fs->fw_tx_acc[d] = 0;
			continue;
		}
		prog = app_layer_tx_progress(f, tx, d);
		/* cur: the side's last hook reached; last: its last hook */
		for (int h = 0; h < nh; h++) {
			if (hooks[h].dir != d)
				continue;
			last = h;
			if (app_hook_progress(alproto, &hooks[h]) <= prog)
				cur = h;
		}
		if (cur < 0)
			return FWV_HOOK;
		k = fs->fw_hook[d];
		if (k && k - 1 == cur)
			k = cur;              /* still in the state evaluated last */
		for (; k <= cur && !fs->fw_tx_acc[d]; k++) {
			enum fw_verdict v;

			if (hooks[k].dir != d)
				continue;
			int by_policy = 0;

			v = eval_app_hook(dt, pk, tx, id, k, d);
			if (v == FWV_NONE) {
				/* the hook's default policy (built in: drop:flow) */
				v = k < FW_POL_APP_HOOKS ? policy_verdict(&dt->de->cfg.fw_pol.app[alproto][k],
									   FWV_DROP_FLOW)
							 : FWV_DROP_FLOW;
				by_policy = 1;
			}
			fs->fw_hook[d] = (uint8_t)(k + 1);
			switch (v) {
			case FWV_HOOK:
				break;
			case FWV_TX:
				fs->fw_tx_acc[d] = 1;
				break;
			default:
				if (v >= FWV_DROP_PACKET)
					dt->fw_reason = by_policy ? PKT_DROP_DEFAULT_APP_POLICY
								  : PKT_DROP_RULES;
				return v;
			}
		}
		/* the side done and its last hook evaluated: the next one */
		if (prog < complete || (cur != last && !fs->fw_tx_acc[d]))
			break;
		fs->fw_tx[d]++;
		fs->fw_hook[d] = 0;
		fs->fw_tx_acc[d] = 0;
	}
	return FWV_HOOK;
}

/* 1: the firewall accepts p (TD goes on), 0: it dropped p (dt->fw_*). */
int fw_packet(DetectThread *dt, DetectPkt *pk)
{
	const DetectEngine *de = dt->de;
	Packet *p = pk->p;
	const DetectSig *by = NULL;
	enum fw_verdict v;

	dt->fw_ran = 1;
	if (p->flow && !pk->fs)
		pk->fs = detect_flow_state(de, p->flow, 1);
	if (pk->fs && pk->fs->fw_flow)
		return 1;
	/* pre_flow and pre_stream: their policies (built in: accept:hook)
	 * when no rule decides; pre_stream is TCP's alone */
	v = eval_packet_table(dt, pk, de->fw_pre, de->nfw_pre, 1, &by);
	if (v == FWV_NONE) {
		int hook = FW_HOOK_PRE_FLOW;

		v = policy_verdict(&de->cfg.fw_pol.pkt[FW_POL_PRE_FLOW], FWV_HOOK);
		if (v == FWV_HOOK && PKT_IS_TCP(p)) {
			hook = FW_HOOK_PRE_STREAM;
			v = policy_verdict(&de->cfg.fw_pol.pkt[FW_POL_PRE_STREAM], FWV_HOOK);
		}
		if (v >= FWV_DROP_PACKET) {
			dt->fw_reason = hook == FW_HOOK_PRE_FLOW ? PKT_DROP_PRE_FLOW_HOOK
								 : PKT_DROP_PRE_STREAM_HOOK;
			goto drop;
		}
	}
	if (v >= FWV_DROP_PACKET) {
		dt->fw_reason = by->s->fw.hook == FW_HOOK_PRE_FLOW ? PKT_DROP_PRE_FLOW_HOOK
								   : PKT_DROP_PRE_STREAM_HOOK;
		goto drop;
	}
	if (v == FWV_FLOW && pk->fs)
		accept_flow(pk->fs, p->flow);
	if (v == FWV_PACKET || v == FWV_FLOW)
		return 1;
	/* the packet filter: its policy (built in: drop:packet) when no rule
	 * decides */
	v = eval_packet_table(dt, pk, de->fw_pkt, de->nfw_pkt, 0, &by);
	if (v == FWV_NONE) {
		v = policy_verdict(&de->cfg.fw_pol.pkt[FW_POL_FILTER], FWV_DROP_PACKET);
		if (v >= FWV_DROP_PACKET) {
			dt->fw_reason = PKT_DROP_DEFAULT_PACKET_POLICY;
			goto drop;
		}
	}
	switch (v) {
	case FWV_DROP_PACKET:
	case FWV_DROP_FLOW:
		dt->fw_reason = PKT_DROP_RULES;
		goto drop;
	case FWV_FLOW:
		if (pk->fs)
			accept_flow(pk->fs, p->flow);
		return 1;
	case FWV_PACKET:
		return 1;
	default:
		break;
	}
	/* the app-layer tables, on a packet that updated the app layer (its
	 * data, or the end of its side), when the flow has transactions */
	if (!pk->fs || !app_layer_has_txs(p->flow) ||
	    (!p->payload_len && !(PKT_IS_TCP(p) && (p->tcp_flags & (TH_FIN | TH_RST)))))
		return 1;
	v = eval_app(dt, pk, pk->dir);
	if (v == FWV_FLOW)
		accept_flow(pk->fs, p->flow);
	if (v < FWV_DROP_PACKET)
		return 1;
drop:
	dt->fw_drop = 1;
	dt->fw_drop_flow = v == FWV_DROP_FLOW && p->flow;
	return 0;
}

int detect_packet_fw_drop(const DetectThread *dt, uint8_t *reason, int *flow)
{
	if (!dt || !dt->fw_drop)
		return 0;
	*reason = dt->fw_reason;
	*flow = dt->fw_drop_flow;
	return 1;
}

int detect_packet_fw_ran(const DetectThread *dt)
{
	return dt && dt->fw_ran;
}

int detect_engine_firewall(const DetectEngine *de)
{
	return de && de->cfg.firewall && de->cfg.ips;
}
