/* TCP session tracking: configuration, counters, memory accounting, the session
 * pool and the per-state packet handling. Reassembly lives in reassembly.c.
 *
 * The state machine follows Suricata's IDS behaviour where tests and traffic see
 * it: a session starts on a SYN (or mid-session with stream.midstream, or on a
 * SYN/ACK with stream.async-oneside), the 3WHS completes on the client's ACK of
 * the SYN/ACK, FINs walk the closing states from the client's view, a valid RST
 * closes. Packets the tracker rejects get an event and STREAM_PKT_INVALID, and
 * their payload stays out of the stream. */
#include "stream/stream-int.h"
#include "conf/conf.h"
#include "util/log.h"
#include "util/mem-peak.h"

#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct stream_counters stream_cnt;
/* counters_generation() of the registration (re-registered after a
 * counters_destroy(): the fuzz harnesses run the engine many times) */
static unsigned counters_registered;

/* ---- events ---- */

static const char *const event_names[SEV_MAX] = {
	[SEV_NONE] = NULL,
	[SEV_3WHS_ACK_DATA_INJECT] = "3whs_ack_data_inject",
	[SEV_3WHS_ACK_IN_WRONG_DIR] = "3whs_ack_in_wrong_dir",
	[SEV_3WHS_ASYNC_WRONG_SEQ] = "3whs_async_wrong_seq",
	[SEV_3WHS_RIGHT_SEQ_WRONG_ACK_EVASION] = "3whs_right_seq_wrong_ack_evasion",
	[SEV_3WHS_SYN_FLOOD] = "3whs_syn_flood",
	[SEV_3WHS_SYN_RESEND_DIFF_SEQ_ON_SYN_RECV] = "3whs_syn_resend_diff_seq_on_syn_recv",
	[SEV_3WHS_SYN_TOCLIENT_ON_SYN_RECV] = "3whs_syn_toclient_on_syn_recv",
	[SEV_3WHS_SYNACK_FLOOD] = "3whs_synack_flood",
	[SEV_3WHS_SYNACK_IN_WRONG_DIRECTION] = "3whs_synack_in_wrong_direction",
	[SEV_3WHS_SYNACK_RESEND_WITH_DIFF_ACK] = "3whs_synack_resend_with_diff_ack",
	[SEV_3WHS_SYNACK_RESEND_WITH_DIFF_SEQ] = "3whs_synack_resend_with_diff_seq",
	[SEV_3WHS_SYNACK_TFO_DATA_IGNORED] = "3whs_synack_tfo_data_ignored",
	[SEV_3WHS_SYNACK_TOSERVER_ON_SYN_RECV] = "3whs_synack_toserver_on_syn_recv",
	[SEV_3WHS_SYNACK_WITH_WRONG_ACK] = "3whs_synack_with_wrong_ack",
	[SEV_3WHS_WRONG_SEQ_WRONG_ACK] = "3whs_wrong_seq_wrong_ack",
	[SEV_4WHS_INVALID_ACK] = "4whs_invalid_ack",
	[SEV_4WHS_SYNACK_WITH_WRONG_ACK] = "4whs_synack_with_wrong_ack",
	[SEV_4WHS_SYNACK_WITH_WRONG_SYN] = "4whs_synack_with_wrong_syn",
	[SEV_4WHS_WRONG_SEQ] = "4whs_wrong_seq",
	[SEV_CLOSEWAIT_ACK_OUT_OF_WINDOW] = "closewait_ack_out_of_window",
	[SEV_CLOSEWAIT_FIN_OUT_OF_WINDOW] = "closewait_fin_out_of_window",
	[SEV_CLOSEWAIT_INVALID_ACK] = "closewait_invalid_ack",
	[SEV_CLOSEWAIT_PKT_BEFORE_LAST_ACK] = "closewait_pkt_before_last_ack",
	[SEV_CLOSING_ACK_WRONG_SEQ] = "closing_ack_wrong_seq",
	[SEV_CLOSING_INVALID_ACK] = "closing_invalid_ack",
	[SEV_EST_ACK_ZWP_DATA] = "est_ack_zwp_data",
	[SEV_EST_INVALID_ACK] = "est_invalid_ack",
	[SEV_EST_PACKET_OUT_OF_WINDOW] = "est_packet_out_of_window",
	[SEV_EST_PKT_BEFORE_LAST_ACK] = "est_pkt_before_last_ack",
	[SEV_EST_SYN_RESEND] = "est_syn_resend",
	[SEV_EST_SYN_RESEND_DIFF_SEQ] = "est_syn_resend_diff_seq",
	[SEV_EST_SYN_TOCLIENT] = "est_syn_toclient",
	[SEV_EST_SYNACK_RESEND] = "est_synack_resend",
	[SEV_EST_SYNACK_RESEND_WITH_DIFF_ACK] = "est_synack_resend_with_diff_ack",
	[SEV_EST_SYNACK_RESEND_WITH_DIFF_SEQ] = "est_synack_resend_with_diff_seq",
	[SEV_EST_SYNACK_TOSERVER] = "est_synack_toserver",
	[SEV_FIN1_ACK_WRONG_SEQ] = "fin1_ack_wrong_seq",
	[SEV_FIN1_FIN_WRONG_SEQ] = "fin1_fin_wrong_seq",
	[SEV_FIN1_INVALID_ACK] = "fin1_invalid_ack",
	[SEV_FIN2_ACK_WRONG_SEQ] = "fin2_ack_wrong_seq",
	[SEV_FIN2_FIN_WRONG_SEQ] = "fin2_fin_wrong_seq",
	[SEV_FIN2_INVALID_ACK] = "fin2_invalid_ack",
	[SEV_FIN_BUT_NO_SESSION] = "fin_but_no_session",
	[SEV_FIN_INVALID_ACK] = "fin_invalid_ack",
	[SEV_FIN_OUT_OF_WINDOW] = "fin_out_of_window",
	[SEV_FIN_SYN] = "fin_syn",
	[SEV_LASTACK_ACK_WRONG_SEQ] = "lastack_ack_wrong_seq",
	[SEV_LASTACK_INVALID_ACK] = "lastack_invalid_ack",
	[SEV_PKT_BAD_WINDOW_UPDATE] = "pkt_bad_window_update",
	[SEV_PKT_BROKEN_ACK] = "pkt_broken_ack",
	[SEV_PKT_INVALID_ACK] = "pkt_invalid_ack",
	[SEV_PKT_INVALID_TIMESTAMP] = "pkt_invalid_timestamp",
	[SEV_PKT_RETRANSMISSION] = "pkt_retransmission",
	[SEV_PKT_SPURIOUS_RETRANSMISSION] = "pkt_spurious_retransmission",
	[SEV_REASSEMBLY_DEPTH_REACHED] = "reassembly_depth_reached",
	[SEV_REASSEMBLY_INSERT_INVALID] = "reassembly_insert_invalid",
	[SEV_REASSEMBLY_INSERT_LIMIT] = "reassembly_insert_limit",
	[SEV_REASSEMBLY_INSERT_MEMCAP] = "reassembly_insert_memcap",
	[SEV_REASSEMBLY_NO_SEGMENT] = "reassembly_no_segment",
	[SEV_REASSEMBLY_OVERLAP_DIFFERENT_DATA] = "reassembly_overlap_different_data",
	[SEV_REASSEMBLY_SEGMENT_BEFORE_BASE_SEQ] = "reassembly_segment_before_base_seq",
	[SEV_REASSEMBLY_SEQ_GAP] = "reassembly_seq_gap",
	[SEV_REASSEMBLY_URGENT_OOB_LIMIT_REACHED] = "reassembly_urgent_oob_limit_reached",
	[SEV_RST_BUT_NO_SESSION] = "rst_but_no_session",
	[SEV_RST_INVALID_ACK] = "rst_invalid_ack",
	[SEV_RST_WITH_DATA] = "rst_with_data",
	[SEV_SHUTDOWN_SYN_RESEND] = "shutdown_syn_resend",
	[SEV_SUSPECTED_RST_INJECT] = "suspected_rst_inject",
	[SEV_TIMEWAIT_ACK_WRONG_SEQ] = "timewait_ack_wrong_seq",
	[SEV_TIMEWAIT_INVALID_ACK] = "timewait_invalid_ack",
	[SEV_WRONG_THREAD] = "wrong_thread",
};

