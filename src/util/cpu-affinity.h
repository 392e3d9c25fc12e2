/* CPU affinity of the engine's threads: threading.set-cpu-affinity and
 * threading.cpu-affinity, as Suricata 8's yaml documents them:
 *
 *   threading:
 *     set-cpu-affinity: yes
 *     cpu-affinity:
 *       management-cpu-set: { cpu: [ 0 ] }
 *       receive-cpu-set:    { cpu: [ 0 ] }
 *       worker-cpu-set:
 *         cpu: [ "all" ]          # numbers, "a-b" ranges, "all"
 *         mode: exclusive         # or balanced (the default)
 *         prio: { low: [ 0 ], medium: [ "1-2" ], high: [ 3 ], default: medium }
 *
 * (Suricata 7's form, a list of one-key maps under cpu-affinity, is read
 * too.) Workers (W#NN) take the worker set, autofp's reader (RX#NN) the
 * receive set, every other named thread (CS, the GPU's) the management
 * set. exclusive: worker N is pinned to the Nth CPU of its set (round
 * robin when there are more workers than CPUs); balanced: each thread may
 * run on the whole set. prio: a thread's nice value, from the list that
 * holds its CPU (exclusive) or from default: low 2, medium 0, high -2, as
 * Suricata's; a priority the process may not take (high, unprivileged) is
 * logged once and the thread keeps its own.
 *
 * The settings are read once at start (cpu_affinity_load) before any
 * thread starts; each thread applies its own when it names itself
 * (util/thread-name.h), so no thread touches another's. Off (the
 * default): nothing is read or changed. */
#ifndef UTIL_CPU_AFFINITY_H
#define UTIL_CPU_AFFINITY_H

#include <stddef.h>

/* From the conf tree. 0, or -1 with one line in err (a CPU list that
 * names no CPU of this machine, an unknown mode or priority). */
int cpu_affinity_load(char *err, size_t errlen);

/* The calling thread, of role ("W", "RX", "CS"...) and 1-based index
 * (0: the role's only one): pinned and prioritised as loaded. */
void cpu_affinity_apply(const char *role, unsigned idx);

/* The loaded settings are dropped (tests; the next run loads again). */
void cpu_affinity_reset(void);

#endif
