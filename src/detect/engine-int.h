/* Internals of the detection engine, shared by engine.c, engine-config.c and
 * build-*.c (build, groups, port groups), thread.c, the packet path
 * (packet.h: packet.c, prefilter.c, sig-match.c, stream-inspect.c), inspect.c
 * (keyword matching) and state.c
 * (flowbits/flowint per flow, thresholds, threshold.config). */
#ifndef DETECT_ENGINE_INT_H
#define DETECT_ENGINE_INT_H

#include "detect/engine.h"

#include "app-layer/app-layer.h"
#include "detect/pcre2-config.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

/* Inspection buffers. Packet payload today; STREAM is where the reassembled
 * stream plugs in (content rules without flow:no_stream inspect both in
 * Suricata), then the http_* buffers. */
enum inspect_buf_type { IBUF_PACKET = 0, IBUF_STREAM };

typedef struct InspectBuffer {
	const uint8_t *data;
	uint32_t len;
	int type;
} InspectBuffer;

#define DETECT_VARS_MAX 64
/* replace keywords of one rule that may take effect on one packet */
#define DETECT_REPL_MAX 8
/* Suricata's detect.inspection-recursion-limit default. */
#define DETECT_RECURSION_LIMIT 3000
/* where the candidates the CPU inspects came from (detect.inspect.*) */
enum inspect_class { INSPECT_PACKET = 0, INSPECT_STREAM, INSPECT_TX, INSPECT_MAX };
#define INSPECT_MEMO_MAX 32   /* list elements content_step remembers failures of */

/* Protocol classes of the signature groups. */
enum { PC_TCP = 0, PC_UDP, PC_ICMP, PC_OTHER, PC_MAX };

/* Suricata's rule types, as --engine-analysis names them (analysis.c) */
enum { SIG_TYPE_PKT = 0, SIG_TYPE_IPONLY, SIG_TYPE_PKT_STREAM, SIG_TYPE_STREAM,
       SIG_TYPE_APPLAYER, SIG_TYPE_APP_TX, SIG_TYPE_MAX };

/* A rule inspected on every packet of its group (no fast pattern), with
 * what a packet must show before inspecting it is worth it: necessary
 * conditions drawn from its ports and keywords, checked in a few
 * instructions against bits computed once per packet. A packet that passes
 * is still inspected in full. Most such rules are SYN-scan counters and
 * port-specific probes, which most packets fail on their flags or port. */
#define PRE_PAYLOAD   (1u << 0)   /* payload_len > 0 */
#define PRE_TOSERVER  (1u << 1)   /* a flow, and the packet goes to the server */
#define PRE_TOCLIENT  (1u << 2)
#define PRE_TCP       (1u << 3)   /* a TCP packet: flags_set/flags_clear apply */
typedef struct SigPrecheck {
	uint32_t num;             /* the rule, by internal order */
	uint16_t sp_lo, sp_hi, dp_lo, dp_hi;
	uint8_t need;             /* PRE_* bits the packet must have */
	uint8_t flags_set;        /* tcp flags that must be set */
	uint8_t flags_clear;      /* tcp flags that must be clear */
	uint8_t iponly;
	uint8_t flags_any;        /* flags:*: one of these set (0: no condition) */
	uint8_t has_proto;        /* ip_proto:N: p->proto must be `proto` */
	uint8_t proto;
	uint8_t bidir;            /* <>: the port hulls the other way round pass too */
	/* inspect_header may reject what the cheap bits let through: the
	 * rule's addresses, or a port list with gaps in its hull. The walk
	 * then runs inspect_header itself (precheck_header), the test
	 * inspection makes of every rule, before marking the candidate. */
	uint8_t hdr;
	uint16_t alproto;         /* `alert dns ...`: the flow's app protocol (0: any) */
} SigPrecheck;

static inline uint32_t precheck_packet_bits(const Packet *p)
{
	uint32_t have = p->payload_len ? PRE_PAYLOAD : 0;

	if (p->flow)
		have |= (p->flags & PKT_TOSERVER) ? PRE_TOSERVER :
			(p->flags & PKT_TOCLIENT) ? PRE_TOCLIENT : 0;
	if (PKT_IS_TCP(p))
		have |= PRE_TCP;
	return have;
}

/* The port hulls; a <> rule's the other way round too, as inspect_header
 * tries both sides (most such rules name one service port, which few
 * packets have on either side). */
static inline int precheck_ports(const SigPrecheck *c, const Packet *p)
{
	if (p->sp >= c->sp_lo && p->sp <= c->sp_hi && p->dp >= c->dp_lo && p->dp <= c->dp_hi)
		return 1;
	return c->bidir && p->dp >= c->sp_lo && p->dp <= c->sp_hi && p->sp >= c->dp_lo &&
	       p->sp <= c->dp_hi;
}

static inline int precheck_pass(const SigPrecheck *c, uint32_t have, const Packet *p)
{
	return (have & c->need) == c->need &&
	       (p->tcp_flags & c->flags_set) == c->flags_set &&
	       !(p->tcp_flags & c->flags_clear) &&
	       (!c->flags_any || (p->tcp_flags & c->flags_any)) &&
	       (!c->has_proto || p->proto == c->proto) &&
	       (!c->alproto || (p->flow && p->flow->app_proto == c->alproto)) &&
	       precheck_ports(c, p);
}

/* An always-inspected rule that needs a TCP flag set can pass only on a
 * packet with that flag, and most of them are scans' flags:S rules: the
 * group keeps them by one flag they need (gate 1 + its bit, the rarest
 * flag first), and a packet walks gate 0 (no flag needed) and the gates
 * of its own flags only. */
