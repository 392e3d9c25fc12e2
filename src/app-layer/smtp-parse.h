/* SMTP (RFC 5321) as Suricata 8 parses it: the client's commands and the
 * server's replies, line by line, with pipelining (replies matched to the
 * commands in order), multi-line replies ("250-..." up to "250 "), DATA
 * (dot-stuffed, ends with "."), BDAT chunks (RFC 3030 CHUNKING), and
 * STARTTLS: after the server's 220 to it the flow continues as TLS
 * (app_layer_request_proto_change()).
 *
 * Transactions, as Suricata 8.0.7 makes them: one starts with the
 * session's first command, and with any command once the current one's
 * message ended or it is done, RSET and QUIT aside. Its request side ends
 * with its message (the "." of DATA, the last BDAT chunk); it is done when
 * the server answers that end, when a RSET sent in it is accepted, when a
 * HELO/EHLO sent once its mail began is accepted (RFC 5321 4.1.4), when
 * the flow goes on as TLS, or when both sides closed. Each reply acts on
 * the transaction its command was sent in. A transaction holds the
 * envelope (helo, mail from, rcpt to) and, from DATA on, its message
 * (mime-decode.h; BDAT chunks are counted, not decoded, as Suricata's).
 * The eve smtp/email records and the smtp.* and email.* keywords read them
 * through the accessors below. */
#ifndef APP_LAYER_SMTP_PARSE_H
#define APP_LAYER_SMTP_PARSE_H

#include "app-layer/mime-decode.h"

#include <stdint.h>

/* Suricata's smtp event names and order (sids 2220000 + id, rules/smtp-events.rules). */
enum smtp_event {
	SMTP_EV_INVALID_REPLY = 0,
	SMTP_EV_UNABLE_TO_MATCH_REPLY_WITH_REQUEST,
	SMTP_EV_MAX_COMMAND_LINE_LEN_EXCEEDED,
	SMTP_EV_MAX_REPLY_LINE_LEN_EXCEEDED,
	SMTP_EV_INVALID_PIPELINED_SEQUENCE,
	SMTP_EV_BDAT_CHUNK_LEN_EXCEEDED,
	SMTP_EV_NO_SERVER_WELCOME_MESSAGE,
	SMTP_EV_TLS_REJECTED,
	SMTP_EV_DATA_COMMAND_REJECTED,
	SMTP_EV_MIME_FIRST,         /* the MIME events, in enum mime_event's order */
	SMTP_EV_DUPLICATE_FIELDS = SMTP_EV_MIME_FIRST + MIME_EV_COUNT,
	SMTP_EV_UNPARSABLE_CONTENT,
	SMTP_EV_FAILED_PROTOCOL_CHANGE,
	SMTP_EV_TRUNCATED_LINE,
	SMTP_EV_INVALID_BDAT,       /* Suricata 8.0.7: a BDAT line that is not
	                             * "BDAT <size> [LAST]" */
	SMTP_EV_COUNT
};

#define SMTP_MAX_LINE 510           /* RFC 5321 4.5.3.1.4-5 command/reply line (without CRLF) */

typedef struct SmtpConfig {
	MimeConfig mime;
	int raw_extraction;         /* no: read, not used (file.data of the raw message) */
	uint32_t max_tx;            /* transactions held per flow: 256 */
	uint32_t content_limit;     /* inspected-tracker.content-limit: 100000 bytes of
	                             * each attachment kept for file.data; 0: none */
} SmtpConfig;

void smtp_config_defaults(SmtpConfig *c);

typedef struct SmtpState SmtpState;
typedef struct SmtpTx SmtpTx;

/* A parser for one flow (cfg outlives it); NULL when out of memory. */
SmtpState *smtp_state_new(const SmtpConfig *cfg);
void smtp_state_free(SmtpState *s);

/* Frames (Suricata's SMTP frame types, app-layer/frames.h): a command
 * line, a reply line (each with its CRLF), and a DATA message (from the
 * byte after the DATA line to the end of its "." line; its length is
 * unknown, -1, until then). The parser reports them to the sink with
 * stream offsets counted from the base given to smtp_set_frames_base(),
 * and the transaction each belongs to (UINT64_MAX: none). Without a sink
 * (the default) nothing is computed. */
