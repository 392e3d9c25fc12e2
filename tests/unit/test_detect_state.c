/* The cross-flow detect state (thresholds, hostbits): its keyed hash, its
 * expiry, its memcaps and their counters, on hand-made packets whose
 * timestamps drive the time. */
#include "test.h"

#include "conf/conf.h"
#include "detect/detect-parse.h"
#include "detect/engine.h"
#include "detect/engine-int.h"
#include "detect/state-hash.h"
#include "detect-test-util.h"
#include "util/mem-peak.h"
#include "output/alert.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LIMIT_RULE "alert tcp any any -> any any (content:\"x\"; threshold:type limit, " \
		   "track by_src, count 1, seconds 60; sid:1;)"

/* An engine with the given table settings (0: defaults). */
static int env_dc(Env *e, const char *rules, const DetectConfig *tables)
{
	DetectConfig dc = *tables;

	dc.algo = MPM_AC;
	dc.alert_max = 15;
	return env_init_cfg(e, rules, &dc);
}

static void mk_pkt(Packet *p, uint32_t src, long sec)
{
	test_tcp4(p, src, 0xc0a8c801, 80, "x", 1);
	p->ts.tv_sec = sec;
}

static int alerted(Env *e, uint32_t src, long sec, uint32_t sid)
{
	const DetectAlert *a;
	Packet p;
	uint32_t n;

	mk_pkt(&p, src, sec);
	n = detect_packet(e->dt, &p, &a);
	for (uint32_t i = 0; i < n; i++)
		if (a[i].s->sid == sid)
			return 1;
	return 0;
}

/* A packet of flow f: sid 1 alerted. */
static int flow_alerted(Env *e, Flow *f, long sec)
{
	const DetectAlert *a;
	Packet p;
	uint32_t n;

	mk_pkt(&p, 0x0a070001u, sec);
	p.flow = f;
	p.flags |= PKT_HAS_FLOW | PKT_TOSERVER;
	n = detect_packet(e->dt, &p, &a);
	for (uint32_t i = 0; i < n; i++)
		if (a[i].s->sid == 1)
			return 1;
	return 0;
}

static uint64_t counter(Env *e, const char *name)
{
	int id = counter_lookup(name);

	return id < 0 ? ~0ull : counter_get(e->tc, (counter_id)id);
}

static void addr4(Address *a, uint32_t host_order)
{
	memset(a, 0, sizeof(*a));
	a->family = AF_INET;
	a->a.u32[0] = htonl(host_order);
}

/* Largest chain and rows used when n keys of one /16 go into rows rows. */
static void spread(uint32_t (*h)(const Address *), uint32_t n, uint32_t rows, uint32_t *used,
		   uint32_t *longest)
{
	uint32_t *cnt = calloc(rows, sizeof(*cnt));

	*used = *longest = 0;
	for (uint32_t i = 0; i < n; i++) {
		Address a;
		uint32_t b;

		addr4(&a, 0x0a070000u | (i + 1));
		b = h(&a) & (rows - 1);
		if (cnt[b]++ == 0)
			(*used)++;
		if (cnt[b] > *longest)
			*longest = cnt[b];
	}
	free(cnt);
}

static Signature thr_sig = { .sid = 2000001, .gid = 1, .rev = 3 };

static uint32_t thr_hash_by_src(const Address *a)
{
	static const Address none;

	return threshold_key_hash(&thr_sig, TRACK_SRC, a, &none);
}

/* The attack: sources of one /16 used to share one chain (the
 * bucket was the address's first 12 bits). Keyed over the whole address,
 * 4096 of them fill about 1 - 1/e of 4096 rows, as random keys would; a
 * longest chain of 12 is far outside what chance gives (p < 1e-6). */
TEST(slash16_sources_spread_over_the_rows)
{
	uint32_t used, longest;

	state_hash_set_key(0x0123456789abcdefull, 0xfedcba9876543210ull);
	spread(host_key_hash, 4096, 4096, &used, &longest);
	CHECK(used > 2400);
	CHECK(longest < 12);
	spread(thr_hash_by_src, 4096, 4096, &used, &longest);
	CHECK(used > 2400);
	CHECK(longest < 12);
	/* another key, other rows: the placement is the key's, not the address's */
	{
		Address a;
		uint32_t h1, differ = 0;

		for (uint32_t i = 0; i < 64; i++) {
			addr4(&a, 0x0a070000u | i);
			h1 = host_key_hash(&a);
			state_hash_set_key(1, 2);
			differ += (host_key_hash(&a) & 4095) != (h1 & 4095);
			state_hash_set_key(0x0123456789abcdefull, 0xfedcba9876543210ull);
		}
		CHECK(differ > 56);
	}
}

