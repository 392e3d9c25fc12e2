/* TFTP (RFC 1350) over UDP: the parser's view, for eve (output/tftp-json.c).
 *
 * As in Suricata 8, what is parsed is the request to port 69: a zero byte,
 * the opcode, the file name and the mode, each NUL-terminated; every such
 * datagram is a transaction (opcodes other than read and write are logged
 * as "error", as Suricata does). The transfer itself runs between two new
 * ports and is not followed: Suricata 8 extracts no TFTP files. */
#ifndef APP_LAYER_TFTP_H
#define APP_LAYER_TFTP_H

#include "app-layer/txlist.h"

#include <stdint.h>

#define TFTP_RRQ 1
#define TFTP_WRQ 2
#define TFTP_DATA 3
#define TFTP_ACK 4
#define TFTP_ERROR 5
#define TFTP_OACK 6                 /* RFC 2347 */

typedef struct TftpReq {
	uint8_t opcode;
	char *file;                 /* copied, NUL-terminated (no NUL inside) */
	uint32_t file_len;
	char *mode;
	uint32_t mode_len;
} TftpReq;

/* Decodes a request: 0, -1 when the datagram is not one (nothing to free),
 * -2 out of memory. */
int tftp_req_decode(const uint8_t *buf, uint32_t len, TftpReq *r);
void tftp_req_free(TftpReq *r);
/* "read", "write", else "error" (Suricata's words) */
const char *tftp_packet_name(uint8_t opcode);

typedef struct TftpTx {
	AppTx base;
	TftpReq r;
} TftpTx;

#endif
