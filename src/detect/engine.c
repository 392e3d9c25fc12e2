/* Detection engine: its lifecycle (build, free, a reload's hand-over; the
 * build's steps are in build-*.c, see build.h), per-thread scratch, and the
 * per-packet driver (prefilter -> sorted candidates -> full inspection ->
 * alert queue). */
#include "detect/build.h"
#include "app-layer/frames.h"
#include "detect/prefilter-gpu.h"
#include "detect/detect-int.h"
#include "app-layer/app-layer.h"
#include "stream/stream.h"
#include "output/alert.h"
#include "util/log.h"

#include <arpa/inet.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static counter_id c_alert, c_overflow, c_suppressed;
/* counters_generation() of the registration, not a flag: a process that
 * runs the engine again after counters_destroy() (the fuzz harnesses)
 * must register again, or the ids are stale */
static unsigned counters_done;

void detect_register_counters(void)
{
	if (counters_done == counters_generation())
		return;
	c_alert = counter_register("detect.alert");
	c_overflow = counter_register("detect.alert_queue_overflow");
	c_suppressed = counter_register("detect.alerts_suppressed");
	detect_state_register_counters();
	counters_done = counters_generation();
}

static counter_id c_scan[SCAN_MAX][2];
static unsigned scan_counters_done; /* generation, as counters_done */

void detect_scan_counters_register(void)
{
	static const char *const names[SCAN_MAX][2] = {
		{ "mpm.cuda.scan.packet_cpu", "mpm.cuda.scan.packet_gpu" },
		{ "mpm.cuda.scan.stream_cpu", "mpm.cuda.scan.stream_gpu" },
		{ "mpm.cuda.scan.http_cpu", "mpm.cuda.scan.http_gpu" },
	};

	if (scan_counters_done == counters_generation())
		return;
	for (int c = 0; c < SCAN_MAX; c++)
		for (int g = 0; g < 2; g++)
			c_scan[c][g] = counter_register(names[c][g]);
	scan_counters_done = counters_generation();
}

void detect_scan_count_add(DetectThread *dt, int cls, int gpu, uint64_t bytes)
{
	if (scan_counters_done == counters_generation() && bytes)
		counter_add(dt->tc, c_scan[cls][gpu ? 1 : 0], bytes);
}

/* The group of p's class and direction d for p's port on the key side. */
static const SigGroup *pkt_group(const DetectEngine *de, int pc, int d, const Packet *p)
{
	const PortGroups *pg = &de->pg[pc][d];

	if (!pg->map)
		return &pg->g[0];
	return &pg->g[pg->map[pg->side ? p->sp : p->dp]];
}

/* Engines of this process, numbered: DetectEngine.gen. */
static _Atomic uint32_t engine_gen;

DetectEngine *detect_engine_build(SigTable *t, const DetectConfig *cfg, char *err, size_t errlen)
{
	return detect_engine_build_next(t, cfg, NULL, err, errlen);
}

/* The build, step by step (build.h): rule order and names, each rule's
 * properties, the cross-flow tables the rules need, the signature groups,
 * the transaction rules' groups, then threshold.config. */
DetectEngine *detect_engine_build_next(SigTable *t, const DetectConfig *cfg,
				       const DetectEngine *prev, char *err, size_t errlen)
{
	DetectEngine *de = calloc(1, sizeof(*de));
	int n = t->nsigs;

	if (!de)
		return NULL;
	de->t = t;
	de->cfg = *cfg;
	de->gen = atomic_fetch_add(&engine_gen, 1) + 1;
	if (prev && build_names_inherit(de, prev) != 0)
		goto fail;
	de->thr = threshold_table_new(cfg);
	de->sigs = calloc(n ? n : 1, sizeof(*de->sigs));
	if (!de->thr || !de->sigs || build_order(de, t) != 0)
		goto fail;
	for (int i = 0; i < n; i++)
		if (build_sig_setup(de, &de->sigs[i]) != 0)
			goto fail;
	de->nsigs = n;
	if (build_frame_index(de) != 0)
		goto fail;
	if (de->nhb && !(de->hosts = host_table_new(cfg)))
		goto fail;
	if (build_groups(de, err, errlen) != 0 || http_engine_build(de, err, errlen) != 0)
		goto fail;
	build_groups_log(de);
	if (cfg->threshold_file && threshold_config_load(de, cfg->threshold_file, err, errlen) != 0)
		log_warning("threshold-file: %s", err);
	return de;
fail:
	if (!err[0])
		snprintf(err, errlen, "detect: out of memory building the engine");
	detect_engine_free(de);
	return NULL;
}

void detect_engine_free(DetectEngine *de)
{
	if (!de)
		return;
	build_groups_free(de);
	http_engine_free(de);
	build_sigs_free(de);
	build_names_free(de);
	if (!de->lent_hosts)
		host_table_free(de->hosts);
	if (!de->lent_tags)
		tag_table_free(de->tags);
	threshold_table_free(de->thr);
	free(de->sigs);
	free(de);
}

/* The state that crosses flows and does not name the old engine's
 * internals goes on: hostbits (stable ids, see build-order.c), host tags,
 * threshold counts (by gid/sid). Both engines use the tables while the
 * workers move over (they are locked tables); the new one frees them. */
void detect_engine_adopt(DetectEngine *de, DetectEngine *prev)
{
	if (!de || !prev)
		return;
	if (de->hosts && prev->hosts && !prev->lent_hosts) {
		host_table_free(de->hosts);
		de->hosts = prev->hosts;
		prev->lent_hosts = 1;
	}
	if (de->tags && prev->tags && !prev->lent_tags) {
		tag_table_free(de->tags);
		de->tags = prev->tags;
		prev->lent_tags = 1;
	}
	threshold_table_share(de->thr, prev->thr);
}

void detect_engine_reset_state(DetectEngine *de)
{
	if (!de)
		return;
	host_table_clear(de->hosts);
	tag_table_clear(de->tags);
	threshold_table_clear(de->thr);
}

uint32_t detect_engine_gen(const DetectEngine *de)
{
	return de ? de->gen : 0;
}

