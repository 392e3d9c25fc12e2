/* entropy:[bytes <n>,][offset <n>,]value <cmp> (Suricata 8): the Shannon
 * entropy, in bits per byte (0 to 8), of the inspected buffer, or of
 * <bytes> bytes of it from <offset>, compared with a decimal number:
 * "value >7.2", "value <=1", "value =0", "value !=8", "value 2-6" (an
 * exclusive range, as the integer keywords'), "value !2-6".
 *
 * A step of its buffer's chain (detect/inspect.h): no allocation, one pass
 * over the bytes and one log2 per distinct byte value. */
#include "detect/detect-int.h"
#include "detect/inspect.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum ent_op { ENT_EQ, ENT_NE, ENT_LT, ENT_LE, ENT_GT, ENT_GE, ENT_RANGE, ENT_NOT_RANGE };

typedef struct DetectEntropy {
	uint32_t bytes;           /* 0: to the buffer's end */
	int32_t offset;
	enum ent_op op;
	double a, b;
} DetectEntropy;

static int parse_double(const char *s, double *out)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return -1;
	*out = strtod(s, &end);
	while (isspace((unsigned char)*end))
		end++;
	return *end || *out < 0 ? -1 : 0;
}

static int parse_value(char *v, DetectEntropy *e)
{
	static const struct { const char *op; enum ent_op e; } ops[] = {
		{ "<=", ENT_LE }, { ">=", ENT_GE }, { "!=", ENT_NE }, { "<", ENT_LT },
		{ ">", ENT_GT }, { "=", ENT_EQ },
	};
	char *dash;
	int neg = 0;

	v = str_trim(v);
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		size_t n = strlen(ops[i].op);

		if (!strncmp(v, ops[i].op, n)) {
			e->op = ops[i].e;
			return parse_double(v + n, &e->a);
		}
	}
	if (*v == '!') {
		neg = 1;
		v = str_trim(v + 1);
	}
	if ((dash = strchr(v + 1, '-')) != NULL) {
		*dash = '\0';
		if (parse_double(v, &e->a) || parse_double(dash + 1, &e->b) || e->a >= e->b)
			return -1;
		e->op = neg ? ENT_NOT_RANGE : ENT_RANGE;
		return 0;
	}
	e->op = neg ? ENT_NE : ENT_EQ;
	return parse_double(v, &e->a);
}

static int kw_entropy(SigParseState *st, const char *arg, const Keyword *kw)
{
	char buf[256], *parts[4];
	int n = sig_split_arg(st, "entropy", arg, buf, sizeof(buf), parts, 4), have_value = 0;
	DetectEntropy *e;

	(void)kw;
	if (n < 0)
		return -1;
	if (n > 3)
		return sig_error(st, "invalid entropy \"%s\"", arg);
	e = calloc(1, sizeof(*e));
	if (!e)
		return sig_error(st, "out of memory");
	for (int i = 0; i < n; i++) {
		char *o = parts[i];
		int64_t v;

		if (!strncmp(o, "bytes", 5) && isspace((unsigned char)o[5])) {
			if (parse_i64(o + 6, &v) || v < 1 || v > UINT16_MAX)
				goto bad;
			e->bytes = (uint32_t)v;
		} else if (!strncmp(o, "offset", 6) && isspace((unsigned char)o[6])) {
			if (parse_i64(o + 7, &v) || v < 0 || v > UINT16_MAX)
				goto bad;
			e->offset = (int32_t)v;
		} else if (!strncmp(o, "value", 5) && isspace((unsigned char)o[5])) {
			if (parse_value(o + 6, e))
				goto bad;
			have_value = 1;
		} else {
			goto bad;
		}
	}
	if (!have_value)
		goto bad;
	return sm_append(st, sig_cur_list(st), KW_ENTROPY, e) < 0 ? -1 : 0;
bad:
	free(e);
	return sig_error(st, "invalid entropy \"%s\": expected [bytes N,][offset N,]value <cmp>", arg);
}

double entropy_of(const uint8_t *d, uint32_t len)
{
	uint32_t count[256] = { 0 };
	double h = 0;

	if (!len)
		return 0;
	for (uint32_t i = 0; i < len; i++)
		count[d[i]]++;
	for (int c = 0; c < 256; c++) {
		double p;

		if (!count[c])
			continue;
		p = (double)count[c] / len;
		h -= p * log2(p);
	}
	return h;
}

static int entropy_step(DetectThread *dt, const Signature *s, const SigMatchList *ml, int idx,
			const InspectBuffer *b, uint32_t prev)
{
	const DetectEntropy *e = ml->m[idx].ctx;
	uint32_t off = (uint32_t)e->offset, len;
	double h;
	int ok = 0;

	if (off > b->len)
		return 0;
	len = b->len - off;
	if (e->bytes && e->bytes < len)
		len = e->bytes;
	h = entropy_of(b->data + off, len);
	switch (e->op) {
	case ENT_EQ: ok = h == e->a; break;
	case ENT_NE: ok = h != e->a; break;
	case ENT_LT: ok = h < e->a; break;
	case ENT_LE: ok = h <= e->a; break;
	case ENT_GT: ok = h > e->a; break;
	case ENT_GE: ok = h >= e->a; break;
	case ENT_RANGE: ok = h > e->a && h < e->b; break;
	case ENT_NOT_RANGE: ok = !(h > e->a && h < e->b); break;
	}
	return ok ? inspect_next(dt, s, ml, idx + 1, b, prev) : 0;
}

const Keyword entropy_keywords[] = {
	{ .name = "entropy", .id = KW_ENTROPY, .setup = kw_entropy, .flags = NEED | SQ, .buf = -1,
	  .desc = "Shannon entropy of the buffer (bits per byte)", .step = entropy_step },
	{ .name = NULL }
};
