/* Datasets: the set store (dataset.h has the threading contract).
 *
 * The registry of sets is a list guarded by one mutex: it changes only
 * while rules load and while the socket names a set, never on the packet
 * path (a rule's context holds its set's pointer). */
#include "config.h"
#include "datasets/dataset.h"
#include "conf/conf.h"
#include "util/base64.h"
#include "util/log.h"
#include "util/strnum.h"

#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct DatasetEntry {
	struct DatasetEntry *next;        /* immutable once published */
	_Atomic uint8_t live;
	_Atomic uint16_t rep;
	uint32_t len;
	uint8_t data[];
} DatasetEntry;

struct Dataset {
	struct Dataset *next;             /* registry list */
	char name[DATASET_NAME_MAX + 1];
	int type;
	int rep;                          /* datarep: lines carry a value */
	char *save;                       /* written by datasets_save, or NULL */
	uint64_t memcap, used;            /* bytes; used under lock */
	uint32_t mask;                    /* buckets - 1 */
	_Atomic(DatasetEntry *) *buckets;
	_Atomic uint32_t count;
	pthread_mutex_t lock;             /* writers */
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static Dataset *sets;
static uint32_t hashsize_total;

/* The yaml's settings; Suricata's defaults until datasets_init(). */
typedef struct DatasetsConfig {
	uint64_t memcap;
	uint32_t hashsize;
	int allow_write, allow_absolute;
	char data_dir[4096];
} DatasetsConfig;

/* one initializer for both: a static may not be initialized from another
 * object, const or not, in ISO C (clang refuses it) */
#define DATASETS_CONFIG_DEFAULT { \
	.memcap = 16ull << 20, .hashsize = 2048, .allow_write = 1, .allow_absolute = 0, \
	.data_dir = BUILD_LOCALSTATEDIR "/lib/suricata/data" }
static const DatasetsConfig cfg_default = DATASETS_CONFIG_DEFAULT;
static DatasetsConfig cfg = DATASETS_CONFIG_DEFAULT;

static const char *const type_names[DATASET_TYPE_MAX] = { "string", "md5", "sha256", "ipv4",
							   "ip" };
static const uint32_t type_len[DATASET_TYPE_MAX] = { 0, 16, 32, 4, 16 };
/* the longest line of a set file: a string's base64, a comma, a rep */
#define DATASET_LINE_MAX ((DATASET_STRING_MAX + 2) / 3 * 4 + 16)

int dataset_type_parse(const char *s)
{
	for (int i = 0; i < DATASET_TYPE_MAX; i++)
		if (strcasecmp(s, type_names[i]) == 0)
			return i;
	/* Suricata 8 accepts ipv6 as the ip type's name too */
	return strcasecmp(s, "ipv6") == 0 ? DATASET_IP : -1;
}

const char *dataset_type_name(int type)
{
	return type >= 0 && type < DATASET_TYPE_MAX ? type_names[type] : "?";
}

int dataset_set_type(const Dataset *set)
{
	return set->type;
}

const char *dataset_set_name(const Dataset *set)
{
	return set->name;
}

/* FNV-1a: keys are short, and a set's values are not chosen by the
 * attacker alone (the hash only spreads them over the rows) */
static uint32_t hash_bytes(const uint8_t *v, uint32_t len)
{
	uint32_t h = 2166136261u;

	for (uint32_t i = 0; i < len; i++)
		h = (h ^ v[i]) * 16777619u;
	return h;
}

/* The key of v in a set of type: an IPv4 address in an ip set becomes its
 * 16-byte form. NULL when v cannot be of that type. */
static const uint8_t *key_of(int type, const uint8_t *v, uint32_t len, uint8_t tmp[16],
			     uint32_t *klen)
{
	if (type == DATASET_IP && len == 4) {
		memcpy(tmp, v, 4);
		memset(tmp + 4, 0, 12);
		*klen = 16;
		return tmp;
	}
	if (type_len[type] && len != type_len[type])
		return NULL;
	if (len > DATASET_STRING_MAX)
		return NULL;
	*klen = len;
	return v;
}

