/* SSH stream parser: one SshState per flow, fed each direction's TCP
 * stream bytes in any segmentation. Per side it reads the identification
 * banner ("SSH-protoversion-softwareversion SP comments CR LF", RFC 4253
 * 4.2), then the cleartext binary packets of the key exchange, reassembled
 * across segments: KEXINIT is decoded for hassh (the client's) and
 * hassh.server, NEWKEYS ends the cleartext phase (the side is "finished":
 * what follows is encrypted and not looked at).
 *
 * Pure: no logging, no globals, no config. Memory: an SshState is one
 * allocation plus, per side, the banner strings, one KEXINIT reassembly
 * buffer (at most SSH_MAX_RECORD) and the hassh string, all bounded. */
#ifndef APP_LAYER_SSH_PARSE_H
#define APP_LAYER_SSH_PARSE_H

#include <stddef.h>
#include <stdint.h>

#define SSH_TOSERVER 0
#define SSH_TOCLIENT 1

/* A banner line longer than this is cut there (long_banner). */
#define SSH_MAX_BANNER 256
/* A KEXINIT record larger than this is skipped (long_kex_record). */
#define SSH_MAX_RECORD 65536

#define SSH_MSG_KEXINIT 20
#define SSH_MSG_NEWKEYS 21

/* Per side, in order (Suricata's hooks: in_progress, banner_wait_eol,
 * banner_done, finished). */
enum ssh_side_state {
	SSH_STATE_IN_PROGRESS = 0,
	SSH_STATE_BANNER_WAIT_EOL,  /* a banner longer than the limit: the
	                             * rest of its line is dropped */
	SSH_STATE_BANNER_DONE,
	SSH_STATE_FINISHED,         /* NEWKEYS: encrypted from here */
};

/* Events: Suricata's names (rules/ssh-events.rules). */
enum ssh_event {
	SSH_EV_INVALID_BANNER,
	SSH_EV_LONG_BANNER,
	SSH_EV_INVALID_RECORD,
	SSH_EV_LONG_KEX_RECORD,
	SSH_EV_COUNT
};

const char *ssh_event_name(int ev);
int ssh_event_by_name(const char *name);

typedef struct SshSide {
	uint8_t state;              /* enum ssh_side_state */
	uint8_t v1;                 /* SSH-1 (not 1.99): no binary packets to read */
	uint8_t dead;               /* lost sync: the rest is ignored */
	uint8_t kexinit;            /* a KEXINIT was decoded */
	/* the banner as it came in (up to the line end, capped) */
	uint8_t line[SSH_MAX_BANNER];
	uint16_t line_len;
	/* from the banner */
	char proto[SSH_MAX_BANNER];
	uint16_t proto_len;
	char software[SSH_MAX_BANNER];
	uint16_t software_len;
	/* binary packet reassembly */
	uint8_t hdr[6];             /* packet_length(4), padding_length, msg code */
	uint8_t hdr_len;
	uint32_t rec_left;          /* bytes of the current packet still due */
	uint8_t msg;                /* the current packet's message code */
	uint8_t *rec;               /* KEXINIT payload being reassembled */
	uint32_t rec_len, rec_cap;
	/* hassh: "kex;enc;mac;comp" of this side's direction, and its MD5 */
	char *hassh_str;
	uint32_t hassh_len;
	char hassh[33];
	uint64_t records;
} SshSide;

typedef struct SshState {
	SshSide side[2];            /* [SSH_TOSERVER] the client's, [SSH_TOCLIENT] the server's */
	uint32_t events[SSH_EV_COUNT];
	uint32_t nevents;
	int want_hassh;             /* compute hassh strings and hashes */
	/* frames (app-layer/frames.h), when the caller wants them: called at
	 * each binary packet's 6-byte header with the packet's place counted
	 * from the first byte ssh_parse() is handed now (negative when its
	 * header began in an earlier call) and its packet_length */
	void (*on_record)(void *arg, int dir, int64_t at, uint32_t plen);
	void *on_record_arg;
	const uint8_t *feed_start;  /* during ssh_parse: its data */
} SshState;

SshState *ssh_state_new(int want_hassh);
void ssh_state_free(SshState *s);

/* Feeds len stream bytes of direction dir. 0, or -1 once that side lost
 * sync (the rest is ignored; an event says why). */
int ssh_parse(SshState *s, int dir, const uint8_t *data, size_t len);

/* Detection: 1 when the bytes start with "SSH-", 0 when they cannot, -1
 * too short to tell. */
int ssh_probe(const uint8_t *data, size_t len);

/* Both sides finished (NEWKEYS each way): the rest of the flow is
 * encrypted. */
int ssh_encrypted(const SshState *s);

/* Decodes a KEXINIT payload (after the message code) into the hassh string
 * of a side: for the client kex;enc_c2s;mac_c2s;comp_c2s, for the server
 * kex;enc_s2c;mac_s2c;comp_s2c. Returns the length written into out (NUL
 * terminated, cap bytes), or -1 when the payload is malformed. */
int ssh_kexinit_hassh(const uint8_t *p, size_t len, int server, char *out, size_t cap);

#endif
