/* SMB 1/2/3 stream parser: one SmbState per flow, fed each direction's
 * TCP stream bytes in any segmentation.
 *
 * Framing: NBSS (RFC 1002 session messages; on 445 the same 4-byte header
 * with a 24-bit length) carrying SMB1 (\xffSMB), SMB2 (\xfeSMB, compound
 * chains through NextCommand) or the SMB3 transform header (\xfdSMB:
 * encrypted, counted and skipped). A record split over segments is
 * reassembled (up to SMB_MAX_RECORD; past that the head is parsed and the
 * rest skipped, record_overflow); several records in one segment are
 * parsed in order. After a gap, or bytes that are no NBSS header, the
 * parser resynchronises on the next "00 len len len (ff|fe|fd)SMB".
 *
 * Transactions follow Suricata's: one per request/response pair (SMB2:
 * message id and command; SMB1: multiplex id, process id and command); a
 * response with no request seen (midstream) is a transaction of its own;
 * an SMB2 STATUS_PENDING interim response leaves the transaction open for
 * its final one. READ and WRITE on a file are one transaction per file and
 * direction (file id), closed by CLOSE or the flow's end; on a named pipe
 * (SMB1 TRANS / WriteAndX / ReadAndX, SMB2 WRITE / READ / IOCTL) the data
 * goes to smb_pipe_data() (smb.h) on the command's transaction.
 *
 * No engine dependencies beyond the files module (files.h) and the DCE/RPC
 * library (dcerpc-parse.h, for named pipes: smb-pipe.c): no logging, no
 * config, no globals. Memory: bounded per flow by SMB_MAX_RECORD per
 * direction, SMB_MAX_TX open transactions, SMB_MAX_NAMES tree/file names
 * and SMB_MAX_PIPES DCE/RPC conversations. */
#ifndef APP_LAYER_SMB_PARSE_H
#define APP_LAYER_SMB_PARSE_H

#include "app-layer/dcerpc-parse.h"
#include "app-layer/files.h"

#include <stddef.h>
#include <stdint.h>

#define SMB_TOSERVER 0
#define SMB_TOCLIENT 1

/* A record longer than this is parsed from its first SMB_MAX_RECORD bytes;
 * the rest is skipped (SMB2 writes are at most 8 MiB in practice). */
#define SMB_MAX_RECORD (16u << 20)
/* Transactions open at once; past it the oldest is closed (too_many_txs). */
#define SMB_MAX_TX 1024
/* Tree and file names remembered per flow (tree id / file id to name). */
#define SMB_MAX_NAMES 256
/* Named pipes with a DCE/RPC conversation kept per flow; past it a new
 * pipe's bytes are not parsed as DCE/RPC (event internal_error). */
#define SMB_MAX_PIPES 64
/* Strings kept from the protocol (names, user, domain, ...). */
#define SMB_MAX_STR 1024
/* Client dialects kept from a negotiate request. */
#define SMB_MAX_DIALECTS 16
#define SMB_MAX_KRB_SNAMES 8        /* a ticket's sname components kept */

/* Events: Suricata's names (rules/smb-events.rules). */
enum smb_event {
	SMB_EV_INTERNAL_ERROR,
	SMB_EV_MALFORMED_DATA,
	SMB_EV_RECORD_OVERFLOW,
	SMB_EV_MALFORMED_NTLMSSP_REQUEST,
	SMB_EV_MALFORMED_NTLMSSP_RESPONSE,
	SMB_EV_DUPLICATE_NEGOTIATE,
	SMB_EV_NEGOTIATE_MALFORMED_DIALECTS,
	SMB_EV_FILE_OVERLAP,
	SMB_EV_REQUEST_TO_CLIENT,
	SMB_EV_RESPONSE_TO_SERVER,
	SMB_EV_READ_RESPONSE_TOO_LARGE,
	SMB_EV_READ_REQUEST_TOO_LARGE,
	SMB_EV_WRITE_REQUEST_TOO_LARGE,
	SMB_EV_UNUSUAL_NBSS_TYPE,
	SMB_EV_TOO_MANY_TXS,
	SMB_EV_COUNT
};

const char *smb_event_name(int ev);
int smb_event_by_name(const char *name);

/* What a transaction carries besides the header (Suricata's type data). */
enum smb_tx_type {
	SMB_TXT_GENERIC = 0,
	SMB_TXT_NEGOTIATE,
	SMB_TXT_SESSION_SETUP,
	SMB_TXT_TREE_CONNECT,
	SMB_TXT_CREATE,
	SMB_TXT_FILE,               /* reads or writes of one file, one direction */
	SMB_TXT_IOCTL,
	SMB_TXT_RENAME,
	SMB_TXT_SET_INFO,           /* Suricata's SETFILEPATHINFO: a file's
	                             * delete-on-close set (SMB1 TRANS2 SET_PATH/
	                             * FILE_INFO, SMB2 SET_INFO disposition) */
};

/* A bounded byte string (NUL-terminated for printing). */
typedef struct SmbStr {
	char *s;
	uint32_t len;
} SmbStr;

