/* SNMP (RFC 1157, 3416, 3412/3414) over UDP: the parser's view, for
 * detection (detect/snmp-kw.c) and eve (output/snmp-json.c).
 *
 * As in Suricata 8, every message is its own transaction. What is kept of
 * one: the version (1, 2 for 2c, 3), the PDU type (none when a v3 PDU is
 * encrypted), the v1/v2c community or the v3 USM user name, the OIDs of
 * the variable bindings, and a v1 trap's generic type, enterprise OID and
 * agent address. */
#ifndef APP_LAYER_SNMP_H
#define APP_LAYER_SNMP_H

#include "app-layer/txlist.h"

#include <stdint.h>

#define SNMP_MAX_VARS 256
#define SNMP_MAX_OID 160            /* dotted text, NUL included */
#define SNMP_MAX_STR 256            /* community, user name */

enum snmp_pdu {
	SNMP_PDU_GET_REQUEST = 0,
	SNMP_PDU_GET_NEXT_REQUEST = 1,
	SNMP_PDU_RESPONSE = 2,
	SNMP_PDU_SET_REQUEST = 3,
	SNMP_PDU_TRAP_V1 = 4,
	SNMP_PDU_GET_BULK_REQUEST = 5,
	SNMP_PDU_INFORM_REQUEST = 6,
	SNMP_PDU_TRAP_V2 = 7,
	SNMP_PDU_REPORT = 8,
};

/* "get_request", ...; NULL past report */
const char *snmp_pdu_name(int64_t t);
/* a v1 trap's generic-trap name ("ColdStart", ...); NULL when unknown */
const char *snmp_trap_name(int64_t t);

typedef struct SnmpMsg {
	uint32_t version;           /* 1, 2 (2c) or 3 */
	int32_t pdu_type;           /* -1: not readable (encrypted) */
	char *community;            /* v1/v2c, copied; NULL none */
	uint16_t community_len;
	char *usm;                  /* v3 USM msgUserName; NULL none */
	uint16_t usm_len;
	uint32_t nvars;
	char (*vars)[SNMP_MAX_OID]; /* dotted OIDs */
	/* v1 trap */
	uint8_t has_trap;
	int64_t trap_type;
	char trap_oid[SNMP_MAX_OID];
	char trap_address[16];
	uint8_t unknown_sec;        /* v3 with a security model other than USM */
} SnmpMsg;

/* Decodes one message: 0, or -1 when it is not SNMP (nothing to free). */
int snmp_msg_decode(const uint8_t *buf, uint32_t len, SnmpMsg *m);
void snmp_msg_free(SnmpMsg *m);

enum snmp_event {
	SNMP_EV_MALFORMED_DATA = 0,
	SNMP_EV_UNKNOWN_SECURITY_MODEL,
	SNMP_EV_VERSION_MISMATCH,
	SNMP_EV_COUNT
};
const char *snmp_event_name(int ev);
int snmp_event_by_name(const char *name);

typedef struct SnmpTx {
	AppTx base;
	uint8_t valid;
	SnmpMsg m;
} SnmpTx;

#endif
