/* Application layer: configuration, counters, protocol detection and the
 * dispatch of stream bytes to the protocol's parser, and the generic
 * transaction calls, all through the registry (registry.c): this file names
 * no protocol. Each protocol's probes, config and parser are its own
 * (http-proto.c, http.c).
 *
 * Detection asks every enabled protocol of the flow's IP protocol, in
 * registry order: the first to say yes wins; while one says "more" the
 * bytes are held (up to detect_max_bytes). */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/app-mem.h"
#include "app-layer/expect.h"
#include "app-layer/http.h"
#include "conf/conf.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

AppLayerCounters app_layer_counters;
int app_layer_counters_registered;

/* After a successful CONNECT, Suricata detects the protocol again on what the
 * tunnel carries: the tunnel's own protocol (HTTP) gets a fresh parser,
 * another one (TLS) takes the flow over, the tunnel's protocol becoming its
 * original one; nothing recognised: the rest is ignored. */
enum tunnel_state { TUN_NONE = 0, TUN_DETECT, TUN_DEAD };

#define FOR_EACH_PROTO(p, ops) \
	for (unsigned p = 0; p < ALPROTO_MAX; p++) \
		if (((ops) = app_protos[p]) != NULL)

/* ---------------- configuration ---------------- */

static void config_defaults(AppLayerConfig *cfg)
{
	const AppProtoOps *ops;

	memset(cfg, 0, sizeof(*cfg));
	cfg->detect_max_bytes = 24;
	cfg->memcap = APP_MEMCAP_DEFAULT;
	FOR_EACH_PROTO(p, ops)
		if (ops->config_defaults)
			ops->config_defaults(cfg);
}

/* "18k" style sizes appear in Suricata's yaml (meta-field-limit) beside
 * "100kb": accept a bare k/m/g too. 1 found, 0 absent, -1 invalid (logged). */
int app_conf_size(const char *key, uint64_t *out)
{
	const char *v = NULL;
	char tmp[64];
	size_t n;
	int r = conf_get_scalar(key, &v);

	if (r <= 0)
		return r;
	if (parse_size(v, out) == 0)
		return 1;
	n = strlen(v);
	if (n > 1 && n < sizeof(tmp) - 2 && strchr("kKmMgG", v[n - 1])) {
		memcpy(tmp, v, n);
		tmp[n] = 'b';
		tmp[n + 1] = '\0';
		if (parse_size(tmp, out) == 0)
			return 1;
	}
	log_error("app-layer: %s: invalid size \"%s\"", key, v);
	return -1;
}

/* An integer in 0..max: out of range is an error naming key and value (a
 * negative limit or count means nothing; Suricata stops on it too). */
int app_conf_int_range(const char *key, int64_t *out, int64_t max)
{
	int64_t v = *out;
	int r = conf_get_int(key, &v);

	if (r <= 0)
		return r;
	if (v < 0 || v > max) {
		log_error("app-layer: %s: %s is out of range 0..%lld", key, conf_get(key),
			  (long long)max);
		return -1;
	}
	*out = v;
	return 1;
}

int app_conf_size_range(const char *key, uint64_t *out, uint64_t max)
{
	uint64_t v = *out;
	int r = app_conf_size(key, &v);

	if (r <= 0)
		return r;
	if (v > max) {
		log_error("app-layer: %s: %s is out of range 0..%llu", key, conf_get(key),
			  (unsigned long long)max);
		return -1;
	}
	*out = v;
	return 1;
}

int app_conf_bool(const char *key, int *out)
{
	return conf_get_bool(key, out) < 0 ? -1 : 0;
}

int app_conf_bool_or(const char *key, const char *word, int word_value, int *out)
{
	static const char *const bools[] = { "yes", "no", "true", "false", "on", "off", "1", "0",
					     NULL };
	const char *v = conf_get(key);
	int known = 0;

	if (!v)
		return 0;
	if (strcasecmp(v, word) == 0) {
		*out = word_value;
		return 0;
	}
	/* the line names the third word too (conf_get_bool would say
	 * "yes or no" only): Suricata 8 stops at any other value */
	for (const char *const *b = bools; *b; b++)
		known |= strcasecmp(v, *b) == 0;
	if (!known) {
		log_error("app-layer: %s: invalid value '%s' (use yes, no or %s)", key, v, word);
		return -1;
	}
	return app_conf_bool(key, out);
}

int app_conf_enabled(const char *key, int *out)
{
	return app_conf_bool_or(key, "detection-only", 2, out);
}

int app_conf_enabled_ports(const char *prefix, int *enabled, uint16_t *ports, unsigned *nports)
{
	char key[256];
	int rc = 0;

	snprintf(key, sizeof(key), "%senabled", prefix);
	if (app_conf_enabled(key, enabled) < 0)
		rc = -1;
	snprintf(key, sizeof(key), "%sdetection-ports.dp", prefix);
	if (app_conf_ports(key, ports, APP_MAX_DETECT_PORTS, nports) < 0)
		rc = -1;
	return rc;
}

/* "80", "80, 8080", "[80,8080]", "8000:8010" (ranges, capped by the table). */
static int parse_ports(const char *s, uint16_t *ports, unsigned max, unsigned *nports)
{
	unsigned n = 0;

	while (*s) {
		char *end;
		unsigned long lo, hi;

		while (*s == ' ' || *s == '[' || *s == ']' || *s == ',' || *s == '"')
			s++;
		if (!*s)
			break;
		lo = strtoul(s, &end, 10);
		if (end == s || lo > 65535)
			return -1;
		hi = lo;
		s = end;
		if (*s == ':' || *s == '-') {
			hi = strtoul(s + 1, &end, 10);
			if (end == s + 1 || hi > 65535 || hi < lo)
				return -1;
			s = end;
		}
		for (unsigned long p = lo; p <= hi && n < max; p++)
			ports[n++] = (uint16_t)p;
	}
	*nports = n;
	return 0;
}

int app_conf_ports(const char *key, uint16_t *ports, unsigned max, unsigned *n)
{
	ConfNode *node = conf_get_node(key);
	char buf[512];
	size_t used = 0;

	if (!node)
		return 0;
	if (node->val)
		return parse_ports(node->val, ports, max, n) == 0 ? 0 :
		       (log_error("app-layer: %s: invalid port list \"%s\"", key, node->val), -1);
	/* a YAML sequence: join its items */
	buf[0] = '\0';
	for (ConfNode *c = node->child; c; c = c->next) {
		if (!c->val)
			continue;
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s,", c->val);
		if (used >= sizeof(buf))
			break;
	}
	if (parse_ports(buf, ports, max, n) < 0) {
		log_error("app-layer: %s: invalid port list", key);
		return -1;
	}
	return 0;
}

/* stats.exception-policy.per-app-proto-errors, read at start */
static int per_proto_exc;

