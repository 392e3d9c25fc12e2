/* Transaction rules, whatever the protocol: which side of a transaction a
 * rule is evaluated on, the MPM prefilter over the transaction buffers, and
 * per-transaction inspection. Transactions come from the app layer's generic
 * calls (app_layer_tx_*), buffers from the detection-buffer registry
 * (buffers.h): one MPM group per (evaluation side, buffer), each buffer one
 * protocol's, so a flow's transactions meet only its protocol's groups and
 * rules. It names no protocol: what it decides per buffer is in the
 * buffer's entry (sides, progress, the protocol carrying it), and per
 * protocol in its detect_tx_protos line.
 *
 * A rule is evaluated once per transaction and side ("eval side"): when the
 * sides it reads have progressed far enough for its buffers (HTTP: line,
 * headers, complete body), or at flow end with whatever exists.
 * Per-transaction state (one bit per rule and side: done) hangs off the
 * tx's detect slot. A rule without a fast pattern in a transaction buffer
 * is met by every pass; when its fast pattern is a payload content, it is
 * inspected only where a per-packet scan of the bytes its payload list
 * reads finds that pattern (tx_payload_found), and otherwise fails
 * uninspected, done for the side as its inspection would have left it.
 *
 * Rules that read files (DetectSig.file_rule) are evaluated per file, as
 * Suricata's file inspection: all of a rule's file keywords on one file,
 * filestore storing the files the rule matched, and the rule evaluated
 * again, on the new files only, each time the transaction gets more
 * (suricata-verify detect-engine-state-05: two uploads in one request
 * alert and are stored once each). */
#include "detect/packet.h"
#include "detect/detect-int.h"
#include "detect/buffers.h"
#include "app-layer/http.h"
#include "detect/prefilter-gpu.h"
#include "detect/transform.h"
#include "app-layer/files.h"
#include "stream/stream.h"

#include <netinet/in.h>

#include <stdlib.h>
#include <string.h>

#define SIDE_TS DBUF_TS
#define SIDE_TC DBUF_TC
#define SIDE_EVAL DBUF_EVAL   /* the side the rule is evaluated on */

/* The protocol's line; one without a line takes the defaults. */
static const DetectTxProto *tx_proto(unsigned alproto)
{
	static const DetectTxProto none;

	return alproto < TX_CLASS_COUNT ? &detect_tx_protos[alproto] : &none;
}

/* Entry idx of list base's buffer on side of tx (buffers.h), on a flow of
 * protocol fp: another protocol's buffer through fp's get_of. */
static inline int buf_get(int base, unsigned fp, void *tx, int side, uint32_t idx,
			  const uint8_t **data, uint32_t *len)
{
	const DetectBuffer *b = &detect_buffers[base];
	const DetectTxProto *tp = tx_proto(fp);

	if (tp->get_of && b->alproto != fp && b->alproto == tp->rules_of)
		return tp->get_of(b, tx, side, idx, data, len);
	return b->get(b, tx, side, idx, data, len);
}

/* 1: list l's buffer is read on a flow of protocol fp */
static inline int buf_on_flow(int l, unsigned fp)
{
	unsigned bp = detect_buffers[l].alproto;

	return bp == fp || (tx_proto(fp)->get_of && bp == tx_proto(fp)->rules_of);
}

static uint32_t sig_flow_flags(const Signature *s)
{
	uint32_t fl = 0;

	for (int i = 0; i < s->lists[SM_LIST_MATCH].n; i++)
		if (s->lists[SM_LIST_MATCH].m[i].kw == KW_FLOW)
			fl |= ((const DetectFlow *)s->lists[SM_LIST_MATCH].m[i].ctx)->flags;
	return fl;
}

/* The side a buffer list of ds reads, for evaluation side d. file.data
 * follows the rule's direction: request body toserver, else response. */
static int buf_side(int base, int d)
{
	int side = detect_buffers[base].side;

	if (side != SIDE_EVAL)
		return side;
	return d;
}

/* The protocol's own id of base's buffer on side: lists that read the
 * same one share a group (canon_list). */
static int buf_hbuf(int base, int side)
{
	return detect_buffers[base].pbuf[side & 1];
}

/* The buffer entry that reads list l on a flow of protocol fp: the
 * carrying protocol's own (via_list) on a flow of the protocol that
 * carries l's (sig_on_flow). */
static int list_source(int l, unsigned fp)
{
	const DetectBuffer *b = &detect_buffers[l];

	return b->via_proto && b->via_proto == fp ? b->via_list : l;
}

/* Whether list base's entries are a transaction's files, one per file
 * (file.name, file.magic, per-file file.data: file-kw.c's getter). */
static inline int buf_is_file(int base)
{
	return detect_buffers[base].get == file_buffer_get;
}

/* A rule reads files: a file buffer, a file matcher or filestore. */
static int sig_reads_files(const Signature *s)
{
	for (int l = 1; l < BUF_IPV4_HDR; l++)
		if (s->lists[l].n && buf_is_file(sig_list_base(s, l)))
			return 1;
	for (int i = 0; i < s->lists[SM_LIST_MATCH].n; i++)
		if (s->lists[SM_LIST_MATCH].m[i].kw == KW_FILE_MATCH)
			return 1;
	for (int i = 0; i < s->lists[SM_LIST_POSTMATCH].n; i++)
		if (s->lists[SM_LIST_POSTMATCH].m[i].kw == KW_FILESTORE)
			return 1;
	return 0;
}

static int list_side(const DetectSig *ds, int l, int d)
{
	int side = sig_list_side(ds->s, l);

	return side != SIDE_EVAL ? side : d;
}

/* DetectEngine.tx_lists keeps list numbers in bytes */
_Static_assert(BUF_IPV4_HDR <= 256, "DetectEngine.tx_lists holds lists below 256");

/* The sides ds is evaluated on (BDIR_*): those of its one-sided buffers
 * (mixed rules wait for the response), else its flow direction, else its
 * buffers' preference (file.data: the response), else by kind. */
static uint8_t tx_sig_dirs(const DetectSig *ds)
{
	const Signature *s = ds->s;
	const DetectTxProto *tp = tx_proto(s->alproto);
	uint32_t fl = sig_flow_flags(s);
	int ts_only = 0, tc_only = 0, pref = 0;

	for (int l = 1; l < BUF_IPV4_HDR; l++) {
		if (!s->lists[l].n)
			continue;
		if (sig_list_side(s, l) == SIDE_TS)
			ts_only = 1;
		else if (sig_list_side(s, l) == SIDE_TC)
			tc_only = 1;
		if (!pref)
			pref = detect_buffers[l].pref_dirs;
	}
	if (tc_only)
		return BDIR_TC;
	if (ts_only)
		return BDIR_TS;
	if (fl & FLOW_TOCLIENT)
		return BDIR_TC;
	if (fl & FLOW_TOSERVER)
		return BDIR_TS;
	if (pref)
		return (uint8_t)pref;
	/* events are per tx: evaluate it once; a two-way tx (HTTP, TLS) on
	 * its request side, a one-way one on the side it has (event_dirs) */
	if (app_event_sig_has(s))
		return tp->event_dirs ? tp->event_dirs : BDIR_TS;
	/* once, to the client (Suricata's tls.* side), unless the protocol's
	 * properties are registered both ways (prop_dirs) */
	if (s->flags & SIG_FLAG_TX_MATCH)
		return tp->prop_dirs ? tp->prop_dirs : BDIR_TC;
	return BDIR_BOTH;
}

void tx_sig_setup(DetectSig *ds)
{
	const Signature *s = ds->s;

	memset(ds->tx_lists, 0, sizeof(ds->tx_lists));
	for (int l = 1; l < BUF_IPV4_HDR; l++)
		if (s->lists[l].n)
			ds->tx_lists[l >> 6] |= 1ull << (l & 63);
	ds->tx_dirs = tx_sig_dirs(ds);
	ds->file_rule = (uint8_t)sig_reads_files(s);
	ds->tx_pfp = 0;   /* pgroups_build */
	ds->tx_need[0] = ds->tx_need[1] = 0;
	if (app_event_sig_has(s) || (s->flags & SIG_FLAG_TX_MATCH)) {
		/* events come up until the side is done, and a transaction
		 * property (ssl_version, ...) is final then: wait for it */
		uint8_t done = (uint8_t)app_proto_progress_complete(s->alproto);

		if (ds->tx_dirs & BDIR_TS)
			ds->tx_need[0] = done;
		if (ds->tx_dirs & BDIR_TC)
			ds->tx_need[1] = done;
		/* a property may come from either side's messages, unless the
		 * protocol's sides are apart */
		if ((s->flags & SIG_FLAG_TX_MATCH) && !tx_proto(s->alproto)->sides_apart)
			ds->tx_need[0] = ds->tx_need[1] = done;
		if ((s->flags & SIG_FLAG_TX_MATCH) && tx_proto(s->alproto)->props_early &&
		    !app_event_sig_has(s))
			ds->tx_need[0] = ds->tx_need[1] = 1;
	}
	/* Suricata inspects an event on every pass over the transaction and
	 * gives up only once the side is done: the rule matches on the
	 * packet whose data raised the event (an IPS drops that packet,
	 * suricata-verify bug-8224-01), its buffers allowing; the pass at
	 * tx_need stays for the rest of the rule */
	ds->ev_early = app_event_sig_has(s) && !(s->flags & SIG_FLAG_TX_MATCH);
	ds->ev_need[0] = (ds->tx_dirs & BDIR_TS) ? 1 : 0;
	ds->ev_need[1] = (ds->tx_dirs & BDIR_TC) ? 1 : 0;
	for (int d = 0; d < 2; d++) {
		if (!(ds->tx_dirs & (1u << d)))
			continue;
		for (int l = 1; l < BUF_IPV4_HDR; l++) {
			int side;
			uint8_t need;

			if (!s->lists[l].n)
				continue;
			side = list_side(ds, l, d);
			need = detect_buffers[sig_list_base(s, l)].progress;
			if (need > ds->tx_need[side])
				ds->tx_need[side] = need;
			if (need > ds->ev_need[side])
				ds->ev_need[side] = need;
		}
	}
}

