/* Modbus/TCP (MBAP header and PDU, TCP 502): the parser's view, for
 * detection (detect/modbus-kw.c) and eve (output/modbus-json.c).
 *
 * As in Suricata 8, a transaction is a request and the response carrying
 * its transaction id; a response no request waits for is a transaction of
 * its own (unsolicited_response). What is kept of a message: the MBAP
 * fields, the function code, and what the function says: a read's or
 * write's address and quantity, a single write's value, the data bytes,
 * an exception code, a diagnostic's sub-function, a MEI type. A message is
 * at most 260 bytes, copied into the transaction: nothing else is
 * allocated. */
#ifndef APP_LAYER_MODBUS_H
#define APP_LAYER_MODBUS_H

#include "app-layer/txlist.h"

#include <stdint.h>

#define MODBUS_MBAP_LEN 7
#define MODBUS_MAX_PDU 253           /* a 260-byte ADU less its header */

/* access types (Suricata's): a direction and a table */
#define MODBUS_ACC_READ      0x01
#define MODBUS_ACC_WRITE     0x02
#define MODBUS_ACC_DISCRETES 0x04
#define MODBUS_ACC_COILS     0x08
#define MODBUS_ACC_INPUT     0x10
#define MODBUS_ACC_HOLDING   0x20

/* function categories */
#define MODBUS_CAT_PUBLIC_ASSIGNED   0x01
#define MODBUS_CAT_PUBLIC_UNASSIGNED 0x02
#define MODBUS_CAT_USER_DEFINED      0x04
#define MODBUS_CAT_RESERVED          0x08

typedef struct ModbusMsg {
	uint16_t tid, pid, length;
	uint8_t unit;
	uint8_t function;           /* as sent: an exception's has 0x80 */
	uint8_t access;             /* MODBUS_ACC_* (the request's function's) */
	uint8_t category;           /* MODBUS_CAT_* */
	uint8_t has_read, has_write, has_write_value;
	uint16_t read_addr, read_qty;
	uint16_t write_addr, write_qty, write_value;
	uint8_t exception;          /* with function & 0x80 */
	uint8_t has_sub;
	uint16_t sub;               /* Diagnostics' sub-function */
	uint8_t has_mei;
	uint8_t mei;
	uint8_t errors;             /* MODBUS_ERR_*: what the decoder found wrong */
	uint16_t data_len;          /* the values of writes and read responses */
	uint16_t data_off;          /* where they start in pdu */
	uint16_t pdu_len;
	uint8_t pdu[MODBUS_MAX_PDU]; /* function code and data, as sent */
} ModbusMsg;

#define MODBUS_ERR_LENGTH    0x01
#define MODBUS_ERR_VALUE     0x02
#define MODBUS_ERR_FUNCTION  0x04
#define MODBUS_ERR_EXCEPTION 0x08
#define MODBUS_ERR_PROTOCOL  0x10

/* Decodes one ADU (MBAP header and PDU, len == 6 + its length field): 0,
 * or -1 when it is not one (too short for its header). resp: it went to
 * the client. Errors in the PDU are flagged in m->errors. */
int modbus_msg_decode(const uint8_t *p, uint32_t len, int resp, ModbusMsg *m);
/* The function's access type and category (for a request's code). */
uint8_t modbus_function_access(uint8_t fc);
uint8_t modbus_function_category(uint8_t fc);
/* Suricata's names: "RdHoldRegs", ... ; NULL when unknown */
const char *modbus_function_name(uint8_t fc);
const char *modbus_exception_name(uint8_t code);
/* The value written at address a (single writes, Write Multiple Registers
 * / Coils, Read/Write Multiple Registers): 1 found, 0 not written there. */
int modbus_write_value_at(const ModbusMsg *m, uint16_t a, uint16_t *v);

enum modbus_event {
	MODBUS_EV_INVALID_PROTOCOL_ID = 0,
	MODBUS_EV_UNSOLICITED_RESPONSE,
	MODBUS_EV_INVALID_LENGTH,
	MODBUS_EV_INVALID_UNIT_IDENTIFIER,
	MODBUS_EV_INVALID_FUNCTION_CODE,
	MODBUS_EV_INVALID_VALUE,
	MODBUS_EV_INVALID_EXCEPTION_CODE,
	MODBUS_EV_VALUE_MISMATCH,
	MODBUS_EV_FLOODED,
	MODBUS_EV_COUNT
};
const char *modbus_event_name(int ev);
int modbus_event_by_name(const char *name);

typedef struct ModbusTx {
	AppTx base;
	uint8_t has[2];             /* per direction: a message was seen */
	ModbusMsg msg[2];           /* [APP_DIR_TOSERVER] request, [..TOCLIENT] response */
} ModbusTx;

#endif
