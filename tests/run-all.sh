#!/bin/bash
# The whole suite (make test): unit test programs, end-to-end cases, and when
# ../shared sits next to the source tree, a small sample of the pcap sweep.
#   tests/run-all.sh BUILDDIR SRCDIR
# Every "PASS: x" / "FAIL: x" line of every part is counted; failures are
# repeated at the end; the last line is "N passed, N failed" (exit 1 on any FAIL).
# SWEEP_SAMPLE=N changes the sweep sample size (default 20, 0 turns it off).
# The live captures and the operator tools run as two lanes beside the rest
# (RUN_ALL_SERIAL=1: one after the other); their output follows the rest's.
# RUN_ALL_SECOND_BUILD=1 leaves out the parts whose result does not depend on
# the build under test (python self-tests, the GPU kernels' own CPU build, the
# charts, ac-cuda = ac on every e2e rule case): .ci/run sets it for the
# sanitizer build's run, after the plain one.
builddir=$(cd "${1:-.}" && pwd)
srcdir=$(cd "${2:-$(dirname "$0")/..}" && pwd)
export TESTS_DIR="$srcdir/tests"
log=$(mktemp /tmp/run-all.XXXXXX)
trap 'rm -f "$log" "$log".*_lane*' EXIT

# Runs one part; its lines go to the screen and the log, minus its own
# "N passed, N failed" summary (only ours may end the output), then the
# part's wall time when 5 s or more (for whoever keeps CI under its budget).
part() {
	local t0=$SECONDS rc name=$1
	[ "$name" = python3 ] && name=$2
	"$@" 2>&1 | grep -Ev '^[0-9]+ passed, [0-9]+ failed$' | tee -a "$log"
	rc=${PIPESTATUS[0]}
	[ $((SECONDS - t0)) -lt 5 ] || echo "-- $((SECONDS - t0)) s: ${name##*/}"
	return "$rc"
}

echo "== unit tests"
found=0
for t in "$builddir"/tests/unit/test_*; do
	[ -f "$t" ] && [ -x "$t" ] || continue
	case "$t" in *.o|*.c|*.log|*.trs) continue ;; esac
	found=1
	name=$(basename "$t")
	before=$(grep -c '^FAIL:' "$log")
	part "$t"
	rc=$?
	after=$(grep -c '^FAIL:' "$log")
	# a crash or a non-zero exit without a FAIL line is a failure too
	if [ "$rc" -ne 0 ] && [ "$before" = "$after" ]; then
		echo "FAIL: $name (exit $rc without a FAIL line)" | tee -a "$log"
	fi
done
[ $found = 1 ] || echo "FAIL: unit tests: no tests/unit/test_* programs in $builddir (run make check first)" | tee -a "$log"

# The live, sink and operations parts wait on the wire and the clock
# (tcpreplay at fixed rates, timeouts, daemons), not on the CPU: they run as
# two more lanes beside the CPU-bound parts (e2e, suricata-verify, the GPU
# emulation), each with a log of its own; their output is shown after the
# first lane's. RUN_ALL_SERIAL=1 runs them after the rest, one at a time.
# (Every part names its namespaces, veths and temp folders by its pid.)
live_lane() {
	# Live capture (AF_PACKET, libpcap) through a veth pair in a namespace of its
	# own: root only (CI runs as root); SKIPs with its reason otherwise.
	echo "== live capture (tests/live/run.sh)"
	part "$srcdir/tests/live/run.sh" "$builddir" "$srcdir"
	echo "== two interfaces in one process, live (tests/live/multi-iface.sh)"
	part "$srcdir/tests/live/multi-iface.sh" "$builddir" "$srcdir"
	echo "== bench-1x with ET Open, live (tests/live/bench1x.sh)"
	SURICATA_SHARED="$shared" part "$srcdir/tests/live/bench1x.sh" "$builddir" "$srcdir"
	# ac-cuda (host emulation) in workers and single, live, against -r with ac:
	# SKIPs without CUDA support (./configure --enable-cuda; .ci/run's first build)
	echo "== ac-cuda on live captures (tests/live/accuda.sh)"
	SURICATA_SHARED="$shared" part "$srcdir/tests/live/accuda.sh" "$builddir" "$srcdir"
	echo "== rule reload and the unix socket, live (tests/live/reload.sh)"
	part "$srcdir/tests/live/reload.sh" "$builddir" "$srcdir"
	echo "== inline IPS: NFQUEUE and AF_PACKET IPS, drop/pass/reject (tests/live/ips.sh)"
	SURICATA_SHARED="$shared" part "$srcdir/tests/live/ips.sh" "$builddir" "$srcdir"
}

