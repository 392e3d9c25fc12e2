/* dataset and datarep: the sticky buffer in force (after its transforms)
 * looked up in, added to or removed from a named set (datasets/dataset.h),
 * as Suricata 8's rules/datasets page has them:
 *
 *   dataset:<isset|isnotset|set|unset>,<name>[, type <t>, load <file>,
 *           save <file>, state <file>, memcap <size>, hashsize <n>, format csv]
 *   datarep:<name>,<op>,<value>[, load <file>, type <t>, memcap, hashsize]
 *
 * The keyword applies to the buffer it follows: it is a step of that
 * buffer's chain, so `http.uri; to_md5; dataset:isset,x;` looks the md5 of
 * the uri up. A set is the same object for every rule naming it (and for
 * the socket); the first declaration gives its files. */
#include "detect/detect-int.h"
#include "detect/inspect.h"
#include "datasets/dataset.h"
#include "conf/conf.h"

#include <stdlib.h>
#include <string.h>

enum { DS_ISSET, DS_ISNOTSET, DS_SET, DS_UNSET, DS_REP };

typedef struct DetectDataset {
	Dataset *set;
	int cmd;
	DetectUint rep;           /* datarep's comparison */
} DetectDataset;

#define DATASET_ARG_MAX 4096
#define DATASET_OPTS_MAX 16

/* The options after the name, "key value" each. 0 with spec filled (the
 * files resolved), or -1 with sig_error. */
static int parse_options(SigParseState *st, const char *kwn, char **opt, int n, DatasetSpec *spec,
			 char *load, char *save, size_t pathlen)
{
	const char *load_name = NULL, *save_name = NULL, *state_name = NULL;

	for (int i = 0; i < n; i++) {
		char *o = str_trim(opt[i]), *v = o + strcspn(o, " \t");

		if (*v)
			*v++ = 0;
		v = str_trim(v);
		if (strcmp(o, "remove_key") == 0)
			return sig_unsupported(st, "%s: json enrichment is not supported", kwn);
		if (!*v)
			return sig_error(st, "%s: option \"%s\" needs a value", kwn, o);
		if (strcmp(o, "type") == 0) {
			if ((spec->type = dataset_type_parse(v)) < 0)
				return sig_error(st, "%s: bad type %s", kwn, v);
		} else if (strcmp(o, "load") == 0) {
			load_name = v;
		} else if (strcmp(o, "save") == 0) {
			save_name = v;
		} else if (strcmp(o, "state") == 0) {
			state_name = v;
		} else if (strcmp(o, "memcap") == 0) {
			if (parse_size(v, &spec->memcap) != 0 || spec->memcap == 0)
				return sig_error(st, "%s: bad memcap %s", kwn, v);
		} else if (strcmp(o, "hashsize") == 0) {
			uint64_t h;

			if (parse_u64(v, &h) != 0 || h == 0 || h > DATASET_HASHSIZE_MAX_ONE)
				return sig_error(st, "%s: bad hashsize %s (1 to %u)", kwn, v,
						 DATASET_HASHSIZE_MAX_ONE);
			spec->hashsize = (uint32_t)h;
		} else if (strcmp(o, "format") == 0) {
			if (strcmp(v, "csv") != 0) {
				if (strcmp(v, "json") && strcmp(v, "jsonline") && strcmp(v, "ndjson"))
					return sig_error(st, "%s: bad format %s", kwn, v);
				return sig_unsupported(st, "%s: format %s is not supported", kwn, v);
			}
		} else if (!strcmp(o, "enrichment_key") || !strcmp(o, "value_key") ||
			   !strcmp(o, "array_key") || !strcmp(o, "context_key")) {
			return sig_unsupported(st, "%s: json enrichment is not supported", kwn);
		} else {
			return sig_error(st, "%s: unknown option %s", kwn, o);
		}
	}
	if (state_name && (load_name || save_name))
		return sig_error(st, "%s: 'load' and 'state' or 'save' and 'state' cannot be mixed",
				 kwn);
	if (load_name) {
		dataset_rule_load_path(load_name, st->ctx ? st->ctx->rule_file : NULL, load, pathlen);
		spec->load = load;
	}
	if (save_name || state_name) {
		char err[512];

		if (dataset_rule_save_path(save_name ? save_name : state_name, save, pathlen, err,
					   sizeof(err)) != 0)
			return sig_error(st, "%s", err);
		spec->save = save;
		if (state_name) {
			/* state: loaded when it exists, written at exit */
			FILE *f = fopen(save, "r");

			if (f) {
				fclose(f);
				spec->load = save;
			}
		}
	}
	return 0;
}

/* The set the rule names: an existing one (yaml, an earlier rule) or a new
 * one, which needs its type. */
static int bind_set(SigParseState *st, const char *kwn, DatasetSpec *spec, Dataset **out)
{
	char err[512];
	Dataset *set = dataset_find(spec->name, -1);

	if (!set && spec->type < 0)
		return sig_error(st, "%s: type must be set for new dataset %s", kwn, spec->name);
	if (set && spec->type < 0)
		spec->type = dataset_set_type(set);
	if (dataset_get_or_create(spec, out, err, sizeof(err)) != 0)
		return sig_error(st, "%s", err);
	return 0;
}

