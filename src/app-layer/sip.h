/* SIP as the app layer runs it (sip-proto.c), for detection and the eve
 * logger. As in Suricata 8, every message is its own transaction: a
 * request is a transaction of the request side only, a response one of
 * the response side only (APP_TX_ONLY_*), complete when it arrives. */
#ifndef APP_LAYER_SIP_H
#define APP_LAYER_SIP_H

#include "app-layer/sip-parse.h"

/* The message of a SIP transaction, and its direction (APP_DIR_*). */
const SipMsg *sip_tx_msg(const void *tx);
int sip_tx_dir(const void *tx);
/* Bit e: event e (enum sip_event) was raised on it; the eve anomaly
 * logger's memory of those it wrote. */
uint32_t sip_tx_events(const void *tx);
uint32_t *sip_tx_events_logged(void *tx);

#endif
