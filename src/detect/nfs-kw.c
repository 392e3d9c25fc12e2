/* NFS keywords, as Suricata 8 documents them (rules/nfs-keywords):
 * nfs_procedure (a number comparison on the call's procedure, or its
 * name) and nfs.version (also spelled nfs_version: the call's NFS
 * version). Both are transaction properties. */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "app-layer/nfs.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define NEEDS "an nfs, tcp, udp or ip"

enum { NK_PROCEDURE, NK_VERSION };

typedef struct DetectNfs {
	int kind;
	int by_name;                /* a procedure named: its number per version */
	int proc[5];                /* [2..4]; -1 where the version has no such name */
	DetectUint u;
} DetectNfs;

static int kw_nfs_match(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectNfs *d = calloc(1, sizeof(*d));
	const char *v = arg ? arg : "";

	if (!d)
		return sig_error(st, "out of memory");
	d->kind = kw->buf;
	while (*v == ' ')
		v++;
	if (d->kind == NK_PROCEDURE && isalpha((unsigned char)*v)) {
		char name[32];
		size_t n = strcspn(v, " ");
		int any = 0;

		if (n >= sizeof(name))
			goto bad;
		memcpy(name, v, n);
		name[n] = '\0';
		/* the numbers differ between versions (LOOKUP: 4 in v2, 3 in v3) */
		d->by_name = 1;
		for (uint32_t ver = 2; ver <= 4; ver++)
			any |= (d->proc[ver] = nfs_proc_by_name(ver, name)) >= 0;
		if (!any)
			goto bad;
	} else if (parse_uint_cmp(v, UINT32_MAX, &d->u) < 0) {
		goto bad;
	}
	if (sig_set_alproto_for(st, kw->name, ALPROTO_NFS, 1, NEEDS)) {
		free(d);
		return -1;
	}
	st->s->flags |= SIG_FLAG_TX_MATCH;
	return sm_append(st, SM_LIST_MATCH, KW_NFS_MATCH, d) < 0 ? -1 : 0;
bad:
	free(d);
	return sig_error(st, "invalid %s \"%s\"", kw->name, arg ? arg : "");
}

static int match_nfs(const DetectTx *tc, const SigMatch *sm, Packet *p)
{
	const DetectNfs *d = sm->ctx;
	const NfsTx *tx = tc->tx;

	if (!tx || !tx->has_call || !p->flow || p->flow->app_proto != ALPROTO_NFS)
		return 0;
	if (d->kind == NK_VERSION)
		return detect_uint_match(&d->u, tx->call.version);
	if (d->by_name)
		return tx->call.version >= 2 && tx->call.version <= 4 &&
		       d->proc[tx->call.version] == (int)tx->call.procedure;
	return detect_uint_match(&d->u, tx->call.procedure);
}

#define NFSM(n_, k_, d_) { .name = n_, .id = KW_NFS_MATCH, .setup = kw_nfs_match, \
	.flags = NEED | SQ | KWF_TX, .buf = k_, .desc = d_, .tx_match = match_nfs }

const Keyword nfs_keywords[] = {
	NFSM("nfs_procedure", NK_PROCEDURE, "nfs procedure of the call"),
	NFSM("nfs.procedure", NK_PROCEDURE, "nfs procedure of the call"),
	NFSM("nfs.version", NK_VERSION, "nfs version of the call"),
	NFSM("nfs_version", NK_VERSION, "nfs version of the call"),
	{ .name = NULL }
};
