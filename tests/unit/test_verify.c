/* The device's rule verification (cuda/verify-kernel.h) against the CPU's
 * inspection (inspect_buffer) of the same payload list: an EXACT program
 * must answer what the CPU answers, a prefix program must answer 1 where
 * the CPU does. Over the rules below and, when ../shared is there, every
 * ET Open rule with a payload list, on random buffers and on buffers built
 * to satisfy the program (its contents planted where it looks for them,
 * case flipped where nocase allows). Then the same over mutated programs
 * (a flag or bound changed as a slip in the kernel would change it): each
 * mutation must be caught, or the differential proves nothing. The
 * transaction lists' programs (sticky buffers, bsize as the length range,
 * no program for a transformed list) are checked the same way. */
#include "test.h"
#include "detect-test-util.h"
#include "detect/engine-int.h"
#include "detect/detect-int.h"
#include "detect/verify-build.h"
#include "detect/transform.h"
#include "conf/conf.h"
#include "detect/prefilter-gpu.h"
#include "app-layer/app-layer.h"
#include "flow/flow.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>

/* Rules that take every step kind and modifier, for a run without ET. */
static const char *const own_rules =
	"alert tcp any any -> any any (content:\"abc\"; sid:1;)\n"
	"alert tcp any any -> any any (content:\"GET\"; depth:3; content:\"/x\"; distance:1; within:10; sid:2;)\n"
	"alert tcp any any -> any any (content:\"User-Agent|3a|\"; nocase; content:\"curl\"; nocase; distance:0; within:20; sid:3;)\n"
	"alert tcp any any -> any any (content:\"|00 01|\"; offset:2; depth:4; content:!\"zz\"; distance:0; sid:4;)\n"
	"alert tcp any any -> any any (content:\"<\"; content:\".length\"; distance:0; content:\"=\"; distance:0; within:4; sid:5;)\n"
	"alert tcp any any -> any any (content:\"ab\"; isdataat:4,relative; content:\"cd\"; distance:2; sid:6;)\n"
	"alert tcp any any -> any any (content:\"end\"; endswith; sid:7;)\n"
	"alert tcp any any -> any any (content:\"start\"; startswith; content:!\"no\"; sid:8;)\n"
	"alert tcp any any -> any any (content:\"q\"; isdataat:!10,relative; sid:9;)\n"
	"alert tcp any any -> any any (content:\"abc\"; pcre:\"/abc[0-9]+/R\"; sid:10;)\n"
	"alert tcp any any -> any any (content:\"k=\"; byte_test:1,>,0x30,0,relative; content:\"x\"; sid:11;)\n"
	"alert tcp any any -> any any (content:\"aa\"; content:\"aa\"; distance:-1; within:3; sid:12;)\n"
	"alert tcp any any -> any any (content:\"x\"; isdataat:50; content:!\"y\"; within:5; sid:13;)\n"
	"alert udp any any -> any any (dsize:<40; content:\"ab\"; depth:10; sid:14;)\n"
	"alert udp any any -> any any (dsize:20<>30; content:\"b\"; sid:15;)\n"
	"alert udp any any -> any any (dsize:!25; content:\"c\"; sid:16;)\n"
	"alert udp any any -> any any (dsize:>=100; content:\"x\"; sid:17;)\n";

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

/* A buffer that the program's contents are planted in, where each content
 * looks for them; its other bytes random from a small alphabet (so that
 * patterns recur and backtracking is exercised). */
