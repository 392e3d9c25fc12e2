/* --engine-analysis in firewall mode: firewall.json, the firewall rule
 * set as the engine evaluates it (Suricata 8: "Firewall rules are
 * available in the file firewall.json as a part of the output of engine
 * analysis"). One JSON document on one line:
 *   {"tables": {"packet:pre_flow":   {"policy": "accept:hook", "rules": [..]},
 *               "packet:pre_stream": {...},
 *               "packet:filter":     {"policy": "drop:packet", "rules": [..]},
 *               "app:filter": {"tls": {"client_hello_done":
 *                                       {"policy": "drop:flow", "rules": [..]}}}}}
 * each table's rules in evaluation (file) order, each with its policy:
 * firewall.policies' or the built-in. The app-layer tables are listed for
 * the protocols that have firewall rules, every hook of each. */
#include "detect/engine-int.h"
#include "detect/fw-policy.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const scope_names[] = { "", "packet", "flow", "hook", "tx" };

static json_t *rule_json(const Signature *s)
{
	json_t *r = json_object();
	char act[48];

	snprintf(act, sizeof(act), "%s:%s%s", s->fw.action == FW_ACT_DROP ? "drop" : "accept",
		 scope_names[s->fw.scope <= FW_SCOPE_TX ? s->fw.scope : 0],
		 (s->flags & SIG_FLAG_ALERT) ? ",alert" : "");
	json_object_set_new(r, "id", json_integer(s->sid));
	json_object_set_new(r, "gid", json_integer(s->gid));
	json_object_set_new(r, "rev", json_integer(s->rev));
	json_object_set_new(r, "action", json_string(act));
	json_object_set_new(r, "raw", json_string(s->raw ? s->raw : ""));
	return r;
}

/* a table: its policy (zero: the built-in, given) and its rules */
static json_t *table_json(const FwPolicy *set, const FwPolicy *builtin)
{
	json_t *t = json_object();
	char pol[64];

	fw_policy_str(set->action ? set : builtin, pol, sizeof(pol));
	json_object_set_new(t, "policy", json_string(pol));
	json_object_set_new(t, "rules", json_array());
	return t;
}

int fw_analysis_write(const DetectEngine *de, FILE *f)
{
	static const FwPolicy drop_packet = { FW_ACT_DROP, FW_SCOPE_PACKET, 0, 0 };
	static const FwPolicy accept_hook = { FW_ACT_ACCEPT, FW_SCOPE_HOOK, 0, 0 };
	static const FwPolicy drop_flow = { FW_ACT_DROP, FW_SCOPE_FLOW, 0, 0 };
	const FwPolicies *pol = &de->cfg.fw_pol;
	json_t *root = json_object(), *tables = json_object(), *app = json_object();
	json_t *pre_flow = table_json(&pol->pkt[FW_POL_PRE_FLOW], &accept_hook);
	json_t *pre_stream = table_json(&pol->pkt[FW_POL_PRE_STREAM], &accept_hook);
	json_t *filter = table_json(&pol->pkt[FW_POL_FILTER], &drop_packet);
	char *txt;
	int rc;

	json_object_set_new(tables, "packet:pre_flow", pre_flow);
	json_object_set_new(tables, "packet:pre_stream", pre_stream);
	json_object_set_new(tables, "packet:filter", filter);
	for (uint32_t i = de->nsigs; i < de->nsigs + de->nfw; i++) {
		const Signature *s = de->sigs[i].s;
		json_t *t;

		if (!s->fw.app) {
			t = s->fw.hook == FW_HOOK_PRE_FLOW ? pre_flow :
			    s->fw.hook == FW_HOOK_PRE_STREAM ? pre_stream : filter;
		} else {
			const char *pname = app_proto_name(s->alproto);
			json_t *proto;
			int n;
			const AppHook *h = app_proto_hooks(s->alproto, &n);

			if (strcmp(pname, "http") == 0)
				pname = "http1";
			proto = json_object_get(app, pname);
			if (!proto) {
				proto = json_object();
				for (int k = 0; k < n; k++)
					json_object_set_new(proto, h[k].name,
							    table_json(k < FW_POL_APP_HOOKS ?
								       &pol->app[s->alproto][k] : &drop_flow,
								       &drop_flow));
				json_object_set_new(app, pname, proto);
			}
			t = json_object_get(proto, h[s->fw.hook].name);
		}
		json_array_append_new(json_object_get(t, "rules"), rule_json(s));
	}
	json_object_set_new(tables, "app:filter", app);
	json_object_set_new(root, "tables", tables);
	txt = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (!txt)
		return -1;
	rc = fprintf(f, "%s\n", txt) < 0 ? -1 : 0;
	free(txt);
	return rc;
}
