/* suricata.ssh: the SSH transaction of the call (Suricata 8's "SSH"
 * library): get_tx(), then client_proto(), server_proto(),
 * client_software(), server_software(), the ssh.proto / ssh.software
 * detection buffers of each side. */
#include "config.h"

#ifdef HAVE_LUA

#include "detect/lua/lua-int.h"
#include "detect/buffers.h"
#include "app-layer/app-layer.h"

static int push_ssh(lua_State *L, int buf, int side)
{
	void *tx = lua_ctx_tx(L, ALPROTO_SSH);

	if (!tx)
		return luaL_error(L, "no SSH transaction");
	return lua_push_detect_buffer(L, buf, tx, side);
}

static int tx_client_proto(lua_State *L) { return push_ssh(L, BUF_SSH_PROTO, APP_DIR_TOSERVER); }
static int tx_server_proto(lua_State *L) { return push_ssh(L, BUF_SSH_PROTO, APP_DIR_TOCLIENT); }

static int tx_client_software(lua_State *L)
{
	return push_ssh(L, BUF_SSH_SOFTWARE, APP_DIR_TOSERVER);
}

static int tx_server_software(lua_State *L)
{
	return push_ssh(L, BUF_SSH_SOFTWARE, APP_DIR_TOCLIENT);
}

static int ssh_get_tx(lua_State *L)
{
	static const luaL_Reg methods[] = {
		{ "client_proto", tx_client_proto },
		{ "server_proto", tx_server_proto },
		{ "client_software", tx_client_software },
		{ "server_software", tx_server_software },
		{ NULL, NULL },
	};

	if (!lua_ctx_tx(L, ALPROTO_SSH))
		return 2;
	luaL_newlib(L, methods);
	return 1;
}

int luaopen_suricata_ssh(lua_State *L)
{
	static const luaL_Reg lib[] = { { "get_tx", ssh_get_tx }, { NULL, NULL } };

	luaL_newlib(L, lib);
	return 1;
}

#endif /* HAVE_LUA */