#define ALWAYS_GATES 9

static inline uint32_t always_gate_of(const SigPrecheck *c)
{
	/* URG, CWR, ECE, FIN, RST, SYN, PSH, ACK: rarest first */
	static const uint8_t by_rarity[8] = { 5, 7, 6, 0, 2, 1, 3, 4 };

	for (int i = 0; i < 8; i++)
		if (c->flags_set & (1u << by_rarity[i]))
			return 1u + by_rarity[i];
	return 0;
}

/* The gates p walks, as bits: gate 0 and its flags' gates. */
static inline uint32_t always_gates_walked(const Packet *p)
{
	return 1u | (uint32_t)p->tcp_flags << 1;
}

/* Fills c (but c->num) from s; in inspect.c, which owns the keywords'
 * semantics. */
void inspect_precheck_build(const Signature *s, SigPrecheck *c);

typedef struct SigGroup {
	MpmCtx *mpm;              /* fast patterns of the payload buffer; NULL: none */
	/* ac-cuda, a group the CPU scans with hs: an ac-cuda automaton of the
	 * same patterns and pids, the source of its part of the device's union
	 * automata (prefilter-gpu.c), freed once they are built. NULL: mpm is
	 * the source. */
	MpmCtx *mpm_ac;
	uint32_t npids;
	uint32_t *pid_off;        /* pid -> [pid_off[pid], pid_off[pid+1]) in pid_sigs */
	uint32_t *pid_sigs;       /* signature nums */
	/* per pid_sigs entry: hull of the rule's ports, checked before a
	 * candidate is taken (most MPM hits are rules for other ports) */
	uint16_t (*pid_ports)[4]; /* sp lo, sp hi, dp lo, dp hi */
	SigPrecheck *always;      /* rules inspected on every packet of the group */
	uint32_t nalways;
	/* always[] ordered by gate (always_gate_of): gate k's rules are
	 * always[always_at[k]] .. always[always_at[k + 1] - 1] */
	uint32_t always_at[ALWAYS_GATES + 1];
	uint32_t sidx;            /* port groups: index of its DetectThread scratch */
	/* TCP: the fast patterns of the rules that inspect the payload of a
	 * packet that went into the stream (flow:no_stream, dsize, tcp-pkt):
	 * the others see those bytes in the stream, so scanning the packet
	 * with the whole group would find only candidates that fail */
	struct SigGroup *ps;
	/* TCP: the fast patterns of the rules that inspect the stream */
	struct SigGroup *ss;
} SigGroup;

/* The rule's fast pattern when it is usable by a matcher and lives in a
 * list of [lo, hi): not negated, and chopped as fast_pattern:o,l says.
 * NULL: the rule is inspected without one. The prefilter builds (payload
 * groups, transaction groups) and engine analysis read it here, so the
 * analysis names the pattern the engine really matches. */
static inline const DetectContent *sig_fp_usable(const Signature *s, int lo, int hi,
						 const uint8_t **pat, uint16_t *len)
{
	const DetectContent *cd;

	if (s->fp_list < lo || s->fp_list >= hi || s->fp_idx < 0)
		return NULL;
	if (s->lists[s->fp_list].m[s->fp_idx].kw != KW_CONTENT)
		return NULL;
	cd = s->lists[s->fp_list].m[s->fp_idx].cd;
	if (cd->flags & CONTENT_NEGATED)
		return NULL;
	*pat = cd->pat;
	*len = cd->len;
	if (cd->flags & CONTENT_FP_CHOP) {
		*pat = cd->pat + cd->fp_chop_offset;
		*len = cd->fp_chop_len;
	}
	return *len ? cd : NULL;
}

/* A rule's fast pattern, gathered to build a group's matcher. */
typedef struct FpEntry {
	const uint8_t *pat;
	uint16_t len;
	uint8_t nocase;
	uint32_t num;               /* the rule, by internal order */
	/* 0, or the pattern counts only where it ends within the buffer's
	 * first `bound` bytes (its content's depth; mpm_add_pattern_bounded) */
	uint32_t bound;
} FpEntry;

/* The candidate rules of one inspection pass, by internal number (rule
 * order): a bitmap, and the list of its words that are not zero, so that
 * the walk in rule order visits those words only. A packet's handful of
 * candidates lie far apart among ~16k rules: walking every word between
 * the lowest and the highest cost more than inspecting them. Passes use
 * the thread's set one after the other, each leaving it empty. */
typedef struct CandSet {
	uint64_t *bits;           /* one bit per rule */
	uint32_t *words;          /* indexes of the non-zero words */
	uint32_t nwords;
} CandSet;

static inline void cand_mark(CandSet *c, uint32_t num)
{
	uint64_t *w = &c->bits[num >> 6];

	if (!*w)
		c->words[c->nwords++] = num >> 6;
	*w |= 1ull << (num & 63);
}

/* Puts the word list in rule order, before the walk. */
void cand_sort(CandSet *c);

/* The walk over the candidates in rule order, after cand_sort:
 *     CandWalk it = { 0 };
 *     while (cand_next(c, &it, &num)) { ... }
 *     cand_end(c, &it);
 * Each word is taken (zeroed) as the walk reaches it, and words marked
 * meanwhile are walked too; cand_end zeroes what the walk did not reach
 * (it may stop early: a pass rule) and empties the set. */
typedef struct CandWalk {
	uint32_t k;               /* the next word to take */
	uint32_t w;               /* the word being walked */
	uint64_t bits;            /* its candidates not given yet */
} CandWalk;

