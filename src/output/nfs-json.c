/* eve "nfs" records and the nfs/rpc members of alerts (see nfs-json.h). */
#include "output/nfs-json.h"

#include "app-layer/app-layer.h"
#include "output/output-private.h"
#include "output/json-writer.h"

#include <stdio.h>
#include <zlib.h>

void nfs_rpc_json_write(JsonWriter *w, const NfsTx *tx)
{
	uint32_t xid = tx->has_call ? tx->call.xid : tx->reply.xid;

	jw_int(w, "xid", xid);
	if (tx->has_reply)
		jw_str(w, "status", tx->reply.reply_stat == 0 ? "ACCEPTED" : "DENIED");
	if (tx->has_call) {
		jw_str(w, "auth_type", nfs_auth_name(tx->call.auth));
		if (tx->call.has_creds) {
			jw_object(w, "creds");
			jw_bytes(w, "machine_name", tx->call.machine, strlen(tx->call.machine));
			jw_int(w, "uid", tx->call.uid);
			jw_int(w, "gid", tx->call.gid);
			jw_close(w);
		}
	}
}

void nfs_json_write(JsonWriter *w, const NfsTx *tx)
{
	const NfsCall *c = &tx->call;
	char h[16];

	if (tx->has_call) {
		const char *pn = nfs_proc_name(c->version, c->procedure);

		jw_int(w, "version", c->version);
		if (pn) {
			jw_str(w, "procedure", pn);
		} else {
			snprintf(h, sizeof(h), "%u", c->procedure);
			jw_str(w, "procedure", h);
		}
		jw_bytes(w, "filename", c->has_name ? c->name : "", c->has_name ? c->name_len : 0);
		if (c->fh_len) {
			snprintf(h, sizeof(h), "%lx", crc32(0L, c->fh, c->fh_len));
			jw_str(w, "hhash", h);
		}
	}
	jw_int(w, "id", (int64_t)tx->base.id + 1);
	jw_bool(w, "file_tx", tx->file_tx);
	jw_str(w, "type", tx->has_reply ? "response" : "request");
	if (tx->has_reply && tx->reply.has_status) {
		const char *s = nfs_status_name(c->version, tx->reply.nfs_status);

		if (s) {
			jw_str(w, "status", s);
		} else {
			snprintf(h, sizeof(h), "%u", tx->reply.nfs_status);
			jw_str(w, "status", h);
		}
	}
	if (tx->file_tx) {
		/* the file's chunks: first, whether it began at offset 0; last,
		 * whether it was closed */
		jw_object(w, tx->file_dir == APP_DIR_TOCLIENT ? "read" : "write");
		jw_bool(w, "first", (tx->file_dir == APP_DIR_TOCLIENT ? c->r_offset : c->w_offset) == 0);
		jw_bool(w, "last", tx->file == NULL);
		jw_int(w, "last_xid", tx->last_xid);
		jw_int(w, "chunks", tx->chunks);
		jw_close(w);
	}
	if (tx->has_call && c->is_rename) {
		jw_object(w, "rename");
		jw_bytes(w, "from", c->name, c->name_len);
		jw_bytes(w, "to", c->to, c->to_len);
		jw_close(w);
	}
}

static void build_obj(JsonWriter *w, void *ctx)
{
	jw_object(w, "rpc");
	nfs_rpc_json_write(w, ctx);
	jw_close(w);
	jw_object(w, "nfs");
	nfs_json_write(w, ctx);
	jw_close(w);
}

json_t *nfs_json_object(const NfsTx *tx)
{
	return jw_build_tree(build_obj, (void *)tx);
}

/* A fileinfo record of a file transaction (file-log.c adds the fileinfo
 * object): the rpc and nfs objects, app_proto. */
static int nfs_file_record_write(JsonWriter *w, const Outputs *o, const Packet *p,
				 const Flow *f, void *tx, int dir)
{
	(void)o;
	eve_header_write_tx(w, "fileinfo", p, f, dir == APP_DIR_TOCLIENT);
	build_obj(w, tx);
	jw_ascii(w, "app_proto", "nfs", 3);
	return 0;
}

static void log_nfs_events(Outputs *o, const Packet *p, const Flow *f, void *txp)
{
	AppTx *t = txp;

	if (!p)
		return;
	for (int e = 0; e < NFS_EV_COUNT; e++) {
		if (!(t->events >> e & 1) || (t->events_logged >> e & 1))
			continue;
		t->events_logged |= 1u << e;
		output_anomaly_parser_event(o, p, f, "nfs", nfs_event_name(e), 0,
					    app_layer_tx_log_id(f, t));
	}
}

struct nfs_line {
	const Packet *p;
	const Flow *f;
	const NfsTx *tx;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct nfs_line *l = ctx;

	/* logged once the reply came: the reply's direction; a WRITE file
	 * transaction, the file's (to the server) */
	eve_header_write_tx(w, "nfs", l->p, l->f, l->tx->has_reply && !l->tx->file_tx);
	build_obj(w, (void *)l->tx);
}

static void log_nfs_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	struct nfs_line l = { p, f, tx };

	if (o && o->cfg.eve_anomaly.applayer && o->eve_anomaly)
		log_nfs_events(o, p, f, tx);
	if (!o || (!l.tx->has_call && !l.tx->has_reply) || !outputs_eve_enabled(o, "nfs"))
		return;
	eve_write_built(o, "nfs", build_record, &l);
}

static int alert_nfs_write(JsonWriter *w, const Flow *f, void *txp)
{
	const NfsTx *tx = txp;

	(void)f;
	if (!tx || (!tx->has_call && !tx->has_reply))
		return -1;
	build_obj(w, (void *)tx);
	return 0;
}

const EveTxLogger eve_nfs_logger = {
	.log_tx = log_nfs_tx,
	.alert_write = alert_nfs_write,
	.file_record_write = nfs_file_record_write,
	.log_events = log_nfs_events,
};
