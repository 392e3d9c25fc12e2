/* DNP3 (IEEE 1815) over TCP: the parser's view, for detection
 * (detect/dnp3-kw.c) and eve (output/dnp3-json.c).
 *
 * As in Suricata 8, every application message is its own transaction: a
 * request (master to outstation) or a response, solicited or unsolicited.
 * A message is the transport-reassembled application fragment: the link
 * frames' user data with their CRCs and transport headers removed. What is
 * kept of it: the first frame's link header (control, source, destination),
 * the application header (control, function code, the response's internal
 * indications), the fragment's bytes (dnp3.data) and the object headers
 * decoded from them, each with its points as offsets into those bytes (the
 * eve record decodes a point's fields from them, dnp3-objs.c). */
#ifndef APP_LAYER_DNP3_H
#define APP_LAYER_DNP3_H

#include "app-layer/txlist.h"

#include <stddef.h>
#include <stdint.h>

/* Link layer: 0x05 0x64, length (control, addresses and user data, no
 * CRCs: at least 5), control, destination, source, CRC; then the user
 * data in blocks of 16 bytes, each followed by its CRC. */
#define DNP3_LINK_HDR_LEN 10
#define DNP3_BLOCK 16
#define DNP3_MAX_FRAME 292          /* 10 + 250 data + 16 CRCs */
/* A fragment's bound, as Suricata's: 63 transport segments of 255 */
#define DNP3_MAX_REASSEMBLY (63u * 255u)
/* Per message (Suricata 8's limits on what a fragment may declare) */
#define DNP3_MAX_OBJECTS 2048
#define DNP3_MAX_POINTS 16384

/* Link control byte */
#define DNP3_LC_DIR 0x80
#define DNP3_LC_PRI 0x40
#define DNP3_LC_FCB 0x20
#define DNP3_LC_FCV 0x10
/* Application control byte */
#define DNP3_AC_FIR 0x80
#define DNP3_AC_FIN 0x40
#define DNP3_AC_CON 0x20
#define DNP3_AC_UNS 0x10

#define DNP3_FC_READ 1
#define DNP3_FC_RESPONSE 129
#define DNP3_FC_UNSOLICITED 130

/* The CRC of the link header and of each data block (DNP3's 0x3D65
 * polynomial, reflected, complemented). */
uint16_t dnp3_crc(const uint8_t *p, size_t n);
/* 1 when the n bytes at p are followed by their CRC (p[n], p[n+1]) */
int dnp3_crc_ok(const uint8_t *p, size_t n);
/* The whole frame's length from its header's length byte */
static inline uint32_t dnp3_frame_len(uint8_t link_len)
{
	uint32_t data = link_len > 5 ? link_len - 5u : 0;

	return DNP3_LINK_HDR_LEN + data + 2 * ((data + DNP3_BLOCK - 1) / DNP3_BLOCK);
}

typedef struct Dnp3Point {
	uint32_t prefix;            /* the index or size prefix; 0 without */
	uint32_t index;
	uint32_t off;               /* its bytes in the message's buffer */
	uint16_t size;              /* bytes (a packed point: 0, see bit) */
	uint8_t bit;                /* a packed point: its first bit at off */
} Dnp3Point;

typedef struct Dnp3Object {
	uint8_t group, variation, qualifier, prefix_code, range_code;
	uint32_t start, stop, count;
	uint32_t first_point, npoints; /* in the message's points[] */
} Dnp3Object;

typedef struct Dnp3Msg {
	uint8_t link_ctrl;
	uint8_t link_len;           /* the first frame's length byte */
	uint16_t link_crc;          /* and its header's CRC (as on the wire) */
	uint8_t th;                 /* the transport header of its last segment */
	uint16_t src, dst;
	uint8_t has_app;            /* the application header was there */
	uint8_t app_ctrl, func;
	uint16_t iin;               /* responses: IIN1 << 8 | IIN2 */
	uint8_t complete;           /* its object headers were read to the end */
	uint8_t *buf;               /* application bytes (header included) */
	uint32_t len, cap;
	Dnp3Object *objs;
	uint32_t nobjs;
	Dnp3Point *points;
	uint32_t npoints;
} Dnp3Msg;

typedef struct Dnp3Tx {
	AppTx base;
	uint8_t is_request;
	Dnp3Msg m;
} Dnp3Tx;

enum dnp3_event {
	DNP3_EV_FLOODED = 0,
	DNP3_EV_LEN_TOO_SMALL,
	DNP3_EV_BAD_LINK_CRC,
	DNP3_EV_BAD_TRANSPORT_CRC,
	DNP3_EV_UNKNOWN_OBJECT,
	DNP3_EV_TOO_MANY_POINTS,
	DNP3_EV_TOO_MANY_OBJECTS,
	DNP3_EV_TOO_LONG_REASSEMBLY,
	DNP3_EV_COUNT
};
const char *dnp3_event_name(int ev);
int dnp3_event_by_name(const char *name);

/* Decodes the application header and object headers of a complete
 * message (m->buf), is_request its direction: fills objs/points; returns
 * the events it met (bits of enum dnp3_event). */
uint32_t dnp3_decode_app(Dnp3Msg *m, int is_request);
void dnp3_msg_free(Dnp3Msg *m);

/* Names: function codes ("read", "unsolicited_response"; NULL unknown),
 * internal indications (bit of the 16-bit IIN; NULL unknown). */
const char *dnp3_func_name(unsigned fc);
int dnp3_func_by_name(const char *name);
const char *dnp3_iin_name(unsigned bit);
int dnp3_iin_by_name(const char *name);

/* ---- object definitions (dnp3-objs.c) ---- */

enum dnp3_obj_kind { DNP3_OBJ_FIXED, DNP3_OBJ_PACKED, DNP3_OBJ_FREE };
enum dnp3_field_type {
	DNP3_F_END = 0,
	DNP3_F_BITS,                /* arg bits of the current octet, low first */
	DNP3_F_U8,
	DNP3_F_U16,
	DNP3_F_U32,
	DNP3_F_U48,                 /* DNP3 time: ms since 1970 */
	DNP3_F_I16,
	DNP3_F_I32,
	DNP3_F_FLT32,
	DNP3_F_FLT64,
	DNP3_F_STR_LEN,             /* a string, its length in field arg */
	DNP3_F_REST,                /* the object's remaining bytes */
};

typedef struct Dnp3Field {
	const char *name;
	uint8_t type, arg;
} Dnp3Field;

typedef struct Dnp3ObjDef {
	uint8_t group, variation, kind;
	uint8_t size;               /* FIXED: bytes; PACKED: bits */
	const Dnp3Field *fields;
} Dnp3ObjDef;

/* The definition of group/variation, NULL when not decoded */
const Dnp3ObjDef *dnp3_obj_def(uint8_t group, uint8_t variation);

/* A decoded field value, for eve */
typedef struct Dnp3Value {
	uint8_t kind;               /* 0 unsigned, 1 signed, 2 double, 3 bytes */
	uint64_t u;
	int64_t i;
	double d;
	const uint8_t *p;
	uint32_t n;
} Dnp3Value;

/* Walks the fields of a point: cb(name, value) for each one present. */
void dnp3_point_fields(const Dnp3Msg *m, const Dnp3Object *o, const Dnp3Point *pt,
		       void (*cb)(void *arg, const char *name, const Dnp3Value *v), void *arg);

#endif
