/* The seam between SMB and DCERPC over named pipes (smb.h).
 *
 * SMB calls smb_pipe_data() with every byte it carries on a named pipe, in
 * order per direction, and the SMB transaction that carried it. DCERPC is
 * parsed elsewhere (its own parser, written separately); until the two are
 * connected this does nothing on purpose: the bytes were already inspected
 * as SMB stream content and logged as SMB commands, and nothing is kept
 * here, so nothing can leak or grow. */
#include "app-layer/smb.h"

void smb_pipe_data(struct smb_tx *tx, int to_server, const uint8_t *data, size_t len)
{
	(void)tx;
	(void)to_server;
	(void)data;
	(void)len;
}
