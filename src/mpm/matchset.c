/* Match set: which pattern ids matched in one buffer, each once.
 * A bitmap answers "seen?" in O(1); the list of ids added makes clearing
 * O(matches) instead of O(max id), which matters when the set is large
 * (ET Open: ~20k ids) and most buffers match few of them. */
#include "mpm/mpm.h"

#include <stdlib.h>

struct MpmMatchSet {
	uint32_t max_id;
	uint32_t n;
	uint64_t *bits;   /* (max_id / 64) + 1 words */
	uint32_t *ids;    /* max_id + 1 entries: each id at most once */
};

MpmMatchSet *mpm_matchset_new(uint32_t max_id)
{
	MpmMatchSet *ms = calloc(1, sizeof(*ms));

	if (!ms)
		return NULL;
	ms->max_id = max_id;
	ms->bits = calloc((size_t)max_id / 64 + 1, sizeof(uint64_t));
	ms->ids = malloc(sizeof(uint32_t) * ((size_t)max_id + 1));
	if (!ms->bits || !ms->ids) {
		mpm_matchset_free(ms);
		return NULL;
	}
	return ms;
}

void mpm_matchset_free(MpmMatchSet *ms)
{
	if (!ms)
		return;
	free(ms->bits);
	free(ms->ids);
	free(ms);
}

int mpm_matchset_add(MpmMatchSet *ms, uint32_t id)
{
	uint64_t bit = 1ull << (id & 63);

	if (id > ms->max_id)
		return -1;
	if (ms->bits[id >> 6] & bit)
		return 0;
	ms->bits[id >> 6] |= bit;
	ms->ids[ms->n++] = id;
	return 1;
}

int mpm_matchset_has(const MpmMatchSet *ms, uint32_t id)
{
	if (id > ms->max_id)
		return 0;
	return (ms->bits[id >> 6] >> (id & 63)) & 1;
}

uint32_t mpm_matchset_count(const MpmMatchSet *ms)
{
	return ms->n;
}

const uint32_t *mpm_matchset_ids(const MpmMatchSet *ms)
{
	return ms->ids;
}

void mpm_matchset_clear(MpmMatchSet *ms)
{
	for (uint32_t i = 0; i < ms->n; i++)
		ms->bits[ms->ids[i] >> 6] = 0;
	ms->n = 0;
}

int mpm_matchset_cb(void *arg, uint32_t pattern_id, uint32_t end_offset)
{
	mpm_matchset_add(arg, pattern_id);
	return 0;
}
