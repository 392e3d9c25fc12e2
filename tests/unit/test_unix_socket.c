/* The unix socket: command answers (the parser and each live-sensor
 * command, without a running engine) and the protocol on a real socket. */
#include "test.h"

#include "runmode/unix-socket.h"
#include "runmode/runmode.h"
#include "runmode/pcap-queue.h"
#include "conf/conf.h"
#include "stats/counters.h"
#include "stream/stream.h"

#include <jansson.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static const char *const test_ifaces[] = { "eth7" };

static UnixSocket *mk(RunControl *ctl)
{
	UnixSocketConfig c = { 0 };

	c.runmode = "workers";
	c.capture_mode = "AF_PACKET_DEV";
	c.ifaces = test_ifaces;
	c.nifaces = 1;
	c.ctl = ctl;
	return unix_socket_new(&c);
}

/* The answer to msg, or NULL (connection closed). */
static json_t *run(UnixSocket *u, const char *msg)
{
	return unix_socket_execute(u, msg, strlen(msg));
}

static const char *ret_of(json_t *a)
{
	return json_string_value(json_object_get(a, "return"));
}

static const char *msg_of(json_t *a)
{
	return json_string_value(json_object_get(a, "message"));
}

TEST(unix_unknown_command_is_nok_unknown_command)
{
	UnixSocket *u = mk(NULL);
	json_t *a = run(u, "{\"command\": \"no-such-thing\"}");

	CHECK(a != NULL);
	CHECK_STREQ(ret_of(a), "NOK");
	CHECK_STREQ(msg_of(a), "Unknown command");
	json_decref(a);
	unix_socket_free(u);
}

/* The unix-socket runmode's commands: unknown in other runmodes; with the
 * queue, Suricata's answers (the main thread's take/done done here). */
TEST(unix_pcap_commands_answer_from_the_queue)
{
	UnixSocket *u = mk(NULL);
	UnixSocketConfig c = { 0 };
	PcapQueue *q = pcap_queue_new();
	PcapTask *t;
	json_t *a = run(u, "{\"command\": \"pcap-file-number\"}");

	CHECK_STREQ(msg_of(a), "Unknown command");
	json_decref(a);
	unix_socket_free(u);
	c.pcap = q;
	u = unix_socket_new(&c);
	a = run(u, "{\"command\": \"pcap-file\", \"arguments\": {\"filename\": \"/\", "
		   "\"output-dir\": \"/tmp\"}}");
	CHECK_STREQ(ret_of(a), "OK");
	CHECK_STREQ(msg_of(a), "Successfully added file to list");
	json_decref(a);
	a = run(u, "{\"command\": \"pcap-file\", \"arguments\": {\"filename\": \"/nope-x\", "
		   "\"output-dir\": \"/tmp\"}}");
	CHECK_STREQ(ret_of(a), "NOK");
	CHECK_STREQ(msg_of(a), "filename does not exist");
	json_decref(a);
	a = run(u, "{\"command\": \"pcap-file-list\"}");
	CHECK_EQ(json_integer_value(json_object_get(json_object_get(a, "message"), "count")), 1);
	json_decref(a);
	a = run(u, "{\"command\": \"pcap-current\"}");
	CHECK_STREQ(msg_of(a), "None");
	json_decref(a);
	t = pcap_queue_take(q, NULL, 0);
	CHECK(t != NULL);
	a = run(u, "{\"command\": \"pcap-current\"}");
	CHECK_STREQ(msg_of(a), "/");
	json_decref(a);
	a = run(u, "{\"command\": \"pcap-interrupt\"}");
	CHECK_STREQ(msg_of(a), "Interrupted");
	json_decref(a);
	CHECK(*pcap_queue_interrupt_flag(q) == 1);
	pcap_queue_done(q, 1234);
	a = run(u, "{\"command\": \"pcap-last-processed\"}");
	CHECK_EQ(json_integer_value(json_object_get(a, "message")), 1234);
	json_decref(a);
	a = run(u, "{\"command\": \"pcap-file-number\"}");
	CHECK_EQ(json_integer_value(json_object_get(a, "message")), 0);
	json_decref(a);
	unix_socket_free(u);
	pcap_queue_free(q);
}

TEST(unix_invalid_messages_close_the_connection)
{
	UnixSocket *u = mk(NULL);

	CHECK(run(u, "not json") == NULL);
	CHECK(run(u, "{\"comand\": \"version\"}") == NULL);
	CHECK(run(u, "{\"command\": 3}") == NULL);
	/* a command that takes arguments, without them */
	CHECK(run(u, "{\"command\": \"conf-get\"}") == NULL);
	CHECK(run(u, "{\"command\": \"iface-stat\", \"arguments\": 1}") == NULL);
	unix_socket_free(u);
}

