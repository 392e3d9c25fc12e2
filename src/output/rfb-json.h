/* The eve "rfb" object of an RFB handshake, as Suricata 8 writes it
 * (schema: eve-schema.json "rfb"): the two protocol versions, the
 * authentication (security type, the VNC challenge and response in hex,
 * the security result), screen_shared, and the framebuffer of ServerInit
 * with its pixel format. */
#ifndef OUTPUT_RFB_JSON_H
#define OUTPUT_RFB_JSON_H

#include "app-layer/rfb.h"

#include <jansson.h>

struct JsonWriter;
void rfb_json_write(struct JsonWriter *w, const RfbInfo *r);
/* The same as a tree, for tests; the caller owns it. */
json_t *rfb_json_object(const RfbInfo *r);

#endif
