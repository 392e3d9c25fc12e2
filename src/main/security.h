/* security.*: what the sensor forbids itself once it runs, as Suricata 8's
 * section of that name. Read once at start (security_config_load), applied
 * by the start-up steps. The lua keys are detection's (the rule loader
 * reads them, src/detect/lua-kw.c). */
#ifndef MAIN_SECURITY_H
#define MAIN_SECURITY_H

typedef struct SecurityConfig {
	/* limit-noproc: RLIMIT_NPROC 0 once every thread of the run is up,
	 * so that a compromised thread cannot fork or exec (Suricata 8's
	 * yaml says yes; absent, no). The kernel does not apply it to root. */
	int limit_noproc;
	/* landlock.enabled: accepted, warned and not applied (see the .c) */
	int landlock;
} SecurityConfig;

/* 0, or -1 with one error line naming the key. */
int security_config_load(SecurityConfig *sc);
/* limit-noproc, when set: called on the run's control thread once its
 * threads are all started. Warns when it cannot hold (root, ASan). */
void security_limit_noproc(const SecurityConfig *sc);

#endif
