/* The eve "nfs" and "rpc" objects of an NFS transaction, as Suricata 8
 * writes them (schema: eve-schema.json "nfs", "rpc"): rpc {xid, status,
 * auth_type, creds {machine_name, uid, gid}}; nfs {version, procedure,
 * type (request, response), status, filename, hhash (the CRC-32 of the
 * file handle, hex), id, file_tx, rename {from, to}}. */
#ifndef OUTPUT_NFS_JSON_H
#define OUTPUT_NFS_JSON_H

#include "app-layer/nfs.h"

#include <jansson.h>

struct JsonWriter;
void nfs_json_write(struct JsonWriter *w, const NfsTx *tx);
void nfs_rpc_json_write(struct JsonWriter *w, const NfsTx *tx);
/* {"rpc": ..., "nfs": ...} as a tree, for tests; the caller owns it. */
json_t *nfs_json_object(const NfsTx *tx);

#endif
