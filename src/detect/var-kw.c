/* Flow and packet variables: what pcre captures set (Suricata 8's
 * `(?P<flow_name>...)`, `(?P<pkt_name>...)` and `/re/flags, flow:name,
 * pkt:name`), and the keywords that check them, flowvar:<name>,<content>
 * and pktvar:<name>,<content> (the variable holds the content).
 *
 * A capture counts only when its rule matches, as in Suricata: the pcre
 * step stages what it captured in the thread's stage (a fixed buffer, no
 * allocation on the packet path), rewinds it when the rest of the rule
 * fails, and the match commits it: a flowvar to the flow's detect state (a
 * name set again takes the new value), a pktvar to the thread's list for
 * the packet being inspected. Both are logged in eve's "metadata" object,
 * flowvars in alert and flow records, pktvars in the packet's alerts.
 *
 * Bounds: a value keeps at most VAR_VALUE_MAX bytes, a flow at most
 * FLOW_VARS_MAX names (a new name beyond is not stored), a packet
 * VAR_STAGE_MAX pktvars. */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "detect/inspect.h"
#include "detect/pcre2-config.h"
#include "output/alert.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define VAR_VALUE_MAX 2048
#define FLOW_VARS_MAX 64

typedef struct StagedVar {
	const char *name;         /* the rule's (DetectPcreCap.name) */
	uint8_t flow;             /* 1 flowvar, 0 pktvar */
	uint32_t off;             /* in the buffer it lives in */
	uint16_t len;
} StagedVar;

struct DetectVarStage {
	/* captures of the rule being inspected, not yet committed */
	const Signature *s;
	uint32_t pkt_seq;
	int n;
	uint32_t used;
	StagedVar e[VAR_STAGE_MAX];
	uint8_t buf[VAR_STAGE_MAX * 256];
	/* the committed pktvars of the packet pv_seq */
	uint32_t pv_seq;
	int npv;
	uint32_t pv_used;
	StagedVar pv[VAR_STAGE_MAX];
	uint8_t pbuf[VAR_STAGE_MAX * 256];
};

typedef struct FlowVar {
	char *name;
	uint8_t *val;
	uint16_t len;
} FlowVar;

struct DetectFlowVars {
	int n;
	FlowVar v[FLOW_VARS_MAX];
};

/* ---- parsing ---- */

static int valid_var_name(const char *n)
{
	if (!*n)
		return 0;
	for (; *n; n++)
		if (!isalnum((unsigned char)*n) && *n != '_' && *n != '.' && *n != '-')
			return 0;
	return 1;
}

static int cap_add(SigParseState *st, DetectPcre *pd, int group, int flow, const char *name,
		   size_t len)
{
	DetectPcreCap *c;

	if (pd->ncaps >= PCRE_CAPS_MAX)
		return sig_error(st, "pcre: more than %d captured variables", PCRE_CAPS_MAX);
	if (group >= PCRE_CAP_GROUP_MAX)
		return sig_error(st, "pcre: capture group %d is beyond %d", group,
				 PCRE_CAP_GROUP_MAX - 1);
	c = realloc(pd->caps, (size_t)(pd->ncaps + 1) * sizeof(*c));
	if (!c)
		return sig_error(st, "out of memory");
	pd->caps = c;
	c[pd->ncaps].group = (uint8_t)group;
	c[pd->ncaps].flow = (uint8_t)flow;
	c[pd->ncaps].name = strndup(name, len);
	if (!c[pd->ncaps].name)
		return sig_error(st, "out of memory");
	if (!valid_var_name(c[pd->ncaps].name)) {
		sig_error(st, "pcre: invalid variable name \"%s\"", c[pd->ncaps].name);
		free(c[pd->ncaps].name);
		return -1;
	}
	pd->ncaps++;
	return 0;
}

