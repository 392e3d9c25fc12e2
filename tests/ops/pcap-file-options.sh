#!/bin/bash
# tests/ops/pcap-file-options.sh BUILDDIR SRCDIR: the pcap-file folder options
# of Suricata's command line, on the bundled captures:
#   --pcap-file-recursive: a folder's sub-folders read too (every file's
#     packets counted, the same alerts as each file alone); without it a
#     sub-folder is skipped with a warning;
#   --pcap-file-delete: each file read is removed, the folder left; with -r
#     on one file, that file;
#   --pcap-file-continuous (pcap-file.delay 0, poll-interval 1): the files
#     present are read, then a file copied in later is read (its DNS
#     records in eve.json), each deleted with --pcap-file-delete, until
#     SIGTERM ends the run (exit 0);
#   recursive with continuous, and continuous on a file: refused (exit 1),
#     one line saying why.
# PASS:/FAIL: lines, then "N passed, N failed".
builddir=$(cd "${1:-.}" && pwd)
srcdir=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
bin=$builddir/src/suricata
yaml=$builddir/suricata.yaml
pcaps=$srcdir/tests/data/pcaps
pass=0 fail=0
ok() { echo "PASS: pcap-file options: $*"; pass=$((pass + 1)); }
ko() { echo "FAIL: pcap-file options: $*"; fail=$((fail + 1)); }
tmp=$(mktemp -d /tmp/pcap-file-opts.XXXXXX)
epid=
trap '[ -n "$epid" ] && kill -KILL "$epid" 2> /dev/null; rm -rf "$tmp"' EXIT
run() { # NAME ARGS...: a run logging into $tmp/NAME; its exit code
	local name=$1; shift
	mkdir -p "$tmp/$name"
	timeout -k 5 120 "$bin" -c "$yaml" -l "$tmp/$name" "$@" > "$tmp/$name/out" 2>&1
}
packets() { sed -n 's/.*pcap-file: read \([0-9]*\) files, \([0-9]*\) packets.*/\1 \2/p' "$1"; }
dns() { grep -c '"event_type":"dns"' "$1" 2> /dev/null || echo 0; }

# the tree: a.pcap at the top, b in sub/, c in sub/deeper/
tree() {
	rm -rf "$tmp/in"
	mkdir -p "$tmp/in/sub/deeper"
	cp "$pcaps/sample.pcap" "$tmp/in/a.pcap"
	cp "$pcaps/dns/dns-udp.pcap" "$tmp/in/sub/b.pcap"
	cp "$pcaps/arp.pcap" "$tmp/in/sub/deeper/c.pcap"
}
total=0
for f in sample.pcap dns/dns-udp.pcap arp.pcap; do
	run one -r "$pcaps/$f"
	n=$(packets "$tmp/one/out" | cut -d' ' -f2)
	[ -n "$a_pkts" ] || a_pkts=$n
	total=$((total + n))
done

# --- recursive ---
tree
run flat -r "$tmp/in"
if grep -q "sub: skipped: a folder (sub-folders are read with --pcap-file-recursive)" "$tmp/flat/out" &&
	[ "$(packets "$tmp/flat/out")" = "1 $a_pkts" ]; then
	ok "without --pcap-file-recursive: the top folder's file alone, the sub-folder warned"
else
	ko "without --pcap-file-recursive: $(grep -E 'read|skipped' "$tmp/flat/out" | tr '\n' ' ')"
fi
run rec -r "$tmp/in" --pcap-file-recursive
rc=$?
if [ $rc = 0 ] && [ "$(packets "$tmp/rec/out")" = "3 $total" ]; then
	ok "--pcap-file-recursive: 3 files, $total packets (each file's alone summed)"
else
	ko "--pcap-file-recursive: exit $rc, read '$(packets "$tmp/rec/out")', want '3 $total'"
fi
[ "$(dns "$tmp/rec/eve.json")" -gt 0 ] && ok "--pcap-file-recursive: sub/b.pcap's DNS records in eve.json" ||
	ko "--pcap-file-recursive: no DNS record from sub/b.pcap"
