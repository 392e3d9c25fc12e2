/* NFS's entry in the application-protocol registry: its configuration
 * (app-layer.protocols.nfs.*), how it is recognised, and the transactions
 * of nfs.h.
 *
 * Recognition: an ONC RPC call to the NFS program (100003), or a reply,
 * on the detection port (2049, either end); on TCP after its record mark.
 *
 * A transaction is a call and its reply, paired by xid among the calls
 * still open (at most NFS_MAX_OPEN_TX; past it the open ones are closed,
 * logged without their replies). */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/ipp-conf.h"
#include "app-layer/nfs.h"
#include "app-layer/pdubuf.h"

#include <stdlib.h>
#include <string.h>

#define NFS_KEY "app-layer.protocols.nfs."
#define NFS_MAX_READS 32            /* READs in flight per flow */
#define NFS_MAX_NAMES 16            /* handle -> name entries per flow */
#define NFS_MAX_OPENS 8             /* v4 OPENs in flight per flow */

static IppConf nfs_conf;

static void nfs_config_defaults(AppLayerConfig *cfg)
{
	static const uint16_t ports[] = { 2049 };

	(void)cfg;
	ipp_conf_defaults(&nfs_conf, ports, 1);
}

static int nfs_config_load(AppLayerConfig *cfg)
{
	(void)cfg;
	return ipp_conf_load(&nfs_conf, NFS_KEY);
}

static int nfs_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return ipp_conf_enabled(&nfs_conf);
}

static AppTxCounters ctr[2];

static void nfs_register_counters(void)
{
	txl_msg_counters_register(ctr, "nfs");
}

/* an RPC message at buf: a call to NFS or a reply */
static int probe_rpc(const uint8_t *buf, uint32_t len, int dir)
{
	uint32_t xid, type;

	if (nfs_rpc_peek(buf, len, &xid, &type) < 0)
		return DET_NO;
	if (type == 0) {
		/* xid, type, rpcvers, then the program */
		if (len < 16)
			return DET_MORE;
		if (((uint32_t)buf[12] << 24 | (uint32_t)buf[13] << 16 | (uint32_t)buf[14] << 8 |
		     buf[15]) != NFS_PROGRAM)
			return DET_NO;
		return dir == APP_DIR_TOSERVER ? DET_YES : DET_REVERSED;
	}
	return dir == APP_DIR_TOCLIENT ? DET_YES : DET_REVERSED;
}

static int nfs_probe(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
		     uint32_t len)
{
	uint32_t rec;

	(void)cfg;
	if (!ipp_conf_port_ok(&nfs_conf, f))
		return DET_NO;
	if (f->proto == 17)
		return len < 12 ? DET_NO : probe_rpc(buf, len, dir);
	if (len < 16)
		return DET_MORE;
	rec = ((uint32_t)buf[0] << 24 | (uint32_t)buf[1] << 16 | (uint32_t)buf[2] << 8 | buf[3]) &
	      0x7fffffffu;
	if (rec < 12 || rec > NFS_MAX_RECORD)
		return DET_NO;
	return probe_rpc(buf + 4, len - 4 < rec ? len - 4 : rec, dir);
}

typedef struct NfsState {
	TxlMsgState m;              /* first: txlist.h's calls read it */
	/* xids of calls that made no transaction of their own (a v4 COMPOUND
	 * of no interest, a WRITE added to an open file transaction): their
	 * replies are expected, not unsolicited */
	uint32_t quiet[32];
	unsigned quiet_next;
	/* READ calls waiting for their replies: the chunk's handle and offset */
	struct {
		uint32_t xid, version;
		uint64_t off;
		uint8_t fh_len;
		uint8_t fh[NFS_MAX_FH];
	} reads[NFS_MAX_READS];
	unsigned reads_next;
	/* file names by handle, from LOOKUP and CREATE replies, as Suricata's
	 * name map: the names of the files READ and WRITE move (the oldest
	 * goes first) */
	struct {
		uint8_t fh_len;
		uint16_t name_len;
		uint8_t fh[NFS_MAX_FH];
		char name[NFS_MAX_NAME];
	} names[NFS_MAX_NAMES];
	unsigned names_next;
	/* v4 OPENs by name waiting for their replies' GETFH */
	struct {
		uint32_t xid;
		uint16_t len;
		char name[NFS_MAX_NAME];
	} opens[NFS_MAX_OPENS];
	unsigned opens_next;
} NfsState;

