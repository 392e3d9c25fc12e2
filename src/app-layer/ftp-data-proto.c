/* ftp-data's entry in the application-protocol registry. Never detected
 * by content: a flow is ftp-data when an FTP control connection expected
 * it (ftp-proto.c adds the expectation, the app layer matches it when the
 * flow brings its first bytes and hands the expectation's FtpDataInfo to
 * expect_attach). The data itself is not parsed; its bytes are counted
 * (the transfer's size). One transaction per flow, complete when both
 * sides closed. On when FTP is. */
#include "app-layer/app-layer-int.h"
#include "app-layer/ftp.h"

#include <stdlib.h>
#include <string.h>

int ftp_data_enabled_cfg(void);  /* ftp-proto.c */

typedef struct FtpDataTx {
	FtpDataInfo *info;          /* from the expectation; NULL: none */
	void (*info_free)(void *);
	unsigned flags;
	void *detect;
	uint8_t closed[2];
} FtpDataTx;

static int ftpdata_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return ftp_data_enabled_cfg();
}

static void *ftpdata_state_new(AppLayerThread *at, Flow *f)
{
	(void)at;
	(void)f;
	return calloc(1, sizeof(FtpDataTx));
}

static void ftpdata_state_free(void *state)
{
	FtpDataTx *t = state;

	if (!t)
		return;
	if (t->detect)
		app_layer_detect_state_free(t->detect);
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

	(void)at;
	(void)f;
	(void)data;
	if (!t || dir < 0 || dir > 1)
		return -1;
	if (t->info && !(flags & APP_GAP))
		t->info->size += len;
	if (flags & APP_EOF)
		t->closed[dir] = 1;
	return 0;
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
