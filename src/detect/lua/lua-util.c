/* suricata.util (Suricata 8's "Util" library): thread_info(), the id
 * and name of the thread running the script. */
#define _GNU_SOURCE
#include "config.h"

#ifdef HAVE_LUA

#include "detect/lua/lua-int.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

static int util_thread_info(lua_State *L)
{
	char name[16] = "";

	pthread_getname_np(pthread_self(), name, sizeof(name));
	lua_createtable(L, 0, 2);
	lua_pushinteger(L, (lua_Integer)syscall(SYS_gettid));
	lua_setfield(L, -2, "id");
	lua_pushstring(L, name);
	lua_setfield(L, -2, "name");
	return 1;
}

int luaopen_suricata_util(lua_State *L)
{
	static const luaL_Reg lib[] = { { "thread_info", util_thread_info }, { NULL, NULL } };

	luaL_newlib(L, lib);
	return 1;
}

#endif /* HAVE_LUA */
