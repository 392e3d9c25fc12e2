/* The transaction list of txlist.h. */
#include "app-layer/txlist.h"
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"

#include "app-layer/ipp-conf.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

void txl_init(AppTxList *l, unsigned alproto, void (*free_tx)(AppTx *t))
{
	l->head = l->tail = NULL;
	l->next_id = 0;
	l->live = 0;
	l->alproto = alproto;
	l->free_tx = free_tx;
}

void txl_add(AppTxList *l, AppTx *t)
{
	t->next = NULL;
	t->id = l->next_id++;
	if (l->tail)
		l->tail->next = t;
	else
		l->head = t;
	l->tail = t;
	l->live++;
}

static void release(AppTxList *l, AppTx *t)
{
	l->mem -= t->mem;
	if (t->detect)
		app_layer_detect_state_free_proto(l->alproto, t->detect);
	t->detect = NULL;
	if (l->free_tx)
		l->free_tx(t);
	else
		free(t);
}

void txl_close_all(AppTxList *l)
{
	for (AppTx *t = l->head; t; t = t->next)
		t->done[0] = t->done[1] = 1;
}

void txl_free(AppTxList *l)
{
	AppTx *t = l->head;

	while (t) {
		AppTx *n = t->next;

		release(l, t);
		t = n;
	}
	l->head = l->tail = NULL;
	l->live = 0;
}

uint64_t txl_op_count(const void *state)
{
	return ((const AppTxList *)state)->next_id;
}

void *txl_op_get(const void *state, uint64_t id)
{
	for (AppTx *t = ((const AppTxList *)state)->head; t; t = t->next) {
		if (t->id == id)
			return t;
		if (t->id > id)
			break;
	}
	return NULL;
}

uint64_t txl_op_low(const void *state)
{
	const AppTxList *l = state;

	return l->head ? l->head->id : l->next_id;
}

uint64_t txl_op_id(const void *tx)
{
	return ((const AppTx *)tx)->id;
}

int txl_op_progress(const void *tx, int dir)
{
	const AppTx *t = tx;

	return t->done[dir & 1] ? TXL_COMPLETE : t->some[dir & 1];
}

unsigned txl_op_flags(const void *tx)
{
	return ((const AppTx *)tx)->flags;
}

void txl_op_set_flags(void *tx, unsigned flags)
{
	((AppTx *)tx)->flags |= flags;
}

void **txl_op_detect_slot(void *tx)
{
	return &((AppTx *)tx)->detect;
}

/* Any finished transaction goes, not only the oldest: an LDAP request
 * the server never answers must not keep every later one alive. */
void txl_op_gc(void *state, unsigned need)
{
	AppTxList *l = state;
	AppTx *prev = NULL, *t = l->head;

	while (t) {
		AppTx *n = t->next;

		if (!t->done[0] || !t->done[1] || (t->flags & need) != need) {
			prev = t;
			t = n;
			continue;
		}
		if (prev)
			prev->next = n;
		else
			l->head = n;
		if (l->tail == t)
			l->tail = prev;
		l->live--;
		release(l, t);
		t = n;
	}
}

int txl_op_has_event(const void *tx, int id)
{
	return id >= 0 && id < 32 && (((const AppTx *)tx)->events >> id & 1);
}

void *txl_state_alloc(AppLayerThread *at, const AppTxCounters *ctr, size_t size,
		      unsigned alproto, void (*free_tx)(AppTx *t))
{
	AppTxList *l = calloc(1, size);

	if (!l) {
		app_tx_count(at, ctr, APP_CTR_ALLOC, 1);
		return NULL;
	}
	txl_init(l, alproto, free_tx);
	return l;
}

void txl_add_message(AppTxList *l, AppTx *t, int dir)
{
	t->done[0] = t->done[1] = 1;
	t->flags |= dir == APP_DIR_TOSERVER ? APP_TX_ONLY_TS | APP_TX_DETECT_TC
					    : APP_TX_ONLY_TC | APP_TX_DETECT_TS;
	txl_add(l, t);
}

/* ---- one datagram, one transaction ---- */

void *txl_dgram_state_new(AppLayerThread *at, const TxlDgram *d)
{
	TxlDgramState *st = txl_state_alloc(at, d->ctr, d->state_size ? d->state_size : sizeof(*st),
					    d->alproto, d->free_tx);

	if (!st)
		return NULL;
	st->d = d;
	st->detect_only = *d->enabled == 2;
	return st;
}

void txl_dgram_state_free(void *state)
{
	TxlDgramState *st = state;

	if (!st)
		return;
	txl_free(&st->txs);
	if (st->d->state_clean)
		st->d->state_clean(st);
	free(st);
}

/* Every datagram of a parsed direction is a transaction, unless decode()
 * drops it: a malformed one too, as the carrier of its event. */
int txl_dgram_parse(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
		    uint32_t len, int flags)
{
	TxlDgramState *st = state;
	const TxlDgram *d;
	AppTx *t;
	int r;

	(void)flags;
	if (!st || st->detect_only || !data || !len || dir < 0 || dir > 1)
		return 0;
	d = st->d;
	if (!(d->dirs >> dir & 1))
		return 0;
	if (d->payload && !(data = d->payload(f, data, &len)))
		return 0;
	if (!(t = calloc(1, d->tx_size))) {
		app_tx_count(at, d->ctr, APP_CTR_ALLOC, 1);
		return -1;
	}
	r = d->decode(st, t, dir, data, len);
	if (r < 0) {
		free(t);
		app_tx_count(at, d->ctr, r == TXL_NOMEM ? APP_CTR_ALLOC : APP_CTR_PARSER, 1);
		return -1;
	}
	if (r == TXL_BAD)
		app_tx_count(at, d->ctr, APP_CTR_PARSER, 1);
	txl_add_message(&st->txs, t, dir);
	app_tx_count(at, d->ctr, APP_CTR_TX, 1);
	return r == TXL_OK ? 0 : -1;
}

/* ---- messages framed on TCP, one a datagram on UDP ---- */

void *txl_msg_state_new(AppLayerThread *at, int ipp, size_t size, unsigned alproto,
			void (*free_tx)(AppTx *t), const AppTxCounters *ctr, const int *enabled)
{
	TxlMsgState *st = txl_state_alloc(at, &ctr[ipp], size, alproto, free_tx);

	if (!st)
		return NULL;
	st->ipp = ipp;
	st->detect_only = enabled[ipp] == 2;
	return st;
}

void txl_msg_counters_register(AppTxCounters *ctr, const char *proto)
{
	char name[64];

	snprintf(name, sizeof(name), "%s_tcp", proto);
	app_tx_counters_register(&ctr[IPP_TCP], name);
	snprintf(name, sizeof(name), "%s_udp", proto);
	app_tx_counters_register(&ctr[IPP_UDP], name);
}

void txl_msg_state_free(void *state)
{
	TxlMsgState *st = state;

	if (!st)
		return;
	txl_free(&st->txs);
	pdubuf_free(&st->pdu[0]);
	pdubuf_free(&st->pdu[1]);
	free(st);
}

int txl_msg_skip(TxlMsgState *st, const AppTxCounters *ctr, int dir, const uint8_t *data,
		 uint32_t len, int flags)
{
	if (flags & APP_GAP) {
		if (!st->given_up[dir])
			app_tx_count(st->at, ctr, APP_CTR_GAP, 1);
		pdubuf_reset(&st->pdu[dir]);
		st->given_up[dir] = 1;
		return 1;
	}
	return st->given_up[dir] || !data || !len;
}
