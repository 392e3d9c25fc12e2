#!/bin/bash
# ac-cuda vs ac: the alert sets must be equal (ARCHITECTURE.md, oracles).
#
#   qa/gpu/accuda-equal.sh [SURICATA [YAML [PCAP [RULES...]]]]
#     defaults: ./src/suricata, ./suricata.yaml, /work/bench/bench-1x.pcap
#               (or ../shared/tools/make-bench-pcap.sh builds it), and every
#               ../shared/data/rules/et-open-4.0/emerging-*.rules file.
#   env: ACCUDA_DEVICE=1   use the GPU (qa/gpu/check.sh on the H200); default
#                          is the host EMULATION (cuda.mpm.emulation: yes),
#                          so CI checks the whole pipeline without a GPU.
#        WORKERS=N         threading.detect-thread-ratio set so that about N
#                          workers run (default: the yaml's)
#        ACCUDA_FAIL=N     emulation only: every Nth batch fails on the
#                          "device" (cuda.mpm.test-opts fail=N), to check
#                          that this script notices (qa/gpu/accuda-equal-selftest.sh)
#
# Runs ac (runmode autofp) once, then ac-cuda in autofp with:
#   default   the shipped cuda.mpm settings;
#   tiny      a 1 KiB transfer, a 6 KiB ring, 8 payloads and 16 match records
#             per batch, 4 batch slots, min-limit 8, max-limit 512, a pool of
#             256 packets (windows of 32 per worker): forces many batches,
#             size and descriptor-table cuts, a worker's own cuts, ring
#             wrap-around, ring-full fallback, the overflow rescan, and the
#             below-min / above-max paths;
#   payload   the reference (one thread per payload) kernel, 64 KiB batches;
#   noverify  the default without the rule programs on the device
#             (test-opts verify=0): its verify counters must be 0, the
#             default run's not (the device verified candidates).
# Each ac-cuda run must give the same alerts (pcap_cnt, sid, addresses,
# ports; as a multiset) as ac. The tiny run must also show every path taken
# in its mpm.cuda.* counters. Equal alerts are not enough: a failed batch is
# rescanned on the CPU, so a dead GPU would still pass. So each run's eve
# stats must show no device error (mpm.cuda.error_batches 0), and the
# default run no overflow either (the tiny and payload runs are small on
# purpose). Prints PASS/FAIL lines and a summary table; exits 1 on any FAIL.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${SURICATA_SHARED:-$root/../shared}
bin=${1:-$root/src/suricata}
yaml=${2:-$root/suricata.yaml}
pcap=${3:-/work/bench/bench-1x.pcap}
shift $(( $# < 3 ? $# : 3 ))
tmp=$(mktemp -d /tmp/accuda-equal.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

if [ ! -f "$pcap" ]; then
	"$shared/tools/make-bench-pcap.sh" "$tmp/bench" 1 >&2 || { echo "FAIL: accuda-equal: no bench pcap"; exit 1; }
	pcap=$tmp/bench/bench-1x.pcap
fi
if [ $# -gt 0 ]; then
	cat "$@" > "$tmp/rules"
else
	cat "$shared"/data/rules/et-open-4.0/emerging-*.rules > "$tmp/rules" 2>/dev/null ||
		{ echo "FAIL: accuda-equal: no ET rules under $shared"; exit 1; }
fi
common=(-c "$yaml" -r "$pcap" -S "$tmp/rules" --runmode autofp)
[ -f "$shared/data/rules/et-open-4.0/classification.config" ] &&
	common+=(--set "classification-file=$shared/data/rules/et-open-4.0/classification.config")
if [ -n "${WORKERS:-}" ]; then
	ratio=$(python3 -c "import os; print($WORKERS / os.cpu_count())")
	common+=(--set "threading.detect-thread-ratio=$ratio")
fi
gpu=(--set mpm-algo=ac-cuda)
[ "${ACCUDA_DEVICE:-0}" = 1 ] || gpu+=(--set cuda.mpm.emulation=yes)
fail=${ACCUDA_FAIL:+,fail=$ACCUDA_FAIL}

run() {   # name, extra args...
	local name=$1; shift
	mkdir -p "$tmp/$name"
	local t0=$(date +%s.%N)
	timeout 300 "$bin" "${common[@]}" -l "$tmp/$name" "$@" > "$tmp/$name/out" 2>&1
	local rc=$?
	echo "$rc $(python3 -c "print('%.2f' % ($(date +%s.%N) - $t0))")" > "$tmp/$name/rc"
}

run ac --set mpm-algo=ac
run default "${gpu[@]}" ${fail:+--set cuda.mpm.test-opts=${fail#,}}
run tiny "${gpu[@]}" --set cuda.mpm.gpu-transfer-size=1kb \
	--set cuda.mpm.cudabuffer-buffer-size=6kb \
	--set cuda.mpm.data-buffer-size-min-limit=8 \
	--set cuda.mpm.data-buffer-size-max-limit=512 \
	--set cuda.mpm.batching-timeout=200 --set max-pending-packets=256 \
	--set cuda.mpm.test-opts=records=16,payloads=8,slots=4$fail
run payload "${gpu[@]}" --set cuda.mpm.gpu-transfer-size=64kb \
	--set cuda.mpm.test-opts=kernel=payload$fail
run noverify "${gpu[@]}" --set cuda.mpm.test-opts=verify=0$fail

python3 - "$tmp" <<'PY'
import json, sys, collections
tmp = sys.argv[1]
def load(name):
    rc, secs = open(f"{tmp}/{name}/rc").read().split()
    alerts, stats = collections.Counter(), {}
    try:
        for line in open(f"{tmp}/{name}/eve.json"):
            r = json.loads(line)
            if r.get("event_type") == "alert":
                alerts[(r.get("pcap_cnt"), r["alert"]["signature_id"], r.get("src_ip"),
                        r.get("src_port"), r.get("dest_ip"), r.get("dest_port"))] += 1
            elif r.get("event_type") == "stats":
                stats = r["stats"]
    except OSError:
        pass
    return int(rc), float(secs), alerts, stats.get("mpm", {}).get("cuda", {})
def flat(d, pre=""):
    for k, v in d.items():
        if isinstance(v, dict):
            yield from flat(v, pre + k + ".")
        else:
            yield pre + k, v
ok = True
rc, secs, ref, _ = load("ac")
rows = [("ac", rc, secs, sum(ref.values()), "-")]
if rc != 0:
    print(f"FAIL: accuda-equal (ac): exit {rc}"); ok = False
for name in ("default", "tiny", "payload", "noverify"):
    rc, secs, got, c = load(name)
    n = sum(got.values())
    if rc != 0:
        print(f"FAIL: accuda-equal ({name}): exit {rc}; see its output:")
        print(open(f"{tmp}/{name}/out").read()[-2000:]); ok = False
    elif got != ref:
        miss, extra = ref - got, got - ref
        print(f"FAIL: accuda-equal ({name}): {n} alerts vs ac's {sum(ref.values())}; "
              f"missing {sorted(miss)[:5]}, extra {sorted(extra)[:5]}"); ok = False
    else:
        print(f"PASS: accuda-equal ({name}): {n} alerts, same as ac")
    if name == "tiny" and rc == 0:
        need = ["cut.size", "cut.payloads", "cut.flush", "cut.timeout", "ring_wraps",
                "cpu.ring_full", "cpu.overflow", "cpu.below_min", "cpu.above_max"]
        fc = dict(flat(c))
        # a timeout cut needs the reader to pause; on a loaded box it may not
        # (end-of-input flushes: tests/e2e/accuda-*)
        miss = [k for k in need if not fc.get(k) and k != "cut.timeout"]
        if miss:
            print(f"FAIL: accuda-equal (tiny paths): not taken: {miss}"); ok = False
        else:
            print("PASS: accuda-equal (tiny paths): " +
                  ", ".join(f"{k}={fc.get(k, 0)}" for k in need))
    fc = dict(flat(c))
    if rc == 0 and name in ("default", "noverify"):
        # the device's rule programs ran (default) or were switched off
        dev, pas = fc.get("verify.packet_device", 0), fc.get("verify.packet_passed", 0)
        if (name == "default") != (dev > 0) or pas > dev:
            print(f"FAIL: accuda-equal ({name} verify): packet_device={dev} packet_passed={pas}")
            ok = False
        else:
            print(f"PASS: accuda-equal ({name} verify): the device verified {dev} packet "
                  f"candidates, {pas} held")
    if rc == 0:
        b, e, o = fc.get("batches", 0), fc.get("error_batches", 0), fc.get("overflow_batches", 0)
        # only the default run must be free of overflows: tiny and payload
        # have small record buffers on purpose
        if "batches" not in fc:
            print(f"FAIL: accuda-equal ({name} device): no mpm.cuda counters in eve stats"); ok = False
        elif e or (name == "default" and o):
            print(f"FAIL: accuda-equal ({name} device): {e + o} of {b} batches failed on the "
                  f"device ({e} errors, {o} overflows) and were rescanned on the CPU"); ok = False
        else:
            print(f"PASS: accuda-equal ({name} device): {fc.get('gpu_batches', b)} of {b} "
                  f"batches used the device results ({o} overflows)")
    rows.append((name, rc, secs, n, f"batches={fc.get('batches', 0)} gpu={fc.get('gpu_batches', 0)} "
                 f"errors={fc.get('error_batches', 0)} overflows={fc.get('overflow_batches', 0)} "
                 f"payloads={fc.get('payloads_gpu', 0)} ring_full={fc.get('cpu.ring_full', 0)} "
                 f"p50={fc.get('batch_payloads_p50', 0)}pl/{fc.get('batch_bytes_p50', 0)}B "
                 f"emulation={fc.get('emulation', '?')}"))
print(f"{'run':8} {'exit':>4} {'secs':>7} {'alerts':>7}  mpm.cuda")
for r in rows:
    print(f"{r[0]:8} {r[1]:>4} {r[2]:>7.2f} {r[3]:>7}  {r[4]}")
sys.exit(0 if ok else 1)
PY
