#!/bin/bash
# tests/ops/install.sh BUILDDIR SRCDIR: a sensor's install, as an operator
# would use it.
#   `make install prefix=SCRATCH` (the built tree, installed elsewhere
#     without configuring again): etc/suricata (yaml, classification,
#     reference, threshold.config, rules/), the log folder (0750) and the
#     run folder (0770), the systemd unit, the logrotate file and the
#     unit's EnvironmentFile; every path in them inside SCRATCH;
#   the unit: Type=forking, PIDFile the file ExecStart's --pidfile names,
#     ExecReload sending USR2;
#   `suricata` with no argument: the usage on stdout, exit 1; --build-info
#     names the optional libraries;
#   live (root, a veth pair in a namespace of its own, tests/live/common.sh):
#     the unit's ExecStart line run as systemd would (its EnvironmentFile
#     read, IFACE the veth end) starts the daemon, which writes eve.json in
#     the installed log folder; `logrotate -f` with the shipped file (a state
#     file of the test's) moves eve.json to eve.json.1 and the engine's next
#     records go to the new eve.json, the old one no longer growing; USR2
#     reloads the rules (suricata.log says so); SIGTERM stops it and the pid
#     file goes.
# The live part SKIPs with one line when not root, without ip netns,
# tcpreplay or logrotate. PASS:/FAIL: lines, then "N passed, N failed".
builddir=$(cd "${1:-.}" && pwd)
srcdir=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
bin=$builddir/src/suricata
here=$srcdir/tests/live

pass=0 fail=0
ok() { echo "PASS: install $*"; pass=$((pass + 1)); }
ko() { echo "FAIL: install $*"; fail=$((fail + 1)); }
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit; }

# --- no argument: the usage, exit 1 ---
out=$("$bin" 2> /dev/null)
rc=$?
if [ $rc = 1 ] && grep -q '^USAGE: .*suricata \[OPTIONS\]' <<< "$out"; then
	ok "no argument: usage on stdout, exit 1"
else
	ko "no argument: exit $rc, stdout: $(head -2 <<< "$out" | tr '\n' ' ')"
fi
info=$("$bin" --build-info)
for lib in libmagic hiredis; do
	if grep -Eq "^  $lib support: +(yes|no)$" <<< "$info"; then
		ok "--build-info names $lib support"
	else
		ko "--build-info has no '$lib support:' line"
	fi
done

# --- the install ---
scratch=$(mktemp -d /tmp/install-test.XXXXXX)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill -KILL "$p" 2> /dev/null; done
	[ -n "$ns" ] && ip netns del "$ns" 2> /dev/null
	if [ -n "$INSTALL_KEEP" ]; then echo "kept: $scratch"; else rm -rf "$scratch"; fi
}
trap cleanup EXIT
# MAKEFLAGS from make test's own make would hand this one its job server
if ! MAKEFLAGS= make -s -C "$builddir" install prefix="$scratch" > "$scratch/make.out" 2>&1; then
	ko "make install prefix=$scratch: $(tail -3 "$scratch/make.out" | tr '\n' ' ')"
	finish
fi
ok "make install prefix=SCRATCH"
etc=$scratch/etc
logdir=$scratch/var/log/suricata
rundir=$scratch/var/run/suricata
unit=$scratch/lib/systemd/system/suricata.service
rot=$etc/logrotate.d/suricata
envf=$etc/default/suricata
for f in bin/suricata etc/suricata/suricata.yaml etc/suricata/classification.config \
	etc/suricata/reference.config etc/suricata/threshold.config etc/suricata/rules/suricata.rules \
	lib/systemd/system/suricata.service etc/logrotate.d/suricata etc/default/suricata; do
	[ -f "$scratch/$f" ] && ok "installed: $f" || ko "not installed: $f"
