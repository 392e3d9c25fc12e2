/* The SMTP parser (smtp-parse.h). Both directions are split into lines
 * (LF or CRLF; a line longer than SMTP allows is an event and is cut);
 * the client's lines are commands, or message lines while in DATA; BDAT
 * chunks are counted in bytes and skipped. Each final reply line is
 * matched to the oldest command waiting for one, and acts on the
 * transaction that command was sent in. */
#include "app-layer/smtp-parse.h"
#include "app-layer/app-mem.h"
#include "app-layer/app-layer-int.h"
#include "app-layer/files.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define DATA_LINE_HOLD 4096         /* message line bytes held before handing a piece on;
                                     * a command or reply line is cut there (Suricata's
                                     * line buffer: truncated_line) */
#define CMD_QUEUE 64                /* commands waiting for their replies */
#define HELD_MAX (256u * 1024)      /* bytes held for TLS after STARTTLS */
#define FIELD_MAX 4096              /* bytes kept of helo, mail from, each rcpt to */

/* What a queued command waits for (cmd_push): the verbs, and the two ends
 * of a message the server answers too: the "." of DATA and the last BDAT
 * chunk (CMD_MSG_END), and a BDAT chunk that is not the last.
 * CMD_HELO_RESET: a HELO/EHLO sent once a mail had begun (mail_begun). */
enum smtp_cmd { CMD_OTHER = 0, CMD_HELO, CMD_MAIL, CMD_RCPT, CMD_DATA, CMD_BDAT, CMD_STARTTLS,
		CMD_RSET, CMD_QUIT, CMD_MSG_END, CMD_HELO_RESET };

#define NO_OWNER UINT32_MAX         /* a queued command no transaction waits on */

typedef struct Bytes {
	uint8_t *p;
	uint32_t len;
} Bytes;

struct SmtpTx {
	uint64_t id;
	unsigned flags;             /* APP_TX_* */
	void *detect;
	int done;                   /* complete: logged, and gone once logged */
	int msg_ended;              /* its message ended (the "." or the last BDAT
	                             * chunk): the next command (RSET and QUIT
	                             * aside) starts the next transaction, while
	                             * this one waits for the server's reply to
	                             * it (Suricata 8.0.7) */
	int data_seen;              /* DATA or BDAT was sent for it */
	int headers_done;           /* a message's header block ended */
	Bytes helo, mail_from;
	Bytes *rcpt;
	unsigned nrcpt, rcpt_cap;
	MimeMsg *mime;
	uint64_t events;
	uint64_t events_logged;     /* the ones eve has written (smtp-json.c) */
	FileContainer files;        /* the message's attachments (toserver) */
	File *raw;                  /* raw-extraction: the whole message, while it comes */
	uint8_t files_cut;          /* the message ends because the flow did */
	uint8_t store_all;          /* filestore tx/flow scope: every attachment */
	const SmtpConfig *cfg;
	struct SmtpTx *next;
};

typedef struct LineBuf {
	uint8_t *p;
	uint32_t len, cap;
	int over;                   /* the line ran past its limit: the rest is dropped */
	int partial;                /* a piece of this line went on already (data lines) */
} LineBuf;

struct SmtpState {
	const SmtpConfig *cfg;
	SmtpTx *head, *tail, *cur;
	uint64_t ntx;               /* transactions ever made: the next id */
	unsigned live;              /* transactions held */
	Bytes helo;
	LineBuf line[2];
	int data_mode;              /* toserver: message lines until "." */
	uint64_t bdat_left;         /* toserver: bytes of the BDAT chunk still to come */
	int bdat_last;
	int bdat_mode;
	/* commands waiting for their replies, each with the low 32 bits of the
	 * id of the transaction it was sent in (NO_OWNER: none), so that a
	 * reply acts on that one, not on one a pipelined command started
	 * since (suricata-verify smtp-pipelined-rset-after-complete) */
	uint8_t cmds[CMD_QUEUE];
	uint32_t owners[CMD_QUEUE];
	unsigned cmd_head, ncmds;
	int welcome;                /* the server's first reply came */
	int pipelining;             /* the server advertised PIPELINING (RFC 2920) */
	int in_multiline;
	int wait_tls;               /* STARTTLS sent, its reply not seen */
	int tls;                    /* TLS from here on: bytes are held */
	Bytes held[2];
	uint32_t held_cap[2];
	uint32_t errors;
	int failed;                 /* a parser error: nothing more is parsed, as in
	                             * Suricata (one error per flow: smtp-errors) */
	uint8_t eof[2];
	uint8_t store_flow;
	/* frames (smtp-parse.h): the sink, the stream offset of the data
	 * smtp_parse() is at (frame_data: its first byte), where the line in
	 * progress began, where the last complete one ended, and the open
	 * message's frame */
	const SmtpFrameSink *fsink;
	void *fsink_arg;
	const uint8_t *frame_data[2];
	uint64_t frame_base[2];
	uint64_t line_start[2], line_end[2];
	int64_t data_frame;
	uint64_t data_start;
	uint8_t replaying;          /* held bytes parsed again: no offsets for them */         /* filestore flow scope: later messages' attachments */
};

