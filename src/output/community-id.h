/* Community ID v1 of a flow (the Corelight spec, which Suricata's eve
 * "community_id" follows): "1:" and the base64 of a SHA-1 over the seed
 * and the flow's ordered tuple. */
#ifndef OUTPUT_COMMUNITY_ID_H
#define OUTPUT_COMMUNITY_ID_H

#include <stddef.h>
#include <stdint.h>

#include "decode/packet.h"

#define COMMUNITY_ID_LEN 32   /* "1:" + 28 base64 characters + NUL, rounded up */

/* The flow's tuple as its first packet saw it: src/dst with ports, or for
 * ICMP the first packet's type (sp) and code (dp). Writes out and returns
 * 0; -1 for an address family it does not know. */
int community_id(uint16_t seed, const Address *src, const Address *dst, uint8_t proto,
		 uint16_t sp, uint16_t dp, char out[COMMUNITY_ID_LEN]);

#endif
