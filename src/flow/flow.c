/* Flow table: one per worker, so the packet path takes no lock.
 *
 * Flows hang off a power-of-two bucket array (chaining) and sit on one
 * table-wide list ordered by last packet (LRU: head is the oldest). The LRU
 * gives cheap timeouts (walk from the head until flows are too young) and the
 * eviction order under memcap pressure.
 *
 * Memory accounting follows Suricata's idea of flow.memuse: the table itself
 * plus every Flow allocated (in use or spare) counts against memcap/share,
 * each at the size of the allocator's block for it (mem_block_size). */
#include "flow/flow.h"
#include "util/mem-peak.h"
#include "conf/conf.h"
#include "util/log.h"

#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <time.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* A flow as memuse counts it: the block the allocator holds for it. */
#define FLOW_COST mem_block_size(sizeof(Flow))

/* 51 bits: what Suricata's flow_id uses, so it stays exact in JSON doubles. */
#define FLOW_ID_MASK ((1ull << 51) - 1)

/* Fixed seed: the hash picks the autofp worker, so it must be stable across
 * runs for the runs to be reproducible. */
#define FLOW_HASH_SEED 0x9e3779b9u

struct FlowTable {
	FlowConfig cfg;
	Flow **buckets;
	uint32_t mask;

	Flow *lru_head, *lru_tail;  /* oldest, newest */
	Flow *spare;                /* recycled flows, linked by hnext */
	uint32_t nspare;
	uint32_t prealloc;          /* spare list target: prealloc/share */

	uint64_t memcap, memuse;
	unsigned share;             /* tables splitting flow.memcap */
	uint64_t query_gen;         /* the last flow query this table answered */
	uint32_t min_timeout[2];    /* shortest reachable timeout, normal/emergency */
	int emergency;
	time_t last_deep_walk;
	uint32_t rows_maxlen;       /* longest hash row a new flow joined */

	ThreadCounters *tc;
	flow_end_fn on_end;
	void *arg;
};

/* memcap-set flow (the unix socket): the total from which each table takes
 * its share from now on; 0: none set, the configuration's holds. A table
 * reads it when it needs a new flow (never per packet): relaxed atomics, no
 * lock. g_memcap_conf is what memcap-show says before any set. */
static uint64_t g_memcap_live, g_memcap_conf;

void flow_memcap_set(uint64_t total)
{
	__atomic_store_n(&g_memcap_live, total, __ATOMIC_RELAXED);
}

uint64_t flow_memcap_get(void)
{
	uint64_t live = __atomic_load_n(&g_memcap_live, __ATOMIC_RELAXED);

	return live ? live : __atomic_load_n(&g_memcap_conf, __ATOMIC_RELAXED);
}

static void flow_memcap_refresh(FlowTable *ft)
{
	uint64_t live = __atomic_load_n(&g_memcap_live, __ATOMIC_RELAXED);

	if (live)
		ft->memcap = live / ft->share;
}

/* get-flow-stats-by-id (the unix socket): the tables are their workers'
 * own and unlocked, so the asking thread posts the id and each worker
 * looks in its table at its next flow_table_timeout (each packet, and the
 * idle ticks of live captures). A worker pays one relaxed load per call
 * while nothing is asked; the lock is taken only to answer. */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint64_t gen;               /* written under lock, read relaxed by workers */
	uint64_t id;
	unsigned tables, answered;  /* live tables; those that looked this gen */
	int found;
	FlowQueryStats st;
} g_query = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0, 0, 0, { 0 } };

static void flow_query_serve(FlowTable *ft)
{
	pthread_mutex_lock(&g_query.lock);
	if (ft->query_gen != g_query.gen) {
		ft->query_gen = g_query.gen;
		for (const Flow *f = ft->lru_head; f && !g_query.found; f = f->lnext) {
			if (f->flow_id != g_query.id)
				continue;
			g_query.found = 1;
			g_query.st.pkts_toserver = f->pkts_toserver;
			g_query.st.pkts_toclient = f->pkts_toclient;
			g_query.st.bytes_toserver = f->bytes_toserver;
			g_query.st.bytes_toclient = f->bytes_toclient;
			g_query.st.age = (int64_t)(f->last.tv_sec - f->start.tv_sec);
		}
		g_query.answered++;
		pthread_cond_broadcast(&g_query.cond);
	}
	pthread_mutex_unlock(&g_query.lock);
}

static inline void flow_query_check(FlowTable *ft)
{
	if (__builtin_expect(__atomic_load_n(&g_query.gen, __ATOMIC_RELAXED) != ft->query_gen, 0))
		flow_query_serve(ft);
}

int flow_query_by_id(uint64_t id, unsigned wait_ms, FlowQueryStats *out)
{
	struct timespec until;
	int found;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += wait_ms / 1000;
	until.tv_nsec += (long)(wait_ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&g_query.lock);
	g_query.id = id;
	g_query.found = 0;
	g_query.answered = 0;
	__atomic_store_n(&g_query.gen, g_query.gen + 1, __ATOMIC_RELAXED);
	while (!g_query.found && g_query.answered < g_query.tables)
		if (pthread_cond_timedwait(&g_query.cond, &g_query.lock, &until) == ETIMEDOUT)
			break;
	found = g_query.found;
	if (found)
		*out = g_query.st;
	pthread_mutex_unlock(&g_query.lock);
	return found;
}

static void flow_query_tables(int d)
{
	pthread_mutex_lock(&g_query.lock);
	g_query.tables += (unsigned)d;
	pthread_cond_broadcast(&g_query.cond);
	pthread_mutex_unlock(&g_query.lock);
}

/* Counter ids, registered once at start. */
static struct {
	counter_id total, tcp, udp, icmpv4, icmpv6, tcp_reuse, memcap;
	counter_id emerg_entered, emerg_over, active, memuse, spare, get_used;
	counter_id end_new, end_established, end_closed, mgr_timeout;
	/* Suricata 8's flow reuse under memcap: candidates looked at, those
	 * busy or refused (never here: the table is its thread's alone, and
	 * the least recently used flow is always taken), reuse that found none */
	counter_id get_used_eval, get_used_eval_busy, get_used_eval_reject, get_used_failed;
	counter_id end_local_bypassed;
	counter_id byp_pkts, byp_bytes;
	/* Suricata 8's flow manager / worker / recycler counters. Here the
	 * worker that owns a table is its manager (the timeout walk) and its
	 * recycler (flow_release) too: see flow_count_eviction. */
	counter_id mgr_full_pass, mgr_rows_per_sec, mgr_rows_maxlen, mgr_checked, mgr_notimeout;
	counter_id mgr_evicted, mgr_evicted_work;
	counter_id wrk_evicted, wrk_evicted_work, wrk_evicted_inject;
	counter_id wrk_injected, wrk_injected_max;
	counter_id wrk_spare_sync, wrk_spare_sync_avg, wrk_spare_sync_empty,
		wrk_spare_sync_incomplete;
	counter_id rec_recycled, rec_queue_avg, rec_queue_max;
} cnt;
static int counters_registered;

