/* Raw stream inspection: the reassembled bytes of a TCP direction as the
 * stream rules see them. IDS: windows of the data that became ready, when
 * it is due (stream_due). Inline (IPS): a window of stored bytes around
 * each packet. The match ids of a window come from the packet's prefilter
 * source (prefilter.h). */
#include "detect/prefilter.h"
#include "detect/stream-cov.h"
#include "stream/stream.h"

/* What inspect_header checks of a rule's ports, alone: the class-wide
 * group's port hulls let through every rule whose ports lie between the
 * extremes ([80,8080] takes 443), and each one is then an inspection that
 * inspect_header rejects at once. Exact, so the alerts are the same. */
static inline int stream_ports_ok(const DetectSig *ds, const Packet *p)
{
	const Signature *s = ds->s;

	if (!ds->port_check)
		return 1;
	if (portset_match(&s->dp, p->dp) && portset_match(&s->sp, p->sp))
		return 1;
	return (s->flags & SIG_FLAG_BIDIR) && portset_match(&s->dp, p->sp) &&
	       portset_match(&s->sp, p->dp);
}

/* One window of reassembled data of direction d (p already faces d), from
 * where the last inspection of that direction ended: as Suricata's raw
 * stream chunks, windows do not overlap, and anchored content (depth,
 * offset) is anchored at the window's start. */
static void stream_window_cands(DetectThread *dt, const DetectPkt *pk, const SigGroup *pg,
				const uint8_t *data, uint32_t len, int d, uint64_t base)
{
	const DetectEngine *de = dt->de;
	const SigGroup *g = pg->ss ? pg->ss : pg;
	const Packet *p = pk->p;
	CandSet *cs = &dt->cand;

	if (g->mpm && dt->scratch_g[g->sidx]) {
		const uint32_t *ids;
		uint32_t n;

		mpm_matchset_clear(dt->ms);
		pk->src->stream_ids(dt, g, data, len, d, base, pk->fs);
		n = mpm_matchset_count(dt->ms);
		ids = mpm_matchset_ids(dt->ms);
		/* the port hull as for a payload (prefilter.c mark_pid): the
		 * class-wide groups of ac-cuda's stream view hold every port's
		 * rules, and inspect_header would reject these on p, which
		 * faces d */
		for (uint32_t i = 0; i < n; i++)
			for (uint32_t k = g->pid_off[ids[i]]; k < g->pid_off[ids[i] + 1]; k++) {
				uint32_t num = g->pid_sigs[k];
				const uint16_t *h = g->pid_ports[k];

				if (!de->sigs[num].stream_ok || p->sp < h[0] || p->sp > h[1] ||
				    p->dp < h[2] || p->dp > h[3] || !stream_ports_ok(&de->sigs[num], p))
					continue;
				cand_mark(cs, num);
			}
	}
	for (uint32_t i = 0; i < pg->nalways; i++) {
		uint32_t num = pg->always[i].num;

		if (!de->sigs[num].stream_ok)
			continue;
		cand_mark(cs, num);
	}
}

static void stream_window(DetectThread *dt, DetectPkt *pk, const uint8_t *data, uint32_t len,
			  int d, uint64_t base)
{
	const DetectEngine *de = dt->de;
	CandSet *cs = &dt->cand;
	CandWalk it = { 0 };
	uint32_t num;
	InspectBuffer sb = { data, len, IBUF_STREAM };
	int iponly_ok = pk->iponly_ok;

	stream_window_cands(dt, pk, pk->src->stream_group(de, pk->p, d), data, len, d, base);
	if (!cs->nwords)
		return;
	/* stream data is no packet of the direction: ip-only's once per
	 * direction does not apply to it */
	pk->iponly_ok = 1;
	pk->in_stream = 1;
	cand_sort(cs);
	while (cand_next(cs, &it, &num)) {
		const DetectSig *ds = &de->sigs[num];

		dt->ninspect[INSPECT_STREAM]++;
		if (!detect_inspect_sig(dt, pk, ds, &sb))
			continue;
		dt->stream_hit[num] = dt->pkt_seq;
		pk->data = data;
		pk->data_len = len;
		detect_sig_matched_pkt(dt, pk, ds, pk->p);
		pk->data = NULL;
		pk->data_len = 0;
	}
	cand_end(cs, &it);
	pk->in_stream = 0;
	pk->iponly_ok = iponly_ok;
}

