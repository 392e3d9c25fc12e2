#!/bin/bash
# tests/ops/full-disk.sh BUILDDIR SRCDIR: a full disk under eve.json.
# eve.json goes to a 256 KiB tmpfs (as root: mount -t tmpfs; SKIP when the
# mount fails) that 5,000 flow records overflow; the other logs stay in a
# normal folder. Checks (PASS:/FAIL: lines, then "N passed, N failed"):
#   exit 3; one line naming eve.json and the reason (said once), in
#   suricata.log; the last suricata.log line says how many records were
#   lost; stats.log counts eve_output.regular.lost; every line of eve.json
#   is whole JSON (no cut line); after space returns (a fresh run
#   appending to the same file), records are written again, on a line of
#   their own.
# Then without root tricks: RLIMIT_FSIZE (ulimit -f, SIGXFSZ ignored by the
# engine), which fails the writes with EFBIG: exit 3, eve.json whole.
# And a file a killed run left with a cut last line: the next run ends that
# line before its first record.
builddir=$(cd "${1:-.}" && pwd)
srcdir=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
bin=$builddir/src/suricata
yaml=$builddir/suricata.yaml
T_NAME="full disk"
. "$srcdir/tests/lib.sh"

check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

tmp=$(mktemp -d /tmp/full-disk.XXXXXX)
small=$tmp/small
mounted=
trap '[ -n "$mounted" ] && umount "$small" 2> /dev/null; rm -rf "$tmp"' EXIT

# N UDP flows, one packet each: N flow records (~500 bytes each)
gen() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
n, out = int(sys.argv[1]), sys.argv[2]
with open(out, 'wb') as f:
    f.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
    for i in range(n):
        udp = struct.pack('!HHHH', 10000 + i % 50000, 7777, 28, 0) + b'x' * 20
        ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(udp), 1, 0, 64, 17, 0,
                         bytes([10, 1, i >> 8 & 255, i & 255]), bytes([10, 2, 0, 1]))
        s = sum(struct.unpack('!10H', ip))
        s = (s >> 16) + (s & 0xffff)
        s += s >> 16
        ip = ip[:10] + struct.pack('!H', ~s & 0xffff) + ip[12:]
        fr = b'\x00\x00\x5e\x00\x53\x02\x00\x00\x5e\x00\x53\x01\x08\x00' + ip + udp
        f.write(struct.pack('<IIII', 1700000000 + i // 1000, i % 1000 * 1000, len(fr), len(fr)))
        f.write(fr)
PY
}
# every line of $1 parses as JSON and the file ends a line: prints the count
whole() {
	python3 - "$1" <<'PY'
import json, sys
data = open(sys.argv[1], 'rb').read()
if data and not data.endswith(b'\n'):
    sys.exit(1)
n = 0
for line in data.split(b'\n')[:-1]:
    json.loads(line.decode('utf-8'))
    n += 1
print(n)
PY
}
run() { # LOGDIR EVEPATH [extra args]: the exit code in $rc
	local dir=$1 eve=$2
	shift 2
	"$bin" -c "$yaml" --runmode single -r "$tmp/flows.pcap" -S /dev/null -l "$dir" \
		--set outputs.1.eve-log.filename="$eve" "$@" > "$dir/out.txt" 2>&1
	rc=$?
}

gen 5000 "$tmp/flows.pcap"
mkdir -p "$small" "$tmp/a" "$tmp/b" "$tmp/c" "$tmp/d"
if mount -t tmpfs -o size=256k tmpfs "$small" 2> /dev/null; then
	mounted=1
	run "$tmp/a" "$small/eve.json"
	check "tmpfs: exit code 3 (got $rc)" '[ "$rc" = 3 ]'
	n=$(grep -c "cannot write $small/eve.json: No space left on device" "$tmp/a/suricata.log")
	check "tmpfs: the failure said once in suricata.log (got $n)" '[ "$n" = 1 ]'
	check "tmpfs: the last suricata.log line counts the lost records" \
		'tail -1 "$tmp/a/suricata.log" | grep -Eq "output: [1-9][0-9]* records and 0 suricata.log lines could not be written \(exit 3\)"'
	check "tmpfs: stats.log counts eve_output.regular.lost" \
		'grep -Eq "^eve_output.regular.lost +\| Global +\| [1-9]" "$tmp/a/stats.log"'
	n1=$(whole "$small/eve.json") || n1=
	check "tmpfs: every eve.json line is whole JSON ($n1 lines)" '[ -n "$n1" ] && [ "$n1" -gt 0 ]'
	# the space returns: half the file goes away (cut inside a line, as a
	# run killed in a write leaves it), and the next run appends
	head -c 131072 "$small/eve.json" > "$tmp/half" && cat "$tmp/half" > "$small/eve.json"
	nh=$(grep -c '^{"timestamp".*}$' "$small/eve.json")
	run "$tmp/b" "$small/eve.json"
	n2=$(grep -c '^{"timestamp".*}$' "$small/eve.json")
	check "tmpfs: after space returns, records are written again ($nh whole lines, then $n2)" \
		'[ "$n2" -gt "$nh" ]'
	# only the line cut by head -c is not JSON: the run started after it
	nbad=$(python3 -c '
import json, sys
bad = 0
for line in open(sys.argv[1], "rb").read().split(b"\n")[:-1]:
    try:
        json.loads(line)
    except ValueError:
        bad += 1
print(bad)' "$small/eve.json")
	check "tmpfs: the appending run starts on a line of its own ($nbad cut line)" '[ "$nbad" = 1 ]'
	umount "$small" && mounted=
else
	echo "SKIP: full disk: tmpfs (mount -t tmpfs failed: not root?)"
fi

# RLIMIT_FSIZE: every file is limited; write(2) fails with EFBIG
(ulimit -f 256 && run "$tmp/c" "$tmp/c/eve.json" && exit "$rc")
rc=$?
check "RLIMIT_FSIZE: exit code 3 (got $rc)" '[ "$rc" = 3 ]'
check "RLIMIT_FSIZE: the failure said once (stderr)" \
	'[ "$(grep -c "cannot write $tmp/c/eve.json: File too large" "$tmp/c/out.txt")" = 1 ]'
n=$(whole "$tmp/c/eve.json") || n=
check "RLIMIT_FSIZE: every eve.json line is whole JSON ($n lines)" '[ -n "$n" ] && [ "$n" -gt 0 ]'

# a run killed in the middle of a line: the next one ends it first
printf '{"event_type":"flow","cut' > "$tmp/d/eve.json"
run "$tmp/d" "$tmp/d/eve.json"
check "append after a cut line: exit 0 (got $rc)" '[ "$rc" = 0 ]'
check "append after a cut line: the first record starts a line" \
	'[ "$(sed -n 2p "$tmp/d/eve.json" | cut -c1-14)" = "{\"timestamp\":\"" ] && [ "$(head -1 "$tmp/d/eve.json")" = "{\"event_type\":\"flow\",\"cut" ]'
finish
