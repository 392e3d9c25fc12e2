/* IPv4/IPv6 defragmentation: see defrag.h for the policy and limits.
 *
 * Fragment storage is allocated with malloc when a fragment arrives, bounded by
 * defrag.memcap / max-frags / trackers: fragments are rare next to whole
 * packets, and a preallocated pool sized for the memcap would be mostly idle.
 * Reassembly itself uses per-thread scratch allocated once.
 *
 * defrag.memuse counts what is held, as the allocator holds it: each block at
 * its chunk size (mem_block_size: a tracker, its saved headers and each
 * fragment are three blocks of a datagram, ~50 bytes more than their sizes
 * add up to), and the tracker hash table, as Suricata counts its hash rows.
 * The reassembly scratch (out, owner) is not counted: its pages are touched
 * only by a datagram being rebuilt, and are the same 192 KB whatever the load.
 * What memuse counts is what defrag.memcap bounds. */
#include "decode/defrag.h"
#include "decode/decode-int.h"
#include "util/exception-policy.h"
#include "util/mem-peak.h"

#include <pcap/dlt.h>
#include <stdlib.h>

#define OWNER_NONE 0xffff
#define BUCKETS_MIN 16
#define BUCKETS_MAX 65536

struct frag {
	struct frag *next;          /* sorted by offset */
	struct frag *anext;         /* arrival order */
	uint32_t seq;               /* arrival order */
	uint16_t off, len;          /* within the fragmentable part */
	uint8_t data[];
};

struct tracker {
	struct tracker *hnext;
	struct tracker *lprev, *lnext;  /* LRU by last fragment time */
	uint32_t hash;

	/* key */
	uint8_t family;
	uint8_t proto;              /* IPv4 protocol; 0 for IPv6 */
	uint32_t id;
	uint8_t src[16], dst[16];
	uint16_t vlan[3];

	struct timeval last;
	struct frag *frags;
	struct frag *arrived, *arrived_tail;
	uint32_t nfrags, seq;
	uint8_t *hdr;               /* first fragment's header (v4) / unfragmentable part (v6) */
	uint16_t hdr_len;
	uint8_t *link;              /* first fragment's bytes before its IP header */
	uint16_t link_len;
	int datalink;               /* and the datalink they are in */
	uint16_t nh_off;            /* v6: byte of hdr that names the fragment header */
	uint8_t nh;                 /* v6: next header carried in the first fragment header */
	uint8_t have_last;
	uint8_t tunnel;
	uint32_t end;               /* length of the fragmentable part, once last seen */
};

struct Defrag {
	DefragConfig cfg;
	DecodeThread *dt;
	struct tracker **buckets;
	uint32_t mask;
	uint64_t table_bytes;       /* the bucket array, counted in memuse */
	struct tracker *lru_head, *lru_tail;
	uint32_t ntrackers;
	uint32_t nfrags;
	uint64_t memuse;
	uint8_t *out;               /* reassembly buffer, PACKET_DATA_MAX */
	uint16_t *owner;            /* per byte: offset of the fragment that wrote it */
};

struct frag_in {
	uint8_t family, proto;
	uint32_t id;
	const uint8_t *src, *dst;
	uint32_t off, len, more;
	const uint8_t *data;
	const uint8_t *hdr;         /* header to keep if this is the first fragment */
	uint32_t hdr_len, nh_off;
	uint32_t link_len;          /* bytes of p->data before hdr */
	uint8_t nh;
};

/* Bytes held for each block (see the top of this file). */
static uint64_t frag_cost(uint32_t len)
{
	return mem_block_size(sizeof(struct frag) + len);
}

static uint64_t tracker_cost(void)
{
	return mem_block_size(sizeof(struct tracker));
}

static uint64_t hdr_cost(uint32_t link_len, uint32_t hdr_len)
{
	return mem_block_size(link_len + hdr_len);
}

static void memuse_add(struct Defrag *df, uint64_t n)
{
	df->memuse += n;
	mem_peak_add(n);
}

static void memuse_sub(struct Defrag *df, uint64_t n)
{
	df->memuse -= n;
	mem_peak_sub(n);
}

