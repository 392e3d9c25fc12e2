#!/bin/bash
# Live capture tests: a network namespace with a veth pair (MTU 9000) of its
# own; tcpreplay sends a capture into one end at a fixed rate, the engine
# captures on the other end.
#   tests/live/run.sh [BUILDDIR [SRCDIR]]
# Checks (PASS:/FAIL: lines, then "N passed, N failed"):
#   traffic, for --af-packet (workers, 2 threads, TPACKET_V3), -i (AF_PACKET,
#     single, use-mmap: no), --pcap (libpcap, autofp; workers with 2 threads
#     in a fanout group) and --af-packet with
#     ac-cuda (autofp, host emulation): the (sid, flow)
#     alert pairs equal those of -r on the same pcap; decoder.pkts == what
#     the capture delivered, >= 97% of what tcpreplay sent; kernel drops 0;
#     eve.json (stats.capture.kernel_* included) valid against the eve schema;
#   idle: 5 UDP flows, then silence: their alerts are out before any flow
#     record, and the flow records appear once the (short, --set) timeouts pass, with
#     no packet arriving, in workers, autofp and autofp with ac-cuda (host
#     emulation: the GPU batching deadline holds on a quiet link);
#   daemon: -D --pidfile starts, a second start is refused, SIGHUP reopens
#     eve.json, SIGTERM stops with the pid file removed; --user drops to nobody.
# SKIPs with one line when not root, or without ip netns or tcpreplay. The
# namespace and everything in it go away on exit (trap).
builddir=$(cd "${1:-.}" && pwd)
srcdir=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
bin=$builddir/src/suricata
yaml=$builddir/suricata.yaml
here=$srcdir/tests/live
RATE=${LIVE_PPS:-2000}

. "$here/common.sh"
live_setup "live capture tests" lv

python3 "$here/gen-live-pcap.py" traffic "$tmp/traffic.pcap"
python3 "$here/gen-live-pcap.py" idle "$tmp/idle.pcap"
# no command socket in the run directory (tests/live/reload.sh tests it)
common=(-c "$yaml" -S "$here/live.rules" --set "af-packet.0.interface=$vb" --set "pcap.0.interface=$vb"
	--set unix-command.enabled=no)

mkdir -p "$tmp/ref"
if ! "$bin" "${common[@]}" -r "$tmp/traffic.pcap" -l "$tmp/ref" --runmode single > "$tmp/ref/out" 2>&1; then
	ko "reference run (-r): $(tail -1 "$tmp/ref/out")"
fi

# traffic_once PPS NAME ARGS...: one replay of traffic.pcap into a fresh
# engine; prints PASS/FAIL lines (run in a subshell: its counts are lost)
traffic_once() {
	local pps=$1 name=$2; shift 2
	rm -rf "${tmp:?}/$name"
	if ! start "$name" "$@"; then
		ko "$name: the engine did not start: $(tail -2 "$tmp/$name/out" | tr '\n' ' ')"
		return
	fi
	local sent
	sent=$(replay "$tmp/traffic.pcap" "$pps" "$tmp/$name/tcpreplay.out")
	sleep 0.5
	if ! stop "$epid"; then
		ko "$name: no clean exit on SIGTERM: $(tail -2 "$tmp/$name/out" | tr '\n' ' ')"
		return
	fi
	ok "$name: clean exit on SIGTERM"
	clean "$name"
	python3 "$here/check.py" traffic "$tmp/ref/eve.json" "$tmp/$name/eve.json" \
		"$tmp/$name/out" "${sent:-0}" "$name"
}

# traffic NAME ARGS...: a replay that the kernel dropped packets of (the
# socket's ring overflowed while a busy machine starved the engine) says
# nothing of the engine; it is replayed once at a quarter of the rate, and
# only that run counts. Drops at the lower rate too are a failure.
traffic() {
	local r
	r=$(traffic_once "$RATE" "$@")
	if grep -q '^FAIL.*kernel_drops [1-9]' <<< "$r"; then
		echo "note: live $1: the kernel dropped packets at $RATE pps: once more at $((RATE / 4)) pps"
		r=$(traffic_once $((RATE / 4)) "$@")
	fi
	echo "$r"
	pass=$((pass + $(grep -c '^PASS' <<< "$r")))
	fail=$((fail + $(grep -c '^FAIL' <<< "$r")))
}

t0=$(date +%s)
traffic af-packet --af-packet="$vb" --set af-packet.0.threads=2
traffic i-recvmsg -i "$vb" --runmode single --set af-packet.0.use-mmap=no
traffic pcap --pcap="$vb"
traffic pcap-workers --pcap="$vb" --runmode workers --set pcap.0.threads=2

# eve of a live run (stats.capture.kernel_* included) against Suricata's schema
for name in af-packet pcap; do
	schema_check "$name" "$tmp/$name/eve.json"
done

