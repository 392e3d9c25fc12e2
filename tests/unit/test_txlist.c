/* txlist.h's generic transaction list and its one-datagram-one-transaction
 * parse, on a made-up protocol: what each decode() verdict leaves, which
 * directions are parsed, detection-only, the gc. */
#include "config.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/txlist.h"

typedef struct FakeTx {
	AppTx base;
	uint8_t first;
} FakeTx;

static int freed;

static void fake_free(AppTx *t)
{
	freed++;
	free(t);
}

/* the first byte says what decode() answers: 'o' TXL_OK, 'b' TXL_BAD,
 * 'd' TXL_DROP, 'n' TXL_NOMEM */
static int fake_decode(void *state, AppTx *t, int dir, const uint8_t *data, uint32_t len)
{
	(void)state;
	(void)dir;
	(void)len;
	((FakeTx *)t)->first = data[0];
	switch (data[0]) {
	case 'b': t->events |= 1u << 3; return TXL_BAD;
	case 'd': return TXL_DROP;
	case 'n': return TXL_NOMEM;
	default: return TXL_OK;
	}
}

/* "skip" is no message at all */
static const uint8_t *fake_payload(const Flow *f, const uint8_t *data, uint32_t *len)
{
	(void)f;
	return *len == 4 && memcmp(data, "skip", 4) == 0 ? NULL : data;
}

static AppTxCounters fake_ctr;
static int fake_enabled = 1;

static const TxlDgram fake = {
	.alproto = ALPROTO_NTP,
	.tx_size = sizeof(FakeTx),
	.ctr = &fake_ctr,
	.enabled = &fake_enabled,
	.dirs = 1u << APP_DIR_TOSERVER,
	.free_tx = fake_free,
	.payload = fake_payload,
	.decode = fake_decode,
};

static int feed(void *st, int dir, const char *s)
{
	return txl_dgram_parse(NULL, NULL, st, dir, (const uint8_t *)s, (uint32_t)strlen(s), 0);
}

TEST(dgram_each_verdict_makes_or_drops_a_tx)
{
	void *st = txl_dgram_state_new(NULL, &fake);
	FakeTx *tx;

	CHECK(st != NULL);
	CHECK_EQ(feed(st, APP_DIR_TOSERVER, "ok"), 0);
	CHECK_EQ(feed(st, APP_DIR_TOSERVER, "bad"), -1);
	CHECK_EQ(feed(st, APP_DIR_TOSERVER, "drop"), -1);
	CHECK_EQ(feed(st, APP_DIR_TOSERVER, "nomem"), -1);
	CHECK_EQ(feed(st, APP_DIR_TOSERVER, "skip"), 0);
	/* a direction the protocol does not parse */
	CHECK_EQ(feed(st, APP_DIR_TOCLIENT, "ok"), 0);
	CHECK_EQ(txl_op_count(st), 2);
	tx = txl_op_get(st, 0);
	CHECK(tx && tx->first == 'o');
	CHECK_EQ(txl_op_progress(tx, 0), TXL_COMPLETE);
	CHECK_EQ(txl_op_progress(tx, 1), TXL_COMPLETE);
	CHECK_EQ(txl_op_flags(tx), APP_TX_ONLY_TS | APP_TX_DETECT_TC);
	CHECK(!txl_op_has_event(tx, 3));
	tx = txl_op_get(st, 1);
	CHECK(tx && tx->first == 'b');
	CHECK(txl_op_has_event(tx, 3));
	CHECK(!txl_op_has_event(tx, 40));
	CHECK(!txl_op_has_event(tx, -1));
	freed = 0;
	txl_dgram_state_free(st);
	CHECK_EQ(freed, 2);
}

TEST(dgram_detection_only_parses_nothing)
{
	void *st;

	fake_enabled = 2;
	st = txl_dgram_state_new(NULL, &fake);
	fake_enabled = 1;
	CHECK(st != NULL);
	CHECK_EQ(feed(st, APP_DIR_TOSERVER, "ok"), 0);
	CHECK_EQ(txl_op_count(st), 0);
	txl_dgram_state_free(st);
}

TEST(gc_frees_finished_txs_with_every_needed_flag)
{
	void *st = txl_dgram_state_new(NULL, &fake);
	FakeTx *tx;

	CHECK_EQ(feed(st, APP_DIR_TOSERVER, "one"), 0);
	CHECK_EQ(feed(st, APP_DIR_TOSERVER, "two"), 0);
	CHECK_EQ(feed(st, APP_DIR_TOSERVER, "three"), 0);
	tx = txl_op_get(st, 1);
	txl_op_set_flags(tx, 0x100 | 0x200);
	tx = txl_op_get(st, 2);
	txl_op_set_flags(tx, 0x100);
	freed = 0;
	txl_op_gc(st, 0x100 | 0x200);
	CHECK_EQ(freed, 1);
	/* ids stay: the count is of every tx ever made, the low mark the oldest live */
	CHECK_EQ(txl_op_count(st), 3);
	CHECK_EQ(txl_op_low(st), 0);
	CHECK(txl_op_get(st, 1) == NULL);
	CHECK(txl_op_get(st, 2) != NULL);
	txl_dgram_state_free(st);
}
