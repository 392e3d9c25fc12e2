/* suricata.rule (Suricata 8's "Rule" library): get_rule(), then sid(),
 * gid(), rev(), action(), msg(), class() (classtype and priority) of the
 * rule the call is for. */
#include "config.h"

#ifdef HAVE_LUA

#include "detect/lua/lua-int.h"
#include "detect/detect-parse.h"

static const Signature *cur_rule(lua_State *L)
{
	LuaCtx *c = lua_ctx_need(L, "rule");

	if (!c->s)
		luaL_error(L, "no rule");
	return c->s;
}

static int r_sid(lua_State *L)
{
	lua_pushinteger(L, cur_rule(L)->sid);
	return 1;
}

static int r_gid(lua_State *L)
{
	lua_pushinteger(L, cur_rule(L)->gid);
	return 1;
}

static int r_rev(lua_State *L)
{
	lua_pushinteger(L, cur_rule(L)->rev);
	return 1;
}

static int r_action(lua_State *L)
{
	static const char *const names[] = {
		[ACT_ALERT] = "alert",         [ACT_PASS] = "pass",
		[ACT_DROP] = "drop",           [ACT_REJECT] = "reject",
		[ACT_REJECTSRC] = "rejectsrc", [ACT_REJECTDST] = "rejectdst",
		[ACT_REJECTBOTH] = "rejectboth", [ACT_CONFIG] = "config",
	};
	const Signature *s = cur_rule(L);

	lua_pushstring(L, (unsigned)s->action <= ACT_CONFIG ? names[s->action] : "alert");
	return 1;
}

static int r_msg(lua_State *L)
{
	const Signature *s = cur_rule(L);

	if (!s->msg)
		return 0;
	lua_pushstring(L, s->msg);
	return 1;
}

static int r_class(lua_State *L)
{
	const Signature *s = cur_rule(L);

	if (s->classtype)
		lua_pushstring(L, s->classtype);
	else
		lua_pushnil(L);
	lua_pushinteger(L, s->priority);
	return 2;
}

static int rule_get(lua_State *L)
{
	static const luaL_Reg methods[] = {
		{ "sid", r_sid }, { "gid", r_gid }, { "rev", r_rev },     { "action", r_action },
		{ "msg", r_msg }, { "class", r_class }, { NULL, NULL },
	};

	cur_rule(L);
	luaL_newlib(L, methods);
	return 1;
}

int luaopen_suricata_rule(lua_State *L)
{
	static const luaL_Reg lib[] = { { "get_rule", rule_get }, { NULL, NULL } };

	luaL_newlib(L, lib);
	return 1;
}

#endif /* HAVE_LUA */
