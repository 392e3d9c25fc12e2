/* Private to src/app-layer: what app-layer.c (detection, dispatch) and the
 * protocol parsers (http.c) share. Not for other subsystems. */
#ifndef APP_LAYER_APP_LAYER_INT_H
#define APP_LAYER_APP_LAYER_INT_H

#include "app-layer/app-layer.h"

/* Counter ids, registered once by app_layer_register_counters(). */
typedef struct AppLayerCounters {
	counter_id flow_http;       /* app_layer.flow.http */
	counter_id flow_failed_tcp; /* app_layer.flow.failed_tcp */
	counter_id tx_http;         /* app_layer.tx.http */
	counter_id err_http_gap;    /* app_layer.error.http.gap */
	counter_id err_http_alloc;  /* app_layer.error.http.alloc */
	counter_id err_http_parser; /* app_layer.error.http.parser */
	counter_id err_http_internal;
	counter_id err_http_exc;    /* app_layer.error.http.exception_policy */
} AppLayerCounters;

extern AppLayerCounters app_layer_counters;
extern int app_layer_counters_registered;

struct HttpCfg;

struct AppLayerThread {
	const AppLayerConfig *cfg;
	ThreadCounters *tc;
	struct HttpCfg *http;       /* libhtp config, refcounted by the flows using it */
};

/* f->alstate: detection state, then the protocol's parser state. */
typedef struct AppFlowState {
	uint8_t det[2];             /* enum det_state per direction */
	uint8_t eof[2];
	uint8_t held_len[2];
	uint8_t held[2][24];        /* bytes kept while content detection needs more */
	uint32_t seen[2];           /* bytes seen before a decision */
	uint8_t tunnel;             /* enum tunnel_state (app-layer.c) */
	uint8_t reversed;           /* APP_REVERSE was asked (once per flow) */
	void *proto;                /* HttpState * for ALPROTO_HTTP1 */
} AppFlowState;

/* ---- http.c ---- */
struct HttpCfg *http_cfg_new(const AppLayerConfig *cfg);
void http_cfg_put(struct HttpCfg *hc);
void *http_state_new(AppLayerThread *at, Flow *f);
void http_state_free(void *state);
/* Feeds one direction's bytes (or a gap / eof). 0, or -1 on a parser error. */
int http_parse(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
	       uint32_t len, int flags);
void http_tx_gc(void *state, unsigned need);
/* CONNECT tunnels: once libhtp switched to tunnel mode, http_parse() keeps
 * each direction's bytes for http_tunnel_take() (caller frees) instead of
 * parsing them; http_tunnel_restart() opens a new parser for tunnelled HTTP
 * (0, or -1 past the limit of nested tunnels). */
int http_tunnel_started(void *state);
uint8_t *http_tunnel_take(void *state, int dir, uint32_t *len);
int http_tunnel_restart(AppLayerThread *at, Flow *f, void *state);

#endif