done
m=$(stat -c %a "$logdir" 2> /dev/null)
[ "$m" = 750 ] && ok "log folder made, mode 750" || ko "log folder $logdir: mode '${m:-missing}', want 750"
m=$(stat -c %a "$rundir" 2> /dev/null)
[ "$m" = 770 ] && ok "run folder made, mode 770" || ko "run folder $rundir: mode '${m:-missing}', want 770"
yaml=$etc/suricata/suricata.yaml
for kv in "default-log-dir: $logdir/" "default-rule-path: $etc/suricata/rules" \
	"classification-file: $etc/suricata/classification.config"; do
	grep -qxF "$kv" "$yaml" && ok "installed yaml: $kv" || ko "installed yaml has no line '$kv'"
done
# nothing installed names a path outside the prefix but the system's tools
if grep -n "@[a-z_]*@" "$yaml" "$unit" "$rot" "$envf"; then
	ko "an unsubstituted @name@ in the installed files (above)"
else
	ok "every @name@ substituted"
fi

# --- the shipped yaml, as installed, on a capture: no warning or notice
# about its own settings (a setting the engine cannot apply, one it does
# not use), also as root ---
mkdir -p "$scratch/pcaprun"
"$scratch/bin/suricata" -c "$yaml" -r "$srcdir/tests/data/pcaps/sample.pcap" -l "$scratch/pcaprun" \
	> "$scratch/pcaprun/out" 2>&1
rc=$?
said=$(grep -E '^(Warning|Error|Notice): ' "$scratch/pcaprun/out" | grep -v '^Notice: \(rules\|pcap-file\): ')
if [ $rc = 0 ] && [ -z "$said" ] && grep -q '"event_type":"stats"' "$scratch/pcaprun/eve.json"; then
	ok "the installed yaml on sample.pcap: exit 0, eve written, no warning or notice on its settings"
else
	ko "the installed yaml on sample.pcap: exit $rc: $(head -3 <<< "$said" | tr '\n' ' ')"
fi

# the unix-socket runmode reads the outputs for each file's run, after the
# start's report of unused settings: none of the shipped ones is named
mkdir -p "$scratch/usock"
"$scratch/bin/suricata" -c "$yaml" -l "$scratch/usock" --unix-socket="$scratch/usock/s.sock" \
	> "$scratch/usock/out" 2>&1 &
upid=$!
pids+=("$upid")
for _ in $(seq 1 300); do
	grep -q "waiting for pcap files" "$scratch/usock/out" && break
	kill -0 "$upid" 2> /dev/null || break
	sleep 0.1
done
kill -TERM "$upid" 2> /dev/null
wait "$upid" 2> /dev/null
said=$(grep -E '^(Warning|Error|Notice): ' "$scratch/usock/out" |
	grep -v '^Notice: \(rules: \|unix-socket: waiting\)')
if grep -q "waiting for pcap files" "$scratch/usock/out" && [ -z "$said" ]; then
	ok "the installed yaml, unix-socket runmode: no warning or notice on its settings"
else
	ko "the installed yaml, unix-socket runmode: $(head -3 <<< "${said:-never waited for files}" | tr '\n' ' ')"
fi

# --- the unit ---
unit_key() { sed -n "s/^$1=//p" "$unit" | head -1; }
execstart=$(unit_key ExecStart)
[ "$(unit_key Type)" = forking ] && ok "unit: Type=forking" || ko "unit: Type=$(unit_key Type)"
pidfile=$(unit_key PIDFile)
if [ "$pidfile" = "$rundir/suricata.pid" ] && grep -qF -- "--pidfile $pidfile " <<< "$execstart "; then
	ok "unit: PIDFile is the run folder's suricata.pid, the one ExecStart's --pidfile names"
else
	ko "unit: PIDFile '$pidfile', ExecStart '$execstart'"
fi
case "$execstart" in
"$scratch/bin/suricata -D --af-packet=\${IFACE} -c $yaml "*) ok "unit: ExecStart runs the installed binary and yaml, -D, af-packet on \${IFACE}" ;;
*) ko "unit: ExecStart '$execstart'" ;;
esac
grep -qx "ExecStartPre=/bin/mkdir -p -m 0770 $rundir" "$unit" && ok "unit: ExecStartPre makes the run folder" ||
	ko "unit: ExecStartPre '$(unit_key ExecStartPre)'"
