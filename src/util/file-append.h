/* Log files that are appended to by several runs: opening one, and ending
 * a line a previous run left cut (killed in the middle of a write, or a
 * disk that filled under it), so that our first line does not glue itself
 * onto the cut one. */
#ifndef UTIL_FILE_APPEND_H
#define UTIL_FILE_APPEND_H

/* Opens path for writing at its end (O_APPEND; truncated first when
 * append is 0), created 0666 less the umask as fopen() creates it.
 * The descriptor, or -1 with errno. *cut: 1 when the file did not end
 * with '\n' (the caller writes one before its first record). */
int file_append_open(const char *path, int append, int *cut);

#endif
