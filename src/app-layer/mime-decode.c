/* The streaming MIME decoder (mime-decode.h).
 *
 * One entity at a time: a header block, then its body. A multipart entity
 * pushes its boundary; "--boundary" opens the next part (a header block
 * again), "--boundary--" closes the level. Leaf bodies are decoded by their
 * Content-Transfer-Encoding as they stream by; the decoded bytes go to the
 * URL search (text parts) or the attachment seam (parts with a file name).
 * Only the top-level header block is kept (what eve's email object logs). */
#include "app-layer/mime-decode.h"
#include "app-layer/app-mem.h"
#include "util/base64.h"
#include "util/digest.h"
#include "util/strnum.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/evp.h>

enum mime_enc { ENC_NONE = 0, ENC_B64, ENC_QP };
enum { FILE_NONE = 0, FILE_FED, FILE_REFUSED };
enum body_kind { BODY_LEAF = 0, BODY_PREAMBLE, BODY_EPILOGUE };

#define PART_HDR_KEEP 4096          /* bytes of a part's header kept to read its parameters */
#define HDR_NAME_MAX 75             /* Suricata's limit on a header name */
#define HDR_VALUE_CAP (1u << 20)    /* header-value-depth 0: never hold more */
#define ENC_LINE_MAX 76             /* RFC 2045 6.7/6.8 encoded line length */
#define TEXT_LINE_MAX 4096          /* decoded text held for the URL search */
/* OpenSSL's MD5 context as its allocations hold it (OpenSSL 3, measured
 * with mallinfo2 over 1,000 of them: 191 bytes, in 3 blocks) */
#define MD5_CTX_COST 224
#define FILENAME_MAX_LEN 255        /* a longer attachment name is an event, and cut */

typedef struct Boundary {
	char b[MIME_MAX_BOUNDARY + 1];
	uint32_t len;
} Boundary;

struct MimeMsg {
	const MimeConfig *cfg;
	int done;
	uint32_t events;

	/* The lists grow as they fill (list_room), up to their MIME_MAX_*:
	 * held at their largest from the start they cost 5 KB a message,
	 * what a flood of open mails (one a session) multiplies. */
	MimeHeader *hdrs;
	unsigned nhdrs, hdrs_cap;
	MimeStr *urls;
	unsigned nurls, urls_cap;
	unsigned url_flags;
	MimeStr *atts;
	unsigned natts, atts_cap;

	/* where we are */
	int in_header;              /* reading a header block */
	int top;                    /* ... the message's own (depth 0) */
	int in_body;                /* past the top-level headers (body md5) */
	Boundary *levels;           /* up to MIME_MAX_DEPTH, grown as nested */
	unsigned nlevels, levels_cap;
	int line_cont;              /* the previous line was partial */
	uint32_t line_len;          /* bytes of the current line so far */

	/* the header being read (unfolded); name empty: none */
	char hname[HDR_NAME_MAX + 1];
	uint32_t hname_len;
	uint8_t *hval;
	uint32_t hval_len, hval_cap;
	int hval_trunc;

	/* the current part, from its headers */
	int p_multipart;
	char p_boundary[MIME_MAX_BOUNDARY + 1];
	uint32_t p_blen;
	int p_text;                 /* text/ (or no type at all) */
	int p_has_type;
	int p_rfc822;               /* message/rfc822: the body is a message */
	enum mime_enc p_enc;
	char *p_name;               /* attachment name, from its headers */
	uint32_t p_name_len;        /* its bytes: a NUL in it is part of it */
	/* the part's body */
	enum body_kind kind;
	int att_idx;                /* -1: not an attachment */
	uint8_t b64c[4];
	unsigned nb64c;
	uint8_t *tline;             /* grown up to TEXT_LINE_MAX as lines need */
	uint32_t tline_len, tline_cap;

	/* the file sink (mime_set_file_sink) and the attachment it is fed */
	const MimeFileSink *sink;
	void *sink_arg;
	void *file;
	int file_state;             /* FILE_NONE, FILE_FED, FILE_REFUSED */
	int att_eol;                /* a line break held: the boundary's, if one follows */

	EVP_MD_CTX *md5;
	uint8_t md5_out[16];
	char md5_hex[33];
	int md5_ok;
};

void mime_config_defaults(MimeConfig *c)
{
	memset(c, 0, sizeof(*c));
	c->decode_mime = 1;
	c->decode_base64 = 1;
	c->decode_qp = 1;
	c->header_value_depth = 2000;
	c->extract_urls = 1;
	strcpy(c->schemes[0], "http://");
	c->nschemes = 1;
}