static inline int cand_next(CandSet *c, CandWalk *it, uint32_t *num)
{
	while (!it->bits) {
		uint64_t *w;

		if (it->k >= c->nwords)
			return 0;
		it->w = c->words[it->k++];
		w = &c->bits[it->w];
		it->bits = *w;
		*w = 0;
	}
	*num = (it->w << 6) | (uint32_t)__builtin_ctzll(it->bits);
	it->bits &= it->bits - 1;
	return 1;
}

static inline void cand_end(CandSet *c, const CandWalk *it)
{
	for (uint32_t k = it->k; k < c->nwords; k++)
		c->bits[c->words[k]] = 0;
	c->nwords = 0;
}

/* Sorts fp by pattern, gives each distinct pattern one id in a new matcher of
 * algo and fills g's pid tables (every port hull the full range: the caller
 * narrows them). 0, or -1 with err. */
int detect_group_mpm_build(DetectEngine *de, SigGroup *g, FpEntry *fp, uint32_t nfp,
			   enum mpm_algo algo, char *err, size_t errlen);
/* The group's matchers for the engine's mpm-algo (build-groups.c): mpm, and
 * under ac-cuda with Hyperscan in the build mpm_ac too (mpm is then hs, the
 * CPU's). detect_groups_drop_ac frees every mpm_ac once the device's union
 * automata are built from them. */
int detect_group_matcher_build(DetectEngine *de, SigGroup *g, FpEntry *fp, uint32_t nfp,
			       char *err, size_t errlen);
void detect_groups_drop_ac(DetectEngine *de);
void detect_group_drop_ac(SigGroup *g);
/* Frees what g holds (its matchers, pid tables, always list, ps and ss),
 * not g itself. */
void detect_group_free(SigGroup *g);
/* The ac automaton of a group's patterns, the source of a union: mpm_ac
 * while it is kept, else the group's own matcher. */
static inline const MpmCtx *detect_group_ac(const SigGroup *g)
{
	return g->mpm_ac ? g->mpm_ac : g->mpm;
}
void tx_groups_drop_ac(DetectEngine *de);     /* tx-inspect.c */

/* The signature groups of one protocol class and direction, split by the
 * packet's port on one side (usually the server's, as Suricata does; see
 * pg_key_side): a group holds the rules whose port set on that side may
 * contain the port (rules with `any` there are in every group), so a
 * packet meets only the fast patterns of rules that can match it. Ports whose rule sets are
 * equal share a group; beyond PG_MAX_GROUPS the smallest sets are merged
 * into one (a superset: inspection still checks the ports). Each group is
 * an automaton to build: few, and only where they differ enough. */
#define PG_MAX_GROUPS 8
/* no split when the port-specific rules are fewer than 1/PG_MIN_SPLIT of
 * the others (those are in every group anyway) */
#define PG_MIN_SPLIT 4

typedef struct PortGroups {
	uint8_t *map;             /* port -> index into g; NULL: g[0] for every port */
	SigGroup *g;
	uint32_t ng;
	int side;                 /* map is by 0: dp, 1: sp */
	int owned;                /* g is ours (not &DetectEngine.groups[pc][d]) */
} PortGroups;

/* 64-bit words of DetectSig.tx_lists: one bit per transaction list (every
 * protocol's buffers are lists below BUF_IPV4_HDR). */
#define DETECT_TX_LIST_WORDS ((BUF_IPV4_HDR + 63) / 64)

/* Per signature, indexed by internal order (num). */
typedef struct DetectSig {
	const Signature *s;
	/* bit l: lists[l] of s holds keywords, 1 <= l < BUF_IPV4_HDR: the
	 * buffers a transaction rule reads (tx_sig_setup) */
	uint64_t tx_lists[DETECT_TX_LIST_WORDS];
	uint8_t action;           /* ALERT_ACTION_* */
	uint8_t iponly;           /* once per flow direction */
	uint8_t like_iponly;      /* ip-only but for its ports: acts on the flow */
	uint8_t has_payload;      /* payload list not empty */
	uint8_t is_tx;            /* evaluated on transactions (tx-inspect.c) */
	uint8_t has_hdr;          /* inspects ipv4.hdr, tcp.hdr, ... */
	uint8_t has_frame;        /* frame:<proto>.<type>: inspected on frames only */
	uint8_t port_check;       /* rule has non-any ports */
	uint8_t is_icmp_any;
	/* TCP payload inspection, decided at load as Suricata does (see
	 * sig_stream_setup): stream_ok is its need_stream, pkt_streamed_ok
	 * its need_packet beside it, pkt_ok false for stream-only rules */
	uint8_t stream_ok;        /* payload rule that inspects the reassembled stream */
	uint8_t pkt_ok;           /* may inspect packet payloads (not tcp-stream/only_stream) */
	uint8_t pkt_streamed_ok;  /* also the payload of a packet that went into the stream */
	uint8_t sig_type;         /* SIG_TYPE_* (engine analysis) */
	uint8_t need_packet;      /* Suricata's flags, as engine analysis shows them */
	uint8_t need_stream;
	uint8_t need_alproto;     /* `alert http` without app buffers: flow must be s->alproto */
	uint8_t tx_dirs;          /* is_tx: bit 0 evaluated toserver, bit 1 toclient */
	uint8_t tx_need[2];       /* is_tx: the protocol's progress needed per side */
	/* app-layer-event rules: the progress their buffers need, after which
	 * the rule matches as soon as its events are up, before tx_need */
	uint8_t ev_early;
	uint8_t ev_need[2];
	/* is_tx: reads files (file.name, file.magic, a protocol's per-file
	 * file.data, filesize/filemd5/..., filestore): evaluated per file, as
	 * Suricata's file inspection, and again for each file that comes
	 * after it was evaluated (tx-inspect.c) */
	uint8_t file_rule;
	/* is_tx, no fast pattern in a transaction buffer but one in the
	 * payload (ET's legacy syntax: content:"x"; fast_pattern; beside
	 * http_uri contents): its payload list can hold only where the bytes
	 * it reads on a pass hold that pattern, so it is inspected only when
	 * DetectEngine.hpay finds it there (tx-inspect.c) */
	uint8_t tx_pfp;
	uint32_t hidx;            /* is_tx: index among its tx_class's rules */
	/* ac-cuda: the device runs this rule's payload program (verify-build.h)
	 * when its fast pattern is found: 0 no, 1 a prefix of the list (a 0
	 * spares the CPU the rule), 2 the whole list (a 1 spares it the list) */
	uint8_t gpu_verify;
	/* ac-cuda, is_tx: bit d, the device runs the program of the rule's
	 * fast pattern list (a transaction buffer) on pass side d's buffers
	 * where its pattern is found; one that did not hold makes the rule
	 * no candidate there (tx-inspect.c). Apart from gpu_verify, which is
	 * the packet view's */
	uint8_t gpu_txv;
	const DetectThreshold *thr;   /* rule threshold/detection_filter (may be overridden) */
	const char **metadata;    /* "key value" strings, for AlertInfo */
	char *meta_buf;
	unsigned nmeta;
	const char **refs;        /* reference keywords as URLs, for AlertInfo */
	char *refs_buf;
	unsigned nrefs;
	const char *class_desc;
} DetectSig;

