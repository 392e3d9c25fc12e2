/* EtherNet/IP PDUs and their CIP messages (see enip.h): decoding and the
 * names eve and the keywords use. Every read is bounded by the PDU's own
 * length; nothing is allocated. */
#include "app-layer/enip.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct Named {
	uint32_t v;
	const char *name;
} Named;

static const char *by_num(const Named *t, size_t n, uint32_t v)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].v == v)
			return t[i].name;
	return NULL;
}

static int64_t by_name(const Named *t, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcasecmp(t[i].name, s) == 0)
			return t[i].v;
	return -1;
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const Named cmds[] = {
	{ ENIP_CMD_NOP, "nop" },
	{ ENIP_CMD_LIST_SERVICES, "list_services" },
	{ ENIP_CMD_LIST_IDENTITY, "list_identity" },
	{ ENIP_CMD_LIST_INTERFACES, "list_interfaces" },
	{ ENIP_CMD_REGISTER_SESSION, "register_session" },
	{ ENIP_CMD_UNREGISTER_SESSION, "unregister_session" },
	{ ENIP_CMD_SEND_RR_DATA, "send_rr_data" },
	{ ENIP_CMD_SEND_UNIT_DATA, "send_unit_data" },
	{ ENIP_CMD_INDICATE_STATUS, "indicate_status" },
	{ ENIP_CMD_CANCEL, "cancel" },
};

/* the encapsulation statuses of the ODVA specification */
static const Named statuses[] = {
	{ 0x0000, "success" },
	{ 0x0001, "invalid_cmd" },
	{ 0x0002, "no_resources" },
	{ 0x0003, "incorrect_data" },
	{ 0x0064, "invalid_session" },
	{ 0x0065, "invalid_length" },
	{ 0x0069, "unsupported_prot_rev" },
	{ 0x006a, "encap_header_error" },
};

static const Named services[] = {
	{ 0x01, "Get Attributes All" },
	{ 0x02, "Set Attributes All" },
	{ 0x03, "Get Attribute List" },
	{ 0x04, "Set Attribute List" },
	{ 0x05, "Reset" },
	{ 0x06, "Start" },
	{ 0x07, "Stop" },
	{ 0x08, "Create" },
	{ 0x09, "Delete" },
	{ 0x0a, "Multiple Service Packet" },
	{ 0x0d, "Apply Attributes" },
	{ 0x0e, "Get Attribute Single" },
	{ 0x10, "Set Attribute Single" },
	{ 0x11, "Find Next Object Instance" },
	{ 0x14, "Error Response" },
	{ 0x15, "Restore" },
	{ 0x16, "Save" },
	{ 0x17, "No Operation" },
	{ 0x18, "Get Member" },
	{ 0x19, "Set Member" },
	{ 0x1a, "Insert Member" },
	{ 0x1b, "Remove Member" },
	{ 0x1c, "Group Sync" },
	{ 0x4c, "Read Tag" },
	{ 0x4d, "Write Tag" },
	{ 0x4e, "Forward Close" },
	{ 0x52, "Unconnected Send" },
	{ 0x54, "Forward Open" },
	{ 0x5b, "Large Forward Open" },
};

static const Named classes[] = {
	{ 0x01, "Identity" },
	{ 0x02, "Message Router" },
	{ 0x03, "DeviceNet" },
	{ 0x04, "Assembly" },
	{ 0x05, "Connection" },
	{ 0x06, "Connection Manager" },
	{ 0x07, "Register" },
	{ 0x08, "Discrete Input Point" },
	{ 0x09, "Discrete Output Point" },
	{ 0x0a, "Analog Input Point" },
	{ 0x0b, "Analog Output Point" },
	{ 0x0e, "Presence Sensing" },
	{ 0x0f, "Parameter" },
	{ 0x10, "Parameter Group" },
	{ 0x12, "Group" },
	{ 0x1d, "Discrete Input Group" },
	{ 0x1e, "Discrete Output Group" },
	{ 0x1f, "Discrete Group" },
	{ 0x20, "Analog Input Group" },
	{ 0x21, "Analog Output Group" },
	{ 0x22, "Analog Group" },
	{ 0x23, "Position Sensor" },
	{ 0x24, "Position Controller Supervisor" },
	{ 0x25, "Position Controller" },
	{ 0x26, "Block Sequencer" },
	{ 0x27, "Command Block" },
	{ 0x28, "Motor Data" },
	{ 0x29, "Control Supervisor" },
	{ 0x2a, "AC/DC Drive" },
	{ 0x2b, "Acknowledge Handler" },
	{ 0x2c, "Overload" },
	{ 0x2d, "Softstart" },
	{ 0x2e, "Selection" },
	{ 0x30, "S-Device Supervisor" },
	{ 0x37, "File" },
	{ 0x43, "Time Sync" },
	{ 0x47, "Device Level Ring" },
	{ 0x48, "QoS" },
	{ 0x4e, "Base Energy" },
	{ 0xf4, "Port" },
	{ 0xf5, "TCP/IP Interface" },
	{ 0xf6, "Ethernet Link" },
};

