/* Exception policies: parsing, effective policy per target, counters.
 * See exception-policy.h for the rules this follows. */
#include "util/exception-policy.h"

#include <stdio.h>
#include <string.h>

#include "conf/conf.h"
#include "util/log.h"

/* Order of enum ep_policy. */
static const char *const yaml_names[EP_POLICY_COUNT + 1] = {
	"ignore", "auto", "pass-packet", "pass-flow", "bypass", "drop-packet", "drop-flow",
	"reject", NULL,
};
/* The values in the order Suricata's documentation lists them (and our
 * "invalid value" message), with their enum. */
static const char *const conf_values[] = {
	"auto", "pass-packet", "pass-flow", "bypass", "drop-packet", "drop-flow", "reject",
	"ignore", NULL,
};
static const enum ep_policy conf_policy[] = {
	EP_AUTO, EP_PASS_PACKET, EP_PASS_FLOW, EP_BYPASS, EP_DROP_PACKET, EP_DROP_FLOW,
	EP_REJECT, EP_IGNORE,
};

static const char *const json_names[EP_POLICY_COUNT] = {
	"ignore", "auto", "pass_packet", "pass_flow", "bypass", "drop_packet", "drop_flow",
	"reject",
};

static const struct {
	const char *key;      /* yaml key of the target's own policy */
	const char *target;   /* eve flow.exception_policy[].target */
	const char *stats;    /* counter prefix (Suricata 8) */
	int packet_only;      /* the policy can only act on the packet */
} targets[EP_TARGET_COUNT] = {
	[EP_FLOW_MEMCAP] = { "flow.memcap-policy", "flow_memcap",
			     "exception_policy.flow.memcap.", 1 },
	[EP_DEFRAG_MEMCAP] = { "defrag.memcap-policy", "defrag_memcap",
			       "exception_policy.defrag.memcap.", 1 },
	[EP_STREAM_MEMCAP] = { "stream.memcap-policy", "stream_memcap",
			       "exception_policy.tcp.ssn_memcap.", 0 },
	[EP_STREAM_REASSEMBLY_MEMCAP] = { "stream.reassembly.memcap-policy",
					  "stream_reassembly_memcap",
					  "exception_policy.tcp.reassembly.", 0 },
	[EP_STREAM_MIDSTREAM] = { "stream.midstream-policy", "stream_midstream",
				  "exception_policy.tcp.midstream.", 0 },
	[EP_APP_LAYER_ERROR] = { "app-layer.error-policy", "app_layer_error",
				 "exception_policy.app_layer.error.", 0 },
};

/* The run's policies (ep_config_use): written once before the packet
 * threads start, read-only while they run. */
static EpConfig g_cfg;
static int g_registered;
static counter_id g_cnt[EP_TARGET_COUNT][EP_POLICY_COUNT];

int ep_parse(const char *name, enum ep_policy *out)
{
	for (int i = 0; i < EP_POLICY_COUNT; i++)
		if (!strcmp(name, yaml_names[i])) {
			*out = (enum ep_policy)i;
			return 0;
		}
	return -1;
}

const char *ep_name(enum ep_policy p)
{
	return (unsigned)p < EP_POLICY_COUNT ? yaml_names[p] : "ignore";
}

const char *ep_json_name(enum ep_policy p)
{
	return (unsigned)p < EP_POLICY_COUNT ? json_names[p] : "ignore";
}

const char *ep_target_name(enum ep_target t)
{
	return (unsigned)t < EP_TARGET_COUNT ? targets[t].target : "none";
}

const char *ep_target_key(enum ep_target t)
{
	return (unsigned)t < EP_TARGET_COUNT ? targets[t].key : "";
}

/* Flow policies on a target that only has the packet: Suricata warns and
 * uses the packet form (bypass has none: ignore). */
static enum ep_policy packet_form(enum ep_target t, enum ep_policy p)
{
	if (t == EP_FLOW_MEMCAP || t == EP_DEFRAG_MEMCAP) {
		const char *why = targets[t].key;

		switch (p) {
		case EP_DROP_FLOW:
			log_warning("%s: flow actions are not supported here, using drop-packet", why);
			return EP_DROP_PACKET;
		case EP_PASS_FLOW:
			log_warning("%s: flow actions are not supported here, using pass-packet", why);
			return EP_PASS_PACKET;
		case EP_BYPASS:
			log_warning("%s: flow actions are not supported here, using ignore", why);
			return EP_IGNORE;
		default:
			break;
		}
	}
	return p;
}

/* "auto" (and no setting at all) is fail-closed in IPS mode, open in IDS
 * mode; a midstream pickup that stream.midstream allows is never refused. */
static enum ep_policy auto_policy(enum ep_target t, int ips, int midstream)
{
	if (!ips || (t == EP_STREAM_MIDSTREAM && midstream))
		return EP_IGNORE;
	return targets[t].packet_only ? EP_DROP_PACKET : EP_DROP_FLOW;
}

void ep_config_set(enum ep_target t, enum ep_policy p, int ips)
{
	g_cfg.ips = ips;
	if ((unsigned)t < EP_TARGET_COUNT)
		g_cfg.policy[t] = p;
}

void ep_config_use(const EpConfig *c)
{
	g_cfg = *c;
}

