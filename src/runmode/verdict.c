/* The IPS verdict (verdict.h). */
#include "runmode/verdict.h"
#include "output/alert.h"
#include "flow/flow.h"

#include <stdio.h>

/* Set once at start-up, read-only afterwards. */
static int ips_on, fw_on;
static counter_id c_accepted, c_blocked, c_rejected, c_replaced;
static counter_id c_reason[PKT_DROP_REASON_COUNT];
/* firewall mode (Suricata 8's firewall.* counters, in firewall mode only) */
enum { FWR_RULES, FWR_DEFAULT_PACKET, FWR_DEFAULT_APP, FWR_PRE_FLOW, FWR_PRE_STREAM,
       FWR_FLOW_DROP, FWR_COUNT };
static counter_id c_fw_accepted, c_fw_blocked, c_fw_rejected, c_fw_discarded;
static counter_id c_fw_reason[FWR_COUNT];

static void fw_register_counters(void)
{
	static const char *const names[FWR_COUNT] = {
		"rules", "default_packet_policy", "default_app_policy", "pre_flow_hook",
		"pre_stream_hook", "flow_drop",
	};

	c_fw_accepted = counter_register("firewall.accepted");
	c_fw_blocked = counter_register("firewall.blocked");
	c_fw_rejected = counter_register("firewall.rejected");
	for (int r = 0; r < FWR_COUNT; r++) {
		char name[96];

		snprintf(name, sizeof(name), "firewall.drop_reason.%s", names[r]);
		c_fw_reason[r] = counter_register(name);
	}
	c_fw_discarded = counter_register("firewall.discarded_alerts");
}

void verdict_register_counters(int ips, int firewall)
{
	ips_on = ips;
	fw_on = ips && firewall;
	if (!ips)
		return;
	if (fw_on)
		fw_register_counters();
	c_accepted = counter_register("ips.accepted");
	c_blocked = counter_register("ips.blocked");
	c_rejected = counter_register("ips.rejected");
	c_replaced = counter_register("ips.replaced");
	/* the firewall's reasons are firewall.drop_reason.* only */
	for (int r = PKT_DROP_NONE + 1; r < PKT_DROP_DEFAULT_PACKET_POLICY; r++) {
		char name[96];

		snprintf(name, sizeof(name), "ips.drop_reason.%s",
			 pkt_drop_reason_counter((enum pkt_drop_reason)r));
		c_reason[r] = counter_register(name);
	}
}

void verdict_flow(Packet *p)
{
	/* Suricata 8 tells a flow an exception policy dropped (drop-flow)
	 * from one a rule or the firewall dropped */
	if (p->flow && (p->flow->ep_flags & FLOW_EP_DROP) && !p->drop_reason)
		p->drop_reason = (p->flow->ep_flags & (FLOW_EP_BY_RULE | FLOW_EP_FW_DROP)) ?
				 PKT_DROP_FLOW_DROP : PKT_DROP_EXCEPTION_POLICY_FLOW_DROP;
}

/* Firewall mode: a drop the firewall made (this packet's, or its flow's
 * from an earlier one) counts as the firewall's only, as Suricata 8's TD
 * instance never sees such a packet. 1: p is the firewall's drop. */
static int fw_verdict(DetectThread *dt, ThreadCounters *tc, Packet *p)
{
	uint8_t reason = 0;
	int flow = 0, r;

	if (detect_packet_fw_drop(dt, &reason, &flow)) {
		if (!p->drop_reason)
			p->drop_reason = reason;
		if (flow && p->flow)
			p->flow->ep_flags |= FLOW_EP_DROP | FLOW_EP_FW_DROP;
	} else if (!(p->drop_reason == PKT_DROP_FLOW_DROP && p->flow &&
		     (p->flow->ep_flags & FLOW_EP_FW_DROP))) {
		if (detect_packet_fw_ran(dt))
			counter_inc(tc, c_fw_accepted);
		return 0;
	}
	switch (p->drop_reason) {
	case PKT_DROP_DEFAULT_PACKET_POLICY: r = FWR_DEFAULT_PACKET; break;
	case PKT_DROP_DEFAULT_APP_POLICY: r = FWR_DEFAULT_APP; break;
	case PKT_DROP_PRE_FLOW_HOOK: r = FWR_PRE_FLOW; break;
	case PKT_DROP_PRE_STREAM_HOOK: r = FWR_PRE_STREAM; break;
	case PKT_DROP_FLOW_DROP: r = FWR_FLOW_DROP; break;
	default: r = FWR_RULES; break;
	}
	counter_inc(tc, c_fw_blocked);
	counter_inc(tc, c_fw_reason[r]);
	return 1;
}

int verdict_decide(DetectThread *dt, ThreadCounters *tc, Packet *p, const DetectAlert **rule)
{
	const DetectAlert *da = NULL;
	int flow_drop = 0;

	*rule = NULL;
	if (!ips_on)
		return 0;
	if (fw_on && fw_verdict(dt, tc, p))
		return 1;
	if (dt && (da = detect_packet_drop(dt, &flow_drop))) {
		/* Suricata's reason for a drop a rate_filter's new_action made */
		if (!p->drop_reason)
			p->drop_reason = da->by_rate_filter ? PKT_DROP_RULES_THRESHOLD : PKT_DROP_RULES;
		if (flow_drop && p->flow)
			p->flow->ep_flags |= FLOW_EP_DROP | FLOW_EP_BY_RULE;
	}
	if (!p->drop_reason) {
		counter_inc(tc, c_accepted);
		if (p->flags & PKT_MODIFIED)
			counter_inc(tc, c_replaced);
		return 0;
	}
	counter_inc(tc, c_blocked);
	if (da && da->action == ALERT_ACTION_REJECT)
		counter_inc(tc, c_rejected);
	if (p->drop_reason < PKT_DROP_DEFAULT_PACKET_POLICY)
		counter_inc(tc, c_reason[p->drop_reason]);
	*rule = da;
	return 1;
}
