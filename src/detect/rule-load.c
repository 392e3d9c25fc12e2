/* Rule files -> SigTable: file list from the config (default-rule-path,
 * rule-files) or -S / -s, comment and continuation handling, one line per
 * rejected rule ("FILE:LINE: reason (sid N)"), duplicate sids, and the load
 * summary. */
#include "detect/detect-int.h"
#include "app-layer/files.h"
#include "conf/conf.h"
#include "util/log.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

SigTable *sig_table_new(void)
{
	return calloc(1, sizeof(SigTable));
}

void sig_table_free(SigTable *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->nsigs; i++)
		sig_free(t->sigs[i]);
	free(t->sigs);
	for (int i = 0; i < t->nreasons; i++)
		free(t->reasons[i].reason);
	free(t->reasons);
	for (int i = 0; i < t->nfailed_rules; i++)
		free(t->failed_rules[i].rule);
	free(t->failed_rules);
	for (int i = 0; i < t->nfiles; i++)
		free(t->files[i]);
	free(t->files);
	free(t->dup_keys);
	detect_context_free(&t->ctx);
	free(t);
}

void sig_format_error(char *buf, size_t len, const char *file, int line,
		      const char *reason, long sid)
{
	if (sid > 0)
		snprintf(buf, len, "%s:%d: %s (sid %ld)", file, line, reason, sid);
	else
		snprintf(buf, len, "%s:%d: %s", file, line, reason);
}

/* sid of a rule that failed to parse, for the error line; -1 if none. */
static long find_sid(const char *rule)
{
	const char *p = strchr(rule, '(');

	while (p && (p = strstr(p, "sid")) != NULL) {
		const char *q = p + 3;
		char prev = p[-1];

		p = q;
		if (prev != ';' && prev != '(' && !isspace((unsigned char)prev))
			continue;
		while (isspace((unsigned char)*q))
			q++;
		if (*q != ':')
			continue;
		q++;
		while (isspace((unsigned char)*q) || *q == '"')
			q++;
		if (isdigit((unsigned char)*q))
			return strtol(q, NULL, 10);
	}
	return -1;
}

/* ---- duplicate (gid, sid) set: open addressing, key 0 = empty ---- */

static uint64_t dup_hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

static int dup_insert(SigTable *t, uint64_t key)
{
	uint64_t k = key + 1;   /* never 0 */

	if ((t->dup_n + 1) * 2 > t->dup_cap) {
		int cap = t->dup_cap ? t->dup_cap * 2 : 1024;
		uint64_t *nk = calloc(cap, sizeof(*nk));

		if (!nk)
			return -1;
		for (int i = 0; i < t->dup_cap; i++) {
			if (!t->dup_keys[i])
				continue;
			uint64_t h = dup_hash(t->dup_keys[i]) & (cap - 1);

			while (nk[h])
				h = (h + 1) & (cap - 1);
			nk[h] = t->dup_keys[i];
		}
		free(t->dup_keys);
		t->dup_keys = nk;
		t->dup_cap = cap;
	}
	uint64_t h = dup_hash(k) & (t->dup_cap - 1);

	while (t->dup_keys[h]) {
		if (t->dup_keys[h] == k)
			return 1;
		h = (h + 1) & (t->dup_cap - 1);
	}
	t->dup_keys[h] = k;
	t->dup_n++;
	return 0;
}

static void count_skip(SigTable *t, const char *reason)
{
	SkipReason *r;

	for (int i = 0; i < t->nreasons; i++) {
		if (strcmp(t->reasons[i].reason, reason) == 0) {
			t->reasons[i].count++;
			return;
		}
	}
	r = realloc(t->reasons, (t->nreasons + 1) * sizeof(*r));
	if (!r)
		return;
	t->reasons = r;
	r[t->nreasons].reason = strdup(reason);
	r[t->nreasons].count = 1;
	if (r[t->nreasons].reason)
		t->nreasons++;
}

