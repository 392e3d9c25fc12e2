/* Multi-pattern matcher (MPM): one API, several algorithms.
 *
 * Shaped like Hyperscan's API: patterns are added to a builder, mpm_prepare()
 * compiles them once, after which the MpmCtx is immutable and shared by all
 * threads. Each thread owns an MpmScratch (allocated once). mpm_search()
 * never allocates and reports every (pattern id, end offset) through a
 * callback.
 *
 * Semantics, identical for every algorithm: each (id, end) such that
 * buf[end - len, end) equals the pattern (ASCII-caseless for nocase patterns,
 * byte-exact otherwise) is reported exactly once per distinct pattern of that
 * id. Matches come in increasing end-offset order.
 *
 *   ac       our Aho-Corasick (src/mpm/ac.h), flat tables, the default
 *   hs       Hyperscan, block mode (when built with libhyperscan-dev)
 *   ac-cuda  the GPU matcher; its CPU side (and CPU fallback) is the `ac`
 *            automaton, exposed by mpm_ac_automaton() for the device code
 */
#ifndef MPM_MPM_H
#define MPM_MPM_H

#include <stddef.h>
#include <stdint.h>

#include "mpm/ac.h"

enum mpm_algo {
	MPM_AC = 0,
	MPM_HS,
	MPM_AC_CUDA,
};

/* What the caller logs when mpm-algo names hs in a build without it. */
#define MPM_NO_HS_MSG \
	"mpm-algo hs: this build has no Hyperscan (install libhyperscan-dev and rebuild)"

/* "ac", "hs", "auto" (hs when built with Hyperscan, else ac), "ac-cuda".
 * Returns 0, or -1 for an unknown name or "hs" in a build without
 * Hyperscan; mpm_algo_error(name) then says which, in one line. */
int mpm_algo_parse(const char *name, enum mpm_algo *out);
const char *mpm_algo_error(const char *name);
const char *mpm_algo_name(enum mpm_algo algo);
/* 1 when this build has Hyperscan. */
int mpm_have_hs(void);

typedef struct MpmCtx MpmCtx;
typedef struct MpmScratch MpmScratch;

/* end_offset = index one past the last byte of the match; return nonzero
 * to stop the search. */
typedef int (*mpm_match_fn)(void *arg, uint32_t pattern_id, uint32_t end_offset);

/* NULL when out of memory or `algo` is not built (hs without Hyperscan). */
MpmCtx *mpm_new(enum mpm_algo algo);
/* Before mpm_prepare: the context serves mpm_prefilter, which wants the
 * set of patterns that occur, not each occurrence. hs then compiles every
 * pattern single-match (HS_FLAG_SINGLEMATCH: reported once per scan), and
 * keeps its run literals apart (mpm/runs.h: Hyperscan would still confirm
 * each of their occurrences), so that mpm_search too reports a pattern
 * once, the run literals first; ac is unchanged (its prefilter skips
 * repeats). */
void mpm_set_sets_only(MpmCtx *ctx);
/* Copies the bytes. The same bytes may be added under several ids (each is
 * reported); a duplicate (bytes, nocase, id) collapses, and so does an exact
 * pattern whose id also has the same bytes nocase. Returns 0, or -1 for an
 * empty pattern, a call after mpm_prepare() or no memory. */
int mpm_add_pattern(MpmCtx *ctx, const uint8_t *pat, uint16_t len, uint32_t id,
		    int nocase);
/* A pattern that counts only where it ends within the first `bound` bytes
 * of the scanned buffer (a fast pattern with depth). A sets-only ac or hs
 * context keeps such patterns (bound <= MPM_HEAD_MAX, starting at most
 * MPM_HEAD_REACH bytes in) apart and finds them at the starts their bounds
 * allow (mpm/head.h): the short anchored patterns rules check at a
 * message's start (|00 01| depth 2, ...) hit in every buffer, and in the
 * scan of the whole buffer they cost more than the rest together. Such a
 * pattern is reported where it ends within its bound, never past it; one
 * that may start further in is the matcher's like an unbounded one (a
 * prefilter may give more, never less). mpm_prefilter and mpm_search then
 * take buf as the buffer from its first byte, and mpm_search reports the
 * bounded patterns after the others. Any other context, and bound 0 (no
 * bound): mpm_add_pattern. */
#define MPM_HEAD_MAX 64
/* On bench-1x with ET Open (hs worker instructions, against an automaton
 * over the whole head): reach 8 0.970, 6 0.973, 4 0.979. */
#define MPM_HEAD_REACH 8
int mpm_add_pattern_bounded(MpmCtx *ctx, const uint8_t *pat, uint16_t len, uint32_t id,
			    int nocase, uint32_t bound);