int app_layer_config_load(AppLayerConfig *cfg)
{
	const AppProtoOps *ops;
	int rc = 0;

	config_defaults(cfg);
	FOR_EACH_PROTO(p, ops)
		if (ops->config_load && ops->config_load(cfg) < 0)
			rc = -1;
	if (app_conf_size("app-layer.memcap", &cfg->memcap) < 0)
		rc = -1;
	/* Suricata 8 keeps the per-protocol policy counters off unless asked
	 * ("very verbose"): one set per protocol */
	per_proto_exc = 0;
	if (conf_get_bool("stats.exception-policy.per-app-proto-errors", &per_proto_exc) < 0)
		rc = -1;
	app_mem_set_cap(cfg->memcap);
	return rc;
}

static void lookup_alloc_counters(void);

/* Suricata 8, when app-layer.error-policy is not ignore and
 * stats.exception-policy.per-app-proto-errors is on: each protocol's own
 * count of the policy applied to its flows, beside the engine-wide
 * exception_policy.app_layer.error.<policy>, for every policy the target
 * can take. */
static void register_exc_counters(counter_id *ids, const char *proto)
{
	char name[160];

	memset(ids, 0, sizeof(ids[0]) * EP_POLICY_COUNT);
	if (!per_proto_exc || ep_policy_of(EP_APP_LAYER_ERROR) == EP_IGNORE)
		return;
	for (int pol = 0; pol < EP_POLICY_COUNT; pol++) {
		if (!ep_target_can(EP_APP_LAYER_ERROR, (enum ep_policy)pol))
			continue;
		snprintf(name, sizeof(name), "app_layer.error.%s.exception_policy.%s", proto,
			 ep_json_name((enum ep_policy)pol));
		ids[pol] = counter_register(name);
	}
}

void app_layer_error_exception(Flow *f, ThreadCounters *tc)
{
	enum ep_policy pol = ep_policy_of(EP_APP_LAYER_ERROR);

	flow_exception(f, NULL, tc, EP_APP_LAYER_ERROR);
	if (pol == EP_IGNORE || !tc || !f || f->app_proto >= ALPROTO_MAX ||
	    !app_layer_counters_registered)
		return;
	{
		counter_id id = app_layer_counters.err_exc[f->proto == 17][f->app_proto][pol];

		if (id)
			counter_inc(tc, id);
	}
}

/* Suricata's set: per protocol and transport app_layer.flow.<proto>, then
 * its app_layer.tx.<proto> and app_layer.error.<proto>.{gap,alloc,parser,
 * internal} (app-counters.h), TCP first; failed_tcp (flow, gap), failed_udp
 * (flow); then each protocol's own. Suricata 8 lists every one of them,
 * at 0 when nothing happened, for each protocol it detects, also one it
 * only detects (imap) or whose parser cannot meet that error: a stats
 * check of "app_layer.error.dns_udp.internal: 0" must find it. A
 * protocol on both transports gets one per transport, <proto>_tcp and
 * <proto>_udp, as Suricata names them (dns_tcp, dns_udp). */
void app_layer_register_counters(void)
{
	static const char *const suffix[2] = { "_tcp", "_udp" };
	const AppProtoOps *ops;
	char name[96];

	for (int u = 0; u < 2; u++) {
		unsigned ipp = u ? APP_IPPROTO_UDP : APP_IPPROTO_TCP;

		FOR_EACH_PROTO(p, ops) {
			int both = (ops->ipprotos & APP_IPPROTO_TCP) && (ops->ipprotos & APP_IPPROTO_UDP);

			if (!(ops->ipprotos & ipp))
				continue;
			snprintf(name, sizeof(name), "app_layer.flow.%s%s", ops->name,
				 both ? suffix[u] : "");
			if (u)
				app_layer_counters.flow_udp[p] = counter_register(name);
			else
				app_layer_counters.flow[p] = counter_register(name);
			app_tx_counters_register(NULL, name + strlen("app_layer.flow."));
			register_exc_counters(app_layer_counters.err_exc[u][p],
					      name + strlen("app_layer.flow."));
		}
		if (u) {
			app_layer_counters.flow_failed_udp = counter_register("app_layer.flow.failed_udp");
		} else {
			app_layer_counters.flow_failed_tcp = counter_register("app_layer.flow.failed_tcp");
			counter_register("app_layer.error.failed_tcp.gap");
		}
	}
	FOR_EACH_PROTO(p, ops)
		if (ops->register_counters)
			ops->register_counters();
	lookup_alloc_counters();
	app_layer_counters_registered = 1;
}

/* ---------------- threads ---------------- */

/* workers with an app layer now (app_mem_log_summary at the last one's end) */
static unsigned app_threads;

AppLayerThread *app_layer_thread_new(const AppLayerConfig *cfg, ThreadCounters *tc)
{
	AppLayerThread *at = calloc(1, sizeof(*at));
	const AppProtoOps *ops;

	if (!at)
		return NULL;
	at->cfg = cfg;
	at->tc = tc;
	__atomic_add_fetch(&app_threads, 1, __ATOMIC_RELAXED);
	FOR_EACH_PROTO(p, ops) {
		if (!ops->thread_new || !ops->enabled(cfg))
			continue;
		at->ctx[p] = ops->thread_new(cfg);
		if (!at->ctx[p]) {
			app_layer_thread_free(at);
			return NULL;
		}
	}
	return at;
}

void app_layer_thread_free(AppLayerThread *at)
{
	const AppProtoOps *ops;

	if (!at)
		return;
	FOR_EACH_PROTO(p, ops)
		if (at->ctx[p] && ops->thread_free)
			ops->thread_free(at->ctx[p]);
	free(at);
	/* the run's parsers are done: what they held at most, once */
	if (__atomic_sub_fetch(&app_threads, 1, __ATOMIC_RELAXED) == 0)
		app_mem_log_summary();
}

static inline void count(AppLayerThread *at, counter_id id)
{
	if (at->tc && app_layer_counters_registered)
		counter_inc(at->tc, id);
}

/* ---------------- detection ---------------- */

static int proto_on(const AppLayerThread *at, const Flow *f, const AppProtoOps *ops)
{
	unsigned ipp = f->proto == 17 ? APP_IPPROTO_UDP : APP_IPPROTO_TCP;

	return (ops->ipprotos & ipp) && ops->probe && ops->enabled(at->cfg);
}

/* The verdict of every candidate protocol on dir's first bytes: YES with
 * *alproto set by the first that recognises them, MORE while one may,
 * else NO. In a tunnel every protocol is asked too. reversed:
 * midstream, the bytes may be the other side's (the protocols' reversed
 * probes, patterns only; tunnels do not apply). */
static int detect_dir(AppLayerThread *at, const Flow *f, const AppFlowState *fs, int dir,
		      const uint8_t *buf, uint32_t len, int reversed, unsigned *alproto)
{
	const AppProtoOps *ops;
	int more = 0;

	if (len == 0)
		return DET_MORE;
	FOR_EACH_PROTO(p, ops) {
		int r;

		if (!proto_on(at, f, ops))
			continue;
		if (reversed && !ops->probe_reversed)
			continue;
		r = reversed ? ops->probe_reversed(dir, buf, len)
			     : ops->probe(at->cfg, f, dir, buf, len);
		if (r == DET_YES || r == DET_REVERSED) {
			*alproto = p;
			return r;
		}
		if (r == DET_MORE)
			more = 1;
	}
	return more ? DET_MORE : DET_NO;
}