typedef struct SmbTx {
	uint64_t id;                /* from 0: the app layer's transaction id */
	uint64_t log_id;            /* eve "id": from 1, silent requests skipped
	                             * (Suricata makes no transaction of them) */
	uint8_t version;            /* 1 or 2 */
	uint8_t type;               /* enum smb_tx_type */
	uint8_t request_done, response_done;
	uint8_t status_set;         /* NT status known */
	uint8_t dos_set;            /* SMB1 DOS error class/code known instead */
	uint8_t dos_class;
	uint8_t pending;            /* SMB2 STATUS_PENDING came; final still due */
	uint8_t dir;                /* SMB_TXT_FILE: the data's direction */
	uint8_t is_pipe;            /* the tree or file is a named pipe */
	uint8_t pipe_wait;          /* a pipe WRITE answered by SMB, its DCE/RPC
	                             * call not yet: response_done when it is */
	uint8_t silent;             /* a READ/WRITE request whose data went to
	                             * its file's transaction: kept only to pair
	                             * the response, never logged or inspected */
	uint16_t cmd;
	uint16_t dos_code;
	uint32_t status;            /* NT status */
	uint64_t msg_id;            /* SMB2 message id; SMB1 (pid << 16) | mid */
	uint64_t session_id;
	uint32_t tree_id;

	/* negotiate */
	SmbStr dialects[SMB_MAX_DIALECTS]; /* client's, as Suricata prints them */
	uint8_t ndialects;
	uint8_t have_client_guid, have_server_guid, have_sizes;
	uint8_t client_guid[16], server_guid[16];
	uint32_t max_read, max_write;
	/* session setup */
	uint8_t have_ntlmssp, have_ntlm_version, have_req_host, have_res_host;
	SmbStr ntlm_user, ntlm_domain, ntlm_host;
	uint8_t ntlm_version[8];    /* major, minor, build (le16), reserved, revision */
	SmbStr req_os, req_lm, res_os, res_lm;
	uint8_t have_krb;           /* a Kerberos AP-REQ: its ticket's realm, sname */
	uint8_t krb_nsnames;
	SmbStr krb_realm;
	SmbStr krb_snames[SMB_MAX_KRB_SNAMES];
	/* tree connect: share (or pipe) name, SMB2 share type, SMB1 services */
	SmbStr share;
	uint8_t share_type;
	SmbStr req_service, res_service;
	/* create / file / rename */
	SmbStr filename;            /* create: the name; file, set info: the
	                             * file's; rename: from */
	SmbStr newname;             /* rename: to */
	uint8_t directory, delete_on_close, have_create_resp;
	uint32_t disposition;
	uint64_t created, accessed, modified, changed, size;
	uint8_t fuid[16];
	uint8_t fuid_len;           /* 16 (SMB2) or 2 (SMB1 FID); 0 none */
	/* set info: SMB1 the TRANS2 subcommand and its information level,
	 * SMB2 the info class and level */
	uint16_t subcmd, loi;
	/* ioctl */
	uint32_t ioctl_func;
	/* files (SMB_TXT_FILE): the data's file, [dir] */
	FileContainer files[2];
	File *file;                 /* the OPEN file, in files[dir] */
	uint64_t file_next;         /* the offset the next data should have */

	/* the DCE/RPC call this command carried on a named pipe (a bind or
	 * a request, with its answer once it came): owned by the pipe's
	 * dcerpc_state (SmbPipe), which keeps it while any SmbTx refers to
	 * it (its app_flags count the SmbTx); NULL when none */
	struct dcerpc_tx *dce;

	uint32_t events;            /* 1 << enum smb_event */
	uint32_t events_logged;     /* eve anomaly: the events already written */
	unsigned app_flags;         /* APP_TX_* (app-layer.h) */
	void *detect;               /* detection's per-tx state */
	struct SmbTx *next;
} SmbTx;

/* tree id or file id -> name (and whether it is a pipe) */
#define SMB_PIPE_UNKNOWN 2          /* SmbName.is_pipe: a file of a tree not seen */
typedef struct SmbName {
	uint8_t key[16];
	uint8_t key_len;
	uint8_t is_pipe;            /* 0, 1, SMB_PIPE_UNKNOWN */
	uint32_t tree_id;           /* files: the tree they were opened on */
	SmbStr name;
	struct SmbName *next;
} SmbName;

/* A named pipe's DCE/RPC conversation, by file id (SMB2 FileId, SMB1
 * FID; key_len 0: a TRANS on the tree with no FID). */
typedef struct SmbPipe {
	uint8_t key[16];
	uint8_t key_len;
	struct dcerpc_state dce;
	struct SmbPipe *next;
} SmbPipe;