/* The fast pattern the prefilter build gives rule ds's group matcher, as
 * group_build_one (payload rules) and hgroups_build (transaction rules)
 * take it; frame rules have none. */
static inline const DetectContent *detect_sig_mpm_fp(const DetectSig *ds, const uint8_t **pat,
						     uint16_t *len)
{
	if (ds->is_tx)
		return sig_fp_usable(ds->s, BUF_PAYLOAD + 1, BUF_IPV4_HDR, pat, len);
	if (ds->has_frame)
		return NULL;
	return sig_fp_usable(ds->s, BUF_PAYLOAD, BUF_PAYLOAD + 1, pat, len);
}

typedef struct ThresholdTable ThresholdTable;

/* The class whose transaction rules may inspect a flow of protocol
 * alproto, by which they are numbered (DetectSig.hidx): a dcerpc rule also
 * inspects the DCE/RPC calls SMB carries (tx-inspect.c sig_on_flow), so
 * SMB's rules and DCE/RPC's are one class. */
static inline unsigned tx_class(unsigned alproto)
{
	if (alproto == ALPROTO_SMB)
		return ALPROTO_DCERPC;
	/* "http" rules run on HTTP/2 flows too (buffers.c: detect_tx_protos) */
	if (alproto == ALPROTO_HTTP2)
		return ALPROTO_HTTP1;
	return alproto < ALPROTO_MAX ? alproto : ALPROTO_UNKNOWN;
}

struct DetectEngine {
	SigTable *t;
	/* A number no other engine of this process has (1, 2, ...): per-flow
	 * and per-transaction state made by an engine a rule reload replaced
	 * is told by it and rebased (state.c, tx-inspect.c) */
	uint32_t gen;
	/* the shared tables a reload handed on to the next engine
	 * (detect_engine_adopt) are no longer ours to free */
	uint8_t lent_hosts, lent_tags;
	DetectConfig cfg;
	DetectSig *sigs;          /* by num */
	uint32_t nsigs;           /* the threat-detection rules, sigs[0, nsigs) */
	/* firewall mode (firewall.c): its rules are sigs[nsigs, nsigs + nfw),
	 * in file order, outside every TD group; the tables below point into
	 * them, each in file order */
	uint32_t nfw;
	const DetectSig **fw_pkt;     /* packet hooks: all and flow_start */
	uint32_t nfw_pkt;
	const DetectSig **fw_pre;     /* pre_flow and pre_stream */
	uint32_t nfw_pre;
	const DetectSig **fw_app;     /* app-layer hooks */
	uint32_t nfw_app;
	/* [proto class][0 toserver / 1 toclient], no port split: built for
	 * ac-cuda (its union automata are made of them) and the classes
	 * without ports; pg[][] is what the packet path uses */
	SigGroup groups[PC_MAX][2];
	PortGroups pg[PC_MAX][2];
	uint32_t nscratch;            /* port-split SigGroups, all classes */
	char **fb_names; int nfb;     /* flowbit names by id */
	char **fi_names; int nfi;     /* flowint names by id */
	char **hb_names; int nhb;     /* hostbit names by id */
	struct HostTable *hosts;      /* hostbits: shared, locked */
	ThresholdTable *thr;
	uint32_t max_pid;
	int have_iponly;
	/* transaction rules (any protocol; "http" is historical): one MPM
	 * per (evaluation side, buffer of the detection-buffer registry,
	 * buffers.h) over their fast patterns, and the ones without a usable
	 * fast pattern. hgroups[d][BUF_HTTP_SERVER_BODY] is also the GPU
	 * prefilter's body group (prefilter-gpu.c). */
	uint32_t ntx_rules;
	/* the transaction rules of each tx_class: a transaction's state has
	 * a bit per rule of its protocol's class, not per transaction rule */
	uint32_t ntx[ALPROTO_MAX];
	/* tx_class c has app-layer-event rules (DetectSig.ev_early): its
	 * transactions are looked at again while a side is not done */
	uint8_t ev_early[ALPROTO_MAX];
	SigGroup hgroups[2][BUF_MAX];
	/* the rules without a fast pattern, by tx_class: those of class c
	 * are h_always[d][h_always_at[d][c] .. h_always_at[d][c + 1]) */
	uint32_t *h_always[2];
	uint32_t h_always_at[2][ALPROTO_MAX + 1];
	/* per pass side, the payload fast patterns of the rules among
	 * h_always[d] that have one (DetectSig.tx_pfp); no mpm: none */
	SigGroup hpay[2];
	/* per side and flow protocol, the lists a transaction is prefiltered
	 * in (a matcher, and the protocol's own or read through it: SMB's
	 * dcerpc stub data), in list order: tx_lists[d][p][0 .. ntx_lists) */
	uint8_t tx_lists[2][ALPROTO_MAX][BUF_IPV4_HDR];
	uint8_t ntx_lists[2][ALPROTO_MAX];
	/* HTTP rules whose fast pattern is in a transformed buffer: one MPM
	 * per (side, buffer, transform chain) (tx-inspect.c) */
	struct TxXGroup *hx;
	uint32_t nhx;
	/* the transaction rules that read files (DetectSig.file_rule), by
	 * index into sigs: re-evaluated when their transaction's files grow */
	uint32_t *file_sigs;
	uint32_t nfile_sigs;
	int uses_stream;
	struct DetectGpu *gpu;        /* ac-cuda (prefilter-gpu.c); NULL otherwise */
	struct TagTable *tags;        /* tag keyword state; NULL: no rule tags */
	/* frame rules (frame-kw.c), by num, in rule order; none: frames are
	 * not inspected at all */
	uint32_t *frame_sigs;
	uint32_t nframe;
};