enum { SMTP_FRAME_COMMAND_LINE = 0, SMTP_FRAME_DATA, SMTP_FRAME_RESPONSE_LINE };
typedef struct SmtpFrameSink {
	/* a new frame; returns its id (< 0: none) */
	int64_t (*frame)(void *arg, int dir, uint64_t off, int64_t len, unsigned type,
			 uint64_t tx_id);
	void (*set_len)(void *arg, int dir, int64_t id, int64_t len);
} SmtpFrameSink;
void smtp_set_frame_sink(SmtpState *s, const SmtpFrameSink *sink, void *arg);
/* The stream offset of the first byte the next smtp_parse() of dir gets. */
void smtp_set_frames_base(SmtpState *s, int dir, uint64_t off);

/* Results of smtp_parse() */
#define SMTP_OK 0
#define SMTP_ERR -1                 /* the line was not SMTP (counted as a parser error) */
#define SMTP_TO_TLS 1               /* the server accepted STARTTLS: TLS follows */

/* One direction's bytes (0 toserver, 1 toclient). Once SMTP_TO_TLS was
 * returned, further bytes of either direction are held for
 * smtp_take_held() (the TLS parser's first bytes). */
int smtp_parse(SmtpState *s, int dir, const uint8_t *data, uint32_t len);
/* A direction closed: an open message ends (the transaction stays open). */
void smtp_eof(SmtpState *s, int dir);
/* The bytes held past the switch to TLS (caller frees), or NULL. */
uint8_t *smtp_take_held(SmtpState *s, int dir, uint32_t *len);
/* Number of parser errors so far (app_layer.error.smtp.parser). */
uint32_t smtp_parser_errors(const SmtpState *s);

/* transactions */
uint64_t smtp_tx_count(const SmtpState *s);
SmtpTx *smtp_tx_get(const SmtpState *s, uint64_t id);
uint64_t smtp_tx_id(const SmtpTx *tx);
int smtp_tx_done(const SmtpTx *tx);
/* Whether the client is done with it: its message ended, or it is done. */
int smtp_tx_request_done(const SmtpTx *tx);
/* Whether a message's header block ended on the transaction (sticky). */
int smtp_tx_headers_done(const SmtpTx *tx);
unsigned *smtp_tx_flags(SmtpTx *tx);
void **smtp_tx_detect_slot(SmtpTx *tx);
/* Frees the done transactions at the front whose flags include need. */
void smtp_tx_gc(SmtpState *s, unsigned need);

/* What eve and the keywords read; NULL/0 when absent. */
const uint8_t *smtp_tx_helo(const SmtpTx *tx, uint32_t *len);
const uint8_t *smtp_tx_mail_from(const SmtpTx *tx, uint32_t *len);
unsigned smtp_tx_rcpt_count(const SmtpTx *tx);
const uint8_t *smtp_tx_rcpt(const SmtpTx *tx, unsigned i, uint32_t *len);
/* The attachments, as files (app-layer/files.h): side 0 only, else NULL. */
struct FileContainer *smtp_tx_files(SmtpTx *tx, int dir);
/* filestore's tx and flow scopes (files_store_scope): every attachment of
 * tx, and with flow_scope those of later transactions of s. */
void smtp_tx_files_store(SmtpState *s, SmtpTx *tx, int flow_scope, uint32_t sid);
/* The message, from DATA/BDAT on (else NULL). */
const MimeMsg *smtp_tx_mime(const SmtpTx *tx);
/* Whether event id (enum smtp_event) was raised on the transaction. */
int smtp_tx_has_event(const SmtpTx *tx, int id);
/* SMTP_EV_* bits of the events raised on it (MIME ones included). */
uint64_t smtp_tx_events(const SmtpTx *tx);
/* The bits of those eve wrote as anomaly records (the logger's to keep). */
uint64_t *smtp_tx_events_logged(SmtpTx *tx);

/* "invalid_reply", ... (rule names); and by name: the id, or -1. */
const char *smtp_event_name(int id);
int smtp_event_by_name(const char *name);

#endif
