/* byte_test, byte_jump, byte_extract, byte_math: read numbers out of the
 * inspected buffer. Arguments are comma separated; values and offsets may
 * name a variable set earlier by byte_extract/byte_math. */
#include "detect/detect-int.h"
#include "detect/inspect.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define MAXP 16
/* Offsets are Suricata's int32: one beyond any buffer loads and never
 * matches (8.0 accepts byte_test offset 214748364). */
#define OFF_MAX INT32_MAX

static int is_number(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	return isdigit((unsigned char)*s);
}

/* A number or a known variable; sets *is_var. */
static int num_or_var(SigParseState *st, const char *kwn, const char *what, const char *v,
		      int64_t min, int64_t max, int64_t *out, int *is_var)
{
	int64_t n;

	*is_var = 0;
	if (is_number(v)) {
		if (parse_i64(v, &n) || n < min || n > max)
			return sig_error(st, "%s: invalid %s \"%s\"", kwn, what, v);
		*out = n;
		return 0;
	}
	n = sig_var_find(st->s, v);
	if (n < 0)
		return sig_error(st, "%s: unknown variable \"%s\"", kwn, v);
	*out = n;
	*is_var = 1;
	return 0;
}

static int set_endian(SigParseState *st, DetectByte *b, const char *kwn, uint32_t f)
{
	if (b->flags & (BYTE_BIG | BYTE_LITTLE | BYTE_DCE))
		return sig_error(st, "%s: endianness given twice", kwn);
	b->flags |= f;
	return 0;
}

static int set_base(SigParseState *st, DetectByte *b, const char *kwn, const char *v)
{
	if (!strcmp(v, "hex"))
		b->base = BASE_HEX;
	else if (!strcmp(v, "dec"))
		b->base = BASE_DEC;
	else if (!strcmp(v, "oct"))
		b->base = BASE_OCT;
	else
		return sig_error(st, "%s: invalid string base \"%s\"", kwn, v);
	return 0;
}

/* Options common to the byte keywords; returns 1 if consumed, 0 if not
 * recognised, -1 on error. */
static int common_opt(SigParseState *st, DetectByte *b, const char *kwn, char **parts,
		      int n, int *i)
{
	char *o = parts[*i];
	uint64_t u;

	if (!strcmp(o, "relative")) {
		b->flags |= BYTE_RELATIVE;
	} else if (!strcmp(o, "big")) {
		return set_endian(st, b, kwn, BYTE_BIG) ? -1 : 1;
	} else if (!strcmp(o, "little")) {
		return set_endian(st, b, kwn, BYTE_LITTLE) ? -1 : 1;
	} else if (!strcmp(o, "dce")) {
		return set_endian(st, b, kwn, BYTE_DCE) ? -1 : 1;
	} else if (!strcmp(o, "string")) {
		b->flags |= BYTE_STRING;
		b->base = BASE_DEC;
		/* the base may follow as its own item */
		if (*i + 1 < n && (!strcmp(parts[*i + 1], "hex") || !strcmp(parts[*i + 1], "dec") ||
				   !strcmp(parts[*i + 1], "oct"))) {
			(*i)++;
			return set_base(st, b, kwn, parts[*i]) ? -1 : 1;
		}
	} else if (!strcmp(o, "hex") || !strcmp(o, "dec") || !strcmp(o, "oct")) {
		b->flags |= BYTE_STRING;
		return set_base(st, b, kwn, o) ? -1 : 1;
	} else if (!strncmp(o, "bitmask", 7) && isspace((unsigned char)o[7])) {
		if (parse_u64(o + 8, &u) || u == 0 || u > UINT32_MAX)
			return sig_error(st, "%s: invalid bitmask \"%s\"", kwn, o + 8), -1;
		b->bitmask = (uint32_t)u;
		b->flags |= BYTE_BITMASK;
	} else {
		return 0;
	}
	return 1;
}

