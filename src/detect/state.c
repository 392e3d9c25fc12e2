/* Detect state outside the immutable engine: per-flow flowbits / flowint /
 * ip-only marks (f->detect, one allocation per flow, on the flow's worker so
 * no lock), and the threshold table shared by all workers.
 *
 * Thresholds are tracked by_src / by_dst / by_rule / by_both across flows, so
 * autofp workers must share them to count like single does: one table behind
 * one mutex, taken only when a rule that has a threshold, detection_filter or
 * threshold.config entry matched (rare next to packet inspection).
 * The threshold and hostbit tables are keyed by addresses the traffic
 * picks: state-hash.h is how an attacker is kept from aiming at one chain
 * (keyed hash, growth, memcap); expiry is here, where what makes an entry
 * dead is known. */
#include "detect/engine-int.h"
#include "detect/detect-int.h"
#include "detect/stream-cov.h"
#include "detect/state-hash.h"
#include "output/alert.h"
#include "util/mem-peak.h"
#include "util/log.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

/* ---- per flow ---- */

static size_t state_bytes(uint16_t nfb, uint16_t nfi)
{
	return sizeof(DetectFlowState) + (nfb + 7u) / 8 + nfi * (sizeof(uint32_t) + 1) + 8;
}

/* The flow's state was made by an engine that a rule reload replaced (its
 * generation differs). Flowbit, flowint and hostbit ids are stable across
 * reloads (the new engine starts from the old one's names, build-order.c), so
 * the variables keep their meaning; a new engine that knows more names
 * needs a bigger block. What names the old engine's internals goes, as
 * Suricata resets a flow's detection state on reload: the GPU's stream
 * coverage holds ids of the old automata. Stream inspection positions,
 * ip-only marks, a flow pass and the session tags (by gid/sid) stay.
 * Transactions reset their own state (tx-inspect.c, by generation too). */
static DetectFlowState *flow_state_rebase(const DetectEngine *de, Flow *f, DetectFlowState *st)
{
	scov_free(st->scov[0]);
	scov_free(st->scov[1]);
	st->scov[0] = st->scov[1] = NULL;
	if (de->nfb > st->nfb || de->nfi > st->nfi) {
		uint16_t nfb = de->nfb > st->nfb ? de->nfb : st->nfb;
		uint16_t nfi = de->nfi > st->nfi ? de->nfi : st->nfi;
		size_t bytes = state_bytes(nfb, nfi);
		DetectFlowState *n = calloc(1, bytes);

		if (!n) {
			/* keep the old block: ids beyond it read as unset, and
			 * setting them is refused by the bounds checks below */
			st->gen = de->gen;
			return st;
		}
		*n = *st;
		n->nfb = nfb;
		n->nfi = nfi;
		n->ints = (uint32_t *)(n + 1);
		n->ints_set = (uint8_t *)(n->ints + nfi);
		n->bits = n->ints_set + nfi;
		memcpy(n->ints, st->ints, st->nfi * sizeof(uint32_t));
		memcpy(n->ints_set, st->ints_set, st->nfi);
		memcpy(n->bits, st->bits, (st->nfb + 7u) / 8);
		flow_mem_add(bytes);
		flow_mem_sub(state_bytes(st->nfb, st->nfi));
		free(st);
		st = n;
		f->detect = st;
	}
	st->gen = de->gen;
	return st;
}

DetectFlowState *detect_flow_state(const DetectEngine *de, Flow *f, int create)
{
	DetectFlowState *st = f->detect;
	size_t bytes;

	if (st && st->gen != de->gen)
		return flow_state_rebase(de, f, st);
	if (st || !create)
		return st;
	bytes = state_bytes(de->nfb, de->nfi);
	/* per flow, not per packet: the flow's first need pays for it */
	st = calloc(1, bytes);
	if (!st)
		return NULL;
	flow_mem_add(bytes);
	st->gen = de->gen;
	st->nfb = de->nfb;
	st->nfi = de->nfi;
	st->ints = (uint32_t *)(st + 1);
	st->ints_set = (uint8_t *)(st->ints + de->nfi);
	st->bits = st->ints_set + de->nfi;
	f->detect = st;
	return st;
}

void detect_flow_free(Flow *f)
{
	DetectFlowState *st = f->detect;

	if (st) {
		scov_free(st->scov[0]);
		scov_free(st->scov[1]);
		/* counted in flow.memuse while the flow lived */
		flow_mem_sub(state_bytes(st->nfb, st->nfi));
	}
	tag_flow_free(f->detect);
	if (st)
		detect_flowvars_free(st->vars);
	free(f->detect);
	f->detect = NULL;
}

void detect_flow_swap(Flow *f)
{
	DetectFlowState *st = f->detect;
	uint64_t t;

	if (!st)
		return;
	t = st->raw_off[0];
	st->raw_off[0] = st->raw_off[1];
	st->raw_off[1] = t;
	t = st->raw_rel[0];
	st->raw_rel[0] = st->raw_rel[1];
	st->raw_rel[1] = t;
	t = st->raw_tx[0];
	st->raw_tx[0] = st->raw_tx[1];
	st->raw_tx[1] = t;
	st->iponly_done = (uint8_t)(((st->iponly_done & 1) << 1) | ((st->iponly_done >> 1) & 1));
	/* ac-cuda's stream coverage cannot follow the reversal: an entry kept
	 * only the ids of the direction it was recorded in (stream_id_cb), so
	 * in the other direction's slot it would claim its ends covered while
	 * holding none of that direction's ids, and the window would lose its
	 * matches. Dropped, those ends are scanned on the CPU; the packets
	 * after the reversal record entries of their own. */
	scov_free(st->scov[0]);
	scov_free(st->scov[1]);
	st->scov[0] = st->scov[1] = NULL;
}

static int bit_get(const DetectFlowState *st, int id)
{
	return st && id >= 0 && id < st->nfb && (st->bits[id >> 3] >> (id & 7) & 1);
}

unsigned flowbits_set_names(const DetectEngine *de, const Flow *f, const char **out,
			    unsigned max)
{
	const DetectFlowState *st = f ? f->detect : NULL;
	unsigned n = 0;

	if (!st || !st->bits)
		return 0;
	for (int id = 0; id < st->nfb && id < de->nfb && n < max; id++) {
		/* most bytes are 0: skipped whole */
		if (!(id & 7) && !st->bits[id >> 3]) {
			id += 7;
			continue;
		}
		if (bit_get(st, id) && de->fb_names[id])
			out[n++] = de->fb_names[id];
	}
	return n;
}

unsigned detect_flowbits_get(const DetectThread *dt, const Flow *f, const char **out,
			     unsigned max)
{
	const DetectEngine *de = dt ? detect_thread_engine(dt) : NULL;

	return de ? flowbits_set_names(de, f, out, max) : 0;
}

int flowbits_match(const DetectEngine *de, const DetectFlowbits *fb, Flow *f)
{
	const DetectFlowState *st = detect_flow_state(de, f, 0);
	int want = fb->cmd == FB_ISSET;

	if (fb->or_group) {
		for (int i = 0; i < fb->n; i++)
			if (bit_get(st, fb->ids[i]) == want)
				return 1;
		return 0;
	}
	for (int i = 0; i < fb->n; i++)
		if (bit_get(st, fb->ids[i]) != want)
			return 0;
	return 1;
}