/* ---- build ---- */

/* The rule's fast pattern when it lives in a transaction buffer and is usable. */
static const DetectContent *tx_fp(const Signature *s, const uint8_t **pat, uint16_t *len)
{
	return sig_fp_usable(s, BUF_PAYLOAD + 1, BUF_IPV4_HDR, pat, len);
}

typedef struct TxXGroup {
	int d, base;
	const TransformChain *chain;
	SigGroup g;
} TxXGroup;

/* The fast pattern list of s, when it is not a plain buffer: an instance
 * list or a transformed one goes to a per-chain MPM. */
static int fp_transformed(const Signature *s)
{
	return s->fp_list >= BUF_HTTP_XINST0 || sig_list_chain(s, s->fp_list);
}

static TxXGroup *xgroup_get(DetectEngine *de, int d, int base, const TransformChain *c)
{
	TxXGroup *hx;

	for (uint32_t i = 0; i < de->nhx; i++)
		if (de->hx[i].d == d && de->hx[i].base == base &&
		    transform_chain_equal(de->hx[i].chain, c))
			return &de->hx[i];
	hx = realloc(de->hx, (de->nhx + 1) * sizeof(*hx));
	if (!hx)
		return NULL;
	de->hx = hx;
	hx = &de->hx[de->nhx++];
	memset(hx, 0, sizeof(*hx));
	hx->d = d;
	hx->base = base;
	hx->chain = c;
	return hx;
}

/* Rules whose fast pattern is in a transformed buffer: the MPM runs on the
 * transformed buffer, as in Suricata (one buffer type per transform chain). */
static int xgroups_build(DetectEngine *de, FpEntry *fp, char *err, size_t errlen)
{
	for (int d = 0; d < 2; d++) {
		for (uint32_t i = 0; i < de->nsigs; i++) {
			const DetectSig *ds = &de->sigs[i];
			const uint8_t *pat;
			uint16_t len;

			if (!ds->is_tx || !(ds->tx_dirs & (1u << d)) ||
			    !tx_fp(ds->s, &pat, &len) || !fp_transformed(ds->s))
				continue;
			if (!xgroup_get(de, d, sig_list_base(ds->s, ds->s->fp_list),
					sig_list_chain(ds->s, ds->s->fp_list))) {
				snprintf(err, errlen, "detect: out of memory");
				return -1;
			}
		}
	}
	for (uint32_t k = 0; k < de->nhx; k++) {
		TxXGroup *hx = &de->hx[k];
		uint32_t nfp = 0;

		for (uint32_t i = 0; i < de->nsigs; i++) {
			const DetectSig *ds = &de->sigs[i];
			const DetectContent *cd;
			const uint8_t *pat;
			uint16_t len;

			if (!ds->is_tx || !(ds->tx_dirs & (1u << hx->d)))
				continue;
			cd = tx_fp(ds->s, &pat, &len);
			if (!cd || !fp_transformed(ds->s) ||
			    sig_list_base(ds->s, ds->s->fp_list) != hx->base ||
			    !transform_chain_equal(sig_list_chain(ds->s, ds->s->fp_list), hx->chain))
				continue;
			fp[nfp++] = (FpEntry){ pat, len, !!(cd->flags & CONTENT_NOCASE), i, 0 };
		}
		if (detect_group_matcher_build(de, &hx->g, fp, nfp, err, errlen) != 0)
			return -1;
	}
	return 0;
}

/* The list whose group scans l's buffer on pass side d: lists that read the
 * same buffer (file.data and http.response_body on responses, file.data and
 * http.request_body on requests) share one group, so the buffer is scanned
 * once. The first such list is the group's. */
static int canon_list(int d, int l)
{
	int side = buf_side(l, d), hb = buf_hbuf(l, side);

	if (!detect_buffers[l].progress)
		return l;
	for (int k = 1; k < l; k++)
		if (detect_buffers[k].progress && detect_buffers[k].multi == detect_buffers[l].multi &&
		    detect_buffers[k].alproto == detect_buffers[l].alproto &&
		    buf_side(k, d) == side && buf_hbuf(k, side) == hb)
			return k;
	return l;
}

/* Fills h_always[d] by class, in rule order within each, from the counts
 * h_always_at[d][c + 1] of class c that hgroups_build made. */
static void always_place(DetectEngine *de, int d)
{
	uint32_t *at = de->h_always_at[d], next[TX_CLASS_COUNT];

	for (int c = 0; c < TX_CLASS_COUNT; c++) {
		at[c + 1] += at[c];
		next[c] = at[c];
	}
	for (uint32_t i = 0; i < de->nsigs; i++) {
		const DetectSig *ds = &de->sigs[i];
		const uint8_t *pat;
		uint16_t len;

		if (ds->is_tx && (ds->tx_dirs & (1u << d)) && !tx_fp(ds->s, &pat, &len))
			de->h_always[d][next[tx_class(ds->s->alproto)]++] = i;
	}
}

/* The groups of pass side d: one pass over the rules gathers each usable
 * fast pattern under its list's group (a counting sort by list keeps rule
 * order within a group); rules without one are inspected on every pass;
 * transformed ones go to the xgroups. fp and tmp: nsigs entries each,
 * lst: nsigs bytes. */
static int hgroups_build(DetectEngine *de, int d, FpEntry *fp, FpEntry *tmp, uint8_t *lst,
			 char *err, size_t errlen)
{
	uint32_t count[BUF_IPV4_HDR] = { 0 }, at[BUF_IPV4_HDR], n = 0, off = 0;

	for (uint32_t i = 0; i < de->nsigs; i++) {
		const DetectSig *ds = &de->sigs[i];
		const DetectContent *cd;
		const uint8_t *pat;
		uint16_t len;

		if (!ds->is_tx || !(ds->tx_dirs & (1u << d)))
			continue;
		cd = tx_fp(ds->s, &pat, &len);
		if (!cd) {
			de->h_always_at[d][tx_class(ds->s->alproto) + 1]++;
			continue;
		}
		if (fp_transformed(ds->s))
			continue;
		lst[n] = (uint8_t)canon_list(d, sig_list_base(ds->s, ds->s->fp_list));
		tmp[n++] = (FpEntry){ pat, len, !!(cd->flags & CONTENT_NOCASE), i, 0 };
		count[lst[n - 1]]++;
	}
	for (int l = 0; l < BUF_IPV4_HDR; l++) {
		at[l] = off;
		off += count[l];
	}
	for (uint32_t k = 0; k < n; k++)
		fp[at[lst[k]]++] = tmp[k];
	always_place(de, d);
	/* at[l] now ends list l's run of count[l] entries */
	for (int l = 1; l < BUF_IPV4_HDR; l++)
		if (count[l] &&
		    detect_group_matcher_build(de, &de->hgroups[d][l], fp + at[l] - count[l],
					       count[l], err, errlen) != 0)
			return -1;
	return 0;
}

/* The rules among h_always[d] whose fast pattern is a payload content
 * (DetectSig.tx_pfp): one matcher per pass side over those patterns, so
 * that a pass inspects such a rule only where the bytes its payload list
 * reads hold its pattern (tx_payload_found). fp: nsigs entries. */
static int pgroups_build(DetectEngine *de, FpEntry *fp, char *err, size_t errlen)
{
	for (int d = 0; d < 2; d++) {
		uint32_t n = 0;

		for (uint32_t i = 0; i < de->nsigs; i++) {
			DetectSig *ds = &de->sigs[i];
			const DetectContent *cd;
			const uint8_t *pat;
			uint16_t len;

			if (!ds->is_tx || !(ds->tx_dirs & (1u << d)) || tx_fp(ds->s, &pat, &len) ||
			    !(cd = sig_fp_usable(ds->s, BUF_PAYLOAD, BUF_PAYLOAD + 1, &pat, &len)))
				continue;
			ds->tx_pfp = 1;
			fp[n++] = (FpEntry){ pat, len, !!(cd->flags & CONTENT_NOCASE), i, 0 };
		}
		if (n && detect_group_matcher_build(de, &de->hpay[d], fp, n, err, errlen) != 0)
			return -1;
	}
	return 0;
}