static int check_nbytes(SigParseState *st, DetectByte *b, const char *kwn, int maxbin)
{
	int max = (b->flags & BYTE_STRING) ? 23 : maxbin;

	if (b->nbytes < 1 || b->nbytes > max)
		return sig_error(st, "%s: number of bytes must be 1..%d", kwn, max);
	if ((b->flags & BYTE_STRING) && (b->flags & BYTE_DCE))
		return sig_error(st, "%s: dce cannot be used with string", kwn);
	return 0;
}

static int split_args(SigParseState *st, const char *kwn, const char *arg, char *buf,
		      size_t buflen, char **parts)
{
	int n;

	if (strlen(arg) >= buflen)
		return sig_error(st, "%s: argument too long", kwn);
	strcpy(buf, arg);
	n = split_commas(buf, parts, MAXP);
	if (n > MAXP)
		return sig_error(st, "%s: too many arguments", kwn);
	for (int i = 0; i < n; i++)
		if (!*parts[i])
			return sig_error(st, "%s: empty argument", kwn);
	return n;
}

/* Where a byte keyword goes: sticky buffer; else, when relative, the buffer
 * of the previous inspecting keyword; else the payload. */
static int byte_append(SigParseState *st, DetectByte *b)
{
	int list = sig_cur_list(st);

	if ((b->flags & BYTE_RELATIVE) && st->cur_buf < 0 && st->last_inspect_list >= 0)
		list = st->last_inspect_list;
	if (sm_append(st, list, b->kind, b) < 0)
		return -1;
	st->last_inspect_list = list;
	return 0;
}

static DetectByte *byte_new(SigParseState *st, int kind)
{
	DetectByte *b = calloc(1, sizeof(*b));

	if (!b) {
		sig_error(st, "out of memory");
		return NULL;
	}
	b->kind = kind;
	b->base = BASE_DEC;
	b->var_idx = -1;
	b->multiplier = 1;
	return b;
}

/* byte_test:<nbytes>,[!]<op>,<value>,<offset>[,options] */
static int kw_byte_test(SigParseState *st, const char *arg, const Keyword *kw)
{
	char buf[512], *parts[MAXP], *op;
	int n = split_args(st, "byte_test", arg, buf, sizeof(buf), parts), var;
	int64_t v;
	DetectByte *b;

	if (n < 0)
		return -1;
	if (n < 4)
		return sig_error(st, "byte_test needs nbytes, operator, value and offset");
	b = byte_new(st, KW_BYTE_TEST);
	if (!b)
		return -1;
	/* 0 loads, as in Suricata (ET Open has such rules), and never matches:
	 * no bytes are read */
	if (num_or_var(st, "byte_test", "nbytes", parts[0], 0, 23, &v, &var))
		goto fail_msg;
	/* a byte_extract/byte_math variable: the engine reads its value */
	b->nbytes = (uint8_t)v;
	if (var)
		b->flags |= BYTE_NBYTES_VAR;
	op = parts[1];
	if (*op == '!') {
		b->flags |= BYTE_NEGATED;
		op = str_trim(op + 1);
	}
	if (strcmp(op, "<") && strcmp(op, ">") && strcmp(op, "=") && strcmp(op, "<=") &&
	    strcmp(op, ">=") && strcmp(op, "&") && strcmp(op, "^")) {
		if (!strcmp(op, "") && (b->flags & BYTE_NEGATED)) {
			strcpy(b->op, "=");   /* "!" alone means "not equal" */
		} else {
			free(b);
			return sig_error(st, "byte_test: invalid operator \"%s\"", parts[1]);
		}
	} else {
		strcpy(b->op, op);
	}
	if (num_or_var(st, "byte_test", "value", parts[2], 0, INT64_MAX, &v, &var))
		goto fail;
	b->value = (uint64_t)v;
	if (var)
		b->flags |= BYTE_VALUE_VAR;
	if (num_or_var(st, "byte_test", "offset", parts[3], -OFF_MAX, OFF_MAX, &v, &var))
		goto fail;
	b->offset = (int32_t)v;
	if (var)
		b->flags |= BYTE_OFFSET_VAR;
	for (int i = 4; i < n; i++) {
		int r = common_opt(st, b, "byte_test", parts, n, &i);

		if (r < 0)
			goto fail;
		if (r == 0) {
			sig_error(st, "byte_test: unknown option \"%s\"", parts[i]);
			goto fail;
		}
	}
	if (b->nbytes && !(b->flags & BYTE_NBYTES_VAR) && check_nbytes(st, b, "byte_test", 8))
		goto fail;
	return byte_append(st, b);
fail_msg:
	sig_error(st, "byte_test: invalid number of bytes \"%s\"", parts[0]);
fail:
	free(b);
	return -1;
}