/* ---------------- each direction's own result ----------------
 *
 * As in Suricata 8, each direction is detected on its own first bytes,
 * also after the other one decided the flow's protocol. The flow keeps the
 * first decision (its parser has had data already); each side's own
 * verdict goes to Flow.app_proto_ts/tc, which the flow record prints where
 * it differs from app_proto (a DCERPC request answered by an HTTP response:
 * app_proto "dcerpc", app_proto_tc "http"; a TLS client hello answered by an
 * SMTP banner: "tls" and "smtp"). On TCP a side that named nothing while the
 * other named a protocol is "failed" (Suricata's "detected in one direction
 * only"); one that ended on a gap or at its end before deciding stays
 * unknown. On UDP the first datagram that names nothing is "failed", a
 * later one takes the other side's result. */
static inline uint16_t *dir_proto(Flow *f, int dir)
{
	return dir == APP_DIR_TOSERVER ? &f->app_proto_ts : &f->app_proto_tc;
}

static int proto_named(uint16_t alproto)
{
	return alproto != ALPROTO_UNKNOWN && alproto != ALPROTO_FAILED;
}

/* Once per flow, as Suricata's protocol detection: the side deciding now
 * names a protocol other than the one the other side named (an HTTP
 * request answered by an SSH banner: suricata-verify output-eve-anomaly-02). */
static void pkt_event(AppFlowState *fs, unsigned bit)
{
	if (fs->pkt_events_raised & bit)
		return;
	fs->pkt_events_raised |= (uint8_t)bit;
	fs->pkt_events |= (uint8_t)bit;
}

static void dir_result(Flow *f, AppFlowState *fs, int dir, uint16_t alproto)
{
	uint16_t other = *dir_proto(f, !dir);

	*dir_proto(f, dir) = alproto;
	fs->dir_done |= (uint8_t)(1u << dir);
	if (proto_named(alproto))
		fs->detect_done |= (uint8_t)(1u << dir);
	if (proto_named(alproto) && proto_named(other) && other != alproto)
		pkt_event(fs, APP_PEV_MISMATCH_BOTH_DIRECTIONS);
}

unsigned app_layer_take_packet_events(Flow *f)
{
	AppFlowState *fs = f ? f->alstate : NULL;
	unsigned ev;

	if (!fs || !fs->pkt_events)
		return 0;
	ev = fs->pkt_events;
	fs->pkt_events = 0;
	return ev;
}

int app_layer_take_detect_done(Flow *f, int dir)
{
	AppFlowState *fs = f ? f->alstate : NULL;
	uint8_t bit = (uint8_t)(1u << (dir & 1));

	if (!fs || !(fs->detect_done & bit))
		return 0;
	fs->detect_done &= (uint8_t)~bit;
	return 1;
}

const char *app_layer_packet_event_name(unsigned bit)
{
	switch (bit) {
	case APP_PEV_MISMATCH_BOTH_DIRECTIONS:
		return "APPLAYER_MISMATCH_PROTOCOL_BOTH_DIRECTIONS";
	case APP_PEV_UNEXPECTED_PROTOCOL:
		return "APPLAYER_UNEXPECTED_PROTOCOL";
	case APP_PEV_NO_TLS_AFTER_STARTTLS:
		return "APPLAYER_NO_TLS_AFTER_STARTTLS";
	default:
		return NULL;
	}
}

/* f's protocol is decided and dir has not decided its own yet: its verdict
 * only. The bytes go to the flow's parser as before, nothing is held back
 * from it; held[dir] keeps a copy of the first ones while the probes need
 * more. Once per direction: nothing runs after dir_done. */
static void detect_own_dir(AppLayerThread *at, Flow *f, AppFlowState *fs, int dir,
			   const uint8_t *data, uint32_t len, int flags)
{
	uint8_t buf[sizeof(fs->held[0])];
	uint32_t n = fs->held_len[dir], take, blen;
	unsigned alproto = ALPROTO_UNKNOWN;
	int r;

	if (flags & APP_GAP) {
		fs->dir_gap |= (uint8_t)(1u << dir);
		fs->dir_done |= (uint8_t)(1u << dir);
		fs->held_len[dir] = 0;
		return;
	}
	if (len == 0 || !data) {
		if (flags & APP_EOF) {
			fs->dir_done |= (uint8_t)(1u << dir);
			fs->held_len[dir] = 0;
		}
		return;
	}
	if (f->proto == 17) {
		/* a datagram is a whole message, as in detect_and_start();
		 * the flow's direction is settled: either way is its protocol */
		r = detect_dir(at, f, fs, dir, data, len, 0, &alproto);
		if (r == DET_MORE)
			r = DET_NO;
		if (r == DET_REVERSED)
			r = DET_YES;
		blen = 0;
	} else {
		take = len < sizeof(buf) - n ? len : (uint32_t)sizeof(buf) - n;
		memcpy(buf, fs->held[dir], n);
		memcpy(buf + n, data, take);
		blen = n + take;
		r = detect_dir(at, f, fs, dir, buf, blen, 0, &alproto);
		/* Suricata's pattern search is only done with a side once it
		 * has seen as many bytes as its deepest pattern: a short first
		 * chunk ("\r\n" before an SSH client's banner) is not "failed"
		 * yet; a side that ends there stays unknown */
		if (r == DET_NO && blen < sizeof(buf))
			r = DET_MORE;
		if (r == DET_MORE && (flags & APP_EOF)) {
			/* ended undecided: Suricata gives it the flow's protocol */
			fs->dir_done |= (uint8_t)(1u << dir);
			fs->held_len[dir] = 0;
			return;
		}
		if (r == DET_MORE && blen == sizeof(buf))
			r = DET_NO;
	}
	if (r == DET_MORE) {
		memcpy(fs->held[dir], buf, blen);
		fs->held_len[dir] = (uint8_t)blen;
		return;
	}
	fs->held_len[dir] = 0;
	if (r == DET_YES)
		dir_result(f, fs, dir, (uint16_t)alproto);
	else if (f->proto == 17)
		dir_result(f, fs, dir, *dir_proto(f, !dir));
	else
		dir_result(f, fs, dir, ALPROTO_FAILED);
}

/* Reversal is possible while nothing was decided: no tunnel, and the other
 * direction has shown nothing yet (Suricata: only if it was not detected). */
static int may_reverse(const Flow *f, const AppFlowState *fs, int dir, int flags)
{
	/* a midstream TCP flow, or a UDP flow on its first datagram (a probe's
	 * DET_REVERSED: a DNS response before its query) */
	return ((flags & APP_MIDSTREAM) || f->proto == 17) && !fs->reversed &&
	       fs->tunnel == TUN_NONE &&
	       f->app_proto == ALPROTO_UNKNOWN && fs->det[!dir] == DET_NONE &&
	       fs->seen[!dir] == 0 && !fs->eof[!dir];
}