static const Named cip_statuses[] = {
	{ 0x00, "Success" },
	{ 0x01, "Connection failure" },
	{ 0x02, "Resource unavailable" },
	{ 0x03, "Invalid parameter value" },
	{ 0x04, "Path segment error" },
	{ 0x05, "Path destination unknown" },
	{ 0x06, "Partial transfer" },
	{ 0x07, "Connection lost" },
	{ 0x08, "Service not supported" },
	{ 0x09, "Invalid attribute value" },
	{ 0x0a, "Attribute list error" },
	{ 0x0b, "Already in requested mode/state" },
	{ 0x0c, "Object state conflict" },
	{ 0x0d, "Object already exists" },
	{ 0x0e, "Attribute not settable" },
	{ 0x0f, "Privilege violation" },
	{ 0x10, "Device state conflict" },
	{ 0x11, "Reply data too large" },
	{ 0x12, "Fragmentation of a primitive value" },
	{ 0x13, "Not enough data" },
	{ 0x14, "Attribute not supported" },
	{ 0x15, "Too much data" },
	{ 0x16, "Object does not exist" },
	{ 0x17, "Service fragmentation sequence not in progress" },
	{ 0x18, "No stored attribute data" },
	{ 0x19, "Store operation failure" },
	{ 0x1a, "Routing failure, request packet too large" },
	{ 0x1b, "Routing failure, response packet too large" },
	{ 0x1c, "Missing attribute list entry data" },
	{ 0x1d, "Invalid attribute value list" },
	{ 0x1e, "Embedded service error" },
	{ 0x1f, "Vendor specific error" },
	{ 0x20, "Invalid parameter" },
	{ 0x26, "Path size invalid" },
};

/* a few vendors of the ODVA list; the rest are written as numbers */
static const Named vendors[] = {
	{ 1, "Rockwell Automation/Allen-Bradley" },
	{ 5, "Rockwell Automation/Reliance Electric" },
	{ 40, "WAGO Corporation" },
	{ 44, "Parker Hannifin Corporation" },
	{ 47, "OMRON Corporation" },
	{ 243, "Schneider Automation" },
	{ 283, "Hilscher GmbH" },
};

static const Named device_types[] = {
	{ 0x00, "Generic Device (deprecated)" },
	{ 0x02, "AC Drive" },
	{ 0x03, "Motor Overload" },
	{ 0x04, "Limit Switch" },
	{ 0x05, "Inductive Proximity Switch" },
	{ 0x06, "Photoelectric Sensor" },
	{ 0x07, "General Purpose Discrete I/O" },
	{ 0x09, "Resolver" },
	{ 0x0c, "Communications Adapter" },
	{ 0x0e, "Programmable Logic Controller" },
	{ 0x10, "Position Controller" },
	{ 0x13, "DC Drive" },
	{ 0x15, "Contactor" },
	{ 0x16, "Motor Starter" },
	{ 0x17, "Soft Start" },
	{ 0x18, "Human-Machine Interface" },
	{ 0x1a, "Mass Flow Controller" },
	{ 0x1b, "Pneumatic Valve" },
	{ 0x1c, "Vacuum Pressure Gauge" },
	{ 0x1d, "Process Control Value" },
	{ 0x1e, "Residual Gas Analyzer" },
	{ 0x1f, "DC Power Generator" },
	{ 0x20, "RF Power Generator" },
	{ 0x21, "Turbomolecular Vacuum Pump" },
	{ 0x22, "Encoder" },
	{ 0x23, "Safety Discrete I/O Device" },
	{ 0x24, "Fluid Flow Controller" },
	{ 0x25, "CIP Motion Drive" },
	{ 0x26, "CompoNet Repeater" },
	{ 0x2b, "Generic Device (keyable)" },
	{ 0x2c, "Managed Ethernet Switch" },
};

