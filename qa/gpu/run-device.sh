#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# run-device.sh - the one device-machine run for the GPU groundwork:
#   1. copy ceilings (qa/gpu/ceilings.cu)
#   2. AC prototype kernels a/b/c, each checked against the CPU reference
#   3. the carried runtime libraries + static cudart probe
# Builds with the machine's nvcc (falls back to binaries carried in
# .gpucarry/bin), logs everything under $OUT, prints a short table last.
# Needs .gpucarry/ (patterns.hex, payloads.bin, debs/, bin/) carried.
# Meant to finish in well under 6 minutes.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
OUT=${OUT:-/tmp/qa-gpu-out}
mkdir -p "$OUT"
B=/tmp/qa-gpu-build
C=$top/.gpucarry
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }

stamp "gpu info"
{
	nvidia-smi
	nvidia-smi --query-gpu=name,driver_version,pci.bus_id,pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,clocks.sm,clocks.mem,memory.total --format=csv
	command -v nvcc && nvcc --version
	uname -a; nproc; grep -m1 'model name' /proc/cpuinfo
} > "$OUT/gpu-info.txt" 2>&1

stamp "build"
export PATH=$PATH:/usr/local/cuda/bin
{
	make -C qa/gpu ceilings B=$B &&
	make -C qa/gpu/ac-proto gpu B=$B
} > "$OUT/build.log" 2>&1
if [ $? -ne 0 ] || [ ! -x $B/ceilings ] || [ ! -x $B/ac-gpu ]; then
	echo "build on the device failed: using the carried binaries" | tee -a "$OUT/build.log"
	mkdir -p $B
	cp "$C/bin/ceilings" "$C/bin/ac-gpu" $B/ 2>/dev/null
fi

stamp "ceilings"
timeout 120 $B/ceilings > "$OUT/ceilings.log" 2>&1
echo "rc=$?" >> "$OUT/ceilings.log"

stamp "ac-gpu (ET fast patterns)"
timeout 200 $B/ac-gpu "$C/patterns.hex" "$C/payloads.bin" --runs 20 > "$OUT/ac-gpu.log" 2>&1
echo "rc=$?" >> "$OUT/ac-gpu.log"

stamp "ac-gpu (supplement: patterns of 4+ bytes, 50 MB)"
timeout 60 $B/ac-gpu "$C/patterns.hex" "$C/payloads.bin" --minlen 4 --batches 50 --runs 20 \
	> "$OUT/ac-gpu-minlen4.log" 2>&1
echo "rc=$?" >> "$OUT/ac-gpu-minlen4.log"

stamp "probe (carried runtime libraries + cudart_static)"
timeout 60 qa/gpu/carry.sh probe /tmp/qa-gpu-rt > "$OUT/probe.log" 2>&1
echo "rc=$?" >> "$OUT/probe.log"
stamp "done"

{
	echo "== GPU"
	nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current --format=csv,noheader 2>&1
	echo "== copy bandwidth (GB/s, median)"
	printf '%-8s %10s %10s %12s %12s\n' MB h2d_pin d2h_pin h2d_pageable d2h_pageable
	grep '^CEIL copy' "$OUT/ceilings.log" | sed 's/[a-z_0-9]*=//g' |
		awk '{ printf "%-8s %10s %10s %12s %12s\n", $3, $4, $5, $6, $7 }'
	grep -E '^CEIL (d2d|overlap)' "$OUT/ceilings.log" | cut -c6-
	echo "== AC kernels, kernel-only (median of runs; equal = match set == CPU)"
	printf '%-22s %5s %8s %8s %6s %9s %5s %7s\n' variant MB Gbit/s best states match/KB equal minlen
	cat "$OUT/ac-gpu.log" "$OUT/ac-gpu-minlen4.log" | grep '^RESULT' |
		awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		       printf "%-22s %5s %8s %8s %6s %9s %5s %7s\n", v["variant"], v["batch_mb"],
		       v["gbps"], v["gbps_best"], v["states"], v["per_kb"], v["equal_cpu"], v["minlen"] }'
	grep -h -E '^ac-gpu:|MISMATCH|CUDA error|no CUDA' "$OUT/ac-gpu.log" "$OUT/ac-gpu-minlen4.log"
	echo "== probe"
	grep -E '^(cuda:|probe:|no CUDA)' "$OUT/probe.log"
	grep -h '^rc=' "$OUT"/*.log | tr '\n' ' '; echo
} > "$OUT/table.txt" 2>&1
cat "$OUT/table.txt"
