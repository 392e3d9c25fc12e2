/* Signature groups: for each protocol class and direction (and port
 * group, build-portgroups.c), the rules a packet may meet, as one MPM over
 * their payload fast patterns (pattern id -> rules, with each rule's port
 * hull) and the list of rules without one, inspected on every packet
 * behind cheap prechecks. TCP groups with stream rules have two more
 * parts: the streamed-packet and the stream groups. */
#include "detect/build.h"

#include "util/log.h"

#include <stdlib.h>
#include <string.h>

static int fp_same_pattern(const FpEntry *x, const FpEntry *y)
{
	return x->nocase == y->nocase && x->len == y->len && !memcmp(x->pat, y->pat, x->len);
}

/* By pattern, then by rule: each pattern's rules end up in internal order. */
static int fp_cmp(const void *a, const void *b)
{
	const FpEntry *x = a, *y = b;
	int c;

	if (x->nocase != y->nocase)
		return x->nocase - y->nocase;
	if (x->len != y->len)
		return x->len - y->len;
	c = memcmp(x->pat, y->pat, x->len);
	if (c)
		return c;
	return x->num < y->num ? -1 : x->num > y->num;
}

int detect_group_mpm_build(DetectEngine *de, SigGroup *g, FpEntry *fp, uint32_t nfp,
			   enum mpm_algo algo, char *err, size_t errlen)
{
	uint32_t pid = 0;

	qsort(fp, nfp, sizeof(*fp), fp_cmp);
	g->pid_off = calloc(nfp + 1, sizeof(uint32_t));
	g->pid_sigs = calloc(nfp, sizeof(uint32_t));
	g->pid_ports = calloc(nfp, sizeof(*g->pid_ports));
	g->mpm = mpm_new(algo);
	if (g->mpm)
		mpm_set_sets_only(g->mpm);   /* the groups only prefilter */
	if (!g->pid_off || !g->pid_sigs || !g->pid_ports || !g->mpm) {
		snprintf(err, errlen, "detect: cannot create the %s matcher", mpm_algo_name(algo));
		return -1;
	}
	for (uint32_t i = 0; i < nfp; i++) {
		if (i == 0 || !fp_same_pattern(&fp[i], &fp[i - 1])) {
			/* the pattern's bound: the loosest of its rules' */
			uint32_t bound = fp[i].bound;

			for (uint32_t j = i + 1; bound && j < nfp && fp_same_pattern(&fp[j], &fp[i]); j++)
				bound = fp[j].bound > bound || !fp[j].bound ? fp[j].bound : bound;
			if (i)
				pid++;
			g->pid_off[pid] = i;
			if (mpm_add_pattern_bounded(g->mpm, fp[i].pat, fp[i].len, pid, fp[i].nocase,
						    bound) != 0) {
				snprintf(err, errlen, "detect: cannot add a fast pattern to the matcher");
				return -1;
			}
		}
		g->pid_sigs[i] = fp[i].num;
		g->pid_ports[i][0] = g->pid_ports[i][2] = 0;
		g->pid_ports[i][1] = g->pid_ports[i][3] = 65535;
	}
	g->npids = pid + 1;
	g->pid_off[g->npids] = nfp;
	if (mpm_prepare(g->mpm, err, errlen) != 0)
		return -1;
	if (g->npids > de->max_pid)
		de->max_pid = g->npids;
	return 0;
}

/* The usable fast pattern of a rule in the payload buffer, or NULL: rules
 * whose fast pattern is negated, or lives in a buffer we do not inspect,
 * are inspected on every packet of their group. */
static const DetectContent *payload_fp(const Signature *s, const uint8_t **pat, uint16_t *len)
{
	return sig_fp_usable(s, BUF_PAYLOAD, BUF_PAYLOAD + 1, pat, len);
}

/* Where a payload fast pattern can end at the latest, from the start of
 * the buffer it is inspected in (inspect.c content_step): its content's
 * depth, when that is a number and the content is not relative. 0: no
 * bound. */