static const char *const event_names[MIME_EV_COUNT] = {
	[MIME_EV_PARSE_FAILED] = "mime_parse_failed",
	[MIME_EV_MALFORMED_MSG] = "mime_malformed_msg",
	[MIME_EV_INVALID_BASE64] = "mime_invalid_base64",
	[MIME_EV_INVALID_QP] = "mime_invalid_qp",
	[MIME_EV_LONG_LINE] = "mime_long_line",
	[MIME_EV_LONG_ENC_LINE] = "mime_long_enc_line",
	[MIME_EV_LONG_HEADER_NAME] = "mime_long_header_name",
	[MIME_EV_LONG_HEADER_VALUE] = "mime_long_header_value",
	[MIME_EV_LONG_BOUNDARY] = "mime_long_boundary",
	[MIME_EV_LONG_FILENAME] = "mime_long_filename",
};

const char *mime_event_name(int id)
{
	return id >= 0 && id < MIME_EV_COUNT ? event_names[id] : NULL;
}

static void ev(MimeMsg *m, enum mime_event e)
{
	m->events |= 1u << e;
}

static void part_reset(MimeMsg *m)
{
	m->p_multipart = 0;
	m->p_blen = 0;
	m->p_text = 1;
	m->p_has_type = 0;
	m->p_rfc822 = 0;
	m->p_enc = ENC_NONE;
	app_mem_free(ALPROTO_SMTP, m->p_name);
	m->p_name = NULL;
	m->kind = BODY_LEAF;
	m->att_idx = -1;
	m->nb64c = 0;
	m->tline_len = 0;
}

MimeMsg *mime_msg_new(const MimeConfig *cfg)
{
	MimeMsg *m = app_mem_calloc(ALPROTO_SMTP, 1, sizeof(*m));

	if (!m)
		return NULL;
	m->cfg = cfg;
	m->in_header = 1;
	m->top = 1;
	part_reset(m);
	if (cfg->body_md5) {
		m->md5 = EVP_MD_CTX_new();
		if (m->md5 && EVP_DigestInit_ex(m->md5, digest_md5(), NULL) != 1) {
			EVP_MD_CTX_free(m->md5);
			m->md5 = NULL;
		}
		if (m->md5)
			app_mem_charge(ALPROTO_SMTP, MD5_CTX_COST);
	}
	return m;
}

void mime_msg_free(MimeMsg *m)
{
	if (!m)
		return;
	for (unsigned i = 0; i < m->nhdrs; i++) {
		app_mem_free(ALPROTO_SMTP, m->hdrs[i].name);
		app_mem_free(ALPROTO_SMTP, m->hdrs[i].value);
	}
	for (unsigned i = 0; i < m->nurls; i++)
		app_mem_free(ALPROTO_SMTP, m->urls[i].s);
	for (unsigned i = 0; i < m->natts; i++)
		app_mem_free(ALPROTO_SMTP, m->atts[i].s);
	app_mem_free(ALPROTO_SMTP, m->hdrs);
	app_mem_free(ALPROTO_SMTP, m->urls);
	app_mem_free(ALPROTO_SMTP, m->atts);
	app_mem_free(ALPROTO_SMTP, m->levels);
	app_mem_free(ALPROTO_SMTP, m->tline);
	app_mem_free(ALPROTO_SMTP, m->hval);
	app_mem_free(ALPROTO_SMTP, m->p_name);
	if (m->md5)
		app_mem_uncharge(ALPROTO_SMTP, MD5_CTX_COST);
	EVP_MD_CTX_free(m->md5);
	app_mem_free(ALPROTO_SMTP, m);
}

/* ---------------- decoders ---------------- */

int mime_b64_decode(const uint8_t *in, uint32_t len, uint8_t *out, uint8_t carry[4],
		    unsigned *ncarry)
{
	int n = 0, bad = 0;

	for (uint32_t i = 0; i < len; i++) {
		uint8_t c = in[i];

		if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
			continue;
		if (c == '=') {
			/* padding: what the quantum holds so far is the end */
			if (*ncarry >= 2) {
				uint32_t v = (uint32_t)base64_char_value(carry[0]) << 18 |
					     (uint32_t)base64_char_value(carry[1]) << 12;

				if (*ncarry == 3)
					v |= (uint32_t)base64_char_value(carry[2]) << 6;
				out[n++] = (uint8_t)(v >> 16);
				if (*ncarry == 3)
					out[n++] = (uint8_t)(v >> 8);
			}
			*ncarry = 0;
			continue;
		}
		if (base64_char_value(c) < 0) {
			bad = 1;
			continue;
		}
		carry[(*ncarry)++] = c;
		if (*ncarry == 4) {
			uint32_t v = (uint32_t)base64_char_value(carry[0]) << 18 |
				     (uint32_t)base64_char_value(carry[1]) << 12 |
				     (uint32_t)base64_char_value(carry[2]) << 6 |
				     (uint32_t)base64_char_value(carry[3]);

			out[n++] = (uint8_t)(v >> 16);
			out[n++] = (uint8_t)(v >> 8);
			out[n++] = (uint8_t)v;
			*ncarry = 0;
		}
	}
	return bad ? -1 - n : n;
}

