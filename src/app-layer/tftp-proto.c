/* TFTP's entry in the application-protocol registry: its configuration
 * (app-layer.protocols.tftp.*), how it is recognised, its requests
 * (tftp.h) as transactions.
 *
 * Recognition: a datagram to the detection port (69) that starts with a
 * zero byte and an opcode of RFC 1350 or 2347. Suricata's own probe takes
 * any four bytes to port 69; the opcode check only keeps other traffic
 * that happens to use the port from being labelled. Only the client's side
 * is probed: the server answers from a new port, on another flow. */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/ipp-conf.h"
#include "app-layer/tftp.h"

#include <stdlib.h>
#include <string.h>

#define TFTP_KEY "app-layer.protocols.tftp."

static IppConf tftp_conf;

/* ---- decoding ---- */

const char *tftp_packet_name(uint8_t opcode)
{
	return opcode == TFTP_RRQ ? "read" : opcode == TFTP_WRQ ? "write" : "error";
}

/* The NUL-terminated string at *off, copied: 0, -1 without its NUL. */
static int take_str(const uint8_t *buf, uint32_t len, uint32_t *off, char **out,
		    uint32_t *out_len)
{
	const uint8_t *nul = memchr(buf + *off, 0, len - *off);
	uint32_t n;

	if (!nul)
		return -1;
	n = (uint32_t)(nul - (buf + *off));
	if (!(*out = malloc(n + 1)))
		return -2;
	memcpy(*out, buf + *off, n + 1);
	*out_len = n;
	*off += n + 1;
	return 0;
}

int tftp_req_decode(const uint8_t *buf, uint32_t len, TftpReq *r)
{
	uint32_t off = 2;
	int e;

	memset(r, 0, sizeof(*r));
	if (!buf || len < 4 || buf[0] != 0)
		return -1;
	r->opcode = buf[1];
	if ((e = take_str(buf, len, &off, &r->file, &r->file_len)) < 0 ||
	    (e = take_str(buf, len, &off, &r->mode, &r->mode_len)) < 0) {
		tftp_req_free(r);
		return e;
	}
	return 0;
}

void tftp_req_free(TftpReq *r)
{
	free(r->file);
	free(r->mode);
	r->file = r->mode = NULL;
}

/* ---- the registry entry ---- */

static void tftp_config_defaults(AppLayerConfig *cfg)
{
	static const uint16_t ports[] = { 69 };

	(void)cfg;
	ipp_conf_defaults(&tftp_conf, ports, 1);
}

static int tftp_config_load(AppLayerConfig *cfg)
{
	(void)cfg;
	return ipp_conf_load(&tftp_conf, TFTP_KEY);
}

static int tftp_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return tftp_conf.enabled[IPP_UDP];
}

static AppTxCounters ctr;

static void tftp_register_counters(void)
{
	app_tx_counters_register(&ctr, "tftp");
}

static int tftp_probe(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
		      uint32_t len)
{
	(void)cfg;
	if (dir != APP_DIR_TOSERVER || !ipp_conf_port_ok(&tftp_conf, f))
		return DET_NO;
	if (len < 4 || buf[0] != 0 || buf[1] < TFTP_RRQ || buf[1] > TFTP_OACK)
		return DET_NO;
	return DET_YES;
}

static void tx_free(AppTx *t)
{
	TftpTx *tx = (TftpTx *)t;

	tftp_req_free(&tx->r);
	free(tx);
}

static int tftp_decode(void *state, AppTx *t, int dir, const uint8_t *data, uint32_t len)
{
	TxlDgramState *st = state;
	TftpTx *tx = (TftpTx *)t;
	int r = tftp_req_decode(data, len, &tx->r);

	(void)dir;
	if (r < 0)
		return r == -2 ? TXL_NOMEM : TXL_DROP;
	txl_charge(&st->txs, t, tx->r.file_len + tx->r.mode_len + 2);
	return TXL_OK;
}

/* The client's datagrams only, as Suricata: what the server sends back to
 * this flow (an error from port 69) carries nothing logged. */
static const TxlDgram tftp_dgram = {
	.alproto = ALPROTO_TFTP,
	.tx_size = sizeof(TftpTx),
	.ctr = &ctr,
	.enabled = &tftp_conf.enabled[IPP_UDP],
	.dirs = 1u << APP_DIR_TOSERVER,
	.free_tx = tx_free,
	.decode = tftp_decode,
};

static void *tftp_state_new(AppLayerThread *at, Flow *f)
{
	(void)f;
	return txl_dgram_state_new(at, &tftp_dgram);
}

const AppProtoOps tftp_proto_ops = {
	.name = "tftp",
	.ipprotos = APP_IPPROTO_UDP,
	.config_defaults = tftp_config_defaults,
	.config_load = tftp_config_load,
	.enabled = tftp_enabled,
	.register_counters = tftp_register_counters,
	.probe = tftp_probe,
	.state_new = tftp_state_new,
	TXL_DGRAM_OPS,
};