SigTable *detect_engine_table(const DetectEngine *de)
{
	return de ? de->t : NULL;
}

const DetectConfig *detect_engine_config(const DetectEngine *de)
{
	return &de->cfg;
}

uint32_t detect_engine_sig_count(const DetectEngine *de)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < de->nsigs; i++)
		n++;
	return n;
}

void cand_sort(CandSet *c)
{
	uint32_t *w = c->words;

	/* a handful of words, nearly always: insertion sort */
	for (uint32_t i = 1; i < c->nwords; i++) {
		uint32_t x = w[i], j = i;

		for (; j > 0 && w[j - 1] > x; j--)
			w[j] = w[j - 1];
		w[j] = x;
	}
}

/* ---- threads ---- */

static int group_scratch(DetectThread *dt, const SigGroup *g);

const DetectEngine *detect_thread_engine(const DetectThread *dt)
{
	return dt ? dt->de : NULL;
}

DetectThread *detect_thread_new(const DetectEngine *de, ThreadCounters *tc)
{
	DetectThread *dt = calloc(1, sizeof(*dt));
	if (!dt)
		return NULL;
	dt->de = de;
	dt->tc = tc;
	{
		size_t nw = (de->nsigs + 63) / 64 + 1;

		dt->cand.bits = calloc(nw, sizeof(uint64_t));
		dt->cand.words = calloc(nw, sizeof(uint32_t));
	}
	dt->alerts = calloc(de->cfg.alert_max, sizeof(DetectAlert));
	dt->stream_hit = calloc(de->nsigs ? de->nsigs : 1, sizeof(*dt->stream_hit));
	dt->ms = mpm_matchset_new(de->max_pid ? de->max_pid : 1);
	if (de->gpu) {
		char e[256] = "";

		dt->scov_ids = malloc(SCOV_IDS_MAX * sizeof(*dt->scov_ids));
		/* without it, decompressed bodies are scanned on the CPU */
		dt->gsync = detect_gpu_sync_new(de->gpu, e, sizeof(e));
		if (!dt->gsync && e[0])
			log_warning("ac-cuda: no worker stream (%s): decompressed bodies are "
				    "scanned on the CPU", e);
	}
	dt->md = pcre2_match_data_create(32, NULL);
	/* one MPM scratch per group: Hyperscan sizes scratch by database */
	dt->scratch_g = calloc(de->nscratch ? de->nscratch : 1, sizeof(MpmScratch *));
	if (!dt->scratch_g || (de->gpu && !dt->scov_ids)) {
		detect_thread_free(dt);
		return NULL;
	}
	for (int pc = 0; pc < PC_MAX; pc++)
		for (int d = 0; d < 2; d++) {
			const PortGroups *pg = &de->pg[pc][d];

			for (uint32_t k = 0; k < pg->ng; k++)
				if (group_scratch(dt, &pg->g[k]) != 0) {
					detect_thread_free(dt);
					return NULL;
				}
			/* ac-cuda's class-wide group beside the port groups */
			if (pg->g != &de->groups[pc][d] && de->groups[pc][d].mpm &&
			    group_scratch(dt, &de->groups[pc][d]) != 0) {
				detect_thread_free(dt);
				return NULL;
			}
		}
	if (de->uses_stream && de->cfg.stream_inline) {
		uint32_t c = de->cfg.chunk_size[0] > de->cfg.chunk_size[1] ?
			     de->cfg.chunk_size[0] : de->cfg.chunk_size[1];

		/* a window is at most a chunk, or a packet and a tenth of a chunk */
		dt->win_cap = c + UINT16_MAX + c / 10;
		if (!(dt->win_buf = malloc(dt->win_cap))) {
			detect_thread_free(dt);
			return NULL;
		}
	}
	if (!dt->cand.bits || !dt->cand.words || !dt->alerts || !dt->stream_hit || !dt->ms ||
	    !dt->md || http_thread_init(dt) != 0) {
		detect_thread_free(dt);
		return NULL;
	}
	return dt;
}

static int group_scratch(DetectThread *dt, const SigGroup *g)
{
	if (g->mpm && !(dt->scratch_g[g->sidx] = mpm_scratch_new(g->mpm)))
		return -1;
	if (g->ps && g->ps->mpm && !(dt->scratch_g[g->ps->sidx] = mpm_scratch_new(g->ps->mpm)))
		return -1;
	if (g->ss && g->ss->mpm && !(dt->scratch_g[g->ss->sidx] = mpm_scratch_new(g->ss->mpm)))
		return -1;
	return 0;
}

void detect_thread_set_order(DetectThread *dt, detect_order_fn fn, void *arg)
{
	dt->order_fn = fn;
	dt->order_arg = arg;
}

void detect_thread_free(DetectThread *dt)
{
	if (!dt)
		return;
	http_thread_free(dt);
	free(dt->win_buf);
	free(dt->cand.bits);
	free(dt->cand.words);
	free(dt->alerts);
	free(dt->stream_hit);
	if (dt->ms)
		mpm_matchset_free(dt->ms);
	free(dt->scov_ids);
	ac_cuda_sync_free(dt->gsync);
	if (dt->md)
		pcre2_match_data_free(dt->md);
	for (uint32_t i = 0; dt->scratch_g && i < dt->de->nscratch; i++)
		if (dt->scratch_g[i])
			mpm_scratch_free(dt->scratch_g[i]);
	free(dt->scratch_g);
	free(dt);
}

/* ---- per packet ---- */

static int proto_class(const Packet *p)
{
	switch (p->proto) {
	case IPPROTO_TCP: return PC_TCP;
	case IPPROTO_UDP: return PC_UDP;
	case IPPROTO_ICMP: case IPPROTO_ICMPV6: return PC_ICMP;
	}
	return PC_OTHER;
}

