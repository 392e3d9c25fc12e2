/* --engine-analysis: what the engine decided about each rule, written to
 * the log folder as Suricata 8 writes it:
 *   rules.json              one JSON object a line per rule (raw, id, gid,
 *                           rev, msg, app_proto, requirements, type, flags,
 *                           pkt_engines, frame_engines, engines, lists, mpm,
 *                           warnings, notes)
 *   patterns.json           every content per buffer, with its counts
 *   rules_fast_pattern.txt  each rule's fast pattern (engine-analysis.
 *                           rules-fast-pattern)
 *   rules_analysis.txt      each rule's analysis text (engine-analysis.rules)
 *   firewall.json           firewall mode: the firewall's tables (fw-analysis.c)
 * The type is Suricata's rule type; for TCP payload rules it says where the
 * payload is inspected: "pkt", "stream" or "pkt_stream", with the
 * need_packet / need_stream flags behind it.
 *
 * The fast pattern reported is the one the prefilter build puts in a
 * matcher (detect_sig_mpm_fp, the helper group_build_one and hgroups_build
 * use), not the parser's choice: a rule whose chosen content the engine
 * cannot match (negated, in a frame or header buffer) is reported as
 * inspected without one. Nothing here runs on the packet path. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <netinet/in.h>

#include "detect/buffers.h"
#include "detect/detect-int.h"
#include "detect/engine.h"
#include "detect/engine-int.h"
#include "detect/transform.h"

static const char *const type_names[SIG_TYPE_MAX] = {
	[SIG_TYPE_PKT] = "pkt",
	[SIG_TYPE_IPONLY] = "ip_only",
	[SIG_TYPE_PKT_STREAM] = "pkt_stream",
	[SIG_TYPE_STREAM] = "stream",
	[SIG_TYPE_APPLAYER] = "app_layer",
	[SIG_TYPE_APP_TX] = "app_tx",
};

/* ---- what one rule is, gathered once for every report ---- */

#define ANA_MAX_NOTES 12

typedef struct RuleFacts {
	const DetectSig *ds;
	const DetectContent *mpm;    /* the content the prefilter matches; NULL: none */
	int mpm_list;
	const uint8_t *mpm_pat;      /* its bytes as matched (after fast_pattern:o,l) */
	uint16_t mpm_len;
	int ncontent, nhttp_content, npcre, nhttp_pcre;
	int has_flow, has_flags, has_dsize;
	const char *warnings[ANA_MAX_NOTES];
	int nwarnings;
	const char *notes[ANA_MAX_NOTES];
	int nnotes;
} RuleFacts;

static void fact_warn(RuleFacts *f, const char *w)
{
	if (f->nwarnings < ANA_MAX_NOTES)
		f->warnings[f->nwarnings++] = w;
}

static void fact_note(RuleFacts *f, const char *n)
{
	if (f->nnotes < ANA_MAX_NOTES)
		f->notes[f->nnotes++] = n;
}

static int is_app_list(int l)
{
	return l > BUF_PAYLOAD && l < BUF_IPV4_HDR;
}

static int rule_is_tcp(const Signature *s)
{
	return s->proto == IPPROTO_TCP;
}

/* Counts and warnings as Suricata's rules analysis words them; the cases
 * are the ones that cost performance or mean something else than the
 * writer likely meant. */
