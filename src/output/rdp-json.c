/* eve "rdp" records and the rdp member of alerts (see rdp-json.h). */
#include "output/rdp-json.h"

#include "app-layer/app-layer.h"
#include "output/output-private.h"
#include "output/json-writer.h"

static const char *const item_names[] = {
	[RDP_INITIAL_REQUEST] = "initial_request",
	[RDP_INITIAL_RESPONSE] = "initial_response",
	[RDP_CONNECT_REQUEST] = "connect_request",
	[RDP_CONNECT_RESPONSE] = "connect_response",
	[RDP_TLS_HANDSHAKE] = "tls_handshake",
};

/* a flags word as an array of the names of its set bits (nothing when
 * none of the named ones is set) */
static void flags_write(JsonWriter *w, const char *key, unsigned flags,
			const char *const *names, unsigned n)
{
	JwMark m = jw_mark(w);

	jw_array(w, key);
	for (unsigned i = 0; i < n; i++)
		if (names[i] && (flags >> i & 1))
			jw_str(w, NULL, names[i]);
	jw_close_nonempty(w, m);
}

static const char *const req_flags[] = {
	"restricted_admin_mode_required", "redirected_authentication_mode_required", NULL,
	"correlation_info_present",
};

static const char *const rsp_flags[] = {
	"extended_client_data", "dynvc_gfx", NULL, "restricted_admin",
	"redirected_authentication",
};

static const char *const caps[] = {
	"support_errinfo_pdf", "want_32bpp_session", "support_statusinfo_pdu",
	"strong_asymmetric_keys", NULL, "valid_connection_type", "support_monitor_layout_pdu",
	"support_netchar_autodetect", "support_dynvc_gfx_protocol", "support_dynamic_time_zone",
	"support_heartbeat_pdu",
};

#define N(a) (unsigned)(sizeof(a) / sizeof((a)[0]))

static void client_write(JsonWriter *w, const RdpClientCore *c)
{
	char vbuf[16];
	unsigned depth = rdp_color_depth(c);
	const char *kb = rdp_keyboard_name(c->keyboard_type);

	jw_object(w, "client");
	jw_str(w, "version", rdp_version_name(c->version, vbuf, sizeof(vbuf)));
	jw_int(w, "desktop_width", c->width);
	jw_int(w, "desktop_height", c->height);
	if (depth)
		jw_int(w, "color_depth", depth);
	jw_str(w, "keyboard_layout", rdp_lcid_name(c->keyboard_layout));
	jw_str(w, "build", rdp_build_name(c->build));
	if (c->name[0])
		jw_str(w, "client_name", c->name);
	if (kb)
		jw_str(w, "keyboard_type", kb);
	if (c->function_keys)
		jw_int(w, "function_keys", c->function_keys);
	if (c->has_product_id)
		jw_int(w, "product_id", c->product_id);
	if (c->has_early_caps)
		flags_write(w, "capabilities", c->early_caps, caps, N(caps));
	if (c->has_dig_id && c->dig_id[0])
		jw_str(w, "id", c->dig_id);
	jw_close(w);
}

void rdp_json_write(JsonWriter *w, const RdpTx *tx)
{
	jw_int(w, "tx_id", (int64_t)tx->base.id);
	jw_str(w, "event_type", item_names[tx->item]);
	switch (tx->item) {
	case RDP_INITIAL_REQUEST:
		if (tx->cookie)
			jw_bytes(w, "cookie", tx->cookie, tx->cookie_len);
		if (tx->has_neg_req)
			flags_write(w, "flags", tx->req_flags, req_flags, N(req_flags));
		break;
	case RDP_INITIAL_RESPONSE:
		if (tx->neg_kind == 1) {
			const char *p = rdp_protocol_name(tx->rsp_value);

			flags_write(w, "server_supports", tx->rsp_flags, rsp_flags, N(rsp_flags));
			if (p)
				jw_str(w, "protocol", p);
		} else if (tx->neg_kind == 2) {
			const char *r = rdp_failure_name(tx->rsp_value);

			if (r) {
				jw_int(w, "error_code", tx->rsp_value);
				jw_str(w, "reason", r);
			}
		}
		break;
	case RDP_CONNECT_REQUEST:
		if (tx->has_core)
			client_write(w, &tx->core);
		if (tx->nchannels) {
			jw_array(w, "channels");
			for (uint32_t i = 0; i < tx->nchannels; i++)
				jw_bytes(w, NULL, tx->channels[i], strlen(tx->channels[i]));
			jw_close(w);
		}
		break;
	case RDP_TLS_HANDSHAKE:
		jw_array(w, "x509_serials");
		for (uint32_t i = 0; i < tx->nserials; i++)
			jw_str(w, NULL, tx->serials[i]);
		jw_close(w);
		break;
	}
}

static void build_obj(JsonWriter *w, void *ctx)
{
	rdp_json_write(w, ctx);
}

json_t *rdp_json_object(const RdpTx *tx)
{
	return jw_build_tree(build_obj, (void *)tx);
}

struct rdp_line {
	const Packet *p;
	const Flow *f;
	const RdpTx *tx;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct rdp_line *l = ctx;

	eve_header_write_tx(w, "rdp", l->p, l->f, 0);
	jw_object(w, "rdp");
	rdp_json_write(w, l->tx);
	jw_close(w);
}

static void log_rdp_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	struct rdp_line l = { p, f, tx };

	if (!o || !tx || !outputs_eve_enabled(o, "rdp"))
		return;
	eve_write_built(o, "rdp", build_record, &l);
}

static int alert_rdp_write(JsonWriter *w, const Flow *f, void *tx)
{
	(void)f;
	if (!tx)
		return -1;
	jw_object(w, "rdp");
	rdp_json_write(w, tx);
	jw_close(w);
	return 0;
}

const EveTxLogger eve_rdp_logger = {
	.log_tx = log_rdp_tx,
	.alert_write = alert_rdp_write,
};
