#!/bin/bash
# tests/ops/unix-socket.sh BUILDDIR SRCDIR: Suricata's unix-socket runmode
# (`suricata -c yaml --unix-socket=FILE`, no capture): pcap files sent over
# the socket are run one after another, each with its logs in its folder.
# Checks (PASS:/FAIL: lines, then "N passed, N failed"):
#   pcap-file of an endless file (a FIFO) then two more: pcap-current names
#   the running one, pcap-file-number is 2 and pcap-file-list lists both in
#   order while queued; pcap-interrupt ends the endless file (its stats are
#   written in its folder); both queued files are processed, each OUTDIR with
#   exactly the alerts -r gives for that pcap (fresh state per file: the
#   flow and threshold state of one file never shows in the next);
#   pcap-last-processed is the last file's modification time (ms);
#   errors answered with Suricata's messages (missing file, missing folder,
#   no output-dir);
#   reload-rules and SIGUSR2 re-read the yaml's rule-files: a rule of the
#   newly named file alerts on the next pcap, the old file's does not;
#   shutdown ends the process (exit 0), the socket file removed.
# Needs nothing but the build and python3 (tests/live/uclient.py).
builddir=$(cd "${1:-.}" && pwd)
srcdir=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
bin=$builddir/src/suricata
pcaps=$srcdir/tests/data/pcaps
uclient=$srcdir/tests/live/uclient.py
T_NAME="unix-socket runmode"
. "$srcdir/tests/lib.sh"

tmp=$(mktemp -d /tmp/usock-test.XXXXXX)
epid=
wpid=
trap '[ -n "$epid" ] && kill "$epid" 2> /dev/null; [ -n "$wpid" ] && kill "$wpid" 2> /dev/null; rm -rf "$tmp"' EXIT
sock=$tmp/command.socket
# the sorted (sid, src, dst, sp, dp, pcap_cnt) of eve.json's alerts
alerts() { python3 - "$1" <<'PY'
import json, sys
out = []
try:
	for l in open(sys.argv[1]):
		e = json.loads(l)
		if e.get("event_type") == "alert":
			out.append("%d %s %s %s %s %s" % (e["alert"]["signature_id"], e.get("src_ip"),
				e.get("dest_ip"), e.get("src_port"), e.get("dest_port"), e.get("pcap_cnt")))
except OSError:
	pass
print("\n".join(sorted(out)))
PY
}

