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

struct JsonWriter;
/* The object's members, into w's open object; udp: the connectionless
 * fields. */
void dcerpc_json_write(struct JsonWriter *w, const struct dcerpc_tx *tx, int udp);
/* The same as a tree, for tests and fuzzers; the caller owns it. */
json_t *dcerpc_json_object(const struct dcerpc_tx *tx, int udp);
/* The smb record's "dcerpc" object of a call on a named pipe (schema:
 * eve-schema.json smb.dcerpc): request, response, opnum, req and res
 * {frag_cnt, stub_data_size}, a bind's interfaces (a request's: the one
 * its context names), call_id. */
void dcerpc_smb_json_write(struct JsonWriter *w, const struct dcerpc_tx *tx);

#endif
