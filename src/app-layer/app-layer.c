/* Application layer: configuration, counters, protocol detection and the
 * dispatch of stream bytes to the protocol parser.
 *
 * Detection is by content first, as Suricata's pattern-based detection is:
 * a request line starting with a known method followed by SP or TAB, or a
 * response starting with "HTTP/", on any port. When the content names no
 * known method and the server port is one of the http detection-ports, a
 * looser probe accepts any "TOKEN SP" start (unknown methods on web ports),
 * the way Suricata's port-bound probing parsers back up its patterns. */
#include "app-layer/app-layer-int.h"
#include "app-layer/http.h"
#include "app-layer/http-mem.h"
#include "conf/conf.h"
#include "util/log.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

AppLayerCounters app_layer_counters;
int app_layer_counters_registered;

enum det_state { DET_NONE = 0, DET_MORE, DET_NO, DET_YES };

/* After a successful CONNECT, Suricata detects the protocol again on what the
 * tunnel carries; we parse it when it is HTTP and ignore it otherwise (the
 * flow stays "http"). */
enum tunnel_state { TUN_NONE = 0, TUN_DETECT, TUN_DEAD };

/* ---------------- configuration ---------------- */

static const struct {
	const char *name;
	enum http_personality p;
} personalities[] = {
	{ "Minimal", HTTP_PERS_MINIMAL }, { "Generic", HTTP_PERS_GENERIC },
	{ "IDS", HTTP_PERS_IDS },         { "IIS_4_0", HTTP_PERS_IIS_4_0 },
	{ "IIS_5_0", HTTP_PERS_IIS_5_0 }, { "IIS_5_1", HTTP_PERS_IIS_5_1 },
	{ "IIS_6_0", HTTP_PERS_IIS_6_0 }, { "IIS_7_0", HTTP_PERS_IIS_7_0 },
	{ "IIS_7_5", HTTP_PERS_IIS_7_5 }, { "Apache_2", HTTP_PERS_APACHE_2 },
	/* Suricata also accepts "Apache" for Apache_2 */
	{ "Apache", HTTP_PERS_APACHE_2 },
};

#define HTP_KEY "app-layer.protocols.http.libhtp.default-config."

static void config_defaults(AppLayerConfig *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->http_enabled = 1;
	cfg->http_ports[0] = 80;
	cfg->http_ports[1] = 8080;
	cfg->http_nports = 2;
	cfg->detect_max_bytes = 24;
	cfg->personality = HTTP_PERS_IDS;
	cfg->request_body_limit = 100 * 1024;
	cfg->response_body_limit = 100 * 1024;
	cfg->request_body_minimal_inspect_size = 32 * 1024;
	cfg->request_body_inspect_window = 4 * 1024;
	cfg->response_body_minimal_inspect_size = 40 * 1024;
	cfg->response_body_inspect_window = 16 * 1024;
	cfg->response_body_decompress_layer_limit = 2;
	cfg->decompression_time_limit_us = 100000;
	cfg->meta_field_limit = 18 * 1024;
	cfg->lzma_enabled = 1;
	cfg->lzma_memlimit = 1024 * 1024;
	cfg->compression_bomb_limit = 1024 * 1024;
	cfg->max_tx = 512;
}

/* "18k" style sizes appear in Suricata's yaml (meta-field-limit) beside
 * "100kb": accept a bare k/m/g too. 1 found, 0 absent, -1 invalid (logged). */
static int get_size(const char *key, uint64_t *out)
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
static int get_int_range(const char *key, int64_t *out, int64_t max)
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

static int get_size_range(const char *key, uint64_t *out, uint64_t max)
{
	uint64_t v = *out;
	int r = get_size(key, &v);

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

static int get_bool(const char *key, int *out)
{
	return conf_get_bool(key, out) < 0 ? -1 : 0;
}

/* "80", "80, 8080", "[80,8080]", "8000:8010" (ranges, capped by the table). */
static int parse_ports(const char *s, AppLayerConfig *cfg)
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
		for (unsigned long p = lo; p <= hi && n < APP_MAX_DETECT_PORTS; p++)
			cfg->http_ports[n++] = (uint16_t)p;
	}
	cfg->http_nports = n;
	return 0;
}

