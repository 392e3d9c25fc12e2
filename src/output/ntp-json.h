/* The eve "ntp" object of an NTP message, as Suricata 8.0.5 and later
 * write it (schema: eve-schema.json "ntp"): version, mode, stratum and
 * reference_id (the four bytes as colon-separated hex). */
#ifndef OUTPUT_NTP_JSON_H
#define OUTPUT_NTP_JSON_H

#include "app-layer/ntp.h"

#include <jansson.h>

struct JsonWriter;
void ntp_json_write(struct JsonWriter *w, const NtpMsg *m);
/* The same as a tree, for tests; the caller owns it. */
json_t *ntp_json_object(const NtpMsg *m);

#endif
