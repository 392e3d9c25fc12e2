/* The eve "enip" object of an EtherNet/IP transaction, as Suricata 8
 * writes it (schema: eve-schema.json "enip"): request and response, each
 * with its command and status, RegisterSession's version and options, the
 * CIP service (class name, path, a Multiple Service Packet's services),
 * a response's CIP statuses, and ListIdentity's / ListServices' items. */
#ifndef OUTPUT_ENIP_JSON_H
#define OUTPUT_ENIP_JSON_H

#include "app-layer/enip.h"

#include <jansson.h>

struct JsonWriter;
void enip_json_write(struct JsonWriter *w, const EnipTx *tx);
/* The same as a tree, for tests; the caller owns it. */
json_t *enip_json_object(const EnipTx *tx);

#endif
