/* The "mdns" object of eve records, as Suricata 8 writes it (schema:
 * eve-schema.json "mdns"): type (request/response by the QR bit), id,
 * flags (the set ones' names), opcode, rcode (responses), queries
 * [{rrname, rrtype}] with the type in lower case, answers, authorities
 * and additionals [{rrname, ptr (PTR), txt (TXT: an array of its
 * strings)}], the members the eve schema has. */
#ifndef OUTPUT_MDNS_JSON_H
#define OUTPUT_MDNS_JSON_H

#include <jansson.h>

#include "app-layer/dns-parse.h"

struct JsonWriter;
void mdns_json_write(struct JsonWriter *w, const struct dns_msg *m);
/* The same as a tree, for tests and fuzzers; the caller owns it. */
json_t *mdns_json_object(const struct dns_msg *m);

#endif
