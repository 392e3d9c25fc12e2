/* suricata.flow: the flow of the call's packet (Suricata 8's "Flow"
 * library): get(), then :timestamps(), :timestring_legacy(),
 * :timestring_iso8601(), :tuple(), :app_layer_proto(), :has_alerts(),
 * :id(), :stats(). */
#include "config.h"

#ifdef HAVE_LUA

#include "detect/lua/lua-int.h"
#include "app-layer/app-layer.h"
#include "flow/flow.h"

static Flow *cur_flow(lua_State *L)
{
	LuaCtx *c = lua_ctx_need(L, "flow");

	if (!c->f)
		luaL_error(L, "no flow");
	return c->f;
}

/* start seconds, last seconds, start microseconds, last microseconds: the
 * order Suricata 8.0 returns them in */
static int flow_timestamps(lua_State *L)
{
	Flow *f = cur_flow(L);

	lua_pushinteger(L, f->start.tv_sec);
	lua_pushinteger(L, f->last.tv_sec);
	lua_pushinteger(L, f->start.tv_usec);
	lua_pushinteger(L, f->last.tv_usec);
	return 4;
}

static int flow_timestring_legacy(lua_State *L)
{
	lua_push_timestring(L, &cur_flow(L)->start, 0);
	return 1;
}

static int flow_timestring_iso8601(lua_State *L)
{
	lua_push_timestring(L, &cur_flow(L)->start, 1);
	return 1;
}

/* the flow's key: the side that opened it is the source */
static int flow_tuple(lua_State *L)
{
	Flow *f = cur_flow(L);

	lua_pushinteger(L, f->ip_version);
	lua_push_addr(L, f->ip_version, &f->src.a);
	lua_push_addr(L, f->ip_version, &f->dst.a);
	lua_pushinteger(L, f->proto);
	lua_pushinteger(L, f->sp);
	lua_pushinteger(L, f->dp);
	return 6;
}

static int flow_app_layer_proto(lua_State *L)
{
	Flow *f = cur_flow(L);

	lua_pushstring(L, app_proto_name(f->app_proto));
	lua_pushstring(L, app_proto_name(f->app_proto_ts));
	lua_pushstring(L, app_proto_name(f->app_proto_tc));
	lua_pushstring(L, app_proto_name(f->app_proto_orig));
	lua_pushstring(L, app_proto_name(f->app_proto_expect));
	return 5;
}

static int flow_has_alerts(lua_State *L)
{
	lua_pushboolean(L, cur_flow(L)->alerted != 0);
	return 1;
}

static int flow_id(lua_State *L)
{
	/* a number, as Suricata's (flow ids are below 2^53: exact) */
	lua_pushnumber(L, (lua_Number)cur_flow(L)->flow_id);
	return 1;
}

static int flow_stats(lua_State *L)
{
	Flow *f = cur_flow(L);

	lua_pushinteger(L, (lua_Integer)f->pkts_toserver);
	lua_pushinteger(L, (lua_Integer)f->bytes_toserver);
	lua_pushinteger(L, (lua_Integer)f->pkts_toclient);
	lua_pushinteger(L, (lua_Integer)f->bytes_toclient);
	return 4;
}

static int flow_get(lua_State *L)
{
	static const luaL_Reg methods[] = {
		{ "timestamps", flow_timestamps },
		{ "timestring_legacy", flow_timestring_legacy },
		{ "timestring_iso8601", flow_timestring_iso8601 },
		{ "tuple", flow_tuple },
		{ "app_layer_proto", flow_app_layer_proto },
		{ "has_alerts", flow_has_alerts },
		{ "id", flow_id },
		{ "stats", flow_stats },
		{ NULL, NULL },
	};

	cur_flow(L);
	luaL_newlib(L, methods);
	return 1;
}

int luaopen_suricata_flow(lua_State *L)
{
	static const luaL_Reg lib[] = { { "get", flow_get }, { NULL, NULL } };

	luaL_newlib(L, lib);
	return 1;
}

#endif /* HAVE_LUA */
