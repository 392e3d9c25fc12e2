/* NTP's entry in the application-protocol registry: its configuration
 * (app-layer.protocols.ntp.*), how it is recognised, its messages (ntp.h)
 * as transactions.
 *
 * Recognition, as Suricata's probe: a datagram on the detection port (123,
 * either end) that holds a whole v3 or v4 header, either way (a server's
 * broadcast, or a reply seen first). */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/ipp-conf.h"
#include "app-layer/ntp.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NTP_KEY "app-layer.protocols.ntp."

/* ---- decoding ---- */

static const char *const ev_names[NTP_EV_COUNT] = {
	[NTP_EV_UNSOLICITED_RESPONSE] = "unsolicited_response",
	[NTP_EV_MALFORMED_DATA] = "malformed_data",
	[NTP_EV_NOT_REQUEST] = "not_request",
	[NTP_EV_NOT_RESPONSE] = "not_response",
};

const char *ntp_event_name(int ev)
{
	return ev >= 0 && ev < NTP_EV_COUNT ? ev_names[ev] : NULL;
}

int ntp_event_by_name(const char *name)
{
	for (int i = 0; i < NTP_EV_COUNT; i++)
		if (strcasecmp(ev_names[i], name) == 0)
			return i;
	return -1;
}

static const char *const mode_names[8] = {
	"reserved", "symmetric_active", "symmetric_passive", "client",
	"server", "broadcast", "control", "private",
};

const char *ntp_mode_name(unsigned mode)
{
	return mode < 8 ? mode_names[mode] : NULL;
}

int ntp_mode_by_name(const char *name)
{
	for (int i = 0; i < 8; i++)
		if (strcasecmp(mode_names[i], name) == 0)
			return i;
	return -1;
}

int ntp_msg_decode(const uint8_t *buf, uint32_t len, NtpMsg *m)
{
	memset(m, 0, sizeof(*m));
	if (!buf || len < NTP_HDR_LEN)
		return -1;
	m->version = (buf[0] >> 3) & 7;
	m->mode = buf[0] & 7;
	m->stratum = buf[1];
	memcpy(m->ref_id, buf + 12, 4);
	return m->version == 3 || m->version == 4 ? 0 : -2;
}

/* ---- the registry entry ---- */

static IppConf ntp_conf;

static void ntp_config_defaults(AppLayerConfig *cfg)
{
	static const uint16_t ports[] = { 123 };

	(void)cfg;
	ipp_conf_defaults(&ntp_conf, ports, 1);
}

static int ntp_config_load(AppLayerConfig *cfg)
{
	(void)cfg;
	return ipp_conf_load(&ntp_conf, NTP_KEY);
}

static int ntp_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return ntp_conf.enabled[IPP_UDP];
}

static AppTxCounters ctr;

static void ntp_register_counters(void)
{
	app_tx_counters_register(&ctr, "ntp",
				 APP_CTR_BIT(APP_CTR_ALLOC) | APP_CTR_BIT(APP_CTR_PARSER));
}

static int ntp_probe(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
		     uint32_t len)
{
	NtpMsg m;

	(void)cfg;
	(void)dir;
	if (!ipp_conf_port_ok(&ntp_conf, f))
		return DET_NO;
	return ntp_msg_decode(buf, len, &m) == 0 ? DET_YES : DET_NO;
}

typedef struct NtpState {
	AppTxList txs;              /* first: txlist.h's ops read it */
	int detect_only;
} NtpState;

static void tx_free(AppTx *t)
{
	free(t);
}

static void *ntp_state_new(AppLayerThread *at, Flow *f)
{
	NtpState *st = calloc(1, sizeof(*st));

	(void)f;
	if (!st) {
		app_tx_count(at, &ctr, APP_CTR_ALLOC, 1);
		return NULL;
	}
	txl_init(&st->txs, ALPROTO_NTP, tx_free);
	st->detect_only = ntp_conf.enabled[IPP_UDP] == 2;
	return st;
}

static void ntp_state_free(void *state)
{
	NtpState *st = state;

	if (!st)
		return;
	txl_free(&st->txs);
	free(st);
}

/* A datagram that is not a v3/v4 message still makes a transaction: the
 * carrier of its malformed_data event (not logged as an ntp record). */
static int ntp_parse(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
		     uint32_t len, int flags)
{
	NtpState *st = state;
	NtpTx *tx;

	(void)f;
	(void)flags;
	if (!st || st->detect_only || !data || !len || dir < 0 || dir > 1)
		return 0;
	if (!(tx = calloc(1, sizeof(*tx)))) {
		app_tx_count(at, &ctr, APP_CTR_ALLOC, 1);
		return -1;
	}
	if (ntp_msg_decode(data, len, &tx->m) == 0) {
		tx->valid = 1;
	} else {
		tx->base.events |= 1u << NTP_EV_MALFORMED_DATA;
		app_tx_count(at, &ctr, APP_CTR_PARSER, 1);
	}
	tx->base.done[0] = tx->base.done[1] = 1;
	tx->base.flags |= dir == APP_DIR_TOSERVER ? APP_TX_ONLY_TS | APP_TX_DETECT_TC
						  : APP_TX_ONLY_TC | APP_TX_DETECT_TS;
	txl_add(&st->txs, &tx->base);
	app_tx_count(at, &ctr, APP_CTR_TX, 1);
	return tx->valid ? 0 : -1;
}

static int ntp_event_lookup(const char *name)
{
	return ntp_event_by_name(name);
}

static int ntp_tx_has_event(const void *tx, int id)
{
	return id >= 0 && id < NTP_EV_COUNT && (((const AppTx *)tx)->events >> id & 1);
}

const AppProtoOps ntp_proto_ops = {
	.name = "ntp",
	.ipprotos = APP_IPPROTO_UDP,
	.config_defaults = ntp_config_defaults,
	.config_load = ntp_config_load,
	.enabled = ntp_enabled,
	.register_counters = ntp_register_counters,
	.probe = ntp_probe,
	.state_new = ntp_state_new,
	.state_free = ntp_state_free,
	.parse = ntp_parse,
	.tx_count = txl_op_count,
	.tx_get = txl_op_get,
	.tx_low = txl_op_low,
	.tx_id = txl_op_id,
	.tx_log_id = txl_op_id,
	.tx_progress = txl_op_progress,
	.progress_complete = TXL_COMPLETE,
	.tx_flags = txl_op_flags,
	.tx_set_flags = txl_op_set_flags,
	.tx_detect_slot = txl_op_detect_slot,
	.tx_gc = txl_op_gc,
	.event_lookup = ntp_event_lookup,
	.tx_has_event = ntp_tx_has_event,
};
