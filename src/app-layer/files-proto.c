/* The protocols that carry files: how the files module reaches a
 * transaction's files. A protocol with files adds one line to the table
 * (SMTP, FTP-data and SMB will). */
#include "app-layer/files.h"
#include "app-layer/app-layer.h"
#include "app-layer/http.h"
#include "app-layer/smtp.h"
#include "app-layer/ftp.h"
#include "app-layer/smb.h"
#include "app-layer/http2.h"
#include "app-layer/nfs.h"

typedef struct FilesProto {
	int alproto;
	FileContainer *(*get)(void *tx, int dir, int final);
	void (*store)(const Flow *f, void *tx, unsigned dirs, int flow_scope, uint32_t sid);
} FilesProto;

static FileContainer *http_get(void *tx, int dir, int final)
{
	return http_tx_files(tx, dir, final);
}

static void http_store(const Flow *f, void *tx, unsigned dirs, int flow_scope, uint32_t sid)
{
	http_tx_files_store(f, tx, dirs, flow_scope, sid);
}

/* SMB: a file transaction holds its one file in files[its direction] */
static FileContainer *smb_get(void *tx, int dir, int final)
{
	SmbTx *t = tx;

	(void)final;
	return t->type == SMB_TXT_FILE ? &t->files[dir & 1] : NULL;
}

/* filestore on an SMB transaction: its file (a later one of the flow is
 * opened without the mark; Suricata's flow scope reaches it through the
 * rule matching again on that transaction) */
static void smb_store(const Flow *f, void *tx, unsigned dirs, int flow_scope, uint32_t sid)
{
	SmbTx *t = tx;

	(void)f;
	(void)flow_scope;
	/* a packet rule (no transaction) may carry filestore too */
	if (!t || t->type != SMB_TXT_FILE)
		return;
	for (int d = 0; d < 2; d++)
		if (dirs & (1u << d))
			for (const File *fl = files_first(&t->files[d]); fl; fl = file_next(fl))
				file_mark_store((File *)fl, sid);
}

static const FilesProto protos[] = {
	{ ALPROTO_HTTP1, http_get, http_store },
	{ ALPROTO_SMTP, smtp_files_of_tx, smtp_files_store },
	{ ALPROTO_FTPDATA, ftpdata_files_of_tx, ftpdata_files_store },
	{ ALPROTO_SMB, smb_get, smb_store },
	{ ALPROTO_HTTP2, http2_files_of_tx, http2_files_store },
	{ ALPROTO_NFS, nfs_files_of_tx, nfs_files_store },
};

static const FilesProto *proto_of(int alproto)
{
	for (size_t i = 0; i < sizeof(protos) / sizeof(protos[0]); i++)
		if (protos[i].alproto == alproto)
			return &protos[i];
	return NULL;
}

int files_tx_log_ready(const Flow *f, const void *tx)
{
	const unsigned both = APP_TX_DETECT_TS | APP_TX_DETECT_TC;

	if (!(files_config()->need & FILE_NEED_STORE) || !files_config()->store_enabled ||
	    !f || !proto_of(f->app_proto))
		return 1;
	return (app_layer_tx_flags(f, tx) & both) == both;
}

int files_proto_at(unsigned i)
{
	return i < sizeof(protos) / sizeof(protos[0]) ? protos[i].alproto : -1;
}

int files_proto_has(int alproto)
{
	return proto_of(alproto) != NULL;
}

FileContainer *files_of_tx(int alproto, void *tx, int dir, int final)
{
	const FilesProto *p = tx ? proto_of(alproto) : NULL;

	return p ? p->get(tx, dir, final) : NULL;
}

void files_store_scope(const Flow *f, void *tx, unsigned dirs, int flow_scope, uint32_t sid)
{
	const FilesProto *p = f ? proto_of(f->app_proto) : NULL;

	if (p)
		p->store(f, tx, dirs, flow_scope, sid);
}
