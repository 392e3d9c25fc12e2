/* The eve "rdp" object of an RDP transaction, as Suricata 8 writes it:
 * tx_id and event_type (initial_request, initial_response,
 * connect_request, connect_response, tls_handshake), then the message's
 * members: the cookie and negotiation flags of the request, the
 * response's server_supports and protocol (or its failure), the client
 * core data and channels of the MCS Connect Initial, the certificates'
 * x509_serials. */
#ifndef OUTPUT_RDP_JSON_H
#define OUTPUT_RDP_JSON_H

#include "app-layer/rdp.h"

#include <jansson.h>

struct JsonWriter;
void rdp_json_write(struct JsonWriter *w, const RdpTx *tx);
/* The same as a tree, for tests; the caller owns it. */
json_t *rdp_json_object(const RdpTx *tx);

#endif
