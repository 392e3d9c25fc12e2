/* fuzz_yaml: the YAML loader (conf.c over libyaml), --set overrides, and the
 * typed configuration readers of every subsystem that a start-up runs.
 *
 * One input: yaml text, then optionally a last line that is a --set argument
 * ("name=value"): the text after the input's last newline (trailing
 * newlines left aside) when it holds an '='. The yaml is loaded as a string (`include:` is followed relative to the
 * current folder), the --set applied, the tree dumped as --dump-config does,
 * then read by the decoder, flow, stream, app-layer, detect, output and
 * cuda.mpm config loaders, as main() would; then the tree is freed. */
#include "fuzz-common.h"
#include "app-layer/app-layer.h"
#include "conf/conf.h"
#include "conf/cuda-mpm-conf.h"
#include "decode/decode.h"
#include "detect/engine.h"
#include "flow/flow.h"
#include "output/output.h"
#include "stream/stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	return 0;
}

static void typed_readers(void)
{
	DecodeConfig dc;
	FlowConfig fc;
	StreamConfig sc;
	AppLayerConfig ac;
	DetectConfig dec;
	CudaMpmConfig cc;
	OutputConfig oc;
	char err[1024];
	int64_t i;
	uint64_t u;
	int b;

	decode_config_load(&dc);
	flow_config_load(&fc);
	memset(&sc, 0, sizeof(sc));
	if (stream_config_load(&sc) == 0)
		stream_config_free(&sc);
	app_layer_config_load(&ac);
	detect_config_load(&dec, err, sizeof(err));
	cuda_mpm_config_load(&cc, err, sizeof(err));
	output_config_load(&oc, fuzz_tmpdir(), err, sizeof(err));
	/* the few keys main() reads itself */
	conf_get_int("max-pending-packets", &i);
	conf_get_bool("stats.enabled", &b);
	conf_get_int("stats.interval", &i);
	conf_get_size("flow.memcap", &u);
	conf_get_time_us("cuda.mpm.batching-timeout", &u);
	conf_get("runmode");
	conf_get("default-log-dir");
	conf_get_node("logging.outputs");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strndup(data, size);
	size_t n = strlen(text);
	char *nl, *set = NULL;
	char err[1024];

	while (n && text[n - 1] == '\n')
		text[--n] = '\0';
	nl = strrchr(text, '\n');
	if (nl && strchr(nl + 1, '=')) {
		*nl = '\0';
		set = nl + 1;
	}
	if (conf_load_string(text, "fuzz.yaml", err, sizeof(err)) == 0) {
		if (set)
			conf_set_kv(set);
		conf_dump(devnull);
		typed_readers();
	}
	conf_deinit();
	free(text);
	return 0;
}
