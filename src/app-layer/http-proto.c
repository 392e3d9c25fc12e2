/* HTTP/1's entry in the application-protocol registry: its configuration
 * (app-layer.protocols.http.*), its counters, how it is recognised, and the
 * ops that hand the libhtp parser (http.c) to the generic app layer.
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
#include "app-layer/http-range.h"
#include "app-layer/files.h"
#include "conf/conf.h"
#include "util/log.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

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

static void http_config_defaults(AppLayerConfig *cfg)
{
	cfg->http_enabled = 1;
	cfg->http_ports[0] = 80;
	cfg->http_ports[1] = 8080;
	cfg->http_nports = 2;
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
	/* Suricata leaves HTTP unlimited ("values can be 64mb, e.g." in its
	 * yaml); we take that value as the default so that memory is bounded
	 * out of the box (issue #17). 0 still means unlimited. */
	cfg->http_memcap = 64ull << 20;
	cfg->byterange_memcap = 100ull << 20;
	cfg->byterange_timeout = 60;
}

static int load_enabled(AppLayerConfig *cfg)
{
	return app_conf_enabled("app-layer.protocols.http.enabled", &cfg->http_enabled);
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

static int http_config_load(AppLayerConfig *cfg)
{
	int64_t i64;
	uint64_t u64;
	int rc = 0;

	if (load_enabled(cfg) < 0 ||
	    app_conf_ports("app-layer.protocols.http.detection-ports.dp", cfg->http_ports,
			   APP_MAX_DETECT_PORTS, &cfg->http_nports) < 0 ||
	    load_personality(cfg) < 0)
		rc = -1;
	if (app_conf_size(HTP_KEY "request-body-limit", &cfg->request_body_limit) < 0 ||
	    app_conf_size(HTP_KEY "response-body-limit", &cfg->response_body_limit) < 0 ||
	    app_conf_size(HTP_KEY "request-body-minimal-inspect-size",
			  &cfg->request_body_minimal_inspect_size) < 0 ||
	    app_conf_size(HTP_KEY "request-body-inspect-window",
			  &cfg->request_body_inspect_window) < 0 ||
	    app_conf_size(HTP_KEY "response-body-minimal-inspect-size",
			  &cfg->response_body_minimal_inspect_size) < 0 ||
	    app_conf_size(HTP_KEY "response-body-inspect-window",
			  &cfg->response_body_inspect_window) < 0 ||
	    app_conf_size(HTP_KEY "lzma-memlimit", &cfg->lzma_memlimit) < 0)
		rc = -1;
	if (app_conf_bool(HTP_KEY "double-decode-path", &cfg->double_decode_path) < 0 ||
	    app_conf_bool(HTP_KEY "double-decode-query", &cfg->double_decode_query) < 0 ||
	    app_conf_bool(HTP_KEY "uri-include-all", &cfg->uri_include_all) < 0 ||
	    app_conf_bool(HTP_KEY "lzma-enabled", &cfg->lzma_enabled) < 0)
		rc = -1;
	u64 = (uint64_t)cfg->meta_field_limit;
	if (app_conf_size_range(HTP_KEY "meta-field-limit", &u64, 0x7fffffff) < 0)
		rc = -1;
	else
		cfg->meta_field_limit = (int)u64;
	u64 = (uint64_t)cfg->compression_bomb_limit;
	if (app_conf_size_range(HTP_KEY "compression-bomb-limit", &u64, 0x7fffffff) < 0)
		rc = -1;
	else
		cfg->compression_bomb_limit = (int)u64;
	i64 = cfg->response_body_decompress_layer_limit;
	if (app_conf_int_range(HTP_KEY "response-body-decompress-layer-limit", &i64, 0x7fffffff) < 0)
		rc = -1;
	else
		cfg->response_body_decompress_layer_limit = (int)i64;
	i64 = (int64_t)cfg->decompression_time_limit_us;
	if (app_conf_int_range(HTP_KEY "decompression-time-limit", &i64, UINT32_MAX) < 0)
		rc = -1;
	else
		cfg->decompression_time_limit_us = (uint64_t)i64;
	i64 = cfg->max_tx;
	if (app_conf_int_range("app-layer.protocols.http.max-tx", &i64, UINT32_MAX) < 0)
		rc = -1;
	else
		cfg->max_tx = (uint32_t)i64;
	if (conf_get_size("app-layer.protocols.http.memcap", &cfg->http_memcap) < 0)
		rc = -1;
	http_mem_set_cap(cfg->http_memcap);
	if (app_conf_size("app-layer.protocols.http.byterange.memcap", &cfg->byterange_memcap) < 0)
		rc = -1;
	i64 = cfg->byterange_timeout;
	if (app_conf_int_range("app-layer.protocols.http.byterange.timeout", &i64, UINT32_MAX) < 0)
		rc = -1;
	else
		cfg->byterange_timeout = (uint32_t)i64;
	http_range_configure(cfg->byterange_memcap, cfg->byterange_timeout);
	return rc;
}

static int http_enabled(const AppLayerConfig *cfg)
{
	return cfg->http_enabled;
}

/* app_layer.flow.http is registered by the app layer, before
 * app_layer.flow.failed_tcp; these follow it, in Suricata's order. */
static void http_register_counters(void)
{
	AppLayerCounters *c = &app_layer_counters;

	c->tx_http = counter_register("app_layer.tx.http");
	c->err_http_gap = counter_register("app_layer.error.http.gap");
	c->err_http_alloc = counter_register("app_layer.error.http.alloc");
	c->err_http_parser = counter_register("app_layer.error.http.parser");
	c->err_http_internal = counter_register("app_layer.error.http.internal");
	http_mem_register_counters();
	http_range_register_counters();
	files_register_counters();
}

static void *http_thread_new(const AppLayerConfig *cfg)
{
	return http_cfg_new(cfg);
}

static void tx_thread_free(void *ctx)
{
	/* flows still holding the libhtp config keep it alive (refcount) */
	http_cfg_put(ctx);
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

static int http_probe(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
		      uint32_t len)
{
	int r;

	if (dir == APP_DIR_TOCLIENT)
		return detect_response(buf, len);
	r = detect_request(buf, len);
	if (r == DET_NO && port_is_http(cfg, f->dp)) {
		/* the HTTP/2 client preface is HTTP/2's (http2-proto.c), not an
		 * unknown method on a web port */
		static const char h2[] = "PRI * HTTP/2.0\r\n";
		uint32_t n = len < sizeof(h2) - 1 ? len : (uint32_t)sizeof(h2) - 1;

		if (!memcmp(buf, h2, n))
			return n < sizeof(h2) - 1 ? DET_MORE : DET_NO;
		r = probe_token_line(buf, len, cfg->detect_max_bytes);
	}
	return r;
}

/* Midstream, the first bytes of dir may be the other side's: a response
 * toward the server, or a request toward the client (patterns only, as
 * Suricata's reverse-direction pattern match; no port probe). */
static int http_probe_reversed(int dir, const uint8_t *buf, uint32_t len)
{
	return dir == APP_DIR_TOSERVER ? detect_response(buf, len) : detect_request(buf, len);
}

/* ---------------- transactions ---------------- */

static uint64_t tx_id(const void *tx)
{
	return http_tx_id(tx);
}

static uint64_t tx_log_id(const void *tx)
{
	return http_tx_log_id(tx);
}

static int tx_progress(const void *tx, int dir)
{
	return http_tx_progress(tx, dir);
}

static unsigned tx_flags(const void *tx)
{
	return http_tx_flags(tx);
}

static void tx_set_flags(void *tx, unsigned flags)
{
	http_tx_set_flags(tx, flags);
}

static void **tx_detect_slot(void *tx)
{
	return http_tx_detect_slot(tx);
}

static int tx_has_event(const void *tx, int id)
{
	return http_tx_has_event(tx, id);
}

/* Indexed by enum http_frame_type. */
const char *const http_frame_names[] = { "request", "response", NULL };

/* Suricata 8's HTTP/1 hooks (http1:request_line, ...) on libhtp's
 * progress: the trailer shares the side's completion, which our parser
 * reaches with it. */
static const AppHook http1_hooks[] = {
	{ "request_started", APP_DIR_TOSERVER, HTTP_PROGRESS_NONE, NULL },
	{ "request_line", APP_DIR_TOSERVER, HTTP_PROGRESS_LINE, NULL },
	{ "request_headers", APP_DIR_TOSERVER, HTTP_PROGRESS_HEADERS, NULL },
	{ "request_body", APP_DIR_TOSERVER, HTTP_PROGRESS_BODY, NULL },
	{ "request_trailer", APP_DIR_TOSERVER, HTTP_PROGRESS_COMPLETE, NULL },
	{ "request_complete", APP_DIR_TOSERVER, HTTP_PROGRESS_COMPLETE, NULL },
	{ "response_started", APP_DIR_TOCLIENT, HTTP_PROGRESS_NONE, NULL },
	{ "response_line", APP_DIR_TOCLIENT, HTTP_PROGRESS_LINE, NULL },
	{ "response_headers", APP_DIR_TOCLIENT, HTTP_PROGRESS_HEADERS, NULL },
	{ "response_body", APP_DIR_TOCLIENT, HTTP_PROGRESS_BODY, NULL },
	{ "response_trailer", APP_DIR_TOCLIENT, HTTP_PROGRESS_COMPLETE, NULL },
	{ "response_complete", APP_DIR_TOCLIENT, HTTP_PROGRESS_COMPLETE, NULL },
	{ NULL, 0, 0, NULL },
};

const AppProtoOps http_proto_ops = {
	.name = "http",
	.alias = "http1",
	.ipprotos = APP_IPPROTO_TCP,
	/* Suricata 8's HTTP parser takes a junk request line before a real
	 * response as no request (suricata-verify http-not09-file); libhtp
	 * 0.5 takes it as HTTP/0.9 and the response as a body, so the junk
	 * is better left out */
	.skip_undetected = 1,
	.config_defaults = http_config_defaults,
	.config_load = http_config_load,
	.enabled = http_enabled,
	.register_counters = http_register_counters,
	.thread_new = http_thread_new,
	.thread_free = tx_thread_free,
	.probe = http_probe,
	.probe_reversed = http_probe_reversed,
	.state_new = http_state_new,
	.state_free = http_state_free,
	.parse = http_parse,
	.tunnel_started = http_tunnel_started,
	.tunnel_take = http_tunnel_take,
	.tunnel_restart = http_tunnel_restart,
	.tx_count = http_state_tx_count,
	.tx_get = http_state_tx_get,
	.tx_low = http_state_tx_low,
	.tx_id = tx_id,
	.tx_log_id = tx_log_id,
	.tx_progress = tx_progress,
	.progress_complete = HTTP_PROGRESS_COMPLETE,
	.hooks = http1_hooks,
	.tx_flags = tx_flags,
	.tx_set_flags = tx_set_flags,
	.tx_detect_slot = tx_detect_slot,
	.tx_gc = http_tx_gc,
	.event_lookup = http_event_lookup,
	.tx_has_event = tx_has_event,
	.frame_names = http_frame_names,
};
