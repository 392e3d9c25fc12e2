/* IP reputation (Suricata 8's reputation config and the iprep keyword):
 * categories from `reputation-categories-file` ("<id>,<short name>,<desc>"
 * lines, ids 0 to 59), scores from the `reputation-files` under
 * `default-reputation-path` ("<ip or cidr>,<category id>,<score>" lines,
 * scores 0 to 127).
 *
 * The tables are built once at start and read-only after: host entries
 * sorted by address (a binary search per lookup, no lock, no allocation)
 * and the netblocks in a list scanned longest prefix first. A host's own
 * entry wins over a netblock's for the same category. */
#ifndef DATASETS_IPREP_H
#define DATASETS_IPREP_H

#include <stddef.h>
#include <stdint.h>

#define IPREP_CATS_MAX 60
#define IPREP_SCORE_MAX 127

/* Reads the yaml's reputation settings and files. Without
 * reputation-categories-file there is no reputation (iprep rules fail).
 * 0, or -1 with one line in err (a bad line of a reputation file is a
 * warning, the line skipped, as Suricata does). */
int iprep_init(char *err, size_t errlen);
void iprep_free(void);

/* The id of a category's short name, or -1 (also with no categories). */
int iprep_category(const char *name);
/* 1 when categories were loaded */
int iprep_loaded(void);

/* Packet path: the score of address a (family AF_INET: 4 bytes, AF_INET6:
 * 16) in category cat, or -1 when it has none. */
int iprep_score(int family, const uint8_t *a, int cat);

#endif
