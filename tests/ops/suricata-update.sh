#!/bin/bash
# tests/ops/suricata-update.sh BUILDDIR SRCDIR: Debian's suricata-update, run
# offline on ET Open 4.0, passes its own test step (`suricata -T -c CONF -S
# RULES`) with our binary, as it would with Suricata 8 (issue #16).
#
# The ruleset is a tarball made here from ../shared/data/rules/et-open-4.0 and
# fetched with --url file://...; nothing touches the network. Disabled, as an
# operator of Suricata 8 must (Suricata 8 rejects them as we do):
#   2017960 2018014 2019825 2022886 2016867
# and 2018897, the one rule that checks the flowbit ET.Pushdo.S that only
# 2016867 sets. suricata-update re-enables a disabled rule that an enabled
# rule needs for a flowbit (its "Enabled N rules for flowbit dependencies");
# it has no switch to turn that off (1.2.7), so the documented disable
# filter (a sid in --disable-conf) takes the dependent out too: it can never
# match without its setter. Part 2 checks that without it the test step
# fails on 2016867, so part 1 passes for the right reason.
#
# Prints PASS:/FAIL:/SKIP: lines and "N passed, N failed".
builddir=$(cd "${1:-.}" && pwd)
srcdir=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
shared="${SURICATA_SHARED:-$srcdir/../shared}"
et="$shared/data/rules/et-open-4.0"
bin="$builddir/src/suricata"
conf="$builddir/suricata.yaml"
T_NAME="suricata-update"
. "$srcdir/tests/lib.sh"

su=$(command -v suricata-update)
if [ -z "$su" ]; then
	echo "SKIP: suricata-update: not installed (apt-get install suricata-update)"
	finish
fi
if [ ! -d "$et" ]; then
	echo "SKIP: suricata-update: ET Open 4.0 not found at $et (../shared)"
	finish
fi

tmp=$(mktemp -d /tmp/su-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/rules"
cp "$et"/*.rules "$et"/classification.config "$tmp/rules/"
tar -C "$tmp" -czf "$tmp/et-open-4.0.tar.gz" rules
printf '%s\n' 2017960 2018014 2019825 2022886 2016867 > "$tmp/disable5.conf"
{ cat "$tmp/disable5.conf"; echo "# checks ET.Pushdo.S, which only 2016867 sets"; echo 2018897; } \
	> "$tmp/disable.conf"

# One run of suricata-update; its log in $tmp/$1.log, its rules in $tmp/$1/.
# -c /dev/null: no update.yaml of the machine's; --no-reload: no daemon.
# Without --url it would go to the network: every run gives one.
update() {
	local name=$1 disable=$2

	"$su" update -q -c /dev/null -D "$tmp/$name.data" -o "$tmp/$name" \
		--suricata "$bin" --suricata-conf "$conf" \
		--url "file://$tmp/et-open-4.0.tar.gz" --disable-conf "$disable" \
		--no-reload --fail > "$tmp/$name.log" 2>&1
}

# 1. the run passes its -T step, and wrote the ruleset it tested
if update good "$tmp/disable.conf"; then
	ok "offline ET Open 4.0 run passes its -T step"
else
	bad "offline ET Open 4.0 run failed: $(grep -m3 -E 'Error|rror:' "$tmp/good.log" | tr '\n' ' ')"
fi
if grep -q "Configuration provided was successfully loaded" "$tmp/good.log"; then
	ok "the -T step ran our binary"
else
	bad "no -T output from our binary in the log"
fi
enabled=$(grep -c '^alert\|^drop\|^pass\|^reject' "$tmp/good/suricata.rules" 2>/dev/null)
# the same rules load in our engine: every enabled one, none failed
out=$("$bin" -T -c "$conf" -S "$tmp/good/suricata.rules" -l "$tmp" 2>&1)
loaded=$(echo "$out" | sed -n 's/.*rules: \([0-9]*\) loaded, \([0-9]*\) failed, \([0-9]*\) skipped.*/\1 \2 \3/p')
set -- $loaded
if [ "${2:-x}" = 0 ] && [ -n "$1" ] && [ $(( $1 + $3 )) -eq "$enabled" ]; then
	ok "its suricata.rules: $enabled enabled, $1 loaded, $3 skipped, 0 failed"
else
	bad "its suricata.rules: $enabled enabled, got '${loaded}' (loaded failed skipped)"
fi
for sid in 2017960 2018014 2019825 2022886 2016867 2018897; do
	if grep -q "^alert.*sid:$sid;" "$tmp/good/suricata.rules"; then
		bad "sid $sid is enabled in the written ruleset"
		continue
	fi
done

# 2. without 2018897 disabled, suricata-update re-enables 2016867 and the
# test step fails on it, naming it
if update flowbit "$tmp/disable5.conf"; then
	bad "with only the 5 disabled, the run passed: the flowbit dependency is gone?"
elif grep -q "Enabled [1-9][0-9]* rules for flowbit dependencies" "$tmp/flowbit.log" 2>/dev/null ||
	grep -q "sid 2016867" "$tmp/flowbit.log"; then
	ok "with only the 5 disabled, 2016867 comes back and -T fails on it"
else
	bad "with only the 5 disabled, the run failed for another reason: $(tail -3 "$tmp/flowbit.log" | tr '\n' ' ')"
fi
if grep -q "sid 2016867" "$tmp/flowbit.log"; then
	ok "the failing -T names sid 2016867"
else
	bad "the failing -T does not name sid 2016867: $(grep -m2 Error "$tmp/flowbit.log" | tr '\n' ' ')"
fi
finish