static uint32_t build_buf(const struct acv_block *vb, const struct acv_prog *pg, uint8_t *buf,
			  uint32_t cap)
{
	uint32_t len = 16 + rnd() % 600, prev = 0;
	static const uint8_t alpha[] = "abcxyz<.=/ \x00\x01";

	/* a dsize range: its ends as often as its inside */
	if (!pg->dnot && pg->dlo <= pg->dhi && (pg->dlo > 0 || pg->dhi < 65535)) {
		uint32_t w = (uint32_t)pg->dhi - pg->dlo + 1;

		len = rnd() % 3 == 0 ? pg->dhi : rnd() % 3 == 0 ? pg->dlo : pg->dlo + rnd() % w;
		if (rnd() % 8 == 0)
			len += 1;
		if (len == 0)
			len = 1;
	}
	if (len > cap)
		len = cap;
	for (uint32_t i = 0; i < len; i++)
		buf[i] = alpha[rnd() % (sizeof(alpha) - 1)];
	for (uint32_t i = 0; i < pg->nsteps; i++) {
		const struct acv_step *st = &vb->step[pg->step + i];
		int64_t lo = 0, hi;
		uint32_t at;

		if (st->op != ACV_CONTENT || ((st->flags & ACV_NEGATED) && rnd() % 4))
			continue;
		if (st->flags & (ACV_DISTANCE | ACV_WITHIN)) {
			lo = (int64_t)prev + ((st->flags & ACV_DISTANCE) ? st->a : 0);
			hi = (st->flags & ACV_WITHIN) ? lo + st->b - st->len : lo + 40;
		} else {
			lo = (st->flags & ACV_OFFSET) ? st->a : 0;
			hi = (st->flags & ACV_DEPTH) ? st->b - st->len : lo + 40;
		}
		if (lo < 0)
			lo = 0;
		if (hi < lo)
			hi = lo;
		if (st->flags & ACV_ENDSWITH) {
			lo = hi = (int64_t)len - st->len;
			if (lo < 0)
				continue;
		}
		at = (uint32_t)(lo + rnd() % (uint32_t)(hi - lo + 1));
		if ((uint64_t)at + st->len > len)
			continue;
		for (uint32_t k = 0; k < st->len; k++) {
			uint8_t c = vb->bytes[st->pat + k];

			if ((st->flags & ACV_NOCASE) && isalpha(c) && rnd() % 2)
				c ^= 0x20;
			buf[at + k] = c;
		}
		prev = at + st->len;
	}
	/* sometimes cut: the bounds at the buffer's end */
	if (rnd() % 5 == 0 && len > 4)
		len -= rnd() % 4;
	return len;
}

/* The CPU's side of a program: list l, and for the payload list dsize (a
 * packet keyword the device takes into the program) through its own
 * match. A transaction list is inspected as list_matches inspects one
 * entry of its buffer (bsize inside the list). */
static int cpu_verdict(Env *e, const Signature *s, int l, const uint8_t *buf, uint32_t len)
{
	const SigMatchList *ml = &s->lists[SM_LIST_MATCH];
	InspectBuffer ib = { buf, len, IBUF_PACKET };
	Packet p;

	memset(&p, 0, sizeof(p));
	p.payload = buf;
	p.payload_len = (uint16_t)len;
	for (int i = 0; l == BUF_PAYLOAD && i < ml->n; i++)
		if (ml->m[i].kw == KW_DSIZE &&
		    !keyword_by_id_built(KW_DSIZE)->match(e->dt, &ml->m[i], &p))
			return 0;
	return inspect_buffer(e->dt, s, l, &ib);
}

typedef struct Diff {
	uint64_t runs, cpu_match, mismatches, exact_progs, prefix_progs;
	uint32_t first_sid;
} Diff;

/* Every program of the engine against the CPU on `per` buffers each.
 * mutate >= 0: each program's copy is changed first (see mutate_prog). */
typedef int (*mutate_fn)(struct acv_step *steps, struct acv_prog *pg);

/* One program: rule num's list l. */
typedef struct ProgRef {
	uint32_t num;
	int l, prog;
} ProgRef;

/* The programs of the payload lists (tx 0), or of every transaction list
 * the device could be given (tx 1: a rule's fast pattern list is one of
 * them; a transformed list gets none, which verify_build_prog says). */
