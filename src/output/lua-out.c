/* Lua output scripts: see lua-out.h. */
#include "config.h"

#include "output/lua-out.h"
#include "output/logger-int.h"

#include "conf/conf.h"

/* The output's settings are read when the first thread starts, after
 * conf_report_unused(): marked at configuration time so that it does not
 * name them. */
static void mark_used(ConfNode *n)
{
	for (; n; n = n->next) {
		n->used = 1;
		mark_used(n->child);
	}
}

void lua_output_config_mark(const char *prefix)
{
	ConfNode *n = conf_get_node(prefix);

	if (n)
		mark_used(n->child);
}

#ifdef HAVE_LUA
#include "detect/lua/lua-int.h"
#include "app-layer/app-layer.h"
#include "app-layer/files.h"
#include "app-layer/http.h"
#include "app-layer/stream-feed.h"
#include "stream/stream.h"
#include "stats/counters.h"
#include "util/log.h"

#include <lualib.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LUA_OUT_SCRIPTS_MAX 32

enum lua_out_kind { LO_PACKET, LO_ALERTS, LO_FLOW, LO_TX, LO_FILE, LO_STATS, LO_STREAM_TCP, LO_STREAM_HTTP };

typedef struct LuaOutScript {
	char path[4096];
	lua_State *L;
	LuaMem mem;
	pthread_mutex_t m;
	int kind;                  /* enum lua_out_kind */
	uint16_t alproto;          /* LO_TX */
	uint64_t errors;           /* calls that failed */
} LuaOutScript;

/* The scripts of the run: set up by the first thread, torn down by the
 * last (refs), under lock. */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static LuaOutScript *g_scripts;
static int g_n, g_refs;
/* a script of the kind is loaded: the callers' cheap test */
static int g_has[LO_STREAM_HTTP + 1];

/* A failed call: the first of a script is logged with its reason, all
 * are counted and the count is logged when the script ends. */
static void count_error(LuaOutScript *sc, const char *what)
{
	if (!sc->errors++)
		log_warning("lua output %s: %s failed: %s", sc->path, what,
			    lua_tostring(sc->L, -1) ? lua_tostring(sc->L, -1) : "error");
}

/* Fills log()'s args table (on top of the stack) */
typedef void (*LuaArgsFn)(lua_State *L, const void *arg);

/* Calls fn(args) if the script has it, args filled by fill (NULL: an
 * empty table): 0, or -1 (counted). */
static int call(LuaOutScript *sc, const char *fn, int required, LuaArgsFn fill, const void *arg)
{
	lua_State *L = sc->L;

	lua_settop(L, 0);
	lua_getglobal(L, fn);
	if (!lua_isfunction(L, -1)) {
		lua_settop(L, 0);
		return required ? -1 : 0;
	}
	lua_newtable(L);
	if (fill)
		fill(L, arg);
	if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
		count_error(sc, fn);
		lua_settop(L, 0);
		return -1;
	}
	return 0;
}

/* init()'s needs: the kind of events log() gets. As 8.0 reads them: a
 * protocol (its transactions), else type = "packet" (with filter =
 * "alerts": each alert), "file", "flow" or "stats". */
