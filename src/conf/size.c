/* Size strings as suricata.yaml writes them: "64mb", "1gb", "32 KB", "1500",
 * "1.5mb", and the IEC spelling Suricata 8's own yaml uses ("32 MiB",
 * "16 KiB"). Units are 1024-based, as Suricata's are: kb and KiB alike. */
#include "conf/conf.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* At most this many fraction digits are honoured; more precision than a
 * billionth of a gigabyte is below a byte anyway. */
#define SIZE_FRAC_DIGITS_MAX 9

static const struct {
	const char *name;
	uint64_t mult;
} size_units[] = {
	{ "b", 1 },
	{ "kb", 1024ULL },
	{ "mb", 1024ULL * 1024 },
	{ "gb", 1024ULL * 1024 * 1024 },
	{ "kib", 1024ULL },
	{ "mib", 1024ULL * 1024 },
	{ "gib", 1024ULL * 1024 * 1024 },
};

static const char *skip_space(const char *s)
{
	while (*s && isspace((unsigned char)*s))
		s++;
	return s;
}

/* Reads the unit (possibly none) and what follows it; only trailing blanks
 * may follow. */
static int parse_unit(const char *s, uint64_t *mult)
{
	const char *end;
	size_t len;

	s = skip_space(s);
	end = s;
	while (isalpha((unsigned char)*end))
		end++;
	len = (size_t)(end - s);
	if (*skip_space(end) != '\0')
		return -1;
	if (len == 0) {
		*mult = 1;
		return 0;
	}
	for (size_t i = 0; i < sizeof(size_units) / sizeof(size_units[0]); i++) {
		if (strlen(size_units[i].name) == len &&
		    strncasecmp(size_units[i].name, s, len) == 0) {
			*mult = size_units[i].mult;
			return 0;
		}
	}
	return -1;
}

int parse_size(const char *s, uint64_t *out)
{
	uint64_t whole = 0, frac = 0, frac_div = 1, mult, res;
	int ndigits = 0, nfrac = 0;

	if (!s || !out)
		return -1;
	s = skip_space(s);
	/* Signs are refused: a negative size is an error, not a huge number. */
	for (; isdigit((unsigned char)*s); s++, ndigits++) {
		unsigned d = (unsigned)(*s - '0');

		if (whole > (UINT64_MAX - d) / 10)
			return -1;
		whole = whole * 10 + d;
	}
	if (ndigits == 0)
		return -1;
	if (*s == '.') {
		s++;
		for (; isdigit((unsigned char)*s); s++, nfrac++) {
			if (nfrac >= SIZE_FRAC_DIGITS_MAX)
				continue;
			frac = frac * 10 + (uint64_t)(*s - '0');
			frac_div *= 10;
		}
		if (nfrac == 0)
			return -1;
	}
	if (parse_unit(s, &mult) < 0)
		return -1;
	if (whole > UINT64_MAX / mult)
		return -1;
	res = whole * mult;
	/* frac < 1e9 and mult <= 2^30: the product fits in 64 bits. Partial
	 * bytes are dropped, as a "1.5" byte buffer cannot exist. */
	frac = frac * mult / frac_div;
	if (res > UINT64_MAX - frac)
		return -1;
	*out = res + frac;
	return 0;
}
