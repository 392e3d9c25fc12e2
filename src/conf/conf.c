/* The configuration tree. suricata.yaml is parsed with libyaml's event API into
 * ConfNodes; a later key replaces an earlier scalar or sequence and merges into
 * an earlier map, which is how Suricata layers `include:` files and repeated
 * keys. A file is parsed into a detached tree first and merged into the global
 * one only when it parsed cleanly, so a broken file leaves the config as it was.
 *
 * Start-up code only: nothing here is on the packet path. After start the
 * tree changes in one place only, a rule reload re-reading the detection
 * keys (conf_reload_keys), under conf_lock(), which the other threads that
 * read it after start hold too. */
#include "util/strnum.h"
#include "conf/conf.h"
#include "util/log.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <pthread.h>
#include <sys/stat.h>
#include <yaml.h>

/* Includes nest at most this deep; deeper means a loop. */
#define CONF_INCLUDE_DEPTH_MAX 16
/* YAML nesting deeper than this is not a config file (and would blow the stack). */
#define CONF_NEST_DEPTH_MAX 128
#define CONF_PATH_MAX 4096

static ConfNode *root;
/* What conf_reload_keys replaced: kept until conf_deinit, as start-up
 * readers may hold pointers into it (a threshold-file path, a var). */
static ConfNode *retired;
static pthread_mutex_t tree_lock = PTHREAD_MUTEX_INITIALIZER;

/* --- nodes --- */

static ConfNode *node_new(const char *name)
{
	ConfNode *n = calloc(1, sizeof(*n));

	if (!n)
		return NULL;
	n->name = strdup(name ? name : "");
	if (!n->name) {
		free(n);
		return NULL;
	}
	return n;
}

static void node_free(ConfNode *n)
{
	while (n) {
		ConfNode *next = n->next;

		node_free(n->child);
		free(n->buckets);
		free(n->name);
		free(n->val);
		free(n);
		n = next;
	}
}

/* --- the child index: a chained hash of child names, built once a node has
 * CONF_INDEX_MIN children and doubled as it grows (a real suricata.yaml has
 * small maps; a generated one may have 200k keys in one). --- */
#define CONF_INDEX_MIN 16

static uint32_t name_hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static void index_insert(ConfNode *parent, ConfNode *c)
{
	uint32_t b = name_hash(c->name, strlen(c->name)) & (parent->nbuckets - 1);

	c->hnext = parent->buckets[b];
	parent->buckets[b] = c;
}

/* Rebuilds the index with room for twice the children; without memory the
 * node keeps its old index (or none) and lookups stay correct, only slower. */
static void index_grow(ConfNode *parent)
{
	uint32_t nb = parent->nbuckets ? parent->nbuckets * 2 : CONF_INDEX_MIN * 2;
	ConfNode **nbk = calloc(nb, sizeof(*nbk));

	if (!nbk)
		return;
	free(parent->buckets);
	parent->buckets = nbk;
	parent->nbuckets = nb;
	for (ConfNode *c = parent->child; c; c = c->next)
		index_insert(parent, c);
}

static void node_append(ConfNode *parent, ConfNode *child)
{
	if (parent->last_child)
		parent->last_child->next = child;
	else
		parent->child = child;
	parent->last_child = child;
	child->parent = parent;
	parent->nchildren++;
	if (parent->nchildren >= CONF_INDEX_MIN && parent->nchildren > parent->nbuckets)
		index_grow(parent);	/* inserts child too */
	else if (parent->buckets)
		index_insert(parent, child);
}

/* Empties a node (children, value, sequence flag) but keeps its name and its
 * place among its siblings, so an overridden key keeps the file's order. */
static void node_clear(ConfNode *n)
{
	node_free(n->child);
	n->child = NULL;
	n->last_child = NULL;
	free(n->buckets);
	n->buckets = NULL;
	n->nbuckets = 0;
	n->nchildren = 0;
	free(n->val);
	n->val = NULL;
	n->is_seq = 0;
}

static int node_set_val(ConfNode *n, const char *val)
{
	char *v = strdup(val);

	if (!v)
		return -1;
	node_clear(n);
	n->val = v;
	return 0;
}

/* A map, or an empty node that a map may still be merged into. */
static int node_is_map(const ConfNode *n)
{
	return !n->val && !n->is_seq;
}

