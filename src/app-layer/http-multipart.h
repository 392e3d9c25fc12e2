/* multipart/form-data request bodies (RFC 7578): the parts that carry a
 * file (Content-Disposition with filename=), as Suricata names HTTP
 * upload files. A streaming parser: the body comes in any pieces, part
 * data goes out as it is known to be data (a possible delimiter is held
 * back, never copied), so a file can run past the stored body. */
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

/* The filename= of a part's header block (its Content-Disposition line);
 * -1: the part is not a file. */
int multipart_headers_filename(const uint8_t *hdr, size_t len, const uint8_t **name,
			       size_t *nlen);

/* What the parser tells its user: a part's headers are in (return 1 to
 * get its data), data of that part, its end (complete: its closing
 * delimiter came; 0: the body ended inside it). */
typedef struct MultipartOps {
	int (*part)(void *arg, const uint8_t *hdr, size_t hlen);
	void (*data)(void *arg, const uint8_t *d, size_t len);
	void (*end)(void *arg, int complete);
} MultipartOps;

#define MULTIPART_BOUNDARY_MAX 70   /* RFC 2046 */
#define MULTIPART_HEADERS_MAX 4096  /* a part's headers kept to name it */

typedef struct MultipartStream {
	uint8_t delim[MULTIPART_BOUNDARY_MAX + 3];   /* "\n--" boundary */
	uint8_t dlen;
	uint8_t state;
	uint8_t matched;          /* delim bytes seen so far (held back) */
	uint8_t cr;               /* a CR held back before them */
	uint8_t want;             /* the current part's data is asked for */
	uint32_t window;          /* the last header bytes: the blank line */
	uint32_t hlen;
	uint8_t hdr[MULTIPART_HEADERS_MAX];
} MultipartStream;

/* -1 when the boundary is empty or longer than RFC 2046 allows. */
int multipart_init(MultipartStream *m, const uint8_t *b, size_t blen);
void multipart_feed(MultipartStream *m, const uint8_t *data, size_t len, const MultipartOps *ops,
		    void *arg);
/* The body ended (or the rest will not be fed): a part still open ends
 * incomplete. */
void multipart_finish(MultipartStream *m, const MultipartOps *ops, void *arg);

#endif
