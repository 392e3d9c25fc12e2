/* EtherNet/IP (ODVA encapsulation, TCP and UDP 44818) and the CIP
 * messages it carries: the parser's view, for detection (detect/enip-kw.c)
 * and eve (output/enip-json.c).
 *
 * As in Suricata 8, a transaction is a request and the response that
 * follows it (the oldest request still waiting); a response without a
 * request is a transaction of its own. What is kept of a PDU: the
 * encapsulation header, RegisterSession's version and options, a
 * ListIdentity response's identity item, a ListServices response's
 * service item, and the CIP services of SendRRData / SendUnitData (a
 * Multiple Service Packet's embedded ones too): service, path segments,
 * Get/Set Attribute List's attribute ids, a response's statuses. All in
 * fixed arrays: a PDU costs no allocation beyond its transaction. */
#ifndef APP_LAYER_ENIP_H
#define APP_LAYER_ENIP_H

#include "app-layer/txlist.h"

#include <stdint.h>

#define ENIP_HDR_LEN 24
#define ENIP_MAX_CIP 24             /* services per PDU (top level + embedded) */
#define ENIP_MAX_SEG 6              /* logical path segments per service */
#define ENIP_MAX_ATTRS 16           /* attribute ids of a Get/Set Attribute List */

enum enip_cmd {
	ENIP_CMD_NOP = 0x0000,
	ENIP_CMD_LIST_SERVICES = 0x0004,
	ENIP_CMD_LIST_IDENTITY = 0x0063,
	ENIP_CMD_LIST_INTERFACES = 0x0064,
	ENIP_CMD_REGISTER_SESSION = 0x0065,
	ENIP_CMD_UNREGISTER_SESSION = 0x0066,
	ENIP_CMD_SEND_RR_DATA = 0x006f,
	ENIP_CMD_SEND_UNIT_DATA = 0x0070,
	ENIP_CMD_INDICATE_STATUS = 0x0072,
	ENIP_CMD_CANCEL = 0x0073,
};

enum enip_seg { ENIP_SEG_CLASS = 0, ENIP_SEG_INSTANCE, ENIP_SEG_MEMBER, ENIP_SEG_CONN_POINT,
		ENIP_SEG_ATTRIBUTE };

/* names (NULL when unknown) and their numbers (-1 when unknown) */
const char *enip_cmd_name(uint32_t cmd);
int64_t enip_cmd_by_name(const char *s);
const char *enip_status_name(uint32_t st);
int64_t enip_status_by_name(const char *s);
const char *enip_seg_name(unsigned t);
const char *cip_service_name(unsigned svc);      /* without the response bit */
const char *cip_class_name(uint32_t cls);
const char *cip_status_name(unsigned st);
const char *enip_vendor_name(unsigned v);
const char *enip_device_type_name(unsigned t);

typedef struct EnipSeg {
	uint8_t type;               /* enum enip_seg */
	uint32_t value;
} EnipSeg;

typedef struct EnipCip {
	uint8_t service;            /* as sent: a response's has 0x80 */
	uint8_t embedded;           /* one of a Multiple Service Packet's */
	uint8_t nseg;
	uint8_t nattr;
	EnipSeg seg[ENIP_MAX_SEG];
	uint16_t attr[ENIP_MAX_ATTRS];
	/* a response's */
	uint8_t status;
	uint8_t has_ext;
	uint16_t ext_status;
} EnipCip;

typedef struct EnipIdentity {
	uint16_t protocol_version, vendor_id, device_type, product_code, status;
	uint8_t rev_major, rev_minor, state, name_len;
	uint32_t serial;
	char name[256];
} EnipIdentity;

typedef struct EnipPdu {
	uint16_t command, length;
	uint32_t session, status, options;
	uint8_t has_identity, has_service, has_register;
	uint8_t ncip;
	uint8_t cip_cut;            /* more services than ENIP_MAX_CIP */
	EnipIdentity id;
	uint16_t svc_version, capabilities;
	uint8_t service_name_len;
	char service_name[17];
	uint16_t reg_version, reg_options;
	EnipCip cip[ENIP_MAX_CIP];
} EnipPdu;

/* The header's command, length and options at p[0, len >= 24). */
static inline uint16_t enip_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}
static inline uint32_t enip_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
int enip_cmd_known(uint32_t cmd);

/* Decodes one PDU (header and its data, len == 24 + its length field)
 * into *out: 0, or -1 when the data does not fit the command (what was
 * read is kept). resp: it went to the client. */
int enip_pdu_decode(const uint8_t *p, uint32_t len, int resp, EnipPdu *out);

/* Suricata's frame types of a PDU (AppProtoOps.frame_names order): the
 * whole PDU, its header, its data, each CIP message (embedded ones too),
 * each common-packet-format item. */
enum enip_frame { ENIP_FRAME_PDU = 0, ENIP_FRAME_HDR, ENIP_FRAME_DATA, ENIP_FRAME_CIP,
		  ENIP_FRAME_ITEM };
typedef void (*enip_frame_fn)(void *arg, uint32_t off, uint32_t len, unsigned type);
/* The same, reporting each frame (offset from p) to fn when not NULL. */
int enip_pdu_decode_frames(const uint8_t *p, uint32_t len, int resp, EnipPdu *out,
			   enip_frame_fn fn, void *arg);

enum enip_event {
	ENIP_EV_INVALID_PDU = 0,
	ENIP_EV_TOO_MANY_TRANSACTIONS,
	ENIP_EV_COUNT
};
const char *enip_event_name(int ev);
int enip_event_by_name(const char *name);

typedef struct EnipTx {
	AppTx base;
	uint8_t has[2];             /* per direction: a PDU was seen */
	EnipPdu pdu[2];             /* [APP_DIR_TOSERVER] request, [..TOCLIENT] response */
} EnipTx;

#endif
