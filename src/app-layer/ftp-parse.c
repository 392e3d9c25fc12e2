/* FTP control-connection parser (see ftp-parse.h). */
#include "app-layer/ftp-parse.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const ev_names[FTP_EV_COUNT] = {
	[FTP_EV_UNSUPPORTED_COMMAND] = "unsupported_command",
	[FTP_EV_REQUEST_TOO_LONG] = "request_command_too_long",
	[FTP_EV_RESPONSE_TOO_LONG] = "response_command_too_long",
	[FTP_EV_TOO_MANY_TX] = "too_many_transactions",
	[FTP_EV_FILE_BEFORE_PORT] = "file_before_port",
	[FTP_EV_FILE_WITHOUT_NAME] = "file_without_name",
};

const char *ftp_event_name(int ev)
{
	return ev >= 0 && ev < FTP_EV_COUNT ? ev_names[ev] : NULL;
}

int ftp_event_by_name(const char *name)
{
	for (int i = 0; name && i < FTP_EV_COUNT; i++)
		if (strcasecmp(name, ev_names[i]) == 0)
			return i;
	return -1;
}

/* RFC 959 and its extensions (RFC 2228, 2389, 2428, 2640, 3659, ...). */
static const struct {
	const char *name;
	uint8_t cmd;
} commands[] = {
	{ "ABOR", FTP_CMD_OTHER }, { "ACCT", FTP_CMD_OTHER }, { "ADAT", FTP_CMD_OTHER },
	{ "ALLO", FTP_CMD_OTHER }, { "APPE", FTP_CMD_OTHER }, { "AUTH", FTP_CMD_OTHER },
	{ "CCC", FTP_CMD_OTHER }, { "CDUP", FTP_CMD_OTHER }, { "CHMOD", FTP_CMD_OTHER },
	{ "CONF", FTP_CMD_OTHER }, { "CWD", FTP_CMD_OTHER }, { "DELE", FTP_CMD_OTHER },
	{ "ENC", FTP_CMD_OTHER }, { "EPRT", FTP_CMD_EPRT }, { "EPSV", FTP_CMD_EPSV },
	{ "FEAT", FTP_CMD_OTHER }, { "HELP", FTP_CMD_OTHER }, { "HOST", FTP_CMD_OTHER },
	{ "IDLE", FTP_CMD_OTHER }, { "LANG", FTP_CMD_OTHER }, { "LIST", FTP_CMD_OTHER },
	{ "LPRT", FTP_CMD_OTHER }, { "LPSV", FTP_CMD_OTHER }, { "MAIL", FTP_CMD_OTHER },
	{ "MDTM", FTP_CMD_OTHER }, { "MIC", FTP_CMD_OTHER }, { "MKD", FTP_CMD_OTHER },
	{ "MLFL", FTP_CMD_OTHER }, { "MLSD", FTP_CMD_OTHER }, { "MLST", FTP_CMD_OTHER },
	{ "MODE", FTP_CMD_OTHER }, { "MRCP", FTP_CMD_OTHER }, { "MRSQ", FTP_CMD_OTHER },
	{ "MSAM", FTP_CMD_OTHER }, { "MSND", FTP_CMD_OTHER }, { "MSOM", FTP_CMD_OTHER },
	{ "NLST", FTP_CMD_OTHER }, { "NOOP", FTP_CMD_OTHER }, { "OPTS", FTP_CMD_OTHER },
	{ "PASS", FTP_CMD_PASS }, { "PASV", FTP_CMD_PASV }, { "PBSZ", FTP_CMD_OTHER },
	{ "PORT", FTP_CMD_PORT }, { "PROT", FTP_CMD_OTHER }, { "PWD", FTP_CMD_OTHER },
	{ "QUIT", FTP_CMD_OTHER }, { "REIN", FTP_CMD_OTHER }, { "REST", FTP_CMD_OTHER },
	{ "RETR", FTP_CMD_RETR }, { "RMD", FTP_CMD_OTHER }, { "RNFR", FTP_CMD_OTHER },
	{ "RNTO", FTP_CMD_OTHER }, { "SITE", FTP_CMD_OTHER }, { "SIZE", FTP_CMD_OTHER },
	{ "SMNT", FTP_CMD_OTHER }, { "STAT", FTP_CMD_OTHER }, { "STOR", FTP_CMD_STOR },
	{ "STOU", FTP_CMD_OTHER }, { "STRU", FTP_CMD_OTHER }, { "SYST", FTP_CMD_OTHER },
	{ "TYPE", FTP_CMD_OTHER }, { "UMASK", FTP_CMD_OTHER }, { "USER", FTP_CMD_USER },
	{ "XCUP", FTP_CMD_OTHER }, { "XCWD", FTP_CMD_OTHER }, { "XMKD", FTP_CMD_OTHER },
	{ "XPWD", FTP_CMD_OTHER }, { "XRMD", FTP_CMD_OTHER },
};