static DatasetEntry *entry_find(const Dataset *set, const uint8_t *k, uint32_t klen)
{
	DatasetEntry *e = atomic_load_explicit(&set->buckets[hash_bytes(k, klen) & set->mask],
					       memory_order_acquire);

	for (; e; e = e->next)
		if (e->len == klen && memcmp(e->data, k, klen) == 0)
			return e;
	return NULL;
}

int dataset_lookup(const Dataset *set, const uint8_t *v, uint32_t len, uint16_t *rep)
{
	uint8_t tmp[16];
	uint32_t klen;
	const uint8_t *k = key_of(set->type, v, len, tmp, &klen);
	DatasetEntry *e;

	if (!k || !(e = entry_find(set, k, klen)) ||
	    !atomic_load_explicit(&e->live, memory_order_acquire))
		return 0;
	if (rep)
		*rep = atomic_load_explicit(&e->rep, memory_order_relaxed);
	return 1;
}

int dataset_add(Dataset *set, const uint8_t *v, uint32_t len, uint16_t rep)
{
	uint8_t tmp[16];
	uint32_t klen;
	const uint8_t *k = key_of(set->type, v, len, tmp, &klen);
	DatasetEntry *e;
	int r = 0;

	if (!k)
		return -1;
	pthread_mutex_lock(&set->lock);
	e = entry_find(set, k, klen);
	if (e) {
		if (!atomic_load_explicit(&e->live, memory_order_relaxed)) {
			atomic_store_explicit(&e->rep, rep, memory_order_relaxed);
			atomic_store_explicit(&e->live, 1, memory_order_release);
			atomic_fetch_add(&set->count, 1);
			r = 1;
		}
	} else if (set->used + sizeof(*e) + klen > set->memcap ||
		   !(e = calloc(1, sizeof(*e) + klen))) {
		r = -1;
	} else {
		_Atomic(DatasetEntry *) *b = &set->buckets[hash_bytes(k, klen) & set->mask];

		e->len = klen;
		memcpy(e->data, k, klen);
		atomic_init(&e->rep, rep);
		atomic_init(&e->live, 1);
		e->next = atomic_load_explicit(b, memory_order_relaxed);
		/* publishes the entry whole to the lock-free readers */
		atomic_store_explicit(b, e, memory_order_release);
		set->used += sizeof(*e) + klen;
		atomic_fetch_add(&set->count, 1);
		r = 1;
	}
	pthread_mutex_unlock(&set->lock);
	return r;
}

int dataset_remove(Dataset *set, const uint8_t *v, uint32_t len)
{
	uint8_t tmp[16];
	uint32_t klen;
	const uint8_t *k = key_of(set->type, v, len, tmp, &klen);
	DatasetEntry *e;
	int r = 0;

	if (!k)
		return 0;
	pthread_mutex_lock(&set->lock);
	e = entry_find(set, k, klen);
	if (e && atomic_load_explicit(&e->live, memory_order_relaxed)) {
		atomic_store_explicit(&e->live, 0, memory_order_release);
		atomic_fetch_sub(&set->count, 1);
		r = 1;
	}
	pthread_mutex_unlock(&set->lock);
	return r;
}

void dataset_clear(Dataset *set)
{
	pthread_mutex_lock(&set->lock);
	for (uint32_t i = 0; i <= set->mask; i++)
		for (DatasetEntry *e = atomic_load_explicit(&set->buckets[i], memory_order_relaxed);
		     e; e = e->next)
			atomic_store_explicit(&e->live, 0, memory_order_release);
	atomic_store(&set->count, 0);
	pthread_mutex_unlock(&set->lock);
}

uint32_t dataset_count(const Dataset *set)
{
	return atomic_load(&set->count);
}

/* ---- the file and socket form of values ---- */

