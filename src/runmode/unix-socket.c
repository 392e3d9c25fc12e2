/* The unix socket: Suricata's command protocol (unix-socket.h). */
#include "config.h"

#include "runmode/unix-socket.h"
#include "runmode/unix-socket-dataset.h"
#include "runmode/reload.h"
#include "runmode/pcap-queue.h"
#include "runmode/runmode.h"
#include "app-layer/ftp.h"
#include "app-layer/http-mem.h"
#include "conf/conf.h"
#include "decode/defrag.h"
#include "detect/engine.h"
#include "flow/flow.h"
#include "stats/counters.h"
#include "stream/stream.h"
#include "util/log.h"

#include <arpa/inet.h>

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define VERSION_ANSWER "8.0.7 RELEASE"
#define RUN_DIR BUILD_LOCALSTATEDIR "/run/suricata/"
/* Suricata's limits: a client message is one JSON object of at most this */
#define MSG_MAX 4096
#define CLIENTS_MAX 16

typedef struct Client {
	int fd;
	int version;                   /* 0: no handshake yet; 1: 0.1; 2: 0.2 */
	uint64_t active_ns;            /* connected, or last sent or answered (monotonic) */
	char buf[MSG_MAX + 1];
	size_t len;
} Client;

struct UnixSocket {
	UnixSocketConfig cfg;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	int lfd;
	Client clients[CLIENTS_MAX];
	pthread_t thread;
	int started;
	_Atomic int stop;
	struct timespec started_at;
};

typedef int (*cmd_fn)(UnixSocket *u, json_t *args, json_t *answer);

typedef struct Command {
	const char *name;
	cmd_fn fn;
	int takes_args;                /* needs an "arguments" object */
	int pcap_only;                 /* the unix-socket runmode's commands */
} Command;

static int available(const UnixSocket *u, const Command *c)
{
	return !c->pcap_only || u->cfg.pcap;
}

static void set_msg(json_t *answer, const char *msg)
{
	json_object_set_new(answer, "message", json_string(msg));
}

/* ---- the commands ---- */

static const Command *commands(unsigned *n);

static int cmd_list(UnixSocket *u, json_t *args, json_t *answer)
{
	unsigned n;
	const Command *c = commands(&n);
	json_t *m = json_object(), *a = json_array();

	unsigned shown = 0;

	(void)args;
	for (unsigned i = 0; i < n; i++) {
		if (!available(u, &c[i]))
			continue;
		json_array_append_new(a, json_string(c[i].name));
		shown++;
	}
	json_object_set_new(m, "count", json_integer(shown));
	json_object_set_new(m, "commands", a);
	json_object_set_new(answer, "message", m);
	return 0;
}

static int cmd_shutdown(UnixSocket *u, json_t *args, json_t *answer)
{
	(void)args;
	/* the flag SIGTERM sets (another thread writes it here) */
	if (u->cfg.ctl)
		__atomic_store_n(&u->cfg.ctl->stop, 1, __ATOMIC_RELAXED);
	set_msg(answer, "Closing Suricata");
	return 0;
}

static int cmd_version(UnixSocket *u, json_t *args, json_t *answer)
{
	(void)u;
	(void)args;
	set_msg(answer, VERSION_ANSWER);
	return 0;
}

static uint64_t uptime(const UnixSocket *u)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)(now.tv_sec - u->started_at.tv_sec);
}

static int cmd_uptime(UnixSocket *u, json_t *args, json_t *answer)
{
	(void)args;
	json_object_set_new(answer, "message", json_integer((json_int_t)uptime(u)));
	return 0;
}

static int cmd_running_mode(UnixSocket *u, json_t *args, json_t *answer)
{
	(void)args;
	set_msg(answer, u->cfg.runmode ? u->cfg.runmode : "single");
	return 0;
}

static int cmd_capture_mode(UnixSocket *u, json_t *args, json_t *answer)
{
	(void)args;
	set_msg(answer, u->cfg.capture_mode ? u->cfg.capture_mode : "PCAP_FILE");
	return 0;
}

static int cmd_conf_get(UnixSocket *u, json_t *args, json_t *answer)
{
	json_t *v = json_object_get(args, "variable");
	const char *val;

	(void)u;
	if (!json_is_string(v)) {
		set_msg(answer, "variable is not a string");
		return -1;
	}
	/* a reload may replace the detection keys meanwhile */
	conf_lock();
	val = conf_get(json_string_value(v));
	if (val)
		set_msg(answer, val);
	conf_unlock();
	if (!val) {
		set_msg(answer, "Unable to get value");
		return -1;
	}
	return 0;
}

/* "a.b.c" = v into root, as eve's stats record nests the names. */
static void nest(json_t *root, const char *name, uint64_t v)
{
	char part[128];
	const char *p = name, *dot;
	json_t *node = root;

	while ((dot = strchr(p, '.'))) {
		size_t l = (size_t)(dot - p);
		json_t *c;

		if (l >= sizeof(part))
			return;
		memcpy(part, p, l);
		part[l] = 0;
		c = json_object_get(node, part);
		if (!c) {
			c = json_object();
			json_object_set_new(node, part, c);
		} else if (!json_is_object(c)) {
			return;     /* a counter and a group of the same name */
		}
		node = c;
		p = dot + 1;
	}
	if (!json_object_get(node, p))
		json_object_set_new(node, p, json_integer((json_int_t)v));
}

