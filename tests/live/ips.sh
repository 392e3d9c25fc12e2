#!/bin/bash
# Inline IPS in network namespaces: three TCP flows, one per rule action,
# through the engine as an NFQUEUE router and as an AF_PACKET IPS bridge.
#   tests/live/ips.sh [BUILDDIR [SRCDIR]]
#
#   client ns ──veth── router ns (ip_forward; iptables FORWARD -> NFQUEUE 0,
#      │                the engine: -q 0) ──veth── server ns
#      └─────veth── bridge ns (no addresses; the engine: af-packet
#                   copy-mode ips between its two veths) ──veth──┘
# Rules (ips.rules): drop port 8001, pass port 8002 (and an alert rule on
# 8002 the pass must silence), reject port 8003, reject UDP port 8005, and
# an alert rule on 8004 whose replace rewrites the client's "hello".
# For each engine:
#   the drop flow never reaches the server (the client's connect times out;
#   the server logs no connection on 8001), the pass flow does (its echo
#   comes back; the server logs it), the reject flow is refused (the RST
#   the engine sends answers the SYN: ECONNREFUSED, and the server never
#   sees it), the UDP datagram to 8005 gets the engine's ICMP port
#   unreachable (ECONNREFUSED; the server, which listens on UDP 8005 too,
#   never sees it), the replace flow (8004) reaches the server as "HELLO"
#   (a valid checksum: the server's kernel took it) and ips.replaced counts
#   it; eve: the drop and reject rules alert with action "blocked",
#   drop records (reason rules) name their flows, the pass flow has no
#   alert, ips.accepted/blocked/rejected count; eve.json is valid against
#   the eve schema. The client side of the NFQUEUE run is captured
#   (ips.py sniff) and read again with -r --simulate-ips: the same
#   (sid, action) alerts. NFQUEUE runs three times: mode accept (workers,
#   batchcount 20), mode repeat (the iptables rule skips packets
#   with the repeat mark), runmode autofp (verdicts from two workers).
# Waits are for conditions (the engine's "capturing on" line, the server's
# "ready", the client's answer); the drop flow's proof is a connect timeout,
# which a live engine does not race with.
# SKIPs (exit 0) with one line when not root, without ip netns, veth,
# iptables-legacy (the NFQUEUE part), ethtool, or an engine built without
# NFQUEUE (the NFQUEUE part).
builddir=$(cd "${1:-.}" && pwd)
srcdir=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
bin=$builddir/src/suricata
yaml=$builddir/suricata.yaml
here=$srcdir/tests/live

pass=0
fail=0
pids=()
ok() { echo "PASS: live $*"; pass=$((pass + 1)); }
ko() { echo "FAIL: live $*"; fail=$((fail + 1)); }

if [ "$(id -u)" != 0 ]; then
	echo "SKIP: live IPS tests (not root: they need network namespaces)"
	exit 0
fi
for t in ip ethtool python3; do
	if ! command -v "$t" > /dev/null; then
		echo "SKIP: live IPS tests ($t is not installed: ./install-deps.sh)"
		exit 0
	fi
done

sfx=$$
nc=ipsc$sfx nr=ipsr$sfx nb=ipsb$sfx nsv=ipss$sfx
tmp=$(mktemp -d /tmp/live-ips.XXXXXX)