TEST(unix_command_list_and_help_list_every_command)
{
	UnixSocket *u = mk(NULL);
	static const char *const want[] = {
		"command-list", "help", "version", "uptime", "running-mode", "capture-mode",
		"conf-get", "dump-counters", "reload-rules", "ruleset-reload-rules",
		"ruleset-reload-nonblocking", "ruleset-reload-time", "ruleset-stats",
		"ruleset-failed-rules", "iface-list", "iface-stat", "shutdown",
		"reopen-log-files",
	};

	for (int k = 0; k < 2; k++) {
		json_t *a = run(u, k ? "{\"command\": \"help\"}" : "{\"command\": \"command-list\"}");
		json_t *m = json_object_get(a, "message"), *cmds = json_object_get(m, "commands");

		CHECK_STREQ(ret_of(a), "OK");
		CHECK_EQ(json_integer_value(json_object_get(m, "count")), json_array_size(cmds));
		for (size_t w = 0; w < sizeof(want) / sizeof(want[0]); w++) {
			int found = 0;

			for (size_t i = 0; i < json_array_size(cmds); i++)
				found |= !strcmp(json_string_value(json_array_get(cmds, i)), want[w]);
			CHECK(found);
		}
		json_decref(a);
	}
	unix_socket_free(u);
}

TEST(unix_version_uptime_modes)
{
	UnixSocket *u = mk(NULL);
	json_t *a = run(u, "{\"command\": \"version\"}");

	CHECK_STREQ(msg_of(a), "8.0.7 RELEASE");
	json_decref(a);
	a = run(u, "{\"command\": \"uptime\"}");
	CHECK_STREQ(ret_of(a), "OK");
	CHECK(json_is_integer(json_object_get(a, "message")));
	CHECK(json_integer_value(json_object_get(a, "message")) < 5);
	json_decref(a);
	a = run(u, "{\"command\": \"running-mode\"}");
	CHECK_STREQ(msg_of(a), "workers");
	json_decref(a);
	a = run(u, "{\"command\": \"capture-mode\"}");
	CHECK_STREQ(msg_of(a), "AF_PACKET_DEV");
	json_decref(a);
	unix_socket_free(u);
}

TEST(unix_conf_get_reads_the_tree)
{
	UnixSocket *u = mk(NULL);
	json_t *a;

	CHECK(conf_set_kv("unix-test.key=some value") == 0);
	a = run(u, "{\"command\": \"conf-get\", \"arguments\": {\"variable\": \"unix-test.key\"}}");
	CHECK_STREQ(ret_of(a), "OK");
	CHECK_STREQ(msg_of(a), "some value");
	json_decref(a);
	a = run(u, "{\"command\": \"conf-get\", \"arguments\": {\"variable\": \"unix-test.none\"}}");
	CHECK_STREQ(ret_of(a), "NOK");
	CHECK_STREQ(msg_of(a), "Unable to get value");
	json_decref(a);
	unix_socket_free(u);
}

TEST(unix_iface_list_and_stat)
{
	UnixSocket *u = mk(NULL);
	json_t *a = run(u, "{\"command\": \"iface-list\"}"), *m;

	m = json_object_get(a, "message");
	CHECK_EQ(json_integer_value(json_object_get(m, "count")), 1);
	CHECK_STREQ(json_string_value(json_array_get(json_object_get(m, "ifaces"), 0)), "eth7");
	json_decref(a);
	a = run(u, "{\"command\": \"iface-stat\", \"arguments\": {\"iface\": \"eth7\"}}");
	CHECK_STREQ(ret_of(a), "OK");
	m = json_object_get(a, "message");
	CHECK(json_is_integer(json_object_get(m, "pkts")));
	CHECK(json_is_integer(json_object_get(m, "drop")));
	CHECK(json_is_integer(json_object_get(m, "invalid-checksums")));
	json_decref(a);
	a = run(u, "{\"command\": \"iface-stat\", \"arguments\": {\"iface\": \"eth8\"}}");
	CHECK_STREQ(ret_of(a), "NOK");
	CHECK_STREQ(msg_of(a), "Interface not found");
	json_decref(a);
	unix_socket_free(u);
}

