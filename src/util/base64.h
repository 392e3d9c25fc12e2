/* The base64 alphabet (RFC 4648, section 4), for the decoders that need
 * their own loop: MIME's streaming one (app-layer/mime-decode.c, whitespace
 * skipped, a quantum carried across calls) and the from_base64 transform
 * (detect/transform.c, Suricata's modes). */
#ifndef UTIL_BASE64_H
#define UTIL_BASE64_H

#include <stdint.h>

/* The 6-bit value of c, or -1 when c is not in the alphabet ('=' neither). */
static inline int base64_char_value(uint8_t c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

#endif