# eve-log sinks and the operator's tools: daemons, sockets, files
ops_lane() {
	# eve-log to sockets, syslog and a redis-server of its own (loopback, a free
	# port, no persistence); the redis and slow-reader parts need ../shared.
	echo "== eve-log sinks (tests/sinks/run.sh)"
	SURICATA_SHARED="$shared" part "$srcdir/tests/sinks/run.sh" "$builddir" "$srcdir"

	# the unix-socket runmode: pcap files sent over the socket, one run each
	echo "== unix-socket runmode (tests/ops/unix-socket.sh)"
	part "$srcdir/tests/ops/unix-socket.sh" "$builddir" "$srcdir"
	# Suricata 8's 49 unix-socket commands against a running engine
	echo "== unix-socket commands (tests/ops/unix-socket-commands.sh)"
	part "$srcdir/tests/ops/unix-socket-commands.sh" "$builddir" "$srcdir"

	# the same 49 as Suricata's own client sends them (suricatasc, or our copy of its ways)
	echo "== suricatasc (tests/ops/suricatasc.sh)"
	part "$srcdir/tests/ops/suricatasc.sh" "$builddir" "$srcdir"

	# -r on a FIFO (`-r <(zcat x.pcap.gz)`): read whole, once
	echo "== a capture from a pipe (tests/ops/pcap-pipe.sh)"
	part "$srcdir/tests/ops/pcap-pipe.sh" "$builddir" "$srcdir"

	# --pcap-file-recursive, --pcap-file-delete, --pcap-file-continuous
	echo "== pcap-file folder options (tests/ops/pcap-file-options.sh)"
	part "$srcdir/tests/ops/pcap-file-options.sh" "$builddir" "$srcdir"

	# the threads' names as Suricata gives them (W#01.., CS), read from /proc
	echo "== thread names (tests/ops/thread-names.sh)"
	part "$srcdir/tests/ops/thread-names.sh" "$builddir" "$srcdir"
	# threading.cpu-affinity: each thread's CPUs read back from /proc
	echo "== cpu affinity (tests/ops/cpu-affinity.sh)"
	part "$srcdir/tests/ops/cpu-affinity.sh" "$builddir" "$srcdir"

	# Debian's suricata-update, offline, on a tarball of ../shared's ET Open 4.0:
	# its -T step passes with our binary (SKIPs without ../shared or the tool).
	echo "== a full disk under eve.json (tests/ops/full-disk.sh)"
	part "$srcdir/tests/ops/full-disk.sh" "$builddir" "$srcdir"

	echo "== suricata-update (tests/ops/suricata-update.sh)"
	SURICATA_SHARED="$shared" part "$srcdir/tests/ops/suricata-update.sh" "$builddir" "$srcdir"

	# --user nobody: SIGHUP reopens and file-store keep working after the drop
	# (a live capture in a namespace: root only, SKIPs otherwise)
	echo "== run-as (tests/ops/run-as.sh)"
	part "$srcdir/tests/ops/run-as.sh" "$builddir" "$srcdir"

	# an emptied rule file reloaded, -S on a FIFO or /dev/zero, stale spools
	echo "== operator guards (tests/ops/guards.sh)"
	part "$srcdir/tests/ops/guards.sh" "$builddir" "$srcdir"

	# a bad variable, output or eve type: exit 1 and one line, -T and a run
	echo "== configuration mistakes (tests/ops/bad-config.sh)"
	part "$srcdir/tests/ops/bad-config.sh" "$builddir" "$srcdir"
	# make install into a scratch prefix, then the shipped unit's ExecStart, the
	# shipped logrotate file and USR2 on a live capture (root; SKIPs otherwise)
	echo "== a sensor's install (tests/ops/install.sh)"
	part "$srcdir/tests/ops/install.sh" "$builddir" "$srcdir"
	# qa/bench/plot.py: every chart drawn from today's tables, the ones README.md
	# and doc/ show among them (SKIPs without matplotlib)
	if [ "${RUN_ALL_SECOND_BUILD:-0}" != 1 ]; then
		echo "== benchmark charts (tests/ops/charts.sh)"
		part "$srcdir/tests/ops/charts.sh" "$builddir" "$srcdir"
	fi
}

# the lanes read it too
shared="${SURICATA_SHARED:-$srcdir/../shared}"
lanes=(live_lane ops_lane)
lane_pids=()
if [ "${RUN_ALL_SERIAL:-0}" != 1 ]; then
	for l in "${lanes[@]}"; do
		( log=$log.$l; "$l" ) > "$log.$l.out" 2>&1 < /dev/null &
		lane_pids+=($!)
	done
