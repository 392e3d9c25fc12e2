/* SSH keywords, as Suricata 8 documents them (rules/ssh-keywords): the
 * sticky buffers ssh.proto and ssh.software (and their legacy names
 * ssh_proto, ssh_software), ssh.hassh, ssh.hassh.string, ssh.hassh.server
 * and ssh.hassh.server.string, read from the flow's one SSH transaction
 * through the buffer registry; the older matchers ssh.protoversion and
 * ssh.softwareversion; and ssh_state, the parser state of the packet's
 * side. ssh.proto and ssh.software read the banner of the side the rule is
 * evaluated on; the hassh buffers the client's (ssh.hassh*) or the
 * server's (ssh.hassh.server*) KEXINIT, and turn hassh on. */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "detect/buffers.h"
#include "app-layer/ssh.h"

#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int sig_set_alproto_ssh(SigParseState *st, const char *kwname)
{
	return sig_set_alproto_for(st, kwname, ALPROTO_SSH, 0, "an ssh, tcp or ip");
}

static int kw_ssh_sticky(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)arg;
	if (sig_set_alproto_ssh(st, kw->name))
		return -1;
	if (kw->buf == BUF_SSH_HASSH || kw->buf == BUF_SSH_HASSH_STRING ||
	    kw->buf == BUF_SSH_HASSH_SERVER || kw->buf == BUF_SSH_HASSH_SERVER_STRING)
		ssh_hassh_request();
	return sig_select_buffer(st, kw->buf);
}

/* Hands out p[0, n) when the side has it (present), else -1. */
static int give(int present, const char *p, uint32_t n, const uint8_t **data, uint32_t *len)
{
	if (!present)
		return -1;
	*data = (const uint8_t *)p;
	*len = n;
	return 0;
}

int ssh_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		   const uint8_t **data, uint32_t *len)
{
	const SshState *s = ssh_tx_state(tx);
	const SshSide *sd;

	if (!s || idx)
		return -1;
	sd = &s->side[side & 1];
	switch (b->pbuf[side & 1]) {
	case SSH_KW_BUF_PROTO:
		return give(sd->proto_len != 0, sd->proto, sd->proto_len, data, len);
	case SSH_KW_BUF_SOFTWARE:
		return give(sd->software_len != 0, sd->software, sd->software_len, data, len);
	case SSH_KW_BUF_HASSH:
		return give(sd->hassh_str != NULL, sd->hassh, 32, data, len);
	case SSH_KW_BUF_HASSH_STRING:
		return give(sd->hassh_str != NULL, sd->hassh_str, sd->hassh_len, data, len);
	}
	return -1;
}

/* ---- ssh.protoversion, ssh.softwareversion, ssh_state ---- */

enum ssh_match_kind { SM_PROTOVERSION, SM_SOFTWAREVERSION, SM_STATE };

typedef struct DetectSsh {
	int kind;
	int compat2;                /* protoversion:2_compat: 2.x or 1.99 */
	int negated;                /* ssh_state:!... */
	int state;                  /* enum ssh_side_state */
	char *val;
	size_t len;
} DetectSsh;

static const char *const state_names[] = {
	[SSH_STATE_IN_PROGRESS] = "in_progress",
	[SSH_STATE_BANNER_WAIT_EOL] = "banner_wait_eol",
	[SSH_STATE_BANNER_DONE] = "banner_done",
	[SSH_STATE_FINISHED] = "finished",
};

static int kw_ssh_match(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectSsh *d;
	char *v;

	if (sig_set_alproto_ssh(st, kw->name))
		return -1;
	v = str_trim_dup(arg ? arg : "", 1);
	d = calloc(1, sizeof(*d));
	if (!v || !d) {
		free(v);
		free(d);
		return sig_error(st, "out of memory");
	}
	d->kind = kw->buf;
	if (d->kind == SM_STATE) {
		const char *name = v;

		d->state = -1;
		if (*name == '!') {
			d->negated = 1;
			name++;
		}
		if (strcasecmp(name, "new") == 0)
			d->state = SSH_STATE_IN_PROGRESS;
		for (int i = 0; i < 4; i++)
			if (strcasecmp(name, state_names[i]) == 0)
				d->state = i;
		free(v);
		if (d->state < 0) {
			free(d);
			return sig_error(st, "invalid ssh_state \"%s\" (in_progress, "
					 "banner_wait_eol, banner_done, finished)", arg ? arg : "");
		}
		return sm_append(st, SM_LIST_MATCH, KW_SSH_STATE, d) < 0 ? -1 : 0;
	}
	if (!*v) {
		free(v);
		free(d);
		return sig_error(st, "%s needs a value", kw->name);
	}
	if (d->kind == SM_PROTOVERSION && strcasecmp(v, "2_compat") == 0)
		d->compat2 = 1;
	d->val = v;
	d->len = strlen(v);
	st->s->flags |= SIG_FLAG_TX_MATCH;
	return sm_append(st, SM_LIST_MATCH, KW_SSH_VERSION, d) < 0 ? -1 : 0;
}

