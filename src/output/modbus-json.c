/* eve "modbus" records and the modbus member of alerts (see
 * modbus-json.h). */
#include "output/modbus-json.h"

#include "app-layer/app-layer.h"
#include "output/output-private.h"
#include "output/json-writer.h"

#include <stdio.h>
#include <string.h>

/* flags as "A | B", "NONE" without any */
static void write_flags(JsonWriter *w, const char *key, unsigned v, const char *const *names,
			unsigned n)
{
	char buf[96];
	size_t o = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < n; i++) {
		if (!(v >> i & 1))
			continue;
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s", o ? " | " : "", names[i]);
		if (o >= sizeof(buf))
			break;
	}
	jw_str(w, key, o ? buf : "NONE");
}

static const char *const acc_names[] = { "READ", "WRITE", "DISCRETES", "COILS", "INPUT",
					 "HOLDING" };
static const char *const cat_names[] = { "PUBLIC_ASSIGNED", "PUBLIC_UNASSIGNED",
					 "USER_DEFINED", "RESERVED" };
static const char *const err_names[] = { "DATA_LENGTH", "DATA_VALUE", "FUNC_CODE",
					 "EXC_CODE", "PROTO_ID" };

static void hex(JsonWriter *w, const char *key, const uint8_t *p, uint32_t n)
{
	char buf[2 * MODBUS_MAX_PDU + 1];
	static const char digits[] = "0123456789abcdef";

	for (uint32_t i = 0; i < n; i++) {
		buf[2 * i] = digits[p[i] >> 4];
		buf[2 * i + 1] = digits[p[i] & 15];
	}
	jw_strn(w, key, buf, 2 * n);
}

static void write_msg(JsonWriter *w, const ModbusMsg *m, int resp)
{
	const char *fn = modbus_function_name(m->function);
	char num[16];

	jw_int(w, "transaction_id", m->tid);
	jw_int(w, "protocol_id", m->pid);
	jw_int(w, "unit_id", m->unit);
	jw_int(w, "function_raw", m->function);
	if (!fn) {
		snprintf(num, sizeof(num), "Unknown(%u)", m->function & 0x7f);
		fn = num;
	}
	jw_str(w, "function_code", fn);
	write_flags(w, "access_type", m->access, acc_names, 6);
	write_flags(w, "category", m->category, cat_names, 4);
	write_flags(w, "error_flags", m->errors, err_names, 5);
	if (m->function & 0x80) {
		const char *e = modbus_exception_name(m->exception);

		jw_object(w, "exception");
		jw_int(w, "raw", m->exception);
		if (!e) {
			snprintf(num, sizeof(num), "Unknown(%u)", m->exception);
			e = num;
		}
		jw_str(w, "code", e);
		jw_close(w);
		return;
	}
	if (m->has_sub) {
		jw_object(w, "diagnostic");
		jw_int(w, "raw", m->sub);
		snprintf(num, sizeof(num), "%u", m->sub);
		jw_str(w, "code", num);
		hex(w, "data", m->pdu + m->data_off, m->data_len);
		jw_close(w);
		return;
	}
	if (m->has_mei && !resp) {
		jw_object(w, "mei");
		jw_int(w, "raw", m->mei);
		snprintf(num, sizeof(num), "%u", m->mei);
		jw_str(w, "code", num);
		hex(w, "data", m->pdu + m->data_off, m->data_len);
		jw_close(w);
		return;
	}
	if (resp && m->access & MODBUS_ACC_READ && m->data_off) {
		jw_object(w, "read");
		hex(w, "data", m->pdu + m->data_off, m->data_len);
		jw_close(w);
		return;
	}
	if (m->has_read) {
		jw_object(w, "read");
		jw_int(w, "address", m->read_addr);
		jw_int(w, "quantity", m->read_qty);
		jw_close(w);
	}
	if (m->has_write) {
		jw_object(w, "write");
		jw_int(w, "address", m->write_addr);
		jw_int(w, "data", m->has_write_value ? m->write_value : m->write_qty);
		jw_close(w);
		if (!m->has_write_value && m->data_len)
			hex(w, "data", m->pdu + m->data_off, m->data_len);
		return;
	}
	if (!m->has_read && m->data_off && m->data_len)
		hex(w, "data", m->pdu + m->data_off, m->data_len);
}

void modbus_json_write(JsonWriter *w, const ModbusTx *tx)
{
	jw_int(w, "id", tx->base.id);
	if (tx->has[APP_DIR_TOSERVER]) {
		jw_object(w, "request");
		write_msg(w, &tx->msg[APP_DIR_TOSERVER], 0);
		jw_close(w);
	}
	if (tx->has[APP_DIR_TOCLIENT]) {
		jw_object(w, "response");
		write_msg(w, &tx->msg[APP_DIR_TOCLIENT], 1);
		jw_close(w);
	}
}

static void build_obj(JsonWriter *w, void *ctx)
{
	modbus_json_write(w, ctx);
}

json_t *modbus_json_object(const ModbusTx *tx)
{
	return jw_build_tree(build_obj, (void *)tx);
}

static void log_modbus_events(Outputs *o, const Packet *p, const Flow *f, void *txp)
{
	AppTx *t = txp;

	if (!p)
		return;
	for (int e = 0; e < MODBUS_EV_COUNT; e++) {
		if (!(t->events >> e & 1) || (t->events_logged >> e & 1))
			continue;
		t->events_logged |= 1u << e;
		output_anomaly_parser_event(o, p, f, "modbus", modbus_event_name(e), 0,
					    app_layer_tx_log_id(f, t));
	}
}

struct modbus_line {
	const Packet *p;
	const Flow *f;
	const ModbusTx *tx;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct modbus_line *l = ctx;

	eve_header_write_tx(w, "modbus", l->p, l->f, 0);
	jw_object(w, "modbus");
	modbus_json_write(w, l->tx);
	jw_close(w);
}

static void log_modbus_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	struct modbus_line l = { p, f, tx };

	if (o && o->cfg.eve_anomaly.applayer && o->eve_anomaly)
		log_modbus_events(o, p, f, tx);
	if (!o || !outputs_eve_enabled(o, "modbus"))
		return;
	/* a transaction with neither side (an event's own) has nothing to show */
	if (!l.tx->has[0] && !l.tx->has[1])
		return;
	eve_write_built(o, "modbus", build_record, &l);
}

static int alert_modbus_write(JsonWriter *w, const Flow *f, void *txp)
{
	const ModbusTx *tx = txp;

	(void)f;
	if (!tx || (!tx->has[0] && !tx->has[1]))
		return -1;
	jw_object(w, "modbus");
	modbus_json_write(w, tx);
	jw_close(w);
	return 0;
}

const EveTxLogger eve_modbus_logger = {
	.log_tx = log_modbus_tx,
	.alert_write = alert_modbus_write,
	.log_events = log_modbus_events,
};
