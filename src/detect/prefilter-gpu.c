/* The payload prefilter on the GPU: union automata per protocol class,
 * the packet threads' feeds (submit), match mapping, mpm.cuda.* counters.
 * See prefilter-gpu.h for the design. */
#include "detect/prefilter-gpu.h"

#include <stdatomic.h>
#include "detect/engine-int.h"
#include "detect/verify-build.h"
#include "detect/buffers.h"
#include "detect/transform.h"
#include "conf/conf.h"
#include "stream/stream.h"
#include "util/log.h"

#include <netinet/in.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A feed: the last bytes of each TCP flow direction's payloads, the
 * context of its next payload's stream scan. Direct-mapped by the directed
 * 5-tuple; a collision only costs coverage (the worker checks the bytes).
 * Per feed: a thread sees only the flows it owns. */
#define TAIL_BITS 13
#define TAIL_SLOTS (1u << TAIL_BITS)
#define TAIL_MAX 255

/* the payload unions, the stream view, and a transaction automaton per
 * (side, list) at most */
#define GPU_AUTOS_MAX (PC_MAX + 1 + 2 * BUF_IPV4_HDR)

struct tail {
	Address src, dst;
	uint16_t sp, dp;
	uint16_t len;
	uint8_t used;
	uint8_t b[TAIL_MAX];
};

struct DetectGpu {
	DetectEngine *de;
	MpmCtx *uni[PC_MAX];           /* union automaton; NULL: no payload MPM */
	uint32_t n_toserver[PC_MAX];   /* union ids below this: toserver pids */
	int16_t auto_of_pc[PC_MAX];    /* ac-cuda group id, -1: none */
	/* TCP stream view: one automaton over the groups of what is scanned
	 * as stream bytes: the stream groups of both directions, and the
	 * response-body groups of both evaluation sides (a body made of
	 * verbatim stream bytes takes its matches from here too). Each group's
	 * pids are a range of union ids: GPU_SV_* below. */
	MpmCtx *suni;
	uint32_t sv_lo[GPU_SV_MAX], sv_hi[GPU_SV_MAX];
	int16_t s_auto;                /* -1: nothing to scan as stream bytes */
	uint32_t s_maxlen;             /* longest pattern of the view */
	/* per union id of the view, its pattern's length: a payload the CPU
	 * rescans reports each occurrence's end, and where it starts says
	 * whether it is a context one (SCOV_CTX) */
	uint16_t *s_plen;
	/* per union id: 1 for a stream group's pattern that the group's own
	 * (CPU) matcher keeps bounded to a buffer's head (mpm.h): the device
	 * reports it anywhere, a window counts it only at its start, so
	 * coverage leaves it to the CPU (cov_stream_ids) */
	uint8_t *s_head;
	uint32_t tail_len;             /* context sent: min(s_maxlen - 1, TAIL_MAX) */
	uint64_t cfg_ring;             /* cudabuffer-buffer-size: the feeds' rings */
	/* transaction buffers: per pass side and list with a prefilter group,
	 * an automaton of the group's patterns (ids = its pids); -1: none
	 * (the response body rides the stream view, transformed buffers
	 * stay on the CPU) */
	MpmCtx *tuni[2][BUF_IPV4_HDR];
	int16_t tx_auto[2][BUF_IPV4_HDR];
	uint32_t ntx_auto;             /* lists with one (0: no tx lane) */
	const AcAutomaton *autos[GPU_AUTOS_MAX];
	uint32_t nautos;
	AcCuda *ac;
	/* rule verification: program i is rule prog_rule[i]'s payload list;
	 * NULL: the device ops verify nothing */
	uint32_t *prog_rule;
	uint32_t nprog;
	ThreadCounters *tc;            /* lazily, for detect_gpu_update_counters */
	/* rule reload: tickets queued and not yet released (the old engine's
	 * GPU is freed at 0), and those a new engine's worker drained */
	_Atomic uint64_t outstanding;
	_Atomic uint64_t drained;
	/* the feeds' threads update the counters in turn */
	pthread_mutex_t counters_mu;
};

/* Same classes as the engine's groups (packet.c proto_class). */
static int pkt_class(const Packet *p)
{
	switch (p->proto) {
	case IPPROTO_TCP: return PC_TCP;
	case IPPROTO_UDP: return PC_UDP;
	case IPPROTO_ICMP: case IPPROTO_ICMPV6: return PC_ICMP;
	}
	return PC_OTHER;
}

/* ---- test switches ---- */

static int opt_u32(const char *kv, const char *key, uint32_t *out)
{
	size_t n = strlen(key);
	char *end;
	unsigned long v;

	if (strncmp(kv, key, n) || kv[n] != '=')
		return 0;
	v = strtoul(kv + n + 1, &end, 10);
	if (end == kv + n + 1 || (*end && *end != ','))
		return -1;
	*out = (uint32_t)v;
	return 1;
}

int detect_gpu_test_switches(const CudaMpmConfig *cfg, int *emulation, AcCudaOpts *opts,
			     char *err, size_t errlen)
{
	const char *s = conf_get("cuda.mpm.test-opts");
	int emu = 0, over = 0;
	uint32_t hang = 0, wd_ms = 0;

	if (conf_get("cuda.mpm.emulation") && conf_get_bool("cuda.mpm.emulation", &emu) < 0) {
		snprintf(err, errlen, "cuda.mpm.emulation: expected yes or no");
		return -1;
	}
	*emulation = emu;
	ac_cuda_opts_defaults(opts, cfg);
	accuda_emu_set_fail(0);
	accuda_emu_set_vdump(NULL);
	while (s && *s) {
		uint32_t v = 0, th = 0, fail = 0;
		int r;

		if ((r = opt_u32(s, "fail", &fail)) == 1) {
			/* every Nth emulated batch fails (tests of the fallback) */
			accuda_emu_set_fail(fail);
		} else if (r < 0) {
			goto bad;
		} else if ((r = opt_u32(s, "hang", &hang)) ||
			   (r = opt_u32(s, "watchdog-ms", &wd_ms))) {
			/* every Nth emulated batch hangs until the watchdog */
			if (r < 0)
				goto bad;
		} else if ((r = opt_u32(s, "tx", &v))) {
			/* tx=1: transaction buffers on the device (doc/gpu.md) */
			if (r < 0 || v > 1)
				goto bad;
			opts->tx_buffers = v;
		} else if ((r = opt_u32(s, "verify", &v))) {
			/* verify=0: the scan alone (the device check's baseline) */
			if (r < 0 || v > 1)
				goto bad;
			opts->no_verify = !v;
		} else if ((r = opt_u32(s, "records", &opts->batch_records)) ||
		    (r = opt_u32(s, "payloads", &opts->batch_payloads)) ||
		    (r = opt_u32(s, "slots", &opts->batch_slots)) ||
		    (r = opt_u32(s, "chunk", &opts->chunk)) ||
		    (r = opt_u32(s, "threads", &th))) {
			if (r < 0 || (th == 0 && !strncmp(s, "threads", 7)))
				goto bad;
			if (th)
				accuda_emu_set_threads((int)th);
		} else if (!strncmp(s, "vdump=", 6)) {
			/* the verify cost model's input (qa/gpu/model/vmodel.c) */
			char path[1024];
			size_t n = strcspn(s + 6, ",");

			if (n == 0 || n >= sizeof(path))
				goto bad;
			memcpy(path, s + 6, n);
			path[n] = 0;
			if (accuda_emu_set_vdump(path) < 0) {
				snprintf(err, errlen, "cuda.mpm.test-opts: vdump: cannot write %s",
					 path);
				return -1;
			}
		} else if (!strncmp(s, "kernel=payload", 14)) {
			opts->kernel = ACC_KERNEL_PAYLOAD;
		} else if (!strncmp(s, "kernel=chunk", 12)) {
			opts->kernel = ACC_KERNEL_CHUNK;
		} else if (!strncmp(s, "kernel=filter", 13)) {
			opts->kernel = ACC_KERNEL_FILTER;
		} else {
			goto bad;
		}
		(void)v;
		over = 1;
		s = strchr(s, ',');
		s = s ? s + 1 : NULL;
	}
	accuda_emu_set_hang(hang, wd_ms);
	if (over && (opts->batch_records < 1 || opts->batch_payloads < 1)) {
		snprintf(err, errlen, "cuda.mpm.test-opts: records and payloads must be >= 1");
		return -1;
	}
	return over;
bad:
	snprintf(err, errlen, "cuda.mpm.test-opts: cannot parse '%s' (expected records=N,"
		 "payloads=N,slots=N,chunk=N,threads=N,fail=N,hang=N,watchdog-ms=N,verify=0|1,"
		 "kernel=payload|chunk|filter,vdump=PATH)", s);
	return -1;
}

