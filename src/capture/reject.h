/* Reject on the wire: the replies of reject, rejectsrc, rejectdst and
 * rejectboth rules (a TCP RST; for other protocols an ICMP / ICMPv6 port
 * unreachable), sent for packets of live sources in IDS and IPS runs, as
 * Suricata 8 does. A capture source that can put frames on its link
 * (af-packet: back out of the interface the packet came in on) sends them
 * itself (CaptureOps.inject); the others go through a raw IP socket, which
 * the host routes (an nfq router). Files never send anything. */
#ifndef CAPTURE_REJECT_H
#define CAPTURE_REJECT_H

#include "decode/packet.h"

#include <stdint.h>

enum reject_dir { REJECT_TO_SRC = 1, REJECT_TO_DST = 2, REJECT_BOTH = 3 };

/* Opens the raw sockets (once, before the capture threads start). 0, or -1
 * logged: without them only sources with inject() can reject. */
int reject_init(void);
void reject_fini(void);

/* The reply to p towards its source (to_src) or its destination, an IP
 * packet written into buf (size bytes): RST for TCP (RFC 793's rules for
 * seq and ack), ICMP port unreachable carrying p's IP header and 8 bytes
 * for the rest. Its length, or 0 when p gets none (not IP, an ICMP error,
 * a RST, a fragment). */
uint32_t reject_build(const Packet *p, int to_src, uint8_t *buf, uint32_t size);

/* Sends the replies dir asks for. The count sent. */
int reject_send(const Packet *p, enum reject_dir dir);

#endif
