/* Files carried by application protocols, through one mechanism: a
 * protocol (HTTP today; SMTP, FTP, SMB next) owns one FileContainer per
 * transaction and direction and feeds it with files_open() /
 * file_append() / file_gap() / file_close(). The module tracks size,
 * state and gaps, computes md5/sha1/sha256 (OpenSSL EVP) and libmagic's
 * description incrementally when a rule or an output needs them, spools
 * the bytes for the file-store output when it may store them, and builds
 * eve's "fileinfo" object (Suricata 8's fields and order).
 *
 * Life cycle:
 *   start (single-threaded): keywords call files_request() while rules
 *     load; files_config_load() reads outputs' "files" options and the
 *     file-store output once (after the rules);
 *   packets: the protocol opens, appends and closes; detection reads
 *     name/size/hashes/magic; the logger writes fileinfo and hands a file
 *     marked for storing to file-store (output/file-store.h);
 *   end: files_container_free() with the transaction.
 *
 * States are Suricata's: OPEN while data comes, CLOSED when the protocol
 * saw the whole file, TRUNCATED when it stopped short (a body limit, a
 * gap, the flow ended), ERROR when the protocol gave up on it. */
#ifndef APP_LAYER_FILES_H
#define APP_LAYER_FILES_H

#include "flow/flow.h"
#include "stats/counters.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum file_state {
	FILE_STATE_NONE = 0,
	FILE_STATE_OPEN,
	FILE_STATE_CLOSED,
	FILE_STATE_TRUNCATED,
	FILE_STATE_ERROR,
};

/* What every file computes (files_request() / FilesConfig.need). */
#define FILE_NEED_MD5    0x01
#define FILE_NEED_SHA1   0x02
#define FILE_NEED_SHA256 0x04
#define FILE_NEED_MAGIC  0x08
#define FILE_NEED_STORE  0x10   /* a filestore rule exists: spool the bytes */
#define FILE_NEED_HEAD   0x20   /* a rule reads the head (file_head()) of the files
                                 * opened with FILE_OPEN_HEAD: kept without libmagic */

/* file_close() how */
#define FILE_CLOSE_OK        0
#define FILE_CLOSE_TRUNCATED 1
#define FILE_CLOSE_ERROR     2

/* files_open() flags */
#define FILE_OPEN_STORE 0x01    /* store this file whatever the rules say */
#define FILE_OPEN_HEAD  0x02    /* the protocol's file.data reads the file's head
                                 * (SMB): kept when FILE_NEED_HEAD was requested */

/* Bytes of a file's start kept for libmagic (it reads no further for the
 * types rules ask about). */
#define FILE_MAGIC_BYTES 4096

#define FILE_HASH_MD5 0
#define FILE_HASH_SHA1 1
#define FILE_HASH_SHA256 2
#define FILE_HASHES 3

typedef struct File File;

typedef struct FileContainer {
	File *head, *tail;
	uint32_t n;
	ThreadCounters *tc;         /* set by the protocol: file_store.* counts here */
} FileContainer;

typedef struct FilesConfig {
	unsigned need;              /* FILE_NEED_*: computed for every file */
	unsigned log_hashes;        /* eve files force-hash: FILE_NEED_MD5.. written */
	int log_magic;              /* eve files force-magic */
	/* outputs: - file-store: (version 2) */
	int store_enabled;
	int force_filestore;        /* store every file */
	int write_fileinfo;         /* <sha256>.<secs>.<id>.json next to each file */
	uint64_t stream_depth;      /* bytes stored of a file; 0: whole file */
	uint32_t max_open_files;    /* spools open at once; 0: unlimited */
	char store_dir[4096];
} FilesConfig;

/* ---- start ---- */

/* A rule keyword needs these (FILE_NEED_*) for every file. */
void files_request(unsigned need);
/* Reads outputs.N.eve-log.types.N.files (force-hash, force-magic) and
 * outputs.N.file-store (version 2 only: enabled, dir relative to log_dir,
 * write-fileinfo, force-filestore, force-hash, stream-depth,
 * max-open-files). 0, or -1 with one line in err. */
int files_config_load(const char *log_dir, char *err, size_t errlen);
const FilesConfig *files_config(void);
/* run-as: the file-store folders (made by files_config_load) given to the
 * user and group the engine drops to, so that it can still store. 0, or
 * -1 with one line in err. */
int files_store_chown(uid_t uid, gid_t gid, char *err, size_t errlen);
/* Back to defaults and nothing requested (tests, fuzzers). */
void files_config_reset(void);
/* Process-wide tallies (atomics: files are handled on every worker):
 * spools refused at max-open-files, store I/O errors, files stored. */
typedef struct FilesStats {
	uint64_t open_files_max_hit, fs_errors, stored;
} FilesStats;
void files_stats(FilesStats *out);
/* file_store.open_files (spools open now), file_store.open_files_max_hit,
 * file_store.fs_errors: registered by each file-carrying protocol's
 * counters (before counters_freeze(); the same names twice are one). */
void files_register_counters(void);
/* Built with libmagic. */
int files_have_magic(void);

/* ---- protocol side ---- */

/* A new file at the end of fc, OPEN. name may hold any bytes (not
 * terminated); tx_id is what eve prints. NULL on allocation failure. */
File *files_open(FileContainer *fc, const uint8_t *name, size_t name_len, uint64_t tx_id,
		 unsigned flags);
/* Renames a file (the protocol learned a better name). -1: no memory (the
 * old name stays). */