static uint32_t table_buckets(const DefragConfig *cfg)
{
	uint32_t n = BUCKETS_MIN;

	while (n < cfg->trackers && n < BUCKETS_MAX)
		n <<= 1;
	return n;
}

uint64_t defrag_table_bytes(const DefragConfig *cfg)
{
	return (uint64_t)table_buckets(cfg) * sizeof(struct tracker *);
}

/* memcap-set defrag (the unix socket): each thread's cap from its next
 * fragment that needs room on; 0: none set, the configuration's holds.
 * Relaxed atomics, read only where a fragment is to be kept. */
static uint64_t g_memcap_live, g_memcap_conf;

void defrag_memcap_set(uint64_t cap)
{
	__atomic_store_n(&g_memcap_live, cap, __ATOMIC_RELAXED);
}

void defrag_memcap_configured(uint64_t cap)
{
	__atomic_store_n(&g_memcap_conf, cap, __ATOMIC_RELAXED);
}

uint64_t defrag_memcap_get(void)
{
	uint64_t live = __atomic_load_n(&g_memcap_live, __ATOMIC_RELAXED);

	return live ? live : __atomic_load_n(&g_memcap_conf, __ATOMIC_RELAXED);
}

struct Defrag *defrag_new(const DefragConfig *cfg, DecodeThread *dt)
{
	struct Defrag *df = calloc(1, sizeof(*df));
	uint32_t n = table_buckets(cfg);

	if (!df)
		return NULL;
	df->cfg = *cfg;
	df->dt = dt;
	df->mask = n - 1;
	df->buckets = calloc(n, sizeof(*df->buckets));
	df->out = malloc(PACKET_DATA_MAX);
	df->owner = malloc(65536 * sizeof(uint16_t));
	if (!df->buckets || !df->out || !df->owner) {
		defrag_free(df);
		return NULL;
	}
	df->table_bytes = defrag_table_bytes(cfg);
	memuse_add(df, df->table_bytes);
	if (dt && dt->tc)
		counter_set(dt->tc, dcnt.df_memuse, df->memuse);
	return df;
}

static void tracker_free_frags(struct Defrag *df, struct tracker *t)
{
	struct frag *f = t->frags;

	while (f) {
		struct frag *n = f->next;

		memuse_sub(df, frag_cost(f->len));
		free(f);
		f = n;
	}
	df->nfrags -= t->nfrags;
	t->nfrags = 0;
	t->frags = NULL;
	t->arrived = t->arrived_tail = NULL;
	if (t->hdr) {
		memuse_sub(df, hdr_cost(t->link_len, t->hdr_len));
		free(t->link);
		t->hdr = NULL;
		t->link = NULL;
		t->hdr_len = 0;
		t->link_len = 0;
	}
}

/* Takes t, which is on the LRU list, off it. */
static void lru_unlink(struct Defrag *df, struct tracker *t)
{
	if (t->lprev)
		t->lprev->lnext = t->lnext;
	else
		df->lru_head = t->lnext;
	if (t->lnext)
		t->lnext->lprev = t->lprev;
	else
		df->lru_tail = t->lprev;
}

static void tracker_unlink(struct Defrag *df, struct tracker *t)
{
	struct tracker **pp = &df->buckets[t->hash & df->mask];

	while (*pp && *pp != t)
		pp = &(*pp)->hnext;
	if (*pp)
		*pp = t->hnext;
	lru_unlink(df, t);
}

static void tracker_destroy(struct Defrag *df, struct tracker *t)
{
	tracker_unlink(df, t);
	tracker_free_frags(df, t);
	memuse_sub(df, tracker_cost());
	df->ntrackers--;
	free(t);
}

void defrag_free(struct Defrag *df)
{
	if (!df)
		return;
	while (df->lru_head)
		tracker_destroy(df, df->lru_head);
	memuse_sub(df, df->table_bytes);
	free(df->buckets);
	free(df->out);
	free(df->owner);
	free(df);
}

uint32_t defrag_tracker_count(const struct Defrag *df)
{
	return df->ntrackers;
}

