/* EtherNet/IP's entry in the application-protocol registry: its
 * configuration (app-layer.protocols.enip.*: enabled, detection-ports,
 * per transport under tcp: / udp: too), how it is recognised, and the
 * transactions of enip.h.
 *
 * Recognition: an encapsulation header with a known command and zero
 * options on a detection port (44818, either end). Both directions carry
 * the same header, so a probe only says yes; a PDU is a request or a
 * response by the direction it goes.
 *
 * Memory: a PDU is at most 24 + 65535 bytes (its length field); one cut
 * across TCP segments is buffered up to that. At most ENIP_MAX_TX
 * transactions wait for their responses: past that they are all closed
 * (too_many_transactions), so a peer that never answers costs no more. */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/enip.h"
#include "app-layer/frames.h"
#include "app-layer/ipp-conf.h"
#include "app-layer/pdubuf.h"

#include <stdlib.h>
#include <string.h>

#define ENIP_KEY "app-layer.protocols.enip."
#define ENIP_MAX_PDU (ENIP_HDR_LEN + 65535u)
#define ENIP_MAX_TX 1024

static IppConf enip_conf;

static void enip_config_defaults(AppLayerConfig *cfg)
{
	static const uint16_t ports[] = { 44818 };

	(void)cfg;
	ipp_conf_defaults(&enip_conf, ports, 1);
	/* as Suricata 8's yaml: off unless asked for */
	enip_conf.enabled[IPP_TCP] = enip_conf.enabled[IPP_UDP] = 0;
}

static int enip_config_load(AppLayerConfig *cfg)
{
	(void)cfg;
	return ipp_conf_load(&enip_conf, ENIP_KEY);
}

static int enip_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return ipp_conf_enabled(&enip_conf);
}

static AppTxCounters ctr[2];

static void enip_register_counters(void)
{
	txl_msg_counters_register(ctr, "enip");
}

/* ---------------- detection ---------------- */

static int enip_probe(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
		      uint32_t len)
{
	(void)cfg;
	(void)dir;
	if (!ipp_conf_port_ok(&enip_conf, f))
		return DET_NO;
	if (len < ENIP_HDR_LEN)
		return f->proto == 17 ? DET_NO : DET_MORE;
	if (!enip_cmd_known(enip_le16(buf)) || enip_le32(buf + 20) != 0)
		return DET_NO;
	/* a datagram is one PDU: its length must be what follows */
	if (f->proto == 17 && enip_le16(buf + 2) != len - ENIP_HDR_LEN)
		return DET_NO;
	return DET_YES;
}

/* ---------------- state ---------------- */

typedef struct EnipState {
	TxlMsgState m;              /* first: txlist.h's calls read it */
	Flow *f;
	/* frames: the stream offset of the next PDU of each direction */
	uint8_t pos_set[2];
	uint64_t pos[2];
	uint64_t frame_tx;
} EnipState;

static const char *const enip_frame_names[] = { "pdu", "hdr", "data", "cip", "enip.item",
						NULL };

static void on_frame(void *arg, uint32_t off, uint32_t len, unsigned type)
{
	EnipState *st = arg;

	app_frame_set_tx(st->f, st->m.dir,
			 app_frame_new(st->f, st->m.dir, st->pos[st->m.dir] + off, len, type),
			 st->frame_tx);
}

static void *enip_state_new(AppLayerThread *at, Flow *f)
{
	return txl_msg_state_new(at, ipp_of(f), sizeof(EnipState), ALPROTO_ENIP,
				 NULL, ctr, enip_conf.enabled);
}

static EnipTx *tx_new(EnipState *st)
{
	EnipTx *tx;

	if (st->m.txs.live >= ENIP_MAX_TX)
		txl_close_all(&st->m.txs);
	tx = calloc(1, sizeof(*tx));
	if (!tx) {
		app_tx_count(st->m.at, &ctr[st->m.ipp], APP_CTR_ALLOC, 1);
		return NULL;
	}
	if (st->m.txs.live >= ENIP_MAX_TX)
		tx->base.events |= 1u << ENIP_EV_TOO_MANY_TRANSACTIONS;
	txl_add(&st->m.txs, &tx->base);
	app_tx_count(st->m.at, &ctr[st->m.ipp], APP_CTR_TX, 1);
	return tx;
}

