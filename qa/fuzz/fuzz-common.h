/* Shared by the libFuzzer harnesses (qa/fuzz/README.md): quiet logging, a
 * scratch folder, input splitting. Nothing here is engine logic: each
 * harness calls the engine's public functions as main() does. */
#ifndef QA_FUZZ_FUZZ_COMMON_H
#define QA_FUZZ_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Errors only (FUZZ_VERBOSE=1 in the environment: the normal level). */
void fuzz_quiet(void);

/* A scratch folder for this process (under $TMPDIR, or /dev/shm when it
 * exists), removed at exit. */
const char *fuzz_tmpdir(void);

/* path = dir/name, into buf. */
const char *fuzz_path(char *buf, size_t len, const char *dir, const char *name);

/* Writes size bytes to path. 0 or -1. */
int fuzz_write_file(const char *path, const uint8_t *data, size_t size);

/* Removes every plain file in dir (the outputs of one iteration). */
void fuzz_clear_dir(const char *dir);

/* A NUL-terminated copy of data (malloc), for parsers that take C strings. */
char *fuzz_strndup(const uint8_t *data, size_t size);

/* The source and build folders, for suricata.yaml, rules/ and etc/. */
#ifndef FUZZ_TOP_SRCDIR
#define FUZZ_TOP_SRCDIR "."
#endif
#ifndef FUZZ_TOP_BUILDDIR
#define FUZZ_TOP_BUILDDIR "."
#endif

#endif
