/* Suricata 8's Lua libraries ("require('suricata.http')", ...) for the lua
 * rule keyword (detect/lua-kw.c): one file per library, each an opener in
 * the registry table of lua-libs.c (name -> luaopen function).
 *
 * What a library reads (the packet, its flow, the transaction the rule is
 * evaluated on, the rule) is the call's LuaCtx: made on the caller's stack
 * for one match() call and reached through the state's extra space
 * (lua_getextraspace), so no library keeps a pointer between calls and a
 * call costs no allocation. Outside a call (init(), thread_init()) the
 * context is NULL and the libraries that need one raise a Lua error, which
 * the caller counts. */
#ifndef DETECT_LUA_INT_H
#define DETECT_LUA_INT_H

#include <lauxlib.h>
#include <lua.h>
#include <stdint.h>

struct DetectThread;
struct Packet;
struct Flow;
struct Signature;
struct File;

typedef struct LuaCtx {
	struct DetectThread *dt;  /* NULL: not in detection */
	struct Packet *p;         /* may be NULL */
	struct Flow *f;           /* p's flow, or NULL */
	void *tx;                 /* the transaction evaluated, or NULL */
	int side;                 /* APP_DIR_* of tx's evaluation */
	const struct Signature *s; /* the rule, or NULL */
	struct File *file;         /* an output's file (suricata.file), or NULL */
	/* a streaming output's chunk (args.stream), or NULL data */
	const uint8_t *stream;
	uint32_t stream_len;
	unsigned stream_flags;     /* LUA_STREAM_* */
} LuaCtx;

#define LUA_STREAM_OPEN 0x01
#define LUA_STREAM_CLOSE 0x02
#define LUA_STREAM_TOSERVER 0x04
#define LUA_STREAM_TOCLIENT 0x08

static inline LuaCtx *lua_ctx(lua_State *L)
{
	return *(LuaCtx **)lua_getextraspace(L);
}

static inline void lua_ctx_set(lua_State *L, LuaCtx *c)
{
	*(LuaCtx **)lua_getextraspace(L) = c;
}

/* The call's context, or a Lua error ("no packet", ...) naming what. */
LuaCtx *lua_ctx_need(lua_State *L, const char *what);
/* The transaction of protocol alproto the call is on: NULL with nil and a
 * message pushed (the "tx, err = lib.get_tx()" convention). */
void *lua_ctx_tx(lua_State *L, uint16_t alproto);
/* Pushes bytes as a Lua string; NULL pushes nil. */
void lua_push_bytes(lua_State *L, const uint8_t *d, uint32_t len);
/* Pushes buffer id (enum sig_buffer) of tx on side, entry 0, through the
 * detection-buffer registry: 1 pushed (a string, or nil when absent). */
int lua_push_detect_buffer(lua_State *L, int buf, void *tx, int side);

/* Pushes tv as fast.log's "11/24/2009-18:57:25.179869" (iso 0) or eve's
 * "2009-11-24T18:57:25.179869+0100" (iso 1), in local time as they are. */
struct timeval;
void lua_push_timestring(lua_State *L, const struct timeval *tv, int iso);
/* Pushes an address of family 4 or 6 as text. */
void lua_push_addr(lua_State *L, int ipver, const void *addr);

/* ---- the sandbox (lua-sandbox.c) ---- */

/* The allocator's account: its own block, never moved while the state
 * lives (the state's lua_Alloc userdata, so the sandbox's hooks reach it
 * through lua_getallocf). What stopped the last call, for the counters and
 * the error's text, as 8.0 tells them apart: hit, a growth was refused
 * (max-bytes); instr, the instruction cap; blocked, a function the
 * sandbox blocks was called. lua_sandbox_reset() clears them. */
typedef struct LuaMem {
	size_t used, max;
	int hit, instr, blocked;
} LuaMem;

/* A state with Suricata 8's sandbox (restricted: every standard library
 * instead), allocations capped at max_bytes (0: none); NULL without
 * memory. */
lua_State *lua_sandbox_new(LuaMem *mem, uint64_t max_bytes, int restricted);
/* The instruction cap for the next call (0: none). */
void lua_sandbox_limit(lua_State *L, uint64_t max_instr);
/* Clears what stopped the last call (LuaMem's hit, instr, blocked). */
void lua_sandbox_reset(LuaMem *mem);
/* What a call's error says when the sandbox stopped it, in 8.0's words
 * (the engine log's "Lua script failed to run successfully: ..."). */
#define LUA_INSTR_MSG "Instruction limit exceeded"
#define LUA_MEM_MSG "memory limit exceeded"
#define LUA_BLOCKED_MSG "Blocked Lua function called"

/* A rule's script by name: an absolute path as is, else under
 * default-rule-path, else from the working folder. 0 with its text (NUL
 * ended) and the path found, both malloc'd; -1 with the reason. */
int lua_script_load(const char *name, char **code, size_t *code_len, char **path, char *err,
		    size_t errlen);

/* An output script's globals beside the libraries (lua-globals.c):
 * SCLogPath, SCLog<Level>, SCThreadInfo, SCStreamingBuffer. */
void lua_output_globals_open(lua_State *L);

/* The registry: library name -> opener. NULL: no such library. */
lua_CFunction lua_lib_find(const char *name);

/* What a script's init() registered (flowint / flowvar / bytevar names):
 * filled while init() runs at rule load, then read by the keyword. */
#define LUA_VARS_MAX 16
typedef struct LuaInitRegs {
	const char *flowint[LUA_VARS_MAX];
	const char *flowvar[LUA_VARS_MAX];
	const char *bytevar[LUA_VARS_MAX];
	int nflowint, nflowvar, nbytevar;
	const struct Signature *s;    /* the rule being loaded */
} LuaInitRegs;
/* Adds name to one of r's lists (a copy the Lua state owns: the keyword
 * copies what it keeps). A Lua error when the list is full. */
void lua_init_reg_add(lua_State *L, const char **list, int *n, const char *name);
/* The registration table init() writes into, or NULL outside init(). */
LuaInitRegs *lua_init_regs(lua_State *L);
void lua_init_regs_set(lua_State *L, LuaInitRegs *r);

int luaopen_suricata_packet(lua_State *L);
int luaopen_suricata_flow(lua_State *L);
int luaopen_suricata_http(lua_State *L);
int luaopen_suricata_dns(lua_State *L);
int luaopen_suricata_tls(lua_State *L);
int luaopen_suricata_ja3(lua_State *L);
int luaopen_suricata_ssh(lua_State *L);
int luaopen_suricata_smtp(lua_State *L);
int luaopen_suricata_hashing(lua_State *L);
int luaopen_suricata_base64(lua_State *L);
int luaopen_suricata_flowvar(lua_State *L);
int luaopen_suricata_flowint(lua_State *L);
int luaopen_suricata_bytevar(lua_State *L);
int luaopen_suricata_config(lua_State *L);
int luaopen_suricata_log(lua_State *L);
int luaopen_suricata_rule(lua_State *L);
int luaopen_suricata_util(lua_State *L);
int luaopen_suricata_dnp3(lua_State *L);
int luaopen_suricata_file(lua_State *L);

#endif
