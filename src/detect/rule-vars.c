/* rule-vars.h: the variable lookup and bracket handling the address and
 * port parsers each had a copy of, with the same messages; and the
 * start-up check of every variable (rule_vars_check, detect-parse.h). */
#include "detect/rule-vars.h"
#include "detect/detect-int.h"
#include "conf/conf.h"

#include <stdio.h>
#include <string.h>

static const struct {
	const char *section;   /* where a variable of this kind lives */
	const char *noun;      /* "unknown <noun> variable" */
	const char *what;      /* "is <other's what>, not <what>" */
} kinds[] = {
	[RULE_VAR_ADDRESS] = { "vars.address-groups", "address", "an address group" },
	[RULE_VAR_PORT] = { "vars.port-groups", "port", "a port group" },
};

const char *rule_var_value(const char *el, enum rule_var_kind kind, int depth, char *err,
			   size_t errlen)
{
	enum rule_var_kind other = kind == RULE_VAR_PORT ? RULE_VAR_ADDRESS : RULE_VAR_PORT;
	char path[256];
	const char *val;

	if (depth >= RULE_VAR_MAX_DEPTH) {
		snprintf(err, errlen, "variable %s: too deeply nested (loop?)", el);
		return NULL;
	}
	snprintf(path, sizeof(path), "%s.%s", kinds[kind].section, el + 1);
	val = conf_get(path);
	if (val)
		return val;
	snprintf(path, sizeof(path), "%s.%s", kinds[other].section, el + 1);
	if (conf_get(path))
		snprintf(err, errlen, "variable %s is %s, not %s", el, kinds[other].what,
			 kinds[kind].what);
	else
		snprintf(err, errlen, "unknown %s variable %s", kinds[kind].noun, el);
	return NULL;
}

char *rule_list_unbracket(char *s, const char *orig, char *err, size_t errlen)
{
	size_t l;

	if (s[0] != '[')
		return s;
	l = strlen(s);
	if (l < 2 || s[l - 1] != ']') {
		snprintf(err, errlen, "unbalanced brackets in \"%s\"", orig);
		return NULL;
	}
	s[l - 1] = '\0';
	return s + 1;
}

/* One kind's section: each variable parsed as a rule would see it. The
 * first bad one is the error; 0 when all parse. */
static int vars_check_kind(enum rule_var_kind kind, char *err, size_t errlen)
{
	const char *noun = kinds[kind].noun;
	ConfNode *sec = conf_get_node(kinds[kind].section);
	char why[512];

	for (ConfNode *v = sec ? sec->child : NULL; v; v = v->next) {
		int bad;

		v->used = 1;
		if (!v->val) {
			/* an unquoted [a, b] is a YAML list, not the string the
			 * rule parser reads: Suricata names the quoting */
			snprintf(err, errlen, "%s var \"%s\" probably has a sequence (something in "
				 "brackets) value set without any quotes. Please quote it using "
				 "\"..\"", noun, v->name);
			return -1;
		}
		why[0] = '\0';
		if (kind == RULE_VAR_ADDRESS) {
			AddrSet a;

			bad = addrset_parse(v->val, &a, why, sizeof(why)) != 0;
			if (!bad)
				addrset_free(&a);
		} else {
			PortSet p;

			bad = portset_parse(v->val, &p, why, sizeof(why)) != 0;
			if (!bad)
				portset_free(&p);
		}
		if (bad) {
			snprintf(err, errlen, "failed to parse %s var \"%s\" with value \"%s\". "
				 "Please check its syntax (%s)", noun, v->name, v->val, why);
			return -1;
		}
	}
	return 0;
}

int rule_vars_check(const char *conf_file, char *err, size_t errlen)
{
	char why[768];

	if (vars_check_kind(RULE_VAR_ADDRESS, why, sizeof(why)) != 0 ||
	    vars_check_kind(RULE_VAR_PORT, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "%s: %s", conf_file ? conf_file : "configuration", why);
		return -1;
	}
	return 0;
}
