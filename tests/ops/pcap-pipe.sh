#!/bin/bash
# tests/ops/pcap-pipe.sh BUILDDIR SRCDIR: `-r` on a pipe reads the whole
# capture once, as `suricata -r <(zcat x.pcap.gz)` does with Suricata: the
# open-time check of a single file must not consume a FIFO's header (it once
# did: "read 0 files, 0 packets" and a capture error). Needs bash and mkfifo.
builddir=$(cd "${1:-.}" && pwd)
srcdir=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
bin=$builddir/src/suricata
pcap=$srcdir/tests/data/pcaps/sample.pcap
pass=0 fail=0
tmp=$(mktemp -d /tmp/pcap-pipe.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
check() { # WHAT CONDITION...
	local what=$1; shift
	if "$@"; then echo "PASS: pcap pipe: $what"; pass=$((pass + 1))
	else echo "FAIL: pcap pipe: $what"; fail=$((fail + 1)); fi
}
mkdir -p "$tmp/file" "$tmp/fifo"
"$bin" -c "$builddir/suricata.yaml" -r "$pcap" -l "$tmp/file" > "$tmp/file/out" 2>&1
mkfifo "$tmp/in.pcap"
cat "$pcap" > "$tmp/in.pcap" &
cpid=$!
timeout -k 5 60 "$bin" -c "$builddir/suricata.yaml" -r "$tmp/in.pcap" -l "$tmp/fifo" > "$tmp/fifo/out" 2>&1
rc=$?
kill "$cpid" 2> /dev/null; wait "$cpid" 2> /dev/null
check "exit 0 on a FIFO (rc $rc)" test "$rc" = 0
want=$(grep -o 'read 1 files, [0-9]* packets, [0-9]* bytes' "$tmp/file/out")
check "the FIFO's capture read whole (${want:-no summary line for the file})" \
	grep -q "${want:-no summary}" "$tmp/fifo/out"
check "no capture error" bash -c "! grep -q 'capture error' '$tmp/fifo/out'"
check "the same fast.log as the file" cmp -s "$tmp/file/fast.log" "$tmp/fifo/fast.log"
check "fast.log not empty" test -s "$tmp/fifo/fast.log"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
