/* ONC RPC and NFS v2/v3 decoding (nfs.h): an XDR cursor over one RPC
 * message, bounded by it; names are cut at the caps of nfs.h. */
#include "app-layer/nfs.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

typedef struct Xdr {
	const uint8_t *p;
	uint32_t n;
	int bad;
} Xdr;

static uint32_t x_u32(Xdr *x)
{
	uint32_t v;

	if (x->bad || x->n < 4) {
		x->bad = 1;
		return 0;
	}
	v = (uint32_t)x->p[0] << 24 | (uint32_t)x->p[1] << 16 | (uint32_t)x->p[2] << 8 | x->p[3];
	x->p += 4;
	x->n -= 4;
	return v;
}

/* n bytes and their padding to 4; NULL when they are not there */
static const uint8_t *x_bytes(Xdr *x, uint32_t n)
{
	uint32_t padded = (n + 3u) & ~3u;
	const uint8_t *p = x->p;

	if (x->bad || n > x->n || padded > x->n) {
		x->bad = 1;
		return NULL;
	}
	x->p += padded;
	x->n -= padded;
	return p;
}

static const uint8_t *x_opaque(Xdr *x, uint32_t *len)
{
	*len = x_u32(x);
	return x_bytes(x, *len);
}

static void x_string(Xdr *x, char *out, size_t cap, uint16_t *olen)
{
	uint32_t n;
	const uint8_t *p = x_opaque(x, &n);
	size_t k;

	if (!p) {
		out[0] = '\0';
		*olen = 0;
		return;
	}
	k = n < cap - 1 ? n : cap - 1;
	memcpy(out, p, k);
	out[k] = '\0';
	*olen = (uint16_t)k;
}

static void x_fh(Xdr *x, uint32_t version, NfsCall *c)
{
	const uint8_t *p;
	uint32_t n = 32;

	p = version == 2 ? x_bytes(x, 32) : x_opaque(x, &n);
	if (!p || n > NFS_MAX_FH) {
		x->bad = 1;
		return;
	}
	memcpy(c->fh, p, n);
	c->fh_len = (uint8_t)n;
}

/* procedures whose arguments start with a directory and a name */
static int dirop(uint32_t v, uint32_t p)
{
	if (v == 2)
		return p == 4 || p == 9 || p == 10 || p == 11 || p == 13 || p == 14 || p == 15;
	return p == 3 || p == 8 || p == 9 || p == 10 || p == 11 || p == 12 || p == 13 ||
	       p == 14;
}

static int is_rename(uint32_t v, uint32_t p)
{
	return (v == 2 && p == 11) || (v == 3 && p == 14);
}

static uint64_t x_u64(Xdr *x)
{
	uint64_t hi = x_u32(x);

	return hi << 32 | x_u32(x);
}

/* a v4 file handle (PUTFH): kept as the call's handle */
static void x_fh4(Xdr *x, NfsCall *c)
{
	uint32_t n;
	const uint8_t *p = x_opaque(x, &n);

	if (!p || n > NFS_MAX_FH) {
		x->bad = 1;
		return;
	}
	memcpy(c->fh, p, n);
	c->fh_len = (uint8_t)n;
}

static void x_skip(Xdr *x, uint32_t n)
{
	(void)x_bytes(x, n);
}

/* bitmap4: a counted array of words */
static void x_bitmap(Xdr *x)
{
	uint32_t n = x_u32(x);

	if (n > 64)
		x->bad = 1;
	else
		x_skip(x, n * 4);
}

/* fattr4: bitmap, then the values as one opaque */
static void x_fattr4(Xdr *x)
{
	uint32_t n;

	x_bitmap(x);
	(void)x_opaque(x, &n);
}

/* OPEN4args: seqid, share_access, share_deny, open_owner4 (clientid,
 * owner), openflag4 (OPEN4_CREATE's createhow4), open_claim4; the name of
 * a CLAIM_NULL open is kept. 0 when the claim is not known here. */
