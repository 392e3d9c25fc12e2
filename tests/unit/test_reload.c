/* Rule reload: the next engine beside the running one (stable variable ids,
 * flow state rebased, cross-flow state handed on) and the reloader's swap
 * with worker threads picking the new engine up between "packets". */
#include "test.h"

#include "detect/engine.h"
#include "detect/engine-int.h"
#include "detect/detect-parse.h"
#include "detect-test-util.h"
#include "runmode/reload.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void mk_tcp(Packet *p, Flow *f, const char *payload)
{
	test_tcp4(p, 0x0a000001, 0x0a000002, 80, payload, strlen(payload));
	p->ts.tv_sec = 1000;
	if (f) {
		p->flow = f;
		p->flags |= PKT_HAS_FLOW | PKT_TOSERVER;
	}
}

static int alerted(DetectThread *dt, Packet *p, uint32_t sid)
{
	const DetectAlert *a;
	uint32_t n = detect_packet(dt, p, &a);

	for (uint32_t i = 0; i < n; i++)
		if (a[i].s->sid == sid)
			return 1;
	return 0;
}

/* The next engine of e (rules), as a reload builds it. */
static int next_engine(Env *next, const Env *prev, const char *rules)
{
	RuleLoadConfig rc = { .quiet = 1 };
	DetectConfig dc = { .algo = MPM_AC, .alert_max = 15 };
	char err[512] = "";

	memset(next, 0, sizeof(*next));
	next->t = sig_table_new();
	if (sig_load_string(next->t, rules, "next.rules", &rc, err, sizeof(err)) != 0)
		return -1;
	next->de = detect_engine_build_next(next->t, &dc, prev->de, err, sizeof(err));
	if (!next->de)
		return -1;
	detect_engine_adopt(next->de, prev->de);
	next->tc = prev->tc;
	next->dt = detect_thread_new(next->de, next->tc);
	return next->dt ? 0 : -1;
}

TEST(reload_keeps_flowbit_ids_and_the_flows_bits)
{
	Env a, b;
	Packet p;
	Flow f;

	CHECK(env_init_max(&a,
		"alert tcp any any -> any any (content:\"one\"; flowbits:set,x; flowbits:noalert; sid:1;)\n"
		"alert tcp any any -> any any (content:\"two\"; flowbits:set,y; flowbits:noalert; sid:2;)\n",
		MPM_AC, 15) == 0);
	memset(&f, 0, sizeof(f));
	mk_tcp(&p, &f, "two");
	CHECK_EQ(alerted(a.dt, &p, 2), 0);
	CHECK(next_engine(&b, &a,
		"alert tcp any any -> any any (content:\"three\"; flowbits:set,z; flowbits:noalert; sid:3;)\n"
		"alert tcp any any -> any any (content:\"check\"; flowbits:isset,y; sid:4;)\n") == 0);
	/* y keeps its id; z comes after the old names */
	CHECK_EQ(b.de->nfb, 3);
	CHECK_STREQ(b.de->fb_names[1], "y");
	CHECK_STREQ(b.de->fb_names[2], "z");
	/* the flow's bit set by the old engine is read by the new one's rule */
	mk_tcp(&p, &f, "check");
	CHECK_EQ(alerted(b.dt, &p, 4), 1);
	/* and the state grew to the new engine's names */
	CHECK_EQ(((DetectFlowState *)f.detect)->nfb, 3);
	CHECK_EQ(((DetectFlowState *)f.detect)->gen, detect_engine_gen(b.de));
	mk_tcp(&p, &f, "three");
	alerted(b.dt, &p, 3);
	mk_tcp(&p, &f, "check");
	CHECK_EQ(alerted(b.dt, &p, 4), 1);
	detect_flow_free(&f);
	detect_thread_free(b.dt);
	detect_engine_free(b.de);
	sig_table_free(b.t);
	env_free(&a);
}

TEST(reload_generations_differ)
{
	Env a, b;

	CHECK(env_init_max(&a, "alert tcp any any -> any any (content:\"x\"; sid:1;)", MPM_AC, 15) == 0);
	CHECK(next_engine(&b, &a, "alert tcp any any -> any any (content:\"x\"; sid:1;)") == 0);
	CHECK(detect_engine_gen(a.de) != 0);
	CHECK(detect_engine_gen(b.de) > detect_engine_gen(a.de));
	detect_thread_free(b.dt);
	detect_engine_free(b.de);
	sig_table_free(b.t);
	env_free(&a);
}