static void tx_free(AppTx *t)
{
	NfsTx *tx = (NfsTx *)t;

	files_container_free(&tx->files[0]);
	files_container_free(&tx->files[1]);
	free(t);
}

static void quiet_add(NfsState *st, uint32_t xid)
{
	st->quiet[st->quiet_next++ % 32] = xid;
}

static int quiet_take(NfsState *st, uint32_t xid)
{
	for (unsigned i = 0; i < 32 && i < st->quiet_next; i++)
		if (st->quiet[i] == xid) {
			st->quiet[i] = 0;
			return 1;
		}
	return 0;
}

FileContainer *nfs_files_of_tx(void *tx, int dir, int final)
{
	NfsTx *t = tx;

	(void)final;
	if (!t || !t->file_tx || dir < 0 || dir > 1)
		return NULL;
	return &t->files[dir];
}

void nfs_files_store(const Flow *f, void *tx, unsigned dirs, int flow_scope, uint32_t sid)
{
	NfsTx *t = tx;

	(void)f;
	(void)flow_scope;
	if (!t || !t->file_tx)
		return;
	for (int d = 0; d < 2; d++)
		if (dirs & (1u << d))
			for (const File *fl = files_first(&t->files[d]); fl; fl = file_next(fl))
				file_mark_store((File *)fl, sid);
}

/* The file transaction's file ends: the transaction is complete. */
static void file_tx_finish(NfsTx *tx, int how)
{
	if (tx->file) {
		file_close(tx->file, how);
		tx->file = NULL;
	}
	tx->base.done[0] = tx->base.done[1] = 1;
	tx->base.some[1] = 1;
}

/* the open file transaction of a handle, one direction's */
static NfsTx *file_tx_of(NfsState *st, const uint8_t *fh, uint8_t fh_len, int dir)
{
	for (AppTx *t = st->m.txs.head; t; t = t->next) {
		NfsTx *tx = (NfsTx *)t;

		if (tx->file_tx && tx->file && tx->file_dir == dir && tx->call.fh_len == fh_len &&
		    memcmp(tx->call.fh, fh, fh_len) == 0)
			return tx;
	}
	return NULL;
}

static void name_add(NfsState *st, const uint8_t *fh, uint8_t fh_len, const char *name,
		     uint16_t len)
{
	unsigned i;

	for (i = 0; i < NFS_MAX_NAMES; i++)
		if (st->names[i].fh_len == fh_len && memcmp(st->names[i].fh, fh, fh_len) == 0)
			break;
	if (i == NFS_MAX_NAMES)
		i = st->names_next++ % NFS_MAX_NAMES;
	st->names[i].fh_len = fh_len;
	memcpy(st->names[i].fh, fh, fh_len);
	st->names[i].name_len = len;
	memcpy(st->names[i].name, name, len);
	st->names[i].name[len] = '\0';
}

/* a call naming a handle only (READ, WRITE, GETATTR, ACCESS,
 * READDIRPLUS): the name the handle was looked up or created by */
static void name_of_handle(const NfsState *st, NfsCall *c)
{
	if (c->has_name || !c->fh_len)
		return;
	for (unsigned i = 0; i < NFS_MAX_NAMES; i++)
		if (st->names[i].fh_len == c->fh_len &&
		    memcmp(st->names[i].fh, c->fh, c->fh_len) == 0) {
			memcpy(c->name, st->names[i].name, st->names[i].name_len + 1u);
			c->name_len = st->names[i].name_len;
			c->has_name = 1;
			return;
		}
}