static const char *const seg_names[] = { "class", "instance", "member", "connection_point",
					 "attribute" };

const char *enip_cmd_name(uint32_t cmd) { return by_num(cmds, N(cmds), cmd); }
int64_t enip_cmd_by_name(const char *s) { return by_name(cmds, N(cmds), s); }
int enip_cmd_known(uint32_t cmd) { return by_num(cmds, N(cmds), cmd) != NULL; }
const char *enip_status_name(uint32_t st) { return by_num(statuses, N(statuses), st); }
int64_t enip_status_by_name(const char *s) { return by_name(statuses, N(statuses), s); }
const char *cip_service_name(unsigned svc) { return by_num(services, N(services), svc & 0x7f); }
const char *cip_class_name(uint32_t cls) { return by_num(classes, N(classes), cls); }
const char *cip_status_name(unsigned st) { return by_num(cip_statuses, N(cip_statuses), st); }
const char *enip_vendor_name(unsigned v) { return by_num(vendors, N(vendors), v); }
const char *enip_device_type_name(unsigned t)
{
	return by_num(device_types, N(device_types), t);
}
const char *enip_seg_name(unsigned t) { return t < N(seg_names) ? seg_names[t] : NULL; }

static const char *const ev_names[ENIP_EV_COUNT] = {
	[ENIP_EV_INVALID_PDU] = "invalid_pdu",
	[ENIP_EV_TOO_MANY_TRANSACTIONS] = "too_many_transactions",
};

const char *enip_event_name(int ev)
{
	return ev >= 0 && ev < ENIP_EV_COUNT ? ev_names[ev] : NULL;
}

int enip_event_by_name(const char *name)
{
	for (int i = 0; i < ENIP_EV_COUNT; i++)
		if (strcasecmp(ev_names[i], name) == 0)
			return i;
	return -1;
}

/* ---------------- CIP ---------------- */

/* One decode: its output, and where frames are reported (offsets from the
 * PDU's first byte). */
typedef struct Dec {
	EnipPdu *out;
	const uint8_t *base;
	enip_frame_fn frame;
	void *arg;
} Dec;

static void frame(const Dec *d, const uint8_t *p, uint32_t len, unsigned type)
{
	if (d->frame)
		d->frame(d->arg, (uint32_t)(p - d->base), len, type);
}

#define CIP_MSP 0x0a
#define CIP_GET_ATTR_LIST 0x03
#define CIP_SET_ATTR_LIST 0x04

/* The logical segments of a request path p[0, n): class, instance,
 * attribute... (8, 16 and 32-bit forms); other segment kinds end the walk,
 * as their layouts differ and nothing here needs them. */
static void cip_path(const uint8_t *p, uint32_t n, EnipCip *c)
{
	uint32_t off = 0;

	while (off < n && c->nseg < ENIP_MAX_SEG) {
		uint8_t t = p[off];
		uint32_t v;

		if ((t & 0xe0) != 0x20)
			return;
		switch (t & 3) {
		case 0:
			if (off + 2 > n)
				return;
			v = p[off + 1];
			off += 2;
			break;
		case 1: /* a pad byte, then the value */
			if (off + 4 > n)
				return;
			v = enip_le16(p + off + 2);
			off += 4;
			break;
		case 2:
			if (off + 6 > n)
				return;
			v = enip_le32(p + off + 2);
			off += 6;
			break;
		default:
			return;
		}
		c->seg[c->nseg].type = (uint8_t)((t >> 2) & 7);
		c->seg[c->nseg].value = v;
		if (c->seg[c->nseg].type <= ENIP_SEG_ATTRIBUTE)
			c->nseg++;
	}
}

