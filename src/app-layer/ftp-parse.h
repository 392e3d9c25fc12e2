/* FTP control-connection parser (RFC 959, 2428): one FtpState per flow,
 * fed each direction's stream bytes in any segmentation. Commands (one a
 * line, to the server) and replies (to the client; multi-line replies
 * "ddd-..." up to "ddd ...") become transactions: each command is one,
 * completed by its final reply (a 1xx preliminary reply leaves it open
 * for the next); a reply with no command waiting goes to the newest
 * transaction, or is one of its own when there is none (the 220
 * greeting). PORT/EPRT commands and 227/229 replies give the
 * data connection's port (dynamic_port) and mode.
 *
 * Pure: no logging, no globals. Memory: the line buffers (at most
 * max_line bytes each; longer lines are cut there and flagged as
 * truncated) and the transactions, each one allocation with its strings;
 * the caller frees transactions (ftp_tx_free) once done with them. */
#ifndef APP_LAYER_FTP_PARSE_H
#define APP_LAYER_FTP_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FTP_TOSERVER 0
#define FTP_TOCLIENT 1

/* Suricata's app-layer.protocols.ftp.max-line-length default */
#define FTP_MAX_LINE_DEFAULT 4096
/* reply lines kept per transaction; more are counted, not kept */
#define FTP_MAX_REPLY_LINES 64

enum ftp_event {
	FTP_EV_UNSUPPORTED_COMMAND,  /* Suricata: unsupported_command (not raised: kept for the names) */
	FTP_EV_REQUEST_TOO_LONG,     /* request_command_too_long */
	FTP_EV_RESPONSE_TOO_LONG,    /* response_command_too_long */
	FTP_EV_TOO_MANY_TX,          /* too_many_transactions */
	FTP_EV_FILE_BEFORE_PORT,     /* file_before_port: RETR/STOR with no data port yet */
	FTP_EV_FILE_WITHOUT_NAME,    /* file_without_name: RETR/STOR with no file name */
	FTP_EV_COUNT
};

const char *ftp_event_name(int ev);
int ftp_event_by_name(const char *name);

enum ftp_mode { FTP_MODE_NONE = 0, FTP_MODE_ACTIVE, FTP_MODE_PASSIVE };

/* Commands that matter to the parser; the rest are FTP_CMD_OTHER (a
 * known name) or FTP_CMD_UNKNOWN. */
enum ftp_cmd {
	FTP_CMD_UNKNOWN = 0, FTP_CMD_OTHER, FTP_CMD_PORT, FTP_CMD_EPRT, FTP_CMD_PASV,
	FTP_CMD_EPSV, FTP_CMD_RETR, FTP_CMD_STOR, FTP_CMD_USER, FTP_CMD_PASS,
};

typedef struct FtpReplyLine {
	char code[4];               /* "" when the line had none */
	uint32_t len;
	char *text;                 /* the text after the code and its separator */
} FtpReplyLine;

typedef struct FtpTx {
	uint64_t id;
	struct FtpTx *next;
	/* the request; cmd_name NULL: a reply without a command */
	const char *cmd_name;       /* canonical upper-case name, or NULL (unknown) */
	uint8_t cmd;                /* enum ftp_cmd */
	bool has_request;
	char *cmd_data;             /* after the command and one blank, NUL-terminated */
	uint32_t cmd_data_len;
	bool cmd_truncated;
	/* the replies */
	FtpReplyLine *replies;
	uint16_t nreplies, cap_replies;
	uint32_t replies_total;
	bool reply_truncated;
	bool done;                  /* its final reply came (reply_received) */
	/* PORT/EPRT (from the command) or PASV/EPSV (from the reply) */
	uint16_t dyn_port;
	uint8_t mode;               /* enum ftp_mode */
	uint8_t port_addr_family;   /* PORT/EPRT's address: 4, 6 or 0 */
	uint8_t port_addr[16];
	uint32_t events;            /* 1 << enum ftp_event */
	/* the app layer's: a PORT/EPRT to another host than the client */
	bool bounce;
	unsigned app_flags;
	void *detect;
} FtpTx;

