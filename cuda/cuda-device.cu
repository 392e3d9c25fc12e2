#include "cuda-device.h"

#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

static void no_device_msg(cudaError_t rc, char *err, size_t errlen)
{
	snprintf(err, errlen,
		 "no CUDA driver or device: cudaGetDeviceCount failed: %s (error %d); "
		 "install the NVIDIA driver and check that a GPU is visible (nvidia-smi), "
		 "or use mpm-algo ac",
		 cudaGetErrorString(rc), (int)rc);
}

extern "C" int cuda_device_count(char *err, size_t errlen)
{
	int n = 0;
	cudaError_t rc = cudaGetDeviceCount(&n);

	if (rc != cudaSuccess) {
		no_device_msg(rc, err, errlen);
		return -1;
	}
	if (n == 0) {
		snprintf(err, errlen, "no CUDA driver or device: the driver reports no GPU");
		return -1;
	}
	return n;
}

extern "C" int cuda_card_info(int id, CudaCardInfo *info, char *err, size_t errlen)
{
	cudaDeviceProp prop;
	cudaError_t rc = cudaGetDeviceProperties(&prop, id);
	int clock_khz = 0;

	if (rc != cudaSuccess) {
		snprintf(err, errlen, "CUDA device %d: %s", id, cudaGetErrorString(rc));
		return -1;
	}
	memset(info, 0, sizeof(*info));
	info->id = id;
	snprintf(info->name, sizeof(info->name), "%s", prop.name);
	info->multiprocessors = prop.multiProcessorCount;
	/* cudaDeviceProp.clockRate is gone in CUDA 13: ask the attribute. */
	if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, id) == cudaSuccess)
		info->clock_mhz = clock_khz / 1000;
	info->cc_major = prop.major;
	info->cc_minor = prop.minor;
	info->total_mem = prop.totalGlobalMem;
	return 0;
}

extern "C" int cuda_list_cards(FILE *out, char *err, size_t errlen)
{
	int n = cuda_device_count(err, errlen);

	if (n < 0)
		return -1;
	fprintf(out, "CUDA cards: %d\n", n);
	fprintf(out, "%-4s %-32s %6s %10s %8s %12s\n", "Id", "Name", "MPs", "Clock MHz",
		"Compute", "Memory MB");
	for (int i = 0; i < n; i++) {
		CudaCardInfo ci;

		if (cuda_card_info(i, &ci, err, errlen) != 0)
			return -1;
		fprintf(out, "%-4d %-32s %6d %10d %6d.%d %12zu\n", ci.id, ci.name,
			ci.multiprocessors, ci.clock_mhz, ci.cc_major, ci.cc_minor,
			ci.total_mem >> 20);
	}
	return 0;
}

extern "C" void cuda_versions(char *runtime, size_t rlen, char *driver, size_t dlen)
{
	int rv = 0, dv = 0;

	cudaRuntimeGetVersion(&rv);
	snprintf(runtime, rlen, "%d.%d", rv / 1000, (rv % 1000) / 10);
	if (cudaDriverGetVersion(&dv) == cudaSuccess && dv > 0)
		snprintf(driver, dlen, "%d.%d", dv / 1000, (dv % 1000) / 10);
	else
		snprintf(driver, dlen, "none");
}
