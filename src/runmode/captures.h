/* The engine's capture handles: one per capture thread (one in single and
 * autofp, the section's threads in workers), opened before a run and
 * closed after it. Used by main and by the unix-socket runmode, which
 * opens a fresh set for each file it is sent. */
#ifndef RUNMODE_CAPTURES_H
#define RUNMODE_CAPTURES_H

#include "runmode/runmode.h"

/* Opens each of the n sources' threads handles into e->caps, interface
 * after interface (the workers runmode gives each handle its thread); each
 * stops on e->ctl's stop flag when e->ctl is set. 0, or -1 logged (what
 * was opened stays for captures_close). */
int captures_open(Engine *e, const CaptureConfig *cc, unsigned n);
void captures_close(Engine *e);

/* eve-log pcap-file: the file the reader is in (Suricata's is its reader's
 * current file too, when the record is written). arg: the Capture. */
const char *captures_pcap_filename(void *arg);

/* Every counter a run has, registered in the order the stats record shows
 * them, then frozen: before the capture opens (a source sizes its counter
 * block when it opens). For main and the fuzz harness alike. */
/* firewall: firewall mode's counters (firewall.*) too */
void engine_register_counters(const CaptureOps *ops, int ips, int firewall);

#endif