/* The flow is about to be reversed: detection's per-direction state too. */
/* A per-direction bit pair (1 << APP_DIR_*) with its directions swapped. */
static inline uint8_t swap_dir_bits(uint8_t v)
{
	return (uint8_t)(((v & 1) << 1) | ((v >> 1) & 1));
}

static void swap_dirs(AppFlowState *fs)
{
	uint8_t held[sizeof(fs->held[0])], t;
	uint32_t seen;

	t = fs->det[0], fs->det[0] = fs->det[1], fs->det[1] = t;
	t = fs->eof[0], fs->eof[0] = fs->eof[1], fs->eof[1] = t;
	t = fs->held_len[0], fs->held_len[0] = fs->held_len[1], fs->held_len[1] = t;
	seen = fs->seen[0], fs->seen[0] = fs->seen[1], fs->seen[1] = seen;
	memcpy(held, fs->held[0], sizeof(held));
	memcpy(fs->held[0], fs->held[1], sizeof(held));
	memcpy(fs->held[1], held, sizeof(held));
	fs->dir_done = swap_dir_bits(fs->dir_done);
	fs->dir_gap = swap_dir_bits(fs->dir_gap);
}

static AppFlowState *flow_state(Flow *f)
{
	if (!f->alstate)
		f->alstate = calloc(1, sizeof(AppFlowState));
	return f->alstate;
}

static void undet_free_dir(AppFlowState *fs, int d)
{
	free(fs->undet[d]);
	fs->undet[d] = NULL;
	fs->undet_len[d] = fs->undet_lost[d] = 0;
}

static void undet_free(AppFlowState *fs)
{
	for (int d = 0; d < 2; d++)
		undet_free_dir(fs, d);
}

/* Suricata parses a TCP side that detection said no to once the other side
 * names the protocol, before that side's bytes ("needs first data in other
 * direction": suricata-verify smtp-errors, a client's junk lines and then
 * the server's SMTP replies to them). Its bytes wait here, a copy of at
 * most APP_UNDET_MAX: the rest becomes a gap. */
#define APP_UNDET_MAX (64u * 1024u)

static void undet_keep(AppFlowState *fs, int dir, const uint8_t *a, uint32_t alen,
		       const uint8_t *b, uint32_t blen)
{
	uint32_t have = fs->undet_len[dir], room = APP_UNDET_MAX - have;
	uint32_t take = alen + blen <= room ? alen + blen : room;
	uint8_t *p;

	if (take && !fs->undet_lost[dir] && (p = realloc(fs->undet[dir], have + take))) {
		uint32_t ta = alen < take ? alen : take;

		if (ta)   /* a may be NULL with alen 0: memcpy's arguments must not be */
			memcpy(p + have, a, ta);
		if (take > ta)
			memcpy(p + have + ta, b, take - ta);
		fs->undet[dir] = p;
		fs->undet_len[dir] = have + take;
	} else {
		take = 0;
	}
	fs->undet_lost[dir] += alen + blen - take;
}

static void set_failed(AppLayerThread *at, Flow *f, AppFlowState *fs)
{
	undet_free(fs);
	if (fs->tunnel == TUN_DETECT) {
		/* nothing known in a CONNECT tunnel: Suricata 8's protocol
		 * change ends on "failed", the tunnel's protocol kept as the
		 * original one (suricata-verify http-connect-fail); the old
		 * parser's transactions stay ours to log and count */
		fs->tunnel = TUN_DEAD;
		f->app_proto_shown = ALPROTO_FAILED;
		return;
	}
	f->app_proto = ALPROTO_FAILED;
	if (f->proto == 6)
		count(at, app_layer_counters.flow_failed_tcp);
	else if (f->proto == 17)
		count(at, app_layer_counters.flow_failed_udp);
}

static int tunnel_begin(AppLayerThread *at, Flow *f, AppFlowState *fs);

/* Parses, then hands what follows a successful CONNECT to detection. */
static int parse(AppLayerThread *at, Flow *f, AppFlowState *fs, int dir,
		 const uint8_t *data, uint32_t len, int flags)
{
	const AppProtoOps *ops = app_protos[f->app_proto];
	int rc;

	if (fs->frames_on && f->proto == 17)
		frames_datagram(f, fs, dir);
	if (fs->frames_on & APP_FRAMES_STREAM)
		frames_begin(f, fs, dir, len, flags);
	rc = ops->parse(at, f, fs->proto, dir, data, len, flags);
	if (fs->frames_on)
		frames_advance(f, fs, dir, len, flags);
	if (ops->tunnel_started && ops->tunnel_started(fs->proto))
		tunnel_begin(at, f, fs);
	return rc;
}

/* app_layer.error.<proto>.alloc of the protocols under app-layer.memcap
 * (app-mem.h), by transport ([1]: UDP, for DCERPC's dcerpc_udp): each
 * protocol registered its own; looked up once. -1: none. */
static int err_alloc[ALPROTO_MAX][2];

static void lookup_alloc_counters(void)
{
	const AppProtoOps *ops;
	char name[96];

	FOR_EACH_PROTO(p, ops) {
		for (int u = 0; u < 2; u++) {
			int both = (ops->ipprotos & APP_IPPROTO_TCP) && (ops->ipprotos & APP_IPPROTO_UDP);

			snprintf(name, sizeof(name), "app_layer.error.%s%s.alloc", ops->name,
				 both ? (u ? "_udp" : "_tcp") : "");
			err_alloc[p][u] = app_mem_accounted(p) ? counter_lookup(name) : -1;
		}
	}
}

static void count_memcap(AppLayerThread *at, const Flow *f, unsigned alproto)
{
	int id = err_alloc[alproto][f->proto == 17];

	if (id >= 0)
		count(at, (counter_id)id);
}

/* alproto's parser state for f, or NULL: no memory (the parser counted
 * it), or app-layer.memcap reached (counted here, as Suricata counts a
 * parser's failed allocation). */
static void *state_new(AppLayerThread *at, Flow *f, unsigned alproto)
{
	if (app_mem_accounted(alproto) && !app_mem_admit(alproto)) {
		count_memcap(at, f, alproto);
		return NULL;
	}
	return app_protos[alproto]->state_new(at, f);
}

