/* IP reputation tables (iprep.h has the format and the contract). */
#include "datasets/iprep.h"
#include "conf/conf.h"
#include "util/log.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define IPREP_NAME_MAX 32

typedef struct RepEntry {
	uint8_t family;           /* AF_INET or AF_INET6 */
	uint8_t prefix;           /* netblocks: bits; hosts: 32 or 128 */
	uint8_t addr[16];
	uint8_t score[IPREP_CATS_MAX]; /* 0xff: none */
} RepEntry;

static struct {
	int loaded;
	char cats[IPREP_CATS_MAX][IPREP_NAME_MAX + 1];
	RepEntry *hosts;          /* sorted by (family, addr) */
	size_t nhosts;
	RepEntry *nets;           /* longest prefix first */
	size_t nnets;
} rep;

int iprep_loaded(void)
{
	return rep.loaded;
}

int iprep_category(const char *name)
{
	for (int i = 0; i < IPREP_CATS_MAX; i++)
		if (rep.cats[i][0] && strcmp(rep.cats[i], name) == 0)
			return i;
	return -1;
}

void iprep_free(void)
{
	free(rep.hosts);
	free(rep.nets);
	memset(&rep, 0, sizeof(rep));
}

static int cmp_host(const void *a, const void *b)
{
	const RepEntry *x = a, *y = b;

	if (x->family != y->family)
		return x->family < y->family ? -1 : 1;
	return memcmp(x->addr, y->addr, 16);
}

static int cmp_net(const void *a, const void *b)
{
	const RepEntry *x = a, *y = b;

	return (int)y->prefix - (int)x->prefix;
}

static int in_net(const RepEntry *n, int family, const uint8_t *a)
{
	unsigned full = n->prefix / 8, rest = n->prefix % 8;

	if (n->family != family || memcmp(n->addr, a, full) != 0)
		return 0;
	return !rest || ((n->addr[full] ^ a[full]) & (0xff00 >> rest) & 0xff) == 0;
}

int iprep_score(int family, const uint8_t *a, int cat)
{
	RepEntry key;
	const RepEntry *h;

	if (cat < 0 || cat >= IPREP_CATS_MAX)
		return -1;
	key.family = (uint8_t)family;
	memset(key.addr, 0, 16);
	memcpy(key.addr, a, family == AF_INET ? 4 : 16);
	h = rep.nhosts ? bsearch(&key, rep.hosts, rep.nhosts, sizeof(*rep.hosts), cmp_host) : NULL;
	if (h && h->score[cat] != 0xff)
		return h->score[cat];
	for (size_t i = 0; i < rep.nnets; i++)
		if (rep.nets[i].score[cat] != 0xff && in_net(&rep.nets[i], family, key.addr))
			return rep.nets[i].score[cat];
	return -1;
}

/* The file at path when it is a regular one (a device would be read for
 * ever), else NULL with errno set. */
static FILE *open_regular(const char *path)
{
	FILE *f = fopen(path, "r");
	struct stat sb;

	if (f && (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode))) {
		fclose(f);
		errno = EINVAL;
		return NULL;
	}
	return f;
}

static int load_categories(const char *path, char *err, size_t errlen)
{
	FILE *f = open_regular(path);
	char line[512];
	unsigned lineno = 0;

	if (!f) {
		snprintf(err, errlen, "reputation-categories-file %s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *id = strtok(line, ","), *name = strtok(NULL, ",\r\n"), *end;
		long v;

		lineno++;
		if (!id || id[0] == '#' || id[0] == '\n' || id[0] == '\r')
			continue;
		v = strtol(id, &end, 10);
		if (*end || v < 0 || v >= IPREP_CATS_MAX || !name || strlen(name) > IPREP_NAME_MAX) {
			snprintf(err, errlen, "%s:%u: bad category line (<id 0-%d>,<short name>,"
				 "<description>)", path, lineno, IPREP_CATS_MAX - 1);
			fclose(f);
			return -1;
		}
		snprintf(rep.cats[v], sizeof(rep.cats[v]), "%s", name);
	}
	fclose(f);
	return 0;
}

/* Appends one line's entry to *arr (grown by doubling). */
static int push(RepEntry **arr, size_t *n, size_t *cap, const RepEntry *e)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 256;
		RepEntry *a = realloc(*arr, nc * sizeof(*a));

		if (!a)
			return -1;
		*arr = a;
		*cap = nc;
	}
	(*arr)[(*n)++] = *e;
	return 0;
}

