/* Lua output scripts (Suricata 8's "Lua Output"): `outputs: - lua:
 * {enabled, scripts-dir, scripts: [...]}`. Each script defines init(args)
 * (its needs), setup(args), log(args) and deinit(args); it runs with
 * every standard library (it writes its own files) and Suricata's
 * libraries (detect/lua/).
 *
 * Needs, as 8.0 reads them: type = "packet" (every packet; with
 * filter = "alerts", each alert, the rule readable through
 * suricata.rule), type = "flow" (each flow's end), or protocol = "http",
 * "dns", "tls", "ssh", "smtp" (each transaction of it once complete).
 *
 * One Lua state per script for the whole run, as Suricata has: init()
 * and setup() run when the first packet thread starts, deinit() when the
 * last one ends; the calls are serialized by the script's lock, since a
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
/* output.c: the `- lua:` output's settings (prefix "outputs.N.lua") are
 * this file's, read later */
void lua_output_config_mark(const char *prefix);
/* tx-policy.c: a transaction is being logged */
void lua_output_tx(OutputThread *ot, const Packet *p, Flow *f, void *tx);

#endif