static int v4_open_args(Xdr *x, NfsCall *c)
{
	uint32_t n, claim;

	x_skip(x, 12);
	x_skip(x, 8);
	(void)x_opaque(x, &n);
	if (x_u32(x) == 1) {                /* OPEN4_CREATE */
		uint32_t how = x_u32(x);

		if (how == 0 || how == 1)   /* UNCHECKED4, GUARDED4 */
			x_fattr4(x);
		else if (how == 2)          /* EXCLUSIVE4: verifier */
			x_skip(x, 8);
		else if (how == 3) {        /* EXCLUSIVE4_1: verifier, attrs */
			x_skip(x, 8);
			x_fattr4(x);
		} else
			return 0;
	}
	claim = x_u32(x);
	switch (claim) {
	case 0: /* CLAIM_NULL: the name in the current directory */
		x_string(x, c->open_name, sizeof(c->open_name), &c->open_len);
		c->v4_open = !x->bad;
		return 1;
	case 1: /* CLAIM_PREVIOUS: delegate_type */
		x_skip(x, 4);
		return 1;
	case 2: /* CLAIM_DELEGATE_CUR: stateid, name */
		x_skip(x, 16);
		(void)x_opaque(x, &n);
		return 1;
	case 3: /* CLAIM_DELEGATE_PREV: name */
		(void)x_opaque(x, &n);
		return 1;
	case 4: case 6: /* CLAIM_FH, CLAIM_DELEG_PREV_FH */
		return 1;
	case 5: /* CLAIM_DELEG_CUR_FH: stateid */
		x_skip(x, 16);
		return 1;
	}
	return 0;
}

/* One COMPOUND operation's arguments; 0 when its arguments are not known
 * here (decoding stops: what follows cannot be found). */
static int v4_op(Xdr *x, NfsCall *c, uint32_t op)
{
	uint32_t n;

	switch (op) {
	case 3: case 30: /* ACCESS, RENEW (u32 / clientid u64 below) */
		x_skip(x, op == 3 ? 4 : 8);
		return 1;
	case 4: /* CLOSE: seqid, stateid */
		x_skip(x, 20);
		return 1;
	case 5: /* COMMIT: offset, count */
		x_skip(x, 12);
		return 1;
	case 8: case 45: /* DELEGRETURN, FREE_STATEID: stateid */
		x_skip(x, 16);
		return 1;
	case 9: /* GETATTR */
		x_bitmap(x);
		return 1;
	case 10: case 16: case 23: case 24: case 27: case 31: case 32: case 44: case 57:
		/* GETFH LOOKUPP PUTPUBFH PUTROOTFH READLINK RESTOREFH SAVEFH; 4.1:
		 * DESTROY_SESSION (sessionid) and DESTROY_CLIENTID (clientid) */
		if (op == 44)
			x_skip(x, 16);
		else if (op == 57)
			x_skip(x, 8);
		return 1;
	case 58: /* RECLAIM_COMPLETE: one_fs */
		x_skip(x, 4);
		return 1;
	case 15: /* LOOKUP: a name, kept for a later operation's record */
		x_string(x, c->name, sizeof(c->name), &c->name_len);
		return 1;
	case NFS4_OP_PUTFH:
		x_fh4(x, c);
		return 1;
	case NFS4_OP_OPEN: /* RFC 8881 18.16.1 */
		return v4_open_args(x, c);
	case NFS4_OP_READ: /* stateid, offset, count: a file's chunk, to the client */
		x_skip(x, 16);
		c->r_offset = x_u64(x);
		(void)x_u32(x);
		c->is_read = !x->bad;
		c->v4_main = op;
		return 1;
	case 53: /* SEQUENCE: sessionid, seqid, slotid, highest slotid, cachethis */
		x_skip(x, 32);
		return 1;
	case NFS4_OP_REMOVE:
		x_string(x, c->name, sizeof(c->name), &c->name_len);
		c->has_name = !x->bad;
		c->v4_main = op;
		return 1;
	case NFS4_OP_RENAME:
		x_string(x, c->name, sizeof(c->name), &c->name_len);
		x_string(x, c->to, sizeof(c->to), &c->to_len);
		c->has_name = c->is_rename = !x->bad;
		c->v4_main = op;
		return 1;
	case NFS4_OP_CREATE: {
		uint32_t type = x_u32(x);

		if (type == 5)              /* NF4LNK: the link's target */
			(void)x_opaque(x, &n);
		else if (type == 3 || type == 4)    /* NF4BLK, NF4CHR: specdata */
			x_skip(x, 8);
		x_string(x, c->name, sizeof(c->name), &c->name_len);
		c->has_name = !x->bad;
		c->v4_main = op;
		x_bitmap(x);                /* createattrs: bitmap and values */
		(void)x_opaque(x, &n);
		return 1;
	}
	case NFS4_OP_WRITE:
		x_skip(x, 16);              /* stateid */
		c->w_offset = x_u64(x);
		c->w_stable = x_u32(x);
		c->w_data = x_opaque(x, &c->w_len);
		c->is_write = c->w_data != NULL;
		c->v4_main = op;
		return 1;
	}
	return 0;
}