void flowbits_apply(const DetectEngine *de, const DetectFlowbits *fb, Flow *f)
{
	DetectFlowState *st = detect_flow_state(de, f, 1);

	if (!st)
		return;
	for (int i = 0; i < fb->n; i++) {
		int id = fb->ids[i];
		uint8_t bit = (uint8_t)(1u << (id & 7));

		if (id < 0 || id >= st->nfb)
			continue;   /* a block that could not grow on a reload */

		switch (fb->cmd) {
		case FB_SET: st->bits[id >> 3] |= bit; break;
		case FB_UNSET: st->bits[id >> 3] &= ~bit; break;
		case FB_TOGGLE: st->bits[id >> 3] ^= bit; break;
		default: break;
		}
	}
}

int flowint_match(const DetectEngine *de, const DetectFlowint *fi, Flow *f)
{
	const DetectFlowState *st = detect_flow_state(de, f, 0);
	int set;

	if (st && (fi->id >= st->nfi || fi->var_id >= st->nfi))
		st = NULL;
	set = st && st->ints_set[fi->id];
	uint32_t v, t;

	if (fi->op == FI_ISSET)
		return set;
	if (fi->op == FI_NOTSET)
		return !set;
	if (!set)
		return 0;
	v = st->ints[fi->id];
	if (fi->value_var) {
		if (!st->ints_set[fi->var_id])
			return 0;
		t = st->ints[fi->var_id];
	} else {
		t = fi->value;
	}
	switch (fi->op) {
	case FI_EQ: return v == t;
	case FI_NE: return v != t;
	case FI_LT: return v < t;
	case FI_LE: return v <= t;
	case FI_GT: return v > t;
	case FI_GE: return v >= t;
	default: return 0;
	}
}

void flowint_apply(const DetectEngine *de, const DetectFlowint *fi, Flow *f)
{
	DetectFlowState *st = detect_flow_state(de, f, 1);
	uint32_t t;

	if (!st || fi->id >= st->nfi || fi->var_id >= st->nfi)
		return;
	if (fi->value_var) {
		if (!st->ints_set[fi->var_id])
			return;
		t = st->ints[fi->var_id];
	} else {
		t = fi->value;
	}
	switch (fi->op) {
	case FI_SET:
		st->ints[fi->id] = t;
		break;
	case FI_ADD:
		/* Suricata: + on an unset var sets it */
		st->ints[fi->id] = st->ints_set[fi->id] ? st->ints[fi->id] + t : t;
		break;
	case FI_SUB:
		st->ints[fi->id] = st->ints_set[fi->id] ? st->ints[fi->id] - t : t;
		break;
	default:
		return;
	}
	st->ints_set[fi->id] = 1;
}

/* ---- hostbits: per IP address, shared by all workers ----
 * Like thresholds, they cross flows and so workers: one locked table, and
 * in autofp the capture-order wait before each access. An entry lives while
 * one of its bits is set: the unset or toggle that clears its last bit frees
 * it, as a host without bits reads exactly as one never seen.
 * A bit lasts its rule's expire (Suricata 8: 30 s unless told) from the
 * packet that set it, on packet time (pcap time when reading files): as
 * Suricata, a bit whose expiry is before the packet's time reads as unset
 * and is cleared there. Hosts whose bits all expired go when a set's sweep
 * or a lookup finds them; host.memcap bounds how many hosts are kept
 * meanwhile (a host refused is counted in host.memcap, its bit not set). */
#define HOST_HASH_SIZE_DEFAULT 4096
#define HOST_MEMCAP_DEFAULT (32ull << 20)

typedef struct HostEntry {
	StateNode node;           /* first: the table links entries by it */
	Address addr;
	int nhb;                  /* hostbit ids the entry has room for */
	/* by hostbit id: the packet time (us) the bit is set until, inclusive;
	 * 0: unset */
	uint64_t until[];
} HostEntry;

struct HostTable {
	pthread_mutex_t lock;
	StateHash sh;
	uint64_t last_us;         /* the latest packet time seen: the socket's now */
};

static counter_id c_thr_memuse, c_thr_memcap, c_host_memuse, c_host_memcap;
/* xbits track ip_pair: entries of the host table (pair_key), counted as
 * Suricata 8 counts its ippair table */
static counter_id c_ippair_memuse, c_ippair_memcap;
static unsigned state_counters_done;  /* generation, as engine.c's */

/* Suricata 8's eve stats have host.memuse and host.memcap (entries refused
 * at the cap) and nothing for its threshold table: an eve record with a
 * detect.thresholds object fails its schema. The threshold table reports
 * into the host counters, where Suricata 7 counted by_src/by_dst
 * thresholds (they lived in its host table); its own cap stays
 * detect.thresholds.memcap. The ids are kept apart so that a schema with
 * threshold counters needs only other names here. */
void detect_state_register_counters(void)
{
	if (state_counters_done == counters_generation())
		return;
	c_host_memuse = counter_register("host.memuse");
	c_host_memcap = counter_register("host.memcap");
	c_ippair_memuse = counter_register("ippair.memuse");
	c_ippair_memcap = counter_register("ippair.memcap");
	c_thr_memuse = c_host_memuse;
	c_thr_memcap = c_host_memcap;
	state_counters_done = counters_generation();
}

/* The table's memuse moved by what this thread did under its lock: the
 * thread's counter takes the difference, so the threads' sum is the table's
 * memuse whichever thread made or freed an entry. */
static void memuse_report(StateHash *sh, ThreadCounters *tc, counter_id id)
{
	int64_t d = state_hash_report(sh);

	if (!tc || state_counters_done != counters_generation())
		return;
	if (d > 0)
		counter_add(tc, id, (uint64_t)d);
	else if (d < 0)
		counter_sub(tc, id, (uint64_t)-d);
}

static void memcap_count(ThreadCounters *tc, counter_id id)
{
	if (tc && state_counters_done == counters_generation())
		counter_inc(tc, id);
}

/* memcap-set host (the unix socket): the table's cap from its next new
 * entry on; 0: none set, the configuration's holds. Read under the table's
 * lock, where an entry is made. */
static uint64_t g_host_memcap_live, g_host_memcap_conf;

void host_memcap_set(uint64_t cap)
{
	__atomic_store_n(&g_host_memcap_live, cap, __ATOMIC_RELAXED);
}

uint64_t host_memcap_get(void)
{
	uint64_t live = __atomic_load_n(&g_host_memcap_live, __ATOMIC_RELAXED);

	return live ? live : __atomic_load_n(&g_host_memcap_conf, __ATOMIC_RELAXED);
}

static void host_memcap_refresh(struct HostTable *ht)
{
	uint64_t live = __atomic_load_n(&g_host_memcap_live, __ATOMIC_RELAXED);

	if (live)
		ht->sh.memcap = live;
}

static size_t host_entry_size(int nhb)
{
	return sizeof(HostEntry) + (size_t)(nhb > 0 ? nhb : 1) * sizeof(uint64_t);
}