/* ---- build ---- */


int detect_gpu_union_add(MpmCtx *uni, const MpmCtx *grp, uint32_t base)
{
	const AcAutomaton *a = mpm_ac_automaton(grp);
	const struct ac_view *v;
	uint32_t nlit;

	if (!a)
		return -1;
	v = &a->v;
	nlit = a->blk->nlit;
	for (uint32_t l = 0; l < nlit; l++) {
		const struct ac_lit *lit = &v->lit[l];

		for (uint32_t k = lit->ids; k < v->lit[l + 1].ids; k++)
			if (mpm_add_pattern(uni, v->bytes + lit->off, lit->len,
					    base + v->ids[k], lit->nocase) != 0)
				return -1;
	}
	return 0;
}

static int build_union(DetectGpu *g, int pc, char *err, size_t errlen)
{
	const SigGroup *ts = &g->de->groups[pc][0], *tc = &g->de->groups[pc][1];

	if (!ts->mpm && !tc->mpm)
		return 0;
	g->n_toserver[pc] = ts->mpm ? ts->npids : 0;
	g->uni[pc] = mpm_new(MPM_AC_CUDA);
	if (!g->uni[pc] ||
	    (ts->mpm && detect_gpu_union_add(g->uni[pc], detect_group_ac(ts), 0) != 0) ||
	    (tc->mpm && detect_gpu_union_add(g->uni[pc], detect_group_ac(tc), g->n_toserver[pc]) != 0)) {
		snprintf(err, errlen, "ac-cuda: cannot build the union automaton of protocol "
			 "class %d (the groups must use the ac automaton)", pc);
		return -1;
	}
	if (mpm_prepare(g->uni[pc], err, errlen) != 0)
		return -1;
	g->auto_of_pc[pc] = (int16_t)g->nautos;
	g->autos[g->nautos++] = mpm_ac_automaton(g->uni[pc]);
	log_debug("ac-cuda: protocol class %d: %u union patterns (%u toserver ids)", pc,
		  mpm_pattern_count(g->uni[pc]), g->n_toserver[pc]);
	return 0;
}

/* The group a TCP stream window of direction d is scanned with (as
 * stream-inspect.c's stream_window: ac-cuda has no port split). */
static const SigGroup *stream_group(const DetectEngine *de, int d)
{
	const SigGroup *g = &de->groups[PC_TCP][d];

	return g->ss ? g->ss : g;
}

/* The groups of the stream view, by GPU_SV_*: NULL where there is none. */
static const SigGroup *sv_group(const DetectEngine *de, int k)
{
	const SigGroup *g;

	switch (k) {
	case GPU_SV_STREAM_TS:
	case GPU_SV_STREAM_TC:
		if (!de->uses_stream)
			return NULL;
		g = stream_group(de, k - GPU_SV_STREAM_TS);
		break;
	default:
		g = &de->hgroups[k - GPU_SV_BODY_TS][BUF_HTTP_SERVER_BODY];
		break;
	}
	return g->mpm ? g : NULL;
}

static int build_stream_union(DetectGpu *g, char *err, size_t errlen)
{
	const AcAutomaton *a;
	uint32_t base = 0;

	g->s_auto = -1;
	for (int k = 0; k < GPU_SV_MAX; k++) {
		const SigGroup *sg = sv_group(g->de, k);

		g->sv_lo[k] = g->sv_hi[k] = base;
		if (!sg)
			continue;
		if (!g->suni && !(g->suni = mpm_new(MPM_AC_CUDA)))
			goto oom;
		if (detect_gpu_union_add(g->suni, detect_group_ac(sg), base) != 0) {
			snprintf(err, errlen, "ac-cuda: cannot build the stream union automaton "
				 "(the groups must use the ac automaton)");
			return -1;
		}
		base += sg->npids;
		g->sv_hi[k] = base;
	}
	if (!g->suni)
		return 0;
	if (mpm_prepare(g->suni, err, errlen) != 0)
		return -1;
	a = mpm_ac_automaton(g->suni);
	g->s_maxlen = a->blk->maxlen;
	if (!(g->s_plen = calloc(base ? base : 1, sizeof(*g->s_plen))) ||
	    !(g->s_head = calloc(base ? base : 1, 1)))
		goto oom;
	for (int k = GPU_SV_STREAM_TS; k <= GPU_SV_STREAM_TC; k++) {
		const SigGroup *sg = sv_group(g->de, k);

		if (sg)
			mpm_mark_bounded(sg->mpm, g->s_head + g->sv_lo[k], g->sv_hi[k] - g->sv_lo[k], 1);
	}
	for (uint32_t l = 0; l < a->blk->nlit; l++)
		for (uint32_t k = a->v.lit[l].ids; k < a->v.lit[l + 1].ids; k++)
			if (a->v.ids[k] < base)
				g->s_plen[a->v.ids[k]] = a->v.lit[l].len;
	g->tail_len = g->s_maxlen > TAIL_MAX ? TAIL_MAX : g->s_maxlen - 1;
	g->s_auto = (int16_t)g->nautos;
	g->autos[g->nautos++] = a;
	log_debug("ac-cuda: tcp stream view: %u union patterns, longest %u",
		  mpm_pattern_count(g->suni), g->s_maxlen);
	return 0;
oom:
	snprintf(err, errlen, "ac-cuda: out of memory");
	return -1;
}