static ConfNode *find_child_n(const ConfNode *n, const char *name, size_t len)
{
	if (n->buckets) {
		uint32_t b = name_hash(name, len) & (n->nbuckets - 1);

		for (ConfNode *c = n->buckets[b]; c; c = c->hnext) {
			if (strlen(c->name) == len && memcmp(c->name, name, len) == 0)
				return c;
		}
		return NULL;
	}
	for (ConfNode *c = n->child; c; c = c->next) {
		if (strlen(c->name) == len && memcmp(c->name, name, len) == 0)
			return c;
	}
	return NULL;
}

static ConfNode *find_child(const ConfNode *n, const char *name)
{
	return find_child_n(n, name, strlen(name));
}

static ConfNode *get_or_add_child(ConfNode *n, const char *name)
{
	ConfNode *c = find_child(n, name);

	if (c)
		return c;
	c = node_new(name);
	if (c)
		node_append(n, c);
	return c;
}

/* Copies src's content (not its name) into the emptied dst. */
static int node_copy_content(ConfNode *dst, const ConfNode *src)
{
	node_clear(dst);
	dst->is_seq = src->is_seq;
	if (src->val) {
		dst->val = strdup(src->val);
		if (!dst->val)
			return -1;
	}
	for (const ConfNode *sc = src->child; sc; sc = sc->next) {
		ConfNode *dc = node_new(sc->name);

		if (!dc)
			return -1;
		node_append(dst, dc);
		if (node_copy_content(dc, sc) < 0)
			return -1;
	}
	return 0;
}

/* Layers src over dst: maps merge key by key, anything else replaces. */
static int node_merge(ConfNode *dst, const ConfNode *src)
{
	if (!node_is_map(src) || !node_is_map(dst))
		return node_copy_content(dst, src);
	for (const ConfNode *sc = src->child; sc; sc = sc->next) {
		ConfNode *dc = get_or_add_child(dst, sc->name);

		if (!dc || node_merge(dc, sc) < 0)
			return -1;
	}
	return 0;
}

/* YAML's merge key: keys the map already has win over merged ones, and
 * merged values are taken whole, not merged deeply. */
static int node_add_missing(ConfNode *dst, const ConfNode *src)
{
	if (!node_is_map(src))
		return 0;
	for (const ConfNode *sc = src->child; sc; sc = sc->next) {
		ConfNode *dc;

		if (find_child(dst, sc->name))
			continue;
		dc = node_new(sc->name);
		if (!dc)
			return -1;
		node_append(dst, dc);
		if (node_copy_content(dc, sc) < 0)
			return -1;
	}
	return 0;
}

ConfNode *conf_root(void)
{
	if (!root)
		root = node_new("");
	return root;
}

void conf_deinit(void)
{
	node_free(root);
	root = NULL;
	node_free(retired);
	retired = NULL;
}

void conf_lock(void)
{
	pthread_mutex_lock(&tree_lock);
}

void conf_unlock(void)
{
	pthread_mutex_unlock(&tree_lock);
}

/* --- the YAML parser --- */

struct anchor {
	char *name;
	ConfNode *copy; /* snapshot taken when the anchored node was complete */
};

struct parse_ctx {
	yaml_parser_t parser;
	const char *file;           /* as named in messages */
	char dir[CONF_PATH_MAX];    /* base for relative includes */
	int include_depth;
	struct anchor *anchors;
	size_t n_anchors;
	char *err;
	size_t errlen;
	int failed;
	size_t alias_nodes;         /* nodes built by alias expansion so far */
	int saw_map;                /* a document held a mapping */
};

static void ctx_error(struct parse_ctx *ctx, const yaml_mark_t *mark,
		      const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Keeps the first error: later ones are consequences of it. */
static void ctx_error(struct parse_ctx *ctx, const yaml_mark_t *mark,
		      const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (ctx->failed)
		return;
	ctx->failed = 1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!ctx->err || ctx->errlen == 0)
		return;
	if (mark)
		snprintf(ctx->err, ctx->errlen, "%s:%zu:%zu: %s", ctx->file,
			 mark->line + 1, mark->column + 1, msg);
	else
		snprintf(ctx->err, ctx->errlen, "%s: %s", ctx->file, msg);
}

