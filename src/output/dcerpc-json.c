/* eve "dcerpc" records, the dcerpc member of alerts, and the parser's
 * events as anomaly records (see dcerpc-json.h). */
#include "output/dcerpc-json.h"

#include "app-layer/dcerpc.h"
#include "output/output-private.h"
#include "output/json-dump.h"

#include <stdio.h>

static json_t *iface_json(const struct dcerpc_iface *f)
{
	json_t *o = json_object();
	char u[37], v[16];

	dcerpc_uuid_str(f->uuid, u);
	snprintf(v, sizeof(v), "%u.%u", f->ver, f->ver_minor);
	json_object_set_new(o, "uuid", json_string(u));
	json_object_set_new(o, "version", json_string(v));
	json_object_set_new(o, "ack_result", json_integer(f->ack_result));
	return o;
}

json_t *dcerpc_json_object(const struct dcerpc_tx *tx, int udp)
{
	json_t *o = json_object();
	char v[8];

	if (tx->req_done && tx->req_type != DCERPC_PTYPE_NONE) {
		json_object_set_new(o, "request", json_string(dcerpc_ptype_name(tx->req_type)));
		if (tx->req_type == DCERPC_REQUEST) {
			json_t *r = json_object();

			json_object_set_new(r, "opnum", json_integer(tx->opnum));
			json_object_set_new(r, "frag_cnt", json_integer(tx->frag_cnt[0]));
			json_object_set_new(r, "stub_data_size", json_integer(tx->stub[0].len));
			json_object_set_new(o, "req", r);
			if (tx->has_iface && !udp) {
				json_t *a = json_array();

				json_array_append_new(a, iface_json(&tx->iface));
				json_object_set_new(o, "interfaces", a);
			}
		} else if (tx->nifaces) {
			json_t *a = json_array();

			for (uint16_t i = 0; i < tx->nifaces; i++)
				json_array_append_new(a, iface_json(&tx->ifaces[i]));
			json_object_set_new(o, "interfaces", a);
		}
	} else {
		json_object_set_new(o, "request", json_string("REQUEST_LOST"));
	}
	if (tx->resp_done && tx->resp_type != DCERPC_PTYPE_NONE) {
		json_object_set_new(o, "response", json_string(dcerpc_ptype_name(tx->resp_type)));
		if (tx->resp_type == DCERPC_RESPONSE) {
			json_t *r = json_object();

			json_object_set_new(r, "frag_cnt", json_integer(tx->frag_cnt[1]));
			json_object_set_new(r, "stub_data_size", json_integer(tx->stub[1].len));
			json_object_set_new(o, "res", r);
		}
	} else {
		json_object_set_new(o, "response", json_string("UNREPLIED"));
	}
	if (udp) {
		char u[37];

		dcerpc_uuid_str(tx->activity, u);
		json_object_set_new(o, "activityuuid", json_string(u));
		json_object_set_new(o, "seqnum", json_integer(tx->seqnum));
	} else {
		json_object_set_new(o, "call_id", json_integer(tx->call_id));
	}
	snprintf(v, sizeof(v), "%u.%u", tx->rpc_vers, tx->rpc_vers_minor);
	json_object_set_new(o, "rpc_version", json_string(v));
	return o;
}

json_t *dcerpc_smb_json_object(const struct dcerpc_tx *tx)
{
	json_t *o = json_object();
	int req = tx->req_type != DCERPC_PTYPE_NONE, res = tx->resp_type != DCERPC_PTYPE_NONE;

	json_object_set_new(o, "request", json_string(req ? dcerpc_ptype_name(tx->req_type)
							  : "REQUEST_LOST"));
	json_object_set_new(o, "response", json_string(res ? dcerpc_ptype_name(tx->resp_type)
							   : "UNREPLIED"));
	if (req && tx->req_type == DCERPC_REQUEST) {
		json_t *r = json_object();

		json_object_set_new(o, "opnum", json_integer(tx->opnum));
		json_object_set_new(r, "frag_cnt", json_integer(tx->frag_cnt[0]));
		json_object_set_new(r, "stub_data_size", json_integer(tx->stub[0].len));
		json_object_set_new(o, "req", r);
		if (tx->has_iface) {
			/* Suricata 8.0.5 on: the interface the request's context
			 * is bound to (suricata-verify dcerpc-smb-ctxid) */
			json_t *a = json_array();

			json_array_append_new(a, iface_json(&tx->iface));
			json_object_set_new(o, "interfaces", a);
		}
	} else if (req && tx->nifaces) {
		json_t *a = json_array();

		for (uint16_t i = 0; i < tx->nifaces; i++)
			json_array_append_new(a, iface_json(&tx->ifaces[i]));
		json_object_set_new(o, "interfaces", a);
	}
	if (res && tx->resp_type == DCERPC_RESPONSE) {
		json_t *r = json_object();

		json_object_set_new(r, "frag_cnt", json_integer(tx->frag_cnt[1]));
		json_object_set_new(r, "stub_data_size", json_integer(tx->stub[1].len));
		json_object_set_new(o, "res", r);
	}
	json_object_set_new(o, "call_id", json_integer(tx->call_id));
	return o;
}

static void log_dcerpc_tx(Outputs *o, const Packet *p, const Flow *f, void *txp)
{
	const struct dcerpc_tx *tx = dcerpc_flow_tx(txp);
	const struct timeval *ts = p ? &p->ts : &f->last;
	json_t *rec;

	if (!o || !tx)
		return;
	for (int e = 0; e < DCERPC_EV_COUNT; e++)
		if (tx->events & (1u << e))
			output_anomaly_applayer(o, p, f, "dcerpc", dcerpc_event_name(e), "proto_parser",
						1, tx->id);
	if (!outputs_eve_enabled(o, "dcerpc"))
		return;
	rec = eve_header(ts, "dcerpc", NULL, f);
	if (!rec)
		return;
	if (p && p->pcap_cnt)
		json_object_set_new(rec, "pcap_cnt", json_integer((json_int_t)p->pcap_cnt));
	json_object_set_new(rec, "dcerpc", dcerpc_json_object(tx, f->proto == 17));
	eve_write(o, rec);
}

static json_t *alert_dcerpc_json(const Flow *f, void *txp)
{
	const struct dcerpc_tx *tx = dcerpc_flow_tx(txp);
	json_t *rec;

	if (!tx)
		return NULL;
	rec = json_object();
	json_object_set_new(rec, "dcerpc", dcerpc_json_object(tx, f->proto == 17));
	return rec;
}

const EveTxLogger eve_dcerpc_logger = {
	.log_tx = log_dcerpc_tx,
	.alert_json = alert_dcerpc_json,
};