/* de->tx_lists: what tx_eval walks for a flow of each protocol */
static void tx_lists_build(DetectEngine *de)
{
	for (int d = 0; d < 2; d++)
		for (unsigned fp = 0; fp < TX_CLASS_COUNT; fp++) {
			uint8_t n = 0;

			for (int l = 1; l < BUF_IPV4_HDR; l++)
				if (de->hgroups[d][l].mpm &&
				    (buf_on_flow(l, fp) || list_source(l, fp) != l))
					de->tx_lists[d][fp][n++] = (uint8_t)l;
			de->ntx_lists[d][fp] = n;
		}
}

int tx_engine_build(DetectEngine *de, char *err, size_t errlen)
{
	size_t n = de->nsigs ? de->nsigs : 1;
	FpEntry *fp = calloc(n, sizeof(*fp)), *tmp = calloc(n, sizeof(*tmp));
	uint8_t *lst = malloc(n);
	int rc = -1;

	if (!fp || !tmp || !lst)
		goto out;
	for (int d = 0; d < 2; d++) {
		de->h_always[d] = calloc(n, sizeof(uint32_t));
		if (!de->h_always[d] || hgroups_build(de, d, fp, tmp, lst, err, errlen) != 0)
			goto out;
	}
	if (xgroups_build(de, fp, err, errlen) != 0 || pgroups_build(de, fp, err, errlen) != 0)
		goto out;
	tx_lists_build(de);
	de->file_sigs = malloc(n * sizeof(*de->file_sigs));
	if (!de->file_sigs)
		goto out;
	de->nfile_sigs = 0;
	for (uint32_t i = 0; i < de->nsigs; i++)
		if (de->sigs[i].is_tx && de->sigs[i].file_rule)
			de->file_sigs[de->nfile_sigs++] = i;
	rc = 0;
out:
	free(lst);
	free(tmp);
	free(fp);
	return rc;
}

void tx_engine_free(DetectEngine *de)
{
	for (int d = 0; d < 2; d++) {
		for (int l = 0; l < BUF_MAX; l++)
			detect_group_free(&de->hgroups[d][l]);
		detect_group_free(&de->hpay[d]);
		free(de->h_always[d]);
	}
	for (uint32_t k = 0; k < de->nhx; k++)
		detect_group_free(&de->hx[k].g);
	free(de->hx);
	free(de->file_sigs);
}

void tx_groups_drop_ac(DetectEngine *de)
{
	for (int d = 0; d < 2; d++) {
		for (int l = 0; l < BUF_MAX; l++)
			detect_group_drop_ac(&de->hgroups[d][l]);
		detect_group_drop_ac(&de->hpay[d]);
	}
	for (uint32_t k = 0; k < de->nhx; k++)
		detect_group_drop_ac(&de->hx[k].g);
}

int tx_thread_init(DetectThread *dt)
{
	const DetectEngine *de = dt->de;

	for (int d = 0; d < 2; d++)
		for (int l = 0; l < BUF_MAX; l++)
			if (de->hgroups[d][l].mpm &&
			    !(dt->scratch_h[d][l] = mpm_scratch_new(de->hgroups[d][l].mpm)))
				return -1;
	for (int d = 0; d < 2; d++)
		if (de->hpay[d].mpm && !(dt->scratch_hp[d] = mpm_scratch_new(de->hpay[d].mpm)))
			return -1;
	if (!(dt->txfp_hit = calloc(de->nsigs + 1, sizeof(*dt->txfp_hit))))
		return -1;
	if (!(dt->txvpass = calloc(de->nsigs + 1, sizeof(*dt->txvpass))))
		return -1;
	/* base64_decode works on any buffer: every thread gets the scratch */
	dt->xs = xform_scratch_new();
	if (!dt->xs)
		return -1;
	if (!de->nhx)
		return 0;
	dt->scratch_hx = calloc(de->nhx, sizeof(*dt->scratch_hx));
	if (!dt->scratch_hx)
		return -1;
	for (uint32_t k = 0; k < de->nhx; k++)
		if (!(dt->scratch_hx[k] = mpm_scratch_new(de->hx[k].g.mpm)))
			return -1;
	return 0;
}

void tx_thread_free(DetectThread *dt)
{
	for (int d = 0; d < 2; d++)
		for (int l = 0; l < BUF_MAX; l++)
			if (dt->scratch_h[d][l]) {
				mpm_scratch_free(dt->scratch_h[d][l]);
				dt->scratch_h[d][l] = NULL;
			}
	for (int d = 0; d < 2; d++)
		if (dt->scratch_hp[d]) {
			mpm_scratch_free(dt->scratch_hp[d]);
			dt->scratch_hp[d] = NULL;
		}
	free(dt->txfp_hit);
	dt->txfp_hit = NULL;
	free(dt->txvpass);
	dt->txvpass = NULL;
	dt->txv_seq = 0;
	for (uint32_t k = 0; dt->scratch_hx && k < dt->de->nhx; k++)
		if (dt->scratch_hx[k])
			mpm_scratch_free(dt->scratch_hx[k]);
	free(dt->scratch_hx);
	dt->scratch_hx = NULL;
	xform_scratch_free(dt->xs);
	dt->xs = NULL;
}

/* ---- per transaction ---- */

/* ac-cuda: the response body's match set, built as the body grows from
 * the GPU's stream view (verbatim pieces) and CPU scans of the rest, so
 * that the body scan itself needs no CPU pass. Per pass side d: pids of
 * hgroups[d][BUF_HTTP_SERVER_BODY]. */
#define BODY_IDS_MAX 4096

typedef struct BodyIds {
	uint32_t done;            /* body bytes accounted for */
	uint32_t cpu[2];          /* bytes scanned on the CPU for them, per side */
	uint8_t over;             /* too many ids: scan on the CPU after all */
	uint32_t n[2], cap[2];
	uint32_t *ids[2];
	uint8_t *seen[2];         /* a bit per pid of the side's group: in ids */
} BodyIds;

typedef struct TxDetect {
	uint32_t gen;             /* the engine that made it (a reload resets it) */
	uint32_t cap_bits;        /* bits of done[] */
	uint8_t cls;              /* the tx_class done[] numbers the rules of */
	uint8_t seen[2];          /* 1 + both sides' progress at the last pass */
	/* bit l: on pass side d, list l's buffer was scanned complete and every
	 * candidate it gave was evaluated then; it gives nothing new again */
	uint64_t scanned[2][(BUF_IPV4_HDR + 63) / 64];
	BodyIds *body;            /* ac-cuda only */
	uint8_t guessed;          /* alerts of packet/stream rules that named it */
	/* files (per side) file rules look at: those evaluated before the
	 * files last grew saw files[0 .. fbase) (bit set in fprev: made when
	 * a side gets a second file, else NULL); fcount: the files ready at
	 * the last pass (files_grew) */
	uint32_t fbase[2], fcount[2];
	uint64_t *fprev;
	uint64_t done[];          /* bit 2*hidx+d: rule hidx evaluated on side d */
} TxDetect;

static void tx_body_free(BodyIds *b);

static void tx_detect_free(void *p)
{
	TxDetect *st = p;

	if (st) {
		tx_body_free(st->body);
		free(st->fprev);
	}
	free(p);
}

static void tx_body_free(BodyIds *b)
{
	if (!b)
		return;
	for (int d = 0; d < 2; d++) {
		free(b->ids[d]);
		free(b->seen[d]);
	}
	free(b);
}

/* The state of a transaction that an engine replaced by a rule reload made:
 * reset, as Suricata resets the detection state of the transactions in
 * progress on a reload, so that the new rules inspect them from the start
 * (done[] is by the old engine's rule indexes; the body ids are the old GPU
 * automaton's). NULL when the block is too small for the new engine's
 * rules: the new engine then leaves that transaction alone. */
static TxDetect *tx_state_rebase(const DetectEngine *de, TxDetect *st, unsigned cls)
{
	tx_body_free(st->body);
	st->body = NULL;
	st->seen[0] = st->seen[1] = 0;
	memset(st->scanned, 0, sizeof(st->scanned));
	memset(st->done, 0, st->cap_bits / 8);
	free(st->fprev);
	st->fprev = NULL;
	st->fbase[0] = st->fbase[1] = st->fcount[0] = st->fcount[1] = 0;
	st->gen = de->gen;
	st->cls = (uint8_t)cls;
	if (2 * (uint64_t)de->ntx[cls] > st->cap_bits)
		st->cap_bits = 0;   /* too small: stays skipped for this engine */
	return st;
}

/* The detection state of tx, a transaction of flow f: a bit per rule of
 * its protocol's class and side. A state made for another class (the
 * flow's protocol changed under a transaction) is rebased as a reload's. */