static int load_ports(AppLayerConfig *cfg)
{
	static const char *const key = "app-layer.protocols.http.detection-ports.dp";
	ConfNode *node = conf_get_node(key);
	char buf[512];
	size_t used = 0;

	if (!node)
		return 0;
	if (node->val)
		return parse_ports(node->val, cfg) == 0 ? 0 :
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
	if (parse_ports(buf, cfg) < 0) {
		log_error("app-layer: %s: invalid port list", key);
		return -1;
	}
	return 0;
}

static int load_enabled(AppLayerConfig *cfg)
{
	static const char *const key = "app-layer.protocols.http.enabled";
	const char *v = conf_get(key);

	if (!v)
		return 0;
	if (strcasecmp(v, "detection-only") == 0) {
		cfg->http_enabled = 2;
		return 0;
	}
	return get_bool(key, &cfg->http_enabled);
}

static int load_personality(AppLayerConfig *cfg)
{
	const char *v = conf_get(HTP_KEY "personality");

	if (!v)
		return 0;
	for (size_t i = 0; i < sizeof(personalities) / sizeof(personalities[0]); i++) {
		if (strcasecmp(v, personalities[i].name) == 0) {
			cfg->personality = personalities[i].p;
			return 0;
		}
	}
	log_error("app-layer: " HTP_KEY "personality: unknown personality \"%s\"", v);
	return -1;
}

int app_layer_config_load(AppLayerConfig *cfg)
{
	int64_t i64;
	uint64_t u64;
	int rc = 0;

	config_defaults(cfg);
	if (load_enabled(cfg) < 0 || load_ports(cfg) < 0 || load_personality(cfg) < 0)
		rc = -1;
	if (get_size(HTP_KEY "request-body-limit", &cfg->request_body_limit) < 0 ||
	    get_size(HTP_KEY "response-body-limit", &cfg->response_body_limit) < 0 ||
	    get_size(HTP_KEY "request-body-minimal-inspect-size",
		     &cfg->request_body_minimal_inspect_size) < 0 ||
	    get_size(HTP_KEY "request-body-inspect-window", &cfg->request_body_inspect_window) < 0 ||
	    get_size(HTP_KEY "response-body-minimal-inspect-size",
		     &cfg->response_body_minimal_inspect_size) < 0 ||
	    get_size(HTP_KEY "response-body-inspect-window",
		     &cfg->response_body_inspect_window) < 0 ||
	    get_size(HTP_KEY "lzma-memlimit", &cfg->lzma_memlimit) < 0)
		rc = -1;
	if (get_bool(HTP_KEY "double-decode-path", &cfg->double_decode_path) < 0 ||
	    get_bool(HTP_KEY "double-decode-query", &cfg->double_decode_query) < 0 ||
	    get_bool(HTP_KEY "uri-include-all", &cfg->uri_include_all) < 0 ||
	    get_bool(HTP_KEY "lzma-enabled", &cfg->lzma_enabled) < 0)
		rc = -1;
	u64 = (uint64_t)cfg->meta_field_limit;
	if (get_size_range(HTP_KEY "meta-field-limit", &u64, 0x7fffffff) < 0)
		rc = -1;
	else
		cfg->meta_field_limit = (int)u64;
	u64 = (uint64_t)cfg->compression_bomb_limit;
	if (get_size_range(HTP_KEY "compression-bomb-limit", &u64, 0x7fffffff) < 0)
		rc = -1;
	else
		cfg->compression_bomb_limit = (int)u64;
	i64 = cfg->response_body_decompress_layer_limit;
	if (get_int_range(HTP_KEY "response-body-decompress-layer-limit", &i64, 0x7fffffff) < 0)
		rc = -1;
	else
		cfg->response_body_decompress_layer_limit = (int)i64;
	i64 = (int64_t)cfg->decompression_time_limit_us;
	if (get_int_range(HTP_KEY "decompression-time-limit", &i64, UINT32_MAX) < 0)
		rc = -1;
	else
		cfg->decompression_time_limit_us = (uint64_t)i64;
	i64 = cfg->max_tx;
	if (get_int_range("app-layer.protocols.http.max-tx", &i64, UINT32_MAX) < 0)
		rc = -1;
	else
		cfg->max_tx = (uint32_t)i64;
	if (conf_get_size("app-layer.protocols.http.memcap", &cfg->http_memcap) < 0)
		rc = -1;
	http_mem_set_cap(cfg->http_memcap);
	return rc;
}