json_t *unix_socket_counters(uint64_t uptime_s)
{
	size_t n = counters_count();
	uint64_t *snap = calloc(n ? n : 1, sizeof(*snap));
	json_t *root = json_object();

	json_object_set_new(root, "uptime", json_integer((json_int_t)uptime_s));
	if (!snap)
		return root;
	counters_snapshot(snap);
	for (size_t i = 0; i < n; i++) {
		const char *name = counter_name((counter_id)i);

		if (name)
			nest(root, name, snap[i]);
	}
	free(snap);
	return root;
}

static int cmd_dump_counters(UnixSocket *u, json_t *args, json_t *answer)
{
	(void)args;
	json_object_set_new(answer, "message", unix_socket_counters(uptime(u)));
	return 0;
}

static int need_detect(UnixSocket *u, json_t *answer)
{
	if (u->cfg.reload)
		return 0;
	set_msg(answer, "Detection engine is disabled");
	return -1;
}

/* A rule reload; wait: until it is done (blocking this thread only: the
 * packets flow meanwhile). */
static int reload(UnixSocket *u, json_t *answer, int wait)
{
	char msg[256];

	if (need_detect(u, answer) != 0)
		return -1;
	if (reloader_request(u->cfg.reload, wait, msg, sizeof(msg)) <= 0) {
		set_msg(answer, msg);
		return -1;
	}
	set_msg(answer, "done");
	return 0;
}

static int cmd_reload_rules(UnixSocket *u, json_t *args, json_t *answer)
{
	(void)args;
	return reload(u, answer, 1);
}

static int cmd_reload_nonblocking(UnixSocket *u, json_t *args, json_t *answer)
{
	(void)args;
	return reload(u, answer, 0);
}

/* Suricata's time strings: local time with microseconds and offset */
static void time_string(const struct timeval *tv, char *buf, size_t len)
{
	struct tm tm;
	time_t t = tv->tv_sec;
	size_t l;

	localtime_r(&t, &tm);
	l = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	l += (size_t)snprintf(buf + l, len - l, ".%06ld", (long)tv->tv_usec);
	strftime(buf + l, len - l, "%z", &tm);
}

static int cmd_reload_time(UnixSocket *u, json_t *args, json_t *answer)
{
	ReloadInfo ri;
	json_t *a, *e;
	char ts[64];

	(void)args;
	if (need_detect(u, answer) != 0)
		return -1;
	reloader_info(u->cfg.reload, &ri);
	time_string(&ri.last_reload, ts, sizeof(ts));
	a = json_array();
	e = json_object();
	json_object_set_new(e, "id", json_integer(0));
	json_object_set_new(e, "last_reload", json_string(ts));
	json_array_append_new(a, e);
	json_object_set_new(answer, "message", a);
	return 0;
}

static int cmd_ruleset_stats(UnixSocket *u, json_t *args, json_t *answer)
{
	ReloadInfo ri;
	json_t *a, *e;

	(void)args;
	if (need_detect(u, answer) != 0)
		return -1;
	reloader_info(u->cfg.reload, &ri);
	a = json_array();
	e = json_object();
	json_object_set_new(e, "id", json_integer(0));
	json_object_set_new(e, "rules_loaded", json_integer(ri.loaded));
	json_object_set_new(e, "rules_failed", json_integer(ri.failed));
	json_object_set_new(e, "rules_skipped", json_integer(ri.skipped));
	/* ours, beside Suricata's keys: the reloads done and failed */
	json_object_set_new(e, "reloads", json_integer((json_int_t)ri.reloads));
	json_object_set_new(e, "reloads_failed", json_integer((json_int_t)ri.reloads_failed));
	json_array_append_new(a, e);
	json_object_set_new(answer, "message", a);
	return 0;
}

static void add_failed(void *arg, const FailedRule *fr)
{
	json_t *e = json_object();

	json_object_set_new(e, "tenant_id", json_integer(0));
	json_object_set_new(e, "rule", json_string(fr->rule));
	json_object_set_new(e, "filename", json_string(fr->file ? fr->file : ""));
	json_object_set_new(e, "line", json_integer(fr->line));
	json_array_append_new(arg, e);
}

static int cmd_failed_rules(UnixSocket *u, json_t *args, json_t *answer)
{
	json_t *a;

	(void)args;
	if (need_detect(u, answer) != 0)
		return -1;
	a = json_array();
	reloader_failed_rules(u->cfg.reload, add_failed, a);
	json_object_set_new(answer, "message", a);
	return 0;
}

static int cmd_iface_list(UnixSocket *u, json_t *args, json_t *answer)
{
	json_t *m = json_object(), *a = json_array();

	(void)args;
	for (unsigned i = 0; i < u->cfg.nifaces; i++)
		json_array_append_new(a, json_string(u->cfg.ifaces[i]));
	json_object_set_new(m, "count", json_integer(u->cfg.nifaces));
	json_object_set_new(m, "ifaces", a);
	json_object_set_new(answer, "message", m);
	return 0;
}

static uint64_t counter_value(const uint64_t *snap, const char *name)
{
	int id = counter_lookup(name);

	return id >= 0 ? snap[id] : 0;
}

/* iface-stat with several interfaces: the counters of the threads that
 * capture on one (named W#NN-<iface>, stats/counters.h), summed. */
struct iface_sum {
	const char *iface;
	uint64_t *sum;
	size_t n;
};

