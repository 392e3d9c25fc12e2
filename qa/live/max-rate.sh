#!/bin/bash
# The highest replay rate without drops on this box, ours and the reference
# engine's (Suricata 4.1.10, ../shared/tools/reference-suricata), side by
# side. Both engines run all the time, each on a veth pair of its own (MTU
# 9000) in a namespace of the script's own (tests/live/common.sh), with all
# ET Open rules, --af-packet, workers, 1 thread, TPACKET_V3 (mmap). At each
# rate step tcpreplay sends bench-1x (looped, preloaded) for STEP_S seconds to
# ours, then the same to the reference; what each got and dropped in the
# step is the difference of its unix socket's iface-stat (pkts, drop) before
# and after (both engines answer it). A step passes for an engine when it
# dropped 0 and got >= 97% of what tcpreplay sent; an engine is not stepped
# further after its first failed step. Looping repeats the same flows, so
# later loops are mostly retransmissions to the stream engine: a rate of
# packets, not of new sessions.
#   qa/live/max-rate.sh [BUILDDIR [SRCDIR]]
# env: RATES (pps steps, default "20000 40000 60000 80000 100000 130000
# 160000"), STEP_S (default 8; longer where a step would not send one whole
# bench-1x), REF_DIR (default /tmp/live-ref, installed
# there when absent), RECORD=1 appends the table to qa/bench/RESULTS.md.
# Root only (a network namespace); needs ../shared (ET Open, bench-1x).
builddir=$(cd "${1:-.}" && pwd)
srcdir=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
here=$srcdir/tests/live
shared=${SURICATA_SHARED:-$srcdir/../shared}
et=$shared/data/rules/et-open-4.0
pcap=${LIVE_BENCH_DIR:-/tmp/bench}/bench-1x.pcap
RATES=${RATES:-20000 40000 60000 80000 100000 130000 160000}
STEP_S=${STEP_S:-8}
ref=${REF_DIR:-/tmp/live-ref}
frames=77774     # bench-1x's frames that fit a 9000-byte MTU

[ -d "$et" ] || { echo "max-rate: no ET Open under $shared" >&2; exit 2; }
[ -s "$pcap" ] || "$shared/tools/make-bench-pcap.sh" "$(dirname "$pcap")" 1 || exit 2
[ -x "$ref/bin/suricata" ] || "$shared/tools/reference-suricata/install.sh" "$ref" || exit 2
. "$here/common.sh"
live_setup "max-rate" mr
cat "$et"/emerging-*.rules > "$tmp/et.rules"

# the reference's pair, beside ours
ra=${va}r vr=${vb}r
ip link add "$ra" netns "$ns" type veth peer name "$vr" netns "$ns" || exit 1
for i in "$ra" "$vr"; do
	nsx sysctl -qw "net.ipv6.conf.$i.disable_ipv6=1" 2> /dev/null
	ip -n "$ns" link set "$i" mtu 9000 up
done
sock_ours=$tmp/ours.socket sock_ref=$tmp/ref.socket
common=(-S "$tmp/et.rules" --set "classification-file=$et/classification.config" -k none
	--set unix-command.enabled=yes --set af-packet.0.threads=1 --runmode workers)
bin=$builddir/src/suricata START_WAIT=1800
start ours -c "$builddir/suricata.yaml" --af-packet="$vb" --set "af-packet.0.interface=$vb" \
	--set "unix-command.filename=$sock_ours" || { echo "our engine did not start: $(tail -1 "$tmp/ours/out")"; exit 1; }
pid_ours=$epid
bin=$ref/bin/suricata START_MARK="engine started"
start ref -c "$ref/etc/suricata.yaml" --af-packet="$vr" --set "af-packet.0.interface=$vr" \
	--set "unix-command.filename=$sock_ref" --set af-packet.0.use-mmap=yes --set af-packet.0.tpacket-v3=yes ||
	{ echo "the reference did not start: $(tail -1 "$tmp/ref/out")"; exit 1; }
pid_ref=$epid
for _ in $(seq 1 100); do [ -S "$sock_ours" ] && [ -S "$sock_ref" ] && break; sleep 0.1; done

