/* luaxform: see lua-xform.h. */
#include "config.h"

#include "detect/lua/lua-xform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_LUA
#include "detect/lua/lua-int.h"
#include "conf/conf.h"

#define XFORM_ARGS_MAX 10

struct LuaXformDef {
	char *text;                /* the keyword's value: equality */
	char *code, *path;
	size_t code_len;
	char *args[XFORM_ARGS_MAX];
	int nargs;
	uint64_t max_bytes, max_instr;
	int restricted;
};

typedef struct XformState {
	const struct LuaXformDef *d;
	lua_State *L;
	LuaMem *mem;
	int broken;
} XformState;

struct LuaXformThread {
	XformState *s;
	uint32_t n, cap;
};

static char *trimmed(const char *p, size_t n)
{
	char *s;

	while (n && (*p == ' ' || *p == '\t')) {
		p++;
		n--;
	}
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	if ((s = malloc(n + 1))) {
		memcpy(s, p, n);
		s[n] = '\0';
	}
	return s;
}

void lua_xform_free(struct LuaXformDef *d)
{
	if (!d)
		return;
	free(d->text);
	free(d->code);
	free(d->path);
	for (int i = 0; i < d->nargs; i++)
		free(d->args[i]);
	free(d);
}

int lua_xform_equal(const struct LuaXformDef *a, const struct LuaXformDef *b)
{
	return a == b || (a && b && strcmp(a->text, b->text) == 0);
}

/* A state with the script run; 0, or -1 with the reason */
static lua_State *xform_state(const struct LuaXformDef *d, LuaMem *mem, char *err, size_t errlen)
{
	lua_State *L = lua_sandbox_new(mem, d->max_bytes, d->restricted);
	int r;

	if (!L) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	r = luaL_loadbuffer(L, d->code, d->code_len, d->path);
	lua_sandbox_limit(L, d->max_instr);
	if (r == LUA_OK)
		r = lua_pcall(L, 0, 0, 0);
	if (r != LUA_OK) {
		snprintf(err, errlen, "%s", lua_tostring(L, -1));
		lua_close(L);
		return NULL;
	}
	lua_getglobal(L, "transform");
	if (!lua_isfunction(L, -1)) {
		snprintf(err, errlen, "%s: no transform function in script", d->path);
		lua_close(L);
		return NULL;
	}
	lua_settop(L, 0);
	return L;
}

int lua_xform_parse(const char *arg, struct LuaXformDef **out, char *err, size_t errlen)
{
	struct LuaXformDef *d;
	const char *p, *comma;
	int allow = 1;
	int64_t v;
	LuaMem mem;
	lua_State *L;

	if (!arg || !*arg) {
		snprintf(err, errlen, "luaxform needs a script");
		return -1;
	}
	if (conf_get_bool("security.lua.allow-rules", &allow) < 0 || !allow) {
		snprintf(err, errlen, "Lua rules disabled by security configuration: "
			 "security.lua.allow-rules");
		return -1;
	}
	if (!(d = calloc(1, sizeof(*d))) || !(d->text = strdup(arg)))
		goto nomem;
	d->max_bytes = 500000;
	d->max_instr = 500000;
	if (conf_get("security.lua.max-bytes") && conf_get_int("security.lua.max-bytes", &v) == 0 &&
	    v >= 0)
		d->max_bytes = (uint64_t)v;
	if (conf_get("security.lua.max-instructions") &&
	    conf_get_int("security.lua.max-instructions", &v) == 0 && v >= 0)
		d->max_instr = (uint64_t)v;
	conf_get_bool("security.lua.allow-restricted-functions", &d->restricted);
	/* the script, then the arguments, comma-separated */
	comma = strchr(arg, ',');
	{
		char *name = trimmed(arg, comma ? (size_t)(comma - arg) : strlen(arg));

		if (!name)
			goto nomem;
		if (lua_script_load(name, &d->code, &d->code_len, &d->path, err, errlen) != 0) {
			free(name);
			lua_xform_free(d);
			return -1;
		}
		free(name);
	}
	for (p = comma; p; p = comma) {
		p++;
		comma = strchr(p, ',');
		if (d->nargs == XFORM_ARGS_MAX) {
			snprintf(err, errlen, "luaxform: at most %d arguments", XFORM_ARGS_MAX);
			lua_xform_free(d);
			return -1;
		}
		if (!(d->args[d->nargs] = trimmed(p, comma ? (size_t)(comma - p) : strlen(p))))
			goto nomem;
		d->nargs++;
	}
	/* checked now: a script that does not load fails the rule */
	if (!(L = xform_state(d, &mem, err, errlen))) {
		lua_xform_free(d);
		return -1;
	}
	lua_close(L);
	*out = d;
	return 0;
nomem:
	lua_xform_free(d);
	snprintf(err, errlen, "out of memory");
	return -1;
}

