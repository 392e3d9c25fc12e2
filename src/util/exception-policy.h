/* Exception policies (Suricata 8): what the engine does to a packet or its
 * flow when it hits a limit it cannot honour (a memcap, a parser error, a
 * session picked up midstream).
 *
 * Keys: the master switch `exception-policy` and, per target,
 * flow.memcap-policy, defrag.memcap-policy, stream.memcap-policy,
 * stream.reassembly.memcap-policy, stream.midstream-policy and
 * app-layer.error-policy. Values: auto, ignore, pass-packet, pass-flow,
 * bypass, drop-packet, drop-flow, reject; anything else stops the engine, as
 * in Suricata 8.
 *
 * Effective policy of a target, as Suricata 8 documents it:
 *   - its own key when set ("auto": drop-flow in IPS mode, ignore in IDS);
 *   - else the master switch, where IDS mode turns drop-*, reject and auto
 *     into ignore;
 *   - else drop-flow in IPS mode (ignore for a midstream pickup that
 *     stream.midstream allows), ignore in IDS mode.
 * Targets that only know packets (flow.memcap, defrag.memcap) turn drop-flow
 * into drop-packet, pass-flow into pass-packet and bypass into ignore. The
 * midstream policy refuses the packet policies, and with stream.midstream on
 * accepts only ignore and pass-flow when set on its own key.
 *
 * Counters (Suricata 8's names): exception_policy.<area>.<policy>, e.g.
 * exception_policy.flow.memcap.pass_packet, registered only for a target
 * whose effective policy is not ignore, one per policy the target can apply.
 * Each application of the policy counts one. In IDS mode drop-packet,
 * drop-flow and reject are counted but leave the traffic alone (no packet is
 * dropped in IDS mode). */
#ifndef UTIL_EXCEPTION_POLICY_H
#define UTIL_EXCEPTION_POLICY_H

#include <stdint.h>

#include "stats/counters.h"

enum ep_policy {
	EP_IGNORE = 0,
	EP_AUTO,
	EP_PASS_PACKET,
	EP_PASS_FLOW,
	EP_BYPASS,
	EP_DROP_PACKET,
	EP_DROP_FLOW,
	EP_REJECT,
	EP_POLICY_COUNT,
};

enum ep_target {
	EP_FLOW_MEMCAP = 0,
	EP_DEFRAG_MEMCAP,
	EP_STREAM_MEMCAP,
	EP_STREAM_REASSEMBLY_MEMCAP,
	EP_STREAM_MIDSTREAM,
	EP_APP_LAYER_ERROR,
	EP_TARGET_COUNT,
};

/* What a policy does to the traffic (ep_effect). */
#define EP_EFF_PKT_NO_DETECT  0x01u  /* this packet: no detection */
#define EP_EFF_FLOW_PASS      0x02u  /* the flow: no more detection (pass-flow) */
#define EP_EFF_FLOW_BYPASS    0x04u  /* the flow: no more stream, app-layer, detection */
#define EP_EFF_FLOW_DROP      0x08u  /* IPS: the flow is dropped, nothing more inspected */
#define EP_EFF_PKT_DROP       0x10u  /* IPS: this packet is dropped (not inspected) */

/* "drop-flow" -> EP_DROP_FLOW. -1 for an unknown name. */
int ep_parse(const char *name, enum ep_policy *out);
const char *ep_name(enum ep_policy p);        /* yaml name: "drop-flow" */
const char *ep_json_name(enum ep_policy p);   /* stats and eve name: "drop_flow" */
const char *ep_target_name(enum ep_target t); /* eve flow.exception_policy[].target */
const char *ep_target_key(enum ep_target t);  /* "flow.memcap-policy" */

/* The effective policies of a run (part of its RunPolicy, run-policy.h). */
typedef struct EpConfig {
	enum ep_policy policy[EP_TARGET_COUNT];
	int ips;                   /* the engine runs inline */
} EpConfig;

/* Reads every policy key into out (once, at start; out zeroed by the
 * caller: a target whose key is invalid is left as it was). ips: the
 * engine runs inline (--simulate-ips); midstream: stream.midstream. 0, or
 * -1 with the key and value logged. */
int ep_config_resolve(EpConfig *out, int ips, int midstream);
/* The packet path's policies from here (a copy of c: set before the
 * threads start, read-only while they run). */
void ep_config_use(const EpConfig *c);
/* ep_config_resolve, then ep_config_use (tests, tools). */
int ep_config_load(int ips, int midstream);
/* Sets the effective policies directly (unit tests). */
void ep_config_set(enum ep_target t, enum ep_policy p, int ips);

enum ep_policy ep_policy_of(enum ep_target t);

/* Registers exception_policy.* for the targets whose policy is not ignore.
 * After ep_config_load(), before counters_freeze(). */
void ep_register_counters(void);
/* Counter name of (t, p) written into buf ("exception_policy.tcp.midstream.
 * pass_flow"); buf is returned. */
const char *ep_counter_name(enum ep_target t, enum ep_policy p, char *buf, unsigned len);

/* 1 when t can end up with policy p (ep_config_load gives it no other),
 * so that p has a counter under t. */
int ep_target_can(enum ep_target t, enum ep_policy p);

/* The effect bits (EP_EFF_*) of t's policy in the running mode. */
unsigned ep_effect(enum ep_target t);
/* t's exception happened: counts the policy in tc (when it has counters)
 * and returns its effect bits; 0 when the policy is ignore. */
unsigned ep_apply(ThreadCounters *tc, enum ep_target t);

#endif