fi

echo "== end-to-end"
part "$srcdir/tests/e2e/run.sh" "$builddir" "$srcdir"

sample=${SWEEP_SAMPLE:-20}
if [ -d "$shared/data/pcaps" ]; then
	if [ "$sample" -gt 0 ]; then
		echo "== pcap sweep (sample of $sample captures)"
		SWEEP_DIR="$shared/data/pcaps" SWEEP_SAMPLE=$sample part "$srcdir/qa/pcap-sweep.sh" "$builddir/src/suricata" "$builddir/suricata.yaml"
	fi
else
	echo "SKIP: pcap sweep sample (../shared not found)"
	echo "SKIP: eve schema validation (../shared not found)"
fi

if [ -d "$shared/suricata-verify/tests" ]; then
	echo "== suricata-verify (tests in qa/verify/pass-list.txt)"
	part python3 "$srcdir/qa/verify/run.py" --suricata "$builddir/src/suricata" \
		--yaml "$builddir/suricata.yaml" --verify-dir "$shared/suricata-verify" \
		--list "$srcdir/qa/verify/pass-list.txt"
else
	echo "SKIP: suricata-verify pass list (../shared not found)"
fi

if [ "${RUN_ALL_SECOND_BUILD:-0}" != 1 ]; then
	echo "== qa/verify runner self-tests"
	if (cd "$srcdir/qa/verify" && python3 -m unittest -q test_run) > "$log.vt" 2>&1; then
		echo "PASS: qa/verify self-tests" | tee -a "$log"
	else
		tail -20 "$log.vt"; echo "FAIL: qa/verify self-tests" | tee -a "$log"
	fi
	rm -f "$log.vt"

	echo "== GPU kernel logic on the CPU (qa/gpu check-host: every kernel variant equals the reference)"
	if make -s -C "$srcdir/qa/gpu" check-host > "$log.gpu" 2>&1; then
		echo "PASS: qa/gpu check-host" | tee -a "$log"
	else
		tail -20 "$log.gpu"; echo "FAIL: qa/gpu check-host" | tee -a "$log"
	fi
	rm -f "$log.gpu"
fi

# Alerts of ac-cuda equal ac's on every rule case: a property of the code, not
# of the build (the sanitizer build runs the accuda-* e2e cases and the tiny
# batches of accuda-equal.sh below for the memory errors of those paths).
if [ "${RUN_ALL_SECOND_BUILD:-0}" != 1 ]; then
	echo "== ac-cuda vs ac on the e2e rule cases (qa/gpu/accuda-e2e-equal.py, emulation)"
	part python3 "$srcdir/qa/gpu/accuda-e2e-equal.py" "$builddir/src/suricata" \
		"$builddir/suricata.yaml" "$srcdir"
fi

# A dead GPU must not pass: with every emulated batch failing, the alerts
# stay equal (CPU rescan) but accuda-equal.sh must FAIL its device check.
echo "== accuda-equal.sh notices failed batches (qa/gpu/accuda-equal-selftest.sh)"
part "$srcdir/qa/gpu/accuda-equal-selftest.sh" "$builddir/src/suricata" \
	"$builddir/suricata.yaml" "$srcdir"

# ac-cuda (through the host emulation) must alert exactly as ac on bench-1x
# with the ET Open rules, also with tiny batches that force every path.
if [ -d "$shared/data/rules/et-open-4.0" ]; then
	echo "== ac-cuda vs ac alert equality (qa/gpu/accuda-equal.sh, emulation)"
	SURICATA_SHARED="$shared" part "$srcdir/qa/gpu/accuda-equal.sh" \
		"$builddir/src/suricata" "$builddir/suricata.yaml"
else
	echo "SKIP: ac-cuda vs ac alert equality (../shared not found)"
fi

[ ${#lane_pids[@]} = 0 ] || wait "${lane_pids[@]}"
for l in "${lanes[@]}"; do
	if [ "${RUN_ALL_SERIAL:-0}" = 1 ]; then
		( log=$log.$l; "$l" ) > "$log.$l.out" 2>&1 < /dev/null
	fi
	echo "== ($l: run beside the parts above)"
	cat "$log.$l.out"
	cat "$log.$l" >> "$log" 2> /dev/null
done

passed=$(grep -c '^PASS:' "$log")
failed=$(grep -c '^FAIL:' "$log")
if [ "$failed" -gt 0 ]; then
	echo "== failures"
	grep '^FAIL:' "$log"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
