/* The sandbox a rule's script (lua keyword, luaxform) runs in, as Suricata
 * 8's: the base, table, string, math and utf8 libraries, of which the base
 * library keeps only the functions 8.0 allows (the others, pcall and load
 * among them, are replaced by one that fails the call, "Blocked Lua function
 * called: pcall", counted apart), require() limited to Suricata's own
 * libraries, a memory cap on the state's allocator
 * (security.lua.max-bytes) and an instruction cap per call
 * (security.lua.max-instructions); allow-restricted-functions opens every
 * standard library instead. */
#include "config.h"

#ifdef HAVE_LUA
#include "detect/lua/lua-int.h"

#include <lualib.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf/conf.h"
#include "util/log.h"

#define LUA_SCRIPT_MAX (1u << 20)      /* a script: at most 1 MB */

/* lua_Alloc with the cap: a growth past it fails (Lua raises "not enough
 * memory" in the script) and is noted for the counters. */
static void *limited_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	LuaMem *m = ud;
	size_t old = ptr ? osize : 0;
	void *n;

	if (nsize == 0) {
		free(ptr);
		m->used -= old;
		return NULL;
	}
	if (m->max && nsize > old && m->used + (nsize - old) > m->max) {
		m->hit = 1;
		return NULL;
	}
	n = realloc(ptr, nsize);
	if (!n)
		return NULL;
	m->used = m->used - old + nsize;
	return n;
}

static LuaMem *sandbox_mem(lua_State *L)
{
	void *ud = NULL;

	lua_getallocf(L, &ud);
	return ud;
}

/* The error is raised without a position: 8.0's text is the reason alone
 * ("Lua script failed to run successfully: Instruction limit exceeded"). */
static void instr_hook(lua_State *L, lua_Debug *ar)
{
	(void)ar;
	sandbox_mem(L)->instr = 1;
	lua_pushliteral(L, LUA_INSTR_MSG);
	lua_error(L);
}

/* In a blocked function's place; its name is the closure's upvalue. */
static int blocked_function(lua_State *L)
{
	sandbox_mem(L)->blocked = 1;
	lua_pushfstring(L, "%s: %s", LUA_BLOCKED_MSG, lua_tostring(L, lua_upvalueindex(1)));
	return lua_error(L);
}

/* The base library's functions a sandboxed script may call, as 8.0 allows
 * them: what reads or builds values. Code loading (load, dofile, loadfile),
 * the collector, metatables and protected calls (pcall, xpcall: they would
 * catch the sandbox's own errors) are blocked. The table, string, math and
 * utf8 libraries are allowed whole. */
static const char *const base_allowed[] = {
	"assert", "error", "ipairs", "next", "pairs", "print", "rawequal", "rawget",
	"rawlen", "rawset", "select", "tonumber", "tostring", "type", "warn", NULL,
};

static int base_allows(const char *name)
{
	for (const char *const *a = base_allowed; *a; a++)
		if (strcmp(*a, name) == 0)
			return 1;
	return 0;
}

/* Replaces every function of the global table that base_allows() does not
 * name with a blocked_function closure of its name. */
static void block_base_functions(lua_State *L)
{
	lua_pushglobaltable(L);
	lua_pushnil(L);
	while (lua_next(L, -2)) {
		if (lua_type(L, -2) == LUA_TSTRING && lua_isfunction(L, -1) &&
		    !base_allows(lua_tostring(L, -2))) {
			lua_pushvalue(L, -2);          /* key, for lua_settable */
			lua_pushvalue(L, -1);          /* name, the upvalue */
			lua_pushcclosure(L, blocked_function, 1);
			/* replacing an existing key's value keeps lua_next valid */
			lua_settable(L, -5);
		}
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
}

void lua_sandbox_reset(LuaMem *mem)
{
	mem->hit = 0;
	mem->instr = 0;
	mem->blocked = 0;
}

/* require(): Suricata's libraries; any other name only with
 * allow-restricted-functions (package's require). Loaded libraries are
 * kept in the registry's _LOADED, as Lua's require does. */
static int sandbox_require(lua_State *L)
{
	const char *name = luaL_checkstring(L, 1);
	lua_CFunction open = lua_lib_find(name);

	if (open) {
		luaL_requiref(L, name, open, 0);
		return 1;
	}
	lua_getfield(L, LUA_REGISTRYINDEX, "suricata:require");
	if (lua_isfunction(L, -1)) {
		lua_pushvalue(L, 1);
		lua_call(L, 1, 1);
		return 1;
	}
	return luaL_error(L, "module '%s' is not available in the Lua sandbox", name);
}

lua_State *lua_sandbox_new(LuaMem *mem, uint64_t max_bytes, int restricted)
{
	static const luaL_Reg safe[] = {
		{ LUA_GNAME, luaopen_base }, { LUA_TABLIBNAME, luaopen_table },
		{ LUA_STRLIBNAME, luaopen_string }, { LUA_MATHLIBNAME, luaopen_math },
		{ LUA_UTF8LIBNAME, luaopen_utf8 }, { NULL, NULL },
	};
	lua_State *L;

	mem->used = 0;
	lua_sandbox_reset(mem);
	mem->max = (size_t)max_bytes;
	if (!(L = lua_newstate(limited_alloc, mem)))
		return NULL;
	lua_ctx_set(L, NULL);
	if (restricted) {
		luaL_openlibs(L);
		lua_getglobal(L, "require");
		lua_setfield(L, LUA_REGISTRYINDEX, "suricata:require");
	} else {
		for (const luaL_Reg *l = safe; l->name; l++) {
			luaL_requiref(L, l->name, l->func, 1);
			lua_pop(L, 1);
		}
		block_base_functions(L);
	}
	lua_pushcfunction(L, sandbox_require);
	lua_setglobal(L, "require");
	return L;
}

void lua_sandbox_limit(lua_State *L, uint64_t max_instr)
{
	if (max_instr)
		lua_sethook(L, instr_hook, LUA_MASKCOUNT, (int)max_instr);
}

/* The script: an absolute path as is, else under default-rule-path, else
 * from the working folder (Suricata: "appended to your default rules
 * location"). */
int lua_script_load(const char *name, char **code, size_t *code_len, char **spath, char *err,
		    size_t errlen)
{
	const char *dir = conf_get("default-rule-path");
	char path[4096];
	FILE *f = NULL;
	long n;

	if (name[0] != '/' && dir && dir[0]) {
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		f = fopen(path, "rb");
	}
	if (!f) {
		snprintf(path, sizeof(path), "%s", name);
		f = fopen(path, "rb");
	}
	if (!f) {
		int e = errno;

		/* 8.0's line for a script it cannot read, Lua's own message
		 * after it; the caller adds the rule's or output's line */
		if (name[0] != '/' && dir && dir[0])
			snprintf(path, sizeof(path), "%s/%s", dir, name);
		log_error("couldn't load file: cannot open %s: %s", path, strerror(e));
		snprintf(err, errlen, "cannot open lua script %.300s: %s", name, strerror(e));
		return -1;
	}
	if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || n > (long)LUA_SCRIPT_MAX ||
	    fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		snprintf(err, errlen, "lua script %.300s: not a regular file of at most %u bytes", path,
			 LUA_SCRIPT_MAX);
		return -1;
	}
	*code = malloc((size_t)n + 1);
	*spath = strdup(path);
	if (!*code || !*spath || fread(*code, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		snprintf(err, errlen, "cannot read lua script %.300s", path);
		return -1;
	}
	fclose(f);
	(*code)[n] = 0;
	*code_len = (size_t)n;
	return 0;
}

#endif /* HAVE_LUA */
