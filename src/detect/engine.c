/* Detection engine: its lifecycle (build, free, a reload's hand-over). The
 * build's steps are in build-*.c (build.h), the configuration in
 * engine-config.c, per-thread scratch in thread.c, and the per-packet driver
 * in packet.c (prefilter.h -> sorted candidates -> full inspection ->
 * sig-match.c's alert queue), the raw stream in stream-inspect.c. */
#include "detect/build.h"
#include "app-layer/frames.h"
#include "detect/prefilter-gpu.h"
#include "detect/detect-int.h"
#include "app-layer/app-layer.h"
#include "stream/stream.h"
#include "output/alert.h"
#include "util/log.h"

#include <arpa/inet.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>


/* Engines of this process, numbered: DetectEngine.gen. */
static _Atomic uint32_t engine_gen;

DetectEngine *detect_engine_build(SigTable *t, const DetectConfig *cfg, char *err, size_t errlen)
{
	return detect_engine_build_next(t, cfg, NULL, err, errlen);
}

/* The build, step by step (build.h): rule order and names, each rule's
 * properties, the cross-flow tables the rules need, the signature groups,
 * the transaction rules' groups, then threshold.config. */
DetectEngine *detect_engine_build_next(SigTable *t, const DetectConfig *cfg,
				       const DetectEngine *prev, char *err, size_t errlen)
{
	DetectEngine *de = calloc(1, sizeof(*de));
	int n = t->nsigs;

	if (!de)
		return NULL;
	de->t = t;
	de->cfg = *cfg;
	de->gen = atomic_fetch_add(&engine_gen, 1) + 1;
	if (prev && build_names_inherit(de, prev) != 0)
		goto fail;
	de->thr = threshold_table_new(cfg);
	de->sigs = calloc(n ? n : 1, sizeof(*de->sigs));
	if (!de->thr || !de->sigs || build_order(de, t) != 0)
		goto fail;
	for (int i = 0; i < n; i++)
		if (build_sig_setup(de, &de->sigs[i]) != 0)
			goto fail;
	de->nsigs = n;
	for (int i = 0; i < n; i++)
		if (de->sigs[i].s->flags & SIG_FLAG_FIREWALL) {
			de->nsigs = (uint32_t)i;
			de->nfw = (uint32_t)(n - i);
			break;
		}
	if (fw_tables_build(de) != 0)
		goto fail;
	if (build_frame_index(de) != 0)
		goto fail;
	if (de->nhb && !(de->hosts = host_table_new(cfg)))
		goto fail;
	if (build_groups(de, err, errlen) != 0 || tx_engine_build(de, err, errlen) != 0)
		goto fail;
	build_groups_log(de);
	if (cfg->threshold_file && threshold_config_load(de, cfg->threshold_file, err, errlen) != 0)
		log_warning("threshold-file: %s", err);
	return de;
fail:
	if (!err[0])
		snprintf(err, errlen, "detect: out of memory building the engine");
	detect_engine_free(de);
	return NULL;
}

void detect_engine_free(DetectEngine *de)
{
	if (!de)
		return;
	build_groups_free(de);
	tx_engine_free(de);
	fw_tables_free(de);
	build_sigs_free(de);
	build_names_free(de);
	if (!de->lent_hosts)
		host_table_free(de->hosts);
	if (!de->lent_tags)
		tag_table_free(de->tags);
	threshold_table_free(de->thr);
	free(de->sigs);
	free(de);
}

/* The state that crosses flows and does not name the old engine's
 * internals goes on: hostbits (stable ids, see build-order.c), host tags,
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

/* Suricata's decoder-event-only rule: its keywords are decode-event
 * matches and nothing else. */
static int sig_decoder_event_only(const Signature *s)
{
	const SigMatchList *m = &s->lists[SM_LIST_MATCH];

	if (!m->n)
		return 0;
	for (int l = 0; l < SM_LIST_MAX; l++)
		if (l != SM_LIST_MATCH && s->lists[l].n)
			return 0;
	for (int i = 0; i < m->n; i++)
		if (m->m[i].kw != KW_DECODE_EVENT)
			return 0;
	return 1;
}

void detect_engine_sig_kinds(const DetectEngine *de, SigKinds *k)
{
	memset(k, 0, sizeof(*k));
	for (uint32_t i = 0; i < de->nsigs; i++) {
		const DetectSig *ds = &de->sigs[i];

		k->total++;
		if (ds->iponly)
			k->iponly++;
		else if (ds->has_payload)
			k->payload++;
		else if (sig_decoder_event_only(ds->s))
			k->deonly++;
		else if (ds->is_tx || ds->need_alproto || (ds->s->flags & SIG_FLAG_APPLAYER))
			k->applayer++;
	}
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