void lua_xform_thread_free(struct LuaXformThread *t)
{
	if (!t)
		return;
	for (uint32_t i = 0; i < t->n; i++) {
		if (t->s[i].L)
			lua_close(t->s[i].L);
		free(t->s[i].mem);
	}
	free(t->s);
	free(t);
}

static XformState *thread_state(struct LuaXformThread **slot, const struct LuaXformDef *d)
{
	struct LuaXformThread *t = *slot;
	XformState *xs;
	char err[256];

	for (uint32_t i = 0; t && i < t->n; i++)
		if (t->s[i].d == d)
			return t->s[i].broken ? NULL : &t->s[i];
	if (!t && !(t = *slot = calloc(1, sizeof(*t))))
		return NULL;
	if (t->n == t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 4;
		XformState *s = realloc(t->s, cap * sizeof(*s));

		if (!s)
			return NULL;
		t->s = s;
		t->cap = cap;
	}
	xs = &t->s[t->n++];
	memset(xs, 0, sizeof(*xs));
	xs->d = d;
	xs->mem = calloc(1, sizeof(*xs->mem));
	xs->L = xs->mem ? xform_state(d, xs->mem, err, sizeof(err)) : NULL;
	if (!xs->L) {
		xs->broken = 1;
		return NULL;
	}
	return xs;
}

int lua_xform_run(struct LuaXformThread **slot, const struct LuaXformDef *d, const uint8_t *in,
		  uint32_t len, const uint8_t **out, uint32_t *outlen)
{
	XformState *xs;
	lua_State *L;
	size_t n;
	const char *r;

	if (!len || !(xs = thread_state(slot, d)))
		return -1;
	L = xs->L;
	/* the last result lived on the stack until now */
	lua_settop(L, 0);
	lua_getglobal(L, "transform");
	lua_pushlstring(L, (const char *)in, len);
	lua_createtable(L, d->nargs, 0);
	for (int i = 0; i < d->nargs; i++) {
		lua_pushstring(L, d->args[i]);
		lua_rawseti(L, -2, i + 1);
	}
	lua_sandbox_limit(L, d->max_instr);
	if (lua_pcall(L, 2, 2, 0) != LUA_OK || !lua_isstring(L, -2) || !lua_isinteger(L, -1)) {
		lua_settop(L, 0);
		return -1;
	}
	r = lua_tolstring(L, -2, &n);
	/* the length it gives, within the string it returned */
	if (lua_tointeger(L, -1) < 0 || (size_t)lua_tointeger(L, -1) > n || n > UINT32_MAX) {
		lua_settop(L, 0);
		return -1;
	}
	*out = (const uint8_t *)r;
	*outlen = (uint32_t)lua_tointeger(L, -1);
	return 0;
}

#else /* !HAVE_LUA */

int lua_xform_parse(const char *arg, struct LuaXformDef **out, char *err, size_t errlen)
{
	(void)arg;
	(void)out;
	snprintf(err, errlen, "unsupported keyword luaxform (built without Lua)");
	return -2;
}

void lua_xform_free(struct LuaXformDef *d)
{
	(void)d;
}

int lua_xform_equal(const struct LuaXformDef *a, const struct LuaXformDef *b)
{
	return a == b;
}

void lua_xform_thread_free(struct LuaXformThread *t)
{
	(void)t;
}

int lua_xform_run(struct LuaXformThread **slot, const struct LuaXformDef *d, const uint8_t *in,
		  uint32_t len, const uint8_t **out, uint32_t *outlen)
{
	(void)slot;
	(void)d;
	(void)in;
	(void)len;
	(void)out;
	(void)outlen;
	return -1;
}

#endif