/* byte_jump:<nbytes>,<offset>[,options] */
static int kw_byte_jump(SigParseState *st, const char *arg, const Keyword *kw)
{
	char buf[512], *parts[MAXP];
	int n = split_args(st, "byte_jump", arg, buf, sizeof(buf), parts), var;
	int64_t v;
	uint64_t u;
	DetectByte *b;

	if (n < 0)
		return -1;
	if (n < 2)
		return sig_error(st, "byte_jump needs nbytes and offset");
	b = byte_new(st, KW_BYTE_JUMP);
	if (!b)
		return -1;
	if (num_or_var(st, "byte_jump", "nbytes", parts[0], 0, 23, &v, &var)) {
		sig_error(st, "byte_jump: invalid number of bytes \"%s\"", parts[0]);
		goto fail;
	}
	b->nbytes = (uint8_t)v;
	if (var)
		b->flags |= BYTE_NBYTES_VAR;
	if (num_or_var(st, "byte_jump", "offset", parts[1], -OFF_MAX, OFF_MAX, &v, &var))
		goto fail;
	b->offset = (int32_t)v;
	if (var)
		b->flags |= BYTE_OFFSET_VAR;
	for (int i = 2; i < n; i++) {
		char *o = parts[i];
		int r = common_opt(st, b, "byte_jump", parts, n, &i);

		if (r < 0)
			goto fail;
		if (r)
			continue;
		if (!strcmp(o, "align")) {
			b->flags |= BYTE_ALIGN;
			b->align = 4;
		} else if (!strcmp(o, "from_beginning")) {
			b->flags |= BYTE_FROM_BEGIN;
		} else if (!strcmp(o, "from_end")) {
			b->flags |= BYTE_FROM_END;
		} else if (!strncmp(o, "multiplier", 10) && isspace((unsigned char)o[10])) {
			if (parse_u64(o + 11, &u) || u < 1 || u > 65535) {
				sig_error(st, "byte_jump: invalid multiplier \"%s\"", o + 11);
				goto fail;
			}
			b->multiplier = (uint32_t)u;
		} else if (!strncmp(o, "post_offset", 11) && isspace((unsigned char)o[11])) {
			if (parse_i64(o + 12, &v) || v < -65535 || v > 65535) {
				sig_error(st, "byte_jump: invalid post_offset \"%s\"", o + 12);
				goto fail;
			}
			b->post_offset = (int32_t)v;
		} else {
			sig_error(st, "byte_jump: unknown option \"%s\"", o);
			goto fail;
		}
	}
	if ((b->flags & BYTE_FROM_BEGIN) && (b->flags & BYTE_FROM_END)) {
		sig_error(st, "byte_jump: from_beginning and from_end exclude each other");
		goto fail;
	}
	/* nbytes 0: Suricata 8 reads nothing and jumps by post_offset only */
	if (b->nbytes && !(b->flags & BYTE_NBYTES_VAR) && check_nbytes(st, b, "byte_jump", 8))
		goto fail;
	return byte_append(st, b);
fail:
	free(b);
	return -1;
}

static int new_var(SigParseState *st, const char *kwn, const char *name)
{
	int idx;

	if (!*name || is_number(name))
		return sig_error(st, "%s: invalid variable name \"%s\"", kwn, name);
	idx = sig_var_find(st->s, name);
	if (idx >= 0)
		return idx;   /* re-extraction overwrites, as in Suricata */
	idx = sig_var_add(st->s, name);
	if (idx < 0)
		return sig_error(st, "out of memory");
	return idx;
}