/* The table doubles its rows as it fills, so a lookup stays short: the
 * StateHash alone, 100,000 entries from 16 rows. */
TEST(state_hash_grows_with_its_entries)
{
	StateHash sh;
	StateNode *nodes = calloc(100000, sizeof(*nodes));
	uint32_t longest = 0;

	CHECK(nodes);
	CHECK_EQ(state_hash_init(&sh, 16, 64ull << 20), 0);
	for (uint32_t i = 0; i < 100000; i++) {
		Address a;

		addr4(&a, 0x0a070000u | i);
		CHECK_EQ(state_hash_charge(&sh, 32), 0);
		state_hash_link(&sh, &nodes[i], host_key_hash(&a));
	}
	CHECK_EQ(sh.n, 100000);
	CHECK(sh.mask + 1 >= 100000 / 2);
	for (uint32_t r = 0; r <= sh.mask; r++) {
		uint32_t len = 0;

		for (StateNode *n = sh.b[r]; n; n = n->next)
			len++;
		if (len > longest)
			longest = len;
	}
	CHECK(longest < 16);
	CHECK_EQ(sh.memuse, 100000ull * 32 + state_hash_array_cost(sh.mask + 1));
	sh.n = 0;
	memset(sh.b, 0, (sh.mask + 1) * sizeof(*sh.b));
	state_hash_uncharge(&sh, 100000ull * 32);
	state_hash_destroy(&sh, NULL);
	free(nodes);
}

/* An entry whose window has passed reads as a fresh one, so it goes: the
 * lookups that follow sweep the table (4 rows here, 2 per lookup), and
 * the memuse counter (host.memuse: Suricata 8's eve stats have no
 * threshold counters) comes back to the bucket array. */
TEST(threshold_entries_expire_after_their_window)
{
	DetectConfig dc = { .thr_hash_size = 4 };
	uint64_t array = state_hash_array_cost(4), entry;
	Env e;
	int n = 0;

	CHECK(env_dc(&e, LIMIT_RULE, &dc) == 0);
	for (uint32_t i = 0; i < 6; i++)
		n += alerted(&e, 0x0a070000u | i, 1000, 1);
	CHECK_EQ(n, 6);
	CHECK_EQ(threshold_table_count(e.de), 6);
	/* within the window: nothing goes, and the limit holds */
	CHECK_EQ(alerted(&e, 0x0a070000u, 1059, 1), 0);
	CHECK_EQ(threshold_table_count(e.de), 6);
	entry = (counter(&e, "host.memuse") - array) / 6;
	CHECK(entry >= 64);
	CHECK_EQ(counter(&e, "host.memuse"), array + 6 * entry);
	/* 60 s on: one new source's lookups sweep the rest away */
	for (int i = 0; i < 8; i++)
		CHECK_EQ(alerted(&e, 0x0a080001u, 1060 + i * 100, 1), 1);
	CHECK_EQ(threshold_table_count(e.de), 1);
	CHECK_EQ(counter(&e, "host.memuse"), array + entry);
	/* the source seen at 1000 starts anew, as it did before expiry */
	CHECK_EQ(alerted(&e, 0x0a070000u, 1800, 1), 1);
	CHECK_EQ(alerted(&e, 0x0a070000u, 1801, 1), 0);
	CHECK_EQ(threshold_table_count(e.de), 2);
	env_free(&e);
}

/* The alerts of every threshold type on a random sequence are the same
 * whether the table sweeps all the time (1 row) or hardly ever (65536
 * rows): expiry only removes entries that no longer decide anything. */
