#!/bin/bash
# tests/ops/thread-names.sh BUILDDIR SRCDIR: the engine's threads carry
# Suricata's names (ps -L, top -H): autofp's reader RX#01 and workers W#01..W#NN and the
# stats thread CS, the main thread the process name. The engine reads a
# capture from a FIFO that this script holds open, so its threads live
# until the script closes it: the names are read from
# /proc/PID/task/*/comm while they must exist (the wait for them ends as
# soon as the engine has started them; 60 s bounds a broken build).
# Needs bash, mkfifo and /proc.
builddir=$(cd "${1:-.}" && pwd)
srcdir=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
bin=$builddir/src/suricata
pcap=$srcdir/tests/data/pcaps/sample.pcap
pass=0 fail=0
tmp=$(mktemp -d /tmp/thread-names.XXXXXX)
trap 'exec 3>&-; rm -rf "$tmp"' EXIT
check() { # WHAT CONDITION...
	local what=$1; shift
	if "$@"; then echo "PASS: thread names: $what"; pass=$((pass + 1))
	else echo "FAIL: thread names: $what"; fail=$((fail + 1)); fi
}
names() { cat /proc/"$1"/task/*/comm 2> /dev/null | sort; }

mkfifo "$tmp/in.pcap"
"$bin" -c "$builddir/suricata.yaml" -r "$tmp/in.pcap" -l "$tmp" --runmode autofp \
	--set threading.detect-thread-ratio=1.0 --set stats.enabled=yes \
	--set stats.interval=8 -v > "$tmp/out" 2>&1 &
epid=$!
exec 3> "$tmp/in.pcap"
head -c 24 "$pcap" >&3            # the file header: the capture is open
# how many workers the engine says it runs ("runmode autofp, N workers")
want=
for _ in $(seq 600); do
	want=$(grep -o 'runmode autofp, [0-9]* worker' "$tmp/out" | grep -o '[0-9]*' | head -1)
	[ -n "$want" ] && [ "$(names "$epid" | grep -c '^W#')" -ge "$want" ] &&
		names "$epid" | grep -qx CS && break
	kill -0 "$epid" 2> /dev/null || break
	sleep 0.1
done
got=$(names "$epid" | tr '\n' ' ')
main=$(cat /proc/"$epid"/comm 2> /dev/null)
exec 3>&-
wait "$epid"
rc=$?
check "exit 0 (rc $rc)" test "$rc" = 0
check "the engine said how many workers it runs (${want:-no})" test -n "$want"
all=yes
for i in $(seq "${want:-1}"); do
	echo " $got" | grep -q " W#$(printf %02d "$i") " || all=no
done
check "workers W#01..W#$(printf %02d "${want:-1}") ($got)" test "$all" = yes
check "no other W# thread" test "$(echo "$got" | tr ' ' '\n' | grep -c '^W#')" = "${want:-x}"
check "stats thread CS" bash -c "echo ' $got' | grep -q ' CS '"
check "autofp's reader RX#01, once" test "$(echo "$got" | tr ' ' '\n' | grep -c '^RX#01$')" = 1
check "the main thread keeps the process name ($main)" test "$main" = suricata
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
