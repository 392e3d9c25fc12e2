/* eve "ftp" and "ftp_data" records and the members of alerts on FTP and
 * ftp-data transactions, as Suricata 8 writes them (schema: eve-schema.json
 * "ftp", "ftp_data"). Both go out with the eve type "ftp", as Suricata's
 * one FTP logger writes both. */
#include "app-layer/ftp.h"
#include "app-layer/files.h"
#include "app-layer/app-layer.h"
#include "output/output-private.h"
#include "output/json-dump.h"

#include <stdlib.h>

static json_t *ftp_object(const FtpTx *t)
{
	json_t *o = json_object();

	if (t->cmd_name) {
		json_object_set_new(o, "command", json_string(t->cmd_name));
		if (t->cmd_data)
			json_object_set_new(o, "command_data", eve_json_bytes(t->cmd_data, t->cmd_data_len));
	}
	if (t->nreplies) {
		json_t *r = json_array(), *c = json_array();

		for (unsigned i = 0; i < t->nreplies; i++) {
			json_array_append_new(r, eve_json_bytes(t->replies[i].text, t->replies[i].len));
			if (t->replies[i].code[0])
				json_array_append_new(c, json_string(t->replies[i].code));
		}
		json_object_set_new(o, "reply", r);
		if (json_array_size(c))
			json_object_set_new(o, "completion_code", c);
		else
			json_decref(c);
	}
	if (t->dyn_port)
		json_object_set_new(o, "dynamic_port", json_integer(t->dyn_port));
	if (t->mode)
		json_object_set_new(o, "mode", json_string(t->mode == FTP_MODE_ACTIVE ? "active" : "passive"));
	json_object_set_new(o, "reply_received", json_string(t->done ? "yes" : "no"));
	json_object_set_new(o, "command_truncated", json_boolean(t->cmd_truncated));
	json_object_set_new(o, "reply_truncated", json_boolean(t->reply_truncated));
	return o;
}

static void log_ftp_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	const struct timeval *ts = p ? &p->ts : &f->last;
	const FtpTx *t = tx;
	json_t *rec;

	if (!o || !tx)
		return;
	/* the parser's events as anomaly records (type applayer), as
	 * Suricata writes them (suricata-verify ftp-too-long-command) */
	for (int e = 0; e < FTP_EV_COUNT; e++)
		if (t->events & (1u << e))
			output_anomaly_applayer(o, p, f, "ftp", ftp_event_name(e), "proto_parser", 1,
						t->id);
	if (!outputs_eve_enabled(o, "ftp"))
		return;
	rec = eve_header(ts, "ftp", NULL, f);
	if (!rec)
		return;
	if (p && p->pcap_cnt)
		json_object_set_new(rec, "pcap_cnt", json_integer((json_int_t)p->pcap_cnt));
	json_object_set_new(rec, "ftp", ftp_object(tx));
	eve_write(o, rec);
}

static json_t *alert_ftp_json(const Flow *f, void *tx)
{
	json_t *rec = json_object();

	(void)f;
	json_object_set_new(rec, "ftp", ftp_object(tx));
	return rec;
}

const EveTxLogger eve_ftp_logger = {
	.log_tx = log_ftp_tx,
	.alert_json = alert_ftp_json,
};

static json_t *ftpdata_object(const FtpDataInfo *di)
{
	json_t *o = json_object();
	const char *cmd = ftpdata_cmd_name(di->cmd);

	json_object_set_new(o, "filename", eve_json_bytes(di->filename, di->filename_len));
	if (cmd)
		json_object_set_new(o, "command", json_string(cmd));
	return o;
}

/* A fileinfo record of the transfer (the file logger, file-log.c, adds
 * the fileinfo object): the ftp_data object and app_proto "ftp-data", as
 * Suricata 8 writes it. */
static json_t *ftpdata_file_record(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	const FtpDataInfo *di = ftpdata_tx_info(tx);
	json_t *rec = di ? eve_header(p ? &p->ts : &f->last, "fileinfo", NULL, f) : NULL;

	(void)o;
	if (!rec)
		return NULL;
	if (p && p->pcap_cnt)
		json_object_set_new(rec, "pcap_cnt", json_integer((json_int_t)p->pcap_cnt));
	json_object_set_new(rec, "ftp_data", ftpdata_object(di));
	json_object_set_new(rec, "app_proto", json_string("ftp-data"));
	return rec;
}

static void log_ftpdata_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	const FtpDataInfo *di = ftpdata_tx_info(tx);
	const struct timeval *ts = p ? &p->ts : &f->last;
	json_t *rec;

	if (!o || !di)
		return;
	if (outputs_eve_enabled(o, "ftp") && (rec = eve_header(ts, "ftp_data", NULL, f))) {
		if (p && p->pcap_cnt)
			json_object_set_new(rec, "pcap_cnt",
					    json_integer((json_int_t)p->pcap_cnt));
		json_object_set_new(rec, "ftp_data", ftpdata_object(di));
		eve_write(o, rec);
	}
}

static json_t *alert_ftpdata_json(const Flow *f, void *tx)
{
	const FtpDataInfo *di = ftpdata_tx_info(tx);
	json_t *rec;

	(void)f;
	if (!di)
		return NULL;
	rec = json_object();
	json_object_set_new(rec, "ftp_data", ftpdata_object(di));
	{
		FileContainer *fcs[2] = { files_of_tx(ALPROTO_FTPDATA, tx, 0, 0),
					  files_of_tx(ALPROTO_FTPDATA, tx, 1, 0) };
		json_t *files = files_json(fcs, 2);

		if (files)
			json_object_set_new(rec, "files", files);
	}
	return rec;
}

const EveTxLogger eve_ftpdata_logger = {
	.log_tx = log_ftpdata_tx,
	.alert_json = alert_ftpdata_json,
	.file_record = ftpdata_file_record,
	.flow_scope = 1,
};
