/* The eve "bittorrent_dht" object of a DHT message, as Suricata 8 writes
 * it (schema: eve-schema.json "bittorrent_dht"): transaction_id and
 * client_version (hex), request_type, request {id, target, info_hash,
 * token, implied_port, port}, response {id, nodes, nodes6, values, token},
 * error {num, msg}. */
#ifndef OUTPUT_BITTORRENT_DHT_JSON_H
#define OUTPUT_BITTORRENT_DHT_JSON_H

#include "app-layer/bittorrent-dht.h"

#include <jansson.h>

struct JsonWriter;
void dht_json_write(struct JsonWriter *w, const DhtMsg *m);
/* The same as a tree, for tests; the caller owns it. */
json_t *dht_json_object(const DhtMsg *m);

#endif
