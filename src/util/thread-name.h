/* Thread names as Suricata gives them: a role and a 1-based number ("W#01"
 * a worker, "RX#01" a capture thread feeding workers, "ACC-EMU#03" a thread
 * of the emulated GPU), or the role alone ("CS", "ACC-DISP"). `top -H`,
 * /proc/PID/task/TID/comm and qa/bench/thread-cpu.py read them, so the CPU
 * of each role can be told apart. */
#ifndef UTIL_THREAD_NAME_H
#define UTIL_THREAD_NAME_H

/* The name into buf (16 bytes: the kernel's limit, a longer one is cut);
 * idx 0: the role alone. */
void thread_name_format(char buf[16], const char *role, unsigned idx);
/* Names the calling thread: threads we start call it first thing; the main
 * thread keeps the process name. It also takes the role's CPU set and
 * priority (util/cpu-affinity.h) when threading.set-cpu-affinity is on. */
void thread_name_set(const char *role, unsigned idx);

#endif
