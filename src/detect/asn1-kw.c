/* asn1, as Suricata 8 documents it (rules/payload-keywords, asn1):
 *
 *   asn1:<check>[, <check>]...[, absolute_offset N | relative_offset N];
 *   checks: bitstring_overflow, double_overflow, oversize_length N
 *
 * The buffer is decoded as BER from the offset (util/ber.h: at most
 * ASN1_MAX_FRAMES elements, nested or not) and the keyword matches when
 * any element fails any of the checks asked (they are ORed):
 *   - oversize_length N: an element's definite length is above N;
 *   - bitstring_overflow: a primitive universal BIT STRING whose
 *     unused-bits octet says more than 7;
 *   - double_overflow: a primitive universal REAL over 256 bytes in the
 *     decimal form (first octet's top bits 00), the overflow the check is
 *     named after.
 * The checks read element headers (and a REAL's or BIT STRING's first
 * content byte), so an element whose content the buffer cuts short is still
 * judged by what it claims: a hostile length in a truncated packet is what
 * oversize_length is for. Decoding stops at the first malformed header. */
#include "detect/detect-int.h"
#include "detect/inspect.h"
#include "detect/asn1-kw.h"
#include "util/ber.h"

#include <stdlib.h>
#include <string.h>

/* ---- match ---- */

static int check_elem(const BerElem *e, void *arg)
{
	const DetectAsn1 *a = arg;

	if ((a->flags & ASN1_OVERSIZE_LENGTH) && !e->indefinite && e->len > a->oversize_length)
		return 1;
	if (e->cls != BER_CLASS_UNIVERSAL || e->constructed)
		return 0;
	if ((a->flags & ASN1_BITSTRING_OVERFLOW) && e->tag == BER_TAG_BIT_STRING && e->len > 0 &&
	    e->avail > 0 && e->content[0] > 7)
		return 1;
	if ((a->flags & ASN1_DOUBLE_OVERFLOW) && e->tag == BER_TAG_REAL && e->len > 256 &&
	    e->avail > 0 && (e->content[0] & 0xc0) == 0)
		return 1;
	return 0;
}

int asn1_match(const DetectAsn1 *a, const uint8_t *buf, uint32_t len, uint32_t prev)
{
	int64_t start = prev;

	if (a->flags & ASN1_ABSOLUTE_OFFSET)
		start = a->offset;
	else if (a->flags & ASN1_RELATIVE_OFFSET)
		start = (int64_t)prev + a->offset;
	if (start < 0 || start >= (int64_t)len)
		return 0;
	return ber_walk(buf + start, len - (uint32_t)start, ASN1_MAX_FRAMES, check_elem,
			(void *)a) == BER_STOPPED;
}

/* ---- setup ---- */

/* "name" or "name N" (blanks between), N signed within [min, max]. */
static int opt_number(SigParseState *st, const char *opt, const char *name, int64_t min,
		      int64_t max, int64_t *out)
{
	const char *v = opt + strlen(name);

	if (*v != ' ' && *v != '\t')
		return sig_error(st, "asn1: %s needs a number", name);
	if (parse_i64(v, out) || *out < min || *out > max)
		return sig_error(st, "asn1: invalid %s \"%s\" (%lld to %lld)", name, str_trim((char *)v),
				 (long long)min, (long long)max);
	return 0;
}

static int opt_is(const char *opt, const char *name)
{
	size_t n = strlen(name);

	return strncmp(opt, name, n) == 0 && (opt[n] == '\0' || opt[n] == ' ' || opt[n] == '\t');
}

static int kw_asn1(SigParseState *st, const char *arg, const Keyword *kw)
{
	char buf[256], *parts[8];
	DetectAsn1 *a;
	int n;
	int64_t v;

	(void)kw;
	if (strlen(arg) >= sizeof(buf))
		return sig_error(st, "asn1: options too long");
	strcpy(buf, arg);
	n = split_commas(buf, parts, 8);
	if (n < 1 || n > 7)
		return sig_error(st, "invalid asn1 \"%s\"", arg);
	a = calloc(1, sizeof(*a));
	if (!a)
		return sig_error(st, "out of memory");
	for (int i = 0; i < n; i++) {
		const char *o = parts[i];
		int rc = 0;

		if (opt_is(o, "bitstring_overflow") && !o[18]) {
			a->flags |= ASN1_BITSTRING_OVERFLOW;
		} else if (opt_is(o, "double_overflow") && !o[15]) {
			a->flags |= ASN1_DOUBLE_OVERFLOW;
		} else if (opt_is(o, "oversize_length")) {
			rc = opt_number(st, o, "oversize_length", 0, UINT32_MAX, &v);
			a->flags |= ASN1_OVERSIZE_LENGTH;
			a->oversize_length = (uint32_t)v;
		} else if (opt_is(o, "absolute_offset") || opt_is(o, "relative_offset")) {
			int rel = o[0] == 'r';

			if (a->flags & (ASN1_ABSOLUTE_OFFSET | ASN1_RELATIVE_OFFSET))
				rc = sig_error(st, "asn1: one of absolute_offset and relative_offset, once");
			else
				rc = opt_number(st, o, rel ? "relative_offset" : "absolute_offset",
						rel ? -65535 : 0, 65535, &v);
			a->flags |= rel ? ASN1_RELATIVE_OFFSET : ASN1_ABSOLUTE_OFFSET;
			a->offset = (int32_t)v;
		} else {
			rc = sig_error(st, "asn1: unknown option \"%s\"", o);
		}
		if (rc) {
			free(a);
			return -1;
		}
	}
	if (!(a->flags & (ASN1_BITSTRING_OVERFLOW | ASN1_DOUBLE_OVERFLOW | ASN1_OVERSIZE_LENGTH))) {
		free(a);
		return sig_error(st, "asn1: no check (bitstring_overflow, double_overflow, "
				     "oversize_length N)");
	}
	/* a payload keyword: the buffer in force, after what came before */
	return sm_append(st, sig_cur_list(st), KW_ASN1, a) < 0 ? -1 : 0;
}

static int asn1_step(DetectThread *dt, const Signature *s, const SigMatchList *ml, int idx,
		     const InspectBuffer *b, uint32_t prev)
{
	if (!asn1_match(ml->m[idx].ctx, b->data, b->len, prev))
		return 0;
	return inspect_next(dt, s, ml, idx + 1, b, prev);
}

/* without absolute_offset it starts where the previous match ended */
static int asn1_relative(const SigMatch *m)
{
	return !(((const DetectAsn1 *)m->ctx)->flags & ASN1_ABSOLUTE_OFFSET);
}

const Keyword asn1_keywords[] = {
	{ .name = "asn1", .id = KW_ASN1, .setup = kw_asn1, .flags = NEED | SQ, .buf = -1,
	  .desc = "decode the payload as ASN.1 (BER) and check it", .step = asn1_step,
	  .relative = asn1_relative },
	{ .name = NULL }
};
