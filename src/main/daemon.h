/* The process around the engine: -D (daemon), --pidfile, --user/--group
 * (run-as) and the signals. Each step is a call main makes in its order:
 * the pid file is checked before -D forks (so that a refusal reaches the
 * terminal), the fork happens before any thread or device exists (fork
 * copies only the caller), privileges go once captures and sockets that
 * need them are open. */
#ifndef MAIN_DAEMON_H
#define MAIN_DAEMON_H

#include "runmode/runmode.h"

#include <sys/types.h>

struct Outputs;

/* -D: the parent stays until the child says it runs (daemon_ready) or
 * fails (exits, which closes the pipe), so that start-up errors reach the
 * caller's exit status. Returns the pipe's write end in the child (the
 * parent exits here), or -1 logged. */
int daemonize(void);
/* The child runs: the parent exits 0. fd is set to -1. */
void daemon_ready(int *fd);

/* --pidfile: refused when it names a running process; a stale one (its pid
 * gone) is replaced. check_only: the look before -D forks; then the write,
 * with the daemon's pid. 0, or -1 logged. */
int pidfile_take(const char *path, int check_only);

/* --user / --group: looked up before anything is opened, applied once the
 * capture is open (raw sockets need the privileges, reading does not). */
typedef struct RunAs {
	int set;
	uid_t uid;
	gid_t gid;
	const char *user;
} RunAs;

/* user, group: NULL when not asked. 0, or -1 logged (no such name). */
int run_as_lookup(const char *user, const char *group, RunAs *ra);
/* Before the drop: the files the engine made as root become the user's
 * (log_file: suricata.log's path, "" when none). Failures are warnings. */
void run_as_give_files(const RunAs *ra, struct Outputs *o, const char *log_dir,
		       const char *log_file);
int run_as_apply(const RunAs *ra);

/* What SIGHUP and the live tick act on (RunControl.arg): the engine's
 * outputs as they are then (the unix-socket runmode opens one set per
 * file) and suricata.log. */
typedef struct RunHooks {
	Engine *engine;
	const char *log_file;          /* "" when there is none */
	const struct SecurityConfig *security; /* applied once the threads are up */
} RunHooks;

/* SIGTERM/SIGINT stop, SIGHUP reopens the logs, SIGUSR2 reloads the rules,
 * SIGPIPE is ignored. The handlers only set the flags of the one
 * RunControl, returned here, which the capture loops read. */
RunControl *signals_install(void);
/* h's callbacks on ctl (on the main thread). */
void run_hooks_set(RunControl *ctl, RunHooks *h);

#endif