static uint32_t build_progs(DetectEngine *de, VerifyBuild *vb, int tx, ProgRef *refs,
			    uint32_t cap, uint64_t *bad)
{
	uint32_t n = 0;

	for (uint32_t num = 0; num < de->nsigs; num++) {
		const Signature *s = de->sigs[num].s;
		int exact, oom;

		for (int l = tx ? BUF_PAYLOAD + 1 : BUF_PAYLOAD;
		     l < (tx ? BUF_HTTP_XINST0 : BUF_PAYLOAD + 1) && n < cap; l++) {
			int pr;

			if (!s->lists[l].n || (tx && !de->sigs[num].is_tx))
				continue;
			pr = verify_build_prog(vb, s, l, num, &exact, &oom);
			/* the device does not transform: no program */
			if (pr >= 0 && tx && sig_list_chain(s, l))
				(*bad)++;
			if (pr >= 0)
				refs[n++] = (ProgRef){ num, l, pr };
		}
	}
	return n;
}

static void run_diff(Env *e, uint32_t per, int tx, mutate_fn mutate, Diff *d)
{
	DetectEngine *de = e->de;
	VerifyBuild *vb = verify_build_new();
	uint32_t cap = 4 * de->nsigs + 16, nref;
	ProgRef *refs = calloc(cap, sizeof(*refs));
	static uint8_t buf[2048];
	struct acv_layout lay;
	struct acv_block blk;
	void *raw = NULL;
	size_t size;

	memset(d, 0, sizeof(*d));
	if (!vb || !refs)
		goto out;
	nref = build_progs(de, vb, tx, refs, cap, &d->mismatches);
	if (verify_build_finish(vb, 0, &raw, &size, &lay) != 0)
		goto out;
	acv_block_init(&blk, raw, &lay, NULL, NULL);
	for (uint32_t k = 0; k < nref; k++) {
		const Signature *s = de->sigs[refs[k].num].s;
		struct acv_block mb = blk;
		struct acv_prog pg, orig;
		struct acv_step steps[ACV_STEPS_MAX];

		pg = orig = blk.prog[refs[k].prog];
		memcpy(steps, blk.step + pg.step, pg.nsteps * sizeof(*steps));
		if (pg.exact)
			d->exact_progs++;
		else
			d->prefix_progs++;
		if (mutate && !mutate(steps, &pg))
			continue;
		mb.step = steps;
		pg.step = 0;
		for (uint32_t r = 0; r < per; r++) {
			uint32_t len;
			int cpu, dev;

			if (r % 4 == 0) {
				len = 1 + rnd() % 300;
				for (uint32_t i = 0; i < len; i++)
					buf[i] = (uint8_t)rnd();
			} else {
				/* from the program as built: a mutation must
				 * not shape its own test buffers */
				len = build_buf(&blk, &orig, buf, sizeof(buf));
			}
			cpu = cpu_verdict(e, s, refs[k].l, buf, len);
			dev = acv_eval(&mb, &pg, buf, len);
			d->runs++;
			d->cpu_match += cpu;
			if (pg.exact ? cpu != dev : (cpu && !dev)) {
				if (!d->mismatches)
					d->first_sid = s->sid;
				d->mismatches++;
			}
		}
	}
out:
	free(raw);
	free(refs);
	verify_build_free(vb);
}

/* ---- mutations: what a slip in the kernel or the builder would do ---- */

static int first_content(struct acv_step *st, const struct acv_prog *pg, uint16_t need)
{
	for (int i = 0; i < pg->nsteps; i++)
		if (st[i].op == ACV_CONTENT && (st[i].flags & need) == need)
			return i;
	return -1;
}

static int mut_nocase(struct acv_step *st, struct acv_prog *pg)
{
	int i = first_content(st, pg, ACV_NOCASE);

	if (i < 0)
		return 0;
	st[i].flags &= (uint16_t)~ACV_NOCASE;
	return 1;
}

static int mut_depth(struct acv_step *st, struct acv_prog *pg)
{
	int i = first_content(st, pg, ACV_DEPTH);

	if (i < 0)
		return 0;
	st[i].b -= 1;
	return 1;
}

static int mut_negation(struct acv_step *st, struct acv_prog *pg)
{
	int i = first_content(st, pg, ACV_NEGATED);

	if (i < 0)
		return 0;
	st[i].flags &= (uint16_t)~ACV_NEGATED;
	return 1;
}

