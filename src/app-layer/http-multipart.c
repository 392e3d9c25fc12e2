/* multipart/form-data parts (http-multipart.h). */
#define _GNU_SOURCE /* memmem */
#include "app-layer/http-multipart.h"

#include <ctype.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

static const uint8_t *find_ci(const uint8_t *h, size_t hl, const char *n)
{
	size_t nl = strlen(n);

	for (size_t i = 0; i + nl <= hl; i++)
		if (strncasecmp((const char *)h + i, n, nl) == 0)
			return h + i;
	return NULL;
}

/* A parameter value after "name=": quoted (up to the closing quote) or a
 * token (up to ';', blank or line end). */
static int param_value(const uint8_t *p, const uint8_t *end, const uint8_t **v, size_t *vl)
{
	const uint8_t *s;

	if (p < end && *p == '"') {
		s = ++p;
		while (p < end && *p != '"' && *p != '\r' && *p != '\n')
			p++;
	} else {
		s = p;
		while (p < end && *p != ';' && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
			p++;
	}
	*v = s;
	*vl = (size_t)(p - s);
	return 0;
}

int multipart_boundary(const uint8_t *ct, size_t ctlen, const uint8_t **b, size_t *blen)
{
	const uint8_t *p, *end = ct + ctlen;

	if (!find_ci(ct, ctlen, "multipart/form-data"))
		return -1;
	p = find_ci(ct, ctlen, "boundary=");
	if (!p)
		return -1;
	param_value(p + 9, end, b, blen);
	return *blen ? 0 : -1;
}

int disposition_filename(const uint8_t *v, size_t len, const uint8_t **name, size_t *nlen)
{
	const uint8_t *end = v + len, *p = v;

	/* "filename=" as a parameter, not the tail of another name
	 * ("xfilename="), nor "filename*=" */
	while ((p = find_ci(p, (size_t)(end - p), "filename="))) {
		if (p == v || p[-1] == ';' || p[-1] == ' ' || p[-1] == '\t' || p[-1] == ':') {
			param_value(p + 9, end, name, nlen);
			return 0;
		}
		p += 9;
	}
	return -1;
}

int multipart_headers_filename(const uint8_t *hdr, size_t len, const uint8_t **name,
			       size_t *nlen)
{
	const uint8_t *h = hdr, *end = hdr + len;

	while (h < end) {
		const uint8_t *eol = memchr(h, '\n', (size_t)(end - h));
		size_t ll = eol ? (size_t)(eol - h) : (size_t)(end - h);

		if (ll > 20 && strncasecmp((const char *)h, "content-disposition:", 20) == 0)
			return disposition_filename(h + 20, ll - 20, name, nlen);
		h += ll + 1;
	}
	return -1;
}

/* ---- the streaming parser ---- */

enum {
	MP_PREAMBLE = 0,  /* before the first delimiter: ignored */
	MP_AFTER,         /* right after a delimiter: "--" ends the body */
	MP_AFTER_DASH,
	MP_LINE,          /* the rest of the delimiter line (padding) */
	MP_HEADERS,
	MP_DATA,
	MP_DONE,          /* after the close delimiter: the epilogue, ignored */
};

int multipart_init(MultipartStream *m, const uint8_t *b, size_t blen)
{
	memset(m, 0, offsetof(MultipartStream, hdr));
	if (!blen || blen > MULTIPART_BOUNDARY_MAX)
		return -1;
	memcpy(m->delim, "\n--", 3);
	memcpy(m->delim + 3, b, blen);
	m->dlen = (uint8_t)(blen + 3);
	m->state = MP_PREAMBLE;
	/* the body may open with the delimiter, no line before it */
	m->matched = 1;
	return 0;
}

static void emit(MultipartStream *m, const uint8_t *d, size_t n, const MultipartOps *ops,
		 void *arg)
{
	if (n && m->state == MP_DATA && m->want)
		ops->data(arg, d, n);
}

/* What was held back is data after all. */
static void release(MultipartStream *m, const MultipartOps *ops, void *arg)
{
	if (m->cr)
		emit(m, (const uint8_t *)"\r", 1, ops, arg);
	emit(m, m->delim, m->matched, ops, arg);
	m->cr = 0;
	m->matched = 0;
}

/* The blank line that ends a part's headers: "\n\n" or "\n\r\n". */
static int headers_end(uint32_t w)
{
	return (w & 0xffff) == 0x0a0a || (w & 0xffffff) == 0x0a0d0a;
}

static void part_start(MultipartStream *m, const MultipartOps *ops, void *arg)
{
	m->want = ops->part(arg, m->hdr, m->hlen) == 1;
	m->state = MP_DATA;
	m->matched = 0;
	m->cr = 0;
}

void multipart_feed(MultipartStream *m, const uint8_t *p, size_t len, const MultipartOps *ops,
		    void *arg)
{
	size_t i = 0, run;

	while (i < len) {
		switch (m->state) {
		case MP_DONE:
			return;
		case MP_AFTER:
		case MP_AFTER_DASH:
			if (p[i] == '-') {
				if (m->state == MP_AFTER_DASH) {
					m->state = MP_DONE;
					return;
				}
				m->state = MP_AFTER_DASH;
			} else {
				m->state = p[i] == '\n' ? MP_HEADERS : MP_LINE;
				m->window = '\n';
				m->hlen = 0;
			}
			i++;
			continue;
		case MP_LINE:
			if (p[i++] == '\n') {
				m->state = MP_HEADERS;
				m->window = '\n';
				m->hlen = 0;
			}
			continue;
		case MP_HEADERS:
			m->window = (m->window << 8) | p[i];
			if (m->hlen < sizeof(m->hdr))
				m->hdr[m->hlen++] = p[i];
			i++;
			if (headers_end(m->window))
				part_start(m, ops, arg);
			continue;
		default:
			break;
		}
		/* MP_PREAMBLE, MP_DATA: data up to a delimiter, held back while
		 * it may be one (a CR, then "\n--boundary") */
		run = i;
		for (; i < len; i++) {
			uint8_t c = p[i];

			if (m->matched || m->cr) {
				if (!m->matched) {
					if (c == '\n') {
						m->matched = 1;
						continue;
					}
					release(m, ops, arg);
				} else if (c == m->delim[m->matched]) {
					if (++m->matched == m->dlen) {
						/* the delimiter: the part is whole */
						m->matched = 0;
						m->cr = 0;
						if (m->state == MP_DATA && m->want)
							ops->end(arg, 1);
						m->want = 0;
						m->state = MP_AFTER;
						i++;
						break;
					}
					continue;
				} else {
					release(m, ops, arg);
				}
				run = i;
			}
			if (c == '\r' || c == '\n') {
				emit(m, p + run, i - run, ops, arg);
				if (c == '\r')
					m->cr = 1;
				else
					m->matched = 1;
				run = i + 1;
			}
		}
		if (m->state == MP_DATA || m->state == MP_PREAMBLE) {
			if (!m->matched && !m->cr)
				emit(m, p + run, i - run, ops, arg);
		}
	}
}

void multipart_finish(MultipartStream *m, const MultipartOps *ops, void *arg)
{
	if (m->state != MP_DATA)
		return;
	release(m, ops, arg);
	if (m->want)
		ops->end(arg, 0);
	m->want = 0;
	m->state = MP_DONE;
}
