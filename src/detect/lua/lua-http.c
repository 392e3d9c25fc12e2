/* suricata.http: the HTTP/1 transaction of the call (Suricata 8's "HTTP"
 * library): get_tx(), then its methods. Each method reads the transaction
 * of the call it is made in, so a tx object kept in a global past its
 * call reads nothing stale: it raises an error instead. */
#include "config.h"

#ifdef HAVE_LUA

#include "detect/lua/lua-int.h"
#include "app-layer/http.h"

#include <string.h>
#include <strings.h>

static HttpTx *cur_tx(lua_State *L)
{
	HttpTx *tx = lua_ctx_tx(L, ALPROTO_HTTP1);

	if (!tx)
		luaL_error(L, "no HTTP transaction");
	return tx;
}

static int push_buf(lua_State *L, int buf, int dir)
{
	const uint8_t *d;
	uint32_t len;

	if (http_tx_buffer_dir(cur_tx(L), buf, dir, &d, &len) != 0)
		d = NULL;
	lua_push_bytes(L, d, len);
	return 1;
}

/* a header's value by name (case-insensitive), or nil */
static int push_header(lua_State *L, int dir)
{
	const char *name = luaL_checkstring(L, 2);
	HttpTx *tx = cur_tx(L);
	size_t n = http_tx_header_count(tx, dir), nl = strlen(name);
	HttpBytes k, v;

	for (size_t i = 0; i < n; i++) {
		if (http_tx_header_at(tx, dir, i, &k, &v) != 0 || k.len != nl ||
		    strncasecmp((const char *)k.p, name, nl) != 0)
			continue;
		lua_push_bytes(L, v.p, (uint32_t)v.len);
		return 1;
	}
	lua_pushnil(L);
	return 1;
}

/* every header as table[name] = value */
static int push_headers(lua_State *L, int dir)
{
	HttpTx *tx = cur_tx(L);
	size_t n = http_tx_header_count(tx, dir);
	HttpBytes k, v;

	lua_newtable(L);
	for (size_t i = 0; i < n; i++) {
		if (http_tx_header_at(tx, dir, i, &k, &v) != 0)
			continue;
		lua_pushlstring(L, (const char *)k.p, k.len);
		lua_pushlstring(L, (const char *)v.p, v.len);
		lua_settable(L, -3);
	}
	return 1;
}

/* As Suricata: a table of the body's chunks, the offset of the first
 * byte and of the end; nil when there is no body yet. */
static int push_body(lua_State *L, int dir)
{
	const HttpBodyPiece *pieces;
	const uint8_t *d = NULL;
	uint32_t len = 0;

	http_tx_body_raw(cur_tx(L), dir, &d, &len, &pieces);
	if (!d || !len) {
		lua_pushnil(L);
		return 1;
	}
	lua_newtable(L);
	lua_pushlstring(L, (const char *)d, len);
	lua_rawseti(L, -2, 1);
	lua_pushinteger(L, 0);
	lua_pushinteger(L, len);
	return 3;
}

static int tx_request_header(lua_State *L) { return push_header(L, APP_DIR_TOSERVER); }
static int tx_response_header(lua_State *L) { return push_header(L, APP_DIR_TOCLIENT); }
static int tx_request_headers(lua_State *L) { return push_headers(L, APP_DIR_TOSERVER); }
static int tx_response_headers(lua_State *L) { return push_headers(L, APP_DIR_TOCLIENT); }
static int tx_request_body(lua_State *L) { return push_body(L, APP_DIR_TOSERVER); }
static int tx_response_body(lua_State *L) { return push_body(L, APP_DIR_TOCLIENT); }

static int tx_request_line(lua_State *L)
{
	return push_buf(L, HTTP_BUF_REQUEST_LINE, APP_DIR_TOSERVER);
}

static int tx_response_line(lua_State *L)
{
	return push_buf(L, HTTP_BUF_RESPONSE_LINE, APP_DIR_TOCLIENT);
}

static int tx_request_headers_raw(lua_State *L)
{
	return push_buf(L, HTTP_BUF_RAW_HEADER, APP_DIR_TOSERVER);
}

static int tx_response_headers_raw(lua_State *L)
{
	return push_buf(L, HTTP_BUF_RAW_HEADER, APP_DIR_TOCLIENT);
}

static int tx_request_uri_raw(lua_State *L)
{
	return push_buf(L, HTTP_BUF_RAW_URI, APP_DIR_TOSERVER);
}

static int tx_request_uri_normalized(lua_State *L)
{
	return push_buf(L, HTTP_BUF_URI, APP_DIR_TOSERVER);
}

static int tx_request_host(lua_State *L)
{
	return push_buf(L, HTTP_BUF_HOST, APP_DIR_TOSERVER);
}

static int http_get_tx(lua_State *L)
{
	static const luaL_Reg methods[] = {
		{ "request_header", tx_request_header },
		{ "response_header", tx_response_header },
		{ "request_line", tx_request_line },
		{ "response_line", tx_response_line },
		{ "request_headers_raw", tx_request_headers_raw },
		{ "response_headers_raw", tx_response_headers_raw },
		{ "request_uri_raw", tx_request_uri_raw },
		/* the name 8.0's own output example scripts call it by */
		{ "request_raw_uri", tx_request_uri_raw },
		{ "request_uri_normalized", tx_request_uri_normalized },
		{ "request_headers", tx_request_headers },
		{ "response_headers", tx_response_headers },
		{ "request_body", tx_request_body },
		{ "response_body", tx_response_body },
		{ "request_host", tx_request_host },
		{ NULL, NULL },
	};

	if (!lua_ctx_tx(L, ALPROTO_HTTP1))
		return 2;
	luaL_newlib(L, methods);
	return 1;
}

int luaopen_suricata_http(lua_State *L)
{
	static const luaL_Reg lib[] = { { "get_tx", http_get_tx }, { NULL, NULL } };

	luaL_newlib(L, lib);
	return 1;
}

#endif /* HAVE_LUA */
