/* content and its modifiers (nocase, offset, depth, distance, within,
 * startswith, endswith, fast_pattern, rawbytes), isdataat, dsize. */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "detect/inspect.h"
#include "util/strnum.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Decodes [!]"text" with |hex| runs and the escapes \" \; \\ \: into bytes. */
int content_decode(const char *in, uint8_t **out, uint16_t *outlen, int *negated,
		   char *err, size_t errlen)
{
	const char *end, *p = sig_arg_negation(in, negated, &end);
	uint8_t *buf;
	size_t n = 0;
	int hex = 0, nib = -1;

	if (end - p < 2 || *p != '"' || end[-1] != '"') {
		snprintf(err, errlen, "content must be a quoted string");
		return -1;
	}
	p++;
	end--;
	buf = malloc((end - p) + 1);
	if (!buf) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (; p < end; p++) {
		int c = (unsigned char)*p;

		if (c == '|') {
			if (hex && nib >= 0) {
				snprintf(err, errlen, "odd number of hex digits in content");
				goto fail;
			}
			hex = !hex;
			continue;
		}
		if (hex) {
			int v;

			if (isspace(c))
				continue;
			v = hex_digit(c);
			if (v < 0) {
				snprintf(err, errlen, "invalid hex character '%c' in content", c);
				goto fail;
			}
			if (nib < 0) {
				nib = v;
			} else {
				buf[n++] = (uint8_t)(nib << 4 | v);
				nib = -1;
			}
			continue;
		}
		if (c == '\\') {
			if (p + 1 >= end) {
				snprintf(err, errlen, "content ends with a lone backslash");
				goto fail;
			}
			c = (unsigned char)*++p;
			if (c != '"' && c != ';' && c != '\\' && c != ':') {
				snprintf(err, errlen, "invalid escape \\%c in content", c);
				goto fail;
			}
			buf[n++] = (uint8_t)c;
			continue;
		}
		if (c == '"') {
			snprintf(err, errlen, "unescaped '\"' inside content");
			goto fail;
		}
		buf[n++] = (uint8_t)c;
	}
	if (hex) {
		snprintf(err, errlen, "unterminated hex sequence in content (missing '|')");
		goto fail;
	}
	if (n == 0) {
		snprintf(err, errlen, "content is empty");
		goto fail;
	}
	if (n > 65535) {
		snprintf(err, errlen, "content is too long");
		goto fail;
	}
	*out = buf;
	*outlen = (uint16_t)n;
	return 0;
fail:
	free(buf);
	return -1;
}

static int add_content(SigParseState *st, const char *arg, int list)
{
	DetectContent *cd = calloc(1, sizeof(*cd));
	char err[160];
	int neg, idx;

	if (!cd)
		return sig_error(st, "out of memory");
	if (content_decode(arg, &cd->pat, &cd->len, &neg, err, sizeof(err))) {
		free(cd);
		return sig_error(st, "%s", err);
	}
	if (neg)
		cd->flags |= CONTENT_NEGATED;
	idx = sm_append(st, list, KW_CONTENT, cd);
	if (idx < 0)
		return -1;
	st->last_cd = cd;
	st->last_cd_list = list;
	st->last_inspect_list = list;
	return 0;
}

static int kw_content(SigParseState *st, const char *arg, const Keyword *kw)
{
	return add_content(st, arg, sig_cur_list(st));
}

/* uricontent is "content; http_uri;" in one keyword (Snort legacy). */
static int kw_uricontent(SigParseState *st, const char *arg, const Keyword *kw)
{
	if (st->cur_buf >= 0)
		return sig_error(st, "uricontent seen with a sticky buffer still set");
	if (sig_set_alproto_http(st))
		return -1;
	return add_content(st, arg, BUF_HTTP_URI);
}

static DetectContent *last_content(SigParseState *st, const char *kwname)
{
	if (!st->last_cd)
		sig_error(st, "%s needs a preceding content", kwname);
	return st->last_cd;
}

static int kw_nocase(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectContent *cd = last_content(st, "nocase");

	if (!cd)
		return -1;
	if (cd->flags & CONTENT_NOCASE)
		return sig_error(st, "multiple nocase modifiers on the same content");
	cd->flags |= CONTENT_NOCASE;
	return 0;
}

