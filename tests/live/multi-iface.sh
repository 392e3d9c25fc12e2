#!/bin/bash
# Two interfaces captured by one process: a namespace with two veth pairs;
# the engine captures on both ends it owns, each interface with its own
# capture threads, and tcpreplay sends different UDP flows into each.
#   tests/live/multi-iface.sh [BUILDDIR [SRCDIR]]
# Checks (PASS:/FAIL: lines, then "N passed, N failed"), for the af-packet
# list in the yaml (--af-packet without a device: every interface of the
# section, as Suricata), for repeated -i and for the pcap list (--pcap alone):
#   both interfaces are captured ("capturing on" for each);
#   every flow's records (alerts, flow records) name the interface its
#   packets came in on in in_iface, and the flows of each interface are all
#   there; no record carries pcap_cnt (Suricata 8 writes it only when
#   reading files); eve.json is valid against the eve schema; with stats
#   threads: yes, each interface's thread (W#01-IFACE) counts its packets;
#   the command socket's iface-list names both, iface-stat counts each one's.
# SKIPs like tests/live/run.sh when not root or without ip netns/tcpreplay.
builddir=$(cd "${1:-.}" && pwd)
srcdir=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
bin=$builddir/src/suricata
yaml=$builddir/suricata.yaml
here=$srcdir/tests/live

. "$here/common.sh"
live_setup "live multi-interface tests" mi

# the second pair: tcpreplay's end va2, the engine's vb2
va2=${va}x
vb2=${vb}x
if ! ip link add "$va2" netns "$ns" type veth peer name "$vb2" netns "$ns" 2> "$tmp/ip2.err"; then
	echo "SKIP: live multi-interface tests (a second veth pair: $(head -1 "$tmp/ip2.err"))"
	exit 0
fi
for i in "$va2" "$vb2"; do
	nsx sysctl -qw "net.ipv6.conf.$i.disable_ipv6=1" 2> /dev/null
	ip -n "$ns" link set "$i" mtu 9000 up
done

python3 "$here/gen-live-pcap.py" idle "$tmp/a.pcap"
python3 "$here/gen-live-pcap.py" idle2 "$tmp/b.pcap"
common=(-c "$yaml" -S "$here/live.rules" --set unix-command.enabled=no)

# two NAME ARGS...: one engine on both interfaces; a.pcap into the first,
# b.pcap into the second; then SIGTERM and the checks
two() {
	local name=$1; shift
	if ! START_MARK="capturing on $vb2" start "$name" "$@"; then
		ko "$name: the engine did not capture on $vb2: $(tail -2 "$tmp/$name/out" | tr '\n' ' ')"
		stop "$epid"
		return
	fi
	if grep -q "capturing on $vb " "$tmp/$name/out"; then ok "$name: capturing on $vb and $vb2"
	else ko "$name: no 'capturing on $vb' line"; fi
	replay "$tmp/a.pcap" 100 "$tmp/$name/a.out" > /dev/null
	# replay() sends into $va only
	nsx tcpreplay -i "$va2" --pps=100 "$tmp/b.pcap" > "$tmp/$name/b.out" 2>&1
	sleep 0.5
	if [ -S "$tmp/$name.sock" ]; then
		# the command socket names both interfaces and counts each one's
		local l s1 s2
		l=$(python3 "$here/uclient.py" "$tmp/$name.sock" iface-list)
		s1=$(python3 "$here/uclient.py" "$tmp/$name.sock" iface-stat "{\"iface\": \"$vb\"}")
		s2=$(python3 "$here/uclient.py" "$tmp/$name.sock" iface-stat "{\"iface\": \"$vb2\"}")
		if python3 -c 'import json,sys; m=json.loads(sys.argv[1])["message"]; assert m["count"] == 2 and m["ifaces"] == sys.argv[2:], m' "$l" "$vb" "$vb2" 2> /dev/null
		then ok "$name: iface-list names $vb and $vb2"
		else ko "$name: iface-list: $l"; fi
		if [[ $s1 == *'"pkts":10,'* && $s2 == *'"pkts":10,'* ]]; then ok "$name: iface-stat counts 10 packets on each"
		else ko "$name: iface-stat: $s1 / $s2"; fi
	fi
	if stop "$epid"; then ok "$name: clean exit on SIGTERM"
	else ko "$name: no clean exit on SIGTERM"; fi
	clean "$name"
	if grep -q ": $vb: 10 packets, " "$tmp/$name/out" && grep -q ": $vb2: 10 packets, " "$tmp/$name/out"
	then ok "$name: the exit report counts 10 packets on each interface"
	else ko "$name: exit report: $(grep ' packets, ' "$tmp/$name/out" | tr '\n' ' ')"; fi
	local r
	r=$(python3 "$here/check.py" ifaces "$tmp/$name/eve.json" "$name" "$vb=10.40." "$vb2=10.41.")
	echo "$r"
	pass=$((pass + $(grep -c '^PASS' <<< "$r")))
	fail=$((fail + $(grep -c '^FAIL' <<< "$r")))
	# Suricata 8's schema has no place for stats threads
	[[ $name == *-threads ]] || schema_check "$name" "$tmp/$name/eve.json"
}

# the yaml's af-packet list: entry 0 and the "default" entry replaced, so
# that the list names the two interfaces; one thread each, then two for the
# second (a fanout group of its own: the clash of cluster-id 99 is resolved)
two af-packet-list --af-packet --set "af-packet.0.interface=$vb" --set af-packet.0.threads=1 \
	--set "af-packet.1.interface=$vb2" --set af-packet.1.threads=2 --unix-socket="$tmp/af-packet-list.sock"
two af-packet-i -i "$vb" -i "$vb2"
# one thread each: each interface's W#01 in the per-thread stats
two af-packet-threads -i "$vb" -i "$vb2" --set af-packet.0.threads=1 \
	--set "af-packet.0.interface=$vb" --set "af-packet.1.interface=$vb2" --set af-packet.1.threads=1 \
	--set outputs.1.eve-log.types.13.stats.threads=yes
two pcap-list --pcap --set "pcap.0.interface=$vb" --set "pcap.1.interface=$vb2"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
