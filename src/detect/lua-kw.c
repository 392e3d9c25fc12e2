/* lua / luajit: a rule's Lua script, as Suricata 8's lua keyword
 * ("lua:[!]<script>;"), run with Debian's liblua5.4.
 *
 * The script has an init(args) that returns its "needs" table and a
 * match(args) that returns 1 (match) or 0. Needs: packet (the whole
 * packet), payload (the packet's payload), stream, buffer (the sticky
 * buffer the keyword follows); match(args) gets args["packet"],
 * args["payload"], args["stream"] and args["buffer"] as strings. A script
 * may require("suricata.packet") and read the packet through it (get(),
 * then :payload(), :packet(), :tuple(), :timestamp(), :pcap_cnt()).
 *
 * Where the keyword goes: after a sticky buffer, a step of that buffer's
 * list; with payload or stream needs, a step of the payload list; else a
 * packet keyword of the match list.
 *
 * security.lua (Suricata 8.0.6's defaults): allow-rules yes (no: a rule
 * with lua fails to load, "Lua rules disabled by security configuration"),
 * max-bytes 500000 and max-instructions 500000 per state and call (a
 * script over either fails the call: no match), allow-restricted-functions
 * no (the io, os and package libraries, dofile and loadfile are absent).
 *
 * A Lua state is single-threaded: the script is checked once at load on a
 * state of its own, closed again; each detect thread makes its state on the
 * first packet that needs it (DetectThread.lua, freed with the thread). */
#include "config.h"

#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "detect/inspect.h"
#include "detect/packet.h"
#include "conf/conf.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_LUA
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#endif

#define LUA_SCRIPT_MAX (1u << 20)      /* a rule's script: at most 1 MB */
#define LUA_DEFAULT_MAX_BYTES 500000
#define LUA_DEFAULT_MAX_INSTR 500000

enum { NEED_PACKET = 1, NEED_PAYLOAD = 2, NEED_STREAM = 4, NEED_BUFFER = 8 };

typedef struct DetectLua {
	char *path;                /* the script as found */
	char *code;
	size_t code_len;
	int negated;
	unsigned needs;            /* NEED_* */
	uint64_t max_bytes;        /* 0: unlimited */
	uint64_t max_instr;        /* 0: unlimited */
	int restricted;            /* allow-restricted-functions */
} DetectLua;

#ifdef HAVE_LUA

/* ---- the sandbox ---- */

typedef struct LuaMem {
	size_t used, max;
} LuaMem;

/* lua_Alloc with security.lua.max-bytes: a growth past it fails (Lua
 * raises "not enough memory" in the script). */
static void *limited_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	LuaMem *m = ud;
	size_t old = ptr ? osize : 0;
	void *n;

	if (nsize == 0) {
		free(ptr);
		m->used -= old;
		return NULL;
	}
	if (m->max && nsize > old && m->used + (nsize - old) > m->max)
		return NULL;
	n = realloc(ptr, nsize);
	if (!n)
		return NULL;
	m->used = m->used - old + nsize;
	return n;
}

static void instr_hook(lua_State *L, lua_Debug *ar)
{
	(void)ar;
	luaL_error(L, "instruction limit exceeded (security.lua.max-instructions)");
}

static const char PKT_KEY[] = "suricata:packet";

static Packet *cur_packet(lua_State *L)
{
	Packet *p;

	lua_getfield(L, LUA_REGISTRYINDEX, PKT_KEY);
	p = lua_touserdata(L, -1);
	lua_pop(L, 1);
	if (!p)
		luaL_error(L, "no packet");
	return p;
}

static int pkt_payload(lua_State *L)
{
	Packet *p = cur_packet(L);

	lua_pushlstring(L, (const char *)(p->payload ? p->payload : (const uint8_t *)""),
			p->payload ? p->payload_len : 0);
	return 1;
}

static int pkt_packet(lua_State *L)
{
	Packet *p = cur_packet(L);

	lua_pushlstring(L, (const char *)p->data, p->caplen);
	return 1;
}