void flow_register_counters(void)
{
	cnt.total = counter_register("flow.total");
	cnt.tcp = counter_register("flow.tcp");
	cnt.udp = counter_register("flow.udp");
	cnt.icmpv4 = counter_register("flow.icmpv4");
	cnt.icmpv6 = counter_register("flow.icmpv6");
	cnt.tcp_reuse = counter_register("flow.tcp_reuse");
	cnt.memcap = counter_register("flow.memcap");
	cnt.emerg_entered = counter_register("flow.emerg_mode_entered");
	cnt.emerg_over = counter_register("flow.emerg_mode_over");
	cnt.active = counter_register("flow.active");
	cnt.memuse = counter_register("flow.memuse");
	cnt.spare = counter_register("flow.spare");
	cnt.get_used = counter_register("flow.get_used");
	cnt.end_new = counter_register("flow.end.state.new");
	cnt.end_established = counter_register("flow.end.state.established");
	cnt.end_closed = counter_register("flow.end.state.closed");
	cnt.end_local_bypassed = counter_register("flow.end.state.local_bypassed");
	cnt.get_used_eval = counter_register("flow.get_used_eval");
	cnt.get_used_eval_busy = counter_register("flow.get_used_eval_busy");
	cnt.get_used_eval_reject = counter_register("flow.get_used_eval_reject");
	cnt.get_used_failed = counter_register("flow.get_used_failed");
	cnt.mgr_timeout = counter_register("flow.mgr.flows_timeout");
	cnt.byp_pkts = counter_register("flow_bypassed.local_pkts");
	cnt.byp_bytes = counter_register("flow_bypassed.local_bytes");
	cnt.mgr_full_pass = counter_register("flow.mgr.full_hash_pass");
	cnt.mgr_rows_per_sec = counter_register("flow.mgr.rows_per_sec");
	cnt.mgr_rows_maxlen = counter_register("flow.mgr.rows_maxlen");
	cnt.mgr_checked = counter_register("flow.mgr.flows_checked");
	cnt.mgr_notimeout = counter_register("flow.mgr.flows_notimeout");
	cnt.mgr_evicted = counter_register("flow.mgr.flows_evicted");
	cnt.mgr_evicted_work = counter_register("flow.mgr.flows_evicted_needs_work");
	cnt.wrk_evicted = counter_register("flow.wrk.flows_evicted");
	cnt.wrk_evicted_work = counter_register("flow.wrk.flows_evicted_needs_work");
	cnt.wrk_evicted_inject = counter_register("flow.wrk.flows_evicted_pkt_inject");
	cnt.wrk_injected = counter_register("flow.wrk.flows_injected");
	cnt.wrk_injected_max = counter_register("flow.wrk.flows_injected_max");
	/* a table's spare list is its own: there is no global pool to sync
	 * with, and flows are recycled on the spot (no recycler queue); the
	 * names are there, at 0, as Suricata's stats readers expect them */
	cnt.wrk_spare_sync = counter_register("flow.wrk.spare_sync");
	cnt.wrk_spare_sync_avg = counter_register("flow.wrk.spare_sync_avg");
	cnt.wrk_spare_sync_empty = counter_register("flow.wrk.spare_sync_empty");
	cnt.wrk_spare_sync_incomplete = counter_register("flow.wrk.spare_sync_incomplete");
	cnt.rec_recycled = counter_register("flow.recycler.recycled");
	cnt.rec_queue_avg = counter_register("flow.recycler.queue_avg");
	cnt.rec_queue_max = counter_register("flow.recycler.queue_max");
	counters_registered = 1;
}

/* ---- configuration ---- */

static const FlowTimeouts default_timeouts[FLOW_PROTO_MAX] = {
	/* Suricata 8's built-in values (flow-private.h), for a yaml without
	 * flow-timeouts: TCP new 30, established 300, closed 10 (the shipped
	 * suricata.yaml's 60/600/60 are that file's). UDP and ICMP never
	 * close: their "closed" is 0. */
	[FLOW_PROTO_TCP] = { 30, 300, 10, 100, 10, 100, 5, 50 },
	[FLOW_PROTO_UDP] = { 30, 300, 0, 100, 10, 100, 0, 50 },
	[FLOW_PROTO_ICMP] = { 30, 300, 0, 100, 10, 100, 0, 50 },
	[FLOW_PROTO_DEFAULT] = { 30, 300, 0, 100, 10, 100, 0, 50 },
};

static const char *const proto_keys[FLOW_PROTO_MAX] = {
	[FLOW_PROTO_TCP] = "tcp",
	[FLOW_PROTO_UDP] = "udp",
	[FLOW_PROTO_ICMP] = "icmp",
	[FLOW_PROTO_DEFAULT] = "default",
};

static int conf_u32(const char *key, uint32_t *out, uint64_t min, uint64_t max)
{
	int64_t v;
	int r = conf_get_int(key, &v);

	if (r <= 0)
		return r;
	if (v < (int64_t)min || (uint64_t)v > max) {
		log_error("flow: %s: %lld out of range [%llu, %llu]", key, (long long)v,
			  (unsigned long long)min, (unsigned long long)max);
		return -1;
	}
	*out = (uint32_t)v;
	return 1;
}

static int load_timeouts(FlowTimeouts *t, const char *proto)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "new", offsetof(FlowTimeouts, new_s) },
		{ "established", offsetof(FlowTimeouts, established_s) },
		{ "closed", offsetof(FlowTimeouts, closed_s) },
		{ "bypassed", offsetof(FlowTimeouts, bypassed_s) },
		{ "emergency-new", offsetof(FlowTimeouts, emerg_new_s) },
		{ "emergency-established", offsetof(FlowTimeouts, emerg_established_s) },
		{ "emergency-closed", offsetof(FlowTimeouts, emerg_closed_s) },
		{ "emergency-bypassed", offsetof(FlowTimeouts, emerg_bypassed_s) },
	};
	char path[96];
	int rc = 0;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		snprintf(path, sizeof(path), "flow-timeouts.%s.%s", proto, keys[i].key);
		if (conf_u32(path, (uint32_t *)((char *)t + keys[i].off), 0, UINT32_MAX) < 0)
			rc = -1;
	}
	return rc;
}