TEST(reload_carries_threshold_counts_over)
{
	Env a, b;
	Packet p;
	static const char rule[] = "alert tcp any any -> any any (content:\"x\"; threshold:type limit, "
				   "track by_src, count 1, seconds 60; sid:5;)";

	CHECK(env_init_max(&a, rule, MPM_AC, 15) == 0);
	mk_tcp(&p, NULL, "x");
	CHECK_EQ(alerted(a.dt, &p, 5), 1);
	CHECK(next_engine(&b, &a, rule) == 0);
	/* the limit was reached under the old engine: the new one knows */
	mk_tcp(&p, NULL, "x");
	CHECK_EQ(alerted(b.dt, &p, 5), 0);
	/* the old engine freed first, as a reload does: the state is the new one's */
	detect_thread_free(a.dt);
	detect_engine_free(a.de);
	sig_table_free(a.t);
	mk_tcp(&p, NULL, "x");
	CHECK_EQ(alerted(b.dt, &p, 5), 0);
	p.ts.tv_sec = 1100;
	CHECK_EQ(alerted(b.dt, &p, 5), 1);
	/* the rule changed (its rev): counted anew, as Suricata keys on rev */
	CHECK(next_engine(&a, &b, "alert tcp any any -> any any (content:\"x\"; threshold:type limit, "
				  "track by_src, count 1, seconds 60; sid:5; rev:2;)") == 0);
	mk_tcp(&p, NULL, "x");
	p.ts.tv_sec = 1101;
	CHECK_EQ(alerted(a.dt, &p, 5), 1);
	CHECK_EQ(alerted(a.dt, &p, 5), 0);
	detect_thread_free(b.dt);
	detect_engine_free(b.de);
	sig_table_free(b.t);
	detect_thread_free(a.dt);
	detect_engine_free(a.de);
	sig_table_free(a.t);
}

/* ---- the reloader ---- */

typedef struct FakeWorker {
	Reloader *r;
	ThreadCounters *tc;
	_Atomic int stop;
	_Atomic uint32_t gen_seen;     /* engine generation of its DetectThread */
	_Atomic uint64_t packets;
	int failed;
} FakeWorker;

