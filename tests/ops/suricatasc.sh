#!/bin/bash
# tests/ops/suricatasc.sh BUILDDIR SRCDIR: every one of Suricata 8.0.6's 49
# unix-socket commands sent as Suricata's own client, suricatasc, sends them:
# `suricatasc -c "COMMAND ARG..." SOCKET` when it is installed, else
# tests/ops/suricatasc-compat.py, which talks as it does (version 0.2
# handshake, JSON messages without a terminator, answers read until they
# are complete JSON, arguments named and typed from the words by position).
# The engine runs in the unix-socket runmode (all 49 there), with rules that
# use a hostbit and a dataset so that those commands act on real state; a
# pcap-file command runs a capture through it. Checks are PASS:/FAIL: lines,
# then "N passed, N failed". Every wait polls (60 s bounds a broken build).
builddir=$(cd "${1:-.}" && pwd)
srcdir=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
bin=$builddir/src/suricata
compat=$srcdir/tests/ops/suricatasc-compat.py
uclient=$srcdir/tests/live/uclient.py
T_NAME="suricatasc"
. "$srcdir/tests/lib.sh"

tmp=$(mktemp -d /tmp/suricatasc-test.XXXXXX)
epid=
trap '[ -n "$epid" ] && kill "$epid" 2> /dev/null; rm -rf "$tmp"' EXIT
sock=$tmp/command.socket
if command -v suricatasc > /dev/null 2>&1; then
	client="suricatasc"
	sc() { suricatasc -c "$1" "$sock"; }
else
	client="suricatasc-compat.py"
	sc() { python3 "$compat" -c "$1" "$sock"; }
fi
echo "client: $client"

# ---- the messages the client builds (suricatasc's shapes) ----
b() { python3 "$compat" --build "$1"; }
expect "pcap-file: named, typed arguments" "$(b 'pcap-file /a.pcap /out 1 true')" \
	'a == {"command": "pcap-file", "arguments": {"filename": "/a.pcap", "output-dir": "/out", "tenant": 1, "continuous": True}}'
expect "pcap-file-continuous: continuous set" "$(b 'pcap-file-continuous /d /out')" \
	'a == {"command": "pcap-file-continuous", "arguments": {"filename": "/d", "output-dir": "/out", "continuous": True}}'
expect "add-hostbit: expire a number" "$(b 'add-hostbit 10.0.0.1 bad 60')" \
	'a == {"command": "add-hostbit", "arguments": {"ipaddress": "10.0.0.1", "hostbit": "bad", "expire": 60}}'
expect "a command without arguments has no arguments key" "$(b 'uptime')" 'a == {"command": "uptime"}'
if python3 "$compat" --build "add-hostbit 10.0.0.1" > /dev/null 2>&1; then
	bad "a missing required argument was not refused"
else ok "a missing required argument is refused before sending"; fi

cat > "$tmp/t.rules" <<'R'
alert tcp any any -> any any (msg:"syn"; flags:S; sid:1;)
alert ip 10.1.0.1 any -> any any (msg:"blocked host"; hostbits:isset,blocked,src; sid:2;)
alert http any any -> any any (msg:"ua in set"; http.user_agent; dataset:isset,ua,type string; sid:3;)
R
cat > "$tmp/test.yaml" <<Y
%YAML 1.1
---
include: $builddir/suricata.yaml
default-rule-path: $tmp
rule-files:
  - t.rules
Y
mkdir -p "$tmp/log" "$tmp/out"
"$bin" -c "$tmp/test.yaml" -k none --unix-socket="$sock" -l "$tmp/log" > "$tmp/log/stdout" 2>&1 &
epid=$!
for _ in $(seq 600); do
	[ -S "$sock" ] && sc version > /dev/null 2>&1 && break
	kill -0 "$epid" 2> /dev/null || break
	sleep 0.1
done
a=$(sc version) || { bad "the engine did not answer: $(tail -3 "$tmp/log/stdout" | tr '\n' ' ')"; finish; }
ok "the handshake and a first command ($client)"

# each command: what it answers (the exit status follows return OK/NOK)
chk() { # COMMAND-LINE WHAT PYTHON-EXPR
	local a
	a=$(sc "$1" 2> "$tmp/err")
	expect "$1: $2" "$a" "$3"
}
seen=" "
run() { seen="$seen${1%% *} "; chk "$@"; }
run "version" "8.0" 'a["return"] == "OK" and a["message"].startswith("8.0")'
run "uptime" "seconds" 'a["return"] == "OK" and isinstance(a["message"], int)'
run "running-mode" "the files' runmode, autofp" 'a == {"return": "OK", "message": "autofp"}'
run "capture-mode" "answered" 'a["return"] == "OK" and isinstance(a["message"], str)'
run "command-list" "the 49" \
	"a['return'] == 'OK' and set(a['message']['commands']) == set('''$(python3 -c "import sys; sys.path.insert(0, '$srcdir/tests/ops'); import importlib; m = importlib.import_module('suricatasc-compat'); print(' '.join(m.COMMANDS))")'''.split()) and a['message']['count'] == 49"
run "help" "the same list" 'a["return"] == "OK" and len(a["message"]["commands"]) == 49'
run "conf-get default-rule-path" "the yaml's" "a == {'return': 'OK', 'message': '$tmp'}"
run "dump-counters" "counters" 'a["return"] == "OK" and "uptime" in a["message"]'
run "reload-rules" "done" 'a == {"return": "OK", "message": "done"}'
run "ruleset-reload-rules" "done" 'a == {"return": "OK", "message": "done"}'
run "ruleset-reload-nonblocking" "answered" 'a["return"] in ("OK", "NOK") and bool(a["message"])'
run "ruleset-reload-time" "last_reload" 'a["return"] == "OK" and "last_reload" in a["message"][0]'
run "ruleset-stats" "3 rules" 'a["return"] == "OK" and a["message"][0]["rules_loaded"] == 3'
run "ruleset-failed-rules" "none" 'a == {"return": "OK", "message": []}'
for c in ruleset-profile ruleset-profile-start ruleset-profile-stop; do
	run "$c" "not built in" 'a["return"] == "NOK"'