TEST(threshold_expiry_does_not_change_alerts)
{
	static const char *const types[] = {
		"type limit, track by_src, count 2, seconds 5",
		"type threshold, track by_src, count 3, seconds 7",
		"type both, track by_dst, count 2, seconds 3",
		"type backoff, track by_flow, count 2, multiplier 2",
	};
	char rules[1024];

	snprintf(rules, sizeof(rules),
		 "alert tcp any any -> any any (content:\"x\"; threshold:%s; sid:1;)\n"
		 "alert tcp any any -> any any (content:\"x\"; threshold:%s; sid:2;)\n"
		 "alert tcp any any -> any any (content:\"x\"; threshold:%s; sid:3;)\n"
		 "alert tcp any any -> any any (content:\"x\"; threshold:%s; sid:4;)\n"
		 "alert tcp any any -> any any (content:\"x\"; detection_filter:track by_src, "
		 "count 3, seconds 4; sid:5;)\n",
		 types[0], types[1], types[2], types[3]);
	{
		DetectConfig tiny = { .thr_hash_size = 1 }, big = { .thr_hash_size = 65536 };
		static Flow fa[24], fb[24];   /* one per source and engine (by_flow) */
		Env a, b;
		uint64_t rnd = 43;
		long t = 5000;
		int alerts = 0;

		CHECK(env_dc(&a, rules, &tiny) == 0);
		CHECK(env_dc(&b, rules, &big) == 0);
		CHECK_EQ(detect_engine_sig_count(a.de), 5);
		memset(fa, 0, sizeof(fa));
		memset(fb, 0, sizeof(fb));
		for (int i = 0; i < 24; i++)
			fa[i].flow_id = fb[i].flow_id = (uint64_t)i + 1;
		for (int i = 0; i < 4000; i++) {
			uint32_t k = test_rand32(&rnd) % 24, src = 0x0a070000u | k;
			const DetectAlert *x, *y;
			Packet p, q;
			uint32_t nx, ny;

			/* now and then an hour's silence: backoff entries go */
			t += i % 1000 == 999 ? 3700 : test_rand32(&rnd) % 3;
			mk_pkt(&p, src, t);
			mk_pkt(&q, src, t);
			p.flow = &fa[k];
			q.flow = &fb[k];
			p.flags |= PKT_HAS_FLOW | PKT_TOSERVER;
			q.flags |= PKT_HAS_FLOW | PKT_TOSERVER;
			nx = detect_packet(a.dt, &p, &x);
			ny = detect_packet(b.dt, &q, &y);
			CHECK_EQ(nx, ny);
			for (uint32_t j = 0; j < nx; j++)
				CHECK_EQ(x[j].s->sid, y[j].s->sid);
			alerts += (int)nx;
		}
		/* the sequence does alert, and not on every match */
		CHECK(alerts > 400 && alerts < 4 * 4000);
		CHECK(threshold_table_count(a.de) < threshold_table_count(b.de));
		for (int i = 0; i < 24; i++) {
			detect_flow_free(&fa[i]);
			detect_flow_free(&fb[i]);
		}
		env_free(&a);
		env_free(&b);
	}
}

/* detect.thresholds.memcap: a key that does not fit is not tracked (its
 * match judged as a first one: a limit rule alerts), counted in
 * host.memcap; host.memuse counts the array and the entries. */
TEST(threshold_memcap_refuses_and_counts)
{
	DetectConfig dc = { .thr_hash_size = 16 };
	uint64_t entry;
	Env e;
	int n = 0;

	dc.thr_memcap = state_hash_array_cost(16) + 3 * 200;
	CHECK(env_dc(&e, LIMIT_RULE, &dc) == 0);
	for (uint32_t i = 0; i < 10; i++)
		n += alerted(&e, 0x0a070000u | i, 1000, 1);
	CHECK_EQ(n, 10);
	CHECK(threshold_table_count(e.de) >= 2);
	CHECK(threshold_table_count(e.de) <= 6);
	CHECK(counter(&e, "host.memuse") <= dc.thr_memcap);
	entry = (counter(&e, "host.memuse") - state_hash_array_cost(16)) /
		threshold_table_count(e.de);
	CHECK(entry >= 64 && entry <= 200);
	CHECK_EQ(counter(&e, "host.memcap"), 10 - threshold_table_count(e.de));
	/* a tracked source is limited; an untracked one alerts every time */
	CHECK_EQ(alerted(&e, 0x0a070000u, 1001, 1), 0);
	CHECK_EQ(alerted(&e, 0x0a070009u, 1001, 1), 1);
	CHECK_EQ(alerted(&e, 0x0a070009u, 1002, 1), 1);
	env_free(&e);
}

/* A host whose last bit is cleared reads as one never seen: it goes. */
TEST(hostbits_host_goes_with_its_last_bit)
{
	DetectConfig dc = { 0 };
	Env e;

	CHECK(env_dc(&e,
		"alert tcp any any -> any any (content:\"x\"; hostbits:set,a,src; noalert; sid:1;)\n"
		"alert tcp any any -> any any (content:\"x\"; hostbits:isset,a,src; "
		"hostbits:unset,a,src; sid:2;)\n", &dc) == 0);
	CHECK_EQ(alerted(&e, 0x0a070001u, 1000, 2), 1);
	CHECK_EQ(host_table_count(e.de), 0);
	CHECK_EQ(counter(&e, "host.memuse"), state_hash_array_cost(4096));
	env_free(&e);
}

/* xbits expire: the bit reads set up to its expiry (inclusive) on packet
 * time, unset after, as Suricata's; a set moves the expiry on. */
