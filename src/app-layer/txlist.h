/* A transaction list for the protocols whose transactions are one message
 * or one request with its responses (LDAP, Kerberos 5, SNMP): ids from 0
 * in arrival order, the live ones in a singly linked list, the oldest
 * first. Each protocol's transaction starts with an AppTx; its state
 * starts with an AppTxList, so that the ops entry's transaction calls can
 * be the generic ones below.
 *
 * The protocols reference these from their registry entry (TXL_TX_OPS)
 * rather than each writing its own: one place for the list's rules.
 *
 * Costs: tx_count, tx_low are O(1); tx_get walks the live transactions
 * only (the gc keeps the list short: a finished transaction goes as soon
 * as detection and logging are done with it). */
#ifndef APP_LAYER_TXLIST_H
#define APP_LAYER_TXLIST_H

#include <stddef.h>
#include <stdint.h>

#include "app-layer/pdubuf.h"

struct AppTxCounters;
struct Flow;
struct AppLayerThread;

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

/* free_tx: the protocol's free of a transaction; NULL: free() (nothing
 * but the AppTx's own block) */
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
/* Event id was raised on the transaction (AppTx.events; ids past 31 never
 * are: a protocol's event_lookup gives its own ids only). */
int txl_op_has_event(const void *tx, int id);

/* The transaction members of an AppProtoOps entry whose state starts with
 * an AppTxList, for its initializer: one list of them, not one a protocol. */
#define TXL_TX_OPS                                                                          \
	.tx_count = txl_op_count, .tx_get = txl_op_get, .tx_low = txl_op_low,               \
	.tx_id = txl_op_id, .tx_log_id = txl_op_id, .tx_progress = txl_op_progress,         \
	.progress_complete = TXL_COMPLETE, .tx_flags = txl_op_flags,                        \
	.tx_set_flags = txl_op_set_flags, .tx_detect_slot = txl_op_detect_slot,             \
	.tx_gc = txl_op_gc

/* A protocol's state of size bytes, an AppTxList first: zeroed, the list
 * ready (txl_init); NULL, counted as ctr's allocation error, out of memory. */
void *txl_state_alloc(struct AppLayerThread *at, const struct AppTxCounters *ctr, size_t size,
		      unsigned alproto, void (*free_tx)(AppTx *t));

/* Appends t as one whole message of direction dir: both sides complete at
 * once (a reply, if any, is a transaction of its own), logged as that
 * direction's only, inspected by the other direction's rules too. */
void txl_add_message(AppTxList *l, AppTx *t, int dir);

/* ---- one datagram, one transaction ----
 * For the UDP protocols whose every datagram is one message (NTP, SNMP,
 * DHCP, TFTP, IKE, BitTorrent DHT): the state, the parse and the free are
 * the ones below; a protocol gives its decoder and sizes in a TxlDgram and
 * writes a one-line state_new that names it. */
/* What decode() says of a datagram: */
enum {
	TXL_OK = 0,        /* a transaction */
	TXL_BAD = 1,       /* a transaction, and a parser error (counted) */
	TXL_DROP = -1,     /* no transaction: a parser error (counted) */
	TXL_NOMEM = -2,    /* no transaction: out of memory (counted) */
};

typedef struct TxlDgram {
	unsigned alproto;
	size_t state_size;          /* the protocol's state, a TxlDgramState first */
	size_t tx_size;             /* its transaction, an AppTx first */
	struct AppTxCounters *ctr;  /* app_layer.tx / error counters */
	const int *enabled;         /* its enabled value: 2 (detection-only) parses nothing */
	unsigned dirs;              /* bit 1 << APP_DIR_*: the directions parsed */
	void (*free_tx)(AppTx *t);  /* NULL: free() */
	void (*state_clean)(void *state); /* what else the state holds; NULL: nothing */
	/* the message in a datagram (len updated), NULL: none, no transaction;
	 * NULL hook: the whole datagram */
	const uint8_t *(*payload)(const struct Flow *f, const uint8_t *data, uint32_t *len);
	/* fills tx (zeroed, tx_size bytes) from one message: TXL_*; on TXL_DROP
	 * or TXL_NOMEM it has freed what it allocated (tx itself is freed by
	 * the caller, not through free_tx) */
	int (*decode)(void *state, AppTx *tx, int dir, const uint8_t *data, uint32_t len);
} TxlDgram;

#define TXL_BOTH_DIRS (1u << APP_DIR_TOSERVER | 1u << APP_DIR_TOCLIENT)

typedef struct TxlDgramState {
	AppTxList txs;              /* first: the txl_op_* calls read it */
	const TxlDgram *d;
	int detect_only;
} TxlDgramState;

/* The state_new of a TxlDgram protocol (NULL, counted, out of memory). */
void *txl_dgram_state_new(struct AppLayerThread *at, const TxlDgram *d);
/* Its state_free and parse, for the ops entry as they are. */
void txl_dgram_state_free(void *state);
int txl_dgram_parse(struct AppLayerThread *at, struct Flow *f, void *state, int dir,
		    const uint8_t *data, uint32_t len, int flags);
/* ---- messages framed on TCP, one a datagram on UDP ----
 * The head of the state of the protocols that cut each direction's stream
 * into messages with a PduBuf (LDAP, Kerberos 5, NFS, ENIP, Modbus). */
typedef struct TxlMsgState {
	AppTxList txs;              /* first: the txl_op_* calls read it */
	PduBuf pdu[2];              /* TCP: a direction's message cut across calls */
	int ipp;                    /* the flow's transport: IPP_TCP or IPP_UDP */
	int detect_only;
	int given_up[2];            /* the direction's stream is not the protocol any more */
	struct AppLayerThread *at;  /* during parse, for the message callbacks */
	int dir;                    /* ... and the direction parsed */
} TxlMsgState;

/* The state (size bytes, a TxlMsgState first) of a flow of transport ipp
 * (ipp_of()): ctr[ipp] counts an allocation error, enabled[ipp] == 2 is
 * detection-only. A protocol of one transport gives arrays of one (its
 * IPP_* is then 0: TCP). */
void *txl_msg_state_new(struct AppLayerThread *at, int ipp, size_t size, unsigned alproto,
			void (*free_tx)(AppTx *t), const struct AppTxCounters *ctr,
			const int *enabled);
/* Its counters, ctr[IPP_TCP] and ctr[IPP_UDP]: app_layer.tx.<proto>_tcp,
 * ..._udp and their gap, alloc and parser errors. */
void txl_msg_counters_register(struct AppTxCounters *ctr, const char *proto);
/* Its state_free, for the ops entry: the transactions, the PduBufs. */
void txl_msg_state_free(void *state);
/* Before a TCP direction's bytes go to its PduBuf: 1 when there is nothing
 * to parse (a gap, after which messages cannot be found again: the
 * direction is given up, the gap counted once in ctr; a direction given
 * up; no bytes), 0 when data is to be fed. */
int txl_msg_skip(TxlMsgState *st, const struct AppTxCounters *ctr, int dir, const uint8_t *data,
		 uint32_t len, int flags);

#define TXL_DGRAM_OPS                                                                       \
	.state_free = txl_dgram_state_free, .parse = txl_dgram_parse, TXL_TX_OPS

#endif
