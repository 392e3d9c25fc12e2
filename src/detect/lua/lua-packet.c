/* suricata.packet: the packet the call is on (Suricata 8's "Packet"
 * library): get(), then :timestamp(), :timestring_legacy(),
 * :timestring_iso8601(), :tuple(), :sp(), :dp(), :payload(), :packet(),
 * :pcap_cnt(). */
#include "config.h"

#ifdef HAVE_LUA

#include "detect/lua/lua-int.h"
#include "decode/packet.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/time.h>
#include <time.h>

void lua_push_timestring(lua_State *L, const struct timeval *tv, int iso)
{
	char buf[64], zone[16];
	time_t t = tv->tv_sec;
	struct tm tm;

	localtime_r(&t, &tm);
	if (iso) {
		strftime(zone, sizeof(zone), "%z", &tm);
		snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%06ld%s",
			 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
			 tm.tm_sec, (long)tv->tv_usec, zone);
	} else {
		snprintf(buf, sizeof(buf), "%02d/%02d/%04d-%02d:%02d:%02d.%06ld", tm.tm_mon + 1,
			 tm.tm_mday, tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec,
			 (long)tv->tv_usec);
	}
	lua_pushstring(L, buf);
}

void lua_push_addr(lua_State *L, int ipver, const void *addr)
{
	char s[INET6_ADDRSTRLEN] = "";

	inet_ntop(ipver == 6 ? AF_INET6 : AF_INET, addr, s, sizeof(s));
	lua_pushstring(L, s);
}

static Packet *cur_packet(lua_State *L)
{
	LuaCtx *c = lua_ctx_need(L, "packet");

	if (!c->p)
		luaL_error(L, "no packet");
	return c->p;
}

static int pkt_payload(lua_State *L)
{
	Packet *p = cur_packet(L);

	lua_pushlstring(L, p->payload ? (const char *)p->payload : "",
			p->payload ? p->payload_len : 0);
	return 1;
}

static int pkt_packet(lua_State *L)
{
	Packet *p = cur_packet(L);

	lua_pushlstring(L, (const char *)p->data, p->caplen);
	return 1;
}

static int is_icmp(const Packet *p)
{
	return p->proto == IPPROTO_ICMP || p->proto == IPPROTO_ICMPV6;
}

/* ipver, srcip, dstip, proto, then sp, dp or, on ICMP, type and code */
static int pkt_tuple(lua_State *L)
{
	Packet *p = cur_packet(L);

	if (!p->ip_version)
		return 0;
	lua_pushinteger(L, p->ip_version);
	lua_push_addr(L, p->ip_version, &p->src.a);
	lua_push_addr(L, p->ip_version, &p->dst.a);
	lua_pushinteger(L, p->proto);
	lua_pushinteger(L, is_icmp(p) ? p->icmp_type : p->sp);
	lua_pushinteger(L, is_icmp(p) ? p->icmp_code : p->dp);
	return 6;
}

/* the port, or nil for a protocol without ports */
static int push_port(lua_State *L, const Packet *p, uint16_t port)
{
	if (p->proto == IPPROTO_TCP || p->proto == IPPROTO_UDP || p->proto == IPPROTO_SCTP)
		lua_pushinteger(L, port);
	else
		lua_pushnil(L);
	return 1;
}

static int pkt_sp(lua_State *L)
{
	Packet *p = cur_packet(L);

	return push_port(L, p, p->sp);
}

static int pkt_dp(lua_State *L)
{
	Packet *p = cur_packet(L);

	return push_port(L, p, p->dp);
}

static int pkt_timestamp(lua_State *L)
{
	Packet *p = cur_packet(L);

	lua_pushinteger(L, p->ts.tv_sec);
	lua_pushinteger(L, p->ts.tv_usec);
	return 2;
}

static int pkt_timestring_legacy(lua_State *L)
{
	lua_push_timestring(L, &cur_packet(L)->ts, 0);
	return 1;
}

static int pkt_timestring_iso8601(lua_State *L)
{
	lua_push_timestring(L, &cur_packet(L)->ts, 1);
	return 1;
}

static int pkt_pcap_cnt(lua_State *L)
{
	lua_pushinteger(L, (lua_Integer)cur_packet(L)->pcap_cnt);
	return 1;
}

static int pkt_get(lua_State *L)
{
	static const luaL_Reg methods[] = {
		{ "payload", pkt_payload },
		{ "packet", pkt_packet },
		{ "tuple", pkt_tuple },
		{ "sp", pkt_sp },
		{ "dp", pkt_dp },
		{ "timestamp", pkt_timestamp },
		{ "timestring_legacy", pkt_timestring_legacy },
		{ "timestring_iso8601", pkt_timestring_iso8601 },
		{ "pcap_cnt", pkt_pcap_cnt },
		{ NULL, NULL },
	};

	cur_packet(L);
	luaL_newlib(L, methods);
	return 1;
}

int luaopen_suricata_packet(lua_State *L)
{
	static const luaL_Reg lib[] = { { "get", pkt_get }, { NULL, NULL } };

	luaL_newlib(L, lib);
	return 1;
}

#endif /* HAVE_LUA */