static int next_event(struct parse_ctx *ctx, yaml_event_t *ev)
{
	yaml_parser_t *p = &ctx->parser;

	if (yaml_parser_parse(p, ev))
		return 0;
	/* libyaml's marks are 0-based; editors and Suricata count from 1. */
	ctx_error(ctx, &p->problem_mark, "%s",
		  p->problem ? p->problem : "unknown YAML error");
	return -1;
}

static void ctx_free(struct parse_ctx *ctx)
{
	for (size_t i = 0; i < ctx->n_anchors; i++) {
		free(ctx->anchors[i].name);
		node_free(ctx->anchors[i].copy);
	}
	free(ctx->anchors);
	ctx->anchors = NULL;
	ctx->n_anchors = 0;
}

static int anchor_add(struct parse_ctx *ctx, const char *name, const ConfNode *n)
{
	struct anchor *a;
	ConfNode *copy = node_new("");

	if (!copy || node_copy_content(copy, n) < 0) {
		node_free(copy);
		return -1;
	}
	/* A redefined anchor shadows the earlier one, as YAML says. */
	for (size_t i = 0; i < ctx->n_anchors; i++) {
		if (strcmp(ctx->anchors[i].name, name) == 0) {
			node_free(ctx->anchors[i].copy);
			ctx->anchors[i].copy = copy;
			return 0;
		}
	}
	a = realloc(ctx->anchors, (ctx->n_anchors + 1) * sizeof(*a));
	if (!a) {
		node_free(copy);
		return -1;
	}
	ctx->anchors = a;
	a[ctx->n_anchors].name = strdup(name);
	if (!a[ctx->n_anchors].name) {
		node_free(copy);
		return -1;
	}
	a[ctx->n_anchors].copy = copy;
	ctx->n_anchors++;
	return 0;
}

static const ConfNode *anchor_find(struct parse_ctx *ctx, const char *name)
{
	for (size_t i = 0; i < ctx->n_anchors; i++) {
		if (strcmp(ctx->anchors[i].name, name) == 0)
			return ctx->anchors[i].copy;
	}
	return NULL;
}

static int parse_file_into(const char *path, const char *display, int depth,
			   ConfNode *target, char *err, size_t errlen);

static void path_dirname(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash) {
		snprintf(dir, len, ".");
		return;
	}
	if (slash == path) {
		snprintf(dir, len, "/");
		return;
	}
	snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/* Loads an included file into target. Relative names are relative to the
 * directory of the file that includes them, as in Suricata. */
static int include_file(struct parse_ctx *ctx, const yaml_mark_t *mark,
			const char *name, ConfNode *target)
{
	char path[CONF_PATH_MAX];
	int n;

	if (!name[0]) {
		ctx_error(ctx, mark, "include: empty file name");
		return -1;
	}
	if (ctx->include_depth + 1 > CONF_INCLUDE_DEPTH_MAX) {
		ctx_error(ctx, mark, "include '%s': includes nested too deep (a loop?)",
			  name);
		return -1;
	}
	if (name[0] == '/' || !ctx->dir[0])
		n = snprintf(path, sizeof(path), "%s", name);
	else
		n = snprintf(path, sizeof(path), "%s/%s", ctx->dir, name);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		ctx_error(ctx, mark, "include '%s': path too long", name);
		return -1;
	}
	if (parse_file_into(path, path, ctx->include_depth + 1, target,
			    ctx->err, ctx->errlen) < 0) {
		/* The included file wrote its own error (naming itself). */
		ctx->failed = 1;
		return -1;
	}
	return 0;
}

static int parse_node(struct parse_ctx *ctx, yaml_event_t *ev, ConfNode *target,
		      int nest);

/* `include: file` or `include: [a, b]` inside a map: the files are loaded
 * into that map at this point, so keys after the include override it. */
static int parse_include_value(struct parse_ctx *ctx, ConfNode *target)
{
	yaml_event_t ev;
	int rc = 0;

	if (next_event(ctx, &ev) < 0)
		return -1;
	if (ev.type == YAML_SCALAR_EVENT) {
		rc = include_file(ctx, &ev.start_mark,
				  (const char *)ev.data.scalar.value, target);
		yaml_event_delete(&ev);
		return rc;
	}
	if (ev.type != YAML_SEQUENCE_START_EVENT) {
		ctx_error(ctx, &ev.start_mark,
			  "include: expected a file name or a list of file names");
		yaml_event_delete(&ev);
		return -1;
	}
	yaml_event_delete(&ev);
	for (;;) {
		if (next_event(ctx, &ev) < 0)
			return -1;
		if (ev.type == YAML_SEQUENCE_END_EVENT) {
			yaml_event_delete(&ev);
			return 0;
		}
		if (ev.type != YAML_SCALAR_EVENT) {
			ctx_error(ctx, &ev.start_mark,
				  "include: expected a file name");
			yaml_event_delete(&ev);
			return -1;
		}
		rc = include_file(ctx, &ev.start_mark,
				  (const char *)ev.data.scalar.value, target);
		yaml_event_delete(&ev);
		if (rc < 0)
			return -1;
	}
}