static int cip_decode(const uint8_t *p, uint32_t n, int resp, int embedded, const Dec *d);

/* A Multiple Service Packet's body: a count, offsets from the count, and
 * the services between them. */
static int cip_multiple(const uint8_t *p, uint32_t n, int resp, const Dec *d)
{
	uint32_t count;

	if (n < 2)
		return -1;
	count = enip_le16(p);
	if (2 + 2 * count > n)
		return -1;
	for (uint32_t i = 0; i < count; i++) {
		uint32_t off = enip_le16(p + 2 + 2 * i);
		uint32_t end = i + 1 < count ? enip_le16(p + 2 + 2 * (i + 1)) : n;

		if (off < 2 + 2 * count || off > end || end > n)
			return -1;
		if (cip_decode(p + off, end - off, resp, 1, d) < 0)
			return -1;
	}
	return 0;
}

/* One CIP message p[0, n): a request (service, path size in words, path,
 * data) or a response (service | 0x80, reserved, general status,
 * extended status size in words, those words, data). */
static int cip_decode(const uint8_t *p, uint32_t n, int resp, int embedded, const Dec *d)
{
	EnipPdu *out = d->out;
	EnipCip *c;
	uint32_t hl;

	if (n < 2)
		return -1;
	frame(d, p, n, ENIP_FRAME_CIP);
	if (out->ncip >= ENIP_MAX_CIP) {
		out->cip_cut = 1;
		return 0;
	}
	c = &out->cip[out->ncip++];
	memset(c, 0, sizeof(*c));
	c->service = p[0];
	c->embedded = (uint8_t)embedded;
	if (p[0] & 0x80) {
		if (n < 4)
			return -1;
		c->status = p[2];
		hl = 4 + 2u * p[3];
		if (hl > n)
			return -1;
		if (p[3]) {
			c->has_ext = 1;
			c->ext_status = enip_le16(p + 4);
		}
		/* embedded responses follow a success or an embedded error */
		if (!embedded && (p[0] & 0x7f) == CIP_MSP && (c->status == 0 || c->status == 0x1e))
			return cip_multiple(p + hl, n - hl, 1, d);
		return 0;
	}
	(void)resp;
	hl = 2 + 2u * p[1];
	if (hl > n)
		return -1;
	cip_path(p + 2, hl - 2, c);
	if (!embedded && p[0] == CIP_MSP)
		return cip_multiple(p + hl, n - hl, 0, d);
	if ((p[0] == CIP_GET_ATTR_LIST || p[0] == CIP_SET_ATTR_LIST) && n >= hl + 2) {
		uint32_t cnt = enip_le16(p + hl);

		for (uint32_t i = 0; i < cnt && c->nattr < ENIP_MAX_ATTRS; i++) {
			uint32_t o = hl + 2 + 2 * i;

			if (o + 2 > n)
				break;
			/* Set Attribute List interleaves values: only Get's
			 * list is ids alone */
			if (p[0] == CIP_SET_ATTR_LIST && i)
				break;
			c->attr[c->nattr++] = enip_le16(p + o);
		}
	}
	return 0;
}

/* ---------------- the encapsulation ---------------- */

#define CPF_IDENTITY 0x000c
#define CPF_CONNECTED_DATA 0x00b1
#define CPF_UNCONNECTED_DATA 0x00b2
#define CPF_LIST_SERVICES 0x0100

static int identity_item(const uint8_t *p, uint32_t n, EnipPdu *out)
{
	EnipIdentity *id = &out->id;
	uint32_t nl;

	/* version, a 16-byte socket address, then the identity */
	if (n < 2 + 16 + 15)
		return -1;
	id->protocol_version = enip_le16(p);
	p += 18;
	n -= 18;
	id->vendor_id = enip_le16(p);
	id->device_type = enip_le16(p + 2);
	id->product_code = enip_le16(p + 4);
	id->rev_major = p[6];
	id->rev_minor = p[7];
	id->status = enip_le16(p + 8);
	id->serial = enip_le32(p + 10);
	nl = p[14];
	if (15 + nl > n)
		return -1;
	memcpy(id->name, p + 15, nl);
	id->name_len = (uint8_t)nl;
	id->name[nl] = 0;
	if (15 + nl < n)
		id->state = p[15 + nl];
	out->has_identity = 1;
	return 0;
}