/* Decided alproto: start its parser and give it what detection held back. */
static int start_proto(AppLayerThread *at, Flow *f, AppFlowState *fs, unsigned alproto)
{
	const AppProtoOps *ops = app_protos[alproto];
	int in_tunnel = fs->tunnel == TUN_DETECT;

	if (in_tunnel && alproto != f->app_proto) {
		/* the tunnel carries another protocol: as Suricata 8, the flow
		 * changes to it and the tunnel's protocol becomes the original
		 * one (suricata-verify http-connect-tls: app_proto tls,
		 * app_proto_orig http). The old parser's transactions ended when
		 * the tunnel opened and were logged then. */
		const AppProtoOps *old = app_protos[f->app_proto];

		fs->tx_base += old->tx_count(fs->proto);
		old->state_free(fs->proto);
		fs->proto = NULL;
		f->app_proto_ts = f->app_proto_tc = (uint16_t)alproto;
		fs->tunnel = TUN_NONE;
		in_tunnel = 0;
	}
	if (in_tunnel) {
		/* the protocol again inside the tunnel: a fresh parser, as on a
		 * new flow */
		if (ops->tunnel_restart(at, f, fs->proto) < 0) {
			fs->tunnel = TUN_DEAD;
			return 0;
		}
		fs->tunnel = TUN_NONE;
	} else {
		/* a datagram flow already counted as failed (its first side)
		 * stays counted so, as in Suricata: one flow counter a flow */
		if (f->app_proto != ALPROTO_FAILED)
			count(at, f->proto == 17 ? app_layer_counters.flow_udp[alproto] :
				  app_layer_counters.flow[alproto]);
		f->app_proto = (uint16_t)alproto;
		/* a side that already said no on its bytes (not on a gap) named
		 * no protocol while this one did: "failed" */
		for (int d = 0; d < 2; d++)
			if (fs->det[d] == DET_NO && !(fs->dir_gap & (1u << d)) && !*dir_proto(f, d))
				dir_result(f, fs, d, ALPROTO_FAILED);
		if (ops->enabled(at->cfg) != 1)
			return 0;       /* detection-only */
		fs->proto = state_new(at, f, alproto);
		if (!fs->proto) {
			/* the parser counts its own errors (app_layer.error.<proto>.alloc);
			 * HTTP's is counted here */
			if (alproto == ALPROTO_HTTP1)
				count(at, app_layer_counters.err_http_alloc);
			/* a memcap (http.memcap, app-layer.memcap) or no memory: the
			 * flow is not parsed */
			app_layer_error_exception(f, at->tc);
			return -1;
		}
	}
	for (int d = 0; d < 2; d++) {
		uint64_t off1 = f->app_data_off1[d];

		/* the side that said no came first: its bytes first */
		if ((fs->undet[d] || fs->undet_lost[d]) && ops->skip_undetected) {
			undet_free_dir(fs, d);
		} else if (fs->undet[d] || fs->undet_lost[d]) {
			uint8_t *u = fs->undet[d];
			uint32_t ulen = fs->undet_len[d], lost = fs->undet_lost[d];

			fs->undet[d] = NULL;
			fs->undet_len[d] = fs->undet_lost[d] = 0;
			f->app_data_off1[d] = 0;
			if (u)
				parse(at, f, fs, d, u, ulen, 0);
			if (lost && fs->proto)
				parse(at, f, fs, d, NULL, lost, APP_GAP);
			f->app_data_off1[d] = off1;
			free(u);
		}
	}
	for (int d = 0; d < 2; d++) {
		uint64_t off1 = f->app_data_off1[d];

		/* held bytes are a copy, from earlier calls: no stream offset */
		f->app_data_off1[d] = 0;
		if (fs->held_len[d] && fs->det[d] != DET_NO)
			parse(at, f, fs, d, fs->held[d], fs->held_len[d], 0);
		f->app_data_off1[d] = off1;
		/* a side still undecided keeps its first bytes for its own
		 * detection (detect_own_dir), though the parser has them */
		if (in_tunnel || fs->det[d] != DET_MORE)
			fs->held_len[d] = 0;
	}
	return 0;
}

static int detect_and_start(AppLayerThread *at, Flow *f, AppFlowState *fs, int dir,
			    const uint8_t *data, uint32_t len, int flags)
{
	uint8_t tmp[sizeof(fs->held[0])];
	uint32_t n = fs->held_len[dir], take;
	unsigned alproto = ALPROTO_UNKNOWN;
	int r, other = !dir, now = 0;

	/* the end of a side that never carried a byte (a RST, perhaps one an
	 * injector forged, after which the session goes on: suricata-verify
	 * security-4710-01): Suricata's detection runs on nothing, which
	 * names nothing and decides nothing; only the other side's no fails */
	if ((flags & APP_EOF) && !len && !n && !fs->seen[dir] && fs->det[dir] == DET_NONE &&
	    fs->tunnel == TUN_NONE) {
		fs->eof[dir] = 1;
		if (fs->det[other] == DET_NO)
			set_failed(at, f, fs);
		return f->app_proto == ALPROTO_FAILED ? -1 : 0;
	}
	if (fs->tunnel == TUN_DETECT && n == 0 && !(flags & APP_GAP)) {
		/* blank lines before a request or status line are allowed (and
		 * ignored by libhtp): a tunnel's first bytes may carry the CRLF
		 * that trailed the CONNECT exchange */
		while (len && (*data == '\r' || *data == '\n')) {
			data++;
			len--;
		}
		if (!len && !(flags & APP_EOF))
			return 0;
	}
	if (flags & APP_GAP) {
		/* bytes missing before a decision: nothing to recognise a start by */
		fs->det[dir] = DET_NO;
		if (fs->tunnel == TUN_NONE) {
			fs->dir_gap |= (uint8_t)(1u << dir);
			fs->dir_done |= (uint8_t)(1u << dir);
		}
	} else if (fs->det[dir] == DET_NONE || fs->det[dir] == DET_MORE) {
		const uint8_t *buf = tmp;
		uint32_t blen;

		if (f->proto == 17) {
			/* a datagram is a whole message: detection sees all of
			 * it, and nothing is held for the next one */
			buf = data;
			blen = len;
		} else {
			take = len < sizeof(tmp) - n ? len : (uint32_t)sizeof(tmp) - n;
			memcpy(tmp, fs->held[dir], n);
			if (take)
				memcpy(tmp + n, data, take);
			blen = n + take;
		}
		r = detect_dir(at, f, fs, dir, buf, blen, 0, &alproto);
		if (r == DET_MORE && f->proto == 17)
			r = DET_NO;
		/* held[] has room for no more: a probe still undecided there
		 * says no (as the other detection path does) */
		if (r == DET_MORE && blen == sizeof(tmp))
			r = DET_NO;
		if (r == DET_REVERSED) {
			if (may_reverse(f, fs, dir, flags)) {
				swap_dirs(fs);
				fs->reversed = 1;
				return APP_REVERSE;
			}
			/* too late to turn the flow: its protocol all the same */
			r = DET_YES;
		}
		if (r == DET_NO && may_reverse(f, fs, dir, flags)) {
			unsigned ralp; /* not used: only that these are the other side's bytes */
			int rr = detect_dir(at, f, fs, dir, buf, blen, 1, &ralp);

			if (rr == DET_YES) {
				swap_dirs(fs);
				fs->reversed = 1;
				return APP_REVERSE;
			}
			if (rr == DET_MORE)
				r = DET_MORE;
		}
		fs->seen[dir] += len;
		if (r == DET_MORE && (flags & APP_EOF))
			r = DET_NO;
		fs->det[dir] = (uint8_t)r;
		now = 1;
		if (r == DET_NO && f->proto == 6 && fs->tunnel == TUN_NONE &&
		    (fs->det[other] == DET_NONE || fs->det[other] == DET_MORE) && !fs->eof[other])
			undet_keep(fs, dir, fs->held[dir], n, data, len);
		if (fs->tunnel == TUN_NONE) {
			if (r == DET_YES)
				dir_result(f, fs, dir, (uint16_t)alproto);
			else if (r == DET_NO && f->proto == 17)
				dir_result(f, fs, dir, ALPROTO_FAILED);
			else if (r == DET_NO)
				/* "failed" once the other side names one (start_proto) */
				fs->dir_done |= (uint8_t)(1u << dir);
		}
		if (r == DET_MORE) {
			memcpy(fs->held[dir] + n, data, len);  /* len == take here */
			fs->held_len[dir] = (uint8_t)(n + len);
			return 0;
		}
		if (r == DET_YES) {
			if (start_proto(at, f, fs, alproto) < 0)
				return -1;
			/* a tunnel that could not restart (no parser left) is dead:
			 * the old parser is still in tunnel mode and would begin it
			 * again, without end (found by qa/fuzz) */
			if (fs->proto && fs->tunnel != TUN_DEAD)
				return parse(at, f, fs, dir, data, len, flags);
			return 0;
		}
	}
	if (flags & APP_EOF)
		fs->eof[dir] = 1;
	if (f->proto == 17) {
		/* Suricata 8 labels a datagram flow "failed" as soon as its first
		 * datagram names no protocol; the other side's first one may
		 * still name one (suricata-verify dns/v2/bug-1158: a lone
		 * broadcast to port 137 is "failed") */
		if (fs->det[dir] == DET_NO && f->app_proto == ALPROTO_UNKNOWN)
			set_failed(at, f, fs);
	} else if (!now && fs->det[dir] == DET_NO && (fs->undet[dir] || fs->undet_lost[dir]) &&
		   len && fs->det[other] != DET_NO && !fs->eof[other]) {
		/* more of the side that said no, while the other may still say yes */
		if (data && !(flags & APP_GAP))
			undet_keep(fs, dir, NULL, 0, data, len);
		else
			fs->undet_lost[dir] += len;
	} else if (fs->det[dir] == DET_NO && (fs->det[other] == DET_NO || fs->eof[other])) {
		/* this side said no; the flow fails once the other side cannot
		 * say yes */
		set_failed(at, f, fs);
	}
	return f->app_proto == ALPROTO_FAILED ? -1 : 0;
}

