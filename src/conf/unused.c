/* The settings nobody read. A Suricata 8 suricata.yaml carries sections for
 * protocols, outputs and features this engine does not have; they load (an
 * operator changes nothing), but each one Suricata would act on is named on
 * a notice line, so that nothing is ignored silently. "Read" is what the
 * subsystems looked up (ConfNode.used, set by the lookups in conf.c). */
#include "conf/conf.h"
#include "util/log.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Top-level sections Suricata itself only reads in another mode: other
 * capture methods (it reads af-packet only with --af-packet, and so on),
 * profiling (only in --enable-profiling builds), engine-analysis (only with
 * --engine-analysis), daemon-directory (only with -D). vars are read by the
 * rules that name them, as in Suricata; suricata-version is informational. */
static const char *const other_mode[] = {
	"af-packet", "af-xdp", "dpdk", "pcap", "netmap", "pfring", "napatech",
	"nflog", "nfq", "ipfw", "windivert", "profiling", "engine-analysis",
	"daemon-directory", "vars", "suricata-version", NULL
};

/* Settings no subsystem reads because this engine always behaves as the
 * value given here says (value NULL: any value; tuning of Suricata's own
 * internals that changes no alert, record or counter). Another value is
 * named like any unread setting. */
static int is_false(const char *v);

static const struct {
	const char *path;
	const char *value;
} behaves_as[] = {
	{ "autofp-scheduler", "hash" },          /* flows spread by their hash */
	{ "host-mode", "auto" },                 /* sniffer-only in IDS, router in IPS */
	{ "logging.outputs.console.enabled", "yes" },
	{ "legacy.uricontent", "enabled" },      /* uricontent is a keyword here */
	{ "livedev.use-for-tracking", "true" },
	{ "spm-algo", "auto" },                  /* one single-pattern matcher, same matches */
	{ "detect.profile", NULL },              /* rule grouping: our own, same alerts */
	{ "detect.custom-values.toclient-groups", NULL },
	{ "detect.custom-values.toserver-groups", NULL },
	{ "detect.sgh-mpm-context", NULL },
	{ "detect.prefilter.default", NULL },
	{ "detect.profiling.grouping.dump-to-disk", "false" },
	{ "detect.profiling.grouping.include-rules", "false" },
	{ "detect.profiling.grouping.include-mpm-stats", "false" },
	{ "defrag.hash-size", NULL },            /* table sizing: memcap bounds it */
	{ "defrag.prealloc", NULL },
	{ "host.prealloc", NULL },               /* host entries are made as needed */
	{ "luajit.states", NULL },               /* LuaJIT's state pool: Lua 5.4 states are per thread */
	{ "detect.inspection-recursion-limit", "3000" }, /* DETECT_RECURSION_LIMIT, fixed */
	{ NULL, NULL }
};

static int behaves_as_given(const char *path, const char *val)
{
	for (unsigned i = 0; behaves_as[i].path; i++) {
		if (strcmp(behaves_as[i].path, path) != 0)
			continue;
		if (!behaves_as[i].value)
			return 1;
		if (strcasecmp(behaves_as[i].value, val) == 0)
			return 1;
		/* yes/true/on and no/false/off are one value */
		if (is_false(behaves_as[i].value) && is_false(val))
			return 1;
		if ((strcasecmp(behaves_as[i].value, "true") == 0 ||
		     strcasecmp(behaves_as[i].value, "yes") == 0) &&
		    (strcasecmp(val, "yes") == 0 || strcasecmp(val, "true") == 0 ||
		     strcasecmp(val, "on") == 0 || strcmp(val, "1") == 0))
			return 1;
		return 0;
	}
	return 0;
}

/* Only read once a capture is set up: not under -T. */
static const char *const capture_only[] = { "pcap-file", "capture", NULL };

static int in_list(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(name, *list) == 0)
			return 1;
	return 0;
}

static int is_false(const char *v)
{
	return v && (strcasecmp(v, "no") == 0 || strcasecmp(v, "false") == 0 ||
		     strcasecmp(v, "off") == 0 || strcmp(v, "0") == 0);
}

/* `enabled: no` switches a section off: Suricata does not act on the rest
 * of it either. */
