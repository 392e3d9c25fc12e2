/* A tiny unit-test harness. Each test_<subsystem>.c defines tests with TEST();
 * test-main.c runs them all and ends with "N passed, N failed".
 *
 *   TEST(ipv4_bad_ihl_sets_event) {
 *       ...
 *       CHECK(p.nevents == 1);
 *       CHECK_EQ(p.sp, 80);
 *       CHECK_STREQ(conf_get("a.b"), "x");
 *   }
 */
#ifndef TESTS_UNIT_TEST_H
#define TESTS_UNIT_TEST_H

#include <stdio.h>
#include <string.h>
#include <stdint.h>

typedef void (*test_fn)(void);
void test_register(const char *name, test_fn fn);
void test_fail(const char *file, int line, const char *what);
/* Path of a file under tests/ (set from TESTS_DIR by the harness). */
const char *test_data_path(const char *rel);

#include "test-util.h"

#define TEST(name)                                                        \
	static void name(void);                                               \
	__attribute__((constructor)) static void test_reg_##name(void)        \
	{                                                                     \
		test_register(#name, name);                                       \
	}                                                                     \
	static void name(void)

#define CHECK(cond)                                                       \
	do {                                                                  \
		if (!(cond)) {                                                    \
			test_fail(__FILE__, __LINE__, #cond);                         \
			return;                                                       \
		}                                                                 \
	} while (0)

#define CHECK_EQ(a, b)                                                    \
	do {                                                                  \
		long long _a = (long long)(a), _b = (long long)(b);               \
		if (_a != _b) {                                                   \
			char _m[1024];                                                \
			snprintf(_m, sizeof(_m), "%s == %s (%lld != %lld)", #a, #b,   \
				 _a, _b);                                                 \
			test_fail(__FILE__, __LINE__, _m);                            \
			return;                                                       \
		}                                                                 \
	} while (0)

#define CHECK_STREQ(a, b)                                                 \
	do {                                                                  \
		const char *_a = (a), *_b = (b);                                  \
		if (!_a || !_b || strcmp(_a, _b) != 0) {                          \
			char _m[512];                                                 \
			snprintf(_m, sizeof(_m), "%s == %s (\"%s\" != \"%s\")", #a,   \
				 #b, _a ? _a : "(null)", _b ? _b : "(null)");             \
			test_fail(__FILE__, __LINE__, _m);                            \
			return;                                                       \
		}                                                                 \
	} while (0)

#endif
