/* The unix socket beside a run, and Suricata's unix-socket runmode
 * (--unix-socket without -r or a live capture): the engine waits and runs
 * each pcap file a client sends (pcap-file command) in turn, with the
 * loaded detection engine, until SIGTERM or the shutdown command. */
#ifndef RUNMODE_UNIX_SOCKET_RUNMODE_H
#define RUNMODE_UNIX_SOCKET_RUNMODE_H

#include "runmode/pcap-queue.h"
#include "runmode/runmode.h"
#include "runmode/unix-socket.h"

/* unix-command.enabled (yes, no, auto: as Suricata, on except when reading
 * files), or forced (--unix-socket). */
int unix_socket_wanted(int forced, enum capture_kind kind);

/* The command socket beside the runmode, at path (NULL: unix-command.filename
 * or the default). pq: the unix-socket runmode's queue, NULL in the others.
 * A socket that cannot be made is a warning, as in Suricata (the sensor
 * runs without it, *out NULL), except in the unix-socket runmode, where it
 * is the input. cc: the ncc interfaces (iface-list, iface-stat), or the
 * file source. 0, or -1 logged. */
int unix_socket_setup(const char *path, Engine *e, const CaptureConfig *cc, unsigned ncc,
		      PcapQueue *pq, UnixSocket **out);

/* Runs the queue's files until e->ctl's stop flag. */
void unix_socket_runmode(Engine *e, CaptureConfig *cc, PcapQueue *q);

#endif