static void host_entry_free(StateNode *n)
{
	free(n);
}

struct HostTable *host_table_new(const DetectConfig *cfg)
{
	struct HostTable *ht = calloc(1, sizeof(*ht));
	uint32_t size = cfg && cfg->host_hash_size ? cfg->host_hash_size : HOST_HASH_SIZE_DEFAULT;
	uint64_t memcap = cfg && cfg->host_memcap ? cfg->host_memcap : HOST_MEMCAP_DEFAULT;

	if (!ht)
		return NULL;
	if (state_hash_init(&ht->sh, size, memcap) != 0) {
		free(ht);
		return NULL;
	}
	pthread_mutex_init(&ht->lock, NULL);
	__atomic_store_n(&g_host_memcap_conf, memcap, __ATOMIC_RELAXED);
	return ht;
}

/* The entries go; their memory was reported by the threads that made them
 * and the counters were zeroed with this (detect_engine_reset_state): the
 * next thread reports the table from 0. */
void host_table_clear(struct HostTable *ht)
{
	if (!ht)
		return;
	pthread_mutex_lock(&ht->lock);
	for (uint32_t i = 0; i <= ht->sh.mask; i++)
		for (StateNode *e = ht->sh.b[i]; e; e = e->next)
			state_hash_uncharge(&ht->sh, mem_block_size(
				host_entry_size(((HostEntry *)e)->nhb)));
	state_hash_clear(&ht->sh, host_entry_free);
	ht->sh.reported = 0;
	pthread_mutex_unlock(&ht->lock);
}

void host_table_free(struct HostTable *ht)
{
	if (!ht)
		return;
	host_table_clear(ht);
	state_hash_destroy(&ht->sh, host_entry_free);
	pthread_mutex_destroy(&ht->lock);
	free(ht);
}

uint32_t host_table_count(const DetectEngine *de)
{
	uint32_t n;

	if (!de->hosts)
		return 0;
	pthread_mutex_lock(&de->hosts->lock);
	n = de->hosts->sh.n;
	pthread_mutex_unlock(&de->hosts->lock);
	return n;
}

uint32_t host_key_hash(const Address *a)
{
	struct {
		uint32_t family;
		uint8_t a[16];
	} k;

	k.family = a->family;
	memcpy(k.a, a->a.u8, 16);
	return state_hash_bytes(&k, sizeof(k));
}

static int addr_eq(const Address *a, const Address *b);

/* Room for the engine's hostbits in an entry made by an older engine (a
 * reload that knows more names); on failure the entry stays as it was. */
static HostEntry *host_grow(struct HostTable *ht, HostEntry *e, StateNode **pe, int nhb)
{
	uint64_t was = mem_block_size(host_entry_size(e->nhb));
	uint64_t now = mem_block_size(host_entry_size(nhb));
	HostEntry *g;

	if (state_hash_charge(&ht->sh, now) != 0)
		return e;
	g = realloc(e, host_entry_size(nhb));
	if (!g) {
		state_hash_uncharge(&ht->sh, now);
		return e;
	}
	state_hash_uncharge(&ht->sh, was);
	memset(g->until + g->nhb, 0, (size_t)(nhb - g->nhb) * sizeof(uint64_t));
	g->nhb = nhb;
	*pe = &g->node;
	return g;
}

/* Caller holds the lock. NULL when absent and !create, or when a new entry
 * is refused (*refused set: host.memcap) or there is no memory. *slot: the
 * chain link that points at the entry, for host_drop.
 * The table outlives rule reloads (engine.c hands it to the new engine),
 * whose engine may know more hostbit names than an entry has room for:
 * with create, such an entry grows; without, the bits beyond it read as
 * unset (host_bit). */
static HostEntry *host_get(const DetectEngine *de, const Address *a, int create,
			   StateNode ***slot, int *refused)
{
	struct HostTable *ht = de->hosts;
	uint32_t h = host_key_hash(a);
	StateNode **pe, *n;
	HostEntry *e = NULL;
	uint64_t cost;

	for (pe = state_hash_bucket(&ht->sh, h); (n = *pe); pe = &n->next) {
		if (n->hash == h && addr_eq(&((HostEntry *)n)->addr, a)) {
			e = (HostEntry *)n;
			break;
		}
	}
	*slot = pe;
	if (e && create && e->nhb < de->nhb)
		e = host_grow(ht, e, pe, de->nhb);
	if (e || !create)
		return e;
	cost = mem_block_size(host_entry_size(de->nhb));
	if (state_hash_charge(&ht->sh, cost) != 0) {
		*refused = 1;
		return NULL;
	}
	e = calloc(1, host_entry_size(de->nhb));
	if (!e) {
		state_hash_uncharge(&ht->sh, cost);
		return NULL;
	}
	e->addr = *a;
	e->nhb = de->nhb;
	state_hash_link(&ht->sh, &e->node, h);
	/* linking may have grown the table: the entry heads its chain */
	*slot = state_hash_bucket(&ht->sh, h);
	return e;
}

/* An entry whose bits are all clear (or expired at now) reads as no
 * entry: it goes. 1 when it went. */
static int host_drop_if_empty(struct HostTable *ht, HostEntry *e, StateNode **slot, uint64_t now)
{
	for (int i = 0; i < e->nhb; i++)
		if (e->until[i] && e->until[i] >= now)
			return 0;
	state_hash_unlink(&ht->sh, slot);
	state_hash_uncharge(&ht->sh, mem_block_size(host_entry_size(e->nhb)));
	free(e);
	return 1;
}

/* Set at now: the expiry not passed. An expired bit is cleared, as
 * Suricata's check clears it. */
static int host_bit(HostEntry *e, int id, uint64_t now)
{
	if (!e || id < 0 || id >= e->nhb || !e->until[id])
		return 0;
	if (e->until[id] >= now)
		return 1;
	e->until[id] = 0;
	return 0;
}

static uint64_t ts_us(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000u + (uint64_t)tv->tv_usec;
}

/* One bucket more per set: its hosts whose bits all expired go, so that
 * hosts never seen again leave within (buckets) sets. */
static void host_sweep(struct HostTable *ht, uint64_t now)
{
	StateNode **pe = state_hash_sweep(&ht->sh);

	while (pe && *pe)
		if (!host_drop_if_empty(ht, (HostEntry *)*pe, pe, now))
			pe = &(*pe)->next;
}