int mime_qp_decode(const uint8_t *in, uint32_t len, uint8_t *out, int *soft)
{
	int n = 0, bad = 0;
	uint32_t end = len;

	/* trailing blanks are transport padding (RFC 2045 6.7 rule 3) */
	while (end && (in[end - 1] == ' ' || in[end - 1] == '\t'))
		end--;
	*soft = 0;
	for (uint32_t i = 0; i < end; i++) {
		if (in[i] != '=') {
			out[n++] = in[i];
			continue;
		}
		if (i + 1 == end) {
			*soft = 1;
			break;
		}
		{
			int h = hex_digit(in[i + 1]), l = i + 2 < end ? hex_digit(in[i + 2]) : -1;

			if (h >= 0 && l >= 0) {
				out[n++] = (uint8_t)(h << 4 | l);
				i += 2;
				continue;
			}
		}
		bad = 1;
		out[n++] = '=';
	}
	return bad ? -1 - n : n;
}

/* ---------------- lists ---------------- */

/* Room for one more element in *list (n used of *cap, elem bytes each,
 * at most max): 0, or -1 when full or out of memory. Doubles from 4. */
static int list_room(void **list, unsigned n, unsigned *cap, size_t elem, unsigned max)
{
	unsigned nc;
	void *nl;

	if (n < *cap)
		return 0;
	if (n >= max)
		return -1;
	nc = *cap ? *cap * 2 : 4;
	if (nc > max)
		nc = max;
	nl = app_mem_realloc(ALPROTO_SMTP, *list, nc * elem);
	if (!nl)
		return -1;
	*list = nl;
	*cap = nc;
	return 0;
}

static int str_push(MimeStr **list, unsigned *n, unsigned *cap, unsigned max, const uint8_t *s,
		    uint32_t len)
{
	uint8_t *c;

	if (list_room((void **)list, *n, cap, sizeof(**list), max) < 0)
		return -1;
	c = app_mem_malloc(ALPROTO_SMTP, len + 1);
	if (!c)
		return -1;
	memcpy(c, s, len);
	c[len] = '\0';
	(*list)[*n].s = c;
	(*list)[*n].len = len;
	(*n)++;
	return 0;
}

/* ---------------- URLs ---------------- */

static int url_stop(uint8_t c)
{
	return c <= ' ' || c == '<' || c == '>' || c == '"' || c == '\'' || c == 0x7f;
}

static int is_ipv4_host(const uint8_t *h, uint32_t len)
{
	unsigned dots = 0, digits = 0;

	for (uint32_t i = 0; i < len && h[i] != '/' && h[i] != ':'; i++) {
		if (h[i] == '.') {
			if (!digits)
				return 0;
			dots++;
			digits = 0;
		} else if (isdigit(h[i])) {
			digits++;
		} else {
			return 0;
		}
	}
	return dots == 3 && digits;
}

static int is_exe(const uint8_t *u, uint32_t len)
{
	static const char *const ext[] = { ".exe", ".vbs", ".bin", ".cmd", ".bat", ".jar", ".js", ".ps", ".ps1", ".sh" };

	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		size_t el = strlen(ext[i]);

		if (len >= el && strncasecmp((const char *)u + len - el, ext[i], el) == 0)
			return 1;
	}
	return 0;
}

/* Suricata looks for each configured scheme in the decoded text and logs
 * what follows up to a blank or a delimiter, lower-cased, with or without
 * the scheme (log-url-scheme). */
static void find_urls(MimeMsg *m, const uint8_t *t, uint32_t len)
{
	const MimeConfig *c = m->cfg;

	if (!c->extract_urls)
		return;
	for (unsigned s = 0; s < c->nschemes; s++) {
		size_t sl = strlen(c->schemes[s]);

		if (!sl)
			continue;
		for (uint32_t i = 0; i + sl <= len; i++) {
			uint8_t buf[TEXT_LINE_MAX];
			uint32_t j = i + (uint32_t)sl, b = 0, start;

			if (strncasecmp((const char *)t + i, c->schemes[s], sl) != 0)
				continue;
			while (j < len && !url_stop(t[j]))
				j++;
			if (j == i + sl) {
				i = j - 1;
				continue;
			}
			start = c->log_url_scheme ? i : i + (uint32_t)sl;
			for (uint32_t k = start; k < j; k++)
				buf[b++] = (uint8_t)tolower(t[k]);
			if (is_ipv4_host(t + i + sl, j - i - (uint32_t)sl))
				m->url_flags |= MIME_URL_IPV4;
			if (t[i + sl] == '[')
				m->url_flags |= MIME_URL_IPV6;
			if (is_exe(buf, b))
				m->url_flags |= MIME_URL_EXE;
			str_push(&m->urls, &m->nurls, &m->urls_cap, MIME_MAX_URLS, buf, b);
			i = j - 1;
		}
	}
}