static const char *const event_names[SMTP_EV_COUNT] = {
	[SMTP_EV_INVALID_REPLY] = "invalid_reply",
	[SMTP_EV_UNABLE_TO_MATCH_REPLY_WITH_REQUEST] = "unable_to_match_reply_with_request",
	[SMTP_EV_MAX_COMMAND_LINE_LEN_EXCEEDED] = "max_command_line_len_exceeded",
	[SMTP_EV_MAX_REPLY_LINE_LEN_EXCEEDED] = "max_reply_line_len_exceeded",
	[SMTP_EV_INVALID_PIPELINED_SEQUENCE] = "invalid_pipelined_sequence",
	[SMTP_EV_BDAT_CHUNK_LEN_EXCEEDED] = "bdat_chunk_len_exceeded",
	[SMTP_EV_NO_SERVER_WELCOME_MESSAGE] = "no_server_welcome_message",
	[SMTP_EV_TLS_REJECTED] = "tls_rejected",
	[SMTP_EV_DATA_COMMAND_REJECTED] = "data_command_rejected",
	[SMTP_EV_DUPLICATE_FIELDS] = "duplicate_fields",
	[SMTP_EV_UNPARSABLE_CONTENT] = "unparsable_content",
	[SMTP_EV_FAILED_PROTOCOL_CHANGE] = "failed_protocol_change",
	[SMTP_EV_TRUNCATED_LINE] = "truncated_line",
	[SMTP_EV_INVALID_BDAT] = "invalid_bdat",
};

const char *smtp_event_name(int id)
{
	if (id >= SMTP_EV_MIME_FIRST && id < SMTP_EV_MIME_FIRST + MIME_EV_COUNT)
		return mime_event_name(id - SMTP_EV_MIME_FIRST);
	return id >= 0 && id < SMTP_EV_COUNT ? event_names[id] : NULL;
}

int smtp_event_by_name(const char *name)
{
	for (int i = 0; name && i < SMTP_EV_COUNT; i++) {
		const char *n = smtp_event_name(i);

		if (n && strcasecmp(n, name) == 0)
			return i;
	}
	return -1;
}

void smtp_config_defaults(SmtpConfig *c)
{
	memset(c, 0, sizeof(*c));
	mime_config_defaults(&c->mime);
	c->max_tx = 256;
	c->content_limit = 100000;
}

SmtpState *smtp_state_new(const SmtpConfig *cfg)
{
	SmtpState *s = app_mem_calloc(ALPROTO_SMTP, 1, sizeof(*s));

	if (s) {
		s->cfg = cfg;
		s->data_frame = -1;
	}
	return s;
}

void smtp_set_frame_sink(SmtpState *s, const SmtpFrameSink *sink, void *arg)
{
	s->fsink = sink;
	s->fsink_arg = arg;
}

void smtp_set_frames_base(SmtpState *s, int dir, uint64_t off)
{
	if (dir >= 0 && dir <= 1)
		s->frame_base[dir] = off;
}

static int frames_on(const SmtpState *s)
{
	return s->fsink && !s->replaying;
}

/* the stream offset of p, a byte of the data smtp_parse() of dir has */
static uint64_t frame_off(const SmtpState *s, int dir, const uint8_t *p)
{
	return s->frame_base[dir] + (uint64_t)(p - s->frame_data[dir]);
}

static int64_t frame_new(SmtpState *s, int dir, uint64_t off, int64_t len, unsigned type)
{
	return s->fsink->frame(s->fsink_arg, dir, off, len, type, s->cur ? s->cur->id : UINT64_MAX);
}

static void tx_free(SmtpTx *tx);

void smtp_state_free(SmtpState *s)
{
	if (!s)
		return;
	while (s->head) {
		SmtpTx *n = s->head->next;

		tx_free(s->head);
		s->head = n;
	}
	app_mem_free(ALPROTO_SMTP, s->helo.p);
	for (int d = 0; d < 2; d++) {
		app_mem_free(ALPROTO_SMTP, s->line[d].p);
		app_mem_free(ALPROTO_SMTP, s->held[d].p);
	}
	app_mem_free(ALPROTO_SMTP, s);
}

/* ---------------- transactions ---------------- */

static void tx_free(SmtpTx *tx)
{
	if (tx->detect)
		app_layer_detect_state_free_proto(ALPROTO_SMTP, tx->detect);
	app_mem_free(ALPROTO_SMTP, tx->helo.p);
	app_mem_free(ALPROTO_SMTP, tx->mail_from.p);
	for (unsigned i = 0; i < tx->nrcpt; i++)
		app_mem_free(ALPROTO_SMTP, tx->rcpt[i].p);
	app_mem_free(ALPROTO_SMTP, tx->rcpt);
	mime_msg_free(tx->mime);
	files_container_free(&tx->files);
	app_mem_free(ALPROTO_SMTP, tx);
}

static int bytes_set(Bytes *b, const uint8_t *p, uint32_t len)
{
	uint8_t *c;

	if (len > FIELD_MAX)
		len = FIELD_MAX;
	c = app_mem_malloc(ALPROTO_SMTP, len + 1);
	if (!c)
		return -1;
	memcpy(c, p, len);
	c[len] = '\0';
	app_mem_free(ALPROTO_SMTP, b->p);
	b->p = c;
	b->len = len;
	return 0;
}

static SmtpTx *tx_new(SmtpState *s)
{
	SmtpTx *tx;

	if (s->live >= s->cfg->max_tx)
		return s->cur;  /* at the limit: the current one goes on */
	tx = app_mem_calloc(ALPROTO_SMTP, 1, sizeof(*tx));
	if (!tx)
		return s->cur;
	tx->id = s->ntx++;
	tx->cfg = s->cfg;
	tx->store_all = s->store_flow;
	if (s->helo.p)
		bytes_set(&tx->helo, s->helo.p, s->helo.len);
	if (s->tail)
		s->tail->next = tx;
	else
		s->head = tx;
	s->tail = tx;
	s->cur = tx;
	s->live++;
	return tx;
}

static void set_event(SmtpState *s, enum smtp_event e)
{
	/* Suricata keeps events on the current transaction; without one
	 * there is nothing to put them on */
	if (s->cur)
		s->cur->events |= 1ull << e;
}