# a zombie (exited, not yet waited for) answers kill -0: look at its state
alive() {
	local s
	s=$(ps -o stat= -p "$1" 2> /dev/null)
	[ -n "$s" ] && [ "${s:0:1}" != Z ]
}
cleanup() {
	for p in "${pids[@]}"; do
		alive "$p" && kill -KILL "$p" 2> /dev/null && wait "$p" 2> /dev/null
	done
	for n in "$nc" "$nr" "$nb" "$nsv"; do ip netns del "$n" 2> /dev/null; done
	if [ -n "$LIVE_KEEP" ]; then echo "kept: $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT

for n in "$nc" "$nr" "$nb" "$nsv"; do
	if ! ip netns add "$n" 2> /dev/null; then
		echo "SKIP: live IPS tests (ip netns is not available here)"
		exit 0
	fi
	ip -n "$n" link set lo up
done
x() { local n=$1; shift; ip netns exec "$n" "$@"; }

# link NS1 IF1 NS2 IF2: a veth pair, both ends up, no IPv6 chatter, no
# offloads (the bridge forwards frames as read: they must be whole, with
# their checksums, and no larger than the MTU)
link() {
	if ! ip link add "$2" netns "$1" type veth peer name "$4" netns "$3" 2> "$tmp/ip.err"; then
		echo "SKIP: live IPS tests (cannot make a veth pair: $(head -1 "$tmp/ip.err"))"
		exit 0
	fi
	local n i
	for n in "$1:$2" "$3:$4"; do
		i=${n#*:}; n=${n%%:*}
		x "$n" sysctl -qw "net.ipv6.conf.$i.disable_ipv6=1" 2> /dev/null
		x "$n" ethtool -K "$i" tx off tso off gso off gro off > /dev/null 2>&1
		ip -n "$n" link set "$i" up
	done
}
# routed: 10.38.1.0/24 client side, 10.38.2.0/24 server side
link "$nc" c0 "$nr" r0
link "$nr" r1 "$nsv" s0
ip -n "$nc" addr add 10.38.1.2/24 dev c0
ip -n "$nr" addr add 10.38.1.1/24 dev r0
ip -n "$nr" addr add 10.38.2.1/24 dev r1
ip -n "$nsv" addr add 10.38.2.2/24 dev s0
ip -n "$nc" route add 10.38.2.0/24 via 10.38.1.1
ip -n "$nsv" route add 10.38.1.0/24 via 10.38.2.1
x "$nr" sysctl -qw net.ipv4.ip_forward=1
# bridged: 10.39.0.0/24, the engine between b0 and b1
link "$nc" c1 "$nb" b0
link "$nb" b1 "$nsv" s1
ip -n "$nc" addr add 10.39.0.2/24 dev c1
ip -n "$nsv" addr add 10.39.0.3/24 dev s1

cat > "$tmp/ips.rules" << 'EOF'
drop tcp any any -> any 8001 (msg:"ips test drop"; sid:3801; rev:1;)
pass tcp any any <> any 8002 (msg:"ips test pass"; sid:3802; rev:1;)
pass udp any any <> any 8002 (msg:"ips test pass udp"; sid:3806; rev:1;)
alert tcp any any -> any 8002 (msg:"ips test after pass"; flow:established; sid:3804; rev:1;)
reject tcp any any -> any 8003 (msg:"ips test reject"; sid:3803; rev:1;)
reject udp any any -> any 8005 (msg:"ips test udp reject"; sid:3805; rev:1;)
alert tcp any any -> any 8004 (msg:"ips test replace"; flow:to_server; content:"hello"; replace:"HELLO"; sid:3807; rev:1;)
EOF
common=(-c "$yaml" -S "$tmp/ips.rules" --set unix-command.enabled=no -k none
	--set stats.interval=1)

# the server in its namespace, on both addresses
: > "$tmp/server.log"
# not through x(): a backgrounded function is a subshell, and $! would
# name it, not the server, which cleanup() would then leave running
ip netns exec "$nsv" python3 "$here/ips.py" server "$tmp/server.log" 8001 8002 8003 8004 8005 \
	> "$tmp/server.out" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do grep -q ready "$tmp/server.out" && break; sleep 0.1; done

# start NAME NS ARGS...: the engine in NS; waits (60 s at most) for its
# "capturing on" line (START_MARK: another). Sets epid.
start() {
	local name=$1 ns=$2; shift 2
	mkdir -p "$tmp/$name"
	: > "$tmp/$name/out"
	ip netns exec "$ns" "$bin" "${common[@]}" -l "$tmp/$name" "$@" > "$tmp/$name/out" 2>&1 &
	epid=$!
	pids+=("$epid")
	for _ in $(seq 1 600); do
		grep -q "${START_MARK:-capturing on}" "$tmp/$name/out" && return 0
		alive "$epid" || break
		sleep 0.1
	done
	return 1
}

# stop PID: SIGTERM, then waits (at most 30 s) for a clean exit
stop() {
	kill -TERM "$1" 2> /dev/null
	for _ in $(seq 1 300); do
		alive "$1" || { wait "$1" 2> /dev/null; return $?; }
		sleep 0.1
	done
	kill -KILL "$1" 2> /dev/null
	return 1
}

schema_check() { # NAME EVE
	local schema=${SURICATA_SHARED:-$srcdir/../shared}/data/eve-schema.json r
	if [ ! -f "$schema" ]; then
		echo "SKIP: live $1: eve schema (no $schema)"
	elif r=$(python3 "$srcdir/tests/e2e/eve-validate.py" "$schema" "$2" 2>&1); then
		ok "$1: eve.json valid against the eve schema ($r)"
	elif [ $? = 2 ]; then
		echo "SKIP: live $1: eve schema ($r)"
	else
		ko "$1: eve.json against the eve schema: $r"
	fi
}

# flows NAME HOST: the three clients (one after the other) and their
# outcomes against the server's log
flows() {
	local name=$1 host=$2 r
	: > "$tmp/server.log"
	r=$(x "$nc" python3 "$here/ips.py" client "$host" 8001 4)
	if [ "$r" = timeout ]; then ok "$name: the drop flow (8001) gets no answer"
	else ko "$name: the drop flow (8001): $r"; fi
	r=$(x "$nc" python3 "$here/ips.py" client "$host" 8002 20)
	if [ "$r" = ok ]; then ok "$name: the pass flow (8002) is echoed back"
	else ko "$name: the pass flow (8002): $r"; fi
	r=$(x "$nc" python3 "$here/ips.py" client "$host" 8003 20)
	if [ "$r" = refused ]; then ok "$name: the reject flow (8003) is refused by a RST"
	else ko "$name: the reject flow (8003): $r"; fi
	# 3000 bytes: fragments each way, reassembled by the engine, each
	# sent on with the datagram's verdict
	r=$(x "$nc" python3 "$here/ips.py" client "$host" 8002 20 udp 3000)
	if [ "$r" = ok ]; then ok "$name: the fragmented UDP pass datagram (8002) is echoed back"
	else ko "$name: the fragmented UDP pass datagram (8002): $r"; fi
	r=$(x "$nc" python3 "$here/ips.py" client "$host" 8005 20 udp)
	if [ "$r" = refused ]; then ok "$name: the UDP reject flow (8005) gets an ICMP port unreachable"
	else ko "$name: the UDP reject flow (8005): $r"; fi
	# replace: the server gets "HELLO 8004" and echoes it as it got it
	r=$(x "$nc" python3 "$here/ips.py" client "$host" 8004 20)
	if [ "$r" = "error:echo b'HELLO 8004\\n'" ] && grep -q '^8004 got HELLO 8004$' "$tmp/server.log"
	then ok "$name: the replace flow (8004) reaches the server rewritten"
	else ko "$name: the replace flow (8004): $r; server: $(grep '^8004' "$tmp/server.log" | tr '\n' ' ')"; fi
	if grep -q '^8002 got hello 8002' "$tmp/server.log"; then ok "$name: the server got the pass flow's data"
	else ko "$name: the server log lacks the pass flow: $(tr '\n' ' ' < "$tmp/server.log")"; fi
	if grep -q '^800[135] ' "$tmp/server.log"; then
		ko "$name: the drop or reject flow reached the server: $(tr '\n' ' ' < "$tmp/server.log")"
	else ok "$name: neither the drop nor the reject flow reached the server"; fi
}

# after NAME IFACE...: stop the engine, then the eve checks; every alert
# names one of IFACEs in in_iface
after() {
	local name=$1 r; shift
	# a last stats record comes with the exit
	if stop "$epid"; then ok "$name: clean exit on SIGTERM"
	else ko "$name: no clean exit on SIGTERM: $(tail -3 "$tmp/$name/out" | tr '\n' ' ')"; fi
	# ASan/UBSan builds: the engine's output holds no report
	r=$(grep -m1 -E 'ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:' "$tmp/$name/out")
	if [ -n "$r" ]; then ko "$name: sanitizer report: $r"; fi
	r=$(python3 "$here/ips.py" check "$tmp/$name/eve.json" "$name" 3801:8001 8002 3803:8003 - \
		3805:8005)
	echo "$r"
	pass=$((pass + $(grep -c '^PASS' <<< "$r")))
	fail=$((fail + $(grep -c '^FAIL' <<< "$r")))
	schema_check "$name" "$tmp/$name/eve.json"
	if r=$(python3 -c 'import json, sys
st = [r["stats"] for r in map(json.loads, open(sys.argv[1])) if r["event_type"] == "stats"]
n = st[-1].get("ips", {}).get("replaced", 0) if st else 0
print(n); sys.exit(0 if n >= 1 else 1)' "$tmp/$name/eve.json"); then
		ok "$name: ips.replaced counts the rewritten packet ($r)"
	else ko "$name: ips.replaced is $r (want >= 1)"; fi
	if r=$(python3 -c 'import json, sys
bad = [r.get("in_iface") for r in map(json.loads, open(sys.argv[1]))
       if r["event_type"] == "alert" and r.get("in_iface") not in sys.argv[2:]]
print(bad[:3]); sys.exit(1 if bad else 0)' "$tmp/$name/eve.json" "$@"); then
		ok "$name: every alert's in_iface is one of $*"
	else ko "$name: alerts with in_iface $r (want one of $*)"; fi
}

# ---- NFQUEUE: the router queues what it forwards ----
if ! "$bin" --build-info | grep -q 'NFQueue support: *yes'; then
	echo "SKIP: live nfq (the engine is built without libnetfilter-queue)"
elif ! command -v iptables-legacy > /dev/null; then
	echo "SKIP: live nfq (iptables-legacy is not installed: ./install-deps.sh)"
elif ! x "$nr" iptables-legacy -A FORWARD -j NFQUEUE --queue-num 0 2> "$tmp/ipt.err"; then
	echo "SKIP: live nfq (iptables: $(head -1 "$tmp/ipt.err"))"
else
	ip netns exec "$nr" python3 "$here/ips.py" sniff r0 "$tmp/nfq.pcap" > "$tmp/sniff.out" 2>&1 &
	spid=$!
	pids+=("$spid")
	for _ in $(seq 1 100); do grep -q ready "$tmp/sniff.out" && break; sleep 0.1; done
	# batchcount 20: accepts wait for the 20th, a drop or a quiet queue
	if ! START_MARK="nfq: capturing on NFQ#0" start nfq "$nr" -q 0 --set nfq.batchcount=20; then
		ko "nfq: the engine did not start: $(tail -3 "$tmp/nfq/out" | tr '\n' ' ')"
	else
		flows nfq 10.38.2.2
		after nfq 'NFQ#0'
		stop "$spid"
		mkdir -p "$tmp/sim"
		"$bin" -c "$yaml" -S "$tmp/ips.rules" --set unix-command.enabled=no -k none \
			-r "$tmp/nfq.pcap" --simulate-ips -l "$tmp/sim" > "$tmp/sim/out" 2>&1 ||
			ko "nfq: --simulate-ips on the captured traffic failed: $(tail -2 "$tmp/sim/out")"
		r=$(python3 "$here/ips.py" check "$tmp/sim/eve.json" simulate-ips 3801:8001 8002 \
			3803:8003 "$tmp/nfq/eve.json" 3805:8005)
		echo "$r"
		pass=$((pass + $(grep -c '^PASS' <<< "$r")))
		fail=$((fail + $(grep -c '^FAIL' <<< "$r")))
	fi
	x "$nr" iptables-legacy -D FORWARD -j NFQUEUE --queue-num 0
	# mode repeat: the verdict re-injects the packet with mark 0x10 under
	# 0x10 (the rule skips it); a lost mark would queue it forever
	x "$nr" iptables-legacy -A FORWARD -m mark ! --mark 0x10/0x10 -j NFQUEUE --queue-num 0
	if ! START_MARK="nfq: capturing on NFQ#0" start nfq-repeat "$nr" -q 0 --set nfq.mode=repeat \
		--set nfq.repeat-mark=0x10 --set nfq.repeat-mask=0x10; then
		ko "nfq-repeat: the engine did not start: $(tail -3 "$tmp/nfq-repeat/out" | tr '\n' ' ')"
	else
		flows nfq-repeat 10.38.2.2
		after nfq-repeat 'NFQ#0'
	fi
	x "$nr" iptables-legacy -D FORWARD -m mark ! --mark 0x10/0x10 -j NFQUEUE --queue-num 0
	# runmode autofp: two workers give verdicts out of queue order (one
	# at a time; batchcount is then off)
	x "$nr" iptables-legacy -A FORWARD -j NFQUEUE --queue-num 0
	if ! START_MARK="nfq: capturing on NFQ#0" start nfq-autofp "$nr" -q 0 --runmode autofp \
		--set threading.detect-thread-ratio=1 --set nfq.batchcount=8; then
		ko "nfq-autofp: the engine did not start: $(tail -3 "$tmp/nfq-autofp/out" | tr '\n' ' ')"
	else
		flows nfq-autofp 10.38.2.2
		after nfq-autofp 'NFQ#0'
	fi
	x "$nr" iptables-legacy -D FORWARD -j NFQUEUE --queue-num 0
fi

# ---- AF_PACKET IPS: the engine bridges b0 and b1 ----
# two threads: each reads its member of both fanout groups, and the
# kernel's symmetric hash must bring a flow's two directions to one of them
# (else the server's SYN-ACK is a midstream packet, dropped)
if ! START_MARK="capturing on b1 " start afp "$nb" --af-packet \
	--set af-packet.0.interface=b0 --set af-packet.0.threads=2 \
	--set af-packet.0.copy-mode=ips --set af-packet.0.copy-iface=b1 \
	--set af-packet.1.interface=b1 --set af-packet.1.threads=2 \
	--set af-packet.1.copy-mode=ips --set af-packet.1.copy-iface=b0; then
	ko "af-packet ips: the engine did not start: $(tail -3 "$tmp/afp/out" | tr '\n' ' ')"
else
	flows af-packet-ips 10.39.0.3
	after afp b0 b1
fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
