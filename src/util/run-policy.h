/* The run policy: IDS or IPS, stream inline mode, exception policies.
 *
 * Resolved once at start-up from the command line (--simulate-ips; an IPS
 * capture mode would set it too) and the yaml (stream.inline, the
 * *-policy keys), then passed by value to what acts on it: the stream
 * engine's config (inline mode), detection's config (drop rules drop),
 * the alert writer's config (eve's "blocked", fast.log's [Drop]), the
 * verdict's counters and the exception-policy table of the packet path.
 * Nothing else decides whether the engine is inline. */
#ifndef UTIL_RUN_POLICY_H
#define UTIL_RUN_POLICY_H

#include "util/exception-policy.h"

typedef struct RunPolicy {
	int ips;               /* inline: drop and reject rules drop packets */
	int stream_inline;     /* stream.inline; its auto resolved (inline in IPS) */
	EpConfig ep;           /* effective exception policies (exception-policy.h) */
} RunPolicy;

/* ips: the IPS switch (--simulate-ips); stream_inline: stream.inline as
 * read (-1: auto); midstream: stream.midstream. Reads the exception-policy
 * keys. 0, or -1 with the key and value logged (Suricata 8 stops on an
 * invalid policy). */
int run_policy_resolve(RunPolicy *rp, int ips, int stream_inline, int midstream);

#endif
