/* A transaction list for the protocols whose transactions are one message
 * or one request with its responses (LDAP, Kerberos 5, SNMP): ids from 0
 * in arrival order, the live ones in a singly linked list, the oldest
 * first. Each protocol's transaction starts with an AppTx; its state
 * starts with an AppTxList, so that the ops entry's transaction calls can
 * be the generic ones below.
 *
 * Costs: tx_count, tx_low are O(1); tx_get walks the live transactions
 * only (the gc keeps the list short: a finished transaction goes as soon
 * as detection and logging are done with it). */
#ifndef APP_LAYER_TXLIST_H
#define APP_LAYER_TXLIST_H

#include <stdint.h>

typedef struct AppTx {
	struct AppTx *next;
	uint64_t id;
	unsigned flags;             /* APP_TX_* */
	void *detect;
	uint8_t done[2];            /* per direction: 1 that side is complete */
	uint8_t some[2];            /* ... 1 it has a message (progress 1) */
	uint32_t events;            /* bit e: the protocol's event e was raised */
	uint32_t events_logged;     /* bit e: ... and written as an anomaly */
	uint32_t mem;               /* bytes the protocol charged to it (txl_charge) */
} AppTx;

typedef struct AppTxList {
	AppTx *head, *tail;
	uint64_t next_id;
	uint32_t live;
	uint64_t mem;               /* the live transactions' charged bytes */
	unsigned alproto;           /* for the detect slots' accounting */
	void (*free_tx)(AppTx *t);  /* the protocol's own free of a tx */
} AppTxList;

void txl_init(AppTxList *l, unsigned alproto, void (*free_tx)(AppTx *t));
/* Appends t (zeroed by the caller, its members set) with the next id. */
void txl_add(AppTxList *l, AppTx *t);
/* Charges n bytes kept by t to it and to the list (released with t). */
static inline void txl_charge(AppTxList *l, AppTx *t, uint32_t n)
{
	t->mem += n;
	l->mem += n;
}
/* Marks every live transaction complete both ways, so that logging and
 * detection finish them and the gc frees them (a flow past its limits). */
void txl_close_all(AppTxList *l);
/* Every transaction, detect slots included. */
void txl_free(AppTxList *l);

/* The ops entry's calls, on a state that starts with an AppTxList. */
uint64_t txl_op_count(const void *state);
void *txl_op_get(const void *state, uint64_t id);
uint64_t txl_op_low(const void *state);
uint64_t txl_op_id(const void *tx);
/* 0 nothing of the side yet, 1 some of it, TXL_COMPLETE done */
#define TXL_COMPLETE 2
int txl_op_progress(const void *tx, int dir);
unsigned txl_op_flags(const void *tx);
void txl_op_set_flags(void *tx, unsigned flags);
void **txl_op_detect_slot(void *tx);
/* Frees the transactions that are complete and carry every flag of need
 * (walks the live ones). */
void txl_op_gc(void *state, unsigned need);

#endif
