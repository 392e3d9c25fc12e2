/* Integers as text: whole-string parsing for configuration and rule values
 * (optional surrounding blanks, nothing else after the number, no
 * overflow), and the decimal digits of the numbers records print. */
#ifndef UTIL_STRNUM_H
#define UTIL_STRNUM_H

#include <stddef.h>
#include <stdint.h>

/* base as strtoll: 10, or 0 to accept 0x.. and 0.. prefixes. 0, or -1. */
int str_to_i64(const char *s, int base, int64_t *out);
/* Same, unsigned: a sign is rejected rather than wrapped. */
int str_to_u64(const char *s, int base, uint64_t *out);

/* The value of one hexadecimal digit (either case), or -1: the one
 * helper of every decoder of hex text (content, transforms, %HH, =HH,
 * chunk sizes, UUIDs, dataset values). */
static inline int hex_digit(int c)
{
	unsigned u = (unsigned char)c;

	if (u - '0' < 10)
		return (int)(u - '0');
	u |= 0x20;
	return u - 'a' < 6 ? (int)(u - 'a' + 10) : -1;
}

/* v's decimal digits at buf (room for 10; no NUL), their count: the
 * numbers records print, without a printf. */
static inline size_t u32_digits(uint32_t v, char *buf)
{
	char tmp[10], *q = tmp + sizeof(tmp);
	size_t n;

	do {
		*--q = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	n = (size_t)(tmp + sizeof(tmp) - q);
	for (size_t i = 0; i < n; i++)
		buf[i] = q[i];
	return n;
}

#endif