done
run "register-tenant-handler 1 pcap" "no multi-tenant" 'a == {"return": "NOK", "message": "multi-tenant support not enabled"}'
run "unregister-tenant-handler 1 pcap" "no multi-tenant" 'a == {"return": "NOK", "message": "multi-tenant support not enabled"}'
run "register-tenant 1 $tmp/t.yaml" "no multi-tenant" 'a == {"return": "NOK", "message": "multi-tenant support not enabled"}'
run "reload-tenant 1" "no multi-tenant" 'a == {"return": "NOK", "message": "multi-tenant support not enabled"}'
run "reload-tenants" "no multi-tenant" 'a == {"return": "NOK", "message": "multi-tenant support not enabled"}'
run "unregister-tenant 1" "no multi-tenant" 'a == {"return": "NOK", "message": "multi-tenant support not enabled"}'
run "add-hostbit 10.1.0.1 blocked 3600" "added" 'a == {"return": "OK", "message": "hostbit added"}'
run "list-hostbit 10.1.0.1" "blocked, its seconds left" \
	'a["return"] == "OK" and a["message"]["count"] == 1 and a["message"]["hostbits"][0]["name"] == "blocked" and 0 < a["message"]["hostbits"][0]["expire"] <= 3600'
run "remove-hostbit 10.1.0.1 blocked" "removed" 'a == {"return": "OK", "message": "hostbit removed"}'
run "reopen-log-files" "done" 'a == {"return": "OK", "message": "done"}'
run "memcap-set flow 256mb" "updated" 'a["return"] == "OK" and "updated" in a["message"]'
run "memcap-show flow" "256mb" 'a == {"return": "OK", "message": {"value": "256mb"}}'
run "memcap-list" "names and values" 'a["return"] == "OK" and any(m["name"] == "flow" for m in a["message"])'
run "dataset-add ua string dGVzdA==" "added" 'a["return"] == "OK"'
run "dataset-lookup ua string dGVzdA==" "found" 'a["return"] == "OK"'
run "dataset-remove ua string dGVzdA==" "removed" 'a["return"] == "OK"'
run "dataset-add-json ua string dGVzdA== {}" "answered" 'a["return"] in ("OK", "NOK") and "message" in a'
run "dataset-dump" "done" 'a["return"] == "OK"'
run "dataset-clear ua string" "cleared" 'a["return"] == "OK"'
run "get-flow-stats-by-id 12345" "not found" 'a == {"return": "NOK", "message": "Not found"}'
run "iface-stat eth9" "no interface" 'a == {"return": "NOK", "message": "Interface not found"}'
run "iface-list" "none" 'a == {"return": "OK", "message": {"count": 0, "ifaces": []}}'
run "iface-bypassed-stat" "no bypass" 'a == {"return": "NOK", "message": "No interface using bypass"}'
run "ebpf-bypassed-stat" "no bypass" 'a == {"return": "NOK", "message": "No interface using bypass"}'
run "pcap-file $tmp/none.pcap $tmp/out" "no such file" 'a == {"return": "NOK", "message": "filename does not exist"}'
run "pcap-file-continuous $tmp/none $tmp/out" "no such folder" 'a == {"return": "NOK", "message": "filename does not exist"}'
run "pcap-file $srcdir/tests/data/pcaps/multi-flow.pcap $tmp/out" "queued" 'a["return"] == "OK"'
# the run ends when pcap-last-processed gives its time (ms, 0 before)
for _ in $(seq 300); do
	a=$(sc pcap-last-processed 2> /dev/null)
	[ "$(jq "$a" 'a["message"] > 0')" = True ] && break
	sleep 0.2
done
seen="$seen""pcap-last-processed "
expect "pcap-last-processed: the run's time in ms" "$a" 'a["return"] == "OK" and a["message"] > 1000000000000'
if [ "$(grep -c '"event_type":"alert"' "$tmp/out/eve.json" 2> /dev/null)" -ge 10 ]; then
	ok "the file's run wrote its alerts in the output-dir given"
else bad "no alerts in $tmp/out/eve.json"; fi
run "pcap-file-number" "none left" 'a == {"return": "OK", "message": 0}'
run "pcap-file-list" "none" 'a == {"return": "OK", "message": {"count": 0, "files": []}}'
run "pcap-current" "none" 'a == {"return": "OK", "message": "None"}'
run "pcap-interrupt" "answered" 'a["return"] == "OK"'
run "shutdown" "Closing Suricata" 'a == {"return": "OK", "message": "Closing Suricata"}'
rc=1
for _ in $(seq 600); do
	kill -0 "$epid" 2> /dev/null || { wait "$epid"; rc=$?; epid=; break; }
	sleep 0.1
done
if [ "$rc" = 0 ]; then ok "the engine ended after shutdown (exit 0)"; else bad "exit $rc after shutdown"; fi
left=
for c in $(python3 -c "import sys; sys.path.insert(0, '$srcdir/tests/ops'); import importlib; print(' '.join(importlib.import_module('suricatasc-compat').COMMANDS))"); do
	case "$seen" in *" $c "*) ;; *) left="$left $c" ;; esac
done
if [ -z "$left" ]; then ok "all 49 commands went through $client"; else bad "not sent:$left"; fi
finish
