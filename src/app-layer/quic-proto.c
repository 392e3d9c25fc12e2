/* QUIC's entry in the application-protocol registry: its configuration
 * (app-layer.protocols.quic.*: enabled, detection-ports, default 443 as
 * Suricata registers it), how it is recognised, and the transactions of
 * quic-parse.h.
 *
 * Recognition, as Suricata's probe: a datagram on a detection port that
 * opens with a QUIC long header of a known version (or gQUIC's public
 * header with a version), either way. Only the flows on those ports pay
 * for the check: a few byte compares. */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/quic-parse.h"

#include <stdlib.h>
#include <string.h>

#define QUIC_KEY "app-layer.protocols.quic."

/* Read once at start; read-only afterwards. */
static struct {
	int enabled;                /* 1 yes, 2 detection-only, 0 no */
	uint16_t ports[APP_MAX_DETECT_PORTS];
	unsigned nports;
} quic_conf;

static void quic_config_defaults(AppLayerConfig *cfg)
{
	(void)cfg;
	memset(&quic_conf, 0, sizeof(quic_conf));
	quic_conf.enabled = 1;
	quic_conf.ports[0] = 443;
	quic_conf.nports = 1;
}

static int quic_config_load(AppLayerConfig *cfg)
{
	(void)cfg;
	return app_conf_enabled_ports(QUIC_KEY, &quic_conf.enabled, quic_conf.ports,
				      &quic_conf.nports);
}

static int quic_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return quic_conf.enabled;
}

static AppTxCounters ctr;

static void quic_register_counters(void)
{
	app_tx_counters_register(&ctr, "quic");
}

static int port_ok(const Flow *f)
{
	for (unsigned i = 0; i < quic_conf.nports; i++)
		if (quic_conf.ports[i] == f->dp || quic_conf.ports[i] == f->sp)
			return 1;
	return 0;
}

static int quic_probe_op(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
			 uint32_t len)
{
	(void)cfg;
	(void)dir;
	if (!port_ok(f))
		return DET_NO;
	return quic_probe(buf, len) ? DET_YES : DET_NO;
}


static void *quic_state_new_op(AppLayerThread *at, Flow *f)
{
	QuicState *s = quic_state_new();

	(void)f;
	if (!s)
		app_tx_count(at, &ctr, APP_CTR_ALLOC, 1);
	return s;
}

static void quic_state_free_op(void *state)
{
	quic_state_free(state);
}

static int quic_parse_op(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
			 uint32_t len, int flags)
{
	QuicState *s = state;

	(void)f;
	(void)flags;
	if (!s || quic_conf.enabled == 2 || !data || !len || dir < 0 || dir > 1)
		return 0;
	uint64_t before = s->txs.next_id;
	int rc = quic_parse_datagram(s, dir, data, len);
	if (s->txs.next_id > before)
		app_tx_count(at, &ctr, APP_CTR_TX, (uint32_t)(s->txs.next_id - before));
	if (rc < 0) {
		app_tx_count(at, &ctr, APP_CTR_PARSER, 1);
		return -1;
	}
	return 0;
}

const AppProtoOps quic_proto_ops = {
	.name = "quic",
	.ipprotos = APP_IPPROTO_UDP,
	.config_defaults = quic_config_defaults,
	.config_load = quic_config_load,
	.enabled = quic_enabled,
	.register_counters = quic_register_counters,
	.probe = quic_probe_op,
	.state_new = quic_state_new_op,
	.state_free = quic_state_free_op,
	.parse = quic_parse_op,
	TXL_TX_OPS,
	.event_lookup = quic_event_by_name,
	.tx_has_event = txl_op_has_event,
};