/* COMPOUND4args: tag, minorversion, the operations */
static void v4_compound(Xdr *x, NfsCall *c)
{
	uint32_t n, ops;

	(void)x_opaque(x, &n);
	(void)x_u32(x);
	ops = x_u32(x);
	for (uint32_t i = 0; i < ops && i < 128 && !x->bad; i++)
		if (!v4_op(x, c, x_u32(x)))
			break;
	/* a name seen by LOOKUP only names a CREATE/REMOVE/RENAME */
	if (!c->has_name)
		c->name_len = 0, c->name[0] = '\0';
	if (c->v4_main)
		c->procedure = c->v4_main;
	if (x->bad && c->v4_main != NFS4_OP_WRITE)
		c->is_write = 0;
	if (c->v4_main != NFS4_OP_READ)
		c->is_read = 0;
}

static void nfs_args(Xdr *x, NfsCall *c)
{
	uint32_t v = c->version, p = c->procedure;

	if (v == 4 && p == 1) {
		v4_compound(x, c);
		return;
	}
	if ((v != 2 && v != 3) || p == 0)
		return;
	x_fh(x, v, c);
	if (v == 3 && p == NFS3_PROC_WRITE && !x->bad) {
		/* WRITE3args: offset, count, stable, data */
		c->w_offset = x_u64(x);
		(void)x_u32(x);
		c->w_stable = x_u32(x);
		c->w_data = x_opaque(x, &c->w_len);
		c->is_write = c->w_data != NULL;
		return;
	}
	if (p == NFS3_PROC_READ && !x->bad) {
		/* READ3args: offset (u64), count; READ2: offset, count,
		 * totalcount (u32 each) */
		c->r_offset = v == 3 ? x_u64(x) : x_u32(x);
		c->is_read = !x->bad;
		return;
	}
	if (!dirop(v, p) || x->bad)
		return;
	x_string(x, c->name, sizeof(c->name), &c->name_len);
	c->has_name = !x->bad;
	if (is_rename(v, p) && !x->bad) {
		NfsCall to;

		x_fh(x, v, &to);
		x_string(x, c->to, sizeof(c->to), &c->to_len);
		c->is_rename = !x->bad;
	}
}

static void creds(Xdr *x, NfsCall *c)
{
	uint32_t n;
	const uint8_t *body;

	c->auth = x_u32(x);
	body = x_opaque(x, &n);
	if (!body)
		return;
	if (c->auth == NFS_AUTH_UNIX) {
		Xdr u = { body, n, 0 };
		uint16_t ml;

		(void)x_u32(&u);    /* stamp */
		x_string(&u, c->machine, sizeof(c->machine), &ml);
		c->uid = x_u32(&u);
		c->gid = x_u32(&u);
		c->has_creds = !u.bad;
	}
}

/* v3 post_op_attr / v2 fattr: the file's size (fattr3's is at byte 20,
 * after type, mode, nlink, uid, gid; fattr's, 32-bit, at the same place) */
static void x_attrs(Xdr *x, uint32_t version, NfsReply *r)
{
	const uint8_t *a;

	if (version == 3 && !x_u32(x))
		return;
	a = x_bytes(x, version == 3 ? 84 : 68);
	if (!a)
		return;
	if (version == 3)
		r->r_fsize = (uint64_t)a[20] << 56 | (uint64_t)a[21] << 48 | (uint64_t)a[22] << 40 |
			     (uint64_t)a[23] << 32 | (uint64_t)a[24] << 24 | (uint64_t)a[25] << 16 |
			     (uint64_t)a[26] << 8 | a[27];
	else
		r->r_fsize = (uint32_t)a[20] << 24 | (uint32_t)a[21] << 16 | (uint32_t)a[22] << 8 |
			     a[23];
	r->has_fsize = 1;
}

