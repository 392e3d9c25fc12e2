/* LDAP's entry in the application-protocol registry: its configuration
 * (app-layer.protocols.ldap.{tcp,udp}.*, max-tx), how it is recognised,
 * and the transactions of ldap.h.
 *
 * Recognition, as Suricata's probe: a whole LDAPMessage header (SEQUENCE,
 * message id, an [APPLICATION n] operation) on the detection ports (3268
 * and 389 by default, either end); a request to the server, a response to
 * the client. A response toward the server (a midstream flow whose first
 * bytes are the server's) turns the flow round.
 *
 * Memory: a message is at most LDAP_MAX_MSG bytes (a longer one is an
 * invalid_data event, and the stream is given up), a transaction keeps at
 * most LDAP_MAX_RESPONSES responses, and a flow at most max-tx live
 * transactions (too_many_transactions: the older ones are closed, so that
 * they are logged and freed), with at most LDAP_MAX_FLOW_MEM bytes of
 * messages in them (the same closing, without an event: Suricata has none). */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/ipp-conf.h"
#include "app-layer/ldap.h"
#include "app-layer/pdubuf.h"
#include "conf/conf.h"

#include <stdlib.h>
#include <string.h>

#define LDAP_KEY "app-layer.protocols.ldap."
#define LDAP_MAX_MSG (1u << 20)
#define LDAP_MAX_RESPONSES 4096
/* message bytes a flow keeps in its live transactions: past it they are
 * closed (logged, inspected, freed) before the next one is kept */
#define LDAP_MAX_FLOW_MEM (16u << 20)

static struct {
	IppConf ipp;
	uint64_t max_tx;
} ldap_conf;

static void ldap_config_defaults(AppLayerConfig *cfg)
{
	static const uint16_t ports[] = { 389, 3268 };

	(void)cfg;
	ipp_conf_defaults(&ldap_conf.ipp, ports, 2);
	ldap_conf.max_tx = 1024;
}

static int ldap_config_load(AppLayerConfig *cfg)
{
	int64_t v = 0;
	int rc;

	(void)cfg;
	rc = ipp_conf_load(&ldap_conf.ipp, LDAP_KEY);
	switch (app_conf_int_range(LDAP_KEY "max-tx", &v, UINT32_MAX)) {
	case 1:
		ldap_conf.max_tx = v ? (uint64_t)v : 1;
		break;
	case -1:
		rc = -1;
	}
	return rc;
}

static int ldap_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return ipp_conf_enabled(&ldap_conf.ipp);
}

static AppTxCounters ctr[2];

static void ldap_register_counters(void)
{
	txl_msg_counters_register(ctr, "ldap");
}

/* ---------------- detection ---------------- */

/* The operation of the message at buf: its tag, -1 when more bytes are
 * needed, -2 when it is not LDAP. */
static int probe_op(const uint8_t *buf, uint32_t len)
{
	BerElem seq, id, op;
	BerCur c;
	uint32_t total;
	int r;

	/* an LDAPMessage is a universal, constructed SEQUENCE */
	if (len && buf[0] != 0x30)
		return -2;
	r = ber_peek(buf, len, &seq, &total);
	if (r == -2 || (r >= 0 && (seq.cls != BER_CLASS_UNIVERSAL || seq.tag != 16 ||
				   !seq.constructed)))
		return -2;
	if (r < 0)
		return -1;
	ber_cur_init(&c, seq.content, seq.avail);
	if (ber_next_tag(&c, BER_CLASS_UNIVERSAL, 2, &id) < 0 || id.len > 4)
		return seq.avail >= 7 ? -2 : -1;
	r = ber_peek(c.p, c.left, &op, &total);
	if (r == -1)
		return -1;
	if (r == -2 || op.cls != BER_CLASS_APPLICATION || !ldap_op_name(op.tag))
		return -2;
	return (int)op.tag;
}