static int read_needs(LuaOutScript *sc)
{
	lua_State *L = sc->L;
	const char *type, *filter, *proto, *streaming;

	if (!lua_istable(L, -1))
		return -1;
	lua_getfield(L, -1, "type");
	lua_getfield(L, -2, "filter");
	lua_getfield(L, -3, "protocol");
	lua_getfield(L, -4, "streaming");
	type = lua_tostring(L, -4);
	filter = lua_tostring(L, -3);
	proto = lua_tostring(L, -2);
	streaming = lua_tostring(L, -1);
	/* 8.0's two spellings: {type = "streaming", filter = "tcp"} or
	 * protocol = "http", and {streaming = "tcp" | "http"} */
	if (type && strcmp(type, "streaming") == 0)
		streaming = filter ? filter : proto;
	if (streaming) {
		if (strcmp(streaming, "tcp") == 0)
			sc->kind = LO_STREAM_TCP;
		else if (strcmp(streaming, "http") == 0)
			sc->kind = LO_STREAM_HTTP;
		else
			return -1;
	} else if (proto) {
		int a = app_proto_by_name(proto);

		if (a <= 0)
			return -1;
		sc->kind = LO_TX;
		sc->alproto = (uint16_t)a;
	} else if (type && strcmp(type, "packet") == 0) {
		sc->kind = filter && strcmp(filter, "alerts") == 0 ? LO_ALERTS : LO_PACKET;
	} else if (type && strcmp(type, "flow") == 0) {
		sc->kind = LO_FLOW;
	} else if (type && strcmp(type, "file") == 0) {
		sc->kind = LO_FILE;
	} else if (type && strcmp(type, "stats") == 0) {
		sc->kind = LO_STATS;
	} else {
		return -1;
	}
	lua_settop(L, 0);
	return 0;
}

static int script_open(LuaOutScript *sc, const char *path)
{
	char *code = NULL, *found = NULL, err[512];
	size_t len;
	lua_State *L;

	snprintf(sc->path, sizeof(sc->path), "%s", path);
	pthread_mutex_init(&sc->m, NULL);
	if (lua_script_load(path, &code, &len, &found, err, sizeof(err)) != 0) {
		log_error("lua output: %s", err);
		free(code);
		free(found);
		return -1;
	}
	/* an output script is not sandboxed: it opens its own files */
	L = sc->L = lua_sandbox_new(&sc->mem, 0, 1);
	if (L)
		lua_output_globals_open(L);
	if (!L || luaL_loadbuffer(L, code, len, found) != LUA_OK || lua_pcall(L, 0, 0, 0) != LUA_OK) {
		log_error("lua output %s: %s", path, L ? lua_tostring(L, -1) : "out of memory");
		free(code);
		free(found);
		return -1;
	}
	free(code);
	free(found);
	if (call(sc, "init", 1, NULL, NULL) != 0 || read_needs(sc) != 0) {
		log_error("lua output %s: init() gave no needs this engine knows", path);
		return -1;
	}
	return call(sc, "setup", 0, NULL, NULL);
}

static void stream_tap(Flow *f, Packet *p, int dir, const uint8_t *data, uint32_t len,
		       uint64_t off);

static void scripts_close(void)
{
	for (int i = 0; i < g_n; i++) {
		if (g_scripts[i].L) {
			call(&g_scripts[i], "deinit", 0, NULL, NULL);
			if (g_scripts[i].errors)
				log_notice("lua output %s: %llu calls failed", g_scripts[i].path,
					   (unsigned long long)g_scripts[i].errors);
			lua_close(g_scripts[i].L);
		}
		pthread_mutex_destroy(&g_scripts[i].m);
	}
	free(g_scripts);
	g_scripts = NULL;
	g_n = 0;
	memset(g_has, 0, sizeof(g_has));
	app_layer_stream_tap_set(NULL);
}

/* The first `- lua:` output that is enabled: its scripts, under
 * scripts-dir when relative. */
static void scripts_load(void)
{
	ConfNode *outputs = conf_get_node("outputs");
	ConfNode *lua = NULL;
	const char *dir;
	ConfNode *list;
	int on = 0;

	for (ConfNode *item = outputs ? outputs->child : NULL; item; item = item->next)
		if (item->child && strcmp(item->child->name, "lua") == 0) {
			const char *en = conf_node_get(item->child, "enabled");

			if (en && (!strcmp(en, "yes") || !strcmp(en, "true") || !strcmp(en, "on") ||
				   !strcmp(en, "1"))) {
				lua = item->child;
				on = 1;
				break;
			}
		}
	if (!on)
		return;
	lua->used = 1;
	mark_used(lua->child);
	dir = conf_node_get(lua, "scripts-dir");
	list = conf_node_lookup(lua, "scripts");
	if (!list || !list->child)
		return;
	g_scripts = calloc(LUA_OUT_SCRIPTS_MAX, sizeof(*g_scripts));
	if (!g_scripts)
		return;
	for (ConfNode *s = list->child; s && g_n < LUA_OUT_SCRIPTS_MAX; s = s->next) {
		char path[4096];

		if (!s->val)
			continue;
		s->used = 1;
		if (s->val[0] != '/' && dir && dir[0])
			snprintf(path, sizeof(path), "%s/%s", dir, s->val);
		else
			snprintf(path, sizeof(path), "%s", s->val);
		if (script_open(&g_scripts[g_n], path) != 0) {
			if (g_scripts[g_n].L)
				lua_close(g_scripts[g_n].L);
			pthread_mutex_destroy(&g_scripts[g_n].m);
			memset(&g_scripts[g_n], 0, sizeof(g_scripts[g_n]));
			continue;
		}
		g_has[g_scripts[g_n].kind] = 1;
		g_n++;
	}
	if (g_has[LO_STREAM_TCP])
		app_layer_stream_tap_set(stream_tap);
}