/* The transaction lists whose buffers go to the device: those with a
 * prefilter group of plain buffers. The response body is scanned as
 * stream bytes (the stream view); a list of instances under transforms
 * has no group here (de->hx, on the CPU). */
static int tx_list_on_device(const DetectEngine *de, int d, int l)
{
	return l > BUF_PAYLOAD && l < BUF_HTTP_XINST0 && l != BUF_HTTP_SERVER_BODY &&
	       de->hgroups[d][l].mpm;
}

static int build_tx_unions(DetectGpu *g, int on, char *err, size_t errlen)
{
	DetectEngine *de = g->de;

	for (int d = 0; d < 2; d++)
		for (int l = 0; l < BUF_IPV4_HDR; l++)
			g->tx_auto[d][l] = -1;
	if (!on)
		return 0;
	for (int d = 0; d < 2; d++)
		for (int l = 0; l < BUF_IPV4_HDR; l++) {
			MpmCtx *u;

			if (!tx_list_on_device(de, d, l))
				continue;
			if (g->nautos >= GPU_AUTOS_MAX)
				return 0;
			u = g->tuni[d][l] = mpm_new(MPM_AC_CUDA);
			if (!u || detect_gpu_union_add(u, detect_group_ac(&de->hgroups[d][l]), 0) != 0) {
				snprintf(err, errlen, "ac-cuda: cannot build the automaton of "
					 "transaction list %d (the groups must use the ac automaton)", l);
				return -1;
			}
			if (mpm_prepare(u, err, errlen) != 0)
				return -1;
			g->tx_auto[d][l] = (int16_t)g->nautos;
			g->autos[g->nautos++] = mpm_ac_automaton(u);
			g->ntx_auto++;
		}
	return 0;
}

int detect_gpu_tx_auto(const DetectGpu *g, int d, int l)
{
	return g && l >= 0 && l < BUF_IPV4_HDR ? g->tx_auto[d][l] : -1;
}

/* ---- rule verification ---- */

/* Whether rule ds's program of its fast pattern list answers for what a
 * pass of side d inspects in group (d, l): the list reads the very buffer
 * the group scans (not one that only shares its group, nor another side's
 * or protocol's: list_matches reads through list_source and the side the
 * rule names), and inspects it as it is (no transform). */
static int tx_prog_fits(const DetectSig *ds, int d, int l)
{
	const Signature *s = ds->s;
	int fl = s->fp_list;

	if (fl <= BUF_PAYLOAD || fl >= BUF_HTTP_XINST0 || sig_list_base(s, fl) != l ||
	    sig_list_chain(s, fl) || detect_buffers[l].via_proto)
		return 0;
	return !sig_list_side_given(s, fl) ||
	       sig_list_side(s, fl) == (detect_buffers[l].side == DBUF_EVAL ? d : detect_buffers[l].side);
}

/* An automaton's program table as verify_build_group takes it: pattern
 * index k's programs are progs[off[k], off[k + 1]). */
typedef struct ProgTable {
	uint32_t *off, *progs;
	uint32_t npat, n, cap;
} ProgTable;

static int prog_table_init(ProgTable *t, uint32_t npat)
{
	t->npat = npat;
	t->n = 0;
	t->cap = 256;
	t->off = malloc(((size_t)npat + 1) * sizeof(*t->off));
	t->progs = malloc(t->cap * sizeof(*t->progs));
	return t->off && t->progs ? 0 : -1;
}

static int prog_table_push(ProgTable *t, uint32_t prog)
{
	if (t->n == t->cap) {
		uint32_t *n = realloc(t->progs, 2 * (size_t)t->cap * sizeof(*n));

		if (!n)
			return -1;
		t->progs = n;
		t->cap *= 2;
	}
	t->progs[t->n++] = prog;
	return 0;
}

/* Uploads the table as group `group` (rc 0: built) and frees it. */
static int prog_table_finish(ProgTable *t, VerifyBuild *vb, uint32_t group, int rc)
{
	if (rc == 0) {
		t->off[t->npat] = t->n;
		rc = verify_build_group(vb, group, t->npat, t->off, t->progs);
	}
	free(t->off);
	free(t->progs);
	return rc;
}

/* The programs of transaction automaton a (group (d, l)): per pattern
 * index, those of its rules that fit (tx_prog_fits), each rule's made
 * once (prog_of[num]); the rule's gpu_txv bit d set. */
static int verify_tx_auto(DetectEngine *de, int d, int l, const AcAutomaton *a, uint32_t group,
			  VerifyBuild *vb, int32_t *prog_of)
{
	const SigGroup *grp = &de->hgroups[d][l];
	ProgTable t;
	int rc = prog_table_init(&t, a->blk->npatterns);

	for (uint32_t k = 0; rc == 0 && k < t.npat; k++) {
		uint32_t pid = a->v.pat[k].id;

		t.off[k] = t.n;
		for (uint32_t j = grp->pid_off[pid]; rc == 0 && j < grp->pid_off[pid + 1]; j++) {
			uint32_t num = grp->pid_sigs[j];
			DetectSig *ds = &de->sigs[num];
			int exact, oom = 0;

			if (!tx_prog_fits(ds, d, l))
				continue;
			if (prog_of[num] == -2)
				prog_of[num] = verify_build_prog(vb, ds->s, ds->s->fp_list, num, &exact,
								 &oom);
			if (oom) {
				rc = -1;
			} else if (prog_of[num] >= 0) {
				ds->gpu_txv |= (uint8_t)(1u << d);
				rc = prog_table_push(&t, (uint32_t)prog_of[num]);
			}
		}
	}
	return prog_table_finish(&t, vb, group, rc);
}

int detect_gpu_verify_union(DetectEngine *de, int pc, const AcAutomaton *a, uint32_t group,
			    VerifyBuild *vb, int32_t *prog_of)
{
	uint32_t n_ts = de->groups[pc][0].mpm ? de->groups[pc][0].npids : 0;
	ProgTable t;
	int rc = prog_table_init(&t, a->blk->npatterns);

	for (uint32_t k = 0; rc == 0 && k < t.npat; k++) {
		uint32_t id = a->v.pat[k].id, dir = id >= n_ts;
		const SigGroup *grp = &de->groups[pc][dir];
		uint32_t pid = id - (dir ? n_ts : 0);

		t.off[k] = t.n;
		for (uint32_t j = grp->pid_off[pid]; rc == 0 && j < grp->pid_off[pid + 1]; j++) {
			uint32_t num = grp->pid_sigs[j];
			DetectSig *ds = &de->sigs[num];
			int exact, oom = 0;

			if (!ds->has_payload)
				continue;
			if (prog_of[num] == -2) {
				prog_of[num] = verify_build_prog(vb, ds->s, BUF_PAYLOAD, num, &exact, &oom);
				if (!oom && prog_of[num] >= 0)
					ds->gpu_verify = exact ? 2 : 1;
			}
			if (oom)
				rc = -1;
			else if (prog_of[num] >= 0)
				rc = prog_table_push(&t, (uint32_t)prog_of[num]);
		}
	}
	return prog_table_finish(&t, vb, group, rc);
}

