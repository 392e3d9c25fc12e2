#!/bin/bash
# tests/ops/unix-socket-commands.sh BUILDDIR SRCDIR: every one of Suricata
# 8.0.6's 49 unix-socket commands, answered with 8.0's return and message
# shapes, against live state: the engine reads an endless capture from a
# FIFO (-r, workers) with the socket beside it, so that flows, hostbits and
# memcaps are those of a running engine; then the unix-socket runmode for
# the pcap-* commands.
# Checks (PASS:/FAIL: lines, then "N passed, N failed"):
#   command-list: the 49 names (dataset-* when the dataset module has them),
#   count = their number; each command answered (unknown: NOK "Unknown
#   command" only for dataset-* not there yet);
#   memcap-list / memcap-show / memcap-set: Suricata's names and values
#   ("64mb"), errors worded as 8.0's; a flow memcap set at run time makes the
#   engine refuse or evict new flows (flow.memcap or
#   flow.emerg_mode_entered counts), which it did not before;
#   add-hostbit makes a rule testing that hostbit alert; list-hostbit lists
#   it with the seconds its expire has left; remove-hostbit removes it (then "host not found");
#   get-flow-stats-by-id with the flow_id eve gave the flow: its packets and
#   bytes; an unknown id: NOK "Not found";
#   the tenant commands, iface-bypassed-stat, ruleset-profile*: 8.0's
#   answers when the feature is not there.
# The client is tests/live/uclient.py, written from Suricata's protocol
# documentation (the reference tarball in ../shared carries no suricatasc).
# Every wait polls for state (60 s bounds a broken build); no sleep is an
# assertion. Needs bash, python3, mkfifo.
builddir=$(cd "${1:-.}" && pwd)
srcdir=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
bin=$builddir/src/suricata
uclient=$srcdir/tests/live/uclient.py
T_NAME="unix-socket commands"
. "$srcdir/tests/lib.sh"

tmp=$(mktemp -d /tmp/usock-cmds.XXXXXX)
epid= wpid=
trap '[ -n "$epid" ] && kill "$epid" 2> /dev/null; [ -n "$wpid" ] && kill "$wpid" 2> /dev/null; rm -rf "$tmp"' EXIT
sock=$tmp/command.socket

# Flow A (10.1.0.1:5555 -> 10.2.0.1:9999), and every 50th packet one of an
# ever new flow (10.3.x.y, a new address or source port each) that a flow memcap can
# refuse; 1 ms of packet time apart. Written in bursts of 500 with a pause
# between them so that the logs stay small (no assertion waits on it).
mkfifo "$tmp/in.pcap"
python3 - "$tmp/in.pcap" <<'PY' &
import signal, struct, sys, time
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
def pkt(src, sp, payload):
	udp = struct.pack(">HHHH", sp, 9999, 8 + len(payload), 0) + payload
	ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0, 64, 17, 0,
		bytes(src), bytes([10, 2, 0, 1])) + udp
	return b"\x00\x11\x22\x33\x44\x55\x00\x66\x77\x88\x99\xaa\x08\x00" + ip
