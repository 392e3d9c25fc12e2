/* suricata.flowvar (Suricata 8's "Flowvar" library): register(name) in
 * init(), get(name) (in thread_init() or later), then :value() and
 * :set(value, len) on the flow of the call. The variables are the ones
 * pcre captures and the flowvar keyword use (var-kw.c). */
#include "config.h"

#ifdef HAVE_LUA

#include "detect/lua/lua-int.h"
#include "detect/engine-int.h"

#include <string.h>

/* The name the object was made for: its upvalue 1. */
static const char *var_name(lua_State *L)
{
	return lua_tostring(L, lua_upvalueindex(1));
}

static Flow *cur_flow(lua_State *L)
{
	LuaCtx *c = lua_ctx_need(L, "flow");

	if (!c->f || !c->dt)
		luaL_error(L, "no flow");
	return c->f;
}

static int fv_value(lua_State *L)
{
	const uint8_t *v;
	uint16_t len;

	if (detect_flowvar_value(cur_flow(L), var_name(L), &v, &len) != 0)
		return 0;
	lua_pushlstring(L, (const char *)v, len);
	return 1;
}

/* set(value, len): len bytes of value (at most its length) */
static int fv_set(lua_State *L)
{
	Flow *f = cur_flow(L);
	int base = lua_istable(L, 1) ? 2 : 1; /* fv:set(...) or fv.set(...) */
	size_t slen;
	const char *v = luaL_checklstring(L, base, &slen);
	lua_Integer n = luaL_optinteger(L, base + 1, (lua_Integer)slen);

	if (n < 0 || (size_t)n > slen || n > UINT16_MAX)
		return luaL_error(L, "flowvar set: bad length");
	detect_flowvar_put(lua_ctx(L)->dt->de, f, var_name(L), (const uint8_t *)v, (uint16_t)n);
	return 0;
}

static int fv_register(lua_State *L)
{
	LuaInitRegs *r = lua_init_regs(L);
	const char *name = luaL_checkstring(L, 1);

	if (r)
		lua_init_reg_add(L, r->flowvar, &r->nflowvar, name);
	return 0;
}

static int fv_get(lua_State *L)
{
	static const luaL_Reg methods[] = { { "value", fv_value }, { "set", fv_set }, { NULL, NULL } };

	luaL_checkstring(L, 1);
	lua_createtable(L, 0, 2);
	lua_pushvalue(L, 1);
	luaL_setfuncs(L, methods, 1);
	return 1;
}

int luaopen_suricata_flowvar(lua_State *L)
{
	static const luaL_Reg lib[] = {
		{ "register", fv_register },
		{ "get", fv_get },
		{ NULL, NULL },
	};

	luaL_newlib(L, lib);
	return 1;
}

#endif /* HAVE_LUA */
