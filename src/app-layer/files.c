/* The files module (files.h): per-transaction file containers, incremental
 * hashes (OpenSSL EVP), libmagic, the file-store v2 spool, and the eve
 * "fileinfo" object. */
#define _GNU_SOURCE
#include "config.h"
#include "app-layer/files.h"
#include "conf/conf.h"
#include "util/log.h"
#include "util/digest.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <dirent.h>
#include <signal.h>
#include <sys/time.h>
#include <unistd.h>
#ifdef HAVE_LIBMAGIC
#include <magic.h>
#endif

struct File {
	File *next;
	uint8_t *name;
	uint32_t name_len;
	uint8_t state;
	uint8_t gaps;
	uint8_t store;              /* a filestore rule or FILE_OPEN_STORE asked */
	uint8_t stored;             /* file-store wrote it */
	uint8_t finished;           /* file_store_finish() ran */
	uint8_t magic_done;
	uint8_t logged;             /* file_set_logged(): its record is out */
	uint8_t pruned;             /* file_set_pruned(): alerts no longer name it */
	unsigned need;              /* FILE_NEED_* when it opened */
	uint64_t size;              /* bytes seen, gaps included */
	uint64_t tx_id;
	uint64_t file_id;           /* file-store's id, once stored */
	uint64_t track_id;          /* the run's count of files at its opening */
	EVP_MD_CTX *md[FILE_HASHES];
	uint8_t digest[FILE_HASHES][32];
	uint8_t have[FILE_HASHES];
	uint8_t *head;              /* first FILE_MAGIC_BYTES, for libmagic */
	uint32_t head_len;
	uint8_t *kept;              /* file_keep_data(): the first kept_limit bytes */
	uint32_t kept_len, kept_cap, kept_limit;
	uint8_t kept_gap;           /* a gap came before kept_limit: what follows is not kept */
	char *magic;
	uint32_t *sids;
	uint16_t nsids, capsids;
	int spool_fd;               /* -1: not spooling */
	uint64_t spooled;
	char *spool_path;
	char *stored_path;          /* where file-store put it */
	int64_t stored_secs;        /* the record time it was stored at */
	ThreadCounters *tc;
};

static const uint32_t hash_len[FILE_HASHES] = { 16, 20, 32 };

/* ---- configuration (read-only once the engine runs) ---- */

static FilesConfig cfg;
static unsigned requested;
static uint64_t next_file_id, spool_seq, open_spools, next_track_id;
static FilesStats stats;
static counter_id c_open, c_max_hit, c_fs_errors;
static unsigned cnt_gen;

void files_register_counters(void)
{
	c_open = counter_register("file_store.open_files");
	c_max_hit = counter_register("file_store.open_files_max_hit");
	c_fs_errors = counter_register("file_store.fs_errors");
	cnt_gen = counters_generation();
}

static void count(const File *f, counter_id id, int64_t n)
{
	if (!f->tc || cnt_gen != counters_generation())
		return;
	if (n >= 0)
		counter_add(f->tc, id, (uint64_t)n);
	else
		counter_sub(f->tc, id, (uint64_t)-n);
}

static void fs_error(const File *f)
{
	__atomic_add_fetch(&stats.fs_errors, 1, __ATOMIC_RELAXED);
	count(f, c_fs_errors, 1);
}

static void config_defaults(void)
{
	memset(&cfg, 0, sizeof(cfg));
	cfg.max_open_files = 0;
}

void files_config_reset(void)
{
	config_defaults();
	requested = 0;
}

void files_request(unsigned need)
{
	requested |= need;
	cfg.need |= need;
}

const FilesConfig *files_config(void)
{
	return &cfg;
}

int files_have_magic(void)
{
#ifdef HAVE_LIBMAGIC
	return 1;
#else
	return 0;
#endif
}