static void push_addr(lua_State *L, const Packet *p, int dst)
{
	char s[INET6_ADDRSTRLEN] = "";
	const void *a = dst ? (const void *)&p->dst.a : (const void *)&p->src.a;

	inet_ntop(p->ip_version == 6 ? AF_INET6 : AF_INET, a, s, sizeof(s));
	lua_pushstring(L, s);
}

/* ipver, srcip, dstip, proto, sp, dp, as Suricata's Packet:tuple() */
static int pkt_tuple(lua_State *L)
{
	Packet *p = cur_packet(L);

	lua_pushinteger(L, p->ip_version);
	push_addr(L, p, 0);
	push_addr(L, p, 1);
	lua_pushinteger(L, p->proto);
	lua_pushinteger(L, p->sp);
	lua_pushinteger(L, p->dp);
	return 6;
}

static int pkt_timestamp(lua_State *L)
{
	Packet *p = cur_packet(L);

	lua_pushinteger(L, p->ts.tv_sec);
	lua_pushinteger(L, p->ts.tv_usec);
	return 2;
}

static int pkt_pcap_cnt(lua_State *L)
{
	lua_pushinteger(L, (lua_Integer)cur_packet(L)->pcap_cnt);
	return 1;
}

static int pkt_get(lua_State *L)
{
	static const luaL_Reg methods[] = {
		{ "payload", pkt_payload }, { "packet", pkt_packet }, { "tuple", pkt_tuple },
		{ "timestamp", pkt_timestamp }, { "pcap_cnt", pkt_pcap_cnt }, { NULL, NULL },
	};

	cur_packet(L);
	luaL_newlib(L, methods);
	return 1;
}

/* require() in the sandbox: Suricata's own libraries we have; any other
 * name only with allow-restricted-functions (package's require). */
static int sandbox_require(lua_State *L)
{
	const char *name = luaL_checkstring(L, 1);

	if (strcmp(name, "suricata.packet") == 0) {
		static const luaL_Reg lib[] = { { "get", pkt_get }, { NULL, NULL } };

		luaL_newlib(L, lib);
		return 1;
	}
	lua_getfield(L, LUA_REGISTRYINDEX, "suricata:require");
	if (lua_isfunction(L, -1)) {
		lua_pushvalue(L, 1);
		lua_call(L, 1, 1);
		return 1;
	}
	return luaL_error(L, "module '%s' is not available in the Lua sandbox", name);
}

static lua_State *sandbox_new(const DetectLua *ld, LuaMem *mem)
{
	static const luaL_Reg safe[] = {
		{ LUA_GNAME, luaopen_base }, { LUA_TABLIBNAME, luaopen_table },
		{ LUA_STRLIBNAME, luaopen_string }, { LUA_MATHLIBNAME, luaopen_math },
		{ LUA_UTF8LIBNAME, luaopen_utf8 }, { NULL, NULL },
	};
	lua_State *L;

	mem->used = 0;
	mem->max = (size_t)ld->max_bytes;
	if (!(L = lua_newstate(limited_alloc, mem)))
		return NULL;
	if (ld->restricted) {
		luaL_openlibs(L);
		lua_getglobal(L, "require");
		lua_setfield(L, LUA_REGISTRYINDEX, "suricata:require");
	} else {
		for (const luaL_Reg *l = safe; l->name; l++) {
			luaL_requiref(L, l->name, l->func, 1);
			lua_pop(L, 1);
		}
		/* the file access the base library has */
		lua_pushnil(L);
		lua_setglobal(L, "dofile");
		lua_pushnil(L);
		lua_setglobal(L, "loadfile");
	}
	lua_pushcfunction(L, sandbox_require);
	lua_setglobal(L, "require");
	return L;
}

static void limit_instructions(lua_State *L, const DetectLua *ld)
{
	if (ld->max_instr)
		lua_sethook(L, instr_hook, LUA_MASKCOUNT, (int)ld->max_instr);
}

/* The script run, then init({}) called: its needs table left on the stack
 * (or nil). 0, or -1 with the reason in err. */