static void text_flush(MimeMsg *m)
{
	if (m->tline_len)
		find_urls(m, m->tline, m->tline_len);
	m->tline_len = 0;
}

/* Lines are short: the buffer starts at 128 bytes and doubles up to
 * TEXT_LINE_MAX only for the long ones. */
static int tline_grow(MimeMsg *m)
{
	uint32_t nc = m->tline_cap ? m->tline_cap * 2 : 128;
	uint8_t *nb;

	if (nc > TEXT_LINE_MAX)
		nc = TEXT_LINE_MAX;
	if (nc <= m->tline_cap)
		return -1;
	nb = app_mem_realloc(ALPROTO_SMTP, m->tline, nc);
	if (!nb)
		return -1;
	m->tline = nb;
	m->tline_cap = nc;
	return 0;
}

/* Decoded text, split at line breaks for the URL search. A line longer
 * than the buffer is searched in pieces. */
static void text_add(MimeMsg *m, const uint8_t *d, uint32_t len)
{
	if (!m->cfg->extract_urls)
		return;     /* the lines are held for the URL search only */
	for (uint32_t i = 0; i < len; i++) {
		if (d[i] == '\n' || d[i] == '\r') {
			text_flush(m);
			continue;
		}
		if (m->tline_len == TEXT_LINE_MAX)
			text_flush(m);
		if (m->tline_len == m->tline_cap && tline_grow(m) < 0)
			text_flush(m);    /* no memory: search what is held */
		if (m->tline_len < m->tline_cap)
			m->tline[m->tline_len++] = d[i];
	}
}

/* ---------------- the seam for files ---------------- */

void mime_set_file_sink(MimeMsg *m, const MimeFileSink *sink, void *arg)
{
	m->sink = sink;
	m->sink_arg = arg;
}

void mime_attachment_data(MimeMsg *m, unsigned idx, const uint8_t *data, uint32_t len,
			  int last)
{
	if (!m->sink || idx >= m->natts)
		return;
	if (m->file_state == FILE_NONE) {
		m->file = m->sink->open(m->sink_arg, m->atts[idx].s, m->atts[idx].len);
		m->file_state = m->file ? FILE_FED : FILE_REFUSED;
	}
	if (m->file && len)
		m->sink->data(m->sink_arg, m->file, data, len);
	if (last) {
		if (m->file)
			m->sink->close(m->sink_arg, m->file);
		m->file = NULL;
		m->file_state = FILE_NONE;
	}
}

static void part_data(MimeMsg *m, const uint8_t *d, uint32_t len)
{
	if (!len)
		return;
	if (m->att_idx >= 0) {
		if (m->att_eol) {
			m->att_eol = 0;
			mime_attachment_data(m, (unsigned)m->att_idx, (const uint8_t *)"\r\n", 2, 0);
		}
		mime_attachment_data(m, (unsigned)m->att_idx, d, len, 0);
	} else if (m->p_text) {
		text_add(m, d, len);
	}
}

/* A line break of a plain or quoted-printable body: an attachment's is
 * held until more of the part comes (before a boundary it is the
 * boundary's). */
static void part_eol(MimeMsg *m)
{
	if (m->att_idx >= 0) {
		if (m->att_eol)
			mime_attachment_data(m, (unsigned)m->att_idx, (const uint8_t *)"\r\n", 2, 0);
		m->att_eol = 1;
		return;
	}
	part_data(m, (const uint8_t *)"\r\n", 2);
}

static void part_end(MimeMsg *m)
{
	if (m->kind == BODY_LEAF) {
		if (m->nb64c && m->att_idx < 0)
			ev(m, MIME_EV_INVALID_BASE64);
		if (m->nb64c >= 2 && m->att_idx >= 0) {
			/* an unpadded last quantum still holds whole bytes: the
			 * file gets them, as Suricata's decoder gives them
			 * (suricata-verify bug-6207-1: 286 bytes, not 285) */
			uint8_t out[3];
			int n = mime_b64_decode((const uint8_t *)"=", 1, out, m->b64c, &m->nb64c);

			if (n > 0)
				part_data(m, out, (uint32_t)n);
		}
		text_flush(m);
		if (m->att_idx >= 0)
			mime_attachment_data(m, (unsigned)m->att_idx, NULL, 0, 1);
	}
	m->nb64c = 0;
	m->att_idx = -1;
	m->att_eol = 0;
}

