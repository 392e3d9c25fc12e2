/* mDNS as the app layer runs it (mdns-proto.c): a transaction is a struct
 * dns_tx of the DNS parser holding one message. */
#ifndef APP_LAYER_MDNS_H
#define APP_LAYER_MDNS_H

#include "app-layer/dns-parse.h"

/* The message of an mDNS transaction and the side it went (APP_DIR_*; a
 * response may go either way: its QR bit says what it is). */
const struct dns_msg *mdns_tx_msg(const void *tx, int *dir);

#endif
