/* Rule text -> Signature: header, option splitting, keyword dispatch through
 * the keyword table, and the checks that need the whole rule (sid present,
 * relative chains, fast pattern choice). */
#include "util/strnum.h"
#include "detect/detect-int.h"
#include "detect/buffers.h"
#include "detect/transform.h"
#include "detect/asn1-kw.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <netinet/in.h>

/* ---- small helpers shared by the keyword files ---- */

int sig_error(SigParseState *st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(st->err, st->errlen, fmt, ap);
	va_end(ap);
	st->code = SIG_ERR_PARSE;
	return -1;
}

int sig_unsupported(SigParseState *st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(st->err, st->errlen, fmt, ap);
	va_end(ap);
	st->code = SIG_ERR_UNSUPPORTED;
	return -1;
}

int sm_append(SigParseState *st, int list, int kw, void *ctx)
{
	SigMatchList *l = &st->s->lists[list];
	const Keyword *k = keyword_by_id(kw);

	/* inspect_next() calls a buffer list's keywords' steps unchecked */
	if ((list < BUF_MAX || list == SM_LIST_BASE64_DATA) && (!k || !k->step))
		abort();   /* a programming error: the keyword's line needs .step */

	if (l->n == l->cap) {
		int cap = l->cap ? l->cap * 2 : 4;
		SigMatch *m = realloc(l->m, cap * sizeof(*m));

		if (!m) {
			keyword_ctx_free(kw, ctx);
			return sig_error(st, "out of memory");
		}
		l->m = m;
		l->cap = cap;
	}
	l->m[l->n].kw = kw;
	l->m[l->n].relative_next = 0;
	l->m[l->n].ctx = ctx;
	return l->n++;
}

int sm_append_uint(SigParseState *st, int list, int kw, const char *name, const char *arg,
		   uint64_t max)
{
	DetectUint *u = calloc(1, sizeof(*u));

	if (!u)
		return sig_error(st, "out of memory");
	if (parse_uint_cmp(arg, max, u)) {
		free(u);
		return sig_error(st, "invalid %s \"%s\"", name, arg);
	}
	return sm_append(st, list, kw, u) < 0 ? -1 : 0;
}

int sig_split_arg(SigParseState *st, const char *name, const char *arg, char *buf, size_t size,
		  char **parts, int max)
{
	if (strlen(arg) >= size)
		return sig_error(st, "invalid %s \"%s\"", name, arg);
	strcpy(buf, arg);
	return split_commas(buf, parts, max);
}

const char *sig_arg_negation(const char *arg, int *negated, const char **end)
{
	const char *p = arg, *e;

	*negated = 0;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '!') {
		*negated = 1;
		p++;
		while (isspace((unsigned char)*p))
			p++;
	}
	e = p + strlen(p);
	while (e > p && isspace((unsigned char)e[-1]))
		e--;
	*end = e;
	return p;
}

int sm_append_uint_eq(SigParseState *st, int kw, uint64_t v, int negated)
{
	DetectUint *u = calloc(1, sizeof(*u));

	if (!u)
		return sig_error(st, "out of memory");
	u->mode = negated ? UM_NE : UM_EQ;
	u->a = v;
	return sm_append(st, SM_LIST_MATCH, kw, u) < 0 ? -1 : 0;
}

int sig_set_alproto_for(SigParseState *st, const char *kwname, uint16_t alproto, int udp_ok,
			const char *needs)
{
	Signature *s = st->s;

	/* a protocol whose transactions answer another's buffers (HTTP/2,
	 * HTTP/1's http.*) keeps its rules to itself */
	if (s->alproto < TX_CLASS_COUNT && detect_tx_protos[s->alproto].get_of &&
	    detect_tx_protos[s->alproto].rules_of == alproto)
		return 0;
	if (s->alproto != ALPROTO_UNKNOWN && s->alproto != alproto)
		return sig_error(st, "%s: the rule is a %s rule already", kwname,
				 app_proto_name(s->alproto));
	if (s->proto != IPPROTO_TCP && s->proto != SIG_PROTO_IP &&
	    !(udp_ok && s->proto == IPPROTO_UDP))
		return sig_error(st, "%s needs %s rule", kwname, needs);
	s->alproto = alproto;
	s->flags |= SIG_FLAG_APPLAYER;
	return 0;
}

int sig_app_sticky(SigParseState *st, const Keyword *kw, uint16_t alproto, int udp_ok,
		   const char *needs)
{
	if (sig_set_alproto_for(st, kw->name, alproto, udp_ok, needs))
		return -1;
	return sig_select_buffer(st, kw->buf);
}

int sig_cur_list(const SigParseState *st)
{
	return st->cur_buf >= 0 ? st->cur_buf : BUF_PAYLOAD;
}

DetectContent *sig_last_content_in(Signature *s, int list, int *idx)
{
	SigMatchList *l = &s->lists[list];

	for (int i = l->n - 1; i >= 0; i--) {
		if (l->m[i].kw == KW_CONTENT) {
			if (idx)
				*idx = i;
			return l->m[i].cd;
		}
	}
	return NULL;
}