uint64_t defrag_memuse(const struct Defrag *df)
{
	return df->memuse;
}

static void lru_touch(struct Defrag *df, struct tracker *t)
{
	if (df->lru_tail == t)
		return;
	/* not the tail (above), so lru_unlink leaves lru_tail as it is */
	if (t->lprev || t->lnext || df->lru_head == t)
		lru_unlink(df, t);
	t->lprev = df->lru_tail;
	t->lnext = NULL;
	if (df->lru_tail)
		df->lru_tail->lnext = t;
	else
		df->lru_head = t;
	df->lru_tail = t;
}

static uint32_t key_hash(const struct frag_in *in, const Packet *p)
{
	uint32_t h = 2166136261u;
	uint32_t alen = in->family == 4 ? 4 : 16;

#define MIX(b) do { h ^= (uint8_t)(b); h *= 16777619u; } while (0)
	MIX(in->family);
	MIX(in->proto);
	for (int i = 0; i < 4; i++)
		MIX(in->id >> (i * 8));
	for (uint32_t i = 0; i < alen; i++) {
		MIX(in->src[i]);
		MIX(in->dst[i]);
	}
	for (int i = 0; i < p->key_vlans && i < 3; i++) {
		MIX(p->vlan_id[i]);
		MIX(p->vlan_id[i] >> 8);
	}
#undef MIX
	return h;
}

static int key_match(const struct tracker *t, const struct frag_in *in, const Packet *p,
		     uint32_t hash)
{
	uint32_t alen = in->family == 4 ? 4 : 16;

	if (t->hash != hash || t->family != in->family || t->proto != in->proto ||
	    t->id != in->id)
		return 0;
	if (memcmp(t->src, in->src, alen) || memcmp(t->dst, in->dst, alen))
		return 0;
	for (int i = 0; i < 3; i++)
		if (t->vlan[i] != (i < p->key_vlans ? p->vlan_id[i] : 0))
			return 0;
	return 1;
}

static int tv_expired(const struct timeval *last, uint32_t timeout, const struct timeval *now)
{
	return (int64_t)last->tv_sec + timeout < (int64_t)now->tv_sec ||
	       ((int64_t)last->tv_sec + timeout == (int64_t)now->tv_sec &&
		last->tv_usec < now->tv_usec);
}

/* Packet time drives expiry: drop trackers idle past defrag.timeout. */
static void defrag_expire(struct Defrag *df, const struct timeval *now)
{
	DecodeThread *dt = df->dt;

	while (df->lru_head && tv_expired(&df->lru_head->last, df->cfg.timeout_s, now)) {
		struct tracker *t = df->lru_head;

		dc_inc(dt, dcnt.df_wrk_tracker_timeout);
		dc_inc(dt, t->family == 4 ? dcnt.df_v4_timeouts : dcnt.df_v6_timeouts);
		tracker_destroy(df, t);
	}
}

/* Frees least recently used trackers (never keep) until need more bytes fit. */
static int defrag_make_room(struct Defrag *df, uint64_t need, struct tracker *keep)
{
	uint64_t live = __atomic_load_n(&g_memcap_live, __ATOMIC_RELAXED);

	if (live)
		df->cfg.memcap = live;
	while (df->memuse + need > df->cfg.memcap) {
		struct tracker *t = df->lru_head;

		if (t == keep)
			t = t ? t->lnext : NULL;
		if (!t)
			return -1;
		dc_inc(df->dt, dcnt.df_tracker_hard_reuse);
		tracker_destroy(df, t);
	}
	return 0;
}

/* defrag.memcap reached and nothing could be freed for p: the policy acts on
 * the packet only (no flow exists yet). */
static void memcap_refused(DecodeThread *dt, Packet *p)
{
	unsigned eff = ep_apply(dt->tc, EP_DEFRAG_MEMCAP);

	if (eff & EP_EFF_PKT_NO_DETECT)
		p->flags |= PKT_EP_NO_DETECT;
	if (eff & EP_EFF_PKT_DROP) {
		p->flags |= PKT_EP_DROP;
		p->drop_reason = PKT_DROP_DEFRAG_MEMCAP;
	}
}

