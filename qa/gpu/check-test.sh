#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# qa/gpu/check-test.sh - CI's test of the device check, without a GPU:
#   1. GPU_DRY=1 qa/gpu/check.sh: prepare .gpucarry-dry from this tree's
#      --enable-cuda build, run every step on the host emulation; must exit 0
#      with "RESULT: PASS", 2 files under $OUT, and a budget under 6 minutes.
#   2. the same carry with GPU_CHECK_BREAK=perf: must exit non-zero, the
#      table must name perf as FAIL, and the steps around it still PASS
#      (each step stands alone).
#   3. qa/gpu/replicate-pcap.py (the device's bench-10x): 3 copies of an
#      IPv4 and of an IPv6 TCP capture give the engine (ac) 3x the packets
#      and 3x the alerts of detect-content-tcp's rules: every copy's flows
#      are new flows and its checksums still pass validation. With copies
#      10 s apart (flows still alive), multi-flow.pcap and ipv6-udp.pcap give
#      3x the flows: the moved addresses keep the copies apart, not the gap.
#   4. qa/gpu/perf-matrix.py (the perf step) on 4 copies of http-files.pcap,
#      ac vs ac-cuda (emulation): passes as it is; with every batch hung
#      (test-opts hang=1, watchdog-ms=20) the run ends, the alerts stay ac's,
#      mpm.cuda.watchdog counts the batch, and the script FAILs on it.
# Run from an --enable-cuda build tree. Last line: "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
pass=0; fail=0
ok() { echo "PASS: $*"; pass=$((pass + 1)); }
ko() { echo "FAIL: $*"; fail=$((fail + 1)); }
tmp=$(mktemp -d /tmp/gpu-check-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

GPU_DRY=1 GPU_WORK=$tmp/dry OUT=$tmp/dry-out qa/gpu/check.sh > "$tmp/dry.log" 2>&1
rc=$?
sed -n '/^== ac-cuda device check (/,$p' "$tmp/dry.log"
if [ $rc = 0 ] && grep -q '^RESULT: PASS' "$tmp/dry.log"; then
	ok "gpu check dry run: every step PASS or SKIP"
else
	tail -40 "$tmp/dry.log"; ko "gpu check dry run: exit $rc"
fi
n=$(find "$tmp/dry-out" -type f 2>/dev/null | wc -l)
[ "$n" -ge 1 ] && [ "$n" -le 8 ] && ok "gpu check dry run: $n files under \$OUT (at most 8)" ||
	ko "gpu check dry run: $n files under \$OUT"
b=$(sed -n 's/^time budget: .* = \([0-9]*\) s .*/\1/p' "$tmp/dry.log")
[ -n "$b" ] && [ "$b" -lt 360 ] && ok "gpu check: time budget $b s < 360 s" || ko "gpu check: time budget '$b'"

GPU_DRY=1 GPU_DRY_PREPARED=1 GPU_CHECK_BREAK=perf GPU_CHECK_STEPS="setup kbench perf sanitizer" \
	GPU_WORK=$tmp/brk OUT=$tmp/brk-out qa/gpu/check.sh > "$tmp/brk.log" 2>&1
rc=$?
if [ $rc != 0 ] && grep -Eq '^perf +FAIL' "$tmp/brk.log" && grep -q '^RESULT: FAIL (1 step(s): perf)' "$tmp/brk.log" &&
   grep -Eq '^kbench +PASS' "$tmp/brk.log" && grep -Eq '^sanitizer +SKIP' "$tmp/brk.log"; then
	ok "gpu check with GPU_CHECK_BREAK=perf: exit $rc, the table names perf, the other steps ran"
else
	sed -n '/^== ac-cuda device check (/,$p' "$tmp/brk.log"; ko "gpu check with GPU_CHECK_BREAK=perf: exit $rc"
fi
sed -e "s|[@]e_sysconfdir[@]|$top/etc/|g" -e "s|[@]e_rulesdir[@]|$top/rules|g" \
	-e 's|[@]e_logdir[@]|./|g' suricata.yaml.in > "$tmp/rep.yaml"
# "alerts packets" of one engine run with mpm-algo ac
rep_run() {
	rm -rf "$tmp/rep"; mkdir -p "$tmp/rep"
	src/suricata -c "$tmp/rep.yaml" -r "$1" -S tests/e2e/detect-content-tcp/test.rules \
		-l "$tmp/rep" --set mpm-algo=ac -k none > "$tmp/rep/out" 2>&1 || { echo "exit $?"; return; }
	echo "$(grep -c '"event_type":"alert"' "$tmp/rep/eve.json") $(cat "$tmp/rep/out" "$tmp/rep/suricata.log" 2>/dev/null |
		sed -n 's/.*read 1 files, \([0-9]*\) packets.*/\1/p' | head -1)"
}
for p in ipv4-tcp ipv6-tcp; do
	python3 qa/gpu/replicate-pcap.py "tests/data/pcaps/$p.pcap" "$tmp/$p-x3.pcap" 3 > /dev/null
	one=$(rep_run "tests/data/pcaps/$p.pcap"); three=$(rep_run "$tmp/$p-x3.pcap")
	set -- $one
	if [ $# = 2 ] && [ "$1" -gt 0 ] && [ "$three" = "$(($1 * 3)) $(($2 * 3))" ]; then
		ok "replicate-pcap.py x3 of $p: alerts, packets $one -> $three"
	else
		ko "replicate-pcap.py x3 of $p: alerts, packets '$one' -> '$three' (want 3x)"
	fi
done
# flows in eve of one engine run on $1
flows() {
	rm -rf "$tmp/rep"; mkdir -p "$tmp/rep"
	src/suricata -c "$tmp/rep.yaml" -r "$1" -l "$tmp/rep" --set mpm-algo=ac -k none > "$tmp/rep/out" 2>&1 ||
		{ echo "exit $?"; return; }
	grep -c '"event_type":"flow"' "$tmp/rep/eve.json"
}
for p in multi-flow ipv6-udp; do
	python3 qa/gpu/replicate-pcap.py "tests/data/pcaps/$p.pcap" "$tmp/$p-x3.pcap" 3 10 > /dev/null
	one=$(flows "tests/data/pcaps/$p.pcap"); three=$(flows "$tmp/$p-x3.pcap")
	if [ "$one" -gt 0 ] 2>/dev/null && [ "$three" = $((one * 3)) ]; then
		ok "replicate-pcap.py x3, 10 s apart, of $p: flows $one -> $three"
	else
		ko "replicate-pcap.py x3, 10 s apart, of $p: flows '$one' -> '$three' (want 3x)"
	fi
done
python3 qa/gpu/replicate-pcap.py tests/data/pcaps/http-files.pcap "$tmp/hf-x4.pcap" 4 > /dev/null
pm() {   # perf-matrix.py, ac vs ac-cuda, 2 workers, once; extra args
	python3 qa/gpu/perf-matrix.py --bin src/suricata --yaml "$tmp/rep.yaml" \
		--rules tests/e2e/detect-content-tcp/test.rules --pcap "$tmp/hf-x4.pcap" \
		--out "$tmp/pm" --budget 60 --dry --reps 1 --rows "ac:2*,ac-cuda:2*" "$@"
}
pm > "$tmp/pm.log" 2>&1
rc=$?
if [ $rc = 0 ] && [ "$(grep -c '^run .*exit 0' "$tmp/pm.log")" = 2 ]; then
	ok "perf-matrix.py: ac and ac-cuda (emulation) pass"
else
	cat "$tmp/pm.log"; ko "perf-matrix.py: ac and ac-cuda: exit $rc"
fi
pm --cuda-set cuda.mpm.test-opts=hang=1,watchdog-ms=20 > "$tmp/pm.log" 2>&1
rc=$?
a1=$(sed -n 's/^run ac  .* \([0-9]*\) alerts$/\1/p' "$tmp/pm.log")
a2=$(sed -n 's/^run ac-cuda .* \([0-9]*\) alerts$/\1/p' "$tmp/pm.log")
if [ $rc = 1 ] && grep -q '^FAIL: ac-cuda/2/d: watchdog [1-9]' "$tmp/pm.log" &&
   [ -n "$a1" ] && [ "$a1" -gt 0 ] && [ "$a1" = "$a2" ]; then
	ok "perf-matrix.py: hung batches: watchdog counted and a FAIL, alerts $a1 = $a2"
else
	cat "$tmp/pm.log"; ko "perf-matrix.py with hang=1: exit $rc, alerts '$a1' '$a2'"
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
