/* threshold:type limit|threshold|both, track by_src|by_dst|by_rule|by_both|by_flow,
 *           count N, seconds N
 * threshold:type backoff, track by_flow, count N, multiplier M
 * detection_filter:track by_src|by_dst|by_flow, count N, seconds N */
#include "detect/detect-int.h"

#include <stdlib.h>
#include <string.h>

static int parse_thr(SigParseState *st, const char *arg, int is_df)
{
	const char *kwn = is_df ? "detection_filter" : "threshold";
	char buf[256], *parts[6];
	int n, have_type = 0, have_track = 0, have_count = 0, have_secs = 0, have_mult = 0;
	DetectThreshold t = { 0 };
	DetectThreshold *td;

	if (strlen(arg) >= sizeof(buf))
		return sig_error(st, "invalid %s \"%s\"", kwn, arg);
	strcpy(buf, arg);
	n = split_commas(buf, parts, 6);
	if (n > 6)
		return sig_error(st, "invalid %s \"%s\"", kwn, arg);
	for (int i = 0; i < n; i++) {
		char *k = parts[i], *v = k + strcspn(k, " \t");
		uint64_t u;

		if (*v)
			*v++ = '\0';
		v = str_trim(v);
		if (strcmp(k, "type") == 0 && !is_df) {
			if (have_type++)
				return sig_error(st, "%s: type given twice", kwn);
			if (!strcmp(v, "limit"))
				t.type = THR_LIMIT;
			else if (!strcmp(v, "threshold"))
				t.type = THR_THRESHOLD;
			else if (!strcmp(v, "both"))
				t.type = THR_BOTH;
			else if (!strcmp(v, "backoff"))
				t.type = THR_BACKOFF;
			else
				return sig_error(st, "%s: invalid type \"%s\"", kwn, v);
		} else if (strcmp(k, "track") == 0) {
			if (have_track++)
				return sig_error(st, "%s: track given twice", kwn);
			if (!strcmp(v, "by_src"))
				t.track = TRACK_SRC;
			else if (!strcmp(v, "by_dst"))
				t.track = TRACK_DST;
			else if (!strcmp(v, "by_rule"))
				t.track = TRACK_RULE;
			else if (!strcmp(v, "by_both"))
				t.track = TRACK_BOTH;
			else if (!strcmp(v, "by_flow"))
				t.track = TRACK_FLOW;
			else
				return sig_error(st, "%s: invalid track \"%s\"", kwn, v);
		} else if (strcmp(k, "count") == 0) {
			if (have_count++)
				return sig_error(st, "%s: count given twice", kwn);
			if (parse_u64(v, &u) || u == 0 || u > UINT32_MAX)
				return sig_error(st, "%s: invalid count \"%s\"", kwn, v);
			t.count = (uint32_t)u;
		} else if (strcmp(k, "seconds") == 0) {
			if (have_secs++)
				return sig_error(st, "%s: seconds given twice", kwn);
			if (parse_u64(v, &u) || u == 0 || u > UINT32_MAX)
				return sig_error(st, "%s: invalid seconds \"%s\"", kwn, v);
			t.seconds = (uint32_t)u;
		} else if (strcmp(k, "multiplier") == 0 && !is_df) {
			if (have_mult++)
				return sig_error(st, "%s: multiplier given twice", kwn);
			if (parse_u64(v, &u) || u < 2 || u > UINT32_MAX)
				return sig_error(st, "%s: invalid multiplier \"%s\"", kwn, v);
			t.multiplier = (uint32_t)u;
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
	if (st->seen_threshold++)
		return sig_error(st, "threshold used more than once in a rule");
	if (st->seen_df)
		return sig_error(st, "threshold and detection_filter cannot be used in the same rule");
	return parse_thr(st, arg, 0);
}

static int kw_detection_filter(SigParseState *st, const char *arg, const Keyword *kw)
{
	if (st->seen_df++)
		return sig_error(st, "detection_filter used more than once in a rule");
	if (st->seen_threshold)
		return sig_error(st, "threshold and detection_filter cannot be used in the same rule");
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
