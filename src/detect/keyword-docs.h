/* The documentation page of a rule keyword, as Suricata 8 prints it in
 * --list-keywords (csv and per keyword): its section of the 8.0 user
 * guide's rules chapter. */
#ifndef DETECT_KEYWORD_DOCS_H
#define DETECT_KEYWORD_DOCS_H

#include <stddef.h>

/* The URL of name's section into out (cap bytes): 0, or -1 when the guide
 * has no section for it (nothing is printed then, as in Suricata). */
int keyword_doc_url(const char *name, char *out, size_t cap);

#endif