TEST(xbits_expire_on_packet_time)
{
	DetectConfig dc = { 0 };
	Env e;

	CHECK(env_dc(&e,
		"alert tcp 10.7.0.1 any -> any any (content:\"x\"; "
		"xbits:set,a,track ip_dst,expire 10; noalert; sid:1;)\n"
		"alert tcp 10.7.0.2 any -> any any (content:\"x\"; "
		"xbits:isset,a,track ip_dst; sid:2;)\n", &dc) == 0);
	CHECK_EQ(alerted(&e, 0x0a070002u, 999, 2), 0);
	CHECK_EQ(alerted(&e, 0x0a070001u, 1000, 2), 0);
	CHECK_EQ(alerted(&e, 0x0a070002u, 1010, 2), 1);
	CHECK_EQ(alerted(&e, 0x0a070002u, 1011, 2), 0);
	/* set again later: a fresh 10 s */
	CHECK_EQ(alerted(&e, 0x0a070001u, 1100, 2), 0);
	CHECK_EQ(alerted(&e, 0x0a070002u, 1109, 2), 1);
	CHECK_EQ(alerted(&e, 0x0a070002u, 1111, 2), 0);
	env_free(&e);
}

/* hostbits without expire last Suricata 8's 30 s; isnotset sees the
 * expired bit as unset. */
TEST(hostbits_default_expire_is_30s)
{
	DetectConfig dc = { 0 };
	Env e;

	CHECK(env_dc(&e,
		"alert tcp 10.7.0.1 any -> any any (content:\"x\"; hostbits:set,a,dst; "
		"noalert; sid:1;)\n"
		"alert tcp 10.7.0.2 any -> any any (content:\"x\"; hostbits:isnotset,a,dst; "
		"sid:2;)\n", &dc) == 0);
	CHECK_EQ(alerted(&e, 0x0a070001u, 1000, 2), 0);
	CHECK_EQ(alerted(&e, 0x0a070002u, 1030, 2), 0);
	CHECK_EQ(alerted(&e, 0x0a070002u, 1031, 2), 1);
	env_free(&e);
}

/* Hosts whose bits all expired leave the table: the sets' sweep reaches
 * every bucket, and the memory is given back. */
TEST(hostbits_expired_hosts_are_swept)
{
	DetectConfig dc = { .host_hash_size = 16 };
	Env e;

	CHECK(env_dc(&e,
		"alert tcp any any -> any any (content:\"x\"; hostbits:set,a,src,expire 5; "
		"noalert; sid:1;)\n", &dc) == 0);
	for (uint32_t i = 0; i < 8; i++)
		alerted(&e, 0x0a070000u | i, 1000, 1);
	CHECK_EQ(host_table_count(e.de), 8);
	/* 32 later sets cover the 16 buckets (the table may have doubled) */
	for (uint32_t i = 0; i < 64; i++)
		alerted(&e, 0x0a080000u, 2000, 1);
	CHECK_EQ(host_table_count(e.de), 1);
	env_free(&e);
}

static void list_one(void *arg, const char *name, uint32_t left)
{
	if (!strcmp(name, "a"))
		*(uint32_t *)arg = left;
}

/* The socket's add-hostbit counts its expire from the traffic's latest
 * packet time; list-hostbit gives the seconds left. */
TEST(socket_hostbit_expire_counts_from_packet_time)
{
	DetectConfig dc = { 0 };
	Address a;
	uint32_t left = 0;
	Env e;

	CHECK(env_dc(&e,
		"alert tcp any any -> any any (content:\"x\"; hostbits:isset,a,src; sid:2;)\n",
		&dc) == 0);
	CHECK_EQ(alerted(&e, 0x0a070001u, 1000, 2), 0);
	addr4(&a, 0x0a070001u);
	CHECK_EQ(detect_hostbit_set(e.de, &a, "a", 1, 60), 0);
	CHECK_EQ(detect_hostbit_list(e.de, &a, list_one, &left), 0);
	CHECK_EQ(left, 60);
	CHECK_EQ(alerted(&e, 0x0a070001u, 1060, 2), 1);
	CHECK_EQ(detect_hostbit_list(e.de, &a, list_one, &left), 0);
	CHECK_EQ(left, 0);
	CHECK_EQ(alerted(&e, 0x0a070001u, 1061, 2), 0);
	CHECK_EQ(detect_hostbit_set(e.de, &a, "nope", 1, 60), -1);
	env_free(&e);
}