static TxDetect *tx_state(const DetectEngine *de, const Flow *f, void *tx)
{
	void **slot = app_layer_tx_detect_slot(f, tx);
	static int registered;
	unsigned cls = tx_class(f->app_proto);
	TxDetect *st;

	if (!*slot) {
		size_t words = (2 * (size_t)de->ntx[cls] + 63) / 64;

		if (!__atomic_load_n(&registered, __ATOMIC_RELAXED)) {
			/* the free function is process-wide; setting it twice is
			 * harmless (workers may race to it: atomic flag) */
			app_layer_set_detect_state_free(tx_detect_free);
			__atomic_store_n(&registered, 1, __ATOMIC_RELAXED);
		}
		*slot = app_layer_tx_detect_alloc(f, tx, sizeof(TxDetect) + words * 8);
		if ((st = *slot)) {
			st->gen = de->gen;
			st->cap_bits = (uint32_t)(words * 64);
			st->cls = (uint8_t)cls;
		}
	}
	st = *slot;
	if (st && (st->gen != de->gen || st->cls != cls))
		st = tx_state_rebase(de, st, cls);
	if (st && 2 * (uint64_t)de->ntx[cls] > st->cap_bits)
		return NULL;
	return st;
}

static int ready_for(const DetectSig *ds, const uint8_t need[2], const int prog[2], int d)
{
	/* a side's need is at most its complete progress, so a side done
	 * never holds a rule back. A DCE/RPC rule of both directions runs
	 * on each side on its own, as Suricata's per-direction inspection
	 * (a request's stub data matches when the request is done, answered
	 * or not: suricata-verify dcerpc-dce-stub-data-04) */
	int apart = tx_proto(ds->s->alproto)->sides_apart ||
		    (ds->file_rule && ds->tx_dirs == BDIR_BOTH);

	/* a file rule of both directions reads each side's files on that
	 * side's pass: an upload's rule does not wait for the response */
	for (int side = 0; side < 2; side++) {
		if (apart && side != d)
			continue;
		if (need[side] && prog[side] < need[side])
			return 0;
	}
	return 1;
}

static int ready(const DetectSig *ds, const int prog[2], int final, int d)
{
	return final || ready_for(ds, ds->tx_need, prog, d);
}

/* An app-layer-event rule not ready yet whose events are up already, its
 * buffers ready: evaluated now (ds->ev_early). */
static int ready_event(const DetectSig *ds, const Flow *f, void *tx, const int prog[2], int d)
{
	int bufs = 0;

	if (!ds->ev_early)
		return 0;
	for (int w = 0; w < DETECT_TX_LIST_WORDS; w++)
		bufs |= ds->tx_lists[w] != 0;
	/* a rule of events only runs on each side on its own, as Suricata's
	 * app-layer-events engine registered per direction: the pass of one
	 * side does not wait for the other (suricata-verify bug-8224-01: a
	 * request's event drops the request's packet, answered or not) */
	if (!bufs) {
		if (ds->ev_need[d] && prog[d] < ds->ev_need[d])
			return 0;
	} else if (!ready_for(ds, ds->ev_need, prog, d)) {
		return 0;
	}
	return app_event_tx_match(ds->s, f, tx);
}

/* Whether rule s inspects the transactions of a flow of protocol fp: its
 * own protocol's, and, as in Suricata, a dcerpc rule also the DCE/RPC
 * calls SMB carries on named pipes (dcerpc-kw.c's dce_view reads them;
 * its dcerpc.stub_data reads through SMB's entry: list_source). */
static int sig_on_flow(const Signature *s, unsigned fp)
{
	/* a rule that named its protocol by a name only it has ("http1")
	 * keeps to it */
	return s->alproto == fp || (tx_proto(fp)->rules_of && tx_proto(fp)->rules_of == s->alproto &&
				    !(s->flags & SIG_FLAG_ALPROTO_OWN));
}

/* One pass over a transaction on side d: progress, candidates. */
typedef struct TxPass {
	TxDetect *st;
	const DetectFlowState *fs;  /* the flow's (raw stream progress) */
	unsigned fp;           /* the flow's protocol */
	int d, final;
	int prog[2];
	int complete;          /* the protocol's progress of a side that is done */
	int deferred;          /* a candidate of the last scan is not ready */
} TxPass;

/* Rule ds, a rule on the flow (sig_on_flow: of the state's class), was
 * evaluated on this pass's side of the transaction. */
static int sig_done(const TxPass *tp, const DetectSig *ds)
{
	uint32_t bit = 2 * ds->hidx + (uint32_t)tp->d;

	return (tp->st->done[bit >> 6] >> (bit & 63)) & 1;
}

static void sig_set_done(TxPass *tp, const DetectSig *ds)
{
	uint32_t bit = 2 * ds->hidx + (uint32_t)tp->d;

	tp->st->done[bit >> 6] |= 1ull << (bit & 63);
}

static void sig_clear_done(TxPass *tp, const DetectSig *ds)
{
	uint32_t bit = 2 * ds->hidx + (uint32_t)tp->d;

	tp->st->done[bit >> 6] &= ~(1ull << (bit & 63));
}

/* Scans one buffer and marks its candidates; tp->deferred says whether one
 * of them waits for more of the transaction, so the buffer must be scanned
 * again on a later pass. */
static void mark_ms(DetectThread *dt, const SigGroup *g, TxPass *tp);

static void mark_pid(DetectThread *dt, const SigGroup *g, TxPass *tp, uint32_t pid,
		     int verdicts);

/* ac-cuda: buffer e of the packet's ticket, scanned (and its rules'
 * programs run) on the device. A rule whose program did not hold is no
 * candidate: the CPU would have failed it on this buffer. */
static void prefilter_buf_gpu(DetectThread *dt, const SigGroup *g, const DetectGpuTxBuf *e,
			      uint32_t len, TxPass *tp)
{
	const DetectGpuTicket *gt = dt->gpu_tx;
	const uint32_t *ids;
	uint32_t n;
	int verdicts;

	detect_scan_count(dt, SCAN_HTTP, 1, len);
	if (!(ids = detect_gpu_tx_ids(gt, e, &n))) {
		/* rescanned on the CPU: ids without verdicts */
		mpm_matchset_clear(dt->ms);
		detect_gpu_tx_matches(gt, e, dt->ms);
		mark_ms(dt, g, tp);
		return;
	}
	if (++dt->txv_seq == 0) {
		memset(dt->txvpass, 0, dt->de->nsigs * sizeof(*dt->txvpass));
		dt->txv_seq = 1;
	}
	verdicts = detect_gpu_tx_passed(gt, e, dt->txvpass, dt->txv_seq);
	for (uint32_t i = 0; i < n; i++)
		if (ids[i] < g->npids)
			mark_pid(dt, g, tp, ids[i], verdicts);
}

/* Entry idx of list l's buffer of tx (data, len): its candidates, from the
 * packet's ticket when the device scanned this very buffer, else from the
 * group's matcher. tx NULL: a buffer of no list the device sees. */
static void prefilter_buf(DetectThread *dt, const SigGroup *g, MpmScratch *sc,
			  const uint8_t *data, uint32_t len, TxPass *tp, const void *tx, int l,
			  uint32_t idx)
{
	const DetectGpuTxBuf *e;

	if (!len)
		return;
	if (tx && dt->gpu_tx &&
	    (e = detect_gpu_tx_find(dt->gpu_tx, tx, tp->d, l, idx, data, len))) {
		prefilter_buf_gpu(dt, g, e, len, tp);
		return;
	}
	mpm_matchset_clear(dt->ms);
	mpm_prefilter(g->mpm, sc, data, len, dt->ms);
	detect_scan_count(dt, SCAN_HTTP, 0, len);
	mark_ms(dt, g, tp);
}

/* ac-cuda: the response body's match set as harvested (BodyIds), when it
 * accounts for the whole body. 1: used. */
static int prefilter_body_gpu(DetectThread *dt, const SigGroup *g, const TxDetect *st,
			      TxPass *tp, uint32_t len)
{
	const BodyIds *b = st->body;

	if (!dt->de->gpu || !b || b->over || b->done != len || !len)
		return 0;
	mpm_matchset_clear(dt->ms);
	for (uint32_t i = 0; i < b->n[tp->d]; i++)
		mpm_matchset_add(dt->ms, b->ids[tp->d][i]);
	detect_scan_count(dt, SCAN_HTTP, 0, b->cpu[tp->d]);
	detect_scan_count(dt, SCAN_HTTP, 1, len - b->cpu[tp->d]);
	mark_ms(dt, g, tp);
	return 1;
}

/* Marks the candidates of pattern pid. verdicts: the device ran the
 * programs of the rules with gpu_txv bit d (txvpass[num] == txv_seq: held);
 * a rule whose program did not hold is no candidate, and so does not hold
 * the buffer back for a later pass (deferred) either. */
