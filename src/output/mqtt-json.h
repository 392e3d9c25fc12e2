/* The "mqtt" object of eve records, as Suricata 8 writes it (schema:
 * eve-schema.json "mqtt"): one member per message of the transaction,
 * named by its type (connect, connack, publish, puback, ...), each with
 * the fixed header's qos, retain and dup and the message's own fields;
 * v5 properties as a "properties" object (user properties as their own
 * key: value). The eve-log types "- mqtt: string-log-limit" (1kb) bounds
 * a PUBLISH message, and the topics of a SUBSCRIBE or UNSUBSCRIBE
 * together, as Suricata 8 does: past it a string is cut and ends
 * "[truncated N additional bytes]". */
#ifndef OUTPUT_MQTT_JSON_H
#define OUTPUT_MQTT_JSON_H

#include <jansson.h>
#include <stdint.h>

#include "app-layer/mqtt-parse.h"

/* string-log-limit's default (Suricata 8: 1kb) */
#define MQTT_LOG_LIMIT_DEFAULT 1024

struct JsonWriter;
/* The object's members, into w's open object. limit: string-log-limit
 * (0: none). */
void mqtt_json_write(struct JsonWriter *w, const MqttTx *tx, uint64_t limit);
/* The same as a tree, for tests and fuzzers; the caller owns it. */
json_t *mqtt_json_object(const MqttTx *tx, uint64_t limit);

#endif