int flow_config_load(FlowConfig *cfg)
{
	int rc = 0;

	memset(cfg, 0, sizeof(*cfg));
	cfg->memcap = 128ull << 20;
	cfg->hash_size = 65536;
	cfg->prealloc = 10000;
	cfg->emergency_recovery = 30;
	memcpy(cfg->timeouts, default_timeouts, sizeof(default_timeouts));

	if (conf_get_size("flow.memcap", &cfg->memcap) < 0)
		rc = -1;
	__atomic_store_n(&g_memcap_conf, cfg->memcap, __ATOMIC_RELAXED);
	if (conf_u32("flow.hash-size", &cfg->hash_size, 1, 1u << 30) < 0)
		rc = -1;
	if (conf_u32("flow.prealloc", &cfg->prealloc, 0, UINT32_MAX) < 0)
		rc = -1;
	if (conf_u32("flow.emergency-recovery", &cfg->emergency_recovery, 0, 100) < 0)
		rc = -1;
	for (int i = 0; i < FLOW_PROTO_MAX; i++)
		if (load_timeouts(&cfg->timeouts[i], proto_keys[i]) < 0)
			rc = -1;
	return rc;
}

/* ---- hashing ---- */

static inline uint32_t rotl32(uint32_t x, int r)
{
	return (x << r) | (x >> (32 - r));
}

/* A murmur3-style word mixer: every input bit reaches every output bit. */
static inline uint32_t mix_word(uint32_t h, uint32_t k)
{
	k *= 0xcc9e2d51u;
	k = rotl32(k, 15);
	k *= 0x1b873593u;
	h ^= k;
	h = rotl32(h, 13);
	return h * 5 + 0xe6546b64u;
}