static int mut_within(struct acv_step *st, struct acv_prog *pg)
{
	int i = first_content(st, pg, ACV_WITHIN);

	if (i < 0)
		return 0;
	st[i].b += 1;
	return 1;
}

static int mut_backtrack(struct acv_step *st, struct acv_prog *pg)
{
	for (int i = 0; i < pg->nsteps; i++)
		if (st[i].flags & ACV_REL_NEXT) {
			st[i].flags &= (uint16_t)~ACV_REL_NEXT;
			return 1;
		}
	return 0;
}

static int mut_isdataat(struct acv_step *st, struct acv_prog *pg)
{
	for (int i = 0; i < pg->nsteps; i++)
		if (st[i].op == ACV_ISDATAAT) {
			st[i].a += 1;
			return 1;
		}
	return 0;
}

static int mut_dsize(struct acv_step *st, struct acv_prog *pg)
{
	if (pg->dnot || pg->dlo > pg->dhi || (pg->dlo == 0 && pg->dhi == 65535) || !pg->dhi)
		return 0;
	pg->dhi -= 1;
	return 1;
}

static int mut_prefix_exact(struct acv_step *st, struct acv_prog *pg)
{
	/* a prefix program taken for the whole list */
	if (pg->exact)
		return 0;
	pg->exact = 1;
	return 1;
}

static const struct {
	const char *name;
	mutate_fn fn;
} mutations[] = {
	{ "nocase dropped", mut_nocase },
	{ "depth one short", mut_depth },
	{ "negation dropped", mut_negation },
	{ "within one long", mut_within },
	{ "no backtracking", mut_backtrack },
	{ "isdataat off by one", mut_isdataat },
	{ "dsize/bsize range one short", mut_dsize },
	{ "prefix taken as exact", mut_prefix_exact },
};

/* tx: the transaction lists' programs; some: a mutation no program of
 * the set can take (ET Open 4.0 has no bsize) is let pass, the own rules
 * take every one. */
static void check_rules(Env *e, uint32_t per, int tx, int some, const char *what)
{
	Diff d;

	run_diff(e, per, tx, NULL, &d);
	printf("  verify %s: %llu programs (%llu exact, %llu prefix), %llu runs, %llu CPU "
	       "matches, %llu mismatches\n", what,
	       (unsigned long long)(d.exact_progs + d.prefix_progs),
	       (unsigned long long)d.exact_progs, (unsigned long long)d.prefix_progs,
	       (unsigned long long)d.runs, (unsigned long long)d.cpu_match,
	       (unsigned long long)d.mismatches);
	if (d.mismatches)
		printf("  first mismatch: sid %u\n", d.first_sid);
	CHECK_EQ(d.mismatches, 0);
	CHECK(d.exact_progs > 0);
	/* the planted buffers must reach matches, or the runs prove little */
	CHECK(d.cpu_match * 20 > d.runs);
	for (size_t m = 0; m < sizeof(mutations) / sizeof(mutations[0]); m++) {
		run_diff(e, per, tx, mutations[m].fn, &d);
		printf("  verify %s, mutation '%s': %llu mismatches in %llu runs\n", what,
		       mutations[m].name, (unsigned long long)d.mismatches,
		       (unsigned long long)d.runs);
		CHECK(d.mismatches > 0 || (some && d.runs == 0));
	}
}

TEST(verify_equals_cpu_on_own_rules)
{
	Env e;

	CHECK_EQ(env_init_max(&e, own_rules, MPM_AC, 64), 0);
	check_rules(&e, 4000, 0, 0, "own rules");
	env_free(&e);
}

/* Transaction lists: the same step kinds in sticky buffers, bsize (the
 * buffer's length, wherever it stands in the list) as the length range,
 * and a transformed list, which gets no program. */