/* host.memcap: a host that does not fit gets no bit, counted. */
TEST(host_memcap_refuses_and_counts)
{
	DetectConfig dc = { .host_hash_size = 16 };
	Env e;
	int n = 0;

	dc.host_memcap = state_hash_array_cost(16) + 4 * 64;
	CHECK(env_dc(&e,
		"alert tcp any any -> any any (content:\"x\"; hostbits:set,a,src; noalert; sid:1;)\n"
		"alert tcp any any -> any any (content:\"x\"; hostbits:isset,a,src; sid:2;)\n",
		&dc) == 0);
	for (uint32_t i = 0; i < 10; i++)
		n += alerted(&e, 0x0a070000u | i, 1000, 2);
	CHECK_EQ(n, (int)host_table_count(e.de));
	CHECK(n >= 1 && n <= 4);
	CHECK_EQ(counter(&e, "host.memcap"), 10 - n);
	CHECK(counter(&e, "host.memuse") <= dc.host_memcap);
	CHECK(counter(&e, "host.memuse") > state_hash_array_cost(16));
	env_free(&e);
}

static int config_error(const char *kv, char *err, size_t errlen)
{
	DetectConfig dc;
	int rc;

	conf_deinit();
	conf_set_kv(kv);
	err[0] = '\0';
	rc = detect_config_load(&dc, err, errlen);
	conf_deinit();
	return rc;
}

/* Sizes from yaml as Suricata 8 names them; a bad one is one line. */
TEST(state_table_config_checked)
{
	DetectConfig dc;
	char err[256];

	conf_deinit();
	conf_set_kv("detect.thresholds.hash-size=1000");
	conf_set_kv("detect.thresholds.memcap=1mb");
	conf_set_kv("host.memcap=2mb");
	CHECK_EQ(detect_config_load(&dc, err, sizeof(err)), 0);
	CHECK_EQ(dc.thr_hash_size, 1000);
	CHECK_EQ(dc.thr_memcap, 1u << 20);
	CHECK_EQ(dc.host_hash_size, 4096);
	CHECK_EQ(dc.host_memcap, 2u << 20);
	conf_deinit();
	CHECK_EQ(detect_config_load(&dc, err, sizeof(err)), 0);
	CHECK_EQ(dc.thr_hash_size, 16384);
	CHECK_EQ(dc.thr_memcap, 16u << 20);
	CHECK_EQ(dc.host_memcap, 32u << 20);

	CHECK_EQ(config_error("detect.thresholds.memcap=lots", err, sizeof(err)), -1);
	CHECK(strstr(err, "detect.thresholds.memcap: invalid size 'lots'"));
	CHECK_EQ(config_error("host.hash-size=0", err, sizeof(err)), -1);
	CHECK(strstr(err, "host.hash-size"));
	CHECK_EQ(config_error("host.memcap=1kb", err, sizeof(err)), -1);
	CHECK(strstr(err, "host.memcap: 1024 bytes is below"));
	CHECK(!strchr(err, '\n'));
}

static void order_noop(void *arg, const Packet *p)
{
	(void)arg;
	(void)p;
}

/* autofp: a by_flow lookup is not ordered, so its packet may be later than
 * an earlier-captured packet another worker has yet to count: it must not
 * expire that packet's entry (here the by_src entry of 1000, which the
 * packet of 1001 still counts in). */
TEST(unordered_by_flow_lookup_expires_nothing)
{
	DetectConfig dc = { .thr_hash_size = 1 };
	Packet p;
	Flow f;
	Env e;

	CHECK(env_dc(&e, LIMIT_RULE "\n"
		"alert udp any any -> any any (threshold:type limit, track by_flow, count 1, "
		"seconds 60; sid:2;)\n", &dc) == 0);
	detect_thread_set_order(e.dt, order_noop, NULL);
	CHECK_EQ(alerted(&e, 0x0a070001u, 1000, 1), 1);
	memset(&f, 0, sizeof(f));
	f.flow_id = 7;
	mk_pkt(&p, 0x0a090001u, 2000);
	p.proto = IPPROTO_UDP;
	p.flow = &f;
	p.flags |= PKT_HAS_FLOW | PKT_TOSERVER;
	{
		const DetectAlert *a;

		CHECK_EQ(detect_packet(e.dt, &p, &a), 1);
	}
	CHECK_EQ(threshold_table_count(e.de), 2);
	CHECK_EQ(alerted(&e, 0x0a070001u, 1001, 1), 0);
	detect_flow_free(&f);
	env_free(&e);
}

/* backoff has no window: its entry stays while it keeps matching, and
 * goes after an hour without a match (the next one is then a first). */