int pcre_captures_parse(SigParseState *st, DetectPcre *pd, const char *spec)
{
	uint32_t count = 0, esz = 0;
	PCRE2_SPTR table = NULL;
	int group = 1;

	/* named groups: (?P<flow_x>...) and (?P<pkt_x>...) */
	pcre2_pattern_info(pd->code, PCRE2_INFO_NAMECOUNT, &count);
	if (count) {
		pcre2_pattern_info(pd->code, PCRE2_INFO_NAMEENTRYSIZE, &esz);
		pcre2_pattern_info(pd->code, PCRE2_INFO_NAMETABLE, &table);
	}
	for (uint32_t i = 0; i < count; i++) {
		const unsigned char *e = (const unsigned char *)table + (size_t)i * esz;
		int g = (e[0] << 8) | e[1];
		const char *nm = (const char *)e + 2;

		if (!strncmp(nm, "flow_", 5) && cap_add(st, pd, g, 1, nm + 5, strlen(nm + 5)))
			return -1;
		if (!strncmp(nm, "pkt_", 4) && cap_add(st, pd, g, 0, nm + 4, strlen(nm + 4)))
			return -1;
	}
	/* the list after the flags: group 1, 2, ... in order; empty allowed */
	while (spec && *spec) {
		const char *e = strchr(spec, ','), *colon;
		size_t n;
		int flow;

		while (isspace((unsigned char)*spec))
			spec++;
		n = e ? (size_t)(e - spec) : strlen(spec);
		while (n && isspace((unsigned char)spec[n - 1]))
			n--;
		if (n) {
			colon = memchr(spec, ':', n);
			if (!colon)
				return sig_error(st, "pcre: capture \"%.*s\" is not flow:name or pkt:name",
						 (int)n, spec);
			if ((size_t)(colon - spec) == 4 && !strncmp(spec, "flow", 4))
				flow = 1;
			else if ((size_t)(colon - spec) == 3 && !strncmp(spec, "pkt", 3))
				flow = 0;
			else
				return sig_error(st, "pcre: capture \"%.*s\" is not flow:name or pkt:name",
						 (int)n, spec);
			if (cap_add(st, pd, group++, flow, colon + 1, n - (size_t)(colon + 1 - spec)))
				return -1;
		}
		spec = e ? e + 1 : NULL;
	}
	return 0;
}

void pcre_captures_free(DetectPcre *pd)
{
	for (int i = 0; i < pd->ncaps; i++)
		free(pd->caps[i].name);
	free(pd->caps);
}

/* flowvar:<name>,<content> / pktvar:<name>,<content> */
static int kw_var(SigParseState *st, const char *arg, const Keyword *kw)
{
	const char *comma = strchr(arg, ',');
	DetectVarCheck *vc;
	char err[160];
	int neg = 0;
	size_t n;

	if (!comma)
		return sig_error(st, "%s needs <name>,<content>", kw->name);
	n = (size_t)(comma - arg);
	while (n && isspace((unsigned char)arg[n - 1]))
		n--;
	vc = calloc(1, sizeof(*vc));
	if (!vc)
		return sig_error(st, "out of memory");
	vc->name = strndup(arg, n);
	if (!vc->name || !valid_var_name(vc->name)) {
		keyword_ctx_free(kw->id, vc);
		return sig_error(st, "%s: invalid name", kw->name);
	}
	if (content_decode(comma + 1, &vc->pat, &vc->len, &neg, err, sizeof(err)) != 0) {
		keyword_ctx_free(kw->id, vc);
		return sig_error(st, "%s: %s", kw->name, err);
	}
	if (neg || !vc->len) {
		keyword_ctx_free(kw->id, vc);
		return sig_error(st, "%s: the content must be a non-empty positive string", kw->name);
	}
	return sm_append(st, SM_LIST_MATCH, kw->id, vc) < 0 ? -1 : 0;
}

static void free_var(void *ctx)
{
	DetectVarCheck *vc = ctx;

	free(vc->name);
	free(vc->pat);
}

