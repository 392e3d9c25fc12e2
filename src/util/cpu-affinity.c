/* CPU affinity of the engine's threads (cpu-affinity.h). */
#define _GNU_SOURCE
#include "util/cpu-affinity.h"
#include "conf/conf.h"
#include "util/log.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { SET_MANAGEMENT, SET_RECEIVE, SET_WORKER, SET_N };
enum { PRIO_LOW, PRIO_MEDIUM, PRIO_HIGH, PRIO_N };

static const char *const set_names[SET_N] = { "management-cpu-set", "receive-cpu-set",
					      "worker-cpu-set" };
static const char *const prio_names[PRIO_N] = { "low", "medium", "high" };
/* Suricata's nice values for its three priorities */
static const int prio_nice[PRIO_N] = { 2, 0, -2 };

typedef struct CpuSet {
	int configured;
	int ncpu;                      /* CPUs in cpus, in order */
	int cpus[CPU_SETSIZE];
	int exclusive;
	int has_prio;
	cpu_set_t prio_cpus[PRIO_N];
	int prio_default;
} CpuSet;

/* Written once by cpu_affinity_load, before the threads that read it
 * start; read-only afterwards. */
static struct {
	int on;
	CpuSet set[SET_N];
} aff;

void cpu_affinity_reset(void)
{
	memset(&aff, 0, sizeof(aff));
}

/* One list item ("all", "3", "1-2") into s; -1 on a bad item or a CPU this
 * machine does not have. */
static int add_cpus(cpu_set_t *s, const char *item, int ncpu, const char *what, char *err,
		    size_t errlen)
{
	char *end;
	long a, b;

	if (!strcasecmp(item, "all")) {
		for (int i = 0; i < ncpu; i++)
			CPU_SET(i, s);
		return 0;
	}
	a = strtol(item, &end, 10);
	b = a;
	if (end != item && *end == '-') {
		const char *p = end + 1;

		b = strtol(p, &end, 10);
		if (end == p)
			b = -1;
	}
	if (end == item || *end || a < 0 || b < a) {
		snprintf(err, errlen, "threading.cpu-affinity.%s: '%s' is not a CPU, a range or "
			 "\"all\"", what, item);
		return -1;
	}
	if (b >= ncpu || b >= CPU_SETSIZE) {
		snprintf(err, errlen, "threading.cpu-affinity.%s: CPU %ld: this machine has %d "
			 "CPU%s (0-%d)", what, b, ncpu, ncpu == 1 ? "" : "s", ncpu - 1);
		return -1;
	}
	for (long i = a; i <= b; i++)
		CPU_SET((int)i, s);
	return 0;
}

/* A CPU list node: a sequence of items, or one scalar ("all", "0-3",
 * "1,2"). Marked used: the unused-settings report knows it was read. */
static int parse_list(ConfNode *n, cpu_set_t *s, int ncpu, const char *what, char *err,
		      size_t errlen)
{
	CPU_ZERO(s);
	n->used = 1;
	if (n->val) {
		char buf[256], *save = NULL;

		snprintf(buf, sizeof(buf), "%s", n->val);
		for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save))
			if (add_cpus(s, t, ncpu, what, err, errlen) != 0)
				return -1;
		return 0;
	}
	for (ConfNode *c = n->child; c; c = c->next) {
		c->used = 1;
		if (!c->val || add_cpus(s, c->val, ncpu, what, err, errlen) != 0) {
			if (!c->val)
				snprintf(err, errlen, "threading.cpu-affinity.%s: a list item is not "
					 "a CPU", what);
			return -1;
		}
	}
	return 0;
}

