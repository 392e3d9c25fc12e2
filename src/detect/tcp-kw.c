/* TCP header keywords: flags, seq, ack, window. */
#include "detect/detect-int.h"
#include "detect/engine-int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int flag_bit(int c)
{
	switch (toupper(c)) {
	case 'F': return 0x01;
	case 'S': return 0x02;
	case 'R': return 0x04;
	case 'P': return 0x08;
	case 'A': return 0x10;
	case 'U': return 0x20;
	case 'E': case '2': return 0x40;   /* ECE; "2" is Snort's reserved bit 2 */
	case 'C': case '1': return 0x80;   /* CWR; "1" is reserved bit 1 */
	}
	return -1;
}

/* flags:[+*!]<FSRPAUCE0>[,<mask>]; the modifier may also follow the flags. */
static int kw_flags(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectTcpFlags f = { 0 }, *d;
	const char *p = arg, *comma = strchr(arg, ',');
	const char *end = comma ? comma : arg + strlen(arg);
	int zero = 0, any = 0;

	for (; p < end; p++) {
		int b, mod = 0;

		if (isspace((unsigned char)*p))
			continue;
		switch (*p) {
		case '+': mod = FLAGS_MOD_PLUS; break;
		case '*': mod = FLAGS_MOD_ANY; break;
		case '!': mod = FLAGS_MOD_NOT; break;
		case '0': zero = 1; continue;
		default:
			b = flag_bit(*p);
			if (b < 0)
				return sig_error(st, "invalid tcp flag '%c' in \"%s\"", *p, arg);
			f.flags |= b;
			any = 1;
			continue;
		}
		if (f.modifier)
			return sig_error(st, "flags: only one modifier allowed");
		f.modifier = mod;
	}
	if (!any && !zero)
		return sig_error(st, "flags needs at least one flag");
	if (zero && any)
		return sig_error(st, "flags: 0 (no flags) cannot be combined with other flags");
	if (comma) {
		for (p = comma + 1; *p; p++) {
			int b;

			if (isspace((unsigned char)*p))
				continue;
			b = flag_bit(*p);
			if (b < 0)
				return sig_error(st, "invalid tcp flag '%c' in mask \"%s\"", *p, comma + 1);
			f.mask |= b;
		}
	}
	d = malloc(sizeof(*d));
	if (!d)
		return sig_error(st, "out of memory");
	*d = f;
	return sm_append(st, SM_LIST_MATCH, KW_FLAGS, d) < 0 ? -1 : 0;
}

static int exact_kw(SigParseState *st, const char *arg, const char *name, uint64_t max,
		    int allow_not, int kwid)
{
	uint64_t v;
	int neg = 0;

	if (allow_not && *arg == '!') {
		neg = 1;
		arg++;
	}
	if (parse_u64(arg, &v) || v > max)
		return sig_error(st, "invalid %s \"%s\"", name, arg);
	return sm_append_uint_eq(st, kwid, v, neg);
}

static int kw_seq(SigParseState *st, const char *arg, const Keyword *kw)
{
	return exact_kw(st, arg, "seq", UINT32_MAX, 0, KW_SEQ);
}

static int kw_ack(SigParseState *st, const char *arg, const Keyword *kw)
{
	return exact_kw(st, arg, "ack", UINT32_MAX, 0, KW_ACK);
}

static int kw_window(SigParseState *st, const char *arg, const Keyword *kw)
{
	return exact_kw(st, arg, "window", 65535, 1, KW_WINDOW);
}

static int match_flags(DetectThread *dt, const SigMatch *m, Packet *p)
{
	const DetectTcpFlags *tf = m->ctx;

	(void)dt;
	if (!PKT_IS_TCP(p))
		return 0;
	return detect_bits_match(p->tcp_flags & ~tf->mask, tf->flags, tf->modifier);
}

static int match_seq(DetectThread *dt, const SigMatch *m, Packet *p)
{
	(void)dt;
	return PKT_IS_TCP(p) && detect_uint_match(m->ctx, p->tcp_seq);
}

static int match_ack(DetectThread *dt, const SigMatch *m, Packet *p)
{
	(void)dt;
	return PKT_IS_TCP(p) && detect_uint_match(m->ctx, p->tcp_ack);
}

static int match_window(DetectThread *dt, const SigMatch *m, Packet *p)
{
	(void)dt;
	return PKT_IS_TCP(p) && detect_uint_match(m->ctx, p->tcp_win);
}

/* The keywords of this family: keywords.c gathers the tables (one line
 * per family). */
const Keyword tcp_keywords[] = {
	{ .name = "flags", .id = KW_FLAGS, .setup = kw_flags, .flags = NEED | SQ, .buf = -1,
	  .desc = "tcp flags", .match = match_flags },
	{ .name = "tcp.flags", .id = KW_FLAGS, .setup = kw_flags, .flags = NEED | SQ, .buf = -1,
	  .desc = "tcp flags", .match = match_flags },
	{ .name = "seq", .id = KW_SEQ, .setup = kw_seq, .flags = NEED | SQ, .buf = -1,
	  .desc = "tcp sequence number", .match = match_seq },
	{ .name = "tcp.seq", .id = KW_SEQ, .setup = kw_seq, .flags = NEED | SQ, .buf = -1,
	  .desc = "tcp sequence number", .match = match_seq },
	{ .name = "ack", .id = KW_ACK, .setup = kw_ack, .flags = NEED | SQ, .buf = -1,
	  .desc = "tcp acknowledgement number", .match = match_ack },
	{ .name = "tcp.ack", .id = KW_ACK, .setup = kw_ack, .flags = NEED | SQ, .buf = -1,
	  .desc = "tcp acknowledgement number", .match = match_ack },
	{ .name = "window", .id = KW_WINDOW, .setup = kw_window, .flags = NEED | SQ, .buf = -1,
	  .desc = "tcp window", .match = match_window },
	{ .name = "tcp.window", .id = KW_WINDOW, .setup = kw_window, .flags = NEED | SQ, .buf = -1,
	  .desc = "tcp window", .match = match_window },
	{ .name = NULL }
};
