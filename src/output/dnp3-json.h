/* The eve "dnp3" object of a DNP3 message, as Suricata 8 writes it
 * (schema: eve-schema.json "dnp3"): type (request, response,
 * unsolicited_response), the link control, src, dst, the application
 * header with its object headers and their points, and a response's
 * internal indications. Alerts carry it under "request" or "response". */
#ifndef OUTPUT_DNP3_JSON_H
#define OUTPUT_DNP3_JSON_H

#include "app-layer/dnp3.h"

#include <jansson.h>

struct JsonWriter;
void dnp3_json_write(struct JsonWriter *w, const Dnp3Tx *tx);
/* The same as a tree, for tests; the caller owns it. */
json_t *dnp3_json_object(const Dnp3Tx *tx);

#endif