with open(sys.argv[1], "wb", buffering=1 << 14) as f:
	f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
	i = 0
	while True:
		if i % 50:
			e = pkt([10, 1, 0, 1], 5555, b"flow-a-%08d" % i)
		else:
			k = i // 50
			e = pkt([10, 3, (k >> 8) & 255, k & 255], 1024 + (k >> 16) % 60000, b"new-%08d" % i)
		f.write(struct.pack("<IIII", 1000000 + i // 1000, (i % 1000) * 1000, len(e), len(e)))
		f.write(e)
		i += 1
		if i % 500 == 0:
			f.flush()
			time.sleep(0.05)
PY
wpid=$!

cat > "$tmp/t.rules" <<'R'
alert udp any 5555 -> any 9999 (msg:"flow a"; threshold: type limit, track by_rule, count 1, seconds 3600; sid:1;)
alert udp 10.1.0.1 any -> any 9999 (msg:"blocked host"; hostbits:isset,blocked,track ip_src; threshold: type limit, track by_rule, count 1, seconds 3600; sid:2;)
R
cat > "$tmp/test.yaml" <<Y
%YAML 1.1
---
include: $builddir/suricata.yaml
default-rule-path: $tmp
rule-files:
  - t.rules
unix-command:
  enabled: yes
  filename: $sock
flow:
  prealloc: 0
# the new flows stay (recycled flows would never need new memory)
flow-timeouts:
  udp:
    new: 3600
    established: 3600
Y
"$bin" -c "$tmp/test.yaml" -k none -r "$tmp/in.pcap" --runmode autofp -l "$tmp" \
	> "$tmp/out" 2>&1 &
epid=$!
for _ in $(seq 600); do
	[ -S "$sock" ] && uc version > /dev/null 2>&1 && break
	kill -0 "$epid" 2> /dev/null || break
	sleep 0.1
done
if ! uc version > /dev/null 2>&1; then
	bad "the engine did not start: $(tail -3 "$tmp/out" | tr '\n' ' ')"
	finish
fi
ok "-r with unix-command enabled listens"

# eve's first record of sid N ("" until there is one)
alert_of() { grep -F '"event_type":"alert"' "$tmp/eve.json" 2> /dev/null | python3 -c '
import json, sys
try:
	for l in sys.stdin:
		try:
			e = json.loads(l)
		except ValueError:
			continue
		if e.get("event_type") == "alert" and e["alert"]["signature_id"] == int(sys.argv[1]):
			print(e["flow_id"])
			break
except OSError:
	pass
' "$1"
}
wait_alert() { # SID: its flow_id on stdout, or 1 after 60 s
	local id
	for _ in $(seq 600); do
		id=$(alert_of "$1")
		[ -n "$id" ] && { echo "$id"; return 0; }
		sleep 0.1
	done
	return 1
}

all49="shutdown command-list help version uptime running-mode capture-mode conf-get
dump-counters reload-rules ruleset-reload-rules ruleset-reload-nonblocking ruleset-reload-time
ruleset-stats ruleset-failed-rules ruleset-profile ruleset-profile-start ruleset-profile-stop
register-tenant-handler unregister-tenant-handler register-tenant reload-tenant reload-tenants
unregister-tenant add-hostbit remove-hostbit list-hostbit reopen-log-files memcap-set
memcap-show memcap-list dataset-add dataset-remove get-flow-stats-by-id dataset-dump
dataset-clear dataset-lookup dataset-add-json iface-stat iface-list iface-bypassed-stat
ebpf-bypassed-stat pcap-file pcap-file-continuous pcap-file-number pcap-file-list
pcap-last-processed pcap-interrupt pcap-current"
set -- $all49
[ $# = 49 ] || bad "the test's own list has $# names"
list=$(uc command-list)
names=$(jq "$list" '" ".join(a["message"]["commands"])')
expect "command-list: count is the number of names" "$list" \
	'a["return"] == "OK" and a["message"]["count"] == len(a["message"]["commands"])'
missing=
for c in $all49; do
	case " $names " in
	*" $c "*) ;;
	*) case $c in dataset-*|pcap-*) ;; *) missing="$missing $c" ;; esac ;;
	esac
done
if [ -z "$missing" ]; then ok "command-list has 8.0.6's commands (pcap-* in their runmode)"
else bad "command-list lacks:$missing"; fi
extra=
for c in $names; do
	case " $(echo $all49) " in *" $c "*) ;; *) extra="$extra $c" ;; esac
done
if [ -z "$extra" ]; then ok "command-list names no command 8.0.6 lacks"
else bad "command-list has commands 8.0.6 lacks:$extra"; fi
a=$(uc help)
expect "help: the same list" "$a" "a['message']['commands'] == '$names'.split()"