/* Rule numbers are decimal, or hexadecimal with 0x: a leading zero is not
 * octal (Suricata reads sid:09901001 as 9901001). */
static int num_base(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	if (*s == '-' || *s == '+')
		s++;
	return s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10;
}

int parse_i64(const char *s, int64_t *out)
{
	return str_to_i64(s, num_base(s), out);
}

int parse_u64(const char *s, uint64_t *out)
{
	return str_to_u64(s, num_base(s), out);
}

/* A value of an integer keyword may end in a unit, case-insensitive:
 * kb/kib (1024), mb/mib (1024^2), gb/gib (1024^3), as Suricata 8's integer
 * keywords ("filesize:>10MB", "bsize:<1kb"). A value without one is as
 * parse_u64 reads it; one that overflows 64 bits is refused. */
static int parse_u64_unit(const char *str, uint64_t *out)
{
	static const struct { const char *sfx; unsigned shift; } units[] = {
		{ "kib", 10 }, { "mib", 20 }, { "gib", 30 },
		{ "kb", 10 }, { "mb", 20 }, { "gb", 30 },
	};
	char buf[64];
	size_t n;
	uint64_t v;

	if (parse_u64(str, out) == 0)
		return 0;
	n = strlen(str);
	while (n && isspace((unsigned char)str[n - 1]))
		n--;
	if (n >= sizeof(buf))
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t l = strlen(units[i].sfx);

		if (n <= l || strncasecmp(str + n - l, units[i].sfx, l) != 0)
			continue;
		memcpy(buf, str, n - l);
		buf[n - l] = '\0';
		if (parse_u64(buf, &v) || v > (UINT64_MAX >> units[i].shift))
			return -1;
		*out = v << units[i].shift;
		return 0;
	}
	return -1;
}

/* Suricata's integer keywords (ttl, dsize, itype, urilen, ...) share one
 * syntax: N, =N, !N, !=N, <N, <=N, >N, >=N, N-M and N<>M (both exclusive
 * ranges, !N-M their negation), &M=V and &M!=V (bitmask); decimal or 0x,
 * each value with an optional unit (parse_u64_unit). */
int parse_uint_cmp(const char *str, uint64_t max, DetectUint *out)
{
	char buf[128];
	char *s, *sep;
	uint64_t a, b;

	if (strlen(str) >= sizeof(buf))
		return -1;
	strcpy(buf, str);
	s = str_trim(buf);
	memset(out, 0, sizeof(*out));
	if (!*s)
		return -1;
	/* bitmask: "&mask=value" or "&mask!=value" */
	if (s[0] == '&') {
		char *op = strpbrk(s + 1, "!=");
		int ne;

		if (!op)
			return -1;
		ne = op[0] == '!';
		if (ne && op[1] != '=')
			return -1;
		*op = '\0';
		if (parse_u64_unit(s + 1, &a) || parse_u64_unit(op + 1 + ne, &b) || a > max || b > max)
			return -1;
		out->mode = ne ? UM_BAND_NE : UM_BAND_EQ;
		out->a = a;
		out->b = b;
		return 0;
	}
	/* "=N" is equality, "!=N" the same as "!N" */
	if (s[0] == '=')
		s = str_trim(s + 1);
	else if (s[0] == '!' && s[1] == '=')
		s[1] = ' ';
	if (s[0] == '<' || s[0] == '>') {
		int eq = s[1] == '=';

		if (parse_u64_unit(s + 1 + eq, &a) || a > max)
			return -1;
		out->mode = s[0] == '<' ? (eq ? UM_LTE : UM_LT) : (eq ? UM_GTE : UM_GT);
		out->a = a;
		/* "<0" and ">max" can never match: Suricata rejects them */
		if ((out->mode == UM_LT && a == 0) || (out->mode == UM_GT && a == max))
			return -1;
		return 0;
	}
	int neg = 0;

	if (s[0] == '!') {
		neg = 1;
		s = str_trim(s + 1);
	}
	sep = strstr(s, "<>");
	if (sep || ((sep = strchr(s + 1, '-')) != NULL)) {
		int w = sep[0] == '<' ? 2 : 1;

		*sep = '\0';
		if (parse_u64_unit(s, &a) || parse_u64_unit(sep + w, &b) || a > max || b > max)
			return -1;
		if (a >= b)
			return -1;
		out->mode = neg ? UM_NOT_RANGE : UM_RANGE;
		out->a = a;
		out->b = b;
		return 0;
	}
	if (parse_u64_unit(s, &a) || a > max)
		return -1;
	out->mode = neg ? UM_NE : UM_EQ;
	out->a = a;
	return 0;
}

/* Suricata 8's enumerations: a rule may name a value instead of writing its
 * number, for equality or, with '!', inequality ("websocket.opcode:!ping");
 * a number keeps every comparison mode. */