const char *stream_event_name(int ev)
{
	if (ev <= SEV_NONE || ev >= SEV_MAX)
		return NULL;
	return event_names[ev];
}

int stream_event_lookup(const char *name)
{
	int ev;

	if (!name)
		return -1;
	if (strncmp(name, "stream.", 7) == 0)
		name += 7;
	for (ev = SEV_NONE + 1; ev < SEV_MAX; ev++)
		if (strcmp(event_names[ev], name) == 0)
			return ev;
	return -1;
}

/* ---- configuration ---- */

/* stream.reassembly.policy: a host-os-policy OS name, or first / last. */
static int conf_policy(const char *key, enum stream_policy *out)
{
	const char *v = conf_get(key);

	if (!v)
		return 0;
	if (strcasecmp(v, "first") == 0) {
		*out = STREAM_POLICY_FIRST;
		return 1;
	}
	if (strcasecmp(v, "last") == 0) {
		*out = STREAM_POLICY_LAST;
		return 1;
	}
	if (stream_os_policy_name(v, out) == 0)
		return 1;
	log_error("stream: %s: unknown policy \"%s\" (bsd, bsd-right, first, last, linux, "
		  "old-linux, solaris, old-solaris, windows, windows2k3, vista, macos, "
		  "hpux10, hpux11, irix)", key, v);
	return -1;
}

/* stream.reassembly.urgent.*: one of the names of the policies allowed
 * (mask of 1 << enum stream_urgent). Suricata stops on an unknown one. */
static int conf_urgent(const char *key, unsigned allowed, enum stream_urgent *out)
{
	static const char *const names[] = { "inline", "drop", "oob", "gap" };
	const char *v = conf_get(key);

	if (!v)
		return 0;
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if ((allowed & (1u << i)) && strcasecmp(v, names[i]) == 0) {
			*out = (enum stream_urgent)i;
			return 1;
		}
	log_error("stream: %s: invalid value \"%s\" (%s)", key, v,
		  allowed & (1u << STREAM_URGENT_OOB) ? "inline, drop, oob, gap" : "inline, drop, gap");
	return -1;
}

static int conf_size32(const char *key, uint32_t *out)
{
	uint64_t v = *out;
	int r = conf_get_size(key, &v);

	if (r <= 0)
		return r;
	if (v > UINT32_MAX) {
		log_error("stream: %s: too large", key);
		return -1;
	}
	*out = (uint32_t)v;
	return 1;
}

int stream_config_load(StreamConfig *cfg)
{
	int64_t v;
	int rc = 0, r;

	memset(cfg, 0, sizeof(*cfg));
	cfg->memcap = 64ull << 20;
	cfg->reassembly_memcap = 256ull << 20;
	cfg->reassembly_depth = 1ull << 20;
	cfg->toserver_chunk_size = 2560;
	cfg->toclient_chunk_size = 2560;
	cfg->max_synack_queued = 5;
	cfg->max_syn_queued = 10;
	cfg->checksum_validation = 1;
	cfg->policy = STREAM_POLICY_BSD;
	cfg->consumers = STREAM_CONSUMERS_ALL;

	if (conf_get_size("stream.memcap", &cfg->memcap) < 0)
		rc = -1;
	if (conf_get_size("stream.reassembly.memcap", &cfg->reassembly_memcap) < 0)
		rc = -1;
	if (conf_get_size("stream.reassembly.depth", &cfg->reassembly_depth) < 0)
		rc = -1;
	if (conf_size32("stream.reassembly.toserver-chunk-size", &cfg->toserver_chunk_size) < 0)
		rc = -1;
	if (conf_size32("stream.reassembly.toclient-chunk-size", &cfg->toclient_chunk_size) < 0)
		rc = -1;
	if (conf_get_bool("stream.midstream", &cfg->midstream) < 0)
		rc = -1;
	if (conf_get_bool("stream.async-oneside", &cfg->async_oneside) < 0)
		rc = -1;
	if (conf_get_bool("stream.bypass", &cfg->bypass) < 0)
		rc = -1;
	cfg->inline_mode = -1;
	if (conf_get("stream.inline") && strcasecmp(conf_get("stream.inline"), "auto") != 0 &&
	    conf_get_bool("stream.inline", &cfg->inline_mode) < 0)
		rc = -1;
	if (conf_get_bool("stream.checksum-validation", &cfg->checksum_validation) < 0)
		rc = -1;
	r = conf_get_int("stream.max-syn-queued", &v);
	if (r < 0 || (r > 0 && (v < 0 || v > 255))) {
		if (r > 0)
			log_error("stream: stream.max-syn-queued: %lld out of range [0, 255]",
				  (long long)v);
		rc = -1;
	} else if (r > 0) {
		cfg->max_syn_queued = (uint32_t)v;
	}
	r = conf_get_int("stream.max-synack-queued", &v);
	if (r < 0 || (r > 0 && (v < 0 || v > 255))) {
		if (r > 0)
			log_error("stream: stream.max-synack-queued: %lld out of range [0, 255]",
				  (long long)v);
		rc = -1;
	} else if (r > 0) {
		cfg->max_synack_queued = (uint32_t)v;
	}
	/* Our extension: the policy of hosts host-os-policy does not list
	 * (Suricata's is always bsd). */
	if (conf_policy("stream.reassembly.policy", &cfg->policy) < 0)
		rc = -1;
	if (conf_urgent("stream.reassembly.urgent.policy", 0xf, &cfg->urgent) < 0)
		rc = -1;
	/* read only with oob, as Suricata does */
	if (cfg->urgent == STREAM_URGENT_OOB &&
	    conf_urgent("stream.reassembly.urgent.oob-limit-policy",
			0xf & ~(1u << STREAM_URGENT_OOB), &cfg->urgent_oob_limit) < 0)
		rc = -1;
	if (rc == 0) {
		HostOsTable *t;

		if (host_os_table_load(&t) < 0)
			rc = -1;
		cfg->hosts = t;
	}
	stream_mem_set_caps(cfg->memcap, cfg->reassembly_memcap);
	return rc;
}

void stream_config_free(StreamConfig *cfg)
{
	host_os_table_free(cfg->hosts);
	cfg->hosts = NULL;
}

/* ---- counters ---- */

void stream_register_counters(void)
{
	struct stream_counters *c = &stream_cnt;
	char name[96];
	int ev;

	if (counters_registered == counters_generation())
		return;
	counters_registered = counters_generation();
	c->sessions = counter_register("tcp.sessions");
	c->active_sessions = counter_register("tcp.active_sessions");
	c->ssn_memcap_drop = counter_register("tcp.ssn_memcap_drop");
	c->ssn_from_cache = counter_register("tcp.ssn_from_cache");
	c->ssn_from_pool = counter_register("tcp.ssn_from_pool");
	c->pseudo = counter_register("tcp.pseudo");
	c->invalid_checksum = counter_register("tcp.invalid_checksum");
	c->midstream_pickups = counter_register("tcp.midstream_pickups");
	c->pkt_on_wrong_thread = counter_register("tcp.pkt_on_wrong_thread");
	c->ack_unseen_data = counter_register("tcp.ack_unseen_data");
	c->syn = counter_register("tcp.syn");
	c->synack = counter_register("tcp.synack");
	c->rst = counter_register("tcp.rst");
	c->urg = counter_register("tcp.urg");
	c->no_flow = counter_register("tcp.no_flow");
	c->segment_memcap_drop = counter_register("tcp.segment_memcap_drop");
	c->segment_from_cache = counter_register("tcp.segment_from_cache");
	c->segment_from_pool = counter_register("tcp.segment_from_pool");
	c->stream_depth_reached = counter_register("tcp.stream_depth_reached");
	c->reassembly_gap = counter_register("tcp.reassembly_gap");
	c->overlap = counter_register("tcp.overlap");
	c->overlap_diff_data = counter_register("tcp.overlap_diff_data");
	c->memuse = counter_register("tcp.memuse");
	c->reassembly_memuse = counter_register("tcp.reassembly_memuse");
	c->insert_data_normal_fail = counter_register("tcp.insert_data_normal_fail");
	c->insert_data_overlap_fail = counter_register("tcp.insert_data_overlap_fail");
	c->insert_list_fail = counter_register("tcp.insert_list_fail");
	c->urgent_oob_data = counter_register("tcp.urgent_oob_data");
	for (ev = SEV_NONE + 1; ev < SEV_MAX; ev++) {
		snprintf(name, sizeof(name), "stream.%s", event_names[ev]);
		c->ev[ev] = counter_register(name);
	}
	/* Suricata 8 counts each ended TCP session by its last state */
	for (int s = TCP_NONE; s <= TCP_CLOSED; s++) {
		snprintf(name, sizeof(name), "flow.end.tcp_state.%s", tcp_state_name(s));
		c->end_state[s] = counter_register(name);
	}
	/* sessions that ended in liberal tracking (after an exception
	 * policy's pass): this engine never tracks liberally, so 0 */
	c->end_liberal = counter_register("flow.end.tcp_liberal");
}