/* Loads the scripts with the first holder, closes them with the last:
 * the packet threads, and the stats thread's hold (its own count: a
 * thread's end never takes it away) */
static int g_holds;

static void hold_change(int *count, int d)
{
	pthread_mutex_lock(&g_lock);
	if (d > 0 && g_refs + g_holds == 0)
		scripts_load();
	if (d > 0 || *count > 0)
		*count += d;
	if (d < 0 && g_refs + g_holds == 0 && g_scripts)
		scripts_close();
	pthread_mutex_unlock(&g_lock);
}

void lua_output_thread_init(OutputThread *ot)
{
	(void)ot;
	hold_change(&g_refs, 1);
}

void lua_output_thread_fini(OutputThread *ot)
{
	(void)ot;
	hold_change(&g_refs, -1);
}

void lua_output_hold(void)
{
	hold_change(&g_holds, 1);
}

void lua_output_release(void)
{
	hold_change(&g_holds, -1);
}

/* log(args) of sc with ctx, under its lock */
static void run_log(LuaOutScript *sc, LuaCtx *ctx, LuaArgsFn fill, const void *arg)
{
	pthread_mutex_lock(&sc->m);
	lua_ctx_set(sc->L, ctx);
	call(sc, "log", 1, fill, arg);
	lua_ctx_set(sc->L, NULL);
	pthread_mutex_unlock(&sc->m);
}

/* a transaction's log(): args.tx_id, as Suricata's */
static void tx_args(lua_State *L, const void *arg)
{
	lua_pushinteger(L, (lua_Integer)*(const uint64_t *)arg);
	lua_setfield(L, -2, "tx_id");
}

/* A streaming script's chunk: args.stream = { data, open, close,
 * to_server, to_client (and 8.0's doc spelling toserver, toclient) },
 * args.tx_id for HTTP bodies */
struct stream_arg {
	const uint8_t *data;
	uint32_t len;
	unsigned flags;             /* LUA_STREAM_* */
	int has_tx;
	uint64_t tx_id;
};

static void stream_args(lua_State *L, const void *arg)
{
	const struct stream_arg *a = arg;
	int ts = (a->flags & LUA_STREAM_TOSERVER) != 0, tc = (a->flags & LUA_STREAM_TOCLIENT) != 0;

	lua_createtable(L, 0, 7);
	lua_pushlstring(L, a->data ? (const char *)a->data : "", a->data ? a->len : 0);
	lua_setfield(L, -2, "data");
	lua_pushboolean(L, (a->flags & LUA_STREAM_OPEN) != 0);
	lua_setfield(L, -2, "open");
	lua_pushboolean(L, (a->flags & LUA_STREAM_CLOSE) != 0);
	lua_setfield(L, -2, "close");
	lua_pushboolean(L, ts);
	lua_setfield(L, -2, "to_server");
	lua_pushboolean(L, tc);
	lua_setfield(L, -2, "to_client");
	lua_pushboolean(L, ts);
	lua_setfield(L, -2, "toserver");
	lua_pushboolean(L, tc);
	lua_setfield(L, -2, "toclient");
	lua_setfield(L, -2, "stream");
	if (a->has_tx) {
		lua_pushinteger(L, (lua_Integer)a->tx_id);
		lua_setfield(L, -2, "tx_id");
	}
}

