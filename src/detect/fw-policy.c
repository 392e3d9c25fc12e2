/* firewall.policies (Suricata 8.0.x, "Default policies"): a default-policy
 * at several levels, the most specific present setting of a hook winning:
 *   packet hook: packet.<hook> > packet.default-policy > default-policy
 *   app hook:    app.<proto>.<hook> > app.<proto>.default-policy >
 *                app.default-policy > default-policy
 * then the built-in. Each value is a list: the primary action with its
 * scope, then secondary actions ["drop:flow", "alert"]. A scope the hook
 * does not take fails the start, inherited or not (accept:tx as the
 * global default reaches the packet hooks, which have no transaction). */
#include "detect/fw-policy.h"

#include "conf/conf.h"
#include "detect/detect-parse.h"

#include <stdio.h>
#include <string.h>

static const char *const scope_names[] = { [FW_SCOPE_PACKET] = "packet", [FW_SCOPE_FLOW] = "flow",
					   [FW_SCOPE_HOOK] = "hook", [FW_SCOPE_TX] = "tx" };

static int scope_of(const char *s)
{
	for (int i = FW_SCOPE_PACKET; i <= FW_SCOPE_TX; i++)
		if (strcmp(s, scope_names[i]) == 0)
			return i;
	return -1;
}

/* one item of a policy list: "accept:hook", "alert", "pass:flow" */
static int parse_item(FwPolicy *p, const char *item, int first, const char *key, char *err,
		      size_t errlen)
{
	char name[32];
	const char *colon = strchr(item, ':');
	int scope = 0;

	snprintf(name, sizeof(name), "%.*s", colon ? (int)(colon - item) : (int)strlen(item), item);
	if (colon && (scope = scope_of(colon + 1)) < 0) {
		snprintf(err, errlen, "%s: invalid action scope \"%s\"", key, colon + 1);
		return -1;
	}
	if (first) {
		if (strcmp(name, "accept") == 0)
			p->action = FW_ACT_ACCEPT;
		else if (strcmp(name, "drop") == 0)
			p->action = FW_ACT_DROP;
		else {
			snprintf(err, errlen, "%s: invalid policy action \"%s\" (accept or drop "
				 "with a scope first)", key, item);
			return -1;
		}
		if (!scope) {
			snprintf(err, errlen, "%s: policy action \"%s\" needs an explicit scope",
				 key, item);
			return -1;
		}
		if (p->action == FW_ACT_DROP && scope != FW_SCOPE_PACKET && scope != FW_SCOPE_FLOW) {
			snprintf(err, errlen, "%s: drop takes the scope packet or flow, not \"%s\"",
				 key, colon + 1);
			return -1;
		}
		p->scope = (uint8_t)scope;
		return 0;
	}
	if (strcmp(name, "alert") == 0 && !scope) {
		p->alert = 1;
	} else if (strcmp(name, "pass") == 0 &&
		   (scope == FW_SCOPE_FLOW || scope == FW_SCOPE_PACKET)) {
		/* as in a rule: pass acts on TD, after an accept only */
		if (p->action != FW_ACT_ACCEPT) {
			snprintf(err, errlen, "%s: pass requires an accept primary action", key);
			return -1;
		}
		p->td_pass = (uint8_t)scope;
	} else {
		snprintf(err, errlen, "%s: invalid secondary policy action \"%s\"", key, item);
		return -1;
	}
	return 0;
}

/* n: a list of actions or one string. 0: set, 1: absent, -1: bad. */
static int parse_policy(const ConfNode *n, FwPolicy *p, const char *key, char *err, size_t errlen)
{
	FwPolicy v = { 0 };
	int k = 0;

	if (!n)
		return 1;
	((ConfNode *)n)->used = 1;
	if (n->val) {
		if (parse_item(&v, n->val, 1, key, err, errlen))
			return -1;
		*p = v;
		return 0;
	}
	for (const ConfNode *c = n->child; c; c = c->next, k++) {
		((ConfNode *)c)->used = 1;
		if (!c->val || parse_item(&v, c->val, k == 0, key, err, errlen)) {
			if (!c->val)
				snprintf(err, errlen, "%s: a policy is a list of actions", key);
			return -1;
		}
	}
	if (!k) {
		snprintf(err, errlen, "%s: empty policy", key);
		return -1;
	}
	*p = v;
	return 0;
}

/* the hook's own key, with the yaml's hyphens: "pre-flow", "request-started" */
static void yaml_name(char *out, size_t len, const char *hook)
{
	snprintf(out, len, "%s", hook);
	for (char *c = out; *c; c++)
		if (*c == '_')
			*c = '-';
}

/* the scopes a hook takes: no tx without a transaction, no flow before
 * there is one (pre_flow, pre_stream) */
static int scope_ok(const FwPolicy *p, int app, int pre)
{
	if (p->scope == FW_SCOPE_TX && !app)
		return 0;
	if (p->scope == FW_SCOPE_FLOW && pre)
		return 0;
	return 1;
}