static void *nfs_state_new(AppLayerThread *at, Flow *f)
{
	return txl_msg_state_new(at, ipp_of(f), sizeof(NfsState), ALPROTO_NFS,
				 tx_free, ctr, nfs_conf.enabled);
}

static NfsTx *new_tx(NfsState *st)
{
	NfsTx *tx;

	if (st->m.txs.live >= NFS_MAX_OPEN_TX) {
		/* a flow of calls never answered: close them all */
		txl_close_all(&st->m.txs);
		if (st->m.txs.tail)
			st->m.txs.tail->events |= 1u << NFS_EV_TOO_MANY_TX;
	}
	if (!(tx = calloc(1, sizeof(*tx)))) {
		app_tx_count(st->m.at, &ctr[st->m.ipp], APP_CTR_ALLOC, 1);
		return NULL;
	}
	tx->tcp = st->m.ipp == IPP_TCP;
	txl_add(&st->m.txs, &tx->base);
	app_tx_count(st->m.at, &ctr[st->m.ipp], APP_CTR_TX, 1);
	return tx;
}

static NfsTx *open_call(NfsState *st, uint32_t xid)
{
	for (AppTx *t = st->m.txs.head; t; t = t->next) {
		NfsTx *tx = (NfsTx *)t;

		if (tx->has_call && !tx->has_reply && !t->done[1] && tx->call.xid == xid)
			return tx;
	}
	return NULL;
}

static void malformed(NfsState *st, int dir)
{
	NfsTx *tx = new_tx(st);

	app_tx_count(st->m.at, &ctr[st->m.ipp], APP_CTR_PARSER, 1);
	if (!tx)
		return;
	tx->base.events |= 1u << NFS_EV_MALFORMED_DATA;
	tx->base.done[0] = tx->base.done[1] = 1;
	tx->base.flags |= dir == APP_DIR_TOSERVER ? APP_TX_ONLY_TS | APP_TX_DETECT_TC
						  : APP_TX_ONLY_TC | APP_TX_DETECT_TS;
}

/* A WRITE call: its bytes go to the file transaction of its handle (opened
 * by the first WRITE; a v3 COMMIT or the flow's end closes it). */
static void on_write(NfsState *st, const NfsCall *c)
{
	NfsTx *tx = file_tx_of(st, c->fh, c->fh_len, APP_DIR_TOSERVER);

	if (tx) {
		quiet_add(st, c->xid);
	} else {
		if (!(tx = new_tx(st)))
			return;
		tx->has_call = 1;
		tx->call = *c;
		tx->call.w_data = NULL;
		tx->call.procedure = c->version == 4 ? NFS4_OP_WRITE : NFS3_PROC_WRITE;
		/* Suricata's file transaction carries no credentials */
		tx->call.auth = NFS_AUTH_NULL;
		tx->call.has_creds = 0;
		tx->file_tx = 1;
		tx->file_dir = APP_DIR_TOSERVER;
		tx->files[0].tc = tx->files[1].tc = st->m.at ? st->m.at->tc : NULL;
		tx->file = files_open(&tx->files[APP_DIR_TOSERVER],
				      (const uint8_t *)c->name, c->has_name ? c->name_len : 0,
				      tx->base.id, 0);
		tx->base.some[0] = tx->base.done[0] = 1;
		if (!tx->file) {
			app_tx_count(st->m.at, &ctr[st->m.ipp], APP_CTR_ALLOC, 1);
			tx->base.done[1] = 1;
			return;
		}
	}
	tx->chunks++;
	tx->last_xid = c->xid;
	if (!tx->file)
		return;
	if (c->w_offset > tx->file_next)
		file_gap(tx->file, c->w_offset - tx->file_next);
	if (c->w_offset + c->w_len > tx->file_next) {
		uint64_t skip = c->w_offset < tx->file_next ? tx->file_next - c->w_offset : 0;

		file_append(tx->file, c->w_data + skip, c->w_len - (size_t)skip);
		tx->file_next = c->w_offset + c->w_len;
	}
}