/* One direction's NBSS framer. */
typedef struct SmbFramer {
	uint8_t hdr[8];             /* NBSS header + 4 bytes of SMB magic while syncing */
	uint8_t hdr_len;
	uint8_t lost;               /* resynchronising: look for the next record start */
	uint32_t rec_len;           /* the record's length (after the NBSS header) */
	uint32_t rec_have;          /* bytes of it in buf */
	uint32_t skip;              /* bytes of the record past what is kept */
	uint8_t *buf;
	uint32_t cap;
	uint64_t rec_off;           /* stream offset of the record's NBSS header (frames) */
} SmbFramer;

/* Suricata's SMB frame types (frames.h; names in smb-proto.c): per NBSS
 * message and per SMB1 / SMB2 (each of a compound) / SMB3 transform message
 * its whole, its header and what follows the header. */
enum {
	SMB_FRAME_NBSS_PDU, SMB_FRAME_NBSS_HDR, SMB_FRAME_NBSS_DATA,
	SMB_FRAME_SMB1_PDU, SMB_FRAME_SMB1_HDR, SMB_FRAME_SMB1_DATA,
	SMB_FRAME_SMB2_PDU, SMB_FRAME_SMB2_HDR, SMB_FRAME_SMB2_DATA,
	SMB_FRAME_SMB3_PDU, SMB_FRAME_SMB3_HDR, SMB_FRAME_SMB3_DATA,
};

typedef struct SmbStats {
	uint64_t records, encrypted, resyncs, gaps, bad_records, nbss_other;
} SmbStats;

typedef struct SmbState {
	SmbFramer fr[2];
	struct Flow *flow;          /* the flow it hangs off: frames (NULL: none) */
	SmbTx *head, *tail;
	uint64_t next_id;
	uint64_t next_log_id;       /* the last eve id given */
	uint32_t ntx;               /* in the list */
	uint32_t max_tx;            /* smb.max-tx (0: SMB_MAX_TX) */
	uint8_t too_many;           /* max_tx was passed: the parser stopped */
	uint8_t one_sided;          /* only the requests are seen (APP_ONESIDED):
	                             * no transaction waits for its response */
	uint16_t dialect2;          /* SMB2 negotiated dialect (0: none) */
	SmbStr dialect1;            /* SMB1 negotiated dialect string */
	SmbStr offered1[SMB_MAX_DIALECTS]; /* SMB1 dialects the client offered */
	uint8_t noffered1;
	uint8_t negotiated;
	uint8_t any_v1, any_v2;
	SmbName *trees, *fids;
	uint32_t nnames;
	SmbPipe *pipes;             /* smb-pipe.c */
	uint32_t npipes;
	SmbStats st;
	ThreadCounters *tc;         /* for files (file_store.* counters) */
	uint64_t files_memuse;      /* last seen, for the protocol's memuse */
} SmbState;

SmbState *smb_state_new(void);
void smb_state_free(SmbState *s);

/* Feeds len stream bytes of direction dir (SMB_TO*). 0 always: bad input
 * is counted (events, stats) and skipped. */
int smb_parse(SmbState *s, int dir, const uint8_t *data, size_t len);
/* len bytes of direction dir are missing: the record under way is lost,
 * open files get the gap, and the framer resynchronises. */
void smb_gap(SmbState *s, int dir, uint64_t len);
/* The flow ended: open file transactions are closed (files truncated). */
void smb_eof(SmbState *s, int dir);

/* Detection: 1 when the bytes are an NBSS message carrying SMB, 0 when
 * they cannot be, -1 too short to tell. *reply (may be NULL) is set when
 * the SMB header says response. nbss_ok: an NBSS session-service message
 * without SMB counts (the flow is on an SMB port). */
int smb_probe(const uint8_t *data, size_t len, int nbss_ok, int *reply);

/* Frees transactions for which ok(tx, arg) says yes (complete and done
 * with by every user). */
void smb_gc(SmbState *s, int (*ok)(const SmbTx *t, unsigned need), unsigned need);
void smb_tx_free(SmbTx *t);

/* Names, as Suricata writes them. */
const char *smb1_command_name(unsigned cmd);     /* "SMB1_COMMAND_READ_ANDX" */
const char *smb2_command_name(unsigned cmd);     /* "SMB2_COMMAND_READ" */
const char *smb_ntstatus_name(uint32_t status);  /* "STATUS_SUCCESS" or NULL */
/* "2.02", "3.11", ...: into buf (cap bytes) */
const char *smb2_dialect_name(uint16_t d, char *buf, size_t cap);
/* GUID / FileId as Suricata prints them (16 bytes, or a 2-byte SMB1 FID). */
void smb_guid_str(const uint8_t *g, size_t len, char *out, size_t cap);
const char *smb_fsctl_name(uint32_t func);       /* NULL when unnamed */
/* SMB1 DOS error names (class 1: "DOS_...", class 2: "SRV_...") or NULL. */
const char *smb_dos_error_name(uint8_t cls, uint16_t code);

/* UTF-16LE to UTF-8 (bad units become U+FFFD), at most cap-1 bytes and a
 * NUL. Returns the length written. For the parser and the tests. */
size_t smb_utf16_to_utf8(const uint8_t *p, size_t n, char *out, size_t cap);

#endif
