/* Whole-string integer parsing for configuration and rule values: optional
 * surrounding blanks, nothing else after the number, no overflow. */
#ifndef UTIL_STRNUM_H
#define UTIL_STRNUM_H

#include <stdint.h>

/* base as strtoll: 10, or 0 to accept 0x.. and 0.. prefixes. 0, or -1. */
int str_to_i64(const char *s, int base, int64_t *out);
/* Same, unsigned: a sign is rejected rather than wrapped. */
int str_to_u64(const char *s, int base, uint64_t *out);

#endif