/* ---- memory ---- */

static uint64_t g_memcap, g_reasm_memcap;
static uint64_t g_memuse, g_reasm_memuse;

void stream_mem_set_caps(uint64_t memcap, uint64_t reassembly_memcap)
{
	__atomic_store_n(&g_memcap, memcap, __ATOMIC_RELAXED);
	__atomic_store_n(&g_reasm_memcap, reassembly_memcap, __ATOMIC_RELAXED);
}

/* memcap-set stream / stream-reassembly: the same atomics every reserve
 * reads, so the new cap holds from the next allocation on. */
void stream_memcap_set(int reassembly, uint64_t cap)
{
	__atomic_store_n(reassembly ? &g_reasm_memcap : &g_memcap, cap, __ATOMIC_RELAXED);
}

uint64_t stream_memcap_get(int reassembly)
{
	return __atomic_load_n(reassembly ? &g_reasm_memcap : &g_memcap, __ATOMIC_RELAXED);
}

/* Optimistic add, undone when it overshoots: threads never lock, and the cap
 * is never exceeded by more than one racing allocation's worth. */
int stream_mem_reserve(int reassembly, uint64_t size)
{
	uint64_t *use = reassembly ? &g_reasm_memuse : &g_memuse;
	uint64_t cap = __atomic_load_n(reassembly ? &g_reasm_memcap : &g_memcap,
				       __ATOMIC_RELAXED);
	uint64_t now = __atomic_add_fetch(use, size, __ATOMIC_RELAXED);

	if (cap && now > cap) {
		__atomic_sub_fetch(use, size, __ATOMIC_RELAXED);
		return 0;
	}
	mem_peak_add(size);
	return 1;
}

void stream_mem_release(int reassembly, uint64_t size)
{
	__atomic_sub_fetch(reassembly ? &g_reasm_memuse : &g_memuse, size, __ATOMIC_RELAXED);
	mem_peak_sub(size);
}

uint64_t stream_memuse(void)
{
	return __atomic_load_n(&g_memuse, __ATOMIC_RELAXED);
}

uint64_t stream_reassembly_memuse(void)
{
	return __atomic_load_n(&g_reasm_memuse, __ATOMIC_RELAXED);
}

/* ---- threads and sessions ---- */

#define SSN_FREE_MAX 1024

StreamThread *stream_thread_new(const StreamConfig *cfg, ThreadCounters *tc)
{
	StreamThread *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->buf_free[0] = calloc(BUF_FREE_MAX, sizeof(uint8_t *));
	st->buf_free[1] = calloc(BUF_FREE_MAX, sizeof(uint8_t *));
	if (!st->buf_free[0] || !st->buf_free[1]) {
		free(st->buf_free[0]);
		free(st->buf_free[1]);
		free(st);
		return NULL;
	}
	st->cfg = cfg;
	st->tc = tc;
	/* every worker shares one cfg: setting the same caps again is harmless,
	 * and it makes a cfg edited after stream_config_load() (tests) count */
	stream_mem_set_caps(cfg->memcap, cfg->reassembly_memcap);
	return st;
}

void stream_thread_free(StreamThread *st)
{
	if (!st)
		return;
	reasm_thread_free(st);
	while (st->ssn_free) {
		TcpSession *ssn = st->ssn_free;

		st->ssn_free = ssn->next_free;
		stream_mem_release(0, sizeof(*ssn));
		counter_sub(st->tc, stream_cnt.memuse, sizeof(*ssn));
		free(ssn);
	}
	free(st->buf_free[0]);
	free(st->buf_free[1]);
	free(st);
}

/* p is the packet that opens the session, in flow direction dir. */
static TcpSession *ssn_alloc(StreamThread *st, const Packet *p, int dir)
{
	TcpSession *ssn = st->ssn_free;

	if (ssn) {
		st->ssn_free = ssn->next_free;
		st->nssn_free--;
		counter_inc(st->tc, stream_cnt.ssn_from_cache);
	} else {
		if (!stream_mem_reserve(0, sizeof(*ssn))) {
			counter_inc(st->tc, stream_cnt.ssn_memcap_drop);
			return NULL;
		}
		ssn = malloc(sizeof(*ssn));
		if (!ssn) {
			stream_mem_release(0, sizeof(*ssn));
			counter_inc(st->tc, stream_cnt.ssn_memcap_drop);
			return NULL;
		}
		counter_add(st->tc, stream_cnt.memuse, sizeof(*ssn));
		counter_inc(st->tc, stream_cnt.ssn_from_pool);
	}
	memset(ssn, 0, sizeof(*ssn));
	ssn->st = st;
	/* each direction overlaps as its receiver would: p's destination
	 * receives dir, p's source the other way (once per session) */
	ssn->s[dir].policy = (uint8_t)stream_host_policy(st->cfg, &p->dst);
	ssn->s[!dir].policy = (uint8_t)stream_host_policy(st->cfg, &p->src);
	counter_inc(st->tc, stream_cnt.sessions);
	counter_inc(st->tc, stream_cnt.active_sessions);
	return ssn;
}

void stream_flow_free(StreamThread *st, Flow *f)
{
	TcpSession *ssn = f ? f->stream : NULL;

	if (!ssn)
		return;
	/* a session is freed when its flow ends: count the state it ended in */
	if (ssn->state <= TCP_CLOSED)
		counter_inc(st->tc, stream_cnt.end_state[ssn->state]);
	reasm_stream_free(st, &ssn->s[0]);
	reasm_stream_free(st, &ssn->s[1]);
	f->stream = NULL;
	counter_sub(st->tc, stream_cnt.active_sessions, 1);
	if (st->nssn_free < SSN_FREE_MAX) {
		ssn->next_free = st->ssn_free;
		st->ssn_free = ssn;
		st->nssn_free++;
		return;
	}
	stream_mem_release(0, sizeof(*ssn));
	counter_sub(st->tc, stream_cnt.memuse, sizeof(*ssn));
	free(ssn);
}

/* ---- sequence space ---- */

/* 64-bit stream offset of seq: seqs within 2^31 of the anchor map exactly,
 * which is what makes sequence wrap-around invisible to reassembly. */
static int64_t seq_off(const TcpStream *s, uint32_t seq)
{
	return (int64_t)s->anchor_off + (int32_t)(seq - s->anchor_seq);
}

static void set_anchor(TcpStream *s, uint32_t seq, int64_t off)
{
	if (off > (int64_t)s->anchor_off) {
		s->anchor_seq = seq;
		s->anchor_off = (uint64_t)off;
	}
}

/* seq0 is the sequence number of the direction's first data byte. */
static void set_base(TcpStream *s, uint32_t seq0)
{
	s->isn = seq0 - 1;
	s->anchor_seq = seq0;
	s->anchor_off = 0;
	s->flags |= TS_HAVE_BASE;
}

static int from_client(const TcpSession *ssn, int dir)
{
	return dir == ssn->client;
}

static void syn_options(TcpStream *s, const Packet *p)
{
	s->win = p->tcp_win;            /* never scaled on a SYN */
	if (p->tcp_wscale != 0xff) {
		s->flags |= TS_WSCALE;
		s->wscale = p->tcp_wscale > 14 ? 14 : p->tcp_wscale;
	}
	if (p->tcp_has_ts) {
		if (!(s->flags & TS_HAS_TS))
			s->syn_ts = p->tcp_tsval;
		s->flags |= TS_HAS_TS;
		s->last_ts = p->tcp_tsval;
	}
}

