#!/bin/bash
# Worker-thread CPU cost per packet, ac vs ac-cuda (host emulation), from
# callgrind instruction counts: stable on a noisy machine, and per thread
# (--separate-threads=yes), so the emulated device's kernel threads, the
# dispatcher and the completer are left out, and so is the capture (RX)
# thread, whose copy into the ring is reported on its own line.
#
#   qa/gpu/worker-cost.sh [SURICATA [PCAP [RULES]]]
#     defaults: ./src/suricata, /tmp/bench/bench-1x.pcap (made with
#     ../shared/tools/make-bench-pcap.sh when missing), all ET Open
#     emerging-*.rules under ../shared.
#   env: WORKERS=N (default 1): autofp workers in both runs.
# Prints a markdown table: instructions per packet by thread role, and the
# ratio ac-cuda / ac of the workers' (the target is <= 0.70).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${SURICATA_SHARED:-$root/../shared}
bin=${1:-$root/src/suricata}
pcap=${2:-/tmp/bench/bench-1x.pcap}
rules=${3:-}
workers=${WORKERS:-1}
tmp=$(mktemp -d /tmp/worker-cost.XXXXXX)
[ -n "${KEEP:-}" ] && echo "keeping $tmp" >&2 || trap 'rm -rf "$tmp"' EXIT
command -v valgrind >/dev/null || { echo "FAIL: worker-cost: valgrind not found"; exit 1; }
if [ ! -f "$pcap" ]; then
	"$shared/tools/make-bench-pcap.sh" "$tmp/bench" 1 >&2 || { echo "FAIL: worker-cost: no bench pcap"; exit 1; }
	pcap=$tmp/bench/bench-1x.pcap
fi
if [ -z "$rules" ]; then
	cat "$shared"/data/rules/et-open-4.0/emerging-*.rules > "$tmp/rules" 2>/dev/null ||
		{ echo "FAIL: worker-cost: no ET rules under $shared"; exit 1; }
	rules=$tmp/rules
fi
ratio=$(python3 -c "import os; print($workers / os.cpu_count())")
common=(-c "$root/suricata.yaml" -r "$pcap" -S "$rules" --runmode autofp
	--set "threading.detect-thread-ratio=$ratio")
[ -f "$shared/data/rules/et-open-4.0/classification.config" ] &&
	common+=(--set "classification-file=$shared/data/rules/et-open-4.0/classification.config")

run() {  # name, extra args
	local name=$1; shift
	mkdir -p "$tmp/$name/log"
	valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$tmp/$name/cg.%p" \
		"$bin" "${common[@]}" -l "$tmp/$name/log" "$@" > "$tmp/$name/out" 2>&1 ||
		{ echo "FAIL: worker-cost: $name run failed"; tail -5 "$tmp/$name/out"; exit 1; }
}
run ac --set mpm-algo=ac
run accuda --set mpm-algo=ac-cuda --set cuda.mpm.emulation=yes

python3 - "$tmp" <<'PY'
import glob, json, os, re, sys
tmp = sys.argv[1]

def roles(name):
    """Instructions by thread role: a thread is a worker if its profile
    holds worker_main, the emulated device if emu_kernel_thread, etc."""
    out = {}
    for f in glob.glob(os.path.join(tmp, name, "cg.*")):
        text = open(f, errors="replace").read()
        m = re.search(r"^summary:\s+(\d+)", text, re.M) or re.search(r"^totals:\s+(\d+)", text, re.M)
        ir = int(m.group(1)) if m else 0
        if "fn=" not in text:
            continue
        if re.search(r"fn=\(\d+\) worker_main|fn=worker_main", text):
            role = "workers"
        elif "emu_kernel_thread" in text:
            role = "emulated device (left out)"
        elif re.search(r"fn=\(\d+\) (dispatcher|completer)\b", text):
            role = "dispatcher + completer"
        elif "run_autofp" in text:
            role = "capture (RX) + main"
        else:
            role = "other (stats, flow manager)"
        out[role] = out.get(role, 0) + ir
    return out

def packets(name):
    last = None
    for line in open(os.path.join(tmp, name, "log", "eve.json")):
        r = json.loads(line)
        if r.get("event_type") == "stats":
            last = r
    return last["stats"]["decoder"]["pkts"] if last else 0

ac, cu = roles("ac"), roles("accuda")
pk = packets("ac") or 1
order = ["workers", "capture (RX) + main", "dispatcher + completer",
         "other (stats, flow manager)", "emulated device (left out)"]
print("| thread role | ac: instr/packet | ac-cuda: instr/packet |")
print("| --- | --- | --- |")
for r in order:
    a, c = ac.get(r, 0), cu.get(r, 0)
    if a or c:
        print("| %s | %.0f | %.0f |" % (r, a / pk, c / pk))
ratio = cu.get("workers", 0) / max(ac.get("workers", 1), 1)
print("\nworkers: ac-cuda / ac = %.3f (%d packets; target <= 0.70)" % (ratio, pk))
PY
