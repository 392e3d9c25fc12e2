/* File keywords, as Suricata 8 documents them (rules/file-keywords): the
 * sticky buffers file.name and file.magic (one entry per file of the
 * transaction side, app-layer/files.h), the legacy filename / fileext /
 * filemagic forms (a case-insensitive content on those buffers; fileext
 * the name's end after a dot), the matchers filesize, filemd5, filesha1,
 * filesha256 (hash lists read once at load), and filestore with its
 * direction and scope; file.data / file_data (the files' content: HTTP's
 * bodies, buffer BUF_FILE_DATA, for now the HTTP body buffers).
 *
 * A rule with file keywords and no protocol loads once per protocol that
 * carries files (files-proto.c lists them; rule-load.c's copies). The
 * matchers are transaction properties: evaluated once the transaction is
 * over, on the files of the rule's direction (both without one); all of
 * a rule's matchers must hold for one file, as in Suricata. The buffers
 * (file.name, ...) are satisfied by any file of the side: Suricata asks
 * them of that same file too, the same whenever a side carries one file. */
#include "config.h"

#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "detect/buffers.h"
#include "app-layer/files.h"
#include "app-layer/app-layer.h"
#include "conf/conf.h"

#include <ctype.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum file_match_kind { FM_SIZE, FM_MD5, FM_SHA1, FM_SHA256 };

typedef struct DetectFileMatch {
	int kind;
	const Signature *s;       /* for its direction, final once parsed */
	DetectUint u;             /* FM_SIZE */
	int negated;              /* hash lists: "!list": no hash of the list */
	unsigned dirs;            /* filesize:to_client,N (Suricata 8): that side; 0: the rule's */
	uint32_t hlen;            /* digest bytes */
	uint32_t n;
	uint8_t *hashes;          /* n sorted digests of hlen bytes */
} DetectFileMatch;

typedef struct DetectFilestore {
	unsigned dirs;            /* 1 << APP_DIR_*; 0: the rule's direction */
	int scope;                /* FS_FILE, FS_TX, FS_FLOW */
	uint32_t sid;
	const Signature *s;
} DetectFilestore;

enum { FS_FILE = 0, FS_TX, FS_FLOW };

/* ---- the buffers ---- */

/* Entry idx: the idx-th file of the side. The flow is the transaction's
 * (buffers are read on its packets only). */
int file_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		    const uint8_t **data, uint32_t *len)
{
	FileContainer *fc = files_of_tx(b->alproto, tx, side, 0);
	const File *f = files_first(fc);

	while (f && idx--)
		f = file_next(f);
	if (!f)
		return -1;
	if (b->pbuf[side & 1] == FILE_BUF_DATA) {
		*data = file_kept_data(f, len);
		return 0;
	}
	if (b->pbuf[side & 1] == FILE_BUF_HEAD)
		return (*data = file_head(f, len)) != NULL ? 0 : -1;
	if (b->pbuf[side & 1] == FILE_BUF_MAGIC) {
		const char *m = file_magic((File *)f);

		if (!m)
			return -1;
		*data = (const uint8_t *)m;
		*len = (uint32_t)strlen(m);
		return 0;
	}
	*data = file_name(f, len);
	return 0;
}

/* ---- setup ---- */

/* Marks the rule as one of a protocol that carries files. */
static int sig_set_alproto_files(SigParseState *st)
{
	Signature *s = st->s;

	if (s->proto != IPPROTO_TCP && s->proto != SIG_PROTO_IP)
		return sig_error(st, "file keywords need a tcp, ip or file-carrying protocol rule");
	if (s->alproto != ALPROTO_UNKNOWN && !files_proto_has(s->alproto))
		return sig_unsupported(st, "file keywords on a protocol whose files are not "
				       "extracted yet");
	/* Suricata 8 inspects such a rule on the files of every protocol
	 * that carries them (suricata-verify bug-6207-2: an `alert tcp`
	 * file.data rule on an SMTP attachment): rule-load.c loads a copy
	 * per protocol */
	if (s->alproto == ALPROTO_UNKNOWN) {
		s->alproto = st->ctx && st->ctx->files_alproto ? st->ctx->files_alproto :
								 ALPROTO_HTTP1;
		s->flags |= SIG_FLAG_FILES_ANY;
	}
	s->flags |= SIG_FLAG_APPLAYER;
	return 0;
}

