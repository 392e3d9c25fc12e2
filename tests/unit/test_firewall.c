/* Suricata 8's firewall mode: the firewall rules' actions, scopes and hooks
 * (parser), and their evaluation before the threat-detection rules on
 * packets (detect/firewall.c): first match decides, the packet filter's
 * default drop:packet, accept:flow, the alert action. */
#include "test.h"
#include "detect-test-util.h"
#include "app-layer/app-layer.h"
#include "conf/conf.h"
#include "detect/fw-policy.h"
#include "decode/packet.h"
#include "flow/flow.h"
#include "output/alert.h"

#include <stdlib.h>
#include <string.h>

static char err[512];
static int code;

/* rule parsed as a firewall rule (fw) or a threat-detection one */
static Signature *P(const char *rule, int fw)
{
	DetectContext ctx = { .firewall = (uint8_t)fw };
	Signature *s = sig_parse(rule, &ctx, err, sizeof(err), &code);

	if (!s)
		printf("  parse error: %s\n  rule: %s\n", err, rule);
	return s;
}

static int E(const char *rule, int fw)
{
	DetectContext ctx = { .firewall = (uint8_t)fw };
	Signature *s = sig_parse(rule, &ctx, err, sizeof(err), &code);

	if (s) {
		sig_free(s);
		return 0;
	}
	return code;
}

TEST(fw_actions_scopes_and_packet_hooks_parse)
{
	Signature *s = P("accept:flow tcp:flow_start any any -> any 443 (sid:1;)", 1);

	CHECK(s != NULL);
	CHECK(s->flags & SIG_FLAG_FIREWALL);
	CHECK_EQ(s->fw.action, FW_ACT_ACCEPT);
	CHECK_EQ(s->fw.scope, FW_SCOPE_FLOW);
	CHECK_EQ(s->fw.app, 0);
	CHECK_EQ(s->fw.hook, FW_HOOK_FLOW_START);
	CHECK_EQ(s->proto, IPPROTO_TCP);
	CHECK(!(s->flags & SIG_FLAG_ALERT));
	sig_free(s);
	s = P("drop:packet ip:all any any -> any any (sid:2;)", 1);
	CHECK(s != NULL);
	CHECK_EQ(s->fw.action, FW_ACT_DROP);
	CHECK_EQ(s->fw.scope, FW_SCOPE_PACKET);
	CHECK_EQ(s->fw.hook, FW_HOOK_ALL);
	sig_free(s);
	/* secondary actions: alert, pass:flow */
	s = P("accept:flow,pass:flow,alert tls:<client_hello_done any any -> any any "
	      "(tls.sni; content:\"suricata.io\"; sid:3;)", 1);
	CHECK(s != NULL);
	CHECK(s->flags & SIG_FLAG_ALERT);
	CHECK_EQ(s->fw.td_pass, FW_SCOPE_FLOW);
	CHECK_EQ(s->fw.app, 1);
	CHECK_EQ(s->fw.lte, 1);
	CHECK_EQ(s->alproto, ALPROTO_TLS);
	CHECK_EQ(s->fw.hook, app_hook_find(ALPROTO_TLS, "client_hello_done"));
	sig_free(s);
}

TEST(fw_app_hooks_per_protocol)
{
	Signature *s = P("accept:hook http1:request_line any any -> any any "
			 "(http.method; content:\"GET\"; sid:1;)", 1);

	CHECK(s != NULL);
	CHECK_EQ(s->alproto, ALPROTO_HTTP1);
	CHECK_EQ(s->fw.hook, app_hook_find(ALPROTO_HTTP1, "request_line"));
	sig_free(s);
	/* every protocol has the generic four */
	s = P("accept:tx dns:request_complete any any -> any any (sid:2;)", 1);
	CHECK(s != NULL);
	CHECK_EQ(s->fw.scope, FW_SCOPE_TX);
	CHECK(app_hook_find(ALPROTO_DNS, "response_started") >= 0);
	sig_free(s);
	s = P("accept:hook ssh:request_banner_done any any -> any any (sid:3;)", 1);
	CHECK(s != NULL);
	sig_free(s);
}

/* Suricata 8 lists request_started ... response_complete for every
 * protocol (--list-app-layer-hooks): one with states of its own answers
 * to them with its first and last state of that side. */
