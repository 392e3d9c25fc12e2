/* suricata.ja3: JA3/JA3S of the call's TLS or QUIC transaction (Suricata
 * 8's "JA3" library): enable_ja3() (in init), get_tx(), then
 * ja3_get_hash(), ja3_get_string(), ja3s_get_hash(), ja3s_get_string().
 * The values come from the detection buffers (ja3.hash, ...), so they
 * are the ones the rule keywords see. */
#include "config.h"

#ifdef HAVE_LUA

#include "detect/lua/lua-int.h"
#include "detect/buffers.h"
#include "app-layer/app-layer.h"
#include "app-layer/tls.h"

/* the buffer of the flow's protocol: TLS's, or QUIC's of the same name */
static int push_ja(lua_State *L, int tls_buf, int quic_buf, int side)
{
	LuaCtx *c = lua_ctx_need(L, "transaction");

	if (!c->tx || !c->f || (c->f->app_proto != ALPROTO_TLS && c->f->app_proto != ALPROTO_QUIC))
		return luaL_error(L, "no TLS or QUIC transaction");
	return lua_push_detect_buffer(L, c->f->app_proto == ALPROTO_TLS ? tls_buf : quic_buf, c->tx,
				      side);
}

static int ja3_hash(lua_State *L)
{
	return push_ja(L, BUF_JA3_HASH, BUF_QUIC_JA3_HASH, APP_DIR_TOSERVER);
}

static int ja3_string(lua_State *L)
{
	return push_ja(L, BUF_JA3_STRING, BUF_QUIC_JA3_STRING, APP_DIR_TOSERVER);
}

static int ja3s_hash(lua_State *L)
{
	return push_ja(L, BUF_JA3S_HASH, BUF_QUIC_JA3S_HASH, APP_DIR_TOCLIENT);
}

static int ja3s_string(lua_State *L)
{
	return push_ja(L, BUF_JA3S_STRING, BUF_QUIC_JA3S_STRING, APP_DIR_TOCLIENT);
}

static int ja3_get_tx(lua_State *L)
{
	static const luaL_Reg methods[] = {
		{ "ja3_get_hash", ja3_hash },
		{ "ja3_get_string", ja3_string },
		{ "ja3s_get_hash", ja3s_hash },
		{ "ja3s_get_string", ja3s_string },
		{ NULL, NULL },
	};
	LuaCtx *c = lua_ctx(L);

	if (!c || !c->tx || !c->f ||
	    (c->f->app_proto != ALPROTO_TLS && c->f->app_proto != ALPROTO_QUIC)) {
		lua_pushnil(L);
		lua_pushstring(L, "error: no tx available");
		return 2;
	}
	luaL_newlib(L, methods);
	return 1;
}

/* as the ja3 rule keywords do: the parser computes JA3 from now on,
 * unless the configuration turned it off */
static int ja3_enable(lua_State *L)
{
	(void)L;
	tls_ja_request(1, 0);
	return 0;
}

int luaopen_suricata_ja3(lua_State *L)
{
	static const luaL_Reg lib[] = {
		{ "get_tx", ja3_get_tx },
		{ "enable_ja3", ja3_enable },
		{ NULL, NULL },
	};

	luaL_newlib(L, lib);
	return 1;
}

#endif /* HAVE_LUA */