int parse_uint_enum(const char *str, uint64_t max, uint_name_fn by_name, DetectUint *out)
{
	char buf[64];
	char *s;
	int neg = 0;
	int64_t v;

	if (parse_uint_cmp(str, max, out) == 0)
		return 0;
	if (strlen(str) >= sizeof(buf))
		return -1;
	strcpy(buf, str);
	s = str_trim(buf);
	if (*s == '!') {
		neg = 1;
		s = str_trim(s + 1);
	}
	if (!*s || (v = by_name(s)) < 0 || (uint64_t)v > max)
		return -1;
	memset(out, 0, sizeof(*out));
	out->mode = neg ? UM_NE : UM_EQ;
	out->a = (uint64_t)v;
	return 0;
}

int sig_var_find(const Signature *s, const char *name)
{
	for (int i = 0; i < s->nvars; i++)
		if (strcmp(s->vars[i], name) == 0)
			return i;
	return -1;
}

int sig_var_add(Signature *s, const char *name)
{
	char **v = realloc(s->vars, (s->nvars + 1) * sizeof(*v));

	if (!v)
		return -1;
	s->vars = v;
	v[s->nvars] = strdup(name);
	if (!v[s->nvars])
		return -1;
	return s->nvars++;
}

char *str_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

char *str_trim_dup(const char *s, int strip_quotes)
{
	char *d = strdup(s ? s : "");
	char *t, *r;
	size_t n;

	if (!d)
		return NULL;
	t = str_trim(d);
	n = strlen(t);
	if (strip_quotes && n >= 2 && t[0] == '"' && t[n - 1] == '"') {
		t[n - 1] = '\0';
		t++;
		t = str_trim(t);
	}
	r = strdup(t);
	free(d);
	return r;
}

int split_commas(char *s, char **out, int max)
{
	int n = 0;
	char *p = s;

	for (;;) {
		char *c = strchr(p, ',');

		if (c)
			*c = '\0';
		if (n < max)
			out[n] = str_trim(p);
		n++;
		if (!c)
			break;
		p = c + 1;
	}
	return n;
}

/* ---- buffers: the registry in buffers.c ---- */

const char *sig_buffer_name(int buf)
{
	if (buf == SM_LIST_MATCH)
		return "match";
	if (buf == SM_LIST_POSTMATCH)
		return "postmatch";
	if (buf == SM_LIST_THRESHOLD)
		return "threshold";
	if (buf < 0 || buf >= BUF_MAX)
		return "?";
	return detect_buffers[buf].name;
}

int sig_buffer_fp_priority(int buf)
{
	return buf >= 0 && buf < BUF_MAX ? detect_buffers[buf].prio : 99;
}

int sig_buffer_direction(int buf)
{
	return buf >= 0 && buf < BUF_MAX ? detect_buffers[buf].dir : 3;
}

/* ---- header ---- */

static const char *const unsupported_protos[] = {
	"dns", "tls", "ssl", "smtp", "ftp", "ftp-data", "ssh", "smb", "dcerpc",
	"nfs", "tftp", "ntp", "dhcp", "krb5", "snmp", "sip", "rfb", "mqtt",
	"pgsql", "telnet", "ike", "ikev2", "rdp", "http2", "modbus", "dnp3",
	"enip", "imap", "pop3", "quic", "websocket", "ldap", "doh2", "bittorrent-dht",
	"template", "nntp", "irc", "jabber", "msn", "cip", "ntp",
	NULL
};

static int parse_scope(const char *sc)
{
	static const char *const names[] = { [FW_SCOPE_PACKET] = "packet", [FW_SCOPE_FLOW] = "flow",
					     [FW_SCOPE_HOOK] = "hook", [FW_SCOPE_TX] = "tx" };

	for (int i = FW_SCOPE_PACKET; i <= FW_SCOPE_TX; i++)
		if (strcmp(sc, names[i]) == 0)
			return i;
	return -1;
}

/* A firewall rule's actions (Suricata 8): a primary accept or drop with
 * its scope, then secondary actions for the threat-detection side:
 * alert, pass:flow / pass:packet ("accept:flow,pass:flow,alert"). */