static int script_start(lua_State *L, const DetectLua *ld, char *err, size_t errlen)
{
	int r = luaL_loadbuffer(L, ld->code, ld->code_len, ld->path);

	limit_instructions(L, ld);
	if (r == LUA_OK)
		r = lua_pcall(L, 0, 0, 0);
	if (r != LUA_OK) {
		snprintf(err, errlen, "%s", lua_tostring(L, -1));
		return -1;
	}
	lua_getglobal(L, "init");
	if (!lua_isfunction(L, -1)) {
		snprintf(err, errlen, "no init function");
		return -1;
	}
	lua_newtable(L);
	limit_instructions(L, ld);
	if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
		snprintf(err, errlen, "init: %s", lua_tostring(L, -1));
		return -1;
	}
	lua_getglobal(L, "match");
	if (!lua_isfunction(L, -1)) {
		snprintf(err, errlen, "no match function");
		return -1;
	}
	lua_pop(L, 1);
	return 0;
}

/* needs[k] as Suricata reads it: true, or the string "true" (older
 * scripts' tostring(true)); a "buffer" key may name the buffer. */
static int need_set(lua_State *L, const char *k)
{
	int set;

	lua_getfield(L, -1, k);
	set = lua_toboolean(L, -1) &&
	      !(lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "false") == 0);
	lua_pop(L, 1);
	return set;
}

/* ---- per thread ---- */

typedef struct LuaThreadState {
	const DetectLua *ld;
	lua_State *L;
	LuaMem *mem;               /* the allocator's: its own block, since the
	                            * array of states moves as it grows */
	int broken;                /* its start failed: never matches */
} LuaThreadState;

struct LuaThread {
	LuaThreadState *s;
	uint32_t n, cap;
};

void lua_thread_free(struct LuaThread *lt)
{
	if (!lt)
		return;
	for (uint32_t i = 0; i < lt->n; i++) {
		if (lt->s[i].L)
			lua_close(lt->s[i].L);
		free(lt->s[i].mem);
	}
	free(lt->s);
	free(lt);
}

/* The thread's state for ld, made on first use (once per thread and
 * script, not per packet); NULL when it cannot be. */
static LuaThreadState *thread_state(DetectThread *dt, const DetectLua *ld)
{
	struct LuaThread *lt = dt->lua;
	LuaThreadState *ts;
	char err[256];

	for (uint32_t i = 0; lt && i < lt->n; i++)
		if (lt->s[i].ld == ld)
			return lt->s[i].broken ? NULL : &lt->s[i];
	if (!lt && !(lt = dt->lua = calloc(1, sizeof(*lt))))
		return NULL;
	if (lt->n == lt->cap) {
		uint32_t cap = lt->cap ? lt->cap * 2 : 4;
		LuaThreadState *s = realloc(lt->s, cap * sizeof(*s));

		if (!s)
			return NULL;
		lt->s = s;
		lt->cap = cap;
	}
	ts = &lt->s[lt->n++];
	memset(ts, 0, sizeof(*ts));
	ts->ld = ld;
	ts->mem = calloc(1, sizeof(*ts->mem));
	ts->L = ts->mem ? sandbox_new(ld, ts->mem) : NULL;
	if (!ts->L || script_start(ts->L, ld, err, sizeof(err)) != 0) {
		ts->broken = 1;
		return NULL;
	}
	lua_settop(ts->L, 0);
	return ts;
}

static void push_arg(lua_State *L, const char *k, const uint8_t *d, uint32_t len)
{
	lua_pushlstring(L, d ? (const char *)d : "", d ? len : 0);
	lua_setfield(L, -2, k);
}

/* match(args): 1 when it returned 1 (or true), the keyword's negation
 * applied. An error (a limit reached) is no match, as in Suricata. */
