#include "app-layer/app-mem.h"

#include "util/log.h"
#include "util/mem-peak.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Which protocols: the ones whose parsers have no memory accounting of
 * their own (http-mem.c and ftp-proto.c have). */
static const uint8_t accounted[ALPROTO_MAX] = {
	[ALPROTO_TLS] = 1, [ALPROTO_SMTP] = 1, [ALPROTO_SMB] = 1,
	[ALPROTO_DCERPC] = 1, [ALPROTO_SSH] = 1,
	[ALPROTO_SIP] = 1, [ALPROTO_POP3] = 1,
	[ALPROTO_QUIC] = 1,
};

static uint64_t g_cap, g_total, g_total_peak;
static uint64_t g_use[ALPROTO_MAX], g_peak[ALPROTO_MAX], g_refused[ALPROTO_MAX];

void app_mem_set_cap(uint64_t cap)
{
	__atomic_store_n(&g_cap, cap, __ATOMIC_RELAXED);
}

uint64_t app_mem_cap(void)
{
	return __atomic_load_n(&g_cap, __ATOMIC_RELAXED);
}

int app_mem_accounted(unsigned alproto)
{
	return alproto < ALPROTO_MAX && accounted[alproto];
}

/* A protocol this file does not know is a caller's bug: its bytes are
 * still counted (in the total), never lost. */
static unsigned slot(unsigned alproto)
{
	return alproto < ALPROTO_MAX ? alproto : 0;
}

static void raise_to(uint64_t *peak, uint64_t now)
{
	uint64_t p = __atomic_load_n(peak, __ATOMIC_RELAXED);

	while (now > p && !__atomic_compare_exchange_n(peak, &p, now, 1, __ATOMIC_RELAXED,
						       __ATOMIC_RELAXED))
		;
}

static void add(unsigned alproto, uint64_t n)
{
	unsigned p = slot(alproto);

	raise_to(&g_peak[p], __atomic_add_fetch(&g_use[p], n, __ATOMIC_RELAXED));
	raise_to(&g_total_peak, __atomic_add_fetch(&g_total, n, __ATOMIC_RELAXED));
	mem_peak_add(n);
}

static void sub(unsigned alproto, uint64_t n)
{
	unsigned p = slot(alproto);

	__atomic_sub_fetch(&g_use[p], n, __ATOMIC_RELAXED);
	__atomic_sub_fetch(&g_total, n, __ATOMIC_RELAXED);
	mem_peak_sub(n);
}

/* What the allocator holds for the block: its chunk, header included
 * (mem-peak.h), the same number at allocation and at free. */
static uint64_t held(void *p)
{
	return p ? mem_block_size(malloc_usable_size(p)) : 0;
}

int app_mem_admit(unsigned alproto)
{
	uint64_t cap = __atomic_load_n(&g_cap, __ATOMIC_RELAXED);

	if (!cap || __atomic_load_n(&g_total, __ATOMIC_RELAXED) < cap)
		return 1;
	__atomic_add_fetch(&g_refused[slot(alproto)], 1, __ATOMIC_RELAXED);
	return 0;
}

void *app_mem_malloc(unsigned alproto, size_t n)
{
	void *p = malloc(n);

	add(alproto, held(p));
	return p;
}

void *app_mem_calloc(unsigned alproto, size_t nmemb, size_t n)
{
	void *p = calloc(nmemb, n);

	add(alproto, held(p));
	return p;
}

void *app_mem_realloc(unsigned alproto, void *p, size_t n)
{
	uint64_t before = held(p);
	void *np = realloc(p, n);

	if (!np)
		return NULL;    /* p is untouched, still counted */
	sub(alproto, before);
	add(alproto, held(np));
	return np;
}

char *app_mem_strdup(unsigned alproto, const char *s)
{
	return app_mem_strndup(alproto, s, strlen(s));
}

char *app_mem_strndup(unsigned alproto, const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *d = app_mem_malloc(alproto, len + 1);

	if (!d)
		return NULL;
	memcpy(d, s, len);
	d[len] = '\0';
	return d;
}

void app_mem_free(unsigned alproto, void *p)
{
	if (!p)
		return;
	sub(alproto, held(p));
	free(p);
}

void *app_mem_disown(unsigned alproto, void *p)
{
	sub(alproto, held(p));
	return p;
}

void app_mem_charge(unsigned alproto, uint64_t n)
{
	add(alproto, n);
}

void app_mem_uncharge(unsigned alproto, uint64_t n)
{
	sub(alproto, n);
}

uint64_t app_mem_use(unsigned alproto)
{
	return __atomic_load_n(&g_use[slot(alproto)], __ATOMIC_RELAXED);
}

uint64_t app_mem_use_total(void)
{
	return __atomic_load_n(&g_total, __ATOMIC_RELAXED);
}

uint64_t app_mem_peak_total(void)
{
	return __atomic_load_n(&g_total_peak, __ATOMIC_RELAXED);
}

uint64_t app_mem_refused(unsigned alproto)
{
	return __atomic_load_n(&g_refused[slot(alproto)], __ATOMIC_RELAXED);
}

void app_mem_log_summary(void)
{
	char line[512];
	size_t o = 0;
	uint64_t refused = 0;

	if (!app_mem_peak_total())
		return;
	for (unsigned p = 0; p < ALPROTO_MAX; p++) {
		if (!accounted[p] || !g_peak[p])
			continue;
		o += (size_t)snprintf(line + o, sizeof(line) - o, "%s%s %llu", o ? ", " : "",
				      app_proto_name((uint16_t)p), (unsigned long long)g_peak[p]);
		refused += app_mem_refused(p);
		if (o >= sizeof(line))
			break;
	}
	log_info("app-layer memuse: peak %llu bytes (%s); app-layer.memcap %llu: %llu flows "
		 "refused or stopped", (unsigned long long)app_mem_peak_total(), line,
		 (unsigned long long)app_mem_cap(), (unsigned long long)refused);
}
