/* app-layer-event keyword: which rules load, skip or fail. */
#include "test.h"

#include "detect/detect-parse.h"

/* 1 loaded, 0 skipped (unsupported), -1 failed */
static int load(const char *rule)
{
	SigTable *t = sig_table_new();
	RuleLoadConfig rc = { .quiet = 1 };
	char err[256];
	int r;

	sig_load_string(t, rule, "t.rules", &rc, err, sizeof(err));
	r = t->loaded ? 1 : t->skipped ? 0 : -1;
	sig_table_free(t);
	return r;
}

TEST(app_layer_event_http_loads_and_makes_an_http_rule)
{
	SigTable *t = sig_table_new();
	RuleLoadConfig rc = { .quiet = 1 };
	char err[256];

	CHECK_EQ(sig_load_string(t, "alert http any any -> any any (app-layer-event:http.missing_host_header; sid:1;)",
				 "t.rules", &rc, err, sizeof(err)), 0);
	CHECK_EQ(t->loaded, 1);
	CHECK_EQ(t->sigs[0]->alproto, ALPROTO_HTTP1);
	sig_table_free(t);
	CHECK_EQ(load("alert tcp any any -> any any (app-layer-event:http.missing_host_header; sid:1;)"), 1);
}

/* Suricata 8 warns and leaves a rule with an unknown event out (an error
 * only with --strict-rules): skipped, the rule set still loads */
TEST(app_layer_event_unknown_http_event_is_skipped)
{
	CHECK_EQ(load("alert http any any -> any any (app-layer-event:http.no_such_event; sid:1;)"), 0);
	CHECK_EQ(load("alert udp any any -> any any (app-layer-event:http.missing_host_header; sid:1;)"), -1);
}

TEST(app_layer_event_other_protocols_are_skipped)
{
	CHECK_EQ(load("alert tcp any any -> any any (app-layer-event:applayer_no_such_event; sid:1;)"), 0);
	CHECK_EQ(load("alert tcp any any -> any any (app-layer-event:template.malformed_data; sid:1;)"), 0);
}

TEST(app_layer_event_dns_loads_and_makes_a_dns_rule)
{
	SigTable *t = sig_table_new();
	RuleLoadConfig rc = { .quiet = 1 };
	char err[256];

	CHECK_EQ(sig_load_string(t, "alert udp any any -> any any (app-layer-event:dns.z_flag_set; sid:1;)",
				 "t.rules", &rc, err, sizeof(err)), 0);
	CHECK_EQ(t->loaded, 1);
	CHECK_EQ(t->sigs[0]->alproto, ALPROTO_DNS);
	sig_table_free(t);
	CHECK_EQ(load("alert dns any any -> any any (app-layer-event:dns.malformed_data; sid:1;)"), 1);
	CHECK_EQ(load("alert dns any any -> any any (app-layer-event:dns.no_such_event; sid:1;)"), 0);
	/* a DNS event on an HTTP rule: one rule, one protocol */
	CHECK_EQ(load("alert http any any -> any any (app-layer-event:dns.malformed_data; sid:1;)"), -1);
	CHECK_EQ(load("alert icmp any any -> any any (app-layer-event:dns.malformed_data; sid:1;)"), -1);
}

/* Suricata 8's packet-level events are packet keywords: they load */
TEST(app_layer_event_packet_events_load)
{
	CHECK_EQ(load("alert tcp any any -> any any (app-layer-event:applayer_mismatch_protocol_both_directions; sid:1;)"), 1);
	CHECK_EQ(load("alert tcp any any -> any any (app-layer-event:applayer_proto_detection_skipped; sid:1;)"), 1);
}