/* A modifier value: a number, or the name of a byte_extract variable. */
static int mod_value(SigParseState *st, const char *arg, const char *kwname,
		     int64_t min, int64_t max, int32_t *val, int *is_var)
{
	int64_t v;

	*is_var = 0;
	if (parse_i64(arg, &v) == 0) {
		if (v < min || v > max)
			return sig_error(st, "%s value %lld out of range", kwname, (long long)v);
		*val = (int32_t)v;
		return 0;
	}
	int idx = sig_var_find(st->s, arg);

	if (idx < 0)
		return sig_error(st, "invalid %s value \"%s\"", kwname, arg);
	*val = idx;
	*is_var = 1;
	return 0;
}

#define ABS_FLAGS (CONTENT_OFFSET | CONTENT_DEPTH)
#define REL_FLAGS (CONTENT_DISTANCE | CONTENT_WITHIN)

static int kw_offset(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectContent *cd = last_content(st, "offset");
	int32_t v;
	int var;

	if (!cd)
		return -1;
	if (cd->flags & CONTENT_STARTSWITH)
		return sig_error(st, "offset cannot be combined with startswith");
	if (cd->flags & CONTENT_OFFSET)
		return sig_error(st, "multiple offsets for the same content");
	if (cd->flags & REL_FLAGS)
		return sig_error(st, "offset cannot be used with distance or within on the same content");
	if (mod_value(st, arg, "offset", 0, 65535, &v, &var))
		return -1;
	cd->offset = v;
	cd->flags |= CONTENT_OFFSET | (var ? CONTENT_OFFSET_VAR : 0);
	/* depth is kept as an absolute end: shift it if it came first */
	if ((cd->flags & CONTENT_DEPTH) && !var && !(cd->flags & CONTENT_DEPTH_VAR))
		cd->depth += v;
	return 0;
}

static int kw_depth(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectContent *cd = last_content(st, "depth");
	int32_t v;
	int var;

	if (!cd)
		return -1;
	if (cd->flags & CONTENT_STARTSWITH)
		return sig_error(st, "depth cannot be combined with startswith");
	if (cd->flags & CONTENT_DEPTH)
		return sig_error(st, "multiple depths for the same content");
	if (cd->flags & REL_FLAGS)
		return sig_error(st, "depth cannot be used with distance or within on the same content");
	if (mod_value(st, arg, "depth", 1, 65535, &v, &var))
		return -1;
	if (!var && v < cd->len)
		return sig_error(st, "depth %d is smaller than the content length %u", v, cd->len);
	cd->depth = v;
	cd->flags |= CONTENT_DEPTH | (var ? CONTENT_DEPTH_VAR : 0);
	if (!var && (cd->flags & CONTENT_OFFSET) && !(cd->flags & CONTENT_OFFSET_VAR))
		cd->depth += cd->offset;
	return 0;
}

static int kw_distance(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectContent *cd = last_content(st, "distance");
	int32_t v;
	int var;

	if (!cd)
		return -1;
	if (cd->flags & CONTENT_STARTSWITH)
		return sig_error(st, "distance cannot be combined with startswith");
	if (cd->flags & CONTENT_DISTANCE)
		return sig_error(st, "multiple distances for the same content");
	if (cd->flags & ABS_FLAGS)
		return sig_error(st, "distance cannot be used with offset or depth on the same content");
	if (mod_value(st, arg, "distance", -65535, 65535, &v, &var))
		return -1;
	cd->distance = v;
	cd->flags |= CONTENT_DISTANCE | (var ? CONTENT_DISTANCE_VAR : 0);
	return 0;
}

static int kw_within(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectContent *cd = last_content(st, "within");
	int32_t v;
	int var;

	if (!cd)
		return -1;
	if (cd->flags & CONTENT_STARTSWITH)
		return sig_error(st, "within cannot be combined with startswith");
	if (cd->flags & CONTENT_WITHIN)
		return sig_error(st, "multiple withins for the same content");
	if (cd->flags & ABS_FLAGS)
		return sig_error(st, "within cannot be used with offset or depth on the same content");
	if (mod_value(st, arg, "within", 1, 65535, &v, &var))
		return -1;
	if (!var && v < cd->len)
		return sig_error(st, "within %d is smaller than the content length %u", v, cd->len);
	cd->within = v;
	cd->flags |= CONTENT_WITHIN | (var ? CONTENT_WITHIN_VAR : 0);
	return 0;
}

