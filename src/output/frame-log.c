/* Frames after a packet (entry "frame" of the logger list): their eve
 * records (frame-json.c), then the frames everyone is done with go. */
#include "output/logger-int.h"
#include "app-layer/app-layer.h"
#include "app-layer/frames.h"
#include "stream/stream.h"

/* At the flow's end every frame left logs, p then facing each direction
 * in turn. */
static void frames_done(OutputThread *ot, Packet *p, Flow *f, int eof)
{
	unsigned need;

	if (!app_frames_on(f))
		return;
	need = output_frame_need(ot);
	if (need & APP_FRAME_LOGGED) {
		if (!eof)
			output_frames(ot->o, p, f, 0);
		else
			for (int d = 0; d < 2; d++)
				output_frames(ot->o, stream_end_packet(ot->end_pkt, f, d), f, 1);
	}
	for (int d = 0; d < 2; d++)
		app_frames_gc(f, d, need);
}

static void frame_packet(OutputThread *ot, const OutputPacketCtx *pc)
{
	if (pc->f && pc->f->alstate)
		frames_done(ot, pc->p, pc->f, 0);
}

/* An exception policy that passed, bypassed or dropped the flow ended its
 * frames' inspection and logging too. */
static void frame_flow_end(OutputThread *ot, Flow *f, Packet *last, enum flow_end_reason why)
{
	(void)why;
	if (f->alstate && !f->ep_flags)
		frames_done(ot, last, f, 1);
}

const OutputLogger output_logger_frame = { "frame", frame_packet, frame_flow_end };