/* The YAML merge key, `<<: *defaults` (or a list of aliases): the aliased
 * maps' keys are merged into this map. */
static int parse_merge_value(struct parse_ctx *ctx, ConfNode *target, int nest)
{
	ConfNode tmp = { 0 };
	yaml_event_t ev;
	int rc;

	if (next_event(ctx, &ev) < 0)
		return -1;
	tmp.name = "";
	rc = parse_node(ctx, &ev, &tmp, nest + 1);
	yaml_event_delete(&ev);
	if (rc == 0) {
		if (tmp.is_seq) {
			for (ConfNode *c = tmp.child; c && rc == 0; c = c->next)
				rc = node_add_missing(target, c);
		} else {
			rc = node_add_missing(target, &tmp);
		}
		if (rc < 0)
			ctx_error(ctx, NULL, "out of memory");
	}
	node_free(tmp.child);
	free(tmp.buckets);
	free(tmp.val);
	return rc;
}

static int parse_mapping(struct parse_ctx *ctx, ConfNode *target, int nest)
{
	yaml_event_t ev;

	/* A map replaces a scalar or a sequence and merges into a map. */
	if (!node_is_map(target))
		node_clear(target);
	for (;;) {
		ConfNode *child;
		const char *key;
		int rc;

		if (next_event(ctx, &ev) < 0)
			return -1;
		if (ev.type == YAML_MAPPING_END_EVENT) {
			yaml_event_delete(&ev);
			return 0;
		}
		if (ev.type != YAML_SCALAR_EVENT) {
			ctx_error(ctx, &ev.start_mark,
				  "mapping keys must be plain scalars");
			yaml_event_delete(&ev);
			return -1;
		}
		key = (const char *)ev.data.scalar.value;
		if (strcmp(key, "include") == 0) {
			yaml_event_delete(&ev);
			if (parse_include_value(ctx, target) < 0)
				return -1;
			continue;
		}
		if (strcmp(key, "<<") == 0 && ev.data.scalar.plain_implicit) {
			yaml_event_delete(&ev);
			if (parse_merge_value(ctx, target, nest) < 0)
				return -1;
			continue;
		}
		child = get_or_add_child(target, key);
		yaml_event_delete(&ev);
		if (!child) {
			ctx_error(ctx, NULL, "out of memory");
			return -1;
		}
		if (next_event(ctx, &ev) < 0)
			return -1;
		rc = parse_node(ctx, &ev, child, nest + 1);
		yaml_event_delete(&ev);
		if (rc < 0)
			return -1;
	}
}

static int parse_sequence(struct parse_ctx *ctx, ConfNode *target, int nest)
{
	yaml_event_t ev;
	unsigned idx = 0;

	/* A sequence replaces whatever was there: layering `rule-files:` item by
	 * item would leave stale items from the earlier file behind. */
	node_clear(target);
	target->is_seq = 1;
	for (;;) {
		ConfNode *item;
		char name[16];
		int rc;

		if (next_event(ctx, &ev) < 0)
			return -1;
		if (ev.type == YAML_SEQUENCE_END_EVENT) {
			yaml_event_delete(&ev);
			return 0;
		}
		snprintf(name, sizeof(name), "%u", idx++);
		item = node_new(name);
		if (!item) {
			yaml_event_delete(&ev);
			ctx_error(ctx, NULL, "out of memory");
			return -1;
		}
		node_append(target, item);
		rc = parse_node(ctx, &ev, item, nest + 1);
		yaml_event_delete(&ev);
		if (rc < 0)
			return -1;
	}
}

/* Empty, "~" and "null" plain scalars are YAML's null: the key exists but has
 * no value, so getters report it absent and the caller's default stands. */