void app_layer_register_counters(void)
{
	AppLayerCounters *c = &app_layer_counters;

	c->flow_http = counter_register("app_layer.flow.http");
	c->flow_failed_tcp = counter_register("app_layer.flow.failed_tcp");
	c->tx_http = counter_register("app_layer.tx.http");
	c->err_http_gap = counter_register("app_layer.error.http.gap");
	c->err_http_alloc = counter_register("app_layer.error.http.alloc");
	c->err_http_parser = counter_register("app_layer.error.http.parser");
	c->err_http_internal = counter_register("app_layer.error.http.internal");
	http_mem_register_counters();
	app_layer_counters_registered = 1;
}

/* ---------------- threads ---------------- */

AppLayerThread *app_layer_thread_new(const AppLayerConfig *cfg, ThreadCounters *tc)
{
	AppLayerThread *at = calloc(1, sizeof(*at));

	if (!at)
		return NULL;
	at->cfg = cfg;
	at->tc = tc;
	if (cfg->http_enabled) {
		at->http = http_cfg_new(cfg);
		if (!at->http) {
			free(at);
			return NULL;
		}
	}
	return at;
}

void app_layer_thread_free(AppLayerThread *at)
{
	if (!at)
		return;
	/* flows still holding the libhtp config keep it alive (refcount) */
	if (at->http)
		http_cfg_put(at->http);
	free(at);
}

static inline void count(AppLayerThread *at, counter_id id)
{
	if (at->tc && app_layer_counters_registered)
		counter_inc(at->tc, id);
}

/* ---------------- detection ---------------- */

/* Methods Suricata's HTTP detection knows (libhtp's method table). */
static const char *const http_methods[] = {
	"GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE", "CONNECT", "PATCH",
	"PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK",
	"VERSION-CONTROL", "CHECKOUT", "UNCHECKOUT", "CHECKIN", "UPDATE", "LABEL",
	"REPORT", "MKWORKSPACE", "MKACTIVITY", "BASELINE-CONTROL", "MERGE", "INVALID",
	"SEARCH", "BIND", "UNBIND", "REBIND", "ACL", "MKCALENDAR", "ORDERPATCH",
	"MKREDIRECTREF", "UPDATEREDIRECTREF", "POLL", "NOTIFY", "SUBSCRIBE",
	"UNSUBSCRIBE", "BMOVE", "BDELETE", "BCOPY", "BPROPFIND", "BPROPPATCH",
};

/* buf starts with word and then SP/TAB: YES; buf is a strict prefix of that:
 * MORE; else NO. */
static int match_word(const uint8_t *buf, uint32_t len, const char *word, int need_delim)
{
	uint32_t wl = (uint32_t)strlen(word);
	uint32_t n = len < wl ? len : wl;

	if (strncasecmp((const char *)buf, word, n) != 0)
		return DET_NO;
	if (len < wl + (need_delim ? 1 : 0))
		return DET_MORE;
	if (!need_delim)
		return DET_YES;
	return (buf[wl] == ' ' || buf[wl] == '\t') ? DET_YES : DET_NO;
}

static int detect_request(const uint8_t *buf, uint32_t len)
{
	int more = 0;

	for (size_t i = 0; i < sizeof(http_methods) / sizeof(http_methods[0]); i++) {
		int r = match_word(buf, len, http_methods[i], 1);

		if (r == DET_YES)
			return DET_YES;
		if (r == DET_MORE)
			more = 1;
	}
	return more ? DET_MORE : DET_NO;
}

static int detect_response(const uint8_t *buf, uint32_t len)
{
	return match_word(buf, len, "HTTP/", 0);
}

/* Port fallback: "TOKEN SP" with an HTTP token of capitals, digits, '-', '_'. */
static int probe_token_line(const uint8_t *buf, uint32_t len, uint32_t max)
{
	uint32_t i;

	for (i = 0; i < len; i++) {
		uint8_t c = buf[i];

		if (c == ' ' || c == '\t')
			return i > 0 ? DET_YES : DET_NO;
		if (!(isupper(c) || isdigit(c) || c == '-' || c == '_'))
			return DET_NO;
	}
	return len < max ? DET_MORE : DET_NO;
}