void files_stats(FilesStats *out)
{
	out->open_files_max_hit = __atomic_load_n(&stats.open_files_max_hit, __ATOMIC_RELAXED);
	out->fs_errors = __atomic_load_n(&stats.fs_errors, __ATOMIC_RELAXED);
	out->stored = __atomic_load_n(&stats.stored, __ATOMIC_RELAXED);
}

/* force-hash: [md5, sha1, sha256] (a list, or one name) */
static int load_hashes(const ConfNode *n, const char *key, char *err, size_t errlen)
{
	static const char *const names[] = { "md5", "sha1", "sha256" };
	const ConfNode *v = conf_node_lookup(n, "force-hash");

	if (!v)
		return 0;
	for (const ConfNode *c = v->val ? v : v->child; c; c = v->val ? NULL : c->next) {
		size_t i;

		if (!c->val) {
			snprintf(err, errlen, "%s.force-hash: expected a list of md5, sha1, sha256",
				 key);
			return -1;
		}
		for (i = 0; i < 3; i++)
			if (strcasecmp(c->val, names[i]) == 0)
				break;
		if (i == 3) {
			snprintf(err, errlen, "%s.force-hash: unknown hash '%s' (use md5, sha1, sha256)",
				 key, c->val);
			return -1;
		}
		cfg.need |= FILE_NEED_MD5 << i;
	}
	return 0;
}

static int node_bool(const ConfNode *n, const char *rel, int *out, const char *key, char *err,
		     size_t errlen)
{
	const char *v = conf_node_get(n, rel);

	if (!v)
		return 0;
	if (!strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcasecmp(v, "on") ||
	    !strcmp(v, "1"))
		*out = 1;
	else if (!strcasecmp(v, "no") || !strcasecmp(v, "false") || !strcasecmp(v, "off") ||
		 !strcmp(v, "0"))
		*out = 0;
	else {
		snprintf(err, errlen, "%s.%s: invalid boolean '%s'", key, rel, v);
		return -1;
	}
	return 0;
}

/* eve-log types: - files: {force-magic, force-hash} */
static int load_eve_files(const ConfNode *eve, char *err, size_t errlen)
{
	const ConfNode *types = conf_node_lookup(eve, "types");

	for (const ConfNode *t = types ? types->child : NULL; t; t = t->next) {
		const ConfNode *f = conf_node_lookup(t, "files");
		int magic = 0;

		if (!f)
			f = conf_node_lookup(t, "file");
		if (!f || f->val)
			continue;
		if (node_bool(f, "force-magic", &magic, "outputs.eve-log.types.files", err,
			      errlen) < 0 ||
		    load_hashes(f, "outputs.eve-log.types.files", err, errlen) < 0)
			return -1;
		if (magic) {
			cfg.log_magic = 1;
			cfg.need |= FILE_NEED_MAGIC;
		}
	}
	return 0;
}

/* The folders file-store v2 writes into, as Suricata 8 makes them at
 * start: <dir>, <dir>/tmp and <dir>/00 .. <dir>/ff. fn(path, arg) for
 * each, until one returns non-zero (returned). */
static int store_tree_walk(int (*fn)(const char *path, void *arg), void *arg)
{
	char path[4200];
	int rc;

	if ((rc = fn(cfg.store_dir, arg)) != 0)
		return rc;
	snprintf(path, sizeof(path), "%s/tmp", cfg.store_dir);
	if ((rc = fn(path, arg)) != 0)
		return rc;
	for (unsigned i = 0; i < 256; i++) {
		snprintf(path, sizeof(path), "%s/%02x", cfg.store_dir, i);
		if ((rc = fn(path, arg)) != 0)
			return rc;
	}
	return 0;
}

typedef struct TreeErr {
	char *err;
	size_t errlen;
	uid_t uid;
	gid_t gid;
} TreeErr;

static int tree_mkdir(const char *path, void *arg)
{
	TreeErr *te = arg;

	if (mkdir(path, 0750) == 0 || errno == EEXIST)
		return 0;
	snprintf(te->err, te->errlen, "file-store: cannot create %s: %s", path, strerror(errno));
	return -1;
}

