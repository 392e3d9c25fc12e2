/* The engine's start and stop for the harnesses that run captures through
 * the whole pipeline (fuzz_pipeline, fuzz_rule): what main() does for
 * `-r FILE --runmode single -k none -l DIR`, made repeatable per input. */
#ifndef QA_FUZZ_FUZZ_ENGINE_H
#define QA_FUZZ_FUZZ_ENGINE_H

#include "runmode/runmode.h"

struct DetectEngine;
struct json_t;

/* Loads suricata.yaml with the harness overrides (small pool and flow table,
 * outputs into out_dir) and reads the typed config into cfg, as main()'s
 * load_config and engine_config_load. Aborts when the shipped yaml fails. */
void fuzz_engine_config(EngineConfig *cfg, const char *out_dir);

/* One run over capture (file or folder) with detection engine de (may be
 * NULL): counters registered, outputs opened, runmode_run, everything
 * closed, counters destroyed; then the memory gauges must be back at zero
 * (else abort: accounted memory leaked) and out_dir is emptied.
 * 0, or -1 when the capture cannot be opened (not an error for a fuzzer). */
int fuzz_engine_run(const EngineConfig *cfg, struct DetectEngine *de, const char *capture,
		    const char *out_dir);

/* The app-layer harnesses' checks of one transaction (fuzz_ber, fuzz_ics,
 * fuzz_misc): o (taken, may be NULL) must dump as JSON, as eve writes it
 * (abort otherwise); each buffer of bufs whose protocol is alproto is read
 * on both sides, up to 64 entries. Returns a value to keep the reads. */
unsigned fuzz_tx_eve_object(struct json_t *o);
unsigned fuzz_tx_buffers(const int *bufs, size_t n, unsigned alproto, void *tx);

#endif