static struct tracker *tracker_get(struct Defrag *df, const struct frag_in *in, Packet *p)
{
	DecodeThread *dt = df->dt;
	uint32_t hash = key_hash(in, p);
	struct tracker *t;

	for (t = df->buckets[hash & df->mask]; t; t = t->hnext)
		if (key_match(t, in, p, hash))
			return t;

	if (df->ntrackers >= df->cfg.trackers) {
		dc_inc(dt, dcnt.df_max_trackers_reached);
		return NULL;
	}
	if (defrag_make_room(df, tracker_cost(), NULL) < 0) {
		memcap_refused(dt, p);
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	memuse_add(df, tracker_cost());
	df->ntrackers++;
	t->hash = hash;
	t->family = in->family;
	t->proto = in->proto;
	t->id = in->id;
	memcpy(t->src, in->src, in->family == 4 ? 4 : 16);
	memcpy(t->dst, in->dst, in->family == 4 ? 4 : 16);
	for (int i = 0; i < p->key_vlans && i < 3; i++)
		t->vlan[i] = p->vlan_id[i];
	t->tunnel = (p->flags & PKT_TUNNEL) != 0;
	t->hnext = df->buckets[hash & df->mask];
	df->buckets[hash & df->mask] = t;
	lru_touch(df, t);
	return t;
}

/* True when the fragments cover [0, end) with no hole. */
static int tracker_complete(const struct tracker *t)
{
	uint32_t covered = 0;

	if (!t->have_last || !t->hdr)
		return 0;
	for (const struct frag *f = t->frags; f; f = f->next) {
		if (f->off > covered)
			return 0;
		if ((uint32_t)f->off + f->len > covered)
			covered = (uint32_t)f->off + f->len;
		if (covered >= t->end)
			return 1;
	}
	return covered >= t->end;
}

/* Writes the fragmentable part into out (after the header) with the bsd rule:
 * fragments in arrival order; a byte already written is overwritten only by a
 * fragment that starts at a lower offset than the one that wrote it. */
static void tracker_assemble(struct Defrag *df, const struct tracker *t, uint8_t *out)
{
	uint16_t *owner = df->owner;

	for (uint32_t i = 0; i < t->end; i++)
		owner[i] = OWNER_NONE;
	for (const struct frag *f = t->arrived; f; f = f->anext) {
		for (uint32_t i = 0; i < f->len && (uint32_t)f->off + i < t->end; i++) {
			uint32_t b = (uint32_t)f->off + i;

			if (owner[b] == OWNER_NONE || f->off < owner[b]) {
				owner[b] = f->off;
				out[b] = f->data[i];
			}
		}
	}
}

static void defrag_emit(struct Defrag *df, struct tracker *t, Packet *p)
{
	DecodeThread *dt = df->dt;
	uint32_t total = t->hdr_len + t->end;
	uint32_t link_len = t->link_len;
	int datalink = t->datalink;
	uint8_t *ip;
	Packet *q;

	/* Each fragment was checked against its own header length; the first
	 * fragment's header is the one that counts. */
	if ((t->family == 4 && total > 65535) ||
	    (t->family == 6 && (total > PACKET_DATA_MAX || total - 40 > 65535))) {
		decode_set_event(dt, p, t->family == 4 ? DEV_IPV4_FRAG_PKT_TOO_LARGE
						       : DEV_IPV6_FRAG_PKT_TOO_LARGE);
		return;
	}
	q = dt->get_packet ? dt->get_packet(dt->pool_arg) : NULL;
	if (!q) {
		/* No packet to hold the datagram: the fragments stay as they are
		 * and the datagram is not inspected as a whole. */
		return;
	}
	packet_reset(q);
	/* Suricata rebuilds the datagram behind the first fragment's link
	 * header, in that fragment's datalink (eve "packet", "packet_info"). */
	if (link_len + total > PACKET_DATA_MAX) {
		link_len = 0;
		datalink = DLT_RAW;
	}
	memcpy(q->data, t->link, link_len);
	ip = q->data + link_len;
	memcpy(ip, t->hdr, t->hdr_len);
	tracker_assemble(df, t, ip + t->hdr_len);
	if (t->family == 4) {
		uint32_t sum;

		ip[2] = (uint8_t)(total >> 8);
		ip[3] = (uint8_t)total;
		ip[6] &= 0x40; /* keep DF, clear MF and offset */
		ip[7] = 0;
		ip[10] = ip[11] = 0;
		sum = csum_fold(csum_add(0, ip, t->hdr_len));
		ip[10] = (uint8_t)(sum >> 8);
		ip[11] = (uint8_t)sum;
		dc_inc(dt, dcnt.df_v4_reassembled);
	} else {
		uint32_t plen = total - 40;

		ip[4] = (uint8_t)(plen >> 8);
		ip[5] = (uint8_t)plen;
		ip[t->nh_off] = t->nh;
		dc_inc(dt, dcnt.df_v6_reassembled);
	}
	q->ts = p->ts;
	q->pcap_cnt = 0;
	q->in_iface = p->in_iface;
	q->datalink = datalink;
	q->caplen = q->wirelen = link_len + total;
	q->flags = PKT_PSEUDO | PKT_REASSEMBLED | (t->tunnel ? PKT_TUNNEL : 0);
	q->vlan_count = p->vlan_count;
	q->key_vlans = p->key_vlans;
	memcpy(q->vlan_id, p->vlan_id, sizeof(q->vlan_id));
	/* a datagram rebuilt inside a tunnel stays at the tunnel's depth */
	q->recursion_level = p->recursion_level;
	q->flow_level = p->flow_level;
	q->root = p->root;
	q->pkt_src = PKT_SRC_DEFRAG;
	decode_pseudo(dt, q, link_len);
	p->pseudo = q;
}

/* Bytes of p->data in front of the IP header ip (0 if ip is not in it). */
static uint32_t link_prefix_len(const Packet *p, const uint8_t *ip)
{
	if (ip < p->data || ip > p->data + p->caplen)
		return 0;
	return (uint32_t)(ip - p->data);
}

/* Suricata's frag_ignored: a fragment dropped for an internal reason (a limit
 * reached, no memory), so its datagram will not be rebuilt. */
static void frag_ignored(DecodeThread *dt, Packet *p, const struct frag_in *in)
{
	decode_set_event(dt, p, in->family == 4 ? DEV_IPV4_FRAG_IGNORED : DEV_IPV6_FRAG_IGNORED);
}

static void defrag_insert(DecodeThread *dt, Packet *p, const struct frag_in *in,
			  enum decode_event ev_overlap)
{
	struct Defrag *df = dt->defrag;
	struct tracker *t;
	struct frag *f, **pp;
	uint64_t need;

