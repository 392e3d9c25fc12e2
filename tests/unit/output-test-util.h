/* Helpers shared by the output tests: loading a YAML snippet into outputs
 * and naming a file in their log folder (the generic ones are test-util.h). */
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
