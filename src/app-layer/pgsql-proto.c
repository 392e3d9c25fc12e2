/* PostgreSQL's entry in the application-protocol registry: its yaml section
 * (app-layer.protocols.pgsql: enabled, detection-ports, stream-depth,
 * max-tx), how it is recognised, and the transactions of pgsql.h.
 *
 * Recognition, as Suricata's probe: on the detection ports (5432 by
 * default, either end), a client's first message (SSLRequest,
 * GSSENCRequest, a 3.x StartupMessage, CancelRequest) or a server's
 * authentication request or error. Other bytes to the port are not
 * PostgreSQL (suricata-verify pgsql-bug-6080-probe-test-01).
 *
 * TLS: when the server accepts an SSLRequest ('S') the flow is TLS from
 * the next byte on (app_layer_request_proto_change), as in Suricata 8. */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/pgsql.h"
#include "conf/conf.h"
#include "stream/stream.h"

#include <stdlib.h>
#include <string.h>

#define PGSQL_KEY "app-layer.protocols.pgsql."

static struct {
	int enabled;
	uint16_t ports[APP_MAX_DETECT_PORTS];
	unsigned nports;
	uint64_t max_tx;
	int depth_set;              /* stream-depth given: the flows' own depth */
	uint64_t stream_depth;
} pgsql_conf;

static void pgsql_config_defaults(AppLayerConfig *cfg)
{
	(void)cfg;
	/* Suricata 8's stock yaml enables it */
	pgsql_conf.enabled = 1;
	pgsql_conf.ports[0] = 5432;
	pgsql_conf.nports = 1;
	pgsql_conf.max_tx = 1024;
	pgsql_conf.depth_set = 0;
	pgsql_conf.stream_depth = 0;
}

static int pgsql_config_load(AppLayerConfig *cfg)
{
	int64_t v = 0;
	uint64_t d = 0;
	int rc;

	(void)cfg;
	rc = app_conf_enabled_ports(PGSQL_KEY, &pgsql_conf.enabled, pgsql_conf.ports,
				    &pgsql_conf.nports);
	if (!pgsql_conf.nports) {
		pgsql_conf.ports[0] = 5432;
		pgsql_conf.nports = 1;
	}
	switch (app_conf_int_range(PGSQL_KEY "max-tx", &v, UINT32_MAX)) {
	case 1:
		pgsql_conf.max_tx = v ? (uint64_t)v : 1;
		break;
	case -1:
		rc = -1;
	}
	/* stream-depth: the flows' reassembly depth in place of the stream
	 * engine's (0: all of it, as Suricata 8's stock yaml has it: a large
	 * result set is counted to its end) */
	switch (app_conf_size(PGSQL_KEY "stream-depth", &d)) {
	case 1:
		pgsql_conf.depth_set = 1;
		pgsql_conf.stream_depth = d;
		break;
	case -1:
		rc = -1;
	}
	return rc;
}

static int pgsql_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return pgsql_conf.enabled;
}

static AppTxCounters ctr;

static void pgsql_register_counters(void)
{
	app_tx_counters_register(&ctr, "pgsql");
}

/* ---------------- detection ---------------- */

static int port_ok(const Flow *f)
{
	for (unsigned i = 0; i < pgsql_conf.nports; i++)
		if (f->dp == pgsql_conf.ports[i] || f->sp == pgsql_conf.ports[i])
			return 1;
	return 0;
}

static int pgsql_probe(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
		       uint32_t len)
{
	int r;

	(void)cfg;
	if (!port_ok(f))
		return DET_NO;
	r = dir == APP_DIR_TOSERVER ? pgsql_probe_ts(buf, len) : pgsql_probe_tc(buf, len);
	if (r == 0)
		return DET_MORE;
	return r > 0 ? DET_YES : DET_NO;
}

/* ---------------- state ---------------- */

typedef struct PgsqlState {
	PgsqlConn c;                /* first: txlist.h's ops read its AppTxList */
	int detect_only;
	uint64_t ntx, nerr, nalloc; /* what the counters were told */
	uint8_t changed;
} PgsqlState;

static void *pgsql_state_new(AppLayerThread *at, Flow *f)
{
	PgsqlState *st = calloc(1, sizeof(*st));

	if (pgsql_conf.depth_set)
		stream_set_depth(f, pgsql_conf.stream_depth);
	if (!st) {
		app_tx_count(at, &ctr, APP_CTR_ALLOC, 1);
		return NULL;
	}
	pgsql_conn_init(&st->c, pgsql_conf.max_tx);
	st->detect_only = pgsql_conf.enabled == 2;
	return st;
}

static void pgsql_state_free(void *state)
{
	PgsqlState *st = state;

	if (!st)
		return;
	pgsql_conn_free(&st->c);
	free(st);
}

static int pgsql_parse(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
		       uint32_t len, int flags)
{
	PgsqlState *st = state;
	int r = 0;

	if (!st || st->detect_only || dir < 0 || dir > 1)
		return 0;
	if (flags & APP_GAP) {
		if (!st->c.stopped[dir])
			app_tx_count(at, &ctr, APP_CTR_GAP, 1);
		pgsql_conn_gap(&st->c, dir);
		return 0;
	}
	if (data && len)
		r = pgsql_conn_feed(&st->c, dir, data, len);
	if (flags & APP_EOF)
		pgsql_conn_eof(&st->c, dir);
	if (st->c.ntx > st->ntx) {
		app_tx_count(at, &ctr, APP_CTR_TX, st->c.ntx - st->ntx);
		st->ntx = st->c.ntx;
	}
	if (st->c.nerr > st->nerr) {
		app_tx_count(at, &ctr, APP_CTR_PARSER, st->c.nerr - st->nerr);
		st->nerr = st->c.nerr;
	}
	if (st->c.nalloc > st->nalloc) {
		app_tx_count(at, &ctr, APP_CTR_ALLOC, st->c.nalloc - st->nalloc);
		st->nalloc = st->c.nalloc;
	}
	if (st->c.to_tls && !st->changed) {
		st->changed = 1;
		app_layer_request_proto_change(f, ALPROTO_TLS);
	}
	return r;
}

/* the bytes past the server's 'S': the TLS parser's first */
static uint8_t *pgsql_held_take(void *state, int dir, uint32_t *len)
{
	PgsqlState *st = state;
	uint8_t *p;

	if (!st || dir < 0 || dir > 1 || !st->c.held_len[dir]) {
		*len = 0;
		return NULL;
	}
	p = st->c.held[dir];
	*len = st->c.held_len[dir];
	st->c.held[dir] = NULL;
	st->c.held_len[dir] = 0;
	return p;
}

const AppProtoOps pgsql_proto_ops = {
	.name = "pgsql",
	.ipprotos = APP_IPPROTO_TCP,
	.config_defaults = pgsql_config_defaults,
	.config_load = pgsql_config_load,
	.enabled = pgsql_enabled,
	.register_counters = pgsql_register_counters,
	.probe = pgsql_probe,
	.state_new = pgsql_state_new,
	.state_free = pgsql_state_free,
	.parse = pgsql_parse,
	.tunnel_take = pgsql_held_take,
	TXL_TX_OPS,
	.event_lookup = pgsql_event_by_name,
	.tx_has_event = txl_op_has_event,
};