	if (dt->in_pseudo)
		return;
	defrag_expire(df, &p->ts);
	t = tracker_get(df, in, p);
	if (!t) {
		frag_ignored(dt, p, in);
		return;
	}
	t->last = p->ts;
	lru_touch(df, t);
	if (df->nfrags >= df->cfg.max_frags) {
		dc_inc(dt, dcnt.df_max_frags_reached);
		frag_ignored(dt, p, in);
		return;
	}
	need = frag_cost(in->len) +
	       (in->off == 0 && !t->hdr ? hdr_cost(in->link_len, in->hdr_len) : 0);
	if (defrag_make_room(df, need, t) < 0) {
		memcap_refused(dt, p);
		frag_ignored(dt, p, in);
		return;
	}

	for (const struct frag *o = t->frags; o; o = o->next) {
		if (in->off < (uint32_t)o->off + o->len && o->off < in->off + in->len) {
			decode_set_event(dt, p, ev_overlap);
			break;
		}
	}
	f = malloc(sizeof(*f) + in->len);
	if (!f) {
		frag_ignored(dt, p, in);
		return;
	}
	f->seq = t->seq++;
	f->off = (uint16_t)in->off;
	f->len = (uint16_t)in->len;
	memcpy(f->data, in->data, in->len);
	for (pp = &t->frags; *pp && (*pp)->off <= f->off; pp = &(*pp)->next)
		;
	f->next = *pp;
	*pp = f;
	f->anext = NULL;
	if (t->arrived_tail)
		t->arrived_tail->anext = f;
	else
		t->arrived = f;
	t->arrived_tail = f;
	t->nfrags++;
	df->nfrags++;
	memuse_add(df, frag_cost(in->len));

