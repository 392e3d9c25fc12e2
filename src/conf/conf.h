/* The configuration tree: suricata.yaml parsed with libyaml into nodes named by
 * Suricata's keys, plus --set overrides. Read once at start by each subsystem into
 * its own typed struct; never looked up on the packet path.
 *
 * Paths use dots: "outputs", "flow.memcap", "vars.address-groups.HOME_NET",
 * "cuda.mpm.gpu-transfer-size". Sequence items are children named "0", "1", ...
 * (so "rule-files.0"); a sequence of single-key maps, as in `outputs:`, is
 * reachable as "outputs.0.eve-log.filename". */
#ifndef CONF_CONF_H
#define CONF_CONF_H

#include <stdint.h>
#include <stdio.h>

typedef struct ConfNode {
	char *name;                 /* key, or "0".."n" for sequence items */
	char *val;                  /* scalar value, NULL for maps and sequences */
	int is_seq;                 /* node is a sequence */
	/* 1 once a subsystem looked the node up (conf_report_unused() names
	 * the settings nobody read). A sequence's scalar items are marked with
	 * it, since readers walk them through ->child. -1: a reader saw it and
	 * does not support it (an eve type); later lookups leave it so. */
	int used;
	struct ConfNode *parent;
	struct ConfNode *child;     /* first child, in file order */
	struct ConfNode *next;      /* next sibling */
	/* Private to conf.c: the last child (appends are O(1)) and, once a node
	 * has many children, a hash of their names (lookups are O(1)), so that
	 * loading a map of N keys is linear, not quadratic. */
	struct ConfNode *last_child;
	struct ConfNode *hnext;     /* next in the parent's hash bucket */
	struct ConfNode **buckets;
	uint32_t nbuckets;
	uint32_t nchildren;
} ConfNode;

/* Loads a YAML file into the global tree (merging over what is there; later keys
 * win). Follows `include:` (a string or a list, relative to the including file).
 * On failure returns -1 and writes one line into err: "FILE:LINE:COL: reason"
 * (or "FILE: reason" for a missing file). A file with no settings at all
 * (empty, or only comments) is refused, as Suricata refuses it. */
int conf_load_file(const char *path, char *err, size_t errlen);

/* Same, from a string; name is used in error messages. For tests. */
int conf_load_string(const char *yaml, const char *name, char *err, size_t errlen);

/* --set "a.b.c=value": creates or replaces a scalar. -1 on a malformed argument. */
int conf_set_kv(const char *kv);
int conf_set(const char *path, const char *value);

ConfNode *conf_root(void);
ConfNode *conf_get_node(const char *path);
ConfNode *conf_node_lookup(const ConfNode *base, const char *relpath);
/* Value of a scalar, or NULL if absent or not a scalar. */
const char *conf_get(const char *path);
const char *conf_node_get(const ConfNode *base, const char *relpath);

/* Typed getters. Return 1 if found and valid, 0 if absent (out keeps the default
 * the caller put there), -1 if present but invalid (an error line naming the key
 * is logged). A map or a list where a scalar is expected is invalid too. */
int conf_get_bool(const char *path, int *out);       /* yes/no/true/false/on/off/1/0 */
int conf_get_int(const char *path, int64_t *out);
int conf_get_size(const char *path, uint64_t *out);  /* "64mb", "1gb", "1500", "32kb" */
int conf_get_time_us(const char *path, uint64_t *out); /* plain number = microseconds */
/* One of the NULL-terminated names in `allowed`: *out is its index. An unknown
 * value logs "KEY: invalid value 'V' (use a, b, ...)". */
int conf_get_enum(const char *path, const char *const *allowed, int *out);
/* Like conf_get(), but a map or list at path is an error (logged, naming the
 * key): 1 found (*out set), 0 absent, -1 not a scalar. */
int conf_get_scalar(const char *path, const char **out);

/* Alias expansion is capped: a file whose aliases would build more nodes than
 * this ("billion laughs") is refused with "too many nodes from aliases". */
#define CONF_ALIAS_NODES_MAX 100000

/* Size strings: a number with an optional unit b, kb, mb, gb (case-insensitive,
 * 1024-based, optional space). Returns 0, or -1 if malformed or overflowing. */
int parse_size(const char *s, uint64_t *out);

/* Logs, after every subsystem has read its settings, the ones none read
 * that Suricata would act on: one notice line per section, naming the keys,
 * then a count. Sections of other capture methods and modes (af-packet, dpdk,
 * profiling, ...) and sections switched off with `enabled: no` are skipped,
 * as Suricata skips them there, and settings whose value is what this engine
 * always does (unused.c lists them). Under -T no capture is set up, so
 * pcap-file and capture are skipped too. Returns the number named. */
unsigned conf_report_unused(int test_mode);
/* The section lines are notices under -T (test_mode), info lines otherwise;
 * the count is a notice in both. */

/* For a setting the command line overrides (-l over default-log-dir) or that
 * a run reads and -T does not: it is not reported as unused. */
void conf_mark_used(const char *path);

/* Prints "a.b.c = value" for every scalar, in tree order (--dump-config). */
void conf_dump(FILE *out);

/* A rule reload re-reads the yaml's detection keys (Suricata 8 reloads
 * rule-files, default-rule-path, vars, classification-file,
 * reference-config-file and threshold-file from the file): each top-level
 * key of `keys` (NULL-terminated) takes the file's value, or becomes empty
 * when the file no longer has it; other keys stay as they are. The
 * replaced values stay allocated until conf_deinit(). A file that does not
 * parse changes nothing: -1 with one line in err. Call under conf_lock(). */
int conf_reload_keys(const char *path, const char *const *keys, char *err, size_t errlen);

/* After start, the tree is read and changed under this lock by the threads
 * that read it then (the reload thread, the unix socket's conf-get, the
 * unix-socket runmode between files). Not recursive. */
void conf_lock(void);
void conf_unlock(void);

/* Frees the whole tree. */
void conf_deinit(void);

#endif
