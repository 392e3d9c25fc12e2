/* Runmode pieces that need no capture: Suricata's thread names, and
 * autofp's capture-order wait (runmode/order.h). Every check here holds
 * whatever the scheduling: a thread's name is read while the thread waits
 * on a barrier, and a wait that must not have ended yet is checked only in
 * the direction a bug would break. */
#define _GNU_SOURCE
#include "test.h"

#include "runmode/runmode-int.h"
#include "runmode/order.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

TEST(thread_names_as_suricata_names_them)
{
	char b[16];

	thread_name_format(b, "W", 1);
	CHECK_STREQ(b, "W#01");
	thread_name_format(b, "RX", 1);
	CHECK_STREQ(b, "RX#01");
	thread_name_format(b, "W", 12);
	CHECK_STREQ(b, "W#12");
	thread_name_format(b, "CS", 0);
	CHECK_STREQ(b, "CS");
	/* the kernel keeps 15 characters */
	thread_name_format(b, "ABCDEFGHIJKLMN", 99);
	CHECK_EQ(strlen(b), 15);
}

typedef struct Named {
	pthread_barrier_t named, read;
	const char *role;
	unsigned idx;
	pid_t tid;
} Named;

static void *named_main(void *arg)
{
	Named *n = arg;

	thread_name_set(n->role, n->idx);
	n->tid = (pid_t)syscall(SYS_gettid);
	pthread_barrier_wait(&n->named);
	pthread_barrier_wait(&n->read);
	return NULL;
}

/* What ps and top show: /proc/self/task/TID/comm of a live thread. */
static int comm_of(pid_t tid, char *buf, size_t len)
{
	char path[64];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = 0;
	return 0;
}

static void check_named(const char *role, unsigned idx, const char *want, int *ok)
{
	Named n = { .role = role, .idx = idx };
	pthread_t t;
	char comm[32] = "";

	*ok = 0;
	pthread_barrier_init(&n.named, NULL, 2);
	pthread_barrier_init(&n.read, NULL, 2);
	if (pthread_create(&t, NULL, named_main, &n) != 0)
		return;
	pthread_barrier_wait(&n.named);
	*ok = comm_of(n.tid, comm, sizeof(comm)) == 0 && strcmp(comm, want) == 0;
	if (!*ok)
		fprintf(stderr, "thread comm '%s', want '%s'\n", comm, want);
	pthread_barrier_wait(&n.read);
	pthread_join(t, NULL);
	pthread_barrier_destroy(&n.named);
	pthread_barrier_destroy(&n.read);
}

TEST(named_threads_show_in_proc_task_comm)
{
	int ok;

	check_named("W", 1, "W#01", &ok);
	CHECK(ok);
	check_named("W", 2, "W#02", &ok);
	CHECK(ok);
	check_named("CS", 0, "CS", &ok);
	CHECK(ok);
}

/* Until another thread sleeps in o: an ordering of the test's steps, not
 * a time limit (it ends as soon as that thread gets to run). */
static void wait_for_sleeper(OrderTrack *o)
{
	while (atomic_load(&o->sleepers) == 0)
		sched_yield();
}

typedef struct Waiter {
	OrderTrack *o;
	Packet p;
	atomic_int returned;
} Waiter;

static void *waiter_main(void *arg)
{
	Waiter *w = arg;

	order_wait(w->o, &w->p);
	atomic_store(&w->returned, 1);
	return NULL;
}

TEST(order_wait_ends_when_earlier_packets_are_done)
{
	OrderTrack o;
	Waiter w;
	pthread_t t;

	memset(&o, 0, sizeof(o));
	CHECK(order_init(&o, 16) == 0);
	memset(&w, 0, sizeof(w));
	w.o = &o;
	w.p.order_seq = 3;
	for (int i = 0; i < 3; i++)
		CHECK_EQ(order_next(&o, NULL, NULL), i + 1);
	CHECK(pthread_create(&t, NULL, waiter_main, &w) == 0);
	wait_for_sleeper(&o);            /* the waiter sleeps: no spin */
	order_done(&o, 2);               /* 1 is not done: the watermark stays */
	CHECK_EQ(atomic_load(&w.returned), 0);
	order_done(&o, 1);               /* 1 and 2 done: packet 3 may go */
	pthread_join(t, NULL);
	CHECK_EQ(atomic_load(&w.returned), 1);
	CHECK_EQ(atomic_load(&o.sleeps), 1);
	CHECK_EQ(atomic_load(&o.watermark), 3);
	CHECK_EQ(atomic_load(&o.valve_trips), 0);
	order_free(&o);
}

TEST(order_wait_ready_packet_does_not_sleep)
{
	OrderTrack o;
	Packet p;

	memset(&o, 0, sizeof(o));
	CHECK(order_init(&o, 16) == 0);
	memset(&p, 0, sizeof(p));
	p.order_seq = 1;                 /* the oldest packet never waits */
	order_wait(&o, &p);
	p.order_seq = 0;                 /* not dispatched by autofp */
	order_wait(&o, &p);
	CHECK_EQ(atomic_load(&o.sleeps), 0);
	order_free(&o);
}

TEST(order_wait_valve_gives_up_and_counts)
{
	OrderTrack o;
	Packet p;

	memset(&o, 0, sizeof(o));
	CHECK(order_init(&o, 16) == 0);
	o.valve_ms = 20;
	memset(&p, 0, sizeof(p));
	p.order_seq = 5;                 /* 1..4 never finish */
	order_wait(&o, &p);
	order_wait(&o, &p);
	CHECK_EQ(atomic_load(&o.valve_trips), 2);
	order_free(&o);
}

typedef struct Reader {
	OrderTrack *o;
	atomic_int published;
	uint64_t seq;
	atomic_int returned;
} Reader;

static void reader_publish(void *arg)
{
	Reader *r = arg;

	atomic_fetch_add(&r->published, 1);
}

static void *reader_main(void *arg)
{
	Reader *r = arg;

	r->seq = order_next(r->o, reader_publish, r);
	atomic_store(&r->returned, 1);
	return NULL;
}

TEST(order_next_holds_the_reader_until_the_oldest_is_done)
{
	OrderTrack o;
	Reader r;
	pthread_t t;
	uint64_t span;

	memset(&o, 0, sizeof(o));
	CHECK(order_init(&o, 0) == 0);
	span = o.span;
	for (uint64_t i = 1; i <= span; i++)
		CHECK_EQ(order_next(&o, NULL, NULL), i);
	memset(&r, 0, sizeof(r));
	r.o = &o;
	CHECK(pthread_create(&t, NULL, reader_main, &r) == 0);
	wait_for_sleeper(&o);            /* held back, after publishing */
	CHECK_EQ(atomic_load(&r.returned), 0);
	order_done(&o, 1);
	pthread_join(t, NULL);
	CHECK_EQ(r.seq, span + 1);
	CHECK_EQ(atomic_load(&r.published), 1);
	order_free(&o);
}
