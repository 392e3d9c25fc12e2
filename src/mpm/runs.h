/* Run literals: a fast pattern that is one byte repeated (|00 00 00 00 00|,
 * "AAAAAAAAAAAAAAAA"), found by looking for runs of that byte instead of
 * by the multi-pattern matcher.
 *
 * Such a literal occurs at every offset of a long enough run of its byte,
 * and runs (zero padding above all) are common in network data. Hyperscan
 * reports a single-match literal once, but still confirms and dispatches
 * each of those occurrences inside its scan: on bench-1x, the one
 * |00 00 00 00 00| of the UDP port groups doubled their scan's cost (2.8
 * against 1.3 cycles a byte). A run of at least L bytes covers one of any
 * L consecutive offsets, so the run finder samples every Lmin-th byte (the
 * shortest literal's length), measures a run only where the sampled byte is
 * one of the literals', and skips past each run it has measured.
 *
 * For sets-only contexts (mpm_set_sets_only): each literal is reported at
 * most once per scan, at the end of its first occurrence. */
#ifndef MPM_RUNS_H
#define MPM_RUNS_H

#include "mpm/ac.h"    /* struct ac_pattern */
#include "mpm/mpm.h"   /* mpm_match_fn */

#include <stddef.h>
#include <stdint.h>

/* The shortest literal kept apart, and so the longest sampling step: a
 * step of 4 passes more text than the literals of 4 cost Hyperscan (hs
 * workers on bench-1x: 4 -> 0.966 of the instructions without the finder,
 * 5 -> 0.960, 8 -> 1.022, |00 00 00 00 00| being the literal that costs). */
#define MPM_RUN_MIN_LEN 5
/* At most this many literals a context (a bit each in the scan's
 * reported set); further ones stay with the matcher. */
#define MPM_RUNS_MAX 64

typedef struct MpmRuns MpmRuns;

/* Whether p (bytes at bytes + p->off) is a run literal: MPM_RUN_MIN_LEN or
 * more bytes, all the same (case-folded when nocase). */
int mpm_run_literal(const struct ac_pattern *p, const uint8_t *bytes);

/* The finder for n run literals (each passing mpm_run_literal; n <=
 * MPM_RUNS_MAX). NULL for no memory. */
MpmRuns *mpm_runs_build(const struct ac_pattern *pats, uint32_t n, const uint8_t *bytes);
void mpm_runs_free(MpmRuns *r);
size_t mpm_runs_memory(const MpmRuns *r);
uint32_t mpm_runs_count(const MpmRuns *r);   /* literals */

/* Reports each literal that occurs in buf once; stops when cb returns
 * non-zero. Returns the number reported. No allocation. */
uint32_t mpm_runs_scan(const MpmRuns *r, const uint8_t *buf, uint32_t len, mpm_match_fn cb,
		       void *arg);

#endif
