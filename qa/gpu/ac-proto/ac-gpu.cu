// SPDX-License-Identifier: GPL-2.0-only
/*
 * ac-gpu.cu - kernel-only throughput of three AC kernel layouts on
 * device-resident batches, each checked against the CPU reference.
 *
 *  a  thread per payload, DFA in global memory
 *  b  thread per chunk, chunks overlap by longest pattern - 1
 *  c  thread per chunk, no overlap (depth-bounded extension past the chunk
 *     end) and, optionally, the hot BFS-first rows in shared memory
 *
 * usage: ac-gpu PATTERNS.hex PAYLOADS.bin [--minlen N] [--batches 1,10,50]
 *               [--runs N]
 * Prints one "RESULT ..." line per (variant, batch); exit 1 on any
 * mismatch against the CPU reference, 2 on a CUDA error.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <vector>
#include "ac-dfa.h"

#define CK(call) do {							\
	cudaError_t err_ = (call);					\
	if (err_ != cudaSuccess) {					\
		fprintf(stderr, "CUDA error %s at %s:%d: %s\n",		\
			cudaGetErrorName(err_), __FILE__, __LINE__,	\
			cudaGetErrorString(err_));			\
		exit(2);						\
	}								\
} while (0)

__global__ void k_payload(struct ac_tables t, struct ac_sink k,
			  struct ac_batch b)
{
	uint32_t p = blockIdx.x * blockDim.x + threadIdx.x;

	if (p < b.npayloads)
		ac_work_payload(&t, &k, &b, p);
}

__global__ void k_chunk_overlap(struct ac_tables t, struct ac_sink k,
				struct ac_batch b)
{
	uint32_t c = blockIdx.x * blockDim.x + threadIdx.x;

	if (c < b.nchunks)
		ac_work_chunk_overlap(&t, &k, &b, c);
}

__global__ void k_chunk_ext(struct ac_tables t, struct ac_sink k,
			    struct ac_batch b)
{
	extern __shared__ uint4 smem[];
	uint32_t c = blockIdx.x * blockDim.x + threadIdx.x, i;

	if (t.nhot) {
		/* rows are 1 KB, so a 16-byte copy is always aligned */
		const uint4 *src = (const uint4 *)t.delta;
		uint32_t n = t.nhot * (AC_ALPHA * 4 / 16);

		for (i = threadIdx.x; i < n; i += blockDim.x)
			smem[i] = __ldg(src + i);
		__syncthreads();
		t.hot = (const uint32_t *)smem;
	}
	if (c < b.nchunks)
		ac_work_chunk_ext(&t, &k, &b, c);
}

struct devdfa {
	uint32_t *delta, *out_start, *out_ids;
	uint16_t *pat_len;
	uint8_t *depth;
};

template <typename T> static T *upload(const T *h, size_t n)
{
	T *d;

	CK(cudaMalloc(&d, n * sizeof(T) + 16));
	CK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
	return d;
}

struct cfg {
	const char *name;
	int kind;		/* 0 a, 1 b, 2 c */
	uint32_t chunk, nhot, block;
};

static double median(std::vector<float> v)
{
	std::sort(v.begin(), v.end());
	return v[v.size() / 2];
}