int file_set_name(File *f, const uint8_t *name, size_t name_len);
/* Bytes of an OPEN file, in order. */
void file_append(File *f, const uint8_t *data, size_t len);
/* len bytes of the file are missing: counted in its size, gaps set (the
 * hashes and the stored copy no longer stand for the file). */
void file_gap(File *f, uint64_t len);
/* Keep the first limit bytes of f (from its first byte: call it before any
 * append) for detection's file.data on protocols whose content lives
 * nowhere else (SMTP attachments, ftp-data); a gap ends what is kept. */
void file_keep_data(File *f, uint32_t limit);
/* Ends an OPEN file (FILE_CLOSE_*); hashes and magic are final. */
void file_close(File *f, int how);
/* Closes every OPEN file of fc as TRUNCATED (the flow or transaction
 * ended under them). */
void files_truncate_open(FileContainer *fc);
void files_container_free(FileContainer *fc);
/* Heap bytes fc's files hold now (for the protocol's memuse). */
uint64_t files_memuse(const FileContainer *fc);

/* ---- readers ---- */

const File *files_first(const FileContainer *fc);
const File *file_next(const File *f);
const uint8_t *file_name(const File *f, uint32_t *len);
uint64_t file_size(const File *f);
int file_state(const File *f);
int file_has_gaps(const File *f);
uint64_t file_tx_id(const File *f);
/* The file's number in the run's order of opening, from 1 (Lua's
 * file:file_id(); eve's file_id is file-store's, given when stored). */
uint64_t file_track_id(const File *f);
/* The final digest (FILE_HASH_*) of a CLOSED or TRUNCATED file that
 * computed it, else NULL; *len: its length. */
const uint8_t *file_hash(const File *f, int which, uint32_t *len);
/* What file_keep_data() kept so far (len 0: nothing). */
const uint8_t *file_kept_data(const File *f, uint32_t *len);
/* libmagic's description, computed on first call (NULL: none, or built
 * without libmagic). */
const char *file_magic(File *f);
const char *file_state_name(int state);
/* The file's fileinfo record was written (or its outputs had it): the
 * file logger's mark, so that a file logs once, when it closes. */
int file_logged(const File *f);
void file_set_logged(File *f);
/* Suricata prunes a file from its transaction once it is logged (and
 * stored or not), at the end of a packet of the file's direction: alerts
 * on later packets no longer name it. The file logger marks it so. */
int file_pruned(const File *f);
void file_set_pruned(File *f);
/* The file's first bytes as kept for libmagic (at most FILE_MAGIC_BYTES,
 * only while FILE_NEED_MAGIC, or FILE_NEED_HEAD for a file opened with
 * FILE_OPEN_HEAD, was requested when it opened); NULL when none were kept.
 * SMB's file_data reads them. */
const uint8_t *file_head(const File *f, uint32_t *len);

/* ---- filestore ---- */

/* A filestore rule (sid) asks for this file. */
void file_mark_store(File *f, uint32_t sid);
/* Stores it whatever the rules say ("filestore" with a tx / flow scope
 * reaching files opened later goes through FILE_OPEN_STORE). */
int file_store_wanted(const File *f);
/* Called by the file-store output once the file is final: writes it (1),
 * or drops its spool (0: not wanted, or nothing to store); -1 on an I/O
 * error (counted in file_store.fs_errors). ts: the record's time. */
int file_store_finish(File *f, const struct timeval *ts);
/* write-fileinfo: the stored file's record (the bytes of its eve fileinfo
 * record, as Suricata writes it) as <sha256>.<seconds>.<file_id>.json
 * beside it.
 * 0 when written or not asked for; -1 on an I/O error (counted). */
int file_store_write_meta(File *f, const char *record, size_t len);
int file_is_stored(const File *f);

/* ---- the protocols that carry files (files-proto.c: one line each) ---- */

/* The files of transaction tx (of protocol alproto) on side dir (APP_DIR_*), as far as its
 * protocol has them (final: the flow ended, build what is left). NULL when
 * the protocol carries no files. */
FileContainer *files_of_tx(int alproto, void *tx, int dir, int final);
/* filestore's tx and flow scopes: store every file of tx on the sides in
 * dirs (1 << APP_DIR_*), and with flow_scope those of later transactions. */
void files_store_scope(const Flow *f, void *tx, unsigned dirs, int flow_scope, uint32_t sid);
/* Whether tx's records (fileinfo) may be written now: with filestore rules
 * loaded, only once detection is done with both sides of tx (a side's
 * rules run on packets going that way, possibly after the transaction
 * completed), so that "stored" tells what the rules decided. */
int files_tx_log_ready(const Flow *f, const void *tx);
/* f's protocol carries files. */
int files_proto_has(int alproto);
/* The i-th protocol that carries files, from 0; -1 past the last. */
int files_proto_at(unsigned i);

/* ---- what eve shows (output/file-log.c writes the "fileinfo" object) ---- */

typedef struct FileView {
	const uint8_t *name;
	uint32_t name_len;
	const uint32_t *sids;       /* the filestore rules that matched it */
	uint16_t nsids;
	const char *magic;          /* libmagic's text when asked for, else NULL */
	int state;                  /* FILE_STATE_* */
	int gaps;
	int stored;                 /* file-store wrote it */
	int storing;                /* to be stored, not yet (an alert before its end) */
	uint64_t file_id;           /* file-store's id, once stored */
	uint64_t size;
	uint64_t tx_id;
} FileView;

/* f's fields as eve shows them, valid until f changes; its digests through
 * file_hash(). */
void file_view(File *f, FileView *v);

#endif
