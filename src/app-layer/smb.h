/* SMB as the app layer runs it (smb-proto.c, parser in smb-parse.c): what
 * detection, the eve logger and DCERPC-over-SMB may ask of it.
 *
 * Progress per side: 0 nothing yet, 1 done (the request was read / the
 * final response came; a file transaction is done on CLOSE or at flow
 * end). A transaction's eve record goes out when both sides are done. */
#ifndef APP_LAYER_SMB_H
#define APP_LAYER_SMB_H

#include "app-layer/smb-parse.h"

#include <stddef.h>
#include <stdint.h>

#define SMB_PROGRESS_DONE 1


/* The seam to DCERPC over SMB named pipes: every byte SMB carries on a
 * named pipe (SMB1 TRANS on a pipe, WriteAndX/ReadAndX on a pipe FID;
 * SMB2 WRITE/READ on a pipe file id, IOCTL FSCTL_PIPE_TRANSCEIVE), in
 * order per direction, with the SMB transaction of the command that
 * carried it. to_server: 1 for requests. Implemented in smb-pipe.c: the
 * bytes feed the pipe's DCE/RPC parser (one per file id, in s->pipes) and
 * the call they belong to is attached to tx->dce. */
void smb_pipe_data(SmbState *s, SmbTx *tx, int to_server, const uint8_t *data, size_t len);
/* Drops tx's reference to its DCE/RPC call (smb_tx_free), and frees the
 * flow's pipes (smb_state_free, after its transactions). */
void smb_pipe_tx_release(SmbTx *tx);
void smb_pipes_free(SmbState *s);

/* The parser transaction behind an app-layer transaction pointer (from
 * app_layer_tx_get() on an SMB flow). */
static inline const SmbTx *smb_tx(const void *tx)
{
	return tx;
}

/* The flow's negotiated dialect as eve prints it ("2.02", "NT LM 0.12",
 * "unknown"), from the SMB flow state; buf holds SMB2's. */
const char *smb_flow_dialect(const void *flow, char *buf, size_t cap);

#endif
