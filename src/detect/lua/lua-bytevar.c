/* suricata.bytevar (Suricata 8's "Bytevar" library): map(sig, name) in
 * init() checks the rule has a byte_extract / byte_math variable of that
 * name; get(name) gives an object whose :value() is the variable's value
 * in the call (nil when the rule's inspection has not set it). */
#include "config.h"

#ifdef HAVE_LUA

#include "detect/lua/lua-int.h"
#include "detect/detect-int.h"
#include "detect/engine-int.h"

static int bv_value(lua_State *L)
{
	LuaCtx *c = lua_ctx_need(L, "rule");
	int idx;

	if (!c->s || !c->dt)
		return luaL_error(L, "no rule");
	idx = sig_var_find(c->s, lua_tostring(L, lua_upvalueindex(1)));
	if (idx < 0 || idx >= DETECT_VARS_MAX)
		return 0;
	lua_pushinteger(L, (lua_Integer)c->dt->vars[idx]);
	return 1;
}

static int bv_map(lua_State *L)
{
	LuaInitRegs *r = lua_init_regs(L);
	const char *name = luaL_checkstring(L, 2);

	if (!r)
		return luaL_error(L, "bytevar.map: only in init()");
	if (!r->s || sig_var_find(r->s, name) < 0)
		return luaL_error(L, "unknown byte_extract or byte_math var: %s", name);
	lua_init_reg_add(L, r->bytevar, &r->nbytevar, name);
	return 0;
}

static int bv_get(lua_State *L)
{
	static const luaL_Reg methods[] = { { "value", bv_value }, { NULL, NULL } };

	luaL_checkstring(L, 1);
	lua_createtable(L, 0, 1);
	lua_pushvalue(L, 1);
	luaL_setfuncs(L, methods, 1);
	return 1;
}

int luaopen_suricata_bytevar(lua_State *L)
{
	static const luaL_Reg lib[] = { { "map", bv_map }, { "get", bv_get }, { NULL, NULL } };

	luaL_newlib(L, lib);
	return 1;
}

#endif /* HAVE_LUA */
