/* The dcerpc keywords' matchers on a struct dcerpc_tx, for a protocol
 * that carries DCE/RPC and evaluates dcerpc.iface, dcerpc.opnum and
 * dcerpc.stub_data on its own transactions (SMB's named pipes): it adds
 * its case to dce_view() in dcerpc-kw.c, or calls these with its view.
 * ctx: the SigMatch ctx of KW_DCERPC_IFACE / KW_DCERPC_OPNUM. */
#ifndef DETECT_DCERPC_KW_H
#define DETECT_DCERPC_KW_H

#include "app-layer/dcerpc-parse.h"

int dcerpc_iface_match(const struct dcerpc_tx *t, const void *ctx);
int dcerpc_opnum_match(const struct dcerpc_tx *t, const void *ctx);
/* dcerpc.stub_data of side (APP_DIR_*): 0 with data/len, -1 none. */
int dcerpc_tx_buffer_get(const struct dcerpc_tx *t, int side, uint32_t idx,
			 const uint8_t **data, uint32_t *len);

#endif