/* All of it at start, so that the folders exist (and can be given to
 * run-as's user) before privileges go: a worker that cannot make one later
 * would only count file_store.fs_errors. */
static int store_tree_make(char *err, size_t errlen)
{
	TreeErr te = { err, errlen, 0, 0 };

	return store_tree_walk(tree_mkdir, &te);
}

static int tree_chown(const char *path, void *arg)
{
	TreeErr *te = arg;

	if (chown(path, te->uid, te->gid) == 0)
		return 0;
	snprintf(te->err, te->errlen, "file-store: cannot give %s to uid %u gid %u: %s", path,
		 (unsigned)te->uid, (unsigned)te->gid, strerror(errno));
	return -1;
}

int files_store_chown(uid_t uid, gid_t gid, char *err, size_t errlen)
{
	TreeErr te = { err, errlen, uid, gid };

	if (!cfg.store_enabled)
		return 0;
	return store_tree_walk(tree_chown, &te);
}

/* A spool's name: file.<pid>.<seq> (spool_open). 1 with its pid. */
static int spool_name_pid(const char *name, long *pid)
{
	char *end;
	long p;

	if (strncmp(name, "file.", 5) != 0)
		return 0;
	errno = 0;
	p = strtol(name + 5, &end, 10);
	if (errno || p <= 0 || end == name + 5 || *end != '.' || !end[1])
		return 0;
	for (const char *q = end + 1; *q; q++)
		if (*q < '0' || *q > '9')
			return 0;
	*pid = p;
	return 1;
}

/* The spools a killed run left in <dir>/tmp: ours by their name, of a pid
 * that no longer runs (another instance may share the folder). Our own pid
 * counts as stale: this runs before any file opens (at start, or between
 * two files of the unix-socket runmode), and a container's engine often
 * has the pid its killed predecessor had. What a spool held was never a
 * stored file: nothing is lost. */
static void spools_clean_stale(void)
{
	char tmp[4200], path[4500];
	unsigned removed = 0;
	struct dirent *de;
	DIR *d;

	snprintf(tmp, sizeof(tmp), "%s/tmp", cfg.store_dir);
	if (!(d = opendir(tmp)))
		return;
	while ((de = readdir(d))) {
		long pid;

		if (!spool_name_pid(de->d_name, &pid))
			continue;
		if (pid != (long)getpid() && (kill((pid_t)pid, 0) == 0 || errno == EPERM))
			continue;
		snprintf(path, sizeof(path), "%s/%s", tmp, de->d_name);
		if (unlink(path) == 0)
			removed++;
	}
	closedir(d);
	if (removed)
		log_info("file-store: removed %u spool file%s a stopped run left in %s", removed,
			 removed == 1 ? "" : "s", tmp);
}