/* byte_extract:<nbytes>,<offset>,<name>[,options] */
static int kw_byte_extract(SigParseState *st, const char *arg, const Keyword *kw)
{
	char buf[512], *parts[MAXP];
	int n = split_args(st, "byte_extract", arg, buf, sizeof(buf), parts), idx;
	int64_t v;
	uint64_t u;
	DetectByte *b;

	if (n < 0)
		return -1;
	if (n < 3)
		return sig_error(st, "byte_extract needs nbytes, offset and a variable name");
	b = byte_new(st, KW_BYTE_EXTRACT);
	if (!b)
		return -1;
	if (parse_u64(parts[0], &u) || u < 1 || u > 23) {
		sig_error(st, "byte_extract: invalid number of bytes \"%s\"", parts[0]);
		goto fail;
	}
	b->nbytes = (uint8_t)u;
	if (parse_i64(parts[1], &v) || v < -OFF_MAX || v > OFF_MAX) {
		sig_error(st, "byte_extract: invalid offset \"%s\"", parts[1]);
		goto fail;
	}
	b->offset = (int32_t)v;
	for (int i = 3; i < n; i++) {
		char *o = parts[i];
		int r = common_opt(st, b, "byte_extract", parts, n, &i);

		if (r < 0)
			goto fail;
		if (r)
			continue;
		if (!strncmp(o, "multiplier", 10) && isspace((unsigned char)o[10])) {
			if (parse_u64(o + 11, &u) || u < 1 || u > 65535) {
				sig_error(st, "byte_extract: invalid multiplier \"%s\"", o + 11);
				goto fail;
			}
			b->multiplier = (uint32_t)u;
		} else if (!strncmp(o, "align", 5) && isspace((unsigned char)o[5])) {
			if (parse_u64(o + 6, &u) || (u != 2 && u != 4)) {
				sig_error(st, "byte_extract: align must be 2 or 4");
				goto fail;
			}
			b->align = (uint8_t)u;
		} else {
			sig_error(st, "byte_extract: unknown option \"%s\"", o);
			goto fail;
		}
	}
	if (check_nbytes(st, b, "byte_extract", 8))
		goto fail;
	idx = new_var(st, "byte_extract", parts[2]);
	if (idx < 0)
		goto fail;
	b->var_idx = (int16_t)idx;
	return byte_append(st, b);
fail:
	free(b);
	return -1;
}