typedef struct FtpLineBuf {
	char *buf;
	uint32_t len, cap;
	bool truncated;             /* the current line went over max_line */
} FtpLineBuf;

typedef struct FtpState {
	FtpTx *head, *tail;         /* the live transactions, oldest first */
	FtpTx *hint;                /* ftp_tx_by_id's last find (NULL after a gc) */
	uint64_t next_id;
	uint32_t ntx;
	uint32_t max_line;
	uint32_t max_tx;            /* commands waiting for a reply at most (0: unlimited) */
	uint32_t nwaiting;          /* commands made into transactions, not yet answered */
	bool stopped;               /* max_tx was passed: nothing more is parsed */
	FtpLineBuf line[2];
	/* the reply being read spans lines: its code ("ddd-" opened it) */
	char multi_code[4];
	FtpTx *reply_tx;            /* the tx the current multi-line reply goes to */
	uint32_t events;            /* raised on no transaction */
	/* the last transaction a call created or completed (the app layer's
	 * expectations, ftpbounce) */
	FtpTx *last_request;        /* made by the last toserver call, else NULL */
	FtpTx *last_done;           /* completed by the last toclient call, else NULL */
	/* bookkeeping of what the state allocated (ftp.memuse) */
	uint64_t memuse;
} FtpState;

/* max_tx: commands waiting for their reply at most (a one-sided flow or a
 * flood nobody answers); answered transactions go with the app layer's gc,
 * so memory stays bounded. A command past it makes no transaction: the
 * oldest waiting one gets too_many_transactions and the parser stops
 * reading the flow, both directions (Suricata 8.0.6, redmine 8489). */
FtpState *ftp_state_new(uint32_t max_line, uint32_t max_tx);
void ftp_state_free(FtpState *s);
void ftp_tx_free(FtpTx *tx);

/* Feeds len bytes of direction dir. Calls done(arg, tx) for each
 * transaction this call completed or made (a request, a final reply), so
 * the caller can act on it (expectations). 0 always (FTP has no framing
 * to lose). */
typedef void (*ftp_tx_fn)(void *arg, FtpState *s, FtpTx *tx, int dir);
int ftp_parse(FtpState *s, int dir, const uint8_t *data, size_t len, ftp_tx_fn fn, void *arg);
/* The direction ended: a pending partial line is taken as a line. */
void ftp_eof(FtpState *s, int dir, ftp_tx_fn fn, void *arg);

/* Unlinks and frees the transactions before (and not) `keep` that pass
 * ok(tx); returns how many. */
unsigned ftp_gc(FtpState *s, int (*ok)(const FtpTx *tx, unsigned need), unsigned need);
/* The live transaction with this id, or NULL. Detection and logging ask
 * for ids in rising order on each packet: the search resumes from the
 * last one found, so such a walk costs the live list once, not once per
 * id (1,024 commands nobody answers made each packet walk 500k nodes). */
FtpTx *ftp_tx_by_id(FtpState *s, uint64_t id);

/* Detection: 1 when buf starts (case-insensitively) like Suricata's FTP
 * patterns on that side, 0 when it cannot, -1 too short to tell. */
int ftp_probe(int dir, const uint8_t *buf, size_t len);

/* "h1,h2,h3,h4,p1,p2" (PORT argument, 227 text): the port, the address
 * into addr (4 bytes); 0 when not found. */
uint16_t ftp_parse_port6(const char *s, size_t len, uint8_t addr[4]);
/* EPRT "|af|addr|port|": the port, address and family (4 or 6); 0 when
 * malformed. */
uint16_t ftp_parse_eprt(const char *s, size_t len, uint8_t addr[16], uint8_t *family);
/* 229 "(|||port|)": the port, 0 when not found. */
uint16_t ftp_parse_epsv(const char *s, size_t len);

/* The command's canonical name and kind: NULL for an unknown name. */
const char *ftp_command_lookup(const char *s, size_t len, uint8_t *cmd);

#endif
