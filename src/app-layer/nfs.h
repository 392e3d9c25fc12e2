/* NFS v2 and v3 (RFC 1094, RFC 1813) over ONC RPC (RFC 5531) on TCP
 * (record marking) and UDP: the parser's view, for detection
 * (detect/nfs-kw.c) and eve (output/nfs-json.c).
 *
 * As in Suricata 8, a transaction is one RPC call and its reply, paired by
 * xid; it is complete, and logged, once the reply came. What is kept: the
 * call's xid, credentials (flavor, AUTH_UNIX machine name, uid, gid), NFS
 * version and procedure, the file handle it names and the file name
 * (LOOKUP, CREATE, REMOVE, RENAME's two, ...); the reply's accept state
 * and NFS status. NFSv4 COMPOUND calls are decoded operation by operation
 * as far as their arguments are known: a WRITE makes a file transaction
 * (as a v3 WRITE does), CREATE, REMOVE and RENAME a transaction named by
 * that operation; other compounds (and v4 NULL) make none, as in
 * Suricata 8. */
#ifndef APP_LAYER_NFS_H
#define APP_LAYER_NFS_H

#include "app-layer/txlist.h"
#include "app-layer/files.h"

#include <stdint.h>

#define NFS_PROGRAM 100003
#define NFS_MAX_NAME 256            /* a file name kept */
#define NFS_MAX_FH 64               /* NFSv3 handles are at most 64 bytes */
#define NFS_MAX_MACHINE 64
#define NFS_MAX_RECORD (1u << 20)   /* an RPC record buffered on TCP */
#define NFS_MAX_OPEN_TX 256         /* calls waiting for their replies */

enum nfs_auth { NFS_AUTH_NULL = 0, NFS_AUTH_UNIX = 1, NFS_AUTH_SHORT = 2, NFS_AUTH_DH = 3,
		NFS_AUTH_GSS = 6 };

/* a call, as decoded (nothing allocated) */
typedef struct NfsCall {
	uint32_t xid, version, procedure;
	uint32_t auth;
	uint32_t uid, gid;
	uint8_t has_creds;
	char machine[NFS_MAX_MACHINE];
	uint8_t fh_len;
	uint8_t fh[NFS_MAX_FH];
	uint16_t name_len, to_len;
	char name[NFS_MAX_NAME];    /* file name; RENAME: from */
	char to[NFS_MAX_NAME];      /* RENAME: to */
	uint8_t has_name, is_rename;
	/* NFSv4 COMPOUND: the operation that names the call (procedure is
	 * then that operation's number, as Suricata logs it); 0 none */
	uint32_t v4_main;
	/* WRITE (v3 or a v4 COMPOUND's): the bytes, pointing into the message
	 * being decoded (valid only while it is) */
	uint8_t is_write;
	uint32_t w_stable, w_len;
	uint64_t w_offset;
	const uint8_t *w_data;
	/* READ (v2, v3 or a v4 COMPOUND's): where the chunk asked for starts */
	uint8_t is_read;
	uint64_t r_offset;
	/* v4 OPEN by name (CLAIM_NULL): the name, for the handle GETFH answers */
	uint8_t v4_open;
	uint16_t open_len;
	char open_name[NFS_MAX_NAME];
} NfsCall;

/* a reply */
typedef struct NfsReply {
	uint32_t xid;
	uint32_t reply_stat;        /* 0 accepted, 1 denied */
	uint32_t accept_stat;       /* 0 success */
	uint8_t has_status;
	uint32_t nfs_status;
	/* LOOKUP, CREATE, MKDIR (v3 post-op handle): the object's handle */
	uint8_t fh_len;
	uint8_t fh[NFS_MAX_FH];
	/* READ: the chunk (pointing into the message being decoded), whether
	 * the server said it ends the file (v2 has no eof: the file's size from
	 * its attributes says it) */
	uint8_t has_read, r_eof, has_fsize;
	uint32_t r_len;
	uint64_t r_fsize;
	const uint8_t *r_data;
} NfsReply;

/* One RPC message: 1 a call to NFS (c set), 2 a reply (r set), 0 an RPC
 * message of no interest (another program), -1 not RPC. procs: the reply's
 * call (for its procedure, to read results), NULL when unknown. */
int nfs_rpc_decode(const uint8_t *buf, uint32_t len, NfsCall *c, NfsReply *r,
		   const NfsCall *call_of_reply);
/* xid and type of a message without decoding it; -1 not RPC */
int nfs_rpc_peek(const uint8_t *buf, uint32_t len, uint32_t *xid, uint32_t *type);

const char *nfs_proc_name(uint32_t version, uint32_t proc);
/* procedure by name for the version (any when 0); -1 unknown */
int nfs_proc_by_name(uint32_t version, const char *name);
const char *nfs_status_name(uint32_t version, uint32_t status);
const char *nfs_auth_name(uint32_t auth);

/* NFSv4 operations (RFC 8881 section 16.2) the parser acts on */
#define NFS4_OP_CREATE 6
#define NFS4_OP_PUTFH 22
#define NFS4_OP_REMOVE 28
#define NFS4_OP_RENAME 29
#define NFS4_OP_WRITE 38
#define NFS4_OP_GETFH 10
#define NFS4_OP_OPEN 18
#define NFS4_OP_READ 25
#define NFS4_OP_SEQUENCE 53
#define NFS3_PROC_READ 6            /* v2's READ is 6 too */
#define NFS3_PROC_WRITE 7
#define NFS3_PROC_COMMIT 21

enum nfs_event {
	NFS_EV_MALFORMED_DATA = 0,
	NFS_EV_UNSOLICITED_REPLY,
	NFS_EV_TOO_MANY_TX,
	NFS_EV_COUNT
};
const char *nfs_event_name(int ev);
int nfs_event_by_name(const char *name);

typedef struct NfsTx {
	AppTx base;
	uint8_t has_call, has_reply;
	NfsCall call;
	NfsReply reply;
	uint8_t tcp;
	/* a file transaction: the WRITEs to one file handle, its bytes in
	 * files[APP_DIR_TOSERVER], or the READ replies of one, in
	 * files[APP_DIR_TOCLIENT] (nfs-proto.c) */
	uint8_t file_tx;
	uint8_t file_dir;           /* APP_DIR_TOSERVER: WRITEs; TOCLIENT: READ replies */
	uint32_t chunks, last_xid;
	uint64_t file_next;         /* the next offset expected */
	File *file;                 /* open while the file is written */
	FileContainer files[2];
} NfsTx;

/* files-proto.c: the files of an NFS transaction */
FileContainer *nfs_files_of_tx(void *tx, int dir, int final);
void nfs_files_store(const Flow *f, void *tx, unsigned dirs, int flow_scope, uint32_t sid);

#endif