static int append(SigParseState *st, const char *kwn, int kw, DetectDataset *d)
{
	if (st->cur_buf < 0) {
		free(d);
		return sig_error(st, "%s: datasets are only supported for sticky buffers", kwn);
	}
	if (sm_append(st, st->cur_buf, kw, d) < 0) {
		free(d);
		return sig_error(st, "out of memory");
	}
	return 0;
}

static int kw_dataset(SigParseState *st, const char *arg, const Keyword *kw)
{
	static const char *const cmds[] = { "isset", "isnotset", "set", "unset" };
	char buf[DATASET_ARG_MAX], load[4096], save[4096];
	char *p[DATASET_OPTS_MAX + 2];
	DatasetSpec spec = { .type = -1 };
	DetectDataset *d;
	int n, cmd = -1;

	(void)kw;
	n = sig_split_arg(st, "dataset", arg, buf, sizeof(buf), p, DATASET_OPTS_MAX + 2);
	if (n < 0)
		return -1;
	if (n < 2)
		return sig_error(st, "dataset: needs a command and a name (\"%s\")", arg);
	for (int i = 0; i < 4; i++)
		if (strcmp(str_trim(p[0]), cmds[i]) == 0)
			cmd = i;
	if (cmd < 0)
		return sig_error(st, "dataset: bad command %s (isset, isnotset, set, unset)", p[0]);
	spec.name = str_trim(p[1]);
	if (parse_options(st, "dataset", p + 2, n - 2, &spec, load, save, sizeof(load)) != 0)
		return -1;
	d = calloc(1, sizeof(*d));
	if (!d)
		return sig_error(st, "out of memory");
	d->cmd = cmd;
	if (bind_set(st, "dataset", &spec, &d->set) != 0) {
		free(d);
		return -1;
	}
	return append(st, "dataset", KW_DATASET, d);
}

static int kw_datarep(SigParseState *st, const char *arg, const Keyword *kw)
{
	char buf[DATASET_ARG_MAX], load[4096], save[4096], cmp[64];
	char *p[DATASET_OPTS_MAX + 3];
	DatasetSpec spec = { .type = -1, .rep = 1 };
	DetectDataset *d;
	const char *op;
	int n;

	(void)kw;
	n = sig_split_arg(st, "datarep", arg, buf, sizeof(buf), p, DATASET_OPTS_MAX + 3);
	if (n < 0)
		return -1;
	if (n < 3)
		return sig_error(st, "datarep: needs a name, an operator and a value (\"%s\")", arg);
	spec.name = str_trim(p[0]);
	op = str_trim(p[1]);
	if (strcmp(op, "==") == 0)
		op = "";
	else if (strcmp(op, "!=") == 0)
		op = "!";
	else if (strcmp(op, ">") && strcmp(op, "<") && strcmp(op, ">=") && strcmp(op, "<="))
		return sig_error(st, "datarep: bad operator %s (>, <, >=, <=, ==, !=)", op);
	snprintf(cmp, sizeof(cmp), "%s%.40s", op, str_trim(p[2]));
	d = calloc(1, sizeof(*d));
	if (!d)
		return sig_error(st, "out of memory");
	d->cmd = DS_REP;
	if (parse_uint_cmp(cmp, UINT16_MAX, &d->rep) != 0) {
		free(d);
		return sig_error(st, "datarep: bad value %s (0 to 65535)", p[2]);
	}
	if (parse_options(st, "datarep", p + 3, n - 3, &spec, load, save, sizeof(load)) != 0 ||
	    bind_set(st, "datarep", &spec, &d->set) != 0) {
		free(d);
		return -1;
	}
	return append(st, "datarep", KW_DATAREP, d);
}

/* Suricata: an empty buffer neither is nor is not in a set; `set` and
 * `unset` match when they changed the set (the first sighting of a value
 * alerts, the next ones do not). */
static int dataset_step(DetectThread *dt, const Signature *s, const SigMatchList *ml, int idx,
			const InspectBuffer *b, uint32_t prev)
{
	const DetectDataset *d = ml->m[idx].ctx;
	uint16_t rep;
	int r;

	if (!b->data || b->len == 0)
		return 0;
	switch (d->cmd) {
	case DS_ISSET:
		r = dataset_lookup(d->set, b->data, b->len, NULL);
		break;
	case DS_ISNOTSET:
		r = !dataset_lookup(d->set, b->data, b->len, NULL);
		break;
	case DS_SET:
		r = dataset_add(d->set, b->data, b->len, 0) == 1;
		break;
	case DS_UNSET:
		r = dataset_remove(d->set, b->data, b->len) == 1;
		break;
	default:
		r = dataset_lookup(d->set, b->data, b->len, &rep) &&
		    detect_uint_match(&d->rep, rep);
		break;
	}
	if (!r)
		return 0;
	return inspect_next(dt, s, ml, idx + 1, b, prev);
}

const Keyword dataset_keywords[] = {
	{ .name = "dataset", .id = KW_DATASET, .setup = kw_dataset, .flags = NEED | SQ,
	  .buf = -1, .desc = "match the sticky buffer against a dataset", .step = dataset_step },
	{ .name = "datarep", .id = KW_DATAREP, .setup = kw_datarep, .flags = NEED | SQ,
	  .buf = -1, .desc = "match the sticky buffer's reputation in a dataset",
	  .step = dataset_step },
	{ .name = NULL },
};
