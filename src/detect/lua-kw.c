/* lua / luajit: a rule's Lua script, as Suricata 8's lua keyword
 * ("lua:[!]<script>;"), run with Debian's liblua5.4.
 *
 * The script has an init(args) that returns its "needs" table, an
 * optional thread_init() run once per detect thread, and a match(args)
 * that returns 1 (or true) for a match. Needs, as 8.0 reads them:
 *   packet, payload, stream, buffer: the packet, its payload, the stream
 *     data inspected, the sticky buffer the keyword follows;
 *   a protocol buffer (http.request_line, http.response_body, dns.rrname,
 *     ssh.server_proto, ...): the script is a step of that buffer's list,
 *     on the need's side, run when the buffer is inspected (as 8.0
 *     registers it: not when the transaction is over), and match(args)
 *     gets args[<name>], the buffer (entry) inspected;
 *   a protocol (tls, ssh, smtp, dns.request, dns.response, dnp3, ja3,
 *     ja3s): a transaction rule of it, the libraries read the transaction;
 *   flowvar / flowint (arrays of names, 7.0's form): as the libraries'
 *     register() in init.
 * A script may require Suricata's libraries (detect/lua/: suricata.packet,
 * .flow, .http, .dns, .tls, .ja3, .ssh, .smtp, .hashing, .base64,
 * .flowvar, .flowint, .bytevar, .config, .log, .rule, .util, .dnp3).
 *
 * Where the keyword goes: after a sticky buffer, a step of that buffer's
 * list; with a buffer need, a step of that buffer's list; with a protocol
 * need, or on a rule of a protocol, a transaction match (KW_LUA_TX); with payload or stream needs, a step of the payload
 * list; else a packet keyword of the match list.
 *
 * security.lua (Suricata 8.0.6's defaults): allow-rules yes (no: a rule
 * with lua fails to load, "Lua rules disabled by security configuration"),
 * max-bytes 500000 and max-instructions 500000 per state and call (a
 * script over either fails the call: no match), allow-restricted-functions
 * no (the io, os and package libraries, dofile and loadfile are absent).
 * A call that fails (an error, a limit) is no match, counted in
 * detect.lua.errors and by cause (detect.lua.instruction_limit_errors,
 * detect.lua.memory_limit_errors, detect.lua.blocked_function_errors).
 *
 * A Lua state is single-threaded: the script is checked once at load on a
 * state of its own, closed again; each detect thread makes its state on the
 * first packet that needs it (DetectThread.lua, freed with the thread).
 * Rules without lua never reach this file on the packet path. */
#include "config.h"

#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "detect/inspect.h"
#include "detect/packet.h"
#include "detect/buffers.h"
#include "conf/conf.h"
#include "util/log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_LUA
#include <lualib.h>

#include "detect/lua/lua-int.h"
#endif

#define LUA_DEFAULT_MAX_BYTES 500000
#define LUA_DEFAULT_MAX_INSTR 500000
#define LUA_FLOWINTS_MAX 16

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
	/* a transaction need: its protocol, and the buffer match() gets as
	 * args[buf_name] (buf -1: none) read on side buf_side (-1: the side
	 * the rule is evaluated on) */
	uint16_t alproto;
	int buf, buf_side;
	int on_buf;                /* the keyword is a step of buf's list */
	char buf_name[48];
	/* the flowints init() registered: ids at engine build */
	char *flowints[LUA_FLOWINTS_MAX];
	int nflowints;
	const Signature *s;        /* the rule: suricata.rule, suricata.bytevar */
} DetectLua;

#ifdef HAVE_LUA

/* ---- counters ---- */

enum { LUA_ERR_ANY, LUA_ERR_INSTR, LUA_ERR_MEM, LUA_ERR_BLOCKED, LUA_ERR_MAX };
static counter_id c_err[LUA_ERR_MAX];
/* counters_generation() of the registration; 0: no lua rule was ever
 * loaded, so the counters are not shown (nor counted) */
static unsigned lua_counters_gen;
static int lua_rules_seen;

void lua_register_counters(void)
{
	static const char *const names[LUA_ERR_MAX] = {
		"detect.lua.errors",
		"detect.lua.instruction_limit_errors",
		"detect.lua.memory_limit_errors",
		"detect.lua.blocked_function_errors",
	};

	if (!lua_rules_seen || lua_counters_gen == counters_generation())
		return;
	for (int i = 0; i < LUA_ERR_MAX; i++)
		c_err[i] = counter_register(names[i]);
	lua_counters_gen = counters_generation();
}