/* A READ call: its reply's chunk goes to the file transaction of the
 * handle, which Suricata opens at the first READ of it (with the call's
 * credentials, unlike a WRITE's); the call makes no transaction of its own. */
static void on_read_call(NfsState *st, const NfsCall *c)
{
	unsigned i = st->reads_next++ % NFS_MAX_READS;
	NfsTx *tx;

	st->reads[i].xid = c->xid;
	st->reads[i].version = c->version;
	st->reads[i].off = c->r_offset;
	st->reads[i].fh_len = c->fh_len;
	memcpy(st->reads[i].fh, c->fh, c->fh_len);
	if (file_tx_of(st, c->fh, c->fh_len, APP_DIR_TOCLIENT) || !(tx = new_tx(st)))
		return;
	tx->has_call = 1;
	tx->call = *c;
	tx->call.procedure = c->version == 4 ? NFS4_OP_READ : NFS3_PROC_READ;
	if (c->version == 4) {
		/* Suricata 8 makes a v4 READ's file transaction at the reply,
		 * without the call's credentials */
		tx->call.auth = NFS_AUTH_NULL;
		tx->call.has_creds = 0;
	}
	tx->file_tx = 1;
	tx->file_dir = APP_DIR_TOCLIENT;
	tx->files[0].tc = tx->files[1].tc = st->m.at ? st->m.at->tc : NULL;
	tx->file = files_open(&tx->files[APP_DIR_TOCLIENT], (const uint8_t *)c->name,
			      c->has_name ? c->name_len : 0, tx->base.id, 0);
	tx->base.some[0] = tx->base.done[0] = 1;
	if (!tx->file) {
		app_tx_count(st->m.at, &ctr[st->m.ipp], APP_CTR_ALLOC, 1);
		tx->base.done[1] = 1;
	}
}

/* the READ call a reply answers: 1 (and taken off the list), or 0 */
static int read_call_of(NfsState *st, uint32_t xid, NfsCall *c, uint64_t *off)
{
	for (unsigned i = 0; i < NFS_MAX_READS && i < st->reads_next; i++) {
		if (st->reads[i].xid != xid || !st->reads[i].version)
			continue;
		memset(c, 0, sizeof(*c));
		c->xid = xid;
		c->version = st->reads[i].version;
		c->procedure = c->version == 4 ? NFS4_OP_READ : NFS3_PROC_READ;
		c->is_read = 1;
		c->fh_len = st->reads[i].fh_len;
		memcpy(c->fh, st->reads[i].fh, c->fh_len);
		*off = st->reads[i].off;
		st->reads[i].version = 0;
		return 1;
	}
	return 0;
}

/* A READ reply: its chunk at the call's offset into the handle's file; the
 * file ends at the chunk the server says is the last (v2: the one reaching
 * the file's size), and with it the transaction. */
static void on_read_reply(NfsState *st, NfsCall *c, uint64_t off, const NfsReply *r)
{
	NfsTx *tx = file_tx_of(st, c->fh, c->fh_len, APP_DIR_TOCLIENT);
	int last;

	if (!tx) {
		/* the file transaction ended (or was never made): a new one,
		 * as Suricata makes at a reply without one */
		name_of_handle(st, c);
		c->r_offset = off;
		on_read_call(st, c);
		st->reads[(st->reads_next - 1) % NFS_MAX_READS].version = 0;
		if (!(tx = file_tx_of(st, c->fh, c->fh_len, APP_DIR_TOCLIENT)))
			return;
	}
	tx->chunks++;
	tx->last_xid = c->xid;
	if (!r->has_read || !tx->file)
		return;
	if (off > tx->file_next)
		file_gap(tx->file, off - tx->file_next);
	if (off + r->r_len > tx->file_next) {
		uint64_t skip = off < tx->file_next ? tx->file_next - off : 0;

		file_append(tx->file, r->r_data + skip, r->r_len - (size_t)skip);
		tx->file_next = off + r->r_len;
	}
	last = c->version == 2 ? r->has_fsize && r->r_fsize == off + r->r_len : r->r_eof;
	if (last) {
		tx->has_reply = 1;
		tx->reply = *r;
		tx->reply.r_data = NULL;
		file_tx_finish(tx, FILE_CLOSE_OK);
	}
}

