/* FTP and ftp-data as the app layer runs them (ftp-proto.c,
 * ftp-data-proto.c). What detection and the eve loggers may ask of their
 * transactions.
 *
 * FTP: one transaction per command (ftp-parse.h's FtpTx), progress 1 per
 * side: the command was read (a reply with no command has its request
 * side done from the start), its final reply came.
 *
 * ftp-data: a flow an FTP control connection announced (PORT/PASV/EPRT/
 * EPSV, then RETR or STOR: an expectation, expect.h); one transaction for
 * the flow, carrying the command and file name, complete when both sides
 * closed. */
#ifndef APP_LAYER_FTP_H
#define APP_LAYER_FTP_H

#include "app-layer/ftp-parse.h"
#include "flow/flow.h"

#define FTP_PROGRESS_DONE 1

/* Whether the flow's latest PORT/EPRT names another host than the client
 * (ftpbounce outside a transaction; the transaction itself is gone
 * once logged). */
int ftp_flow_port_bounce(const Flow *f);

/* What an ftp-data flow carries. */
typedef struct FtpDataInfo {
	uint8_t cmd;                /* FTP_CMD_RETR or FTP_CMD_STOR */
	char *filename;             /* NUL-terminated, may be empty */
	uint32_t filename_len;
	uint64_t size;              /* bytes of the transfer seen */
} FtpDataInfo;

/* The ftp-data transaction's info (tx from app_layer_tx_get()); NULL when
 * the expectation carried none. */
const FtpDataInfo *ftpdata_tx_info(const void *tx);
struct FileContainer;
/* The files module's ftp-data entry (files-proto.c): the transfer as a
 * file of side dir (final: the flow ended, an open file is truncated), and
 * filestore's scopes. */
struct FileContainer *ftpdata_files_of_tx(void *tx, int dir, int final);
void ftpdata_files_store(const Flow *f, void *tx, unsigned dirs, int flow_scope, uint32_t sid);
/* "RETR" / "STOR" */
const char *ftpdata_cmd_name(uint8_t cmd);
/* app-layer.protocols.ftp.memcap at run time (the unix socket's
 * memcap-set; 0: unlimited): from the next expectation on. */
void ftp_memcap_set(uint64_t cap);
uint64_t ftp_memcap_get(void);

#endif
