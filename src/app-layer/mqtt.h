/* MQTT as the app layer runs it (mqtt-proto.c): transactions are the
 * stream parser's (mqtt-parse.h), a request and its reply or a message
 * alone, as Suricata 8 forms them. What detection and the eve logger may
 * ask of an MQTT transaction.
 *
 * Progress: one value per side, MQTT_PROGRESS_DONE once the transaction is
 * complete (its reply came, or it needs none). A transaction is one-way
 * (APP_TX_ONLY_*): the side of the message that opened it, as Suricata 8's
 * unidirectional MQTT transactions, so a rule matches it once. */
#ifndef APP_LAYER_MQTT_H
#define APP_LAYER_MQTT_H

#include "app-layer/mqtt-parse.h"

#define MQTT_PROGRESS_DONE 1

#endif
