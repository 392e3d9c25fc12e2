/* X-Forwarded-For in eve (Suricata's `xff` option of the alert and http
 * types): behind a proxy the flow's client address is the proxy's; the
 * header names the real client. extra-data adds it to the record
 * ("alert.xff", "http.xff"); overwrite puts it in place of the client's
 * address in the record's header (src_ip on a request, dest_ip on a
 * response). deployment forward takes the header's first address, reverse
 * (a reverse proxy appended it) its last. */
#ifndef OUTPUT_XFF_H
#define OUTPUT_XFF_H

#include <stddef.h>
#include <stdint.h>

#include "flow/flow.h"

#define XFF_HEADER_MAX 64
#define XFF_ADDR_MAX 48

typedef struct XffConfig {
	uint8_t enabled;
	uint8_t overwrite;     /* mode: overwrite (else extra-data) */
	uint8_t forward;       /* deployment: forward (else reverse) */
	char header[XFF_HEADER_MAX];   /* default X-Forwarded-For */
} XffConfig;

/* Reads `prefix`.xff (enabled, mode, deployment, header) into c; a wrong
 * value is an error (-1, *err set), as 8.0 stops on it. */
int xff_config_load(const char *prefix, XffConfig *c, char *err, size_t errlen);

/* The address the header names on flow f's HTTP transaction tx_id
 * (has_tx 0: the newest transaction that has the header), as text in
 * out: 1, or 0 when there is none (not HTTP, no header, not an address). */
int xff_lookup(const XffConfig *c, const Flow *f, int has_tx, uint64_t tx_id, char *out,
	       size_t outlen);

/* The same for a transaction in hand (the http record's). */
struct HttpTx;
int xff_lookup_tx(const XffConfig *c, const struct HttpTx *tx, char *out, size_t outlen);

#endif
