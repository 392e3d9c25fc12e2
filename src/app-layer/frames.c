/* Frames of a flow (frames.h): per direction, a small array in the order
 * the parser opened them, and where the data handed to the parser has got
 * to, which says when a frame's bytes have all gone by. */
#include "app-layer/frames.h"
#include "app-layer/app-layer-int.h"

#include <stdlib.h>
#include <string.h>

typedef struct FrameDir {
	AppFrame *v;
	uint32_t n, cap;
	int64_t last_id;        /* ids run from 1 per direction, as Suricata's */
	uint64_t off;           /* offset of the next byte handed to the parser */
	uint8_t eof;
	uint8_t stream_made;    /* the stream frame exists */
	uint8_t seen_eof;       /* app_frames_updated(): what it last reported */
	uint64_t seen_off;
} FrameDir;

struct AppFrames {
	FrameDir d[2];
};

static AppFlowState *fstate(const Flow *f)
{
	return f ? f->alstate : NULL;
}

int app_frames_on(const Flow *f)
{
	const AppFlowState *fs = fstate(f);

	return fs && fs->frames_on;
}

uint64_t app_frame_offset(const Flow *f, int dir)
{
	const AppFlowState *fs = fstate(f);

	if (!fs || !fs->frames || dir < 0 || dir > 1)
		return 0;
	return fs->frames->d[dir].off;
}

static FrameDir *fdir(const Flow *f, int dir)
{
	const AppFlowState *fs = fstate(f);

	if (!fs || !fs->frames || dir < 0 || dir > 1)
		return NULL;
	return &fs->frames->d[dir];
}

static AppFrame *by_id(FrameDir *d, int64_t id)
{
	/* the frame a parser adjusts is nearly always one of the last */
	for (uint32_t i = d->n; i-- > 0;)
		if (d->v[i].id == id)
			return &d->v[i];
	return NULL;
}

static struct AppFrames *frames_get(AppFlowState *fs)
{
	if (!fs->frames)
		fs->frames = calloc(1, sizeof(*fs->frames));
	return fs->frames;
}

int64_t app_frame_new(Flow *f, int dir, uint64_t off, int64_t len, unsigned type)
{
	AppFlowState *fs = fstate(f);
	FrameDir *d;
	AppFrame *fr;

	if (!fs || !fs->frames_on || dir < 0 || dir > 1 || type > 255 || !frames_get(fs))
		return -1;
	d = &fs->frames->d[dir];
	if (d->n == APP_FRAMES_MAX) {
		/* nobody took the oldest: it goes, so that a flood of PDUs
		 * cannot grow the array (nor hold the stream) without end */
		memmove(d->v, d->v + 1, (d->n - 1) * sizeof(*d->v));
		d->n--;
	}
	if (d->n == d->cap) {
		uint32_t cap = d->cap ? d->cap * 2 : 8;
		AppFrame *nv = realloc(d->v, cap * sizeof(*nv));

		if (!nv)
			return -1;
		d->v = nv;
		d->cap = cap;
	}
	fr = &d->v[d->n++];
	memset(fr, 0, sizeof(*fr));
	fr->off = off;
	fr->len = len;
	fr->id = ++d->last_id;
	fr->type = (uint8_t)type;
	fr->alproto = f->app_proto;
	fr->pkt = f->pkts_toserver + f->pkts_toclient;
	return fr->id;
}

void app_frame_set_len(Flow *f, int dir, int64_t id, int64_t len)
{
	FrameDir *d = fdir(f, dir);
	AppFrame *fr = d ? by_id(d, id) : NULL;

	if (fr)
		fr->len = len;
}

void app_frame_set_start(Flow *f, int dir, int64_t id, uint64_t off)
{
	FrameDir *d = fdir(f, dir);
	AppFrame *fr = d ? by_id(d, id) : NULL;

	if (!fr || off >= fr->off)
		return;
	if (fr->len >= 0)
		fr->len += (int64_t)(fr->off - off);
	fr->off = off;
}

void app_frame_set_tx(Flow *f, int dir, int64_t id, uint64_t tx_id)
{
	FrameDir *d = fdir(f, dir);
	AppFrame *fr = d ? by_id(d, id) : NULL;

	if (fr) {
		fr->tx_id = tx_id;
		fr->flags |= APP_FRAME_TX;
	}
}