/* The packet view's rule programs to the device (cuda/verify-kernel.h):
 * what lets the CPU skip the candidates the device rejects. A device
 * without verification runs as before. */
static int build_verify(DetectGpu *g, char *err, size_t errlen)
{
	DetectEngine *de = g->de;
	VerifyBuild *vb = verify_build_new();
	int32_t *prog_of = malloc((de->nsigs ? de->nsigs : 1) * sizeof(*prog_of));
	struct acv_layout lay;
	void *blk = NULL;
	size_t size = 0;
	int rc = -1;

	if (!vb || !prog_of)
		goto out;
	for (uint32_t i = 0; i < de->nsigs; i++)
		prog_of[i] = -2;
	for (int pc = 0; pc < PC_MAX; pc++)
		if (g->uni[pc] && g->auto_of_pc[pc] >= 0 &&
		    detect_gpu_verify_union(de, pc, g->autos[g->auto_of_pc[pc]],
					    (uint32_t)g->auto_of_pc[pc], vb, prog_of) != 0)
			goto out;
	/* a transaction rule's program is of its fast pattern list, not of
	 * its payload: numbered apart */
	for (uint32_t i = 0; i < de->nsigs; i++) {
		prog_of[i] = -2;
		de->sigs[i].gpu_txv = 0;
	}
	for (int d = 0; d < 2; d++)
		for (int l = 0; l < BUF_IPV4_HDR; l++)
			if (g->tx_auto[d][l] >= 0 &&
			    verify_tx_auto(de, d, l, g->autos[g->tx_auto[d][l]],
					   (uint32_t)g->tx_auto[d][l], vb, prog_of) != 0)
				goto out;
	if (verify_build_finish(vb, g->nautos, &blk, &size, &lay) != 0)
		goto out;
	g->nprog = lay.nprog;
	g->prog_rule = malloc((g->nprog ? g->nprog : 1) * sizeof(*g->prog_rule));
	if (!g->prog_rule)
		goto out;
	for (uint32_t i = 0; i < g->nprog; i++)
		g->prog_rule[i] = ((const struct acv_prog *)((const uint8_t *)blk + lay.off_prog))[i].rule;
	rc = ac_cuda_load_verify(g->ac, blk, size, &lay, err, errlen);
	if (rc == 0) {
		/* the device cannot verify: no rule counts on it */
		for (uint32_t i = 0; i < de->nsigs; i++)
			de->sigs[i].gpu_verify = de->sigs[i].gpu_txv = 0;
		free(g->prog_rule);
		g->prog_rule = NULL;
	}
	if (rc >= 0) {
		log_debug("ac-cuda: %u rule programs (%zu bytes) verified on the device", g->nprog,
			  size);
		rc = 0;
	}
out:
	if (rc != 0 && !err[0])
		snprintf(err, errlen, "ac-cuda: out of memory for the rule programs");
	free(blk);
	free(prog_of);
	verify_build_free(vb);
	return rc;
}

int detect_gpu_packet_passed(const DetectGpuTicket *gt, uint32_t *vpass, uint32_t seq)
{
	const DetectGpu *g = gt->g;
	const uint32_t *pr;
	uint32_t n;

	if (!g->prog_rule || !gt->has_pkt || !(pr = ac_cuda_passed(g->ac, &gt->t, 0, &n)))
		return 0;
	for (uint32_t i = 0; i < n; i++)
		if (pr[i] < g->nprog)
			vpass[g->prog_rule[pr[i]]] = seq;
	return 1;
}

DetectGpu *detect_gpu_new(DetectEngine *de, const CudaMpmConfig *cfg, const AcCudaOpts *opts,
			  const AcDeviceOps *ops, char *err, size_t errlen)
{
	DetectGpu *g = calloc(1, sizeof(*g));

	if (!g) {
		snprintf(err, errlen, "ac-cuda: out of memory");
		return NULL;
	}
	g->de = de;
	g->cfg_ring = cfg->cudabuffer_buffer_size;
	pthread_mutex_init(&g->counters_mu, NULL);
	for (int pc = 0; pc < PC_MAX; pc++) {
		g->auto_of_pc[pc] = -1;
		if (build_union(g, pc, err, errlen) != 0)
			goto fail;
	}
	if (build_stream_union(g, err, errlen) != 0 ||
	    build_tx_unions(g, opts && opts->tx_buffers, err, errlen) != 0)
		goto fail;
	if (g->nautos == 0) {
		/* no payload fast pattern at all: nothing for the GPU to do, but
		 * the device is still checked so that a broken setup shows now */
		g->uni[PC_OTHER] = mpm_new(MPM_AC_CUDA);
		if (!g->uni[PC_OTHER] ||
		    mpm_add_pattern(g->uni[PC_OTHER], (const uint8_t *)"\0", 1, 0, 0) != 0 ||
		    mpm_prepare(g->uni[PC_OTHER], err, errlen) != 0)
			goto fail;
		g->autos[g->nautos++] = mpm_ac_automaton(g->uni[PC_OTHER]);
	}
	g->ac = ac_cuda_new(cfg, opts, ops, g->autos, g->nautos, err, errlen);
	if (!g->ac || build_verify(g, err, errlen) != 0)
		goto fail;
	/* the unions hold the patterns now: the groups' ac copies go */
	detect_groups_drop_ac(de);
	de->gpu = g;
	return g;
fail:
	if (!err[0])
		snprintf(err, errlen, "ac-cuda: out of memory");
	detect_gpu_free(g);
	return NULL;
}

void detect_gpu_free(DetectGpu *g)
{
	if (!g)
		return;
	if (g->de && g->de->gpu == g)
		g->de->gpu = NULL;
	ac_cuda_free(g->ac);
	for (int pc = 0; pc < PC_MAX; pc++)
		if (g->uni[pc])
			mpm_free(g->uni[pc]);
	if (g->suni)
		mpm_free(g->suni);
	for (int d = 0; d < 2; d++)
		for (int l = 0; l < BUF_IPV4_HDR; l++)
			if (g->tuni[d][l])
				mpm_free(g->tuni[d][l]);
	pthread_mutex_destroy(&g->counters_mu);
	free(g->prog_rule);
	free(g->s_plen);
	free(g->s_head);
	free(g);
}

DetectGpu *detect_engine_gpu(const DetectEngine *de)
{
	return de ? de->gpu : NULL;
}