static int add_sig(SigTable *t, Signature *s)
{
	if (t->nsigs == t->cap) {
		int cap = t->cap ? t->cap * 2 : 256;
		Signature **v = realloc(t->sigs, cap * sizeof(*v));

		if (!v)
			return -1;
		t->sigs = v;
		t->cap = cap;
	}
	t->sigs[t->nsigs++] = s;
	return 0;
}

/* Where a rejected rule is: its text, file and line. */
typedef struct RuleAt {
	const char *rule;
	const char *file;
	int line;
} RuleAt;

static int rule_rejected(SigTable *t, const char *msg, const char *reason, int code,
			 const RuleAt *at, const RuleLoadConfig *cfg, char *err, size_t errlen);

/* A rule whose gid:sid is already loaded: as Suricata, a higher rev
 * replaces the loaded rule in its place (the count stays); an equal or
 * lower one is a duplicate (-1: the caller rejects it). suricata-verify
 * stream-depth-reached-event loads rev 1, then rev 2 of one sid. */
static int replace_older_rev(SigTable *t, Signature *s, const char *file, int line)
{
	for (int i = 0; i < t->nsigs; i++) {
		Signature *old = t->sigs[i];

		if (old->sid != s->sid || old->gid != s->gid || (old->flags & SIG_FLAG_FILES_COPY))
			continue;
		if (s->rev <= old->rev)
			return -1;
		log_warning("%s:%d: signature %u:%u rev %u replaces rev %u (%s:%d)", file, line,
			    s->gid, s->sid, s->rev, old->rev, old->file, old->line);
		s->file = file;
		s->line = line;
		t->sigs[i] = s;
		sig_free(old);
		return 0;
	}
	return -1;
}

/* A rule that failed (not a skipped one), for the unix socket's
 * ruleset-failed-rules: its text, file and line. Out of memory only loses
 * the record, the count stays right. */
static void record_failed(SigTable *t, const char *rule, const char *file, int line)
{
	FailedRule *v;

	if (t->nfailed_rules == t->failed_cap) {
		int cap = t->failed_cap ? t->failed_cap * 2 : 16;

		v = realloc(t->failed_rules, (size_t)cap * sizeof(*v));
		if (!v)
			return;
		t->failed_rules = v;
		t->failed_cap = cap;
	}
	v = &t->failed_rules[t->nfailed_rules];
	v->rule = strdup(rule);
	v->file = file;
	v->line = line;
	if (v->rule)
		t->nfailed_rules++;
}

/* A file rule that named no protocol (loaded as HTTP/1's): a copy for
 * each other protocol with files, as Suricata 8 inspects it on all their
 * files. A copy the protocol cannot take (a keyword of another protocol)
 * or of a disabled protocol is left out without a word: the rule itself
 * loaded. The copies share the rule's sid and count once. */
static void add_file_copies(SigTable *t, const Signature *s, const char *rule,
			    const RuleLoadConfig *cfg)
{
	int ap;

	for (unsigned i = 0; (ap = files_proto_at(i)) >= 0; i++) {
		Signature *c;

		if (ap == s->alproto ||
		    (ap < 64 && (cfg->alproto_off >> ap & 1)))
			continue;
		t->ctx.files_alproto = (uint16_t)ap;
		c = sig_parse(rule, &t->ctx, NULL, 0, NULL);
		t->ctx.files_alproto = 0;
		if (!c)
			continue;
		c->flags |= SIG_FLAG_FILES_COPY;
		c->file = s->file;
		c->line = s->line;
		if (c->alproto != ap || add_sig(t, c) != 0)
			sig_free(c);
	}
}