static int load_file_store(const ConfNode *fs, const char *log_dir, char *err, size_t errlen)
{
	static const char key[] = "outputs.file-store";
	const char *v;
	int enabled = 0;
	uint64_t u;

	if (node_bool(fs, "enabled", &enabled, key, err, errlen) < 0)
		return -1;
	if (!enabled)
		return 0;
	v = conf_node_get(fs, "version");
	if (!v || strcmp(v, "2") != 0) {
		/* Suricata 8 has only version 2; version 1 is gone */
		log_warning("file-store: only version 2 is supported (set %s.version: 2); "
			    "file-store stays off", key);
		return 0;
	}
	cfg.store_enabled = 1;
	if (node_bool(fs, "force-filestore", &cfg.force_filestore, key, err, errlen) < 0 ||
	    node_bool(fs, "write-fileinfo", &cfg.write_fileinfo, key, err, errlen) < 0 ||
	    load_hashes(fs, key, err, errlen) < 0)
		return -1;
	if ((v = conf_node_get(fs, "stream-depth"))) {
		if (parse_size(v, &u) != 0) {
			snprintf(err, errlen, "%s.stream-depth: invalid size '%s'", key, v);
			return -1;
		}
		cfg.stream_depth = u;
	}
	if ((v = conf_node_get(fs, "max-open-files"))) {
		if (parse_size(v, &u) != 0 || u > UINT32_MAX) {
			snprintf(err, errlen, "%s.max-open-files: invalid number '%s'", key, v);
			return -1;
		}
		cfg.max_open_files = (uint32_t)u;
	}
	v = conf_node_get(fs, "dir");
	if (!v)
		v = "filestore";
	if (v[0] == '/')
		snprintf(cfg.store_dir, sizeof(cfg.store_dir), "%s", v);
	else
		snprintf(cfg.store_dir, sizeof(cfg.store_dir), "%s/%s", log_dir, v);
	/* the name of a stored file is its sha256 */
	cfg.need |= FILE_NEED_SHA256;
	if (cfg.force_filestore)
		cfg.need |= FILE_NEED_STORE;
	if (store_tree_make(err, errlen) != 0)
		return -1;
	spools_clean_stale();
	return 0;
}

int files_config_load(const char *log_dir, char *err, size_t errlen)
{
	const ConfNode *outs = conf_get_node("outputs");
	unsigned keep = requested;

	config_defaults();
	cfg.need = keep;
	for (const ConfNode *o = outs ? outs->child : NULL; o; o = o->next) {
		const ConfNode *eve = conf_node_lookup(o, "eve-log");
		const ConfNode *fs = conf_node_lookup(o, "file-store");

		if (eve && load_eve_files(eve, err, errlen) < 0)
			return -1;
		if (fs && load_file_store(fs, log_dir, err, errlen) < 0)
			return -1;
	}
	/* a filestore rule without the output stores nothing (Suricata warns
	 * the same way) */
	if ((cfg.need & FILE_NEED_STORE) && !cfg.store_enabled) {
		if (keep & FILE_NEED_STORE)
			log_warning("One or more rule(s) depends on the file-store output log "
				    "which is not enabled. Enable the output \"file-store\".");
		cfg.need &= ~(unsigned)FILE_NEED_STORE;
	}
	if (cfg.store_enabled && cfg.stream_depth) {
		/* as in Suricata, file-store.stream-depth only ever extends what
		 * reassembly keeps: below stream.reassembly.depth it means nothing */
		uint64_t rd = 1ull << 20;

		if (conf_get_size("stream.reassembly.depth", &rd) < 0)
			rd = 1ull << 20;
		if (rd == 0 || cfg.stream_depth < rd) {
			log_warning("file-store.stream-depth value %llu has no effect since it's less "
				    "than stream.reassembly.depth value.",
				    (unsigned long long)cfg.stream_depth);
			cfg.stream_depth = 0;
		}
	}
#ifndef HAVE_LIBMAGIC
	cfg.need &= ~(unsigned)FILE_NEED_MAGIC;
#endif
	return 0;
}

/* ---- libmagic: one handle per thread (libmagic is not thread-safe) ---- */

#ifdef HAVE_LIBMAGIC
static pthread_key_t magic_key;
static pthread_once_t magic_once = PTHREAD_ONCE_INIT;

static void magic_handle_free(void *m)
{
	magic_close(m);
}

static void magic_key_init(void)
{
	pthread_key_create(&magic_key, magic_handle_free);
}

static magic_t thread_magic(void)
{
	magic_t m;

	pthread_once(&magic_once, magic_key_init);
	m = pthread_getspecific(magic_key);
	if (m)
		return m;
	m = magic_open(0);
	if (!m)
		return NULL;
	if (magic_load(m, NULL) != 0) {
		magic_close(m);
		return NULL;
	}
	pthread_setspecific(magic_key, m);
	return m;
}
#endif

/* ---- protocol side ---- */

