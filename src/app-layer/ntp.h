/* NTP (RFC 1305 v3, RFC 5905 v4) over UDP: the parser's view, for
 * detection (detect/ntp-kw.c) and eve (output/ntp-json.c).
 *
 * Every datagram is its own one-way transaction, as Suricata 8.0.5 and
 * later have them (suricata-verify ntp-keywords: an ntp record per message
 * with its version, mode, stratum and reference id). What is kept: those
 * four; the timestamps, extension fields and MAC are read past. */
#ifndef APP_LAYER_NTP_H
#define APP_LAYER_NTP_H

#include "app-layer/txlist.h"

#include <stdint.h>

#define NTP_HDR_LEN 48              /* through the transmit timestamp */

typedef struct NtpMsg {
	uint8_t version;
	uint8_t mode;               /* 0..7, RFC 5905 figure 10 */
	uint8_t stratum;
	uint8_t ref_id[4];
} NtpMsg;

/* Decodes one message: 0; -1 shorter than the header; -2 a version other
 * than 3 and 4, which Suricata's parser refuses. */
int ntp_msg_decode(const uint8_t *buf, uint32_t len, NtpMsg *m);

/* "client", "server", ...; NULL past 7 */
const char *ntp_mode_name(unsigned mode);
/* the mode a name stands for, -1 unknown */
int ntp_mode_by_name(const char *name);

/* Suricata's NTP events; only malformed_data is raised, the others are
 * names its rules may use. */
enum ntp_event {
	NTP_EV_UNSOLICITED_RESPONSE = 0,
	NTP_EV_MALFORMED_DATA,
	NTP_EV_NOT_REQUEST,
	NTP_EV_NOT_RESPONSE,
	NTP_EV_COUNT
};
const char *ntp_event_name(int ev);
int ntp_event_by_name(const char *name);

typedef struct NtpTx {
	AppTx base;
	uint8_t valid;              /* 0: a malformed datagram's event carrier */
	NtpMsg m;
} NtpTx;

#endif