# ---- the ones answered the same in every state ----
a=$(uc version)
expect "version" "$a" 'a["return"] == "OK" and a["message"].startswith("8.0")'
a=$(uc uptime)
expect "uptime: seconds" "$a" 'a["return"] == "OK" and isinstance(a["message"], int)'
a=$(uc running-mode)
expect "running-mode: autofp" "$a" 'a == {"return": "OK", "message": "autofp"}'
a=$(uc capture-mode)
expect "capture-mode: PCAP_FILE" "$a" 'a == {"return": "OK", "message": "PCAP_FILE"}'
a=$(uc conf-get '{"variable": "flow.prealloc"}')
expect "conf-get" "$a" 'a == {"return": "OK", "message": "0"}'
a=$(uc conf-get '{"variable": "no.such.key"}')
expect "conf-get of no key: Unable to get value" "$a" 'a == {"return": "NOK", "message": "Unable to get value"}'
a=$(uc dump-counters)
expect "dump-counters: uptime and decoder" "$a" \
	'a["return"] == "OK" and "uptime" in a["message"] and "pkts" in a["message"]["decoder"]'
a=$(uc ruleset-stats)
expect "ruleset-stats: 2 rules" "$a" 'a["return"] == "OK" and a["message"][0]["rules_loaded"] == 2'
a=$(uc ruleset-failed-rules)
expect "ruleset-failed-rules: none" "$a" 'a == {"return": "OK", "message": []}'
a=$(uc ruleset-reload-time)
expect "ruleset-reload-time" "$a" 'a["return"] == "OK" and "last_reload" in a["message"][0]'
a=$(uc reload-rules)
expect "reload-rules: done" "$a" 'a == {"return": "OK", "message": "done"}'
a=$(uc ruleset-reload-rules)
expect "ruleset-reload-rules: done" "$a" 'a == {"return": "OK", "message": "done"}'
a=$(uc ruleset-reload-nonblocking)
expect "ruleset-reload-nonblocking: answered" "$a" 'a["return"] in ("OK", "NOK") and bool(a["message"])'
a=$(uc reopen-log-files)
expect "reopen-log-files: done" "$a" 'a == {"return": "OK", "message": "done"}'
a=$(uc iface-list)
expect "iface-list: none for a file" "$a" 'a == {"return": "OK", "message": {"count": 0, "ifaces": []}}'
a=$(uc iface-stat '{"iface": "eth9"}')
expect "iface-stat of no interface" "$a" 'a == {"return": "NOK", "message": "Interface not found"}'
for c in iface-bypassed-stat ebpf-bypassed-stat; do
	a=$(uc $c)
	expect "$c: No interface using bypass" "$a" 'a == {"return": "NOK", "message": "No interface using bypass"}'
done
for c in ruleset-profile ruleset-profile-start ruleset-profile-stop; do
	a=$(uc $c)
	expect "$c: rule profiling not built in" "$a" 'a["return"] == "NOK" and "profiling" in a["message"]'
done
for c in register-tenant-handler unregister-tenant-handler; do
	a=$(uc $c '{"id": 1, "htype": "vlan", "hargs": 10}')
	expect "$c: multi-tenant support not enabled" "$a" 'a == {"return": "NOK", "message": "multi-tenant support not enabled"}'
done
for c in register-tenant reload-tenant; do
	a=$(uc $c "{\"id\": 1, \"filename\": \"$tmp/test.yaml\"}")
	expect "$c: multi-tenant support not enabled" "$a" 'a == {"return": "NOK", "message": "multi-tenant support not enabled"}'