static int scalar_is_null(const yaml_event_t *ev)
{
	const char *v = (const char *)ev->data.scalar.value;

	if (!ev->data.scalar.plain_implicit ||
	    ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return 0;
	return v[0] == '\0' || strcmp(v, "~") == 0 || strcmp(v, "null") == 0 ||
	       strcmp(v, "Null") == 0 || strcmp(v, "NULL") == 0;
}

static int parse_scalar(struct parse_ctx *ctx, yaml_event_t *ev, ConfNode *target)
{
	const char *tag = (const char *)ev->data.scalar.tag;
	const char *val = (const char *)ev->data.scalar.value;

	/* `key: !include file.yaml` loads the file as the value of key. */
	if (tag && strcmp(tag, "!include") == 0) {
		node_clear(target);
		return include_file(ctx, &ev->start_mark, val, target);
	}
	if (scalar_is_null(ev)) {
		node_clear(target);
		return 0;
	}
	if (node_set_val(target, val) < 0) {
		ctx_error(ctx, NULL, "out of memory");
		return -1;
	}
	return 0;
}

/* Nodes under n (n included), counting no further than limit + 1. */
static size_t node_count(const ConfNode *n, size_t limit)
{
	size_t k = 1;

	for (const ConfNode *c = n->child; c && k <= limit; c = c->next)
		k += node_count(c, limit - k);
	return k;
}

/* Each alias is a copy, so aliases of aliases grow exponentially: a 20 KB
 * "billion laughs" file would build 10^7 nodes. As libyaml's users do (a
 * budget on what aliases may expand to), the copies of one file are capped. */
static int parse_alias(struct parse_ctx *ctx, yaml_event_t *ev, ConfNode *target)
{
	const char *name = (const char *)ev->data.alias.anchor;
	const ConfNode *src = anchor_find(ctx, name);
	size_t left = CONF_ALIAS_NODES_MAX - ctx->alias_nodes, k;

	if (!src) {
		ctx_error(ctx, &ev->start_mark, "unknown alias '*%s'", name);
		return -1;
	}
	k = node_count(src, left);
	if (k > left) {
		ctx_error(ctx, &ev->start_mark, "too many nodes from aliases (over %d): "
			  "alias '*%s' not expanded", CONF_ALIAS_NODES_MAX, name);
		return -1;
	}
	ctx->alias_nodes += k;
	if (node_copy_content(target, src) < 0) {
		ctx_error(ctx, NULL, "out of memory");
		return -1;
	}
	return 0;
}

/* ev is the first event of a node; fills target from it. */
static int parse_node(struct parse_ctx *ctx, yaml_event_t *ev, ConfNode *target,
		      int nest)
{
	const yaml_char_t *anchor = NULL;
	int rc;

	if (nest > CONF_NEST_DEPTH_MAX) {
		ctx_error(ctx, &ev->start_mark, "nesting too deep");
		return -1;
	}
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		anchor = ev->data.scalar.anchor;
		rc = parse_scalar(ctx, ev, target);
		break;
	case YAML_MAPPING_START_EVENT:
		anchor = ev->data.mapping_start.anchor;
		rc = parse_mapping(ctx, target, nest);
		break;
	case YAML_SEQUENCE_START_EVENT:
		anchor = ev->data.sequence_start.anchor;
		rc = parse_sequence(ctx, target, nest);
		break;
	case YAML_ALIAS_EVENT:
		rc = parse_alias(ctx, ev, target);
		break;
	default:
		ctx_error(ctx, &ev->start_mark, "unexpected YAML event");
		return -1;
	}
	if (rc == 0 && anchor && anchor_add(ctx, (const char *)anchor, target) < 0) {
		ctx_error(ctx, NULL, "out of memory");
		return -1;
	}
	return rc;
}

/* Parses every document of the stream into target. A document must be a map
 * (or empty): a config file is a set of keys. */
static int parse_stream(struct parse_ctx *ctx, ConfNode *target)
{
	yaml_event_t ev;

	for (;;) {
		int rc = 0;

		if (next_event(ctx, &ev) < 0)
			return -1;
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			yaml_event_delete(&ev);
			return 0;
		case YAML_STREAM_START_EVENT:
		case YAML_DOCUMENT_START_EVENT:
		case YAML_DOCUMENT_END_EVENT:
			break;
		case YAML_MAPPING_START_EVENT:
			ctx->saw_map = 1;
			rc = parse_node(ctx, &ev, target, 0);
			break;
		case YAML_SCALAR_EVENT:
			if (scalar_is_null(&ev))
				break;
			/* fall through */
		default:
			ctx_error(ctx, &ev.start_mark,
				  "the top level of a configuration must be a mapping");
			rc = -1;
			break;
		}
		yaml_event_delete(&ev);
		if (rc < 0)
			return -1;
	}
}

