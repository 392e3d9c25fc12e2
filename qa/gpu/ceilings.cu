// SPDX-License-Identifier: GPL-2.0-only
/*
 * ceilings.cu - copy ceilings for the ac-cuda design: H2D and D2H copy
 * bandwidth from pinned and pageable host memory at 64 KB, 256 KB, 1, 4, 16
 * and 64 MB (the small sizes: where a batch's copy is latency, not bandwidth),
 * device-to-device copy bandwidth, and a 64 MB pinned H2D copy overlapped
 * with a kernel on a second stream.  Medians of many CUDA-event timings.
 * Prints "CEIL ..." lines.  Exit 2 on any CUDA error.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <algorithm>
#include <vector>

#define CK(call) do {							\
	cudaError_t err_ = (call);					\
	if (err_ != cudaSuccess) {					\
		fprintf(stderr, "CUDA error %s at %s:%d: %s\n",		\
			cudaGetErrorName(err_), __FILE__, __LINE__,	\
			cudaGetErrorString(err_));			\
		exit(2);						\
	}								\
} while (0)

static const size_t MB = 1 << 20;

static float median(std::vector<float> v)
{
	std::sort(v.begin(), v.end());
	return v[v.size() / 2];
}

/* Median ms of `reps` copies of n bytes on stream s. */
static float time_copy(void *dst, const void *src, size_t n,
		       cudaMemcpyKind kind, int reps, cudaStream_t s)
{
	cudaEvent_t a, b;
	std::vector<float> v;

	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	for (int r = 0; r < reps + 2; r++) {
		float ms;

		CK(cudaEventRecord(a, s));
		CK(cudaMemcpyAsync(dst, src, n, kind, s));
		CK(cudaEventRecord(b, s));
		CK(cudaEventSynchronize(b));
		CK(cudaEventElapsedTime(&ms, a, b));
		if (r >= 2)	/* first two warm the path */
			v.push_back(ms);
	}
	CK(cudaEventDestroy(a));
	CK(cudaEventDestroy(b));
	return median(v);
}

/* Busy kernel with a tunable length: a dependent integer chain per thread,
 * no memory traffic, so it competes with the copy engine for nothing but
 * the launch. */
__global__ void spin(uint32_t iters, uint32_t *sink)
{
	uint32_t x = threadIdx.x + blockIdx.x;

	for (uint32_t i = 0; i < iters; i++)
		x = x * 1664525u + 1013904223u;
	if (x == 0x12345678u)
		*sink = x;
}

static float time_spin(uint32_t iters, uint32_t *sink, cudaStream_t s)
{
	cudaEvent_t a, b;
	float ms;

	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	CK(cudaEventRecord(a, s));
	spin<<<1024, 256, 0, s>>>(iters, sink);
	CK(cudaGetLastError());
	CK(cudaEventRecord(b, s));
	CK(cudaEventSynchronize(b));
	CK(cudaEventElapsedTime(&ms, a, b));
	CK(cudaEventDestroy(a));
	CK(cudaEventDestroy(b));
	return ms;
}

