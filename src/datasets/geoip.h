/* GeoIP2 country lookups for the geoip keyword (libmaxminddb, optional:
 * HAVE_GEOIP). The database is `geoip-database` in the yaml, opened once,
 * at the first rule that needs it (rule loading is single-threaded), and
 * read-only after: libmaxminddb's lookups on an mmap'ed database are safe
 * from every worker at once and allocate nothing. */
#ifndef DATASETS_GEOIP_H
#define DATASETS_GEOIP_H

#include <stddef.h>
#include <stdint.h>

/* 1 when this build has libmaxminddb. */
int geoip_built(void);
/* Opens the database if not open yet. 0, or -1 with one line in err. */
int geoip_open(char *err, size_t errlen);
/* Packet path: the ISO country code of address a (AF_INET: 4 bytes,
 * AF_INET6: 16) into cc[3]. 1 found, 0 not. */
int geoip_country(int family, const uint8_t *a, char cc[3]);
void geoip_free(void);

#endif