const char *ftp_command_lookup(const char *s, size_t len, uint8_t *cmd)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strlen(commands[i].name) == len && strncasecmp(commands[i].name, s, len) == 0) {
			*cmd = commands[i].cmd;
			return commands[i].name;
		}
	}
	*cmd = FTP_CMD_UNKNOWN;
	return NULL;
}

int ftp_probe(int dir, const uint8_t *buf, size_t len)
{
	static const char *const ts[] = { "USER ", "PASS ", "PORT ", "FEAT" };
	static const char *const tc[] = { "220 (" };
	const char *const *pats = dir == FTP_TOSERVER ? ts : tc;
	size_t np = dir == FTP_TOSERVER ? 4 : 1;
	int more = 0;

	for (size_t i = 0; i < np; i++) {
		size_t pl = strlen(pats[i]), n = len < pl ? len : pl;

		if (strncasecmp((const char *)buf, pats[i], n) != 0)
			continue;
		if (len >= pl)
			return 1;
		more = 1;
	}
	return more ? -1 : 0;
}

FtpState *ftp_state_new(uint32_t max_line, uint32_t max_tx)
{
	FtpState *s = calloc(1, sizeof(*s));

	if (s) {
		s->max_line = max_line ? max_line : FTP_MAX_LINE_DEFAULT;
		s->max_tx = max_tx;
	}
	return s;
}

void ftp_tx_free(FtpTx *tx)
{
	if (!tx)
		return;
	for (unsigned i = 0; i < tx->nreplies; i++)
		free(tx->replies[i].text);
	free(tx->replies);
	free(tx->cmd_data);
	free(tx);
}

void ftp_state_free(FtpState *s)
{
	FtpTx *t, *n;

	if (!s)
		return;
	for (t = s->head; t; t = n) {
		n = t->next;
		ftp_tx_free(t);
	}
	free(s->line[0].buf);
	free(s->line[1].buf);
	free(s);
}

static FtpTx *tx_new(FtpState *s)
{
	FtpTx *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->id = s->next_id++;
	if (s->tail)
		s->tail->next = t;
	else
		s->head = t;
	s->tail = t;
	s->ntx++;
	s->memuse += sizeof(*t);
	return t;
}

FtpTx *ftp_tx_by_id(FtpState *s, uint64_t id)
{
	FtpTx *t = s->hint && s->hint->id <= id ? s->hint : s->head;

	for (; t && t->id <= id; t = t->next) {
		if (t->id == id) {
			s->hint = t;
			return t;
		}
	}
	return NULL;
}

unsigned ftp_gc(FtpState *s, int (*ok)(const FtpTx *tx, unsigned need), unsigned need)
{
	FtpTx **pp = &s->head, *prev = NULL;
	unsigned n = 0;

	s->hint = NULL;

	while (*pp) {
		FtpTx *t = *pp;

		if (t != s->reply_tx && t != s->last_request && t != s->last_done && ok(t, need)) {
			*pp = t->next;
			if (s->tail == t)
				s->tail = prev;
			s->ntx--;
			ftp_tx_free(t);
			n++;
			continue;
		}
		prev = t;
		pp = &t->next;
	}
	return n;
}

