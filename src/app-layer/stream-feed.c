/* The app layer's reader of the stream engine (stream-feed.h). */
#include "app-layer/stream-feed.h"
#include "app-layer/frames.h"
#include "stream/stream.h"

#include <stdint.h>

static AppStreamTap stream_tap;

void app_layer_stream_tap_set(AppStreamTap tap)
{
	stream_tap = tap;
}

/* Stream bytes kept behind the app layer for frames not yet inspected or
 * logged, at most: a frame longer than this shows its first bytes as
 * missing rather than hold the stream without bound. */
#define FRAMES_HOLD_MAX (256u * 1024u)

/* Bytes the stream may drop for dir once the app layer has read up to pos:
 * all of them, unless frames still wait for theirs. */
static uint64_t release_edge(const Flow *f, int dir, uint64_t pos, unsigned frame_need)
{
	uint64_t keep;

	if (!app_frames_on(f))
		return pos;
	keep = app_frames_keep_from(f, dir, frame_need);
	if (keep >= pos)
		return pos;
	return pos - keep > FRAMES_HOLD_MAX ? pos - FRAMES_HOLD_MAX : keep;
}

/* Hands the newly ready bytes of dir to the app layer (gaps as gaps, EOF
 * once), then tells the stream engine what it may drop. Returns 1 when the
 * flow was reversed instead (nothing of dir consumed). */
static int feed_dir(AppLayerThread *at, Flow *f, Packet *p, int dir, unsigned frame_need)
{
	uint64_t ready = stream_ready_offset(f, dir);
	uint64_t *pos = &f->app_progress[dir];
	int fl = (stream_is_midstream(f) ? APP_MIDSTREAM : 0) |
		 (stream_is_async(f) ? APP_ONESIDED : 0);
	const uint8_t *data;
	uint32_t len;
	uint64_t base;

	while (*pos < ready && stream_get_data(f, dir, *pos, &data, &len, &base)) {
		if (base > *pos) {
			uint64_t gap = base - *pos;

			app_layer_handle_data(at, f, dir, NULL,
					      gap > UINT32_MAX ? UINT32_MAX : (uint32_t)gap,
					      APP_GAP);
		}
		f->app_data_off1[dir] = base + 1;
		if (app_layer_handle_data(at, f, dir, data, len, fl) == APP_REVERSE) {
			f->app_data_off1[dir] = 0;
			*pos = base;
			flow_reverse(f, p);
			return 1;
		}
		f->app_data_off1[dir] = 0;
		if (stream_tap)
			stream_tap(f, p, dir, data, len, base);
		*pos = base + len;
	}
	if (*pos < ready) {
		/* released or skipped bytes up to the ready edge: a gap */
		app_layer_handle_data(at, f, dir, NULL, (uint32_t)(ready - *pos), APP_GAP);
		*pos = ready;
	}
	/* cut by the depth (or the memcap): once its ready bytes are in, no
	 * more will come, and its transactions' side is done (Suricata's
	 * truncation on STREAM_DEPTH) */
	if ((stream_dir_flags(f, dir) & STREAM_DIR_DEPTH_REACHED) && *pos >= ready)
		f->app_trunc |= (uint8_t)(1u << dir);
	if ((stream_dir_flags(f, dir) & STREAM_DIR_EOF) && !(f->app_eof & (1u << dir))) {
		f->app_eof |= (uint8_t)(1u << dir);
		app_layer_handle_data(at, f, dir, NULL, 0, APP_EOF);
	}
	stream_release(f, dir, STREAM_CONSUMER_APP, release_edge(f, dir, *pos, frame_need));
	return 0;
}

/* Both directions; after a reversal (at most once per flow) from the start,
 * as the bytes just refused now belong to the other direction. */
void app_layer_feed(AppLayerThread *at, Flow *f, Packet *p, unsigned frame_need)
{
	for (int dir = 0; dir < 2; dir++)
		if (feed_dir(at, f, p, dir, frame_need))
			dir = -1;
}

/* As Suricata's UDP app layer takes it: detection on the first datagrams,
 * then the parser. A first datagram that its protocol says goes the other
 * way (a DNS response) turns the flow and the packet round, as Suricata
 * swaps them, and is parsed in its true direction; a datagram that names
 * nothing leaves the flow as it is (suricata-verify vxlan-decoder-01). */
void app_layer_feed_udp(AppLayerThread *at, Flow *f, Packet *p)
{
	int dir = (p->flags & PKT_TOCLIENT) ? APP_DIR_TOCLIENT : APP_DIR_TOSERVER;

	if (app_layer_handle_data(at, f, dir, p->payload, p->payload_len, 0) != APP_REVERSE)
		return;
	flow_reverse(f, p);
	dir = (p->flags & PKT_TOCLIENT) ? APP_DIR_TOCLIENT : APP_DIR_TOSERVER;
	app_layer_handle_data(at, f, dir, p->payload, p->payload_len, 0);
}
