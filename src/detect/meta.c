/* Rule metadata: msg, sid, rev, gid, classtype, priority, reference,
 * metadata, target, noalert. None of these inspect traffic. */
#include "detect/detect-int.h"

#include <stdlib.h>
#include <string.h>

/* msg:"text" -- quotes stripped, \" \; \\ unescaped. */
static int kw_msg(SigParseState *st, const char *arg, const Keyword *kw)
{
	size_t n = strlen(arg), j = 0;
	const char *p = arg;
	char *out;

	if (st->seen_msg++)
		return sig_error(st, "msg used more than once in a rule");
	if (n >= 2 && arg[0] == '"' && arg[n - 1] == '"') {
		p = arg + 1;
		n -= 2;
	}
	out = malloc(n + 1);
	if (!out)
		return sig_error(st, "out of memory");
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '\\' && i + 1 < n &&
		    (p[i + 1] == '"' || p[i + 1] == ';' || p[i + 1] == '\\' || p[i + 1] == ':'))
			i++;
		out[j++] = p[i];
	}
	out[j] = '\0';
	st->s->msg = out;
	return 0;
}

/* A u32 option given once per rule (*seen counts), at least min. */
static int parse_u32_kw(SigParseState *st, const char *arg, const char *name, int *seen,
			uint64_t min, uint32_t *out)
{
	uint64_t v;

	if ((*seen)++)
		return sig_error(st, "%s used more than once in a rule", name);
	if (parse_u64(arg, &v) || v < min || v > UINT32_MAX)
		return sig_error(st, "invalid %s \"%s\"", name, arg);
	*out = (uint32_t)v;
	return 0;
}

static int kw_sid(SigParseState *st, const char *arg, const Keyword *kw)
{
	return parse_u32_kw(st, arg, "sid", &st->seen_sid, 1, &st->s->sid);
}

static int kw_rev(SigParseState *st, const char *arg, const Keyword *kw)
{
	return parse_u32_kw(st, arg, "rev", &st->seen_rev, 0, &st->s->rev);
}

static int kw_gid(SigParseState *st, const char *arg, const Keyword *kw)
{
	return parse_u32_kw(st, arg, "gid", &st->seen_gid, 0, &st->s->gid);
}

static int kw_classtype(SigParseState *st, const char *arg, const Keyword *kw)
{
	if (st->seen_class++)
		return sig_error(st, "classtype used more than once in a rule");
	/* Without a loaded classification file nothing can be checked. */
	if (st->ctx && st->ctx->classes && !detect_find_class(st->ctx, arg))
		return sig_error(st, "unknown classtype \"%s\"", arg);
	st->s->classtype = strdup(arg);
	return st->s->classtype ? 0 : sig_error(st, "out of memory");
}

static int kw_priority(SigParseState *st, const char *arg, const Keyword *kw)
{
	uint64_t v;

	if (st->seen_prio++)
		return sig_error(st, "priority used more than once in a rule");
	if (parse_u64(arg, &v) || v < 1 || v > 255)
		return sig_error(st, "invalid priority \"%s\"", arg);
	st->s->priority = (int)v;
	return 0;
}

/* reference:type,value -- an unknown type is accepted, as Suricata does
 * outside strict mode. */
static int kw_reference(SigParseState *st, const char *arg, const Keyword *kw)
{
	const char *c = strchr(arg, ',');
	SigReference *r;
	Signature *s = st->s;

	if (!c || c == arg)
		return sig_error(st, "invalid reference \"%s\": expected type,value", arg);
	r = realloc(s->refs, (s->nrefs + 1) * sizeof(*r));
	if (!r)
		return sig_error(st, "out of memory");
	s->refs = r;
	r = &s->refs[s->nrefs];
	r->type = strndup(arg, c - arg);
	r->value = str_trim_dup(c + 1, 0);
	if (!r->type || !r->value) {
		free(r->type);
		free(r->value);
		return sig_error(st, "out of memory");
	}
	str_trim(r->type);
	if (!*r->value || !*r->type) {
		free(r->type);
		free(r->value);
		return sig_error(st, "invalid reference \"%s\": empty type or value", arg);
	}
	s->nrefs++;
	return 0;
}

/* metadata:key value, key value, ... */
static int kw_metadata(SigParseState *st, const char *arg, const Keyword *kw)
{
	char *copy = strdup(arg), *p;
	Signature *s = st->s;

	if (!copy)
		return sig_error(st, "out of memory");
	p = copy;
	for (;;) {
		char *c = strchr(p, ','), *item, *sp;
		SigMetadata *m;

		if (c)
			*c = '\0';
		item = str_trim(p);
		if (*item) {
			m = realloc(s->meta, (s->nmeta + 1) * sizeof(*m));
			if (!m) {
				free(copy);
				return sig_error(st, "out of memory");
			}
			s->meta = m;
			m = &s->meta[s->nmeta];
			sp = item + strcspn(item, " \t");
			m->key = strndup(item, sp - item);
			m->value = str_trim_dup(sp, 0);
			if (!m->key || !m->value) {
				free(m->key);
				free(m->value);
				free(copy);
				return sig_error(st, "out of memory");
			}
			s->nmeta++;
		}
		if (!c)
			break;
		p = c + 1;
	}
	free(copy);
	return 0;
}