/* Bytes of a direction lost: its records cannot be found again (the
 * direction's parsing stops, txl_msg_skip()), so the files it was moving
 * end there, with the gap, truncated. */
static void files_gap(NfsState *st, int dir, uint32_t len)
{
	for (AppTx *t = st->m.txs.head; t; t = t->next) {
		NfsTx *tx = (NfsTx *)t;

		if (!tx->file_tx || !tx->file || tx->file_dir != dir)
			continue;
		file_gap(tx->file, len);
		file_tx_finish(tx, FILE_CLOSE_TRUNCATED);
	}
}

/* A v4 reply to an OPEN by name: the handle its GETFH gives is the name's,
 * as Suricata's name map takes it */
static void open_reply(NfsState *st, uint32_t xid, const uint8_t *p, uint32_t len)
{
	for (unsigned i = 0; i < NFS_MAX_OPENS && i < st->opens_next; i++) {
		NfsCall oc;
		NfsReply r;

		if (st->opens[i].xid != xid || !st->opens[i].len)
			continue;
		memset(&oc, 0, sizeof(oc));
		oc.version = 4;
		oc.procedure = 1;
		oc.v4_open = 1;
		if (nfs_rpc_decode(p, len, &oc, &r, &oc) == 2 && r.fh_len)
			name_add(st, r.fh, r.fh_len, st->opens[i].name, st->opens[i].len);
		st->opens[i].len = 0;
		return;
	}
}

/* The flow ends: open files are complete as far as they were written. */
static void files_eof(NfsState *st)
{
	for (AppTx *t = st->m.txs.head; t; t = t->next) {
		NfsTx *tx = (NfsTx *)t;

		if (tx->file_tx && tx->file)
			file_tx_finish(tx, FILE_CLOSE_OK);
	}
}

static void on_message(NfsState *st, int dir, const uint8_t *p, uint32_t len)
{
	NfsCall c;
	NfsReply r;
	uint32_t xid, type;
	NfsTx *tx;
	int k;

	if (nfs_rpc_peek(p, len, &xid, &type) < 0) {
		malformed(st, dir);
		return;
	}
	if (type == 1) {
		NfsCall rc;
		uint64_t off;

		open_reply(st, xid, p, len);

		if (read_call_of(st, xid, &rc, &off)) {
			k = nfs_rpc_decode(p, len, &c, &r, &rc);
			if (k < 0)
				malformed(st, dir);
			else if (k == 2)
				on_read_reply(st, &rc, off, &r);
			return;
		}
	}
	tx = type == 1 ? open_call(st, xid) : NULL;
	k = nfs_rpc_decode(p, len, &c, &r, tx ? &tx->call : NULL);
	if (k < 0) {
		malformed(st, dir);
		return;
	}
	if (k == 1) {
		/* READ, WRITE, GETATTR, ACCESS, READDIRPLUS name their file by
		 * the name its handle was found by, as Suricata's records do */
		if (c.is_read || c.is_write ||
		    (c.version == 3 && (c.procedure == 1 || c.procedure == 4 || c.procedure == 17)))
			name_of_handle(st, &c);
		if (c.version == 4 && c.v4_open && c.open_len) {
			unsigned i = st->opens_next++ % NFS_MAX_OPENS;

			st->opens[i].xid = c.xid;
			st->opens[i].len = c.open_len;
			memcpy(st->opens[i].name, c.open_name, c.open_len);
		}
		if (c.is_read) {
			on_read_call(st, &c);
			return;
		}
		if (c.is_write) {
			on_write(st, &c);
			return;
		}
		if (c.version == 3 && c.procedure == NFS3_PROC_COMMIT) {
			/* COMMIT ends the file's writes */
			NfsTx *ft = file_tx_of(st, c.fh, c.fh_len, APP_DIR_TOSERVER);

			if (ft)
				file_tx_finish(ft, FILE_CLOSE_OK);
		}
		if (c.version == 4 && !c.v4_main) {
			/* NULL, or a COMPOUND without an operation Suricata
			 * makes a transaction of */
			quiet_add(st, c.xid);
			return;
		}
		if (!(tx = new_tx(st)))
			return;
		tx->has_call = 1;
		tx->call = c;
		tx->base.some[0] = tx->base.done[0] = 1;
		return;
	}
	if (k != 2) {
		/* a call to another RPC program on the connection (NFSv4.1's
		 * callbacks go server to client): its reply is no NFS one */
		quiet_add(st, xid);
		return;
	}
	if (!tx && quiet_take(st, xid))
		return;
	if (!tx) {
		/* a reply to a call not seen (midstream, or lost) */
		if (!(tx = new_tx(st)))
			return;
		tx->base.events |= 1u << NFS_EV_UNSOLICITED_REPLY;
		tx->base.done[0] = 1;
		tx->base.flags |= APP_TX_ONLY_TC | APP_TX_DETECT_TS;
	}
	/* LOOKUP and CREATE tell the name of the handle they answer with */
	if (r.fh_len && tx->has_call && tx->call.has_name && !tx->call.is_rename)
		name_add(st, r.fh, r.fh_len, tx->call.name, tx->call.name_len);
	tx->has_reply = 1;
	tx->reply = r;
	tx->base.some[1] = 1;
	/* a file transaction completes with its file */
	if (!tx->file_tx || !tx->file)
		tx->base.done[1] = 1;
}