/* the reply's data opaque as the READ chunk */
static void x_read_data(Xdr *x, NfsReply *r)
{
	uint32_t n = x_u32(x);

	/* a server may send less than it says only when the message is cut:
	 * take what is there */
	if (x->bad)
		return;
	if (n > x->n)
		n = x->n;
	r->r_data = x->p;
	r->r_len = n;
	r->has_read = 1;
	x_skip(x, n);
}

/* COMPOUND4res after its status: tag, then each operation's result as far
 * as they are known here, for a READ's data (RFC 8881 16.2, 18.22) */
/* OPEN4resok: stateid, change_info4, rflags, attrset, delegation */
static int v4_open_res(Xdr *x)
{
	uint32_t n, type;

	x_skip(x, 16 + 20 + 4);
	x_bitmap(x);
	type = x_u32(x);
	if (type == 1 || type == 2) {       /* READ, WRITE: stateid, recall */
		x_skip(x, 20);
		if (type == 2)              /* space_limit */
			x_skip(x, 12);
		x_skip(x, 12);              /* nfsace4: type, flag, mask, who */
		(void)x_opaque(x, &n);
	} else if (type == 3) {             /* OPEN_DELEGATE_NONE_EXT: why */
		uint32_t why = x_u32(x);

		if (why == 1 || why == 2)   /* WND4_CONTENTION, _RESOURCE: a bool */
			x_skip(x, 4);
	} else if (type != 0) {
		return 0;
	}
	return !x->bad;
}

static void v4_reply_results(Xdr *x, NfsReply *r)
{
	uint32_t n, ops;
	int opened = 0;

	(void)x_opaque(x, &n);
	ops = x_u32(x);
	for (uint32_t i = 0; i < ops && i < 128 && !x->bad; i++) {
		uint32_t op = x_u32(x), st = x_u32(x);

		if (x->bad || st != 0)
			return;
		switch (op) {
		case NFS4_OP_SEQUENCE: /* sessionid, seqid, slotid, highest x2, flags */
			x_skip(x, 36);
			break;
		case NFS4_OP_PUTFH:
		case 23: case 24: case 31: case 32: /* PUTPUBFH PUTROOTFH RESTOREFH SAVEFH */
			break;
		case NFS4_OP_READ:
			r->r_eof = x_u32(x) != 0;
			x_read_data(x, r);
			return;
		case NFS4_OP_OPEN:
			if (!v4_open_res(x))
				return;
			opened = 1;
			break;
		case NFS4_OP_GETFH: {
			/* the handle of the file OPEN just opened */
			const uint8_t *fh = x_opaque(x, &n);

			if (opened && fh && n <= NFS_MAX_FH) {
				memcpy(r->fh, fh, n);
				r->fh_len = (uint8_t)n;
			}
			return;
		}
		default:
			return;
		}
	}
}

/* What a reply carries past its status that the parser keeps: LOOKUP's
 * and CREATE's handle (for the names of later calls), READ's chunk. */
static void reply_results(Xdr *x, const NfsCall *call, NfsReply *r)
{
	uint32_t v = call->version, p = call->procedure, n;
	const uint8_t *fh = NULL;

	if (v == 4) {
		if (call->is_read || call->v4_open)
			v4_reply_results(x, r);
		return;
	}
	if (r->nfs_status != 0)
		return;
	if (call->is_read) {
		if (v == 3) {
			x_attrs(x, 3, r);
			(void)x_u32(x);     /* count */
			r->r_eof = x_u32(x) != 0;
		} else {
			x_attrs(x, 2, r);
		}
		x_read_data(x, r);
		return;
	}
	if (v == 2 && (p == 4 || p == 9)) {         /* LOOKUP, CREATE: diropres */
		n = 32;
		fh = x_bytes(x, 32);
	} else if (v == 3 && p == 3) {              /* LOOKUP3resok: object */
		fh = x_opaque(x, &n);
	} else if (v == 3 && (p == 8 || p == 9)) {  /* CREATE, MKDIR: post_op_fh3 */
		if (x_u32(x))
			fh = x_opaque(x, &n);
	}
	if (fh && !x->bad && n <= NFS_MAX_FH) {
		memcpy(r->fh, fh, n);
		r->fh_len = (uint8_t)n;
	}
}