static void iface_sum_thread(const char *name, const uint64_t *v, void *arg)
{
	struct iface_sum *s = arg;
	const char *dash = strchr(name, '-');

	if (!dash || strcmp(dash + 1, s->iface))
		return;
	for (size_t i = 0; i < s->n; i++)
		s->sum[i] += v[i];
}

static int cmd_iface_stat(UnixSocket *u, json_t *args, json_t *answer)
{
	json_t *v = json_object_get(args, "iface"), *m;
	size_t n = counters_count();
	uint64_t *snap;
	unsigned i;

	if (!json_is_string(v)) {
		set_msg(answer, "iface is not a string");
		return -1;
	}
	for (i = 0; i < u->cfg.nifaces; i++)
		if (!strcmp(u->cfg.ifaces[i], json_string_value(v)))
			break;
	if (i == u->cfg.nifaces) {
		set_msg(answer, "Interface not found");
		return -1;
	}
	snap = calloc(n ? n : 1, sizeof(*snap));
	if (!snap) {
		set_msg(answer, "out of memory");
		return -1;
	}
	if (u->cfg.nifaces == 1) {
		/* one interface: the run's counters are the interface's */
		counters_snapshot(snap);
	} else {
		uint64_t *scratch = calloc(n ? n : 1, sizeof(*scratch));
		struct iface_sum s = { json_string_value(v), snap, n };

		if (!scratch) {
			free(snap);
			set_msg(answer, "out of memory");
			return -1;
		}
		counters_snapshot_threads(scratch, iface_sum_thread, &s);
		free(scratch);
	}
	m = json_object();
	json_object_set_new(m, "pkts", json_integer((json_int_t)counter_value(snap, "decoder.pkts")));
	/* the packets the checksum checks rejected (TCP: the tracker's) */
	json_object_set_new(m, "invalid-checksums",
			    json_integer((json_int_t)counter_value(snap, "tcp.invalid_checksum")));
	json_object_set_new(m, "drop",
			    json_integer((json_int_t)counter_value(snap, "capture.kernel_drops")));
	json_object_set_new(m, "bypassed", json_integer(0));
	free(snap);
	json_object_set_new(answer, "message", m);
	return 0;
}

static int cmd_reopen(UnixSocket *u, json_t *args, json_t *answer)
{
	(void)args;
	/* SIGHUP's flag: the files are reopened on the thread that owns them */
	if (u->cfg.ctl)
		__atomic_store_n(&u->cfg.ctl->reopen, 1, __ATOMIC_RELAXED);
	set_msg(answer, "done");
	return 0;
}

/* ---- memcaps at run time: memcap-set, memcap-show, memcap-list ----
 * Suricata 8's names and answers. Each subsystem keeps its cap in an
 * atomic that its threads read where they allocate (never per packet);
 * memuse comes from the counters the stats record shows. */
typedef struct Memcap {
	const char *name;
	uint64_t (*get)(void);
	void (*set)(uint64_t);
	const char *memuse;            /* the counter of what is held */
	int unlimited_ok;              /* 0 means no limit, as in the yaml */
} Memcap;

static uint64_t stream_cap(void) { return stream_memcap_get(0); }
static void stream_cap_set(uint64_t v) { stream_memcap_set(0, v); }
static uint64_t reasm_cap(void) { return stream_memcap_get(1); }
static void reasm_cap_set(uint64_t v) { stream_memcap_set(1, v); }

/* Suricata 8 has ippair too: our xbits live in the host table (host). */
static const Memcap memcaps[] = {
	{ "stream", stream_cap, stream_cap_set, "tcp.memuse", 0 },
	{ "stream-reassembly", reasm_cap, reasm_cap_set, "tcp.reassembly_memuse", 0 },
	{ "flow", flow_memcap_get, flow_memcap_set, "flow.memuse", 0 },
	{ "applayer-proto-http", http_mem_cap, http_mem_set_cap, "http.memuse", 1 },
	{ "defrag", defrag_memcap_get, defrag_memcap_set, "defrag.memuse", 0 },
	{ "host", host_memcap_get, host_memcap_set, "host.memuse", 0 },
	{ "applayer-proto-ftp", ftp_memcap_get, ftp_memcap_set, "ftp.memuse", 1 },
};
#define MEMCAPS_N (sizeof(memcaps) / sizeof(memcaps[0]))

/* Suricata's rendering: whole gb, else mb, else kb (rounded down) */
static void size_string(uint64_t v, char *buf, size_t len)
{
	if (v == 0)
		snprintf(buf, len, "unlimited");
	else if (v >> 30)
		snprintf(buf, len, "%" PRIu64 "gb", v >> 30);
	else if (v >> 20)
		snprintf(buf, len, "%" PRIu64 "mb", v >> 20);
	else
		snprintf(buf, len, "%" PRIu64 "kb", v >> 10);
}

static uint64_t counter_now(const char *name)
{
	size_t n = counters_count();
	int id = counter_lookup(name);
	uint64_t *snap, v = 0;

	if (id < 0 || !(snap = calloc(n ? n : 1, sizeof(*snap))))
		return 0;
	counters_snapshot(snap);
	v = snap[id];
	free(snap);
	return v;
}

static const Memcap *memcap_find(const char *name)
{
	for (size_t i = 0; i < MEMCAPS_N; i++)
		if (!strcmp(memcaps[i].name, name))
			return &memcaps[i];
	return NULL;
}