static void *fake_worker(void *arg)
{
	FakeWorker *w = arg;
	const DetectEngine *de;
	uint64_t gen;
	ReloadSlot *s = reload_join(w->r, w->tc, NULL, NULL, &de, &gen);
	DetectThread *dt;
	Flow f;

	if (!s) {
		w->failed = 1;
		return NULL;
	}
	dt = detect_thread_new(de, w->tc);
	memset(&f, 0, sizeof(f));
	while (!atomic_load(&w->stop)) {
		Packet p;

		if (reload_pending(w->r, gen))
			dt = reload_pickup(w->r, s, dt, &gen);
		atomic_store(&w->gen_seen, detect_engine_gen(detect_thread_engine(dt)));
		mk_tcp(&p, &f, "ab");
		alerted(dt, &p, 1);
		atomic_fetch_add(&w->packets, 1);
		usleep(200);
	}
	/* the flow state first: it may point into the engine (none here) */
	detect_flow_free(&f);
	reload_leave(w->r, s, &dt, &gen);
	if (dt)
		w->failed = 1;   /* leaving frees it */
	return NULL;
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

TEST(reloader_swaps_under_running_workers_and_keeps_the_engine_on_failure)
{
	char path[64], msg[256];
	Env e;
	ReloadSetup su = { 0 };
	Reloader *r;
	FakeWorker w[2];
	pthread_t th[2];
	ReloadInfo ri;
	uint32_t g0;

	snprintf(path, sizeof(path), "/tmp/reload-test-%d.rules", (int)getpid());
	CHECK(write_file(path, "alert tcp any any -> any any (content:\"a\"; sid:1;)\n") == 0);
	CHECK(env_init_max(&e, "alert tcp any any -> any any (content:\"a\"; sid:1;)", MPM_AC, 15) == 0);
	detect_thread_free(e.dt);
	su.enabled = 1;
	su.rules_exclusive = path;
	su.dc.algo = MPM_AC;
	su.dc.alert_max = 15;
	g0 = detect_engine_gen(e.de);
	r = reloader_new(&su, e.t, e.de, NULL, NULL, 4);
	CHECK(r != NULL);
	CHECK(reloader_start(r) == 0);
	for (int i = 0; i < 2; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].r = r;
		w[i].tc = e.tc;
		pthread_create(&th[i], NULL, fake_worker, &w[i]);
	}
	while (atomic_load(&w[0].packets) < 10 || atomic_load(&w[1].packets) < 10)
		usleep(1000);
	/* a blocking reload returns once every worker runs the new engine */
	CHECK(write_file(path, "alert tcp any any -> any any (content:\"b\"; sid:2;)\n"
			       "alert tcp any any -> any any (content:\"a\"; sid:1;)\n") == 0);
	CHECK_EQ(reloader_request(r, 1, msg, sizeof(msg)), 1);
	CHECK_STREQ(msg, "done");
	for (int i = 0; i < 2; i++)
		CHECK(atomic_load(&w[i].gen_seen) > g0);
	reloader_info(r, &ri);
	CHECK_EQ(ri.loaded, 2);
	CHECK_EQ(ri.reloads, 1);
	CHECK_EQ(ri.generation, 2);
	/* a rule file that cannot be read: the running engine stays */
	unlink(path);
	CHECK_EQ(reloader_request(r, 1, msg, sizeof(msg)), 0);
	CHECK(strstr(msg, "cannot read") != NULL);
	reloader_info(r, &ri);
	CHECK_EQ(ri.loaded, 2);
	CHECK_EQ(ri.reloads_failed, 1);
	CHECK_EQ(ri.generation, 2);
	/* no rule loaded, some failed: a failure too */
	CHECK(write_file(path, "alert tcp any any -> any any (content:; sid:3;)\n") == 0);
	CHECK_EQ(reloader_request(r, 1, msg, sizeof(msg)), 0);
	CHECK(strstr(msg, "no rule loaded") != NULL);
	/* an empty rule file (comments only): 0 rules would replace 2 */
	CHECK(write_file(path, "# emptied by an update cut short\n") == 0);
	CHECK_EQ(reloader_request(r, 1, msg, sizeof(msg)), 0);
	CHECK(strstr(msg, "no rule loaded from 1 rule file") != NULL);
	reloader_info(r, &ri);
	CHECK_EQ(ri.loaded, 2);
	CHECK_EQ(ri.generation, 2);
	/* a worker leaves while another reload runs: nobody waits for it */
	CHECK(write_file(path, "alert tcp any any -> any any (content:\"a\"; sid:1;)\n") == 0);
	atomic_store(&w[1].stop, 1);
	CHECK_EQ(reloader_request(r, 1, msg, sizeof(msg)), 1);
	pthread_join(th[1], NULL);
	reloader_info(r, &ri);
	CHECK_EQ(ri.generation, 3);
	CHECK(atomic_load(&w[0].gen_seen) > g0);
	atomic_store(&w[0].stop, 1);
	pthread_join(th[0], NULL);
	CHECK(!w[0].failed && !w[1].failed);
	/* the reloader owns the engines (e.t, e.de: the first, freed already) */
	reloader_free(r);
	unlink(path);
}

/* ---- ac-cuda: tickets tagged with their automata ---- */

#include "detect/prefilter-gpu.h"
#include "conf/cuda-mpm-conf.h"

static void mk_udp(Packet *p, const char *payload)
{
	static uint8_t l4[8];

	memset(p, 0, sizeof(*p));
	p->ip_version = 4;
	p->proto = IPPROTO_UDP;
	p->src.family = p->dst.family = AF_INET;
	p->src.a.u32[0] = htonl(0x0a000001);
	p->dst.a.u32[0] = htonl(0x0a000002);
	p->sp = 40000;
	p->dp = 53;
	p->l4 = l4;
	p->ttl = 64;
	p->payload = (const uint8_t *)payload;
	p->payload_len = (uint16_t)strlen(payload);
	p->pcap_cnt = 1;
}