/* The group of p's class and direction d for p's port on the key side. */
static inline const SigGroup *pkt_group(const DetectEngine *de, int pc, int d, const Packet *p)
{
	const PortGroups *pg = &de->pg[pc][d];

	if (!pg->map)
		return &pg->g[0];
	return &pg->g[pg->map[pg->side ? p->sp : p->dp]];
}

/* app-layer/files.h's file, as DetectThread.cur_files names it */
struct File;

/* lua-kw.c: a detect thread's Lua states (DetectThread.lua), made on
 * first use; NULL is nothing. */
struct LuaThread;
void lua_thread_free(struct LuaThread *lt);
/* var-kw.c: a flowvar of f set (the old value replaced), or read: 0 with
 * its bytes, -1 when f has none of that name (the lua libraries) */
void detect_flowvar_put(const DetectEngine *de, Flow *f, const char *name, const uint8_t *v,
			uint16_t len);
int detect_flowvar_value(const Flow *f, const char *name, const uint8_t **v, uint16_t *len);
/* lua-kw.c: the flowint names a rule's lua scripts registered (build-order.c
 * gives them ids with the flowint keyword's): the count, and name i */
int lua_sig_flowints(const SigMatch *m, const char **names, int max);
/* lua-kw.c: detect.lua.* error counters, once a lua rule was loaded */
void lua_register_counters(void);

struct DetectThread {
	const DetectEngine *de;
	ThreadCounters *tc;
	MpmScratch **scratch_g;   /* per group, by SigGroup.sidx */
	MpmMatchSet *ms;
	CandSet cand;
	DetectAlert *alerts;
	uint32_t nalerts;
	pcre2_match_data *md;
	pcre2_match_context *mctx;    /* the engine's pcre.* limits */
	struct LuaThread *lua;        /* the lua keyword's states: lua_thread_free */
	/* the transaction a rule is being evaluated on (tx-inspect.c's
	 * stack, for the length of its inspection), NULL outside: what the
	 * lua keyword's libraries read */
	const struct DetectTx *insp_tx;
	uint64_t vars[DETECT_VARS_MAX];
	uint32_t recursion;
	/* content_step's memo over the list being inspected (memo_ml):
	 * fail_from[i] is the earliest start from which every occurrence of
	 * element i was tried and none led to a match, UINT32_MAX when none */
	const struct SigMatchList *memo_ml;
	uint32_t fail_from[INSPECT_MEMO_MAX];
	/* the packet being inspected: the context on the stack of
	 * detect_packet() / detect_flow_flush() (packet.h), NULL outside;
	 * for the keywords and inspectors called through shared tables */
	struct DetectPkt *pkt;
	/* the rules whose stream inspection matched on the current packet:
	 * stream_hit[num] == pkt_seq (a stream rule then skips the packet's
	 * own payload, as Suricata's stream-then-packet fallback) */
	uint32_t *stream_hit;
	uint32_t pkt_seq;
	/* ac-cuda: the rules whose payload program held on the device for the
	 * current packet: vpass[num] == pkt_seq (prefilter.c) */
	uint32_t *vpass;
	uint64_t ninspect[INSPECT_MAX];   /* detect_inspect_counters_flush */
	/* ac-cuda: candidates of the packet's payload the device verified
	 * (rejected or passed) and those left to the CPU unverified */
	uint64_t nverify_rej, nverify_pass, nverify_cpu;
	/* the match being queued: the transaction it came from */
	int cur_has_tx;
	uint64_t cur_tx;
	/* a file rule's match: the files it matched (filestore's file scope
	 * stores these); n 0 outside such a match */
	struct File *const *cur_files;
	uint32_t ncur_files;
	uint8_t *win_buf;         /* inline mode: the packet's stream window */
	uint32_t win_cap;
	MpmScratch *scratch_h[2][BUF_MAX];
	MpmScratch **scratch_hx;  /* per de->hx */
	MpmScratch *scratch_hp[2];  /* per de->hpay */
	/* the tx_pfp rules whose payload fast pattern the scan stamped seq
	 * found: txfp_hit[num] == seq (DetectPkt.txfp_seq says which scan is
	 * the packet's) */
	uint32_t *txfp_hit;
	uint32_t txfp_seq;
	struct XformScratch *xs;  /* transform / base64_decode output */
	detect_order_fn order_fn;
	void *order_arg;
	/* ac-cuda: the ticket the worker lent for its next packet
	 * (prefilter-gpu.c), set between detect_gpu_begin and _end; the
	 * packet's prefilter source takes it (prefilter_select) */
	const struct DetectGpuTicket *gpu_src;
	/* ac-cuda: the ticket whose transaction buffers the next packet's
	 * transaction passes take (detect_gpu_begin; queued or not for its
	 * payload), and the rules whose tx program held on the buffer being
	 * prefiltered: txvpass[num] == txv_seq */
	const struct DetectGpuTicket *gpu_tx;
	uint32_t *txvpass;
	uint32_t txv_seq;
	/* candidates of transaction buffers the device verified (rejected or
	 * passed) and those left to the CPU unverified */
	uint64_t ntxv_rej, ntxv_pass, ntxv_cpu;
	uint32_t *scov_ids;       /* SCOV_IDS_MAX: a packet's stream ids, scratch */
	/* results of the last detect_packet(), read after it returns */
	int pkt_tagged;           /* its packet is tagged */
	/* IPS: the packet's drop (detect_packet_drop) */
	DetectAlert drop;
	uint8_t has_drop;
	uint8_t drop_flow;
	/* firewall mode: the last packet's firewall verdict (firewall.c) */
	uint8_t fw_ran;           /* the firewall evaluated it */
	uint8_t fw_drop;          /* and dropped it: fw_reason, the flow too? */
	uint8_t fw_drop_flow;
	uint8_t fw_reason;        /* enum pkt_drop_reason */
	/* pcre captures staged for the rule being inspected and the packet's
	 * pktvars (var-kw.c) */
	struct DetectVarStage *vst;
	/* the packet's verdict (detect_packet_verdict): a pass rule acted on
	 * it; the target of the first reject rule that matched it */
	uint8_t pkt_pass;
	uint32_t pass_num;        /* the first pass rule (num) that matched: UINT32_MAX none */
	uint8_t pkt_reject;       /* enum alert_reject */
	/* replace (IPS): where the payload contents with a replace matched
	 * in the rule being inspected, on the packet's own payload
	 * (inspect_content_step notes them on the chain that held); the
	 * rule's match writes them into the packet (detect_replace_apply) */
	struct DetectReplaceAt { uint32_t off; const struct SigReplace *r; } repl[DETECT_REPL_MAX];
	uint8_t nrepl;
};

