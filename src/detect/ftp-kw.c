/* FTP and ftp-data keywords, as Suricata 8 documents them
 * (rules/ftp-keywords): the sticky buffers ftp.command and
 * ftp.command_data (the request), ftp.reply and ftp.completion_code (one
 * entry per reply line), read from the transaction being inspected; the
 * transaction properties ftp.dynamic_port, ftp.mode and ftp.reply_received;
 * ftpdata_command (retr, stor) on ftp-data flows; and ftpbounce, a PORT
 * command (its request side) whose address is not the client's: alone, a
 * transaction property; beside payload content (ET's rules), checked on the
 * packet or stream chunk against the flow's latest PORT. */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "detect/buffers.h"
#include "app-layer/ftp.h"

#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int sig_set_alproto(SigParseState *st, const char *kwname, uint16_t alproto)
{
	Signature *s = st->s;

	if (s->alproto != ALPROTO_UNKNOWN && s->alproto != alproto)
		return sig_error(st, "%s: the rule is a %s rule already", kwname,
				 app_proto_name(s->alproto));
	if (s->proto != IPPROTO_TCP && s->proto != SIG_PROTO_IP)
		return sig_error(st, "%s needs a %s, tcp or ip rule", kwname, app_proto_name(alproto));
	s->alproto = alproto;
	s->flags |= SIG_FLAG_APPLAYER;
	return 0;
}

static int kw_ftp_sticky(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)arg;
	if (sig_set_alproto(st, kw->name, ALPROTO_FTP))
		return -1;
	return sig_select_buffer(st, kw->buf);
}

int ftp_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		   const uint8_t **data, uint32_t *len)
{
	const FtpTx *t = tx;

	switch (b->pbuf[side & 1]) {
	case FTP_KW_BUF_COMMAND:
		if (idx || !t->cmd_name)
			return -1;
		*data = (const uint8_t *)t->cmd_name;
		*len = (uint32_t)strlen(t->cmd_name);
		return 0;
	case FTP_KW_BUF_COMMAND_DATA:
		if (idx || !t->cmd_data)
			return -1;
		*data = (const uint8_t *)t->cmd_data;
		*len = t->cmd_data_len;
		return 0;
	case FTP_KW_BUF_REPLY:
		if (idx >= t->nreplies)
			return -1;
		*data = (const uint8_t *)t->replies[idx].text;
		*len = t->replies[idx].len;
		return 0;
	case FTP_KW_BUF_COMPLETION_CODE: {
		/* the lines that have a code, in order */
		uint32_t k = 0;

		for (unsigned i = 0; i < t->nreplies; i++) {
			if (!t->replies[i].code[0])
				continue;
			if (k++ == idx) {
				*data = (const uint8_t *)t->replies[i].code;
				*len = 3;
				return 0;
			}
		}
		return -1;
	}
	}
	return -1;
}

/* ---- matchers ---- */

enum ftp_match_kind { FM_DYN_PORT, FM_MODE, FM_REPLY_RECEIVED, FM_DATA_COMMAND, FM_BOUNCE };

typedef struct DetectFtp {
	int kind;
	DetectUint u;               /* dynamic_port */
	int val;                    /* mode (enum ftp_mode), reply_received (0/1), command */
} DetectFtp;

static int parse_yes_no(const char *v, int *out)
{
	static const char *const yes[] = { "yes", "on", "true", "1" };
	static const char *const no[] = { "no", "off", "false", "0" };

	for (int i = 0; i < 4; i++) {
		if (strcasecmp(v, yes[i]) == 0)
			return *out = 1, 0;
		if (strcasecmp(v, no[i]) == 0)
			return *out = 0, 0;
	}
	return -1;
}