/* A record's whole length: its 4-byte mark (last-fragment bit, length) and
 * what follows */
static int64_t frame_len(const uint8_t *p, uint32_t len)
{
	if (len < 4)
		return 0;
	return 4 + (int64_t)(((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
			      (uint32_t)p[2] << 8 | p[3]) & 0x7fffffffu);
}

struct rec_ctx {
	NfsState *st;
	int dir;
};

static void on_record(void *arg, const uint8_t *p, uint32_t len)
{
	struct rec_ctx *r = arg;

	on_message(r->st, r->dir, p + 4, len - 4);
}

static int parse_data(NfsState *st, int dir, const uint8_t *data, uint32_t len, int flags);

static int nfs_parse(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
		     uint32_t len, int flags)
{
	NfsState *st = state;
	int r;

	(void)f;
	if (!st || st->m.detect_only || dir < 0 || dir > 1)
		return 0;
	st->m.at = at;
	if ((flags & APP_GAP) && !st->m.given_up[dir])
		files_gap(st, dir, len);
	r = parse_data(st, dir, data, len, flags);
	if (flags & APP_EOF)
		files_eof(st);
	return r;
}

static int parse_data(NfsState *st, int dir, const uint8_t *data, uint32_t len, int flags)
{
	struct rec_ctx rc = { st, dir };

	if (st->m.ipp == IPP_UDP) {
		if (data && len)
			on_message(st, dir, data, len);
		return 0;
	}
	if (txl_msg_skip(&st->m, &ctr[st->m.ipp], dir, data, len, flags))
		return 0;
	if (pdubuf_feed(&st->m.pdu[dir], data, len, NFS_MAX_RECORD + 4, frame_len, on_record,
			&rc) < 0) {
		malformed(st, dir);
		st->m.given_up[dir] = 1;
		return -1;
	}
	return 0;
}

const AppProtoOps nfs_proto_ops = {
	.name = "nfs",
	.ipprotos = APP_IPPROTO_TCP | APP_IPPROTO_UDP,
	.config_defaults = nfs_config_defaults,
	.config_load = nfs_config_load,
	.enabled = nfs_enabled,
	.register_counters = nfs_register_counters,
	.probe = nfs_probe,
	.state_new = nfs_state_new,
	.state_free = txl_msg_state_free,
	.parse = nfs_parse,
	TXL_TX_OPS,
	.event_lookup = nfs_event_by_name,
	.tx_has_event = txl_op_has_event,
};