int main(int argc, char **argv)
{
	struct ac_patterns p;
	struct ac_payloads pl;
	struct ac_dfa d;
	std::vector<int> batches = { 1, 10, 50 };
	uint32_t minlen = 1, runs = 20;
	int ndev = 0, bad = 0, i;
	cudaDeviceProp prop;

	if (argc < 3) {
		fprintf(stderr, "usage: %s PATTERNS.hex PAYLOADS.bin [--minlen N] "
			"[--batches 1,10,50] [--runs N]\n", argv[0]);
		return 2;
	}
	for (i = 3; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--minlen"))
			minlen = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--runs"))
			runs = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--batches")) {
			batches.clear();
			for (char *s = strtok(argv[i + 1], ","); s; s = strtok(NULL, ","))
				batches.push_back(atoi(s));
		}
	}
	if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
		fprintf(stderr, "no CUDA driver or device\n");
		return 2;
	}
	CK(cudaGetDeviceProperties(&prop, 0));
	if (ac_patterns_load(&p, argv[1]) || ac_payloads_load(&pl, argv[2]))
		return 2;
	if (minlen > 1) {	/* supplementary run: drop short patterns */
		uint32_t j = 0;

		p.bytes = 0;
		for (uint32_t k = 0; k < p.n; k++) {
			if (p.len[k] < minlen) {
				free(p.pat[k]);
				continue;
			}
			p.pat[j] = p.pat[k];
			p.len[j] = p.len[k];
			p.bytes += p.len[k];
			j++;
		}
		p.n = j;
	}
	if (ac_dfa_build(&d, &p))
		return 2;
	printf("device %s, %d SMs, smem/block optin %zu KB; patterns %u "
	       "(minlen %u, longest %u), states %u, table %.1f MB\n",
	       prop.name, prop.multiProcessorCount,
	       prop.sharedMemPerBlockOptin >> 10, p.n, minlen, d.maxlen,
	       d.nstates, d.nstates * 1024.0 / (1 << 20));

	struct devdfa dd;
	dd.delta = upload(d.delta, (size_t)d.nstates * AC_ALPHA);
	dd.out_start = upload(d.out_start, d.nstates + 1);
	dd.out_ids = upload(d.out_ids, d.nout ? d.nout : 1);
	dd.pat_len = upload(d.pat_len, d.npat);
	dd.depth = upload(d.depth, d.nstates);
	struct ac_tables t = { dd.delta, dd.out_start, dd.out_ids, dd.pat_len,
			       dd.depth, NULL, 0, d.nstates };

	const size_t optin = prop.sharedMemPerBlockOptin;
	const struct cfg cfgs[] = {
		{ "a-thread/payload", 0, 0, 0, 128 },
		{ "b-chunk256+ovl", 1, 256, 0, 256 },
		{ "b-chunk1024+ovl", 1, 1024, 0, 256 },
		{ "c-chunk32+ext", 2, 32, 0, 256 },
		{ "c-chunk128+ext", 2, 128, 0, 256 },
		{ "c-chunk128+ext+hot96", 2, 128, 96, 1024 },
		{ "c-chunk32+ext+hot200", 2, 32, 200, 1024 },
	};
	CK(cudaFuncSetAttribute(k_chunk_ext,
				cudaFuncAttributeMaxDynamicSharedMemorySize,
				(int)optin));
	cudaEvent_t e0, e1;
	CK(cudaEventCreate(&e0));
	CK(cudaEventCreate(&e1));

	for (int mb : batches) {
		struct ac_hbatch hb;
		size_t nref;

		if (ac_batch_pack(&hb, &pl, (size_t)mb << 20, 256))
			return 2;
		uint64_t *ref = ac_ref_scan(&d, &hb, &nref);
		uint8_t *ddata = upload(hb.data, hb.bytes);
		uint32_t *doff = upload(hb.off, hb.n + 1);
		uint32_t *dcb;
		CK(cudaMalloc(&dcb, (hb.n + 1) * sizeof(uint32_t)));
		struct ac_sink k;
		k.cap = (uint32_t)(nref + (1 << 20));
		CK(cudaMalloc(&k.rec, (size_t)k.cap * sizeof(struct ac_rec)));
		CK(cudaMalloc(&k.count, sizeof(uint32_t)));
		std::vector<struct ac_rec> hrec(k.cap);

		for (const struct cfg &c : cfgs) {
			uint32_t nhot = std::min<uint32_t>(c.nhot, d.nstates);
			size_t smem = (size_t)nhot * AC_ALPHA * 4;
			uint32_t nwork, count = 0;
			std::vector<float> ms;

			if (smem > optin) {
				printf("skip %s: %zu B shared > %zu\n", c.name, smem, optin);
				continue;
			}
			ac_batch_set_chunk(&hb, c.chunk ? c.chunk : 256);
			CK(cudaMemcpy(dcb, hb.chunk_base, (hb.n + 1) * sizeof(uint32_t),
				      cudaMemcpyHostToDevice));
			struct ac_batch b = { ddata, doff, dcb, hb.n, hb.nchunks,
					      hb.chunk, d.maxlen - 1 };
			struct ac_tables tt = t;
			tt.nhot = nhot;
			nwork = c.kind == 0 ? hb.n : hb.nchunks;
			dim3 grid((nwork + c.block - 1) / c.block);

			for (uint32_t r = 0; r < runs + 3; r++) {
				float t_ms;

				/* poison the records so a stale one cannot pass */
				if (r == runs + 2)
					CK(cudaMemset(k.rec, 0xff, (size_t)k.cap * sizeof(struct ac_rec)));
				CK(cudaMemset(k.count, 0, sizeof(uint32_t)));
				CK(cudaEventRecord(e0));
				if (c.kind == 0)
					k_payload<<<grid, c.block>>>(tt, k, b);
				else if (c.kind == 1)
					k_chunk_overlap<<<grid, c.block>>>(tt, k, b);
				else
					k_chunk_ext<<<grid, c.block, smem>>>(tt, k, b);
				CK(cudaGetLastError());
				CK(cudaEventRecord(e1));
				CK(cudaEventSynchronize(e1));
				CK(cudaEventElapsedTime(&t_ms, e0, e1));
				CK(cudaMemcpy(&count, k.count, 4, cudaMemcpyDeviceToHost));
				/* every run: the count; last run: the whole set */
				if (count != nref) {
					fprintf(stderr, "%s %d MB run %u: %u matches, ref %zu\n",
						c.name, mb, r, count, nref);
					bad = 1;
					break;
				}
				if (r >= 3)
					ms.push_back(t_ms);
			}
			int eq = 0;
			if (count == nref && count <= k.cap) {
				CK(cudaMemcpy(hrec.data(), k.rec, (size_t)count * sizeof(struct ac_rec),
					      cudaMemcpyDeviceToHost));
				uint64_t *keys = ac_recs_to_keys(hrec.data(), count, hb.off);
				eq = !ac_keys_compare(c.name, ref, nref, keys, count);
				free(keys);
			}
			if (!eq)
				bad = 1;
			double med = ms.empty() ? 0 : median(ms);
			double mn = ms.empty() ? 0 : *std::min_element(ms.begin(), ms.end());
			printf("RESULT variant=%s batch_mb=%d bytes=%zu payloads=%u "
			       "threads=%u patterns=%u states=%u minlen=%u runs=%zu "
			       "median_ms=%.4f min_ms=%.4f gbps=%.1f gbps_best=%.1f "
			       "matches=%zu per_kb=%.1f equal_cpu=%s\n",
			       c.name, mb, hb.bytes, hb.n, nwork, p.n, d.nstates,
			       minlen, ms.size(), med, mn,
			       med > 0 ? hb.bytes * 8 / (med * 1e6) : 0,
			       mn > 0 ? hb.bytes * 8 / (mn * 1e6) : 0,
			       nref, nref * 1024.0 / hb.bytes, eq ? "yes" : "NO");
			fflush(stdout);
		}
		CK(cudaFree(ddata));
		CK(cudaFree(doff));
		CK(cudaFree(dcb));
		CK(cudaFree(k.rec));
		CK(cudaFree(k.count));
		free(ref);
		ac_batch_free(&hb);
	}
	CK(cudaFree(dd.delta));
	CK(cudaFree(dd.out_start));
	CK(cudaFree(dd.out_ids));
	CK(cudaFree(dd.pat_len));
	CK(cudaFree(dd.depth));
	ac_dfa_free(&d);
	ac_payloads_free(&pl);
	ac_patterns_free(&p);
	printf("ac-gpu: %s\n", bad ? "MISMATCH against the CPU reference" :
	       "all variants equal the CPU reference");
	return bad;
}