TEST(unix_reload_commands_without_detection_are_nok)
{
	UnixSocket *u = mk(NULL);
	static const char *const cmds[] = { "reload-rules", "ruleset-reload-rules",
		"ruleset-reload-nonblocking", "ruleset-reload-time", "ruleset-stats",
		"ruleset-failed-rules" };

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char msg[128];
		json_t *a;

		snprintf(msg, sizeof(msg), "{\"command\": \"%s\"}", cmds[i]);
		a = run(u, msg);
		CHECK_STREQ(ret_of(a), "NOK");
		CHECK_STREQ(msg_of(a), "Detection engine is disabled");
		json_decref(a);
	}
	unix_socket_free(u);
}

TEST(unix_shutdown_and_log_reopen_set_the_signal_flags)
{
	RunControl ctl;
	UnixSocket *u;
	json_t *a;

	memset(&ctl, 0, sizeof(ctl));
	u = mk(&ctl);
	a = run(u, "{\"command\": \"reopen-log-files\"}");
	CHECK_STREQ(msg_of(a), "done");
	CHECK_EQ(ctl.reopen, 1);
	CHECK_EQ(ctl.stop, 0);
	json_decref(a);
	a = run(u, "{\"command\": \"shutdown\"}");
	CHECK_STREQ(ret_of(a), "OK");
	CHECK_STREQ(msg_of(a), "Closing Suricata");
	CHECK_EQ(ctl.stop, 1);
	json_decref(a);
	unix_socket_free(u);
}

TEST(unix_dump_counters_nests_the_names)
{
	counter_id id;
	ThreadCounters *tc;
	json_t *j;

	counters_destroy();
	id = counter_register("unixtest.group.value");
	counters_freeze();
	tc = thread_counters_new();
	counter_add(tc, id, 42);
	j = unix_socket_counters(7);
	CHECK_EQ(json_integer_value(json_object_get(j, "uptime")), 7);
	CHECK_EQ(json_integer_value(json_object_get(json_object_get(
		json_object_get(j, "unixtest"), "group"), "value")), 42);
	json_decref(j);
	counters_destroy();
}

/* ---- the protocol on a socket ---- */

