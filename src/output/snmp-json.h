/* The eve "snmp" object of an SNMP message, as Suricata 8 writes it
 * (schema: eve-schema.json "snmp"): version, pdu_type, vars (the OIDs),
 * community or usm, and a v1 trap's trap_type, trap_oid, trap_address. */
#ifndef OUTPUT_SNMP_JSON_H
#define OUTPUT_SNMP_JSON_H

#include "app-layer/snmp.h"

#include <jansson.h>

struct JsonWriter;
void snmp_json_write(struct JsonWriter *w, const SnmpMsg *m);
/* The same as a tree, for tests; the caller owns it. */
json_t *snmp_json_object(const SnmpMsg *m);

#endif
