#!/bin/bash
# Rule reload and the unix socket on a live capture: a network namespace with
# a veth pair (MTU 9000) of its own, tcpreplay sending into one end, the
# engine capturing on the other (as tests/live/run.sh).
#   tests/live/reload.sh [BUILDDIR [SRCDIR]]
# Checks (PASS:/FAIL: lines, then "N passed, N failed"):
#   unix socket: each command of a live sensor answered as Suricata's
#     documentation shows (tests/live/uclient.py: the version handshake, then
#     one command per connection), the socket file removed at exit;
#   reload under traffic, for ac (af-packet workers, 2 threads), hs (when
#     built) and ac-cuda (autofp, host emulation): during the replay of the
#     first half SIGUSR2 with a rule file where sid 9100004 became 9100104
#     (the second half is sent once the swap is done, however long it takes
#     on a loaded machine or a sanitizer build): the removed rule's
#     alerts stop at the swap, the new one's start after it, each udp-marker
#     flow gets exactly one of the two (no packet lost or inspected twice),
#     the kept rules alert as -r does, decoder.pkts == delivered, >= 97% of
#     what was sent, kernel drops 0; a reload that fails (an unreadable rule
#     file) keeps the rules and says so in one line; peak RSS after 5
#     reloads within 10% of after 1; stats.detect.engines follows;
#   --disable-detection: SIGUSR2 and reload-rules answered sanely; a sensor
#     started without rules, given one by a reload; emptying the file
#     again is refused (NOK), the rule kept.
# SKIPs with one line when not root, or without ip netns or tcpreplay.
builddir=$(cd "${1:-.}" && pwd)
srcdir=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
bin=$builddir/src/suricata
yaml=$builddir/suricata.yaml
here=$srcdir/tests/live
RATE=${LIVE_PPS:-1500}

. "$here/common.sh"
live_setup "live reload tests" rl

python3 "$here/gen-live-pcap.py" reload "$tmp/reload.pcap"
python3 "$here/gen-live-pcap.py" reload-a "$tmp/reload-a.pcap"
python3 "$here/gen-live-pcap.py" reload-b "$tmp/reload-b.pcap"
# the rule sets: live.rules, and the same with 9100004 replaced by 9100104;
# 3000 more rules that never match give the engines some weight, so that a
# leak per reload shows in the RSS
python3 - "$tmp/bulk.rules" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
	for i in range(3000):
		f.write('alert tcp any any -> any %d (msg:"bulk %d"; content:"bulk-never-%06d-x"; sid:%d;)\n'
			% (1000 + i % 5000, i, i * 7919 % 1000000, 8000000 + i))
PY
cat "$here/live.rules" "$tmp/bulk.rules" > "$tmp/old.rules"
sed -e 's/sid:9100004;/sid:9100104;/' -e 's/msg:"live: udp marker"/msg:"live: udp marker, reloaded"/' \
	"$tmp/old.rules" > "$tmp/new.rules"
common=(-c "$yaml" --set "af-packet.0.interface=$vb" --set "unix-command.enabled=no")

mkdir -p "$tmp/ref"
if ! "$bin" "${common[@]}" -S "$tmp/old.rules" -r "$tmp/reload.pcap" -l "$tmp/ref" --runmode single \
		> "$tmp/ref/out" 2>&1; then
	ko "reference run (-r): $(tail -1 "$tmp/ref/out")"
fi

uc() { python3 "$here/uclient.py" "$sock" "$@"; }
now() { date +%s.%N; }
hwm() { awk '/^VmHWM:/ {print $2}' "/proc/$1/status" 2> /dev/null; }

