/* The transaction calls (AppProtoOps) of the protocols built on the DNS
 * parser, DNS and mDNS: their flow state begins with its struct dns_txs,
 * and a transaction is a struct dns_tx (dns-parse.h). One set, so that the
 * two keep the same transaction model. */
#ifndef APP_LAYER_DNS_TXOPS_H
#define APP_LAYER_DNS_TXOPS_H

#include <stdint.h>

#include "app-layer/dns-parse.h"

/* Its detection state freed (the state's free and gc). */
void dns_txop_release(struct dns_tx *tx);
/* Every transaction released and the list freed (the state's free). */
void dns_txop_free_all(struct dns_txs *txs);
uint64_t dns_txop_count(const void *state);
void *dns_txop_get(const void *state, uint64_t id);
uint64_t dns_txop_id(const void *tx);
/* 0: nothing of that side yet, 1: done (a message is complete on arrival) */
int dns_txop_progress(const void *tx, int dir);
unsigned dns_txop_flags(const void *tx);
void dns_txop_set_flags(void *tx, unsigned flags);
void **dns_txop_detect_slot(void *tx);
/* Frees the oldest transactions everyone is done with, in order (logging
 * and detection walk them from the oldest). */
void dns_txop_gc(void *state, unsigned need);
/* mDNS's events are DNS's (app-layer-event:mdns.<name>) */
int dns_txop_event_lookup(const char *event);
int dns_txop_has_event(const void *tx, int id);

#endif
