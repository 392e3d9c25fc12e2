/* DNP3 keywords, as Suricata 8 documents them (rules/dnp3-keywords):
 * dnp3_func / dnp3.func (the application function code, by number or
 * name), dnp3_ind / dnp3.ind (a response's internal indications: any of
 * the listed ones set), dnp3_obj / dnp3.obj (an object of group,variation
 * in the message) and the sticky buffer dnp3_data / dnp3.data (the
 * message's reassembled application bytes, CRCs and transport headers
 * removed). Each message is a one-way transaction, read on the side it
 * went. */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "detect/buffers.h"
#include "app-layer/dnp3.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define NEEDS "a dnp3, tcp or ip"

static int kw_dnp3_sticky(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)arg;
	return sig_app_sticky(st, kw, ALPROTO_DNP3, 1, NEEDS);
}

int dnp3_buffer_get(const DetectBuffer *b, void *txp, int side, uint32_t idx,
		    const uint8_t **data, uint32_t *len)
{
	const Dnp3Tx *tx = txp;

	(void)b;
	(void)side;
	if (idx || !tx->m.buf)
		return -1;
	*data = tx->m.buf;
	*len = tx->m.len;
	return 0;
}

enum { DK_FUNC, DK_IND, DK_OBJ };

typedef struct DetectDnp3 {
	int kind;
	uint16_t value;             /* function code; IIN mask; group << 8 | var */
} DetectDnp3;

static void trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		memmove(s, s + 1, strlen(s));
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
}

static int parse_num(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	if (!*s || !isdigit((unsigned char)*s))
		return -1;
	*out = strtoul(s, &end, 0);
	return *end || *out > max ? -1 : 0;
}

static int parse_value(int kind, const char *arg, uint16_t *out)
{
	char buf[256], *tok, *save = NULL;
	unsigned long v, g;
	int n;

	if (strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	trim(buf);
	switch (kind) {
	case DK_FUNC:
		if (parse_num(buf, 255, &v) == 0) {
			*out = (uint16_t)v;
			return 0;
		}
		if ((n = dnp3_func_by_name(buf)) < 0)
			return -1;
		*out = (uint16_t)n;
		return 0;
	case DK_IND:
		*out = 0;
		for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			trim(tok);
			if (parse_num(tok, 0xffff, &v) == 0)
				*out |= (uint16_t)v;
			else if ((n = dnp3_iin_by_name(tok)) >= 0)
				*out |= (uint16_t)(1u << n);
			else
				return -1;
		}
		return *out ? 0 : -1;
	case DK_OBJ:
		if (!(tok = strchr(buf, ',')))
			return -1;
		*tok++ = 0;
		trim(buf);
		trim(tok);
		if (parse_num(buf, 255, &g) < 0 || parse_num(tok, 255, &v) < 0)
			return -1;
		*out = (uint16_t)(g << 8 | v);
		return 0;
	}
	return -1;
}

static int kw_dnp3_match(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectDnp3 *d = calloc(1, sizeof(*d));

	if (!d)
		return sig_error(st, "out of memory");
	d->kind = kw->buf;
	if (parse_value(d->kind, arg ? arg : "", &d->value) < 0) {
		free(d);
		return sig_error(st, "invalid %s \"%s\"", kw->name, arg ? arg : "");
	}
	if (sig_set_alproto_for(st, kw->name, ALPROTO_DNP3, 1, NEEDS)) {
		free(d);
		return -1;
	}
	st->s->flags |= SIG_FLAG_TX_MATCH;
	return sm_append(st, SM_LIST_MATCH, KW_DNP3_MATCH, d) < 0 ? -1 : 0;
}

static int match_dnp3(const DetectTx *tc, const SigMatch *sm, Packet *p)
{
	const DetectDnp3 *d = sm->ctx;
	const Dnp3Tx *tx = tc->tx;

	if (!tx || !tx->m.has_app || !p->flow || p->flow->app_proto != ALPROTO_DNP3)
		return 0;
	switch (d->kind) {
	case DK_FUNC:
		return tx->m.func == d->value;
	case DK_IND:
		return !tx->is_request && (tx->m.iin & d->value) != 0;
	case DK_OBJ:
		for (uint32_t i = 0; i < tx->m.nobjs; i++)
			if ((tx->m.objs[i].group << 8 | tx->m.objs[i].variation) == d->value)
				return 1;
		return 0;
	}
	return 0;
}

#define DNP3B(n_) { .name = n_, .id = KW_DNP3_STICKY, .setup = kw_dnp3_sticky, \
	.flags = STICKY, .buf = BUF_DNP3_DATA, .desc = "sticky buffer" }
#define DNP3M(n_, k_, d_) { .name = n_, .id = KW_DNP3_MATCH, .setup = kw_dnp3_match, \
	.flags = NEED | SQ | KWF_TX, .buf = k_, .desc = d_, .tx_match = match_dnp3 }

const Keyword dnp3_keywords[] = {
	DNP3B("dnp3_data"),
	DNP3B("dnp3.data"),
	DNP3M("dnp3_func", DK_FUNC, "dnp3 application function code"),
	DNP3M("dnp3.func", DK_FUNC, "dnp3 application function code"),
	DNP3M("dnp3_ind", DK_IND, "dnp3 internal indications"),
	DNP3M("dnp3.ind", DK_IND, "dnp3 internal indications"),
	DNP3M("dnp3_obj", DK_OBJ, "dnp3 object group,variation"),
	DNP3M("dnp3.obj", DK_OBJ, "dnp3 object group,variation"),
	{ .name = NULL }
};
