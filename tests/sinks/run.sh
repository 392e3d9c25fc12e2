#!/bin/bash
# eve-log network sinks end to end: the engine writes eve.json (regular) and,
# as a second eve-log output with the same types, to a sink; what the sink
# gets must be eve.json, record for record, in order.
#   tests/sinks/run.sh [BUILDDIR [SRCDIR]]
# Checks (PASS:/FAIL:/SKIP: lines, then "N passed, N failed"):
#   unix_dgram, unix_stream: a Python listener (listen.py) on a socket in a
#     temp folder, tests/data/pcaps/multi-flow.pcap;
#   unix_stream to a reader that accepts and never reads (bench-1x, from
#     ../shared, close-timeout 1 s): the run takes at most 2x + 5 s of one
#     without the sink,
#     and the counters account for every record;
#   syslog: the same through /dev/log (root only: a listener bound there when
#     no syslog daemon has it, or bind-mounted over it in a mount namespace),
#     every line "<174>Mmm dd hh:mm:ss suricata[pid]: " + the record; once
#     with /dev/log a datagram socket, once a stream socket (NUL-ended);
#   redis (needs redis-server and ../shared: bench-1x with ET Open): a
#     redis-server of its own on a free loopback port, no persistence, in a
#     temp folder, close-timeout 20 s (a loaded machine must not turn a
#     slow drain at exit into lost records); list mode (LPUSH, pipelined), channel mode (PUBLISH, a
#     subscriber started first); then the server is stopped mid-run: the
#     engine must finish at full speed (wall time within 2x + 5 s of the
#     run with the server up, its packet time within 3x + 1 s: loose, as
#     the machine is shared; a writer that blocked the packet path would
#     take its 2 s timeouts many times over) and its counters must account for every record
#     (written + dropped + failed == the records of eve.json; with a 1 MiB
#     queue some are dropped, and what is queued at the end is failed).
# Every server and listener is stopped on exit (trap).
builddir=$(cd "${1:-.}" && pwd)
srcdir=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
bin=$builddir/src/suricata
yaml=$builddir/suricata.yaml
here=$srcdir/tests/sinks
shared="${SURICATA_SHARED:-$srcdir/../shared}"
py=python3

tmp=$(mktemp -d /tmp/sinks-test.XXXXXX)
pids=()
redis_pid=
devlog_made=
cleanup() {
	for p in "${pids[@]}"; do kill -TERM "$p" 2> /dev/null; done
	[ -n "$redis_pid" ] && kill -KILL "$redis_pid" 2> /dev/null
	[ -n "$devlog_made" ] && rm -f /dev/log
	wait 2> /dev/null
	if [ -n "$SINKS_KEEP" ]; then echo "kept: $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
pass=0
fail=0
ok() { echo "PASS: sinks $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: sinks $*"; fail=$((fail + 1)); }

# the second output lists the types of the first (build suricata.yaml), read
# from it, with their options (each eve-log output has its own, as in
# Suricata 8: "tls|extended=yes"): a type the yaml gains is then compared too
TYPES=$($py - "$yaml" <<'PY'
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1]).read().split('\n', 2)[2])
eve = next(o['eve-log'] for o in doc['outputs'] if 'eve-log' in o)
def on(t):
    # "- frame: {enabled: no}" (Suricata's default yaml) is listed but off
    if isinstance(t, str):
        return True
    v = next(iter(t.values()))
    return not (isinstance(v, dict) and v.get('enabled') in (False, 'no'))
def flat(prefix, v):
    if isinstance(v, dict):
        for k, x in v.items():
            yield from flat(prefix + [str(k)], x)
    elif v is None:
        return
    elif isinstance(v, list):
        yield '.'.join(prefix) + '=[' + ','.join(str(x) for x in v) + ']'
    else:
        yield '.'.join(prefix) + '=' + ('yes' if v is True else 'no' if v is False else str(v))
def item(t):
    if isinstance(t, str):
        return t
    name, opts = next(iter(t.items()))
    return '|'.join([name] + list(flat([], opts or {})))