static void queue_alert(DetectThread *dt, const DetectSig *ds, int from_stream)
{
	if (dt->nalerts >= dt->de->cfg.alert_max) {
		counter_inc(dt->tc, c_overflow);
		return;
	}
	dt->alerts[dt->nalerts].s = ds->s;
	dt->alerts[dt->nalerts].num = (uint32_t)(ds - dt->de->sigs);
	dt->alerts[dt->nalerts].action = ds->action;
	dt->alerts[dt->nalerts].from_stream = (uint8_t)from_stream;
	dt->alerts[dt->nalerts].has_tx = (uint8_t)dt->cur_has_tx;
	dt->alerts[dt->nalerts].tx_id = dt->cur_tx;
	dt->alerts[dt->nalerts].data = dt->cur_data;
	dt->alerts[dt->nalerts].data_len = dt->cur_len;
	dt->alerts[dt->nalerts].stream_end = dt->cur_end;
	dt->alerts[dt->nalerts].frame_id = dt->cur_frame;
	dt->alerts[dt->nalerts].frame_dir = (uint8_t)dt->cur_frame_dir;
	dt->nalerts++;
}

/* icmpv4.hdr covers the type's fixed fields, as Suricata sizes it: router
 * advertisements carry their address entries, timestamp and address-mask
 * messages their extra words; the rest is the 8-byte header. */
static uint32_t icmpv4_hdr_len(const Packet *p)
{
	uint32_t avail = (uint32_t)p->l4_hlen + p->payload_len, len = p->l4_hlen;

	switch (p->icmp_type) {
	case 9:
		len = 8 + (uint32_t)p->l4[4] * p->l4[5] * 4;
		break;
	case 13: case 14:
		len = 20;
		break;
	case 17: case 18:
		len = 12;
		break;
	}
	return len > avail ? avail : len;
}

/* The packet header buffers: the bytes of that header when the packet has
 * it; a rule inspecting a header the packet lacks does not match. */
static int hdr_buffer(const Packet *p, int buf, InspectBuffer *b)
{
	b->type = IBUF_PACKET;
	b->data = NULL;
	b->len = 0;
	switch (buf) {
	case BUF_IPV4_HDR:
		if (PKT_IS_IPV4(p) && p->l3) { b->data = p->l3; b->len = p->l3_hlen; }
		break;
	case BUF_IPV6_HDR:
		if (PKT_IS_IPV6(p) && p->l3) { b->data = p->l3; b->len = p->l3_hlen; }
		break;
	case BUF_TCP_HDR:
		if (PKT_IS_TCP(p)) { b->data = p->l4; b->len = p->l4_hlen; }
		break;
	case BUF_UDP_HDR:
		if (PKT_IS_UDP(p)) { b->data = p->l4; b->len = 8; }
		break;
	case BUF_ICMPV4_HDR:
		if (p->proto == IPPROTO_ICMP && p->l4) {
			b->data = p->l4;
			b->len = icmpv4_hdr_len(p);
		}
		break;
	case BUF_ICMPV6_HDR:
		if (p->proto == IPPROTO_ICMPV6 && p->l4) { b->data = p->l4; b->len = p->l4_hlen; }
		break;
	}
	return b->data != NULL;
}

static int inspect_headers(DetectThread *dt, const Signature *s, const Packet *p)
{
	for (int l = BUF_IPV4_HDR; l <= BUF_HDR_LAST; l++) {
		InspectBuffer b;

		if (!s->lists[l].n)
			continue;
		if (!hdr_buffer(p, l, &b) || !inspect_buffer(dt, s, l, &b))
			return 0;
	}
	return 1;
}

/* Returns 1 when the signature matched (whether or not it alerts). */
static int inspect_sig(DetectThread *dt, const DetectSig *ds, Packet *p, int iponly_ok,
		       const InspectBuffer *sb)
{
	const Signature *s = ds->s;
	InspectBuffer b = { p->payload, p->payload_len, IBUF_PACKET };

	if (ds->iponly && !iponly_ok)
		return 0;
	/* tcp-stream rules inspect only the reassembled stream */
	if ((s->flags & SIG_FLAG_TCP_STREAM) && !sb)
		return 0;
	if (ds->need_alproto && (!p->flow || p->flow->app_proto != ds->s->alproto))
		return 0;
	if (ds->has_payload && dt->no_payload)
		return 0;
	if (ds->has_payload) {
		/* A packet whose data went into the stream is inspected there;
		 * its payload alone by the packet rules, and by the stream rules
		 * that are packet rules too when the stream did not match on
		 * this packet (Suricata's fallback) */
		if (sb)
			b = *sb;
		else if (!ds->pkt_ok || (dt->pkt_streamed && !ds->pkt_streamed_ok) ||
			 (ds->stream_ok && dt->stream_hit[ds - dt->de->sigs] == dt->pkt_seq))
			return 0;
	}
	if (!inspect_header(ds, p))
		return 0;
	if (!inspect_match_list(dt, s, p))
		return 0;
	if (ds->has_hdr && !inspect_headers(dt, s, p))
		return 0;
	if (ds->has_payload) {
		if (!inspect_buffer(dt, s, BUF_PAYLOAD, &b))
			return 0;
	}
	return 1;
}

/* Suricata: the pass of an IP-only or app-layer rule passes the whole flow
 * (both directions, every later packet, its stream and transactions):
 * nothing of it is inspected for alerts any more. The pass of a packet or
 * stream rule passes only the packet (the caller stops its rule walk). */
static int flow_passed(const Packet *p)
{
	const DetectFlowState *fs = p->flow ? p->flow->detect : NULL;

	return fs && fs->flow_pass;
}

static void flow_set_pass(const DetectEngine *de, const DetectSig *ds, Packet *p)
{
	DetectFlowState *fs;

	if (!ds->iponly && !ds->has_http && !(ds->s->flags & SIG_FLAG_APPLAYER))
		return;
	if (!p->flow || !(fs = detect_flow_state(de, p->flow, 1)))
		return;
	fs->flow_pass = 1;
}

/* Whether an IPS drop by ds drops the flow as well: Suricata's signature
 * properties (ip-only and app-layer rules act on the flow, packet rules on
 * the packet, stream and packet-and-stream rules on the flow when the match
 * was stateful: on the stream or a transaction). */
