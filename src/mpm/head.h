/* Head patterns: literals that count only where they end within the first
 * `bound` bytes of the scanned buffer (a fast pattern with depth, bound <=
 * MPM_HEAD_MAX), found by their start offsets instead of by an automaton.
 *
 * Most such patterns can start at one offset only (content:"|00 01|";
 * depth:2 starts at 0) or a few, so a buffer's head is probed only at the
 * starts some pattern allows: the two bytes there (case-folded) select a
 * hash bucket of the patterns beginning with them, whose entries are then
 * compared. On bench-1x the heads of ET Open hold ~2,200 patterns, 58% of
 * them at start 0 alone and 95% within 16 bytes of it; an Aho-Corasick
 * walk over the whole 64-byte head cost ~16 instructions a byte, mostly in
 * cache misses over automata of up to 64 KB.
 *
 * A pattern is reported where it ends within its own bound, at every such
 * offset. Read-only after mpm_head_build: no scratch, shareable. */
#ifndef MPM_HEAD_H
#define MPM_HEAD_H

#include "mpm/ac.h"    /* struct ac_pattern */
#include "mpm/mpm.h"   /* mpm_match_fn */

#include <stddef.h>
#include <stdint.h>

typedef struct MpmHead MpmHead;

/* pats[i] (bytes at bytes + pats[i].off) with its bound[i], pats[i].len <=
 * bound[i] <= MPM_HEAD_MAX. NULL for no memory. */
MpmHead *mpm_head_build(const struct ac_pattern *pats, const uint32_t *bound, uint32_t n,
			const uint8_t *bytes);
void mpm_head_free(MpmHead *h);

/* Reports (cb) each pattern where it occurs ending within its bound, by
 * start offset; stops when cb returns nonzero. Returns the reports made.
 * No allocation. */
uint32_t mpm_head_scan(const MpmHead *h, const uint8_t *buf, uint32_t len, mpm_match_fn cb,
		       void *arg);

/* mark[id] |= bit for each pattern id < n. */
void mpm_head_mark(const MpmHead *h, uint8_t *mark, uint32_t n, uint8_t bit);

uint32_t mpm_head_count(const MpmHead *h);
size_t mpm_head_memory(const MpmHead *h);

#endif /* MPM_HEAD_H */