static int parse_with_ctx(struct parse_ctx *ctx, ConfNode *target)
{
	int rc = parse_stream(ctx, target);

	ctx_free(ctx);
	yaml_parser_delete(&ctx->parser);
	return rc;
}

static int parse_file_into(const char *path, const char *display, int depth,
			   ConfNode *target, char *err, size_t errlen)
{
	struct parse_ctx ctx = { 0 };
	struct stat st;
	FILE *f;
	int rc;

	ctx.file = display;
	ctx.err = err;
	ctx.errlen = errlen;
	ctx.include_depth = depth;
	f = fopen(path, "rb");
	if (!f) {
		ctx_error(&ctx, NULL, "%s", strerror(errno));
		return -1;
	}
	/* fopen() opens a directory; libyaml would then say only "input error". */
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		ctx_error(&ctx, NULL, "%s", strerror(EISDIR));
		return -1;
	}
	path_dirname(path, ctx.dir, sizeof(ctx.dir));
	if (!yaml_parser_initialize(&ctx.parser)) {
		fclose(f);
		ctx_error(&ctx, NULL, "out of memory");
		return -1;
	}
	yaml_parser_set_input_file(&ctx.parser, f);
	rc = parse_with_ctx(&ctx, target);
	fclose(f);
	/* Suricata refuses a configuration without settings (an empty file, a
	 * wrong file named by -c); an included file may be empty. */
	if (rc == 0 && depth == 0 && !ctx.saw_map) {
		ctx_error(&ctx, NULL, "not a valid configuration file: it holds no settings "
			  "(a Suricata configuration begins with \"%%YAML 1.1\" and \"---\")");
		rc = -1;
	}
	return rc;
}

/* Parses into a detached tree, then layers it over the global one: a file
 * with an error changes nothing. */
static int merge_loaded(ConfNode *tmp, char *err, size_t errlen)
{
	ConfNode *r = conf_root();

	if (!r || node_merge(r, tmp) < 0) {
		if (err && errlen)
			snprintf(err, errlen, "out of memory");
		node_free(tmp);
		return -1;
	}
	node_free(tmp);
	return 0;
}

/* The file as a fresh tree of its own (owned by the caller), or NULL with
 * err set: what loading and reloading both start from. */