/* ---------------- headers ---------------- */

/* The attachment's name: n bytes of buf, NULs included (a name cut at
 * "invoice\0" would hide the ".pdf.exe" that fileext sees). */
static void set_name(MimeMsg *m, const char *buf, int n)
{
	char *c = app_mem_malloc(ALPROTO_SMTP, (size_t)n + 1);

	if (!c)
		return;
	memcpy(c, buf, (size_t)n);
	c[n] = '\0';
	app_mem_free(ALPROTO_SMTP, m->p_name);
	m->p_name = c;
	m->p_name_len = (uint32_t)n;
}

/* A parameter of a structured header value (Content-Type name=,
 * Content-Disposition filename=): plain, quoted, RFC 2231 extended
 * ("name*=utf-8''a%20b") and continued ("name*0=...; name*1=..."). The
 * value goes into out (NUL-terminated, cut at outmax). Returns its length,
 * or -1 when absent. */
static int get_param(const uint8_t *v, uint32_t len, const char *name, char *out, size_t outmax)
{
	size_t nl = strlen(name), o = 0;
	int found = 0;

	for (int part = -1; part < 64; part++) {
		int got = 0;

		for (uint32_t i = 0; i < len; i++) {
			uint32_t j;
			int ext = 0, idx = -1;

			/* a parameter starts after ';' (or a blank) */
			if (i && v[i - 1] != ';' && v[i - 1] != ' ' && v[i - 1] != '\t')
				continue;
			if (len - i < nl || strncasecmp((const char *)v + i, name, nl) != 0)
				continue;
			j = i + (uint32_t)nl;
			if (j < len && v[j] == '*') {
				j++;
				if (j < len && isdigit(v[j])) {
					idx = 0;
					/* saturate: parts above 63 are never read, and a
					 * hostile index must not overflow */
					while (j < len && isdigit(v[j])) {
						if (idx < 1000)
							idx = idx * 10 + (v[j] - '0');
						j++;
					}
					if (j < len && v[j] == '*') {
						ext = 1;
						j++;
					}
				} else {
					ext = 1;
				}
			}
			if (idx != part)
				continue;
			while (j < len && (v[j] == ' ' || v[j] == '\t'))
				j++;
			if (j >= len || v[j] != '=')
				continue;
			j++;
			while (j < len && (v[j] == ' ' || v[j] == '\t'))
				j++;
			if (ext && part <= 0) {
				/* charset'language'value: skip to after the second quote */
				uint32_t q = j, quotes = 0;

				while (q < len && v[q] != ';' && quotes < 2)
					if (v[q++] == '\'')
						quotes++;
				if (quotes == 2)
					j = q;
			}
			if (j < len && v[j] == '"') {
				j++;
				while (j < len && v[j] != '"') {
					if (v[j] == '\\' && j + 1 < len)
						j++;
					if (o + 1 < outmax)
						out[o++] = (char)v[j];
					j++;
				}
			} else {
				while (j < len && v[j] != ';' && v[j] != ' ' && v[j] != '\t') {
					if (ext && v[j] == '%' && j + 2 < len && hex_digit(v[j + 1]) >= 0 &&
					    hex_digit(v[j + 2]) >= 0) {
						if (o + 1 < outmax)
							out[o++] = (char)(hex_digit(v[j + 1]) << 4 | hex_digit(v[j + 2]));
						j += 3;
						continue;
					}
					if (o + 1 < outmax)
						out[o++] = (char)v[j];
					j++;
				}
			}
			got = found = 1;
			break;
		}
		if (part >= 0 && !got)
			break;
		if (part == -1 && got)
			break;     /* the plain form: no continuations */
	}
	if (!found)
		return -1;
	out[o] = '\0';
	return (int)o;
}