TEST(backoff_entry_goes_after_an_idle_hour)
{
	DetectConfig dc = { .thr_hash_size = 1 };
	Env e;

	Flow f;

	CHECK(env_dc(&e, "alert tcp any any -> any any (content:\"x\"; threshold:type backoff, "
		     "track by_flow, count 1, multiplier 10; sid:1;)", &dc) == 0);
	memset(&f, 0, sizeof(f));
	f.flow_id = 9;
	CHECK_EQ(flow_alerted(&e, &f, 1000), 1);
	CHECK_EQ(flow_alerted(&e, &f, 1001), 0);
	/* 3599 s after its last match: kept, still counting (3rd of 10) */
	CHECK_EQ(flow_alerted(&e, &f, 1001 + 3599), 0);
	CHECK_EQ(threshold_table_count(e.de), 1);
	/* an hour idle: gone, and the match alerts as a first one */
	CHECK_EQ(flow_alerted(&e, &f, 4600 + 3600), 1);
	CHECK_EQ(threshold_table_count(e.de), 1);
	CHECK_EQ(flow_alerted(&e, &f, 8201), 0);
	detect_flow_free(&f);
	env_free(&e);
}

/* ---- threshold.config: rate_filter, suppress by_either ---- */

#define X_RULE "alert tcp any any -> any any (content:\"x\"; sid:1;)"

/* threshold.config text loaded into e's engine. */
static int thr_conf(Env *e, const char *text)
{
	char path[] = "/tmp/test-thr-XXXXXX", err[256];
	int fd = mkstemp(path), rc;
	FILE *fp;

	if (fd < 0 || !(fp = fdopen(fd, "w")))
		return -1;
	fputs(text, fp);
	fclose(fp);
	rc = threshold_config_load(e->de, path, err, sizeof(err));
	unlink(path);
	return rc;
}

/* sid 1's alert on a packet src -> dst at sec: its action, -1 when none;
 * *rf: the action came from a rate_filter. */
static int action_of(Env *e, uint32_t src, uint32_t dst, long sec, int *rf)
{
	const DetectAlert *a;
	Packet p;
	uint32_t n;

	test_tcp4(&p, src, dst, 80, "x", 1);
	p.ts.tv_sec = sec;
	n = detect_packet(e->dt, &p, &a);
	for (uint32_t i = 0; i < n; i++) {
		if (a[i].s->sid != 1)
			continue;
		if (rf)
			*rf = a[i].by_rate_filter;
		return a[i].action;
	}
	return -1;
}

TEST(rate_filter_changes_the_action_past_count_for_timeout)
{
	DetectConfig dc = { .ips = 1 };
	const uint32_t A = 0x0a070001u, B = 0x0a070002u, D = 0xc0a8c801u;
	Env e;
	int rf = 0;

	CHECK(env_dc(&e, X_RULE, &dc) == 0);
	CHECK_EQ(thr_conf(&e, "rate_filter gen_id 1, sig_id 1, track by_src, count 2, "
			  "seconds 10, new_action drop, timeout 5\n"), 0);
	CHECK_EQ(action_of(&e, A, D, 1000, &rf), ALERT_ACTION_ALERT);
	CHECK_EQ(rf, 0);
	CHECK_EQ(action_of(&e, A, D, 1001, NULL), ALERT_ACTION_ALERT);
	/* the third within 10 s: past count 2, drop from now on */
	CHECK_EQ(action_of(&e, A, D, 1002, &rf), ALERT_ACTION_DROP);
	CHECK_EQ(rf, 1);
	/* another source counts apart */
	CHECK_EQ(action_of(&e, B, D, 1002, NULL), ALERT_ACTION_ALERT);
	/* in force for 5 s from 1002, whatever the count */
	CHECK_EQ(action_of(&e, A, D, 1006, NULL), ALERT_ACTION_DROP);
	/* then counting starts anew */
	CHECK_EQ(action_of(&e, A, D, 1007, &rf), ALERT_ACTION_ALERT);
	CHECK_EQ(rf, 0);
	CHECK_EQ(action_of(&e, A, D, 1008, NULL), ALERT_ACTION_ALERT);
	CHECK_EQ(action_of(&e, A, D, 1009, NULL), ALERT_ACTION_DROP);
	env_free(&e);
}