static int port_is_http(const AppLayerConfig *cfg, uint16_t port)
{
	for (unsigned i = 0; i < cfg->http_nports; i++)
		if (cfg->http_ports[i] == port)
			return 1;
	return 0;
}

static int detect_dir(AppLayerThread *at, const Flow *f, int dir, const uint8_t *buf,
		      uint32_t len)
{
	int r;

	if (len == 0)
		return DET_MORE;
	if (dir == APP_DIR_TOCLIENT)
		return detect_response(buf, len);
	r = detect_request(buf, len);
	if (r == DET_NO && port_is_http(at->cfg, f->dp))
		r = probe_token_line(buf, len, at->cfg->detect_max_bytes);
	return r;
}

/* Midstream, the first bytes of dir may be the other side's: a response
 * toward the server, or a request toward the client (patterns only, as
 * Suricata's reverse-direction pattern match; no port probe). */
static int detect_reversed(int dir, const uint8_t *buf, uint32_t len)
{
	if (len == 0)
		return DET_MORE;
	return dir == APP_DIR_TOSERVER ? detect_response(buf, len) : detect_request(buf, len);
}

/* Reversal is possible while nothing was decided: no tunnel, and the other
 * direction has shown nothing yet (Suricata: only if it was not detected). */
static int may_reverse(const Flow *f, const AppFlowState *fs, int dir, int flags)
{
	return (flags & APP_MIDSTREAM) && !fs->reversed && fs->tunnel == TUN_NONE &&
	       f->app_proto == ALPROTO_UNKNOWN && fs->det[!dir] == DET_NONE &&
	       fs->seen[!dir] == 0 && !fs->eof[!dir];
}

/* The flow is about to be reversed: detection's per-direction state too. */
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
}

static AppFlowState *flow_state(Flow *f)
{
	if (!f->alstate)
		f->alstate = calloc(1, sizeof(AppFlowState));
	return f->alstate;
}

static void set_failed(AppLayerThread *at, Flow *f, AppFlowState *fs)
{
	if (fs->tunnel == TUN_DETECT) {
		fs->tunnel = TUN_DEAD;
		return;
	}
	f->app_proto = ALPROTO_FAILED;
	if (f->proto == 6)
		count(at, app_layer_counters.flow_failed_tcp);
}

static int tunnel_begin(AppLayerThread *at, Flow *f, AppFlowState *fs);

/* Parses, then hands what follows a successful CONNECT to detection. */
static int parse(AppLayerThread *at, Flow *f, AppFlowState *fs, int dir,
		 const uint8_t *data, uint32_t len, int flags)
{
	int rc = http_parse(at, f, fs->proto, dir, data, len, flags);

	if (http_tunnel_started(fs->proto))
		tunnel_begin(at, f, fs);
	return rc;
}

/* Decided HTTP: start the parser and give it what detection held back. */
static int start_http(AppLayerThread *at, Flow *f, AppFlowState *fs)
{
	if (fs->tunnel == TUN_DETECT) {
		/* HTTP inside the tunnel: a fresh parser, as on a new flow */
		if (http_tunnel_restart(at, f, fs->proto) < 0) {
			fs->tunnel = TUN_DEAD;
			return 0;
		}
		fs->tunnel = TUN_NONE;
	} else {
		f->app_proto = ALPROTO_HTTP1;
		count(at, app_layer_counters.flow_http);
		if (at->cfg->http_enabled != 1)
			return 0;       /* detection-only */
		fs->proto = http_state_new(at, f);
		if (!fs->proto) {
			count(at, app_layer_counters.err_http_alloc);
			return -1;
		}
	}
	for (int d = 0; d < 2; d++) {
		uint64_t off1 = f->app_data_off1[d];

		/* held bytes are a copy, from earlier calls: no stream offset */
		f->app_data_off1[d] = 0;
		if (fs->held_len[d] && fs->det[d] != DET_NO)
			parse(at, f, fs, d, fs->held[d], fs->held_len[d], 0);
		f->app_data_off1[d] = off1;
		fs->held_len[d] = 0;
	}
	return 0;
}