static const char *const own_tx_rules =
	"alert http any any -> any any (http.uri; content:\"/x\"; depth:2; content:\".php\"; distance:0; within:20; sid:1;)\n"
	"alert http any any -> any any (http.user_agent; content:\"curl\"; nocase; content:!\"bot\"; distance:0; sid:2;)\n"
	"alert http any any -> any any (http.header; content:\"ab\"; isdataat:4,relative; content:\"cd\"; distance:2; sid:3;)\n"
	"alert http any any -> any any (http.host; content:\"q\"; bsize:<20; content:\"z\"; distance:0; sid:4;)\n"
	"alert http any any -> any any (http.uri; bsize:10<>40; content:\"aa\"; content:\"aa\"; distance:-1; within:3; sid:5;)\n"
	"alert http any any -> any any (http.uri; content:\"abc\"; pcre:\"/abc[0-9]+/R\"; sid:6;)\n"
	"alert http any any -> any any (http.method; content:\"GET\"; endswith; sid:7;)\n"
	"alert http any any -> any any (http.uri; to_lowercase; content:\"/abc\"; sid:8;)\n"
	"alert dns any any -> any any (dns.query; content:\"evil\"; nocase; bsize:>=8; sid:9;)\n"
	"alert http any any -> any any (http.cookie; content:\"q\"; isdataat:!10,relative; sid:10;)\n"
	"alert http any any -> any any (http.uri; content:\"x\"; isdataat:50; content:!\"y\"; within:5; sid:11;)\n";

TEST(verify_equals_cpu_on_own_transaction_rules)
{
	Env e;

	CHECK_EQ(env_init_max(&e, own_tx_rules, MPM_AC, 64), 0);
	check_rules(&e, 4000, 1, 0, "own transaction rules");
	env_free(&e);
}