[ -f "$tmp/in/sub/deeper/c.pcap" ] && ok "without --pcap-file-delete the files stay" ||
	ko "a file was removed without --pcap-file-delete"

# --- delete ---
run del -r "$tmp/in" --pcap-file-recursive --pcap-file-delete
left=$(find "$tmp/in" -type f | wc -l)
if [ "$left" = 0 ] && [ -d "$tmp/in/sub/deeper" ] && [ "$(packets "$tmp/del/out")" = "3 $total" ]; then
	ok "--pcap-file-delete: every file read, then removed; the folders left"
else
	ko "--pcap-file-delete: $left files left, read '$(packets "$tmp/del/out")'"
fi
cp "$pcaps/sample.pcap" "$tmp/one.pcap"
run delone -r "$tmp/one.pcap" --pcap-file-delete
[ ! -e "$tmp/one.pcap" ] && ok "--pcap-file-delete on -r FILE: the file removed" ||
	ko "--pcap-file-delete on -r FILE: the file is still there"

# --- refusals ---
tree
run bad1 -r "$tmp/in" --pcap-file-recursive --pcap-file-continuous
rc=$?
[ $rc = 1 ] && grep -q "recursive and continuous cannot be used together" "$tmp/bad1/out" &&
	ok "recursive with continuous: refused (exit 1)" || ko "recursive with continuous: exit $rc, $(tail -1 "$tmp/bad1/out")"
run bad2 -r "$tmp/in/a.pcap" --pcap-file-continuous
rc=$?
[ $rc = 1 ] && grep -q "watches a folder; this is not one" "$tmp/bad2/out" &&
	ok "continuous on a file: refused (exit 1)" || ko "continuous on a file: exit $rc, $(tail -1 "$tmp/bad2/out")"

# --- continuous ---
rm -rf "$tmp/w"
mkdir -p "$tmp/w" "$tmp/cont"
cp "$pcaps/sample.pcap" "$tmp/w/1.pcap"
"$bin" -c "$yaml" -l "$tmp/cont" -r "$tmp/w" --pcap-file-continuous --pcap-file-delete \
	--set pcap-file.delay=0 --set pcap-file.poll-interval=1 > "$tmp/cont/out" 2>&1 &
epid=$!
# waits up to 20 s for CONDITION
wait_until() {
	for _ in $(seq 1 200); do
		eval "$1" && return 0
		kill -0 "$epid" 2> /dev/null || return 1
		sleep 0.1
	done
	return 1
}
if wait_until '[ ! -e "$tmp/w/1.pcap" ]'; then
	ok "continuous: the file present at the start read and deleted"
else
	ko "continuous: 1.pcap not read: $(tail -2 "$tmp/cont/out" | tr '\n' ' ')"
fi
kill -0 "$epid" 2> /dev/null && ok "continuous: still running once the folder is read" ||
	ko "continuous: the run ended with the folder read"
# a file written elsewhere, then moved in whole (a new modification time)
cp "$pcaps/dns/dns-udp.pcap" "$tmp/2.pcap.part"
touch "$tmp/2.pcap.part"
mv "$tmp/2.pcap.part" "$tmp/w/2.pcap"
if wait_until '[ ! -e "$tmp/w/2.pcap" ]'; then
	ok "continuous: a file moved in later read and deleted"
else
	ko "continuous: 2.pcap not read within 20 s"
fi
kill -TERM "$epid"
wait "$epid"
rc=$?
epid=
[ $rc = 0 ] && ok "continuous: SIGTERM ends the run, exit 0" || ko "continuous: exit $rc after SIGTERM"
if grep -q "pcap-file: read 2 files" "$tmp/cont/out" && [ "$(dns "$tmp/cont/eve.json")" -gt 0 ]; then
	ok "continuous: 2 files read, the later file's DNS records in eve.json"
else
	ko "continuous: $(grep 'pcap-file: read' "$tmp/cont/out"), $(dns "$tmp/cont/eve.json") dns records"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
