/* The eve "tftp" object of a TFTP request, as Suricata 8 writes it (schema:
 * eve-schema.json "tftp"): packet ("read", "write" or "error"), file,
 * mode. */
#ifndef OUTPUT_TFTP_JSON_H
#define OUTPUT_TFTP_JSON_H

#include "app-layer/tftp.h"

#include <jansson.h>

struct JsonWriter;
void tftp_json_write(struct JsonWriter *w, const TftpReq *r);
/* The same as a tree, for tests; the caller owns it. */
json_t *tftp_json_object(const TftpReq *r);

#endif