static void mark_pid(DetectThread *dt, const SigGroup *g, TxPass *tp, uint32_t pid,
		     int verdicts)
{
	const DetectEngine *de = dt->de;

	for (uint32_t k = g->pid_off[pid]; k < g->pid_off[pid + 1]; k++) {
		uint32_t num = g->pid_sigs[k];
		const DetectSig *ds = &de->sigs[num];

		if (verdicts) {
			if (!(ds->gpu_txv & (1u << tp->d))) {
				dt->ntxv_cpu++;
			} else if (dt->txvpass[num] != dt->txv_seq) {
				dt->ntxv_rej++;
				continue;
			} else {
				dt->ntxv_pass++;
			}
		}
		cand_mark(&dt->cand, num);
		if (!tp->deferred && sig_on_flow(ds->s, tp->fp) && !sig_done(tp, ds) &&
		    !ready(ds, tp->prog, tp->final, tp->d))
			tp->deferred = 1;
	}
}

/* Marks the candidates of the pids in dt->ms. */
static void mark_ms(DetectThread *dt, const SigGroup *g, TxPass *tp)
{
	const uint32_t *ids;
	uint32_t n;

	n = mpm_matchset_count(dt->ms);
	ids = mpm_matchset_ids(dt->ms);
	for (uint32_t i = 0; i < n; i++)
		mark_pid(dt, g, tp, ids[i], 0);
}

/* Inspects list l on data, transformed first when the list has a chain. */
static int inspect_xbuf(DetectThread *dt, const Signature *s, int l, const uint8_t *data,
			uint32_t len)
{
	InspectBuffer b = { data, len, IBUF_PACKET };
	const TransformChain *c = sig_list_chain(s, l);

	if (c && transform_apply(c, dt->xs, data, len, &b.data, &b.len) != 0)
		return 0;
	return inspect_buffer(dt, s, l, &b);
}

/* A multi-buffer matches when one of its entries does. */
static int list_matches(DetectThread *dt, const DetectSig *ds, const DetectTx *dtx, int l,
			int d, unsigned fp)
{
	void *tx = dtx->tx;
	int base = list_source(sig_list_base(ds->s, l), fp);
	int side = sig_list_side_given(ds->s, l) ? sig_list_side(ds->s, l) : buf_side(base, d);
	const uint8_t *data;
	uint32_t len;

	uint32_t i;

	/* a file rule on one file: that file's entry, on its side only */
	if (dtx->per_file && buf_is_file(base)) {
		if (side == dtx->file_side &&
		    buf_get(base, fp, tx, side, dtx->file_idx, &data, &len) == 0)
			return inspect_xbuf(dt, ds->s, l, data, len);
		return side == dtx->file_side && sig_list_absent(ds->s, l);
	}

	for (i = 0; buf_get(base, fp, tx, side, i, &data, &len) == 0; i++)
		if (inspect_xbuf(dt, ds->s, l, data, len))
			return 1;
	/* absent: no such buffer at all matches */
	return i == 0 && sig_list_absent(ds->s, l);
}

/* The bytes a transaction rule's payload contents read on a pass of side
 * d, one buffer at a time, until fn returns 1 (then 1). On a TCP flow in
 * IDS mode, as Suricata's stream inspection of transaction rules, the raw
 * stream of side d that this packet's inspection covers: from where the
 * last raw inspection ended up to the ready offset, so a request parsed
 * when the server ACKed it is seen whole on the next packet that way (a
 * pure ACK: suricata-verify dcerpc/zerologon, content with endswith after
 * dcerpc.opnum). Inline, the packet's window. Then the packet's own
 * payload (UDP, no stream kept). Matching and the payload fast pattern
 * scan (tx_payload_scan) walk the same bytes through this one function. */
typedef int (*TxPayloadFn)(DetectThread *dt, const InspectBuffer *b, void *arg);

static int tx_payload_each(DetectThread *dt, const DetectFlowState *fs, Packet *p, int d,
			   TxPayloadFn fn, void *arg)
{
	InspectBuffer b = { p->payload, p->payload_len, IBUF_PACKET };
	Flow *f = p->flow;

	/* ciphertext (no_inspection): neither stream nor packet bytes */
	if (dt->pkt->no_payload)
		return 0;
	if (fs && f->proto == IPPROTO_TCP && f->stream && dt->de->uses_stream &&
	    !dt->de->cfg.stream_inline) {
		uint64_t from = fs->raw_tx[d], ready = stream_ready_offset(f, d), base;
		const uint8_t *data;
		uint32_t len;

		while (from < ready && stream_get_data(f, d, from, &data, &len, &base)) {
			InspectBuffer sb = { data, len, IBUF_STREAM };

			if (fn(dt, &sb, arg))
				return 1;
			from = base + len;
		}
	}
	/* inline, the stream is the window of stored bytes around the packet
	 * (detect_inline_window), as Suricata's inline raw reassembly gives
	 * every stream inspection: a response body inspected on its last
	 * packet still sees the start line a chunk back (suricata-verify
	 * bug-2576-04-ips, content before file_data) */
	if (dt->pkt->has_win && dt->pkt->win.len && d == dt->pkt->dir && fn(dt, &dt->pkt->win, arg))
		return 1;
	return fn(dt, &b, arg);
}

static int payload_inspect_fn(DetectThread *dt, const InspectBuffer *b, void *arg)
{
	return inspect_buffer(dt, arg, BUF_PAYLOAD, b);
}

/* A transaction rule's payload content (no sticky buffer), on the bytes
 * tx_payload_each gives. */
static int tx_payload_match(DetectThread *dt, const DetectFlowState *fs, const Signature *s,
			    Packet *p, int d)
{
	return tx_payload_each(dt, fs, p, d, payload_inspect_fn, (void *)s);
}

typedef struct PayloadScan {
	const MpmCtx *mpm;
	MpmScratch *sc;
} PayloadScan;

static int payload_scan_fn(DetectThread *dt, const InspectBuffer *b, void *arg)
{
	const PayloadScan *a = arg;

	if (b->len)
		mpm_prefilter(a->mpm, a->sc, b->data, b->len, dt->ms);
	return 0;
}

/* Stamps the tx_pfp rules of side d whose payload fast pattern is in the
 * bytes their payload lists read on this packet's passes of side d: one
 * CPU scan per packet and side, whatever the mpm-algo (ac-cuda's device
 * never sees these patterns), and only once a pass has such a rule to
 * inspect. */
static void tx_payload_scan(DetectThread *dt, const TxPass *tp, Packet *p)
{
	const SigGroup *g = &dt->de->hpay[tp->d];
	PayloadScan a = { g->mpm, dt->scratch_hp[tp->d] };
	DetectPkt *pk = dt->pkt;
	const uint32_t *ids;
	uint32_t n;

	if (++dt->txfp_seq == 0) {
		memset(dt->txfp_hit, 0, dt->de->nsigs * sizeof(*dt->txfp_hit));
		dt->txfp_seq = 1;
	}
	pk->txfp_seq = dt->txfp_seq;
	pk->txfp_dir = tp->d;
	if (!g->mpm || !a.sc)
		return;
	mpm_matchset_clear(dt->ms);
	tx_payload_each(dt, tp->fs, p, tp->d, payload_scan_fn, &a);
	n = mpm_matchset_count(dt->ms);
	ids = mpm_matchset_ids(dt->ms);
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t k = g->pid_off[ids[i]]; k < g->pid_off[ids[i] + 1]; k++)
			dt->txfp_hit[g->pid_sigs[k]] = dt->txfp_seq;
}

/* Whether rule num (DetectSig.tx_pfp) may match on this pass: its payload
 * list holds only where its fast pattern is in the bytes that list reads
 * (a content matches within one of tx_payload_each's buffers), so where
 * the pattern is not, the rule cannot match and is not inspected. */
static int tx_payload_found(DetectThread *dt, const TxPass *tp, Packet *p, uint32_t num)
{
	const DetectPkt *pk = dt->pkt;

	if (!pk->txfp_seq || pk->txfp_dir != tp->d)
		tx_payload_scan(dt, tp, p);
	return dt->txfp_hit[num] == pk->txfp_seq;
}

static int tx_sig_match_on(DetectThread *dt, const TxPass *tp, const DetectSig *ds, Packet *p,
			   void *tx, const DetectTx *pdtx)
{
	const DetectTx dtx = *pdtx;
	int d = tp->d;
	const Signature *s = ds->s;
	int m, payload_first;

	m = inspect_header(ds, p) && inspect_match_list_tx(dt, s, p, &dtx);
	if (!m)
		return 0;
	/* The payload content reads the raw stream, the costliest list, so it
	 * goes after the transaction's buffers, which reject most candidates;
	 * first only when a byte_extract/byte_math variable may flow from it
	 * into a later list. */
	payload_first = ds->has_payload && s->nvars;
	if (payload_first && !tx_payload_match(dt, tp->fs, s, p, d))
		return 0;
	for (int w = 0; w < DETECT_TX_LIST_WORDS; w++)
		for (uint64_t bits = ds->tx_lists[w]; bits; bits &= bits - 1) {
			int l = w * 64 + __builtin_ctzll(bits);

			if (!list_matches(dt, ds, pdtx, l, d, p->flow->app_proto))
				return 0;
		}
	if (ds->has_payload && !payload_first && !tx_payload_match(dt, tp->fs, s, p, d))
		return 0;
	return app_event_tx_match(s, p->flow, tx);
}

