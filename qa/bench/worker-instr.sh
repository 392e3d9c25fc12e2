#!/bin/bash
# Worker-thread instructions per packet of two builds, from callgrind
# (--separate-threads=yes): the per-packet cost a change adds or saves,
# without the start-up (rule loading, matcher compile) a whole-run count
# holds, and stable on this noisy machine. Decides what a packet-rate
# ratio would say.
#
#   qa/bench/worker-instr.sh BASE_BIN NEW_BIN [PCAP [RULES]]
#     defaults: /tmp/bench/bench-1x.pcap, every ET Open emerging-*.rules.
#   env: ALGOS="ac hs" (the mpm-algo values to run)
#        SCOPE=single: the whole packet phase of --runmode single instead
#        (capture_worker: reading the capture, decoding, flows, detection,
#        output), for changes outside the workers (the capture reader)
# Prints per algorithm: instructions per packet of the workers, and NEW/BASE.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${SURICATA_SHARED:-$root/../shared}
base=${1:?BASE_BIN}; new=${2:?NEW_BIN}
pcap=${3:-/tmp/bench/bench-1x.pcap}
rules=${4:-}
tmp=$(mktemp -d /tmp/worker-instr.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
command -v valgrind >/dev/null || { echo "FAIL: worker-instr: valgrind not found"; exit 1; }
[ -f "$pcap" ] || { echo "FAIL: worker-instr: no $pcap (../shared/tools/make-bench-pcap.sh)"; exit 1; }
if [ -z "$rules" ]; then
	cat "$shared"/data/rules/et-open-4.0/emerging-*.rules > "$tmp/rules" ||
		{ echo "FAIL: worker-instr: no ET rules under $shared"; exit 1; }
	rules=$tmp/rules
fi
ratio=$(python3 -c "import os; print(1 / os.cpu_count())")
scope=${SCOPE:-workers}
common=(-c "$root/suricata.yaml" -r "$pcap" -S "$rules" --runmode autofp -k none
	--set "threading.detect-thread-ratio=$ratio")
vg=(--separate-threads=yes)
if [ "$scope" = single ]; then
	common=(-c "$root/suricata.yaml" -r "$pcap" -S "$rules" --runmode single -k none)
	vg=(--toggle-collect=capture_worker)
fi
# libhtp stops decompressing a body after decompression-time-limit of
# wall-clock time: under valgrind that limit cuts in at random (bench-1x's
# inflate work varied 2x between two runs of one binary), so lift it
common+=(--set "app-layer.protocols.http.libhtp.default-config.decompression-time-limit=4294967295")
[ -f "$shared/data/rules/et-open-4.0/classification.config" ] &&
	common+=(--set "classification-file=$shared/data/rules/et-open-4.0/classification.config")

worker_ir() {  # dir: the workers' instructions (the packet phase's, SCOPE=single)
	local fn=worker_main
	[ "$scope" = single ] && fn=capture_worker
	python3 - "$1" "$fn" <<'PY'
import glob, os, re, sys
total = 0
for f in glob.glob(os.path.join(sys.argv[1], "cg.*")):
    text = open(f, errors="replace").read()
    fn = sys.argv[2]
    if not re.search(r"fn=\(\d+\) %s\b|fn=%s\b" % (fn, fn), text):
        continue
    m = re.search(r"^summary:\s+(\d+)", text, re.M) or re.search(r"^totals:\s+(\d+)", text, re.M)
    total += int(m.group(1)) if m else 0
print(total)
PY
}

packets() {
	python3 -c "
import json, sys
last = None
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get('event_type') == 'stats': last = r
print(last['stats']['decoder']['pkts'] if last else 0)" "$1/log/eve.json"
}

for algo in ${ALGOS:-ac hs}; do
	for which in base new; do
		bin=$base; [ $which = new ] && bin=$new
		d=$tmp/$algo-$which; mkdir -p "$d/log"
		valgrind --tool=callgrind "${vg[@]}" --callgrind-out-file="$d/cg.%p" \
			"$bin" "${common[@]}" -l "$d/log" --set mpm-algo=$algo > "$d/out" 2>&1 ||
			{ echo "FAIL: worker-instr: $algo $which run failed"; tail -5 "$d/out"; exit 1; }
	done
	b=$(worker_ir "$tmp/$algo-base"); n=$(worker_ir "$tmp/$algo-new"); pk=$(packets "$tmp/$algo-base")
	python3 -c "
b, n, pk = $b, $n, max($pk, 1)
print('%-3s $scope: base %.0f, new %.0f instructions/packet; new/base %.3f (%d packets)' % ('$algo', b / pk, n / pk, n / max(b, 1), pk))"
done
