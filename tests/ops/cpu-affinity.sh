#!/bin/bash
# tests/ops/cpu-affinity.sh BUILDDIR SRCDIR: threading.set-cpu-affinity and
# threading.cpu-affinity pin the threads as Suricata 8's yaml says: the
# workers (W#NN) to worker-cpu-set (exclusive: one CPU each, in order;
# balanced: the whole set), autofp's reader RX#01 to receive-cpu-set, the
# stats thread CS to management-cpu-set; prio gives a worker the nice value
# of its CPU's list; Suricata 7's list form is read too; off, nothing is
# pinned; a CPU the machine lacks is a start-up error naming it.
# Each run reads a capture from a FIFO this script holds open, so that the
# threads live while /proc/PID/task/*/status (Cpus_allowed_list) is read;
# the wait for them ends as soon as they exist (60 s bounds a broken build).
# The CPUs used are the first two this process may run on (one when it has
# one: then both workers share it). Needs bash, mkfifo, /proc.
builddir=$(cd "${1:-.}" && pwd)
srcdir=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
bin=$builddir/src/suricata
pcap=$srcdir/tests/data/pcaps/sample.pcap
T_NAME="cpu affinity"
. "$srcdir/tests/lib.sh"
tmp=$(mktemp -d /tmp/cpu-affinity.XXXXXX)
epid=
trap 'exec 3>&-; [ -n "$epid" ] && kill "$epid" 2> /dev/null; rm -rf "$tmp"' EXIT