static uint32_t payload_fp_bound(const DetectContent *cd)
{
	if (!(cd->flags & CONTENT_DEPTH) ||
	    (cd->flags & (CONTENT_DISTANCE | CONTENT_WITHIN | CONTENT_DEPTH_VAR | CONTENT_OFFSET_VAR)))
		return 0;
	return cd->depth > 0 ? (uint32_t)cd->depth : 0;
}

static void group_port_hulls(const DetectEngine *de, SigGroup *g, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		const Signature *s = de->sigs[g->pid_sigs[i]].s;
		uint16_t *h = g->pid_ports[i];

		h[0] = h[2] = 0;
		h[1] = h[3] = 65535;
		/* <> swaps sides: no cheap filter */
		if (s->flags & SIG_FLAG_BIDIR)
			continue;
		portset_hull(&s->sp, &h[0], &h[1]);
		portset_hull(&s->dp, &h[2], &h[3]);
	}
}

enum { GB_ALL = 0, GB_STREAMED_PKT, GB_STREAM };

static int cmp_always_gate(const void *x, const void *y)
{
	const SigPrecheck *a = x, *b = y;
	uint32_t ga = always_gate_of(a), gb = always_gate_of(b);

	if (ga != gb)
		return ga < gb ? -1 : 1;
	return a->num < b->num ? -1 : a->num > b->num;
}

/* The group's rules without a fast pattern (al, by num), with their
 * prechecks, grouped by gate (always_gate_of), rule order within one. */
static int group_always(const DetectEngine *de, SigGroup *g, const uint32_t *al, uint32_t nal)
{
	g->always = calloc(nal ? nal : 1, sizeof(*g->always));
	if (!g->always)
		return -1;
	for (uint32_t k = 0; k < nal; k++) {
		SigPrecheck *c = &g->always[k];

		inspect_precheck_build(de->sigs[al[k]].s, c);
		/* detect_inspect_sig's first test of such a rule */
		if (de->sigs[al[k]].need_alproto)
			c->alproto = (uint16_t)de->sigs[al[k]].s->alproto;
		c->num = al[k];
		c->iponly = de->sigs[al[k]].iponly;
		g->always_at[always_gate_of(c) + 1]++;
	}
	qsort(g->always, nal, sizeof(*g->always), cmp_always_gate);
	for (uint32_t k = 1; k <= ALWAYS_GATES; k++)
		g->always_at[k] += g->always_at[k - 1];
	g->nalways = nal;
	return 0;
}

/* in: NULL, or which rules (by num) of the class and direction to take.
 * mode GB_STREAMED_PKT: only the fast patterns of the rules that still
 * inspect a packet whose payload went into the stream (see inspect_sig);
 * GB_STREAM: of the rules that inspect the stream; no always list. */
static int group_build_one(DetectEngine *de, SigGroup *g, int pc, int dir, const uint8_t *in,
			   int mode, char *err, size_t errlen)
{
	FpEntry *fp = NULL;
	uint32_t nfp = 0, nal = 0, *al = NULL;
	int rc = -1;

	fp = calloc(de->nsigs ? de->nsigs : 1, sizeof(*fp));
	al = malloc(sizeof(*al) * (de->nsigs ? de->nsigs : 1));
	if (!fp || !al)
		goto out;
	for (uint32_t i = 0; i < de->nsigs; i++) {
		const Signature *s = de->sigs[i].s;
		const DetectContent *cd;
		const uint8_t *pat;
		uint16_t len;

		if (de->sigs[i].is_tx || de->sigs[i].has_frame)
			continue;
		if (!(sig_pc_mask(s) & (1u << pc)) || !(sig_dir_mask(s) & (1u << dir)))
			continue;
		if (in && !in[i])
			continue;
		cd = payload_fp(s, &pat, &len);
		if (mode == GB_STREAMED_PKT && (!cd || !de->sigs[i].pkt_streamed_ok))
			continue;
		if (mode == GB_STREAM && (!cd || !de->sigs[i].stream_ok))
			continue;
		if (!cd) {
			al[nal++] = i;
			continue;
		}
		fp[nfp].pat = pat;
		fp[nfp].len = len;
		fp[nfp].nocase = !!(cd->flags & CONTENT_NOCASE);
		fp[nfp].num = i;
		/* a buffer's start is the packet's or the stream window's, but
		 * inline a TCP packet is prefiltered in a window that may start
		 * before it (inline_window) */
		if (!(pc == PC_TCP && de->cfg.stream_inline))
			fp[nfp].bound = payload_fp_bound(cd);
		nfp++;
	}
	if (group_always(de, g, al, nal) != 0)
		goto out;
	if (!nfp) {
		rc = 0;
		goto out;
	}
	if (detect_group_matcher_build(de, g, fp, nfp, err, errlen) != 0)
		goto out;
	group_port_hulls(de, g, nfp);
	rc = 0;
out:
	free(al);
	free(fp);
	return rc;
}