static int lua_run(DetectThread *dt, const DetectLua *ld, Packet *p, const InspectBuffer *b)
{
	LuaThreadState *ts;
	lua_State *L;
	int r = 0;

	if (!p || !(ts = thread_state(dt, ld)))
		return 0;
	L = ts->L;
	lua_pushlightuserdata(L, p);
	lua_setfield(L, LUA_REGISTRYINDEX, PKT_KEY);
	lua_getglobal(L, "match");
	lua_newtable(L);
	if (ld->needs & NEED_PACKET)
		push_arg(L, "packet", p->data, p->caplen);
	/* the payload list is inspected on the packet's payload and on the
	 * reassembled stream: the data inspected, as the other payload keywords */
	if (ld->needs & NEED_PAYLOAD)
		push_arg(L, "payload", b ? b->data : p->payload, b ? b->len : p->payload_len);
	if (b && (ld->needs & NEED_STREAM))
		push_arg(L, "stream", b->data, b->len);
	if (b)
		push_arg(L, "buffer", b->data, b->len);
	limit_instructions(L, ld);
	if (lua_pcall(L, 1, 1, 0) == LUA_OK) {
		if (lua_isboolean(L, -1))
			r = lua_toboolean(L, -1);
		else
			r = lua_tointeger(L, -1) == 1;
	}
	lua_settop(L, 0);
	lua_pushnil(L);
	lua_setfield(L, LUA_REGISTRYINDEX, PKT_KEY);
	return ld->negated ? !r : r;
}

static int lua_match(DetectThread *dt, const SigMatch *m, Packet *p)
{
	return lua_run(dt, m->ctx, p, NULL);
}

static int lua_step(DetectThread *dt, const Signature *s, const SigMatchList *ml, int idx,
		    const InspectBuffer *b, uint32_t prev)
{
	if (!lua_run(dt, ml->m[idx].ctx, dt->pkt ? dt->pkt->p : NULL, b))
		return 0;
	return inspect_next(dt, s, ml, idx + 1, b, prev);
}

/* ---- setup ---- */

/* The script: an absolute path as is, else under default-rule-path, else
 * from the working folder (Suricata: "appended to your default rules
 * location"). The file's text in ld. 0, or -1 with the reason. */
static int script_read(DetectLua *ld, const char *name, char *err, size_t errlen)
{
	const char *dir = conf_get("default-rule-path");
	char path[4096];
	FILE *f = NULL;
	long n;

	if (name[0] != '/' && dir && dir[0]) {
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		f = fopen(path, "rb");
	}
	if (!f) {
		snprintf(path, sizeof(path), "%s", name);
		f = fopen(path, "rb");
	}
	if (!f) {
		snprintf(err, errlen, "cannot open lua script %.300s: %s", name, strerror(errno));
		return -1;
	}
	if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || n > (long)LUA_SCRIPT_MAX ||
	    fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		snprintf(err, errlen, "lua script %.300s: not a regular file of at most %u bytes", path,
			 LUA_SCRIPT_MAX);
		return -1;
	}
	ld->code = malloc((size_t)n + 1);
	ld->path = strdup(path);
	if (!ld->code || !ld->path || fread(ld->code, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		snprintf(err, errlen, "cannot read lua script %.300s", path);
		return -1;
	}
	fclose(f);
	ld->code[n] = '\0';
	ld->code_len = (size_t)n;
	return 0;
}

/* security.lua.max-bytes / max-instructions: 0 is unlimited. */
static int limit_get(const char *key, uint64_t def, uint64_t *out, char *err, size_t errlen)
{
	int64_t v = (int64_t)def;

	if (conf_get(key) && (conf_get_int(key, &v) < 0 || v < 0)) {
		snprintf(err, errlen, "%s: '%s' is not a number of 0 or more", key, conf_get(key));
		return -1;
	}
	*out = (uint64_t)v;
	return 0;
}

static void lua_ctx_free(void *ctx)
{
	DetectLua *ld = ctx;

	free(ld->code);
	free(ld->path);
}

