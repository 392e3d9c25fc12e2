# The setup every live test shares, sourced (not run) by tests/live/*.sh and
# qa/live/*.sh: a network namespace of its own with a veth pair (MTU 9000:
# bench-1x has frames up to 37 KB; larger ones are not sent), the engine
# started in it, stopped by SIGTERM, tcpreplay sending into the other end.
#
#   . tests/live/common.sh
#   live_setup "WHAT" PREFIX      SKIPs (exit 0) with one line naming WHAT when
#                                 not root, without tcpreplay or ip netns, or
#                                 without veth; sets ns, va (tcpreplay's end),
#                                 vb (the engine's end), tmp (removed at exit
#                                 unless LIVE_KEEP is set). PREFIX (letters)
#                                 names the namespace, links and folder, so
#                                 that two scripts can run side by side.
# Then: ok/ko WHAT (PASS:/FAIL: lines, counted in pass/fail), nsx CMD...,
# alive PID, start NAME ARGS... (the engine with "${common[@]}", which the
# caller sets, logging into $tmp/NAME; sets epid), stop PID, clean NAME,
# replay PCAP PPS OUTFILE [TCPREPLAY-ARGS...], sent_of OUTFILE.
# The caller sets bin (the engine) before calling start.
# schema_check NAME EVE: EVE against Suricata's eve schema (srcdir set),
# PASS/FAIL, or a SKIP line when the schema or jsonschema is missing.

pass=0
fail=0
pids=()
ok() { echo "PASS: live $*"; pass=$((pass + 1)); }
ko() { echo "FAIL: live $*"; fail=$((fail + 1)); }

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

# a zombie (exited, not yet waited for) answers kill -0: look at its state
alive() {
	local s
	s=$(ps -o stat= -p "$1" 2> /dev/null)
	[ -n "$s" ] && [ "${s:0:1}" != Z ]
}

live_cleanup() {
	for p in "${pids[@]}"; do alive "$p" && kill -KILL "$p" 2> /dev/null; done
	ip netns del "$ns" 2> /dev/null
	if [ -n "$LIVE_KEEP" ]; then echo "kept: $tmp"; else rm -rf "$tmp"; fi
}

live_setup() { # WHAT PREFIX
	local what=$1 p=$2
	if [ "$(id -u)" != 0 ]; then
		echo "SKIP: $what (not root: they need a network namespace)"
		exit 0
	fi
	if ! command -v tcpreplay > /dev/null; then
		echo "SKIP: $what (tcpreplay is not installed: ./install-deps.sh)"
		exit 0
	fi
	ns=s$p$$
	va=${p}a$$
	vb=${p}b$$
	if ! ip netns add "$ns" 2> /dev/null; then
		echo "SKIP: $what (ip netns is not available here)"
		exit 0
	fi
	tmp=$(mktemp -d "/tmp/live-$p.XXXXXX")
	trap live_cleanup EXIT
	if ! ip link add "$va" netns "$ns" type veth peer name "$vb" netns "$ns" 2> "$tmp/ip.err"; then
		echo "SKIP: $what (cannot make a veth pair: $(head -1 "$tmp/ip.err"))"
		exit 0
	fi
	local i
	for i in "$va" "$vb"; do
		# no IPv6 (router solicitations, MLD) and no addresses: the link
		# carries only what tcpreplay sends
		nsx sysctl -qw "net.ipv6.conf.$i.disable_ipv6=1" 2> /dev/null
		ip -n "$ns" link set "$i" mtu 9000 up
	done
	ip -n "$ns" link set lo up
}

nsx() { ip netns exec "$ns" "$@"; }

# start NAME ARGS...: the engine in the namespace, in the background; waits
# (30 s at most; START_WAIT tenths of a second) for its "capturing on" line
# (START_MARK: another engine's line).
# Sets $epid.
start() {
	local name=$1; shift
	mkdir -p "$tmp/$name"
	: > "$tmp/$name/out"     # the background job opens it later
	# not through nsx: $! must be the engine (ip netns exec execs it), not a
	# subshell running a function
	ip netns exec "$ns" "$bin" "${common[@]}" -l "$tmp/$name" "$@" > "$tmp/$name/out" 2>&1 &
	epid=$!
	pids+=("$epid")
	for _ in $(seq 1 "${START_WAIT:-300}"); do
		grep -q "${START_MARK:-capturing on}" "$tmp/$name/out" && return 0
		alive "$epid" || break
		sleep 0.1
	done
	return 1
}

# stop PID: SIGTERM, then waits (at most 30 s) for a clean exit; 0 when it did.
stop() {
	kill -TERM "$1" 2> /dev/null
	for _ in $(seq 1 300); do
		alive "$1" || { wait "$1" 2> /dev/null; return $?; }
		sleep 0.1
	done
	kill -KILL "$1" 2> /dev/null
	return 1
}

# clean NAME: the engine's output holds no sanitizer report (ASan builds)
clean() {
	local r
	r=$(grep -m1 -E 'ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:' "$tmp/$1/out")
	if [ -n "$r" ]; then ko "$1: sanitizer report: $r"; fi
}

# sent_of OUTFILE: the packets tcpreplay's output says it sent
sent_of() { sed -n 's/.*Actual: \([0-9]*\) packets.*/\1/p' "$1" | head -1; }

replay() { # PCAP PPS OUTFILE [ARGS...]: prints the packets tcpreplay sent
	local pcap=$1 pps=$2 out=$3; shift 3
	nsx tcpreplay -i "$va" --pps="$pps" "$@" "$pcap" > "$out" 2>&1
	sent_of "$out"
}