/* One rule. Returns -1 only when loading must stop (fatal mode). */
static int load_rule(SigTable *t, const char *rule, const char *file, int line,
		     const RuleLoadConfig *cfg, char *err, size_t errlen)
{
	char reason[512], msg[1024];
	int code;
	Signature *s;
	const RuleAt at = { rule, file, line };

	t->ctx.rule_file = file;
	s = sig_parse(rule, &t->ctx, reason, sizeof(reason), &code);

	if (s && s->alproto < 64 && (cfg->alproto_off >> s->alproto & 1)) {
		/* Suricata 8 does not load the rules of a protocol it does not
		 * parse: skipped, one summary line for them all */
		const char *name = app_proto_name(s->alproto);

		snprintf(reason, sizeof(reason), "app-layer protocol %s is disabled "
			 "(app-layer.protocols.%s.enabled: no)", name,
			 strcmp(name, "ftp-data") == 0 ? "ftp" : name);
		sig_format_error(msg, sizeof(msg), file, line, reason, (long)s->sid);
		sig_free(s);
		return rule_rejected(t, msg, reason, SIG_ERR_UNSUPPORTED, &at, cfg, err, errlen);
	}
	if (s) {
		int d = dup_insert(t, (uint64_t)s->gid << 32 | s->sid);

		if (d > 0 && replace_older_rev(t, s, file, line) == 0)
			return 0;
		if (d == 0 && add_sig(t, s) == 0) {
			s->file = file;
			s->line = line;
			t->loaded++;
			if (s->flags & SIG_FLAG_FILES_ANY)
				add_file_copies(t, s, rule, cfg);
			return 0;
		}
		snprintf(reason, sizeof(reason), d > 0 ? "duplicate signature" : "out of memory");
		code = SIG_ERR_PARSE;
		sig_format_error(msg, sizeof(msg), file, line, reason, (long)s->sid);
		sig_free(s);
	} else {
		sig_format_error(msg, sizeof(msg), file, line, reason, find_sid(rule));
	}
	if (code != SIG_ERR_UNSUPPORTED)
		record_failed(t, rule, file, line);
	return rule_rejected(t, msg, reason, code, &at, cfg, err, errlen);
}

/* Counts and reports a rule that did not load. -1 only in fatal mode. A
 * failed rule is said in two lines, as Suricata 8 says it: the error, then
 *   detect: error parsing signature "<rule>" from file <file> at line <n>
 * In fatal mode both are said here (unless quiet) and err is left empty:
 * the load stops at this rule. */
static int rule_rejected(SigTable *t, const char *msg, const char *reason, int code,
			 const RuleAt *at, const RuleLoadConfig *cfg, char *err, size_t errlen)
{
	if (code == SIG_ERR_UNSUPPORTED) {
		/* each at -v; the start-up summary counts them by reason */
		t->skipped++;
		count_skip(t, reason);
		if (!cfg->quiet && !cfg->init_errors_fatal)
			log_info("%s", msg);
	} else {
		t->failed++;
		if (!cfg->quiet) {
			log_error("%s", msg);
			log_error("detect: error parsing signature \"%s\" from file %s at line %d",
				  at->rule, at->file, at->line);
		}
	}
	if (cfg->init_errors_fatal) {
		if (code == SIG_ERR_UNSUPPORTED || cfg->quiet)
			snprintf(err, errlen, "%s", msg);
		else
			err[0] = '\0';
		return -1;
	}
	return 0;
}

/* A rule whose text holds a NUL byte: a bad rule, reported at the line of
 * the NUL. The rules after it load: the text is walked by length, not as a
 * C string, so one stray byte does not end the file. */
static int nul_rule(SigTable *t, char *rule, size_t len, const char *file, int line,
		    const RuleLoadConfig *cfg, char *err, size_t errlen)
{
	static const char reason[] = "rule contains a NUL byte";
	char msg[1024];

	/* blanks for the NULs, so that the sid after one is still named */
	for (size_t i = 0; i < len; i++)
		if (!rule[i])
			rule[i] = ' ';
	sig_format_error(msg, sizeof(msg), file, line, reason, find_sid(rule));
	const RuleAt at = { rule, file, line };

	record_failed(t, rule, file, line);
	return rule_rejected(t, msg, reason, SIG_ERR_PARSE, &at, cfg, err, errlen);
}

/* Walks the text line by line: '#' comments, blank lines, and a '\' at the
 * end of a line continuing the rule on the next one. */
