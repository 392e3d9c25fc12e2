/* threshold:type limit|threshold|both, track by_src|by_dst|by_rule|by_both|by_flow,
 *           count N, seconds N
 * threshold:type backoff, track by_flow, count N, multiplier M
 * detection_filter:track by_src|by_dst|by_flow, count N, seconds N */
#include "detect/detect-int.h"

#include <stdlib.h>
#include <string.h>

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

typedef struct OptWord {
	const char *word;
	int value;
} OptWord;

static const OptWord thr_types[] = {
	{ "limit", THR_LIMIT }, { "threshold", THR_THRESHOLD }, { "both", THR_BOTH },
	{ "backoff", THR_BACKOFF },
};

static const OptWord thr_tracks[] = {
	{ "by_src", TRACK_SRC }, { "by_dst", TRACK_DST }, { "by_rule", TRACK_RULE },
	{ "by_both", TRACK_BOTH }, { "by_flow", TRACK_FLOW },
};

/* Option k (given once, *seen counts) is one of words[0, n): its value. */
static int opt_word(SigParseState *st, const char *kwn, const char *k, const char *v, int *seen,
		    const OptWord *words, size_t n, int *out)
{
	if ((*seen)++)
		return sig_error(st, "%s: %s given twice", kwn, k);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(v, words[i].word) == 0) {
			*out = words[i].value;
			return 0;
		}
	}
	return sig_error(st, "%s: invalid %s \"%s\"", kwn, k, v);
}

/* Option k (given once, *seen counts) is a number in [min, UINT32_MAX]. */
static int opt_u32(SigParseState *st, const char *kwn, const char *k, const char *v, int *seen,
		   uint64_t min, uint32_t *out)
{
	uint64_t u;

	if ((*seen)++)
		return sig_error(st, "%s: %s given twice", kwn, k);
	if (parse_u64(v, &u) || u < min || u > UINT32_MAX)
		return sig_error(st, "%s: invalid %s \"%s\"", kwn, k, v);
	*out = (uint32_t)u;
	return 0;
}

static int parse_thr(SigParseState *st, const char *arg, int is_df)
{
	const char *kwn = is_df ? "detection_filter" : "threshold";
	char buf[256], *parts[6];
	int n, have_type = 0, have_track = 0, have_count = 0, have_secs = 0, have_mult = 0;
	DetectThreshold t = { 0 };
	DetectThreshold *td;

	/* one of the two per rule, at most once */
	if ((is_df ? st->seen_df++ : st->seen_threshold++) != 0)
		return sig_error(st, "%s used more than once in a rule", kwn);
	if (is_df ? st->seen_threshold : st->seen_df)
		return sig_error(st, "threshold and detection_filter cannot be used in the same rule");
	n = sig_split_arg(st, kwn, arg, buf, sizeof(buf), parts, 6);
	if (n < 0)
		return -1;
	if (n > 6)
		return sig_error(st, "invalid %s \"%s\"", kwn, arg);
	for (int i = 0; i < n; i++) {
		char *k = parts[i], *v = k + strcspn(k, " \t");
		int w;

		if (*v)
			*v++ = '\0';
		v = str_trim(v);
		if (strcmp(k, "type") == 0 && !is_df) {
			if (opt_word(st, kwn, k, v, &have_type, thr_types, N_OF(thr_types), &w))
				return -1;
			t.type = (enum thr_type)w;
		} else if (strcmp(k, "track") == 0) {
			if (opt_word(st, kwn, k, v, &have_track, thr_tracks, N_OF(thr_tracks), &w))
				return -1;
			t.track = (enum thr_track)w;
		} else if (strcmp(k, "count") == 0) {
			if (opt_u32(st, kwn, k, v, &have_count, 1, &t.count))
				return -1;
		} else if (strcmp(k, "seconds") == 0) {
			if (opt_u32(st, kwn, k, v, &have_secs, 1, &t.seconds))
				return -1;
		} else if (strcmp(k, "multiplier") == 0 && !is_df) {
			if (opt_u32(st, kwn, k, v, &have_mult, 2, &t.multiplier))
				return -1;
		} else {
			return sig_error(st, "%s: unknown option \"%s\"", kwn, k);
		}
	}
	if (t.type == THR_BACKOFF) {
		if (!have_mult || have_secs || t.track != TRACK_FLOW)
			return sig_error(st, "%s: backoff needs track by_flow, count and multiplier "
					 "(and no seconds)", kwn);
		have_secs = 1;
	} else if (have_mult) {
		return sig_error(st, "%s: multiplier is only valid with type backoff", kwn);
	}
	if ((!is_df && !have_type) || !have_track || !have_count || !have_secs)
		return sig_error(st, "%s needs %s track, count and seconds", kwn,
				 is_df ? "" : "type,");
	if (is_df)
		t.type = THR_DETECTION_FILTER;
	td = malloc(sizeof(*td));
	if (!td)
		return sig_error(st, "out of memory");
	*td = t;
	return sm_append(st, SM_LIST_THRESHOLD, is_df ? KW_DETECTION_FILTER : KW_THRESHOLD,
			 td) < 0 ? -1 : 0;
}

static int kw_threshold(SigParseState *st, const char *arg, const Keyword *kw)
{
	return parse_thr(st, arg, 0);
}

static int kw_detection_filter(SigParseState *st, const char *arg, const Keyword *kw)
{
	return parse_thr(st, arg, 1);
}

/* The keywords of this family: keywords.c gathers the tables (one line
 * per family). */
const Keyword threshold_keywords[] = {
	{ .name = "threshold", .id = KW_THRESHOLD, .setup = kw_threshold, .flags = NEED | SQ,
	  .buf = -1, .desc = "alert thresholding" },
	{ .name = "detection_filter", .id = KW_DETECTION_FILTER, .setup = kw_detection_filter,
	  .flags = NEED | SQ, .buf = -1, .desc = "alert after N matches" },
	{ .name = NULL }
};
