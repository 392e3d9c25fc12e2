/* Modbus/TCP messages (see modbus.h): decoding, the checks behind the
 * events, and the names eve uses. Every read is bounded by the message's
 * own length. */
#include "app-layer/modbus.h"

#include <stddef.h>
#include <string.h>
#include <strings.h>

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* the names of Suricata's eve (its Modbus library's function codes) */
static const char *const fnames[] = {
	[1] = "RdCoils", [2] = "RdDiscreteInputs", [3] = "RdHoldRegs", [4] = "RdInputRegs",
	[5] = "WrSingleCoil", [6] = "WrSingleReg", [7] = "RdExcStatus", [8] = "Diagnostic",
	[9] = "Program484", [10] = "Poll484", [11] = "GetCommEventCtr",
	[12] = "GetCommEventLog", [13] = "ProgramController", [14] = "PollController",
	[15] = "WrMultCoils", [16] = "WrMultRegs", [17] = "ReportServerID",
	[18] = "Program884", [19] = "ResetCommLink", [20] = "RdFileRec", [21] = "WrFileRec",
	[22] = "MaskWrReg", [23] = "RdWrMultRegs", [24] = "RdFIFOQueue", [43] = "MEI",
};

const char *modbus_function_name(uint8_t fc)
{
	fc &= 0x7f;
	return fc < sizeof(fnames) / sizeof(fnames[0]) ? fnames[fc] : NULL;
}

static const char *const exc_names[] = {
	[1] = "IllegalFunction", [2] = "IllegalDataAddr", [3] = "IllegalDataValue",
	[4] = "ServerDeviceFail", [5] = "Ack", [6] = "ServerDeviceBusy", [7] = "NegAck",
	[8] = "MemParityErr", [10] = "GatewayPathUnavailable",
	[11] = "GatewayTargetFailToResp",
};

const char *modbus_exception_name(uint8_t code)
{
	return code < sizeof(exc_names) / sizeof(exc_names[0]) ? exc_names[code] : NULL;
}

uint8_t modbus_function_access(uint8_t fc)
{
	switch (fc) {
	case 1: return MODBUS_ACC_READ | MODBUS_ACC_COILS;
	case 2: return MODBUS_ACC_READ | MODBUS_ACC_DISCRETES;
	case 3: return MODBUS_ACC_READ | MODBUS_ACC_HOLDING;
	case 4: return MODBUS_ACC_READ | MODBUS_ACC_INPUT;
	case 5: case 15: return MODBUS_ACC_WRITE | MODBUS_ACC_COILS;
	case 6: case 16: case 22: return MODBUS_ACC_WRITE | MODBUS_ACC_HOLDING;
	case 23: return MODBUS_ACC_READ | MODBUS_ACC_WRITE | MODBUS_ACC_HOLDING;
	}
	return 0;
}

/* The specification's public assigned codes; its legacy and reserved
 * ones; the user-defined ranges 65-72 and 100-110; the rest of 1-127 is
 * public but unassigned. */
uint8_t modbus_function_category(uint8_t fc)
{
	if (fc == 0 || fc > 127)
		return 0;
	if ((fc >= 65 && fc <= 72) || (fc >= 100 && fc <= 110))
		return MODBUS_CAT_USER_DEFINED;
	switch (fc) {
	case 9: case 10: case 13: case 14: case 41: case 42: case 90: case 125: case 126:
	case 127:
		return MODBUS_CAT_RESERVED;
	}
	if (fc <= 8 || (fc >= 11 && fc <= 12) || (fc >= 15 && fc <= 24) || fc == 43)
		return fc == 18 || fc == 19 ? MODBUS_CAT_RESERVED : MODBUS_CAT_PUBLIC_ASSIGNED;
	return MODBUS_CAT_PUBLIC_UNASSIGNED;
}

static const char *const ev_names[MODBUS_EV_COUNT] = {
	[MODBUS_EV_INVALID_PROTOCOL_ID] = "invalid_protocol_id",
	[MODBUS_EV_UNSOLICITED_RESPONSE] = "unsolicited_response",
	[MODBUS_EV_INVALID_LENGTH] = "invalid_length",
	[MODBUS_EV_INVALID_UNIT_IDENTIFIER] = "invalid_unit_identifier",
	[MODBUS_EV_INVALID_FUNCTION_CODE] = "invalid_function_code",
	[MODBUS_EV_INVALID_VALUE] = "invalid_value",
	[MODBUS_EV_INVALID_EXCEPTION_CODE] = "invalid_exception_code",
	[MODBUS_EV_VALUE_MISMATCH] = "value_mismatch",
	[MODBUS_EV_FLOODED] = "flooded",
};