static int kw_ftp_match(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectFtp *d = calloc(1, sizeof(*d));
	char *v = str_trim_dup(arg ? arg : "", 1);
	int rc = -1;

	if (!d || !v) {
		free(d);
		free(v);
		return sig_error(st, "out of memory");
	}
	d->kind = kw->buf;
	switch (d->kind) {
	case FM_DYN_PORT:
		rc = parse_uint_cmp(v, 65535, &d->u);
		break;
	case FM_MODE:
		if (strcasecmp(v, "active") == 0)
			d->val = FTP_MODE_ACTIVE, rc = 0;
		else if (strcasecmp(v, "passive") == 0)
			d->val = FTP_MODE_PASSIVE, rc = 0;
		break;
	case FM_REPLY_RECEIVED:
		rc = parse_yes_no(v, &d->val);
		break;
	case FM_BOUNCE:
		rc = 0;
		break;
	case FM_DATA_COMMAND:
		if (strcasecmp(v, "retr") == 0)
			d->val = FTP_CMD_RETR, rc = 0;
		else if (strcasecmp(v, "stor") == 0)
			d->val = FTP_CMD_STOR, rc = 0;
		break;
	}
	free(v);
	if (rc != 0) {
		free(d);
		return sig_error(st, "invalid %s \"%s\"", kw->name, arg ? arg : "");
	}
	if (sig_set_alproto(st, kw->name, d->kind == FM_DATA_COMMAND ? ALPROTO_FTPDATA : ALPROTO_FTP)) {
		free(d);
		return -1;
	}
	st->s->flags |= SIG_FLAG_TX_MATCH;
	return sm_append(st, SM_LIST_MATCH, kw->id, d) < 0 ? -1 : 0;
}

/* A transaction property of the transaction being inspected (tc->tx). */
static int match_ftp(const DetectTx *tc, const SigMatch *m, Packet *p)
{
	const DetectFtp *d = m->ctx;
	const Flow *f = p->flow;

	if (!f)
		return 0;
	if (!tc->tx) {
		/* ftpbounce in a rule with payload content (ET's "PORT" rules):
		 * a packet or stream rule, on the flow's latest PORT */
		return d->kind == FM_BOUNCE && ftp_flow_port_bounce(f);
	}
	if (d->kind == FM_DATA_COMMAND) {
		const FtpDataInfo *di;

		if (f->app_proto != ALPROTO_FTPDATA || !(di = ftpdata_tx_info(tc->tx)))
			return 0;
		return di->cmd == d->val;
	}
	if (f->app_proto != ALPROTO_FTP)
		return 0;
	{
		const FtpTx *t = tc->tx;

		switch (d->kind) {
		case FM_DYN_PORT:
			return t->dyn_port && detect_uint_match(&d->u, t->dyn_port);
		case FM_MODE:
			return t->mode == d->val;
		case FM_REPLY_RECEIVED:
			/* a response property: on the response side, of a
			 * command's transaction (suricata-verify
			 * ftp-reply-received-01 counts no greeting) */
			return tc->side == APP_DIR_TOCLIENT && t->has_request &&
			       (int)t->done == d->val;
		case FM_BOUNCE:
			return tc->side == APP_DIR_TOSERVER && t->bounce;
		}
	}
	return 0;
}

#define FTPB(n_, b_) { .name = n_, .id = KW_FTP_STICKY, .setup = kw_ftp_sticky, \
	.flags = STICKY, .buf = b_, .desc = "sticky buffer" }
#define FTPM(n_, k_, d_) { .name = n_, .id = KW_FTP_MATCH, .setup = kw_ftp_match, \
	.flags = NEED | SQ | KWF_TX, .buf = k_, .desc = d_, .tx_match = match_ftp }

const Keyword ftp_keywords[] = {
	FTPB("ftp.command", BUF_FTP_COMMAND),
	FTPB("ftp.command_data", BUF_FTP_COMMAND_DATA),
	FTPB("ftp.reply", BUF_FTP_REPLY),
	FTPB("ftp.completion_code", BUF_FTP_COMPLETION_CODE),
	FTPM("ftp.dynamic_port", FM_DYN_PORT, "data connection port of PORT/EPRT/PASV/EPSV"),
	FTPM("ftp.mode", FM_MODE, "active or passive data connection"),
	FTPM("ftp.reply_received", FM_REPLY_RECEIVED, "the command's final reply came"),
	FTPM("ftpdata_command", FM_DATA_COMMAND, "ftp-data flow of a RETR or STOR"),
	{ .name = "ftpbounce", .id = KW_FTPBOUNCE, .setup = kw_ftp_match, .flags = NA,
	  .buf = FM_BOUNCE, .desc = "PORT to another host than the client", .tx_match = match_ftp },
	{ .name = NULL }
};