/* The rule's inspection on tx, with the transaction noted in dt for the
 * keywords that read it beside their buffer (lua's libraries). */
static int tx_sig_match_dtx(DetectThread *dt, const TxPass *tp, const DetectSig *ds, Packet *p,
			    const DetectTx *dtx)
{
	int m;

	dt->insp_tx = dtx;
	m = tx_sig_match_on(dt, tp, ds, p, dtx->tx, dtx);
	dt->insp_tx = NULL;
	return m;
}

static int tx_sig_match(DetectThread *dt, const TxPass *tp, const DetectSig *ds, Packet *p,
			void *tx)
{
	const DetectTx dtx = { tx, tp->d, 0, 0, 0 };

	return tx_sig_match_dtx(dt, tp, ds, p, &dtx);
}

/* ---- files ---- */

/* The most files one evaluation of a file rule names (filestore stores
 * them, the alert carries them); more match as one but go unnamed. */
#define FILES_HIT_MAX 64

/* The files of side s of tx that file rules look at now: those before the
 * first still OPEN, as a file is inspected once final (its size, hashes,
 * magic and content are then what eve logs of it); all at the flow's end. */
static uint32_t files_ready(unsigned fp, void *tx, int s, int final)
{
	FileContainer *fc = files_of_tx((int)fp, tx, s, final);
	uint32_t n = 0;

	for (const File *f = files_first(fc); f; f = file_next(f), n++)
		if (!final && file_state(f) == FILE_STATE_OPEN)
			break;
	return n;
}

static int bit_get(const uint64_t *w, uint32_t bit)
{
	return (w[bit >> 6] >> (bit & 63)) & 1;
}

static void bit_put(uint64_t *w, uint32_t bit, int v)
{
	if (v)
		w[bit >> 6] |= 1ull << (bit & 63);
	else
		w[bit >> 6] &= ~(1ull << (bit & 63));
}

/* As Suricata, which evaluates a transaction's file rules again when the
 * transaction gets a new file: when more of tx's files are ready than at
 * the last pass, the file rules evaluated (done) on either side are
 * evaluated again, on the new files (fprev), and the lists scanned
 * complete are scanned again for their candidates. 1: files came. */
/* Whether more of tx's files are ready than at the last pass (n: how
 * many per side). No state changes: the ac-cuda plan asks too. */
static int files_more(const DetectEngine *de, const Flow *f, void *tx, const TxDetect *st,
		      int final, uint32_t n[2])
{
	int grew = 0;

	if (!de->nfile_sigs || !files_proto_has(f->app_proto))
		return 0;
	for (int s = 0; s < 2; s++) {
		n[s] = files_ready(f->app_proto, tx, s, final);
		grew |= n[s] > st->fcount[s];
	}
	return grew;
}

static int files_grew(const DetectEngine *de, const Flow *f, void *tx, TxDetect *st, int final)
{
	uint32_t n[2];
	int had = st->fcount[0] || st->fcount[1];

	if (!files_more(de, f, tx, st, final, n))
		return 0;
	/* before the first files, every rule saw none: no window needed */
	if (had && !st->fprev)
		st->fprev = calloc(st->cap_bits / 64 ? st->cap_bits / 64 : 1, sizeof(uint64_t));
	for (uint32_t i = 0; i < de->nfile_sigs; i++) {
		const DetectSig *ds = &de->sigs[de->file_sigs[i]];

		if (!sig_on_flow(ds->s, f->app_proto))
			continue;
		for (uint32_t d = 0; d < 2; d++) {
			uint32_t bit = 2 * ds->hidx + d;
			int done = bit_get(st->done, bit);

			/* no memory for the window: all the files again */
			if (st->fprev)
				bit_put(st->fprev, bit, done);
			bit_put(st->done, bit, 0);
		}
	}
	st->fbase[0] = st->fcount[0];
	st->fbase[1] = st->fcount[1];
	st->fcount[0] = n[0];
	st->fcount[1] = n[1];
	memset(st->scanned, 0, sizeof(st->scanned));
	/* the other side's pass looks again too, its progress unchanged */
	st->seen[0] = st->seen[1] = 0;
	return 1;
}

/* A file rule on each file it has not seen yet, one at a time: all its
 * file keywords hold for one file (Suricata's file inspection). On pass
 * side d, a rule evaluated on both sides reads d's files, one evaluated
 * on one side both sides' (a filemd5 rule on a request's upload). The
 * files that matched go to hit (filestore's). */
static int tx_files_match(DetectThread *dt, const TxPass *tp, const DetectSig *ds, Packet *p,
			  void *tx, File **hit, uint32_t *nhit)
{
	const TxDetect *st = tp->st;
	unsigned sides = ds->tx_dirs == BDIR_BOTH ? 1u << tp->d : 3u;
	uint32_t bit = 2 * ds->hidx + (uint32_t)tp->d;
	int m = 0;

	*nhit = 0;
	for (int s = 0; s < 2; s++) {
		FileContainer *fc;
		uint32_t lo, idx = 0;

		if (!(sides & (1u << s)))
			continue;
		fc = files_of_tx((int)tp->fp, tx, s, tp->final);
		lo = st->fprev && bit_get(st->fprev, bit) ? st->fbase[s] : 0;
		for (File *f = (File *)files_first(fc); f && idx < st->fcount[s];
		     f = (File *)file_next(f), idx++) {
			const DetectTx dtx = { tx, tp->d, 1, s, idx };

			if (idx < lo || !tx_sig_match_dtx(dt, tp, ds, p, &dtx))
				continue;
			m = 1;
			if (*nhit < FILES_HIT_MAX)
				hit[(*nhit)++] = f;
		}
	}
	return m;
}

int tx_sig_match_fw(DetectThread *dt, const DetectFlowState *fs, const DetectSig *ds,
		    Packet *p, void *tx, int d)
{
	TxPass tp = { .fs = fs, .fp = p->flow->app_proto, .d = d };

	return tx_sig_match(dt, &tp, ds, p, tx);
}

/* Prefilters list l's buffer(s) on side tp->d, unless the scan cannot give
 * anything now: a rule whose fast pattern is in l needs at least l's
 * progress on l's side, so before that every candidate would wait; and a
 * buffer scanned complete with all its candidates evaluated gives nothing
 * new. */
static int list_complete(const TxPass *tp, int l)
{
	return tp->prog[buf_side(l, tp->d)] == tp->complete;
}

/* Whether the pass prefilters list l (tx_scan_list and the ac-cuda plan):
 * not when the scan cannot give anything now (see tx_scan_list). */
static int list_wanted(const TxDetect *st, const TxPass *tp, int l)
{
	if (st->scanned[tp->d][l >> 6] & (1ull << (l & 63)))
		return 0;
	return tp->final || list_complete(tp, l) ||
	       tp->prog[buf_side(l, tp->d)] >= detect_buffers[l].progress;
}

static void tx_scan_list(DetectThread *dt, void *tx, TxDetect *st, TxPass *tp, int l, int src)
{
	const SigGroup *g = &dt->de->hgroups[tp->d][l];
	int side = buf_side(l, tp->d);
	int complete = list_complete(tp, l);
	const uint8_t *data;
	uint32_t len;

	if (!list_wanted(st, tp, l))
		return;
	tp->deferred = 0;
	if (detect_buffers[l].multi) {
		for (uint32_t i = 0; buf_get(src, tp->fp, tx, side, i, &data, &len) == 0; i++)
			prefilter_buf(dt, g, dt->scratch_h[tp->d][l], data, len, tp, tx, l, i);
	} else if (buf_get(src, tp->fp, tx, side, 0, &data, &len) == 0) {
		if (l != BUF_HTTP_SERVER_BODY || !prefilter_body_gpu(dt, g, st, tp, len))
			prefilter_buf(dt, g, dt->scratch_h[tp->d][l], data, len, tp, tx, l, 0);
	}
	if (complete && !tp->deferred)
		st->scanned[tp->d][l >> 6] |= 1ull << (l & 63);
}

/* A pass's progress key: either side's progress can make a rule ready (a
 * request rule may wait for response buffers), so a change on either
 * re-evaluates (progress values are below 5:
 * AppProtoOps.progress_complete). */
static uint8_t pass_key(const int prog[2], int d, int final)
{
	return (uint8_t)(1 + prog[d] + 5 * prog[d ^ 1] + (final ? 32 : 0));
}

/* props_early: the protocol's properties may change until side d is done */
static int pass_early(const Flow *f, const int prog[2], int d)
{
	return tx_proto(f->app_proto)->props_early &&
	       prog[d] < app_proto_progress_complete(f->app_proto);
}

