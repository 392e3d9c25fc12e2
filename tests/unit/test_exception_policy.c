/* Exception policies: effective policy per target, IDS/IPS, counters. */
#include "test.h"

#include "conf/conf.h"
#include "stats/counters.h"
#include "util/exception-policy.h"

/* A fresh tree from yaml (conf_deinit forgets the last test's keys). */
static int load(const char *yaml, int ips, int midstream)
{
	char err[256];

	conf_deinit();
	if (yaml[0] && conf_load_string(yaml, "t", err, sizeof(err)) != 0)
		return -2;
	return ep_config_load(ips, midstream);
}

TEST(no_setting_is_ignore_in_ids_and_drop_in_ips)
{
	CHECK_EQ(load("", 0, 0), 0);
	for (int t = 0; t < EP_TARGET_COUNT; t++)
		CHECK_EQ(ep_policy_of((enum ep_target)t), EP_IGNORE);
	CHECK_EQ(load("", 1, 0), 0);
	CHECK_EQ(ep_policy_of(EP_STREAM_MEMCAP), EP_DROP_FLOW);
	CHECK_EQ(ep_policy_of(EP_APP_LAYER_ERROR), EP_DROP_FLOW);
	/* packet-only targets */
	CHECK_EQ(ep_policy_of(EP_FLOW_MEMCAP), EP_DROP_PACKET);
	CHECK_EQ(ep_policy_of(EP_DEFRAG_MEMCAP), EP_DROP_PACKET);
	/* an allowed midstream pickup is not refused */
	CHECK_EQ(load("", 1, 1), 0);
	CHECK_EQ(ep_policy_of(EP_STREAM_MIDSTREAM), EP_IGNORE);
	CHECK_EQ(ep_policy_of(EP_STREAM_MEMCAP), EP_DROP_FLOW);
}

TEST(auto_master_switch_is_ignore_in_ids_mode)
{
	CHECK_EQ(load("exception-policy: auto\n", 0, 0), 0);
	CHECK_EQ(ep_policy_of(EP_STREAM_REASSEMBLY_MEMCAP), EP_IGNORE);
	CHECK_EQ(load("exception-policy: drop-flow\n", 0, 0), 0);
	CHECK_EQ(ep_policy_of(EP_STREAM_MEMCAP), EP_IGNORE);
	CHECK_EQ(load("exception-policy: auto\n", 1, 0), 0);
	CHECK_EQ(ep_policy_of(EP_STREAM_MIDSTREAM), EP_DROP_FLOW);
}

TEST(own_key_wins_over_master_switch)
{
	CHECK_EQ(load("exception-policy: bypass\nstream:\n  memcap-policy: pass-flow\n", 0, 0), 0);
	CHECK_EQ(ep_policy_of(EP_STREAM_MEMCAP), EP_PASS_FLOW);
	CHECK_EQ(ep_policy_of(EP_APP_LAYER_ERROR), EP_BYPASS);
	/* bypass has no packet form: ignore */
	CHECK_EQ(ep_policy_of(EP_FLOW_MEMCAP), EP_IGNORE);
	/* drop-* on their own key stay in IDS mode: counted, traffic untouched */
	CHECK_EQ(load("app-layer:\n  error-policy: drop-flow\n", 0, 0), 0);
	CHECK_EQ(ep_policy_of(EP_APP_LAYER_ERROR), EP_DROP_FLOW);
	CHECK_EQ(ep_effect(EP_APP_LAYER_ERROR), 0u);
}

TEST(flow_policies_become_packet_ones_where_only_the_packet_is_known)
{
	CHECK_EQ(load("flow:\n  memcap-policy: pass-flow\ndefrag:\n  memcap-policy: drop-flow\n",
		      1, 0), 0);
	CHECK_EQ(ep_policy_of(EP_FLOW_MEMCAP), EP_PASS_PACKET);
	CHECK_EQ(ep_policy_of(EP_DEFRAG_MEMCAP), EP_DROP_PACKET);
	CHECK_EQ(ep_effect(EP_FLOW_MEMCAP), EP_EFF_PKT_NO_DETECT);
	CHECK(ep_effect(EP_DEFRAG_MEMCAP) & EP_EFF_PKT_DROP);
}