static void facts_gather(const DetectSig *ds, RuleFacts *f)
{
	const Signature *s = ds->s;
	int pcre_payload_no_content = 0;

	memset(f, 0, sizeof(*f));
	f->ds = ds;
	f->mpm_list = -1;
	f->mpm = detect_sig_mpm_fp(ds, &f->mpm_pat, &f->mpm_len);
	if (f->mpm)
		f->mpm_list = s->fp_list;
	for (int l = 0; l < SM_LIST_MAX; l++) {
		const SigMatchList *ml = &s->lists[l];

		for (int i = 0; i < ml->n; i++) {
			switch (ml->m[i].kw) {
			case KW_CONTENT:
				if (is_app_list(l))
					f->nhttp_content++;
				else
					f->ncontent++;
				break;
			case KW_PCRE:
				if (is_app_list(l))
					f->nhttp_pcre++;
				else
					f->npcre++;
				break;
			case KW_FLOW:
				f->has_flow = 1;
				break;
			case KW_FLAGS:
				f->has_flags = 1;
				break;
			case KW_DSIZE:
				f->has_dsize = 1;
				break;
			default:
				break;
			}
		}
	}
	if (f->npcre && !f->ncontent)
		pcre_payload_no_content = 1;

	if (ds->sig_type == SIG_TYPE_IPONLY)
		fact_note(f, "rule is ip only");
	if (ds->need_packet)
		fact_note(f, "rule matches on packets");
	if (ds->need_stream)
		fact_note(f, "rule matches on reassembled stream");
	if (ds->is_tx)
		fact_note(f, "rule matches on app-layer transactions");
	if (f->mpm)
		fact_note(f, "prefilter on the fast pattern (mpm)");

	if (pcre_payload_no_content || (f->nhttp_pcre && !f->nhttp_content && !f->ncontent))
		fact_warn(f, "rule uses pcre without a content option");
	if (rule_is_tcp(s) && !f->has_flow && !f->has_flags && !ds->is_tx &&
	    ds->sig_type != SIG_TYPE_IPONLY && (f->ncontent || f->npcre))
		fact_warn(f, "TCP rule without a flow or flags option");
	if (f->nhttp_content && f->npcre && !f->nhttp_pcre)
		fact_warn(f, "rule uses content options with http_* and pcre options without http modifiers");
	if (s->alproto == ALPROTO_HTTP1 && f->ncontent && !f->nhttp_content)
		fact_warn(f, "rule app layer protocol is http, but content options do not have http_* modifiers");
	if (!f->mpm && (f->ncontent || f->nhttp_content))
		fact_warn(f, "rule has content but no fast pattern the prefilter can use: it is "
			     "inspected on every packet or transaction of its group");
	if (!f->mpm && !f->ncontent && !f->nhttp_content && ds->sig_type != SIG_TYPE_IPONLY &&
	    (ds->has_payload || f->npcre))
		fact_warn(f, "rule has no content: it is inspected on every packet of its group");
	if (ds->need_stream && ds->need_packet && f->ncontent) {
		const SigMatchList *ml = &s->lists[BUF_PAYLOAD];

		for (int i = 0; i < ml->n; i++)
			if (ml->m[i].kw == KW_CONTENT &&
			    (ml->m[i].cd->flags & (CONTENT_OFFSET | CONTENT_DEPTH))) {
				fact_warn(f, "rule has depth/offset with raw content keywords: they are "
					     "checked against both packet payloads and the stream");
				break;
			}
	}
	if (ds->is_tx && ds->tx_dirs == 3 && !(s->flags & SIG_FLAG_TXBOTH))
		fact_warn(f, "rule is inspecting both the request and the response");
}

/* ---- pattern text: printable bytes as they are, others as |XX| ---- */

static char *pattern_text(const uint8_t *p, uint16_t len)
{
	char *out = malloc((size_t)len * 4 + 1), *o = out;

	if (!out)
		return NULL;
	for (uint16_t i = 0; i < len; i++) {
		uint8_t c = p[i];

		if (c >= 0x20 && c < 0x7f && c != '"' && c != ';' && c != '|' && c != '\\')
			*o++ = (char)c;
		else
			o += sprintf(o, "|%02X|", c);
	}
	*o = '\0';
	return out;
}

static void set_pattern(json_t *o, const char *key, const uint8_t *p, uint16_t len)
{
	char *t = pattern_text(p, len);

	json_object_set_new(o, key, json_string(t ? t : ""));
	free(t);
}

