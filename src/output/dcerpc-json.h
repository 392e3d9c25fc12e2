/* The eve "dcerpc" object of a DCE/RPC transaction, as Suricata 8 writes
 * it (schema: eve-schema.json "dcerpc"): request and response types, req
 * {opnum, frag_cnt, stub_data_size}, res {frag_cnt, stub_data_size}, the
 * interfaces of a bind with their ack results (of a request: the one its
 * context names), call_id and rpc_version; over UDP activityuuid and
 * seqnum instead of call_id. SMB writes the same object as smb.dcerpc. */
#ifndef OUTPUT_DCERPC_JSON_H
#define OUTPUT_DCERPC_JSON_H

#include "app-layer/dcerpc-parse.h"

#include <jansson.h>

/* A new object; udp: the connectionless fields. */
json_t *dcerpc_json_object(const struct dcerpc_tx *tx, int udp);
/* The smb record's "dcerpc" object of a call on a named pipe (schema:
 * eve-schema.json smb.dcerpc): request, response, opnum, req and res
 * {frag_cnt, stub_data_size}, a bind's interfaces (a request's: the one
 * its context names), call_id. */
json_t *dcerpc_smb_json_object(const struct dcerpc_tx *tx);

#endif