TEST(invalid_values_stop_the_engine)
{
	CHECK_EQ(load("exception-policy: maybe\n", 0, 0), -1);
	CHECK_EQ(load("flow:\n  memcap-policy: drop\n", 0, 0), -1);
	CHECK_EQ(load("stream:\n  midstream-policy: drop-packet\n", 1, 0), -1);
	/* with stream.midstream on only ignore and pass-flow make sense */
	CHECK_EQ(load("stream:\n  midstream-policy: bypass\n", 0, 1), -1);
	CHECK_EQ(load("stream:\n  midstream-policy: pass-flow\n", 0, 1), 0);
	CHECK_EQ(ep_policy_of(EP_STREAM_MIDSTREAM), EP_PASS_FLOW);
}

TEST(effects_of_each_policy)
{
	ep_config_set(EP_STREAM_MEMCAP, EP_PASS_FLOW, 0);
	CHECK_EQ(ep_effect(EP_STREAM_MEMCAP), EP_EFF_PKT_NO_DETECT | EP_EFF_FLOW_PASS);
	ep_config_set(EP_STREAM_MEMCAP, EP_BYPASS, 0);
	CHECK(ep_effect(EP_STREAM_MEMCAP) & EP_EFF_FLOW_BYPASS);
	ep_config_set(EP_STREAM_MEMCAP, EP_DROP_FLOW, 0);
	CHECK_EQ(ep_effect(EP_STREAM_MEMCAP), 0u);
	ep_config_set(EP_STREAM_MEMCAP, EP_DROP_FLOW, 1);
	CHECK(ep_effect(EP_STREAM_MEMCAP) & EP_EFF_FLOW_DROP);
	ep_config_set(EP_STREAM_MEMCAP, EP_REJECT, 1);
	CHECK(ep_effect(EP_STREAM_MEMCAP) & EP_EFF_FLOW_DROP);
	ep_config_set(EP_STREAM_MEMCAP, EP_IGNORE, 1);
	CHECK_EQ(ep_effect(EP_STREAM_MEMCAP), 0u);
}

TEST(names_match_suricata_8)
{
	char buf[96];

	CHECK_STREQ(ep_counter_name(EP_STREAM_MIDSTREAM, EP_PASS_FLOW, buf, sizeof(buf)),
		    "exception_policy.tcp.midstream.pass_flow");
	CHECK_STREQ(ep_counter_name(EP_STREAM_MEMCAP, EP_DROP_FLOW, buf, sizeof(buf)),
		    "exception_policy.tcp.ssn_memcap.drop_flow");
	CHECK_STREQ(ep_counter_name(EP_STREAM_REASSEMBLY_MEMCAP, EP_BYPASS, buf, sizeof(buf)),
		    "exception_policy.tcp.reassembly.bypass");
	CHECK_STREQ(ep_counter_name(EP_FLOW_MEMCAP, EP_PASS_PACKET, buf, sizeof(buf)),
		    "exception_policy.flow.memcap.pass_packet");
	CHECK_STREQ(ep_counter_name(EP_DEFRAG_MEMCAP, EP_DROP_PACKET, buf, sizeof(buf)),
		    "exception_policy.defrag.memcap.drop_packet");
	CHECK_STREQ(ep_counter_name(EP_APP_LAYER_ERROR, EP_REJECT, buf, sizeof(buf)),
		    "exception_policy.app_layer.error.reject");
	CHECK_STREQ(ep_target_name(EP_STREAM_MIDSTREAM), "stream_midstream");
	CHECK_STREQ(ep_json_name(EP_DROP_FLOW), "drop_flow");
}

/* Last: counters freeze the registry. Only targets with a policy get them. */
TEST(zz_counters_only_for_targets_with_a_policy)
{
	ThreadCounters *tc;

	CHECK_EQ(load("flow:\n  memcap-policy: pass-packet\n", 0, 0), 0);
	ep_register_counters();
	counters_freeze();
	tc = thread_counters_new();
	CHECK(counter_lookup("exception_policy.flow.memcap.pass_packet") >= 0);
	CHECK(counter_lookup("exception_policy.flow.memcap.drop_flow") < 0);
	CHECK(counter_lookup("exception_policy.tcp.ssn_memcap.drop_flow") < 0);
	CHECK_EQ(ep_apply(tc, EP_FLOW_MEMCAP), EP_EFF_PKT_NO_DETECT);
	CHECK_EQ(ep_apply(tc, EP_STREAM_MEMCAP), 0u);
	CHECK_EQ(counter_get(tc, (counter_id)counter_lookup(
			"exception_policy.flow.memcap.pass_packet")), 1);
}