static int load_text(SigTable *t, const char *text, size_t textlen, const char *file,
		     const RuleLoadConfig *cfg, char *err, size_t errlen)
{
	size_t cap = 4096, len = 0;
	char *rule = malloc(cap);
	const char *p = text, *end = text + textlen;
	int lineno = 0, start_line = 0, nul_line = 0, rc = 0;

	if (!rule) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		int cont;

		lineno++;
		if (!nul_line && memchr(p, '\0', l))
			nul_line = lineno;
		while (l && (p[l - 1] == '\r' || p[l - 1] == ' ' || p[l - 1] == '\t'))
			l--;
		cont = l && p[l - 1] == '\\';
		if (cont)
			l--;
		if (len == 0)
			start_line = lineno;
		if (len + l + 1 > cap) {
			char *r;

			while (len + l + 1 > cap)
				cap *= 2;
			r = realloc(rule, cap);
			if (!r) {
				free(rule);
				snprintf(err, errlen, "out of memory");
				return -1;
			}
			rule = r;
		}
		memcpy(rule + len, p, l);
		len += l;
		rule[len] = '\0';
		p = nl ? nl + 1 : end;
		if (cont && p < end)
			continue;
		{
			char *r = rule;

			while (r < rule + len && isspace((unsigned char)*r))
				r++;
			if (r < rule + len && *r != '#') {
				int bad = nul_line ? nul_rule(t, r, (size_t)(rule + len - r), file, nul_line,
							   cfg, err, errlen) :
					  load_rule(t, r, file, start_line, cfg, err, errlen);

				if (bad) {
					rc = -1;
					break;
				}
			}
		}
		len = 0;
		nul_line = 0;
	}
	free(rule);
	return rc;
}

static const char *keep_name(SigTable *t, const char *name)
{
	char **v = realloc(t->files, (t->nfiles + 1) * sizeof(*v));

	if (!v)
		return NULL;
	t->files = v;
	v[t->nfiles] = strdup(name);
	return v[t->nfiles] ? v[t->nfiles++] : NULL;
}

int sig_load_string(SigTable *t, const char *text, const char *name, const RuleLoadConfig *cfg,
		    char *err, size_t errlen)
{
	RuleLoadConfig dflt = { 0 };
	const char *fname = keep_name(t, name);

	if (!fname) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return load_text(t, text, strlen(text), fname, cfg ? cfg : &dflt, err, errlen);
}

/* A rule file larger than this is refused: ET Open's whole set is about
 * 40 MB, and without a bound -S /dev/zero grew the process to 2.5 GB. */
#define RULE_FILE_MAX ((size_t)1 << 30)

/* /dev/null: the one non-regular file a rule file may be (-S /dev/null,
 * "no rules", is common and reads empty at once). */
static int is_dev_null(const struct stat *st)
{
	struct stat dn;

	return S_ISCHR(st->st_mode) && stat("/dev/null", &dn) == 0 && S_ISCHR(dn.st_mode) &&
	       dn.st_rdev == st->st_rdev;
}

/* Why st cannot be a rule file, or NULL. */
static const char *not_readable_kind(const struct stat *st)
{
	if (S_ISREG(st->st_mode) || is_dev_null(st))
		return NULL;
	if (S_ISDIR(st->st_mode))
		return strerror(EISDIR);
	if (S_ISFIFO(st->st_mode))
		return "not a regular file (a FIFO)";
	if (S_ISCHR(st->st_mode))
		return "not a regular file (a character device)";
	if (S_ISBLK(st->st_mode))
		return "not a regular file (a block device)";
	return "not a regular file";
}

/* The whole file, by reading until EOF (a file may grow while it is read),
 * at most RULE_FILE_MAX bytes. Opened without blocking, so that a FIFO
 * with no writer is refused rather than waited on forever; only regular
 * files and /dev/null are read. NULL with one reason in why on failure. */
