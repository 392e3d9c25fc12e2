#define _GNU_SOURCE
#include "util/thread-name.h"
#include "util/cpu-affinity.h"

#include <pthread.h>
#include <stdio.h>

void thread_name_format(char buf[16], const char *role, unsigned idx)
{
	if (idx)
		snprintf(buf, 16, "%s#%02u", role, idx);
	else
		snprintf(buf, 16, "%s", role);
}

void thread_name_set(const char *role, unsigned idx)
{
	char name[16];

	thread_name_format(name, role, idx);
	pthread_setname_np(pthread_self(), name);
	/* the role decides the CPU set too: named once, pinned once */
	cpu_affinity_apply(role, idx);
}