/* The client is done with the transaction's message: what was parsed of
 * it is final. */
static void message_close(SmtpTx *tx)
{
	if (tx->msg_ended)
		return;
	tx->msg_ended = 1;
	if (tx->mime)
		mime_finish(tx->mime);
	if (tx->raw) {
		file_close(tx->raw, tx->files_cut ? FILE_CLOSE_TRUNCATED : FILE_CLOSE_OK);
		tx->raw = NULL;
	}
}

/* Complete: the server answered the end of its message (Suricata 8.0.7
 * defers it to that reply: suricata-verify detect-email-date logs the
 * transaction on the reply's packet), its RSET or an accepted HELO/EHLO
 * ended it, the flow went on as TLS, or the flow ended. */
static void tx_finish(SmtpTx *tx)
{
	if (!tx)
		return;
	message_close(tx);
	tx->done = 1;
}

uint64_t smtp_tx_count(const SmtpState *s)
{
	return s ? s->ntx : 0;
}

SmtpTx *smtp_tx_get(const SmtpState *s, uint64_t id)
{
	for (SmtpTx *t = s ? s->head : NULL; t; t = t->next) {
		if (t->id == id)
			return t;
		if (t->id > id)
			break;
	}
	return NULL;
}

uint64_t smtp_tx_id(const SmtpTx *tx)
{
	return tx->id;
}

int smtp_tx_done(const SmtpTx *tx)
{
	return tx->done;
}

int smtp_tx_request_done(const SmtpTx *tx)
{
	return tx->done || tx->msg_ended;
}

int smtp_tx_headers_done(const SmtpTx *tx)
{
	return tx->headers_done;
}

unsigned *smtp_tx_flags(SmtpTx *tx)
{
	return &tx->flags;
}

uint64_t *smtp_tx_events_logged(SmtpTx *tx)
{
	return &tx->events_logged;
}

void **smtp_tx_detect_slot(SmtpTx *tx)
{
	return &tx->detect;
}

void smtp_tx_gc(SmtpState *s, unsigned need)
{
	while (s->head && s->head->done && (s->head->flags & need) == need) {
		SmtpTx *t = s->head;

		s->head = t->next;
		if (!s->head)
			s->tail = NULL;
		if (s->cur == t)
			s->cur = NULL;
		s->live--;
		tx_free(t);
	}
}

const uint8_t *smtp_tx_helo(const SmtpTx *tx, uint32_t *len)
{
	*len = tx->helo.len;
	return tx->helo.p;
}

const uint8_t *smtp_tx_mail_from(const SmtpTx *tx, uint32_t *len)
{
	*len = tx->mail_from.len;
	return tx->mail_from.p;
}

unsigned smtp_tx_rcpt_count(const SmtpTx *tx)
{
	return tx->nrcpt;
}

const uint8_t *smtp_tx_rcpt(const SmtpTx *tx, unsigned i, uint32_t *len)
{
	if (i >= tx->nrcpt) {
		*len = 0;
		return NULL;
	}
	*len = tx->rcpt[i].len;
	return tx->rcpt[i].p;
}

const MimeMsg *smtp_tx_mime(const SmtpTx *tx)
{
	return tx->mime;
}

uint64_t smtp_tx_events(const SmtpTx *tx)
{
	return tx->events | (uint64_t)mime_events(tx->mime) << SMTP_EV_MIME_FIRST;
}

int smtp_tx_has_event(const SmtpTx *tx, int id)
{
	return id >= 0 && id < SMTP_EV_COUNT && (smtp_tx_events(tx) >> id & 1);
}

uint32_t smtp_parser_errors(const SmtpState *s)
{
	return s->errors;
}

/* ---------------- commands ---------------- */

/* A command the server will answer, sent in the current transaction
 * unless that one is complete. A command queued behind a DATA or a
 * STARTTLS still unanswered is out of order: RFC 2920 3.1 wants them last
 * in a pipelined group (Suricata's invalid_pipelined_sequence; a message's
 * "." sent before DATA's 354 counts too: suricata-verify
 * smtp-pipelined-rset-data-replies). */
static void cmd_push(SmtpState *s, enum smtp_cmd c)
{
	unsigned at;

	if (s->ncmds) {
		uint8_t last = s->cmds[(s->cmd_head + s->ncmds - 1) % CMD_QUEUE];

		if (last == CMD_DATA || last == CMD_STARTTLS)
			set_event(s, SMTP_EV_INVALID_PIPELINED_SEQUENCE);
	}
	if (s->ncmds == CMD_QUEUE)
		return;     /* a client pipelining past this has its replies unmatched */
	at = (s->cmd_head + s->ncmds) % CMD_QUEUE;
	s->cmds[at] = (uint8_t)c;
	s->owners[at] = s->cur && !s->cur->done ? (uint32_t)s->cur->id : NO_OWNER;
	s->ncmds++;
}

/* The oldest command waiting, and the transaction it was sent in (NULL:
 * none, or that one is gone); -1 when none waits. */
static int cmd_pop(SmtpState *s, SmtpTx **owner)
{
	int c;
	uint32_t o;

	*owner = NULL;
	if (!s->ncmds)
		return -1;
	c = s->cmds[s->cmd_head];
	o = s->owners[s->cmd_head];
	s->cmd_head = (s->cmd_head + 1) % CMD_QUEUE;
	s->ncmds--;
	for (SmtpTx *t = o == NO_OWNER ? NULL : s->head; t; t = t->next)
		if ((uint32_t)t->id == o) {
			*owner = t;
			break;
		}
	return c;
}

