/* Eve flow records written by a thread of their own, as Suricata writes
 * them from its flow recycler rather than the packet threads.
 *
 * A worker that ends a flow copies what the record shows (FlowRecordView:
 * the flow's fields and its TCP session's end state) into a ring of fixed
 * slots and goes on; the writer thread formats and writes the views in the
 * order they came. Formatting a record costs a flow's end ~4k instructions
 * the packet path need not wait for, and with one packet thread (runmode
 * single) the machine's other cores are idle.
 *
 * Nothing is lost: a full ring makes the worker wait for a slot (the writer
 * only formats and writes, so it always frees one). Workers wake the
 * writer once a batch is pending, not per record (a wake-up is a system
 * call); the writer also looks every FLOW_WRITER_TICK_MS on its own, so
 * that a live sensor's few records do not wait for a batch. */
#ifndef OUTPUT_FLOW_WRITER_H
#define OUTPUT_FLOW_WRITER_H

#include "flow/flow.h"

#include <stdint.h>

#define FLOW_WRITER_SLOTS 1024      /* ~330 KB of views */
#define FLOW_WRITER_BATCH 64        /* pending views that wake the writer */
#define FLOW_WRITER_TICK_MS 200

/* What a flow record shows, copied at the flow's end. f is a copy of the
 * flow: its pointers (stream, alstate, detect) are the ended flow's and
 * are never followed; the session's end state is copied beside it. */
typedef struct FlowRecordView {
	Flow f;
	uint8_t why;                /* enum flow_end_reason */
	uint8_t has_session;        /* a TCP session was tracked */
	uint8_t tcp_state;          /* its state (stream_tcp_state) */
	uint8_t gap[2];             /* each direction had a gap */
	uint64_t tx_cnt;            /* app-layer transactions ever started */
	/* the flow's flowvars (pcre captures), copied: one block the record's
	 * write frees (flow_record_view_release); NULL: none, as for most */
	struct AlertVar *vars;
	unsigned nvars;
} FlowRecordView;

struct Outputs;
typedef struct FlowWriter FlowWriter;

/* Starts the writer thread of o's flow records. NULL when it cannot (no
 * memory, no thread): the caller writes them itself. */
FlowWriter *flow_writer_start(struct Outputs *o);

/* Queues the record of flow f, ended for why (any thread). */
void flow_writer_submit(FlowWriter *fw, const Flow *f, enum flow_end_reason why);

/* Writes what is queued, stops the thread and frees fw (NULL: nothing).
 * The callers of flow_writer_submit must have stopped. */
void flow_writer_stop(FlowWriter *fw);

#endif