/* Per flow detect state (f->detect): one allocation. */
typedef struct DetectFlowState {
	uint32_t gen;             /* DetectEngine.gen of the engine that made it */
	uint8_t iponly_done;      /* bit 0: toserver seen, bit 1: toclient */
	uint8_t flow_pass;        /* a pass rule matched: no more detection on the flow */
	uint8_t payload_off;      /* the protocol gave the payload up (ciphertext:
	                           * app_layer_flow_no_inspection) before the
	                           * current packet: not inspected any more */
	uint16_t nfb, nfi;
	uint8_t *bits;
	uint32_t *ints;
	uint8_t *ints_set;
	uint64_t raw_off[2];      /* raw stream inspected up to, per direction */
	uint64_t raw_rel[2];      /* to release on the next packet: the alerts of
	                           * this one log the stream data (eve payload) */
	uint64_t raw_tx[2];       /* where this packet's raw stream inspection
	                           * started: a transaction rule's payload
	                           * content reads [raw_tx, ready) */
	uint64_t tx_next;         /* first tx not yet done by detection */
	struct TagEntry *tags;    /* session tags (tag.c) */
	struct DetectFlowVars *vars; /* pcre-captured flowvars (var-kw.c); NULL: none */
	/* ac-cuda: stream ends whose matches the GPU found (stream-cov.h) */
	struct StreamCov *scov[2];
	/* the firewall's progress on the flow (firewall.c) */
	uint8_t fw_flow;          /* accept:flow: the rest of the flow is accepted */
	uint8_t fw_tx_acc[2];     /* per side: accept:tx took fw_tx[d]'s other hooks */
	uint8_t fw_hook[2];       /* per side: fw_tx[d]'s hooks of that side accepted */
	uint64_t fw_tx[2];        /* per side: the transaction being evaluated */
} DetectFlowState;

/* Shared by the keywords' match functions (their family files) and
 * inspect.c. */
static inline int detect_uint_match(const DetectUint *u, uint64_t v)
{
	switch (u->mode) {
	case UM_EQ: return v == u->a;
	case UM_NE: return v != u->a;
	case UM_LT: return v < u->a;
	case UM_LTE: return v <= u->a;
	case UM_GT: return v > u->a;
	case UM_GTE: return v >= u->a;
	case UM_RANGE: return v > u->a && v < u->b;
	case UM_NOT_RANGE: return !(v > u->a && v < u->b);
	case UM_BAND_EQ: return (v & u->a) == u->b;
	case UM_BAND_NE: return (v & u->a) != u->b;
	}
	return 0;
}

static inline int detect_bits_match(unsigned have, unsigned want, int modifier)
{
	switch (modifier) {
	case FLAGS_MOD_PLUS: return (have & want) == want;
	case FLAGS_MOD_ANY: return (have & want) != 0;
	case FLAGS_MOD_NOT: return (have & want) == 0;
	}
	return have == want;
}