grep -qx 'ExecReload=/bin/kill -USR2 $MAINPID' "$unit" && ok "unit: ExecReload sends USR2" ||
	ko "unit: ExecReload '$(unit_key ExecReload)'"
[ "$(unit_key EnvironmentFile)" = "-$envf" ] && ok "unit: EnvironmentFile $envf (optional)" ||
	ko "unit: EnvironmentFile '$(unit_key EnvironmentFile)'"
# systemd's own reading of the unit: keys, values, the programs it runs
if command -v systemd-analyze > /dev/null; then
	if systemd-analyze verify --man=no "$unit" > "$scratch/verify.out" 2>&1 && [ ! -s "$scratch/verify.out" ]; then
		ok "unit: systemd-analyze verify finds nothing"
	else
		ko "unit: systemd-analyze verify: $(head -3 "$scratch/verify.out" | tr '\n' ' ')"
	fi
else
	echo "SKIP: install unit: systemd-analyze verify (no systemd-analyze)"
fi

# --- live: the unit's command, logrotate, USR2 ---
ns=
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: install live part (not root: it needs a network namespace)"
	finish
fi
for t in tcpreplay logrotate; do
	if ! command -v $t > /dev/null; then
		echo "SKIP: install live part ($t is not installed: ./install-deps.sh)"
		finish
	fi
done
ns=sins$$
va=insa$$
vb=insb$$
if ! ip netns add "$ns" 2> /dev/null; then
	ns=
	echo "SKIP: install live part (ip netns is not available here)"
	finish
fi
if ! ip link add "$va" netns "$ns" type veth peer name "$vb" netns "$ns" 2> "$scratch/ip.err"; then
	echo "SKIP: install live part (cannot make a veth pair: $(head -1 "$scratch/ip.err"))"
	finish
fi
for i in "$va" "$vb"; do
	ip netns exec "$ns" sysctl -qw "net.ipv6.conf.$i.disable_ipv6=1" 2> /dev/null
	ip -n "$ns" link set "$i" mtu 9000 up
done
python3 "$here/gen-live-pcap.py" traffic "$scratch/traffic.pcap"

# The operator's edit of the EnvironmentFile: the interface, and the command
# socket in the installed run folder (the binary's own default is the
# configured prefix's, not this scratch one's).
sed -i "s|^IFACE=.*|IFACE=$vb|" "$envf"
sed -i "s|^OPTIONS=.*|OPTIONS=\"--set unix-command.filename=$rundir/suricata-command.socket\"|" "$envf"
# After a reboot the run folder (under /run: a tmpfs) is gone: ExecStartPre
# makes it again.
rm -rf "$rundir"
if sh -c "$(unit_key ExecStartPre)" && [ "$(stat -c %a "$rundir" 2> /dev/null)" = 770 ]; then
	ok "the unit's ExecStartPre: the run folder made again, mode 770"
else
	ko "the unit's ExecStartPre: $rundir: '$(stat -c %a "$rundir" 2>&1)'"
fi
# What systemd does with it: the file's variables, ${IFACE} one word,
# $OPTIONS split on white space; then ExecStart. -D returns once the engine
# captures (exit 0) or start-up failed (exit 1).
if ip netns exec "$ns" sh -c "set -a; . '$envf'; set +a; exec $execstart" > "$scratch/start.out" 2>&1; then
	ok "the unit's ExecStart, run as systemd would: the daemon started (exit 0)"
else
	ko "the unit's ExecStart: exit $?: $(tail -3 "$scratch/start.out" "$logdir/suricata.log" 2> /dev/null | tr '\n' ' ')"
	finish
fi
pid=$(cat "$pidfile" 2> /dev/null)
if [ -n "$pid" ] && kill -0 "$pid" 2> /dev/null; then
	pids+=("$pid")
	ok "PIDFile names the running daemon ($pid)"
