/* Helpers shared by test_output.c and test_alert_out.c: a temporary log
 * folder, loading a YAML snippet into outputs, and reading back eve lines. */
#ifndef TESTS_UNIT_OUTPUT_TEST_UTIL_H
#define TESTS_UNIT_OUTPUT_TEST_UTIL_H

#include "conf/conf.h"
#include "output/output.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static inline void utc(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
}

static inline void rm_tree(const char *dir)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
}

static inline char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static inline int count_lines(const char *path)
{
	char *s = slurp(path);
	int n = 0;

	if (!s)
		return -1;
	for (char *c = s; *c; c++)
		n += *c == '\n';
	free(s);
	return n;
}

static inline json_t *jget(json_t *o, const char *path)
{
	char key[128], *dot;
	json_t *cur = o;
	const char *p = path;

	while (cur && (dot = strchr(p, '.'))) {
		snprintf(key, sizeof(key), "%.*s", (int)(dot - p), p);
		cur = json_object_get(cur, key);
		p = dot + 1;
	}
	return cur ? json_object_get(cur, p) : NULL;
}

static inline long long jint(json_t *o, const char *path)
{
	json_t *v = jget(o, path);

	return json_is_integer(v) ? (long long)json_integer_value(v) : -999;
}

static inline int load_yaml(const char *yaml)
{
	char err[256];

	conf_deinit();
	if (conf_load_string(yaml, "test.yaml", err, sizeof(err)) < 0) {
		printf("  yaml: %s\n", err);
		return -1;
	}
	return 0;
}

static inline Outputs *open_in(const char *dir, const char *yaml)
{
	OutputConfig cfg;
	char err[256] = "";
	Outputs *o;

	if (load_yaml(yaml) < 0 || output_config_load(&cfg, dir, err, sizeof(err)) < 0) {
		printf("  config: %s\n", err);
		return NULL;
	}
	o = outputs_open(&cfg, err, sizeof(err));
	if (!o)
		printf("  open: %s\n", err);
	return o;
}

static inline void path_in(char *buf, size_t len, const char *dir, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

#endif