/* ac-cuda with Hyperscan in the build: the CPU's matcher of a group is hs
 * (the payloads the device does not take, the stream ends no device scan
 * covers, every transaction buffer), and the device's id source is an
 * ac-cuda automaton of the same patterns and pids. */
static int ac_cuda_cpu_hs(const DetectEngine *de)
{
	return de->cfg.algo == MPM_AC_CUDA && mpm_have_hs();
}

int detect_group_matcher_build(DetectEngine *de, SigGroup *g, FpEntry *fp, uint32_t nfp,
			       char *err, size_t errlen)
{
	SigGroup shadow = { 0 };
	int rc;

	if (!ac_cuda_cpu_hs(de))
		return detect_group_mpm_build(de, g, fp, nfp, de->cfg.algo, err, errlen);
	if (detect_group_mpm_build(de, g, fp, nfp, MPM_HS, err, errlen) != 0)
		return -1;
	rc = detect_group_mpm_build(de, &shadow, fp, nfp, MPM_AC_CUDA, err, errlen);
	g->mpm_ac = shadow.mpm;
	shadow.mpm = NULL;
	detect_group_free(&shadow);
	return rc;
}

void detect_group_drop_ac(SigGroup *g)
{
	if (g->ps)
		detect_group_drop_ac(g->ps);
	if (g->ss)
		detect_group_drop_ac(g->ss);
	if (g->mpm_ac)
		mpm_free(g->mpm_ac);
	g->mpm_ac = NULL;
}

void detect_groups_drop_ac(DetectEngine *de)
{
	for (int pc = 0; pc < PC_MAX; pc++)
		for (int d = 0; d < 2; d++) {
			PortGroups *pg = &de->pg[pc][d];

			detect_group_drop_ac(&de->groups[pc][d]);
			for (uint32_t k = 0; pg->owned && k < pg->ng; k++)
				detect_group_drop_ac(&pg->g[k]);
		}
	tx_groups_drop_ac(de);
}

int build_group(DetectEngine *de, SigGroup *g, int pc, int dir, const uint8_t *in,
		char *err, size_t errlen)
{
	if (group_build_one(de, g, pc, dir, in, GB_ALL, err, errlen) != 0)
		return -1;
	if (pc != PC_TCP || !de->uses_stream)
		return 0;
	g->ps = calloc(1, sizeof(*g->ps));
	g->ss = calloc(1, sizeof(*g->ss));
	if (!g->ps || !g->ss)
		return -1;
	if (group_build_one(de, g->ps, pc, dir, in, GB_STREAMED_PKT, err, errlen) != 0)
		return -1;
	return group_build_one(de, g->ss, pc, dir, in, GB_STREAM, err, errlen);
}