# protocol 0.1: Suricata 4.1 closes a 0.2 connection at the first command;
# a 0.1 answer has no newline, so read until it parses
istat() { # SOCKET DEV: "pkts drop"
	python3 - "$1" "$2" <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(30)
s.connect(sys.argv[1])
def ask(msg):
	s.sendall(json.dumps(msg).encode())
	buf = b""
	while True:
		chunk = s.recv(65536)
		if not chunk:
			sys.exit("closed")
		buf += chunk
		try:
			return json.loads(buf)
		except ValueError:
			pass
ask({"version": "0.1"})
m = ask({"command": "iface-stat", "arguments": {"iface": sys.argv[2]}})["message"]
print(m["pkts"], m["drop"])
PY
}

# step ENGINE RATE: prints "sent delivered drops rated_pps"
step() {
	local who=$1 rate=$2 loops sent p0 d0 p1 d1 sock dev link dur=$STEP_S
	# at least one whole bench-1x: the kernel's defrag (ours: a fanout
	# group) delivers 1.8% fewer frames than sent over the whole capture,
	# more over a part of it dense in fragments, which would fail the 97%
	[ $((rate * dur)) -ge $frames ] || dur=$(( (frames + rate - 1) / rate ))
	loops=$(( (rate * dur + frames - 1) / frames ))
	if [ "$who" = ours ]; then sock=$sock_ours dev=$vb link=$va; else sock=$sock_ref dev=$vr link=$ra; fi
	read -r p0 d0 < <(istat "$sock" "$dev")
	nsx tcpreplay -i "$link" --pps="$rate" -K --loop="$loops" --duration="$dur" "$pcap" > "$tmp/$who-$rate.out" 2>&1
	sent=$(sent_of "$tmp/$who-$rate.out")
	sleep 3     # the rings drain, the kernel counters are read
	read -r p1 d1 < <(istat "$sock" "$dev")
	echo "${sent:-0} $((${p1:-0} - ${p0:-0})) $((${d1:--1} - ${d0:-0})) $(sed -n 's/.*Rated: .* \([0-9.]*\) pps.*/\1/p' "$tmp/$who-$rate.out" | head -1)"
}

best_ours=0 best_ref=0 on_ours=1 on_ref=1
table="rate_pps  engine     sent      delivered  kernel_drops  tcpreplay_pps  load(1m)  verdict"
echo "$table"
for rate in $RATES; do
	for who in ours ref; do
		eval "on=\$on_$who"
		[ "$on" = 1 ] || continue
		read -r sent got drops rated < <(step "$who" "$rate")
		load=$(cut -d' ' -f1 /proc/loadavg)
		if [ "$drops" = 0 ] && [ "$sent" -gt 0 ] && [ $((got * 100)) -ge $((sent * 97)) ]; then
			# the rate reached is tcpreplay's, which on a busy box may
			# fall short of the one asked
			v=ok; r=${rated%.*}; r=${r:-0}
			[ $((r * 100)) -ge $((rate * 95)) ] || v="ok (tcpreplay short of the rate)"
			eval "[ \$r -gt \$best_$who ] && best_$who=\$r"
		else
			v=FAIL; eval "on_$who=0"
		fi
		line=$(printf "%-9s %-9s %9s %10s %13s %14s %9s  %s" "$rate" "$who" "$sent" "$got" "$drops" "$rated" "$load" "$v")
		echo "$line"
		table+=$'\n'"$line"
	done
	[ "$on_ours" = 0 ] && [ "$on_ref" = 0 ] && break
done
summary="highest rate reached with 0 kernel drops and >= 97% delivered: ours $best_ours pps, reference (Suricata 4.1.10) $best_ref pps"
echo "$summary"
if [ "$RECORD" = 1 ]; then
	{
		echo
		echo "## Live: highest replay rate without drops, ours vs the reference ($(date -u +%Y-%m-%d), $(git -C "$srcdir" rev-parse --short HEAD))"
		echo
		echo "qa/live/max-rate.sh: bench-1x (looped, ${STEP_S} s a step) through a veth (MTU 9000) in a netns,"
		echo "AF_PACKET workers, 1 thread, TPACKET_V3, all ET Open rules; both engines running, each on its"
		echo "own veth pair, got/dropped per step from iface-stat before and after. $(nproc) cores shared with"
		echo "other work: the load average at each step is in the table."
		echo
		echo '```'
		echo "$table"
		echo '```'
		echo
		echo "$summary."
	} >> "$srcdir/qa/bench/RESULTS.md"
fi
stop "$pid_ours"; stop "$pid_ref"