/* The file buffer of the rule's protocol (a buffer is one protocol's:
 * buffers.c): HTTP's are the generic ids. */
static int file_buf_of(int alproto, int buf)
{
	static const struct {
		int alproto, buf, own;
	} map[] = {
		{ ALPROTO_SMTP, BUF_FILE_DATA, BUF_FILE_DATA_SMTP },
		{ ALPROTO_SMTP, BUF_FILE_NAME, BUF_FILE_NAME_SMTP },
		{ ALPROTO_SMTP, BUF_FILE_MAGIC, BUF_FILE_MAGIC_SMTP },
		{ ALPROTO_FTPDATA, BUF_FILE_DATA, BUF_FILE_DATA_FTPDATA },
		{ ALPROTO_FTPDATA, BUF_FILE_NAME, BUF_FILE_NAME_FTPDATA },
		{ ALPROTO_FTPDATA, BUF_FILE_MAGIC, BUF_FILE_MAGIC_FTPDATA },
		{ ALPROTO_NFS, BUF_FILE_DATA, BUF_FILE_DATA_NFS },
		{ ALPROTO_NFS, BUF_FILE_NAME, BUF_FILE_NAME_NFS },
		{ ALPROTO_NFS, BUF_FILE_MAGIC, BUF_FILE_MAGIC_NFS },
		/* SMB's file_data: its files' first bytes, kept for it */
		{ ALPROTO_SMB, BUF_FILE_DATA, BUF_SMB_FILE_DATA },
		{ ALPROTO_SMB, BUF_FILE_NAME, BUF_SMB_FILE_NAME },
		{ ALPROTO_SMB, BUF_FILE_MAGIC, BUF_SMB_FILE_MAGIC },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i].alproto == alproto && map[i].buf == buf)
			return map[i].own;
	return buf;
}

/* file.magic and filemagic without libmagic (configure found none): the
 * rule fails to load with the reason, as in Suricata, instead of loading
 * and never matching. */
static int magic_missing(SigParseState *st, const Keyword *kw)
{
#ifdef HAVE_LIBMAGIC
	(void)st;
	(void)kw;
	return 0;
#else
	return sig_error(st, "%s: this build has no libmagic support (configure found no "
			 "libmagic: install libmagic-dev and build again)", kw->name);
#endif
}

static int kw_file_sticky(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)arg;
	if (kw->buf == BUF_FILE_MAGIC && magic_missing(st, kw))
		return -1;
	if (sig_set_alproto_files(st))
		return -1;
	if (kw->buf == BUF_FILE_MAGIC)
		files_request(FILE_NEED_MAGIC);
	/* SMB's file.data reads its files' heads: kept for SMB files only,
	 * with no libmagic (FILE_NEED_MAGIC would run it on every logged file
	 * of every protocol) */
	if (st->s->alproto == ALPROTO_SMB && kw->buf == BUF_FILE_DATA)
		files_request(FILE_NEED_HEAD);
	return sig_select_buffer(st, file_buf_of(st->s->alproto, kw->buf));
}

/* filename:"x" / filemagic:"x" / fileext:"x": content:"x"; nocase; on the
 * buffer (fileext: ".x" at its end), the sticky buffer in force left as
 * it was. */