int nfs_rpc_peek(const uint8_t *buf, uint32_t len, uint32_t *xid, uint32_t *type)
{
	Xdr x = { buf, len, 0 };

	*xid = x_u32(&x);
	*type = x_u32(&x);
	if (x.bad || *type > 1)
		return -1;
	if (*type == 0) {
		/* rpcvers 2 */
		if (x_u32(&x) != 2 || x.bad)
			return -1;
	} else {
		uint32_t rs = x_u32(&x);

		if (x.bad || rs > 1)
			return -1;
	}
	return 0;
}

int nfs_rpc_decode(const uint8_t *buf, uint32_t len, NfsCall *c, NfsReply *r,
		   const NfsCall *call)
{
	Xdr x = { buf, len, 0 };
	uint32_t xid, type, n;

	if (nfs_rpc_peek(buf, len, &xid, &type) < 0)
		return -1;
	(void)x_u32(&x);
	(void)x_u32(&x);
	if (type == 0) {
		memset(c, 0, sizeof(*c));
		c->xid = xid;
		(void)x_u32(&x);            /* rpcvers */
		if (x_u32(&x) != NFS_PROGRAM || x.bad)
			return 0;
		c->version = x_u32(&x);
		c->procedure = x_u32(&x);
		creds(&x, c);
		(void)x_u32(&x);            /* verifier */
		(void)x_opaque(&x, &n);
		if (x.bad)
			return -1;
		nfs_args(&x, c);
		return 1;
	}
	memset(r, 0, sizeof(*r));
	r->xid = xid;
	r->reply_stat = x_u32(&x);
	if (r->reply_stat != 0)
		return 2;
	(void)x_u32(&x);                    /* verifier */
	(void)x_opaque(&x, &n);
	r->accept_stat = x_u32(&x);
	if (x.bad)
		return -1;
	/* v4: COMPOUND4res's status (the last operation's) */
	if (r->accept_stat == 0 && call && call->procedure != 0 &&
	    call->version >= 2 && call->version <= 4) {
		r->nfs_status = x_u32(&x);
		r->has_status = !x.bad;
		if (r->has_status)
			reply_results(&x, call, r);
	}
	return 2;
}

/* ---------------- names ---------------- */

static const char *const v2_procs[] = {
	"NULL", "GETATTR", "SETATTR", "ROOT", "LOOKUP", "READLINK", "READ", "WRITECACHE",
	"WRITE", "CREATE", "REMOVE", "RENAME", "LINK", "SYMLINK", "MKDIR", "RMDIR",
	"READDIR", "STATFS",
};
static const char *const v3_procs[] = {
	"NULL", "GETATTR", "SETATTR", "LOOKUP", "ACCESS", "READLINK", "READ", "WRITE",
	"CREATE", "MKDIR", "SYMLINK", "MKNOD", "REMOVE", "RMDIR", "RENAME", "LINK",
	"READDIR", "READDIRPLUS", "FSSTAT", "FSINFO", "PATHCONF", "COMMIT",
};
/* v4: NULL, COMPOUND, then the operations by their numbers (a COMPOUND
 * call is named by its main operation) */
static const char *const v4_procs[] = {
	"NULL", "COMPOUND", NULL, "ACCESS", "CLOSE", "COMMIT", "CREATE", "DELEGPURGE",
	"DELEGRETURN", "GETATTR", "GETFH", "LINK", "LOCK", "LOCKT", "LOCKU", "LOOKUP",
	"LOOKUPP", "NVERIFY", "OPEN", "OPENATTR", "OPEN_CONFIRM", "OPEN_DOWNGRADE", "PUTFH",
	"PUTPUBFH", "PUTROOTFH", "READ", "READDIR", "READLINK", "REMOVE", "RENAME", "RENEW",
	"RESTOREFH", "SAVEFH", "SECINFO", "SETATTR", "SETCLIENTID", "SETCLIENTID_CONFIRM",
	"VERIFY", "WRITE", "RELEASE_LOCKOWNER", "BACKCHANNEL_CTL", "BIND_CONN_TO_SESSION",
	"EXCHANGE_ID", "CREATE_SESSION", "DESTROY_SESSION", "FREE_STATEID",
	"GET_DIR_DELEGATION", "GETDEVICEINFO", "GETDEVICELIST", "LAYOUTCOMMIT", "LAYOUTGET",
	"LAYOUTRETURN", "SECINFO_NO_NAME", "SEQUENCE", "SET_SSV", "TEST_STATEID",
	"WANT_DELEGATION", "DESTROY_CLIENTID", "RECLAIM_COMPLETE",
};

