#!/bin/bash
# ac-cuda (host emulation) on live captures, each packet thread batching its
# own buffers: a network namespace with a veth pair of its own
# (tests/live/common.sh), tcpreplay sending into one end, the engine on the
# other with mpm-algo ac-cuda and cuda.mpm.emulation (the shipped batching
# and pool settings: no max-pending-packets, no batching-timeout).
#   tests/live/accuda.sh [BUILDDIR [SRCDIR]]
# Cases, on tests/live's traffic capture and rules (gen-live-pcap.py):
#   accuda-workers          --af-packet, workers, 2 threads (TPACKET_V3 fanout)
#   accuda-pcap-workers     --pcap (libpcap live), workers, 2 threads
#   accuda-i-single         -i (AF_PACKET), single
# and, with ../shared (ET Open, make-bench-pcap.sh), bench-1x at 4000 pps:
#   bench-1x-accuda-workers  --af-packet, workers, 2 threads
# Each (replayed once more at a quarter of the rate when the kernel dropped
# packets, as run.sh does): the (sid, flow) alert pairs equal those of -r on
# the same capture with mpm-algo ac (bench-1x: but the sids whose alerts
# depend on timing, tests/live/timing-sids.py, as in bench1x.sh);
# decoder.pkts == what the capture delivered, >= 97% of what tcpreplay
# sent; kernel drops 0; the device was the emulation and returned batches
# (mpm.cuda.emulation 1, mpm.cuda.gpu_batches > 0, no error_batches).
# idle-accuda-workers: 5 UDP flows then silence (flow timeouts 60 s): their 5
# alerts are written with no further packet (polled for 10 s; a worker's
# batch must not wait for more traffic to go out).
# LIVE_ACCUDA_ALGO=ac runs every case with mpm-algo ac instead (the harness
# alone, for an engine that refuses ac-cuda in a runmode); a note says so.
# SKIPs with one line when the binary has no CUDA support (--build-info),
# when not root, or without ip netns or tcpreplay. Cleans up on exit (trap).
builddir=$(cd "${1:-.}" && pwd)
srcdir=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
bin=$builddir/src/suricata
yaml=$builddir/suricata.yaml
here=$srcdir/tests/live
RATE=${LIVE_PPS:-2000}
BENCH_RATE=${LIVE_BENCH_PPS:-4000}
shared=${SURICATA_SHARED:-$srcdir/../shared}
algo=${LIVE_ACCUDA_ALGO:-ac-cuda}

if ! "$bin" --build-info 2> /dev/null | grep -q "CUDA support: *yes"; then
	echo "SKIP: live ac-cuda tests ($bin has no CUDA support: ./configure --enable-cuda)"
	exit 0
fi
. "$here/common.sh"
live_setup "live ac-cuda tests" ac

case $algo in
ac-cuda) mpm=(--set mpm-algo=ac-cuda --set cuda.mpm.emulation=yes) ;;
ac)
	echo "note: live ac-cuda tests run with mpm-algo ac (LIVE_ACCUDA_ALGO=ac): the harness, not ac-cuda"
	mpm=(--set mpm-algo=ac) ;;
*) echo "FAIL: live ac-cuda: LIVE_ACCUDA_ALGO is '$algo' (ac-cuda or ac)"; exit 1 ;;
esac

python3 "$here/gen-live-pcap.py" traffic "$tmp/traffic.pcap"
python3 "$here/gen-live-pcap.py" idle "$tmp/idle.pcap"
common=(-c "$yaml" -S "$here/live.rules" --set "af-packet.0.interface=$vb" --set "pcap.0.interface=$vb"
	--set unix-command.enabled=no)

# ref NAME PCAP: the -r run with mpm-algo ac the live runs are compared with
ref() {
	mkdir -p "$tmp/$1"
	if ! "$bin" "${common[@]}" -r "$2" -l "$tmp/$1" --runmode single --set mpm-algo=ac > "$tmp/$1/out" 2>&1; then
		ko "$1: reference run (-r, mpm-algo ac): $(tail -1 "$tmp/$1/out")"
	fi
}

# why NAME: the engine's last error line (ET Open logs rules it skips), else its last line
why() { grep '^Error' "$tmp/$1/out" | tail -1 | grep . || tail -1 "$tmp/$1/out"; }

# device NAME: the run used the emulated device, and its batches came back
device() {
	[ "$algo" = ac-cuda ] || return
	local eve=$tmp/$1/eve.json emu gb eb
	emu=$(python3 "$here/check.py" counter "$eve" mpm.cuda.emulation)
	gb=$(python3 "$here/check.py" counter "$eve" mpm.cuda.gpu_batches)
	eb=$(python3 "$here/check.py" counter "$eve" mpm.cuda.error_batches)
	if [ "$emu" = 1 ] && [ "$gb" -gt 0 ] 2> /dev/null && [ "$eb" = 0 ]; then
		ok "$1: ac-cuda emulation ran: $gb batches came back, none failed"
	else
		ko "$1: ac-cuda emulation: mpm.cuda.emulation $emu, gpu_batches $gb, error_batches $eb"
	fi
}

