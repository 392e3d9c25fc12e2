/* SMB keywords, as Suricata 8 documents them (rules/smb-keywords): the
 * sticky buffers smb.share and smb.named_pipe (legacy smb_share,
 * smb_named_pipe: the name a tree connect asked for, once its response
 * said whether it is a disk share or a pipe), smb.ntlmssp_user and
 * smb.ntlmssp_domain (the NTLMSSP AUTHENTICATE of a session setup), and
 * smb.version (1: SMB1; 2: SMB2 and SMB3, the transaction's message
 * format), a transaction property. */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "detect/buffers.h"
#include "app-layer/smb.h"

#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

static int sig_set_alproto_smb(SigParseState *st, const char *kwname)
{
	return sig_set_alproto_for(st, kwname, ALPROTO_SMB, 0, "an smb, tcp or ip");
}

static int kw_smb_sticky(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)arg;
	return sig_app_sticky(st, kw, ALPROTO_SMB, 0, "an smb, tcp or ip");
}

static int set(const SmbStr *s, const uint8_t **data, uint32_t *len)
{
	if (!s->s)
		return -1;
	*data = (const uint8_t *)s->s;
	*len = s->len;
	return 0;
}

int smb_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		   const uint8_t **data, uint32_t *len)
{
	const SmbTx *t = tx;

	if (!t || idx || t->silent)
		return -1;
	switch (b->pbuf[side & 1]) {
	case SMB_KW_BUF_SHARE:
	case SMB_KW_BUF_NAMED_PIPE:
		/* a share until the response says pipe (IPC service, share
		 * type 2), as Suricata: an IPC$ request inspected before its
		 * answer is a share (suricata-verify smb-filename) */
		if (t->type != SMB_TXT_TREE_CONNECT ||
		    (b->pbuf[side & 1] == SMB_KW_BUF_NAMED_PIPE) != (t->is_pipe != 0))
			return -1;
		return set(&t->share, data, len);
	case SMB_KW_BUF_NTLMSSP_USER:
		if (t->type != SMB_TXT_SESSION_SETUP || !t->have_ntlmssp)
			return -1;
		return set(&t->ntlm_user, data, len);
	case SMB_KW_BUF_NTLMSSP_DOMAIN:
		if (t->type != SMB_TXT_SESSION_SETUP || !t->have_ntlmssp)
			return -1;
		return set(&t->ntlm_domain, data, len);
	}
	return -1;
}

/* ---- smb.version ---- */

typedef struct DetectSmbVersion {
	uint8_t version;
	uint8_t negated;
} DetectSmbVersion;

static int kw_smb_version(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectSmbVersion *d;
	char *v = str_trim_dup(arg ? arg : "", 1), *p, *end;
	unsigned long n;

	if (!v)
		return sig_error(st, "out of memory");
	p = v;
	d = calloc(1, sizeof(*d));
	if (!d) {
		free(v);
		return sig_error(st, "out of memory");
	}
	if (*p == '!') {
		d->negated = 1;
		p++;
	}
	n = strtoul(p, &end, 10);
	if (end == p || *end || (n != 1 && n != 2)) {
		free(v);
		free(d);
		return sig_error(st, "invalid smb.version \"%s\" (1 or 2)", arg ? arg : "");
	}
	free(v);
	d->version = (uint8_t)n;
	if (sig_set_alproto_smb(st, kw->name)) {
		free(d);
		return -1;
	}
	st->s->flags |= SIG_FLAG_TX_MATCH;
	return sm_append(st, SM_LIST_MATCH, KW_SMB_VERSION, d) < 0 ? -1 : 0;
}

static int match_smb_version(const DetectTx *tc, const SigMatch *m, Packet *p)
{
	const DetectSmbVersion *d = m->ctx;
	const SmbTx *t = tc->tx;

	if (!p->flow || p->flow->app_proto != ALPROTO_SMB || !t || !t->version || t->silent)
		return 0;
	return (t->version == d->version) != d->negated;
}

#define SMBB(n_, b_) { .name = n_, .id = KW_SMB_STICKY, .setup = kw_smb_sticky, \
	.flags = STICKY, .buf = b_, .desc = "sticky buffer" }

const Keyword smb_keywords[] = {
	SMBB("smb.share", BUF_SMB_SHARE),
	SMBB("smb_share", BUF_SMB_SHARE),
	SMBB("smb.named_pipe", BUF_SMB_NAMED_PIPE),
	SMBB("smb_named_pipe", BUF_SMB_NAMED_PIPE),
	SMBB("smb.ntlmssp_user", BUF_SMB_NTLMSSP_USER),
	SMBB("smb.ntlmssp_domain", BUF_SMB_NTLMSSP_DOMAIN),
	{ .name = "smb.version", .id = KW_SMB_VERSION, .setup = kw_smb_version,
	  .flags = NEED | SQ | KWF_TX, .buf = 0, .desc = "SMB version of the transaction (1, 2)",
	  .tx_match = match_smb_version },
	{ .name = NULL }
};