static char *read_file(const char *path, size_t *lenp, char *why, size_t whylen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	const char *kind;
	struct stat st;
	size_t cap = 0, len = 0;
	char *buf = NULL;
	FILE *f;

	if (fd < 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0)
		snprintf(why, whylen, "%s", strerror(errno));
	else if ((kind = not_readable_kind(&st)) != NULL)
		snprintf(why, whylen, "%s", kind);
	else if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > RULE_FILE_MAX)
		snprintf(why, whylen, "larger than 1 GiB (%llu bytes)",
			 (unsigned long long)st.st_size);
	else
		why[0] = '\0';
	if (why[0]) {
		close(fd);
		return NULL;
	}
	if (!(f = fdopen(fd, "rb"))) {
		snprintf(why, whylen, "%s", strerror(errno));
		close(fd);
		return NULL;
	}
	for (;;) {
		size_t n;

		if (cap - len < 4096) {
			size_t ncap = cap ? cap * 2 : 65536;
			char *nb;

			if (ncap > RULE_FILE_MAX + 4096)
				ncap = RULE_FILE_MAX + 4096;
			if (len > RULE_FILE_MAX || !(nb = realloc(buf, ncap + 1))) {
				snprintf(why, whylen, "%s", len > RULE_FILE_MAX ?
					 "larger than 1 GiB (it grew while read)" : strerror(ENOMEM));
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
			cap = ncap;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		snprintf(why, whylen, "%s", strerror(errno ? errno : EIO));
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[len] = '\0';
	*lenp = len;
	return buf;
}

/* Returns 0, or -1 when loading must stop. `fatal_missing`: -S files. */
static int load_file(SigTable *t, const char *dir, const char *name, const RuleLoadConfig *cfg,
		     int fatal_missing, char *err, size_t errlen)
{
	char path[4096], why[128];
	const char *fname;
	char *text;
	size_t textlen = 0;
	int rc;

	if (name[0] == '/' || !dir || !*dir)
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "%s/%s", dir, name);
	text = read_file(path, &textlen, why, sizeof(why));
	if (!text) {
		t->files_failed++;
		snprintf(err, errlen, "%s: cannot read rule file: %s", path, why);
		if (fatal_missing || cfg->init_errors_fatal)
			return -1;
		if (!cfg->quiet)
			log_error("%s", err);
		err[0] = '\0';
		return 0;
	}
	fname = keep_name(t, path);
	if (!fname) {
		free(text);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	t->files_loaded++;
	rc = load_text(t, text, textlen, fname, cfg, err, errlen);
	free(text);
	return rc;
}

static int load_configs(SigTable *t, const RuleLoadConfig *cfg, char *err, size_t errlen)
{
	const char *cf = cfg->classification_file ? cfg->classification_file :
			 conf_get("classification-file");
	const char *rf = cfg->reference_file ? cfg->reference_file :
			 conf_get("reference-config-file");
	char e[512];

	if (cf && detect_load_classifications(&t->ctx, cf, e, sizeof(e))) {
		if (cfg->init_errors_fatal) {
			snprintf(err, errlen, "%s", e);
			return -1;
		}
		log_error("%s", e);
	}
	if (rf && detect_load_references(&t->ctx, rf, e, sizeof(e))) {
		if (cfg->init_errors_fatal) {
			snprintf(err, errlen, "%s", e);
			return -1;
		}
		log_error("%s", e);
	}
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A rule-files entry: a file name, or (as Suricata 7 and later read it) a
 * glob pattern such as "emerging-*.rules", whose matches load in name
 * order; a pattern that matches nothing is a warning, as a missing file. */
static int load_entry(SigTable *t, const char *dir, const char *name, const RuleLoadConfig *cfg,
		      char *err, size_t errlen)
{
	char pat[4096];
	glob_t g;
	int rc = 0;

	if (!strpbrk(name, "*?["))
		return load_file(t, dir, name, cfg, 0, err, errlen);
	if (name[0] == '/' || !dir || !*dir)
		snprintf(pat, sizeof(pat), "%s", name);
	else
		snprintf(pat, sizeof(pat), "%s/%s", dir, name);
	switch (glob(pat, 0, NULL, &g)) {
	case 0:
		for (size_t i = 0; i < g.gl_pathc && rc == 0; i++)
			rc = load_file(t, NULL, g.gl_pathv[i], cfg, 0, err, errlen);
		globfree(&g);
		return rc;
	case GLOB_NOMATCH:
		t->files_failed++;
		snprintf(err, errlen, "%s: no rule files match the pattern", pat);
		if (cfg->init_errors_fatal)
			return -1;
		if (!cfg->quiet)
			log_warning("%s", err);
		err[0] = '\0';
		return 0;
	default:
		snprintf(err, errlen, "%s: cannot expand the pattern: %s", pat, strerror(errno ? errno : EIO));
		return -1;
	}
}

static int reason_cmp(const void *a, const void *b);

/* The firewall rule files: --firewall-rules-exclusive, else
 * firewall.rule-files under firewall.rule-path. Their rules take accept
 * and need hooks (DetectContext.firewall). */
static int load_firewall(SigTable *t, const RuleLoadConfig *cfg, char *err, size_t errlen)
{
	int rc = 0;

	t->ctx.firewall = 1;
	if (cfg->fw_exclusive) {
		rc = load_file(t, NULL, cfg->fw_exclusive, cfg, 1, err, errlen);
	} else {
		const char *dir = conf_get("firewall.rule-path");
		ConfNode *n = conf_get_node("firewall.rule-files");

		for (ConfNode *c = n ? n->child : NULL; c && !rc; c = c->next)
			if (c->val)
				rc = load_entry(t, dir, c->val, cfg, err, errlen);
	}
	t->ctx.firewall = 0;
	return rc;
}

SigTable *sig_load(const RuleLoadConfig *cfg, char *err, size_t errlen)
{
	SigTable *t = sig_table_new();
	const char *dir = cfg->rule_path ? cfg->rule_path : conf_get("default-rule-path");
	double t0 = now_s();

	if (!t) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	err[0] = '\0';
	if (load_configs(t, cfg, err, errlen))
		goto fatal;
	/* Suricata 8: the firewall rules load first, from their own files */
	if (cfg->firewall && load_firewall(t, cfg, err, errlen))
		goto fatal;
	if (cfg->exclusive) {
		/* -S: this file only, path as given */
		if (load_file(t, NULL, cfg->exclusive, cfg, 1, err, errlen))
			goto fatal;
	} else {
		if (cfg->files) {
			for (int i = 0; i < cfg->nfiles; i++)
				if (load_file(t, dir, cfg->files[i], cfg, 0, err, errlen))
					goto fatal;
		} else {
			ConfNode *n = conf_get_node("rule-files");

			for (ConfNode *c = n ? n->child : NULL; c; c = c->next) {
				if (!c->val)
					continue;
				if (load_entry(t, dir, c->val, cfg, err, errlen))
					goto fatal;
			}
		}
		if (cfg->extra && load_file(t, NULL, cfg->extra, cfg, 0, err, errlen))
			goto fatal;
	}
	t->load_seconds = now_s() - t0;
	/* the start-up summary names the commonest skip reasons first */
	if (t->nreasons > 1)
		qsort(t->reasons, t->nreasons, sizeof(*t->reasons), reason_cmp);
	/* Suricata warns and runs on: a run without rules is allowed (flow and
	 * protocol logging), but rarely what was meant. */
	if (t->loaded == 0 && !cfg->quiet)
		log_warning("%d rule file%s specified, but no rules were loaded", t->files_loaded,
			    t->files_loaded == 1 ? "" : "s");
	return t;
fatal:
	sig_table_free(t);
	return NULL;
}

static int reason_cmp(const void *a, const void *b)
{
	const SkipReason *x = a, *y = b;

	if (x->count != y->count)
		return y->count - x->count;
	return strcmp(x->reason, y->reason);
}

void sig_load_summary_print(const SigTable *t, FILE *out)
{
	SkipReason *r;

	fprintf(out, "%d rules loaded, %d failed, %d skipped\n", t->loaded, t->failed, t->skipped);
	if (!t->nreasons)
		return;
	r = malloc(t->nreasons * sizeof(*r));
	if (!r)
		return;
	memcpy(r, t->reasons, t->nreasons * sizeof(*r));
	qsort(r, t->nreasons, sizeof(*r), reason_cmp);
	for (int i = 0; i < t->nreasons; i++)
		fprintf(out, "skipped: %s \xc3\x97%d\n", r[i].reason, r[i].count);
	free(r);
}
