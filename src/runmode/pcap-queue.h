/* The unix-socket runmode's queue of pcap files (Suricata's pcap-file,
 * pcap-file-number, pcap-file-list, pcap-current, pcap-last-processed and
 * pcap-interrupt commands): the socket's thread adds, the main thread takes
 * one task at a time and runs it as a fresh pcap-file run with its logs in
 * the task's output folder. Every call locks: nothing here is on the packet
 * path (the capture reads the interrupt flag, a plain int). */
#ifndef RUNMODE_PCAP_QUEUE_H
#define RUNMODE_PCAP_QUEUE_H

#include <signal.h>
#include <stdint.h>
#include <stddef.h>

typedef struct PcapTask {
	char *filename;             /* file or folder; owned */
	char *output_dir;           /* owned */
	int tenant;
	int continuous;
	int delete_when_done;
	struct PcapTask *next;
} PcapTask;

typedef struct PcapQueue PcapQueue;

PcapQueue *pcap_queue_new(void);
/* Frees the tasks left (and the current one). */
void pcap_queue_free(PcapQueue *q);
/* Appends a copy. 0, or -1 (no memory). */
int pcap_queue_add(PcapQueue *q, const char *filename, const char *output_dir, int tenant,
		   int continuous, int delete_when_done);
/* Main thread: the next task, which becomes the current one (the queue
 * keeps it until pcap_queue_done), clearing the interrupt flag; NULL when
 * *stop was set first, or after timeout_ms without a task. */
PcapTask *pcap_queue_take(PcapQueue *q, const volatile sig_atomic_t *stop, int timeout_ms);
/* The current task ended: its file's modification time (ms, 0: none read)
 * becomes pcap-last-processed. */
void pcap_queue_done(PcapQueue *q, int64_t last_mtime_ms);

/* What the unix-socket answers read, taken under one lock so that the
 * count, the current name ("None" when idle, as Suricata answers) and the
 * last processed time belong to the same moment. */
typedef struct PcapQueueStatus {
	unsigned queued;
	int64_t last_processed_ms;
	char current[4096];
} PcapQueueStatus;

void pcap_queue_status(PcapQueue *q, PcapQueueStatus *out);
/* Each queued name in order (pcap-file-list). */
void pcap_queue_each(PcapQueue *q, void (*fn)(void *arg, const char *filename), void *arg);
/* pcap-interrupt: the current run ends at its next packet. */
void pcap_queue_interrupt(PcapQueue *q);
/* What the capture of the current run watches (Capture.interrupt). */
const volatile int *pcap_queue_interrupt_flag(PcapQueue *q);

#endif