static int resolve(FwPolicy *out, const FwPolicy *builtin, const ConfNode *const *levels,
		   const char *const *keys, int nlev, int app, int pre, const char *hook, char *err,
		   size_t errlen)
{
	*out = *builtin;
	for (int i = 0; i < nlev; i++) {
		FwPolicy p;
		int r = parse_policy(levels[i], &p, keys[i], err, errlen);

		if (r < 0)
			return -1;
		if (r > 0)
			continue;
		if (!scope_ok(&p, app, pre)) {
			snprintf(err, errlen, "%s: scope %s is not valid for the %s hook", keys[i],
				 scope_names[p.scope], hook);
			return -1;
		}
		*out = p;
		return 0;
	}
	return 0;
}

int fw_policies_load(FwPolicies *p, char *err, size_t errlen)
{
	static const struct { const char *key, *hook; } pkt[FW_POL_PKT_N] = {
		[FW_POL_FILTER] = { "filter", "packet:filter" },
		[FW_POL_PRE_FLOW] = { "pre-flow", "packet:pre_flow" },
		[FW_POL_PRE_STREAM] = { "pre-stream", "packet:pre_stream" },
	};
	const FwPolicy drop_packet = { FW_ACT_DROP, FW_SCOPE_PACKET, 0, 0 };
	const FwPolicy accept_hook = { FW_ACT_ACCEPT, FW_SCOPE_HOOK, 0, 0 };
	const FwPolicy drop_flow = { FW_ACT_DROP, FW_SCOPE_FLOW, 0, 0 };
	const ConfNode *root = conf_get_node("firewall.policies");
	const ConfNode *glob = root ? conf_node_lookup(root, "default-policy") : NULL;
	const ConfNode *pn = root ? conf_node_lookup(root, "packet") : NULL;
	const ConfNode *an = root ? conf_node_lookup(root, "app") : NULL;
	const ConfNode *pdef = pn ? conf_node_lookup(pn, "default-policy") : NULL;
	const ConfNode *adef = an ? conf_node_lookup(an, "default-policy") : NULL;

	for (int h = 0; h < FW_POL_PKT_N; h++) {
		const ConfNode *lv[3] = { pn ? conf_node_lookup(pn, pkt[h].key) : NULL, pdef, glob };
		char k0[96];
		const char *keys[3] = { k0, "firewall.policies.packet.default-policy",
					"firewall.policies.default-policy" };

		snprintf(k0, sizeof(k0), "firewall.policies.packet.%s", pkt[h].key);
		if (resolve(&p->pkt[h], h == FW_POL_FILTER ? &drop_packet : &accept_hook, lv, keys, 3,
			    0, h != FW_POL_FILTER, pkt[h].hook, err, errlen))
			return -1;
	}
	for (unsigned a = ALPROTO_UNKNOWN + 1; a < ALPROTO_FAILED; a++) {
		const char *name = app_proto_name((uint16_t)a);
		const ConfNode *prn;
		const AppHook *hooks;
		int n;
		char kp[96];

		hooks = app_proto_hooks((uint16_t)a, &n);
		/* the yaml names HTTP/1 as a rule does, http1 */
		prn = an ? conf_node_lookup(an, strcmp(name, "http") == 0 ? "http1" : name) : NULL;
		if (!prn && an && strcmp(name, "http") == 0)
			prn = conf_node_lookup(an, "http");
		snprintf(kp, sizeof(kp), "firewall.policies.app.%s.default-policy", name);
		for (int h = 0; h < n && h < FW_POL_APP_HOOKS; h++) {
			char yn[64], k0[160], hook[96];
			const ConfNode *lv[4];
			const char *keys[4] = { k0, kp, "firewall.policies.app.default-policy",
						"firewall.policies.default-policy" };

			yaml_name(yn, sizeof(yn), hooks[h].name);
			snprintf(k0, sizeof(k0), "firewall.policies.app.%s.%s", name, yn);
			snprintf(hook, sizeof(hook), "%s:%s", name, hooks[h].name);
			lv[0] = prn ? conf_node_lookup(prn, yn) : NULL;
			lv[1] = prn ? conf_node_lookup(prn, "default-policy") : NULL;
			lv[2] = adef;
			lv[3] = glob;
			if (resolve(&p->app[a][h], &drop_flow, lv, keys, 4, 1, 0, hook, err, errlen))
				return -1;
		}
	}
	return 0;
}

void fw_policy_str(const FwPolicy *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%s%s%s%s", p->action == FW_ACT_DROP ? "drop" : "accept",
		 scope_names[p->scope ? p->scope : FW_SCOPE_HOOK], p->td_pass ? ",pass:" : "",
		 p->td_pass ? scope_names[p->td_pass] : "", p->alert ? ",alert" : "");
}