static int parse_fw_action(SigParseState *st, char *a)
{
	Signature *s = st->s;
	char *save = NULL;
	int first = 1;

	for (char *part = strtok_r(a, ",", &save); part; part = strtok_r(NULL, ",", &save), first = 0) {
		char *colon = strchr(part, ':');
		int scope = 0;

		if (colon) {
			*colon = '\0';
			if ((scope = parse_scope(colon + 1)) < 0)
				return sig_error(st, "invalid action scope \"%s\"", colon + 1);
		}
		if (first) {
			if (strcmp(part, "accept") == 0) {
				s->fw.action = FW_ACT_ACCEPT;
			} else if (strcmp(part, "drop") == 0) {
				s->fw.action = FW_ACT_DROP;
				if (scope == FW_SCOPE_HOOK || scope == FW_SCOPE_TX)
					return sig_error(st, "drop takes the scope packet or flow");
			} else {
				return sig_error(st, "firewall rules take accept or drop as their "
						 "primary action, not \"%s\"", part);
			}
			if (!scope)
				return sig_error(st, "firewall rules need an explicit action scope "
						 "(%s:packet, %s:flow, ...)", part, part);
			s->fw.scope = (uint8_t)scope;
			continue;
		}
		if (strcmp(part, "alert") == 0 && !scope) {
			s->flags |= SIG_FLAG_ALERT;
		} else if (strcmp(part, "pass") == 0 &&
			   (scope == FW_SCOPE_FLOW || scope == FW_SCOPE_PACKET)) {
			s->fw.td_pass = (uint8_t)scope;
		} else {
			return sig_error(st, "invalid secondary action \"%s\"", part);
		}
	}
	/* the rule's own action stays alert: whether it logs is the alert
	 * keyword's (SIG_FLAG_ALERT), as a firewall drop does not imply one */
	s->action = ACT_ALERT;
	s->flags |= SIG_FLAG_FIREWALL;
	return 0;
}

static int parse_action(SigParseState *st, const char *a)
{
	static const struct { const char *n; enum sig_action a; } acts[] = {
		{ "alert", ACT_ALERT }, { "pass", ACT_PASS }, { "drop", ACT_DROP },
		{ "reject", ACT_REJECT }, { "rejectsrc", ACT_REJECTSRC },
		{ "rejectdst", ACT_REJECTDST }, { "rejectboth", ACT_REJECTBOTH },
		{ "config", ACT_CONFIG },
	};

	if (st->ctx && st->ctx->firewall) {
		char buf[128];

		if (strlen(a) >= sizeof(buf))
			return sig_error(st, "invalid action \"%.32s...\"", a);
		memcpy(buf, a, strlen(a) + 1);
		return parse_fw_action(st, buf);
	}
	if (strncmp(a, "accept", 6) == 0 && (a[6] == '\0' || a[6] == ':' || a[6] == ','))
		return sig_error(st, "action \"accept\" is only valid in firewall rules");
	for (size_t i = 0; i < sizeof(acts) / sizeof(acts[0]); i++) {
		size_t n = strlen(acts[i].n);

		/* Suricata 8's action scopes in TD rules: pass:flow,
		 * pass:packet, drop:flow, drop:packet (what the rule acts on,
		 * whatever its type) */
		if (strncmp(a, acts[i].n, n) == 0 && a[n] == ':' &&
		    (acts[i].a == ACT_PASS || acts[i].a == ACT_DROP)) {
			int scope = parse_scope(a + n + 1);

			if (scope != FW_SCOPE_FLOW && scope != FW_SCOPE_PACKET)
				return sig_error(st, "invalid action scope \"%s\"", a + n + 1);
			st->s->action = acts[i].a;
			st->s->fw.scope = (uint8_t)scope;
			return 0;
		}
		if (strcmp(a, acts[i].n) == 0) {
			st->s->action = acts[i].a;
			/* Suricata 8: a config rule changes settings (its config
			 * keyword) and raises no alert */
			if (acts[i].a == ACT_CONFIG)
				st->s->flags |= SIG_FLAG_NOALERT;
			return 0;
		}
	}
	return sig_error(st, "invalid action \"%s\"", a);
}

/* "proto:hook": a packet hook for the packet protocols, else a state of
 * the app-layer protocol's hook table (app-layer.h, AppHook); "<state"
 * accepts that side's states before it too (firewall rules). */
static int parse_hook(SigParseState *st, const char *hook)
{
	static const char *const pkt_hooks[] = { [FW_HOOK_PRE_FLOW] = "pre_flow",
						 [FW_HOOK_PRE_STREAM] = "pre_stream",
						 [FW_HOOK_FLOW_START] = "flow_start",
						 [FW_HOOK_ALL] = "all" };
	Signature *s = st->s;
	int lte = hook[0] == '<';

	if (lte)
		hook++;
	s->fw.hook_set = 1;
	if (!s->alproto) {
		for (int i = 0; i <= FW_HOOK_ALL; i++)
			if (!lte && strcmp(hook, pkt_hooks[i]) == 0) {
				s->fw.hook = (uint8_t)i;
				return 0;
			}
		return sig_error(st, "unknown packet hook \"%s\" (all, flow_start, pre_flow, "
				 "pre_stream)", hook);
	}
	int h = app_hook_find(s->alproto, hook);

	if (h < 0)
		return sig_error(st, "protocol %s has no hook \"%s\"", app_proto_name(s->alproto),
				 hook);
	s->fw.app = 1;
	s->fw.hook = (uint8_t)h;
	s->fw.lte = (uint8_t)lte;
	return 0;
}

