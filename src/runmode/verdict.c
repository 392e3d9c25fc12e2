/* The IPS verdict (verdict.h). */
#include "runmode/verdict.h"
#include "output/alert.h"
#include "flow/flow.h"

#include <stdio.h>

/* Set once at start-up, read-only afterwards. */
static int ips_on;
static counter_id c_accepted, c_blocked, c_rejected, c_replaced;
static counter_id c_reason[PKT_DROP_REASON_COUNT];

void verdict_register_counters(int ips)
{
	ips_on = ips;
	if (!ips)
		return;
	c_accepted = counter_register("ips.accepted");
	c_blocked = counter_register("ips.blocked");
	c_rejected = counter_register("ips.rejected");
	c_replaced = counter_register("ips.replaced");
	for (int r = PKT_DROP_NONE + 1; r < PKT_DROP_REASON_COUNT; r++) {
		char name[96];

		snprintf(name, sizeof(name), "ips.drop_reason.%s",
			 pkt_drop_reason_counter((enum pkt_drop_reason)r));
		c_reason[r] = counter_register(name);
	}
}

void verdict_flow(Packet *p)
{
	if (p->flow && (p->flow->ep_flags & FLOW_EP_DROP) && !p->drop_reason)
		p->drop_reason = PKT_DROP_FLOW_DROP;
}

int verdict_decide(DetectThread *dt, ThreadCounters *tc, Packet *p, const DetectAlert **rule)
{
	const DetectAlert *da = NULL;
	int flow_drop = 0;

	*rule = NULL;
	if (!ips_on)
		return 0;
	if (dt && (da = detect_packet_drop(dt, &flow_drop))) {
		/* Suricata's reason for a drop a rate_filter's new_action made */
		if (!p->drop_reason)
			p->drop_reason = da->by_rate_filter ? PKT_DROP_RULES_THRESHOLD : PKT_DROP_RULES;
		if (flow_drop && p->flow)
			p->flow->ep_flags |= FLOW_EP_DROP;
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
	if (p->drop_reason < PKT_DROP_REASON_COUNT)
		counter_inc(tc, c_reason[p->drop_reason]);
	*rule = da;
	return 1;
}
