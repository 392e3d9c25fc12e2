/* Suricata 8's Lua libraries (src/detect/lua/): the registry, the pure
 * libraries against known vectors, the sandbox's limits, the libraries
 * that need a call's context failing cleanly outside one, and luaxform. */
#include "config.h"

#include "test.h"

#ifdef HAVE_LUA
#include "detect/lua/lua-int.h"
#include "detect/lua/lua-xform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Runs chunk in a sandbox (limits as given); 1 when it returned true,
 * 0 false, -1 an error (message in err). */
static int run(const char *chunk, uint64_t max_bytes, uint64_t max_instr, char *err, size_t n)
{
	LuaMem mem;
	lua_State *L = lua_sandbox_new(&mem, max_bytes, 0);
	int r;

	if (!L)
		return -1;
	lua_sandbox_limit(L, max_instr);
	r = luaL_loadstring(L, chunk);
	if (r == LUA_OK)
		r = lua_pcall(L, 0, 1, 0);
	if (r != LUA_OK) {
		snprintf(err, n, "%s", lua_tostring(L, -1));
		lua_close(L);
		return -1;
	}
	r = lua_toboolean(L, -1);
	lua_close(L);
	return r;
}

TEST(lua_registry_names_every_library)
{
	static const char *const names[] = {
		"suricata.packet", "suricata.flow",    "suricata.http",   "suricata.dns",
		"suricata.tls",    "suricata.ja3",     "suricata.ssh",    "suricata.smtp",
		"suricata.hashing", "suricata.base64", "suricata.flowvar", "suricata.flowint",
		"suricata.bytevar", "suricata.config", "suricata.log",    "suricata.rule",
		"suricata.util",   "suricata.dnp3",    "suricata.file",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		CHECK(lua_lib_find(names[i]) != NULL);
	CHECK(lua_lib_find("suricata.hashlib") == lua_lib_find("suricata.hashing"));
	CHECK(lua_lib_find("suricata.nope") == NULL);
	CHECK(lua_lib_find("os") == NULL);
}

TEST(lua_hashing_and_base64_vectors)
{
	char err[256] = "";

	CHECK_EQ(run("local h = require('suricata.hashing')\n"
		     "local s = h.sha1()\n s.update('a')\n s:update('bc')\n"
		     "return h.md5_hex_digest('') == 'd41d8cd98f00b204e9800998ecf8427e' and\n"
		     " h.sha256_hex_digest('') == "
		     "'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' and\n"
		     " s.finalize_to_hex() == 'a9993e364706816aba3e25717850c26c9cd0d89d' and\n"
		     " #h.md5_digest('x') == 16",
		     0, 0, err, sizeof(err)), 1);
	CHECK_EQ(run("local b = require('suricata.base64')\n"
		     "return b.encode('') == '' and b.encode('f') == 'Zg==' and\n"
		     " b.encode('fo') == 'Zm8=' and b.encode('foo') == 'Zm9v' and\n"
		     " b.encode_nopad('f') == 'Zg' and b.decode('Zm9vYg==') == 'foob' and\n"
		     " b.decode('Zm9vYg') == nil and b.decode('Zm9=Yg==') == nil and\n"
		     " b.decode('Zh==') == nil and b.decode_nopad('Zm9vYg') == 'foob' and\n"
		     " b.decode_nopad('Z') == nil and b.decode('Zm9v\\0') == nil",
		     0, 0, err, sizeof(err)), 1);
}

TEST(lua_context_libraries_fail_outside_a_call)
{
	char err[256] = "";

	/* no packet, flow or rule outside match(): an error, not a crash */
	CHECK_EQ(run("return require('suricata.packet').get()", 0, 0, err, sizeof(err)), -1);
	CHECK(strstr(err, "no packet"));
	CHECK_EQ(run("return require('suricata.flow').get()", 0, 0, err, sizeof(err)), -1);
	CHECK_EQ(run("return require('suricata.rule').get_rule()", 0, 0, err, sizeof(err)), -1);
	/* get_tx: nil and a message, as 8.0 documents */
	CHECK_EQ(run("local tx, e = require('suricata.http').get_tx()\n"
		     "return tx == nil and e ~= nil", 0, 0, err, sizeof(err)), 1);
	CHECK_EQ(run("return require('suricata.dns').rrname()", 0, 0, err, sizeof(err)), -1);
	CHECK_EQ(run("local tx, e = require('suricata.dns').get_tx()\n"
		     "return tx == nil and e ~= nil", 0, 0, err, sizeof(err)), 1);
	/* dnp3 and file: nil and a message too; a file method outside an
	 * output's file call is an error */
	CHECK_EQ(run("local tx, e = require('suricata.dnp3').get_tx()\n"
		     "return tx == nil and e ~= nil", 0, 0, err, sizeof(err)), 1);
	CHECK_EQ(run("local f, e = require('suricata.file').get_file()\n"
		     "return f == nil and e == 'error: no file found'", 0, 0, err, sizeof(err)), 1);
}

TEST(lua_sandbox_limits_and_blocked_modules)
{
	char err[256] = "";

	CHECK_EQ(run("while true do end", 0, 10000, err, sizeof(err)), -1);
	/* 8.0's text, with no position before it */
	CHECK(strcmp(err, LUA_INSTR_MSG) == 0);
	CHECK_EQ(run("local t = {} for i = 1, 1e7 do t[i] = i end return true", 200000, 0, err,
		     sizeof(err)), -1);
	CHECK(strstr(err, "not enough memory"));
	CHECK_EQ(run("return require('os')", 0, 0, err, sizeof(err)), -1);
	CHECK(strstr(err, "not available in the Lua sandbox"));
	CHECK_EQ(run("return io == nil and os == nil and package == nil and debug == nil",
		     0, 0, err, sizeof(err)), 1);
	/* the base library's functions 8.0 blocks fail the call by name */
	CHECK_EQ(run("pcall(function() end) return true", 0, 0, err, sizeof(err)), -1);
	CHECK(strcmp(err, "Blocked Lua function called: pcall") == 0);
	CHECK_EQ(run("return load('return 1')", 0, 0, err, sizeof(err)), -1);
	CHECK(strcmp(err, "Blocked Lua function called: load") == 0);
	CHECK_EQ(run("return dofile('/etc/passwd')", 0, 0, err, sizeof(err)), -1);
	CHECK(strcmp(err, "Blocked Lua function called: dofile") == 0);
	/* and what it allows still works */
	CHECK_EQ(run("return select('#', 1, 2) == 2 and tostring(rawlen({1})) == '1' and\n"
		     " string.format('%d', math.floor(2.5)) == '2' and utf8.char(65) == 'A' and\n"
		     " table.concat({'a', 'b'}) == 'ab'", 0, 0, err, sizeof(err)), 1);
	/* the same library twice is the same table (kept in _LOADED) */
	CHECK_EQ(run("return require('suricata.base64') == require('suricata.base64')", 0, 0, err,
		     sizeof(err)), 1);
}

static char *script(const char *text)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/test-lua-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	close(fd);
	return path;
}