static int parse_set(ConfNode *n, CpuSet *cs, const char *name, int ncpu, char *err,
		     size_t errlen)
{
	ConfNode *c = conf_node_lookup(n, "cpu"), *p;
	const char *mode = conf_node_get(n, "mode");
	char what[96];
	cpu_set_t s;

	n->used = 1;
	cs->configured = 1;
	snprintf(what, sizeof(what), "%s.cpu", name);
	if (c) {
		if (parse_list(c, &s, ncpu, what, err, errlen) != 0)
			return -1;
	} else {
		/* no list: every CPU, as Suricata */
		CPU_ZERO(&s);
		for (int i = 0; i < ncpu; i++)
			CPU_SET(i, &s);
	}
	for (int i = 0; i < ncpu && i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &s))
			cs->cpus[cs->ncpu++] = i;
	if (!cs->ncpu) {
		snprintf(err, errlen, "threading.cpu-affinity.%s: no CPU", what);
		return -1;
	}
	if (mode) {
		conf_node_lookup(n, "mode")->used = 1;
		if (!strcasecmp(mode, "exclusive")) {
			cs->exclusive = 1;
		} else if (strcasecmp(mode, "balanced")) {
			snprintf(err, errlen, "threading.cpu-affinity.%s.mode: '%s' is not "
				 "exclusive or balanced", name, mode);
			return -1;
		}
	}
	cs->prio_default = PRIO_MEDIUM;
	if (!(p = conf_node_lookup(n, "prio")))
		return 0;
	p->used = 1;
	cs->has_prio = 1;
	for (int i = 0; i < PRIO_N; i++) {
		ConfNode *l = conf_node_lookup(p, prio_names[i]);

		snprintf(what, sizeof(what), "%s.prio.%s", name, prio_names[i]);
		if (l && parse_list(l, &cs->prio_cpus[i], ncpu, what, err, errlen) != 0)
			return -1;
	}
	if ((mode = conf_node_get(p, "default"))) {
		int i;

		conf_node_lookup(p, "default")->used = 1;
		for (i = 0; i < PRIO_N && strcasecmp(mode, prio_names[i]); i++)
			;
		if (i == PRIO_N) {
			snprintf(err, errlen, "threading.cpu-affinity.%s.prio.default: '%s' is not "
				 "low, medium or high", name, mode);
			return -1;
		}
		cs->prio_default = i;
	}
	return 0;
}

/* The set's node: cpu-affinity.<name> (Suricata 8), or the list item whose
 * one key is <name> (Suricata 7's list form). */
static ConfNode *find_set(ConfNode *root, const char *name)
{
	if (!root->is_seq)
		return conf_node_lookup(root, name);
	for (ConfNode *item = root->child; item; item = item->next) {
		ConfNode *n = conf_node_lookup(item, name);

		if (n) {
			item->used = 1;
			return n;
		}
	}
	return NULL;
}

int cpu_affinity_load(char *err, size_t errlen)
{
	ConfNode *root;
	int on = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	cpu_affinity_reset();
	if (conf_get_bool("threading.set-cpu-affinity", &on) < 0) {
		snprintf(err, errlen, "threading.set-cpu-affinity: not a boolean");
		return -1;
	}
	if (!on)
		return 0;
	if (ncpu < 1)
		ncpu = 1;
	root = conf_get_node("threading.cpu-affinity");
	if (root) {
		root->used = 1;
		for (int i = 0; i < SET_N; i++) {
			ConfNode *n = find_set(root, set_names[i]);

			if (n && parse_set(n, &aff.set[i], set_names[i], (int)ncpu, err, errlen) != 0)
				return -1;
		}
	}
	aff.on = 1;
	return 0;
}

static int role_set(const char *role)
{
	if (!strcmp(role, "W"))
		return SET_WORKER;
	if (!strcmp(role, "RX"))
		return SET_RECEIVE;
	return SET_MANAGEMENT;
}

void cpu_affinity_apply(const char *role, unsigned idx)
{
	const CpuSet *cs;
	cpu_set_t s;
	int prio, cpu = -1, r;

	if (!aff.on)
		return;
	cs = &aff.set[role_set(role)];
	if (!cs->configured)
		return;
	CPU_ZERO(&s);
	if (cs->exclusive) {
		cpu = cs->cpus[(idx ? idx - 1 : 0) % (unsigned)cs->ncpu];
		CPU_SET(cpu, &s);
	} else {
		for (int i = 0; i < cs->ncpu; i++)
			CPU_SET(cs->cpus[i], &s);
	}
	if ((r = pthread_setaffinity_np(pthread_self(), sizeof(s), &s)) != 0)
		log_warning("cpu-affinity: %s thread %u: cannot pin it: %s", role, idx, strerror(r));
	if (!cs->has_prio)
		return;
	prio = cs->prio_default;
	for (int i = 0; cpu >= 0 && i < PRIO_N; i++)
		if (CPU_ISSET(cpu, &cs->prio_cpus[i]))
			prio = i;
	/* the nice value is the thread's own on Linux (its tid) */
	if (setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), prio_nice[prio]) != 0) {
		static int said;

		if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
			log_info("cpu-affinity: priority %s (nice %d) not set: %s", prio_names[prio],
				 prio_nice[prio], strerror(errno));
	}
}
