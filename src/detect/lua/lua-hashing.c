/* suricata.hashing: MD5, SHA-1 and SHA-256 (Suricata 8's "Hashing"
 * library): <alg>_digest(s), <alg>_hex_digest(s), and <alg>() for a
 * hasher with update(s), finalize() and finalize_to_hex(). The hasher's
 * methods are closures over it, so both hasher.update(s) (as the
 * documentation writes it) and hasher:update(s) work. */
#include "config.h"

#ifdef HAVE_LUA

#include "detect/lua/lua-int.h"
#include "util/digest.h"

#include <openssl/evp.h>

static const char HASHER_MT[] = "suricata.hasher";

typedef struct Hasher {
	EVP_MD_CTX *ctx;     /* NULL once finalized */
} Hasher;

static void push_digest(lua_State *L, const unsigned char *md, unsigned n, int hex)
{
	static const char digits[] = "0123456789abcdef";
	char out[EVP_MAX_MD_SIZE * 2];

	if (!hex) {
		lua_pushlstring(L, (const char *)md, n);
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		out[2 * i] = digits[md[i] >> 4];
		out[2 * i + 1] = digits[md[i] & 15];
	}
	lua_pushlstring(L, out, 2 * (size_t)n);
}

static int digest_once(lua_State *L, const EVP_MD *md, int hex)
{
	size_t len;
	const char *s = luaL_checklstring(L, 1, &len);
	unsigned char out[EVP_MAX_MD_SIZE];
	unsigned n = 0;

	if (!EVP_Digest(s, len, out, &n, md, NULL))
		return luaL_error(L, "digest failed");
	push_digest(L, out, n, hex);
	return 1;
}

static Hasher *up_hasher(lua_State *L)
{
	Hasher *h = luaL_checkudata(L, lua_upvalueindex(1), HASHER_MT);

	if (!h->ctx)
		luaL_error(L, "hasher already finalized");
	return h;
}

static int hasher_update(lua_State *L)
{
	Hasher *h = up_hasher(L);
	size_t len;
	/* the data is the last argument: hasher.update(s) or hasher:update(s) */
	const char *s = luaL_checklstring(L, lua_gettop(L) ? lua_gettop(L) : 1, &len);

	if (!EVP_DigestUpdate(h->ctx, s, len))
		return luaL_error(L, "digest update failed");
	return 0;
}

static int finalize(lua_State *L, int hex)
{
	Hasher *h = up_hasher(L);
	unsigned char out[EVP_MAX_MD_SIZE];
	unsigned n = 0;
	int ok = EVP_DigestFinal_ex(h->ctx, out, &n);

	EVP_MD_CTX_free(h->ctx);
	h->ctx = NULL;
	if (!ok)
		return luaL_error(L, "digest failed");
	push_digest(L, out, n, hex);
	return 1;
}

static int hasher_finalize(lua_State *L) { return finalize(L, 0); }
static int hasher_finalize_hex(lua_State *L) { return finalize(L, 1); }

static int hasher_gc(lua_State *L)
{
	Hasher *h = luaL_checkudata(L, 1, HASHER_MT);

	EVP_MD_CTX_free(h->ctx);
	h->ctx = NULL;
	return 0;
}

/* a table of the three closures over a new Hasher */
static int new_hasher(lua_State *L, const EVP_MD *md)
{
	static const luaL_Reg methods[] = {
		{ "update", hasher_update },
		{ "finalize", hasher_finalize },
		{ "finalize_to_hex", hasher_finalize_hex },
		{ NULL, NULL },
	};
	Hasher *h;

	lua_createtable(L, 0, 3);
	h = lua_newuserdatauv(L, sizeof(*h), 0);
	h->ctx = NULL;
	if (luaL_newmetatable(L, HASHER_MT)) {
		lua_pushcfunction(L, hasher_gc);
		lua_setfield(L, -2, "__gc");
	}
	lua_setmetatable(L, -2);
	if (!(h->ctx = EVP_MD_CTX_new()) || !EVP_DigestInit_ex(h->ctx, md, NULL))
		return luaL_error(L, "digest init failed");
	luaL_setfuncs(L, methods, 1);
	return 1;
}

static int md5_digest(lua_State *L) { return digest_once(L, digest_md5(), 0); }
static int md5_hex(lua_State *L) { return digest_once(L, digest_md5(), 1); }
static int md5_new(lua_State *L) { return new_hasher(L, digest_md5()); }
static int sha1_digest(lua_State *L) { return digest_once(L, digest_sha1(), 0); }
static int sha1_hex(lua_State *L) { return digest_once(L, digest_sha1(), 1); }
static int sha1_new(lua_State *L) { return new_hasher(L, digest_sha1()); }
static int sha256_digest(lua_State *L) { return digest_once(L, digest_sha256(), 0); }
static int sha256_hex(lua_State *L) { return digest_once(L, digest_sha256(), 1); }
static int sha256_new(lua_State *L) { return new_hasher(L, digest_sha256()); }

int luaopen_suricata_hashing(lua_State *L)
{
	static const luaL_Reg lib[] = {
		{ "md5_digest", md5_digest },       { "md5_hex_digest", md5_hex },
		{ "md5", md5_new },                 { "sha1_digest", sha1_digest },
		{ "sha1_hex_digest", sha1_hex },    { "sha1", sha1_new },
		{ "sha256_digest", sha256_digest }, { "sha256_hex_digest", sha256_hex },
		{ "sha256", sha256_new },           { NULL, NULL },
	};

	luaL_newlib(L, lib);
	return 1;
}

#endif /* HAVE_LUA */
