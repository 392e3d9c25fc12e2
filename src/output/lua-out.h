/* Lua output scripts (Suricata 8's "Lua Output"): `outputs: - lua:
 * {enabled, scripts-dir, scripts: [...]}`. Each script defines init(args)
 * (its needs), setup(args), log(args) and deinit(args); it runs with
 * every standard library (it writes its own files) and Suricata's
 * libraries (detect/lua/).
 *
 * Needs, as 8.0 reads them: type = "packet" (every packet; with
 * filter = "alerts", each alert, the rule readable through
 * suricata.rule), type = "flow" (each flow's end), type = "file" (each
 * file once over, through suricata.file; the transaction's library
 * reads its transaction), type = "stats" (log(args) gets the totals as
 * an array of {name, tmname, value, pvalue} at each stats interval and
 * at the end), or protocol = "http", "dns", "tls", "ssh", "smtp" (each
 * transaction of it once complete, args.tx_id its id), or streaming
 * (type = "streaming" with filter = "tcp" or protocol = "http", or
 * streaming = "tcp" | "http"): args.stream = {data, open, close,
 * to_server, to_client} for each run of in-order TCP bytes the app layer
 * takes (open on a direction's first byte, a close call with no data at
 * the flow's end), or each HTTP body of a transaction as it is logged
 * (one chunk, open and close, args.tx_id).
 *
 * One Lua state per script for the whole run, as Suricata has: init()
 * and setup() run when the first packet thread (or the stats thread)
 * starts, deinit() when the last one ends (the stats thread after the
 * final stats record); the calls are serialized by the script's lock, since a
 * state is single-threaded. A call that fails is counted: the first
 * failure of a script is logged with its reason, the count when the
 * script ends; the run goes on. */
#ifndef OUTPUT_LUA_OUT_H
#define OUTPUT_LUA_OUT_H

#include "output/logger.h"

/* output_thread_init / _fini: the scripts start with the first thread
 * and end with the last */
void lua_output_thread_init(OutputThread *ot);
void lua_output_thread_fini(OutputThread *ot);
/* The stats thread's reference, the same way: its final record is
 * written after the packet threads ended (runmode/stats-thread.c) */
void lua_output_hold(void);
void lua_output_release(void);
/* output.c: the `- lua:` output's settings (prefix "outputs.N.lua") are
 * this file's, read later */
void lua_output_config_mark(const char *prefix);
/* tx-policy.c: a transaction is being logged */
void lua_output_tx(OutputThread *ot, const Packet *p, Flow *f, void *tx);
/* file-log.c: a script wants files (type = "file"), so files log even
 * without eve fileinfo or file-store; and a file of tx is logged (once,
 * when it is over, after file-store decided on it) */
struct File;
int lua_output_files_on(void);
void lua_output_file(const Packet *p, const Flow *f, void *tx, struct File *file);
/* stats.c: a stats record of the engine's totals (snap, n counters;
 * prev: the previous record's, NULL for the first), at each
 * stats.interval and the final one */
void lua_output_stats(const uint64_t *snap, size_t n, const uint64_t *prev, size_t nprev);

#endif
