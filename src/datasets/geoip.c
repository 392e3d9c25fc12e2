/* GeoIP2 country lookups (geoip.h). */
#include "config.h"
#include "datasets/geoip.h"
#include "conf/conf.h"

#include <stdio.h>
#include <string.h>

#ifdef HAVE_GEOIP
#include <maxminddb.h>
#include <netinet/in.h>
#include <sys/socket.h>

static MMDB_s db;
static int db_open;

int geoip_built(void)
{
	return 1;
}

int geoip_open(char *err, size_t errlen)
{
	const char *path = conf_get("geoip-database");
	int rc;

	if (db_open)
		return 0;
	if (!path || !path[0]) {
		snprintf(err, errlen, "geoip: geoip-database is not set in the yaml");
		return -1;
	}
	rc = MMDB_open(path, MMDB_MODE_MMAP, &db);
	if (rc != MMDB_SUCCESS) {
		snprintf(err, errlen, "geoip: cannot open geoip-database %s: %s", path,
			 MMDB_strerror(rc));
		return -1;
	}
	db_open = 1;
	return 0;
}

int geoip_country(int family, const uint8_t *a, char cc[3])
{
	struct sockaddr_storage ss;
	MMDB_lookup_result_s r;
	MMDB_entry_data_s e;
	int mrc;

	if (!db_open)
		return 0;
	memset(&ss, 0, sizeof(ss));
	if (family == AF_INET) {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;

		s4->sin_family = AF_INET;
		memcpy(&s4->sin_addr, a, 4);
	} else {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;

		s6->sin6_family = AF_INET6;
		memcpy(&s6->sin6_addr, a, 16);
	}
	r = MMDB_lookup_sockaddr(&db, (struct sockaddr *)&ss, &mrc);
	if (mrc != MMDB_SUCCESS || !r.found_entry)
		return 0;
	if (MMDB_get_value(&r.entry, &e, "country", "iso_code", NULL) != MMDB_SUCCESS ||
	    !e.has_data || e.type != MMDB_DATA_TYPE_UTF8_STRING || e.data_size != 2)
		return 0;
	cc[0] = e.utf8_string[0];
	cc[1] = e.utf8_string[1];
	cc[2] = 0;
	return 1;
}

void geoip_free(void)
{
	if (db_open)
		MMDB_close(&db);
	db_open = 0;
}

#else

int geoip_built(void)
{
	return 0;
}

int geoip_open(char *err, size_t errlen)
{
	/* Suricata 8's words for a build without libmaxminddb */
	snprintf(err, errlen, "no GeoIP support built in, needed for geoip keyword");
	return -1;
}

int geoip_country(int family, const uint8_t *a, char cc[3])
{
	(void)family;
	(void)a;
	(void)cc;
	return 0;
}

void geoip_free(void)
{
}

#endif
