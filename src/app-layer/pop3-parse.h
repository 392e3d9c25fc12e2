/* POP3 (RFC 1939, 2449, 5034) as Suricata 8 sees it: a transaction per
 * client command with the server's response to it; a response nobody
 * asked for (the greeting) is a transaction of its own. The parser is
 * free of flows (pop3-proto.c hands it the stream's bytes) and bounded: a
 * line is kept up to POP3_MAX_LINE bytes (the rest is dropped, with an
 * event), a response keeps at most POP3_MAX_DATA_LINES lines and
 * POP3_MAX_DATA_BYTES bytes of its multi-line body (the rest is read
 * over), a flow at most
 * POP3_MAX_TX live transactions.
 *
 * Responses: "+OK" or "-ERR", then the header text. The multi-line ones
 * (RFC 1939: a +OK to CAPA, LIST and UIDL without an argument, RETR,
 * TOP; AUTH without an argument, RFC 5034) carry data lines up to a
 * lone ".", each with its leading dot unstuffed. */
#ifndef APP_LAYER_POP3_PARSE_H
#define APP_LAYER_POP3_PARSE_H

#include <stdint.h>

#define POP3_MAX_LINE 4096
#define POP3_MAX_ARGS 8
#define POP3_MAX_DATA_LINES 4096
#define POP3_MAX_DATA_BYTES (1u << 20)
#define POP3_MAX_TX 256

enum pop3_event {
	POP3_EV_TOO_MANY_TRANSACTIONS = 0, /* more than POP3_MAX_TX live */
	POP3_EV_REQUEST_TOO_LONG,          /* a command line past POP3_MAX_LINE */
	POP3_EV_RESPONSE_TOO_LONG,         /* a response line past POP3_MAX_LINE */
	POP3_EV_INVALID_RESPONSE,          /* neither +OK, -ERR nor a continuation */
	POP3_EV_UNKNOWN_COMMAND,           /* a keyword RFC 1939/2449/5034 do not name */
	POP3_EV_COUNT
};

const char *pop3_event_name(int ev);
int pop3_event_by_name(const char *name);

typedef struct Pop3Bytes {
	uint8_t *p;
	uint32_t len;
} Pop3Bytes;

typedef struct Pop3Tx {
	struct Pop3Tx *next;
	uint64_t id;
	/* request: the command keyword (upper case) and its arguments */
	uint8_t has_request;
	char command[16];
	uint8_t nargs;
	Pop3Bytes args[POP3_MAX_ARGS];
	/* response */
	uint8_t has_response;
	uint8_t response_done;
	uint8_t success;            /* +OK */
	uint8_t multi;              /* a multi-line response is expected */
	uint8_t continuation;       /* "+ " (SASL) */
	Pop3Bytes header;
	uint32_t ndata, data_cap;
	Pop3Bytes *data;            /* grown as lines come */
	uint32_t data_bytes;
	uint32_t data_dropped;      /* data lines past the bounds */
	uint32_t events;            /* bit per enum pop3_event */
	/* the app layer's (pop3-proto.c) */
	unsigned app_flags;
	void *detect;
	uint32_t events_logged;
} Pop3Tx;

typedef struct Pop3Side {
	uint8_t line[POP3_MAX_LINE];
	uint32_t len;
	uint8_t overflow;           /* the line being read went past the buffer */
} Pop3Side;

typedef struct Pop3State {
	Pop3Tx *head, *tail;
	uint32_t ntx;
	uint64_t next_id;
	Pop3Side side[2];           /* APP_DIR_* */
	uint8_t stls;               /* the server said +OK to STLS: TLS follows */
	uint32_t pending_events;    /* raised with no transaction to hold them */
} Pop3State;

Pop3State *pop3_state_new(void);
/* free_detect: frees a transaction's detect slot (NULL: none). */
void pop3_state_free(Pop3State *s, void (*free_detect)(void *));
/* dir 0 to server, 1 to client. *used: bytes consumed (all of them, except
 * after STLS's +OK: the rest is TLS). 0, or -1 on an allocation failure. */
int pop3_parse(Pop3State *s, int dir, const uint8_t *data, uint32_t len, uint32_t *used);
/* A gap: the partial line of dir is dropped. */
void pop3_gap(Pop3State *s, int dir);
/* Whether the response side of t is over (or the request side, dir 0). */
int pop3_tx_done(const Pop3Tx *t, int dir);
/* Frees the leading transactions whose app_flags hold need and that are
 * done both ways. */
void pop3_tx_gc(Pop3State *s, unsigned need, void (*free_detect)(void *));
/* 1: the buffer starts like a POP3 command (dir 0) or a +OK (dir 1); 0 no;
 * -1 too few bytes to say. */
int pop3_probe(int dir, const uint8_t *buf, uint32_t len);

#endif
