/* Datasets: named sets of values (strings, md5, sha256, IPv4, IP) that rules
 * look buffers up in (dataset, datarep) and add to or remove from (dataset
 * set / unset), that the unix socket edits (dataset-add, ...), and that are
 * loaded at start and saved at exit (Suricata 8's rules/datasets).
 *
 * Threading contract: lookups (dataset_lookup) take no lock and never
 * allocate: they run on the packet path of every worker. Writers (rules'
 * set/unset, the socket) serialise on the set's mutex. A set's buckets are
 * chains whose entries, once published (a release store of the bucket
 * head), never move and are not freed before dataset_free_all(); removal
 * clears an entry's `live` flag (an atomic), and adding the value again
 * sets it. So a reader sees either the old or the new state of an entry,
 * never a freed one. The price: a removed value's memory stays counted
 * against the set's memcap until exit (dataset-clear included).
 *
 * A set's values are fixed-size for md5 (16 bytes), sha256 (32), ipv4 (4)
 * and ip (16: an IPv4 address is kept as its 4 bytes then 12 zeros, as
 * Suricata keeps it); strings are any length up to DATASET_STRING_MAX. */
#ifndef DATASETS_DATASET_H
#define DATASETS_DATASET_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum dataset_type { DATASET_STRING, DATASET_MD5, DATASET_SHA256, DATASET_IPV4, DATASET_IP,
		    DATASET_TYPE_MAX };

#define DATASET_STRING_MAX 65535
#define DATASET_NAME_MAX 63
/* Suricata's limits on one set's and all sets' hash rows */
#define DATASET_HASHSIZE_MAX_ONE 65536u
#define DATASET_HASHSIZE_MAX_TOTAL 16777216u

typedef struct Dataset Dataset;

/* How a set is declared (yaml or rule); files already resolved to paths. */
typedef struct DatasetSpec {
	const char *name;
	int type;                 /* enum dataset_type */
	const char *load;         /* read at creation, or NULL */
	const char *save;         /* written at exit, or NULL */
	uint64_t memcap;          /* 0: the defaults' */
	uint32_t hashsize;        /* 0: the defaults' */
	int rep;                  /* datarep: the file has "<value>,<rep>" lines */
} DatasetSpec;

/* "string", "md5", "sha256", "ipv4", "ip" ("ipv6" too): the type, or -1. */
int dataset_type_parse(const char *s);
const char *dataset_type_name(int type);

/* Reads the yaml's `datasets:` section (defaults, rules.allow-write,
 * rules.allow-absolute-filenames, sets) and creates the sets it declares.
 * data_dir: where rules' save and state files go (NULL: the build's
 * localstatedir/lib/suricata/data). 0, or -1 with one line in err. */
int datasets_init(const char *data_dir, char *err, size_t errlen);

/* The set named so (type must agree), creating and loading it when new.
 * 0 with *out, or -1 with the reason in err (Suricata's wording where
 * it has one). */
int dataset_get_or_create(const DatasetSpec *spec, Dataset **out, char *err, size_t errlen);
/* The set named so of that type (type -1: any), or NULL. */
Dataset *dataset_find(const char *name, int type);
int dataset_set_type(const Dataset *set);
const char *dataset_set_name(const Dataset *set);

/* A rule's file name for save/state made a path under the data folder:
 * absolute names and ".." are refused unless allow-absolute-filenames,
 * and writing at all unless allow-write. 0 or -1 with the reason. */
int dataset_rule_save_path(const char *name, char *out, size_t outlen, char *err, size_t errlen);
/* A rule's load file: relative to the rule file's folder (rule_file may be
 * NULL: the working folder). */
void dataset_rule_load_path(const char *name, const char *rule_file, char *out, size_t outlen);

/* Packet path, lock-free: 1 when the value is in the set (*rep, may be
 * NULL, gets its reputation), 0 when not. len must fit the set's type
 * (ip sets take 4 or 16 bytes). */
int dataset_lookup(const Dataset *set, const uint8_t *v, uint32_t len, uint16_t *rep);
/* 1 added, 0 already there, -1 memcap reached or a value of the wrong
 * size. */
int dataset_add(Dataset *set, const uint8_t *v, uint32_t len, uint16_t rep);
/* 1 removed, 0 was not there. */
int dataset_remove(Dataset *set, const uint8_t *v, uint32_t len);
void dataset_clear(Dataset *set);
/* Live values in the set. */
uint32_t dataset_count(const Dataset *set);

/* A value in the file / socket form of type (base64 for string, hex for
 * md5 and sha256, the address for ipv4 and ip) decoded into out (room
 * DATASET_STRING_MAX); *len its size. 0, or -1 when malformed. */
int dataset_value_parse(int type, const char *text, uint8_t *out, uint32_t *len);
/* The same value written back in that form. */
void dataset_value_write(FILE *f, int type, const uint8_t *v, uint32_t len);

/* Writes every set that has a save (or state) file: at exit and on the
 * socket's dataset-dump. The number of sets that failed. */
int datasets_save(void);
/* Frees every set (at exit, after datasets_save). */
void datasets_free(void);

#endif
