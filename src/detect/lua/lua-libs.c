/* The registry of Suricata 8's Lua libraries (one line per library, its
 * opener in its own file) and the helpers they share. */
#include "config.h"

#ifdef HAVE_LUA

#include "detect/lua/lua-int.h"
#include "detect/buffers.h"
#include "detect/engine-int.h"

#include <string.h>

typedef struct LuaLib {
	const char *name;
	lua_CFunction open;
} LuaLib;

static const LuaLib lua_libs[] = {
	{ "suricata.packet", luaopen_suricata_packet },
	{ "suricata.flow", luaopen_suricata_flow },
	{ "suricata.http", luaopen_suricata_http },
	{ "suricata.dns", luaopen_suricata_dns },
	{ "suricata.tls", luaopen_suricata_tls },
	{ "suricata.ja3", luaopen_suricata_ja3 },
	{ "suricata.ssh", luaopen_suricata_ssh },
	{ "suricata.smtp", luaopen_suricata_smtp },
	{ "suricata.hashing", luaopen_suricata_hashing },
	/* the name Suricata's own registry gives the hashing library, beside
	 * the one 8.0's documentation uses */
	{ "suricata.hashlib", luaopen_suricata_hashing },
	{ "suricata.base64", luaopen_suricata_base64 },
	{ "suricata.flowvar", luaopen_suricata_flowvar },
	{ "suricata.flowint", luaopen_suricata_flowint },
	{ "suricata.bytevar", luaopen_suricata_bytevar },
	{ "suricata.config", luaopen_suricata_config },
	{ "suricata.log", luaopen_suricata_log },
	{ "suricata.rule", luaopen_suricata_rule },
	{ "suricata.util", luaopen_suricata_util },
	{ "suricata.dnp3", luaopen_suricata_dnp3 },
	{ "suricata.file", luaopen_suricata_file },
	{ NULL, NULL },
};

lua_CFunction lua_lib_find(const char *name)
{
	for (const LuaLib *l = lua_libs; l->name; l++)
		if (strcmp(l->name, name) == 0)
			return l->open;
	return NULL;
}

LuaCtx *lua_ctx_need(lua_State *L, const char *what)
{
	LuaCtx *c = lua_ctx(L);

	if (!c)
		luaL_error(L, "no %s outside match()", what);
	return c;
}

void *lua_ctx_tx(lua_State *L, uint16_t alproto)
{
	LuaCtx *c = lua_ctx(L);

	if (!c || !c->tx || !c->f || c->f->app_proto != alproto) {
		lua_pushnil(L);
		lua_pushstring(L, "error: no tx available");
		return NULL;
	}
	return c->tx;
}

void lua_push_bytes(lua_State *L, const uint8_t *d, uint32_t len)
{
	if (!d)
		lua_pushnil(L);
	else
		lua_pushlstring(L, (const char *)d, len);
}

int lua_push_detect_buffer(lua_State *L, int buf, void *tx, int side)
{
	const DetectBuffer *b = detect_buffer(buf);
	const uint8_t *d = NULL;
	uint32_t len = 0;

	if (!tx || !b->get || b->get(b, tx, side, 0, &d, &len) != 0)
		d = NULL;
	lua_push_bytes(L, d, len);
	return 1;
}

static const char REGS_KEY[] = "suricata:init-regs";

LuaInitRegs *lua_init_regs(lua_State *L)
{
	LuaInitRegs *r;

	lua_getfield(L, LUA_REGISTRYINDEX, REGS_KEY);
	r = lua_touserdata(L, -1);
	lua_pop(L, 1);
	return r;
}

void lua_init_regs_set(lua_State *L, LuaInitRegs *r)
{
	if (r)
		lua_pushlightuserdata(L, r);
	else
		lua_pushnil(L);
	lua_setfield(L, LUA_REGISTRYINDEX, REGS_KEY);
}

void lua_init_reg_add(lua_State *L, const char **list, int *n, const char *name)
{
	for (int i = 0; i < *n; i++)
		if (strcmp(list[i], name) == 0)
			return;
	if (*n >= LUA_VARS_MAX)
		luaL_error(L, "too many variables registered (at most %d)", LUA_VARS_MAX);
	list[(*n)++] = name;
}

#endif /* HAVE_LUA */
