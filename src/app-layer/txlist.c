/* The transaction list of txlist.h. */
#include "app-layer/txlist.h"
#include "app-layer/app-layer-int.h"

#include <stddef.h>

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
	l->free_tx(t);
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