static int verb_is(const uint8_t *l, uint32_t len, const char *v)
{
	size_t n = strlen(v);

	return len >= n && strncasecmp((const char *)l, v, n) == 0 &&
	       (len == n || l[n] == ' ' || l[n] == '\t' || v[n - 1] == ':');
}

/* The argument after n bytes of verb, blanks trimmed both ends. */
static const uint8_t *arg_of(const uint8_t *l, uint32_t len, uint32_t n, uint32_t *alen)
{
	while (n < len && (l[n] == ' ' || l[n] == '\t'))
		n++;
	while (len > n && (l[len - 1] == ' ' || l[len - 1] == '\t'))
		len--;
	*alen = len - n;
	return l + n;
}

/* MAIL FROM / RCPT TO: the path, up to the first blank: what follows are
 * ESMTP parameters (RFC 1870 SIZE=, ORCPT=), which Suricata leaves out. */
static const uint8_t *path_of(const uint8_t *l, uint32_t len, uint32_t n, uint32_t *alen)
{
	const uint8_t *a = arg_of(l, len, n, alen);
	uint32_t i = 0;

	while (i < *alen && a[i] != ' ' && a[i] != '\t')
		i++;
	*alen = i;
	return a;
}

/* ---------------- attachments as files ---------------- */

/* Each attachment (mime-decode.h's file sink) is a file of the
 * transaction's toserver side, named as the email's attachment list names
 * it, with its first inspected-tracker.content-limit bytes kept for
 * file.data. */
static void *att_open(void *arg, const uint8_t *name, uint32_t len)
{
	SmtpTx *tx = arg;
	File *f = files_open(&tx->files, name, len, tx->id, tx->store_all ? FILE_OPEN_STORE : 0);

	if (f && tx->cfg->content_limit)
		file_keep_data(f, tx->cfg->content_limit);
	return f;
}

static void att_data(void *arg, void *file, const uint8_t *d, uint32_t len)
{
	(void)arg;
	file_append(file, d, len);
}

/* The part ended at its boundary or with the message ("." or the last
 * BDAT chunk): whole; the message cut by the flow's end: truncated. */
static void att_close(void *arg, void *file)
{
	SmtpTx *tx = arg;

	file_close(file, tx->files_cut ? FILE_CLOSE_TRUNCATED : FILE_CLOSE_OK);
}

static const MimeFileSink att_sink = { att_open, att_data, att_close };

static void message_start(SmtpState *s)
{
	if (s->cur && !s->cur->mime) {
		s->cur->mime = mime_msg_new(&s->cfg->mime);
		if (s->cur->mime)
			mime_set_file_sink(s->cur->mime, &att_sink, s->cur);
	}
}

FileContainer *smtp_tx_files(SmtpTx *tx, int dir)
{
	return tx && dir == 0 ? &tx->files : NULL;
}

void smtp_tx_files_store(SmtpState *s, SmtpTx *tx, int flow_scope, uint32_t sid)
{
	if (tx) {
		tx->store_all = 1;
		for (File *f = tx->files.head; f; f = (File *)file_next(f))
			file_mark_store(f, sid);
	}
	/* later transactions, and those already started after this one */
	if (flow_scope && s) {
		s->store_flow = 1;
		for (SmtpTx *t = tx ? tx->next : s->head; t; t = t->next)
			t->store_all = 1;
	}
}

static int parse_u64(const uint8_t *p, uint32_t len, uint64_t *out, uint32_t *used)
{
	uint64_t v = 0;
	uint32_t i = 0;

	while (i < len && isdigit(p[i])) {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(p[i++] - '0');
	}
	if (!i)
		return -1;
	*out = v;
	*used = i;
	return 0;
}

/* The verbs a command line is told by, in the order they are tried. */
static const struct { const char *verb; enum smtp_cmd cmd; } verbs[] = {
	{ "HELO", CMD_HELO }, { "EHLO", CMD_HELO }, { "MAIL FROM:", CMD_MAIL },
	{ "RCPT TO:", CMD_RCPT }, { "DATA", CMD_DATA }, { "BDAT", CMD_BDAT },
	{ "STARTTLS", CMD_STARTTLS }, { "RSET", CMD_RSET }, { "QUIT", CMD_QUIT },
};

/* Whether command c starts a transaction: the session's first command
 * does, and any after the current transaction's message ended or it
 * completed, but RSET and QUIT then do not: they begin no mail (Suricata
 * 8.0.7: no trailing QUIT transaction, suricata-verify smtp-keywords; a
 * QUIT alone is one, smtp-no-helo-quit). A transaction logged and freed
 * leaves s->cur NULL: RSET and QUIT then start nothing either
 * (smtp-pipelined-rset-after-complete). */
static int starts_tx(const SmtpState *s, enum smtp_cmd c)
{
	int closing = c == CMD_RSET || c == CMD_QUIT;

	if (!s->cur)
		return s->ntx == 0 || !closing;
	return (s->cur->done || s->cur->msg_ended) && !closing;
}

/* "BDAT <size> [LAST]" (RFC 3030 2): the chunk's size and whether it is
 * the last; -1 when the line says something else. */
static int bdat_args(const uint8_t *l, uint32_t len, uint64_t *n, int *last)
{
	uint32_t alen, used = 0;
	const uint8_t *a = arg_of(l, len, 4, &alen);

	if (parse_u64(a, alen, n, &used) < 0)
		return -1;
	a += used;
	alen -= used;
	if (alen && a[0] != ' ' && a[0] != '\t')
		return -1;
	while (alen && (*a == ' ' || *a == '\t'))
		a++, alen--;
	*last = alen == 4 && strncasecmp((const char *)a, "LAST", 4) == 0;
	return alen == 0 || *last ? 0 : -1;
}

