/* The device's rule programs (cuda/verify-kernel.h) built from the
 * engine's signatures: a rule's buffer list as acv steps, and per
 * automaton group the programs of each pattern index, in one block that
 * ac_cuda_load_verify() uploads. Start-up only. */
#ifndef DETECT_VERIFY_BUILD_H
#define DETECT_VERIFY_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "cuda/verify-kernel.h"
#include "detect/detect-parse.h"

typedef struct VerifyBuild VerifyBuild;

VerifyBuild *verify_build_new(void);
void verify_build_free(VerifyBuild *vb);

/* Program of s's list `list` named `rule`: its index, or -1 when the
 * list's first element is not one the device evaluates (nothing to gain),
 * the list has a transform chain (the device inspects raw bytes), or out
 * of memory (*oom set). *exact: the program decides the whole list (no
 * ACV_REST). Its length range: the rule's dsize for the payload list, a
 * transaction list's first bsize otherwise. */
int verify_build_prog(VerifyBuild *vb, const Signature *s, int list, uint32_t rule,
		      int *exact, int *oom);

/* Group g (an automaton of ac-cuda) has npat pattern indexes; pattern k's
 * programs are progs[off[k], off[k + 1]). Copied. 0 or -1 (out of memory). */
int verify_build_group(VerifyBuild *vb, uint32_t g, uint32_t npat, const uint32_t *off,
		       const uint32_t *progs);

/* The block for ngroups groups (those never given have no table): *blk
 * malloc'ed, its layout in *lay. 0 or -1 (out of memory). */
int verify_build_finish(VerifyBuild *vb, uint32_t ngroups, void **blk, size_t *size,
			struct acv_layout *lay);

#endif
