/* POP3 parser (pop3-parse.h): lines per direction, commands matched to
 * responses in order (pipelining, RFC 2449), multi-line bodies read to
 * their lone dot. Memory: the state's two line buffers, and per
 * transaction its command's arguments and its response's lines, all
 * bounded; counted under app-layer.memcap (app-mem.h). */
#include "app-layer/pop3-parse.h"
#include "app-layer/app-mem.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const event_names[POP3_EV_COUNT] = {
	[POP3_EV_TOO_MANY_TRANSACTIONS] = "too_many_transactions",
	[POP3_EV_REQUEST_TOO_LONG] = "request_too_long",
	[POP3_EV_RESPONSE_TOO_LONG] = "response_too_long",
	[POP3_EV_INVALID_RESPONSE] = "invalid_response",
	[POP3_EV_UNKNOWN_COMMAND] = "unknown_command",
};

const char *pop3_event_name(int ev)
{
	return ev >= 0 && ev < POP3_EV_COUNT ? event_names[ev] : NULL;
}

int pop3_event_by_name(const char *name)
{
	for (int i = 0; i < POP3_EV_COUNT; i++)
		if (strcasecmp(name, event_names[i]) == 0)
			return i;
	return -1;
}

/* RFC 1939, 2449 (CAPA, STLS via 2595, UTF8 6856) and 5034 (AUTH). */
static const char *const commands[] = {
	"USER", "PASS", "APOP", "AUTH", "CAPA", "STLS", "STAT", "LIST", "RETR", "DELE",
	"NOOP", "RSET", "TOP", "UIDL", "QUIT", "UTF8", "LANG",
};

static int known_command(const char *k)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(k, commands[i]) == 0)
			return 1;
	return 0;
}

Pop3State *pop3_state_new(void)
{
	return app_mem_calloc(ALPROTO_POP3, 1, sizeof(Pop3State));
}

static void tx_free(Pop3Tx *t, void (*free_detect)(void *))
{
	if (t->detect && free_detect)
		free_detect(t->detect);
	for (uint32_t i = 0; i < t->nargs; i++)
		app_mem_free(ALPROTO_POP3, t->args[i].p);
	app_mem_free(ALPROTO_POP3, t->header.p);
	for (uint32_t i = 0; i < t->ndata; i++)
		app_mem_free(ALPROTO_POP3, t->data[i].p);
	app_mem_free(ALPROTO_POP3, t->data);
	app_mem_free(ALPROTO_POP3, t);
}

void pop3_state_free(Pop3State *s, void (*free_detect)(void *))
{
	if (!s)
		return;
	for (Pop3Tx *t = s->head, *n; t; t = n) {
		n = t->next;
		tx_free(t, free_detect);
	}
	app_mem_free(ALPROTO_POP3, s);
}

static int bytes_set(Pop3Bytes *b, const uint8_t *p, uint32_t n)
{
	b->p = app_mem_malloc(ALPROTO_POP3, n ? n : 1);
	if (!b->p)
		return -1;
	memcpy(b->p, p, n);
	b->len = n;
	return 0;
}

static Pop3Tx *tx_new(Pop3State *s)
{
	Pop3Tx *t;

	if (s->ntx >= POP3_MAX_TX) {
		if (s->tail)
			s->tail->events |= 1u << POP3_EV_TOO_MANY_TRANSACTIONS;
		return NULL;
	}
	t = app_mem_calloc(ALPROTO_POP3, 1, sizeof(*t));
	if (!t)
		return NULL;
	t->id = s->next_id++;
	if (s->tail)
		s->tail->next = t;
	else
		s->head = t;
	s->tail = t;
	s->ntx++;
	t->events |= s->pending_events;
	s->pending_events = 0;
	return t;
}

/* The oldest transaction still waiting for (the rest of) its response. */
static Pop3Tx *waiting(Pop3State *s)
{
	for (Pop3Tx *t = s->head; t; t = t->next)
		if (t->has_request && !t->response_done)
			return t;
	return NULL;
}

/* A +OK to it has a body (RFC 1939 5, RFC 2449 5, RFC 5034 4). */
static int multi_line(const Pop3Tx *t)
{
	const char *c = t->command;

	if (!strcmp(c, "CAPA") || !strcmp(c, "RETR") || !strcmp(c, "TOP"))
		return 1;
	return (!strcmp(c, "LIST") || !strcmp(c, "UIDL") || !strcmp(c, "AUTH")) && t->nargs == 0;
}

static int command_line(Pop3State *s, const uint8_t *p, uint32_t n)
{
	Pop3Tx *t = waiting(s);
	uint32_t i = 0, k = 0;

	/* the client's answer to a SASL challenge ("+ ..."): part of its AUTH,
	 * no command */
	if (t && t->continuation) {
		t->continuation = 0;
		return 0;
	}
	t = tx_new(s);
	if (!t)
		return 0;
	t->has_request = 1;
	if (s->side[0].overflow)
		t->events |= 1u << POP3_EV_REQUEST_TOO_LONG;
	while (i < n && p[i] != ' ') {
		if (k + 1 < sizeof(t->command))
			t->command[k++] = (char)toupper(p[i]);
		i++;
	}
	t->command[k] = 0;
	if (!known_command(t->command))
		t->events |= 1u << POP3_EV_UNKNOWN_COMMAND;
	/* the arguments, one per space-separated word */
	while (i < n && t->nargs < POP3_MAX_ARGS) {
		uint32_t a;

		while (i < n && p[i] == ' ')
			i++;
		if (i >= n)
			break;
		a = i;
		while (i < n && p[i] != ' ')
			i++;
		if (bytes_set(&t->args[t->nargs], p + a, i - a) < 0)
			return -1;
		t->nargs++;
	}
	t->multi = (uint8_t)multi_line(t);
	return 0;
}

