/* multipart/form-data parts (http-multipart.h). */
#define _GNU_SOURCE /* memmem */
#include "app-layer/http-multipart.h"

#include <ctype.h>
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

int multipart_next(const uint8_t *body, size_t len, const uint8_t *b, size_t blen, size_t *pos,
		   MultipartPart *out)
{
	const uint8_t *end = body + len, *p, *hdr, *hend, *next;

	if (*pos >= len)
		return 0;
	/* the delimiter "--boundary" at a line start (the first may open the body) */
	p = body + *pos;
	for (;;) {
		const uint8_t *d = memmem(p, (size_t)(end - p), "--", 2);

		if (!d || (size_t)(end - d) < blen + 2) {
			*pos = len;
			return 0;
		}
		if (memcmp(d + 2, b, blen) == 0 && (d == body || d[-1] == '\n')) {
			p = d + 2 + blen;
			break;
		}
		p = d + 1;
	}
	/* "--boundary--": the end */
	if (end - p >= 2 && p[0] == '-' && p[1] == '-') {
		*pos = len;
		return 0;
	}
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p < end && *p == '\r')
		p++;
	if (p < end && *p == '\n')
		p++;
	hdr = p;
	hend = memmem(hdr, (size_t)(end - hdr), "\r\n\r\n", 4);
	if (!hend) {
		const uint8_t *lf = memmem(hdr, (size_t)(end - hdr), "\n\n", 2);

		if (!lf) {
			*pos = len;
			return 0;   /* headers cut off: nothing to name a file by */
		}
		out->hdr = hdr;
		out->hdr_len = (size_t)(lf - hdr);
		out->data = lf + 2;
	} else {
		out->hdr = hdr;
		out->hdr_len = (size_t)(hend - hdr);
		out->data = hend + 4;
	}
	/* the content ends at CRLF "--boundary" */
	next = out->data;
	for (;;) {
		const uint8_t *d = memmem(next, (size_t)(end - next), "--", 2);

		if (!d || (size_t)(end - d) < blen + 2) {
			out->data_len = (size_t)(end - out->data);
			out->complete = 0;
			*pos = len;
			return 1;
		}
		if (memcmp(d + 2, b, blen) == 0 && d > out->data && d[-1] == '\n') {
			const uint8_t *de = d - 1;

			if (de > out->data && de[-1] == '\r')
				de--;
			out->data_len = (size_t)(de - out->data);
			out->complete = 1;
			*pos = (size_t)(de - body);
			return 1;
		}
		next = d + 1;
	}
}

int multipart_part_filename(const MultipartPart *pt, const uint8_t **name, size_t *nlen)
{
	const uint8_t *h = pt->hdr, *end = pt->hdr + pt->hdr_len;

	while (h < end) {
		const uint8_t *eol = memchr(h, '\n', (size_t)(end - h));
		size_t ll = eol ? (size_t)(eol - h) : (size_t)(end - h);

		if (ll > 20 && strncasecmp((const char *)h, "content-disposition:", 20) == 0)
			return disposition_filename(h + 20, ll - 20, name, nlen);
		h += ll + 1;
	}
	return -1;
}