	if (in->off == 0 && !t->hdr) {
		/* one buffer: the link header, then the IP header */
		t->link = malloc(in->link_len + in->hdr_len);
		if (t->link) {
			t->hdr = t->link + in->link_len;
			memcpy(t->link, in->hdr - in->link_len, in->link_len + in->hdr_len);
			t->link_len = (uint16_t)in->link_len;
			t->datalink = p->datalink;
			t->hdr_len = (uint16_t)in->hdr_len;
			t->nh_off = (uint16_t)in->nh_off;
			t->nh = in->nh;
			memuse_add(df, hdr_cost(in->link_len, in->hdr_len));
		}
	}
	/* The first "last fragment" fixes the datagram's length. */
	if (!in->more && !t->have_last) {
		t->have_last = 1;
		t->end = in->off + in->len;
	}
	counter_set(dt->tc, dcnt.df_memuse, df->memuse);

	/* Once rebuilt the tracker goes: a later fragment with the same key
	 * (an IP id reused, a duplicate) starts a new datagram, as in Suricata. */
	if (tracker_complete(t)) {
		defrag_emit(df, t, p);
		tracker_destroy(df, t);
		counter_set(dt->tc, dcnt.df_memuse, df->memuse);
	}
}

void defrag_ipv4(DecodeThread *dt, Packet *p, const uint8_t *ip, uint32_t hlen, uint32_t iplen)
{
	struct frag_in in = { 0 };
	uint16_t fo = rd16(ip + 6);

	dc_inc(dt, dcnt.df_v4_fragments);
	in.family = 4;
	in.proto = ip[9];
	in.id = rd16(ip + 4);
	in.src = ip + 12;
	in.dst = ip + 16;
	in.off = (uint32_t)(fo & 0x1fff) * 8;
	in.more = fo & 0x2000;
	in.len = iplen - hlen;
	in.data = ip + hlen;
	in.hdr = ip;
	in.hdr_len = hlen;
	in.link_len = link_prefix_len(p, ip);
	if (hlen + in.off + in.len > 65535) {
		decode_set_event(dt, p, DEV_IPV4_FRAG_PKT_TOO_LARGE);
		return;
	}
	if (in.len == 0)
		return;
	defrag_insert(dt, p, &in, DEV_IPV4_FRAG_OVERLAP);
}

void defrag_ipv6(DecodeThread *dt, Packet *p, const uint8_t *ip6, uint32_t fh_off,
		 uint32_t nh_off, uint32_t total)
{
	struct frag_in in = { 0 };
	const uint8_t *fh = ip6 + fh_off;
	uint16_t offlg = rd16(fh + 2);

	dc_inc(dt, dcnt.df_v6_fragments);
	in.family = 6;
	in.proto = 0;
	in.id = rd32(fh + 4);
	in.src = ip6 + 8;
	in.dst = ip6 + 24;
	in.off = offlg & 0xfff8;
	in.more = offlg & 1;
	in.len = total - fh_off - 8;
	in.data = fh + 8;
	in.hdr = ip6;
	in.hdr_len = fh_off;
	in.link_len = link_prefix_len(p, ip6);
	in.nh_off = nh_off;
	in.nh = fh[0];
	/* The rebuilt payload (unfragmentable extension headers + data) must fit
	 * the 16-bit payload length. */
	if (fh_off - 40 + in.off + in.len > 65535) {
		decode_set_event(dt, p, DEV_IPV6_FRAG_PKT_TOO_LARGE);
		return;
	}
	if (in.len == 0)
		return;
	defrag_insert(dt, p, &in, DEV_IPV6_FRAG_OVERLAP);
}
