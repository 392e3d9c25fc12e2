/* The "sip" object of eve records, as Suricata 8 writes it (schema:
 * eve-schema.json "sip"): a request's method, uri, version and
 * request_line, or a response's version, code, reason and response_line,
 * and "sdp" when the body is SDP. */
#ifndef OUTPUT_SIP_JSON_H
#define OUTPUT_SIP_JSON_H

#include <jansson.h>

#include "app-layer/sip-parse.h"

struct JsonWriter;
/* The object's members, into w's open object. */
void sip_json_write(struct JsonWriter *w, const SipMsg *m);
/* The same as a tree, for tests and fuzzers; the caller owns it. */
json_t *sip_json_object(const SipMsg *m);

#endif