static int data_line(Pop3Tx *t, const uint8_t *p, uint32_t n)
{
	/* dot-unstuffing (RFC 1939 3) */
	if (n && p[0] == '.') {
		p++;
		n--;
	}
	if (t->ndata >= POP3_MAX_DATA_LINES || t->data_bytes + n > POP3_MAX_DATA_BYTES) {
		t->data_dropped++;
		return 0;
	}
	if (t->ndata == t->data_cap) {
		uint32_t cap = t->data_cap ? t->data_cap * 2 : 8;
		Pop3Bytes *v = app_mem_realloc(ALPROTO_POP3, t->data, cap * sizeof(*v));

		if (!v)
			return -1;
		t->data = v;
		t->data_cap = cap;
	}
	if (bytes_set(&t->data[t->ndata], p, n) < 0)
		return -1;
	t->ndata++;
	t->data_bytes += n;
	return 0;
}

static int response_line(Pop3State *s, const uint8_t *p, uint32_t n)
{
	Pop3Tx *t = waiting(s);
	uint32_t skip;
	int ok;

	/* the body of a multi-line +OK, up to its lone dot */
	if (t && t->has_response && !t->response_done) {
		if (n == 1 && p[0] == '.') {
			t->response_done = 1;
			return 0;
		}
		return data_line(t, p, n);
	}
	if (n >= 3 && memcmp(p, "+OK", 3) == 0 && (n == 3 || p[3] == ' ')) {
		ok = 1;
		skip = 3;
	} else if (n >= 4 && memcmp(p, "-ERR", 4) == 0 && (n == 4 || p[4] == ' ')) {
		ok = 0;
		skip = 4;
	} else if (n >= 1 && p[0] == '+' && (n == 1 || p[1] == ' ')) {
		/* a SASL continuation (RFC 5034): the exchange goes on */
		if (t) {
			t->continuation = 1;
			return 0;
		}
		ok = 1;
		skip = 1;
	} else {
		if (t)
			t->events |= 1u << POP3_EV_INVALID_RESPONSE;
		else if (s->tail)
			s->tail->events |= 1u << POP3_EV_INVALID_RESPONSE;
		else
			s->pending_events |= 1u << POP3_EV_INVALID_RESPONSE;
		return 0;
	}
	if (skip < n && p[skip] == ' ')
		skip++;
	/* a response nobody asked for (the greeting): its own transaction */
	if (!t) {
		t = tx_new(s);
		if (!t)
			return 0;
	}
	t->has_response = 1;
	t->success = (uint8_t)ok;
	if (s->side[1].overflow)
		t->events |= 1u << POP3_EV_RESPONSE_TOO_LONG;
	if (bytes_set(&t->header, p + skip, n - skip) < 0)
		return -1;
	if (!(ok && t->multi))
		t->response_done = 1;
	if (ok && t->has_request && strcmp(t->command, "STLS") == 0)
		s->stls = 1;
	return 0;
}

int pop3_parse(Pop3State *s, int dir, const uint8_t *data, uint32_t len, uint32_t *used)
{
	Pop3Side *sd = &s->side[dir & 1];
	uint32_t i = 0;

	*used = 0;
	while (i < len && !s->stls) {
		const uint8_t *nl = memchr(data + i, '\n', len - i);
		uint32_t take = nl ? (uint32_t)(nl - (data + i)) : len - i;
		uint32_t room = POP3_MAX_LINE - sd->len;
		uint32_t n;
		int rc;

		/* keep what fits; a longer line is cut there (flagged) */
		if (take > room) {
			sd->overflow = 1;
			memcpy(sd->line + sd->len, data + i, room);
			sd->len += room;
		} else {
			memcpy(sd->line + sd->len, data + i, take);
			sd->len += take;
		}
		if (!nl) {
			i = len;
			break;
		}
		i += take + 1;
		n = sd->len;
		if (n && sd->line[n - 1] == '\r')
			n--;
		rc = dir == 0 ? command_line(s, sd->line, n) : response_line(s, sd->line, n);
		sd->len = 0;
		sd->overflow = 0;
		if (rc < 0) {
			*used = i;
			return -1;
		}
	}
	*used = i;
	return 0;
}

void pop3_gap(Pop3State *s, int dir)
{
	s->side[dir & 1].len = 0;
	s->side[dir & 1].overflow = 0;
}

int pop3_tx_done(const Pop3Tx *t, int dir)
{
	if (dir == 0)
		return t->has_request || t->has_response;
	return t->response_done;
}

void pop3_tx_gc(Pop3State *s, unsigned need, void (*free_detect)(void *))
{
	while (s->head && (s->head->app_flags & need) == need && s->head->response_done) {
		Pop3Tx *t = s->head;

		s->head = t->next;
		if (!s->head)
			s->tail = NULL;
		s->ntx--;
		tx_free(t, free_detect);
	}
}

int pop3_probe(int dir, const uint8_t *buf, uint32_t len)
{
	char k[5];
	uint32_t i;

	if (dir == 1) {
		if (len < 3)
			return memcmp(buf, "+OK", len) == 0 ? -1 : 0;
		return memcmp(buf, "+OK", 3) == 0 && (len == 3 || buf[3] == ' ' || buf[3] == '\r');
	}
	for (i = 0; i < len && i < 4 && buf[i] != ' ' && buf[i] != '\r'; i++)
		k[i] = (char)toupper(buf[i]);
	k[i] = 0;
	if (i == len && len < 5)
		return -1;
	return (i == 3 || i == 4) && known_command(k);
}