/* An ac-cuda engine (emulated device) of rules, its GPU, one thread. */
static int gpu_env(Env *e, const Env *prev, const char *rules, DetectGpu **g)
{
	RuleLoadConfig rc = { .quiet = 1 };
	DetectConfig dc = { .algo = MPM_AC_CUDA, .alert_max = 15 };
	CudaMpmConfig c;
	char err[512] = "";

	memset(e, 0, sizeof(*e));
	detect_register_counters();
	cuda_mpm_config_defaults(&c);
	c.cudabuffer_buffer_size = 1 << 20;
	c.gpu_transfer_size = 1 << 18;
	c.batching_timeout_us = 1000;
	e->t = sig_table_new();
	if (sig_load_string(e->t, rules, "gpu.rules", &rc, err, sizeof(err)) != 0)
		return -1;
	e->de = detect_engine_build_next(e->t, &dc, prev ? prev->de : NULL, err, sizeof(err));
	if (!e->de)
		return -1;
	*g = detect_gpu_new(e->de, &c, NULL, accuda_emu_ops(), err, sizeof(err));
	if (!*g) {
		fprintf(stderr, "gpu: %s\n", err);
		return -1;
	}
	e->tc = thread_counters_new();
	e->dt = detect_thread_new(e->de, e->tc);
	return e->dt ? 0 : -1;
}

static int gpu_alerted(DetectThread *dt, DetectGpuTicket *gt, Packet *p, uint32_t sid)
{
	int r;

	detect_gpu_begin(dt, gt);
	r = alerted(dt, p, sid);
	detect_gpu_end(dt, gt);
	return r;
}

TEST(reload_gpu_ticket_of_the_old_automata_is_scanned_on_the_cpu_by_the_new_engine)
{
	Env a, b;
	DetectGpu *ga, *gb;
	DetectGpuFeed *fa, *fb;
	DetectGpuTicket gt;
	Packet p;
	char err[256] = "";

	CHECK(gpu_env(&a, NULL, "alert udp any any -> any any (content:\"alpha\"; sid:1;)", &ga) == 0);
	/* the new engine's patterns differ: "alpha" is pattern 0 of the old
	 * automata, 1 of the new ones ("aaaa" sorts first) */
	CHECK(gpu_env(&b, &a, "alert udp any any -> any any (content:\"aaaa\"; sid:3;)\n"
			      "alert udp any any -> any any (content:\"alpha\"; sid:2;)", &gb) == 0);
	/* a thread's feed of each engine's GPU (a reload drains one, opens the
	 * other); here one thread holds both to hand the old ticket over */
	fa = detect_gpu_feed_new(ga, 1, err, sizeof(err));
	fb = detect_gpu_feed_new(gb, 1, err, sizeof(err));
	CHECK(fa != NULL && fb != NULL);
	CHECK(detect_gpu_feed_gpu(fa) == ga && detect_gpu_feed_gpu(fb) == gb);
	/* queued for the old automata, inspected by the old engine: its matches */
	mk_udp(&p, "xx alpha xx");
	memset(&gt, 0, sizeof(gt));
	CHECK_EQ(detect_gpu_submit(fa, &p, &gt), 1);
	detect_gpu_flush(fa);
	CHECK_EQ(gpu_alerted(a.dt, &gt, &p, 1), 1);
	CHECK_EQ(detect_gpu_drained(ga), 0);
	/* queued for the old automata, inspected by the new engine: on the CPU,
	 * with the new engine's patterns */
	mk_udp(&p, "xx alpha xx");
	CHECK_EQ(detect_gpu_submit(fa, &p, &gt), 1);
	CHECK_EQ(detect_gpu_outstanding(ga), 1);
	detect_gpu_flush(fa);
	CHECK_EQ(gpu_alerted(b.dt, &gt, &p, 2), 1);
	CHECK_EQ(detect_gpu_drained(ga), 1);
	CHECK_EQ(detect_gpu_outstanding(ga), 0);   /* the old GPU may go now */
	/* the new engine's own tickets: its matches again, nothing drained */
	mk_udp(&p, "aaaa");
	CHECK_EQ(detect_gpu_submit(fb, &p, &gt), 1);
	detect_gpu_flush(fb);
	CHECK_EQ(gpu_alerted(b.dt, &gt, &p, 3), 1);
	CHECK_EQ(detect_gpu_drained(gb), 0);
	detect_gpu_feed_free(fa);
	detect_gpu_feed_free(fb);
	detect_thread_free(a.dt);
	detect_gpu_free(ga);
	detect_engine_free(a.de);
	sig_table_free(a.t);
	detect_thread_free(b.dt);
	detect_gpu_free(gb);
	detect_engine_free(b.de);
	sig_table_free(b.t);
}