else
	ko "no running daemon in $pidfile ('$pid')"
	finish
fi
[ -S "$rundir/suricata-command.socket" ] && ok "command socket in the installed run folder" ||
	ko "no command socket in $rundir"

replay() {
	ip netns exec "$ns" tcpreplay -i "$va" --pps=2000 "$scratch/traffic.pcap" > "$scratch/replay.out" 2>&1
}
records() { [ -f "$1" ] && grep -c '"event_type":"\(alert\|dns\|http\|tls\|flow\)"' "$1" || echo 0; }
# waits up to 10 s for FILE to hold a record other than stats
wait_records() {
	for _ in $(seq 1 100); do
		[ "$(records "$1")" -gt 0 ] && return 0
		sleep 0.1
	done
	return 1
}

replay
if wait_records "$logdir/eve.json"; then
	ok "eve.json in the installed log folder: $(records "$logdir/eve.json") records"
else
	ko "no record in $logdir/eve.json: $(ls "$logdir" | tr '\n' ' ')"
fi

# the shipped logrotate file, forced, with a state file of this test's
if logrotate -f -s "$scratch/logrotate.state" "$rot" > "$scratch/logrotate.out" 2>&1; then
	ok "logrotate -f with the shipped file"
else
	ko "logrotate -f: $(head -3 "$scratch/logrotate.out" | tr '\n' ' ')"
fi
[ -f "$logdir/eve.json.1" ] && ok "eve.json rotated to eve.json.1" || ko "no eve.json.1: $(ls "$logdir" | tr '\n' ' ')"
reopened=0
for _ in $(seq 1 100); do
	grep -qs "SIGHUP: log files reopened" "$logdir/suricata.log" && { reopened=1; break; }
	sleep 0.1
done
[ $reopened = 1 ] && ok "postrotate's HUP: the new suricata.log says 'log files reopened'" ||
	ko "no 'log files reopened' in the new suricata.log"
old=$(stat -c %s "$logdir/eve.json.1" 2> /dev/null)
replay
if wait_records "$logdir/eve.json"; then
	ok "after the rotation the engine writes to the new eve.json ($(records "$logdir/eve.json") records)"
else
	ko "no record in the new eve.json after the rotation"
fi
sleep 1
[ "$(stat -c %s "$logdir/eve.json.1" 2> /dev/null)" = "$old" ] && ok "eve.json.1 no longer grows" ||
	ko "eve.json.1 grew after the rotation ($old -> $(stat -c %s "$logdir/eve.json.1"))"

# ExecReload
kill -USR2 "$pid"
reloaded=0
for _ in $(seq 1 300); do
	grep -qs "rule reload: [0-9]* rules loaded" "$logdir/suricata.log" && { reloaded=1; break; }
	sleep 0.1
done
[ $reloaded = 1 ] && ok "USR2: $(grep -o 'rule reload: [0-9]* rules loaded' "$logdir/suricata.log" | tail -1)" ||
	ko "USR2: no 'rule reload: N rules loaded' in suricata.log: $(tail -2 "$logdir/suricata.log" | tr '\n' ' ')"

# the unit's stop: SIGTERM
kill -TERM "$pid"
for _ in $(seq 1 300); do
	kill -0 "$pid" 2> /dev/null || break
	sleep 0.1
done
if kill -0 "$pid" 2> /dev/null; then
	ko "SIGTERM: still running after 30 s"
else
	[ -e "$pidfile" ] && ko "SIGTERM: stopped, the pid file left" || ok "SIGTERM: stopped, the pid file removed"
fi
# the whole life of the sensor as the unit runs it, both logs of the rotation
said=$(cat "$logdir"/suricata.log* 2> /dev/null | grep -E ' (Warning|Error): |Notice: conf: ')
[ -z "$said" ] && ok "suricata.log: no warning, error or conf notice from start to stop" ||
	ko "suricata.log: $(head -3 <<< "$said" | tr '\n' ' ')"
finish