static void count_error(DetectThread *dt, int cause)
{
	if (lua_counters_gen != counters_generation() || !dt->tc)
		return;
	counter_inc(dt->tc, c_err[LUA_ERR_ANY]);
	if (cause != LUA_ERR_ANY)
		counter_inc(dt->tc, c_err[cause]);
}

/* The script run, then init({}) called with regs collecting what it
 * registers: its needs table left on the stack (or nil). 0, or -1 with
 * the reason in err. */
static int script_start(lua_State *L, const DetectLua *ld, LuaInitRegs *regs, char *err,
			size_t errlen)
{
	int r = luaL_loadbuffer(L, ld->code, ld->code_len, ld->path);

	lua_sandbox_limit(L, ld->max_instr);
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
	lua_sandbox_limit(L, ld->max_instr);
	lua_init_regs_set(L, regs);
	r = lua_pcall(L, 1, 1, 0);
	lua_init_regs_set(L, NULL);
	if (r != LUA_OK) {
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

/* thread_init(), when the script has one: 0, or -1 (it failed) */
static int script_thread_init(lua_State *L, const DetectLua *ld)
{
	lua_getglobal(L, "thread_init");
	if (!lua_isfunction(L, -1)) {
		lua_pop(L, 1);
		return 0;
	}
	lua_sandbox_limit(L, ld->max_instr);
	return lua_pcall(L, 0, 0, 0) == LUA_OK ? 0 : -1;
}

/* needs[k] as Suricata reads it: true, or the string "true" (older
 * scripts' tostring(true)). */
static int need_value_set(lua_State *L, int idx)
{
	return lua_toboolean(L, idx) &&
	       !(lua_type(L, idx) == LUA_TSTRING && strcmp(lua_tostring(L, idx), "false") == 0);
}

static int need_set(lua_State *L, const char *k)
{
	int set;

	lua_getfield(L, -1, k);
	set = need_value_set(L, -1);
	lua_pop(L, 1);
	return set;
}

/* The transaction needs 8.0 knows: the protocol, and the buffer match()
 * gets (-1: none, the libraries read the transaction). */
static const struct LuaTxNeed {
	const char *name;
	uint16_t alproto;
	int buf, side;
} tx_needs[] = {
	{ "http.uri", ALPROTO_HTTP1, BUF_HTTP_URI, APP_DIR_TOSERVER },
	{ "http.uri.raw", ALPROTO_HTTP1, BUF_HTTP_RAW_URI, APP_DIR_TOSERVER },
	{ "http.request_line", ALPROTO_HTTP1, BUF_HTTP_REQUEST_LINE, APP_DIR_TOSERVER },
	{ "http.request_headers", ALPROTO_HTTP1, BUF_HTTP_HEADER, APP_DIR_TOSERVER },
	{ "http.request_headers.raw", ALPROTO_HTTP1, BUF_HTTP_RAW_HEADER, APP_DIR_TOSERVER },
	{ "http.request_cookie", ALPROTO_HTTP1, BUF_HTTP_COOKIE, APP_DIR_TOSERVER },
	{ "http.request_user_agent", ALPROTO_HTTP1, BUF_HTTP_USER_AGENT, APP_DIR_TOSERVER },
	{ "http.request_body", ALPROTO_HTTP1, BUF_HTTP_CLIENT_BODY, APP_DIR_TOSERVER },
	{ "http.response_line", ALPROTO_HTTP1, BUF_HTTP_RESPONSE_LINE, APP_DIR_TOCLIENT },
	{ "http.response_headers", ALPROTO_HTTP1, BUF_HTTP_HEADER, APP_DIR_TOCLIENT },
	{ "http.response_headers.raw", ALPROTO_HTTP1, BUF_HTTP_RAW_HEADER, APP_DIR_TOCLIENT },
	{ "http.response_body", ALPROTO_HTTP1, BUF_HTTP_SERVER_BODY, APP_DIR_TOCLIENT },
	{ "http.response_cookie", ALPROTO_HTTP1, BUF_HTTP_COOKIE, APP_DIR_TOCLIENT },
	/* the query's name, from the message the rule is evaluated on (a
	 * response repeats its request's question) */
	{ "dns.rrname", ALPROTO_DNS, BUF_DNS_QUERIES_RRNAME, -1 },
	{ "dns.request", ALPROTO_DNS, -1, APP_DIR_TOSERVER },
	{ "dns.response", ALPROTO_DNS, -1, APP_DIR_TOCLIENT },
	{ "ssh.client_proto", ALPROTO_SSH, BUF_SSH_PROTO, APP_DIR_TOSERVER },
	{ "ssh.server_proto", ALPROTO_SSH, BUF_SSH_PROTO, APP_DIR_TOCLIENT },
	{ "ssh.client_software", ALPROTO_SSH, BUF_SSH_SOFTWARE, APP_DIR_TOSERVER },
	{ "ssh.server_software", ALPROTO_SSH, BUF_SSH_SOFTWARE, APP_DIR_TOCLIENT },
	{ "ssh", ALPROTO_SSH, -1, APP_DIR_TOSERVER },
	{ "smtp", ALPROTO_SMTP, -1, APP_DIR_TOSERVER },
	{ "tls", ALPROTO_TLS, -1, APP_DIR_TOSERVER },
	{ "ja3", ALPROTO_TLS, -1, APP_DIR_TOSERVER },
	{ "ja3s", ALPROTO_TLS, -1, APP_DIR_TOCLIENT },
	{ "dnp3", ALPROTO_DNP3, -1, APP_DIR_TOSERVER },
};

/* ---- per thread ---- */

typedef struct LuaThreadState {
	const DetectLua *ld;
	lua_State *L;
	LuaMem *mem;               /* the allocator's: its own block, since the
	                            * array of states moves as it grows */
	int broken;                /* its start failed: never matches */
	unsigned logged;           /* 1 << LUA_ERR_*: the causes already logged */
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
	LuaInitRegs regs = { .s = ld->s };
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
	ts->L = ts->mem ? lua_sandbox_new(ts->mem, ld->max_bytes, ld->restricted) : NULL;
	if (!ts->L || script_start(ts->L, ld, &regs, err, sizeof(err)) != 0 ||
	    script_thread_init(ts->L, ld) != 0) {
		ts->broken = 1;
		count_error(dt, LUA_ERR_ANY);
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

/* The cause of a failed call, for the counters: what the sandbox noted,
 * else a script error. */
static int error_cause(const LuaMem *mem, int rc)
{
	if (mem->blocked)
		return LUA_ERR_BLOCKED;
	if (mem->instr)
		return LUA_ERR_INSTR;
	if (rc == LUA_ERRMEM || mem->hit)
		return LUA_ERR_MEM;
	return LUA_ERR_ANY;
}

/* A failed call: counted, and logged once per thread and cause as 8.0
 * does ("Lua script failed to run successfully: <reason>", Lua's message
 * naming the script and line), so a script failing on every packet does
 * not flood the log. */
static void call_failed(DetectThread *dt, LuaThreadState *ts, int rc)
{
	int cause = error_cause(ts->mem, rc);
	const char *reason = lua_tostring(ts->L, -1);

	count_error(dt, cause);
	if (ts->logged & (1u << cause))
		return;
	ts->logged |= 1u << cause;
	if (cause == LUA_ERR_MEM)
		reason = LUA_MEM_MSG;
	log_warning("Lua script failed to run successfully: %s", reason ? reason : "error");
}

/* match(args): 1 when it returned 1 (or true), the keyword's negation
 * applied. An error (a limit reached) is no match, as in Suricata. */
static int lua_run(DetectThread *dt, const DetectLua *ld, Packet *p, const InspectBuffer *b)
{
	LuaThreadState *ts;
	lua_State *L;
	LuaCtx ctx;
	int r = 0, rc;

	if (!p || !(ts = thread_state(dt, ld)))
		return 0;
	L = ts->L;
	ctx = (LuaCtx){ .dt = dt, .p = p, .f = p->flow, .s = ld->s };
	if (dt->insp_tx) {
		ctx.tx = dt->insp_tx->tx;
		ctx.side = dt->insp_tx->side;
	}
	lua_ctx_set(L, &ctx);
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

	/* on the need's buffer list, the entry inspected (one query of
	 * dns.rrname); a transaction match reads the buffer itself */
	if (ld->buf >= 0 && ld->on_buf && b) {
		push_arg(L, ld->buf_name, b->data, b->len);
	} else if (ld->buf >= 0 && ctx.tx) {
		lua_push_detect_buffer(L, ld->buf, ctx.tx, ld->buf_side < 0 ? ctx.side : ld->buf_side);
		lua_setfield(L, -2, ld->buf_name);
	}
	lua_sandbox_reset(ts->mem);
	lua_sandbox_limit(L, ld->max_instr);
	rc = lua_pcall(L, 1, 1, 0);
	if (rc != LUA_OK) {
		/* a failed call is no match, negated or not (8.0: a "lua:!"
		 * script that errors does not alert) */
		call_failed(dt, ts, rc);
		lua_settop(L, 0);
		lua_ctx_set(L, NULL);
		return 0;
	}
	if (lua_isboolean(L, -1))
		r = lua_toboolean(L, -1);
	else
		r = lua_tointeger(L, -1) == 1;
	lua_settop(L, 0);
	lua_ctx_set(L, NULL);
	return ld->negated ? !r : r;
}

static int lua_match(DetectThread *dt, const SigMatch *m, Packet *p)
{
	return lua_run(dt, m->ctx, p, NULL);
}

/* KW_LUA_TX: on a transaction only (tx-inspect.c notes it in dt) */
static int lua_tx_match(DetectThread *dt, const SigMatch *m, Packet *p)
{
	if (!dt->insp_tx || !dt->insp_tx->tx)
		return 0;
	return lua_run(dt, m->ctx, p, NULL);
}

static int lua_step(DetectThread *dt, const Signature *s, const SigMatchList *ml, int idx,
		    const InspectBuffer *b, uint32_t prev)
{
	if (!lua_run(dt, ml->m[idx].ctx, dt->pkt ? dt->pkt->p : NULL, b))
		return 0;
	return inspect_next(dt, s, ml, idx + 1, b, prev);
}

int lua_sig_flowints(const SigMatch *m, const char **names, int max)
{
	const DetectLua *ld = m->ctx;
	int n = 0;

	for (int i = 0; i < ld->nflowints && n < max; i++)
		names[n++] = ld->flowints[i];
	return n;
}

/* ---- setup ---- */

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
	for (int i = 0; i < ld->nflowints; i++)
		free(ld->flowints[i]);
}

/* 7.0's needs["flowint"] = { "a", "b" } (and flowvar's): registrations */
static void need_names(lua_State *L, const char *k, const char **list, int *n)
{
	lua_getfield(L, -1, k);
	if (lua_istable(L, -1)) {
		for (lua_Integer i = 1;; i++) {
			lua_rawgeti(L, -1, i);
			if (!lua_isstring(L, -1) || *n >= LUA_VARS_MAX) {
				lua_pop(L, 1);
				break;
			}
			lua_init_reg_add(L, list, n, lua_tostring(L, -1));
			lua_pop(L, 1);
		}
	}
	lua_pop(L, 1);
}

/* Reads init()'s needs table (on top of L's stack) into ld; the
 * transaction need (one: the first of the table that is set). */
static int needs_read(lua_State *L, DetectLua *ld, LuaInitRegs *regs, char *err, size_t errlen)
{
	ld->needs |= need_set(L, "packet") ? NEED_PACKET : 0;
	ld->needs |= need_set(L, "payload") ? NEED_PAYLOAD : 0;
	ld->needs |= need_set(L, "stream") ? NEED_STREAM : 0;
	ld->needs |= need_set(L, "buffer") ? NEED_BUFFER : 0;
	ld->buf = -1;
	for (size_t i = 0; i < sizeof(tx_needs) / sizeof(tx_needs[0]); i++) {
		if (!need_set(L, tx_needs[i].name))
			continue;
		if (ld->alproto && ld->alproto != tx_needs[i].alproto) {
			snprintf(err, errlen, "lua: needs of two protocols");
			return -1;
		}
		ld->alproto = tx_needs[i].alproto;
		if (tx_needs[i].buf >= 0 && ld->buf < 0) {
			ld->buf = tx_needs[i].buf;
			ld->buf_side = tx_needs[i].side;
			snprintf(ld->buf_name, sizeof(ld->buf_name), "%s", tx_needs[i].name);
		}
	}
	need_names(L, "flowint", regs->flowint, &regs->nflowint);
	need_names(L, "flowvar", regs->flowvar, &regs->nflowvar);
	return 0;
}

static int kw_lua(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectLua *ld;
	lua_State *L;
	LuaMem mem;
	LuaInitRegs regs = { .s = st->s };
	const char *p, *end;
	char name[1024], err[512] = "";
	int allow = 1, list, rc, id = KW_LUA;

	(void)kw;
	if (conf_get_bool("security.lua.allow-rules", &allow) < 0)
		return sig_error(st, "security.lua.allow-rules: expected yes or no");
	if (!allow)
		return sig_error(st, "Lua rules disabled by security configuration: "
				 "security.lua.allow-rules");
	if (!(ld = calloc(1, sizeof(*ld))))
		return sig_error(st, "out of memory");
	ld->s = st->s;
	ld->buf = -1;
	p = sig_arg_negation(arg, &ld->negated, &end);
	snprintf(name, sizeof(name), "%.*s", (int)(end - p), p);
	if (limit_get("security.lua.max-bytes", LUA_DEFAULT_MAX_BYTES, &ld->max_bytes, err,
		      sizeof(err)) != 0 ||
	    limit_get("security.lua.max-instructions", LUA_DEFAULT_MAX_INSTR, &ld->max_instr, err,
		      sizeof(err)) != 0 ||
	    conf_get_bool("security.lua.allow-restricted-functions", &ld->restricted) < 0 ||
	    lua_script_load(name, &ld->code, &ld->code_len, &ld->path, err, sizeof(err)) != 0)
		goto fail;
	/* checked now, on a state of its own: a script that does not load or
	 * has no init/match fails the rule, not the packets. script_start
	 * leaves init()'s needs on the stack. */
	if (!(L = lua_sandbox_new(&mem, ld->max_bytes, ld->restricted))) {
		snprintf(err, sizeof(err), "out of memory");
		goto fail;
	}
	if (script_start(L, ld, &regs, err, sizeof(err)) != 0) {
		lua_close(L);
		goto fail;
	}
	if (lua_istable(L, -1) && needs_read(L, ld, &regs, err, sizeof(err)) != 0) {
		lua_close(L);
		goto fail;
	}
	for (int i = 0; i < regs.nflowint && ld->nflowints < LUA_FLOWINTS_MAX; i++)
		if ((ld->flowints[ld->nflowints] = strdup(regs.flowint[i])))
			ld->nflowints++;
	lua_close(L);
	if (ld->alproto &&
	    sig_set_alproto_for(st, kw->name, ld->alproto, ld->alproto == ALPROTO_DNS, "a matching"))
		goto fail_quiet;
	if (st->cur_buf >= 0) {
		list = st->cur_buf;
	} else if (ld->needs & (NEED_PAYLOAD | NEED_STREAM)) {
		list = sig_cur_list(st);
	} else if (ld->buf >= 0) {
		/* Suricata 8 puts the script on its buffer's list: it runs when
		 * the transaction's buffer is inspected (the request line once
		 * the request line is in), not when the transaction is over.
		 * A buffer of both sides gets the need's side, as
		 * "http.header: to_client;" would; the rule's sticky buffer
		 * stays what it was. */
		int sticky = st->cur_buf;

		st->cur_buf = ld->buf;
		if (ld->buf_side >= 0 && detect_buffers[ld->buf].side == DBUF_EVAL &&
		    sig_buffer_side(st, ld->buf_side) != 0) {
			st->cur_buf = sticky;
			goto fail_quiet;
		}
		list = st->cur_buf;
		st->cur_buf = sticky;
		ld->on_buf = 1;
	} else if (st->s->alproto != ALPROTO_UNKNOWN) {
		/* a transaction rule: the libraries read its transaction */
		list = SM_LIST_MATCH;
		id = KW_LUA_TX;
		st->s->flags |= SIG_FLAG_TX_MATCH;
	} else {
		list = SM_LIST_MATCH;
	}
	if ((rc = sm_append(st, list, id, ld)) < 0) {
		lua_ctx_free(ld);
		free(ld);
		return rc;
	}
	if (list != SM_LIST_MATCH && !ld->on_buf)
		st->last_inspect_list = list;
	lua_rules_seen = 1;
	return 0;
fail:
	lua_ctx_free(ld);
	free(ld);
	return sig_error(st, "%s", err);
fail_quiet:
	lua_ctx_free(ld);
	free(ld);
	return -1;
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

static int lua_tx_match(DetectThread *dt, const SigMatch *m, Packet *p)
{
	return lua_match(dt, m, p);
}

int lua_sig_flowints(const SigMatch *m, const char **names, int max)
{
	(void)m;
	(void)names;
	(void)max;
	return 0;
}

void lua_register_counters(void)
{
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
	/* on a transaction (a protocol need, or a protocol's rule) */
	{ .name = "lua", .id = KW_LUA_TX, .setup = kw_lua, .flags = NEED | SQ | KWF_TX | KWF_ID_ONLY,
	  .buf = -1, .desc = "a Lua script on a transaction", .match = lua_tx_match,
	  .free = lua_ctx_free },
	{ .name = NULL },
};