static int parse_proto(SigParseState *st, const char *p)
{
	Signature *s = st->s;
	int ap;

	if (!strcasecmp(p, "ip") || !strcasecmp(p, "ipv4") || !strcasecmp(p, "ipv6")) {
		s->proto = SIG_PROTO_IP;
	} else if (!strcasecmp(p, "tcp")) {
		s->proto = IPPROTO_TCP;
	} else if (!strcasecmp(p, "tcp-pkt")) {
		s->proto = IPPROTO_TCP;
		s->flags |= SIG_FLAG_TCP_PKT;
	} else if (!strcasecmp(p, "tcp-stream")) {
		s->proto = IPPROTO_TCP;
		s->flags |= SIG_FLAG_TCP_STREAM;
	} else if (!strcasecmp(p, "udp")) {
		s->proto = IPPROTO_UDP;
	} else if (!strcasecmp(p, "sctp")) {
		/* IP protocol 132, with ports (decode/l4.c) */
		s->proto = 132;
	} else if (!strcasecmp(p, "icmp")) {
		/* Suricata: "icmp" covers ICMPv4 and ICMPv6 */
		s->proto = IPPROTO_ICMP;
		s->icmp_any = 1;
	} else if (!strcasecmp(p, "icmpv4")) {
		s->proto = IPPROTO_ICMP;
	} else if (!strcasecmp(p, "icmpv6")) {
		s->proto = IPPROTO_ICMPV6;
	} else if (!strcasecmp(p, "pkthdr")) {
		/* any packet, decoded or not: decoder-event rules */
		s->proto = SIG_PROTO_IP;
		s->flags |= SIG_FLAG_PKTHDR;
	} else if ((ap = app_proto_by_name(p)) > 0 && ap != ALPROTO_FAILED) {
		/* an application protocol of the registry: its IP protocol(s) */
		unsigned ipp = app_proto_ipprotos((uint16_t)ap);

		s->proto = ipp == APP_IPPROTO_TCP ? IPPROTO_TCP :
			   ipp == APP_IPPROTO_UDP ? IPPROTO_UDP : SIG_PROTO_IP;
		s->alproto = (uint16_t)ap;
		s->flags |= SIG_FLAG_APPLAYER;
		/* "http" is HTTP/1 and HTTP/2, "http1" only HTTP/1 (Suricata 8) */
		if (!strcasecmp(p, "http1"))
			s->flags |= SIG_FLAG_ALPROTO_OWN;
	} else if (strchr(p, ':')) {
		/* Suricata 8's hooks (tcp:all, http1:request_complete, ...) */
		char base[64];
		const char *colon = strchr(p, ':');

		snprintf(base, sizeof(base), "%.*s", (int)(colon - p), p);
		if (!base[0] || strchr(colon + 1, ':') || parse_proto(st, base))
			return st->err[0] ? -1 : sig_error(st, "invalid protocol \"%s\"", p);
		return parse_hook(st, colon + 1);
	} else {
		for (int i = 0; unsupported_protos[i]; i++)
			if (strcasecmp(p, unsupported_protos[i]) == 0)
				return sig_unsupported(st, "unsupported protocol %s", p);
		return sig_error(st, "unknown protocol \"%s\"", p);
	}
	return 0;
}

/* Next header token: whitespace separated, but brackets may hold blanks. */
static const char *next_token(const char *p, char *out, size_t outlen)
{
	size_t n = 0;
	int depth = 0;

	while (isspace((unsigned char)*p))
		p++;
	while (*p && (depth > 0 || !isspace((unsigned char)*p)) && !(depth == 0 && *p == '(')) {
		if (*p == '[')
			depth++;
		else if (*p == ']')
			depth--;
		if (n + 1 < outlen && !(depth > 0 && isspace((unsigned char)*p)))
			out[n++] = *p;
		p++;
	}
	out[n] = '\0';
	return p;
}