static int base64_decode_all(const char *s, uint8_t *out, uint32_t *len)
{
	uint32_t acc = 0, n = 0, bits = 0;
	size_t i, sl = strlen(s);

	while (sl && s[sl - 1] == '=')
		sl--;
	for (i = 0; i < sl; i++) {
		int v = base64_char_value((uint8_t)s[i]);

		if (v < 0)
			return -1;
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (n >= DATASET_STRING_MAX)
				return -1;
			out[n++] = (uint8_t)(acc >> bits);
		}
	}
	*len = n;
	return 0;
}

int dataset_value_parse(int type, const char *text, uint8_t *out, uint32_t *len)
{
	switch (type) {
	case DATASET_STRING:
		return base64_decode_all(text, out, len);
	case DATASET_MD5:
	case DATASET_SHA256: {
		uint32_t n = type_len[type];

		if (strlen(text) != n * 2)
			return -1;
		for (uint32_t i = 0; i < n; i++) {
			int hi = hex_digit((uint8_t)text[2 * i]), lo = hex_digit((uint8_t)text[2 * i + 1]);

			if (hi < 0 || lo < 0)
				return -1;
			out[i] = (uint8_t)(hi << 4 | lo);
		}
		*len = n;
		return 0;
	}
	case DATASET_IPV4:
		if (inet_pton(AF_INET, text, out) != 1)
			return -1;
		*len = 4;
		return 0;
	case DATASET_IP:
		if (inet_pton(AF_INET6, text, out) == 1) {
			*len = 16;
			return 0;
		}
		if (inet_pton(AF_INET, text, out) != 1)
			return -1;
		memset(out + 4, 0, 12);
		*len = 16;
		return 0;
	}
	return -1;
}

void dataset_value_write(FILE *f, int type, const uint8_t *v, uint32_t len)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char a[INET6_ADDRSTRLEN];

	switch (type) {
	case DATASET_STRING:
		for (uint32_t i = 0; i < len; i += 3) {
			uint32_t n = len - i < 3 ? len - i : 3;
			uint32_t w = (uint32_t)v[i] << 16 | (n > 1 ? (uint32_t)v[i + 1] << 8 : 0) |
				     (n > 2 ? v[i + 2] : 0);

			fputc(b64[w >> 18 & 63], f);
			fputc(b64[w >> 12 & 63], f);
			fputc(n > 1 ? b64[w >> 6 & 63] : '=', f);
			fputc(n > 2 ? b64[w & 63] : '=', f);
		}
		break;
	case DATASET_MD5:
	case DATASET_SHA256:
		for (uint32_t i = 0; i < len; i++)
			fprintf(f, "%02x", v[i]);
		break;
	case DATASET_IPV4:
		fputs(inet_ntop(AF_INET, v, a, sizeof(a)) ? a : "", f);
		break;
	case DATASET_IP: {
		static const uint8_t zero[12];

		/* an IPv4 address kept in the 16-byte form is written as one */
		if (len == 16 && memcmp(v + 4, zero, 12) == 0)
			fputs(inet_ntop(AF_INET, v, a, sizeof(a)) ? a : "", f);
		else
			fputs(inet_ntop(AF_INET6, v, a, sizeof(a)) ? a : "", f);
		break;
	}
	}
}

/* ---- load and save ---- */

/* Reads "<value>" (or "<value>,<rep>") lines. Suricata fails the set on a
 * bad line, naming the file: so does this. */
