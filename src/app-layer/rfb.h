/* RFB (VNC, RFC 6143) as Suricata 8 parses it: the handshake only, both
 * directions, one transaction per flow. Server: ProtocolVersion, the
 * security types (3.3: the one the server chose), the VNC challenge, the
 * SecurityResult (3.8: a reason when it failed), ServerInit. Client:
 * ProtocolVersion, the chosen type (3.7+), the VNC response, ClientInit.
 * After ServerInit the flow carries framebuffer traffic, which is not
 * parsed (Suricata 8 skips it too).
 *
 * The parser keeps no flow: rfb-proto.c hands it each direction's bytes
 * and gets one call per message through the frame callback. Messages of a
 * direction that wait on the other one (the server's challenge needs the
 * client's chosen type) stay buffered, at most RFB_BUF_MAX bytes a side. */
#ifndef APP_LAYER_RFB_H
#define APP_LAYER_RFB_H

#include <stdint.h>

#define RFB_TOSERVER 0
#define RFB_TOCLIENT 1

/* buffered bytes per direction, the desktop name included */
#define RFB_BUF_MAX 65536u

/* Suricata 8's RFB events (app-layer-event:rfb.<name>) */
enum rfb_event {
	RFB_EV_UNIMPLEMENTED_SECURITY_TYPE,
	RFB_EV_UNKNOWN_SECURITY_RESULT,
	RFB_EV_MALFORMED_MESSAGE,
	RFB_EV_CONFUSED_STATE,
	RFB_EV_COUNT
};

/* the SecurityResult values (rfb.secresult) */
enum { RFB_RESULT_OK = 0, RFB_RESULT_FAIL = 1, RFB_RESULT_TOOMANY = 2 };

typedef struct RfbVersion {
	char major[4], minor[4];    /* the digits as sent, NUL-terminated */
	uint8_t set;
} RfbVersion;

typedef struct RfbPixelFormat {
	uint8_t bits_per_pixel, depth, big_endian, true_color;
	uint16_t red_max, green_max, blue_max;
	uint8_t red_shift, green_shift, blue_shift;
} RfbPixelFormat;

/* what the handshake told, for eve and the keywords */
typedef struct RfbInfo {
	RfbVersion server_version, client_version;
	uint8_t has_sectype, has_challenge, has_response, has_result;
	uint8_t has_client_init, has_server_init;
	uint32_t sectype;           /* the chosen security type */
	uint8_t challenge[16], response[16];
	uint32_t result;            /* SecurityResult */
	uint8_t shared;             /* ClientInit's shared-flag */
	uint16_t width, height;
	RfbPixelFormat pf;
	uint8_t *name;              /* ServerInit's desktop name (malloc) */
	uint32_t name_len;
} RfbInfo;

/* per-message callback: the message's direction, its offset from the
 * direction's first byte and its length (for frames) */
typedef void (*rfb_msg_fn)(void *ctx, int dir, uint64_t off, uint32_t len);

typedef struct RfbSide {
	uint8_t *buf;               /* bytes not parsed yet (malloc) */
	uint32_t len, cap;
	uint64_t consumed;          /* bytes of the direction parsed */
	uint8_t step;               /* rfb-parse.c's enum of what comes next */
	uint8_t dead;               /* gap, eof, or past a malformed message */
} RfbSide;

typedef struct RfbState {
	RfbSide side[2];
	RfbInfo info;
	uint8_t done;               /* the handshake is over (or given up) */
	uint32_t events;            /* bit e: event e was raised */
	rfb_msg_fn cb;
	void *cb_ctx;
} RfbState;

RfbState *rfb_state_new(void);
void rfb_state_free(RfbState *s);
/* Feeds a direction's next bytes. 0, or -1 when a message was malformed
 * (the event is raised, the handshake given up). */
int rfb_parse(RfbState *s, int dir, const uint8_t *data, uint32_t len);
/* A gap or the direction's end: nothing more of it is parsed. */
void rfb_side_end(RfbState *s, int dir);
/* 1: the direction has nothing more to parse (the transaction's side is
 * complete) */
int rfb_side_done(const RfbState *s, int dir);

/* Detection: 1 "RFB xxx.yyy\n" (or its start, "RFB "), 0 not RFB, -1 more
 * bytes needed. */
int rfb_probe(const uint8_t *buf, uint32_t len);

/* rfb-proto.c: the flow's one transaction's parser state, and the eve
 * anomaly logger's memory of the events it wrote */
const RfbState *rfb_tx_state(const void *tx);
uint32_t *rfb_tx_events_logged(void *tx);

const char *rfb_event_name(int ev);
int rfb_event_by_name(const char *name);
/* "OK", "FAIL", "TOOMANY", or NULL for another value */
const char *rfb_result_name(uint32_t result);

#endif
