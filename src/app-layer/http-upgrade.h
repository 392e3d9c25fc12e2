/* HTTP/1's "101 Switching Protocols": the Upgrade token of the answer names
 * the protocol the flow continues as (RFC 9110 7.8), one table entry per
 * protocol (http-upgrade.c). http.c asks it when a 101 carries an Upgrade
 * header, then hands the flow over (app_layer_request_proto_change). */
#ifndef APP_LAYER_HTTP_UPGRADE_H
#define APP_LAYER_HTTP_UPGRADE_H

#include <stddef.h>
#include <stdint.h>

/* The app protocol of an Upgrade header's value (a token, compared without
 * case; a list "a, b" names the first), or ALPROTO_UNKNOWN when none. */
unsigned http_upgrade_proto(const uint8_t *tok, size_t len);

#endif
