/* suricata.config (Suricata 8's "Config Library"): log_path(), the
 * logging folder (-l, else default-log-dir). */
#include "config.h"

#ifdef HAVE_LUA

#include "detect/lua/lua-int.h"
#include "conf/conf.h"

static int config_log_path(lua_State *L)
{
	const char *dir = conf_get("default-log-dir");

	lua_pushstring(L, dir && dir[0] ? dir : "/var/log/suricata/");
	return 1;
}

int luaopen_suricata_config(lua_State *L)
{
	static const luaL_Reg lib[] = { { "log_path", config_log_path }, { NULL, NULL } };

	luaL_newlib(L, lib);
	return 1;
}

#endif /* HAVE_LUA */