int ep_config_load(int ips, int midstream)
{
	EpConfig c = g_cfg;
	int rc = ep_config_resolve(&c, ips, midstream);

	/* a target whose key is bad keeps its policy: the caller stops anyway */
	ep_config_use(&c);
	return rc;
}

int ep_config_resolve(EpConfig *out, int ips, int midstream)
{
	enum ep_policy master = EP_IGNORE, p;
	int have_master = 0, rc = 0, v;

	out->ips = ips;
	v = 0;
	switch (conf_get_enum("exception-policy", conf_values, &v)) {
	case -1:
		return -1;
	case 1:
		have_master = 1;
		master = conf_policy[v];
		break;
	}
	/* The master switch drops nothing in IDS mode: its drop forms and
	 * reject are ignored there (Suricata logs the same). */
	if (have_master && !ips &&
	    (master == EP_DROP_PACKET || master == EP_DROP_FLOW || master == EP_REJECT)) {
		log_info("exception-policy: %s is not valid in IDS mode, using ignore",
			 ep_name(master));
		master = EP_IGNORE;
	}
	for (int t = 0; t < EP_TARGET_COUNT; t++) {
		int own = conf_get_enum(targets[t].key, conf_values, &v);

		if (own < 0) {
			rc = -1;
			continue;
		}
		if (own == 1) {
			p = conf_policy[v];
			if (t == EP_STREAM_MIDSTREAM && midstream && p != EP_IGNORE &&
			    p != EP_PASS_FLOW && p != EP_AUTO) {
				log_error("stream.midstream-policy: '%s' is not valid when "
					  "stream.midstream is on (use ignore or pass-flow)",
					  yaml_names[p]);
				rc = -1;
				continue;
			}
		} else if (have_master) {
			p = master;
		} else {
			p = EP_AUTO;
		}
		if (p == EP_AUTO)
			p = auto_policy((enum ep_target)t, ips, midstream);
		if (t == EP_STREAM_MIDSTREAM && (p == EP_PASS_PACKET || p == EP_DROP_PACKET)) {
			log_error("stream.midstream-policy: '%s' is not valid: a midstream "
				  "pickup concerns the whole flow", yaml_names[p]);
			rc = -1;
			continue;
		}
		out->policy[t] = packet_form((enum ep_target)t, p);
	}
	return rc;
}

enum ep_policy ep_policy_of(enum ep_target t)
{
	return (unsigned)t < EP_TARGET_COUNT ? g_cfg.policy[t] : EP_IGNORE;
}

/* The policies a target can end up with (ep_config_load never gives it
 * another), hence the counters it has. */
int ep_target_can(enum ep_target t, enum ep_policy p)
{
	if (p == EP_IGNORE || p == EP_AUTO)
		return 0;
	if (targets[t].packet_only)
		return p == EP_PASS_PACKET || p == EP_DROP_PACKET || p == EP_REJECT;
	if (t == EP_STREAM_MIDSTREAM)
		return p != EP_PASS_PACKET && p != EP_DROP_PACKET;
	return 1;
}

const char *ep_counter_name(enum ep_target t, enum ep_policy p, char *buf, unsigned len)
{
	snprintf(buf, len, "%s%s", targets[t].stats, ep_json_name(p));
	return buf;
}

void ep_register_counters(void)
{
	char name[96];

	for (int t = 0; t < EP_TARGET_COUNT; t++) {
		if (g_cfg.policy[t] == EP_IGNORE)
			continue;
		for (int p = 0; p < EP_POLICY_COUNT; p++)
			if (ep_target_can((enum ep_target)t, (enum ep_policy)p))
				g_cnt[t][p] = counter_register(
					ep_counter_name((enum ep_target)t, (enum ep_policy)p,
							name, sizeof(name)));
	}
	g_registered = 1;
}

unsigned ep_effect(enum ep_target t)
{
	switch (ep_policy_of(t)) {
	case EP_PASS_PACKET:
		return EP_EFF_PKT_NO_DETECT;
	case EP_PASS_FLOW:
		return EP_EFF_PKT_NO_DETECT | EP_EFF_FLOW_PASS;
	case EP_BYPASS:
		return EP_EFF_PKT_NO_DETECT | EP_EFF_FLOW_PASS | EP_EFF_FLOW_BYPASS;
	case EP_DROP_PACKET:
		return g_cfg.ips ? EP_EFF_PKT_DROP | EP_EFF_PKT_NO_DETECT : 0;
	case EP_DROP_FLOW:
	case EP_REJECT:
		/* reject is drop-flow plus a reset we cannot send from a pcap */
		if (!g_cfg.ips)
			return 0;
		if (targets[t].packet_only)
			return EP_EFF_PKT_DROP | EP_EFF_PKT_NO_DETECT;
		return EP_EFF_PKT_DROP | EP_EFF_PKT_NO_DETECT | EP_EFF_FLOW_DROP;
	default:
		return 0;
	}
}

unsigned ep_apply(ThreadCounters *tc, enum ep_target t)
{
	enum ep_policy p = ep_policy_of(t);

	if (p == EP_IGNORE)
		return 0;
	if (tc && g_registered && ep_target_can(t, p))
		counter_inc(tc, g_cnt[t][p]);
	return ep_effect(t);
}
