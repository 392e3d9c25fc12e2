/* flowbits and flowint: named per-flow state. Names stay strings here; the
 * engine numbers them when it builds its tables. */
#include "detect/detect-int.h"
#include "detect/engine-int.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int valid_name(const char *n)
{
	if (!*n)
		return 0;
	for (; *n; n++)
		if (isspace((unsigned char)*n) || *n == ',' || *n == '|' || *n == '&')
			return 0;
	return 1;
}

/* flowbits:set|isset|isnotset|unset|toggle,name ; flowbits:noalert ;
 * names joined with '|' mean "any of" (isset/isnotset only); with '&' the
 * command applies to each. */
static int kw_flowbits(SigParseState *st, const char *arg, const Keyword *kw)
{
	static const struct { const char *n; enum flowbits_cmd c; } cmds[] = {
		{ "set", FB_SET }, { "isset", FB_ISSET }, { "isnotset", FB_ISNOTSET },
		{ "unset", FB_UNSET }, { "toggle", FB_TOGGLE },
	};
	char *copy, *cmd, *names, *p;
	DetectFlowbits *fb;
	size_t k;
	int sep = 0;

	copy = strdup(arg);
	if (!copy)
		return sig_error(st, "out of memory");
	cmd = copy;
	names = strchr(copy, ',');
	if (names)
		*names++ = '\0';
	cmd = str_trim(cmd);
	if (strcmp(cmd, "noalert") == 0) {
		free(copy);
		if (names)
			return sig_error(st, "flowbits:noalert takes no name");
		st->s->flags |= SIG_FLAG_NOALERT;
		return 0;
	}
	for (k = 0; k < sizeof(cmds) / sizeof(cmds[0]); k++)
		if (strcmp(cmd, cmds[k].n) == 0)
			break;
	if (k == sizeof(cmds) / sizeof(cmds[0])) {
		sig_error(st, "invalid flowbits command \"%s\"", cmd);
		free(copy);
		return -1;
	}
	if (!names || !*str_trim(names)) {
		sig_error(st, "flowbits:%s needs a name", cmd);
		free(copy);
		return -1;
	}
	names = str_trim(names);
	if (strchr(names, '|'))
		sep = '|';
	if (strchr(names, '&')) {
		if (sep) {
			free(copy);
			return sig_error(st, "flowbits cannot mix '|' and '&'");
		}
		sep = '&';
	}
	if (sep == '|' && cmds[k].c != FB_ISSET && cmds[k].c != FB_ISNOTSET) {
		free(copy);
		return sig_error(st, "flowbits '|' (or) is only valid with isset and isnotset");
	}
	fb = calloc(1, sizeof(*fb));
	if (!fb) {
		free(copy);
		return sig_error(st, "out of memory");
	}
	fb->cmd = cmds[k].c;
	fb->or_group = sep == '|';
	p = names;
	for (;;) {
		char *e = sep ? strchr(p, sep) : NULL, *nm;
		char **v;

		if (e)
			*e = '\0';
		nm = str_trim(p);
		if (!valid_name(nm)) {
			sig_error(st, "invalid flowbit name \"%s\"", nm);
			free(copy);
			keyword_ctx_free(KW_FLOWBITS, fb);
			return -1;
		}
		v = realloc(fb->names, (fb->n + 1) * sizeof(*v));
		if (!v || !(v[fb->n] = strdup(nm))) {
			if (v)
				fb->names = v;
			free(copy);
			keyword_ctx_free(KW_FLOWBITS, fb);
			return sig_error(st, "out of memory");
		}
		fb->names = v;
		fb->n++;
		if (!e)
			break;
		p = e + 1;
	}
	free(copy);
	/* checks gate the match; changes happen once the rule matched */
	return sm_append(st, (fb->cmd == FB_ISSET || fb->cmd == FB_ISNOTSET) ?
			 SM_LIST_MATCH : SM_LIST_POSTMATCH, KW_FLOWBITS, fb) < 0 ? -1 : 0;
}

/* flowint:name,op[,value] -- op: + - = (modify), == != < <= > >= (compare),
 * isset notset isnotset. value: a number or another flowint. */
