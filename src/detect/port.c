/* Rule header ports: any, N, N:M, N:, :M, lists, negation, $VARS from
 * vars.port-groups. Sets are computed on a 65536-bit map, then turned into
 * sorted ranges. Semantics as for addresses: positives (or all) minus
 * negatives; an empty result is an error. */
#include "detect/detect-int.h"
#include "detect/rule-vars.h"

#include <stdlib.h>
#include <string.h>

#define WORDS (65536 / 64)

typedef struct { uint64_t w[WORDS]; } PortMap;

static void pm_set_range(PortMap *m, unsigned lo, unsigned hi)
{
	unsigned p = lo;

	while (p <= hi) {
		if ((p & 63) == 0 && p + 63 <= hi) {
			m->w[p >> 6] = ~0ull;
			p += 64;
		} else {
			m->w[p >> 6] |= 1ull << (p & 63);
			p++;
		}
	}
}

static int pm_test(const PortMap *m, unsigned p)
{
	return !!(m->w[p >> 6] & (1ull << (p & 63)));
}

static int pm_empty(const PortMap *m)
{
	for (int i = 0; i < WORDS; i++)
		if (m->w[i])
			return 0;
	return 1;
}

static int parse_port_num(const char *s, unsigned *out)
{
	uint64_t v;

	if (parse_u64(s, &v) || v > 65535)
		return -1;
	*out = (unsigned)v;
	return 0;
}

static int parse_pgroup(const char *str, PortMap *out, int depth, char *err, size_t errlen);

static int parse_pitem(const char *el, PortMap *out, int depth, char *err, size_t errlen)
{
	const char *colon;
	unsigned lo, hi;

	if (strcmp(el, "any") == 0) {
		pm_set_range(out, 0, 65535);
		return 0;
	}
	if (el[0] == '[')
		return parse_pgroup(el, out, depth, err, errlen);
	if (el[0] == '$') {
		const char *val = rule_var_value(el, RULE_VAR_PORT, depth, err, errlen);

		return val ? parse_pgroup(val, out, depth + 1, err, errlen) : -1;
	}
	colon = strchr(el, ':');
	if (colon) {
		char a[16] = "", b[16] = "";
		size_t la = colon - el, lb = strlen(colon + 1);

		if (la >= sizeof(a) || lb >= sizeof(b))
			goto bad;
		memcpy(a, el, la);
		memcpy(b, colon + 1, lb);
		lo = 0;
		hi = 65535;
		if ((la && parse_port_num(a, &lo)) || (lb && parse_port_num(b, &hi)) || (!la && !lb))
			goto bad;
		if (lo > hi)
			goto bad;
		pm_set_range(out, lo, hi);
		return 0;
	}
	if (parse_port_num(el, &lo))
		goto bad;
	pm_set_range(out, lo, lo);
	return 0;
bad:
	snprintf(err, errlen, "invalid port \"%s\"", el);
	return -1;
}