static inline int detect_same_addr(const Address *a, const Address *b)
{
	if (a->family != b->family)
		return 0;
	if (a->family == AF_INET)
		return a->a.u32[0] == b->a.u32[0];
	return memcmp(a->a.u8, b->a.u8, 16) == 0;
}

/* inspect.c */
int inspect_header(const DetectSig *ds, const Packet *p);
/* The rest of always-inspected rule ds's precheck c, after precheck_pass:
 * its header where the hulls cannot judge it (SigPrecheck.hdr). */
static inline int precheck_header(const SigPrecheck *c, const DetectSig *ds, const Packet *p)
{
	return !c->hdr || inspect_header(ds, p);
}
int inspect_match_list(DetectThread *dt, const Signature *s, Packet *p);
/* the same for a rule evaluated on transaction tx (tx-inspect.c) */
struct DetectTx;
int inspect_match_list_tx(DetectThread *dt, const Signature *s, Packet *p,
			  const struct DetectTx *tx);
int inspect_buffer(DetectThread *dt, const Signature *s, int list, const InspectBuffer *b);

/* sig-match.c: ds matched on p, in the context of dt->pkt */
void detect_sig_matched(DetectThread *dt, const DetectSig *ds, Packet *p);
/* frame-kw.c: the frame rules on the frames of p's direction that are
 * complete (all of them at eof); each frame once. */
void detect_frames_inspect(DetectThread *dt, Packet *p, int eof);
/* ac-cuda: bytes of MPM buffers scanned, by class and by GPU / CPU
 * (mpm.cuda.scan.*), registered with the mpm.cuda.* counters. Counted only
 * when the engine runs ac-cuda. */
enum scan_class { SCAN_PACKET = 0, SCAN_STREAM, SCAN_HTTP, SCAN_MAX };
/* ac-cuda: a buffer's match set from stream coverage (stream-cov.h): the
 * ids in [lo, hi) of the covering entries go to dt->ms as id - lo, and the
 * uncovered ranges (stream offsets; data holds the bytes from base on) are
 * scanned with mpm. exact (a raw stream window, scov_window_exact): the
 * ids are exactly a CPU scan's of [base, ...): mpm's bounded patterns only
 * in a range that starts at base (head_scanned then), or in a scan of the
 * window's head after the sweep. */
typedef struct CovArg {
	DetectThread *dt;
	const MpmCtx *mpm;
	MpmScratch *sc;
	const uint8_t *data;
	uint64_t base;
	uint32_t lo, hi;
	int exact;
	int head_scanned;
} CovArg;
void detect_cov_ids(void *arg, const uint32_t *ids, uint32_t n, int ctx_ok);
void detect_cov_cpu(void *arg, uint64_t from, uint64_t to);
void detect_scan_counters_register(void);
void detect_scan_count_add(DetectThread *dt, int cls, int gpu, uint64_t bytes);
/* The rules the CPU inspected in full, by where their candidates came
 * from (detect.inspect.packet, .stream, .tx): what the device's rule
 * verification spares the CPU is read there, against hs. Counted into
 * dt->ninspect always (one add), and into the counters once per packet
 * when registered: with ac-cuda, or when detect.inspect-counters is yes
 * (Suricata has no such counters, and its stats schema no place for
 * them). */
void detect_inspect_counters_flush(DetectThread *dt);
/* ac-cuda only (the CPU matchers pay one test) */
static inline void detect_scan_count(DetectThread *dt, int cls, int gpu, uint64_t bytes)
{
	if (dt->de->gpu)
		detect_scan_count_add(dt, cls, gpu, bytes);
}
void detect_pkt_swap(Packet *p);

/* tx-inspect.c: transaction rules of every protocol */
void tx_sig_setup(DetectSig *ds);
/* firewall.c: the firewall's tables of the engine's firewall rules */
int fw_tables_build(DetectEngine *de);
void fw_tables_free(DetectEngine *de);
/* fw-analysis.c: --engine-analysis's firewall.json, one line into f */
int fw_analysis_write(const DetectEngine *de, FILE *f);
/* tx-inspect.c: firewall rule ds (an app hook's) on side d of tx */
int tx_sig_match_fw(DetectThread *dt, const DetectFlowState *fs, const DetectSig *ds,
		    Packet *p, void *tx, int d);
int tx_engine_build(DetectEngine *de, char *err, size_t errlen);
void tx_engine_free(DetectEngine *de);
int tx_thread_init(DetectThread *dt);
void tx_thread_free(DetectThread *dt);
/* ac-cuda: folds the response-body bytes that arrived since the last call
 * into each transaction's body match set (from the stream view where the
 * body is verbatim stream bytes). Before the stream entries are pruned. */
void tx_gpu_harvest(DetectThread *dt, Flow *f, DetectFlowState *fs);
/* Inspects f's transactions that progressed (all, when final) with p as the
 * packet, whatever f's protocol (app_layer_tx_*); queues alerts through
 * detect_sig_matched(). */
void tx_inspect_flow(DetectThread *dt, Packet *p, DetectFlowState *fs, int final);
/* ac-cuda, before p's detection (its app layer ran): fn(arg, tx, d, l,
 * idx, data, len) for each buffer entry the transaction passes of
 * tx_inspect_flow(p, final 0) would prefilter in a group of list l (the
 * same transactions and skip tests; files that may come, and transformed
 * groups, aside), without changing any state. fn returns nonzero: stop. */
typedef int (*TxBufFn)(void *arg, const void *tx, int d, int l, uint32_t idx,
		       const uint8_t *data, uint32_t len);
