/* eve "ssh" records and the ssh member of alerts (see ssh-json.h). */
#include "output/ssh-json.h"

#include "app-layer/app-layer.h"
#include "app-layer/ssh.h"
#include "output/output-private.h"
#include "output/json-writer.h"

static void side_write(JsonWriter *w, const SshSide *sd, int hassh)
{
	if (sd->proto_len)
		jw_bytes(w, "proto_version", sd->proto, sd->proto_len);
	if (sd->software_len)
		jw_bytes(w, "software_version", sd->software, sd->software_len);
	if (hassh && sd->hassh_str) {
		jw_object(w, "hassh");
		jw_str_opt(w, "hash", sd->hassh);
		jw_bytes(w, "string", sd->hassh_str, sd->hassh_len);
		jw_close(w);
	}
}

void ssh_json_write(JsonWriter *w, const SshState *s, int hassh)
{
	if (s->side[SSH_TOSERVER].proto_len) {
		jw_object(w, "client");
		side_write(w, &s->side[SSH_TOSERVER], hassh);
		jw_close(w);
	}
	if (s->side[SSH_TOCLIENT].proto_len) {
		jw_object(w, "server");
		side_write(w, &s->side[SSH_TOCLIENT], hassh);
		jw_close(w);
	}
}

struct ssh_obj {
	const SshState *s;
	int hassh;
};

static void build_ssh_obj(JsonWriter *w, void *ctx)
{
	const struct ssh_obj *c = ctx;

	ssh_json_write(w, c->s, c->hassh);
}

json_t *ssh_json_object(const SshState *s, int hassh)
{
	struct ssh_obj c = { s, hassh };

	return jw_build_tree(build_ssh_obj, &c);
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

struct ssh_line {
	const Packet *p;
	const Flow *f;
	const SshState *s;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct ssh_line *l = ctx;

	eve_header_write_tx(w, "ssh", l->p, l->f, 0);
	jw_object(w, "ssh");
	ssh_json_write(w, l->s, ssh_hassh_enabled());
	jw_close(w);
}

static void log_ssh_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	struct ssh_line l = { p, f, ssh_tx_state(tx) };

	if (o && l.s && o->cfg.eve_anomaly.applayer && o->eve_anomaly)
		log_ssh_events(o, p, f, tx);
	if (!o || !l.s || !outputs_eve_enabled(o, "ssh"))
		return;
	if (!l.s->side[0].proto_len && !l.s->side[1].proto_len)
		return;
	eve_write_built(o, "ssh", build_record, &l);
}

static int alert_ssh_write(JsonWriter *w, const Flow *f, void *tx)
{
	const SshState *s = ssh_tx_state(tx);

	(void)f;
	if (!s || (!s->side[0].proto_len && !s->side[1].proto_len))
		return -1;
	jw_object(w, "ssh");
	ssh_json_write(w, s, ssh_hassh_enabled());
	jw_close(w);
	return 0;
}

const EveTxLogger eve_ssh_logger = {
	.log_tx = log_ssh_tx,
	.alert_write = alert_ssh_write,
	.log_events = log_ssh_events,
};