/* What a part's headers say about its body. */
static void part_header(MimeMsg *m, const char *name, const uint8_t *v, uint32_t len)
{
	char buf[FILENAME_MAX_LEN * 4];
	int n;

	if (strcmp(name, "content-type") == 0) {
		m->p_has_type = 1;
		m->p_text = len >= 5 && strncasecmp((const char *)v, "text/", 5) == 0;
		m->p_rfc822 = len >= 14 && strncasecmp((const char *)v, "message/rfc822", 14) == 0;
		if (len >= 10 && strncasecmp((const char *)v, "multipart/", 10) == 0) {
			n = get_param(v, len, "boundary", buf, sizeof(buf));
			if (n > 0) {
				if (n > MIME_MAX_BOUNDARY) {
					ev(m, MIME_EV_LONG_BOUNDARY);
					n = MIME_MAX_BOUNDARY;
				}
				m->p_multipart = 1;
				memcpy(m->p_boundary, buf, (size_t)n);
				m->p_boundary[n] = '\0';
				m->p_blen = (uint32_t)n;
			}
		}
		if (!m->p_name && (n = get_param(v, len, "name", buf, sizeof(buf))) > 0)
			set_name(m, buf, n);
	} else if (strcmp(name, "content-transfer-encoding") == 0) {
		uint32_t i = 0;

		while (i < len && (v[i] == ' ' || v[i] == '\t'))
			i++;
		if (len - i >= 6 && strncasecmp((const char *)v + i, "base64", 6) == 0)
			m->p_enc = ENC_B64;
		else if (len - i >= 16 && strncasecmp((const char *)v + i, "quoted-printable", 16) == 0)
			m->p_enc = ENC_QP;
	} else if (strcmp(name, "content-disposition") == 0) {
		if ((n = get_param(v, len, "filename", buf, sizeof(buf))) > 0)
			set_name(m, buf, n);
	}
}

/* The header read so far is complete. */
static void header_end(MimeMsg *m)
{
	if (!m->hname_len)
		return;
	if (m->top && list_room((void **)&m->hdrs, m->nhdrs, &m->hdrs_cap, sizeof(*m->hdrs),
				 MIME_MAX_HEADERS) == 0) {
		MimeHeader *h = &m->hdrs[m->nhdrs];
		uint32_t keep = m->hval_len;

		if (m->cfg->header_value_depth && keep > m->cfg->header_value_depth)
			keep = m->cfg->header_value_depth;
		h->name = app_mem_strdup(ALPROTO_SMTP, m->hname);
		h->value = app_mem_malloc(ALPROTO_SMTP, keep + 1);
		if (h->name && h->value) {
			if (keep)
				memcpy(h->value, m->hval, keep);
			h->value[keep] = '\0';
			h->len = keep;
			m->nhdrs++;
		} else {
			app_mem_free(ALPROTO_SMTP, h->name);
			app_mem_free(ALPROTO_SMTP, h->value);
			h->name = NULL;
			h->value = NULL;
		}
	}
	part_header(m, m->hname, m->hval ? m->hval : (const uint8_t *)"", m->hval_len);
	m->hname_len = 0;
	m->hname[0] = '\0';
	m->hval_len = 0;
	m->hval_trunc = 0;
}

static void hval_add(MimeMsg *m, const uint8_t *d, uint32_t len)
{
	uint32_t cap = m->cfg->header_value_depth ? m->cfg->header_value_depth : HDR_VALUE_CAP;

	if (cap < PART_HDR_KEEP)
		cap = PART_HDR_KEEP;
	if (m->hval_len + len > cap) {
		if (!m->hval_trunc)
			ev(m, MIME_EV_LONG_HEADER_VALUE);
		m->hval_trunc = 1;
		len = cap - m->hval_len;
	}
	if (!len)
		return;
	if (m->hval_len + len > m->hval_cap) {
		uint32_t nc = m->hval_cap ? m->hval_cap : 256;
		uint8_t *p;

		while (nc < m->hval_len + len)
			nc *= 2;
		if (nc > cap)
			nc = cap;
		p = app_mem_realloc(ALPROTO_SMTP, m->hval, nc);
		if (!p)
			return;
		m->hval = p;
		m->hval_cap = nc;
	}
	memcpy(m->hval + m->hval_len, d, len);
	m->hval_len += len;
}