# live_once REF PCAP PPS DRAIN NAME ARGS... [-- WINDOW ORDER]: one replay
# into a fresh engine, then check.py traffic against REF's eve.json and
# device; prints PASS/FAIL lines (run in a subshell: its counts are lost)
live_once() {
	local refd=$1 pcap=$2 pps=$3 drain=$4 name=$5 sent; shift 5
	local args=() window="" order=""
	while [ $# -gt 0 ] && [ "$1" != -- ]; do args+=("$1"); shift; done
	[ "$1" = -- ] && { window=$2; order=$3; }
	rm -rf "${tmp:?}/$name"
	if ! start "$name" "${args[@]}" "${mpm[@]}"; then
		ko "$name: the engine did not start: $(why "$name")"
		return
	fi
	sent=$(replay "$pcap" "$pps" "$tmp/$name/tcpreplay.out")
	# the socket's ring may still hold the last packets: let it drain
	sleep "$drain"
	if ! stop "$epid"; then
		ko "$name: no clean exit on SIGTERM: $(tail -2 "$tmp/$name/out" | tr '\n' ' ')"
		return
	fi
	ok "$name: clean exit on SIGTERM"
	clean "$name"
	python3 "$here/check.py" traffic "$tmp/$refd/eve.json" "$tmp/$name/eve.json" \
		"$tmp/$name/out" "${sent:-0}" "$name" "$window" "$order"
	device "$name"
}

# live REF PCAP PPS ARGS...: live_once, counted. A replay the kernel dropped
# packets of (a busy box starved the engine) says nothing of the engine: it
# is replayed once at a quarter of the rate, as tests/live/run.sh does, and
# only that run counts; drops at the lower rate too are a failure.
live() {
	local pps=$3 r
	r=$(live_once "$@")
	if grep -q '^FAIL.*kernel_drops [1-9]' <<< "$r"; then
		echo "note: live $5: the kernel dropped packets at $pps pps: once more at $((pps / 4)) pps"
		r=$(live_once "$1" "$2" $((pps / 4)) "${@:4}")
	fi
	echo "$r"
	pass=$((pass + $(grep -c '^PASS' <<< "$r")))
	fail=$((fail + $(grep -c '^FAIL' <<< "$r")))
}

t0=$(date +%s)
ref ref "$tmp/traffic.pcap"
live ref "$tmp/traffic.pcap" "$RATE" 0.5 accuda-workers --af-packet="$vb" --runmode workers \
	--set af-packet.0.threads=2
live ref "$tmp/traffic.pcap" "$RATE" 0.5 accuda-pcap-workers --pcap="$vb" --runmode workers --set pcap.0.threads=2
live ref "$tmp/traffic.pcap" "$RATE" 0.5 accuda-i-single -i "$vb" --runmode single

# idle: the alerts of the last packets before a silence go out without more
# traffic. The flow timeouts (60 s) are far past the poll, so no flow end
# pushes them out either.
name=idle-accuda-workers
if start "$name" --af-packet="$vb" --runmode workers --set af-packet.0.threads=2 \
	--set flow-timeouts.udp.new=60 --set flow-timeouts.udp.established=60 "${mpm[@]}"; then
	replay "$tmp/idle.pcap" 100 "$tmp/$name/tcpreplay.out" > /dev/null
	for _ in $(seq 1 100); do
		n=$(python3 "$here/check.py" alerts "$tmp/$name/eve.json" 9100006)
		[ "$n" = 5 ] && break
		sleep 0.1
	done
	if [ "$n" = 5 ]; then ok "$name: the 5 alerts are written with no packet after them"
	else ko "$name: $n of 5 alerts written 10 s after the last packet, no packet since"; fi
	stop "$epid" || ko "$name: no clean exit on SIGTERM"
	clean "$name"
else
	ko "$name: the engine did not start: $(why "$name")"
fi

# bench-1x with ET Open (bench1x.sh's rate and timing exclusions)
et=$shared/data/rules/et-open-4.0
pcap=${LIVE_BENCH_DIR:-/tmp/bench}/bench-1x.pcap
if [ ! -d "$et" ]; then
	echo "SKIP: live ac-cuda bench-1x (no ET Open under $shared)"
elif [ ! -s "$pcap" ]; then
	echo "SKIP: live ac-cuda bench-1x (no $pcap: tests/live/bench1x.sh or make-bench-pcap.sh makes it)"
else
	cat "$et"/emerging-*.rules > "$tmp/et.rules"
	common=(-c "$yaml" -S "$tmp/et.rules" --set "classification-file=$et/classification.config" -k none
		--set "af-packet.0.interface=$vb" --set "pcap.0.interface=$vb" --set unix-command.enabled=no)
	# an ASan build loads ET Open for a minute or more
	START_WAIT=1800
	ref bench-ref "$pcap"
	frames=$(sed -n 's/.*read 1 files, \([0-9]*\) packets.*/\1/p' "$tmp/bench-ref/out")
	window=$(python3 "$here/timing-sids.py" window "$tmp/et.rules" "$tmp/bench-ref/eve.json" \
		"$(( ${frames:-0} / BENCH_RATE + 1 ))")
	order=$(python3 "$here/timing-sids.py" order "$tmp/et.rules" "$tmp/bench-ref/eve.json")
	live bench-ref "$pcap" "$BENCH_RATE" 2 bench-1x-accuda-workers --af-packet="$vb" --runmode workers \
		--set af-packet.0.threads=2 -- "$window" "$order"
fi

echo "live ac-cuda tests ($algo): $(($(date +%s) - t0)) s"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