static void stream_run(int kind, Packet *p, Flow *f, void *tx, const struct stream_arg *a)
{
	for (int i = 0; i < g_n; i++) {
		LuaCtx ctx = { .p = p, .f = f, .tx = tx, .stream = a->data, .stream_len = a->len,
			       .stream_flags = a->flags };

		if (g_scripts[i].kind == kind)
			run_log(&g_scripts[i], &ctx, stream_args, a);
	}
}

static void lua_packet(OutputThread *ot, const OutputPacketCtx *pc)
{
	(void)ot;
	for (int i = 0; i < g_n; i++) {
		LuaOutScript *sc = &g_scripts[i];

		if (sc->kind == LO_PACKET) {
			LuaCtx ctx = { .p = pc->p, .f = pc->f };

			run_log(sc, &ctx, NULL, NULL);
		} else if (sc->kind == LO_ALERTS) {
			for (uint32_t k = 0; k < pc->nalerts; k++) {
				LuaCtx ctx = { .p = pc->p, .f = pc->f, .s = pc->alerts[k].s };

				if (pc->alerts[k].has_tx && pc->f)
					ctx.tx = app_layer_tx_get(pc->f, pc->alerts[k].tx_id);
				run_log(sc, &ctx, NULL, NULL);
			}
		}
	}
}

static void lua_flow_end(OutputThread *ot, Flow *f, Packet *last, enum flow_end_reason why)
{
	(void)ot;
	(void)why;
	/* streaming tcp: a direction that had bytes ends with a close call */
	for (int dir = 0; g_has[LO_STREAM_TCP] && dir < 2; dir++) {
		struct stream_arg a = { NULL, 0, LUA_STREAM_CLOSE | (dir == APP_DIR_TOSERVER
									  ? LUA_STREAM_TOSERVER
									  : LUA_STREAM_TOCLIENT), 0, 0 };

		if (f->stream && stream_ready_offset(f, dir) > 0)
			stream_run(LO_STREAM_TCP, last, f, NULL, &a);
	}
	for (int i = 0; i < g_n; i++) {
		LuaCtx ctx = { .p = last, .f = f };

		if (g_scripts[i].kind == LO_FLOW)
			run_log(&g_scripts[i], &ctx, NULL, NULL);
	}
}

/* streaming tcp: each run of in-order bytes as the app layer takes them
 * (overlaps resolved, what the receiver acknowledged); open on a
 * direction's first byte */
static void stream_tap(Flow *f, Packet *p, int dir, const uint8_t *data, uint32_t len,
		       uint64_t off)
{
	struct stream_arg a = { data, len, dir == APP_DIR_TOSERVER ? LUA_STREAM_TOSERVER
								   : LUA_STREAM_TOCLIENT, 0, 0 };

	if (!len)
		return;
	if (off == 0)
		a.flags |= LUA_STREAM_OPEN;
	stream_run(LO_STREAM_TCP, p, f, NULL, &a);
}

/* streaming http: each body of a transaction as it is logged (dechunked
 * and decompressed as detection has it, up to the body limits), one
 * chunk that opens and closes it */
static void stream_http_bodies(const Packet *p, Flow *f, void *tx, uint64_t id)
{
	for (int dir = APP_DIR_TOSERVER; dir <= APP_DIR_TOCLIENT; dir++) {
		const HttpBodyPiece *pieces;
		const uint8_t *d = NULL;
		uint32_t len = 0;
		struct stream_arg a = { NULL, 0, LUA_STREAM_OPEN | LUA_STREAM_CLOSE, 1, id };

		http_tx_body_raw(tx, dir, &d, &len, &pieces);
		if (!d || !len)
			continue;
		a.data = d;
		a.len = len;
		a.flags |= dir == APP_DIR_TOSERVER ? LUA_STREAM_TOSERVER : LUA_STREAM_TOCLIENT;
		stream_run(LO_STREAM_HTTP, (Packet *)p, f, tx, &a);
	}
}