static int kw_target(SigParseState *st, const char *arg, const Keyword *kw)
{
	if (strcmp(arg, "src_ip") == 0)
		st->s->flags |= SIG_FLAG_TARGET_SRC;
	else if (strcmp(arg, "dest_ip") == 0)
		st->s->flags |= SIG_FLAG_TARGET_DST;
	else
		return sig_error(st, "invalid target \"%s\": expected src_ip or dest_ip", arg);
	return 0;
}

static int kw_noalert(SigParseState *st, const char *arg, const Keyword *kw)
{
	st->s->flags |= SIG_FLAG_NOALERT;
	return 0;
}

/* alert (Suricata 7+, "Alert Keywords"): the rule alerts even when its
 * action does not imply it: "alert then pass" for a pass rule. */
static int kw_alert(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)arg;
	(void)kw;
	st->s->flags |= SIG_FLAG_ALERT;
	return 0;
}

/* config:<subsys> <action>, type <type>, scope <scope> (Suricata 8's
 * config rules): subsys logging or tracking, action disable, type tx or
 * flow, scope tx or packet. "logging disable, type tx, scope tx" is
 * applied: the matched transaction gets no eve transaction record
 * (postmatch_apply marks it logged); the rest is parsed and not applied.
 * A config rule never alerts (the config action sets noalert). */
static int kw_config(SigParseState *st, const char *arg, const Keyword *kw)
{
	char buf[256], *parts[4];
	int n = sig_split_arg(st, "config", arg, buf, sizeof(buf), parts, 4);
	int *what;

	(void)kw;
	if (n < 0)
		return -1;
	if (n != 3)
		return sig_error(st, "invalid config \"%s\": expected <subsys> disable, type <t>, scope <s>",
				 arg);
	if (strcmp(parts[0], "logging disable") && strcmp(parts[0], "tracking disable"))
		return sig_error(st, "invalid config setting \"%s\"", parts[0]);
	if (strcmp(parts[1], "type tx") && strcmp(parts[1], "type flow"))
		return sig_error(st, "invalid config type \"%s\"", parts[1]);
	if (strcmp(parts[2], "scope tx") && strcmp(parts[2], "scope packet") &&
	    strcmp(parts[2], "scope flow"))
		return sig_error(st, "invalid config scope \"%s\"", parts[2]);
	if (strcmp(parts[0], "logging disable") || strcmp(parts[1], "type tx") ||
	    strcmp(parts[2], "scope tx"))
		return 0;
	if (!(what = malloc(sizeof(*what))))
		return sig_error(st, "out of memory");
	*what = CONFIG_TX_NO_LOG;
	return sm_append(st, SM_LIST_POSTMATCH, KW_CONFIG, what) < 0 ? -1 : 0;
}

/* The keywords of this family: keywords.c gathers the tables (one line
 * per family). */
const Keyword meta_keywords[] = {
	{ .name = "msg", .id = KW_MSG, .setup = kw_msg, .flags = NEED, .buf = -1,
	  .desc = "rule message" },
	{ .name = "sid", .id = KW_SID, .setup = kw_sid, .flags = NEED | SQ, .buf = -1,
	  .desc = "signature id" },
	{ .name = "rev", .id = KW_REV, .setup = kw_rev, .flags = NEED | SQ, .buf = -1,
	  .desc = "revision" },
	{ .name = "gid", .id = KW_GID, .setup = kw_gid, .flags = NEED | SQ, .buf = -1,
	  .desc = "group id" },
	{ .name = "classtype", .id = KW_CLASSTYPE, .setup = kw_classtype, .flags = NEED | SQ,
	  .buf = -1, .desc = "classification" },
	{ .name = "priority", .id = KW_PRIORITY, .setup = kw_priority, .flags = NEED | SQ,
	  .buf = -1, .desc = "alert priority" },
	{ .name = "reference", .id = KW_REFERENCE, .setup = kw_reference, .flags = NEED | SQ,
	  .buf = -1, .desc = "external reference" },
	{ .name = "metadata", .id = KW_METADATA, .setup = kw_metadata, .flags = NEED, .buf = -1,
	  .desc = "key value metadata" },
	{ .name = "target", .id = KW_TARGET, .setup = kw_target, .flags = NEED | SQ, .buf = -1,
	  .desc = "which side is the target" },
	{ .name = "noalert", .id = KW_NOALERT, .setup = kw_noalert, .flags = NA, .buf = -1,
	  .desc = "match without alerting" },
	{ .name = "alert", .id = KW_ALERT, .setup = kw_alert, .flags = NA, .buf = -1,
	  .desc = "alert even when the action does not (alert then pass)" },
	{ .name = "config", .id = KW_CONFIG, .setup = kw_config, .flags = NEED, .buf = -1,
	  .desc = "config rules: logging/tracking disable (parsed, not applied)" },
	{ .name = NULL }
};
