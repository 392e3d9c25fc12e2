/* suricata.flowint (Suricata 8's "Flowint Library"): register(name) in
 * init() (the name gets its id with the flowint keyword's, at engine
 * build), get(name), then :value(), :set(v), :incr(), :decr() on the flow
 * of the call. The values are the flowint keyword's (uint32). */
#include "config.h"

#ifdef HAVE_LUA

#include "detect/lua/lua-int.h"
#include "detect/engine-int.h"

#include <string.h>

/* The flow state and the variable's id, or a Lua error. */
static DetectFlowState *var_state(lua_State *L, int create, int *id)
{
	LuaCtx *c = lua_ctx_need(L, "flow");
	const char *name = lua_tostring(L, lua_upvalueindex(1));
	const DetectEngine *de;
	DetectFlowState *fs;

	if (!c->f || !c->dt)
		luaL_error(L, "no flow");
	de = c->dt->de;
	*id = -1;
	for (int i = 0; i < de->nfi; i++)
		if (strcmp(de->fi_names[i], name) == 0)
			*id = i;
	if (*id < 0)
		luaL_error(L, "flowint %s is not registered", name);
	fs = detect_flow_state(de, c->f, create);
	if (fs && *id >= fs->nfi)
		return NULL;
	return fs;
}

static int fi_value(lua_State *L)
{
	int id;
	DetectFlowState *fs = var_state(L, 0, &id);

	if (!fs || !fs->ints_set[id])
		return 0;
	lua_pushinteger(L, fs->ints[id]);
	return 1;
}

static int put(lua_State *L, DetectFlowState *fs, int id, uint32_t v)
{
	if (!fs)
		return luaL_error(L, "no flow state");
	fs->ints[id] = v;
	fs->ints_set[id] = 1;
	lua_pushinteger(L, v);
	return 1;
}

static int fi_set(lua_State *L)
{
	int id;
	lua_Integer v = luaL_checkinteger(L, lua_gettop(L));
	DetectFlowState *fs = var_state(L, 1, &id);

	if (v < 0 || v > UINT32_MAX)
		return luaL_error(L, "flowint value out of range");
	put(L, fs, id, (uint32_t)v);
	return 0;
}

/* unset counts as 0 */
static int fi_incr(lua_State *L)
{
	int id;
	DetectFlowState *fs = var_state(L, 1, &id);
	uint32_t v = fs && fs->ints_set[id] ? fs->ints[id] : 0;

	return put(L, fs, id, v == UINT32_MAX ? v : v + 1);
}

/* as documented: 0 stays 0 */
static int fi_decr(lua_State *L)
{
	int id;
	DetectFlowState *fs = var_state(L, 1, &id);
	uint32_t v = fs && fs->ints_set[id] ? fs->ints[id] : 0;

	return put(L, fs, id, v ? v - 1 : 0);
}

static int fi_register(lua_State *L)
{
	LuaInitRegs *r = lua_init_regs(L);
	const char *name = luaL_checkstring(L, 1);

	if (r)
		lua_init_reg_add(L, r->flowint, &r->nflowint, name);
	return 0;
}

static int fi_get(lua_State *L)
{
	static const luaL_Reg methods[] = {
		{ "value", fi_value }, { "set", fi_set }, { "incr", fi_incr },
		{ "decr", fi_decr },   { NULL, NULL },
	};

	luaL_checkstring(L, 1);
	lua_createtable(L, 0, 4);
	lua_pushvalue(L, 1);
	luaL_setfuncs(L, methods, 1);
	return 1;
}

int luaopen_suricata_flowint(lua_State *L)
{
	static const luaL_Reg lib[] = {
		{ "register", fi_register },
		{ "get", fi_get },
		{ NULL, NULL },
	};

	luaL_newlib(L, lib);
	return 1;
}

#endif /* HAVE_LUA */