/* ---- a packet thread's feed ---- */

#define FEED_RING_MAX (64ull << 20)

/* A lane's batches are reclaimed in order. Transaction buffers go in a
 * batch per burst (runmode/window.c), released right after it, while a
 * payload batch lives a window's time: on the payload lane each would wait
 * behind two windows and hold a slot all that time (the lane ran out of
 * them: 4,608 buffers refused on bench-1x). So they have a lane of their
 * own, with a smaller ring (a burst's buffers are a few hundred bytes). */
#define FEED_TX_RING_MIN (1ull << 20)

struct DetectGpuFeed {
	DetectGpu *g;
	AcCudaLane *lane;              /* packet payloads (both views) */
	AcCudaLane *txlane;            /* transaction buffers; NULL: none */
	struct tail *tails;
};

DetectGpuFeed *detect_gpu_feed_new(DetectGpu *g, unsigned share, char *err, size_t errlen)
{
	DetectGpuFeed *f = calloc(1, sizeof(*f));
	/* the lanes share the configured ring, each its part: a few windows
	 * of its thread's packets, more only pins memory */
	uint64_t ring = g->cfg_ring / (share ? share : 1);

	if (ring > FEED_RING_MAX)
		ring = FEED_RING_MAX;
	/* the context cache only serves the stream view */
	if (!f || (g->s_auto >= 0 && !(f->tails = calloc(TAIL_SLOTS, sizeof(*f->tails))))) {
		snprintf(err, errlen, "ac-cuda: out of memory for a feed");
		free(f);
		return NULL;
	}
	f->g = g;
	f->lane = ac_cuda_lane_new(g->ac, ring, err, errlen);
	if (!f->lane) {
		detect_gpu_feed_free(f);
		return NULL;
	}
	if (g->ntx_auto) {
		uint64_t txring = ring / 4 > FEED_TX_RING_MIN ? ring / 4 : FEED_TX_RING_MIN;

		f->txlane = ac_cuda_lane_new(g->ac, txring, err, errlen);
		if (!f->txlane) {
			detect_gpu_feed_free(f);
			return NULL;
		}
	}
	return f;
}

void detect_gpu_feed_free(DetectGpuFeed *f)
{
	if (!f)
		return;
	ac_cuda_lane_free(f->txlane);
	ac_cuda_lane_free(f->lane);
	free(f->tails);
	free(f);
}

DetectGpu *detect_gpu_feed_gpu(const DetectGpuFeed *f)
{
	return f->g;
}

/* The directed 5-tuple's slot: every TCP packet asks, so the addresses go
 * in as four 64-bit words (a multiply per word), not 32 bytes one at a
 * time; the order of the chain keeps a->b and b->a apart. The slot is the
 * product's top bits, the ones every input bit reaches. */
static uint32_t tail_slot(const Packet *p)
{
	const uint64_t m = 0x9e3779b97f4a7c15ull;
	uint64_t w[4], h = ((uint64_t)p->sp << 16 | p->dp) * m;

	memcpy(&w[0], p->src.a.u8, 16);
	memcpy(&w[2], p->dst.a.u8, 16);
	for (int i = 0; i < 4; i++)
		h = (h ^ w[i]) * m;
	return (uint32_t)(h >> (64 - TAIL_BITS));
}

static int tail_same(const struct tail *t, const Packet *p)
{
	return t->used && t->sp == p->sp && t->dp == p->dp &&
	       !memcmp(&t->src, &p->src, sizeof(t->src)) && !memcmp(&t->dst, &p->dst, sizeof(t->dst));
}

/* The context for p's stream scan: what this feed saw last in p's
 * direction. Then p's own bytes become the context of the next one. */
static struct tail *tail_take(DetectGpuFeed *f, const Packet *p)
{
	struct tail *t = &f->tails[tail_slot(p)];

	if (!tail_same(t, p)) {
		memset(t, 0, offsetof(struct tail, b));
		t->src = p->src;
		t->dst = p->dst;
		t->sp = p->sp;
		t->dp = p->dp;
		t->used = 1;
	}
	return t;
}

static void tail_push(const DetectGpu *g, struct tail *t, const uint8_t *b, uint32_t n)
{
	uint32_t keep = g->tail_len;

	if (n >= keep) {
		memcpy(t->b, b + n - keep, keep);
		t->len = (uint16_t)keep;
		return;
	}
	if (t->len + n > keep) {
		uint32_t drop = t->len + n - keep;

		memmove(t->b, t->b + drop, t->len - drop);
		t->len = (uint16_t)(t->len - drop);
	}
	memcpy(t->b + t->len, b, n);
	t->len = (uint16_t)(t->len + n);
}

int detect_gpu_submit(DetectGpuFeed *f, Packet *p, DetectGpuTicket *gt)
{
	DetectGpu *g = f->g;
	int pc = pkt_class(p), a = g->auto_of_pc[pc], rc;

	gt->g = NULL;
	gt->ctxlen = 0;
	gt->txg = NULL;
	gt->ntx = 0;
	/* detect_packet runs the payload MPM only on a payload, and only when
	 * the class has fast patterns; nothing to ship otherwise */
	if (!p->payload_len || (a < 0 && (pc != PC_TCP || g->s_auto < 0)))
		return 0;
	if (pc == PC_TCP && g->s_auto >= 0) {
		struct tail *t = tail_take(f, p);
		uint32_t ctxlen;

		/* a SYN starts a new connection: nothing before its data */
		if (p->tcp_flags & 0x02)
			t->len = 0;
		ctxlen = t->len;
		/* without packet fast patterns view 0 still rides along: it
		 * scans the stream automaton too and is ignored */
		/* a view's length is 16 bits: a near-64 KiB payload goes without
		 * context (its first ends are then scanned on the CPU) */
		if (ctxlen + p->payload_len > CUDA_MPM_DATA_BUFFER_SIZE_MAX)
			ctxlen = 0;
		rc = ac_cuda_submit_ctx(f->lane, t->b, ctxlen, p->payload, p->payload_len,
					(uint16_t)(a >= 0 ? a : g->s_auto), (uint16_t)g->s_auto,
					p, &gt->t);
		gt->ctxlen = ctxlen;
		/* the ring has its copy: p's bytes now end the tail */
		tail_push(g, t, p->payload, p->payload_len);
	} else {
		rc = ac_cuda_submit(f->lane, p->payload, p->payload_len, (uint16_t)a, p, &gt->t);
	}
	if (rc != AC_CUDA_QUEUED)
		return 0;
	gt->g = g;
	atomic_fetch_add_explicit(&g->outstanding, 1, memory_order_relaxed);
	gt->p = p;
	gt->payload = p->payload;
	gt->len = p->payload_len;
	gt->has_pkt = a >= 0;
	return 1;
}

void detect_gpu_flush(DetectGpuFeed *f)
{
	ac_cuda_flush(f->lane);
	if (f->txlane)
		ac_cuda_flush(f->txlane);
}

