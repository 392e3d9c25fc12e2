/* PostgreSQL's frontend/backend protocol (version 3): the parser's view, for
 * detection (detect/pgsql-kw.c) and eve (output/pgsql-json.c).
 *
 * Transactions are Suricata 8's: one frontend message that opens an
 * exchange (SSLRequest, GSSENCRequest, StartupMessage, a password or SASL
 * message, a simple Query, Terminate, CancelRequest; the messages of an
 * extended query up to its Sync) with the backend messages that answer it,
 * up to the one that hands the turn back to the client (ReadyForQuery, an
 * authentication request, the one-byte SSL answer, a FATAL error). Data
 * rows and CopyData messages are counted, not kept. The extended query
 * protocol's messages (Parse, Bind, Execute, Sync, ...) are framed and
 * passed over: Suricata 8 makes no transaction of them, and drops the
 * backend messages no transaction waits for, except on a flow picked up
 * midstream, whose first one opens a transaction. */
#ifndef APP_LAYER_PGSQL_H
#define APP_LAYER_PGSQL_H

#include "app-layer/txlist.h"

#include <stdint.h>

/* the request that opened a transaction */
enum pgsql_req {
	PG_REQ_NONE = 0,            /* a response-only transaction */
	PG_REQ_SSL,
	PG_REQ_GSSENC,
	PG_REQ_STARTUP,
	PG_REQ_PASSWORD,
	PG_REQ_SASL_INITIAL,
	PG_REQ_SASL_RESPONSE,
	PG_REQ_QUERY,
	PG_REQ_TERMINATE,
	PG_REQ_CANCEL,
};

/* a backend message kept for eve, in arrival order */
enum pgsql_item {
	PG_IT_SSL = 0,              /* num[0]: 1 accepted */
	PG_IT_AUTH,                 /* num[0]: the authentication code; data: what follows it */
	PG_IT_PARAM,                /* data: name NUL value NUL */
	PG_IT_KEYDATA,              /* num[0] process id, num[1] secret key */
	PG_IT_COMMAND,              /* data: the command tag */
	PG_IT_ROWDESC,              /* num[0]: field count */
	PG_IT_ERROR,                /* data: the fields (type byte, string NUL)... */
	PG_IT_NOTICE,
	PG_IT_COPY_IN,              /* num[0]: columns */
	PG_IT_COPY_OUT,
	PG_IT_NOTIFY,               /* num[0] pid; data: channel NUL payload NUL */
};

typedef struct PgsqlItem {
	uint8_t type;
	uint32_t num[2];
	uint8_t *data;
	uint32_t len;
} PgsqlItem;

typedef struct PgsqlTx {
	AppTx base;
	uint8_t req;                /* enum pgsql_req */
	/* the request's bytes: the query string, the password, the startup
	 * parameters (name NUL value NUL ...), SASL: the mechanism NUL then
	 * the data */
	uint8_t *rq;
	uint32_t rq_len;
	uint32_t rq_mech_len;       /* SASL initial response: the mechanism's length */
	uint16_t proto_major, proto_minor;
	uint32_t pid, key;          /* CancelRequest */
	uint64_t copy_in_msgs, copy_in_size;
	/* responses */
	PgsqlItem *items;
	uint32_t nitems, cap;
	uint64_t rows, data_size;   /* DataRow messages, their values' bytes */
	uint64_t copy_out_rows, copy_out_size;
} PgsqlTx;

/* events (app-layer-event:pgsql.<name>), Suricata 8's */
enum pgsql_event {
	PG_EV_TOO_MANY_TRANSACTIONS = 0,
	PG_EV_MALFORMED_REQUEST,
	PG_EV_MALFORMED_RESPONSE,
	PG_EV_INVALID_LENGTH,
	PG_EV_COUNT
};
const char *pgsql_event_name(int ev);
int pgsql_event_by_name(const char *name);

/* Suricata's eve name of a parameter ("DateStyle": "date_style"), or NULL
 * for one it does not know (written as it came). */
const char *pgsql_param_name(const uint8_t *name, uint32_t len);
/* eve name of an ErrorResponse/NoticeResponse field type ('M': "message"),
 * or NULL */
const char *pgsql_error_field_name(uint8_t type);

/* ---- the parser, free of the flow (pgsql-parse.c) ---- */

#define PG_KEEP_MAX (1u << 20)      /* bytes kept of one message */
#define PG_MAX_ITEMS 1024           /* backend messages kept per transaction */

typedef struct PgsqlFramer {
	uint8_t hdr[5];
	uint8_t hlen, typed, in_body;
	uint8_t type;
	uint32_t body, got;         /* the body's length, the bytes of it seen */
	uint8_t *buf;               /* the kept part of a body cut across calls */
	uint32_t blen, cap;
} PgsqlFramer;

typedef struct PgsqlConn {
	AppTxList txs;              /* first: txlist.h's ops read it */
	PgsqlFramer fr[2];
	uint64_t max_tx;
	uint8_t startup_seen;       /* the client sent its StartupMessage */
	uint8_t ssl_wait;           /* an SSL/GSSENC request awaits its one byte */
	uint8_t sasl;               /* 1 after AuthenticationSASL, 2 after ...Continue */
	uint8_t to_tls;             /* the server said 'S': TLS from here */
	uint8_t stopped[2];         /* the direction is not parsed any more */
	uint8_t *held[2];           /* bytes past the switch to TLS */
	uint32_t held_len[2];
	uint64_t ntx, nerr, nalloc; /* for the counters: transactions, errors */
} PgsqlConn;

void pgsql_conn_init(PgsqlConn *c, uint64_t max_tx);
void pgsql_conn_free(PgsqlConn *c);
/* One direction's next bytes. Returns 0, -1 when the direction was given
 * up (not PostgreSQL any more). */
int pgsql_conn_feed(PgsqlConn *c, int dir, const uint8_t *data, uint32_t len);
/* A gap: the direction's message boundaries are lost. */
void pgsql_conn_gap(PgsqlConn *c, int dir);
/* The direction ended: the transactions waiting on it are done. */
void pgsql_conn_eof(PgsqlConn *c, int dir);

/* Detection: a client's first message (SSLRequest, GSSENCRequest,
 * StartupMessage 3.x, CancelRequest) or a server's (the SSL answer, an
 * authentication request, an ErrorResponse). 1 yes, 0 more bytes needed,
 * -1 no. */
int pgsql_probe_ts(const uint8_t *buf, uint32_t len);
int pgsql_probe_tc(const uint8_t *buf, uint32_t len);

#endif
