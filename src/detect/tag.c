/* tag:session[,count,metric]
 * tag:host[,count,metric[,src|dst]]
 *
 * Suricata's tag keyword: once a rule with tag alerts, the packets that
 * follow on the same flow (session) or to/from the same address (host) are
 * "tagged" and logged as eve "packet" records (alert: tagged-packets: yes).
 * metric is packets, seconds or bytes; without count a tag lasts 256
 * packets. The alerting packet itself is logged by its alert: Suricata
 * counts it against the tag but does not tag it, so "3 packets" tags the two
 * packets after the alert.
 *
 * Session tags live in the flow's detect state (one worker, no lock). Host
 * tags cross flows and so workers: one locked table, looked at only while
 * some host is tagged; in autofp the capture-order wait comes first, as for
 * hostbits and thresholds. Entries are allocated when a tagging rule alerts
 * (not per packet) and freed when they expire or their owner goes. */
#include "detect/engine-int.h"
#include "detect/detect-int.h"
#include "detect/state-hash.h"

#include <stdlib.h>
#include <string.h>

enum { TAG_SESSION = 1, TAG_HOST };
enum { TAG_PACKETS = 0, TAG_SECONDS, TAG_BYTES };
enum { TAG_DIR_SRC = 0, TAG_DIR_DST };

/* Suricata's defaults and limits (detect-tag.h / detect-engine-tag.c). */
#define TAG_DEFAULT_PKTS   256
#define TAG_MAX_PER_OWNER  50   /* tags one flow or host may hold */
#define TAG_MATCH_LIMIT    10   /* re-alerts that restart an existing tag */

typedef struct DetectTag {
	uint8_t type, metric, dir;
	uint32_t count;
} DetectTag;

typedef struct TagEntry {
	struct TagEntry *next;
	uint32_t gid, sid;
	uint8_t metric;
	uint8_t skipped_first;    /* the alerting packet went by */
	uint8_t restarts;
	uint32_t count;
	uint32_t packets;
	uint64_t bytes;
	time_t first_ts;
} TagEntry;

/* ---- parsing ---- */

static int parse_metric(const char *v, uint8_t *out)
{
	if (!strcmp(v, "packets"))
		*out = TAG_PACKETS;
	else if (!strcmp(v, "seconds"))
		*out = TAG_SECONDS;
	else if (!strcmp(v, "bytes"))
		*out = TAG_BYTES;
	else
		return -1;
	return 0;
}

static int kw_tag(SigParseState *st, const char *arg, const Keyword *kw)
{
	char buf[128], *parts[5];
	DetectTag t = { .metric = TAG_PACKETS, .dir = TAG_DIR_SRC, .count = TAG_DEFAULT_PKTS };
	DetectTag *td;
	int n;

	(void)kw;
	n = sig_split_arg(st, "tag", arg, buf, sizeof(buf), parts, 5);
	if (n < 0)
		return -1;
	if (n < 1 || n > 4 || n == 2)
		return sig_error(st, "invalid tag \"%s\": want session|host[,count,metric[,src|dst]]",
				 arg);
	if (!strcmp(parts[0], "session"))
		t.type = TAG_SESSION;
	else if (!strcmp(parts[0], "host"))
		t.type = TAG_HOST;
	else
		return sig_error(st, "tag: invalid type \"%s\" (session or host)", parts[0]);
	if (n >= 3) {
		uint64_t u;

		if (parse_u64(parts[1], &u) || u == 0 || u > UINT32_MAX)
			return sig_error(st, "tag: invalid count \"%s\"", parts[1]);
		t.count = (uint32_t)u;
		if (parse_metric(parts[2], &t.metric))
			return sig_error(st, "tag: invalid metric \"%s\" (packets, seconds or bytes)",
					 parts[2]);
	}
	if (n == 4) {
		if (!strcmp(parts[3], "src"))
			t.dir = TAG_DIR_SRC;
		else if (!strcmp(parts[3], "dst"))
			t.dir = TAG_DIR_DST;
		else
			return sig_error(st, "tag: invalid direction \"%s\" (src or dst)", parts[3]);
		/* Suricata accepts a direction on session tags and ignores it */
	}
	td = malloc(sizeof(*td));
	if (!td)
		return sig_error(st, "out of memory");
	*td = t;
	/* acts after the rule alerted, like flowbits:set */
	return sm_append(st, SM_LIST_POSTMATCH, KW_TAG, td) < 0 ? -1 : 0;
}