static int drop_applies_to_flow(const DetectThread *dt, const DetectSig *ds)
{
	switch (ds->sig_type) {
	case SIG_TYPE_PKT:
		return 0;
	case SIG_TYPE_PKT_STREAM:
	case SIG_TYPE_STREAM:
		/* the data of a session not yet established (a SYN's payload)
		 * is no stream match for Suricata (util-action-tests/04) */
		return (dt->in_stream && dt->pkt_established) || dt->cur_has_tx;
	default:
		return 1;
	}
}

/* IPS: the first drop or reject rule to match decides the packet's verdict
 * (noalert rules too, as Suricata's drop log shows them). */
static void note_drop(DetectThread *dt, const DetectSig *ds)
{
	if (!dt->de->cfg.ips || dt->has_drop ||
	    (ds->action != ALERT_ACTION_DROP && ds->action != ALERT_ACTION_REJECT))
		return;
	dt->has_drop = 1;
	dt->drop_flow = (uint8_t)drop_applies_to_flow(dt, ds);
	dt->drop = (DetectAlert){
		.s = ds->s,
		.num = (uint32_t)(ds - dt->de->sigs),
		.action = ds->action,
		.from_stream = (uint8_t)dt->in_stream,
		.has_tx = (uint8_t)dt->cur_has_tx,
		.tx_id = dt->cur_tx,
		.data = dt->cur_data,
		.data_len = dt->cur_len,
		.stream_end = dt->cur_end,
		.frame_id = dt->cur_frame,
		.frame_dir = (uint8_t)dt->cur_frame_dir,
	};
}

const DetectAlert *detect_packet_drop(const DetectThread *dt, int *flow)
{
	if (flow)
		*flow = dt->has_drop ? dt->drop_flow : 0;
	return dt->has_drop ? &dt->drop : NULL;
}

static void sig_matched(DetectThread *dt, const DetectSig *ds, Packet *p)
{
	DetectEngine *de = (DetectEngine *)dt->de;
	int suppressed = 0;

	/* the pass may have come from this very packet's inspection: its
	 * stream data and transactions are passed too */
	if (flow_passed(p))
		return;
	postmatch_apply(dt, ds->s, p);
	note_drop(dt, ds);
	if (ds->s->flags & SIG_FLAG_NOALERT) {
		if (ds->action == ALERT_ACTION_PASS)
			flow_set_pass(de, ds, p);
		return;
	}
	if (ds->action == ALERT_ACTION_PASS) {
		flow_set_pass(de, ds, p);
		return;
	}
	if (!threshold_check(de, ds, p, &suppressed, dt->order_fn, dt->order_arg, dt->tc)) {
		if (suppressed)
			counter_inc(dt->tc, c_suppressed);
		return;
	}
	tag_apply(dt, ds->s, p);
	queue_alert(dt, ds, dt->in_stream);
}

void detect_sig_matched(DetectThread *dt, const DetectSig *ds, Packet *p)
{
	sig_matched(dt, ds, p);
}

/* Turns p around (addresses, ports, direction flags): stream data and
 * transactions of the other direction are inspected as if p went their way. */
void detect_pkt_swap(Packet *p)
{
	Address a = p->src;
	uint16_t port = p->sp;

	p->src = p->dst;
	p->dst = a;
	p->sp = p->dp;
	p->dp = port;
	if (p->flags & (PKT_TOSERVER | PKT_TOCLIENT))
		p->flags ^= PKT_TOSERVER | PKT_TOCLIENT;
}

#define TH_FIN 0x01
#define TH_SYN 0x02
#define TH_RST 0x04
#define TH_ACK 0x10

/* flow:established as Suricata sees it. TCP: the packet that completes the
 * 3-way handshake is not yet established (the flow's state is read before
 * the stream engine updates it); packets after a RST are not either. Other
 * protocols: once both sides have sent. Updates the tracked TCP state. */
static int flow_established(const DetectEngine *de, DetectFlowState *fs, const Packet *p)
{
	const Flow *f = p->flow;
	int est;

	if (f->proto != IPPROTO_TCP)
		return f->pkts_toserver && f->pkts_toclient;
	/* TCP: the stream engine's view (it knows the handshake, RSTs and
	 * midstream pickups) */
	if (f->stream || (p->stream_flags & STREAM_PKT_HAS_SESSION)) {
		/* as Suricata: the packet that makes the session established
		 * (the handshake's last ACK, a midstream pickup) is not yet */
		int was = fs && fs->tcp_state == TCPS_EST;

		if (!(p->stream_flags & STREAM_PKT_ESTABLISHED))
			return 0;
		if (fs)
			fs->tcp_state = TCPS_EST;
		return was;
	}
	/* no session (midstream pickup off and no handshake seen, or no room
	 * for one): as Suricata's flow engine says of any flow, established
	 * once both sides were seen */
	if (f->pkts_toserver && f->pkts_toclient)
		return 1;
	if (!fs)
		return 0;
	est = fs->tcp_state == TCPS_EST;
	if (p->tcp_flags & TH_RST) {
		fs->tcp_state = TCPS_CLOSED;
		return est;
	}
	switch (fs->tcp_state) {
	case TCPS_NONE:
		if ((p->tcp_flags & (TH_SYN | TH_ACK)) == TH_SYN && (p->flags & PKT_TOSERVER))
			fs->tcp_state = TCPS_SYN;
		else if (de->cfg.midstream && !(p->tcp_flags & TH_SYN))
			fs->tcp_state = TCPS_EST;
		break;
	case TCPS_SYN:
		if ((p->tcp_flags & (TH_SYN | TH_ACK)) == (TH_SYN | TH_ACK) && (p->flags & PKT_TOCLIENT))
			fs->tcp_state = TCPS_SYNACK;
		break;
	case TCPS_SYNACK:
		if ((p->tcp_flags & (TH_SYN | TH_ACK)) == TH_ACK && (p->flags & PKT_TOSERVER))
			fs->tcp_state = TCPS_EST;
		break;
	}
	return est;
}

