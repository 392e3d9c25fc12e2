// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe.c - proves on the device machine that a program of ours, built on
 * the dev machine against the engine's runtime libraries (libpcap, libyaml,
 * jansson, libhtp, PCRE2, Hyperscan) and the static CUDA runtime, starts
 * there with the carried libraries and sees the GPU.  Each library is
 * exercised a little, not only linked, so a wrong ABI shows up here.
 * Exit 0 when all is well, 1 on a library failure, 2 when no GPU.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <cuda_runtime.h>
#include <hs/hs.h>
#include <htp/htp.h>
#include <jansson.h>
#include <pcap/pcap.h>
#include <pcre2.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

static int on_match(unsigned int id, unsigned long long from,
		    unsigned long long to, unsigned int flags, void *ctx)
{
	(void)id; (void)from; (void)flags;
	*(unsigned long long *)ctx = to;
	return 0;
}

static int check_hyperscan(void)
{
	hs_database_t *db = NULL;
	hs_compile_error_t *err = NULL;
	hs_scratch_t *scratch = NULL;
	unsigned long long end = 0;
	const char data[] = "GET /index.html HTTP/1.1";

	if (hs_compile("index", HS_FLAG_CASELESS, HS_MODE_BLOCK, NULL, &db,
		       &err) != HS_SUCCESS) {
		printf("hyperscan: compile failed: %s\n", err ? err->message : "?");
		hs_free_compile_error(err);
		return 1;
	}
	if (hs_alloc_scratch(db, &scratch) != HS_SUCCESS ||
	    hs_scan(db, data, sizeof(data) - 1, 0, scratch, on_match, &end) !=
	    HS_SUCCESS || end != 10) {
		printf("hyperscan: scan failed (end %llu)\n", end);
		return 1;
	}
	hs_free_scratch(scratch);
	hs_free_database(db);
	printf("hyperscan %s: match end %llu ok\n", hs_version(), end);
	return 0;
}

static int check_pcre2(void)
{
	int ec;
	PCRE2_SIZE eo;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)"^GET\\s+(/\\S*)",
				       PCRE2_ZERO_TERMINATED, 0, &ec, &eo, NULL);
	pcre2_match_data *md;
	char ver[32];
	int rc;

	if (!re)
		return 1;
	md = pcre2_match_data_create_from_pattern(re, NULL);
	rc = pcre2_match(re, (PCRE2_SPTR)"GET /a HTTP/1.0", 15, 0, 0, md, NULL);
	pcre2_config(PCRE2_CONFIG_VERSION, ver);
	pcre2_match_data_free(md);
	pcre2_code_free(re);
	printf("pcre2 %s: match rc %d %s\n", ver, rc, rc == 2 ? "ok" : "BAD");
	return rc != 2;
}

static int check_yaml_json(void)
{
	yaml_parser_t p;
	yaml_event_t ev;
	const unsigned char doc[] = "mpm-algo: ac-cuda\n";
	int events = 0, done = 0;
	json_t *j = json_pack("{s:s,s:i}", "event_type", "probe", "ok", 1);
	char *s = json_dumps(j, JSON_COMPACT);

	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, doc, sizeof(doc) - 1);
	while (!done && yaml_parser_parse(&p, &ev)) {
		done = ev.type == YAML_STREAM_END_EVENT;
		events++;
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	printf("libyaml %s: %d events; jansson %s: %s\n",
	       yaml_get_version_string(), events, JANSSON_VERSION, s ? s : "?");
	done = done && s && strstr(s, "\"ok\":1");
	free(s);
	json_decref(j);
	return !done;
}

static int check_gpu(void)
{
	int n = 0, drv = 0, rt = 0;
	struct cudaDeviceProp prop;
	void *d = NULL;
	cudaError_t e = cudaGetDeviceCount(&n);

	if (e != cudaSuccess || n == 0) {
		printf("no CUDA driver or device (%s)\n",
		       e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
		return 2;
	}
	if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess ||
	    cudaDriverGetVersion(&drv) != cudaSuccess ||
	    cudaRuntimeGetVersion(&rt) != cudaSuccess ||
	    cudaMalloc(&d, 1 << 20) != cudaSuccess ||
	    cudaMemset(d, 0, 1 << 20) != cudaSuccess ||
	    cudaDeviceSynchronize() != cudaSuccess) {
		printf("CUDA call failed: %s\n", cudaGetErrorString(cudaGetLastError()));
		return 2;
	}
	cudaFree(d);
	printf("cuda: %d device(s); 0: %s cc %d.%d, %d SMs, %.0f MiB; driver API %d, "
	       "static runtime %d\n", n, prop.name, prop.major, prop.minor,
	       prop.multiProcessorCount, prop.totalGlobalMem / 1048576.0, drv, rt);
	return 0;
}

int main(void)
{
	int bad = 0, gpu;
	htp_cfg_t *cfg = htp_config_create();

	printf("libpcap: %s\n", pcap_lib_version());
	printf("libhtp: %s, config %s\n", htp_get_version(), cfg ? "ok" : "FAILED");
	bad |= !cfg;
	if (cfg)
		htp_config_destroy(cfg);
	bad |= check_yaml_json();
	bad |= check_pcre2();
	bad |= check_hyperscan();
	gpu = check_gpu();
	printf("probe: %s\n", gpu ? "NO GPU" : bad ? "LIBRARY FAILURE" : "OK");
	return gpu ? 2 : bad;
}