static int cmd_memcap_set(UnixSocket *u, json_t *args, json_t *answer)
{
	json_t *c = json_object_get(args, "config"), *v = json_object_get(args, "memcap");
	const Memcap *m;
	uint64_t val, use;
	char msg[192], b[32];

	(void)u;
	if (!json_is_string(c)) {
		set_msg(answer, "memcap key is not a string");
		return -1;
	}
	if (!json_is_string(v)) {
		set_msg(answer, "memcap value is not a string");
		return -1;
	}
	if (parse_size(json_string_value(v), &val) != 0) {
		set_msg(answer, "error parsing memcap specified, value not changed");
		return -1;
	}
	if (!(m = memcap_find(json_string_value(c)))) {
		set_msg(answer, "Memcap value not found. Use 'memcap-list' to show all");
		return -1;
	}
	if (val == 0 && !m->unlimited_ok) {
		snprintf(msg, sizeof(msg), "Unlimited value is not allowed for '%s'", m->name);
		set_msg(answer, msg);
		return -1;
	}
	/* as Suricata: a cap under what is held now is refused, not enforced
	 * by freeing */
	use = counter_now(m->memuse);
	if (val && val < use) {
		size_string(use, b, sizeof(b));
		snprintf(msg, sizeof(msg),
			 "memcap value specified for '%s' is less than the memory in use: %s",
			 m->name, b);
		set_msg(answer, msg);
		return -1;
	}
	m->set(val);
	log_info("unix socket: memcap %s set to %" PRIu64, m->name, val);
	snprintf(msg, sizeof(msg), "memcap value for '%s' updated: %" PRIu64 " %s", m->name, val,
		 val == 0 ? "(unlimited)" : "");
	set_msg(answer, msg);
	return 0;
}

static int cmd_memcap_show(UnixSocket *u, json_t *args, json_t *answer)
{
	json_t *c = json_object_get(args, "config"), *o;
	const Memcap *m;
	char b[32];

	(void)u;
	if (!json_is_string(c)) {
		set_msg(answer, "memcap name is not a string");
		return -1;
	}
	if (!(m = memcap_find(json_string_value(c)))) {
		set_msg(answer, "Memcap value not found. Use 'memcap-list' to show all");
		return -1;
	}
	size_string(m->get(), b, sizeof(b));
	o = json_object();
	json_object_set_new(o, "value", json_string(b));
	json_object_set_new(answer, "message", o);
	return 0;
}

static int cmd_memcap_list(UnixSocket *u, json_t *args, json_t *answer)
{
	json_t *a = json_array();
	char b[32];

	(void)u;
	(void)args;
	for (size_t i = 0; i < MEMCAPS_N; i++) {
		json_t *o = json_object();

		size_string(memcaps[i].get(), b, sizeof(b));
		json_object_set_new(o, "name", json_string(memcaps[i].name));
		json_object_set_new(o, "value", json_string(b));
		json_array_append_new(a, o);
	}
	json_object_set_new(answer, "message", a);
	return 0;
}

/* ---- hostbits: add-hostbit, remove-hostbit, list-hostbit ---- */
static int host_arg(json_t *args, json_t *answer, Address *a)
{
	json_t *ip = json_object_get(args, "ipaddress");

	if (!json_is_string(ip)) {
		set_msg(answer, "ipaddress is not an string");
		return -1;
	}
	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, json_string_value(ip), &a->a.u32[0]) == 1) {
		a->family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, json_string_value(ip), a->a.u8) == 1) {
		a->family = AF_INET6;
		return 0;
	}
	set_msg(answer, "invalid address string");
	return -1;
}

struct hostbit_call {
	const Address *a;
	const char *name;
	int set, rc;
	uint32_t expire;
	json_t *list;
};

static void hostbit_set_in(void *arg, DetectEngine *de)
{
	struct hostbit_call *c = arg;

	c->rc = detect_hostbit_set(de, c->a, c->name, c->set, c->expire);
}

/* expire: the seconds the bit has left (detect/state.c) */
static void hostbit_add_name(void *arg, const char *name, uint32_t left)
{
	json_t *o = json_object();

	json_object_set_new(o, "name", json_string(name));
	json_object_set_new(o, "expire", json_integer((json_int_t)left));
	json_array_append_new(arg, o);
}

static void hostbit_list_in(void *arg, DetectEngine *de)
{
	struct hostbit_call *c = arg;

	c->rc = detect_hostbit_list(de, c->a, hostbit_add_name, c->list);
}

static int hostbit_change(UnixSocket *u, json_t *args, json_t *answer, int set)
{
	json_t *hb = json_object_get(args, "hostbit");
	struct hostbit_call c = { 0 };
	Address a;

	if (host_arg(args, answer, &a) != 0)
		return -1;
	if (!json_is_string(hb)) {
		set_msg(answer, "hostbit is not a string");
		return -1;
	}
	if (set && !json_is_integer(json_object_get(args, "expire"))) {
		set_msg(answer, "expire is not an integer");
		return -1;
	}
	if (set) {
		json_int_t ex = json_integer_value(json_object_get(args, "expire"));

		/* as Suricata, any integer: one not positive ends the bit at once */
		c.expire = ex < 0 ? 0 : ex > UINT32_MAX ? UINT32_MAX : (uint32_t)ex;
	}
	c.a = &a;
	c.name = json_string_value(hb);
	c.set = set;
	c.rc = -1;
	reloader_with_engine(u->cfg.reload, hostbit_set_in, &c);
	if (c.rc == -1) {
		set_msg(answer, "hostbit not found");
		return -1;
	}
	if (c.rc != 0) {
		set_msg(answer, set ? "couldn't create host" : "host not found");
		return -1;
	}
	log_info("unix socket: %s-hostbit %s %s", set ? "add" : "remove",
		 json_string_value(json_object_get(args, "ipaddress")), c.name);
	set_msg(answer, set ? "hostbit added" : "hostbit removed");
	return 0;
}