static const EVP_MD *hash_md(int i)
{
	switch (i) {
	case FILE_HASH_MD5: return digest_md5();
	case FILE_HASH_SHA1: return digest_sha1();
	default: return digest_sha256();
	}
}

static void spool_open(File *f)
{
	char path[4300];
	uint64_t seq;

	if (cfg.max_open_files &&
	    __atomic_load_n(&open_spools, __ATOMIC_RELAXED) >= cfg.max_open_files) {
		__atomic_add_fetch(&stats.open_files_max_hit, 1, __ATOMIC_RELAXED);
		count(f, c_max_hit, 1);
		return;
	}
	seq = __atomic_add_fetch(&spool_seq, 1, __ATOMIC_RELAXED);
	snprintf(path, sizeof(path), "%s/tmp/file.%ld.%llu", cfg.store_dir, (long)getpid(),
		 (unsigned long long)seq);
	f->spool_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
	if (f->spool_fd < 0) {
		fs_error(f);
		return;
	}
	f->spool_path = strdup(path);
	if (!f->spool_path) {
		close(f->spool_fd);
		unlink(path);
		f->spool_fd = -1;
		return;
	}
	__atomic_add_fetch(&open_spools, 1, __ATOMIC_RELAXED);
	count(f, c_open, 1);
}

static void spool_drop(File *f)
{
	if (f->spool_fd >= 0) {
		close(f->spool_fd);
		f->spool_fd = -1;
		__atomic_sub_fetch(&open_spools, 1, __ATOMIC_RELAXED);
		count(f, c_open, -1);
	}
	if (f->spool_path) {
		unlink(f->spool_path);
		free(f->spool_path);
		f->spool_path = NULL;
	}
}

File *files_open(FileContainer *fc, const uint8_t *name, size_t name_len, uint64_t tx_id,
		 unsigned flags)
{
	File *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	if (name_len > UINT16_MAX)
		name_len = UINT16_MAX;   /* Suricata keeps names up to 64k too */
	f->name = malloc(name_len + 1);
	if (!f->name) {
		free(f);
		return NULL;
	}
	memcpy(f->name, name, name_len);
	f->name[name_len] = 0;
	f->name_len = (uint32_t)name_len;
	f->state = FILE_STATE_OPEN;
	f->tx_id = tx_id;
	/* files open on every worker: an atomic count, from 1 */
	f->track_id = __atomic_add_fetch(&next_track_id, 1, __ATOMIC_RELAXED);
	/* the head for file.data only on the protocols that read it there:
	 * every other file would copy it for nothing */
	f->need = cfg.need & ~(flags & FILE_OPEN_HEAD ? 0u : (unsigned)FILE_NEED_HEAD);
	f->spool_fd = -1;
	f->tc = fc->tc;
	for (int i = 0; i < FILE_HASHES; i++) {
		if (!(f->need & (FILE_NEED_MD5 << i)))
			continue;
		f->md[i] = EVP_MD_CTX_new();
		if (f->md[i] && EVP_DigestInit_ex(f->md[i], hash_md(i), NULL) != 1) {
			EVP_MD_CTX_free(f->md[i]);
			f->md[i] = NULL;
		}
	}
	if (flags & FILE_OPEN_STORE)
		f->store = 1;
	if (cfg.store_enabled && ((f->need & FILE_NEED_STORE) || f->store))
		spool_open(f);
	if (fc->tail)
		fc->tail->next = f;
	else
		fc->head = f;
	fc->tail = f;
	fc->n++;
	return f;
}

int file_set_name(File *f, const uint8_t *name, size_t name_len)
{
	uint8_t *n;

	if (name_len > UINT16_MAX)
		name_len = UINT16_MAX;
	n = malloc(name_len + 1);
	if (!n)
		return -1;
	memcpy(n, name, name_len);
	n[name_len] = 0;
	free(f->name);
	f->name = n;
	f->name_len = (uint32_t)name_len;
	return 0;
}