TEST(fw_generic_hook_names_on_protocols_with_own_states)
{
	int n;
	const AppHook *h = app_proto_hooks(ALPROTO_TLS, &n);
	int st = app_hook_find(ALPROTO_TLS, "request_started");
	int co = app_hook_find(ALPROTO_TLS, "request_complete");
	int rs = app_hook_find(ALPROTO_TLS, "response_started");
	int rc = app_hook_find(ALPROTO_TLS, "response_complete");
	Signature *s;

	CHECK(h != NULL);
	CHECK_EQ(st, app_hook_find(ALPROTO_TLS, "client_in_progress"));
	CHECK_EQ(co, app_hook_find(ALPROTO_TLS, "client_finished"));
	CHECK_EQ(rs, app_hook_find(ALPROTO_TLS, "server_in_progress"));
	CHECK_EQ(rc, app_hook_find(ALPROTO_TLS, "server_finished"));
	CHECK_EQ(app_hook_find(ALPROTO_SSH, "response_complete"),
		 app_hook_find(ALPROTO_SSH, "response_finished"));
	CHECK_EQ(app_hook_find(ALPROTO_TLS, "request_line"), -1);
	s = P("accept:hook tls:request_started any any -> any any (sid:1;)", 1);
	CHECK(s != NULL);
	CHECK_EQ(s->fw.hook, st);
	sig_free(s);
}

/* firewall.policies: the most specific setting of a hook wins, then the
 * built-in; a scope a hook cannot take fails, inherited or not */
static int pol_load(const char *yaml, FwPolicies *p)
{
	char e[256];

	conf_deinit();
	if (conf_load_string(yaml, "fw.yaml", e, sizeof(e)))
		return -2;
	memset(p, 0, sizeof(*p));
	return fw_policies_load(p, err, sizeof(err));
}

TEST(fw_policies_precedence_and_scopes)
{
	static FwPolicies p;
	int cih = app_hook_find(ALPROTO_TLS, "client_hello_done");
	char buf[64];

	CHECK_EQ(pol_load("a: 1\n", &p), 0);
	CHECK_EQ(p.pkt[FW_POL_FILTER].action, FW_ACT_DROP);
	CHECK_EQ(p.pkt[FW_POL_FILTER].scope, FW_SCOPE_PACKET);
	CHECK_EQ(p.pkt[FW_POL_PRE_FLOW].scope, FW_SCOPE_HOOK);
	CHECK_EQ(p.app[ALPROTO_DNS][0].scope, FW_SCOPE_FLOW);
	CHECK_EQ(pol_load("firewall:\n  policies:\n    default-policy: [\"accept:hook\"]\n"
			  "    packet:\n      filter: [\"drop:flow\"]\n"
			  "    app:\n      tls:\n        default-policy: [\"accept:tx\"]\n"
			  "        client-hello-done: [\"drop:flow\", \"alert\"]\n", &p), 0);
	CHECK_EQ(p.pkt[FW_POL_FILTER].scope, FW_SCOPE_FLOW);
	CHECK_EQ(p.pkt[FW_POL_PRE_STREAM].action, FW_ACT_ACCEPT);
	CHECK_EQ(p.app[ALPROTO_TLS][cih].action, FW_ACT_DROP);
	CHECK_EQ(p.app[ALPROTO_TLS][cih].alert, 1);
	CHECK_EQ(p.app[ALPROTO_TLS][0].scope, FW_SCOPE_TX);
	CHECK_EQ(p.app[ALPROTO_DNS][0].scope, FW_SCOPE_HOOK);
	fw_policy_str(&p.app[ALPROTO_TLS][cih], buf, sizeof(buf));
	CHECK(strcmp(buf, "drop:flow,alert") == 0);
	/* accept:tx reaches the packet hooks; flow before there is one */
	CHECK_EQ(pol_load("firewall:\n  policies:\n    default-policy: [\"accept:tx\"]\n", &p), -1);
	CHECK(strstr(err, "packet:filter") != NULL);
	CHECK_EQ(pol_load("firewall:\n  policies:\n    packet:\n      pre-flow: [\"accept:flow\"]\n",
			  &p), -1);
	CHECK_EQ(pol_load("firewall:\n  policies:\n    app:\n      default-policy: "
			  "[\"drop:flow\", \"pass:flow\"]\n", &p), -1);
	CHECK_EQ(pol_load("firewall:\n  policies:\n    default-policy: [\"reject:packet\"]\n", &p),
		 -1);
	conf_deinit();
}

TEST(fw_rules_need_scope_hook_and_firewall_actions)
{
	/* no scope, no hook, a TD action, a hook of another protocol */
	CHECK_EQ(E("accept tcp:all any any -> any any (sid:1;)", 1), SIG_ERR_PARSE);
	CHECK_EQ(E("accept:hook tcp any any -> any any (sid:1;)", 1), SIG_ERR_PARSE);
	CHECK(strstr(err, "hook") != NULL);
	CHECK_EQ(E("alert tcp:all any any -> any any (sid:1;)", 1), SIG_ERR_PARSE);
	CHECK_EQ(E("accept:hook tls:request_line any any -> any any (sid:1;)", 1),
		 SIG_ERR_PARSE);
	CHECK_EQ(E("drop:hook tcp:all any any -> any any (sid:1;)", 1), SIG_ERR_PARSE);
	CHECK_EQ(E("accept:tx tcp:all any any -> any any (sid:1;)", 1), SIG_ERR_PARSE);
	CHECK_EQ(E("accept:flow tcp:pre_flow any any -> any any (sid:1;)", 1), SIG_ERR_PARSE);
	/* accept is the firewall's own */
	CHECK_EQ(E("accept:flow tcp:all any any -> any any (sid:1;)", 0), SIG_ERR_PARSE);
	CHECK(strstr(err, "firewall") != NULL);
	/* a threat-detection rule may name a hook */
	CHECK_EQ(E("alert http1:request_complete any any -> any any (sid:1;)", 0), 0);
}

