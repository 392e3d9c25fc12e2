/* The eve "quic" object of a QUIC transaction, as Suricata 8 writes it
 * (schema: eve-schema.json "quic"): version, sni, ua, cyu, ja3 or ja3s,
 * ja4, extensions. */
#ifndef OUTPUT_QUIC_JSON_H
#define OUTPUT_QUIC_JSON_H

#include "app-layer/quic-parse.h"

#include <jansson.h>

struct JsonWriter;
void quic_json_write(struct JsonWriter *w, const QuicTx *tx);
/* The same as a tree, for tests; the caller owns it. */
json_t *quic_json_object(const QuicTx *tx);

#endif
