/* pcre:[!]"/regex/flags" -- compiled with PCRE2 and JIT at load time so that
 * a broken expression fails the rule, not the first packet. */
#include "detect/detect-int.h"
#include "detect/inspect.h"
#include "detect/pcre2-config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Snort/Suricata HTTP buffer flags. K has no raw cookie buffer in Suricata:
 * it maps to the cookie buffer. */
static int pcre_flag_buffer(int c)
{
	switch (c) {
	case 'U': return BUF_HTTP_URI;
	case 'I': return BUF_HTTP_RAW_URI;
	case 'H': return BUF_HTTP_HEADER;
	case 'D': return BUF_HTTP_RAW_HEADER;
	case 'M': return BUF_HTTP_METHOD;
	case 'C': return BUF_HTTP_COOKIE;
	case 'K': return BUF_HTTP_COOKIE;
	case 'S': return BUF_HTTP_STAT_CODE;
	case 'Y': return BUF_HTTP_STAT_MSG;
	case 'P': return BUF_HTTP_CLIENT_BODY;
	case 'Q': return BUF_FILE_DATA;
	case 'V': return BUF_HTTP_USER_AGENT;
	case 'W': return BUF_HTTP_HOST;
	case 'Z': return BUF_HTTP_RAW_HOST;
	}
	return -1;
}

static int kw_pcre(SigParseState *st, const char *arg, const Keyword *kw)
{
	const char *p, *end, *re_start, *re_end, *caps = NULL, *caps_end = NULL;
	DetectPcre *pd;
	int buf = -1, list, errcode, neg;
	PCRE2_SIZE erroff;
	uint32_t opts = 0;

	pd = calloc(1, sizeof(*pd));
	if (!pd)
		return sig_error(st, "out of memory");
	p = sig_arg_negation(arg, &neg, &end);
	if (neg)
		pd->flags |= PCRE_NEGATED;
	/* Quotes are expected; like Suricata, a missing one is tolerated. */
	if (*p == '"')
		p++;
	if (end > p && end[-1] == '"')
		end--;
	if (end - p < 2 || *p != '/') {
		free(pd);
		return sig_error(st, "pcre must be written \"/regex/flags\"");
	}
	re_start = p + 1;
	/* "/re/flags, flow:a,pkt:b": captures kept as variables after a comma
	 * past the closing '/' (var-kw.c) */
	re_end = end;
	while (re_end > re_start && re_end[-1] != '/')
		re_end--;
	for (const char *c = re_end; c < end; c++)
		if (*c == ',') {
			caps = c + 1;
			caps_end = end;
			end = c;
			break;
		}
	while (end > re_end && isspace((unsigned char)end[-1]))
		end--;
	if (re_end <= re_start) {
		free(pd);
		return sig_error(st, "pcre has no closing '/'");
	}
	for (const char *f = re_end; f < end; f++) {
		int b;

		switch (*f) {
		case 'i': opts |= PCRE2_CASELESS; pd->flags |= PCRE_CASELESS; break;
		case 's': opts |= PCRE2_DOTALL; break;
		case 'm': opts |= PCRE2_MULTILINE; break;
		case 'x': opts |= PCRE2_EXTENDED; break;
		case 'A': opts |= PCRE2_ANCHORED; break;
		case 'E': opts |= PCRE2_DOLLAR_ENDONLY; break;
		case 'G': opts |= PCRE2_UNGREEDY; break;
		case 'R': pd->flags |= PCRE_RELATIVE; break;
		case 'B': pd->flags |= PCRE_RAWBYTES; break;
		case 'O': pd->flags |= PCRE_NO_LIMIT; break;
		default:
			b = pcre_flag_buffer(*f);
			if (b < 0) {
				free(pd);
				return sig_error(st, "unknown pcre modifier '%c'", *f);
			}
			if (buf >= 0 && buf != b) {
				free(pd);
				return sig_error(st, "pcre with more than one buffer modifier");
			}
			buf = b;
		}
	}
	re_end--;                    /* the closing '/' */
	pd->pattern = strndup(re_start, re_end - re_start);
	pd->pcre2_opts = opts;
	if (!pd->pattern) {
		free(pd);
		return sig_error(st, "out of memory");
	}
	pd->code = pcre2_compile((PCRE2_SPTR)pd->pattern, PCRE2_ZERO_TERMINATED, opts,
				 &errcode, &erroff, NULL);
	if (!pd->code) {
		PCRE2_UCHAR msg[160];

		pcre2_get_error_message(errcode, msg, sizeof(msg));
		keyword_ctx_free(KW_PCRE, pd);
		return sig_error(st, "pcre compile failed at offset %zu: %s", (size_t)erroff, msg);
	}
	/* JIT is an optimisation: the interpreter still works if it fails */
	(void)pcre2_jit_compile(pd->code, PCRE2_JIT_COMPLETE);
	{
		char *spec = caps ? strndup(caps, (size_t)(caps_end - caps)) : NULL;
		int rc;

		if (caps && !spec) {
			keyword_ctx_free(KW_PCRE, pd);
			return sig_error(st, "out of memory");
		}
		rc = pcre_captures_parse(st, pd, spec);
		free(spec);
		if (rc) {
			keyword_ctx_free(KW_PCRE, pd);
			return -1;
		}
	}

	if (buf >= 0) {
		if (st->cur_buf >= 0 && st->cur_buf != buf) {
			keyword_ctx_free(KW_PCRE, pd);
			return sig_error(st, "pcre buffer modifier used with a sticky buffer still set");
		}
		if (pd->flags & PCRE_RAWBYTES) {
			keyword_ctx_free(KW_PCRE, pd);
			return sig_error(st, "pcre /B (rawbytes) cannot be used with http modifiers");
		}
		if (sig_set_alproto_http(st)) {
			keyword_ctx_free(KW_PCRE, pd);
			return -1;
		}
		list = buf;
	} else {
		list = sig_cur_list(st);
	}
	if (sm_append(st, list, KW_PCRE, pd) < 0)
		return -1;
	st->last_inspect_list = list;
	return 0;
}

static int pcre_relative(const SigMatch *m)
{
	return !!(m->pd->flags & PCRE_RELATIVE);
}

static void free_pcre(void *ctx)
{
	DetectPcre *pd = ctx;

	pcre2_code_free(pd->code);
	free(pd->pattern);
	pcre_captures_free(pd);
}

/* The keywords of this family: keywords.c gathers the tables (one line
 * per family). */
const Keyword pcre_keywords[] = {
	{ .name = "pcre", .id = KW_PCRE, .setup = kw_pcre, .flags = NEED, .buf = -1,
	  .desc = "perl compatible regular expression", .free = free_pcre,
	  .step = inspect_pcre_step, .relative = pcre_relative },
	{ .name = NULL }
};