#define N(a) (sizeof(a) / sizeof(a[0]))

const char *nfs_proc_name(uint32_t v, uint32_t p)
{
	if (v == 2)
		return p < N(v2_procs) ? v2_procs[p] : NULL;
	if (v == 3)
		return p < N(v3_procs) ? v3_procs[p] : NULL;
	if (v == 4)
		return p < N(v4_procs) ? v4_procs[p] : NULL;
	return NULL;
}

int nfs_proc_by_name(uint32_t v, const char *name)
{
	for (uint32_t ver = 2; ver <= 4; ver++) {
		if (v && v != ver)
			continue;
		for (uint32_t p = 0; p < 64; p++)
			if (nfs_proc_name(ver, p) && strcasecmp(nfs_proc_name(ver, p), name) == 0)
				return (int)p;
	}
	return -1;
}

static const struct { uint32_t s; const char *n; } statuses[] = {
	{ 0, "OK" }, { 1, "ERR_PERM" }, { 2, "ERR_NOENT" }, { 5, "ERR_IO" }, { 6, "ERR_NXIO" },
	{ 13, "ERR_ACCES" }, { 17, "ERR_EXIST" }, { 18, "ERR_XDEV" }, { 19, "ERR_NODEV" },
	{ 20, "ERR_NOTDIR" }, { 21, "ERR_ISDIR" }, { 22, "ERR_INVAL" }, { 27, "ERR_FBIG" },
	{ 28, "ERR_NOSPC" }, { 30, "ERR_ROFS" }, { 31, "ERR_MLINK" }, { 63, "ERR_NAMETOOLONG" },
	{ 66, "ERR_NOTEMPTY" }, { 69, "ERR_DQUOT" }, { 70, "ERR_STALE" }, { 71, "ERR_REMOTE" },
	{ 99, "ERR_WFLUSH" }, { 10001, "ERR_BADHANDLE" }, { 10002, "ERR_NOT_SYNC" },
	{ 10003, "ERR_BAD_COOKIE" }, { 10004, "ERR_NOTSUPP" }, { 10005, "ERR_TOOSMALL" },
	{ 10006, "ERR_SERVERFAULT" }, { 10007, "ERR_BADTYPE" }, { 10008, "ERR_JUKEBOX" },
};

const char *nfs_status_name(uint32_t v, uint32_t s)
{
	(void)v;
	for (size_t i = 0; i < N(statuses); i++)
		if (statuses[i].s == s)
			return statuses[i].n;
	return NULL;
}

const char *nfs_auth_name(uint32_t a)
{
	switch (a) {
	case NFS_AUTH_NULL: return "NULL";
	case NFS_AUTH_UNIX: return "UNIX";
	case NFS_AUTH_SHORT: return "SHORT";
	case NFS_AUTH_DH: return "DH";
	case NFS_AUTH_GSS: return "RPCSEC_GSS";
	}
	return "UNKNOWN";
}

static const char *const ev_names[NFS_EV_COUNT] = {
	[NFS_EV_MALFORMED_DATA] = "malformed_data",
	[NFS_EV_UNSOLICITED_REPLY] = "unsolicited_reply",
	[NFS_EV_TOO_MANY_TX] = "too_many_transactions",
};

const char *nfs_event_name(int ev)
{
	return ev >= 0 && ev < NFS_EV_COUNT ? ev_names[ev] : NULL;
}

int nfs_event_by_name(const char *name)
{
	for (int i = 0; i < NFS_EV_COUNT; i++)
		if (strcasecmp(ev_names[i], name) == 0)
			return i;
	return -1;
}