/* replace:"bytes" -- an IPS keyword: the payload content before it is
 * rewritten on the wire with bytes of the same length. Suricata 8 takes it
 * on a plain payload content only and ignores it in IDS mode; the verdict
 * path applies Signature.repl. */
static int kw_replace(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectContent *cd = last_content(st, "replace");
	struct SigReplace *r;
	uint8_t *bytes = NULL;
	uint16_t len = 0;
	int neg = 0, idx = -1;
	char err[160];

	(void)kw;
	if (!cd)
		return -1;
	if (st->last_cd_list != BUF_PAYLOAD)
		return sig_error(st, "replace works on a payload content, not %s",
				 sig_buffer_name(st->last_cd_list));
	if (cd->flags & CONTENT_NEGATED)
		return sig_error(st, "replace cannot be used on a negated content");
	if (content_decode(arg, &bytes, &len, &neg, err, sizeof(err)) != 0)
		return sig_error(st, "replace: %s", err);
	if (neg || len != cd->len) {
		free(bytes);
		return sig_error(st, "replace must be a positive string as long as its content");
	}
	sig_last_content_in(st->s, BUF_PAYLOAD, &idx);
	r = realloc(st->s->repl, (size_t)(st->s->nrepl + 1) * sizeof(*r));
	if (!r) {
		free(bytes);
		return sig_error(st, "out of memory");
	}
	st->s->repl = r;
	r[st->s->nrepl++] = (struct SigReplace){ .idx = idx, .bytes = bytes, .len = len };
	return 0;
}

/* absent[: or_else] (Suricata 8), right after a sticky buffer: the rule
 * matches when the transaction has no such buffer at all; with or_else,
 * also when it has one and the keywords after it match. The step runs
 * only on a buffer that is there (tx-inspect.c tries a missing one with
 * sig_list_absent()). */
static int kw_absent(SigParseState *st, const char *arg, const Keyword *kw)
{
	int *or_else;

	(void)kw;
	if (st->cur_buf < 0)
		return sig_error(st, "absent needs a sticky buffer before it");
	if (st->s->lists[st->cur_buf].n)
		return sig_error(st, "absent must come right after its sticky buffer");
	if (arg && strcmp(arg, "or_else"))
		return sig_error(st, "invalid absent \"%s\": expected nothing or or_else", arg);
	or_else = malloc(sizeof(*or_else));
	if (!or_else)
		return sig_error(st, "out of memory");
	*or_else = arg != NULL;
	return sm_append(st, st->cur_buf, KW_ABSENT, or_else) < 0 ? -1 : 0;
}

static int absent_step(DetectThread *dt, const Signature *s, const SigMatchList *ml, int idx,
		       const InspectBuffer *b, uint32_t prev)
{
	if (!*(const int *)ml->m[idx].ctx)
		return 0;
	return inspect_next(dt, s, ml, idx + 1, b, prev);
}

int sig_list_absent(const Signature *s, int list)
{
	const SigMatchList *ml = &s->lists[list];

	return ml->n && ml->m[0].kw == KW_ABSENT;
}

/* startswith == offset:0; depth:<content length>; and excludes both. */
static int kw_startswith(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectContent *cd = last_content(st, "startswith");

	if (!cd)
		return -1;
	if (cd->flags & (ABS_FLAGS | REL_FLAGS))
		return sig_error(st, "startswith cannot be combined with offset, depth, distance or within");
	if (cd->flags & CONTENT_STARTSWITH)
		return sig_error(st, "multiple startswith for the same content");
	/* a negated content with startswith: the buffer does not start with
	 * it (Suricata 8 accepts this) */
	cd->flags |= CONTENT_STARTSWITH | CONTENT_DEPTH;
	cd->offset = 0;
	cd->depth = cd->len;
	return 0;
}

static int kw_endswith(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectContent *cd = last_content(st, "endswith");

	if (!cd)
		return -1;
	if (cd->flags & CONTENT_ENDSWITH)
		return sig_error(st, "multiple endswith for the same content");
	/* a negated endswith is allowed (Suricata >= 6.0.11): "does not end with" */
	cd->flags |= CONTENT_ENDSWITH;
	return 0;
}