/* ---- state ---- */

/* Host tags sit in a table keyed by the tagged address, which the traffic
 * picks: it is the keyed, growing table of state-hash.h, so a flood of
 * alerts from one /24 cannot pile every host into one chain (the bucket
 * was once a few bits of the address). It has no memcap of its own: a host
 * holds at most TAG_MAX_PER_OWNER tags and goes with its last tag. */
#define TAG_HOST_ROWS 256
#define TAG_HOST_NOCAP UINT64_MAX

typedef struct TagHost {
	StateNode node;           /* first: the table links hosts by it */
	Address addr;
	TagEntry *tags;
} TagHost;

struct TagTable {
	pthread_mutex_t lock;
	int nhosts;               /* hosts holding tags; read unlocked as a hint */
	StateHash sh;
};

int tag_sig_has_tag(const Signature *s)
{
	const SigMatchList *ml = &s->lists[SM_LIST_POSTMATCH];

	for (int i = 0; i < ml->n; i++)
		if (ml->m[i].kw == KW_TAG)
			return 1;
	return 0;
}

struct TagTable *tag_table_new(void)
{
	struct TagTable *tt = calloc(1, sizeof(*tt));

	if (!tt)
		return NULL;
	if (state_hash_init(&tt->sh, TAG_HOST_ROWS, TAG_HOST_NOCAP) != 0) {
		free(tt);
		return NULL;
	}
	pthread_mutex_init(&tt->lock, NULL);
	return tt;
}

static void tag_list_free(TagEntry *e)
{
	TagEntry *n;

	for (; e; e = n) {
		n = e->next;
		free(e);
	}
}

static void tag_host_free(StateNode *n)
{
	TagHost *h = (TagHost *)n;

	tag_list_free(h->tags);
	free(h);
}

void tag_table_clear(struct TagTable *tt)
{
	if (!tt)
		return;
	pthread_mutex_lock(&tt->lock);
	state_hash_clear(&tt->sh, tag_host_free);
	__atomic_store_n(&tt->nhosts, 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&tt->lock);
}

void tag_table_free(struct TagTable *tt)
{
	if (!tt)
		return;
	tag_table_clear(tt);
	state_hash_destroy(&tt->sh, tag_host_free);
	pthread_mutex_destroy(&tt->lock);
	free(tt);
}

void tag_flow_free(DetectFlowState *fs)
{
	if (!fs)
		return;
	tag_list_free(fs->tags);
	fs->tags = NULL;
}

static int addr_eq(const Address *a, const Address *b)
{
	return a->family == b->family && memcmp(a->a.u8, b->a.u8, 16) == 0;
}

/* Caller holds the lock. The link that points at a's host, or the empty
 * end of its chain. */
static StateNode **host_slot(struct TagTable *tt, const Address *a, uint32_t h)
{
	StateNode **pp = state_hash_bucket(&tt->sh, h);

	for (; *pp; pp = &(*pp)->next)
		if ((*pp)->hash == h && addr_eq(&((TagHost *)*pp)->addr, a))
			break;
	return pp;
}

/* Adds (or restarts) the tag of rule s in list *head. -1 when the owner
 * holds the maximum already, or no memory: the tag is then not installed,
 * as in Suricata, which has no counter for it (nor has the eve stats
 * schema, so none is added here). */
static int tag_add(TagEntry **head, const Signature *s, const DetectTag *td, const Packet *p)
{
	TagEntry *e;
	int n = 0;

	for (e = *head; e; e = e->next, n++) {
		if (e->sid != s->sid || e->gid != s->gid || e->metric != td->metric)
			continue;
		/* the same rule again: Suricata restarts the tag, a bounded
		 * number of times so a flood cannot keep it alive forever */
		if (++e->restarts < TAG_MATCH_LIMIT) {
			e->first_ts = p->ts.tv_sec;
			e->packets = 0;
			e->bytes = 0;
		}
		return 0;
	}
	if (n >= TAG_MAX_PER_OWNER)
		return -1;
	e = calloc(1, sizeof(*e));
	if (!e)
		return -1;
	e->gid = s->gid;
	e->sid = s->sid;
	e->metric = td->metric;
	e->count = td->count;
	e->first_ts = p->ts.tv_sec;
	e->next = *head;
	*head = e;
	return 0;
}

