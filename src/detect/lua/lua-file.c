/* suricata.file: the file of an output script's call (Suricata 8's "File"
 * library; 8.0 has it for output scripts with needs type = "file" only,
 * not for rules): get_file(), then file_id(), tx_id(), name(), size(),
 * magic(), md5(), sha1(), sha256() (lowercase hex, nil when not
 * computed), get_state() ("CLOSED", "TRUNCATED", "ERROR", "OPENED",
 * "NONE", "UNKNOWN") and is_stored(). Like the other libraries' objects,
 * a file object reads the file of the call it is used in. */
#include "config.h"

#ifdef HAVE_LUA

#include "detect/lua/lua-int.h"
#include "app-layer/files.h"

static File *cur_file(lua_State *L)
{
	LuaCtx *c = lua_ctx(L);

	if (!c || !c->file)
		luaL_error(L, "no file");
	return c->file;
}

static int file_id(lua_State *L)
{
	lua_pushinteger(L, (lua_Integer)file_track_id(cur_file(L)));
	return 1;
}

static int file_txid(lua_State *L)
{
	lua_pushinteger(L, (lua_Integer)file_tx_id(cur_file(L)));
	return 1;
}

static int file_name_(lua_State *L)
{
	uint32_t len = 0;
	const uint8_t *n = file_name(cur_file(L), &len);

	lua_push_bytes(L, n, len);
	return 1;
}

static int file_size_(lua_State *L)
{
	lua_pushinteger(L, (lua_Integer)file_size(cur_file(L)));
	return 1;
}

static int file_magic_(lua_State *L)
{
	const char *m = file_magic(cur_file(L));

	if (m)
		lua_pushstring(L, m);
	else
		lua_pushnil(L);
	return 1;
}

static int push_hash(lua_State *L, int which)
{
	static const char x[] = "0123456789abcdef";
	uint32_t len = 0;
	const uint8_t *h = file_hash(cur_file(L), which, &len);
	char hex[65];

	if (!h || len > 32) {
		lua_pushnil(L);
		return 1;
	}
	for (uint32_t i = 0; i < len; i++) {
		hex[2 * i] = x[h[i] >> 4];
		hex[2 * i + 1] = x[h[i] & 15];
	}
	lua_pushlstring(L, hex, 2 * len);
	return 1;
}

static int file_md5(lua_State *L) { return push_hash(L, FILE_HASH_MD5); }
static int file_sha1(lua_State *L) { return push_hash(L, FILE_HASH_SHA1); }
static int file_sha256(lua_State *L) { return push_hash(L, FILE_HASH_SHA256); }

/* 8.0's names, which are not eve's ("OPENED", not "OPEN") */
static int file_get_state(lua_State *L)
{
	switch (file_state(cur_file(L))) {
	case FILE_STATE_NONE: lua_pushliteral(L, "NONE"); break;
	case FILE_STATE_OPEN: lua_pushliteral(L, "OPENED"); break;
	case FILE_STATE_CLOSED: lua_pushliteral(L, "CLOSED"); break;
	case FILE_STATE_TRUNCATED: lua_pushliteral(L, "TRUNCATED"); break;
	case FILE_STATE_ERROR: lua_pushliteral(L, "ERROR"); break;
	default: lua_pushliteral(L, "UNKNOWN");
	}
	return 1;
}

static int file_is_stored_(lua_State *L)
{
	lua_pushboolean(L, file_is_stored(cur_file(L)));
	return 1;
}

static int get_file(lua_State *L)
{
	static const luaL_Reg methods[] = {
		{ "file_id", file_id },
		{ "tx_id", file_txid },
		{ "name", file_name_ },
		{ "size", file_size_ },
		{ "magic", file_magic_ },
		{ "md5", file_md5 },
		{ "sha1", file_sha1 },
		{ "sha256", file_sha256 },
		{ "get_state", file_get_state },
		{ "is_stored", file_is_stored_ },
		{ NULL, NULL },
	};
	LuaCtx *c = lua_ctx(L);

	if (!c || !c->file) {
		lua_pushnil(L);
		lua_pushliteral(L, "error: no file found");
		return 2;
	}
	luaL_newlib(L, methods);
	return 1;
}

int luaopen_suricata_file(lua_State *L)
{
	static const luaL_Reg lib[] = { { "get_file", get_file }, { NULL, NULL } };

	luaL_newlib(L, lib);
	return 1;
}

#endif /* HAVE_LUA */
