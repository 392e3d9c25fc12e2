/* multipart/form-data request bodies (RFC 7578): the parts that carry a
 * file (Content-Disposition with filename=), as Suricata names HTTP
 * upload files. Pure functions over a body buffer, for http.c. */
#ifndef APP_LAYER_HTTP_MULTIPART_H
#define APP_LAYER_HTTP_MULTIPART_H

#include <stddef.h>
#include <stdint.h>

/* The boundary of a Content-Type value "multipart/form-data; boundary=X"
 * (quoted or not). 0 with *b, *blen set; -1 when not multipart. */
int multipart_boundary(const uint8_t *ct, size_t ctlen, const uint8_t **b, size_t *blen);

/* The filename= of a header block's Content-Disposition (quoted or not,
 * case-insensitive names), 0 with *name, *nlen set; -1 when none. The
 * same for a response's "Content-Disposition:" value. */
int disposition_filename(const uint8_t *v, size_t len, const uint8_t **name, size_t *nlen);

typedef struct MultipartPart {
	const uint8_t *hdr;       /* the part's header block */
	size_t hdr_len;
	const uint8_t *data;      /* its content */
	size_t data_len;
	int complete;             /* its closing delimiter was seen */
} MultipartPart;

/* The next part of body from *pos (0 to start), moving *pos past it.
 * 1: a part; 0: no more. A part the body ends inside comes back with
 * complete 0 (its data runs to the end). */
int multipart_next(const uint8_t *body, size_t len, const uint8_t *b, size_t blen, size_t *pos,
		   MultipartPart *out);

/* The filename= of a part's Content-Disposition header; -1: not a file. */
int multipart_part_filename(const MultipartPart *pt, const uint8_t **name, size_t *nlen);

#endif
