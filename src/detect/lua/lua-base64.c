/* suricata.base64: RFC 4648 standard base64 (Suricata 8's "Base64"
 * library): encode / decode with padding, encode_nopad / decode_nopad
 * without. A decode of text that is not of its form returns nil. */
#include "config.h"

#ifdef HAVE_LUA

#include "detect/lua/lua-int.h"
#include "util/base64.h"

static const char ALPHABET[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int encode(lua_State *L, int pad)
{
	size_t len;
	const uint8_t *in = (const uint8_t *)luaL_checklstring(L, 1, &len);
	luaL_Buffer b;
	size_t i;

	luaL_buffinit(L, &b);
	for (i = 0; i + 3 <= len; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];

		luaL_addchar(&b, ALPHABET[v >> 18]);
		luaL_addchar(&b, ALPHABET[(v >> 12) & 63]);
		luaL_addchar(&b, ALPHABET[(v >> 6) & 63]);
		luaL_addchar(&b, ALPHABET[v & 63]);
	}
	if (len - i == 1) {
		luaL_addchar(&b, ALPHABET[in[i] >> 2]);
		luaL_addchar(&b, ALPHABET[(in[i] & 3) << 4]);
		if (pad)
			luaL_addstring(&b, "==");
	} else if (len - i == 2) {
		uint32_t v = (uint32_t)in[i] << 8 | in[i + 1];

		luaL_addchar(&b, ALPHABET[v >> 10]);
		luaL_addchar(&b, ALPHABET[(v >> 4) & 63]);
		luaL_addchar(&b, ALPHABET[(v << 2) & 63]);
		if (pad)
			luaL_addchar(&b, '=');
	}
	luaL_pushresult(&b);
	return 1;
}

/* Strict: with pad, a length that is a multiple of 4 and at most two '='
 * at the end; without, no '=' and no length of 1 modulo 4. The unused
 * low bits of the last symbol must be zero (as the canonical decoder). */
static int decode(lua_State *L, int pad)
{
	size_t len, n;
	const uint8_t *in = (const uint8_t *)luaL_checklstring(L, 1, &len);
	luaL_Buffer b;
	uint32_t acc = 0;
	int bits = 0;

	n = len;
	if (pad) {
		if (len % 4)
			goto bad;
		while (n > 0 && len - n < 2 && in[n - 1] == '=')
			n--;
	} else if (len % 4 == 1) {
		goto bad;
	}
	if (pad && n % 4 == 1)
		goto bad;
	luaL_buffinit(L, &b);
	for (size_t i = 0; i < n; i++) {
		int v = base64_char_value(in[i]);

		if (v < 0) {
			luaL_pushresult(&b);
			lua_pop(L, 1);
			goto bad;
		}
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			luaL_addchar(&b, (char)((acc >> bits) & 0xff));
		}
	}
	if (bits && (acc & ((1u << bits) - 1))) {
		luaL_pushresult(&b);
		lua_pop(L, 1);
		goto bad;
	}
	luaL_pushresult(&b);
	return 1;
bad:
	lua_pushnil(L);
	return 1;
}

static int b64_encode(lua_State *L) { return encode(L, 1); }
static int b64_encode_nopad(lua_State *L) { return encode(L, 0); }
static int b64_decode(lua_State *L) { return decode(L, 1); }
static int b64_decode_nopad(lua_State *L) { return decode(L, 0); }

int luaopen_suricata_base64(lua_State *L)
{
	static const luaL_Reg lib[] = {
		{ "encode", b64_encode },
		{ "encode_nopad", b64_encode_nopad },
		{ "decode", b64_decode },
		{ "decode_nopad", b64_decode_nopad },
		{ NULL, NULL },
	};

	luaL_newlib(L, lib);
	return 1;
}

#endif /* HAVE_LUA */
