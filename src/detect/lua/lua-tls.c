/* suricata.tls: the TLS transaction of the call (Suricata 8's "TLS"
 * library): get_tx(), then get_client_version(), get_sni(), and per side
 * the leaf certificate's info, serial, validity and the chain. */
#include "config.h"

#ifdef HAVE_LUA

#include "detect/lua/lua-int.h"
#include "detect/buffers.h"
#include "app-layer/tls.h"
#include "app-layer/tls-cert.h"

static const TlsState *cur_state(lua_State *L)
{
	void *tx = lua_ctx_tx(L, ALPROTO_TLS);

	if (!tx)
		luaL_error(L, "no TLS transaction");
	return tls_tx_state(tx);
}

static int tx_get_client_version(lua_State *L)
{
	const TlsState *s = cur_state(L);
	uint16_t v = tls_hello_max_version(&s->client);
	char buf[32];

	if (!v)
		return 0;
	lua_pushstring(L, tls_version_name(v, buf, sizeof(buf)));
	return 1;
}

static int tx_get_sni(lua_State *L)
{
	LuaCtx *c;

	cur_state(L);
	c = lua_ctx(L);
	return lua_push_detect_buffer(L, BUF_TLS_SNI, c->tx, APP_DIR_TOSERVER);
}

/* version (the session's), subject, issuer, fingerprint of the leaf sent
 * toward dir; nothing when there is none */
static int push_cert_info(lua_State *L, int dir)
{
	const TlsState *s = cur_state(L);
	const TlsCertInfo *ci = tls_leaf_info(s, dir);
	char buf[32];

	if (!ci)
		return 0;
	lua_pushstring(L, tls_version_name(tls_state_version(s), buf, sizeof(buf)));
	lua_pushlstring(L, ci->subject, ci->subject_len);
	lua_pushlstring(L, ci->issuer, ci->issuer_len);
	lua_pushstring(L, ci->fingerprint);
	return 4;
}

static int push_serial(lua_State *L, int dir)
{
	const TlsCertInfo *ci = tls_leaf_info(cur_state(L), dir);

	if (!ci || !ci->serial)
		return 0;
	lua_pushstring(L, ci->serial);
	return 1;
}

static int push_validity(lua_State *L, int dir, int after)
{
	const TlsCertInfo *ci = tls_leaf_info(cur_state(L), dir);

	if (!ci)
		return 0;
	lua_pushinteger(L, after ? ci->notafter : ci->notbefore);
	return 1;
}

/* an array of { data = DER, length = n } */
static int push_chain(lua_State *L, int dir)
{
	const TlsState *s = cur_state(L);
	const uint8_t *der;
	uint32_t len;

	lua_newtable(L);
	for (unsigned i = 0; (der = tls_chain_cert(&s->certs[dir], i, &len)); i++) {
		lua_newtable(L);
		lua_pushlstring(L, (const char *)der, len);
		lua_setfield(L, -2, "data");
		lua_pushinteger(L, len);
		lua_setfield(L, -2, "length");
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	return 1;
}

/* the client's certificate went toward the server */
static int tx_client_cert_info(lua_State *L) { return push_cert_info(L, TLS_TOSERVER); }
static int tx_server_cert_info(lua_State *L) { return push_cert_info(L, TLS_TOCLIENT); }
static int tx_client_serial(lua_State *L) { return push_serial(L, TLS_TOSERVER); }
static int tx_server_serial(lua_State *L) { return push_serial(L, TLS_TOCLIENT); }
static int tx_client_not_before(lua_State *L) { return push_validity(L, TLS_TOSERVER, 0); }
static int tx_client_not_after(lua_State *L) { return push_validity(L, TLS_TOSERVER, 1); }
static int tx_server_not_before(lua_State *L) { return push_validity(L, TLS_TOCLIENT, 0); }
static int tx_server_not_after(lua_State *L) { return push_validity(L, TLS_TOCLIENT, 1); }
static int tx_client_chain(lua_State *L) { return push_chain(L, TLS_TOSERVER); }
static int tx_server_chain(lua_State *L) { return push_chain(L, TLS_TOCLIENT); }

static int tls_get_tx(lua_State *L)
{
	static const luaL_Reg methods[] = {
		{ "get_client_version", tx_get_client_version },
		{ "get_sni", tx_get_sni },
		{ "get_client_cert_info", tx_client_cert_info },
		{ "get_client_cert_chain", tx_client_chain },
		{ "get_client_cert_not_before", tx_client_not_before },
		{ "get_client_cert_not_after", tx_client_not_after },
		{ "get_client_serial", tx_client_serial },
		{ "get_server_cert_info", tx_server_cert_info },
		{ "get_server_cert_chain", tx_server_chain },
		{ "get_server_cert_not_before", tx_server_not_before },
		{ "get_server_cert_not_after", tx_server_not_after },
		{ "get_server_serial", tx_server_serial },
		{ NULL, NULL },
	};

	if (!lua_ctx_tx(L, ALPROTO_TLS))
		return 2;
	luaL_newlib(L, methods);
	return 1;
}

int luaopen_suricata_tls(lua_State *L)
{
	static const luaL_Reg lib[] = { { "get_tx", tls_get_tx }, { NULL, NULL } };

	luaL_newlib(L, lib);
	return 1;
}

#endif /* HAVE_LUA */