# idle NAME ARGS...: 5 UDP flows (10 packets), then nothing; the timeouts are 3 s.
# A watcher stamps each eve line when it sees it; a busy machine can only
# make a stamp late, so the checks are orders, not deadlines: no flow record
# before the first packet's send time + the timeout, and every alert before
# the first flow record (nothing waits for more traffic or the flow's end).
idle() {
	local name=$1; shift
	local to=3 n t0 wpid r
	if ! start "$name" "$@" --set flow-timeouts.udp.new=$to --set flow-timeouts.udp.established=$to; then
		ko "$name: the engine did not start: $(tail -2 "$tmp/$name/out" | tr '\n' ' ')"
		return
	fi
	python3 "$here/check.py" watch "$tmp/$name/eve.json" "$tmp/$name/seen" &
	wpid=$!
	for _ in $(seq 1 300); do [ -e "$tmp/$name/seen" ] && break; sleep 0.1; done
	t0=$(date +%s%N)
	replay "$tmp/idle.pcap" 100 "$tmp/$name/tcpreplay.out" > /dev/null
	# the flow records: due 3 s after the last packet, written by the flow
	# manager's next pass; 30 s is a stalled machine, not a slow timeout
	for _ in $(seq 1 300); do
		n=$(grep -c '"event_type":"flow"' "$tmp/$name/eve.json" 2> /dev/null)
		[ "${n:-0}" -ge 5 ] && break
		sleep 0.1
	done
	sleep 0.3     # the watcher's next poll
	kill "$wpid" 2> /dev/null; wait "$wpid" 2> /dev/null
	r=$(python3 "$here/check.py" idle "$tmp/$name/seen" "$name" "$t0" "$to" 9100006)
	echo "$r"
	pass=$((pass + $(grep -c '^PASS' <<< "$r")))
	fail=$((fail + $(grep -c '^FAIL' <<< "$r")))
	grep -q '^PASS\|^FAIL' <<< "$r" || ko "$name: the idle check printed no result"
	stop "$epid" || ko "$name: no clean exit on SIGTERM"
	clean "$name"
}
idle idle-workers --af-packet="$vb" --set af-packet.0.threads=2
idle idle-autofp --pcap="$vb" --runmode autofp
# ac-cuda through its host emulation on a quiet link: a worker whose queue
# runs dry cuts its own window at once (mpm.cuda.cut.flush), so the alerts
# above are out before the flows' 3 s timeout although the batching-timeout
# deadline is 10 s here (the deadline itself is tests/unit/test_accuda's
# and accuda-equal.sh's tiny run's)
accuda=(--runmode autofp --set mpm-algo=ac-cuda --set cuda.mpm.emulation=yes
	--set max-pending-packets=4096 --set cuda.mpm.batching-timeout=10000000)
traffic accuda --af-packet="$vb" "${accuda[@]}"
idle idle-accuda --af-packet="$vb" "${accuda[@]}"
n=$(python3 "$here/check.py" counter "$tmp/idle-accuda/eve.json" mpm.cuda.cut.flush)
if [ "$n" -gt 0 ] 2> /dev/null; then ok "idle-accuda: $n GPU batches cut by their worker when its queue ran dry"
else ko "idle-accuda: no GPU batch cut by a worker whose queue ran dry (mpm.cuda.cut.flush $n)"; fi

# daemon: -D --pidfile
d=$tmp/daemon
mkdir -p "$d"
pidf=$tmp/suricata.pid
if nsx "$bin" "${common[@]}" -l "$d" --af-packet="$vb" --set af-packet.0.threads=1 -D --pidfile "$pidf" > "$d/out1" 2>&1; then
	dpid=$(cat "$pidf" 2> /dev/null)
	if [ -n "$dpid" ] && alive "$dpid"; then
		pids+=("$dpid")
		ok "daemon: -D returned 0 and pid file $pidf holds running pid $dpid"
		if nsx "$bin" "${common[@]}" -l "$d" --af-packet="$vb" -D --pidfile "$pidf" > "$d/out2" 2>&1; then
			ko "daemon: a second start with the same pid file was not refused"
		elif grep -q "is running" "$d/out2"; then
			ok "daemon: second start refused: $(grep -m1 'is running' "$d/out2")"
		else
			ko "daemon: second start failed without the pid file reason: $(tail -1 "$d/out2")"
		fi
		# SIGHUP: log rotation
		mv "$d/eve.json" "$d/eve.json.1"
		kill -HUP "$dpid"
		sleep 0.5
		replay "$tmp/idle.pcap" 100 "$d/tcpreplay.out" > /dev/null
		sleep 1.5
		if [ -f "$d/eve.json" ]; then ok "daemon: SIGHUP reopened eve.json"
		else ko "daemon: no new eve.json after SIGHUP"; fi
		kill -TERM "$dpid"
		for _ in $(seq 1 300); do alive "$dpid" || break; sleep 0.1; done
		if alive "$dpid"; then ko "daemon: still running 30 s after SIGTERM"
		elif [ -e "$pidf" ]; then ko "daemon: pid file left after SIGTERM"
		else ok "daemon: stopped on SIGTERM, pid file removed"; fi
		if grep -q '"event_type":"flow"' "$d/eve.json" 2> /dev/null &&
		   grep -q '"event_type":"stats"' "$d/eve.json"; then
			ok "daemon: flows flushed and final stats written at SIGTERM"
		else
			ko "daemon: no flow or stats records in eve.json after SIGTERM"
		fi
	else
		ko "daemon: no running pid in $pidf: $(tail -2 "$d/log" 2> /dev/null)"
	fi
else
	ko "daemon: -D exited non-zero: $(tail -2 "$d/out1" | tr '\n' ' ')"
fi

# --user: privileges dropped once the capture is open
if id nobody > /dev/null 2>&1; then
	chmod 777 "$tmp"
	if start user --af-packet="$vb" --set af-packet.0.threads=1 --user nobody; then
		sleep 0.3
		uid=$(awk '/^Uid:/ {print $2 "/" $3}' "/proc/$epid/status" 2> /dev/null)
		if [ "$uid" = "$(id -u nobody)/$(id -u nobody)" ]; then ok "user: running as nobody (uid $uid) with the capture open"
		else ko "user: uid is '$uid', not nobody's"; fi
		stop "$epid" || ko "user: no clean exit on SIGTERM"
		clean user
	else
		ko "user: the engine did not start: $(tail -2 "$tmp/user/out" | tr '\n' ' ')"
	fi
fi

echo "live tests: $(($(date +%s) - t0)) s"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
