/* A detection engine for unit tests: rules from a string, one thread. */
#ifndef TESTS_UNIT_DETECT_TEST_UTIL_H
#define TESTS_UNIT_DETECT_TEST_UTIL_H

#include "detect/detect-parse.h"
#include "detect/engine.h"
#include "stats/counters.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

typedef struct Env {
	SigTable *t;
	DetectEngine *de;
	DetectThread *dt;
	ThreadCounters *tc;
} Env;

/* 0, or -1 with the loader's or builder's error on stderr. */
/* An engine built with the whole DetectConfig given (table sizes, memcaps). */
static inline int env_init_cfg(Env *e, const char *rules, const DetectConfig *cfg)
{
	RuleLoadConfig rc = { .quiet = 1 };
	DetectConfig dc = *cfg;
	char err[512] = "";

	memset(e, 0, sizeof(*e));
	detect_register_counters();
	e->t = sig_table_new();
	if (!e->t || sig_load_string(e->t, rules, "test.rules", &rc, err, sizeof(err)) != 0) {
		fprintf(stderr, "load: %s\n", err);
		return -1;
	}
	e->de = detect_engine_build(e->t, &dc, err, sizeof(err));
	if (!e->de) {
		fprintf(stderr, "build: %s\n", err);
		return -1;
	}
	e->tc = thread_counters_new();
	e->dt = detect_thread_new(e->de, e->tc);
	return e->dt ? 0 : -1;
}

static inline int env_init_max(Env *e, const char *rules, enum mpm_algo algo,
			       uint32_t alert_max)
{
	DetectConfig dc = { .algo = algo, .alert_max = alert_max };

	return env_init_cfg(e, rules, &dc);
}

/* A TCP/IPv4 packet src:40000 -> dst:dp (host order addresses), PSH|ACK,
 * TTL 64, packet 1 of its capture, with payload; no flow. Tests set what
 * they look at beyond that. */
static inline void test_tcp4(Packet *p, uint32_t src, uint32_t dst, uint16_t dp,
			     const void *payload, size_t len)
{
	static uint8_t l4[20];

	memset(p, 0, sizeof(*p));
	p->ip_version = 4;
	p->proto = IPPROTO_TCP;
	p->src.family = p->dst.family = AF_INET;
	p->src.a.u32[0] = htonl(src);
	p->dst.a.u32[0] = htonl(dst);
	p->sp = 40000;
	p->dp = dp;
	p->l4 = l4;
	p->tcp_flags = 0x18;
	p->ttl = 64;
	p->payload = (const uint8_t *)payload;
	p->payload_len = (uint16_t)len;
	p->pcap_cnt = 1;
}

static inline void env_free(Env *e)
{
	detect_thread_free(e->dt);
	detect_engine_free(e->de);
	sig_table_free(e->t);
}

#endif