/* Up to kept_limit bytes, the buffer grown by doubling (a small file
 * costs what it is). Out of memory: what was kept stays, no more. */
static void keep(File *f, const uint8_t *data, size_t len)
{
	size_t n = f->kept_limit - f->kept_len;

	if (n > len)
		n = len;
	if (f->kept_len + n > f->kept_cap) {
		uint32_t cap = f->kept_cap ? f->kept_cap : f->kept_limit < 4096 ? f->kept_limit : 4096;
		uint8_t *p;

		while (cap < f->kept_len + n)
			cap = cap > f->kept_limit / 2 ? f->kept_limit : cap * 2;
		p = realloc(f->kept, cap);
		if (!p) {
			f->kept_gap = 1;
			return;
		}
		f->kept = p;
		f->kept_cap = cap;
	}
	memcpy(f->kept + f->kept_len, data, n);
	f->kept_len += (uint32_t)n;
}

void file_keep_data(File *f, uint32_t limit)
{
	if (f && f->state == FILE_STATE_OPEN && !f->size)
		f->kept_limit = limit;
}

const uint8_t *file_kept_data(const File *f, uint32_t *len)
{
	*len = f->kept_len;
	return f->kept_len ? f->kept : (const uint8_t *)"";
}

void file_append(File *f, const uint8_t *data, size_t len)
{
	if (!f || f->state != FILE_STATE_OPEN || !len)
		return;
	for (int i = 0; i < FILE_HASHES; i++)
		if (f->md[i])
			EVP_DigestUpdate(f->md[i], data, len);
	if ((f->need & (FILE_NEED_MAGIC | FILE_NEED_HEAD)) && f->head_len < FILE_MAGIC_BYTES) {
		size_t n = FILE_MAGIC_BYTES - f->head_len;

		if (!f->head)
			f->head = malloc(FILE_MAGIC_BYTES);
		if (f->head) {
			if (n > len)
				n = len;
			memcpy(f->head + f->head_len, data, n);
			f->head_len += (uint32_t)n;
		}
	}
	if (f->kept_len < f->kept_limit && !f->kept_gap)
		keep(f, data, len);
	if (f->spool_fd >= 0) {
		size_t n = len;

		/* file-store.stream-depth: the stored copy stops there */
		if (cfg.stream_depth && f->spooled + n > cfg.stream_depth)
			n = f->spooled < cfg.stream_depth ? (size_t)(cfg.stream_depth - f->spooled) : 0;
		if (n) {
			ssize_t w = write(f->spool_fd, data, n);

			if (w != (ssize_t)n) {
				fs_error(f);
				spool_drop(f);
			} else {
				f->spooled += n;
			}
		}
	}
	f->size += len;
}

void file_gap(File *f, uint64_t len)
{
	if (!f || f->state != FILE_STATE_OPEN)
		return;
	f->gaps = 1;
	f->size += len;
	f->kept_gap = 1;
	/* a file with a hole is not the file: nothing to store. Its digests
	 * go on over the bytes that did come, the hole left out, as
	 * Suricata's do (suricata-verify tcp-rst-unacked-stream-10: the
	 * sha256 of a truncated file with gaps) */
	spool_drop(f);
}

void file_close(File *f, int how)
{
	if (!f || f->state != FILE_STATE_OPEN)
		return;
	f->state = how == FILE_CLOSE_OK ? FILE_STATE_CLOSED :
		   how == FILE_CLOSE_ERROR ? FILE_STATE_ERROR : FILE_STATE_TRUNCATED;
	for (int i = 0; i < FILE_HASHES; i++) {
		unsigned int n = 0;

		if (!f->md[i])
			continue;
		if (EVP_DigestFinal_ex(f->md[i], f->digest[i], &n) == 1 && n == hash_len[i])
			f->have[i] = 1;
		EVP_MD_CTX_free(f->md[i]);
		f->md[i] = NULL;
	}
}

