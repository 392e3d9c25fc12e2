#include "util/strnum.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

static const char *skip_blanks(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

int str_to_i64(const char *s, int base, int64_t *out)
{
	char *end;
	long long v;

	s = skip_blanks(s);
	if (!*s)
		return -1;
	errno = 0;
	v = strtoll(s, &end, base);
	if (errno || end == s || *skip_blanks(end))
		return -1;
	*out = v;
	return 0;
}

int str_to_u64(const char *s, int base, uint64_t *out)
{
	char *end;
	unsigned long long v;

	s = skip_blanks(s);
	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno || end == s || *skip_blanks(end))
		return -1;
	*out = v;
	return 0;
}