/* The header block ended: the part's body follows. */
static void headers_done(MimeMsg *m)
{
	header_end(m);
	m->in_header = 0;
	if (m->top) {
		m->top = 0;
		m->in_body = 1;
	}
	if (!m->cfg->decode_mime) {
		m->kind = BODY_EPILOGUE;     /* structure not parsed: nothing decoded */
		return;
	}
	if (m->p_multipart) {
		if (list_room((void **)&m->levels, m->nlevels, &m->levels_cap, sizeof(*m->levels),
			      MIME_MAX_DEPTH) == 0) {
			Boundary *b = &m->levels[m->nlevels++];

			memcpy(b->b, m->p_boundary, m->p_blen + 1);
			b->len = m->p_blen;
		} else {
			ev(m, MIME_EV_MALFORMED_MSG);
		}
		m->kind = BODY_PREAMBLE;
		return;
	}
	if (m->p_rfc822) {
		/* an encapsulated message: its own header block follows, and
		 * its parts say how they are encoded; the outer part's
		 * encoding and name do not carry over (suricata-verify
		 * smtp-mime-encap-8649-combined: a "base64" rfc822 part whose
		 * inner attachment is plain) */
		part_reset(m);
		m->in_header = 1;
		return;
	}
	m->kind = BODY_LEAF;
	if (m->p_name) {
		size_t nl = m->p_name_len;

		if (nl > FILENAME_MAX_LEN) {
			/* Suricata keeps the first 255 bytes of a name */
			ev(m, MIME_EV_LONG_FILENAME);
			nl = FILENAME_MAX_LEN;
		}
		if (str_push(&m->atts, &m->natts, &m->atts_cap, MIME_MAX_ATTACHMENTS, (const uint8_t *)m->p_name,
			     (uint32_t)nl) == 0)
			m->att_idx = (int)m->natts - 1;
	}
	if (m->p_enc == ENC_B64 && !m->cfg->decode_base64)
		m->kind = BODY_EPILOGUE;
	if (m->p_enc == ENC_QP && !m->cfg->decode_qp)
		m->kind = BODY_EPILOGUE;
}

static void header_line(MimeMsg *m, const uint8_t *l, uint32_t len, int cont)
{
	uint32_t i = 0, n;

	if (cont) {
		/* the rest of a long line: more of the value */
		hval_add(m, l, len);
		return;
	}
	if (len == 0) {
		headers_done(m);
		return;
	}
	if (l[0] == ' ' || l[0] == '\t') {
		/* folded: Suricata 8 unfolds by dropping the CRLF and the
		 * blank that marks the fold, so "a\r\n\tb" is "ab"
		 * (suricata-verify smtp-data-rejected's Received header) */
		if (m->hname_len)
			hval_add(m, l + 1, len - 1);
		return;
	}
	header_end(m);
	while (i < len && l[i] != ':')
		i++;
	if (i == len) {
		/* not a header line: skipped, the header block goes on as in
		 * Suricata (suricata-verify smtp-url-base64 has a parameter on a
		 * line of its own, unfolded) */
		ev(m, MIME_EV_MALFORMED_MSG);
		return;
	}
	n = i;
	while (n && (l[n - 1] == ' ' || l[n - 1] == '\t'))
		n--;
	if (n > HDR_NAME_MAX) {
		ev(m, MIME_EV_LONG_HEADER_NAME);
		n = HDR_NAME_MAX;
	}
	for (uint32_t k = 0; k < n; k++)
		m->hname[k] = (char)tolower(l[k]);
	m->hname[n] = '\0';
	m->hname_len = n ? n : 1;   /* an empty name is still a header line */
	i++;
	while (i < len && (l[i] == ' ' || l[i] == '\t'))
		i++;
	hval_add(m, l + i, len - i);
}

/* ---------------- bodies ---------------- */

/* "--b" or "--b--" for a boundary on the stack: its level, else -1. */
static int boundary_level(const MimeMsg *m, const uint8_t *l, uint32_t len, int *closing)
{
	if (len < 2 || l[0] != '-' || l[1] != '-')
		return -1;
	for (int k = (int)m->nlevels - 1; k >= 0; k--) {
		const Boundary *b = &m->levels[k];
		uint32_t e = 2 + b->len;

		if (len < e || memcmp(l + 2, b->b, b->len) != 0)
			continue;
		*closing = len >= e + 2 && l[e] == '-' && l[e + 1] == '-';
		return k;
	}
	return -1;
}

static void body_leaf(MimeMsg *m, const uint8_t *l, uint32_t len, int partial)
{
	uint8_t out[1024];

	switch (m->p_enc) {
	case ENC_B64:
		for (uint32_t off = 0; off < len;) {
			uint32_t take = len - off > 1000 ? 1000 : len - off;
			int n = mime_b64_decode(l + off, take, out, m->b64c, &m->nb64c);

			if (n < 0) {
				ev(m, MIME_EV_INVALID_BASE64);
				n = -1 - n;
			}
			part_data(m, out, (uint32_t)n);
			off += take;
		}
		break;
	case ENC_QP:
		for (uint32_t off = 0; off < len;) {
			uint32_t take = len - off > 1000 ? 1000 : len - off;
			int soft, n;

			/* an '=' escape cut by the piece: keep it with the next */
			if (off + take < len) {
				for (uint32_t k = 1; k <= 2 && k <= take; k++)
					if (l[off + take - k] == '=') {
						take -= k;
						break;
					}
				if (!take)
					take = 1;
			}
			n = mime_qp_decode(l + off, take, out, &soft);
			if (n < 0) {
				ev(m, MIME_EV_INVALID_QP);
				n = -1 - n;
			}
			part_data(m, out, (uint32_t)n);
			off += take;
			if (off == len && !soft && !partial)
				part_eol(m);
		}
		if (!len && !partial)
			part_eol(m);
		break;
	default:
		part_data(m, l, len);
		if (!partial)
			part_eol(m);
	}
}