/* ac-cuda: the ticket holds this very payload's matches (the flow-end
 * pseudo packet, or a payload changed since RX copied it, is scanned here). */
static int gpu_payload_ready(const DetectThread *dt, const Packet *p)
{
	const DetectGpuTicket *gt = dt->gpu_src;

	return gt && gt->g && gt->p == p && gt->payload == p->payload &&
	       gt->len == p->payload_len;
}

/* ac-cuda: a packet whose bytes went into the stream may have rewritten
 * stored bytes: what earlier packets recorded there is void. Then, when the
 * stream holds its bytes as the GPU scanned them, it records what the GPU
 * found in them. */
static void gpu_stream_cover(DetectThread *dt, Packet *p, DetectFlowState *fs, int d)
{
	int64_t so = p->stream_off;

	if (!dt->de->gpu)
		return;
	/* only an overlap with other bytes can change stored bytes: new bytes
	 * fill what no entry scanned, and equal ones change nothing */
	if (fs->scov[d] && (p->stream_flags & STREAM_PKT_OVERLAP_DIFF))
		scov_invalidate(fs->scov[d], so > 0 ? (uint64_t)so : 0,
				so + p->payload_len > 0 ? (uint64_t)(so + p->payload_len) : 0);
	if (gpu_payload_ready(dt, p))
		detect_gpu_stream_cover(dt->gpu_src, p->flow, d, dt->scov_ids, SCOV_IDS_MAX,
					&fs->scov[d]);
}

/* ---- raw stream ---- */

/* One window of reassembled data of direction d (p already faces d), from
 * where the last inspection of that direction ended: as Suricata's raw
 * stream chunks, windows do not overlap, and anchored content (depth,
 * offset) is anchored at the window's start. */
/* ac-cuda: a window's match set from the GPU scans of its packets
 * (stream-cov.h), the ends no packet covers scanned here. */
void detect_cov_ids(void *arg, const uint32_t *ids, uint32_t n)
{
	CovArg *a = arg;

	for (uint32_t i = 0; i < n; i++)
		if (ids[i] >= a->lo && ids[i] < a->hi)
			mpm_matchset_add(a->dt->ms, ids[i] - a->lo);
}

void detect_cov_cpu(void *arg, uint64_t from, uint64_t to)
{
	CovArg *a = arg;

	mpm_prefilter(a->mpm, a->sc, a->data + (from - a->base), (uint32_t)(to - from), a->dt->ms);
}

static void stream_window_mpm(DetectThread *dt, const SigGroup *g, const uint8_t *data,
			      uint32_t len, int d, uint64_t base, const DetectFlowState *fs)
{
	MpmScratch *sc = dt->scratch_g[g->sidx];
	uint64_t cpu;

	if (!dt->de->gpu) {
		mpm_prefilter(g->mpm, sc, data, len, dt->ms);
		return;
	}
	CovArg a = { .dt = dt, .mpm = g->mpm, .sc = sc, .data = data, .base = base };

	detect_gpu_sv_range(dt->de->gpu, GPU_SV_STREAM_TS + d, &a.lo, &a.hi);
	cpu = scov_window(fs ? fs->scov[d] : NULL, base, len,
			  detect_gpu_stream_maxlen(dt->de->gpu), detect_cov_ids, detect_cov_cpu, &a);
	detect_scan_count(dt, SCAN_STREAM, 0, cpu);
	detect_scan_count(dt, SCAN_STREAM, 1, len - cpu);
}

static void stream_window(DetectThread *dt, Packet *p, const uint8_t *data, uint32_t len,
			  int d, uint64_t base, const DetectFlowState *fs)
{
	const DetectEngine *de = dt->de;
	/* ac-cuda: the class-wide group, whose ids the stream view holds */
	const SigGroup *pg = de->gpu ? &de->groups[PC_TCP][d] : pkt_group(de, PC_TCP, d, p);
	const SigGroup *g = pg->ss ? pg->ss : pg;
	CandSet *cs = &dt->cand;
	InspectBuffer sb = { data, len, IBUF_STREAM };

	if (g->mpm && dt->scratch_g[g->sidx]) {
		const uint32_t *ids;
		uint32_t n;

		mpm_matchset_clear(dt->ms);
		stream_window_mpm(dt, g, data, len, d, base, fs);
		n = mpm_matchset_count(dt->ms);
		ids = mpm_matchset_ids(dt->ms);
		for (uint32_t i = 0; i < n; i++)
			for (uint32_t k = g->pid_off[ids[i]]; k < g->pid_off[ids[i] + 1]; k++) {
				uint32_t num = g->pid_sigs[k];

				if (!de->sigs[num].stream_ok)
					continue;
				cand_mark(cs, num);
			}
	}
	for (uint32_t i = 0; i < pg->nalways; i++) {
		uint32_t num = pg->always[i].num;

		if (!de->sigs[num].stream_ok)
			continue;
		cand_mark(cs, num);
	}
	if (!cs->nwords)
		return;
	dt->in_stream = 1;
	cand_sort(cs);
	for (uint32_t k = 0; k < cs->nwords; k++) {
		uint32_t w = cs->words[k];
		uint64_t word = cand_take(cs, k);

		while (word) {
			uint32_t num = (w << 6) | (uint32_t)__builtin_ctzll(word);
			const DetectSig *ds = &de->sigs[num];

			word &= word - 1;
			if (!inspect_sig(dt, ds, p, 1, &sb))
				continue;
			dt->stream_hit[num] = dt->pkt_seq;
			dt->cur_data = data;
			dt->cur_len = len;
			sig_matched(dt, ds, p);
			dt->cur_data = NULL;
			dt->cur_len = 0;
		}
	}
	cand_done(cs, cs->nwords);
	dt->in_stream = 0;
}

/* Whether the stream data of p's direction is inspected on p (IDS), as
 * Suricata limits raw stream inspection: once a chunk of it is ready
 * (stream.reassembly.to*-chunk-size of ACKed data not yet inspected), on
 * a FIN or RST of that direction, once the direction ended or the session
 * closed, past the reassembly depth, and at the flow's end (eof). Until
 * then a stream rule that is a packet rule too sees the packets alone. */
