/* Detection engine: build (ordering, signature groups, one MPM per group and
 * buffer), per-thread scratch, and the per-packet driver
 * (prefilter -> sorted candidates -> full inspection -> alert queue). */
#include "detect/engine-int.h"
#include "app-layer/frames.h"
#include "detect/prefilter-gpu.h"
#include "detect/state-hash.h"
#include "conf/conf.h"
#include "detect/detect-int.h"
#include "app-layer/app-layer.h"
#include "stream/stream.h"
#include "output/alert.h"
#include "util/log.h"

#include <arpa/inet.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static counter_id c_alert, c_overflow, c_suppressed;
/* counters_generation() of the registration, not a flag: a process that
 * runs the engine again after counters_destroy() (the fuzz harnesses)
 * must register again, or the ids are stale */
static unsigned counters_done;

void detect_register_counters(void)
{
	if (counters_done == counters_generation())
		return;
	c_alert = counter_register("detect.alert");
	c_overflow = counter_register("detect.alert_queue_overflow");
	c_suppressed = counter_register("detect.alerts_suppressed");
	detect_state_register_counters();
	counters_done = counters_generation();
}

static counter_id c_scan[SCAN_MAX][2];
static unsigned scan_counters_done; /* generation, as counters_done */

void detect_scan_counters_register(void)
{
	static const char *const names[SCAN_MAX][2] = {
		{ "mpm.cuda.scan.packet_cpu", "mpm.cuda.scan.packet_gpu" },
		{ "mpm.cuda.scan.stream_cpu", "mpm.cuda.scan.stream_gpu" },
		{ "mpm.cuda.scan.http_cpu", "mpm.cuda.scan.http_gpu" },
	};

	if (scan_counters_done == counters_generation())
		return;
	for (int c = 0; c < SCAN_MAX; c++)
		for (int g = 0; g < 2; g++)
			c_scan[c][g] = counter_register(names[c][g]);
	scan_counters_done = counters_generation();
}

void detect_scan_count_add(DetectThread *dt, int cls, int gpu, uint64_t bytes)
{
	if (scan_counters_done == counters_generation() && bytes)
		counter_add(dt->tc, c_scan[cls][gpu ? 1 : 0], bytes);
}

/* ---- config ---- */

/* The inline window sizes, from the stream section (the mode is the caller's). */
static int stream_detect_config(DetectConfig *cfg, char *err, size_t errlen)
{
	static const char *const keys[2] = { "stream.reassembly.toserver-chunk-size",
					     "stream.reassembly.toclient-chunk-size" };
	for (int d = 0; d < 2; d++) {
		uint64_t v = 2560;

		if (conf_get_size(keys[d], &v) < 0 || v < 1 || v > UINT16_MAX) {
			snprintf(err, errlen, "%s: must be a size 1..65535", keys[d]);
			return -1;
		}
		cfg->chunk_size[d] = (uint32_t)v;
	}
	return 0;
}

/* One cross-flow table's rows and memcap (prefix "detect.thresholds" or
 * "host"): a bad value stops the start with one line naming the key. */
static int state_table_config(const char *prefix, uint32_t *rows, uint64_t *memcap,
			      char *err, size_t errlen)
{
	char key[64];
	const char *v;
	uint64_t n;

	snprintf(key, sizeof(key), "%s.hash-size", prefix);
	v = conf_get(key);
	if (v) {
		if (parse_u64(v, &n) != 0 || n < 1 || n > (1 << 24)) {
			snprintf(err, errlen, "%s: must be a number 1..16777216", key);
			return -1;
		}
		*rows = (uint32_t)n;
	}
	snprintf(key, sizeof(key), "%s.memcap", prefix);
	v = conf_get(key);
	if (v && parse_size(v, memcap) < 0) {
		snprintf(err, errlen, "%s: invalid size '%s'", key, v);
		return -1;
	}
	if (*memcap < state_hash_array_cost(*rows)) {
		snprintf(err, errlen, "%s: %llu bytes is below the %llu its hash table of %u rows "
			 "needs: raise it or lower %s.hash-size", key,
			 (unsigned long long)*memcap,
			 (unsigned long long)state_hash_array_cost(*rows), *rows, prefix);
		return -1;
	}
	return 0;
}

int detect_config_load(DetectConfig *cfg, char *err, size_t errlen)
{
	const char *algo = conf_get("mpm-algo");
	int64_t max = DETECT_ALERT_MAX_DEFAULT;

	memset(cfg, 0, sizeof(*cfg));
	cfg->alert_max = DETECT_ALERT_MAX_DEFAULT;
	if (!algo)
		algo = "auto";
	/* ac-cuda: the groups are ac automata (the CPU fallback); main.c
	 * checks the runmode and the device and starts prefilter-gpu.c */
	/* Suricata spells its own ac variants ac-bs / ac-ks: all map to ours */
	if (!strcmp(algo, "ac-bs") || !strcmp(algo, "ac-ks"))
		algo = "ac";
	if (mpm_algo_parse(algo, &cfg->algo) != 0) {
		snprintf(err, errlen, "mpm-algo: %s", mpm_algo_error(algo));
		return -1;
	}
	if (conf_get("packet-alert-max")) {
		if (conf_get_int("packet-alert-max", &max) < 0 || max < 1 || max > 65535) {
			snprintf(err, errlen, "packet-alert-max: must be a number 1..65535");
			return -1;
		}
	}
	cfg->alert_max = (uint32_t)max;
	cfg->threshold_file = conf_get("threshold-file");
	/* until the stream engine exists, its midstream switch is read here */
	if (conf_get("stream.midstream"))
		conf_get_bool("stream.midstream", &cfg->midstream);
	cfg->thr_hash_size = 16384;
	cfg->thr_memcap = 16ull << 20;
	cfg->host_hash_size = 4096;
	cfg->host_memcap = 32ull << 20;
	if (state_table_config("detect.thresholds", &cfg->thr_hash_size, &cfg->thr_memcap, err,
			       errlen) != 0 ||
	    state_table_config("host", &cfg->host_hash_size, &cfg->host_memcap, err, errlen) != 0)
		return -1;
	return stream_detect_config(cfg, err, errlen);
}

/* ---- ordering ---- */

/* Suricata's order: action (pass, drop, reject, alert), flowbits (setters,
 * set+read, not used, readers), flowint likewise, priority, then load order. */
typedef struct SortKey {
	Signature *s;
	int action, fb, fi, prio, idx;
} SortKey;

static int action_rank(enum sig_action a)
{
	switch (a) {
	case ACT_PASS: return 0;
	case ACT_DROP: return 1;
	case ACT_REJECT: case ACT_REJECTSRC: case ACT_REJECTDST: case ACT_REJECTBOTH: return 2;
	default: return 3;
	}
}

static int var_kw(int have, int kw)
{
	/* hostbits order like flowbits */
	return have == kw || (kw == KW_FLOWBITS && have == KW_HOSTBITS);
}

static int var_rank(const Signature *s, int kw)
{
	int set = 0, read = 0;

	for (int i = 0; i < s->lists[SM_LIST_POSTMATCH].n; i++)
		if (var_kw(s->lists[SM_LIST_POSTMATCH].m[i].kw, kw))
			set = 1;
	for (int i = 0; i < s->lists[SM_LIST_MATCH].n; i++)
		if (var_kw(s->lists[SM_LIST_MATCH].m[i].kw, kw))
			read = 1;
	if (set && !read)
		return 0;
	if (set && read)
		return 1;
	if (read)
		return 3;
	return 2;
}

static int key_cmp(const void *a, const void *b)
{
	const SortKey *x = a, *y = b;

	if (x->action != y->action)
		return x->action - y->action;
	if (x->fb != y->fb)
		return x->fb - y->fb;
	if (x->fi != y->fi)
		return x->fi - y->fi;
	if (x->prio != y->prio)
		return x->prio - y->prio;
	return x->idx - y->idx;
}

/* ---- names -> ids ---- */

static int name_id(char ***names, int *n, const char *name)
{
	char **v;

	for (int i = 0; i < *n; i++)
		if (!strcmp((*names)[i], name))
			return i;
	v = realloc(*names, (*n + 1) * sizeof(*v));
	if (!v)
		return -1;
	*names = v;
	v[*n] = strdup(name);
	if (!v[*n])
		return -1;
	return (*n)++;
}