static int parse_line(char *line, RepEntry *e)
{
	char *ip = strtok(line, ","), *cat = strtok(NULL, ","), *score = strtok(NULL, ",\r\n");
	char *slash, *end;
	long c, s, pfx = -1;

	if (!ip || !cat || !score)
		return -1;
	c = strtol(cat, &end, 10);
	if (*end || c < 0 || c >= IPREP_CATS_MAX || !rep.cats[c][0])
		return -1;
	s = strtol(score, &end, 10);
	if ((*end && *end != ' ') || s < 0 || s > IPREP_SCORE_MAX)
		return -1;
	if ((slash = strchr(ip, '/'))) {
		*slash = 0;
		pfx = strtol(slash + 1, &end, 10);
		if (*end)
			return -1;
	}
	memset(e, 0, sizeof(*e));
	memset(e->score, 0xff, sizeof(e->score));
	if (inet_pton(AF_INET, ip, e->addr) == 1) {
		e->family = AF_INET;
		e->prefix = 32;
	} else if (inet_pton(AF_INET6, ip, e->addr) == 1) {
		e->family = AF_INET6;
		e->prefix = 128;
	} else {
		return -1;
	}
	if (pfx >= 0) {
		if (pfx > e->prefix)
			return -1;
		e->prefix = (uint8_t)pfx;
	}
	e->score[c] = (uint8_t)s;
	return 0;
}

static int load_file(const char *path, size_t *caps, char *err, size_t errlen)
{
	FILE *f = open_regular(path);
	char line[512];
	unsigned lineno = 0, bad = 0;

	if (!f) {
		snprintf(err, errlen, "reputation file %s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		RepEntry e;
		int full;

		lineno++;
		if (line[0] == '#' || line[0] == '\n' || line[0] == '\r')
			continue;
		if (parse_line(line, &e) != 0) {
			if (bad++ < 5)
				log_warning("reputation file %s:%u: bad line, skipped", path, lineno);
			continue;
		}
		full = e.prefix == (e.family == AF_INET ? 32 : 128);
		if (full ? push(&rep.hosts, &rep.nhosts, &caps[0], &e) :
			   push(&rep.nets, &rep.nnets, &caps[1], &e)) {
			fclose(f);
			snprintf(err, errlen, "reputation file %s: out of memory", path);
			return -1;
		}
	}
	fclose(f);
	if (bad > 5)
		log_warning("reputation file %s: %u bad lines skipped", path, bad);
	return 0;
}

/* Lines naming the same host merge into one entry (one score per
 * category, the last line's winning). */
static void merge_hosts(void)
{
	size_t o = 0;

	qsort(rep.hosts, rep.nhosts, sizeof(*rep.hosts), cmp_host);
	for (size_t i = 0; i < rep.nhosts; i++) {
		if (o && cmp_host(&rep.hosts[o - 1], &rep.hosts[i]) == 0) {
			for (int c = 0; c < IPREP_CATS_MAX; c++)
				if (rep.hosts[i].score[c] != 0xff)
					rep.hosts[o - 1].score[c] = rep.hosts[i].score[c];
			continue;
		}
		rep.hosts[o++] = rep.hosts[i];
	}
	rep.nhosts = o;
}

int iprep_init(char *err, size_t errlen)
{
	const char *cats = conf_get("reputation-categories-file");
	const char *dir = conf_get("default-reputation-path");
	ConfNode *files = conf_get_node("reputation-files");
	size_t caps[2] = { 0, 0 };

	iprep_free();
	if (!cats || !cats[0])
		return 0;
	if (load_categories(cats, err, errlen) != 0)
		return -1;
	for (const ConfNode *n = files ? files->child : NULL; n; n = n->next) {
		char path[4096];

		if (!n->val)
			continue;
		if (n->val[0] != '/' && dir && dir[0])
			snprintf(path, sizeof(path), "%s/%s", dir, n->val);
		else
			snprintf(path, sizeof(path), "%s", n->val);
		if (load_file(path, caps, err, errlen) != 0) {
			iprep_free();
			return -1;
		}
	}
	merge_hosts();
	qsort(rep.nets, rep.nnets, sizeof(*rep.nets), cmp_net);
	rep.loaded = 1;
	log_info("reputation: %zu hosts and %zu netblocks loaded", rep.nhosts, rep.nnets);
	return 0;
}