/* ---- rules.json ---- */

static void add_flag(json_t *a, int cond, const char *name)
{
	if (cond)
		json_array_append_new(a, json_string(name));
}

static int content_no_double_inspect(const SigMatchList *ml, int i, int is_mpm)
{
	const DetectContent *cd = ml->m[i].cd;

	/* the matcher's hit is the whole check: nothing but the pattern itself */
	if (!is_mpm || (cd->flags & (CONTENT_NEGATED | CONTENT_FP_CHOP | CONTENT_OFFSET |
				     CONTENT_DEPTH | CONTENT_DISTANCE | CONTENT_WITHIN |
				     CONTENT_STARTSWITH | CONTENT_ENDSWITH)))
		return 0;
	return !ml->m[i].relative_next && (cd->flags & CONTENT_FP_ONLY || ml->n == 1);
}

static json_t *content_json(const RuleFacts *f, const SigMatchList *ml, int i)
{
	const DetectContent *cd = ml->m[i].cd;
	json_t *c = json_object();
	int is_mpm = f->mpm == cd;

	set_pattern(c, "pattern", cd->pat, cd->len);
	json_object_set_new(c, "length", json_integer(cd->len));
	json_object_set_new(c, "nocase", json_boolean(cd->flags & CONTENT_NOCASE));
	json_object_set_new(c, "negated", json_boolean(cd->flags & CONTENT_NEGATED));
	json_object_set_new(c, "starts_with", json_boolean(cd->flags & CONTENT_STARTSWITH));
	json_object_set_new(c, "ends_with", json_boolean(cd->flags & CONTENT_ENDSWITH));
	json_object_set_new(c, "is_mpm", json_boolean(is_mpm));
	json_object_set_new(c, "no_double_inspect",
			    json_boolean(content_no_double_inspect(ml, i, is_mpm)));
	/* depth is kept as Suricata keeps it (offset + depth as written) */
	if ((cd->flags & CONTENT_OFFSET) && !(cd->flags & CONTENT_OFFSET_VAR))
		json_object_set_new(c, "offset", json_integer(cd->offset));
	if ((cd->flags & CONTENT_DEPTH) && !(cd->flags & CONTENT_DEPTH_VAR))
		json_object_set_new(c, "depth", json_integer(cd->depth));
	if ((cd->flags & CONTENT_DISTANCE) && !(cd->flags & CONTENT_DISTANCE_VAR))
		json_object_set_new(c, "distance", json_integer(cd->distance));
	if ((cd->flags & CONTENT_WITHIN) && !(cd->flags & CONTENT_WITHIN_VAR))
		json_object_set_new(c, "within", json_integer(cd->within));
	json_object_set_new(c, "fast_pattern", json_boolean(cd->flags & CONTENT_FAST_PATTERN));
	if (cd->flags & CONTENT_FP_ONLY)
		json_object_set_new(c, "fast_pattern_only", json_true());
	if (cd->flags & CONTENT_FP_CHOP) {
		json_object_set_new(c, "fast_pattern_chop", json_true());
		json_object_set_new(c, "fast_pattern_offset", json_integer(cd->fp_chop_offset));
		json_object_set_new(c, "fast_pattern_length", json_integer(cd->fp_chop_len));
	}
	json_object_set_new(c, "relative_next", json_boolean(ml->m[i].relative_next));
	return c;
}

