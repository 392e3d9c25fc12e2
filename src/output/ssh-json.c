/* eve "ssh" records and the ssh member of alerts (see ssh-json.h). */
#include "output/ssh-json.h"

#include "app-layer/app-layer.h"
#include "app-layer/ssh.h"
#include "output/output-private.h"
#include "output/json-dump.h"

static json_t *side_json(const SshSide *sd, int hassh)
{
	json_t *o = json_object();

	if (sd->proto_len)
		json_object_set_new(o, "proto_version", eve_json_bytes(sd->proto, sd->proto_len));
	if (sd->software_len)
		json_object_set_new(o, "software_version",
				    eve_json_bytes(sd->software, sd->software_len));
	if (hassh && sd->hassh_str) {
		json_t *h = json_object();

		json_object_set_new(h, "hash", json_string(sd->hassh));
		json_object_set_new(h, "string", eve_json_bytes(sd->hassh_str, sd->hassh_len));
		json_object_set_new(o, "hassh", h);
	}
	return o;
}

json_t *ssh_json_object(const SshState *s, int hassh)
{
	json_t *o = json_object();

	if (s->side[SSH_TOSERVER].proto_len)
		json_object_set_new(o, "client", side_json(&s->side[SSH_TOSERVER], hassh));
	if (s->side[SSH_TOCLIENT].proto_len)
		json_object_set_new(o, "server", side_json(&s->side[SSH_TOCLIENT], hassh));
	return o;
}

/* One record per flow, once the key exchange is over or the flow ended,
 * when a banner was read (Suricata logs from banner_done on). */
/* The parser's events not written yet, each kind once per flow, with
 * Suricata 8's (Rust) lower-case names: on the packet that raised them,
 * the rest when the transaction logs. */
static void log_ssh_events(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	const SshState *s = ssh_tx_state(tx);
	uint32_t *done = ssh_tx_events_logged(tx);

	if (!s || !p)
		return;
	for (int e = 0; e < SSH_EV_COUNT && e < 32; e++) {
		if (!s->events[e] || (*done >> e & 1))
			continue;
		*done |= 1u << e;
		output_anomaly_parser_event(o, p, f, "ssh", ssh_event_name(e), 0,
					    app_layer_tx_log_id(f, tx));
	}
}

static void log_ssh_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	const SshState *s = ssh_tx_state(tx);
	const struct timeval *ts = p ? &p->ts : &f->last;
	json_t *rec;

	if (o && s && o->cfg.eve_anomaly.applayer && o->eve_anomaly)
		log_ssh_events(o, p, f, tx);
	if (!o || !s || !outputs_eve_enabled(o, "ssh"))
		return;
	if (!s->side[0].proto_len && !s->side[1].proto_len)
		return;
	rec = eve_header(ts, "ssh", NULL, f);
	if (!rec)
		return;
	if (p && p->pcap_cnt)
		json_object_set_new(rec, "pcap_cnt", json_integer((json_int_t)p->pcap_cnt));
	json_object_set_new(rec, "ssh", ssh_json_object(s, ssh_hassh_enabled()));
	eve_write(o, rec);
}

static json_t *alert_ssh_json(const Flow *f, void *tx)
{
	const SshState *s = ssh_tx_state(tx);
	json_t *rec;

	(void)f;
	if (!s || (!s->side[0].proto_len && !s->side[1].proto_len))
		return NULL;
	rec = json_object();
	json_object_set_new(rec, "ssh", ssh_json_object(s, ssh_hassh_enabled()));
	return rec;
}

const EveTxLogger eve_ssh_logger = {
	.log_tx = log_ssh_tx,
	.alert_json = alert_ssh_json,
	.log_events = log_ssh_events,
	.flow_scope = 1,
};
