/* rule-vars.h: the variable lookup and bracket handling the address and
 * port parsers each had a copy of, with the same messages. */
#include "detect/rule-vars.h"
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