/* FNV-1a over n bytes from seed */
static uint64_t fnv64(uint64_t h, const uint8_t *d, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h ^= d[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* xbits track ip_pair: the pair's key in the host table, a pseudo address
 * of its own family (never equal to a host's). Suricata's ip pair is the
 * same whichever way a packet goes: the lower address comes first. IPv4
 * pairs fit as they are; an IPv6 pair is folded to 128 bits by two
 * differently seeded hashes. */
#define ADDR_FAMILY_PAIR 0xfe
static void pair_key(const Packet *p, Address *k)
{
	const Address *lo = &p->src, *hi = &p->dst;

	if (memcmp(&lo->a, &hi->a, sizeof(lo->a)) > 0) {
		lo = &p->dst;
		hi = &p->src;
	}
	memset(k, 0, sizeof(*k));
	k->family = ADDR_FAMILY_PAIR;
	if (p->src.family == AF_INET) {
		k->a.u32[0] = lo->a.u32[0];
		k->a.u32[1] = hi->a.u32[0];
	} else {
		uint8_t both[32];
		uint64_t h1, h2;

		memcpy(both, lo->a.u8, 16);
		memcpy(both + 16, hi->a.u8, 16);
		h1 = fnv64(0xcbf29ce484222325ull, both, sizeof(both));
		h2 = fnv64(0x84222325cbf29ce4ull, both, sizeof(both));
		memcpy(k->a.u8, &h1, 8);
		memcpy(k->a.u8 + 8, &h2, 8);
		k->a.u8[15] ^= 6;   /* apart from an IPv4 pair's layout */
	}
}

static void host_addrs(const DetectFlowbits *fb, const Packet *p, const Address **a, int *n,
		       Address *pair)
{
	*n = 0;
	if (fb->host_dir & HOSTBITS_PAIR) {
		pair_key(p, pair);
		a[(*n)++] = pair;
		return;
	}
	if (fb->host_dir & HOSTBITS_SRC)
		a[(*n)++] = &p->src;
	if (fb->host_dir & HOSTBITS_DST)
		a[(*n)++] = &p->dst;
}

int hostbits_match(DetectThread *dt, const DetectFlowbits *fb, const Packet *p)
{
	const DetectEngine *de = dt->de;
	const Address *a[2];
	Address pair;
	int n, want = fb->cmd == FB_ISSET, ok = 1;
	uint64_t now = ts_us(&p->ts);

	if (!de->hosts)
		return 0;
	if (dt->order_fn)
		dt->order_fn(dt->order_arg, p);
	host_addrs(fb, p, a, &n, &pair);
	pthread_mutex_lock(&de->hosts->lock);
	if (now > de->hosts->last_us)
		de->hosts->last_us = now;
	for (int i = 0; i < n && ok; i++) {
		StateNode **slot;
		int refused = 0;
		HostEntry *e = host_get(de, a[i], 0, &slot, &refused);
		int set = host_bit(e, fb->ids[0], now);

		ok = set == want;
	}
	pthread_mutex_unlock(&de->hosts->lock);
	return ok;
}

static void hostbits_apply(DetectThread *dt, const DetectFlowbits *fb, const Packet *p)
{
	const DetectEngine *de = dt->de;
	const Address *a[2];
	Address pair;
	int n, id = fb->ids[0];
	int is_pair = !!(fb->host_dir & HOSTBITS_PAIR);
	uint64_t now = ts_us(&p->ts);
	uint64_t until = now + (uint64_t)fb->expire * 1000000u;

	if (!de->hosts)
		return;
	if (dt->order_fn)
		dt->order_fn(dt->order_arg, p);
	host_addrs(fb, p, a, &n, &pair);
	pthread_mutex_lock(&de->hosts->lock);
	host_memcap_refresh(de->hosts);
	if (now > de->hosts->last_us)
		de->hosts->last_us = now;
	for (int i = 0; i < n; i++) {
		StateNode **slot;
		int refused = 0;
		HostEntry *e = host_get(de, a[i], fb->cmd != FB_UNSET, &slot, &refused);

		if (refused)
			memcap_count(dt->tc, is_pair ? c_ippair_memcap : c_host_memcap);
		if (!e)
			continue;
		if (id < e->nhb) {
			switch (fb->cmd) {
			/* a set of a set bit moves its expiry, as Suricata's */
			case FB_SET: e->until[id] = until; break;
			case FB_UNSET: e->until[id] = 0; break;
			case FB_TOGGLE: e->until[id] = host_bit(e, id, now) ? 0 : until; break;
			default: break;
			}
		}
		host_drop_if_empty(de->hosts, e, slot, now);
	}
	if (fb->cmd != FB_UNSET)
		host_sweep(de->hosts, now);
	/* what changed under the lock is this operation's: a pair's entry */
	memuse_report(&de->hosts->sh, dt->tc, is_pair ? c_ippair_memuse : c_host_memuse);
	pthread_mutex_unlock(&de->hosts->lock);
}

/* ---- the unix socket's add-hostbit, remove-hostbit, list-hostbit ----
 * As Suricata 8's, they name a hostbit the rules use (another name: -1,
 * "hostbit not found") and an address; the bits are the ones the rules
 * test. They run on the socket's thread, under the table's lock as the
 * workers' accesses. Their now is the traffic's: the latest packet time
 * the table saw (pcap time when reading files), the wall clock before any
 * packet; add-hostbit's expire counts from it, and list-hostbit says the
 * seconds each bit has left. */
static int hostbit_id(const DetectEngine *de, const char *name)
{
	for (int i = 0; i < de->nhb; i++)
		if (de->hb_names[i] && !strcmp(de->hb_names[i], name))
			return i;
	return -1;
}

static uint64_t host_now(const struct HostTable *ht)
{
	struct timeval tv;

	if (ht->last_us)
		return ht->last_us;
	gettimeofday(&tv, NULL);
	return ts_us(&tv);
}

int detect_hostbit_set(DetectEngine *de, const Address *a, const char *name, int set,
		       uint32_t expire)
{
	int id = hostbit_id(de, name), refused = 0;
	StateNode **slot;
	HostEntry *e;
	uint64_t now;

	if (id < 0 || !de->hosts)
		return -1;
	pthread_mutex_lock(&de->hosts->lock);
	host_memcap_refresh(de->hosts);
	now = host_now(de->hosts);
	e = host_get(de, a, set, &slot, &refused);
	if (e && id < e->nhb) {
		e->until[id] = set ? now + (uint64_t)expire * 1000000u : 0;
		host_drop_if_empty(de->hosts, e, slot, now);
	}
	pthread_mutex_unlock(&de->hosts->lock);
	return e ? 0 : -2;
}

int detect_hostbit_list(DetectEngine *de, const Address *a,
			void (*fn)(void *arg, const char *name, uint32_t left), void *arg)
{
	int refused = 0;
	StateNode **slot;
	HostEntry *e;
	uint64_t now;

	if (!de->hosts)
		return -2;
	pthread_mutex_lock(&de->hosts->lock);
	now = host_now(de->hosts);
	e = host_get(de, a, 0, &slot, &refused);
	for (int i = 0; e && i < e->nhb && i < de->nhb; i++)
		if (host_bit(e, i, now))
			fn(arg, de->hb_names[i], (uint32_t)((e->until[i] - now) / 1000000u));
	pthread_mutex_unlock(&de->hosts->lock);
	return e ? 0 : -2;
}

void postmatch_apply(DetectThread *dt, const Signature *s, Packet *p)
{
	const DetectEngine *de = dt->de;
	const SigMatchList *ml = &s->lists[SM_LIST_POSTMATCH];

	for (int i = 0; i < ml->n; i++) {
		if (ml->m[i].kw == KW_HOSTBITS)
			hostbits_apply(dt, ml->m[i].ctx, p);
		else if (!p->flow)
			continue;
		else if (ml->m[i].kw == KW_FLOWBITS)
			flowbits_apply(de, ml->m[i].ctx, p->flow);
		else if (ml->m[i].kw == KW_FLOWINT)
			flowint_apply(de, ml->m[i].ctx, p->flow);
		else if (ml->m[i].kw == KW_FILESTORE)
			filestore_apply(dt, ml->m[i].ctx, p);
		else if (ml->m[i].kw == KW_TLS_STORE)
			tls_store_apply(p);
		else if (ml->m[i].kw == KW_BYPASS)
			p->flow->ep_flags |= FLOW_LOCAL_BYPASS;
		else if (ml->m[i].kw == KW_CONFIG && dt->cur_has_tx) {
			/* logging disable, type tx: as if its record were written */
			void *tx = app_layer_tx_get(p->flow, dt->cur_tx);

			if (tx)
				app_layer_tx_set_flags(p->flow, tx, APP_TX_LOGGED);
		}
	}
}

/* ---- thresholds ---- */

#define THR_HASH_SIZE_DEFAULT 16384       /* Suricata 8's detect.thresholds.hash-size */
#define THR_MEMCAP_DEFAULT (16ull << 20)  /* ... and detect.thresholds.memcap */
/* Buckets checked for expired entries per lookup: every entry is seen once
 * per (rows / 2) thresholded matches, and the table doubles at two entries
 * a row, so each new entry pays for about one entry checked. */
#define THR_SWEEP_PER_CALL 2
/* ... and before an entry is refused for the memcap: a burst of new
 * sources after a quiet spell finds the dead entries gone, still bounded. */
#define THR_SWEEP_AT_MEMCAP 64
/* Backoff counts with no time window, so its entry never dies by itself
 * and removing one makes the rule's next match alert as a first one. It is
 * kept while it keeps matching and dropped after an hour without a match:
 * an idle time, like a flow timeout but long, because every removal changes
 * a verdict; within the hour the memcap bounds how many are kept. */
#define THR_BACKOFF_IDLE_S 3600

typedef struct ThrEntry {
	StateNode node;           /* first: the table links entries by it */
	uint32_t gid, sid;
	uint32_t rev;             /* as Suricata's key: a reload that changed the rule starts anew */
	int track;
	Address addr, addr2;
	struct timeval tv1;
	uint32_t count;
	uint32_t seconds;         /* the window of the rule that counts in it */
	int backoff;              /* no window: idle expiry instead */
	int64_t last_s;           /* packet time of the last match (backoff) */
	uint64_t next_at;         /* backoff: the count that alerts next */
	uint32_t timeout;         /* rate_filter: how long new_action holds ... */
	int64_t rate_since;       /* ... from this packet time; 0: not in force */
} ThrEntry;

#define THR_ENTRY_COST mem_block_size(sizeof(ThrEntry))

typedef struct Suppress {
	uint32_t gid, sid;        /* sid 0: all of gid */
	int track;                /* -1: always; TRACK_SRC / TRACK_DST / TRACK_EITHER with set */
	AddrSet set;
} Suppress;

/* suppress ... track by_either: the source or the destination is in the set */
#define TRACK_EITHER (-2)

/* rate_filter new_action sdrop and log: accepted, the rule keeps its action */
#define THR_ACTION_KEEP 0xffu

typedef struct ThrOverride {
	uint32_t gid, sid;        /* sid 0: every rule of gid */
	DetectThreshold td;
	int is_event_filter;
} ThrOverride;

/* The counting state, by gid/sid/rev and tracked address: it does not name
 * an engine's internals, so a rule reload hands it on to the new engine
 * (threshold_table_share), as Suricata 7+ keeps its thresholds in one
 * table across reloads (its key has the rev: a changed rule counts anew);
 * while both engines run, both count in it under its lock. */
typedef struct ThrStore {
	pthread_mutex_t lock;
	StateHash sh;
	int refs;                 /* engines using it; changed under reload_lock */
} ThrStore;

static pthread_mutex_t reload_lock = PTHREAD_MUTEX_INITIALIZER;

struct ThresholdTable {
	ThrStore *st;
	Suppress *sup; int nsup;  /* threshold.config: the engine's own */
	ThrOverride *ov; int nov;
};

static void thr_entry_free(StateNode *n)
{
	free(n);
}

ThresholdTable *threshold_table_new(const DetectConfig *cfg)
{
	ThresholdTable *tt = calloc(1, sizeof(*tt));
	uint32_t size = cfg && cfg->thr_hash_size ? cfg->thr_hash_size : THR_HASH_SIZE_DEFAULT;
	uint64_t memcap = cfg && cfg->thr_memcap ? cfg->thr_memcap : THR_MEMCAP_DEFAULT;

	if (!tt)
		return NULL;
	tt->st = calloc(1, sizeof(*tt->st));
	if (!tt->st || state_hash_init(&tt->st->sh, size, memcap) != 0) {
		free(tt->st);
		free(tt);
		return NULL;
	}
	pthread_mutex_init(&tt->st->lock, NULL);
	tt->st->refs = 1;
	return tt;
}

static void thr_store_put(ThrStore *st)
{
	int last;

	pthread_mutex_lock(&reload_lock);
	last = --st->refs == 0;
	pthread_mutex_unlock(&reload_lock);
	if (!last)
		return;
	state_hash_destroy(&st->sh, thr_entry_free);
	pthread_mutex_destroy(&st->lock);
	free(st);
}

void threshold_table_share(ThresholdTable *tt, ThresholdTable *from)
{
	if (!tt || !from || tt->st == from->st)
		return;
	pthread_mutex_lock(&reload_lock);
	from->st->refs++;
	pthread_mutex_unlock(&reload_lock);
	thr_store_put(tt->st);
	tt->st = from->st;
}

/* As host_table_clear: the counters were zeroed with this. */
void threshold_table_clear(ThresholdTable *tt)
{
	StateHash *sh;

	if (!tt)
		return;
	sh = &tt->st->sh;
	pthread_mutex_lock(&tt->st->lock);
	state_hash_uncharge(sh, (uint64_t)sh->n * THR_ENTRY_COST);
	state_hash_clear(sh, thr_entry_free);
	sh->reported = 0;
	pthread_mutex_unlock(&tt->st->lock);
}

void threshold_table_free(ThresholdTable *tt)
{
	if (!tt)
		return;
	thr_store_put(tt->st);
	for (int i = 0; i < tt->nsup; i++)
		addrset_free(&tt->sup[i].set);
	free(tt->sup);
	free(tt->ov);
	free(tt);
}

static int addr_eq(const Address *a, const Address *b)
{
	return a->family == b->family && memcmp(&a->a, &b->a, sizeof(a->a)) == 0;
}

static int64_t tv_diff_s(const struct timeval *a, const struct timeval *b)
{
	return (int64_t)a->tv_sec - (int64_t)b->tv_sec;
}

/* Whether e can only read as a fresh entry from now on: every windowed
 * type restarts (tv1 = now, count = 1, the first-match verdict) once its
 * window has passed, exactly as a new entry starts, so removing it changes
 * no verdict. Suricata 8 expires its threshold entries by the window too. */
static int thr_expired(const ThrEntry *e, int64_t now)
{
	if (e->backoff)
		return now - e->last_s >= THR_BACKOFF_IDLE_S;
	/* a rate_filter's new action, once in force, holds for its timeout;
	 * after both, its next match starts anew as a fresh entry would */
	if (e->rate_since && now - e->rate_since < (int64_t)e->timeout)
		return 0;
	return now - (int64_t)e->tv1.tv_sec >= (int64_t)e->seconds;
}

static void thr_remove(StateHash *sh, StateNode **pe)
{
	StateNode *n = *pe;

	state_hash_unlink(sh, pe);
	state_hash_uncharge(sh, THR_ENTRY_COST);
	free(n);
}

/* The packet time of a lookup that may not expire anything: see
 * threshold_check. */
#define THR_NO_EXPIRY INT64_MIN

/* Removes the expired entries of one chain. */
static void thr_chain_expire(StateHash *sh, StateNode **pe, int64_t now)
{
	StateNode *n;

	if (now == THR_NO_EXPIRY)
		return;
	while ((n = *pe)) {
		if (thr_expired((const ThrEntry *)n, now))
			thr_remove(sh, pe);
		else
			pe = &n->next;
	}
}

static void thr_sweep(StateHash *sh, int buckets, int64_t now)
{
	if (now == THR_NO_EXPIRY)
		return;
	for (int i = 0; i < buckets; i++)
		thr_chain_expire(sh, state_hash_sweep(sh), now);
}

/* rate_filter: the matches are counted in a window of td->seconds; the
 * match that takes the count past td->count puts new_action in force for
 * td->timeout seconds, for every match of the key; then counting starts
 * anew. 1: new_action applies to this match. */
static int thr_rate(ThrEntry *e, const DetectThreshold *td, const struct timeval *ts, int fresh)
{
	int64_t now = ts->tv_sec;

	e->timeout = td->timeout;
	if (!fresh && e->rate_since) {
		if (now - e->rate_since < (int64_t)td->timeout)
			return 1;
		e->rate_since = 0;
		fresh = 1;
	}
	if (fresh || now - (int64_t)e->tv1.tv_sec >= (int64_t)td->seconds) {
		e->tv1 = *ts;
		e->count = 1;
	} else {
		e->count++;
	}
	if (e->count <= td->count)
		return 0;
	/* packet time 0 (a crafted capture) must still read as in force */
	e->rate_since = now ? now : 1;
	return 1;
}

/* Suricata's threshold types, counted per (rule, tracked address). */
static int thr_apply(ThrEntry *e, const DetectThreshold *td, const struct timeval *ts, int fresh)
{
	int within;

	e->seconds = td->seconds;
	e->backoff = td->type == THR_BACKOFF;
	e->last_s = ts->tv_sec;
	if (fresh) {
		e->tv1 = *ts;
		e->count = 1;
		switch (td->type) {
		case THR_LIMIT: return 1;
		case THR_THRESHOLD: if (td->count <= 1) { e->count = 0; return 1; } return 0;
		case THR_BOTH: return td->count <= 1;
		case THR_DETECTION_FILTER: return td->count == 0;
		case THR_RATE: return 1;
		case THR_BACKOFF:
			e->next_at = td->count;
			if (td->count <= 1) {
				e->next_at = (uint64_t)td->count * td->multiplier;
				return 1;
			}
			return 0;
		}
		return 1;
	}
	if (td->type == THR_BACKOFF) {
		/* alert at count, count*m, count*m*m, ... (no time window) */
		if (++e->count != e->next_at)
			return 0;
		e->next_at *= td->multiplier;
		return 1;
	}
	within = tv_diff_s(ts, &e->tv1) < (int64_t)td->seconds;
	switch (td->type) {
	case THR_LIMIT:
		if (!within) {
			e->tv1 = *ts;
			e->count = 1;
			return 1;
		}
		return ++e->count <= td->count;
	case THR_THRESHOLD:
		if (!within) {
			e->tv1 = *ts;
			e->count = 1;
			if (td->count <= 1) {
				e->count = 0;
				return 1;
			}
			return 0;
		}
		if (++e->count >= td->count) {
			e->count = 0;
			return 1;
		}
		return 0;
	case THR_BOTH:
		if (!within) {
			e->tv1 = *ts;
			e->count = 1;
			return td->count <= 1;
		}
		return ++e->count == td->count;
	case THR_DETECTION_FILTER:
		if (!within) {
			e->tv1 = *ts;
			e->count = 1;
			return td->count == 0;
		}
		return ++e->count > td->count;
	case THR_BACKOFF:
	case THR_RATE:
		break;   /* handled above, and by thr_rate */
	}
	return 1;
}

static int addr_in_set(const AddrSet *set, const Address *a)
{
	if (set->any)
		return 1;
	if (a->family == AF_INET)
		return addrset_match_v4(set, ntohl(a->a.u32[0]));
	if (a->family == AF_INET6)
		return addrset_match_v6(set, a->a.u8);
	return 0;
}

/* One match counted in e: 1 when it alerts. r->act: the rule's action
 * applies without the alert, as Suricata 8 documents it: limit on every
 * match, both once its count is reached, backoff but on a first match
 * when count > 1; threshold and detection_filter only with their alert.
 * r->new_action: a rate_filter's action in force (a rate_filter always
 * alerts: its action decides). */
static int thr_judge(ThrEntry *e, const DetectThreshold *td, const struct timeval *ts,
		     int fresh, ThrResult *r)
{
	int rc;

	if (td->type == THR_RATE) {
		e->last_s = ts->tv_sec;
		e->seconds = td->seconds;
		if (thr_rate(e, td, ts, fresh) && td->new_action != THR_ACTION_KEEP)
			r->new_action = td->new_action;
		return 1;
	}
	rc = thr_apply(e, td, ts, fresh);
	switch (td->type) {
	case THR_LIMIT:
		r->act = 1;
		break;
	case THR_BOTH:
		/* count reached in this window: thr_apply left e->count there */
		r->act = rc || e->count >= td->count;
		break;
	case THR_BACKOFF:
		r->act = !(fresh && td->count > 1);
		break;
	default:
		r->act = rc;
		break;
	}
	return rc;
}

static int suppressed_by(const Suppress *sp, const DetectSig *ds, const Packet *p)
{
	const Signature *s = ds->s;

	/* gen_id 0: every gid (with sig_id 0, every rule) */
	if ((sp->gid && sp->gid != s->gid) || (sp->sid && sp->sid != s->sid))
		return 0;
	switch (sp->track) {
	case -1: return 1;
	case TRACK_EITHER: return addr_in_set(&sp->set, &p->src) || addr_in_set(&sp->set, &p->dst);
	case TRACK_SRC: return addr_in_set(&sp->set, &p->src);
	default: return addr_in_set(&sp->set, &p->dst);
	}
}

/* The threshold a match is judged by: a threshold.config entry for the
 * rule's own sid replaces the rule's threshold; one for all sids of a gid
 * (sig_id 0) or all gids (gen_id 0) only applies to a rule without one,
 * as Suricata does not override a rule's threshold globally. */
static const DetectThreshold *thr_for(const ThresholdTable *tt, const DetectSig *ds)
{
	const DetectThreshold *global = NULL;

	for (int i = 0; i < tt->nov; i++) {
		const ThrOverride *o = &tt->ov[i];

		if ((o->gid && o->gid != ds->s->gid) || (o->sid && o->sid != ds->s->sid))
			continue;
		if (o->sid && o->gid)
			return &o->td;
		if (!global)
			global = &o->td;
	}
	return ds->thr ? ds->thr : global;
}

uint32_t threshold_table_count(const DetectEngine *de)
{
	uint32_t n;

	pthread_mutex_lock(&de->thr->st->lock);
	n = de->thr->st->sh.n;
	pthread_mutex_unlock(&de->thr->st->lock);
	return n;
}

uint32_t threshold_key_hash(const Signature *s, int track, const Address *a, const Address *a2)
{
	struct {
		uint32_t sid, gid, rev, track, fam, fam2;
		uint8_t a[16], a2[16];
	} k;

	k.sid = s->sid;
	k.gid = s->gid;
	k.rev = s->rev;
	k.track = (uint32_t)track;
	k.fam = a->family;
	k.fam2 = a2->family;
	memcpy(k.a, a->a.u8, 16);
	memcpy(k.a2, a2->a.u8, 16);
	return state_hash_bytes(&k, sizeof(k));
}

/* Caller holds the lock. The entry of the key, or NULL. Expired entries of
 * the chain it walks go on the way. */
static ThrEntry *thr_lookup(StateHash *sh, uint32_t h, const DetectSig *ds, int track,
			    const Address *a, const Address *a2, int64_t now)
{
	StateNode **b = state_hash_bucket(sh, h);

	thr_chain_expire(sh, b, now);
	for (StateNode *n = *b; n; n = n->next) {
		ThrEntry *e = (ThrEntry *)n;

		if (n->hash == h && e->sid == ds->s->sid && e->gid == ds->s->gid &&
		    e->rev == ds->s->rev && e->track == track && addr_eq(&e->addr, a) &&
		    addr_eq(&e->addr2, a2))
			return e;
	}
	return NULL;
}

/* Caller holds the lock. A new entry, or NULL when the memcap refuses it
 * (*refused) or there is no memory. */
static ThrEntry *thr_insert(StateHash *sh, uint32_t h, const DetectSig *ds, int track,
			    const Address *a, const Address *a2, int64_t now, int *refused)
{
	ThrEntry *e;

	if (state_hash_charge(sh, THR_ENTRY_COST) != 0) {
		thr_sweep(sh, THR_SWEEP_AT_MEMCAP, now);
		if (state_hash_charge(sh, THR_ENTRY_COST) != 0) {
			*refused = 1;
			return NULL;
		}
	}
	e = calloc(1, sizeof(*e));
	if (!e) {
		state_hash_uncharge(sh, THR_ENTRY_COST);
		return NULL;
	}
	e->sid = ds->s->sid;
	e->gid = ds->s->gid;
	e->rev = ds->s->rev;
	e->track = track;
	e->addr = *a;
	e->addr2 = *a2;
	state_hash_link(sh, &e->node, h);
	return e;
}

/* by_both counts the pair of addresses whichever way the packet goes, as
 * Suricata's ip-pair table: the lower address first. */
static void pair_order(const Address **a, const Address **a2)
{
	const Address *x = *a, *y = *a2;

	if (x->family > y->family ||
	    (x->family == y->family && memcmp(&x->a, &y->a, sizeof(x->a)) > 0)) {
		*a = y;
		*a2 = x;
	}
}

int threshold_check(DetectEngine *de, const DetectSig *ds, const Packet *p, ThrResult *r,
		    detect_order_fn order, void *order_arg, ThreadCounters *tc)
{
	ThresholdTable *tt = de->thr;
	const DetectThreshold *td;
	const Address *a = NULL, *a2 = NULL;
	static const Address none;
	Address flow_key;
	StateHash *sh = &tt->st->sh;
	int64_t now = p->ts.tv_sec;
	ThrEntry *e;
	uint32_t h;
	int rc, refused = 0;

	r->suppressed = 0;
	r->act = 0;
	r->new_action = -1;
	for (int i = 0; i < tt->nsup; i++) {
		if (suppressed_by(&tt->sup[i], ds, p)) {
			r->suppressed = 1;
			r->act = 1;
			return 0;
		}
	}
	td = tt->nov ? thr_for(tt, ds) : ds->thr;
	if (!td)
		return 1;
	switch (td->track) {
	case TRACK_SRC: a = &p->src; break;
	case TRACK_DST: a = &p->dst; break;
	case TRACK_BOTH:
		a = &p->src;
		a2 = &p->dst;
		pair_order(&a, &a2);
		break;
	case TRACK_RULE: a = &none; break;
	case TRACK_FLOW:
		/* by_flow: the flow id stands in for the address */
		if (!p->flow)
			return 1;
		memset(&flow_key, 0, sizeof(flow_key));
		flow_key.family = 255;
		memcpy(flow_key.a.u8, &p->flow->flow_id, sizeof(p->flow->flow_id));
		a = &flow_key;
		break;
	}
	if (!a2)
		a2 = &none;
	/* a flow's packets stay on one worker: by_flow needs no ordering.
	 * Such a lookup may run ahead of an earlier packet of another worker,
	 * whose key its packet time could expire before that packet counts
	 * in it: it expires nothing (the ordered lookups' sweeps do). */
	if (order && td->track != TRACK_FLOW)
		order(order_arg, p);
	else if (order)
		now = THR_NO_EXPIRY;
	h = threshold_key_hash(ds->s, (int)td->track, a, a2);
	pthread_mutex_lock(&tt->st->lock);
	/* before the lookup: a sweep may free what it would return */
	thr_sweep(sh, THR_SWEEP_PER_CALL, now);
	e = thr_lookup(sh, h, ds, (int)td->track, a, a2, now);
	if (e) {
		rc = thr_judge(e, td, &p->ts, 0, r);
	} else if ((e = thr_insert(sh, h, ds, (int)td->track, a, a2, now, &refused))) {
		rc = thr_judge(e, td, &p->ts, 1, r);
	} else {
		/* not tracked (memcap, or no memory): the match is judged as
		 * the first of its key, and the next one again */
		ThrEntry tmp = { 0 };

		rc = thr_judge(&tmp, td, &p->ts, 1, r);
	}
	memuse_report(sh, tc, c_thr_memuse);
	pthread_mutex_unlock(&tt->st->lock);
	if (refused)
		memcap_count(tc, c_thr_memcap);
	return rc;
}

/* ---- threshold.config ----
 *   suppress gen_id G, sig_id S[, track by_src|by_dst|by_either, ip ADDR]
 *   threshold gen_id G, sig_id S, type limit|threshold|both, track T, count N, seconds N
 *   event_filter ... (same as threshold)
 *   rate_filter gen_id G, sig_id S, track T, count N, seconds N,
 *     new_action alert|drop|pass|reject, timeout N */

static char *kv_get(char **parts, int n, const char *key)
{
	size_t kl = strlen(key);

	for (int i = 0; i < n; i++)
		if (!strncmp(parts[i], key, kl) && isspace((unsigned char)parts[i][kl]))
			return str_trim(parts[i] + kl);
	return NULL;
}

static int parse_track(const char *v, int *out)
{
	if (!v) return -1;
	if (!strcmp(v, "by_src")) *out = TRACK_SRC;
	else if (!strcmp(v, "by_dst")) *out = TRACK_DST;
	else if (!strcmp(v, "by_rule")) *out = TRACK_RULE;
	else if (!strcmp(v, "by_both")) *out = TRACK_BOTH;
	else if (!strcmp(v, "by_either")) *out = TRACK_SRC;
	else if (!strcmp(v, "by_flow")) *out = TRACK_FLOW;
	else return -1;
	return 0;
}

/* rate_filter gen_id G, sig_id S, track by_src|by_dst|by_rule|by_both,
 *   count N, seconds N, new_action alert|drop|pass|reject, timeout N */
static int rate_line(DetectThreshold *td, char **parts, int n, char *why, size_t whylen)
{
	static const struct { const char *name; uint8_t action; } actions[] = {
		{ "alert", ALERT_ACTION_ALERT }, { "drop", ALERT_ACTION_DROP },
		{ "pass", ALERT_ACTION_PASS }, { "reject", ALERT_ACTION_REJECT },
		/* Suricata parses these but does not implement them */
		{ "sdrop", THR_ACTION_KEEP }, { "log", THR_ACTION_KEEP },
	};
	static const char *const nums[] = { "count", "seconds", "timeout" };
	uint32_t *dst[] = { &td->count, &td->seconds, &td->timeout };
	const char *v;
	uint64_t u;
	int track;
	size_t i;

	td->type = THR_RATE;
	v = kv_get(parts, n, "track");
	if (parse_track(v, &track) || track == TRACK_FLOW) {
		snprintf(why, whylen, "rate_filter: missing or bad track");
		return -1;
	}
	td->track = track;
	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		v = kv_get(parts, n, nums[i]);
		if (!v || parse_u64(v, &u) || u > UINT32_MAX) {
			snprintf(why, whylen, "rate_filter: missing or bad %s", nums[i]);
			return -1;
		}
		*dst[i] = (uint32_t)u;
	}
	v = kv_get(parts, n, "new_action");
	for (i = 0; v && i < sizeof(actions) / sizeof(actions[0]); i++)
		if (!strcmp(v, actions[i].name))
			break;
	if (!v || i == sizeof(actions) / sizeof(actions[0])) {
		snprintf(why, whylen, "rate_filter: missing or bad new_action");
		return -1;
	}
	td->new_action = actions[i].action;
	return 0;
}

static int thr_line(ThresholdTable *tt, char *line, char *why, size_t whylen)
{
	char *kind = line, *rest, *parts[16], *v;
	uint64_t gid, sid, u;
	int n, track;

	while (*kind && !isspace((unsigned char)*kind))
		kind++;
	if (!*kind) {
		snprintf(why, whylen, "incomplete line");
		return -1;
	}
	*kind = '\0';
	rest = kind + 1;
	kind = line;
	n = split_commas(rest, parts, 16);
	if (n > 16)
		n = 16;
	for (int i = 0; i < n; i++)
		parts[i] = str_trim(parts[i]);
	v = kv_get(parts, n, "gen_id");
	if (!v || parse_u64(v, &gid)) {
		snprintf(why, whylen, "missing or bad gen_id");
		return -1;
	}
	v = kv_get(parts, n, "sig_id");
	if (!v || parse_u64(v, &sid)) {
		snprintf(why, whylen, "missing or bad sig_id");
		return -1;
	}
	if (!strcmp(kind, "suppress")) {
		Suppress sp = { (uint32_t)gid, (uint32_t)sid, -1, { 0 } };
		Suppress *ns;

		v = kv_get(parts, n, "track");
		if (v) {
			char err[256];
			char *ip = kv_get(parts, n, "ip");

			if (!strcmp(v, "by_either"))
				sp.track = TRACK_EITHER;
			else if (parse_track(v, &sp.track))
				sp.track = -3;
			if (sp.track == -3 || sp.track == TRACK_RULE || sp.track == TRACK_BOTH ||
			    sp.track == TRACK_FLOW || !ip) {
				snprintf(why, whylen, "suppress: bad track or missing ip");
				return -1;
			}
			if (addrset_parse(ip, &sp.set, err, sizeof(err)) != 0) {
				snprintf(why, whylen, "suppress: %s", err);
				return -1;
			}
		}
		ns = realloc(tt->sup, (tt->nsup + 1) * sizeof(*ns));
		if (!ns)
			return -1;
		tt->sup = ns;
		tt->sup[tt->nsup++] = sp;
		return 0;
	}
	if (!strcmp(kind, "threshold") || !strcmp(kind, "event_filter") ||
	    !strcmp(kind, "rate_filter")) {
		ThrOverride o = { (uint32_t)gid, (uint32_t)sid, { 0 }, kind[0] == 'e' };
		ThrOverride *no;

		if (kind[0] == 'r') {
			if (rate_line(&o.td, parts, n, why, whylen) != 0)
				return -1;
			goto add;
		}
		v = kv_get(parts, n, "type");
		if (!v) {
			snprintf(why, whylen, "missing type");
			return -1;
		}
		if (!strcmp(v, "limit")) o.td.type = THR_LIMIT;
		else if (!strcmp(v, "threshold")) o.td.type = THR_THRESHOLD;
		else if (!strcmp(v, "both")) o.td.type = THR_BOTH;
		else {
			snprintf(why, whylen, "bad type \"%s\"", v);
			return -1;
		}
		if (parse_track(kv_get(parts, n, "track"), &track)) {
			snprintf(why, whylen, "missing or bad track");
			return -1;
		}
		o.td.track = track;
		v = kv_get(parts, n, "count");
		if (!v || parse_u64(v, &u)) {
			snprintf(why, whylen, "missing or bad count");
			return -1;
		}
		o.td.count = (uint32_t)u;
		v = kv_get(parts, n, "seconds");
		if (!v || parse_u64(v, &u)) {
			snprintf(why, whylen, "missing or bad seconds");
			return -1;
		}
		o.td.seconds = (uint32_t)u;
add:
		no = realloc(tt->ov, (tt->nov + 1) * sizeof(*no));
		if (!no)
			return -1;
		tt->ov = no;
		tt->ov[tt->nov++] = o;
		return 0;
	}
	snprintf(why, whylen, "unknown directive \"%s\"", kind);
	return -1;
}

int threshold_config_load(DetectEngine *de, const char *path, char *err, size_t errlen)
{
	FILE *fp = fopen(path, "r");
	char line[4096], why[512];
	int lineno = 0;

	if (!fp) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), fp)) {
		char *l = str_trim(line);
		int rc;

		lineno++;
		if (!*l || *l == '#')
			continue;
		rc = thr_line(de->thr, l, why, sizeof(why));
		if (rc < 0)
			log_error("%s:%d: %s", path, lineno, why);
		else if (rc > 0)
			log_warning("%s:%d: %s", path, lineno, why);
	}
	fclose(fp);
	return 0;
}