int detect_gpu_ready(const DetectGpuTicket *gt)
{
	return !gt->g || ac_cuda_ready(gt->g->ac, &gt->t);
}

/* ---- worker ---- */

typedef struct TxQueueArg {
	DetectGpuFeed *f;
	DetectGpuTicket *gt;
	Packet *p;
} TxQueueArg;

/* One buffer of the plan to the lane, when its list has an automaton; a
 * buffer the lane refuses (size limits, ring full) is the CPU's. */
static int tx_queue_one(void *arg, const void *tx, int d, int l, uint32_t idx,
			const uint8_t *data, uint32_t len)
{
	TxQueueArg *a = arg;
	DetectGpu *g = a->f->g;
	DetectGpuTicket *gt = a->gt;
	DetectGpuTxBuf *e;
	int au = g->tx_auto[d][l];

	if (au < 0)
		return 0;
	if (gt->ntx == DETECT_GPU_TX_MAX)
		return 1;
	e = &gt->tx[gt->ntx];
	if (!a->f->txlane ||
	    ac_cuda_submit(a->f->txlane, data, len, (uint16_t)au, a->p, &e->t) != AC_CUDA_QUEUED)
		return 0;
	e->tx = tx;
	e->data = data;
	e->len = len;
	e->idx = idx;
	e->d = (uint8_t)d;
	e->l = (uint8_t)l;
	gt->ntx++;
	atomic_fetch_add_explicit(&g->outstanding, 1, memory_order_relaxed);
	return 0;
}

void detect_gpu_tx_queue(DetectThread *dt, DetectGpuFeed *f, Packet *p, DetectGpuTicket *gt)
{
	TxQueueArg a = { f, gt, p };

	gt->txg = NULL;
	gt->ntx = 0;
	/* the plan is of the engine whose groups the automata hold; no
	 * transaction lane (tx=0, the default): no plan to walk at all */
	if (!f->txlane || dt->de != f->g->de || !dt->txvpass)
		return;
	tx_plan_buffers(f->g->de, p, tx_queue_one, &a);
	if (gt->ntx)
		gt->txg = f->g;
}

void detect_gpu_begin(DetectThread *dt, const DetectGpuTicket *gt)
{
	dt->gpu_tx = NULL;
	if (gt->ntx) {
		/* the buffers of one burst ride one batch or two: a wait on a
		 * batch that is back does not block */
		for (uint32_t i = 0; i < gt->ntx; i++)
			ac_cuda_wait(gt->txg->ac, &gt->tx[i].t);
		/* a reload's new engine: its groups' pids are not these */
		if (gt->txg == dt->de->gpu)
			dt->gpu_tx = gt;
	}
	if (!gt->g)
		return;
	ac_cuda_wait(gt->g->ac, &gt->t);
	/* A rule reload swapped engines while the packet was queued: the
	 * ticket's ids are the old automata's, which the new engine's pattern
	 * ids do not follow. The new engine scans this packet on the CPU; the
	 * ticket is released as any other (detect_gpu_end). */
	if (gt->g != dt->de->gpu) {
		atomic_fetch_add_explicit(&gt->g->drained, 1, memory_order_relaxed);
		return;
	}
	dt->gpu_src = gt;
}

void detect_gpu_end(DetectThread *dt, DetectGpuTicket *gt)
{
	if (dt->gpu_src == gt)
		dt->gpu_src = NULL;
	if (dt->gpu_tx == gt)
		dt->gpu_tx = NULL;
	for (uint32_t i = 0; i < gt->ntx; i++) {
		ac_cuda_release(gt->txg->ac, &gt->tx[i].t);
		atomic_fetch_sub_explicit(&gt->txg->outstanding, 1, memory_order_release);
	}
	gt->ntx = 0;
	gt->txg = NULL;
	if (!gt->g)
		return;
	ac_cuda_release(gt->g->ac, &gt->t);
	atomic_fetch_sub_explicit(&gt->g->outstanding, 1, memory_order_release);
	gt->g = NULL;
}

const DetectGpuTxBuf *detect_gpu_tx_find(const DetectGpuTicket *gt, const void *tx, int d,
					 int l, uint32_t idx, const uint8_t *data, uint32_t len)
{
	for (uint32_t i = 0; i < gt->ntx; i++) {
		const DetectGpuTxBuf *e = &gt->tx[i];
		const uint8_t *copy;
		uint32_t clen;

		if (e->tx != tx || e->d != d || e->l != l || e->idx != idx || e->len != len)
			continue;
		/* the bytes the device saw must be these: a getter may have
		 * built the buffer again since */
		copy = ac_cuda_payload(gt->txg->ac, &e->t, &clen);
		return copy && clen == len && (copy == data || !memcmp(copy, data, len)) ? e : NULL;
	}
	return NULL;
}

const uint32_t *detect_gpu_tx_ids(const DetectGpuTicket *gt, const DetectGpuTxBuf *e,
				  uint32_t *n)
{
	return ac_cuda_ids(gt->txg->ac, &e->t, 0, n);
}

static int tx_match_cb(void *arg, uint32_t id, uint32_t end)
{
	(void)end;
	mpm_matchset_add(arg, id);
	return 0;
}

void detect_gpu_tx_matches(const DetectGpuTicket *gt, const DetectGpuTxBuf *e, MpmMatchSet *ms)
{
	ac_cuda_matches(gt->txg->ac, &e->t, tx_match_cb, ms);
}

int detect_gpu_tx_passed(const DetectGpuTicket *gt, const DetectGpuTxBuf *e, uint32_t *vpass,
			 uint32_t seq)
{
	const DetectGpu *g = gt->txg;
	const uint32_t *pr;
	uint32_t n;

	if (!g->prog_rule || !(pr = ac_cuda_passed(g->ac, &e->t, 0, &n)))
		return 0;
	for (uint32_t i = 0; i < n; i++)
		if (pr[i] < g->nprog)
			vpass[g->prog_rule[pr[i]]] = seq;
	return 1;
}

uint64_t detect_gpu_outstanding(const DetectGpu *g)
{
	return atomic_load_explicit(&((DetectGpu *)g)->outstanding, memory_order_acquire);
}

uint64_t detect_gpu_drained(const DetectGpu *g)
{
	return atomic_load_explicit(&((DetectGpu *)g)->drained, memory_order_relaxed);
}

typedef struct MapArg {
	MpmMatchSet *ms;
	uint32_t lo, hi;     /* union ids of the packet's group: [lo, hi) */
} MapArg;

static int map_cb(void *arg, uint32_t id, uint32_t end)
{
	MapArg *m = arg;

	if (id >= m->lo && id < m->hi)
		mpm_matchset_add(m->ms, id - m->lo);
	return 0;
}