TEST(luaxform_runs_with_arguments_and_keeps_buffer_on_failure)
{
	struct LuaXformDef *d = NULL, *bad = NULL;
	struct LuaXformThread *t = NULL;
	const uint8_t *out;
	uint32_t n;
	char err[256], arg[128], *p;

	p = script("function transform(input, args)\n"
		   "  local s = input .. '|' .. #args .. '|' .. table.concat(args, ';')\n"
		   "  return s, #s\nend\n");
	CHECK(p);
	snprintf(arg, sizeof(arg), "%s, bytes 2 ,  offset 1", p);
	CHECK_EQ(lua_xform_parse(arg, &d, err, sizeof(err)), 0);
	CHECK_EQ(lua_xform_run(&t, d, (const uint8_t *)"abc", 3, &out, &n), 0);
	CHECK_EQ(n, strlen("abc|2|bytes 2;offset 1"));
	CHECK(memcmp(out, "abc|2|bytes 2;offset 1", n) == 0);
	/* an empty buffer is not passed */
	CHECK_EQ(lua_xform_run(&t, d, (const uint8_t *)"", 0, &out, &n), -1);
	unlink(p);
	lua_xform_thread_free(t);
	t = NULL;
	lua_xform_free(d);
	d = NULL;

	p = script("function transform(input, args) return input end\n");
	CHECK(p);
	CHECK_EQ(lua_xform_parse(p, &bad, err, sizeof(err)), 0);
	/* one value only: the buffer stays */
	CHECK_EQ(lua_xform_run(&t, bad, (const uint8_t *)"abc", 3, &out, &n), -1);
	unlink(p);

	p = script("function nottransform() end\n");
	CHECK(p);
	CHECK_EQ(lua_xform_parse(p, &d, err, sizeof(err)), -1);
	CHECK(strstr(err, "no transform function in script"));
	unlink(p);
	CHECK_EQ(lua_xform_parse("/nonexistent/x.lua", &d, err, sizeof(err)), -1);
	CHECK(d == NULL);

	lua_xform_thread_free(t);
	lua_xform_free(bad);
}

#else

TEST(lua_not_built)
{
	CHECK(1);
}

#endif
