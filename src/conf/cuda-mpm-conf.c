/* Reads `cuda: mpm:`. Values are parsed here rather than through the logging
 * getters so that the one error line goes to the caller, who knows whether
 * ac-cuda was asked for and can say so. */
#include "util/strnum.h"
#include "conf/cuda-mpm-conf.h"
#include "conf/conf.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define CUDA_MPM_PREFIX "cuda.mpm."

enum cuda_key_kind { KIND_SIZE, KIND_TIME_US, KIND_INT };

static void set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

void cuda_mpm_config_defaults(CudaMpmConfig *cfg)
{
	cfg->data_buffer_size_min_limit = CUDA_MPM_DEFAULT_DATA_BUFFER_SIZE_MIN_LIMIT;
	cfg->data_buffer_size_max_limit = CUDA_MPM_DEFAULT_DATA_BUFFER_SIZE_MAX_LIMIT;
	cfg->cudabuffer_buffer_size = CUDA_MPM_DEFAULT_CUDABUFFER_BUFFER_SIZE;
	cfg->gpu_transfer_size = CUDA_MPM_DEFAULT_GPU_TRANSFER_SIZE;
	cfg->batching_timeout_us = CUDA_MPM_DEFAULT_BATCHING_TIMEOUT_US;
	cfg->device_id = CUDA_MPM_DEFAULT_DEVICE_ID;
	cfg->cuda_streams = CUDA_MPM_DEFAULT_CUDA_STREAMS;
}

static int parse_i64(const char *v, int64_t *out)
{
	return str_to_i64(v, 10, out);
}

/* Reads one key into *out (unchanged when absent). 0 or -1 with err set. */
static int read_key(const char *key, enum cuda_key_kind kind, int64_t *ival,
		    uint64_t *uval, char *err, size_t errlen)
{
	char path[128];
	const ConfNode *n;
	const char *v;
	int64_t x;

	snprintf(path, sizeof(path), CUDA_MPM_PREFIX "%s", key);
	n = conf_get_node(path);
	if (!n)
		return 0;
	v = n->val;
	if (!v) {
		/* `key:` with nothing after it keeps the default, as in Suricata;
		 * a map or list there is a mistake worth reporting. */
		if (!n->child && !n->is_seq)
			return 0;
		set_err(err, errlen, "%s: expected a value, not a %s", path,
			n->is_seq ? "list" : "map");
		return -1;
	}
	switch (kind) {
	case KIND_SIZE:
		if (parse_size(v, uval) < 0) {
			set_err(err, errlen, "%s: invalid size '%s'", path, v);
			return -1;
		}
		return 0;
	case KIND_TIME_US:
		if (parse_i64(v, &x) < 0) {
			set_err(err, errlen, "%s: invalid time '%s' (microseconds)",
				path, v);
			return -1;
		}
		if (x < 0) {
			set_err(err, errlen, "%s: must be >= 0 (got %s)", path, v);
			return -1;
		}
		*uval = (uint64_t)x;
		return 0;
	case KIND_INT:
		if (parse_i64(v, &x) < 0 || x < INT32_MIN || x > INT32_MAX) {
			set_err(err, errlen, "%s: invalid integer '%s'", path, v);
			return -1;
		}
		*ival = x;
		return 0;
	}
	return -1;
}

static int validate(const CudaMpmConfig *c, char *err, size_t errlen)
{
	if (c->data_buffer_size_max_limit > CUDA_MPM_DATA_BUFFER_SIZE_MAX) {
		set_err(err, errlen,
			CUDA_MPM_PREFIX "data-buffer-size-max-limit: %" PRIu64
			" exceeds the largest payload, %d",
			c->data_buffer_size_max_limit, CUDA_MPM_DATA_BUFFER_SIZE_MAX);
		return -1;
	}
	if (c->data_buffer_size_min_limit > c->data_buffer_size_max_limit) {
		set_err(err, errlen,
			CUDA_MPM_PREFIX "data-buffer-size-min-limit: %" PRIu64
			" is greater than data-buffer-size-max-limit %" PRIu64,
			c->data_buffer_size_min_limit, c->data_buffer_size_max_limit);
		return -1;
	}
	if (c->cudabuffer_buffer_size == 0) {
		set_err(err, errlen,
			CUDA_MPM_PREFIX "cudabuffer-buffer-size: must be greater than 0");
		return -1;
	}
	if (c->gpu_transfer_size == 0) {
		set_err(err, errlen,
			CUDA_MPM_PREFIX "gpu-transfer-size: must be greater than 0");
		return -1;
	}
	/* A batch is cut from the ring, so it can never be bigger than it. */
	if (c->gpu_transfer_size > c->cudabuffer_buffer_size) {
		set_err(err, errlen,
			CUDA_MPM_PREFIX "gpu-transfer-size: %" PRIu64
			" is greater than cudabuffer-buffer-size %" PRIu64,
			c->gpu_transfer_size, c->cudabuffer_buffer_size);
		return -1;
	}
	if (c->device_id < 0) {
		set_err(err, errlen, CUDA_MPM_PREFIX "device-id: must be >= 0 (got %d)",
			c->device_id);
		return -1;
	}
	if (c->cuda_streams < 1 || c->cuda_streams > CUDA_MPM_CUDA_STREAMS_MAX) {
		set_err(err, errlen,
			CUDA_MPM_PREFIX "cuda-streams: must be between 1 and %d (got %d)",
			CUDA_MPM_CUDA_STREAMS_MAX, c->cuda_streams);
		return -1;
	}
	return 0;
}

int cuda_mpm_config_load(CudaMpmConfig *cfg, char *err, size_t errlen)
{
	CudaMpmConfig c;
	int64_t device_id, streams;

	if (err && errlen)
		err[0] = '\0';
	cuda_mpm_config_defaults(&c);
	device_id = c.device_id;
	streams = c.cuda_streams;
	if (read_key("data-buffer-size-min-limit", KIND_SIZE, NULL,
		     &c.data_buffer_size_min_limit, err, errlen) < 0 ||
	    read_key("data-buffer-size-max-limit", KIND_SIZE, NULL,
		     &c.data_buffer_size_max_limit, err, errlen) < 0 ||
	    read_key("cudabuffer-buffer-size", KIND_SIZE, NULL,
		     &c.cudabuffer_buffer_size, err, errlen) < 0 ||
	    read_key("gpu-transfer-size", KIND_SIZE, NULL,
		     &c.gpu_transfer_size, err, errlen) < 0 ||
	    read_key("batching-timeout", KIND_TIME_US, NULL,
		     &c.batching_timeout_us, err, errlen) < 0 ||
	    read_key("device-id", KIND_INT, &device_id, NULL, err, errlen) < 0 ||
	    read_key("cuda-streams", KIND_INT, &streams, NULL, err, errlen) < 0)
		return -1;
	c.device_id = (int)device_id;
	c.cuda_streams = (int)streams;
	if (validate(&c, err, errlen) < 0)
		return -1;
	*cfg = c;
	return 0;
}