/* The parser is in tunnel mode: detect again on the bytes it left, each side. */
static int tunnel_begin(AppLayerThread *at, Flow *f, AppFlowState *fs)
{
	fs->tunnel = TUN_DETECT;
	/* Suricata 8 changes the flow's protocol at a CONNECT's 2xx, to what
	 * the tunnel carries: the CONNECT's is the original one, whatever
	 * follows (suricata-verify http-connect-fail) */
	if (!f->app_proto_orig)
		f->app_proto_orig = f->app_proto;
	for (int d = 0; d < 2; d++) {
		fs->det[d] = DET_NONE;
		fs->held_len[d] = 0;
		fs->seen[d] = 0;
	}
	for (int d = 0; d < 2 && fs->tunnel == TUN_DETECT; d++) {
		uint32_t n;
		uint8_t *p = app_protos[f->app_proto]->tunnel_take(fs->proto, d, &n);
		uint64_t off1 = f->app_data_off1[d];

		if (!p)
			continue;
		/* tunnel bytes are a copy: no stream offset */
		f->app_data_off1[d] = 0;
		detect_and_start(at, f, fs, d, p, n, 0);
		f->app_data_off1[d] = off1;
		free(p);
	}
	return 0;
}

static int proto_data(AppLayerThread *at, Flow *f, AppFlowState *fs, int dir,
		     const uint8_t *data, uint32_t len, int flags)
{
	if (fs->tunnel == TUN_DEAD)
		return 0;
	if (fs->tunnel == TUN_DETECT)
		return detect_and_start(at, f, fs, dir, data, len, flags);
	if (fs->mem_stopped)
		return -1;
	if (app_mem_accounted(f->app_proto) && !app_mem_admit(f->app_proto)) {
		/* app-layer.memcap passed since the flow began (its flows grew
		 * after their start): the flow is parsed no further, as an HTTP
		 * connection at http.memcap, so that memory stays within the cap
		 * plus what one parse call adds, per worker */
		fs->mem_stopped = 1;
		count_memcap(at, f, f->app_proto);
		app_layer_error_exception(f, at->tc);
		return -1;
	}
	return parse(at, f, fs, dir, data, len, flags);
}

/* ---------------- protocol change (STARTTLS) ---------------- */

int app_layer_proto_change_allowed(const Flow *f)
{
	const AppFlowState *fs = f ? f->alstate : NULL;

	return fs && !fs->change_to && !fs->changing && fs->tunnel != TUN_DETECT;
}

void app_layer_request_proto_change(Flow *f, unsigned alproto)
{
	AppFlowState *fs = f ? f->alstate : NULL;

	if (!app_layer_proto_change_allowed(f) || alproto >= ALPROTO_FAILED || !app_protos[alproto])
		return;
	fs->change_to = (uint16_t)alproto;
	fs->change_pkt = f->pkts_toserver + f->pkts_toclient;
}

/* The protocol a change ends on. Suricata 8 runs protocol detection again
 * on the first bytes after the change and raises applayer_unexpected_protocol
 * (and applayer_no_tls_after_starttls when TLS was asked for) where it finds
 * another one: an HTTP response after an SMTP STARTTLS goes on as HTTP
 * (suricata-verify protocol-change-failed-event). The asked protocol's own
 * probe goes first: the change keeps it unless that probe says no and
 * another protocol's says yes; a protocol no probe recognises (websocket,
 * as Suricata's expectation protocols) or bytes too few to tell keep it. */
static unsigned change_target(AppLayerThread *at, Flow *f, AppFlowState *fs, int dir,
			      const uint8_t *p, uint32_t n)
{
	const AppProtoOps *want = app_protos[fs->change_to];
	unsigned alproto = ALPROTO_UNKNOWN;

	if (!p || !n || !proto_on(at, f, want))
		return fs->change_to;
	/* as much as first detection looks at (detect_and_start) */
	if (n > sizeof(fs->held[0]))
		n = (uint32_t)sizeof(fs->held[0]);
	if (want->probe(at->cfg, f, dir, p, n) != DET_NO)
		return fs->change_to;
	if (detect_dir(at, f, fs, dir, p, n, 0, &alproto) != DET_YES ||
	    alproto == ALPROTO_UNKNOWN || alproto == fs->change_to)
		return fs->change_to;
	pkt_event(fs, APP_PEV_UNEXPECTED_PROTOCOL);
	if (fs->change_to == ALPROTO_TLS)
		pkt_event(fs, APP_PEV_NO_TLS_AFTER_STARTTLS);
	return alproto;
}

/* The first bytes of the new protocol: what the old parser held past the
 * change, else this call's data; dir is set to their direction. */
static const uint8_t *change_first_bytes(uint8_t *const held[2], const uint32_t hlen[2],
					 int *dir, const uint8_t *data, uint32_t len,
					 uint32_t *n)
{
	if (held[*dir] && hlen[*dir]) {
		*n = hlen[*dir];
		return held[*dir];
	}
	if (data && len) {
		*n = len;
		return data;
	}
	if (held[!*dir] && hlen[!*dir]) {
		*dir = !*dir;
		*n = hlen[*dir];
		return held[*dir];
	}
	*n = 0;
	return NULL;
}