done
a=$(uc unregister-tenant '{"id": 1}')
expect "unregister-tenant: multi-tenant support not enabled" "$a" 'a == {"return": "NOK", "message": "multi-tenant support not enabled"}'
a=$(uc reload-tenants)
expect "reload-tenants: multi-tenant support not enabled" "$a" 'a == {"return": "NOK", "message": "multi-tenant support not enabled"}'
for c in pcap-file-number pcap-current; do
	a=$(uc $c)
	expect "$c outside its runmode: Unknown command" "$a" 'a == {"return": "NOK", "message": "Unknown command"}'
done
# the dataset module's: answered (by it, or as unknown until it is there)
for c in dataset-add dataset-remove dataset-dump dataset-clear dataset-lookup dataset-add-json; do
	a=$(uc $c '{"setname": "none", "settype": "string", "datavalue": "eA=="}')
	if case " $names " in *" $c "*) true ;; *) false ;; esac; then
		expect "$c: answered" "$a" 'a["return"] in ("OK", "NOK") and "message" in a'
	else
		expect "$c: not there yet: Unknown command" "$a" 'a == {"return": "NOK", "message": "Unknown command"}'
	fi
done

# ---- get-flow-stats-by-id: the flow eve names ----
if fid=$(wait_alert 1); then
	ok "flow A alerted (flow_id $fid)"
	a=$(uc get-flow-stats-by-id "{\"flow_id\": $fid}")
	expect "get-flow-stats-by-id: flow A's packets, bytes, age" "$a" \
		'a["return"] == "OK" and a["message"]["pkts_toserver"] >= 1 and a["message"]["pkts_toclient"] == 0 and a["message"]["bytes_toserver"] >= 57 * a["message"]["pkts_toserver"] and a["message"]["bytes_toclient"] == 0 and a["message"]["age"] >= 0'
	if wait_for 60 "a['return'] == 'OK' and a['message']['pkts_toserver'] > $(jq "$a" 'a["message"]["pkts_toserver"]')" \
		get-flow-stats-by-id "{\"flow_id\": $fid}"; then
		ok "get-flow-stats-by-id: the counts are the running flow's (they grow)"
	else
		bad "flow A's packet count never grew: $(uc get-flow-stats-by-id "{\"flow_id\": $fid}")"
	fi
else
	bad "no alert of flow A in eve.json: $(tail -2 "$tmp/out" | tr '\n' ' ')"
fi
a=$(uc get-flow-stats-by-id '{"flow_id": 12345}')
expect "get-flow-stats-by-id of no flow: Not found" "$a" 'a == {"return": "NOK", "message": "Not found"}'
a=$(uc get-flow-stats-by-id '{"flow_id": "x"}')
expect "get-flow-stats-by-id: flow_id is not an integer" "$a" 'a == {"return": "NOK", "message": "flow_id is not an integer"}'

# ---- hostbits: what the socket sets, the rules see ----
a=$(uc list-hostbit '{"ipaddress": "10.1.0.1"}')
expect "list-hostbit before any: host not found" "$a" 'a == {"return": "NOK", "message": "host not found"}'
if [ -n "$(alert_of 2)" ]; then bad "sid 2 alerted before the hostbit was set"; fi
a=$(uc add-hostbit '{"ipaddress": "10.1.0.1", "hostbit": "blocked", "expire": 3600}')
expect "add-hostbit: hostbit added" "$a" 'a == {"return": "OK", "message": "hostbit added"}'
if wait_alert 2 > /dev/null; then ok "a rule testing the hostbit alerts once it is set"
else bad "sid 2 never alerted after add-hostbit"; fi
a=$(uc list-hostbit '{"ipaddress": "10.1.0.1"}')
expect "list-hostbit: blocked, with the seconds it has left of its 3600 (packet time)" "$a" 'a["return"] == "OK" and a["message"]["count"] == 1 and a["message"]["hostbits"][0]["name"] == "blocked" and 3000 < a["message"]["hostbits"][0]["expire"] <= 3600'
a=$(uc add-hostbit '{"ipaddress": "10.1.0.1", "hostbit": "other", "expire": 60}')
expect "add-hostbit of a name no rule uses: hostbit not found" "$a" 'a == {"return": "NOK", "message": "hostbit not found"}'
a=$(uc add-hostbit '{"ipaddress": "10.1.0.300", "hostbit": "blocked", "expire": 60}')
expect "add-hostbit: invalid address string" "$a" 'a == {"return": "NOK", "message": "invalid address string"}'
a=$(uc add-hostbit '{"ipaddress": "2001:db8::1", "hostbit": "blocked", "expire": 60}')
expect "add-hostbit of an IPv6 host" "$a" 'a == {"return": "OK", "message": "hostbit added"}'
a=$(uc add-hostbit '{"ipaddress": "10.1.0.1", "hostbit": "blocked"}')
expect "add-hostbit without expire" "$a" 'a == {"return": "NOK", "message": "expire is not an integer"}'
a=$(uc remove-hostbit '{"ipaddress": "10.1.0.1", "hostbit": "blocked"}')
expect "remove-hostbit: hostbit removed" "$a" 'a == {"return": "OK", "message": "hostbit removed"}'
a=$(uc list-hostbit '{"ipaddress": "10.1.0.1"}')
expect "list-hostbit after the last bit went: host not found" "$a" 'a == {"return": "NOK", "message": "host not found"}'