/* Before the SYN/ACK, whatever the server sends must echo a timestamp the
 * client's SYNs carried, or none: a RST or FIN forged with another echo
 * would close the session for us but not for the client, which drops it
 * (Suricata flags it pkt_invalid_timestamp and ignores it:
 * suricata-verify bug-3286-02/03). A client that sent no timestamps makes
 * any echo invalid. The range covers SYN retransmissions, which the
 * server may answer in any order. */
static int syn_sent_echo_valid(const TcpStream *client, const Packet *p)
{
	if (!p->tcp_has_ts || p->tcp_tsecr == 0)
		return 1;
	if (!(client->flags & TS_HAS_TS))
		return 0;
	return (uint32_t)(p->tcp_tsecr - client->syn_ts) <=
	       (uint32_t)(client->last_ts - client->syn_ts);
}

static int invalid(Packet *p)
{
	p->stream_flags |= STREAM_PKT_INVALID;
	return -1;
}

static int reject(StreamThread *st, Packet *p, enum stream_event ev)
{
	stream_event(st, p, ev);
	return invalid(p);
}

/* ---- session start ---- */

static void track_data(StreamThread *st, TcpSession *ssn, TcpStream *snd, Packet *p,
		       uint32_t seq);

/* TCP Fast Open: a SYN's data is the stream's first bytes; inline it is
 * ready at once, as any data received in order. */
static void track_syn_data(StreamThread *st, TcpSession *ssn, TcpStream *snd, Packet *p,
			   int dir)
{
	track_data(st, ssn, snd, p, p->tcp_seq + 1);
	if (st->cfg->inline_mode > 0 &&
	    reasm_advance(st, ssn, snd, p, reasm_contig_end(snd)))
		p->stream_flags |= dir ? STREAM_PKT_TC_READY : STREAM_PKT_TS_READY;
}

static void pickup(StreamThread *st, TcpSession *ssn, Flow *f, Packet *p)
{
	ssn->flags |= SSN_MIDSTREAM;
	/* one side only may be all we ever see: do not wait for ACKs */
	if (st->cfg->async_oneside)
		ssn->flags |= SSN_ASYNC;
	counter_inc(st->tc, stream_cnt.midstream_pickups);
	/* an allowed pickup is still an exception: with stream.midstream on
	 * the policy may be pass-flow (or what the master switch says) */
	flow_exception(f, p, st->tc, EP_STREAM_MIDSTREAM);
}

/* A packet that would start a session midstream with stream.midstream off:
 * no session, and the midstream policy decides the rest of the flow. */
static TcpSession *midstream_refused(StreamThread *st, Flow *f, Packet *p)
{
	/* under ignore nothing happened that the flow record should name */
	if (ep_policy_of(EP_STREAM_MIDSTREAM) != EP_IGNORE)
		flow_exception(f, p, st->tc, EP_STREAM_MIDSTREAM);
	return NULL;
}

/* No session under stream.memcap (ssn_alloc counted it). */
static TcpSession *ssn_refused(StreamThread *st, Flow *f, Packet *p)
{
	flow_exception(f, p, st->tc, EP_STREAM_MEMCAP);
	return NULL;
}

static TcpSession *session_start(StreamThread *st, Flow *f, Packet *p, int dir)
{
	const StreamConfig *cfg = st->cfg;
	uint8_t fl = p->tcp_flags;
	TcpSession *ssn;

	if (fl & TH_RST) {
		stream_event(st, p, SEV_RST_BUT_NO_SESSION);
		return NULL;
	}
	if ((fl & TH_FIN) && !(fl & TH_SYN) && !cfg->midstream) {
		stream_event(st, p, SEV_FIN_BUT_NO_SESSION);
		return midstream_refused(st, f, p);
	}
	if ((fl & (TH_SYN | TH_ACK)) == (TH_SYN | TH_ACK)) {
		/* SYN/ACK without the SYN: picked up only if configured */
		if (!cfg->midstream && !cfg->async_oneside)
			return midstream_refused(st, f, p);
		if (!(ssn = ssn_alloc(st, p, dir)))
			return ssn_refused(st, f, p);
		ssn->client = (uint8_t)!dir;
		set_base(&ssn->s[dir], p->tcp_seq + 1);
		syn_options(&ssn->s[dir], p);
		set_base(&ssn->s[!dir], p->tcp_ack);
		ssn->state = TCP_SYN_RECV;
		ssn->flags |= SSN_SYNACK_PICKUP;
		pickup(st, ssn, f, p);
		f->stream = ssn;
		return ssn;
	}
	if (fl & TH_SYN) {
		if (!(ssn = ssn_alloc(st, p, dir)))
			return ssn_refused(st, f, p);
		ssn->client = (uint8_t)dir;
		set_base(&ssn->s[dir], p->tcp_seq + 1);
		syn_options(&ssn->s[dir], p);
		ssn->state = TCP_SYN_SENT;
		f->stream = ssn;
		if (p->payload_len)
			track_syn_data(st, ssn, &ssn->s[dir], p, dir);
		return ssn;
	}
	if (!cfg->midstream)
		return midstream_refused(st, f, p);
	/* midstream: the sender is taken as the client, as the flow did */
	if (!(ssn = ssn_alloc(st, p, dir)))
		return ssn_refused(st, f, p);
	ssn->client = (uint8_t)dir;
	set_base(&ssn->s[dir], p->tcp_seq);
	if (fl & TH_ACK)
		set_base(&ssn->s[!dir], p->tcp_ack);
	ssn->state = TCP_ESTABLISHED;
	pickup(st, ssn, f, p);
	f->stream = ssn;
	return ssn;
}

/* ---- per-state handling: 0 = go on and track the packet, -1 = rejected ---- */