static void change_proto(AppLayerThread *at, Flow *f, AppFlowState *fs, int dir,
			 const uint8_t *data, uint32_t len)
{
	const AppProtoOps *old = app_protos[f->app_proto];
	const AppProtoOps *ops;
	uint8_t *held[2] = { NULL, NULL };
	uint32_t hlen[2] = { 0, 0 }, n;
	void *old_state = fs->proto;  /* freed once the new state took over */
	unsigned from = f->app_proto, to;
	uint16_t expect = fs->change_to;
	const uint8_t *first;
	int fdir = dir;

	fs->changing = 1;
	for (int d = 0; d < 2; d++)
		if (old->tunnel_take)
			held[d] = old->tunnel_take(fs->proto, d, &hlen[d]);
	first = change_first_bytes(held, hlen, &fdir, data, len, &n);
	to = change_target(at, f, fs, fdir, first, n);
	ops = app_protos[to];
	fs->tx_base += old->tx_count(fs->proto);
	fs->proto = NULL;
	f->app_proto_orig = f->app_proto;
	f->app_proto = (uint16_t)to;
	/* both sides on the new protocol; the asked one stays as expected,
	 * which eve shows where the flow did not end on it */
	f->app_proto_expect = expect;
	f->app_proto_ts = f->app_proto_tc = (uint16_t)to;
	fs->dir_done = 3;
	fs->held_len[0] = fs->held_len[1] = 0;
	fs->change_to = 0;
	if (ops->enabled(at->cfg) == 1) {
		fs->proto = state_new(at, f, f->app_proto);
		if (!fs->proto)
			app_layer_error_exception(f, at->tc);
		else if (ops->take_over && to == expect)
			ops->take_over(at, f, fs->proto, from, old_state);
	}
	old->state_free(old_state);
	for (int d = 0; d < 2; d++) {
		uint64_t off1 = f->app_data_off1[d];

		if (held[d] && fs->proto) {
			/* a copy: no stream offset */
			f->app_data_off1[d] = 0;
			ops->parse(at, f, fs->proto, d, held[d], hlen[d], 0);
			f->app_data_off1[d] = off1;
		}
		free(held[d]);
	}
}

/* A new flow another one announced (expect.h: FTP's data connections):
 * labelled with the expected protocol without detection, its parser state
 * given the expectation's data. Asked once, at the flow's first bytes
 * (not at its handshake: a passive data connection opens before the RETR
 * that announces it). */
static void expected_start(AppLayerThread *at, Flow *f, AppFlowState *fs)
{
	const AppProtoOps *ops;
	uint16_t alproto;
	void *data = NULL;
	void (*data_free)(void *) = NULL;

	fs->expect_tried = 1;
	if (!expect_take(at->tc, f, &alproto, &data, &data_free))
		return;
	ops = app_proto_ops(alproto);
	if (ops && ops->enabled(at->cfg)) {
		fs->det[0] = fs->det[1] = DET_YES;
		dir_result(f, fs, APP_DIR_TOSERVER, alproto);
		dir_result(f, fs, APP_DIR_TOCLIENT, alproto);
		if (start_proto(at, f, fs, alproto) == 0 && fs->proto && ops->expect_attach) {
			ops->expect_attach(fs->proto, data, data_free);
			return;
		}
	}
	if (data && data_free)
		data_free(data);
}

static int any_enabled(const AppLayerConfig *cfg)
{
	const AppProtoOps *ops;

	FOR_EACH_PROTO(p, ops)
		if (ops->enabled(cfg))
			return 1;
	return 0;
}

int app_layer_enabled(const AppLayerConfig *cfg)
{
	return any_enabled(cfg);
}

uint64_t app_layer_protos_off(const AppLayerConfig *cfg)
{
	const AppProtoOps *ops;
	uint64_t off = 0;

	FOR_EACH_PROTO(p, ops)
		if (p < 64 && ops->enabled && ops->enabled(cfg) == 0)
			off |= 1ull << p;
	return off;
}

int app_layer_handle_data(AppLayerThread *at, Flow *f, int dir, const uint8_t *data,
			  uint32_t len, int flags)
{
	AppFlowState *fs;

	if (!at || !f || dir < 0 || dir > 1)
		return -1;
	if (!any_enabled(at->cfg))
		return -1;
	/* failed is final, except for the side of a datagram flow that has
	 * not spoken yet (see detect_and_start) */
	if (f->app_proto == ALPROTO_FAILED &&
	    (f->proto != 17 || !f->alstate || ((AppFlowState *)f->alstate)->det[dir] != DET_NONE))
		return -1;
	if (!data && !(flags & APP_GAP))
		len = 0;
	fs = flow_state(f);
	if (!fs) {
		count(at, app_layer_counters.err_http_alloc);
		return -1;
	}
	fs->frames_on = at->cfg->frames ? (uint8_t)(APP_FRAMES_ON | (at->cfg->frames_stream ? APP_FRAMES_STREAM : 0) |
						    (at->cfg->frames_stream == APP_STREAM_FRAME_ID_ONLY ?
							     APP_FRAMES_STREAM_ID_ONLY : 0)) :
					   0;
	/* at the first bytes: a passive data connection opens before the
	 * RETR that announces it */
	if (f->app_proto == ALPROTO_UNKNOWN && !fs->expect_tried && len && !(flags & APP_GAP))
		expected_start(at, f, fs);
	if (f->app_proto == ALPROTO_UNKNOWN || f->app_proto == ALPROTO_FAILED)
		return detect_and_start(at, f, fs, dir, data, len, flags);
	if (flags & APP_EOF)
		fs->eof[dir] = 1;
	if (!(fs->dir_done & (1u << dir)) && fs->tunnel == TUN_NONE)
		detect_own_dir(at, f, fs, dir, data, len, flags);
	if (fs->change_to && fs->proto && fs->change_pkt != f->pkts_toserver + f->pkts_toclient) {
		int rc = 0;

		change_proto(at, f, fs, dir, data, (flags & APP_GAP) ? 0 : len);
		/* Suricata detects again after a change, on the first data
		 * after it: this direction's detection is the one done */
		fs->detect_done |= (uint8_t)(1u << dir);
		if (app_proto_ops(f->app_proto) && fs->proto)
			rc = proto_data(at, f, fs, dir, data, len, flags);
		/* the change ends with the new parser's first parse */
		fs->changing = 0;
		return rc;
	}
	if (app_proto_ops(f->app_proto) && fs->proto)
		return proto_data(at, f, fs, dir, data, len, flags);
	return 0;
}

/* The flow's protocol entry when it holds a parser state. */
static inline const AppProtoOps *flow_ops(const Flow *f, void **state)
{
	const AppFlowState *fs = f ? f->alstate : NULL;
	const AppProtoOps *ops;

	if (!fs || !fs->proto || !(ops = app_proto_ops(f->app_proto)))
		return NULL;
	*state = fs->proto;
	return ops;
}

