/* Chunked body framing, read for its size lines only (http-chunk.h). */
#include "app-layer/http-chunk.h"
#include "util/strnum.h"

#include <string.h>

enum { ST_SIZE = 0, ST_DATA, ST_DATA_END, ST_OFF };

void http_chunk_scan_init(HttpChunkScan *s)
{
	memset(s, 0, sizeof(*s));
}

/* One byte of a size line. The size is the leading hex digits (blank
 * lines and blanks before them are skipped, as libhtp does); whatever
 * follows them is junk, an extension when a ';' is in it. */
static int size_byte(HttpChunkScan *s, uint8_t c)
{
	int v = hex_digit(c);
	int r = 0;

	if (c == '\n') {
		if (!s->in_size)
			return 0;               /* a blank line before the size */
		if (s->ext)
			r |= HTTP_CHUNK_EXTENSION;
		if (s->left == 0) {
			s->state = ST_OFF;
			return r | HTTP_CHUNK_DONE;
		}
		s->state = ST_DATA;
		s->in_size = s->after = s->ext = 0;
		return r;
	}
	if (v >= 0 && !s->after) {
		/* more than 16 digits is beyond any size libhtp takes */
		if (s->in_size >= 16) {
			s->state = ST_OFF;
			return 0;
		}
		s->left = (s->left << 4) | (uint64_t)v;
		s->in_size++;
		return 0;
	}
	if (!s->in_size) {
		if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f')
			return 0;
		s->state = ST_OFF;          /* no size: libhtp stops here too */
		return 0;
	}
	s->after = 1;
	if (c == ';')
		s->ext = 1;
	return 0;
}

int http_chunk_scan(HttpChunkScan *s, const uint8_t *p, size_t len)
{
	int r = 0;
	size_t i = 0;

	while (i < len && s->state != ST_OFF) {
		switch (s->state) {
		case ST_SIZE:
			r |= size_byte(s, p[i++]);
			break;
		case ST_DATA: {
			size_t n = len - i;

			if ((uint64_t)n > s->left)
				n = (size_t)s->left;
			i += n;
			s->left -= n;
			if (s->left == 0)
				s->state = ST_DATA_END;
			break;
		}
		case ST_DATA_END:
			/* the CRLF after the data: up to its LF */
			if (p[i++] == '\n')
				s->state = ST_SIZE;
			break;
		}
	}
	return r;
}