static uint16_t num(const char **p, const char *end, unsigned max, int *ok)
{
	unsigned v = 0, digits = 0;

	while (*p < end && **p >= '0' && **p <= '9' && digits < 6) {
		v = v * 10 + (unsigned)(**p - '0');
		(*p)++;
		digits++;
	}
	*ok = digits > 0 && v <= max;
	return (uint16_t)v;
}

uint16_t ftp_parse_port6(const char *s, size_t len, uint8_t addr[4])
{
	const char *end = s + len;

	/* the first run of six comma-separated numbers */
	for (const char *start = s; start < end; start++) {
		const char *p = start;
		unsigned v[6];
		int ok = 1, i;

		if (*start < '0' || *start > '9' || (start > s && start[-1] >= '0' && start[-1] <= '9'))
			continue;
		for (i = 0; i < 6 && ok; i++) {
			while (p < end && *p == ' ')
				p++;
			v[i] = num(&p, end, 255, &ok);
			while (p < end && *p == ' ')
				p++;
			if (i < 5 && (p >= end || *p != ','))
				ok = 0;
			else if (i < 5)
				p++;
		}
		if (!ok)
			continue;
		for (i = 0; i < 4; i++)
			addr[i] = (uint8_t)v[i];
		return (uint16_t)(v[4] * 256 + v[5]);
	}
	return 0;
}

uint16_t ftp_parse_eprt(const char *s, size_t len, uint8_t addr[16], uint8_t *family)
{
	const char *end = s + len, *p = s, *a0, *a1;
	char d, tmp[64];
	int ok;
	uint16_t af, port;

	while (p < end && *p == ' ')
		p++;
	if (p >= end)
		return 0;
	d = *p++;                   /* the delimiter, "|" mostly */
	af = num(&p, end, 2, &ok);
	if (!ok || af < 1 || p >= end || *p != d)
		return 0;
	a0 = ++p;
	while (p < end && *p != d)
		p++;
	if (p >= end)
		return 0;
	a1 = p++;
	port = num(&p, end, 65535, &ok);
	if (!ok || p >= end || *p != d || (size_t)(a1 - a0) >= sizeof(tmp))
		return 0;
	memcpy(tmp, a0, (size_t)(a1 - a0));
	tmp[a1 - a0] = '\0';
	memset(addr, 0, 16);
	*family = af == 1 ? 4 : 6;
	if (af == 1) {
		const char *q = tmp, *qe = tmp + strlen(tmp);

		for (int i = 0; i < 4; i++) {
			addr[i] = (uint8_t)num(&q, qe, 255, &ok);
			if (!ok || (i < 3 && (q >= qe || *q++ != '.')))
				return 0;
		}
	} else {
		*family = 6;        /* the address itself is not needed as text */
	}
	return port;
}

uint16_t ftp_parse_epsv(const char *s, size_t len)
{
	const char *end = s + len;

	for (const char *p = s; p + 3 < end; p++) {
		if (p[0] == p[1] && p[1] == p[2] && !isalnum((unsigned char)p[0]) && p[0] != ' ' &&
		    p[0] != '(') {
			const char *q = p + 3;
			int ok;
			uint16_t port = num(&q, end, 65535, &ok);

			if (ok && q < end && *q == p[0])
				return port;
		}
	}
	return 0;
}

static char *dup_n(FtpState *s, const char *p, size_t n)
{
	char *d = malloc(n + 1);

	if (!d)
		return NULL;
	memcpy(d, p, n);
	d[n] = '\0';
	s->memuse += n + 1;
	return d;
}

static FtpTx *oldest_waiting(FtpState *s)
{
	for (FtpTx *t = s->head; t; t = t->next)
		if (t->has_request && !t->done)
			return t;
	return NULL;
}