static int ldap_probe(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
		      uint32_t len)
{
	int op;

	(void)cfg;
	if (!ipp_conf_port_ok(&ldap_conf.ipp, f))
		return DET_NO;
	op = probe_op(buf, len);
	if (op == -1)
		return f->proto == 17 ? DET_NO : DET_MORE;
	if (op < 0)
		return DET_NO;
	return ldap_op_is_request((unsigned)op) == (dir == APP_DIR_TOSERVER) ? DET_YES
									       : DET_REVERSED;
}

/* ---------------- state ---------------- */

typedef struct LdapState {
	TxlMsgState m;              /* first: txlist.h's calls read it */

} LdapState;

static void tx_free(AppTx *t)
{
	LdapTx *tx = (LdapTx *)t;

	ldap_msg_free(&tx->request);
	for (uint32_t i = 0; i < tx->nresponses; i++)
		ldap_msg_free(&tx->responses[i]);
	free(tx->responses);
	free(tx);
}

static void *ldap_state_new(AppLayerThread *at, Flow *f)
{
	return txl_msg_state_new(at, ipp_of(f), sizeof(LdapState), ALPROTO_LDAP,
				 tx_free, ctr, ldap_conf.ipp.enabled);
}

/* A new transaction; past max-tx the live ones are closed first. */
static LdapTx *tx_new(LdapState *st)
{
	LdapTx *tx = calloc(1, sizeof(*tx));

	if (!tx) {
		app_tx_count(st->m.at, &ctr[st->m.ipp], APP_CTR_ALLOC, 1);
		return NULL;
	}
	if (st->m.txs.live >= ldap_conf.max_tx) {
		txl_close_all(&st->m.txs);
		tx->base.events |= 1u << LDAP_EV_TOO_MANY_TRANSACTIONS;
	}
	txl_add(&st->m.txs, &tx->base);
	app_tx_count(st->m.at, &ctr[st->m.ipp], APP_CTR_TX, 1);
	return tx;
}

/* The transaction waiting for a response with this id, or NULL. */
static LdapTx *tx_waiting(LdapState *st, int64_t id)
{
	for (AppTx *t = st->m.txs.head; t; t = t->next) {
		LdapTx *tx = (LdapTx *)t;

		if (tx->has_request && !t->done[1] && tx->request.id == id)
			return tx;
	}
	return NULL;
}

/* An error event on its own transaction (no message to attach it to). */
static void invalid_data(LdapState *st, int dir)
{
	LdapTx *tx = tx_new(st);

	app_tx_count(st->m.at, &ctr[st->m.ipp], APP_CTR_PARSER, 1);
	if (!tx)
		return;
	tx->base.events |= 1u << LDAP_EV_INVALID_DATA;
	tx->base.done[0] = tx->base.done[1] = 1;
	tx->base.flags |= dir == APP_DIR_TOSERVER ? APP_TX_ONLY_TS : APP_TX_ONLY_TC;
}

static int is_final(unsigned op)
{
	return op != LDAP_OP_SEARCH_RESULT_ENTRY && op != LDAP_OP_SEARCH_RESULT_REFERENCE &&
	       op != LDAP_OP_INTERMEDIATE_RESPONSE;
}

static void on_request(LdapState *st, LdapMsg *m)
{
	LdapTx *tx = tx_new(st);

	if (!tx) {
		ldap_msg_free(m);
		return;
	}
	tx->request = *m;
	tx->has_request = 1;
	txl_charge(&st->m.txs, &tx->base, m->raw_len);
	tx->base.done[0] = 1;
	/* no response comes to these */
	if (m->op == LDAP_OP_UNBIND_REQUEST || m->op == LDAP_OP_ABANDON_REQUEST)
		tx->base.done[1] = 1;
}

