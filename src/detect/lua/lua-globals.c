/* The global functions Suricata 8.0 still gives an output script beside
 * its libraries (7.0's names, kept by 8.0's output): SCLogPath(), the
 * log levels SCLogDebug / SCLogInfo / SCLogNotice / SCLogWarning /
 * SCLogError, SCThreadInfo() and, for a streaming script,
 * SCStreamingBuffer(). Rule scripts do not get them: their sandbox has
 * the libraries only. */
#define _GNU_SOURCE
#include "config.h"

#ifdef HAVE_LUA

#include "detect/lua/lua-int.h"
#include "conf/conf.h"
#include "util/log.h"

#include <pthread.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* nil and a message, 8.0's answer to a call it cannot serve */
static int fail(lua_State *L, const char *msg)
{
	lua_pushnil(L);
	lua_pushstring(L, msg);
	return 2;
}

static int g_log_path(lua_State *L)
{
	const char *dir = conf_get("default-log-dir");

	lua_pushstring(L, dir && dir[0] ? dir : "/var/log/suricata/");
	return 1;
}

/* The message: a non-empty string, else nil and a message as 8.0. */
static int g_log_at(lua_State *L, enum log_level lvl)
{
	const char *msg = lua_isstring(L, 1) ? lua_tostring(L, 1) : NULL;

	if (!msg || !*msg)
		return fail(L, "1st argument missing, empty or wrong type");
	log_msg(lvl, "%s", msg);
	return 0;
}

static int g_debug(lua_State *L) { return g_log_at(L, LOG_LVL_DEBUG); }
static int g_info(lua_State *L) { return g_log_at(L, LOG_LVL_INFO); }
static int g_notice(lua_State *L) { return g_log_at(L, LOG_LVL_NOTICE); }
static int g_warning(lua_State *L) { return g_log_at(L, LOG_LVL_WARNING); }
static int g_error(lua_State *L) { return g_log_at(L, LOG_LVL_ERROR); }

/* thread id, thread name, and the name of its group: 8.0's three values */
static int g_thread_info(lua_State *L)
{
	char name[16] = "";

	pthread_getname_np(pthread_self(), name, sizeof(name));
	lua_pushinteger(L, (lua_Integer)syscall(SYS_gettid));
	lua_pushstring(L, name);
	lua_pushstring(L, name);
	return 3;
}

/* a streaming script's chunk: data, open, close, toserver, toclient */
static int g_streaming_buffer(lua_State *L)
{
	const LuaCtx *c = lua_ctx(L);

	/* a direction's closing call has no data: an empty string */
	if (!c || !(c->stream_flags & (LUA_STREAM_TOSERVER | LUA_STREAM_TOCLIENT)))
		return fail(L, "internal error: no buffer");
	lua_pushlstring(L, c->stream ? (const char *)c->stream : "", c->stream ? c->stream_len : 0);
	lua_pushboolean(L, (c->stream_flags & LUA_STREAM_OPEN) != 0);
	lua_pushboolean(L, (c->stream_flags & LUA_STREAM_CLOSE) != 0);
	lua_pushboolean(L, (c->stream_flags & LUA_STREAM_TOSERVER) != 0);
	lua_pushboolean(L, (c->stream_flags & LUA_STREAM_TOCLIENT) != 0);
	return 5;
}

void lua_output_globals_open(lua_State *L)
{
	static const luaL_Reg globals[] = {
		{ "SCLogPath", g_log_path },
		{ "SCLogDebug", g_debug },
		{ "SCLogInfo", g_info },
		{ "SCLogNotice", g_notice },
		{ "SCLogWarning", g_warning },
		{ "SCLogError", g_error },
		{ "SCThreadInfo", g_thread_info },
		{ "SCStreamingBuffer", g_streaming_buffer },
		{ NULL, NULL },
	};

	lua_pushglobaltable(L);
	luaL_setfuncs(L, globals, 0);
	lua_pop(L, 1);
}

#endif /* HAVE_LUA */
