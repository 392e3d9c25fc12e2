/* The eve "ike" object of an IKE message, as Suricata 8 writes it
 * (schema: eve-schema.json "ike"): the header (version_major/minor,
 * init_spi, resp_spi, message_id, exchange_type), the payload types, v1's
 * chosen transform's attributes (alg_enc, alg_enc_raw, ...) and the
 * "ikev1" object (doi, encrypted_payloads, client and server key exchange
 * and nonce, the client's proposals, vendor_ids), v2's role, the
 * responder's chosen algorithms and the "ikev2" object (errors, notify).
 * With extended (eve-log "- ike: extended: yes"), a v1 message also names
 * its exchange type (exchange_type_verbose). */
#ifndef OUTPUT_IKE_JSON_H
#define OUTPUT_IKE_JSON_H

#include "app-layer/ike.h"

#include <jansson.h>

struct JsonWriter;
void ike_json_write(struct JsonWriter *w, const IkeTx *tx, int extended);
/* The same as a tree, for tests; the caller owns it. */
json_t *ike_json_object(const IkeTx *tx, int extended);

#endif