static int cmd_add_hostbit(UnixSocket *u, json_t *args, json_t *answer)
{
	return hostbit_change(u, args, answer, 1);
}

static int cmd_remove_hostbit(UnixSocket *u, json_t *args, json_t *answer)
{
	return hostbit_change(u, args, answer, 0);
}

static int cmd_list_hostbit(UnixSocket *u, json_t *args, json_t *answer)
{
	struct hostbit_call c = { 0 };
	json_t *m;
	Address a;

	if (host_arg(args, answer, &a) != 0)
		return -1;
	c.a = &a;
	c.rc = -2;
	c.list = json_array();
	reloader_with_engine(u->cfg.reload, hostbit_list_in, &c);
	if (c.rc != 0) {
		json_decref(c.list);
		set_msg(answer, "host not found");
		return -1;
	}
	m = json_object();
	json_object_set_new(m, "count", json_integer((json_int_t)json_array_size(c.list)));
	json_object_set_new(m, "hostbits", c.list);
	json_object_set_new(answer, "message", m);
	return 0;
}

/* ---- multi-tenancy: Suricata 8's answers when multi-detect is not
 * enabled, which is always the case here (one detection engine) ---- */
static int cmd_tenant(UnixSocket *u, json_t *args, json_t *answer)
{
	(void)u;
	(void)args;
	set_msg(answer, "multi-tenant support not enabled");
	return -1;
}

/* ---- the rest ---- */

/* Suricata 8 answers this for a capture without eBPF/XDP bypass, the only
 * kind there is here. */
static int cmd_iface_bypassed(UnixSocket *u, json_t *args, json_t *answer)
{
	(void)u;
	(void)args;
	set_msg(answer, "No interface using bypass");
	return -1;
}

/* How long get-flow-stats-by-id waits for the workers to look: each looks
 * at its next packet, or its next idle tick (live captures tick at least
 * every 200 ms), so a table that has not looked by then has no traffic. */
#define FLOW_QUERY_WAIT_MS 2000

static int cmd_flow_stats(UnixSocket *u, json_t *args, json_t *answer)
{
	json_t *id = json_object_get(args, "flow_id"), *m;
	FlowQueryStats st;

	(void)u;
	if (!json_is_integer(id)) {
		set_msg(answer, "flow_id is not an integer");
		return -1;
	}
	if (json_integer_value(id) <= 0 ||
	    !flow_query_by_id((uint64_t)json_integer_value(id), FLOW_QUERY_WAIT_MS, &st)) {
		set_msg(answer, "Not found");
		return -1;
	}
	m = json_object();
	json_object_set_new(m, "pkts_toserver", json_integer((json_int_t)st.pkts_toserver));
	json_object_set_new(m, "pkts_toclient", json_integer((json_int_t)st.pkts_toclient));
	json_object_set_new(m, "bytes_toserver", json_integer((json_int_t)st.bytes_toserver));
	json_object_set_new(m, "bytes_toclient", json_integer((json_int_t)st.bytes_toclient));
	json_object_set_new(m, "age", json_integer((json_int_t)st.age));
	json_object_set_new(answer, "message", m);
	return 0;
}

/* Suricata 8 has these with --enable-profiling-rules only; here they are
 * known and say that rule profiling is not built in. */
static int cmd_ruleset_profile(UnixSocket *u, json_t *args, json_t *answer)
{
	(void)u;
	(void)args;
	set_msg(answer, "Rule profiling is not available (not built with rule profiling)");
	return -1;
}

/* ---- the unix-socket runmode: pcap files sent over the socket ----
 * Answers and messages as Suricata 8's (its unix-socket documentation). */
static int pcap_add(UnixSocket *u, json_t *args, json_t *answer, int continuous)
{
	json_t *f = json_object_get(args, "filename"), *o = json_object_get(args, "output-dir");
	json_t *t = json_object_get(args, "tenant"), *d = json_object_get(args, "delete-when-done");
	struct stat st;
	int tenant = 0;

	if (!json_is_string(f)) {
		set_msg(answer, "filename is not a string");
		return -1;
	}
	if (stat(json_string_value(f), &st) != 0) {
		set_msg(answer, "filename does not exist");
		return -1;
	}
	if (!o) {
		set_msg(answer, "output-dir param is mandatory");
		return -1;
	}
	if (!json_is_string(o)) {
		set_msg(answer, "output-dir is not a string");
		return -1;
	}
	if (stat(json_string_value(o), &st) != 0) {
		set_msg(answer, "output-dir does not exist");
		return -1;
	}
	if (t) {
		if (!json_is_integer(t)) {
			set_msg(answer, "tenant is not a number");
			return -1;
		}
		tenant = (int)json_integer_value(t);
	}
	if (pcap_queue_add(u->cfg.pcap, json_string_value(f), json_string_value(o), tenant,
			   continuous, d && json_is_true(d)) != 0) {
		set_msg(answer, "Unable to add file to list");
		return -1;
	}
	log_info("unix socket: added file '%s' to list", json_string_value(f));
	set_msg(answer, "Successfully added file to list");
	return 0;
}

