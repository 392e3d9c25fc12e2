/* host-os-policy: which overlap policy a receiving host applies, looked up by
 * its address in a binary prefix trie (one per family) built once from the
 * yaml section, as Suricata's radix tree: the most specific prefix wins, and
 * among equal prefixes the one read last. Lookups walk at most 32 / 128
 * nodes and never allocate. */
#include "stream/stream-int.h"
#include "conf/conf.h"
#include "util/log.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NODE_NONE 0                 /* index 0 is never a node */
#define NO_POLICY 0xff

typedef struct HostOsNode {
	uint32_t child[2];
	uint8_t policy;             /* enum stream_policy, or NO_POLICY */
} HostOsNode;

struct HostOsTable {
	HostOsNode *nodes;
	uint32_t n, cap;
	uint32_t root[2];           /* IPv4, IPv6 */
};

/* Suricata's host-os-policy names. bsd-right and old-solaris differ from bsd
 * and solaris only for IP fragments: Suricata's stream engine maps them so. */
static const struct {
	const char *name;
	enum stream_policy pol;
} os_names[] = {
	{ "bsd", STREAM_POLICY_BSD }, { "bsd-right", STREAM_POLICY_BSD },
	{ "old-linux", STREAM_POLICY_OLD_LINUX }, { "linux", STREAM_POLICY_LINUX },
	{ "old-solaris", STREAM_POLICY_SOLARIS }, { "solaris", STREAM_POLICY_SOLARIS },
	{ "hpux10", STREAM_POLICY_HPUX10 }, { "hpux11", STREAM_POLICY_HPUX11 },
	{ "irix", STREAM_POLICY_IRIX }, { "macos", STREAM_POLICY_MACOS },
	{ "windows", STREAM_POLICY_WINDOWS }, { "vista", STREAM_POLICY_VISTA },
	{ "windows2k3", STREAM_POLICY_WINDOWS2K3 },
};

int stream_os_policy_name(const char *name, enum stream_policy *out)
{
	size_t i;

	for (i = 0; i < sizeof(os_names) / sizeof(os_names[0]); i++) {
		if (strcasecmp(name, os_names[i].name) == 0) {
			*out = os_names[i].pol;
			return 0;
		}
	}
	return -1;
}

static uint32_t node_new(HostOsTable *t)
{
	if (t->n == t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 64;
		HostOsNode *nn = realloc(t->nodes, cap * sizeof(*nn));

		if (!nn)
			return NODE_NONE;
		t->nodes = nn;
		t->cap = cap;
	}
	memset(&t->nodes[t->n], 0, sizeof(t->nodes[0]));
	t->nodes[t->n].policy = NO_POLICY;
	return t->n++;
}

static int bit_at(const uint8_t *a, unsigned i)
{
	return (a[i / 8] >> (7 - i % 8)) & 1;
}

static int table_insert(HostOsTable *t, int v6, const uint8_t *addr, unsigned bits,
			enum stream_policy pol)
{
	uint32_t cur = t->root[v6];
	unsigned i;

	for (i = 0; i < bits; i++) {
		int b = bit_at(addr, i);
		uint32_t next = t->nodes[cur].child[b];

		if (next == NODE_NONE) {
			next = node_new(t);
			if (next == NODE_NONE)
				return -1;
			t->nodes[cur].child[b] = next;
		}
		cur = next;
	}
	t->nodes[cur].policy = (uint8_t)pol;
	return 0;
}

/* "IP" or "IP/bits", IPv4 or IPv6. */
static int parse_prefix(const char *s, int *v6, uint8_t addr[16], unsigned *bits)
{
	char buf[64], *slash, *end;
	unsigned long nb;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	slash = strchr(buf, '/');
	if (slash)
		*slash = '\0';
	memset(addr, 0, 16);
	if (inet_pton(AF_INET, buf, addr) == 1)
		*v6 = 0;
	else if (inet_pton(AF_INET6, buf, addr) == 1)
		*v6 = 1;
	else
		return -1;
	*bits = *v6 ? 128 : 32;
	if (!slash)
		return 0;
	nb = strtoul(slash + 1, &end, 10);
	if (slash[1] == '\0' || *end != '\0' || nb > *bits)
		return -1;
	*bits = (unsigned)nb;
	return 0;
}

static int add_item(HostOsTable *t, const char *os, const char *item, enum stream_policy pol)
{
	uint8_t addr[16];
	unsigned bits;
	int v6;

	if (parse_prefix(item, &v6, addr, &bits) != 0) {
		log_error("host-os-policy.%s: invalid address \"%s\" (want IP or IP/bits)",
			  os, item);
		return -1;
	}
	if (table_insert(t, v6, addr, bits, pol) != 0) {
		log_error("host-os-policy: out of memory");
		return -1;
	}
	return 0;
}

/* One OS entry: a list of addresses, or one address as a scalar ("[]" and
 * an empty value add nothing). */
static int add_os(HostOsTable *t, const ConfNode *os)
{
	enum stream_policy pol;
	const ConfNode *c;

	if (stream_os_policy_name(os->name, &pol) != 0) {
		log_error("host-os-policy: unknown OS \"%s\" (windows, bsd, bsd-right, "
			  "old-linux, linux, old-solaris, solaris, hpux10, hpux11, irix, "
			  "macos, vista, windows2k3)", os->name);
		return -1;
	}
	if (os->val) {
		if (os->val[0] == '\0' || strcmp(os->val, "[]") == 0)
			return 0;
		return add_item(t, os->name, os->val, pol);
	}
	for (c = os->child; c; c = c->next) {
		if (!c->val) {
			log_error("host-os-policy.%s: expected a list of addresses", os->name);
			return -1;
		}
		if (add_item(t, os->name, c->val, pol) != 0)
			return -1;
	}
	return 0;
}

void host_os_table_free(HostOsTable *t)
{
	if (!t)
		return;
	free(t->nodes);
	free(t);
}

int host_os_table_load(HostOsTable **out)
{
	const ConfNode *sec = conf_get_node("host-os-policy"), *os;
	HostOsTable *t;

	*out = NULL;
	if (!sec || !sec->child)
		return 0;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -1;
	node_new(t);                /* index 0: NODE_NONE */
	t->root[0] = node_new(t);
	t->root[1] = node_new(t);
	if (t->root[1] == NODE_NONE) {
		host_os_table_free(t);
		return -1;
	}
	for (os = sec->child; os; os = os->next) {
		/* the lookup marks the list read (conf_report_unused) */
		(void)conf_node_lookup(sec, os->name);
		if (add_os(t, os) != 0) {
			host_os_table_free(t);
			return -1;
		}
	}
	*out = t;
	return 0;
}

enum stream_policy stream_host_policy(const StreamConfig *cfg, const Address *a)
{
	const HostOsTable *t = cfg->hosts;
	uint8_t found = NO_POLICY;
	unsigned i, bits;
	uint32_t cur;
	int v6;

	if (!t || !a || (a->family != AF_INET && a->family != AF_INET6))
		return cfg->policy;
	v6 = a->family == AF_INET6;
	bits = v6 ? 128 : 32;
	cur = t->root[v6];
	for (i = 0;; i++) {
		if (t->nodes[cur].policy != NO_POLICY)
			found = t->nodes[cur].policy;
		if (i == bits)
			break;
		cur = t->nodes[cur].child[bit_at(a->a.u8, i)];
		if (cur == NODE_NONE)
			break;
	}
	return found == NO_POLICY ? cfg->policy : (enum stream_policy)found;
}
