/* WebSocket (RFC 6455) after HTTP/1's 101 Switching Protocols: the
 * parser's view, for detection (detect/websocket-kw.c) and eve
 * (output/websocket-json.c).
 *
 * Transactions are Suricata 8's: one frame each, one-way (the side it
 * went), complete when the frame is. The payload is kept unmasked, at most
 * max-payload-size bytes of it (the rest is skipped: skip_end_of_payload).
 * A fragmented data message is reassembled: the frame that ends it (FIN)
 * carries the whole message's payload (at most max-payload-size:
 * reassembly_limit_reached past it); control frames between its fragments
 * carry their own and leave the message alone.
 *
 * permessage-deflate (RFC 7692): a message whose first frame has RSV1 set
 * is inflated when it ends, as Suricata 8 does, whether or not the 101
 * agreed to the extension (8.0 does not look): its last frame's payload,
 * and so websocket.payload and eve, is then the inflated data (the
 * compressed bytes stay when nothing came out). Each direction keeps its
 * inflate window from message to message (context takeover) unless the
 * 101's Sec-WebSocket-Extensions said <side>_no_context_takeover; the
 * window is <side>_max_window_bits (15 by default). The inflated data is
 * cut at max-payload-size: a message past it gets reassembly_limit_reached
 * (and ninflate_capped counts it) and the direction's window starts over
 * with the next one. */
#ifndef APP_LAYER_WEBSOCKET_H
#define APP_LAYER_WEBSOCKET_H

#include "app-layer/txlist.h"

#include <stdint.h>

enum ws_opcode {
	WS_OP_CONTINUATION = 0,
	WS_OP_TEXT = 1,
	WS_OP_BINARY = 2,
	WS_OP_CLOSE = 8,
	WS_OP_PING = 9,
	WS_OP_PONG = 10,
};
/* Suricata's name of an opcode ("text", "connection_close"), or NULL */
const char *ws_opcode_name(unsigned op);
/* The opcode of a name, or -1 */
int ws_opcode_by_name(const char *name);

/* the flags byte: the first header byte's upper four bits */
#define WS_FLAG_FIN 0x80
#define WS_FLAG_COMP 0x40           /* RSV1: per-message compression */

enum ws_event {
	WS_EV_SKIP_END_OF_PAYLOAD = 0,
	WS_EV_REASSEMBLY_LIMIT_REACHED,
	WS_EV_COUNT
};
const char *ws_event_name(int ev);
int ws_event_by_name(const char *name);

typedef struct WsTx {
	AppTx base;
	uint8_t dir;                /* APP_DIR_* */
	uint8_t flags;              /* WS_FLAG_* and the other RSV bits */
	uint8_t opcode;
	uint8_t masked;
	uint32_t mask;
	uint8_t *payload;           /* unmasked, reassembled for a message's last frame */
	uint32_t plen;
} WsTx;

/* frame types, Suricata's names (frame:websocket.pdu, ...) */
enum { WS_FRAME_PDU = 0, WS_FRAME_HEADER, WS_FRAME_DATA };

/* ---- the parser, free of the flow (websocket-parse.c) ---- */

typedef struct WsDir {
	uint8_t hdr[14];
	uint8_t hlen, need;         /* header bytes seen, needed */
	uint8_t in_payload;
	uint64_t left;              /* payload bytes still to come */
	uint64_t seen;              /* payload bytes seen (the mask's phase) */
	uint8_t *buf;               /* the frame's kept payload */
	uint32_t blen;
	uint8_t *msg;               /* a fragmented message so far */
	uint32_t mlen;
	uint8_t in_msg;             /* a data frame without FIN started one */
	uint8_t msg_over;           /* ... and it went past the limit */
	uint32_t events;            /* for the frame being parsed */
} WsDir;

/* A frame seen, for the caller's frames: its stream offset (counted from
 * the first byte given), header and payload lengths. */
typedef void (*ws_frame_cb)(void *arg, int dir, uint64_t off, uint32_t hlen, uint64_t plen);

/* What the 101's Sec-WebSocket-Extensions agreed to for permessage-deflate,
 * per direction of the messages (APP_DIR_TOSERVER: the client_* params) */
typedef struct WsDeflateParams {
	uint8_t agreed;             /* permessage-deflate is in the header */
	uint8_t no_takeover[2];
	uint8_t wbits[2];           /* 8 to 15 */
} WsDeflateParams;

/* Parses a Sec-WebSocket-Extensions value: 1 permessage-deflate agreed
 * (p filled), 0 not in it. */
int ws_deflate_params_parse(const char *v, size_t len, WsDeflateParams *p);

typedef struct WsInflate {
	void *zs;                   /* z_stream, made at the first compressed message */
	uint8_t restart;            /* the next message starts a fresh window */
} WsInflate;

typedef struct WsConn {
	AppTxList txs;              /* first: txlist.h's ops read it */
	WsDir d[2];
	uint64_t off[2];            /* bytes parsed per direction */
	uint32_t max_payload;
	uint64_t max_tx;
	uint8_t stopped[2];
	uint64_t ntx, nalloc;
	ws_frame_cb on_frame;
	void *arg;
	WsDeflateParams deflate;
	WsInflate z[2];
	uint8_t msg_comp[2];        /* the fragmented message being reassembled is compressed */
	uint64_t ninflate_capped;   /* messages whose inflated data was cut */
} WsConn;

void ws_conn_init(WsConn *c, uint32_t max_payload, uint64_t max_tx);
void ws_conn_free(WsConn *c);
void ws_conn_feed(WsConn *c, int dir, const uint8_t *data, uint32_t len);
void ws_conn_gap(WsConn *c, int dir);
/* the 101's agreement (before the first frame) */
void ws_conn_set_deflate(WsConn *c, const WsDeflateParams *p);

#endif
