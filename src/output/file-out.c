/* The log files of the outputs (eve.json, fast.log, stats.log): whole
 * records, written loudly.
 *
 * Records are gathered, whole, in a buffer of our own and go out with one
 * write(2) of that buffer: the file never holds part of a record we meant
 * to write whole, whatever the disk does.
 * - A short write (the disk filled in the middle) is cut back to its last
 *   complete line with ftruncate(); the records after it stay in the
 *   buffer and are tried again on the next write.
 * - A failed write (ENOSPC, EFBIG under RLIMIT_FSIZE, EIO) is counted in
 *   write_errors and said once, with the file and errno, until writes work
 *   again (which is said too). While it fails, the buffer keeps what it
 *   holds and a record that does not fit is lost: counted in `lost`, and
 *   the run's exit code says so (output_lost_total()).
 * - Each write while failing tries again: space that returns is used at
 *   once. After REOPEN_AFTER failures in a row the file is opened again by
 *   name (a file deleted or a descriptor gone bad under us).
 * - Opened for appending, a file whose last line was cut (a run killed in
 *   a write) gets a '\n' before our first record.
 * The packet threads pay a memcpy per record under the file's lock; a
 * write(2) comes once per buffer, as stdio's did. */
#include "output/output-private.h"
#include "util/file-append.h"
#include "util/log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

/* failed writes in a row before the file is opened again by name */
#define REOPEN_AFTER 16

/* records lost by every output file of the process (the exit code) */
static uint64_t lost_total;

uint64_t output_lost_total(void)
{
	return __atomic_load_n(&lost_total, __ATOMIC_RELAXED);
}

static void count_lost(OutputFile *of, uint64_t n)
{
	of->lost += n;
	__atomic_add_fetch(&lost_total, n, __ATOMIC_RELAXED);
}

static size_t count_lines(const char *p, size_t n)
{
	size_t k = 0;

	for (const char *e = p + n; (p = memchr(p, '\n', (size_t)(e - p))); p++)
		k++;
	return k;
}

/* Why a write was short, which write(2) does not say: the file size limit
 * when the file reached it, else a full disk. */
static int short_write_errno(OutputFile *of)
{
	struct rlimit rl;
	off_t end = lseek(of->fd, 0, SEEK_END);

	if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && end >= 0 &&
	    (rlim_t)end + OUTPUT_FILE_BUF > rl.rlim_cur)
		return EFBIG;
	return ENOSPC;
}

/* One line per outage: the first failure names the file and the reason. */
static void write_failed(OutputFile *of, int err)
{
	of->write_errors++;
	of->fail_streak++;
	if (of->failing)
		return;
	of->failing = 1;
	log_error("output: cannot write %s: %s; records are kept in memory and tried "
		  "again, those that do not fit are lost (counted; said once)", of->path,
		  strerror(err));
}

static void write_worked(OutputFile *of)
{
	of->fail_streak = 0;
	if (!of->failing)
		return;
	of->failing = 0;
	log_notice("output: %s: writing again (%llu failed writes, %llu records lost so far)",
		   of->path, (unsigned long long)of->write_errors,
		   (unsigned long long)of->lost);
}

/* The file ends with a cut line: end it. 0 once it is ended. */
static int end_cut_line(OutputFile *of)
{
	ssize_t n;

	if (!of->cut)
		return 0;
	do
		n = write(of->fd, "\n", 1);
	while (n < 0 && errno == EINTR);
	if (n != 1) {
		write_failed(of, n < 0 ? errno : short_write_errno(of));
		return -1;
	}
	of->cut = 0;
	return 0;
}

/* A write put n bytes of which the last tail are part of a line: takes
 * them back, or when it cannot, remembers to end the line. */
static void cut_back(OutputFile *of, size_t tail)
{
	off_t end;

	if (!tail)
		return;
	/* O_APPEND: the offset is the end of what we wrote */
	end = lseek(of->fd, 0, SEEK_CUR);
	if (end < (off_t)tail || ftruncate(of->fd, end - (off_t)tail) != 0)
		of->cut = 1;
}