static json_t *matches_json(const RuleFacts *f, const SigMatchList *ml)
{
	json_t *a = json_array();

	for (int i = 0; i < ml->n; i++) {
		const Keyword *k = keyword_by_id(ml->m[i].kw);
		json_t *m = json_object();

		json_object_set_new(m, "name", json_string(k ? k->name : "unknown"));
		if (ml->m[i].kw == KW_CONTENT) {
			json_object_set_new(m, "content", content_json(f, ml, i));
		} else if (ml->m[i].kw == KW_PCRE) {
			const DetectPcre *pd = ml->m[i].pd;
			json_t *p = json_object();

			json_object_set_new(p, "pattern", json_string(pd->pattern ? pd->pattern : ""));
			json_object_set_new(p, "relative", json_boolean(pd->flags & PCRE_RELATIVE));
			json_object_set_new(p, "negated", json_boolean(pd->flags & PCRE_NEGATED));
			json_object_set_new(p, "nocase", json_boolean(pd->flags & PCRE_CASELESS));
			json_object_set_new(m, "pcre", p);
		}
		json_array_append_new(a, m);
	}
	return a;
}

static const char *dir_name(int bdir)
{
	return bdir == BDIR_TC ? "toclient" : "toserver";
}

/* The transaction engines: one per side a buffer list is inspected on. */
static json_t *tx_engines_json(const RuleFacts *f)
{
	const Signature *s = f->ds->s;
	json_t *a = json_array();

	if (!f->ds->is_tx)
		return a;
	for (int l = BUF_PAYLOAD + 1; l < BUF_IPV4_HDR; l++) {
		int base = sig_list_base(s, l), dirs;

		if (!s->lists[l].n)
			continue;
		dirs = detect_buffers[base].dir & (f->ds->tx_dirs ? f->ds->tx_dirs : BDIR_BOTH);
		if (!dirs)
			dirs = detect_buffers[base].dir;
		for (int d = BDIR_TS; d <= BDIR_TC; d <<= 1) {
			json_t *e;

			if (!(dirs & d))
				continue;
			e = json_object();
			json_object_set_new(e, "name", json_string(sig_buffer_name(base)));
			json_object_set_new(e, "direction", json_string(dir_name(d)));
			json_object_set_new(e, "is_mpm", json_boolean(f->mpm && f->mpm_list == l));
			json_object_set_new(e, "app_proto",
					    json_string(app_proto_name(detect_buffers[base].alproto ?
								      detect_buffers[base].alproto :
								      s->alproto)));
			json_object_set_new(e, "progress", json_integer(detect_buffers[base].progress));
			json_object_set_new(e, "matches", matches_json(f, &s->lists[l]));
			json_array_append_new(a, e);
		}
	}
	return a;
}

/* The packet engines: the payload (one engine, whether it inspects the
 * packet, the stream or both: the type and need_* flags say which) and the
 * packet header buffers. */
static json_t *pkt_engines_json(const RuleFacts *f)
{
	const Signature *s = f->ds->s;
	json_t *a = json_array();

	for (int l = 0; l < BUF_MAX; l++) {
		json_t *e;

		if (l != BUF_PAYLOAD && (l < BUF_IPV4_HDR || l > BUF_HDR_LAST))
			continue;
		if (!s->lists[l].n)
			continue;
		if (l == BUF_PAYLOAD && f->ds->is_tx)
			continue;
		e = json_object();
		json_object_set_new(e, "name", json_string(sig_buffer_name(l)));
		json_object_set_new(e, "is_mpm", json_boolean(f->mpm_list == l));
		json_array_append_new(a, e);
	}
	return a;
}

static json_t *frame_engines_json(const RuleFacts *f)
{
	json_t *a = json_array();

	if (f->ds->has_frame && f->ds->s->lists[BUF_FRAME].n) {
		json_t *e = json_object();

		json_object_set_new(e, "name", json_string(sig_buffer_name(BUF_FRAME)));
		json_object_set_new(e, "is_mpm", json_false());
		json_object_set_new(e, "matches", matches_json(f, &f->ds->s->lists[BUF_FRAME]));
		json_array_append_new(a, e);
	}
	return a;
}

