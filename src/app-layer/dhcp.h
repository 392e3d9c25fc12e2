/* DHCP (RFC 2131, 2132) over UDP: the parser's view, for detection
 * (detect/dhcp-kw.c) and eve (output/dhcp-json.c).
 *
 * As in Suricata 8, every datagram is its own transaction, one-way. What is
 * kept of one: the BOOTP header's fields eve shows and a copy of the option
 * bytes (bounded by the datagram), walked with dhcp_opt_next(); the few
 * options detection reads are found once at decode time. */
#ifndef APP_LAYER_DHCP_H
#define APP_LAYER_DHCP_H

#include "app-layer/txlist.h"

#include <stdint.h>

/* op, htype, hlen, hops, xid, secs, flags, ciaddr, yiaddr, siaddr, giaddr,
 * chaddr (16), sname (64), file (128), then the magic cookie */
#define DHCP_HDR_LEN 236
#define DHCP_MIN_LEN (DHCP_HDR_LEN + 4)
#define DHCP_MAGIC 0x63825363u

#define BOOTP_REQUEST 1
#define BOOTP_REPLY 2
#define DHCP_TYPE_ACK 5             /* option 53 of a server's ack */

/* the options this engine names */
enum {
	DHCP_OPT_PAD = 0,
	DHCP_OPT_SUBNET_MASK = 1,
	DHCP_OPT_ROUTERS = 3,
	DHCP_OPT_DNS_SERVER = 6,
	DHCP_OPT_HOSTNAME = 12,
	DHCP_OPT_REQUESTED_IP = 50,
	DHCP_OPT_ADDRESS_TIME = 51,
	DHCP_OPT_TYPE = 53,
	DHCP_OPT_PARAMETER_LIST = 55,
	DHCP_OPT_RENEWAL_TIME = 58,
	DHCP_OPT_REBINDING_TIME = 59,
	DHCP_OPT_VENDOR_CLASS_ID = 60,
	DHCP_OPT_CLIENT_ID = 61,
	DHCP_OPT_END = 255,
};

typedef struct DhcpMsg {
	uint8_t op;                 /* BOOTP_REQUEST, BOOTP_REPLY, else unknown */
	uint32_t xid;
	uint8_t ciaddr[4], yiaddr[4], siaddr[4], giaddr[4];
	uint8_t chaddr[6];          /* the first six bytes, as Suricata logs them */
	uint8_t *opts;              /* the option bytes after the cookie, copied */
	uint32_t opts_len;
	uint8_t type;               /* option 53; 0 none */
	uint8_t has_time[3];        /* lease (51), renewal (58), rebinding (59) */
	uint32_t time[3];
	uint8_t malformed;          /* an option whose length does not fit its kind */
	uint8_t truncated;          /* an option cut by the end of the datagram */
} DhcpMsg;

enum { DHCP_TIME_LEASE, DHCP_TIME_RENEWAL, DHCP_TIME_REBINDING };

/* Decodes one datagram: 0, -1 when it is shorter than the header, -2 out
 * of memory (nothing to free on either). Option faults are flags of m,
 * not failures. */
int dhcp_msg_decode(const uint8_t *buf, uint32_t len, DhcpMsg *m);
void dhcp_msg_free(DhcpMsg *m);
/* 1 when the datagram's start is a BOOTP header with DHCP's cookie */
int dhcp_looks_like(const uint8_t *buf, uint32_t len);

typedef struct DhcpOpt {
	uint8_t code;
	uint8_t len;
	const uint8_t *data;
} DhcpOpt;

/* The option at *off of the options area: 1 (o set, *off past it), 0 at
 * END or the area's end, -1 when the option runs past the end. PAD is
 * skipped. */
int dhcp_opt_next(const uint8_t *opts, uint32_t len, uint32_t *off, DhcpOpt *o);

/* "discover", ... "inform"; "unknown" past them (Suricata's words) */
const char *dhcp_type_name(uint8_t t);
/* a requested parameter's name in eve's "params"; NULL when eve leaves it out */
const char *dhcp_param_name(uint8_t code);

enum dhcp_event {
	DHCP_EV_TRUNCATED_OPTIONS = 0,
	DHCP_EV_MALFORMED_OPTIONS,
	DHCP_EV_COUNT
};
const char *dhcp_event_name(int ev);
int dhcp_event_by_name(const char *name);

typedef struct DhcpTx {
	AppTx base;
	DhcpMsg m;
} DhcpTx;

#endif