static int cmd_pcap_file(UnixSocket *u, json_t *args, json_t *answer)
{
	return pcap_add(u, args, answer, json_is_true(json_object_get(args, "continuous")));
}

static int cmd_pcap_file_continuous(UnixSocket *u, json_t *args, json_t *answer)
{
	return pcap_add(u, args, answer, 1);
}

static int cmd_pcap_number(UnixSocket *u, json_t *args, json_t *answer)
{
	PcapQueueStatus st;

	(void)args;
	pcap_queue_status(u->cfg.pcap, &st);
	json_object_set_new(answer, "message", json_integer(st.queued));
	return 0;
}

static void add_name(void *arg, const char *name)
{
	json_array_append_new(arg, json_string(name));
}

static int cmd_pcap_list(UnixSocket *u, json_t *args, json_t *answer)
{
	json_t *m = json_object(), *a = json_array();

	(void)args;
	pcap_queue_each(u->cfg.pcap, add_name, a);
	json_object_set_new(m, "count", json_integer((json_int_t)json_array_size(a)));
	json_object_set_new(m, "files", a);
	json_object_set_new(answer, "message", m);
	return 0;
}

static int cmd_pcap_current(UnixSocket *u, json_t *args, json_t *answer)
{
	PcapQueueStatus st;

	(void)args;
	pcap_queue_status(u->cfg.pcap, &st);
	set_msg(answer, st.current);
	return 0;
}

static int cmd_pcap_last(UnixSocket *u, json_t *args, json_t *answer)
{
	PcapQueueStatus st;

	(void)args;
	pcap_queue_status(u->cfg.pcap, &st);
	json_object_set_new(answer, "message", json_integer((json_int_t)st.last_processed_ms));
	return 0;
}

static int cmd_pcap_interrupt(UnixSocket *u, json_t *args, json_t *answer)
{
	(void)args;
	pcap_queue_interrupt(u->cfg.pcap);
	set_msg(answer, "Interrupted");
	return 0;
}

/* Suricata 8.0.6's 49 commands, in its command-list order (doc/unix-socket.md
 * lists them). */
static const Command cmd_table[] = {
	{ "shutdown", cmd_shutdown, 0, 0 },
	{ "command-list", cmd_list, 0, 0 },
	{ "help", cmd_list, 0, 0 },
	{ "version", cmd_version, 0, 0 },
	{ "uptime", cmd_uptime, 0, 0 },
	{ "running-mode", cmd_running_mode, 0, 0 },
	{ "capture-mode", cmd_capture_mode, 0, 0 },
	{ "conf-get", cmd_conf_get, 1, 0 },
	{ "dump-counters", cmd_dump_counters, 0, 0 },
	{ "reload-rules", cmd_reload_rules, 0, 0 },
	{ "ruleset-reload-rules", cmd_reload_rules, 0, 0 },
	{ "ruleset-reload-nonblocking", cmd_reload_nonblocking, 0, 0 },
	{ "ruleset-reload-time", cmd_reload_time, 0, 0 },
	{ "ruleset-stats", cmd_ruleset_stats, 0, 0 },
	{ "ruleset-failed-rules", cmd_failed_rules, 0, 0 },
	{ "ruleset-profile", cmd_ruleset_profile, 0, 0 },
	{ "ruleset-profile-start", cmd_ruleset_profile, 0, 0 },
	{ "ruleset-profile-stop", cmd_ruleset_profile, 0, 0 },
	{ "register-tenant-handler", cmd_tenant, 1, 0 },
	{ "unregister-tenant-handler", cmd_tenant, 1, 0 },
	{ "register-tenant", cmd_tenant, 1, 0 },
	{ "reload-tenant", cmd_tenant, 1, 0 },
	{ "reload-tenants", cmd_tenant, 0, 0 },
	{ "unregister-tenant", cmd_tenant, 1, 0 },
	{ "add-hostbit", cmd_add_hostbit, 1, 0 },
	{ "remove-hostbit", cmd_remove_hostbit, 1, 0 },
	{ "list-hostbit", cmd_list_hostbit, 1, 0 },
	{ "reopen-log-files", cmd_reopen, 0, 0 },
	{ "memcap-set", cmd_memcap_set, 1, 0 },
	{ "memcap-show", cmd_memcap_show, 1, 0 },
	{ "memcap-list", cmd_memcap_list, 0, 0 },
	{ "get-flow-stats-by-id", cmd_flow_stats, 1, 0 },
	/* the dataset module's (unix-socket-dataset.c) */
	{ "dataset-add", cmd_dataset_add, 1, 0 },
	{ "dataset-remove", cmd_dataset_remove, 1, 0 },
	{ "dataset-dump", cmd_dataset_dump, 0, 0 },
	{ "dataset-clear", cmd_dataset_clear, 1, 0 },
	{ "dataset-lookup", cmd_dataset_lookup, 1, 0 },
	{ "dataset-add-json", cmd_dataset_add_json, 1, 0 },
	{ "iface-stat", cmd_iface_stat, 1, 0 },
	{ "iface-list", cmd_iface_list, 0, 0 },
	{ "iface-bypassed-stat", cmd_iface_bypassed, 0, 0 },
	{ "ebpf-bypassed-stat", cmd_iface_bypassed, 0, 0 },
	{ "pcap-file", cmd_pcap_file, 1, 1 },
	{ "pcap-file-continuous", cmd_pcap_file_continuous, 1, 1 },
	{ "pcap-file-number", cmd_pcap_number, 0, 1 },
	{ "pcap-file-list", cmd_pcap_list, 0, 1 },
	{ "pcap-last-processed", cmd_pcap_last, 0, 1 },
	{ "pcap-interrupt", cmd_pcap_interrupt, 0, 1 },
	{ "pcap-current", cmd_pcap_current, 0, 1 },
};

