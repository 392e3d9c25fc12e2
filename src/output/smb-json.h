/* The "smb" object of eve records, as Suricata 8 writes it (schema:
 * eve-schema.json "smb"; smb-json.c lists the fields). */
#ifndef OUTPUT_SMB_JSON_H
#define OUTPUT_SMB_JSON_H

#include <jansson.h>

#include "app-layer/smb-parse.h"
#include "flow/flow.h"

struct JsonWriter;
/* The "smb" object's members, into w's open object. f: the transaction's
 * flow (its negotiated dialect). */
void smb_json_write(struct JsonWriter *w, const Flow *f, const SmbTx *t);
/* The same as a tree, for tests and fuzzers; the caller owns it. */
json_t *smb_json_object(const Flow *f, const SmbTx *t);

#endif
