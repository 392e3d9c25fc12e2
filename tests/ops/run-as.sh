#!/bin/bash
# tests/ops/run-as.sh BUILDDIR SRCDIR: --user nobody keeps working after the
# drop. A live capture (AF_PACKET on a veth pair in a namespace of its own,
# tests/live/common.sh) with --user nobody, its log folder group-writable
# for nobody's group as Suricata's docs ask:
#   file-store: an .exe of http-files.pcap (fileext + filestore) is stored
#     under filestore/XX/, owned by nobody, with file_store.fs_errors 0;
#   SIGHUP after logrotate-like moves (eve.json moved away; fast.log and
#     suricata.log reopened in place): "log files reopened", no "cannot
#     reopen", and the next alerts reach the new eve.json and fast.log;
#   a reopen that fails (the folder given back to root first) says the file
#     and the reason, does not claim "reopened", and is retried: once the
#     folder is writable again the file comes back without another SIGHUP
#     and the next alerts reach it.
# SKIPs with one line when not root, without user nobody, ip netns or
# tcpreplay. PASS:/FAIL: lines, then "N passed, N failed".
builddir=$(cd "${1:-.}" && pwd)
srcdir=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
bin=$builddir/src/suricata
yaml=$builddir/suricata.yaml
here=$srcdir/tests/live

if ! id nobody > /dev/null 2>&1; then
	echo "SKIP: run-as tests (no user nobody here)"
	exit 0
fi
. "$here/common.sh"
ok() { echo "PASS: run-as $*"; pass=$((pass + 1)); }
ko() { echo "FAIL: run-as $*"; fail=$((fail + 1)); }
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit; }
live_setup "run-as tests" ra
# nobody walks into the folders below
chmod 755 "$tmp"

python3 "$here/gen-live-pcap.py" idle "$tmp/idle.pcap"
{
	cat "$here/live.rules"
	echo 'alert http any any -> any any (msg:"run-as: store the exe"; fileext:"exe"; filestore; sid:9100100; rev:1;)'
} > "$tmp/rules"
common=(-c "$yaml" -S "$tmp/rules" -k none --set unix-command.enabled=no
	--set outputs.2.file-store.enabled=yes)

# N: the alerts of sid S in eve file F
alerts_in() { python3 "$here/check.py" alerts "$1" "$2" 2> /dev/null || echo 0; }
# waits (SECONDS) until COMMAND... succeeds
wait_until() {
	local n=$(($1 * 10)); shift
	for _ in $(seq 1 "$n"); do "$@" && return 0; sleep 0.1; done
	return 1
}
has_alert() { [ "$(alerts_in "$1" "$2")" -gt 0 ] 2> /dev/null; }
stored_exe() { grep -q '"filename":"setup.exe".*"stored":true' "$1" 2> /dev/null; }
fast_idle() { [ "$(grep -c 'live: idle flow' "$1" 2> /dev/null)" -gt "$2" ]; }

d=$tmp/user
mkdir -p "$d"
chgrp "$(id -g nobody)" "$d"
chmod 775 "$d"
if ! start user --af-packet="$vb" --set af-packet.0.threads=1 --user nobody; then
	ko "the engine did not start: $(tail -2 "$d/out" | tr '\n' ' ')"
	finish
fi
uid=$(awk '/^Uid:/ {print $3}' "/proc/$epid/status" 2> /dev/null)
if [ "$uid" = "$(id -u nobody)" ]; then ok "running as nobody (uid $uid)"
else ko "uid is '$uid', not nobody's"; fi

# file-store
replay "$srcdir/tests/data/pcaps/http-files.pcap" 500 "$tmp/r1.out" > /dev/null
if wait_until 10 stored_exe "$d/eve.json"; then
	f=$(find "$d/filestore" -path "$d/filestore/tmp" -prune -o -type f -print 2> /dev/null | head -1)
	owner=$(stat -c %U "$f" 2> /dev/null)
	if [ -n "$f" ] && [ "$owner" = nobody ]; then ok "file-store: ${f#$d/} stored, owned by nobody"
	else ko "file-store: eve says stored, but the file is '${f#$d/}' owned by '$owner'"; fi
else
	ko "file-store: setup.exe not stored (fs_errors: $(grep -o '"fs_errors":[0-9]*' "$d/eve.json" | tail -1))"
fi

# rotation: eve.json moved away, the others reopened where they are
mv "$d/eve.json" "$d/eve.json.1"
nfast=$(grep -c 'live: idle flow' "$d/fast.log")
kill -HUP "$epid"
if wait_until 10 grep -q "SIGHUP: log files reopened" "$d/out"; then ok "SIGHUP: log files reopened"
else ko "SIGHUP: no 'log files reopened' line: $(grep -m1 'reopen' "$d/out")"; fi
if grep -q "cannot reopen" "$d/out"; then ko "SIGHUP: $(grep -m1 'cannot reopen' "$d/out")"
else ok "SIGHUP: no file failed to reopen"; fi
replay "$tmp/idle.pcap" 100 "$tmp/r2.out" > /dev/null
if wait_until 10 has_alert "$d/eve.json" 9100006; then ok "SIGHUP: alerts reach the new eve.json"
else ko "SIGHUP: no alert in a new eve.json after the move"; fi
if wait_until 10 fast_idle "$d/fast.log" "$nfast"; then ok "SIGHUP: alerts reach fast.log, reopened in place"
else ko "SIGHUP: no new alert in fast.log"; fi

# a reopen that fails is said, and retried
chown root:root "$d"
chmod 755 "$d"
mv "$d/eve.json" "$d/eve.json.2"
kill -HUP "$epid"
if wait_until 10 grep -q "cannot reopen $d/eve.json: Permission denied" "$d/out"; then
	ok "failed reopen: $(grep -m1 -o "cannot reopen $d/eve.json: [^;]*" "$d/out")"
else
	ko "failed reopen: no line naming eve.json and the reason: $(grep 'reopen' "$d/out" | tail -1)"
fi
if [ "$(grep -c "SIGHUP: log files reopened" "$d/out")" = 1 ]; then ok "failed reopen: not called 'reopened'"
else ko "failed reopen: said 'log files reopened' anyway"; fi
chgrp "$(id -g nobody)" "$d"
chmod 775 "$d"
if wait_until 10 grep -q "output: $d/eve.json reopened" "$d/out"; then ok "failed reopen: retried, eve.json back without a SIGHUP"
else ko "failed reopen: eve.json not retried once the folder was writable"; fi
replay "$tmp/idle.pcap" 100 "$tmp/r3.out" > /dev/null
if wait_until 10 has_alert "$d/eve.json" 9100006; then ok "failed reopen: alerts reach eve.json again"
else ko "failed reopen: no alert in eve.json after the retry"; fi

stop "$epid" || ko "no clean exit on SIGTERM"
clean user
finish