static void file_reopen_locked(OutputFile *of)
{
	int cut, fd = file_append_open(of->path, 1, &cut);

	if (fd < 0)
		return;     /* the old descriptor stays: it may work again */
	if (of->fd >= 0)
		close(of->fd);
	of->fd = fd;
	of->cut |= cut;
}

/* Writes what the buffer holds: whole lines or nothing. 0 when it is
 * empty afterwards, -1 when a write failed (the rest is kept). */
static int drain(OutputFile *of)
{
	if (of->fd < 0)
		return -1;
	if (of->fail_streak && of->fail_streak % REOPEN_AFTER == 0)
		file_reopen_locked(of);
	if (end_cut_line(of) < 0)
		return -1;
	while (of->used) {
		ssize_t n = write(of->fd, of->buf, of->used);
		size_t whole;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			write_failed(of, n < 0 ? errno : short_write_errno(of));
			return -1;
		}
		if ((size_t)n == of->used) {
			of->used = 0;
			break;
		}
		if (!of->regular) {
			/* a pipe or a device: nothing to take back; a short
			 * write there is an interruption, the rest follows */
			memmove(of->buf, of->buf + n, of->used - (size_t)n);
			of->used -= (size_t)n;
			continue;
		}
		/* short: keep the complete lines, take the cut one back, and
		 * go on (the next write says why, or takes the rest) */
		whole = (size_t)n;
		while (whole && of->buf[whole - 1] != '\n')
			whole--;
		cut_back(of, (size_t)n - whole);
		memmove(of->buf, of->buf + whole, of->used - whole);
		of->used -= whole;
		if (of->cut && end_cut_line(of) < 0)
			return -1;
		if (!whole) {
			/* not one line fits: trying again would write and cut
			 * the same bytes forever (RLIMIT_FSIZE gives no errno
			 * while a part still fits) */
			write_failed(of, short_write_errno(of));
			return -1;
		}
	}
	write_worked(of);
	return 0;
}

/* A record larger than the buffer: one writev(2), all of it or none. */
static void put_direct(OutputFile *of, const struct iovec *iov, int niov, size_t total)
{
	ssize_t n;
	int e;

	if (end_cut_line(of) < 0) {
		count_lost(of, 1);
		return;
	}
	do
		n = writev(of->fd, iov, niov);
	while (n < 0 && errno == EINTR);
	if ((size_t)n == total) {
		write_worked(of);
		return;
	}
	e = n < 0 ? errno : short_write_errno(of);
	if (n > 0)
		cut_back(of, (size_t)n);
	write_failed(of, e);
	count_lost(of, 1);
}

/* prefix, line and '\n': one record into the buffer (lock held). */
static void put_record(OutputFile *of, const char *pre, size_t prelen, const char *line,
		       size_t len)
{
	size_t need = prelen + len + 1;

	if (of->used + need > OUTPUT_FILE_BUF)
		drain(of);
	if (need > OUTPUT_FILE_BUF && !of->used) {
		struct iovec iov[3] = {
			{ (void *)pre, prelen }, { (void *)line, len }, { (void *)"\n", 1 },
		};

		put_direct(of, iov, 3, need);
		return;
	}
	if (of->used + need > OUTPUT_FILE_BUF) {
		count_lost(of, 1);
		return;
	}
	memcpy(of->buf + of->used, pre, prelen);
	memcpy(of->buf + of->used + prelen, line, len);
	of->buf[of->used + need - 1] = '\n';
	of->used += need;
}

