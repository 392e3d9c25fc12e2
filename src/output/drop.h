/* eve "drop" records (drop.c). */
#ifndef OUTPUT_DROP_H
#define OUTPUT_DROP_H

#include "output/output.h"

struct AlertInfo;
struct AlertVerdict;

/* p was dropped (p->drop_reason set, IPS mode); rule: the drop or reject
 * rule that decided it (its "alert" object is logged with alerts: yes), or
 * NULL; v: the packet's verdict (the "verdict" object with verdict: yes),
 * or NULL. f may be NULL; its drop_logged bits are updated. Thread-safe
 * for distinct flows (a flow belongs to one worker). */
void output_drop(Outputs *o, const Packet *p, Flow *f, const struct AlertInfo *rule,
		 const struct AlertVerdict *v);

struct JsonWriter;
/* The six TCP flag booleans (syn, ack, psh, rst, urg, fin) of flags byte
 * fl, as the drop record and the stream_tcp record both write them. */
void eve_tcp_flag_bools(struct JsonWriter *w, uint8_t fl);

#endif