# jq-less field checks on an answer: jsonq ANSWER PYTHON-EXPR (a = the answer)
jsonq() { python3 -c 'import json,sys; a=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$1" "$2" 2> /dev/null; }
expect() { # NAME WHAT ANSWER EXPR: PASS when EXPR is True
	local r
	r=$(jsonq "$3" "$4")
	if [ "$r" = True ]; then ok "$1: $2"; else ko "$1: $2: got $3"; fi
}

# ---- the unix socket, each command, on a capture with traffic ----
name=unix
sock=$tmp/unix/command.socket
if start "$name" -S "$tmp/old.rules" --af-packet="$vb" --set af-packet.0.threads=1 \
		--unix-socket="$sock"; then
	for _ in $(seq 1 50); do [ -S "$sock" ] && break; sleep 0.1; done
	python3 "$here/gen-live-pcap.py" idle "$tmp/idle.pcap"
	nsx tcpreplay -i "$va" --pps=100 "$tmp/idle.pcap" > /dev/null 2>&1
	sleep 0.5
	a=$(uc --version 0.2)
	expect $name 'handshake {"version": "0.2"} answered {"return": "OK"}' "$a" 'a == {"return": "OK"}'
	a=$(uc --version 7.7)
	if [ "$a" = closed ]; then ok "$name: an unknown protocol version closes the connection"
	else ko "$name: protocol version 7.7 answered $a"; fi
	a=$(uc command-list)
	expect $name "command-list: count and the commands" "$a" \
		'a["return"] == "OK" and a["message"]["count"] == len(a["message"]["commands"]) and {"reload-rules", "ruleset-reload-nonblocking", "iface-stat", "shutdown"} <= set(a["message"]["commands"])'
	a=$(uc help)
	expect $name "help: the command list too" "$a" 'a["return"] == "OK" and "dump-counters" in a["message"]["commands"]'
	a=$(uc version)
	expect $name "version: 8.0.7" "$a" 'a["return"] == "OK" and a["message"].startswith("8.0.7")'
	a=$(uc uptime)
	expect $name "uptime: seconds, an integer" "$a" 'a["return"] == "OK" and isinstance(a["message"], int) and 0 <= a["message"] < 60'
	a=$(uc running-mode)
	expect $name "running-mode: workers (af-packet's default)" "$a" 'a == {"return": "OK", "message": "workers"}'
	a=$(uc capture-mode)
	expect $name "capture-mode: AF_PACKET_DEV" "$a" 'a == {"return": "OK", "message": "AF_PACKET_DEV"}'
	a=$(uc conf-get '{"variable": "af-packet.0.interface"}')
	expect $name "conf-get af-packet.0.interface: the interface" "$a" "a == {'return': 'OK', 'message': '$vb'}"
	a=$(uc conf-get '{"variable": "no.such.key"}')
	expect $name "conf-get of an absent key: NOK" "$a" 'a["return"] == "NOK"'
	a=$(uc dump-counters)
	expect $name "dump-counters: the stats tree (10 packets decoded)" "$a" \
		'a["return"] == "OK" and a["message"]["decoder"]["pkts"] >= 10 and "uptime" in a["message"] and a["message"]["capture"]["kernel_drops"] == 0'
	a=$(uc iface-list)
	expect $name "iface-list: the capture interface" "$a" "a == {'return': 'OK', 'message': {'count': 1, 'ifaces': ['$vb']}}"
	a=$(uc iface-stat "{\"iface\": \"$vb\"}")
	expect $name "iface-stat: pkts, drop, invalid-checksums" "$a" \
		'a["return"] == "OK" and a["message"]["pkts"] >= 10 and a["message"]["drop"] == 0 and a["message"]["invalid-checksums"] == 0'
	a=$(uc iface-stat '{"iface": "nope0"}')
	expect $name "iface-stat of another interface: NOK" "$a" 'a["return"] == "NOK"'
	a=$(uc ruleset-stats)
	expect $name "ruleset-stats: rules loaded, failed" "$a" \
		'a["return"] == "OK" and a["message"][0]["id"] == 0 and a["message"][0]["rules_loaded"] == 3006 and a["message"][0]["rules_failed"] == 0'
	t0=$(uc ruleset-reload-time)
	expect $name "ruleset-reload-time: the load time" "$t0" 'a["return"] == "OK" and a["message"][0]["id"] == 0 and "T" in a["message"][0]["last_reload"]'
	a=$(uc ruleset-failed-rules)
	expect $name "ruleset-failed-rules: none" "$a" 'a == {"return": "OK", "message": []}'
	cp "$tmp/old.rules" "$tmp/unix.rules.bak"
	echo 'alert udp any any -> any any (msg:"broken"; content:; sid:77;)' >> "$tmp/old.rules"
	bad_line=$(wc -l < "$tmp/old.rules")
	a=$(uc reload-rules)
	expect $name "reload-rules: blocks until done" "$a" 'a == {"return": "OK", "message": "done"}'
	a=$(uc ruleset-failed-rules)
	expect $name "ruleset-failed-rules after a reload: the bad rule, its file and line" "$a" \
		"a['return'] == 'OK' and len(a['message']) == 1 and a['message'][0]['line'] == $bad_line and a['message'][0]['filename'] == '$tmp/old.rules' and 'sid:77' in a['message'][0]['rule']"
	mv "$tmp/unix.rules.bak" "$tmp/old.rules"
	a=$(uc ruleset-reload-rules)
	expect $name "ruleset-reload-rules: the same" "$a" 'a == {"return": "OK", "message": "done"}'
	a=$(uc ruleset-reload-time)
	if [ "$(jsonq "$a" 'a["message"][0]["last_reload"]')" != "$(jsonq "$t0" 'a["message"][0]["last_reload"]')" ]; then
		ok "$name: ruleset-reload-time moved with the reload"
	else ko "$name: ruleset-reload-time unchanged after a reload: $a"; fi
	a=$(uc ruleset-reload-nonblocking)
	expect $name "ruleset-reload-nonblocking: answers at once" "$a" 'a == {"return": "OK", "message": "done"}'
	for _ in $(seq 1 50); do
		a=$(uc ruleset-stats)
		[ "$(jsonq "$a" 'a["message"][0]["reloads"]')" = 3 ] && break
		sleep 0.1
	done
	expect $name "ruleset-stats: 3 reloads done" "$a" 'a["message"][0]["reloads"] == 3 and a["message"][0]["rules_failed"] == 0'
	a=$(uc no-such-command)
	expect $name "an unknown command: NOK Unknown command" "$a" 'a == {"return": "NOK", "message": "Unknown command"}'
	a=$(uc --raw '{"command": "conf-get"}')
	if [ -z "$a" ]; then ok "$name: conf-get without arguments closes the connection"
	else ko "$name: conf-get without arguments answered $a"; fi
	mv "$tmp/unix/eve.json" "$tmp/unix/eve.json.1"
	a=$(uc reopen-log-files)
	expect $name "reopen-log-files: done" "$a" 'a == {"return": "OK", "message": "done"}'
	for _ in $(seq 1 30); do [ -f "$tmp/unix/eve.json" ] && break; sleep 0.1; done
	if [ -f "$tmp/unix/eve.json" ]; then ok "$name: reopen-log-files reopened eve.json"
	else ko "$name: no new eve.json after reopen-log-files"; fi
	a=$(uc shutdown)
	expect $name "shutdown: Closing Suricata" "$a" 'a == {"return": "OK", "message": "Closing Suricata"}'
	for _ in $(seq 1 100); do alive "$epid" || break; sleep 0.1; done
	if alive "$epid"; then ko "$name: still running 10 s after shutdown"; stop "$epid"
	else
		wait "$epid"; rc=$?
		if [ $rc = 0 ]; then ok "$name: shutdown: clean exit"; else ko "$name: shutdown: exit $rc"; fi
	fi
	if [ -e "$sock" ]; then ko "$name: socket file left at exit"; else ok "$name: socket file removed at exit"; fi
	clean "$name"
else
	ko "$name: the engine did not start: $(tail -2 "$tmp/$name/out" | tr '\n' ' ')"
fi

# ---- reload under traffic ----
reload_run() { # NAME ARGS...
	local name=$1; shift
	sock=$tmp/$name.socket
	cp "$tmp/old.rules" "$tmp/$name.rules"
	if ! start "$name" -S "$tmp/$name.rules" --unix-socket="$sock" "$@"; then
		ko "$name: the engine did not start: $(tail -2 "$tmp/$name/out" | tr '\n' ' ')"
		return
	fi
	for _ in $(seq 1 50); do [ -S "$sock" ] && break; sleep 0.1; done
	nsx tcpreplay -i "$va" --pps="$RATE" "$tmp/reload-a.pcap" > "$tmp/$name/tcpreplay-a.out" 2>&1 &
	local rp=$! t_req t_done h1 h5 sent sent_a a
	sleep 2
	cp "$tmp/new.rules" "$tmp/$name.rules"
	t_req=$(now)
	kill -USR2 "$epid"
	for _ in $(seq 1 1000); do
		grep -q "generation 2)" "$tmp/$name/out" && break
		sleep 0.02
	done
	t_done=$(now)
	if grep -q "generation 2)" "$tmp/$name/out"; then
		ok "$name: SIGUSR2 reload done in $(python3 -c "print('%.2f' % ($t_done - $t_req))") s under traffic"
	else ko "$name: no reload line 20 s after SIGUSR2"; fi
	wait "$rp"
	sent_a=$(sent_of "$tmp/$name/tcpreplay-a.out")
	nsx tcpreplay -i "$va" --pps="$RATE" "$tmp/reload-b.pcap" > "$tmp/$name/tcpreplay.out" 2>&1 &
	rp=$!
	h1=$(hwm "$epid")
	# a reload that fails keeps the rules, and says so in one line
	mv "$tmp/$name.rules" "$tmp/$name.rules.away"
	a=$(uc reload-rules)
	expect "$name" "a reload with the rule file gone: NOK, the reason" "$a" 'a["return"] == "NOK" and "cannot read" in a["message"]'
	n=$(grep -c "rule reload failed, the running rules are kept" "$tmp/$name/out")
	if [ "$n" = 1 ]; then ok "$name: the failed reload said so in one line: $(grep -m1 'rule reload failed' "$tmp/$name/out")"
	else ko "$name: $n lines about the failed reload"; fi
	mv "$tmp/$name.rules.away" "$tmp/$name.rules"
	local t_last
	for _ in 1 2 3 4; do
		t_last=$(now)
		a=$(uc reload-rules)
		[ "$(jsonq "$a" 'a["return"]')" = OK ] || ko "$name: reload-rules answered $a"
	done
	h5=$(hwm "$epid")
	if [ -n "$h1" ] && [ -n "$h5" ] && [ "$h5" -le $((h1 * 110 / 100)) ]; then
		ok "$name: peak RSS after 5 reloads ${h5} kB, after 1 ${h1} kB (within 10%)"
	else ko "$name: peak RSS after 5 reloads ${h5} kB, after 1 ${h1} kB (over 10%)"; fi
	a=$(uc ruleset-stats)
	expect "$name" "ruleset-stats: 5 reloads, 1 failed, the new rules' counts" "$a" \
		'a["message"][0]["reloads"] == 5 and a["message"][0]["reloads_failed"] == 1 and a["message"][0]["rules_loaded"] == 3006'
	wait "$rp"
	sent=$(sent_of "$tmp/$name/tcpreplay.out")
	sent=$(( ${sent_a:-0} + ${sent:-0} ))
	sleep 0.5
	if ! stop "$epid"; then
		ko "$name: no clean exit on SIGTERM: $(tail -2 "$tmp/$name/out" | tr '\n' ' ')"
		return
	fi
	ok "$name: clean exit on SIGTERM"
	clean "$name"
	local r
	r=$(python3 "$here/check.py" reload "$tmp/ref/eve.json" "$tmp/$name/eve.json" "$tmp/$name/out" \
		"${sent:-0}" "$name" "$t_req" "$t_done" 9100004 9100104 9100001)
	echo "$r"
	pass=$((pass + $(grep -c '^PASS' <<< "$r")))
	fail=$((fail + $(grep -c '^FAIL' <<< "$r")))
	# stats.detect.engines: the last record (at exit) names the last reload
	r=$(python3 - "$tmp/$name/eve.json" "$t_last" <<'PY'
import datetime, json, sys
st = [json.loads(l)["stats"] for l in open(sys.argv[1]) if '"event_type":"stats"' in l]
e = st[-1]["detect"]["engines"][0] if st else {}
t = datetime.datetime.strptime(e.get("last_reload", "1970-01-01T00:00:00.0+0000"),
			       "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()
print(e.get("rules_loaded"), t >= float(sys.argv[2]))
PY
)
	if [ "$r" = "3006 True" ]; then ok "$name: stats.detect.engines: rules_loaded 3006, last_reload the last reload's"
	else ko "$name: stats.detect.engines: $r (rules_loaded, last_reload after the last reload)"; fi
}

t0=$(date +%s)
reload_run reload-ac --af-packet="$vb" --set af-packet.0.threads=2
if "$bin" --build-info | grep -q "Hyperscan support: *yes"; then
	reload_run reload-hs --af-packet="$vb" --set af-packet.0.threads=2 --set mpm-algo=hs
else
	echo "SKIP: live reload-hs (built without Hyperscan)"
fi
# ac-cuda through its host emulation: each engine its own automata and ring
reload_run reload-accuda --af-packet="$vb" --runmode autofp --set mpm-algo=ac-cuda \
	--set cuda.mpm.emulation=yes --set max-pending-packets=4096 \
	--set cuda.mpm.batching-timeout=20000 --set cuda.mpm.cudabuffer-buffer-size=32mb --set cuda.mpm.gpu-transfer-size=4mb
n=$(python3 "$here/check.py" counter "$tmp/reload-accuda/eve.json" mpm.cuda.payloads_gpu)
if [ "$n" -gt 0 ] 2> /dev/null; then ok "reload-accuda: the payloads went to the (emulated) GPU: $n, every engine's"
else ko "reload-accuda: no payload on the GPU after the reloads (mpm.cuda.payloads_gpu $n)"; fi

# ---- --disable-detection ----
name=nodetect
sock=$tmp/nodetect.socket
if start "$name" --disable-detection --af-packet="$vb" --unix-socket="$sock"; then
	for _ in $(seq 1 50); do [ -S "$sock" ] && break; sleep 0.1; done
	kill -USR2 "$epid"
	sleep 0.5
	if grep -q "SIGUSR2: detection is disabled" "$tmp/$name/out"; then ok "$name: SIGUSR2 says detection is disabled"
	else ko "$name: SIGUSR2 without detection: $(tail -1 "$tmp/$name/out")"; fi
	a=$(uc reload-rules)
	expect $name "reload-rules: NOK, detection disabled" "$a" 'a == {"return": "NOK", "message": "Detection engine is disabled"}'
	stop "$epid" && ok "$name: clean exit" || ko "$name: no clean exit on SIGTERM"
	clean "$name"
else
	ko "$name: the engine did not start: $(tail -2 "$tmp/$name/out" | tr '\n' ' ')"
fi

# ---- no rules: a sensor started without any, then given some, then none (refused) ----
name=norules
sock=$tmp/norules.socket
: > "$tmp/norules.rules"
if start "$name" -S "$tmp/norules.rules" --af-packet="$vb" --set af-packet.0.threads=1 --unix-socket="$sock"; then
	for _ in $(seq 1 50); do [ -S "$sock" ] && break; sleep 0.1; done
	a=$(uc ruleset-stats)
	expect $name "started with no rule: ruleset-stats 0 loaded" "$a" 'a["message"][0]["rules_loaded"] == 0'
	grep 'sid:9100006;' "$here/live.rules" > "$tmp/norules.rules"
	a=$(uc reload-rules)
	expect $name "a rule file with one rule: reload-rules done" "$a" 'a == {"return": "OK", "message": "done"}'
	python3 "$here/gen-live-pcap.py" idle "$tmp/idle.pcap"
	nsx tcpreplay -i "$va" --pps=100 "$tmp/idle.pcap" > /dev/null 2>&1
	sleep 1.5
	n=$(python3 "$here/check.py" alerts "$tmp/$name/eve.json" 9100006)
	if [ "$n" = 5 ]; then ok "$name: the reloaded rule alerts (5)"; else ko "$name: $n of 5 alerts of the reloaded rule"; fi
	# emptied while a rule runs (issue 43): refused, the rule kept
	: > "$tmp/norules.rules"
	a=$(uc reload-rules)
	expect $name "the rules all gone: reload-rules NOK, the rule kept" "$a" \
		'a == {"return": "NOK", "message": "no rule loaded from 1 rule file while 1 rule run"}'
	a=$(uc ruleset-stats)
	expect $name "ruleset-stats: 1 loaded after it" "$a" \
		'a["message"][0]["rules_loaded"] == 1 and a["message"][0]["reloads"] == 1 and a["message"][0]["reloads_failed"] == 1'
	stop "$epid" && ok "$name: clean exit" || ko "$name: no clean exit on SIGTERM"
	clean "$name"
else
	ko "$name: the engine did not start: $(tail -2 "$tmp/$name/out" | tr '\n' ' ')"
fi

echo "live reload tests: $(($(date +%s) - t0)) s"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