static int kw_rawbytes(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectContent *cd = last_content(st, "rawbytes");

	if (!cd)
		return -1;
	if (st->last_cd_list != BUF_PAYLOAD)
		return sig_error(st, "rawbytes cannot be used on a content in %s",
				 sig_buffer_name(st->last_cd_list));
	cd->flags |= CONTENT_RAWBYTES;
	return 0;
}

/* fast_pattern; fast_pattern:only; fast_pattern:<offset>,<length>; (chop) */
static int kw_fast_pattern(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectContent *cd = last_content(st, "fast_pattern");
	char buf[64], *parts[3];
	uint64_t off, len;

	if (!cd)
		return -1;
	if (cd->flags & CONTENT_FAST_PATTERN)
		return sig_error(st, "fast_pattern used twice on the same content");
	cd->flags |= CONTENT_FAST_PATTERN;
	if (!arg)
		return 0;
	if (strcmp(arg, "only") == 0) {
		cd->flags |= CONTENT_FP_ONLY;
		return 0;
	}
	if (strlen(arg) >= sizeof(buf))
		return sig_error(st, "invalid fast_pattern argument \"%s\"", arg);
	strcpy(buf, arg);
	if (split_commas(buf, parts, 3) != 2 || parse_u64(parts[0], &off) ||
	    parse_u64(parts[1], &len) || off > 65535 || len == 0 || len > 65535)
		return sig_error(st, "invalid fast_pattern argument \"%s\"", arg);
	if (off + len > cd->len)
		return sig_error(st, "fast_pattern offset + length exceeds the content length");
	cd->flags |= CONTENT_FP_CHOP;
	cd->fp_chop_offset = (uint16_t)off;
	cd->fp_chop_len = (uint16_t)len;
	return 0;
}

/* isdataat:[!]<n|var>[,relative][,rawbytes] */
static int kw_isdataat(SigParseState *st, const char *arg, const Keyword *kw)
{
	char buf[128], *parts[4], *v;
	int n, list;
	DetectIsdataat *id;

	n = sig_split_arg(st, "isdataat", arg, buf, sizeof(buf), parts, 4);
	if (n < 0)
		return -1;
	if (n > 3)
		return sig_error(st, "invalid isdataat \"%s\"", arg);
	id = calloc(1, sizeof(*id));
	if (!id)
		return sig_error(st, "out of memory");
	v = parts[0];
	if (*v == '!') {
		id->flags |= ISDATAAT_NEGATED;
		v = str_trim(v + 1);
	}
	for (int i = 1; i < n; i++) {
		if (strcmp(parts[i], "relative") == 0) {
			id->flags |= ISDATAAT_RELATIVE;
		} else if (strcmp(parts[i], "rawbytes") == 0) {
			id->flags |= ISDATAAT_RAWBYTES;
		} else {
			free(id);
			return sig_error(st, "invalid isdataat option \"%s\"", parts[i]);
		}
	}
	uint64_t u;

	if (parse_u64(v, &u) == 0) {
		if (u > 65535) {
			free(id);
			return sig_error(st, "isdataat value %llu out of range", (unsigned long long)u);
		}
		id->dataat = (uint16_t)u;
	} else {
		int idx = sig_var_find(st->s, v);

		if (idx < 0) {
			free(id);
			return sig_error(st, "invalid isdataat value \"%s\"", v);
		}
		id->dataat = (uint16_t)idx;
		id->flags |= ISDATAAT_VAR;
	}
	/* relative: the buffer of the keyword it is relative to */
	list = sig_cur_list(st);
	if ((id->flags & ISDATAAT_RELATIVE) && st->cur_buf < 0 && st->last_inspect_list >= 0)
		list = st->last_inspect_list;
	if (sm_append(st, list, KW_ISDATAAT, id) < 0)
		return -1;
	st->last_inspect_list = list;
	return 0;
}

static int kw_dsize(SigParseState *st, const char *arg, const Keyword *kw)
{
	if (st->seen_dsize++)
		return sig_error(st, "dsize used more than once in a rule");
	return sm_append_uint(st, SM_LIST_MATCH, KW_DSIZE, "dsize", arg, 65535);
}

/* dsize:!N does not match payload-less packets in Suricata
 * (suricata-verify test-dsize-values), while dsize:<N does */
