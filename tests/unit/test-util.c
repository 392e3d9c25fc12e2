/* The helpers of test-util.h. They were copied into each test that needed
 * them; one copy keeps their behaviour the same in every test. */
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

char *make_tmpdir(const char *name)
{
	static char dir[128];

	snprintf(dir, sizeof(dir), "/tmp/%s.XXXXXX", name);
	return mkdtemp(dir);
}

void rm_tree(const char *dir)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
}

void utc(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
}

char *slurp(const char *path)
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
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

int count_lines(const char *path)
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

char *file_line(const char *path, int i)
{
	char *s = slurp(path), *start, *nl, *out = NULL;

	if (!s)
		return NULL;
	start = s;
	while (i-- > 0 && (nl = strchr(start, '\n')))
		start = nl + 1;
	if (i < 0 && *start) {
		nl = strchr(start, '\n');
		if (nl)
			*nl = '\0';
		out = strdup(start);
	}
	free(s);
	return out;
}

json_t *eve_line(const char *path, int i)
{
	char *l = file_line(path, i);
	json_t *o = l ? json_loads(l, 0, NULL) : NULL;

	free(l);
	return o;
}

/* Keys split on '.', array indexes in brackets: suricata-verify's paths. */
json_t *jget(json_t *j, const char *path)
{
	char key[128];

	while (j && *path) {
		size_t n = 0;

		while (*path && *path != '.' && *path != '[' && n < sizeof(key) - 1)
			key[n++] = *path++;
		key[n] = 0;
		if (n)
			j = json_object_get(j, key);
		while (j && *path == '[') {
			const char *close = strchr(path, ']');

			if (!close)
				return NULL;
			j = json_array_get(j, strtoul(path + 1, NULL, 10));
			path = close + 1;
		}
		if (*path == '.')
			path++;
	}
	return j;
}

const char *jstr(json_t *o, const char *path)
{
	json_t *v = jget(o, path);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

long long jint(json_t *o, const char *path)
{
	json_t *v = jget(o, path);

	return json_is_integer(v) ? (long long)json_integer_value(v) : JINT_NONE;
}

int jbool(json_t *o, const char *path)
{
	json_t *v = jget(o, path);

	return v ? json_is_true(v) : -1;
}

/* The schema is the shared data's; EVE_SCHEMA names another. */
static void schema_paths(char *def, size_t deflen, char *script, size_t scriptlen)
{
#ifdef SURICATA_TOP_SRCDIR
	snprintf(def, deflen, "%s/../shared/data/eve-schema.json", SURICATA_TOP_SRCDIR);
	snprintf(script, scriptlen, "%s/tests/e2e/eve-validate.py", SURICATA_TOP_SRCDIR);
#else
	snprintf(def, deflen, "../shared/data/eve-schema.json");
	snprintf(script, scriptlen, "%s", test_data_path("e2e/eve-validate.py"));
#endif
}

int schema_valid(const char *eve)
{
	const char *schema = getenv("EVE_SCHEMA");
	char cmd[1536], def[512], script[512], out[4096];
	FILE *pipe;
	size_t n;
	int rc;

	schema_paths(def, sizeof(def), script, sizeof(script));
	if (!schema)
		schema = def;
	if (access(schema, R_OK) != 0 || access(script, R_OK) != 0 ||
	    access("/usr/bin/python3", X_OK) != 0)
		return -1;
	snprintf(cmd, sizeof(cmd), "/usr/bin/python3 '%s' '%s' '%s' 2>&1", script, schema, eve);
	pipe = popen(cmd, "r");
	if (!pipe)
		return -1;
	n = fread(out, 1, sizeof(out) - 1, pipe);
	out[n] = '\0';
	rc = pclose(pipe);
	if (!WIFEXITED(rc) || WEXITSTATUS(rc) == 2)
		return -1;
	if (WEXITSTATUS(rc) != 0)
		printf("  schema: %s", out); /* the first invalid record */
	return WEXITSTATUS(rc) == 0;
}