static int kw_flowint(SigParseState *st, const char *arg, const Keyword *kw)
{
	static const struct { const char *n; enum flowint_op op; int val; } ops[] = {
		{ "+", FI_ADD, 1 }, { "-", FI_SUB, 1 }, { "=", FI_SET, 1 },
		{ "==", FI_EQ, 1 }, { "!=", FI_NE, 1 }, { "<", FI_LT, 1 },
		{ "<=", FI_LE, 1 }, { ">", FI_GT, 1 }, { ">=", FI_GE, 1 },
		{ "isset", FI_ISSET, 0 }, { "notset", FI_NOTSET, 0 },
		{ "isnotset", FI_NOTSET, 0 },
	};
	char buf[256], *parts[4];
	DetectFlowint *fi;
	size_t k;
	int n;

	n = sig_split_arg(st, "flowint", arg, buf, sizeof(buf), parts, 4);
	if (n < 0)
		return -1;
	if (n < 2 || n > 3 || !valid_name(parts[0]))
		return sig_error(st, "invalid flowint \"%s\": expected name,op[,value]", arg);
	for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++)
		if (strcmp(parts[1], ops[k].n) == 0)
			break;
	if (k == sizeof(ops) / sizeof(ops[0]))
		return sig_error(st, "invalid flowint operator \"%s\"", parts[1]);
	if (ops[k].val != (n == 3))
		return sig_error(st, "flowint operator \"%s\" %s a value", parts[1],
				 ops[k].val ? "needs" : "takes no");
	fi = calloc(1, sizeof(*fi));
	if (!fi)
		return sig_error(st, "out of memory");
	fi->op = ops[k].op;
	fi->name = strdup(parts[0]);
	if (n == 3) {
		uint64_t v;

		if (parse_u64(parts[2], &v) == 0) {
			if (v > UINT32_MAX) {
				keyword_ctx_free(KW_FLOWINT, fi);
				return sig_error(st, "flowint value out of range");
			}
			fi->value = (uint32_t)v;
		} else if (valid_name(parts[2]) && !(parts[2][0] >= '0' && parts[2][0] <= '9')) {
			fi->value_var = strdup(parts[2]);
		} else {
			keyword_ctx_free(KW_FLOWINT, fi);
			return sig_error(st, "invalid flowint value \"%s\"", parts[2]);
		}
	}
	return sm_append(st, (fi->op == FI_ADD || fi->op == FI_SUB || fi->op == FI_SET) ?
			 SM_LIST_POSTMATCH : SM_LIST_MATCH, KW_FLOWINT, fi) < 0 ? -1 : 0;
}

/* hostbits and xbits (Suricata 8 treats them alike for hosts):
 *   hostbits:<cmd>,<name>[,src|dst|both]
 *   hostbits|xbits:<cmd>,<name>,track ip_src|ip_dst|ip_pair[,expire <s>]
 *   hostbits:noalert
 * cmd: set, isset, isnotset, unset, toggle. Bits live per IP address (the
 * packet's source unless told), or per address pair with ip_pair. xbits
 * needs its track; track tx (per transaction) is not implemented here and
 * skips the rule. A set (or toggle on) lasts expire seconds of packet time,
 * 30 unless told, as in Suricata 8 (detect/state.c applies it). */