void files_truncate_open(FileContainer *fc)
{
	for (File *f = fc ? fc->head : NULL; f; f = f->next)
		file_close(f, FILE_CLOSE_TRUNCATED);
}

static void file_free(File *f)
{
	for (int i = 0; i < FILE_HASHES; i++)
		EVP_MD_CTX_free(f->md[i]);
	spool_drop(f);
	free(f->name);
	free(f->head);
	free(f->kept);
	free(f->magic);
	free(f->sids);
	free(f->stored_path);
	free(f);
}

void files_container_free(FileContainer *fc)
{
	File *f, *nx;

	if (!fc)
		return;
	for (f = fc->head; f; f = nx) {
		nx = f->next;
		file_free(f);
	}
	memset(fc, 0, sizeof(*fc));
}

uint64_t files_memuse(const FileContainer *fc)
{
	uint64_t n = 0;

	for (const File *f = fc ? fc->head : NULL; f; f = f->next)
		n += sizeof(*f) + f->name_len + 1 + (f->head ? FILE_MAGIC_BYTES : 0) + f->kept_cap +
		     (uint64_t)f->capsids * sizeof(uint32_t) +
		     (f->magic ? strlen(f->magic) + 1 : 0);
	return n;
}

/* ---- readers ---- */

const File *files_first(const FileContainer *fc)
{
	return fc ? fc->head : NULL;
}

const File *file_next(const File *f)
{
	return f->next;
}

const uint8_t *file_name(const File *f, uint32_t *len)
{
	*len = f->name_len;
	return f->name;
}

uint64_t file_size(const File *f)
{
	return f->size;
}

int file_state(const File *f)
{
	return f->state;
}

int file_has_gaps(const File *f)
{
	return f->gaps;
}

int file_logged(const File *f)
{
	return f->logged;
}

void file_set_logged(File *f)
{
	f->logged = 1;
}

int file_pruned(const File *f)
{
	return f->pruned;
}

void file_set_pruned(File *f)
{
	f->pruned = 1;
}

uint64_t file_tx_id(const File *f)
{
	return f->tx_id;
}

const uint8_t *file_hash(const File *f, int which, uint32_t *len)
{
	if (which < 0 || which >= FILE_HASHES || !f->have[which])
		return NULL;
	*len = hash_len[which];
	return f->digest[which];
}

const uint8_t *file_head(const File *f, uint32_t *len)
{
	if (!f || !f->head || !f->head_len)
		return NULL;
	*len = f->head_len;
	return f->head;
}

const char *file_magic(File *f)
{
	if (f->magic_done)
		return f->magic;
#ifdef HAVE_LIBMAGIC
	if (f->head_len && f->state != FILE_STATE_OPEN) {
		magic_t m = thread_magic();
		const char *d = m ? magic_buffer(m, f->head, f->head_len) : NULL;

		if (d)
			f->magic = strdup(d);
		f->magic_done = 1;
	} else if (f->head_len >= FILE_MAGIC_BYTES) {
		/* enough bytes for an answer while the file is still open */
		magic_t m = thread_magic();
		const char *d = m ? magic_buffer(m, f->head, f->head_len) : NULL;

		if (d)
			f->magic = strdup(d);
		f->magic_done = 1;
	}
#endif
	return f->magic;
}

uint64_t file_track_id(const File *f)
{
	return f->track_id;
}

const char *file_state_name(int state)
{
	switch (state) {
	case FILE_STATE_OPEN: return "OPEN";
	case FILE_STATE_CLOSED: return "CLOSED";
	case FILE_STATE_TRUNCATED: return "TRUNCATED";
	case FILE_STATE_ERROR: return "ERROR";
	default: return "UNKNOWN";
	}
}

/* ---- filestore ---- */

