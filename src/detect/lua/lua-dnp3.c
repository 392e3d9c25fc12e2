/* suricata.dnp3: the DNP3 transaction of the call as one table (Suricata
 * 8's "DNP3" library, for rules only): get_tx() returns
 *   { tx_num, is_request, request | response = {
 *       done, complete, link_header = { len, control, dst, src, crc },
 *       transport_header, application_header = { control, function_code },
 *       indicators (responses: IIN1 << 8 | IIN2),
 *       objects = { { group, variation, points = { { index, <fields> } } } } } }
 * As in 8.0 a transaction is one message, so it carries a request or a
 * response; tx_num counts from 1. A point's fields are the ones eve
 * writes (dnp3-objs.c names them as Suricata does). */
#include "config.h"

#ifdef HAVE_LUA

#include "detect/lua/lua-int.h"
#include "app-layer/app-layer.h"
#include "app-layer/dnp3.h"

static void set_int(lua_State *L, const char *k, lua_Integer v)
{
	lua_pushinteger(L, v);
	lua_setfield(L, -2, k);
}

static void set_bool(lua_State *L, const char *k, int v)
{
	lua_pushboolean(L, v);
	lua_setfield(L, -2, k);
}

/* dnp3_point_fields' callback: one field into the point's table */
static void push_field(void *arg, const char *name, const Dnp3Value *v)
{
	lua_State *L = arg;

	switch (v->kind) {
	case 0:
		lua_pushinteger(L, (lua_Integer)v->u);
		break;
	case 1:
		lua_pushinteger(L, (lua_Integer)v->i);
		break;
	case 2:
		lua_pushnumber(L, v->d);
		break;
	default:
		lua_pushlstring(L, (const char *)v->p, v->n);
	}
	lua_setfield(L, -2, name);
}

static void push_objects(lua_State *L, const Dnp3Msg *m)
{
	lua_newtable(L);
	for (uint32_t i = 0; i < m->nobjs; i++) {
		const Dnp3Object *o = &m->objs[i];

		lua_newtable(L);
		set_int(L, "group", o->group);
		set_int(L, "variation", o->variation);
		lua_newtable(L);
		for (uint32_t k = 0; k < o->npoints; k++) {
			const Dnp3Point *pt = &m->points[o->first_point + k];

			lua_newtable(L);
			set_int(L, "index", pt->index);
			dnp3_point_fields(m, o, pt, push_field, L);
			lua_rawseti(L, -2, (lua_Integer)k + 1);
		}
		lua_setfield(L, -2, "points");
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	lua_setfield(L, -2, "objects");
}

static void push_message(lua_State *L, const Dnp3Tx *tx)
{
	const Dnp3Msg *m = &tx->m;

	lua_newtable(L);
	/* a transaction is made when its message is whole */
	set_bool(L, "done", 1);
	set_bool(L, "complete", m->complete);
	lua_newtable(L);
	set_int(L, "len", m->link_len);
	set_int(L, "control", m->link_ctrl);
	set_int(L, "dst", m->dst);
	set_int(L, "src", m->src);
	set_int(L, "crc", m->link_crc);
	lua_setfield(L, -2, "link_header");
	set_int(L, "transport_header", m->th);
	lua_newtable(L);
	set_int(L, "control", m->app_ctrl);
	set_int(L, "function_code", m->func);
	lua_setfield(L, -2, "application_header");
	if (!tx->is_request)
		set_int(L, "indicators", m->iin);
	push_objects(L, m);
}

static int dnp3_get_tx(lua_State *L)
{
	const Dnp3Tx *tx = lua_ctx_tx(L, ALPROTO_DNP3);

	if (!tx)
		return 2;
	lua_newtable(L);
	set_int(L, "tx_num", (lua_Integer)tx->base.id + 1);
	set_bool(L, "is_request", tx->is_request);
	push_message(L, tx);
	lua_setfield(L, -2, tx->is_request ? "request" : "response");
	return 1;
}

int luaopen_suricata_dnp3(lua_State *L)
{
	static const luaL_Reg lib[] = { { "get_tx", dnp3_get_tx }, { NULL, NULL } };

	luaL_newlib(L, lib);
	return 1;
}

#endif /* HAVE_LUA */