static void on_request(FtpState *s, const char *l, uint32_t n, bool truncated, ftp_tx_fn fn,
		       void *arg)
{
	uint32_t i = 0, c;
	FtpTx *t;

	while (n && (l[n - 1] == '\r' || l[n - 1] == '\n'))
		n--;
	if (!n)
		return;
	while (i < n && l[i] != ' ')
		i++;
	c = i;
	if (s->max_tx && s->nwaiting >= s->max_tx) {
		/* Suricata 8.0.6 (redmine 8489): the event goes to the oldest
		 * command still waiting for its reply, and the parser stops
		 * there; a burst past the limit raises it once. */
		FtpTx *w = oldest_waiting(s);

		if (!w)
			w = s->tail;
		if (w)
			w->events |= 1u << FTP_EV_TOO_MANY_TX;
		else
			s->events |= 1u << FTP_EV_TOO_MANY_TX;
		s->stopped = true;
		return;
	}
	t = tx_new(s);
	if (!t)
		return;
	t->has_request = true;
	s->nwaiting++;
	t->cmd_name = ftp_command_lookup(l, c, &t->cmd);
	t->cmd_truncated = truncated;
	if (truncated)
		t->events |= 1u << FTP_EV_REQUEST_TOO_LONG;
	if (c < n) {
		t->cmd_data = dup_n(s, l + c + 1, n - c - 1);
		t->cmd_data_len = t->cmd_data ? n - c - 1 : 0;
	}
	if (t->cmd_data && (t->cmd == FTP_CMD_PORT || t->cmd == FTP_CMD_EPRT)) {
		t->mode = FTP_MODE_ACTIVE;
		if (t->cmd == FTP_CMD_PORT) {
			t->dyn_port = ftp_parse_port6(t->cmd_data, t->cmd_data_len, t->port_addr);
			t->port_addr_family = t->dyn_port ? 4 : 0;
		} else {
			t->dyn_port = ftp_parse_eprt(t->cmd_data, t->cmd_data_len, t->port_addr,
						     &t->port_addr_family);
			if (!t->dyn_port)
				t->port_addr_family = 0;
		}
	}
	s->last_request = t;
	if (fn)
		fn(arg, s, t, FTP_TOSERVER);
}

static void add_reply(FtpState *s, FtpTx *t, const char *code, const char *text, uint32_t n)
{
	t->replies_total++;
	if (t->nreplies == FTP_MAX_REPLY_LINES)
		return;
	if (t->nreplies == t->cap_replies) {
		uint16_t nc = t->cap_replies ? (uint16_t)(t->cap_replies * 2) : 2;
		FtpReplyLine *nr;

		if (nc > FTP_MAX_REPLY_LINES)
			nc = FTP_MAX_REPLY_LINES;
		nr = realloc(t->replies, nc * sizeof(*nr));
		if (!nr)
			return;
		t->replies = nr;
		t->cap_replies = nc;
		s->memuse += (nc - t->nreplies) * sizeof(*nr);
	}
	{
		FtpReplyLine *r = &t->replies[t->nreplies];

		memcpy(r->code, code, 4);
		r->text = dup_n(s, text, n);
		if (!r->text)
			return;
		r->len = n;
		t->nreplies++;
	}
}

