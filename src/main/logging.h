/* Where the engine's own messages go: the console level (yaml, SC_LOG_LEVEL,
 * -v), the log folder, and suricata.log in it. */
#ifndef MAIN_LOGGING_H
#define MAIN_LOGGING_H

#include "main/cli.h"

#include <stddef.h>

/* The console level as Suricata sets it: logging.default-log-level (once
 * the config is loaded: have_config), which SC_LOG_LEVEL overrides; -v
 * (info), -vv (perf), -vvv (config), -vvvv (debug) raise it, never lower
 * it. 0, or -1 logged (a bad level name). */
int log_levels_set(const Cli *cli, int have_config);

/* -l, else default-log-dir, else /var/log/suricata/; it must be a folder.
 * 0 with *out set, or -1 logged. */
int log_dir_check(const Cli *cli, const char **out);

/* logging.outputs.file: Suricata keeps a suricata.log in the log folder.
 * Returns 1 with its path when enabled, 0 when not. */
int log_file_conf(const char *log_dir, char *path, size_t pathlen);
/* Opens it when enabled: path gets the file's path, or "" when there is
 * none (a file that cannot be opened is a warning). */
void log_file_start(const char *log_dir, char *path, size_t pathlen);

#endif
