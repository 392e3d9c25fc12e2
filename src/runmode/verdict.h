/* The IPS verdict of a packet (--simulate-ips): what drops it, whether its
 * flow is dropped from then on, and Suricata's ips.*
 * counters (the drop record: output/logger.h). */
#ifndef RUNMODE_VERDICT_H
#define RUNMODE_VERDICT_H

#include "decode/packet.h"
#include "detect/engine.h"
#include "output/output.h"
#include "stats/counters.h"

/* ips.accepted, ips.blocked, ips.rejected, ips.replaced and
 * ips.drop_reason.* (Suricata 8 has them in IPS mode only). Before
 * counters_freeze(); ips 0 registers nothing. */
void verdict_register_counters(int ips, int firewall);

/* Before detection: a packet of a dropped flow is dropped ("flow drop")
 * unless something earlier on its path dropped it already. */
void verdict_flow(Packet *p);

/* After detection (dt NULL: none ran): a drop or reject rule drops p and,
 * when it acts on the flow, p's flow; Suricata's ips.* counters. Returns 1
 * when p is dropped in IPS mode (a drop record is due: the logger list
 * writes it), with *rule the rule that dropped it or NULL. */
int verdict_decide(DetectThread *dt, ThreadCounters *tc, Packet *p, const DetectAlert **rule);

#endif
