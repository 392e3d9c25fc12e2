/* Rule header addresses: any, IPv4/IPv6 addresses, CIDR blocks, ranges
 * (a-b), lists in brackets, negation and $VARS from vars.address-groups,
 * nested to any depth. The result is a set of disjoint ranges per family:
 * a list is (union of its positive items, or everything if it has none)
 * minus (union of its negated items). */
#include "detect/detect-int.h"
#include "detect/rule-vars.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct RV { AddrRange *r; int n, cap; } RV;   /* range vector */

static const u128 V4_MAX = 0xffffffffu;
static const u128 V6_MAX = ~(u128)0;

static int rv_push(RV *v, u128 lo, u128 hi)
{
	if (v->n == v->cap) {
		int cap = v->cap ? v->cap * 2 : 4;
		AddrRange *r = realloc(v->r, cap * sizeof(*r));

		if (!r)
			return -1;
		v->r = r;
		v->cap = cap;
	}
	v->r[v->n].lo = lo;
	v->r[v->n].hi = hi;
	v->n++;
	return 0;
}

static int range_cmp(const void *a, const void *b)
{
	const AddrRange *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Sorts and merges overlapping or adjacent ranges. */
static void rv_normalize(RV *v)
{
	int j = 0;

	if (v->n < 2)
		return;
	qsort(v->r, v->n, sizeof(v->r[0]), range_cmp);
	for (int i = 1; i < v->n; i++) {
		AddrRange *last = &v->r[j];

		if (v->r[i].lo <= last->hi || (last->hi != V6_MAX && v->r[i].lo == last->hi + 1)) {
			if (v->r[i].hi > last->hi)
				last->hi = v->r[i].hi;
		} else {
			v->r[++j] = v->r[i];
		}
	}
	v->n = j + 1;
}

static int rv_append(RV *dst, const RV *src)
{
	for (int i = 0; i < src->n; i++)
		if (rv_push(dst, src->r[i].lo, src->r[i].hi))
			return -1;
	return 0;
}

/* out = a - b (both normalized) */
static int rv_subtract(const RV *a, const RV *b, RV *out)
{
	for (int i = 0; i < a->n; i++) {
		u128 lo = a->r[i].lo, hi = a->r[i].hi;
		int alive = 1;

		for (int j = 0; j < b->n && alive; j++) {
			const AddrRange *c = &b->r[j];

			if (c->hi < lo || c->lo > hi)
				continue;
			if (c->lo > lo && rv_push(out, lo, c->lo - 1))
				return -1;
			if (c->hi >= hi)
				alive = 0;
			else
				lo = c->hi + 1;
		}
		if (alive && rv_push(out, lo, hi))
			return -1;
	}
	return 0;
}

typedef struct ASet { RV v4, v6; } ASet;

static void aset_free(ASet *s)
{
	free(s->v4.r);
	free(s->v6.r);
	memset(s, 0, sizeof(*s));
}

static int aset_any(ASet *s)
{
	return rv_push(&s->v4, 0, V4_MAX) || rv_push(&s->v6, 0, V6_MAX);
}

static u128 v6_to_u128(const uint8_t b[16])
{
	u128 v = 0;

	for (int i = 0; i < 16; i++)
		v = (v << 8) | b[i];
	return v;
}

static int parse_ip(const char *s, int *fam, u128 *val)
{
	struct in_addr a4;
	struct in6_addr a6;

	if (inet_pton(AF_INET, s, &a4) == 1) {
		*fam = 4;
		*val = ntohl(a4.s_addr);
		return 0;
	}
	if (inet_pton(AF_INET6, s, &a6) == 1) {
		*fam = 6;
		*val = v6_to_u128(a6.s6_addr);
		return 0;
	}
	return -1;
}

/* One address item: IP, IP/bits, IPv4/netmask, IP-IP. */
static int parse_addr_item(const char *item, ASet *out, char *err, size_t errlen)
{
	char buf[128], *slash, *dash;
	int fam, fam2;
	u128 lo, hi;

	if (strlen(item) >= sizeof(buf)) {
		snprintf(err, errlen, "address too long");
		return -1;
	}
	strcpy(buf, item);
	slash = strchr(buf, '/');
	dash = strchr(buf, '-');
	if (slash) {
		char *bits = slash + 1;
		uint64_t nb;
		int maxb;
		u128 mask;

		*slash = '\0';
		if (parse_ip(buf, &fam, &lo))
			goto bad;
		maxb = fam == 4 ? 32 : 128;
		if (parse_u64(bits, &nb) == 0 && !strchr(bits, '.')) {
			if ((int)nb > maxb)
				goto bad;
		} else {
			struct in_addr m;
			uint32_t mh;

			/* dotted netmask: must be contiguous */
			if (fam != 4 || inet_pton(AF_INET, bits, &m) != 1)
				goto bad;
			mh = ntohl(m.s_addr);
			if (mh && ((~mh + 1) & ~mh))
				goto bad;
			nb = mh ? 32 - __builtin_ctz(mh) : 0;
		}
		if (nb == 0)
			mask = 0;
		else
			mask = ((fam == 4 ? V4_MAX : V6_MAX) << (maxb - nb)) &
			       (fam == 4 ? V4_MAX : V6_MAX);
		lo &= mask;
		hi = lo | (~mask & (fam == 4 ? V4_MAX : V6_MAX));
	} else if (dash) {
		*dash = '\0';
		if (parse_ip(buf, &fam, &lo) || parse_ip(dash + 1, &fam2, &hi) || fam != fam2 || lo > hi)
			goto bad;
	} else {
		if (parse_ip(buf, &fam, &lo))
			goto bad;
		hi = lo;
	}
	return rv_push(fam == 4 ? &out->v4 : &out->v6, lo, hi);
bad:
	snprintf(err, errlen, "invalid address \"%s\"", item);
	return -1;
}

static int parse_group(const char *str, ASet *out, int depth, char *err, size_t errlen);

/* Splits "a,[b,c],d" at top-level commas. Returns item count or -1. */
static int split_top(char *s, char ***items)
{
	int n = 0, cap = 8, depth = 0;
	char **v = malloc(cap * sizeof(*v));
	char *start = s;

	if (!v)
		return -1;
	for (char *p = s;; p++) {
		if (*p == '[')
			depth++;
		else if (*p == ']')
			depth--;
		if ((*p == ',' && depth == 0) || !*p) {
			int end = !*p;

			if (n == cap) {
				char **nv = realloc(v, (cap *= 2) * sizeof(*v));

				if (!nv) {
					free(v);
					return -1;
				}
				v = nv;
			}
			*p = '\0';
			v[n++] = str_trim(start);
			if (end)
				break;
			start = p + 1;
		}
	}
	*items = v;
	return n;
}

static int parse_element(const char *el, ASet *out, int depth, char *err, size_t errlen)
{
	if (strcmp(el, "any") == 0)
		return aset_any(out);
	if (el[0] == '[')
		return parse_group(el, out, depth, err, errlen);
	if (el[0] == '$') {
		const char *val = rule_var_value(el, RULE_VAR_ADDRESS, depth, err, errlen);

		return val ? parse_group(val, out, depth + 1, err, errlen) : -1;
	}
	return parse_addr_item(el, out, err, errlen);
}

static int parse_group(const char *str, ASet *out, int depth, char *err, size_t errlen)
{
	char *copy = strdup(str), *s, **items = NULL;
	ASet pos = { 0 }, neg = { 0 };
	int n, npos = 0, rc = -1;

	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	s = rule_list_unbracket(str_trim(copy), str, err, errlen);
	if (!s)
		goto out;
	n = split_top(s, &items);
	if (n < 0) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (int i = 0; i < n; i++) {
		char *el = items[i];
		int negate = 0;
		ASet tmp = { 0 };

		while (*el == '!') {
			negate = !negate;
			el = str_trim(el + 1);
		}
		if (!*el) {
			snprintf(err, errlen, "empty address in \"%s\"", str);
			goto out;
		}
		if (negate && strcmp(el, "any") == 0) {
			snprintf(err, errlen, "\"!any\" leaves no address");
			goto out;
		}
		if (parse_element(el, &tmp, depth, err, errlen)) {
			aset_free(&tmp);
			goto out;
		}
		if (rv_append(negate ? &neg.v4 : &pos.v4, &tmp.v4) ||
		    rv_append(negate ? &neg.v6 : &pos.v6, &tmp.v6)) {
			aset_free(&tmp);
			snprintf(err, errlen, "out of memory");
			goto out;
		}
		aset_free(&tmp);
		if (!negate)
			npos++;
	}
	if (!npos && aset_any(&pos))
		goto out;
	rv_normalize(&pos.v4);
	rv_normalize(&pos.v6);
	rv_normalize(&neg.v4);
	rv_normalize(&neg.v6);
	if (rv_subtract(&pos.v4, &neg.v4, &out->v4) || rv_subtract(&pos.v6, &neg.v6, &out->v6)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	rv_normalize(&out->v4);
	rv_normalize(&out->v6);
	if (!out->v4.n && !out->v6.n) {
		snprintf(err, errlen, "\"%s\" leaves no address", str);
		goto out;
	}
	rc = 0;
out:
	aset_free(&pos);
	aset_free(&neg);
	free(items);
	free(copy);
	return rc;
}

int addrset_parse(const char *str, AddrSet *out, char *err, size_t errlen)
{
	ASet s = { 0 };

	memset(out, 0, sizeof(*out));
	if (strcmp(str, "any") == 0)
		out->any = 1;
	if (parse_group(str, &s, 0, err, errlen)) {
		aset_free(&s);
		return -1;
	}
	if (s.v4.n) {
		if (!(out->v4 = malloc(sizeof(*out->v4) * (size_t)s.v4.n))) {
			aset_free(&s);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		for (int i = 0; i < s.v4.n; i++)
			out->v4[i] = (AddrRange4){ (uint32_t)s.v4.r[i].lo, (uint32_t)s.v4.r[i].hi };
	}
	free(s.v4.r);
	out->n4 = s.v4.n;
	out->v6 = s.v6.r;
	out->n6 = s.v6.n;
	return 0;
}

static int rv_match(const AddrRange *r, int n, u128 v)
{
	int lo = 0, hi = n - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (v < r[mid].lo)
			hi = mid - 1;
		else if (v > r[mid].hi)
			lo = mid + 1;
		else
			return 1;
	}
	return 0;
}

int addrset_match_v4(const AddrSet *s, uint32_t ip)
{
	const AddrRange4 *r = s->v4;
	int lo = 0, hi = s->n4 - 1;

	if (s->any)
		return 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (ip < r[mid].lo)
			hi = mid - 1;
		else if (ip > r[mid].hi)
			lo = mid + 1;
		else
			return 1;
	}
	return 0;
}

int addrset_match_v6(const AddrSet *s, const uint8_t ip[16])
{
	return s->any || rv_match(s->v6, s->n6, v6_to_u128(ip));
}

void addrset_free(AddrSet *s)
{
	free(s->v4);
	free(s->v6);
	memset(s, 0, sizeof(*s));
}