static int on_syn_sent(StreamThread *st, TcpSession *ssn, Packet *p, int dir)
{
	TcpStream *snd = &ssn->s[dir], *rcv = &ssn->s[!dir];
	uint8_t fl = p->tcp_flags;

	if (!from_client(ssn, dir) && !syn_sent_echo_valid(rcv, p))
		return reject(st, p, SEV_PKT_INVALID_TIMESTAMP);
	if ((fl & (TH_SYN | TH_ACK)) == (TH_SYN | TH_ACK)) {
		if ((ssn->flags & SSN_4WHS) && from_client(ssn, dir)) {
			/* 4-way handshake: the client's SYN/ACK answers the
			 * server's SYN and repeats the client's own ISN */
			if (p->tcp_ack != rcv->isn + 1)
				return reject(st, p, SEV_4WHS_SYNACK_WITH_WRONG_ACK);
			if (p->tcp_seq != snd->isn)
				return reject(st, p, SEV_4WHS_SYNACK_WITH_WRONG_SYN);
			syn_options(snd, p);
		} else {
			int64_t a = seq_off(rcv, p->tcp_ack);

			if (from_client(ssn, dir))
				return reject(st, p, SEV_3WHS_SYNACK_IN_WRONG_DIRECTION);
			/* TCP Fast Open: the SYN/ACK may acknowledge the data
			 * the SYN carried (or only the SYN: the data comes
			 * again after the handshake). As in Suricata, that
			 * data is ready with the server's next ACK, not here. */
			if (a < 0 || (uint64_t)a > rcv->max_off)
				return reject(st, p, SEV_3WHS_SYNACK_WITH_WRONG_ACK);
			set_base(snd, p->tcp_seq + 1);
			syn_options(snd, p);
		}
		if ((snd->flags & TS_WSCALE) && (rcv->flags & TS_WSCALE))
			ssn->flags |= SSN_WSCALE;
		if ((snd->flags & TS_HAS_TS) && (rcv->flags & TS_HAS_TS))
			ssn->flags |= SSN_TIMESTAMPS;
		ssn->flags |= SSN_WINDOWS;
		ssn->state = TCP_SYN_RECV;
		if (p->payload_len)
			stream_event(st, p, SEV_3WHS_SYNACK_TFO_DATA_IGNORED);
		return 1;       /* nothing more to track on a SYN/ACK */
	}
	if (fl & TH_SYN) {
		if (!from_client(ssn, dir)) {
			/* the server's own SYN (split / 4-way handshake, as
			 * Suricata follows it): the client must SYN/ACK it */
			ssn->flags |= SSN_4WHS;
			set_base(snd, p->tcp_seq + 1);
			syn_options(snd, p);
			return 1;
		}
		if (p->tcp_seq != snd->isn) {
			/* a new ISN: the client restarted the handshake (and
			 * any Fast Open data of the old one is void). Suricata
			 * 8 keeps the SYNs it replaces, up to
			 * stream.max-syn-queued; each one past that is a
			 * 3whs_syn_flood (suricata-verify bug-7657-01). The
			 * newest still leads: its SYN/ACK completes the
			 * handshake. */
			if (ssn->syn_queued < st->cfg->max_syn_queued)
				ssn->syn_queued++;
			else
				stream_event(st, p, SEV_3WHS_SYN_FLOOD);
			snd->flags &= ~(TS_WSCALE | TS_HAS_TS);
			reasm_stream_free(st, snd);
			snd->max_off = 0;
			set_base(snd, p->tcp_seq + 1);
			syn_options(snd, p);
		} else {
			p->stream_flags |= STREAM_PKT_RETRANSMISSION;
			/* the server may echo this copy's timestamp */
			if (p->tcp_has_ts && (snd->flags & TS_HAS_TS) &&
			    (int32_t)(p->tcp_tsval - snd->last_ts) > 0)
				snd->last_ts = p->tcp_tsval;
		}
		if (p->payload_len)
			track_syn_data(st, ssn, snd, p, dir);
		return 1;
	}
	if (fl & TH_RST) {
		/* the client's RST before any answer closes only in the shape
		 * of a reset of its own SYN (seq the ISN, acking it, window 0),
		 * as Suricata takes it; any other is ignored, not an end:
		 * suricata-verify bug-3286-02 goes on to a full session */
		if (from_client(ssn, dir) &&
		    (p->tcp_seq != snd->isn || !(fl & TH_ACK) || p->tcp_ack != snd->isn + 1 ||
		     p->tcp_win != 0))
			return 1;
		return 0;
	}
	if (from_client(ssn, dir) && (fl & TH_ACK) && st->cfg->async_oneside) {
		/* we only see the client: the SYN/ACK went another way */
		if (seq_off(snd, p->tcp_seq) != 0)
			return reject(st, p, SEV_3WHS_ASYNC_WRONG_SEQ);
		set_base(rcv, p->tcp_ack);
		ssn->flags |= SSN_ASYNC;
		ssn->state = TCP_ESTABLISHED;
		return 0;
	}
	return invalid(p);
}

static int on_syn_recv(StreamThread *st, TcpSession *ssn, Packet *p, int dir)
{
	TcpStream *snd = &ssn->s[dir], *rcv = &ssn->s[!dir];
	uint8_t fl = p->tcp_flags;
	int client = from_client(ssn, dir);

	if ((fl & (TH_SYN | TH_ACK)) == (TH_SYN | TH_ACK)) {
		if (ssn->flags & SSN_4WHS) {
			/* the client's SYN/ACK again */
			if (!client || p->tcp_seq != snd->isn)
				return invalid(p);
			p->stream_flags |= STREAM_PKT_RETRANSMISSION;
			return 1;
		}
		if (client)
			return reject(st, p, SEV_3WHS_SYNACK_TOSERVER_ON_SYN_RECV);
		if (p->tcp_seq != snd->isn)
			return reject(st, p, SEV_3WHS_SYNACK_RESEND_WITH_DIFF_SEQ);
		if (seq_off(rcv, p->tcp_ack) != 0)
			return reject(st, p, SEV_3WHS_SYNACK_RESEND_WITH_DIFF_ACK);
		p->stream_flags |= STREAM_PKT_RETRANSMISSION;
		return 1;
	}
	if (fl & TH_SYN) {
		if (!client)
			return reject(st, p, SEV_3WHS_SYN_TOCLIENT_ON_SYN_RECV);
		if ((snd->flags & TS_HAVE_BASE) && p->tcp_seq != snd->isn)
			return reject(st, p, SEV_3WHS_SYN_RESEND_DIFF_SEQ_ON_SYN_RECV);
		p->stream_flags |= STREAM_PKT_RETRANSMISSION;
		return 1;
	}
	if (fl & TH_RST)
		return 0;
	if (ssn->flags & SSN_4WHS) {
		/* 4-way handshake: the server's ACK of the client's SYN/ACK
		 * completes it */
		if (client || !(fl & TH_ACK))
			return invalid(p);
		if (seq_off(snd, p->tcp_seq) != 0)
			return reject(st, p, SEV_4WHS_WRONG_SEQ);
		if (seq_off(rcv, p->tcp_ack) != 0)
			return reject(st, p, SEV_4WHS_INVALID_ACK);
		ssn->state = TCP_ESTABLISHED;
		return 0;
	}
	if (!client) {
		if (st->cfg->async_oneside) {
			/* only the server side is visible */
			ssn->flags |= SSN_ASYNC;
			ssn->state = TCP_ESTABLISHED;
			return 0;
		}
		/* picked up on the SYN/ACK: Suricata follows such a session
		 * from the SYN/ACK sender's side, so that side's ACK ends the
		 * handshake (a server-only capture is then established and
		 * its HTTP detected: suricata-verify stream-async-6063-srv-02) */
		if ((ssn->flags & SSN_SYNACK_PICKUP) && (fl & TH_ACK)) {
			ssn->state = TCP_ESTABLISHED;
			return 0;
		}
		/* IDS: the server goes on from its SYN/ACK and ACKs exactly
		 * the client's SYN, so the client's ACK was missed (or came
		 * before the SYN/ACK): Suricata takes the handshake as done
		 * (suricata-verify issue-4220-01-ids). Inline it stays an
		 * ACK in the wrong direction. */
		if ((fl & TH_ACK) && (snd->flags & TS_HAVE_BASE) &&
		    seq_off(snd, p->tcp_seq) == 0 && seq_off(rcv, p->tcp_ack) == 0) {
			if (st->cfg->inline_mode <= 0) {
				ssn->state = TCP_ESTABLISHED;
				return 0;
			}
			/* inline, data there is what an injection looks like */
			if (p->payload_len)
				return reject(st, p, SEV_3WHS_ACK_DATA_INJECT);
		}
		return reject(st, p, SEV_3WHS_ACK_IN_WRONG_DIR);
	}
	if (!(fl & TH_ACK))
		return invalid(p);
	if (seq_off(rcv, p->tcp_ack) != 0) {
		int64_t so = seq_off(snd, p->tcp_seq);

		return reject(st, p, so == 0 ? SEV_3WHS_RIGHT_SEQ_WRONG_ACK_EVASION
					     : SEV_3WHS_WRONG_SEQ_WRONG_ACK);
	}
	ssn->state = TCP_ESTABLISHED;
	return 0;
}

/* Closing states from the FINs seen and ACKed, named as Suricata names
 * them: from the server's side, the client being its peer. The client's
 * FIN puts the session in CLOSE_WAIT, the server's in FIN_WAIT1 (then
 * FIN_WAIT2 once ACKed); the server's FIN after the client's gives LAST_ACK
 * until the client ACKs it (suricata-verify bug-2646-01: last_ack), and a
 * server-only capture whose server sends a FIN is in fin_wait1
 * (stream-async-6063-srv-02). */
static enum tcp_state closing_state(const TcpSession *ssn)
{
	const TcpStream *c = &ssn->s[!ssn->client], *s = &ssn->s[ssn->client];
	int cf = c->flags & TS_FIN_SEEN, sf = s->flags & TS_FIN_SEEN;
	int ca = cf && c->acked_off > c->fin_off;
	int sa = sf && s->acked_off > s->fin_off;

	if (cf && sf) {
		if (ca && sa)
			return TCP_CLOSED;
		if (ssn->state == TCP_CLOSE_WAIT || ssn->state == TCP_LAST_ACK)
			return TCP_LAST_ACK;
		if (ca)
			return TCP_TIME_WAIT;
		return TCP_CLOSING;
	}
	if (cf)
		return ca ? TCP_FIN_WAIT2 : TCP_FIN_WAIT1;
	if (sf)
		return TCP_CLOSE_WAIT;
	return TCP_ESTABLISHED;
}