/* The union ids of (pc, dir)'s class-wide group: [*lo, *hi). */
static void pkt_range(const DetectGpu *g, int pc, int dir, uint32_t *lo, uint32_t *hi)
{
	*lo = dir ? g->n_toserver[pc] : 0;
	*hi = dir ? *lo + g->de->groups[pc][1].npids : g->n_toserver[pc];
}

const uint32_t *detect_gpu_packet_ids(const DetectGpuTicket *gt, int pc, int dir, uint32_t *n,
				      uint32_t *lo, uint32_t *hi)
{
	*n = 0;
	if (!gt->has_pkt)
		return NULL;
	pkt_range(gt->g, pc, dir, lo, hi);
	return ac_cuda_ids(gt->g->ac, &gt->t, 0, n);
}

void detect_gpu_prefilter(const DetectGpuTicket *gt, int pc, int dir, MpmMatchSet *ms)
{
	MapArg m = { .ms = ms };
	uint32_t n;
	const uint32_t *ids;

	if (!gt->has_pkt)
		return;
	ids = detect_gpu_packet_ids(gt, pc, dir, &n, &m.lo, &m.hi);
	if (!ids) {
		ac_cuda_matches(gt->g->ac, &gt->t, map_cb, &m);
		return;
	}
	for (uint32_t i = 0; i < n; i++)
		map_cb(&m, ids[i], 0);
}

/* ---- worker: stream coverage ---- */

/* the device's flag is the one coverage keeps */
_Static_assert(SCOV_CTX == ACG_CTX_START, "stream-cov.h SCOV_CTX != ACG_CTX_START");

typedef struct IdArg {
	uint32_t *ids;
	uint32_t n, cap;
	const DetectGpu *g;
	uint32_t ctxlen;     /* the context the view was scanned with */
	int dir;
	int over;
} IdArg;

/* Keeps the union ids a stream direction's consumers may ask for: its own
 * stream group's, and on responses (toclient) the body groups'. The
 * device's ids come flagged SCOV_CTX already (end 0); an occurrence the CPU
 * rescan reports is flagged here, from where it starts. */
static int stream_id_cb(void *arg, uint32_t id, uint32_t end)
{
	IdArg *m = arg;
	const DetectGpu *g = m->g;
	int k = GPU_SV_STREAM_TS + m->dir;
	uint32_t u = id & ~SCOV_CTX;

	if (u >= g->sv_lo[k] && u < g->sv_hi[k]) {
		if (g->s_head[u])
			return 0;
	} else if (!(m->dir == 1 && u >= g->sv_lo[GPU_SV_BODY_TS] &&
		     u < g->sv_hi[GPU_SV_BODY_TC])) {
		return 0;
	}
	if (end && end - g->s_plen[u] < m->ctxlen)
		id |= SCOV_CTX;
	if (m->n == m->cap) {
		m->over = 1;
		return 1;
	}
	m->ids[m->n++] = id;
	return 0;
}

/* Do the last n context bytes (ending at stream offset so) hold what the
 * stream holds there? Bytes the stream released are compared with the copy
 * the last verified packet left in *cov. */
static int ctx_holds(const Flow *f, int dir, const StreamCov *cov, uint64_t so,
		     const uint8_t *ctx_end, uint32_t n)
{
	uint64_t rel;

	if (!n)
		return 1;
	if (!stream_stored_equal(f, dir, so - n, ctx_end - n, n, &rel))
		return 0;
	return rel <= so - n || scov_tail_equal(cov, so - n, ctx_end - n, (uint32_t)(rel - (so - n)));
}

int detect_gpu_stream_cover(const DetectGpuTicket *gt, Flow *f, int dir, uint32_t *ids,
			    uint32_t cap, StreamCov **cov)
{
	const DetectGpu *g = gt->g;
	const Packet *p = gt->p;
	uint32_t t = gt->ctxlen, len;
	const uint8_t *bytes;
	uint64_t so, e_lo, e_hi, rel;
	IdArg m = { .ids = ids, .cap = cap, .ctxlen = gt->ctxlen };

	if (!g || g->s_auto < 0 || gt->t.views < 2 || p->stream_off < 0)
		return 0;
	so = (uint64_t)p->stream_off;
	bytes = ac_cuda_payload_ctx(g->ac, &gt->t, &len);
	if (!bytes || len != t + gt->len)
		return 0;
	/* more context than stream before the payload (the feed's tail was of an
	 * older connection on the same ports): only its end can be real */
	if (so < t) {
		bytes += t - so;
		t = (uint32_t)so;
	}
	/* what the GPU scanned must be what the stream holds now: the payload
	 * exactly, and of the context the longest end that agrees (the feed's tail
	 * is the last payload it saw on the tuple: a retransmission or a
	 * reordering makes it wrong). A shorter context covers fewer ends;
	 * the CPU scans the others. */
	if (!(p->stream_flags & STREAM_PKT_STORED_AS_IS) &&
	    (!stream_stored_equal(f, dir, so, bytes + t, gt->len, &rel) || rel > so))
		return 0;
	/* the saved tail holds the last verified bytes, and any packet that may
	 * have rewritten them dropped it: when it holds the whole context, the
	 * stream need not be walked */
	if (!scov_tail_equal(*cov, so - t, bytes, t) && !ctx_holds(f, dir, *cov, so, bytes + t, t)) {
		uint32_t lo = 0, hi = t;   /* ctx_holds(lo) and !ctx_holds(hi) */

		while (hi - lo > 1) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (ctx_holds(f, dir, *cov, so, bytes + t, mid))
				lo = mid;
			else
				hi = mid;
		}
		bytes += t - lo;
		t = lo;
	}
	if (scov_ensure(cov) != 0)
		return 0;
	scov_save_tail(*cov, so + gt->len, bytes, t + gt->len);
	if (!scov_span(so, gt->len, t, g->s_maxlen, &e_lo, &e_hi))
		return 0;
	m.g = g;
	m.dir = dir;
	{
		uint32_t n;
		const uint32_t *dev = ac_cuda_ids(g->ac, &gt->t, 1, &n);

		if (!dev)
			ac_cuda_matches_ctx(g->ac, &gt->t, stream_id_cb, &m);
		for (uint32_t i = 0; dev && i < n && !m.over; i++)
			stream_id_cb(&m, dev[i], 0);
	}
	/* ids repeat across occurrences; the set is what counts */
	if (m.over || scov_add(cov, so - t, so, e_lo, e_hi, ids, m.n) != 0)
		return 0;
	return 1;
}

uint32_t detect_gpu_stream_maxlen(const DetectGpu *g)
{
	return g ? g->s_maxlen : 0;
}

void detect_gpu_sv_range(const DetectGpu *g, int k, uint32_t *lo, uint32_t *hi)
{
	*lo = g ? g->sv_lo[k] : 0;
	*hi = g ? g->sv_hi[k] : 0;
}

/* ---- counters ---- */

