/* tag keyword: parsing, and which packets after an alert are tagged. */
#include "test.h"

#include "detect/engine.h"
#include "detect/detect-parse.h"
#include "detect-test-util.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

static int env_init(Env *e, const char *rules)
{
	return env_init_max(e, rules, MPM_AC, 15);
}

/* A TCP packet from 10.0.0.<src> to 10.0.0.<dst> at second `sec`. */
static void mk(Packet *p, Flow *f, int src, int dst, const char *payload, time_t sec)
{
	test_tcp4(p, 0x0a000000 | (uint32_t)src, 0x0a000000 | (uint32_t)dst, 80, payload,
		  strlen(payload));
	p->ttl = 0; /* these packets never had one */
	p->caplen = 100;
	p->ts.tv_sec = sec;
	if (f) {
		p->flow = f;
		p->flags |= PKT_HAS_FLOW | PKT_TOSERVER;
	}
}

/* Runs p; returns alerts*10 + tagged. */
static int run(Env *e, Packet *p)
{
	const DetectAlert *a;
	uint32_t n = detect_packet(e->dt, p, &a);

	return (int)n * 10 + detect_packet_tagged(e->dt);
}

static int loads(const char *rule)
{
	SigTable *t = sig_table_new();
	RuleLoadConfig rc = { .quiet = 1 };
	char err[256];
	int ok;

	sig_load_string(t, rule, "t.rules", &rc, err, sizeof(err));
	ok = t->loaded == 1;
	sig_table_free(t);
	return ok;
}

TEST(tag_parse_forms)
{
	CHECK_EQ(loads("alert tcp any any -> any any (tag:session; sid:1;)"), 1);
	CHECK_EQ(loads("alert tcp any any -> any any (tag:host,100,packets,src; sid:1;)"), 1);
	CHECK_EQ(loads("alert tcp any any -> any any (tag:session,10,seconds; sid:1;)"), 1);
	CHECK_EQ(loads("alert tcp any any -> any any (tag:host,1000,bytes,dst; sid:1;)"), 1);
	CHECK_EQ(loads("alert tcp any any -> any any (tag:flow; sid:1;)"), 0);
	CHECK_EQ(loads("alert tcp any any -> any any (tag:session,10; sid:1;)"), 0);
	CHECK_EQ(loads("alert tcp any any -> any any (tag:host,10,packets,both; sid:1;)"), 0);
	CHECK_EQ(loads("alert tcp any any -> any any (tag:host,0,packets; sid:1;)"), 0);
	CHECK_EQ(loads("alert tcp any any -> any any (tag:session,5,frames; sid:1;)"), 0);
}

TEST(tag_session_tags_following_packets_of_the_flow_only)
{
	Env e;
	Packet p;
	Flow f, g;

	CHECK(env_init(&e, "alert tcp any any -> any any (content:\"go\"; tag:session,3,packets; sid:1;)") == 0);
	memset(&f, 0, sizeof(f));
	memset(&g, 0, sizeof(g));
	mk(&p, &f, 1, 2, "x", 1);
	CHECK_EQ(run(&e, &p), 0);           /* before the alert: not tagged */
	mk(&p, &f, 1, 2, "go", 1);
	CHECK_EQ(run(&e, &p), 10);          /* the alert; the packet itself is not tagged */
	mk(&p, &f, 2, 1, "y", 1);
	CHECK_EQ(run(&e, &p), 1);
	mk(&p, &g, 1, 2, "y", 1);
	CHECK_EQ(run(&e, &p), 0);           /* another flow */
	mk(&p, &f, 1, 2, "y", 1);
	CHECK_EQ(run(&e, &p), 1);
	mk(&p, &f, 1, 2, "y", 1);
	CHECK_EQ(run(&e, &p), 0);           /* 3 packets counted with the alerting one */
	detect_flow_free(&f);
	detect_flow_free(&g);
	env_free(&e);
}

TEST(tag_host_follows_the_address_across_flows)
{
	Env e;
	Packet p;
	Flow f, g;

	CHECK(env_init(&e, "alert tcp any any -> any any (content:\"go\"; tag:host,100,packets,dst; sid:1;)") == 0);
	memset(&f, 0, sizeof(f));
	memset(&g, 0, sizeof(g));
	mk(&p, &f, 1, 2, "go", 1);
	CHECK_EQ(run(&e, &p), 10);
	mk(&p, &g, 3, 2, "x", 1);           /* to the tagged host */
	CHECK_EQ(run(&e, &p), 1);
	mk(&p, &g, 2, 3, "x", 1);           /* from it */
	CHECK_EQ(run(&e, &p), 1);
	mk(&p, &g, 1, 3, "x", 1);           /* neither end */
	CHECK_EQ(run(&e, &p), 0);
	detect_flow_free(&f);
	detect_flow_free(&g);
	env_free(&e);
}

TEST(tag_seconds_and_bytes_expire)
{
	Env e;
	Packet p;
	Flow f;

	CHECK(env_init(&e,
		"alert tcp any any -> any any (content:\"go\"; tag:session,2,seconds; sid:1;)\n"
		"alert tcp any any -> any any (content:\"by\"; tag:host,250,bytes,src; sid:2;)\n") == 0);
	memset(&f, 0, sizeof(f));
	mk(&p, &f, 1, 2, "go", 10);
	CHECK_EQ(run(&e, &p), 10);
	mk(&p, &f, 1, 2, "x", 12);
	CHECK_EQ(run(&e, &p), 1);
	mk(&p, &f, 1, 2, "x", 13);
	CHECK_EQ(run(&e, &p), 0);
	detect_flow_free(&f);
	/* bytes: 100 per packet, the alerting one counts: 200 <= 250, 300 > 250 */
	mk(&p, NULL, 5, 6, "by", 20);
	CHECK_EQ(run(&e, &p), 10);
	mk(&p, NULL, 5, 7, "x", 20);
	CHECK_EQ(run(&e, &p), 1);
	mk(&p, NULL, 5, 7, "x", 20);
	CHECK_EQ(run(&e, &p), 0);
	env_free(&e);
}

TEST(tag_not_installed_by_noalert_rules)
{
	Env e;
	Packet p;
	Flow f;

	CHECK(env_init(&e, "alert tcp any any -> any any (content:\"go\"; noalert; tag:session; sid:1;)") == 0);
	memset(&f, 0, sizeof(f));
	mk(&p, &f, 1, 2, "go", 1);
	CHECK_EQ(run(&e, &p), 0);
	mk(&p, &f, 1, 2, "x", 1);
	CHECK_EQ(run(&e, &p), 0);
	detect_flow_free(&f);
	env_free(&e);
}