static int on_established(StreamThread *st, TcpSession *ssn, Packet *p, int dir)
{
	TcpStream *snd = &ssn->s[dir], *rcv = &ssn->s[!dir];
	uint8_t fl = p->tcp_flags;
	int client = from_client(ssn, dir);

	if ((fl & (TH_SYN | TH_ACK)) == (TH_SYN | TH_ACK)) {
		if (client)
			return reject(st, p, SEV_EST_SYNACK_TOSERVER);
		if (p->tcp_seq != snd->isn)
			return reject(st, p, SEV_EST_SYNACK_RESEND_WITH_DIFF_SEQ);
		if (seq_off(rcv, p->tcp_ack) != 0)
			return reject(st, p, SEV_EST_SYNACK_RESEND_WITH_DIFF_ACK);
		return reject(st, p, SEV_EST_SYNACK_RESEND);
	}
	if (fl & TH_SYN) {
		if (ssn->state > TCP_ESTABLISHED)
			return reject(st, p, SEV_SHUTDOWN_SYN_RESEND);
		if (!client)
			return reject(st, p, SEV_EST_SYN_TOCLIENT);
		if (p->tcp_seq != snd->isn)
			return reject(st, p, SEV_EST_SYN_RESEND_DIFF_SEQ);
		return reject(st, p, SEV_EST_SYN_RESEND);
	}
	if (fl & TH_RST)
		return 0;
	if ((ssn->flags & SSN_WINDOWS) && p->payload_len) {
		int64_t so = seq_off(snd, p->tcp_seq);

		/* starts past what the receiver's window allows: never accepted */
		if (so > (int64_t)(snd->acked_off + rcv->win))
			return reject(st, p, SEV_EST_PACKET_OUT_OF_WINDOW);
	}
	return 0;
}

/* ---- common tracking of an accepted packet ---- */

static int check_timestamp(StreamThread *st, TcpSession *ssn, TcpStream *snd, Packet *p)
{
	if (!(ssn->flags & SSN_TIMESTAMPS) || !p->tcp_has_ts)
		return 0;
	/* PAWS (RFC 7323): an older timestamp than already seen is a stale or
	 * forged segment. A RST is no exception: Suricata validates its
	 * timestamp too (one with tsval 0 after real ones is refused, and the
	 * session stays open: suricata-verify output-eve-anomaly-05) */
	if (snd->last_ts && (int32_t)(p->tcp_tsval - snd->last_ts) < 0)
		return reject(st, p, SEV_PKT_INVALID_TIMESTAMP);
	snd->last_ts = p->tcp_tsval;
	return 0;
}

static int rst_valid(const TcpSession *ssn, const TcpStream *snd, const TcpStream *rcv,
		     const Packet *p)
{
	int64_t so, lo, hi;

	if (!(snd->flags & TS_HAVE_BASE))
		/* e.g. the server's RST answering a SYN: it must ACK the SYN */
		return !(p->tcp_flags & TH_ACK) || seq_off(rcv, p->tcp_ack) == 0;
	so = seq_off(snd, p->tcp_seq);
	lo = (int64_t)snd->acked_off - 1;
	hi = (int64_t)snd->max_off + (rcv->win > 65535 ? rcv->win : 65535);
	(void)ssn;
	return so >= lo && so <= hi;
}

/* The session ends: what is left becomes ready, holes skipped. At a RST
 * (rst set) only the data in order from the last ACK counts past it, as
 * Suricata hands unACKed data to the app layer when a RST closes: a hole
 * there never reached the receiver, nor did what follows it
 * (suricata-verify tcp-rst-unacked-stream-10: the file's digest stops at
 * that hole). The flow's end takes the rest for raw inspection
 * (tcp-rst-unacked-stream-03-gap). */
static void flush_all(StreamThread *st, TcpSession *ssn, Packet *p, int rst)
{
	int d;

	for (d = 0; d < 2; d++) {
		TcpStream *s = &ssn->s[d];
		int adv;

		if (rst) {
			adv = reasm_advance(st, ssn, s, p, s->acked_off);
			adv |= reasm_advance(st, ssn, s, p, reasm_contig_end(s));
		} else {
			adv = reasm_advance(st, ssn, s, p, UINT64_MAX);
		}
		if (adv && p)
			p->stream_flags |= d ? STREAM_PKT_TC_READY : STREAM_PKT_TS_READY;
		s->dir_flags |= STREAM_DIR_EOF;
	}
}

static void track_ack(StreamThread *st, TcpStream *rcv, const Packet *p)
{
	int64_t a;

	if (!(p->tcp_flags & TH_ACK) || !(rcv->flags & TS_HAVE_BASE))
		return;
	a = seq_off(rcv, p->tcp_ack);
	if (a <= (int64_t)rcv->acked_off)
		return;
	/* ACK of bytes the capture never showed us (the FIN takes one seq) */
	if ((uint64_t)a > rcv->max_off + ((rcv->flags & TS_FIN_SEEN) ? 1 : 0))
		counter_inc(st->tc, stream_cnt.ack_unseen_data);
	rcv->acked_off = (uint64_t)a;
	set_anchor(rcv, p->tcp_ack, a);
}

/* seq: of the payload's first byte (a SYN's data follows the SYN's seq) */
static void track_data(StreamThread *st, TcpSession *ssn, TcpStream *snd, Packet *p,
		       uint32_t seq)
{
	const uint8_t *data = p->payload;
	uint32_t len = p->payload_len;
	int64_t so = seq_off(snd, seq);
	uint64_t end;

	p->stream_off = so;

	if (so < 0) {
		/* starts before the first data byte (e.g. on the SYN's seq) */
		if (so + (int64_t)len <= 0) {
			stream_event(st, p, SEV_REASSEMBLY_SEGMENT_BEFORE_BASE_SEQ);
			return;
		}
		data += -so;
		len -= (uint32_t)-so;
		so = 0;
	}
	end = (uint64_t)so + len;
	p->stream_flags |= STREAM_PKT_ADDED;
	if (reasm_insert(st, ssn, snd, p, (uint64_t)so, data, len) == 0) {
		p->stream_flags |= STREAM_PKT_RETRANSMISSION;
		stream_event(st, p, end <= snd->acked_off ? SEV_PKT_SPURIOUS_RETRANSMISSION
							  : SEV_PKT_RETRANSMISSION);
	}
	set_anchor(snd, seq + p->payload_len, (int64_t)end);
}

/* The urgent byte of p (stream.h, enum stream_urgent) under policy oob or
 * gap: the data before it and after it go in as two pieces; oob closes
 * the hole by moving the rest of the stream up one byte. A pointer
 * past the payload names a byte of a later segment, which carries its
 * own pointer: nothing is taken out here. */
static void track_urgent(StreamThread *st, TcpSession *ssn, TcpStream *snd, Packet *p,
			 enum stream_urgent pol)
{
	uint32_t at = (uint32_t)p->tcp_urp - 1;
	int64_t so = seq_off(snd, p->tcp_seq);
	uint64_t end;

	if (pol == STREAM_URGENT_OOB && snd->urg_oob >= STREAM_URG_OOB_MAX) {
		stream_event(st, p, SEV_REASSEMBLY_URGENT_OOB_LIMIT_REACHED);
		pol = st->cfg->urgent_oob_limit;
		if (pol == STREAM_URGENT_DROP) {
			p->drop_reason = PKT_DROP_STREAM_URGENT;
			return;
		}
	}
	if (pol == STREAM_URGENT_INLINE || so < 0) {
		track_data(st, ssn, snd, p, p->tcp_seq);
		return;
	}
	p->stream_off = so;
	p->stream_flags |= STREAM_PKT_ADDED;
	if (at)
		reasm_insert(st, ssn, snd, p, (uint64_t)so, p->payload, at);
	if (pol == STREAM_URGENT_OOB) {
		counter_inc(st->tc, stream_cnt.urgent_oob_data);
		snd->urg_oob++;
		end = (uint64_t)so + p->payload_len - 1;
		if (at + 1u < p->payload_len)
			reasm_insert(st, ssn, snd, p, (uint64_t)so + at, p->payload + at + 1,
				     p->payload_len - at - 1u);
		/* every later seq maps one byte lower: move the anchor there
		 * even when it stood further (its seqs are past the byte) */
		snd->anchor_seq = p->tcp_seq + p->payload_len;
		snd->anchor_off = end;
	} else {
		end = (uint64_t)so + p->payload_len;
		if (at + 1u < p->payload_len)
			reasm_insert(st, ssn, snd, p, (uint64_t)so + at + 1, p->payload + at + 1,
				     p->payload_len - at - 1u);
		set_anchor(snd, p->tcp_seq + p->payload_len, (int64_t)end);
	}
	/* not its payload as is: detection does not take it for the stream's */
	p->stream_flags &= (uint16_t)~STREAM_PKT_STORED_AS_IS;
}

