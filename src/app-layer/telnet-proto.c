/* Telnet's entry in the application-protocol registry, as Suricata 8's:
 * detected on its detection ports (default 23, either end) with no
 * content check (telnet has no greeting to recognise), then its messages
 * marked as frames (telnet.pdu, telnet.ctl, telnet.data) when a rule or
 * the frame logger wants them. No transactions and no eve record of its
 * own (8.0 has none); the flow's app_proto says telnet. With frames off
 * the parser returns at once: nothing else of telnet is observable. */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/frames.h"
#include "app-layer/telnet.h"
#include "conf/conf.h"

#include <stdlib.h>
#include <string.h>

#define TELNET_KEY "app-layer.protocols.telnet."

/* Read once at start (config_load); read-only afterwards. */
static struct {
	int enabled;                /* 1 yes, 2 detection-only, 0 no */
	uint16_t ports[APP_MAX_DETECT_PORTS];
	unsigned nports;
} telnet_conf;

static void telnet_config_defaults(AppLayerConfig *cfg)
{
	(void)cfg;
	memset(&telnet_conf, 0, sizeof(telnet_conf));
	telnet_conf.enabled = 1;
	telnet_conf.ports[0] = 23;
	telnet_conf.nports = 1;
}

static int telnet_config_load(AppLayerConfig *cfg)
{
	(void)cfg;
	return app_conf_enabled_ports(TELNET_KEY, &telnet_conf.enabled, telnet_conf.ports,
				      &telnet_conf.nports) < 0 ? -1 : 0;
}

static AppTxCounters ctr;

static void telnet_register_counters(void)
{
	app_tx_counters_register(&ctr, "telnet");
}

static int telnet_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return telnet_conf.enabled;
}

static int port_listed(uint16_t port)
{
	for (unsigned i = 0; i < telnet_conf.nports; i++)
		if (telnet_conf.ports[i] == port)
			return 1;
	return 0;
}

/* Suricata's telnet probe accepts any bytes on the port */
static int telnet_probe_dir(const AppLayerConfig *cfg, const Flow *f, int dir,
			    const uint8_t *buf, uint32_t len)
{
	(void)cfg;
	(void)dir;
	(void)buf;
	if (!port_listed(f->dp) && !port_listed(f->sp))
		return DET_NO;
	return len ? DET_YES : DET_MORE;
}

/* Suricata's telnet frame types */
enum { TELNET_FRAME_PDU, TELNET_FRAME_CTL, TELNET_FRAME_DATA };
static const char *const telnet_frame_names[] = { "pdu", "ctl", "data", NULL };

typedef struct TelnetFlow {
	TelnetSide side[2];
	uint8_t dead[2];            /* a gap: message bounds are lost */
	int64_t pdu[2], specific[2]; /* the open frames' ids (-1 none) */
	uint64_t start[2];          /* scanner offset of the open message */
	Flow *f;                    /* during parse */
	int dir;
	int64_t delta;              /* stream offset - scanner offset */
} TelnetFlow;

static void msg_frame(void *ctx, int kind, int end, uint64_t off)
{
	TelnetFlow *t = ctx;
	int d = t->dir;
	uint64_t so = (uint64_t)((int64_t)off + t->delta);

	if (!end) {
		t->pdu[d] = app_frame_new(t->f, d, so, -1, TELNET_FRAME_PDU);
		t->specific[d] = app_frame_new(t->f, d, so, -1,
					       kind == TELNET_MSG_CTL ? TELNET_FRAME_CTL :
									TELNET_FRAME_DATA);
		t->start[d] = off;
		return;
	}
	(void)so;
	if (t->pdu[d] > 0)
		app_frame_set_len(t->f, d, t->pdu[d], (int64_t)(off - t->start[d]));
	if (t->specific[d] > 0)
		app_frame_set_len(t->f, d, t->specific[d], (int64_t)(off - t->start[d]));
	t->pdu[d] = t->specific[d] = -1;
}

static void *telnet_state_new_op(AppLayerThread *at, Flow *f)
{
	TelnetFlow *t = calloc(1, sizeof(*t));

	(void)f;
	if (!t) {
		app_tx_count(at, &ctr, APP_CTR_ALLOC, 1);
		return NULL;
	}
	t->pdu[0] = t->pdu[1] = t->specific[0] = t->specific[1] = -1;
	return t;
}

static void telnet_state_free_op(void *state)
{
	free(state);
}

static int telnet_parse_op(AppLayerThread *at, Flow *f, void *state, int dir,
			   const uint8_t *data, uint32_t len, int flags)
{
	TelnetFlow *t = state;

	(void)at;
	if (!t || dir < 0 || dir > 1 || t->dead[dir])
		return 0;
	if (flags & APP_GAP) {
		t->dead[dir] = 1;
		return 0;
	}
	if (!len || !data || !app_frames_on(f))
		return 0;
	t->f = f;
	t->dir = dir;
	t->delta = (int64_t)app_frame_offset(f, dir) - (int64_t)t->side[dir].pos;
	telnet_scan(&t->side[dir], data, len, msg_frame, t);
	t->f = NULL;
	return 0;
}

/* no transactions, as Suricata 8's telnet parser makes none */
static uint64_t telnet_tx_count(const void *state)
{
	(void)state;
	return 0;
}

static void *telnet_tx_get(const void *state, uint64_t id)
{
	(void)state;
	(void)id;
	return NULL;
}

static uint64_t telnet_tx_id(const void *tx)
{
	(void)tx;
	return 0;
}

static int telnet_tx_progress(const void *tx, int dir)
{
	(void)tx;
	(void)dir;
	return 1;
}

static unsigned telnet_tx_flags(const void *tx)
{
	(void)tx;
	return 0;
}

static void telnet_tx_set_flags(void *tx, unsigned flags)
{
	(void)tx;
	(void)flags;
}

static void **telnet_tx_detect_slot(void *tx)
{
	(void)tx;
	return NULL;
}

static void telnet_tx_gc(void *state, unsigned need)
{
	(void)state;
	(void)need;
}

const AppProtoOps telnet_proto_ops = {
	.name = "telnet",
	.ipprotos = APP_IPPROTO_TCP,
	.config_defaults = telnet_config_defaults,
	.config_load = telnet_config_load,
	.enabled = telnet_enabled,
	.register_counters = telnet_register_counters,
	.probe = telnet_probe_dir,
	.state_new = telnet_state_new_op,
	.state_free = telnet_state_free_op,
	.parse = telnet_parse_op,
	.tx_count = telnet_tx_count,
	.tx_get = telnet_tx_get,
	.tx_id = telnet_tx_id,
	.tx_log_id = telnet_tx_id,
	.tx_progress = telnet_tx_progress,
	.progress_complete = 1,
	.tx_flags = telnet_tx_flags,
	.tx_set_flags = telnet_tx_set_flags,
	.tx_detect_slot = telnet_tx_detect_slot,
	.tx_gc = telnet_tx_gc,
	.frame_names = telnet_frame_names,
};
