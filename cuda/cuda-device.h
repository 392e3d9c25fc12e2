/* The host's view of CUDA devices, callable from C. Built only with --enable-cuda.
 * The runtime is linked statically (cudart_static), so the binary starts on
 * machines without a driver; these calls then fail with a clear message. */
#ifndef CUDA_CUDA_DEVICE_H
#define CUDA_CUDA_DEVICE_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct CudaCardInfo {
	int id;
	char name[256];
	int multiprocessors;
	int clock_mhz;
	int cc_major, cc_minor;
	size_t total_mem;
	size_t free_mem;
} CudaCardInfo;

/* Number of devices (> 0), or -1 with one line in err naming cause and fix. */
int cuda_device_count(char *err, size_t errlen);

/* Fills info for device id. 0, or -1 with err. */
int cuda_card_info(int id, CudaCardInfo *info, char *err, size_t errlen);

/* --list-cuda-cards: prints the table. 0, or -1 with err (no driver/device). */
int cuda_list_cards(FILE *out, char *err, size_t errlen);

/* Runtime and driver versions as "13.0" strings (driver "none" without one). */
void cuda_versions(char *runtime, size_t rlen, char *driver, size_t dlen);

#ifdef __cplusplus
}
#endif

#endif