const char *modbus_event_name(int ev)
{
	return ev >= 0 && ev < MODBUS_EV_COUNT ? ev_names[ev] : NULL;
}

int modbus_event_by_name(const char *name)
{
	for (int i = 0; i < MODBUS_EV_COUNT; i++)
		if (strcasecmp(ev_names[i], name) == 0)
			return i;
	return -1;
}

/* ---------------- requests and responses ---------------- */

/* A quantity outside lo..hi is an invalid value. */
static void qty_check(ModbusMsg *m, uint16_t q, uint16_t hi)
{
	if (q < 1 || q > hi)
		m->errors |= MODBUS_ERR_VALUE;
}

/* the values after a byte count at d[off]: the count must be what is left */
static void counted_data(ModbusMsg *m, const uint8_t *d, uint32_t n, uint32_t off)
{
	if (off >= n) {
		m->errors |= MODBUS_ERR_LENGTH;
		return;
	}
	if (d[off] != n - off - 1)
		m->errors |= MODBUS_ERR_LENGTH;
	m->data_off = (uint16_t)(1 + off + 1);  /* pdu[0] is the function code */
	m->data_len = (uint16_t)(n - off - 1);
}

static void request(ModbusMsg *m, const uint8_t *d, uint32_t n)
{
	uint8_t fc = m->function;

	m->access = modbus_function_access(fc);
	m->category = modbus_function_category(fc);
	if (!m->category)
		m->errors |= MODBUS_ERR_FUNCTION;
	switch (fc) {
	case 1: case 2: case 3: case 4:
		if (n != 4) {
			m->errors |= MODBUS_ERR_LENGTH;
			return;
		}
		m->has_read = 1;
		m->read_addr = be16(d);
		m->read_qty = be16(d + 2);
		qty_check(m, m->read_qty, fc <= 2 ? 2000 : 125);
		return;
	case 5: case 6:
		if (n != 4) {
			m->errors |= MODBUS_ERR_LENGTH;
			return;
		}
		m->has_write = m->has_write_value = 1;
		m->write_addr = be16(d);
		m->write_qty = 1;
		m->write_value = be16(d + 2);
		if (fc == 5 && m->write_value != 0 && m->write_value != 0xff00)
			m->errors |= MODBUS_ERR_VALUE;
		return;
	case 15: case 16:
		if (n < 5) {
			m->errors |= MODBUS_ERR_LENGTH;
			return;
		}
		m->has_write = 1;
		m->write_addr = be16(d);
		m->write_qty = be16(d + 2);
		qty_check(m, m->write_qty, fc == 15 ? 1968 : 123);
		counted_data(m, d, n, 4);
		if (d[4] != (fc == 15 ? (m->write_qty + 7) / 8 : 2 * m->write_qty))
			m->errors |= MODBUS_ERR_VALUE;
		return;
	case 22:
		if (n != 6) {
			m->errors |= MODBUS_ERR_LENGTH;
			return;
		}
		m->has_write = 1;
		m->write_addr = be16(d);
		m->write_qty = 1;
		m->data_off = 3;
		m->data_len = 4;
		return;
	case 23:
		if (n < 9) {
			m->errors |= MODBUS_ERR_LENGTH;
			return;
		}
		m->has_read = m->has_write = 1;
		m->read_addr = be16(d);
		m->read_qty = be16(d + 2);
		m->write_addr = be16(d + 4);
		m->write_qty = be16(d + 6);
		qty_check(m, m->read_qty, 125);
		qty_check(m, m->write_qty, 121);
		counted_data(m, d, n, 8);
		if (d[8] != 2 * m->write_qty)
			m->errors |= MODBUS_ERR_VALUE;
		return;
	case 7: case 11: case 12: case 17:
		if (n)
			m->errors |= MODBUS_ERR_LENGTH;
		return;
	case 8:
		if (n < 2) {
			m->errors |= MODBUS_ERR_LENGTH;
			return;
		}
		m->has_sub = 1;
		m->sub = be16(d);
		m->data_off = 3;
		m->data_len = (uint16_t)(n - 2);
		return;
	case 43:
		if (n < 1) {
			m->errors |= MODBUS_ERR_LENGTH;
			return;
		}
		m->has_mei = 1;
		m->mei = d[0];
		m->data_off = 2;
		m->data_len = (uint16_t)(n - 1);
		return;
	}
	m->data_off = 1;
	m->data_len = (uint16_t)n;
}