/* Every ET Open rule with a payload list (a few hundred buffers each). */
static char *read_et_rules(void)
{
	char dir[1024], path[1400];
	struct dirent *ent;
	char *all = NULL;
	size_t n = 0;
	DIR *dp;

#ifdef SURICATA_TOP_SRCDIR
	snprintf(dir, sizeof(dir), "%s/../shared/data/rules/et-open-4.0", SURICATA_TOP_SRCDIR);
#else
	snprintf(dir, sizeof(dir), "../shared/data/rules/et-open-4.0");
#endif
	if (!(dp = opendir(dir)))
		return NULL;
	while ((ent = readdir(dp))) {
		FILE *f;
		long sz;
		char *m;

		if (strncmp(ent->d_name, "emerging-", 9) || !strstr(ent->d_name, ".rules"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, ent->d_name);
		if (!(f = fopen(path, "rb")))
			continue;
		fseek(f, 0, SEEK_END);
		sz = ftell(f);
		rewind(f);
		m = realloc(all, n + (size_t)sz + 2);
		if (!m) {
			fclose(f);
			break;
		}
		all = m;
		n += fread(all + n, 1, (size_t)sz, f);
		all[n++] = '\n';
		all[n] = 0;
		fclose(f);
	}
	closedir(dp);
	return all;
}

TEST(verify_equals_cpu_on_et_open)
{
	char *rules = read_et_rules();
	Env e;

	char err[256] = "";

	if (!rules) {
		printf("  SKIP: no ET Open rules under ../shared/data/rules/et-open-4.0\n");
		return;
	}
	/* the rules' address and port variables: the shipped yaml's */
	CHECK_EQ(conf_load_file(test_data_path("../suricata.yaml"), err, sizeof(err)), 0);
	CHECK_EQ(env_init_max(&e, rules, MPM_AC, 64), 0);
	free(rules);
	printf("  ET Open: %u rules loaded\n", e.de->nsigs);
	CHECK(e.de->nsigs > 10000);
	check_rules(&e, 48, 0, 0, "ET Open");
	/* the transaction lists' programs (what the device runs on
	 * transaction buffers), bsize as their length range */
	check_rules(&e, 48, 1, 1, "ET Open transaction lists");
	env_free(&e);
}

/* ---- transaction buffers on the device: queue and use ---- */

/* An ac-cuda engine (emulated device) of rules and its GPU; a buffer
 * shorter than min_limit is left to the CPU. */
static int gpu_tx_env(Env *e, const char *rules, uint64_t min_limit, DetectGpu **g)
{
	RuleLoadConfig rc = { .quiet = 1 };
	DetectConfig dc = { .algo = MPM_AC_CUDA, .alert_max = 15 };
	CudaMpmConfig c;
	AcCudaOpts o;
	char err[512] = "";

	memset(e, 0, sizeof(*e));
	detect_register_counters();
	detect_inspect_counters_register();
	detect_gpu_register_counters();
	app_layer_register_counters();
	cuda_mpm_config_defaults(&c);
	c.cudabuffer_buffer_size = 1 << 20;
	c.gpu_transfer_size = 1 << 18;
	c.batching_timeout_us = 1000;
	c.data_buffer_size_min_limit = min_limit;
	e->t = sig_table_new();
	if (sig_load_string(e->t, rules, "gpu.rules", &rc, err, sizeof(err)) != 0)
		return -1;
	e->de = detect_engine_build(e->t, &dc, err, sizeof(err));
	if (!e->de)
		return -1;
	ac_cuda_opts_defaults(&o, &c);
	o.tx_buffers = 1;   /* off by default: cuda.mpm.test-opts tx=1 */
	*g = detect_gpu_new(e->de, &c, &o, accuda_emu_ops(), err, sizeof(err));
	if (!*g) {
		fprintf(stderr, "gpu: %s\n", err);
		return -1;
	}
	e->tc = thread_counters_new();
	e->dt = detect_thread_new(e->de, e->tc);
	return e->dt ? 0 : -1;
}

static void gpu_tx_env_free(Env *e, DetectGpu *g)
{
	detect_thread_free(e->dt);
	detect_gpu_free(g);
	detect_engine_free(e->de);
	sig_table_free(e->t);
}

static uint64_t ctr(const Env *e, const char *name)
{
	int id = counter_lookup(name);

	return id < 0 ? 0 : counter_get(e->tc, (counter_id)id);
}

typedef struct TxRun {
	uint32_t queued;     /* transaction buffers the packet queued */
	int alerted;         /* sid 1 */
	uint64_t inspected;  /* detect.inspect.tx */
	uint64_t dev, passed, cpu_scan;
} TxRun;

/* One HTTP request on a flow of its own, through the window's steps:
 * submit, the transaction queue, the cut, then detection with the ticket. */
static int tx_run(Env *e, DetectGpu *g, const char *req, TxRun *r)
{
	uint64_t insp0 = ctr(e, "detect.inspect.tx"), dev0 = ctr(e, "mpm.cuda.verify.tx_device");
	uint64_t pass0 = ctr(e, "mpm.cuda.verify.tx_passed");
	uint64_t cpu0 = ctr(e, "mpm.cuda.scan.http_cpu");
	AppLayerThread *at;
	DetectGpuFeed *f;
	DetectGpuTicket gt;
	const DetectAlert *a;
	AppLayerConfig cfg;
	char err[256];
	Flow fl;
	Packet p;
	uint32_t n, len = (uint32_t)strlen(req);

	memset(r, 0, sizeof(*r));
	memset(&cfg, 0, sizeof(cfg));
	app_layer_config_load(&cfg);
	at = app_layer_thread_new(&cfg, e->tc);
	memset(&fl, 0, sizeof(fl));
	fl.proto = IPPROTO_TCP;
	fl.ip_version = 4;
	fl.src.family = fl.dst.family = AF_INET;
	fl.src.a.u32[0] = htonl(0x0a000001);
	fl.dst.a.u32[0] = htonl(0x0a000002);
	fl.sp = 40000;
	fl.dp = 80;
	if (!at || !(f = detect_gpu_feed_new(g, 1, err, sizeof(err))))
		return -1;
	app_layer_handle_data(at, &fl, APP_DIR_TOSERVER, (const uint8_t *)req, len, 0);
	test_tcp4(&p, 0x0a000001, 0x0a000002, 80, req, len);
	p.flow = &fl;
	p.flags |= PKT_HAS_FLOW | PKT_TOSERVER;
	memset(&gt, 0, sizeof(gt));
	detect_gpu_submit(f, &p, &gt);
	detect_gpu_tx_queue(e->dt, f, &p, &gt);
	r->queued = gt.ntx;
	detect_gpu_flush(f);
	detect_gpu_begin(e->dt, &gt);
	n = detect_packet(e->dt, &p, &a);
	for (uint32_t i = 0; i < n; i++)
		r->alerted |= a[i].s->sid == 1;
	detect_gpu_end(e->dt, &gt);
	r->inspected = ctr(e, "detect.inspect.tx") - insp0;
	r->dev = ctr(e, "mpm.cuda.verify.tx_device") - dev0;
	r->passed = ctr(e, "mpm.cuda.verify.tx_passed") - pass0;
	r->cpu_scan = ctr(e, "mpm.cuda.scan.http_cpu") - cpu0;
	detect_flow_free(&fl);
	app_layer_flow_free(&fl);
	app_layer_thread_free(at);
	detect_gpu_feed_free(f);
	return 0;
}

static const char tx_rules[] =
	"alert http any any -> any any (http.uri; content:\"/abc\"; content:\"zz\"; distance:0; sid:1;)\n"
	"alert http any any -> any any (http.uri; content:\"/none-such\"; sid:2;)\n";

/* The device scans the request's uri and runs sid 1's program: a uri
 * where the program holds is inspected (and alerts), one where it does not
 * is not inspected at all, and nothing of the uri is scanned on the CPU. */
TEST(tx_buffer_verified_on_the_device_decides_the_candidate)
{
	Env e;
	DetectGpu *g;
	TxRun r;

	CHECK_EQ(gpu_tx_env(&e, tx_rules, 0, &g), 0);
	CHECK(detect_gpu_tx_auto(g, 0, BUF_HTTP_URI) >= 0);
	CHECK_EQ(e.de->sigs[0].gpu_txv & 1, 1);
	CHECK_EQ(tx_run(&e, g, "GET /abc/zz HTTP/1.1\r\nHost: a\r\n\r\n", &r), 0);
	CHECK(r.queued >= 1);
	CHECK_EQ(r.alerted, 1);
	CHECK_EQ(r.inspected, 1);
	CHECK_EQ(r.dev, 1);
	CHECK_EQ(r.passed, 1);
	CHECK_EQ(r.cpu_scan, 0);
	CHECK_EQ(tx_run(&e, g, "GET /abc/yy HTTP/1.1\r\nHost: a\r\n\r\n", &r), 0);
	CHECK(r.queued >= 1);
	CHECK_EQ(r.alerted, 0);
	CHECK_EQ(r.inspected, 0);
	CHECK_EQ(r.dev, 1);
	CHECK_EQ(r.passed, 0);
	CHECK_EQ(r.cpu_scan, 0);
	gpu_tx_env_free(&e, g);
}

/* A buffer the lane refuses (below data-buffer-size-min-limit) is scanned
 * on the CPU, its candidates unverified: inspected, as without a device. */
TEST(tx_buffer_refused_by_the_lane_is_scanned_on_the_cpu)
{
	Env e;
	DetectGpu *g;
	TxRun r;

	CHECK_EQ(gpu_tx_env(&e, tx_rules, 64, &g), 0);
	CHECK_EQ(tx_run(&e, g, "GET /abc/yy HTTP/1.1\r\nHost: a\r\n\r\n", &r), 0);
	CHECK_EQ(r.queued, 0);
	CHECK_EQ(r.alerted, 0);
	CHECK_EQ(r.inspected, 1);
	CHECK_EQ(r.dev, 0);
	CHECK(r.cpu_scan > 0);
	CHECK_EQ(tx_run(&e, g, "GET /abc/zz HTTP/1.1\r\nHost: a\r\n\r\n", &r), 0);
	CHECK_EQ(r.alerted, 1);
	gpu_tx_env_free(&e, g);
}
