/* DoH's eve records (doh2-json.c), written by HTTP/2's logger for the
 * transactions of a doh2 flow that carry DNS messages. */
#ifndef OUTPUT_DOH2_JSON_H
#define OUTPUT_DOH2_JSON_H

#include "app-layer/http2.h"
#include "output/output.h"

#include <stdint.h>

struct JsonWriter;
struct dns_msg;
/* The "dns" object of a DoH transaction (req or resp non-NULL): the
 * response's version 3 members where there is one, else the request's. */
void doh2_json_dns_write(struct JsonWriter *w, const struct dns_msg *req,
			 const struct dns_msg *resp, uint64_t tx_id);
/* Writes tx's doh2 record when its flow is doh2, eve logs doh2 and tx
 * holds a DNS message: 1; else 0 (the caller logs it as HTTP/2). */
int doh2_json_log(Outputs *o, const Packet *p, const Flow *f, const Http2Tx *tx);

#endif
