/* eve "tftp" records and the tftp member of alerts (see tftp-json.h). */
#include "output/tftp-json.h"

#include "app-layer/app-layer.h"
#include "output/output-private.h"
#include "output/json-writer.h"

void tftp_json_write(JsonWriter *w, const TftpReq *r)
{
	jw_str(w, "packet", tftp_packet_name(r->opcode));
	jw_bytes(w, "file", r->file, r->file_len);
	jw_bytes(w, "mode", r->mode, r->mode_len);
}

static void build_obj(JsonWriter *w, void *ctx)
{
	tftp_json_write(w, ctx);
}

json_t *tftp_json_object(const TftpReq *r)
{
	return jw_build_tree(build_obj, (void *)r);
}

struct tftp_line {
	const Packet *p;
	const Flow *f;
	const TftpTx *tx;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct tftp_line *l = ctx;

	eve_header_write_tx(w, "tftp", l->p, l->f, 0);
	jw_object(w, "tftp");
	tftp_json_write(w, &l->tx->r);
	jw_close(w);
}

static void log_tftp_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	struct tftp_line l = { p, f, tx };

	if (!o || !outputs_eve_enabled(o, "tftp"))
		return;
	eve_write_built(o, "tftp", build_record, &l);
}

static int alert_tftp_write(JsonWriter *w, const Flow *f, void *txp)
{
	const TftpTx *tx = txp;

	(void)f;
	if (!tx)
		return -1;
	jw_object(w, "tftp");
	tftp_json_write(w, &tx->r);
	jw_close(w);
	return 0;
}

const EveTxLogger eve_tftp_logger = {
	.log_tx = log_tftp_tx,
	.alert_write = alert_tftp_write,
	/* a flow to port 69 is one request: a packet alert on it (a
	 * pkt_data rule) carries the request, as Suricata 8's do */
};