static void track(StreamThread *st, TcpSession *ssn, Packet *p, int dir)
{
	TcpStream *snd = &ssn->s[dir], *rcv = &ssn->s[!dir];
	uint8_t fl = p->tcp_flags;
	int d;

	if (fl & TH_RST) {
		if (!rst_valid(ssn, snd, rcv, p)) {
			invalid(p);
			return;
		}
		if (p->payload_len)
			stream_event(st, p, SEV_RST_WITH_DATA);
		if (ssn->state != TCP_CLOSED) {
			ssn->pstate = ssn->state;
			ssn->rst_from = (uint8_t)(dir + 1);
		}
		ssn->state = TCP_CLOSED;
		flush_all(st, ssn, p, 1);
		return;
	}
	if (!(snd->flags & TS_HAVE_BASE))
		set_base(snd, p->tcp_seq);
	snd->win = (uint32_t)p->tcp_win << ((ssn->flags & SSN_WSCALE) ? snd->wscale : 0);
	track_ack(st, rcv, p);
	if ((fl & TH_URG) && st->cfg->urgent == STREAM_URGENT_DROP) {
		/* dropped: what it carries never reaches the receiver */
		p->drop_reason = PKT_DROP_STREAM_URGENT;
	} else if (p->payload_len) {
		if ((fl & TH_URG) && st->cfg->urgent != STREAM_URGENT_INLINE && p->tcp_urp &&
		    p->tcp_urp <= p->payload_len)
			track_urgent(st, ssn, snd, p, st->cfg->urgent);
		else
			track_data(st, ssn, snd, p, p->tcp_seq);
	}
	if ((fl & TH_FIN) && !(snd->flags & TS_FIN_SEEN)) {
		int64_t fo = seq_off(snd, p->tcp_seq) + p->payload_len;

		snd->fin_off = fo > 0 ? (uint64_t)fo : 0;
		snd->flags |= TS_FIN_SEEN;
	}
	if (ssn->state >= TCP_ESTABLISHED && ssn->state < TCP_CLOSED)
		ssn->state = closing_state(ssn);

	if (ssn->state == TCP_CLOSED) {
		flush_all(st, ssn, p, 0);
		return;
	}
	if (ssn->flags & SSN_ASYNC) {
		/* the other side's ACKs never come: ready as received */
		snd->acked_off = snd->max_off > snd->acked_off ? snd->max_off : snd->acked_off;
	}
	for (d = 0; d < 2; d++) {
		TcpStream *s = &ssn->s[d];
		uint64_t limit = s->acked_off;

		/* inline, ACKs are not waited for (Suricata inspects what it
		 * forwards), but a hole is: the data after it is not in order
		 * yet, and skipping the hole would lose what fills it */
		if (st->cfg->inline_mode > 0 && reasm_contig_end(s) > limit)
			limit = reasm_contig_end(s);
		if (reasm_advance(st, ssn, s, p, limit))
			p->stream_flags |= d ? STREAM_PKT_TC_READY : STREAM_PKT_TS_READY;
		/* the FIN is a sequence byte like the data. In IDS mode a
		 * direction ends for the app layer only when the session
		 * closes (flush_all: both FINs ACKed, or a RST), as Suricata
		 * gives its parsers EOF: a response that ends with the
		 * connection is complete, and logged, at the ACK of the last
		 * FIN (suricata-verify bug-130, smtp-long-command). Inline
		 * and one-sided, where ACKs are not waited for, at the FIN. */
		if ((s->flags & TS_FIN_SEEN) && s->ready_off >= s->fin_off && !s->segs &&
		    (st->cfg->inline_mode > 0 || (ssn->flags & SSN_ASYNC)))
			s->dir_flags |= STREAM_DIR_EOF;
	}
}

static int dispatch(StreamThread *st, TcpSession *ssn, Packet *p, int dir);

/* The RST's sender goes on talking: a host that reset a connection has no
 * more to say on it, so the RST came from someone else (an on-path
 * injector spoofing it). As Suricata does, flag it suspected_rst_inject and
 * take the session back to where the RST found it; the packet is then
 * handled in that state (suricata-verify security-4710-01/02). */
static int rst_injected(StreamThread *st, TcpSession *ssn, Packet *p, int dir)
{
	stream_event(st, p, SEV_SUSPECTED_RST_INJECT);
	ssn->state = ssn->pstate;
	ssn->rst_from = 0;
	ssn->s[0].dir_flags &= (uint8_t)~STREAM_DIR_EOF;
	ssn->s[1].dir_flags &= (uint8_t)~STREAM_DIR_EOF;
	return dispatch(st, ssn, p, dir);
}

static int dispatch(StreamThread *st, TcpSession *ssn, Packet *p, int dir)
{
	switch (ssn->state) {
	case TCP_SYN_SENT:
		return on_syn_sent(st, ssn, p, dir);
	case TCP_SYN_RECV:
		return on_syn_recv(st, ssn, p, dir);
	case TCP_CLOSED:
		if (p->tcp_flags & TH_SYN)
			return reject(st, p, SEV_SHUTDOWN_SYN_RESEND);
		if (ssn->rst_from == dir + 1 && !(p->tcp_flags & TH_RST))
			return rst_injected(st, ssn, p, dir);
		return invalid(p);
	case TCP_NONE:
		return invalid(p);
	default:
		return on_established(st, ssn, p, dir);
	}
}

/* A TCP flow's state is its session's, as Suricata's stream engine sets it:
 * established from the 3WHS's end (or a midstream pickup) through the FIN
 * states, closed from LAST_ACK / TIME_WAIT on; the handshake and a flow
 * without a session stay new (eve flow.state, the flow timeouts). */
static void flow_state_follow(Flow *f, enum tcp_state s)
{
	switch (s) {
	case TCP_ESTABLISHED:
	case TCP_FIN_WAIT1:
	case TCP_FIN_WAIT2:
	case TCP_CLOSING:
	case TCP_CLOSE_WAIT:
		f->state = FLOW_STATE_ESTABLISHED;
		break;
	case TCP_LAST_ACK:
	case TCP_TIME_WAIT:
	case TCP_CLOSED:
		f->state = FLOW_STATE_CLOSED;
		break;
	default:
		break;
	}
}