static int parse_pgroup(const char *str, PortMap *out, int depth, char *err, size_t errlen)
{
	char *copy, *s, *start, *p;
	PortMap *pos, *neg;
	int npos = 0, rc = -1, bd = 0;

	/* a lone item ("80", "1024:", "$VAR") needs no set arithmetic */
	if (!strpbrk(str, "[,!")) {
		copy = str_trim_dup(str, 0);
		if (!copy) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		rc = parse_pitem(copy, out, depth, err, errlen);
		free(copy);
		return rc;
	}
	copy = strdup(str);
	pos = calloc(2, sizeof(PortMap));
	if (!copy || !pos) {
		free(copy);
		free(pos);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	neg = pos + 1;
	s = rule_list_unbracket(str_trim(copy), str, err, errlen);
	if (!s)
		goto out;
	start = s;
	for (p = s;; p++) {
		if (*p == '[')
			bd++;
		else if (*p == ']')
			bd--;
		if ((*p == ',' && bd == 0) || !*p) {
			int end = !*p, negate = 0;
			char *el;
			PortMap *tmp;

			*p = '\0';
			el = str_trim(start);
			while (*el == '!') {
				negate = !negate;
				el = str_trim(el + 1);
			}
			if (!*el) {
				snprintf(err, errlen, "empty port in \"%s\"", str);
				goto out;
			}
			if (negate && strcmp(el, "any") == 0) {
				snprintf(err, errlen, "\"!any\" leaves no port");
				goto out;
			}
			tmp = calloc(1, sizeof(*tmp));
			if (!tmp) {
				snprintf(err, errlen, "out of memory");
				goto out;
			}
			if (parse_pitem(el, tmp, depth, err, errlen)) {
				free(tmp);
				goto out;
			}
			for (int i = 0; i < WORDS; i++)
				(negate ? neg : pos)->w[i] |= tmp->w[i];
			free(tmp);
			if (!negate)
				npos++;
			if (end)
				break;
			start = p + 1;
		}
	}
	if (!npos)
		pm_set_range(pos, 0, 65535);
	for (int i = 0; i < WORDS; i++)
		pos->w[i] &= ~neg->w[i];
	if (pm_empty(pos)) {
		snprintf(err, errlen, "\"%s\" leaves no port", str);
		goto out;
	}
	for (int i = 0; i < WORDS; i++)
		out->w[i] |= pos->w[i];
	rc = 0;
out:
	free(pos);
	free(copy);
	return rc;
}

int portset_parse(const char *str, PortSet *out, char *err, size_t errlen)
{
	PortMap *m;
	int n = 0, cap = 0;

	memset(out, 0, sizeof(*out));
	if (strcmp(str, "any") == 0) {
		/* the common case: no map needed */
		out->r = malloc(sizeof(*out->r));
		if (!out->r) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		out->r[0].lo = 0;
		out->r[0].hi = 65535;
		out->n = 1;
		out->any = 1;
		return 0;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (parse_pgroup(str, m, 0, err, errlen)) {
		free(m);
		return -1;
	}
	for (unsigned p = 0; p <= 65535;) {
		unsigned q;

		if (!pm_test(m, p)) {
			p += ((p & 63) == 0 && m->w[p >> 6] == 0) ? 64 : 1;
			continue;
		}
		q = p;
		while (q < 65535 && pm_test(m, q + 1)) {
			if (((q + 1) & 63) == 0 && q + 64 <= 65535 && m->w[(q + 1) >> 6] == ~0ull)
				q += 64;
			else
				q++;
		}
		if (n == cap) {
			PortRange *r = realloc(out->r, (cap = cap ? cap * 2 : 4) * sizeof(*r));

			if (!r) {
				free(m);
				portset_free(out);
				snprintf(err, errlen, "out of memory");
				return -1;
			}
			out->r = r;
		}
		out->r[n].lo = (uint16_t)p;
		out->r[n].hi = (uint16_t)q;
		n++;
		p = q + 1;
	}
	out->n = n;
	free(m);
	return 0;
}

int portset_match(const PortSet *s, uint16_t port)
{
	if (s->any)
		return 1;
	for (int i = 0; i < s->n; i++)
		if (port >= s->r[i].lo && port <= s->r[i].hi)
			return 1;
	return 0;
}

void portset_hull(const PortSet *s, uint16_t *lo, uint16_t *hi)
{
	*lo = 0;
	*hi = 65535;
	if (s->any || s->n == 0)
		return;
	*lo = s->r[0].lo;
	*hi = s->r[0].hi;
	for (int i = 1; i < s->n; i++) {
		if (s->r[i].lo < *lo)
			*lo = s->r[i].lo;
		if (s->r[i].hi > *hi)
			*hi = s->r[i].hi;
	}
}

void portset_free(PortSet *s)
{
	free(s->r);
	memset(s, 0, sizeof(*s));
}