static int stream_due(const DetectEngine *de, const Packet *p, int d, uint64_t ready,
		      uint64_t off, int eof)
{
	const Flow *f = p->flow;

	if (eof || (p->tcp_flags & (TH_FIN | TH_RST)) || (f->raw_trigger & (1u << d)))
		return 1;
	if (stream_dir_flags(f, d) & (STREAM_DIR_EOF | STREAM_DIR_DEPTH_REACHED))
		return 1;
	if (stream_tcp_state(f) == TCP_CLOSED)
		return 1;
	return ready - off >= de->cfg.chunk_size[d];
}

/* Inspects the stream data of p's direction that became ready since the
 * last time, when it is due (stream_due; eof: the flow-end pseudo packet
 * of that direction), after letting the stream engine drop what the last
 * inspection's alerts logged. */
static void stream_inspect(DetectThread *dt, Packet *p, DetectFlowState *fs, int eof)
{
	const DetectEngine *de = dt->de;
	Flow *f = p->flow;
	int d = (p->flags & PKT_TOCLIENT) ? 1 : 0;
	uint64_t ready, off, from;
	const uint8_t *data;
	uint32_t len;
	uint64_t base;

	/* what the last packet's alerts needed for their payload */
	for (int k = 0; k < 2; k++)
		stream_release(f, k, STREAM_CONSUMER_RAW, fs->raw_rel[k]);
	ready = stream_ready_offset(f, d);
	off = fs->raw_off[d];
	if (ready <= off || !stream_due(de, p, d, ready, off, eof))
		return;
	f->raw_trigger &= (uint8_t)~(1u << d);
	from = off;
	while (from < ready && stream_get_data(f, d, from, &data, &len, &base)) {
		/* alerts log the stream up to what this inspection
		 * reached, as Suricata */
		dt->cur_end = ready;
		stream_window(dt, p, data, len, d, base, fs);
		from = base + len;
	}
	dt->cur_end = 0;
	fs->raw_off[d] = ready;
	fs->raw_rel[d] = ready;
	/* later windows start at raw_rel: their ends lie above it */
	if (fs->scov[d])
		scov_prune(fs->scov[d], fs->raw_rel[d]);
}

/* Inline mode (IPS): a packet's stream data is inspected at once, in the
 * window of stored stream bytes around it (Suricata's sliding window, ACKed
 * or not); when its bytes are not all stored, its payload alone is the
 * window. Windows overlap, so as in Suricata a match may alert again on a
 * later packet whose window still holds it. */
static void inline_window(DetectThread *dt, Packet *p, InspectBuffer *sb)
{
	int d = (p->flags & PKT_TOCLIENT) ? 1 : 0;
	uint64_t base;
	uint32_t len;

	len = stream_inline_window(p->flow, d, p, dt->de->cfg.chunk_size[d], dt->win_buf,
				   dt->win_cap, &base);
	sb->type = IBUF_STREAM;
	sb->data = len ? dt->win_buf : p->payload;
	sb->len = len ? len : p->payload_len;
	dt->inline_end = len ? base + len : 0;
}

/* Inline mode: stream bytes more than two chunks behind the ready offset are
 * outside any future window (a packet's window reaches one chunk back). */
static void inline_release(DetectThread *dt, Packet *p)
{
	int d = (p->flags & PKT_TOCLIENT) ? 1 : 0;
	uint64_t ready = stream_ready_offset(p->flow, d), keep = 2ull * dt->de->cfg.chunk_size[d];

	stream_release(p->flow, d, STREAM_CONSUMER_RAW, ready > keep ? ready - keep : 0);
}

/* The candidates of pattern pid of group mg that p's ports allow. The
 * GPU's ids are the class-wide group's: on a streamed packet
 * (streamed_whole) only the rules of g->ps are kept, as ac scans g->ps. */
static inline void mark_pid(const DetectEngine *de, CandSet *cs, const SigGroup *mg,
			    uint32_t pid, const Packet *p, int streamed_whole)
{
	for (uint32_t k = mg->pid_off[pid]; k < mg->pid_off[pid + 1]; k++) {
		uint32_t num = mg->pid_sigs[k];
		const uint16_t *h = mg->pid_ports[k];

		if (p->sp < h[0] || p->sp > h[1] || p->dp < h[2] || p->dp > h[3])
			continue;
		if (streamed_whole && !de->sigs[num].pkt_streamed_ok)
			continue;
		cand_mark(cs, num);
	}
}

/* A new packet for stream_hit: no rule has matched its stream yet. */
static void stream_hit_next(DetectThread *dt)
{
	if (++dt->pkt_seq == 0) {
		memset(dt->stream_hit, 0, dt->de->nsigs * sizeof(*dt->stream_hit));
		dt->pkt_seq = 1;
	}
}

/* Suricata orders a packet's alerts by rule (internal order), a
 * transaction's before a later one's; the queue holds them in the order
 * the passes found them (stream, packet, transactions). */
static void alerts_sort(DetectAlert *a, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++) {
		DetectAlert x = a[i];
		uint32_t j = i;

		for (; j > 0 && (a[j - 1].num > x.num ||
				 (a[j - 1].num == x.num && a[j - 1].has_tx && x.has_tx &&
				  a[j - 1].tx_id > x.tx_id)); j--)
			a[j] = a[j - 1];
		a[j] = x;
	}
}

