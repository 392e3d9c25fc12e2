/* classification.config ("config classification: name,description,prio")
 * and reference.config ("config reference: type url"). */
#include "detect/detect-int.h"

#include <stdlib.h>
#include <string.h>

static int open_lines(const char *path, FILE **f, char *err, size_t errlen)
{
	*f = fopen(path, "r");
	if (!*f) {
		snprintf(err, errlen, "%s: cannot open", path);
		return -1;
	}
	return 0;
}

/* Returns the text after "config <what>:" or NULL for comments and blanks;
 * sets *bad on other lines. */
static char *config_line(char *line, const char *what, int *bad)
{
	char *s = str_trim(line);
	size_t wl = strlen(what);

	*bad = 0;
	if (!*s || *s == '#')
		return NULL;
	if (strncmp(s, "config", 6) != 0) {
		*bad = 1;
		return NULL;
	}
	s = str_trim(s + 6);
	if (strncmp(s, what, wl) != 0) {
		*bad = 1;
		return NULL;
	}
	s = str_trim(s + wl);
	if (*s != ':') {
		*bad = 1;
		return NULL;
	}
	return str_trim(s + 1);
}

int detect_load_classifications(DetectContext *ctx, const char *path, char *err, size_t errlen)
{
	char line[1024];
	FILE *f;
	int lineno = 0;

	if (open_lines(path, &f, err, errlen))
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *parts[4], *body;
		int bad, n;
		uint64_t prio;
		ClassType *c;

		lineno++;
		body = config_line(line, "classification", &bad);
		if (!body) {
			if (bad)
				goto bad_line;
			continue;
		}
		n = split_commas(body, parts, 4);
		if (n != 3 || !*parts[0] || parse_u64(parts[2], &prio) || prio < 1 || prio > 255)
			goto bad_line;
		/* a later definition of the same name replaces the earlier one */
		c = (ClassType *)detect_find_class(ctx, parts[0]);
		if (c) {
			char *d = strdup(parts[1]);

			if (!d)
				goto oom;
			free(c->desc);
			c->desc = d;
			c->priority = (int)prio;
			continue;
		}
		c = realloc(ctx->classes, (ctx->nclasses + 1) * sizeof(*c));
		if (!c)
			goto oom;
		ctx->classes = c;
		c = &ctx->classes[ctx->nclasses];
		c->name = strdup(parts[0]);
		c->desc = strdup(parts[1]);
		c->priority = (int)prio;
		if (!c->name || !c->desc) {
			free(c->name);
			free(c->desc);
			goto oom;
		}
		ctx->nclasses++;
		continue;
bad_line:
		snprintf(err, errlen, "%s:%d: invalid classification line", path, lineno);
		fclose(f);
		return -1;
	}
	fclose(f);
	/* an empty file still means "check classtypes" */
	if (!ctx->classes)
		ctx->classes = calloc(1, sizeof(ClassType));
	return 0;
oom:
	fclose(f);
	snprintf(err, errlen, "%s: out of memory", path);
	return -1;
}

int detect_load_references(DetectContext *ctx, const char *path, char *err, size_t errlen)
{
	char line[2048];
	FILE *f;
	int lineno = 0;

	if (open_lines(path, &f, err, errlen))
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *body, *sp, **t, **u;
		int bad;

		lineno++;
		body = config_line(line, "reference", &bad);
		if (!body) {
			if (bad) {
				snprintf(err, errlen, "%s:%d: invalid reference line", path, lineno);
				fclose(f);
				return -1;
			}
			continue;
		}
		sp = body + strcspn(body, " \t");
		if (!*sp || sp == body) {
			snprintf(err, errlen, "%s:%d: invalid reference line", path, lineno);
			fclose(f);
			return -1;
		}
		*sp++ = '\0';
		t = realloc(ctx->ref_types, (ctx->nrefs + 1) * sizeof(*t));
		if (t)
			ctx->ref_types = t;
		u = realloc(ctx->ref_urls, (ctx->nrefs + 1) * sizeof(*u));
		if (u)
			ctx->ref_urls = u;
		if (!t || !u) {
			fclose(f);
			snprintf(err, errlen, "%s: out of memory", path);
			return -1;
		}
		ctx->ref_types[ctx->nrefs] = strdup(body);
		ctx->ref_urls[ctx->nrefs] = strdup(str_trim(sp));
		ctx->nrefs++;
	}
	fclose(f);
	return 0;
}

const ClassType *detect_find_class(const DetectContext *ctx, const char *name)
{
	if (!ctx)
		return NULL;
	for (int i = 0; i < ctx->nclasses; i++)
		if (strcmp(ctx->classes[i].name, name) == 0)
			return &ctx->classes[i];
	return NULL;
}

void detect_context_free(DetectContext *ctx)
{
	for (int i = 0; i < ctx->nclasses; i++) {
		free(ctx->classes[i].name);
		free(ctx->classes[i].desc);
	}
	free(ctx->classes);
	for (int i = 0; i < ctx->nrefs; i++) {
		free(ctx->ref_types[i]);
		free(ctx->ref_urls[i]);
	}
	free(ctx->ref_types);
	free(ctx->ref_urls);
	memset(ctx, 0, sizeof(*ctx));
}