static void rcpt_add(SmtpTx *t, const uint8_t *a, uint32_t alen)
{
	if (t->nrcpt >= 1024)
		return;
	if (t->nrcpt == t->rcpt_cap) {
		unsigned nc = t->rcpt_cap ? t->rcpt_cap * 2 : 4;
		Bytes *r = app_mem_realloc(ALPROTO_SMTP, t->rcpt, nc * sizeof(*r));

		if (!r)
			return;
		t->rcpt = r;
		t->rcpt_cap = nc;
	}
	memset(&t->rcpt[t->nrcpt], 0, sizeof(t->rcpt[0]));
	if (bytes_set(&t->rcpt[t->nrcpt], a, alen) == 0)
		t->nrcpt++;
}

static void bdat_command(SmtpState *s, const uint8_t *l, uint32_t len)
{
	uint64_t n = 0;
	int last = 0;

	if (bdat_args(l, len, &n, &last) < 0) {
		/* Suricata 8.0.7: an event, not a parser error; the command
		 * still waits for its (refusing) reply, and no chunk follows
		 * (suricata-verify smtp-bdat-bad-tail-reply-queue) */
		set_event(s, SMTP_EV_INVALID_BDAT);
		cmd_push(s, CMD_OTHER);
		return;
	}
	if (s->cur)
		s->cur->data_seen = 1;
	/* the last chunk's reply completes the transaction */
	cmd_push(s, last ? CMD_MSG_END : CMD_BDAT);
	s->bdat_left = n;
	s->bdat_last = last;
	s->bdat_mode = n > 0;
	if (!n && last && s->cur)
		message_close(s->cur);
}

/* A mid-session HELO/EHLO the server accepted resets the session as a
 * RSET does (RFC 5321 4.1.4), which ends the transaction it was sent in
 * when that one had begun a mail: an envelope, or a DATA even refused
 * (Suricata 8.0.7, suricata-verify smtp-ehlo-reset,
 * smtp-ehlo-reset-after-rejected-data). A refused one changes nothing
 * (smtp-rejected-ehlo-preserves-envelope). */
static int mail_begun(const SmtpTx *tx)
{
	return tx->mail_from.p || tx->nrcpt || tx->data_seen;
}

static void command(SmtpState *s, const uint8_t *l, uint32_t len)
{
	enum smtp_cmd c = CMD_OTHER;
	const uint8_t *a;
	uint32_t alen;

	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
		if (verb_is(l, len, verbs[i].verb)) {
			c = verbs[i].cmd;
			break;
		}
	}
	if (starts_tx(s, c))
		tx_new(s);
	switch (c) {
	case CMD_HELO:
		/* the session's name is the first one given: a later HELO is
		 * a duplicate (Suricata's duplicate_fields, suricata-verify
		 * smtp-ehlo-reset) */
		a = arg_of(l, len, 4, &alen);
		if (s->cur && !s->cur->done && mail_begun(s->cur))
			c = CMD_HELO_RESET;
		if (s->helo.p) {
			set_event(s, SMTP_EV_DUPLICATE_FIELDS);
			break;
		}
		bytes_set(&s->helo, a, alen);
		if (s->cur && !s->cur->done)
			bytes_set(&s->cur->helo, a, alen);
		break;
	case CMD_MAIL:
		a = path_of(l, len, 10, &alen);
		if (s->cur && s->cur->mail_from.p)
			set_event(s, SMTP_EV_DUPLICATE_FIELDS);
		else if (s->cur)
			bytes_set(&s->cur->mail_from, a, alen);
		break;
	case CMD_RCPT:
		a = path_of(l, len, 8, &alen);
		if (s->cur)
			rcpt_add(s->cur, a, alen);
		break;
	case CMD_DATA:
		/* a second DATA while the first one's message may still come:
		 * Suricata's unparsable_content, and the command is dropped */
		if (s->cur && s->cur->data_seen && !s->cur->msg_ended) {
			set_event(s, SMTP_EV_UNPARSABLE_CONTENT);
			return;
		}
		/* Suricata takes the lines after DATA as the message at once
		 * only when the server advertised PIPELINING (a pipelining
		 * client does not wait); otherwise its 354 starts the message
		 * (suricata-verify smtp-bug-5989: no server reply is seen, so
		 * the lines after DATA are commands) */
		if (s->pipelining)
			s->data_mode = 1;
		if (s->cur)
			s->cur->data_seen = 1;
		message_start(s);
		if (frames_on(s) && s->data_frame < 0) {
			s->data_start = s->line_end[0];
			s->data_frame = frame_new(s, 0, s->data_start, -1, SMTP_FRAME_DATA);
		}
		break;
	case CMD_BDAT:
		bdat_command(s, l, len);
		return;     /* queued there */
	case CMD_STARTTLS:
		s->wait_tls = 1;
		break;
	case CMD_RSET:
		s->bdat_mode = 0;
		break;
	default:
		break;
	}
	cmd_push(s, c);
}

/* ---------------- the message ---------------- */

/* raw-extraction: the message as it came (dot-stuffing undone, each line
 * with its CRLF) is one file, "rawmsg", as Suricata names it. */
static void raw_line(SmtpTx *tx, const uint8_t *l, uint32_t len, int partial)
{
	if (!tx->raw && tx->files.n == 0) {
		tx->raw = files_open(&tx->files, (const uint8_t *)"rawmsg", 6, tx->id,
				     tx->store_all ? FILE_OPEN_STORE : 0);
		if (tx->raw && tx->cfg->content_limit)
			file_keep_data(tx->raw, tx->cfg->content_limit);
	}
	if (!tx->raw)
		return;
	file_append(tx->raw, l, len);
	if (!partial)
		file_append(tx->raw, (const uint8_t *)"\r\n", 2);
}

