/* Opening a log file for appending: see file-append.h. */
#include "util/file-append.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* 1 when the last byte of fd's file is not '\n'; 0 for an empty file, a
 * complete last line, or a file that cannot be read back (a FIFO, a
 * device: nothing to end there). */
static int ends_cut(int fd, const char *path)
{
	struct stat st;
	char last = '\n';
	int rd;

	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0)
		return 0;
	/* the write descriptor is O_WRONLY: read the byte through another */
	rd = open(path, O_RDONLY | O_CLOEXEC);
	if (rd < 0)
		return 0;
	if (pread(rd, &last, 1, st.st_size - 1) != 1)
		last = '\n';
	close(rd);
	return last != '\n';
}

int file_append_open(const char *path, int append, int *cut)
{
	int flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (append ? 0 : O_TRUNC);
	int fd = open(path, flags, 0666);

	*cut = 0;
	if (fd < 0)
		return -1;
	if (append)
		*cut = ends_cut(fd, path);
	return fd;
}