uint32_t detect_packet(DetectThread *dt, Packet *p, const DetectAlert **alerts)
{
	const DetectEngine *de = dt->de;
	int pc = proto_class(p), dir = (p->flags & PKT_TOCLIENT) ? 1 : 0;
	const SigGroup *g = pkt_group(de, pc, dir, p), *mg;
	CandSet *cs = &dt->cand;
	uint32_t have, wk = 0;
	int iponly_ok = 1;
	DetectFlowState *fs = NULL;
	InspectBuffer sb, *sbp = NULL;
	const uint8_t *pf_data = p->payload;
	uint32_t pf_len = p->payload_len;
	int gpu = 0, ids_stream, raw_flush;

	dt->nalerts = 0;
	*alerts = dt->alerts;
	dt->pkt_tagged = 0;
	dt->has_drop = 0;
	if (!de->nsigs || flow_passed(p))
		return 0;
	stream_hit_next(dt);
	dt->pkt_established = 0;
	if (p->flow) {
		/* UDP flows with transactions (DNS) need it for those too */
		if (p->flow->proto == IPPROTO_TCP || de->have_iponly ||
		    (de->nhttp && app_layer_has_txs(p->flow)))
			fs = detect_flow_state(de, p->flow, 1);
		if (fs && (fs->iponly_done & (1u << dir)))
			iponly_ok = 0;
		dt->pkt_established = flow_established(de, fs, p);
	}
	dt->pkt_streamed = 0;
	if (p->flow && de->uses_stream && p->payload_len &&
	    (p->stream_flags & STREAM_PKT_ADDED) &&
	    !(p->stream_flags & (STREAM_PKT_INVALID | STREAM_PKT_DEPTH_REACHED)) &&
	    !(p->tcp_flags & TH_RST)) {
		/* retransmissions too: their bytes were inspected as stream data */
		dt->pkt_streamed = 1;
	}
	/* SSH after NEWKEYS, TLS after its first application data: ciphertext,
	 * not inspected (Suricata's no-inspection-payload). As in Suricata a
	 * packet is inspected as its flow stood before its own data was
	 * parsed: the one whose data ended the cleartext still is (TLS: with
	 * the rest of its direction's raw stream, at once, as Suricata's last
	 * raw flush), the packets after it are not. */
	raw_flush = 0;
	if (p->flow && p->flow->alstate && app_layer_flow_no_inspection(p->flow)) {
		dt->no_payload = !fs || fs->payload_off;
		if (fs && !fs->payload_off) {
			fs->payload_off = 1;
			raw_flush = app_layer_flow_no_inspection_flush(p->flow);
		}
	} else {
		dt->no_payload = 0;
	}
	if (de->gpu && fs && (p->stream_flags & STREAM_PKT_ADDED) && !de->cfg.stream_inline)
		gpu_stream_cover(dt, p, fs, dir);
	/* IDS: the stream data of p's direction that became ready first, so
	 * that a rule that matched there skips the packet's payload (ac-cuda:
	 * after the body ids are taken, as the stream is pruned) */
	/* IDS raw stream inspection on this packet (inline: the window below) */
	/* TCP packets only: an ICMP error joined to a TCP flow (flow.h) is
	 * inspected as itself, not as the flow's stream */
	ids_stream = p->proto == IPPROTO_TCP && fs && p->flow->stream && de->uses_stream &&
		     !de->cfg.stream_inline &&
		     !dt->no_payload;
	if (fs)
		fs->raw_tx[dir] = fs->raw_off[dir];
	if (ids_stream) {
		if (de->gpu && app_layer_has_txs(p->flow))
			tx_gpu_harvest(dt, p->flow, fs);
		stream_inspect(dt, p, fs, raw_flush);
	}
	/* prefilter: the group's MPM on the payload; a streamed payload only
	 * with the patterns of the rules that still inspect it. Inline, the
	 * window holds the payload: one pass with the whole group serves the
	 * packet rules and the stream rules. */
	mg = g;
	if (dt->pkt_streamed && de->cfg.stream_inline && p->flow->stream) {
		inline_window(dt, p, &sb);
		sbp = &sb;
		pf_data = sb.data;
		pf_len = sb.len;
	} else if (de->gpu && gpu_payload_ready(dt, p)) {
		/* ac-cuda: the ids are the class-wide group's (the GPU scanned
		 * with its union); the port group g still gives the always list */
		gpu = 1;
		mg = &de->groups[pc][dir];
	} else if (dt->pkt_streamed && g->ps) {
		mg = g->ps;
	}
	if (dt->no_payload)
		pf_len = 0;
	if (mg->mpm && pf_len) {
		MpmScratch *sc = dt->scratch_g[mg->sidx];

		if (sc) {
			const uint32_t *ids = NULL;
			uint32_t n, lo = 0, hi = 0;
			int streamed_whole = 0, ranged = 0;

			if (gpu) {
				/* the device gives each id once: no match set */
				ids = detect_gpu_packet_ids(dt->gpu_src, pc, dir, &n, &lo, &hi);
				ranged = 1;
				detect_scan_count(dt, SCAN_PACKET, 1, pf_len);
				streamed_whole = dt->pkt_streamed && mg->ps;
			} else {
				detect_scan_count(dt, SCAN_PACKET, 0, pf_len);
			}
			if (!ids) {
				/* the CPU's scan, or the device's rescan on the CPU:
				 * group pids already */
				mpm_matchset_clear(dt->ms);
				if (gpu)
					detect_gpu_prefilter(dt->gpu_src, pc, dir, dt->ms);
				else
					mpm_prefilter(mg->mpm, sc, pf_data, pf_len, dt->ms);
				n = mpm_matchset_count(dt->ms);
				ids = mpm_matchset_ids(dt->ms);
				ranged = 0;
			}
			if (!ranged) {
				for (uint32_t i = 0; i < n; i++)
					mark_pid(de, cs, mg, ids[i], p, streamed_whole);
			} else {
				/* the device's array holds both directions' ids */
				for (uint32_t i = 0; i < n; i++)
					if (ids[i] >= lo && ids[i] < hi)
						mark_pid(de, cs, mg, ids[i] - lo, p, streamed_whole);
			}
		}
	}
	have = precheck_packet_bits(p);
	/* gate 0, then the gates of the flags the packet has */
	for (uint32_t gates = always_gates_walked(p); gates; gates &= gates - 1) {
		uint32_t gate = (uint32_t)__builtin_ctz(gates);

		for (uint32_t i = g->always_at[gate]; i < g->always_at[gate + 1]; i++) {
			const SigPrecheck *c = &g->always[i];

			if ((c->iponly && !iponly_ok) || !precheck_pass(c, have, p))
				continue;
			cand_mark(cs, c->num);
		}
	}
	if (!cs->nwords)
		goto done;
	/* candidates in internal order */
	cand_sort(cs);
	for (wk = 0; wk < cs->nwords; wk++) {
		uint32_t w = cs->words[wk];
		uint64_t word = cand_take(cs, wk);

		while (word) {
			uint32_t num = (w << 6) | (uint32_t)__builtin_ctzll(word);
			const DetectSig *ds = &de->sigs[num];

			word &= word - 1;
			if (sbp && ds->stream_ok) {
				/* inline: a stream rule sees the window, in rule
				 * order with the packet rules (flowbits) */
				int m;

				dt->in_stream = 1;
				m = inspect_sig(dt, ds, p, iponly_ok, sbp);
				if (m) {
					dt->cur_data = sbp->data;
					dt->cur_len = sbp->len;
					dt->cur_end = dt->inline_end;
					sig_matched(dt, ds, p);
					dt->cur_data = NULL;
					dt->cur_len = 0;
					dt->cur_end = 0;
				}
				dt->in_stream = 0;
				/* no match in the window: a packet rule too tries
				 * the payload alone (its anchors are the packet's) */
				if (!m && ds->pkt_streamed_ok &&
				    (m = inspect_sig(dt, ds, p, iponly_ok, NULL)))
					sig_matched(dt, ds, p);
				if (!m)
					continue;
			} else {
				if (!inspect_sig(dt, ds, p, iponly_ok, NULL))
					continue;
				sig_matched(dt, ds, p);
			}
			if (ds->action == ALERT_ACTION_PASS) {
				/* pass: no further rule may alert on this packet */
				wk++;
				goto done;
			}
		}
	}
done:
	cand_done(cs, wk);
	if (fs)
		fs->iponly_done |= (uint8_t)(1u << dir);
	if (de->gpu && fs && app_layer_has_txs(p->flow) && !ids_stream)
		tx_gpu_harvest(dt, p->flow, fs);   /* else taken before the stream pass */
	if (fs && p->flow->stream && de->uses_stream && de->cfg.stream_inline)
		inline_release(dt, p);
	if (fs && app_layer_has_txs(p->flow))
		tx_inspect_flow(dt, p, fs, 0);
	if (de->nframe && p->flow)
		detect_frames_inspect(dt, p, 0);
	dt->pkt_tagged = tag_handle_packet(dt, p);
	if (dt->nalerts) {
		alerts_sort(dt->alerts, dt->nalerts);
		counter_add(dt->tc, c_alert, dt->nalerts);
	}
	return dt->nalerts;
}