static int parse_header(SigParseState *st, const char *rule, const char **opts)
{
	char tok[7][4096];
	const char *p = rule;
	char err[256];

	for (int i = 0; i < 7; i++) {
		p = next_token(p, tok[i], sizeof(tok[i]));
		if (!tok[i][0])
			return sig_error(st, "incomplete rule header");
	}
	while (isspace((unsigned char)*p))
		p++;
	if (*p != '(')
		return sig_error(st, "no rule options: expected '(' after the header");
	*opts = p + 1;

	if (parse_action(st, tok[0]) || parse_proto(st, tok[1]))
		return -1;
	if ((st->s->flags & SIG_FLAG_FIREWALL) && !st->s->fw.hook_set)
		return sig_error(st, "firewall rules need an explicit hook in the protocol "
				 "(\"%s:all\", \"tls:client_hello_done\", ...)", tok[1]);
	if ((st->s->flags & SIG_FLAG_FIREWALL) && st->s->fw.scope == FW_SCOPE_TX && !st->s->fw.app)
		return sig_error(st, "accept:tx is only valid on an app-layer hook");
	if (st->s->fw.hook_set && !st->s->fw.app && st->s->fw.hook <= FW_HOOK_PRE_STREAM &&
	    st->s->fw.scope == FW_SCOPE_FLOW)
		return sig_error(st, "a %s rule acts before there is a flow: scope flow is not "
				 "valid there", st->s->fw.hook == FW_HOOK_PRE_FLOW ? "pre_flow" :
				 "pre_stream");
	if (strcmp(tok[4], "->") == 0) {
		/* nothing */
	} else if (strcmp(tok[4], "<>") == 0) {
		st->s->flags |= SIG_FLAG_BIDIR;
	} else if (strcmp(tok[4], "=>") == 0) {
		/* addresses and ports as "->" (the client first); the rule's
		 * request and response keywords match one transaction, which
		 * transaction rules with buffers of both sides already do */
		st->s->flags |= SIG_FLAG_TXBOTH;
	} else {
		return sig_error(st, "invalid direction \"%s\"", tok[4]);
	}
	if (addrset_parse(tok[2], &st->s->src, err, sizeof(err)))
		return sig_error(st, "source address: %s", err);
	if (addrset_parse(tok[5], &st->s->dst, err, sizeof(err)))
		return sig_error(st, "destination address: %s", err);
	if (portset_parse(tok[3], &st->s->sp, err, sizeof(err)))
		return sig_error(st, "source port: %s", err);
	if (portset_parse(tok[6], &st->s->dp, err, sizeof(err)))
		return sig_error(st, "destination port: %s", err);
	return 0;
}

/* ---- options ---- */

static int parse_one_option(SigParseState *st, char *name, char *val)
{
	const Keyword *kw = keyword_find(name);
	char *arg = NULL;
	int rc;

	if (!kw && keyword_is_suricatas(name))
		return sig_unsupported(st, "unsupported keyword %s", name);
	if (!kw && !val && (rc = frame_keyword_shorthand(st, name)) != 1)
		return rc;
	if (!kw)
		return sig_error(st, "unknown rule keyword '%s'", name);
	if (val) {
		val = str_trim(val);
		if (!*val)
			val = NULL;
	}
	/* a => rule names the side of a sticky buffer: "http.connection:
	 * to_client" */
	if ((kw->flags & KWF_STICKY) && val && (st->s->flags & SIG_FLAG_TXBOTH) &&
	    (!strcmp(val, "to_client") || !strcmp(val, "to_server"))) {
		rc = kw->setup(st, NULL, kw);
		return rc ? rc : sig_buffer_side(st, !strcmp(val, "to_client") ? DBUF_TC : DBUF_TS);
	}
	if ((kw->flags & KWF_NOARG) && val)
		return sig_error(st, "%s takes no value", kw->name);
	if ((kw->flags & KWF_NEEDARG) && !val)
		return sig_error(st, "%s needs a value", kw->name);
	if (val && (kw->flags & KWF_STRIP_QUOTES)) {
		arg = str_trim_dup(val, 1);
		if (!arg)
			return sig_error(st, "out of memory");
		val = arg;
	}
	rc = kw->setup(st, val, kw);
	free(arg);
	return rc;
}

/* Options are "name[:value];" up to the closing ')'. A ';' escaped with '\'
 * stays inside the value (Suricata does not treat quotes specially here).
 * Two passes, as Suricata's pre-scan: `requires` first (a rule for another
 * engine is skipped before any keyword this one lacks can fail it), then
 * every other option in order. */
static int parse_options_pass(SigParseState *st, const char *opts, int requires_pass);

static int parse_options(SigParseState *st, const char *opts)
{
	/* cheap test first: most rules have no requires at all */
	if (strstr(opts, "requires") && parse_options_pass(st, opts, 1))
		return -1;
	return parse_options_pass(st, opts, 0);
}

static int parse_options_pass(SigParseState *st, const char *opts, int requires_pass)
{
	size_t len = strlen(opts);
	char *buf = malloc(len + 1);
	char *p, *end;
	int rc = 0;

	if (!buf)
		return sig_error(st, "out of memory");
	memcpy(buf, opts, len + 1);
	end = buf + len;
	while (end > buf && isspace((unsigned char)end[-1]))
		end--;
	if (end == buf || end[-1] != ')') {
		free(buf);
		return sig_error(st, "rule does not end with ')'");
	}
	*--end = '\0';

	p = buf;
	for (;;) {
		char *name, *val = NULL, *q;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		name = p;
		while (*p && *p != ':' && *p != ';')
			p++;
		if (!*p) {
			rc = sig_error(st, "option \"%s\" has no terminating ';'", str_trim(name));
			break;
		}
		if (*p == ':') {
			*p++ = '\0';
			val = p;
			for (q = p; *q; q++) {
				if (*q == '\\' && q[1]) {
					q++;
					continue;
				}
				if (*q == ';')
					break;
			}
			if (!*q) {
				rc = sig_error(st, "option \"%s\" has no terminating ';'", str_trim(name));
				break;
			}
			*q = '\0';
			p = q + 1;
		} else {
			*p++ = '\0';
		}
		name = str_trim(name);
		if (!*name) {
			rc = sig_error(st, "empty option");
			break;
		}
		if ((strcmp(name, "requires") == 0) != requires_pass)
			continue;
		rc = requires_pass ? sig_requires(st, val ? str_trim(val) : NULL)
				   : parse_one_option(st, name, val);
		if (rc)
			break;
	}
	free(buf);
	return rc;
}