/* The lists that are not transaction or frame buffers, by Suricata's names. */
static json_t *lists_json(const RuleFacts *f)
{
	static const struct {
		int list;
		const char *name;
	} named[] = {
		{ BUF_PAYLOAD, "payload" },
		{ SM_LIST_MATCH, "packet" },
		{ SM_LIST_POSTMATCH, "postmatch" },
		{ SM_LIST_THRESHOLD, "threshold" },
		{ SM_LIST_BASE64_DATA, "base64_data" },
	};
	const Signature *s = f->ds->s;
	json_t *o = json_object();

	for (size_t k = 0; k < sizeof(named) / sizeof(named[0]); k++) {
		json_t *l;

		if (!s->lists[named[k].list].n)
			continue;
		l = json_object();
		json_object_set_new(l, "matches", matches_json(f, &s->lists[named[k].list]));
		json_object_set_new(o, named[k].name, l);
	}
	for (int l = BUF_IPV4_HDR; l <= BUF_HDR_LAST; l++) {
		json_t *j;

		if (!s->lists[l].n)
			continue;
		j = json_object();
		json_object_set_new(j, "matches", matches_json(f, &s->lists[l]));
		json_object_set_new(o, sig_buffer_name(l), j);
	}
	return o;
}

static json_t *mpm_json(const RuleFacts *f)
{
	const SigMatchList *ml = &f->ds->s->lists[f->mpm_list];
	json_t *m;

	for (int i = 0; i < ml->n; i++) {
		if (ml->m[i].kw != KW_CONTENT || ml->m[i].cd != f->mpm)
			continue;
		m = content_json(f, ml, i);
		/* buffer first, as Suricata writes it */
		json_t *r = json_object();
		const char *key;
		json_t *v;

		json_object_set_new(r, "buffer",
				    json_string(sig_buffer_name(sig_list_base(f->ds->s, f->mpm_list))));
		json_object_foreach(m, key, v)
			json_object_set(r, key, v);
		json_decref(m);
		return r;
	}
	return NULL;
}

