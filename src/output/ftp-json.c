/* eve "ftp" and "ftp_data" records and the members of alerts on FTP and
 * ftp-data transactions, as Suricata 8 writes them (schema: eve-schema.json
 * "ftp", "ftp_data"). Both go out with the eve type "ftp", as Suricata's
 * one FTP logger writes both. */
#include "app-layer/ftp.h"
#include "app-layer/files.h"
#include "app-layer/app-layer.h"
#include "output/output-private.h"
#include "output/json-writer.h"

#include <stdlib.h>

static void ftp_write(JsonWriter *w, const FtpTx *t)
{
	if (t->cmd_name) {
		jw_str_opt(w, "command", t->cmd_name);
		if (t->cmd_data)
			jw_bytes(w, "command_data", t->cmd_data, t->cmd_data_len);
	}
	if (t->nreplies) {
		JwMark m;

		jw_array(w, "reply");
		for (unsigned i = 0; i < t->nreplies; i++)
			jw_bytes(w, NULL, t->replies[i].text, t->replies[i].len);
		jw_close(w);
		m = jw_mark(w);
		jw_array(w, "completion_code");
		for (unsigned i = 0; i < t->nreplies; i++)
			if (t->replies[i].code[0])
				jw_str_opt(w, NULL, t->replies[i].code);
		jw_close_nonempty(w, m);
	}
	if (t->dyn_port)
		jw_int(w, "dynamic_port", t->dyn_port);
	if (t->mode)
		jw_str(w, "mode", t->mode == FTP_MODE_ACTIVE ? "active" : "passive");
	jw_str(w, "reply_received", t->done ? "yes" : "no");
	jw_bool(w, "command_truncated", t->cmd_truncated);
	jw_bool(w, "reply_truncated", t->reply_truncated);
}

/* The header of the ftp records, and of ftp-data's fileinfo (to_client:
 * the flow's responder as source). */
static void header_write(JsonWriter *w, const char *type, const Packet *p, const Flow *f,
			 int to_client)
{
	eve_header_write_tx(w, type, p, f, to_client);
}

struct ftp_line {
	const Packet *p;
	const Flow *f;
	const void *tx;
};

static void build_ftp(JsonWriter *w, void *ctx)
{
	const struct ftp_line *l = ctx;

	header_write(w, "ftp", l->p, l->f, 0);
	jw_object(w, "ftp");
	ftp_write(w, l->tx);
	jw_close(w);
}

static void log_ftp_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	struct ftp_line l = { p, f, tx };
	const FtpTx *t = tx;

	if (!o || !tx)
		return;
	/* the parser's events as anomaly records (type applayer), as
	 * Suricata writes them (suricata-verify ftp-too-long-command) */
	for (int e = 0; e < FTP_EV_COUNT; e++)
		if (t->events & (1u << e))
			output_anomaly_applayer(o, p, f, "ftp", ftp_event_name(e), "proto_parser", 1,
						t->id);
	if (outputs_eve_enabled(o, "ftp"))
		eve_write_built(o, "ftp", build_ftp, &l);
}

static int alert_ftp_write(JsonWriter *w, const Flow *f, void *tx)
{
	(void)f;
	jw_object(w, "ftp");
	ftp_write(w, tx);
	jw_close(w);
	return 0;
}

const EveTxLogger eve_ftp_logger = {
	.log_tx = log_ftp_tx,
	.alert_write = alert_ftp_write,
};

static void ftpdata_write(JsonWriter *w, const FtpDataInfo *di)
{
	const char *cmd = ftpdata_cmd_name(di->cmd);

	jw_object(w, "ftp_data");
	jw_bytes(w, "filename", di->filename, di->filename_len);
	jw_str_opt(w, "command", cmd);
	jw_close(w);
}

/* A fileinfo record of the transfer (the file logger, file-log.c, adds
 * the fileinfo object): the ftp_data object and app_proto "ftp-data", as
 * Suricata 8 writes it. */
static int ftpdata_file_record_write(JsonWriter *w, const Outputs *o, const Packet *p,
				     const Flow *f, void *tx, int dir)
{
	const FtpDataInfo *di = ftpdata_tx_info(tx);

	(void)o;
	if (!di)
		return -1;
	header_write(w, "fileinfo", p, f, dir == APP_DIR_TOCLIENT);
	ftpdata_write(w, di);
	jw_ascii(w, "app_proto", "ftp-data", 8);
	return 0;
}

static void build_ftpdata(JsonWriter *w, void *ctx)
{
	const struct ftp_line *l = ctx;

	header_write(w, "ftp_data", l->p, l->f, 0);
	ftpdata_write(w, l->tx);
}

static void log_ftpdata_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	struct ftp_line l = { p, f, ftpdata_tx_info(tx) };

	if (o && l.tx && outputs_eve_enabled(o, "ftp"))
		eve_write_built(o, "ftp_data", build_ftpdata, &l);
}

static int alert_ftpdata_write(JsonWriter *w, const Flow *f, void *tx)
{
	const FtpDataInfo *di = ftpdata_tx_info(tx);
	FileContainer *fcs[2];

	(void)f;
	if (!di)
		return -1;
	ftpdata_write(w, di);
	fcs[0] = files_of_tx(ALPROTO_FTPDATA, tx, 0, 0);
	fcs[1] = files_of_tx(ALPROTO_FTPDATA, tx, 1, 0);
	output_files_write(w, fcs, 2);
	return 0;
}

const EveTxLogger eve_ftpdata_logger = {
	.log_tx = log_ftpdata_tx,
	.alert_write = alert_ftpdata_write,
	.file_record_write = ftpdata_file_record_write,
};
