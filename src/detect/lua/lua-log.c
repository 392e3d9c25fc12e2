/* suricata.log (Suricata 8's "Log" library): the engine's own log at
 * each level: error, warning, notice, info, perf, config, debug. */
#include "config.h"

#ifdef HAVE_LUA

#include "detect/lua/lua-int.h"
#include "util/log.h"

static int log_at(lua_State *L, enum log_level lvl)
{
	log_msg(lvl, "%s", luaL_checkstring(L, 1));
	return 0;
}

static int l_error(lua_State *L) { return log_at(L, LOG_LVL_ERROR); }
static int l_warning(lua_State *L) { return log_at(L, LOG_LVL_WARNING); }
static int l_notice(lua_State *L) { return log_at(L, LOG_LVL_NOTICE); }
static int l_info(lua_State *L) { return log_at(L, LOG_LVL_INFO); }
static int l_perf(lua_State *L) { return log_at(L, LOG_LVL_PERF); }
static int l_config(lua_State *L) { return log_at(L, LOG_LVL_CONFIG); }
static int l_debug(lua_State *L) { return log_at(L, LOG_LVL_DEBUG); }

int luaopen_suricata_log(lua_State *L)
{
	static const luaL_Reg lib[] = {
		{ "error", l_error }, { "warning", l_warning }, { "notice", l_notice },
		{ "info", l_info },   { "perf", l_perf },       { "config", l_config },
		{ "debug", l_debug }, { NULL, NULL },
	};

	luaL_newlib(L, lib);
	return 1;
}

#endif /* HAVE_LUA */