static int services_item(const uint8_t *p, uint32_t n, EnipPdu *out)
{
	uint32_t l = 0;

	if (n < 4)
		return -1;
	out->svc_version = enip_le16(p);
	out->capabilities = enip_le16(p + 2);
	/* a NUL-padded 16-byte name */
	while (l < 16 && 4 + l < n && p[4 + l])
		l++;
	memcpy(out->service_name, p + 4, l);
	out->service_name[l] = 0;
	out->service_name_len = (uint8_t)l;
	out->has_service = 1;
	return 0;
}

/* A common packet format: an item count, then (type, length, data) items. */
static int cpf(const uint8_t *p, uint32_t n, int resp, const Dec *d)
{
	uint32_t count, off = 2;
	int r = 0;

	if (n < 2)
		return -1;
	count = enip_le16(p);
	for (uint32_t i = 0; i < count; i++) {
		uint32_t type, len;

		if (off + 4 > n)
			return -1;
		type = enip_le16(p + off);
		len = enip_le16(p + off + 2);
		off += 4;
		if (off + len > n)
			return -1;
		frame(d, p + off - 4, len + 4, ENIP_FRAME_ITEM);
		switch (type) {
		case CPF_UNCONNECTED_DATA:
			r |= cip_decode(p + off, len, resp, 0, d);
			break;
		case CPF_CONNECTED_DATA: /* a sequence count first */
			if (len >= 2)
				r |= cip_decode(p + off + 2, len - 2, resp, 0, d);
			break;
		case CPF_IDENTITY:
			r |= identity_item(p + off, len, d->out);
			break;
		case CPF_LIST_SERVICES:
			r |= services_item(p + off, len, d->out);
			break;
		}
		off += len;
	}
	return r ? -1 : 0;
}

int enip_pdu_decode_frames(const uint8_t *p, uint32_t len, int resp, EnipPdu *out,
			   enip_frame_fn fn, void *arg)
{
	Dec dec = { out, p, fn, arg };
	const uint8_t *d;
	uint32_t n;

	memset(out, 0, offsetof(EnipPdu, cip));
	if (len < ENIP_HDR_LEN)
		return -1;
	out->command = enip_le16(p);
	out->length = enip_le16(p + 2);
	out->session = enip_le32(p + 4);
	out->status = enip_le32(p + 8);
	out->options = enip_le32(p + 20);
	d = p + ENIP_HDR_LEN;
	n = len - ENIP_HDR_LEN;
	if (out->length > n)
		return -1;
	n = out->length;
	frame(&dec, p, ENIP_HDR_LEN + n, ENIP_FRAME_PDU);
	frame(&dec, p, ENIP_HDR_LEN, ENIP_FRAME_HDR);
	if (n)
		frame(&dec, d, n, ENIP_FRAME_DATA);
	switch (out->command) {
	case ENIP_CMD_REGISTER_SESSION:
		if (n < 4)
			return -1;
		out->reg_version = enip_le16(d);
		out->reg_options = enip_le16(d + 2);
		out->has_register = 1;
		return 0;
	case ENIP_CMD_LIST_IDENTITY:
	case ENIP_CMD_LIST_SERVICES:
	case ENIP_CMD_LIST_INTERFACES:
		/* requests have no data; a failed response may have none */
		if (!n)
			return 0;
		return cpf(d, n, resp, &dec);
	case ENIP_CMD_SEND_RR_DATA:
	case ENIP_CMD_SEND_UNIT_DATA:
		/* interface handle, timeout, then the items */
		if (!n && out->status)
			return 0;
		if (n < 6)
			return -1;
		return cpf(d + 6, n - 6, resp, &dec);
	}
	return 0;
}

int enip_pdu_decode(const uint8_t *p, uint32_t len, int resp, EnipPdu *out)
{
	return enip_pdu_decode_frames(p, len, resp, out, NULL, NULL);
}
