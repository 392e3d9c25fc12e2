/* The eve "modbus" object of a Modbus transaction, as Suricata 8 writes it
 * (schema: eve-schema.json "modbus"): the transaction's id, and the
 * request and the response, each with its MBAP fields, function, access
 * type and category, and what its function carries (read, write, data,
 * exception, diagnostic, mei). */
#ifndef OUTPUT_MODBUS_JSON_H
#define OUTPUT_MODBUS_JSON_H

#include "app-layer/modbus.h"

#include <jansson.h>

struct JsonWriter;
void modbus_json_write(struct JsonWriter *w, const ModbusTx *tx);
/* The same as a tree, for tests; the caller owns it. */
json_t *modbus_json_object(const ModbusTx *tx);

#endif