# ---- memcaps ----
a=$(uc memcap-list)
expect "memcap-list: Suricata's names with values" "$a" \
	'a["return"] == "OK" and {"stream", "stream-reassembly", "flow", "applayer-proto-http", "defrag", "host"} <= {m["name"] for m in a["message"]} and all(m["value"].endswith(("kb", "mb", "gb")) or m["value"] == "unlimited" for m in a["message"])'
a=$(uc memcap-show '{"config": "flow"}')
expect "memcap-show flow: the yaml's 128mb" "$a" 'a == {"return": "OK", "message": {"value": "128mb"}}'
a=$(uc memcap-set '{"config": "stream", "memcap": "96mb"}')
expect "memcap-set stream 96mb" "$a" "a == {'return': 'OK', 'message': \"memcap value for 'stream' updated: 100663296 \"}"
a=$(uc memcap-show '{"config": "stream"}')
expect "memcap-show stream: 96mb" "$a" 'a == {"return": "OK", "message": {"value": "96mb"}}'
a=$(uc memcap-set '{"config": "udp", "memcap": "1mb"}')
expect "memcap-set of no memcap" "$a" "a == {'return': 'NOK', 'message': \"Memcap value not found. Use 'memcap-list' to show all\"}"
a=$(uc memcap-set '{"config": "flow", "memcap": "12mmb"}')
expect "memcap-set of a bad size" "$a" 'a == {"return": "NOK", "message": "error parsing memcap specified, value not changed"}'
a=$(uc memcap-set '{"config": "flow", "memcap": "0"}')
expect "memcap-set flow 0: not allowed" "$a" "a == {'return': 'NOK', 'message': \"Unlimited value is not allowed for 'flow'\"}"
a=$(uc memcap-set '{"config": "flow", "memcap": "1kb"}')
expect "memcap-set under the memory in use: refused" "$a" \
	"a['return'] == 'NOK' and a['message'].startswith(\"memcap value specified for 'flow' is less than the memory in use: \")"
a=$(uc memcap-show '{"config": "host"}')
expect "memcap-show host" "$a" 'a == {"return": "OK", "message": {"value": "32mb"}}'
a=$(uc memcap-show '{"config": 7}')
expect "memcap-show: memcap name is not a string" "$a" 'a == {"return": "NOK", "message": "memcap name is not a string"}'
# a flow memcap just above what the flows hold now: new flows keep coming,
# so the engine must refuse or evict for them from now on
counters() { uc dump-counters; }
refused() { jq "$(counters)" 'a["message"]["flow"]["memcap"] + a["message"]["flow"]["emerg_mode_entered"]'; }
before=$(refused)
if [ "$before" = 0 ]; then ok "no flow refused under the yaml's memcap"
else bad "flows refused before the memcap was lowered ($before)"; fi
set_ok=
for margin in 65536 262144 1048576; do
	use=$(jq "$(counters)" 'a["message"]["flow"]["memuse"]')
	a=$(uc memcap-set "{\"config\": \"flow\", \"memcap\": \"$((use + margin))\"}")
	[ "$(jq "$a" 'a["return"]')" = OK ] && { set_ok=$((use + margin)); break; }