static int set_load(Dataset *set, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *line;
	size_t n;
	unsigned lineno = 0;
	uint8_t *buf;
	struct stat sb;
	int rc = 0;

	if (!f) {
		snprintf(err, errlen, "dataset %s: cannot open %s: %s", set->name, path,
			 strerror(errno));
		return -1;
	}
	if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
		fclose(f);
		snprintf(err, errlen, "dataset %s: %s is not a regular file", set->name, path);
		return -1;
	}
	buf = malloc(DATASET_STRING_MAX);
	line = malloc(DATASET_LINE_MAX);
	if (!buf || !line) {
		free(buf);
		free(line);
		fclose(f);
		snprintf(err, errlen, "dataset %s: out of memory", set->name);
		return -1;
	}
	while (rc == 0 && fgets(line, DATASET_LINE_MAX, f)) {
		uint32_t len;
		uint64_t rep = 0;
		char *comma;

		lineno++;
		n = strlen(line);
		/* a line longer than any value's encoding (or a file such as
		 * /dev/zero) is refused, not read into ever more memory */
		if (n == DATASET_LINE_MAX - 1 && line[n - 1] != '\n' && !feof(f)) {
			snprintf(err, errlen, "dataset %s: %s:%u: line too long", set->name, path,
				 lineno);
			rc = -1;
			break;
		}
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' '))
			line[--n] = 0;
		if (n == 0 || line[0] == '#')
			continue;
		comma = strchr(line, ',');
		if (comma) {
			char *end;

			*comma = 0;
			errno = 0;
			rep = strtoull(comma + 1, &end, 10);
			if (!set->rep || errno || end == comma + 1 || *end || rep > UINT16_MAX) {
				snprintf(err, errlen, "dataset %s: %s:%u: bad line", set->name, path,
					 lineno);
				rc = -1;
				break;
			}
		} else if (set->rep) {
			snprintf(err, errlen, "dataset %s: %s:%u: datarep line without a value",
				 set->name, path, lineno);
			rc = -1;
			break;
		}
		if (dataset_value_parse(set->type, line, buf, &len) != 0) {
			snprintf(err, errlen, "dataset %s: %s:%u: bad %s value", set->name, path,
				 lineno, type_names[set->type]);
			rc = -1;
		} else if (dataset_add(set, buf, len, (uint16_t)rep) < 0) {
			snprintf(err, errlen, "dataset %s: %s:%u: memcap reached", set->name, path,
				 lineno);
			rc = -1;
		}
	}
	free(buf);
	free(line);
	fclose(f);
	return rc;
}

