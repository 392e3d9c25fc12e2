/* Frames: protocol units inside a direction's data (Suricata 7/8 "frames"):
 * an NBSS PDU, an SMB2 header, a DCE/RPC fragment, a DNS message, ... A
 * parser marks each one by where it starts (TCP: the direction's stream
 * offset; UDP: the offset in the datagram), its length (-1 while unknown)
 * and its type, a small number from the protocol's own name table
 * (AppProtoOps.frame_names: "smb2.data", "pdu", ...). Rules inspect them
 * with `frame:<proto>.<type>` (detect/frame-kw.c) and eve logs them
 * (event_type frame, and an alert's "frame" object: output/frame-json.c).
 *
 * Frames keep no bytes of their own: a TCP frame's bytes are read back from
 * the stream (stream_get_data), which keeps them because the runmode
 * releases the app layer's data only up to app_frames_keep_from(); a UDP
 * frame's bytes are those of the datagram being processed.
 *
 * Cost when unused: parsers call app_frame_new() only after
 * app_frames_on(f) said yes, which is one flag of the flow's app-layer
 * state, set when some rule uses frames or frame logging is on
 * (AppLayerConfig.frames). Nothing is allocated otherwise. */
#ifndef APP_LAYER_FRAMES_H
#define APP_LAYER_FRAMES_H

#include "flow/flow.h"

#include <stdint.h>

/* AppFrame.flags */
#define APP_FRAME_TX        0x01  /* tx_id is set */
#define APP_FRAME_INSPECTED 0x02  /* detection is done with it */
#define APP_FRAME_LOGGED    0x04  /* eve frame record written */

/* The stream frame (Suricata's "<proto>.stream", any protocol): the whole
 * of a TCP direction's data, from its first byte, length unknown (-1);
 * made when a rule inspects it, or, as a placeholder nothing reads that
 * only takes id 1 as Suricata's does, when eve logs frames
 * (AppLayerConfig.frames_stream). */
#define APP_FRAME_TYPE_STREAM 255

/* Frames kept per direction at most: a parser that opens more (a flood of
 * tiny PDUs nobody consumed) has the oldest handed on as done. */
#define APP_FRAMES_MAX 256

typedef struct AppFrame {
	uint64_t off;           /* TCP: stream offset; UDP: offset in the datagram */
	int64_t len;            /* -1: not known (yet) */
	int64_t id;             /* from 1, per flow direction (eve frame.id) */
	uint64_t tx_id;         /* with APP_FRAME_TX */
	uint64_t pkt;           /* UDP: the flow's packet number of its datagram */
	uint64_t progress;      /* bytes from off detection has inspected for good
	                         * (IPS sliding window: detect/frame-kw.c) */
	uint8_t type;           /* index into the protocol's frame_names */
	uint8_t flags;          /* APP_FRAME_* */
	uint16_t alproto;       /* the protocol that made it */
} AppFrame;

/* ---- parsers ---- */

/* Whether frames are wanted on f (a rule or the eve frame logger uses
 * them): parsers test this before computing anything for a frame. */
int app_frames_on(const Flow *f);
/* The offset of the first byte of the data the parser is being handed now
 * in dir (TCP: stream offset; UDP: 0). */
uint64_t app_frame_offset(const Flow *f, int dir);
/* A new frame of f's protocol in dir; its id (>= 1), or -1 when frames are
 * off or no memory (counted nowhere: the frame is just not there). */
int64_t app_frame_new(Flow *f, int dir, uint64_t off, int64_t len, unsigned type);
void app_frame_set_len(Flow *f, int dir, int64_t id, int64_t len);
/* Moves the start of frame id back to off (a parser that learns late
 * where it began), keeping its end when its length is known. */
void app_frame_set_start(Flow *f, int dir, int64_t id, uint64_t off);
void app_frame_set_tx(Flow *f, int dir, int64_t id, uint64_t tx_id);

/* ---- names (the protocols' tables) ---- */

/* "smb2.data" (NULL when the protocol has no such type). */
const char *app_frame_type_name(uint16_t alproto, unsigned type);
/* Type of alproto by its name in the protocol's table, or -1. */
int app_frame_type_by_name(uint16_t alproto, const char *name);

/* ---- detection and outputs ---- */

/* The frames of dir (NULL and 0 when none). */
AppFrame *app_frames_get(const Flow *f, int dir, uint32_t *n);
/* Whether all of fr's bytes went by in the data the parser was handed
 * (gaps included), or its direction ended. */
int app_frame_done(const Flow *f, int dir, const AppFrame *fr);
/* Whether dir's data moved on (new bytes, or its end) since the last call
 * that said so: IPS inspects the frames again then. */
int app_frames_updated(Flow *f, int dir);
/* The offset of the next byte of dir the parser will be handed: what went
 * by so far. */
uint64_t app_frames_edge(const Flow *f, int dir);
/* Its length, or while unknown what went by since its start. */
uint64_t app_frame_length(const Flow *f, int dir, const AppFrame *fr);
/* The lowest stream offset a frame of dir that is not yet done with every
 * flag of need still needs (its start, past what detection inspected for
 * good; UINT64_MAX: none): the stream keeps its bytes from there. */
uint64_t app_frames_keep_from(const Flow *f, int dir, unsigned need);
/* Drops the frames of dir that are done and carry every flag of need. */
void app_frames_gc(Flow *f, int dir, unsigned need);

#endif