static int resolve_vars(DetectEngine *de, Signature *s)
{
	for (int l = SM_LIST_MATCH; l <= SM_LIST_POSTMATCH; l++) {
		SigMatchList *ml = &s->lists[l];

		for (int i = 0; i < ml->n; i++) {
			if (ml->m[i].kw == KW_FLOWBITS || ml->m[i].kw == KW_HOSTBITS) {
				DetectFlowbits *fb = ml->m[i].ctx;
				int host = ml->m[i].kw == KW_HOSTBITS;

				if (!fb->ids) {
					fb->ids = calloc(fb->n ? fb->n : 1, sizeof(int));
					if (!fb->ids)
						return -1;
				}
				for (int k = 0; k < fb->n; k++)
					if ((fb->ids[k] = host ?
					     name_id(&de->hb_names, &de->nhb, fb->names[k]) :
					     name_id(&de->fb_names, &de->nfb, fb->names[k])) < 0)
						return -1;
			} else if (ml->m[i].kw == KW_FLOWINT) {
				DetectFlowint *fi = ml->m[i].ctx;

				fi->id = name_id(&de->fi_names, &de->nfi, fi->name);
				fi->var_id = fi->value_var ?
					name_id(&de->fi_names, &de->nfi, fi->value_var) : 0;
				if (fi->id < 0 || fi->var_id < 0)
					return -1;
			}
		}
	}
	return 0;
}

/* ---- per signature properties ---- */

static uint8_t alert_action(enum sig_action a)
{
	switch (a) {
	case ACT_PASS: return ALERT_ACTION_PASS;
	case ACT_DROP: return ALERT_ACTION_DROP;
	case ACT_ALERT: return ALERT_ACTION_ALERT;
	default: return ALERT_ACTION_REJECT;
	}
}

/* Suricata's ip-only: addresses and protocol only, no ports, no keywords
 * that inspect the packet. Evaluated on the first packet of each flow
 * direction (and on every packet that has no flow). */
static int is_iponly(const Signature *s)
{
	if (!s->sp.any || !s->dp.any || s->alproto != ALPROTO_UNKNOWN)
		return 0;
	for (int l = 0; l < SM_LIST_MAX; l++) {
		if (l == SM_LIST_POSTMATCH || l == SM_LIST_THRESHOLD)
			continue;
		if (s->lists[l].n)
			return 0;
	}
	for (int i = 0; i < s->lists[SM_LIST_POSTMATCH].n; i++)
		if (s->lists[SM_LIST_POSTMATCH].m[i].kw != KW_FLOWBITS)
			return 0;
	return !(s->flags & (SIG_FLAG_SAMEIP | SIG_FLAG_TOSERVER | SIG_FLAG_TOCLIENT));
}

static int build_meta(DetectSig *ds, const Signature *s)
{
	size_t total = 0;
	char *p;

	if (!s->nmeta)
		return 0;
	for (int i = 0; i < s->nmeta; i++)
		total += strlen(s->meta[i].key) + 1 + (s->meta[i].value ? strlen(s->meta[i].value) : 0) + 1;
	ds->meta_buf = malloc(total);
	ds->metadata = calloc(s->nmeta, sizeof(char *));
	if (!ds->meta_buf || !ds->metadata)
		return -1;
	p = ds->meta_buf;
	for (int i = 0; i < s->nmeta; i++) {
		int n = sprintf(p, "%s%s%s", s->meta[i].key, s->meta[i].value ? " " : "",
				s->meta[i].value ? s->meta[i].value : "");

		ds->metadata[i] = p;
		p += n + 1;
	}
	ds->nmeta = s->nmeta;
	return 0;
}

/* Protocol classes a rule may meet. */
static unsigned sig_pc_mask(const Signature *s)
{
	switch (s->proto) {
	case SIG_PROTO_IP: return (1u << PC_MAX) - 1;
	case IPPROTO_TCP: return 1u << PC_TCP;
	case IPPROTO_UDP: return 1u << PC_UDP;
	case IPPROTO_ICMP: case IPPROTO_ICMPV6: return 1u << PC_ICMP;
	}
	return 1u << PC_OTHER;
}

/* Directions (bit 0 toserver, bit 1 toclient) a rule may meet. */
static unsigned sig_dir_mask(const Signature *s)
{
	unsigned m = 3;

	for (int i = 0; i < s->lists[SM_LIST_MATCH].n; i++) {
		const SigMatch *sm = &s->lists[SM_LIST_MATCH].m[i];

		if (sm->kw != KW_FLOW)
			continue;
		if (((DetectFlow *)sm->ctx)->flags & FLOW_TOSERVER)
			m &= 1;
		if (((DetectFlow *)sm->ctx)->flags & FLOW_TOCLIENT)
			m &= 2;
	}
	return m;
}

/* ---- groups ---- */

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
	const DetectContent *cd;

	if (s->fp_list != BUF_PAYLOAD || s->fp_idx < 0)
		return NULL;
	cd = s->lists[BUF_PAYLOAD].m[s->fp_idx].cd;
	if (cd->flags & CONTENT_NEGATED)
		return NULL;
	*pat = cd->pat;
	*len = cd->len;
	if (cd->flags & CONTENT_FP_CHOP) {
		*pat = cd->pat + cd->fp_chop_offset;
		*len = cd->fp_chop_len;
	}
	return *len ? cd : NULL;
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

/* in: NULL, or which rules (by num) of the class and direction to take.
 * mode GB_STREAMED_PKT: only the fast patterns of the rules that still
 * inspect a packet whose payload went into the stream (see inspect_sig);
 * GB_STREAM: of the rules that inspect the stream; no always list. */
static int cmp_always_gate(const void *x, const void *y)
{
	const SigPrecheck *a = x, *b = y;
	uint32_t ga = always_gate_of(a), gb = always_gate_of(b);

	if (ga != gb)
		return ga < gb ? -1 : 1;
	return a->num < b->num ? -1 : a->num > b->num;
}

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

		if (de->sigs[i].has_http || de->sigs[i].has_frame)
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
	g->always = calloc(nal ? nal : 1, sizeof(*g->always));
	if (!g->always)
		goto out;
	for (uint32_t k = 0; k < nal; k++) {
		SigPrecheck *c = &g->always[k];

		inspect_precheck_build(de->sigs[al[k]].s, c);
		c->num = al[k];
		c->iponly = de->sigs[al[k]].iponly;
		g->always_at[always_gate_of(c) + 1]++;
	}
	/* by gate (always_gate_of), rule order within one */
	qsort(g->always, nal, sizeof(*g->always), cmp_always_gate);
	for (uint32_t k = 1; k <= ALWAYS_GATES; k++)
		g->always_at[k] += g->always_at[k - 1];
	g->nalways = nal;
	if (!nfp) {
		rc = 0;
		goto out;
	}
	if (detect_group_mpm_build(de, g, fp, nfp, de->cfg.algo, err, errlen) != 0)
		goto out;
	group_port_hulls(de, g, nfp);
	rc = 0;
out:
	free(al);
	free(fp);
	return rc;
}

/* The group, and for TCP with stream rules its streamed-packet and
 * stream parts. */
