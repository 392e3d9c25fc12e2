/* DCERPC as the app layer runs it (dcerpc-proto.c): what detection and
 * the eve logger may ask of a dcerpc flow's transactions and state. The
 * transaction is the library's struct dcerpc_tx (dcerpc-parse.h), so a
 * protocol that carries DCE/RPC (SMB's named pipes) hands the same struct
 * to the dcerpc keywords and to the eve "dcerpc" object writer.
 *
 * Progress per side: 0, then 1 once the side's last fragment came (or the
 * side closed). */
#ifndef APP_LAYER_DCERPC_H
#define APP_LAYER_DCERPC_H

#include "app-layer/dcerpc-parse.h"

/* The transaction of a dcerpc flow (from app_layer_tx_get()). */
const struct dcerpc_tx *dcerpc_flow_tx(const void *tx);

#endif
