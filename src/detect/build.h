/* The engine build's own files, and what they share. engine.c builds an
 * engine (detect_engine_build_next) with them, in this order:
 *   build-order.c       the rule order, variable names -> ids
 *   build-sig.c         each rule's properties (DetectSig), in that order
 *   build-groups.c      the signature groups: one MPM per group over its
 *                       rules' fast patterns, and the rules without one
 *   build-portgroups.c  a protocol class and direction split by port,
 *                       each part a group of build-groups.c
 * (engine-config.c reads the DetectConfig they are built from; the
 * transaction rules' groups are tx-inspect.c's.)
 * All of it runs once per engine, before any packet: it may allocate and
 * fail; what it builds is read-only afterwards and shared by the workers.
 * Only these files and engine.c include this header. */
#ifndef DETECT_BUILD_H
#define DETECT_BUILD_H

#include "detect/engine-int.h"

/* build-order.c */
/* A reload's engine: the flowbit, flowint and hostbit ids of prev. */
int build_names_inherit(DetectEngine *de, const DetectEngine *prev);
/* de->sigs[num].s for every rule of t in Suricata's order, with the
 * rules' variable ids resolved. 0, or -1: out of memory. */
int build_order(DetectEngine *de, SigTable *t);
/* The names and the id arrays build_order gave the rules' flowbits. */
void build_names_free(DetectEngine *de);

/* build-sig.c */
unsigned sig_pc_mask(const Signature *s);   /* bits: PC_* a rule may meet */
unsigned sig_dir_mask(const Signature *s);  /* bit 0 toserver, bit 1 toclient */
/* ds (ds->s set) and the engine-wide counts it adds to. 0, or -1: out of
 * memory. */
int build_sig_setup(DetectEngine *de, DetectSig *ds);
/* de->frame_sigs, once de->nsigs rules are set up. */
int build_frame_index(DetectEngine *de);
void build_sigs_free(DetectEngine *de);

/* build-groups.c */
/* The group of class pc and direction dir over the rules in[num] (NULL:
 * all of them), and its stream parts for TCP. 0, or -1 (err set, or out
 * of memory). */
int build_group(DetectEngine *de, SigGroup *g, int pc, int dir, const uint8_t *in,
		char *err, size_t errlen);
/* de->pg (and the unsplit de->groups where they are used), numbering each
 * group's thread scratch (de->nscratch). */
int build_groups(DetectEngine *de, char *err, size_t errlen);
void build_groups_free(DetectEngine *de);
void build_groups_log(const DetectEngine *de);   /* log_debug, a line per group */

/* build-portgroups.c */
/* de->pg[pc][dir]: the port groups of a TCP or UDP class and direction. */
int build_port_groups(DetectEngine *de, int pc, int dir, char *err, size_t errlen);

#endif