static int kw_file_legacy(SigParseState *st, const char *arg, const Keyword *kw)
{
	const Keyword *content = keyword_find("content"), *nocase = keyword_find("nocase");
	const Keyword *endswith = keyword_find("endswith");
	int ext = strcmp(kw->name, "fileext") == 0, buf = kw->buf;
	int saved = st->cur_buf, rc;
	char *val = NULL;

	if (buf == BUF_FILE_MAGIC && magic_missing(st, kw))
		return -1;
	if (sig_set_alproto_files(st))
		return -1;
	if (buf == BUF_FILE_MAGIC)
		files_request(FILE_NEED_MAGIC);
	buf = file_buf_of(st->s->alproto, buf);
	if (ext) {
		/* the extension is the name's end after a dot */
		const char *q = strchr(arg, '"');
		size_t n = strlen(arg);

		val = malloc(n + 4);
		if (!val)
			return sig_error(st, "out of memory");
		if (q) {
			size_t pre = (size_t)(q - arg) + 1;

			memcpy(val, arg, pre);
			val[pre] = '.';
			memcpy(val + pre + 1, q + 1, n - pre + 1);
		} else {
			const char *a = arg;
			int neg = 0;

			while (*a == ' ')
				a++;
			if (*a == '!') {
				neg = 1;
				a++;
			}
			snprintf(val, n + 4, "%s\".%s\"", neg ? "!" : "", a);
		}
		arg = val;
	}
	st->cur_buf = buf;
	rc = content->setup(st, arg, content);
	if (rc == 0)
		rc = nocase->setup(st, NULL, nocase);
	if (rc == 0 && val)
		rc = endswith->setup(st, NULL, endswith);
	st->cur_buf = saved;
	free(val);
	return rc;
}

/* ---- hash lists ---- */

static int hexnib(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static uint32_t g_hlen;

static int hash_cmp(const void *a, const void *b)
{
	return memcmp(a, b, g_hlen);
}

/* The list's file: as given when absolute or found from the working
 * folder, else under default-rule-path (Suricata's rule folder). */
static FILE *open_list(const char *name, char *path, size_t plen)
{
	const char *dir = conf_get("default-rule-path");
	FILE *fp;

	if (name[0] != '/' && dir && *dir) {
		snprintf(path, plen, "%s/%s", dir, name);
		if ((fp = fopen(path, "r")))
			return fp;
	}
	snprintf(path, plen, "%s", name);
	return fopen(path, "r");
}

static int load_hashes(SigParseState *st, DetectFileMatch *m, const char *arg, const char *kwname)
{
	char path[4096], line[512];
	const char *a = arg;
	uint32_t cap = 0, lineno = 0;
	FILE *fp;

	while (*a == ' ')
		a++;
	if (*a == '!') {
		m->negated = 1;
		a++;
	}
	while (*a == ' ')
		a++;
	if (!*a)
		return sig_error(st, "%s needs a file of hashes", kwname);
	fp = open_list(a, path, sizeof(path));
	if (!fp)
		return sig_error(st, "%s: cannot open hash list \"%s\"", kwname, a);
	while (fgets(line, sizeof(line), fp)) {
		char *p = line, *e;
		size_t n;

		lineno++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '#' || *p == '\n' || *p == '\r' || !*p)
			continue;
		for (e = p; *e && !isspace((unsigned char)*e); e++)
			;
		n = (size_t)(e - p);
		if (n != 2 * m->hlen) {
			fclose(fp);
			return sig_error(st, "%s: %s:%u: not a %u-hex-digit hash", kwname, path,
					 lineno, 2 * m->hlen);
		}
		if (m->n == cap) {
			uint32_t nc = cap ? 2 * cap : 64;
			uint8_t *nh = realloc(m->hashes, (size_t)nc * m->hlen);

			if (!nh) {
				fclose(fp);
				return sig_error(st, "out of memory");
			}
			m->hashes = nh;
			cap = nc;
		}
		for (uint32_t i = 0; i < m->hlen; i++) {
			int hi = hexnib(p[2 * i]), lo = hexnib(p[2 * i + 1]);

			if (hi < 0 || lo < 0) {
				fclose(fp);
				return sig_error(st, "%s: %s:%u: not a %u-hex-digit hash", kwname,
						 path, lineno, 2 * m->hlen);
			}
			m->hashes[(size_t)m->n * m->hlen + i] = (uint8_t)(hi * 16 + lo);
		}
		m->n++;
	}
	fclose(fp);
	if (!m->n)
		return sig_error(st, "%s: hash list %s is empty", kwname, path);
	/* qsort's comparator has no argument: rules load on one thread */
	g_hlen = m->hlen;
	qsort(m->hashes, m->n, m->hlen, hash_cmp);
	return 0;
}

