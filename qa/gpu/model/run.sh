#!/bin/bash
# The ac-cuda kernel cost model: a MODEL of the H200, not a measurement.
#   qa/gpu/model/run.sh [--ci] [model options: --mb N, -v, --instr-scale X, ...]
# Builds qa/gpu/model/model, prepares its inputs (ET Open 4.0 fast patterns,
# payloads of bench-1x.pcap) under $MODEL_CACHE (default /tmp/ac-model),
# runs every kernel variant on the CPU, checks each against ac_search, and
# prints the table. Exit status: 0 all variants equal ac, 1 one differs
# or ptx-steps.h is stale (see ptx-count.py), 2 bad input or build.
#
# --ci: a 1 MB sample, and never the minutes-long bench-1x build: it uses
# bench-1x.pcap when $BENCH_PCAP or the cache has it, else the payloads
# of the first captures in $SHARED/data/pcaps/ndpi; without ../shared, the
# synthetic patterns of qa/gpu/ac-proto and generated payloads. Under 60 s
# on 2 cores.
# Without --ci and without a bench-1x.pcap, it makes one with
# $SHARED/tools/make-bench-pcap.sh (needs mergecap; a few minutes).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
shared=${SURICATA_SHARED:-$top/../shared}
cache=${MODEL_CACHE:-/tmp/ac-model}
proto=$top/qa/gpu/ac-proto
ci=0
for a in "$@"; do [ "$a" = --ci ] && ci=1; done
mkdir -p "$cache"
# The model's instructions per step are the kernels' PTX counts
# (ptx-steps.h): stale after a kernel change until ptx-count.py --write
# regenerates it (without nvcc only a warning).
python3 "$here/ptx-count.py" --check "$here/ptx-steps.h" >&2 || exit 1
make -s -C "$here" B="$cache/bin" >&2 || exit 2

rules=$shared/data/rules/et-open-4.0
if [ -d "$rules" ]; then
	pats=$cache/et-open-fast.hex
	[ -s "$pats" ] || python3 "$proto/extract-patterns.py" "$pats" "$rules"/emerging-*.rules >&2
	bench=${BENCH_PCAP:-$cache/bench-1x.pcap}
	if [ ! -s "$bench" ] && [ $ci = 0 ]; then
		echo "run.sh: making bench-1x.pcap in $cache (a few minutes)" >&2
		"$shared/tools/make-bench-pcap.sh" "$cache" 1 >&2
	fi
	if [ -s "$bench" ]; then
		pl=$cache/bench-1x.payloads
		[ -s "$pl" ] && [ "$pl" -nt "$bench" ] || python3 "$proto/extract-payloads.py" "$bench" "$pl" >&2
	else
		# CI without a bench capture: the first classic captures of ndpi
		pl=$cache/ndpi-sample.payloads
		if [ ! -s "$pl" ]; then
			n=0 files=()
			for f in "$shared"/data/pcaps/ndpi/*.pcap; do
				[ -f "$f" ] || continue
				files+=("$f"); n=$((n + 1)); [ $n -ge 40 ] && break
			done
			python3 - "$pl" "$proto/extract-payloads.py" "${files[@]}" <<'PY' >&2
import struct, subprocess, sys, tempfile, os
out, ex, files = sys.argv[1], sys.argv[2], sys.argv[3:]
lens, data = [], []
for f in files:
    with tempfile.NamedTemporaryFile(delete=False) as t:
        tmp = t.name
    if subprocess.run([sys.executable, ex, f, tmp], capture_output=True).returncode == 0:
        d = open(tmp, 'rb').read()
        n = struct.unpack('<I', d[4:8])[0]
        ls = struct.unpack('<%dI' % n, d[8:8 + 4 * n])
        lens += ls; data.append(d[8 + 4 * n:])
    os.unlink(tmp)
with open(out, 'wb') as o:
    o.write(b'ACPL' + struct.pack('<I', len(lens)) + struct.pack('<%dI' % len(lens), *lens))
    for d in data: o.write(d)
print('ndpi sample: %d captures, %d payloads' % (len(files), len(lens)))
PY
		fi
	fi
else
	echo "run.sh: $rules not found: synthetic patterns and payloads" >&2
	pats=$proto/synthetic-patterns.hex
	pl=$cache/synthetic.payloads
	[ -s "$pl" ] || python3 - "$pats" "$pl" <<'PY'
import random, struct, sys
random.seed(7)
pats = [bytes.fromhex(l.strip()) for l in open(sys.argv[1]) if l.strip()]
lens, body = [], bytearray()
for i in range(4000):
    n = random.randint(1, 1460)
    b = bytearray(random.choice(b'abcdefghij klmnop\r\n\x00') for _ in range(n))
    for _ in range(random.randint(0, 3)):
        p = random.choice(pats)
        if len(p) < n:
            at = random.randint(0, n - len(p)); b[at:at + len(p)] = p
    lens.append(n); body += b
open(sys.argv[2], 'wb').write(b'ACPL' + struct.pack('<I', len(lens)) +
                              struct.pack('<%dI' % len(lens), *lens) + bytes(body))
PY
fi
rc=0
"$cache/bin/model" "$@" "$pats" "$pl" || rc=$?

# Engine-like batches (engine-batch.py: two views per TCP payload, three
# groups, payloads up to 64 KiB, cut into windows or 12.6 MB batches):
# from bench-1x, else the ndpi captures of the sample above.
if [ -d "$rules" ]; then
	eb=$cache/engine caps=()
	if [ -s "${bench:-}" ]; then
		caps=("$bench")
	else
		n=0
		for f in "$shared"/data/pcaps/ndpi/*.pcap; do
			[ -f "$f" ] || continue
			caps+=("$f"); n=$((n + 1)); [ $n -ge 40 ] && break
		done
	fi
	if [ ${#caps[@]} -gt 0 ]; then
		if [ ! -s "$eb/engine.acpg" ] || [ "${caps[0]}" -nt "$eb/engine.acpg" ]; then
			python3 "$here/engine-batch.py" "$rules" "$eb" "${caps[@]}" >&2 || exit 2
		fi
		echo
		"$cache/bin/model" "$@" --engine "$eb/engine.acpg" "$eb"/group-0.hex "$eb"/group-1.hex \
			"$eb"/group-2.hex || rc=$?
	fi
fi
exit $rc