TEST(rate_filter_pass_removes_the_alert_and_by_both_is_the_pair)
{
	DetectConfig dc = { 0 };
	const uint32_t A = 0x0a070001u, D = 0xc0a8c801u;
	Env e;

	CHECK(env_dc(&e, X_RULE, &dc) == 0);
	CHECK_EQ(thr_conf(&e, "rate_filter gen_id 1, sig_id 1, track by_both, count 1, "
			  "seconds 60, new_action pass, timeout 100\n"), 0);
	CHECK_EQ(action_of(&e, A, D, 1000, NULL), ALERT_ACTION_ALERT);
	/* the reply direction is the same pair: its match is the second */
	CHECK_EQ(action_of(&e, D, A, 1001, NULL), -1);
	CHECK_EQ(action_of(&e, A, D, 1002, NULL), -1);
	env_free(&e);
}

TEST(rate_filter_lines_checked)
{
	DetectConfig dc = { 0 };
	Env e;

	CHECK(env_dc(&e, X_RULE, &dc) == 0);
	/* a bad line is logged and skipped; the others load */
	CHECK_EQ(thr_conf(&e, "rate_filter gen_id 1, sig_id 1, track by_src, count 1, "
			  "seconds 60, new_action explode, timeout 10\n"
			  "rate_filter gen_id 1, sig_id 1, track by_flow, count 1, "
			  "seconds 60, new_action drop, timeout 10\n"
			  "rate_filter gen_id 1, sig_id 1, track by_src, count 1, "
			  "seconds 60, new_action alert\n"), 0);
	CHECK_EQ(action_of(&e, 1, 2, 1000, NULL), ALERT_ACTION_ALERT);
	CHECK_EQ(action_of(&e, 1, 2, 1000, NULL), ALERT_ACTION_ALERT);
	env_free(&e);
}

TEST(suppress_by_either_matches_source_or_destination)
{
	DetectConfig dc = { 0 };
	const uint32_t IN = 0x0a070001u, OUT = 0x0b000001u, D = 0xc0a8c801u;
	Env e;

	CHECK(env_dc(&e, X_RULE, &dc) == 0);
	CHECK_EQ(thr_conf(&e, "suppress gen_id 1, sig_id 1, track by_either, ip 10.7.0.0/16\n"),
		 0);
	CHECK_EQ(action_of(&e, IN, D, 1000, NULL), -1);   /* source in the set */
	CHECK_EQ(action_of(&e, D, IN, 1000, NULL), -1);   /* destination in it */
	CHECK_EQ(action_of(&e, OUT, D, 1000, NULL), ALERT_ACTION_ALERT);
	env_free(&e);
}

TEST(suppress_by_src_ignores_the_destination)
{
	DetectConfig dc = { 0 };
	const uint32_t IN = 0x0a070001u, D = 0xc0a8c801u;
	Env e;

	CHECK(env_dc(&e, X_RULE, &dc) == 0);
	CHECK_EQ(thr_conf(&e, "suppress gen_id 1, sig_id 1, track by_src, ip 10.7.0.0/16\n"), 0);
	CHECK_EQ(action_of(&e, IN, D, 1000, NULL), -1);
	CHECK_EQ(action_of(&e, D, IN, 1000, NULL), ALERT_ACTION_ALERT);
	env_free(&e);
}

/* 1 when the last detect_packet() of e dropped its packet. */
static int dropped(Env *e, uint32_t src, long sec)
{
	const DetectAlert *a;
	Packet p;

	test_tcp4(&p, src, 0xc0a8c801u, 80, "x", 1);
	p.ts.tv_sec = sec;
	detect_packet(e->dt, &p, &a);
	return detect_packet_drop(e->dt, NULL) != NULL;
}

TEST(drop_below_its_detection_filter_does_not_drop)
{
	DetectConfig dc = { .ips = 1 };
	Env e;

	CHECK(env_dc(&e, "drop tcp any any -> any any (content:\"x\"; detection_filter:track "
		     "by_src, count 2, seconds 60; sid:1;)", &dc) == 0);
	CHECK_EQ(dropped(&e, 0x0a070001u, 1000), 0);
	CHECK_EQ(dropped(&e, 0x0a070001u, 1001), 0);
	CHECK_EQ(dropped(&e, 0x0a070001u, 1002), 1);
	env_free(&e);
}

TEST(suppressed_drop_still_drops)
{
	DetectConfig dc = { .ips = 1 };
	Env e;

	CHECK(env_dc(&e, "drop tcp any any -> any any (content:\"x\"; sid:1;)", &dc) == 0);
	CHECK_EQ(thr_conf(&e, "suppress gen_id 1, sig_id 1, track by_either, ip 10.7.0.0/16\n"),
		 0);
	CHECK_EQ(dropped(&e, 0x0a070001u, 1000), 1);
	CHECK_EQ(action_of(&e, 0x0a070001u, 0xc0a8c801u, 1000, NULL), -1);
	env_free(&e);
}

