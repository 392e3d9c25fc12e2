/* suricata.dns: the DNS transaction of the call (Suricata 8's "DNS"
 * library): get_tx(), then its methods queries(), answers(),
 * authorities(), rcode(), rcode_string(), recursion_desired(), rrname(),
 * txid() (8.0's documented form, "tx:answers()"); the same functions are
 * kept on the module itself for the scripts written against 8.0's
 * development form. A section's entries are tables of rrname, type (the
 * mnemonic) and, for records, ttl and addr (A, AAAA) or rdata (names).
 * The methods read the call's transaction, not their self. */
#include "config.h"

#ifdef HAVE_LUA

#include "detect/lua/lua-int.h"
#include "app-layer/app-layer.h"
#include "app-layer/dns-parse.h"

#include <stdio.h>

static const struct dns_tx *cur_tx(lua_State *L)
{
	const struct dns_tx *tx = lua_ctx_tx(L, ALPROTO_DNS);

	if (!tx)
		luaL_error(L, "no DNS transaction");
	return tx;
}

/* The message the header fields come from: the response when there is
 * one (rcode is its), else the request. */
static const struct dns_msg *cur_msg(lua_State *L)
{
	const struct dns_tx *tx = cur_tx(L);

	return tx->response ? tx->response : tx->request;
}

static void set_str(lua_State *L, const char *k, const uint8_t *d, uint32_t len)
{
	lua_pushlstring(L, (const char *)d, len);
	lua_setfield(L, -2, k);
}

static void set_type(lua_State *L, uint16_t rrtype)
{
	char buf[DNS_NAME_BUF];

	lua_pushstring(L, dns_rrtype_format(rrtype, buf, sizeof(buf)));
	lua_setfield(L, -2, "type");
}

static int dns_queries(lua_State *L)
{
	const struct dns_tx *tx = cur_tx(L);
	const struct dns_msg *m = tx->request ? tx->request : tx->response;

	if (!m)
		return 0;
	lua_newtable(L);
	for (uint32_t i = 0; i < m->nqueries; i++) {
		lua_newtable(L);
		set_str(L, "rrname", m->queries[i].name.s.ptr, m->queries[i].name.s.len);
		set_type(L, m->queries[i].rrtype);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	return 1;
}

static int push_section(lua_State *L, int sec)
{
	const struct dns_msg *m = cur_tx(L)->response;

	if (!m)
		return 0;
	lua_newtable(L);
	for (uint32_t i = 0; i < m->nrrs[sec]; i++) {
		const struct dns_rr *rr = &m->rrs[sec][i];

		lua_newtable(L);
		set_str(L, "rrname", rr->name.s.ptr, rr->name.s.len);
		set_type(L, rr->rrtype);
		lua_pushinteger(L, rr->ttl);
		lua_setfield(L, -2, "ttl");
		if (rr->kind == DNS_RD_A || rr->kind == DNS_RD_AAAA) {
			lua_push_addr(L, rr->kind == DNS_RD_A ? 4 : 6, rr->rd.addr);
			lua_setfield(L, -2, "addr");
		} else if (rr->kind == DNS_RD_NAME) {
			set_str(L, "rdata", rr->rd.name.s.ptr, rr->rd.name.s.len);
		}
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	return 1;
}

static int dns_answers(lua_State *L) { return push_section(L, DNS_SEC_ANSWER); }
static int dns_authorities(lua_State *L) { return push_section(L, DNS_SEC_AUTHORITY); }

static int dns_rcode(lua_State *L)
{
	const struct dns_msg *m = cur_msg(L);

	if (!m)
		return 0;
	lua_pushinteger(L, m->rcode);
	return 1;
}

static int dns_rcode_string(lua_State *L)
{
	const struct dns_msg *m = cur_msg(L);
	char buf[DNS_NAME_BUF];

	if (!m)
		return 0;
	lua_pushstring(L, dns_rcode_format(m->rcode, buf, sizeof(buf)));
	return 1;
}

static int dns_recursion_desired(lua_State *L)
{
	const struct dns_msg *m = cur_msg(L);

	if (!m)
		return 0;
	lua_pushboolean(L, m->rd);
	return 1;
}

static int dns_rrname(lua_State *L)
{
	const struct dns_tx *tx = cur_tx(L);
	const struct dns_msg *m = tx->request ? tx->request : tx->response;

	if (!m || !m->nqueries)
		return 0;
	lua_pushlstring(L, (const char *)m->queries[0].name.s.ptr, m->queries[0].name.s.len);
	return 1;
}

static int dns_txid(lua_State *L)
{
	const struct dns_msg *m = cur_msg(L);

	if (!m)
		return 0;
	lua_pushinteger(L, m->id);
	return 1;
}

static const luaL_Reg dns_methods[] = {
	{ "queries", dns_queries },
	{ "answers", dns_answers },
	{ "authorities", dns_authorities },
	{ "rcode", dns_rcode },
	{ "rcode_string", dns_rcode_string },
	{ "recursion_desired", dns_recursion_desired },
	{ "rrname", dns_rrname },
	{ "txid", dns_txid },
	{ NULL, NULL },
};

/* tx, or nil and "error: no tx available" outside a DNS transaction */
static int dns_get_tx(lua_State *L)
{
	if (!lua_ctx_tx(L, ALPROTO_DNS))
		return 2;
	luaL_newlib(L, dns_methods);
	return 1;
}

int luaopen_suricata_dns(lua_State *L)
{
	luaL_newlib(L, dns_methods);
	lua_pushcfunction(L, dns_get_tx);
	lua_setfield(L, -2, "get_tx");
	return 1;
}

#endif /* HAVE_LUA */