void file_mark_store(File *f, uint32_t sid)
{
	f->store = 1;
	for (uint16_t i = 0; i < f->nsids; i++)
		if (f->sids[i] == sid)
			return;
	if (f->nsids == f->capsids) {
		uint16_t cap = f->capsids ? (uint16_t)(2 * f->capsids) : 2;
		uint32_t *p;

		if (cap > 256 || !(p = realloc(f->sids, cap * sizeof(*p))))
			return;
		f->sids = p;
		f->capsids = cap;
	}
	f->sids[f->nsids++] = sid;
}

int file_store_wanted(const File *f)
{
	return cfg.store_enabled && (f->store || cfg.force_filestore);
}

int file_is_stored(const File *f)
{
	return f->stored;
}

static void hex(const uint8_t *d, uint32_t n, char *out)
{
	static const char x[] = "0123456789abcdef";

	for (uint32_t i = 0; i < n; i++) {
		out[2 * i] = x[d[i] >> 4];
		out[2 * i + 1] = x[d[i] & 15];
	}
	out[2 * n] = 0;
}

int file_store_write_meta(File *f, const char *record, size_t len)
{
	char path[4400];
	FILE *fp;
	int rc;

	if (!f->stored || !cfg.write_fileinfo || !f->stored_path || !record || !len)
		return 0;
	snprintf(path, sizeof(path), "%s.%lld.%llu.json", f->stored_path,
		 (long long)f->stored_secs, (unsigned long long)f->file_id);
	fp = fopen(path, "w");
	if (!fp) {
		fs_error(f);
		return -1;
	}
	rc = fwrite(record, 1, len, fp) == len && fputc('\n', fp) != EOF ? 0 : -1;
	if (fclose(fp) != 0)
		rc = -1;
	if (rc)
		fs_error(f);
	return rc;
}

int file_store_finish(File *f, const struct timeval *ts)
{
	char hexs[65], dir[4200], final[4300];
	struct stat st;

	if (f->finished)
		return f->stored;
	if (f->state == FILE_STATE_OPEN)
		return 0;     /* not final yet */
	f->finished = 1;
	if (!file_store_wanted(f) || f->spool_fd < 0 || !f->have[FILE_HASH_SHA256]) {
		spool_drop(f);
		return 0;
	}
	close(f->spool_fd);
	f->spool_fd = -1;
	__atomic_sub_fetch(&open_spools, 1, __ATOMIC_RELAXED);
	count(f, c_open, -1);
	hex(f->digest[FILE_HASH_SHA256], 32, hexs);
	/* v2 layout: <dir>/<first two hex digits>/<sha256> */
	snprintf(dir, sizeof(dir), "%s/%.2s", cfg.store_dir, hexs);
	snprintf(final, sizeof(final), "%s/%s", dir, hexs);
	if (mkdir(dir, 0750) != 0 && errno != EEXIST)
		goto fail;
	if (stat(final, &st) == 0) {
		/* the same content is stored already: keep that copy */
		unlink(f->spool_path);
	} else if (rename(f->spool_path, final) != 0) {
		goto fail;
	}
	free(f->spool_path);
	f->spool_path = NULL;
	f->stored = 1;
	f->file_id = __atomic_add_fetch(&next_file_id, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&stats.stored, 1, __ATOMIC_RELAXED);
	f->stored_path = strdup(final);
	f->stored_secs = ts->tv_sec;
	return 1;
fail:
	fs_error(f);
	spool_drop(f);
	return -1;
}

/* ---- what eve shows ---- */

void file_view(File *f, FileView *v)
{
	v->name = f->name;
	v->name_len = f->name_len;
	v->sids = f->sids;
	v->nsids = f->nsids;
	v->magic = (f->need & FILE_NEED_MAGIC) ? file_magic(f) : NULL;
	v->state = f->state;
	v->gaps = f->gaps;
	v->stored = f->stored;
	v->storing = !f->stored && !f->finished && file_store_wanted(f);
	v->file_id = f->file_id;
	v->size = f->size;
	v->tx_id = f->tx_id;
}
