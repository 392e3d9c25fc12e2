#!/bin/bash
# End-to-end packets/s of mpm-algo ac vs ac-cuda, runmode autofp, ET rules.
#
#   qa/bench/accuda-bench.sh [PCAP [RULES_DIR]]
#     PCAP       default /work/bench/bench-1x.pcap
#     RULES_DIR  default ../shared/data/rules/et-open-4.0 (emerging-*.rules)
#   env: SUR_BIN (./src/suricata), YAML (./suricata.yaml),
#        RATIOS ("0.125 0.5 0.875": threading.detect-thread-ratio values;
#                on a 16-core box 2, 8 and 14 workers),
#        ACCUDA_DEVICE=1 for the GPU; otherwise the host EMULATION (the
#                numbers then say nothing about a GPU: CI smoke only),
#        EXTRA (more --set arguments for the ac-cuda runs)
# Prints one line per run (algo, workers, seconds, packets/s, alerts and the
# mpm.cuda batch/wait/kernel figures), then a table.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
pcap=${1:-/work/bench/bench-1x.pcap}
rules_dir=${2:-$root/../shared/data/rules/et-open-4.0}
SUR_BIN=${SUR_BIN:-$root/src/suricata}
YAML=${YAML:-$root/suricata.yaml}
RATIOS=${RATIOS:-0.125 0.5 0.875}
tmp=$(mktemp -d /tmp/accuda-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cat "$rules_dir"/emerging-*.rules > "$tmp/rules" || exit 1
gpu=(--set mpm-algo=ac-cuda)
[ "${ACCUDA_DEVICE:-0}" = 1 ] || gpu+=(--set cuda.mpm.emulation=yes)
ncpu=$(nproc)

printf '%-8s %7s %8s %10s %7s  %s\n' algo workers secs pkts/s alerts mpm.cuda > "$tmp/table"
for r in $RATIOS; do
	for algo in ac ac-cuda; do
		d=$tmp/$algo-$r; mkdir -p "$d"
		if [ $algo = ac ]; then a=(--set mpm-algo=ac); else a=("${gpu[@]}" ${EXTRA:-}); fi
		t0=$(date +%s.%N)
		"$SUR_BIN" -c "$YAML" -r "$pcap" -S "$tmp/rules" -l "$d" --runmode autofp -k none \
			--set "threading.detect-thread-ratio=$r" "${a[@]}" > "$d/out" 2>&1
		rc=$?
		t1=$(date +%s.%N)
		python3 - "$d" "$rc" "$t0" "$t1" "$algo" "$r" "$ncpu" >> "$tmp/table" <<'PY'
import json, re, sys
d, rc, t0, t1, algo, r, ncpu = sys.argv[1:]
secs = float(t1) - float(t0)
out = open(d + "/out").read()
m = re.search(r"read \d+ files, (\d+) packets", out)
pk = int(m.group(1)) if m else 0
alerts, c = 0, {}
try:
    for line in open(d + "/eve.json"):
        e = json.loads(line)
        if e["event_type"] == "alert":
            alerts += 1
        elif e["event_type"] == "stats":
            c = e["stats"].get("mpm", {}).get("cuda", {})
except OSError:
    pass
w = max(1, int(int(ncpu) * float(r) + 0.5))
extra = ""
if c:
    kus = c.get("kernel_us", 0)
    gbit = c.get("bytes_gpu", 0) * 8 / (kus * 1e3) if kus else 0
    extra = (f"batches={c.get('batches')} avg={c.get('batch_bytes_avg')}B "
             f"wait={c.get('wait_us_avg')}us kernel={kus}us ({gbit:.1f} Gbit/s) "
             f"h2d={c.get('h2d_us')}us cpu.ring_full={c['cpu'].get('ring_full')} "
             f"overflow={c['cpu'].get('overflow')} emulation={c.get('emulation')}")
print(f"{algo:8} {w:7} {secs:8.2f} {pk / secs if secs else 0:10.0f} {alerts:7}  "
      f"{'exit ' + rc if rc != '0' else extra}")
PY
	done
done
cat "$tmp/table"