/* The open DATA frame ends with the last complete toserver line. */
static void data_frame_end(SmtpState *s)
{
	if (s->data_frame >= 0 && frames_on(s) && s->line_end[0] >= s->data_start)
		s->fsink->set_len(s->fsink_arg, 0, s->data_frame,
				  (int64_t)(s->line_end[0] - s->data_start));
	s->data_frame = -1;
}

static void message_line(SmtpState *s, const uint8_t *l, uint32_t len, int partial, int cont)
{
	MimeMsg *m = s->cur ? s->cur->mime : NULL;

	if (!cont && !partial && len == 1 && l[0] == '.') {
		/* the message ends; the transaction completes with the
		 * server's reply to it */
		s->data_mode = 0;
		data_frame_end(s);
		if (s->cur)
			message_close(s->cur);
		cmd_push(s, CMD_MSG_END);
		return;
	}
	if (!cont && len && l[0] == '.') {
		/* dot-stuffing (RFC 5321 4.5.2) */
		l++;
		len--;
	}
	if (s->cfg->raw_extraction && s->cur)
		raw_line(s->cur, l, len, partial);
	mime_feed_line(m, l, len, partial);
	if (mime_headers_done(m))
		s->cur->headers_done = 1;
}

/* ---------------- replies ---------------- */

static void replay_held_toserver(SmtpState *s);

/* The reply codes Suricata knows (RFC 5321 4.2.3, the AUTH/STARTTLS ones,
 * and RFC 7504's 521, which Postfix gives a bad BDAT before it hangs up:
 * suricata-verify smtp-bdat-bad-tail-next-mail); any other is an invalid
 * reply (smtp-errors). */
static int known_code(int code)
{
	static const uint16_t codes[] = { 211, 214, 220, 221, 235, 250, 251, 252, 334, 354,
					  421, 450, 451, 452, 454, 455, 500, 501, 502, 503, 504,
					  521, 530, 535,
					  550, 551, 552, 553, 554, 555 };

	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (codes[i] == code)
			return 1;
	return 0;
}

/* "PIPELINING", any case, maybe with trailing blanks: an EHLO reply line's
 * keyword after "250-" / "250 ". */
static int is_pipelining(const uint8_t *t, uint32_t len)
{
	while (len && (t[len - 1] == ' ' || t[len - 1] == '\t' || t[len - 1] == '\r'))
		len--;
	return len == 10 && strncasecmp((const char *)t, "PIPELINING", 10) == 0;
}

static void reply(SmtpState *s, const uint8_t *l, uint32_t len)
{
	int code, c;
	SmtpTx *owner;

	if (len < 3 || !isdigit(l[0]) || !isdigit(l[1]) || !isdigit(l[2]) ||
	    (len > 3 && l[3] != ' ' && l[3] != '-')) {
		set_event(s, SMTP_EV_INVALID_REPLY);
		s->errors++;
		s->failed = 1;
		return;
	}
	code = (l[0] - '0') * 100 + (l[1] - '0') * 10 + (l[2] - '0');
	if (!known_code(code)) {
		set_event(s, SMTP_EV_INVALID_REPLY);
		s->errors++;
		s->failed = 1;
		return;
	}
	if (code == 250 && is_pipelining(l + 4, len > 4 ? len - 4 : 0))
		s->pipelining = 1;
	if (len > 3 && l[3] == '-') {
		s->in_multiline = 1;
		return;
	}
	s->in_multiline = 0;
	if (!s->welcome) {
		s->welcome = 1;
		if (!s->ncmds)
			return;     /* the banner */
		if (code != 220)
			set_event(s, SMTP_EV_NO_SERVER_WELCOME_MESSAGE);
		else
			return;
	}
	/* a 354 starts the message of the DATA sent, whichever command the
	 * reply order pairs it with (suricata-verify detect-email-received:
	 * the server's banner runs into its EHLO reply, so the 354 pairs
	 * with the last RCPT) */
	if (code == 354 && s->cur && s->cur->mime && !s->cur->done && !s->cur->msg_ended &&
	    !s->bdat_mode)
		s->data_mode = 1;
	c = cmd_pop(s, &owner);
	if (c < 0) {
		/* a reply no command waits for (one to a second DATA, which is
		 * not queued, say): Suricata's parser lets it go by without
		 * its unable_to_match_reply_with_request event */
		return;
	}
	switch (c) {
	case CMD_STARTTLS:
		s->wait_tls = 0;
		if (code == 220) {
			/* the flow goes on as TLS: this transaction is done, as
			 * Suricata logs it when the protocol changes */
			s->tls = 1;
			tx_finish(s->cur);
			return;
		}
		set_event(s, SMTP_EV_TLS_REJECTED);
		replay_held_toserver(s);
		break;
	case CMD_DATA:
		if (code != 354) {
			set_event(s, SMTP_EV_DATA_COMMAND_REJECTED);
			data_frame_end(s);
			/* the message that began (pipelined) or was to begin
			 * is no message */
			if (owner && !owner->msg_ended) {
				if (owner == s->cur)
					s->data_mode = 0;
				if (owner->mime) {
					mime_msg_free(owner->mime);
					owner->mime = NULL;
				}
			}
		}
		break;
	case CMD_MSG_END:
		/* whatever the server says, the message was sent */
		tx_finish(owner);
		break;
	case CMD_RSET:
		if (code == 250)
			tx_finish(owner);
		break;
	case CMD_HELO_RESET:
		if (code == 250)
			tx_finish(owner);
		break;
	default:
		break;
	}
}

/* ---------------- lines ---------------- */

/* Grows *p (capacity *cap, first first bytes, doubling) to hold need
 * bytes; -1 when the memcap or the allocator refuses. */
