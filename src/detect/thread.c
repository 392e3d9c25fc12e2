/* A worker's detection thread: what it owns for its lifetime (MPM scratch
 * per group, match and candidate sets, the alert queue, PCRE match data,
 * the inline window buffer), allocated once so that the packet path never
 * allocates. */
#include "detect/engine-int.h"
#include "detect/prefilter-gpu.h"
#include "util/log.h"

#include <stdlib.h>

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
	dt->pass_num = UINT32_MAX;
	{
		size_t nw = (de->nsigs + 63) / 64 + 1;

		dt->cand.bits = calloc(nw, sizeof(uint64_t));
		dt->cand.words = calloc(nw, sizeof(uint32_t));
	}
	dt->alerts = calloc(de->cfg.alert_max, sizeof(DetectAlert));
	/* the firewall's rules too (sigs past nsigs): their matches go
	 * through the same post-match steps */
	dt->stream_hit = calloc(de->nsigs + de->nfw + 1, sizeof(*dt->stream_hit));
	dt->vpass = calloc(de->nsigs + de->nfw + 1, sizeof(*dt->vpass));
	dt->ms = mpm_matchset_new(de->max_pid ? de->max_pid : 1);
	if (de->gpu)
		dt->scov_ids = malloc(SCOV_IDS_MAX * sizeof(*dt->scov_ids));
	dt->md = pcre2_match_data_create(32, NULL);
	if ((dt->mctx = pcre2_match_context_create(NULL))) {
		/* 0: a DetectConfig not from detect_config_load, the defaults */
		uint32_t ml = de->cfg.pcre_match_limit, dl = de->cfg.pcre_depth_limit;

		pcre2_set_match_limit(dt->mctx, ml ? ml : DETECT_PCRE_MATCH_LIMIT);
		pcre2_set_depth_limit(dt->mctx, dl ? dl : DETECT_PCRE_DEPTH_LIMIT);
	}
	dt->vst = detect_var_stage_new();
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
	if (!dt->cand.bits || !dt->cand.words || !dt->alerts || !dt->stream_hit || !dt->vpass || !dt->ms ||
	    !dt->md || !dt->mctx || !dt->vst || tx_thread_init(dt) != 0) {
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
	tx_thread_free(dt);
	free(dt->win_buf);
	free(dt->cand.bits);
	free(dt->cand.words);
	free(dt->alerts);
	free(dt->stream_hit);
	free(dt->vpass);
	if (dt->ms)
		mpm_matchset_free(dt->ms);
	free(dt->scov_ids);
	if (dt->md)
		pcre2_match_data_free(dt->md);
	if (dt->mctx)
		pcre2_match_context_free(dt->mctx);
	lua_thread_free(dt->lua);
	detect_var_stage_free(dt->vst);
	for (uint32_t i = 0; dt->scratch_g && i < dt->de->nscratch; i++)
		if (dt->scratch_g[i])
			mpm_scratch_free(dt->scratch_g[i]);
	free(dt->scratch_g);
	free(dt);
}


int detect_packet_tagged(const DetectThread *dt)
{
	return dt->pkt_tagged;
}

int detect_sig_has_tag(const Signature *s)
{
	return tag_sig_has_tag(s);
}
