/* The parts address and port lists share (address.c, port.c): a "$NAME"
 * element looked up in vars.address-groups / vars.port-groups, and the
 * brackets around a group. */
#ifndef DETECT_RULE_VARS_H
#define DETECT_RULE_VARS_H

#include <stddef.h>

/* Variables name variables; deeper than this is a loop. */
#define RULE_VAR_MAX_DEPTH 32

enum rule_var_kind { RULE_VAR_ADDRESS, RULE_VAR_PORT };

/* The value of the variable el ("$HOME_NET") of that kind, met at depth;
 * NULL with err set when too deep, unknown, or a variable of the other
 * kind (said so, since that is the usual mistake). */
const char *rule_var_value(const char *el, enum rule_var_kind kind, int depth, char *err,
			   size_t errlen);

/* s (trimmed) without its enclosing "[...]", in place; NULL with err when
 * the brackets do not pair. orig is the list as written, for the error. */
char *rule_list_unbracket(char *s, const char *orig, char *err, size_t errlen);

#endif
