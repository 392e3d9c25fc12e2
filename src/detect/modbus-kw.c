/* The modbus keyword, as Suricata 8 documents it (rules/modbus-keyword):
 *
 *   modbus: function <n>[, subfunction <n>]
 *   modbus: function [!]<assigned|unassigned|public|user|reserved|all>
 *   modbus: access <read|write> [<discretes|coils|input|holding>]
 *           [, address <range>[, value <range>]]
 *   modbus: unit <range>[, <a function or access form>]
 *
 * where a range is N, <N, >N or N<>M (bounds excluded). It reads a
 * transaction's request: an access address matches when the range meets
 * the addresses the request reads or writes; a value is the one written
 * at the (single) address given. */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "detect/buffers.h"
#include "app-layer/modbus.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define NEEDS "a modbus, tcp or ip"

enum { RG_EQ, RG_LT, RG_GT, RG_BETWEEN };

typedef struct MbRange {
	uint8_t set, mode;
	uint16_t lo, hi;
} MbRange;

typedef struct DetectModbus {
	MbRange unit, addr, value;
	int16_t function;           /* -1: none */
	int32_t subfunction;        /* -1: none */
	uint8_t category;           /* MODBUS_CAT_*; 0 none */
	uint8_t access;             /* MODBUS_ACC_*; 0 none */
} DetectModbus;