void tx_plan_buffers(const DetectEngine *de, Packet *p, TxBufFn fn, void *arg);
/* The transaction a packet or stream rule's alert on p names, as Suricata 8
 * gives one (detect.guess-applayer-tx; UDP rules of the flow's protocol):
 * 1 with *id, *guessed (eve "tx_guessed"), or 0. */
int tx_alert_guess(DetectThread *dt, const Packet *p, const Signature *s, uint64_t *id,
		   int *guessed);

/* state.c */
DetectFlowState *detect_flow_state(const DetectEngine *de, Flow *f, int create);
int flowbits_match(const DetectEngine *de, const DetectFlowbits *fb, Flow *f);
/* The names of the flowbits set on f (in id order, at most max): eve's
 * metadata.flowbits. */
/* var-kw.c: flow and packet variables from pcre captures. The pcre step
 * stages a match's captures (returns the mark to rewind to when the rest
 * of the rule fails); a matched rule commits them. */
#define VAR_STAGE_MAX 16
struct AlertVar;
struct DetectVarStage *detect_var_stage_new(void);
void detect_var_stage_free(struct DetectVarStage *vs);
int detect_var_stage(DetectThread *dt, const Signature *s, const DetectPcre *pd,
		     const uint8_t *data, const size_t *ov, int rc);
void detect_var_unstage(DetectThread *dt, int mark);
void detect_vars_commit(DetectThread *dt, const Signature *s, Packet *p);
unsigned detect_pktvars_get(const DetectThread *dt, struct AlertVar *out, unsigned max);
void detect_flowvars_free(struct DetectFlowVars *fv);
unsigned flowbits_set_names(const DetectEngine *de, const Flow *f, const char **out,
			    unsigned max);
void flowbits_apply(const DetectEngine *de, const DetectFlowbits *fb, Flow *f);
int flowint_match(const DetectEngine *de, const DetectFlowint *fi, Flow *f);
void flowint_apply(const DetectEngine *de, const DetectFlowint *fi, Flow *f);
/* file-kw.c: filestore after its rule matched on dt's current transaction */
void filestore_apply(DetectThread *dt, const void *ctx, Packet *p);
/* tls.store after a match (tls-kw.c): the flow's certificates to disk. */
void tls_store_apply(Packet *p);
void postmatch_apply(DetectThread *dt, const Signature *s, Packet *p);
int hostbits_match(DetectThread *dt, const DetectFlowbits *fb, const Packet *p);
/* Tables sized and capped by cfg's host.* and detect.thresholds.* (0:
 * Suricata 8's defaults); see state-hash.h for their defences. */
struct HostTable *host_table_new(const DetectConfig *cfg);
void host_table_free(struct HostTable *ht);
void host_table_clear(struct HostTable *ht);     /* every entry gone */

ThresholdTable *threshold_table_new(const DetectConfig *cfg);
void threshold_table_free(ThresholdTable *tt);
void threshold_table_clear(ThresholdTable *tt);  /* the counts, not the config */
/* Rule reload: tt counts in from's state from now on (both engines
 * share it until the old one is freed); tt keeps its own threshold.config. */
void threshold_table_share(ThresholdTable *tt, ThresholdTable *from);
/* threshold.config: returns 0, or -1 with "FILE:LINE: reason" in err. */
int threshold_config_load(DetectEngine *de, const char *path, char *err, size_t errlen);
/* What the thresholds make of one match (threshold_check). */
typedef struct ThrResult {
	int suppressed;     /* a suppress took the alert away */
	/* the rule's action applies even though it does not alert: a
	 * suppress, limit, both past its count, backoff past its first match
	 * (Suricata 8's thresholding notes) */
	int act;
	int new_action;     /* -1, or the ALERT_ACTION_* a rate_filter gives
	                     * the rule for this match (it then alerts unless
	                     * that action is pass) */
} ThrResult;

/* 1: alert, 0: suppressed / below threshold; *r says more. tc: the calling
 * thread's counters (host.memuse / host.memcap, see state.c), may be NULL. */
int threshold_check(DetectEngine *de, const DetectSig *ds, const Packet *p, ThrResult *r,
		    detect_order_fn order, void *order_arg, ThreadCounters *tc);
/* The bucket hashes of the two tables (keyed per process) and how many
 * entries they hold: for tests and diagnostics. */
uint32_t host_key_hash(const Address *a);
uint32_t threshold_key_hash(const Signature *s, int track, const Address *a, const Address *a2);
uint32_t host_table_count(const DetectEngine *de);
uint32_t threshold_table_count(const DetectEngine *de);
/* Registers host.memuse and host.memcap (both tables report there). */
void detect_state_register_counters(void);

/* app-event.c: rules with app-layer-event are transaction rules of the
 * event's protocol; tx is one of f's (app_layer_tx_get) */
int app_event_sig_has(const Signature *s);
/* keywords.c: whether s has a KWF_TX keyword (a transaction rule). */
int sig_has_tx_match(const Signature *s);
int app_event_tx_match(const Signature *s, const Flow *f, const void *tx);

/* stream-kw.c: stream_size and stream-event on a packet */
int stream_size_match(const DetectStreamSize *d, const Packet *p);
int stream_event_match(const DetectUint *u, const Packet *p);

/* tag.c */
int tag_sig_has_tag(const Signature *s);
struct TagTable *tag_table_new(void);
void tag_table_free(struct TagTable *tt);
void tag_table_clear(struct TagTable *tt);
void tag_flow_free(DetectFlowState *fs);
/* s alerted on p (after thresholds): installs its session / host tags. */
void tag_apply(DetectThread *dt, const Signature *s, Packet *p);
/* Counts p against the tags of its flow and hosts; 1 when p is tagged. */
int tag_handle_packet(DetectThread *dt, Packet *p);

#endif