static void body_line(MimeMsg *m, const uint8_t *l, uint32_t len, int partial, int cont)
{
	int closing = 0, k;

	if (!cont && m->nlevels && (k = boundary_level(m, l, len, &closing)) >= 0) {
		part_end(m);
		m->nlevels = (unsigned)k + 1;
		if (closing) {
			m->nlevels--;
			m->kind = BODY_EPILOGUE;
			return;
		}
		part_reset(m);
		m->in_header = 1;
		return;
	}
	if (m->kind == BODY_LEAF) {
		if ((m->p_enc == ENC_B64 || m->p_enc == ENC_QP) && !cont && len > ENC_LINE_MAX)
			ev(m, MIME_EV_LONG_ENC_LINE);
		body_leaf(m, l, len, partial);
	}
}

void mime_feed_line(MimeMsg *m, const uint8_t *line, uint32_t len, int partial)
{
	int cont;

	if (!m || m->done)
		return;
	cont = m->line_cont;
	m->line_len = cont ? m->line_len + len : len;
	if (m->line_len > MIME_MAX_LINE && (m->line_len - len) <= MIME_MAX_LINE)
		ev(m, MIME_EV_LONG_LINE);
	m->line_cont = partial;
	if (m->md5 && m->in_body) {
		EVP_DigestUpdate(m->md5, line, len);
		if (!partial)
			EVP_DigestUpdate(m->md5, "\r\n", 2);
	}
	if (m->in_header)
		header_line(m, line, len, cont);
	else
		body_line(m, line, len, partial, cont);
}

int mime_takes_pieces(const MimeMsg *m)
{
	return m && !m->done && !m->in_header && m->kind == BODY_LEAF && m->p_enc == ENC_B64;
}

void mime_finish(MimeMsg *m)
{
	unsigned n = 16;

	if (!m || m->done)
		return;
	if (m->in_header)
		header_end(m);
	else
		part_end(m);
	if (m->md5 && EVP_DigestFinal_ex(m->md5, m->md5_out, &n) == 1) {
		static const char hx[] = "0123456789abcdef";

		for (int i = 0; i < 16; i++) {
			m->md5_hex[2 * i] = hx[m->md5_out[i] >> 4];
			m->md5_hex[2 * i + 1] = hx[m->md5_out[i] & 15];
		}
		m->md5_hex[32] = '\0';
		m->md5_ok = 1;
	}
	m->done = 1;
}

/* ---------------- accessors ---------------- */

unsigned mime_header_count(const MimeMsg *m)
{
	return m ? m->nhdrs : 0;
}

const MimeHeader *mime_header_at(const MimeMsg *m, unsigned i)
{
	return m && i < m->nhdrs ? &m->hdrs[i] : NULL;
}

const MimeHeader *mime_header(const MimeMsg *m, const char *name)
{
	for (unsigned i = 0; m && i < m->nhdrs; i++)
		if (strcmp(m->hdrs[i].name, name) == 0)
			return &m->hdrs[i];
	return NULL;
}

unsigned mime_url_count(const MimeMsg *m)
{
	return m ? m->nurls : 0;
}

/* Suricata lists the URLs last found first (suricata-verify
 * smtp-extract-url-schemes, detect-email-url). */
const MimeStr *mime_url_at(const MimeMsg *m, unsigned i)
{
	return m && i < m->nurls ? &m->urls[m->nurls - 1 - i] : NULL;
}

unsigned mime_attachment_count(const MimeMsg *m)
{
	return m ? m->natts : 0;
}

const MimeStr *mime_attachment_at(const MimeMsg *m, unsigned i)
{
	return m && i < m->natts ? &m->atts[i] : NULL;
}

int mime_body_md5(const MimeMsg *m, uint8_t out[16])
{
	if (!m || !m->md5_ok)
		return 0;
	memcpy(out, m->md5_out, 16);
	return 1;
}

const char *mime_body_md5_hex(const MimeMsg *m)
{
	return m && m->md5_ok ? m->md5_hex : NULL;
}

uint32_t mime_events(const MimeMsg *m)
{
	return m ? m->events : 0;
}

int mime_headers_done(const MimeMsg *m)
{
	return m && m->in_body;
}

int mime_done(const MimeMsg *m)
{
	return m && m->done;
}

unsigned mime_url_flags(const MimeMsg *m)
{
	return m ? m->url_flags : 0;
}
