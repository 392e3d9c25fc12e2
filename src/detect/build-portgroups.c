/* Port groups: one protocol class and direction split by the packet's
 * port on one side, so that a packet meets only the fast patterns of the
 * rules that can match its port (see PortGroups in engine-int.h). Ports
 * whose rule sets are equal share a group; past PG_MAX_GROUPS the smallest
 * sets are merged into one. Each group is then built by build-groups.c. */
#include "detect/build.h"

#include "util/log.h"

#include <stdlib.h>
#include <string.h>

/* Server ports that keep a group of their own however few rules they add:
 * the busiest services should not share the merged group. (Suricata's
 * whitelists are longer; each group here is an automaton to build.) */
static const uint16_t pg_keep_tcp[] = { 53, 80, 443 };
static const uint16_t pg_keep_udp[] = { 53 };

/* The rule's port sets on the key side (0 dp, 1 sp; both for <>, whose
 * sides may swap). 1: any port. */
static int sig_key_ports(const Signature *s, int side, const PortSet *ps[2])
{
	ps[0] = side ? &s->sp : &s->dp;
	ps[1] = NULL;
	if (s->flags & SIG_FLAG_BIDIR) {
		ps[0] = &s->sp;
		ps[1] = &s->dp;
	}
	for (int k = 0; k < 2; k++)
		if (ps[k] && (ps[k]->any || ps[k]->n == 0))
			return 1;
	return 0;
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Index of the interval starting at port v (v is a boundary). */
static uint32_t pg_interval(const uint32_t *bnd, uint32_t nb, uint32_t v)
{
	uint32_t lo = 0, hi = nb;

	while (hi - lo > 1) {
		uint32_t mid = (lo + hi) / 2;

		if (bnd[mid] <= v)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

typedef struct PgSet {
	uint64_t *bits;           /* over the port-specific rules */
	uint64_t hash;
	uint32_t nrules;
	int keep;
	uint32_t final;           /* index of its group */
} PgSet;

static uint32_t pg_popcount(const uint64_t *w, uint32_t nw)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < nw; i++)
		n += (uint32_t)__builtin_popcountll(w[i]);
	return n;
}

static int pg_nrules_desc(const void *a, const void *b)
{
	const PgSet *x = *(PgSet *const *)a, *y = *(PgSet *const *)b;

	return x->nrules != y->nrules ? (x->nrules < y->nrules ? 1 : -1) : 0;
}

/* A packet rule of this protocol class and direction: what port groups split. */
static int pg_sig_in(const DetectEngine *de, uint32_t i, int pc, int dir)
{
	const Signature *s = de->sigs[i].s;

	return !de->sigs[i].has_http && !de->sigs[i].has_frame && (sig_pc_mask(s) & (1u << pc)) &&
	       (sig_dir_mask(s) & (1u << dir));
}

/* Which port a class and direction is split on: the side where more of
 * its rules name ports. Usually the server's (dp toserver, sp toclient),
 * but e.g. `udp any any -> any 53` rules without a direction are in the
 * toclient groups too, and only a packet to port 53 can match them. */
static int pg_key_side(const DetectEngine *de, int pc, int dir)
{
	uint32_t n[2] = { 0, 0 };

	for (uint32_t i = 0; i < de->nsigs; i++) {
		const Signature *s = de->sigs[i].s;
		const PortSet *ps[2];

		if (!pg_sig_in(de, i, pc, dir))
			continue;
		for (int side = 0; side < 2; side++)
			n[side] += !sig_key_ports(s, side, ps);
	}
	if (n[0] == n[1])
		return dir;
	return n[1] > n[0];
}

/* Splits one protocol class and direction by the port of one side. */
int build_port_groups(DetectEngine *de, int pc, int dir, char *err, size_t errlen)
{
	PortGroups *pg = &de->pg[pc][dir];
	int side = pg_key_side(de, pc, dir);
	const uint16_t *keep = pc == PC_TCP ? pg_keep_tcp : pg_keep_udp;
	size_t nkeep = pc == PC_TCP ? sizeof(pg_keep_tcp) / sizeof(pg_keep_tcp[0]) :
		       sizeof(pg_keep_udp) / sizeof(pg_keep_udp[0]);
	uint32_t *spec = NULL, nspec = 0, nany = 0, *bnd = NULL, nb = 0, nbmax = 1, nw, nset = 0;
	uint32_t *iv_set = NULL, nfinal = 0, nkept = 0;
	uint64_t *bits = NULL, *rest = NULL;
	PgSet *sets = NULL, **order = NULL;
	uint8_t *in = NULL;
	int rc = -1;

	spec = calloc(de->nsigs ? de->nsigs : 1, sizeof(uint32_t));
	in = calloc(de->nsigs ? de->nsigs : 1, 1);
	if (!spec || !in)
		goto out;
	pg->side = side;
	for (uint32_t i = 0; i < de->nsigs; i++) {
		const Signature *s = de->sigs[i].s;
		const PortSet *ps[2];

		if (!pg_sig_in(de, i, pc, dir))
			continue;
		if (sig_key_ports(s, side, ps)) {
			nany++;
			continue;
		}
		spec[nspec++] = i;
		for (int k = 0; k < 2; k++)
			if (ps[k])
				nbmax += 2 * (uint32_t)ps[k]->n;
	}
	if (nspec * PG_MIN_SPLIT < nany) {
		/* (next to) nothing port-specific: every group would be about
		 * the same automaton, built again and again */
		pg->g = calloc(1, sizeof(SigGroup));
		if (!pg->g)
			goto out;
		pg->ng = 1;
		pg->owned = 1;
		rc = build_group(de, &pg->g[0], pc, dir, NULL, err, errlen);
		goto out;
	}
	/* intervals of ports over which the set of port-specific rules is
	 * constant: start at 0 and at every range's lo and hi + 1 */
	bnd = calloc(nbmax, sizeof(uint32_t));
	if (!bnd)
		goto out;
	bnd[nb++] = 0;
	for (uint32_t j = 0; j < nspec; j++) {
		const PortSet *ps[2];

		sig_key_ports(de->sigs[spec[j]].s, side, ps);
		for (int k = 0; k < 2; k++)
			for (int r = 0; ps[k] && r < ps[k]->n; r++) {
				bnd[nb++] = ps[k]->r[r].lo;
				if (ps[k]->r[r].hi < 65535)
					bnd[nb++] = (uint32_t)ps[k]->r[r].hi + 1;
			}
	}
	qsort(bnd, nb, sizeof(uint32_t), u32_cmp);
	{
		uint32_t u = 1;

		for (uint32_t i = 1; i < nb; i++)
			if (bnd[i] != bnd[u - 1])
				bnd[u++] = bnd[i];
		nb = u;
	}
	nw = (nspec + 63) / 64;
	bits = calloc((size_t)nb * nw, sizeof(uint64_t));
	iv_set = calloc(nb, sizeof(uint32_t));
	sets = calloc(nb, sizeof(PgSet));
	order = calloc(nb, sizeof(PgSet *));
	rest = calloc(nw, sizeof(uint64_t));
	if (!bits || !iv_set || !sets || !order || !rest)
		goto out;
	for (uint32_t j = 0; j < nspec; j++) {
		const PortSet *ps[2];

		sig_key_ports(de->sigs[spec[j]].s, side, ps);
		for (int k = 0; k < 2; k++)
			for (int r = 0; ps[k] && r < ps[k]->n; r++)
				for (uint32_t iv = pg_interval(bnd, nb, ps[k]->r[r].lo);
				     iv < nb && bnd[iv] <= ps[k]->r[r].hi; iv++)
					bits[(size_t)iv * nw + j / 64] |= 1ull << (j % 64);
	}
	/* equal sets share a group */
	for (uint32_t iv = 0; iv < nb; iv++) {
		uint64_t *b = &bits[(size_t)iv * nw], h = 14695981039346656037ull;
		uint32_t k;

		for (uint32_t w = 0; w < nw; w++)
			h = (h ^ b[w]) * 1099511628211ull;
		for (k = 0; k < nset; k++)
			if (sets[k].hash == h && !memcmp(sets[k].bits, b, nw * sizeof(uint64_t)))
				break;
		if (k == nset) {
			sets[k].bits = b;
			sets[k].hash = h;
			sets[k].nrules = pg_popcount(b, nw);
			nset++;
		}
		iv_set[iv] = k;
	}
	/* the ports with only `any` rules and the busy services keep their
	 * sets, then the biggest sets; the rest are merged into one */
	for (uint32_t k = 0; k < nset; k++) {
		if (!sets[k].nrules)
			sets[k].keep = 1;
		order[k] = &sets[k];
	}
	for (size_t i = 0; i < nkeep; i++)
		sets[iv_set[pg_interval(bnd, nb, keep[i])]].keep = 1;
	for (uint32_t k = 0; k < nset; k++)
		nkept += (uint32_t)sets[k].keep;
	qsort(order, nset, sizeof(*order), pg_nrules_desc);
	for (uint32_t k = 0; k < nset; k++) {
		PgSet *st = order[k];

		if (st->keep)
			continue;
		if (nkept + 1 < PG_MAX_GROUPS || nkept + 1 == nset) {
			st->keep = 1;
			nkept++;
			continue;
		}
		for (uint32_t w = 0; w < nw; w++)
			rest[w] |= st->bits[w];
	}
	pg->g = calloc(nkept + 1, sizeof(SigGroup));
	pg->map = malloc(65536);
	if (!pg->g || !pg->map)
		goto out;
	pg->owned = 1;
	for (uint32_t k = 0; k <= nset; k++) {
		const uint64_t *b = k < nset ? sets[k].bits : rest;

		if (k < nset && !sets[k].keep)
			continue;
		if (k == nset && nkept == nset)
			break;
		/* every rule of the class, minus the port-specific ones not in b */
		memset(in, 1, de->nsigs);
		for (uint32_t j = 0; j < nspec; j++)
			in[spec[j]] = (uint8_t)((b[j / 64] >> (j % 64)) & 1);
		if (build_group(de, &pg->g[nfinal], pc, dir, in, err, errlen) != 0)
			goto out;
		if (k < nset)
			sets[k].final = nfinal;
		nfinal++;
	}
	pg->ng = nfinal;
	for (uint32_t k = 0; k < nset; k++)
		if (!sets[k].keep)
			sets[k].final = nfinal - 1;
	for (uint32_t iv = 0; iv < nb; iv++) {
		uint32_t end = iv + 1 < nb ? bnd[iv + 1] : 65536;

		memset(pg->map + bnd[iv], (int)sets[iv_set[iv]].final, end - bnd[iv]);
	}
	log_debug("detect: %s/%s: split on %s, %u port-specific rules, %u port intervals, "
		  "%u distinct sets, %u groups", pc == PC_TCP ? "tcp" : "udp",
		  dir ? "toclient" : "toserver", side ? "sp" : "dp", nspec, nb, nset, nfinal);
	rc = 0;
out:
	free(spec);
	free(in);
	free(bnd);
	free(bits);
	free(iv_set);
	free(sets);
	free(order);
	free(rest);
	return rc;
}
