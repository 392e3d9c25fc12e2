/* The `cuda: mpm:` section of suricata.yaml, read once at start into a typed
 * struct for the ac-cuda matcher. Keys and defaults are those of the original
 * Suricata ac-cuda feature. */
#ifndef CONF_CUDA_MPM_CONF_H
#define CONF_CUDA_MPM_CONF_H

#include <stddef.h>
#include <stdint.h>

#define CUDA_MPM_DEFAULT_DATA_BUFFER_SIZE_MIN_LIMIT 0
#define CUDA_MPM_DEFAULT_DATA_BUFFER_SIZE_MAX_LIMIT 65535
#define CUDA_MPM_DEFAULT_CUDABUFFER_BUFFER_SIZE (500ULL * 1024 * 1024)
#define CUDA_MPM_DEFAULT_GPU_TRANSFER_SIZE (50ULL * 1024 * 1024)
/* The original feature's 2000 µs cut ~400 KB batches at the ~35 MB/s
 * that the reader ingests here (doc/gpu.md, "Measured"); 1 s lets the pool
 * share cut them (megabytes), and stays under autofp's 2 s order valve. */
#define CUDA_MPM_DEFAULT_BATCHING_TIMEOUT_US 1000000
#define CUDA_MPM_DEFAULT_DEVICE_ID 0
#define CUDA_MPM_DEFAULT_CUDA_STREAMS 2

/* Payload lengths travel as 16 bits in the ring, so no larger limit. */
#define CUDA_MPM_DATA_BUFFER_SIZE_MAX 65535
#define CUDA_MPM_CUDA_STREAMS_MAX 16

typedef struct CudaMpmConfig {
	uint64_t data_buffer_size_min_limit; /* smaller payloads stay on the CPU */
	uint64_t data_buffer_size_max_limit; /* larger payloads stay on the CPU */
	uint64_t cudabuffer_buffer_size;     /* page-locked ring, bytes */
	uint64_t gpu_transfer_size;          /* batch cut at this many bytes */
	uint64_t batching_timeout_us;        /* ... or when the oldest waited this long */
	int device_id;                       /* CUDA device ordinal */
	int cuda_streams;                    /* streams overlapping batches */
} CudaMpmConfig;

/* Fills cfg with the defaults above. */
void cuda_mpm_config_defaults(CudaMpmConfig *cfg);

/* Defaults, then the `cuda.mpm.*` keys of the global config tree, validated.
 * Returns 0, or -1 with one line in err naming the key, e.g.
 * "cuda.mpm.gpu-transfer-size: invalid size 'abc'". cfg is left untouched
 * on failure. */
int cuda_mpm_config_load(CudaMpmConfig *cfg, char *err, size_t errlen);

#endif
