/* eve "netflow" records: a flow's two directions as two one-way records at
 * its end, as Suricata's netflow type writes them. The first goes from the
 * flow's client to its server, the second (only when the server sent
 * packets) the other way: each with its own tuple, app_proto (that side's
 * own detection result where it has one), packet and byte counts, and for
 * TCP the flags that side sent. The flow type's record is eve.c's; this one
 * shares only the header writer. */
#include "output/output-private.h"
#include "output/json-writer.h"

#include <netinet/in.h>
#include <string.h>

/* the TCP flag names Suricata lists (those seen, as true) */
static const struct {
	uint8_t bit;
	const char *name;
} tcp_flag_names[] = {
	{ TH_SYN, "syn" }, { TH_FIN, "fin" }, { TH_RST, "rst" }, { TH_PSH, "psh" },
	{ TH_ACK, "ack" }, { TH_URG, "urg" }, { TH_ECE, "ecn" }, { TH_CWR, "cwr" },
};

static void write_time(JsonWriter *w, const char *key, const struct timeval *tv)
{
	char buf[48];

	eve_format_ts(tv, buf, sizeof(buf));
	jw_str(w, key, buf);
}

/* One direction's record: to_client 0 is the client's side. */
static void build_one(JsonWriter *w, const FlowRecordView *v, int to_client)
{
	const Flow *f = &v->f;
	uint16_t own = to_client ? f->app_proto_tc : f->app_proto_ts;
	const char *app = output_app_proto_name(own ? own : f->app_proto);
	uint8_t flags = to_client ? f->tcp_flags_tc : f->tcp_flags_ts;
	char hex[3];

	eve_header_write_dir(w, &f->last, "netflow", f, to_client);
	if (f->app_proto && app)
		jw_str(w, "app_proto", app);
	jw_object(w, "netflow");
	jw_int(w, "pkts", (int64_t)(to_client ? f->pkts_toclient : f->pkts_toserver));
	jw_int(w, "bytes", (int64_t)(to_client ? f->bytes_toclient : f->bytes_toserver));
	write_time(w, "start", &f->start);
	write_time(w, "end", &f->last);
	/* whole seconds between the first and the last packet, as "flow" */
	jw_int(w, "age", (int64_t)(f->last.tv_sec - f->start.tv_sec));
	/* the TTL range that side's packets carried (the server's record
	 * exists only when it sent some) */
	jw_int(w, "min_ttl", f->min_ttl[to_client]);
	jw_int(w, "max_ttl", f->max_ttl[to_client]);
	/* Suricata 8: the flow's transaction count when it had an app layer,
	 * as the flow record's */
	if (v->tx_cnt)
		jw_int(w, "tx_cnt", (int64_t)v->tx_cnt);
	jw_close(w);
	if (f->proto != IPPROTO_TCP)
		return;
	jw_object(w, "tcp");
	hex[0] = "0123456789abcdef"[flags >> 4];
	hex[1] = "0123456789abcdef"[flags & 15];
	hex[2] = '\0';
	jw_ascii(w, "tcp_flags", hex, 2);
	for (size_t i = 0; i < sizeof(tcp_flag_names) / sizeof(tcp_flag_names[0]); i++)
		if (flags & tcp_flag_names[i].bit)
			jw_bool(w, tcp_flag_names[i].name, 1);
	jw_close(w);
}

void netflow_records_write(Outputs *o, const FlowRecordView *v)
{
	const Flow *f = &v->f;

	for (int to_client = 0; to_client < 2; to_client++) {
		JsonWriter w;
		char line[2048];   /* a netflow record is a few hundred bytes */

		/* the server's record only when it sent something */
		if (to_client && !f->pkts_toclient)
			break;
		jw_begin(&w, line, sizeof(line));
		build_one(&w, v, to_client);
		eve_write_line(o, "netflow", line, jw_end(&w));
	}
}
