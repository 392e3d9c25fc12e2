#!/bin/bash
# tests/ops/bad-config.sh BUILDDIR SRCDIR: a configuration mistake stops
# start-up as Suricata 8 stops it (issue 38, item 4): exit 1 and one error
# line that names the mistake, under -T and in a run, instead of thousands
# of rule errors or a "not used" notice and a run that logs nothing:
#   a bracket missing in HOME_NET, a port variable "8O", an unquoted list;
#   an output type (eve-logg) and an eve-log type (alrt) Suricata 8 has not;
#   and, as controls, the shipped yaml and a disabled unknown output load;
#   the rules of a protocol switched off are skipped in one summary line.
# Needs the build; no root.
builddir=$(cd "${1:-.}" && pwd)
srcdir=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
bin=$builddir/src/suricata
yaml=$builddir/suricata.yaml
pcap=$srcdir/tests/data/pcaps/http-split-response.pcap
T_NAME="bad-config"
. "$srcdir/tests/lib.sh"

tmp=$(mktemp -d /tmp/bad-config-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
echo 'alert tcp $HOME_NET any -> $EXTERNAL_NET $HTTP_PORTS (msg:"x"; flow:to_server; content:"GET"; sid:1;)' > "$tmp/r.rules"

# refused NAME PATTERN ARGS...: -T and a run with ARGS (and the yaml $Y)
# exit 1 with exactly one error line, and it matches PATTERN (grep -E)
Y=$yaml
refused() {
	local name=$1 pat=$2 mode rc n line
	shift 2
	for mode in -T run; do
		mkdir -p "$tmp/log"
		if [ "$mode" = -T ]; then
			timeout 120 "$bin" -T -c "$Y" -S "$tmp/r.rules" -l "$tmp/log" "$@" > "$tmp/out" 2>&1
		else
			timeout 120 "$bin" -c "$Y" -r "$pcap" -S "$tmp/r.rules" -l "$tmp/log" "$@" > "$tmp/out" 2>&1
		fi
		rc=$?
		n=$(grep -c '^Error' "$tmp/out")
		line=$(grep -m1 '^Error' "$tmp/out")
		if [ "$rc" = 1 ] && [ "$n" = 1 ] && echo "$line" | grep -qE "$pat"; then
			ok "$name ($mode): exit 1, one line: $line"
		else
			bad "$name ($mode): exit $rc, $n error lines, first: ${line:-$(tail -1 "$tmp/out")}"
		fi
	done
}

# a yaml with one line changed: sub FROM TO (sed, first match)
sub() { sed "0,/$1/s//$2/" "$yaml" > "$tmp/y.yaml"; cmp -s "$yaml" "$tmp/y.yaml" && bad "no $1 in $yaml"; }

refused "HOME_NET with a bracket missing" \
	'failed to parse address var "HOME_NET" with value "\[192.168.0.0/16,10.0.0.0/8"' \
	--set 'vars.address-groups.HOME_NET=[192.168.0.0/16,10.0.0.0/8'
refused "HTTP_PORTS 8O" 'failed to parse port var "HTTP_PORTS" with value "8O"' \
	--set 'vars.port-groups.HTTP_PORTS=8O'
refused "a variable naming an unknown one" 'failed to parse address var "EXTERNAL_NET"' \
	--set 'vars.address-groups.EXTERNAL_NET=!$HOME_NTE'
refused "EXTERNAL_NET that leaves no address" 'failed to parse address var "EXTERNAL_NET"' \
	--set 'vars.address-groups.EXTERNAL_NET=!any'
sub '^    HOME_NET: .*' '    HOME_NET: [10.0.0.0\/8, 192.168.0.0\/16]'
Y=$tmp/y.yaml refused "an unquoted list" 'address var "HOME_NET" probably has a sequence'

sub '^  - eve-log:' '  - eve-logg:'
Y=$tmp/y.yaml refused "outputs: eve-logg" 'No output module named eve-logg'
sub '^        - flow$' '        - alrt'
Y=$tmp/y.yaml refused "eve-log types: alrt" 'No output module named eve-log.alrt'

# controls: what loads must still load
mkdir -p "$tmp/log"
"$bin" -T -c "$yaml" -S "$tmp/r.rules" -l "$tmp/log" > "$tmp/out" 2>&1 && ! grep -q '^Error' "$tmp/out" &&
	ok "the shipped yaml: -T exit 0, no error" || bad "the shipped yaml: -T: $(grep -m1 '^Error' "$tmp/out")"
sub '^  - fast:' '  - fastt:'
sed -i '0,/^      enabled: yes/s//      enabled: no/' "$tmp/y.yaml"
"$bin" -T -c "$tmp/y.yaml" -S "$tmp/r.rules" -l "$tmp/log" > "$tmp/out" 2>&1 &&
	ok "an unknown output that is not enabled: -T exit 0 (as Suricata: not looked up)" ||
	bad "an unknown disabled output: $(grep -m1 '^Error' "$tmp/out")"
refused "security.limit-noproc: maybe" "security.limit-noproc: invalid boolean 'maybe'" \
	--set security.limit-noproc=maybe

# the rules of a protocol switched off: skipped, one summary line, exit 0
cat > "$tmp/p.rules" << 'EOF2'
alert tls any any -> any any (msg:"tls 1"; tls.sni; content:"a"; sid:11;)
alert tcp any any -> any any (msg:"tls 2"; tls.sni; content:"b"; sid:12;)
alert tls any any -> any any (msg:"tls 3"; tls.version:1.2; sid:13;)
alert http any any -> any any (msg:"http"; http.uri; content:"c"; sid:14;)
EOF2
"$bin" -T -c "$yaml" -S "$tmp/p.rules" -l "$tmp/log" --set app-layer.protocols.tls.enabled=no > "$tmp/out" 2>&1
rc=$?
n=$(grep -c 'tls is disabled' "$tmp/out")
if [ "$rc" = 0 ] && [ "$n" = 1 ] && grep -q 'rules: 1 loaded, 0 failed, 3 skipped' "$tmp/out" &&
   grep -q 'rules skipped: app-layer protocol tls is disabled (app-layer.protocols.tls.enabled: no) .3' "$tmp/out"; then
	ok "tls disabled: its 3 rules skipped in one line, the http rule loads, exit 0"
else
	bad "tls disabled: exit $rc, $n lines: $(grep -m2 'rules' "$tmp/out" | tr '\n' ' ')"
fi
"$bin" -T -c "$yaml" -S "$tmp/p.rules" -l "$tmp/log" > "$tmp/out" 2>&1 && grep -q 'rules: 4 loaded, 0 failed, 0 skipped' "$tmp/out" &&
	ok "tls enabled: the 4 rules load" || bad "tls enabled: $(grep -m1 'rules:' "$tmp/out")"

# security.limit-noproc: RLIMIT_NPROC 0 once the threads are up; a run as
# another user than root (who is exempt, and warned) still reads its file
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	mkdir -p "$tmp/nb" && chmod 777 "$tmp/nb" "$tmp" && chmod 644 "$tmp/r.rules"
	# the shipped yaml leaves it off (a run as root would warn): set here
	setpriv --reuid=65534 --regid=65534 --clear-groups "$bin" -c "$yaml" -r "$pcap" -S "$tmp/r.rules" \
		--set security.limit-noproc=yes --runmode autofp -l "$tmp/nb" -v > "$tmp/out" 2>&1
	rc=$?
	if grep -q 'security.limit-noproc: not applied in an ASan/UBSan build' "$tmp/out"; then
		# the sanitizers' own threads need processes: the engine leaves the
		# limit off in such a build and says so (CI's ASan run)
		echo "SKIP: $T_NAME: limit-noproc as nobody and as root: a sanitizer build does not apply it"
	elif [ "$rc" = 0 ] && grep -q 'security.limit-noproc: no new process or thread from here' "$tmp/out" &&
	   grep -q '"event_type":"flow"' "$tmp/nb/eve.json"; then
		ok "limit-noproc as nobody: applied once the threads are up, the run completes"
	else
		bad "limit-noproc as nobody: exit $rc, $(grep -m1 -i 'noproc\|error' "$tmp/out")"
	fi
	if ! grep -q 'not applied in an ASan/UBSan build' "$tmp/out"; then
		"$bin" -c "$yaml" -r "$pcap" -S "$tmp/r.rules" -l "$tmp/log" --set security.limit-noproc=yes \
			> "$tmp/out" 2>&1
		grep -q 'security.limit-noproc: setrlimit has no effect when running as root' "$tmp/out" &&
			ok "limit-noproc as root: warned, as Suricata 8" || bad "limit-noproc as root: no warning"
	fi
else
	echo "SKIP: $T_NAME: limit-noproc as another user needs root and setpriv"
fi
finish