static void on_response(LdapState *st, LdapMsg *m)
{
	LdapTx *tx = tx_waiting(st, m->id);

	if (!tx) {
		/* unsolicited (message id 0), or its request was not seen */
		tx = tx_new(st);
		if (!tx) {
			ldap_msg_free(m);
			return;
		}
		tx->base.done[0] = 1;
		if (m->id != 0)
			tx->base.events |= 1u << LDAP_EV_REQUEST_NOT_FOUND;
	}
	if (tx->nresponses == tx->cap) {
		uint32_t cap = tx->cap ? tx->cap * 2 : 2;
		LdapMsg *n;

		if (tx->nresponses >= LDAP_MAX_RESPONSES ||
		    !(n = realloc(tx->responses, cap * sizeof(*n)))) {
			ldap_msg_free(m);
			tx->base.events |= 1u << LDAP_EV_INVALID_DATA;
			tx->base.done[1] = 1;
			return;
		}
		tx->responses = n;
		tx->cap = cap;
	}
	tx->responses[tx->nresponses++] = *m;
	tx->base.some[1] = 1;
	txl_charge(&st->m.txs, &tx->base, m->raw_len);
	/* a transaction without a request gets no more responses (only
	 * requests wait for them): it is complete with this one */
	if (is_final(m->op) || !tx->has_request)
		tx->base.done[1] = 1;
}

static void on_message(void *arg, const uint8_t *p, uint32_t len)
{
	LdapState *st = arg;
	LdapMsg m;

	if (ldap_msg_decode(p, len, &m) < 0) {
		invalid_data(st, st->m.dir);
		return;
	}
	if (st->m.txs.mem + len > LDAP_MAX_FLOW_MEM)
		txl_close_all(&st->m.txs);
	/* a message is taken for what it is, whichever way it goes */
	if (ldap_op_is_request(m.op))
		on_request(st, &m);
	else
		on_response(st, &m);
}

/* A message's whole length, for the TCP framing. */
static int64_t frame_len(const uint8_t *p, uint32_t len)
{
	BerElem e;
	uint32_t total;
	int r = ber_peek(p, len, &e, &total);

	if (r == -1)
		return 0;
	if (r < 0 || e.cls != BER_CLASS_UNIVERSAL || e.tag != 16 || !e.constructed)
		return -1;
	return total;
}

static int ldap_parse(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
		      uint32_t len, int flags)
{
	LdapState *st = state;

	(void)f;
	if (!st || st->m.detect_only || dir < 0 || dir > 1)
		return 0;
	st->m.at = at;
	st->m.dir = dir;
	if (st->m.ipp == IPP_UDP) {
		/* a datagram holds whole messages */
		BerCur c;
		BerElem e;

		if (!data || !len)
			return 0;
		ber_cur_init(&c, data, len);
		while (c.left) {
			const uint8_t *start = c.p;

			if (ber_next(&c, &e) < 0) {
				invalid_data(st, dir);
				return -1;
			}
			on_message(st, start, (uint32_t)(c.p - start));
		}
		return 0;
	}
	if (txl_msg_skip(&st->m, &ctr[st->m.ipp], dir, data, len, flags))
		return 0;
	if (pdubuf_feed(&st->m.pdu[dir], data, len, LDAP_MAX_MSG, frame_len, on_message, st) < 0) {
		invalid_data(st, dir);
		st->m.given_up[dir] = 1;
		return -1;
	}
	return 0;
}

const AppProtoOps ldap_proto_ops = {
	.name = "ldap",
	.ipprotos = APP_IPPROTO_TCP | APP_IPPROTO_UDP,
	.config_defaults = ldap_config_defaults,
	.config_load = ldap_config_load,
	.enabled = ldap_enabled,
	.register_counters = ldap_register_counters,
	.probe = ldap_probe,
	.state_new = ldap_state_new,
	.state_free = txl_msg_state_free,
	.parse = ldap_parse,
	TXL_TX_OPS,
	.event_lookup = ldap_event_by_name,
	.tx_has_event = txl_op_has_event,
};