static int reserve(uint8_t **p, uint32_t *cap, uint32_t need, uint32_t first)
{
	uint32_t nc = *cap ? *cap : first;
	uint8_t *np;

	if (need <= *cap)
		return 0;
	while (nc < need)
		nc *= 2;
	np = app_mem_realloc(ALPROTO_SMTP, *p, nc);
	if (!np)
		return -1;
	*p = np;
	*cap = nc;
	return 0;
}

static int hold(SmtpState *s, int dir, const uint8_t *d, uint32_t len)
{
	Bytes *h = &s->held[dir];

	if (h->len + len > HELD_MAX)
		len = HELD_MAX - h->len;
	if (!len)
		return 0;
	if (reserve(&h->p, &s->held_cap[dir], h->len + len, 4096) < 0)
		return -1;
	memcpy(h->p + h->len, d, len);
	h->len += len;
	return 0;
}

static int line_add(LineBuf *b, const uint8_t *d, uint32_t len, uint32_t limit)
{
	/* the buffer may hold more than limit already: a message line's
	 * piece kept when the mode changed (found by qa/fuzz) */
	if (b->len + len > limit) {
		b->over = 1;
		len = b->len < limit ? limit - b->len : 0;
	}
	if (!len)
		return 0;
	if (reserve(&b->p, &b->cap, b->len + len, 128) < 0)
		return -1;
	memcpy(b->p + b->len, d, len);
	b->len += len;
	return 0;
}

/* A command line's frames. Suricata 8.0.1 gives each command line two
 * smtp.command_line frames over the same bytes: the line with its CRLF and
 * the line without it (suricata-verify from_base64-04: the AUTH LOGIN user
 * line alerts once as "Z2FsdW50\r\n" and once as "Z2FsdW50"), so a rule
 * anchored with endswith on "|0d 0a|" matches the first only. A line cut
 * for length (no terminator in it) has the one frame. */
static void command_frames(SmtpState *s, const LineBuf *b)
{
	int64_t full = (int64_t)(s->line_end[0] - s->line_start[0]);
	int64_t bare = full;

	frame_new(s, 0, s->line_start[0], full, SMTP_FRAME_COMMAND_LINE);
	if (b->over)
		return;
	/* the buffer holds the line without its LF; a CR before it goes too */
	bare--;
	if (b->len && b->p[b->len - 1] == '\r')
		bare--;
	if (bare > 0)
		frame_new(s, 0, s->line_start[0], bare, SMTP_FRAME_COMMAND_LINE);
}

/* The transaction a reply line belongs to: the one its command was sent
 * in, not one a command pipelined since started (Suricata 8.0.7's
 * response frames); the current one when no command waits. */
static uint64_t reply_tx_id(const SmtpState *s)
{
	uint32_t o = s->ncmds ? s->owners[s->cmd_head] : NO_OWNER;

	for (const SmtpTx *t = o == NO_OWNER ? NULL : s->head; t; t = t->next)
		if ((uint32_t)t->id == o)
			return t->id;
	return s->cur ? s->cur->id : UINT64_MAX;
}

/* A line of dir is complete (or, data lines only, a piece of it). */
static void line_done(SmtpState *s, int dir, int partial)
{
	LineBuf *b = &s->line[dir];
	uint32_t len = b->len;
	int cont = b->partial;

	/* a cut line keeps what it had, its CR too, as Suricata's
	 * (suricata-verify smtp-long-command) */
	if (!partial && !b->over && len && b->p[len - 1] == '\r')
		len--;
	if (dir == 0) {
		if (s->data_mode) {
			message_line(s, b->p, len, partial, cont);
		} else {
			/* the command first: it may start the transaction the
			 * events belong to */
			command(s, b->p, len);
			if (frames_on(s) && !partial && s->line_end[0] > s->line_start[0])
				command_frames(s, b);
			if (len > SMTP_MAX_LINE)
				set_event(s, SMTP_EV_MAX_COMMAND_LINE_LEN_EXCEEDED);
			if (b->over)
				set_event(s, SMTP_EV_TRUNCATED_LINE);
		}
	} else {
		if (len > SMTP_MAX_LINE)
			set_event(s, SMTP_EV_MAX_REPLY_LINE_LEN_EXCEEDED);
		if (b->over)
			set_event(s, SMTP_EV_TRUNCATED_LINE);
		if (frames_on(s) && !partial && s->line_end[1] > s->line_start[1])
			s->fsink->frame(s->fsink_arg, 1, s->line_start[1],
					(int64_t)(s->line_end[1] - s->line_start[1]),
					SMTP_FRAME_RESPONSE_LINE, reply_tx_id(s));
		reply(s, b->p, len);
	}
	b->len = 0;
	b->over = 0;
	b->partial = partial;
}

/* DATA: the message line an input ends in goes on as a piece, as
 * Suricata's parser hands on the data it has, so that a file cut before
 * the line's end (the stream depth, the flow's end) has those bytes too
 * (suricata-verify mime/mime-stream-depth: 51 of the attachment's 63,891
 * bytes come from a 68-character piece). As Suricata's, only when the
 * input began in a part's body (not in headers: mime_takes_pieces, which
 * we narrow to base64, whose pieces decode as the line would) and no line
 * of it began "--" (a boundary maybe: the rest goes line by line); never
 * a line start that may be a boundary or the final ".", nor a trailing CR
 * (the CRLF is stripped whole). */
