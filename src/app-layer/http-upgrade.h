/* HTTP/1's "101 Switching Protocols": the protocol an Upgrade token names,
 * for http.c to hand the flow over (app_layer_request_proto_change()), as
 * Suricata 8 does for h2c (HTTP/2) and websocket (RFC 9110 7.8). One table
 * entry per protocol (http-upgrade.c). */
#ifndef APP_LAYER_HTTP_UPGRADE_H
#define APP_LAYER_HTTP_UPGRADE_H

#include <stddef.h>
#include <stdint.h>

/* The app protocol of an Upgrade header's value (a token, compared without
 * case, blanks around it ignored; a list "a, b" names the first), or
 * ALPROTO_UNKNOWN (0) when none. */
unsigned http_upgrade_proto(const uint8_t *tok, size_t len);

#endif