enum {
	C_EMULATION, C_BATCHES, C_BYTES, C_PAYLOADS, C_RECORDS,
	C_CUT_SIZE, C_CUT_TIMEOUT, C_CUT_FLUSH,
	C_CPU_BELOW_MIN, C_CPU_ABOVE_MAX, C_CPU_RING_FULL, C_CPU_OVERFLOW, C_CPU_DEVICE_ERROR,
	C_OVERFLOW_BATCHES, C_ERROR_BATCHES, C_RING_WRAPS,
	C_BATCH_BYTES_AVG, C_BATCH_PAYLOADS_AVG, C_WAIT_US_AVG,
	C_H2D_US, C_KERNEL_US, C_D2H_US, C_DISP_WAKEUPS,
	C_GPU_BATCHES, C_CUT_PAYLOADS, C_RING_PEAK,
	C_BATCH_BYTES_P50, C_BATCH_BYTES_P90, C_BATCH_BYTES_MAX,
	C_BATCH_PAYLOADS_P50, C_BATCH_PAYLOADS_P90, C_BATCH_PAYLOADS_MAX, C_WATCHDOG, C_MAX
};

static const char *const counter_names[C_MAX] = {
	"mpm.cuda.emulation", "mpm.cuda.batches", "mpm.cuda.bytes_gpu",
	"mpm.cuda.payloads_gpu", "mpm.cuda.records",
	"mpm.cuda.cut.size", "mpm.cuda.cut.timeout", "mpm.cuda.cut.flush",
	"mpm.cuda.cpu.below_min", "mpm.cuda.cpu.above_max", "mpm.cuda.cpu.ring_full",
	"mpm.cuda.cpu.overflow", "mpm.cuda.cpu.device_error",
	"mpm.cuda.overflow_batches", "mpm.cuda.error_batches", "mpm.cuda.ring_wraps",
	"mpm.cuda.batch_bytes_avg", "mpm.cuda.batch_payloads_avg", "mpm.cuda.wait_us_avg",
	"mpm.cuda.h2d_us", "mpm.cuda.kernel_us", "mpm.cuda.d2h_us",
	"mpm.cuda.dispatcher_wakeups",
	"mpm.cuda.gpu_batches", "mpm.cuda.cut.payloads", "mpm.cuda.ring_peak_bytes",
	"mpm.cuda.batch_bytes_p50", "mpm.cuda.batch_bytes_p90", "mpm.cuda.batch_bytes_max",
	"mpm.cuda.batch_payloads_p50", "mpm.cuda.batch_payloads_p90",
	"mpm.cuda.batch_payloads_max",
	"mpm.cuda.watchdog",
};
static counter_id cid[C_MAX];

void detect_gpu_register_counters(void)
{
	detect_scan_counters_register();
	for (int i = 0; i < C_MAX; i++)
		cid[i] = counter_register(counter_names[i]);
}

void detect_gpu_stats(const DetectGpu *g, AcCudaStats *st)
{
	ac_cuda_stats(g->ac, st);
}

void detect_gpu_update_counters(DetectGpu *g)
{
	AcCudaStats s;
	uint64_t b;

	if (!g || pthread_mutex_trylock(&g->counters_mu) != 0)
		return;
	if (!g->tc && !(g->tc = thread_counters_new())) {
		pthread_mutex_unlock(&g->counters_mu);
		return;
	}
	ac_cuda_stats(g->ac, &s);
	b = s.batches ? s.batches : 1;
	const uint64_t v[C_MAX] = {
		[C_EMULATION] = (uint64_t)s.emulation, [C_BATCHES] = s.batches,
		[C_BYTES] = s.bytes, [C_PAYLOADS] = s.payloads, [C_RECORDS] = s.records,
		[C_CUT_SIZE] = s.cut_size, [C_CUT_TIMEOUT] = s.cut_timeout,
		[C_CUT_FLUSH] = s.cut_flush,
		[C_CPU_BELOW_MIN] = s.cpu_below_min, [C_CPU_ABOVE_MAX] = s.cpu_above_max,
		[C_CPU_RING_FULL] = s.cpu_ring_full, [C_CPU_OVERFLOW] = s.cpu_overflow,
		[C_CPU_DEVICE_ERROR] = s.cpu_device_error,
		[C_OVERFLOW_BATCHES] = s.overflow_batches, [C_ERROR_BATCHES] = s.error_batches,
		[C_RING_WRAPS] = s.ring_wraps,
		[C_BATCH_BYTES_AVG] = s.bytes / b, [C_BATCH_PAYLOADS_AVG] = s.payloads / b,
		[C_WAIT_US_AVG] = s.wait_ns / b / 1000,
		[C_H2D_US] = s.h2d_ns / 1000, [C_KERNEL_US] = s.kernel_ns / 1000,
		[C_D2H_US] = s.d2h_ns / 1000, [C_DISP_WAKEUPS] = s.disp_wakeups,
		[C_GPU_BATCHES] = s.gpu_batches, [C_CUT_PAYLOADS] = s.cut_payloads,
		[C_RING_PEAK] = s.ring_peak_bytes,
		[C_BATCH_BYTES_P50] = ac_cuda_hist_quantile(s.hist_bytes, 0.5),
		[C_BATCH_BYTES_P90] = ac_cuda_hist_quantile(s.hist_bytes, 0.9),
		[C_BATCH_BYTES_MAX] = s.batch_bytes_max,
		[C_BATCH_PAYLOADS_P50] = ac_cuda_hist_quantile(s.hist_payloads, 0.5),
		[C_BATCH_PAYLOADS_P90] = ac_cuda_hist_quantile(s.hist_payloads, 0.9),
		[C_BATCH_PAYLOADS_MAX] = s.batch_payloads_max,
		[C_WATCHDOG] = s.watchdog,
	};
	for (int i = 0; i < C_MAX; i++)
		counter_set(g->tc, cid[i], v[i]);
	pthread_mutex_unlock(&g->counters_mu);
}

void detect_gpu_retire_counters(DetectGpu *g)
{
	/* the counters of a stats snapshot sum every thread block, this one's
	 * too after g is gone: the sums go on, the figures that are not sums
	 * (averages, quantiles, peaks, the emulation flag) are the running
	 * engine's alone */
	static const int not_sums[] = {
		C_EMULATION, C_BATCH_BYTES_AVG, C_BATCH_PAYLOADS_AVG, C_WAIT_US_AVG,
		C_RING_PEAK, C_BATCH_BYTES_P50, C_BATCH_BYTES_P90, C_BATCH_BYTES_MAX,
		C_BATCH_PAYLOADS_P50, C_BATCH_PAYLOADS_P90, C_BATCH_PAYLOADS_MAX,
	};

	if (!g)
		return;
	detect_gpu_update_counters(g);
	if (!g->tc)
		return;
	for (size_t i = 0; i < sizeof(not_sums) / sizeof(not_sums[0]); i++)
		counter_set(g->tc, cid[not_sums[i]], 0);
}