done
if [ -n "$set_ok" ]; then ok "memcap-set flow to memuse + a little ($set_ok)"
else bad "memcap-set flow never took: $a"; fi
n=0
for _ in $(seq 600); do
	n=$(refused)
	[ "${n:-0}" -gt 0 ] && break
	sleep 0.1
done
if [ "${n:-0}" -gt 0 ]; then ok "the lowered flow memcap applies at run time (flow.memcap + emerg_mode_entered: $n)"
else bad "the lowered flow memcap never applied"; fi

a=$(uc shutdown)
expect "shutdown: Closing Suricata" "$a" 'a == {"return": "OK", "message": "Closing Suricata"}'
for _ in $(seq 600); do kill -0 "$epid" 2> /dev/null || break; sleep 0.1; done
wait "$epid"
rc=$?
epid=
if [ "$rc" = 0 ]; then ok "the engine ended after shutdown (exit 0)"; else bad "exit $rc after shutdown"; fi
kill "$wpid" 2> /dev/null
wpid=

# ---- the unix-socket runmode's pcap-* commands ----
sock=$tmp/runmode.socket
"$bin" -c "$tmp/test.yaml" -k none --unix-socket="$sock" -l "$tmp" > "$tmp/out2" 2>&1 &
epid=$!
for _ in $(seq 600); do
	[ -S "$sock" ] && uc version > /dev/null 2>&1 && break
	kill -0 "$epid" 2> /dev/null || break
	sleep 0.1
done
list=$(uc command-list)
expect "unix-socket runmode: all 43 other commands and the 7 pcap-* ones" "$list" \
	"set('$names'.split()) | {'pcap-file', 'pcap-file-continuous', 'pcap-file-number', 'pcap-file-list', 'pcap-last-processed', 'pcap-interrupt', 'pcap-current'} == set(a['message']['commands'])"
a=$(uc pcap-file "{\"filename\": \"$tmp/none.pcap\", \"output-dir\": \"$tmp\"}")
expect "pcap-file of no file" "$a" 'a == {"return": "NOK", "message": "filename does not exist"}'
a=$(uc pcap-file-continuous "{\"filename\": \"$tmp/none.pcap\", \"output-dir\": \"$tmp\"}")
expect "pcap-file-continuous of no file" "$a" 'a == {"return": "NOK", "message": "filename does not exist"}'
a=$(uc pcap-file-number)
expect "pcap-file-number: 0" "$a" 'a == {"return": "OK", "message": 0}'
a=$(uc pcap-file-list)
expect "pcap-file-list: none" "$a" 'a == {"return": "OK", "message": {"count": 0, "files": []}}'
a=$(uc pcap-last-processed)
expect "pcap-last-processed: 0" "$a" 'a == {"return": "OK", "message": 0}'
a=$(uc pcap-current)
expect "pcap-current: None" "$a" 'a == {"return": "OK", "message": "None"}'
a=$(uc pcap-interrupt)
expect "pcap-interrupt: Interrupted" "$a" 'a == {"return": "OK", "message": "Interrupted"}'
a=$(uc get-flow-stats-by-id '{"flow_id": 1}')
expect "get-flow-stats-by-id with no run: Not found" "$a" 'a == {"return": "NOK", "message": "Not found"}'
uc shutdown > /dev/null
wait "$epid"
epid=
finish
