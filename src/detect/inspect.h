/* The buffer keywords' contract. A keyword that inspects a buffer
 * (content, pcre, byte_*, isdataat, bsize, ...) is one step of its list's
 * chain, named by its table line (Keyword.step): inspect_buffer() runs the
 * list's first step, and each step, once it matched, asks inspect_next()
 * for the rest of the list from idx + 1 with the position the next keyword
 * is relative to (prev when it does not move). A step returns 1 when it and
 * the rest matched; it may try inspect_next() at other positions (content's
 * backtracking, counted in dt->recursion). It runs on the packet path:
 * no allocation, no locks, no logging.
 *
 * A keyword that starts where the previous one of its list matched also
 * has Keyword.relative (the parser marks that previous one: relative_next),
 * and those without one (bsize, urilen) neither start nor end a relative
 * match. */
#ifndef DETECT_INSPECT_H
#define DETECT_INSPECT_H

#include "detect/engine-int.h"
#include "detect/detect-int.h"

int inspect_next(DetectThread *dt, const Signature *s, const SigMatchList *ml, int idx,
		 const InspectBuffer *b, uint32_t prev);

/* v, or the byte_extract / byte_math variable v names when is_var. */
static inline int64_t inspect_var(const DetectThread *dt, int is_var, int64_t v)
{
	if (!is_var)
		return v;
	return v >= 0 && v < DETECT_VARS_MAX ? (int64_t)dt->vars[v] : 0;
}

/* inspect.c's own steps (they share its search and memo), for their
 * families' tables */
int inspect_content_step(DetectThread *dt, const Signature *s, const SigMatchList *ml, int idx,
			 const InspectBuffer *b, uint32_t prev);
int inspect_pcre_step(DetectThread *dt, const Signature *s, const SigMatchList *ml, int idx,
		      const InspectBuffer *b, uint32_t prev);
int inspect_byte_step(DetectThread *dt, const Signature *s, const SigMatchList *ml, int idx,
		      const InspectBuffer *b, uint32_t prev);
int inspect_base64_step(DetectThread *dt, const Signature *s, const SigMatchList *ml, int idx,
			const InspectBuffer *b, uint32_t prev);

#endif