static int set_save(Dataset *set)
{
	char tmp[4200];
	FILE *f;
	int bad;

	snprintf(tmp, sizeof(tmp), "%s.tmp", set->save);
	f = fopen(tmp, "w");
	if (!f) {
		log_error("dataset %s: cannot write %s: %s", set->name, tmp, strerror(errno));
		return -1;
	}
	pthread_mutex_lock(&set->lock);
	for (uint32_t i = 0; i <= set->mask; i++)
		for (DatasetEntry *e = atomic_load_explicit(&set->buckets[i], memory_order_relaxed);
		     e; e = e->next) {
			if (!atomic_load_explicit(&e->live, memory_order_relaxed))
				continue;
			dataset_value_write(f, set->type, e->data, e->len);
			if (set->rep)
				fprintf(f, ",%u", (unsigned)atomic_load(&e->rep));
			fputc('\n', f);
		}
	pthread_mutex_unlock(&set->lock);
	bad = ferror(f);
	if (fclose(f) != 0 || bad || rename(tmp, set->save) != 0) {
		log_error("dataset %s: cannot write %s: %s", set->name, set->save, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int datasets_save(void)
{
	int failed = 0;

	pthread_mutex_lock(&registry_lock);
	for (Dataset *s = sets; s; s = s->next)
		if (s->save && set_save(s) != 0)
			failed++;
	pthread_mutex_unlock(&registry_lock);
	return failed;
}

/* ---- the registry ---- */

static void set_free(Dataset *set)
{
	for (uint32_t i = 0; i <= set->mask; i++) {
		DatasetEntry *e = atomic_load_explicit(&set->buckets[i], memory_order_relaxed);

		while (e) {
			DatasetEntry *n = e->next;

			free(e);
			e = n;
		}
	}
	free(set->buckets);
	free(set->save);
	pthread_mutex_destroy(&set->lock);
	free(set);
}

void datasets_free(void)
{
	pthread_mutex_lock(&registry_lock);
	while (sets) {
		Dataset *n = sets->next;

		set_free(sets);
		sets = n;
	}
	hashsize_total = 0;
	pthread_mutex_unlock(&registry_lock);
}

static Dataset *find_locked(const char *name)
{
	for (Dataset *s = sets; s; s = s->next)
		if (strcmp(s->name, name) == 0)
			return s;
	return NULL;
}

Dataset *dataset_find(const char *name, int type)
{
	Dataset *s;

	pthread_mutex_lock(&registry_lock);
	s = find_locked(name);
	pthread_mutex_unlock(&registry_lock);
	return s && (type < 0 || s->type == type) ? s : NULL;
}

static uint32_t pow2_at_least(uint32_t v)
{
	uint32_t p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

int dataset_get_or_create(const DatasetSpec *spec, Dataset **out, char *err, size_t errlen)
{
	uint32_t hs = spec->hashsize ? spec->hashsize : cfg.hashsize;
	Dataset *set;
	int rc = 0;

	if (!spec->name[0] || strlen(spec->name) > DATASET_NAME_MAX) {
		snprintf(err, errlen, "dataset name \"%s\" is empty or too long (max %d)",
			 spec->name, DATASET_NAME_MAX);
		return -1;
	}
	pthread_mutex_lock(&registry_lock);
	set = find_locked(spec->name);
	if (set) {
		/* a second declaration refers to the first: its type must agree,
		 * and its files are the first's (Suricata reuses the set) */
		if (set->type != spec->type) {
			snprintf(err, errlen, "dataset %s already exists and is of type %s",
				 spec->name, type_names[set->type]);
			rc = -1;
		}
		pthread_mutex_unlock(&registry_lock);
		*out = rc == 0 ? set : NULL;
		return rc;
	}
	if (hs == 0 || hs > DATASET_HASHSIZE_MAX_ONE ||
	    hashsize_total + pow2_at_least(hs) > DATASET_HASHSIZE_MAX_TOTAL) {
		snprintf(err, errlen, "dataset %s: hashsize %u is too large (at most %u per set, "
			 "%u in all)", spec->name, hs, DATASET_HASHSIZE_MAX_ONE,
			 DATASET_HASHSIZE_MAX_TOTAL);
		pthread_mutex_unlock(&registry_lock);
		return -1;
	}
	hs = pow2_at_least(hs);
	set = calloc(1, sizeof(*set));
	if (set)
		set->buckets = calloc(hs, sizeof(*set->buckets));
	if (!set || !set->buckets || (spec->save && !(set->save = strdup(spec->save)))) {
		if (set) {
			free(set->buckets);
			free(set);
		}
		pthread_mutex_unlock(&registry_lock);
		snprintf(err, errlen, "dataset %s: out of memory", spec->name);
		return -1;
	}
	snprintf(set->name, sizeof(set->name), "%s", spec->name);
	set->type = spec->type;
	set->rep = spec->rep;
	set->mask = hs - 1;
	set->memcap = spec->memcap ? spec->memcap : cfg.memcap;
	pthread_mutex_init(&set->lock, NULL);
	if (spec->load && set_load(set, spec->load, err, errlen) != 0) {
		set_free(set);
		pthread_mutex_unlock(&registry_lock);
		return -1;
	}
	hashsize_total += hs;
	set->next = sets;
	sets = set;
	pthread_mutex_unlock(&registry_lock);
	*out = set;
	return 0;
}

/* ---- file names ---- */

int dataset_rule_save_path(const char *name, char *out, size_t outlen, char *err, size_t errlen)
{
	if (!cfg.allow_write) {
		snprintf(err, errlen, "dataset: save and state are not allowed in rules "
			 "(datasets.rules.allow-write is false)");
		return -1;
	}
	if (!cfg.allow_absolute && (name[0] == '/' || strstr(name, ".."))) {
		snprintf(err, errlen, "dataset: absolute filenames and filenames with \"..\" are "
			 "not allowed for save and state (%s); set "
			 "datasets.rules.allow-absolute-filenames to allow them", name);
		return -1;
	}
	if (name[0] == '/')
		snprintf(out, outlen, "%s", name);
	else
		snprintf(out, outlen, "%s/%s", cfg.data_dir, name);
	return 0;
}

void dataset_rule_load_path(const char *name, const char *rule_file, char *out, size_t outlen)
{
	const char *slash = rule_file ? strrchr(rule_file, '/') : NULL;

	if (name[0] == '/' || !slash)
		snprintf(out, outlen, "%s", name);
	else
		snprintf(out, outlen, "%.*s/%s", (int)(slash - rule_file), rule_file, name);
}

/* ---- the yaml ---- */

static int conf_set_from(const ConfNode *n, char *err, size_t errlen)
{
	DatasetSpec spec = { .name = n->name, .type = -1 };
	const char *v;
	Dataset *set;

	v = conf_node_get(n, "type");
	if (!v || (spec.type = dataset_type_parse(v)) < 0) {
		snprintf(err, errlen, "datasets.%s: type %s%s", n->name, v ? "invalid: " : "missing",
			 v ? v : "");
		return -1;
	}
	if ((v = conf_node_get(n, "memcap")) && parse_size(v, &spec.memcap) != 0) {
		snprintf(err, errlen, "datasets.%s.memcap: invalid value '%s'", n->name, v);
		return -1;
	}
	if ((v = conf_node_get(n, "hashsize"))) {
		uint64_t h;

		if (parse_size(v, &h) != 0 || h == 0 || h > UINT32_MAX) {
			snprintf(err, errlen, "datasets.%s.hashsize: invalid value '%s'", n->name, v);
			return -1;
		}
		spec.hashsize = (uint32_t)h;
	}
	/* yaml files are paths as written: the operator chose them */
	spec.load = conf_node_get(n, "load");
	spec.save = conf_node_get(n, "save");
	if ((v = conf_node_get(n, "state"))) {
		if (spec.load || spec.save) {
			snprintf(err, errlen, "datasets.%s: state cannot be mixed with load or save",
				 n->name);
			return -1;
		}
		spec.save = v;
		/* a state file that does not exist yet is an empty set */
		FILE *f = fopen(v, "r");

		if (f) {
			fclose(f);
			spec.load = v;
		}
	}
	return dataset_get_or_create(&spec, &set, err, errlen);
}

int datasets_init(const char *data_dir, char *err, size_t errlen)
{
	ConfNode *root = conf_get_node("datasets");
	int r;

	cfg = cfg_default;
	if (data_dir && data_dir[0])
		snprintf(cfg.data_dir, sizeof(cfg.data_dir), "%s", data_dir);
	if (conf_get_size("datasets.defaults.memcap", &cfg.memcap) < 0)
		goto bad;
	{
		uint64_t h = cfg.hashsize;

		if (conf_get_size("datasets.defaults.hashsize", &h) < 0 || h == 0 ||
		    h > DATASET_HASHSIZE_MAX_ONE)
			goto bad;
		cfg.hashsize = (uint32_t)h;
	}
	r = conf_get_bool("datasets.rules.allow-write", &cfg.allow_write);
	if (r < 0)
		goto bad;
	/* 8.0 reads it under rules:, older yaml at the top of datasets: */
	if (conf_get_bool("datasets.rules.allow-absolute-filenames", &cfg.allow_absolute) < 0 ||
	    conf_get_bool("datasets.allow-absolute-filenames", &cfg.allow_absolute) < 0)
		goto bad;
	if (!root)
		return 0;
	for (const ConfNode *n = root->child; n; n = n->next) {
		if (strcmp(n->name, "defaults") == 0 || strcmp(n->name, "rules") == 0 ||
		    strcmp(n->name, "allow-absolute-filenames") == 0)
			continue;
		if (conf_set_from(n, err, errlen) != 0)
			return -1;
	}
	return 0;
bad:
	snprintf(err, errlen, "datasets: invalid settings (see the line above)");
	return -1;
}
