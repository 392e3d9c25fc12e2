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
	app_tx_counters_register(&ctr, "ntp");
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

/* A datagram that is not a v3/v4 message still makes a transaction: the
 * carrier of its malformed_data event (not logged as an ntp record). */
static int ntp_decode(void *state, AppTx *t, int dir, const uint8_t *data, uint32_t len)
{
	NtpTx *tx = (NtpTx *)t;

	(void)state;
	(void)dir;
	if (ntp_msg_decode(data, len, &tx->m) != 0) {
		t->events |= 1u << NTP_EV_MALFORMED_DATA;
		return TXL_BAD;
	}
	tx->valid = 1;
	return TXL_OK;
}

static const TxlDgram ntp_dgram = {
	.alproto = ALPROTO_NTP,
	.tx_size = sizeof(NtpTx),
	.ctr = &ctr,
	.enabled = &ntp_conf.enabled[IPP_UDP],
	.dirs = TXL_BOTH_DIRS,
	.decode = ntp_decode,
};

static void *ntp_state_new(AppLayerThread *at, Flow *f)
{
	(void)f;
	return txl_dgram_state_new(at, &ntp_dgram);
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
	TXL_DGRAM_OPS,
	.event_lookup = ntp_event_by_name,
	.tx_has_event = txl_op_has_event,
};
