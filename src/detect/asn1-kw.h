/* The asn1 payload keyword (asn1-kw.c): what the rule asks and the check
 * the inspection engine runs at its place in the buffer's keyword list. */
#ifndef DETECT_ASN1_KW_H
#define DETECT_ASN1_KW_H

#include <stdint.h>

#define ASN1_BITSTRING_OVERFLOW 0x1
#define ASN1_DOUBLE_OVERFLOW    0x2
#define ASN1_OVERSIZE_LENGTH    0x4
#define ASN1_ABSOLUTE_OFFSET    0x8
#define ASN1_RELATIVE_OFFSET    0x10

/* Elements decoded at most per evaluation (Suricata's default max frames). */
#define ASN1_MAX_FRAMES 30

typedef struct DetectAsn1 {
	uint32_t flags;             /* ASN1_* */
	uint32_t oversize_length;   /* oversize_length N: a length above N */
	int32_t offset;             /* absolute_offset 0..65535, relative_offset -65535..65535 */
} DetectAsn1;

/* Whether buf[0, len) decoded from the keyword's start (absolute, or
 * relative to prev, the end of the previous match; prev itself without an
 * offset option) has an element that fails one of the checks asked. */
int asn1_match(const DetectAsn1 *a, const uint8_t *buf, uint32_t len, uint32_t prev);

#endif