static int hash_listed(const DetectFileMatch *m, const uint8_t *d)
{
	uint32_t lo = 0, hi = m->n;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		int c = memcmp(m->hashes + (size_t)mid * m->hlen, d, m->hlen);

		if (!c)
			return 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static void file_match_free(void *p)
{
	free(((DetectFileMatch *)p)->hashes);
}

static int kw_file_match(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectFileMatch *m = calloc(1, sizeof(*m));
	static const char *const names[] = { "filesize", "filemd5", "filesha1", "filesha256" };
	int rc = 0;

	if (!m)
		return sig_error(st, "out of memory");
	m->kind = kw->buf;
	m->s = st->s;
	if (sig_set_alproto_files(st)) {
		free(m);
		return -1;
	}
	switch (m->kind) {
	case FM_SIZE:
		/* Suricata 8 takes a direction first: "to_client, <100" */
		while (*arg == ' ')
			arg++;
		if (!strncmp(arg, "to_client", 9) || !strncmp(arg, "to_server", 9)) {
			const char *c = arg + 9;

			while (*c == ' ')
				c++;
			if (*c == ',') {
				m->dirs = arg[3] == 'c' ? 1u << APP_DIR_TOCLIENT : 1u << APP_DIR_TOSERVER;
				arg = c + 1;
			}
		}
		if (parse_uint_cmp(arg, UINT64_MAX, &m->u) != 0)
			rc = sig_error(st, "invalid filesize \"%s\"", arg);
		break;
	case FM_MD5:
		m->hlen = 16;
		files_request(FILE_NEED_MD5);
		rc = load_hashes(st, m, arg, names[m->kind]);
		break;
	case FM_SHA1:
		m->hlen = 20;
		files_request(FILE_NEED_SHA1);
		rc = load_hashes(st, m, arg, names[m->kind]);
		break;
	default:
		m->hlen = 32;
		files_request(FILE_NEED_SHA256);
		rc = load_hashes(st, m, arg, names[m->kind]);
		break;
	}
	if (rc) {
		file_match_free(m);
		free(m);
		return -1;
	}
	st->s->flags |= SIG_FLAG_TX_MATCH;
	return sm_append(st, SM_LIST_MATCH, KW_FILE_MATCH, m) < 0 ? -1 : 0;
}

/* The sides of a rule's files: its direction, else both. */
static unsigned sig_file_dirs(const Signature *s)
{
	if ((s->flags & SIG_FLAG_TOSERVER) && !(s->flags & SIG_FLAG_TOCLIENT))
		return 1u << APP_DIR_TOSERVER;
	if ((s->flags & SIG_FLAG_TOCLIENT) && !(s->flags & SIG_FLAG_TOSERVER))
		return 1u << APP_DIR_TOCLIENT;
	return 3;
}

static int file_matches(const DetectFileMatch *m, const File *f)
{
	const uint8_t *d;
	uint32_t len;

	if (m->kind == FM_SIZE) {
		/* a size is final once the file is */
		return file_state(f) != FILE_STATE_OPEN && detect_uint_match(&m->u, file_size(f));
	}
	d = file_hash(f, m->kind == FM_MD5 ? FILE_HASH_MD5 :
			 m->kind == FM_SHA1 ? FILE_HASH_SHA1 : FILE_HASH_SHA256, &len);
	if (!d)
		return 0;
	return hash_listed(m, d) != m->negated;
}

/* Every file matcher of the rule on one file of side d. */
static int all_match(const SigMatchList *ml, const File *f, int d)
{
	for (int i = 0; i < ml->n; i++) {
		const DetectFileMatch *o = ml->m[i].ctx;
		unsigned dirs;

		if (ml->m[i].kw != KW_FILE_MATCH)
			continue;
		dirs = o->dirs ? o->dirs : sig_file_dirs(o->s);
		if (!(dirs & (1u << d)) || !file_matches(o, f))
			return 0;
	}
	return 1;
}

/* As Suricata, a rule's file matchers (filesize, filemd5, ...) must all
 * hold for one file: the first of them checks them all on each file, the
 * others pass. */
static int match_file(const DetectTx *tc, const SigMatch *sm, Packet *p)
{
	const DetectFileMatch *m = sm->ctx;
	const SigMatchList *ml = &m->s->lists[SM_LIST_MATCH];

	if (!tc->tx || !p->flow)
		return 0;
	for (int i = 0; i < ml->n; i++) {
		if (ml->m[i].kw != KW_FILE_MATCH)
			continue;
		if (&ml->m[i] != sm)
			return 1;
		break;
	}
	/* evaluated on one file (tx-inspect.c's file rules) */
	if (tc->per_file) {
		FileContainer *fc = files_of_tx(p->flow->app_proto, tc->tx, tc->file_side, 0);
		const File *f = files_first(fc);

		for (uint32_t i = 0; f && i < tc->file_idx; i++)
			f = file_next(f);
		return f && all_match(ml, f, tc->file_side);
	}
	for (int d = 0; d < 2; d++) {
		FileContainer *fc = files_of_tx(p->flow->app_proto, tc->tx, d, 0);

		for (const File *f = files_first(fc); f; f = file_next(f))
			if (all_match(ml, f, d))
				return 1;
	}
	return 0;
}

/* ---- filestore ---- */

static int kw_filestore(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectFilestore *fs = calloc(1, sizeof(*fs));
	char *copy = NULL, *parts[3];
	int n = 0;

	(void)kw;
	if (!fs)
		return sig_error(st, "out of memory");
	fs->s = st->s;
	if (arg && *arg) {
		copy = strdup(arg);
		if (!copy) {
			free(fs);
			return sig_error(st, "out of memory");
		}
		n = split_commas(copy, parts, 3);
		if (n > 2) {
			free(copy);
			free(fs);
			return sig_error(st, "filestore takes a direction and a scope");
		}
		for (int i = 0; i < n; i++)
			parts[i] = str_trim(parts[i]);
		if (n >= 1 && *parts[0]) {
			if (!strcmp(parts[0], "request") || !strcmp(parts[0], "to_server"))
				fs->dirs = 1u << APP_DIR_TOSERVER;
			else if (!strcmp(parts[0], "response") || !strcmp(parts[0], "to_client"))
				fs->dirs = 1u << APP_DIR_TOCLIENT;
			else if (!strcmp(parts[0], "both"))
				fs->dirs = 3;
			else {
				sig_error(st, "filestore: unknown direction \"%s\" (use request, "
					  "to_server, response, to_client, both)", parts[0]);
				goto bad;
			}
		}
		if (n == 2) {
			if (!strcmp(parts[1], "file"))
				fs->scope = FS_FILE;
			else if (!strcmp(parts[1], "tx"))
				fs->scope = FS_TX;
			else if (!strcmp(parts[1], "ssn") || !strcmp(parts[1], "flow"))
				fs->scope = FS_FLOW;
			else {
				sig_error(st, "filestore: unknown scope \"%s\" (use file, tx, ssn, "
					  "flow)", parts[1]);
				goto bad;
			}
		}
		free(copy);
	}
	if (sig_set_alproto_files(st)) {
		free(fs);
		return -1;
	}
	files_request(FILE_NEED_STORE);
	return sm_append(st, SM_LIST_POSTMATCH, KW_FILESTORE, fs) < 0 ? -1 : 0;
bad:
	free(copy);
	free(fs);
	return -1;
}

/* After the rule matched on a transaction: its files (the rule's
 * direction, or the one given) are stored; tx and flow scopes reach files
 * that come later too. */
void filestore_apply(DetectThread *dt, const void *ctx, Packet *p)
{
	const DetectFilestore *fs = ctx;
	unsigned dirs = fs->dirs ? fs->dirs : sig_file_dirs(fs->s);
	void *tx;

	if (!p->flow)
		return;
	tx = dt->cur_has_tx ? app_layer_tx_get(p->flow, dt->cur_tx) : NULL;
	/* the default scope, file: the files the rule matched on the
	 * filestore's sides, as Suricata's filestore stores the files its
	 * rule's file inspection let through (a later file of the
	 * transaction is stored only when the rule matches it too) */
	for (int d = 0; d < 2 && tx && dt->ncur_files; d++) {
		FileContainer *fc = (dirs & (1u << d)) ? files_of_tx(p->flow->app_proto, tx, d, 0) :
							 NULL;

		for (const File *f = files_first(fc); f; f = file_next(f))
			for (uint32_t i = 0; i < dt->ncur_files; i++)
				if (dt->cur_files[i] == f)
					file_mark_store(dt->cur_files[i], fs->s->sid);
	}
	if (dt->ncur_files && fs->scope == FS_FILE && !fs->dirs)
		return;
	files_store_scope(p->flow, tx, dirs, fs->scope == FS_FLOW, fs->s->sid);
}

const Keyword file_keywords[] = {
	{ .name = "file_data", .id = KW_FILE_STICKY, .setup = kw_file_sticky, .flags = STICKY,
	  .buf = BUF_FILE_DATA, .desc = "sticky buffer" },
	{ .name = "file.data", .id = KW_FILE_STICKY, .setup = kw_file_sticky, .flags = STICKY,
	  .buf = BUF_FILE_DATA, .desc = "sticky buffer" },
	{ .name = "file.name", .id = KW_FILE_STICKY, .setup = kw_file_sticky, .flags = STICKY,
	  .buf = BUF_FILE_NAME, .desc = "sticky buffer" },
	{ .name = "file.magic", .id = KW_FILE_STICKY, .setup = kw_file_sticky, .flags = STICKY,
	  .buf = BUF_FILE_MAGIC, .desc = "sticky buffer" },
	{ .name = "filename", .id = KW_FILE_STICKY, .setup = kw_file_legacy, .flags = NEED,
	  .buf = BUF_FILE_NAME, .desc = "match on the file name" },
	{ .name = "fileext", .id = KW_FILE_STICKY, .setup = kw_file_legacy, .flags = NEED,
	  .buf = BUF_FILE_NAME, .desc = "match on the extension of a file name" },
	{ .name = "filemagic", .id = KW_FILE_STICKY, .setup = kw_file_legacy, .flags = NEED,
	  .buf = BUF_FILE_MAGIC, .desc = "match on the information libmagic returns about a file" },
	{ .name = "filesize", .id = KW_FILE_MATCH, .setup = kw_file_match,
	  .flags = NEED | SQ | KWF_TX, .buf = FM_SIZE,
	  .desc = "match on the size of the file as it is being transferred", .tx_match = match_file,
	  .free = file_match_free },
	{ .name = "filemd5", .id = KW_FILE_MATCH, .setup = kw_file_match,
	  .flags = NEED | SQ | KWF_TX, .buf = FM_MD5,
	  .desc = "match file MD5 against list of MD5 checksums", .tx_match = match_file,
	  .free = file_match_free },
	{ .name = "filesha1", .id = KW_FILE_MATCH, .setup = kw_file_match,
	  .flags = NEED | SQ | KWF_TX, .buf = FM_SHA1,
	  .desc = "match file SHA-1 against list of SHA-1 checksums", .tx_match = match_file,
	  .free = file_match_free },
	{ .name = "filesha256", .id = KW_FILE_MATCH, .setup = kw_file_match,
	  .flags = NEED | SQ | KWF_TX, .buf = FM_SHA256,
	  .desc = "match file SHA-256 against list of SHA-256 checksums", .tx_match = match_file,
	  .free = file_match_free },
	{ .name = "filestore", .id = KW_FILESTORE, .setup = kw_filestore, .flags = 0, .buf = -1,
	  .desc = "store files to disk if the signature matched" },
	{ .name = NULL }
};
