/* luaxform (Suricata 8): a Lua script's transform(input, args) rewrites a
 * sticky buffer; "luaxform:<script>[, arg]..." (at most 10 arguments,
 * passed as strings, blanks around them trimmed). The function returns
 * the new buffer and its length; anything else (an error, nil, one
 * value) leaves the buffer as it was. An empty buffer is not passed.
 *
 * The script is checked when the rule loads; each detect thread runs it in
 * a sandbox of its own (lua-sandbox.c, security.lua's limits), made on
 * first use and kept in the thread's transform scratch. */
#ifndef DETECT_LUA_XFORM_H
#define DETECT_LUA_XFORM_H

#include <stddef.h>
#include <stdint.h>

struct LuaXformDef;
struct LuaXformThread;

/* 0 with *out; -1 with the reason in err (a rule error); -2 when this
 * build has no Lua (the rule is skipped). */
int lua_xform_parse(const char *arg, struct LuaXformDef **out, char *err, size_t errlen);
void lua_xform_free(struct LuaXformDef *d);
/* Whether two rules' luaxform are the same (script and arguments). */
int lua_xform_equal(const struct LuaXformDef *a, const struct LuaXformDef *b);
void lua_xform_thread_free(struct LuaXformThread *t);
/* 0 with the result in *out (valid until the thread's next run), -1 when
 * the buffer stays as it was. */
int lua_xform_run(struct LuaXformThread **slot, const struct LuaXformDef *d, const uint8_t *in,
		  uint32_t len, const uint8_t **out, uint32_t *outlen);

#endif
