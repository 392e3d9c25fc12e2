/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ac-dfa.h - host side of the AC prototype: pattern and payload files,
 * DFA construction, the CPU reference scan, batches and match-set checks.
 */
#ifndef AC_DFA_H
#define AC_DFA_H

#include <stdint.h>
#include <stddef.h>
#include "ac-scan.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ac_patterns {
	uint8_t **pat;		/* folded bytes */
	uint16_t *len;
	uint32_t n;
	uint32_t maxlen;
	size_t bytes;
};

/* Host-owned automaton; ac_dfa_tables() gives the read-only view. */
struct ac_dfa {
	uint32_t *delta;
	uint32_t *out_start, *out_ids;
	uint16_t *pat_len;
	uint8_t *depth;
	uint32_t nstates, nout, npat, maxlen;
	/* sparse trie for the reference scan: children of s are
	 * child_state[first_child[s] .. first_child[s] + nchild[s]) */
	uint32_t *first_child, *child_state;
	uint8_t *child_byte;
	uint16_t *nchild;
	int32_t *own;		/* pattern ending exactly here, or -1 */
};

struct ac_payloads {
	uint8_t *data;
	uint32_t *off;		/* n + 1 */
	uint32_t n;
};

/* A packed batch and its chunk map (for variants b and c). */
struct ac_hbatch {
	uint8_t *data;
	uint32_t *off, *chunk_base;
	uint32_t n, nchunks, chunk;
	size_t bytes;
};

int ac_patterns_load(struct ac_patterns *p, const char *path);
void ac_patterns_free(struct ac_patterns *p);
int ac_dfa_build(struct ac_dfa *d, const struct ac_patterns *p);
void ac_dfa_free(struct ac_dfa *d);
struct ac_tables ac_dfa_tables(const struct ac_dfa *d);

int ac_payloads_load(struct ac_payloads *pl, const char *path);
void ac_payloads_synthetic(struct ac_payloads *pl, const struct ac_patterns *p,
			   size_t bytes, uint32_t seed);
void ac_payloads_free(struct ac_payloads *pl);

/* Pack payloads cyclically (from the first) until `bytes` would be passed. */
int ac_batch_pack(struct ac_hbatch *b, const struct ac_payloads *pl,
		  size_t bytes, uint32_t chunk);
void ac_batch_set_chunk(struct ac_hbatch *b, uint32_t chunk);
void ac_batch_free(struct ac_hbatch *b);
struct ac_batch ac_batch_view(const struct ac_hbatch *b, uint32_t overlap);

/* Match keys: (batch byte position of the end << 20 | pattern), sortable. */
#define AC_KEY(off, rec) ((((uint64_t)(off)[(rec).payload] + (rec).end) << 20) | (rec).pattern)

/* CPU reference: trie walk from every position over tolower() bytes; uses
 * neither the failure links nor the DFA table.  Returns sorted keys. */
uint64_t *ac_ref_scan(const struct ac_dfa *d, const struct ac_hbatch *b,
		      size_t *nkeys);
/* Brute force: every pattern at every position (tests on small samples). */
uint64_t *ac_naive_scan(const struct ac_patterns *p, const struct ac_hbatch *b,
			size_t *nkeys);
void ac_keys_sort(uint64_t *k, size_t n);
uint64_t *ac_recs_to_keys(const struct ac_rec *r, size_t n,
			  const uint32_t *off);
/* 0 when equal; else prints the first difference under `what`. */
int ac_keys_compare(const char *what, const uint64_t *ref, size_t nref,
		    const uint64_t *got, size_t ngot);

#ifdef __cplusplus
}
#endif
#endif /* AC_DFA_H */
