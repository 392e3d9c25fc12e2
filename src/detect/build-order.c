/* The engine's rule order and the variable names' ids. Rules are
 * inspected, and alert, in Suricata's order (key_cmp below); a rule's
 * number (DetectSig, "num") is its place in that order. Flowbit, flowint
 * and hostbit names become small ids here, once, so that the packet path
 * indexes arrays instead of comparing strings. */
#include "detect/build.h"

#include <stdlib.h>
#include <string.h>

/* Suricata's order: action (action-order: pass, drop, reject, alert by
 * default), flowbits (setters,
 * set+read, not used, readers), flowint likewise, priority, then load order. */
typedef struct SortKey {
	Signature *s;
	int fw, action, fb, fi, prio, idx;
} SortKey;

static int action_rank(const DetectConfig *cfg, enum sig_action a)
{
	static const DetectConfig dflt = { .action_rank = { 0, 1, 2, 3 } };

	if (!cfg->action_order_set)
		cfg = &dflt;
	switch (a) {
	case ACT_PASS: return cfg->action_rank[DETECT_ORDER_PASS];
	case ACT_DROP: return cfg->action_rank[DETECT_ORDER_DROP];
	case ACT_REJECT: case ACT_REJECTSRC: case ACT_REJECTDST: case ACT_REJECTBOTH:
		return cfg->action_rank[DETECT_ORDER_REJECT];
	default: return cfg->action_rank[DETECT_ORDER_ALERT];
	}
}

static int var_kw(int have, int kw)
{
	/* hostbits order like flowbits */
	return have == kw || (kw == KW_FLOWBITS && have == KW_HOSTBITS);
}

static int var_rank(const Signature *s, int kw)
{
	int set = 0, read = 0;

	for (int i = 0; i < s->lists[SM_LIST_POSTMATCH].n; i++)
		if (var_kw(s->lists[SM_LIST_POSTMATCH].m[i].kw, kw))
			set = 1;
	for (int i = 0; i < s->lists[SM_LIST_MATCH].n; i++)
		if (var_kw(s->lists[SM_LIST_MATCH].m[i].kw, kw))
			read = 1;
	if (set && !read)
		return 0;
	if (set && read)
		return 1;
	if (read)
		return 3;
	return 2;
}

static int key_cmp(const void *a, const void *b)
{
	const SortKey *x = a, *y = b;

	/* firewall rules after the threat-detection ones, in file order
	 * (Suricata 8 evaluates them as they appear): the engine's nsigs
	 * counts the TD rules only, the firewall's tables point past them */
	if (x->fw != y->fw)
		return x->fw - y->fw;
	if (x->fw)
		return x->idx - y->idx;
	if (x->action != y->action)
		return x->action - y->action;
	if (x->fb != y->fb)
		return x->fb - y->fb;
	if (x->fi != y->fi)
		return x->fi - y->fi;
	if (x->prio != y->prio)
		return x->prio - y->prio;
	return x->idx - y->idx;
}

/* ---- names -> ids ---- */

/* The id of a flowbit, flowint or hostbit name: its index in names, which
 * grows by one for a name not seen before. -1: out of memory. */
static int name_id(char ***names, int *n, const char *name)
{
	char **v;

	for (int i = 0; i < *n; i++)
		if (!strcmp((*names)[i], name))
			return i;
	v = realloc(*names, (*n + 1) * sizeof(*v));
	if (!v)
		return -1;
	*names = v;
	v[*n] = strdup(name);
	if (!v[*n])
		return -1;
	return (*n)++;
}