static void response(ModbusMsg *m, const uint8_t *d, uint32_t n)
{
	uint8_t fc = m->function & 0x7f;

	m->access = modbus_function_access(fc);
	m->category = modbus_function_category(fc);
	if (!m->category)
		m->errors |= MODBUS_ERR_FUNCTION;
	if (m->function & 0x80) {
		if (n != 1) {
			m->errors |= MODBUS_ERR_LENGTH;
			return;
		}
		m->exception = d[0];
		if (!modbus_exception_name(d[0]))
			m->errors |= MODBUS_ERR_EXCEPTION;
		return;
	}
	switch (fc) {
	case 1: case 2: case 3: case 4: case 23: case 12: case 17:
		counted_data(m, d, n, 0);
		return;
	case 5: case 6: case 15: case 16:
		if (n != 4) {
			m->errors |= MODBUS_ERR_LENGTH;
			return;
		}
		m->has_write = 1;
		m->write_addr = be16(d);
		if (fc <= 6) {
			m->has_write_value = 1;
			m->write_value = be16(d + 2);
		} else {
			m->write_qty = be16(d + 2);
		}
		return;
	case 8:
		if (n < 2) {
			m->errors |= MODBUS_ERR_LENGTH;
			return;
		}
		m->has_sub = 1;
		m->sub = be16(d);
		m->data_off = 3;
		m->data_len = (uint16_t)(n - 2);
		return;
	case 43:
		if (n < 1) {
			m->errors |= MODBUS_ERR_LENGTH;
			return;
		}
		m->has_mei = 1;
		m->mei = d[0];
		m->data_off = 2;
		m->data_len = (uint16_t)(n - 1);
		return;
	}
	m->data_off = 1;
	m->data_len = (uint16_t)n;
}

int modbus_msg_decode(const uint8_t *p, uint32_t len, int resp, ModbusMsg *m)
{
	uint32_t n;

	memset(m, 0, offsetof(ModbusMsg, pdu));
	if (len < MODBUS_MBAP_LEN + 1)
		return -1;
	m->tid = be16(p);
	m->pid = be16(p + 2);
	m->length = be16(p + 4);
	m->unit = p[6];
	if ((uint32_t)m->length + 6 != len || m->length < 2 || m->length > MODBUS_MAX_PDU + 1)
		return -1;
	if (m->pid != 0)
		m->errors |= MODBUS_ERR_PROTOCOL;
	n = len - MODBUS_MBAP_LEN;
	memcpy(m->pdu, p + MODBUS_MBAP_LEN, n);
	m->pdu_len = (uint16_t)n;
	m->function = m->pdu[0];
	if (resp)
		response(m, m->pdu + 1, n - 1);
	else if (m->function & 0x80 || !m->function)
		m->errors |= MODBUS_ERR_FUNCTION;
	else
		request(m, m->pdu + 1, n - 1);
	return 0;
}

int modbus_write_value_at(const ModbusMsg *m, uint16_t a, uint16_t *v)
{
	uint32_t i;

	if (!m->has_write || a < m->write_addr || (uint32_t)a >= (uint32_t)m->write_addr +
	    (m->write_qty ? m->write_qty : 1))
		return 0;
	if (m->has_write_value) {
		*v = m->write_value;
		return 1;
	}
	i = (uint32_t)(a - m->write_addr);
	switch (m->function) {
	case 15: /* one bit a coil, the first in the low bit */
		if (i / 8 >= m->data_len)
			return 0;
		*v = (uint16_t)(m->pdu[m->data_off + i / 8] >> (i % 8) & 1);
		return 1;
	case 16:
	case 23:
		if (2 * i + 2 > m->data_len)
			return 0;
		*v = be16(m->pdu + m->data_off + 2 * i);
		return 1;
	}
	return 0;
}