/* byte_math:bytes N, offset N, oper OP, rvalue N|var, result name[, ...] */
static int kw_byte_math(SigParseState *st, const char *arg, const Keyword *kw)
{
	char buf[512], *parts[MAXP];
	int n = split_args(st, "byte_math", arg, buf, sizeof(buf), parts), var, idx = -1;
	int have = 0;
	int64_t v;
	uint64_t u;
	DetectByte *b;
	const char *result = NULL;

	if (n < 0)
		return -1;
	b = byte_new(st, KW_BYTE_MATH);
	if (!b)
		return -1;
	for (int i = 0; i < n; i++) {
		char *k = parts[i], *val = k + strcspn(k, " \t");

		if (*val)
			*val++ = '\0';
		val = str_trim(val);
		if (!strcmp(k, "bytes")) {
			if (num_or_var(st, "byte_math", "bytes", val, 1, 10, &v, &var))
				goto fail_bytes;
			/* a variable: its index; the engine reads the value (1..10) */
			b->nbytes = (uint8_t)v;
			if (var)
				b->flags |= BYTE_NBYTES_VAR;
			have |= 1;
		} else if (!strcmp(k, "offset")) {
			if (num_or_var(st, "byte_math", "offset", val, -OFF_MAX, OFF_MAX, &v, &var))
				goto fail;
			b->offset = (int32_t)v;
			if (var)
				b->flags |= BYTE_OFFSET_VAR;
			have |= 2;
		} else if (!strcmp(k, "oper")) {
			if (strcmp(val, "+") && strcmp(val, "-") && strcmp(val, "*") &&
			    strcmp(val, "/") && strcmp(val, "<<") && strcmp(val, ">>")) {
				sig_error(st, "byte_math: invalid operator \"%s\"", val);
				goto fail;
			}
			strcpy(b->op, val);
			have |= 4;
		} else if (!strcmp(k, "rvalue")) {
			if (num_or_var(st, "byte_math", "rvalue", val, 0, UINT32_MAX, &v, &var))
				goto fail;
			b->value = (uint64_t)v;
			if (var)
				b->flags |= BYTE_VALUE_VAR;
			have |= 8;
		} else if (!strcmp(k, "result")) {
			result = val;
			have |= 16;
		} else if (!strcmp(k, "relative")) {
			b->flags |= BYTE_RELATIVE;
		} else if (!strcmp(k, "endian")) {
			uint32_t f = !strcmp(val, "big") ? BYTE_BIG : !strcmp(val, "little") ?
				     BYTE_LITTLE : !strcmp(val, "dce") ? BYTE_DCE : 0;

			if (!f) {
				sig_error(st, "byte_math: invalid endian \"%s\"", val);
				goto fail;
			}
			if (set_endian(st, b, "byte_math", f))
				goto fail;
		} else if (!strcmp(k, "dce")) {
			if (set_endian(st, b, "byte_math", BYTE_DCE))
				goto fail;
		} else if (!strcmp(k, "string")) {
			b->flags |= BYTE_STRING;
			if (set_base(st, b, "byte_math", val))
				goto fail;
		} else if (!strcmp(k, "bitmask")) {
			if (parse_u64(val, &u) || u == 0 || u > UINT32_MAX) {
				sig_error(st, "byte_math: invalid bitmask \"%s\"", val);
				goto fail;
			}
			b->bitmask = (uint32_t)u;
			b->flags |= BYTE_BITMASK;
		} else {
			sig_error(st, "byte_math: unknown option \"%s\"", k);
			goto fail;
		}
	}
	if (have != 31) {
		sig_error(st, "byte_math needs bytes, offset, oper, rvalue and result");
		goto fail;
	}
	if (!strcmp(b->op, "/") && !(b->flags & BYTE_VALUE_VAR) && b->value == 0) {
		sig_error(st, "byte_math: division by zero");
		goto fail;
	}
	if (!(b->flags & BYTE_NBYTES_VAR) && check_nbytes(st, b, "byte_math", 4))
		goto fail;
	idx = new_var(st, "byte_math", result);
	if (idx < 0)
		goto fail;
	b->var_idx = (int16_t)idx;
	return byte_append(st, b);
fail_bytes:
	sig_error(st, "byte_math: bytes must be 1..10");
fail:
	free(b);
	return -1;
}

static int byte_relative(const SigMatch *m)
{
	return !!(((const DetectByte *)m->ctx)->flags & BYTE_RELATIVE);
}

/* The keywords of this family: keywords.c gathers the tables (one line
 * per family). */
const Keyword byte_keywords[] = {
	{ .name = "byte_test", .id = KW_BYTE_TEST, .setup = kw_byte_test, .flags = NEED | SQ, .buf = -1,
	  .desc = "compare bytes to a value", .step = inspect_byte_step, .relative = byte_relative },
	{ .name = "byte_jump", .id = KW_BYTE_JUMP, .setup = kw_byte_jump, .flags = NEED | SQ, .buf = -1,
	  .desc = "move by a value read from the payload", .step = inspect_byte_step, .relative = byte_relative },
	{ .name = "byte_extract", .id = KW_BYTE_EXTRACT, .setup = kw_byte_extract, .flags = NEED | SQ, .buf = -1,
	  .desc = "read a value into a variable", .step = inspect_byte_step, .relative = byte_relative },
	{ .name = "byte_math", .id = KW_BYTE_MATH, .setup = kw_byte_math, .flags = NEED | SQ, .buf = -1,
	  .desc = "arithmetic on payload bytes", .step = inspect_byte_step, .relative = byte_relative },
	{ .name = NULL }
};