print(' '.join(item(t) for t in eve['types'] if on(t)))
PY
)
[ -n "$TYPES" ] || TYPES="alert anomaly http dns tls files stats flow"
sink_set() {
	local i=0 t a="--set outputs.8.eve-log.enabled=yes"
	for t in $TYPES; do
		case $t in
		*'|'*)
			local name=${t%%|*} kv rest=${t#*|}
			for kv in ${rest//|/ }; do
				a="$a --set outputs.8.eve-log.types.$i.$name.$kv"
			done ;;
		*) a="$a --set outputs.8.eve-log.types.$i=$t" ;;
		esac
		i=$((i + 1))
	done
	echo "$a"
}

wait_file() {       # FILE [tenths of a second]
	local n=${2:-50}
	while [ ! -e "$1" ] && [ "$n" -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
	[ -e "$1" ]
}

# listener MODE ARG OUT: starts listen.py, waits until it listens
listener() {
	$py "$here/listen.py" "$@" &
	pids+=($!)
	lpid=$!
	wait_file "${@: -1}.ready"
}

stop_listener() {
	kill -TERM "$lpid" 2> /dev/null
	wait "$lpid" 2> /dev/null
}

# socket_case NAME FILETYPE LISTENMODE
socket_case() {
	local name=$1 ft=$2 mode=$3 d=$tmp/$1
	mkdir -p "$d"
	if ! listener "$mode" "$d/eve.sock" "$d/got.txt"; then
		bad "$name: the listener did not start"
		return
	fi
	# shellcheck disable=SC2046
	if ! "$bin" -c "$yaml" -l "$d" -k none --runmode single \
		-r "$srcdir/tests/data/pcaps/multi-flow.pcap" $(sink_set) \
		--set outputs.8.eve-log.filetype="$ft" --set outputs.8.eve-log.filename=eve.sock \
		> "$d/out.txt" 2>&1; then
		bad "$name: the engine failed: $(tail -2 "$d/out.txt")"
		stop_listener
		return
	fi
	sleep 0.3
	stop_listener
	local r
	if r=$($py "$here/compare.py" "$d/eve.json" "$d/got.txt"); then
		ok "$name: $r"
	else
		bad "$name: $r"
	fi
}

socket_case unix_dgram unix_dgram dgram
socket_case unix_stream unix_stream stream

# A socket nobody listens on: the engine runs, and says what it lost.
d=$tmp/nobody
mkdir -p "$d"
# shellcheck disable=SC2046
"$bin" -c "$yaml" -l "$d" -k none --runmode single \
	-r "$srcdir/tests/data/pcaps/multi-flow.pcap" $(sink_set) \
	--set outputs.8.eve-log.filetype=unix_stream --set outputs.8.eve-log.filename=eve.sock \
	> "$d/out.txt" 2>&1
rc=$?
n=$(wc -l < "$d/eve.json")
if [ $rc = 0 ] && grep -q "cannot connect to $d/eve.sock" "$d/out.txt" &&
	grep -Eq "0 records written, 0 dropped \(queue full\), $n failed \($n still queued" "$d/out.txt"; then
	ok "unix_stream with no listener: exit 0, all $n records reported failed"
else
	bad "unix_stream with no listener: exit $rc, eve.json $n records: $(grep eve-log "$d/out.txt" | tail -2)"
fi

# syslog: /dev/log is the fixed path of the local syslog socket
syslog_case() {     # LISTENMODE: dgram, or stream-nul (a daemon on a stream socket)
	local lmode=$1 d=$tmp/syslog-$1 run sock
	mkdir -p "$d"
	if [ "$(id -u)" != 0 ]; then
		echo "SKIP: sinks syslog (not root: the test listens on /dev/log)"
		return
	fi
	# shellcheck disable=SC2046
	run="\"$bin\" -c \"$yaml\" -l \"$d\" -k none --runmode single \
		-r \"$srcdir/tests/data/pcaps/multi-flow.pcap\" $(sink_set) \
		--set outputs.8.eve-log.filetype=syslog"
	if [ -e /dev/log ]; then
		# a syslog daemon has it: our socket over it, in a mount namespace
		# of the engine's own
		if ! command -v unshare > /dev/null; then
			echo "SKIP: sinks syslog (/dev/log is in use and unshare is missing)"
			return
		fi
		sock=$d/log.sock
	else
		sock=/dev/log
		devlog_made=1
	fi
	if ! listener "$lmode" "$sock" "$d/got.txt"; then
		bad "syslog ($lmode): the listener did not start on $sock"
		return
	fi
	if [ "$sock" = /dev/log ]; then
		sh -c "exec $run" > "$d/out.txt" 2>&1
	else
		unshare -m sh -c "mount --bind '$sock' /dev/log && exec $run" > "$d/out.txt" 2>&1
	fi
	local rc=$?
	sleep 0.3
	stop_listener
	[ -n "$devlog_made" ] && rm -f /dev/log && devlog_made=
	if [ $rc != 0 ]; then
		bad "syslog ($lmode): the engine failed: $(tail -2 "$d/out.txt")"
		return
	fi
	local r
	# local5.info = 21 * 8 + 6
	if r=$($py "$here/compare.py" "$d/eve.json" "$d/got.txt" --syslog 174 suricata); then
		ok "syslog ($lmode /dev/log): $r"
	else
		bad "syslog ($lmode /dev/log): $r"
	fi
}
syslog_case dgram
syslog_case stream-nul

# bench-1x: /tmp/bench (the house copy) or made into the temp folder
find_bench() {
	[ -n "$bench" ] && [ -f "$bench" ] && return 0
	bench=/tmp/bench/bench-1x.pcap
	if [ ! -f "$bench" ]; then
		"$shared/tools/make-bench-pcap.sh" "$tmp/bench" 1 > /dev/null 2>&1
		bench=$tmp/bench/bench-1x.pcap
	fi
	[ -f "$bench" ]
}
bench=

# A reader that accepts and never reads: the writer blocks in send (its
# 2 s timeout), the packet path must not notice.
blackhole_case() {
	local d=$tmp/blackhole t0 t1 w0 w1 rc
	if [ ! -x "$shared/tools/make-bench-pcap.sh" ] && [ ! -f /tmp/bench/bench-1x.pcap ]; then
		echo "SKIP: sinks unix_stream reader that never reads (../shared not found: bench-1x)"
		return
	fi
	if ! find_bench; then
		bad "unix_stream black hole: no bench-1x.pcap (make-bench-pcap.sh failed)"
		return
	fi
	mkdir -p "$d/plain" "$d/sink"
	t0=$(date +%s.%N)
	"$bin" -c "$yaml" -l "$d/plain" -k none --runmode single -r "$bench" > "$d/plain/out.txt" 2>&1
	t1=$(date +%s.%N)
	w0=$($py -c "print('%.2f' % ($t1 - $t0))")
	if ! listener blackhole "$d/eve.sock" "$d/got.txt"; then
		bad "unix_stream black hole: the listener did not start"
		return
	fi
	t0=$(date +%s.%N)
	# shellcheck disable=SC2046
	"$bin" -c "$yaml" -l "$d/sink" -k none --runmode single -r "$bench" $(sink_set) \
		--set outputs.8.eve-log.filetype=unix_stream \
		--set outputs.8.eve-log.filename="$d/eve.sock" --set outputs.8.eve-log.close-timeout=1 \
		-v > "$d/sink/out.txt" 2>&1
	rc=$?
	t1=$(date +%s.%N)
	stop_listener
	w1=$($py -c "print('%.2f' % ($t1 - $t0))")
	local line written dropped failed total
	line=$(grep -E "eve-log unix_stream .*records written" "$d/sink/out.txt" | tail -1)
	total=$(wc -l < "$d/sink/eve.json")
	written=$(echo "$line" | sed -nE 's/.*: ([0-9]+) records written.*/\1/p')
	dropped=$(echo "$line" | sed -nE 's/.* ([0-9]+) dropped.*/\1/p')
	failed=$(echo "$line" | sed -nE 's/.* ([0-9]+) failed.*/\1/p')
	if [ $rc != 0 ] || [ -z "$written" ] || [ -z "$dropped" ] || [ -z "$failed" ]; then
		bad "unix_stream black hole: exit $rc, no counters line: '$line'"
	elif [ $((written + dropped + failed)) != "$total" ] || [ $((dropped + failed)) = 0 ]; then
		bad "unix_stream black hole: $written written + $dropped dropped + $failed failed, not the $total records of eve.json (or nothing lost)"
	elif ! $py -c "import sys; sys.exit(0 if $w1 <= 2 * $w0 + 5 else 1)"; then
		bad "unix_stream black hole: ${w1}s against ${w0}s without the sink (bound 2x + 5 s)"
	else
		ok "unix_stream black hole: ${w1}s (${w0}s without the sink); $written written + $dropped dropped + $failed failed == $total"
	fi
}
blackhole_case

# ---- redis ----
redis_tests() {
	local bench rules etdir port d wall_up
	if ! command -v redis-server > /dev/null || ! command -v redis-cli > /dev/null; then
		echo "SKIP: sinks redis (redis-server is not installed: ./install-deps.sh)"
		return
	fi
	if ! "$bin" --build-info | grep -q "hiredis support: *yes"; then
		echo "SKIP: sinks redis (built without hiredis)"
		return
	fi
	etdir=$shared/data/rules/et-open-4.0
	if [ ! -d "$etdir" ] || [ ! -x "$shared/tools/make-bench-pcap.sh" ]; then
		echo "SKIP: sinks redis (../shared not found: bench-1x and ET Open come from there)"
		return
	fi
	if ! find_bench; then
		bad "redis: no bench-1x.pcap (make-bench-pcap.sh failed)"
		return
	fi
	rules=$tmp/et.rules
	cat "$etdir"/emerging-*.rules > "$rules"
	port=$($py -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	mkdir -p "$tmp/redis"
	redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
		--dir "$tmp/redis" --daemonize no --logfile "$tmp/redis/redis.log" &
	redis_pid=$!
	local n=50
	while ! redis-cli -p "$port" ping > /dev/null 2>&1 && [ $n -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
	if [ $n = 0 ]; then
		bad "redis: redis-server did not start on port $port: $(tail -2 "$tmp/redis/redis.log")"
		return
	fi
	# run DIR MODE [extra --set ...]: the engine on bench-1x with ET Open,
	# eve.json plus redis; sets wall (seconds)
	run() {
		local d=$1 mode=$2 t0 t1
		shift 2
		mkdir -p "$d"
		t0=$(date +%s.%N)
		# shellcheck disable=SC2046
		"$bin" -c "$yaml" -l "$d" -k none --runmode single -v -r "$bench" -S "$rules" \
			--set classification-file="$etdir/classification.config" $(sink_set) \
			--set outputs.8.eve-log.filetype=redis --set outputs.8.eve-log.redis.port="$port" \
			--set outputs.8.eve-log.redis.mode="$mode" \
			--set outputs.8.eve-log.close-timeout=20 "$@" > "$d/out.txt" 2>&1
		local rc=$?
		t1=$(date +%s.%N)
		wall=$($py -c "print('%.2f' % ($t1 - $t0))")
		echo "$wall" > "$d/wall"
		return $rc
	}
	local r
	# list mode, pipelined
	d=$tmp/list
	if run "$d" list --set outputs.8.eve-log.redis.pipelining.enabled=yes \
		--set outputs.8.eve-log.redis.pipelining.batch-size=64; then
		wall_up=$wall
		redis-cli -p "$port" --raw LRANGE suricata 0 -1 > "$d/got.txt"
		if r=$($py "$here/compare.py" "$d/eve.json" "$d/got.txt" --reverse); then
			ok "redis list (lpush, pipelined): $r (${wall}s)"
		else
			bad "redis list (lpush, pipelined): $r"
		fi
	else
		bad "redis list: the engine failed: $(tail -2 "$d/out.txt")"
	fi
	# channel mode: a subscriber first
	d=$tmp/channel
	mkdir -p "$d"
	if listener subscribe "$port" suricata "$d/got.txt"; then
		if run "$d" channel; then
			local want k=50
			want=$(wc -l < "$d/eve.json")
			while [ "$(wc -l < "$d/got.txt")" -lt "$want" ] && [ $k -gt 0 ]; do sleep 0.1; k=$((k - 1)); done
			stop_listener
			if r=$($py "$here/compare.py" "$d/eve.json" "$d/got.txt"); then
				ok "redis channel (publish): $r (${wall}s)"
			else
				bad "redis channel (publish): $r"
			fi
		else
			stop_listener
			bad "redis channel: the engine failed: $(tail -2 "$d/out.txt")"
		fi
	else
		bad "redis channel: the subscriber did not start"
	fi
	# the server goes away mid-run: once records arrive, it is shut down
	d=$tmp/down
	redis-cli -p "$port" DEL suricata > /dev/null
	# a small queue, so that it also fills while the server is gone
	run "$d" list --set outputs.8.eve-log.queue-size=1mb &
	# until records arrive (the packet phase has begun), however long the
	# rule loading takes on a loaded machine: a fixed number of polls once
	# shut the server down before the first record, or after the last
	local runpid=$!
	while [ "$(redis-cli -p "$port" LLEN suricata 2> /dev/null || echo 0)" -lt 200 ] &&
	      kill -0 $runpid 2> /dev/null; do
		sleep 0.02
	done
	redis-cli -p "$port" shutdown nosave > /dev/null 2>&1
	wait "$redis_pid" 2> /dev/null
	redis_pid=
	local rc
	wait $runpid
	rc=$?
	local line written dropped failed total
	line=$(grep -E "eve-log redis .*records written" "$d/out.txt" | tail -1)
	total=$(wc -l < "$d/eve.json")
	written=$(echo "$line" | sed -nE 's/.*: ([0-9]+) records written.*/\1/p')
	dropped=$(echo "$line" | sed -nE 's/.* ([0-9]+) dropped.*/\1/p')
	failed=$(echo "$line" | sed -nE 's/.* ([0-9]+) failed.*/\1/p')
	if [ $rc != 0 ] || [ -z "$written" ] || [ -z "$dropped" ] || [ -z "$failed" ]; then
		bad "redis stopped mid-run: exit $rc, no counters line: '$line'"
	elif [ $((written + dropped + failed)) != "$total" ] || [ "$dropped" = 0 ] || [ "$failed" = 0 ]; then
		bad "redis stopped mid-run: $written written + $dropped dropped + $failed failed: not the $total records of eve.json, or none dropped (1 MiB queue) or failed (still queued at the end)"
	else
		ok "redis stopped mid-run: $written written + $dropped dropped + $failed failed == $total records of eve.json"
	fi
	local wall_down pkt_up pkt_down
	wall_down=$(cat "$d/wall" 2> /dev/null)
	# "packets processed in X s": the packet path alone, without rule loading
	pkt_up=$(sed -nE 's/.*packets processed in ([0-9.]+) s.*/\1/p' "$tmp/list/out.txt")
	pkt_down=$(sed -nE 's/.*packets processed in ([0-9.]+) s.*/\1/p' "$d/out.txt")
	if [ -z "$wall_up" ] || [ -z "$wall_down" ] || [ -z "$pkt_up" ] || [ -z "$pkt_down" ]; then
		bad "redis stopped mid-run: no wall times to compare (up '$wall_up', down '$wall_down')"
	elif $py -c "import sys; sys.exit(0 if $wall_down <= 2 * $wall_up + 5 else 1)" &&
		$py -c "import sys; sys.exit(0 if $pkt_down <= 3 * $pkt_up + 1 else 1)"; then
		ok "redis stopped mid-run: no stall (${wall_down}s, packets in ${pkt_down}s; with the server up ${wall_up}s, ${pkt_up}s)"
	else
		bad "redis stopped mid-run: ${wall_down}s against ${wall_up}s with the server up (bound 2x + 5 s, packets 3x + 1 s)"
	fi
}
redis_tests

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
