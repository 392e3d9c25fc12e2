/* The "smb" object of eve records, as Suricata 8 writes it (schema:
 * eve-schema.json "smb"; smb-json.c lists the fields). */
#ifndef OUTPUT_SMB_JSON_H
#define OUTPUT_SMB_JSON_H

#include <jansson.h>

#include "app-layer/smb-parse.h"
#include "flow/flow.h"

/* Never NULL; the caller owns the reference. f: the transaction's flow
 * (its negotiated dialect). */
json_t *smb_json_object(const Flow *f, const SmbTx *t);

#endif