void frames_begin(Flow *f, AppFlowState *fs, int dir, uint32_t len, int flags)
{
	FrameDir *d;

	if (!(fs->frames_on & APP_FRAMES_STREAM) || f->proto != 6 || !len || (flags & APP_GAP) ||
	    !frames_get(fs) || dir < 0 || dir > 1)
		return;
	d = &fs->frames->d[dir];
	if (d->stream_made)
		return;
	/* from the first bytes the parser gets (the protocol is known), and
	 * before the parser's own frames, as Suricata's is always id 1 */
	d->stream_made = 1;
	if (app_frame_new(f, dir, d->off, -1, APP_FRAME_TYPE_STREAM) > 0 &&
	    (fs->frames_on & APP_FRAMES_STREAM_ID_ONLY))
		/* done with at once: it never holds the stream's bytes */
		d->v[d->n - 1].flags |= APP_FRAME_INSPECTED | APP_FRAME_LOGGED;
}

void frames_advance(Flow *f, AppFlowState *fs, int dir, uint32_t len, int flags)
{
	FrameDir *d;

	(void)f;
	if (!frames_get(fs) || dir < 0 || dir > 1)
		return;
	d = &fs->frames->d[dir];
	d->off += len;
	if (flags & APP_EOF)
		d->eof = 1;
}

void frames_datagram(Flow *f, AppFlowState *fs, int dir)
{
	FrameDir *d;

	(void)f;
	if (!frames_get(fs) || dir < 0 || dir > 1)
		return;
	/* a datagram's frames live as long as the datagram: the next one
	 * starts afresh (ids go on) */
	d = &fs->frames->d[dir];
	d->n = 0;
	d->off = 0;
}

void frames_free(AppFlowState *fs)
{
	if (!fs->frames)
		return;
	free(fs->frames->d[0].v);
	free(fs->frames->d[1].v);
	free(fs->frames);
	fs->frames = NULL;
}

const char *app_frame_type_name(uint16_t alproto, unsigned type)
{
	const AppProtoOps *ops = app_proto_ops(alproto);

	if (ops && type == APP_FRAME_TYPE_STREAM)
		return "stream";
	if (!ops || !ops->frame_names)
		return NULL;
	for (unsigned i = 0; ops->frame_names[i]; i++)
		if (i == type)
			return ops->frame_names[i];
	return NULL;
}

int app_frame_type_by_name(uint16_t alproto, const char *name)
{
	const AppProtoOps *ops = app_proto_ops(alproto);

	if (ops && name && strcmp(name, "stream") == 0 && (ops->ipprotos & APP_IPPROTO_TCP))
		return APP_FRAME_TYPE_STREAM;
	if (!ops || !ops->frame_names || !name)
		return -1;
	for (int i = 0; ops->frame_names[i]; i++)
		if (strcmp(ops->frame_names[i], name) == 0)
			return i;
	return -1;
}

AppFrame *app_frames_get(const Flow *f, int dir, uint32_t *n)
{
	FrameDir *d = fdir(f, dir);

	*n = d ? d->n : 0;
	return d && d->n ? d->v : NULL;
}

int app_frame_done(const Flow *f, int dir, const AppFrame *fr)
{
	FrameDir *d = fdir(f, dir);

	if (!d)
		return 0;
	if (f->proto == 17 || d->eof)
		return 1;
	return fr->len >= 0 && d->off >= fr->off + (uint64_t)fr->len;
}

int app_frames_updated(Flow *f, int dir)
{
	FrameDir *d = fdir(f, dir);

	if (!d || (d->off == d->seen_off && d->eof == d->seen_eof))
		return 0;
	d->seen_off = d->off;
	d->seen_eof = d->eof;
	return 1;
}

uint64_t app_frames_edge(const Flow *f, int dir)
{
	FrameDir *d = fdir(f, dir);

	return d ? d->off : 0;
}

uint64_t app_frame_length(const Flow *f, int dir, const AppFrame *fr)
{
	FrameDir *d = fdir(f, dir);

	if (fr->len >= 0)
		return (uint64_t)fr->len;
	return d && d->off > fr->off ? d->off - fr->off : 0;
}

uint64_t app_frames_keep_from(const Flow *f, int dir, unsigned need)
{
	FrameDir *d = fdir(f, dir);
	uint64_t lo = UINT64_MAX;

	if (!d || f->proto == 17)
		return lo;
	for (uint32_t i = 0; i < d->n; i++)
		if ((d->v[i].flags & need) != need && d->v[i].off + d->v[i].progress < lo)
			lo = d->v[i].off + d->v[i].progress;
	return lo;
}

void app_frames_gc(Flow *f, int dir, unsigned need)
{
	FrameDir *d = fdir(f, dir);
	uint32_t k = 0;

	if (!d || f->proto == 17)
		return;
	for (uint32_t i = 0; i < d->n; i++) {
		const AppFrame *fr = &d->v[i];

		if ((fr->flags & need) == need && app_frame_done(f, dir, fr))
			continue;
		if (k != i)
			d->v[k] = *fr;
		k++;
	}
	d->n = k;
}
