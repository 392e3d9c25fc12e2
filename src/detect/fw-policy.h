/* Suricata 8.0's firewall.policies: the default policy of each firewall
 * hook, the verdict a hook takes when none of its rules decided. Read
 * once at start into a table the firewall (firewall.c) indexes by hook. */
#ifndef DETECT_FW_POLICY_H
#define DETECT_FW_POLICY_H

#include "app-layer/app-layer.h"

#include <stddef.h>
#include <stdint.h>

/* one policy: a primary FW_ACT_* with its FW_SCOPE_*, then the secondary
 * actions a firewall rule may have (alert, pass:<scope>) */
typedef struct FwPolicy {
	uint8_t action, scope;
	uint8_t alert;
	uint8_t td_pass;          /* FW_SCOPE_*: pass:packet / pass:flow, or 0 */
} FwPolicy;

/* the packet hooks with a policy, as firewall.policies.packet names them */
enum { FW_POL_FILTER = 0, FW_POL_PRE_FLOW, FW_POL_PRE_STREAM, FW_POL_PKT_N };
#define FW_POL_APP_HOOKS 24   /* more than any protocol's hook table */

typedef struct FwPolicies {
	FwPolicy pkt[FW_POL_PKT_N];
	/* [alproto][index in the protocol's hook table (app_proto_hooks)] */
	FwPolicy app[ALPROTO_FAILED][FW_POL_APP_HOOKS];
} FwPolicies;

/* The built-in policies (drop:packet for the packet filter, accept:hook
 * for pre_flow and pre_stream, drop:flow for every app hook), then
 * firewall.policies over them, the most specific setting of a hook
 * winning. -1 (err set, naming the key) on a malformed policy or a scope
 * the hook does not take. */
int fw_policies_load(FwPolicies *p, char *err, size_t errlen);
/* "drop:packet", "accept:flow,pass:flow,alert": p in Suricata's words. */
void fw_policy_str(const FwPolicy *p, char *buf, size_t len);

#endif