static int group_build(DetectEngine *de, SigGroup *g, int pc, int dir, const uint8_t *in,
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

static void group_free(SigGroup *g)
{
	if (g->ps) {
		group_free(g->ps);
		free(g->ps);
	}
	if (g->ss) {
		group_free(g->ss);
		free(g->ss);
	}
	free(g->pid_ports);
	if (g->mpm)
		mpm_free(g->mpm);
	free(g->pid_off);
	free(g->pid_sigs);
	free(g->always);
}

/* ---- port groups ---- */

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
static int pg_build(DetectEngine *de, int pc, int dir, char *err, size_t errlen)
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
		rc = group_build(de, &pg->g[0], pc, dir, NULL, err, errlen);
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
		if (group_build(de, &pg->g[nfinal], pc, dir, in, err, errlen) != 0)
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

/* Builds de->pg (and the unsplit de->groups where they are used). */
static int groups_build(DetectEngine *de, char *err, size_t errlen)
{
	uint32_t sidx = 0;

	for (int pc = 0; pc < PC_MAX; pc++)
		for (int d = 0; d < 2; d++) {
			PortGroups *pg = &de->pg[pc][d];
			SigGroup *cg = &de->groups[pc][d];
			int split = groups_split(de->cfg.algo, pc);

			/* ac-cuda's union automata map class-wide pattern ids,
			 * so it has the class-wide group too (the GPU's id
			 * space, its stream windows), and the port groups for
			 * the rest (the always lists, payloads left to the CPU) */
			if ((!split || de->cfg.algo == MPM_AC_CUDA) &&
			    group_build(de, cg, pc, d, NULL, err, errlen) != 0)
				return -1;
			if (!split) {
				pg->g = cg;
				pg->ng = 1;
			} else if (pg_build(de, pc, d, err, errlen) != 0) {
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

static void groups_free(DetectEngine *de)
{
	for (int pc = 0; pc < PC_MAX; pc++)
		for (int d = 0; d < 2; d++) {
			PortGroups *pg = &de->pg[pc][d];

			if (pg->owned) {
				for (uint32_t k = 0; k < pg->ng; k++)
					group_free(&pg->g[k]);
				free(pg->g);
			}
			free(pg->map);
			group_free(&de->groups[pc][d]);
		}
}

/* The group of p's class and direction d for p's port on the key side. */
static const SigGroup *pkt_group(const DetectEngine *de, int pc, int d, const Packet *p)
{
	const PortGroups *pg = &de->pg[pc][d];

	if (!pg->map)
		return &pg->g[0];
	return &pg->g[pg->map[pg->side ? p->sp : p->dp]];
}

/* Which of a TCP packet's payload and its reassembled stream a rule
 * inspects, decided once here as Suricata decides it (its need_packet and
 * need_stream flags):
 * - tcp-pkt, flow:no_stream and dsize ask for the packet; tcp-stream and
 *   flow:only_stream for the stream alone (no fallback to the packet);
 * - any other rule with payload keywords that may see TCP is a stream rule,
 *   and a packet rule too when one of its payload contents is anchored
 *   (depth, offset, startswith) or it has stream_size: an anchor means the
 *   start of a message, which may well start a packet in mid-stream.
 * Such a rule inspects the stream first and, when that does not match on
 * this packet, the packet's own payload (detect_packet). */
static void sig_stream_setup(DetectEngine *de, DetectSig *ds)
{
	const Signature *s = ds->s;
	uint32_t fl = 0;
	int need_packet = 0, need_stream = 0, stream_only = 0, anchored = 0, tcp;

	for (int i = 0; i < s->lists[SM_LIST_MATCH].n; i++) {
		const SigMatch *sm = &s->lists[SM_LIST_MATCH].m[i];

		if (sm->kw == KW_FLOW)
			fl |= ((const DetectFlow *)sm->ctx)->flags;
		else if (sm->kw == KW_DSIZE)
			need_packet = 1;
		else if (sm->kw == KW_STREAM_SIZE)
			anchored = 1;
	}
	for (int i = 0; i < s->lists[BUF_PAYLOAD].n; i++) {
		const SigMatch *sm = &s->lists[BUF_PAYLOAD].m[i];

		if (sm->kw == KW_CONTENT && (sm->cd->flags & (CONTENT_DEPTH | CONTENT_OFFSET)))
			anchored = 1;
	}
	if ((s->flags & SIG_FLAG_TCP_PKT) || (fl & FLOW_NO_STREAM))
		need_packet = 1;
	if ((s->flags & SIG_FLAG_TCP_STREAM) || (fl & FLOW_ONLY_STREAM))
		need_stream = stream_only = 1;
	tcp = s->proto == IPPROTO_TCP || s->proto == SIG_PROTO_IP;
	if (tcp && ds->has_payload && !need_packet && !need_stream) {
		need_stream = 1;
		need_packet = anchored;
	}
	ds->pkt_ok = !stream_only;
	ds->stream_ok = !ds->has_http && ds->has_payload && tcp && need_stream;
	ds->pkt_streamed_ok = ds->pkt_ok && (!ds->stream_ok || need_packet);
	if (ds->iponly)
		ds->sig_type = SIG_TYPE_IPONLY;
	else if (ds->has_http)
		ds->sig_type = SIG_TYPE_APP_TX;
	else if (ds->has_payload && ds->stream_ok)
		ds->sig_type = ds->pkt_streamed_ok ? SIG_TYPE_PKT_STREAM : SIG_TYPE_STREAM;
	else if (!ds->has_payload && (ds->need_alproto || (s->flags & SIG_FLAG_APPLAYER)))
		ds->sig_type = SIG_TYPE_APPLAYER;
	else
		ds->sig_type = SIG_TYPE_PKT;
	ds->need_packet = (uint8_t)need_packet;
	ds->need_stream = (uint8_t)need_stream;
	/* a TCP transaction rule's payload content reads the raw stream
	 * (tx-inspect.c: tx_payload_match), which must then be kept */
	if (ds->stream_ok || (ds->has_http && ds->has_payload && tcp))
		de->uses_stream = 1;
}

/* Engines of this process, numbered: DetectEngine.gen. */
static _Atomic uint32_t engine_gen;

/* A reload's engine starts from the names of the one it replaces, so that
 * each flowbit, flowint and hostbit keeps its id and the flows' variables
 * their meaning (as Suricata's variable names outlive a reload). Names no
 * rule uses any more keep their id: a few bytes per flow at most. */
static int names_copy(char ***to, int *nto, char *const *from, int nfrom)
{
	for (int i = 0; i < nfrom; i++)
		if (name_id(to, nto, from[i]) != i)
			return -1;
	return 0;
}

DetectEngine *detect_engine_build(SigTable *t, const DetectConfig *cfg, char *err, size_t errlen)
{
	return detect_engine_build_next(t, cfg, NULL, err, errlen);
}

DetectEngine *detect_engine_build_next(SigTable *t, const DetectConfig *cfg,
				       const DetectEngine *prev, char *err, size_t errlen)
{
	DetectEngine *de = calloc(1, sizeof(*de));
	SortKey *keys = NULL;
	int n = t->nsigs;

	if (!de)
		return NULL;
	de->t = t;
	de->cfg = *cfg;
	de->gen = atomic_fetch_add(&engine_gen, 1) + 1;
	if (prev && (names_copy(&de->fb_names, &de->nfb, prev->fb_names, prev->nfb) != 0 ||
		     names_copy(&de->fi_names, &de->nfi, prev->fi_names, prev->nfi) != 0 ||
		     names_copy(&de->hb_names, &de->nhb, prev->hb_names, prev->nhb) != 0))
		goto fail;
	de->thr = threshold_table_new(cfg);
	keys = calloc(n ? n : 1, sizeof(*keys));
	de->sigs = calloc(n ? n : 1, sizeof(*de->sigs));
	if (!de->thr || !keys || !de->sigs)
		goto fail;
	for (int i = 0; i < n; i++) {
		Signature *s = t->sigs[i];

		keys[i] = (SortKey){ s, action_rank(s->action), var_rank(s, KW_FLOWBITS),
				     var_rank(s, KW_FLOWINT), s->priority, i };
		if (resolve_vars(de, s) != 0)
			goto fail;
	}
	qsort(keys, n, sizeof(*keys), key_cmp);
	for (int i = 0; i < n; i++) {
		DetectSig *ds = &de->sigs[i];
		const Signature *s = keys[i].s;

		ds->s = s;
		ds->action = alert_action(s->action);
		ds->iponly = is_iponly(s);
		ds->has_payload = s->lists[BUF_PAYLOAD].n > 0;
		for (int l = 1; l < BUF_IPV4_HDR; l++)
			if (s->lists[l].n)
				ds->has_http = 1;
		for (int l = BUF_IPV4_HDR; l <= BUF_HDR_LAST; l++)
			if (s->lists[l].n)
				ds->has_hdr = 1;
		ds->has_frame = s->has_frame;
		/* `alert http` rules without http buffers are packet rules on
		 * HTTP flows; the others are evaluated on transactions */
		if (app_event_sig_has(s) || ((s->flags & SIG_FLAG_TX_MATCH) && !ds->has_payload) ||
		    sig_has_tx_match(s))
			ds->has_http = 1;
		ds->need_alproto = s->alproto != ALPROTO_UNKNOWN && !ds->has_http;
		sig_stream_setup(de, ds);
		if (ds->has_http) {
			ds->hidx = de->ntx[tx_class(s->alproto)]++;
			de->nhttp++;
			http_sig_setup(ds);
		}
		ds->port_check = !s->sp.any || !s->dp.any;
		ds->is_icmp_any = s->icmp_any;
		if (s->lists[SM_LIST_THRESHOLD].n)
			ds->thr = s->lists[SM_LIST_THRESHOLD].m[0].ctx;
		if (s->classtype) {
			const ClassType *ct = detect_find_class(&t->ctx, s->classtype);

			ds->class_desc = ct ? ct->desc : NULL;
		}
		if (build_meta(ds, s) != 0)
			goto fail;
		if (ds->iponly)
			de->have_iponly = 1;
		if (!de->tags && tag_sig_has_tag(s) && !(de->tags = tag_table_new()))
			goto fail;
	}
	de->nsigs = n;
	for (int i = 0; i < n; i++)
		if (de->sigs[i].has_frame)
			de->nframe++;
	if (de->nframe) {
		uint32_t k = 0;

		if (!(de->frame_sigs = malloc(de->nframe * sizeof(*de->frame_sigs))))
			goto fail;
		for (int i = 0; i < n; i++)
			if (de->sigs[i].has_frame)
				de->frame_sigs[k++] = (uint32_t)i;
	}
	if (de->nhb && !(de->hosts = host_table_new(cfg)))
		goto fail;
	free(keys);
	keys = NULL;
	if (groups_build(de, err, errlen) != 0)
		goto fail;
	if (http_engine_build(de, err, errlen) != 0)
		goto fail;
	for (int pc = 0; pc < PC_MAX; pc++)
		for (int d = 0; d < 2; d++)
			for (uint32_t k = 0; k < de->pg[pc][d].ng; k++)
				log_debug("detect: group %s/%s #%u: %u fast patterns, %u rules "
					  "always inspected",
					  (const char *[]){ "tcp", "udp", "icmp", "other" }[pc],
					  d ? "toclient" : "toserver", k, de->pg[pc][d].g[k].npids,
					  de->pg[pc][d].g[k].nalways);
	if (cfg->threshold_file && threshold_config_load(de, cfg->threshold_file, err, errlen) != 0)
		log_warning("threshold-file: %s", err);
	return de;
fail:
	if (!err[0])
		snprintf(err, errlen, "detect: out of memory building the engine");
	free(keys);
	detect_engine_free(de);
	return NULL;
}

void detect_engine_free(DetectEngine *de)
{
	if (!de)
		return;
	groups_free(de);
	http_engine_free(de);
	free(de->frame_sigs);
	for (uint32_t i = 0; i < de->nsigs; i++) {
		free(de->sigs[i].metadata);
		free(de->sigs[i].meta_buf);
	}
	/* the flowbit id arrays are ours (engine-owned in the parser's struct) */
	for (int i = 0; de->t && i < de->t->nsigs; i++) {
		Signature *s = de->t->sigs[i];

		for (int l = SM_LIST_MATCH; l <= SM_LIST_POSTMATCH; l++)
			for (int k = 0; k < s->lists[l].n; k++)
				if (s->lists[l].m[k].kw == KW_FLOWBITS ||
				    s->lists[l].m[k].kw == KW_HOSTBITS) {
					DetectFlowbits *fb = s->lists[l].m[k].ctx;

					free(fb->ids);
					fb->ids = NULL;
				}
	}
	for (int i = 0; i < de->nfb; i++)
		free(de->fb_names[i]);
	free(de->fb_names);
	for (int i = 0; i < de->nfi; i++)
		free(de->fi_names[i]);
	free(de->fi_names);
	for (int i = 0; i < de->nhb; i++)
		free(de->hb_names[i]);
	free(de->hb_names);
	if (!de->lent_hosts)
		host_table_free(de->hosts);
	if (!de->lent_tags)
		tag_table_free(de->tags);
	threshold_table_free(de->thr);
	free(de->sigs);
	free(de);
}

/* The state that crosses flows and does not name the old engine's
 * internals goes on: hostbits (stable ids, see names_copy), host tags,
 * threshold counts (by gid/sid). Both engines use the tables while the
 * workers move over (they are locked tables); the new one frees them. */
void detect_engine_adopt(DetectEngine *de, DetectEngine *prev)
{
	if (!de || !prev)
		return;
	if (de->hosts && prev->hosts && !prev->lent_hosts) {
		host_table_free(de->hosts);
		de->hosts = prev->hosts;
		prev->lent_hosts = 1;
	}
	if (de->tags && prev->tags && !prev->lent_tags) {
		tag_table_free(de->tags);
		de->tags = prev->tags;
		prev->lent_tags = 1;
	}
	threshold_table_share(de->thr, prev->thr);
}

void detect_engine_reset_state(DetectEngine *de)
{
	if (!de)
		return;
	host_table_clear(de->hosts);
	tag_table_clear(de->tags);
	threshold_table_clear(de->thr);
}

uint32_t detect_engine_gen(const DetectEngine *de)
{
	return de ? de->gen : 0;
}

SigTable *detect_engine_table(const DetectEngine *de)
{
	return de ? de->t : NULL;
}

const DetectConfig *detect_engine_config(const DetectEngine *de)
{
	return &de->cfg;
}

uint32_t detect_engine_sig_count(const DetectEngine *de)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < de->nsigs; i++)
		n++;
	return n;
}

void cand_sort(CandSet *c)
{
	uint32_t *w = c->words;

	/* a handful of words, nearly always: insertion sort */
	for (uint32_t i = 1; i < c->nwords; i++) {
		uint32_t x = w[i], j = i;

		for (; j > 0 && w[j - 1] > x; j--)
			w[j] = w[j - 1];
		w[j] = x;
	}
}

/* ---- threads ---- */

static int group_scratch(DetectThread *dt, const SigGroup *g);

const DetectEngine *detect_thread_engine(const DetectThread *dt)
{
	return dt ? dt->de : NULL;
}

DetectThread *detect_thread_new(const DetectEngine *de, ThreadCounters *tc)
{
	DetectThread *dt = calloc(1, sizeof(*dt));
	if (!dt)
		return NULL;
	dt->de = de;
	dt->tc = tc;
	{
		size_t nw = (de->nsigs + 63) / 64 + 1;

		dt->cand.bits = calloc(nw, sizeof(uint64_t));
		dt->cand.words = calloc(nw, sizeof(uint32_t));
	}
	dt->alerts = calloc(de->cfg.alert_max, sizeof(DetectAlert));
	dt->stream_hit = calloc(de->nsigs ? de->nsigs : 1, sizeof(*dt->stream_hit));
	dt->ms = mpm_matchset_new(de->max_pid ? de->max_pid : 1);
	if (de->gpu) {
		char e[256] = "";

		dt->scov_ids = malloc(SCOV_IDS_MAX * sizeof(*dt->scov_ids));
		/* without it, decompressed bodies are scanned on the CPU */
		dt->gsync = detect_gpu_sync_new(de->gpu, e, sizeof(e));
		if (!dt->gsync && e[0])
			log_warning("ac-cuda: no worker stream (%s): decompressed bodies are "
				    "scanned on the CPU", e);
	}
	dt->md = pcre2_match_data_create(32, NULL);
	/* one MPM scratch per group: Hyperscan sizes scratch by database */
	dt->scratch_g = calloc(de->nscratch ? de->nscratch : 1, sizeof(MpmScratch *));
	if (!dt->scratch_g || (de->gpu && !dt->scov_ids)) {
		detect_thread_free(dt);
		return NULL;
	}
	for (int pc = 0; pc < PC_MAX; pc++)
		for (int d = 0; d < 2; d++) {
			const PortGroups *pg = &de->pg[pc][d];

			for (uint32_t k = 0; k < pg->ng; k++)
				if (group_scratch(dt, &pg->g[k]) != 0) {
					detect_thread_free(dt);
					return NULL;
				}
			/* ac-cuda's class-wide group beside the port groups */
			if (pg->g != &de->groups[pc][d] && de->groups[pc][d].mpm &&
			    group_scratch(dt, &de->groups[pc][d]) != 0) {
				detect_thread_free(dt);
				return NULL;
			}
		}
	if (de->uses_stream && de->cfg.stream_inline) {
		uint32_t c = de->cfg.chunk_size[0] > de->cfg.chunk_size[1] ?
			     de->cfg.chunk_size[0] : de->cfg.chunk_size[1];

		/* a window is at most a chunk, or a packet and a tenth of a chunk */
		dt->win_cap = c + UINT16_MAX + c / 10;
		if (!(dt->win_buf = malloc(dt->win_cap))) {
			detect_thread_free(dt);
			return NULL;
		}
	}
	if (!dt->cand.bits || !dt->cand.words || !dt->alerts || !dt->stream_hit || !dt->ms ||
	    !dt->md || http_thread_init(dt) != 0) {
		detect_thread_free(dt);
		return NULL;
	}
	return dt;
}

static int group_scratch(DetectThread *dt, const SigGroup *g)
{
	if (g->mpm && !(dt->scratch_g[g->sidx] = mpm_scratch_new(g->mpm)))
		return -1;
	if (g->ps && g->ps->mpm && !(dt->scratch_g[g->ps->sidx] = mpm_scratch_new(g->ps->mpm)))
		return -1;
	if (g->ss && g->ss->mpm && !(dt->scratch_g[g->ss->sidx] = mpm_scratch_new(g->ss->mpm)))
		return -1;
	return 0;
}

void detect_thread_set_order(DetectThread *dt, detect_order_fn fn, void *arg)
{
	dt->order_fn = fn;
	dt->order_arg = arg;
}

void detect_thread_free(DetectThread *dt)
{
	if (!dt)
		return;
	http_thread_free(dt);
	free(dt->win_buf);
	free(dt->cand.bits);
	free(dt->cand.words);
	free(dt->alerts);
	free(dt->stream_hit);
	if (dt->ms)
		mpm_matchset_free(dt->ms);
	free(dt->scov_ids);
	ac_cuda_sync_free(dt->gsync);
	if (dt->md)
		pcre2_match_data_free(dt->md);
	for (uint32_t i = 0; dt->scratch_g && i < dt->de->nscratch; i++)
		if (dt->scratch_g[i])
			mpm_scratch_free(dt->scratch_g[i]);
	free(dt->scratch_g);
	free(dt);
}

/* ---- per packet ---- */

static int proto_class(const Packet *p)
{
	switch (p->proto) {
	case IPPROTO_TCP: return PC_TCP;
	case IPPROTO_UDP: return PC_UDP;
	case IPPROTO_ICMP: case IPPROTO_ICMPV6: return PC_ICMP;
	}
	return PC_OTHER;
}

static void queue_alert(DetectThread *dt, const DetectSig *ds, int from_stream)
{
	if (dt->nalerts >= dt->de->cfg.alert_max) {
		counter_inc(dt->tc, c_overflow);
		return;
	}
	dt->alerts[dt->nalerts].s = ds->s;
	dt->alerts[dt->nalerts].num = (uint32_t)(ds - dt->de->sigs);
	dt->alerts[dt->nalerts].action = ds->action;
	dt->alerts[dt->nalerts].from_stream = (uint8_t)from_stream;
	dt->alerts[dt->nalerts].has_tx = (uint8_t)dt->cur_has_tx;
	dt->alerts[dt->nalerts].tx_id = dt->cur_tx;
	dt->alerts[dt->nalerts].data = dt->cur_data;
	dt->alerts[dt->nalerts].data_len = dt->cur_len;
	dt->alerts[dt->nalerts].stream_end = dt->cur_end;
	dt->alerts[dt->nalerts].frame_id = dt->cur_frame;
	dt->alerts[dt->nalerts].frame_dir = (uint8_t)dt->cur_frame_dir;
	dt->nalerts++;
}

/* icmpv4.hdr covers the type's fixed fields, as Suricata sizes it: router
 * advertisements carry their address entries, timestamp and address-mask
 * messages their extra words; the rest is the 8-byte header. */
static uint32_t icmpv4_hdr_len(const Packet *p)
{
	uint32_t avail = (uint32_t)p->l4_hlen + p->payload_len, len = p->l4_hlen;

	switch (p->icmp_type) {
	case 9:
		len = 8 + (uint32_t)p->l4[4] * p->l4[5] * 4;
		break;
	case 13: case 14:
		len = 20;
		break;
	case 17: case 18:
		len = 12;
		break;
	}
	return len > avail ? avail : len;
}

/* The packet header buffers: the bytes of that header when the packet has
 * it; a rule inspecting a header the packet lacks does not match. */
static int hdr_buffer(const Packet *p, int buf, InspectBuffer *b)
{
	b->type = IBUF_PACKET;
	b->data = NULL;
	b->len = 0;
	switch (buf) {
	case BUF_IPV4_HDR:
		if (PKT_IS_IPV4(p) && p->l3) { b->data = p->l3; b->len = p->l3_hlen; }
		break;
	case BUF_IPV6_HDR:
		if (PKT_IS_IPV6(p) && p->l3) { b->data = p->l3; b->len = p->l3_hlen; }
		break;
	case BUF_TCP_HDR:
		if (PKT_IS_TCP(p)) { b->data = p->l4; b->len = p->l4_hlen; }
		break;
	case BUF_UDP_HDR:
		if (PKT_IS_UDP(p)) { b->data = p->l4; b->len = 8; }
		break;
	case BUF_ICMPV4_HDR:
		if (p->proto == IPPROTO_ICMP && p->l4) {
			b->data = p->l4;
			b->len = icmpv4_hdr_len(p);
		}
		break;
	case BUF_ICMPV6_HDR:
		if (p->proto == IPPROTO_ICMPV6 && p->l4) { b->data = p->l4; b->len = p->l4_hlen; }
		break;
	}
	return b->data != NULL;
}

static int inspect_headers(DetectThread *dt, const Signature *s, const Packet *p)
{
	for (int l = BUF_IPV4_HDR; l <= BUF_HDR_LAST; l++) {
		InspectBuffer b;

		if (!s->lists[l].n)
			continue;
		if (!hdr_buffer(p, l, &b) || !inspect_buffer(dt, s, l, &b))
			return 0;
	}
	return 1;
}

/* Returns 1 when the signature matched (whether or not it alerts). */
static int inspect_sig(DetectThread *dt, const DetectSig *ds, Packet *p, int iponly_ok,
		       const InspectBuffer *sb)
{
	const Signature *s = ds->s;
	InspectBuffer b = { p->payload, p->payload_len, IBUF_PACKET };

	if (ds->iponly && !iponly_ok)
		return 0;
	/* tcp-stream rules inspect only the reassembled stream */
	if ((s->flags & SIG_FLAG_TCP_STREAM) && !sb)
		return 0;
	if (ds->need_alproto && (!p->flow || p->flow->app_proto != ds->s->alproto))
		return 0;
	if (ds->has_payload && dt->no_payload)
		return 0;
	if (ds->has_payload) {
		/* A packet whose data went into the stream is inspected there;
		 * its payload alone by the packet rules, and by the stream rules
		 * that are packet rules too when the stream did not match on
		 * this packet (Suricata's fallback) */
		if (sb)
			b = *sb;
		else if (!ds->pkt_ok || (dt->pkt_streamed && !ds->pkt_streamed_ok) ||
			 (ds->stream_ok && dt->stream_hit[ds - dt->de->sigs] == dt->pkt_seq))
			return 0;
	}
	if (!inspect_header(ds, p))
		return 0;
	if (!inspect_match_list(dt, s, p))
		return 0;
	if (ds->has_hdr && !inspect_headers(dt, s, p))
		return 0;
	if (ds->has_payload) {
		if (!inspect_buffer(dt, s, BUF_PAYLOAD, &b))
			return 0;
	}
	return 1;
}

/* Suricata: the pass of an IP-only or app-layer rule passes the whole flow
 * (both directions, every later packet, its stream and transactions):
 * nothing of it is inspected for alerts any more. The pass of a packet or
 * stream rule passes only the packet (the caller stops its rule walk). */
static int flow_passed(const Packet *p)
{
	const DetectFlowState *fs = p->flow ? p->flow->detect : NULL;

	return fs && fs->flow_pass;
}

static void flow_set_pass(const DetectEngine *de, const DetectSig *ds, Packet *p)
{
	DetectFlowState *fs;

	if (!ds->iponly && !ds->has_http && !(ds->s->flags & SIG_FLAG_APPLAYER))
		return;
	if (!p->flow || !(fs = detect_flow_state(de, p->flow, 1)))
		return;
	fs->flow_pass = 1;
}

/* Whether an IPS drop by ds drops the flow as well: Suricata's signature
 * properties (ip-only and app-layer rules act on the flow, packet rules on
 * the packet, stream and packet-and-stream rules on the flow when the match
 * was stateful: on the stream or a transaction). */
static int drop_applies_to_flow(const DetectThread *dt, const DetectSig *ds)
{
	switch (ds->sig_type) {
	case SIG_TYPE_PKT:
		return 0;
	case SIG_TYPE_PKT_STREAM:
	case SIG_TYPE_STREAM:
		/* the data of a session not yet established (a SYN's payload)
		 * is no stream match for Suricata (util-action-tests/04) */
		return (dt->in_stream && dt->pkt_established) || dt->cur_has_tx;
	default:
		return 1;
	}
}

/* IPS: the first drop or reject rule to match decides the packet's verdict
 * (noalert rules too, as Suricata's drop log shows them). */
static void note_drop(DetectThread *dt, const DetectSig *ds)
{
	if (!dt->de->cfg.ips || dt->has_drop ||
	    (ds->action != ALERT_ACTION_DROP && ds->action != ALERT_ACTION_REJECT))
		return;
	dt->has_drop = 1;
	dt->drop_flow = (uint8_t)drop_applies_to_flow(dt, ds);
	dt->drop = (DetectAlert){
		.s = ds->s,
		.num = (uint32_t)(ds - dt->de->sigs),
		.action = ds->action,
		.from_stream = (uint8_t)dt->in_stream,
		.has_tx = (uint8_t)dt->cur_has_tx,
		.tx_id = dt->cur_tx,
		.data = dt->cur_data,
		.data_len = dt->cur_len,
		.stream_end = dt->cur_end,
		.frame_id = dt->cur_frame,
		.frame_dir = (uint8_t)dt->cur_frame_dir,
	};
}

const DetectAlert *detect_packet_drop(const DetectThread *dt, int *flow)
{
	if (flow)
		*flow = dt->has_drop ? dt->drop_flow : 0;
	return dt->has_drop ? &dt->drop : NULL;
}

static void sig_matched(DetectThread *dt, const DetectSig *ds, Packet *p)
{
	DetectEngine *de = (DetectEngine *)dt->de;
	int suppressed = 0;

	/* the pass may have come from this very packet's inspection: its
	 * stream data and transactions are passed too */
	if (flow_passed(p))
		return;
	postmatch_apply(dt, ds->s, p);
	note_drop(dt, ds);
	if (ds->s->flags & SIG_FLAG_NOALERT) {
		if (ds->action == ALERT_ACTION_PASS)
			flow_set_pass(de, ds, p);
		return;
	}
	if (ds->action == ALERT_ACTION_PASS) {
		flow_set_pass(de, ds, p);
		return;
	}
	if (!threshold_check(de, ds, p, &suppressed, dt->order_fn, dt->order_arg, dt->tc)) {
		if (suppressed)
			counter_inc(dt->tc, c_suppressed);
		return;
	}
	tag_apply(dt, ds->s, p);
	queue_alert(dt, ds, dt->in_stream);
}

void detect_sig_matched(DetectThread *dt, const DetectSig *ds, Packet *p)
{
	sig_matched(dt, ds, p);
}

/* Turns p around (addresses, ports, direction flags): stream data and
 * transactions of the other direction are inspected as if p went their way. */
void detect_pkt_swap(Packet *p)
{
	Address a = p->src;
	uint16_t port = p->sp;

	p->src = p->dst;
	p->dst = a;
	p->sp = p->dp;
	p->dp = port;
	if (p->flags & (PKT_TOSERVER | PKT_TOCLIENT))
		p->flags ^= PKT_TOSERVER | PKT_TOCLIENT;
}

/* flow:established as Suricata sees it. TCP: the packet that completes the
 * 3-way handshake is not yet established (the flow's state is read before
 * the stream engine updates it); packets after a RST are not either. Other
 * protocols: once both sides have sent. Updates the tracked TCP state. */
static int flow_established(const DetectEngine *de, DetectFlowState *fs, const Packet *p)
{
	const Flow *f = p->flow;
	int est;

	if (f->proto != IPPROTO_TCP)
		return f->pkts_toserver && f->pkts_toclient;
	/* TCP: the stream engine's view (it knows the handshake, RSTs and
	 * midstream pickups) */
	if (f->stream || (p->stream_flags & STREAM_PKT_HAS_SESSION)) {
		/* as Suricata: the packet that makes the session established
		 * (the handshake's last ACK, a midstream pickup) is not yet */
		int was = fs && fs->tcp_state == TCPS_EST;

		if (!(p->stream_flags & STREAM_PKT_ESTABLISHED))
			return 0;
		if (fs)
			fs->tcp_state = TCPS_EST;
		return was;
	}
	/* no session (midstream pickup off and no handshake seen, or no room
	 * for one): as Suricata's flow engine says of any flow, established
	 * once both sides were seen */
	if (f->pkts_toserver && f->pkts_toclient)
		return 1;
	if (!fs)
		return 0;
	est = fs->tcp_state == TCPS_EST;
	if (p->tcp_flags & TH_RST) {
		fs->tcp_state = TCPS_CLOSED;
		return est;
	}
	switch (fs->tcp_state) {
	case TCPS_NONE:
		if ((p->tcp_flags & (TH_SYN | TH_ACK)) == TH_SYN && (p->flags & PKT_TOSERVER))
			fs->tcp_state = TCPS_SYN;
		else if (de->cfg.midstream && !(p->tcp_flags & TH_SYN))
			fs->tcp_state = TCPS_EST;
		break;
	case TCPS_SYN:
		if ((p->tcp_flags & (TH_SYN | TH_ACK)) == (TH_SYN | TH_ACK) && (p->flags & PKT_TOCLIENT))
			fs->tcp_state = TCPS_SYNACK;
		break;
	case TCPS_SYNACK:
		if ((p->tcp_flags & (TH_SYN | TH_ACK)) == TH_ACK && (p->flags & PKT_TOSERVER))
			fs->tcp_state = TCPS_EST;
		break;
	}
	return est;
}

/* ac-cuda: the ticket holds this very payload's matches (the flow-end
 * pseudo packet, or a payload changed since RX copied it, is scanned here). */
static int gpu_payload_ready(const DetectThread *dt, const Packet *p)
{
	const DetectGpuTicket *gt = dt->gpu_src;

	return gt && gt->g && gt->p == p && gt->payload == p->payload &&
	       gt->len == p->payload_len;
}

/* ac-cuda: a packet whose bytes went into the stream may have rewritten
 * stored bytes: what earlier packets recorded there is void. Then, when the
 * stream holds its bytes as the GPU scanned them, it records what the GPU
 * found in them. */
static void gpu_stream_cover(DetectThread *dt, Packet *p, DetectFlowState *fs, int d)
{
	int64_t so = p->stream_off;

	if (!dt->de->gpu)
		return;
	/* only an overlap with other bytes can change stored bytes: new bytes
	 * fill what no entry scanned, and equal ones change nothing */
	if (fs->scov[d] && (p->stream_flags & STREAM_PKT_OVERLAP_DIFF))
		scov_invalidate(fs->scov[d], so > 0 ? (uint64_t)so : 0,
				so + p->payload_len > 0 ? (uint64_t)(so + p->payload_len) : 0);
	if (gpu_payload_ready(dt, p))
		detect_gpu_stream_cover(dt->gpu_src, p->flow, d, dt->scov_ids, SCOV_IDS_MAX,
					&fs->scov[d]);
}

/* ---- raw stream ---- */

/* One window of reassembled data of direction d (p already faces d), from
 * where the last inspection of that direction ended: as Suricata's raw
 * stream chunks, windows do not overlap, and anchored content (depth,
 * offset) is anchored at the window's start. */
/* ac-cuda: a window's match set from the GPU scans of its packets
 * (stream-cov.h), the ends no packet covers scanned here. */
void detect_cov_ids(void *arg, const uint32_t *ids, uint32_t n)
{
	CovArg *a = arg;

	for (uint32_t i = 0; i < n; i++)
		if (ids[i] >= a->lo && ids[i] < a->hi)
			mpm_matchset_add(a->dt->ms, ids[i] - a->lo);
}

void detect_cov_cpu(void *arg, uint64_t from, uint64_t to)
{
	CovArg *a = arg;

	mpm_prefilter(a->mpm, a->sc, a->data + (from - a->base), (uint32_t)(to - from), a->dt->ms);
}

static void stream_window_mpm(DetectThread *dt, const SigGroup *g, const uint8_t *data,
			      uint32_t len, int d, uint64_t base, const DetectFlowState *fs)
{
	MpmScratch *sc = dt->scratch_g[g->sidx];
	uint64_t cpu;

	if (!dt->de->gpu) {
		mpm_prefilter(g->mpm, sc, data, len, dt->ms);
		return;
	}
	CovArg a = { .dt = dt, .mpm = g->mpm, .sc = sc, .data = data, .base = base };

	detect_gpu_sv_range(dt->de->gpu, GPU_SV_STREAM_TS + d, &a.lo, &a.hi);
	cpu = scov_window(fs ? fs->scov[d] : NULL, base, len,
			  detect_gpu_stream_maxlen(dt->de->gpu), detect_cov_ids, detect_cov_cpu, &a);
	detect_scan_count(dt, SCAN_STREAM, 0, cpu);
	detect_scan_count(dt, SCAN_STREAM, 1, len - cpu);
}

static void stream_window(DetectThread *dt, Packet *p, const uint8_t *data, uint32_t len,
			  int d, uint64_t base, const DetectFlowState *fs)
{
	const DetectEngine *de = dt->de;
	/* ac-cuda: the class-wide group, whose ids the stream view holds */
	const SigGroup *pg = de->gpu ? &de->groups[PC_TCP][d] : pkt_group(de, PC_TCP, d, p);
	const SigGroup *g = pg->ss ? pg->ss : pg;
	CandSet *cs = &dt->cand;
	InspectBuffer sb = { data, len, IBUF_STREAM };

	if (g->mpm && dt->scratch_g[g->sidx]) {
		const uint32_t *ids;
		uint32_t n;

		mpm_matchset_clear(dt->ms);
		stream_window_mpm(dt, g, data, len, d, base, fs);
		n = mpm_matchset_count(dt->ms);
		ids = mpm_matchset_ids(dt->ms);
		for (uint32_t i = 0; i < n; i++)
			for (uint32_t k = g->pid_off[ids[i]]; k < g->pid_off[ids[i] + 1]; k++) {
				uint32_t num = g->pid_sigs[k];

				if (!de->sigs[num].stream_ok)
					continue;
				cand_mark(cs, num);
			}
	}
	for (uint32_t i = 0; i < pg->nalways; i++) {
		uint32_t num = pg->always[i].num;

		if (!de->sigs[num].stream_ok)
			continue;
		cand_mark(cs, num);
	}
	if (!cs->nwords)
		return;
	dt->in_stream = 1;
	cand_sort(cs);
	for (uint32_t k = 0; k < cs->nwords; k++) {
		uint32_t w = cs->words[k];
		uint64_t word = cand_take(cs, k);

		while (word) {
			uint32_t num = (w << 6) | (uint32_t)__builtin_ctzll(word);
			const DetectSig *ds = &de->sigs[num];

			word &= word - 1;
			if (!inspect_sig(dt, ds, p, 1, &sb))
				continue;
			dt->stream_hit[num] = dt->pkt_seq;
			dt->cur_data = data;
			dt->cur_len = len;
			sig_matched(dt, ds, p);
			dt->cur_data = NULL;
			dt->cur_len = 0;
		}
	}
	cand_done(cs, cs->nwords);
	dt->in_stream = 0;
}

/* Whether the stream data of p's direction is inspected on p (IDS), as
 * Suricata limits raw stream inspection: once a chunk of it is ready
 * (stream.reassembly.to*-chunk-size of ACKed data not yet inspected), on
 * a FIN or RST of that direction, once the direction ended or the session
 * closed, past the reassembly depth, and at the flow's end (eof). Until
 * then a stream rule that is a packet rule too sees the packets alone. */
static int stream_due(const DetectEngine *de, const Packet *p, int d, uint64_t ready,
		      uint64_t off, int eof)
{
	const Flow *f = p->flow;

	if (eof || (p->tcp_flags & (TH_FIN | TH_RST)) || (f->raw_trigger & (1u << d)))
		return 1;
	if (stream_dir_flags(f, d) & (STREAM_DIR_EOF | STREAM_DIR_DEPTH_REACHED))
		return 1;
	if (stream_tcp_state(f) == TCP_CLOSED)
		return 1;
	return ready - off >= de->cfg.chunk_size[d];
}

/* Inspects the stream data of p's direction that became ready since the
 * last time, when it is due (stream_due; eof: the flow-end pseudo packet
 * of that direction), after letting the stream engine drop what the last
 * inspection's alerts logged. */
static void stream_inspect(DetectThread *dt, Packet *p, DetectFlowState *fs, int eof)
{
	const DetectEngine *de = dt->de;
	Flow *f = p->flow;
	int d = (p->flags & PKT_TOCLIENT) ? 1 : 0;
	uint64_t ready, off, from;
	const uint8_t *data;
	uint32_t len;
	uint64_t base;

	/* what the last packet's alerts needed for their payload */
	for (int k = 0; k < 2; k++)
		stream_release(f, k, STREAM_CONSUMER_RAW, fs->raw_rel[k]);
	ready = stream_ready_offset(f, d);
	off = fs->raw_off[d];
	if (ready <= off || !stream_due(de, p, d, ready, off, eof))
		return;
	f->raw_trigger &= (uint8_t)~(1u << d);
	from = off;
	while (from < ready && stream_get_data(f, d, from, &data, &len, &base)) {
		/* alerts log the stream up to what this inspection
		 * reached, as Suricata */
		dt->cur_end = ready;
		stream_window(dt, p, data, len, d, base, fs);
		from = base + len;
	}
	dt->cur_end = 0;
	fs->raw_off[d] = ready;
	fs->raw_rel[d] = ready;
	/* later windows start at raw_rel: their ends lie above it */
	if (fs->scov[d])
		scov_prune(fs->scov[d], fs->raw_rel[d]);
}

/* Inline mode (IPS): a packet's stream data is inspected at once, in the
 * window of stored stream bytes around it (Suricata's sliding window, ACKed
 * or not); when its bytes are not all stored, its payload alone is the
 * window. Windows overlap, so as in Suricata a match may alert again on a
 * later packet whose window still holds it. */
static void inline_window(DetectThread *dt, Packet *p, InspectBuffer *sb)
{
	int d = (p->flags & PKT_TOCLIENT) ? 1 : 0;
	uint64_t base;
	uint32_t len;

	len = stream_inline_window(p->flow, d, p, dt->de->cfg.chunk_size[d], dt->win_buf,
				   dt->win_cap, &base);
	sb->type = IBUF_STREAM;
	sb->data = len ? dt->win_buf : p->payload;
	sb->len = len ? len : p->payload_len;
	dt->inline_end = len ? base + len : 0;
}

/* Inline mode: stream bytes more than two chunks behind the ready offset are
 * outside any future window (a packet's window reaches one chunk back). */
static void inline_release(DetectThread *dt, Packet *p)
{
	int d = (p->flags & PKT_TOCLIENT) ? 1 : 0;
	uint64_t ready = stream_ready_offset(p->flow, d), keep = 2ull * dt->de->cfg.chunk_size[d];

	stream_release(p->flow, d, STREAM_CONSUMER_RAW, ready > keep ? ready - keep : 0);
}

/* The candidates of pattern pid of group mg that p's ports allow. The
 * GPU's ids are the class-wide group's: on a streamed packet
 * (streamed_whole) only the rules of g->ps are kept, as ac scans g->ps. */
static inline void mark_pid(const DetectEngine *de, CandSet *cs, const SigGroup *mg,
			    uint32_t pid, const Packet *p, int streamed_whole)
{
	for (uint32_t k = mg->pid_off[pid]; k < mg->pid_off[pid + 1]; k++) {
		uint32_t num = mg->pid_sigs[k];
		const uint16_t *h = mg->pid_ports[k];

		if (p->sp < h[0] || p->sp > h[1] || p->dp < h[2] || p->dp > h[3])
			continue;
		if (streamed_whole && !de->sigs[num].pkt_streamed_ok)
			continue;
		cand_mark(cs, num);
	}
}

/* A new packet for stream_hit: no rule has matched its stream yet. */
static void stream_hit_next(DetectThread *dt)
{
	if (++dt->pkt_seq == 0) {
		memset(dt->stream_hit, 0, dt->de->nsigs * sizeof(*dt->stream_hit));
		dt->pkt_seq = 1;
	}
}

/* Suricata orders a packet's alerts by rule (internal order), a
 * transaction's before a later one's; the queue holds them in the order
 * the passes found them (stream, packet, transactions). */
static void alerts_sort(DetectAlert *a, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++) {
		DetectAlert x = a[i];
		uint32_t j = i;

		for (; j > 0 && (a[j - 1].num > x.num ||
				 (a[j - 1].num == x.num && a[j - 1].has_tx && x.has_tx &&
				  a[j - 1].tx_id > x.tx_id)); j--)
			a[j] = a[j - 1];
		a[j] = x;
	}
}

uint32_t detect_packet(DetectThread *dt, Packet *p, const DetectAlert **alerts)
{
	const DetectEngine *de = dt->de;
	int pc = proto_class(p), dir = (p->flags & PKT_TOCLIENT) ? 1 : 0;
	const SigGroup *g = pkt_group(de, pc, dir, p), *mg;
	CandSet *cs = &dt->cand;
	uint32_t have, wk = 0;
	int iponly_ok = 1;
	DetectFlowState *fs = NULL;
	InspectBuffer sb, *sbp = NULL;
	const uint8_t *pf_data = p->payload;
	uint32_t pf_len = p->payload_len;
	int gpu = 0, ids_stream, raw_flush;

	dt->nalerts = 0;
	*alerts = dt->alerts;
	dt->pkt_tagged = 0;
	dt->has_drop = 0;
	if (!de->nsigs || flow_passed(p))
		return 0;
	stream_hit_next(dt);
	dt->pkt_established = 0;
	if (p->flow) {
		/* UDP flows with transactions (DNS) need it for those too */
		if (p->flow->proto == IPPROTO_TCP || de->have_iponly ||
		    (de->nhttp && app_layer_has_txs(p->flow)))
			fs = detect_flow_state(de, p->flow, 1);
		if (fs && (fs->iponly_done & (1u << dir)))
			iponly_ok = 0;
		dt->pkt_established = flow_established(de, fs, p);
	}
	dt->pkt_streamed = 0;
	if (p->flow && de->uses_stream && p->payload_len &&
	    (p->stream_flags & STREAM_PKT_ADDED) &&
	    !(p->stream_flags & (STREAM_PKT_INVALID | STREAM_PKT_DEPTH_REACHED)) &&
	    !(p->tcp_flags & TH_RST)) {
		/* retransmissions too: their bytes were inspected as stream data */
		dt->pkt_streamed = 1;
	}
	/* SSH after NEWKEYS, TLS after its first application data: ciphertext,
	 * not inspected (Suricata's no-inspection-payload). As in Suricata a
	 * packet is inspected as its flow stood before its own data was
	 * parsed: the one whose data ended the cleartext still is (TLS: with
	 * the rest of its direction's raw stream, at once, as Suricata's last
	 * raw flush), the packets after it are not. */
	raw_flush = 0;
	if (p->flow && p->flow->alstate && app_layer_flow_no_inspection(p->flow)) {
		dt->no_payload = !fs || fs->payload_off;
		if (fs && !fs->payload_off) {
			fs->payload_off = 1;
			raw_flush = app_layer_flow_no_inspection_flush(p->flow);
		}
	} else {
		dt->no_payload = 0;
	}
	if (de->gpu && fs && (p->stream_flags & STREAM_PKT_ADDED) && !de->cfg.stream_inline)
		gpu_stream_cover(dt, p, fs, dir);
	/* IDS: the stream data of p's direction that became ready first, so
	 * that a rule that matched there skips the packet's payload (ac-cuda:
	 * after the body ids are taken, as the stream is pruned) */
	/* IDS raw stream inspection on this packet (inline: the window below) */
	/* TCP packets only: an ICMP error joined to a TCP flow (flow.h) is
	 * inspected as itself, not as the flow's stream */
	ids_stream = p->proto == IPPROTO_TCP && fs && p->flow->stream && de->uses_stream &&
		     !de->cfg.stream_inline &&
		     !dt->no_payload;
	if (fs)
		fs->raw_tx[dir] = fs->raw_off[dir];
	if (ids_stream) {
		if (de->gpu && app_layer_has_txs(p->flow))
			tx_gpu_harvest(dt, p->flow, fs);
		stream_inspect(dt, p, fs, raw_flush);
	}
	/* prefilter: the group's MPM on the payload; a streamed payload only
	 * with the patterns of the rules that still inspect it. Inline, the
	 * window holds the payload: one pass with the whole group serves the
	 * packet rules and the stream rules. */
	mg = g;
	if (dt->pkt_streamed && de->cfg.stream_inline && p->flow->stream) {
		inline_window(dt, p, &sb);
		sbp = &sb;
		pf_data = sb.data;
		pf_len = sb.len;
	} else if (de->gpu && gpu_payload_ready(dt, p)) {
		/* ac-cuda: the ids are the class-wide group's (the GPU scanned
		 * with its union); the port group g still gives the always list */
		gpu = 1;
		mg = &de->groups[pc][dir];
	} else if (dt->pkt_streamed && g->ps) {
		mg = g->ps;
	}
	if (dt->no_payload)
		pf_len = 0;
	if (mg->mpm && pf_len) {
		MpmScratch *sc = dt->scratch_g[mg->sidx];

		if (sc) {
			const uint32_t *ids = NULL;
			uint32_t n, lo = 0, hi = 0;
			int streamed_whole = 0, ranged = 0;

			if (gpu) {
				/* the device gives each id once: no match set */
				ids = detect_gpu_packet_ids(dt->gpu_src, pc, dir, &n, &lo, &hi);
				ranged = 1;
				detect_scan_count(dt, SCAN_PACKET, 1, pf_len);
				streamed_whole = dt->pkt_streamed && mg->ps;
			} else {
				detect_scan_count(dt, SCAN_PACKET, 0, pf_len);
			}
			if (!ids) {
				/* the CPU's scan, or the device's rescan on the CPU:
				 * group pids already */
				mpm_matchset_clear(dt->ms);
				if (gpu)
					detect_gpu_prefilter(dt->gpu_src, pc, dir, dt->ms);
				else
					mpm_prefilter(mg->mpm, sc, pf_data, pf_len, dt->ms);
				n = mpm_matchset_count(dt->ms);
				ids = mpm_matchset_ids(dt->ms);
				ranged = 0;
			}
			if (!ranged) {
				for (uint32_t i = 0; i < n; i++)
					mark_pid(de, cs, mg, ids[i], p, streamed_whole);
			} else {
				/* the device's array holds both directions' ids */
				for (uint32_t i = 0; i < n; i++)
					if (ids[i] >= lo && ids[i] < hi)
						mark_pid(de, cs, mg, ids[i] - lo, p, streamed_whole);
			}
		}
	}
	have = precheck_packet_bits(p);
	/* gate 0, then the gates of the flags the packet has */
	for (uint32_t gates = always_gates_walked(p); gates; gates &= gates - 1) {
		uint32_t gate = (uint32_t)__builtin_ctz(gates);

		for (uint32_t i = g->always_at[gate]; i < g->always_at[gate + 1]; i++) {
			const SigPrecheck *c = &g->always[i];

			if ((c->iponly && !iponly_ok) || !precheck_pass(c, have, p))
				continue;
			cand_mark(cs, c->num);
		}
	}
	if (!cs->nwords)
		goto done;
	/* candidates in internal order */
	cand_sort(cs);
	for (wk = 0; wk < cs->nwords; wk++) {
		uint32_t w = cs->words[wk];
		uint64_t word = cand_take(cs, wk);

		while (word) {
			uint32_t num = (w << 6) | (uint32_t)__builtin_ctzll(word);
			const DetectSig *ds = &de->sigs[num];

			word &= word - 1;
			if (sbp && ds->stream_ok) {
				/* inline: a stream rule sees the window, in rule
				 * order with the packet rules (flowbits) */
				int m;

				dt->in_stream = 1;
				m = inspect_sig(dt, ds, p, iponly_ok, sbp);
				if (m) {
					dt->cur_data = sbp->data;
					dt->cur_len = sbp->len;
					dt->cur_end = dt->inline_end;
					sig_matched(dt, ds, p);
					dt->cur_data = NULL;
					dt->cur_len = 0;
					dt->cur_end = 0;
				}
				dt->in_stream = 0;
				/* no match in the window: a packet rule too tries
				 * the payload alone (its anchors are the packet's) */
				if (!m && ds->pkt_streamed_ok &&
				    (m = inspect_sig(dt, ds, p, iponly_ok, NULL)))
					sig_matched(dt, ds, p);
				if (!m)
					continue;
			} else {
				if (!inspect_sig(dt, ds, p, iponly_ok, NULL))
					continue;
				sig_matched(dt, ds, p);
			}
			if (ds->action == ALERT_ACTION_PASS) {
				/* pass: no further rule may alert on this packet */
				wk++;
				goto done;
			}
		}
	}
done:
	cand_done(cs, wk);
	if (fs)
		fs->iponly_done |= (uint8_t)(1u << dir);
	if (de->gpu && fs && app_layer_has_txs(p->flow) && !ids_stream)
		tx_gpu_harvest(dt, p->flow, fs);   /* else taken before the stream pass */
	if (fs && p->flow->stream && de->uses_stream && de->cfg.stream_inline)
		inline_release(dt, p);
	if (fs && app_layer_has_txs(p->flow))
		tx_inspect_flow(dt, p, fs, 0);
	if (de->nframe && p->flow)
		detect_frames_inspect(dt, p, 0);
	dt->pkt_tagged = tag_handle_packet(dt, p);
	if (dt->nalerts) {
		alerts_sort(dt->alerts, dt->nalerts);
		counter_add(dt->tc, c_alert, dt->nalerts);
	}
	return dt->nalerts;
}

int detect_packet_tagged(const DetectThread *dt)
{
	return dt->pkt_tagged;
}

uint32_t detect_flow_flush(DetectThread *dt, Packet *p, const DetectAlert **alerts)
{
	const DetectEngine *de = dt->de;
	DetectFlowState *fs;

	dt->nalerts = 0;
	*alerts = dt->alerts;
	if (!de->nsigs || !p->flow || flow_passed(p))
		return 0;
	fs = detect_flow_state(de, p->flow, 1);
	if (!fs)
		return 0;
	dt->pkt_established = flow_established(de, fs, p);
	dt->pkt_streamed = 0;
	/* ciphertext the protocol gave up (SSH, TLS): its stream bytes not
	 * inspected yet stay so, as Suricata's raw reassembly stops there */
	dt->no_payload = p->flow->alstate && app_layer_flow_no_inspection(p->flow);
	stream_hit_next(dt);
	if (de->gpu && app_layer_has_txs(p->flow))
		tx_gpu_harvest(dt, p->flow, fs);
	fs->raw_tx[(p->flags & PKT_TOCLIENT) ? 1 : 0] = fs->raw_off[(p->flags & PKT_TOCLIENT) ? 1 : 0];
	/* inline: every byte was inspected with the packet that brought it */
	if (p->flow->stream && de->uses_stream && !de->cfg.stream_inline && !dt->no_payload)
		stream_inspect(dt, p, fs, 1);
	if (app_layer_has_txs(p->flow))
		tx_inspect_flow(dt, p, fs, 1);
	if (de->nframe)
		detect_frames_inspect(dt, p, 1);
	if (dt->nalerts) {
		alerts_sort(dt->alerts, dt->nalerts);
		counter_add(dt->tc, c_alert, dt->nalerts);
	}
	return dt->nalerts;
}

int detect_engine_uses_stream(const DetectEngine *de)
{
	return de->uses_stream;
}

int detect_engine_uses_frames(const DetectEngine *de)
{
	return de && de->nframe;
}

int detect_engine_uses_stream_frames(const DetectEngine *de)
{
	for (uint32_t k = 0; de && k < de->nframe; k++)
		if (de->sigs[de->frame_sigs[k]].s->frame_type == APP_FRAME_TYPE_STREAM)
			return 1;
	return 0;
}

void detect_alert_info(const DetectEngine *de, const Packet *p, const DetectAlert *a,
		       AlertInfo *ai)
{
	const Signature *s = a->s;
	const DetectSig *ds = a->num < de->nsigs ? &de->sigs[a->num] : NULL;

	memset(ai, 0, sizeof(*ai));
	ai->action = a->action;
	ai->gid = s->gid;
	ai->sid = s->sid;
	ai->rev = s->rev;
	ai->msg = s->msg;
	ai->class_name = s->classtype;
	ai->priority = s->priority;
	ai->from_stream = a->from_stream;
	ai->payload = p->payload;
	ai->payload_len = p->payload_len;
	if (a->data) {
		ai->payload = a->data;
		ai->payload_len = a->data_len;
		ai->stream_end = a->stream_end;
	}
	ai->has_tx = a->has_tx;
	ai->tx_id = a->tx_id;
	ai->frame_id = a->frame_id;
	ai->frame_dir = a->frame_dir;
	if (ds) {
		ai->class_desc = ds->class_desc;
		ai->metadata = ds->metadata;
		ai->n_metadata = ds->nmeta;
	}
}