int output_file_open(OutputFile *of, const OutputFileConfig *fc, char *err, size_t errlen)
{
	struct stat st;
	int cut;

	of->fd = -1;
	if (!fc->enabled)
		return 0;
	of->path = fc->path;
	of->buf = malloc(OUTPUT_FILE_BUF);
	if (!of->buf) {
		snprintf(err, errlen, "%s: out of memory for its buffer", fc->path);
		return -1;
	}
	of->fd = file_append_open(fc->path, fc->append, &cut);
	if (of->fd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", fc->path, strerror(errno));
		return -1;
	}
	of->cut = cut;
	of->regular = fstat(of->fd, &st) == 0 && S_ISREG(st.st_mode);
	return 0;
}

void output_file_close(OutputFile *of)
{
	if (of->fd >= 0) {
		drain(of);
		if (of->used) {
			count_lost(of, count_lines(of->buf, of->used));
			of->used = 0;
		}
		close(of->fd);
		if (of->lost || of->write_errors)
			log_error("output: %s: %llu records lost, %llu failed writes",
				  of->path, (unsigned long long)of->lost,
				  (unsigned long long)of->write_errors);
	}
	of->fd = -1;
	free(of->buf);
	of->buf = NULL;
	pthread_mutex_destroy(&of->lock);
}

/* Under of->lock. A failed reopen keeps the old descriptor (records go on
 * into the file it was, renamed or not: nothing is lost) and is tried again
 * by each flush tick and SIGHUP, so that an operator who fixes the folder's
 * owner or permissions gets the new file without a restart. */
static int reopen_locked(OutputFile *of, int quiet)
{
	int cut, fd;

	drain(of);
	fd = file_append_open(of->path, 1, &cut);
	if (fd < 0) {
		if (!quiet)
			log_error("output: cannot reopen %s: %s; still writing to the file it "
				  "was, tried again each second and on SIGHUP", of->path,
				  strerror(errno));
		of->reopen_failed = 1;
		return -1;
	}
	close(of->fd);
	of->fd = fd;
	of->cut = cut;
	of->fail_streak = 0;
	if (of->reopen_failed && quiet)
		log_notice("output: %s reopened", of->path);
	of->reopen_failed = 0;
	return 0;
}

int output_file_reopen(OutputFile *of)
{
	int rc;

	if (of->fd < 0)
		return 0;
	pthread_mutex_lock(&of->lock);
	rc = reopen_locked(of, 0);
	pthread_mutex_unlock(&of->lock);
	return rc;
}

int output_file_chown(OutputFile *of, unsigned uid, unsigned gid)
{
	int rc = 0;

	if (of->fd < 0)
		return 0;
	pthread_mutex_lock(&of->lock);
	rc = fchown(of->fd, (uid_t)uid, (gid_t)gid);
	pthread_mutex_unlock(&of->lock);
	return rc;
}

void output_file_flush(OutputFile *of)
{
	if (of->fd < 0)
		return;
	pthread_mutex_lock(&of->lock);
	if (of->reopen_failed)
		reopen_locked(of, 1);
	else if (of->used || of->cut)
		drain(of);
	pthread_mutex_unlock(&of->lock);
}

void output_file_write_line(OutputFile *of, const char *line, size_t len)
{
	output_file_write_prefixed(of, "", 0, line, len);
}

void output_file_write_prefixed(OutputFile *of, const char *pre, size_t prelen,
				const char *line, size_t len)
{
	if (of->fd < 0)
		return;
	pthread_mutex_lock(&of->lock);
	put_record(of, pre, prelen, line, len);
	pthread_mutex_unlock(&of->lock);
}

void output_file_write_now(OutputFile *of, const char *text, size_t len)
{
	if (of->fd < 0)
		return;
	pthread_mutex_lock(&of->lock);
	if (len && text[len - 1] == '\n')
		len--;
	put_record(of, "", 0, text, len);
	drain(of);
	pthread_mutex_unlock(&of->lock);
}

void output_file_counters(OutputFile *of, uint64_t *write_errors, uint64_t *lost)
{
	pthread_mutex_lock(&of->lock);
	*write_errors = of->write_errors;
	*lost = of->lost;
	pthread_mutex_unlock(&of->lock);
}