static int holds(const uint8_t *v, uint32_t len, const DetectVarCheck *vc)
{
	if (vc->len > len)
		return 0;
	for (uint32_t i = 0; i + vc->len <= len; i++)
		if (memcmp(v + i, vc->pat, vc->len) == 0)
			return 1;
	return 0;
}

static int match_flowvar(DetectThread *dt, const SigMatch *m, Packet *p)
{
	const DetectVarCheck *vc = m->ctx;
	const DetectFlowState *fs;
	const struct DetectFlowVars *fv;

	(void)dt;
	if (!p->flow || !(fs = p->flow->detect) || !(fv = fs->vars))
		return 0;
	for (int i = 0; i < fv->n; i++)
		if (!strcmp(fv->v[i].name, vc->name))
			return holds(fv->v[i].val, fv->v[i].len, vc);
	return 0;
}

static int match_pktvar(DetectThread *dt, const SigMatch *m, Packet *p)
{
	const DetectVarCheck *vc = m->ctx;
	const struct DetectVarStage *vs = dt->vst;

	(void)p;
	if (!vs || vs->pv_seq != dt->pkt_seq)
		return 0;
	for (int i = 0; i < vs->npv; i++)
		if (!strcmp(vs->pv[i].name, vc->name))
			return holds(vs->pbuf + vs->pv[i].off, vs->pv[i].len, vc);
	return 0;
}

const Keyword var_keywords[] = {
	{ .name = "flowvar", .id = KW_FLOWVAR, .setup = kw_var, .flags = NEED, .buf = -1,
	  .desc = "a flow variable holds a content", .match = match_flowvar, .free = free_var },
	{ .name = "pktvar", .id = KW_PKTVAR, .setup = kw_var, .flags = NEED, .buf = -1,
	  .desc = "a packet variable holds a content", .match = match_pktvar, .free = free_var },
	{ .name = NULL }
};

/* ---- packet path ---- */

struct DetectVarStage *detect_var_stage_new(void)
{
	return calloc(1, sizeof(struct DetectVarStage));
}

void detect_var_stage_free(struct DetectVarStage *vs)
{
	free(vs);
}

int detect_var_stage(DetectThread *dt, const Signature *s, const DetectPcre *pd,
		     const uint8_t *data, const size_t *ov, int rc)
{
	struct DetectVarStage *vs = dt->vst;
	int mark;

	if (!vs)
		return 0;
	if (vs->s != s || vs->pkt_seq != dt->pkt_seq) {
		vs->s = s;
		vs->pkt_seq = dt->pkt_seq;
		vs->n = 0;
		vs->used = 0;
	}
	mark = vs->n;
	for (int i = 0; i < pd->ncaps; i++) {
		int g = pd->caps[i].group;
		size_t a, len;

		if (g >= rc || ov[2 * g] == PCRE2_UNSET || vs->n >= VAR_STAGE_MAX)
			continue;
		a = ov[2 * g];
		len = ov[2 * g + 1] - a;
		if (len > VAR_VALUE_MAX)
			len = VAR_VALUE_MAX;
		if (vs->used + len > sizeof(vs->buf))
			continue;
		memcpy(vs->buf + vs->used, data + a, len);
		vs->e[vs->n++] = (StagedVar){ .name = pd->caps[i].name, .flow = pd->caps[i].flow,
					      .off = vs->used, .len = (uint16_t)len };
		vs->used += (uint32_t)len;
	}
	return mark;
}

void detect_var_unstage(DetectThread *dt, int mark)
{
	struct DetectVarStage *vs = dt->vst;

	if (vs && mark <= vs->n) {
		vs->n = mark;
		vs->used = mark ? vs->e[mark - 1].off + vs->e[mark - 1].len : 0;
	}
}

/* A flowvar set on f: the old value replaced, or a new name appended. Runs
 * when a capturing rule matched, not per packet. */