int detect_packet_tagged(const DetectThread *dt)
{
	return dt->pkt_tagged;
}

uint32_t detect_flow_flush(DetectThread *dt, Packet *p, const DetectAlert **alerts)
{
	const DetectEngine *de = dt->de;
	DetectFlowState *fs;

	dt->nalerts = 0;
	*alerts = dt->alerts;
	if (!de->nsigs || !p->flow || flow_passed(p))
		return 0;
	fs = detect_flow_state(de, p->flow, 1);
	if (!fs)
		return 0;
	dt->pkt_established = flow_established(de, fs, p);
	dt->pkt_streamed = 0;
	/* ciphertext the protocol gave up (SSH, TLS): its stream bytes not
	 * inspected yet stay so, as Suricata's raw reassembly stops there */
	dt->no_payload = p->flow->alstate && app_layer_flow_no_inspection(p->flow);
	stream_hit_next(dt);
	if (de->gpu && app_layer_has_txs(p->flow))
		tx_gpu_harvest(dt, p->flow, fs);
	fs->raw_tx[(p->flags & PKT_TOCLIENT) ? 1 : 0] = fs->raw_off[(p->flags & PKT_TOCLIENT) ? 1 : 0];
	/* inline: every byte was inspected with the packet that brought it */
	if (p->flow->stream && de->uses_stream && !de->cfg.stream_inline && !dt->no_payload)
		stream_inspect(dt, p, fs, 1);
	if (app_layer_has_txs(p->flow))
		tx_inspect_flow(dt, p, fs, 1);
	if (de->nframe)
		detect_frames_inspect(dt, p, 1);
	if (dt->nalerts) {
		alerts_sort(dt->alerts, dt->nalerts);
		counter_add(dt->tc, c_alert, dt->nalerts);
	}
	return dt->nalerts;
}

int detect_engine_uses_stream(const DetectEngine *de)
{
	return de->uses_stream;
}

int detect_engine_uses_frames(const DetectEngine *de)
{
	return de && de->nframe;
}

int detect_engine_uses_stream_frames(const DetectEngine *de)
{
	for (uint32_t k = 0; de && k < de->nframe; k++)
		if (de->sigs[de->frame_sigs[k]].s->frame_type == APP_FRAME_TYPE_STREAM)
			return 1;
	return 0;
}

void detect_alert_info(const DetectEngine *de, const Packet *p, const DetectAlert *a,
		       AlertInfo *ai)
{
	const Signature *s = a->s;
	const DetectSig *ds = a->num < de->nsigs ? &de->sigs[a->num] : NULL;

	memset(ai, 0, sizeof(*ai));
	ai->action = a->action;
	ai->gid = s->gid;
	ai->sid = s->sid;
	ai->rev = s->rev;
	ai->msg = s->msg;
	ai->class_name = s->classtype;
	ai->priority = s->priority;
	ai->from_stream = a->from_stream;
	ai->payload = p->payload;
	ai->payload_len = p->payload_len;
	if (a->data) {
		ai->payload = a->data;
		ai->payload_len = a->data_len;
		ai->stream_end = a->stream_end;
	}
	ai->has_tx = a->has_tx;
	ai->tx_id = a->tx_id;
	ai->frame_id = a->frame_id;
	ai->frame_dir = a->frame_dir;
	if (ds) {
		ai->class_desc = ds->class_desc;
		ai->metadata = ds->metadata;
		ai->n_metadata = ds->nmeta;
	}
}