void lua_output_tx(OutputThread *ot, const Packet *p, Flow *f, void *tx)
{
	uint64_t id;

	(void)ot;
	if (!g_has[LO_TX] && !g_has[LO_STREAM_HTTP])
		return;
	id = app_layer_tx_log_id(f, tx);
	if (g_has[LO_STREAM_HTTP] && f->app_proto == ALPROTO_HTTP1)
		stream_http_bodies(p, f, tx, id);
	for (int i = 0; i < g_n; i++) {
		LuaCtx ctx = { .p = (Packet *)p, .f = f, .tx = tx };

		if (g_scripts[i].kind == LO_TX && g_scripts[i].alproto == f->app_proto)
			run_log(&g_scripts[i], &ctx, tx_args, &id);
	}
}

int lua_output_files_on(void)
{
	return g_has[LO_FILE];
}

void lua_output_file(const Packet *p, const Flow *f, void *tx, File *file)
{
	if (!g_has[LO_FILE])
		return;
	for (int i = 0; i < g_n; i++) {
		LuaCtx ctx = { .p = (Packet *)p, .f = (Flow *)f, .tx = tx, .file = file };

		if (g_scripts[i].kind == LO_FILE)
			run_log(&g_scripts[i], &ctx, NULL, NULL);
	}
}

struct stats_arg {
	const uint64_t *snap, *prev;
	size_t n, nprev;
};

/* Suricata's stats table: an array of { name, tmname, value, pvalue },
 * one per counter of the engine's totals */
static void stats_args(lua_State *L, const void *arg)
{
	const struct stats_arg *a = arg;
	lua_Integer k = 0;

	for (size_t i = 0; i < a->n; i++) {
		const char *name = counter_name((counter_id)i);

		if (!name)
			continue;
		lua_createtable(L, 0, 4);
		lua_pushstring(L, name);
		lua_setfield(L, -2, "name");
		lua_pushliteral(L, "Total");
		lua_setfield(L, -2, "tmname");
		lua_pushinteger(L, (lua_Integer)a->snap[i]);
		lua_setfield(L, -2, "value");
		lua_pushinteger(L, (lua_Integer)(a->prev && i < a->nprev ? a->prev[i] : 0));
		lua_setfield(L, -2, "pvalue");
		lua_rawseti(L, -2, ++k);
	}
}

void lua_output_stats(const uint64_t *snap, size_t n, const uint64_t *prev, size_t nprev)
{
	struct stats_arg a = { snap, prev, n, nprev };

	pthread_mutex_lock(&g_lock);
	for (int i = 0; g_has[LO_STATS] && i < g_n; i++) {
		LuaCtx ctx = { 0 };

		if (g_scripts[i].kind == LO_STATS)
			run_log(&g_scripts[i], &ctx, stats_args, &a);
	}
	pthread_mutex_unlock(&g_lock);
}

const OutputLogger output_logger_lua = { "lua", lua_packet, lua_flow_end };

#else /* !HAVE_LUA */

void lua_output_thread_init(OutputThread *ot)
{
	(void)ot;
}

void lua_output_thread_fini(OutputThread *ot)
{
	(void)ot;
}

void lua_output_tx(OutputThread *ot, const Packet *p, Flow *f, void *tx)
{
	(void)ot;
	(void)p;
	(void)f;
	(void)tx;
}

void lua_output_hold(void)
{
}

void lua_output_release(void)
{
}

int lua_output_files_on(void)
{
	return 0;
}

void lua_output_file(const Packet *p, const Flow *f, void *tx, File *file)
{
	(void)p;
	(void)f;
	(void)tx;
	(void)file;
}

void lua_output_stats(const uint64_t *snap, size_t n, const uint64_t *prev, size_t nprev)
{
	(void)snap;
	(void)n;
	(void)prev;
	(void)nprev;
}

const OutputLogger output_logger_lua = { "lua", NULL, NULL };

#endif