int stream_handle_packet(StreamThread *st, Flow *f, Packet *p)
{
	TcpSession *ssn;
	uint8_t fl = p->tcp_flags;
	uint8_t old_state;
	int dir, r = 0;

	p->stream_flags = 0;
	if (!PKT_IS_TCP(p))
		return 0;
	if (!f) {
		counter_inc(st->tc, stream_cnt.no_flow);
		return 0;
	}
	if (f->proto != IPPROTO_TCP)
		return 0;
	dir = (p->flags & PKT_TOCLIENT) ? 1 : 0;
	if (st->cfg->checksum_validation && (p->flags & PKT_L4_CSUM_BAD)) {
		/* Suricata keeps such packets out of the session entirely;
		 * detection still sees them, as packets of the flow in its
		 * current state (flow:established holds on an established one) */
		counter_inc(st->tc, stream_cnt.invalid_checksum);
		p->stream_flags |= STREAM_PKT_INVALID;
		ssn = f->stream;
		if (ssn)
			p->stream_flags |= STREAM_PKT_HAS_SESSION;
		if (ssn && ssn->state >= TCP_ESTABLISHED)
			p->stream_flags |= STREAM_PKT_ESTABLISHED | STREAM_PKT_WAS_ESTABLISHED;
		return p->stream_flags;
	}
	if (fl & TH_URG)
		counter_inc(st->tc, stream_cnt.urg);
	if (fl & TH_RST)
		counter_inc(st->tc, stream_cnt.rst);
	if ((fl & (TH_SYN | TH_ACK)) == TH_SYN)
		counter_inc(st->tc, stream_cnt.syn);
	else if ((fl & (TH_SYN | TH_ACK)) == (TH_SYN | TH_ACK))
		counter_inc(st->tc, stream_cnt.synack);
	/* an acknowledgment number without the ACK flag (Wireshark's "broken
	 * TCP"): Suricata flags it on any packet, session or not, and goes on */
	if (!(fl & TH_ACK) && p->tcp_ack != 0)
		stream_event(st, p, SEV_PKT_BROKEN_ACK);

	ssn = f->stream;
	old_state = ssn ? ssn->state : TCP_NONE;
	if (ssn && ssn->state >= TCP_ESTABLISHED)
		p->stream_flags |= STREAM_PKT_WAS_ESTABLISHED;
	if (!ssn) {
		ssn = session_start(st, f, p, dir);
		if (!ssn)
			return p->stream_flags;
		/* the SYN / SYN-ACK that opened it carries nothing to track */
		r = (fl & TH_SYN) ? 1 : 0;
	} else {
		r = check_timestamp(st, ssn, &ssn->s[dir], p);
		if (r == 0)
			r = dispatch(st, ssn, p, dir);
	}
	if (r == 0)
		track(st, ssn, p, dir);

	p->stream_flags |= STREAM_PKT_HAS_SESSION;
	if (ssn->state >= TCP_ESTABLISHED)
		p->stream_flags |= STREAM_PKT_ESTABLISHED;
	if (ssn->flags & SSN_MIDSTREAM)
		p->stream_flags |= STREAM_PKT_MIDSTREAM;
	if (ssn->state == TCP_CLOSED)
		p->stream_flags |= STREAM_PKT_CLOSED;
	if (ssn->state != old_state) {
		p->stream_flags |= STREAM_PKT_STATE_UPDATE;
		ssn->log_pstate = old_state;
	}
	flow_state_follow(f, ssn->state);
	return p->stream_flags;
}

/* seq of stream offset off in s (the inverse of seq_off) */
static uint32_t off_seq(const TcpStream *s, uint64_t off)
{
	return s->anchor_seq + (uint32_t)(off - s->anchor_off);
}

static void dir_view(const TcpStream *s, StreamDirView *v)
{
	const Segment *seg;

	v->isn = s->isn;
	v->next_seq = off_seq(s, s->max_off);
	v->segs_right_edge = v->next_seq;
	v->last_ack = off_seq(s, s->acked_off);
	v->base_seq = off_seq(s, s->ready_off);
	v->window = s->win;
	v->next_win = v->last_ack + s->win;
	v->wscale = (s->flags & TS_WSCALE) ? s->wscale : 0;
	v->has_gap = !!(s->dir_flags & STREAM_DIR_GAP);
	v->depth_reached = !!(s->dir_flags & STREAM_DIR_DEPTH_REACHED);
	v->eof = !!(s->dir_flags & STREAM_DIR_EOF);
	v->timestamp = !!(s->flags & TS_HAS_TS);
	v->seg_cnt = 0;
	for (seg = s->segs; seg; seg = seg->next)
		v->seg_cnt++;
}

int stream_session_view(const Flow *f, StreamSessionView *v)
{
	const TcpSession *ssn = f && f->proto == 6 ? f->stream : NULL;

	if (!ssn)
		return -1;
	v->state = (enum tcp_state)ssn->state;
	v->pstate = (enum tcp_state)ssn->log_pstate;
	v->midstream = !!(ssn->flags & SSN_MIDSTREAM);
	v->async = !!(ssn->flags & SSN_ASYNC);
	v->timestamps = !!(ssn->flags & SSN_TIMESTAMPS);
	v->wscale = !!(ssn->flags & SSN_WSCALE);
	v->fourwhs = !!(ssn->flags & SSN_4WHS);
	v->closed_by_rst = ssn->rst_from != 0;
	dir_view(&ssn->s[0], &v->dir[0]);
	dir_view(&ssn->s[1], &v->dir[1]);
	return 0;
}

void stream_set_depth(Flow *f, uint64_t depth)
{
	TcpSession *ssn = f && f->proto == 6 ? f->stream : NULL;

	if (ssn)
		ssn->depth = depth ? depth : UINT64_MAX;
}

void stream_set_min_inspect_depth(Flow *f, int dir, uint32_t depth)
{
	TcpSession *ssn = f && f->proto == 6 ? f->stream : NULL;

	if (ssn && dir >= 0 && dir < 2)
		ssn->s[dir].min_inspect = depth;
}

uint32_t stream_min_inspect_depth(const Flow *f, int dir)
{
	const TcpSession *ssn = f && f->proto == 6 ? f->stream : NULL;

	if (!ssn || dir < 0 || dir > 1 || ssn->state >= TCP_CLOSED)
		return 0;
	return ssn->s[dir].min_inspect;
}

int stream_is_midstream(const Flow *f)
{
	const TcpSession *ssn = f ? f->stream : NULL;

	return ssn && (ssn->flags & SSN_MIDSTREAM);
}

int stream_is_async(const Flow *f)
{
	const TcpSession *ssn = f ? f->stream : NULL;

	return ssn && (ssn->flags & SSN_ASYNC);
}

void stream_flow_swap(Flow *f, Packet *p)
{
	TcpSession *ssn = f ? f->stream : NULL;
	TcpStream tmp;
	unsigned ts, tc;

	if (!ssn)
		return;
	tmp = ssn->s[0];
	ssn->s[0] = ssn->s[1];
	ssn->s[1] = tmp;
	/* client stays the flow's toserver side: that side is now the TCP
	 * client too, as in Suricata where both flow and session swap */
	if (!p)
		return;
	ts = p->stream_flags & STREAM_PKT_TS_READY;
	tc = p->stream_flags & STREAM_PKT_TC_READY;
	p->stream_flags &= ~(STREAM_PKT_TS_READY | STREAM_PKT_TC_READY);
	if (ts)
		p->stream_flags |= STREAM_PKT_TC_READY;
	if (tc)
		p->stream_flags |= STREAM_PKT_TS_READY;
}

void stream_flow_end(StreamThread *st, Flow *f)
{
	TcpSession *ssn = f ? f->stream : NULL;

	if (ssn)
		flush_all(st, ssn, NULL, 0);
}

int stream_side_size(const Flow *f, int server, uint32_t *out)
{
	const TcpSession *ssn = f ? f->stream : NULL;
	const TcpStream *s;

	if (!ssn)
		return 0;
	s = &ssn->s[server ? !ssn->client : ssn->client];
	*out = 0;
	if (s->flags & TS_HAVE_BASE)
		*out = (uint32_t)(s->max_off + 1 + ((s->flags & TS_FIN_SEEN) ? 1 : 0));
	return 1;
}

enum tcp_state stream_tcp_state(const Flow *f)
{
	const TcpSession *ssn = f ? f->stream : NULL;

	return ssn ? ssn->state : TCP_NONE;
}

const char *tcp_state_name(enum tcp_state s)
{
	static const char *const names[] = {
		[TCP_NONE] = "none",
		[TCP_SYN_SENT] = "syn_sent",
		[TCP_SYN_RECV] = "syn_recv",
		[TCP_ESTABLISHED] = "established",
		[TCP_FIN_WAIT1] = "fin_wait1",
		[TCP_FIN_WAIT2] = "fin_wait2",
		[TCP_TIME_WAIT] = "time_wait",
		[TCP_LAST_ACK] = "last_ack",
		[TCP_CLOSE_WAIT] = "close_wait",
		[TCP_CLOSING] = "closing",
		[TCP_CLOSED] = "closed",
	};

	if ((unsigned)s >= sizeof(names) / sizeof(names[0]))
		return "unknown";
	return names[s];
}

int stream_bypass_due(const StreamThread *st, const Flow *f)
{
	if (!st || !st->cfg->bypass || !f->stream)
		return 0;
	return (stream_dir_flags(f, 0) & STREAM_DIR_DEPTH_REACHED) ||
	       (stream_dir_flags(f, 1) & STREAM_DIR_DEPTH_REACHED);
}