static void data_piece(SmtpState *s)
{
	LineBuf *b = &s->line[0];
	uint32_t n = b->len;

	if (n && b->p[n - 1] == '\r')
		n--;
	if (!n || b->over || (!b->partial && (b->p[0] == '-' || b->p[0] == '.')))
		return;
	message_line(s, b->p, n, 1, b->partial);
	b->partial = 1;
	b->len -= n;
	if (b->len)
		b->p[0] = '\r';
}

/* Bytes in line mode: split at LF. Returns the bytes used, which is less
 * than len when the mode changed under us (BDAT, STARTTLS, DATA's end). */
static uint32_t lines(SmtpState *s, int dir, const uint8_t *d, uint32_t len, int *pieces)
{
	uint32_t i = 0;

	while (i < len) {
		LineBuf *b = &s->line[dir];
		int data = dir == 0 && s->data_mode;
		uint32_t limit = DATA_LINE_HOLD;
		const uint8_t *lf = memchr(d + i, '\n', len - i);
		uint32_t end = lf ? (uint32_t)(lf - d) : len;

		if (s->fsink && !b->len && !b->partial)
			s->line_start[dir] = frame_off(s, dir, d + i);
		if (data && b->len + (end - i) > limit) {
			/* a long message line: hand a piece on */
			uint32_t take = limit - b->len;

			line_add(b, d + i, take, limit);
			i += take;
			line_done(s, dir, 1);
			continue;
		}
		if (data && !b->partial && b->len + (end - i) >= 2 &&
		    (b->len ? b->p[0] : d[i]) == '-' &&
		    (b->len > 1 ? b->p[1] : d[i + 1 - b->len]) == '-')
			*pieces = 0;
		line_add(b, d + i, end - i, limit);
		if (!lf) {
			if (data && *pieces)
				data_piece(s);
			return len;
		}
		/* the buffer holds the LF too: a line that fills it without
		 * one is cut, its CR kept (suricata-verify smtp-long-command:
		 * 4096 bytes, then the LF) */
		if (b->len >= limit)
			b->over = 1;
		i = end + 1;
		if (s->fsink)
			s->line_end[dir] = frame_off(s, dir, d + i);
		line_done(s, dir, 0);
		if (dir == 0 && (s->bdat_mode || s->wait_tls))
			return i;
		if (s->tls || s->failed)
			return i;
	}
	return i;
}

/* BDAT: the chunk's bytes are counted, each chunk to its own size (RFC
 * 3030 2; Suricata 8.0.7 no longer carries one chunk's count into the
 * next: suricata-verify smtp-bdat-multichunk-inspection). As in Suricata
 * they are not MIME parsed: a BDAT message has no email fields
 * (smtp-bdat-last-next-mail). */
static uint32_t chunk(SmtpState *s, uint32_t len)
{
	uint32_t take = s->bdat_left < len ? (uint32_t)s->bdat_left : len;

	s->bdat_left -= take;
	if (!s->bdat_left) {
		s->bdat_mode = 0;
		if (s->bdat_last && s->cur)
			message_close(s->cur);
	}
	return take;
}

int smtp_parse(SmtpState *s, int dir, const uint8_t *data, uint32_t len)
{
	uint32_t i = 0;
	uint32_t errs = s->errors;
	/* data_piece(): decided as the input begins */
	int pieces = dir == 0 && s->data_mode && s->cur && mime_takes_pieces(s->cur->mime);

	if (dir < 0 || dir > 1 || s->failed)
		return SMTP_ERR;
	s->frame_data[dir] = data;
	while (i < len && !s->failed) {
		if (s->tls || (dir == 0 && s->wait_tls)) {
			hold(s, dir, data + i, len - i);
			break;
		}
		if (dir == 0 && s->bdat_mode)
			i += chunk(s, len - i);
		else
			i += lines(s, dir, data + i, len - i, &pieces);
	}
	if (s->tls)
		return SMTP_TO_TLS;
	return s->errors != errs ? SMTP_ERR : SMTP_OK;
}

/* STARTTLS refused: what the client sent meanwhile is SMTP after all. */
static void replay_held_toserver(SmtpState *s)
{
	Bytes h = s->held[0];

	s->held[0].p = NULL;
	s->held[0].len = 0;
	s->held_cap[0] = 0;
	if (h.p) {
		/* their stream offsets are long gone: no frames for them */
		s->replaying = 1;
		smtp_parse(s, 0, h.p, h.len);
		s->replaying = 0;
	}
	app_mem_free(ALPROTO_SMTP, h.p);
}

void smtp_eof(SmtpState *s, int dir)
{
	if (dir < 0 || dir > 1)
		return;
	if (dir == 0 && s->data_mode && s->cur && s->cur->mime) {
		if (s->line[0].len)
			line_done(s, 0, 0);
		s->cur->files_cut = 1;
		mime_finish(s->cur->mime);
		if (s->cur->raw) {
			file_close(s->cur->raw, FILE_CLOSE_TRUNCATED);
			s->cur->raw = NULL;
		}
	}
	s->eof[dir] = 1;
	/* both sides closed: nothing more comes for any transaction, which
	 * Suricata logs then, on that packet (suricata-verify
	 * smtp-long-command) */
	if (s->eof[0] && s->eof[1])
		for (SmtpTx *t = s->head; t; t = t->next)
			if (!t->done)
				tx_finish(t);
}

uint8_t *smtp_take_held(SmtpState *s, int dir, uint32_t *len)
{
	uint8_t *p;

	if (dir < 0 || dir > 1 || !s->held[dir].p) {
		*len = 0;
		return NULL;
	}
	p = s->held[dir].p;
	*len = s->held[dir].len;
	s->held[dir].p = NULL;
	s->held[dir].len = 0;
	s->held_cap[dir] = 0;
	/* the app layer frees it with free() once the TLS parser has it */
	return app_mem_disown(ALPROTO_SMTP, p);
}
