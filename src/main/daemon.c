/* The process around the engine (daemon.h): daemon, pid file, run-as,
 * signals. */
#include "main/daemon.h"
#include "main/security.h"
#include "app-layer/files.h"
#include "output/output.h"
#include "util/log.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The one RunControl: signal handlers can reach no other state. */
static RunControl run_ctl;

static void on_stop_signal(int sig)
{
	(void)sig;
	run_ctl.stop = 1;
}

static void on_hup(int sig)
{
	(void)sig;
	run_ctl.reopen = 1;
}

static void on_usr2(int sig)
{
	(void)sig;
	run_ctl.reload = 1;
}

RunControl *signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_hup;
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_usr2;
	sigaction(SIGUSR2, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	return &run_ctl;
}

/* SIGHUP, on the main thread: log rotation moved the files away. */
static void reopen_logs(void *arg)
{
	const RunHooks *h = arg;
	Outputs *o = h->engine->outputs;
	int failed = 0;

	if (h->log_file[0] && log_open_file(h->log_file) != 0) {
		log_error("logging: cannot reopen %s: %s; still writing to the file it was",
			  h->log_file, strerror(errno));
		failed = 1;
	}
	if (o && outputs_reopen(o) != 0)
		failed = 1;
	/* each failure was said with its file and reason: no claim of success */
	if (!failed)
		log_notice("SIGHUP: log files reopened");
}

static void flush_outputs(void *arg)
{
	const RunHooks *h = arg;

	outputs_flush(h->engine->outputs);
}

/* As Suricata 8: once every thread is running, before the packets. */
static void run_started(void *arg)
{
	const RunHooks *h = arg;

	security_limit_noproc(h->security);
}

void run_hooks_set(RunControl *ctl, RunHooks *h)
{
	ctl->on_reopen = reopen_logs;
	ctl->on_tick = flush_outputs;
	ctl->on_started = h->security ? run_started : NULL;
	ctl->arg = h;
}

int daemonize(void)
{
	int fds[2];
	pid_t pid;

	if (pipe(fds) != 0) {
		log_error("-D: pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		log_error("-D: fork: %s", strerror(errno));
		return -1;
	}
	if (pid > 0) {
		char b;

		close(fds[1]);
		_exit(read(fds[0], &b, 1) == 1 ? 0 : 1);
	}
	close(fds[0]);
	setsid();
	{
		int fd = open("/dev/null", O_RDWR);

		if (fd >= 0) {
			dup2(fd, STDIN_FILENO);
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
			if (fd > STDERR_FILENO)
				close(fd);
		}
	}
	return fds[1];
}

void daemon_ready(int *fd)
{
	if (*fd < 0)
		return;
	if (write(*fd, "1", 1) != 1) {
		/* the parent is gone: nothing to tell */
	}
	close(*fd);
	*fd = -1;
}

/* --pidfile: refused when it names a running process; a stale one (its pid
 * gone) is replaced. check_only: the look before -D forks (so that the
 * refusal reaches the terminal); then the write, with the daemon's pid.
 * 0, or -1 logged. */
int pidfile_take(const char *path, int check_only)
{
	FILE *f = fopen(path, "r");
	char buf[32];
	int fd;

	if (f) {
		long pid = 0;

		if (fgets(buf, sizeof(buf), f))
			pid = strtol(buf, NULL, 10);
		fclose(f);
		if (pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM)) {
			log_error("pid file %s: pid %ld is running; is another instance running? "
				  "(remove the file if it is stale)", path, pid);
			return -1;
		}
		if (check_only)
			return 0;
		log_info("pid file %s: stale (pid %ld is gone), replaced", path, pid);
	}
	if (check_only)
		return 0;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		log_error("pid file %s: %s", path, strerror(errno));
		return -1;
	}
	snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if (write(fd, buf, strlen(buf)) != (ssize_t)strlen(buf)) {
		log_error("pid file %s: %s", path, strerror(errno));
		close(fd);
		unlink(path);
		return -1;
	}
	close(fd);
	return 0;
}

int run_as_lookup(const char *user, const char *group, RunAs *ra)
{
	memset(ra, 0, sizeof(*ra));
	if (!user && !group)
		return 0;
	ra->set = 1;
	ra->uid = getuid();
	ra->gid = getgid();
	if (user) {
		struct passwd *pw = getpwnam(user);

		if (!pw) {
			log_error("--user: no such user '%s'", user);
			return -1;
		}
		ra->uid = pw->pw_uid;
		ra->gid = pw->pw_gid;
		ra->user = user;
	}
	if (group) {
		struct group *gr = getgrnam(group);

		if (!gr) {
			log_error("--group: no such group '%s'", group);
			return -1;
		}
		ra->gid = gr->gr_gid;
	}
	return 0;
}

int run_as_apply(const RunAs *ra)
{
	if (!ra->set)
		return 0;
	if ((ra->user ? initgroups(ra->user, ra->gid) : setgroups(0, NULL)) != 0 ||
	    setgid(ra->gid) != 0 || setuid(ra->uid) != 0) {
		log_error("cannot drop privileges to uid %u gid %u: %s", (unsigned)ra->uid,
			  (unsigned)ra->gid, strerror(errno));
		return -1;
	}
	log_info("running as uid %u gid %u", (unsigned)ra->uid, (unsigned)ra->gid);
	return 0;
}

/* uid/gid may write into dir (owner, group or other bits; gid's user's
 * other groups are looked up too). */
static int dir_writable_by(const char *dir, const RunAs *ra)
{
	struct stat st;
	gid_t groups[64];
	int ng = 64;

	if (stat(dir, &st) != 0)
		return 1;     /* nothing useful to say */
	if (ra->uid == 0 || (st.st_mode & S_IWOTH))
		return 1;
	if (st.st_uid == ra->uid)
		return (st.st_mode & S_IWUSR) != 0;
	if (!(st.st_mode & S_IWGRP))
		return 0;
	if (st.st_gid == ra->gid)
		return 1;
	if (ra->user && getgrouplist(ra->user, ra->gid, groups, &ng) >= 0)
		for (int i = 0; i < ng; i++)
			if (groups[i] == st.st_gid)
				return 1;
	return 0;
}

/* Before the drop: what the engine wrote as root becomes run-as's, as
 * Suricata gives its log files to run-as's user: suricata.log, the output
 * files (SIGHUP opens them again by name) and the file-store folders
 * (workers create files in them). The log folder itself stays the
 * operator's: a folder the user cannot write is said once, because log
 * rotation that moves the files away needs it. A failure here is a
 * warning: the run works until the first SIGHUP or stored file. */
void run_as_give_files(const RunAs *ra, Outputs *o, const char *log_dir, const char *log_file)
{
	char err[1024];

	if (!ra->set || geteuid() != 0)
		return;
	if (log_file[0] && log_chown_file(ra->uid, ra->gid) != 0)
		log_warning("run-as: cannot give %s to uid %u gid %u: %s", log_file,
			    (unsigned)ra->uid, (unsigned)ra->gid, strerror(errno));
	if (o && outputs_chown(o, ra->uid, ra->gid, err, sizeof(err)) != 0)
		log_warning("run-as: output: %s", err);
	if (files_store_chown(ra->uid, ra->gid, err, sizeof(err)) != 0)
		log_warning("run-as: %s", err);
	if (!dir_writable_by(log_dir, ra))
		log_warning("run-as: uid %u gid %u cannot create files in the log folder %s: after "
			    "log rotation moves a file away, SIGHUP cannot make it again (give the "
			    "folder to the user or its group)", (unsigned)ra->uid, (unsigned)ra->gid,
			    log_dir);
}
