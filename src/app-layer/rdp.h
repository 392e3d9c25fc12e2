/* RDP as Suricata 8 parses it ([MS-RDPBCGR] connection sequence): TPKT
 * (RFC 1006) framed X.224 Connection Request (the cookie, RDP_NEG_REQ)
 * and Connection Confirm (RDP_NEG_RSP or RDP_NEG_FAILURE), the MCS
 * Connect Initial's client core and network data, the MCS Connect
 * Response; then, when the server chose TLS or CredSSP, the TLS records
 * of the handshake, for the server's certificate chain. Each of these
 * messages is one transaction, complete as it is made. Once the MCS
 * Connect Response or the certificates were seen the rest of the flow
 * (encrypted, or RDP's own encryption) is not parsed, as Suricata's
 * bypass_parsing.
 *
 * The parser keeps no flow (rdp-proto.c is its ops entry). Memory: one
 * TPKT or TLS record per direction is buffered at most (their length
 * fields bound them to 64 KiB), and at most RDP_MAX_TX transactions are
 * live. */
#ifndef APP_LAYER_RDP_H
#define APP_LAYER_RDP_H

#include "app-layer/txlist.h"

#include <stdint.h>

#define RDP_TOSERVER 0
#define RDP_TOCLIENT 1

#define RDP_MAX_TX 256            /* live transactions a flow may hold */
#define RDP_MAX_CHANNELS 31       /* static virtual channels ([MS-RDPBCGR]) */
#define RDP_MAX_SERIALS 16        /* certificates of a chain kept */

enum rdp_item {
	RDP_INITIAL_REQUEST,          /* X.224 Connection Request */
	RDP_INITIAL_RESPONSE,         /* X.224 Connection Confirm */
	RDP_CONNECT_REQUEST,          /* MCS Connect Initial */
	RDP_CONNECT_RESPONSE,         /* MCS Connect Response */
	RDP_TLS_HANDSHAKE,            /* the server's certificate chain */
};

/* RDP_NEG_RSP.selectedProtocol / RDP_NEG_REQ.requestedProtocols */
enum { RDP_PROTO_RDP = 0, RDP_PROTO_SSL = 1, RDP_PROTO_HYBRID = 2, RDP_PROTO_RDSTLS = 4,
       RDP_PROTO_HYBRID_EX = 8 };

/* TS_UD_CS_CORE: the mandatory part and the optional fields eve shows
 * (has_* says which of these the block had) */
typedef struct RdpClientCore {
	uint32_t version;
	uint16_t width, height, color_depth;
	uint32_t keyboard_layout, build;
	char name[100];               /* clientName, UTF-8 */
	uint32_t keyboard_type, keyboard_subtype, function_keys;
	uint8_t has_post_beta2, has_product_id, has_high_color, has_early_caps, has_dig_id;
	uint16_t post_beta2, product_id, high_color, early_caps;
	char dig_id[200];             /* clientDigProductId, UTF-8 */
} RdpClientCore;

typedef struct RdpTx {
	AppTx base;
	uint8_t item;                 /* enum rdp_item */
	/* RDP_INITIAL_REQUEST */
	char *cookie;                 /* "Cookie: mstshash=" value (malloc) */
	uint32_t cookie_len;
	uint8_t has_neg_req, req_flags;
	uint32_t req_protocols;
	/* RDP_INITIAL_RESPONSE: 0 none, 1 RDP_NEG_RSP, 2 RDP_NEG_FAILURE */
	uint8_t neg_kind, rsp_flags;
	uint32_t rsp_value;           /* selectedProtocol or failureCode */
	/* RDP_CONNECT_REQUEST */
	uint8_t has_core;
	RdpClientCore core;
	uint32_t nchannels;
	char channels[RDP_MAX_CHANNELS][9];
	/* RDP_TLS_HANDSHAKE: each certificate's serial in lower-case hex */
	uint32_t nserials;
	char *serials[RDP_MAX_SERIALS];
} RdpTx;

typedef struct RdpSide {
	uint8_t *buf;                 /* a TPKT or TLS record cut across calls */
	uint32_t len, cap;
	uint8_t dead;                 /* gap, eof, or bytes that are not RDP */
} RdpSide;

typedef struct RdpState {
	AppTxList txs;                /* first: the txlist ops read it */
	RdpSide side[2];
	uint8_t tls;                  /* the records are TLS from here on */
	uint8_t bypass;               /* nothing more is parsed either way */
} RdpState;

RdpState *rdp_state_new(void);
void rdp_state_free(RdpState *s);
/* One direction's next bytes. 0, or -1 when they are not RDP (the side is
 * given up). */
int rdp_parse(RdpState *s, int dir, const uint8_t *data, uint32_t len);
/* a gap or the end of the side: nothing more of it is parsed */
void rdp_side_end(RdpState *s, int dir);

/* Detection: 1 an X.224 Connection Request (dir toserver) or Confirm
 * (toclient) in a TPKT, 0 not, -1 more bytes needed. */
int rdp_probe(int dir, const uint8_t *buf, uint32_t len);

/* names for eve (rdp-parse.c keeps the tables) */
const char *rdp_version_name(uint32_t version, char *buf, unsigned size);
const char *rdp_build_name(uint32_t build);
const char *rdp_lcid_name(uint32_t lcid);
const char *rdp_keyboard_name(uint32_t type);
const char *rdp_protocol_name(uint32_t proto);
const char *rdp_failure_name(uint32_t code);
/* the client's color depth as [MS-RDPBCGR] 2.2.1.3.2 decides it: 0 unknown */
unsigned rdp_color_depth(const RdpClientCore *c);

#endif
