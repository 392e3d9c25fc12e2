/* ftp-data's entry in the application-protocol registry. Never detected
 * by content: a flow is ftp-data when an FTP control connection expected
 * it (ftp-proto.c adds the expectation, the app layer matches it when the
 * flow brings its first bytes and hands the expectation's FtpDataInfo to
 * expect_attach). The data itself is not parsed: its bytes are the
 * transfer's size and one file (app-layer/files.h), named by the
 * command's argument, on the side of the flow that carried them (the
 * client's for a passive RETR is the server's side; an active RETR's data
 * goes toserver, as Suricata's file_data directions have it). One
 * transaction per flow, complete when both sides closed; the file is
 * closed when its side closed, truncated at a gap or when the flow ended
 * first. On when FTP is. */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/ftp.h"
#include "app-layer/files.h"

#include <stdlib.h>
#include <string.h>

int ftp_data_enabled_cfg(void);  /* ftp-proto.c */

typedef struct FtpDataTx {
	FtpDataInfo *info;          /* from the expectation; NULL: none */
	void (*info_free)(void *);
	unsigned flags;
	void *detect;
	uint8_t closed[2];
	FileContainer files[2];     /* the transfer, on the side it came */
	File *file;                 /* the open one */
	int file_dir;               /* its side; -1: none yet */
	uint8_t store_all;          /* filestore tx / flow scope */
	uint8_t counted;            /* in app_layer.tx.ftp-data */
} FtpDataTx;

static AppTxCounters ctr;

static void ftpdata_register_counters(void)
{
	app_tx_counters_register(&ctr, "ftp-data");
}

/* Bytes of the transfer kept for file.data (its start: what rules read). */
#define FTPDATA_KEEP (1u << 20)

static int ftpdata_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return ftp_data_enabled_cfg();
}

static void *ftpdata_state_new(AppLayerThread *at, Flow *f)
{
	FtpDataTx *t;

	(void)at;
	(void)f;
	t = calloc(1, sizeof(*t));
	if (t)
		t->file_dir = -1;
	return t;
}

static void ftpdata_state_free(void *state)
{
	FtpDataTx *t = state;

	if (!t)
		return;
	if (t->detect)
		app_layer_detect_state_free(t->detect);
	files_container_free(&t->files[0]);
	files_container_free(&t->files[1]);
	if (t->info && t->info_free)
		t->info_free(t->info);
	free(t);
}

static void ftpdata_attach(void *state, void *data, void (*data_free)(void *))
{
	FtpDataTx *t = state;

	if (t->info && t->info_free)
		t->info_free(t->info);
	t->info = data;
	t->info_free = data_free;
}

static int ftpdata_parse(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
			 uint32_t len, int flags)
{
	FtpDataTx *t = state;

	(void)f;
	if (!t || dir < 0 || dir > 1)
		return -1;
	if (!t->counted) {
		/* Suricata counts a transaction when the parser's count grows:
		 * ftp-data's one exists from the state's first data on */
		t->counted = 1;
		app_tx_count(at, &ctr, APP_CTR_TX, 1);
	}
	if (t->info && !(flags & APP_GAP))
		t->info->size += len;
	if (t->info && len && t->file_dir < 0) {
		/* the first bytes open the file, on their side */
		t->file_dir = dir;
		t->file = files_open(&t->files[dir], (const uint8_t *)t->info->filename,
				     t->info->filename_len, 0, t->store_all ? FILE_OPEN_STORE : 0);
		file_keep_data(t->file, FTPDATA_KEEP);
	}
	if (t->file && dir == t->file_dir) {
		if (flags & APP_GAP)
			file_gap(t->file, len);
		else if (data && len)
			file_append(t->file, data, len);
		if (flags & APP_EOF) {
			file_close(t->file, file_has_gaps(t->file) ? FILE_CLOSE_TRUNCATED :
								      FILE_CLOSE_OK);
			t->file = NULL;
		}
	}
	if (flags & APP_EOF)
		t->closed[dir] = 1;
	return 0;
}

FileContainer *ftpdata_files_of_tx(void *tx, int dir, int final)
{
	FtpDataTx *t = tx;

	if (!t || dir < 0 || dir > 1)
		return NULL;
	/* the flow ended before the side closed: the transfer was cut */
	if (final && t->file) {
		file_close(t->file, FILE_CLOSE_TRUNCATED);
		t->file = NULL;
	}
	return &t->files[dir];
}

void ftpdata_files_store(const Flow *f, void *tx, unsigned dirs, int flow_scope, uint32_t sid)
{
	FtpDataTx *t = tx;

	(void)f;
	(void)flow_scope;   /* one transaction per flow: the tx is the flow */
	if (!t)
		return;
	t->store_all = 1;
	for (int d = 0; d < 2; d++)
		if (dirs & (1u << d))
			for (File *fl = t->files[d].head; fl; fl = (File *)file_next(fl))
				file_mark_store(fl, sid);
}

const FtpDataInfo *ftpdata_tx_info(const void *tx)
{
	return tx ? ((const FtpDataTx *)tx)->info : NULL;
}

const char *ftpdata_cmd_name(uint8_t cmd)
{
	return cmd == FTP_CMD_STOR ? "STOR" : cmd == FTP_CMD_RETR ? "RETR" : NULL;
}

static uint64_t ftpdata_tx_count(const void *state)
{
	return state ? 1 : 0;
}

static void *ftpdata_tx_get(const void *state, uint64_t id)
{
	return id == 0 ? (void *)state : NULL;
}

static uint64_t ftpdata_tx_id(const void *tx)
{
	(void)tx;
	return 0;
}

static int ftpdata_tx_progress(const void *tx, int dir)
{
	const FtpDataTx *t = tx;

	(void)dir;
	return t->closed[0] && t->closed[1] ? 1 : 0;
}

static unsigned ftpdata_tx_flags(const void *tx)
{
	return ((const FtpDataTx *)tx)->flags;
}

static void ftpdata_tx_set_flags(void *tx, unsigned flags)
{
	((FtpDataTx *)tx)->flags |= flags;
}

static void **ftpdata_tx_detect_slot(void *tx)
{
	return &((FtpDataTx *)tx)->detect;
}

static void ftpdata_tx_gc(void *state, unsigned need)
{
	(void)state;
	(void)need;
}

const AppProtoOps ftpdata_proto_ops = {
	.name = "ftp-data",
	.alias = "ftp_data",
	.ipprotos = APP_IPPROTO_TCP,
	.enabled = ftpdata_enabled,
	.register_counters = ftpdata_register_counters,
	.state_new = ftpdata_state_new,
	.state_free = ftpdata_state_free,
	.parse = ftpdata_parse,
	.expect_attach = ftpdata_attach,
	.tx_count = ftpdata_tx_count,
	.tx_get = ftpdata_tx_get,
	.tx_id = ftpdata_tx_id,
	.tx_log_id = ftpdata_tx_id,
	.tx_progress = ftpdata_tx_progress,
	.progress_complete = 1,
	.tx_flags = ftpdata_tx_flags,
	.tx_set_flags = ftpdata_tx_set_flags,
	.tx_detect_slot = ftpdata_tx_detect_slot,
	.tx_gc = ftpdata_tx_gc,
};