static int kw_lua(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectLua *ld;
	lua_State *L;
	LuaMem mem;
	const char *p, *end;
	char name[1024], err[512] = "";
	int allow = 1, list, rc;

	(void)kw;
	if (conf_get_bool("security.lua.allow-rules", &allow) < 0)
		return sig_error(st, "security.lua.allow-rules: expected yes or no");
	if (!allow)
		return sig_error(st, "Lua rules disabled by security configuration: "
				 "security.lua.allow-rules");
	if (!(ld = calloc(1, sizeof(*ld))))
		return sig_error(st, "out of memory");
	p = sig_arg_negation(arg, &ld->negated, &end);
	snprintf(name, sizeof(name), "%.*s", (int)(end - p), p);
	if (limit_get("security.lua.max-bytes", LUA_DEFAULT_MAX_BYTES, &ld->max_bytes, err,
		      sizeof(err)) != 0 ||
	    limit_get("security.lua.max-instructions", LUA_DEFAULT_MAX_INSTR, &ld->max_instr, err,
		      sizeof(err)) != 0 ||
	    conf_get_bool("security.lua.allow-restricted-functions", &ld->restricted) < 0 ||
	    script_read(ld, name, err, sizeof(err)) != 0)
		goto fail;
	/* checked now, on a state of its own: a script that does not load or
	 * has no init/match fails the rule, not the packets */
	if (!(L = sandbox_new(ld, &mem))) {
		snprintf(err, sizeof(err), "out of memory");
		goto fail;
	}
	if (script_start(L, ld, err, sizeof(err)) != 0) {
		lua_close(L);
		goto fail;
	}
	lua_getglobal(L, "init");
	lua_newtable(L);
	limit_instructions(L, ld);
	if (lua_pcall(L, 1, 1, 0) == LUA_OK && lua_istable(L, -1)) {
		ld->needs |= need_set(L, "packet") ? NEED_PACKET : 0;
		ld->needs |= need_set(L, "payload") ? NEED_PAYLOAD : 0;
		ld->needs |= need_set(L, "stream") ? NEED_STREAM : 0;
		ld->needs |= need_set(L, "buffer") ? NEED_BUFFER : 0;
	}
	lua_close(L);
	if (st->cur_buf >= 0)
		list = st->cur_buf;
	else if (ld->needs & (NEED_PAYLOAD | NEED_STREAM))
		list = sig_cur_list(st);
	else
		list = SM_LIST_MATCH;
	if ((rc = sm_append(st, list, KW_LUA, ld)) < 0) {
		lua_ctx_free(ld);
		free(ld);
		return rc;
	}
	if (list != SM_LIST_MATCH)
		st->last_inspect_list = list;
	return 0;
fail:
	lua_ctx_free(ld);
	free(ld);
	return sig_error(st, "%s", err);
}

const char *lua_kw_version(void)
{
	return LUA_RELEASE;
}

#else /* !HAVE_LUA */

void lua_thread_free(struct LuaThread *lt)
{
	(void)lt;
}

static int kw_lua(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)arg;
	return sig_unsupported(st, "unsupported keyword %s (built without Lua)", kw->name);
}

static int lua_match(DetectThread *dt, const SigMatch *m, Packet *p)
{
	(void)dt;
	(void)m;
	(void)p;
	return 0;
}

static int lua_step(DetectThread *dt, const Signature *s, const SigMatchList *ml, int idx,
		    const InspectBuffer *b, uint32_t prev)
{
	(void)dt;
	(void)s;
	(void)ml;
	(void)idx;
	(void)b;
	(void)prev;
	return 0;
}

static void lua_ctx_free(void *ctx)
{
	(void)ctx;
}

const char *lua_kw_version(void)
{
	return NULL;
}

#endif

const Keyword lua_keywords[] = {
	{ .name = "lua", .id = KW_LUA, .setup = kw_lua, .flags = NEED | SQ, .buf = -1,
	  .desc = "a Lua 5.4 script's match function", .match = lua_match, .step = lua_step,
	  .free = lua_ctx_free },
	/* Suricata 8: luajit is the same keyword */
	{ .name = "luajit", .id = KW_LUA, .setup = kw_lua, .flags = NEED | SQ, .buf = -1,
	  .desc = "the same as lua", .match = lua_match, .step = lua_step,
	  .free = lua_ctx_free },
	{ .name = NULL },
};