/* The oldest request still waiting for its response, or NULL. */
static EnipTx *tx_waiting(EnipState *st)
{
	for (AppTx *t = st->m.txs.head; t; t = t->next) {
		EnipTx *tx = (EnipTx *)t;

		if (tx->has[APP_DIR_TOSERVER] && !t->done[APP_DIR_TOCLIENT])
			return tx;
	}
	return NULL;
}

/* commands no response follows */
static int one_way(uint16_t cmd)
{
	return cmd == ENIP_CMD_UNREGISTER_SESSION || cmd == ENIP_CMD_CANCEL ||
	       cmd == ENIP_CMD_NOP;
}

static void on_pdu(void *arg, const uint8_t *p, uint32_t len)
{
	EnipState *st = arg;
	int dir = st->m.dir;
	EnipTx *tx = dir == APP_DIR_TOCLIENT ? tx_waiting(st) : NULL;
	int bad;

	if (!tx) {
		tx = tx_new(st);
		if (!tx)
			return;
		if (dir == APP_DIR_TOCLIENT) {
			/* its request was not seen: the response alone */
			tx->base.done[APP_DIR_TOSERVER] = 1;
			tx->base.flags |= APP_TX_ONLY_TC;
		}
	}
	if (app_frames_on(st->f)) {
		st->frame_tx = tx->base.id;
		bad = enip_pdu_decode_frames(p, len, dir == APP_DIR_TOCLIENT, &tx->pdu[dir],
					     on_frame, st) < 0;
	} else {
		bad = enip_pdu_decode(p, len, dir == APP_DIR_TOCLIENT, &tx->pdu[dir]) < 0;
	}
	st->pos[dir] += len;
	tx->has[dir] = 1;
	tx->base.some[dir] = 1;
	tx->base.done[dir] = 1;
	if (dir == APP_DIR_TOSERVER && one_way(tx->pdu[dir].command)) {
		tx->base.done[APP_DIR_TOCLIENT] = 1;
		tx->base.flags |= APP_TX_ONLY_TS;
	}
	if (bad) {
		tx->base.events |= 1u << ENIP_EV_INVALID_PDU;
		app_tx_count(st->m.at, &ctr[st->m.ipp], APP_CTR_PARSER, 1);
	}
}

/* A PDU's whole length: the header and what its length field says. */
static int64_t frame_len(const uint8_t *p, uint32_t len)
{
	if (len < ENIP_HDR_LEN)
		return 0;
	return ENIP_HDR_LEN + (int64_t)enip_le16(p + 2);
}

static int enip_parse(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
		      uint32_t len, int flags)
{
	EnipState *st = state;

	if (!st || st->m.detect_only || dir < 0 || dir > 1)
		return 0;
	st->m.at = at;
	st->f = f;
	st->m.dir = dir;
	/* PDUs follow one another from here: their frames' offsets count on */
	if (st->m.ipp == IPP_UDP || !st->pos_set[dir]) {
		st->pos[dir] = app_frame_offset(f, dir);
		st->pos_set[dir] = 1;
	}
	if (st->m.ipp == IPP_UDP) {
		if (data && len)
			on_pdu(st, data, len);
		return 0;
	}
	if (txl_msg_skip(&st->m, &ctr[st->m.ipp], dir, data, len, flags))
		return 0;
	if (pdubuf_feed(&st->m.pdu[dir], data, len, ENIP_MAX_PDU, frame_len, on_pdu, st) < 0) {
		st->m.given_up[dir] = 1;
		app_tx_count(at, &ctr[st->m.ipp], APP_CTR_PARSER, 1);
		return -1;
	}
	return 0;
}

const AppProtoOps enip_proto_ops = {
	.name = "enip",
	.ipprotos = APP_IPPROTO_TCP | APP_IPPROTO_UDP,
	.config_defaults = enip_config_defaults,
	.config_load = enip_config_load,
	.enabled = enip_enabled,
	.register_counters = enip_register_counters,
	.probe = enip_probe,
	.state_new = enip_state_new,
	.state_free = txl_msg_state_free,
	.parse = enip_parse,
	TXL_TX_OPS,
	.event_lookup = enip_event_by_name,
	.tx_has_event = txl_op_has_event,
	.frame_names = enip_frame_names,
};