static int sock_connect(const char *path)
{
	struct sockaddr_un a;
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	memset(&a, 0, sizeof(a));
	a.sun_family = AF_UNIX;
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Reads one line (up to its newline, or until closed / 3 s): returns the
 * bytes read. A byte at a time: two answers the server sent together are
 * two lines, not one read (they coalesce on a loaded machine). */
static int read_line(int fd, char *buf, size_t cap)
{
	size_t n = 0;

	while (n + 1 < cap) {
		struct pollfd pf = { fd, POLLIN, 0 };
		ssize_t r;

		if (poll(&pf, 1, 3000) <= 0)
			break;
		r = recv(fd, buf + n, 1, 0);
		if (r <= 0)
			break;
		n += (size_t)r;
		if (buf[n - 1] == '\n')
			break;
	}
	buf[n] = 0;
	return (int)n;
}

TEST(unix_socket_handshake_then_commands_split_across_writes)
{
	char path[64], buf[400];
	UnixSocket *u;
	UnixSocketConfig c = { 0 };
	char err[256];
	int fd;

	snprintf(path, sizeof(path), "/tmp/unix-test-%d.sock", (int)getpid());
	c.path = path;
	c.runmode = "autofp";
	u = unix_socket_new(&c);
	CHECK(unix_socket_listen(u, err, sizeof(err)) == 0);
	CHECK(unix_socket_start(u) == 0);
	fd = sock_connect(path);
	CHECK(fd >= 0);
	CHECK(send(fd, "{\"version\": \"0.2\"}", 18, 0) == 18);
	read_line(fd, buf, sizeof(buf));
	CHECK_STREQ(buf, "{\"return\":\"OK\"}\n");
	/* one message in two writes: the server waits for the whole object */
	CHECK(send(fd, "{\"command\": \"runn", 17, 0) == 17);
	usleep(100000);
	CHECK(send(fd, "ing-mode\"}", 10, 0) == 10);
	read_line(fd, buf, sizeof(buf));
	CHECK_STREQ(buf, "{\"message\":\"autofp\",\"return\":\"OK\"}\n");
	/* two messages in one write: two answers */
	CHECK(send(fd, "{\"command\":\"version\"}{\"command\":\"x\"}", 37, 0) == 37);
	read_line(fd, buf, sizeof(buf));
	CHECK(strstr(buf, "8.0.7") != NULL);
	read_line(fd, buf, sizeof(buf));
	CHECK_STREQ(buf, "{\"message\":\"Unknown command\",\"return\":\"NOK\"}\n");
	close(fd);
	/* a version Suricata does not speak: the connection is closed */
	fd = sock_connect(path);
	CHECK(fd >= 0);
	CHECK(send(fd, "{\"version\": \"9.9\"}", 18, 0) == 18);
	CHECK_EQ(read_line(fd, buf, sizeof(buf)), 0);
	close(fd);
	unix_socket_free(u);
	CHECK(access(path, F_OK) != 0);   /* the socket file is removed */
}

/* 1: the server closed fd within ms (end of file); 0: still open. */
static int closed_within(int fd, int ms)
{
	struct pollfd pf = { fd, POLLIN, 0 };
	char b;

	if (poll(&pf, 1, ms) <= 0)
		return 0;
	return recv(fd, &b, 1, 0) == 0;
}

static int handshake(int fd)
{
	char buf[64];

	if (fd < 0 || send(fd, "{\"version\": \"0.2\"}", 18, MSG_NOSIGNAL) != 18)
		return -1;
	read_line(fd, buf, sizeof(buf));
	return strcmp(buf, "{\"return\":\"OK\"}\n") == 0 ? 0 : -1;
}

static UnixSocket *listening(char *path, size_t len, const char *tag, unsigned idle_ms)
{
	UnixSocketConfig c = { 0 };
	char err[256];
	UnixSocket *u;

	snprintf(path, len, "/tmp/unix-test-%s-%d.sock", tag, (int)getpid());
	c.path = path;
	c.idle_timeout_ms = idle_ms;
	u = unix_socket_new(&c);
	if (!u || unix_socket_listen(u, err, sizeof(err)) != 0 || unix_socket_start(u) != 0) {
		unix_socket_free(u);
		return NULL;
	}
	return u;
}

/* Issue 43: 16 idle clients locked everyone out. Full, the client idle
 * longest (the first here) makes room for the new one. */
TEST(unix_socket_full_closes_the_idlest_client_for_a_new_one)
{
	char path[96], buf[400];
	int fds[16], last;
	UnixSocket *u = listening(path, sizeof(path), "full", 0);

	CHECK(u != NULL);
	for (int i = 0; i < 16; i++) {
		fds[i] = sock_connect(path);
		CHECK(handshake(fds[i]) == 0);
	}
	last = sock_connect(path);
	CHECK(handshake(last) == 0);
	CHECK(send(last, "{\"command\":\"version\"}", 21, MSG_NOSIGNAL) == 21);
	read_line(last, buf, sizeof(buf));
	CHECK(strstr(buf, "8.0.7") != NULL);
	CHECK_EQ(closed_within(fds[0], 5000), 1);
	/* the others stay served */
	CHECK(send(fds[1], "{\"command\":\"version\"}", 21, MSG_NOSIGNAL) == 21);
	read_line(fds[1], buf, sizeof(buf));
	CHECK(strstr(buf, "8.0.7") != NULL);
	for (int i = 0; i < 16; i++)
		close(fds[i]);
	close(last);
	unix_socket_free(u);
}

/* A client silent past the idle timeout is closed (100 ms here; 60 s by
 * default, which keeps it past a second). */
TEST(unix_socket_idle_client_is_closed_after_the_timeout)
{
	char path[96];
	int fd;
	UnixSocket *u = listening(path, sizeof(path), "idle", 100);

	CHECK(u != NULL);
	fd = sock_connect(path);
	CHECK(handshake(fd) == 0);
	CHECK_EQ(closed_within(fd, 10000), 1);
	close(fd);
	unix_socket_free(u);
	/* the default: not within a second */
	u = listening(path, sizeof(path), "idle", 0);
	CHECK(u != NULL);
	fd = sock_connect(path);
	CHECK(handshake(fd) == 0);
	CHECK_EQ(closed_within(fd, 1000), 0);
	close(fd);
	unix_socket_free(u);
}

/* memcap-set reaches the cap the stream engine reads; show renders it as
 * Suricata does; errors worded as Suricata 8's. */
TEST(unix_memcap_set_changes_the_live_stream_cap)
{
	UnixSocket *u = mk(NULL);
	uint64_t was = stream_memcap_get(0);
	json_t *a = run(u, "{\"command\": \"memcap-set\", \"arguments\": "
			   "{\"config\": \"stream\", \"memcap\": \"96mb\"}}");

	CHECK_STREQ(ret_of(a), "OK");
	CHECK_STREQ(msg_of(a), "memcap value for 'stream' updated: 100663296 ");
	CHECK_EQ(stream_memcap_get(0), 96ull << 20);
	json_decref(a);
	a = run(u, "{\"command\": \"memcap-show\", \"arguments\": {\"config\": \"stream\"}}");
	CHECK_STREQ(ret_of(a), "OK");
	CHECK_STREQ(json_string_value(json_object_get(json_object_get(a, "message"), "value")),
		    "96mb");
	json_decref(a);
	a = run(u, "{\"command\": \"memcap-set\", \"arguments\": "
		   "{\"config\": \"stream\", \"memcap\": \"0\"}}");
	CHECK_STREQ(ret_of(a), "NOK");
	CHECK_STREQ(msg_of(a), "Unlimited value is not allowed for 'stream'");
	CHECK_EQ(stream_memcap_get(0), 96ull << 20);
	json_decref(a);
	a = run(u, "{\"command\": \"memcap-set\", \"arguments\": "
		   "{\"config\": \"nope\", \"memcap\": \"1mb\"}}");
	CHECK_STREQ(msg_of(a), "Memcap value not found. Use 'memcap-list' to show all");
	json_decref(a);
	a = run(u, "{\"command\": \"memcap-set\", \"arguments\": "
		   "{\"config\": \"stream\", \"memcap\": \"9zz\"}}");
	CHECK_STREQ(msg_of(a), "error parsing memcap specified, value not changed");
	json_decref(a);
	/* the app-layer caps take 0: unlimited */
	a = run(u, "{\"command\": \"memcap-set\", \"arguments\": "
		   "{\"config\": \"applayer-proto-ftp\", \"memcap\": \"0\"}}");
	CHECK_STREQ(msg_of(a), "memcap value for 'applayer-proto-ftp' updated: 0 (unlimited)");
	json_decref(a);
	a = run(u, "{\"command\": \"memcap-show\", \"arguments\": {\"config\": \"applayer-proto-ftp\"}}");
	CHECK_STREQ(json_string_value(json_object_get(json_object_get(a, "message"), "value")),
		    "unlimited");
	json_decref(a);
	stream_memcap_set(0, was);
	unix_socket_free(u);
}

/* Features this engine does not have: Suricata 8's answers without them. */
TEST(unix_tenant_bypass_profile_answers)
{
	static const char *const tenant[] = { "register-tenant-handler", "unregister-tenant-handler",
					      "register-tenant", "reload-tenant", "unregister-tenant" };
	UnixSocket *u = mk(NULL);
	char msg[256];
	json_t *a;

	for (size_t i = 0; i < sizeof(tenant) / sizeof(tenant[0]); i++) {
		snprintf(msg, sizeof(msg), "{\"command\": \"%s\", \"arguments\": {\"id\": 1}}",
			 tenant[i]);
		a = run(u, msg);
		CHECK_STREQ(ret_of(a), "NOK");
		CHECK_STREQ(msg_of(a), "multi-tenant support not enabled");
		json_decref(a);
	}
	a = run(u, "{\"command\": \"reload-tenants\"}");
	CHECK_STREQ(msg_of(a), "multi-tenant support not enabled");
	json_decref(a);
	a = run(u, "{\"command\": \"iface-bypassed-stat\"}");
	CHECK_STREQ(ret_of(a), "NOK");
	CHECK_STREQ(msg_of(a), "No interface using bypass");
	json_decref(a);
	a = run(u, "{\"command\": \"ruleset-profile-start\"}");
	CHECK_STREQ(ret_of(a), "NOK");
	json_decref(a);
	/* no worker: no flow of that id */
	a = run(u, "{\"command\": \"get-flow-stats-by-id\", \"arguments\": {\"flow_id\": 42}}");
	CHECK_STREQ(ret_of(a), "NOK");
	CHECK_STREQ(msg_of(a), "Not found");
	json_decref(a);
	/* no detection engine: no hostbit by that name */
	a = run(u, "{\"command\": \"add-hostbit\", \"arguments\": {\"ipaddress\": \"10.0.0.1\", "
		   "\"hostbit\": \"x\", \"expire\": 10}}");
	CHECK_STREQ(msg_of(a), "hostbit not found");
	json_decref(a);
	a = run(u, "{\"command\": \"list-hostbit\", \"arguments\": {\"ipaddress\": \"nope\"}}");
	CHECK_STREQ(msg_of(a), "invalid address string");
	json_decref(a);
	unix_socket_free(u);
}
