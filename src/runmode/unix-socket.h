/* The unix socket (unix-command: in suricata.yaml, --unix-socket[=file]):
 * Suricata's JSON protocol. A client connects, sends {"version": "0.2"}
 * (or "0.1") and gets {"return": "OK"}; then each message
 * {"command": NAME, "arguments": {...}} gets {"return": "OK"|"NOK",
 * "message": ...} (with protocol 0.2 each answer ends with a newline). An
 * unknown command is answered NOK "Unknown command"; a message that is not
 * JSON, has no command string, or lacks the arguments object a command
 * needs closes the connection, as Suricata does.
 *
 * One thread of its own serves every client (poll, 200 ms ticks); it never
 * touches the packet path: counters come from their snapshot, a reload is
 * the reload thread's (reload.h), shutdown and reopen-log-files set the same
 * flags as SIGTERM and SIGHUP. */
#ifndef RUNMODE_UNIX_SOCKET_H
#define RUNMODE_UNIX_SOCKET_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

struct Engine;
struct Reloader;
struct RunControl;
struct PcapQueue;

/* Interfaces iface-list names at most (the capture's, in order). */
#define UNIX_SOCKET_IFACES_MAX 16

typedef struct UnixSocketConfig {
	const char *path;              /* the socket file */
	const char *runmode;           /* running-mode's answer */
	const char *capture_mode;      /* capture-mode's: PCAP_FILE, PCAP_DEV, AF_PACKET_DEV */
	const char *const *ifaces;     /* iface-list, iface-stat; at most
	                                * UNIX_SOCKET_IFACES_MAX */
	unsigned nifaces;
	struct Reloader *reload;       /* NULL: detection disabled */
	struct RunControl *ctl;        /* shutdown, reopen-log-files; NULL: none */
	/* the unix-socket runmode: the pcap-file commands feed it (NULL: they
	 * are unknown commands, as in Suricata's other runmodes) */
	struct PcapQueue *pcap;
	/* a client that sends nothing for this long is closed; 0: the default,
	 * UNIX_SOCKET_IDLE_MS (tests set a short one) */
	unsigned idle_timeout_ms;
} UnixSocketConfig;

/* Suricata 8 has no setting for it: idle clients were never closed, so
 * that 16 connections that only sat there locked every other client out.
 * A minute is far longer than any client's pause between two commands
 * (suricatasc, Evebox, scripts: connect, ask, close). When all slots are
 * taken, the client idle longest is closed for the new one. */
#define UNIX_SOCKET_IDLE_MS 60000u

typedef struct UnixSocket UnixSocket;

/* The state the commands answer from, without a socket (tests, and the
 * socket's own). NULL on no memory. */
UnixSocket *unix_socket_new(const UnixSocketConfig *cfg);
/* Binds and listens (the file is replaced; a relative path is under the
 * run directory, LOCALSTATEDIR/run/suricata/, which is made). 0, or -1
 * with one line in err. */
int unix_socket_listen(UnixSocket *u, char *err, size_t errlen);
/* The serving thread. 0 or -1. */
int unix_socket_start(UnixSocket *u);
/* Stops the thread, closes the clients, removes the socket file. */
void unix_socket_free(UnixSocket *u);
/* The path it listens on (after unix_socket_listen). */
const char *unix_socket_path(const UnixSocket *u);

/* One command message (text) -> the answer object (caller's to decref).
 * NULL: the message is invalid (the connection is to be closed). */
json_t *unix_socket_execute(UnixSocket *u, const char *msg, size_t len);

/* The counters as eve's stats record nests them ("decoder.pkts" ->
 * {"decoder": {"pkts": N}}), with "uptime" (dump-counters). */
json_t *unix_socket_counters(uint64_t uptime_s);

#endif