static void on_reply(FtpState *s, const char *l, uint32_t n, bool truncated, ftp_tx_fn fn,
		     void *arg)
{
	char code[4] = "";
	const char *text = l;
	uint32_t tn;
	bool has_code, final;
	FtpTx *t;

	while (n && (l[n - 1] == '\r' || l[n - 1] == '\n'))
		n--;
	has_code = n >= 3 && isdigit((unsigned char)l[0]) && isdigit((unsigned char)l[1]) &&
		   isdigit((unsigned char)l[2]) && (n == 3 || l[3] == ' ' || l[3] == '-');
	if (has_code) {
		memcpy(code, l, 3);
		code[3] = '\0';
		text = n > 3 ? l + 4 : l + 3;
	}
	tn = (uint32_t)(n - (uint32_t)(text - l));
	if (!n && !s->multi_code[0])
		return;
	t = s->reply_tx;
	if (!t) {
		/* the oldest command waiting; else the newest transaction (as
		 * Suricata: an unsolicited line does not open a transaction);
		 * else a transaction of its own: the greeting */
		t = oldest_waiting(s);
		if (!t)
			t = s->tail;
		if (!t) {
			t = tx_new(s);
			if (!t)
				return;
		}
	}
	if (truncated) {
		t->reply_truncated = true;
		t->events |= 1u << FTP_EV_RESPONSE_TOO_LONG;
	}
	add_reply(s, t, code, text, tn);
	if (s->multi_code[0]) {
		/* inside a multi-line reply: "ddd " with its code ends it */
		final = has_code && n > 3 && l[3] == ' ' && memcmp(code, s->multi_code, 3) == 0;
		final = final || (has_code && n == 3 && memcmp(code, s->multi_code, 3) == 0);
	} else if (has_code && n > 3 && l[3] == '-') {
		memcpy(s->multi_code, code, 4);
		final = false;
	} else {
		final = true;
	}
	if (!final) {
		s->reply_tx = t;
		return;
	}
	s->multi_code[0] = '\0';
	s->reply_tx = NULL;
	if (!has_code && !t->replies_total)
		return;
	if (code[0] == '1' && t->has_request)
		return;             /* preliminary: the final reply follows */
	if (has_code && strcmp(code, "227") == 0) {
		uint8_t a[4];

		t->dyn_port = ftp_parse_port6(text, tn, a);
		t->mode = FTP_MODE_PASSIVE;
	} else if (has_code && strcmp(code, "229") == 0) {
		t->dyn_port = ftp_parse_epsv(text, tn);
		t->mode = FTP_MODE_PASSIVE;
	}
	if (t->has_request && !t->done)
		s->nwaiting--;
	t->done = true;
	s->last_done = t;
	if (fn)
		fn(arg, s, t, FTP_TOCLIENT);
}

static int buf_append(FtpLineBuf *b, uint32_t max, const uint8_t *p, size_t n)
{
	if (b->len + n > max) {
		b->truncated = true;
		n = max - b->len;
	}
	if (!n)
		return 0;
	if (b->len + n > b->cap) {
		uint32_t nc = b->cap ? b->cap : 256;
		char *nb;

		while (nc < b->len + n)
			nc *= 2;
		if (nc > max)
			nc = max;
		nb = realloc(b->buf, nc);
		if (!nb)
			return -1;
		b->buf = nb;
		b->cap = nc;
	}
	memcpy(b->buf + b->len, p, n);
	b->len += (uint32_t)n;
	return 0;
}

static void line_done(FtpState *s, int dir, ftp_tx_fn fn, void *arg)
{
	FtpLineBuf *b = &s->line[dir];

	if (dir == FTP_TOSERVER)
		on_request(s, b->buf, b->len, b->truncated, fn, arg);
	else
		on_reply(s, b->buf, b->len, b->truncated, fn, arg);
	b->len = 0;
	b->truncated = false;
}

int ftp_parse(FtpState *s, int dir, const uint8_t *data, size_t len, ftp_tx_fn fn, void *arg)
{
	FtpLineBuf *b;

	if (!s || dir < 0 || dir > 1)
		return -1;
	b = &s->line[dir];
	if (dir == FTP_TOSERVER)
		s->last_request = NULL;
	else
		s->last_done = NULL;
	while (len && !s->stopped) {
		const uint8_t *nl = memchr(data, '\n', len);
		size_t n = nl ? (size_t)(nl - data) : len;

		/* the line's bytes beyond max_line are dropped (truncated) */
		if (buf_append(b, s->max_line, data, n) < 0)
			b->truncated = true;
		if (!nl)
			return 0;
		line_done(s, dir, fn, arg);
		data += n + 1;
		len -= n + 1;
	}
	return 0;
}

void ftp_eof(FtpState *s, int dir, ftp_tx_fn fn, void *arg)
{
	if (s && dir >= 0 && dir <= 1 && s->line[dir].len && !s->stopped)
		line_done(s, dir, fn, arg);
}
