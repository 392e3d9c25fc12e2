#include "test.h"

#include <stdlib.h>

#define TESTS_MAX 1024

static struct {
	const char *name;
	test_fn fn;
} tests[TESTS_MAX];
static int n_tests;
static int current_failed;

void test_register(const char *name, test_fn fn)
{
	if (n_tests == TESTS_MAX) {
		fprintf(stderr, "too many tests\n");
		exit(2);
	}
	tests[n_tests].name = name;
	tests[n_tests].fn = fn;
	n_tests++;
}

void test_fail(const char *file, int line, const char *what)
{
	printf("  %s:%d: CHECK failed: %s\n", file, line, what);
	current_failed = 1;
}

const char *test_data_path(const char *rel)
{
	static char buf[4096];
	const char *dir = getenv("TESTS_DIR");

	snprintf(buf, sizeof(buf), "%s/%s", dir ? dir : "tests", rel);
	return buf;
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0;
	const char *only = argc > 1 ? argv[1] : NULL;

	for (int i = 0; i < n_tests; i++) {
		if (only && !strstr(tests[i].name, only))
			continue;
		current_failed = 0;
		tests[i].fn();
		printf("%s: %s\n", current_failed ? "FAIL" : "PASS", tests[i].name);
		if (current_failed)
			failed++;
		else
			passed++;
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