/* ---- evaluation ---- */

static int fw_env(Env *e, const char *fw, const char *td)
{
	RuleLoadConfig rc = { .quiet = 1 };
	DetectConfig dc = { .algo = MPM_AC, .alert_max = 15, .ips = 1, .firewall = 1 };
	char er[512] = "";

	memset(e, 0, sizeof(*e));
	detect_register_counters();
	e->t = sig_table_new();
	e->t->ctx.firewall = 1;
	if (sig_load_string(e->t, fw, "firewall.rules", &rc, er, sizeof(er)) != 0)
		return -1;
	e->t->ctx.firewall = 0;
	if (td && sig_load_string(e->t, td, "td.rules", &rc, er, sizeof(er)) != 0)
		return -1;
	if (!(e->de = detect_engine_build(e->t, &dc, er, sizeof(er)))) {
		printf("  build: %s\n", er);
		return -1;
	}
	e->tc = thread_counters_new();
	e->dt = detect_thread_new(e->de, e->tc);
	return e->dt ? 0 : -1;
}

/* detect_packet on a TCP packet to dp (flow f, may be NULL): its alert
 * count, and the firewall's drop reason in *reason (0: accepted). */
static uint32_t run(Env *e, Flow *f, uint16_t dp, uint8_t *reason, const DetectAlert **a)
{
	static Packet p;
	int flow = 0;
	uint32_t n;

	test_tcp4(&p, 0x0a000001u, 0x0a000002u, dp, "x", 1);
	if (f) {
		p.flow = f;
		p.flags |= PKT_HAS_FLOW | PKT_TOSERVER;
		f->pkts_toserver++;
	}
	n = detect_packet(e->dt, &p, a);
	*reason = 0;
	if (!detect_packet_fw_drop(e->dt, reason, &flow))
		*reason = 0;
	return n;
}

TEST(fw_packet_filter_default_drop_and_first_match)
{
	const DetectAlert *a;
	uint8_t reason;
	Env e;

	CHECK(fw_env(&e, "accept:packet tcp:all any any -> any 443 (alert; sid:1;)\n"
		     "drop:packet tcp:all any any -> any 80 (alert; sid:2;)\n"
		     "accept:packet tcp:all any any -> any 80 (alert; sid:3;)\n",
		     "alert tcp any any -> any any (content:\"x\"; sid:100;)\n") == 0);
	/* accepted: the firewall's alert, then TD's */
	CHECK_EQ(run(&e, NULL, 443, &reason, &a), 2);
	CHECK_EQ(reason, 0);
	CHECK(detect_packet_fw_ran(e.dt));
	/* the first match decides: dropped by rule 2, TD never sees it */
	CHECK_EQ(run(&e, NULL, 80, &reason, &a), 1);
	CHECK_EQ(reason, PKT_DROP_RULES);
	CHECK_EQ(a[0].s->sid, 2);
	CHECK_EQ(a[0].action, ALERT_ACTION_DROP);
	/* no rule: the packet filter's default drop:packet, no alert */
	CHECK_EQ(run(&e, NULL, 22, &reason, &a), 0);
	CHECK_EQ(reason, PKT_DROP_DEFAULT_PACKET_POLICY);
	env_free(&e);
}

TEST(fw_accept_flow_takes_the_rest_of_the_flow)
{
	const DetectAlert *a;
	uint8_t reason;
	Flow f;
	Env e;

	memset(&f, 0, sizeof(f));
	f.proto = IPPROTO_TCP;
	CHECK(fw_env(&e, "accept:flow tcp:flow_start any any -> any 443 (sid:1;)\n"
		     "drop:flow tcp:flow_start any any -> any any (sid:2;)\n", NULL) == 0);
	CHECK_EQ(run(&e, &f, 443, &reason, &a), 0);
	CHECK_EQ(reason, 0);
	/* not a flow start any more, and no packet rule: the flow's accept */
	CHECK_EQ(run(&e, &f, 443, &reason, &a), 0);
	CHECK_EQ(reason, 0);
	detect_flow_free(&f);
	memset(&f, 0, sizeof(f));
	f.proto = IPPROTO_TCP;
	/* another port: drop:flow at the start */
	run(&e, &f, 8080, &reason, &a);
	CHECK_EQ(reason, PKT_DROP_RULES);
	detect_flow_free(&f);
	env_free(&e);
}