static const Command *commands(unsigned *n)
{
	*n = sizeof(cmd_table) / sizeof(cmd_table[0]);
	return cmd_table;
}

json_t *unix_socket_execute(UnixSocket *u, const char *msg, size_t len)
{
	json_error_t jerr;
	json_t *m = json_loadb(msg, len, 0, &jerr), *c, *args = NULL, *answer;
	const Command *cmd = NULL;
	unsigned n;
	const Command *tab = commands(&n);
	int rc;

	if (!m)
		return NULL;
	c = json_object_get(m, "command");
	if (!json_is_string(c)) {
		json_decref(m);
		return NULL;
	}
	for (unsigned i = 0; i < n && !cmd; i++)
		if (!strcmp(tab[i].name, json_string_value(c)) && available(u, &tab[i]))
			cmd = &tab[i];
	answer = json_object();
	if (!cmd) {
		set_msg(answer, "Unknown command");
		json_object_set_new(answer, "return", json_string("NOK"));
		json_decref(m);
		return answer;
	}
	if (cmd->takes_args) {
		args = json_object_get(m, "arguments");
		if (!json_is_object(args)) {
			json_decref(answer);
			json_decref(m);
			return NULL;
		}
	}
	rc = cmd->fn(u, args, answer);
	json_object_set_new(answer, "return", json_string(rc == 0 ? "OK" : "NOK"));
	json_decref(m);
	return answer;
}

/* ---- the socket ---- */

UnixSocket *unix_socket_new(const UnixSocketConfig *cfg)
{
	UnixSocket *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	u->cfg = *cfg;
	u->lfd = -1;
	for (int i = 0; i < CLIENTS_MAX; i++)
		u->clients[i].fd = -1;
	clock_gettime(CLOCK_MONOTONIC, &u->started_at);
	return u;
}

const char *unix_socket_path(const UnixSocket *u)
{
	return u->path;
}