static int switched_off(const ConfNode *n)
{
	for (const ConfNode *c = n->child; c; c = c->next)
		if (strcmp(c->name, "enabled") == 0 && c->val)
			return is_false(c->val);
	return 0;
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* The path as an operator writes it: a list item that is a one-key map
 * (`- eve-log:`) is named by its key, not by its index. */
static void display_path(const ConfNode *n, char *out, size_t outlen)
{
	const ConfNode *chain[32];
	int depth = 0;
	size_t used = 0;

	for (const ConfNode *p = n; p && p->parent && depth < 32; p = p->parent)
		chain[depth++] = p;
	out[0] = '\0';
	for (int i = depth - 1; i >= 0; i--) {
		const ConfNode *c = chain[i];
		int n_written;

		if (c->parent->is_seq && all_digits(c->name) && c->child && !c->child->next &&
		    !c->is_seq && !c->val)
			continue;
		n_written = snprintf(out + used, outlen - used, "%s%s", used ? "." : "", c->name);
		if (n_written < 0 || (size_t)n_written >= outlen - used)
			return;
		used += (size_t)n_written;
	}
}

struct report {
	int level;                  /* of the per-section lines */
	char group[160];            /* the section of the line being built */
	char line[1024];
	size_t len;
	unsigned total;
};

static void flush(struct report *r)
{
	if (r->len)
		log_msg((enum log_level)r->level, "conf: %s: %s: not used by this engine, ignored",
			r->group, r->line);
	r->len = 0;
	r->line[0] = '\0';
}

/* Groups by the first three names of the path (app-layer.protocols.rfb,
 * outputs.eve-log.types, stream.reassembly.urgent): one line each. item: a
 * list item's value, named after the path (it may hold dots itself). */
static void add(struct report *r, const char *path, const char *item)
{
	char group[160];
	const char *p = path, *rest;
	int dots = 0;

	while (*p && dots < 3) {
		if (*p == '.')
			dots++;
		if (dots < 3)
			p++;
	}
	if (!*p && !item) {
		/* a short path: its section is everything before the last name */
		const char *last = strrchr(path, '.');

		p = last ? last : path;
	}
	snprintf(group, sizeof(group), "%.*s", (int)(p - path), path);
	rest = *p == '.' ? p + 1 : p;
	if (!group[0]) {
		snprintf(group, sizeof(group), "%s", path);
		rest = "";
	}
	if (strcmp(group, r->group) != 0) {
		flush(r);
		snprintf(r->group, sizeof(r->group), "%s", group);
	}
	if (*rest || item) {
		int n = snprintf(r->line + r->len, sizeof(r->line) - r->len, "%s%s%s%s",
				 r->len ? ", " : "", rest, *rest && item ? "." : "",
				 item ? item : "");

		if (n > 0 && (size_t)n < sizeof(r->line) - r->len)
			r->len += (size_t)n;
	} else if (!r->len) {
		snprintf(r->line, sizeof(r->line), "(set)");
		r->len = strlen(r->line);
	}
	r->total++;
}

static void walk(struct report *r, const ConfNode *n)
{
	char path[512];

	if (!n->child) {
		if (n->used > 0)
			return;
		if (n->val && n->parent && n->parent->is_seq) {
			/* a list item is named by its value: types.websocket */
			display_path(n->parent, path, sizeof(path));
			add(r, path, n->val);
		} else if (n->val) {
			display_path(n, path, sizeof(path));
			if (!behaves_as_given(path, n->val))
				add(r, path, NULL);
		} else if (n->parent && n->parent->parent && n->parent->parent->is_seq) {
			/* an empty value is no setting (conf.h), but a list entry
			 * with nothing under it (`- mqtt:`) still asks for mqtt */
			display_path(n, path, sizeof(path));
			add(r, path, NULL);
		}
		return;
	}
	if (switched_off(n))
		return;
	/* Suricata reads cpu-affinity only with set-cpu-affinity on */
	if (strcmp(n->name, "cpu-affinity") == 0 && n->parent && n->parent->parent &&
	    !n->parent->parent->parent && strcmp(n->parent->name, "threading") == 0) {
		const char *on = conf_get("threading.set-cpu-affinity");

		if (!on || is_false(on))
			return;
	}
	for (const ConfNode *c = n->child; c; c = c->next)
		walk(r, c);
}

unsigned conf_report_unused(int test_mode)
{
	struct report r = { .level = test_mode ? LOG_LVL_NOTICE : LOG_LVL_INFO,
			    .group = "", .line = "", .len = 0, .total = 0 };
	int skip_capture = test_mode;
	const ConfNode *root = conf_root();

	if (!root)
		return 0;
	for (const ConfNode *top = root->child; top; top = top->next) {
		if (in_list(top->name, other_mode))
			continue;
		if (skip_capture && in_list(top->name, capture_only))
			continue;
		walk(&r, top);
	}
	flush(&r);
	if (r.total)
		log_notice("conf: %u settings Suricata would act on are not used by this engine "
			   "(%s)", r.total, test_mode ? "named above" : "-T or -v names them");
	return r.total;
}

void conf_mark_used(const char *path)
{
	ConfNode *n = conf_get_node(path);    /* the lookup marks it */

	(void)n;
}