void detect_group_free(SigGroup *g)
{
	if (g->ps) {
		detect_group_free(g->ps);
		free(g->ps);
	}
	if (g->ss) {
		detect_group_free(g->ss);
		free(g->ss);
	}
	free(g->pid_ports);
	if (g->mpm)
		mpm_free(g->mpm);
	if (g->mpm_ac)
		mpm_free(g->mpm_ac);
	free(g->pid_off);
	free(g->pid_sigs);
	free(g->always);
}

static void group_sidx(SigGroup *g, uint32_t *sidx)
{
	g->sidx = (*sidx)++;
	if (g->ps)
		g->ps->sidx = (*sidx)++;
	if (g->ss)
		g->ss->sidx = (*sidx)++;
}

/* Whether a protocol class is split into port groups for this matcher.
 * ac automata are cheap to build: TCP and UDP are split. A Hyperscan
 * database takes ~0.05-0.25 s to compile, so hs splits only where the
 * scan gains: UDP, whose port-specific rules bring 1-byte fast patterns
 * (`content:"a"; depth:1` for ports 6892-6893) that hit on every DNS
 * packet of the class-wide group; split, the UDP groups' share of hs_scan
 * on bench-1x fell from 146M to ~40M cycles for +0.23 s of compile time.
 * Splitting TCP too cost +2.7 s of compile and gained nothing measurable
 * (its busy groups, port 80/443 streams, keep the same patterns). */
static int groups_split(enum mpm_algo algo, int pc)
{
	if (pc != PC_TCP && pc != PC_UDP)
		return 0;
	if (algo == MPM_HS)
		return pc == PC_UDP;
	return 1;
}

int build_groups(DetectEngine *de, char *err, size_t errlen)
{
	uint32_t sidx = 0;

	for (int pc = 0; pc < PC_MAX; pc++)
		for (int d = 0; d < 2; d++) {
			PortGroups *pg = &de->pg[pc][d];
			SigGroup *cg = &de->groups[pc][d];
			/* hs's split where hs is the CPU's matcher (ac-cuda too) */
			int split = groups_split(ac_cuda_cpu_hs(de) ? MPM_HS : de->cfg.algo, pc);

			/* ac-cuda's union automata map class-wide pattern ids,
			 * so it has the class-wide group too (the GPU's id
			 * space, its stream windows), and the port groups for
			 * the rest (the always lists, payloads left to the CPU) */
			if ((!split || de->cfg.algo == MPM_AC_CUDA) &&
			    build_group(de, cg, pc, d, NULL, err, errlen) != 0)
				return -1;
			if (!split) {
				pg->g = cg;
				pg->ng = 1;
			} else if (build_port_groups(de, pc, d, err, errlen) != 0) {
				return -1;
			}
			for (uint32_t k = 0; k < pg->ng; k++)
				group_sidx(&pg->g[k], &sidx);
			if (split && de->cfg.algo == MPM_AC_CUDA)
				group_sidx(cg, &sidx);
		}
	de->nscratch = sidx;
	return 0;
}

void build_groups_free(DetectEngine *de)
{
	for (int pc = 0; pc < PC_MAX; pc++)
		for (int d = 0; d < 2; d++) {
			PortGroups *pg = &de->pg[pc][d];

			if (pg->owned) {
				for (uint32_t k = 0; k < pg->ng; k++)
					detect_group_free(&pg->g[k]);
				free(pg->g);
			}
			free(pg->map);
			detect_group_free(&de->groups[pc][d]);
		}
}

void build_groups_log(const DetectEngine *de)
{
	static const char *const pc_name[PC_MAX] = { "tcp", "udp", "icmp", "other" };

	for (int pc = 0; pc < PC_MAX; pc++)
		for (int d = 0; d < 2; d++)
			for (uint32_t k = 0; k < de->pg[pc][d].ng; k++)
				log_debug("detect: group %s/%s #%u: %u fast patterns, %u rules "
					  "always inspected", pc_name[pc],
					  d ? "toclient" : "toserver", k, de->pg[pc][d].g[k].npids,
					  de->pg[pc][d].g[k].nalways);
}