static int detect_and_start(AppLayerThread *at, Flow *f, AppFlowState *fs, int dir,
			    const uint8_t *data, uint32_t len, int flags)
{
	uint8_t tmp[sizeof(fs->held[0])];
	uint32_t n = fs->held_len[dir], take;
	int r, other = !dir;

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
	} else if (fs->det[dir] == DET_NONE || fs->det[dir] == DET_MORE) {
		take = len < sizeof(tmp) - n ? len : (uint32_t)sizeof(tmp) - n;
		memcpy(tmp, fs->held[dir], n);
		if (take)
			memcpy(tmp + n, data, take);
		r = detect_dir(at, f, dir, tmp, n + take);
		if (r == DET_NO && may_reverse(f, fs, dir, flags)) {
			int rr = detect_reversed(dir, tmp, n + take);

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
		if (r == DET_MORE) {
			memcpy(fs->held[dir] + n, data, len);  /* len == take here */
			fs->held_len[dir] = (uint8_t)(n + len);
			return 0;
		}
		if (r == DET_YES) {
			if (start_http(at, f, fs) < 0)
				return -1;
			if (fs->proto)
				return parse(at, f, fs, dir, data, len, flags);
			return 0;
		}
	}
	if (flags & APP_EOF)
		fs->eof[dir] = 1;
	/* this side said no; the flow fails once the other side cannot say yes */
	if (fs->det[dir] == DET_NO &&
	    (fs->det[other] == DET_NO || fs->eof[other]))
		set_failed(at, f, fs);
	return f->app_proto == ALPROTO_FAILED ? -1 : 0;
}

/* libhtp is in tunnel mode: detect again on the bytes it left, each side. */
static int tunnel_begin(AppLayerThread *at, Flow *f, AppFlowState *fs)
{
	fs->tunnel = TUN_DETECT;
	for (int d = 0; d < 2; d++) {
		fs->det[d] = DET_NONE;
		fs->held_len[d] = 0;
		fs->seen[d] = 0;
	}
	for (int d = 0; d < 2 && fs->tunnel == TUN_DETECT; d++) {
		uint32_t n;
		uint8_t *p = http_tunnel_take(fs->proto, d, &n);
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

static int http_data(AppLayerThread *at, Flow *f, AppFlowState *fs, int dir,
		     const uint8_t *data, uint32_t len, int flags)
{
	if (fs->tunnel == TUN_DEAD)
		return 0;
	if (fs->tunnel == TUN_DETECT)
		return detect_and_start(at, f, fs, dir, data, len, flags);
	return parse(at, f, fs, dir, data, len, flags);
}

int app_layer_handle_data(AppLayerThread *at, Flow *f, int dir, const uint8_t *data,
			  uint32_t len, int flags)
{
	AppFlowState *fs;

	if (!at || !f || dir < 0 || dir > 1)
		return -1;
	if (!at->cfg->http_enabled)
		return -1;
	if (f->app_proto == ALPROTO_FAILED)
		return -1;
	if (!data && !(flags & APP_GAP))
		len = 0;
	fs = flow_state(f);
	if (!fs) {
		count(at, app_layer_counters.err_http_alloc);
		return -1;
	}
	if (f->app_proto == ALPROTO_UNKNOWN)
		return detect_and_start(at, f, fs, dir, data, len, flags);
	if (flags & APP_EOF)
		fs->eof[dir] = 1;
	if (f->app_proto == ALPROTO_HTTP1 && fs->proto)
		return http_data(at, f, fs, dir, data, len, flags);
	return 0;
}

void app_layer_tx_gc(Flow *f, unsigned need)
{
	AppFlowState *fs = f ? f->alstate : NULL;

	if (fs && fs->proto && f->app_proto == ALPROTO_HTTP1)
		http_tx_gc(fs->proto, need);
}

void app_layer_flow_free(Flow *f)
{
	AppFlowState *fs;

	if (!f || !f->alstate)
		return;
	fs = f->alstate;
	if (fs->proto)
		http_state_free(fs->proto);
	free(fs);
	f->alstate = NULL;
}

const char *app_proto_name(uint16_t alproto)
{
	switch (alproto) {
	case ALPROTO_HTTP1:
		return "http";
	case ALPROTO_FAILED:
		return "failed";
	default:
		return "unknown";
	}
}

int app_proto_by_name(const char *name)
{
	if (!name)
		return -1;
	if (strcmp(name, "http") == 0 || strcmp(name, "http1") == 0)
		return ALPROTO_HTTP1;
	if (strcmp(name, "failed") == 0)
		return ALPROTO_FAILED;
	return -1;
}