static void flowvar_set(const DetectEngine *de, Flow *f, const char *name, const uint8_t *v,
			uint16_t len)
{
	DetectFlowState *fs = detect_flow_state(de, f, 1);
	struct DetectFlowVars *fv;
	uint8_t *copy;
	int i;

	if (!fs)
		return;
	if (!fs->vars && !(fs->vars = calloc(1, sizeof(*fs->vars))))
		return;
	fv = fs->vars;
	for (i = 0; i < fv->n; i++)
		if (!strcmp(fv->v[i].name, name))
			break;
	if (i == fv->n && fv->n == FLOW_VARS_MAX)
		return;
	copy = malloc(len ? len : 1);
	if (!copy)
		return;
	memcpy(copy, v, len);
	if (i == fv->n) {
		if (!(fv->v[i].name = strdup(name))) {
			free(copy);
			return;
		}
		fv->n++;
	} else {
		free(fv->v[i].val);
	}
	fv->v[i].val = copy;
	fv->v[i].len = len;
}

/* The lua libraries' flowvar access (detect/lua/lua-flowvar.c). */
void detect_flowvar_put(const DetectEngine *de, Flow *f, const char *name, const uint8_t *v,
			uint16_t len)
{
	flowvar_set(de, f, name, v, len);
}

int detect_flowvar_value(const Flow *f, const char *name, const uint8_t **v, uint16_t *len)
{
	const DetectFlowState *fs = f ? f->detect : NULL;

	for (int i = 0; fs && fs->vars && i < fs->vars->n; i++)
		if (!strcmp(fs->vars->v[i].name, name)) {
			*v = fs->vars->v[i].val;
			*len = fs->vars->v[i].len;
			return 0;
		}
	return -1;
}

void detect_vars_commit(DetectThread *dt, const Signature *s, Packet *p)
{
	struct DetectVarStage *vs = dt->vst;

	if (!vs || vs->s != s || vs->pkt_seq != dt->pkt_seq || !vs->n)
		return;
	if (vs->pv_seq != dt->pkt_seq) {
		vs->pv_seq = dt->pkt_seq;
		vs->npv = 0;
		vs->pv_used = 0;
	}
	for (int i = 0; i < vs->n; i++) {
		const StagedVar *e = &vs->e[i];

		if (e->flow) {
			if (p->flow)
				flowvar_set(dt->de, p->flow, e->name, vs->buf + e->off, e->len);
			continue;
		}
		if (vs->npv >= VAR_STAGE_MAX || vs->pv_used + e->len > sizeof(vs->pbuf))
			continue;
		memcpy(vs->pbuf + vs->pv_used, vs->buf + e->off, e->len);
		vs->pv[vs->npv++] = (StagedVar){ .name = e->name, .off = vs->pv_used, .len = e->len };
		vs->pv_used += e->len;
	}
	vs->n = 0;
	vs->used = 0;
}

/* ---- logging ---- */

unsigned detect_flowvars_get(const Flow *f, AlertVar *out, unsigned max)
{
	const DetectFlowState *fs = f ? f->detect : NULL;
	unsigned n = 0;

	if (!fs || !fs->vars)
		return 0;
	for (int i = 0; i < fs->vars->n && n < max; i++)
		out[n++] = (AlertVar){ fs->vars->v[i].name, fs->vars->v[i].val, fs->vars->v[i].len };
	return n;
}

unsigned detect_pktvars_get(const DetectThread *dt, AlertVar *out, unsigned max)
{
	const struct DetectVarStage *vs = dt->vst;
	unsigned n = 0;

	if (!vs || vs->pv_seq != dt->pkt_seq)
		return 0;
	for (int i = 0; i < vs->npv && n < max; i++)
		out[n++] = (AlertVar){ vs->pv[i].name, vs->pbuf + vs->pv[i].off, vs->pv[i].len };
	return n;
}

void detect_flowvars_free(struct DetectFlowVars *fv)
{
	if (!fv)
		return;
	for (int i = 0; i < fv->n; i++) {
		free(fv->v[i].name);
		free(fv->v[i].val);
	}
	free(fv);
}
