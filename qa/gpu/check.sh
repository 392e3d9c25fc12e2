#!/bin/bash
# qa/gpu/check.sh - the ac-cuda device check, one run on the H200 (< 8 min).
#   run:  qa/gpu/check.sh        (from the tree root, on the device machine)
#   carry: .gpucarry (qa/gpu/carry.sh download: runtime .debs), plus
#          .gpucarry/bench-1x.pcap and .gpucarry/et-open-4.0/ (the ET rules);
#          BENCH_PCAP / RULES_DIR override them.
# Steps (each logged under $OUT, a table printed last):
#   1. runtime libraries unpacked into a prefix (never into /)
#   2. ./configure --enable-cuda NVCC_GENCODE="-gencode arch=compute_90,code=sm_90"; make
#   3. --list-cuda-cards; tests/unit/test_accuda (emulation and sizing paths);
#      tests/unit/test_ackernel (every kernel, the CUDA ones too, against ac)
#   4. alerts: ac vs ac-cuda ON THE DEVICE, bench-1x + ET rules, default,
#      tiny (many batches, wrap, ring-full, overflow) and payload-kernel runs
#      (qa/gpu/accuda-equal.sh with ACCUDA_DEVICE=1)
#   5. kernels alone on device-resident batches (qa/gpu/ac-proto ac-gpu,
#      Gbit/s; the engine's kernels: qa/gpu/model/kbench, to set beside the
#      cost model's table in RESULTS.md) and pinned H2D/D2H bandwidth
#      (qa/gpu/ceilings)
#   6. end-to-end packets/s, ac vs ac-cuda, 2/8/14 workers
#      (threading.detect-thread-ratio 0.125/0.5/0.875; qa/bench/accuda-bench.sh);
#      the engine's own kernel/copy times come from mpm.cuda.kernel_us/h2d_us
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
OUT=${OUT:-/tmp/qa-gpu-check}
mkdir -p "$OUT"
C=$top/.gpucarry
BENCH_PCAP=${BENCH_PCAP:-$C/bench-1x.pcap}
RULES_DIR=${RULES_DIR:-$C/et-open-4.0}
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
res=()

stamp "libraries"
if [ -d "$C/debs" ]; then
	sh qa/gpu/carry.sh unpack /tmp/gpucarry > "$OUT/carry.log" 2>&1
	eval "$(sh qa/gpu/carry.sh env /tmp/gpucarry)"
fi
export PATH=$PATH:/usr/local/cuda/bin
nvidia-smi > "$OUT/gpu-info.txt" 2>&1

stamp "build"
{ ./autogen.sh && ./configure --enable-cuda NVCC_GENCODE="-gencode arch=compute_90,code=sm_90" &&
  make -j16 && make -j16 tests/unit/test_accuda tests/unit/test_ackernel qa/gpu/model/kbench; } \
	> "$OUT/build.log" 2>&1
if [ ! -x src/suricata ]; then
	tail -30 "$OUT/build.log"; echo "build failed"; exit 1
fi
res+=("build: ok")

stamp "cards + unit tests"
./src/suricata --list-cuda-cards > "$OUT/cards.txt" 2>&1; res+=("list-cuda-cards: exit $?")
timeout 120 ./tests/unit/test_accuda > "$OUT/test_accuda.log" 2>&1
res+=("test_accuda: $(tail -1 "$OUT/test_accuda.log")")
timeout 120 ./tests/unit/test_ackernel > "$OUT/test_ackernel.log" 2>&1
res+=("test_ackernel: $(tail -1 "$OUT/test_ackernel.log")")

stamp "alerts ac vs ac-cuda on the device"
ACCUDA_DEVICE=1 timeout 180 qa/gpu/accuda-equal.sh ./src/suricata ./suricata.yaml "$BENCH_PCAP" \
	"$RULES_DIR"/emerging-*.rules > "$OUT/equal.log" 2>&1
res+=("equality: $(grep -c '^PASS' "$OUT/equal.log") pass, $(grep -c '^FAIL' "$OUT/equal.log") fail")

stamp "kernels alone + copy ceilings"
if [ -f "$C/patterns.hex" ] && [ -f "$C/payloads.bin" ]; then
	timeout 120 ./qa/gpu/model/kbench --mb 50 --reps 20 "$C/patterns.hex" "$C/payloads.bin" \
		> "$OUT/kbench.txt" 2>&1
	res+=("kbench (engine kernels, 50 MB): exit $?, see kbench.txt")
fi
{ make -C qa/gpu ceilings B=/tmp/qa-gpu-b && make -C qa/gpu/ac-proto gpu B=/tmp/qa-gpu-b; } > "$OUT/proto-build.log" 2>&1
[ -x /tmp/qa-gpu-b/ceilings ] && timeout 60 /tmp/qa-gpu-b/ceilings > "$OUT/ceilings.txt" 2>&1
[ -x /tmp/qa-gpu-b/ac-gpu ] && [ -f "$C/patterns.hex" ] &&
	timeout 90 /tmp/qa-gpu-b/ac-gpu "$C/patterns.hex" "$C/payloads.bin" > "$OUT/ac-gpu.txt" 2>&1

stamp "end-to-end packets/s"
ACCUDA_DEVICE=1 RATIOS="0.125 0.5 0.875" timeout 200 qa/bench/accuda-bench.sh "$BENCH_PCAP" "$RULES_DIR" \
	> "$OUT/bench.txt" 2>&1

stamp "done"
echo "== ac-cuda device check"
printf '%s\n' "${res[@]}"
tail -6 "$OUT/equal.log"
grep -iE "pinned|H2D" "$OUT/ceilings.txt" 2>/dev/null | head -6
tail -8 "$OUT/ac-gpu.txt" 2>/dev/null
cat "$OUT/bench.txt"
