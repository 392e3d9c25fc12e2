/* SSH as the app layer runs it (ssh-proto.c): one transaction per flow,
 * holding the stream parser's state (ssh-parse.h). What detection and the
 * eve logger may ask of an SSH transaction.
 *
 * Progress per side: 1 the banner is being read, 2 banner done
 * (ssh.proto, ssh.software), 3 its KEXINIT was read (hassh), 4 done:
 * NEWKEYS (encrypted from there), the side closed, or its stream could no
 * longer be read. The ssh record goes out when both sides are done or at
 * flow end. */
#ifndef APP_LAYER_SSH_H
#define APP_LAYER_SSH_H

#include "app-layer/ssh-parse.h"

#define SSH_PROGRESS_BANNER 2
#define SSH_PROGRESS_KEX 3
#define SSH_PROGRESS_DONE 4

/* The parser state of an SSH transaction (tx from app_layer_tx_get()). */
const SshState *ssh_tx_state(const void *tx);
/* The eve anomaly logger's memory of the events it wrote (bit = event). */
uint32_t *ssh_tx_events_logged(void *tx);

/* app-layer.protocols.ssh.hassh: on when the yaml says so, or when a
 * loaded rule reads a hassh buffer (Suricata's keywords turn it on). The
 * rule loader calls ssh_hassh_request() at start, before any flow. */
void ssh_hassh_request(void);
int ssh_hassh_enabled(void);

#endif