TEST(limit_drops_every_match_threshold_only_its_alerting_one)
{
	DetectConfig dc = { .ips = 1 };
	Env e;

	CHECK(env_dc(&e, "drop tcp any any -> any any (content:\"x\"; threshold:type limit, "
		     "track by_src, count 1, seconds 60; sid:1;)", &dc) == 0);
	CHECK_EQ(dropped(&e, 0x0a070001u, 1000), 1);
	CHECK_EQ(dropped(&e, 0x0a070001u, 1001), 1);   /* no alert, still dropped */
	env_free(&e);
	CHECK(env_dc(&e, "drop tcp any any -> any any (content:\"x\"; threshold:type threshold, "
		     "track by_src, count 2, seconds 60; sid:1;)", &dc) == 0);
	CHECK_EQ(dropped(&e, 0x0a070001u, 1000), 0);
	CHECK_EQ(dropped(&e, 0x0a070001u, 1001), 1);   /* the 2nd: alert and drop */
	CHECK_EQ(dropped(&e, 0x0a070001u, 1002), 0);   /* reset */
	env_free(&e);
	CHECK(env_dc(&e, "drop tcp any any -> any any (content:\"x\"; threshold:type both, "
		     "track by_src, count 2, seconds 60; sid:1;)", &dc) == 0);
	CHECK_EQ(dropped(&e, 0x0a070001u, 1000), 0);
	CHECK_EQ(dropped(&e, 0x0a070001u, 1001), 1);
	CHECK_EQ(dropped(&e, 0x0a070001u, 1002), 1);   /* past count: drops, no alert */
	env_free(&e);
}

TEST(global_suppress_and_threshold_entries)
{
	DetectConfig dc = { 0 };
	const uint32_t IN = 0x0a070001u, D = 0xc0a8c801u;
	Env e;

	/* gen_id 0, sig_id 0: every rule */
	CHECK(env_dc(&e, X_RULE, &dc) == 0);
	CHECK_EQ(thr_conf(&e, "suppress gen_id 0, sig_id 0, track by_src, ip 10.7.0.0/16\n"), 0);
	CHECK_EQ(action_of(&e, IN, D, 1000, NULL), -1);
	CHECK_EQ(action_of(&e, D, IN, 1000, NULL), ALERT_ACTION_ALERT);
	env_free(&e);
	/* sig_id 0 limits a rule without a threshold ... */
	CHECK(env_dc(&e, X_RULE, &dc) == 0);
	CHECK_EQ(thr_conf(&e, "threshold gen_id 1, sig_id 0, type limit, track by_src, count 1, "
			  "seconds 60\n"), 0);
	CHECK_EQ(action_of(&e, IN, D, 1000, NULL), ALERT_ACTION_ALERT);
	CHECK_EQ(action_of(&e, IN, D, 1001, NULL), -1);
	env_free(&e);
	/* ... but does not replace a rule's own (a sid-specific one does) */
	CHECK(env_dc(&e, LIMIT_RULE, &dc) == 0);
	CHECK_EQ(thr_conf(&e, "threshold gen_id 1, sig_id 0, type limit, track by_src, count 5, "
			  "seconds 60\n"), 0);
	CHECK_EQ(action_of(&e, IN, D, 1000, NULL), ALERT_ACTION_ALERT);
	CHECK_EQ(action_of(&e, IN, D, 1001, NULL), -1);
	env_free(&e);
	CHECK(env_dc(&e, LIMIT_RULE, &dc) == 0);
	CHECK_EQ(thr_conf(&e, "threshold gen_id 1, sig_id 1, type limit, track by_src, count 2, "
			  "seconds 60\n"), 0);
	CHECK_EQ(action_of(&e, IN, D, 1000, NULL), ALERT_ACTION_ALERT);
	CHECK_EQ(action_of(&e, IN, D, 1001, NULL), ALERT_ACTION_ALERT);
	CHECK_EQ(action_of(&e, IN, D, 1002, NULL), -1);
	env_free(&e);
}

TEST(rate_filter_sdrop_and_log_keep_the_action)
{
	DetectConfig dc = { .ips = 1 };
	Env e;

	CHECK(env_dc(&e, X_RULE, &dc) == 0);
	CHECK_EQ(thr_conf(&e, "rate_filter gen_id 1, sig_id 1, track by_rule, count 1, "
			  "seconds 60, new_action sdrop, timeout 10\n"), 0);
	CHECK_EQ(action_of(&e, 1, 2, 1000, NULL), ALERT_ACTION_ALERT);
	CHECK_EQ(action_of(&e, 1, 2, 1001, NULL), ALERT_ACTION_ALERT);
	env_free(&e);
}