static int match_dsize(DetectThread *dt, const SigMatch *m, Packet *p)
{
	(void)dt;
	if (((const DetectUint *)m->ctx)->mode == UM_NE && !p->payload_len)
		return 0;
	return detect_uint_match(m->ctx, p->payload_len);
}

static void free_content(void *ctx)
{
	free(((DetectContent *)ctx)->pat);
}

static int content_relative(const SigMatch *m)
{
	return !!(m->cd->flags & (CONTENT_DISTANCE | CONTENT_WITHIN));
}

static int isdataat_step(DetectThread *dt, const Signature *s, const SigMatchList *ml,
			 int idx, const InspectBuffer *b, uint32_t prev)
{
	const DetectIsdataat *id = ml->m[idx].ctx;
	int64_t n = inspect_var(dt, id->flags & ISDATAAT_VAR, id->dataat);
	int ok;

	/* Suricata: relative needs prev + n <= len; absolute needs n < len */
	if (id->flags & ISDATAAT_RELATIVE)
		ok = (int64_t)prev + n <= (int64_t)b->len;
	else
		ok = n < (int64_t)b->len;
	if (id->flags & ISDATAAT_NEGATED)
		ok = !ok;
	return ok ? inspect_next(dt, s, ml, idx + 1, b, prev) : 0;
}


static int isdataat_relative(const SigMatch *m)
{
	return !!(((const DetectIsdataat *)m->ctx)->flags & ISDATAAT_RELATIVE);
}

/* The keywords of this family: keywords.c gathers the tables (one line
 * per family). */
const Keyword content_keywords[] = {
	{ .name = "content", .id = KW_CONTENT, .setup = kw_content, .flags = NEED, .buf = -1,
	  .desc = "match a pattern", .free = free_content, .step = inspect_content_step,
	  .relative = content_relative },
	{ .name = "uricontent", .id = KW_URICONTENT, .setup = kw_uricontent, .flags = NEED,
	  .buf = -1, .desc = "content in the http uri (legacy)" },
	{ .name = "nocase", .id = KW_NOCASE, .setup = kw_nocase, .flags = NA, .buf = -1,
	  .desc = "content: case-insensitive" },
	{ .name = "offset", .id = KW_OFFSET, .setup = kw_offset, .flags = NEED | SQ, .buf = -1,
	  .desc = "content: start at" },
	{ .name = "depth", .id = KW_DEPTH, .setup = kw_depth, .flags = NEED | SQ, .buf = -1,
	  .desc = "content: end within the first N bytes" },
	{ .name = "distance", .id = KW_DISTANCE, .setup = kw_distance, .flags = NEED | SQ,
	  .buf = -1, .desc = "content: relative start" },
	{ .name = "within", .id = KW_WITHIN, .setup = kw_within, .flags = NEED | SQ, .buf = -1,
	  .desc = "content: relative end" },
	{ .name = "startswith", .id = KW_STARTSWITH, .setup = kw_startswith, .flags = NA,
	  .buf = -1, .desc = "content: at the buffer start" },
	{ .name = "endswith", .id = KW_ENDSWITH, .setup = kw_endswith, .flags = NA, .buf = -1,
	  .desc = "content: at the buffer end" },
	{ .name = "isdataat", .id = KW_ISDATAAT, .setup = kw_isdataat, .flags = NEED | SQ, .buf = -1,
	  .desc = "data present at offset", .step = isdataat_step, .relative = isdataat_relative },
	{ .name = "fast_pattern", .id = KW_FAST_PATTERN, .setup = kw_fast_pattern, .flags = SQ,
	  .buf = -1, .desc = "use this content for prefiltering" },
	{ .name = "rawbytes", .id = KW_RAWBYTES, .setup = kw_rawbytes, .flags = NA, .buf = -1,
	  .desc = "content: raw packet bytes" },
	{ .name = "absent", .id = KW_ABSENT, .setup = kw_absent, .flags = SQ, .buf = -1,
	  .desc = "the sticky buffer is not there [or_else: or what follows matches]",
	  .step = absent_step },
	{ .name = "replace", .id = KW_REPLACE, .setup = kw_replace, .flags = NEED, .buf = -1,
	  .desc = "content: rewritten on the wire (IPS)" },
	{ .name = "dsize", .id = KW_DSIZE, .setup = kw_dsize, .flags = NEED | SQ, .buf = -1,
	  .desc = "payload size", .match = match_dsize },
	{ .name = NULL }
};