static int kw_hostbits(SigParseState *st, const char *arg, const Keyword *kw)
{
	static const struct { const char *n; enum flowbits_cmd c; } cmds[] = {
		{ "set", FB_SET }, { "isset", FB_ISSET }, { "isnotset", FB_ISNOTSET },
		{ "unset", FB_UNSET }, { "toggle", FB_TOGGLE },
	};
	const int xbits = strcmp(kw->name, "xbits") == 0;
	const char *kwn = xbits ? "xbits" : "hostbits";
	char buf[256], *parts[5];
	DetectFlowbits *fb;
	size_t k;
	int n, dir = 1, tracked = 0;
	uint32_t expire = HOSTBITS_EXPIRE_DEFAULT;

	n = sig_split_arg(st, kwn, arg, buf, sizeof(buf), parts, 5);
	if (n < 0)
		return -1;
	for (int i = 0; i < n && i < 5; i++)
		parts[i] = str_trim(parts[i]);
	if (n == 1 && !xbits && strcmp(parts[0], "noalert") == 0) {
		st->s->flags |= SIG_FLAG_NOALERT;
		return 0;
	}
	if (n < 2 || n > 4)
		return sig_error(st, "invalid %s \"%s\": expected cmd,name[,track ...]", kwn, arg);
	for (k = 0; k < sizeof(cmds) / sizeof(cmds[0]); k++)
		if (strcmp(parts[0], cmds[k].n) == 0)
			break;
	if (k == sizeof(cmds) / sizeof(cmds[0]))
		return sig_error(st, "invalid %s command \"%s\"", kwn, parts[0]);
	if (!valid_name(parts[1]))
		return sig_error(st, "invalid %s name \"%s\"", kwn, parts[1]);
	for (int i = 2; i < n; i++) {
		const char *o = parts[i], *v;
		uint64_t secs;

		if (!strncmp(o, "track", 5) && isspace((unsigned char)o[5])) {
			v = o + 6;
			while (isspace((unsigned char)*v))
				v++;
			if (!strcmp(v, "ip_src"))
				dir = HOSTBITS_SRC;
			else if (!strcmp(v, "ip_dst"))
				dir = HOSTBITS_DST;
			else if (!strcmp(v, "ip_pair"))
				dir = HOSTBITS_PAIR;
			else if (!strcmp(v, "tx"))
				return sig_unsupported(st, "%s track tx", kwn);
			else
				return sig_error(st, "invalid %s track \"%s\"", kwn, v);
			tracked = 1;
		} else if (!strncmp(o, "expire", 6) && isspace((unsigned char)o[6])) {
			if (parse_u64(o + 7, &secs) || secs == 0 || secs > UINT32_MAX)
				return sig_error(st, "invalid %s expire \"%s\"", kwn, o + 7);
			expire = (uint32_t)secs;
		} else if (i == 2 && !xbits && !strcmp(o, "src")) {
			dir = HOSTBITS_SRC;
		} else if (i == 2 && !xbits && !strcmp(o, "dst")) {
			dir = HOSTBITS_DST;
		} else if (i == 2 && !xbits && !strcmp(o, "both")) {
			dir = HOSTBITS_SRC | HOSTBITS_DST;
		} else {
			return sig_error(st, "invalid %s option \"%s\"", kwn, o);
		}
	}
	if (xbits && !tracked)
		return sig_error(st, "xbits needs track ip_src, ip_dst or ip_pair");
	fb = calloc(1, sizeof(*fb));
	if (!fb)
		return sig_error(st, "out of memory");
	fb->cmd = cmds[k].c;
	fb->host_dir = dir;
	fb->expire = expire;
	fb->n = 1;
	fb->names = calloc(1, sizeof(char *));
	if (!fb->names || !(fb->names[0] = strdup(parts[1]))) {
		keyword_ctx_free(KW_HOSTBITS, fb);
		return sig_error(st, "out of memory");
	}
	/* xbits and hostbits share one namespace and one table: one id */
	return sm_append(st, (fb->cmd == FB_ISSET || fb->cmd == FB_ISNOTSET) ?
			 SM_LIST_MATCH : SM_LIST_POSTMATCH, KW_HOSTBITS, fb) < 0 ? -1 : 0;
}

/* Suricata: flowbits never match a packet without a flow */
static int match_flowbits(DetectThread *dt, const SigMatch *m, Packet *p)
{
	return p->flow && flowbits_match(dt->de, m->ctx, p->flow);
}

static int match_flowint(DetectThread *dt, const SigMatch *m, Packet *p)
{
	return p->flow && flowint_match(dt->de, m->ctx, p->flow);
}

static int match_hostbits(DetectThread *dt, const SigMatch *m, Packet *p)
{
	return hostbits_match(dt, m->ctx, p);
}

static void free_bits(void *ctx)
{
	DetectFlowbits *fb = ctx;

	for (int i = 0; i < fb->n; i++)
		free(fb->names[i]);
	free(fb->names);
}

static void free_flowint(void *ctx)
{
	DetectFlowint *fi = ctx;

	free(fi->name);
	free(fi->value_var);
}

/* The keywords of this family: keywords.c gathers the tables (one line
 * per family). */
const Keyword flowbits_keywords[] = {
	{ .name = "flowbits", .id = KW_FLOWBITS, .setup = kw_flowbits, .flags = NEED | SQ,
	  .buf = -1, .desc = "flow bit set/check", .match = match_flowbits, .free = free_bits },
	{ .name = "hostbits", .id = KW_HOSTBITS, .setup = kw_hostbits, .flags = NEED | SQ,
	  .buf = -1, .desc = "host bit set/check", .match = match_hostbits, .free = free_bits },
	{ .name = "xbits", .id = KW_HOSTBITS, .setup = kw_hostbits, .flags = NEED | SQ,
	  .buf = -1, .desc = "host or ip pair bit set/check", .match = match_hostbits,
	  .free = free_bits },
	{ .name = "flowint", .id = KW_FLOWINT, .setup = kw_flowint, .flags = NEED | SQ, .buf = -1,
	  .desc = "flow integer variables", .match = match_flowint, .free = free_flowint },
	{ .name = NULL }
};