/* Compiles. Afterwards the context is read-only and may be shared. Returns 0,
 * or -1 with a one-line reason in err. */
int mpm_prepare(MpmCtx *ctx, char *err, size_t errlen);
void mpm_free(MpmCtx *ctx);

MpmScratch *mpm_scratch_new(const MpmCtx *ctx);   /* after mpm_prepare */
void mpm_scratch_free(MpmScratch *s);

/* Returns the number of matches reported (including the one whose callback
 * stopped the search). No allocation. */
uint32_t mpm_search(const MpmCtx *ctx, MpmScratch *s, const uint8_t *buf,
		    uint32_t len, mpm_match_fn cb, void *arg);

/* The prefilter's search: adds to ms every id that occurs in buf. Cheaper
 * than mpm_search with mpm_matchset_cb when a pattern repeats (ac skips the
 * repeats instead of reporting each). No allocation. */
typedef struct MpmMatchSet MpmMatchSet;
void mpm_prefilter(const MpmCtx *ctx, MpmScratch *s, const uint8_t *buf, uint32_t len,
		   MpmMatchSet *ms);

/* mpm_prefilter in two parts, for a buffer scanned in pieces (ac-cuda's
 * stream windows: the device scans most of it, the CPU the rest): the
 * unbounded patterns alone, which any piece may hold; and the bounded ones
 * alone (mpm_add_pattern_bounded), which only the piece that starts the
 * buffer holds. Both together are mpm_prefilter. */
void mpm_prefilter_unbounded(const MpmCtx *ctx, MpmScratch *s, const uint8_t *buf,
			     uint32_t len, MpmMatchSet *ms);
void mpm_prefilter_bounded(const MpmCtx *ctx, const uint8_t *buf, uint32_t len, MpmMatchSet *ms);
/* mark[id] |= bit for each pattern id < n the context keeps bounded (a
 * matcher that ignores bounds, the GPU's, reports these anywhere). */
void mpm_mark_bounded(const MpmCtx *ctx, uint8_t *mark, uint32_t n, uint8_t bit);

enum mpm_algo mpm_ctx_algo(const MpmCtx *ctx);
size_t mpm_memory(const MpmCtx *ctx);          /* bytes of the compiled tables */
uint32_t mpm_pattern_count(const MpmCtx *ctx); /* distinct patterns, after dedup */
uint32_t mpm_max_pattern_id(const MpmCtx *ctx); /* 0 when no pattern */
uint32_t mpm_max_pattern_len(const MpmCtx *ctx);
/* The ac automaton of an ac or ac-cuda context (NULL otherwise, or before
 * mpm_prepare): the flat block the GPU code copies to the device. */
const AcAutomaton *mpm_ac_automaton(const MpmCtx *ctx);
/* Bytes of dense DFA rows an ac automaton may use (see ac.h); applies to
 * contexts prepared afterwards. Start-up only. */
void mpm_set_ac_dense_budget(size_t bytes);
/* The ac bigram filter (see ac.h): -1 decides per automaton (default),
 * 0 never, 1 always. Start-up and tests only. */
void mpm_set_ac_filter(int mode);
/* 4 forces 32-bit dense rows, 0 (default) takes 16 bits where they fit.
 * Tests only. */
void mpm_set_ac_width(int width);
/* 1 (default): ac contexts also build the GPU lists of ac.h (outoff, out,
 * pat) that the ac-cuda code walks; 0 leaves them out (less memory; the
 * CPU scan never uses them). ac-cuda contexts always have them. */
void mpm_set_ac_gpu_lists(int on);

/* ---- match set: each pattern id once per buffer ----
 * Per thread, sized once by the largest pattern id. Adding is O(1), clearing
 * is O(ids added). The prefilter feeds it from mpm_search (mpm_matchset_cb)
 * or from (id, end) pairs computed elsewhere (the GPU). The type is declared
 * above, with mpm_prefilter. */

MpmMatchSet *mpm_matchset_new(uint32_t max_id);
void mpm_matchset_free(MpmMatchSet *ms);
/* 1 when id was new, 0 when already there, -1 when id > max_id. */
int mpm_matchset_add(MpmMatchSet *ms, uint32_t id);
int mpm_matchset_has(const MpmMatchSet *ms, uint32_t id);
uint32_t mpm_matchset_count(const MpmMatchSet *ms);
/* The ids in the order they were first added. */
const uint32_t *mpm_matchset_ids(const MpmMatchSet *ms);
void mpm_matchset_clear(MpmMatchSet *ms);
/* An mpm_match_fn whose arg is an MpmMatchSet; never stops the search. */
int mpm_matchset_cb(void *arg, uint32_t pattern_id, uint32_t end_offset);

#endif
