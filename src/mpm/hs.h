/* Hyperscan matcher, internal to src/mpm (mpm.c is its only caller).
 * Built only with HAVE_HYPERSCAN. */
#ifndef MPM_HS_H
#define MPM_HS_H

#include <stddef.h>
#include <stdint.h>

#include "mpm/ac.h"
#include "mpm/mpm.h"

typedef struct MpmHs MpmHs;

/* Patterns as for ac_build (de-duplicated); single: each reported once
 * per scan (HS_FLAG_SINGLEMATCH). NULL with err on failure. */
MpmHs *mpm_hs_build(const struct ac_pattern *pats, uint32_t n,
		    const uint8_t *bytes, int single, char *err, size_t errlen);
void mpm_hs_free(MpmHs *h);
size_t mpm_hs_memory(const MpmHs *h);
/* Per-thread Hyperscan scratch; *out stays NULL for an empty matcher. */
int mpm_hs_scratch_new(const MpmHs *h, void **out);
void mpm_hs_scratch_free(void *scratch);
uint32_t mpm_hs_search(const MpmHs *h, void *scratch, const uint8_t *buf,
		       uint32_t len, mpm_match_fn cb, void *arg);

#endif