void app_layer_tx_gc(Flow *f, unsigned need)
{
	void *st;
	const AppProtoOps *ops = flow_ops(f, &st);

	if (ops && ops->tx_gc)
		ops->tx_gc(st, need);
}

int app_layer_flow_no_inspection(const Flow *f)
{
	void *st;
	const AppProtoOps *ops = flow_ops(f, &st);

	return ops && ops->no_inspection && ops->no_inspection(st);
}

void app_layer_trigger_raw(Flow *f, int dir)
{
	f->raw_trigger |= (uint8_t)(1u << (dir & 1));
}

int app_layer_flow_no_inspection_flush(const Flow *f)
{
	void *st;
	const AppProtoOps *ops = flow_ops(f, &st);

	return ops && ops->no_inspection_flush;
}

int app_layer_flow_bypass(const Flow *f)
{
	void *st;
	const AppProtoOps *ops = flow_ops(f, &st);

	return ops && ops->bypass && st && ops->bypass(st);
}

void app_layer_flow_free(Flow *f)
{
	AppFlowState *fs;
	const AppProtoOps *ops;

	if (!f || !f->alstate)
		return;
	fs = f->alstate;
	/* a state exists only for a decided protocol */
	if (fs->proto && (ops = app_proto_ops(f->app_proto)))
		ops->state_free(fs->proto);
	frames_free(fs);
	undet_free(fs);
	free(fs);
	f->alstate = NULL;
}

const char *app_proto_name(uint16_t alproto)
{
	const AppProtoOps *ops = app_proto_ops(alproto);

	if (ops)
		return ops->name;
	return alproto == ALPROTO_FAILED ? "failed" : "unknown";
}

int app_proto_by_name(const char *name)
{
	const AppProtoOps *ops;

	if (!name)
		return -1;
	FOR_EACH_PROTO(p, ops)
		if (!strcasecmp(name, ops->name) || (ops->alias && !strcasecmp(name, ops->alias)))
			return (int)p;
	if (strcasecmp(name, "failed") == 0)
		return ALPROTO_FAILED;
	return -1;
}

unsigned app_proto_ipprotos(uint16_t alproto)
{
	const AppProtoOps *ops = app_proto_ops(alproto);

	return ops ? ops->ipprotos : 0;
}

int app_proto_progress_complete(uint16_t alproto)
{
	const AppProtoOps *ops = app_proto_ops(alproto);

	return ops ? ops->progress_complete : 0;
}

/* ---------------- transactions ---------------- */

int app_layer_flow_has_txs(const Flow *f)
{
	void *st;

	return flow_ops(f, &st) != NULL;
}

/* After a protocol change the new parser's ids follow the old one's
 * (tx_base), so that detection and logging, which walk ids upwards, meet
 * its transactions as new ones. */
static inline uint64_t tx_base(const Flow *f)
{
	return ((const AppFlowState *)f->alstate)->tx_base;
}

uint64_t app_layer_tx_count(const Flow *f)
{
	void *st;
	const AppProtoOps *ops = flow_ops(f, &st);

	return ops ? tx_base(f) + ops->tx_count(st) : 0;
}

uint64_t app_layer_tx_cnt(const Flow *f)
{
	void *st;
	const AppProtoOps *ops = flow_ops(f, &st);

	if (!ops)
		return 0;
	return tx_base(f) + (ops->tx_cnt ? ops->tx_cnt(st) : ops->tx_count(st));
}

void *app_layer_tx_get(const Flow *f, uint64_t id)
{
	void *st;
	const AppProtoOps *ops = flow_ops(f, &st);
	uint64_t base;

	if (!ops || id < (base = tx_base(f)))
		return NULL;
	return ops->tx_get(st, id - base);
}

uint64_t app_layer_tx_low(const Flow *f)
{
	void *st;
	const AppProtoOps *ops = flow_ops(f, &st);

	if (!ops)
		return 0;
	return tx_base(f) + (ops->tx_low ? ops->tx_low(st) : 0);
}

/* The calls on a tx: f's protocol made it, so its entry exists. */
uint64_t app_layer_tx_id(const Flow *f, const void *tx)
{
	return tx_base(f) + app_protos[f->app_proto]->tx_id(tx);
}

uint64_t app_layer_tx_log_id(const Flow *f, const void *tx)
{
	return app_protos[f->app_proto]->tx_log_id(tx);
}

int app_layer_tx_progress(const Flow *f, const void *tx, int dir)
{
	const AppProtoOps *ops = app_protos[f->app_proto];

	/* a side truncated by the reassembly depth never progresses again:
	 * Suricata counts it complete, so the transaction is inspected and
	 * logged when its other side is done, not at the flow's end */
	if (f->app_trunc & (1u << (dir & 1)))
		return ops->progress_complete;
	return ops->tx_progress(tx, dir);
}

unsigned app_layer_tx_flags(const Flow *f, const void *tx)
{
	return app_protos[f->app_proto]->tx_flags(tx);
}

void app_layer_tx_set_flags(const Flow *f, void *tx, unsigned flags)
{
	app_protos[f->app_proto]->tx_set_flags(tx, flags);
}

void **app_layer_tx_detect_slot(const Flow *f, void *tx)
{
	return app_protos[f->app_proto]->tx_detect_slot(tx);
}

/* Set once at start (detection), read-only while workers run. */
static void (*detect_state_free_fn)(void *state);

void app_layer_set_detect_state_free(void (*fn)(void *state))
{
	detect_state_free_fn = fn;
}

void app_layer_detect_state_free(void *state)
{
	if (state && detect_state_free_fn)
		detect_state_free_fn(state);
}

void app_layer_detect_state_free_proto(unsigned alproto, void *state)
{
	if (state && app_mem_accounted(alproto))
		app_mem_disown(alproto, state);
	app_layer_detect_state_free(state);
}

void *app_layer_tx_detect_alloc(const Flow *f, void *tx, size_t size)
{
	void **slot = app_layer_tx_detect_slot(f, tx);

	if (*slot)
		return *slot;
	/* HTTP keeps it in its memory accounting (http.memuse, issue #17), the
	 * protocols under app-layer.memcap in theirs (2 bits per rule of the
	 * protocol: it grows with the rule set) */
	if (f->app_proto == ALPROTO_HTTP1)
		return http_tx_detect_alloc(tx, size);
	if (app_mem_accounted(f->app_proto))
		*slot = app_mem_calloc(f->app_proto, 1, size);
	else
		*slot = calloc(1, size);
	return *slot;
}

int app_layer_event_lookup(uint16_t alproto, const char *name)
{
	const AppProtoOps *ops = app_proto_ops(alproto);

	if (!ops || !ops->event_lookup || !name)
		return -1;
	return ops->event_lookup(name);
}

int app_proto_has_events(uint16_t alproto)
{
	const AppProtoOps *ops = app_proto_ops(alproto);

	return ops && ops->event_lookup;
}

int app_layer_tx_has_event(const Flow *f, const void *tx, int id)
{
	const AppProtoOps *ops = app_proto_ops(f->app_proto);

	return ops && ops->tx_has_event && tx && ops->tx_has_event(tx, id);
}
