/* SMTP as the app layer runs it (smtp-proto.c, smtp-parse.c): what
 * detection and the eve logger may ask of an SMTP transaction (the
 * accessors of smtp-parse.h, on tx from app_layer_tx_get()); everything
 * else goes through the generic app_layer_tx_*() calls.
 *
 * Progress: headers (1) once the message's header block ended, so the
 * email.* header buffers are whole and a rule on them matches mid-message,
 * as in Suricata (suricata-verify detect-email-cc); done (2) on the
 * request side when the message ended, on the response side when the
 * server answered its end (Suricata 8.0.7), and on both when the
 * transaction completed otherwise (RSET, STARTTLS, the flow's end). */
#ifndef APP_LAYER_SMTP_H
#define APP_LAYER_SMTP_H

#include "app-layer/smtp-parse.h"

#define SMTP_PROGRESS_HEADERS 1
#define SMTP_PROGRESS_DONE 2

struct Flow;
struct FileContainer;

/* The files module's SMTP entry (files-proto.c): the attachments of tx
 * (final: the flow ended, an attachment still open is truncated), and
 * filestore's tx / flow scopes. */
struct FileContainer *smtp_files_of_tx(void *tx, int dir, int final);
void smtp_files_store(const struct Flow *f, void *tx, unsigned dirs, int flow_scope,
		      uint32_t sid);

/* app-layer.protocols.smtp as loaded (the mime options among them). */
const SmtpConfig *smtp_config(void);

#endif
