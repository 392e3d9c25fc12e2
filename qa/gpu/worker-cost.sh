#!/bin/bash
# Host CPU cost per packet by thread role, hs vs ac-cuda (host emulation) by
# default, from callgrind instruction counts: stable on a noisy machine, and
# per thread (--separate-threads=yes), so each role (RX, W, ACC-DISP,
# ACC-DONE, ACC-EMU) is apart, and the "host" sum leaves out only the
# emulated device's kernel threads and the start-up (main thread).
#
#   qa/gpu/worker-cost.sh [SURICATA [PCAP [RULES]]]
#     defaults: ./src/suricata, /tmp/bench/bench-1x.pcap (made with
#     ../shared/tools/make-bench-pcap.sh when missing), all ET Open
#     emerging-*.rules under ../shared.
#   env: WORKERS=N (default 1): autofp workers in both runs.
#   env: ALGOS="hs ac-cuda" (default; any of ac, hs, ac-cuda, the baseline
#        first).
# Prints a markdown table: instructions per packet by thread role, and the
# ratio of the host sums (issue 34's target: ac-cuda / hs <= 0.85).
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
# stats.interval: the stats thread writes a record every interval of WALL
# time, and under callgrind a run lasts ~17 minutes: 2 to 25 records
# (~2.4 M instructions each, ~30 a packet) came with the scheduling, not
# with the packets. One record at the end is the same for every algorithm.
common=(-c "$root/suricata.yaml" -r "$pcap" -S "$rules" --runmode autofp
	--set "threading.detect-thread-ratio=$ratio" --set stats.interval=86400)
[ -f "$shared/data/rules/et-open-4.0/classification.config" ] &&
	common+=(--set "classification-file=$shared/data/rules/et-open-4.0/classification.config")

run() {  # name, extra args
	local name=$1; shift
	mkdir -p "$tmp/$name/log"
	valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$tmp/$name/cg.%p" \
		"$bin" "${common[@]}" -l "$tmp/$name/log" "$@" > "$tmp/$name/out" 2>&1 ||
		{ echo "FAIL: worker-cost: $name run failed"; tail -5 "$tmp/$name/out"; exit 1; }
}
algos=${ALGOS:-hs ac-cuda}
for a in $algos; do
	if [ "$a" = ac-cuda ]; then
		run "$a" --set mpm-algo=ac-cuda --set cuda.mpm.emulation=yes
	else
		run "$a" --set mpm-algo="$a"
	fi
done

python3 - "$tmp" $algos <<'PY'
import glob, json, os, re, sys
tmp, algos = sys.argv[1], sys.argv[2:]
# A thread's role, by the function its thread starts in (callgrind's
# per-thread profiles carry no thread names).
ROLES = [("W", r"worker_main|capture_thread_main"), ("RX", r"rx_main"),
         ("ACC-DISP", r"dispatcher"), ("ACC-DONE", r"completer"),
         ("ACC-EMU", r"emu_kernel_thread"), ("CS", r"stats_main")]
HOST = ("W", "RX", "ACC-DISP", "ACC-DONE", "CS", "other")

def roles(name):
    out = {}
    for f in glob.glob(os.path.join(tmp, name, "cg.*")):
        text = open(f, errors="replace").read()
        m = re.search(r"^summary:\s+(\d+)", text, re.M) or re.search(r"^totals:\s+(\d+)", text, re.M)
        ir = int(m.group(1)) if m else 0
        if "fn=" not in text:
            continue
        role = "other"
        for r, fn in ROLES:
            if re.search(r"fn=(\(\d+\) )?(%s)\b" % fn, text):
                role = r
                break
        else:
            if re.search(r"fn=(\(\d+\) )?main\b", text):
                role = "main (start-up, left out)"
        out[role] = out.get(role, 0) + ir
    return out

def packets(name):
    last = None
    for line in open(os.path.join(tmp, name, "log", "eve.json")):
        r = json.loads(line)
        if r.get("event_type") == "stats":
            last = r
    return last["stats"]["decoder"]["pkts"] if last else 0

res = {a: roles(a) for a in algos}
pk = packets(algos[0]) or 1
names = ["W", "RX", "ACC-DISP", "ACC-DONE", "CS", "other", "ACC-EMU", "main (start-up, left out)"]
print("| thread role | " + " | ".join("%s: instr/packet" % a for a in algos) + " |")
print("| --- |" + " --- |" * len(algos))
for r in names:
    if any(res[a].get(r) for a in algos):
        label = r + (" (emulated device, left out)" if r == "ACC-EMU" else "")
        print("| %s | %s |" % (label, " | ".join("%.0f" % (res[a].get(r, 0) / pk) for a in algos)))
host = {a: sum(v for k, v in res[a].items() if k in HOST) for a in algos}
print("| host (all but start-up and the emulated device) | %s |" %
      " | ".join("%.0f" % (host[a] / pk) for a in algos))
if len(algos) == 2:
    print("\nhost: %s / %s = %.3f (%d packets)" % (algos[1], algos[0],
          host[algos[1]] / max(host[algos[0]], 1), pk))
PY