static const char *skip(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* A word of s at *s (advanced past it and the blanks after). */
static int word(const char **s, const char *w)
{
	size_t n = strlen(w);

	if (strncmp(*s, w, n) || isalnum((unsigned char)(*s)[n]))
		return 0;
	*s = skip(*s + n);
	return 1;
}

static int num16(const char **s, uint16_t *v)
{
	char *end;
	unsigned long n;

	if (!isdigit((unsigned char)**s))
		return -1;
	n = strtoul(*s, &end, 10);
	if (n > UINT16_MAX)
		return -1;
	*v = (uint16_t)n;
	*s = skip(end);
	return 0;
}

static int range(const char **s, MbRange *r)
{
	r->set = 1;
	if (**s == '<' || **s == '>') {
		r->mode = **s == '<' ? RG_LT : RG_GT;
		*s = skip(*s + 1);
		return num16(s, &r->lo);
	}
	if (num16(s, &r->lo) < 0)
		return -1;
	r->mode = RG_EQ;
	if ((*s)[0] == '<' && (*s)[1] == '>') {
		*s = skip(*s + 2);
		r->mode = RG_BETWEEN;
		return num16(s, &r->hi);
	}
	return 0;
}

static int comma(const char **s)
{
	if (**s != ',')
		return 0;
	*s = skip(*s + 1);
	return 1;
}

static int parse_function(const char **s, DetectModbus *d)
{
	static const struct {
		const char *name;
		uint8_t cat;
	} cats[] = {
		{ "assigned", MODBUS_CAT_PUBLIC_ASSIGNED },
		{ "unassigned", MODBUS_CAT_PUBLIC_UNASSIGNED },
		{ "public", MODBUS_CAT_PUBLIC_ASSIGNED | MODBUS_CAT_PUBLIC_UNASSIGNED },
		{ "user", MODBUS_CAT_USER_DEFINED },
		{ "reserved", MODBUS_CAT_RESERVED },
		{ "all", 0x0f },
	};
	int neg = 0;
	uint16_t v;

	if (isdigit((unsigned char)**s)) {
		if (num16(s, &v) < 0 || v == 0 || v > 255)
			return -1;
		d->function = (int16_t)v;
		if (comma(s)) {
			if (!word(s, "subfunction") || num16(s, &v) < 0)
				return -1;
			d->subfunction = v;
		}
		return 0;
	}
	if (**s == '!') {
		neg = 1;
		*s = skip(*s + 1);
	}
	for (size_t i = 0; i < sizeof(cats) / sizeof(cats[0]); i++)
		if (word(s, cats[i].name)) {
			d->category = neg ? (uint8_t)(~cats[i].cat & 0x0f) : cats[i].cat;
			return 0;
		}
	return -1;
}

static int parse_table(const char *arg, const char **s, DetectModbus *d)
{
	static const struct {
		const char *name;
		uint8_t acc;
	} tables[] = {
		{ "discretes", MODBUS_ACC_DISCRETES }, { "coils", MODBUS_ACC_COILS },
		{ "input", MODBUS_ACC_INPUT }, { "holding", MODBUS_ACC_HOLDING },
	};

	(void)arg;
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		if (word(s, tables[i].name)) {
			if (d->access == MODBUS_ACC_WRITE &&
			    (tables[i].acc == MODBUS_ACC_DISCRETES || tables[i].acc == MODBUS_ACC_INPUT))
				return -1;
			d->access |= tables[i].acc;
			return 0;
		}
	return 0;
}

static int parse_rest(const char *arg, const char **s, DetectModbus *d)
{
	if (word(s, "function"))
		return parse_function(s, d);
	if (!word(s, "access"))
		return -1;
	if (word(s, "read"))
		d->access = MODBUS_ACC_READ;
	else if (word(s, "write"))
		d->access = MODBUS_ACC_WRITE;
	else
		return -1;
	if (parse_table(arg, s, d) < 0)
		return -1;
	if (!comma(s))
		return 0;
	if (!word(s, "address") || range(s, &d->addr) < 0)
		return -1;
	if (!comma(s))
		return 0;
	/* a value goes with one address, written */
	if (!word(s, "value") || range(s, &d->value) < 0 || d->addr.mode != RG_EQ ||
	    !(d->access & MODBUS_ACC_WRITE))
		return -1;
	return 0;
}

static int kw_modbus(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectModbus *d = calloc(1, sizeof(*d));
	char *v = str_trim_dup(arg ? arg : "", 1);
	const char *s;
	int r;

	if (!d || !v) {
		free(d);
		free(v);
		return sig_error(st, "out of memory");
	}
	d->function = -1;
	d->subfunction = -1;
	s = skip(v);
	if (word(&s, "unit")) {
		r = range(&s, &d->unit);
		if (r == 0 && comma(&s))
			r = parse_rest(v, &s, d);
	} else {
		r = parse_rest(v, &s, d);
	}
	if (r < 0 || *s) {
		free(v);
		free(d);
		return sig_error(st, "invalid %s \"%s\"", kw->name, arg ? arg : "");
	}
	free(v);
	if (sig_set_alproto_for(st, kw->name, ALPROTO_MODBUS, 0, NEEDS)) {
		free(d);
		return -1;
	}
	st->s->flags |= SIG_FLAG_TX_MATCH;
	return sm_append(st, SM_LIST_MATCH, KW_MODBUS, d) < 0 ? -1 : 0;
}

static int in_range(const MbRange *r, uint16_t v)
{
	switch (r->mode) {
	case RG_LT:
		return v < r->lo;
	case RG_GT:
		return v > r->lo;
	case RG_BETWEEN:
		return r->lo < v && v < r->hi;
	}
	return v == r->lo;
}

/* the rule's range meets the addresses [a, a + q - 1] */
static int meets(const MbRange *r, uint16_t a, uint16_t q)
{
	uint32_t end = (uint32_t)a + (q ? q : 1) - 1;

	switch (r->mode) {
	case RG_LT:
		return r->lo > a;
	case RG_GT:
		return r->lo < end;
	case RG_BETWEEN:
		return r->lo < end && a < r->hi;
	}
	return r->lo >= a && r->lo <= end;
}

static int access_match(const DetectModbus *d, const ModbusMsg *m)
{
	uint8_t rw = d->access & (MODBUS_ACC_READ | MODBUS_ACC_WRITE);
	uint8_t table = d->access & ~(MODBUS_ACC_READ | MODBUS_ACC_WRITE);
	uint16_t v;

	if (!(m->access & rw) || (table && !(m->access & table)))
		return 0;
	if (!d->addr.set)
		return 1;
	if (rw == MODBUS_ACC_READ
		    ? !m->has_read || !meets(&d->addr, m->read_addr, m->read_qty)
		    : !m->has_write || !meets(&d->addr, m->write_addr, m->write_qty))
		return 0;
	if (!d->value.set)
		return 1;
	return modbus_write_value_at(m, d->addr.lo, &v) && in_range(&d->value, v);
}

static int match_modbus(const DetectTx *tc, const SigMatch *sm, Packet *p)
{
	const DetectModbus *d = sm->ctx;
	const ModbusTx *tx = tc->tx;
	const ModbusMsg *m;

	if (!tx || !p->flow || p->flow->app_proto != ALPROTO_MODBUS ||
	    !tx->has[APP_DIR_TOSERVER])
		return 0;
	m = &tx->msg[APP_DIR_TOSERVER];
	if (d->unit.set && !in_range(&d->unit, m->unit))
		return 0;
	if (d->access)
		return access_match(d, m);
	if (d->category)
		return (m->category & d->category) != 0;
	if (d->function < 0)
		return 1;
	if (m->function != d->function)
		return 0;
	return d->subfunction < 0 || (m->has_sub && m->sub == d->subfunction);
}

const Keyword modbus_keywords[] = {
	{ .name = "modbus", .id = KW_MODBUS, .setup = kw_modbus, .flags = NEED | SQ | KWF_TX,
	  .buf = -1, .desc = "modbus function, access or unit of the request",
	  .tx_match = match_modbus },
	{ .name = NULL }
};
