#define _GNU_SOURCE
#include "fuzz-common.h"
#include "util/log.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[256];

void fuzz_quiet(void)
{
	const char *v = getenv("FUZZ_VERBOSE");

	if (!v || !*v || !strcmp(v, "0"))
		log_set_level(LOG_LVL_ERROR);
}

/* The scratch folder and the folders one level down (fuzz_rule's captures). */
static void tmpdir_remove(void)
{
	DIR *d;
	struct dirent *e;
	char path[512];

	if (!tmpdir[0])
		return;
	fuzz_clear_dir(tmpdir);
	d = opendir(tmpdir);
	while (d && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		fuzz_path(path, sizeof(path), tmpdir, e->d_name);
		fuzz_clear_dir(path);
		rmdir(path);
	}
	if (d)
		closedir(d);
	rmdir(tmpdir);
}

const char *fuzz_tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	struct stat st;

	if (tmpdir[0])
		return tmpdir;
	if (!base || !*base)
		base = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm" : "/tmp";
	snprintf(tmpdir, sizeof(tmpdir), "%s/suricata-fuzz.XXXXXX", base);
	if (!mkdtemp(tmpdir)) {
		perror("fuzz: mkdtemp");
		abort();
	}
	atexit(tmpdir_remove);
	return tmpdir;
}

const char *fuzz_path(char *buf, size_t len, const char *dir, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
	return buf;
}

int fuzz_write_file(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	int rc = 0;

	if (!f)
		return -1;
	if (size && fwrite(data, 1, size, f) != size)
		rc = -1;
	if (fclose(f) != 0)
		rc = -1;
	return rc;
}

void fuzz_clear_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[512];

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
			continue;
		unlink(fuzz_path(path, sizeof(path), dir, e->d_name));
	}
	closedir(d);
}

char *fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}