static int resolve_vars(DetectEngine *de, Signature *s)
{
	for (int l = SM_LIST_MATCH; l <= SM_LIST_POSTMATCH; l++) {
		SigMatchList *ml = &s->lists[l];

		for (int i = 0; i < ml->n; i++) {
			if (ml->m[i].kw == KW_FLOWBITS || ml->m[i].kw == KW_HOSTBITS) {
				DetectFlowbits *fb = ml->m[i].ctx;
				int host = ml->m[i].kw == KW_HOSTBITS;

				if (!fb->ids) {
					fb->ids = calloc(fb->n ? fb->n : 1, sizeof(int));
					if (!fb->ids)
						return -1;
				}
				for (int k = 0; k < fb->n; k++)
					if ((fb->ids[k] = host ?
					     name_id(&de->hb_names, &de->nhb, fb->names[k]) :
					     name_id(&de->fb_names, &de->nfb, fb->names[k])) < 0)
						return -1;
			} else if (ml->m[i].kw == KW_FLOWINT) {
				DetectFlowint *fi = ml->m[i].ctx;

				fi->id = name_id(&de->fi_names, &de->nfi, fi->name);
				fi->var_id = fi->value_var ?
					name_id(&de->fi_names, &de->nfi, fi->value_var) : 0;
				if (fi->id < 0 || fi->var_id < 0)
					return -1;
			}
		}
	}
	/* the flowints a lua script registered, in whichever list it sits (a
	 * sticky buffer's, the payload's, the match list) */
	for (int l = 0; l < SM_LIST_MAX; l++)
		for (int i = 0; i < s->lists[l].n; i++) {
			const SigMatch *m = &s->lists[l].m[i];
			const char *names[16];
			int n = m->kw == KW_LUA || m->kw == KW_LUA_TX ? lua_sig_flowints(m, names, 16) : 0;

			for (int k = 0; k < n; k++)
				if (name_id(&de->fi_names, &de->nfi, names[k]) < 0)
					return -1;
		}
	return 0;
}

/* A reload's engine starts from the names of the one it replaces, so that
 * each flowbit, flowint and hostbit keeps its id and the flows' variables
 * their meaning (as Suricata's variable names outlive a reload). Names no
 * rule uses any more keep their id: a few bytes per flow at most. */
static int names_copy(char ***to, int *nto, char *const *from, int nfrom)
{
	for (int i = 0; i < nfrom; i++)
		if (name_id(to, nto, from[i]) != i)
			return -1;
	return 0;
}

int build_names_inherit(DetectEngine *de, const DetectEngine *prev)
{
	if (names_copy(&de->fb_names, &de->nfb, prev->fb_names, prev->nfb) != 0 ||
	    names_copy(&de->fi_names, &de->nfi, prev->fi_names, prev->nfi) != 0 ||
	    names_copy(&de->hb_names, &de->nhb, prev->hb_names, prev->nhb) != 0)
		return -1;
	return 0;
}

/* The names are resolved in load order (a name's id does not depend on the
 * rule order), then the rules sorted. */
int build_order(DetectEngine *de, SigTable *t)
{
	int n = t->nsigs;
	SortKey *keys = calloc(n ? n : 1, sizeof(*keys));

	if (!keys)
		return -1;
	for (int i = 0; i < n; i++) {
		Signature *s = t->sigs[i];

		keys[i] = (SortKey){ s, !!(s->flags & SIG_FLAG_FIREWALL),
				     action_rank(&de->cfg, s->action), var_rank(s, KW_FLOWBITS),
				     var_rank(s, KW_FLOWINT), s->priority, i };
		if (resolve_vars(de, s) != 0) {
			free(keys);
			return -1;
		}
	}
	qsort(keys, n, sizeof(*keys), key_cmp);
	for (int i = 0; i < n; i++)
		de->sigs[i].s = keys[i].s;
	free(keys);
	return 0;
}

static void names_free(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

void build_names_free(DetectEngine *de)
{
	/* the flowbit id arrays are ours (engine-owned in the parser's struct) */
	for (int i = 0; de->t && i < de->t->nsigs; i++) {
		Signature *s = de->t->sigs[i];

		for (int l = SM_LIST_MATCH; l <= SM_LIST_POSTMATCH; l++)
			for (int k = 0; k < s->lists[l].n; k++)
				if (s->lists[l].m[k].kw == KW_FLOWBITS ||
				    s->lists[l].m[k].kw == KW_HOSTBITS) {
					DetectFlowbits *fb = s->lists[l].m[k].ctx;

					free(fb->ids);
					fb->ids = NULL;
				}
	}
	names_free(de->fb_names, de->nfb);
	names_free(de->fi_names, de->nfi);
	names_free(de->hb_names, de->nhb);
}
