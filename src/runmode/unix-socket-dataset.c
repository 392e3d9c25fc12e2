/* The unix socket's dataset commands (Suricata 8's rules/datasets page,
 * "Unix Socket"): dataset-add, dataset-remove, dataset-lookup,
 * dataset-clear, dataset-dump, dataset-add-json. Arguments as suricatasc
 * sends them: setname, settype, datavalue (base64 for string, hex for md5
 * and sha256, the address for ipv4 and ip), datajson. A change is seen by
 * the next packet: the store's writers lock, its readers do not
 * (datasets/dataset.h). */
#include "runmode/unix-socket-dataset.h"
#include "datasets/dataset.h"

#include <stdlib.h>
#include <string.h>

static void msg(json_t *answer, const char *m)
{
	json_object_set_new(answer, "message", json_string(m));
}

static const char *arg_str(json_t *args, const char *key)
{
	json_t *v = json_object_get(args, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* The set named by setname/settype. NULL with the answer's message set. */
static Dataset *set_of(json_t *args, json_t *answer)
{
	const char *name = arg_str(args, "setname"), *type = arg_str(args, "settype");
	Dataset *set;
	int t;

	if (!name) {
		msg(answer, "setname is not a string");
		return NULL;
	}
	if (!type) {
		msg(answer, "settype is not a string");
		return NULL;
	}
	if ((t = dataset_type_parse(type)) < 0) {
		msg(answer, "unknown settype");
		return NULL;
	}
	set = dataset_find(name, t);
	if (!set)
		msg(answer, "set not found or wrong type");
	return set;
}

/* The set and its decoded datavalue (buf has DATASET_STRING_MAX bytes). */
static Dataset *set_and_value(json_t *args, json_t *answer, uint8_t *buf, uint32_t *len)
{
	Dataset *set = set_of(args, answer);
	const char *v;

	if (!set)
		return NULL;
	v = arg_str(args, "datavalue");
	if (!v) {
		msg(answer, "datavalue is not string");
		return NULL;
	}
	if (dataset_value_parse(dataset_set_type(set), v, buf, len) != 0) {
		msg(answer, "failed to parse data");
		return NULL;
	}
	return set;
}

/* What add, remove and lookup do with the set and the decoded value: the
 * command's return (0 or -1), its message set. */
typedef int (*value_op)(Dataset *set, const uint8_t *v, uint32_t len, json_t *answer);

/* The frame the value commands share: the value decoded into a scratch
 * buffer (DATASET_STRING_MAX bytes: too large for a socket thread's
 * stack), then op. */
static int with_value(json_t *args, json_t *answer, value_op op)
{
	uint8_t *buf = malloc(DATASET_STRING_MAX);
	uint32_t len;
	Dataset *set;
	int r = -1;

	if (!buf) {
		msg(answer, "out of memory");
		return -1;
	}
	set = set_and_value(args, answer, buf, &len);
	if (set)
		r = op(set, buf, len, answer);
	free(buf);
	return r;
}

static int op_add(Dataset *set, const uint8_t *v, uint32_t len, json_t *answer)
{
	int r = dataset_add(set, v, len, 0);

	msg(answer, r == 1 ? "data added" : r == 0 ? "data already in set" : "failed to add data");
	return r < 0 ? -1 : 0;
}

/* Suricata answers OK for a value that was not there */
static int op_remove(Dataset *set, const uint8_t *v, uint32_t len, json_t *answer)
{
	msg(answer, dataset_remove(set, v, len) == 1 ? "data removed" : "data not in set");
	return 0;
}

static int op_lookup(Dataset *set, const uint8_t *v, uint32_t len, json_t *answer)
{
	int found = dataset_lookup(set, v, len, NULL) != 0;

	msg(answer, found ? "item found in set" : "item not found in set");
	return found ? 0 : -1;
}

int cmd_dataset_add(UnixSocket *u, json_t *args, json_t *answer)
{
	(void)u;
	return with_value(args, answer, op_add);
}

/* json is only checked: sets here carry no enrichment data */
int cmd_dataset_add_json(UnixSocket *u, json_t *args, json_t *answer)
{
	json_t *j = json_object_get(args, "datajson");

	(void)u;
	if (!json_is_string(j) && !json_is_object(j)) {
		msg(answer, "datajson is not string");
		return -1;
	}
	return with_value(args, answer, op_add);
}

int cmd_dataset_remove(UnixSocket *u, json_t *args, json_t *answer)
{
	(void)u;
	return with_value(args, answer, op_remove);
}

int cmd_dataset_lookup(UnixSocket *u, json_t *args, json_t *answer)
{
	(void)u;
	return with_value(args, answer, op_lookup);
}

int cmd_dataset_clear(UnixSocket *u, json_t *args, json_t *answer)
{
	Dataset *set = set_of(args, answer);

	(void)u;
	if (!set)
		return -1;
	dataset_clear(set);
	msg(answer, "dataset cleared");
	return 0;
}

int cmd_dataset_dump(UnixSocket *u, json_t *args, json_t *answer)
{
	(void)u;
	(void)args;
	if (datasets_save() != 0) {
		msg(answer, "failed to dump datasets (see suricata.log)");
		return -1;
	}
	msg(answer, "datasets dump done");
	return 0;
}