static void host_tag_add(DetectThread *dt, const Signature *s, const DetectTag *td,
			 const Packet *p)
{
	struct TagTable *tt = dt->de->tags;
	const Address *a = td->dir == TAG_DIR_DST ? &p->dst : &p->src;
	uint32_t hash;
	TagHost *h;

	if (!a->family)
		return;
	if (dt->order_fn)
		dt->order_fn(dt->order_arg, p);
	hash = host_key_hash(a);
	pthread_mutex_lock(&tt->lock);
	h = (TagHost *)*host_slot(tt, a, hash);
	if (!h && (h = calloc(1, sizeof(*h)))) {
		h->addr = *a;
		state_hash_link(&tt->sh, &h->node, hash);
		__atomic_add_fetch(&tt->nhosts, 1, __ATOMIC_RELAXED);
	}
	if (h)
		tag_add(&h->tags, s, td, p);
	pthread_mutex_unlock(&tt->lock);
}

void tag_apply(DetectThread *dt, const Signature *s, Packet *p)
{
	const SigMatchList *ml = &s->lists[SM_LIST_POSTMATCH];

	if (!dt->de->tags)
		return;
	for (int i = 0; i < ml->n; i++) {
		const DetectTag *td = ml->m[i].ctx;

		if (ml->m[i].kw != KW_TAG)
			continue;
		if (td->type == TAG_HOST) {
			host_tag_add(dt, s, td, p);
		} else if (p->flow) {
			DetectFlowState *fs = detect_flow_state(dt->de, p->flow, 1);

			if (fs)
				tag_add(&fs->tags, s, td, p);
		}
	}
}

/* Counts p against every tag of one owner; 1 when one of them tags p.
 * Expired tags are unlinked and freed. */
static int tags_walk(TagEntry **head, const Packet *p)
{
	TagEntry **pp = head, *e;
	int tagged = 0;

	while ((e = *pp)) {
		int expired = 0;

		e->packets++;
		e->bytes += p->caplen;
		if (!e->skipped_first) {
			/* the alerting packet: its alert logs it */
			e->skipped_first = 1;
			pp = &e->next;
			continue;
		}
		switch (e->metric) {
		case TAG_PACKETS:
			expired = e->packets > e->count;
			break;
		case TAG_BYTES:
			expired = e->bytes > e->count;
			break;
		case TAG_SECONDS:
			expired = p->ts.tv_sec - e->first_ts > (time_t)e->count;
			break;
		}
		if (expired) {
			*pp = e->next;
			free(e);
			continue;
		}
		tagged = 1;
		pp = &e->next;
	}
	return tagged;
}

/* Caller holds the lock. */
static int host_walk(struct TagTable *tt, const Address *a, const Packet *p)
{
	StateNode **pp;
	TagHost *h;
	int tagged;

	if (!a->family)
		return 0;
	pp = host_slot(tt, a, host_key_hash(a));
	h = (TagHost *)*pp;
	if (!h)
		return 0;
	tagged = tags_walk(&h->tags, p);
	if (!h->tags) {
		state_hash_unlink(&tt->sh, pp);
		free(h);
		__atomic_sub_fetch(&tt->nhosts, 1, __ATOMIC_RELAXED);
	}
	return tagged;
}

int tag_handle_packet(DetectThread *dt, Packet *p)
{
	struct TagTable *tt = dt->de->tags;
	int tagged = 0;

	if (!tt)
		return 0;
	if (p->flow) {
		DetectFlowState *fs = detect_flow_state(dt->de, p->flow, 0);

		if (fs && fs->tags)
			tagged = tags_walk(&fs->tags, p);
	}
	if (!__atomic_load_n(&tt->nhosts, __ATOMIC_RELAXED))
		return tagged;
	if (dt->order_fn)
		dt->order_fn(dt->order_arg, p);
	pthread_mutex_lock(&tt->lock);
	tagged |= host_walk(tt, &p->src, p);
	if (!addr_eq(&p->src, &p->dst))
		tagged |= host_walk(tt, &p->dst, p);
	pthread_mutex_unlock(&tt->lock);
	return tagged;
}

/* The keywords of this family: keywords.c gathers the tables (one line
 * per family). */
const Keyword tag_keywords[] = {
	{ .name = "tag", .id = KW_TAG, .setup = kw_tag, .flags = NEED | SQ, .buf = -1,
	  .desc = "log the packets after an alert (session or host)" },
	{ .name = NULL }
};