int main(void)
{
	static const size_t sizes_kb[] = { 64, 256, 1024, 4096, 16384, 65536 };
	int ndev = 0, drv = 0, rt = 0;
	cudaDeviceProp prop;
	cudaStream_t s0, s1;
	void *pin, *dev, *dev2;
	char *pageable;
	uint32_t *sink;

	if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
		fprintf(stderr, "no CUDA driver or device\n");
		return 2;
	}
	CK(cudaGetDeviceProperties(&prop, 0));
	CK(cudaDriverGetVersion(&drv));
	CK(cudaRuntimeGetVersion(&rt));
	printf("device %s, cc %d.%d, %d SMs, %.1f GiB, PCI %04x:%02x:%02x, "
	       "driver API %d, runtime %d, async engines %d\n",
	       prop.name, prop.major, prop.minor, prop.multiProcessorCount,
	       prop.totalGlobalMem / 1073741824.0, prop.pciDomainID,
	       prop.pciBusID, prop.pciDeviceID, drv, rt,
	       prop.asyncEngineCount);

	CK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
	CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
	CK(cudaHostAlloc(&pin, 64 * MB, cudaHostAllocDefault));
	pageable = (char *)malloc(64 * MB);
	if (!pageable)
		return 2;
	memset(pageable, 0x5a, 64 * MB);	/* fault the pages in first */
	memset(pin, 0xa5, 64 * MB);
	CK(cudaMalloc(&dev, 1024 * MB));
	CK(cudaMalloc(&dev2, 1024 * MB));
	CK(cudaMalloc(&sink, 4));

	for (size_t i = 0; i < sizeof(sizes_kb) / sizeof(sizes_kb[0]); i++) {
		size_t n = sizes_kb[i] * 1024;
		int reps = sizes_kb[i] >= 16384 ? 20 : sizes_kb[i] >= 1024 ? 50 : 200;
		float hp = time_copy(dev, pin, n, cudaMemcpyHostToDevice, reps, s0);
		float dp = time_copy(pin, dev, n, cudaMemcpyDeviceToHost, reps, s0);
		float hg = time_copy(dev, pageable, n, cudaMemcpyHostToDevice, reps, s0);
		float dg = time_copy(pageable, dev, n, cudaMemcpyDeviceToHost, reps, s0);

		printf("CEIL copy size_mb=%g h2d_pinned=%.1f d2h_pinned=%.1f "
		       "h2d_pageable=%.1f d2h_pageable=%.1f (GB/s, median)\n",
		       sizes_kb[i] / 1024.0, n / hp / 1e6, n / dp / 1e6, n / hg / 1e6,
		       n / dg / 1e6);
	}
	{
		float ms = time_copy(dev2, dev, 1024 * MB, cudaMemcpyDeviceToDevice,
				     20, s0);

		printf("CEIL d2d size_mb=1024 copy=%.1f read_plus_write=%.1f (GB/s, median)\n",
		       1024 * MB / ms / 1e6, 2 * 1024 * MB / ms / 1e6);
	}
	{
		/* size the kernel to about the copy's time, then run both */
		size_t n = 64 * MB;
		float tc = time_copy(dev, pin, n, cudaMemcpyHostToDevice, 20, s0);
		uint32_t iters = 1 << 14;
		float tk = time_spin(iters, sink, s1);

		tk = time_spin(iters, sink, s1);
		iters = (uint32_t)(iters * (tc / tk));
		std::vector<float> vk, vb;
		cudaEvent_t a, b, c0, c1;

		CK(cudaEventCreate(&a));
		CK(cudaEventCreate(&b));
		CK(cudaEventCreate(&c0));
		CK(cudaEventCreate(&c1));
		for (int r = 0; r < 22; r++) {
			float kms, both;

			kms = time_spin(iters, sink, s1);
			/* both: start events on s0, s1 waits on it, copy on s0 */
			CK(cudaDeviceSynchronize());
			CK(cudaEventRecord(a, s0));
			CK(cudaStreamWaitEvent(s1, a, 0));
			spin<<<1024, 256, 0, s1>>>(iters, sink);
			CK(cudaGetLastError());
			CK(cudaMemcpyAsync(dev, pin, n, cudaMemcpyHostToDevice, s0));
			CK(cudaEventRecord(c0, s1));
			CK(cudaStreamWaitEvent(s0, c0, 0));
			CK(cudaEventRecord(b, s0));
			CK(cudaEventSynchronize(b));
			CK(cudaEventElapsedTime(&both, a, b));
			if (r >= 2) {
				vk.push_back(kms);
				vb.push_back(both);
			}
		}
		float mk = median(vk), mb = median(vb);
		float hidden = (tc + mk - mb) / std::min(tc, mk);

		printf("CEIL overlap size_mb=64 copy_ms=%.3f kernel_ms=%.3f "
		       "both_ms=%.3f serial_ms=%.3f overlap=%.0f%% "
		       "h2d_during_kernel=%.1f GB/s\n",
		       tc, mk, mb, tc + mk, 100.0 * hidden, n / mb / 1e6);
	}
	CK(cudaFreeHost(pin));
	CK(cudaFree(dev));
	CK(cudaFree(dev2));
	CK(cudaFree(sink));
	free(pageable);
	printf("ceilings: done\n");
	return 0;
}
