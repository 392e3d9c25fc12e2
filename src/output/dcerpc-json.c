/* eve "dcerpc" records, the dcerpc member of alerts, and the parser's
 * events as anomaly records (see dcerpc-json.h). */
#include "output/dcerpc-json.h"

#include "app-layer/dcerpc.h"
#include "output/output-private.h"
#include "output/json-writer.h"

#include <stdio.h>

/* smb: the dcerpc object inside an smb record, where Suricata 8 writes
 * ack_result and ack_reason of an interface a bind_ack answered (and
 * neither of one it did not); a dcerpc record has ack_result alone. */
static void iface_write(JsonWriter *w, const struct dcerpc_iface *f, int smb)
{
	char u[37], v[16];

	dcerpc_uuid_str(f->uuid, u);
	snprintf(v, sizeof(v), "%u.%u", f->ver, f->ver_minor);
	jw_object(w, NULL);
	jw_str_opt(w, "uuid", u);
	jw_str_opt(w, "version", v);
	if (!smb) {
		jw_int(w, "ack_result", f->ack_result);
	} else if (f->acked) {
		jw_int(w, "ack_result", f->ack_result);
		jw_int(w, "ack_reason", f->ack_reason);
	}
	jw_close(w);
}

static void ifaces_write(JsonWriter *w, const struct dcerpc_iface *v, uint16_t n, int smb)
{
	jw_array(w, "interfaces");
	for (uint16_t i = 0; i < n; i++)
		iface_write(w, &v[i], smb);
	jw_close(w);
}

void dcerpc_json_write(JsonWriter *w, const struct dcerpc_tx *tx, int udp)
{
	char v[8];

	if (tx->req_done && tx->req_type != DCERPC_PTYPE_NONE) {
		jw_str_opt(w, "request", dcerpc_ptype_name(tx->req_type));
		if (tx->req_type == DCERPC_REQUEST) {
			jw_object(w, "req");
			jw_int(w, "opnum", tx->opnum);
			jw_int(w, "frag_cnt", tx->frag_cnt[0]);
			jw_int(w, "stub_data_size", tx->stub[0].len);
			jw_close(w);
			if (tx->has_iface && !udp)
				ifaces_write(w, &tx->iface, 1, 0);
		} else if (tx->nifaces) {
			ifaces_write(w, tx->ifaces, tx->nifaces, 0);
		}
	} else {
		jw_ascii(w, "request", "REQUEST_LOST", 12);
	}
	if (tx->resp_done && tx->resp_type != DCERPC_PTYPE_NONE) {
		jw_str_opt(w, "response", dcerpc_ptype_name(tx->resp_type));
		if (tx->resp_type == DCERPC_RESPONSE) {
			jw_object(w, "res");
			jw_int(w, "frag_cnt", tx->frag_cnt[1]);
			jw_int(w, "stub_data_size", tx->stub[1].len);
			jw_close(w);
		}
	} else {
		jw_ascii(w, "response", "UNREPLIED", 9);
	}
	if (udp) {
		char u[37];

		dcerpc_uuid_str(tx->activity, u);
		jw_str_opt(w, "activityuuid", u);
		jw_int(w, "seqnum", tx->seqnum);
	} else {
		jw_int(w, "call_id", tx->call_id);
	}
	snprintf(v, sizeof(v), "%u.%u", tx->rpc_vers, tx->rpc_vers_minor);
	jw_str_opt(w, "rpc_version", v);
}

struct dcerpc_obj {
	const struct dcerpc_tx *tx;
	int udp;
};

static void build_dcerpc_obj(JsonWriter *w, void *ctx)
{
	const struct dcerpc_obj *c = ctx;

	dcerpc_json_write(w, c->tx, c->udp);
}

json_t *dcerpc_json_object(const struct dcerpc_tx *tx, int udp)
{
	struct dcerpc_obj c = { tx, udp };

	return jw_build_tree(build_dcerpc_obj, &c);
}

void dcerpc_smb_json_write(JsonWriter *w, const struct dcerpc_tx *tx)
{
	int req = tx->req_type != DCERPC_PTYPE_NONE, res = tx->resp_type != DCERPC_PTYPE_NONE;

	jw_str_opt(w, "request", req ? dcerpc_ptype_name(tx->req_type) : "REQUEST_LOST");
	jw_str_opt(w, "response", res ? dcerpc_ptype_name(tx->resp_type) : "UNREPLIED");
	if (req && tx->req_type == DCERPC_REQUEST) {
		jw_int(w, "opnum", tx->opnum);
		jw_object(w, "req");
		jw_int(w, "frag_cnt", tx->frag_cnt[0]);
		jw_int(w, "stub_data_size", tx->stub[0].len);
		jw_close(w);
		/* Suricata 8.0.5 on: the interface the request's context is
		 * bound to (suricata-verify dcerpc-smb-ctxid) */
		if (tx->has_iface)
			ifaces_write(w, &tx->iface, 1, 1);
	} else if (req && tx->nifaces) {
		ifaces_write(w, tx->ifaces, tx->nifaces, 1);
	}
	if (res && tx->resp_type == DCERPC_RESPONSE) {
		jw_object(w, "res");
		jw_int(w, "frag_cnt", tx->frag_cnt[1]);
		jw_int(w, "stub_data_size", tx->stub[1].len);
		jw_close(w);
	}
	jw_int(w, "call_id", tx->call_id);
}

struct dcerpc_line {
	const Packet *p;
	const Flow *f;
	const struct dcerpc_tx *tx;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct dcerpc_line *l = ctx;

	eve_header_write_tx(w, "dcerpc", l->p, l->f, 0);
	jw_object(w, "dcerpc");
	dcerpc_json_write(w, l->tx, l->f->proto == 17);
	jw_close(w);
}

static void log_dcerpc_tx(Outputs *o, const Packet *p, const Flow *f, void *txp)
{
	struct dcerpc_line l = { p, f, dcerpc_flow_tx(txp) };

	if (!o || !l.tx)
		return;
	for (int e = 0; e < DCERPC_EV_COUNT; e++)
		if (l.tx->events & (1u << e))
			output_anomaly_applayer(o, p, f, "dcerpc", dcerpc_event_name(e), "proto_parser",
						1, l.tx->id);
	if (outputs_eve_enabled(o, "dcerpc"))
		eve_write_built(o, "dcerpc", build_record, &l);
}

static int alert_dcerpc_write(JsonWriter *w, const Flow *f, void *txp)
{
	const struct dcerpc_tx *tx = dcerpc_flow_tx(txp);

	if (!tx)
		return -1;
	jw_object(w, "dcerpc");
	dcerpc_json_write(w, tx, f->proto == 17);
	jw_close(w);
	return 0;
}

const EveTxLogger eve_dcerpc_logger = {
	.log_tx = log_dcerpc_tx,
	.alert_write = alert_dcerpc_write,
};