# the "slow" file is endless: a FIFO that a writer fills with small UDP
# packets until the engine closes it, so that only pcap-interrupt can end
# it, however fast or busy the machine (a large file once ended by itself
# before the interrupt on a quiet one, and a busy one raced the other way)
mkfifo "$tmp/slow.pcap"
python3 - "$tmp/slow.pcap" <<'PY' &
import signal, struct, sys
signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # the engine closing it ends us
with open(sys.argv[1], "wb", buffering=1 << 16) as f:
	f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
	i = 0
	while True:
		payload = b"slow-%07d" % (i % 10000000)
		udp = struct.pack(">HHHH", 1024 + i % 5000, 9999, 8 + len(payload), 0) + payload
		ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), i & 0xffff, 0, 64, 17, 0,
			bytes([10, 1, (i >> 8) & 0xff, i & 0xff]), bytes([10, 2, 0, 1])) + udp
		eth = b"\x00\x11\x22\x33\x44\x55\x00\x66\x77\x88\x99\xaa\x08\x00" + ip
		f.write(struct.pack("<IIII", 1000000 + i // 1000, (i % 1000) * 1000, len(eth), len(eth)))
		f.write(eth)
		i += 1
PY
wpid=$!
a_pcap=$pcaps/http-split-response.pcap
b_pcap=$pcaps/multi-flow.pcap
# a.rules alerts on both pcaps (a threshold counts across flows: a state
# that must not leak from one file into the next); b.rules names another sid
cat > "$tmp/a.rules" <<'R'
alert tcp any any -> any any (msg:"syn"; flags:S; sid:1001;)
alert ip any any -> any any (msg:"first packet per run"; threshold: type limit, track by_rule, count 1, seconds 3600; sid:1002;)
alert udp any any -> any 9999 (msg:"slow"; sid:1003;)
R
cat > "$tmp/b.rules" <<'R'
alert tcp any any -> any any (msg:"syn, reloaded"; flags:S; sid:2001;)
R
cat > "$tmp/test.yaml" <<Y
%YAML 1.1
---
include: $builddir/suricata.yaml
default-rule-path: $tmp
rule-files:
  - a.rules
Y
common=(-c "$tmp/test.yaml" -k none --runmode single)
mkdir -p "$tmp/log" "$tmp/ref-a" "$tmp/ref-b" "$tmp/out-slow" "$tmp/out-a" "$tmp/out-b" "$tmp/out-c" "$tmp/out-d"
"$bin" "${common[@]}" -r "$a_pcap" -l "$tmp/ref-a" > "$tmp/ref-a/out" 2>&1 || bad "reference run -r a: $(tail -1 "$tmp/ref-a/out")"
"$bin" "${common[@]}" -r "$b_pcap" -l "$tmp/ref-b" > "$tmp/ref-b/out" 2>&1 || bad "reference run -r b: $(tail -1 "$tmp/ref-b/out")"
ref_a=$(alerts "$tmp/ref-a/eve.json")
ref_b=$(alerts "$tmp/ref-b/eve.json")
if [ -z "$ref_a" ] || [ -z "$ref_b" ] || ! grep -q '^1002 ' <<< "$ref_b"; then
	bad "the reference runs give no alerts (a: $(wc -l <<< "$ref_a"), b: $(wc -l <<< "$ref_b"))"
fi

"$bin" -c "$tmp/test.yaml" -k none --unix-socket="$sock" -l "$tmp/log" > "$tmp/log/out" 2>&1 &
epid=$!
for _ in $(seq 1 100); do [ -S "$sock" ] && uc version > /dev/null 2>&1 && break; sleep 0.1; done
if ! uc version > /dev/null 2>&1; then
	bad "the runmode did not start: $(tail -3 "$tmp/log/out" | tr '\n' ' ')"
	finish
fi
ok "--unix-socket without a capture starts and listens"
a=$(uc command-list)
expect "command-list has the pcap commands" "$a" \
	'{"pcap-file", "pcap-file-continuous", "pcap-file-number", "pcap-file-list", "pcap-current", "pcap-last-processed", "pcap-interrupt"} <= set(a["message"]["commands"]) and a["message"]["count"] == len(a["message"]["commands"])'
a=$(uc capture-mode)
expect "capture-mode: UNIX_SOCKET" "$a" 'a == {"return": "OK", "message": "UNIX_SOCKET"}'
a=$(uc pcap-current)
expect "pcap-current when idle: None" "$a" 'a == {"return": "OK", "message": "None"}'
a=$(uc pcap-last-processed)
expect "pcap-last-processed before any file: 0" "$a" 'a == {"return": "OK", "message": 0}'

# errors, as Suricata words them
a=$(uc pcap-file "{\"filename\": \"$tmp/nope.pcap\", \"output-dir\": \"$tmp/out-a\"}")
expect "a missing file: filename does not exist" "$a" 'a == {"return": "NOK", "message": "filename does not exist"}'
a=$(uc pcap-file "{\"filename\": \"$a_pcap\", \"output-dir\": \"$tmp/no-such-dir\"}")
expect "a missing folder: output-dir does not exist" "$a" 'a == {"return": "NOK", "message": "output-dir does not exist"}'
a=$(uc pcap-file "{\"filename\": \"$a_pcap\"}")
expect "no output-dir: output-dir param is mandatory" "$a" 'a == {"return": "NOK", "message": "output-dir param is mandatory"}'
a=$(uc pcap-file "{\"filename\": 7, \"output-dir\": \"$tmp/out-a\"}")
expect "a filename that is not a string" "$a" 'a == {"return": "NOK", "message": "filename is not a string"}'
a=$(uc pcap-file "{\"filename\": \"$a_pcap\", \"output-dir\": \"$tmp/out-a\", \"tenant\": \"x\"}")
expect "a tenant that is not a number" "$a" 'a == {"return": "NOK", "message": "tenant is not a number"}'
a=$(uc pcap-file-number)
expect "refused files are not queued" "$a" 'a == {"return": "OK", "message": 0}'

# the slow file, then a and b queued behind it
a=$(uc pcap-file "{\"filename\": \"$tmp/slow.pcap\", \"output-dir\": \"$tmp/out-slow\"}")
expect "pcap-file: Successfully added file to list" "$a" 'a == {"return": "OK", "message": "Successfully added file to list"}'
if wait_for 10 "a['message'] == '$tmp/slow.pcap'" pcap-current; then
	ok "pcap-current names the running file"
else
	bad "pcap-current never named $tmp/slow.pcap: $(uc pcap-current)"
fi
uc pcap-file "{\"filename\": \"$a_pcap\", \"output-dir\": \"$tmp/out-a\"}" > /dev/null
uc pcap-file "{\"filename\": \"$b_pcap\", \"output-dir\": \"$tmp/out-b\", \"tenant\": 0, \"delete-when-done\": false}" > /dev/null
a=$(uc pcap-file-number)
expect "pcap-file-number while queued: 2" "$a" 'a == {"return": "OK", "message": 2}'
a=$(uc pcap-file-list)
expect "pcap-file-list while queued: both, in order" "$a" \
	"a == {'return': 'OK', 'message': {'count': 2, 'files': ['$a_pcap', '$b_pcap']}}"
a=$(uc pcap-interrupt)
expect "pcap-interrupt: Interrupted" "$a" 'a == {"return": "OK", "message": "Interrupted"}'
if wait_for 30 "a['message'] == 0" pcap-file-number && wait_for 30 "a['message'] == 'None'" pcap-current; then
	ok "the queue drains: pcap-file-number 0, pcap-current None"
else
	bad "the queue did not drain: $(uc pcap-file-number) $(uc pcap-current)"
fi
slow_pkts=$(python3 -c '
import json, sys
n = None
for l in open(sys.argv[1]):
	e = json.loads(l)
	if e.get("event_type") == "stats":
		n = e["stats"]["decoder"]["pkts"]
print(n)' "$tmp/out-slow/eve.json" 2> /dev/null)
if [ -n "$slow_pkts" ] && [ "$slow_pkts" != None ] && [ "$slow_pkts" -gt 0 ]; then
	ok "pcap-interrupt ended the endless file ($slow_pkts packets, stats in its folder)"
else
	bad "pcap-interrupt: the endless file's stats say ${slow_pkts:-nothing} packets"
fi
for x in a b; do
	ref=$(eval echo "\"\$ref_$x\"")
	got=$(alerts "$tmp/out-$x/eve.json")
	if [ -n "$got" ] && [ "$got" = "$ref" ]; then
		ok "file $x: its folder has the alerts -r gives ($(wc -l <<< "$got") alerts)"
	else
		bad "file $x: alerts differ from -r: $(diff <(echo "$ref") <(echo "$got") | head -4 | tr '\n' ' ')"
	fi
	[ -s "$tmp/out-$x/fast.log" ] && ok "file $x: fast.log in its folder" || bad "file $x: no fast.log in $tmp/out-$x"
done
want=$(python3 -c 'import os,sys; print(int(os.stat(sys.argv[1]).st_mtime * 1000))' "$b_pcap")
a=$(uc pcap-last-processed)
expect "pcap-last-processed: the last file's modification time in ms" "$a" "a == {'return': 'OK', 'message': $want}"

# reload-rules re-reads rule-files from the yaml
sed -i 's/^  - a.rules$/  - b.rules/' "$tmp/test.yaml"
a=$(uc reload-rules)
expect "reload-rules after rule-files changed in the yaml: done" "$a" 'a == {"return": "OK", "message": "done"}'
uc pcap-file "{\"filename\": \"$a_pcap\", \"output-dir\": \"$tmp/out-c\"}" > /dev/null
wait_for 30 "a['message'] == 0" pcap-file-number && wait_for 30 "a['message'] == 'None'" pcap-current
got=$(alerts "$tmp/out-c/eve.json" | cut -d' ' -f1 | sort -u | tr '\n' ' ')
if [ "$got" = "2001 " ]; then ok "after reload-rules the new file's rule alerts, the old ones do not"
else bad "after reload-rules: sids '$got', want 2001 only"; fi
# SIGUSR2 too
sed -i 's/^  - b.rules$/  - a.rules/' "$tmp/test.yaml"
kill -USR2 "$epid"
wait_for 30 "a['message'][0]['reloads'] == 2" ruleset-stats || bad "SIGUSR2: no second reload: $(uc ruleset-stats)"
uc pcap-file "{\"filename\": \"$a_pcap\", \"output-dir\": \"$tmp/out-d\"}" > /dev/null
wait_for 30 "a['message'] == 0" pcap-file-number && wait_for 30 "a['message'] == 'None'" pcap-current
got=$(alerts "$tmp/out-d/eve.json")
if [ "$got" = "$ref_a" ]; then ok "after SIGUSR2 (rule-files back to a.rules) the file alerts as -r does"
else bad "after SIGUSR2: $(diff <(echo "$ref_a") <(echo "$got") | head -4 | tr '\n' ' ')"; fi

a=$(uc shutdown)
expect "shutdown: Closing Suricata" "$a" 'a == {"return": "OK", "message": "Closing Suricata"}'
for _ in $(seq 1 100); do kill -0 "$epid" 2> /dev/null || break; sleep 0.1; done
if wait "$epid"; then ok "the process exits 0 after shutdown"; else bad "exit status $? after shutdown: $(tail -2 "$tmp/log/out" | tr '\n' ' ')"; fi
epid=
[ ! -e "$sock" ] && ok "the socket file is removed" || bad "the socket file $sock is left"
if grep -qE 'ERROR|Error' "$tmp/log/out"; then bad "errors in the log: $(grep -m2 -E 'ERROR|Error' "$tmp/log/out" | tr '\n' ' ')"; fi
finish