/* ---- whole-rule checks ---- */

/* The keyword's relative test (Keyword.relative), or NULL when it takes
 * no part in relative chains. */
static int (*relative_fn(int kw))(const SigMatch *)
{
	const Keyword *k = keyword_by_id(kw);

	return k ? k->relative : NULL;
}

/* A relative keyword inspects from where the previous content/pcre/byte_*
 * of the SAME buffer matched; mark that one so the engine keeps its end. */
static int resolve_relative(SigParseState *st)
{
	for (int l = 0; l < SM_LIST_MAX; l++) {
		SigMatchList *ml = &st->s->lists[l];
		int prev = -1;

		for (int i = 0; i < ml->n; i++) {
			int (*rel)(const SigMatch *) = relative_fn(ml->m[i].kw);

			if (!rel)
				continue;
			if (rel(&ml->m[i])) {
				/* first in its buffer: relative to the buffer start,
				 * which Suricata accepts for content and pcre alike */
				if (prev >= 0)
					ml->m[prev].relative_next = 1;
			}
			prev = i;
		}
	}
	return 0;
}

static int check_fast_pattern_use(SigParseState *st)
{
	int explicit = 0;

	for (int l = 0; l < BUF_MAX; l++) {
		SigMatchList *ml = &st->s->lists[l];

		for (int i = 0; i < ml->n; i++) {
			DetectContent *cd;

			if (ml->m[i].kw != KW_CONTENT)
				continue;
			cd = ml->m[i].cd;
			if (!(cd->flags & CONTENT_FAST_PATTERN))
				continue;
			if (++explicit > 1)
				return sig_error(st, "fast_pattern can be used on only one content in a rule");
			if (cd->flags & CONTENT_FP_ONLY) {
				if (cd->flags & CONTENT_NEGATED)
					return sig_error(st, "fast_pattern:only cannot be used on a negated content");
				if (cd->flags & (CONTENT_DISTANCE | CONTENT_WITHIN | CONTENT_OFFSET | CONTENT_DEPTH))
					return sig_error(st, "fast_pattern:only cannot be used with "
							 "distance, within, offset or depth");
				if (ml->m[i].relative_next)
					return sig_error(st, "fast_pattern:only cannot be used on a "
							 "content another keyword is relative to");
			}
			if ((cd->flags & CONTENT_NEGATED) &&
			    (cd->flags & (CONTENT_DISTANCE | CONTENT_WITHIN | CONTENT_OFFSET | CONTENT_DEPTH)))
				return sig_error(st, "fast_pattern cannot be used on a negated content "
						 "with distance, within, offset or depth");
			if ((cd->flags & CONTENT_FP_CHOP) &&
			    (uint32_t)cd->fp_chop_offset + cd->fp_chop_len > cd->len)
				return sig_error(st, "fast_pattern offset + length exceeds the content length");
		}
	}
	return 0;
}

/* Suricata's choice: an explicit fast_pattern; else, among the buffers with
 * the best (lowest) priority that hold a non-negated content, the longest
 * content; ties go to the first in rule order. Negated contents count only
 * when the rule has nothing else. */
static void choose_fast_pattern(Signature *s)
{
	int best_l = -1, best_i = -1, best_prio = 1000, best_len = -1;

	s->fp_list = s->fp_idx = -1;
	for (int l = 0; l < BUF_MAX; l++) {
		SigMatchList *ml = &s->lists[l];

		for (int i = 0; i < ml->n; i++) {
			if (ml->m[i].kw == KW_CONTENT &&
			    (ml->m[i].cd->flags & CONTENT_FAST_PATTERN)) {
				s->fp_list = l;
				s->fp_idx = i;
				ml->m[i].cd->flags |= CONTENT_MPM;
				return;
			}
		}
	}
	for (int pass = 0; pass < 2 && best_l < 0; pass++) {
		/* find the best priority with a candidate, then the longest in it */
		for (int l = 0; l < BUF_MAX; l++) {
			SigMatchList *ml = &s->lists[l];
			int prio = sig_buffer_fp_priority(l);

			/* an absent list matches without its contents; a => rule's
			 * list of a chosen side is not in its buffer's groups */
			if (sig_list_absent(s, l) || sig_list_side_given(s, l))
				continue;

			for (int i = 0; i < ml->n; i++) {
				DetectContent *cd;

				if (ml->m[i].kw != KW_CONTENT)
					continue;
				cd = ml->m[i].cd;
				if (pass == 0 && (cd->flags & CONTENT_NEGATED))
					continue;
				if (prio < best_prio)
					best_prio = prio;
			}
		}
		if (best_prio == 1000)
			continue;
		/* rule order across lists is not kept; walk lists in rule order
		 * of their first use, approximated by list id order */
		for (int l = 0; l < BUF_MAX; l++) {
			SigMatchList *ml = &s->lists[l];

			if (sig_buffer_fp_priority(l) != best_prio || sig_list_absent(s, l) ||
			    sig_list_side_given(s, l))
				continue;
			for (int i = 0; i < ml->n; i++) {
				DetectContent *cd;

				if (ml->m[i].kw != KW_CONTENT)
					continue;
				cd = ml->m[i].cd;
				if (pass == 0 && (cd->flags & CONTENT_NEGATED))
					continue;
				if ((int)cd->len > best_len) {
					best_len = cd->len;
					best_l = l;
					best_i = i;
				}
			}
		}
	}
	if (best_l >= 0) {
		s->fp_list = best_l;
		s->fp_idx = best_i;
		s->lists[best_l].m[best_i].cd->flags |= CONTENT_MPM;
	}
}