static inline uint32_t mix_final(uint32_t h)
{
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

static int is_icmp(uint8_t proto)
{
	return proto == IPPROTO_ICMP || proto == IPPROTO_ICMPV6;
}

static int addr_words(uint8_t ip_version)
{
	return ip_version == 6 ? 4 : 1;
}

/* Orders (addr, port) pairs so that both directions hash and compare alike. */
static int endpoint_cmp(const Address *a, uint16_t ap, const Address *b, uint16_t bp,
			int words)
{
	/* Same order as memcmp() over the network-order bytes (the first differing
	 * word, compared in host order, decides), without a libc call for 4 or 16
	 * bytes on every packet. */
	for (int i = 0; i < words; i++) {
		if (a->a.u32[i] != b->a.u32[i])
			return ntohl(a->a.u32[i]) < ntohl(b->a.u32[i]) ? -1 : 1;
	}
	return (int)ap - (int)bp;
}

static uint32_t hash_tuple(uint8_t proto, uint8_t ip_version, const Address *src,
			   const Address *dst, uint16_t sp, uint16_t dp,
			   const uint16_t *vlan, uint8_t nvlan)
{
	int words = addr_words(ip_version);
	const Address *lo = src, *hi = dst;
	uint16_t lp = sp, hp = dp;
	uint32_t h = FLOW_HASH_SEED;

	if (endpoint_cmp(src, sp, dst, dp, words) > 0) {
		lo = dst;
		hi = src;
		lp = dp;
		hp = sp;
	}
	for (int i = 0; i < words; i++)
		h = mix_word(h, lo->a.u32[i]);
	for (int i = 0; i < words; i++)
		h = mix_word(h, hi->a.u32[i]);
	h = mix_word(h, ((uint32_t)lp << 16) | hp);
	h = mix_word(h, ((uint32_t)proto << 8) | ip_version);
	for (int i = 0; i < nvlan && i < 3; i++)
		h = mix_word(h, vlan[i]);
	return mix_final(h ^ (uint32_t)(words * 8 + 4 + nvlan));
}

/* The reply type that belongs with an ICMP query type, as Suricata pairs them
 * (echo, timestamp, information, address mask; ICMPv6 echo and neighbour
 * discovery); 0 for the rest. */
static uint8_t icmp_counterpart(uint8_t proto, uint8_t type)
{
	static const uint8_t v4[][2] = { { 8, 0 }, { 13, 14 }, { 15, 16 }, { 17, 18 } };
	static const uint8_t v6[][2] = {
		{ 128, 129 }, { 133, 134 }, { 135, 136 }, { 141, 142 },
		{ 144, 145 }, { 146, 147 }, { 148, 149 },
	};
	const uint8_t (*tab)[2] = proto == IPPROTO_ICMP ? v4 : v6;
	size_t n = proto == IPPROTO_ICMP ? sizeof(v4) / sizeof(v4[0]) : sizeof(v6) / sizeof(v6[0]);

	for (size_t i = 0; i < n; i++) {
		if (tab[i][0] == type)
			return tab[i][1];
		if (tab[i][1] == type)
			return tab[i][0];
	}
	return 0;
}

static void packet_ports(const Packet *p, uint16_t *sp, uint16_t *dp)
{
	/* Suricata keys an ICMP flow on the packet's type and code and on the
	 * type of the answer it expects: a request and its reply share a flow,
	 * two requests in opposite directions do not. */
	if (is_icmp(p->proto)) {
		*sp = (uint16_t)(p->icmp_type << 8 | p->icmp_code);
		*dp = (uint16_t)(icmp_counterpart(p->proto, p->icmp_type) << 8);
		return;
	}
	*sp = p->sp;
	*dp = p->dp;
}

uint32_t flow_hash_packet(const Packet *p)
{
	FlowIcmpQuote q;
	uint16_t sp, dp;

	/* an unreachable goes where the flow it quotes is (autofp's worker) */
	if (flow_icmp_quote(p, &q))
		return hash_tuple(q.proto, 4, &q.src, &q.dst, q.sp, q.dp, p->vlan_id,
				  p->key_vlans) ^ p->flow_level;
	packet_ports(p, &sp, &dp);
	return hash_tuple(p->proto, p->ip_version, &p->src, &p->dst, sp, dp,
			  p->vlan_id, p->key_vlans) ^ p->flow_level;
}

/* splitmix64 finaliser */
static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

/* Derived from the directed tuple and the start time only, so single and
 * autofp runs (different tables, different creation order) agree. */
static uint64_t make_flow_id(const Flow *f)
{
	int words = addr_words(f->ip_version);
	uint64_t x = 0x6a09e667f3bcc909ull;

	for (int i = 0; i < words; i++)
		x = mix64(x ^ f->src.a.u32[i]);
	for (int i = 0; i < words; i++)
		x = mix64(x ^ ((uint64_t)f->dst.a.u32[i] << 16));
	x = mix64(x ^ ((uint64_t)f->level << 48 | (uint64_t)f->sp << 32 | (uint64_t)f->dp << 16 | f->proto));
	for (int i = 0; i < f->vlan_count && i < 3; i++)
		x = mix64(x ^ ((uint64_t)f->vlan_id[i] << (8 * i)));
	x = mix64(x ^ (uint64_t)f->start.tv_sec);
	x = mix64(x ^ (uint64_t)f->start.tv_usec);
	x &= FLOW_ID_MASK;
	return x ? x : 1;
}

/* ---- timeouts ---- */

static int proto_class(uint8_t proto)
{
	switch (proto) {
	case IPPROTO_TCP:
		return FLOW_PROTO_TCP;
	case IPPROTO_UDP:
		return FLOW_PROTO_UDP;
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		return FLOW_PROTO_ICMP;
	default:
		return FLOW_PROTO_DEFAULT;
	}
}

static uint32_t timeout_for(const FlowConfig *cfg, int emergency, uint8_t proto,
			    enum flow_state state)
{
	const FlowTimeouts *t = &cfg->timeouts[proto_class(proto)];

	switch (state) {
	case FLOW_STATE_ESTABLISHED:
		return emergency ? t->emerg_established_s : t->established_s;
	case FLOW_STATE_CLOSED:
		return emergency ? t->emerg_closed_s : t->closed_s;
	default:
		return emergency ? t->emerg_new_s : t->new_s;
	}
}

uint32_t flow_timeout_of(const FlowTable *ft, const Flow *f)
{
	return timeout_for(&ft->cfg, ft->emergency, f->proto, f->state);
}

/* Shortest timeout any flow can have: only TCP reaches "closed". Bounds the
 * LRU walk: a flow younger than this cannot be due, nor can any after it. */
static uint32_t min_reachable_timeout(const FlowConfig *cfg, int emergency)
{
	static const uint8_t protos[] = { IPPROTO_TCP, IPPROTO_UDP, IPPROTO_ICMP, 0 };
	uint32_t m = UINT32_MAX;

	for (size_t i = 0; i < sizeof(protos); i++) {
		for (int s = FLOW_STATE_NEW; s <= FLOW_STATE_CLOSED; s++) {
			if (s == FLOW_STATE_CLOSED && protos[i] != IPPROTO_TCP)
				continue;
			uint32_t t = timeout_for(cfg, emergency, protos[i], s);
			if (t < m)
				m = t;
		}
	}
	return m;
}

/* Idle time beyond this many seconds saturates: it is longer than any
 * timeout, and the microsecond product stays far from INT64_MAX. */
#define IDLE_SECONDS_MAX ((int64_t)1 << 40)	/* ~35,000 years */

/* now - last in microseconds, saturating: pcap time can jump (a pcapng with
 * a timestamp of 2e13 s after one of 1,000 s) and (now - last) * 1000000
 * would overflow int64. Negative when pcap time went backwards. */
static int64_t idle_us(const Flow *f, const struct timeval *now)
{
	int64_t ds;

	if (__builtin_sub_overflow((int64_t)now->tv_sec, (int64_t)f->last.tv_sec, &ds))
		ds = now->tv_sec > f->last.tv_sec ? IDLE_SECONDS_MAX : -IDLE_SECONDS_MAX;
	if (ds > IDLE_SECONDS_MAX)
		ds = IDLE_SECONDS_MAX;
	else if (ds < -IDLE_SECONDS_MAX)
		ds = -IDLE_SECONDS_MAX;
	return ds * 1000000 + ((int64_t)now->tv_usec - (int64_t)f->last.tv_usec);
}

/* now - last > timeout, in microseconds; a packet older than last is never
 * "after" the timeout (pcap time can go backwards). */
static int flow_is_due(const Flow *f, const struct timeval *now, uint32_t timeout)
{
	return idle_us(f, now) > (int64_t)timeout * 1000000;
}

/* ---- memory ---- */

static void update_gauges(FlowTable *ft)
{
	counter_set(ft->tc, cnt.memuse, ft->memuse);
	counter_set(ft->tc, cnt.spare, ft->nspare);
}

static Flow *flow_alloc(FlowTable *ft)
{
	Flow *f;

	if (ft->spare) {
		f = ft->spare;
		ft->spare = f->hnext;
		ft->nspare--;
		f->hnext = NULL;
		return f;
	}
	flow_memcap_refresh(ft);
	if (ft->memuse + FLOW_COST > ft->memcap)
		return NULL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	ft->memuse += FLOW_COST;
	mem_peak_add(FLOW_COST);
	return f;
}

/* Keeps up to prealloc spare flows; in emergency every freed flow goes back
 * to the system so that memuse actually drops. */
static void flow_release(FlowTable *ft, Flow *f)
{
	counter_inc(ft->tc, cnt.rec_recycled);
	if (!ft->emergency && ft->nspare < ft->prealloc) {
		memset(f, 0, sizeof(*f));
		f->hnext = ft->spare;
		ft->spare = f;
		ft->nspare++;
		return;
	}
	free(f);
	ft->memuse -= FLOW_COST;
	mem_peak_sub(FLOW_COST);
}

/* ---- lists ---- */

static void lru_unlink(FlowTable *ft, Flow *f)
{
	if (f->lprev)
		f->lprev->lnext = f->lnext;
	else
		ft->lru_head = f->lnext;
	if (f->lnext)
		f->lnext->lprev = f->lprev;
	else
		ft->lru_tail = f->lprev;
	f->lnext = f->lprev = NULL;
}

static void lru_append(FlowTable *ft, Flow *f)
{
	f->lnext = NULL;
	f->lprev = ft->lru_tail;
	if (ft->lru_tail)
		ft->lru_tail->lnext = f;
	else
		ft->lru_head = f;
	ft->lru_tail = f;
}

static void hash_unlink(FlowTable *ft, Flow *f)
{
	Flow **pp = &ft->buckets[f->hash & ft->mask];

	for (; *pp; pp = &(*pp)->hnext) {
		if (*pp == f) {
			*pp = f->hnext;
			f->hnext = NULL;
			return;
		}
	}
}

/* The table whose flows this thread handles now: per-flow state that later
 * stages allocate (flow_mem_add) is counted in its flow.memuse. Tables are
 * per worker and a flow is only touched on its worker's thread. */
static _Thread_local FlowTable *tls_ft;

void flow_mem_add(uint64_t n)
{
	if (tls_ft)
		tls_ft->memuse += n;
	mem_peak_add(n);
}

void flow_mem_sub(uint64_t n)
{
	if (tls_ft)
		tls_ft->memuse -= n;
	mem_peak_sub(n);
}

/* Who takes a flow out of the table before its end: the timeout walk
 * (Suricata's flow manager) or the packet path (its worker: a flow found
 * timed out or reused at lookup, or evicted under memcap pressure). */
enum flow_evictor { EVICT_BY_MGR, EVICT_BY_WRK };

/* Counts an eviction as Suricata's flow.mgr.* / flow.wrk.* do. A flow
 * "needs work" when it still has stream or app-layer state: its end runs
 * the final reassembly, parsing and detection on pseudo packets (the
 * worker's on_end), which Suricata's manager hands to the worker as an
 * injected flow. Called before flow_end, which frees that state. */
static void flow_count_eviction(FlowTable *ft, const Flow *f, enum flow_evictor by)
{
	int work = f->stream != NULL || f->alstate != NULL;

	if (by == EVICT_BY_MGR) {
		counter_inc(ft->tc, cnt.mgr_evicted);
		if (work) {
			counter_inc(ft->tc, cnt.mgr_evicted_work);
			counter_inc(ft->tc, cnt.wrk_injected);
		}
		return;
	}
	counter_inc(ft->tc, cnt.wrk_evicted);
	if (work) {
		counter_inc(ft->tc, cnt.wrk_evicted_work);
		if (f->stream)
			counter_inc(ft->tc, cnt.wrk_evicted_inject);
	}
}

static void flow_end(FlowTable *ft, Flow *f, enum flow_end_reason why)
{
	hash_unlink(ft, f);
	lru_unlink(ft, f);
	/* Suricata marks a flow timed out or evicted under emergency mode */
	if (ft->emergency && why != FLOW_END_SHUTDOWN)
		f->emergency = 1;
	if (ft->on_end)
		ft->on_end(ft->arg, f, why);

	/* a bypassed flow ends in Suricata's local_bypassed state (eve says
	 * "bypassed"), whatever its TCP state was */
	if (f->ep_flags & (FLOW_EP_BYPASS | FLOW_LOCAL_BYPASS))
		counter_inc(ft->tc, cnt.end_local_bypassed);
	else switch (f->state) {
	case FLOW_STATE_ESTABLISHED:
		counter_inc(ft->tc, cnt.end_established);
		break;
	case FLOW_STATE_CLOSED:
		counter_inc(ft->tc, cnt.end_closed);
		break;
	default:
		counter_inc(ft->tc, cnt.end_new);
		break;
	}
	if (why == FLOW_END_TIMEOUT)
		counter_inc(ft->tc, cnt.mgr_timeout);
	else if (why == FLOW_END_FORCED)
		counter_inc(ft->tc, cnt.get_used);
	counter_sub(ft->tc, cnt.active, 1);
	flow_release(ft, f);
	update_gauges(ft);
}

/* ---- table ---- */

static uint32_t round_pow2(uint32_t v)
{
	uint32_t p = 1;

	while (p < v && p < (1u << 30))
		p <<= 1;
	return p;
}

FlowTable *flow_table_new(const FlowConfig *cfg, unsigned share, ThreadCounters *tc,
			  flow_end_fn on_end, void *arg)
{
	FlowTable *ft;
	uint32_t nbuckets;

	if (!counters_registered) {
		log_error("flow: flow_register_counters() was not called");
		return NULL;
	}
	if (share == 0)
		share = 1;
	ft = calloc(1, sizeof(*ft));
	if (!ft)
		return NULL;
	ft->cfg = *cfg;
	ft->tc = tc;
	ft->on_end = on_end;
	ft->arg = arg;
	ft->memcap = cfg->memcap / share;
	ft->share = share;
	nbuckets = round_pow2(cfg->hash_size / share ? cfg->hash_size / share : 1);
	ft->mask = nbuckets - 1;
	ft->memuse = sizeof(*ft) + (uint64_t)nbuckets * sizeof(Flow *);
	if (ft->memuse > ft->memcap) {
		log_error("flow: hash table of %u rows needs %llu bytes, over flow.memcap "
			  "share of %llu: raise flow.memcap or lower flow.hash-size",
			  nbuckets, (unsigned long long)ft->memuse,
			  (unsigned long long)ft->memcap);
		free(ft);
		return NULL;
	}
	ft->buckets = calloc(nbuckets, sizeof(Flow *));
	if (!ft->buckets) {
		free(ft);
		return NULL;
	}
	ft->min_timeout[0] = min_reachable_timeout(cfg, 0);
	ft->min_timeout[1] = min_reachable_timeout(cfg, 1);

	/* Preallocation stops at the memcap: Suricata warns and carries on too. */
	ft->prealloc = cfg->prealloc / share;
	for (uint32_t i = 0; i < ft->prealloc; i++) {
		Flow *f;

		if (ft->memuse + FLOW_COST > ft->memcap) {
			log_warning("flow: prealloc stopped at %u flows: flow.memcap reached", i);
			ft->prealloc = i;
			break;
		}
		f = calloc(1, sizeof(*f));
		if (!f)
			break;
		ft->memuse += FLOW_COST;
		f->hnext = ft->spare;
		ft->spare = f;
		ft->nspare++;
	}
	mem_peak_add(ft->memuse);
	update_gauges(ft);
	/* a full pass over the table runs once a second of packet time */
	counter_set(tc, cnt.mgr_rows_per_sec, nbuckets);
	ft->query_gen = __atomic_load_n(&g_query.gen, __ATOMIC_RELAXED);
	flow_query_tables(1);
	return ft;
}

void flow_table_flush(FlowTable *ft)
{
	tls_ft = ft;
	while (ft->lru_head)
		flow_end(ft, ft->lru_head, FLOW_END_SHUTDOWN);
}

void flow_table_free(FlowTable *ft)
{
	if (!ft)
		return;
	flow_table_flush(ft);
	flow_query_tables(-1);
	while (ft->spare) {
		Flow *f = ft->spare;
		ft->spare = f->hnext;
		free(f);
		ft->memuse -= FLOW_COST;
	}
	mem_peak_sub(ft->memuse);
	free(ft->buckets);
	free(ft);
}

/* Walks from the oldest flow. Flows are not strictly ordered when pcap time
 * goes backwards and timeouts differ per state, so "not due" does not mean
 * "nothing after is due"; but a flow idle for less than the shortest timeout
 * proves that every flow after it is too young. The full walk runs once per
 * second of packet time; in between only the due head is trimmed, so a flow
 * ends at most a second late and never early. */
static void timeout_walk(FlowTable *ft, const struct timeval *now, int deep)
{
	int64_t min_us = (int64_t)ft->min_timeout[ft->emergency ? 1 : 0] * 1000000;
	Flow *f = ft->lru_head;
	uint64_t checked = 0, notimeout = 0, injected = 0;

	if (deep)
		counter_inc(ft->tc, cnt.mgr_full_pass);
	while (f) {
		Flow *next = f->lnext;

		checked++;
		if (!f->pinned && flow_is_due(f, now, flow_timeout_of(ft, f))) {
			injected += f->stream != NULL || f->alstate != NULL;
			flow_count_eviction(ft, f, EVICT_BY_MGR);
			flow_end(ft, f, FLOW_END_TIMEOUT);
		} else {
			notimeout++;
			if (!deep || idle_us(f, now) <= min_us)
				break;
		}
		f = next;
	}
	/* the pass Suricata's manager makes is the deep walk; the head trim
	 * between two (every packet) checks one flow and is not counted */
	if (deep) {
		counter_add(ft->tc, cnt.mgr_checked, checked);
		counter_add(ft->tc, cnt.mgr_notimeout, notimeout);
	}
	/* the most flows one pass handed over for their final work */
	if (injected > counter_get(ft->tc, cnt.wrk_injected_max))
		counter_set(ft->tc, cnt.wrk_injected_max, injected);
}

void flow_table_timeout(FlowTable *ft, const struct timeval *now)
{
	int deep = now->tv_sec != ft->last_deep_walk;

	tls_ft = ft;
	flow_query_check(ft);
	if (deep)
		ft->last_deep_walk = now->tv_sec;
	timeout_walk(ft, now, deep);
}

static uint64_t recovery_target(const FlowTable *ft)
{
	return ft->memcap / 100 * (100 - ft->cfg.emergency_recovery) +
	       ft->memcap % 100 * (100 - ft->cfg.emergency_recovery) / 100;
}

/* No flow under memcap: enter emergency mode, end what the emergency timeouts
 * allow, then evict the least recently used flows until memuse is back under
 * memcap*(100-emergency_recovery)/100, and leave emergency mode. */
static Flow *flow_alloc_emergency(FlowTable *ft, const struct timeval *now)
{
	uint64_t target = recovery_target(ft);
	Flow *f;

	if (!ft->emergency) {
		ft->emergency = 1;
		counter_inc(ft->tc, cnt.emerg_entered);
	}
	timeout_walk(ft, now, 1);
	while (ft->memuse >= target) {
		/* from the least recently used on; a pinned flow stays (at most
		 * a window's burst of them: WINDOW_BURST_MAX) */
		Flow *o = ft->lru_head;

		while (o && o->pinned)
			o = o->lnext;
		if (!o)
			break;
		counter_inc(ft->tc, cnt.get_used_eval);
		flow_count_eviction(ft, o, EVICT_BY_WRK);
		flow_end(ft, o, FLOW_END_FORCED);
	}
	/* Still in emergency: the spare list was bypassed, now drop it too. */
	while (ft->memuse >= target && ft->spare) {
		f = ft->spare;
		ft->spare = f->hnext;
		ft->nspare--;
		free(f);
		ft->memuse -= FLOW_COST;
		mem_peak_sub(FLOW_COST);
	}
	if (ft->memuse < target) {
		ft->emergency = 0;
		counter_inc(ft->tc, cnt.emerg_over);
	}
	update_gauges(ft);
	f = flow_alloc(ft);
	if (!f)
		counter_inc(ft->tc, cnt.get_used_failed);
	return f;
}

/* ---- lookup ---- */

/* The vlan ids the flow is keyed on (none with vlan.use-for-tracking: no;
 * the flow still logs its first packet's). */
static int vlan_equal(const Flow *f, const Packet *p)
{
	if (f->key_vlans != p->key_vlans)
		return 0;
	for (int i = 0; i < f->key_vlans && i < 3; i++)
		if (f->vlan_id[i] != p->vlan_id[i])
			return 0;
	return 1;
}

static int addr_equal(const Address *a, const Address *b, int words)
{
	for (int i = 0; i < words; i++)
		if (a->a.u32[i] != b->a.u32[i])
			return 0;
	return 1;
}

/* 1: p goes client->server, -1: server->client, 0: not this flow. */
static int flow_match(const Flow *f, const Packet *p, uint16_t sp, uint16_t dp)
{
	int words = addr_words(p->ip_version);

	if (f->proto != p->proto || f->ip_version != p->ip_version || f->level != p->flow_level ||
	    !vlan_equal(f, p))
		return 0;
	if (f->sp == sp && f->dp == dp && addr_equal(&f->src, &p->src, words) &&
	    addr_equal(&f->dst, &p->dst, words))
		return 1;
	if (f->sp == dp && f->dp == sp && addr_equal(&f->src, &p->dst, words) &&
	    addr_equal(&f->dst, &p->src, words))
		return -1;
	return 0;
}

#define SWAP(type, a, b) do { type _t = (a); (a) = (b); (b) = _t; } while (0)

void flow_swap(Flow *f, Packet *p)
{
	uint8_t macs[FLOW_MACS_MAX][6];

	SWAP(Address, f->src, f->dst);
	SWAP(uint16_t, f->sp, f->dp);
	SWAP(uint64_t, f->pkts_toserver, f->pkts_toclient);
	SWAP(uint64_t, f->bytes_toserver, f->bytes_toclient);
	SWAP(uint8_t, f->tcp_flags_ts, f->tcp_flags_tc);
	SWAP(uint8_t, f->min_ttl[0], f->min_ttl[1]);
	SWAP(uint8_t, f->max_ttl[0], f->max_ttl[1]);
	SWAP(uint64_t, f->app_progress[0], f->app_progress[1]);
	f->app_eof = (uint8_t)(((f->app_eof & 1) << 1) | ((f->app_eof >> 1) & 1));
	f->app_trunc = (uint8_t)(((f->app_trunc & 1) << 1) | ((f->app_trunc >> 1) & 1));
	f->raw_trigger = (uint8_t)(((f->raw_trigger & 1) << 1) | ((f->raw_trigger >> 1) & 1));
	memcpy(macs, f->macs[0], sizeof(macs));
	memcpy(f->macs[0], f->macs[1], sizeof(macs));
	memcpy(f->macs[1], macs, sizeof(macs));
	SWAP(uint8_t, f->n_macs[0], f->n_macs[1]);
	f->icmp_seen = (uint8_t)(((f->icmp_seen & 1) << 1) | ((f->icmp_seen >> 1) & 1));
	SWAP(uint8_t, f->icmp_ts_type, f->icmp_tc_type);
	SWAP(uint8_t, f->icmp_ts_code, f->icmp_tc_code);
	if (p && (p->flags & (PKT_TOSERVER | PKT_TOCLIENT)))
		p->flags ^= PKT_TOSERVER | PKT_TOCLIENT;
}

static void count_new_flow(FlowTable *ft, uint8_t proto)
{
	counter_inc(ft->tc, cnt.total);
	counter_inc(ft->tc, cnt.active);
	switch (proto) {
	case IPPROTO_TCP:
		counter_inc(ft->tc, cnt.tcp);
		break;
	case IPPROTO_UDP:
		counter_inc(ft->tc, cnt.udp);
		break;
	case IPPROTO_ICMP:
		counter_inc(ft->tc, cnt.icmpv4);
		break;
	case IPPROTO_ICMPV6:
		counter_inc(ft->tc, cnt.icmpv6);
		break;
	}
}

static Flow *flow_create(FlowTable *ft, const Packet *p, uint32_t hash, uint16_t sp,
			 uint16_t dp)
{
	Flow *f = flow_alloc(ft);

	if (!f)
		f = flow_alloc_emergency(ft, &p->ts);
	if (!f) {
		counter_inc(ft->tc, cnt.memcap);
		return NULL;
	}
	memset(f, 0, sizeof(*f));
	/* A SYN/ACK seen first: its sender answered a SYN we missed, so it is
	 * the server and the flow's client is the packet's destination. */
	if (p->proto == IPPROTO_TCP &&
	    (p->tcp_flags & (TH_SYN | TH_ACK)) == (TH_SYN | TH_ACK)) {
		f->src = p->dst;
		f->dst = p->src;
		f->sp = dp;
		f->dp = sp;
	} else {
		f->src = p->src;
		f->dst = p->dst;
		f->sp = sp;
		f->dp = dp;
	}
	f->proto = p->proto;
	f->ip_version = p->ip_version;
	f->level = p->flow_level;
	f->vlan_count = p->vlan_count > 3 ? 3 : p->vlan_count;
	memcpy(f->vlan_id, p->vlan_id, sizeof(f->vlan_id));
	f->key_vlans = p->key_vlans > 3 ? 3 : p->key_vlans;
	f->hash = hash;
	f->start = p->ts;
	f->last = p->ts;
	f->flow_id = make_flow_id(f);
	f->in_iface = p->in_iface;

	f->hnext = ft->buckets[hash & ft->mask];
	ft->buckets[hash & ft->mask] = f;
	lru_append(ft, f);
	count_new_flow(ft, p->proto);
	update_gauges(ft);
	return f;
}

static inline int mac_eq(const uint8_t *a, const uint8_t *b)
{
	uint32_t a4, b4;
	uint16_t a2, b2;

	memcpy(&a4, a, 4);
	memcpy(&b4, b, 4);
	memcpy(&a2, a + 4, 2);
	memcpy(&b2, b + 4, 2);
	return a4 == b4 && a2 == b2;
}

/* A side's TTL range: its first packet sets it (the side's packet count,
 * already counted, is 1 then), later ones widen it. */
static inline void flow_ttl_update(Flow *f, int side, uint8_t ttl)
{
	uint64_t n = side ? f->pkts_toclient : f->pkts_toserver;

	if (n == 1) {
		f->min_ttl[side] = f->max_ttl[side] = ttl;
		return;
	}
	if (ttl < f->min_ttl[side])
		f->min_ttl[side] = ttl;
	if (ttl > f->max_ttl[side])
		f->max_ttl[side] = ttl;
}

/* A side's MAC set (the rare path: flow_update checks the first pair). */
static void flow_mac_add(Flow *f, int side, const uint8_t *mac)
{
	uint8_t n = f->n_macs[side];

	for (uint8_t i = 0; i < n; i++)
		if (mac_eq(f->macs[side][i], mac))
			return;
	if (n == FLOW_MACS_MAX)
		return;
	memcpy(f->macs[side][n], mac, 6);
	f->n_macs[side] = (uint8_t)(n + 1);
}

static void flow_update(FlowTable *ft, Flow *f, Packet *p, int toserver)
{
	if (toserver) {
		f->pkts_toserver++;
		f->bytes_toserver += p->caplen;
		f->tcp_flags_ts |= p->tcp_flags;
		p->flags |= PKT_TOSERVER;
	} else {
		f->pkts_toclient++;
		f->bytes_toclient += p->caplen;
		f->tcp_flags_tc |= p->tcp_flags;
		p->flags |= PKT_TOCLIENT;
	}
	if (timercmp(&p->ts, &f->last, >))
		f->last = p->ts;
	flow_ttl_update(f, toserver ? 0 : 1, p->ttl);
	if (p->flags & PKT_HAS_ETH) {
		const uint8_t *c = toserver ? p->eth_src : p->eth_dst;
		const uint8_t *s = toserver ? p->eth_dst : p->eth_src;

		/* nearly every packet carries the flow's first pair again */
		if (!f->n_macs[0] || !mac_eq(f->macs[0][0], c) || !mac_eq(f->macs[1][0], s)) {
			flow_mac_add(f, 0, c);
			flow_mac_add(f, 1, s);
		}
	}
	if ((f->proto == IPPROTO_ICMP || f->proto == IPPROTO_ICMPV6) &&
	    !(f->icmp_seen & (toserver ? 1 : 2))) {
		f->icmp_seen |= toserver ? 1 : 2;
		if (toserver) {
			f->icmp_ts_type = p->icmp_type;
			f->icmp_ts_code = p->icmp_code;
		} else {
			f->icmp_tc_type = p->icmp_type;
			f->icmp_tc_code = p->icmp_code;
		}
	}

	/* A TCP flow's state is the stream engine's (stream_handle_packet,
	 * from its session: a flow without one stays new, as in Suricata 8);
	 * any other flow is established once both sides were seen. */
	if (f->proto != IPPROTO_TCP && f->state == FLOW_STATE_NEW && f->pkts_toserver &&
	    f->pkts_toclient)
		f->state = FLOW_STATE_ESTABLISHED;

	lru_unlink(ft, f);
	lru_append(ft, f);
	p->flow = f;
	p->flags |= PKT_HAS_FLOW;
}

/* f is the flow of the packet quote q quotes, in either direction. */
static int flow_match_quote(const Flow *f, const Packet *p, const FlowIcmpQuote *q)
{
	if (f->proto != q->proto || f->ip_version != 4 || f->level != p->flow_level ||
	    !vlan_equal(f, p))
		return 0;
	return (f->sp == q->sp && f->dp == q->dp && addr_equal(&f->src, &q->src, 1) &&
		addr_equal(&f->dst, &q->dst, 1)) ||
	       (f->sp == q->dp && f->dp == q->sp && addr_equal(&f->src, &q->dst, 1) &&
		addr_equal(&f->dst, &q->src, 1));
}

/* An ICMPv4 error: the flow it quotes (an unreachable), never a new one, as
 * Suricata's FlowCreateCheck. The error's direction in that flow is its outer
 * source's side: a client's host reporting a server's answer unreachable is
 * to_server. */
static Flow *flow_handle_icmp_error(FlowTable *ft, Packet *p, uint32_t hash)
{
	FlowIcmpQuote q;
	Flow *f;

	if (!flow_icmp_quote(p, &q))
		return NULL;
	for (f = ft->buckets[hash & ft->mask]; f; f = f->hnext)
		if (f->hash == hash && flow_match_quote(f, p, &q))
			break;
	if (!f)
		return NULL;
	if (flow_is_due(f, &p->ts, flow_timeout_of(ft, f))) {
		flow_count_eviction(ft, f, EVICT_BY_WRK);
		flow_end(ft, f, FLOW_END_TIMEOUT);
		return NULL;
	}
	flow_update(ft, f, p, addr_equal(&f->src, &p->src, 1));
	return f;
}

static int is_tcp_reuse(const Flow *f, const Packet *p)
{
	return f->proto == IPPROTO_TCP && f->state == FLOW_STATE_CLOSED &&
	       (p->tcp_flags & (TH_SYN | TH_ACK | TH_RST)) == TH_SYN;
}

int flow_bypassed_packet(FlowTable *ft, Flow *f, const Packet *p)
{
	if (!f || !(f->ep_flags & FLOW_LOCAL_BYPASS))
		return 0;
	counter_inc(ft->tc, cnt.byp_pkts);
	counter_add(ft->tc, cnt.byp_bytes, p->caplen);
	return 1;
}

/* The IP protocols Suricata keeps flows for: those its decoders hand to
 * the flow engine, tunnels' outer packets included (bug-4571-*: IP-in-IP
 * and IPv6 flows). Others (IGMP, PIM, OSPF, ...) are inspected as lone
 * packets, and no flow record names them (suricata-verify bug-5162: 11
 * flows, an IGMP one not among them). */
static int flow_proto_tracked(uint8_t proto)
{
	switch (proto) {
	case IPPROTO_TCP:
	case IPPROTO_UDP:
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
	case IPPROTO_SCTP:
	case IPPROTO_ESP:
	case IPPROTO_GRE:
	case IPPROTO_IPIP:
	case IPPROTO_IPV6:
		return 1;
	default:
		return 0;
	}
}

Flow *flow_handle_packet(FlowTable *ft, Packet *p)
{
	uint16_t sp, dp;
	uint32_t hash, row_len = 0;
	Flow *f;
	int dir = 0;

	tls_ft = ft;
	if (p->ip_version != 4 && p->ip_version != 6)
		return NULL;
	if (p->flags & (PKT_INVALID | PKT_IS_FRAGMENT | PKT_NO_FLOW))
		return NULL;
	if (!flow_proto_tracked(p->proto))
		return NULL;

	/* decode_finish() already stored flow_hash_packet(p) for every packet with
	 * an IP layer (autofp dispatches on it); packets built by hand (tests)
	 * carry 0, and a true hash of 0 just costs the recomputation. */
	hash = p->flow_hash ? p->flow_hash : flow_hash_packet(p);
	if (p->proto == IPPROTO_ICMP && p->ip_version == 4 && flow_icmpv4_is_error(p->icmp_type))
		return flow_handle_icmp_error(ft, p, hash);
	packet_ports(p, &sp, &dp);
	for (f = ft->buckets[hash & ft->mask]; f; f = f->hnext) {
		row_len++;
		if (f->hash == hash && (dir = flow_match(f, p, sp, dp)) != 0)
			break;
	}

	if (f && flow_is_due(f, &p->ts, flow_timeout_of(ft, f))) {
		flow_count_eviction(ft, f, EVICT_BY_WRK);
		flow_end(ft, f, FLOW_END_TIMEOUT);
		f = NULL;
	} else if (f && is_tcp_reuse(f, p)) {
		/* A new SYN on a closed session: a new connection reusing the
		 * tuple, as Suricata's "TCP reuse". */
		counter_inc(ft->tc, cnt.tcp_reuse);
		flow_count_eviction(ft, f, EVICT_BY_WRK);
		flow_end(ft, f, FLOW_END_TIMEOUT);
		f = NULL;
	}
	if (!f) {
		f = flow_create(ft, p, hash, sp, dp);
		if (!f) {
			/* no flow under flow.memcap: the packet goes on alone */
			flow_exception(NULL, p, ft->tc, EP_FLOW_MEMCAP);
			return NULL;
		}
		dir = flow_match(f, p, sp, dp);
		/* the row walked, the new flow at its head: flow.mgr.rows_maxlen,
		 * the longest hash row (a timed-out or reused one left it) */
		if (row_len + 1 > ft->rows_maxlen) {
			ft->rows_maxlen = row_len + 1;
			counter_set(ft->tc, cnt.mgr_rows_maxlen, ft->rows_maxlen);
		}
	}
	flow_update(ft, f, p, dir > 0);
	return f;
}

/* The IPS drop reason of a drop by t's policy, as Suricata names it. */
static enum pkt_drop_reason ep_drop_reason(enum ep_target t)
{
	switch (t) {
	case EP_FLOW_MEMCAP:
		return PKT_DROP_FLOW_MEMCAP;
	case EP_DEFRAG_MEMCAP:
		return PKT_DROP_DEFRAG_MEMCAP;
	case EP_STREAM_MEMCAP:
		return PKT_DROP_STREAM_MEMCAP;
	case EP_STREAM_REASSEMBLY_MEMCAP:
		return PKT_DROP_STREAM_REASSEMBLY;
	case EP_STREAM_MIDSTREAM:
		return PKT_DROP_STREAM_MIDSTREAM;
	case EP_APP_LAYER_ERROR:
		return PKT_DROP_APPLAYER_ERROR;
	default:
		return PKT_DROP_NONE;
	}
}

void flow_exception(Flow *f, Packet *p, ThreadCounters *tc, enum ep_target t)
{
	unsigned eff = ep_apply(tc, t);
	enum ep_policy pol = ep_policy_of(t);

	/* the flow record names the target even under ignore, as Suricata's */
	if (f)
		f->ep_applied[t] = (uint8_t)(1 + pol);
	if (pol == EP_IGNORE)
		return;
	if (p && (eff & EP_EFF_PKT_NO_DETECT))
		p->flags |= PKT_EP_NO_DETECT;
	if (p && (eff & EP_EFF_PKT_DROP)) {
		p->flags |= PKT_EP_DROP;
		if (!p->drop_reason)
			p->drop_reason = ep_drop_reason(t);
	}
	if (!f)
		return;
	if (eff & EP_EFF_FLOW_PASS)
		f->ep_flags |= FLOW_EP_PASS;
	if (eff & EP_EFF_FLOW_BYPASS)
		f->ep_flags |= FLOW_EP_BYPASS;
	if (eff & EP_EFF_FLOW_DROP)
		f->ep_flags |= FLOW_EP_DROP;
}

const char *flow_ep_action(const Flow *f)
{
	if (f->ep_flags & FLOW_EP_DROP)
		return "drop";
	if (f->rule_pass == FLOW_FW_ACCEPT && !(f->ep_flags & (FLOW_EP_PASS | FLOW_EP_BYPASS)))
		return "accept";
	if ((f->ep_flags & (FLOW_EP_PASS | FLOW_EP_BYPASS)) || f->rule_pass)
		return "pass";
	return NULL;
}

const char *flow_state_name(enum flow_state s)
{
	switch (s) {
	case FLOW_STATE_ESTABLISHED:
		return "established";
	case FLOW_STATE_CLOSED:
		return "closed";
	default:
		return "new";
	}
}

const char *flow_end_reason_name(enum flow_end_reason r)
{
	switch (r) {
	case FLOW_END_FORCED:
		return "forced";
	case FLOW_END_SHUTDOWN:
		return "shutdown";
	default:
		return "timeout";
	}
}
