/* Helpers every unit test may use, written once: a temporary folder, whole
 * files and their lines, eve records by path, the eve schema check, and the
 * seeded generators of the property tests. Linked into every test binary
 * through TEST_HARNESS (Makefile.am). */
#ifndef TESTS_UNIT_TEST_UTIL_H
#define TESTS_UNIT_TEST_UTIL_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* A fresh folder /tmp/<name>.XXXXXX; the buffer is reused by the next call. */
char *make_tmpdir(const char *name);
/* rm -rf dir; a failure is said on stderr, tests go on. */
void rm_tree(const char *dir);
/* Timestamps in records are UTC from here on. */
void utc(void);

/* The whole file, NUL-terminated, to free(); NULL when unreadable. */
char *slurp(const char *path);
/* Newlines in the file, or -1 when unreadable. */
int count_lines(const char *path);
/* Line i (0-based) without its newline, to free(); NULL when absent. */
char *file_line(const char *path, int i);
/* Line i (0-based) of an eve file, parsed; NULL when absent or invalid. */
json_t *eve_line(const char *path, int i);

/* The value at a path of keys and indexes ("dns.answers[1].rdata"). */
json_t *jget(json_t *o, const char *path);
/* The string there, or NULL when absent or not a string. */
const char *jstr(json_t *o, const char *path);
/* The integer there, or JINT_NONE when absent or not an integer. */
#define JINT_NONE (-999999LL)
long long jint(json_t *o, const char *path);
/* 1 true, 0 any other value, -1 absent. */
int jbool(json_t *o, const char *path);

/* tests/e2e/eve-validate.py over an eve file when python3-jsonschema and the
 * schema are there: 1 valid, 0 invalid (the first bad record printed),
 * -1 not checked. */
int schema_valid(const char *eve);

/* Seeded generators: a fixed seed gives the same sequence everywhere, so a
 * property test's failure reproduces. Each test keeps the generator it was
 * written with, since its cases were chosen by that sequence. */

/* xorshift64*, all 64 bits. */
static inline uint64_t test_rand64(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 2685821657736338717ull;
}

/* xorshift64*, the high 32 bits (the better ones). */
static inline uint32_t test_rand32(uint64_t *state)
{
	return (uint32_t)(test_rand64(state) >> 32);
}

/* The C standard's example LCG, bits 8..31. */
static inline uint32_t test_lcg(uint32_t *state)
{
	*state = *state * 1103515245u + 12345u;
	return *state >> 8;
}

/* Marsaglia's xorshift64 (13, 7, 17), bits 11..42. */
static inline uint32_t test_xorshift(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return (uint32_t)(*state >> 11);
}

#endif
