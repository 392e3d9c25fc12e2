/* Feeding the app layer from the stream engine's ready offsets.
 *
 * The stream engine says, per direction, up to where its bytes are in order
 * and final (stream_ready_offset); the app layer remembers how far it has
 * read (Flow.app_progress). A feed hands over the bytes between the two,
 * gaps as gaps and a closed direction as EOF once, then tells the stream
 * engine what the app layer no longer needs: everything read, less what
 * frames still wait for. UDP has no stream: each datagram is one piece. */
#ifndef APP_LAYER_STREAM_FEED_H
#define APP_LAYER_STREAM_FEED_H

#include "app-layer/app-layer.h"
#include "decode/packet.h"
#include "flow/flow.h"

/* Both directions of f's newly ready TCP bytes. p: the packet being
 * processed (NULL at flow end); a midstream flow whose first bytes went the
 * wrong way is reversed (flow_reverse) and p with it. frame_need: what the
 * flow's frames wait for (APP_FRAME_INSPECTED, APP_FRAME_LOGGED): their
 * bytes stay in the stream until then, up to a bound. */
void app_layer_feed(AppLayerThread *at, Flow *f, Packet *p, unsigned frame_need);

/* A reader of every in-order TCP byte the app layer is handed (Lua's
 * streaming outputs): off is the stream offset of data[0] in dir. NULL
 * (the default) costs the feed one test. Set before packets flow. */
typedef void (*AppStreamTap)(Flow *f, Packet *p, int dir, const uint8_t *data, uint32_t len,
			     uint64_t off);
void app_layer_stream_tap_set(AppStreamTap tap);

/* One UDP datagram of f: the payload of p in p's direction; a first
 * datagram its protocol says goes the other way reverses f and p. */
void app_layer_feed_udp(AppLayerThread *at, Flow *f, Packet *p);

#endif
