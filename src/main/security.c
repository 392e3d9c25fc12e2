/* security.h: Suricata 8's security section. */
#include "config.h"

#include "main/security.h"
#include "conf/conf.h"
#include "util/log.h"

#include <errno.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

int security_config_load(SecurityConfig *sc)
{
	sc->limit_noproc = 0;
	sc->landlock = 0;
	/* a value that is not a boolean: conf_get_bool says so */
	if (conf_get_bool("security.limit-noproc", &sc->limit_noproc) < 0 ||
	    conf_get_bool("security.landlock.enabled", &sc->landlock) < 0)
		return -1;
	/* Debian 12's libc has no Landlock wrappers and this engine writes
	 * its logs, file-store and unix socket wherever the yaml says: a
	 * ruleset built from directories.read/write alone would break those.
	 * Not applied, said so once rather than silently ignored. */
	if (sc->landlock)
		log_warning("security.landlock.enabled: Landlock is not supported by this "
			    "build; the sandbox is not applied");
	conf_mark_used("security.landlock");
	return 0;
}

void security_limit_noproc(const SecurityConfig *sc)
{
	struct rlimit none = { 0, 0 };

	if (!sc->limit_noproc)
		return;
#ifdef HAVE_SANITIZERS
	/* the sanitizers' reports fork a symbolizer */
	log_warning("security.limit-noproc: not applied in an ASan/UBSan build");
	return;
#endif
	if (geteuid() == 0)
		log_warning("security.limit-noproc: setrlimit has no effect when running as root");
	if (setrlimit(RLIMIT_NPROC, &none) != 0) {
		log_warning("security.limit-noproc: setrlimit failed to prevent process "
			    "creation: %s", strerror(errno));
		return;
	}
	log_info("security.limit-noproc: no new process or thread from here (RLIMIT_NPROC 0)");
}
