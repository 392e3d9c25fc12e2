/* iprep: the packet's addresses' reputation (datasets/iprep.h), as
 * Suricata 8's ip-reputation-rules page has it:
 *
 *   iprep:<any|src|dst|both>,<category>,<op>,<score>
 *   iprep:<any|src|dst|both>,<category>,<isset|isnotset>
 *
 * op is <, >, = (==), <=, >=, !=; score 0 to 127. An address with no score
 * in the category matches only isnotset. any: either address matches;
 * both: the two do. */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "datasets/iprep.h"

#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

enum { IPREP_ANY, IPREP_SRC, IPREP_DST, IPREP_BOTH };
enum { IPREP_CMP, IPREP_ISSET, IPREP_ISNOTSET };

typedef struct DetectIprep {
	uint8_t side, mode;
	int8_t cat;
	DetectUint cmp;
} DetectIprep;

static int kw_iprep(SigParseState *st, const char *arg, const Keyword *kw)
{
	static const char *const sides[] = { "any", "src", "dst", "both" };
	char buf[256], cmp[64];
	char *p[5];
	DetectIprep *d;
	int n, side = -1, cat;

	(void)kw;
	n = sig_split_arg(st, "iprep", arg, buf, sizeof(buf), p, 5);
	if (n < 0)
		return -1;
	if (n != 3 && n != 4)
		return sig_error(st, "iprep: expected <side>,<category>,<op>,<score> or "
				 "<side>,<category>,isset|isnotset (\"%s\")", arg);
	for (int i = 0; i < 4; i++)
		if (strcmp(str_trim(p[0]), sides[i]) == 0)
			side = i;
	if (side < 0)
		return sig_error(st, "iprep: bad side %s (any, src, dst, both)", p[0]);
	if (!iprep_loaded())
		return sig_error(st, "iprep: no reputation categories loaded "
				 "(reputation-categories-file)");
	cat = iprep_category(str_trim(p[1]));
	if (cat < 0)
		return sig_error(st, "iprep: unknown category %s", p[1]);
	d = calloc(1, sizeof(*d));
	if (!d)
		return sig_error(st, "out of memory");
	d->side = (uint8_t)side;
	d->cat = (int8_t)cat;
	if (n == 3) {
		const char *c = str_trim(p[2]);

		if (strcmp(c, "isset") && strcmp(c, "isnotset")) {
			free(d);
			return sig_error(st, "iprep: bad command %s (isset, isnotset)", c);
		}
		d->mode = strcmp(c, "isset") == 0 ? IPREP_ISSET : IPREP_ISNOTSET;
	} else {
		const char *op = str_trim(p[2]);

		if (!strcmp(op, "=") || !strcmp(op, "=="))
			op = "";
		else if (!strcmp(op, "!="))
			op = "!";
		else if (strcmp(op, "<") && strcmp(op, ">") && strcmp(op, "<=") && strcmp(op, ">=")) {
			free(d);
			return sig_error(st, "iprep: bad operator %s (<, >, =, <=, >=, !=)", op);
		}
		snprintf(cmp, sizeof(cmp), "%s%.40s", op, str_trim(p[3]));
		if (parse_uint_cmp(cmp, IPREP_SCORE_MAX, &d->cmp) != 0) {
			free(d);
			return sig_error(st, "iprep: bad score %s (0 to %d)", p[3], IPREP_SCORE_MAX);
		}
		d->mode = IPREP_CMP;
	}
	if (sm_append(st, SM_LIST_MATCH, KW_IPREP, d) < 0) {
		free(d);
		return sig_error(st, "out of memory");
	}
	return 0;
}

static int addr_matches(const DetectIprep *d, const Address *a)
{
	int s;

	if (a->family != AF_INET && a->family != AF_INET6)
		return d->mode == IPREP_ISNOTSET;
	s = iprep_score(a->family, a->a.u8, d->cat);
	if (d->mode == IPREP_ISSET)
		return s >= 0;
	if (d->mode == IPREP_ISNOTSET)
		return s < 0;
	return s >= 0 && detect_uint_match(&d->cmp, (uint64_t)s);
}

static int match_iprep(DetectThread *dt, const SigMatch *m, Packet *p)
{
	const DetectIprep *d = m->ctx;

	(void)dt;
	switch (d->side) {
	case IPREP_SRC:
		return addr_matches(d, &p->src);
	case IPREP_DST:
		return addr_matches(d, &p->dst);
	case IPREP_BOTH:
		return addr_matches(d, &p->src) && addr_matches(d, &p->dst);
	default:
		return addr_matches(d, &p->src) || addr_matches(d, &p->dst);
	}
}

const Keyword iprep_keywords[] = {
	{ .name = "iprep", .id = KW_IPREP, .setup = kw_iprep, .flags = NEED | SQ, .buf = -1,
	  .desc = "match on the IP reputation of the packet's addresses", .match = match_iprep },
	{ .name = NULL },
};