/* Whether a pass of side d over tx does nothing: its progress seen
 * already (unless events or properties may come up, or files came:
 * grew), nothing seen on that side yet, or a one-way transaction the
 * other way. tx_eval and the ac-cuda plan. */
static int pass_idle(const DetectEngine *de, const Flow *f, void *tx, const TxDetect *st,
		     const int prog[2], int d, int final, int grew)
{
	unsigned cls = tx_class(f->app_proto);
	/* a side not done may raise an event on any packet: the rules that
	 * wait for one look again (de->ev_early: flows of protocols that
	 * have such rules only) */
	int ev_wait = de->ev_early[cls] && prog[d] < app_proto_progress_complete(f->app_proto);

	return (st->seen[d] == pass_key(prog, d, final) && !pass_early(f, prog, d) && !ev_wait &&
		!grew) ||
	       (prog[d] == 0 && !final && !grew) ||
	       (app_layer_tx_flags(f, tx) & (d ? APP_TX_ONLY_TS : APP_TX_ONLY_TC));
}

static void tx_eval(DetectThread *dt, DetectFlowState *fs, Packet *p, void *tx, TxDetect *st,
		    int d, int final)
{
	const DetectEngine *de = dt->de;
	const Flow *f = p->flow;
	int prog[2] = { app_layer_tx_progress(f, tx, 0), app_layer_tx_progress(f, tx, 1) };
	TxPass tp = { .st = st, .fs = fs, .fp = f->app_proto, .d = d, .final = final,
		      .prog = { prog[0], prog[1] } };
	unsigned cls = tx_class(f->app_proto);
	CandSet *cs = &dt->cand;
	CandWalk it = { 0 };
	uint32_t num;
	int early = pass_early(f, prog, d);
	/* new files to look at: the pass runs whatever the progress */
	int grew = files_grew(de, f, tx, st, final);
	File *hit[FILES_HIT_MAX];
	uint32_t nhit = 0;

	if (pass_idle(de, f, tx, st, prog, d, final, grew))
		return;
	st->seen[d] = pass_key(prog, d, final);
	tp.complete = app_proto_progress_complete(f->app_proto);
	/* the buffers of the flow's protocol (each list is one protocol's),
	 * and on SMB the dcerpc rules' stub data (sig_on_flow) */
	if (f->app_proto < TX_CLASS_COUNT)
		for (unsigned k = 0; k < de->ntx_lists[d][f->app_proto]; k++) {
			int l = de->tx_lists[d][f->app_proto][k];

			tx_scan_list(dt, tx, st, &tp, l, list_source(l, f->app_proto));
		}
	for (uint32_t k = 0; k < de->nhx; k++) {
		const TxXGroup *hx = &de->hx[k];
		int side;
		const uint8_t *data, *xd;
		uint32_t len, xl;

		if (hx->d != d || !buf_on_flow(hx->base, f->app_proto))
			continue;
		side = buf_side(hx->base, d);
		for (uint32_t i = 0; buf_get(hx->base, f->app_proto, tx, side, i, &data, &len) == 0;
		     i++) {
			if (transform_apply(hx->chain, dt->xs, data, len, &xd, &xl) == 0)
				prefilter_buf(dt, &hx->g, dt->scratch_hx[k], xd, xl, &tp, NULL, 0, 0);
		}
	}
	for (uint32_t i = de->h_always_at[d][cls]; i < de->h_always_at[d][cls + 1]; i++)
		cand_mark(cs, de->h_always[d][i]);
	if (!cs->nwords)
		return;
	cand_sort(cs);
	while (cand_next(cs, &it, &num)) {
		const DetectSig *ds = &de->sigs[num];

		int ev_now = 0, m;

		if (!sig_on_flow(ds->s, f->app_proto) || sig_done(&tp, ds))
			continue;
		if (!ready(ds, prog, final, d) && !(ev_now = ready_event(ds, f, tx, prog, d)))
			continue;
		sig_set_done(&tp, ds);
		/* a rule whose payload fast pattern is not in this pass's bytes
		 * fails as its inspection would, uninspected */
		if (ds->tx_pfp && !tx_payload_found(dt, &tp, p, num)) {
			m = 0;
		} else {
			dt->ninspect[INSPECT_TX]++;
			m = ds->file_rule ? tx_files_match(dt, &tp, ds, p, tx, hit, &nhit) :
					    tx_sig_match(dt, &tp, ds, p, tx);
		}
		if (!m) {
			/* props_early: again on a later pass; an early event
			 * rule: again when it is ready */
			if ((early && !final && (ds->s->flags & SIG_FLAG_TX_MATCH)) || ev_now)
				sig_clear_done(&tp, ds);
			continue;
		}
		dt->cur_has_tx = 1;
		dt->cur_tx = app_layer_tx_id(f, tx);
		if (ds->file_rule) {
			dt->cur_files = hit;
			dt->ncur_files = nhit;
		}
		detect_sig_matched(dt, ds, p);
		dt->cur_has_tx = 0;
		dt->cur_files = NULL;
		dt->ncur_files = 0;
	}
	cand_end(cs, &it);
}

/* ---- ac-cuda: the plan of a packet's transaction passes ---- */

void tx_plan_buffers(const DetectEngine *de, Packet *p, TxBufFn fn, void *arg)
{
	Flow *f = p->flow;
	const DetectFlowState *fs;
	int d = (p->flags & PKT_TOCLIENT) ? 1 : 0;
	uint64_t id, n, low;
	unsigned fp;
	TxDetect fresh;

	if (!f || !de->ntx_rules || !app_layer_has_txs(f) || f->app_proto >= TX_CLASS_COUNT)
		return;
	fp = f->app_proto;
	/* as tx_inspect_flow walks them, without its catching up */
	fs = detect_flow_state(de, f, 0);
	low = app_layer_tx_low(f);
	id = fs && fs->tx_next > low ? fs->tx_next : low;
	n = app_layer_tx_count(f);
	for (; id < n; id++) {
		void *tx = app_layer_tx_get(f, id);
		int prog[2], grew;
		uint32_t nf[2];
		const TxDetect *st;
		TxPass tp;

		if (!tx)
			continue;
		memset(&fresh, 0, sizeof(fresh));
		/* tx_state without making or rebasing it: a state of another
		 * engine or class is one tx_eval starts afresh */
		st = *app_layer_tx_detect_slot(f, tx);
		if (!st || st->gen != de->gen || st->cls != tx_class(fp))
			st = &fresh;
		else if (2 * (uint64_t)de->ntx[tx_class(fp)] > st->cap_bits)
			continue;
		prog[0] = app_layer_tx_progress(f, tx, 0);
		prog[1] = app_layer_tx_progress(f, tx, 1);
		/* new files: the pass runs, and scans every list again
		 * (files_grew clears the scanned bits) */
		grew = files_more(de, f, tx, st, 0, nf);
		if (grew) {
			fresh.seen[0] = st->seen[0];
			fresh.seen[1] = st->seen[1];
			st = &fresh;
		}
		if (pass_idle(de, f, tx, st, prog, d, 0, grew))
			continue;
		tp = (TxPass){ .st = (TxDetect *)st, .fp = fp, .d = d, .prog = { prog[0], prog[1] },
			       .complete = app_proto_progress_complete(fp) };
		for (unsigned k = 0; k < de->ntx_lists[d][fp]; k++) {
			int l = de->tx_lists[d][fp][k], src = list_source(l, fp);
			int side = buf_side(l, d), multi = detect_buffers[l].multi;
			const uint8_t *data;
			uint32_t len;

			if (!list_wanted(st, &tp, l))
				continue;
			for (uint32_t i = 0; (multi || i == 0) &&
					     buf_get(src, fp, tx, side, i, &data, &len) == 0; i++)
				if (len && fn(arg, tx, d, l, i, data, len))
					return;
		}
	}
}

/* ---- ac-cuda: response bodies from the stream view ---- */

/* Adds the ids of ms not yet in side d's list. -1: too many, or no memory. */
static int ids_merge(BodyIds *b, int d, const MpmMatchSet *ms, uint32_t npids)
{
	const uint32_t *in = mpm_matchset_ids(ms);
	uint32_t n = mpm_matchset_count(ms);

	if (!b->seen[d] && !(b->seen[d] = calloc((npids + 7) / 8, 1)))
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t id = in[i];

		if (id >= npids || (b->seen[d][id >> 3] >> (id & 7) & 1))
			continue;
		if (b->n[d] == BODY_IDS_MAX)
			return -1;
		if (b->n[d] == b->cap[d]) {
			uint32_t cap = b->cap[d] ? 2 * b->cap[d] : 16;
			uint32_t *p = realloc(b->ids[d], cap * sizeof(*p));

			if (!p)
				return -1;
			b->ids[d] = p;
			b->cap[d] = cap;
		}
		b->seen[d][id >> 3] |= (uint8_t)(1u << (id & 7));
		b->ids[d][b->n[d]++] = id;
	}
	return 0;
}