/* Whether the stream data of p's direction is inspected on p (IDS), as
 * Suricata limits raw stream inspection: once a chunk of it is ready
 * (stream.reassembly.to*-chunk-size of ACKed data not yet inspected), when
 * the app layer asks (raw_trigger), once the direction ended, past the
 * reassembly depth, at the flow's end (eof), and in the closing states past
 * TIME_WAIT (LAST_ACK, CLOSE_WAIT, CLOSING, CLOSED: the client's FIN or a
 * RST closes at once; the server's FIN first waits for the close, as in
 * suricata-verify bug-130). Until then a stream rule that is a packet rule
 * too sees the packets alone. */
static int stream_due(const DetectEngine *de, const Packet *p, int d, uint64_t ready,
		      uint64_t off, int eof)
{
	const Flow *f = p->flow;

	if (eof || (f->raw_trigger & (1u << d)))
		return 1;
	if (stream_dir_flags(f, d) & (STREAM_DIR_EOF | STREAM_DIR_DEPTH_REACHED))
		return 1;
	if (stream_tcp_state(f) > TCP_TIME_WAIT)
		return 1;
	return ready - off >= de->cfg.chunk_size[d];
}

/* After letting the stream engine drop what the last inspection's alerts
 * logged. */
void detect_stream_inspect(DetectThread *dt, DetectPkt *pk, int eof)
{
	const DetectEngine *de = dt->de;
	Packet *p = pk->p;
	DetectFlowState *fs = pk->fs;
	Flow *f = p->flow;
	int d = (p->flags & PKT_TOCLIENT) ? 1 : 0;
	uint64_t ready, off, from, keep;
	const uint8_t *data;
	uint32_t len;
	uint64_t base;

	/* what the last packet's alerts needed for their payload */
	for (int k = 0; k < 2; k++)
		stream_release(f, k, STREAM_CONSUMER_RAW, fs->raw_rel[k]);
	ready = stream_ready_offset(f, d);
	off = fs->raw_off[d];
	if (ready <= off || !stream_due(de, p, d, ready, off, eof))
		return;
	f->raw_trigger &= (uint8_t)~(1u << d);
	from = off;
	while (from < ready && stream_get_data(f, d, from, &data, &len, &base)) {
		/* alerts log the stream up to what this inspection
		 * reached, as Suricata */
		pk->data_end = ready;
		stream_window(dt, pk, data, len, d, base);
		from = base + len;
	}
	pk->data_end = 0;
	fs->raw_off[d] = ready;
	/* what the app protocol wants kept behind the inspection (Suricata's
	 * min_inspect_depth) stays for the alerts' stream payload */
	keep = stream_min_inspect_depth(f, d);
	fs->raw_rel[d] = ready > keep ? ready - keep : 0;
	/* later windows start at raw_rel: their ends lie above it */
	if (fs->scov[d])
		scov_prune(fs->scov[d], fs->raw_rel[d]);
}

/* Inline mode (IPS): a packet's stream data is inspected at once, in the
 * window of stored stream bytes around it (Suricata's sliding window, ACKed
 * or not); when its bytes are not all stored, its payload alone is the
 * window. Windows overlap, so as in Suricata a match may alert again on a
 * later packet whose window still holds it. */
void detect_inline_window(DetectThread *dt, DetectPkt *pk)
{
	Packet *p = pk->p;
	int d = (p->flags & PKT_TOCLIENT) ? 1 : 0;
	uint64_t base;
	uint32_t len;

	len = stream_inline_window(p->flow, d, p, dt->de->cfg.chunk_size[d], dt->win_buf,
				   dt->win_cap, &base);
	pk->win.type = IBUF_STREAM;
	pk->win.data = len ? dt->win_buf : p->payload;
	pk->win.len = len ? len : p->payload_len;
	pk->win_end = len ? base + len : 0;
	pk->has_win = 1;
}

/* Inline mode: stream bytes more than two chunks behind the ready offset are
 * outside any future window (a packet's window reaches one chunk back). */
void detect_inline_release(DetectThread *dt, const Packet *p)
{
	int d = (p->flags & PKT_TOCLIENT) ? 1 : 0;
	uint64_t ready = stream_ready_offset(p->flow, d), keep = 2ull * dt->de->cfg.chunk_size[d];

	stream_release(p->flow, d, STREAM_CONSUMER_RAW, ready > keep ? ready - keep : 0);
}
