/* RDP's entry in the application-protocol registry: its configuration
 * (app-layer.protocols.rdp.*), how it is recognised, and the ops that hand
 * the connection-sequence parser (rdp-parse.c) to the generic app layer.
 *
 * Detection is Suricata 8's: a probe on the detection ports (default
 * 3389, either end of the flow) for a TPKT holding an X.224 Connection
 * Request (toserver) or Confirm (toclient); a TPKT header is too weak a
 * pattern for every port. Transactions are the parser's messages, one
 * each, complete as they come (txlist.h). */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/rdp.h"
#include "conf/conf.h"

#include <stdlib.h>
#include <string.h>

#define RDP_KEY "app-layer.protocols.rdp."

/* Read once at start (config_load); read-only afterwards. */
static struct {
	int enabled;                /* 1 yes, 2 detection-only, 0 no */
	uint16_t ports[APP_MAX_DETECT_PORTS];
	unsigned nports;
} rdp_conf;

static void rdp_config_defaults(AppLayerConfig *cfg)
{
	(void)cfg;
	memset(&rdp_conf, 0, sizeof(rdp_conf));
	rdp_conf.enabled = 1;
	rdp_conf.ports[0] = 3389;
	rdp_conf.nports = 1;
}

static int rdp_config_load(AppLayerConfig *cfg)
{
	(void)cfg;
	return app_conf_enabled_ports(RDP_KEY, &rdp_conf.enabled, rdp_conf.ports,
				      &rdp_conf.nports) < 0 ? -1 : 0;
}

static AppTxCounters ctr;

static void rdp_register_counters(void)
{
	app_tx_counters_register(&ctr, "rdp");
}

static int rdp_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return rdp_conf.enabled;
}

static int port_listed(uint16_t port)
{
	for (unsigned i = 0; i < rdp_conf.nports; i++)
		if (rdp_conf.ports[i] == port)
			return 1;
	return 0;
}

static int rdp_probe_dir(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
			 uint32_t len)
{
	int r;

	(void)cfg;
	if (!port_listed(f->dp) && !port_listed(f->sp))
		return DET_NO;
	r = rdp_probe(dir, buf, len);
	return r > 0 ? DET_YES : r == 0 ? DET_NO : DET_MORE;
}

typedef struct RdpFlow {
	RdpState *s;
	int detect_only;
} RdpFlow;

static void *rdp_state_new_op(AppLayerThread *at, Flow *f)
{
	RdpFlow *rf = calloc(1, sizeof(*rf));

	(void)f;
	if (rf)
		rf->s = rdp_state_new();
	if (!rf || !rf->s) {
		free(rf);
		app_tx_count(at, &ctr, APP_CTR_ALLOC, 1);
		return NULL;
	}
	rf->s->txs.alproto = ALPROTO_RDP;
	rf->detect_only = rdp_conf.enabled == 2;
	return rf;
}

static void rdp_state_free_op(void *state)
{
	RdpFlow *rf = state;

	if (!rf)
		return;
	rdp_state_free(rf->s);
	free(rf);
}

static int rdp_parse_op(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
			uint32_t len, int flags)
{
	RdpFlow *rf = state;
	uint64_t before;
	int r = 0;

	(void)f;
	if (!rf || dir < 0 || dir > 1 || rf->detect_only)
		return 0;
	if (flags & APP_GAP) {
		if (!rf->s->side[dir].dead && !rf->s->bypass)
			app_tx_count(at, &ctr, APP_CTR_GAP, 1);
		rdp_side_end(rf->s, dir);
		return 0;
	}
	before = rf->s->txs.next_id;
	if (len && data)
		r = rdp_parse(rf->s, dir, data, len);
	if (rf->s->txs.next_id > before)
		app_tx_count(at, &ctr, APP_CTR_TX, rf->s->txs.next_id - before);
	if (r < 0)
		app_tx_count(at, &ctr, APP_CTR_PARSER, 1);
	if (flags & APP_EOF)
		rdp_side_end(rf->s, dir);
	return r < 0 ? -1 : 0;
}

/* the transaction calls: txlist's, on the RdpState inside */
static uint64_t rdp_tx_count(const void *state)
{
	return txl_op_count(((const RdpFlow *)state)->s);
}

static void *rdp_tx_get(const void *state, uint64_t id)
{
	return txl_op_get(((const RdpFlow *)state)->s, id);
}

static uint64_t rdp_tx_low(const void *state)
{
	return txl_op_low(((const RdpFlow *)state)->s);
}

static void rdp_tx_gc(void *state, unsigned need)
{
	txl_op_gc(((RdpFlow *)state)->s, need);
}

const AppProtoOps rdp_proto_ops = {
	.name = "rdp",
	.ipprotos = APP_IPPROTO_TCP,
	.config_defaults = rdp_config_defaults,
	.config_load = rdp_config_load,
	.enabled = rdp_enabled,
	.register_counters = rdp_register_counters,
	.probe = rdp_probe_dir,
	.state_new = rdp_state_new_op,
	.state_free = rdp_state_free_op,
	.parse = rdp_parse_op,
	.tx_count = rdp_tx_count,
	.tx_get = rdp_tx_get,
	.tx_low = rdp_tx_low,
	.tx_id = txl_op_id,
	.tx_log_id = txl_op_id,
	.tx_progress = txl_op_progress,
	.progress_complete = TXL_COMPLETE,
	.tx_flags = txl_op_flags,
	.tx_set_flags = txl_op_set_flags,
	.tx_detect_slot = txl_op_detect_slot,
	.tx_gc = rdp_tx_gc,
};
