/* requires: the rule's requirements on the engine (Suricata 8's keyword):
 *
 *     requires: version >= 7.0.3 < 8 | >= 8.0.3, feature ja4, keyword http.uri;
 *
 * Each comma-separated requirement must hold: "version" with one or more
 * alternatives ('|'), each a list of comparisons that must all hold
 * (>=, >, <=, <, =, the missing parts of a version counting 0); "feature"
 * with a feature this build has; "keyword" with a keyword this engine
 * implements. A rule whose requirements do not hold is skipped, never an
 * error, and so is one naming a requirement this engine does not know
 * (Suricata 8 ignores its ignore-unknown-requirements setting:
 * suricata-verify requires-7-unknown).
 *
 * The parser checks requires before any other option (sig_requires), so
 * a rule written for a later engine is skipped even when it uses keywords
 * this one does not know. */
#include "detect/detect-int.h"
#include "conf/conf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The version rules compare against: the one -V prints. */
static const int engine_version[3] = { 8, 0, 6 };

/* Suricata feature names this build provides; ja3 and ja4 only while the
 * configuration does not turn their fingerprints off (Suricata registers
 * them with the fingerprinting: suricata-verify ja4-rules-requires). */
static const struct {
	const char *name;
	const char *off_key;        /* a "no" here removes the feature */
} features[] = {
	{ "ja3", "app-layer.protocols.tls.ja3-fingerprints" },
	{ "ja4", "app-layer.protocols.tls.ja4-fingerprints" },
	{ "output::file-store", NULL },
};

static const char *skip_space(const char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

/* "8", "8.0", "8.0.3" at *pp: 0 and the parts (missing ones 0), or -1. */
static int parse_version(const char **pp, int v[3])
{
	const char *p = skip_space(*pp);

	v[0] = v[1] = v[2] = 0;
	for (int i = 0; i < 3; i++) {
		char *end;
		long n;

		if (!isdigit((unsigned char)*p))
			return -1;
		n = strtol(p, &end, 10);
		if (n < 0 || n > 100000)
			return -1;
		v[i] = (int)n;
		p = end;
		if (*p != '.')
			break;
		p++;
	}
	*pp = p;
	return 0;
}

static int version_cmp(const int a[3], const int b[3])
{
	for (int i = 0; i < 3; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

/* One alternative: comparisons up to '|' or the end. 1 holds, 0 not,
 * -1 malformed. */
static int version_alternative(const char **pp)
{
	const char *p = *pp;
	int holds = 1, n = 0;

	for (;;) {
		int v[3], c;
		char op[3] = "";

		p = skip_space(p);
		if (!*p || *p == '|')
			break;
		if ((p[0] == '>' || p[0] == '<') && p[1] == '=') {
			op[0] = p[0], op[1] = '=';
			p += 2;
		} else if (p[0] == '>' || p[0] == '<' || p[0] == '=') {
			op[0] = p[0];
			p++;
		} else {
			return -1;
		}
		if (parse_version(&p, v) < 0)
			return -1;
		c = version_cmp(engine_version, v);
		if ((strcmp(op, ">=") == 0 && c < 0) || (strcmp(op, ">") == 0 && c <= 0) ||
		    (strcmp(op, "<=") == 0 && c > 0) || (strcmp(op, "<") == 0 && c >= 0) ||
		    (strcmp(op, "=") == 0 && c != 0))
			holds = 0;
		n++;
	}
	*pp = p;
	return n ? holds : -1;
}

/* The value after "version": 1 when one alternative holds. */
static int version_holds(const char *p)
{
	int any = 0;

	for (;;) {
		int r = version_alternative(&p);

		if (r < 0)
			return -1;
		any |= r;
		if (*p != '|')
			break;
		p++;
	}
	return any;
}

static int feature_holds(const char *name)
{
	for (size_t i = 0; i < sizeof(features) / sizeof(features[0]); i++) {
		const char *v;

		if (strcasecmp(name, features[i].name) != 0)
			continue;
		/* "auto" (the default) and "yes" keep it */
		v = features[i].off_key ? conf_get(features[i].off_key) : NULL;
		return !(v && (strcasecmp(v, "no") == 0 || strcasecmp(v, "false") == 0 ||
			       strcasecmp(v, "off") == 0 || strcmp(v, "0") == 0));
	}
	return 0;
}

int sig_requires(SigParseState *st, const char *val)
{
	char buf[512], *save = NULL, *req;

	if (!val || strlen(val) >= sizeof(buf))
		return sig_error(st, "requires: a requirement list is needed");
	strcpy(buf, val);
	for (req = strtok_r(buf, ",", &save); req; req = strtok_r(NULL, ",", &save)) {
		char *arg;
		int r;

		req = (char *)skip_space(req);
		arg = req;
		while (*arg && !isspace((unsigned char)*arg))
			arg++;
		if (*arg)
			*arg++ = '\0';
		arg = (char *)skip_space(arg);
		for (char *e = arg + strlen(arg); e > arg && isspace((unsigned char)e[-1]); )
			*--e = '\0';
		if (strcmp(req, "version") == 0) {
			r = version_holds(arg);
			if (r < 0)
				return sig_error(st, "requires: bad version requirement \"%s\"", arg);
			if (!r)
				return sig_unsupported(st, "requires: version %s", arg);
		} else if (strcmp(req, "feature") == 0) {
			if (!feature_holds(arg))
				return sig_unsupported(st, "requires: missing a required feature: feature %s",
						       arg);
		} else if (strcmp(req, "keyword") == 0) {
			if (!keyword_find(arg))
				return sig_unsupported(st, "requires: keyword %s", arg);
		} else {
			return sig_unsupported(st, "requires: unknown requirement %s", req);
		}
	}
	return 0;
}

/* The parser's first pass has checked the requirements (sig_requires) and
 * the second skips the option: the entry is there so that --list-keywords
 * names the keyword, as Suricata 8's does. */
static int kw_requires(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)st;
	(void)arg;
	(void)kw;
	return 0;
}

const Keyword requires_keywords[] = {
	{ .name = "requires", .id = KW_REQUIRES, .setup = kw_requires, .flags = KWF_NEEDARG,
	  .buf = -1, .desc = "the rule's requirements on the engine (version, feature, keyword)" },
	{ .name = NULL }
};