int unix_socket_listen(UnixSocket *u, char *err, size_t errlen)
{
	struct sockaddr_un addr;
	const char *name = u->cfg.path && *u->cfg.path ? u->cfg.path : "suricata-command.socket";
	int n;

	if (name[0] == '/') {
		n = snprintf(u->path, sizeof(u->path), "%s", name);
	} else {
		if (mkdir(RUN_DIR, 0750) != 0 && errno != EEXIST) {
			snprintf(err, errlen, "unix-command: cannot create the socket directory %s: %s",
				 RUN_DIR, strerror(errno));
			return -1;
		}
		n = snprintf(u->path, sizeof(u->path), "%s%s", RUN_DIR, name);
	}
	if (n < 0 || (size_t)n >= sizeof(u->path)) {
		snprintf(err, errlen, "unix-command: the socket path %s is too long (%zu bytes at most)",
			 name, sizeof(u->path) - 1);
		return -1;
	}
	unlink(u->path);
	u->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (u->lfd < 0) {
		snprintf(err, errlen, "unix-command: socket: %s", strerror(errno));
		return -1;
	}
	memset(&addr, 0, sizeof(addr));
	addr.sun_family = AF_UNIX;
	memcpy(addr.sun_path, u->path, strlen(u->path) + 1);
	if (bind(u->lfd, (struct sockaddr *)&addr, sizeof(addr)) != 0 ||
	    chmod(u->path, S_IRUSR | S_IWUSR | S_IRGRP | S_IWGRP) != 0 ||
	    listen(u->lfd, 8) != 0) {
		snprintf(err, errlen, "unix-command: %s: %s", u->path, strerror(errno));
		close(u->lfd);
		u->lfd = -1;
		return -1;
	}
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void client_close(Client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->len = 0;
	c->version = 0;
}

static int send_json(Client *c, json_t *j)
{
	char *s = json_dumps(j, JSON_COMPACT);
	size_t len, off = 0;
	int rc = 0;

	if (!s)
		return -1;
	len = strlen(s);
	while (off < len && rc == 0) {
		ssize_t w = send(c->fd, s + off, len - off, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			rc = -1;
		else
			off += (size_t)w;
	}
	/* 0.2 answers end with a newline: the client reads up to it */
	if (rc == 0 && c->version >= 2 && send(c->fd, "\n", 1, MSG_NOSIGNAL) != 1)
		rc = -1;
	free(s);
	return rc;
}

/* What the client sent so far holds one whole JSON object: serve it. */
static void client_serve(UnixSocket *u, Client *c)
{
	json_error_t jerr;
	json_t *m;
	size_t used;

	for (;;) {
		const char *p = c->buf;
		size_t left = c->len;

		while (left && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) {
			p++;
			left--;
		}
		if (!left) {
			c->len = 0;
			return;
		}
		m = json_loadb(p, left, JSON_DISABLE_EOF_CHECK, &jerr);
		if (!m) {
			/* incomplete: wait for more (a full buffer is refused) */
			if (c->len < MSG_MAX && strstr(jerr.text, "premature end of input"))
				return;
			log_info("unix socket: invalid message from a client: %s", jerr.text);
			client_close(c);
			return;
		}
		used = (size_t)(p - c->buf) + (size_t)jerr.position;
		if (!c->version) {
			json_t *v = json_object_get(m, "version");
			const char *vs = json_is_string(v) ? json_string_value(v) : "";
			json_t *ok;

			if (strcmp(vs, "0.1") && strcmp(vs, "0.2")) {
				log_info("unix socket: invalid client version \"%s\"", vs);
				json_decref(m);
				client_close(c);
				return;
			}
			c->version = vs[2] - '0';
			ok = json_pack("{s:s}", "return", "OK");
			if (send_json(c, ok) != 0) {
				json_decref(ok);
				json_decref(m);
				client_close(c);
				return;
			}
			json_decref(ok);
		} else {
			char *text = json_dumps(m, JSON_COMPACT);
			json_t *answer = text ? unix_socket_execute(u, text, strlen(text)) : NULL;

			free(text);
			if (!answer || send_json(c, answer) != 0) {
				json_decref(answer);
				json_decref(m);
				client_close(c);
				return;
			}
			json_decref(answer);
		}
		json_decref(m);
		memmove(c->buf, c->buf + used, c->len - used);
		c->len -= used;
	}
}

/* Something sent and not read yet (a blocking command kept the thread
 * from reading it): not idle. */
static int client_has_input(const Client *c)
{
	char b;

	return recv(c->fd, &b, 1, MSG_PEEK | MSG_DONTWAIT) > 0;
}

/* The slot of the client idle longest, for a new one; -1 when each has
 * input waiting (they are served, the new one is refused). */
static int idlest_client(UnixSocket *u)
{
	int best = -1;

	for (int i = 0; i < CLIENTS_MAX; i++) {
		Client *c = &u->clients[i];

		if (c->fd < 0 || client_has_input(c))
			continue;
		if (best < 0 || c->active_ns < u->clients[best].active_ns)
			best = i;
	}
	return best;
}

static void accept_client(UnixSocket *u)
{
	int fd = accept(u->lfd, NULL, NULL);
	int slot = -1;

	if (fd < 0)
		return;
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	for (int i = 0; i < CLIENTS_MAX && slot < 0; i++)
		if (u->clients[i].fd < 0)
			slot = i;
	if (slot < 0 && (slot = idlest_client(u)) >= 0) {
		log_info("unix socket: %d clients already: the one idle longest (%llu ms) closed "
			 "for a new one", CLIENTS_MAX,
			 (unsigned long long)((now_ns() - u->clients[slot].active_ns) / 1000000));
		client_close(&u->clients[slot]);
	}
	if (slot < 0) {
		log_info("unix socket: %d clients already, each with a message waiting: one more "
			 "refused", CLIENTS_MAX);
		close(fd);
		return;
	}
	u->clients[slot].fd = fd;
	u->clients[slot].len = 0;
	u->clients[slot].version = 0;
	u->clients[slot].active_ns = now_ns();
}

/* Clients silent for longer than the idle timeout are closed. */
static void close_idle_clients(UnixSocket *u)
{
	uint64_t limit = (uint64_t)(u->cfg.idle_timeout_ms ? u->cfg.idle_timeout_ms :
				    UNIX_SOCKET_IDLE_MS) * 1000000ull;
	uint64_t now = now_ns();

	for (int i = 0; i < CLIENTS_MAX; i++) {
		Client *c = &u->clients[i];

		if (c->fd < 0 || now - c->active_ns <= limit || client_has_input(c))
			continue;
		log_info("unix socket: a client idle for %llu ms closed",
			 (unsigned long long)((now - c->active_ns) / 1000000));
		client_close(c);
	}
}

static void *unix_main(void *arg)
{
	UnixSocket *u = arg;

	while (!atomic_load(&u->stop)) {
		struct pollfd pf[CLIENTS_MAX + 1];
		int map[CLIENTS_MAX + 1], n = 0;

		pf[n].fd = u->lfd;
		pf[n].events = POLLIN;
		map[n++] = -1;
		for (int i = 0; i < CLIENTS_MAX; i++) {
			if (u->clients[i].fd < 0)
				continue;
			pf[n].fd = u->clients[i].fd;
			pf[n].events = POLLIN;
			map[n++] = i;
		}
		if (poll(pf, (nfds_t)n, 200) <= 0) {
			close_idle_clients(u);
			continue;
		}
		for (int k = 1; k < n; k++) {
			Client *c = &u->clients[map[k]];
			ssize_t r;

			if (!(pf[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			r = recv(c->fd, c->buf + c->len, MSG_MAX - c->len, 0);
			if (r <= 0) {
				client_close(c);
				continue;
			}
			c->len += (size_t)r;
			c->buf[c->len] = 0;
			c->active_ns = now_ns();
			client_serve(u, c);
			/* a blocking command (reload-rules) is not the client's idleness */
			c->active_ns = now_ns();
		}
		if (pf[0].revents & POLLIN)
			accept_client(u);
		close_idle_clients(u);
	}
	return NULL;
}

int unix_socket_start(UnixSocket *u)
{
	if (pthread_create(&u->thread, NULL, unix_main, u) != 0)
		return -1;
	u->started = 1;
	return 0;
}

void unix_socket_free(UnixSocket *u)
{
	if (!u)
		return;
	if (u->started) {
		atomic_store(&u->stop, 1);
		pthread_join(u->thread, NULL);
	}
	for (int i = 0; i < CLIENTS_MAX; i++)
		client_close(&u->clients[i]);
	if (u->lfd >= 0) {
		close(u->lfd);
		unlink(u->path);
	}
	free(u);
}