# the CPUs this process may use, one per line ("0-1,4" -> 0 1 4)
allowed=$(python3 -c '
import os
print("\n".join(str(c) for c in sorted(os.sched_getaffinity(0))))')
cpu_a=$(echo "$allowed" | sed -n 1p)
cpu_b=$(echo "$allowed" | sed -n 2p)
[ -n "$cpu_b" ] || cpu_b=$cpu_a
all_list=$(grep Cpus_allowed_list /proc/self/status | awk '{print $2}')

# thread name -> its Cpus_allowed_list and nice, of process $1
threads() {
	for t in /proc/"$1"/task/*; do
		printf '%s %s %s\n' "$(cat "$t/comm" 2> /dev/null)" \
			"$(awk '/Cpus_allowed_list/ {print $2}' "$t/status" 2> /dev/null)" \
			"$(awk '{print $19}' "$t/stat" 2> /dev/null)"
	done
}
cpus_of() { threads "$epid" | awk -v n="$1" '$1 == n {print $2}'; }
nice_of() { threads "$epid" | awk -v n="$1" '$1 == n {print $3}'; }

# run YAML-BODY: starts the engine on a FIFO with the yaml; returns when
# W#01, W#02, RX#01 and CS exist (1 when the engine ended first)
run() {
	cat > "$tmp/t.yaml" <<Y
%YAML 1.1
---
include: $builddir/suricata.yaml
stats:
  enabled: yes
  interval: 8
threading:
  detect-thread-ratio: 1.0
$1
Y
	rm -f "$tmp/in.pcap"
	mkfifo "$tmp/in.pcap"
	"$bin" -c "$tmp/t.yaml" -r "$tmp/in.pcap" -l "$tmp" --runmode autofp -k none \
		--set threading.detect-thread-ratio="$2" > "$tmp/out" 2>&1 &
	epid=$!
	exec 3> "$tmp/in.pcap"
	head -c 24 "$pcap" >&3
	for _ in $(seq 600); do
		n=$(threads "$epid" | awk '$1 ~ /^(W#0[12]|RX#01|CS)$/' | wc -l)
		[ "$n" -ge "$3" ] && return 0
		kill -0 "$epid" 2> /dev/null || return 1
		sleep 0.1
	done
	return 1
}
stop() {
	exec 3>&-
	wait "$epid"
	local rc=$?
	epid=
	return $rc
}
# a ratio that gives two workers on this machine
ncpu=$(nproc)
ratio=$(python3 -c "print(2.0 / $ncpu)")

# 1. exclusive workers, management and receive on cpu_a
if run "  set-cpu-affinity: yes
  cpu-affinity:
    management-cpu-set:
      cpu: [ $cpu_a ]
    receive-cpu-set:
      cpu: [ $cpu_a ]
    worker-cpu-set:
      cpu: [ $cpu_a, $cpu_b ]
      mode: exclusive
      prio:
        low: [ $cpu_a ]
        default: medium" "$ratio" 4; then
	[ "$(cpus_of 'W#01')" = "$cpu_a" ] && ok "exclusive: W#01 on CPU $cpu_a" ||
		bad "exclusive: W#01 on $(cpus_of 'W#01'), not $cpu_a"
	[ "$(cpus_of 'W#02')" = "$cpu_b" ] && ok "exclusive: W#02 on CPU $cpu_b" ||
		bad "exclusive: W#02 on $(cpus_of 'W#02'), not $cpu_b"
	[ "$(cpus_of 'RX#01')" = "$cpu_a" ] && ok "receive-cpu-set: RX#01 on CPU $cpu_a" ||
		bad "RX#01 on $(cpus_of 'RX#01'), not $cpu_a"
	[ "$(cpus_of CS)" = "$cpu_a" ] && ok "management-cpu-set: CS on CPU $cpu_a" ||
		bad "CS on $(cpus_of CS), not $cpu_a"
	[ "$(nice_of 'W#01')" = 2 ] && ok "prio low: W#01 (CPU $cpu_a) at nice 2" ||
		bad "W#01 nice $(nice_of 'W#01'), not 2"
	if [ "$cpu_a" != "$cpu_b" ]; then
		[ "$(nice_of 'W#02')" = 0 ] && ok "prio default medium: W#02 at nice 0" ||
			bad "W#02 nice $(nice_of 'W#02'), not 0"
	fi
else
	bad "run 1 did not start its threads: $(tail -2 "$tmp/out" | tr '\n' ' ')"
fi
stop && ok "run 1 ends with 0" || bad "run 1 exit $?: $(tail -2 "$tmp/out" | tr '\n' ' ')"

# 2. balanced workers on both, management on cpu_b; Suricata 7's list form
if run "  set-cpu-affinity: yes
  cpu-affinity:
    - management-cpu-set:
        cpu: [ $cpu_b ]
    - worker-cpu-set:
        cpu: [ \"$cpu_a-$cpu_b\" ]
        mode: balanced" "$ratio" 4; then
	want=$cpu_a-$cpu_b
	[ "$cpu_a" = "$cpu_b" ] && want=$cpu_a
	[ "$(cpus_of 'W#01')" = "$want" ] && [ "$(cpus_of 'W#02')" = "$want" ] &&
		ok "balanced (7.0 list form): both workers on $want" ||
		bad "balanced: W#01 $(cpus_of 'W#01'), W#02 $(cpus_of 'W#02'), not $want"
	[ "$(cpus_of CS)" = "$cpu_b" ] && ok "management-cpu-set (7.0 list form): CS on $cpu_b" ||
		bad "CS on $(cpus_of CS), not $cpu_b"
	[ "$(cpus_of 'RX#01')" = "$all_list" ] && ok "no receive-cpu-set: RX#01 not pinned" ||
		bad "RX#01 on $(cpus_of 'RX#01'), not $all_list"
else
	bad "run 2 did not start its threads: $(tail -2 "$tmp/out" | tr '\n' ' ')"
fi
stop && ok "run 2 ends with 0" || bad "run 2 exit $?"

# 3. off (the default): nothing pinned
if run "  set-cpu-affinity: no
  cpu-affinity:
    worker-cpu-set:
      cpu: [ $cpu_a ]
      mode: exclusive" "$ratio" 4; then
	[ "$(cpus_of 'W#01')" = "$all_list" ] && [ "$(cpus_of CS)" = "$all_list" ] &&
		ok "set-cpu-affinity: no pins nothing ($all_list)" ||
		bad "off: W#01 $(cpus_of 'W#01'), CS $(cpus_of CS), not $all_list"
else
	bad "run 3 did not start its threads: $(tail -2 "$tmp/out" | tr '\n' ' ')"
fi
stop && ok "run 3 ends with 0" || bad "run 3 exit $?"

# 4. a CPU the machine lacks: refused at start, named
cat > "$tmp/bad.yaml" <<Y
%YAML 1.1
---
include: $builddir/suricata.yaml
threading:
  set-cpu-affinity: yes
  cpu-affinity:
    worker-cpu-set:
      cpu: [ 4095 ]
Y
"$bin" -c "$tmp/bad.yaml" -r "$pcap" -l "$tmp" > "$tmp/out" 2>&1
rc=$?
if [ "$rc" != 0 ] && grep -q "worker-cpu-set.cpu: CPU 4095" "$tmp/out"; then
	ok "a CPU the machine lacks: start-up error naming it (exit $rc)"
else
	bad "CPU 4095: exit $rc: $(tail -2 "$tmp/out" | tr '\n' ' ')"
fi
finish