/* ssh.protoversion: the version as written ("2.0", "1.99"), or 2_compat;
 * ssh.softwareversion: the software string starts with the value (the
 * way ET's "libssh-" rules use it). Both on the evaluated side. */
static int match_ssh_version(const DetectTx *tc, const SigMatch *m, Packet *p)
{
	const DetectSsh *d = m->ctx;
	const SshState *s;
	const SshSide *sd;

	if (!p->flow || p->flow->app_proto != ALPROTO_SSH || !tc->tx ||
	    !(s = ssh_tx_state(tc->tx)))
		return 0;
	sd = &s->side[tc->side & 1];
	if (d->kind == SM_PROTOVERSION) {
		if (!sd->proto_len)
			return 0;
		if (d->compat2)
			return (sd->proto_len >= 2 && sd->proto[0] == '2' && sd->proto[1] == '.') ||
			       strcmp(sd->proto, "1.99") == 0;
		return sd->proto_len == d->len && memcmp(sd->proto, d->val, d->len) == 0;
	}
	return sd->software_len >= d->len && memcmp(sd->software, d->val, d->len) == 0;
}

/* ssh_state: the parser state of the packet's side, after this packet. */
static int match_ssh_state(DetectThread *dt, const SigMatch *m, Packet *p)
{
	const DetectSsh *d = m->ctx;
	const Flow *f = p->flow;
	void *tx;
	const SshState *s;
	int dir = (p->flags & PKT_TOCLIENT) ? SSH_TOCLIENT : SSH_TOSERVER;
	int hit;

	(void)dt;
	if (!f || f->app_proto != ALPROTO_SSH || !(tx = app_layer_tx_get(f, 0)) ||
	    !(s = ssh_tx_state(tx)))
		return 0;
	hit = s->side[dir].state == d->state;
	return d->negated ? !hit : hit;
}

static void free_ssh(void *ctx)
{
	free(((DetectSsh *)ctx)->val);
}

#define SSHB(n_, b_) { .name = n_, .id = KW_SSH_STICKY, .setup = kw_ssh_sticky, \
	.flags = STICKY, .buf = b_, .desc = "sticky buffer" }

const Keyword ssh_keywords[] = {
	SSHB("ssh.proto", BUF_SSH_PROTO),
	SSHB("ssh_proto", BUF_SSH_PROTO),
	SSHB("ssh.software", BUF_SSH_SOFTWARE),
	SSHB("ssh_software", BUF_SSH_SOFTWARE),
	SSHB("ssh.hassh", BUF_SSH_HASSH),
	SSHB("ssh.hassh.string", BUF_SSH_HASSH_STRING),
	SSHB("ssh.hassh.server", BUF_SSH_HASSH_SERVER),
	SSHB("ssh.hassh.server.string", BUF_SSH_HASSH_SERVER_STRING),
	{ .name = "ssh.protoversion", .id = KW_SSH_VERSION, .setup = kw_ssh_match,
	  .flags = NEED | KWF_TX, .buf = SM_PROTOVERSION,
	  .desc = "ssh protocol version (or 2_compat)", .tx_match = match_ssh_version,
	  .free = free_ssh },
	{ .name = "ssh.softwareversion", .id = KW_SSH_VERSION, .setup = kw_ssh_match,
	  .flags = NEED | KWF_TX, .buf = SM_SOFTWAREVERSION,
	  .desc = "ssh software version starts with", .tx_match = match_ssh_version, .free = free_ssh },
	{ .name = "ssh_state", .id = KW_SSH_STATE, .setup = kw_ssh_match, .flags = NEED,
	  .buf = SM_STATE, .desc = "ssh parser state of the packet's side",
	  .match = match_ssh_state },
	{ .name = NULL }
};