static int finalize(SigParseState *st)
{
	Signature *s = st->s;

	if (!st->seen_sid)
		return sig_error(st, "signature has no sid");
	if (resolve_relative(st) || check_fast_pattern_use(st))
		return -1;
	for (int l = 0; l < BUF_MAX; l++)
		if (sig_list_absent(s, l) && s->lists[l].n > 1 && !*(const int *)s->lists[l].m[0].ctx)
			return sig_error(st, "absent without or_else cannot be followed by keywords "
					 "on %s", sig_buffer_name(l));
	if (s->alproto != ALPROTO_UNKNOWN && app_proto_ipprotos(s->alproto) == APP_IPPROTO_TCP &&
	    s->proto != IPPROTO_TCP && s->proto != SIG_PROTO_IP)
		return sig_error(st, "%s keywords used in a rule whose protocol is not tcp",
				 app_proto_name(s->alproto));
	for (int l = 1; l < BUF_MAX; l++) {
		int dir = sig_buffer_direction(l);

		if (!s->lists[l].n || dir == 3)
			continue;
		if ((dir == 1 && (s->flags & SIG_FLAG_TOCLIENT) && !(s->flags & SIG_FLAG_TOSERVER)) ||
		    (dir == 2 && (s->flags & SIG_FLAG_TOSERVER) && !(s->flags & SIG_FLAG_TOCLIENT)))
			return sig_error(st, "%s cannot be inspected in the rule's flow direction",
					 sig_buffer_name(l));
	}
	if (!st->seen_prio) {
		const ClassType *ct = s->classtype ? detect_find_class(st->ctx, s->classtype) : NULL;

		s->priority = ct ? ct->priority : 3;
	}
	choose_fast_pattern(s);
	return 0;
}

/* ---- entry points ---- */

Signature *sig_parse(const char *rule, const DetectContext *ctx, char *err,
		     size_t errlen, int *code)
{
	SigParseState st;
	Signature *s;
	const char *opts = NULL;
	char dummy[8];

	if (!err) {
		err = dummy;
		errlen = sizeof(dummy);
	}
	err[0] = '\0';
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		if (code)
			*code = SIG_ERR_PARSE;
		return NULL;
	}
	s->gid = 1;
	s->priority = 3;
	s->fp_list = s->fp_idx = -1;
	memset(&st, 0, sizeof(st));
	st.s = s;
	st.ctx = ctx;
	st.cur_buf = -1;
	st.last_cd_list = -1;
	st.last_inspect_list = -1;
	st.err = err;
	st.errlen = errlen;

	if (parse_header(&st, rule, &opts) || parse_options(&st, opts) || finalize(&st)) {
		if (code)
			*code = st.code ? st.code : SIG_ERR_PARSE;
		sig_free(s);
		return NULL;
	}
	s->raw = strdup(rule);
	if (code)
		*code = 0;
	return s;
}

void sig_free(Signature *s)
{
	if (!s)
		return;
	for (int l = 0; l < SM_LIST_MAX; l++) {
		for (int i = 0; i < s->lists[l].n; i++)
			keyword_ctx_free(s->lists[l].m[i].kw, s->lists[l].m[i].ctx);
		free(s->lists[l].m);
	}
	addrset_free(&s->src);
	addrset_free(&s->dst);
	portset_free(&s->sp);
	portset_free(&s->dp);
	free(s->msg);
	free(s->classtype);
	for (int i = 0; i < s->nrefs; i++) {
		free(s->refs[i].type);
		free(s->refs[i].value);
	}
	free(s->refs);
	for (int i = 0; i < s->nmeta; i++) {
		free(s->meta[i].key);
		free(s->meta[i].value);
	}
	free(s->meta);
	for (int i = 0; i < s->nvars; i++)
		free(s->vars[i]);
	free(s->vars);
	sig_xform_free(s->xf);
	for (int i = 0; i < s->nrepl; i++)
		free(s->repl[i].bytes);
	free(s->repl);
	free(s->raw);
	free(s);
}
