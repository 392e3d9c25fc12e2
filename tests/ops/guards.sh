#!/bin/bash
# tests/ops/guards.sh BUILDDIR SRCDIR: what an operator's mistake (or a
# hostile local user) must not do to a running sensor (issue 43, item 7):
#   a reload of an emptied rule file, through reload-rules and SIGUSR2, is
#     refused: the socket answers NOK with the reason, one log line says it,
#     ruleset-stats still counts the old rules and the next file still alerts;
#   -S on a FIFO with no writer and on /dev/zero: exit 1 at once with one
#     line ("not a regular file"), nothing waited on or read;
#   file-store: the spool a killed run left (a pid gone) is removed at start,
#     one of a running pid and a file of another name are kept.
# Needs the build and python3 (tests/live/uclient.py); no root.
builddir=$(cd "${1:-.}" && pwd)
srcdir=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
bin=$builddir/src/suricata
yaml=$builddir/suricata.yaml
pcap=$srcdir/tests/data/pcaps/http-split-response.pcap
uclient=$srcdir/tests/live/uclient.py
T_NAME="guards"
. "$srcdir/tests/lib.sh"

tmp=$(mktemp -d /tmp/guards-test.XXXXXX)
epid=
trap '[ -n "$epid" ] && kill "$epid" 2> /dev/null; rm -rf "$tmp"' EXIT
sock=$tmp/command.socket
alerts() { local n; n=$(grep -c '"event_type":"alert"' "$1" 2> /dev/null); echo "${n:-0}"; }
run_file() { # PCAP OUTDIR: one file through the socket, waited for
	mkdir -p "$2"
	uc pcap-file "{\"filename\": \"$1\", \"output-dir\": \"$2\"}" > /dev/null
	wait_for 30 "a['message'] == 0" pcap-file-number && wait_for 30 "a['message'] == 'None'" pcap-current
}

# ---- a reload of an emptied rule file
echo 'alert tcp any any -> any any (msg:"syn"; flags:S; sid:1001;)' > "$tmp/a.rules"
mkdir -p "$tmp/log"
"$bin" -c "$yaml" -S "$tmp/a.rules" -k none --unix-socket="$sock" -l "$tmp/log" > "$tmp/log/out" 2>&1 &
epid=$!
for _ in $(seq 1 100); do [ -S "$sock" ] && uc version > /dev/null 2>&1 && break; sleep 0.1; done
if ! uc version > /dev/null 2>&1; then
	bad "the unix-socket runmode did not start: $(tail -3 "$tmp/log/out" | tr '\n' ' ')"
	finish
fi
: > "$tmp/a.rules"
a=$(uc reload-rules)
expect "reload-rules of an empty file: NOK, no rule loaded" "$a" \
	'a["return"] == "NOK" and a["message"].startswith("no rule loaded from 1 rule file while 1 rule run")'
if grep -q "rule reload failed, the running rules are kept: no rule loaded" "$tmp/log/out"; then
	ok "reload-rules: one line says why"
else
	bad "reload-rules: no 'rule reload failed' line: $(grep -m1 'reload' "$tmp/log/out")"
fi
echo '# all rules removed' > "$tmp/a.rules"
kill -USR2 "$epid"
wait_for 30 "a['message'][0]['reloads_failed'] == 2" ruleset-stats && ok "SIGUSR2 of a comments-only file: refused too" ||
	bad "SIGUSR2: not a second failed reload: $(uc ruleset-stats)"
a=$(uc ruleset-stats)
expect "ruleset-stats: the running rule still counted" "$a" 'a["message"][0]["rules_loaded"] == 1'
run_file "$pcap" "$tmp/out-a"
n=$(alerts "$tmp/out-a/eve.json")
if [ "$n" -gt 0 ]; then ok "the next file alerts with the kept rule ($n alerts)"
else bad "no alert on the next file: the old rule is gone"; fi
uc shutdown > /dev/null
for _ in $(seq 1 100); do kill -0 "$epid" 2> /dev/null || break; sleep 0.1; done
wait "$epid" 2> /dev/null
epid=

# ---- rule files that are not regular files
mkfifo "$tmp/rules.fifo"
mkdir -p "$tmp/log-fifo" "$tmp/log-zero"
timeout 20 "$bin" -c "$yaml" -r "$pcap" -S "$tmp/rules.fifo" -l "$tmp/log-fifo" > "$tmp/log-fifo/out" 2>&1
rc=$?
if [ "$rc" = 1 ] && grep -q "rules.fifo: cannot read rule file: not a regular file (a FIFO)" "$tmp/log-fifo/out"; then
	ok "-S FIFO: exit 1 at once: $(grep -m1 -o 'cannot read rule file: .*' "$tmp/log-fifo/out")"
else
	bad "-S FIFO: exit $rc (124: it waited), $(tail -1 "$tmp/log-fifo/out")"
fi
# 2.5 GB before the fix: bounded, so that a failure does not take the machine;
# the 2 GB address-space bound catches the old unbounded read quickly; an
# ASan build reserves terabytes of shadow up front, so it gets the timeout alone
vlimit=2000000
"$bin" --build-info 2> /dev/null | grep -q "ASan/UBSan: *yes" && vlimit=unlimited
(ulimit -v "$vlimit"; timeout 20 "$bin" -c "$yaml" -r "$pcap" -S /dev/zero -l "$tmp/log-zero") > "$tmp/log-zero/out" 2>&1
rc=$?
if [ "$rc" = 1 ] && grep -q "/dev/zero: cannot read rule file: not a regular file (a character device)" "$tmp/log-zero/out"; then
	ok "-S /dev/zero: exit 1, not read"
else
	bad "-S /dev/zero: exit $rc, $(tail -1 "$tmp/log-zero/out")"
fi

# ---- file-store spools a killed run left
mkdir -p "$tmp/log-fs/filestore/tmp"
sh -c 'exit 0' &
gone=$!
wait "$gone"
: > "$tmp/log-fs/filestore/tmp/file.$gone.7"
: > "$tmp/log-fs/filestore/tmp/file.1.3"
: > "$tmp/log-fs/filestore/tmp/keep.me"
"$bin" -c "$yaml" -r "$pcap" -S /dev/null -k none -l "$tmp/log-fs" \
	--set outputs.2.file-store.enabled=yes > "$tmp/log-fs/out" 2>&1 || bad "file-store run: $(tail -1 "$tmp/log-fs/out")"
if [ ! -e "$tmp/log-fs/filestore/tmp/file.$gone.7" ]; then ok "file-store: the spool of a pid gone is removed at start"
else bad "file-store: file.$gone.7 (pid gone) left in tmp"; fi
if [ -e "$tmp/log-fs/filestore/tmp/file.1.3" ] && [ -e "$tmp/log-fs/filestore/tmp/keep.me" ]; then
	ok "file-store: a running pid's spool and other files are kept"
else
	bad "file-store: removed more than the stale spool: $(ls "$tmp/log-fs/filestore/tmp" | tr '\n' ' ')"
fi
finish