/* The new body bytes [b->done, len) for pass side d's group: verbatim
 * pieces take the ids of the stream entries their ends fall in (and the
 * CPU scans what no entry covers), with L - 1 bytes of the piece before
 * b->done for the matches that cross it; a piece boundary is a seam in
 * the body that the stream never had, scanned on the CPU; the rest
 * (decompressed runs) is scanned on the CPU. The set only grows: it holds every pattern a CPU scan
 * of the body would find. Returns the bytes scanned on the CPU. */
static uint64_t body_harvest_side(DetectThread *dt, const DetectFlowState *fs, BodyIds *b,
				  int d, const uint8_t *data, uint32_t len,
				  const HttpBodyPiece *pc, uint32_t np)
{
	const DetectEngine *de = dt->de;
	const SigGroup *g = &de->hgroups[d][BUF_HTTP_SERVER_BODY];
	MpmScratch *sc = dt->scratch_h[d][BUF_HTTP_SERVER_BODY];
	uint32_t L = detect_gpu_stream_maxlen(de->gpu), keep = L ? L - 1 : 0;
	uint64_t cpu = 0;

	mpm_matchset_clear(dt->ms);
	for (uint32_t i = 0; i < np; i++) {
		uint32_t plo = pc[i].body_off, phi = plo + pc[i].len;
		uint32_t lo = plo > b->done ? plo : b->done, hi = phi < len ? phi : len;

		if (lo >= hi)
			continue;
		if (pc[i].stream_off == UINT64_MAX) {
			uint32_t from = lo > keep ? lo - keep : 0;

			/* a decompressed run is no stream bytes: the CPU
			 * scans it, where it is made (a device round trip
			 * would stall this worker for longer: doc/gpu.md) */
			mpm_prefilter(g->mpm, sc, data + from, hi - from, dt->ms);
			cpu += hi - from;
			continue;
		}
		if (lo == plo && plo > 0) {
			uint32_t from = plo > keep ? plo - keep : 0;
			uint32_t to = hi - plo > keep ? plo + keep : hi;

			mpm_prefilter(g->mpm, sc, data + from, to - from, dt->ms);
			cpu += to - from;
		}
		{
			uint32_t bb = lo - (lo - plo > keep ? keep : lo - plo);
			CovArg a = { .dt = dt, .mpm = g->mpm, .sc = sc, .data = data + bb,
				     .base = pc[i].stream_off + (bb - plo) };

			detect_gpu_sv_range(de->gpu, GPU_SV_BODY_TS + d, &a.lo, &a.hi);
			cpu += scov_window(fs->scov[1], a.base, hi - bb, L, detect_cov_ids,
					   detect_cov_cpu, &a);
		}
	}
	if (ids_merge(b, d, dt->ms, g->npids) != 0)
		b->over = 1;
	return cpu;
}

/* Freed transactions are done for detection: the walks start at the app
 * layer's gc mark when detection's own lags behind it (packets detection
 * did not see), so that they cost the live transactions. */
static void tx_next_catch_up(const Flow *f, DetectFlowState *fs)
{
	uint64_t low = app_layer_tx_low(f);

	if (fs->tx_next < low)
		fs->tx_next = low;
}

void tx_gpu_harvest(DetectThread *dt, Flow *f, DetectFlowState *fs)
{
	const DetectEngine *de = dt->de;
	uint64_t n;

	/* the GPU's stream view serves HTTP response bodies (verbatim stream
	 * bytes) */
	if (!de->gpu || !de->ntx_rules || f->app_proto != detect_buffers[BUF_HTTP_SERVER_BODY].alproto ||
	    (!de->hgroups[0][BUF_HTTP_SERVER_BODY].mpm &&
	     !de->hgroups[1][BUF_HTTP_SERVER_BODY].mpm))
		return;
	tx_next_catch_up(f, fs);
	n = app_layer_tx_count(f);
	for (uint64_t id = fs->tx_next; id < n; id++) {
		void *tx = app_layer_tx_get(f, id);
		const HttpBodyPiece *pc;
		const uint8_t *data;
		uint32_t len, np;
		TxDetect *st;
		BodyIds *b;

		if (!tx)
			continue;
		np = http_tx_body_raw(tx, APP_DIR_TOCLIENT, &data, &len, &pc);
		if (!len || !(st = tx_state(de, f, tx)))
			continue;
		if (!st->body && !(st->body = calloc(1, sizeof(*st->body))))
			continue;
		b = st->body;
		if (b->over || b->done >= len)
			continue;
		for (int d = 0; d < 2; d++) {
			uint64_t cpu;

			if (!de->hgroups[d][BUF_HTTP_SERVER_BODY].mpm ||
			    !dt->scratch_h[d][BUF_HTTP_SERVER_BODY])
				continue;
			cpu = body_harvest_side(dt, fs, b, d, data, len, pc, np);
			/* the bytes backed up over count once, as new ones */
			b->cpu[d] += cpu < len - b->done ? (uint32_t)cpu : len - b->done;
		}
		b->done = len;
	}
}

/* Whether tx id, the next after the one detection is on in direction d, is
 * one-way the other way (a DNS response on a query's packet): it is not
 * live in d. */
static int one_way_other(const Flow *f, uint64_t id, int d)
{
	void *tx = app_layer_tx_get(f, id);

	return tx && (app_layer_tx_flags(f, tx) & (d ? APP_TX_ONLY_TS : APP_TX_ONLY_TC));
}

/* As Suricata 8: the transaction detection is on in the packet's direction
 * (the first not done there: a packet's own rules run before its
 * transactions' inspection) when it is the only one live there (no later
 * one, or only one that is one-way the other way); for a rule of the
 * flow's protocol on UDP, that transaction whatever follows. */
int tx_alert_guess(DetectThread *dt, const Packet *p, const Signature *s, uint64_t *id,
		   int *guessed)
{
	const DetectEngine *de = dt->de;
	Flow *f = p->flow;
	DetectFlowState *fs = f->detect;
	int d = (p->flags & PKT_TOCLIENT) ? 1 : 0;
	unsigned done = d ? APP_TX_DETECT_TC : APP_TX_DETECT_TS;
	int udp = f->proto == IPPROTO_UDP && s->alproto != ALPROTO_UNKNOWN;
	uint64_t n, i = app_layer_tx_low(f);
	void *tx = NULL;
	TxDetect *st;

	if (!f->alstate || (!udp && !de->cfg.guess_tx))
		return 0;
	if (fs) {
		tx_next_catch_up(f, fs);
		i = fs->tx_next;
	}
	n = app_layer_tx_count(f);
	for (; i < n; i++) {
		tx = app_layer_tx_get(f, i);
		if (tx && !(app_layer_tx_flags(f, tx) & done))
			break;
	}
	if (i >= n)
		return 0;
	if (!udp && n != i + 1 && !(n == i + 2 && one_way_other(f, i + 1, d)))
		return 0;
	st = tx_state(de, f, tx);
	if (!st || st->guessed >= de->cfg.guess_tx_limit)
		return 0;
	st->guessed++;
	*id = i;
	*guessed = f->proto != IPPROTO_UDP;
	return 1;
}

void tx_inspect_flow(DetectThread *dt, Packet *p, DetectFlowState *fs, int final)
{
	Flow *f = p->flow;
	uint64_t n = app_layer_tx_count(f);
	int pdir = (p->flags & PKT_TOCLIENT) ? 1 : 0;
	int complete;

	tx_next_catch_up(f, fs);
	if (fs->tx_next >= n)
		return;     /* every transaction so far is done for detection */
	complete = app_proto_progress_complete(f->app_proto);
	if (!dt->de->ntx_rules)
		goto flags;
	for (uint64_t id = fs->tx_next; id < n; id++) {
		void *tx = app_layer_tx_get(f, id);
		TxDetect *st;

		if (!tx)
			continue;
		st = tx_state(dt->de, f, tx);
		if (!st)
			continue;
		/* as Suricata, a side's rules run on packets going that way
		 * (and on that side's flow-end pseudo packet) */
		tx_eval(dt, fs, p, tx, st, pdir, final);
	}
flags:
	/* transactions complete on a side are done for detection there */
	for (uint64_t id = fs->tx_next; id < n; id++) {
		void *tx = app_layer_tx_get(f, id);
		unsigned fl;

		if (!tx) {
			if (id == fs->tx_next)
				fs->tx_next++;
			continue;
		}
		fl = 0;
		if ((final && pdir == 0) || (pdir == 0 && app_layer_tx_progress(f, tx, 0) == complete))
			fl |= APP_TX_DETECT_TS;
		if ((final && pdir == 1) || (pdir == 1 && app_layer_tx_progress(f, tx, 1) == complete))
			fl |= APP_TX_DETECT_TC;
		app_layer_tx_set_flags(f, tx, fl);
		if ((app_layer_tx_flags(f, tx) & (APP_TX_DETECT_TS | APP_TX_DETECT_TC)) ==
		    (APP_TX_DETECT_TS | APP_TX_DETECT_TC) && id == fs->tx_next)
			fs->tx_next++;
	}
}