static ConfNode *parse_file_fresh(const char *path, char *err, size_t errlen)
{
	ConfNode *tmp = node_new("");

	if (err && errlen)
		err[0] = '\0';
	if (!tmp) {
		if (err && errlen)
			snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (parse_file_into(path, path, 0, tmp, err, errlen) < 0) {
		node_free(tmp);
		return NULL;
	}
	return tmp;
}

int conf_load_file(const char *path, char *err, size_t errlen)
{
	ConfNode *tmp = parse_file_fresh(path, err, errlen);

	return tmp ? merge_loaded(tmp, err, errlen) : -1;
}

int conf_load_string(const char *yaml, const char *name, char *err, size_t errlen)
{
	struct parse_ctx ctx = { 0 };
	ConfNode *tmp;

	if (err && errlen)
		err[0] = '\0';
	ctx.file = name ? name : "<string>";
	ctx.err = err;
	ctx.errlen = errlen;
	/* Includes from a string are relative to the working directory. */
	snprintf(ctx.dir, sizeof(ctx.dir), ".");
	tmp = node_new("");
	if (!tmp || !yaml_parser_initialize(&ctx.parser)) {
		node_free(tmp);
		ctx_error(&ctx, NULL, "out of memory");
		return -1;
	}
	yaml_parser_set_input_string(&ctx.parser, (const unsigned char *)yaml,
				     strlen(yaml));
	if (parse_with_ctx(&ctx, tmp) < 0) {
		node_free(tmp);
		return -1;
	}
	return merge_loaded(tmp, err, errlen);
}

/* Moves n's content onto the retired list, leaving n empty in place. */
static int node_retire(ConfNode *n)
{
	ConfNode *keep = node_new(n->name);

	if (!keep)
		return -1;
	keep->child = n->child;
	keep->last_child = n->last_child;
	keep->buckets = n->buckets;
	keep->nbuckets = n->nbuckets;
	keep->nchildren = n->nchildren;
	keep->val = n->val;
	keep->is_seq = n->is_seq;
	for (ConfNode *c = keep->child; c; c = c->next)
		c->parent = keep;
	n->child = n->last_child = NULL;
	n->buckets = NULL;
	n->nbuckets = n->nchildren = 0;
	n->val = NULL;
	n->is_seq = 0;
	keep->next = retired;
	retired = keep;
	return 0;
}

int conf_reload_keys(const char *path, const char *const *keys, char *err, size_t errlen)
{
	ConfNode *r = conf_root(), *tmp;

	if (!r) {
		if (err && errlen)
			snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (!(tmp = parse_file_fresh(path, err, errlen)))
		return -1;
	for (int i = 0; keys[i]; i++) {
		const ConfNode *nv = find_child(tmp, keys[i]);
		ConfNode *cur = find_child(r, keys[i]);

		if (!cur && !nv)
			continue;
		/* a key the file no longer has is emptied, not removed: readers
		 * see it absent (no value, no children) */
		if ((!cur && !(cur = get_or_add_child(r, keys[i]))) || node_retire(cur) != 0 ||
		    (nv && node_copy_content(cur, nv) != 0)) {
			node_free(tmp);
			if (err && errlen)
				snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	node_free(tmp);
	return 0;
}

/* --- lookups --- */

/* A lookup marks what it finds; a sequence's scalar items too, as readers
 * walk them (`rule-files`, `types`, host-os-policy's lists). */
static void mark_used(ConfNode *n)
{
	if (n->used >= 0)
		n->used = 1;
	if (n->is_seq)
		for (ConfNode *c = n->child; c; c = c->next)
			if (c->val && c->used >= 0)
				c->used = 1;
}

ConfNode *conf_node_lookup(const ConfNode *base, const char *relpath)
{
	const ConfNode *n = base ? base : root;
	const char *p = relpath;

	if (!n || !relpath)
		return NULL;
	while (*p) {
		const char *dot = strchr(p, '.');
		size_t len = dot ? (size_t)(dot - p) : strlen(p);

		n = find_child_n(n, p, len);
		if (!n)
			return NULL;
		if (!dot)
			break;
		p = dot + 1;
	}
	mark_used((ConfNode *)n);
	return (ConfNode *)n;
}

ConfNode *conf_get_node(const char *path)
{
	return conf_node_lookup(root, path);
}

const char *conf_node_get(const ConfNode *base, const char *relpath)
{
	const ConfNode *n = conf_node_lookup(base, relpath);

	return n ? n->val : NULL;
}

const char *conf_get(const char *path)
{
	return conf_node_get(root, path);
}

/* --- setting --- */

/* Paths are dot-separated keys; an empty key ("a..b", ".a", "a.") is a typo. */
static int path_valid(const char *path)
{
	size_t len;

	if (!path || !*path)
		return 0;
	len = strlen(path);
	if (path[0] == '.' || path[len - 1] == '.' || strstr(path, ".."))
		return 0;
	return 1;
}

int conf_set(const char *path, const char *value)
{
	ConfNode *n = conf_root();
	const char *p = path;
	char name[256];

	if (!n || !value || !path_valid(path))
		return -1;
	for (;;) {
		const char *dot = strchr(p, '.');
		size_t len = dot ? (size_t)(dot - p) : strlen(p);

		if (len >= sizeof(name))
			return -1;
		memcpy(name, p, len);
		name[len] = '\0';
		/* Setting a.b over a scalar a turns a into a map: --set wins. */
		if (n->val) {
			free(n->val);
			n->val = NULL;
		}
		n = get_or_add_child(n, name);
		if (!n)
			return -1;
		if (!dot)
			break;
		p = dot + 1;
	}
	return node_set_val(n, value);
}

static void trim_copy(char *dst, const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	memcpy(dst, s, len);
	dst[len] = '\0';
}

int conf_set_kv(const char *kv)
{
	const char *eq;
	char *key, *val;
	size_t klen, vlen;
	int rc;

	if (!kv)
		return -1;
	eq = strchr(kv, '=');
	if (!eq)
		return -1;
	klen = (size_t)(eq - kv);
	vlen = strlen(eq + 1);
	key = malloc(klen + 1);
	val = malloc(vlen + 1);
	if (!key || !val) {
		free(key);
		free(val);
		return -1;
	}
	/* Suricata trims blanks around both sides of --set. */
	trim_copy(key, kv, klen);
	trim_copy(val, eq + 1, vlen);
	rc = conf_set(key, val);
	free(key);
	free(val);
	return rc;
}

/* --- typed getters --- */

int conf_get_scalar(const char *path, const char **out)
{
	const ConfNode *n = conf_get_node(path);

	if (!n)
		return 0;
	if (n->val) {
		*out = n->val;
		return 1;
	}
	/* A map or a list where a value belongs is a mistake in the file: Suricata
	 * stops on it too, rather than run with the default silently. */
	if (n->is_seq || n->child) {
		log_error("conf: %s: expected a value, not a %s", path,
			  n->is_seq ? "list" : "map");
		return -1;
	}
	return 0;	/* null: absent */
}

int conf_get_enum(const char *path, const char *const *allowed, int *out)
{
	const char *v = NULL;
	char list[512];
	size_t used = 0;
	int r = conf_get_scalar(path, &v);

	if (r <= 0)
		return r;
	list[0] = '\0';
	for (int i = 0; allowed[i]; i++) {
		if (strcmp(v, allowed[i]) == 0) {
			*out = i;
			return 1;
		}
		if (used < sizeof(list))
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
						 i ? ", " : "", allowed[i]);
	}
	log_error("conf: %s: invalid value '%s' (use one of: %s)", path, v, list);
	return -1;
}

int conf_get_bool(const char *path, int *out)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };
	const char *v = NULL;
	int r = conf_get_scalar(path, &v);

	if (r <= 0)
		return r;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strcasecmp(v, yes[i]) == 0) {
			*out = 1;
			return 1;
		}
		if (strcasecmp(v, no[i]) == 0) {
			*out = 0;
			return 1;
		}
	}
	log_error("conf: %s: invalid boolean '%s' (use yes or no)", path, v);
	return -1;
}

