/* The eve "websocket" object of a WebSocket frame, as Suricata 8 writes it
 * (schema: eve-schema.json "websocket"): fin, mask (a masked frame's key),
 * opcode, and per the eve-log options payload_base64 / payload_printable. */
#ifndef OUTPUT_WEBSOCKET_JSON_H
#define OUTPUT_WEBSOCKET_JSON_H

#include "app-layer/websocket.h"

#include <jansson.h>

struct JsonWriter;
#define WS_LOG_BASE64 0x1
#define WS_LOG_PRINTABLE 0x2
void websocket_json_write(struct JsonWriter *w, const WsTx *tx, unsigned payload);
/* The same as a tree, for tests; the caller owns it. */
json_t *websocket_json_object(const WsTx *tx, unsigned payload);

#endif