static json_t *strings_json(const char *const *v, int n)
{
	json_t *a = json_array();

	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static json_t *rule_record(const RuleFacts *f)
{
	const DetectSig *ds = f->ds;
	const Signature *s = ds->s;
	json_t *r = json_object(), *fl = json_array(), *req = json_array(), *mpm;

	json_object_set_new(r, "raw", json_string(s->raw ? s->raw : ""));
	json_object_set_new(r, "id", json_integer(s->sid));
	json_object_set_new(r, "gid", json_integer(s->gid));
	json_object_set_new(r, "rev", json_integer(s->rev));
	json_object_set_new(r, "msg", json_string(s->msg ? s->msg : ""));
	json_object_set_new(r, "app_proto",
			    json_string(s->alproto != ALPROTO_UNKNOWN ? app_proto_name(s->alproto) :
					"unknown"));
	add_flag(req, ds->has_payload && !ds->is_tx, "payload");
	add_flag(req, f->has_flow || ds->is_tx || ds->need_alproto || ds->need_stream, "flow");
	json_object_set_new(r, "requirements", req);
	json_object_set_new(r, "type", json_string(type_names[ds->sig_type]));
	add_flag(fl, s->src.any, "src_any");
	add_flag(fl, s->dst.any, "dst_any");
	add_flag(fl, s->sp.any, "sp_any");
	add_flag(fl, s->dp.any, "dp_any");
	add_flag(fl, s->flags & SIG_FLAG_NOALERT, "noalert");
	add_flag(fl, ds->is_tx || ds->need_alproto || (s->flags & SIG_FLAG_APPLAYER), "applayer");
	add_flag(fl, ds->need_packet, "need_packet");
	add_flag(fl, ds->need_stream, "need_stream");
	add_flag(fl, !(s->flags & SIG_FLAG_TOCLIENT) || (s->flags & SIG_FLAG_TOSERVER) ||
		 (s->flags & SIG_FLAG_BIDIR), "toserver");
	add_flag(fl, !(s->flags & SIG_FLAG_TOSERVER) || (s->flags & SIG_FLAG_TOCLIENT) ||
		 (s->flags & SIG_FLAG_BIDIR), "toclient");
	add_flag(fl, f->mpm != NULL, "prefilter");
	json_object_set_new(r, "flags", fl);
	json_object_set_new(r, "pkt_engines", pkt_engines_json(f));
	json_object_set_new(r, "frame_engines", frame_engines_json(f));
	json_object_set_new(r, "engines", tx_engines_json(f));
	json_object_set_new(r, "lists", lists_json(f));
	mpm = f->mpm ? mpm_json(f) : NULL;
	if (mpm)
		json_object_set_new(r, "mpm", mpm);
	if (f->nwarnings)
		json_object_set_new(r, "warnings", strings_json(f->warnings, f->nwarnings));
	if (f->nnotes)
		json_object_set_new(r, "notes", strings_json(f->notes, f->nnotes));
	return r;
}

/* ---- patterns.json: every content per buffer ---- */

typedef struct PatCount {
	int list;
	const DetectContent *cd;     /* the first of its kind */
	uint32_t cnt, mpm, nocase;
} PatCount;

static int pat_cmp(const void *a, const void *b)
{
	const PatCount *x = a, *y = b;
	int n;

	if (x->list != y->list)
		return x->list < y->list ? -1 : 1;
	n = memcmp(x->cd->pat, y->cd->pat, x->cd->len < y->cd->len ? x->cd->len : y->cd->len);
	if (n)
		return n;
	return (int)x->cd->len - (int)y->cd->len;
}

static int write_patterns(const RuleFacts *facts, uint32_t n, FILE *f)
{
	PatCount *pc = NULL;
	size_t npc = 0, cap = 0;
	json_t *root = json_object(), *bufs = json_array(), *cur = NULL;
	int cur_list = -1, rc = 0;

	for (uint32_t r = 0; r < n && rc == 0; r++) {
		const Signature *s = facts[r].ds->s;

		for (int l = 0; l < BUF_MAX; l++)
			for (int i = 0; i < s->lists[l].n; i++) {
				const DetectContent *cd;

				if (s->lists[l].m[i].kw != KW_CONTENT)
					continue;
				cd = s->lists[l].m[i].cd;
				if (npc == cap) {
					PatCount *np = realloc(pc, (cap = cap ? cap * 2 : 256) *
									   sizeof(*pc));
					if (!np) {
						rc = -1;
						goto out;
					}
					pc = np;
				}
				pc[npc++] = (PatCount){ sig_list_base(s, l), cd, 1,
							facts[r].mpm == cd,
							!!(cd->flags & CONTENT_NOCASE) };
			}
	}
	if (npc)
		qsort(pc, npc, sizeof(*pc), pat_cmp);
	for (size_t i = 0; i < npc;) {
		size_t j = i + 1;
		json_t *p;

		for (; j < npc && pat_cmp(&pc[i], &pc[j]) == 0; j++) {
			pc[i].cnt++;
			pc[i].mpm += pc[j].mpm;
			pc[i].nocase += pc[j].nocase;
		}
		if (pc[i].list != cur_list) {
			json_t *b = json_object();

			cur = json_array();
			json_object_set_new(b, "name", json_string(sig_buffer_name(pc[i].list)));
			json_object_set_new(b, "patterns", cur);
			json_array_append_new(bufs, b);
			cur_list = pc[i].list;
		}
		p = json_object();
		set_pattern(p, "pattern", pc[i].cd->pat, pc[i].cd->len);
		json_object_set_new(p, "count", json_integer(pc[i].cnt));
		json_object_set_new(p, "mpm", json_integer(pc[i].mpm));
		json_object_set_new(p, "cnt_nocase", json_integer(pc[i].nocase));
		json_array_append_new(cur, p);
		i = j;
	}
	json_object_set(root, "buffers", bufs);
	if (json_dumpf(root, f, JSON_COMPACT | JSON_PRESERVE_ORDER) != 0 || fputc('\n', f) == EOF)
		rc = -1;
out:
	json_decref(bufs);
	json_decref(root);
	free(pc);
	return rc;
}

/* ---- the text reports ---- */

static void content_flags_text(FILE *f, const DetectContent *cd)
{
	static const struct {
		uint32_t flag;
		const char *name;
	} names[] = {
		{ CONTENT_OFFSET, "Offset" },     { CONTENT_DEPTH, "Depth" },
		{ CONTENT_DISTANCE, "Distance" }, { CONTENT_WITHIN, "Within" },
		{ CONTENT_NOCASE, "Nocase" },     { CONTENT_NEGATED, "Negated" },
		{ CONTENT_STARTSWITH, "Startswith" }, { CONTENT_ENDSWITH, "Endswith" },
	};
	int any = 0;

	fputs("        Flags:", f);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (cd->flags & names[i].flag) {
			fprintf(f, "%s %s", any ? "," : "", names[i].name);
			any = 1;
		}
	if (!any)
		fputs(" None", f);
	fputc('\n', f);
}

static void write_fast_pattern_text(const RuleFacts *r, FILE *f)
{
	const Signature *s = r->ds->s;
	const DetectContent *cd = r->mpm;
	char *t;

	fprintf(f, "== Sid: %u ==\n%s\n", s->sid, s->raw ? s->raw : "");
	fputs("    Fast Pattern analysis:\n", f);
	if (!cd) {
		if (!r->ncontent && !r->nhttp_content)
			fputs("        No content present\n\n", f);
		else
			fputs("        No fast pattern the prefilter can use\n\n", f);
		return;
	}
	fprintf(f, "        Fast pattern matcher: %s\n",
		r->mpm_list == BUF_PAYLOAD ? "content" :
					     sig_buffer_name(sig_list_base(s, r->mpm_list)));
	content_flags_text(f, cd);
	fprintf(f, "        Fast pattern set: %s\n", cd->flags & CONTENT_FAST_PATTERN ? "yes" : "no");
	fprintf(f, "        Fast pattern only set: %s\n", cd->flags & CONTENT_FP_ONLY ? "yes" : "no");
	fprintf(f, "        Fast pattern chop set: %s\n", cd->flags & CONTENT_FP_CHOP ? "yes" : "no");
	if (cd->flags & CONTENT_FP_CHOP)
		fprintf(f, "        Fast pattern offset, length: %u, %u\n", cd->fp_chop_offset,
			cd->fp_chop_len);
	t = pattern_text(cd->pat, cd->len);
	fprintf(f, "        Original content: %s\n", t ? t : "");
	free(t);
	t = pattern_text(r->mpm_pat, r->mpm_len);
	fprintf(f, "        Final content: %s\n\n", t ? t : "");
	free(t);
}

static void write_rule_text(const RuleFacts *r, FILE *f)
{
	const DetectSig *ds = r->ds;
	const Signature *s = ds->s;

	fprintf(f, "== Sid: %u ==\n%s\n", s->sid, s->raw ? s->raw : "");
	if (ds->sig_type == SIG_TYPE_IPONLY)
		fputs("    Rule is ip only.\n", f);
	if (ds->need_packet)
		fputs("    Rule matches on packets.\n", f);
	if (ds->need_stream)
		fputs("    Rule matches on reassembled stream.\n", f);
	for (int l = BUF_PAYLOAD + 1; l < BUF_MAX; l++)
		if (s->lists[l].n)
			fprintf(f, "    Rule matches on %s buffer.\n",
				sig_buffer_name(sig_list_base(s, l)));
	if (ds->is_tx)
		fputs("    App layer transaction rule.\n", f);
	fprintf(f, "    Rule contains %d content options, %d http content options, %d pcre "
		   "options, and %d pcre options with http modifiers.\n",
		r->ncontent, r->nhttp_content, r->npcre, r->nhttp_pcre);
	if (r->mpm) {
		char *t = pattern_text(r->mpm_pat, r->mpm_len);

		fprintf(f, "    Fast Pattern \"%s\" on \"%s\" buffer.\n", t ? t : "",
			sig_buffer_name(sig_list_base(s, r->mpm_list)));
		free(t);
	} else {
		fputs("    No fast pattern: the rule is inspected on every packet or "
		      "transaction of its group.\n", f);
	}
	for (int i = 0; i < r->nwarnings; i++)
		fprintf(f, "    Warning: %s.\n", r->warnings[i]);
	if (!r->nwarnings)
		fputs("    No warnings for this rule.\n", f);
	fputc('\n', f);
}

/* ---- writing ---- */

typedef int (*report_fn)(const RuleFacts *facts, uint32_t n, FILE *f);

static int report_rules_json(const RuleFacts *facts, uint32_t n, FILE *f)
{
	for (uint32_t i = 0; i < n; i++) {
		json_t *r = rule_record(&facts[i]);
		int bad = !r || json_dumpf(r, f, JSON_COMPACT | JSON_PRESERVE_ORDER) != 0 ||
			  fputc('\n', f) == EOF;

		json_decref(r);
		if (bad)
			return -1;
	}
	return 0;
}

static int report_fast_pattern(const RuleFacts *facts, uint32_t n, FILE *f)
{
	for (uint32_t i = 0; i < n; i++)
		write_fast_pattern_text(&facts[i], f);
	return ferror(f) ? -1 : 0;
}

static int report_rules_text(const RuleFacts *facts, uint32_t n, FILE *f)
{
	for (uint32_t i = 0; i < n; i++)
		write_rule_text(&facts[i], f);
	return ferror(f) ? -1 : 0;
}

static int write_report(const char *dir, const char *name, report_fn fn, const RuleFacts *facts,
			uint32_t n, char *err, size_t errlen)
{
	char path[4096];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		snprintf(err, errlen, "engine analysis: cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	rc = fn(facts, n, f);
	if (fclose(f) != 0)
		rc = -1;
	if (rc != 0)
		snprintf(err, errlen, "engine analysis: writing %s failed", path);
	return rc;
}

int detect_engine_analysis_write(const DetectEngine *de, const char *dir, unsigned reports,
				 char *err, size_t errlen)
{
	RuleFacts *facts = calloc(de->nsigs ? de->nsigs : 1, sizeof(*facts));
	int rc = 0;

	if (!facts) {
		snprintf(err, errlen, "engine analysis: out of memory");
		return -1;
	}
	for (uint32_t i = 0; i < de->nsigs; i++)
		facts_gather(&de->sigs[i], &facts[i]);
	rc = write_report(dir, "rules.json", report_rules_json, facts, de->nsigs, err, errlen);
	if (rc == 0)
		rc = write_report(dir, "patterns.json", write_patterns, facts, de->nsigs, err,
				  errlen);
	if (rc == 0 && de->cfg.firewall) {
		char path[4096];
		FILE *f;

		snprintf(path, sizeof(path), "%s/firewall.json", dir);
		f = fopen(path, "w");
		rc = f ? fw_analysis_write(de, f) : -1;
		if (f && fclose(f) != 0)
			rc = -1;
		if (rc != 0)
			snprintf(err, errlen, "engine analysis: writing %s failed", path);
	}
	if (rc == 0 && (reports & ANALYSIS_FAST_PATTERN))
		rc = write_report(dir, "rules_fast_pattern.txt", report_fast_pattern, facts,
				  de->nsigs, err, errlen);
	if (rc == 0 && (reports & ANALYSIS_RULES))
		rc = write_report(dir, "rules_analysis.txt", report_rules_text, facts, de->nsigs,
				  err, errlen);
	free(facts);
	return rc;
}