static int parse_int64(const char *v, int64_t *out)
{
	return str_to_i64(v, 10, out);
}

int conf_get_int(const char *path, int64_t *out)
{
	const char *v = NULL;
	int r = conf_get_scalar(path, &v);
	int64_t x;

	if (r <= 0)
		return r;
	if (parse_int64(v, &x) < 0) {
		log_error("conf: %s: invalid integer '%s'", path, v);
		return -1;
	}
	*out = x;
	return 1;
}

int conf_get_size(const char *path, uint64_t *out)
{
	const char *v = NULL;
	int r = conf_get_scalar(path, &v);
	uint64_t x;

	if (r <= 0)
		return r;
	if (parse_size(v, &x) < 0) {
		log_error("conf: %s: invalid size '%s'", path, v);
		return -1;
	}
	*out = x;
	return 1;
}

int conf_get_time_us(const char *path, uint64_t *out)
{
	const char *v = NULL;
	int r = conf_get_scalar(path, &v);
	int64_t x;

	if (r <= 0)
		return r;
	if (parse_int64(v, &x) < 0 || x < 0) {
		log_error("conf: %s: invalid time '%s' (microseconds)", path, v);
		return -1;
	}
	*out = (uint64_t)x;
	return 1;
}

/* --- --dump-config --- */

static void dump_node(FILE *out, const ConfNode *n, char *path, size_t len,
		      size_t cap)
{
	for (const ConfNode *c = n->child; c; c = c->next) {
		size_t nl = strlen(c->name);
		size_t add = (len ? 1 : 0) + nl;

		if (len + add + 1 > cap)
			continue; /* absurdly deep; not worth a line */
		if (len)
			path[len] = '.';
		memcpy(path + len + (len ? 1 : 0), c->name, nl + 1);
		if (c->val)
			fprintf(out, "%s = %s\n", path, c->val);
		else if (n->is_seq && c->child && !c->is_seq)
			/* Suricata names a map inside a sequence by its first
			 * key: "outputs.0 = eve-log". */
			fprintf(out, "%s = %s\n", path, c->child->name);
		dump_node(out, c, path, len + add, cap);
		path[len] = '\0';
	}
}

void conf_dump(FILE *out)
{
	char path[CONF_PATH_MAX];

	if (!root)
		return;
	path[0] = '\0';
	dump_node(out, root, path, 0, sizeof(path));
}
