/* The counter registry across runs: counters_destroy() starts a new
 * generation and every subsystem registers again (the fuzz harnesses run the
 * engine thousands of times in one process). */
#include "test.h"
#include "stats/counters.h"
#include "stream/stream.h"
#include "detect/engine.h"

TEST(counters_reregister_after_destroy)
{
	unsigned gen = counters_generation();
	ThreadCounters *tc;
	int id;

	counter_register("test.first");
	stream_register_counters();
	detect_register_counters();
	counters_freeze();
	CHECK(counter_lookup("tcp.sessions") >= 0);
	counters_destroy();
	CHECK(counters_generation() != gen);
	CHECK_EQ(counters_count(), 0);

	/* a different order this time: the ids move, and the subsystems that
	 * used to register "once" must follow instead of keeping stale ids */
	counter_register("test.a");
	counter_register("test.b");
	stream_register_counters();
	detect_register_counters();
	counters_freeze();
	CHECK(counter_lookup("tcp.sessions") >= 0);
	CHECK(counter_lookup("detect.alert") >= 0);
	id = counter_lookup("detect.alert");
	CHECK((size_t)id < counters_count());
	tc = thread_counters_new();
	CHECK(tc != NULL);
	counter_inc(tc, (counter_id)id);
	CHECK_EQ(counter_get(tc, (counter_id)id), 1);
	counters_destroy();
}

TEST(counters_generation_never_zero)
{
	CHECK(counters_generation() != 0);
	counters_destroy();
	CHECK(counters_generation() != 0);
}

/* The unix-socket runmode between two files: a finished run's blocks still
 * count until counters_zero(), which frees them (ASan sees a double free or
 * a use after free if a live block were taken), and the live ones are
 * zeroed and keep counting. */
TEST(counters_zero_frees_retired_blocks_and_zeroes_live_ones)
{
	counter_id id = counter_register("test.zero");
	ThreadCounters *old, *live;
	uint64_t sum[1];

	counters_freeze();
	old = thread_counters_new();
	live = thread_counters_new();
	CHECK(old && live);
	counter_add(old, id, 5);
	counter_add(live, id, 2);
	thread_counters_retire(old);
	counters_snapshot(sum);
	CHECK_EQ(sum[0], 7);
	counters_zero();
	counters_snapshot(sum);
	CHECK_EQ(sum[0], 0);
	counter_inc(live, id);
	counters_snapshot(sum);
	CHECK_EQ(sum[0], 1);
	counters_destroy();
}
