/* Telnet (RFC 854) as Suricata 8 handles it: detected on its port, its
 * messages marked as frames (telnet.pdu, and telnet.ctl for an IAC
 * command, telnet.data for text) and nothing logged of its own: 8.0 has
 * no telnet eve record and no transactions one could log.
 *
 * The scanner below finds the messages' bounds in a direction's bytes
 * without keeping any of them: a control message is IAC and its command
 * (with the option of WILL/WONT/DO/DONT, or a subnegotiation up to IAC
 * SE); a data message runs to its line end (CR LF) or to the next IAC. */
#ifndef APP_LAYER_TELNET_H
#define APP_LAYER_TELNET_H

#include <stdint.h>

enum { TELNET_MSG_NONE = 0, TELNET_MSG_DATA, TELNET_MSG_CTL };

typedef struct TelnetSide {
	uint64_t pos;               /* bytes of the direction scanned */
	uint8_t msg;                /* TELNET_MSG_* being scanned */
	uint8_t ctl;                /* telnet-parse.c's step inside a control */
	uint8_t prev_cr;            /* data: the last byte was CR */
} TelnetSide;

/* A message starts (end 0) or ends (end 1) at direction offset off (an
 * end's off is one past its last byte). */
typedef void (*telnet_msg_fn)(void *ctx, int kind, int end, uint64_t off);

void telnet_scan(TelnetSide *s, const uint8_t *p, uint32_t n, telnet_msg_fn cb, void *ctx);

#endif
